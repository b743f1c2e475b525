/*
 * Effects from HLSL source (xgd_effect_create_hlsl) and from compiled .xfx files on every
 * renderer: a gradient under XNA's pixel centres, a textured and tinted mesh placed by a
 * matrix parameter, a two-pass effect with pass render states, branching and loops, clip()
 * and derivatives. Every expected image follows from the shader's maths; builds or renderers
 * that cannot run HLSL effects answer NOT_SUPPORTED by name and the fixture skips.
 */
#include "fixture_util.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* Creates an effect from source; NULL with the fixture marked NOT_SUPPORTED (the build has
 * no compiler) or failed. */
static xgd_effect *hlsl_effect(xgdt_ctx *t, xgd_device *dev, const char *name, const char *src)
{
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, src, strlen(src), name, &e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        return NULL;
    }
    CHECK_MSG(r == XGD_OK, "xgd_effect_create_hlsl: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return e;
}

static bool hlsl_apply(xgdt_ctx *t, xgd_device *dev, xgd_effect *e, int technique, int pass)
{
    xgd_result r = xgd_effect_pass_apply(e, technique, pass);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

static xgd_effect_parameter hlsl_param(xgdt_ctx *t, xgd_effect *e, const char *name)
{
    xgd_effect_parameter p = { -1 };
    CHECK_MSG(xgd_effect_find_parameter(e, name, &p) == XGD_OK, "parameter %s: %s", name,
              xgd_device_last_error(NULL));
    return p;
}

/* Two triangles from (x0, y0) to (x1, y1) in clip space, uv (u0, v0) at the top left to
 * (u1, v1) at the bottom right. */
static void hlsl_quad(xgd_vertex_position_color_texture v[6], float x0, float y0, float x1, float y1, float u0,
                      float v0, float u1, float v1)
{
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    const float us[4] = { u0, u1, u1, u0 }, vs[4] = { v0, v0, v1, v1 };
    xgd_vertex_position_color_texture q[4];
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ xs[i], ys[i], 0 };
        q[i].color = (xgd_color){ 255, 255, 255, 255 };
        q[i].texture_coordinate = (xgd_vector2){ us[i], vs[i] };
    }
    const int order[6] = { 0, 1, 2, 0, 2, 3 };
    for (int i = 0; i < 6; i++) v[i] = q[order[i]];
}

