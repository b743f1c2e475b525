/*
 * fixture_blend.c - blend factors, blend functions, blend factor colour, colour write masks and
 * the blend presets. Expected values are the blend equation in double on the 8-bit source and
 * destination, then stored as an 8-bit target stores them (floor(clamp(v) * 255 + 0.5)),
 * tolerance 1.
 */
#include "fixture_util.h"

enum { W = 64, H = 16, CELL = 4 };

static const xgd_color SRC = { 200, 100, 50, 153 };
static const xgd_color DST = { 51, 153, 204, 102 };
static const xgd_color BF = { 64, 128, 192, 32 };

static void to_f(xgd_color c, double v[4])
{
    v[0] = c.r / 255.0;
    v[1] = c.g / 255.0;
    v[2] = c.b / 255.0;
    v[3] = c.a / 255.0;
}

/* The factor for channel ch (3 = alpha) per the Direct3D/XNA blend definitions. */
static double factor(xgd_blend f, const double s[4], const double d[4], const double bf[4], int ch)
{
    switch (f) {
    case XGD_BLEND_ONE: return 1.0;
    case XGD_BLEND_ZERO: return 0.0;
    case XGD_BLEND_SOURCE_COLOR: return s[ch];
    case XGD_BLEND_INVERSE_SOURCE_COLOR: return 1.0 - s[ch];
    case XGD_BLEND_SOURCE_ALPHA: return s[3];
    case XGD_BLEND_INVERSE_SOURCE_ALPHA: return 1.0 - s[3];
    case XGD_BLEND_DESTINATION_COLOR: return d[ch];
    case XGD_BLEND_INVERSE_DESTINATION_COLOR: return 1.0 - d[ch];
    case XGD_BLEND_DESTINATION_ALPHA: return d[3];
    case XGD_BLEND_INVERSE_DESTINATION_ALPHA: return 1.0 - d[3];
    case XGD_BLEND_BLEND_FACTOR: return bf[ch];
    case XGD_BLEND_INVERSE_BLEND_FACTOR: return 1.0 - bf[ch];
    case XGD_BLEND_SOURCE_ALPHA_SATURATION:
        return ch == 3 ? 1.0 : (s[3] < 1.0 - d[3] ? s[3] : 1.0 - d[3]);
    default: return -1000.0;
    }
}

static double combine(xgd_blend_function fn, double s, double fs, double d, double fd)
{
    switch (fn) {
    case XGD_BLEND_FUNCTION_ADD: return s * fs + d * fd;
    case XGD_BLEND_FUNCTION_SUBTRACT: return s * fs - d * fd;
    case XGD_BLEND_FUNCTION_REVERSE_SUBTRACT: return d * fd - s * fs;
    case XGD_BLEND_FUNCTION_MIN: return s < d ? s : d; /* factors ignored, as in D3D/Vulkan */
    case XGD_BLEND_FUNCTION_MAX: return s > d ? s : d;
    default: return -1000.0;
    }
}

/* The 8-bit result of blending src over dst with desc's target 0. */
static xgd_color blend_expect(const xgd_target_blend_desc *b, xgd_color src, xgd_color dst,
                              xgd_color bfc)
{
    double s[4], d[4], bf[4], out[4];
    to_f(src, s);
    to_f(dst, d);
    to_f(bfc, bf);
    for (int ch = 0; ch < 4; ch++) {
        bool alpha = ch == 3;
        xgd_blend sb = alpha ? b->alpha_source_blend : b->color_source_blend;
        xgd_blend db = alpha ? b->alpha_destination_blend : b->color_destination_blend;
        xgd_blend_function fn = alpha ? b->alpha_blend_function : b->color_blend_function;
        out[ch] = combine(fn, s[ch], factor(sb, s, d, bf, ch), d[ch], factor(db, s, d, bf, ch));
    }
    return fx_rgba(fx_q8(out[0]), fx_q8(out[1]), fx_q8(out[2]), fx_q8(out[3]));
}

static xgd_device *blend_setup(xgdt_ctx *t, xgd_texture **rt, xgd_effect **fx, xgd_color dst)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    if (!dev) return NULL;
    *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                    XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    *fx = fx_effect(t, dev);
    if (!*rt || !*fx) return dev;
    CHECK_OK(xgd_set_render_target(dev, *rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(dst), 1.0f, 0));
    return dev;
}

static void blend_cell(xgdt_ctx *t, xgd_device *dev, const xgd_blend_state_desc *bd, int cx,
                       int cy, xgd_color src)
{
    xgd_blend_state *bs = fx_blend(t, dev, bd);
    if (!bs) return;
    CHECK_OK(xgd_set_blend_state(dev, bs));
    CHECK_OK(fx_rect(dev, W, H, (float)(cx * CELL), (float)(cy * CELL), (float)(cx * CELL + CELL),
                     (float)(cy * CELL + CELL), 0.0f, src));
    xgd_set_blend_state(dev, NULL);
    xgd_blend_state_destroy(bs);
}

