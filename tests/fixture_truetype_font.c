/*
 * fixture_truetype_font.c - SpriteFonts built at run time from a TrueType file.
 *
 * The font is DejaVu Sans from Debian's fonts-dejavu-core (Bitstream Vera licence, free to
 * redistribute; the package is in the Makefile's DEPS), at XGD_TEST_TTF when set. The tests
 * read the file's own tables (head, hhea, hmtx, cmap format 12) with the small big-endian
 * reader below, not through stb_truetype, to derive what XNA's rules give: LineSpacing from
 * the vertical metrics, each glyph's advance (left bearing + width + right bearing) from its
 * hmtx advance, and the DrawString pixels from the font's own texture read back and placed by
 * the reference layout (sprite_font_ref.h). The texture must be XNA's premultiplied white.
 */
#include "harness.h"
#include "fixture_util.h"
#include "sprite_font_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEJAVU "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

static const char *ttf_path(void)
{
    const char *p = getenv("XGD_TEST_TTF");
    return p != NULL && *p ? p : DEJAVU;
}

static uint8_t *read_file(xgdt_ctx *t, const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__,
                     "cannot open %s (Debian: fonts-dejavu-core; or set XGD_TEST_TTF)", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(n > 0 ? (size_t)n : 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) {
        free(d);
        d = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return d;
}

/* ---- the file's own tables ----------------------------------------------------------------- */

static unsigned be16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t table(const uint8_t *d, const char *tag)
{
    unsigned n = be16(d + 4);
    for (unsigned i = 0; i < n; i++)
        if (memcmp(d + 12 + 16 * i, tag, 4) == 0) return be32(d + 12 + 16 * i + 8);
    return 0;
}

/* glyph index through the cmap's format 12 subtable (0: none) */
static unsigned glyph_of(const uint8_t *d, uint32_t c)
{
    uint32_t cmap = table(d, "cmap");
    unsigned records = be16(d + cmap + 2);
    for (unsigned i = 0; i < records; i++) {
        const uint8_t *s = d + cmap + be32(d + cmap + 4 + 8 * i + 4);
        if (be16(s) != 12) continue;
        uint32_t groups = be32(s + 12);
        for (uint32_t g = 0; g < groups; g++) {
            const uint8_t *e = s + 16 + 12 * g;
            if (c >= be32(e) && c <= be32(e + 4)) return be32(e + 8) + (c - be32(e));
        }
        return 0;
    }
    return 0;
}

static unsigned advance_of(const uint8_t *d, unsigned glyph)
{
    unsigned long_metrics = be16(d + table(d, "hhea") + 34);
    if (glyph >= long_metrics) glyph = long_metrics - 1;
    return be16(d + table(d, "hmtx") + 4 * glyph);
}

/* XNA's Size is points at 96 DPI: the em is size * 4 / 3 pixels. */
static float em_scale(const uint8_t *d, float points)
{
    return points * 96.0f / 72.0f / (float)be16(d + table(d, "head") + 18);
}

/* Without stb_truetype a font answers NOT_SUPPORTED naming it, and the tests of TrueType fonts
 * are not supported; frees data and destroys dev then. */
static bool truetype_or_skip(xgdt_ctx *t, xgd_device *dev, uint8_t *data, size_t size)
{
#ifdef XGD_TEST_HAVE_TRUETYPE
    (void)t;
    (void)dev;
    (void)data;
    (void)size;
    return true;
#else
    xgd_truetype_font_desc td = { .size = 12 };
    xgd_sprite_font *font = NULL;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &td, &font),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK(font == NULL);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "stb_truetype") != NULL, "message: %s",
              xgd_device_last_error(dev));
    free(data);
    xgd_device_destroy(dev);
    xgdt_not_supported(t, "built without stb_truetype (XGD_TRUETYPE=OFF)");
    return false;
#endif
}

static const xgd_char_range RANGES[] = { { 0x20, 0x7E }, { 0xE9, 0xE9 }, { 0x4E00, 0x4E00 } };

static xgd_sprite_font *build(xgdt_ctx *t, xgd_device *dev, const uint8_t *data, size_t size,
                              float points)
{
    xgd_truetype_font_desc td = { .size = points, .ranges = RANGES, .range_count = 3 };
    xgd_sprite_font *font = NULL;
    xgd_result r = xgd_sprite_font_from_truetype_memory(dev, data, size, &td, &font);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "from_truetype_memory returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return font;
}

/* The font's data copied out for the reference. */
typedef struct font_copy {
    sfr_font ref;
    xgd_rect *glyphs, *cropping;
    uint32_t *characters;
    xgd_vector3 *kerning;
    uint8_t *atlas;
    int aw, ah;
} font_copy;

