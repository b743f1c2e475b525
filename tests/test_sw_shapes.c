/*
 * test_sw_shapes.c - the software renderer computes recognised pixel shaders without its
 * SPIR-V executor, and they must give the executor's bytes.
 *
 * Rule: a pixel shader whose only output is COLOR0 = Sample(texture, input.xy) * input2 in
 * straight-line code (SpriteBatch's SpriteEffect, every "texture times vertex colour" effect)
 * may be computed directly by the rasterizer; everything else runs in the executor. The direct
 * path must write exactly the executor's bytes: the same interpolated inputs, the same sample
 * request (coarse quad derivatives when the level of detail matters), the product in the
 * shader's operand order. $XGD_SW_EXECUTOR_ONLY=1 (read when a device is created) turns the
 * recognition off, which gives the reference image.
 *
 * SwShapes_ModulateRecognised: the recogniser accepts SpriteBatch's pixel shader as glslang
 * compiles it (HLSL entry wrapper, pointer parameters, separate texture and sampler) and
 * refuses shaders that are more than the shape: an extra uniform factor, a discard,
 * derivatives, an explicit level.
 * SwShapes_SameImageAsExecutor: SpriteBatch scenes (texel-exact, rotated and scaled with
 * fractional positions, point and linear filters, a mipmapped texture minified so the level
 * comes from the quad's derivatives, tints, alpha blending; single-sampled and 4x
 * multisampled; a user effect with the product's operands reversed) give identical back
 * buffers with and without recognition, on one thread and banded on three. The passes cover
 * the row path (sw_mod_rows: affine triangles, a one-level RGBA8 image, Color and DXT1,
 * AlphaBlend into a single-sampled target) and each case it leaves to the quad path: other
 * blend states, a perspective transform (w differs per vertex), a texture decoded to float,
 * a mipmapped or anisotropic sampler, a multisampled target.
 * SwSimd_Unorm8: the row path's conversions (sw_simd.h, SSE2 or plain C as built) are the
 * rules': every byte b decodes to (float)b / 255, and a float encodes as clamp(v, 0, 1) * 255
 * + 0.5 truncated, NaN as 0.
 * SwSimd_BlendWhite (SSE2 builds): the row path's integer form for a white tint
 * (sw_blend4_white) gives, for every texel byte s, texel alpha sa and target byte d, the byte
 * of the float form it stands for: sat(sat(s / 255 * f) + d / 255 * (1 - sat(sa / 255 * f)))
 * encoded, for the modulate factor f = 1 and f up to 32 ulps either side (the row path's f is
 * the sum of three float barycentrics, within a few ulps of 1).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fixture_util.h"
#include "sw_simd.h"
#include "sw_spirv.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_SPIRV_DIR
static uint32_t *shape_spv(xgdt_ctx *t, const char *name, size_t *count)
{
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
    uint32_t *w = n >= 20 ? malloc((size_t)n) : NULL;
    if (w == NULL || fread(w, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(w);
        xgdt_fail_at(t, __FILE__, __LINE__, "cannot read %s", path);
        return NULL;
    }
    fclose(f);
    *count = (size_t)n / 4;
    return w;
}

/* The test shader's module, or NULL (a failure recorded) */
static xgdi_sw_spirv_module *shape_module(xgdt_ctx *t, const char *name)
{
    size_t n = 0;
    uint32_t *w = shape_spv(t, name, &n);
    if (w == NULL) return NULL;
    xgdi_sw_spirv_module *m = NULL;
    char err[256] = "";
    xgd_result r = xgdi_sw_spirv_load(w, n, "main", &m, err, sizeof err);
    free(w);
    CHECK_MSG(r == XGD_OK, "%s: load: %s", name, err);
    return r == XGD_OK ? m : NULL;
}

