/*
 * test_sw_spirv.c - the software renderer's SPIR-V executor (src/renderers/software/sw_spirv.c).
 *
 * Shaders come from the two producers xgd consumes: glslang (HLSL in tests/spirv/, compiled at
 * build time) and MojoShader (D3D9 assembly assembled and translated here, its patch table cut
 * off). Expected values follow from the math of each shader and the rules in sw_spirv.h (quad
 * lanes 0..3 = (x, y), (x+1, y), (x, y+1), (x+1, y+1); coarse derivatives per quad), computed
 * with the C library, never recorded from the executor.
 */
#include "harness.h"
#include "sw_spirv.h"
#include "sw_spirv_sample.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_MOJOSHADER
#include <mojoshader/mojoshader.h>
#endif

/* ---- module sources ---- */

static uint32_t *spv_file(xgdt_ctx *t, const char *name, size_t *count)
{
#ifdef XGD_TEST_SPIRV_DIR
    char path[512];
    snprintf(path, sizeof path, "%s/%s.spv", XGD_TEST_SPIRV_DIR, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "cannot open %s", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *w = malloc((size_t)n + 4);
    if (w == NULL || n < 20 || fread(w, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(w);
        xgdt_fail_at(t, __FILE__, __LINE__, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *count = (size_t)n / 4;
    return w;
#else
    (void)name;
    (void)count;
    xgdt_not_supported(t, "glslangValidator not found at configure time (no HLSL test shaders)");
    return NULL;
#endif
}

#ifdef XGD_TEST_HAVE_MOJOSHADER
/* MojoShader's spirv profile appends a patch table after the instruction stream: the module is
   the words up to the first one that is not an instruction (word count 0 or past the end). */
static uint32_t *mojo_spirv(xgdt_ctx *t, const char *asm_src, size_t *count,
                            const MOJOSHADER_parseData **parsed)
{
    const MOJOSHADER_parseData *a = MOJOSHADER_assemble("test", asm_src, (unsigned)strlen(asm_src),
                                                        NULL, 0, NULL, 0, NULL, 0, NULL, NULL,
                                                        NULL, NULL, NULL);
    if (a->error_count) {
        xgdt_fail_at(t, __FILE__, __LINE__, "MOJOSHADER_assemble: %s", a->errors[0].error);
        MOJOSHADER_freeParseData(a);
        return NULL;
    }
    const MOJOSHADER_parseData *p = MOJOSHADER_parse("spirv", "main",
                                                     (const unsigned char *)a->output,
                                                     (unsigned)a->output_len, NULL, 0, NULL, 0,
                                                     NULL, NULL, NULL);
    MOJOSHADER_freeParseData(a);
    if (p->error_count) {
        xgdt_fail_at(t, __FILE__, __LINE__, "MOJOSHADER_parse(spirv): %s", p->errors[0].error);
        MOJOSHADER_freeParseData(p);
        return NULL;
    }
    size_t n = (size_t)p->output_len / 4;
    uint32_t *w = malloc(n * 4 + 4);
    memcpy(w, p->output, n * 4);
    size_t at = 5;
    while (at < n) {
        uint32_t wc = w[at] >> 16;
        if (wc == 0 || wc > n - at) break;
        at += wc;
    }
    *count = at;
    if (parsed) *parsed = p;
    else MOJOSHADER_freeParseData(p);
    return w;
}
#else
/* Without MojoShader (libmojoshader-dev) its tests report NOT SUPPORTED; they stay registered. */
typedef struct MOJOSHADER_parseData MOJOSHADER_parseData;
static void MOJOSHADER_freeParseData(const MOJOSHADER_parseData *p) { (void)p; }
static uint32_t *mojo_spirv(xgdt_ctx *t, const char *asm_src, size_t *count,
                            const MOJOSHADER_parseData **parsed)
{
    (void)asm_src;
    (void)count;
    if (parsed) *parsed = NULL;
    xgdt_not_supported(t, "MojoShader (libmojoshader-dev) not found at configure time");
    return NULL;
}
#endif

/* ---- running ---- */

typedef struct rig {
    xgdi_sw_spirv_module *m;
    xgdi_sw_spirv_state *s;
    const xgdi_sw_spirv_reflection *r;
    char err[256];
} rig;

static bool rig_load(xgdt_ctx *t, rig *g, const uint32_t *w, size_t n)
{
    memset(g, 0, sizeof *g);
    xgd_result r = xgdi_sw_spirv_load(w, n, NULL, &g->m, g->err, sizeof g->err);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "load: %s: %s", xgd_result_name(r), g->err);
        return false;
    }
    g->r = xgdi_sw_spirv_reflect(g->m);
    if (xgdi_sw_spirv_state_create(g->m, &g->s) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "state_create");
        return false;
    }
    return true;
}

static void rig_free(rig *g)
{
    xgdi_sw_spirv_state_free(g->s);
    xgdi_sw_spirv_free(g->m);
}

static const xgdi_sw_spirv_io *io_loc(const rig *g, bool output, int loc)
{
    for (int i = 0; i < g->r->io_count; i++)
        if (g->r->io[i].output == output && g->r->io[i].location == loc) return &g->r->io[i];
    return NULL;
}

static const xgdi_sw_spirv_io *io_builtin(const rig *g, int builtin)
{
    for (int i = 0; i < g->r->io_count; i++)
        if (g->r->io[i].builtin == builtin) return &g->r->io[i];
    return NULL;
}

static const xgdi_sw_spirv_io *io_name(const rig *g, const char *name)
{
    for (int i = 0; i < g->r->io_count; i++)
        if (strcmp(g->r->io[i].name, name) == 0) return &g->r->io[i];
    return NULL;
}

/* value[lane][component] into an input */
static void put(rig *g, const xgdi_sw_spirv_io *io, float const (*v)[4])
{
    for (int c = 0; c < io->components && c < 4; c++) {
        float *p = xgdi_sw_spirv_reg(g->s, io->reg, c);
        for (int l = 0; l < 4; l++) p[l] = v[l][c];
    }
}

static float get(rig *g, const xgdi_sw_spirv_io *io, int lane, int comp)
{
    return xgdi_sw_spirv_reg(g->s, io->reg, comp)[lane];
}

static bool near_rel(double a, double e, double tol)
{
    double d = fabs(a - e), s = fabs(e) > 1.0 ? fabs(e) : 1.0;
    return d <= tol * s;
}
#define CHECK_REL(actual, expected, tol)                                                   \
    CHECK_MSG(near_rel((actual), (expected), (tol)), "%s == %.9g, expected %.9g", #actual, \
              (double)(actual), (double)(expected))

/* ---- vertex transform (glslang) ---- */

/* HLSL's mul(pos, M) with M packed column_major in the cbuffer: output j is the dot product of
   pos with the j-th float4 of the buffer (what D3D9's m4x4 does with c0..c3). */
static void expect_transform(const float pos[4], const float m[16], float out[4])
{
    for (int j = 0; j < 4; j++)
        out[j] = pos[0] * m[j * 4] + pos[1] * m[j * 4 + 1] + pos[2] * m[j * 4 + 2] + pos[3] * m[j * 4 + 3];
}

static const float test_matrix[16] = { 0.5f, 1.0f, -2.0f, 3.0f,  4.0f, 0.25f, 1.5f, -1.0f,
                                       -0.75f, 2.0f, 0.0f, 5.0f, 1.0f, -3.0f, 2.5f, 0.125f };
static const float test_pos[4][4] = { { 1, 2, 3, 1 }, { -1, 0.5f, 4, 1 }, { 0, 0, 0, 1 },
                                      { 7, -3, 0.25f, 2 } };
static const float test_color[4][4] = { { 0.1f, 0.2f, 0.3f, 0.4f }, { 0.5f, 0.6f, 0.7f, 0.8f },
                                        { 0.9f, 1.0f, 0.0f, 0.1f }, { 0.2f, 0.4f, 0.6f, 0.8f } };

XGD_TEST(SwSpirv_GlslangVertexTransform)
{
    size_t n;
    uint32_t *w = spv_file(t, "transform", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    CHECK_INT(g.r->stage, XGDI_SW_SPIRV_VERTEX);
    REQUIRE(g.r->uniform_block_count == 1);
    CHECK_INT(g.r->uniform_blocks[0].size, 64);
    CHECK_INT(g.r->uniform_blocks[0].binding, 0);
    CHECK_INT(g.r->uniform_blocks[0].member_count, 1);
    CHECK_INT(g.r->uniform_blocks[0].member_offsets[0], 0);
    const xgdi_sw_spirv_io *pos = io_loc(&g, false, 0), *col = io_loc(&g, false, 1),
                           *uv = io_loc(&g, false, 2), *ocol = io_loc(&g, true, 0),
                           *ouv = io_loc(&g, true, 1),
                           *opos = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_POSITION);
    REQUIRE(pos && col && uv && ocol && ouv && opos);
    CHECK_INT(pos->components, 4);
    CHECK_INT(uv->components, 2);
    CHECK(opos->output);
    put(&g, pos, test_pos);
    put(&g, col, test_color);
    put(&g, uv, test_color);
    xgdi_sw_spirv_bind_uniform(g.s, 0, test_matrix, sizeof test_matrix);
    /* three vertices: lane 3 is not run and keeps its (zero) output */
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0x7, NULL), 0x7);
    for (int l = 0; l < 3; l++) {
        float e[4];
        expect_transform(test_pos[l], test_matrix, e);
        for (int c = 0; c < 4; c++) CHECK_REL(get(&g, opos, l, c), e[c], 1e-6);
        for (int c = 0; c < 4; c++) CHECK_NEAR(get(&g, ocol, l, c), test_color[l][c], 0);
        for (int c = 0; c < 2; c++) CHECK_NEAR(get(&g, ouv, l, c), test_color[l][c], 0);
    }
    for (int c = 0; c < 4; c++) CHECK_NEAR(get(&g, opos, 3, c), 0.0f, 0);
    /* a uniform block bound shorter than the shader reads: the missing bytes read as 0 */
    xgdi_sw_spirv_bind_uniform(g.s, 0, test_matrix, 32);
    xgdi_sw_spirv_execute(g.s, 0xf, NULL);
    {
        float half[16];
        memcpy(half, test_matrix, sizeof half);
        for (int i = 8; i < 16; i++) half[i] = 0.0f;
        float e[4];
        expect_transform(test_pos[3], half, e);
        for (int c = 0; c < 4; c++) CHECK_REL(get(&g, opos, 3, c), e[c], 1e-6);
    }
    rig_free(&g);
