/*
 * fixture_sprite_font.c - XNA's SpriteFont: MeasureString, DrawString's layout, transforms,
 * flips, layer depth, '\n' / '\r', missing characters, and the font object's contracts.
 *
 * The font is made here: a 16x8 texture whose every texel has its own opaque colour (so a
 * glyph drawn from the wrong place, mirrored or shifted by a pixel shows), and four glyphs
 * whose metrics exercise each rule: a positive and a negative left bearing (the latter
 * clamped to 0 at a line start), a negative right bearing, a Cropping.Height above
 * LineSpacing, Cropping offsets in x and y, and Spacing 1. Expected pixels come from the
 * reference in sprite_font_ref.h applied to this font's own texture.
 */
#include "harness.h"
#include "fixture_util.h"
#include "sprite_font_ref.h"

#include <stdlib.h>
#include <string.h>

enum { AW = 16, AH = 8, FW = 64, FH = 64 };

static const xgd_rect FONT_GLYPHS[] = {
    { 0, 0, 3, 4 },  /* 'A' */
    { 3, 0, 2, 5 },  /* 'B' */
    { 5, 0, 4, 3 },  /* 'C' */
    { 9, 0, 2, 2 },  /* 'D' */
};
static const xgd_rect FONT_CROPPING[] = {
    { 0, 1, 3, 6 },
    { 1, 0, 2, 6 },
    { 0, 2, 4, 9 },  /* taller than LineSpacing: counts on the last line of MeasureString */
    { 0, 3, 2, 6 },
};
static const uint32_t FONT_CHARS[] = { 'A', 'B', 'C', 'D' };
static const xgd_vector3 FONT_KERNING[] = {
    { 1, 3, 1 },
    { -2, 2, 2 },    /* negative left bearing: max(A, 0) when first on a line */
    { 0, 4, -1 },    /* negative right bearing */
    { 0, 2, 0 },
};
enum { FONT_LINE_SPACING = 7 };
#define FONT_SPACING 1.0f

static xgd_color atlas_texel(int x, int y)
{
    return (xgd_color){ (uint8_t)(30 + 13 * x), (uint8_t)(40 + 27 * y),
                        (uint8_t)(250 - 9 * x - 17 * y), 255 };
}

static void make_atlas(uint8_t *rgba)
{
    for (int y = 0; y < AH; y++)
        for (int x = 0; x < AW; x++) {
            xgd_color c = atlas_texel(x, y);
            memcpy(&rgba[(y * AW + x) * 4], &c, 4);
        }
}

static sfr_font ref_font(bool with_default)
{
    sfr_font f = { 4, FONT_GLYPHS, FONT_CROPPING, FONT_CHARS, FONT_KERNING, FONT_LINE_SPACING,
                   FONT_SPACING, with_default ? 3 : -1 };
    return f;
}

static xgd_sprite_font_desc font_desc(xgd_texture *tex)
{
    xgd_sprite_font_desc d = { .texture = tex, .take_texture = true, .glyph_count = 4,
                               .glyphs = FONT_GLYPHS, .cropping = FONT_CROPPING,
                               .characters = FONT_CHARS, .kerning = FONT_KERNING,
                               .line_spacing = FONT_LINE_SPACING, .spacing = FONT_SPACING };
    return d;
}

static xgd_sprite_font *make_font(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t rgba[AW * AH * 4];
    make_atlas(rgba);
    xgd_texture *tex = xgdt_image_texture(t, dev, AW, AH, rgba);
    if (tex == NULL) return NULL;
    xgd_sprite_font_desc d = font_desc(tex);
    xgd_sprite_font *font = NULL;
    xgd_result r = xgd_sprite_font_create(dev, &d, &font);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_sprite_font_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        xgd_texture_destroy(tex);
        return NULL;
    }
    return font;
}

static xgd_device *unit_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    return xgdt_device(t, &dd);
}

/* ---- MeasureString ------------------------------------------------------------------------- */

