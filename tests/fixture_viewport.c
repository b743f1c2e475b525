/*
 * fixture_viewport.c - viewport and scissor (spec 002 "viewport and scissor"), their reset on a
 * target change (spec 001 transaction), the presentation modes and the back-buffer readback
 * mapping (spec 002: logical pixels sample the physical back buffer at their centres,
 * presentX + floor((x + 0.5) * scaleX), zero outside).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                       BLUE = { 0, 0, 255, 255 };

static bool vp_equal(xgd_viewport a, xgd_viewport b)
{
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height &&
           a.min_depth == b.min_depth && a.max_depth == b.max_depth;
}

#define CHECK_VP(actual, ...)                                                                   \
    do {                                                                                        \
        xgd_viewport want_ = (xgd_viewport){ __VA_ARGS__ };                                     \
        CHECK_MSG(vp_equal(actual, want_), "viewport (%d,%d,%d,%d,%g,%g), expected (%d,%d,%d,%d,%g,%g)", \
                  (actual).x, (actual).y, (actual).width, (actual).height, (double)(actual).min_depth, \
                  (double)(actual).max_depth, want_.x, want_.y, want_.width, want_.height,     \
                  (double)want_.min_depth, (double)want_.max_depth);                            \
    } while (0)

#define CHECK_RECT(actual, X, Y, W_, H_)                                                         \
    CHECK_MSG((actual).x == (X) && (actual).y == (Y) && (actual).width == (W_) &&               \
                  (actual).height == (H_),                                                      \
              "rect (%d,%d,%d,%d), expected (%d,%d,%d,%d)", (actual).x, (actual).y,             \
              (actual).width, (actual).height, (X), (Y), (W_), (H_))

static xgd_rasterizer_state *scissor_state(xgdt_ctx *t, xgd_device *dev, bool enable)
{
    xgd_rasterizer_desc d = XGD_RASTERIZER_DESC_DEFAULT;
    d.cull_mode = XGD_CULL_NONE;
    d.scissor_test_enable = enable;
    return fx_raster(t, dev, &d);
}

XGD_FIXTURE(Scissor)
{
    enum { W = 64, H = 64 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *on = scissor_state(t, dev, true), *off = scissor_state(t, dev, false);
    REQUIRE(fx && on && off);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    struct { xgd_rect r; bool enable; int x0, y0, x1, y1; } cases[] = {
        { { 10, 20, 30, 12 }, true, 10, 20, 40, 32 },
        { { 50, 40, 40, 40 }, true, 50, 40, 64, 64 },  /* clipped to the target */
        { { -8, -4, 20, 10 }, true, 0, 0, 12, 6 },
        { { 10, 20, 30, 12 }, false, 0, 0, 64, 64 },   /* ignored when the test is off */
        { { 5, 5, 0, 10 }, true, 0, 0, 0, 0 },         /* zero area: per renderer (spec 002) */
    };
    if (info.zero_scissor == XGD_ZERO_SCISSOR_EXPANDS_TO_TARGET) {
        cases[4].x1 = W;
        cases[4].y1 = H;
    }
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(xgd_set_scissor_rect(dev, cases[i].r));
        CHECK_OK(xgd_set_rasterizer_state(dev, cases[i].enable ? on : off));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0, GREEN));
        /* a clear ignores the scissor rectangle */
        uint8_t *e = fx_image(W, H, BLACK);
        REQUIRE(e);
        fx_fill(e, W, H, cases[i].x0, cases[i].y0, cases[i].x1, cases[i].y1, GREEN);
        char label[32];
        snprintf(label, sizeof label, "case%d", (int)i);
        fx_expect_back_buffer(t, dev, label, e, W, H, 0);
        free(e);
    }
    CHECK_OK(xgd_set_rasterizer_state(dev, on));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 4, 4, 4, 4 }));
    CHECK_OK(xgd_clear_color(dev, RED));
    uint8_t *e = fx_image(W, H, RED);
    REQUIRE(e);
    fx_expect_back_buffer(t, dev, "clear_ignores_scissor", e, W, H, 0);
    free(e);
    xgd_set_rasterizer_state(dev, NULL);
    xgd_rasterizer_state_destroy(on);
    xgd_rasterizer_state_destroy(off);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* NDC [-1,1] maps onto the viewport rectangle; an asymmetric marker shows orientation. */
