/*
 * Direct3D 9 shader rules MojoShader's SPIR-V gets wrong and the shader form corrects
 * (src/shader/spirv_form.c): texldp on a 2D texture divides the coordinate by w, and ps_3_0's
 * vFace is positive on front faces and negative on back faces. Same pixels on every renderer.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

static xgd_effect *rule_effect(xgdt_ctx *t, xgd_device *dev, const char *vs, const char *ps)
{
    char err[256] = "";
    fxw *w = fxw_create();
    int te = fxw_technique(w, "T");
    int pa = fxw_pass(w, te, "P");
    fxw_render_state(w, te, pa, FXW_RS_CULLMODE, 1);
    bool ok = fxw_shader(w, te, pa, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, te, pa, false, ps, NULL, 0, err, sizeof err);
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
    xgd_result r = xgd_effect_apply(e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

typedef struct proj_vertex {
    xgd_vector3 position;
    xgd_vector4 uvzw;
} proj_vertex;

/* texldp with the coordinate (0.3, 0.1, 1, 0.4) on a 2x1 texture (red, green), point sampled:
 * dividing by w gives u = 0.75 (green); dividing by z would give u = 0.3 (red). */
XGD_FIXTURE(effect_fx_texldp_divides_by_w)
{
    const int W = 8, H = 8;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    static const char vs[] = "vs_2_0\ndcl_position v0\ndcl_texcoord v1\nmov oPos, v0\nmov oT0, v1\n";
    static const char ps[] = "ps_2_0\ndcl t0\ndcl_2d s0\ntexldp r0, t0, s0\nmov oC0, r0\n";
    xgd_effect *e = rule_effect(t, dev, vs, ps);
    REQUIRE(e != NULL);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 1 }, &tex));
    const uint8_t texels[8] = { 255, 0, 0, 255, 0, 255, 0, 255 };
    CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels, sizeof texels));
    xgd_vertex_element el[2] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 } };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 2, (int)sizeof(proj_vertex), &decl));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e)) {
        CHECK_OK(xgd_set_texture(dev, 0, tex));
        CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
        const xgd_vector4 c = { 0.3f, 0.1f, 1.0f, 0.4f };
        proj_vertex v[3] = { { { -1, 1, 0 }, c }, { { 3, 1, 0 }, c }, { { -1, -3, 0 }, c } };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1, decl));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            xgd_color got = fx_get(img, W, 4, 4);
            CHECK_MSG(got.r == 0 && got.g == 255 && got.b == 0, "got (%d,%d,%d), expected green (0,255,0)",
                      got.r, got.g, got.b);
            free(img);
        }
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* colour = vFace >= 0 ? red : green (cmp) with culling off: the left triangle is clockwise on
 * screen (XNA's front face), the right one counter-clockwise (a back face, vFace < 0). */
XGD_FIXTURE(effect_fx_vface_sign)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    static const char vs[] = "vs_3_0\ndcl_position v0\ndcl_position o0\nmov o0, v0\n";
    static const char ps[] = "ps_3_0\ndef c0, 1, 0, 0, 1\ndef c1, 0, 1, 0, 1\ndcl vFace\n"
                             "cmp r0, vFace, c0, c1\nmov oC0, r0\n";
    xgd_effect *e = rule_effect(t, dev, vs, ps);
    REQUIRE(e != NULL);
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e)) {
        const xgd_color white = { 255, 255, 255, 255 };
        xgd_vertex_position_color v[6] = { { { -1, 1, 0 }, white }, { { 0, 1, 0 }, white },
                                           { { -1, -1, 0 }, white }, { { 0, 1, 0 }, white },
                                           { { 0, -1, 0 }, white }, { { 1, 1, 0 }, white } };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            xgd_color front = fx_get(img, W, 2, 2), back = fx_get(img, W, 10, 2);
            CHECK_MSG(front.r == 255 && front.g == 0, "front face: got (%d,%d,%d), expected red",
                      front.r, front.g, front.b);
            CHECK_MSG(back.r == 0 && back.g == 255, "back face: got (%d,%d,%d), expected green",
                      back.r, back.g, back.b);
            free(img);
        }
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

