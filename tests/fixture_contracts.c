/*
 * fixture_contracts.c - issue 3's contract fixtures that need a renderer under test:
 *   SetRenderTargetsTransaction   spec 001 step 6, proven with a renderer that fails on demand
 *   NativeFailuresLeaveState      the same rule for texture creation, upload, clear, draw,
 *                                 present and readback
 *   DepthBiasMapping              spec 002 depth bias in units of the bound depth format
 *   Deferred_Scissor              spec 002: scissor at SpriteBatch flush time, and what a
 *                                 zero-area scissor does on this renderer against its claim
 *   SwapIntervalForwarding        spec 002 PresentInterval -> 0 / 1 / 2, as the renderer sees it
 *   BackBufferReadback_NoBackBuffer  spec 002: NotSupported by name, no zero-filled frame
 *   DescriptorCapacityContract    thousands of live textures sampled in one frame
 *   Buffer_DynamicStress          Discard / NoOverwrite / None rewrites between draws
 *   ContextRecoveryContract       spec 000 loss and restore, proven by sampling
 *   PackedFormatProbe             spec 000: packed formats a renderer cannot store vanish
 *
 * Failures are injected through core's debug hook (xgdi_debug_fail_next, src/core/fault.c),
 * which sits between core and any renderer, so these fixtures stay renderer-neutral.
 */
#include "fixture_util.h"
#include "internal.h"

#include <stdio.h>

static const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 },
                       GREEN = { 0, 255, 0, 255 }, BLUE = { 0, 0, 255, 255 },
                       GREY = { 128, 128, 128, 255 }, MAGENTA = { 255, 0, 255, 255 };

/* ---- shared helpers ------------------------------------------------------------------------- */

typedef struct ct_events {
    int n;
    xgd_device_event order[256];
    int count[XGD_EVENT_RESOURCE_DESTROYED + 1];
} ct_events;

static void ct_on_event(void *user, xgd_device *device, xgd_device_event event)
{
    (void)device;
    ct_events *e = user;
    if ((unsigned)event <= XGD_EVENT_RESOURCE_DESTROYED) e->count[event]++;
    if (e->n < 256) e->order[e->n++] = event;
}

static xgd_device *ct_event_device(xgdt_ctx *t, int w, int h, ct_events *ev,
                                   xgd_pixel_center centers)
{
    memset(ev, 0, sizeof *ev);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.on_event = ct_on_event;
    dd.event_user = ev;
    dd.pixel_center = centers;
    return xgdt_device(t, &dd);
}

static xgd_statistics ct_stats(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s;
}

static bool ct_content_lost(xgd_texture *tex)
{
    xgd_texture_info ti;
    memset(&ti, 0, sizeof ti);
    xgd_texture_get_info(tex, &ti);
    return ti.content_lost;
}

static bool vp_same(xgd_viewport a, xgd_viewport b)
{
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height &&
           a.min_depth == b.min_depth && a.max_depth == b.max_depth;
}

static bool rect_same(xgd_rect a, xgd_rect b)
{
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
}

/* Public binding state, compared whole before and after a refused call. */
typedef struct ct_public {
    xgd_render_target_binding b[4];
    int count;
    xgd_viewport vp;
    xgd_rect scissor;
    bool bound;
    uint64_t target_changes;
} ct_public;

static ct_public ct_snapshot(xgd_device *dev)
{
    ct_public p;
    memset(&p, 0, sizeof p);
    xgd_get_render_targets(dev, p.b, 4, &p.count);
    xgd_get_viewport(dev, &p.vp);
    xgd_get_scissor_rect(dev, &p.scissor);
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) == XGD_OK) p.bound = info.render_target_bound;
    p.target_changes = ct_stats(dev).target_changes;
    return p;
}

#define CHECK_PUBLIC_SAME(before, after, what)                                                  \
    do {                                                                                        \
        bool same_b_ = (before).count == (after).count;                                         \
        for (int k_ = 0; k_ < (before).count && same_b_; k_++)                                  \
            same_b_ = (before).b[k_].target == (after).b[k_].target &&                          \
                      (before).b[k_].face == (after).b[k_].face;                                \
        CHECK_MSG(same_b_, "%s: the public bindings changed after a failed native call", what); \
        CHECK_MSG(vp_same((before).vp, (after).vp), "%s: the viewport changed", what);          \
        CHECK_MSG(rect_same((before).scissor, (after).scissor), "%s: the scissor changed", what); \
        CHECK_MSG((before).bound == (after).bound, "%s: render_target_bound changed", what);    \
        CHECK_MSG((before).target_changes == (after).target_changes,                            \
                  "%s: a target change was counted", what);                                     \
    } while (0)

/* ---- SetRenderTargetsTransaction ------------------------------------------------------------ */

/*
 * Spec 001 step 6: the renderer is called before public state changes; when it fails, the
 * bindings, viewport, scissor, content-lost flags and the bound flag are as before, no discard
 * clear ran, and the native binding is still the old one (a later draw lands in it).
 */
