/*
 * XNA's AlphaTestEffect, DualTextureEffect, EnvironmentMapEffect and SkinnedEffect (compiled
 * HLSL effects, .xfx, built into xgd, so every build has them, MojoShader or not). Expected
 * pixels follow from XNA's formulas for each effect, computed here in doubles; bad input gets
 * named errors and changes nothing.
 */
#include "fixture_util.h"
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static bool apply_or_skip(xgdt_ctx *t, xgd_device *dev, xgd_effect *e)
{
    xgd_result r = xgd_effect_apply(e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

static xgd_texture *solid_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, const uint8_t *rgba)
{
    xgd_texture *tex = NULL;
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = w, .height = h }, &tex));
    if (tex != NULL)
        CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, rgba,
                                      (size_t)w * (size_t)h * 4));
    return tex;
}

static void set_texture(xgdt_ctx *t, xgd_effect *e, const char *name, xgd_texture *tex)
{
    xgd_effect_parameter p = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, name, &p));
    CHECK_OK(xgd_effect_parameter_set_texture(e, p, tex));
}

static void point_clamp(xgdt_ctx *t, xgd_device *dev, int slot)
{
    CHECK_OK(xgd_set_sampler_state(dev, slot, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
}

/* got within tol of want (0..1 values quantised as an 8-bit target stores them), rgb. */
static void check_rgb(xgdt_ctx *t, const char *what, xgd_color got, double r, double g, double b,
                      int tol)
{
    int w[3] = { fx_q8(r), fx_q8(g), fx_q8(b) };
    CHECK_MSG(abs(got.r - w[0]) <= tol && abs(got.g - w[1]) <= tol && abs(got.b - w[2]) <= tol,
              "%s: got (%d,%d,%d), expected (%d,%d,%d)", what, got.r, got.g, got.b, w[0], w[1], w[2]);
}

static double lerp(double a, double b, double f) { return a + (b - a) * f; }

/* ---- AlphaTestEffect -------------------------------------------------------------------------- */

/* A full-screen quad (uv 0..1 left to right, top to bottom) of vertex colour c. */
static void screen_quad(xgd_vertex_position_color_texture v[6], xgd_color c)
{
    const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
    const float us[4] = { 0, 1, 1, 0 }, vs[4] = { 0, 0, 1, 1 };
    xgd_vertex_position_color_texture q[4];
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ xs[i], ys[i], 0 };
        q[i].color = c;
        q[i].texture_coordinate = (xgd_vector2){ us[i], vs[i] };
    }
    xgd_vertex_position_color_texture tri[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    memcpy(v, tri, sizeof tri);
}

static bool compare8(xgd_compare_function f, int a, int ref)
{
    switch (f) {
    case XGD_COMPARE_NEVER: return false;
    case XGD_COMPARE_LESS: return a < ref;
    case XGD_COMPARE_LESS_EQUAL: return a <= ref;
    case XGD_COMPARE_EQUAL: return a == ref;
    case XGD_COMPARE_GREATER_EQUAL: return a >= ref;
    case XGD_COMPARE_GREATER: return a > ref;
    case XGD_COMPARE_NOT_EQUAL: return a != ref;
    default: return true;
    }
}

/* Texels of alpha 100, 127, 128 and 129 in four columns, ReferenceAlpha 128: under each
 * AlphaFunction a column keeps the texel's colour exactly where `alpha <function> 128` holds
 * for the 8-bit values (XNA's half-step threshold), and the clear colour elsewhere. */
XGD_FIXTURE(stock_alpha_test_functions)
{
    const int W = 32, H = 8;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_alpha_test_effect_create(dev, &e);
    REQUIRE_OK(r);
    const int alphas[4] = { 100, 127, 128, 129 };
    uint8_t texels[16];
    for (int i = 0; i < 4; i++) {
        texels[i * 4 + 0] = (uint8_t)(60 * i + 40);
        texels[i * 4 + 1] = 200;
        texels[i * 4 + 2] = (uint8_t)(250 - 50 * i);
        texels[i * 4 + 3] = (uint8_t)alphas[i];
    }
    xgd_texture *tex = solid_texture(t, dev, 4, 1, texels);
    set_texture(t, e, "Texture", tex);
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    const xgd_compare_function fns[8] = { XGD_COMPARE_ALWAYS, XGD_COMPARE_NEVER, XGD_COMPARE_LESS,
                                          XGD_COMPARE_LESS_EQUAL, XGD_COMPARE_EQUAL,
                                          XGD_COMPARE_GREATER_EQUAL, XGD_COMPARE_GREATER,
                                          XGD_COMPARE_NOT_EQUAL };
    xgd_alpha_test_effect_params p;
    CHECK_OK(xgd_alpha_test_effect_get(e, &p));
    p.reference_alpha = 128;
    for (int f = 0; f < 8; f++) {
        p.alpha_function = fns[f];
        CHECK_OK(xgd_alpha_test_effect_set(e, &p));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        point_clamp(t, dev, 0);
        if (!apply_or_skip(t, dev, e)) break;
        xgd_vertex_position_color_texture v[6];
        screen_quad(v, (xgd_color){ 255, 255, 255, 255 });
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        uint8_t *img = NULL;
        if (!xgdt_read_back_buffer(t, dev, W, H, &img)) break;
        for (int c = 0; c < 4; c++) {
            xgd_color got = fx_get(img, W, c * 8 + 4, 4);
            bool pass = compare8(fns[f], alphas[c], 128);
            char what[64];
            snprintf(what, sizeof what, "function %d, alpha %d (%s)", (int)fns[f], alphas[c],
                     pass ? "kept" : "discarded");
            if (pass)
                check_rgb(t, what, got, texels[c * 4] / 255.0, 200 / 255.0, texels[c * 4 + 2] / 255.0, 1);
            else
                check_rgb(t, what, got, 0, 0, 0, 0);
        }
        free(img);
    }
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* VertexColorEnabled, DiffuseColor * Alpha and fog: colour = texel * DiffuseColor * Alpha *
 * vertex colour, then rgb = lerp(rgb, FogColor * a, f) with f = (z + FogStart) / (FogStart -
 * FogEnd) for identity matrices (z = 0: f = 0.25 for FogStart -1, FogEnd 3). */
XGD_FIXTURE(stock_alpha_test_vertex_color_and_fog)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_alpha_test_effect_create(dev, &e);
    REQUIRE_OK(r);
    const uint8_t texel[4] = { 200, 160, 100, 255 };
    xgd_texture *tex = solid_texture(t, dev, 1, 1, texel);
    set_texture(t, e, "Texture", tex);
    xgd_alpha_test_effect_params p;
    CHECK_OK(xgd_alpha_test_effect_get(e, &p));
    p.vertex_color_enabled = true;
    p.diffuse_color = (xgd_vector3){ 1, 0.5f, 1 };
    p.alpha = 0.8f;
    p.fog_enabled = true;
    p.fog_start = -1;
    p.fog_end = 3;
    p.fog_color = (xgd_vector3){ 0, 0, 1 };
    p.alpha_function = XGD_COMPARE_ALWAYS;
    CHECK_OK(xgd_alpha_test_effect_set(e, &p));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e)) {
        const xgd_color vc = { 255, 128, 64, 255 };
        xgd_vertex_position_color_texture v[6];
        screen_quad(v, vc);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            const double a = 0.8, f = 0.25;
            double c[3] = { texel[0] / 255.0 * 1.0 * a * vc.r / 255.0,
                            texel[1] / 255.0 * 0.5 * a * vc.g / 255.0,
                            texel[2] / 255.0 * 1.0 * a * vc.b / 255.0 };
            const double fog[3] = { 0, 0, 1 };
            check_rgb(t, "centre", fx_get(img, W, 8, 8), lerp(c[0], fog[0] * a, f),
                      lerp(c[1], fog[1] * a, f), lerp(c[2], fog[2] * a, f), 2);
            free(img);
        }
    }
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* ---- DualTextureEffect ------------------------------------------------------------------------ */