out:
    free(w);
}


XGD_TEST(SwSpirv_MojoShaderVertexTransform)
{
    size_t n;
    const MOJOSHADER_parseData *pd = NULL;
    uint32_t *w = mojo_spirv(t,
                             "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\n"
                             "m4x4 oPos, v0, c0\nmov oD0, v1\nmov oT0, v2\n", &n, &pd);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    CHECK_INT(g.r->stage, XGDI_SW_SPIRV_VERTEX);
    REQUIRE(g.r->uniform_block_count == 1);
    /* c0..c3 used: a float4 array of four registers */
    CHECK_INT(g.r->uniform_blocks[0].size, 64);
    const xgdi_sw_spirv_io *pos = io_loc(&g, false, 0), *col = io_loc(&g, false, 1),
                           *opos = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_POSITION),
                           *od0 = io_name(&g, "vs_oD0"), *ot0 = io_name(&g, "vs_oT0");
    REQUIRE(pos && col && opos && od0 && ot0);
    put(&g, pos, test_pos);
    put(&g, col, test_color);
    put(&g, io_loc(&g, false, 2), test_color);
    xgdi_sw_spirv_bind_uniform(g.s, 0, test_matrix, sizeof test_matrix);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        float e[4];
        expect_transform(test_pos[l], test_matrix, e);
        for (int c = 0; c < 4; c++) CHECK_REL(get(&g, opos, l, c), e[c], 1e-6);
        for (int c = 0; c < 4; c++) CHECK_NEAR(get(&g, od0, l, c), test_color[l][c], 0);
    }
    rig_free(&g);
out:
    MOJOSHADER_freeParseData(pd);
    free(w);
}

/* sampling callback of the tests: colour = (u, v, image index, sampler index + lane / 8) */
static void coord_sampler(void *user, const xgdi_sw_spirv_sample_request *q, float out[4][4])
{
    int *calls = user;
    (*calls)++;
    for (int l = 0; l < 4; l++) {
        out[l][0] = q->coord[l][0];
        out[l][1] = q->coord[l][1];
        out[l][2] = (float)q->image;
        out[l][3] = (float)q->sampler + (float)l / 8.0f;
    }
}

XGD_TEST(SwSpirv_MojoShaderPixel)
{
    size_t n;
    const MOJOSHADER_parseData *pd = NULL;
    uint32_t *w = mojo_spirv(t,
                             "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\n"
                             "mul r0, r0, v0\nmul r0, r0, c2\nmov oC0, r0\n", &n, &pd);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    CHECK_INT(g.r->stage, XGDI_SW_SPIRV_FRAGMENT);
    CHECK(!g.r->discards);
    REQUIRE(g.r->resource_count == 1);
    CHECK_INT(g.r->resources[0].kind, XGDI_SW_SPIRV_SAMPLED_IMAGE);
    CHECK_INT(g.r->resources[0].dim, XGDI_SW_SPIRV_DIM_2D);
    CHECK_INT(g.r->resources[0].set, 1);
    CHECK_INT(g.r->resources[0].binding, 0);
    REQUIRE(g.r->uniform_block_count == 1);
    CHECK_INT(g.r->uniform_blocks[0].size, 16); /* only c2: one compacted register */
    const xgdi_sw_spirv_io *t0 = io_name(&g, "ps_t0"), *v0 = io_name(&g, "ps_v0"),
                           *oc0 = io_loc(&g, true, 0);
    REQUIRE(t0 && v0 && oc0);
    const float uv[4][4] = { { 0.25f, 0.5f }, { 0.75f, 0.5f }, { 0.25f, 1.0f }, { 0.75f, 1.0f } };
    put(&g, t0, uv);
    put(&g, v0, test_color);
    const float c2[4] = { 2.0f, 0.5f, 4.0f, -1.0f };
    xgdi_sw_spirv_bind_uniform(g.s, 0, c2, sizeof c2);
    int calls = 0;
    xgdi_sw_spirv_bind_sampler(g.s, coord_sampler, &calls);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    CHECK_INT(calls, 1); /* one call for the quad */
    for (int l = 0; l < 4; l++) {
        float s[4] = { uv[l][0], uv[l][1], 0.0f, (float)l / 8.0f };
        for (int c = 0; c < 4; c++)
            CHECK_REL(get(&g, oc0, l, c), s[c] * test_color[l][c] * c2[c], 1e-6);
    }
    rig_free(&g);
out:
    MOJOSHADER_freeParseData(pd);
    free(w);
}

XGD_TEST(SwSpirv_MojoShaderTexkill)
{
    size_t n;
    uint32_t *w = mojo_spirv(t, "ps_2_0\ndcl t0\ntexkill t0\nmov oC0, t0\n", &n, NULL);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *t0 = io_name(&g, "ps_t0"), *oc0 = io_loc(&g, true, 0);
    REQUIRE(t0 && oc0);
    /* texkill discards a pixel when any of x, y, z is negative (w is not tested) */
    const float v[4][4] = { { 0, 0, 0, -1 }, { 0, -0.5f, 0, 1 }, { 1, 1, 1, 1 }, { 0, 0, -2, 0 } };
    put(&g, t0, v);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0x5);
    for (int c = 0; c < 4; c++) {
        CHECK_NEAR(get(&g, oc0, 0, c), v[0][c], 0);
        CHECK_NEAR(get(&g, oc0, 2, c), v[2][c], 0);
    }
    rig_free(&g);
out:
    free(w);
}

