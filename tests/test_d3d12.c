/*
 * test_d3d12.c - what pixels cannot show about the Direct3D 12 renderer (issue 5):
 * DescriptorAllocator (freed slots are reissued only after their fence, capacity doubles to
 * exactly the next power of two with stable indices, retired heaps wait for their fence, the
 * sampler cache allocates nothing for repeated states) and FramesInFlight (after warm-up the
 * upload ring creates no chunks, a frame waits on the GPU at most once, ring ranges handed out
 * in one frame are disjoint). They read the renderer's own counters (src/renderers/d3d12), so
 * they build only with that renderer and skip when no D3D12 device can be created.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, pthread_cond_timedwait (D3D12_FenceFallsBack) */

#include "harness.h"

#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include <pthread.h>
#include <time.h>

#include "d3d12_internal.h"
#include "internal.h"

/* White-box: the native texture behind a public handle. */
#define NATIVE_TEX(h) (((xgd_texture *)XGDI_OBJECT(h))->native)

static xgd_device *d3d12_test_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
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
    const xgd_sprite s = { .destination = &(xgd_rect){ 0, 0, 16, 16 }, .color = XGD_COLOR_WHITE };
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
    uint32_t a_index = NATIVE_TEX(a)->srv;
    xgd_texture_destroy(a);
    settle(t, dev);
    settle(t, dev);
    xgd_texture *b = xgdt_solid_texture(t, dev, 1, 1, red);
    REQUIRE(b);
    CHECK_INT(NATIVE_TEX(b)->srv, a_index);
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
    uint32_t first = NATIVE_TEX(many[0])->srv;
    for (int i = 1; i < N; i++) {
        many[i] = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
        REQUIRE(many[i]);
    }
    CHECK_INT(views->capacity, 512);
    CHECK_INT(r->view_heap.generation, gen0 + 1);
    CHECK_INT(NATIVE_TEX(many[0])->srv, first);
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
    const xgd_sprite s = { .destination = &(xgd_rect){ 1, 1, 4, 4 }, .color = XGD_COLOR_WHITE };

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
    REQUIRE_OK(xgdi_d3d12_linear_alloc(r, ring, 96, 16, &v));
    REQUIRE_OK(xgdi_d3d12_linear_alloc(r, ring, 36, 16, &ix));
    CHECK(v.gpu + 96 <= ix.gpu || ix.gpu + 36 <= v.gpu);
    CHECK(v.cpu + 96 <= ix.cpu || ix.cpu + 36 <= v.cpu);

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
#endif
}

#ifdef XGD_TEST_HAVE_D3D12
/* Draws `tex` into dest with point sampling, inside the open frame (no present, no readback). */
static void sprite_into(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb, xgd_texture *tex,
                        xgd_rect dest)
{
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    const xgd_sprite s = { .destination = &dest, .color = XGD_COLOR_WHITE };
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
}

static void check_pixel(xgdt_ctx *t, xgd_device *dev, int x, int y, xgd_color want)
{
    uint8_t px[4] = { 1, 2, 3, 4 };
    xgd_rect r = { x, y, 1, 1 };
    CHECK_OK(xgd_get_back_buffer_data(dev, &r, px, sizeof px));
    CHECK_INT(px[0], want.r);
    CHECK_INT(px[1], want.g);
    CHECK_INT(px[2], want.b);
    CHECK_INT(px[3], want.a);
}
#endif

/*
 * ReadbackEndsFrame (issue 5, frames in flight; issue 15, readback cost): a readback in the
 * middle of a frame records its copy at the end of the open frame and submits that frame (which
 * takes the next fence value) as its only submission, then waits for that value alone: one GPU
 * wait, after which exactly the frame's value has completed. Draws recorded afterwards land in
 * the next slot, and fence values keep increasing.
 */