typedef struct dual_vertex {
    xgd_vector3 position;
    xgd_color color;
    xgd_vector2 uv0, uv1;
} dual_vertex;

/* colour = Texture(uv) * 2 * Texture2(uv2) * DiffuseColor * vertex colour (modulate2x), alpha
 * the product of the alphas; uv2 runs right to left, so each quadrant pairs texel q of Texture
 * with the horizontally mirrored texel of Texture2. */
XGD_FIXTURE(stock_dual_texture_modulate2x)
{
    const int W = 32, H = 32;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_dual_texture_effect_create(dev, &e);
    REQUIRE_OK(r);
    const uint8_t t1[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 200, 200, 200, 255 };
    const uint8_t t2[16] = { 128, 128, 128, 255, 64, 255, 32, 255, 255, 96, 128, 255, 100, 50, 200, 255 };
    xgd_texture *a = solid_texture(t, dev, 2, 2, t1), *b = solid_texture(t, dev, 2, 2, t2);
    set_texture(t, e, "Texture", a);
    set_texture(t, e, "Texture2", b);
    xgd_dual_texture_effect_params p;
    CHECK_OK(xgd_dual_texture_effect_get(e, &p));
    p.vertex_color_enabled = true;
    p.diffuse_color = (xgd_vector3){ 1, 0.75f, 0.5f };
    CHECK_OK(xgd_dual_texture_effect_set(e, &p));
    xgd_vertex_element el[4] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
                                 { 16, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
                                 { 24, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 1 } };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 4, (int)sizeof(dual_vertex), &decl));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    point_clamp(t, dev, 0);
    point_clamp(t, dev, 1);
    const xgd_color vc = { 255, 255, 128, 255 };
    if (apply_or_skip(t, dev, e)) {
        const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
        const float us[4] = { 0, 1, 1, 0 }, vs[4] = { 0, 0, 1, 1 };
        dual_vertex q[4];
        for (int i = 0; i < 4; i++)
            q[i] = (dual_vertex){ { xs[i], ys[i], 0 }, vc, { us[i], vs[i] }, { 1 - us[i], vs[i] } };
        dual_vertex v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2, decl));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            const int px[4][2] = { { 8, 8 }, { 24, 8 }, { 8, 24 }, { 24, 24 } };
            const int mirror[4] = { 1, 0, 3, 2 };
            const double diff[3] = { 1, 0.75, 0.5 }, vcol[3] = { 1, 1, 128 / 255.0 };
            for (int q4 = 0; q4 < 4; q4++) {
                const uint8_t *x1 = t1 + q4 * 4, *x2 = t2 + mirror[q4] * 4;
                double want[3];
                for (int c = 0; c < 3; c++)
                    want[c] = 2.0 * (x1[c] / 255.0) * (x2[c] / 255.0) * diff[c] * vcol[c];
                char what[32];
                snprintf(what, sizeof what, "quadrant %d", q4);
                check_rgb(t, what, fx_get(img, W, px[q4][0], px[q4][1]), want[0], want[1], want[2], 2);
            }
            free(img);
        }
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(a);
    xgd_texture_destroy(b);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* ---- EnvironmentMapEffect --------------------------------------------------------------------- */