XGD_TEST(SpriteFont_MeasureString)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev);
    xgd_sprite_font *font = make_font(t, dev);
    REQUIRE(font);
    static const struct {
        const char *text;
        float w, h;
    } cases[] = {
        { "", 0, 0 },
        /* 'A' first: max(1, 0) + 3, then its right bearing 1: 5; one line: 7 */
        { "A", 5, 7 },
        /* 'B' first: max(-2, 0) + 2 + 2 */
        { "B", 4, 7 },
        /* A: 1 + 3 = 4; B: + (spacing 1 + A's right 1) + (-2 + 2) = 6; + B's right 2 = 8 */
        { "AB", 8, 7 },
        /* C: 0 + 4, its right bearing -1 is not added at the end; Cropping.Height 9 > 7 */
        { "C", 4, 9 },
        /* line 1 "AB" 8; line 2: C 4, A + (1 - 1) + 1 + 3 = 8, + 1 = 9; 7 + max(7, 9, 6) */
        { "AB\nCA", 9, 16 },
        /* the tall C on an earlier line counts LineSpacing only */
        { "C\nA", 5, 14 },
        /* '\r' is skipped; a trailing '\n' adds a line */
        { "A\r\nB", 5, 14 },
        { "A\n", 5, 14 },
        { "\n", 0, 14 },
        { "\r", 0, 7 },
        /* Spacing between every pair: "AB" is 6 before B's right bearing; the second B adds
           (1 + 2) + (-2 + 2), then its right bearing 2: 11 */
        { "ABB", 11, 7 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgd_vector2 size = { -1, -1 };
        CHECK_OK(xgd_sprite_font_measure_string(font, cases[i].text, &size));
        CHECK_MSG(size.x == cases[i].w && size.y == cases[i].h,
                  "MeasureString(\"%s\") = (%g, %g), expected (%g, %g)", cases[i].text,
                  (double)size.x, (double)size.y, (double)cases[i].w, (double)cases[i].h);
        /* the reference agrees with the hand-derived values */
        uint32_t cp[32];
        int n = sfr_codepoints(cases[i].text, cp);
        sfr_placed placed[32];
        sfr_font rf = ref_font(false);
        xgd_vector2 ref;
        sfr_layout(&rf, cp, n, placed, 32, &ref);
        CHECK_MSG(ref.x == cases[i].w && ref.y == cases[i].h, "reference of \"%s\" disagrees",
                  cases[i].text);
    }
    /* Spacing and LineSpacing are read at each call */
    CHECK_OK(xgd_sprite_font_set_spacing(font, 3.5f));
    CHECK_OK(xgd_sprite_font_set_line_spacing(font, 10));
    xgd_vector2 size;
    CHECK_OK(xgd_sprite_font_measure_string(font, "AB\nA", &size));
    CHECK(size.x == 10.5f && size.y == 20.0f);
    /* the length overload reads exactly that many bytes (a NUL is a character) */
    CHECK_OK(xgd_sprite_font_measure_string_n(font, "AB\nA", 2, &size));
    CHECK(size.x == 10.5f && size.y == 10.0f);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}

XGD_TEST(SpriteFont_MissingCharactersAndUtf8)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev);
    xgd_sprite_font *font = make_font(t, dev);
    REQUIRE(font);
    xgd_vector2 size = { -1, -1 };
    /* no default character: ARGUMENT naming the character */
    CHECK_RESULT(xgd_sprite_font_measure_string(font, "AZ", &size), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "U+005A") != NULL, "message: %s",
              xgd_device_last_error(dev));
    CHECK(size.x == 0 && size.y == 0);
    CHECK_RESULT(xgd_sprite_font_measure_string(font, "A\xC3\xA9", &size),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "U+00E9") != NULL, "message: %s",
              xgd_device_last_error(dev));
    /* a NUL inside the length overload is a character the font lacks too */
    CHECK_RESULT(xgd_sprite_font_measure_string_n(font, "A\0B", 3, &size),
                 XGD_ERROR_INVALID_ARGUMENT);
    /* the default character stands in for it, with its own metrics */
    CHECK_RESULT(xgd_sprite_font_set_default_character(font, true, 'Z'),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_font_set_default_character(font, true, 'D'));
    xgd_vector2 with_default, direct;
    CHECK_OK(xgd_sprite_font_measure_string(font, "AZ\xE2\x82\xAC", &with_default));
    CHECK_OK(xgd_sprite_font_measure_string(font, "ADD", &direct));
    CHECK(with_default.x == direct.x && with_default.y == direct.y);
    /* invalid UTF-8 is refused even with a default character: truncated, overlong,
       surrogate, above U+10FFFF, stray continuation */
    static const char *const bad[] = { "A\xC3", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80",
                                       "\xF4\x90\x80\x80", "\x80", "\xF8\x88\x80\x80\x80" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RESULT(xgd_sprite_font_measure_string(font, bad[i], &size),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_MSG(strstr(xgd_device_last_error(dev), "UTF-8") != NULL, "case %zu: %s", i,
                  xgd_device_last_error(dev));
    }
    /* clearing the default brings the error back */
    CHECK_OK(xgd_sprite_font_set_default_character(font, false, 0));
    CHECK_RESULT(xgd_sprite_font_measure_string(font, "AZ", &size), XGD_ERROR_INVALID_ARGUMENT);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}

