/*
 * test_buffer.c - neutral-layer tests of vertex declarations, vertex and index buffers and the
 * validation of draw calls (XNA GraphicsDevice.Draw*Primitives argument rules).
 */
#include "harness.h"

#include <string.h>

static uint64_t live_resources(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

static xgd_statistics stats(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s;
}

static xgd_vertex_buffer *make_vb(xgdt_ctx *t, xgd_device *dev, int count, bool dynamic,
                                  bool write_only)
{
    xgd_vertex_buffer *vb = NULL;
    xgd_vertex_buffer_desc d = {
        .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
        .vertex_count = count, .dynamic = dynamic, .write_only = write_only };
    xgd_result r = xgd_vertex_buffer_create(dev, &d, &vb);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "vertex buffer: %s (%s)", xgd_result_name(r),
                     xgd_device_last_error(dev));
    return vb;
}

/* A triangle in front of the camera, visible with identity matrices (clockwise on screen). */
static const xgd_vertex_position_color k_tri[3] = {
    { { -0.5f, -0.5f, 0.5f }, { 255, 0, 0, 255 } },
    { { 0.0f, 0.5f, 0.5f }, { 255, 0, 0, 255 } },
    { { 0.5f, -0.5f, 0.5f }, { 255, 0, 0, 255 } },
};

XGD_TEST(buffer_stock_declarations)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    /* XNA's stock vertex strides: 12+4, 12+8, 12+4+8, 12+12+8 */
    static const struct { xgd_stock_vertex k; int stride; size_t c_size; } stock[] = {
        { XGD_VERTEX_POSITION_COLOR, 16, sizeof(xgd_vertex_position_color) },
        { XGD_VERTEX_POSITION_TEXTURE, 20, sizeof(xgd_vertex_position_texture) },
        { XGD_VERTEX_POSITION_COLOR_TEXTURE, 24, sizeof(xgd_vertex_position_color_texture) },
        { XGD_VERTEX_POSITION_NORMAL_TEXTURE, 32, sizeof(xgd_vertex_position_normal_texture) },
    };
    for (size_t i = 0; i < 4; i++) {
        xgd_vertex_declaration *d = xgd_vertex_declaration_stock(dev, stock[i].k);
        CHECK(d != NULL);
        CHECK_INT(xgd_vertex_declaration_stride(d), stock[i].stride);
        CHECK_INT(stock[i].c_size, stock[i].stride);
    }
    CHECK(xgd_vertex_declaration_stock(dev, (xgd_stock_vertex)4) == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_vertex_declaration_validation)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    uint64_t live = live_resources(dev);
    const xgd_vertex_element pc[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
    };
    xgd_vertex_declaration *decl = NULL;
    CHECK_OK(xgd_vertex_declaration_create(dev, pc, 2, 0, &decl));
    CHECK_INT(xgd_vertex_declaration_stride(decl), 16);
    CHECK_INT(live_resources(dev), live + 1);
    xgd_vertex_declaration_destroy(decl);
    decl = NULL;
    CHECK_OK(xgd_vertex_declaration_create(dev, pc, 2, 32, &decl));
    CHECK_INT(xgd_vertex_declaration_stride(decl), 32);
    xgd_vertex_declaration_destroy(decl);
    CHECK_INT(live_resources(dev), live);

    const xgd_vertex_element overlap[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 8, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
    };
    const xgd_vertex_element bad_format[] = {
        { 0, XGD_VERTEX_FORMAT_COUNT, XGD_VERTEX_USAGE_POSITION, 0 },
    };
    const xgd_vertex_element bad_usage[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_COUNT, 0 },
    };
    const xgd_vertex_element negative[] = {
        { -4, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
    };
    struct { const char *what; const xgd_vertex_element *e; int count, stride; } rows[] = {
        { "no elements", pc, 0, 0 },
        { "negative count", pc, -1, 0 },
        { "NULL elements", NULL, 2, 0 },
        { "overlapping", overlap, 2, 0 },
        { "beyond the stride", pc, 2, 12 },
        { "negative stride", pc, 2, -16 },
        { "unknown format", bad_format, 1, 0 },
        { "unknown usage", bad_usage, 1, 0 },
        { "negative offset", negative, 1, 0 },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        decl = (xgd_vertex_declaration *)(uintptr_t)1;
        xgd_result r = xgd_vertex_declaration_create(dev, rows[i].e, rows[i].count, rows[i].stride,
                                                     &decl);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "%s: %s", rows[i].what, xgd_result_name(r));
        CHECK_MSG(decl == NULL, "%s: *out not NULL", rows[i].what);
    }
    CHECK_INT(live_resources(dev), live);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_vertex_roundtrip)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_statistics s0 = stats(dev);
    xgd_vertex_buffer *vb = make_vb(t, dev, 4, false, false);
    REQUIRE(vb);
    xgd_statistics s1 = stats(dev);
    CHECK_INT(s1.buffers_created, s0.buffers_created + 1);
    CHECK_INT(s1.live_resources, s0.live_resources + 1);

    uint8_t in[64], out[64];
    for (int i = 0; i < 64; i++) in[i] = (uint8_t)(i * 7 + 1);
    memset(out, 0, sizeof out);
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 0, out, 64));
    for (int i = 0; i < 64; i++) CHECK_MSG(out[i] == 0, "new buffer byte %d is %u", i, out[i]);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, in, 64, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 0, out, 64));
    CHECK(memcmp(in, out, 64) == 0);
    /* a partial write at an offset, a partial read */
    uint8_t patch[16];
    memset(patch, 0xAA, sizeof patch);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 16, patch, 16, XGD_SET_DATA_NONE));
    uint8_t mid[20];
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 14, mid, 20));
    CHECK_INT(mid[0], in[14]);
    CHECK_INT(mid[1], in[15]);
    for (int i = 2; i < 18; i++) CHECK_INT(mid[i], 0xAA);
    CHECK_INT(mid[18], in[32]);
    CHECK_INT(mid[19], in[33]);
    xgd_vertex_buffer_destroy(vb);
    CHECK_INT(live_resources(dev), s0.live_resources);
    xgd_device_destroy(dev);
}