/* A screen-filling quad at z = 0 facing the camera (normal +z), the eye at (0, 0, 2) (View =
 * translation (0, 0, -2), Projection = translation (0, 0, 2), so positions reach clip space
 * unchanged). At every corner E = normalize((0,0,2) - (+-1,+-1,0)), dot(E, N) = 2 / sqrt(6), and
 * reflect(-E, N) points into the cube's +Z face, so the whole quad reads that face. Light 0
 * shines along -z (dot(N, -L) = 1): diffuse = LightDiffuse * DiffuseColor + EmissiveColor +
 * Ambient * DiffuseColor. colour = texel * diffuse; env = +Z face * colour.a; rgb =
 * lerp(rgb, env, amount) + EnvironmentMapSpecular * env.a, amount = pow(1 - dot(E, N),
 * FresnelFactor) * EnvironmentMapAmount (FresnelFactor 0: EnvironmentMapAmount). */
XGD_FIXTURE(stock_environment_map_fresnel)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_environment_map_effect_create(dev, &e);
    REQUIRE_OK(r);
    const uint8_t texel[4] = { 200, 100, 50, 255 };
    xgd_texture *tex = solid_texture(t, dev, 1, 1, texel);
    xgd_texture *cube = NULL;
    REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 1 }, &cube));
    const uint8_t faces[6][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
                                  { 255, 255, 0, 255 }, { 20, 220, 140, 255 }, { 255, 0, 255, 255 } };
    for (int f = 0; f < 6; f++)
        CHECK_OK(xgd_texture_set_data(cube, 0, (xgd_cube_map_face)f, NULL, faces[f], 4));
    set_texture(t, e, "Texture", tex);
    set_texture(t, e, "EnvironmentMap", cube);
    xgd_environment_map_effect_params p;
    CHECK_OK(xgd_environment_map_effect_get(e, &p));
    p.view = xgd_matrix_create_translation(0, 0, -2);
    p.projection = xgd_matrix_create_translation(0, 0, 2);
    p.lights[0] = (xgd_directional_light){ true, { 0, 0, -3 }, { 0.5f, 0.5f, 0.5f }, { 0, 0, 0 } };
    p.emissive_color = (xgd_vector3){ 0.1f, 0, 0 };
    p.ambient_light_color = (xgd_vector3){ 0, 0.2f, 0 };
    p.environment_map_specular = (xgd_vector3){ 0.1f, 0, 0.05f };
    p.fresnel_factor = 1;
    p.environment_map_amount = 1;
    CHECK_OK(xgd_environment_map_effect_set(e, &p));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    const double dot_en = 2.0 / sqrt(6.0);
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            p.fresnel_factor = 0;
            p.environment_map_amount = 0.5f;
            CHECK_OK(xgd_environment_map_effect_set(e, &p));
        }
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        point_clamp(t, dev, 0);
        point_clamp(t, dev, 1);
        if (!apply_or_skip(t, dev, e)) break;
        const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
        xgd_vertex_position_normal_texture q[4];
        for (int i = 0; i < 4; i++)
            q[i] = (xgd_vertex_position_normal_texture){ { xs[i], ys[i], 0 }, { 0, 0, 1 }, { 0, 0 } };
        xgd_vertex_position_normal_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE)));
        uint8_t *img = NULL;
        if (!xgdt_read_back_buffer(t, dev, W, H, &img)) break;
        const double diffuse[3] = { 0.5 + 0.1, 0.5 + 0.2, 0.5 };
        const double amount = round == 0 ? pow(1.0 - dot_en, 1.0) * 1.0 : 0.5;
        const uint8_t *env = faces[XGD_CUBE_MAP_FACE_POSITIVE_Z];
        const double spec[3] = { 0.1, 0, 0.05 };
        double want[3];
        for (int c = 0; c < 3; c++) {
            double col = texel[c] / 255.0 * diffuse[c];
            want[c] = lerp(col, env[c] / 255.0, amount) + spec[c] * 1.0;
        }
        check_rgb(t, round == 0 ? "Fresnel 1" : "Fresnel 0, amount 0.5", fx_get(img, W, 8, 8),
                  want[0], want[1], want[2], 2);
        check_rgb(t, "corner", fx_get(img, W, 1, 1), want[0], want[1], want[2], 2);
        free(img);
    }
    xgd_texture_destroy(tex);
    xgd_texture_destroy(cube);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* ---- SkinnedEffect ---------------------------------------------------------------------------- */

