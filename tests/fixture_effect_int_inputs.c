/*
 * Effects loaded from bytes read Byte4 and Short2 vertex elements as float values (Direct3D 9:
 * 0..255 and -32768..32767, not normalised), on every renderer: Direct3D 12, whose formats for
 * them are integer (no USCALED/SSCALED in DXGI), converts them in the translated shader.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

typedef struct int_vertex {
    xgd_vector3 position;
    uint8_t bytes[4];
    int16_t shorts[2];
} int_vertex;

/* colour = (Byte4.x / 200, Byte4.w / 200, Short2.x / 200 + 0.5, -Short2.y / 200): the vertex
 * (200, _, _, 100) and (-60, -100) gives (1, 0.5, 0.2, 0.5). */
XGD_FIXTURE(effect_fx_byte4_short2_inputs)
{
    const int W = 8, H = 8;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    char err[256] = "";
    fxw *w = fxw_create();
    int te = fxw_technique(w, "T");
    int pa = fxw_pass(w, te, "P");
    fxw_render_state(w, te, pa, FXW_RS_CULLMODE, 1);
    static const char vs[] = "vs_2_0\ndef c0, 0.005, -0.005, 0.5, 0\ndcl_position v0\n"
                             "dcl_blendindices v1\ndcl_texcoord v2\nmov oPos, v0\n"
                             "mul r0.x, v1.x, c0.x\nmul r0.y, v1.w, c0.x\nmad r0.z, v2.x, c0.x, c0.z\n"
                             "mul r0.w, v2.y, c0.y\nmov oD0, r0\n";
    static const char ps[] = "ps_2_0\ndcl v0\nmov oC0, v0\n";
    bool ok = fxw_shader(w, te, pa, true, vs, NULL, 0, err, sizeof err) &&
              fxw_shader(w, te, pa, false, ps, NULL, 0, err, sizeof err);
    size_t n = 0;
    uint8_t *b = ok ? fxw_finish(w, false, &n) : NULL;
    fxw_destroy(w);
    CHECK_MSG(b != NULL, "fx writer: %s", err);
    REQUIRE(b != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, b, n, &e));
    xgd_vertex_element el[3] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_BYTE4, XGD_VERTEX_USAGE_BLEND_INDICES, 0 },
                                 { 16, XGD_VERTEX_FORMAT_SHORT2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 } };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 3, (int)sizeof(int_vertex), &decl));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 0 }));
    xgd_result r = xgd_effect_apply(e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
    } else {
        CHECK_MSG(r == XGD_OK, "apply: %s", xgd_device_last_error(dev));
        int_vertex v[3] = { { { -1, 1, 0 }, { 200, 7, 9, 100 }, { -60, -100 } },
                            { { 3, 1, 0 }, { 200, 7, 9, 100 }, { -60, -100 } },
                            { { -1, -3, 0 }, { 200, 7, 9, 100 }, { -60, -100 } } };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1, decl));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            xgd_color c = fx_get(img, W, 4, 4);
            int want[4] = { 255, fx_q8(0.5), fx_q8(0.2), fx_q8(0.5) };
            CHECK_MSG(abs(c.r - want[0]) <= 1 && abs(c.g - want[1]) <= 1 && abs(c.b - want[2]) <= 1 &&
                          abs(c.a - want[3]) <= 1,
                      "got (%d,%d,%d,%d), expected (%d,%d,%d,%d)", c.r, c.g, c.b, c.a, want[0], want[1],
                      want[2], want[3]);
            free(img);
        }
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_effect_destroy(e);
    free(b);
    xgd_device_destroy(dev);
}

