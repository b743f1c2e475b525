/*
 * truetype.c - SpriteFonts built at run time from TrueType / OpenType data (stb_truetype).
 *
 * XNA's content pipeline turns a font description (font, size, character regions, spacing,
 * default character) into a SpriteFont whose texture holds white glyphs, premultiplied. This
 * does the same at run time: stb_truetype (Debian's libstb-dev, compiled here with
 * STBTT_STATIC so nothing of it is exported) rasterizes each glyph's 8-bit coverage, and the
 * metrics become XNA's per-glyph kerning (left bearing, width, right bearing) and cropping.
 *
 * stb_truetype reads the font through offsets it finds in the data, without knowing the
 * data's size. Before any stbtt call, check_font() validates what stbtt will follow for the
 * glyphs asked for: the table directory, the lengths of head, hhea, maxp, hmtx, loca and
 * cmap, loca's offsets against glyf, the cmap subtables' declared extents, and each
 * TrueType glyph's outline (point arrays inside the glyph, composite references with a
 * bounded depth, so a glyph that includes itself is refused), and every cmap format 4 lookup
 * is replayed with bounds before stbtt makes it. CFF outlines are not validated: they are
 * refused unless the caller declares the file trusted (allow_cff_outlines).
 */
#include "xgd.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef XGD_NO_STB_TRUETYPE
#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
/* The library never aborts: stb_truetype's asserts (unimplemented cases, rasterizer
   invariants a hostile outline can break) must not stop the host in a debug build. */
#define STBTT_assert(x) ((void)0)
/* STBTT_STATIC makes the whole library static here, including the functions xgd never calls. */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_truetype.h>
#endif

#define MAX_ATLAS 4096            /* the largest Texture2D of HiDef */
#define MAX_SIZE_POINTS 1000.0f
#define MAX_RANGES 4096
#define CODE_POINTS 0x110000u
#define MAX_FILE_BYTES (256u * 1024u * 1024u)
#define MAX_COMPOSITE_DEPTH 8
#define MAX_EMS 8.0f              /* the largest glyph bitmap, in ems */

#ifndef XGD_NO_STB_TRUETYPE

/* ---- reading the font's own structure ------------------------------------------------------ */

typedef struct sfnt {
    const uint8_t *d;
    size_t size;
    uint32_t start;
    uint32_t cmap, cmap_len, head, head_len, hhea, hhea_len, hmtx, hmtx_len, maxp, maxp_len;
    uint32_t loca, loca_len, glyf, glyf_len, cff;
    unsigned num_glyphs, long_metrics;
    int loca_format;
    unsigned budget;              /* composite components still allowed to be checked */
} sfnt;

static unsigned u16(const uint8_t *p) { return (unsigned)p[0] << 8 | p[1]; }
static uint32_t u32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* true when [off, off + len) lies inside the data */
static bool inside(const sfnt *f, uint64_t off, uint64_t len)
{
    return off <= f->size && len <= f->size - off;
}