typedef struct skin_vertex {
    xgd_vector3 position, normal;
    xgd_vector2 uv;
    uint8_t indices[4];
    float weights[4];
} skin_vertex;

static xgd_vertex_declaration *skin_decl(xgdt_ctx *t, xgd_device *dev)
{
    xgd_vertex_element el[5] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_NORMAL, 0 },
                                 { 24, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
                                 { 32, XGD_VERTEX_FORMAT_BYTE4, XGD_VERTEX_USAGE_BLEND_INDICES, 0 },
                                 { 36, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_BLEND_WEIGHT, 0 } };
    xgd_vertex_declaration *decl = NULL;
    CHECK_OK(xgd_vertex_declaration_create(dev, el, 5, (int)sizeof(skin_vertex), &decl));
    return decl;
}

/* A quad x, y in -0.25..0.25 whose every vertex names bones (0, 5, 71, 2) with weights
 * (0.5, 0.25, 0.125, 0.125); the bones translate by t0 = (-0.5, 0, 0), t5 = (0, 0.5, 0),
 * t71 = (0.5, 0.5, 0), t2 = (0, -0.5, 0). Skinning with the first n weights: position.xyz =
 * sum_i w_i * (position * Bone_i) = (sum w_i) * position + sum w_i * t_i (XNA does not
 * renormalise): n = 1: 0.5 p + (-0.25, 0); n = 2: 0.75 p + (-0.25, 0.125); n = 4: p +
 * (-0.1875, 0.125 + 0.0625 - 0.0625). Light 0 along -z on normal +z: colour = texel *
 * (LightDiffuse * DiffuseColor + Ambient * DiffuseColor + Emissive), specular zero. */
