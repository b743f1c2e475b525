/*
 * fixture_depth.c - depth test, depth writes, depth presets, clear depth, depth format
 * quantisation, depth bias, and the stencil operations.
 *
 * Depth values are chosen below 0.25 (or far from any boundary) so that one float ulp of
 * interpolation error can never move them across a rounding boundary of a 24-bit depth
 * buffer: 0.0625, 0.125 and 0.1875 land at x.94, x.875 and x.81 units of 2^24-1.
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                       BLUE = { 0, 0, 255, 255 }, YELLOW = { 255, 255, 0, 255 };

static xgd_depth_stencil_state *set_depth(xgdt_ctx *t, xgd_device *dev,
                                          const xgd_depth_stencil_desc *d)
{
    xgd_depth_stencil_state *s = fx_depth(t, dev, d);
    if (s) xgd_set_depth_stencil_state(dev, s);
    return s;
}

static bool clear_all(xgdt_ctx *t, xgd_device *dev, unsigned options, float depth, int stencil)
{
    xgd_result r = xgd_clear(dev, options, (xgd_vector4){ 0, 0, 0, 1 }, depth, stencil);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_clear returned %s (%s)", xgd_result_name(r),
                     xgdt_last_message());
    return r == XGD_OK;
}

XGD_FIXTURE(Depth_LessEqualDefault)
{
    enum { W = 64, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(xgd_clear_color(dev, BLACK)); /* depth 1 */
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 32, H, 0.125f, RED));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0.125f, GREEN));  /* equal on the left: passes */
    CHECK_OK(fx_rect(dev, W, H, 48, 0, W, H, 0.1875f, BLUE)); /* farther: fails */
    CHECK_OK(fx_rect(dev, W, H, 24, 0, 40, H, 0.0625f, YELLOW));
    uint8_t *e = fx_image(W, H, GREEN);
    REQUIRE(e);
    fx_fill(e, W, H, 24, 0, 40, H, YELLOW);
    fx_expect_back_buffer(t, dev, "lessequal", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Every compare function against a cleared depth of 0.125, with fragments nearer, equal and
 * farther (rows), one 8-pixel column per function. */
XGD_FIXTURE(Depth_CompareFunctions)
{
    enum { W = 64, H = 24 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, 0.125f, 0));
    const float z[3] = { 0.0625f, 0.125f, 0.1875f };
    const xgd_compare_function fns[8] = {
        XGD_COMPARE_ALWAYS, XGD_COMPARE_NEVER, XGD_COMPARE_LESS, XGD_COMPARE_LESS_EQUAL,
        XGD_COMPARE_EQUAL, XGD_COMPARE_GREATER_EQUAL, XGD_COMPARE_GREATER, XGD_COMPARE_NOT_EQUAL,
    };
    /* pass[f][row]: nearer, equal, farther */
    const bool pass[8][3] = {
        { 1, 1, 1 }, { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 },
        { 0, 1, 0 }, { 0, 1, 1 }, { 0, 0, 1 }, { 1, 0, 1 },
    };
    uint8_t *e = fx_image(W, H, fx_rgba(0, 0, 0, 255));
    REQUIRE(e);
    for (int f = 0; f < 8; f++) {
        xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
        d.depth_function = fns[f];
        d.depth_buffer_write_enable = false;
        xgd_depth_stencil_state *s = set_depth(t, dev, &d);
        REQUIRE(s);
        for (int row = 0; row < 3; row++) {
            xgd_color c = fx_rgba(40 + f * 25, 80 * row + 60, 200, 255);
            CHECK_OK(fx_rect(dev, W, H, (float)(f * 8), (float)(row * 8), (float)(f * 8 + 8),
                             (float)(row * 8 + 8), z[row], c));
            if (pass[f][row]) fx_fill(e, W, H, f * 8, row * 8, f * 8 + 8, row * 8 + 8, c);
        }
        xgd_set_depth_stencil_state(dev, NULL);
        xgd_depth_stencil_state_destroy(s);
    }
    fx_expect_back_buffer(t, dev, "compare", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* With depth writes off a near draw leaves the depth buffer alone (top half); with writes on
 * the same near draw hides a later far one (bottom half). */
XGD_FIXTURE(Depth_WriteDisable)
{
    enum { W = 64, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_write_enable = false;
    xgd_depth_stencil_state *nowrite = fx_depth(t, dev, &d);
    REQUIRE(nowrite);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_depth_stencil_state(dev, nowrite));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 32, 16, 0.0625f, RED));
    CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
    CHECK_OK(fx_rect(dev, W, H, 0, 16, 32, 32, 0.0625f, RED));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0.1875f, GREEN));
    uint8_t *e = fx_image(W, H, GREEN);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 16, 32, 32, RED);
    fx_expect_back_buffer(t, dev, "writedisable", e, W, H, 0);
    free(e);
    xgd_depth_stencil_state_destroy(nowrite);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* DepthRead tests but does not write; None neither tests nor writes. */
