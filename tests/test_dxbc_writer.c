/*
 * test_dxbc_writer.c - the SPIR-V -> DXBC translator of the Direct3D 12 renderer
 * (src/renderers/d3d12/d3d12_dxbc.c), without a device:
 *  - the container checksum reproduces the checksums Wine's d3dcompiler stored in the
 *    committed blit blobs (shaders/generated/dxbc) and in tests/dxbc/wine_mrt_ps.h;
 *  - SPIR-V from MojoShader (D3D9 assembly -> MOJOSHADER_assemble -> MOJOSHADER_parse "spirv",
 *    made here at test time) and from glslang (the HLSL files in tests/dxbc, compiled by
 *    glslangValidator at build time) translates to DXBC that vkd3d-shader accepts and turns into SPIR-V
 *    that passes spirv-val (where the tool is installed);
 *  - the signatures follow the location -> semantic rule of d3d12_dxbc.h;
 *  - unsupported features are refused by name, malformed modules as invalid arguments;
 *  - translated pairs draw the expected pixels through vkd3d (last part of this file).
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep (waiting for the Direct3D 12 fence) */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_dxbc.h"
#include "../shaders/generated/dxbc/blit.h"
#include "dxbc/wine_mrt_ps.h"
#include <vkd3d_shader.h>
#ifdef XGD_TEST_HAVE_MOJOSHADER
#include <mojoshader/mojoshader.h>
#endif
#ifdef XGD_TEST_HAVE_INTERNAL_SPIRV
#include "xvk_spirv.h" /* shaders/mips.comp as SPIR-V (the build's internal shaders) */
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
    const struct blob blobs[] = { B(blit_vs), B(blit_ps), B(wine_mrt_ps) };
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
    unsigned char copy[sizeof xgd_dxbc_blit_ps];
    memcpy(copy, xgd_dxbc_blit_ps, sizeof copy);
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
        /* ps_2_0: projective and biased sampling, a cube map */
        "ps_2_0\ndcl t0\ndcl t1.xyz\ndcl_2d s0\ndcl_cube s1\ntexldp r0, t0, s0\ntexldb r1, t0, s0\n"
        "texld r2, t1, s1\nadd r0, r0, r1\nadd r0, r0, r2\nmov oC0, r0\n",
        /* vs_3_0: a counted loop, vertex texture fetch */
        "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_2d s0\ndcl_position o0\ndcl_texcoord o1\n"
        "defi i0, 4, 0, 1, 0\ndef c30, 0, 0, 0, 0\nmov r0, c30\nloop aL, i0\nadd r0, r0, c2\nendloop\n"
        "texldl r1, v1, s0\nadd o1, r0, r1\nmov o0, v0\n",
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
        SH(flow_vert), SH(flow_frag), SH(fetch_vert), SH(fetch_frag),
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

/* ---------------------------------------------------------------- pixels through vkd3d
 * SPIR-V from MojoShader and from glslang (tests/dxbc/textured.hlsl) goes through the
 * translator into a Direct3D 12 pipeline on vkd3d (lavapipe in CI), draws a full-screen
 * triangle, and the read-back pixels must equal the rule the shaders implement: clip =
 * (pos, 1) * M with M a scale-and-translate (row vectors), colour = Texture(uv) * vertex
 * colour * tint with a 2x2 point-sampled texture. The device is made here with vkd3d-utils'
 * D3D12CreateDevice, not through xgd. */
#if defined(XGD_TEST_HAVE_D3D12) && !defined(_WIN32) && defined(XGD_TEST_HAVE_DXBC_HLSL)
#include "d3d12_internal.h"
#include <time.h>

#define RT 32

typedef struct vertex { float pos[4], color[4], uv[2]; } vertex;

/* the vertices in [0,2] space; M maps them to clip (-1,-1), (3,-1), (-1,3) */
static const vertex tri[3] = {
    { { 0, 0, 0, 1 }, { 1, 0.5f, 0.25f, 1 }, { 0, 1 } },
    { { 2, 0, 0, 1 }, { 1, 0.5f, 0.25f, 1 }, { 2, 1 } },
    { { 0, 2, 0, 1 }, { 1, 0.5f, 0.25f, 1 }, { 0, -1 } },
};
static const float M[4][4] = { { 2, 0, 0, 0 }, { 0, 2, 0, 0 }, { 0, 0, 1, 0 }, { -1, -1, 0, 1 } };
static const float tint[4] = { 0.5f, 1, 1, 1 };
/* texels, row 0 on top */
static const uint8_t texels[2][2][4] = {
    { { 255, 0, 0, 255 }, { 0, 255, 0, 255 } },
    { { 0, 0, 255, 255 }, { 255, 255, 255, 128 } },
};

typedef struct gpu {
    ID3D12Device *dev;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    uint64_t fence_value;
} gpu;

static ID3D12Resource *buffer(gpu *g, D3D12_HEAP_TYPE heap, size_t size, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES hp;
    D3D12_RESOURCE_DESC rd;
    memset(&hp, 0, sizeof hp);
    memset(&rd, 0, sizeof rd);
    hp.Type = heap;
    rd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    rd.Width = size;
    rd.Height = 1;
    rd.DepthOrArraySize = 1;
    rd.MipLevels = 1;
    rd.SampleDesc.Count = 1;
    rd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    ID3D12Resource *res = NULL;
    if (FAILED(ID3D12Device_CreateCommittedResource(g->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, state, NULL,
                                                    &IID_ID3D12Resource, (void **)&res)))
        return NULL;
    return res;
}

static ID3D12Resource *texture(gpu *g, int w, int h, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state)
{
    D3D12_HEAP_PROPERTIES hp;
    D3D12_RESOURCE_DESC rd;
    memset(&hp, 0, sizeof hp);
    memset(&rd, 0, sizeof rd);
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    rd.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    rd.Width = (UINT64)w;
    rd.Height = (UINT)h;
    rd.DepthOrArraySize = 1;
    rd.MipLevels = 1;
    rd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rd.SampleDesc.Count = 1;
    rd.Flags = flags;
    ID3D12Resource *res = NULL;
    if (FAILED(ID3D12Device_CreateCommittedResource(g->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd, state, NULL,
                                                    &IID_ID3D12Resource, (void **)&res)))
        return NULL;
    return res;
}

static void barrier(gpu *g, ID3D12Resource *res, D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to)
{
    D3D12_RESOURCE_BARRIER b;
    memset(&b, 0, sizeof b);
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = res;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = from;
    b.Transition.StateAfter = to;
    ID3D12GraphicsCommandList_ResourceBarrier(g->list, 1, &b);
}

