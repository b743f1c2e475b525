/*
 * Effects loaded from bytes (xgd_effect_create): fx_2_0 containers made by the project's own
 * writer (fx_writer.c: D3D assembly through MojoShader's assembler), never binaries from
 * elsewhere. Unit tests check the Effect API (every parameter type round-trips, techniques,
 * passes, annotations, clone, bad input); fixtures render what the shaders' rules give.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include "fx_writer.h"

#include <stdlib.h>
#include <string.h>

static uint8_t *standard(xgdt_ctx *t, size_t *size)
{
    char err[256] = "";
    uint8_t *b = fxw_standard(size, err, sizeof err);
    CHECK_MSG(b != NULL, "fx writer: %s", err);
    return b;
}

static xgd_effect_parameter param(xgdt_ctx *t, xgd_effect *e, const char *name)
{
    xgd_effect_parameter p = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, name, &p));
    return p;
}

/* A software device: loading and parameters need no renderer that runs shaders. */
static xgd_device *unit_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    return xgdt_device(t, &dd);
}

XGD_TEST(effect_fx_techniques_and_annotations)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    size_t n;
    uint8_t *b = standard(t, &n);
    REQUIRE(b != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, b, n, &e));
    int count = 0, cur = -1, tech = -1, pass = -1;
    CHECK_OK(xgd_effect_get_technique_count(e, &count));
    CHECK_INT(count, 2);
    CHECK_OK(xgd_effect_get_current_technique(e, &cur));
    CHECK_INT(cur, 0);
    CHECK_OK(xgd_effect_find_technique(e, "Textured", &tech));
    CHECK_INT(tech, 1);
    xgd_effect_technique_info ti;
    CHECK_OK(xgd_effect_get_technique_info(e, 0, &ti));
    CHECK(strcmp(ti.name, "Solid") == 0);
    CHECK_INT(ti.pass_count, 1);
    CHECK_INT(ti.annotation_count, 1);
    CHECK_OK(xgd_effect_find_pass(e, 0, "P0", &pass));
    CHECK_INT(pass, 0);
    xgd_effect_pass_info pi;
    CHECK_OK(xgd_effect_get_pass_info(e, 0, 0, &pi));
    CHECK(strcmp(pi.name, "P0") == 0);
    CHECK_INT(pi.annotation_count, 1);
    CHECK_OK(xgd_effect_set_current_technique(e, 1));
    CHECK_OK(xgd_effect_get_current_technique(e, &cur));
    CHECK_INT(cur, 1);

    /* annotations: technique int, pass bool, parameter string and float */
    xgd_effect_parameter a;
    int32_t iv = 0;
    bool bv = false;
    float fv = 0;
    const char *sv = NULL;
    CHECK_OK(xgd_effect_technique_get_annotation(e, 0, 0, &a));
    xgd_effect_parameter_info info;
    CHECK_OK(xgd_effect_parameter_get_info(e, a, &info));
    CHECK(strcmp(info.name, "Version") == 0);
    CHECK(info.annotation);
    CHECK_OK(xgd_effect_parameter_get_int(e, a, &iv));
    CHECK_INT(iv, 3);
    CHECK_RESULT(xgd_effect_parameter_set_int(e, a, 4), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_effect_parameter_get_int(e, a, &iv));
    CHECK_INT(iv, 3);
    CHECK_OK(xgd_effect_pass_get_annotation(e, 0, 0, 0, &a));
    CHECK_OK(xgd_effect_parameter_get_bool(e, a, &bv));
    CHECK(bv);
    xgd_effect_parameter wvp = param(t, e, "WorldViewProj");
    CHECK_OK(xgd_effect_parameter_get_info(e, wvp, &info));
    CHECK_INT(info.annotation_count, 2);
    CHECK(strcmp(info.semantic, "WORLDVIEWPROJECTION") == 0);
    CHECK_OK(xgd_effect_parameter_get_annotation(e, wvp, 0, &a));
    CHECK_OK(xgd_effect_parameter_get_string(e, a, &sv));
    CHECK(sv != NULL && strcmp(sv, "World view projection") == 0);
    CHECK_OK(xgd_effect_parameter_get_annotation(e, wvp, 1, &a));
    CHECK_OK(xgd_effect_parameter_get_float(e, a, &fv));
    CHECK_NEAR(fv, -2.0, 0);
    xgd_effect_parameter by_sem;
    CHECK_OK(xgd_effect_find_parameter_by_semantic(e, "COLOR", &by_sem));
    CHECK_INT(by_sem.id, param(t, e, "Tint").id);

    /* unknown names and indices: named errors */
    CHECK_RESULT(xgd_effect_find_technique(e, "Missing", &tech), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "Missing") != NULL);
    CHECK_RESULT(xgd_effect_find_parameter(e, "Nope", &a), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "Nope") != NULL);
    CHECK_RESULT(xgd_effect_find_pass(e, 0, "P9", &pass), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_set_current_technique(e, 2), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_get_current_technique(e, &cur));
    CHECK_INT(cur, 1);
    CHECK_RESULT(xgd_effect_get_pass_info(e, 0, 1, &pi), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_get_info(e, (xgd_effect_parameter){ 100000 }, &info),
                 XGD_ERROR_INVALID_ARGUMENT);

    /* a stock effect is an effect too (BasicEffect's 32 technique permutations) */
    xgd_effect *basic = NULL;
    CHECK_OK(xgd_basic_effect_create(dev, &basic));
    CHECK_OK(xgd_effect_get_technique_count(basic, &count));
    CHECK_INT(count, 32);
    xgd_effect_destroy(basic);
    /* a destroyed effect answers OBJECT_DISPOSED */
    xgd_effect_destroy(e);
    CHECK_RESULT(xgd_effect_get_technique_count(e, &count), XGD_ERROR_OBJECT_DISPOSED);
    free(b);
    xgd_device_destroy(dev);
}

