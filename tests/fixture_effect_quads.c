/*
 * Effects loaded from bytes, the pixel stage's quad rules: derivatives are differences across
 * each 2x2 quad (helper lanes outside the primitive included), texkill discards a pixel, and
 * pixel outputs COLORi reach render target i. Expected images follow from the shaders' maths
 * and the pixel centres, never from a renderer.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

/* A pass-through vertex shader (position and TEXCOORD0 unchanged) with pixel shader `ps`. */
static xgd_effect *quad_effect(xgdt_ctx *t, xgd_device *dev, const char *ps)
{
    char err[256] = "";
    fxw *w = fxw_create();
    int tech = fxw_technique(w, "Main");
    int pass = fxw_pass(w, tech, "P0");
    fxw_render_state(w, tech, pass, FXW_RS_CULLMODE, 1);
    static const char vs[] = "vs_3_0\ndcl_position v0\ndcl_texcoord v1\ndcl_position o0\n"
                             "dcl_texcoord o1\nmov o0, v0\nmov o1, v1\n";
    bool ok = fxw_shader(w, tech, pass, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, tech, pass, false, ps, NULL, 0, err, sizeof err);
    size_t n = 0;
    uint8_t *b = ok ? fxw_finish(w, false, &n) : NULL;
    fxw_destroy(w);
    CHECK_MSG(b != NULL, "fx writer: %s", err);
    if (b == NULL) return NULL;
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create(dev, b, n, &e);
    CHECK_MSG(r == XGD_OK, "xgd_effect_create: %s", xgd_device_last_error(dev));
    free(b);
    return e;
}