static void copy_texture(gpu *g, ID3D12Resource *tex, ID3D12Resource *buf, int w, int h, int to_buffer)
{
    D3D12_TEXTURE_COPY_LOCATION t, b;
    memset(&t, 0, sizeof t);
    memset(&b, 0, sizeof b);
    t.pResource = tex;
    t.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    b.pResource = buf;
    b.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    b.PlacedFootprint.Footprint.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    b.PlacedFootprint.Footprint.Width = (UINT)w;
    b.PlacedFootprint.Footprint.Height = (UINT)h;
    b.PlacedFootprint.Footprint.Depth = 1;
    b.PlacedFootprint.Footprint.RowPitch = 256;
    if (to_buffer) ID3D12GraphicsCommandList_CopyTextureRegion(g->list, &b, 0, 0, 0, &t, NULL);
    else ID3D12GraphicsCommandList_CopyTextureRegion(g->list, &t, 0, 0, 0, &b, NULL);
}

static void *map(ID3D12Resource *res)
{
    void *p = NULL;
    D3D12_RANGE none = { 0, 0 };
    return SUCCEEDED(ID3D12Resource_Map(res, 0, &none, &p)) ? p : NULL;
}

static int run_and_wait(gpu *g)
{
    if (FAILED(ID3D12GraphicsCommandList_Close(g->list))) return 0;
    ID3D12CommandList *l = (ID3D12CommandList *)g->list;
    ID3D12CommandQueue_ExecuteCommandLists(g->queue, 1, &l);
    if (FAILED(ID3D12CommandQueue_Signal(g->queue, g->fence, ++g->fence_value))) return 0;
    for (int i = 0; i < 30000 && ID3D12Fence_GetCompletedValue(g->fence) < g->fence_value; i++) {
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    return ID3D12Fence_GetCompletedValue(g->fence) >= g->fence_value;
}

/* draws tri with the vs/ps pair; vs_cb and ps_cb go to b0 (vertex) and b1 (pixel) */
#define NEED(cond) do { if (!(cond)) { CHECK_MSG(0, "NEED(%s)", #cond); goto done; } } while (0)
static int draw(xgdt_ctx *t, gpu *g, const void *vs, size_t vs_size, const void *ps, size_t ps_size,
                const void *vs_cb, size_t vs_cb_size, const void *ps_cb, size_t ps_cb_size, uint8_t *out)
{
    int ok = 0;
    ID3D12RootSignature *root = NULL;
    ID3D12PipelineState *pso = NULL;
    ID3D12DescriptorHeap *srv_heap = NULL, *rtv_heap = NULL;
    ID3D12Resource *upload = NULL, *tex = NULL, *rt = NULL, *readback = NULL;
    ID3DBlob *blob = NULL, *err = NULL;

    D3D12_ROOT_PARAMETER params[3];
    D3D12_DESCRIPTOR_RANGE srv = { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0 };
    memset(params, 0, sizeof params);
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[0].Descriptor.ShaderRegister = 0;
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[1].Descriptor.ShaderRegister = 1;
    params[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    params[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[2].DescriptorTable.NumDescriptorRanges = 1;
    params[2].DescriptorTable.pDescriptorRanges = &srv;
    params[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_STATIC_SAMPLER_DESC smp;
    memset(&smp, 0, sizeof smp);
    smp.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    smp.AddressU = smp.AddressV = smp.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    smp.MaxLOD = 1000.0f;
    smp.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    smp.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_ROOT_SIGNATURE_DESC rd = { 3, params, 1, &smp,
                                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    if (FAILED(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err))) {
        CHECK_MSG(0, "D3D12SerializeRootSignature failed");
        goto done;
    }
    if (FAILED(ID3D12Device_CreateRootSignature(g->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                                ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                                (void **)&root))) {
        CHECK_MSG(0, "CreateRootSignature failed");
        goto done;
    }

    D3D12_INPUT_ELEMENT_DESC layout[3] = {
        { "TEXCOORD", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
        { "TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
        { "TEXCOORD", 2, DXGI_FORMAT_R32G32_FLOAT, 0, 32, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd;
    memset(&pd, 0, sizeof pd);
    pd.pRootSignature = root;
    pd.VS.pShaderBytecode = vs;
    pd.VS.BytecodeLength = vs_size;
    pd.PS.pShaderBytecode = ps;
    pd.PS.BytecodeLength = ps_size;
    pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = ~0u;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.InputLayout.pInputElementDescs = layout;
    pd.InputLayout.NumElements = 3;
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    pd.NumRenderTargets = 1;
    pd.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    pd.SampleDesc.Count = 1;
    HRESULT hr = ID3D12Device_CreateGraphicsPipelineState(g->dev, &pd, &IID_ID3D12PipelineState, (void **)&pso);
    if (FAILED(hr)) {
        CHECK_MSG(0, "CreateGraphicsPipelineState with the translated shaders: 0x%08x", (unsigned)hr);
        goto done;
    }

    /* upload buffer: vertices at 0, vs constants at 256, ps constants at 512, texels at 1024 */
    upload = buffer(g, D3D12_HEAP_TYPE_UPLOAD, 2048, D3D12_RESOURCE_STATE_GENERIC_READ);
    tex = texture(g, 2, 2, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    rt = texture(g, RT, RT, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    readback = buffer(g, D3D12_HEAP_TYPE_READBACK, 256 * RT, D3D12_RESOURCE_STATE_COPY_DEST);
    NEED(upload && tex && rt && readback);
    uint8_t *up = map(upload);
    NEED(up);
    memcpy(up, tri, sizeof tri);
    memcpy(up + 256, vs_cb, vs_cb_size);
    memcpy(up + 512, ps_cb, ps_cb_size);
    for (int y = 0; y < 2; y++) memcpy(up + 1024 + 256 * y, texels[y], 8);
    ID3D12Resource_Unmap(upload, 0, NULL);

    D3D12_DESCRIPTOR_HEAP_DESC hd = { D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1,
                                      D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0 };
    D3D12_DESCRIPTOR_HEAP_DESC rhd = { D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0 };
    NEED(SUCCEEDED(ID3D12Device_CreateDescriptorHeap(g->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&srv_heap)));
    NEED(SUCCEEDED(ID3D12Device_CreateDescriptorHeap(g->dev, &rhd, &IID_ID3D12DescriptorHeap, (void **)&rtv_heap)));
    D3D12_CPU_DESCRIPTOR_HANDLE srv_cpu, rtv_cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE srv_gpu;
    srv_heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(srv_heap, &srv_cpu);
    srv_heap->lpVtbl->GetGPUDescriptorHandleForHeapStart(srv_heap, &srv_gpu);
    rtv_heap->lpVtbl->GetCPUDescriptorHandleForHeapStart(rtv_heap, &rtv_cpu);
    ID3D12Device_CreateShaderResourceView(g->dev, tex, NULL, srv_cpu);
    ID3D12Device_CreateRenderTargetView(g->dev, rt, NULL, rtv_cpu);

    NEED(SUCCEEDED(ID3D12CommandAllocator_Reset(g->alloc)));
    NEED(SUCCEEDED(ID3D12GraphicsCommandList_Reset(g->list, g->alloc, pso)));
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    memset(&dst, 0, sizeof dst);
    memset(&src, 0, sizeof src);
    dst.pResource = tex;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.pResource = upload;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Offset = 1024;
    src.PlacedFootprint.Footprint.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    src.PlacedFootprint.Footprint.Width = 2;
    src.PlacedFootprint.Footprint.Height = 2;
    src.PlacedFootprint.Footprint.Depth = 1;
    src.PlacedFootprint.Footprint.RowPitch = 256;
    ID3D12GraphicsCommandList_CopyTextureRegion(g->list, &dst, 0, 0, 0, &src, NULL);
    barrier(g, tex, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);

    const float black[4] = { 0, 0, 0, 0 };
    D3D12_VIEWPORT vp = { 0, 0, RT, RT, 0, 1 };
    D3D12_RECT sc = { 0, 0, RT, RT };
    D3D12_VERTEX_BUFFER_VIEW vbv = { ID3D12Resource_GetGPUVirtualAddress(upload), sizeof tri, sizeof(vertex) };
    ID3D12GraphicsCommandList_SetGraphicsRootSignature(g->list, root);
    ID3D12GraphicsCommandList_SetDescriptorHeaps(g->list, 1, &srv_heap);
    ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(g->list, 0, ID3D12Resource_GetGPUVirtualAddress(upload) + 256);
    ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(g->list, 1, ID3D12Resource_GetGPUVirtualAddress(upload) + 512);
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(g->list, 2, srv_gpu);
    ID3D12GraphicsCommandList_RSSetViewports(g->list, 1, &vp);
    ID3D12GraphicsCommandList_RSSetScissorRects(g->list, 1, &sc);
    ID3D12GraphicsCommandList_OMSetRenderTargets(g->list, 1, &rtv_cpu, FALSE, NULL);
    ID3D12GraphicsCommandList_ClearRenderTargetView(g->list, rtv_cpu, black, 0, NULL);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(g->list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList_IASetVertexBuffers(g->list, 0, 1, &vbv);
    ID3D12GraphicsCommandList_DrawInstanced(g->list, 3, 1, 0, 0);
    barrier(g, rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    copy_texture(g, rt, readback, RT, RT, 1);
    NEED(run_and_wait(g));
    const uint8_t *rb = map(readback);
    NEED(rb);
    for (int y = 0; y < RT; y++) memcpy(out + 4 * RT * y, rb + 256 * y, 4 * RT);
    ID3D12Resource_Unmap(readback, 0, NULL);
    ok = 1;
done:
    if (blob) ID3D10Blob_Release(blob);
    if (err) ID3D10Blob_Release(err);
    if (pso) ID3D12PipelineState_Release(pso);
    if (root) ID3D12RootSignature_Release(root);
    if (srv_heap) ID3D12DescriptorHeap_Release(srv_heap);
    if (rtv_heap) ID3D12DescriptorHeap_Release(rtv_heap);
    if (upload) ID3D12Resource_Release(upload);
    if (tex) ID3D12Resource_Release(tex);
    if (rt) ID3D12Resource_Release(rt);
    if (readback) ID3D12Resource_Release(readback);
    return ok;
}

#undef NEED

static int gpu_open(xgdt_ctx *t, gpu *g)
{
    memset(g, 0, sizeof *g);
    if (FAILED(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&g->dev))) {
        xgdt_not_supported(t, "no Direct3D 12 device (vkd3d) here");
        return 0;
    }
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof qd);
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    if (FAILED(ID3D12Device_CreateCommandQueue(g->dev, &qd, &IID_ID3D12CommandQueue, (void **)&g->queue)) ||
        FAILED(ID3D12Device_CreateCommandAllocator(g->dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                   &IID_ID3D12CommandAllocator, (void **)&g->alloc)) ||
        FAILED(ID3D12Device_CreateCommandList(g->dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, g->alloc, NULL,
                                              &IID_ID3D12GraphicsCommandList, (void **)&g->list)) ||
        FAILED(ID3D12GraphicsCommandList_Close(g->list)) ||
        FAILED(ID3D12Device_CreateFence(g->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fence))) {
        CHECK_MSG(0, "creating the queue, allocator, list or fence failed");
        return 0;
    }
    return 1;
}

static void gpu_close(gpu *g)
{
    if (g->fence) ID3D12Fence_Release(g->fence);
    if (g->list) ID3D12GraphicsCommandList_Release(g->list);
    if (g->alloc) ID3D12CommandAllocator_Release(g->alloc);
    if (g->queue) ID3D12CommandQueue_Release(g->queue);
    if (g->dev) ID3D12Device_Release(g->dev);
}

/* the rule: pixel (x, y) samples texel (x >= RT/2, y >= RT/2); colour = texel * vertex colour
   * tint, 8-bit unorm */
static void expected_image(uint8_t *img)
{
    for (int y = 0; y < RT; y++)
        for (int x = 0; x < RT; x++)
            for (int k = 0; k < 4; k++) {
                float v = texels[y >= RT / 2][x >= RT / 2][k] / 255.0f * tri[0].color[k] * tint[k];
                img[4 * (RT * y + x) + k] = (uint8_t)(v * 255.0f + 0.5f);
            }
}

static int translate(xgdt_ctx *t, const uint32_t *w, size_t n, const xgdi_d3d12_dxbc_binding *map,
                     size_t nmap, void **dxbc, size_t *size)
{
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, map, nmap, dxbc, size, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "translation: %s (%s)", xgd_result_name(r), msg);
    return r == XGD_OK;
}
#endif

XGD_TEST(DXBC_RenderGlslangPair)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d and glslangValidator");
#else
    /* textured.hlsl: cbuffer { row_major float4x4 Transform; float4 Tint; } at set 0 binding 0
       for both stages; the pixel stage's copy is mapped to b1 by kind (its texture and sampler
       share set 0 binding 0 and keep t0/s0) */
    float cb[20];
    memcpy(cb, M, sizeof M);
    memcpy(cb + 16, tint, sizeof tint);
    const xgdi_d3d12_dxbc_binding ps_map[] = { { XGDI_D3D12_DXBC_CBUFFER, 0, 0, 1, 0 } };
    void *vs = NULL, *ps = NULL;
    size_t vs_size = 0, ps_size = 0;
    gpu g;
    if (translate(t, dxbc_hlsl_textured_vert, sizeof dxbc_hlsl_textured_vert / 4, NULL, 0, &vs, &vs_size) &&
        translate(t, dxbc_hlsl_textured_frag, sizeof dxbc_hlsl_textured_frag / 4, ps_map, 1, &ps, &ps_size) &&
        gpu_open(t, &g)) {
        uint8_t *img = calloc(RT * RT, 4), *want = calloc(RT * RT, 4);
        if (img && want && draw(t, &g, vs, vs_size, ps, ps_size, cb, sizeof cb, cb, sizeof cb, img)) {
            expected_image(want);
            xgdt_compare_rgba(t, "glslang", img, want, RT, RT, 1);
        }
        free(img);
        free(want);
        gpu_close(&g);
    }
    xgdi_d3d12_dxbc_free(vs);
    xgdi_d3d12_dxbc_free(ps);
#endif
}

XGD_TEST(DXBC_RenderMojoShaderPair)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32) || !defined(XGD_TEST_HAVE_MOJOSHADER) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d and MojoShader");
#else
    /* XNA's compiler keeps a matrix transposed in four registers: m4x4 dots the position with
       c0..c3 = the columns of M. The pixel shader's c2 is the first (only) element of its
       compacted uniform array (set 3, binding 0), mapped to b1; its sampler s0 is set 1
       binding 0 -> t0/s0 by the default rule. */
    static const char vs_src[] = "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\n"
                                 "m4x4 oPos, v0, c0\nmov oD0, v1\nmov oT0, v2\n";
    static const char ps_src[] = "ps_2_0\ndcl v0\ndcl t0.xy\ndcl_2d s0\ntexld r0, t0, s0\n"
                                 "mul r0, r0, v0\nmul r0, r0, c2\nmov oC0, r0\n";
    float vs_cb[16];
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) vs_cb[4 * i + k] = M[k][i];
    const xgdi_d3d12_dxbc_binding ps_map[] = { { XGDI_D3D12_DXBC_CBUFFER, 3, 0, 1, 0 } };
    size_t vn = 0, pn = 0;
    uint32_t *vw = mojo_spirv(t, vs_src, &vn), *pw = mojo_spirv(t, ps_src, &pn);
    void *vs = NULL, *ps = NULL;
    size_t vs_size = 0, ps_size = 0;
    gpu g;
    if (vw && pw && translate(t, vw, vn, NULL, 0, &vs, &vs_size) &&
        translate(t, pw, pn, ps_map, 1, &ps, &ps_size) && gpu_open(t, &g)) {
        uint8_t *img = calloc(RT * RT, 4), *want = calloc(RT * RT, 4);
        if (img && want && draw(t, &g, vs, vs_size, ps, ps_size, vs_cb, sizeof vs_cb, tint, sizeof tint, img)) {
            expected_image(want);
            xgdt_compare_rgba(t, "mojoshader", img, want, RT, RT, 1);
        }
        free(img);
        free(want);
        gpu_close(&g);
    }
    free(vw);
    free(pw);
    xgdi_d3d12_dxbc_free(vs);
    xgdi_d3d12_dxbc_free(ps);
#endif
}

XGD_TEST(DXBC_RenderControlFlow)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d and glslangValidator");
#else
    /* tests/dxbc/flow.hlsl: a loop with break and continue, a switch with a default, a local
       array indexed by the pixel, discard; the vertex stage maps [0,2] to clip space itself */
    void *vs = NULL, *ps = NULL;
    size_t vs_size = 0, ps_size = 0;
    gpu g;
    float none[4] = { 0, 0, 0, 0 };
    if (translate(t, dxbc_hlsl_flow_vert, sizeof dxbc_hlsl_flow_vert / 4, NULL, 0, &vs, &vs_size) &&
        translate(t, dxbc_hlsl_flow_frag, sizeof dxbc_hlsl_flow_frag / 4, NULL, 0, &ps, &ps_size) &&
        gpu_open(t, &g)) {
        uint8_t *img = calloc(RT * RT, 4), *want = calloc(RT * RT, 4);
        if (img && want && draw(t, &g, vs, vs_size, ps, ps_size, none, sizeof none, none, sizeof none, img)) {
            static const float table[4] = { 0.1f, 0.3f, 0.6f, 0.9f };
            for (int y = 0; y < RT; y++)
                for (int x = 0; x < RT; x++) {
                    uint8_t *p = want + 4 * (RT * y + x);
                    if (x == 31 && y == 31) continue; /* discarded: the clear colour, 0 */
                    int evens = 0;
                    for (int i = 0; i < (x & 7); i++) evens += (i & 1) == 0;
                    float rgba[4] = { 0.0625f * evens, (y & 3) == 0 ? 0.25f : (y & 3) == 1 ? 0.5f : 1.0f,
                                      table[(x >> 3) & 3], tri[0].color[3] };
                    for (int k = 0; k < 4; k++) p[k] = (uint8_t)(rgba[k] * 255.0f + 0.5f);
                }
            xgdt_compare_rgba(t, "flow", img, want, RT, RT, 1);
        }
        free(img);
        free(want);
        gpu_close(&g);
    }
    xgdi_d3d12_dxbc_free(vs);
    xgdi_d3d12_dxbc_free(ps);
#endif
}

#if defined(XGD_TEST_HAVE_D3D12) && defined(XGD_TEST_HAVE_DXBC_HLSL)
/* translates words and checks the result code and that the message contains `needle` */
static void expect_refusal(xgdt_ctx *t, const uint32_t *w, size_t n, xgd_result want, const char *needle)
{
    void *dxbc = (void *)1;
    size_t size = 1;
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == want, "%s, expected %s (%s)", xgd_result_name(r), xgd_result_name(want), msg);
    CHECK_MSG(strstr(msg, needle) != NULL, "message '%s' does not name '%s'", msg, needle);
    CHECK(dxbc == NULL && size == 0);
    xgdi_d3d12_dxbc_free(r == XGD_OK ? dxbc : NULL);
}

/* a copy of a module with the first instruction `op` whose word `at` equals `from` changed to `to` */
static uint32_t *patched(const uint32_t *w, size_t n, uint32_t op, uint32_t at, uint32_t from, uint32_t to)
{
    uint32_t *c = malloc(n * 4);
    if (!c) return NULL;
    memcpy(c, w, n * 4);
    for (size_t i = 5; i < n && (c[i] >> 16); i += c[i] >> 16)
        if ((c[i] & 0xffff) == op && at < (c[i] >> 16) && (from == 0xffffffffu || c[i + at] == from)) {
            c[i + at] = to;
            return c;
        }
    free(c);
    return NULL;
}
#endif

XGD_TEST(DXBC_RefusesUnsupportedByName)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    const uint32_t *w = dxbc_hlsl_textured_frag;
    size_t n = sizeof dxbc_hlsl_textured_frag / 4;
    uint32_t *m;
    /* OpCapability Shader (1) -> Geometry (2) */
    REQUIRE((m = patched(w, n, 17, 1, 1, 2)) != NULL);
    expect_refusal(t, m, n, XGD_ERROR_NOT_SUPPORTED, "Geometry");
    free(m);
    /* OpFMul (133) -> OpSMod (139), same operand shape */
    REQUIRE((m = patched(w, n, 133, 0, 0xffffffffu, (5u << 16) | 139)) != NULL);
    expect_refusal(t, m, n, XGD_ERROR_NOT_SUPPORTED, "OpSMod");
    free(m);
    /* an entry point of the Geometry model (3) */
    REQUIRE((m = patched(w, n, 15, 1, 4, 3)) != NULL);
    expect_refusal(t, m, n, XGD_ERROR_NOT_SUPPORTED, "execution model 3");
    free(m);
    /* GLSL.std.450 Pow (26) -> Atan2 (25) in control.hlsl's pixel shader */
    const uint32_t *cw = dxbc_hlsl_control_frag;
    size_t cn = sizeof dxbc_hlsl_control_frag / 4;
    REQUIRE((m = patched(cw, cn, 12, 4, 26, 25)) != NULL);
    expect_refusal(t, m, cn, XGD_ERROR_NOT_SUPPORTED, "Atan2");
    free(m);
#endif
}

XGD_TEST(DXBC_RefusesMalformedModules)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    const uint32_t *w = dxbc_hlsl_control_frag;
    size_t n = sizeof dxbc_hlsl_control_frag / 4;
    uint32_t *m = malloc(n * 4);
    REQUIRE(m);
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    CHECK_RESULT(xgdi_d3d12_dxbc_from_spirv(NULL, 0, NULL, 0, &dxbc, &size, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    /* bad magic */
    memcpy(m, w, n * 4);
    m[0] ^= 1;
    expect_refusal(t, m, n, XGD_ERROR_INVALID_ARGUMENT, "magic");
    /* cut inside an instruction */
    memcpy(m, w, n * 4);
    size_t cut = 5;
    while (cut + (m[cut] >> 16) < n / 2) cut += m[cut] >> 16;
    expect_refusal(t, m, cut + 1, XGD_ERROR_INVALID_ARGUMENT, "truncated");
    /* an id bound below the ids used */
    memcpy(m, w, n * 4);
    m[3] = 4;
    expect_refusal(t, m, n, XGD_ERROR_INVALID_ARGUMENT, "bound");
    /* every single-word corruption gives a result code, never a crash or a leak (the
       sanitizer builds of CI check the latter); a deterministic sweep */
    uint32_t seed = 12345;
    int codes[4] = { 0 };
    for (int i = 0; i < 4000; i++) {
        memcpy(m, w, n * 4);
        seed = seed * 1103515245u + 12345u;
        size_t at = 5 + (seed >> 8) % (n - 5);
        seed = seed * 1103515245u + 12345u;
        switch (i % 4) {
        case 0: m[at] ^= 1u << (seed >> 27); break;
        case 1: m[at] = seed >> 20; break;
        case 2: m[at] = (m[at] & 0xffff0000u) | ((seed >> 16) & 0x1ff); break;
        default: m[at] += (seed & 1) ? 1 : 0xffffffffu; break;
        }
        xgd_result r = xgdi_d3d12_dxbc_from_spirv(m, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
        CHECK_MSG(r == XGD_OK || r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_NOT_SUPPORTED,
                  "mutation %d: %s", i, xgd_result_name(r));
        codes[r == XGD_OK ? 0 : r == XGD_ERROR_INVALID_ARGUMENT ? 1 : r == XGD_ERROR_NOT_SUPPORTED ? 2 : 3]++;
        if (r == XGD_OK) xgdi_d3d12_dxbc_free(dxbc);
        else CHECK(dxbc == NULL && size == 0);
        if (r != XGD_OK) CHECK(msg[0] != 0);
    }
    printf("mutations: %d translated, %d invalid, %d not supported\n", codes[0], codes[1], codes[2]);
    free(m);
#endif
}

XGD_TEST(DXBC_RenderTexelLoad)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d and glslangValidator");
#else
    /* tests/dxbc/fetch.hlsl: GetDimensions gives 2x2, so Load reads the texel of the pixel's
       quadrant at level 0 (integer division by 32 included): the expected image is the sampled
       one without the tint */
    void *vs = NULL, *ps = NULL;
    size_t vs_size = 0, ps_size = 0;
    gpu g;
    float none[4] = { 0, 0, 0, 0 };
    if (translate(t, dxbc_hlsl_fetch_vert, sizeof dxbc_hlsl_fetch_vert / 4, NULL, 0, &vs, &vs_size) &&
        translate(t, dxbc_hlsl_fetch_frag, sizeof dxbc_hlsl_fetch_frag / 4, NULL, 0, &ps, &ps_size) &&
        gpu_open(t, &g)) {
        uint8_t *img = calloc(RT * RT, 4), *want = calloc(RT * RT, 4);
        if (img && want && draw(t, &g, vs, vs_size, ps, ps_size, none, sizeof none, none, sizeof none, img)) {
            for (int y = 0; y < RT; y++)
                for (int x = 0; x < RT; x++)
                    for (int k = 0; k < 4; k++) {
                        float v = texels[y >= RT / 2][x >= RT / 2][k] / 255.0f * tri[0].color[k];
                        want[4 * (RT * y + x) + k] = (uint8_t)(v * 255.0f + 0.5f);
                    }
            xgdt_compare_rgba(t, "fetch", img, want, RT, RT, 1);
        }
        free(img);
        free(want);
        gpu_close(&g);
    }
    xgdi_d3d12_dxbc_free(vs);
    xgdi_d3d12_dxbc_free(ps);
#endif
}

XGD_TEST(DXBC_UnterminatedExtensionNameStaysInItsWords)
{
#if !defined(XGD_TEST_HAVE_D3D12)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    /* an OpExtension whose name fills its two words with no terminating zero (found by
       exploratory fuzzing: the refusal's message read on past the module). The message names
       the eight characters the instruction holds and nothing after them. */
    uint32_t w[] = {
        0x07230203u, 0x00010000u, 0, 10, 0,
        (3u << 16) | 10u, 0, 0,            /* OpExtension "ABCDEFGH", unterminated */
        0x41414141u, 0,                    /* "AAAA" and a zero word after the instruction */
    };
    memcpy(&w[6], "ABCDEFGH", 8);
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256] = "";
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, sizeof w / 4, NULL, 0, &dxbc, &size, msg,
                                              sizeof msg);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED, "%s (%s)", xgd_result_name(r), msg);
    CHECK_MSG(strstr(msg, "extension ABCDEFGH") != NULL, "message '%s'", msg);
    CHECK_MSG(strstr(msg, "ABCDEFGHA") == NULL, "message read past the instruction: '%s'", msg);
    CHECK(dxbc == NULL && size == 0);
#endif
}

