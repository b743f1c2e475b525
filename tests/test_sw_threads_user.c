/*
 * test_sw_threads_user.c - user effects (shaders run by the software renderer's SPIR-V
 * executor) draw the same pixels and count the same occlusion samples whatever the number of
 * threads the software renderer rasterizes with ($XGD_SW_THREADS, read when a device is
 * created).
 *
 * Rule: a user pixel shader runs per aligned 2x2 quad (helper lanes included, so derivatives and
 * implicit-LOD sampling see the whole quad), then depth/stencil and blending follow per covered
 * sample in submission order. Banded rasterization must keep each quad whole in one band, give
 * each thread its own executor state (registers, constants, samplers) and visit every band's
 * triangles in order; a quad split across bands, a register file shared between threads, a
 * thread without the draw's constants or samplers, or rows drawn out of order change bytes, and
 * a lost or doubled band count changes a query's result.
 *
 * The scene, per frame: a clear, then inside an occlusion query hundreds of overlapping random
 * triangles through the effect (alpha blending, depth test and write, a mipmapped texture
 * sampled with linear filters at implicit LOD, vertex colours, a discard of faint pixels; some
 * cross the near plane, so clipping makes vertices), and a second draw of the same vertices as a
 * strip with additive blending, depth read and two-sided stencil. Two effects run it: an fx_2_0
 * effect (D3D assembly through the project's writer and MojoShader) and an HLSL source effect
 * whose pixel shader also branches per lane and takes derivatives. A one-thread device's image
 * and counts must equal those of 3- and 5-thread devices byte for byte (every draw banded:
 * $XGD_SW_BAND_MIN_PIXELS=0), single-sampled and 4x multisampled, and the scene must not be
 * trivial.
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fixture_util.h"
#include "fx2_support.h"
#ifdef XGD_TEST_HAVE_MOJOSHADER
#include "fx_writer.h"
#endif

#include <stdlib.h>
#include <string.h>

enum { W = 203, H = 137, TRIS = 500, FRAMES = 2, TS = 32 };

typedef enum effect_kind { EFFECT_FX, EFFECT_HLSL } effect_kind;

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float frand(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(lcg(s) & 0xffff) / 65535.0f;
}

typedef struct scene_out {
    uint8_t px[W * H * 4];
    uint64_t counts[FRAMES * 2];
} scene_out;

static const char hlsl_src[] =
    "float4x4 WorldViewProj;\n"
    "float4 Tint;\n"
    "float Cut;\n"
    "Texture2D Tex : register(t0);\n"
    "SamplerState Samp : register(s0);\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float4 col : COLOR0; };\n"
    "VSOut VS(float3 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.pos = mul(float4(pos, 1), WorldViewProj);\n"
    "    o.uv = uv;\n"
    "    o.col = col;\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0\n"
    "{\n"
    "    float4 c = Tex.Sample(Samp, i.uv) * Tint * i.col;\n"
    "    clip(c.a - Cut);\n"
    "    float l = 0;\n"
    "    for (int k = 0; k < 3; k++)\n"
    "        if (c[k] > 0.4) l += c[k] * 0.25;\n"
    "    c.rgb += l + abs(ddx(i.uv.x)) + abs(ddy(i.uv.y));\n"
    "    return c;\n"
    "}\n"
    "technique T { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                     SetPixelShader(CompileShader(ps_4_0, PS())); } }\n";

/* The effect of `kind` with Tint = (1, 0.9, 0.8, 1) and Cut = 0.3; NULL when this build cannot
   make it (*skip set) or on failure. */