XGD_TEST(D3D12_ReadbackEndsFrame)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    d3d12_renderer *r = d3d12_of(dev);
    REQUIRE(r != NULL);
    const xgd_color red = { 255, 0, 0, 255 }, green = { 0, 255, 0, 255 },
                    blue = { 0, 0, 255, 255 };
    xgd_texture *tred = xgdt_solid_texture(t, dev, 2, 2, red);
    xgd_texture *tgreen = xgdt_solid_texture(t, dev, 2, 2, green);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tred && tgreen);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    /* everything so far has completed: the slot to be opened next has nothing to wait for */
    settle(t, dev);
    settle(t, dev);

    CHECK_OK(xgd_clear_color(dev, blue));
    sprite_into(t, dev, sb, tred, (xgd_rect){ 0, 0, 8, 16 });
    int slot = r->slot;
    uint64_t before = r->base.submitted_fence;
    uint64_t waits = r->stats.gpu_waits, submits = r->stats.submits;
    CHECK(xgdi_d3d12_completed(r) == before); /* the open frame's work is not submitted yet */

    /* the readback sees the open frame's draw: its copy went at the end of that frame */
    check_pixel(t, dev, 0, 0, red);
    uint64_t frame_value = r->frames[slot].fence;
    CHECK_INT(frame_value, before + 1);
    CHECK(r->slot != slot); /* the submitted frame's slot rotated */
    /* one submission: the frame's value is the last one handed out */
    uint64_t island_value = r->base.submitted_fence;
    CHECK_INT(island_value, frame_value);
    CHECK_INT(r->stats.submits, submits + 1);
    CHECK(xgdi_d3d12_completed(r) == island_value); /* waited for it; nothing beyond was signalled */
    /* one wait (the frame's value), none for back-pressure (the next slot was idle) */
    CHECK(r->stats.gpu_waits - waits <= 1);
    check_pixel(t, dev, 12, 0, blue);
    island_value = r->base.submitted_fence;

    /* later draws still land, on top of what the frame left, in a newer frame */
    int slot2 = r->slot;
    sprite_into(t, dev, sb, tgreen, (xgd_rect){ 8, 0, 8, 16 });
    CHECK_OK(xgd_present(dev));
    uint64_t presented = r->frames[slot2].fence;
    CHECK(presented > island_value);
    check_pixel(t, dev, 0, 0, red);
    check_pixel(t, dev, 12, 0, green);
    CHECK(r->base.submitted_fence > presented);

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tred);
    xgd_texture_destroy(tgreen);
    xgd_device_destroy(dev);
#endif
}

#ifdef XGD_TEST_HAVE_D3D12
typedef struct removal_log {
    bool lost_logged, reason_logged;
} removal_log;

static void removal_log_fn(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    removal_log *l = user;
    (void)level;
    if (code == XGD_ERROR_DEVICE_LOST && strstr(message, "device removed") != NULL) {
        l->lost_logged = true;
        /* DXGI_ERROR_DEVICE_REMOVED is both the failing call's result and the reason */
        if (strstr(message, "reason 0x887a0005") != NULL) l->reason_logged = true;
    }
}
#endif

/*
 * DeviceRemovedRecovery (spec 000 "Device recovery"): a native call that returns
 * DXGI_ERROR_DEVICE_REMOVED (simulated through xgdi_d3d12_debug_remove_device, on a healthy device)
 * puts the device in the lost state with the removal reason logged; calls that need the
 * renderer then report DEVICE_LOST; xgd_device_restore_context recreates the renderer and
 * every registered resource, and a texture created before the loss draws its texels again.
 */
XGD_TEST(D3D12_DeviceRemovedRecovery)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    removal_log log = { false, false };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.log = removal_log_fn;
    dd.log_user = &log;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    const xgd_color c0 = { 200, 40, 10, 255 }, c1 = { 30, 60, 250, 255 };
    const xgd_color blue = { 0, 0, 255, 255 };
    /* a 2x2 texture of two colours, so recovery must bring back texels, not just a colour */
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    const uint8_t texels[16] = { c0.r, c0.g, c0.b, c0.a, c1.r, c1.g, c1.b, c1.a,
                                 c1.r, c1.g, c1.b, c1.a, c0.r, c0.g, c0.b, c0.a };
    REQUIRE_OK(xgd_texture_set_data(tex, 0, 0, NULL, texels, sizeof texels));
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    settle(t, dev);

    xgdi_d3d12_debug_remove_device(d3d12_of(dev));
    CHECK_OK(xgd_clear_color(dev, blue)); /* recorded only: no native call fails yet */
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(info.lost);
    CHECK(log.lost_logged);
    CHECK(log.reason_logged);
    CHECK_RESULT(xgd_clear_color(dev, blue), XGD_ERROR_DEVICE_LOST);

    CHECK_OK(xgd_device_restore_context(dev));
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(!info.lost);
    CHECK_INT(info.last_recovery_failures, 0);
    /* point sampling of the 2x2 texture over 16x16: each quadrant is one texel */
    CHECK_OK(xgd_clear_color(dev, blue));
    sprite_into(t, dev, sb, tex, (xgd_rect){ 0, 0, 16, 16 });
    CHECK_OK(xgd_present(dev));
    check_pixel(t, dev, 3, 3, c0);
    check_pixel(t, dev, 12, 3, c1);
    check_pixel(t, dev, 3, 12, c1);
    check_pixel(t, dev, 12, 12, c0);

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
#endif
}

