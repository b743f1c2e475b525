/*
 * Hardware instancing (XNA 4.0 HiDef): xgd_set_vertex_buffers with per-instance bindings and
 * xgd_draw_instanced_primitives, through a user effect (fx_2_0, vs_3_0 / ps_3_0 assembled by
 * MojoShader in fx_writer.c) whose vertex shader reads a per-instance row-vector matrix in
 * TEXCOORD1..4 and a per-instance colour in COLOR1:
 *     position = float4(corner, 0, 1) * float4x4(TEXCOORD1, TEXCOORD2, TEXCOORD3, TEXCOORD4)
 *     colour   = COLOR1
 * The fixtures draw a grid of small quads, each instance's rectangle and colour computed here
 * from its instance data; unit tests check the binding and draw rules.
 */
#include "fixture_util.h"
#include "harness.h"
#include "fx2_support.h"

#include <stdlib.h>
#include <string.h>

#include "fx_writer.h"

/* one instance: the matrix rows (TEXCOORD1..4) and the colour (COLOR1) */
typedef struct instance {
    float m[4][4];
    xgd_color color;
} instance;

typedef struct scene {
    xgd_device *dev;
    xgd_effect *effect;
    uint8_t *bytes;
    xgd_vertex_declaration *quad_decl, *inst_decl, *xform_decl, *color_decl;
    xgd_vertex_buffer *quad_vb;
    xgd_index_buffer *ib;
} scene;

/* Grid of the fixtures: COLS x ROWS cells of CELL pixels, each instance a SIDE x SIDE square
 * at the cell's top left, with D3D10 pixel centres so whole-pixel edges are unambiguous. */
enum { COLS = 40, ROWS = 25, CELL = 4, SIDE = 3, W = COLS * CELL, H = ROWS * CELL, N = COLS * ROWS };

static xgd_color instance_color(int i)
{
    return (xgd_color){ (uint8_t)(5 + 25 * (i % 10)), (uint8_t)(5 + 25 * (i / 10 % 10)),
                        (uint8_t)(5 + 25 * (i / 100 % 10)), 255 };
}

/* The matrix placing the unit square (corners (0,0)..(1,1)) on instance i's pixels. */
static void instance_matrix(int i, float m[4][4])
{
    int x0 = i % COLS * CELL, y0 = i / COLS * CELL;
    memset(m, 0, sizeof(float) * 16);
    m[0][0] = 2.0f * SIDE / W;
    m[1][1] = -2.0f * SIDE / H;
    m[3][0] = 2.0f * (float)x0 / W - 1.0f;
    m[3][1] = 1.0f - 2.0f * (float)y0 / H;
    m[3][3] = 1.0f;
}

static void scene_destroy(scene *s)
{
    xgd_effect_destroy(s->effect);
    xgd_vertex_buffer_destroy(s->quad_vb);
    xgd_index_buffer_destroy(s->ib);
    xgd_vertex_declaration_destroy(s->quad_decl);
    xgd_vertex_declaration_destroy(s->inst_decl);
    xgd_vertex_declaration_destroy(s->xform_decl);
    xgd_vertex_declaration_destroy(s->color_decl);
    free(s->bytes);
    xgd_device_destroy(s->dev);
}

static xgd_vertex_buffer *make_vb(xgdt_ctx *t, xgd_device *dev, xgd_vertex_declaration *decl,
                                  int count, const void *data)
{
    xgd_vertex_buffer_desc vd = { decl, count, false, false };
    xgd_vertex_buffer *vb = NULL;
    CHECK_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    if (vb != NULL)
        CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, data,
                                            (size_t)count * (size_t)xgd_vertex_declaration_stride(decl),
                                            XGD_SET_DATA_NONE));
    return vb;
}

/* Device, effect, declarations, the unit quad (4 vertices, 6 indices). False: skip or failure
 * recorded. */