XGD_FIXTURE(stock_skinned_weights_per_vertex)
{
    const int W = 64, H = 64;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_skinned_effect_create(dev, &e);
    REQUIRE_OK(r);
    const uint8_t texel[4] = { 255, 200, 100, 255 };
    xgd_texture *tex = solid_texture(t, dev, 1, 1, texel);
    set_texture(t, e, "Texture", tex);
    xgd_vertex_declaration *decl = skin_decl(t, dev);
    REQUIRE(decl != NULL);
    xgd_matrix bones[72];
    for (int i = 0; i < 72; i++) bones[i] = xgd_matrix_create_translation(9, 9, 0); /* off screen */
    bones[0] = xgd_matrix_create_translation(-0.5f, 0, 0);
    bones[5] = xgd_matrix_create_translation(0, 0.5f, 0);
    bones[71] = xgd_matrix_create_translation(0.5f, 0.5f, 0);
    bones[2] = xgd_matrix_create_translation(0, -0.5f, 0);
    CHECK_OK(xgd_skinned_effect_set_bone_transforms(e, bones, 72));
    xgd_skinned_effect_params p;
    CHECK_OK(xgd_skinned_effect_get(e, &p));
    p.diffuse_color = (xgd_vector3){ 1, 0.5f, 0.8f };
    p.ambient_light_color = (xgd_vector3){ 0.25f, 0.25f, 0 };
    p.emissive_color = (xgd_vector3){ 0, 0, 0.1f };
    p.lights[0] = (xgd_directional_light){ true, { 0, 0, -1 }, { 0.5f, 0.5f, 0.5f }, { 0, 0, 0 } };
    p.view = xgd_matrix_create_translation(0, 0, -2);
    p.projection = xgd_matrix_create_translation(0, 0, 2);
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    const int counts[3] = { 1, 2, 4 };
    const double scale[3] = { 0.5, 0.75, 1.0 };
    const double off[3][2] = { { -0.25, 0 }, { -0.25, 0.125 }, { -0.1875, 0.125 } };
    for (int m = 0; m < 3; m++) {
        p.weights_per_vertex = counts[m];
        CHECK_OK(xgd_skinned_effect_set(e, &p));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        if (!apply_or_skip(t, dev, e)) break;
        const float xs[4] = { -0.25f, 0.25f, 0.25f, -0.25f }, ys[4] = { 0.25f, 0.25f, -0.25f, -0.25f };
        skin_vertex q[4];
        for (int i = 0; i < 4; i++)
            q[i] = (skin_vertex){ { xs[i], ys[i], 0 }, { 0, 0, 1 }, { 0, 0 }, { 0, 5, 71, 2 },
                                  { 0.5f, 0.25f, 0.125f, 0.125f } };
        skin_vertex v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
        xgd_result dr = xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2, decl);
        CHECK_MSG(dr == XGD_OK, "draw: %s %s", xgd_result_name(dr), xgd_device_last_error(dev));
        uint8_t *img = NULL;
        if (!xgdt_read_back_buffer(t, dev, W, H, &img)) break;
        /* expected rectangle in NDC, then pixels (D3D10 centres: x_pixel = (ndc + 1) * W / 2) */
        double x0 = -0.25 * scale[m] + off[m][0], x1 = 0.25 * scale[m] + off[m][0];
        double y0 = -0.25 * scale[m] + off[m][1], y1 = 0.25 * scale[m] + off[m][1];
        double px0 = (x0 + 1) * W / 2, px1 = (x1 + 1) * W / 2;
        double py0 = (1 - y1) * H / 2, py1 = (1 - y0) * H / 2;
        const double lit[3] = { 0.5 * 1 + 0.25 * 1, 0.5 * 0.5 + 0.25 * 0.5, 0.5 * 0.8 + 0.1 };
        int bad = 0;
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                double cx = x + 0.5, cy = y + 0.5;
                /* skip pixels whose centre is within a pixel of an edge */
                bool in = cx > px0 + 1 && cx < px1 - 1 && cy > py0 + 1 && cy < py1 - 1;
                bool out = cx < px0 - 1 || cx > px1 + 1 || cy < py0 - 1 || cy > py1 + 1;
                if (!in && !out) continue;
                xgd_color got = fx_get(img, W, x, y);
                double want[3] = { 0, 0, 0 };
                if (in)
                    for (int c = 0; c < 3; c++) want[c] = texel[c] / 255.0 * lit[c];
                int w8[3] = { fx_q8(want[0]), fx_q8(want[1]), fx_q8(want[2]) };
                if (abs(got.r - w8[0]) > 2 || abs(got.g - w8[1]) > 2 || abs(got.b - w8[2]) > 2) {
                    if (bad++ < 4)
                        CHECK_MSG(false, "%d weights: pixel (%d,%d) got (%d,%d,%d), expected (%d,%d,%d)",
                                  counts[m], x, y, got.r, got.g, got.b, w8[0], w8[1], w8[2]);
                }
            }
        }
        if (bad != 0) {
            int bx0 = W, by0 = H, bx1 = -1, by1 = -1;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++)
                    if (fx_get(img, W, x, y).r != 0) {
                        bx0 = x < bx0 ? x : bx0; bx1 = x > bx1 ? x : bx1;
                        by0 = y < by0 ? y : by0; by1 = y > by1 ? y : by1;
                    }
            CHECK_MSG(false, "%d weights: %d pixels differ; drawn x %d..%d y %d..%d, expected x %.1f..%.1f y %.1f..%.1f",
                      counts[m], bad, bx0, bx1, by0, by1, px0, px1, py0, py1);
        }
        free(img);
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* Lighting per vertex and per pixel (PreferPerPixelLighting), with one bone (the identity,
 * weight 1) so every renderer reads the blend index 0: a screen-filling quad at z = 0, normal
 * +z, the eye at (0, 0, 2), light 0 along -z with diffuse 0.5 and specular 1, SpecularColor 0.5,
 * SpecularPower 8, DiffuseColor (1, 0.5, 0.25), a white texture, fog factor 0.25 towards blue
 * (FogStart 1, FogEnd 5: (z * wv.m33 + wv.m43 + FogStart) / (FogStart - FogEnd) with
 * wv.m43 = -2). Per pixel, at the pixel's world position p: E = normalize((0,0,2) - p),
 * H = normalize(E - L), specular = pow(H.z, 8) * 0.5; per vertex, the four corners have the same
 * specular (symmetry), so every pixel holds the corners' value. colour = diffuse + specular,
 * then rgb = lerp(rgb, (0, 0, 1), 0.25). */
