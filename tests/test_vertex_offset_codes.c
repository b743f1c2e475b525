/*
 * test_vertex_offset_codes.c - a vertex offset that names no vertex of its buffer gets the same
 * result from xgd_set_vertex_buffer and xgd_set_vertex_buffers.
 *
 * Rule (XNA 4.0): SetVertexBuffer(vb, vertexOffset) and new VertexBufferBinding(vb,
 * vertexOffset, instanceFrequency) both throw ArgumentOutOfRangeException for an offset outside
 * [0, vb.VertexCount) - offsets count vertices, so no offset is misaligned - and a failed call
 * leaves the bound buffers as they were.
 */
#include "fixture_util.h"
#include "harness.h"

#include <string.h>

static void expect_binding(xgdt_ctx *t, xgd_device *dev, xgd_vertex_buffer *vb, int offset)
{
    xgd_vertex_buffer_binding b[2];
    memset(b, 0, sizeof b);
    int n = -1;
    CHECK_OK(xgd_get_vertex_buffers(dev, b, 2, &n));
    CHECK_INT(n, 1);
    CHECK_MSG(b[0].buffer == vb && b[0].vertex_offset == offset && b[0].instance_frequency == 0,
              "the binding changed to offset %d", b[0].vertex_offset);
}

XGD_TEST(VertexOffset_SameCodeFromBothSetters)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xgd_vertex_buffer_desc vd = { xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR), 4,
                                  false, false };
    xgd_vertex_buffer *vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 3));
    const int bad[] = { -1, -1000, 4, 5, 1 << 30 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RESULT(xgd_set_vertex_buffer(dev, vb, bad[i]), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
        expect_binding(t, dev, vb, 3);
        xgd_vertex_buffer_binding b = { vb, bad[i], 0 };
        CHECK_RESULT(xgd_set_vertex_buffers(dev, &b, 1), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
        expect_binding(t, dev, vb, 3);
    }
    /* the last vertex is a valid offset for both */
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 3));
    CHECK_OK(xgd_set_vertex_buffers(dev, &(xgd_vertex_buffer_binding){ vb, 3, 0 }, 1));
    expect_binding(t, dev, vb, 3);
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}