/*
 * NativeCaps (issue 5, capability detection readable through the device): on d3d12 every field
 * is what ID3D12Device::CheckFeatureSupport answers when asked here directly, the feature level
 * is at least the 11_0 the renderer requires, and a device created without debug has no debug
 * layer; the software renderer has no native caps (NOT_SUPPORTED, zeros); a lost device
 * answers DEVICE_LOST until restored.
 */
XGD_TEST(D3D12_NativeCaps)
{
    xgd_native_caps caps;
    /* software: no native caps */
    {
        xgd_device_desc sd = XGD_DEVICE_DESC_DEFAULT;
        sd.renderer = XGD_RENDERER_SOFTWARE;
        sd.pp.headless = true;
        sd.pp.back_buffer_width = sd.pp.back_buffer_height = 4;
        xgd_device *sw = NULL;
        REQUIRE_OK(xgd_device_create(&sd, &sw));
        memset(&caps, 0xab, sizeof caps);
        CHECK_RESULT(xgd_device_get_native_caps(sw, &caps), XGD_ERROR_NOT_SUPPORTED);
        CHECK_INT(caps.feature_level, 0);
        CHECK_INT(caps.shader_model, 0);
        CHECK_INT(caps.resource_binding_tier, 0);
        CHECK_INT(caps.root_signature_version, 0);
        CHECK(!caps.mesh_shaders && !caps.ray_tracing && !caps.conservative_raster &&
              !caps.debug_layer);
        CHECK_RESULT(xgd_device_get_native_caps(sw, NULL), XGD_ERROR_INVALID_ARGUMENT);
        xgd_device_destroy(sw);
    }
    CHECK_RESULT(xgd_device_get_native_caps(NULL, &caps), XGD_ERROR_INVALID_ARGUMENT);
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    ID3D12Device *nd = d3d12_of(dev)->dev;
    REQUIRE(nd != NULL);
    memset(&caps, 0xab, sizeof caps);
    REQUIRE_OK(xgd_device_get_native_caps(dev, &caps));

    static const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1,
                                                D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_12_1 };
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl = { 4, levels, D3D_FEATURE_LEVEL_11_0 };
    REQUIRE(SUCCEEDED(ID3D12Device_CheckFeatureSupport(nd, D3D12_FEATURE_FEATURE_LEVELS, &fl,
                                                       sizeof fl)));
    CHECK_INT(caps.feature_level, (int)fl.MaxSupportedFeatureLevel);
    CHECK(caps.feature_level >= 0xb000); /* 11_0: the renderer refuses anything below */

    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    memset(&o, 0, sizeof o);
    REQUIRE(SUCCEEDED(ID3D12Device_CheckFeatureSupport(nd, D3D12_FEATURE_D3D12_OPTIONS, &o,
                                                       sizeof o)));
    CHECK_INT(caps.resource_binding_tier, (int)o.ResourceBindingTier);
    CHECK(caps.resource_binding_tier >= 1 && caps.resource_binding_tier <= 3);
    CHECK(caps.conservative_raster ==
          (o.ConservativeRasterizationTier != D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED));

    D3D12_FEATURE_DATA_SHADER_MODEL sm = { D3D_SHADER_MODEL_5_1 };
    int want_sm = 0x50; /* a runtime that cannot answer has 5.0 (feature level 11_0) */
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(nd, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm)))
        want_sm = (int)sm.HighestShaderModel;
    CHECK_INT(caps.shader_model, want_sm);

    D3D12_FEATURE_DATA_ROOT_SIGNATURE rs = { D3D_ROOT_SIGNATURE_VERSION_1_1 };
    int want_rs = 10;
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(nd, D3D12_FEATURE_ROOT_SIGNATURE, &rs, sizeof rs)))
        want_rs = rs.HighestVersion == D3D_ROOT_SIGNATURE_VERSION_1_1 ? 11 : 10;
    CHECK_INT(caps.root_signature_version, want_rs);

    D3D12_FEATURE_DATA_D3D12_OPTIONS5 o5;
    memset(&o5, 0, sizeof o5);
    bool rt = SUCCEEDED(ID3D12Device_CheckFeatureSupport(nd, D3D12_FEATURE_D3D12_OPTIONS5, &o5,
                                                         sizeof o5)) &&
              o5.RaytracingTier != D3D12_RAYTRACING_TIER_NOT_SUPPORTED;
    CHECK(caps.ray_tracing == rt);
    CHECK(!caps.debug_layer); /* the test device is not a debug device */

    /* a lost device has no renderer to ask; a restored one answers again */
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_RESULT(xgd_device_get_native_caps(dev, &caps), XGD_ERROR_DEVICE_LOST);
    CHECK_OK(xgd_device_restore_context(dev));
    CHECK_OK(xgd_device_get_native_caps(dev, &caps));
    CHECK_INT(caps.feature_level, (int)fl.MaxSupportedFeatureLevel);
    xgd_device_destroy(dev);