static const char *check_tables(sfnt *f, int font_index)
{
    if (f->size < 12) return "the data is too short for a font";
    uint32_t start = 0;
    if (memcmp(f->d, "ttcf", 4) == 0) {
        uint32_t n = u32(f->d + 8);
        if (font_index < 0 || (uint32_t)font_index >= n) return "font_index is not in the collection";
        if (!inside(f, 12 + 4 * (uint64_t)font_index, 4)) return "the collection header is truncated";
        start = u32(f->d + 12 + 4 * (size_t)font_index);
    } else if (font_index != 0) {
        return "font_index is not 0 and the data is not a collection";
    }
    if (!inside(f, start, 12)) return "the font's table directory is outside the data";
    const uint8_t *dir = f->d + start;
    uint32_t tag = u32(dir);
    if (tag != 0x00010000u && tag != 0x4F54544Fu /* OTTO */ && tag != 0x74727565u /* true */ &&
        tag != 0x31000000u /* '1' */)
        return "the data is not a TrueType or OpenType font";
    unsigned tables = u16(dir + 4);
    if (!inside(f, (uint64_t)start + 12, 16 * (uint64_t)tables)) return "the table directory is truncated";
    f->start = start;
    for (unsigned i = 0; i < tables; i++) {
        const uint8_t *e = dir + 12 + 16 * i;
        uint32_t off = u32(e + 8), len = u32(e + 12);
        if (!inside(f, off, len)) return "a table lies outside the data";
        /* stbtt takes the first table of each tag */
#define TABLE(name, field)                                                                          \
        if (memcmp(e, name, 4) == 0 && f->field == 0) { f->field = off; f->field##_len = len; continue; }
        TABLE("cmap", cmap)
        TABLE("head", head)
        TABLE("hhea", hhea)
        TABLE("hmtx", hmtx)
        TABLE("maxp", maxp)
        TABLE("loca", loca)
        TABLE("glyf", glyf)
#undef TABLE
        if (memcmp(e, "CFF ", 4) == 0 && f->cff == 0) f->cff = off;
    }
    /* stbtt treats offset 0 as "absent" too */
    if (!f->cmap || !f->head || !f->hhea || !f->hmtx || !f->maxp)
        return "the font lacks one of the cmap, head, hhea, hmtx and maxp tables";
    if (f->head_len < 54 || f->hhea_len < 36 || f->maxp_len < 6 || f->cmap_len < 4)
        return "the head, hhea, maxp or cmap table is truncated";
    /* the scale divides by unitsPerEm; the format allows 16..16384 */
    unsigned units_per_em = u16(f->d + f->head + 18);
    if (units_per_em < 16 || units_per_em > 16384) return "unitsPerEm is outside 16..16384";
    f->num_glyphs = u16(f->d + f->maxp + 4);
    f->long_metrics = u16(f->d + f->hhea + 34);
    if (f->long_metrics == 0) return "hhea declares no horizontal metrics";
    uint64_t hmtx_need = 4 * (uint64_t)f->long_metrics;
    if (f->num_glyphs > f->long_metrics) hmtx_need += 2 * (uint64_t)(f->num_glyphs - f->long_metrics);
    if (f->hmtx_len < hmtx_need) return "the hmtx table is shorter than its glyphs need";
    f->loca_format = (int)u16(f->d + f->head + 50);
    if (f->glyf) {
        if (!f->loca) return "the font has glyf but no loca table";
        if (f->loca_format > 1) return "the head table's loca format is unknown";
        uint64_t entry = f->loca_format ? 4 : 2;
        if (f->loca_len < entry * ((uint64_t)f->num_glyphs + 1)) return "the loca table is truncated";
        for (unsigned g = 0; g < f->num_glyphs; g++) {
            const uint8_t *l = f->d + f->loca + entry * g;
            uint64_t a = f->loca_format ? u32(l) : 2 * (uint64_t)u16(l);
            uint64_t b = f->loca_format ? u32(l + 4) : 2 * (uint64_t)u16(l + 2);
            if (a > b || b > f->glyf_len) return "a glyph's loca offsets lie outside glyf";
        }
    } else if (!f->cff) {
        return "the font has neither glyf nor CFF outlines";
    }
    /* cmap: every encoding record, and the declared extent of its subtable */
    unsigned records = u16(f->d + f->cmap + 2);
    if ((uint64_t)4 + 8 * (uint64_t)records > f->cmap_len) return "the cmap table is truncated";
    for (unsigned i = 0; i < records; i++) {
        uint32_t off = u32(f->d + f->cmap + 4 + 8 * i + 4);
        if ((uint64_t)off + 8 > f->cmap_len) return "a cmap subtable lies outside cmap";
        const uint8_t *s = f->d + f->cmap + off;
        unsigned format = u16(s);
        uint64_t len = format >= 8 ? u32(s + 4) : u16(s + 2);
        if ((uint64_t)off + len > f->cmap_len) return "a cmap subtable is longer than cmap";
        uint64_t need = 0;
        if (format == 0) need = 6 + 256;
        else if (format == 4) {
            /* four arrays of segCountX2 bytes after a 16-byte header; stbtt's binary search
               steps by searchRange and rangeShift, which must stay within them */
            unsigned seg2 = len >= 14 ? u16(s + 6) : 0;
            need = 16 + 4 * (uint64_t)seg2;
            if (len >= 14 && (u16(s + 8) > seg2 || u16(s + 12) > seg2))
                return "a cmap format 4 subtable's search fields exceed its segments";
        }
        else if (format == 6) need = len >= 10 ? 10 + 2 * (uint64_t)u16(s + 8) : 10;
        else if (format == 12 || format == 13) need = len >= 16 ? 16 + 12 * (uint64_t)u32(s + 12) : 16;
        if (need > len) return "a cmap subtable is shorter than it declares";
    }
    return NULL;
}

/* stb_truetype's format 4 lookup of code point cp in the subtable at im, replayed with its own
 * integer types: true when every read it makes lies inside the cmap table (the search fields
 * were checked against the segments, but a segment's idRangeOffset can point anywhere). */
static bool cmap4_lookup_inside(const sfnt *f, uint32_t im, uint32_t cp)
{
    const uint8_t *d = f->d;
    uint64_t lo = f->cmap, hi = (uint64_t)f->cmap + f->cmap_len;
#define READ_OK(addr) ((uint64_t)(addr) >= lo && (uint64_t)(addr) + 2 <= hi)
    if (cp > 0xFFFF) return true;
    uint16_t segcount = (uint16_t)(u16(d + im + 6) >> 1);
    uint16_t search_range = (uint16_t)(u16(d + im + 8) >> 1);
    uint16_t entry_selector = (uint16_t)u16(d + im + 10);
    uint16_t range_shift = (uint16_t)(u16(d + im + 12) >> 1);
    uint32_t end_count = im + 14, search = end_count;
    if (!READ_OK(search + range_shift * 2u)) return false;
    if (cp >= u16(d + search + range_shift * 2u)) search += range_shift * 2u;
    search -= 2;
    while (entry_selector) {
        search_range >>= 1;
        if (!READ_OK(search + search_range * 2u)) return false;
        if (cp > u16(d + search + search_range * 2u)) search += search_range * 2u;
        --entry_selector;
    }
    search += 2;
    uint16_t item = (uint16_t)((search - end_count) >> 1);
    uint64_t start_at = (uint64_t)im + 14 + segcount * 2u + 2 + 2u * item;
    uint64_t last_at = (uint64_t)end_count + 2u * item;
    if (!READ_OK(start_at) || !READ_OK(last_at)) return false;
    unsigned start = u16(d + start_at), last = u16(d + last_at);
    if (cp < start || cp > last) return true;
    uint64_t offset_at = (uint64_t)im + 14 + segcount * 6u + 2 + 2u * item;
    if (!READ_OK(offset_at)) return false;
    unsigned offset = u16(d + offset_at);
    if (offset == 0) return READ_OK((uint64_t)im + 14 + segcount * 4u + 2 + 2u * item);
    return READ_OK((uint64_t)offset + (cp - start) * 2u + offset_at);
#undef READ_OK
}

/* The points of a simple glyph from its flags and coordinate deltas, decoded as stb_truetype
 * decodes them (32-bit sums stored as 16 bits): the largest |x| or |y| met. */
static int32_t simple_extent(const uint8_t *p, uint64_t flags_at, uint64_t coords_at,
                             uint64_t points, int axis)
{
    unsigned short_bit = axis == 0 ? 2 : 4, same_bit = axis == 0 ? 16 : 32;
    int32_t v = 0, extent = 0;
    uint64_t at = flags_at, n = 0;
    while (n < points) {
        unsigned flag = p[at++];
        uint64_t repeat = 1;
        if (flag & 8) repeat += p[at++];
        for (; repeat > 0 && n < points; repeat--, n++) {
            if (flag & short_bit) {
                int32_t d = p[coords_at++];
                v += (flag & same_bit) ? d : -d;
            } else if (!(flag & same_bit)) {
                v += (int16_t)u16(p + coords_at);
                coords_at += 2;
            }
            int32_t stored = (int16_t)(uint16_t)(v & 0xFFFF);
            int32_t mag = stored < 0 ? -stored : stored;
            if (mag > extent) extent = mag;
        }
    }
    return extent;
}

/* A TrueType glyph's outline lies inside its glyf range, and the points stb_truetype makes of
 * it fit its 16-bit vertices: composites (checked to a bounded depth, so a glyph that includes
 * itself is refused) place their components by offsets, and scale them, within that range.
 * *extent: the largest |coordinate| of the glyph's points. */
static const char *check_glyph(sfnt *f, unsigned g, int depth, float *extent)
{
    *extent = 0;
    if (!f->glyf || g >= f->num_glyphs) return NULL;
    uint64_t entry = f->loca_format ? 4 : 2;
    const uint8_t *l = f->d + f->loca + entry * g;
    uint64_t a = f->loca_format ? u32(l) : 2 * (uint64_t)u16(l);
    uint64_t b = f->loca_format ? u32(l + 4) : 2 * (uint64_t)u16(l + 2);
    if (a == b) return NULL;
    if (b - a < 10) return "a glyph is shorter than its header";
    const uint8_t *p = f->d + f->glyf + a;
    uint64_t len = b - a;
    int contours = (int16_t)u16(p);
    if (contours > 0) {
        uint64_t at = 10 + 2 * (uint64_t)contours;
        if (at + 2 > len) return "a glyph's contour ends lie outside it";
        unsigned prev = 0;
        for (int c = 0; c < contours; c++) {
            unsigned e = u16(p + 10 + 2 * c);
            if (c > 0 && e <= prev) return "a glyph's contour ends do not increase";
            prev = e;
        }
        uint64_t points = (uint64_t)prev + 1;
        at += 2 + u16(p + at);
        uint64_t flags_at = at, xbytes = 0, ybytes = 0;
        unsigned flag = 0;
        for (uint64_t n = 0; n < points;) {
            if (at >= len) return "a glyph's flags lie outside it";
            flag = p[at++];
            uint64_t repeat = 1;
            if (flag & 8) {
                if (at >= len) return "a glyph's flags lie outside it";
                repeat += p[at++];
            }
            if (repeat > points - n) repeat = points - n;
            xbytes += repeat * ((flag & 2) ? 1 : (flag & 16) ? 0 : 2);
            ybytes += repeat * ((flag & 4) ? 1 : (flag & 32) ? 0 : 2);
            n += repeat;
        }
        if (at + xbytes + ybytes > len) return "a glyph's coordinates lie outside it";
        /* stb_truetype starts a contour that begins off the curve by looking at the point after
           its first: for a one-point last contour that is one past its vertex array */
        unsigned before_last = contours > 1 ? u16(p + 10 + 2 * (contours - 2)) + 1u : 0;
        if (before_last == prev && !(flag & 1))
            return "a glyph's last contour is a single point off the curve";
        int32_t ex = simple_extent(p, flags_at, at, points, 0);
        int32_t ey = simple_extent(p, flags_at, at + xbytes, points, 1);
        *extent = (float)(ex > ey ? ex : ey);
    } else if (contours < 0) {
        if (depth >= MAX_COMPOSITE_DEPTH) return "composite glyphs nest too deeply (or in a cycle)";
        uint64_t at = 10;
        for (;;) {
            if (f->budget == 0) return "the composite glyphs have too many components";
            f->budget--;
            if (at + 4 > len) return "a composite glyph's component lies outside it";
            unsigned flags = u16(p + at), component = u16(p + at + 2);
            /* stb_truetype places components by x/y offsets only (flag 2), never by matching
               points */
            if (!(flags & 2)) return "a composite glyph places a component by matching points";
            uint64_t size = 4 + ((flags & 1) ? 4 : 2);
            if (flags & 8) size += 2;
            else if (flags & 64) size += 4;
            else if (flags & 128) size += 8;
            if (at + size > len) return "a composite glyph's component lies outside it";
            const uint8_t *arg = p + at + 4;
            float dx = (flags & 1) ? (float)(int16_t)u16(arg) : (float)(int8_t)arg[0];
            float dy = (flags & 1) ? (float)(int16_t)u16(arg + 2) : (float)(int8_t)arg[1];
            const uint8_t *t = arg + ((flags & 1) ? 4 : 2);
            float m[4] = { 1, 0, 0, 1 };
            if (flags & 8) {
                m[0] = m[3] = (float)(int16_t)u16(t) / 16384.0f;
            } else if (flags & 64) {
                m[0] = (float)(int16_t)u16(t) / 16384.0f;
                m[3] = (float)(int16_t)u16(t + 2) / 16384.0f;
            } else if (flags & 128) {
                for (int k = 0; k < 4; k++) m[k] = (float)(int16_t)u16(t + 2 * k) / 16384.0f;
            }
            float inner;
            const char *why = check_glyph(f, component, depth + 1, &inner);
            if (why != NULL) return why;
            /* stb_truetype: x' = |(m0, m1)| (m0 x + m2 y + dx), y' = |(m2, m3)| (m1 x + m3 y + dy),
               stored in 16 bits */
            float sx = sqrtf(m[0] * m[0] + m[1] * m[1]), sy = sqrtf(m[2] * m[2] + m[3] * m[3]);
            float bx = sx * ((fabsf(m[0]) + fabsf(m[2])) * inner + fabsf(dx));
            float by = sy * ((fabsf(m[1]) + fabsf(m[3])) * inner + fabsf(dy));
            if (bx > 32767.0f || by > 32767.0f)
                return "a composite glyph moves or scales a component beyond 16-bit coordinates";
            if (bx > *extent) *extent = bx;
            if (by > *extent) *extent = by;
            at += size;
            if (!(flags & 32)) break;
        }
    }
    return NULL;
}

#endif

/* ---- building ------------------------------------------------------------------------------ */

typedef struct built_glyph {
    uint32_t character;
    int glyph;                    /* the font's glyph index */
    int x0, y0, w, h;             /* bitmap box: offset from the pen on the baseline, size */
    int advance;
} built_glyph;

static xgd_result build(xgd_device *dev, const uint8_t *data, size_t size,
                        const xgd_truetype_font_desc *desc, xgd_sprite_font **out);

xgd_result xgd_sprite_font_from_truetype_memory(xgd_device *device, const void *data, size_t size,
                                                const xgd_truetype_font_desc *desc,
                                                xgd_sprite_font **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgd_device_check_status(device);
    if (r != XGD_OK) return r;
    if (data == NULL || desc == NULL || out == NULL)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         data == NULL ? "data" : desc == NULL ? "desc" : "out");
    return build(device, data, size, desc, out);
}