static bool same_floats(const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i]) return false;
    return true;
}

XGD_TEST(effect_fx_parameters_round_trip)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    size_t n;
    uint8_t *b = standard(t, &n);
    REQUIRE(b != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, b, n, &e));
    int count = 0;
    CHECK_OK(xgd_effect_get_parameter_count(e, &count));
    CHECK_INT(count, 15); /* samplers are not parameters */

    /* defaults written into the container read back */
    bool flag = false;
    int32_t cnt = 0;
    float scale = 0;
    CHECK_OK(xgd_effect_parameter_get_bool(e, param(t, e, "Flag"), &flag));
    CHECK(flag);
    CHECK_OK(xgd_effect_parameter_get_int(e, param(t, e, "Count"), &cnt));
    CHECK_INT(cnt, 7);
    CHECK_OK(xgd_effect_parameter_get_float(e, param(t, e, "Scale"), &scale));
    CHECK_NEAR(scale, 0.5, 0);
    xgd_vector3 d3;
    CHECK_OK(xgd_effect_parameter_get_vector3(e, param(t, e, "Dir3"), &d3));
    CHECK(d3.x == 1 && d3.y == 2 && d3.z == 3);

    /* scalars and vectors */
    CHECK_OK(xgd_effect_parameter_set_bool(e, param(t, e, "Flag"), false));
    CHECK_OK(xgd_effect_parameter_get_bool(e, param(t, e, "Flag"), &flag));
    CHECK(!flag);
    CHECK_OK(xgd_effect_parameter_set_int(e, param(t, e, "Count"), -12345));
    CHECK_OK(xgd_effect_parameter_get_int(e, param(t, e, "Count"), &cnt));
    CHECK_INT(cnt, -12345);
    CHECK_OK(xgd_effect_parameter_set_float(e, param(t, e, "Scale"), 3.25f));
    CHECK_OK(xgd_effect_parameter_get_float(e, param(t, e, "Scale"), &scale));
    CHECK_NEAR(scale, 3.25, 0);
    xgd_vector2 v2;
    CHECK_OK(xgd_effect_parameter_set_vector2(e, param(t, e, "Offset2"), (xgd_vector2){ -1.5f, 8 }));
    CHECK_OK(xgd_effect_parameter_get_vector2(e, param(t, e, "Offset2"), &v2));
    CHECK(v2.x == -1.5f && v2.y == 8);
    CHECK_OK(xgd_effect_parameter_set_vector3(e, param(t, e, "Dir3"), (xgd_vector3){ 4, 5, 6 }));
    CHECK_OK(xgd_effect_parameter_get_vector3(e, param(t, e, "Dir3"), &d3));
    CHECK(d3.x == 4 && d3.y == 5 && d3.z == 6);
    xgd_vector4 v4;
    CHECK_OK(xgd_effect_parameter_set_vector4(e, param(t, e, "Tint"), (xgd_vector4){ 0.1f, 0.2f, 0.3f, 0.4f }));
    CHECK_OK(xgd_effect_parameter_get_vector4(e, param(t, e, "Tint"), &v4));
    CHECK(v4.x == 0.1f && v4.y == 0.2f && v4.z == 0.3f && v4.w == 0.4f);

    /* matrices: column_major 4x4 and row_major 3x3 take the same xgd_matrix meaning */
    xgd_matrix m, got;
    for (int i = 0; i < 16; i++) m.m[i] = (float)(i + 1);
    CHECK_OK(xgd_effect_parameter_set_matrix(e, param(t, e, "WorldViewProj"), &m));
    CHECK_OK(xgd_effect_parameter_get_matrix(e, param(t, e, "WorldViewProj"), &got));
    CHECK(same_floats(m.m, got.m, 16));
    CHECK_OK(xgd_effect_parameter_set_matrix(e, param(t, e, "RowMat"), &m));
    CHECK_OK(xgd_effect_parameter_get_matrix(e, param(t, e, "RowMat"), &got));
    /* the top-left 3x3, the rest from the identity */
    const float want3[16] = { 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11, 0, 0, 0, 0, 1 };
    CHECK(same_floats(got.m, want3, 16));
    float rm[9];
    CHECK_OK(xgd_effect_parameter_get_floats(e, param(t, e, "RowMat"), rm, 9));
    CHECK(rm[0] == 1 && rm[1] == 2 && rm[3] == 5 && rm[8] == 11);

    /* arrays: floats, int2[3], bools, matrices */
    const float w5[5] = { 1, -2, 3.5f, 4, 5 };
    float w5got[5];
    CHECK_OK(xgd_effect_parameter_set_floats(e, param(t, e, "Weights"), w5, 5));
    CHECK_OK(xgd_effect_parameter_get_floats(e, param(t, e, "Weights"), w5got, 5));
    CHECK(same_floats(w5, w5got, 5));
    xgd_effect_parameter el;
    float one = 0;
    CHECK_OK(xgd_effect_parameter_get_element(e, param(t, e, "Weights"), 2, &el));
    CHECK_OK(xgd_effect_parameter_get_float(e, el, &one));
    CHECK_NEAR(one, 3.5, 0);
    const int32_t i6[6] = { 1, 2, 3, 4, 5, -6 };
    int32_t i6got[6];
    CHECK_OK(xgd_effect_parameter_set_ints(e, param(t, e, "Ints"), i6, 6));
    CHECK_OK(xgd_effect_parameter_get_ints(e, param(t, e, "Ints"), i6got, 6));
    CHECK(memcmp(i6, i6got, sizeof i6) == 0);
    const bool b4[4] = { true, false, true, true };
    bool b4got[4];
    CHECK_OK(xgd_effect_parameter_set_bools(e, param(t, e, "Flags"), b4, 4));
    CHECK_OK(xgd_effect_parameter_get_bools(e, param(t, e, "Flags"), b4got, 4));
    CHECK(memcmp(b4, b4got, sizeof b4) == 0);
    xgd_matrix bones[3], bones_got[3];
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 16; i++) bones[k].m[i] = (float)(k * 100 + i);
    CHECK_OK(xgd_effect_parameter_set_matrices(e, param(t, e, "Bones"), bones, 3));
    CHECK_OK(xgd_effect_parameter_get_matrices(e, param(t, e, "Bones"), bones_got, 3));
    CHECK(same_floats(bones[2].m, bones_got[2].m, 16));
    CHECK_OK(xgd_effect_parameter_get_element(e, param(t, e, "Bones"), 1, &el));
    CHECK_OK(xgd_effect_parameter_get_matrix(e, el, &got));
    CHECK(same_floats(bones[1].m, got.m, 16));

    /* structs: members by name, arrays of structs by element */
    xgd_effect_parameter light = param(t, e, "Light"), mem;
    CHECK_OK(xgd_effect_parameter_find_member(e, light, "Power", &mem));
    CHECK_OK(xgd_effect_parameter_set_float(e, mem, 9.5f));
    CHECK_OK(xgd_effect_parameter_get_float(e, mem, &one));
    CHECK_NEAR(one, 9.5, 0);
    CHECK_OK(xgd_effect_parameter_find_member(e, light, "Colors", &mem));
    const float colors[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    float colors_got[8];
    CHECK_OK(xgd_effect_parameter_set_floats(e, mem, colors, 8));
    CHECK_OK(xgd_effect_parameter_get_floats(e, mem, colors_got, 8));
    CHECK(same_floats(colors, colors_got, 8));
    xgd_effect_parameter lights1, dir;
    CHECK_OK(xgd_effect_parameter_get_element(e, param(t, e, "Lights"), 1, &lights1));
    CHECK_OK(xgd_effect_parameter_get_member(e, lights1, 0, &dir));
    CHECK_OK(xgd_effect_parameter_set_vector3(e, dir, (xgd_vector3){ 7, 8, 9 }));
    xgd_effect_parameter lights0, dir0;
    CHECK_OK(xgd_effect_parameter_get_element(e, param(t, e, "Lights"), 0, &lights0));
    CHECK_OK(xgd_effect_parameter_get_member(e, lights0, 0, &dir0));
    CHECK_OK(xgd_effect_parameter_get_vector3(e, dir0, &d3));
    CHECK(d3.x == 0 && d3.y == 0 && d3.z == 0); /* element 1 did not write element 0 */
    CHECK_OK(xgd_effect_parameter_get_vector3(e, dir, &d3));
    CHECK(d3.x == 7 && d3.y == 8 && d3.z == 9);

    /* textures */
    xgd_texture *tex = NULL, *tex_got = (xgd_texture *)1;
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    CHECK_OK(xgd_effect_parameter_get_texture(e, param(t, e, "Tex"), &tex_got));
    CHECK(tex_got == NULL);
    CHECK_OK(xgd_effect_parameter_set_texture(e, param(t, e, "Tex"), tex));
    CHECK_OK(xgd_effect_parameter_get_texture(e, param(t, e, "Tex"), &tex_got));
    CHECK(tex_got == tex);

    /* wrong type or size: named error, nothing changed */
    CHECK_RESULT(xgd_effect_parameter_set_float(e, param(t, e, "Count"), 1.0f), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "Count") != NULL);
    CHECK_OK(xgd_effect_parameter_get_int(e, param(t, e, "Count"), &cnt));
    CHECK_INT(cnt, -12345);
    CHECK_RESULT(xgd_effect_parameter_set_vector3(e, param(t, e, "Tint"), (xgd_vector3){ 9, 9, 9 }),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_parameter_get_vector4(e, param(t, e, "Tint"), &v4));
    CHECK(v4.x == 0.1f && v4.w == 0.4f);
    CHECK_RESULT(xgd_effect_parameter_set_floats(e, param(t, e, "Weights"), w5, 4), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_set_matrix(e, param(t, e, "Bones"), &m), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_set_matrices(e, param(t, e, "Bones"), bones, 2), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_set_bool(e, param(t, e, "Scale"), true), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_set_int(e, light, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_parameter_set_texture(e, param(t, e, "Scale"), tex), XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture *cube = NULL;
    CHECK_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4 }, &cube));
    CHECK_RESULT(xgd_effect_parameter_set_texture(e, param(t, e, "Tex"), cube), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_parameter_get_texture(e, param(t, e, "Tex"), &tex_got));
    CHECK(tex_got == tex);
    m.m[5] = NAN;
    CHECK_RESULT(xgd_effect_parameter_set_matrix(e, param(t, e, "WorldViewProj"), &m), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_effect_parameter_get_matrix(e, param(t, e, "WorldViewProj"), &got));
    CHECK_NEAR(got.m[5], 6.0, 0);
    CHECK_RESULT(xgd_effect_parameter_get_element(e, param(t, e, "Weights"), 5, &el), XGD_ERROR_INVALID_ARGUMENT);

    /* clone: same values, then independent */
    xgd_effect *c = NULL;
    CHECK_OK(xgd_effect_set_current_technique(e, 1));
    REQUIRE_OK(xgd_effect_clone(e, &c));
    int cur = -1;
    CHECK_OK(xgd_effect_get_current_technique(c, &cur));
    CHECK_INT(cur, 1);
    CHECK_OK(xgd_effect_parameter_get_int(c, param(t, c, "Count"), &cnt));
    CHECK_INT(cnt, -12345);
    CHECK_OK(xgd_effect_parameter_get_texture(c, param(t, c, "Tex"), &tex_got));
    CHECK(tex_got == tex);
    CHECK_OK(xgd_effect_parameter_set_int(c, param(t, c, "Count"), 5));
    CHECK_OK(xgd_effect_parameter_get_int(e, param(t, e, "Count"), &cnt));
    CHECK_INT(cnt, -12345);
    /* a destroyed texture reads back as none */
    xgd_texture_destroy(tex);
    CHECK_OK(xgd_effect_parameter_get_texture(e, param(t, e, "Tex"), &tex_got));
    CHECK(tex_got == NULL);
    xgd_texture_destroy(cube);
    xgd_effect_destroy(c);
    xgd_effect_destroy(e);
    free(b);
    xgd_device_destroy(dev);
}