static bool copy_font(xgdt_ctx *t, xgd_sprite_font *font, font_copy *c)
{
    memset(c, 0, sizeof *c);
    xgd_sprite_font_info info;
    if (xgd_sprite_font_get_info(font, &info) != XGD_OK) return false;
    int n = info.glyph_count;
    c->glyphs = calloc((size_t)n, sizeof *c->glyphs);
    c->cropping = calloc((size_t)n, sizeof *c->cropping);
    c->characters = calloc((size_t)n, sizeof *c->characters);
    c->kerning = calloc((size_t)n, sizeof *c->kerning);
    if (!c->glyphs || !c->cropping || !c->characters || !c->kerning) return false;
    for (int i = 0; i < n; i++) {
        xgd_sprite_font_glyph g;
        if (xgd_sprite_font_get_glyph(font, i, &g) != XGD_OK) return false;
        c->glyphs[i] = g.glyph;
        c->cropping[i] = g.cropping;
        c->characters[i] = g.character;
        c->kerning[i] = g.kerning;
    }
    xgd_texture_info ti;
    if (xgd_texture_get_info(info.texture, &ti) != XGD_OK) return false;
    c->aw = ti.width;
    c->ah = ti.height;
    if (!xgdt_read_texture(t, info.texture, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, ti.width, ti.height,
                           &c->atlas))
        return false;
    sfr_font f = { n, c->glyphs, c->cropping, c->characters, c->kerning, info.line_spacing,
                   info.spacing, -1 };
    c->ref = f;
    return true;
}

static void free_copy(font_copy *c)
{
    free(c->glyphs);
    free(c->cropping);
    free(c->characters);
    free(c->kerning);
    free(c->atlas);
}

/* ---- the built font ------------------------------------------------------------------------ */

XGD_TEST(TrueType_BuildsXnaFont)
{
    size_t size = 0;
    uint8_t *data = read_file(t, ttf_path(), &size);
    REQUIRE(data);
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    if (!truetype_or_skip(t, dev, data, size)) return;
    xgd_sprite_font *font = build(t, dev, data, size, 12.0f);
    if (font == NULL) {
        free(data);
        xgd_device_destroy(dev);
        return;
    }
    font_copy c;
    REQUIRE(copy_font(t, font, &c));
    float scale = em_scale(data, 12.0f);
    const uint8_t *hhea = data + table(data, "hhea");
    int ascent = (int16_t)be16(hhea + 4), descent = (int16_t)be16(hhea + 6),
        gap = (int16_t)be16(hhea + 8);
    int asc_px = (int)ceilf((float)ascent * scale);
    CHECK_INT(c.ref.line_spacing,
              asc_px + (int)ceilf((float)-descent * scale) + (int)lroundf((float)gap * scale));
    /* every code point the file maps, in code point order; U+4E00 is not in DejaVu Sans */
    int expected_count = 0;
    for (int r = 0; r < 3; r++)
        for (uint32_t ch = RANGES[r].first; ch <= RANGES[r].last; ch++)
            if (glyph_of(data, ch) != 0) {
                CHECK_MSG(expected_count < c.ref.count && c.characters[expected_count] == ch,
                          "character %d is not U+%04X", expected_count, (unsigned)ch);
                expected_count++;
            }
    CHECK_INT(c.ref.count, expected_count);
    CHECK_INT(expected_count, 96);
    for (int i = 0; i < c.ref.count; i++) {
        /* left bearing + width + right bearing = the hmtx advance, in whole pixels */
        xgd_vector3 k = c.kerning[i];
        long adv = lroundf((float)advance_of(data, glyph_of(data, c.characters[i])) * scale);
        CHECK_MSG(k.x + k.y + k.z == (float)adv && k.y == (float)c.glyphs[i].width,
                  "U+%04X: kerning (%g, %g, %g), glyph width %d, advance %ld",
                  (unsigned)c.characters[i], (double)k.x, (double)k.y, (double)k.z,
                  c.glyphs[i].width, adv);
        CHECK_MSG(c.cropping[i].x == 0 && c.cropping[i].height == c.ref.line_spacing,
                  "U+%04X: cropping", (unsigned)c.characters[i]);
    }
    /* premultiplied white: r = g = b = a everywhere; each glyph has a transparent border
       (no neighbour bleeds in under linear filtering) and some full coverage */
    int bad = 0;
    for (int i = 0; i < c.aw * c.ah; i++) {
        const uint8_t *p = &c.atlas[i * 4];
        if (p[0] != p[3] || p[1] != p[3] || p[2] != p[3]) bad++;
    }
    CHECK_INT(bad, 0);
    for (int i = 0; i < c.ref.count; i++) {
        const xgd_rect *g = &c.glyphs[i];
        if (g->width == 0) continue;
        int border = 0, peak = 0;
        for (int y = g->y - 1; y <= g->y + g->height; y++)
            for (int x = g->x - 1; x <= g->x + g->width; x++) {
                if (x < 0 || y < 0 || x >= c.aw || y >= c.ah) continue;
                uint8_t a = c.atlas[((size_t)y * c.aw + x) * 4 + 3];
                bool edge = x < g->x || y < g->y || x >= g->x + g->width || y >= g->y + g->height;
                if (edge) border += a;
                else if (a > peak) peak = a;
            }
        CHECK_MSG(border == 0 && peak > 128, "U+%04X: border %d, peak %d",
                  (unsigned)c.characters[i], border, peak);
    }
    /* a space is an empty glyph that still advances */
    xgd_vector2 size_space, size_x, size_xx;
    CHECK_OK(xgd_sprite_font_measure_string(font, "x x", &size_space));
    CHECK_OK(xgd_sprite_font_measure_string(font, "xx", &size_x));
    CHECK_OK(xgd_sprite_font_measure_string(font, "x", &size_xx));
    CHECK(size_space.x > size_x.x);
    free_copy(&c);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
    free(data);
}

