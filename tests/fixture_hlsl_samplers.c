/*
 * Sampler states declared in HLSL effect source, as XNA's effects apply them: a pass sets the
 * sampler state of each slot its shaders sample from the state block of the sampler used
 * there (`SamplerState S { Filter = ...; AddressU = ...; };` or XNA's `sampler S =
 * sampler_state { Texture = <T>; MinFilter = ...; };`), only the states the block names, on
 * top of the slot's current state. Also: a pass that fails to apply changes no public state,
 * and a vertex texture's point sampling leaves the slot's public sampler state alone.
 */
#include "fixture_util.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static xgd_effect *ss_effect(xgdt_ctx *t, xgd_device *dev, const char *name, const char *src)
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

/* A 2x1 texture: black, white. */
static xgd_texture *ss_black_white(xgdt_ctx *t, xgd_device *dev)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc td = { .width = 2, .height = 1, .format = XGD_SURFACE_FORMAT_COLOR };
    CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
    const xgd_color texels[2] = { { 0, 0, 0, 255 }, { 255, 255, 255, 255 } };
    if (tex != NULL) CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels, sizeof texels));
    return tex;
}

/* A quad over the whole target with u from -1 (left edge) to 2 (right edge), v 0.5. */
static void ss_draw(xgdt_ctx *t, xgd_device *dev)
{
    xgd_vertex_position_color_texture q[4];
    const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 }, us[4] = { -1, 2, 2, -1 };
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ xs[i], ys[i], 0 };
        q[i].color = (xgd_color){ 255, 255, 255, 255 };
        q[i].texture_coordinate = (xgd_vector2){ us[i], 0.5f };
    }
    const int order[6] = { 0, 1, 2, 0, 2, 3 };
    xgd_vertex_position_color_texture v[6];
    for (int i = 0; i < 6; i++) v[i] = q[order[i]];
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
}

/* Point sampling of the black/white texture at u with the given addressing of u: the texel
 * floor(2 * u') of u' = u wrapped, mirrored or clamped into [0, 1). */
static xgd_color ss_expect(double u, xgd_texture_address_mode mode)
{
    double m = u;
    if (mode == XGD_ADDRESS_CLAMP) m = u < 0 ? 0 : u > 0.999 ? 0.999 : u;
    else if (mode == XGD_ADDRESS_WRAP) m = u - (double)(long)(u + 8) + 8;
    else {
        double f = u < 0 ? -u : u; /* mirror: period 2, reflected */
        f = f - 2.0 * (double)(long)(f / 2.0);
        m = f < 1 ? f : 2 - f;
    }
    return (int)(m * 2) == 0 ? (xgd_color){ 0, 0, 0, 255 } : (xgd_color){ 255, 255, 255, 255 };
}

static const char d3d10_fx[] =
    "Texture2D Tex : register(t0);\n"
    "SamplerState Samp\n"
    "{\n"
    "    Filter = MIN_MAG_MIP_POINT;\n"
    "    AddressU = Clamp;\n"
    "    AddressV = CLAMP;\n"
    "};\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float3 pos : POSITION0, float2 uv : TEXCOORD0) { VSOut o; o.pos = float4(pos, 1); o.uv = uv; return o; }\n"
    "float4 PS(VSOut i) : SV_Target0 { return Tex.Sample(Samp, i.uv); }\n"
    "technique T { pass { VertexShader = compile vs_4_0 VS(); PixelShader = compile ps_4_0 PS(); } }\n";

static const char d3d9_fx[] =
    "texture Pattern;\n"
    "sampler S = sampler_state\n"
    "{\n"
    "    Texture = <Pattern>;\n"
    "    MinFilter = Point; MagFilter = Point; MipFilter = Point;\n"
    "    AddressU = Mirror;\n"
    "};\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float3 pos : POSITION0, float2 uv : TEXCOORD0) { VSOut o; o.pos = float4(pos, 1); o.uv = uv; return o; }\n"
    "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(S, uv); }\n"
    "technique T { pass { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n";