XGD_TEST(SpriteFont_CreateContracts)
{
    xgd_device *dev = unit_device(t);
    REQUIRE(dev);
    uint8_t rgba[AW * AH * 4];
    make_atlas(rgba);
    xgd_texture *tex = xgdt_image_texture(t, dev, AW, AH, rgba);
    REQUIRE(tex);
    xgd_sprite_font *font = (xgd_sprite_font *)(uintptr_t)1;
    xgd_sprite_font_desc d = font_desc(tex);
    d.take_texture = false;
    CHECK_RESULT(xgd_sprite_font_create(dev, NULL, &font), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(font == NULL);
    CHECK_RESULT(xgd_sprite_font_create(dev, &d, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_sprite_font_desc bad = d;
    bad.texture = NULL;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    xgd_rect outside[4];
    memcpy(outside, FONT_GLYPHS, sizeof outside);
    outside[2].width = 12; /* 5 + 12 > 16 */
    bad = d;
    bad.glyphs = outside;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    uint32_t dup[4] = { 'A', 'B', 'A', 'D' };
    bad = d;
    bad.characters = dup;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "U+0041") != NULL);
    bad = d;
    bad.has_default_character = true;
    bad.default_character = 'Q';
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    xgd_vector3 nan_kerning[4];
    memcpy(nan_kerning, FONT_KERNING, sizeof nan_kerning);
    nan_kerning[1].z = NAN;
    bad = d;
    bad.kerning = nan_kerning;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    bad = d;
    bad.glyph_count = -1;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);
    bad = d;
    bad.cropping = NULL;
    CHECK_RESULT(xgd_sprite_font_create(dev, &bad, &font), XGD_ERROR_INVALID_ARGUMENT);

    /* characters in any order; getters return what was given */
    uint32_t order[4] = { 'D', 'B', 'C', 'A' };
    d.characters = order;
    d.has_default_character = true;
    d.default_character = 'C';
    REQUIRE_OK(xgd_sprite_font_create(dev, &d, &font));
    xgd_sprite_font_info info;
    CHECK_OK(xgd_sprite_font_get_info(font, &info));
    CHECK(info.texture == tex);
    CHECK_INT(info.glyph_count, 4);
    CHECK_INT(info.line_spacing, FONT_LINE_SPACING);
    CHECK(info.spacing == FONT_SPACING);
    CHECK(info.has_default_character && info.default_character == 'C');
    uint32_t chars[8];
    int count = 0;
    CHECK_OK(xgd_sprite_font_get_characters(font, NULL, 0, &count));
    CHECK_INT(count, 4);
    CHECK_OK(xgd_sprite_font_get_characters(font, chars, 8, &count));
    CHECK(memcmp(chars, order, sizeof order) == 0);
    xgd_sprite_font_glyph g;
    CHECK_OK(xgd_sprite_font_get_glyph(font, 1, &g));
    CHECK(g.character == 'B' && g.glyph.x == 3 && g.cropping.x == 1 && g.kerning.x == -2);
    CHECK_RESULT(xgd_sprite_font_get_glyph(font, 4, &g), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    /* lookup follows the given order: 'D' is index 0, drawn with glyph 0's data */
    xgd_vector2 size;
    CHECK_OK(xgd_sprite_font_measure_string(font, "D", &size));
    CHECK(size.x == 5 && size.y == 7);
    CHECK_RESULT(xgd_sprite_font_set_spacing(font, INFINITY), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_font_get_info(font, &info));
    CHECK(info.spacing == FONT_SPACING);
    CHECK_RESULT(xgd_sprite_font_set_default_character(font, true, 'Z'),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_font_get_info(font, &info));
    CHECK(info.default_character == 'C');

    /* not owned: destroying the font leaves the texture */
    xgd_sprite_font_destroy(font);
    xgd_texture_info ti;
    CHECK_OK(xgd_texture_get_info(tex, &ti));
    /* a stale handle answers OBJECT_DISPOSED everywhere; destroy again is harmless */
    CHECK_RESULT(xgd_sprite_font_get_info(font, &info), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_font_measure_string(font, "A", &size), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_font_set_line_spacing(font, 3), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_font_destroy(font);
    /* a handle of another type is INVALID_ARGUMENT */
    CHECK_RESULT(xgd_sprite_font_get_info((xgd_sprite_font *)(void *)tex, &info),
                 XGD_ERROR_INVALID_ARGUMENT);

    /* owned: the font destroys the texture with itself */
    d = font_desc(tex);
    REQUIRE_OK(xgd_sprite_font_create(dev, &d, &font));
    xgd_sprite_font_destroy(font);
    CHECK_RESULT(xgd_texture_get_info(tex, &ti), XGD_ERROR_OBJECT_DISPOSED);

    /* another device's texture, and another device's font in DrawString */
    xgd_device *other = unit_device(t);
    REQUIRE(other);
    xgd_texture *other_tex = xgdt_image_texture(t, other, AW, AH, rgba);
    REQUIRE(other_tex);
    d = font_desc(other_tex);
    CHECK_RESULT(xgd_sprite_font_create(dev, &d, &font), XGD_ERROR_INVALID_OPERATION);
    REQUIRE_OK(xgd_sprite_font_create(other, &d, &font));
    xgd_sprite_batch *batch;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "A", NULL),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_sprite_batch_end(batch));
    xgd_sprite_batch_destroy(batch);
    /* the device's destroy turns the font into a shell */
    xgd_device_destroy(other);
    CHECK_RESULT(xgd_sprite_font_get_info(font, &info), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}

/* ---- DrawString fixtures ------------------------------------------------------------------- */

static const xgd_color CLEAR = { 12, 24, 36, 255 };

static uint8_t *clear_image(void)
{
    uint8_t *img = malloc((size_t)FW * FH * 4);
    if (img)
        for (int i = 0; i < FW * FH; i++) memcpy(&img[i * 4], &CLEAR, 4);
    return img;
}

/* Adds one DrawString of `text` to the expected image (font with or without default). */
static void expect_string(uint8_t *img, const char *text, bool with_default, const sfr_draw *d)
{
    uint8_t atlas[AW * AH * 4];
    make_atlas(atlas);
    sfr_font f = ref_font(with_default);
    uint32_t cp[64];
    int n = sfr_codepoints(text, cp);
    sfr_placed placed[64];
    xgd_vector2 block;
    int count = sfr_layout(&f, cp, n, placed, 64, &block);
    if (count > 0) sfr_paint(img, FW, FH, &f, atlas, AW, placed, count, block, d);
}

static xgd_draw_string_params to_params(const sfr_draw *d, float depth)
{
    xgd_draw_string_params p = XGD_DRAW_STRING_INIT;
    p.position = d->position;
    p.origin = d->origin;
    p.scale = d->scale;
    p.rotation = sfr_rotation(d->quarter_turns);
    p.effects = d->effects;
    p.color = d->color;
    p.layer_depth = depth;
    return p;
}

static void check_frame(xgdt_ctx *t, xgd_device *dev, const char *label, const uint8_t *expected,
                        int tolerance)
{
    uint8_t *actual = NULL;
    if (!xgdt_read_back_buffer(t, dev, FW, FH, &actual)) return;
    xgdt_compare_rgba(t, label, actual, expected, FW, FH, tolerance);
    free(actual);
}

/* '\n', '\r', bearings, spacing, cropping and the default character, at scale 1 with the
 * default LinearClamp sampler (texel-exact at whole-pixel positions), under both pixel-centre
 * conventions. */
XGD_FIXTURE(SpriteFont_DrawString_Layout)
{
    const xgd_pixel_center centers[2] = { XGD_PIXEL_CENTER_XNA, XGD_PIXEL_CENTER_D3D10 };
    for (int ci = 0; ci < 2; ci++) {
        xgd_device *dev = fx_device_centers(t, FW, FH, XGD_DEPTH_FORMAT_NONE, 0, centers[ci]);
        REQUIRE(dev);
        xgd_sprite_font *font = make_font(t, dev);
        REQUIRE(font);
        xgd_sprite_batch *batch;
        REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
        CHECK_OK(xgd_clear_color(dev, CLEAR));
        CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
        const sfr_draw a = { { 3, 5 }, { 0, 0 }, { 1, 1 }, 0, 0, XGD_COLOR_WHITE };
        xgd_draw_string_params p = to_params(&a, 0);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "AB\nCA\nBBCA", &p));
        /* '\r' draws nothing and moves nothing */
        const sfr_draw b = { { 40, 4 }, { 0, 0 }, { 1, 1 }, 0, 0, XGD_COLOR_WHITE };
        p = to_params(&b, 0);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "A\rB\r\nC", &p));
        /* the short overload: position and white */
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "CAB", NULL));
        CHECK_OK(xgd_sprite_batch_end(batch));
        /* the default character draws in place of missing ones */
        CHECK_OK(xgd_sprite_font_set_default_character(font, true, 'D'));
        CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
        const sfr_draw c = { { 20, 40 }, { 0, 0 }, { 1, 1 }, 0, 0, XGD_COLOR_WHITE };
        p = to_params(&c, 0);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "A\xE2\x82\xACZ\nzB", &p));
        CHECK_OK(xgd_sprite_batch_end(batch));

        uint8_t *expected = clear_image();
        REQUIRE(expected);
        expect_string(expected, "AB\nCA\nBBCA", false, &a);
        expect_string(expected, "A\rB\r\nC", false, &b);
        const sfr_draw origin_draw = { { 0, 0 }, { 0, 0 }, { 1, 1 }, 0, 0, XGD_COLOR_WHITE };
        expect_string(expected, "CAB", false, &origin_draw);
        expect_string(expected, "ADD\nDB", true, &c);
        check_frame(t, dev, ci == 0 ? "xna-centers" : "d3d10-centers", expected, 0);
        free(expected);
        xgd_sprite_batch_destroy(batch);
        xgd_sprite_font_destroy(font);
        xgd_device_destroy(dev);
    }
}