XGD_FIXTURE(Depth_Presets)
{
    enum { W = 64, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_depth_stencil_state *read = xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEPTH_READ);
    xgd_depth_stencil_state *none = xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE);
    REQUIRE(read && none);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, 0.125f, 0));
    CHECK_OK(xgd_set_depth_stencil_state(dev, read));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, H, 0.1875f, RED));  /* fails the test */
    CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, H, 0.0625f, GREEN)); /* passes, not written */
    CHECK_OK(xgd_set_depth_stencil_state(dev, none));
    CHECK_OK(fx_rect(dev, W, H, 32, 0, 48, H, 0.9f, BLUE));   /* no test: drawn, not written */
    CHECK_OK(xgd_set_depth_stencil_state(dev, read));
    /* the stored depth is still 0.125 everywhere: 0.09375 passes across the bottom half */
    CHECK_OK(fx_rect(dev, W, H, 0, 8, W, H, 0.09375f, YELLOW));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 16, 0, 32, 8, GREEN);
    fx_fill(e, W, H, 32, 0, 48, 8, BLUE);
    fx_fill(e, W, H, 0, 8, W, H, YELLOW);
    fx_expect_back_buffer(t, dev, "presets", e, W, H, 0);
    free(e);
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* The clear's depth value is what later draws are tested against. */
XGD_FIXTURE(Depth_ClearValue)
{
    enum { W = 32, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const float clears[3] = { 0.0f, 0.125f, 1.0f };
    const bool pass[3][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 } }; /* z 0.0625, 0.1875 */
    for (int i = 0; i < 3; i++) {
        REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, clears[i], 0));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, H, 0.0625f, RED));
        CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, H, 0.1875f, GREEN));
        uint8_t *e = fx_image(W, H, BLACK);
        REQUIRE(e);
        if (pass[i][0]) fx_fill(e, W, H, 0, 0, 16, H, RED);
        if (pass[i][1]) fx_fill(e, W, H, 16, 0, 32, H, GREEN);
        char label[32];
        snprintf(label, sizeof label, "clear%d", i);
        fx_expect_back_buffer(t, dev, label, e, W, H, 0);
        free(e);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/*
 * Fragment depth is converted to the buffer's format before the test. Cleared to 0.125
 * (D16: 8191.875 -> 8192; D24: 2097151.875 -> 2097152), an Equal test at 0.125 + 6e-6
 * (D16 8192.27 -> 8192, D24 2097252.5.. -> 2097253) passes only on D16; 0.125 + 2e-5
 * (D16 8193.2) fails on both; 0.125 passes on both.
 */
XGD_FIXTURE(Depth_FormatQuantisation)
{
    enum { W = 48, H = 8 };
    const xgd_depth_format fmts[2] = { XGD_DEPTH_FORMAT_DEPTH16, XGD_DEPTH_FORMAT_DEPTH24 };
    const float z[3] = { 0.125f, 0.125f + 6e-6f, 0.125f + 2e-5f };
    const bool pass[2][3] = { { 1, 1, 0 }, { 1, 0, 0 } };
    for (int f = 0; f < 2; f++) {
        xgd_device *dev = fx_device(t, W, H, fmts[f], 0);
        REQUIRE(dev);
        xgd_effect *fx = fx_effect(t, dev);
        REQUIRE(fx);
        xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
        d.depth_function = XGD_COMPARE_EQUAL;
        d.depth_buffer_write_enable = false;
        xgd_depth_stencil_state *s = set_depth(t, dev, &d);
        REQUIRE(s);
        REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, 0.125f, 0));
        uint8_t *e = fx_image(W, H, BLACK);
        REQUIRE(e);
        for (int i = 0; i < 3; i++) {
            CHECK_OK(fx_rect(dev, W, H, (float)(i * 16), 0, (float)(i * 16 + 16), H, z[i], GREEN));
            if (pass[f][i]) fx_fill(e, W, H, i * 16, 0, i * 16 + 16, H, GREEN);
        }
        fx_expect_back_buffer(t, dev, f ? "d24" : "d16", e, W, H, 0);
        free(e);
        xgd_set_depth_stencil_state(dev, NULL);
        xgd_depth_stencil_state_destroy(s);
        xgd_effect_destroy(fx);
        xgd_device_destroy(dev);
    }
}