static xgd_effect *make_effect(xgdt_ctx *t, xgd_device *dev, effect_kind kind, bool *skip)
{
    xgd_effect *e = NULL;
    *skip = false;
    if (kind == EFFECT_HLSL) {
        xgd_result r = xgd_effect_create_hlsl(dev, hlsl_src, strlen(hlsl_src), "threads.fx", &e);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            *skip = true;
            return NULL;
        }
        CHECK_MSG(r == XGD_OK, "xgd_effect_create_hlsl: %s", xgd_device_last_error(dev));
        if (e == NULL) return NULL;
        xgd_effect_parameter p = { -1 };
        xgd_matrix m;
        memset(&m, 0, sizeof m);
        m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1;
        CHECK_OK(xgd_effect_find_parameter(e, "WorldViewProj", &p));
        CHECK_OK(xgd_effect_parameter_set_matrix(e, p, &m));
    } else {
#ifdef XGD_TEST_HAVE_MOJOSHADER
        if (!xgdt_fx2_available(t, dev)) {
            *skip = true;
            return NULL;
        }
        fxw *w = fxw_create();
        float tint[4] = { 0 }, cut[1] = { 0 };
        fxw_param(w, "Tint", NULL, FXW_VECTOR, FXW_FLOAT, 1, 4, 0, tint);
        fxw_param(w, "Cut", NULL, FXW_SCALAR, FXW_FLOAT, 1, 1, 0, cut);
        /* linear filters, mips linear, wrap (D3DTEXF_LINEAR = 2, D3DTADDRESS_WRAP = 1) */
        const fxw_state samp[5] = { { FXW_SAMP_MINFILTER, 2 }, { FXW_SAMP_MAGFILTER, 2 },
                                    { FXW_SAMP_MIPFILTER, 2 }, { FXW_SAMP_ADDRESSU, 1 },
                                    { FXW_SAMP_ADDRESSV, 1 } };
        fxw_sampler_param(w, "TexSampler", FXW_SAMPLER2D, -1, samp, 5);
        int tech = fxw_technique(w, "T");
        int pass = fxw_pass(w, tech, "P0");
        static const char vs[] = "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\n"
                                 "mov oPos, v0\nmov oD0, v1\nmov oT0, v2\n";
        static const char ps[] = "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\n"
                                 "mul r0, r0, v0\nmul r0, r0, c0\nsub r1, r0.w, c1.x\ntexkill r1\n"
                                 "mov oC0, r0\n";
        fxw_symbol syms[3] = { { "Tint", 2, 0, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 },
                               { "Cut", 2, 1, 1, FXW_SCALAR, FXW_FLOAT, 1, 1, 0 },
                               { "TexSampler", 3, 0, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 } };
        char err[256] = "";
        bool ok = fxw_shader(w, tech, pass, true, vs, NULL, 0, err, sizeof err) &&
                  fxw_shader(w, tech, pass, false, ps, syms, 3, err, sizeof err);
        CHECK_MSG(ok, "fx writer: %s", err);
        size_t n = 0;
        uint8_t *bytes = ok ? fxw_finish(w, false, &n) : NULL;
        fxw_destroy(w);
        if (bytes == NULL) return NULL;
        CHECK_OK(xgd_effect_create(dev, bytes, n, &e));
        free(bytes);
        if (e == NULL) return NULL;
#else
        (void)t;
        *skip = true;
        return NULL;
#endif
    }
    xgd_effect_parameter tint = { -1 }, cut = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, "Tint", &tint));
    CHECK_OK(xgd_effect_find_parameter(e, "Cut", &cut));
    CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, (xgd_vector4){ 1.0f, 0.9f, 0.8f, 1.0f }));
    CHECK_OK(xgd_effect_parameter_set_float(e, cut, 0.3f));
    return e;
}

static xgd_vertex_position_color_texture vertex(uint32_t *seed, float px, float py)
{
    xgd_vertex_position_color_texture v;
    v.position.x = fx_ndc_x(px, W);
    v.position.y = fx_ndc_y(py, H);
    v.position.z = frand(seed, -0.2f, 1.0f);
    v.color = (xgd_color){ (uint8_t)lcg(seed), (uint8_t)lcg(seed), (uint8_t)lcg(seed),
                           (uint8_t)(90 + lcg(seed) % 166) };
    v.texture_coordinate.x = frand(seed, -1.0f, 3.0f);
    v.texture_coordinate.y = frand(seed, -1.0f, 3.0f);
    return v;
}

/* Draws the scene on a new device rasterizing with `threads` threads; false with *skip set
   when the build cannot make the effect. */