XGD_TEST(SwSpirv_MojoShaderBranch)
{
    size_t n;
    uint32_t *w = mojo_spirv(t,
                             "ps_3_0\ndef c0, 0.5, 1, 0, 0.25\ndcl_texcoord0 v0\n"
                             "if_gt v0.x, c0.x\nmov r0, c0.y\nelse\nmov r0, c0.w\nendif\n"
                             "mov oC0, r0\n", &n, NULL);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *in = io_name(&g, "ps_v0"), *oc0 = io_loc(&g, true, 0);
    REQUIRE(in && oc0);
    const float v[4][4] = { { 0.6f }, { 0.4f }, { 0.5f }, { 2.0f } };
    put(&g, in, v);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++)
        CHECK_NEAR(get(&g, oc0, l, 0), v[l][0] > 0.5f ? 1.0f : 0.25f, 0);
    rig_free(&g);
out:
    free(w);
}

/* loop (aL from 0, 4 iterations) and rep (3 iterations) in a vs_3_0 */
XGD_TEST(SwSpirv_MojoShaderLoops)
{
    const char *src[2] = {
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndefi i0, 4, 0, 1, 0\n"
        "mov r0, c0\nloop aL, i0\nadd r0, r0, c1\nendloop\nmov o0, v0\nmov o1, r0\n",
        "vs_3_0\ndcl_position v0\ndcl_position o0\ndcl_texcoord0 o1\ndefi i0, 3, 0, 1, 0\n"
        "mov r0, c0\nrep i0\nmad r0, r0, c1, v0\nendrep\nmov o0, v0\nmov o1, r0\n" };
    const float c[8] = { 1.0f, -2.0f, 0.5f, 3.0f, 0.5f, 2.0f, -1.0f, 0.25f };
    for (int k = 0; k < 2; k++) {
        size_t n;
        uint32_t *w = mojo_spirv(t, src[k], &n, NULL);
        if (w == NULL) return;
        rig g;
        if (rig_load(t, &g, w, n)) {
            const xgdi_sw_spirv_io *v0 = io_name(&g, "vs_v0"), *o1 = io_name(&g, "vs_o1");
            REQUIRE(v0 && o1 && g.r->uniform_block_count == 1);
            put(&g, v0, test_pos);
            xgdi_sw_spirv_bind_uniform(g.s, 0, c, sizeof c);
            CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
            for (int l = 0; l < 4; l++)
                for (int j = 0; j < 4; j++) {
                    float e = c[j];
                    for (int i = 0; i < (k == 0 ? 4 : 3); i++)
                        e = k == 0 ? e + c[4 + j] : e * c[4 + j] + test_pos[l][j];
                    CHECK_NEAR(get(&g, o1, l, j), e, 0);
                }
            rig_free(&g);
        }
        free(w);
    }
}

typedef struct req_log {
    int calls;
    xgdi_sw_spirv_sample_request q[2];
} req_log;

static void ones_sampler(void *user, const xgdi_sw_spirv_sample_request *q, float out[4][4])
{
    req_log *g = user;
    if (g->calls < 2) g->q[g->calls] = *q;
    g->calls++;
    for (int l = 0; l < 4; l++) out[l][0] = out[l][1] = out[l][2] = out[l][3] = 1.0f;
}

/* a cube map sampled with an implicit level, a volume with texldl's explicit one (v0.w), and
   dsx / dsy of a non-affine input */
XGD_TEST(SwSpirv_MojoShaderCubeVolume)
{
    size_t n;
    uint32_t *w = mojo_spirv(t,
                             "ps_3_0\ndcl_texcoord0 v0\ndcl_cube s0\ndcl_volume s1\n"
                             "texld r0, v0, s0\ntexldl r1, v0, s1\ndsx r2, v0\ndsy r3, v0\n"
                             "mad r0, r0, r1, r2\nadd oC0, r0, r3\n", &n, NULL);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    REQUIRE(g.r->resource_count == 2);
    CHECK_INT(g.r->resources[0].dim, XGDI_SW_SPIRV_DIM_CUBE);
    CHECK_INT(g.r->resources[1].dim, XGDI_SW_SPIRV_DIM_3D);
    CHECK_INT(g.r->resources[1].binding, 1);
    const xgdi_sw_spirv_io *v0 = io_name(&g, "ps_v0"), *o = io_loc(&g, true, 0);
    REQUIRE(v0 && o);
    const float v[4][4] = { { 1, 2, 3, 0.5f }, { 2, 4, 1, 1.5f }, { 5, 3, 3, 2.5f },
                            { 0, 0, 9, 3.5f } };
    put(&g, v0, v);
    req_log log;
    memset(&log, 0, sizeof log);
    xgdi_sw_spirv_bind_sampler(g.s, ones_sampler, &log);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    REQUIRE(log.calls == 2);
    CHECK_INT(log.q[0].dim, XGDI_SW_SPIRV_DIM_CUBE);
    CHECK_INT(log.q[0].kind, XGDI_SW_SPIRV_SAMPLE_IMPLICIT);
    CHECK_INT(log.q[0].image, 0);
    CHECK_INT(log.q[1].dim, XGDI_SW_SPIRV_DIM_3D);
    CHECK_INT(log.q[1].kind, XGDI_SW_SPIRV_SAMPLE_LOD);
    CHECK_INT(log.q[1].image, 1);
    CHECK_INT(log.q[1].sampler, 1);
    for (int l = 0; l < 4; l++) {
        for (int c = 0; c < 3; c++) {
            CHECK_NEAR(log.q[0].coord[l][c], v[l][c], 0);
            CHECK_NEAR(log.q[1].coord[l][c], v[l][c], 0);
        }
        /* the six derivatives of a 3D coordinate: du/dx dv/dx du/dy dv/dy dw/dx dw/dy */
        CHECK_NEAR(log.q[0].deriv[l][0], v[1][0] - v[0][0], 0);
        CHECK_NEAR(log.q[0].deriv[l][1], v[1][1] - v[0][1], 0);
        CHECK_NEAR(log.q[0].deriv[l][2], v[2][0] - v[0][0], 0);
        CHECK_NEAR(log.q[0].deriv[l][3], v[2][1] - v[0][1], 0);
        CHECK_NEAR(log.q[0].deriv[l][4], v[1][2] - v[0][2], 0);
        CHECK_NEAR(log.q[0].deriv[l][5], v[2][2] - v[0][2], 0);
        CHECK_NEAR(log.q[1].lod[l], v[l][3], 0);
        /* oC0 = 1 * 1 + dsx(v0) + dsy(v0) (coarse: one difference per quad) */
        for (int c = 0; c < 4; c++)
            CHECK_NEAR(get(&g, o, l, c), 1.0f + (v[1][c] - v[0][c]) + (v[2][c] - v[0][c]), 0);
    }
    rig_free(&g);
out:
    free(w);
}

static void echo_sampler(void *user, const xgdi_sw_spirv_sample_request *q, float out[4][4])
{
    (void)user;
    for (int l = 0; l < 4; l++) {
        out[l][0] = q->coord[l][0];
        out[l][1] = q->coord[l][1];
        out[l][2] = q->lod_bias[l];
        out[l][3] = (float)q->kind;
    }
}

/* D3D9 instructions as MojoShader translates them (positive inputs): texldb biases by w; rsq,
   rcp, log (base 2), exp (base 2), pow, lrp (src0 * (src1 - src2) + src2), nrm, dp3, max.
   texldp: MojoShader passes the whole float4 to OpImageSampleProjImplicitLod, whose rule
   takes q from the component after the used ones, z for a 2D image: the executor divides u, v
   by z as the SPIR-V rule (and a GPU) does, where Direct3D 9 divides by w. */
