/*
 * test_vk_spans.c - host-visible memory of big Vulkan draws and transfers (vk_transfer.c) and
 * ring space of user-primitive draws (vk_draw.c):
 *  - one frame of many big draws holds no more big-buffer memory than the spares' budget plus
 *    what one open frame may hold (the frame is submitted when it holds more);
 *  - a steady pattern of several big draws per frame settles on a set of buffers and creates
 *    no more;
 *  - a draw whose later ring allocation submits the open frame still reads its own vertices
 *    when the next frame laps the ring.
 * Each draw copies many vertices but renders a few (indexed draws name the vertices they use),
 * so the transfers are big and the rendering cheap.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_VULKAN
#include "fixture_util.h"
#include "internal.h"
#include "vk_internal.h"

static xgd_device *vk_device(xgdt_ctx *t, int w, int h)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return NULL;
    }
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_device_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        return NULL;
    }
    return dev;
}

/* Vertices 0..3 of v: the rectangle [x0,x1) x [y0,y1) of a w x h target in colour c. */
static void rect_vertices(xgd_vertex_position_color *v, int w, int h, int x0, int y0, int x1,
                          int y1, xgd_color c)
{
    v[0] = fx_vpc((float)x0, (float)y0, 0, w, h, c);
    v[1] = fx_vpc((float)x1, (float)y0, 0, w, h, c);
    v[2] = fx_vpc((float)x1, (float)y1, 0, w, h, c);
    v[3] = fx_vpc((float)x0, (float)y1, 0, w, h, c);
}

static const uint16_t QUAD16[6] = { 0, 1, 2, 0, 2, 3 };

static xgd_color band_color(int i)
{
    return fx_rgba((i * 37) & 255, 255 - ((i * 11) & 255), (i * 5) & 255, 255);
}

/* Row y of the back buffer must be colour c across its width. */
static void expect_row(xgdt_ctx *t, const uint8_t *px, int w, int y, xgd_color c, const char *what)
{
    for (int x = 0; x < w; x++) {
        const uint8_t *p = px + ((size_t)y * (size_t)w + (size_t)x) * 4;
        if (p[0] != c.r || p[1] != c.g || p[2] != c.b || p[3] != c.a) {
            xgdt_fail_at(t, __FILE__, __LINE__,
                         "%s: pixel (%d,%d) is %u,%u,%u,%u, expected %u,%u,%u,%u", what, x, y,
                         p[0], p[1], p[2], p[3], c.r, c.g, c.b, c.a);
            return;
        }
    }
}
#endif

/* 40 draws of 12 MB of vertices in one frame: each needs a big buffer (more than a quarter of
   the ring), 16 MB rounded up. Without a bound the frame holds 40 of them (640 MB). The rule:
   big buffers live are the spares (at most XVK_BIG_SPARE_BYTES) plus those the open frame holds
   (at most XVK_BIG_FRAME_BYTES before it is submitted). */
XGD_TEST(VkSpans_OneFrameOfBigDrawsIsBounded)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 32, BAND = 2, DRAWS = 40, H = DRAWS * BAND, NV = 750000 };
    xgd_device *dev = vk_device(t, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_vertex_position_color *v = calloc(NV, sizeof *v);
    REQUIRE(fx && rs && v);
    REQUIRE((uint64_t)NV * sizeof *v > vr->ring.size / 4);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    for (int i = 0; i < DRAWS; i++) {
        rect_vertices(v, W, H, 0, i * BAND, W, (i + 1) * BAND, band_color(i));
        CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, NV,
                                                  QUAD16, 0, 2, XGD_INDEX_SIXTEEN_BITS, decl));
    }
    uint64_t bound = XVK_BIG_SPARE_BYTES + XVK_BIG_FRAME_BYTES;
    CHECK_MSG(vr->counters.big_bytes_peak <= bound,
              "%d draws of %zu bytes in one frame held %llu bytes of big buffers, bound %llu",
              DRAWS, (size_t)NV * sizeof *v, (unsigned long long)vr->counters.big_bytes_peak,
              (unsigned long long)bound);
    uint8_t *px = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &px)) {
        for (int i = 0; i < DRAWS; i++)
            for (int y = i * BAND; y < (i + 1) * BAND; y++) expect_row(t, px, W, y, band_color(i), "band");
    }
    free(px);
    free(v);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}

/* Frames of five big draws each. A frame's buffers are reusable once its fence passed, and the
   CPU waits for the frame before last when it opens a frame (XVK_FRAMES slots), so the draws
   need at most the buffers of XVK_FRAMES frames whatever the device's speed: however many
   frames follow, no more are created. (Five per frame: more than the four spares kept before,
   so a buffer per frame was created whatever the device's speed.) */