XGD_FIXTURE(SetRenderTargetsTransaction)
{
    enum { W = 32, H = 32, AW = 16, AH = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_texture *a = fx_target(t, dev, AW, AH, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *a2 = fx_target(t, dev, AW, AH, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, 8, 16, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    xgd_texture *c = fx_target(t, dev, 8, 8, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(a && a2 && b && c);
    /* Every target comes back content-lost from a loss; binding is what clears the flag. */
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    REQUIRE_OK(xgd_device_restore_context(dev));
    CHECK(ct_content_lost(b));
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);

    /* c gets a marker a discard would erase. */
    REQUIRE_OK(xgd_set_render_target(dev, c));
    CHECK_OK(xgd_clear_color(dev, MAGENTA));
    CHECK_OK(fx_rect(dev, 8, 8, 0, 0, 3, 2, 0, BLUE));
    REQUIRE_OK(xgd_set_render_target(dev, a));
    CHECK(!ct_content_lost(a));
    CHECK_OK(xgd_clear_color(dev, GREY));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 1, 1, 6, 4, 0.0f, 1.0f }));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 2, 3, 3 }));

    struct {
        const char *what;
        xgd_render_target_binding set[2];
        int count;
    } cases[] = {
        { "bind a lost target", { { b, 0 } }, 1 },
        { "bind a DiscardContents target", { { c, 0 } }, 1 },
        { "return to the back buffer", { { NULL, 0 } }, 0 },
        { "bind an MRT set", { { a2, 0 }, { c, 0 } }, 2 },
    };
    /* c is 8x8 and a2 16x8: the MRT case must be valid to reach the renderer. */
    xgd_texture *c2 = fx_target(t, dev, AW, AH, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(c2);
    cases[3].set[1].target = c2;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i].count > info.max_render_targets) continue;
        ct_public before = ct_snapshot(dev);
        bool lost_before = ct_content_lost(b);
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                        XGD_ERROR_OUT_OF_MEMORY));
        CHECK_RESULT(xgd_set_render_targets(dev, cases[i].count ? cases[i].set : NULL,
                                            cases[i].count),
                     XGD_ERROR_OUT_OF_MEMORY);
        CHECK_MSG(xgd_device_last_result(dev) == XGD_ERROR_OUT_OF_MEMORY,
                  "%s: the failure is not the device's last result", cases[i].what);
        ct_public after = ct_snapshot(dev);
        CHECK_PUBLIC_SAME(before, after, cases[i].what);
        CHECK_MSG(ct_content_lost(b) == lost_before, "%s: b's content-lost flag changed",
                  cases[i].what);
        /* Present keeps refusing: the device is still on a render target. */
        CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    }
    CHECK(ct_content_lost(b));

    /* The native binding is still a with the custom viewport: this lands in a's (1,1)-(7,5). */
    CHECK_OK(fx_rect(dev, 6, 4, 0, 0, 6, 4, 0, RED));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(AW, AH, GREY);
    REQUIRE(e);
    fx_fill(e, AW, AH, 1, 1, 7, 5, RED);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "a_after_failed_binds", e, AW, AH, 0);
    free(e);
    /* No discard clear reached c. */
    e = fx_image(8, 8, MAGENTA);
    REQUIRE(e);
    fx_fill(e, 8, 8, 0, 0, 3, 2, BLUE);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "c_not_discarded", e, 8, 8, 0);
    free(e);

    /* The fault was consumed: the same bind now succeeds and publishes everything. */
    CHECK_OK(xgd_set_render_target(dev, b));
    CHECK(!ct_content_lost(b));
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK(vp.x == 0 && vp.y == 0 && vp.width == 8 && vp.height == 16);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_present(dev));

    xgd_effect_destroy(fx);
    xgd_texture_destroy(c2);
    xgd_texture_destroy(c);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a2);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- NativeFailuresLeaveState --------------------------------------------------------------- */

/* An 8x8 texel pattern no symmetric mistake reproduces. */
static void ct_pattern(uint8_t *rgba, int w, int h, int seed)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = rgba + ((size_t)y * (size_t)w + (size_t)x) * 4;
            p[0] = (uint8_t)(x * 31 + seed);
            p[1] = (uint8_t)(y * 29 + 7 * seed);
            p[2] = (uint8_t)((x * y * 13) ^ seed);
            p[3] = 255;
        }
}

/* Draws tex 1:1 at (x, y) with point sampling (pixel centres hit texel centres). */
static void ct_blit(xgdt_ctx *t, xgd_device *dev, int w, int h, xgd_texture *tex, int x, int y,
                    int tw, int th)
{
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    if (!fx) return;
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    CHECK_OK(fx_tex_rect(dev, w, h, (float)x, (float)y, (float)(x + tw), (float)(y + th), 0, 0, 1, 1,
                         XGD_COLOR_WHITE));
    xgd_effect_destroy(fx);
}

XGD_FIXTURE(NativeFailuresLeaveState)
{
    enum { W = 16, H = 16 };
    ct_events ev;
    xgd_device *dev = ct_event_device(t, W, H, &ev, XGD_PIXEL_CENTER_XNA);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);

    /* texture_create: no object, no registration, no event, no count. */
    xgd_statistics s0 = ct_stats(dev);
    int created0 = ev.count[XGD_EVENT_RESOURCE_CREATED];
    xgd_texture *none = (xgd_texture *)(uintptr_t)1;
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_CREATE, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &none),
                 XGD_ERROR_OUT_OF_MEMORY);
    CHECK(none == NULL);
    none = (xgd_texture *)(uintptr_t)1;
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_CREATE, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4, .height = 4 },
                                            &none),
                 XGD_ERROR_OUT_OF_MEMORY);
    CHECK(none == NULL);
    xgd_statistics s1 = ct_stats(dev);
    CHECK_INT(s1.textures_created, s0.textures_created);
    CHECK_INT(s1.live_resources, s0.live_resources);
    CHECK_INT(ev.count[XGD_EVENT_RESOURCE_CREATED], created0);

    /* texture_upload: the CPU shadow and the GPU copy keep the old texels. */
    uint8_t p[8 * 8 * 4], q[8 * 8 * 4], got[8 * 8 * 4];
    ct_pattern(p, 8, 8, 3);
    ct_pattern(q, 8, 8, 101);
    xgd_texture *tex = xgdt_image_texture(t, dev, 8, 8, p);
    REQUIRE(tex);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_UPLOAD, 1, XGD_ERROR_DEVICE_LOST));
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, q, sizeof q), XGD_ERROR_DEVICE_LOST);
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, got, sizeof got));
    CHECK_MSG(memcmp(got, p, sizeof p) == 0, "a failed upload changed the CPU shadow");
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_UPLOAD, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 2, 2, 2, 2 }, q, 16),
                 XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    ct_blit(t, dev, W, H, tex, 4, 4, 8, 8);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            const uint8_t *s = p + ((size_t)y * 8 + (size_t)x) * 4;
            fx_put(e, W, 4 + x, 4 + y, (xgd_color){ s[0], s[1], s[2], s[3] });
        }
    fx_expect_back_buffer(t, dev, "texture_after_failed_uploads", e, W, H, 0);

    /* clear: pixels and the count stay. */
    CHECK_OK(xgd_effect_apply(fx));
    s0 = ct_stats(dev);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_clear_color(dev, RED), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_INT(ct_stats(dev).clears, s0.clears);
    /* draw: nothing drawn, nothing counted. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(fx_rect(dev, W, H, 0, 0, W, H, 0, GREEN), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_INT(ct_stats(dev).draw_calls, s0.draw_calls);
    fx_expect_back_buffer(t, dev, "after_failed_clear_and_draw", e, W, H, 0);
    free(e);

    /* readback: refused, then works. */
    uint8_t one[4] = { 1, 2, 3, 4 };
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_READ_BACK_BUFFER, 1, XGD_ERROR_DEVICE_LOST));
    CHECK_RESULT(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, one, 4),
                 XGD_ERROR_DEVICE_LOST);
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, one, 4));
    CHECK(one[0] == 0 && one[1] == 0 && one[2] == 0 && one[3] == 255);

    /* present: the frame is not counted; the next one is. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_PRESENT, 1, XGD_ERROR_DEVICE_LOST));
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
    CHECK_INT(ct_stats(dev).frames, s0.frames);
    CHECK_OK(xgd_present(dev));
    CHECK_INT(ct_stats(dev).frames, s0.frames + 1);

    /* nth counts calls: the second clear from now fails, the first and third succeed. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 2, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_OK(xgd_clear_color(dev, BLUE));
    CHECK_RESULT(xgd_clear_color(dev, RED), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_clear_color(dev, GREEN));

    xgd_texture_destroy(tex);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- DepthBiasMapping ----------------------------------------------------------------------- */