XGD_TEST(effect_fx_bad_input)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    size_t n;
    uint8_t *b = standard(t, &n);
    REQUIRE(b != NULL);
    xgd_effect *e = (xgd_effect *)1;
    CHECK_RESULT(xgd_effect_create(dev, b, 3, &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(e == NULL);
    CHECK_RESULT(xgd_effect_create(dev, NULL, n, &e), XGD_ERROR_INVALID_ARGUMENT);
    /* every truncation is refused by name */
    int refused = 0;
    for (size_t len = 0; len < n; len += (len < 64 ? 1 : 7)) {
        xgd_result r = xgd_effect_create(dev, b, len, &e);
        if (r == XGD_ERROR_INVALID_ARGUMENT && e == NULL) refused++;
        else CHECK_MSG(false, "a %zu-byte prefix of %zu gave %s", len, n, xgd_result_name(r));
        if (r == XGD_OK) xgd_effect_destroy(e);
    }
    CHECK(refused > 100);
    /* not an effect */
    uint8_t *bad = malloc(n);
    REQUIRE(bad != NULL);
    memcpy(bad, b, n);
    bad[0] ^= 0xff;
    CHECK_RESULT(xgd_effect_create(dev, bad, n, &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "fx_2_0") != NULL);
    /* single corrupted words anywhere: a named error or a valid effect, never a crash */
    uint32_t seed = 12345;
    for (int i = 0; i < 400; i++) {
        memcpy(bad, b, n);
        seed = seed * 1664525u + 1013904223u;
        size_t at = (seed >> 8) % (n / 4) * 4;
        uint32_t v = i % 4 == 0 ? 0xffffffffu : i % 4 == 1 ? 0x7fffff00u : i % 4 == 2 ? 0 : seed;
        memcpy(bad + at, &v, 4);
        xgd_result r = xgd_effect_create(dev, bad, n, &e);
        CHECK_MSG(r == XGD_OK || r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_NOT_SUPPORTED,
                  "word %zu = 0x%08x gave %s", at, v, xgd_result_name(r));
        if (r == XGD_OK) xgd_effect_destroy(e);
    }
    free(bad);
    free(b);
    xgd_device_destroy(dev);
}

/* Writes the fuzz corpus of the effect loader (fuzz/corpus/fx/) when XGD_FX_CORPUS_DIR names
 * a folder; otherwise checks that each corpus effect loads. The effects: the standard one, the
 * same in XNA's wrapper, and a shader model 3 effect with render states and a vs_3_0 output
 * of each varying kind. */
static uint8_t *sm3_effect(size_t *size, char *err, size_t cap)
{
    fxw *w = fxw_create();
    float m[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    fxw_param(w, "Transform", NULL, FXW_MATRIX_ROWS, FXW_FLOAT, 4, 4, 0, m);
    float k[4] = { 0.25f, 0.5f, 0.75f, 1 };
    fxw_param(w, "Colour", NULL, FXW_VECTOR, FXW_FLOAT, 1, 4, 0, k);
    int tech = fxw_technique(w, "Main");
    int pass = fxw_pass(w, tech, "Only");
    fxw_render_state(w, tech, pass, FXW_RS_CULLMODE, 1);
    fxw_render_state(w, tech, pass, FXW_RS_ZENABLE, 0);
    static const char vs[] = "vs_3_0\ndcl_position v0\ndcl_normal v1\ndcl_position o0\ndcl_texcoord3 o1\n"
                             "dcl_color1 o2\ndcl_normal o3\nmov o0, v0\nmov o1, c4\nmul o2, v1, c4\nmov o3, v1\n";
    static const char ps[] = "ps_3_0\ndcl_texcoord3 v0\ndcl_color1 v1\nadd r0, v0, v1\nmul oC0, r0, c0\n";
    fxw_symbol vsym = { "Colour", 2, 4, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 };
    fxw_symbol psym = { "Colour", 2, 0, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 };
    bool ok = fxw_shader(w, tech, pass, true, vs, &vsym, 1, err, cap) &&
              fxw_shader(w, tech, pass, false, ps, &psym, 1, err, cap);
    uint8_t *b = ok ? fxw_finish(w, false, size) : NULL;
    fxw_destroy(w);
    return b;
}

XGD_TEST(effect_fx_write_corpus)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    const char *dir = getenv("XGD_FX_CORPUS_DIR");
    char err[256] = "";
    size_t n[3] = { 0, 0, 0 };
    uint8_t *b[3];
    b[0] = fxw_standard(&n[0], err, sizeof err);
    b[2] = sm3_effect(&n[2], err, sizeof err);
    CHECK_MSG(b[0] != NULL && b[2] != NULL, "fx writer: %s", err);
    b[1] = NULL;
    if (b[0] != NULL) {
        /* XNA's wrapper: 0xBCF00BCF, the offset of the container (12), one more word */
        n[1] = n[0] + 12;
        b[1] = malloc(n[1]);
        const uint32_t head[3] = { 0xBCF00BCFu, 12, 0 };
        memcpy(b[1], head, 12);
        memcpy(b[1] + 12, b[0], n[0]);
    }
    static const char *const names[3] = { "standard.fx", "standard-xna.fx", "sm3-states.fx" };
    for (int i = 0; i < 3; i++) {
        if (b[i] == NULL) continue;
        xgd_effect *e = NULL;
        CHECK_MSG(xgd_effect_create(dev, b[i], n[i], &e) == XGD_OK, "%s: %s", names[i], xgd_device_last_error(dev));
        xgd_effect_destroy(e);
        if (dir != NULL) {
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            FILE *f = fopen(path, "wb");
            CHECK_MSG(f != NULL, "cannot write %s", path);
            if (f != NULL) {
                CHECK(fwrite(b[i], 1, n[i], f) == n[i]);
                fclose(f);
            }
        }
        free(b[i]);
    }
    xgd_device_destroy(dev);
}

/* ---- fixtures --------------------------------------------------------------------------- */

static xgd_effect *fixture_effect(xgdt_ctx *t, xgd_device *dev, uint8_t **bytes)
{
    size_t n;
    *bytes = standard(t, &n);
    if (*bytes == NULL) return NULL;
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create(dev, *bytes, n, &e);
    CHECK_MSG(r == XGD_OK, "xgd_effect_create: %s", xgd_device_last_error(dev));
    return e;
}

/* Applies; false (and the test marked not supported) where the renderer has no effects yet. */
static bool apply_or_skip(xgdt_ctx *t, xgd_device *dev, xgd_effect *e, int tech)
{
    xgd_result r = xgd_effect_pass_apply(e, tech, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes yet (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

static void full_quad(xgd_vertex_position_color_texture v[6], xgd_color c)
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

/* Technique Solid: colour = Tint, position = pos * WorldViewProj. A scale and translation
 * place the full-screen quad in the upper right with its left and right edges a quarter pixel
 * past pixel boundaries, where XNA's pixel centres (geometry half a pixel right) and Direct3D
 * 10's give different pixels; the image is the quad's pixels under XNA's centres in the tint,
 * the rest the clear colour. */
XGD_FIXTURE(effect_fx_solid_transform)
{
    const int W = 64, H = 64;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    uint8_t *bytes = NULL;
    xgd_effect *e = fixture_effect(t, dev, &bytes);
    REQUIRE(e != NULL);
    xgd_matrix m = xgd_matrix_identity();
    m.m[0] = 0.5f;   /* x' = 0.5 x + 0.25 */
    m.m[5] = 0.25f;  /* y' = 0.25 y + 0.5 */
    m.m[12] = 0.2578125f; /* left edge -0.2421875 NDC = pixel 24.25 */
    m.m[13] = 0.5f;
    CHECK_OK(xgd_effect_parameter_set_matrix(e, param(t, e, "WorldViewProj"), &m));
    const xgd_color tint = { 200, 100, 50, 255 };
    CHECK_OK(xgd_effect_parameter_set_vector4(e, param(t, e, "Tint"), fx_vec4(tint)));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e, 0)) {
        xgd_vertex_position_color_texture v[6];
        full_quad(v, (xgd_color){ 255, 255, 255, 255 });
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        /* the quad in pixels: x (-0.2421875..0.7578125 NDC) 24.25..56.25, y (0.75..0.25 NDC)
           8..24 */
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        const float a[6] = { 24.25f, 8, 56.25f, 8, 56.25f, 24 }, c[6] = { 24.25f, 8, 56.25f, 24, 24.25f, 24 };
        float ca[6], cc[6];
        fx_centered_tri(a, XGD_PIXEL_CENTER_XNA, ca);
        fx_centered_tri(c, XGD_PIXEL_CENTER_XNA, cc);
        fx_raster_tri(img, W, H, ca, tint);
        fx_raster_tri(img, W, H, cc, tint);
        fx_expect_back_buffer(t, dev, "effect_fx_solid_transform", img, W, H, 1);
        free(img);
    }
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* Technique Textured: colour = tex2D(TexSampler, uv) * vertex colour; the sampler states of
 * the effect (point filtering, clamp) and its texture parameter are applied by the pass. */
XGD_FIXTURE(effect_fx_texture_times_vertex_color)
{
    const int W = 64, H = 64;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    uint8_t *bytes = NULL;
    xgd_effect *e = fixture_effect(t, dev, &bytes);
    REQUIRE(e != NULL);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    const uint8_t texels[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255 };
    CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels, sizeof texels));
    CHECK_OK(xgd_effect_parameter_set_texture(e, param(t, e, "Tex"), tex));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e, 1)) {
        xgd_vertex_position_color_texture v[6];
        const xgd_color vc = { 255, 128, 64, 255 };
        full_quad(v, vc);
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        uint8_t *actual = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &actual)) {
            /* quadrant centres, away from the texel boundary at u or v = 0.5 */
            const int px[4][2] = { { 16, 16 }, { 48, 16 }, { 16, 48 }, { 48, 48 } };
            for (int q = 0; q < 4; q++) {
                xgd_color got = fx_get(actual, W, px[q][0], px[q][1]);
                const uint8_t *tx = texels + q * 4;
                int want[3] = { fx_q8(tx[0] / 255.0 * vc.r / 255.0), fx_q8(tx[1] / 255.0 * vc.g / 255.0),
                                fx_q8(tx[2] / 255.0 * vc.b / 255.0) };
                CHECK_MSG(abs(got.r - want[0]) <= 1 && abs(got.g - want[1]) <= 1 && abs(got.b - want[2]) <= 1,
                          "quadrant %d: got (%d,%d,%d), expected (%d,%d,%d)", q, got.r, got.g, got.b, want[0],
                          want[1], want[2]);
            }
            free(actual);
        }
        /* the pass set the effect's sampler state on slot 0: point, clamp */
        xgd_sampler_state *ss = NULL;
        xgd_sampler_desc sd;
        memset(&sd, 0, sizeof sd);
        CHECK_OK(xgd_get_sampler_state(dev, 0, &ss));
        CHECK_OK(xgd_sampler_state_get_desc(ss, &sd));
        CHECK_INT(sd.filter, XGD_FILTER_POINT);
        CHECK_INT(sd.address_u, XGD_ADDRESS_CLAMP);
    }
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* A vertex declaration without an input the vertex shader reads: a named error at the draw,
 * nothing drawn. */