XGD_TEST(TrueType_RefusesBadInput)
{
    size_t size = 0;
    uint8_t *data = read_file(t, ttf_path(), &size);
    REQUIRE(data);
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    if (!truetype_or_skip(t, dev, data, size)) return;
    xgd_sprite_font *font = (xgd_sprite_font *)(uintptr_t)1;
    xgd_truetype_font_desc td = { .size = 12 };
    CHECK_RESULT(xgd_sprite_font_from_truetype_file(dev, "/nonexistent/font.ttf", &td, &font),
                 XGD_ERROR_IO);
    CHECK(font == NULL);
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, NULL, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_truetype_font_desc bad = td;
    bad.size = 0;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    bad.size = NAN;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    const xgd_char_range backwards = { 0x7E, 0x20 }, beyond = { 0x20, 0x110000 };
    bad = td;
    bad.ranges = &backwards;
    bad.range_count = 1;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    bad.ranges = &beyond;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    /* a default character the font lacks */
    bad = td;
    bad.ranges = RANGES;
    bad.range_count = 3;
    bad.has_default_character = true;
    bad.default_character = 0x4E00;
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(dev), "U+4E00") != NULL);
    /* ... and one it has */
    bad.default_character = '?';
    CHECK_OK(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font));
    xgd_vector2 a, b;
    CHECK_OK(xgd_sprite_font_measure_string(font, "A\xE4\xB8\x80", &a));
    CHECK_OK(xgd_sprite_font_measure_string(font, "A?", &b));
    CHECK(a.x == b.x && a.y == b.y);
    xgd_sprite_font_destroy(font);
    /* not a font, and truncated fonts: the table directory and tables checked against the
       data's size */
    uint8_t junk[64];
    for (int i = 0; i < 64; i++) junk[i] = (uint8_t)(i * 37);
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, junk, sizeof junk, &td, &font),
                 XGD_ERROR_INVALID_ARGUMENT);
    static const size_t cuts[] = { 0, 11, 12, 100, 300, 5000, 100000 };
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        uint8_t *part = malloc(cuts[i] + 1);
        REQUIRE(part);
        memcpy(part, data, cuts[i]);
        CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, part, cuts[i], &td, &font),
                     XGD_ERROR_INVALID_ARGUMENT);
        free(part);
    }
    /* CFF outlines (no glyf table; here the glyf table renamed "CFF ") are NOT_SUPPORTED
       unless the caller trusts the file, before stb_truetype reads any of it */
    uint8_t *cff = malloc(size);
    REQUIRE(cff);
    memcpy(cff, data, size);
    unsigned tables = be16(cff + 4);
    for (unsigned i = 0; i < tables; i++)
        if (memcmp(cff + 12 + 16 * i, "glyf", 4) == 0) memcpy(cff + 12 + 16 * i, "CFF ", 4);
    CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, cff, size, &td, &font),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK(strstr(xgd_device_last_error(dev), "allow_cff_outlines") != NULL);
    free(cff);
    /* a real CFF font builds when declared trusted (where fonts-urw-base35 is installed) */
    const char *otf = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf";
    FILE *probe = fopen(otf, "rb");
    if (probe != NULL) {
        fclose(probe);
        CHECK_RESULT(xgd_sprite_font_from_truetype_file(dev, otf, &td, &font),
                     XGD_ERROR_NOT_SUPPORTED);
        xgd_truetype_font_desc trusted = td;
        trusted.allow_cff_outlines = true;
        CHECK_OK(xgd_sprite_font_from_truetype_file(dev, otf, &trusted, &font));
        xgd_sprite_font_info info;
        CHECK_OK(xgd_sprite_font_get_info(font, &info));
        CHECK_INT(info.glyph_count, 95);
        xgd_sprite_font_destroy(font);
    }
    /* a composite glyph that includes itself (stb_truetype would recurse until the stack
       overflows): the glyph of U+00E9 made to name itself as its first component */
    unsigned g = glyph_of(data, 0xE9);
    const uint8_t *head = data + table(data, "head");
    uint32_t loca = table(data, "loca"), glyf = table(data, "glyf");
    uint32_t off = be16(head + 50) ? be32(data + loca + 4 * g) : 2u * be16(data + loca + 2 * g);
    uint8_t *glyph = data + glyf + off;
    if ((int16_t)be16(glyph) < 0) {
        glyph[12] = (uint8_t)(g >> 8);
        glyph[13] = (uint8_t)g;
        bad = td;
        bad.ranges = &RANGES[1];
        bad.range_count = 1;
        CHECK_RESULT(xgd_sprite_font_from_truetype_memory(dev, data, size, &bad, &font),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_MSG(strstr(xgd_device_last_error(dev), "U+00E9") != NULL, "message: %s",
                  xgd_device_last_error(dev));
    } else {
        xgdt_fail_at(t, __FILE__, __LINE__, "U+00E9 is not a composite glyph in this font");
    }
    xgd_device_destroy(dev);
    free(data);
}