/* Draws the black/white texture through `src` over a 12x2 target whose slot 0 holds
 * LinearWrap (which would blend and repeat) and expects point sampling with `mode` on u:
 * pixel x samples u = -1 + 3 (x + 0.5) / 12 (D3D10 centres), never on a texel edge. */
static void ss_run(xgdt_ctx *t, const char *label, const char *src, const char *texture_param,
                   xgd_texture_address_mode mode)
{
    const int W = 12, H = 2;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = ss_effect(t, dev, label, src);
    xgd_texture *tex = NULL;
    if (e != NULL) {
        tex = ss_black_white(t, dev);
        xgd_effect_parameter p = { -1 };
        CHECK_MSG(xgd_effect_find_parameter(e, texture_param, &p) == XGD_OK, "parameter %s: %s", texture_param,
                  xgd_device_last_error(dev));
        CHECK_OK(xgd_effect_parameter_set_texture(e, p, tex));
        xgd_sampler_state *lw = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP);
        xgd_sampler_desc mirror_w = XGD_SAMPLER_DESC_DEFAULT;
        mirror_w.address_w = XGD_ADDRESS_MIRROR; /* a state the blocks leave alone */
        xgd_sampler_state *start = fx_sampler(t, dev, &mirror_w);
        CHECK_OK(xgd_set_sampler_state(dev, 0, start != NULL ? start : lw));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
        xgd_result r = xgd_effect_pass_apply(e, 0, 0);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(dev));
        } else {
            CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
            /* the slot now holds the block's states on top of what it held (as XNA's Apply) */
            xgd_sampler_state *now = NULL;
            xgd_sampler_desc d;
            CHECK_OK(xgd_get_sampler_state(dev, 0, &now));
            CHECK_OK(xgd_sampler_state_get_desc(now, &d));
            CHECK_INT(d.filter, XGD_FILTER_POINT);
            CHECK_INT(d.address_u, mode);
            CHECK_INT(d.address_w, XGD_ADDRESS_MIRROR);
            ss_draw(t, dev);
            uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) fx_put(img, W, x, y, ss_expect(-1 + 3 * (x + 0.5) / W, mode));
            fx_expect_back_buffer(t, dev, label, img, W, H, 0);
            free(img);
        }
        xgd_sampler_state_destroy(start);
    }
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(hlsl_sampler_state_block_d3d10)
{
    ss_run(t, "hlsl_sampler_state_block_d3d10", d3d10_fx, "Tex", XGD_ADDRESS_CLAMP);
}

XGD_FIXTURE(hlsl_sampler_state_block_xna)
{
    ss_run(t, "hlsl_sampler_state_block_xna", d3d9_fx, "Pattern", XGD_ADDRESS_MIRROR);
}

static const char two_textures_fx[] =
    "Texture2D A : register(t0);\n"
    "Texture2D B : register(t1);\n"
    "SamplerState SA { Filter = MIN_MAG_MIP_POINT; };\n"
    "SamplerState SB { Filter = MIN_MAG_MIP_POINT; };\n"
    "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
    "float4 PS(float4 p : SV_Position) : SV_Target0 { return A.Sample(SA, p.xy) + B.Sample(SB, p.xy); }\n"
    "technique T { pass { VertexShader = compile vs_4_0 VS(); PixelShader = compile ps_4_0 PS(); } }\n";

/* A pass whose second texture was destroyed fails by name and leaves every slot's texture and
 * sampler state as they were (the first texture and its declared state are not half-set). */
