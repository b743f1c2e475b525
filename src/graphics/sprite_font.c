/*
 * sprite_font.c - XNA 4.0 SpriteFont, MeasureString and SpriteBatch.DrawString.
 *
 * A font is its glyph texture (a public handle) and four arrays copied at creation, plus a
 * copy of the characters sorted with their indices so that a lookup is a binary search, as
 * XNA's CharacterMap is. DrawString decodes and resolves the whole string before it queues
 * the first glyph, so bad text (invalid UTF-8, a character the font lacks with no default
 * character) fails without drawing anything; each glyph then goes through the public
 * xgd_sprite_batch_draw as one sprite, as XNA's DrawString calls SpriteBatch.Draw.
 *
 * XNA's layout (SpriteFont.InternalMeasure / InternalDraw):
 *   - '\r' is skipped; '\n' moves to the next line (LineSpacing lower) and back to x 0.
 *   - per glyph with kerning (A, B, C): on the first glyph of a line A is clamped to >= 0;
 *     otherwise Spacing is added first. The pen moves by A, the glyph is drawn at
 *     pen + Cropping.X, line top + Cropping.Y, then the pen moves by B + C.
 *   - MeasureString's width is the widest line, each line ending with max(C, 0) of its last
 *     glyph; its height is LineSpacing for every line break plus, for the last line, the
 *     largest of LineSpacing and the Cropping.Height of its glyphs.
 *   - flips mirror the text block, whose size is MeasureString's: a glyph box (x, y, w, h)
 *     moves to (W - x - w, y) horizontally and (x, H - y - h) vertically, and the glyph's own
 *     texels flip with the sprite effects. Origin is taken in that mirrored block.
 *   - the glyph at block point p (scaled) lands at position + rotate(p - origin * scale) and is
 *     drawn with origin 0 and the call's rotation, scale, effects and depth.
 */
#include "xgd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CODE_POINT 0x10FFFFu
#define MAX_GLYPHS ((int)MAX_CODE_POINT + 1)

/* Resolved text: a glyph index, or one of these. */
enum { ITEM_NEWLINE = -1, ITEM_SKIP = -2 };

typedef struct char_index {
    uint32_t character;
    int32_t index;
} char_index;

struct xgd_sprite_font {
    xgd_texture *texture;             /* public handle */
    bool owns_texture;
    int count;
    xgd_rect *glyphs;
    xgd_rect *cropping;
    uint32_t *characters;             /* creation order */
    xgd_vector3 *kerning;
    char_index *sorted;               /* by character */
    int line_spacing;
    float spacing;
    bool has_default;
    uint32_t default_character;
    int default_index;
};

/* ---- lifetime ------------------------------------------------------------------------------ */

/* A font holds nothing of the device but its texture's handle, which answers for itself once
 * the device is gone: no device-destroyed step. */
static const xgd_resource_class font_class = { "sprite font", NULL };

static int compare_char_index(const void *a, const void *b)
{
    uint32_t x = ((const char_index *)a)->character, y = ((const char_index *)b)->character;
    return x < y ? -1 : x > y;
}