XGD_FIXTURE(stock_skinned_vertex_and_pixel_lighting)
{
    const int W = 32, H = 32;
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_skinned_effect_create(dev, &e);
    REQUIRE_OK(r);
    const uint8_t white[4] = { 255, 255, 255, 255 };
    xgd_texture *tex = solid_texture(t, dev, 1, 1, white);
    set_texture(t, e, "Texture", tex);
    xgd_vertex_declaration *decl = skin_decl(t, dev);
    REQUIRE(decl != NULL);
    xgd_skinned_effect_params p;
    CHECK_OK(xgd_skinned_effect_get(e, &p));
    p.weights_per_vertex = 1;
    p.diffuse_color = (xgd_vector3){ 1, 0.5f, 0.25f };
    p.specular_color = (xgd_vector3){ 0.5f, 0.5f, 0.5f };
    p.specular_power = 8;
    p.lights[0] = (xgd_directional_light){ true, { 0, 0, -1 }, { 0.5f, 0.5f, 0.5f }, { 1, 1, 1 } };
    p.view = xgd_matrix_create_translation(0, 0, -2);
    p.projection = xgd_matrix_create_translation(0, 0, 2);
    p.fog_enabled = true;
    p.fog_start = 1;
    p.fog_end = 5;
    p.fog_color = (xgd_vector3){ 0, 0, 1 };
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    const double diffuse[3] = { 0.5, 0.25, 0.125 }, fog = 0.25, fogc[3] = { 0, 0, 1 };
    for (int per_pixel = 0; per_pixel < 2; per_pixel++) {
        p.prefer_per_pixel_lighting = per_pixel != 0;
        CHECK_OK(xgd_skinned_effect_set(e, &p));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        if (!apply_or_skip(t, dev, e)) break;
        const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
        skin_vertex q[4];
        for (int i = 0; i < 4; i++)
            q[i] = (skin_vertex){ { xs[i], ys[i], 0 }, { 0, 0, 1 }, { 0, 0 }, { 0, 0, 0, 0 }, { 1, 0, 0, 0 } };
        skin_vertex v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2, decl));
        uint8_t *img = NULL;
        if (!xgdt_read_back_buffer(t, dev, W, H, &img)) break;
        const int px[4][2] = { { 16, 16 }, { 1, 1 }, { 16, 1 }, { 30, 20 } };
        for (int k = 0; k < 4; k++) {
            double x = (px[k][0] + 0.5) / W * 2 - 1, y = 1 - (px[k][1] + 0.5) / H * 2;
            if (!per_pixel) x = y = 1; /* the corners' value */
            double ex = -x, ey = -y, ez = 2, el = sqrt(ex * ex + ey * ey + ez * ez);
            ex /= el, ey /= el, ez /= el;
            double hx = ex, hy = ey, hz = ez + 1, hl = sqrt(hx * hx + hy * hy + hz * hz);
            double spec = pow(hz / hl, 8) * 0.5;
            double want[3];
            for (int c = 0; c < 3; c++) want[c] = lerp(diffuse[c] + spec, fogc[c], fog);
            char what[64];
            snprintf(what, sizeof what, "%s, pixel (%d,%d)", per_pixel ? "per pixel" : "per vertex",
                     px[k][0], px[k][1]);
            check_rgb(t, what, fx_get(img, W, px[k][0], px[k][1]), want[0], want[1], want[2], 2);
        }
        free(img);
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* ---- properties and bad input ------------------------------------------------------------------ */

