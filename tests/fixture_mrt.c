/*
 * fixture_mrt.c - multiple render targets (issue 3 "Mrt"; spec 000 "Finalising MRT sets").
 *
 * XNA's stock programs write render target 0 only (Mrt_Basics proves that clears still reach
 * every target and that a stock draw leaves targets 1..3 alone). Everything else draws with
 * the EXT MrtEffect, which writes vertex colour * colors[i] to slot i, so each target of a set
 * receives its own output and a target in the wrong slot, a skipped target or a stale image is
 * visible. Every target's sampleable image is read (and level 1 of mipmapped ones), never only
 * target 0: a repair that finalised target 0 alone would pass a weaker check (spec 000).
 *
 * Covered: 1-4 ordered targets, independent colour-write masks, blending per target, first-
 * target depth ownership, MRT MSAA with resolve, set replacement, producer-to-consumer sampling
 * right after unbind, and the three transitions (MRT to back buffer, to a single target, to
 * another MRT set), each finalising every outgoing target (MSAA resolve and mip chain).
 */
#include "fixture_model.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color WHITE = { 255, 255, 255, 255 };

static xgd_result bind_set(xgd_device *dev, xgd_texture *const *targets, int n)
{
    xgd_render_target_binding set[4];
    for (int i = 0; i < n; i++) set[i] = (xgd_render_target_binding){ targets[i], XGD_CUBE_MAP_FACE_POSITIVE_X };
    return xgd_set_render_targets(dev, set, n);
}

static xgd_result bind2(xgd_device *dev, xgd_texture *a, xgd_texture *b)
{
    xgd_texture *set[2] = { a, b };
    return bind_set(dev, set, 2);
}

/* The public binding equals `targets` in order. */
static void expect_bound(xgdt_ctx *t, xgd_device *dev, xgd_texture *const *targets, int n)
{
    xgd_render_target_binding got[4];
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, got, 4, &count));
    CHECK_INT(count, n);
    for (int i = 0; i < n && i < count; i++) CHECK_MSG(got[i].target == targets[i], "slot %d holds the wrong target", i);
}

/* ---- stock programs ------------------------------------------------------------------------ */