static bool scene_create(xgdt_ctx *t, scene *s, xgd_graphics_profile profile)
{
    memset(s, 0, sizeof *s);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
    dd.profile = profile;
    s->dev = xgdt_device(t, &dd);
    if (s->dev == NULL) return false;
    if (!xgdt_fx2_available(t, s->dev)) return false;
    char err[256] = "";
    size_t n = 0;
    s->bytes = fxw_instancing(&n, err, sizeof err);
    CHECK_MSG(s->bytes != NULL, "fx writer: %s", err);
    if (s->bytes == NULL) return false;
    xgd_result r = xgd_effect_create(s->dev, s->bytes, n, &s->effect);
    CHECK_MSG(r == XGD_OK, "xgd_effect_create: %s", xgd_device_last_error(s->dev));
    if (r != XGD_OK) return false;
    const xgd_vertex_element quad_el[] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 } };
    const xgd_vertex_element inst_el[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 1 },
        { 16, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 2 },
        { 32, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 3 },
        { 48, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 4 },
        { 64, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 } };
    const xgd_vertex_element color_el[] = { { 0, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 } };
    CHECK_OK(xgd_vertex_declaration_create(s->dev, quad_el, 1, 0, &s->quad_decl));
    CHECK_OK(xgd_vertex_declaration_create(s->dev, inst_el, 5, 0, &s->inst_decl));
    CHECK_OK(xgd_vertex_declaration_create(s->dev, inst_el, 4, 0, &s->xform_decl));
    CHECK_OK(xgd_vertex_declaration_create(s->dev, color_el, 1, 0, &s->color_decl));
    if (!s->quad_decl || !s->inst_decl || !s->xform_decl || !s->color_decl) return false;
    const xgd_vector3 quad[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
    s->quad_vb = make_vb(t, s->dev, s->quad_decl, 4, quad);
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    xgd_index_buffer_desc id = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    CHECK_OK(xgd_index_buffer_create(s->dev, &id, &s->ib));
    if (s->ib != NULL) CHECK_OK(xgd_index_buffer_set_data(s->ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    if (s->quad_vb == NULL || s->ib == NULL) return false;
    CHECK_OK(xgd_set_indices(s->dev, s->ib));
    return true;
}

static bool apply_or_skip(xgdt_ctx *t, scene *s)
{
    xgd_result r = xgd_effect_pass_apply(s->effect, 0, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(s->dev));
    return r == XGD_OK;
}

/* The expected image: instance i's SIDE x SIDE square in its colour over the clear colour;
 * color_of(i) is the colour instance i reads. */
static uint8_t *grid_image(xgd_color clear, int count, xgd_color (*color_of)(int))
{
    uint8_t *img = fx_image(W, H, clear);
    for (int i = 0; i < count && img != NULL; i++) {
        xgd_color c = color_of(i);
        int x0 = i % COLS * CELL, y0 = i / COLS * CELL;
        for (int y = y0; y < y0 + SIDE; y++)
            for (int x = x0; x < x0 + SIDE; x++) {
                uint8_t *p = img + ((size_t)y * W + (size_t)x) * 4;
                p[0] = c.r;
                p[1] = c.g;
                p[2] = c.b;
                p[3] = c.a;
            }
    }
    return img;
}

/* 1,000 instances in one draw: the quad per vertex, matrix and colour per instance. */
XGD_FIXTURE(instancing_grid_1000)
{
    scene s;
    if (!scene_create(t, &s, XGD_GRAPHICS_PROFILE_HIDEF)) {
        scene_destroy(&s);
        return;
    }
    instance *inst = calloc(N, sizeof *inst);
    REQUIRE(inst != NULL);
    for (int i = 0; i < N; i++) {
        instance_matrix(i, inst[i].m);
        inst[i].color = instance_color(i);
    }
    xgd_vertex_buffer *ivb = make_vb(t, s.dev, s.inst_decl, N, inst);
    CHECK_OK(xgd_clear_color(s.dev, (xgd_color){ 0, 0, 0, 255 }));
    if (ivb != NULL && apply_or_skip(t, &s)) {
        xgd_vertex_buffer_binding b[2] = { { s.quad_vb, 0, 0 }, { ivb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(s.dev, b, 2));
        xgd_result r = xgd_draw_instanced_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, N);
        CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(s.dev));
        /* then one quad through a single buffer holding every input per vertex (the same
           program, another layout): cell 0 in white, the bindings' streams no longer used */
        typedef struct full_vertex {
            xgd_vector3 pos;
            float m[4][4];
            xgd_color color;
        } full_vertex;
        const xgd_vertex_element full_el[] = {
            { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
            { 12, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 1 },
            { 28, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 2 },
            { 44, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 3 },
            { 60, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 4 },
            { 76, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 } };
        xgd_vertex_declaration *fd = NULL;
        CHECK_OK(xgd_vertex_declaration_create(s.dev, full_el, 6, (int)sizeof(full_vertex), &fd));
        full_vertex fv[4];
        const xgd_vector3 corners[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
        for (int k = 0; k < 4; k++) {
            fv[k].pos = corners[k];
            instance_matrix(0, fv[k].m);
            fv[k].color = (xgd_color){ 255, 255, 255, 255 };
        }
        xgd_vertex_buffer *fvb = fd != NULL ? make_vb(t, s.dev, fd, 4, fv) : NULL;
        if (fvb != NULL) {
            CHECK_OK(xgd_set_vertex_buffer(s.dev, fvb, 0));
            CHECK_OK(xgd_draw_indexed_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2));
        }
        uint8_t *img = grid_image((xgd_color){ 0, 0, 0, 255 }, N, instance_color);
        for (int y = 0; y < SIDE && img != NULL; y++)
            for (int x = 0; x < SIDE; x++) memset(img + ((size_t)y * W + (size_t)x) * 4, 255, 4);
        fx_expect_back_buffer(t, s.dev, "instancing_grid_1000", img, W, H, 1);
        free(img);
        xgd_vertex_buffer_destroy(fvb);
        xgd_vertex_declaration_destroy(fd);
    }
    xgd_vertex_buffer_destroy(ivb);
    free(inst);
    scene_destroy(&s);
}

static xgd_color pair_color(int i) { return instance_color(i / 2); }

/* Three bindings: the transform at frequency 1 from a vertex offset of 5, the colour at
 * frequency 2 (instances 2k and 2k+1 share colour k), a base vertex into a quad stored after
 * 2 unused vertices; then a non-instanced draw through the same bindings reads instance 0. */
XGD_FIXTURE(instancing_frequency_offsets)
{
    scene s;
    if (!scene_create(t, &s, XGD_GRAPHICS_PROFILE_HIDEF)) {
        scene_destroy(&s);
        return;
    }
    enum { M = 200, SKIP = 5 };
    float(*xf)[4][4] = calloc(M + SKIP, sizeof *xf);
    xgd_color *col = calloc(M / 2, sizeof *col);
    REQUIRE(xf != NULL && col != NULL);
    for (int i = 0; i < M + SKIP; i++) instance_matrix(i >= SKIP ? i - SKIP : N - 1, xf[i]);
    for (int k = 0; k < M / 2; k++) col[k] = instance_color(k);
    const xgd_vector3 quad[6] = { { 9, 9, 0 }, { 9, 9, 0 }, { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
    xgd_vertex_buffer *qvb = make_vb(t, s.dev, s.quad_decl, 6, quad);
    xgd_vertex_buffer *xvb = make_vb(t, s.dev, s.xform_decl, M + SKIP, xf);
    xgd_vertex_buffer *cvb = make_vb(t, s.dev, s.color_decl, M / 2, col);
    CHECK_OK(xgd_clear_color(s.dev, (xgd_color){ 0, 0, 0, 255 }));
    if (qvb && xvb && cvb && apply_or_skip(t, &s)) {
        xgd_vertex_buffer_binding b[3] = { { xvb, SKIP, 1 }, { qvb, 0, 0 }, { cvb, 0, 2 } };
        CHECK_OK(xgd_set_vertex_buffers(s.dev, b, 3));
        xgd_result r = xgd_draw_instanced_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 2, 0, 4, 0, 2, M);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            xgdt_not_supported(t, xgd_device_last_error(s.dev));
        } else {
            CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(s.dev));
            uint8_t *img = grid_image((xgd_color){ 0, 0, 0, 255 }, M, pair_color);
            fx_expect_back_buffer(t, s.dev, "instancing_frequency_offsets", img, W, H, 1);
            /* a non-instanced draw reads instance 0's data: the first square again, in
               colour 0, over a cleared target */
            CHECK_OK(xgd_clear_color(s.dev, (xgd_color){ 0, 0, 0, 255 }));
            r = xgd_draw_indexed_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 2, 0, 4, 0, 2);
            CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(s.dev));
            free(img);
            img = grid_image((xgd_color){ 0, 0, 0, 255 }, 1, pair_color);
            fx_expect_back_buffer(t, s.dev, "instancing_non_instanced_reads_instance_0", img, W, H, 1);
            free(img);
        }
    }
    xgd_vertex_buffer_destroy(qvb);
    xgd_vertex_buffer_destroy(xvb);
    xgd_vertex_buffer_destroy(cvb);
    free(xf);
    free(col);
    scene_destroy(&s);
}