XGD_TEST(SwSpirv_MojoShaderPs2Ops)
{
    size_t n;
    uint32_t *w = mojo_spirv(t,
                             "ps_2_0\ndef c0, 0.5, 2, 0, 1\ndcl t0\ndcl_2d s0\ntexldp r0, t0, s0\n"
                             "texldb r1, t0, s0\nrsq r2.x, t0.x\nrcp r2.y, t0.y\nlog r2.z, t0.z\n"
                             "exp r2.w, t0.w\nadd r0, r0, r1\npow r3.x, t0.x, c0.y\n"
                             "lrp r3.y, c0.x, t0.x, t0.y\nnrm r4.xyz, t0\ndp3 r3.z, r4, r4\n"
                             "max r3.w, t0.x, t0.y\nadd r0, r0, r2\nadd r0, r0, r3\nmov oC0, r0\n",
                             &n, NULL);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *t0 = io_name(&g, "ps_t0"), *o = io_loc(&g, true, 0);
    REQUIRE(t0 && o);
    const float v[4][4] = { { 0.5f, 0.25f, 2.0f, 1.5f }, { 1.5f, 0.75f, 0.125f, 0.5f },
                            { 3.0f, 2.0f, 8.0f, 2.0f }, { 0.2f, 0.9f, 1.0f, 1.0f } };
    put(&g, t0, v);
    xgdi_sw_spirv_bind_sampler(g.s, echo_sampler, NULL);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        const float *x = v[l];
        float e[4];
        /* texldp: (x/z, y/z, no bias, implicit); texldb: (x, y, bias w, implicit) */
        e[0] = x[0] / x[2] + x[0] + 1.0f / sqrtf(x[0]) + x[0] * x[0];
        e[1] = x[1] / x[2] + x[1] + 1.0f / x[1] + (0.5f * (x[0] - x[1]) + x[1]);
        e[2] = 0.0f + x[3] + log2f(x[2]) + 1.0f;
        e[3] = 0.0f + 0.0f + exp2f(x[3]) + fmaxf(x[0], x[1]);
        for (int c = 0; c < 4; c++)
            CHECK_MSG(near_rel(get(&g, o, l, c), e[c], 2e-6), "lane %d [%d]: %.9g, expected %.9g",
                      l, c, (double)get(&g, o, l, c), (double)e[c]);
    }
    rig_free(&g);
out:
    free(w);
}

/* vPos and vFace: FragCoord and FrontFacing. MojoShader gives vFace 1 on front faces and 0 on
   back faces (Direct3D 9 gives a negative value on back faces, so cmp on vFace alone cannot
   tell them apart here): the shader compares vFace - 0.5. */
XGD_TEST(SwSpirv_MojoShaderVPosVFace)
{
    size_t n;
    uint32_t *w = mojo_spirv(t,
                             "ps_3_0\ndef c0, 1, 0, 0.5, 2\ndcl vPos.xy\ndcl vFace\n"
                             "mov r0.xy, vPos\nadd r1.x, vFace, -c0.z\ncmp r0.z, r1.x, c0.x, c0.y\n"
                             "mov r0.w, c0.z\n"
                             "mov oC0, r0\n", &n, NULL);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *fc = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_FRAG_COORD),
                           *ff = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_FRONT_FACING),
                           *o = io_loc(&g, true, 0);
    REQUIRE(fc && ff && o);
    const float pos[4][4] = { { 4.5f, 7.5f, 0, 1 }, { 5.5f, 7.5f, 0, 1 }, { 4.5f, 8.5f, 0, 1 },
                              { 5.5f, 8.5f, 0, 1 } };
    put(&g, fc, pos);
    uint32_t *front = (uint32_t *)xgdi_sw_spirv_reg(g.s, ff->reg, 0);
    for (int l = 0; l < 4; l++) front[l] = l == 2 ? 0u : 1u;
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        /* vPos is the pixel position as FragCoord holds it (MojoShader adds no offset) */
        CHECK_NEAR(get(&g, o, l, 0), pos[l][0], 0);
        CHECK_NEAR(get(&g, o, l, 1), pos[l][1], 0);
        /* vFace - 0.5 >= 0 on front faces: cmp picks c0.x (1), else c0.y (0) */
        CHECK_NEAR(get(&g, o, l, 2), l == 2 ? 0.0f : 1.0f, 0);
        CHECK_NEAR(get(&g, o, l, 3), 0.5f, 0);
    }
    rig_free(&g);
out:
    free(w);
}


/* ---- derivatives ---- */

XGD_TEST(SwSpirv_Derivatives)
{
    size_t n;
    uint32_t *w = spv_file(t, "deriv", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *in = io_loc(&g, false, 0), *o0 = io_loc(&g, true, 0),
                           *o1 = io_loc(&g, true, 1);
    REQUIRE(in && o0 && o1);
    /* non-affine values, so the fine (per row / column) and coarse (per quad) rules differ */
    const float v[4][4] = { { 1, 2, 5, 1 }, { 3, 3, 4, -2 }, { 7, 10, 9, 4 }, { 15, 20, 0, 8 } };
    put(&g, in, v);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        int row = l >> 1, col = l & 1;
        float dxf = v[row * 2 + 1][0] - v[row * 2][0];  /* along this lane's row */
        float dyf = v[2 + col][0] - v[col][0];          /* along this lane's column */
        CHECK_NEAR(get(&g, o0, l, 0), dxf, 0);
        CHECK_NEAR(get(&g, o0, l, 1), dyf, 0);
        CHECK_NEAR(get(&g, o0, l, 2), v[1][1] - v[0][1], 0);
        CHECK_NEAR(get(&g, o0, l, 3), v[2][1] - v[0][1], 0);
        CHECK_NEAR(get(&g, o1, l, 0), v[1][2] - v[0][2], 0);
        CHECK_NEAR(get(&g, o1, l, 1), v[2][2] - v[0][2], 0);
        CHECK_NEAR(get(&g, o1, l, 2), fabsf(v[1][3] - v[0][3]) + fabsf(v[2][3] - v[0][3]), 0);
        CHECK_NEAR(get(&g, o1, l, 3), fabsf(v[1][1] - v[0][1]) + fabsf(v[2][1] - v[0][1]), 0);
    }
    rig_free(&g);
out:
    free(w);
}

/* ---- sampling forms and level of detail ---- */

typedef struct lod_log {
    int calls;
    xgdi_sw_spirv_sample_request q[4];
} lod_log;

static void logging_sampler(void *user, const xgdi_sw_spirv_sample_request *q, float out[4][4])
{
    lod_log *g = user;
    if (g->calls < 4) g->q[g->calls] = *q;
    for (int l = 0; l < 4; l++) {
        out[l][0] = (float)g->calls;
        out[l][1] = (float)l;
        out[l][2] = (float)q->kind;
        out[l][3] = 1.0f;
    }
    g->calls++;
}

/* uv per lane: u = 0.5 + x / 4, v = 0.25 + y / 8 (exact in binary) */
static const float lod_uv[4][4] = { { 0.5f, 0.25f }, { 0.75f, 0.25f }, { 0.5f, 0.375f },
                                    { 0.75f, 0.375f } };
static const float lod_params[12] = { 1.5f, 2.25f, 0, 0,  0.0625f, 0.03125f, 0, 0,
                                      0.0f, 0.5f, 0, 0 };

