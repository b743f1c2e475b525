/*
 * test_d3d12_query_poll.c - polling an occlusion query (XNA's IsComplete, Direct3D 9's GetData
 * with D3DGETDATA_FLUSH) never waits for the GPU on Direct3D 12: right after a Present of a
 * frame the GPU is still drawing, the query's frame cannot be submitted without waiting for
 * that frame's slot, so the poll leaves the submission to a later poll instead of blocking.
 * Reads the renderer's wait counter, so it builds only with that renderer.
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include "harness.h"
#include "fixture_util.h"

#include <time.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"
#endif

XGD_TEST(D3D12Query_PollNeverWaits)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    enum { W = 512, H = 512, HEAVY = 40 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    d3d12_renderer *r = (d3d12_renderer *)dev->renderer;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_occlusion_query *q = NULL;
    CHECK_OK(xgd_occlusion_query_create(dev, &q));
    if (fx != NULL && q != NULL) {
        /* two frames of full-screen draws: the second is still executing after its Present */
        CHECK_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE)));
        for (int f = 0; f < 2; f++) {
            for (int i = 0; i < HEAVY; i++)
                CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0, (xgd_color){ 1, 1, 1, 255 }));
            CHECK_OK(xgd_present(dev));
        }
        CHECK_OK(xgd_set_blend_state(dev, NULL));
        CHECK_OK(xgd_occlusion_query_begin(q));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 4, 0, (xgd_color){ 255, 255, 255, 255 }));
        CHECK_OK(xgd_occlusion_query_end(q));
        uint64_t waits = r->stats.gpu_waits;
        bool done = false;
        for (int i = 0; i < 20000 && !done; i++) {
            CHECK_OK(xgd_occlusion_query_is_complete(q, &done));
            if (!done) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
        }
        CHECK_MSG(done, "the query never completed while polled");
        CHECK_MSG(r->stats.gpu_waits == waits, "polling the query waited for the GPU %llu times",
                  (unsigned long long)(r->stats.gpu_waits - waits));
        uint64_t n = 0;
        CHECK_OK(xgd_occlusion_query_get_pixel_count(q, false, &n));
        CHECK_MSG(n == 32, "the query counted %llu samples (want 8 x 4 = 32)", (unsigned long long)n);
    }
    xgd_occlusion_query_destroy(q);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