/* Several per-vertex streams in a non-indexed draw: positions (from a vertex offset of 1) and
 * colours in two buffers, the transform per instance; xgd_draw_primitives reads instance 0. */
XGD_FIXTURE(instancing_per_vertex_streams)
{
    scene s;
    if (!scene_create(t, &s, XGD_GRAPHICS_PROFILE_HIDEF)) {
        scene_destroy(&s);
        return;
    }
    const xgd_vector3 pos[7] = { { 5, 5, 0 }, { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 },
                                 { 0, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
    const xgd_color c = { 200, 100, 50, 255 };
    const xgd_color cols[6] = { c, c, c, c, c, c };
    float xf[2][4][4];
    instance_matrix(41, xf[0]); /* cell (1, 1) */
    instance_matrix(0, xf[1]);
    xgd_vertex_buffer *pvb = make_vb(t, s.dev, s.quad_decl, 7, pos);
    xgd_vertex_buffer *cvb = make_vb(t, s.dev, s.color_decl, 6, cols);
    xgd_vertex_buffer *xvb = make_vb(t, s.dev, s.xform_decl, 2, xf);
    CHECK_OK(xgd_clear_color(s.dev, (xgd_color){ 0, 0, 0, 255 }));
    if (pvb && cvb && xvb && apply_or_skip(t, &s)) {
        xgd_vertex_buffer_binding b[3] = { { pvb, 1, 0 }, { cvb, 0, 0 }, { xvb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(s.dev, b, 3));
        xgd_result r = xgd_draw_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 2);
        CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(s.dev));
        /* beyond the shortest per-vertex binding (6 vertices after the offset) */
        CHECK_RESULT(xgd_draw_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 1, 2), XGD_ERROR_INVALID_ARGUMENT);
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        for (int y = CELL; y < CELL + SIDE && img != NULL; y++)
            for (int x = CELL; x < CELL + SIDE; x++) {
                uint8_t *p = img + ((size_t)y * W + (size_t)x) * 4;
                p[0] = c.r;
                p[1] = c.g;
                p[2] = c.b;
                p[3] = 255;
            }
        fx_expect_back_buffer(t, s.dev, "instancing_per_vertex_streams", img, W, H, 1);
        free(img);
    }
    xgd_vertex_buffer_destroy(pvb);
    xgd_vertex_buffer_destroy(cvb);
    xgd_vertex_buffer_destroy(xvb);
    scene_destroy(&s);
}

