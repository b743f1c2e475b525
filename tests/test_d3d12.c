/*
 * test_d3d12.c - what pixels cannot show about the Direct3D 12 renderer (issue 5):
 * DescriptorAllocator (freed slots are reissued only after their fence, capacity doubles to
 * exactly the next power of two with stable indices, retired heaps wait for their fence, the
 * sampler cache allocates nothing for repeated states) and FramesInFlight (after warm-up the
 * upload ring creates no chunks, a frame waits on the GPU at most once, ring ranges handed out
 * in one frame are disjoint). They read the renderer's own counters (src/renderers/d3d12), so
 * they build only with that renderer and skip when no D3D12 device can be created.
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

#include <string.h>

static xgd_device *d3d12_test_device(xgdt_ctx *t)
{
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return NULL;
    }
    return dev;
}

static d3d12_renderer *d3d12_of(xgd_device *dev)
{
    return (d3d12_renderer *)dev->renderer;
}

/* Present, then a readback: the readback's island submits the open frame and waits for it, so
   every fence value handed out so far has passed. */
static void settle(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t px[4];
    xgd_rect r = { 0, 0, 1, 1 };
    CHECK_OK(xgd_present(dev));
    CHECK_OK(xgd_get_back_buffer_data(dev, &r, px, sizeof px));
}

/* Draws `tex` over the whole back buffer with point sampling; returns pixel (0, 0). */
static xgd_color sprite_pixel(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb, xgd_texture *tex)
{
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    const xgd_sprite s = { .destination = { 0, 0, 16, 16 }, .color = XGD_COLOR_WHITE };
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t px[4] = { 0, 0, 0, 0 };
    xgd_rect r = { 0, 0, 1, 1 };
    CHECK_OK(xgd_get_back_buffer_data(dev, &r, px, sizeof px));
    return (xgd_color){ px[0], px[1], px[2], px[3] };
}
#endif

XGD_TEST(D3D12_DescriptorAllocator)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    d3d12_renderer *r = d3d12_of(dev);
    REQUIRE(r != NULL);
    d3d12_index_pool *views = &r->view_heap.pool;
    const xgd_color red = { 255, 0, 0, 255 };

    /* renderer creation's depth-bias probe (xgdi_depth_bias_probe) freed its targets' indices
       into the FIFO: hold textures that take them, so the ring then holds a's index alone */
    settle(t, dev);
    settle(t, dev);
    enum { HOLD = 16 };
    xgd_texture *hold[HOLD];
    int held = 0;
    while (views->free_count > 0 && held < HOLD) {
        hold[held] = xgdt_solid_texture(t, dev, 1, 1, red);
        REQUIRE(hold[held]);
        held++;
    }
    CHECK_INT(views->free_count, 0);

    /* a freed slot is reissued once the fence that could still reference it has passed */
    xgd_texture *a = xgdt_solid_texture(t, dev, 1, 1, red);
    REQUIRE(a);
    uint32_t a_index = a->native->srv;
    xgd_texture_destroy(a);
    settle(t, dev);
    settle(t, dev);
    xgd_texture *b = xgdt_solid_texture(t, dev, 1, 1, red);
    REQUIRE(b);
    CHECK_INT(b->native->srv, a_index);
    xgd_texture_destroy(b);
    for (int i = 0; i < held; i++) xgd_texture_destroy(hold[i]);

    /* 200 create/destroy cycles, one frame each: no growth, and the never-used cursor moves
       by at most the indices that can be pending behind two frames in flight (plus one) */
    settle(t, dev);
    uint32_t cap0 = views->capacity, cursor0 = views->next_unused;
    uint64_t growths0 = r->view_heap.growths;
    for (int i = 0; i < 200; i++) {
        xgd_texture *c = xgdt_solid_texture(t, dev, 1, 1, red);
        REQUIRE(c);
        xgd_texture_destroy(c);
        CHECK_OK(xgd_present(dev));
    }
    CHECK_INT(views->capacity, cap0);
    CHECK_INT(r->view_heap.growths, growths0);
    CHECK(views->next_unused - cursor0 <= (uint32_t)D3D12X_FRAMES + 1);

    /* 300 simultaneous textures: 256 grows to exactly 512, one new heap pair (generation + 1),
       and the first texture's index still names its descriptor in the new heap */
    REQUIRE(cap0 == 256);
    settle(t, dev);
    uint64_t gen0 = r->view_heap.generation;
    enum { N = 300 };
    static xgd_texture *many[N];
    many[0] = xgdt_solid_texture(t, dev, 1, 1, red);
    REQUIRE(many[0]);
    uint32_t first = many[0]->native->srv;
    for (int i = 1; i < N; i++) {
        many[i] = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
        REQUIRE(many[i]);
    }
    CHECK_INT(views->capacity, 512);
    CHECK_INT(r->view_heap.generation, gen0 + 1);
    CHECK_INT(many[0]->native->srv, first);
    /* the replaced heap is retired, not released, while the open frame may still use it */
    CHECK(r->retired_heap_count >= 1);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_color got = sprite_pixel(t, dev, sb, many[0]);
    CHECK_INT(got.r, 255);
    CHECK_INT(got.g, 0);
    CHECK_INT(got.b, 0);
    /* ... and released once its fence has passed (collected when the next slot opens) */
    settle(t, dev);
    settle(t, dev);
    CHECK_INT(r->retired_heap_count, 0);

    /* repeated identical sampler states allocate no sampler descriptor */
    got = sprite_pixel(t, dev, sb, many[1]);
    uint32_t samplers_live = r->sampler_heap.pool.live;
    uint32_t samplers_cursor = r->sampler_heap.pool.next_unused;
    size_t cached = r->sampler_count;
    for (int i = 0; i < 20; i++) got = sprite_pixel(t, dev, sb, many[1 + i]);
    CHECK_INT(got.r, 255);
    CHECK_INT(r->sampler_heap.pool.live, samplers_live);
    CHECK_INT(r->sampler_heap.pool.next_unused, samplers_cursor);
    CHECK_INT(r->sampler_count, cached);

    xgd_sprite_batch_destroy(sb);
    for (int i = 0; i < N; i++) xgd_texture_destroy(many[i]);
    xgd_device_destroy(dev);