XGD_TEST(VkSpans_SteadyBigDrawsCreateNoBuffers)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 32, H = 20, PER_FRAME = 5, FRAMES = 16, NV = 750000 };
    xgd_device *dev = vk_device(t, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_vertex_position_color *v = calloc(NV, sizeof *v);
    REQUIRE(fx && rs && v);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    uint64_t made0 = vr->counters.big_created;
    for (int f = 0; f < FRAMES; f++) {
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < PER_FRAME; i++) {
            rect_vertices(v, W, H, 0, i * 4, W, (i + 1) * 4, band_color(f * PER_FRAME + i));
            CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, NV,
                                                      QUAD16, 0, 2, XGD_INDEX_SIXTEEN_BITS, decl));
        }
        if (f == FRAMES - 1) {
            uint8_t *px = NULL;
            if (xgdt_read_back_buffer(t, dev, W, H, &px))
                for (int i = 0; i < PER_FRAME; i++)
                    for (int y = i * 4; y < (i + 1) * 4; y++)
                        expect_row(t, px, W, y, band_color(f * PER_FRAME + i), "band");
            free(px);
        }
        CHECK_OK(xgd_present(dev));
    }
    uint64_t made = vr->counters.big_created - made0;
    CHECK_MSG(made <= (uint64_t)XVK_FRAMES * PER_FRAME,
              "%d frames of %d big draws each created %llu buffers, expected at most %d", FRAMES,
              PER_FRAME, (unsigned long long)made, XVK_FRAMES * PER_FRAME);
    free(v);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}

#ifdef XGD_TEST_HAVE_VULKAN
/* Ring bytes the open frame has allocated (since the last submission's end, or the tail). */
static uint64_t open_ring_bytes(const xvk_renderer *vr)
{
    const xvk_ring *g = &vr->ring;
    uint64_t from = g->mark_count > 0 ? g->marks[g->mark_count - 1].head : g->tail;
    return g->head - from;
}

/* An indexed draw of nothing visible whose vertices take `bytes` of ring space (vertex 0 at the
   origin, every index 0). */
static void filler(xgdt_ctx *t, xgd_device *dev, const xgd_vertex_position_color *zeros,
                   uint64_t bytes)
{
    int nv = (int)(bytes / sizeof *zeros) - 1; /* the draw reserves one vertex more (alignment) */
    if (nv < 1) nv = 1;
    static const uint16_t none[3] = { 0, 0, 0 };
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, zeros, 0, nv, none,
                                              0, 1, XGD_INDEX_SIXTEEN_BITS,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
}
#endif

/* Draw X copies its vertices into the ring, then its indices do not fit: the ring is full of
   the open frame alone, so that frame is submitted and waited for, which frees all of its ring
   space, X's vertices included, and X is recorded into the next frame. That frame then fills
   most of the ring with zero vertices before it is submitted, writing over where X's vertices
   were. X must still draw its rectangle. */
XGD_TEST(VkSpans_DrawSurvivesSubmitInsideIt)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 32, H = 32 };
    xgd_device *dev = vk_device(t, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    const uint64_t R = vr->ring.size, Q = R / 4; /* a ring span holds at most a quarter */
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    size_t nz = (size_t)(Q / sizeof(xgd_vertex_position_color));
    xgd_vertex_position_color *zeros = calloc(nz, sizeof *zeros);
    xgd_vertex_position_color *xv = calloc(nz, sizeof *xv);
    /* X's indices: the rectangle, then degenerate triangles, R/8 bytes of 32-bit indices */
    const int xprims = (int)(R / 8 / 12);
    uint32_t *xi = calloc((size_t)xprims * 3, sizeof *xi);
    REQUIRE(fx && rs && zeros && xv && xi);
    static const uint32_t quad[6] = { 0, 1, 2, 0, 2, 3 };
    memcpy(xi, quad, sizeof quad);
    const xgd_color RED = { 255, 0, 0, 255 };
    rect_vertices(xv, W, H, 0, 0, W, H, RED);
    const int xnv = (int)(Q / sizeof *xv) - 1; /* X's vertices: a quarter of the ring */
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);

    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_present(dev));
    /* start the frame at the ring's start: fill up to the wrap (the next allocation goes to 0),
       then submit */
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    filler(t, dev, zeros, 64);
    if (vr->ring.head % R > 4096) {
        while (vr->ring.head % R > 4096) {
            uint64_t room = R - vr->ring.head % R;
            filler(t, dev, zeros, room > Q ? Q : room < 64 ? 64 : room - 32);
        }
    }
    CHECK_OK(xgd_present(dev));
    /* the frame of X: fillers up to R - Q - R/16 of open ring bytes, then X (Q of vertices:
       they fit, R/16 left), whose R/8 of indices do not */
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    filler(t, dev, zeros, 64);
    for (;;) {
        uint64_t used = open_ring_bytes(vr), goal = R - Q - R / 16;
        if (used + 256 >= goal) break;
        uint64_t n = goal - used;
        filler(t, dev, zeros, n > Q ? Q : n);
    }
    uint64_t fence0 = vr->base.submitted_fence;
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, xv, 0, xnv, xi, 0,
                                              xprims, XGD_INDEX_THIRTY_TWO_BITS, decl));
    /* the scenario: X's draw submitted the frame it began in */
    CHECK_MSG(vr->base.submitted_fence == fence0 + 1,
              "X's draw submitted %llu times, expected once (ring %llu bytes used before it)",
              (unsigned long long)(vr->base.submitted_fence - fence0),
              (unsigned long long)open_ring_bytes(vr));
    /* the next frame writes zeros over most of the ring, not enough to fill it */
    uint64_t fence1 = vr->base.submitted_fence;
    for (;;) {
        uint64_t used = open_ring_bytes(vr), goal = R - R / 16;
        if (used + 256 >= goal) break;
        uint64_t n = goal - used;
        filler(t, dev, zeros, n > Q / 2 ? Q / 2 : n);
    }
    CHECK_MSG(vr->base.submitted_fence == fence1, "the frame after X was submitted early");
    uint8_t *px = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &px))
        for (int y = 0; y < H; y++) expect_row(t, px, W, y, RED, "X's rectangle");
    free(px);
    free(xi);
    free(xv);
    free(zeros);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}

