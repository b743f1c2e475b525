/*
 * sprite_font_ref.h - an independent reference of XNA's SpriteFont rules for the font tests:
 * layout (which glyph lands where in the text block, and the block's size) and a rasterizer
 * that maps each pixel centre back into the block (inverse rotation, scale, origin and the
 * flips' mirror) and reads the glyph texel found there. The library places glyphs forwards
 * (one sprite per glyph); this goes backwards from pixels, so the two share no arithmetic.
 *
 * XNA's rules: '\r' is skipped, '\n' starts a line LineSpacing lower at x 0. Per glyph with
 * kerning (A, B, C): the first glyph of a line takes max(A, 0), the others add Spacing then
 * A; the glyph sits at pen + Cropping.X, line top + Cropping.Y; the pen then moves B + C.
 * Size: widest line (plus max(C, 0) of its last glyph) by LineSpacing per break plus, for the
 * last line, max(LineSpacing, tallest Cropping.Height on it). Flips mirror the block.
 */
#ifndef XGD_SPRITE_FONT_REF_H
#define XGD_SPRITE_FONT_REF_H

#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sfr_font {
    int count;
    const xgd_rect *glyphs, *cropping;
    const uint32_t *characters;
    const xgd_vector3 *kerning;
    int line_spacing;
    float spacing;
    int default_index;           /* -1: none */
} sfr_font;

typedef struct sfr_placed {
    int glyph;                   /* index into the font */
    float x, y;                  /* glyph top-left in the unflipped text block */
} sfr_placed;

static inline int sfr_find(const sfr_font *f, uint32_t c)
{
    for (int i = 0; i < f->count; i++)
        if (f->characters[i] == c) return i;
    return f->default_index;
}

/* Text given as code points (the tests use ASCII and a few escapes). Returns the number of
 * glyphs placed into out (capacity cap), -1 for a character without glyph; *size = the
 * block's size. */
static inline int sfr_layout(const sfr_font *f, const uint32_t *text, int len, sfr_placed *out,
                             int cap, xgd_vector2 *size)
{
    int n = 0, lines = 1;
    float pen = 0, widest = 0, last_right = 0, last_h = (float)f->line_spacing;
    bool line_has_glyph = false;
    for (int i = 0; i < len; i++) {
        uint32_t c = text[i];
        if (c == '\r') continue;
        if (c == '\n') {
            /* the pen is past the last glyph's C; the line ends at max(C, 0) */
            float w = pen - last_right + (last_right > 0 ? last_right : 0);
            if (w > widest) widest = w;
            pen = 0;
            last_right = 0;
            lines++;
            line_has_glyph = false;
            last_h = (float)f->line_spacing;
            continue;
        }
        int g = sfr_find(f, c);
        if (g < 0) return -1;
        xgd_vector3 k = f->kerning[g];
        float a = k.x;
        if (!line_has_glyph) a = a > 0 ? a : 0;
        else pen += f->spacing;
        pen += a;
        if (n < cap) {
            out[n].glyph = g;
            out[n].x = pen + (float)f->cropping[g].x;
            out[n].y = (float)(lines - 1) * (float)f->line_spacing + (float)f->cropping[g].y;
        }
        n++;
        pen += k.y + k.z;
        last_right = k.z;
        line_has_glyph = true;
        if ((float)f->cropping[g].height > last_h) last_h = (float)f->cropping[g].height;
    }
    float w = pen - last_right + (last_right > 0 ? last_right : 0);
    if (w > widest) widest = w;
    size->x = widest;
    size->y = (float)(lines - 1) * (float)f->line_spacing + last_h;
    bool empty = len == 0;
    if (empty) size->x = size->y = 0;
    return n;
}

static inline int sfr_codepoints(const char *ascii, uint32_t *out)
{
    int n = 0;
    for (; *ascii; ascii++) out[n++] = (unsigned char)*ascii;
    return n;
}

/* One DrawString's parameters, rotation given in quarter turns so the reference is exact. */
typedef struct sfr_draw {
    xgd_vector2 position, origin, scale;
    int quarter_turns;           /* clockwise on screen */
    xgd_sprite_effects effects;
    xgd_color color;
} sfr_draw;

static inline float sfr_rotation(int quarter_turns)
{
    return (float)quarter_turns * 1.57079632679489661923f;
}

/* Paints glyphs into img (w x h RGBA8) as premultiplied-alpha sprites: every pixel whose
 * centre maps into a glyph takes texel * color (channels / 255) over the pixel,
 * src + dst * (1 - src.a), glyphs in the order given. atlas: the font texture (aw wide). */
static inline void sfr_paint(uint8_t *img, int w, int h, const sfr_font *f, const uint8_t *atlas,
                             int aw, const sfr_placed *placed, int n, xgd_vector2 block,
                             const sfr_draw *d)
{
    static const int cs[4] = { 1, 0, -1, 0 }, sn[4] = { 0, 1, 0, -1 };
    int q = ((d->quarter_turns % 4) + 4) % 4;
    float c = (float)cs[q], s = (float)sn[q];
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            float dx = (float)i + 0.5f - d->position.x, dy = (float)j + 0.5f - d->position.y;
            /* inverse of x' = x c - y s, y' = x s + y c */
            float rx = dx * c + dy * s, ry = -dx * s + dy * c;
            float ux = rx / d->scale.x + d->origin.x, uy = ry / d->scale.y + d->origin.y;
            if (d->effects & XGD_SPRITE_FLIP_HORIZONTALLY) ux = block.x - ux;
            if (d->effects & XGD_SPRITE_FLIP_VERTICALLY) uy = block.y - uy;
            for (int g = 0; g < n; g++) {
                const xgd_rect *r = &f->glyphs[placed[g].glyph];
                float lx = ux - placed[g].x, ly = uy - placed[g].y;
                if (!(lx >= 0 && ly >= 0 && lx < (float)r->width && ly < (float)r->height))
                    continue;
                int tx = r->x + (int)floorf(lx), ty = r->y + (int)floorf(ly);
                const uint8_t *t = &atlas[((size_t)ty * aw + tx) * 4];
                uint8_t *p = &img[((size_t)j * w + i) * 4];
                const uint8_t tint[4] = { d->color.r, d->color.g, d->color.b, d->color.a };
                double src[4], a;
                for (int k = 0; k < 4; k++) src[k] = t[k] / 255.0 * (tint[k] / 255.0);
                a = src[3];
                for (int k = 0; k < 4; k++) {
                    double v = src[k] * 255.0 + p[k] * (1.0 - a);
                    p[k] = (uint8_t)(v + 0.5 > 255 ? 255 : v + 0.5);
                }
            }
        }
}

#endif