static void finish(xgdt_ctx *t, xgd_device *dev, xgd_texture *rt, xgd_effect *fx,
                   const char *label, const uint8_t *e)
{
    CHECK_OK(xgd_set_render_target(dev, NULL));
    if (e) fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, W, H, 1);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

static bool is_color_factor(xgd_blend f)
{
    return f == XGD_BLEND_SOURCE_COLOR || f == XGD_BLEND_INVERSE_SOURCE_COLOR ||
           f == XGD_BLEND_DESTINATION_COLOR || f == XGD_BLEND_INVERSE_DESTINATION_COLOR;
}

/* Rows: every factor as colour source, colour destination, alpha source, alpha destination
 * (colour-only factors are skipped for alpha). */
XGD_FIXTURE(Blend_Factors)
{
    xgd_texture *rt = NULL;
    xgd_effect *fx = NULL;
    xgd_device *dev = blend_setup(t, &rt, &fx, DST);
    REQUIRE(dev);
    REQUIRE(rt && fx);
    uint8_t *e = fx_image(W, H, DST);
    REQUIRE(e);
    for (int row = 0; row < 4; row++) {
        for (int f = XGD_BLEND_ONE; f < XGD_BLEND_COUNT; f++) {
            if (row >= 2 && is_color_factor((xgd_blend)f)) continue;
            xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
            xgd_target_blend_desc *b = &bd.target[0];
            b->color_blend_function = b->alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
            b->color_source_blend = b->alpha_source_blend = XGD_BLEND_ONE;
            b->color_destination_blend = b->alpha_destination_blend = XGD_BLEND_ZERO;
            switch (row) {
            case 0: b->color_source_blend = (xgd_blend)f; break;
            case 1: b->color_source_blend = XGD_BLEND_ZERO; b->color_destination_blend = (xgd_blend)f; break;
            case 2: b->alpha_source_blend = (xgd_blend)f; break;
            default: b->alpha_source_blend = XGD_BLEND_ZERO; b->alpha_destination_blend = (xgd_blend)f; break;
            }
            bd.blend_factor = BF;
            int cx = f - XGD_BLEND_ONE;
            blend_cell(t, dev, &bd, cx, row, SRC);
            fx_fill(e, W, H, cx * CELL, row * CELL, cx * CELL + CELL, row * CELL + CELL,
                    blend_expect(b, SRC, DST, BF));
        }
    }
    finish(t, dev, rt, fx, "factors", e);
    free(e);
}

/* Every blend function for colour and alpha, two source colours (rows 0-1 and 2-3). */
XGD_FIXTURE(Blend_Functions)
{
    xgd_texture *rt = NULL;
    xgd_effect *fx = NULL;
    xgd_device *dev = blend_setup(t, &rt, &fx, DST);
    REQUIRE(dev);
    REQUIRE(rt && fx);
    uint8_t *e = fx_image(W, H, DST);
    REQUIRE(e);
    const xgd_color srcs[2] = { SRC, { 20, 240, 130, 40 } };
    for (int si = 0; si < 2; si++) {
        for (int fn = XGD_BLEND_FUNCTION_ADD; fn < XGD_BLEND_FUNCTION_COUNT; fn++) {
            xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
            xgd_target_blend_desc *b = &bd.target[0];
            b->color_blend_function = b->alpha_blend_function = (xgd_blend_function)fn;
            b->color_source_blend = XGD_BLEND_SOURCE_ALPHA;
            b->color_destination_blend = XGD_BLEND_INVERSE_SOURCE_ALPHA;
            b->alpha_source_blend = XGD_BLEND_ONE;
            b->alpha_destination_blend = XGD_BLEND_ONE;
            int cx = (fn - XGD_BLEND_FUNCTION_ADD) * 2;
            for (int k = 0; k < 2; k++) {
                blend_cell(t, dev, &bd, cx + k, si * 2 + k, srcs[si]);
                fx_fill(e, W, H, (cx + k) * CELL, (si * 2 + k) * CELL, (cx + k + 1) * CELL,
                        (si * 2 + k + 1) * CELL, blend_expect(b, srcs[si], DST, BF));
            }
        }
    }
    finish(t, dev, rt, fx, "functions", e);
    free(e);
}

/* XNA's default BlendFactor is White (the default initialiser's); a blend factor given as zero
 * is black, honoured as given. */
