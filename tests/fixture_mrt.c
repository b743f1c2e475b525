/*
 * fixture_mrt.c - multiple render targets with what the stock programs allow: clears write
 * every target, draws write target 0 only (stock shaders write the first target, spec 000),
 * per-target colour write masks, MSAA resolve of every target of a set, and all three
 * transitions finalise every outgoing target (MRT to back buffer, to a single target, to
 * another MRT set). Every target's sampleable image is read.
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

/* Per-sample model for 1 (pixel centre) or 4 (standard pattern) samples. */
typedef struct mrt_model {
    int w, h, n;
    xgd_color *s;
} mrt_model;

static bool model_init(mrt_model *m, int w, int h, int n)
{
    m->w = w;
    m->h = h;
    m->n = n;
    m->s = malloc(sizeof *m->s * (size_t)w * (size_t)h * (size_t)n);
    return m->s != NULL;
}

static void model_fill(mrt_model *m, xgd_color c)
{
    for (int i = 0; i < m->w * m->h * m->n; i++) m->s[i] = c;
}

static void model_tri(mrt_model *m, const float xy[6], xgd_color c)
{
    static const int pos4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    for (int py = 0; py < m->h; py++)
        for (int px = 0; px < m->w; px++)
            for (int s = 0; s < m->n; s++) {
                int ox = m->n == 4 ? pos4[s][0] * 16 : 0, oy = m->n == 4 ? pos4[s][1] * 16 : 0;
                if (fx_covers(x, y, (int64_t)px * 256 + 128 + ox, (int64_t)py * 256 + 128 + oy))
                    m->s[(py * m->w + px) * m->n + s] = c;
            }
}

static void model_expect(xgdt_ctx *t, const mrt_model *m, xgd_texture *rt, const char *label)
{
    uint8_t *e = fx_image(m->w, m->h, BLACK);
    if (!e) return;
    for (int i = 0; i < m->w * m->h; i++) {
        double acc[4] = { 0, 0, 0, 0 };
        for (int s = 0; s < m->n; s++) {
            xgd_color c = m->s[i * m->n + s];
            acc[0] += c.r; acc[1] += c.g; acc[2] += c.b; acc[3] += c.a;
        }
        double k = 255.0 * m->n;
        fx_put(e, m->w, i % m->w, i / m->w, fx_rgba(fx_q8(acc[0] / k), fx_q8(acc[1] / k), fx_q8(acc[2] / k), fx_q8(acc[3] / k)));
    }
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, m->w, m->h, 1);
    free(e);
}

static bool need_mrt(xgdt_ctx *t, xgd_device *dev, int count)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) == XGD_OK && info.max_render_targets >= count) return true;
    xgdt_not_supported(t, "renderer has too few simultaneous render targets");
    return false;
}

static xgd_result bind2(xgd_device *dev, xgd_texture *a, xgd_texture *b)
{
    xgd_render_target_binding set[2] = { { a, XGD_CUBE_MAP_FACE_POSITIVE_X }, { b, XGD_CUBE_MAP_FACE_POSITIVE_X } };
    return xgd_set_render_targets(dev, set, 2);
}

XGD_FIXTURE(Mrt_Basics)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!need_mrt(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(a && b && fx);
    xgd_blend_state_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.target[0].color_write_channels = XGD_COLOR_WRITE_GREEN | XGD_COLOR_WRITE_ALPHA;
    bd.target[1].color_write_channels = XGD_COLOR_WRITE_RED;
    xgd_blend_state *masked = fx_blend(t, dev, &bd);
    REQUIRE(masked);

    const xgd_color c = { 30, 60, 90, 120 }, red = { 255, 0, 0, 255 }, white = { 255, 255, 255, 255 };
    CHECK_OK(bind2(dev, a, b));
    int count = 0;
    xgd_render_target_binding got[4];
    CHECK_OK(xgd_get_render_targets(dev, got, 4, &count));
    CHECK_INT(count, 2);
    CHECK(got[0].target == a && got[1].target == b);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(c), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 6, 4, 0, red));
    CHECK_OK(xgd_set_blend_state(dev, masked));
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 16, 16, 0, white));
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    CHECK_OK(xgd_set_render_target(dev, NULL));

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