static bool apply_or_skip(xgdt_ctx *t, xgd_device *dev, xgd_effect *e)
{
    xgd_result r = xgd_effect_pass_apply(e, 0, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

/* The full-screen quad, uv (0,0) top left to (1,1) bottom right, as two triangles whose shared
 * diagonal cuts through 2x2 quads. */
static void screen_quad(xgd_vertex_position_color_texture v[6])
{
    const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
    const float us[4] = { 0, 1, 1, 0 }, vs[4] = { 0, 0, 1, 1 };
    xgd_vertex_position_color_texture q[4];
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ xs[i], ys[i], 0 };
        q[i].color = (xgd_color){ 255, 255, 255, 255 };
        q[i].texture_coordinate = (xgd_vector2){ us[i], vs[i] };
    }
    xgd_vertex_position_color_texture tri[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    memcpy(v, tri, sizeof tri);
}

/* colour = (ddx(u) * W / 2, ddy(v) * H / 2, 0, 1) after texkill (u - 0.5): over the quad u
 * grows by 1 / W per pixel and v by 1 / H, so every drawn pixel is (0.5, 0.5, 0, 1), on the
 * diagonal too, where a quad's other lanes lie in the other triangle (helper lanes carry the
 * primitive's own extrapolated values). Pixel centres are Direct3D 10's: u = (x + 0.5) / W,
 * so columns x < W / 2 have u < 0.5 and are discarded (the clear colour stays). */
XGD_FIXTURE(effect_fx_quad_derivatives_and_discard)
{
    const int W = 32, H = 32;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    static const char ps[] = "ps_3_0\ndef c0, -0.5, 16, 0, 1\ndcl_texcoord v0.xy\n"
                             "add r1, v0.x, c0.x\ntexkill r1\ndsx r2, v0\ndsy r3, v0\n"
                             "mul r4.x, r2.x, c0.y\nmul r4.y, r3.y, c0.y\nmov r4.zw, c0\n"
                             "mov oC0, r4\n";
    xgd_effect *e = quad_effect(t, dev, ps);
    REQUIRE(e != NULL);
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    if (apply_or_skip(t, dev, e)) {
        xgd_vertex_position_color_texture v[6];
        screen_quad(v);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        uint8_t *img = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
        const xgd_color half = { fx_q8(0.5), fx_q8(0.5), 0, 255 };
        for (int y = 0; y < H; y++)
            for (int x = W / 2; x < W; x++) fx_put(img, W, x, y, half);
        fx_expect_back_buffer(t, dev, "effect_fx_quad_derivatives_and_discard", img, W, H, 1);
        free(img);
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* oC0 and oC1 reach render targets 0 and 1 of a two-target set; a line list drawn with the
 * same effect afterwards lights one row in both (the line rule: the row whose span contains
 * the line at each column centre). */
XGD_FIXTURE(effect_fx_color_outputs_and_lines)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    xgd_texture *rt0 = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *rt1 = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt0 != NULL && rt1 != NULL);
    /* target 0: uv as red and green; target 1: (0, 0.5, 1, 1) */
    static const char ps[] = "ps_3_0\ndef c0, 0, 0.5, 1, 1\ndcl_texcoord v0.xy\n"
                             "mov r0.xy, v0\nmov r0.zw, c0.xxxw\nmov oC0, r0\nmov oC1, c0\n";
    xgd_effect *e = quad_effect(t, dev, ps);
    REQUIRE(e != NULL);
    xgd_render_target_binding set[2] = { { rt0, XGD_CUBE_MAP_FACE_POSITIVE_X },
                                         { rt1, XGD_CUBE_MAP_FACE_POSITIVE_X } };
    CHECK_OK(xgd_set_render_targets(dev, set, 2));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    if (apply_or_skip(t, dev, e)) {
        /* the top half of the screen: x -1..1, y 1..0 (rows 0..7), uv of each pixel centre */
        xgd_vertex_position_color_texture q[4];
        const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, 0, 0 };
        for (int i = 0; i < 4; i++) {
            q[i].position = (xgd_vector3){ xs[i], ys[i], 0 };
            q[i].color = (xgd_color){ 255, 255, 255, 255 };
            q[i].texture_coordinate = (xgd_vector2){ (xs[i] + 1) / 2, (1 - ys[i]) / 2 };
        }
        xgd_vertex_position_color_texture tri[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
        xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 2, decl));
        /* a horizontal line at y = 12.25 pixels (NDC -0.53125) from x = 0 to 16: row 12 */
        xgd_vertex_position_color_texture line[2];
        for (int i = 0; i < 2; i++) {
            line[i].position = (xgd_vector3){ i == 0 ? -1.0f : 1.0f, -0.53125f, 0 };
            line[i].color = (xgd_color){ 255, 255, 255, 255 };
            line[i].texture_coordinate = (xgd_vector2){ 0.25f, 0.75f };
        }
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_LINE_LIST, line, 0, 1, decl));
        CHECK_OK(xgd_set_render_target(dev, NULL));
        uint8_t *img0 = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
        uint8_t *img1 = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
        const xgd_color c1 = { 0, fx_q8(0.5), 255, 255 };
        for (int y = 0; y < H / 2; y++)
            for (int x = 0; x < W; x++) {
                fx_put(img0, W, x, y, (xgd_color){ fx_q8((x + 0.5) / W), fx_q8((y + 0.5) / H), 0, 255 });
                fx_put(img1, W, x, y, c1);
            }
        for (int x = 0; x < W; x++) {
            fx_put(img0, W, x, 12, (xgd_color){ fx_q8(0.25), fx_q8(0.75), 0, 255 });
            fx_put(img1, W, x, 12, c1);
        }
        fx_expect_texture(t, rt0, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "effect_fx_color_outputs_and_lines.rt0", img0, W, H, 1);
        fx_expect_texture(t, rt1, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "effect_fx_color_outputs_and_lines.rt1", img1, W, H, 1);
        free(img0);
        free(img1);
    }
    xgd_effect_destroy(e);
    xgd_texture_destroy(rt0);
    xgd_texture_destroy(rt1);
    xgd_device_destroy(dev);
}