#if defined(XGD_TEST_HAVE_D3D12) && defined(XGD_TEST_HAVE_DXBC_HLSL)
/* The SHEX chunk's tokens of a container (NULL if it has none); *n gets their count. */
static const uint32_t *shex_tokens(const uint8_t *b, size_t size, size_t *n)
{
    uint32_t chunks;
    memcpy(&chunks, b + 28, 4);
    for (uint32_t k = 0; k < chunks && 32 + 4 * (size_t)k + 4 <= size; k++) {
        uint32_t at;
        memcpy(&at, b + 32 + 4 * k, 4);
        if ((size_t)at + 8 <= size && memcmp(b + at, "SHEX", 4) == 0) {
            uint32_t bytes;
            memcpy(&bytes, b + at + 4, 4);
            *n = bytes / 4;
            return (const uint32_t *)(const void *)(b + at + 8);
        }
    }
    return NULL;
}
#endif

/* shaders/mips.comp, the renderers' compute shader (Vulkan runs it; Direct3D 12 translates it at its
   first Color chain), translates to a cs_5_0 program that declares what the GLSL does: 256 threads
   a group (local_size_x), the two shared arrays (Tile: 256 uints, Tile2: 64), the sampled level
   t0 (binding 0), six typed UAVs of unorm texels u1..u6 (bindings 1..6, rgba8), the push
   constants as cb0 (by the binding map), the thread's index in its group and its group's id as
   inputs, and a group sync (with shared memory) for each of its four barrier() calls; vkd3d takes
   it and spirv-val accepts vkd3d's SPIR-V. Refused by name: the push constants without a map
   entry, a LocalSize past Direct3D's 1024 threads, and (malformed) a compute entry point without
   LocalSize. That the program computes the rule is MipChain_RuleExact's (fixture_mip_rule.c). */
