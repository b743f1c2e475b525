/*
 * An HLSL effect's array of column-major matrices (float4x3 M[3], SkinnedEffect's Bones shape)
 * indexed at run time: each element set through the Effect API reaches the shader as that
 * element (one register per column, three per element), not as a neighbour's columns.
 * Builds or renderers that cannot run HLSL effects answer NOT_SUPPORTED and the fixture skips.
 */
#include "fixture_util.h"
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const char matrix_array_src[] =
    "cbuffer P : register(b0) { float4x3 M[3]; int Index; };\n"
    "struct VSOut { float4 Color : COLOR0; float4 Position : SV_Position; };\n"
    "VSOut VS(float4 p : POSITION0)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.Position = float4(p.xyz, 1.0);\n"
    "    o.Color = float4(mul(float4(1.0, 1.0, 1.0, 1.0), M[Index]), 1.0);\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0 { return i.Color; }\n"
    "technique T { pass P0 { VertexShader = compile vs_4_0 VS(); PixelShader = compile ps_4_0 PS(); } }\n";

/* Element e holds only a translation row (e * 0.1, e * 0.2, e * 0.3) (the 3x3 part zero), so
 * float4(1, 1, 1, 1) * M[e] is that row: the whole target takes that colour. */
XGD_FIXTURE(hlsl_matrix_array_dynamic_index)
{
    const int W = 4, H = 4;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, matrix_array_src, strlen(matrix_array_src), "marray.fx", &e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return;
    }
    CHECK_MSG(r == XGD_OK, "create: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    if (r != XGD_OK) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_effect_parameter m, index;
    CHECK_OK(xgd_effect_find_parameter(e, "M", &m));
    CHECK_OK(xgd_effect_find_parameter(e, "Index", &index));
    for (int i = 0; i < 3; i++) {
        xgd_matrix v = xgd_matrix_create_translation(0.1f * (float)i, 0.2f * (float)i, 0.3f * (float)i);
        v.m11 = v.m22 = v.m33 = 0;
        xgd_effect_parameter el;
        CHECK_OK(xgd_effect_parameter_get_element(e, m, i, &el));
        CHECK_OK(xgd_effect_parameter_set_matrix(e, el, &v));
    }
    xgd_vertex_element pos = { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, &pos, 1, 12, &decl));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    const float tri[9] = { -1, -1, 0, -1, 3, 0, 3, -1, 0 };
    for (int i = 1; i < 3; i++) {
        CHECK_OK(xgd_effect_parameter_set_int(e, index, i));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        r = xgd_effect_apply(e);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(dev));
            break;
        }
        CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, decl));
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        xgd_color want = { fx_q8(0.1 * i), fx_q8(0.2 * i), fx_q8(0.3 * i), 255 };
        fx_fill(img, W, H, 0, 0, W, H, want);
        fx_expect_back_buffer(t, dev, i == 1 ? "hlsl_matrix_array_element_1" : "hlsl_matrix_array_element_2",
                              img, W, H, 1);
        free(img);
    }
    xgd_vertex_declaration_destroy(decl);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