static xgd_result hlsl_draw(xgd_device *dev, const xgd_vertex_position_color_texture v[6])
{
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

static const char gradient_fx[] =
    "// a gradient: red = u, green = v, blue from a parameter\n"
    "float Blue;\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float3 pos : POSITION0, float2 uv : TEXCOORD0)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.pos = float4(pos, 1);\n"
    "    o.uv = uv;\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0 { return float4(i.uv, Blue, 1); }\n"
    "technique Gradient { pass P0 { VertexShader = compile vs_3_0 VS(); "
    "PixelShader = compile ps_3_0 PS(); } }\n";

/* XNA's pixel centres: pixel (x, y) samples the quad at (x, y) in pixels, so u = x / W and
 * v = y / H (the quad reaches past the screen so no edge rule decides a pixel). */
XGD_FIXTURE(hlsl_gradient_xna_centres)
{
    const int W = 32, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "gradient.fx", gradient_fx);
    if (e != NULL) {
        xgd_effect_parameter blue = hlsl_param(t, e, "Blue");
        xgd_effect_parameter_info info;
        CHECK_OK(xgd_effect_parameter_get_info(e, blue, &info));
        CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_SCALAR);
        CHECK_INT(info.parameter_type, XGD_EFFECT_PARAMETER_TYPE_SINGLE);
        CHECK_OK(xgd_effect_parameter_set_float(e, blue, 0.25f));
        xgd_effect_technique_info ti;
        CHECK_OK(xgd_effect_get_technique_info(e, 0, &ti));
        CHECK(strcmp(ti.name, "Gradient") == 0);
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
        if (hlsl_apply(t, dev, e, 0, 0)) {
            /* clip x -2..2 is u -0.5..1.5, y 2..-2 is v -0.5..1.5 */
            xgd_vertex_position_color_texture v[6];
            hlsl_quad(v, -2, 2, 2, -2, -0.5f, -0.5f, 1.5f, 1.5f);
            CHECK_OK(hlsl_draw(dev, v));
            uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    fx_put(img, W, x, y, (xgd_color){ fx_q8((double)x / W), fx_q8((double)y / H), fx_q8(0.25), 255 });
            fx_expect_back_buffer(t, dev, "hlsl_gradient_xna_centres", img, W, H, 1);
            free(img);
        }
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char textured_fx[] =
    "cbuffer PerObject : register(b0)\n"
    "{\n"
    "    float4x4 WorldViewProj;\n"
    "    float4 Tint;\n"
    "};\n"
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
    "float4 PS(VSOut i) : SV_Target0 { return Tex.Sample(Samp, i.uv) * Tint * i.col; }\n"
    "technique Textured { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                            SetPixelShader(CompileShader(ps_4_0, PS())); } }\n";

/* A unit quad (clip -1..0 x 1..-1, the left half) moved right by 0.5 through WorldViewProj
 * (XNA's row-vector matrix: the translation in its last row) covers columns W/4..3W/4; it
 * samples a 2x2 texture point-clamped (red, green / blue, white) times Tint (1, 0.5, 1, 1). */
XGD_FIXTURE(hlsl_textured_tinted_mesh)
{
    const int W = 32, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "textured.fx", textured_fx);
    xgd_texture *tex = NULL;
    if (e != NULL) {
        xgd_texture2d_desc td = { .width = 2, .height = 2, .format = XGD_SURFACE_FORMAT_COLOR };
        CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
        const xgd_color texels[4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 255, 255 } };
        CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels, sizeof texels));
        xgd_effect_parameter wvp = hlsl_param(t, e, "WorldViewProj"), tint = hlsl_param(t, e, "Tint"),
                             texp = hlsl_param(t, e, "Tex");
        xgd_effect_parameter_info info;
        CHECK_OK(xgd_effect_parameter_get_info(e, wvp, &info));
        CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_MATRIX);
        CHECK_INT(info.rows, 4);
        CHECK_INT(info.columns, 4);
        CHECK_OK(xgd_effect_parameter_get_info(e, tint, &info));
        CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_VECTOR);
        CHECK_INT(info.columns, 4);
        CHECK_OK(xgd_effect_parameter_get_info(e, texp, &info));
        CHECK_INT(info.parameter_type, XGD_EFFECT_PARAMETER_TYPE_TEXTURE2D);
        xgd_matrix m;
        memset(&m, 0, sizeof m);
        m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1;
        m.m[12] = 0.5f; /* M41: x translation */
        CHECK_OK(xgd_effect_parameter_set_matrix(e, wvp, &m));
        CHECK_OK(xgd_effect_parameter_set_vector4(e, tint, (xgd_vector4){ 1, 0.5f, 1, 1 }));
        CHECK_OK(xgd_effect_parameter_set_texture(e, texp, tex));
        xgd_sampler_state *point = fx_sampler(t, dev, &(xgd_sampler_desc){ .filter = XGD_FILTER_POINT,
                                                                           .address_u = XGD_ADDRESS_CLAMP,
                                                                           .address_v = XGD_ADDRESS_CLAMP,
                                                                           .address_w = XGD_ADDRESS_CLAMP,
                                                                           .max_anisotropy = 4 });
        CHECK_OK(xgd_set_sampler_state(dev, 0, point));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
        if (hlsl_apply(t, dev, e, 0, 0)) {
            xgd_vertex_position_color_texture v[6];
            hlsl_quad(v, -1, 1, 0, -1, 0, 0, 1, 1);
            CHECK_OK(hlsl_draw(dev, v));
            uint8_t *img = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
            for (int y = 0; y < H; y++)
                for (int x = W / 4; x < 3 * W / 4; x++) {
                    int tx = x < W / 2 ? 0 : 1, ty = y < H / 2 ? 0 : 1;
                    xgd_color c = texels[ty * 2 + tx];
                    c.g = fx_q8(c.g / 255.0 * 0.5);
                    fx_put(img, W, x, y, c);
                }
            fx_expect_back_buffer(t, dev, "hlsl_textured_tinted_mesh", img, W, H, 1);
            free(img);
        }
        xgd_sampler_state_destroy(point);
    }
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char multipass_fx[] =
    "float4 First;\n"
    "float4 Second;\n"
    "float4 VS(float4 pos : POSITION0) : SV_Position { return pos; }\n"
    "float4 PS0() : COLOR0 { return First; }\n"
    "float4 PS1() : COLOR0 { return Second; }\n"
    "technique TwoPasses\n"
    "{\n"
    "    pass Base { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS0();\n"
    "                AlphaBlendEnable = false; }\n"
    "    pass Add { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS1();\n"
    "               AlphaBlendEnable = true; SrcBlend = One; DestBlend = One; }\n"
    "}\n";