static bool draw_scene(xgdt_ctx *t, effect_kind kind, const char *threads, int msaa,
                       scene_out *out, bool *skip)
{
    setenv("XGD_SW_THREADS", threads, 1);
    setenv("XGD_SW_BAND_MIN_PIXELS", "0", 1);
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, msaa);
    unsetenv("XGD_SW_THREADS");
    unsetenv("XGD_SW_BAND_MIN_PIXELS");
    if (dev == NULL) return false;
    bool ok = true;
    xgd_effect *fx = make_effect(t, dev, kind, skip);
    xgd_rasterizer_state *cull = fx_cull_none(t, dev);
    xgd_occlusion_query *q = NULL;
    CHECK_INT(xgd_occlusion_query_create(dev, &q), XGD_OK);
    xgd_depth_stencil_desc sd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    sd.depth_buffer_write_enable = false;
    sd.depth_function = XGD_COMPARE_LESS;
    sd.stencil_enable = true;
    sd.stencil_function = XGD_COMPARE_ALWAYS;
    sd.stencil_pass = XGD_STENCIL_OP_INCREMENT;
    sd.stencil_depth_fail = XGD_STENCIL_OP_INVERT;
    sd.two_sided_stencil = true;
    sd.ccw_stencil_function = XGD_COMPARE_LESS_EQUAL;
    sd.reference_stencil = 2;
    sd.ccw_stencil_pass = XGD_STENCIL_OP_DECREMENT_SATURATION;
    xgd_depth_stencil_state *stencil = fx_depth(t, dev, &sd);
    /* a mipmapped texture whose levels differ, so the level each quad selects shows */
    xgd_texture *tex = NULL;
    CHECK_INT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TS, .height = TS, .mipmap = true },
                                   &tex),
              XGD_OK);
    for (int level = 0, s = TS; tex != NULL && s >= 1; level++, s /= 2) {
        static uint8_t px[TS * TS * 4];
        for (int i = 0; i < s * s; i++) {
            int x = i % s, y = i / s;
            px[i * 4 + 0] = (uint8_t)(x * 255 / s);
            px[i * 4 + 1] = (uint8_t)(((x ^ y) & 1) ? 255 : 40 * level);
            px[i * 4 + 2] = (uint8_t)(y * 255 / s);
            px[i * 4 + 3] = (uint8_t)(60 + (x * 7 + y * 13 + level * 50) % 196);
        }
        CHECK_INT(xgd_texture_set_data(tex, level, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px,
                                       (size_t)s * (size_t)s * 4),
                  XGD_OK);
    }
    if (fx == NULL || cull == NULL || q == NULL || stencil == NULL || tex == NULL) {
        ok = false;
        goto done;
    }
    xgd_effect_parameter texp = { -1 };
    if (kind == EFFECT_HLSL) {
        CHECK_OK(xgd_effect_find_parameter(fx, "Tex", &texp));
        CHECK_OK(xgd_effect_parameter_set_texture(fx, texp, tex));
    }
    static xgd_vertex_position_color_texture v[TRIS * 3];
    uint32_t seed = 11;
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    for (int f = 0; f < FRAMES && ok; f++) {
        CHECK_INT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                            (xgd_vector4){ 0.1f, 0.15f, 0.2f, 1.0f }, 1.0f, 0), XGD_OK);
        for (int i = 0; i < TRIS * 3; i++) {
            float x = frand(&seed, -30.0f, W + 30.0f), y = frand(&seed, -30.0f, H + 30.0f);
            if (i % 3 != 0) {
                /* near the triangle's first vertex: triangles of all sizes and slopes */
                const xgd_vertex_position_color_texture *a = &v[i - (i % 3)];
                x = (a->position.x + 1.0f) * W / 2.0f + frand(&seed, -45.0f, 45.0f);
                y = (1.0f - a->position.y) * H / 2.0f + frand(&seed, -45.0f, 45.0f);
            }
            v[i] = vertex(&seed, x, y);
        }
        xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND));
        xgd_set_depth_stencil_state(dev,
                                    xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT));
        xgd_set_rasterizer_state(dev, cull);
        CHECK_OK(xgd_set_texture(dev, 0, tex));
        xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP));
        CHECK_OK(xgd_effect_pass_apply(fx, 0, 0));
        xgd_set_rasterizer_state(dev, cull);
        CHECK_INT(xgd_occlusion_query_begin(q), XGD_OK);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, TRIS, decl));
        CHECK_INT(xgd_occlusion_query_end(q), XGD_OK);
        CHECK_INT(xgd_occlusion_query_get_pixel_count(q, true, &out->counts[f * 2]), XGD_OK);
        xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE));
        xgd_set_depth_stencil_state(dev, stencil);
        CHECK_INT(xgd_occlusion_query_begin(q), XGD_OK);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, TRIS - 2, decl));
        CHECK_INT(xgd_occlusion_query_end(q), XGD_OK);
        CHECK_INT(xgd_occlusion_query_get_pixel_count(q, true, &out->counts[f * 2 + 1]), XGD_OK);
        CHECK_INT(xgd_present(dev), XGD_OK);
    }
    CHECK_INT(xgd_get_back_buffer_data(dev, NULL, out->px, sizeof out->px), XGD_OK);