/*
 * Spec 002: RasterizerState.DepthBias is in units of depth; DXGI renderers turn it into the
 * integer count of the bound format's smallest step (D16: 1/65535, D24: 1/16777215). A flat
 * quad 10 steps behind the cleared depth passes LessEqual exactly when the bias pulls it at
 * least 10 steps forward. Columns sit 5 steps away from that edge on either side, beyond any
 * rounding of the conversion (truncation, r = 1/2^n versus 1/(2^n - 1)) or of depth storage.
 */
static void bias_columns(xgdt_ctx *t, xgd_depth_format format, double steps, const char *label)
{
    enum { W = 64, H = 8, N = 6 };
    xgd_device *dev = fx_device(t, W, H, format, 0);
    if (!dev) return;
    xgd_effect *fx = fx_effect(t, dev);
    if (!fx) {
        xgd_device_destroy(dev);
        return;
    }
    const double unit = 1.0 / steps;
    const double clear_depth = 0.5;
    const float z = (float)(clear_depth + 10.0 * unit);
    const int bias_steps[N] = { -30, -20, -15, -5, 0, 10 };
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(BLACK),
                       (float)clear_depth, 0));
    uint8_t *e = fx_image(W, H, BLACK);
    if (!e) return;
    for (int i = 0; i < N; i++) {
        xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
        rd.depth_bias = (float)(bias_steps[i] * unit);
        xgd_rasterizer_state *rs = fx_raster(t, dev, &rd);
        if (!rs) break;
        CHECK_OK(xgd_set_rasterizer_state(dev, rs));
        xgd_color col = fx_rgba(40 * i + 20, 255 - 30 * i, 90, 255);
        int x0 = i * (W / N), x1 = (i + 1) * (W / N);
        CHECK_OK(fx_rect(dev, W, H, (float)x0, 0, (float)x1, H, z, col));
        /* Passes when z + bias <= the cleared depth: 10 + bias_steps <= 0. */
        if (10 + bias_steps[i] <= 0) fx_fill(e, W, H, x0, 0, x1, H, col);
        xgd_set_rasterizer_state(dev, NULL);
        xgd_rasterizer_state_destroy(rs);
    }
    fx_expect_back_buffer(t, dev, label, e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(DepthBiasMapping)
{
    bias_columns(t, XGD_DEPTH_FORMAT_DEPTH16, 65535.0, "d16");
    bias_columns(t, XGD_DEPTH_FORMAT_DEPTH24, 16777215.0, "d24");
    bias_columns(t, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 16777215.0, "d24s8");
}

/* ---- Deferred_Scissor ----------------------------------------------------------------------- */

static const char *zero_scissor_name(xgd_zero_scissor_behavior b)
{
    return b == XGD_ZERO_SCISSOR_EXPANDS_TO_TARGET ? "expands to the target" : "clips everything";
}

/*
 * A deferred SpriteBatch draws at End, so the scissor rectangle in force at End applies (XNA
 * sets its states at flush time); an Immediate batch draws at each Draw. A zero-area scissor
 * clips everything on some renderers and expands to the whole target on others (spec 002): the
 * fixture observes which, prints it, and requires it to be what xgd_device_info.zero_scissor
 * claims, so each renderer's behaviour is stated rather than hidden.
 */
XGD_FIXTURE(Deferred_Scissor)
{
    enum { W = 64, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_texture *tex = xgdt_solid_texture(t, dev, 1, 1, GREEN);
    xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
    rd.cull_mode = XGD_CULL_NONE;
    rd.scissor_test_enable = true;
    xgd_rasterizer_state *on = fx_raster(t, dev, &rd);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex && on);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.rasterizer_state = on;
    bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    const xgd_sprite full = { .destination = &(xgd_rect){ 0, 0, W, H }, .color = XGD_COLOR_WHITE };

    /* Deferred: the rectangle set between Begin and End is the one used. */
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 4, 4, 20, 10 }));
    bd.sort_mode = XGD_SPRITE_SORT_DEFERRED;
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &full));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 30, 8, 16, 20 }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 30, 8, 46, 28, GREEN);
    fx_expect_back_buffer(t, dev, "deferred_uses_end_time_scissor", e, W, H, 0);
    free(e);

    /* Immediate: each draw uses the rectangle of its moment. */
    CHECK_OK(xgd_clear_color(dev, BLACK));
    bd.sort_mode = XGD_SPRITE_SORT_IMMEDIATE;
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 3, 5, 7 }));
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &full));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 40, 20, 24, 12 }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &full));
    CHECK_OK(xgd_sprite_batch_end(sb));
    e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 2, 3, 7, 10, GREEN);
    fx_fill(e, W, H, 40, 20, 64, 32, GREEN);
    fx_expect_back_buffer(t, dev, "immediate_uses_draw_time_scissor", e, W, H, 0);
    free(e);

    /* Zero-area rectangles: observe, then hold the renderer to its claim. */
    const xgd_rect zero[3] = { { 10, 10, 0, 0 }, { 10, 10, 0, 5 }, { 10, 10, 5, 0 } };
    bd.sort_mode = XGD_SPRITE_SORT_DEFERRED;
    for (int i = 0; i < 3; i++) {
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(xgd_set_scissor_rect(dev, zero[i]));
        CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
        CHECK_OK(xgd_sprite_batch_draw(sb, tex, &full));
        CHECK_OK(xgd_sprite_batch_end(sb));
        uint8_t *got = NULL;
        if (!xgdt_read_back_buffer(t, dev, W, H, &got)) break;
        int green = 0, black = 0;
        for (int k = 0; k < W * H; k++) {
            const uint8_t *px = got + (size_t)k * 4;
            if (px[0] == 0 && px[1] == 255 && px[2] == 0 && px[3] == 255) green++;
            else if (px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 255) black++;
        }
        const char *observed = green == W * H ? "expands to the target"
                             : black == W * H ? "clips everything"
                                              : "draws part of the target";
        printf("  zero-area scissor (%d,%d %dx%d) on %s: observed: %s; xgd_device_info claims: %s\n",
               zero[i].x, zero[i].y, zero[i].width, zero[i].height, t->renderer_name, observed,
               zero_scissor_name(info.zero_scissor));
        uint8_t *want = fx_image(W, H, info.zero_scissor == XGD_ZERO_SCISSOR_EXPANDS_TO_TARGET
                                           ? GREEN : BLACK);
        REQUIRE(want);
        char label[32];
        snprintf(label, sizeof label, "zero_area_%d", i);
        xgdt_compare_rgba(t, label, got, want, W, H, 0);
        free(want);
        free(got);
    }
    xgd_sprite_batch_destroy(sb);
    xgd_rasterizer_state_destroy(on);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- SwapIntervalForwarding ----------------------------------------------------------------- */

