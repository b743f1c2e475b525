/*
 * test_dxbc_writer.c - the SPIR-V -> DXBC translator of the Direct3D 12 renderer
 * (src/renderers/d3d12/d3d12_dxbc.c), without a device:
 *  - the container checksum reproduces the checksums Wine's d3dcompiler stored in the
 *    committed stock blobs (shaders/generated/dxbc);
 *  - SPIR-V from MojoShader (D3D9 assembly -> MOJOSHADER_assemble -> MOJOSHADER_parse "spirv",
 *    made here at test time) and from glslang (the HLSL files in tests/dxbc, compiled by
 *    glslangValidator at build time) translates to DXBC that vkd3d-shader accepts and turns into SPIR-V
 *    that passes spirv-val (where the tool is installed);
 *  - the signatures follow the location -> semantic rule of d3d12_dxbc.h;
 *  - unsupported features are refused by name, malformed modules as invalid arguments.
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_dxbc.h"
#include "../shaders/generated/dxbc/stock.h"
#include <vkd3d_shader.h>
#ifdef XGD_TEST_HAVE_MOJOSHADER
#include <mojoshader/mojoshader.h>
#endif
#ifdef XGD_TEST_HAVE_DXBC_HLSL
#include "dxbc_hlsl_tests.h"
#endif

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* the chunk `fourcc` of a container, or NULL */
static const uint8_t *chunk(const uint8_t *b, size_t size, const char *fourcc, uint32_t *len)
{
    if (size < 32) return NULL;
    uint32_t n = rd32(b + 28);
    for (uint32_t i = 0; i < n && 32 + 4 * (size_t)i + 4 <= size; i++) {
        uint32_t off = rd32(b + 32 + 4 * i);
        if ((size_t)off + 8 > size) return NULL;
        if (!memcmp(b + off, fourcc, 4)) {
            *len = rd32(b + off + 4);
            return (size_t)off + 8 + *len <= size ? b + off + 8 : NULL;
        }
    }
    return NULL;
}

/* the signature element with register reg: "NAME<index>" into out, or "" */
static void sig_name(const uint8_t *b, size_t size, const char *fourcc, uint32_t reg, char *out,
                     size_t out_size)
{
    uint32_t len;
    const uint8_t *d = chunk(b, size, fourcc, &len);
    out[0] = 0;
    if (!d || len < 8) return;
    uint32_t n = rd32(d), at = rd32(d + 4);
    for (uint32_t i = 0; i < n && at + 24 * (i + 1) <= len; i++) {
        const uint8_t *e = d + at + 24 * i;
        if (rd32(e + 16) != reg) continue;
        uint32_t name = rd32(e);
        if (name >= len || !memchr(d + name, 0, len - name)) return;
        snprintf(out, out_size, "%s%u", (const char *)d + name, rd32(e + 4));
        return;
    }
}

/* DXBC -> SPIR-V through libvkd3d-shader (what the Direct3D 12 renderer runs on Linux), then
   spirv-val on the result where spirv-tools is installed. Returns 1 when both accept. */
static int vkd3d_accepts(xgdt_ctx *t, const char *label, const void *dxbc, size_t size)
{
    struct vkd3d_shader_compile_info info;
    struct vkd3d_shader_code out;
    char *messages = NULL;
    memset(&info, 0, sizeof info);
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source.code = dxbc;
    info.source.size = size;
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_WARNING;
    int r = vkd3d_shader_compile(&info, &out, &messages);
    if (r < 0) {
        CHECK_MSG(0, "%s: vkd3d-shader refused the DXBC (%d): %s", label, r, messages ? messages : "");
        vkd3d_shader_free_messages(messages);
        return 0;
    }
    vkd3d_shader_free_messages(messages);
    int ok = 1;
    if (system("command -v spirv-val >/dev/null 2>&1") == 0) {
        const char *dir = getenv("XGD_TEST_OUTPUT");
        char path[512], cmd[1200];
        snprintf(path, sizeof path, "%s/dxbc-%s.spv", dir ? dir : ".", label);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(out.code, 1, out.size, f);
            fclose(f);
            snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.0 '%s'", path);
            if (system(cmd) != 0) {
                CHECK_MSG(0, "%s: spirv-val rejects vkd3d's SPIR-V (%s)", label, path);
                ok = 0;
            } else remove(path);
        }
    }
    vkd3d_shader_free_shader_code(&out);
    return ok;
}
#endif

