/*
 * test_sw_pool_start.c - the software renderer starts its rasterizer threads with the first
 * draw it splits into bands, not when the device is created: a device that only clears and
 * draws small triangles runs no thread besides the caller's.
 *
 * Rule: with $XGD_SW_THREADS = 4 a pool has three workers; a draw covering fewer pixels than
 * one band's minimum (8192 by default) runs on the caller, a full-target draw of 256 x 256 is
 * split over the workers, and destroying the device joins them. Threads are counted in
 * /proc/self/task (Linux; the test is skipped where it does not exist).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fixture_util.h"

#include <dirent.h>
#include <stdlib.h>

static int thread_count(void)
{
    DIR *d = opendir("/proc/self/task");
    if (d == NULL) return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

XGD_TEST(SoftwarePool_StartsOnFirstBandedDraw)
{
    enum { W = 256, H = 256 };
    int before = thread_count();
    if (before < 0) {
        xgdt_not_supported(t, "no /proc/self/task to count threads in");
        return;
    }
    setenv("XGD_SW_THREADS", "4", 1);
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    unsetenv("XGD_SW_THREADS");
    REQUIRE(dev != NULL);
    CHECK_MSG(thread_count() == before, "a new device runs %d threads besides the caller's",
              thread_count() - before);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx != NULL);
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 8, 0, (xgd_color){ 255, 0, 0, 255 }));
    uint8_t px[4];
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, sizeof px));
    CHECK_MSG(thread_count() == before, "after a clear and a 64-pixel draw, %d threads besides the "
              "caller's", thread_count() - before);
    CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0, (xgd_color){ 0, 255, 0, 255 }));
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, sizeof px));
    CHECK_MSG(px[0] == 0 && px[1] == 255 && px[2] == 0, "pixel (0,0) is %d,%d,%d", px[0], px[1], px[2]);
    CHECK_MSG(thread_count() == before + 3, "after a full-target draw, %d threads besides the "
              "caller's (3 workers expected)", thread_count() - before);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    CHECK_MSG(thread_count() == before, "%d threads remain after the device is destroyed",
              thread_count() - before);
}