/* Rotation (quarter turns), origin, scale as a vector and as a float, flips, and a tint;
 * PointClamp so scaled texels stay exact. Each case is its own frame. */
XGD_FIXTURE(SpriteFont_DrawString_Transforms)
{
    xgd_device *dev = fx_device(t, FW, FH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_sprite_font *font = make_font(t, dev);
    REQUIRE(font);
    xgd_sprite_batch *batch;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    const char *text = "AB\nCAB\nB";
    static const struct {
        const char *label;
        sfr_draw d;
    } cases[] = {
        { "origin", { { 20, 20 }, { 3, 5 }, { 1, 1 }, 0, 0, { 255, 255, 255, 255 } } },
        { "scale-vector", { { 4, 6 }, { 1, 2 }, { 2, 3 }, 0, 0, { 255, 255, 255, 255 } } },
        { "scale-float", { { 5, 3 }, { 0, 0 }, { 2, 2 }, 0, 0, { 255, 255, 255, 255 } } },
        { "rotate-90", { { 40, 10 }, { 2, 1 }, { 2, 1 }, 1, 0, { 255, 255, 255, 255 } } },
        { "rotate-180", { { 50, 50 }, { 0, 0 }, { 1, 2 }, 2, 0, { 255, 255, 255, 255 } } },
        { "rotate-270", { { 10, 60 }, { 1, 1 }, { 2, 2 }, 3, 0, { 255, 255, 255, 255 } } },
        { "flip-h", { { 10, 10 }, { 2, 1 }, { 2, 2 }, 0, XGD_SPRITE_FLIP_HORIZONTALLY,
                      { 255, 255, 255, 255 } } },
        { "flip-v", { { 10, 10 }, { 0, 3 }, { 2, 2 }, 0, XGD_SPRITE_FLIP_VERTICALLY,
                      { 255, 255, 255, 255 } } },
        { "flip-both-rotated", { { 40, 30 }, { 4, 2 }, { 2, 2 }, 1,
                                 XGD_SPRITE_FLIP_HORIZONTALLY | XGD_SPRITE_FLIP_VERTICALLY,
                                 { 255, 255, 255, 255 } } },
        { "tint", { { 7, 9 }, { 0, 0 }, { 1, 1 }, 0, 0, { 255, 0, 255, 255 } } },
    };
    xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
    sd.filter = XGD_FILTER_POINT;
    sd.address_u = sd.address_v = XGD_ADDRESS_CLAMP;
    xgd_sampler_state *point = fx_sampler(t, dev, &sd);
    REQUIRE(point);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(xgd_clear_color(dev, CLEAR));
        xgd_sprite_batch_begin_desc bd = { .sampler_state = point };
        CHECK_OK(xgd_sprite_batch_begin(batch, &bd));
        xgd_draw_string_params p = to_params(&cases[i].d, 0);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, text, &p));
        CHECK_OK(xgd_sprite_batch_end(batch));
        uint8_t *expected = clear_image();
        REQUIRE(expected);
        expect_string(expected, text, false, &cases[i].d);
        check_frame(t, dev, cases[i].label, expected, 0);
        free(expected);
    }
    xgd_sampler_state_destroy(point);
    xgd_sprite_batch_destroy(batch);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}