/* 1: recognised, 0: not, -1: the module could not be loaded */
static int shape_of(xgdt_ctx *t, const char *name)
{
    xgdi_sw_spirv_module *m = shape_module(t, name);
    if (m == NULL) return -1;
    xgdi_sw_spirv_modulate mod;
    memset(&mod, 0, sizeof mod);
    int found = xgdi_sw_spirv_match_modulate(m, &mod) ? 1 : 0;
    if (found) {
        /* the coordinates and the factor are the shader's two inputs, u and v adjacent */
        const xgdi_sw_spirv_reflection *rf = xgdi_sw_spirv_reflect(m);
        bool uv = false, col = false;
        for (int i = 0; i < rf->io_count; i++) {
            const xgdi_sw_spirv_io *io = &rf->io[i];
            if (io->output) continue;
            /* glslang names the inputs after the HLSL parameters (uv, color) */
            if (strstr(io->name, "uv") != NULL && mod.uv_reg == io->reg) uv = true;
            if (strstr(io->name, "color") != NULL && mod.color_reg == io->reg) col = true;
        }
        CHECK_MSG(uv && col, "%s: recognised with the wrong inputs (uv reg %u, colour reg %u)",
                  name, mod.uv_reg, mod.color_reg);
        CHECK_MSG(mod.valid && mod.sample_first, "%s: resource or operand order wrong", name);
    }
    xgdi_sw_spirv_free(m);
    return found;
}
#endif

XGD_TEST(SwShapes_ModulateRecognised)
{
#ifndef XGD_TEST_SPIRV_DIR
    xgdt_not_supported(t, "glslangValidator not found at configure time");
    return;
#else
    CHECK_INT(shape_of(t, "spritebatch"), 1);
    /* more than the shape: a uniform factor, a discard, derivatives, an explicit level */
    CHECK_INT(shape_of(t, "sprite"), 0);
    CHECK_INT(shape_of(t, "discard"), 0);
    CHECK_INT(shape_of(t, "deriv"), 0);
    CHECK_INT(shape_of(t, "lod"), 0);
#endif
}

#ifdef XGD_TEST_SPIRV_DIR
/* The transform shape of a test shader: 1 recognised (*out filled), 0 not, -1 not loaded. */
static int transform_of(xgdt_ctx *t, const char *name, xgdi_sw_spirv_transform *out)
{
    xgdi_sw_spirv_module *m = shape_module(t, name);
    if (m == NULL) return -1;
    int found = xgdi_sw_spirv_match_transform(m, out) ? 1 : 0;
    xgdi_sw_spirv_free(m);
    return found;
}

static uint32_t lcg(uint32_t *s);

/* 1: the executor runs out of steps on the shader's four lanes, 0: it does not, -1: not loaded */
static int executor_exhausts(xgdt_ctx *t, const char *name)
{
    xgdi_sw_spirv_module *m = shape_module(t, name);
    xgdi_sw_spirv_state *st = NULL;
    int out = -1;
    if (m != NULL && xgdi_sw_spirv_state_create(m, &st) == XGD_OK) {
        bool exhausted = false;
        (void)xgdi_sw_spirv_execute(st, 0xf, &exhausted);
        out = exhausted ? 1 : 0;
    }
    xgdi_sw_spirv_state_free(st);
    xgdi_sw_spirv_free(m);
    return out;
}

/* A float's bits for the differential test: mostly ordinary values, often the IEEE cases
   whose results depend on operand order and rounding (NaNs with payloads, infinities,
   signed zeros, subnormals, the largest finite values, numbers whose products overflow). */
static uint32_t test_bits(uint32_t *seed)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u,
        0x7fa00123u, 0xff812345u, 0x00000001u, 0x807fffffu, 0x00400000u, 0x7f7fffffu,
        0xff7fffffu, 0x3f800000u, 0xbf800000u, 0x5f000000u, 0x1f000000u, 0x3f000000u,
    };
    uint32_t k = lcg(seed) % 8;
    if (k == 0) return special[lcg(seed) % (sizeof special / sizeof special[0])];
    float f = ((float)(lcg(seed) % 20001) - 10000.0f) / (float)(1u + lcg(seed) % 997);
    if (k == 1) f *= 1e30f;
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Four lanes with the same bits, a NaN matching any NaN: which operand's payload a NaN
   result carries is not fixed by C (a compiler may swap the operands of a commutative
   operation, in the executor as in the shape), and no rule of the renderer depends on it. */
static bool same_words(const float *a, const float *b)
{
    for (int l = 0; l < 4; l++) {
        if (a[l] != a[l] && b[l] != b[l]) continue;
        if (memcmp(&a[l], &b[l], sizeof a[l]) != 0) return false;
    }
    return true;
}

