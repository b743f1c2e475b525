/*
 * The HLSL effect front end's additions: macros of the create call (xgd_effect_create_hlsl_ex,
 * part of the compile cache's key), struct parameters with members through the parameter API,
 * annotations of globals as for fx_2_0 effects, sampler state blocks kept in .xfx files, and
 * named errors with file:line for malformed blocks and annotations.
 */
#include "fixture_util.h"
#include "harness.h"

#include "../shader/hlsl_program.h"

#include <stdlib.h>
#include <string.h>

static xgd_device *front_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    return xgdt_device(t, &dd);
}

static xgd_result create_ex(xgd_device *dev, const char *src, const xgd_hlsl_define *d, int n, xgd_effect **e)
{
    xgd_hlsl_desc desc = { src, strlen(src), "front.fx", d, n };
    return xgd_effect_create_hlsl_ex(dev, &desc, e);
}

static const char defines_fx[] =
    "#ifdef WITH_EXTRA\n"
    "float4 Extra;\n"
    "#endif\n"
    "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
    "float4 PS() : SV_Target\n"
    "{\n"
    "#ifdef WITH_EXTRA\n"
    "    return TINT * Extra;\n"
    "#else\n"
    "    return TINT;\n"
    "#endif\n"
    "}\n"
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

XGD_TEST(hlsl_effect_defines)
{
    xgd_device *dev = front_device(t);
    REQUIRE(dev != NULL);
#ifndef XGD_TEST_HAVE_GLSLANG
    xgd_effect *e = NULL;
    CHECK_RESULT(create_ex(dev, defines_fx, NULL, 0, &e), XGD_ERROR_NOT_SUPPORTED);
    xgdt_not_supported(t, "this build has no HLSL compiler");
#else
    xgd_effect *e = NULL, *f = NULL;
    /* TINT undefined: the compiler's error, at the user's line 8 */
    CHECK_RESULT(create_ex(dev, defines_fx, NULL, 0, &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "front.fx:10") != NULL, "%s", xgd_device_last_error(dev));
    CHECK(e == NULL);
    const xgd_hlsl_define both[2] = { { "TINT", "float4(0.25, 0.5, 0.75, 1)" }, { "WITH_EXTRA", NULL } };
    REQUIRE_OK(create_ex(dev, defines_fx, both, 2, &e));
    xgd_effect_parameter p = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, "Extra", &p));
    /* the same source with other macros is another effect, not the cached one */
    REQUIRE_OK(create_ex(dev, defines_fx, both, 1, &f));
    CHECK_RESULT(xgd_effect_find_parameter(f, "Extra", &p), XGD_ERROR_INVALID_ARGUMENT);
    xgd_effect_destroy(f);
    f = NULL;
    /* macros keep the source's line numbers: an error on line 10 is reported there */
    const xgd_hlsl_define broken[1] = { { "TINT", "float4(1, +* 2)" } };
    CHECK_RESULT(create_ex(dev, defines_fx, broken, 1, &f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "front.fx:10") != NULL, "%s", xgd_device_last_error(dev));
    /* malformed macros: named, nothing created */
    const xgd_hlsl_define bad_name[1] = { { "1TINT", "1" } }, bad_value[1] = { { "TINT", "1\n#error x" } };
    CHECK_RESULT(create_ex(dev, defines_fx, bad_name, 1, &f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "1TINT") != NULL);
    CHECK_RESULT(create_ex(dev, defines_fx, bad_value, 1, &f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "line break") != NULL);
    CHECK_RESULT(create_ex(dev, defines_fx, both, 300, &f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(create_ex(dev, defines_fx, NULL, 1, &f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(f == NULL);
    CHECK_RESULT(xgd_effect_create_hlsl_ex(dev, NULL, &f), XGD_ERROR_INVALID_ARGUMENT);
    xgd_effect_destroy(e);
#endif
    xgd_device_destroy(dev);
}

#ifdef XGD_TEST_HAVE_GLSLANG
static const char annotated_fx[] =
    "float Scale <string UIName = \"Scale factor\"; int Steps = 4; float Min = -1.5; bool Visible = true;> = 1;\n"
    "float4 Color : DIFFUSE <string Space = \"sRGB\";>;\n"
    "float4 VS(float4 p : POSITION0) : SV_Position { return p * Scale; }\n"
    "float4 PS() : SV_Target { return Color; }\n"
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

static void check_annotations(xgdt_ctx *t, xgd_effect *e)
{
    xgd_effect_parameter scale = { -1 }, color = { -1 }, a = { -1 };
    REQUIRE_OK(xgd_effect_find_parameter(e, "Scale", &scale));
    REQUIRE_OK(xgd_effect_find_parameter(e, "Color", &color));
    xgd_effect_parameter_info info;
    CHECK_OK(xgd_effect_parameter_get_info(e, scale, &info));
    CHECK_INT(info.annotation_count, 4);
    const char *s = NULL;
    CHECK_OK(xgd_effect_parameter_get_annotation(e, scale, 0, &a));
    CHECK_OK(xgd_effect_parameter_get_info(e, a, &info));
    CHECK(strcmp(info.name, "UIName") == 0);
    CHECK(info.annotation);
    CHECK_INT(info.parameter_type, XGD_EFFECT_PARAMETER_TYPE_STRING);
    CHECK_OK(xgd_effect_parameter_get_string(e, a, &s));
    CHECK(s != NULL && strcmp(s, "Scale factor") == 0);
    int32_t i = 0;
    CHECK_OK(xgd_effect_parameter_get_annotation(e, scale, 1, &a));
    CHECK_OK(xgd_effect_parameter_get_int(e, a, &i));
    CHECK_INT(i, 4);
    float f = 0;
    CHECK_OK(xgd_effect_parameter_get_annotation(e, scale, 2, &a));
    CHECK_OK(xgd_effect_parameter_get_float(e, a, &f));
    CHECK(f == -1.5f);
    CHECK_RESULT(xgd_effect_parameter_set_float(e, a, 2.0f), XGD_ERROR_INVALID_OPERATION);
    bool b = false;
    CHECK_OK(xgd_effect_parameter_get_annotation(e, scale, 3, &a));
    CHECK_OK(xgd_effect_parameter_get_bool(e, a, &b));
    CHECK(b);
    CHECK_RESULT(xgd_effect_parameter_get_annotation(e, scale, 4, &a), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_parameter_get_info(e, color, &info));
    CHECK_INT(info.annotation_count, 1);
    CHECK_OK(xgd_effect_parameter_get_annotation(e, color, 0, &a));
    CHECK_OK(xgd_effect_parameter_get_string(e, a, &s));
    CHECK(s != NULL && strcmp(s, "sRGB") == 0);
}
#endif

XGD_TEST(hlsl_effect_annotations)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler");
#else
    xgd_device *dev = front_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create_hlsl(dev, annotated_fx, strlen(annotated_fx), "anno.fx", &e));
    check_annotations(t, e);
    xgd_effect_destroy(e);
    /* the same through an .xfx file */
    xgdi_hlsl_program p;
    char *log = NULL;
    REQUIRE_OK(xgdi_hlsl_program_compile(annotated_fx, strlen(annotated_fx), "anno.fx", &p, &log));
    free(log);
    void *bytes = NULL;
    size_t size = 0;
    CHECK_OK(xgdi_hlsl_program_save(&p, &bytes, &size));
    xgdi_hlsl_program_free(&p);
    e = NULL;
    CHECK_OK(xgd_effect_create(dev, bytes, size, &e));
    if (e != NULL) check_annotations(t, e);
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
#endif
}

static const char struct_fx[] =
    "struct Light { float3 Dir; float Power; float4 Color; };\n"
    "struct Rig { Light Lights[2]; float2x2 Turn; };\n"
    "Rig Scene;\n"
    "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
    "float4 PS() : SV_Target\n"
    "{\n"
    "    float2 t = mul(float2(1, 0), Scene.Turn);\n"
    "    return Scene.Lights[1].Color * Scene.Lights[1].Power + float4(Scene.Lights[0].Dir.x, t.y, 0, 0);\n"
    "}\n"
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

/* A struct parameter with an array of structs and a matrix inside: members are reached through
 * get_member / find_member / get_element, read and written, and the pass's pixel shader sees
 * the values where the compiler laid them out: Lights[1].Color (0.5, 1, 1, 2) * Power 0.5 +
 * (Lights[0].Dir.x 0.25, Turn._12 0.5, 0, 0) = (0.5, 1, 0.5, 1). */
XGD_FIXTURE(hlsl_struct_parameters)
{
    const int W = 4, H = 4;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, struct_fx, strlen(struct_fx), "struct.fx", &e);
#ifndef XGD_TEST_HAVE_GLSLANG
    CHECK_RESULT(r, XGD_ERROR_NOT_SUPPORTED);
    xgdt_not_supported(t, "this build has no HLSL compiler");
#else
    CHECK_MSG(r == XGD_OK, "%s: %s", xgd_result_name(r), xgd_device_last_error(dev));
    if (e != NULL) {
        xgd_effect_parameter scene = { -1 }, lights = { -1 }, l0 = { -1 }, l1 = { -1 }, m = { -1 }, turn = { -1 };
        REQUIRE_OK(xgd_effect_find_parameter(e, "Scene", &scene));
        xgd_effect_parameter_info info;
        CHECK_OK(xgd_effect_parameter_get_info(e, scene, &info));
        CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_STRUCT);
        CHECK_INT(info.member_count, 2);
        CHECK_OK(xgd_effect_parameter_get_member(e, scene, 0, &lights));
        CHECK_OK(xgd_effect_parameter_get_info(e, lights, &info));
        CHECK(strcmp(info.name, "Lights") == 0);
        CHECK_INT(info.element_count, 2);
        CHECK_OK(xgd_effect_parameter_get_element(e, lights, 0, &l0));
        CHECK_OK(xgd_effect_parameter_get_element(e, lights, 1, &l1));
        CHECK_OK(xgd_effect_parameter_get_info(e, l1, &info));
        CHECK_INT(info.member_count, 3);
        CHECK_OK(xgd_effect_parameter_find_member(e, l1, "Color", &m));
        CHECK_OK(xgd_effect_parameter_set_vector4(e, m, (xgd_vector4){ 0.5f, 1, 1, 2 }));
        xgd_vector4 back;
        CHECK_OK(xgd_effect_parameter_get_vector4(e, m, &back));
        CHECK(back.x == 0.5f && back.w == 2);
        CHECK_OK(xgd_effect_parameter_find_member(e, l1, "Power", &m));
        CHECK_OK(xgd_effect_parameter_set_float(e, m, 0.5f));
        CHECK_OK(xgd_effect_parameter_find_member(e, l0, "Dir", &m));
        CHECK_OK(xgd_effect_parameter_get_info(e, m, &info));
        CHECK_INT(info.columns, 3);
        CHECK_OK(xgd_effect_parameter_set_vector3(e, m, (xgd_vector3){ 0.25f, 9, 9 }));
        CHECK_RESULT(xgd_effect_parameter_find_member(e, l0, "Nope", &m), XGD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(xgd_effect_parameter_find_member(e, scene, "Turn", &turn));
        CHECK_OK(xgd_effect_parameter_get_info(e, turn, &info));
        CHECK_INT(info.parameter_class, XGD_EFFECT_PARAMETER_CLASS_MATRIX);
        const float turn_values[4] = { 0, 0.5f, 7, 7 }; /* row 0: (0, 0.5): mul((1, 0), Turn) = row 0 */
        CHECK_OK(xgd_effect_parameter_set_floats(e, turn, turn_values, 4));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        r = xgd_effect_pass_apply(e, 0, 0);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(dev));
        } else {
            CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
            xgd_vertex_position_color q[6];
            const float xs[6] = { -1, 1, 1, -1, 1, -1 }, ys[6] = { 1, 1, -1, 1, -1, -1 };
            for (int k = 0; k < 6; k++) {
                q[k].position = (xgd_vector3){ xs[k], ys[k], 0 };
                q[k].color = (xgd_color){ 255, 255, 255, 255 };
            }
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, q, 0, 2,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
            uint8_t *img = fx_image(W, H, (xgd_color){ fx_q8(0.5), 255, fx_q8(0.5), 255 });
            fx_expect_back_buffer(t, dev, "hlsl_struct_parameters", img, W, H, 1);
            free(img);
        }
    }