XGD_TEST(DXBC_ComputeShaderTranslates)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(XGD_TEST_HAVE_INTERNAL_SPIRV) || !defined(XGD_TEST_HAVE_DXBC_HLSL)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    const uint32_t *w = xvk_spv_mips_comp;
    size_t n = sizeof xvk_spv_mips_comp / 4;
    const xgdi_d3d12_dxbc_binding push = { XGDI_D3D12_DXBC_CBUFFER, 0xffffffffu, 0xffffffffu, 0, 0 };
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, &push, 1, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "mips.comp: %s (%s)", xgd_result_name(r), msg);
    if (r != XGD_OK) return;
    size_t count = 0;
    const uint32_t *tok = shex_tokens(dxbc, size, &count);
    CHECK_MSG(tok != NULL && count > 2 && tok[1] == count, "no SHEX chunk of its declared length");
    if (tok != NULL && count > 2) {
        CHECK_MSG(tok[0] == (5u << 16 | 0x50u), "version token 0x%08x, expected cs_5_0 (0x00050050)", tok[0]);
        int groups = 0, tgsm256 = 0, tgsm64 = 0, syncs = 0, cb0 = 0, t0 = 0, ids = 0;
        int flat_decl_ok = 0, flat_one_comp = 0;
        uint32_t uavs = 0;
        for (size_t i = 2; i < count;) {
            uint32_t op = tok[i] & 0x7ff, len = (tok[i] >> 24) & 0x1f;
            if (len == 0 || i + len > count) {
                CHECK_MSG(0, "token %zu: instruction length %u", i, len);
                break;
            }
            if (op == 155) groups += len == 4 && tok[i + 1] == 256 && tok[i + 2] == 1 && tok[i + 3] == 1;
            /* dcl_tgsm_structured g#, stride, count */
            if (op == 160 && len == 5 && tok[i + 3] == 4) {
                tgsm256 += tok[i + 4] == 256;
                tgsm64 += tok[i + 4] == 64;
            }
            /* dcl_uav_typed_texture2d u#, unorm in every component */
            if (op == 156 && len == 4 && ((tok[i] >> 11) & 0x1f) == 3 && tok[i + 3] == 0x1111u &&
                tok[i + 2] < 32)
                uavs |= 1u << tok[i + 2];
            /* dcl_resource_texture2d t0 (float), dcl_constantbuffer cb0[1] */
            if (op == 88 && len == 4 && tok[i + 2] == 0 && ((tok[i] >> 11) & 0x1f) == 3) t0++;
            if (op == 89 && len == 4 && tok[i + 2] == 0 && tok[i + 3] == 1) cb0++;
            /* dcl_input vThreadIDInGroupFlattened / vThreadGroupID */
            if (op == 95 && len == 2 && (((tok[i + 1] >> 12) & 0xff) == 36 || ((tok[i + 1] >> 12) & 0xff) == 33)) ids++;
            /* fxc's encoding of vThreadIDInGroupFlattened: declared with no components
               (0x00024000), read as a four-component operand (.x); a one-component operand
               (0x00024001) is vkd3d's to take but not what Windows drivers are given by fxc */
            if (op == 95 && len == 2 && ((tok[i + 1] >> 12) & 0xff) == 36) flat_decl_ok += tok[i + 1] == 0x00024000u;
            if (op != 95)
                for (uint32_t k = 1; k < len; k++) flat_one_comp += tok[i + k] == 0x00024001u;
            /* sync_g_t: threads in the group and their shared memory */
            if (op == 190) syncs += ((tok[i] >> 11) & 0xf) == 3;
            i += len;
        }
        CHECK_MSG(groups == 1, "dcl_thread_group 256, 1, 1: %d", groups);
        CHECK_MSG(tgsm256 == 1 && tgsm64 == 1, "shared arrays of 256 and 64 uints: %d and %d", tgsm256, tgsm64);
        CHECK_MSG(uavs == 0x7eu, "typed unorm 2D UAVs declared: mask 0x%x, expected u1..u6 (0x7e)", uavs);
        CHECK_MSG(t0 == 1 && cb0 == 1, "t0 declared %d times, cb0[1] %d times", t0, cb0);
        CHECK_MSG(ids == 2, "thread index and group id inputs: %d", ids);
        CHECK_MSG(flat_decl_ok == 1, "dcl_input vThreadIDInGroupFlattened as fxc writes it (0x00024000): %d", flat_decl_ok);
        CHECK_MSG(flat_one_comp == 0, "one-component vThreadIDInGroupFlattened operands: %d (fxc: .x of four)", flat_one_comp);
        CHECK_MSG(syncs == 4, "group syncs with shared memory: %d, expected 4 (barrier() calls)", syncs);
    }
    vkd3d_accepts(t, "mips_comp", dxbc, size);
    xgdi_d3d12_dxbc_free(dxbc);

    /* push constants need a map entry */
    dxbc = NULL;
    r = xgdi_d3d12_dxbc_from_spirv(w, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED && strstr(msg, "push constants") != NULL,
              "no push-constant entry: %s (%s)", xgd_result_name(r), msg);
    CHECK(dxbc == NULL);
    /* OpExecutionMode main LocalSize 256 1 1 -> 2048 */
    uint32_t *m = patched(w, n, 16, 3, 256, 2048);
    REQUIRE(m);
    r = xgdi_d3d12_dxbc_from_spirv(m, n, &push, 1, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED && strstr(msg, "LocalSize") != NULL,
              "LocalSize 2048: %s (%s)", xgd_result_name(r), msg);
    free(m);
    /* LocalSize (17) -> LocalSizeHint (18): a compute entry point without LocalSize */
    REQUIRE((m = patched(w, n, 16, 2, 17, 18)) != NULL);
    r = xgdi_d3d12_dxbc_from_spirv(m, n, &push, 1, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED && strstr(msg, "execution mode 18") != NULL,
              "LocalSizeHint: %s (%s)", xgd_result_name(r), msg);
    free(m);