/* A frame that takes more than a third of the upload ring doubles it at its Present, though no
   allocation waited: while a frame records, the GPU may still hold the two before it, so three
   such frames must fit. A frame of two-thirds of that (8 of 32 MiB) leaves the ring as it is;
   one of 12 MiB grows it to 64 MiB without a wait. Each draw's 4 MiB of vertices take ring space
   (a quarter of the ring at most), and its two triangles draw one band. */
XGD_TEST(VkRing_FrameOverAThirdGrowsAtPresent)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 32, H = 20, NV = 262144 }; /* 4 MiB of 16-byte vertices */
    xgd_device *dev = vk_device(t, W, H);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_vertex_position_color *v = calloc(NV, sizeof *v);
    REQUIRE(fx && rs && v);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const uint64_t size0 = vr->ring.size;
    REQUIRE(size0 == XVK_RING_SIZE);
    REQUIRE((uint64_t)NV * sizeof *v * 3 > size0 / 3 && (uint64_t)NV * sizeof *v * 2 <= size0 / 3);
    for (int frame = 0; frame < 2; frame++) {
        int draws = frame == 0 ? 2 : 3;
        xgd_statistics s0, s1;
        xgd_device_get_statistics(dev, &s0);
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        for (int i = 0; i < draws; i++) {
            rect_vertices(v, W, H, 0, i * 4, W, (i + 1) * 4, band_color(i));
            CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, NV,
                                                      QUAD16, 0, 2, XGD_INDEX_SIXTEEN_BITS, decl));
        }
        xgd_device_get_statistics(dev, &s1);
        CHECK_MSG(s1.gpu_waits == s0.gpu_waits, "frame %d: %llu waits while drawing", frame,
                  (unsigned long long)(s1.gpu_waits - s0.gpu_waits));
        uint8_t *px = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &px))
            for (int i = 0; i < draws; i++)
                for (int y = i * 4; y < (i + 1) * 4; y++) expect_row(t, px, W, y, band_color(i), "band");
        free(px);
        CHECK_OK(xgd_present(dev));
        uint64_t want = frame == 0 ? size0 : 2 * size0;
        CHECK_MSG(vr->ring.size == want, "after frame %d (%d draws of 4 MiB): ring %llu MiB, want %llu",
                  frame, draws, (unsigned long long)(vr->ring.size >> 20),
                  (unsigned long long)(want >> 20));
    }
    free(v);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}

/* How far the upload ring may grow: a quarter of its memory heap (at most 1 GiB), except in a
   discrete GPU's own memory, where textures and targets need the room (a 32nd there). On
   lavapipe, a CPU device whose one heap is system memory that it reports as device-local, that
   is a quarter: 512 MiB of its 2 GiB heap, which a frame of a million sprites (96 MB of
   vertices, three frames in flight) needs. */
XGD_TEST(VkRing_LimitFollowsItsMemory)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xgd_device *dev = vk_device(t, 8, 8);
    if (dev == NULL) return;
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    const uint64_t heap = vr->ring.heap_size;
    const bool own = vr->ring.device_local && vr->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    uint64_t want = heap / (own ? 32 : 4);
    if (want > ((uint64_t)1 << 30)) want = (uint64_t)1 << 30;
    CHECK_MSG(xvk_ring_limit(vr) == want, "%s (type %d), %s heap of %llu MiB: limit %llu MiB, want %llu",
              vr->props.deviceName, (int)vr->props.deviceType,
              vr->ring.device_local ? "device-local" : "system", (unsigned long long)(heap >> 20),
              (unsigned long long)(xvk_ring_limit(vr) >> 20), (unsigned long long)(want >> 20));
    xgd_device_destroy(dev);
#endif
}
