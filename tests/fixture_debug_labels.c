/*
 * fixture_debug_labels.c - a debug device (desc.debug: object names, Vulkan command-buffer
 * labels, Direct3D 12 events and markers) renders exactly what a release device does and
 * stays clean: no error is logged, and under XGD_VK_VALIDATION=1 the harness fails the test on
 * any validation message (unbalanced labels, bad names). The software renderer has no labels;
 * it still runs the scene, so the expected pixels are checked everywhere.
 */
#include "fixture_util.h"

static const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                       BLUE = { 0, 0, 255, 255 }, YELLOW = { 255, 255, 0, 255 };

XGD_FIXTURE(DebugLabels)
{
    enum { W = 32, H = 32, T = 16 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_DEPTH24_STENCIL8;
    dd.debug = true;
    /* D3D10 centres: tests debug labels, not the centre rule; expectations assume .5 */
    dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    /* mipmapped: unbinding it regenerates the mips (a labelled mip-generation step) */
    xgd_texture *rt = fx_target(t, dev, T, T, XGD_DEPTH_FORMAT_DEPTH24, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, true);
    REQUIRE(fx && rt);
    /* a multisampled target adds a labelled resolve where the renderer has one */
    int msaa = fx_max_msaa(dev) >= 4 ? 4 : 0;
    xgd_texture *ms = msaa ? fx_target(t, dev, T, T, XGD_DEPTH_FORMAT_NONE, msaa,
                                       XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false)
                           : NULL;

    /* segment 1: the render target (its depth cleared with the colour) */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(BLUE), 1.0f, 0));
    CHECK_OK(fx_rect(dev, T, T, 4, 4, 12, 12, 0.5f, YELLOW));
    /* segment 2: the multisampled target, an axis-aligned rectangle on whole pixels so every
       sample of a pixel agrees and the resolve average is exact */
    if (ms) {
        CHECK_OK(xgd_set_render_target(dev, ms));
        CHECK_OK(xgd_clear_color(dev, GREEN));
        CHECK_OK(fx_rect(dev, T, T, 0, 0, 8, 16, 0.5f, RED));
    }
    /* segment 3: the back buffer, cleared twice (the second clear inside the segment) */
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                       fx_vec4(RED), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 24, 24, 0.5f, GREEN));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, fx_vec4(RED), 0.25f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 32, 4, 0.5f, BLUE));    /* behind 0.25: rejected */
    CHECK_OK(fx_rect(dev, W, H, 0, 28, 32, 32, 0.125f, BLUE)); /* in front: drawn */

    uint8_t *e = fx_image(W, H, RED);
    REQUIRE(e);
    fx_fill(e, W, H, 8, 8, 24, 24, GREEN);
    fx_fill(e, W, H, 0, 28, 32, 32, BLUE);
    fx_expect_back_buffer(t, dev, "back_buffer", e, W, H, 0);
    free(e);

    e = fx_image(T, T, BLUE);
    REQUIRE(e);
    fx_fill(e, T, T, 4, 4, 12, 12, YELLOW);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target", e, T, T, 0);
    free(e);
    /* level 1 is the 2x2 box filter of level 0; the yellow square sits on even pixels, so
       every 2x2 block is one colour and the mip is exact: yellow over [2,6) */
    e = fx_image(T / 2, T / 2, BLUE);
    REQUIRE(e);
    fx_fill(e, T / 2, T / 2, 2, 2, 6, 6, YELLOW);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 1, "target_mip1", e, T / 2, T / 2, 0);
    free(e);
    if (ms) {
        e = fx_image(T, T, GREEN);
        REQUIRE(e);
        fx_fill(e, T, T, 0, 0, 8, 16, RED);
        fx_expect_texture(t, ms, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "multisampled", e, T, T, 0);
        free(e);
    }
    CHECK_OK(xgd_present(dev));
    CHECK_INT(xgdt_log_count(), 0);

    if (ms) xgd_texture_destroy(ms);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