/* Out-of-range writes and reads are refused and change nothing. */
XGD_TEST(buffer_range_checks)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_vertex_buffer *vb = make_vb(t, dev, 2, false, false); /* 32 bytes */
    REQUIRE(vb);
    uint8_t in[48];
    for (int i = 0; i < 48; i++) in[i] = (uint8_t)(200 - i);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, in, 32, XGD_SET_DATA_NONE));
    uint8_t junk[48];
    memset(junk, 0x11, sizeof junk);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 0, junk, 33, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 17, junk, 16, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 32, junk, 1, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, (size_t)-8, junk, 16, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT); /* offset + size wraps around */
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 0, NULL, 16, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 0, junk, 16, (xgd_set_data_options)9),
                 XGD_ERROR_INVALID_ARGUMENT);
    uint8_t out[48];
    CHECK_RESULT(xgd_vertex_buffer_get_data(vb, 0, out, 33), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_get_data(vb, 31, out, 2), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_get_data(vb, 0, NULL, 4), XGD_ERROR_INVALID_ARGUMENT);
    memset(out, 0, sizeof out);
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 0, out, 32));
    CHECK_MSG(memcmp(in, out, 32) == 0, "a refused write changed the buffer");
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}

/* Discard/NoOverwrite belong to dynamic buffers (xgd.h: INVALID_ARGUMENT on a static one). */
XGD_TEST(buffer_set_data_options)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_vertex_buffer *st = make_vb(t, dev, 2, false, false);
    xgd_vertex_buffer *dyn = make_vb(t, dev, 2, true, false);
    REQUIRE(st && dyn);
    uint8_t in[32], out[32];
    for (int i = 0; i < 32; i++) in[i] = (uint8_t)(i + 40);
    CHECK_OK(xgd_vertex_buffer_set_data(st, 0, in, 32, XGD_SET_DATA_NONE));
    uint8_t other[32];
    memset(other, 3, sizeof other);
    CHECK_RESULT(xgd_vertex_buffer_set_data(st, 0, other, 32, XGD_SET_DATA_DISCARD),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_vertex_buffer_set_data(st, 0, other, 16, XGD_SET_DATA_NO_OVERWRITE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_vertex_buffer_get_data(st, 0, out, 32));
    CHECK(memcmp(in, out, 32) == 0);

    CHECK_OK(xgd_vertex_buffer_set_data(dyn, 0, in, 32, XGD_SET_DATA_DISCARD));
    CHECK_OK(xgd_vertex_buffer_set_data(dyn, 16, other, 16, XGD_SET_DATA_NO_OVERWRITE));
    CHECK_OK(xgd_vertex_buffer_get_data(dyn, 0, out, 32));
    CHECK(memcmp(in, out, 16) == 0);
    CHECK(memcmp(other, out + 16, 16) == 0);

    xgd_index_buffer *ib = NULL;
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 4 }, &ib));
    CHECK_RESULT(xgd_index_buffer_set_data(ib, 0, other, 8, XGD_SET_DATA_DISCARD),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(st);
    xgd_vertex_buffer_destroy(dyn);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_write_only_get_data_refused)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_vertex_buffer *vb = make_vb(t, dev, 2, false, true);
    REQUIRE(vb);
    uint8_t in[32] = { 1, 2, 3 }, out[32];
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, in, 32, XGD_SET_DATA_NONE));
    memset(out, 0x77, sizeof out);
    CHECK_RESULT(xgd_vertex_buffer_get_data(vb, 0, out, 32), XGD_ERROR_INVALID_OPERATION);
    for (int i = 0; i < 32; i++) CHECK_INT(out[i], 0x77);
    xgd_index_buffer *ib = NULL;
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 4,
                                       .write_only = true }, &ib));
    CHECK_OK(xgd_index_buffer_set_data(ib, 0, in, 8, XGD_SET_DATA_NONE));
    CHECK_RESULT(xgd_index_buffer_get_data(ib, 0, out, 8), XGD_ERROR_INVALID_OPERATION);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_index_roundtrip_and_alignment)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_index_buffer *ib16 = NULL, *ib32 = NULL;
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6 }, &ib16));
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 3,
                                       .element_size = XGD_INDEX_THIRTY_TWO_BITS }, &ib32));
    const uint16_t i16[6] = { 0, 1, 2, 2, 1, 65535 };
    const uint32_t i32[3] = { 7, 70000, 0xFFFFFFFEu };
    CHECK_OK(xgd_index_buffer_set_data(ib16, 0, i16, sizeof i16, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_index_buffer_set_data(ib32, 0, i32, sizeof i32, XGD_SET_DATA_NONE));
    uint16_t o16[6];
    uint32_t o32[3];
    CHECK_OK(xgd_index_buffer_get_data(ib16, 0, o16, sizeof o16));
    CHECK_OK(xgd_index_buffer_get_data(ib32, 0, o32, sizeof o32));
    CHECK(memcmp(i16, o16, sizeof i16) == 0);
    CHECK(memcmp(i32, o32, sizeof i32) == 0);

    /* whole indices only: offsets and sizes are multiples of the element size */
    const uint8_t junk[8] = { 9, 9, 9, 9, 9, 9, 9, 9 };
    CHECK_RESULT(xgd_index_buffer_set_data(ib16, 1, junk, 2, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_index_buffer_set_data(ib16, 0, junk, 3, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_index_buffer_set_data(ib32, 2, junk, 4, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_index_buffer_set_data(ib32, 0, junk, 6, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_index_buffer_set_data(ib16, 10, junk, 4, XGD_SET_DATA_NONE),
                 XGD_ERROR_INVALID_ARGUMENT); /* past the end */
    CHECK_OK(xgd_index_buffer_get_data(ib16, 0, o16, sizeof o16));
    CHECK_OK(xgd_index_buffer_get_data(ib32, 0, o32, sizeof o32));
    CHECK(memcmp(i16, o16, sizeof i16) == 0);
    CHECK(memcmp(i32, o32, sizeof i32) == 0);

    xgd_index_buffer *bad = (xgd_index_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 0 }, &bad),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    bad = (xgd_index_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 3,
                 .element_size = (xgd_index_element_size)3 }, &bad), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    xgd_index_buffer_destroy(ib16);
    xgd_index_buffer_destroy(ib32);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_vertex_create_validation)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_device *other = xgdt_device(t, NULL);
    REQUIRE(other);
    uint64_t live = live_resources(dev);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    xgd_vertex_declaration *foreign = xgd_vertex_declaration_stock(other,
                                                                   XGD_VERTEX_POSITION_COLOR);
    xgd_vertex_buffer *vb = (xgd_vertex_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = decl,
                 .vertex_count = 0 }, &vb), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(vb == NULL);
    vb = (xgd_vertex_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = decl,
                 .vertex_count = -3 }, &vb), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(vb == NULL);
    vb = (xgd_vertex_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = NULL,
                 .vertex_count = 3 }, &vb), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(vb == NULL);
    vb = (xgd_vertex_buffer *)(uintptr_t)1;
    CHECK_RESULT(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = foreign,
                 .vertex_count = 3 }, &vb), XGD_ERROR_INVALID_OPERATION);
    CHECK(vb == NULL);
    CHECK_RESULT(xgd_vertex_buffer_create(dev, NULL, &vb), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(live_resources(dev), live);

    /* the buffer keeps its layout after its declaration is destroyed */
    const xgd_vertex_element pc[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
    };
    xgd_vertex_declaration *mine = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, pc, 2, 0, &mine));
    vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = mine,
               .vertex_count = 3 }, &vb));
    xgd_vertex_declaration_destroy(mine);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, k_tri, sizeof k_tri, XGD_SET_DATA_NONE));
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(other);
    xgd_device_destroy(dev);
}

