/*
 * test_vk_prefault.c - the Vulkan upload ring's memory as the CPU sees it:
 *  - its pages are backed before draws write them (vk_device.c ring_prefault): each Present
 *    backs twice the frame's use of the ring ahead of its head (at least XVK_RING_PREFAULT_MIN),
 *    so that the next frame's vertices land on pages that exist instead of taking a page fault
 *    each fresh 4 KiB inside a draw. Residency is read with mincore (Linux), which reports the
 *    pages of a mapping that are in memory;
 *  - Present also writes once into each page it readies, only where no submission may read
 *    (xvk_ring_ready_span), since a page's first write can cost where no page fault shows;
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

/* Quad i of a w x h grid of one-pixel cells (row (i / w) % h), colour c, as a strip of two
   triangles through the ring. */
static xgd_result cell_quad(xgd_device *dev, xgd_vertex_declaration *decl, int w, int h, int i,
                            xgd_color c)
{
    const int x = i % w, y = (i / w) % h;
    const xgd_vertex_position_color q[4] = {
        fx_vpc((float)x, (float)y, 0, w, h, c),
        fx_vpc((float)x + 1, (float)y, 0, w, h, c),
        fx_vpc((float)x, (float)y + 1, 0, w, h, c),
        fx_vpc((float)x + 1, (float)y + 1, 0, w, h, c),
    };
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl);
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
    for (int frame = 0; frame < 2; frame++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < QUADS; i++)
            CHECK_OK(cell_quad(dev, decl, W, H, i, fx_rgba(i & 255, 255 - (i & 255), 7, 255)));
        const uint64_t use = g->head - g->frame_head;
        CHECK_OK(xgd_present(dev));
        REQUIRE(use >= (uint64_t)QUADS * 4 * sizeof(xgd_vertex_position_color) && use * 2 < XVK_RING_PREFAULT_MIN);
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
    for (int frame = 0; frame < FRAMES; frame++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < QUADS; i++) /* the colour names the frame and the quad */
            CHECK_OK(cell_quad(dev, decl, W, H, i,
                               fx_rgba(frame * 6 & 255, i & 255, (i >> 8) & 255, 255)));
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

/* Which stretch of the ring a Present readies (xvk_ring_ready_span): twice the frame's use
   ahead of the head, at least XVK_RING_PREFAULT_MIN, from where the last one stopped (or the
   head, in the first lap, where the draws wrote up to it), to the ring's end at most; and,
   since it is written into, never memory a submission may still read. Cases in MiB of a 32 MiB
   ring, head and tail counted from the ring's creation as the ring counts them. */
XGD_TEST(VkRing_ReadiesOnlyFreeMemory)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { M = 1 << 20 };
    REQUIRE(XVK_RING_PREFAULT_MIN == M); /* the cases below are worked out for 1 MiB */
    static const struct {
        uint64_t head, tail, populated, use; /* MiB */
        bool ready;
        uint64_t from, to; /* MiB */
        const char *what;
    } cases[] = {
        { 0, 0, 0, 0, true, 0, 1, "a new ring: the minimum from its start" },
        { 5, 0, 1, 5, true, 5, 15, "first lap, head past the readied part: from the head, twice the use" },
        { 5, 0, 15, 1, false, 0, 0, "readied beyond twice the use already" },
        { 5, 0, 6, 1, true, 6, 7, "from where the last one stopped" },
        { 30, 20, 30, 2, true, 30, 32, "up to the ring's end, not past it" },
        { 36, 8, 10, 28, false, 0, 0, "a frame ran past the readied part and wrapped: [8, 32) is in flight" },
        { 36, 36, 10, 28, true, 10, 32, "the same once it retired" },
        { 40, 20, 8, 6, true, 8, 20, "second lap: the free run ends exactly where the stretch does" },
        { 40, 19, 8, 6, false, 0, 0, "second lap: the stretch's last MiB is still in flight" },
        { 40, 40, 32, 6, false, 0, 0, "the whole ring readied: nothing more" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xvk_ring g;
        memset(&g, 0, sizeof g);
        g.size = 32 * (uint64_t)M;
        g.head = cases[i].head * M;
        g.tail = cases[i].tail * M;
        g.populated = cases[i].populated * M;
        uint64_t from = 7, to = 7;
        bool ready = xvk_ring_ready_span(&g, cases[i].use * M, &from, &to);
        CHECK_MSG(ready == cases[i].ready, "%s: %s", cases[i].what, ready ? "readied" : "nothing");
        if (ready && cases[i].ready)
            CHECK_MSG(from == cases[i].from * M && to == cases[i].to * M,
                      "%s: [%.2f, %.2f) MiB, expected [%llu, %llu)", cases[i].what, (double)from / M,
                      (double)to / M, (unsigned long long)cases[i].from, (unsigned long long)cases[i].to);
    }
#endif
}

