/*
 * Draw statistics of instanced draws: one DrawInstancedPrimitives is one draw call that draws
 * primitive_count primitives per instance, so the primitive (and triangle) counters grow by
 * primitive_count x instance_count, as a frame capture (PIX) counts it.
 */
#include "fixture_util.h"
#include "harness.h"

#include <string.h>

XGD_FIXTURE(instanced_draw_statistics)
{
    enum { BW = 8, BH = 8, INSTANCES = 5 };
    xgd_device *dev = fx_device_centers(t, BW, BH, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    const xgd_color c = { 10, 20, 30, 255 };
    const xgd_vertex_position_color quad[4] = {
        { { -1, 1, 0 }, c }, { { 1, 1, 0 }, c }, { { 1, -1, 0 }, c }, { { -1, -1, 0 }, c } };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    xgd_vertex_buffer_desc vd = { xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR), 4, false, false };
    xgd_vertex_buffer *vb = NULL, *per_instance = NULL;
    CHECK_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    const xgd_vertex_element ce = { 0, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 };
    xgd_vertex_declaration *cd = NULL;
    CHECK_OK(xgd_vertex_declaration_create(dev, &ce, 1, 0, &cd));
    xgd_vertex_buffer_desc ed = { cd, INSTANCES, false, false };
    CHECK_OK(xgd_vertex_buffer_create(dev, &ed, &per_instance));
    xgd_index_buffer_desc id = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    xgd_index_buffer *ib = NULL;
    CHECK_OK(xgd_index_buffer_create(dev, &id, &ib));
    REQUIRE(vb != NULL && per_instance != NULL && ib != NULL);
    xgd_color colors[INSTANCES];
    memset(colors, 255, sizeof colors);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, quad, sizeof quad, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_vertex_buffer_set_data(per_instance, 0, colors, sizeof colors, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_set_indices(dev, ib));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_vertex_buffer_binding b[2] = { { vb, 0, 0 }, { per_instance, 0, 1 } };
    CHECK_OK(xgd_set_vertex_buffers(dev, b, 2));

    xgd_statistics s0, s1, s2;
    xgd_frame_statistics f0, f1;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s0));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f0));
    /* two triangles per instance, five instances: one draw call, ten triangles */
    CHECK_OK(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, INSTANCES));
    REQUIRE_OK(xgd_device_get_statistics(dev, &s1));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f1));
    CHECK_INT((int)(s1.draw_calls - s0.draw_calls), 1);
    CHECK_INT((int)(s1.primitives - s0.primitives), 2 * INSTANCES);
    CHECK_INT((int)(s1.triangles - s0.triangles), 2 * INSTANCES);
    CHECK_INT((int)(f1.draw_calls - f0.draw_calls), 1);
    CHECK_INT((int)(f1.primitives - f0.primitives), 2 * INSTANCES);
    CHECK_INT((int)(f1.triangles - f0.triangles), 2 * INSTANCES);

    /* lines: three line-list primitives (the quad's first six indices as pairs) per instance
       count as primitives, not triangles */
    CHECK_OK(xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_LINE_LIST, 0, 0, 4, 0, 3, INSTANCES - 1));
    REQUIRE_OK(xgd_device_get_statistics(dev, &s2));
    CHECK_INT((int)(s2.draw_calls - s1.draw_calls), 1);
    CHECK_INT((int)(s2.primitives - s1.primitives), 3 * (INSTANCES - 1));
    CHECK_INT((int)(s2.triangles - s1.triangles), 0);

    xgd_vertex_buffer_destroy(vb);
    xgd_vertex_buffer_destroy(per_instance);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_declaration_destroy(cd);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