/* Bad input: each refused with its named error, nothing drawn, the bindings unchanged. */
XGD_FIXTURE(instancing_bad_input)
{
    scene s;
    if (!scene_create(t, &s, XGD_GRAPHICS_PROFILE_HIDEF)) {
        scene_destroy(&s);
        return;
    }
    instance one[4];
    memset(one, 0, sizeof one);
    for (int i = 0; i < 4; i++) {
        instance_matrix(i, one[i].m);
        one[i].color = instance_color(i);
    }
    xgd_vertex_buffer *ivb = make_vb(t, s.dev, s.inst_decl, 4, one);
    xgd_color cols[4] = { { 1, 2, 3, 4 }, { 1, 2, 3, 4 }, { 1, 2, 3, 4 }, { 1, 2, 3, 4 } };
    xgd_vertex_buffer *cvb = make_vb(t, s.dev, s.color_decl, 4, cols);
    REQUIRE(ivb != NULL && cvb != NULL);
    xgd_device *dev = s.dev;
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    if (apply_or_skip(t, &s)) {
        xgd_vertex_buffer_binding good[2] = { { s.quad_vb, 0, 0 }, { ivb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(dev, good, 2));
        /* set_vertex_buffers: count, NULL buffer, offsets, negative frequency */
        xgd_vertex_buffer_binding many[XGD_MAX_VERTEX_BUFFER_BINDINGS + 1];
        for (int i = 0; i <= XGD_MAX_VERTEX_BUFFER_BINDINGS; i++) many[i] = good[0];
        CHECK_RESULT(xgd_set_vertex_buffers(dev, many, XGD_MAX_VERTEX_BUFFER_BINDINGS + 1),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_set_vertex_buffers(dev, NULL, 2), XGD_ERROR_INVALID_ARGUMENT);
        xgd_vertex_buffer_binding bad[2] = { { s.quad_vb, 0, 0 }, { NULL, 0, 1 } };
        CHECK_RESULT(xgd_set_vertex_buffers(dev, bad, 2), XGD_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(xgd_device_last_error(dev), "binding 1") != NULL);
        bad[1] = (xgd_vertex_buffer_binding){ ivb, 4, 1 };
        CHECK_RESULT(xgd_set_vertex_buffers(dev, bad, 2), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
        bad[1] = (xgd_vertex_buffer_binding){ ivb, -1, 1 };
        CHECK_RESULT(xgd_set_vertex_buffers(dev, bad, 2), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
        bad[1] = (xgd_vertex_buffer_binding){ ivb, 0, -1 };
        CHECK_RESULT(xgd_set_vertex_buffers(dev, bad, 2), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
        /* the good bindings stayed */
        xgd_vertex_buffer_binding got[4];
        int count = -1;
        CHECK_OK(xgd_get_vertex_buffers(dev, got, 4, &count));
        CHECK_INT(count, 2);
        CHECK(got[0].buffer == s.quad_vb && got[1].buffer == ivb && got[1].instance_frequency == 1);
        xgd_vertex_buffer *vb0 = NULL;
        int off0 = -1;
        CHECK_OK(xgd_get_vertex_buffer(dev, &vb0, &off0));
        CHECK(vb0 == s.quad_vb);
        CHECK_INT(off0, 0);

        /* draw: instance_count, more instances than the binding holds */
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 0),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, -3),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 5),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(xgd_device_last_error(dev), "binding 1") != NULL);
        /* an index beyond the per-vertex binding (base vertex 1: index 3 reads vertex 4) */
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 1, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_ARGUMENT);
        /* COLOR1 in two bindings */
        xgd_vertex_buffer_binding dup[3] = { { s.quad_vb, 0, 0 }, { ivb, 0, 1 }, { cvb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(dev, dup, 3));
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK(strstr(xgd_device_last_error(dev), "Color1") != NULL);
        /* no per-vertex binding */
        xgd_vertex_buffer_binding inst_only[1] = { { ivb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(dev, inst_only, 1));
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_OPERATION);
        /* an input of the vertex shader in no binding: TEXCOORD1..4 missing */
        xgd_vertex_buffer_binding no_xform[2] = { { s.quad_vb, 0, 0 }, { cvb, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(dev, no_xform, 2));
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK(strstr(xgd_device_last_error(dev), "TextureCoordinate1") != NULL);
        /* a destroyed buffer leaves its binding empty */
        xgd_vertex_buffer *tmp = make_vb(t, dev, s.inst_decl, 4, one);
        xgd_vertex_buffer_binding with_tmp[2] = { { s.quad_vb, 0, 0 }, { tmp, 0, 1 } };
        CHECK_OK(xgd_set_vertex_buffers(dev, with_tmp, 2));
        xgd_vertex_buffer_destroy(tmp);
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK(strstr(xgd_device_last_error(dev), "binding 1") != NULL);
        /* no index buffer */
        CHECK_OK(xgd_set_vertex_buffers(dev, good, 2));
        CHECK_OK(xgd_set_indices(dev, NULL));
        CHECK_RESULT(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 4),
                     XGD_ERROR_INVALID_OPERATION);
        /* nothing was drawn */
        uint8_t *img = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
        fx_expect_back_buffer(t, dev, "instancing_bad_input", img, W, H, 0);
        free(img);
        /* count 0 unbinds everything */
        CHECK_OK(xgd_set_vertex_buffers(dev, NULL, 0));
        CHECK_OK(xgd_get_vertex_buffers(dev, NULL, 0, &count));
        CHECK_INT(count, 0);
        CHECK_OK(xgd_get_vertex_buffer(dev, &vb0, &off0));
        CHECK(vb0 == NULL);
    }
    xgd_vertex_buffer_destroy(ivb);
    xgd_vertex_buffer_destroy(cvb);
    scene_destroy(&s);
}

