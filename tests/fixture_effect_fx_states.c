/*
 * Render states an fx_2_0 pass sets beyond blend, depth, cull, fill and scissor, applied as XNA
 * applies an effect pass (on top of the device's states): stencil (enable, function, pass
 * operation, reference, masks) and ColorWriteEnable. Expected pixels follow from the states'
 * rules.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_MOJOSHADER
#define MOJOSHADER_EFFECT_SUPPORT /* the render state numbering of mojoshader_effects.h */
#include <mojoshader/mojoshader.h>
#include <mojoshader/mojoshader_effects.h>

/* Technique 0 "Mark": stencil always passes and replaces with 5, colour writes off (the target
 * keeps its colour). Technique 1 "Test": stencil passes where it equals 5 (mask 0x0F), colour =
 * the constant c0 = green, writing red, green and blue only. */
static uint8_t *states_effect(xgdt_ctx *t, size_t *n)
{
    char err[256] = "";
    fxw *w = fxw_create();
    static const char vs[] = "vs_2_0\ndcl_position v0\nmov oPos, v0\n";
    static const char ps[] = "ps_2_0\ndef c0, 0, 1, 0, 0.5\nmov oC0, c0\n";
    int mark = fxw_technique(w, "Mark");
    int p0 = fxw_pass(w, mark, "P0");
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_CULLMODE, MOJOSHADER_CULL_NONE);
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_STENCILENABLE, 1);
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_STENCILFUNC, MOJOSHADER_CMP_ALWAYS);
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_STENCILPASS, MOJOSHADER_STENCILOP_REPLACE);
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_STENCILREF, 5);
    fxw_render_state(w, mark, p0, MOJOSHADER_RS_COLORWRITEENABLE, 0);
    int test = fxw_technique(w, "Test");
    int p1 = fxw_pass(w, test, "P0");
    fxw_render_state(w, test, p1, MOJOSHADER_RS_CULLMODE, MOJOSHADER_CULL_NONE);
    fxw_render_state(w, test, p1, MOJOSHADER_RS_STENCILENABLE, 1);
    fxw_render_state(w, test, p1, MOJOSHADER_RS_STENCILFUNC, MOJOSHADER_CMP_EQUAL);
    fxw_render_state(w, test, p1, MOJOSHADER_RS_STENCILPASS, MOJOSHADER_STENCILOP_KEEP);
    fxw_render_state(w, test, p1, MOJOSHADER_RS_STENCILREF, 0x25); /* 0x25 & 0x0F == 5 */
    fxw_render_state(w, test, p1, MOJOSHADER_RS_STENCILMASK, 0x0F);
    fxw_render_state(w, test, p1, MOJOSHADER_RS_COLORWRITEENABLE, 7);
    bool ok = fxw_shader(w, mark, p0, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, mark, p0, false, ps, NULL, 0, err, sizeof err) &&
              fxw_shader(w, test, p1, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, test, p1, false, ps, NULL, 0, err, sizeof err);
    uint8_t *b = ok ? fxw_finish(w, false, n) : NULL;
    fxw_destroy(w);
    CHECK_MSG(b != NULL, "fx writer: %s", err);
    return b;
}
#else
/* (never reached: an xgd without MojoShader loads no fx_2_0, so the fixture skips first) */
static uint8_t *states_effect(xgdt_ctx *t, size_t *n)
{
    (void)n;
    xgdt_fail_at(t, __FILE__, __LINE__, "the fx writer needs MojoShader");
    return NULL;
}
#endif

/* Clear to (40, 40, 40, 200), stencil 0. "Mark" draws the left half (stencil 5, colour
 * unchanged); "Test" draws the whole target: the left half turns green with the cleared alpha
 * (alpha not written), the right half (stencil 0 != 5) keeps the clear colour. */
XGD_FIXTURE(effect_fx_stencil_and_color_write_states)
{
    const int W = 16, H = 8;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    size_t n = 0;
    uint8_t *b = states_effect(t, &n);
    REQUIRE(b != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, b, n, &e));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                       (xgd_vector4){ 40 / 255.0f, 40 / 255.0f, 40 / 255.0f, 200 / 255.0f }, 1.0f, 0));
    xgd_result r = xgd_effect_pass_apply(e, 0, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
    } else {
        CHECK_MSG(r == XGD_OK, "apply: %s", xgd_device_last_error(dev));
        const xgd_color c = { 255, 255, 255, 255 };
        xgd_vertex_position_color left[6] = { { { -1, 1, 0 }, c }, { { 0, 1, 0 }, c }, { { 0, -1, 0 }, c },
                                              { { -1, 1, 0 }, c }, { { 0, -1, 0 }, c }, { { -1, -1, 0 }, c } };
        xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, left, 0, 2, decl));
        CHECK_OK(xgd_effect_pass_apply(e, 1, 0));
        xgd_vertex_position_color all[6] = { { { -1, 1, 0 }, c }, { { 1, 1, 0 }, c }, { { 1, -1, 0 }, c },
                                             { { -1, 1, 0 }, c }, { { 1, -1, 0 }, c }, { { -1, -1, 0 }, c } };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, all, 0, 2, decl));
        uint8_t *img = fx_image(W, H, (xgd_color){ 40, 40, 40, 200 });
        fx_fill(img, W, H, 0, 0, W / 2, H, (xgd_color){ 0, 255, 0, 200 });
        fx_expect_back_buffer(t, dev, "effect_fx_stencil_and_color_write_states", img, W, H, 1);
        free(img);
    }
    xgd_effect_destroy(e);
    free(b);
    xgd_device_destroy(dev);
}