XGD_TEST(SwSpirv_SampleForms)
{
    size_t n;
    uint32_t *w = spv_file(t, "lod", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    REQUIRE(g.r->resource_count == 2);
    int img = g.r->resources[0].kind == XGDI_SW_SPIRV_IMAGE ? 0 : 1;
    CHECK_INT(g.r->resources[img].kind, XGDI_SW_SPIRV_IMAGE);
    CHECK_INT(g.r->resources[img].dim, XGDI_SW_SPIRV_DIM_2D);
    CHECK_INT(g.r->resources[1 - img].kind, XGDI_SW_SPIRV_SAMPLER);
    REQUIRE(g.r->uniform_block_count == 1);
    CHECK_INT(g.r->uniform_blocks[0].size, 48);
    REQUIRE(g.r->uniform_blocks[0].member_count == 5);
    CHECK_INT(g.r->uniform_blocks[0].member_offsets[3], 16);
    CHECK_INT(g.r->uniform_blocks[0].member_offsets[4], 32);
    put(&g, io_loc(&g, false, 0), lod_uv);
    xgdi_sw_spirv_bind_uniform(g.s, 0, lod_params, sizeof lod_params);
    lod_log log;
    memset(&log, 0, sizeof log);
    xgdi_sw_spirv_bind_sampler(g.s, logging_sampler, &log);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    REQUIRE(log.calls == 4);
    for (int k = 0; k < 4; k++) {
        const xgdi_sw_spirv_sample_request *q = &log.q[k];
        CHECK_INT(q->image, img);
        CHECK_INT(q->sampler, 1 - img);
        CHECK_INT(q->mask, 0xf);
        for (int l = 0; l < 4; l++) {
            CHECK_NEAR(q->coord[l][0], lod_uv[l][0], 0);
            CHECK_NEAR(q->coord[l][1], lod_uv[l][1], 0);
        }
    }
    CHECK_INT(log.q[0].kind, XGDI_SW_SPIRV_SAMPLE_IMPLICIT);
    CHECK_INT(log.q[1].kind, XGDI_SW_SPIRV_SAMPLE_IMPLICIT);
    CHECK_INT(log.q[2].kind, XGDI_SW_SPIRV_SAMPLE_LOD);
    CHECK_INT(log.q[3].kind, XGDI_SW_SPIRV_SAMPLE_GRAD);
    for (int l = 0; l < 4; l++) {
        /* implicit: the quad's differences du/dx = 1/4, dv/dy = 1/8 */
        for (int k = 0; k < 2; k++) {
            CHECK_NEAR(log.q[k].deriv[l][0], 0.25f, 0);
            CHECK_NEAR(log.q[k].deriv[l][1], 0.0f, 0);
            CHECK_NEAR(log.q[k].deriv[l][2], 0.0f, 0);
            CHECK_NEAR(log.q[k].deriv[l][3], 0.125f, 0);
        }
        CHECK_NEAR(log.q[0].lod_bias[l], 0.0f, 0);
        CHECK_NEAR(log.q[1].lod_bias[l], 1.5f, 0);
        CHECK_NEAR(log.q[2].lod[l], 2.25f, 0);
        CHECK_NEAR(log.q[3].deriv[l][0], 0.0625f, 0);
        CHECK_NEAR(log.q[3].deriv[l][1], 0.03125f, 0);
        CHECK_NEAR(log.q[3].deriv[l][2], 0.0f, 0);
        CHECK_NEAR(log.q[3].deriv[l][3], 0.5f, 0);
    }
    /* each output got its own call's result */
    for (int k = 0; k < 4; k++) {
        const xgdi_sw_spirv_io *o = io_loc(&g, true, k);
        REQUIRE(o);
        for (int l = 0; l < 4; l++) {
            CHECK_NEAR(get(&g, o, l, 0), (float)k, 0);
            CHECK_NEAR(get(&g, o, l, 1), (float)l, 0);
        }
    }
    rig_free(&g);
out:
    free(w);
}

/* A 16x16 texture with five levels, each one solid colour (level k: red = 40 k + 20), sampled
   with point filtering through the software renderer's sampler: the output colour names the
   level chosen. */
XGD_TEST(SwSpirv_MipLevelSelection)
{
    size_t n;
    uint32_t *w = spv_file(t, "lod", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    xgdi_native_texture tex;
    sw_image images[5];
    uint8_t *texels[5];
    memset(&tex, 0, sizeof tex);
    memset(images, 0, sizeof images);
    tex.desc.width = tex.desc.height = 16;
    tex.desc.levels = 5;
    tex.desc.format = XGD_SURFACE_FORMAT_COLOR;
    tex.faces = 1;
    tex.is_color = true;
    tex.images = images;
    for (int k = 0; k < 5; k++) {
        int s = 16 >> k;
        texels[k] = malloc((size_t)s * (size_t)s * 4);
        for (int i = 0; i < s * s; i++) {
            texels[k][i * 4] = (uint8_t)(40 * k + 20);
            texels[k][i * 4 + 1] = texels[k][i * 4 + 2] = 0;
            texels[k][i * 4 + 3] = 255;
        }
        images[k].width = images[k].height = s;
        images[k].depth = 1;
        images[k].texels = images[k].rgba8 = texels[k];
        images[k].cache_valid = true;
    }
    xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
    sd.filter = XGD_FILTER_POINT;
    xgdi_sw_spirv_textures tx;
    xgdi_sw_spirv_textures_init(&tx);
    for (int i = 0; i < g.r->resource_count; i++) xgdi_sw_spirv_textures_set(&tx, i, &tex, &sd);
    xgdi_sw_spirv_bind_sampler(g.s, xgdi_sw_spirv_sample_textures, &tx);
    put(&g, io_loc(&g, false, 0), lod_uv);
    xgdi_sw_spirv_bind_uniform(g.s, 0, lod_params, sizeof lod_params);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    /* rho = max(|(du/dx, dv/dx)|, |(du/dy, dv/dy)|) in texels, lod = log2(rho) + bias, point
       mips take level floor(lod + 0.5) clamped to 0..4:
         Sample:            rho = max(0.25 * 16, 0.125 * 16) = 4, lod 2 -> level 2
         SampleBias(1.5):   lod 3.5 -> floor(4.0) = level 4
         SampleLevel(2.25): floor(2.75) = level 2
         SampleGrad:        |(1/16, 1/32) * 16| = 1.118, |(0, 1/2) * 16| = 8, lod 3 -> level 3 */
    const int expect_level[4] = { 2, 4, 2, 3 };
    for (int k = 0; k < 4; k++) {
        const xgdi_sw_spirv_io *o = io_loc(&g, true, k);
        REQUIRE(o);
        for (int l = 0; l < 4; l++)
            CHECK_MSG(fabsf(get(&g, o, l, 0) - (float)(40 * expect_level[k] + 20) / 255.0f) < 1e-6f,
                      "output %d lane %d: red %g, level %d expected", k, l,
                      (double)(get(&g, o, l, 0) * 255.0f), expect_level[k]);
    }
    for (int k = 0; k < 5; k++) free(texels[k]);
    rig_free(&g);
out:
    free(w);
}

/* ---- discard, control flow ---- */

XGD_TEST(SwSpirv_Discard)
{
    size_t n;
    uint32_t *w = spv_file(t, "discard", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *in = io_loc(&g, false, 0), *o = io_loc(&g, true, 0);
    REQUIRE(in && o);
    CHECK(g.r->discards);
    /* clip(x - 0.5) discards where x - 0.5 < 0: lane 0 only (0.5 - 0.5 = 0 is kept) */
    const float v[4][4] = { { 0.2f, 1, 2, 3 }, { 0.7f, 1, 2, 3 }, { 0.5f, -1, 0, 1 },
                            { 0.9f, 4, 5, 6 } };
    put(&g, in, v);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xe);
    for (int l = 1; l < 4; l++)
        for (int c = 0; c < 4; c++) CHECK_NEAR(get(&g, o, l, c), v[l][c] * 2.0f, 0);
    /* a lane the caller does not run is not reported alive */
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0x3, NULL), 0x2);
    rig_free(&g);
out:
    free(w);
}

XGD_TEST(SwSpirv_DivergentControlFlow)
{
    size_t n;
    uint32_t *w = spv_file(t, "flow", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *in = io_loc(&g, false, 0), *o = io_loc(&g, true, 0);
    REQUIRE(in && o);
    /* x: loop count, y: affine along x (ddx 3), z: branch, w: switch selector */
    const float v[4][4] = { { 0, 1, 1, 0 }, { 5, 4, -1, 1 }, { 2.5f, 1, -1, 2 },
                            { 9, 4, 1, 7 } };
    put(&g, in, v);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        float s = 0;
        int cnt = (int)v[l][0];
        for (int i = 0; i < cnt; i++) s += (i & 1) == 0 ? (float)i : -0.5f;
        s = v[l][2] > 0 ? s * 10 : -s;
        int sel = (int)v[l][3];
        s += sel == 0 ? 100.0f : (sel == 1 ? 200.0f : 300.0f);
        CHECK_NEAR(get(&g, o, l, 0), s, 0);
        /* after the loop the lanes run together again: the coarse ddx sees all four */
        CHECK_NEAR(get(&g, o, l, 1), v[1][1] - v[0][1], 0);
        CHECK_NEAR(get(&g, o, l, 2), (float)cnt, 0);
    }
    rig_free(&g);
out:
    free(w);
}

/* ---- GLSL.std.450 against the C library ---- */

static const float math_v[4][4] = { { 0.6f, 0.3f, 0.8f, 0.45f }, { 1.3f, -0.7f, 0.25f, 2.5f },
                                    { 0.15f, 0.95f, 1.7f, 0.05f }, { 2.2f, 0.5f, 0.4f, 1.1f } };
