/*
 * Effects loaded from bytes and what a renderer binds for them: user draws interleaved with
 * stock draws in one frame (each keeps its own constants, textures and samplers across the
 * switches, whether its constants changed or not), and a pixel shader sampling registers other
 * than s0 (register s reads texture slot s with sampler state s).
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

static xgd_effect_parameter find(xgdt_ctx *t, xgd_effect *e, const char *name)
{
    xgd_effect_parameter p = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, name, &p));
    return p;
}

/* A PositionColorTexture rectangle [x0,x1) x [y0,y1) in pixels (clip = NDC, w = 1). */
static xgd_result pct_rect(xgd_device *dev, int w, int h, float x0, float y0, float x1, float y1)
{
    xgd_vertex_position_color_texture q[4];
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    for (int i = 0; i < 4; i++) {
        memset(&q[i], 0, sizeof q[i]);
        q[i].position = (xgd_vector3){ fx_ndc_x(xs[i], w), fx_ndc_y(ys[i], h), 0 };
        q[i].color = (xgd_color){ 255, 255, 255, 255 };
        q[i].texture_coordinate = (xgd_vector2){ i == 1 || i == 2 ? 1.0f : 0.0f, i >= 2 ? 1.0f : 0.0f };
    }
    xgd_vertex_position_color_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

static bool applied(xgdt_ctx *t, xgd_device *dev, xgd_result r)
{
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

/* One frame: the effect's Solid technique (identity WorldViewProj, colour = Tint) and a
 * BasicEffect (vertex colours) alternate. The third draw repeats the first one's constants
 * after a stock draw, the fifth the second one's after user draws: each must still see its
 * own. Direct3D 10 pixel centres put the quadrant edges on pixel boundaries. */
XGD_FIXTURE(effect_fx_interleaved_with_stock_draws)
{
    const int W = 32, H = 32;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    char err[256] = "";
    size_t n = 0;
    uint8_t *bytes = fxw_standard(&n, err, sizeof err);
    CHECK_MSG(bytes != NULL, "fx writer: %s", err);
    REQUIRE(bytes != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, bytes, n, &e));
    xgd_effect *basic = fx_effect(t, dev);
    REQUIRE(basic != NULL);
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    const xgd_color a = { 200, 40, 10, 255 }, b = { 20, 60, 220, 255 };
    const xgd_color s1 = { 30, 200, 90, 255 }, s2 = { 250, 250, 0, 255 };
    xgd_effect_parameter tint = find(t, e, "Tint");
    CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, fx_vec4(a)));
    if (applied(t, dev, xgd_effect_pass_apply(e, 0, 0))) {
        CHECK_OK(pct_rect(dev, W, H, 0, 0, 16, 16));
        CHECK_OK(xgd_effect_apply(basic));
        CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, 16, 0, s1));
        CHECK_OK(xgd_effect_pass_apply(e, 0, 0));
        CHECK_OK(pct_rect(dev, W, H, 0, 16, 16, 32));
        CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, fx_vec4(b)));
        CHECK_OK(xgd_effect_pass_apply(e, 0, 0));
        CHECK_OK(pct_rect(dev, W, H, 16, 16, 32, 32));
        CHECK_OK(xgd_effect_apply(basic));
        CHECK_OK(fx_rect(dev, W, H, 12, 12, 20, 20, 0, s2));
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        fx_fill(img, W, H, 0, 0, 16, 16, a);
        fx_fill(img, W, H, 16, 0, 32, 16, s1);
        fx_fill(img, W, H, 0, 16, 16, 32, a);
        fx_fill(img, W, H, 16, 16, 32, 32, b);
        fx_fill(img, W, H, 12, 12, 20, 20, s2);
        fx_expect_back_buffer(t, dev, "effect_fx_interleaved_with_stock_draws", img, W, H, 1);
        free(img);
    }
    xgd_effect_destroy(basic);
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* The "Sum" effect: its pixel shader samples s0 and s2 (s1 unused) and writes
 * tex2D(s0) + tex2D(s2); SamplerA (texture TexA) is register s0, SamplerB (TexB) s2, both point
 * filtered and clamped. NULL (after a failed check) where the writer or the load fails. */