XGD_FIXTURE(Blend_BlendFactor)
{
    xgd_texture *rt = NULL;
    xgd_effect *fx = NULL;
    xgd_device *dev = blend_setup(t, &rt, &fx, DST);
    REQUIRE(dev);
    REQUIRE(rt && fx);
    uint8_t *e = fx_image(W, H, DST);
    REQUIRE(e);
    struct { xgd_color bf; bool set; xgd_color effective; } cases[3] = {
        { { 0, 0, 0, 0 }, false, { 255, 255, 255, 255 } },
        { { 0, 0, 0, 0 }, true, { 0, 0, 0, 0 } },
        { BF, true, BF },
    };
    for (int i = 0; i < 3; i++) {
        xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
        xgd_target_blend_desc *b = &bd.target[0];
        b->color_blend_function = b->alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
        b->color_source_blend = b->alpha_source_blend = XGD_BLEND_BLEND_FACTOR;
        b->color_destination_blend = b->alpha_destination_blend = XGD_BLEND_INVERSE_BLEND_FACTOR;
        if (cases[i].set) bd.blend_factor = cases[i].bf;
        blend_cell(t, dev, &bd, i * 2, 1, SRC);
        fx_fill(e, W, H, i * 2 * CELL, CELL, i * 2 * CELL + CELL, 2 * CELL,
                blend_expect(b, SRC, DST, cases[i].effective));
    }
    finish(t, dev, rt, fx, "blend_factor", e);
    free(e);
}

XGD_FIXTURE(Blend_ColorWriteChannels)
{
    xgd_texture *rt = NULL;
    xgd_effect *fx = NULL;
    xgd_device *dev = blend_setup(t, &rt, &fx, DST);
    REQUIRE(dev);
    REQUIRE(rt && fx);
    uint8_t *e = fx_image(W, H, DST);
    REQUIRE(e);
    const unsigned masks[8] = {
        XGD_COLOR_WRITE_RED, XGD_COLOR_WRITE_GREEN, XGD_COLOR_WRITE_BLUE, XGD_COLOR_WRITE_ALPHA,
        XGD_COLOR_WRITE_RED | XGD_COLOR_WRITE_BLUE, XGD_COLOR_WRITE_ALL, XGD_COLOR_WRITE_NONE,
        XGD_COLOR_WRITE_GREEN | XGD_COLOR_WRITE_ALPHA,
    };
    for (int i = 0; i < 8; i++) {
        xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
        bd.target[0].color_write_channels = masks[i];
        blend_cell(t, dev, &bd, i * 2, 2, SRC);
        unsigned m = masks[i]; /* a bit mask; NONE is 0: nothing written */
        xgd_color c = DST;
        if (m & XGD_COLOR_WRITE_RED) c.r = SRC.r;
        if (m & XGD_COLOR_WRITE_GREEN) c.g = SRC.g;
        if (m & XGD_COLOR_WRITE_BLUE) c.b = SRC.b;
        if (m & XGD_COLOR_WRITE_ALPHA) c.a = SRC.a;
        fx_fill(e, W, H, i * 2 * CELL, 2 * CELL, i * 2 * CELL + CELL, 3 * CELL, c);
    }
    finish(t, dev, rt, fx, "write_mask", e);
    free(e);
}

/* Opaque; AlphaBlend (One, InverseSourceAlpha); Additive (SourceAlpha, One); NonPremultiplied
 * (SourceAlpha, InverseSourceAlpha); the same factors for alpha (XNA's preset tables). */
XGD_FIXTURE(Blend_Presets)
{
    xgd_texture *rt = NULL;
    xgd_effect *fx = NULL;
    xgd_device *dev = blend_setup(t, &rt, &fx, DST);
    REQUIRE(dev);
    REQUIRE(rt && fx);
    uint8_t *e = fx_image(W, H, DST);
    REQUIRE(e);
    const xgd_blend_preset presets[4] = { XGD_BLEND_PRESET_OPAQUE, XGD_BLEND_PRESET_ALPHA_BLEND,
                                          XGD_BLEND_PRESET_ADDITIVE,
                                          XGD_BLEND_PRESET_NON_PREMULTIPLIED };
    const xgd_blend sf[4] = { XGD_BLEND_ONE, XGD_BLEND_ONE, XGD_BLEND_SOURCE_ALPHA,
                              XGD_BLEND_SOURCE_ALPHA };
    const xgd_blend df[4] = { XGD_BLEND_ZERO, XGD_BLEND_INVERSE_SOURCE_ALPHA, XGD_BLEND_ONE,
                              XGD_BLEND_INVERSE_SOURCE_ALPHA };
    for (int i = 0; i < 4; i++) {
        xgd_blend_state *bs = xgd_blend_state_preset(dev, presets[i]);
        REQUIRE(bs);
        CHECK_OK(xgd_set_blend_state(dev, bs));
        CHECK_OK(fx_rect(dev, W, H, (float)(i * 2 * CELL), CELL, (float)(i * 2 * CELL + CELL),
                         2 * CELL, 0.0f, SRC));
        xgd_target_blend_desc b = XGD_TARGET_BLEND_DESC_DEFAULT;
        b.color_blend_function = b.alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
        b.color_source_blend = b.alpha_source_blend = sf[i];
        b.color_destination_blend = b.alpha_destination_blend = df[i];
        fx_fill(e, W, H, i * 2 * CELL, CELL, i * 2 * CELL + CELL, 2 * CELL,
                blend_expect(&b, SRC, DST, BF));
    }
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    finish(t, dev, rt, fx, "presets", e);
    free(e);
}
