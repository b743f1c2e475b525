/*
 * test_d3d12_readback.c - the Direct3D 12 renderer's readback memory: readbacks reuse one
 * readback buffer the renderer keeps (creating and mapping a buffer per readback cost more than
 * the copy), growing it only for a larger readback, and still return the right texels. Reads
 * the renderer's own counters, so it builds only with that renderer and skips when no D3D12
 * device can be created.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

/* the renderer's poll budget before a data wait and the waits that polled, for
   test_wait_spin.c */
uint64_t xgdt_d3d12_wait_spin_ns(xgd_device *dev);
uint64_t xgdt_d3d12_wait_spin_ns(xgd_device *dev)
{
    return ((d3d12_renderer *)dev->renderer)->wait_spin_ns;
}
uint64_t xgdt_d3d12_wait_polls(xgd_device *dev);
uint64_t xgdt_d3d12_wait_polls(xgd_device *dev)
{
    return ((d3d12_renderer *)dev->renderer)->stats.wait_polls;
}

/* Clears the back buffer to c and reads rect back: every pixel must be c. */
static void clear_and_read(xgdt_ctx *t, xgd_device *dev, xgd_color c, xgd_rect rect, uint8_t *px)
{
    size_t size = (size_t)rect.width * (size_t)rect.height * 4;
    memset(px, 0x55, size);
    CHECK_OK(xgd_clear_color(dev, c));
    CHECK_OK(xgd_get_back_buffer_data(dev, &rect, px, size));
    size_t wrong = 0;
    for (size_t i = 0; i < size; i += 4)
        if (px[i] != c.r || px[i + 1] != c.g || px[i + 2] != c.b || px[i + 3] != c.a) wrong++;
    CHECK_MSG(wrong == 0, "%zu of %dx%d pixels are not the clear colour", wrong, rect.width, rect.height);
}
#endif

XGD_TEST(D3D12_ReadbackMemoryReused)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 640; /* 1.2 MB: more than the smallest kept buffer (1 MiB) */
    dd.pp.back_buffer_height = 480;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    d3d12_renderer *r = (d3d12_renderer *)dev->renderer;
    uint8_t *px = malloc(640 * 480 * 4);
    REQUIRE(px != NULL);
    const xgd_rect small = { 3, 5, 7, 2 }, all = { 0, 0, 640, 480 };
    /* a small readback: at most one buffer is made for it */
    uint64_t made = r->stats.readback_buffers_created;
    clear_and_read(t, dev, (xgd_color){ 10, 20, 30, 255 }, small, px);
    CHECK(r->stats.readback_buffers_created <= made + 1);
    made = r->stats.readback_buffers_created;
    /* the whole back buffer needs a larger one, once */
    clear_and_read(t, dev, (xgd_color){ 40, 50, 60, 70 }, all, px);
    CHECK_INT(r->stats.readback_buffers_created, made + 1);
    made = r->stats.readback_buffers_created;
    /* the same readbacks again, with draws and presents between: no buffer is made */
    for (int i = 0; i < 4; i++) {
        clear_and_read(t, dev, (xgd_color){ (uint8_t)(100 + i), 0, (uint8_t)(200 - i), 255 }, all, px);
        CHECK_OK(xgd_present(dev));
        clear_and_read(t, dev, (xgd_color){ 1, (uint8_t)(2 + i), 3, 4 }, small, px);
    }
    CHECK_INT(r->stats.readback_buffers_created, made);
    free(px);
    xgd_device_destroy(dev);
#endif
}