XGD_FIXTURE(Mrt_Basics)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(a && b && fx);
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.target[0].color_write_channels = XGD_COLOR_WRITE_GREEN | XGD_COLOR_WRITE_ALPHA;
    bd.target[1].color_write_channels = XGD_COLOR_WRITE_RED;
    xgd_blend_state *masked = fx_blend(t, dev, &bd);
    REQUIRE(masked);

    const xgd_color c = { 30, 60, 90, 120 }, red = { 255, 0, 0, 255 };
    CHECK_OK(bind2(dev, a, b));
    xgd_texture *ab[2] = { a, b };
    expect_bound(t, dev, ab, 2);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(c), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 6, 4, 0, red));
    CHECK_OK(xgd_set_blend_state(dev, masked));
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 16, 16, 0, WHITE));
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    CHECK_OK(xgd_set_render_target(dev, NULL));

    /* BasicEffect writes COLOR0 only: target 1 keeps the clear colour everywhere. */
    uint8_t *ea = fx_image(W, H, c), *eb = fx_image(W, H, c);
    REQUIRE(ea && eb);
    fx_fill(ea, W, H, 0, 0, 6, 4, red);
    fx_fill(ea, W, H, 8, 8, 16, 16, fx_rgba(c.r, 255, c.b, 255));
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target0", ea, W, H, 0);
    fx_expect_texture(t, b, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target1", eb, W, H, 0);
    free(ea);
    free(eb);
    xgd_blend_state_destroy(masked);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- ordered targets ------------------------------------------------------------------------ */

static const xgd_color SLOT_COLORS[4] = {
    { 230, 40, 20, 255 }, { 30, 210, 60, 200 }, { 40, 70, 240, 160 }, { 250, 220, 10, 90 },
};

/* 1, 2, 3 and 4 targets, bound in reverse creation order so slot order (not creation order)
 * must decide which target gets which output; the back buffer (0 targets) gets output 0. */
XGD_FIXTURE(Mrt_OrderedTargets)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests MRT order, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(rs && fx);
    const xgd_color clear = { 12, 34, 56, 78 };
    const float tri[6] = { 1.3f, 1.2f, 14.6f, 3.7f, 5.1f, 13.4f };

    /* no target: the back buffer is slot 0 */
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(fx_tri(dev, W, H, tri, 0, WHITE));
    CHECK_OK(fx_rect(dev, W, H, 10, 11, 15, 15, 0, WHITE));
    uint8_t *e = fx_image(W, H, clear);
    REQUIRE(e);
    fx_raster_tri(e, W, H, tri, SLOT_COLORS[0]);
    fx_fill(e, W, H, 10, 11, 15, 15, SLOT_COLORS[0]);
    fx_expect_back_buffer(t, dev, "back_buffer", e, W, H, 0);
    free(e);

    for (int n = 1; n <= 4; n++) {
        if (n > info.max_render_targets) break;
        xgd_texture *tg[4] = { NULL, NULL, NULL, NULL }, *slots[4];
        for (int i = 0; i < n; i++) {
            tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
            REQUIRE(tg[i]);
        }
        for (int i = 0; i < n; i++) slots[i] = tg[n - 1 - i];
        CHECK_OK(bind_set(dev, slots, n));
        expect_bound(t, dev, slots, n);
        CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
        CHECK_OK(fx_tri(dev, W, H, tri, 0, WHITE));
        CHECK_OK(fx_rect(dev, W, H, 10, 11, 15, 15, 0, WHITE));
        CHECK_OK(xgd_set_render_target(dev, NULL));
        for (int i = 0; i < n; i++) {
            e = fx_image(W, H, clear);
            REQUIRE(e);
            fx_raster_tri(e, W, H, tri, SLOT_COLORS[i]);
            fx_fill(e, W, H, 10, 11, 15, 15, SLOT_COLORS[i]);
            char label[48];
            snprintf(label, sizeof label, "n%d_slot%d", n, i);
            fx_expect_texture(t, slots[i], XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, W, H, 0);
            free(e);
        }
        for (int i = 0; i < n; i++) xgd_texture_destroy(tg[i]);
    }
    if (info.max_render_targets < 4)
        xgdt_not_supported(t, "renderer has fewer than four simultaneous render targets");
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    xgd_device_destroy(dev);
}

/* ---- colour-write masks and blending per target --------------------------------------------- */

static uint8_t masked_channel(unsigned mask, unsigned bit, uint8_t src, uint8_t dst)
{
    return (mask & bit) ? src : dst;
}

/* Each target has its own ColorWriteChannels (XNA ColorWriteChannels..3): one output must not
 * leak another slot's mask. */
XGD_FIXTURE(Mrt_WriteMasks)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 4)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *tg[4];
    for (int i = 0; i < 4; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
        REQUIRE(tg[i]);
    }
    const unsigned masks[4] = { XGD_COLOR_WRITE_RED | XGD_COLOR_WRITE_ALPHA,
                                XGD_COLOR_WRITE_GREEN | XGD_COLOR_WRITE_BLUE, XGD_COLOR_WRITE_ALL,
                                XGD_COLOR_WRITE_NONE };
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    for (int i = 0; i < 4; i++) bd.target[i].color_write_channels = masks[i];
    xgd_blend_state *bs = fx_blend(t, dev, &bd);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(bs && fx);
    const xgd_color clear = { 30, 60, 90, 120 };
    CHECK_OK(bind_set(dev, tg, 4));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(xgd_set_blend_state(dev, bs));
    CHECK_OK(fx_rect(dev, W, H, 2, 3, 14, 11, 0, WHITE));
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    /* with the masks gone every channel of every target is written again */
    CHECK_OK(fx_rect(dev, W, H, 0, 13, 5, 16, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int i = 0; i < 4; i++) {
        unsigned m = masks[i];
        const xgd_color s = SLOT_COLORS[i];
        xgd_color in = { masked_channel(m, XGD_COLOR_WRITE_RED, s.r, clear.r),
                         masked_channel(m, XGD_COLOR_WRITE_GREEN, s.g, clear.g),
                         masked_channel(m, XGD_COLOR_WRITE_BLUE, s.b, clear.b),
                         masked_channel(m, XGD_COLOR_WRITE_ALPHA, s.a, clear.a) };
        uint8_t *e = fx_image(W, H, clear);
        REQUIRE(e);
        fx_fill(e, W, H, 2, 3, 14, 11, in);
        fx_fill(e, W, H, 0, 13, 5, 16, s);
        char label[32];
        snprintf(label, sizeof label, "slot%d", i);
        fx_expect_texture(t, tg[i], XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, W, H, 0);
        free(e);
    }
    xgd_effect_destroy(fx);
    xgd_blend_state_destroy(bs);
    for (int i = 0; i < 4; i++) xgd_texture_destroy(tg[i]);
    xgd_device_destroy(dev);
}