done:
    xgd_texture_destroy(tex);
    xgd_depth_stencil_state_destroy(stencil);
    xgd_occlusion_query_destroy(q);
    xgd_rasterizer_state_destroy(cull);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    return ok && t->failures == 0;
}

static int distinct_colors(const uint8_t *px)
{
    /* distinct values of a 12-bit hash of each pixel: a lower bound on the colours */
    static bool seen[4096];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        uint32_t h = ((uint32_t)px[i * 4] * 31u + px[i * 4 + 1]) * 31u + px[i * 4 + 2];
        h = (h ^ (h >> 12)) & 4095u;
        if (!seen[h]) {
            seen[h] = true;
            n++;
        }
    }
    return n;
}

static void compare_threads(xgdt_ctx *t, effect_kind kind, int msaa)
{
    static scene_out one, many;
    bool skip = false;
    if (!draw_scene(t, kind, "1", msaa, &one, &skip)) {
        if (skip && t->failures == 0)
            xgdt_not_supported(t, kind == EFFECT_HLSL ? "this build compiles no HLSL effects"
                                                      : "this build has no MojoShader (fx_2_0)");
        return;
    }
    for (int k = 0; k < FRAMES * 2; k++) CHECK_MSG(one.counts[k] > 0, "query %d counted nothing", k);
    CHECK_MSG(distinct_colors(one.px) > 500, "the scene is too plain (%d colours)",
              distinct_colors(one.px));
    const char *counts[] = { "3", "5" };
    for (int n = 0; n < 2; n++) {
        if (!draw_scene(t, kind, counts[n], msaa, &many, &skip)) return;
        for (int k = 0; k < FRAMES * 2; k++)
            CHECK_MSG(many.counts[k] == one.counts[k],
                      "msaa %d, %s threads: query %d counted %llu samples, one thread %llu", msaa,
                      counts[n], k,
                      (unsigned long long)many.counts[k], (unsigned long long)one.counts[k]);
        int bad = 0, first = -1;
        for (int i = 0; i < W * H * 4; i++)
            if (many.px[i] != one.px[i]) {
                if (first < 0) first = i / 4;
                bad++;
            }
        CHECK_MSG(bad == 0, "msaa %d, %s threads: %d bytes differ from one thread (first at %d,%d)",
                  msaa, counts[n], bad, first % W, first / W);
    }
}

XGD_TEST(SoftwareThreads_SameImageUserFx)
{
    compare_threads(t, EFFECT_FX, 0);
}

XGD_TEST(SoftwareThreads_SameImageUserHlsl)
{
    compare_threads(t, EFFECT_HLSL, 0);
}

XGD_TEST(SoftwareThreads_SameImageUserHlslMsaa)
{
    compare_threads(t, EFFECT_HLSL, 4);
}