XGD_FIXTURE(hlsl_failed_apply_changes_nothing)
{
    xgd_device *dev = fx_device(t, 4, 4, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = ss_effect(t, dev, "two.fx", two_textures_fx);
    xgd_texture *a = NULL, *b = NULL, *mine = NULL;
    if (e != NULL) {
        a = ss_black_white(t, dev);
        b = ss_black_white(t, dev);
        mine = ss_black_white(t, dev);
        xgd_effect_parameter pa = { -1 }, pb = { -1 };
        CHECK_OK(xgd_effect_find_parameter(e, "A", &pa));
        CHECK_OK(xgd_effect_find_parameter(e, "B", &pb));
        CHECK_OK(xgd_effect_parameter_set_texture(e, pa, a));
        CHECK_OK(xgd_effect_parameter_set_texture(e, pb, b));
        xgd_texture_destroy(b);
        b = NULL;
        xgd_sampler_state *lc = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
        CHECK_OK(xgd_set_texture(dev, 0, mine));
        CHECK_OK(xgd_set_sampler_state(dev, 0, lc));
        CHECK_OK(xgd_set_sampler_state(dev, 1, lc));
        CHECK_RESULT(xgd_effect_pass_apply(e, 0, 0), XGD_ERROR_OBJECT_DISPOSED);
        CHECK(strstr(xgd_device_last_error(dev), "\"B\"") != NULL);
        xgd_texture *got = NULL;
        xgd_sampler_state *st = NULL;
        CHECK_OK(xgd_get_texture(dev, 0, &got));
        CHECK(got == mine);
        CHECK_OK(xgd_get_texture(dev, 1, &got));
        CHECK(got == NULL);
        CHECK_OK(xgd_get_sampler_state(dev, 0, &st));
        CHECK(st == lc);
        CHECK_OK(xgd_get_sampler_state(dev, 1, &st));
        CHECK(st == lc);
    }
    xgd_texture_destroy(a);
    xgd_texture_destroy(mine);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

static const char vertex_fetch_fx[] =
    "Texture2D Height : register(t0);\n"
    "SamplerState HS : register(s0);\n"
    "float4 VS(float3 pos : POSITION0, float2 uv : TEXCOORD0) : SV_Position\n"
    "{ return float4(pos.x, pos.y + Height.SampleLevel(HS, uv, 0).r, 0, 1); }\n"
    "float4 PS() : SV_Target0 { return 1; }\n"
    "technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/* Vertex texture fetch is point-sampled (XNA's HiDef) through the vertex stage's own slots:
 * apply gives VertexSamplerStates[0] the Point form of its state, and the pixel stage's
 * SamplerStates[0] keeps the user's LinearClamp (a later draw by another effect samples with it). */
XGD_FIXTURE(hlsl_vertex_fetch_keeps_sampler_state)
{
    xgd_device *dev = fx_device(t, 4, 4, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = ss_effect(t, dev, "vfetch.fx", vertex_fetch_fx);
    xgd_texture *h = NULL;
    if (e != NULL) {
        xgd_texture2d_desc td = { .width = 1, .height = 1, .format = XGD_SURFACE_FORMAT_SINGLE };
        CHECK_OK(xgd_texture2d_create(dev, &td, &h));
        xgd_effect_parameter p = { -1 };
        CHECK_OK(xgd_effect_find_parameter(e, "Height", &p));
        CHECK_OK(xgd_effect_parameter_set_texture(e, p, h));
        xgd_sampler_state *lc = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
        CHECK_OK(xgd_set_sampler_state(dev, 0, lc));
        xgd_result r = xgd_effect_pass_apply(e, 0, 0);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(dev));
        } else {
            CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
            xgd_sampler_state *st = NULL;
            CHECK_OK(xgd_get_sampler_state(dev, 0, &st));
            CHECK(st == lc);
            xgd_sampler_state *vst = NULL;
            xgd_sampler_desc vd;
            CHECK_OK(xgd_get_vertex_sampler_state(dev, 0, &vst));
            if (vst != NULL && xgd_sampler_state_get_desc(vst, &vd) == XGD_OK)
                CHECK_INT(vd.filter, XGD_FILTER_POINT);
            else
                CHECK_MSG(false, "no vertex sampler state in slot 0");
        }
    }
    xgd_texture_destroy(h);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