static const float math_w[4][4] = { { 1.7f, -0.4f, 0.35f, 0.9f }, { 0.5f, 1.5f, -0.6f, 0.2f },
                                    { -1.1f, 0.3f, 2.0f, 0.75f }, { 3.0f, -2.0f, 0.1f, 0.6f } };

static double det_n(double *a, int n)
{
    /* Gaussian elimination with partial pivoting */
    double d = 1.0;
    for (int c = 0; c < n; c++) {
        int p = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[p * n + c])) p = r;
        if (a[p * n + c] == 0.0) return 0.0;
        if (p != c) {
            for (int k = 0; k < n; k++) {
                double tmp = a[c * n + k];
                a[c * n + k] = a[p * n + k];
                a[p * n + k] = tmp;
            }
            d = -d;
        }
        d *= a[c * n + c];
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++) a[r * n + k] -= f * a[c * n + k];
        }
    }
    return d;
}

static void run_math(xgdt_ctx *t, const char *name, int outputs, float out[8][4][4])
{
    size_t n;
    uint32_t *w = spv_file(t, name, &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto done;
    const xgdi_sw_spirv_io *iv = io_loc(&g, false, 0), *iw = io_loc(&g, false, 1);
    if (iv == NULL || iw == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "inputs");
        goto fr;
    }
    put(&g, iv, math_v);
    put(&g, iw, math_w);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int k = 0; k < outputs; k++) {
        const xgdi_sw_spirv_io *o = io_loc(&g, true, k);
        if (o == NULL) {
            xgdt_fail_at(t, __FILE__, __LINE__, "output %d", k);
            continue;
        }
        for (int l = 0; l < 4; l++)
            for (int c = 0; c < 4; c++) out[k][l][c] = get(&g, o, l, c);
    }
fr:
    rig_free(&g);
done:
    free(w);
}

static float dot3f(const float *a, const float *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

XGD_TEST(SwSpirv_GlslStd450First)
{
    float o[8][4][4];
    memset(o, 0, sizeof o);
    run_math(t, "math1", 8, o);
    if (t->not_supported) return;
    for (int l = 0; l < 4; l++) {
        const float *v = math_v[l], *w = math_w[l];
        float len = sqrtf(dot3f(v, v));
        float e[8][4] = {
            { powf(v[0], w[0]), exp2f(v[1]), log2f(v[2]), sqrtf(v[3]) },
            { 1.0f / sqrtf(v[0]), len, dot3f(v, w), v[1] / len },
            { v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0],
              v[2] - 2.0f * dot3f(w, v) * w[2] },
            { v[0] + (w[0] - v[0]) * v[1], fminf(fmaxf(v[1], 0.2f), 0.4f), fminf(v[2], w[2]),
              fmaxf(v[3], w[3]) },
            { floorf(v[0] * 3), v[1] * 3 - floorf(v[1] * 3), w[2] < v[2] ? 0.0f : 1.0f, 0 },
            { sinf(v[0]), cosf(v[1]), atan2f(v[2], w[2]), fabsf(w[3] - v[3]) },
            { v[0] > w[0] ? 1.0f : (v[0] < w[0] ? -1.0f : 0.0f), expf(v[2]), logf(v[3]),
              sqrtf((v[0] - w[0]) * (v[0] - w[0]) + (v[1] - w[1]) * (v[1] - w[1]) +
                    (v[2] - w[2]) * (v[2] - w[2])) },
            { tanf(v[0]), asinf(v[1] * 0.5f), acosf(v[2] * 0.5f), atanf(v[3]) },
        };
        float st = fminf(fmaxf((v[3] - 0.1f) / 0.8f, 0.0f), 1.0f);
        e[4][3] = st * st * (3.0f - 2.0f * st);
        for (int k = 0; k < 8; k++)
            for (int c = 0; c < 4; c++)
                CHECK_MSG(near_rel(o[k][l][c], e[k][c], 2e-6),
                          "math1 output %d lane %d component %d: %.9g, expected %.9g", k, l, c,
                          (double)o[k][l][c], (double)e[k][c]);
    }
}

XGD_TEST(SwSpirv_GlslStd450Second)
{
    float o[8][4][4];
    memset(o, 0, sizeof o);
    run_math(t, "math2", 5, o);
    if (t->not_supported) return;
    for (int l = 0; l < 4; l++) {
        const float *v = math_v[l], *w = math_w[l];
        float e[5][4] = {
            { rintf(v[0] * 5), truncf(-v[1] * 5), ceilf(v[2] * 5), v[3] * 57.29577951308232f },
            { v[0] * 0.017453292519943295f, sinhf(v[1]), coshf(v[2]), tanhf(v[3]) },
            { 0, 0, 0, fminf(fmaxf(w[3] * 2 - 0.5f, 0.0f), 1.0f) },
            { 0, 0, 0, 0 },
            { 0, 0, ldexpf(v[2], 3), v[3] * w[3] + v[0] },
        };
        /* refract(normalize(v), normalize(w), 0.5) */
        float I[3], N[3];
        float li = sqrtf(dot3f(v, v)), ln = sqrtf(dot3f(w, w));
        for (int c = 0; c < 3; c++) {
            I[c] = v[c] / li;
            N[c] = w[c] / ln;
        }
        float d = dot3f(N, I), eta = 0.5f, k = 1.0f - eta * eta * (1.0f - d * d);
        for (int c = 0; c < 3; c++) e[2][c] = k < 0 ? 0.0f : eta * I[c] - (eta * d + sqrtf(k)) * N[c];
        double m2[4] = { v[0], v[1], w[0], w[1] };
        double m3[9] = { v[0], v[1], v[2], w[0], w[1], w[2], v[1], v[2], v[0] };
        double m4[16] = { v[0], v[1], v[2], v[3], w[0], w[1], w[2], w[3],
                          v[1], v[2], v[3], v[0], 2 * w[3], 2 * w[2], 2 * w[1], 2 * w[0] };
        e[3][0] = (float)det_n(m2, 2);
        e[3][1] = (float)det_n(m3, 3);
        e[3][2] = (float)det_n(m4, 4);
        float x = v[0] * 7, y = w[0] + 0.5f;
        e[3][3] = x - y * floorf(x / y); /* OpFMod: the sign of y */
        /* faceforward(N = v.xy, I = w.xy, Nref = v.yx): N where dot(Nref, I) < 0, else -N */
        float ff = v[1] * w[0] + v[0] * w[1];
        e[4][0] = ff < 0 ? v[0] : -v[0];
        e[4][1] = ff < 0 ? v[1] : -v[1];
        for (int kk = 0; kk < 5; kk++)
            for (int c = 0; c < 4; c++)
                CHECK_MSG(near_rel(o[kk][l][c], e[kk][c], kk == 3 ? 2e-5 : 2e-6),
                          "math2 output %d lane %d component %d: %.9g, expected %.9g", kk, l, c,
                          (double)o[kk][l][c], (double)e[kk][c]);
    }
}

/* ---- malformed, hostile and unsupported modules ---- */

static xgd_result try_load(const uint32_t *w, size_t n, char *err, size_t es)
{
    xgdi_sw_spirv_module *m = NULL;
    xgd_result r = xgdi_sw_spirv_load(w, n, NULL, &m, err, es);
    if (r == XGD_OK) {
        /* whatever loads must run without faults */
        xgdi_sw_spirv_state *s = NULL;
        if (xgdi_sw_spirv_state_create(m, &s) == XGD_OK) {
            xgdi_sw_spirv_execute(s, 0xf, NULL);
            xgdi_sw_spirv_state_free(s);
        }
        xgdi_sw_spirv_free(m);
    } else if (m != NULL) {
        r = XGD_ERROR_INVALID_OPERATION; /* a failed load must not return a module */
    }
    return r;
}

/* the word index of the first instruction with opcode op, 0 if none */
static size_t find_op(const uint32_t *w, size_t n, uint32_t op)
{
    for (size_t at = 5; at < n && (w[at] >> 16) != 0; at += w[at] >> 16)
        if ((w[at] & 0xffff) == op) return at;
    return 0;
}