XGD_TEST(DXBC_ChecksumMatchesStockBlobs)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    /* Every committed blob came from Wine's d3dcompiler, which stored its checksum at bytes
       4..19; vkd3d refuses a container whose checksum does not match, as Windows does. */
    struct blob { const unsigned char *p; size_t n; const char *name; };
#define B(x) { xgd_dxbc_##x, sizeof xgd_dxbc_##x, #x }
#define BASIC(v, vs, ps) B(vs), B(ps),
    const struct blob blobs[] = {
        B(sprite_vs), B(sprite_ps), B(mrt_vs), B(mrt_ps), B(blit_vs), B(blit_ps),
        B(volume_vs), B(volume_ps), XGD_DXBC_BASIC_VARIANTS(BASIC)
    };
#undef BASIC
#undef B
    size_t tail_kinds[64] = { 0 };
    for (size_t i = 0; i < sizeof blobs / sizeof *blobs; i++) {
        uint32_t sum[4];
        REQUIRE(blobs[i].n > 20);
        xgdi_d3d12_dxbc_checksum(blobs[i].p, blobs[i].n, sum);
        CHECK_MSG(!memcmp(sum, blobs[i].p + 4, 16), "checksum of %s differs from the stored one",
                  blobs[i].name);
        tail_kinds[(blobs[i].n - 20) % 64] = 1;
    }
    /* the set covers both final-block layouts: remainders below 56 bytes and 56..63 */
    int low = 0, high = 0;
    for (int k = 0; k < 64; k++) { if (tail_kinds[k] && k < 56) low = 1; if (tail_kinds[k] && k >= 56) high = 1; }
    CHECK(low && high);
    /* one changed byte anywhere after the checksum changes it */
    unsigned char copy[sizeof xgd_dxbc_sprite_ps];
    memcpy(copy, xgd_dxbc_sprite_ps, sizeof copy);
    copy[sizeof copy - 1] ^= 1;
    uint32_t sum[4];
    xgdi_d3d12_dxbc_checksum(copy, sizeof copy, sum);
    CHECK(memcmp(sum, copy + 4, 16) != 0);
#endif
}

#if defined(XGD_TEST_HAVE_D3D12) && defined(XGD_TEST_HAVE_MOJOSHADER)
/* D3D9 assembly -> MojoShader's SPIR-V (the patch table MojoShader appends cut off; stage
   locations it leaves as 0xDEADBEEF numbered in declaration order, as the effect loader links
   them by usage). Returns malloc'd words. */
static uint32_t *mojo_spirv(xgdt_ctx *t, const char *src, size_t *nwords)
{
    const MOJOSHADER_parseData *a = MOJOSHADER_assemble("test", src, strlen(src), NULL, 0, NULL, 0,
                                                        NULL, 0, NULL, NULL, NULL, NULL, NULL);
    if (a->error_count) {
        CHECK_MSG(0, "assembler: %s in\n%s", a->errors[0].error, src);
        MOJOSHADER_freeParseData(a);
        return NULL;
    }
    const MOJOSHADER_parseData *p = MOJOSHADER_parse("spirv", "main", (const unsigned char *)a->output,
                                                     (unsigned)a->output_len, NULL, 0, NULL, 0, NULL, NULL, NULL);
    MOJOSHADER_freeParseData(a);
    if (p->error_count) {
        CHECK_MSG(0, "MojoShader: %s in\n%s", p->errors[0].error, src);
        MOJOSHADER_freeParseData(p);
        return NULL;
    }
    size_t n = (size_t)p->output_len / 4, i = 5;
    uint32_t *w = malloc(n * 4 + 4);
    if (!w) { MOJOSHADER_freeParseData(p); return NULL; }
    memcpy(w, p->output, n * 4);
    MOJOSHADER_freeParseData(p);
    while (i < n && (w[i] >> 16)) i += w[i] >> 16;
    if (i > n) i = n;
    uint32_t loc = 0;
    for (size_t k = 5; k < i; k += w[k] >> 16)
        if ((w[k] & 0xffff) == 71 && (w[k] >> 16) == 4 && w[k + 2] == 30 && w[k + 3] == 0xdeadbeefu)
            w[k + 3] = loc++;
    *nwords = i;
    return w;
}
#endif