#endif
}

#if defined(XGD_TEST_HAVE_D3D12) && defined(DXBC_HAVE_sample_storage_comp) && defined(DXBC_HAVE_query_storage_comp)
/* tests/dxbc/<name>.comp translates as compiled; with its first sampled image type made a
   storage image (OpTypeImage Sampled 1 -> 2, format Unknown -> Rgba8: the texture becomes a
   u#) the translator refuses it as an invalid module naming `needle`, where it used to emit an
   instruction reading t# of the UAV's number */
static void storage_image_refused(xgdt_ctx *t, const char *name, const uint32_t *w, size_t n,
                                  const char *needle)
{
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "%s as compiled: %s (%s)", name, xgd_result_name(r), msg);
    if (r == XGD_OK) vkd3d_accepts(t, name, dxbc, size);
    xgdi_d3d12_dxbc_free(dxbc);
    uint32_t *a = patched(w, n, 25, 7, 1, 2), *b = a ? patched(a, n, 25, 8, 0, 4) : NULL;
    CHECK_MSG(b != NULL, "%s has no sampled image type of format Unknown", name);
    if (b != NULL) expect_refusal(t, b, n, XGD_ERROR_INVALID_ARGUMENT, needle);
    free(a);
    free(b);
}
#endif

XGD_TEST(DXBC_StorageImageSampleRefused)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(DXBC_HAVE_sample_storage_comp) || !defined(DXBC_HAVE_query_storage_comp)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    storage_image_refused(t, "sample_storage.comp", dxbc_comp_sample_storage,
                          sizeof dxbc_comp_sample_storage / 4, "sampling a storage image");