static int find_index(const xgd_sprite_font *f, uint32_t c)
{
    int lo = 0, hi = f->count - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        uint32_t m = f->sorted[mid].character;
        if (m == c) return f->sorted[mid].index;
        if (m < c) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static void free_font(xgd_sprite_font *f)
{
    free(f->glyphs);
    free(f->cropping);
    free(f->characters);
    free(f->kerning);
    free(f->sorted);
    free(f);
}

static bool rect_inside(const xgd_rect *r, int w, int h)
{
    return r->width >= 0 && r->height >= 0 && r->x >= 0 && r->y >= 0 && r->x <= w &&
           r->y <= h && r->width <= w - r->x && r->height <= h - r->y;
}

xgd_result xgd_sprite_font_create(xgd_device *device, const xgd_sprite_font_desc *desc,
                                  xgd_sprite_font **out)
{
    if (out != NULL) *out = NULL;
    xgd_device_info di;
    xgd_result r = xgd_device_get_info(device, &di); /* NULL or destroyed: named there */
    if (r != XGD_OK) return r;
    if (desc == NULL || out == NULL)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         desc == NULL ? "desc" : "out");
    if (desc->texture == NULL)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "the font's texture is NULL");
    r = xgd_resource_check(device, desc->texture, XGD_RESOURCE_TEXTURE, "the font's texture");
    if (r != XGD_OK) return r;
    xgd_texture_info ti;
    r = xgd_texture_get_info(desc->texture, &ti);
    if (r != XGD_OK) return r;
    if (ti.kind != XGD_TEXTURE_2D && ti.kind != XGD_RENDER_TARGET_2D)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                         "the font's texture must be a Texture2D");
    int n = desc->glyph_count;
    if (n < 0 || n > MAX_GLYPHS)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                         "glyph_count %d is outside 0..%d", n, MAX_GLYPHS);
    if (n > 0 && (desc->glyphs == NULL || desc->cropping == NULL || desc->characters == NULL ||
                  desc->kerning == NULL))
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                         "glyphs, cropping, characters and kerning must all be given");
    if (!isfinite(desc->spacing))
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "spacing is not finite");
    for (int i = 0; i < n; i++) {
        const xgd_rect *g = &desc->glyphs[i], *c = &desc->cropping[i];
        const xgd_vector3 *k = &desc->kerning[i];
        if (!rect_inside(g, ti.width, ti.height))
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "glyph %d (%d, %d, %d x %d) is not inside the %d x %d texture", i,
                             g->x, g->y, g->width, g->height, ti.width, ti.height);
        if (c->width < 0 || c->height < 0)
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "cropping %d has a negative size", i);
        if (!isfinite(k->x) || !isfinite(k->y) || !isfinite(k->z))
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "kerning %d is not finite", i);
        if (desc->characters[i] > MAX_CODE_POINT)
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "character %d (0x%lX) is above U+10FFFF", i,
                             (unsigned long)desc->characters[i]);
    }

    xgd_sprite_font *f = calloc(1, sizeof *f);
    if (f == NULL) return xgd_device_report_error(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t m = n > 0 ? (size_t)n : 1;
    f->glyphs = malloc(m * sizeof *f->glyphs);
    f->cropping = malloc(m * sizeof *f->cropping);
    f->characters = malloc(m * sizeof *f->characters);
    f->kerning = malloc(m * sizeof *f->kerning);
    f->sorted = malloc(m * sizeof *f->sorted);
    if (!f->glyphs || !f->cropping || !f->characters || !f->kerning || !f->sorted) {
        free_font(f);
        return xgd_device_report_error(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory copying the font");
    }
    if (n > 0) {
        memcpy(f->glyphs, desc->glyphs, (size_t)n * sizeof *f->glyphs);
        memcpy(f->cropping, desc->cropping, (size_t)n * sizeof *f->cropping);
        memcpy(f->characters, desc->characters, (size_t)n * sizeof *f->characters);
        memcpy(f->kerning, desc->kerning, (size_t)n * sizeof *f->kerning);
    }
    for (int i = 0; i < n; i++) {
        f->sorted[i].character = f->characters[i];
        f->sorted[i].index = i;
    }
    if (n > 1) qsort(f->sorted, (size_t)n, sizeof *f->sorted, compare_char_index);
    for (int i = 1; i < n; i++) {
        if (f->sorted[i].character == f->sorted[i - 1].character) {
            uint32_t c = f->sorted[i].character;
            free_font(f);
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "character U+%04lX appears twice in the font", (unsigned long)c);
        }
    }
    f->count = n;
    f->line_spacing = desc->line_spacing;
    f->spacing = desc->spacing;
    f->default_index = -1;
    if (desc->has_default_character) {
        f->default_index = find_index(f, desc->default_character);
        if (f->default_index < 0) {
            free_font(f);
            return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                             "the default character U+%04lX is not in the font",
                             (unsigned long)desc->default_character);
        }
        f->has_default = true;
        f->default_character = desc->default_character;
    }
    f->texture = desc->texture;
    void *handle = NULL;
    r = xgd_resource_register(device, &font_class, f, &handle);
    if (r != XGD_OK) {
        free_font(f);
        return r;
    }
    /* Ownership passes only now that nothing can fail. */
    f->owns_texture = desc->take_texture;
    *out = handle;
    return XGD_OK;
}