#endif
}

/*
 * Slot 0 is bound only for a pixel shader that samples it (d3d12_user.c binds the registers
 * the shader samples, as the Vulkan renderer does): a Texture3D left in slot 0 under an
 * untextured BasicEffect or the MrtEffect must not have its TEXTURE3D SRV put in a 2D t0; the
 * stand-in is bound instead. Pixels cannot show it (those shaders declare no t0), the resource states can:
 * a texture bound for sampling is transitioned to PIXEL_SHADER_RESOURCE, one not bound is left
 * as its upload left it. A textured draw of a 2D texture still binds it.
 */
XGD_TEST(D3D12_UnsampledSlotZero)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    xgd_format_support fs;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &fs));
    if (!fs.volume) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the Direct3D 12 device reports no Color volumes");
        return;
    }
    xgd_texture *vol = NULL, *tex2 = NULL;
    REQUIRE_OK(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = 2, .height = 2,
                                                                .depth = 2 }, &vol));
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex2));
    uint8_t texels[2 * 2 * 2 * 4];
    memset(texels, 0x80, sizeof texels);
    CHECK_OK(xgd_texture3d_set_data(vol, 0, NULL, texels, sizeof texels));
    CHECK_OK(xgd_texture_set_data(tex2, 0, 0, NULL, texels, 16));
    xgd_effect *basic = NULL, *mrt = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    REQUIRE_OK(xgd_mrt_effect_create(dev, &mrt));
    const xgd_vertex_position_color tri[3] = {
        { { -1, 1, 0 }, XGD_COLOR_WHITE }, { { 1, 1, 0 }, XGD_COLOR_WHITE },
        { { -1, -1, 0 }, XGD_COLOR_WHITE },
    };
    xgd_vertex_declaration *pc = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    xgd_effect *fx[2] = { basic, mrt };
    for (int i = 0; i < 2; i++) {
        CHECK_OK(xgd_effect_apply(fx[i]));
        CHECK_OK(xgd_set_texture(dev, 0, vol));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, pc));
        CHECK_MSG(NATIVE_TEX(vol)->states[0] != D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE,
                  "effect %d samples nothing, but the Texture3D in slot 0 was bound for it", i);
    }
    /* the rule is "the program samples", not "a Texture3D": a 2D texture under an untextured
     * program is not bound either, and is once the program samples it */
    CHECK_OK(xgd_effect_apply(basic));
    CHECK_OK(xgd_set_texture(dev, 0, tex2));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, pc));
    CHECK(NATIVE_TEX(tex2)->states[0] != D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    xgd_basic_effect_params p;
    xgd_basic_effect_get(basic, &p);
    p.texture_enabled = true;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_basic_effect_set_texture(basic, tex2));
    CHECK_OK(xgd_effect_apply(basic));
    const xgd_vertex_position_color_texture ttri[3] = {
        { { -1, 1, 0 }, XGD_COLOR_WHITE, { 0, 0 } }, { { 1, 1, 0 }, XGD_COLOR_WHITE, { 1, 0 } },
        { { -1, -1, 0 }, XGD_COLOR_WHITE, { 0, 1 } },
    };
    CHECK_OK(xgd_draw_user_primitives(
        dev, XGD_PRIMITIVE_TRIANGLE_LIST, ttri, 0, 1,
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    CHECK(NATIVE_TEX(tex2)->states[0] == D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    CHECK_OK(xgd_present(dev));
    xgd_effect_destroy(mrt);
    xgd_effect_destroy(basic);
    xgd_texture_destroy(tex2);
    xgd_texture_destroy(vol);
    xgd_device_destroy(dev);
#endif
}

/*
 * D3D12_FenceFallsBack: vkd3d 1.2's fence worker applies completed values with
 * ID3D12Fence::Signal one by one, so when the later of two submissions completes between its
 * polls the fence reads K and then K-1 again (until the next completion), and the signal of K
 * has already run the event check. The renderer must neither report completion going
 * backwards nor wait forever for K. The race is reproduced with a CPU-side Signal(K-1), which
 * D3D12 allows, after K passed but before the renderer read it (completed_max put back).
 * A watchdog signals K after 10 s so that a failure ends the test instead of hanging it.
 */
#ifdef XGD_TEST_HAVE_D3D12

typedef struct fence_watchdog {
    ID3D12Fence *fence;
    uint64_t value;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool done, rescued;
} fence_watchdog;

static void *fence_watchdog_main(void *arg)
{
    fence_watchdog *w = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&w->lock);
    while (!w->done) {
        if (pthread_cond_timedwait(&w->cond, &w->lock, &until) != 0) break;
    }
    if (!w->done) {
        w->rescued = true;
        ID3D12Fence_Signal(w->fence, w->value);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}
#endif

XGD_TEST(D3D12_FenceFallsBack)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_test_device(t);
    if (dev == NULL) return;
    d3d12_renderer *r = d3d12_of(dev);
    REQUIRE(r != NULL);
    const xgd_color grey = { 90, 91, 92, 255 }, teal = { 0, 128, 128, 255 };
    CHECK_OK(xgd_clear_color(dev, grey));
    settle(t, dev);
    uint64_t k = r->base.submitted_fence;
    REQUIRE(k >= 2);
    REQUIRE(xgdi_d3d12_completed(r) == k);

    /* completion read after the fall-back never goes below what was read before */
    REQUIRE(SUCCEEDED(ID3D12Fence_Signal(r->fence, k - 1)));
    CHECK_INT(xgdi_d3d12_completed(r), k);

    /* the race before the renderer read K: waiting for K must still end */
    r->completed_max = k - 1;
    fence_watchdog w = { .fence = r->fence, .value = k };
    pthread_mutex_init(&w.lock, NULL);
    pthread_cond_init(&w.cond, NULL);
    pthread_t thread;
    REQUIRE(pthread_create(&thread, NULL, fence_watchdog_main, &w) == 0);
    xgd_result res = xgdi_d3d12_wait(r, k);
    pthread_mutex_lock(&w.lock);
    w.done = true;
    pthread_cond_signal(&w.cond);
    pthread_mutex_unlock(&w.lock);
    pthread_join(thread, NULL);
    CHECK_INT(res, XGD_OK);
    CHECK_MSG(!w.rescued, "xgdi_d3d12_wait(%llu) hung after the fence fell back to %llu (the "
                          "watchdog had to signal it)",
              (unsigned long long)k, (unsigned long long)(k - 1));
    CHECK(xgdi_d3d12_completed(r) >= k);
    pthread_mutex_destroy(&w.lock);
    pthread_cond_destroy(&w.cond);

    /* the device goes on: a clear and a readback after the episode */
    check_pixel(t, dev, 3, 3, grey);
    CHECK_OK(xgd_clear_color(dev, teal));
    check_pixel(t, dev, 3, 3, teal);
    xgd_device_destroy(dev);
#endif
}