/* Present writes once into every page it readies (so that the first write of a page, which
   costs where no page fault shows, e.g. in a GPU's BAR, is not a draw's): the ring ahead of the
   head is filled with 0xAB by the test (free memory), a small frame is presented, and then the
   first byte of every 4 KiB page of the next XVK_RING_PREFAULT_MIN bytes from the head is 0, the
   bytes between are untouched, and the pages after that stretch are too. The next frame draws
   there, and its quads are read back. Runs on any memory the ring is in. */
XGD_TEST(VkRing_WritesEachPageAheadOnce)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 16, H = 16, QUADS = W * H };
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_VULKAN, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xvk_ring *g = &vr->ring;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    for (int frame = 0; frame < 2; frame++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < QUADS; i++)
            CHECK_OK(cell_quad(dev, decl, W, H, i, fx_rgba(i & 255, 40 + frame, 7, 255)));
        if (frame == 1) {
            uint8_t *px = NULL;
            if (xgdt_read_back_buffer(t, dev, W, H, &px)) {
                int bad = 0;
                for (int i = 0; i < QUADS && bad < 5; i++) {
                    const uint8_t *p = px + (size_t)i * 4;
                    if (p[0] != (i & 255) || p[1] != 41 || p[2] != 7) {
                        CHECK_MSG(false, "quad %d: (%d, %d, %d)", i, p[0], p[1], p[2]);
                        bad++;
                    }
                }
            }
            free(px);
            break;
        }
        /* the first lap of a new ring: nothing beyond the head is in use, or readied yet */
        const uint64_t head = g->head, span = XVK_RING_PREFAULT_MIN;
        REQUIRE(head < g->size && g->populated <= head && head + 2 * span <= g->size);
        REQUIRE((head - g->frame_head) * 2 < span); /* a small frame: the minimum stretch */
        memset(g->mapped + head, 0xAB, (size_t)(2 * span));
        CHECK_OK(xgd_present(dev));
        REQUIRE(g->head == head); /* nothing rewound or grown: the stretch starts at the head */
        const uint64_t first_page = (head + XGDI_TOUCH_PAGE - 1) & ~(uint64_t)(XGDI_TOUCH_PAGE - 1);
        int written = 0, wrong = 0;
        CHECK_MSG(g->mapped[head] == 0, "the byte at the head was not written");
        for (uint64_t a = first_page; a < head + 2 * span && wrong < 5; a += XGDI_TOUCH_PAGE) {
            const bool inside = a < head + span;
            if (inside) written++;
            if (g->mapped[a] != (inside ? 0 : 0xAB) || g->mapped[a + 1] != 0xAB) {
                CHECK_MSG(false, "ring offset %llu (%s the readied stretch): %d then %d",
                          (unsigned long long)a, inside ? "inside" : "after", g->mapped[a], g->mapped[a + 1]);
                wrong++;
            }
        }
        CHECK_INT(written, (int)(span / XGDI_TOUCH_PAGE));
    }
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
