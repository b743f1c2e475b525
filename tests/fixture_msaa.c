/*
 * fixture_msaa.c - multisampling with the standard 4x pattern (positions (-2,-6) (6,-2) (-6,2)
 * (2,6) in 1/16 pixel): coverage per sample, one colour per pixel, resolve = average of the
 * samples; and the render-target readback rules (the resolved image, never stale data).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

/* Expected images are modelled per sample (4 colours per pixel), then resolved as the rule says:
 * the average of the samples in float, stored as 8 bits. */
typedef struct ms_model {
    int w, h;
    xgd_color *s;
} ms_model;

static bool ms_init(ms_model *m, int w, int h, xgd_color c)
{
    m->w = w;
    m->h = h;
    m->s = malloc(sizeof *m->s * (size_t)w * (size_t)h * 4);
    if (!m->s) return false;
    for (int i = 0; i < w * h * 4; i++) m->s[i] = c;
    return true;
}

static bool ms_covers(const float xy[6], int px, int py, int s)
{
    static const int pos[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    return fx_covers(x, y, (int64_t)px * 256 + 128 + pos[s][0] * 16,
                     (int64_t)py * 256 + 128 + pos[s][1] * 16);
}

static void ms_tri(ms_model *m, const float xy[6], xgd_color c)
{
    for (int y = 0; y < m->h; y++)
        for (int x = 0; x < m->w; x++)
            for (int s = 0; s < 4; s++)
                if (ms_covers(xy, x, y, s)) m->s[(y * m->w + x) * 4 + s] = c;
}

static void ms_rect(ms_model *m, int x0, int y0, int x1, int y1, xgd_color c)
{
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int s = 0; s < 4; s++) m->s[(y * m->w + x) * 4 + s] = c;
}

static uint8_t *ms_resolve(const ms_model *m)
{
    uint8_t *img = fx_image(m->w, m->h, BLACK);
    if (!img) return NULL;
    for (int i = 0; i < m->w * m->h; i++) {
        double acc[4] = { 0, 0, 0, 0 };
        for (int s = 0; s < 4; s++) {
            xgd_color c = m->s[i * 4 + s];
            acc[0] += c.r; acc[1] += c.g; acc[2] += c.b; acc[3] += c.a;
        }
        fx_put(img, m->w, i % m->w, i / m->w,
               fx_rgba(fx_q8(acc[0] / 1020.0), fx_q8(acc[1] / 1020.0), fx_q8(acc[2] / 1020.0),
                       fx_q8(acc[3] / 1020.0)));
    }
    return img;
}

static bool ms_expect(xgdt_ctx *t, const ms_model *m, xgd_texture *rt, xgd_device *dev,
                      const char *label)
{
    uint8_t *e = ms_resolve(m);
    if (!e) return false;
    bool ok = rt ? fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, m->w, m->h, 1)
                 : fx_expect_back_buffer(t, dev, label, e, m->w, m->h, 1);
    free(e);
    return ok;
}

static bool need_msaa4(xgdt_ctx *t, xgd_device *dev)
{
    if (fx_max_msaa(dev) >= 4) return true;
    xgdt_not_supported(t, "renderer has no 4x multisampling");
    return false;
}

/* Edges at shallow and steep slopes through pixels give every coverage count 0..4. */
static const float msaa_tris[3][6] = {
    { 1.3f, 2.1f, 30.7f, 6.6f, 9.2f, 29.4f },
    { 18.05f, 14.9f, 31.4f, 17.3f, 26.8f, 31.2f },
    { 2.0f, 30.0f, 6.0f, 26.0f, 10.4f, 31.6f },
};