/* XNA's Reach profile has no instancing: per-instance bindings and the instanced draw are
 * NotSupported there; per-vertex multi-buffer bindings are allowed. */
XGD_FIXTURE(instancing_reach_not_supported)
{
    scene s;
    if (!scene_create(t, &s, XGD_GRAPHICS_PROFILE_REACH)) {
        scene_destroy(&s);
        return;
    }
    instance one;
    memset(&one, 0, sizeof one);
    instance_matrix(0, one.m);
    one.color = instance_color(0);
    xgd_vertex_buffer *ivb = make_vb(t, s.dev, s.inst_decl, 1, &one);
    REQUIRE(ivb != NULL);
    if (apply_or_skip(t, &s)) {
        xgd_vertex_buffer_binding b[2] = { { s.quad_vb, 0, 0 }, { ivb, 0, 1 } };
        CHECK_RESULT(xgd_set_vertex_buffers(s.dev, b, 2), XGD_ERROR_NOT_SUPPORTED);
        CHECK(strstr(xgd_device_last_error(s.dev), "Reach") != NULL);
        b[1].instance_frequency = 0;
        CHECK_OK(xgd_set_vertex_buffers(s.dev, b, 1));
        CHECK_RESULT(xgd_draw_instanced_primitives(s.dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 1),
                     XGD_ERROR_NOT_SUPPORTED);
        CHECK(strstr(xgd_device_last_error(s.dev), "Reach") != NULL);
    }
    xgd_vertex_buffer_destroy(ivb);
    scene_destroy(&s);
}