/*
 * Spec 002 "One PresentInterval::Two": Immediate -> 0, Two -> 2, Default and One -> 1. The
 * device reports it, and the renderer's present receives it (observed through the debug hook,
 * which records the argument without changing it), also after a Reset changes the interval.
 */
XGD_FIXTURE(SwapIntervalForwarding)
{
    static const struct { xgd_present_interval pi; int want; const char *name; } cases[] = {
        { XGD_PRESENT_INTERVAL_DEFAULT, 1, "Default" },
        { XGD_PRESENT_INTERVAL_ONE, 1, "One" },
        { XGD_PRESENT_INTERVAL_TWO, 2, "Two" },
        { XGD_PRESENT_INTERVAL_IMMEDIATE, 0, "Immediate" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.pp.back_buffer_width = 8;
        dd.pp.back_buffer_height = 8;
        dd.pp.present_interval = cases[i].pi;
        xgd_device *dev = xgdt_device(t, &dd);
        REQUIRE(dev);
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_MSG(info.swap_interval == cases[i].want, "%s: swap_interval %d, expected %d",
                  cases[i].name, info.swap_interval, cases[i].want);
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_PRESENT, 0, XGD_OK)); /* record only */
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(xgd_present(dev));
        CHECK_MSG(xgdi_debug_last_swap_interval(dev) == cases[i].want,
                  "%s: the renderer's present received %d, expected %d", cases[i].name,
                  xgdi_debug_last_swap_interval(dev), cases[i].want);
        /* Reset to the next case's interval: both views follow. */
        size_t j = (i + 1) % (sizeof cases / sizeof cases[0]);
        xgd_presentation_parameters pp = info.pp;
        pp.present_interval = cases[j].pi;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_MSG(info.swap_interval == cases[j].want, "after Reset to %s: swap_interval %d",
                  cases[j].name, info.swap_interval);
        CHECK_OK(xgd_present(dev));
        CHECK_MSG(xgdi_debug_last_swap_interval(dev) == cases[j].want,
                  "after Reset to %s: the renderer received %d", cases[j].name,
                  xgdi_debug_last_swap_interval(dev));
        xgd_device_destroy(dev);
    }
}

/* ---- BackBufferReadback_NoBackBuffer -------------------------------------------------------- */

/*
 * Spec 002: a device without a readable back buffer answers NotSupported by name rather than a
 * zero-filled "successful" frame: the caller's buffer is untouched and the message names the
 * renderer. The renderer is made to report no readback through the debug hook, at creation
 * and on a live device, on the identity and the letterbox (sampled) paths.
 */
XGD_FIXTURE(BackBufferReadback_NoBackBuffer)
{
    for (int mode = 0; mode < 2; mode++) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.pp.back_buffer_width = 32;
        dd.pp.back_buffer_height = 16;
        if (mode == 1) {
            dd.pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
            dd.pp.virtual_width = 8;
            dd.pp.virtual_height = 8;
        }
        REQUIRE_OK(xgdi_debug_fail_next(NULL, XGDI_FAULT_NO_BACK_BUFFER_READBACK, -1,
                                        XGD_ERROR_NOT_SUPPORTED));
        xgd_device *dev = xgdt_device(t, &dd);
        REQUIRE(dev);
        CHECK_OK(xgd_clear_color(dev, GREEN));
        uint8_t buf[8 * 4];
        memset(buf, 0xAB, sizeof buf);
        CHECK_RESULT(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 8, 1 }, buf, sizeof buf),
                     XGD_ERROR_NOT_SUPPORTED);
        const char *msg = xgd_device_last_error(dev);
        CHECK_MSG(strstr(msg, "readback") != NULL && strstr(msg, t->renderer_name) != NULL,
                  "the message does not name the missing readback and the renderer: '%s'", msg);
        bool untouched = true;
        for (size_t i = 0; i < sizeof buf; i++) untouched &= buf[i] == 0xAB;
        CHECK_MSG(untouched, "a refused readback wrote into the caller's buffer");
        /* Disarmed, the same call reads the green frame; armed again on the live device, it is
         * refused again. */
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_NO_BACK_BUFFER_READBACK, 0, XGD_OK));
        CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 8, 1 }, buf, sizeof buf));
        CHECK(buf[0] == 0 && buf[1] == 255 && buf[2] == 0 && buf[3] == 255);
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_NO_BACK_BUFFER_READBACK, -1,
                                        XGD_ERROR_NOT_SUPPORTED));
        CHECK_RESULT(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 1, 8, 1 }, buf, sizeof buf),
                     XGD_ERROR_NOT_SUPPORTED);
        xgd_device_destroy(dev);
    }
}

/* ---- DescriptorCapacityContract ------------------------------------------------------------- */

/* Colour of texture i: distinct for every i below 4096. */
static xgd_color capacity_color(int i)
{
    return fx_rgba(i & 0xFF, ((i >> 8) * 20 + 10) & 0xFF, (i * 7 + 3) & 0xFF, 255);
}

/*
 * Thousands of live textures sampled in one frame render correctly: 3000 1x1 textures, each a
 * distinct colour, drawn by one SpriteBatch (one texture per sprite, so one draw per sprite:
 * texture groups off) into one pixel each of a 64x64 target. GPU renderers must grow or recycle
 * descriptor space without overwriting descriptors that earlier draws of the frame still use.
 * Then the same with texture groups on: 16 textures a draw (188 draws), the same image.
 */
