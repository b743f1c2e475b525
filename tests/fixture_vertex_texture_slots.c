/*
 * XNA 4.0 HiDef's vertex texture slots (GraphicsDevice.VertexTextures[0..3] and
 * VertexSamplerStates[0..3]) apart from the pixel stage's Textures[] / SamplerStates[]: an
 * HLSL effect whose vertex shader reads a height map at register t0 while its pixel shader
 * reads a colour texture at its own t0; then the same draw with both slots 0 replaced through
 * xgd_set_vertex_texture / xgd_set_texture after the apply. Unit tests check the setters'
 * rules: slot range, Reach, formats, defaults, getters and a destroyed texture leaving its slot.
 */
#include "fixture_util.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const char slots_fx[] =
    "Texture2D HeightMap : register(t0);\n"
    "SamplerState HeightSampler : register(s0);\n"
    "Texture2D Tint : register(t0);\n"
    "SamplerState TintSampler : register(s0);\n"
    "float4 VS(float3 pos : POSITION0, float2 uv : TEXCOORD0) : SV_Position\n"
    "{\n"
    "    float h = HeightMap.SampleLevel(HeightSampler, uv, 0).r;\n"
    "    return float4(pos.x, -1 + 2 * h * pos.y, 0, 1);\n"
    "}\n"
    "float4 PS() : SV_Target0 { return Tint.Sample(TintSampler, float2(0.5, 0.5)); }\n"
    "technique Slots { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

enum { VW = 16, VH = 16 };

static xgd_texture *heights_texture(xgdt_ctx *t, xgd_device *dev, const float h[4])
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc td = { .width = 4, .height = 1, .format = XGD_SURFACE_FORMAT_SINGLE };
    CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
    if (tex != NULL) CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, h, 4 * sizeof(float)));
    return tex;
}

static xgd_texture *color_texture(xgdt_ctx *t, xgd_device *dev, xgd_color c)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc td = { .width = 1, .height = 1, .format = XGD_SURFACE_FORMAT_COLOR };
    CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
    if (tex != NULL) CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, &c, sizeof c));
    return tex;
}

/* Four bars: bar i spans columns 4i..4i+3, its top vertices at height h[i] of the map read at
 * texel i (u = (i + 0.5) / 4). */
static xgd_result draw_bars(xgd_device *dev)
{
    xgd_vertex_position_color_texture v[24];
    for (int i = 0; i < 4; i++) {
        float x0 = -1 + 0.5f * (float)i, x1 = x0 + 0.5f, u = ((float)i + 0.5f) / 4;
        xgd_vertex_position_color_texture q[4];
        const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { 1, 1, 0, 0 };
        for (int k = 0; k < 4; k++) {
            q[k].position = (xgd_vector3){ xs[k], ys[k], 0 };
            q[k].color = (xgd_color){ 255, 255, 255, 255 };
            q[k].texture_coordinate = (xgd_vector2){ u, 0.5f };
        }
        const int order[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) v[i * 6 + k] = q[order[k]];
    }
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 8,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

static uint8_t *bars_image(const float h[4], xgd_color c)
{
    uint8_t *img = fx_image(VW, VH, (xgd_color){ 0, 0, 0, 255 });
    for (int i = 0; i < 4 && img != NULL; i++) fx_fill(img, VW, VH, 4 * i, (int)(VH * (1 - h[i])), 4 * i + 4, VH, c);
    return img;
}

XGD_FIXTURE(vertex_and_pixel_textures_in_slot_0)
{
    xgd_device *dev = fx_device_centers(t, VW, VH, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, slots_fx, strlen(slots_fx), "slots.fx", &e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return;
    }
    CHECK_MSG(r == XGD_OK, "xgd_effect_create_hlsl: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    const float h1[4] = { 0.25f, 0.5f, 0.75f, 1.0f }, h2[4] = { 1.0f, 0.75f, 0.5f, 0.25f };
    const xgd_color red = { 200, 30, 40, 255 }, green = { 20, 220, 60, 255 };
    xgd_texture *map1 = heights_texture(t, dev, h1), *map2 = heights_texture(t, dev, h2);
    xgd_texture *tint1 = color_texture(t, dev, red), *tint2 = color_texture(t, dev, green);
    if (e != NULL && map1 != NULL && map2 != NULL && tint1 != NULL && tint2 != NULL) {
        xgd_effect_parameter pm = { -1 }, pt = { -1 };
        CHECK_OK(xgd_effect_find_parameter(e, "HeightMap", &pm));
        CHECK_OK(xgd_effect_find_parameter(e, "Tint", &pt));
        CHECK_OK(xgd_effect_parameter_set_texture(e, pm, map1));
        CHECK_OK(xgd_effect_parameter_set_texture(e, pt, tint1));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        r = xgd_effect_pass_apply(e, 0, 0);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(dev));
        } else {
            CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
            xgd_texture *vt = NULL, *ptex = NULL;
            CHECK_OK(xgd_get_vertex_texture(dev, 0, &vt));
            CHECK_OK(xgd_get_texture(dev, 0, &ptex));
            CHECK(vt == map1);
            CHECK(ptex == tint1);
            CHECK_OK(draw_bars(dev));
            uint8_t *img = bars_image(h1, red);
            fx_expect_back_buffer(t, dev, "vertex_and_pixel_textures_in_slot_0", img, VW, VH, 0);
            free(img);
            /* both slots 0 replaced after the apply: the next draw reads the new ones */
            CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
            CHECK_OK(xgd_set_vertex_texture(dev, 0, map2));
            CHECK_OK(xgd_set_texture(dev, 0, tint2));
            CHECK_OK(draw_bars(dev));
            img = bars_image(h2, green);
            fx_expect_back_buffer(t, dev, "vertex_and_pixel_textures_in_slot_0_set", img, VW, VH, 0);
            free(img);
            /* an empty vertex slot reads (0,0,0,1): every bar is flat, nothing is drawn */
            CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
            CHECK_OK(xgd_set_vertex_texture(dev, 0, NULL));
            CHECK_OK(draw_bars(dev));
            const float flat[4] = { 0, 0, 0, 0 };
            img = bars_image(flat, green);
            fx_expect_back_buffer(t, dev, "vertex_and_pixel_textures_in_slot_0_empty", img, VW, VH, 0);
            free(img);
        }
    }
    xgd_texture_destroy(map1);
    xgd_texture_destroy(map2);
    xgd_texture_destroy(tint1);
    xgd_texture_destroy(tint2);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static xgd_device *sw_device(xgdt_ctx *t, xgd_graphics_profile profile)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 4;
    dd.pp.back_buffer_height = 4;
    dd.profile = profile;
    xgd_device *dev = NULL;
    CHECK_OK(xgd_device_create(&dd, &dev));
    return dev;
}