void xgd_sprite_font_destroy(xgd_sprite_font *font)
{
    font = xgd_resource_unregister(font, &font_class);
    if (font == NULL) return;
    if (font->owns_texture) xgd_texture_destroy(font->texture);
    free_font(font);
}

/* The font behind a handle, its device alive; the variable then holds the object. device
 * NULL accepts the font's own device, else the font must be on it. */
#define RESOLVE_FONT(device, font, dev)                                                          \
    do {                                                                                         \
        xgd_result resolve_r_ = xgd_resource_resolve((device), (font), &font_class, NULL,        \
                                                     (void **)&(font), &(dev));                  \
        if (resolve_r_ != XGD_OK) return resolve_r_;                                             \
    } while (0)

/* ---- properties ---------------------------------------------------------------------------- */

xgd_result xgd_sprite_font_get_info(xgd_sprite_font *font, xgd_sprite_font_info *out)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    out->texture = font->texture;
    out->glyph_count = font->count;
    out->line_spacing = font->line_spacing;
    out->spacing = font->spacing;
    out->has_default_character = font->has_default;
    out->default_character = font->has_default ? font->default_character : 0;
    return XGD_OK;
}

xgd_result xgd_sprite_font_get_glyph(xgd_sprite_font *font, int index, xgd_sprite_font_glyph *out)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (index < 0 || index >= font->count)
        return xgd_device_report_error(dev, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                         "glyph index %d is outside 0..%d", index, font->count - 1);
    out->character = font->characters[index];
    out->glyph = font->glyphs[index];
    out->cropping = font->cropping[index];
    out->kerning = font->kerning[index];
    return XGD_OK;
}

xgd_result xgd_sprite_font_get_characters(xgd_sprite_font *font, uint32_t *out, int capacity,
                                          int *count)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    if (count == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "count is NULL");
    if (capacity < 0 || (out == NULL && capacity > 0))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "out is NULL or capacity negative");
    int k = capacity < font->count ? capacity : font->count;
    if (k > 0) memcpy(out, font->characters, (size_t)k * sizeof *out);
    *count = font->count;
    return XGD_OK;
}

xgd_result xgd_sprite_font_set_line_spacing(xgd_sprite_font *font, int line_spacing)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    font->line_spacing = line_spacing;
    return XGD_OK;
}

xgd_result xgd_sprite_font_set_spacing(xgd_sprite_font *font, float spacing)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    if (!isfinite(spacing))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "spacing is not finite");
    font->spacing = spacing;
    return XGD_OK;
}

xgd_result xgd_sprite_font_set_default_character(xgd_sprite_font *font, bool has,
                                                 uint32_t character)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    if (!has) {
        font->has_default = false;
        font->default_character = 0;
        font->default_index = -1;
        return XGD_OK;
    }
    int index = find_index(font, character);
    if (index < 0)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "the default character U+%04lX is not in the font",
                         (unsigned long)character);
    font->has_default = true;
    font->default_character = character;
    font->default_index = index;
    return XGD_OK;
}

/* ---- text ---------------------------------------------------------------------------------- */

/* One code point of strict UTF-8 (no overlong forms, surrogates or values above U+10FFFF) at
 * s[*pos], advancing *pos; false for invalid or truncated input. */
