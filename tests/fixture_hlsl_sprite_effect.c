/*
 * SpriteBatch with an HLSL effect whose pass sets a pixel shader only (XNA's custom sprite
 * effects): SpriteBatch's vertex shader and matrix stay, the effect's pixel shader colours
 * the sprite. Outside SpriteBatch the same rule holds (Direct3D 9's): a pass with a pixel
 * shader only keeps the vertex shader of the last apply, whichever effect applied it, and is
 * refused while none is applied. Builds or renderers that cannot run HLSL effects answer
 * NOT_SUPPORTED by name and the fixture skips.
 */
#include "fixture_util.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const char tinted_src[] =
    "Texture2D<float4> Texture : register(t0);\n"
    "SamplerState TextureSampler : register(s0);\n"
    "float4 Tint;\n"
    "float4 TintedPS(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target0\n"
    "{\n"
    "    return Texture.Sample(TextureSampler, uv) * color * Tint;\n"
    "}\n"
    "technique Tinted { pass P0 { PixelShader = compile ps_4_0 TintedPS(); } }\n";

/* The sprite covers [2,6) x [3,7), texel-exact in both pixel-centre conventions (SpriteBatch's
 * projection); its colour is texel * white tint of the sprite * Tint. */
static void sprite_pixel_shader(xgdt_ctx *t, xgd_pixel_center centers)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, centers);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, tinted_src, strlen(tinted_src), "tinted.fx", &e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return;
    }
    CHECK_MSG(r == XGD_OK, "create: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    xgd_effect_parameter tint;
    CHECK_OK(xgd_effect_find_parameter(e, "Tint", &tint));
    CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, (xgd_vector4){ 0.5f, 1, 0.25f, 1 }));
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    uint8_t texels[64];
    for (int i = 0; i < 16; i++) {
        texels[i * 4 + 0] = 200;
        texels[i * 4 + 1] = 100;
        texels[i * 4 + 2] = 40;
        texels[i * 4 + 3] = 255;
    }
    CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels, sizeof texels));
    xgd_sprite_batch *batch = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_sprite_batch_begin(batch, &(xgd_sprite_batch_begin_desc){ .effect = e }));
    xgd_sprite sp = XGD_SPRITE_INIT;
    sp.position = (xgd_vector2){ 2, 3 };
    CHECK_OK(xgd_sprite_batch_draw(batch, tex, &sp));
    r = xgd_sprite_batch_end(batch);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
    } else {
        CHECK_MSG(r == XGD_OK, "end: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        xgd_color want = { fx_q8(200 / 255.0 * 0.5), fx_q8(100 / 255.0), fx_q8(40 / 255.0 * 0.25), 255 };
        fx_fill(img, W, H, 2, 3, 6, 7, want);
        fx_expect_back_buffer(t, dev, "hlsl_sprite_pixel_shader", img, W, H, 1);
        free(img);
    }
    xgd_sprite_batch_destroy(batch);
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(hlsl_sprite_batch_pixel_shader_only_xna_centers)
{
    sprite_pixel_shader(t, XGD_PIXEL_CENTER_XNA);
}

XGD_FIXTURE(hlsl_sprite_batch_pixel_shader_only_d3d10_centers)
{
    sprite_pixel_shader(t, XGD_PIXEL_CENTER_D3D10);
}

static const char color_tint_src[] =
    "float4 Tint;\n"
    "float4 TintPS(float4 color : COLOR0) : SV_Target0 { return color * Tint; }\n"
    "technique T { pass P0 { PixelShader = compile ps_4_0 TintPS(); } }\n";

/* A pixel-shader-only pass after BasicEffect (vertex colour on, identity matrices): BasicEffect's
 * vertex shader stays, so COLOR0 is the vertex colour and the pixel is that colour * Tint over
 * the whole target. With no apply before it, the pass is refused by name. */
XGD_FIXTURE(hlsl_pixel_shader_only_keeps_last_vertex_shader)
{
    const int W = 8, H = 8;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, color_tint_src, strlen(color_tint_src), "tint.fx", &e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return;
    }
    REQUIRE_OK(r);
    xgd_effect_parameter tint;
    CHECK_OK(xgd_effect_find_parameter(e, "Tint", &tint));
    CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, (xgd_vector4){ 0.5f, 1, 0.25f, 1 }));
    /* nothing applied yet: no vertex shader to keep */
    CHECK_RESULT(xgd_effect_apply(e), XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(dev), "vertex shader") != NULL);

    xgd_effect *basic = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(basic, &p));
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_effect_apply(basic));
    r = xgd_effect_apply(e);
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    const xgd_color c = { 200, 100, 40, 255 };
    xgd_vertex_position_color v[6] = {
        { { -1, -1, 0 }, c }, { { -1, 1, 0 }, c }, { { 1, 1, 0 }, c },
        { { -1, -1, 0 }, c }, { { 1, 1, 0 }, c }, { { 1, -1, 0 }, c },
    };
    CHECK_OK(xgd_set_rasterizer_state(dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    r = xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                 xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR));
    CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    uint8_t *img = fx_image(W, H, (xgd_color){ fx_q8(200 / 255.0 * 0.5), fx_q8(100 / 255.0),
                                               fx_q8(40 / 255.0 * 0.25), 255 });
    fx_expect_back_buffer(t, dev, "hlsl_pixel_shader_only_keeps_last_vertex_shader", img, W, H, 1);
    free(img);
    xgd_effect_destroy(basic);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