/* Runs a recognised shader in the executor and as its transform shape on the same inputs and
   uniforms; returns the output words that differ, or -1 when it could not be set up. */
static long transform_differences(xgdt_ctx *t, const char *name, uint32_t seed, long *compared)
{
    xgdi_sw_spirv_module *m = shape_module(t, name);
    xgdi_sw_spirv_state *ref = NULL, *got = NULL;
    xgdi_sw_spirv_transform *shape = malloc(sizeof *shape);
    long bad = -1;
    if (m == NULL) goto done;
    if (shape == NULL || xgdi_sw_spirv_state_create(m, &ref) != XGD_OK ||
        xgdi_sw_spirv_state_create(m, &got) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "%s: out of memory", name);
        goto done;
    }
    if (!xgdi_sw_spirv_match_transform(m, shape)) {
        xgdt_fail_at(t, __FILE__, __LINE__, "%s: not recognised", name);
        goto done;
    }
    const xgdi_sw_spirv_reflection *rf = xgdi_sw_spirv_reflect(m);
    uint32_t uniforms[256];
    bad = 0;
    /* round 0: every uniform bound; round 1: a block shorter than what the shader reads
       (reads past it give 0 in both) */
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 256; i++) uniforms[i] = test_bits(&seed);
        size_t size = round == 0 ? sizeof uniforms : 36;
        xgdi_sw_spirv_bind_uniform(ref, 0, uniforms, size);
        xgdi_sw_spirv_bind_uniform(got, 0, uniforms, size);
        for (int trial = 0; trial < 3000; trial++) {
            for (int i = 0; i < rf->io_count; i++) {
                const xgdi_sw_spirv_io *io = &rf->io[i];
                if (io->output) continue;
                for (int c = 0; c < io->components; c++) {
                    float *a = xgdi_sw_spirv_reg(ref, io->reg, c);
                    float *b = xgdi_sw_spirv_reg(got, io->reg, c);
                    for (int l = 0; l < 4; l++) {
                        uint32_t v = test_bits(&seed);
                        memcpy(&a[l], &v, 4);
                        memcpy(&b[l], &v, 4);
                    }
                }
            }
            xgdi_sw_spirv_execute(ref, 0xf, NULL);
            xgdi_sw_spirv_run_transform(got, shape);
            for (int i = 0; i < rf->io_count; i++) {
                const xgdi_sw_spirv_io *io = &rf->io[i];
                if (!io->output) continue;
                for (int c = 0; c < io->components; c++) {
                    if (!same_words(xgdi_sw_spirv_reg(ref, io->reg, c),
                                    xgdi_sw_spirv_reg(got, io->reg, c))) {
                        if (bad == 0) {
                            uint32_t x[4], y[4];
                            memcpy(x, xgdi_sw_spirv_reg(ref, io->reg, c), 16);
                            memcpy(y, xgdi_sw_spirv_reg(got, io->reg, c), 16);
                            xgdt_fail_at(t, __FILE__, __LINE__,
                                         "%s: output %s component %d: executor %08x %08x %08x "
                                         "%08x, shape %08x %08x %08x %08x", name, io->name, c,
                                         x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]);
                        }
                        bad++;
                    }
                    (*compared)++;
                }
            }
        }
    }
done:
    free(shape);
    xgdi_sw_spirv_state_free(got);
    xgdi_sw_spirv_state_free(ref);
    xgdi_sw_spirv_free(m);
    return bad;
}
#endif

/* Rule: a vertex shader whose Position is a matrix (or dot) product of uniforms, inputs and
   constants from +0 in the executor's order, perhaps plus a uniform times that product's w
   (the shader form's pixel offset), and whose other outputs are inputs, uniforms, constants,
   products of two of them or such a value clamped (saturate), may be computed without the
   executor, and so may a pixel shader whose colours are such values; everything else runs
   in the executor. */
