/*
 * test_vk_stream_memo.c - the Vulkan renderer's pipeline memo serves draws through several
 * vertex streams: a second draw with the same state and stream layout looks no pipeline up,
 * a draw whose stream layout changed does (its pixels: fixture_stream_layout_memo.c).
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_VULKAN
#include "internal.h"
#include "stream_memo_scene.h"
#include "vk_internal.h"
#endif

XGD_TEST(VkPipelineMemo_KeptAcrossStreamDraws)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = SM_W;
    dd.pp.back_buffer_height = SM_H;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    REQUIRE_OK(r);
    sm_scene s;
    if (sm_create(t, &s, dev)) {
        xvk_renderer *vr = (xvk_renderer *)dev->renderer;
        CHECK_OK(sm_draw(&s, 0, true));
        uint64_t l0 = vr->counters.pipeline_lookups;
        CHECK_OK(sm_draw(&s, 1, true));
        CHECK_OK(sm_draw(&s, 2, true));
        uint64_t l1 = vr->counters.pipeline_lookups;
        CHECK_MSG(l1 == l0, "equal stream draws looked the pipeline up %llu times",
                  (unsigned long long)(l1 - l0));
        CHECK_OK(sm_draw(&s, 3, false));
        CHECK_MSG(vr->counters.pipeline_lookups == l1 + 1,
                  "a changed stream layout looked the pipeline up %llu times (want 1)",
                  (unsigned long long)(vr->counters.pipeline_lookups - l1));
    }
    sm_destroy(&s);
#endif
}