/* Every glyph of a string sorts with its layer depth: under BackToFront the string queued
 * first but nearer (depth 0.2) covers the farther one (0.8) where they overlap; Deferred keeps
 * the call order. */
XGD_FIXTURE(SpriteFont_DrawString_LayerDepth)
{
    xgd_device *dev = fx_device(t, FW, FH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_sprite_font *font = make_font(t, dev);
    REQUIRE(font);
    xgd_sprite_batch *batch;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    const sfr_draw near = { { 10, 10 }, { 0, 0 }, { 2, 2 }, 0, 0, XGD_COLOR_WHITE };
    const sfr_draw far = { { 12, 11 }, { 0, 0 }, { 2, 2 }, 0, 0, XGD_COLOR_WHITE };
    xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
    sd.filter = XGD_FILTER_POINT;
    xgd_sampler_state *point = fx_sampler(t, dev, &sd);
    REQUIRE(point);
    for (int mode = 0; mode < 2; mode++) {
        CHECK_OK(xgd_clear_color(dev, CLEAR));
        xgd_sprite_batch_begin_desc bd = {
            .sort_mode = mode == 0 ? XGD_SPRITE_SORT_BACK_TO_FRONT : XGD_SPRITE_SORT_DEFERRED,
            .sampler_state = point };
        CHECK_OK(xgd_sprite_batch_begin(batch, &bd));
        xgd_draw_string_params p = to_params(&near, 0.2f);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "CAB", &p));
        p = to_params(&far, 0.8f);
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, "BCA", &p));
        CHECK_OK(xgd_sprite_batch_end(batch));
        uint8_t *expected = clear_image();
        REQUIRE(expected);
        if (mode == 0) {
            expect_string(expected, "BCA", false, &far);
            expect_string(expected, "CAB", false, &near);
        } else {
            expect_string(expected, "CAB", false, &near);
            expect_string(expected, "BCA", false, &far);
        }
        check_frame(t, dev, mode == 0 ? "back-to-front" : "deferred", expected, 0);
        free(expected);
    }
    xgd_sampler_state_destroy(point);
    xgd_sprite_batch_destroy(batch);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}