XGD_TEST(DXBC_MojoShaderEffectsTranslate)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_MOJOSHADER)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or MojoShader");
#else
    static const char *const shaders[] = {
        /* vs: transform, colour, texcoord (a SpriteEffect-like pass) */
        "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\nm4x4 oPos, v0, c0\nmov oD0, v1\nmov oT0, v2\n",
        /* ps: texture * vertex colour * constant */
        "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, v0\nmul r0, r0, c2\nmov oC0, r0\n",
        /* vs arithmetic: lighting-like math */
        "vs_2_0\ndcl_position v0\ndcl_normal v1\nm4x4 oPos, v0, c0\nm3x3 r0.xyz, v1, c4\nnrm r1.xyz, r0\n"
        "dp3 r2.x, r1, c7\nmax r2.x, r2.x, c8.x\nmul r3, r2.x, c9\nrsq r4.x, c10.x\nrcp r4.y, c10.y\n"
        "exp r4.z, c10.z\nlog r4.w, c10.w\nadd r3, r3, r4\nslt r5, r3, c11\nsge r6, r3, c11\n"
        "min r5, r5, r6\nfrc r6, c12\nlrp r7, c13, r5, r6\nmad oD0, r7, c14, r3\nmov oT0, v1\n",
        /* ps: compare/select, dp2add, pow, abs, texkill */
        "ps_2_0\ndcl t0\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\ncmp r1, r0, c0, c1\ndp2add r2.x, r0, c2, c3.x\n"
        "pow r3.x, r0.x, c4.x\nabs r4, r0\nadd r1, r1, r2.x\nadd r1, r1, r3.x\nadd r1, r1, r4\ntexkill t0\nmov oC0, r1\n",
        /* ps_3_0: dynamic flow control, derivatives, texldl/texldd */
        "ps_3_0\ndcl_texcoord0 v0\ndcl_color0 v1\ndcl_2d s0\ndef c10, 0.5, 1, 0, 0\n"
        "if_gt v0.x, c10.x\ntexld r0, v0, s0\nelse\nmov r0, v1\nendif\n"
        "dsx r1, v0\ndsy r2, v0\nadd r0, r0, r1\nadd r0, r0, r2\n"
        "mov r3, v0\nmov r3.w, c10.z\ntexldl r4, r3, s0\ntexldd r5, v0, s0, r1, r2\n"
        "add r0, r0, r4\nadd oC0, r0, r5\n",
        /* vs_3_0: loops over a constant-int count, sincos */
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_color o1\ndefi i0, 3, 0, 1, 0\ndef c20, 0, 1, 0, 0\n"
        "mov r0, c20.x\nrep i0\nadd r0, r0, c1\nendrep\n"
        "sincos r1.xy, v0.x\nadd r0.xy, r0, r1\nmov o0, v0\nmov o1, r0\n",
        /* ps_3_0: vPos and vFace */
        "ps_3_0\ndcl vPos.xy\ndcl vFace\ndef c0, 0.25, 0, 0, 1\n"
        "mul r0.xy, vPos, c0.x\ncmp r0.z, vFace, c0.w, c0.y\nmov r0.w, c0.w\nmov oC0, r0\n",
    };
    for (size_t i = 0; i < sizeof shaders / sizeof *shaders; i++) {
        size_t n;
        uint32_t *w = mojo_spirv(t, shaders[i], &n);
        if (!w) continue;
        void *dxbc = NULL;
        size_t size = 0;
        char msg[256], label[32];
        xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
        CHECK_MSG(r == XGD_OK, "shader %zu: %s (%s)\n%s", i, xgd_result_name(r), msg, shaders[i]);
        snprintf(label, sizeof label, "mojo%zu", i);
        if (r == XGD_OK) vkd3d_accepts(t, label, dxbc, size);
        xgdi_d3d12_dxbc_free(dxbc);
        free(w);
    }
