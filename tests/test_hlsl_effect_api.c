/*
 * HLSL effects through the public Effect API: bad source comes back as named errors carrying
 * the compiler's file:line messages and creates nothing; a build without the compiler answers
 * NOT_SUPPORTED by name; an effect compiled ahead of time (.xfx, the format xgd-fxc writes)
 * loads through xgd_effect_create with the same techniques and parameters.
 */
#include "harness.h"

#include "../shader/hlsl_program.h"

#include <stdlib.h>
#include <string.h>

static xgd_device *api_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    return xgdt_device(t, &dd);
}

static const char good_fx[] =
    "float4 Color;\n"
    "float4x3 Bones[2];\n"
    "float4 VS(float4 p : POSITION0) : SV_Position { return p + float4(mul(p, Bones[1]), 0); }\n"
    "float4 PS() : SV_Target { return Color; }\n"
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

#ifdef XGD_TEST_HAVE_GLSLANG
/* Creates from source and expects `code` with every `needle` in the device's message. */
static void expect_refused(xgdt_ctx *t, xgd_device *dev, const char *src, xgd_result code, const char *n1,
                           const char *n2)
{
    xgd_effect *e = (xgd_effect *)(uintptr_t)1;
    xgd_result r = xgd_effect_create_hlsl(dev, src, strlen(src), "bad.fx", &e);
    const char *msg = xgd_device_last_error(dev);
    CHECK_MSG(r == code, "expected %s, got %s: %s", xgd_result_name(code), xgd_result_name(r), msg);
    CHECK(e == NULL);
    CHECK_MSG(n1 == NULL || strstr(msg, n1) != NULL, "message lacks \"%s\": %s", n1, msg);
    CHECK_MSG(n2 == NULL || strstr(msg, n2) != NULL, "message lacks \"%s\": %s", n2, msg);
}
#endif

XGD_TEST(hlsl_effect_bad_source)
{
    xgd_device *dev = api_device(t);
    REQUIRE(dev != NULL);
#ifdef XGD_TEST_HAVE_GLSLANG
    /* a syntax error on line 3 */
    expect_refused(t, dev,
                   "float4 Color;\n"
                   "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
                   "float4 PS() : SV_Target { return Color +* 2; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n",
                   XGD_ERROR_INVALID_ARGUMENT, "bad.fx:3", NULL);
    /* a technique naming a function the source does not define */
    expect_refused(t, dev,
                   "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
                   "float4 PS() : SV_Target { return 1; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 Missing(); } }\n",
                   XGD_ERROR_INVALID_ARGUMENT, "Missing", NULL);
    /* an unknown semantic between the stages */
    expect_refused(t, dev,
                   "struct O { float4 p : SV_Position; float4 w : WIBBLE0; };\n"
                   "O VS(float4 p : POSITION0) { O o; o.p = p; o.w = p; return o; }\n"
                   "float4 PS(O i) : SV_Target { return i.w; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n",
                   XGD_ERROR_NOT_SUPPORTED, "WIBBLE0", NULL);
    /* a malformed technique block (unbalanced braces) */
    expect_refused(t, dev,
                   "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 VS();\n",
                   XGD_ERROR_INVALID_ARGUMENT, "bad.fx:", NULL);
    /* no technique */
    expect_refused(t, dev, "float4 PS() : SV_Target { return 1; }\n", XGD_ERROR_INVALID_ARGUMENT, "technique", NULL);
    /* a pass state xgd has no XNA state for */
    expect_refused(t, dev,
                   "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
                   "float4 PS() : SV_Target { return 1; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS();\n"
                   "  FogEnable = true; } }\n",
                   XGD_ERROR_NOT_SUPPORTED, "FogEnable", "line 4");
    /* NULL arguments */
    xgd_effect *e = NULL;
    CHECK_RESULT(xgd_effect_create_hlsl(dev, NULL, 0, "x", &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_create_hlsl(dev, good_fx, strlen(good_fx), "x", NULL), XGD_ERROR_INVALID_ARGUMENT);
#else
    xgd_effect *e = (xgd_effect *)(uintptr_t)1;
    CHECK_RESULT(xgd_effect_create_hlsl(dev, good_fx, strlen(good_fx), "good.fx", &e), XGD_ERROR_NOT_SUPPORTED);
    CHECK(e == NULL);
    CHECK(strstr(xgd_device_last_error(dev), "XGD_HLSL") != NULL);
    xgdt_not_supported(t, "built without the HLSL compiler (XGD_HLSL=OFF)");
#endif
    xgd_device_destroy(dev);
}

/* The missing entry point: the compiler names it. */
XGD_TEST(hlsl_effect_missing_entry_point)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "built without the HLSL compiler (XGD_HLSL=OFF)");
#else
    xgd_device *dev = api_device(t);
    REQUIRE(dev != NULL);
    expect_refused(t, dev,
                   "float4 PS() : SV_Target { return 1; }\n"
                   "technique T { pass P { VertexShader = compile vs_3_0 NoSuchVS(); PixelShader = compile ps_3_0 PS(); } }\n",
                   XGD_ERROR_INVALID_ARGUMENT, "NoSuchVS", NULL);
    xgd_device_destroy(dev);