XGD_FIXTURE(Viewport_Subregion)
{
    enum { W = 64, H = 64 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 8, 16, 32, 16, 0, 1 }));
    /* coordinates relative to the viewport: fx_* map pixel (0..32, 0..16) to NDC -1..1 */
    CHECK_OK(fx_rect(dev, 32, 16, 0, 0, 32, 16, 0, BLUE));
    const float tri[6] = { 0, 0, 16, 0, 0, 8 };
    CHECK_OK(fx_tri(dev, 32, 16, tri, 0, RED));
    /* beyond the viewport nothing is drawn, whatever the geometry */
    CHECK_OK(fx_rect(dev, 32, 16, 28, 12, 60, 40, 0, GREEN));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 8, 16, 40, 32, BLUE);
    /* relative to the viewport's origin, and under XNA's pixel centres (the default) half a
       pixel right and down of it */
    const float moved[6] = { 8, 16, 24, 16, 8, 24 };
    float ref[6];
    fx_centered_tri(moved, XGD_PIXEL_CENTER_XNA, ref);
    fx_raster_tri(e, W, H, ref, RED);
    fx_fill(e, W, H, 36, 28, 40, 32, GREEN);
    fx_expect_back_buffer(t, dev, "subregion", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* z' = min + z * (max - min): cleared depth 0.75; z = 1 with range 0.25..0.5 lands at 0.5
 * (passes); z = 0.6 with range 0.5..1 lands at 0.8 (fails). */
XGD_FIXTURE(Viewport_DepthRange)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(BLACK), 0.75f, 0));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 0, 0, W, H, 0.25f, 0.5f }));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, H, 1.0f, GREEN));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 0, 0, W, H, 0.5f, 1.0f }));
    CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, H, 0.6f, RED));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 16, H, GREEN);
    fx_expect_back_buffer(t, dev, "depth_range", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(ViewportState)
{
    xgd_device *dev = fx_device(t, 64, 48, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 0, 0, 64, 48, 0.0f, 1.0f);
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 1, 2, 3, 4, 0.25f, 0.75f }));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 1, 2, 3, 4, 0.25f, 0.75f);
    /* a refused viewport changes nothing */
    CHECK_RESULT(xgd_set_viewport(dev, &(xgd_viewport){ 0, 0, 0, 4, 0, 1 }), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_viewport(dev, &(xgd_viewport){ 0, 0, 4, 4, 0, 1.5f }), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 1, 2, 3, 4, 0.25f, 0.75f);
    xgd_rect sc;
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 5, 6, 7, 8 }));
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_RECT(sc, 5, 6, 7, 8);

    xgd_texture *rt = fx_target(t, dev, 16, 8, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 0, 0, 16, 8, 0.0f, 1.0f);
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_RECT(sc, 0, 0, 16, 8);
    /* rebinding the identical set is a no-op: the viewport stays */
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 2, 2, 4, 4, 0, 1 }));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 2, 2, 4, 4, 0.0f, 1.0f);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_VP(vp, 0, 0, 64, 48, 0.0f, 1.0f);
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_RECT(sc, 0, 0, 64, 48);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* After a target change a full-screen draw with the scissor test on covers the whole new
 * target: the old viewport and scissor must not survive the change. */