/* Both targets of a 4x set are resolved when the set is left: target 1 holds only the clear
 * colour, so an unresolved target 1 reads as its initial contents. */
XGD_FIXTURE(Mrt_MsaaResolve)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!need_mrt(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    if (fx_max_msaa(dev) < 4) {
        xgdt_not_supported(t, "renderer has no 4x multisampling");
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *b = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    mrt_model ma, mb;
    REQUIRE(a && b && fx && rs && model_init(&ma, W, H, 4) && model_init(&mb, W, H, 4));
    const xgd_color c = { 20, 140, 220, 255 }, y = { 255, 230, 0, 255 };
    CHECK_OK(bind2(dev, a, b));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(c), 1.0f, 0));
    model_fill(&ma, c);
    model_fill(&mb, c);
    const float tri[6] = { 1.4f, 1.1f, 14.9f, 5.3f, 4.2f, 15.6f };
    CHECK_OK(fx_tri(dev, W, H, tri, 0, y));
    model_tri(&ma, tri, y);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    model_expect(t, &ma, a, "target0");
    model_expect(t, &mb, b, "target1");
    free(ma.s);
    free(mb.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(b);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* MRT -> back buffer, MRT -> single target, MRT -> another MRT set: each finalises both
 * outgoing targets (multisampled when the renderer can, so a skipped resolve is visible). */
XGD_FIXTURE(Mrt_Transitions)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!need_mrt(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    int n = fx_max_msaa(dev) >= 4 ? 4 : 1;
    xgd_texture *tg[5];
    for (int i = 0; i < 5; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, n == 4 ? 4 : 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
        REQUIRE(tg[i]);
    }
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    mrt_model m[5];
    for (int i = 0; i < 5; i++) REQUIRE(model_init(&m[i], W, H, n));
    REQUIRE(fx && rs);
    const float tris[3][6] = {
        { 1.4f, 1.1f, 14.9f, 5.3f, 4.2f, 15.6f },
        { 15.2f, 0.6f, 12.1f, 15.3f, 0.9f, 9.7f },
        { 0.5f, 14.2f, 8.3f, 0.4f, 15.8f, 12.6f },
    };
    const xgd_color clears[3] = { { 200, 30, 30, 255 }, { 30, 200, 30, 255 }, { 30, 30, 200, 255 } };
    const xgd_color ink[3] = { { 255, 255, 255, 255 }, { 255, 0, 255, 255 }, { 0, 255, 255, 255 } };
    const char *step[3] = { "to_back_buffer", "to_single", "to_mrt" };
    for (int k = 0; k < 3; k++) {
        CHECK_OK(bind2(dev, tg[0], tg[1]));
        CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clears[k]), 1.0f, 0));
        model_fill(&m[0], clears[k]);
        model_fill(&m[1], clears[k]);
        CHECK_OK(fx_tri(dev, W, H, tris[k], 0, ink[k]));
        model_tri(&m[0], tris[k], ink[k]);
        if (k == 0) CHECK_OK(xgd_set_render_target(dev, NULL));
        if (k == 1) CHECK_OK(xgd_set_render_target(dev, tg[2]));
        if (k == 2) CHECK_OK(bind2(dev, tg[3], tg[4]));
        char label[48];
        snprintf(label, sizeof label, "%s_target0", step[k]);
        model_expect(t, &m[0], tg[0], label);
        snprintf(label, sizeof label, "%s_target1", step[k]);
        model_expect(t, &m[1], tg[1], label);
    }
    /* the second set is finalised too, on the way back to the back buffer */
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(ink[0]), 1.0f, 0));
    model_fill(&m[3], ink[0]);
    model_fill(&m[4], ink[0]);
    CHECK_OK(fx_tri(dev, W, H, tris[0], 0, clears[2]));
    model_tri(&m[3], tris[0], clears[2]);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    model_expect(t, &m[3], tg[3], "second_set_target0");
    model_expect(t, &m[4], tg[4], "second_set_target1");
    for (int i = 0; i < 5; i++) {
        free(m[i].s);
        xgd_texture_destroy(tg[i]);
    }
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