#endif
}

XGD_TEST(DXBC_StorageImageQueryRefused)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(DXBC_HAVE_sample_storage_comp) || !defined(DXBC_HAVE_query_storage_comp)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    storage_image_refused(t, "query_storage.comp", dxbc_comp_query_storage,
                          sizeof dxbc_comp_query_storage / 4, "level query of a storage image");
#endif
}

/* Two input variables of one builtin (sample_storage.comp's LocalInvocationId variable
   decorated GlobalInvocationId, as a module may declare them): one dcl_input vThreadID, as
   Direct3D allows a register one declaration; both variables read it. */
XGD_TEST(DXBC_RepeatedBuiltinDeclaredOnce)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(DXBC_HAVE_sample_storage_comp)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    size_t n = sizeof dxbc_comp_sample_storage / 4;
    /* OpDecorate %v BuiltIn LocalInvocationId (27) -> GlobalInvocationId (28) */
    uint32_t *m = patched(dxbc_comp_sample_storage, n, 71, 3, 27, 28);
    REQUIRE(m != NULL);
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(m, n, NULL, 0, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "%s (%s)", xgd_result_name(r), msg);
    if (r == XGD_OK) {
        size_t count = 0;
        const uint32_t *tok = shex_tokens(dxbc, size, &count);
        int thread_id = 0, reads = 0;
        for (size_t i = 2; tok != NULL && i < count;) {
            uint32_t op = tok[i] & 0x7ff, len = (tok[i] >> 24) & 0x1f;
            if (len == 0 || i + len > count) {
                CHECK_MSG(0, "token %zu: instruction length %u", i, len);
                break;
            }
            /* dcl_input vThreadID.xyz (operand type 32) */
            if (op == 95 && len == 2 && ((tok[i + 1] >> 12) & 0xff) == 32) thread_id++;
            else if (op != 95)
                for (uint32_t k = 1; k < len; k++) reads += ((tok[i + k] >> 12) & 0xff) == 32 && (tok[i + k] & 3) == 2;
            i += len;
        }
        CHECK_MSG(tok != NULL, "no SHEX chunk");
        CHECK_MSG(thread_id == 1, "dcl_input vThreadID %d times, expected once", thread_id);
        CHECK_MSG(reads >= 2, "vThreadID read %d times, expected both variables' reads", reads);
        vkd3d_accepts(t, "sample_storage.comp (repeated builtin)", dxbc, size);
    }
    xgdi_d3d12_dxbc_free(dxbc);
    free(m);