/* Pass Base writes First (0.25, 0.5, 0, 1); pass Add blends Second (0.5, 0.25, 0.5, 0) on top
 * with One/One (its render states): (0.75, 0.75, 0.5, 1) where both drew. */
XGD_FIXTURE(hlsl_multipass_render_states)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "multipass.fx", multipass_fx);
    if (e != NULL) {
        int passes = 0;
        xgd_effect_technique_info ti;
        CHECK_OK(xgd_effect_get_technique_info(e, 0, &ti));
        passes = ti.pass_count;
        CHECK_INT(passes, 2);
        int add = -1;
        CHECK_OK(xgd_effect_find_pass(e, 0, "Add", &add));
        CHECK_INT(add, 1);
        CHECK_OK(xgd_effect_parameter_set_vector4(e, hlsl_param(t, e, "First"), (xgd_vector4){ 0.25f, 0.5f, 0, 1 }));
        CHECK_OK(xgd_effect_parameter_set_vector4(e, hlsl_param(t, e, "Second"), (xgd_vector4){ 0.5f, 0.25f, 0.5f, 0 }));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        bool ok = true;
        for (int p = 0; p < passes && ok; p++) {
            ok = hlsl_apply(t, dev, e, 0, p);
            if (!ok) break;
            /* the left three quarters */
            xgd_vertex_position_color_texture v[6];
            hlsl_quad(v, -1, 1, 0.5f, -1, 0, 0, 1, 1);
            CHECK_OK(hlsl_draw(dev, v));
        }
        if (ok) {
            uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
            fx_fill(img, W, H, 0, 0, 3 * W / 4, H, (xgd_color){ fx_q8(0.75), fx_q8(0.75), fx_q8(0.5), 255 });
            fx_expect_back_buffer(t, dev, "hlsl_multipass_render_states", img, W, H, 1);
            free(img);
        }
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char branch_fx[] =
    "int Count;\n"
    "float Step;\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float4 pos : POSITION0, float2 uv : TEXCOORD0) { VSOut o; o.pos = pos; o.uv = uv; return o; }\n"
    "float4 PS(VSOut i) : SV_Target0\n"
    "{\n"
    "    float acc = 0;\n"
    "    [loop] for (int k = 0; k < Count; k++) { acc += Step; if (acc > 0.6) break; }\n"
    "    float r;\n"
    "    [branch] if (i.uv.x < 0.5) r = acc; else r = 1 - acc;\n"
    "    float g = 0;\n"
    "    int column = (int)(i.uv.x * 8);\n"
    "    while (column > 0) { g += 0.125; column--; }\n"
    "    return float4(r, g, i.uv.y > 0.5 ? 1 : 0, 1);\n"
    "}\n"
    "technique Branch { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/* Count 3, Step 0.25: the loop adds 0.25 three times (0.75 > 0.6 breaks after the third), so
 * red is 0.75 on the left half and 0.25 on the right; green counts the eighth of the screen
 * (floor(u * 8) / 8); blue is 1 on the lower half. Then Count 1: red 0.25 / 0.75. */
XGD_FIXTURE(hlsl_branches_and_loops)
{
    const int W = 16, H = 8;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "branch.fx", branch_fx);
    if (e != NULL) {
        xgd_effect_parameter count = hlsl_param(t, e, "Count");
        CHECK_OK(xgd_effect_parameter_set_float(e, hlsl_param(t, e, "Step"), 0.25f));
        for (int round = 0; round < 2; round++) {
            int n = round == 0 ? 3 : 1;
            CHECK_OK(xgd_effect_parameter_set_int(e, count, n));
            CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
            if (!hlsl_apply(t, dev, e, 0, 0)) break;
            xgd_vertex_position_color_texture v[6];
            hlsl_quad(v, -1, 1, 1, -1, 0, 0, 1, 1);
            CHECK_OK(hlsl_draw(dev, v));
            double acc = 0.25 * n;
            uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    double u = (x + 0.5) / W, vv = (y + 0.5) / H;
                    fx_put(img, W, x, y, (xgd_color){ fx_q8(u < 0.5 ? acc : 1 - acc), fx_q8((int)(u * 8) / 8.0),
                                                      vv > 0.5 ? 255 : 0, 255 });
                }
            fx_expect_back_buffer(t, dev, round == 0 ? "hlsl_branches_and_loops.3" : "hlsl_branches_and_loops.1",
                                  img, W, H, 1);
            free(img);
        }
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char clip_fx[] =
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float4 pos : POSITION0, float2 uv : TEXCOORD0) { VSOut o; o.pos = pos; o.uv = uv; return o; }\n"
    "float2 Size;\n"
    "float4 PS(VSOut i) : SV_Target0\n"
    "{\n"
    "    clip(i.uv.x - 0.5);\n"
    "    return float4(ddx(i.uv.x) * Size.x / 2, ddy(i.uv.y) * Size.y / 2, abs(ddy(i.uv.x)), 1);\n"
    "}\n"
    "technique Clip { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/* clip() discards u < 0.5 (the left half keeps the clear colour); ddx(u) = 1 / W and
 * ddy(v) = 1 / H everywhere, also on the diagonal where quads straddle the two triangles, so
 * red and green are 0.5; ddy(u) = 0. */