#endif
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* Malformed sampler blocks and annotations: named errors with the file and line. */
XGD_TEST(hlsl_front_bad_blocks)
{
    static const struct {
        const char *src;
        xgd_result code;
        const char *needle;
    } cases[] = {
        { "Texture2D T;\nSamplerState S { Filter = BOGUS; };\n", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:2" },
        { "Texture2D T;\nSamplerState S\n{ AddressU = Sideways; };\n", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:3" },
        { "SamplerState S { Frobnicate = 1; };\n", XGD_ERROR_NOT_SUPPORTED, "Frobnicate" },
        { "SamplerState S { Filter = COMPARISON_MIN_MAG_MIP_LINEAR; };\n", XGD_ERROR_NOT_SUPPORTED, "comparison" },
        { "SamplerState S { MaxAnisotropy = 99; };\n", XGD_ERROR_INVALID_ARGUMENT, "MaxAnisotropy" },
        { "SamplerState S { Filter = ANISOTROPIC;\n", XGD_ERROR_INVALID_ARGUMENT, "sampler S" },
        { "SamplerState S { Filter = ANISOTROPIC; }\nfloat4 x;\n", XGD_ERROR_INVALID_ARGUMENT, "expected ';'" },
        { "SamplerState S { Filter = ANISOTROPIC; };\nSamplerState S { };\n", XGD_ERROR_INVALID_ARGUMENT, "twice" },
        { "texture T;\nsampler S = sampler_state { Texture = <1bad>; };\n", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:2" },
        { "sampler S = sampler_state { MinFilter = Cubic; };\n", XGD_ERROR_INVALID_ARGUMENT, "Cubic" },
        { "float x <float4 V = float4(1, 2, 3, 4);> = 1;\n", XGD_ERROR_NOT_SUPPORTED, "bad.fx:1" },
        { "float x <string S = 12;> = 1;\n", XGD_ERROR_INVALID_ARGUMENT, "string" },
        { "float x\n<int N = 1 int M = 2;> = 1;\n", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:2: expected ';'" },
        { "float x <int N = 1.5;> = 1;\n", XGD_ERROR_INVALID_ARGUMENT, "not a int" },
    };
    xgd_device *dev = front_device(t);
    REQUIRE(dev != NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, "%s"
                 "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
                 "float4 PS() : SV_Target { return 1; }\n"
                 "technique T0 { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n",
                 cases[i].src);
        xgd_effect *e = NULL;
        xgd_result r = xgd_effect_create_hlsl(dev, src, strlen(src), "bad.fx", &e);
#ifndef XGD_TEST_HAVE_GLSLANG
        CHECK_RESULT(r, XGD_ERROR_NOT_SUPPORTED);
        continue;
#endif
        const char *msg = xgd_device_last_error(dev);
        CHECK_MSG(r == cases[i].code, "case %zu: expected %s, got %s: %s", i, xgd_result_name(cases[i].code),
                  xgd_result_name(r), msg);
        CHECK_MSG(strstr(msg, cases[i].needle) != NULL, "case %zu: message lacks \"%s\": %s", i, cases[i].needle, msg);
        CHECK(e == NULL);
        xgd_effect_destroy(e);
    }
    xgd_device_destroy(dev);
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler");
#endif
}

/* The .xfx file keeps the declared sampler states: a compiled program saved and loaded has the
 * same blocks; corrupt sampler records are refused by name. */
XGD_TEST(hlsl_xfx_sampler_states)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler");
#else
    static const char src[] =
        "texture Pattern;\n"
        "sampler S = sampler_state { Texture = (Pattern); MinFilter = Linear; MagFilter = Point; MipFilter = None;\n"
        "                            AddressV = MirrorOnce; MaxMipLevel = 2; MipMapLodBias = -0.5; };\n"
        "Texture2D T2;\n"
        "SamplerState S2 { Filter = ANISOTROPIC; MaxAnisotropy = 8; AddressW = Border; BorderColor = float4(0,0,0,0); };\n"
        "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
        "float4 PS(float2 uv : TEXCOORD0) : SV_Target { return tex2D(S, uv) + T2.Sample(S2, uv); }\n"
        "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";
    xgdi_hlsl_program p, q;
    char *log = NULL, msg[256];
    REQUIRE_OK(xgdi_hlsl_program_compile(src, strlen(src), "s.fx", &p, &log));
    free(log);
    CHECK_INT(p.fx.sampler_count, 2);
    void *bytes = NULL;
    size_t size = 0;
    REQUIRE_OK(xgdi_hlsl_program_save(&p, &bytes, &size));
    REQUIRE_OK(xgdi_hlsl_program_load(bytes, size, &q, msg, sizeof msg));
    CHECK_INT(q.fx.sampler_count, 2);
    if (q.fx.sampler_count == 2) {
        const xgdi_hlsl_sampler *a = &q.fx.samplers[0], *b = &q.fx.samplers[1];
        CHECK(strcmp(a->name, "S") == 0 && strcmp(a->texture, "Pattern") == 0);
        CHECK_INT(a->set, XGDI_HLSL_SS_MIN | XGDI_HLSL_SS_MAG | XGDI_HLSL_SS_MIP | XGDI_HLSL_SS_ADDRESS_V |
                              XGDI_HLSL_SS_MAX_MIP_LEVEL | XGDI_HLSL_SS_MIP_LOD_BIAS);
        CHECK_INT(a->min_filter, 2);
        CHECK_INT(a->mag_filter, 1);
        CHECK_INT(a->mip_filter, 0);
        CHECK_INT(a->address[1], 5);
        CHECK_INT(a->max_mip_level, 2);
        CHECK(a->mip_lod_bias == -0.5f);
        CHECK_INT(a->line, 2);
        CHECK(strcmp(b->name, "S2") == 0 && b->texture[0] == '\0');
        CHECK_INT(b->min_filter, 3);
        CHECK_INT(b->max_anisotropy, 8);
        CHECK_INT(b->address[2], 4);
    }
    xgdi_hlsl_program_free(&q);
    /* the first sampler's `set` word: a bit beyond the known states is refused by name */
    uint8_t *bad = malloc(size);
    REQUIRE(bad != NULL);
    size_t at = size;
    /* find the record: name "S" (u32 1, 'S'), texture "Pattern" */
    for (size_t k = 0; k + 16 < size; k++)
        if (memcmp((uint8_t *)bytes + k, "\x01\0\0\0S\x07\0\0\0Pattern", 16) == 0) at = k + 16 + 4;
    REQUIRE(at < size);
    memcpy(bad, bytes, size);
    bad[at + 1] = 0xff;
    CHECK_RESULT(xgdi_hlsl_program_load(bad, size, &q, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(msg, "sampler S") != NULL, "%s", msg);
    /* every prefix is refused, never read past */
    for (size_t k = size - 200; k < size; k++) {
        xgd_result r = xgdi_hlsl_program_load(bytes, k, &q, msg, sizeof msg);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "prefix %zu: %s", k, xgd_result_name(r));
    }
    free(bad);
    free(bytes);
    xgdi_hlsl_program_free(&p);
#endif
}

/* Blocks after a technique block are read as at the top of the file: the DX9 texture
 * declaration is blanked (glslang has no `texture` type), the sampler's state block read. */
XGD_TEST(hlsl_front_blocks_after_technique)
{
    static const char src[] = "technique T { pass { PixelShader = compile ps_3_0 PS(); } }\n"
                              "texture Pattern;\n"
                              "sampler S = sampler_state { Texture = <Pattern>; AddressU = Clamp; };\n";
    xgdi_hlsl_fx fx;
    char msg[256];
    REQUIRE_OK(xgdi_hlsl_fx_scan(src, strlen(src), "after.fx", &fx, msg, sizeof msg));
    CHECK_INT(fx.sampler_count, 1);
    CHECK(strstr(fx.source, "texture") == NULL && strstr(fx.source, "sampler_state") == NULL);
    CHECK(strstr(fx.source, "sampler S") != NULL);
    xgdi_hlsl_fx_free(&fx);
}

/* A derived effect's body waits as a spare after the effect is destroyed; a body whose apply
 * made state objects (its sampler_state block) still owns them, and device destroy frees the
 * spare while the device still unlinks what is disposed (it freed them after, and the device's
 * resource list then walked freed memory: valgrind and ASan saw it). */
XGD_TEST(hlsl_derived_spare_with_sampler_states_at_device_destroy)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler");
#else
    static const xgd_effect_class spare_class = { "SpareEffect", 0, NULL };
    static const char src[] =
        "texture Pattern;\n"
        "sampler S = sampler_state { Texture = (Pattern); MinFilter = Point; MagFilter = Point; MipFilter = None; };\n"
        "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
        "float4 PS(float2 uv : TEXCOORD0) : SV_Target { return tex2D(S, uv); }\n"
        "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";
    xgdi_hlsl_program p;
    char *log = NULL;
    REQUIRE_OK(xgdi_hlsl_program_compile(src, strlen(src), "spare.fx", &p, &log));
    free(log);
    void *bytes = NULL;
    size_t size = 0;
    xgd_result saved = xgdi_hlsl_program_save(&p, &bytes, &size);
    xgdi_hlsl_program_free(&p);
    REQUIRE_OK(saved);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    xgd_device *dev = xgdt_device(t, &dd);
    if (dev != NULL) {
        xgd_texture *tex = NULL;
        const xgd_texture2d_desc td = { 2, 2, false, XGD_SURFACE_FORMAT_COLOR };
        CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
        xgd_effect *e = NULL;
        CHECK_OK(xgd_effect_create_derived(dev, bytes, size, &spare_class, &e));
        xgd_effect_parameter pat = { -1 };
        if (e != NULL && xgd_effect_find_parameter(e, "Pattern", &pat) == XGD_OK)
            CHECK_OK(xgd_effect_parameter_set_texture(e, pat, tex));
        if (e != NULL) CHECK_OK(xgd_effect_apply(e));
        xgd_effect_destroy(e); /* the body, with its sampler state, becomes the class's spare */
        xgd_device_destroy(dev);
    }
    free(bytes);
#endif
}