static xgd_device *unit_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    return xgdt_device(t, &dd);
}

static bool identity(const xgd_matrix *m)
{
    xgd_matrix id = xgd_matrix_identity();
    return memcmp(m->m, id.m, sizeof id.m) == 0;
}

/* New effects hold XNA's defaults; clones keep the properties. */
XGD_TEST(stock_effects_defaults_and_clone)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *at = NULL, *dt = NULL, *em = NULL, *sk = NULL;
    REQUIRE_OK(xgd_alpha_test_effect_create(dev, &at));
    REQUIRE_OK(xgd_dual_texture_effect_create(dev, &dt));
    REQUIRE_OK(xgd_environment_map_effect_create(dev, &em));
    REQUIRE_OK(xgd_skinned_effect_create(dev, &sk));
    xgd_alpha_test_effect_params ap;
    CHECK_OK(xgd_alpha_test_effect_get(at, &ap));
    CHECK(identity(&ap.world) && identity(&ap.view) && identity(&ap.projection));
    CHECK_INT(ap.alpha_function, XGD_COMPARE_GREATER);
    CHECK_INT(ap.reference_alpha, 0);
    CHECK(ap.alpha == 1 && ap.diffuse_color.x == 1 && ap.fog_end == 1 && !ap.fog_enabled &&
          !ap.vertex_color_enabled);
    xgd_dual_texture_effect_params dp;
    CHECK_OK(xgd_dual_texture_effect_get(dt, &dp));
    CHECK(dp.alpha == 1 && dp.diffuse_color.y == 1 && !dp.vertex_color_enabled);
    xgd_environment_map_effect_params ep;
    CHECK_OK(xgd_environment_map_effect_get(em, &ep));
    CHECK(ep.environment_map_amount == 1 && ep.fresnel_factor == 1 &&
          ep.environment_map_specular.x == 0 && ep.lights[0].enabled && !ep.lights[1].enabled &&
          ep.lights[0].direction.y == -1);
    xgd_skinned_effect_params sp;
    CHECK_OK(xgd_skinned_effect_get(sk, &sp));
    CHECK_INT(sp.weights_per_vertex, 4);
    CHECK(sp.specular_power == 16 && sp.specular_color.z == 1 && sp.lights[0].enabled);
    xgd_matrix bones[72];
    CHECK_OK(xgd_skinned_effect_get_bone_transforms(sk, bones, 72));
    CHECK(identity(&bones[0]) && identity(&bones[71]));

    ap.reference_alpha = 77;
    ap.alpha_function = XGD_COMPARE_NOT_EQUAL;
    CHECK_OK(xgd_alpha_test_effect_set(at, &ap));
    xgd_effect *clone = NULL;
    CHECK_OK(xgd_effect_clone(at, &clone));
    xgd_alpha_test_effect_params cp;
    CHECK_OK(xgd_alpha_test_effect_get(clone, &cp));
    CHECK_INT(cp.reference_alpha, 77);
    CHECK_INT(cp.alpha_function, XGD_COMPARE_NOT_EQUAL);
    xgd_effect_destroy(clone);
    xgd_effect_destroy(at);
    xgd_effect_destroy(dt);
    xgd_effect_destroy(em);
    xgd_effect_destroy(sk);
    xgd_device_destroy(dev);
}