#endif
}

/* A shared array of arrays indexed at a dynamic row and a constant column, and the reverse
   (tests/dxbc/workgroup_rows.comp: Tile[8][9], flattened with its last index fastest). An
   instruction's tokens are contiguous: each ld_structured / store_structured holds its four
   operands (value or destination, element index, byte offset 0, g0) and nothing else, and
   each element index with a constant part (9y + 8, 9y + 3, 63 + x) is an iadd of that
   constant, ended before the access that reads it begins. g0 holds 8 * 9 four-byte uints. */
XGD_TEST(DXBC_WorkgroupIndexBeforeAccess)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(DXBC_HAVE_workgroup_rows_comp)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(dxbc_comp_workgroup_rows, sizeof dxbc_comp_workgroup_rows / 4,
                                              NULL, 0, &dxbc, &size, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "workgroup_rows.comp: %s (%s)", xgd_result_name(r), msg);
    if (r != XGD_OK) return;
    size_t count = 0;
    const uint32_t *tok = shex_tokens(dxbc, size, &count);
    CHECK_MSG(tok != NULL && count > 2 && tok[1] == count, "no SHEX chunk of its declared length");
    /* the immediate each temp's iadd added (temps written once each; 0xffffffff: none) */
    enum { NREG = 256 };
    uint32_t added[NREG];
    memset(added, 0xff, sizeof added);
    int tgsm = 0, loads = 0, stores = 0, folded[3] = { 0 };
    static const uint32_t want[3] = { 8, 3, 63 };
    size_t i = 2;
    while (tok != NULL && i < count) {
        uint32_t op = tok[i] & 0x7ff, len = (tok[i] >> 24) & 0x1f;
        if (len == 0 || i + len > count) {
            CHECK_MSG(0, "token %zu: instruction length %u", i, len);
            break;
        }
        const uint32_t *o = tok + i + 1;
        /* dcl_tgsm_structured g0, 4, 72 */
        if (op == 160) tgsm += len == 5 && o[1] == 0 && o[2] == 4 && o[3] == 72;
        /* iadd r.x, r.x, l(k, k, k, k): destination, source, immediate of four components */
        if (op == 30 && len == 10 && ((o[0] >> 12) & 0xff) == 0 && ((o[4] >> 12) & 0xff) == 4 && o[1] < NREG)
            added[o[1]] = o[5];
        if (op == 167 || op == 168) {
            /* ld_structured r.mask, index, offset, g0.xyzw / store_structured g0.x, index, offset, value */
            int ld = op == 167;
            ld ? loads++ : stores++;
            uint32_t first = (o[0] >> 12) & 0xff, idx = (o[2] >> 12) & 0xff, off = (o[4] >> 12) & 0xff;
            uint32_t last = (o[6] >> 12) & 0xff;
            /* the last operand: g0 (ld), or the value (store): a register, or an immediate of
               four components (five tokens) */
            uint32_t last_words = !ld && last == 4 && (o[6] & 3) == 2 ? 5 : 2;
            CHECK_MSG(len == 7 + last_words && first == (ld ? 0u : 31u) && (idx == 0 || idx == 4) &&
                          off == 4 && o[5] == 0 && (!ld || last == 31),
                      "%s at token %zu: length %u, operand types %u %u %u %u, expected exactly its four operands",
                      ld ? "ld_structured" : "store_structured", i, len, first, idx, off, last);
            if (idx == 0 && o[3] < NREG)
                for (int k = 0; k < 3; k++) folded[k] += added[o[3]] == want[k];
        }
        i += len;
    }
    CHECK_MSG(tok == NULL || i == count, "instructions end at token %zu of %zu", i, count);
    CHECK_MSG(tgsm == 1, "dcl_tgsm_structured g0, 4, 72: %d", tgsm);
    CHECK_MSG(loads == 2 && stores == 2, "%d ld_structured and %d store_structured, expected 2 and 2", loads, stores);
    for (int k = 0; k < 3; k++)
        CHECK_MSG(folded[k] == 1, "an element index that adds %u, read by an access: %d", want[k], folded[k]);
    vkd3d_accepts(t, "workgroup_rows.comp", dxbc, size);
    xgdi_d3d12_dxbc_free(dxbc);