#endif
}

XGD_TEST(DXBC_GlslangHlslTranslate)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    struct shader { const uint32_t *w; size_t n; const char *name; };
#define SH(x) { dxbc_hlsl_##x, sizeof dxbc_hlsl_##x / 4, #x }
    const struct shader shaders[] = {
        SH(textured_vert), SH(textured_frag), SH(control_vert), SH(control_frag),
    };
#undef SH
    for (size_t i = 0; i < sizeof shaders / sizeof *shaders; i++) {
        void *dxbc = NULL;
        size_t size = 0;
        char msg[256];
        xgd_result r = xgdi_d3d12_dxbc_from_spirv(shaders[i].w, shaders[i].n, NULL, 0, &dxbc,
                                                  &size, msg, sizeof msg);
        CHECK_MSG(r == XGD_OK, "%s: %s (%s)", shaders[i].name, xgd_result_name(r), msg);
        if (r == XGD_OK) vkd3d_accepts(t, shaders[i].name, dxbc, size);
        xgdi_d3d12_dxbc_free(dxbc);
    }
#endif
}

XGD_TEST(DXBC_SignaturesFollowLocationRule)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    /* d3d12_dxbc.h: vertex input location L -> TEXCOORD L at v L; vertex output Position ->
       SV_Position at o0, location L -> TEXCOORD L at o(L+1); pixel input the same registers;
       pixel output location L -> SV_Target L at o L. textured.hlsl's glslang locations: vertex
       inputs 0, 1, 2; varyings Color 0, TexCoord 1; target 0. */
    struct expect { const char *fourcc; uint32_t reg; const char *name; };
    static const struct expect vs[] = {
        { "ISGN", 0, "TEXCOORD0" }, { "ISGN", 1, "TEXCOORD1" }, { "ISGN", 2, "TEXCOORD2" },
        { "OSGN", 0, "SV_Position0" }, { "OSGN", 1, "TEXCOORD0" }, { "OSGN", 2, "TEXCOORD1" },
    };
    static const struct expect ps[] = {
        { "ISGN", 1, "TEXCOORD0" }, { "ISGN", 2, "TEXCOORD1" }, { "ISGN", 0, "" },
        { "OSGN", 0, "SV_Target0" },
    };
    for (int stage = 0; stage < 2; stage++) {
        const uint32_t *w = stage ? dxbc_hlsl_textured_frag : dxbc_hlsl_textured_vert;
        size_t n = stage ? sizeof dxbc_hlsl_textured_frag / 4 : sizeof dxbc_hlsl_textured_vert / 4;
        const struct expect *e = stage ? ps : vs;
        size_t ne = stage ? sizeof ps / sizeof *ps : sizeof vs / sizeof *vs;
        void *dxbc = NULL;
        size_t size = 0;
        char msg[256], name[64];
        REQUIRE_OK(xgdi_d3d12_dxbc_from_spirv(w, n, NULL, 0, &dxbc, &size, msg, sizeof msg));
        for (size_t i = 0; i < ne; i++) {
            sig_name(dxbc, size, e[i].fourcc, e[i].reg, name, sizeof name);
            CHECK_MSG(!strcmp(name, e[i].name), "stage %d %s register %u: '%s', expected '%s'",
                      stage, e[i].fourcc, e[i].reg, name, e[i].name);
        }
        /* the stored checksum is the container's */
        uint32_t sum[4];
        xgdi_d3d12_dxbc_checksum(dxbc, size, sum);
        CHECK(!memcmp(sum, (const uint8_t *)dxbc + 4, 16));
        xgdi_d3d12_dxbc_free(dxbc);
    }
#endif
}