/* A stock effect reads the first per-vertex binding only, and draws every instance: three
 * instances of one quad under additive blending add its colour three times (a per-instance
 * binding the BasicEffect does not read is ignored). */
XGD_FIXTURE(instancing_basic_effect_instances)
{
    enum { BW = 16, BH = 8 };
    xgd_device *dev = fx_device_centers(t, BW, BH, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    const xgd_color c = { 50, 60, 70, 255 };
    /* the left half of the target */
    const xgd_vertex_position_color quad[4] = {
        { { -1, 1, 0 }, c }, { { 0, 1, 0 }, c }, { { 0, -1, 0 }, c }, { { -1, -1, 0 }, c } };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    xgd_vertex_buffer_desc vd = { xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR), 4, false, false };
    xgd_vertex_buffer *vb = NULL, *extra = NULL;
    CHECK_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    const xgd_vertex_element ce = { 0, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 };
    xgd_vertex_declaration *cd = NULL;
    CHECK_OK(xgd_vertex_declaration_create(dev, &ce, 1, 0, &cd));
    xgd_vertex_buffer_desc ed = { cd, 3, false, false };
    CHECK_OK(xgd_vertex_buffer_create(dev, &ed, &extra));
    xgd_index_buffer_desc id = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    xgd_index_buffer *ib = NULL;
    CHECK_OK(xgd_index_buffer_create(dev, &id, &ib));
    REQUIRE(vb != NULL && extra != NULL && ib != NULL);
    const xgd_color junk[3] = { { 255, 0, 0, 255 }, { 255, 0, 0, 255 }, { 255, 0, 0, 255 } };
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, quad, sizeof quad, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_vertex_buffer_set_data(extra, 0, junk, sizeof junk, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_set_indices(dev, ib));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE)));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_vertex_buffer_binding b[2] = { { vb, 0, 0 }, { extra, 0, 1 } };
    CHECK_OK(xgd_set_vertex_buffers(dev, b, 2));
    xgd_result r = xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 3);
    CHECK_MSG(r == XGD_OK, "draw: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    /* Additive: colour = src * src alpha (1) + dst, three times over black */
    uint8_t *img = fx_image(BW, BH, (xgd_color){ 0, 0, 0, 255 });
    REQUIRE(img != NULL);
    for (int y = 0; y < BH; y++)
        for (int x = 0; x < BW / 2; x++) {
            uint8_t *q = img + ((size_t)y * BW + (size_t)x) * 4;
            q[0] = fx_q8(3.0 * c.r / 255.0);
            q[1] = fx_q8(3.0 * c.g / 255.0);
            q[2] = fx_q8(3.0 * c.b / 255.0);
            q[3] = 255;
        }
    fx_expect_back_buffer(t, dev, "instancing_basic_effect_instances", img, BW, BH, 1);
    free(img);
    xgd_vertex_buffer_destroy(vb);
    xgd_vertex_buffer_destroy(extra);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_declaration_destroy(cd);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