XGD_TEST(SwSpirv_MalformedModules)
{
    size_t n;
    uint32_t *w = spv_file(t, "sprite", &n);
    if (w == NULL) return;
    char err[256];
    uint32_t *c = malloc(n * 4);
    CHECK_OK(try_load(w, n, err, sizeof err));
    /* header */
    CHECK_INT(try_load(w, 4, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    memcpy(c, w, n * 4);
    c[0] = 0x03022307; /* byte-swapped magic */
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(err, "magic") != NULL);
    memcpy(c, w, n * 4);
    c[3] = 0xffffffffu; /* id bound */
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_NOT_SUPPORTED);
    CHECK(strstr(err, "bound") != NULL);
    /* every truncation of a valid module is refused (the function loses its end) */
    for (size_t k = 5; k < n; k++) {
        xgd_result r = try_load(w, k, err, sizeof err);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "truncated to %zu words: %s (%s)", k,
                  xgd_result_name(r), err);
    }
    /* a word count running past the end */
    memcpy(c, w, n * 4);
    c[5] = (0xffffu << 16) | (c[5] & 0xffff);
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(err, "word count") != NULL);
    memcpy(c, w, n * 4);
    c[5] &= 0xffff; /* word count 0 */
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    /* an id beyond the bound: the operand of the first OpLoad */
    size_t at = find_op(w, n, 61);
    REQUIRE(at != 0);
    memcpy(c, w, n * 4);
    c[at + 3] = w[3] + 5;
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(err, "out of range") != NULL, "message: %s", err);
    /* a load from something that is not a pointer (its own result type id) */
    memcpy(c, w, n * 4);
    c[at + 3] = w[at + 1];
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_INVALID_ARGUMENT);
    /* capabilities and opcodes outside the subset are named */
    at = find_op(w, n, 17);
    REQUIRE(at != 0);
    memcpy(c, w, n * 4);
    c[at + 1] = 2; /* Geometry */
    CHECK_INT(try_load(c, n, err, sizeof err), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(err, "capability 2") != NULL, "message: %s", err);
    free(w);
    w = spv_file(t, "fetch", &n);
    if (w != NULL) {
        CHECK_INT(try_load(w, n, err, sizeof err), XGD_ERROR_NOT_SUPPORTED);
        CHECK_MSG(strstr(err, "OpImageFetch") != NULL, "message: %s", err);
    }
    free(c);
    free(w);
}

/* Every single-word corruption of the test modules (deterministic pseudo-random values at every
   position) either loads and runs or is refused with a named error: no crash, no hang, no
   module returned with an error. */
XGD_TEST(SwSpirv_CorruptedModules)
{
    const char *names[] = { "sprite", "flow", "lod", "transform" };
    uint32_t seed = 12345;
    for (int f = 0; f < 4; f++) {
        size_t n;
        uint32_t *w = spv_file(t, names[f], &n);
        if (w == NULL) return;
        uint32_t *c = malloc(n * 4);
        char err[256];
        for (size_t k = 5; k < n; k++) {
            for (int rep = 0; rep < 3; rep++) {
                memcpy(c, w, n * 4);
                seed = seed * 1664525u + 1013904223u;
                uint32_t v = rep == 0 ? seed : (rep == 1 ? (w[k] ^ (1u << (seed >> 27))) : (seed >> 20));
                c[k] = v;
                xgd_result r = try_load(c, n, err, sizeof err);
                CHECK_MSG(r == XGD_OK || r == XGD_ERROR_INVALID_ARGUMENT ||
                          r == XGD_ERROR_NOT_SUPPORTED,
                          "%s word %zu = 0x%08x: %s", names[f], k, v, xgd_result_name(r));
                if (r != XGD_OK) CHECK_MSG(err[0] != 0, "%s word %zu: no message", names[f], k);
            }
        }
        free(c);
        free(w);
    }
}

/* ---- built-ins ---- */

XGD_TEST(SwSpirv_FragmentBuiltins)
{
    size_t n;
    uint32_t *w = spv_file(t, "builtins", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *fc = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_FRAG_COORD),
                           *ff = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_FRONT_FACING),
                           *o = io_loc(&g, true, 0);
    REQUIRE(fc && ff && o);
    CHECK_INT(ff->scalar, XGDI_SW_SPIRV_BOOL);
    CHECK_INT(fc->components, 4);
    const float pos[4][4] = { { 10.5f, 20.5f, 0.25f, 1 }, { 11.5f, 20.5f, 0.25f, 1 },
                              { 10.5f, 21.5f, 0.5f, 2 }, { 11.5f, 21.5f, 0.5f, 2 } };
    put(&g, fc, pos);
    uint32_t *front = (uint32_t *)xgdi_sw_spirv_reg(g.s, ff->reg, 0);
    front[0] = 1;
    front[1] = 0;
    front[2] = 1;
    front[3] = 0;
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++)
        for (int c = 0; c < 4; c++)
            CHECK_NEAR(get(&g, o, l, c), (l & 1) ? -pos[l][c] : pos[l][c], 0);
    rig_free(&g);
out:
    free(w);
}

/* A module that never terminates stops at the step budget: the lanes still running (and the
   lanes waiting for them to reconverge) are reported not finished and the caller is told. */
XGD_TEST(SwSpirv_RunawayLoopStops)
{
    size_t n;
    uint32_t *w = spv_file(t, "runaway", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const xgdi_sw_spirv_io *in = io_loc(&g, false, 0), *o = io_loc(&g, true, 0);
    REQUIRE(in && o);
    /* lanes 0 and 2 stay at x = 1 (y = 1) forever */
    const float v[4][4] = { { 1, 1 }, { 1, 1e10f }, { 1, 1 }, { 2e30f, 1 } };
    put(&g, in, v);
    bool exhausted = false;
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, &exhausted) & 0x5, 0);
    CHECK(exhausted);
    /* the next execution starts afresh: every lane leaves the loop */
    const float v2[4][4] = { { 1, 1e10f }, { 2e30f, 1 }, { 1e25f, 1e3f }, { 1e-30f, 1e20f } };
    put(&g, in, v2);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, &exhausted), 0xf);
    CHECK(!exhausted);
    /* iterations until x >= 1e30: 1 -> 1e10 -> 1e20 -> 1e30: 3; 2e30: 0; 1e25 -> 1e28 -> 1e31:
       2; 1e-30 -> 1e-10 -> 1e10 -> 1e30: 3 */
    const float e[4] = { 3, 0, 2, 3 };
    for (int l = 0; l < 4; l++) CHECK_NEAR(get(&g, o, l, 0), e[l], 0);
    rig_free(&g);
out:
    free(w);
}

/* ---- GLSL: calls with pointer parameters, dynamic indexing, matrices, integers ---- */

static const float glsl_v[4][4] = { { 0.5f, 1.5f, -2.0f, 0.25f }, { 2.0f, -1.0f, 0.5f, 3.0f },
                                    { -1.5f, 0.75f, 1.25f, 0.5f }, { 3.0f, 2.0f, 1.0f, 2.0f } };
static const int32_t glsl_iv[4][4] = { { 0, 1, 2, 3 }, { 3, -2, 1, 0 }, { -5, 7, 3, 2 },
                                       { 6, 4, -1, -4 } };

static void put_int(rig *g, const xgdi_sw_spirv_io *io, const int32_t v[4][4])
{
    for (int c = 0; c < 4; c++) {
        int32_t *p = (int32_t *)xgdi_sw_spirv_reg(g->s, io->reg, c);
        for (int l = 0; l < 4; l++) p[l] = v[l][c];
    }
}