static bool utf8_next(const unsigned char *s, size_t len, size_t *pos, uint32_t *cp)
{
    size_t i = *pos;
    unsigned c = s[i];
    if (c < 0x80) {
        *cp = c;
        *pos = i + 1;
        return true;
    }
    int extra;
    uint32_t v, min;
    if (c >= 0xC2 && c <= 0xDF) { extra = 1; v = c & 0x1F; min = 0x80; }
    else if (c >= 0xE0 && c <= 0xEF) { extra = 2; v = c & 0x0F; min = 0x800; }
    else if (c >= 0xF0 && c <= 0xF4) { extra = 3; v = c & 0x07; min = 0x10000; }
    else return false;
    if (len - i <= (size_t)extra) return false;
    for (int k = 1; k <= extra; k++) {
        unsigned b = s[i + (size_t)k];
        if ((b & 0xC0) != 0x80) return false;
        v = v << 6 | (b & 0x3F);
    }
    if (v < min || v > MAX_CODE_POINT || (v >= 0xD800 && v <= 0xDFFF)) return false;
    *cp = v;
    *pos = i + (size_t)extra + 1;
    return true;
}

/* Decodes and resolves text into items (glyph indices, ITEM_NEWLINE, ITEM_SKIP), malloc'd in
 * *items (NULL when the text is empty), or fails naming the byte or the character. */
static xgd_result resolve_text(const xgd_sprite_font *f, xgd_device *dev, const char *text,
                               size_t length, int32_t **items, size_t *count)
{
    *items = NULL;
    *count = 0;
    if (length == 0) return XGD_OK;
    int32_t *out = malloc(length * sizeof *out);
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory decoding text");
    const unsigned char *s = (const unsigned char *)text;
    size_t pos = 0, n = 0;
    while (pos < length) {
        uint32_t cp;
        size_t at = pos;
        if (!utf8_next(s, length, &pos, &cp)) {
            free(out);
            return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "text is not valid UTF-8 (byte %llu: 0x%02X)",
                             (unsigned long long)at, s[at]);
        }
        int32_t item;
        if (cp == '\r') item = ITEM_SKIP;
        else if (cp == '\n') item = ITEM_NEWLINE;
        else {
            item = find_index(f, cp);
            if (item < 0) {
                if (!f->has_default) {
                    free(out);
                    return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                     "text contains U+%04lX, which the font lacks and the font "
                                     "has no default character (byte %llu)",
                                     (unsigned long)cp, (unsigned long long)at);
                }
                item = f->default_index;
            }
        }
        out[n++] = item;
    }
    *items = out;
    *count = n;
    return XGD_OK;
}

/* XNA's InternalMeasure over resolved items. */
static xgd_vector2 measure_items(const xgd_sprite_font *f, const int32_t *items, size_t n)
{
    xgd_vector2 zero = { 0.0f, 0.0f };
    if (n == 0) return zero;
    float line_x = 0.0f, line_y = (float)f->line_spacing, widest = 0.0f, right = 0.0f;
    int breaks = 0;
    bool first = true;
    for (size_t i = 0; i < n; i++) {
        int32_t it = items[i];
        if (it == ITEM_SKIP) continue;
        if (it == ITEM_NEWLINE) {
            line_x += fmaxf(right, 0.0f);
            right = 0.0f;
            widest = fmaxf(line_x, widest);
            line_x = 0.0f;
            line_y = (float)f->line_spacing;
            first = true;
            breaks++;
            continue;
        }
        xgd_vector3 k = f->kerning[it];
        if (first) k.x = fmaxf(k.x, 0.0f);
        else line_x += f->spacing + right;
        line_x += k.x + k.y;
        right = k.z;
        line_y = fmaxf(line_y, (float)f->cropping[it].height);
        first = false;
    }
    line_x += fmaxf(right, 0.0f);
    xgd_vector2 size = { fmaxf(line_x, widest), line_y + (float)breaks * (float)f->line_spacing };
    return size;
}

xgd_result xgd_sprite_font_measure_string_n(xgd_sprite_font *font, const char *text,
                                            size_t length, xgd_vector2 *out)
{
    xgd_device *dev = NULL;
    RESOLVE_FONT(NULL, font, dev);
    xgd_result r = XGD_OK;
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    out->x = out->y = 0.0f;
    if (text == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "text is NULL");
    int32_t *items;
    size_t n;
    r = resolve_text(font, dev, text, length, &items, &n);
    if (r != XGD_OK) return r;
    *out = measure_items(font, items, n);
    free(items);
    return XGD_OK;
}