XGD_FIXTURE(effect_fx_missing_vertex_input)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    uint8_t *bytes = NULL;
    xgd_effect *e = fixture_effect(t, dev, &bytes);
    REQUIRE(e != NULL);
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    if (apply_or_skip(t, dev, e, 0)) {
        CHECK_RESULT(fx_rect(dev, W, H, 0, 0, (float)W, (float)H, 0, (xgd_color){ 255, 255, 255, 255 }),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK(strstr(xgd_device_last_error(dev), "TextureCoordinate0") != NULL);
        uint8_t *img = fx_image(W, H, (xgd_color){ 10, 20, 30, 255 });
        fx_expect_back_buffer(t, dev, "effect_fx_missing_vertex_input", img, W, H, 0);
        free(img);
        /* destroying the applied effect makes the next draw ask for an apply */
        xgd_effect_destroy(e);
        e = NULL;
        xgd_vertex_position_color_texture v[6];
        full_quad(v, (xgd_color){ 255, 255, 255, 255 });
        CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)),
                     XGD_ERROR_INVALID_OPERATION);
    }
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* Shader model 3 through the location rule and the pass's render states: vs_3_0 writes
 * TEXCOORD3 = Colour and COLOR1 = normal * Colour, ps_3_0 outputs (TEXCOORD3 + COLOR1) *
 * Colour; the pass sets CullMode None and ZEnable false, so a counter-clockwise quad is drawn
 * and the device's states say so afterwards. */