XGD_TEST(SwShapes_TransformRecognised)
{
#ifndef XGD_TEST_SPIRV_DIR
    xgdt_not_supported(t, "glslangValidator not found at configure time");
    return;
#else
    xgdi_sw_spirv_transform *tr = malloc(sizeof *tr);
    if (tr == NULL) return;
    /* SpriteEffect: float4(pos.xyz, 1) * row_major matrix; 4 products a component, the
       fourth input component the constant 1 */
    CHECK_INT(transform_of(t, "spriteeffect", tr), 1);
    for (int r = 0; r < 4; r++) {
        CHECK_INT(tr->terms[r], 4);
        CHECK_INT(tr->fix[r], 0);
    }
    int ones = 0;
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < tr->terms[r]; k++)
            if (tr->leaves[tr->b[r][k]].constant && tr->leaves[tr->b[r][k]].bits == 0x3f800000u)
                ones++;
    CHECK_INT(ones, 4);
    CHECK_INT((int)tr->output_count, 6); /* colour 4, uv 2: copies */
    for (uint32_t i = 0; i < tr->output_count; i++) CHECK_INT(tr->outputs[i].form, 0);
    /* the shader form's version: the pixel offset times w after the product */
    CHECK_INT(transform_of(t, "spriteoffset", tr), 1);
    for (int r = 0; r < 4; r++) CHECK_INT(tr->fix[r] & 1, 1);
    CHECK_INT(transform_of(t, "transform", tr), 1);
    /* BasicEffect's unlit vertex colour: a clamped product and a constant output */
    CHECK_INT(transform_of(t, "basiccolor", tr), 1);
    int clamped = 0;
    for (uint32_t i = 0; i < tr->output_count; i++)
        if (tr->outputs[i].form == 3) clamped++;
    CHECK_INT(clamped, 4);
    /* pixel shaders of the form: the colour passed on, a saturated tint */
    CHECK_INT(transform_of(t, "passthrough", tr), 1);
    CHECK_INT(tr->has_position, 0);
    CHECK_INT((int)tr->output_count, 4);
    CHECK_INT(transform_of(t, "tint", tr), 1);
    CHECK_INT(tr->outputs[0].form, 3);
    /* more than the shape: lighting (dot, max), a sum with an input, a matrix picked per
       vertex, a loop over bones; a pixel shader that samples, one that reads FragCoord, one
       that discards */
    CHECK_INT(transform_of(t, "lit", tr), 0);
    CHECK_INT(transform_of(t, "offsetin", tr), 0);
    CHECK_INT(transform_of(t, "dynindex", tr), 0);
    CHECK_INT(transform_of(t, "skin", tr), 0);
    CHECK_INT(transform_of(t, "spritebatch", tr), 0);
    CHECK_INT(transform_of(t, "builtins", tr), 0);
    CHECK_INT(transform_of(t, "discard", tr), 0);
    /* straight-line code the executor runs out of steps on (it then writes no output and
       counts the lanes killed), vertex and pixel; and calls fanning out 16 ways over 7
       levels, which the matcher must give up on quickly rather than re-run */
    CHECK_INT(executor_exhausts(t, "budget"), 1);
    CHECK_INT(transform_of(t, "budget", tr), 0);
    CHECK_INT(transform_of(t, "budgetps", tr), 0);
    CHECK_INT(transform_of(t, "deep", tr), 0);
    free(tr);
#endif
}

/* Every output word of the recognised shaders, computed both ways, over inputs and uniforms
   that include NaNs, infinities, signed zeros and subnormals, and with a uniform block
   shorter than the shader reads: the shape must give the executor's bits. */
XGD_TEST(SwShapes_TransformSameAsExecutor)
{
#ifndef XGD_TEST_SPIRV_DIR
    xgdt_not_supported(t, "glslangValidator not found at configure time");
    return;
#else
    static const char *names[] = { "spriteeffect", "spriteoffset", "transform", "basiccolor",
                                   "passthrough", "tint" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        long compared = 0;
        long bad = transform_differences(t, names[i], 17u + (uint32_t)i, &compared);
        CHECK_MSG(bad == 0, "%s: %ld of %ld output components differ", names[i], bad, compared);
        CHECK_MSG(compared >= 6000 * 4, "%s: only %ld output components compared", names[i],
                  compared);
    }
#endif
}

enum { W = 161, H = 117, TS = 16 };