/* The factors this fixture uses (XNA Blend), from the source colour. */
static double blend_factor(xgd_blend f, int ch, const double *s)
{
    switch (f) {
    case XGD_BLEND_ZERO: return 0.0;
    case XGD_BLEND_SOURCE_COLOR: return s[ch];
    case XGD_BLEND_SOURCE_ALPHA: return s[3];
    case XGD_BLEND_INVERSE_SOURCE_ALPHA: return 1.0 - s[3];
    default: return 1.0;
    }
}

/* dst * dst_factor + src * src_factor with Add, clamped by the 8-bit store. */
static xgd_color blend_add(xgd_color src, xgd_color dst, const xgd_target_blend_desc *b)
{
    const double s[4] = { src.r / 255.0, src.g / 255.0, src.b / 255.0, src.a / 255.0 };
    const double d[4] = { dst.r / 255.0, dst.g / 255.0, dst.b / 255.0, dst.a / 255.0 };
    uint8_t o[4];
    for (int ch = 0; ch < 4; ch++) {
        xgd_blend fs = ch < 3 ? b->color_source_blend : b->alpha_source_blend;
        xgd_blend fd = ch < 3 ? b->color_destination_blend : b->alpha_destination_blend;
        o[ch] = fx_q8(s[ch] * blend_factor(fs, ch, s) + d[ch] * blend_factor(fd, ch, s));
    }
    return fx_rgba(o[0], o[1], o[2], o[3]);
}

static xgd_target_blend_desc blend_desc(xgd_blend cs, xgd_blend cd, xgd_blend as, xgd_blend ad)
{
    xgd_target_blend_desc b = XGD_TARGET_BLEND_DESC_DEFAULT;
    b.color_blend_function = b.alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
    b.color_source_blend = cs;
    b.color_destination_blend = cd;
    b.alpha_source_blend = as;
    b.alpha_destination_blend = ad;
    return b;
}

/* Without IndependentBlend every target blends with target 0's equation (XNA's model: only the
 * write masks are per target); with it, each target uses its own entry. */