static xgd_effect *sum_effect(xgdt_ctx *t, xgd_device *dev)
{
    fxw *w = fxw_create();
    int ta = fxw_texture_param(w, "TexA", FXW_TEXTURE2D);
    int tb = fxw_texture_param(w, "TexB", FXW_TEXTURE2D);
    fxw_state ss[5] = { { FXW_SAMP_MINFILTER, 1 }, { FXW_SAMP_MAGFILTER, 1 }, { FXW_SAMP_MIPFILTER, 1 },
                        { FXW_SAMP_ADDRESSU, 3 }, { FXW_SAMP_ADDRESSV, 3 } };
    fxw_sampler_param(w, "SamplerA", FXW_SAMPLER2D, ta, ss, 5);
    fxw_sampler_param(w, "SamplerB", FXW_SAMPLER2D, tb, ss, 5);
    int tech = fxw_technique(w, "Sum");
    int pass = fxw_pass(w, tech, "P0");
    static const char vs[] = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n";
    static const char ps[] = "ps_2_0\ndcl t0.xy\ndcl_2d s0\ndcl_2d s2\ntexld r0, t0, s0\n"
                             "texld r1, t0, s2\nadd r0, r0, r1\nmov oC0, r0\n";
    fxw_symbol syms[2] = { { "SamplerA", 3, 0, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 },
                           { "SamplerB", 3, 2, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 } };
    char err[256] = "";
    bool ok = fxw_shader(w, tech, pass, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, tech, pass, false, ps, syms, 2, err, sizeof err);
    CHECK_MSG(ok, "fx writer: %s", err);
    size_t n = 0;
    uint8_t *bytes = ok ? fxw_finish(w, false, &n) : NULL;
    fxw_destroy(w);
    if (!bytes) return NULL;
    xgd_effect *e = NULL;
    CHECK_OK(xgd_effect_create(dev, bytes, n, &e)); /* the bytes are copied */
    free(bytes);
    return e;
}

/* n 1x1 textures, texture i holding texel[i] (RGBA8); false after a failed check. */
static bool texel_textures(xgdt_ctx *t, xgd_device *dev, int n, const uint8_t texel[][4],
                           xgd_texture **out)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 1, .height = 1 }, &out[i]);
        CHECK_OK(r);
        if (r == XGD_OK)
            CHECK_OK(xgd_texture_set_data(out[i], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texel[i], 4));
        ok = ok && r == XGD_OK;
    }
    return ok;
}

/* A pixel shader sampling s0 and s2 (s1 unused): colour = tex2D(s0) + tex2D(s2), each 1x1
 * texture of its own, so the sum shows that register s reads texture slot s. */
XGD_FIXTURE(effect_fx_sampler_registers_read_their_slots)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    xgd_effect *e = sum_effect(t, dev);
    REQUIRE(e != NULL);
    xgd_texture *tex[2] = { NULL, NULL };
    const uint8_t texel[2][4] = { { 100, 0, 0, 255 }, { 0, 50, 30, 0 } };
    REQUIRE(texel_textures(t, dev, 2, texel, tex));
    CHECK_OK(xgd_effect_parameter_set_texture(e, find(t, e, "TexA"), tex[0]));
    CHECK_OK(xgd_effect_parameter_set_texture(e, find(t, e, "TexB"), tex[1]));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (applied(t, dev, xgd_effect_pass_apply(e, 0, 0))) {
        CHECK_OK(pct_rect(dev, W, H, 0, 0, 16, 16));
        uint8_t *img = fx_image(W, H, (xgd_color){ 100, 50, 30, 255 });
        fx_expect_back_buffer(t, dev, "effect_fx_sampler_registers_read_their_slots", img, W, H, 1);
        free(img);
    }
    xgd_texture_destroy(tex[0]);
    xgd_texture_destroy(tex[1]);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* A texture parameter changed between two draws of the same pass, after a texture was set on
 * another slot through the device: the second draw must sample the new texture on every slot the
 * apply changed, not only on the slot the device setter touched. Left half A + B, right half
 * A + D (slot 1, unread by the shader, got C in between). */
XGD_FIXTURE(effect_fx_texture_parameter_change_after_device_texture_set)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    xgd_effect *e = sum_effect(t, dev);
    REQUIRE(e != NULL);
    enum { A, B, C, D };
    xgd_texture *tex[4] = { NULL, NULL, NULL, NULL };
    const uint8_t texel[4][4] = { { 100, 0, 0, 255 }, { 0, 50, 30, 0 }, { 0, 0, 200, 0 }, { 0, 120, 0, 0 } };
    REQUIRE(texel_textures(t, dev, 4, texel, tex));
    CHECK_OK(xgd_effect_parameter_set_texture(e, find(t, e, "TexA"), tex[A]));
    CHECK_OK(xgd_effect_parameter_set_texture(e, find(t, e, "TexB"), tex[B]));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (applied(t, dev, xgd_effect_pass_apply(e, 0, 0))) {
        CHECK_OK(pct_rect(dev, W, H, 0, 0, 8, 16));
        CHECK_OK(xgd_set_texture(dev, 1, tex[C]));
        CHECK_OK(xgd_effect_parameter_set_texture(e, find(t, e, "TexB"), tex[D]));
        CHECK_OK(xgd_effect_pass_apply(e, 0, 0));
        CHECK_OK(pct_rect(dev, W, H, 8, 0, 16, 16));
        uint8_t *img = fx_image(W, H, (xgd_color){ 100, 50, 30, 255 });
        fx_fill(img, W, H, 8, 0, 16, 16, (xgd_color){ 100, 120, 0, 255 });
        fx_expect_back_buffer(t, dev, "effect_fx_texture_parameter_change_after_device_texture_set", img, W,
                              H, 1);
        free(img);
    }
    for (int i = 0; i < 4; i++) xgd_texture_destroy(tex[i]);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
