/*
 * test_d3d12_clears.c - the Direct3D 12 renderer records clears lazily (d3d12_commands.c,
 * xgdi_d3d12_op_clear): a clear with no command after it merges into the next clear of the same
 * set, so binding a DiscardContents target and clearing it fills the target once, not twice.
 * Counts the clears it records (stats.clears_recorded); the pixels of merged clears are the
 * fixture Clear_BackToBackKeepEachPlane's, on every renderer.
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "fixture_util.h"
#include "internal.h"
#endif

XGD_TEST(D3D12_ClearsMergeUntilACommand)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    d3d12_renderer *r = (d3d12_renderer *)dev->renderer;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *rt = fx_target(t, dev, 16, 16, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(fx && rt);
    const xgd_color red = { 255, 0, 0, 255 }, blue = { 0, 0, 255, 255 };
    uint8_t px[4];

    /* DiscardContents then Clear: one clear recorded, at the unbind */
    uint64_t n = r->stats.clears_recorded;
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_INT(r->stats.clears_recorded, n);
    CHECK_OK(xgd_clear_color(dev, red));
    CHECK_INT(r->stats.clears_recorded, n);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, fx_vec4(red), 0.5f, 0));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_INT(r->stats.clears_recorded, n + 1);

    /* a draw between two clears: each recorded, the first at the draw */
    n = r->stats.clears_recorded;
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, red));
    CHECK_OK(fx_rect(dev, 16, 16, 0, 0, 4, 4, 0.0f, blue));
    CHECK_INT(r->stats.clears_recorded, n + 1);
    CHECK_OK(xgd_clear_color(dev, blue));
    CHECK_INT(r->stats.clears_recorded, n + 1);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_INT(r->stats.clears_recorded, n + 2);
    CHECK_OK(xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, &(xgd_rect){ 1, 1, 1, 1 }, px, 4));
    CHECK(px[0] == 0 && px[1] == 0 && px[2] == 255 && px[3] == 255);

    /* a readback of the back buffer records its pending clear first */
    n = r->stats.clears_recorded;
    CHECK_OK(xgd_clear_color(dev, red));
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 3, 3, 1, 1 }, px, 4));
    CHECK_INT(r->stats.clears_recorded, n + 1);
    CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255);

    /* destroying a texture that is not bound records nothing: the clears still merge */
    xgd_texture *other = fx_target(t, dev, 8, 8, XGD_DEPTH_FORMAT_NONE, 0,
                                   XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(other);
    n = r->stats.clears_recorded;
    CHECK_OK(xgd_set_render_target(dev, rt));
    xgd_texture_destroy(other);
    CHECK_OK(xgd_clear_color(dev, blue));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_INT(r->stats.clears_recorded, n + 1);

    /* a bound target destroyed with its clear pending: recorded by then (core unbinds it) */
    n = r->stats.clears_recorded;
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_INT(r->stats.clears_recorded, n);
    xgd_texture_destroy(rt);
    CHECK_INT(r->stats.clears_recorded, n + 1);
    CHECK_OK(xgd_set_render_target(dev, NULL));

    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