XGD_FIXTURE(Mrt_BlendPerTarget)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 4)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *tg[4];
    for (int i = 0; i < 4; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
        REQUIRE(tg[i]);
    }
    const xgd_target_blend_desc additive = blend_desc(XGD_BLEND_ONE, XGD_BLEND_ONE, XGD_BLEND_ONE, XGD_BLEND_ONE);
    const xgd_target_blend_desc per[4] = {
        additive,
        blend_desc(XGD_BLEND_SOURCE_ALPHA, XGD_BLEND_INVERSE_SOURCE_ALPHA, XGD_BLEND_SOURCE_ALPHA,
                   XGD_BLEND_INVERSE_SOURCE_ALPHA),
        blend_desc(XGD_BLEND_ZERO, XGD_BLEND_SOURCE_COLOR, XGD_BLEND_ONE, XGD_BLEND_ZERO),
        blend_desc(XGD_BLEND_ONE, XGD_BLEND_ZERO, XGD_BLEND_ONE, XGD_BLEND_ZERO),
    };
    xgd_blend_state_desc shared = XGD_BLEND_STATE_DESC_DEFAULT;
    xgd_blend_state_desc indep = XGD_BLEND_STATE_DESC_DEFAULT;
    for (int i = 0; i < 4; i++) {
        /* targets 1..3 carry blends that must be ignored without independent_blend */
        shared.target[i] = i == 0 ? additive : per[i];
        indep.target[i] = per[i];
    }
    indep.independent_blend = true;
    xgd_blend_state *bs_shared = fx_blend(t, dev, &shared), *bs_indep = fx_blend(t, dev, &indep);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(bs_shared && bs_indep && fx);

    const xgd_color clear = { 100, 80, 60, 128 };
    CHECK_OK(bind_set(dev, tg, 4));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(xgd_set_blend_state(dev, bs_shared));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 16, 0, WHITE));
    CHECK_OK(xgd_set_blend_state(dev, bs_indep));
    CHECK_OK(fx_rect(dev, W, H, 8, 4, 16, 12, 0, WHITE));
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int i = 0; i < 4; i++) {
        uint8_t *e = fx_image(W, H, clear);
        REQUIRE(e);
        fx_fill(e, W, H, 0, 0, 8, 16, blend_add(SLOT_COLORS[i], clear, &additive));
        fx_fill(e, W, H, 8, 4, 16, 12, blend_add(SLOT_COLORS[i], clear, &per[i]));
        char label[32];
        snprintf(label, sizeof label, "slot%d", i);
        fx_expect_texture(t, tg[i], XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, W, H, 1);
        free(e);
    }
    xgd_effect_destroy(fx);
    xgd_blend_state_destroy(bs_indep);
    xgd_blend_state_destroy(bs_shared);
    for (int i = 0; i < 4; i++) xgd_texture_destroy(tg[i]);
    xgd_device_destroy(dev);
}

/* ---- first-target depth ownership ------------------------------------------------------------ */

/*
 * The depth buffer of the set is target 0's (spec 000; XNA binds the first target's depth
 * buffer). A has Depth24, B none.
 *   [A, B]: near quad (z 0.25) on the left, then a far quad (z 0.75) everywhere: both targets
 *           keep the near colours on the left (B is depth-tested through A's buffer).
 *   [B, A]: target 0 has no depth: a depth clear is refused and a quad at z 0.9 covers both
 *           targets everywhere (tested against A's buffer it would draw nothing), without
 *           writing A's depth.
 *   [A, B]: a quad at z 0.5 passes only on the right (A still holds 0.25 | 0.75; had the
 *           previous pass written 0.9 it would pass everywhere).
 */
