/*
 * fixture_sprite_effect.c - the stock SpriteEffect: clip = position * MatrixTransform, colour =
 * vertex colour * tex(slot 0). With an orthographic pixel projection
 * CreateOrthographicOffCenter(0, w, h, 0, 0, 1) (built by hand here) vertex positions are
 * pixel coordinates; without a matrix the projection follows the viewport at apply time.
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

/* XNA CreateOrthographicOffCenter(0, w, h, 0, 0, 1), row vectors. */
static xgd_matrix pixel_ortho(int w, int h)
{
    xgd_matrix m;
    memset(&m, 0, sizeof m);
    m.m11 = 2.0f / (float)w;
    m.m22 = -2.0f / (float)h;
    m.m33 = -1.0f; /* 1 / (near - far) */
    m.m41 = -1.0f;
    m.m42 = 1.0f;
    m.m43 = 0.0f;  /* near / (near - far) */
    m.m44 = 1.0f;
    return m;
}

static xgd_result sprite_tri(xgd_device *dev, const float xy[6], xgd_color c, const float uv[6])
{
    xgd_vertex_position_color_texture v[3];
    for (int i = 0; i < 3; i++) {
        v[i].position = (xgd_vector3){ xy[i * 2], xy[i * 2 + 1], 0 };
        v[i].color = c;
        v[i].texture_coordinate = (xgd_vector2){ uv[i * 2], uv[i * 2 + 1] };
    }
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

XGD_FIXTURE(SpriteEffect_PixelProjection)
{
    enum { W = 64, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *white = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
    xgd_effect *fx = NULL;
    REQUIRE(white);
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(rs);
    CHECK_OK(xgd_set_texture(dev, 0, white));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    xgd_matrix m = pixel_ortho(W, H);
    CHECK_OK(xgd_sprite_effect_set_matrix(fx, &m));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const float uv0[6] = { 0, 0, 0, 0, 0, 0 };
    const float a[6] = { 2.5f, 1.5f, 40.25f, 6.0f, 9.0f, 30.5f };
    const float b[6] = { 63.0f, 0.5f, 62.5f, 31.75f, 44.125f, 20.0f };
    const xgd_color ca = { 255, 90, 0, 255 }, cb = { 30, 160, 255, 200 };
    CHECK_OK(sprite_tri(dev, a, ca, uv0));
    CHECK_OK(sprite_tri(dev, b, cb, uv0));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    /* An explicit matrix without XNA's -0.5: under XNA's pixel centres (the default) the
       triangles land half a pixel right and down of their coordinates. */
    float ref[6];
    fx_centered_tri(a, XGD_PIXEL_CENTER_XNA, ref);
    fx_raster_tri(e, W, H, ref, ca);
    fx_centered_tri(b, XGD_PIXEL_CENTER_XNA, ref);
    fx_raster_tri(e, W, H, ref, cb);
    fx_expect_back_buffer(t, dev, "explicit_matrix", e, W, H, 0);

    /* no matrix: the projection of the viewport current at apply time, relative to it, with
       XNA's -0.5 cancelling the half pixel: the triangle lands on its coordinates */
    CHECK_OK(xgd_sprite_effect_set_matrix(fx, NULL));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 16, 8, 32, 16, 0, 1 }));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const float c[6] = { 0.5f, 0.5f, 20.5f, 3.0f, 4.0f, 15.5f };
    CHECK_OK(sprite_tri(dev, c, ca, uv0));
    fx_fill(e, W, H, 0, 0, W, H, BLACK);
    const float moved[6] = { 16.5f, 8.5f, 36.5f, 11.0f, 20.0f, 23.5f };
    fx_raster_tri(e, W, H, moved, ca);
    fx_expect_back_buffer(t, dev, "viewport_projection", e, W, H, 0);
    free(e);
    xgd_set_texture(dev, 0, NULL);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(white);
    xgd_device_destroy(dev);
}

/* The slot-0 texture modulates the vertex colour; a 2x2 asymmetric texture over 8x8 pixels. */
XGD_FIXTURE(SpriteEffect_TextureModulation)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    const xgd_color T[4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 128 }, { 0, 0, 255, 255 }, { 255, 255, 255, 64 } };
    uint8_t tx[16];
    for (int i = 0; i < 4; i++) fx_put(tx, 2, i % 2, i / 2, T[i]);
    xgd_texture *tex = xgdt_image_texture(t, dev, 2, 2, tx);
    xgd_effect *fx = NULL;
    REQUIRE(tex);
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    CHECK_OK(xgd_set_texture(dev, 0, tex));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    xgd_matrix m = pixel_ortho(W, H);
    CHECK_OK(xgd_sprite_effect_set_matrix(fx, &m));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const xgd_color vc = { 128, 255, 64, 255 };
    const float t0[6] = { 4, 4, 12, 4, 12, 12 }, t1[6] = { 4, 4, 12, 12, 4, 12 };
    const float u0[6] = { 0, 0, 1, 0, 1, 1 }, u1[6] = { 0, 0, 1, 1, 0, 1 };
    CHECK_OK(sprite_tri(dev, t0, vc, u0));
    CHECK_OK(sprite_tri(dev, t1, vc, u1));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 4; i++) {
        const uint8_t *tc = &T[i].r, *v = &vc.r;
        int o[4];
        for (int ch = 0; ch < 4; ch++) o[ch] = fx_q8(tc[ch] / 255.0 * v[ch] / 255.0);
        fx_fill(e, W, H, 4 + (i % 2) * 4, 4 + (i / 2) * 4, 8 + (i % 2) * 4, 8 + (i / 2) * 4, fx_rgba(o[0], o[1], o[2], o[3]));
    }
    fx_expect_back_buffer(t, dev, "modulated", e, W, H, 1);
    free(e);
    xgd_set_texture(dev, 0, NULL);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