XGD_FIXTURE(RenderTarget_ViewportScissorReset)
{
    enum { W = 32, H = 32, TW = 16, TH = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *on = scissor_state(t, dev, true);
    xgd_texture *rt = fx_target(t, dev, TW, TH, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(fx && on && rt);
    CHECK_OK(xgd_set_rasterizer_state(dev, on));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 4, 4, 8, 8, 0, 1 }));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 1, 1, 2, 2 }));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(fx_rect(dev, TW, TH, 0, 0, TW, TH, 0, GREEN));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 2, 2, 4, 4, 0, 1 }));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 0, 0, 1, 1 }));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0, BLUE));
    uint8_t *e = fx_image(TW, TH, GREEN);
    REQUIRE(e);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target", e, TW, TH, 0);
    free(e);
    e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_expect_back_buffer(t, dev, "back_buffer", e, W, H, 0);
    free(e);
    xgd_set_rasterizer_state(dev, NULL);
    xgd_rasterizer_state_destroy(on);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- presentation --------------------------------------------------------------------------- */

typedef struct mode_case {
    xgd_presentation_mode mode;
    const char *name;
    int vw, vh;            /* virtual size asked for */
    int lw, lh;            /* logical canvas */
    xgd_rect rect;         /* where it lands in the 96x48 back buffer */
} mode_case;

/* Back buffer 96x48, virtual 32x32: Letterbox scales by min(3, 1.5) = 1.5 and centres
 * (x = (96 - 48) / 2); Overscan by max = 3, centred and cropped (y = (48 - 96) / 2);
 * Stretch fills; FixedHeightDynamicWidth keeps the height and widens to 32 * 96 / 48. */
static const mode_case mode_cases[] = {
    { XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, "native", 32, 32, 96, 48, { 0, 0, 96, 48 } },
    { XGD_PRESENTATION_MODE_FIXED_HEIGHT_DYNAMIC_WIDTH, "fixed_height", 32, 32, 64, 32, { 0, 0, 96, 48 } },
    { XGD_PRESENTATION_MODE_STRETCH, "stretch", 32, 32, 32, 32, { 0, 0, 96, 48 } },
    { XGD_PRESENTATION_MODE_LETTERBOX, "letterbox", 32, 32, 32, 32, { 24, 0, 48, 48 } },
    { XGD_PRESENTATION_MODE_OVERSCAN, "overscan", 32, 32, 32, 32, { 0, -24, 96, 96 } },
    { XGD_PRESENTATION_MODE_LETTERBOX, "letterbox_no_virtual", 0, 0, 96, 48, { 0, 0, 96, 48 } },
};

static xgd_device *mode_device(xgdt_ctx *t, const mode_case *m, xgd_pixel_center centers)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 96;
    dd.pp.back_buffer_height = 48;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.presentation_mode = m->mode;
    dd.pp.virtual_width = m->vw;
    dd.pp.virtual_height = m->vh;
    dd.pixel_center = centers;
    return xgdt_device(t, &dd);
}

XGD_FIXTURE(PresentationModeContract)
{
    for (size_t i = 0; i < sizeof mode_cases / sizeof mode_cases[0]; i++) {
        const mode_case *m = &mode_cases[i];
        xgd_device *dev = mode_device(t, m, XGD_PIXEL_CENTER_XNA);
        REQUIRE(dev);
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_MSG(info.logical_width == m->lw && info.logical_height == m->lh,
                  "%s: logical %dx%d, expected %dx%d", m->name, info.logical_width, info.logical_height, m->lw, m->lh);
        CHECK_MSG(info.presentation_rect.x == m->rect.x && info.presentation_rect.y == m->rect.y &&
                      info.presentation_rect.width == m->rect.width && info.presentation_rect.height == m->rect.height,
                  "%s: presentation rect (%d,%d,%d,%d), expected (%d,%d,%d,%d)", m->name,
                  info.presentation_rect.x, info.presentation_rect.y, info.presentation_rect.width,
                  info.presentation_rect.height, m->rect.x, m->rect.y, m->rect.width, m->rect.height);
        xgd_viewport vp;
        CHECK_OK(xgd_get_viewport(dev, &vp));
        CHECK_MSG(vp.x == 0 && vp.y == 0 && vp.width == m->lw && vp.height == m->lh,
                  "%s: default viewport (%d,%d,%d,%d), expected the logical canvas %dx%d", m->name,
                  vp.x, vp.y, vp.width, vp.height, m->lw, m->lh);
        /* the logical canvas is the readable area */
        uint8_t one[4];
        CHECK_RESULT(xgd_get_back_buffer_data(dev, &(xgd_rect){ m->lw, 0, 1, 1 }, one, 4), XGD_ERROR_INVALID_ARGUMENT);
        xgd_device_destroy(dev);
    }
}