XGD_FIXTURE(Mrt_FirstTargetDepth)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    const xgd_color near_c[4] = { { 200, 0, 0, 255 }, { 0, 200, 0, 255 }, WHITE, WHITE };
    const xgd_color far_c[4] = { { 0, 0, 200, 255 }, { 200, 200, 0, 255 }, WHITE, WHITE };
    const xgd_color g_c[4] = { { 10, 120, 130, 255 }, { 140, 20, 150, 255 }, WHITE, WHITE };
    const xgd_color h_c[4] = { { 250, 150, 50, 255 }, { 60, 70, 250, 255 }, WHITE, WHITE };
    xgd_effect *fx = fm_mrt_effect(t, dev, near_c);
    REQUIRE(a && b && fx);
    const xgd_color clear = { 40, 40, 40, 255 };

    CHECK_OK(bind2(dev, a, b));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 12, 0.25f, WHITE));
    CHECK_OK(fm_mrt_colors(fx, far_c));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, 16, 0.75f, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint8_t *ea = fx_image(W, H, far_c[0]), *eb = fx_image(W, H, far_c[1]);
    REQUIRE(ea && eb);
    fx_fill(ea, W, H, 0, 0, 8, 12, near_c[0]);
    fx_fill(eb, W, H, 0, 0, 8, 12, near_c[1]);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "AB_target_a", ea, W, H, 0);
    fx_expect_texture(t, b, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "AB_target_b", eb, W, H, 0);

    CHECK_OK(bind2(dev, b, a));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, fx_vec4(clear), 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(fm_mrt_colors(fx, g_c));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, 16, 0.9f, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    fx_fill(eb, W, H, 0, 0, W, H, g_c[0]);
    fx_fill(ea, W, H, 0, 0, W, H, g_c[1]);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "BA_target_a", ea, W, H, 0);
    fx_expect_texture(t, b, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "BA_target_b", eb, W, H, 0);

    CHECK_OK(bind2(dev, a, b));
    CHECK_OK(fm_mrt_colors(fx, h_c));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, 16, 0.5f, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    /* passes where A holds 0.75 (right half, and the left rows below the near quad) */
    fx_fill(ea, W, H, 8, 0, 16, 16, h_c[0]);
    fx_fill(ea, W, H, 0, 12, 8, 16, h_c[0]);
    fx_fill(eb, W, H, 8, 0, 16, 16, h_c[1]);
    fx_fill(eb, W, H, 0, 12, 8, 16, h_c[1]);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "AB2_target_a", ea, W, H, 0);
    fx_expect_texture(t, b, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "AB2_target_b", eb, W, H, 0);
    free(ea);
    free(eb);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- MSAA ------------------------------------------------------------------------------------- */

static const float TRI_A[6] = { 1.4f, 1.1f, 14.9f, 5.3f, 4.2f, 15.6f };
static const float TRI_B[6] = { 15.2f, 0.6f, 12.1f, 15.3f, 0.9f, 9.7f };
static const float TRI_C[6] = { 0.5f, 14.2f, 8.3f, 0.4f, 15.8f, 12.6f };

/* A true multisampled set: every target's resolved image shows its own edge-antialiased
 * output, so a target left unresolved, or resolved from another slot, differs. */
XGD_FIXTURE(Mrt_MsaaResolve)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests MRT resolve, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    if (fx_max_msaa(dev) < 4) {
        xgdt_not_supported(t, "renderer has no 4x multisampling");
        xgd_device_destroy(dev);
        return;
    }
    int n = info.max_render_targets < 4 ? info.max_render_targets : 4;
    xgd_texture *tg[4];
    fm_model m[4];
    for (int i = 0; i < n; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
        REQUIRE(tg[i]);
        REQUIRE(fm_samples(tg[i]) == 4);
    }
    const xgd_color clear = { 20, 140, 220, 255 };
    const xgd_color second[4] = { { 255, 255, 255, 255 }, { 0, 0, 0, 255 }, { 255, 0, 255, 255 }, { 0, 255, 0, 255 } };
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(rs && fx);
    CHECK_OK(bind_set(dev, tg, n));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(fx_tri(dev, W, H, TRI_A, 0, WHITE));
    CHECK_OK(fm_mrt_colors(fx, second));
    CHECK_OK(fx_tri(dev, W, H, TRI_B, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int i = 0; i < n; i++) {
        REQUIRE(fm_init(&m[i], W, H, 4, clear));
        fm_tri(&m[i], TRI_A, SLOT_COLORS[i], 15);
        fm_tri(&m[i], TRI_B, second[i], 15);
        char label[32];
        snprintf(label, sizeof label, "slot%d", i);
        fm_expect(t, &m[i], tg[i], XGD_CUBE_MAP_FACE_POSITIVE_X, 1, label);
        fm_free(&m[i]);
    }
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    for (int i = 0; i < n; i++) xgd_texture_destroy(tg[i]);
    xgd_device_destroy(dev);
}

/* ---- set replacement ----------------------------------------------------------------------- */

/* A set replaced by one that reorders, adds and drops targets: each draw goes to the slots of
 * the set bound at that moment, and the public binding follows. */