XGD_FIXTURE(DescriptorCapacityContract)
{
    enum { N = 3000, S = 64 };
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture **tex = calloc(N, sizeof *tex);
    REQUIRE(tex);
    int made = 0;
    for (; made < N; made++) {
        xgd_color c = capacity_color(made);
        uint8_t px[4] = { c.r, c.g, c.b, c.a };
        tex[made] = xgdt_image_texture(t, dev, 1, 1, px);
        if (!tex[made]) break;
    }
    xgd_texture *rt = fx_target(t, dev, S, S, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_sprite_batch *sb = NULL;
    if (made == N && rt && xgd_sprite_batch_create(dev, &sb) == XGD_OK) {
        for (int pass = 0; pass < 2; pass++) {
            CHECK_OK(xgd_sprite_batch_set_texture_groups(
                sb, pass == 0 ? XGD_SPRITE_TEXTURE_GROUPS_OFF : XGD_SPRITE_TEXTURE_GROUPS_ON));
            xgd_statistics s0 = ct_stats(dev);
            CHECK(s0.live_resources >= (uint64_t)N);
            CHECK_OK(xgd_set_render_target(dev, rt));
            CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, (xgd_vector4){ 0, 0, 0, 0 }, 1.0f, 0));
            xgd_sprite_batch_begin_desc bd;
            memset(&bd, 0, sizeof bd);
            bd.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
            bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
            CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
            for (int i = 0; i < N; i++) {
                xgd_sprite sp = { .destination = &(xgd_rect){ i % S, i / S, 1, 1 },
                                  .color = XGD_COLOR_WHITE };
                CHECK_OK(xgd_sprite_batch_draw(sb, tex[i], &sp));
            }
            CHECK_OK(xgd_sprite_batch_end(sb));
            CHECK_OK(xgd_set_render_target(dev, NULL));
            xgd_statistics s1 = ct_stats(dev);
            if (pass == 0)
                CHECK_MSG(s1.draw_calls - s0.draw_calls >= (uint64_t)N,
                          "%llu draws for %d textures: the batch merged textures",
                          (unsigned long long)(s1.draw_calls - s0.draw_calls), N);
            else /* groups of 16 in each chunk of 2048 sprites: 128 + ceil(952 / 16) */
                CHECK_MSG(s1.draw_calls - s0.draw_calls == 128 + 60,
                          "%llu draws for %d textures in texture groups, expected 188",
                          (unsigned long long)(s1.draw_calls - s0.draw_calls), N);
            uint8_t *e = fx_image(S, S, XGD_COLOR_TRANSPARENT);
            REQUIRE(e);
            for (int i = 0; i < N; i++) fx_put(e, S, i % S, i / S, capacity_color(i));
            fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0,
                              pass == 0 ? "three_thousand_textures" : "three_thousand_textures_grouped",
                              e, S, S, 0);
            free(e);
        }
    } else {
        CHECK_MSG(false, "setup failed after %d textures", made);
    }
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(rt);
    for (int i = 0; i < made; i++) xgd_texture_destroy(tex[i]);
    free(tex);
    xgd_device_destroy(dev);
}

/* ---- Buffer_DynamicStress ------------------------------------------------------------------- */

enum { DS_W = 64, DS_H = 64, DS_CELL = 4, DS_QUADS = (DS_W / DS_CELL) * (DS_H / DS_CELL) };

static xgd_color stress_color(int phase, int i)
{
    return fx_rgba((i * 5 + phase * 60) & 0xFF, (255 - i + phase * 17) & 0xFF,
                   (i * 37 + phase * 101) & 0xFF, 255);
}

/* Six vertices of quad i's cell, clockwise. */
static void stress_quad(int phase, int i, xgd_vertex_position_color v[6])
{
    int cx = (i % (DS_W / DS_CELL)) * DS_CELL, cy = (i / (DS_W / DS_CELL)) * DS_CELL;
    xgd_color c = stress_color(phase, i);
    xgd_vertex_position_color a = fx_vpc((float)cx, (float)cy, 0, DS_W, DS_H, c);
    xgd_vertex_position_color b = fx_vpc((float)(cx + DS_CELL), (float)cy, 0, DS_W, DS_H, c);
    xgd_vertex_position_color d = fx_vpc((float)(cx + DS_CELL), (float)(cy + DS_CELL), 0, DS_W, DS_H, c);
    xgd_vertex_position_color e = fx_vpc((float)cx, (float)(cy + DS_CELL), 0, DS_W, DS_H, c);
    v[0] = a;
    v[1] = b;
    v[2] = d;
    v[3] = a;
    v[4] = d;
    v[5] = e;
}

/*
 * Every draw sees the data written before it, however the buffer was rewritten in between:
 * phase 0 a ring of 8 quads (Discard when wrapping to the start, NoOverwrite after), phase 1
 * Discard of the same range before every draw, phase 2 None (must not disturb recorded draws)
 * of the same range before every draw, phase 3 the same on a static buffer. 256 draws per phase
 * in one frame, each quad a distinct colour in its own cell.
 */
XGD_FIXTURE(Buffer_DynamicStress)
{
    xgd_device *dev = fx_device(t, DS_W, DS_H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const int stride = xgd_vertex_declaration_stride(decl);
    REQUIRE(stride == (int)sizeof(xgd_vertex_position_color));
    enum { RING = 8 };
    for (int phase = 0; phase < 4; phase++) {
        xgd_vertex_buffer *vb = NULL;
        REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){
                       .declaration = decl, .vertex_count = RING * 6, .dynamic = phase < 3,
                       .write_only = true }, &vb));
        CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        for (int i = 0; i < DS_QUADS; i++) {
            xgd_vertex_position_color v[6];
            stress_quad(phase, i, v);
            int slot = phase == 0 ? i % RING : 0;
            xgd_set_data_options opt = phase == 0 ? (slot == 0 ? XGD_SET_DATA_DISCARD
                                                               : XGD_SET_DATA_NO_OVERWRITE)
                                     : phase == 1 ? XGD_SET_DATA_DISCARD
                                                  : XGD_SET_DATA_NONE;
            xgd_result r = xgd_vertex_buffer_set_data(vb, (size_t)slot * 6 * sizeof v[0], v,
                                                      sizeof v, opt);
            if (r != XGD_OK) {
                CHECK_RESULT(r, XGD_OK);
                break;
            }
            r = xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, slot * 6, 2);
            if (r != XGD_OK) {
                CHECK_RESULT(r, XGD_OK);
                break;
            }
        }
        uint8_t *e = fx_image(DS_W, DS_H, BLACK);
        REQUIRE(e);
        for (int i = 0; i < DS_QUADS; i++) {
            int cx = (i % (DS_W / DS_CELL)) * DS_CELL, cy = (i / (DS_W / DS_CELL)) * DS_CELL;
            fx_fill(e, DS_W, DS_H, cx, cy, cx + DS_CELL, cy + DS_CELL, stress_color(phase, i));
        }
        static const char *const labels[4] = { "ring_discard_nooverwrite", "discard_each_draw",
                                               "none_each_draw_dynamic", "none_each_draw_static" };
        fx_expect_back_buffer(t, dev, labels[phase], e, DS_W, DS_H, 0);
        free(e);
        CHECK_OK(xgd_set_vertex_buffer(dev, NULL, 0));
        xgd_vertex_buffer_destroy(vb);
        CHECK_OK(xgd_present(dev));
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- ContextRecoveryContract ---------------------------------------------------------------- */

/*
 * Spec 000 "Device recovery" per renderer: a simulated loss and restore raise Lost, Resetting
 * and Reset in that order around a real recreation; a texture sampled after the restore shows
 * its original texels (the native texture was re-uploaded: sampling does not read the CPU
 * shadow), a static vertex buffer draws its original vertices, a render target reports
 * content lost until it is bound again, and no resource failed to recreate.
 */