xgd_result xgd_sprite_font_from_truetype_file(xgd_device *device, const char *path,
                                              const xgd_truetype_font_desc *desc,
                                              xgd_sprite_font **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgd_device_check_status(device);
    if (r != XGD_OK) return r;
    if (path == NULL || desc == NULL || out == NULL)
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         path == NULL ? "path" : desc == NULL ? "desc" : "out");
    FILE *file = fopen(path, "rb");
    if (file == NULL) return xgd_device_report_error(device, XGD_ERROR_IO, "cannot open font file %s", path);
    long end = -1;
    if (fseek(file, 0, SEEK_END) == 0) end = ftell(file);
    if (end < 0 || fseek(file, 0, SEEK_SET) != 0) {
        fclose(file);
        return xgd_device_report_error(device, XGD_ERROR_IO, "cannot read font file %s", path);
    }
    if ((unsigned long)end > MAX_FILE_BYTES) {
        fclose(file);
        return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT,
                         "font file %s is %ld bytes, more than a font may be (%u)", path, end,
                         MAX_FILE_BYTES);
    }
    uint8_t *bytes = malloc(end > 0 ? (size_t)end : 1);
    if (bytes == NULL) {
        fclose(file);
        return xgd_device_report_error(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory reading %s", path);
    }
    size_t got = fread(bytes, 1, (size_t)end, file);
    fclose(file);
    if (got != (size_t)end) {
        free(bytes);
        return xgd_device_report_error(device, XGD_ERROR_IO, "cannot read font file %s", path);
    }
    r = build(device, bytes, got, desc, out);
    free(bytes);
    return r;
}