/* texture times vertex colour with the operands reversed, as a whole effect */
static const char reversed_fx[] =
    "float4x4 MatrixTransform;\n"
    "Texture2D Tex : register(t0);\n"
    "SamplerState Samp : register(s0);\n"
    "struct VSOut { float4 pos : SV_Position; float4 col : COLOR0; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float4 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.pos = mul(pos, MatrixTransform);\n"
    "    o.col = col;\n"
    "    o.uv = uv;\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0 { return i.col * Tex.Sample(Samp, i.uv); }\n"
    "technique T { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                     SetPixelShader(CompileShader(ps_4_0, PS())); } }\n";

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Draws the scenes on a new software device; false when the device or an object could not be
   made (a failure is recorded), *skip when the build cannot compile the HLSL effect. */
static bool draw_scenes(xgdt_ctx *t, bool executor_only, const char *threads, int msaa,
                        uint8_t *px, bool *skip)
{
    if (executor_only) setenv("XGD_SW_EXECUTOR_ONLY", "1", 1);
    setenv("XGD_SW_THREADS", threads, 1);
    setenv("XGD_SW_BAND_MIN_PIXELS", "0", 1);
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, msaa);
    unsetenv("XGD_SW_EXECUTOR_ONLY");
    unsetenv("XGD_SW_THREADS");
    unsetenv("XGD_SW_BAND_MIN_PIXELS");
    if (dev == NULL) return false;
    bool ok = true;
    xgd_sprite_batch *batch = NULL;
    xgd_texture *tex = NULL, *mip = NULL, *t4444 = NULL, *dxt = NULL;
    xgd_effect *fx = NULL, *basic = NULL;
    CHECK_OK(xgd_sprite_batch_create(dev, &batch));
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TS, .height = TS }, &tex));
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 32, .height = 32, .mipmap = true },
                                  &mip));
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TS, .height = TS,
                                  .format = XGD_SURFACE_FORMAT_BGRA4444 }, &t4444));
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TS, .height = TS,
                                  .format = XGD_SURFACE_FORMAT_DXT1 }, &dxt));
    if (batch == NULL || tex == NULL || mip == NULL || t4444 == NULL || dxt == NULL) {
        ok = false;
        goto done;
    }
    static uint8_t data[32 * 32 * 4];
    for (int i = 0; i < TS * TS; i++) {
        data[i * 4 + 0] = (uint8_t)(i * 37);
        data[i * 4 + 1] = (uint8_t)(255 - i * 11);
        data[i * 4 + 2] = (uint8_t)((i % TS) * 16);
        data[i * 4 + 3] = (uint8_t)(i % 3 == 0 ? 255 : 70 + i % 150);
    }
    CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data, TS * TS * 4));
    /* 16-bit texels (decoded to float) and DXT1 blocks (decoded to RGBA8): any bytes are valid */
    CHECK_OK(xgd_texture_set_data(t4444, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data, TS * TS * 2));
    CHECK_OK(xgd_texture_set_data(dxt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data, TS * TS / 2));
    for (int level = 0, s = 32; s >= 1; level++, s /= 2) {
        for (int i = 0; i < s * s; i++) {
            int x = i % s, y = i / s;
            data[i * 4 + 0] = (uint8_t)(x * 255 / s);
            data[i * 4 + 1] = (uint8_t)(((x ^ y) & 1) ? 255 : 50 * level);
            data[i * 4 + 2] = (uint8_t)(y * 255 / s);
            data[i * 4 + 3] = (uint8_t)(120 + (x * 7 + y * 13 + level * 40) % 136);
        }
        CHECK_OK(xgd_texture_set_data(mip, level, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data,
                                      (size_t)s * (size_t)s * 4));
    }
    xgd_result r = xgd_effect_create_hlsl(dev, reversed_fx, strlen(reversed_fx), "reversed.fx", &fx);
    if (r == XGD_ERROR_NOT_SUPPORTED) *skip = true;
    else CHECK_MSG(r == XGD_OK, "xgd_effect_create_hlsl: %s", xgd_device_last_error(dev));
    if (fx != NULL) {
        xgd_matrix m;
        memset(&m, 0, sizeof m);
        m.m[0] = 2.0f / W;
        m.m[5] = -2.0f / H;
        m.m[10] = 1.0f;
        m.m[12] = -1.0f;
        m.m[13] = 1.0f;
        m.m[15] = 1.0f;
        xgd_effect_parameter p = { -1 };
        CHECK_OK(xgd_effect_find_parameter(fx, "MatrixTransform", &p));
        CHECK_OK(xgd_effect_parameter_set_matrix(fx, p, &m));
    }
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 30, 40, 50, 255 }));
    static const xgd_sampler_preset samplers[4] = {
        XGD_SAMPLER_PRESET_LINEAR_CLAMP, XGD_SAMPLER_PRESET_POINT_WRAP,
        XGD_SAMPLER_PRESET_LINEAR_WRAP, XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP
    };
    /* pass 6: a perspective transform, so the sprites' vertices have different w */
    xgd_matrix persp;
    memset(&persp, 0, sizeof persp);
    persp.m[0] = persp.m[5] = persp.m[10] = persp.m[15] = 1.0f;
    persp.m[3] = 0.0015f;
    persp.m[7] = 0.002f;
    uint32_t seed = 5;
    for (int pass = 0; pass < 10 && ok; pass++) {
        xgd_sprite_batch_begin_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.sampler_state = xgd_sampler_state_preset(dev, samplers[pass % 4]);
        bd.effect = pass == 4 ? fx : NULL;
        if (pass == 4 && fx == NULL) continue;
        /* blend states the row path leaves to the quad path (the opaque one early, so later
           passes blend over it) */
        if (pass == 5) bd.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
        if (pass == 7)
            bd.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_NON_PREMULTIPLIED);
        if (pass == 9) bd.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
        if (pass == 6) bd.transform = &persp;
        CHECK_OK(xgd_sprite_batch_begin(batch, &bd));
        for (int i = 0; i < 60; i++) {
            xgd_sprite s = XGD_SPRITE_INIT;
            s.position.x = (float)(lcg(&seed) % (W + 20)) - 10.0f;
            s.position.y = (float)(lcg(&seed) % (H + 20)) - 10.0f;
            s.color = (xgd_color){ (uint8_t)lcg(&seed), (uint8_t)lcg(&seed), (uint8_t)lcg(&seed),
                                   (uint8_t)(60 + lcg(&seed) % 196) };
            xgd_texture *which = pass == 8 ? t4444 : pass == 6 || pass == 1 ? dxt : tex;
            if (i % 3 == 1) {
                /* rotated, scaled, fractional: bilinear weights and clipped edges */
                s.position.x += (float)(lcg(&seed) % 100) / 100.0f;
                s.position.y += (float)(lcg(&seed) % 100) / 100.0f;
                s.rotation = (float)(lcg(&seed) % 628) / 100.0f;
                s.scale.x = s.scale.y = 0.6f + (float)(lcg(&seed) % 200) / 100.0f;
                s.origin = (xgd_vector2){ 8.0f, 8.0f };
            } else if (i % 3 == 2) {
                /* the mipmapped texture minified: levels from the quad's derivatives */
                which = mip;
                s.scale.x = 0.2f + (float)(lcg(&seed) % 60) / 100.0f;
                s.scale.y = 0.15f + (float)(lcg(&seed) % 90) / 100.0f;
                s.rotation = (float)(lcg(&seed) % 100) / 100.0f;
            }
            CHECK_OK(xgd_sprite_batch_draw(batch, which, &s));
        }
        CHECK_OK(xgd_sprite_batch_end(batch));
    }
    /* BasicEffect's unlit vertex colour (the transform shape: the vertex shader's with a
       clamp, the pixel shader's a copy): a diffuse colour above 1 so that saturate clips
       channels, triangles of random colours and positions, alpha blended */
    if (ok) {
        CHECK_OK(xgd_basic_effect_create(dev, &basic));
        xgd_basic_effect_params bp;
        if (basic != NULL && xgd_basic_effect_get(basic, &bp) == XGD_OK) {
            bp.vertex_color_enabled = true;
            bp.diffuse_color = (xgd_vector3){ 1.6f, 0.7f, 2.5f };
            bp.alpha = 0.8f;
            bp.projection = xgd_matrix_create_orthographic_off_center(0, W, H, 0, 0, 1);
            CHECK_OK(xgd_basic_effect_set(basic, &bp));
            CHECK_OK(xgd_set_blend_state(dev,
                                         xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND)));
            CHECK_OK(xgd_effect_apply(basic));
            xgd_vertex_position_color tri[24];
            for (int i = 0; i < 24; i++) {
                tri[i].position = (xgd_vector3){ (float)(lcg(&seed) % (W * 4)) / 3.7f - 10.0f,
                                                 (float)(lcg(&seed) % (H * 4)) / 3.3f - 10.0f, 0.0f };
                tri[i].color = (xgd_color){ (uint8_t)lcg(&seed), (uint8_t)lcg(&seed),
                                            (uint8_t)lcg(&seed), (uint8_t)(90 + lcg(&seed) % 166) };
            }
            CHECK_OK(xgd_set_rasterizer_state(
                dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 8,
                xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
        }
    }
    CHECK_OK(xgd_get_back_buffer_data(dev, NULL, px, (size_t)W * H * 4));
done:
    xgd_effect_destroy(basic);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(dxt);
    xgd_texture_destroy(t4444);
    xgd_texture_destroy(mip);
    xgd_texture_destroy(tex);
    xgd_sprite_batch_destroy(batch);
    xgd_device_destroy(dev);
    return ok;
}