XGD_FIXTURE(effect_fx_sm3_varyings_and_render_states)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    char err[256] = "";
    size_t n = 0;
    uint8_t *bytes = sm3_effect(&n, err, sizeof err);
    CHECK_MSG(bytes != NULL, "fx writer: %s", err);
    REQUIRE(bytes != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, bytes, n, &e));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, dev, e, 0)) {
        xgd_rasterizer_state *rs = NULL;
        xgd_rasterizer_desc rd;
        memset(&rd, 0, sizeof rd);
        CHECK_OK(xgd_get_rasterizer_state(dev, &rs));
        CHECK_OK(xgd_rasterizer_state_get_desc(rs, &rd));
        CHECK_INT(rd.cull_mode, XGD_CULL_NONE);
        xgd_depth_stencil_state *ds = NULL;
        xgd_depth_stencil_desc dd;
        memset(&dd, 0, sizeof dd);
        CHECK_OK(xgd_get_depth_stencil_state(dev, &ds));
        CHECK_OK(xgd_depth_stencil_state_get_desc(ds, &dd));
        CHECK(!dd.depth_buffer_enable);
        xgd_vertex_position_normal_texture q[4];
        const float xs[4] = { -1, 1, 1, -1 }, ys[4] = { 1, 1, -1, -1 };
        for (int i = 0; i < 4; i++) {
            q[i].position = (xgd_vector3){ xs[i], ys[i], 0.5f };
            q[i].normal = (xgd_vector3){ 0, 0, 1 };
            q[i].texture_coordinate = (xgd_vector2){ 0, 0 };
        }
        /* counter-clockwise on screen: culled unless the pass turned culling off */
        xgd_vertex_position_normal_texture v[6] = { q[0], q[2], q[1], q[0], q[3], q[2] };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE)));
        /* (Colour + (0,0,1,0) * Colour) * Colour, Colour = (0.25, 0.5, 0.75, 1); w of the
           normal reads 1 (a missing component), so alpha = (1 + 1) * 1, clamped */
        const double k[4] = { 0.25, 0.5, 0.75, 1 }, nrm[4] = { 0, 0, 1, 1 };
        xgd_color want = { fx_q8((k[0] + nrm[0] * k[0]) * k[0]), fx_q8((k[1] + nrm[1] * k[1]) * k[1]),
                           fx_q8((k[2] + nrm[2] * k[2]) * k[2]), fx_q8((k[3] + nrm[3] * k[3]) * k[3]) };
        uint8_t *img = fx_image(W, H, want);
        fx_expect_back_buffer(t, dev, "effect_fx_sm3_varyings_and_render_states", img, W, H, 1);
        free(img);
    }
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* SpriteBatch with a pixel-shader-only effect (XNA's sprite effects): SpriteBatch's vertex
 * shader and matrix stay, the effect's pixel shader colours the sprite: texture * Tint. */
XGD_FIXTURE(effect_fx_sprite_batch_pixel_shader)
{
    const int W = 16, H = 16;
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    fxw *w = fxw_create();
    float tint[4] = { 0.5f, 1, 0.25f, 1 };
    fxw_param(w, "Tint", NULL, FXW_VECTOR, FXW_FLOAT, 1, 4, 0, tint);
    fxw_sampler_param(w, "TextureSampler", FXW_SAMPLER2D, -1, NULL, 0);
    int tech = fxw_technique(w, "Tinted");
    int pass = fxw_pass(w, tech, "P0");
    static const char ps[] = "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, v0\n"
                             "mul r0, r0, c0\nmov oC0, r0\n";
    fxw_symbol syms[2] = { { "Tint", 2, 0, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 },
                           { "TextureSampler", 3, 0, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 } };
    char err[256] = "";
    bool ok = fxw_shader(w, tech, pass, false, ps, syms, 2, err, sizeof err);
    CHECK_MSG(ok, "fx writer: %s", err);
    size_t n = 0;
    uint8_t *bytes = ok ? fxw_finish(w, false, &n) : NULL;
    fxw_destroy(w);
    REQUIRE(bytes != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, bytes, n, &e));
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
    xgd_result r = xgd_sprite_batch_begin(batch, &(xgd_sprite_batch_begin_desc){ .effect = e });
    CHECK_OK(r);
    xgd_sprite sp = XGD_SPRITE_INIT;
    sp.position = (xgd_vector2){ 2, 3 };
    CHECK_OK(xgd_sprite_batch_draw(batch, tex, &sp));
    r = xgd_sprite_batch_end(batch);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes yet (NOT_SUPPORTED)");
    } else {
        CHECK_MSG(r == XGD_OK, "end: %s", xgd_device_last_error(dev));
        /* the sprite covers [2,6) x [3,7), texel-exact; its colour is texel * Tint */
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        xgd_color want = { fx_q8(200 / 255.0 * 0.5), fx_q8(100 / 255.0), fx_q8(40 / 255.0 * 0.25), 255 };
        fx_fill(img, W, H, 2, 3, 6, 7, want);
        fx_expect_back_buffer(t, dev, "effect_fx_sprite_batch_pixel_shader", img, W, H, 1);
        free(img);
    }
    xgd_sprite_batch_destroy(batch);
    xgd_texture_destroy(tex);
    xgd_effect_destroy(e);
    free(bytes);
    xgd_device_destroy(dev);
}

/* An effect outlives its device as a disposed shell (its shaders and the state objects its
 * passes made go with the device); every call then answers OBJECT_DISPOSED and destroy frees
 * it. Applied first, so natives and pass states exist where the renderer runs effects. */
XGD_FIXTURE(effect_fx_outlives_device)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    uint8_t *bytes = NULL;
    xgd_effect *e = fixture_effect(t, dev, &bytes);
    REQUIRE(e != NULL);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    CHECK_OK(xgd_effect_parameter_set_texture(e, param(t, e, "Tex"), tex));
    xgd_result r = xgd_effect_pass_apply(e, 1, 0);
    CHECK_MSG(r == XGD_OK || r == XGD_ERROR_NOT_SUPPORTED, "apply: %s", xgd_device_last_error(dev));
    xgd_effect *c = NULL;
    CHECK_OK(xgd_effect_clone(e, &c));
    xgd_device_destroy(dev);
    int count = 0;
    CHECK_RESULT(xgd_effect_get_technique_count(e, &count), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_effect_pass_apply(c, 0, 0), XGD_ERROR_OBJECT_DISPOSED);
    xgd_effect_destroy(c);
    xgd_effect_destroy(e);
    xgd_texture_destroy(tex);
    free(bytes);
}