/* Draw calls need an applied effect (XNA: InvalidOperation "a valid vertex shader and pixel
 * shader must be set"); a bound vertex buffer; counts inside the buffer. */
XGD_TEST(buffer_draw_validation)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_vertex_buffer *vb = make_vb(t, dev, 3, false, false);
    REQUIRE(vb);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, k_tri, sizeof k_tri, XGD_SET_DATA_NONE));
    xgd_statistics s0 = stats(dev);

    /* no effect applied yet */
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 1),
                 XGD_ERROR_INVALID_OPERATION);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 1, decl),
                 XGD_ERROR_INVALID_OPERATION);

    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));

    /* no vertex buffer */
    CHECK_OK(xgd_set_vertex_buffer(dev, NULL, 0));
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 1),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    /* counts */
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 2),
                 XGD_ERROR_INVALID_ARGUMENT); /* 6 vertices from a 3-vertex buffer */
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 1, 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, -1, 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_COUNT, 0, 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_LINE_STRIP, 0, 3),
                 XGD_ERROR_INVALID_ARGUMENT); /* a 3-line strip needs 4 vertices */
    /* the vertex offset of SetVertexBuffer counts too */
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 1));
    CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_vertex_buffer(dev, vb, -1), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    xgd_statistics s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    CHECK_INT(s1.primitives, s0.primitives);

    /* what fits draws, and each call counts */
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    CHECK_OK(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 1));
    CHECK_OK(xgd_draw_primitives(dev, XGD_PRIMITIVE_LINE_STRIP, 0, 2));
    CHECK_OK(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, 0, 1));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 1, decl));
    s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls + 4);
    CHECK_INT(s1.primitives, s0.primitives + 5);

    xgd_effect_destroy(fx);
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}