#endif
}

/* Two pixel shader inputs of one builtin (fetch.hlsl's PSMain with its TEXCOORD0 input
   decorated FragCoord beside its SV_Position one): one input signature element, SV_Position in
   v0, and one dcl_input_ps_siv v0, as a register takes one declaration; both variables read
   v0. */
XGD_TEST(DXBC_RepeatedPixelBuiltinDeclaredOnce)
{
#if !defined(XGD_TEST_HAVE_D3D12) || !defined(DXBC_HLSL_HAVE_fetch_frag)
    xgdt_not_supported(t, "built without the Direct3D 12 renderer or glslangValidator");
#else
    size_t n = sizeof dxbc_hlsl_fetch_frag / 4;
    uint32_t *m = malloc(n * 4);
    REQUIRE(m != NULL);
    memcpy(m, dxbc_hlsl_fetch_frag, n * 4);
    /* OpDecorate %v Location (30) of an Input variable -> BuiltIn (11) FragCoord (15) */
    int done = 0;
    for (size_t i = 5; i < n && (m[i] >> 16) && !done; i += m[i] >> 16) {
        if ((m[i] & 0xffff) != 71 || (m[i] >> 16) != 4 || m[i + 2] != 30) continue;
        for (size_t j = 5; j < n && (m[j] >> 16); j += m[j] >> 16)
            if ((m[j] & 0xffff) == 59 && (m[j] >> 16) >= 4 && m[j + 2] == m[i + 1] && m[j + 3] == 1) {
                m[i + 2] = 11;
                m[i + 3] = 15;
                done = 1;
                break;
            }
    }
    CHECK_MSG(done, "fetch.hlsl's pixel shader has no input with a Location");
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256];
    xgd_result r = done ? xgdi_d3d12_dxbc_from_spirv(m, n, NULL, 0, &dxbc, &size, msg, sizeof msg)
                        : XGD_ERROR_INVALID_ARGUMENT;
    CHECK_MSG(!done || r == XGD_OK, "%s (%s)", xgd_result_name(r), msg);
    if (r == XGD_OK) {
        uint32_t len = 0;
        const uint8_t *isgn = chunk(dxbc, size, "ISGN", &len);
        CHECK_MSG(isgn != NULL && len >= 8 && rd32(isgn) == 1, "input signature of %u elements, expected 1",
                  isgn != NULL && len >= 8 ? rd32(isgn) : 0);
        char name[64];
        sig_name(dxbc, size, "ISGN", 0, name, sizeof name);
        CHECK_MSG(strcmp(name, "SV_Position0") == 0, "input v0 is '%s', expected SV_Position0", name);
        size_t count = 0;
        const uint32_t *tok = shex_tokens(dxbc, size, &count);
        int siv = 0, other = 0, reads = 0;
        for (size_t i = 2; tok != NULL && i < count;) {
            uint32_t op = tok[i] & 0x7ff, len2 = (tok[i] >> 24) & 0x1f;
            if (len2 == 0 || i + len2 > count) {
                CHECK_MSG(0, "token %zu: instruction length %u", i, len2);
                break;
            }
            /* dcl_input_ps_siv v0.xyzw, position (operand type 1: input) */
            if (op == 100 && len2 == 4 && ((tok[i + 1] >> 12) & 0xff) == 1 && tok[i + 2] == 0) siv++;
            else if (op >= 95 && op <= 100) other++;
            else
                for (uint32_t k = 1; k + 1 < len2; k++)
                    reads += ((tok[i + k] >> 12) & 0xff) == 1 && (tok[i + k] & 3) == 2 && tok[i + k + 1] == 0;
            i += len2;
        }
        CHECK_MSG(tok != NULL, "no SHEX chunk");
        CHECK_MSG(siv == 1 && other == 0, "dcl_input_ps_siv v0 %d times, other input declarations %d: expected 1, 0",
                  siv, other);
        CHECK_MSG(reads >= 2, "v0 read %d times, expected both variables' reads", reads);
        vkd3d_accepts(t, "fetch.hlsl pixel shader (repeated builtin)", dxbc, size);
    }
    xgdi_d3d12_dxbc_free(dxbc);
    free(m);
#endif
}