/* A character the font lacks, without a default character, fails the whole DrawString with
 * ARGUMENT naming it, and nothing of the string is drawn (not even the glyphs before it);
 * bad arguments fail the same way. */
XGD_FIXTURE(SpriteFont_DrawString_Refused)
{
    xgd_device *dev = fx_device(t, FW, FH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_sprite_font *font = make_font(t, dev);
    REQUIRE(font);
    xgd_sprite_batch *batch;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "A", NULL),
                 XGD_ERROR_INVALID_OPERATION); /* no Begin */
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "ABxC", NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "U+0078") != NULL, "message: %s",
              xgd_device_last_error(dev));
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "AB\xFF", NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, NULL, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, NULL, "A", NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_draw_string_params p = XGD_DRAW_STRING_INIT;
    p.rotation = NAN;
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "AB", &p),
                 XGD_ERROR_INVALID_ARGUMENT);
    p = (xgd_draw_string_params)XGD_DRAW_STRING_INIT;
    p.effects = (xgd_sprite_effects)4;
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "AB", &p),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_batch_end(batch));
    uint8_t *expected = clear_image();
    REQUIRE(expected);
    check_frame(t, dev, "nothing-drawn", expected, 0);
    free(expected);
    /* a destroyed font answers OBJECT_DISPOSED */
    xgd_sprite_font_destroy(font);
    CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
    CHECK_RESULT(xgd_sprite_batch_draw_string(batch, font, "A", NULL), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_sprite_batch_end(batch));
    xgd_sprite_batch_destroy(batch);
    xgd_device_destroy(dev);
}