XGD_FIXTURE(ContextRecoveryContract)
{
    enum { W = 32, H = 16 };
    ct_events ev;
    /* D3D10 centres: tests context recovery, not the centre rule; expectations assume .5 */
    xgd_device *dev = ct_event_device(t, W, H, &ev, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    uint8_t p[8 * 8 * 4];
    ct_pattern(p, 8, 8, 55);
    xgd_texture *tex = xgdt_image_texture(t, dev, 8, 8, p);
    xgd_texture *rt = fx_target(t, dev, 8, 8, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(tex && rt);
    /* Two triangles of different colours: a wrong or zeroed buffer cannot pass. */
    const xgd_vertex_position_color quad[6] = {
        fx_vpc(20, 2, 0, W, H, RED), fx_vpc(30, 2, 0, W, H, RED), fx_vpc(30, 7, 0, W, H, RED),
        fx_vpc(20, 2, 0, W, H, BLUE), fx_vpc(30, 7, 0, W, H, BLUE), fx_vpc(20, 7, 0, W, H, BLUE),
    };
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    xgd_vertex_buffer *vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = decl,
                                        .vertex_count = 6 }, &vb));
    REQUIRE_OK(xgd_vertex_buffer_set_data(vb, 0, quad, sizeof quad, XGD_SET_DATA_NONE));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, GREEN));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint64_t live = ct_stats(dev).live_resources;

    int n0 = ev.n;
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(info.lost);
    CHECK_RESULT(xgd_clear_color(dev, BLACK), XGD_ERROR_DEVICE_LOST);
    REQUIRE_OK(xgd_device_restore_context(dev));
    int lost_at = -1, resetting_at = -1, reset_at = -1, others = 0;
    for (int i = n0; i < ev.n; i++) {
        if (ev.order[i] == XGD_EVENT_DEVICE_LOST) lost_at = lost_at < 0 ? i : lost_at;
        else if (ev.order[i] == XGD_EVENT_DEVICE_RESETTING) resetting_at = resetting_at < 0 ? i : resetting_at;
        else if (ev.order[i] == XGD_EVENT_DEVICE_RESET) reset_at = reset_at < 0 ? i : reset_at;
        else others++;
    }
    CHECK_MSG(lost_at >= 0 && resetting_at > lost_at && reset_at > resetting_at,
              "events out of order: lost %d, resetting %d, reset %d", lost_at, resetting_at, reset_at);
    CHECK_MSG(others == 0, "%d resource events during the recovery (it recreates, it does not "
              "register anew)", others);
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(!info.lost);
    CHECK_INT(info.last_recovery_failures, 0);
    CHECK_INT(ct_stats(dev).live_resources, live);
    CHECK(ct_content_lost(rt));
    CHECK(!ct_content_lost(tex));

    /* Sampling proves the upload. */
    CHECK_OK(xgd_clear_color(dev, BLACK));
    ct_blit(t, dev, W, H, tex, 2, 4, 8, 8);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    CHECK_OK(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 2));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            const uint8_t *s = p + ((size_t)y * 8 + (size_t)x) * 4;
            fx_put(e, W, 2 + x, 4 + y, (xgd_color){ s[0], s[1], s[2], s[3] });
        }
    const float upper[6] = { 20, 2, 30, 2, 30, 7 }, lower[6] = { 20, 2, 30, 7, 20, 7 };
    fx_raster_tri(e, W, H, upper, RED);
    fx_raster_tri(e, W, H, lower, BLUE);
    fx_expect_back_buffer(t, dev, "sampled_after_restore", e, W, H, 0);
    free(e);

    /* Binding clears content_lost; the target renders again. */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK(!ct_content_lost(rt));
    CHECK_OK(xgd_clear_color(dev, MAGENTA));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    e = fx_image(8, 8, MAGENTA);
    REQUIRE(e);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target_after_restore", e, 8, 8, 0);
    free(e);
    CHECK_OK(xgd_present(dev));

    CHECK_OK(xgd_set_vertex_buffer(dev, NULL, 0));
    xgd_vertex_buffer_destroy(vb);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- PackedFormatProbe ---------------------------------------------------------------------- */

typedef struct ct_log {
    int warnings;
    char last_warning[512];
} ct_log;

static void ct_keep_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)code;
    ct_log *l = user;
    if (level == XGD_LOG_WARNING) {
        l->warnings++;
        snprintf(l->last_warning, sizeof l->last_warning, "%s", message ? message : "");
    }
}

/* A device with a log that counts warnings (xgdt_device keeps its own log callback). */
static xgd_device *ct_logged_device(xgdt_ctx *t, ct_log *log)
{
    memset(log, 0, sizeof *log);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = t->renderer;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.log = ct_keep_log;
    dd.log_user = log;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_device_create returned %s (%s)",
                     xgd_result_name(r), xgd_device_last_error(NULL));
        return NULL;
    }
    return dev;
}

/*
 * Spec 000 device creation: a renderer that cannot store Bgra4444, Bgr565 or Bgra5551 texels
 * makes the format unavailable with a warning instead of corrupting it. The probe's readback is
 * corrupted through the debug hook; the formats the renderer claimed then vanish from
 * query_format, their textures are NOT_SUPPORTED, a render target asking for one falls back to
 * Color, other formats are untouched; the same holds after a restore, where a texture of a
 * vanished format counts as a recovery failure.
 */