xgd_result xgd_sprite_font_measure_string(xgd_sprite_font *font, const char *text,
                                          xgd_vector2 *out)
{
    return xgd_sprite_font_measure_string_n(font, text, text != NULL ? strlen(text) : 0, out);
}

/* ---- DrawString ---------------------------------------------------------------------------- */

static bool finite2(xgd_vector2 v) { return isfinite(v.x) && isfinite(v.y); }

xgd_result xgd_sprite_batch_draw_string_n(xgd_sprite_batch *batch, xgd_sprite_font *font,
                                          const char *text, size_t length,
                                          const xgd_draw_string_params *params)
{
    xgd_device *dev = NULL;
    xgd_result r = xgd_sprite_batch_get_device(batch, &dev);
    if (r != XGD_OK) return r;
    RESOLVE_FONT(dev, font, dev);
    if (text == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "text is NULL");
    xgd_draw_string_params p;
    if (params != NULL) {
        p = *params;
    } else {
        memset(&p, 0, sizeof p);
        p.color = XGD_COLOR_WHITE;
        p.scale.x = p.scale.y = 1.0f;
    }
    if (!finite2(p.position) || !finite2(p.origin) || !finite2(p.scale) ||
        !isfinite(p.rotation) || !isfinite(p.layer_depth))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "draw string params are not finite");
    if (((unsigned)p.effects & ~3u) != 0)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown sprite effects 0x%x",
                         (unsigned)p.effects);

    int32_t *items;
    size_t n;
    r = resolve_text(font, dev, text, length, &items, &n);
    if (r != XGD_OK) return r;

    bool flip_h = (p.effects & XGD_SPRITE_FLIP_HORIZONTALLY) != 0;
    bool flip_v = (p.effects & XGD_SPRITE_FLIP_VERTICALLY) != 0;
    xgd_vector2 block = { 0.0f, 0.0f };
    if (flip_h || flip_v) block = measure_items(font, items, n);
    float c = 1.0f, s = 0.0f;
    if (p.rotation != 0.0f) {
        c = cosf(p.rotation);
        s = sinf(p.rotation);
    }
    xgd_sprite sprite = XGD_SPRITE_INIT;
    sprite.color = p.color;
    sprite.rotation = p.rotation;
    sprite.scale = p.scale;
    sprite.effects = p.effects;
    sprite.layer_depth = p.layer_depth;
    float pen = 0.0f, line_top = 0.0f;
    bool first = true;
    for (size_t i = 0; i < n && r == XGD_OK; i++) {
        int32_t it = items[i];
        if (it == ITEM_SKIP) continue;
        if (it == ITEM_NEWLINE) {
            pen = 0.0f;
            line_top += (float)font->line_spacing;
            first = true;
            continue;
        }
        xgd_vector3 k = font->kerning[it];
        if (first) k.x = fmaxf(k.x, 0.0f);
        else pen += font->spacing;
        pen += k.x;
        const xgd_rect *g = &font->glyphs[it];
        float x = pen + (float)font->cropping[it].x;
        float y = line_top + (float)font->cropping[it].y;
        if (flip_h) x = block.x - x - (float)g->width;
        if (flip_v) y = block.y - y - (float)g->height;
        float lx = (x - p.origin.x) * p.scale.x, ly = (y - p.origin.y) * p.scale.y;
        sprite.position.x = p.position.x + lx * c - ly * s;
        sprite.position.y = p.position.y + lx * s + ly * c;
        sprite.source = g;
        r = xgd_sprite_batch_draw(batch, font->texture, &sprite);
        first = false;
        pen += k.y + k.z;
    }
    free(items);
    return r;
}

xgd_result xgd_sprite_batch_draw_string(xgd_sprite_batch *batch, xgd_sprite_font *font,
                                        const char *text, const xgd_draw_string_params *params)
{
    return xgd_sprite_batch_draw_string_n(batch, font, text, text != NULL ? strlen(text) : 0,
                                          params);
}