/* The standard 4x positions around each pixel's centre, under both centre conventions. */
static void msaa_edge_case(xgdt_ctx *t, xgd_pixel_center centers, const char *label)
{
    enum { W = 32, H = 32 };
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, centers);
    REQUIRE(dev);
    if (!need_msaa4(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(rt);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.multisample_count, 4);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    ms_model m;
    REQUIRE(fx && rs && ms_init(&m, W, H, BLACK));
    CHECK_OK(xgd_set_render_target(dev, rt)); /* DiscardContents: opaque black */
    const xgd_color colors[3] = { { 255, 255, 255, 255 }, { 255, 64, 0, 255 }, { 0, 200, 255, 128 } };
    int seen[5] = { 0, 0, 0, 0, 0 };
    for (int i = 0; i < 3; i++) {
        CHECK_OK(fx_tri(dev, W, H, msaa_tris[i], 0.0f, colors[i]));
        float ref[6];
        fx_centered_tri(msaa_tris[i], centers, ref);
        ms_tri(&m, ref, colors[i]);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) seen[fx_covered_samples4(ref, x, y)]++;
    }
    for (int k = 1; k < 4; k++) CHECK_MSG(seen[k] > 0, "scene has no pixel with %d of 4 samples", k);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    ms_expect(t, &m, rt, dev, label);
    free(m.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(Msaa_EdgeCoverage)
{
    msaa_edge_case(t, XGD_PIXEL_CENTER_D3D10, "coverage");
    if (!t->not_supported) msaa_edge_case(t, XGD_PIXEL_CENTER_XNA, "coverage_xna");
}

/* The multisampled back buffer is resolved for readback. */
XGD_FIXTURE(Msaa_BackBufferResolve)
{
    enum { W = 32, H = 32 };
    /* D3D10 centres: tests resolve, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 4, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    if (info.pp.multisample_count < 4) {
        xgdt_not_supported(t, "no 4x multisampled back buffer");
        xgd_device_destroy(dev);
        return;
    }
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    ms_model m;
    REQUIRE(fx && rs && ms_init(&m, W, H, fx_rgba(0, 0, 80, 255)));
    CHECK_OK(xgd_clear_color(dev, fx_rgba(0, 0, 80, 255)));
    const xgd_color c = { 255, 255, 0, 255 };
    CHECK_OK(fx_tri(dev, W, H, msaa_tris[0], 0.0f, c));
    ms_tri(&m, msaa_tris[0], c);
    ms_expect(t, &m, NULL, dev, "before_present");
    CHECK_OK(xgd_present(dev));
    ms_expect(t, &m, NULL, dev, "after_present");
    free(m.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Draws the asymmetric reference scene: pixel-aligned blocks (all 4 samples) plus one slanted
 * triangle (partial coverage). */
static void draw_scene(xgdt_ctx *t, xgd_device *dev, ms_model *m)
{
    const xgd_color a = { 255, 0, 0, 255 }, b = { 0, 255, 0, 255 }, c = { 40, 90, 250, 255 };
    CHECK_OK(fx_rect(dev, m->w, m->h, 0, 0, 5, 3, 0, a));
    CHECK_OK(fx_rect(dev, m->w, m->h, 9, 1, 16, 4, 0, b));
    ms_rect(m, 0, 0, 5, 3, a);
    ms_rect(m, 9, 1, 16, 4, b);
    const float tri[6] = { 1.2f, 6.3f, 14.7f, 8.9f, 3.3f, 15.1f };
    CHECK_OK(fx_tri(dev, m->w, m->h, tri, 0, c));
    ms_tri(m, tri, c);
}

/* The first get_data of a multisampled target after unbind returns the resolved image. */
XGD_FIXTURE(RenderTarget_MsaaFirstReadback)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests readback, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!need_msaa4(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    ms_model m;
    REQUIRE(rt && fx && rs && ms_init(&m, W, H, BLACK));
    CHECK_OK(xgd_set_render_target(dev, rt));
    draw_scene(t, dev, &m);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    ms_expect(t, &m, rt, dev, "first_readback");
    ms_expect(t, &m, rt, dev, "second_readback");
    free(m.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* Draw, unbind, read; rebind (PreserveContents), draw more, unbind, read: the second read shows
 * both draws, never the first resolve. Then once more, leaving for another target. */
XGD_FIXTURE(RenderTarget_ActiveMsaaReadback)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests readback, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!need_msaa4(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *other = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    ms_model m;
    REQUIRE(rt && other && fx && rs && ms_init(&m, W, H, BLACK));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    draw_scene(t, dev, &m);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    ms_expect(t, &m, rt, dev, "first");

    CHECK_OK(xgd_set_render_target(dev, rt));
    const float tri[6] = { 8.4f, 5.1f, 15.6f, 9.3f, 10.2f, 14.8f };
    const xgd_color white = { 255, 255, 255, 255 };
    CHECK_OK(fx_tri(dev, W, H, tri, 0, white));
    ms_tri(&m, tri, white);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    ms_expect(t, &m, rt, dev, "second");

    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(fx_rect(dev, W, H, 12, 12, 16, 16, 0, fx_rgba(255, 0, 255, 255)));
    ms_rect(&m, 12, 12, 16, 16, fx_rgba(255, 0, 255, 255));
    CHECK_OK(xgd_set_render_target(dev, other)); /* target to target also finalises */
    ms_expect(t, &m, rt, dev, "third");
    CHECK_OK(xgd_set_render_target(dev, NULL));
    free(m.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(other);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* A multisampled cube target: each face is resolved when it is left (face to face, and the
 * last one at the return to the back buffer); every face is read. */
XGD_FIXTURE(RenderTargetCube_MsaaFace)
{
    enum { S = 16 };
    /* D3D10 centres: tests cube resolve, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!need_msaa4(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = S;
    d.height = S;
    d.preferred_multisample_count = 4;
    d.usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS;
    xgd_texture *cube = NULL;
    REQUIRE_OK(xgd_render_target_cube_create(dev, &d, &cube));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(cube, &info));
    if (info.multisample_count < 4) {
        xgdt_not_supported(t, "no multisampled cube targets");
        xgd_texture_destroy(cube);
        xgd_device_destroy(dev);
        return;
    }
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    ms_model m[6];
    for (int f = 0; f < 6; f++) {
        REQUIRE(ms_init(&m[f], S, S, BLACK));
        CHECK_OK(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)f));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        const xgd_color bg = fx_rgba(20 * f, 40, 200 - 30 * f, 255);
        const xgd_color ink = fx_rgba(255, 40 * f, 0, 255);
        CHECK_OK(fx_rect(dev, S, S, 0, 0, (float)(2 + f), 3, 0, bg));
        ms_rect(&m[f], 0, 0, 2 + f, 3, bg);
        const float tri[6] = { 1.3f + f, 4.1f, 15.2f, 6.7f + f * 0.5f, 3.9f, 15.4f - f * 0.3f };
        CHECK_OK(fx_tri(dev, S, S, tri, 0, ink));
        ms_tri(&m[f], tri, ink);
    }
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int f = 0; f < 6; f++) {
        uint8_t *e = ms_resolve(&m[f]);
        REQUIRE(e);
        char label[32];
        snprintf(label, sizeof label, "face%d", f);
        fx_expect_texture(t, cube, (xgd_cube_map_face)f, 0, label, e, S, S, 1);
        free(e);
        free(m[f].s);
    }
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(cube);
    xgd_device_destroy(dev);
}

/* An upload into a multisampled target reaches every sample: the resolved image after a later
 * PreserveContents draw is the uploaded texel in the samples the draw did not cover and the
 * draw's colour in the others (edge pixels mix the two by coverage). The target was cleared
 * to black before the upload, so a sample the upload missed shows. */
XGD_FIXTURE(RenderTarget_MsaaUploadFillsSamples)
{
    enum { S = 16 };
    xgd_device *dev = fx_device_centers(t, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!need_msaa4(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = S;
    d.height = S;
    d.preferred_multisample_count = 4;
    d.usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS;
    xgd_texture *rt = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &d, &rt));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    REQUIRE(info.multisample_count == 4);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint8_t texels[S * S * 4];
    ms_model m;
    REQUIRE(ms_init(&m, S, S, BLACK));
    for (int y = 0; y < S; y++)
        for (int x = 0; x < S; x++) {
            xgd_color c = fx_rgba(x * 16 + 5, y * 16 + 3, (x ^ y) * 13 + 1, 255 - x * 7);
            uint8_t *p = &texels[(y * S + x) * 4];
            p[0] = c.r;
            p[1] = c.g;
            p[2] = c.b;
            p[3] = c.a;
            for (int s = 0; s < 4; s++) m.s[(y * S + x) * 4 + s] = c;
        }
    CHECK_OK(xgd_texture_set_data(rt, 0, 0, NULL, texels, sizeof texels));
    CHECK_OK(xgd_set_render_target(dev, rt));
    const xgd_color ink = fx_rgba(250, 20, 90, 255);
    const float tri[6] = { 1.3f, 2.1f, 14.7f, 5.6f, 6.2f, 14.4f };
    CHECK_OK(fx_tri(dev, S, S, tri, 0, ink));
    ms_tri(&m, tri, ink);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = ms_resolve(&m);
    REQUIRE(e);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "upload", e, S, S, 1);
    free(e);
    free(m.s);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}