XGD_TEST(VertexTextureSlots_SettersFollowXna)
{
    xgd_device *dev = sw_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    const float h[4] = { 0, 0, 0, 0 };
    xgd_texture *map = heights_texture(t, dev, h), *color = color_texture(t, dev, (xgd_color){ 1, 2, 3, 4 });
    REQUIRE(map != NULL && color != NULL);
    xgd_texture *got = NULL;
    xgd_sampler_state *ss = NULL;
    /* the slots start empty, with LinearWrap as XNA's device */
    for (int i = 0; i < XGD_MAX_VERTEX_TEXTURE_SLOTS; i++) {
        CHECK_OK(xgd_get_vertex_texture(dev, i, &got));
        CHECK(got == NULL);
        CHECK_OK(xgd_get_vertex_sampler_state(dev, i, &ss));
        CHECK(ss == xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP));
    }
    CHECK_RESULT(xgd_set_vertex_texture(dev, XGD_MAX_VERTEX_TEXTURE_SLOTS, map), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_vertex_texture(dev, -1, map), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_get_vertex_texture(dev, 4, &got), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_vertex_sampler_state(dev, 4, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_get_vertex_sampler_state(dev, 0, NULL), XGD_ERROR_INVALID_ARGUMENT);
    /* a Color texture is not fetched in a vertex shader: refused by name, nothing changes */
    CHECK_RESULT(xgd_set_vertex_texture(dev, 1, color), XGD_ERROR_NOT_SUPPORTED);
    CHECK(strstr(xgd_device_last_error(dev), "vertex") != NULL);
    CHECK_OK(xgd_get_vertex_texture(dev, 1, &got));
    CHECK(got == NULL);
    /* set, read back; the pixel stage's slot stays apart */
    CHECK_OK(xgd_set_vertex_texture(dev, 3, map));
    CHECK_OK(xgd_get_vertex_texture(dev, 3, &got));
    CHECK(got == map);
    CHECK_OK(xgd_get_texture(dev, 3, &got));
    CHECK(got == NULL);
    xgd_sampler_state *point = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    CHECK_OK(xgd_set_vertex_sampler_state(dev, 2, point));
    CHECK_OK(xgd_get_vertex_sampler_state(dev, 2, &ss));
    CHECK(ss == point);
    CHECK_OK(xgd_get_sampler_state(dev, 2, &ss));
    CHECK(ss == xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP));
    CHECK_OK(xgd_set_vertex_sampler_state(dev, 2, NULL));
    CHECK_OK(xgd_get_vertex_sampler_state(dev, 2, &ss));
    CHECK(ss == xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP));
    /* a destroyed texture leaves its vertex slot */
    xgd_texture_destroy(map);
    CHECK_OK(xgd_get_vertex_texture(dev, 3, &got));
    CHECK(got == NULL);
    xgd_texture_destroy(color);
    xgd_device_destroy(dev);

    /* Reach has no vertex textures */
    xgd_device *reach = sw_device(t, XGD_GRAPHICS_PROFILE_REACH);
    REQUIRE(reach != NULL);
    xgd_texture *rmap = color_texture(t, reach, (xgd_color){ 1, 2, 3, 4 });
    if (rmap != NULL) {
        CHECK_RESULT(xgd_set_vertex_texture(reach, 0, rmap), XGD_ERROR_NOT_SUPPORTED);
        CHECK(strstr(xgd_device_last_error(reach), "Reach") != NULL);
        CHECK_OK(xgd_set_vertex_texture(reach, 0, NULL));
    }
    xgd_texture_destroy(rmap);
    xgd_device_destroy(reach);
}
