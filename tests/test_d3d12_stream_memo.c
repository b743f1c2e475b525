/*
 * test_d3d12_stream_memo.c - the Direct3D 12 renderer's PSO memo serves draws through several
 * vertex streams: a second draw with the same state and stream layout looks no PSO up, a draw
 * whose stream layout changed does (its pixels: fixture_stream_layout_memo.c).
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"
#include "stream_memo_scene.h"
#endif

XGD_TEST(D3D12PsoMemo_KeptAcrossStreamDraws)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = SM_W;
    dd.pp.back_buffer_height = SM_H;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    sm_scene s;
    if (sm_create(t, &s, dev)) {
        d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
        CHECK_OK(sm_draw(&s, 0, true));
        uint64_t l0 = dr->stats.pso_lookups;
        CHECK_OK(sm_draw(&s, 1, true));
        CHECK_OK(sm_draw(&s, 2, true));
        uint64_t l1 = dr->stats.pso_lookups;
        CHECK_MSG(l1 == l0, "equal stream draws looked the PSO up %llu times", (unsigned long long)(l1 - l0));
        CHECK_OK(sm_draw(&s, 3, false));
        CHECK_MSG(dr->stats.pso_lookups == l1 + 1, "a changed stream layout looked the PSO up %llu times (want 1)",
                  (unsigned long long)(dr->stats.pso_lookups - l1));
    }
    sm_destroy(&s);
#endif
}