#endif
}

XGD_TEST(D3D12_FramesInFlight)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    d3d12_renderer *r = d3d12_of(dev);
    REQUIRE(r != NULL);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    const xgd_sprite s = { .destination = { 1, 1, 4, 4 }, .color = XGD_COLOR_WHITE };

    /* the same frame content every time: 50 sprites in 50 draws (texture changes force one
       draw per sprite), vertices and constants from the ring and the arena */
    uint64_t created = 0, waits = 0;
    for (int frame = 0; frame < 24; frame++) {
        if (frame == 4) { /* warmed up: both slots have grown to what a frame needs */
            created = 0;
            for (int s2 = 0; s2 < D3D12X_FRAMES; s2++)
                created += r->frames[s2].ring.created + r->frames[s2].constants.created;
        }
        uint64_t waits_before = r->stats.gpu_waits;
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        bd.sort_mode = XGD_SPRITE_SORT_IMMEDIATE;
        CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
        for (int i = 0; i < 50; i++) CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
        CHECK_OK(xgd_sprite_batch_end(sb));
        CHECK_OK(xgd_present(dev));
        /* back-pressure only: reusing a slot waits for it at most once */
        CHECK(r->stats.gpu_waits - waits_before <= 1);
        waits += r->stats.gpu_waits - waits_before;
    }
    uint64_t after = 0;
    for (int s2 = 0; s2 < D3D12X_FRAMES; s2++)
        after += r->frames[s2].ring.created + r->frames[s2].constants.created;
    CHECK_INT(after, created);
    CHECK(waits <= 24);

    /* two updates in one frame (as a vertex and an index update) get disjoint ring ranges */
    d3d12_linear *ring = &r->frames[r->slot].ring;
    d3d12_alloc v, ix;
    REQUIRE_OK(d3d12_linear_alloc(r, ring, 96, 16, &v));
    REQUIRE_OK(d3d12_linear_alloc(r, ring, 36, 16, &ix));
    CHECK(v.gpu + 96 <= ix.gpu || ix.gpu + 36 <= v.gpu);
    CHECK(v.cpu + 96 <= ix.cpu || ix.cpu + 36 <= v.cpu);

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
#endif
}