XGD_FIXTURE(hlsl_clip_and_derivatives)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "clip.fx", clip_fx);
    if (e != NULL) {
        CHECK_OK(xgd_effect_parameter_set_vector2(e, hlsl_param(t, e, "Size"), (xgd_vector2){ (float)W, (float)H }));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
        if (hlsl_apply(t, dev, e, 0, 0)) {
            xgd_vertex_position_color_texture v[6];
            hlsl_quad(v, -1, 1, 1, -1, 0, 0, 1, 1);
            CHECK_OK(hlsl_draw(dev, v));
            uint8_t *img = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
            fx_fill(img, W, H, W / 2, 0, W, H, (xgd_color){ fx_q8(0.5), fx_q8(0.5), 0, 255 });
            fx_expect_back_buffer(t, dev, "hlsl_clip_and_derivatives", img, W, H, 1);
            free(img);
        }
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char heightmap_fx[] =
    "Texture2D HeightMap : register(t0);\n"
    "SamplerState HeightSampler : register(s0);\n"
    "float4 VS(float3 pos : POSITION0, float2 uv : TEXCOORD0) : SV_Position\n"
    "{\n"
    "    float h = HeightMap.SampleLevel(HeightSampler, uv, 0).r;\n"
    "    return float4(pos.x, -1 + 2 * h * pos.y, 0, 1);\n"
    "}\n"
    "float4 PS() : SV_Target0 { return float4(1, 1, 1, 1); }\n"
    "technique HeightMap { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/* A height map displaces vertices through a vertex texture: four bars, bar i's top vertices
 * (position.y 1) raised to height h[i] of a 4x1 Single texture (0.25, 0.5, 0.75, 1), sampled
 * at u = (i + 0.2) / 4, near the texel's left edge: point sampling (XNA's vertex texture fetch,
 * whatever the vertex slot's filter says; VertexSamplerStates[0] holds LinearClamp) reads
 * texel i, where a linear filter would blend in texel i - 1. Bar i fills columns 4i..4i+3 from
 * row 16 (1 - h[i]) down. The effect's vertex texture goes to XNA's VertexTextures[0], not to
 * the pixel stage's Textures[0]. A Color texture in the vertex shader is NOT_SUPPORTED by
 * name. */
XGD_FIXTURE(hlsl_vertex_texture_height_map)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = hlsl_effect(t, dev, "heightmap.fx", heightmap_fx);
    xgd_texture *heights = NULL, *color = NULL;
    if (e != NULL) {
        const float h[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
        xgd_texture2d_desc td = { .width = 4, .height = 1, .format = XGD_SURFACE_FORMAT_SINGLE };
        CHECK_OK(xgd_texture2d_create(dev, &td, &heights));
        CHECK_OK(xgd_texture_set_data(heights, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, h, sizeof h));
        xgd_effect_parameter map = hlsl_param(t, e, "HeightMap");
        CHECK_OK(xgd_effect_parameter_set_texture(e, map, heights));
        xgd_sampler_state *linear = fx_sampler(t, dev, &(xgd_sampler_desc){ .filter = XGD_FILTER_LINEAR,
                                                                            .address_u = XGD_ADDRESS_CLAMP,
                                                                            .address_v = XGD_ADDRESS_CLAMP,
                                                                            .address_w = XGD_ADDRESS_CLAMP,
                                                                            .max_anisotropy = 4 });
        CHECK_OK(xgd_set_vertex_sampler_state(dev, 0, linear));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        if (hlsl_apply(t, dev, e, 0, 0)) {
            xgd_texture *vt = NULL, *pt = heights;
            CHECK_OK(xgd_get_vertex_texture(dev, 0, &vt));
            CHECK_OK(xgd_get_texture(dev, 0, &pt));
            CHECK_MSG(vt == heights && pt == NULL, "the vertex texture went to VertexTextures[0] %s, Textures[0] %s",
                      vt == heights ? "yes" : "no", pt == NULL ? "untouched" : "set");
            xgd_vertex_position_color_texture v[24];
            for (int i = 0; i < 4; i++) {
                float x0 = -1 + 0.5f * (float)i, x1 = x0 + 0.5f, u = ((float)i + 0.2f) / 4;
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
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 8,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
            uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
            for (int i = 0; i < 4; i++)
                fx_fill(img, W, H, 4 * i, (int)(H * (1 - h[i])), 4 * i + 4, H, (xgd_color){ 255, 255, 255, 255 });
            fx_expect_back_buffer(t, dev, "hlsl_vertex_texture_height_map", img, W, H, 0);
            free(img);
            /* a format XNA does not fetch in vertex shaders */
            xgd_texture2d_desc cd = { .width = 4, .height = 1, .format = XGD_SURFACE_FORMAT_COLOR };
            CHECK_OK(xgd_texture2d_create(dev, &cd, &color));
            CHECK_OK(xgd_effect_parameter_set_texture(e, map, color));
            CHECK_RESULT(xgd_effect_pass_apply(e, 0, 0), XGD_ERROR_NOT_SUPPORTED);
            CHECK(strstr(xgd_device_last_error(dev), "vertex texture") != NULL);
        }
        xgd_sampler_state_destroy(linear);
    }
    xgd_texture_destroy(heights);
    xgd_texture_destroy(color);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