XGD_TEST(SwSpirv_GlslCallsArraysMatrices)
{
    size_t n;
    uint32_t *w = spv_file(t, "lang", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    REQUIRE(g.r->uniform_block_count == 1);
    /* std140: table[4] at 0, mat3 at 64 (columns 16 bytes apart), mat2x3 at 112 */
    REQUIRE(g.r->uniform_blocks[0].member_count == 3);
    CHECK_INT(g.r->uniform_blocks[0].member_offsets[1], 64);
    CHECK_INT(g.r->uniform_blocks[0].member_offsets[2], 112);
    CHECK_INT(g.r->uniform_blocks[0].size, 140);
    float ub[36];
    memset(ub, 0, sizeof ub);
    for (int i = 0; i < 16; i++) ub[i] = (float)(i * 3 % 7) - 2.5f;
    float M[3][3], N[2][3]; /* [column][row] */
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) M[c][r] = ub[16 + c * 4 + r] = (float)(c * 3 + r) * 0.5f - 1.0f + (c == r);
    for (int c = 0; c < 2; c++)
        for (int r = 0; r < 3; r++) N[c][r] = ub[28 + c * 4 + r] = (float)(r - c) * 0.75f + 0.25f;
    put(&g, io_loc(&g, false, 0), glsl_v);
    put_int(&g, io_loc(&g, false, 1), glsl_iv);
    xgdi_sw_spirv_bind_uniform(g.s, 0, ub, sizeof ub);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        const float *v = glsl_v[l];
        const int32_t *iv = glsl_iv[l];
        float e[4][4];
        float arr[5];
        for (int i = 0; i < 5; i++) arr[i] = (float)i * v[0];
        float x = arr[(iv[0] & 3) + 1], acc = 1.0f + x;
        e[0][0] = acc * 2.0f;
        e[0][1] = acc;
        e[0][2] = x * x;
        e[0][3] = arr[iv[1] & 3];
        memcpy(e[1], ub + (iv[2] & 3) * 4, 16);
        e[1][iv[3] & 3] += 1.0f;
        float m[3][3], a[3], b[3];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) {
                /* (M * transpose(M))[c][r] = sum_k M[k][r] * M[k][c] */
                m[c][r] = 0;
                for (int k2 = 0; k2 < 3; k2++) m[c][r] += M[k2][r] * M[k2][c];
            }
        for (int r = 0; r < 3; r++) a[r] = m[0][r] * v[0] + m[1][r] * v[1] + m[2][r] * v[2];
        for (int c = 0; c < 3; c++) b[c] = v[0] * M[c][0] + v[1] * M[c][1] + v[2] * M[c][2];
        e[2][0] = a[0] + b[1];
        e[2][1] = a[1] - b[2];
        e[2][2] = N[0][2] * v[0] + N[1][2] * v[1];
        e[2][3] = v[3] * (v[0] * v[0] + v[1] * v[1]);
        int32_t q[4];
        for (int c = 0; c < 4; c++) q[c] = iv[c] * 3 - 7;
        e[3][0] = (float)(q[0] / 2); /* integer division truncates toward zero */
        e[3][1] = (float)((q[1] + 100) % 3);
        e[3][2] = (float)(((uint32_t)(iv[2] + 8) >> 1) ^ 5u);
        e[3][3] = (float)(q[3] * 4);
        for (int k = 0; k < 4; k++) {
            const xgdi_sw_spirv_io *o = io_loc(&g, true, k);
            REQUIRE(o);
            for (int c = 0; c < 4; c++)
                CHECK_MSG(near_rel(get(&g, o, l, c), e[k][c], 2e-6),
                          "o%d lane %d [%d]: %.9g, expected %.9g", k, l, c,
                          (double)get(&g, o, l, c), (double)e[k][c]);
        }
    }
    rig_free(&g);
out:
    free(w);
}

XGD_TEST(SwSpirv_GlslStd450Integer)
{
    size_t n;
    uint32_t *w = spv_file(t, "math3", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    const float v[4][4] = { { 0.3f, 0.625f, 0.5f, 0.25f }, { 1.2f, 0.375f, -1.5f, 2.0f },
                            { -0.7f, 1.125f, 3.0f, 0.75f }, { 0.9f, -0.875f, 0.0f, 5.0f } };
    put(&g, io_loc(&g, false, 0), v);
    put_int(&g, io_loc(&g, false, 1), glsl_iv);
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        const int32_t *iv = glsl_iv[l];
        const float *x = v[l];
        uint32_t u[4];
        for (int c = 0; c < 4; c++) u[c] = (uint32_t)(iv[c] + 10);
        float e[4][4] = {
            { (float)abs(iv[0]), (float)((iv[1] > 0) - (iv[1] < 0)),
              (float)(iv[2] < iv[3] ? iv[2] : iv[3]), (float)(iv[0] > iv[2] ? iv[0] : iv[2]) },
            { (float)(iv[3] < -2 ? -2 : (iv[3] > 3 ? 3 : iv[3])), (float)(u[0] < u[1] ? u[0] : u[1]),
              (float)(u[2] > u[3] ? u[2] : u[3]), (float)(u[0] < 9 ? 9 : (u[0] > 12 ? 12 : u[0])) },
            /* round: halves away from zero (one of GLSL's allowed choices, roundf's), roundEven */
            { roundf(x[0] * 4.0f), rintf(x[1] * 4.0f), asinhf(x[2]), acoshf(x[3] + 1.0f) },
            { atanhf(x[0] * 0.5f), ldexpf(x[1], iv[0]), x[2] * x[3] + x[0], 1.0f / sqrtf(x[3]) },
        };
        for (int k = 0; k < 4; k++) {
            const xgdi_sw_spirv_io *o = io_loc(&g, true, k);
            REQUIRE(o);
            for (int c = 0; c < 4; c++)
                CHECK_MSG(near_rel(get(&g, o, l, c), e[k][c], 2e-6),
                          "o%d lane %d [%d]: %.9g, expected %.9g", k, l, c,
                          (double)get(&g, o, l, c), (double)e[k][c]);
        }
    }
    rig_free(&g);
out:
    free(w);
}

/* SkinnedEffect's core: Bones[idx[i]] indexed per vertex (lane) from a uniform array of
   float4x3 (HLSL column_major: each of the 3 columns one float4 register, 48 bytes a bone). */
XGD_TEST(SwSpirv_SkinningBones)
{
    size_t n;
    uint32_t *w = spv_file(t, "skin", &n);
    if (w == NULL) return;
    rig g;
    if (!rig_load(t, &g, w, n)) goto out;
    REQUIRE(g.r->uniform_block_count == 1);
    CHECK_INT(g.r->uniform_blocks[0].size, 8 * 48); /* 3 float4 registers a bone, all used */
    float bones[8 * 12];
    for (int i = 0; i < 8 * 12; i++) bones[i] = (float)((i * 7) % 13) * 0.25f - 1.5f;
    xgdi_sw_spirv_bind_uniform(g.s, 0, bones, sizeof bones);
    const uint32_t idx[4][4] = { { 0, 1, 2, 3 }, { 7, 7, 0, 5 }, { 4, 2, 6, 1 }, { 3, 3, 3, 3 } };
    const float wt[4][4] = { { 1, 0, 0, 0 }, { 0.5f, 0.25f, 0.125f, 0.125f },
                             { 0.1f, 0.2f, 0.3f, 0.4f }, { 0.25f, 0.25f, 0.25f, 0.25f } };
    const xgdi_sw_spirv_io *pos = io_loc(&g, false, 0), *ix = io_loc(&g, false, 1),
                           *we = io_loc(&g, false, 2),
                           *o = io_builtin(&g, XGDI_SW_SPIRV_BUILTIN_POSITION);
    REQUIRE(pos && ix && we && o);
    CHECK_INT(ix->scalar, XGDI_SW_SPIRV_UINT);
    put(&g, pos, test_pos);
    put(&g, we, wt);
    for (int c = 0; c < 4; c++) {
        uint32_t *p = (uint32_t *)xgdi_sw_spirv_reg(g.s, ix->reg, c);
        for (int l = 0; l < 4; l++) p[l] = idx[l][c];
    }
    CHECK_INT(xgdi_sw_spirv_execute(g.s, 0xf, NULL), 0xf);
    for (int l = 0; l < 4; l++) {
        for (int j = 0; j < 3; j++) {
            float e = 0.0f;
            for (int k = 0; k < 4; k++) {
                const float *col = bones + idx[l][k] * 12 + j * 4;
                float m = 0.0f;
                for (int i = 0; i < 4; i++) m += test_pos[l][i] * col[i];
                e += wt[l][k] * m;
            }
            CHECK_REL(get(&g, o, l, j), e, 1e-5);
        }
        CHECK_NEAR(get(&g, o, l, 3), 1.0f, 0);
    }
    rig_free(&g);
out:
    free(w);
}