XGD_TEST(buffer_indexed_draw_validation)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_vertex_buffer *vb = make_vb(t, dev, 3, false, false);
    REQUIRE(vb);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, k_tri, sizeof k_tri, XGD_SET_DATA_NONE));
    xgd_index_buffer *ib = NULL;
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 3 }, &ib));
    const uint16_t idx[3] = { 0, 1, 2 };
    CHECK_OK(xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    xgd_statistics s0 = stats(dev);

    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, 0, 1),
                 XGD_ERROR_INVALID_OPERATION); /* no index buffer */
    CHECK_OK(xgd_set_indices(dev, ib));
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, 1, 1),
                 XGD_ERROR_INVALID_ARGUMENT); /* indices 1..3 of 3 */
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, 0, 2),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, 0, 0),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 0, 0, 1),
                 XGD_ERROR_INVALID_ARGUMENT); /* num_vertices 0 */
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, -1, 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_statistics s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    CHECK_OK(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 3, 0, 1));
    s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls + 1);
    CHECK_INT(s1.primitives, s0.primitives + 1);

    /* user indexed */
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    CHECK_RESULT(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 3,
                                                  NULL, 0, 1, XGD_INDEX_SIXTEEN_BITS, decl),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 3,
                                                  idx, 0, 1, (xgd_index_element_size)5, decl),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 3,
                                                  idx, 0, 1, XGD_INDEX_SIXTEEN_BITS, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 3, idx,
                                              0, 1, XGD_INDEX_SIXTEEN_BITS, decl));
    s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls + 2);

    xgd_effect_destroy(fx);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}

/* A render target cannot be sampled while it is bound (xgd_set_texture: INVALID_OPERATION at
 * draw time). */
XGD_TEST(buffer_draw_with_bound_target_as_texture)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_texture *rt = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8,
                                          .height = 8 }, &rt));
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_set_texture(dev, 0, rt));
    xgd_statistics s0 = stats(dev);
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 1, decl),
                 XGD_ERROR_INVALID_OPERATION);
    xgd_statistics s1 = stats(dev);
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    CHECK_OK(xgd_set_texture(dev, 0, NULL));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, k_tri, 0, 1, decl));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}