static void compare(xgdt_ctx *t, int msaa)
{
    static uint8_t ref[W * H * 4], got[W * H * 4];
    static const char *threads[2] = { "1", "3" };
    bool skip = false;
    memset(ref, 0, sizeof ref);
    if (!draw_scenes(t, true, "1", msaa, ref, &skip)) return;
    /* the scene is not trivial: most pixels differ from the clear colour */
    int drawn = 0;
    for (int i = 0; i < W * H; i++)
        if (ref[i * 4] != 30 || ref[i * 4 + 1] != 40 || ref[i * 4 + 2] != 50) drawn++;
    CHECK_MSG(drawn > W * H / 2, "only %d of %d pixels drawn", drawn, W * H);
    for (int k = 0; k < 2; k++) {
        memset(got, 0, sizeof got);
        if (!draw_scenes(t, false, threads[k], msaa, got, &skip)) return;
        int bad = 0, first = -1;
        for (int i = 0; i < W * H * 4; i++)
            if (got[i] != ref[i]) {
                if (first < 0) first = i / 4;
                bad++;
            }
        CHECK_MSG(bad == 0, "msaa %d, %s threads: %d bytes differ from the executor's (first at %d,%d)",
                  msaa, threads[k], bad, first % W, first / W);
    }
    /* without a run-time HLSL compiler (skip) the stock SpriteEffect scenes were still
       compared; only the reversed-operand effect is missing */
    (void)skip;
}