#endif
}

/* Parameters of an HLSL effect: classes, types, shapes; an array of float4x3 matrices; values
 * round-trip; a clone keeps them; and the same effect from its .xfx image. */
XGD_TEST(hlsl_effect_parameters_and_xfx)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "built without the HLSL compiler (XGD_HLSL=OFF)");
#else
    xgd_device *dev = api_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create_hlsl(dev, good_fx, strlen(good_fx), "good.fx", &e));
    int count = 0;
    CHECK_OK(xgd_effect_get_parameter_count(e, &count));
    CHECK_INT(count, 2);
    xgd_effect_parameter color, bones, b1;
    CHECK_OK(xgd_effect_find_parameter(e, "Color", &color));
    CHECK_OK(xgd_effect_find_parameter(e, "Bones", &bones));
    xgd_effect_parameter_info info;
    CHECK_OK(xgd_effect_parameter_get_info(e, bones, &info));
    CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_MATRIX);
    CHECK_INT(info.rows, 4);
    CHECK_INT(info.columns, 3);
    CHECK_INT(info.element_count, 2);
    CHECK_OK(xgd_effect_parameter_get_element(e, bones, 1, &b1));
    xgd_matrix m, back;
    for (int i = 0; i < 16; i++) m.m[i] = (float)(i + 1);
    CHECK_OK(xgd_effect_parameter_set_matrix(e, b1, &m));
    CHECK_OK(xgd_effect_parameter_get_matrix(e, b1, &back));
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 3; c++) CHECK_NEAR(back.m[r * 4 + c], m.m[r * 4 + c], 0);
    CHECK_RESULT(xgd_effect_parameter_set_float(e, color, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_parameter_set_vector4(e, color, (xgd_vector4){ 1, 2, 3, 4 }));
    xgd_effect *c = NULL;
    CHECK_OK(xgd_effect_clone(e, &c));
    xgd_vector4 v = { 0, 0, 0, 0 };
    CHECK_OK(xgd_effect_parameter_get_vector4(c, color, &v));
    CHECK_NEAR(v.w, 4, 0);
    xgd_effect_destroy(c);
    xgd_effect_destroy(e);

    /* the .xfx image loads without compiling, through xgd_effect_create */
    xgdi_hlsl_program p;
    char *log = NULL;
    REQUIRE_OK(xgdi_hlsl_program_compile(good_fx, strlen(good_fx), "good.fx", &p, &log));
    free(log);
    void *bytes = NULL;
    size_t size = 0;
    REQUIRE_OK(xgdi_hlsl_program_save(&p, &bytes, &size));
    xgdi_hlsl_program_free(&p);
    e = NULL;
    CHECK_OK(xgd_effect_create(dev, bytes, size, &e));
    CHECK_OK(xgd_effect_get_parameter_count(e, &count));
    CHECK_INT(count, 2);
    int tech = -1;
    CHECK_OK(xgd_effect_find_technique(e, "T", &tech));
    CHECK_INT(tech, 0);
    xgd_effect_destroy(e);
    /* a truncated image is refused by name and creates nothing */
    e = (xgd_effect *)(uintptr_t)1;
    CHECK_RESULT(xgd_effect_create(dev, bytes, size - 3, &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(e == NULL);
    CHECK(strstr(xgd_device_last_error(dev), "compiled xgd effect") != NULL);
    free(bytes);
    xgd_device_destroy(dev);
#endif
}