/* DepthBias is added to the fragment depth (in depth units) before the test (spec 002). */
XGD_FIXTURE(Depth_Bias)
{
    enum { W = 64, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, 0.5f, 0));
    const float z[4] = { 0.52f, 0.52f, 0.48f, 0.48f };
    const float bias[4] = { 0.0f, -0.05f, 0.0f, 0.05f };
    const bool pass[4] = { false, true, true, false };
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 4; i++) {
        xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
        rd.depth_bias = bias[i];
        xgd_rasterizer_state *rs = fx_raster(t, dev, &rd);
        REQUIRE(rs);
        CHECK_OK(xgd_set_rasterizer_state(dev, rs));
        xgd_color c = fx_rgba(60 * i + 40, 255, 0, 255);
        CHECK_OK(fx_rect(dev, W, H, (float)(i * 16), 0, (float)(i * 16 + 16), H, z[i], c));
        if (pass[i]) fx_fill(e, W, H, i * 16, 0, i * 16 + 16, H, c);
        xgd_set_rasterizer_state(dev, NULL);
        xgd_rasterizer_state_destroy(rs);
    }
    fx_expect_back_buffer(t, dev, "bias", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- stencil ------------------------------------------------------------------------------ */

/* Draws a full-target quad coloured c where the stencil equals ref. */
static void stencil_paint(xgdt_ctx *t, xgd_device *dev, int w, int h, int ref, xgd_color c)
{
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_enable = false;
    d.stencil_enable = true;
    d.stencil_function = XGD_COMPARE_EQUAL;
    d.reference_stencil = ref;
    xgd_depth_stencil_state *s = set_depth(t, dev, &d);
    if (!s) return;
    CHECK_OK(fx_rect(dev, w, h, 0, 0, (float)w, (float)h, 0.0f, c));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(s);
}

XGD_FIXTURE(Stencil_ReplaceThenEqual)
{
    enum { W = 64, H = 64 };
    /* D3D10 centres: tests stencil ops, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.target[0].color_write_channels = XGD_COLOR_WRITE_NONE;
    xgd_blend_state *nocolor = fx_blend(t, dev, &bd);
    REQUIRE(fx && rs && nocolor);
    CHECK_OK(xgd_clear_color(dev, BLACK)); /* stencil 0 */

    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.stencil_enable = true;
    d.stencil_function = XGD_COMPARE_ALWAYS;
    d.stencil_pass = XGD_STENCIL_OP_REPLACE;
    d.reference_stencil = 1;
    xgd_depth_stencil_state *mark = set_depth(t, dev, &d);
    REQUIRE(mark);
    CHECK_OK(xgd_set_blend_state(dev, nocolor));
    const float tri[6] = { 5.3f, 3.7f, 58.2f, 20.5f, 20.5f, 60.9f };
    CHECK_OK(fx_tri(dev, W, H, tri, 0.5f, RED));
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(mark);

    stencil_paint(t, dev, W, H, 1, GREEN);
    stencil_paint(t, dev, W, H, 0, BLUE);
    uint8_t *e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_raster_tri(e, W, H, tri, GREEN);
    fx_expect_back_buffer(t, dev, "stencil_mask", e, W, H, 0);
    free(e);
    xgd_blend_state_destroy(nocolor);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Increment/Decrement wrap, the saturating forms clamp, Invert and Zero; 8-pixel columns. */
XGD_FIXTURE(Stencil_SaturateAndWrap)
{
    enum { W = 64, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL | XGD_CLEAR_DEPTH_BUFFER, 1.0f, 254));
    struct { xgd_stencil_operation op; int times; int start_ref; } cols[7] = {
        { XGD_STENCIL_OP_INCREMENT_SATURATION, 3, -1 }, /* 254 -> 255 */
        { XGD_STENCIL_OP_INCREMENT, 3, -1 },            /* 254 -> 1 */
        { XGD_STENCIL_OP_DECREMENT_SATURATION, 3, 1 },  /* 1 -> 0 */
        { XGD_STENCIL_OP_DECREMENT, 3, 1 },             /* 1 -> 254 */
        { XGD_STENCIL_OP_INVERT, 1, -1 },               /* ~254 -> 1 */
        { XGD_STENCIL_OP_ZERO, 1, -1 },                 /* 0 */
        { XGD_STENCIL_OP_KEEP, 2, -1 },                 /* 254 */
    };
    const int expect[8] = { 255, 1, 0, 254, 1, 0, 254, 254 };
    for (int c = 0; c < 7; c++) {
        xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
        d.depth_buffer_enable = false;
        d.stencil_enable = true;
        d.stencil_function = XGD_COMPARE_ALWAYS;
        if (cols[c].start_ref >= 0) {
            d.stencil_pass = XGD_STENCIL_OP_REPLACE;
            d.reference_stencil = cols[c].start_ref;
            xgd_depth_stencil_state *s = set_depth(t, dev, &d);
            REQUIRE(s);
            CHECK_OK(fx_rect(dev, W, H, (float)(c * 8), 0, (float)(c * 8 + 8), H, 0, BLACK));
            xgd_set_depth_stencil_state(dev, NULL);
            xgd_depth_stencil_state_destroy(s);
        }
        d.stencil_pass = cols[c].op;
        d.reference_stencil = 0;
        xgd_depth_stencil_state *s = set_depth(t, dev, &d);
        REQUIRE(s);
        for (int k = 0; k < cols[c].times; k++)
            CHECK_OK(fx_rect(dev, W, H, (float)(c * 8), 0, (float)(c * 8 + 8), H, 0, BLACK));
        xgd_set_depth_stencil_state(dev, NULL);
        xgd_depth_stencil_state_destroy(s);
    }
    stencil_paint(t, dev, W, H, 255, RED);
    stencil_paint(t, dev, W, H, 1, GREEN);
    stencil_paint(t, dev, W, H, 0, BLUE);
    stencil_paint(t, dev, W, H, 254, YELLOW);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int c = 0; c < 8; c++) {
        xgd_color col = expect[c] == 255 ? RED : expect[c] == 1 ? GREEN : expect[c] == 0 ? BLUE : YELLOW;
        fx_fill(e, W, H, c * 8, 0, c * 8 + 8, H, col);
    }
    fx_expect_back_buffer(t, dev, "stencil_ops", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Two-sided stencil: clockwise (front) faces use stencil_*, counter-clockwise ccw_stencil_*.
 * CW rect [0,40) increments, CCW rect [24,64) decrements, from 5: 6 | 5 | 4. */
XGD_FIXTURE(Stencil_TwoSided)
{
    enum { W = 64, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL | XGD_CLEAR_DEPTH_BUFFER, 1.0f, 5));
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_enable = false;
    d.stencil_enable = true;
    d.two_sided_stencil = true;
    d.stencil_function = XGD_COMPARE_ALWAYS;
    d.stencil_pass = XGD_STENCIL_OP_INCREMENT;
    d.ccw_stencil_function = XGD_COMPARE_ALWAYS;
    d.ccw_stencil_pass = XGD_STENCIL_OP_DECREMENT;
    xgd_depth_stencil_state *s = set_depth(t, dev, &d);
    REQUIRE(s);
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 40, H, 0, BLACK)); /* clockwise */
    /* counter-clockwise: x1 < x0 mirrors the winding */
    CHECK_OK(fx_rect(dev, W, H, 64, 0, 24, H, 0, BLACK));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(s);
    stencil_paint(t, dev, W, H, 6, RED);
    stencil_paint(t, dev, W, H, 5, GREEN);
    stencil_paint(t, dev, W, H, 4, BLUE);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 24, H, RED);
    fx_fill(e, W, H, 24, 0, 40, H, GREEN);
    fx_fill(e, W, H, 40, 0, 64, H, BLUE);
    fx_expect_back_buffer(t, dev, "two_sided", e, W, H, 0);
    free(e);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* The read mask applies to both reference and stored value; the write mask keeps bits. */