XGD_TEST(SwShapes_SameImageAsExecutor)
{
    compare(t, 0);
}

XGD_TEST(SwShapes_SameImageAsExecutorMsaa)
{
    compare(t, 4);
}

/* the encoding rule of a Color channel, written out */
static uint8_t rule_unorm8(float v)
{
    if (v != v || v <= 0.0f) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(int)(v * 255.0f + 0.5f);
}

XGD_TEST(SwSimd_Unorm8)
{
    int bad = 0;
    for (int b = 0; b < 256; b++) {
        uint8_t px[4] = { (uint8_t)b, (uint8_t)(255 - b), (uint8_t)(b * 7), (uint8_t)(b * 13) };
        float got[4];
        sw_v4_store(got, sw_v4_unorm8(px));
        for (int k = 0; k < 4; k++)
            if (got[k] != (float)px[k] / 255.0f) bad++;
    }
    CHECK_MSG(bad == 0, "%d decoded bytes differ from b / 255", bad);
    /* every byte's value and its neighbours (the rounding boundaries), and the clamps */
    float vals[256 * 3 + 8];
    int n = 0;
    for (int b = 0; b < 256; b++) {
        float c = ((float)b + 0.5f) / 255.0f;
        vals[n++] = c;
        vals[n++] = nextafterf(c, 0.0f);
        vals[n++] = nextafterf(c, 2.0f);
    }
    vals[n++] = -0.0f;
    vals[n++] = -1.0f;
    vals[n++] = 1.0f;
    vals[n++] = 1.5f;
    vals[n++] = nextafterf(1.0f, 0.0f);
    vals[n++] = (float)INFINITY;
    vals[n++] = -(float)INFINITY;
    vals[n++] = (float)NAN;
    bad = 0;
    for (int i = 0; i + 4 <= n; i++) {
        uint8_t out[4];
        sw_v4_store_unorm8(out, sw_v4_load(&vals[i]));
        for (int k = 0; k < 4; k++)
            if (out[k] != rule_unorm8(vals[i + k])) bad++;
    }
    CHECK_MSG(bad == 0, "%d encoded values differ from the rule", bad);
}