XGD_FIXTURE(Mrt_SetReplacement)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 3)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *c = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    const xgd_color first[4] = { { 220, 30, 30, 255 }, { 30, 220, 30, 255 }, WHITE, WHITE };
    const xgd_color second[4] = { { 30, 30, 220, 255 }, { 220, 220, 30, 255 }, { 30, 220, 220, 255 }, WHITE };
    const xgd_color third[4] = { { 220, 30, 220, 255 }, WHITE, WHITE, WHITE };
    xgd_effect *fx = fm_mrt_effect(t, dev, first);
    REQUIRE(a && b && c && fx);
    const xgd_color k1 = { 50, 60, 70, 255 }, k2 = { 90, 10, 40, 255 };

    CHECK_OK(xgd_set_render_target(dev, c));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(k2), 1.0f, 0));
    xgd_texture *set1[2] = { a, b }, *set2[3] = { c, b, a };
    CHECK_OK(bind_set(dev, set1, 2));
    expect_bound(t, dev, set1, 2);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(k1), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 6, 16, 0, WHITE));
    CHECK_OK(bind_set(dev, set2, 3));
    expect_bound(t, dev, set2, 3);
    CHECK_OK(fm_mrt_colors(fx, second));
    CHECK_OK(fx_rect(dev, W, H, 10, 0, 16, 16, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, b));
    expect_bound(t, dev, &b, 1);
    CHECK_OK(fm_mrt_colors(fx, third));
    CHECK_OK(fx_rect(dev, W, H, 0, 6, 16, 9, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    expect_bound(t, dev, NULL, 0);

    uint8_t *ea = fx_image(W, H, k1), *eb = fx_image(W, H, k1), *ec = fx_image(W, H, k2);
    REQUIRE(ea && eb && ec);
    fx_fill(ea, W, H, 0, 0, 6, 16, first[0]);
    fx_fill(eb, W, H, 0, 0, 6, 16, first[1]);
    fx_fill(ec, W, H, 10, 0, 16, 16, second[0]);
    fx_fill(eb, W, H, 10, 0, 16, 16, second[1]);
    fx_fill(ea, W, H, 10, 0, 16, 16, second[2]);
    fx_fill(eb, W, H, 0, 6, 16, 9, third[0]);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target_a", ea, W, H, 0);
    fx_expect_texture(t, b, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target_b", eb, W, H, 0);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target_c", ec, W, H, 0);
    free(ea);
    free(eb);
    free(ec);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(c);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- producer to consumer -------------------------------------------------------------------- */

/* Two targets drawn as a set (multisampled where the renderer can: an unresolved target then
 * samples as its clear colour), unbound, and sampled at once by a later draw into the back
 * buffer: left half shows target 0, right half target 1, texel for texel (point sampling). */
XGD_FIXTURE(Mrt_SampleAfterUnbind)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests MRT sampling, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 2 * W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    int ms = fx_max_msaa(dev) >= 4 ? 4 : 0;
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, ms, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, ms, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_effect *mrt = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(a && b && mrt);
    const xgd_color clear = { 70, 70, 70, 255 };
    const xgd_color out[4] = { { 240, 20, 20, 255 }, { 20, 20, 240, 255 }, WHITE, WHITE };
    CHECK_OK(fm_mrt_colors(mrt, out));
    CHECK_OK(bind2(dev, a, b));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    /* pixel-aligned shapes: every sample of a pixel agrees, so the resolve is exact */
    CHECK_OK(fx_rect(dev, W, H, 2, 1, 9, 6, 0, WHITE));
    CHECK_OK(fx_rect(dev, W, H, 5, 9, 15, 14, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));

    xgd_effect *fx = fx_texture_effect(t, dev, a);
    REQUIRE(fx);
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_tex_rect(dev, 2 * W, H, 0, 0, W, H, 0, 0, 1, 1, WHITE));
    CHECK_OK(xgd_basic_effect_set_texture(fx, b));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(fx_tex_rect(dev, 2 * W, H, W, 0, 2 * W, H, 0, 0, 1, 1, WHITE));

    uint8_t *e = fx_image(2 * W, H, clear);
    REQUIRE(e);
    for (int k = 0; k < 2; k++) {
        fx_fill(e, 2 * W, H, k * W + 2, 1, k * W + 9, 6, out[k]);
        fx_fill(e, 2 * W, H, k * W + 5, 9, k * W + 15, 14, out[k]);
    }
    fx_expect_back_buffer(t, dev, "consumer", e, 2 * W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_effect_destroy(mrt);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- transitions ---------------------------------------------------------------------------- */

/*
 * MRT -> back buffer, MRT -> single target, MRT -> another MRT set, then that set -> back
 * buffer. Targets are multisampled (where the renderer can) and mipmapped, so a transition that
 * skipped any outgoing target shows as a stale resolved image or a stale level 1; each step
 * draws new content, so the previous step's finalisation cannot stand in.
 */
XGD_FIXTURE(Mrt_Transitions)
{
    enum { W = 16, H = 16, N = 3 };
    /* D3D10 centres: tests MRT transitions, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, N)) {
        xgd_device_destroy(dev);
        return;
    }
    int ms = fx_max_msaa(dev) >= 4 ? 4 : 0;
    xgd_texture *tg[N + 3];
    for (int i = 0; i < N + 3; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, ms, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
        REQUIRE(tg[i]);
    }
    int n = fm_samples(tg[0]);
    xgd_texture_info info;
    REQUIRE_OK(xgd_texture_get_info(tg[0], &info));
    REQUIRE(info.level_count == 5);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    REQUIRE(rs && fx);
    const float *tris[3] = { TRI_A, TRI_B, TRI_C };
    const xgd_color clears[3] = { { 200, 30, 30, 255 }, { 30, 200, 30, 255 }, { 30, 30, 200, 255 } };
    const xgd_color ink[3][4] = {
        { { 255, 255, 255, 255 }, { 255, 0, 255, 255 }, { 0, 255, 255, 255 }, WHITE },
        { { 255, 255, 0, 255 }, { 0, 0, 0, 255 }, { 128, 64, 255, 255 }, WHITE },
        { { 10, 10, 10, 255 }, { 250, 128, 0, 255 }, { 255, 255, 255, 255 }, WHITE },
    };
    const char *step[3] = { "to_back_buffer", "to_single", "to_mrt" };
    fm_model m[N];
    for (int i = 0; i < N; i++) REQUIRE(fm_init(&m[i], W, H, n, BLACK));
    for (int k = 0; k < 3; k++) {
        CHECK_OK(bind_set(dev, tg, N));
        CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clears[k]), 1.0f, 0));
        CHECK_OK(fm_mrt_colors(fx, ink[k]));
        CHECK_OK(fx_tri(dev, W, H, tris[k], 0, WHITE));
        CHECK_OK(fx_rect(dev, W, H, (float)(2 * k), 12, (float)(2 * k + 3), 16, 0, WHITE));
        for (int i = 0; i < N; i++) {
            fm_fill(&m[i], clears[k]);
            fm_tri(&m[i], tris[k], ink[k][i], 15);
            fm_rect(&m[i], (float)(2 * k), 12, (float)(2 * k + 3), 16, ink[k][i], 15);
        }
        if (k == 0) CHECK_OK(xgd_set_render_target(dev, NULL));
        if (k == 1) CHECK_OK(xgd_set_render_target(dev, tg[N]));
        if (k == 2) CHECK_OK(bind2(dev, tg[N + 1], tg[N + 2]));
        /* the outgoing targets are no longer bound, so they can be read while the new binding
           is active, and must already show the finalised images */
        for (int i = 0; i < N; i++) {
            char label[64];
            snprintf(label, sizeof label, "%s_slot%d", step[k], i);
            fm_expect(t, &m[i], tg[i], XGD_CUBE_MAP_FACE_POSITIVE_X, 2, label);
        }
    }
    /* the second set is finalised on its way back to the back buffer */
    fm_model m2[2];
    for (int i = 0; i < 2; i++) REQUIRE(fm_init(&m2[i], W, H, n, ink[0][i]));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(ink[0][0]), 1.0f, 0));
    for (int i = 0; i < 2; i++) fm_fill(&m2[i], ink[0][0]);
    CHECK_OK(fm_mrt_colors(fx, ink[1]));
    CHECK_OK(fx_tri(dev, W, H, TRI_A, 0, WHITE));
    for (int i = 0; i < 2; i++) fm_tri(&m2[i], TRI_A, ink[1][i], 15);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    fm_expect(t, &m2[0], tg[N + 1], XGD_CUBE_MAP_FACE_POSITIVE_X, 2, "second_set_slot0");
    fm_expect(t, &m2[1], tg[N + 2], XGD_CUBE_MAP_FACE_POSITIVE_X, 2, "second_set_slot1");
    for (int i = 0; i < 2; i++) fm_free(&m2[i]);
    for (int i = 0; i < N; i++) fm_free(&m[i]);
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    for (int i = 0; i < N + 3; i++) xgd_texture_destroy(tg[i]);
    xgd_device_destroy(dev);
}

