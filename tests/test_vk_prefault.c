/*
 * test_vk_prefault.c - the Vulkan upload ring's memory as the CPU sees it:
 *  - its pages are backed before draws write them (vk_device.c ring_prefault): each Present
 *    backs twice the frame's use of the ring ahead of its head (at least XVK_RING_PREFAULT_MIN),
 *    so that the next frame's vertices land on pages that exist instead of taking a page fault
 *    each fresh 4 KiB inside a draw. Residency is read with mincore (Linux), which reports the
 *    pages of a mapping that are in memory;
 *  - small frames reuse the ring's start (ring_rewind), so their working set stays a few
 *    frames of the same memory.
 */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* mincore */
#endif
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#if defined(XGD_TEST_HAVE_VULKAN) && defined(__linux__)
#include "fixture_util.h"
#include "internal.h"
#include "vk_internal.h"

#include <sys/mman.h>
#include <unistd.h>

/* Pages of [p, p + n) not in memory (mincore), or -1 if mincore failed. */
static long missing_pages(const uint8_t *p, size_t n)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)p & ~((uintptr_t)page - 1);
    size_t len = (size_t)((uintptr_t)p + n - start);
    size_t count = (len + (size_t)page - 1) / (size_t)page;
    unsigned char *vec = malloc(count);
    if (vec == NULL) return -1;
    long missing = -1;
    if (mincore((void *)start, len, vec) == 0) {
        missing = 0;
        for (size_t i = 0; i < count; i++) missing += (vec[i] & 1) == 0;
    }
    free(vec);
    return missing;
}
#endif

/* A frame of 3,000 quads (a little over 190 KB of vertices in the ring) is presented; then the
   ring's next XVK_RING_PREFAULT_MIN bytes (more than twice the frame) from its head are all in
   memory, though nothing wrote them, and the following frame's draws land there. Without
   ring_prefault those pages are untouched, and missing. */
XGD_TEST(VkRing_PrefaultsAheadAtPresent)
{
#if !defined(XGD_TEST_HAVE_VULKAN)
    xgdt_not_supported(t, "built without the Vulkan renderer");
#elif !defined(__linux__)
    xgdt_not_supported(t, "page residency is read with Linux's mincore");
#else
    enum { W = 32, H = 32, QUADS = 3000 };
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_VULKAN, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xvk_ring *g = &vr->ring;
    /* what ring_prefault relies on: the system backs a range on request */
    uint8_t *probe = g->mapped + g->size - 4096;
    if (!xgdi_prefault_pages(probe, 4096)) {
        xgdt_not_supported(t, "this system cannot prefault mapped pages (MADV_POPULATE_WRITE)");
        xgd_device_destroy(dev);
        return;
    }
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    xgd_vertex_position_color q[4];
    for (int frame = 0; frame < 2; frame++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < QUADS; i++) {
            xgd_color c = fx_rgba(i & 255, 255 - (i & 255), 7, 255);
            int x = i % W, y = (i / W) % H;
            q[0] = fx_vpc((float)x, (float)y, 0, W, H, c);
            q[1] = fx_vpc((float)x + 1, (float)y, 0, W, H, c);
            q[2] = fx_vpc((float)x, (float)y + 1, 0, W, H, c);
            q[3] = fx_vpc((float)x + 1, (float)y + 1, 0, W, H, c);
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl));
        }
        const uint64_t use = g->head - g->frame_head;
        CHECK_OK(xgd_present(dev));
        REQUIRE(use >= (uint64_t)QUADS * 4 * sizeof q[0] && use * 2 < XVK_RING_PREFAULT_MIN);
        uint64_t pos = g->head % g->size;
        REQUIRE(pos + XVK_RING_PREFAULT_MIN <= g->size);
        long missing = missing_pages(g->mapped + pos, XVK_RING_PREFAULT_MIN);
        CHECK_MSG(missing == 0, "after frame %d (%llu bytes of the ring): %ld of the %llu pages "
                  "ahead of the head not in memory", frame, (unsigned long long)use, missing,
                  (unsigned long long)(XVK_RING_PREFAULT_MIN / 4096));
        CHECK_MSG(g->populated >= pos + XVK_RING_PREFAULT_MIN, "populated %llu, head at %llu",
                  (unsigned long long)g->populated, (unsigned long long)pos);
    }
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}

/* Frames of 2,000 quads (128,000 bytes of 16-byte vertices) presented one after another: Present
   moves the head back to the ring's start once the start has room for two more such frames
   beside what the GPU may still read (ring_rewind), so the head never runs far into the 32 MiB
   ring: at most that room, what is in flight (two frames at most) and the frame itself, 5 frames'
   worth, where without the rewind 40 frames reach 40 frames' worth. No allocation waits for ring
   space, and the last frame's quads are where they were drawn. */
XGD_TEST(VkRing_SmallFramesReuseItsStart)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 40, H = 50, QUADS = 2000, FRAMES = 40 };
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_VULKAN, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    const xvk_ring *g = &vr->ring;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const uint64_t frame_bytes = (uint64_t)QUADS * 4 * sizeof(xgd_vertex_position_color);
    REQUIRE(frame_bytes > XVK_RING_REWIND_MIN && frame_bytes * FRAMES < g->size);
    const uint64_t ring_waits = vr->counters.ring_waits;
    uint64_t furthest = 0;
    int rewinds = 0;
    xgd_vertex_position_color q[4];
    for (int frame = 0; frame < FRAMES; frame++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < QUADS; i++) {
            /* one pixel each, cell i; the colour names the frame and the quad */
            xgd_color c = fx_rgba(frame * 6 & 255, i & 255, (i >> 8) & 255, 255);
            int x = i % W, y = i / W;
            q[0] = fx_vpc((float)x, (float)y, 0, W, H, c);
            q[1] = fx_vpc((float)x + 1, (float)y, 0, W, H, c);
            q[2] = fx_vpc((float)x, (float)y + 1, 0, W, H, c);
            q[3] = fx_vpc((float)x + 1, (float)y + 1, 0, W, H, c);
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl));
        }
        uint64_t before = g->head % g->size;
        if (before > furthest) furthest = before;
        if (frame == FRAMES - 1) {
            uint8_t *px = NULL;
            if (xgdt_read_back_buffer(t, dev, W, H, &px)) {
                int bad = 0;
                for (int i = 0; i < QUADS && bad < 5; i++) {
                    const uint8_t *p = px + (size_t)i * 4;
                    if (p[0] != (frame * 6 & 255) || p[1] != (i & 255) || p[2] != ((i >> 8) & 255)) {
                        CHECK_MSG(false, "quad %d of the last frame: (%d, %d, %d)", i, p[0], p[1], p[2]);
                        bad++;
                    }
                }
            }
            free(px);
        }
        CHECK_OK(xgd_present(dev));
        if (g->head % g->size < before) rewinds++;
    }
    /* (Present itself may wait for the frame before, as XNA's does when the GPU is behind) */
    CHECK_MSG(vr->counters.ring_waits == ring_waits, "%llu waits for ring space",
              (unsigned long long)(vr->counters.ring_waits - ring_waits));
    CHECK_MSG(rewinds > 0, "the head never went back to the ring's start in %d frames", FRAMES);
    CHECK_MSG(furthest <= 5 * frame_bytes, "the head reached %llu bytes into the ring, more than "
              "5 frames of %llu", (unsigned long long)furthest, (unsigned long long)frame_bytes);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