XGD_FIXTURE(PackedFormatProbe)
{
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGRA4444,
                                                  XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551 };
    ct_log log;
    xgd_device *dev = ct_logged_device(t, &log);
    REQUIRE(dev);
    bool claimed[3];
    int claimed_count = 0;
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, packed[i], &fs));
        claimed[i] = fs.texture;
        claimed_count += fs.texture;
        /* What query_format says is what creation does. */
        xgd_texture *tex = NULL;
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4,
                                            .format = packed[i] }, &tex);
        CHECK_RESULT(r, fs.texture ? XGD_OK : XGD_ERROR_NOT_SUPPORTED);
        xgd_texture_destroy(tex);
    }
    CHECK_MSG(log.warnings == 0, "an unfaulted device warned: %s", log.last_warning);
    printf("  %s stores %d of the 3 packed formats\n", t->renderer_name, claimed_count);

    /* A texture of each claimed format, to come back (or not) from a restore. */
    xgd_texture *keep[3] = { NULL, NULL, NULL };
    for (int i = 0; i < 3; i++)
        if (claimed[i])
            CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 2,
                                          .format = packed[i] }, &keep[i]));

    /* Creation with a corrupt probe readback. */
    REQUIRE_OK(xgdi_debug_fail_next(NULL, XGDI_FAULT_CORRUPT_DOWNLOAD, -1, XGD_OK));
    ct_log log2;
    xgd_device *bad = ct_logged_device(t, &log2);
    REQUIRE(bad);
    REQUIRE_OK(xgdi_debug_fail_next(bad, XGDI_FAULT_CORRUPT_DOWNLOAD, 0, XGD_OK));
    CHECK_INT(log2.warnings, claimed_count);
    if (claimed_count > 0)
        CHECK_MSG(strstr(log2.last_warning, "unavailable") != NULL,
                  "the warning does not say the format is unavailable: '%s'", log2.last_warning);
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(bad, packed[i], &fs));
        CHECK_MSG(!fs.texture && !fs.render_target, "format %d still available after a failed "
                  "probe", (int)packed[i]);
        xgd_texture *tex = NULL;
        CHECK_RESULT(xgd_texture2d_create(bad, &(xgd_texture2d_desc){ .width = 4, .height = 4,
                                          .format = packed[i] }, &tex),
                     XGD_ERROR_NOT_SUPPORTED);
        xgd_texture_destroy(tex);
        tex = NULL;
        CHECK_OK(xgd_render_target2d_create(bad, &(xgd_render_target_desc){ .width = 4,
                                            .height = 4, .preferred_format = packed[i] }, &tex));
        xgd_texture_info ti;
        memset(&ti, 0, sizeof ti);
        if (tex) CHECK_OK(xgd_texture_get_info(tex, &ti));
        CHECK_MSG(ti.format == XGD_SURFACE_FORMAT_COLOR, "render target preferring format %d "
                  "got format %d, expected the Color fallback", (int)packed[i], (int)ti.format);
        xgd_texture_destroy(tex);
    }
    xgd_format_support color;
    CHECK_OK(xgd_device_query_format(bad, XGD_SURFACE_FORMAT_COLOR, &color));
    CHECK(color.texture && color.render_target);
    xgd_device_destroy(bad);

    /* After a restore: the new renderer is probed again. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CORRUPT_DOWNLOAD, -1, XGD_OK));
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    int w0 = log.warnings;
    REQUIRE_OK(xgd_device_restore_context(dev));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CORRUPT_DOWNLOAD, 0, XGD_OK));
    CHECK_INT(log.warnings - w0, claimed_count);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.last_recovery_failures, claimed_count);
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, packed[i], &fs));
        CHECK(!fs.texture);
    }
    /* Everything else still works. */
    CHECK_OK(xgd_clear_color(dev, GREEN));
    CHECK_OK(xgd_present(dev));
    for (int i = 0; i < 3; i++) xgd_texture_destroy(keep[i]);
    xgd_device_destroy(dev);
}

/* ---- SpriteBatch_ViewportProjection --------------------------------------------------------- */

/*
 * Spec 002: SpriteBatch derives its projection from the effective viewport, so sprite pixels
 * are local to a sub-viewport (not transformed twice) and logical under a presentation mode.
 * An asymmetric 32x16 viewport at (8,4) catches a swapped width and height, which the square
 * SpriteBatch_CustomViewport cannot; a letterboxed 32x32 canvas in a 96x48 back buffer (scale
 * 1.5, origin x 24) reads back, per logical pixel, exactly the logical sprite rectangles.
 */
XGD_FIXTURE(SpriteBatch_ViewportProjection)
{
    xgd_device *dev = fx_device(t, 64, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 8, 4, 32, 16, 0.0f, 1.0f }));
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 0, 0, 4, 2 },
                                                           .color = RED }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 26, 12, 6, 4 },
                                                           .color = GREEN }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 30, 0, 8, 3 },
                                                           .color = BLUE }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *e = fx_image(64, 32, BLACK);
    REQUIRE(e);
    fx_fill(e, 64, 32, 8, 4, 12, 6, RED);
    fx_fill(e, 64, 32, 34, 16, 40, 20, GREEN);
    fx_fill(e, 64, 32, 38, 4, 40, 7, BLUE); /* clipped at the viewport's right edge */
    fx_expect_back_buffer(t, dev, "asymmetric_subviewport", e, 64, 32, 0);
    free(e);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);

    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 96;
    dd.pp.back_buffer_height = 48;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
    dd.pp.virtual_width = 32;
    dd.pp.virtual_height = 32;
    dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    tex = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
    REQUIRE(tex);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 0, 0, 8, 8 },
                                                           .color = RED }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 20, 24, 12, 8 },
                                                           .color = GREEN }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    e = fx_image(32, 32, BLACK);
    REQUIRE(e);
    fx_fill(e, 32, 32, 0, 0, 8, 8, RED);
    fx_fill(e, 32, 32, 20, 24, 32, 32, GREEN);
    fx_expect_back_buffer(t, dev, "letterbox_logical", e, 32, 32, 0);
    free(e);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- PresentationViewportScissorMapping ----------------------------------------------------- */

/*
 * Spec 002: every public viewport and scissor is in logical canvas pixels and is mapped through
 * the presentation rectangle (the scaling is the viewport transform itself). A 32x32 canvas in a
 * 96x48 back buffer under Letterbox (scale 1.5, origin x 24) and Stretch (3 x 1.5); the chosen
 * edges map to whole physical pixels, so the logical readback (centre of each logical pixel)
 * shows exactly the logical rectangles: a 16x16 viewport at (8,8) filled green, then a
 * full-canvas red draw through a 10x6 scissor at (4,20).
 */
XGD_FIXTURE(PresentationViewportScissorMapping)
{
    const xgd_presentation_mode modes[2] = { XGD_PRESENTATION_MODE_LETTERBOX,
                                             XGD_PRESENTATION_MODE_STRETCH };
    const char *const names[2] = { "letterbox", "stretch" };
    for (int m = 0; m < 2; m++) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.pp.back_buffer_width = 96;
        dd.pp.back_buffer_height = 48;
        dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
        dd.pp.presentation_mode = modes[m];
        dd.pp.virtual_width = 32;
        dd.pp.virtual_height = 32;
        /* D3D10 centres: tests presentation mapping, not the centre rule; expectations assume .5 */
        dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
        xgd_device *dev = xgdt_device(t, &dd);
        REQUIRE(dev);
        xgd_effect *fx = fx_effect(t, dev);
        xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
        rd.cull_mode = XGD_CULL_NONE;
        rd.scissor_test_enable = true;
        xgd_rasterizer_state *on = fx_raster(t, dev, &rd);
        REQUIRE(fx && on);
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 8, 8, 16, 16, 0.0f, 1.0f }));
        CHECK_OK(fx_rect(dev, 16, 16, 0, 0, 16, 16, 0, GREEN));
        CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 0, 0, 32, 32, 0.0f, 1.0f }));
        CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 4, 20, 10, 6 }));
        CHECK_OK(xgd_set_rasterizer_state(dev, on));
        CHECK_OK(fx_rect(dev, 32, 32, 0, 0, 32, 32, 0, RED));
        uint8_t *e = fx_image(32, 32, BLACK);
        REQUIRE(e);
        fx_fill(e, 32, 32, 8, 8, 24, 24, GREEN);
        fx_fill(e, 32, 32, 4, 20, 14, 26, RED);
        fx_expect_back_buffer(t, dev, names[m], e, 32, 32, 0);
        free(e);
        xgd_set_rasterizer_state(dev, NULL);
        xgd_rasterizer_state_destroy(on);
        xgd_effect_destroy(fx);
        xgd_device_destroy(dev);
    }
}