/* ---- DrawString with the built font -------------------------------------------------------- */

enum { TW = 128, TH = 64 };

XGD_FIXTURE(TrueType_DrawString)
{
    size_t size = 0;
    uint8_t *data = read_file(t, ttf_path(), &size);
    REQUIRE(data);
    xgd_device *dev = fx_device(t, TW, TH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    if (!truetype_or_skip(t, dev, data, size)) return;
    xgd_sprite_font *font = build(t, dev, data, size, 11.0f);
    free(data);
    REQUIRE(font);
    CHECK_OK(xgd_sprite_font_set_spacing(font, 1.0f));
    font_copy c;
    REQUIRE(copy_font(t, font, &c));
    xgd_sprite_batch *batch;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    const xgd_color clear = { 10, 20, 70, 255 };
    static const char *const texts[2] = { "Hello, xgd! \xC3\xA9\r\n(Wavy) fj", "AVAT\nT.y" };
    const sfr_draw draws[2] = {
        { { 3, 2 }, { 0, 0 }, { 1, 1 }, 0, 0, { 255, 255, 255, 255 } },
        { { 70, 30 }, { 0, 0 }, { 1, 1 }, 0, XGD_SPRITE_FLIP_VERTICALLY, { 255, 160, 0, 255 } },
    };
    CHECK_OK(xgd_clear_color(dev, clear));
    CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
    for (int i = 0; i < 2; i++) {
        xgd_draw_string_params p = XGD_DRAW_STRING_INIT;
        p.position = draws[i].position;
        p.color = draws[i].color;
        p.effects = draws[i].effects;
        CHECK_OK(xgd_sprite_batch_draw_string(batch, font, texts[i], &p));
    }
    CHECK_OK(xgd_sprite_batch_end(batch));

    uint8_t *expected = malloc((size_t)TW * TH * 4);
    REQUIRE(expected);
    for (int i = 0; i < TW * TH; i++) memcpy(&expected[i * 4], &clear, 4);
    for (int i = 0; i < 2; i++) {
        /* UTF-8 to code points: the texts hold ASCII and U+00E9 */
        uint32_t cp[64];
        int n = 0;
        for (const unsigned char *s = (const unsigned char *)texts[i]; *s; s++) {
            if (*s == 0xC3) {
                cp[n++] = 0xC0u | (s[1] & 0x3Fu);
                s++;
            } else {
                cp[n++] = *s;
            }
        }
        sfr_placed placed[64];
        xgd_vector2 block;
        int count = sfr_layout(&c.ref, cp, n, placed, 64, &block);
        CHECK(count > 0);
        xgd_vector2 measured;
        CHECK_OK(xgd_sprite_font_measure_string(font, texts[i], &measured));
        CHECK_MSG(measured.x == block.x && measured.y == block.y,
                  "MeasureString (%g, %g), reference (%g, %g)", (double)measured.x,
                  (double)measured.y, (double)block.x, (double)block.y);
        sfr_paint(expected, TW, TH, &c.ref, c.atlas, c.aw, placed, count, block, &draws[i]);
    }
    uint8_t *actual = NULL;
    if (xgdt_read_back_buffer(t, dev, TW, TH, &actual)) {
        /* one step of rounding per blend */
        xgdt_compare_rgba(t, "text", actual, expected, TW, TH, 2);
        free(actual);
    }
    free(expected);
    free_copy(&c);
    xgd_sprite_batch_destroy(batch);
    xgd_sprite_font_destroy(font);
    xgd_device_destroy(dev);
}