#ifdef XGD_NO_STB_TRUETYPE

static xgd_result build(xgd_device *dev, const uint8_t *data, size_t size,
                        const xgd_truetype_font_desc *desc, xgd_sprite_font **out)
{
    (void)data;
    (void)size;
    (void)desc;
    (void)out;
    return xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED,
                     "xgd was built without stb_truetype (libstb-dev): no TrueType fonts");
}

#else

static xgd_result build(xgd_device *dev, const uint8_t *data, size_t size,
                        const xgd_truetype_font_desc *desc, xgd_sprite_font **out)
{
    static const xgd_char_range ascii = { 0x20, 0x7E };
    const xgd_char_range *ranges = desc->ranges;
    int range_count = desc->range_count;
    if (ranges == NULL || range_count == 0) {
        ranges = &ascii;
        range_count = 1;
    }
    if (!(desc->size > 0.0f && desc->size <= MAX_SIZE_POINTS))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "size %g is outside (0, %g] points",
                         (double)desc->size, (double)MAX_SIZE_POINTS);
    if (range_count < 0 || range_count > MAX_RANGES)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "range_count %d is outside 0..%d",
                         range_count, MAX_RANGES);
    for (int i = 0; i < range_count; i++) {
        if (ranges[i].first > ranges[i].last || ranges[i].last >= CODE_POINTS)
            return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "range %d (U+%04lX..U+%04lX) is empty or beyond U+10FFFF", i,
                             (unsigned long)ranges[i].first, (unsigned long)ranges[i].last);
    }
    if (!isfinite(desc->spacing))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "spacing is not finite");
    if (size > INT_MAX)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "the font data is too large");

    sfnt f;
    memset(&f, 0, sizeof f);
    f.d = data;
    f.size = size;
    f.budget = 1u << 20;
    const char *why = check_tables(&f, desc->font_index);
    if (why != NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "not a usable font: %s", why);
    /* stb_truetype reads CFF through a buffer it sizes at 512 MB, whatever the data holds */
    if (!f.glyf && !desc->allow_cff_outlines)
        return xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED,
                         "the font has CFF outlines, which stb_truetype reads without bounds "
                         "checks: set allow_cff_outlines for a trusted file");
    stbtt_fontinfo info;
    if (!stbtt_InitFont(&info, data, (int)f.start))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "not a usable font: stb_truetype refused it");

    /* The characters asked for, each once, in code point order (overlapping ranges are
       merged as XNA merges CharacterRegions). */
    uint8_t *wanted = calloc(CODE_POINTS / 8, 1);
    if (wanted == NULL) return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    size_t want_count = 0;
    for (int i = 0; i < range_count; i++)
        for (uint32_t c = ranges[i].first; c <= ranges[i].last; c++) {
            if (!(wanted[c >> 3] & (1u << (c & 7)))) want_count++;
            wanted[c >> 3] |= (uint8_t)(1u << (c & 7));
        }

    float em_px = desc->size * 96.0f / 72.0f;
    float scale = stbtt_ScaleForMappingEmToPixels(&info, em_px);
    int ascent, descent, gap;
    stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
    int asc_px = (int)ceilf((float)ascent * scale);
    int desc_px = (int)ceilf((float)-descent * scale);
    int line_spacing = asc_px + desc_px + (int)lroundf((float)gap * scale);

    built_glyph *glyphs = malloc((want_count > 0 ? want_count : 1) * sizeof *glyphs);
    if (glyphs == NULL) {
        free(wanted);
        return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    xgd_result r = XGD_OK;
    int n = 0;
    uint64_t area = 0;
    int widest = 0;
    for (uint32_t c = 0; c < CODE_POINTS && r == XGD_OK; c++) {
        if (!(wanted[c >> 3] & (1u << (c & 7)))) continue;
        if (u16(data + info.index_map) == 4 && !cmap4_lookup_inside(&f, (uint32_t)info.index_map, c)) {
            r = xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                          "not a usable font: the cmap lookup of U+%04lX reads outside the cmap "
                          "table",
                          (unsigned long)c);
            break;
        }
        int g = stbtt_FindGlyphIndex(&info, (int)c);
        if (g <= 0 || (unsigned)g >= f.num_glyphs) continue; /* the font lacks it */
        float extent;
        why = check_glyph(&f, (unsigned)g, 0, &extent);
        if (why != NULL) {
            r = xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "not a usable font: U+%04lX: %s",
                          (unsigned long)c, why);
            break;
        }
        built_glyph *b = &glyphs[n];
        b->character = c;
        b->glyph = g;
        int adv, lsb, x1 = 0, y1 = 0;
        stbtt_GetGlyphHMetrics(&info, g, &adv, &lsb);
        b->advance = (int)lroundf((float)adv * scale);
        b->x0 = b->y0 = 0;
        if (!stbtt_IsGlyphEmpty(&info, g))
            stbtt_GetGlyphBitmapBox(&info, g, scale, scale, &b->x0, &b->y0, &x1, &y1);
        else
            x1 = y1 = 0;
        b->w = x1 - b->x0;
        b->h = y1 - b->y0;
        if (b->w <= 0 || b->h <= 0) b->w = b->h = b->x0 = b->y0 = 0;
        if (b->w > MAX_ATLAS - 2 || b->h > MAX_ATLAS - 2) {
            r = xgd_device_report_error(dev, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                          "glyph U+%04lX is %d x %d pixels at this size, more than a %d x %d "
                          "texture holds",
                          (unsigned long)c, b->w, b->h, MAX_ATLAS, MAX_ATLAS);
            break;
        }
        /* Real glyphs stay within a few ems (the widest ligatures and operators are about
           4); an outline spanning more than MAX_EMS is a broken or hostile font, refused
           before it costs a texture of that size. */
        if ((float)b->w > MAX_EMS * em_px + 2.0f || (float)b->h > MAX_EMS * em_px + 2.0f) {
            r = xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                          "not a usable font: glyph U+%04lX is %d x %d pixels, more than %d ems "
                          "of %g pixels",
                          (unsigned long)c, b->w, b->h, (int)MAX_EMS, (double)em_px);
            break;
        }
        area += (uint64_t)(b->w + 1) * (uint64_t)(b->h + 1);
        if (b->w > widest) widest = b->w;
        n++;
    }
    free(wanted);
    if (r == XGD_OK && desc->has_default_character) {
        bool found = false;
        for (int i = 0; i < n && !found; i++) found = glyphs[i].character == desc->default_character;
        if (!found)
            r = xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                          "the default character U+%04lX is not in the font or the ranges",
                          (unsigned long)desc->default_character);
    }
    if (r != XGD_OK) {
        free(glyphs);
        return r;
    }

    /* Rows left to right with one transparent texel around every glyph, so linear filtering
       at a glyph's edge never reaches its neighbour; the width is a power of two near the
       square of the area. */
    int atlas_w = 64;
    while (atlas_w < MAX_ATLAS && ((uint64_t)atlas_w * (uint64_t)atlas_w < area + area / 4 ||
                                   atlas_w < widest + 2))
        atlas_w *= 2;
    xgd_rect *rects = malloc((n > 0 ? (size_t)n : 1) * sizeof *rects);
    if (rects == NULL) {
        free(glyphs);
        return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    int pen_x = 1, pen_y = 1, row_h = 0;
    for (int i = 0; i < n; i++) {
        built_glyph *b = &glyphs[i];
        if (b->w == 0) {
            rects[i] = (xgd_rect){ 0, 0, 0, 0 };
            continue;
        }
        if (pen_x + b->w + 1 > atlas_w) {
            pen_x = 1;
            pen_y += row_h + 1;
            row_h = 0;
        }
        rects[i] = (xgd_rect){ pen_x, pen_y, b->w, b->h };
        pen_x += b->w + 1;
        if (b->h > row_h) row_h = b->h;
        if (pen_y + row_h + 1 > MAX_ATLAS) {
            free(rects);
            free(glyphs);
            return xgd_device_report_error(dev, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "the %d glyphs at this size need a texture larger than %d x %d", n,
                             MAX_ATLAS, MAX_ATLAS);
        }
    }
    int atlas_h = pen_y + row_h + 1;

    uint8_t *coverage = calloc((size_t)atlas_w * (size_t)atlas_h, 1);
    uint8_t *rgba = malloc((size_t)atlas_w * (size_t)atlas_h * 4);
    xgd_rect *cropping = malloc((n > 0 ? (size_t)n : 1) * sizeof *cropping);
    uint32_t *characters = malloc((n > 0 ? (size_t)n : 1) * sizeof *characters);
    xgd_vector3 *kerning = malloc((n > 0 ? (size_t)n : 1) * sizeof *kerning);
    if (!coverage || !rgba || !cropping || !characters || !kerning) {
        free(coverage);
        free(rgba);
        free(cropping);
        free(characters);
        free(kerning);
        free(rects);
        free(glyphs);
        return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory building the font");
    }
    for (int i = 0; i < n; i++) {
        const built_glyph *b = &glyphs[i];
        if (b->w > 0)
            stbtt_MakeGlyphBitmap(&info, coverage + (size_t)rects[i].y * atlas_w + rects[i].x,
                                  b->w, b->h, atlas_w, scale, scale, b->glyph);
        characters[i] = b->character;
        kerning[i] = (xgd_vector3){ (float)b->x0, (float)b->w, (float)(b->advance - b->x0 - b->w) };
        cropping[i] = (xgd_rect){ 0, asc_px + b->y0, b->w, line_spacing };
    }
    /* XNA's font textures are premultiplied white: every channel is the coverage. */
    for (size_t i = 0; i < (size_t)atlas_w * (size_t)atlas_h; i++)
        memset(rgba + 4 * i, coverage[i], 4);
    free(coverage);
    free(glyphs);

    xgd_texture *tex = NULL;
    r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = atlas_w, .height = atlas_h },
                             &tex);
    if (r == XGD_OK)
        r = xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, rgba,
                                 (size_t)atlas_w * (size_t)atlas_h * 4);
    free(rgba);
    if (r == XGD_OK) {
        xgd_sprite_font_desc fd = {
            .texture = tex,
            .take_texture = true,
            .glyph_count = n,
            .glyphs = rects,
            .cropping = cropping,
            .characters = characters,
            .kerning = kerning,
            .line_spacing = line_spacing,
            .spacing = desc->spacing,
            .has_default_character = desc->has_default_character,
            .default_character = desc->default_character,
        };
        r = xgd_sprite_font_create(dev, &fd, out);
    }
    if (r != XGD_OK) xgd_texture_destroy(tex);
    free(rects);
    free(cropping);
    free(characters);
    free(kerning);
    return r;
}

#endif
