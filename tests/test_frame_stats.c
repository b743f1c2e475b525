/*
 * test_frame_stats.c - per-frame statistics (spec 003 "RHI Statistics": draw calls, triangles,
 * buffer and texture creations, reset at the start of each frame) and ResetStatistics.
 * Expected numbers are the calls this test makes, counted by hand.
 */
#include "fixture_util.h"

static xgd_result draw_lines(xgd_device *dev, int count)
{
    xgd_vertex_position_color v[16];
    memset(v, 0, sizeof v);
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_LINE_LIST, v, 0, count,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR));
}

static void check_frame(xgdt_ctx *t, const xgd_frame_statistics *f, uint64_t frame, uint64_t draws,
                        uint64_t prims, uint64_t tris, uint64_t clears, uint64_t textures,
                        uint64_t buffers)
{
    CHECK_INT(f->frame, frame);
    CHECK_INT(f->draw_calls, draws);
    CHECK_INT(f->primitives, prims);
    CHECK_INT(f->triangles, tris);
    CHECK_INT(f->clears, clears);
    CHECK_INT(f->textures_created, textures);
    CHECK_INT(f->buffers_created, buffers);
}

XGD_TEST(FrameStatistics)
{
    enum { W = 8, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_frame_statistics f;

    /* before the first Present there is no completed frame */
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, false, &f));
    check_frame(t, &f, 0, 0, 0, 0, 0, 0, 0);
    /* the device's own creations (if any) belong to frame 0: measure them, then add ours */
    xgd_frame_statistics start;
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &start));
    CHECK_INT(start.frame, 0);
    CHECK_INT(start.draw_calls, 0);

    /* frame 0: 2 textures, 1 vertex buffer, 1 clear, 3 draws of 2 triangles, 1 of 4 lines */
    xgd_texture *tex[2];
    for (int i = 0; i < 2; i++) {
        tex[i] = xgdt_solid_texture(t, dev, 2, 2, fx_rgba(1, 2, 3, 255));
        REQUIRE(tex[i]);
    }
    xgd_vertex_buffer *vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(
        dev, &(xgd_vertex_buffer_desc){ .declaration = xgd_vertex_declaration_stock(
                                            dev, XGD_VERTEX_POSITION_COLOR),
                                        .vertex_count = 6 },
        &vb));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    const xgd_color white = { 255, 255, 255, 255 };
    for (int i = 0; i < 3; i++) CHECK_OK(fx_rect(dev, W, H, 0, 0, 4, 4, 0.5f, white));
    CHECK_OK(draw_lines(dev, 4));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f));
    check_frame(t, &f, 0, 4, 10, 6, 1, start.textures_created + 2, start.buffers_created + 1);
    xgd_frame_statistics frame0 = f;

    /* a refused Present does not end the frame */
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(rt);
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, false, &f));
    check_frame(t, &f, 0, 0, 0, 0, 0, 0, 0);

    REQUIRE_OK(xgd_present(dev));
    /* frame 0 is now the last completed frame (the render target adds one texture and two
       target changes); the current frame 1 starts empty */
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, false, &f));
    check_frame(t, &f, 0, 4, 10, 6, 1, frame0.textures_created + 1, frame0.buffers_created);
    CHECK_INT(f.target_changes, frame0.target_changes + 2);
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f));
    check_frame(t, &f, 1, 0, 0, 0, 0, 0, 0);

    /* frame 1: one triangle draw */
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 2, 2, 0.5f, white));
    REQUIRE_OK(xgd_present(dev));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, false, &f));
    check_frame(t, &f, 1, 1, 2, 2, 0, 0, 0);

    /* cumulative counters hold both frames */
    xgd_statistics s;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s));
    CHECK_INT(s.draw_calls, 5);
    CHECK_INT(s.triangles, 8);
    CHECK_INT(s.primitives, 12);
    CHECK_INT(s.frames, 2);

    /* ResetStatistics zeroes the counters and the current frame, not the gauges or the last
       completed frame */
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 2, 2, 0.5f, white));
    uint64_t live = s.live_resources;
    REQUIRE_OK(xgd_device_reset_statistics(dev));
    REQUIRE_OK(xgd_device_get_statistics(dev, &s));
    CHECK_INT(s.draw_calls, 0);
    CHECK_INT(s.triangles, 0);
    CHECK_INT(s.frames, 0);
    CHECK_INT(s.textures_created, 0);
    CHECK_INT(s.live_resources, live);
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f));
    check_frame(t, &f, 0, 0, 0, 0, 0, 0, 0);
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, false, &f));
    check_frame(t, &f, 1, 1, 2, 2, 0, 0, 0);
    /* counting resumes */
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 2, 2, 0.5f, white));
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f));
    CHECK_INT(f.draw_calls, 1);

    /* a disposed device refuses */
    xgd_texture_destroy(rt);
    xgd_vertex_buffer_destroy(vb);
    for (int i = 0; i < 2; i++) xgd_texture_destroy(tex[i]);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