/* ---- the MrtEffect (EXT) itself ------------------------------------------------------------- */

/* Its parameters: the matrix transforms positions (NULL restores the identity), bad input is
 * refused without changing the effect, and a declaration without Color0 cannot draw. */
XGD_FIXTURE(MrtEffect_Contract)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fm_mrt_effect(t, dev, SLOT_COLORS);
    xgd_effect *basic = fx_effect(t, dev);
    REQUIRE(fx && basic);
    CHECK_OK(xgd_effect_apply(fx));
    const xgd_vector4 bad[4] = { { 1, 1, 1, 1 }, { 1, NAN, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 } };
    CHECK_RESULT(xgd_mrt_effect_set_colors(fx, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_mrt_effect_set_colors(fx, bad), XGD_ERROR_INVALID_ARGUMENT);
    const xgd_vector4 good[4] = { { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 } };
    CHECK_RESULT(xgd_mrt_effect_set_colors(basic, good), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_mrt_effect_set_matrix(basic, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_basic_effect_set_world(fx, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_matrix nan_m = xgd_matrix_identity();
    nan_m.m41 = NAN;
    CHECK_RESULT(xgd_mrt_effect_set_matrix(fx, &nan_m), XGD_ERROR_INVALID_ARGUMENT);

    /* a translation of half the clip width moves the rectangle by W / 4 pixels */
    xgd_matrix shift = xgd_matrix_create_translation(0.5f, 0.0f, 0.0f);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_mrt_effect_set_matrix(fx, &shift));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 4, 4, 0, WHITE));
    CHECK_OK(xgd_mrt_effect_set_matrix(fx, NULL));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(fx_rect(dev, W, H, 0, 12, 4, 16, 0, WHITE));
    /* vertex colour times colors[0] (the refused calls above changed nothing) */
    const xgd_color half = { 128, 128, 128, 255 };
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 12, 12, 0, half));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 4, 0, 8, 4, SLOT_COLORS[0]);
    fx_fill(e, W, H, 0, 12, 4, 16, SLOT_COLORS[0]);
    const xgd_color c0 = SLOT_COLORS[0];
    fx_fill(e, W, H, 8, 8, 12, 12,
            fx_rgba(fx_q8(128.0 / 255 * c0.r / 255), fx_q8(128.0 / 255 * c0.g / 255),
                    fx_q8(128.0 / 255 * c0.b / 255), c0.a));
    fx_expect_back_buffer(t, dev, "matrix", e, W, H, 1);
    free(e);

    /* Position0 and Color0 are the program's inputs */
    xgd_vertex_position_texture v[3];
    memset(v, 0, sizeof v);
    v[1].position.x = 1.0f;
    v[2].position.y = -1.0f;
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_TEXTURE)),
                 XGD_ERROR_INVALID_OPERATION);
    xgd_effect_destroy(basic);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
