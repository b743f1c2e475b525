/*
 * test_vk_transfer.c - the Vulkan renderer's big transfer buffers (vk_transfer.c): a transfer
 * or draw larger than a quarter of the upload ring gets a dedicated buffer, given back after
 * its last use and reused once the fence of the submission that used it passed. A program
 * drawing or reading back about the same big amount every frame therefore settles on a few
 * buffers (two frames in flight) instead of allocating one per call.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_VULKAN
#include "internal.h"
#include "vk_internal.h"

/* the renderer's poll budget before a data wait and the waits that polled, for
   test_wait_spin.c */
uint64_t xgdt_vk_wait_spin_ns(xgd_device *dev);
uint64_t xgdt_vk_wait_spin_ns(xgd_device *dev) { return ((xvk_renderer *)dev->renderer)->wait_spin_ns; }
uint64_t xgdt_vk_wait_polls(xgd_device *dev);
uint64_t xgdt_vk_wait_polls(xgd_device *dev)
{
    return ((xvk_renderer *)dev->renderer)->counters.wait_polls;
}
#endif

XGD_TEST(VkTransfer_BigBuffersReusedByFence)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 1024;
    dd.pp.back_buffer_height = 1024; /* 4 MiB: a 12 MiB band is read from a render target */
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    REQUIRE_OK(r);
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    xgd_basic_effect_get(fx, &p);
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));

    /* 8 frames, each one draw of 12 MB of user vertices (degenerate triangles: no pixels) */
    enum { TRIS = 250000, FRAMES = 8 };
    xgd_vertex_position_color *v = calloc((size_t)TRIS * 3, sizeof *v);
    REQUIRE(v);
    uint64_t made0 = vr->counters.big_created;
    for (int f = 0; f < FRAMES; f++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, TRIS,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
        CHECK_OK(xgd_present(dev));
    }
    uint64_t draws_made = vr->counters.big_created - made0;
    /* one per frame in flight, and one more while a slot's fence is being waited for */
    CHECK_MSG(draws_made >= 1 && draws_made <= 3,
              "%d frames of one big draw made %llu transfer buffers, expected 1 to 3", FRAMES,
              (unsigned long long)draws_made);
    free(v);

    /* readbacks: each waits for its copy, so the same buffer serves the next one */
    xgd_texture *rt = NULL;
    xgd_render_target_desc rd = { .width = 2048, .height = 1536 };
    REQUIRE_OK(xgd_render_target2d_create(dev, &rd, &rt));
    size_t bytes = (size_t)2048 * 1536 * 4;
    uint8_t *px = malloc(bytes);
    REQUIRE(px);
    uint64_t made1 = vr->counters.big_created;
    for (int i = 0; i < 4; i++)
        CHECK_OK(xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px, bytes));
    uint64_t reads_made = vr->counters.big_created - made1;
    CHECK_MSG(reads_made == 1, "4 readbacks of 12 MiB made %llu transfer buffers, expected 1",
              (unsigned long long)reads_made);
    CHECK(vr->big_spare_bytes <= ((uint64_t)256 << 20));
    free(px);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
