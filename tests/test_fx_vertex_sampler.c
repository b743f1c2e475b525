/*
 * test_fx_vertex_sampler.c - an fx_2_0 effect whose vertex shader samples a texture is refused
 * at load by name.
 *
 * Rule: xgd runs fx_2_0 shaders through MojoShader's SPIR-V back end, which asserts on a
 * sampler in a vertex shader; the shader walk refuses such a shader first, so
 * xgd_effect_create answers NOT_SUPPORTED naming vertex textures, creates no effect and does
 * not abort. (HLSL effects sample vertex textures: fixture hlsl_vertex_texture_height_map.)
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

XGD_TEST(EffectFx_VertexSamplerRefusedByName)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    fxw *w = fxw_create();
    int tex = fxw_texture_param(w, "Height", FXW_TEXTURE2D);
    fxw_sampler_param(w, "HeightSampler", FXW_SAMPLER2D, tex, NULL, 0);
    int tech = fxw_technique(w, "T");
    int pass = fxw_pass(w, tech, "P0");
    /* vs_3_0: position displaced by texldl of s0 */
    static const char vs[] = "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\n"
                             "dcl_2d s0\ntexldl r0, v1, s0\nadd o0, v0, r0\n";
    static const char ps[] = "ps_3_0\ndef c0, 1, 1, 1, 1\nmov oC0, c0\n";
    fxw_symbol sym = { "HeightSampler", 3, 0, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 };
    char err[256] = "";
    bool ok = fxw_shader(w, tech, pass, true, vs, &sym, 1, err, sizeof err) &&
              fxw_shader(w, tech, pass, false, ps, NULL, 0, err, sizeof err);
    CHECK_MSG(ok, "fx writer: %s", err);
    size_t n = 0;
    uint8_t *bytes = ok ? fxw_finish(w, false, &n) : NULL;
    fxw_destroy(w);
    REQUIRE(bytes != NULL);
    xgd_effect *e = (xgd_effect *)&e; /* not NULL: a refusal must clear it */
    CHECK_RESULT(xgd_effect_create(dev, bytes, n, &e), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(e == NULL, "a refused effect was returned");
    const char *msg = xgd_device_last_error(dev);
    CHECK_MSG(strstr(msg, "vertex") != NULL && strstr(msg, "texture") != NULL,
              "the refusal does not name vertex textures: %s", msg);
    free(bytes);
    xgd_device_destroy(dev);
}