/* the float form of the row path's AlphaBlend for one channel: s, sa, d bytes, f the factor */
static uint8_t blend_float_form(int s, int sa, int d, float f)
{
    float s3 = (float)sa / 255.0f * f, sv = (float)s / 255.0f * f;
    s3 = s3 > 0.0f ? (s3 < 1.0f ? s3 : 1.0f) : 0.0f;
    sv = sv > 0.0f ? (sv < 1.0f ? sv : 1.0f) : 0.0f;
    return rule_unorm8(sv + (float)d / 255.0f * (1.0f - s3));
}

XGD_TEST(SwSimd_BlendWhite)
{
#if !SW_SIMD
    xgdt_not_supported(t, "built without SSE2: the row path has no integer form");
#else
    /* the float form gives the same byte for the factors 1 and 1, 4 and 32 ulps either side */
    float f[6];
    for (int k = 0, n = 0; k < 3; k++) {
        static const int ulps[3] = { 1, 4, 32 };
        float lo = 1.0f, hi = 1.0f;
        for (int i = 0; i < ulps[k]; i++) {
            lo = nextafterf(lo, 0.0f);
            hi = nextafterf(hi, 2.0f);
        }
        f[n++] = lo;
        f[n++] = hi;
    }
    long moved = 0;
    for (int sa = 0; sa < 256; sa++)
        for (int d = 0; d < 256; d++)
            for (int s = 0; s < 256; s++) {
                const uint8_t one = blend_float_form(s, sa, d, 1.0f);
                for (int k = 0; k < 6; k++)
                    if (blend_float_form(s, sa, d, f[k]) != one && moved++ < 4)
                        xgdt_fail_at(t, __FILE__, __LINE__, "s %d, sa %d, d %d: factor %.9g "
                                     "gives %u, 1 gives %u", s, sa, d, (double)f[k],
                                     blend_float_form(s, sa, d, f[k]), one);
            }
    CHECK_MSG(moved == 0, "%ld blends move with the factor", moved);
    /* and the integer form gives that byte: every triple, four pixels a call (channel 0 takes
       every byte over the four, alpha sa, the target all d) */
    long bad = 0;
    for (int sa = 0; sa < 256; sa++) {
        for (int d = 0; d < 256; d++) {
            for (int b = 0; b < 64; b++) {
                uint8_t tex[16], dst[16], got[16];
                for (int p = 0; p < 4; p++) {
                    const int v = b + 64 * p;
                    tex[p * 4 + 0] = (uint8_t)v;
                    tex[p * 4 + 1] = (uint8_t)(255 - v);
                    tex[p * 4 + 2] = (uint8_t)(v * 7);
                    tex[p * 4 + 3] = (uint8_t)sa;
                }
                memset(dst, d, sizeof dst);
                __m128i out = sw_blend4_white(_mm_loadu_si128((const __m128i *)(const void *)tex),
                                              _mm_loadu_si128((const __m128i *)(const void *)dst));
                _mm_storeu_si128((__m128i *)(void *)got, out);
                for (int i = 0; i < 16; i++) {
                    const uint8_t want = blend_float_form(tex[i], sa, d, 1.0f);
                    if (got[i] != want && bad++ < 4)
                        xgdt_fail_at(t, __FILE__, __LINE__, "s %u, sa %d, d %d: %u, the float "
                                     "form %u", tex[i], sa, d, got[i], want);
                }
            }
        }
    }
    CHECK_MSG(bad == 0, "%ld blends differ from the float form", bad);
#endif
}