/* Bad input: named errors with a message, nothing changed. */
XGD_TEST(stock_effects_bad_input)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *at = NULL, *sk = NULL, *basic = NULL;
    REQUIRE_OK(xgd_alpha_test_effect_create(dev, &at));
    REQUIRE_OK(xgd_skinned_effect_create(dev, &sk));
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));

    xgd_skinned_effect_params sp, before;
    CHECK_OK(xgd_skinned_effect_get(sk, &before));
    sp = before;
    sp.weights_per_vertex = 3;
    CHECK_RESULT(xgd_skinned_effect_set(sk, &sp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "WeightsPerVertex 3") != NULL);
    sp.weights_per_vertex = 0;
    CHECK_RESULT(xgd_skinned_effect_set(sk, &sp), XGD_ERROR_INVALID_ARGUMENT);
    sp = before;
    sp.specular_power = NAN;
    CHECK_RESULT(xgd_skinned_effect_set(sk, &sp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_skinned_effect_get(sk, &sp));
    CHECK(memcmp(&sp, &before, sizeof sp) == 0);
    int tech = -1;
    CHECK_OK(xgd_effect_get_current_technique(sk, &tech));
    CHECK_INT(tech, 2);

    xgd_matrix bones[73];
    for (int i = 0; i < 73; i++) bones[i] = xgd_matrix_create_translation(1, 2, 3);
    CHECK_RESULT(xgd_skinned_effect_set_bone_transforms(sk, bones, 73), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "73 bones") != NULL);
    CHECK_RESULT(xgd_skinned_effect_set_bone_transforms(sk, bones, 0), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_skinned_effect_set_bone_transforms(sk, NULL, 1), XGD_ERROR_INVALID_ARGUMENT);
    bones[3].m[5] = INFINITY;
    CHECK_RESULT(xgd_skinned_effect_set_bone_transforms(sk, bones, 4), XGD_ERROR_INVALID_ARGUMENT);
    xgd_matrix got[72];
    CHECK_OK(xgd_skinned_effect_get_bone_transforms(sk, got, 72));
    CHECK(identity(&got[0]) && identity(&got[3]));
    CHECK_RESULT(xgd_skinned_effect_get_bone_transforms(sk, got, 73), XGD_ERROR_INVALID_ARGUMENT);
    /* a partial set changes only those bones */
    CHECK_OK(xgd_skinned_effect_set_bone_transforms(sk, bones, 2));
    CHECK_OK(xgd_skinned_effect_get_bone_transforms(sk, got, 72));
    CHECK(got[1].m41 == 1 && got[1].m43 == 3 && identity(&got[2]));

    xgd_alpha_test_effect_params ap, abefore;
    CHECK_OK(xgd_alpha_test_effect_get(at, &abefore));
    ap = abefore;
    ap.reference_alpha = 256;
    CHECK_RESULT(xgd_alpha_test_effect_set(at, &ap), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "ReferenceAlpha 256") != NULL);
    ap = abefore;
    ap.alpha_function = XGD_COMPARE_DEFAULT;
    CHECK_RESULT(xgd_alpha_test_effect_set(at, &ap), XGD_ERROR_INVALID_ARGUMENT);
    ap.alpha_function = XGD_COMPARE_COUNT;
    CHECK_RESULT(xgd_alpha_test_effect_set(at, &ap), XGD_ERROR_INVALID_ARGUMENT);
    ap = abefore;
    ap.world.m[0] = NAN;
    CHECK_RESULT(xgd_alpha_test_effect_set(at, &ap), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_alpha_test_effect_set(at, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_alpha_test_effect_get(at, &ap));
    CHECK(memcmp(&ap, &abefore, sizeof ap) == 0);

    /* the wrong kind of effect */
    xgd_dual_texture_effect_params dp;
    CHECK_RESULT(xgd_dual_texture_effect_get(at, &dp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "not a DualTextureEffect") != NULL);
    CHECK_RESULT(xgd_alpha_test_effect_get(basic, &ap), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "not an AlphaTestEffect") != NULL);
    CHECK_RESULT(xgd_skinned_effect_set_bone_transforms(at, bones, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_alpha_test_effect_get(NULL, &ap), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_alpha_test_effect_create(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);

    /* destroyed */
    xgd_effect_destroy(at);
    CHECK_RESULT(xgd_alpha_test_effect_get(at, &ap), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_alpha_test_effect_set(at, &abefore), XGD_ERROR_OBJECT_DISPOSED);
    xgd_effect_destroy(sk);
    xgd_effect_destroy(basic);
    xgd_device_destroy(dev);
}

/* SkinnedEffect reads BlendIndices and BlendWeight: a declaration without them is a named
 * error at the draw, nothing drawn. */
XGD_FIXTURE(stock_skinned_missing_blend_inputs)
{
    const int W = 8, H = 8;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_skinned_effect_create(dev, &e);
    REQUIRE_OK(r);
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e)) {
        xgd_vertex_position_normal_texture v[3] = { { { -1, 1, 0 }, { 0, 0, 1 }, { 0, 0 } },
                                                     { { 1, 1, 0 }, { 0, 0, 1 }, { 0, 0 } },
                                                     { { -1, -1, 0 }, { 0, 0, 1 }, { 0, 0 } } };
        CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE)),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK(strstr(xgd_device_last_error(dev), "Blend") != NULL ||
              strstr(xgd_device_last_error(dev), "BLEND") != NULL);
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        fx_expect_back_buffer(t, dev, "stock_skinned_missing_blend_inputs", img, W, H, 0);
        free(img);
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