XGD_FIXTURE(Stencil_Masks)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE(clear_all(t, dev, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL | XGD_CLEAR_DEPTH_BUFFER, 1.0f, 0x23));
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_enable = false;
    d.stencil_enable = true;
    /* left: write 0xFF through write mask 0x0F onto 0x23 -> 0x2F */
    d.stencil_function = XGD_COMPARE_ALWAYS;
    d.stencil_pass = XGD_STENCIL_OP_REPLACE;
    d.reference_stencil = 0xFF;
    d.stencil_mask = 0xFF;
    d.stencil_write_mask = 0x0F;
    xgd_depth_stencil_state *s = set_depth(t, dev, &d);
    REQUIRE(s);
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, H, 0, BLACK));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(s);
    /* right: Equal with read mask 0x0F and ref 0x13 matches the stored 0x23 (both read 3) */
    d.stencil_function = XGD_COMPARE_EQUAL;
    d.stencil_pass = XGD_STENCIL_OP_KEEP;
    d.reference_stencil = 0x13;
    d.stencil_mask = 0x0F;
    d.stencil_write_mask = 0xFF;
    s = set_depth(t, dev, &d);
    REQUIRE(s);
    CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, H, 0, GREEN));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(s);
    stencil_paint(t, dev, W, H, 0x2F, RED);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 16, H, RED);
    fx_fill(e, W, H, 16, 0, 32, H, GREEN);
    fx_expect_back_buffer(t, dev, "masks", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