/* ---- TextureCreationValidation / RenderTargetCreationValidation ----------------------------- */

static int pow2_floor(int n)
{
    int p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}

/*
 * Spec 001 Texture2D construction against this renderer: the profile's and renderer's size limit
 * (info.max_texture_size), positive sizes, the format verdict (creation succeeds exactly when
 * query_format says texture), DXT block alignment, the full mip chain, the CPU shadow kept for
 * recovery and, with recovery disabled, dropped so that a partial level-0 write is refused.
 */
XGD_FIXTURE(TextureCreationValidation)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    CHECK(info.max_texture_size >= 1 && info.max_texture_size <= 4096);
    xgd_texture *tex = NULL;
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 0, .height = 4 }, &tex),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = -1 }, &tex),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = info.max_texture_size + 1,
                                      .height = 1 }, &tex),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK(tex == NULL);
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = info.max_texture_size,
                                  .height = 1 }, &tex));
    xgd_texture_destroy(tex);
    tex = NULL;
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, (xgd_surface_format)f, &fs));
        bool dxt = f == XGD_SURFACE_FORMAT_DXT1 || f == XGD_SURFACE_FORMAT_DXT3 ||
                   f == XGD_SURFACE_FORMAT_DXT5;
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 8, .height = 4,
                                            .mipmap = true, .format = (xgd_surface_format)f }, &tex);
        CHECK_MSG(r == (fs.texture ? XGD_OK : XGD_ERROR_NOT_SUPPORTED),
                  "format %d: creation returned %s, query_format says texture=%d", f,
                  xgd_result_name(r), (int)fs.texture);
        if (r == XGD_OK) {
            xgd_texture_info ti;
            CHECK_OK(xgd_texture_get_info(tex, &ti));
            CHECK_INT(ti.level_count, 4); /* 8x4, 4x2, 2x1, 1x1 */
            CHECK_INT(ti.format, f);
            CHECK(ti.has_cpu_shadow);
            CHECK_INT(xgd_surface_format_size((xgd_surface_format)f, 8, 4),
                      dxt ? (f == XGD_SURFACE_FORMAT_DXT1 ? 2 * 8 : 2 * 16)
                          : 32 * xgd_surface_format_element_size((xgd_surface_format)f));
            xgd_texture_destroy(tex);
            tex = NULL;
        }
        if (dxt && fs.texture)
            CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 6, .height = 4,
                                              .format = (xgd_surface_format)f }, &tex),
                         XGD_ERROR_INVALID_ARGUMENT);
    }
    xgd_device_destroy(dev);

    /* Recovery disabled: no shadow, and a partial level-0 write is refused rather than uploading
     * zeros over the texels it does not cover; a whole-level write still works. */
    dev = xgdt_device(t, &(xgd_device_desc){ .pp = { .back_buffer_width = 8, .back_buffer_height = 8 },
                                             .context_recovery = false });
    REQUIRE(dev);
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    xgd_texture_info ti;
    CHECK_OK(xgd_texture_get_info(tex, &ti));
    CHECK(!ti.has_cpu_shadow);
    uint8_t px[4 * 4 * 4];
    memset(px, 0x5A, sizeof px);
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 1, 1, 2, 2 }, px, 16),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, px, sizeof px));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/*
 * Spec 001 "RenderTarget2D is a texture with attachment policy" on this renderer: a preferred
 * format the renderer cannot render to becomes Color; positive size, the maximum size and the
 * 2048:1 aspect limit; the multisample request rounded down to a power of two and clamped to
 * what the renderer gives for the format; the applied depth format never exceeds the request.
 */
XGD_FIXTURE(RenderTargetCreationValidation)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_texture *rt = NULL;
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 0, .height = 4 }, &rt),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                     .width = info.max_texture_size + 1, .height = 4 }, &rt),
                 XGD_ERROR_NOT_SUPPORTED);
    if (info.max_texture_size >= 4096) {
        CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4096,
                                                .height = 1 }, &rt),
                     XGD_ERROR_NOT_SUPPORTED);
        CHECK_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 1,
                                            .height = 2048 }, &rt));
        xgd_texture_destroy(rt);
        rt = NULL;
    }
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, (xgd_surface_format)f, &fs));
        for (int ms = 0; ms <= 9; ms += 3) {
            xgd_result r = xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                .width = 8, .height = 4, .preferred_format = (xgd_surface_format)f,
                .preferred_depth_format = XGD_DEPTH_FORMAT_DEPTH24_STENCIL8,
                .preferred_multisample_count = ms }, &rt);
            CHECK_RESULT(r, XGD_OK);
            if (r != XGD_OK) continue;
            xgd_texture_info ti;
            CHECK_OK(xgd_texture_get_info(rt, &ti));
            xgd_surface_format want = fs.render_target ? (xgd_surface_format)f : XGD_SURFACE_FORMAT_COLOR;
            CHECK_MSG(ti.format == want, "preferred format %d: applied %d, expected %d", f,
                      (int)ti.format, (int)want);
            xgd_format_support applied;
            CHECK_OK(xgd_device_query_format(dev, ti.format, &applied));
            int expect_ms = 0;
            if (ms > 1 && applied.multisample) {
                expect_ms = pow2_floor(ms);
                while (expect_ms > info.max_multisample_count) expect_ms /= 2;
                if (expect_ms <= 1) expect_ms = 0;
            }
            CHECK_MSG(ti.multisample_count == expect_ms, "format %d, %d samples asked: %d "
                      "applied, expected %d", f, ms, ti.multisample_count, expect_ms);
            CHECK(ti.depth_format >= XGD_DEPTH_FORMAT_NONE &&
                  ti.depth_format <= XGD_DEPTH_FORMAT_DEPTH24_STENCIL8);
            CHECK(ti.kind == XGD_RENDER_TARGET_2D && !ti.has_cpu_shadow);
            xgd_texture_destroy(rt);
            rt = NULL;
        }
    }
    xgd_device_destroy(dev);
}