/* A logical image of pixel-aligned blocks drawn through the presentation geometry reads back
 * as itself wherever the logical pixel centre lands inside the back buffer, zero elsewhere. */
XGD_FIXTURE(BackBufferReadbackMapping)
{
    for (size_t i = 0; i < sizeof mode_cases / sizeof mode_cases[0]; i++) {
        const mode_case *m = &mode_cases[i];
        /* D3D10 centres: tests readback mapping, not the centre rule; expectations assume .5 */
        xgd_device *dev = mode_device(t, m, XGD_PIXEL_CENTER_D3D10);
        REQUIRE(dev);
        xgd_effect *fx = fx_effect(t, dev);
        REQUIRE(fx);
        const int lw = m->lw, lh = m->lh;
        const xgd_color base = { 40, 80, 120, 255 }, bar = { 250, 40, 10, 255 }, side = { 20, 230, 60, 255 };
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(fx_rect(dev, lw, lh, 0, 0, (float)lw, (float)lh, 0, base));
        CHECK_OK(fx_rect(dev, lw, lh, 0, 0, (float)(lw / 2), (float)(lh / 4), 0, bar));
        CHECK_OK(fx_rect(dev, lw, lh, (float)(lw - 3), (float)(lh / 2), (float)lw, (float)lh, 0, side));
        CHECK_OK(fx_rect(dev, lw, lh, 1, (float)(lh - 2), 2, (float)(lh - 1), 0, XGD_COLOR_WHITE));
        uint8_t *img = fx_image(lw, lh, base);
        REQUIRE(img);
        fx_fill(img, lw, lh, 0, 0, lw / 2, lh / 4, bar);
        fx_fill(img, lw, lh, lw - 3, lh / 2, lw, lh, side);
        fx_fill(img, lw, lh, 1, lh - 2, 2, lh - 1, XGD_COLOR_WHITE);
        uint8_t *e = fx_image(lw, lh, XGD_COLOR_TRANSPARENT);
        REQUIRE(e);
        double sx = (double)m->rect.width / lw, sy = (double)m->rect.height / lh;
        for (int y = 0; y < lh; y++)
            for (int x = 0; x < lw; x++) {
                int px = m->rect.x + (int)floor((x + 0.5) * sx), py = m->rect.y + (int)floor((y + 0.5) * sy);
                if (px >= 0 && px < 96 && py >= 0 && py < 48) fx_put(e, lw, x, y, fx_get(img, lw, x, y));
            }
        char label[48];
        snprintf(label, sizeof label, "%s_full", m->name);
        fx_expect_back_buffer(t, dev, label, e, lw, lh, 0);
        /* a sub-rectangle is the same mapping, tightly packed */
        xgd_rect r = { 3, lh / 8, 11, lh / 2 };
        uint8_t *sub = malloc((size_t)r.width * r.height * 4), *want = malloc((size_t)r.width * r.height * 4);
        REQUIRE(sub && want);
        CHECK_OK(xgd_get_back_buffer_data(dev, &r, sub, (size_t)r.width * r.height * 4));
        for (int y = 0; y < r.height; y++)
            for (int x = 0; x < r.width; x++) fx_put(want, r.width, x, y, fx_get(e, lw, r.x + x, r.y + y));
        snprintf(label, sizeof label, "%s_rect", m->name);
        xgdt_compare_rgba(t, label, sub, want, r.width, r.height, 0);
        free(sub);
        free(want);
        free(e);
        free(img);
        xgd_effect_destroy(fx);
        xgd_device_destroy(dev);
    }
}
