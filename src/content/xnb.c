/*
 * xnb.c - XNA 4.0 compiled content (.xnb): the container, LZX decompression through libmspack,
 * and the readers for Texture2D, TextureCube, Texture3D, SpriteFont and Effect.
 *
 * The container (all integers little-endian):
 *   "XNB", platform byte, version byte (5), flags byte (0x01 HiDef, 0x80 LZX, 0x40 LZ4),
 *   uint32 file size (the whole file, header included);
 *   compressed files: uint32 size of the decompressed payload, then LZX frames;
 *   payload: 7-bit count of type readers, each a 7-bit-length UTF-8 name and an int32 version;
 *   7-bit count of shared resources; the primary asset; the shared resources. An object is a
 *   7-bit type reader index (0 = null, else the reader's position + 1) and what that reader
 *   writes. Value-type elements of a list (Rectangle, Char, Vector3) are written without an
 *   index, as ContentReader reads them through the list's element reader.
 *
 * A file is read in two passes over the same code: the first validates everything (each count
 * and size against the bytes that are there, each object against the reader its slot needs)
 * and creates nothing; the second creates the objects. So a damaged file changes nothing, and
 * the memory a file can make xgd allocate is what its data holds: every texture's texels, list
 * and byte count are checked to be present before anything of that size exists.
 *
 * LZX: XNA writes the compressed payload as frames of 32768 output bytes (the last one
 * shorter), each preceded by a big-endian header: two bytes of compressed size, or 0xFF then
 * two bytes of frame (output) size and two of compressed size. The frames are one LZX stream
 * (window 2^16, no resets) split at frame boundaries, where the stream is aligned to 16 bits:
 * the same structure as a Microsoft Cabinet folder of LZX data blocks (CFDATA: compressed size,
 * uncompressed size, bytes). libmspack's installed API decodes LZX only inside its container
 * decoders (its raw lzxd_* functions are neither in mspack.h nor exported by libmspack.so), so
 * the frames are rewrapped, unchanged, as a one-file cabinet in memory and extracted through
 * mscab_decompressor with an mspack_system that reads and writes memory.
 */
#include "internal.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_MSPACK
#include <mspack.h>
#endif

/* Largest file, and largest decompressed payload, xgd reads: above any texture a device can
 * create (a HiDef 4096 cube of Vector4 with mips is about 2.1 GiB, which no 32-bit XNA process
 * could load either; real content is far smaller). */
#define XNB_MAX_BYTES ((size_t)1 << 30)
/* More shared resources than any content has (a Model with hundreds of effects and textures);
 * bounds the result's array independently of the file's size. */
#define XNB_MAX_SHARED (1 << 20)
#define XNB_HEADER 10
#define XNB_HEADER_COMPRESSED 14
#define XNB_FLAG_HIDEF 0x01
#define XNB_FLAG_LZ4 0x40
#define XNB_FLAG_LZX 0x80
#define LZX_FRAME 32768
/* The largest compressed size of one LZX frame: a frame stored as an uncompressed block, with
 * its headers (libmspack's cabinet reader refuses larger data blocks). */
#define LZX_FRAME_INPUT_MAX (LZX_FRAME + 6144)
#define MAX_LEVELS 16

/* ---- type readers --------------------------------------------------------------------------- */

typedef enum reader_kind {
    R_TEXTURE2D,
    R_TEXTURE_CUBE,
    R_TEXTURE3D,
    R_SPRITE_FONT,
    R_EFFECT,
    R_LIST_RECTANGLE,
    R_LIST_CHAR,
    R_LIST_VECTOR3,
    R_RECTANGLE,
    R_CHAR,
    R_VECTOR3,
    R_COUNT
} reader_kind;

/* .NET type names without assembly qualifiers, as xgd_content_object.type_reader gives them. */
static const char *const reader_names[R_COUNT] = {
    "Microsoft.Xna.Framework.Content.Texture2DReader",
    "Microsoft.Xna.Framework.Content.TextureCubeReader",
    "Microsoft.Xna.Framework.Content.Texture3DReader",
    "Microsoft.Xna.Framework.Content.SpriteFontReader",
    "Microsoft.Xna.Framework.Content.EffectReader",
    "Microsoft.Xna.Framework.Content.ListReader`1[[Microsoft.Xna.Framework.Rectangle]]",
    "Microsoft.Xna.Framework.Content.ListReader`1[[System.Char]]",
    "Microsoft.Xna.Framework.Content.ListReader`1[[Microsoft.Xna.Framework.Vector3]]",
    "Microsoft.Xna.Framework.Content.RectangleReader",
    "Microsoft.Xna.Framework.Content.CharReader",
    "Microsoft.Xna.Framework.Content.Vector3Reader",
};

const char *xgd_content_type_reader_name(int index)
{
    return index >= 0 && index < R_COUNT ? reader_names[index] : NULL;
}

/* Drops assembly qualifiers: every ", ..." up to the bracket that closes its level (or the end),
 * so "A`1[[B, asm, Version=...]], asm2, ..." becomes "A`1[[B]]". Returns false when the name
 * does not fit out. */
static bool normalise_reader_name(const uint8_t *name, size_t len, char *out, size_t out_size)
{
    size_t o = 0;
    int depth = 0;
    for (size_t i = 0; i < len; i++) {
        uint8_t ch = name[i];
        if (ch == ',') {
            int d = depth;
            while (i + 1 < len && !(name[i + 1] == ']' && d == depth)) {
                i++;
                if (name[i] == '[') d++;
                if (name[i] == ']') d--;
            }
            continue;
        }
        if (ch == '[') depth++;
        if (ch == ']') depth--;
        if (ch == ' ' && depth > 0 && o > 0 && out[o - 1] == '[') continue;
        if (o + 1 >= out_size) return false;
        out[o++] = (char)ch;
    }
    out[o] = '\0';
    return true;
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct xnb_ctx {
    xgd_device *dev;
    bool create;                 /* second pass: create objects (every read already checked) */
    const uint8_t *p;            /* payload */
    size_t size, pos;
    int reader_count;
    uint8_t *readers;            /* reader_kind of each of the file's type readers */
    xgd_graphics_profile profile;
} xnb_ctx;

static xgd_result bad(xnb_ctx *c, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats (%zu): mingw checks plain printf as MS printf */
    __attribute__((format(gnu_printf, 2, 3)));
#else
    __attribute__((format(printf, 2, 3)));
#endif
static xgd_result bad(xnb_ctx *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return xgdi_fail(c->dev, XGD_ERROR_INVALID_ARGUMENT, "xnb: %s (payload offset %zu)", msg,
                     c->pos);
}

static size_t left(const xnb_ctx *c) { return c->size - c->pos; }

static xgd_result need(xnb_ctx *c, size_t n, const char *what)
{
    if (n > left(c))
        return bad(c, "%s needs %zu bytes, the data has %zu left", what, n, left(c));
    return XGD_OK;
}

static uint32_t get_u32(xnb_ctx *c)
{
    const uint8_t *b = c->p + c->pos;
    c->pos += 4;
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static xgd_result read_u32(xnb_ctx *c, const char *what, uint32_t *out)
{
    xgd_result r = need(c, 4, what);
    if (r != XGD_OK) return r;
    *out = get_u32(c);
    return XGD_OK;
}

static xgd_result read_u8(xnb_ctx *c, const char *what, uint8_t *out)
{
    xgd_result r = need(c, 1, what);
    if (r != XGD_OK) return r;
    *out = c->p[c->pos++];
    return XGD_OK;
}

/* .NET's Read7BitEncodedInt: 7 bits per byte, low first, at most 5 bytes. */
static xgd_result read_7bit(xnb_ctx *c, const char *what, uint32_t *out)
{
    uint32_t v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        uint8_t b;
        xgd_result r = read_u8(c, what, &b);
        if (r != XGD_OK) return r;
        if (shift == 28 && b > 0x0f) return bad(c, "%s: a 7-bit encoded integer above 32 bits", what);
        v |= (uint32_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return XGD_OK;
        }
    }
    return bad(c, "%s: a 7-bit encoded integer longer than 5 bytes", what);
}

/* A count written as int32 (List<T>): 0..INT32_MAX, and count * element bytes must be there. */
static xgd_result read_count(xnb_ctx *c, const char *what, size_t min_element, uint32_t *out)
{
    xgd_result r = read_u32(c, what, out);
    if (r != XGD_OK) return r;
    if (*out > INT32_MAX) return bad(c, "%s: negative count %d", what, (int)(int32_t)*out);
    if ((uint64_t)*out * min_element > left(c))
        return bad(c, "%s: %u elements need at least %llu bytes, the data has %zu left", what,
                   (unsigned)*out, (unsigned long long)*out * min_element, left(c));
    return XGD_OK;
}

/* BinaryReader.ReadChar of a UTF-8 stream: one UTF-16 code unit, so 1 to 3 bytes of a code
 * point below 0x10000 that is no surrogate. */
static xgd_result read_char(xnb_ctx *c, const char *what, uint32_t *out)
{
    uint8_t b0;
    xgd_result r = read_u8(c, what, &b0);
    if (r != XGD_OK) return r;
    int extra;
    uint32_t cp, min;
    if (b0 < 0x80) {
        *out = b0;
        return XGD_OK;
    } else if ((b0 & 0xe0) == 0xc0) {
        extra = 1, cp = b0 & 0x1f, min = 0x80;
    } else if ((b0 & 0xf0) == 0xe0) {
        extra = 2, cp = b0 & 0x0f, min = 0x800;
    } else {
        c->pos--;
        return bad(c, "%s: byte 0x%02x starts no UTF-8 character of one UTF-16 unit", what, b0);
    }
    for (int i = 0; i < extra; i++) {
        uint8_t b;
        if ((r = read_u8(c, what, &b)) != XGD_OK) return r;
        if ((b & 0xc0) != 0x80) return bad(c, "%s: a broken UTF-8 sequence", what);
        cp = cp << 6 | (b & 0x3f);
    }
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff))
        return bad(c, "%s: an overlong UTF-8 sequence or a surrogate (U+%04X)", what, (unsigned)cp);
    *out = cp;
    return XGD_OK;
}

/* An object's type reader: 0 is null; otherwise it must be one of want (a bit mask of kinds). */
static xgd_result read_type(xnb_ctx *c, const char *what, unsigned want, bool allow_null,
                            int *kind)
{
    uint32_t index;
    size_t at = c->pos;
    xgd_result r = read_7bit(c, what, &index);
    if (r != XGD_OK) return r;
    if (index == 0) {
        if (!allow_null) {
            c->pos = at;
            return bad(c, "%s is null", what);
        }
        *kind = -1;
        return XGD_OK;
    }
    if (index > (uint32_t)c->reader_count) {
        c->pos = at;
        return bad(c, "%s: type reader index %u, but the file has %d type readers", what,
                   (unsigned)index, c->reader_count);
    }
    *kind = c->readers[index - 1];
    if (!(want & (1u << *kind))) {
        c->pos = at;
        return bad(c, "%s: the object's type reader is %s", what, reader_names[*kind]);
    }
    return XGD_OK;
}

/* ---- textures ---------------------------------------------------------------------------- */

/* XNA 4.0's SurfaceFormat numbers are xgd's enum minus one, Color (0) to HdrBlendable (19). */
static xgd_result map_format(xnb_ctx *c, uint32_t xna, xgd_surface_format *out)
{
    static const char *const monogame[] = {
        "Bgr32", "Bgra32", "ColorSRgb", "Bgr32SRgb", "Bgra32SRgb", "Dxt1SRgb", "Dxt3SRgb",
        "Dxt5SRgb", "RgbPvrtc2Bpp", "RgbPvrtc4Bpp", "RgbaPvrtc2Bpp", "RgbaPvrtc4Bpp", "RgbEtc1",
        "Dxt1a", "RgbaAtcExplicitAlpha", "RgbaAtcInterpolatedAlpha", "Rgb8Etc2", "Srgb8Etc2",
        "Rgb8A1Etc2", "Srgb8A1Etc2", "Rgba8Etc2", "SRgb8A8Etc2",
    };
    if (xna <= 19) {
        *out = (xgd_surface_format)(xna + 1);
        return XGD_OK;
    }
    if (xna - 20 < sizeof monogame / sizeof monogame[0])
        return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: SurfaceFormat %u (MonoGame's %s) is not an XNA 4.0 format xgd has",
                         (unsigned)xna, monogame[xna - 20]);
    return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED, "xnb: unknown SurfaceFormat %u",
                     (unsigned)xna);
}

static int full_chain(uint32_t w, uint32_t h, uint32_t d)
{
    uint32_t m = w > h ? w : h;
    if (d > m) m = d;
    int n = 1;
    while (m > 1) m >>= 1, n++;
    return n;
}

static uint32_t at_level(uint32_t v, int level) { return v >> level ? v >> level : 1; }

static void destroy_object(xgd_content_object *o)
{
    xgd_texture_destroy(o->texture);
    xgd_sprite_font_destroy(o->sprite_font);
    xgd_effect_destroy(o->effect);
    memset(o, 0, sizeof *o);
}

/* Texture2DReader: int32 format, uint32 width, height, level count, then per level uint32
 * byte count and the level's texels. TextureCubeReader: format, size, level count, then for
 * each face (XNA's CubeMapFace order) each level. Texture3DReader: format, width, height,
 * depth, level count, then per level byte count and texels (slices front to back). As XNA's
 * readers, a texture of more than one level is created with the full chain and the levels the
 * file holds (all of them, as the pipeline writes) are set. */
static xgd_result read_texture(xnb_ctx *c, reader_kind kind, xgd_texture **out)
{
    static const char *const what_of[] = { "Texture2D", "TextureCube", "Texture3D" };
    const char *what = what_of[kind - R_TEXTURE2D];
    uint32_t fmt_n, w, h, d = 1, levels;
    xgd_result r = read_u32(c, what, &fmt_n);
    if (r == XGD_OK) r = read_u32(c, what, &w);
    if (r == XGD_OK) h = w;
    if (r == XGD_OK && kind != R_TEXTURE_CUBE) r = read_u32(c, what, &h);
    if (r == XGD_OK && kind == R_TEXTURE3D) r = read_u32(c, what, &d);
    if (r == XGD_OK) r = read_u32(c, what, &levels);
    if (r != XGD_OK) return r;
    xgd_surface_format fmt = XGD_SURFACE_FORMAT_COLOR;
    if ((r = map_format(c, fmt_n, &fmt)) != XGD_OK) return r;
    if (w < 1 || h < 1 || d < 1)
        return bad(c, "%s of size %ux%ux%u", what, (unsigned)w, (unsigned)h, (unsigned)d);
    if (w > 65536 || h > 65536 || d > 65536)
        return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: %s of %ux%ux%u is beyond any device", what, (unsigned)w,
                         (unsigned)h, (unsigned)d);
    int chain = full_chain(w, h, d);
    if (levels < 1 || levels > (uint32_t)chain)
        return bad(c, "%s of %ux%u has %u levels; its mip chain has 1 to %d", what, (unsigned)w,
                   (unsigned)h, (unsigned)levels, chain);
    int faces = kind == R_TEXTURE_CUBE ? 6 : 1;

    xgd_texture *tex = NULL;
    if (c->create) {
        bool mip = levels > 1;
        if (kind == R_TEXTURE2D)
            r = xgd_texture2d_create(c->dev, &(xgd_texture2d_desc){ .width = (int)w, .height = (int)h,
                                                                    .mipmap = mip, .format = fmt },
                                     &tex);
        else if (kind == R_TEXTURE_CUBE)
            r = xgd_texture_cube_create(c->dev, &(xgd_texture_cube_desc){ .size = (int)w,
                                                                          .mipmap = mip,
                                                                          .format = fmt },
                                        &tex);
        else
            r = xgd_texture3d_create(c->dev, &(xgd_texture3d_desc){ .width = (int)w, .height = (int)h,
                                                                    .depth = (int)d, .mipmap = mip,
                                                                    .format = fmt },
                                     &tex);
        if (r != XGD_OK) return r;
    }
    for (int face = 0; face < faces && r == XGD_OK; face++) {
        for (int l = 0; l < (int)levels && r == XGD_OK; l++) {
            uint32_t lw = at_level(w, l), lh = at_level(h, l), ld = at_level(d, l);
            size_t slice = xgd_surface_format_size(fmt, (int)lw, (int)lh);
            size_t expect = slice != 0 && slice <= SIZE_MAX / ld ? slice * ld : 0;
            uint32_t bytes;
            if ((r = read_u32(c, what, &bytes)) != XGD_OK) break;
            if (expect == 0 || bytes != expect) {
                r = bad(c, "%s face %d level %d (%ux%ux%u) has %u bytes; the format needs %zu",
                        what, face, l, (unsigned)lw, (unsigned)lh, (unsigned)ld,
                        (unsigned)bytes, expect);
                break;
            }
            if ((r = need(c, bytes, what)) != XGD_OK) break;
            if (c->create) {
                const void *texels = c->p + c->pos;
                if (kind == R_TEXTURE3D)
                    r = xgd_texture3d_set_data(tex, l, NULL, texels, bytes);
                else
                    r = xgd_texture_set_data(tex, l, (xgd_cube_map_face)face, NULL, texels, bytes);
            }
            c->pos += bytes;
        }
    }
    if (r != XGD_OK) {
        xgd_texture_destroy(tex);
        return r;
    }
    *out = tex;
    return XGD_OK;
}

/* ---- sprite fonts ------------------------------------------------------------------------ */

typedef struct list_ref {
    uint32_t count;
    size_t pos;                  /* of the first element */
} list_ref;

static xgd_result read_list(xnb_ctx *c, reader_kind kind, const char *what, list_ref *out)
{
    int k = -1;
    xgd_result r = read_type(c, what, 1u << kind, false, &k);
    if (r != XGD_OK) return r;
    size_t element = kind == R_LIST_RECTANGLE ? 16 : kind == R_LIST_VECTOR3 ? 12 : 1;
    if ((r = read_count(c, what, element, &out->count)) != XGD_OK) return r;
    out->pos = c->pos;
    if (kind == R_LIST_CHAR) {
        for (uint32_t i = 0; i < out->count; i++) {
            uint32_t ch;
            if ((r = read_char(c, what, &ch)) != XGD_OK) return r;
        }
    } else {
        c->pos += element * out->count;
    }
    return XGD_OK;
}

static float f32_at(const uint8_t *b)
{
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int32_t i32_at(const uint8_t *b)
{
    uint32_t u = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return (int32_t)u;
}

/* SpriteFontReader: Texture2D (an object), List<Rectangle> glyphs, List<Rectangle> cropping,
 * List<char> characters (objects), int32 line spacing, float spacing, List<Vector3> kerning
 * (an object), bool has-default then the default char. One glyph per character: the four lists
 * have one length. */
static xgd_result read_sprite_font(xnb_ctx *c, struct xgd_sprite_font **out)
{
    int k = -1;
    xgd_texture *tex = NULL;
    xgd_result r = read_type(c, "SpriteFont texture", 1u << R_TEXTURE2D, false, &k);
    if (r == XGD_OK) r = read_texture(c, R_TEXTURE2D, &tex);
    if (r != XGD_OK) return r;
    list_ref glyphs, cropping, chars, kerning;
    uint32_t line_spacing = 0, spacing_bits = 0, def_char = 0;
    uint8_t has_default = 0;
    r = read_list(c, R_LIST_RECTANGLE, "SpriteFont glyphs", &glyphs);
    if (r == XGD_OK) r = read_list(c, R_LIST_RECTANGLE, "SpriteFont cropping", &cropping);
    if (r == XGD_OK) r = read_list(c, R_LIST_CHAR, "SpriteFont characters", &chars);
    if (r == XGD_OK) r = read_u32(c, "SpriteFont line spacing", &line_spacing);
    if (r == XGD_OK) r = read_u32(c, "SpriteFont spacing", &spacing_bits);
    if (r == XGD_OK) r = read_list(c, R_LIST_VECTOR3, "SpriteFont kerning", &kerning);
    if (r == XGD_OK) r = read_u8(c, "SpriteFont default character", &has_default);
    if (r == XGD_OK && has_default) r = read_char(c, "SpriteFont default character", &def_char);
    if (r == XGD_OK && (cropping.count != glyphs.count || chars.count != glyphs.count ||
                        kerning.count != glyphs.count))
        r = bad(c, "SpriteFont lists differ in length: %u glyphs, %u cropping, %u characters, "
                   "%u kerning", (unsigned)glyphs.count, (unsigned)cropping.count,
                (unsigned)chars.count, (unsigned)kerning.count);
    if (r != XGD_OK || !c->create) {
        xgd_texture_destroy(tex);
        return r;
    }
    size_t n = glyphs.count;
    xgd_rect *rects = malloc((n ? n : 1) * 2 * sizeof *rects);
    uint32_t *codes = malloc((n ? n : 1) * sizeof *codes);
    xgd_vector3 *kern = malloc((n ? n : 1) * sizeof *kern);
    if (rects == NULL || codes == NULL || kern == NULL) {
        r = xgdi_fail(c->dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory for %zu glyphs", n);
    } else {
        for (size_t i = 0; i < n; i++) {
            for (int half = 0; half < 2; half++) {
                const uint8_t *b = c->p + (half ? cropping.pos : glyphs.pos) + i * 16;
                rects[half * n + i] = (xgd_rect){ i32_at(b), i32_at(b + 4), i32_at(b + 8),
                                                  i32_at(b + 12) };
            }
            const uint8_t *v = c->p + kerning.pos + i * 12;
            kern[i] = (xgd_vector3){ f32_at(v), f32_at(v + 4), f32_at(v + 8) };
        }
        size_t save = c->pos;
        c->pos = chars.pos;
        for (size_t i = 0; i < n; i++) (void)read_char(c, "SpriteFont characters", &codes[i]);
        c->pos = save;
        float spacing;
        memcpy(&spacing, &spacing_bits, sizeof spacing);
        xgd_sprite_font_desc fd = {
            .texture = tex, .take_texture = true, .glyph_count = (int)n, .glyphs = rects,
            .cropping = rects + n, .characters = codes, .kerning = kern,
            .line_spacing = (int)(int32_t)line_spacing, .spacing = spacing,
            .has_default_character = has_default != 0, .default_character = def_char,
        };
        r = xgd_sprite_font_create(c->dev, &fd, out);
    }
    free(rects);
    free(codes);
    free(kern);
    if (r != XGD_OK) xgd_texture_destroy(tex);
    return r;
}

/* ---- effects ----------------------------------------------------------------------------- */

/* EffectReader: uint32 byte count and the compiled effect (fx_2_0), given to the effect loader. */
static xgd_result read_effect(xnb_ctx *c, xgd_effect **out)
{
    uint32_t bytes;
    xgd_result r = read_u32(c, "Effect", &bytes);
    if (r == XGD_OK) r = need(c, bytes, "Effect bytecode");
    if (r != XGD_OK) return r;
    const uint8_t *code = c->p + c->pos;
    c->pos += bytes;
    if (!c->create) return XGD_OK;
    return xgd_effect_create(c->dev, code, bytes, out);
}

/* ---- objects ------------------------------------------------------------------------------ */

#define ASSET_KINDS                                                                             \
    (1u << R_TEXTURE2D | 1u << R_TEXTURE_CUBE | 1u << R_TEXTURE3D | 1u << R_SPRITE_FONT |       \
     1u << R_EFFECT)

/* The primary asset or a shared resource: a texture, sprite font or effect, or null. */
static xgd_result read_asset(xnb_ctx *c, const char *what, xgd_content_object *o)
{
    int kind = -1;
    size_t at = c->pos;
    xgd_result r = read_type(c, what, ~0u, true, &kind);
    if (r != XGD_OK) return r;
    memset(o, 0, sizeof *o);
    if (kind < 0) return XGD_OK;
    if (!(ASSET_KINDS & (1u << kind))) {
        c->pos = at;
        return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: the %s is read by %s; xgd loads textures, sprite fonts and effects",
                         what, reader_names[kind]);
    }
    o->type_reader = reader_names[kind];
    switch (kind) {
    case R_TEXTURE2D:
    case R_TEXTURE_CUBE:
    case R_TEXTURE3D:
        o->kind = kind == R_TEXTURE2D ? XGD_CONTENT_TEXTURE2D
                : kind == R_TEXTURE_CUBE ? XGD_CONTENT_TEXTURE_CUBE : XGD_CONTENT_TEXTURE3D;
        r = read_texture(c, (reader_kind)kind, &o->texture);
        break;
    case R_SPRITE_FONT:
        o->kind = XGD_CONTENT_SPRITE_FONT;
        r = read_sprite_font(c, &o->sprite_font);
        break;
    default:
        o->kind = XGD_CONTENT_EFFECT;
        r = read_effect(c, &o->effect);
        break;
    }
    if (r != XGD_OK) memset(o, 0, sizeof *o);
    return r;
}

/* Type readers, then the shared resource count, primary asset and shared resources. */
static xgd_result read_payload(xnb_ctx *c, xgd_content *out)
{
    uint32_t n;
    xgd_result r = read_7bit(c, "type reader count", &n);
    if (r != XGD_OK) return r;
    /* each entry is at least a length byte and an int32 version */
    if ((uint64_t)n * 5 > left(c))
        return bad(c, "%u type readers need at least %llu bytes, the data has %zu left",
                   (unsigned)n, (unsigned long long)n * 5, left(c));
    if (!c->create) {
        c->readers = malloc(n ? n : 1);
        if (c->readers == NULL)
            return xgdi_fail(c->dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory");
    }
    c->reader_count = (int)n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len, version;
        if ((r = read_7bit(c, "type reader name length", &len)) != XGD_OK) return r;
        if ((r = need(c, len, "type reader name")) != XGD_OK) return r;
        const uint8_t *name = c->p + c->pos;
        c->pos += len;
        if ((r = read_u32(c, "type reader version", &version)) != XGD_OK) return r;
        if (c->create) continue;
        char norm[256];
        int kind = -1;
        if (normalise_reader_name(name, len, norm, sizeof norm))
            for (int k = 0; k < R_COUNT; k++)
                if (strcmp(norm, reader_names[k]) == 0) kind = k;
        if (kind < 0) {
            int shown = len > 300 ? 300 : (int)len;
            return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED,
                             "xnb: type reader %u of %u is \"%.*s\"%s, which xgd does not have "
                             "(xgd_content_type_reader_name lists the %d it reads)",
                             (unsigned)i + 1, (unsigned)n, shown, (const char *)name,
                             shown < (int)len ? "..." : "", R_COUNT);
        }
        if (version != 0)
            return bad(c, "type reader %s has version %d; XNA 4.0's is 0", reader_names[kind],
                       (int)(int32_t)version);
        c->readers[i] = (uint8_t)kind;
    }
    uint32_t shared;
    if ((r = read_7bit(c, "shared resource count", &shared)) != XGD_OK) return r;
    /* each shared resource is at least its type reader index byte, after the primary asset */
    if (shared > left(c))
        return bad(c, "%u shared resources, but the data has %zu bytes left", (unsigned)shared,
                   left(c));
    if (shared > XNB_MAX_SHARED)
        return xgdi_fail(c->dev, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: %u shared resources; xgd reads at most %d", (unsigned)shared,
                         XNB_MAX_SHARED);
    if ((r = read_asset(c, "primary asset", &out->asset)) != XGD_OK) return r;
    if (c->create && shared > 0) {
        out->shared = calloc(shared, sizeof *out->shared);
        if (out->shared == NULL)
            return xgdi_fail(c->dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory");
    }
    for (uint32_t i = 0; i < shared; i++) {
        xgd_content_object tmp, *o = c->create ? &out->shared[i] : &tmp;
        if ((r = read_asset(c, "shared resource", o)) != XGD_OK) return r;
        if (c->create) out->shared_count = (int)i + 1;
    }
    if (left(c) != 0) return bad(c, "%zu bytes follow the content", left(c));
    return XGD_OK;
}

/* ---- LZX ---------------------------------------------------------------------------------- */

#ifdef XGD_HAVE_MSPACK
typedef struct mem_file {
    uint8_t *data;
    size_t size, pos, cap, limit;
    bool writable;
} mem_file;

typedef struct mem_system {
    struct mspack_system sys;    /* first: libmspack calls open() with this pointer */
    mem_file in, out;
    int opened_out;
} mem_system;

static struct mspack_file *mem_open(struct mspack_system *self, const char *name, int mode)
{
    mem_system *m = (mem_system *)self;
    if (strcmp(name, "in") == 0 && mode == MSPACK_SYS_OPEN_READ) {
        m->in.pos = 0;
        return (struct mspack_file *)&m->in;
    }
    if (strcmp(name, "out") == 0 && mode == MSPACK_SYS_OPEN_WRITE && m->opened_out++ == 0)
        return (struct mspack_file *)&m->out;
    return NULL;
}

static void mem_close(struct mspack_file *file) { (void)file; }

static int mem_read(struct mspack_file *file, void *buffer, int bytes)
{
    mem_file *f = (mem_file *)file;
    if (f->writable || bytes < 0) return -1;
    size_t n = f->size - f->pos < (size_t)bytes ? f->size - f->pos : (size_t)bytes;
    memcpy(buffer, f->data + f->pos, n);
    f->pos += n;
    return (int)n;
}

/* Output grows with what the decoder writes, up to the declared size (the limit): the payload's
 * memory follows real output, not the header's claim. */
static int mem_write(struct mspack_file *file, void *buffer, int bytes)
{
    mem_file *f = (mem_file *)file;
    if (!f->writable || bytes < 0 || (size_t)bytes > f->limit - f->size) return -1;
    if (f->size + (size_t)bytes > f->cap) {
        size_t cap = f->cap ? f->cap : 65536;
        while (cap < f->size + (size_t)bytes) cap *= 2;
        if (cap > f->limit) cap = f->limit;
        uint8_t *grown = realloc(f->data, cap);
        if (grown == NULL) return -1;
        f->data = grown;
        f->cap = cap;
    }
    memcpy(f->data + f->size, buffer, (size_t)bytes);
    f->size += (size_t)bytes;
    return bytes;
}

static int mem_seek(struct mspack_file *file, off_t offset, int mode)
{
    mem_file *f = (mem_file *)file;
    off_t base = mode == MSPACK_SYS_SEEK_START ? 0
               : mode == MSPACK_SYS_SEEK_CUR  ? (off_t)f->pos : (off_t)f->size;
    if (offset < -base || (size_t)(base + offset) > f->size) return -1;
    f->pos = (size_t)(base + offset);
    return 0;
}

static off_t mem_tell(struct mspack_file *file) { return (off_t)((mem_file *)file)->pos; }

static void mem_message(struct mspack_file *file, const char *format, ...)
{
    (void)file;
    (void)format;
}

static void *mem_alloc(struct mspack_system *self, size_t bytes)
{
    (void)self;
    return malloc(bytes);
}

static void mem_free(void *p) { free(p); }

static void mem_copy(void *src, void *dest, size_t bytes) { memmove(dest, src, bytes); }

static void put16(uint8_t *b, unsigned v) { b[0] = (uint8_t)v, b[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *b, uint32_t v) { put16(b, v & 0xffff), put16(b + 2, v >> 16); }

static const char *mspack_error_name(int e)
{
    static const char *const names[] = { "OK", "ARGS", "OPEN", "READ", "WRITE", "SEEK",
                                         "NOMEMORY", "SIGNATURE", "DATAFORMAT", "CHECKSUM",
                                         "CRUNCH", "DECRUNCH" };
    return e >= 0 && e < (int)(sizeof names / sizeof names[0]) ? names[e] : "unknown";
}
#endif

/* Decodes the frames of a compressed payload (src, n bytes after the 14-byte header) into
 * exactly out_size bytes. */
static xgd_result lzx_decode(xgd_device *dev, const uint8_t *src, size_t n, uint32_t out_size,
                             uint8_t **out)
{
    *out = NULL;
#ifndef XGD_HAVE_MSPACK
    (void)src;
    (void)n;
    (void)out_size;
    return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                     "xnb: LZX-compressed content needs libmspack, which this build lacks");
#else
    /* The frame headers: each frame's output and compressed sizes. */
    size_t pos = 0, frames = 0, in_bytes = 0;
    uint64_t total = 0;
    while (pos < n) {
        unsigned frame = LZX_FRAME, block;
        size_t header = 2;
        if (n - pos < 2) goto truncated;
        if (src[pos] == 0xff) {
            if (n - pos < 5) goto truncated;
            frame = (unsigned)src[pos + 1] << 8 | src[pos + 2];
            block = (unsigned)src[pos + 3] << 8 | src[pos + 4];
            header = 5;
        } else {
            block = (unsigned)src[pos] << 8 | src[pos + 1];
        }
        if (block == 0 || frame == 0) break; /* an end marker */
        if (frame > LZX_FRAME)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "xnb: LZX frame %zu declares %u output bytes; LZX frames hold at "
                             "most %d", frames, frame, LZX_FRAME);
        if (total % LZX_FRAME != 0)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "xnb: LZX frame %zu follows a frame shorter than %d bytes; only the "
                             "last frame may be", frames, LZX_FRAME);
        if (block > LZX_FRAME_INPUT_MAX)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "xnb: LZX frame %zu has %u compressed bytes; a frame compresses to "
                             "at most %d", frames, block, LZX_FRAME_INPUT_MAX);
        if (block > n - pos - header) goto truncated;
        pos += header + block;
        in_bytes += block;
        total += frame;
        frames++;
        if (total > out_size)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "xnb: the LZX frames hold more than the %u bytes the header "
                             "declares", (unsigned)out_size);
    }
    if (total != out_size)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "xnb: the LZX frames hold %llu bytes, the header declares %u",
                         (unsigned long long)total, (unsigned)out_size);
    if (frames == 0) {
        *out = malloc(1);
        return *out ? XGD_OK : xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory");
    }
    if (frames > 65535)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "xnb: %zu LZX frames; at most 65535",
                         frames);

    /* A cabinet: CFHEADER (36 bytes), one CFFOLDER (8: data offset, block count, LZX with a
     * 2^16 window), one CFFILE (16 and its name) of out_size bytes, then one CFDATA per frame
     * (8: no checksum, compressed size, output size) with the frame's bytes. */
    const size_t head = 36 + 8 + 16 + 2;
    size_t cab_size = head + frames * 8 + in_bytes;
    uint8_t *cab = calloc(1, cab_size);
    if (cab == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory");
    memcpy(cab, "MSCF", 4);
    put32(cab + 8, (uint32_t)cab_size);
    put32(cab + 16, 36 + 8);          /* first CFFILE */
    cab[24] = 3, cab[25] = 1;         /* version 1.3 */
    put16(cab + 26, 1);               /* folders */
    put16(cab + 28, 1);               /* files */
    put32(cab + 36, (uint32_t)head);  /* CFFOLDER: first CFDATA */
    put16(cab + 40, (unsigned)frames);
    put16(cab + 42, 0x0003 | 16 << 8);
    put32(cab + 44, out_size);        /* CFFILE: size, offset 0, folder 0 */
    cab[60] = 'x';
    size_t w = head;
    pos = 0;
    for (size_t i = 0; i < frames; i++) {
        unsigned frame = LZX_FRAME, block;
        if (src[pos] == 0xff) {
            frame = (unsigned)src[pos + 1] << 8 | src[pos + 2];
            block = (unsigned)src[pos + 3] << 8 | src[pos + 4];
            pos += 5;
        } else {
            block = (unsigned)src[pos] << 8 | src[pos + 1];
            pos += 2;
        }
        put16(cab + w + 4, block);
        put16(cab + w + 6, frame);
        memcpy(cab + w + 8, src + pos, block);
        w += 8 + block;
        pos += block;
    }

    int selftest;
    MSPACK_SYS_SELFTEST(selftest);
    if (selftest != MSPACK_ERR_OK) {
        free(cab);
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: libmspack was built with another off_t (selftest %s)",
                         mspack_error_name(selftest));
    }
    mem_system m = {
        .sys = { mem_open, mem_close, mem_read, mem_write, mem_seek, mem_tell, mem_message,
                 mem_alloc, mem_free, mem_copy, NULL },
        .in = { .data = cab, .size = cab_size },
        .out = { .writable = true, .limit = out_size },
    };
    struct mscab_decompressor *cabd = mspack_create_cab_decompressor(&m.sys);
    if (cabd == NULL) {
        free(cab);
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: libmspack: no cabinet decoder");
    }
    int err;
    struct mscabd_cabinet *cabinet = cabd->open(cabd, "in");
    if (cabinet == NULL || cabinet->files == NULL) {
        err = cabd->last_error(cabd);
        if (err == MSPACK_ERR_OK) err = MSPACK_ERR_DATAFORMAT;
    } else {
        err = cabd->extract(cabd, cabinet->files, "out");
    }
    if (cabinet != NULL) cabd->close(cabd, cabinet);
    mspack_destroy_cab_decompressor(cabd);
    free(cab);
    if (err == MSPACK_ERR_OK && m.out.size != out_size) err = MSPACK_ERR_DECRUNCH;
    if (err != MSPACK_ERR_OK) {
        free(m.out.data);
        if (err == MSPACK_ERR_NOMEMORY)
            return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory decoding LZX");
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "xnb: corrupt LZX data (libmspack: MSPACK_ERR_%s after %zu of %u bytes)",
                         mspack_error_name(err), m.out.size, (unsigned)out_size);
    }
    *out = m.out.data ? m.out.data : malloc(1);
    return *out ? XGD_OK : xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory");
truncated:
    return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "xnb: the LZX frames are truncated");
#endif
}

/* ---- entry points ------------------------------------------------------------------------- */

/* Platforms whose content stores little-endian data: XNA's Windows and Windows Phone, and
 * MonoGame's targets. XNA's Xbox 360 content is written big-endian. */
static bool little_endian_platform(uint8_t p)
{
    return p != 0 && strchr("wmdaiXWnMrPvOSGbp", p) != NULL;
}

xgd_result xgd_content_load_memory(xgd_device *device, const void *data, size_t size,
                                   xgd_content *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    memset(out, 0, sizeof *out);
    if (data == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    xgd_device_info info;
    if ((r = xgd_device_get_info(device, &info)) != XGD_OK) return r;
    const uint8_t *b = data;
    if (size < 3 || memcmp(b, "XNB", 3) != 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "xnb: not an .xnb file (no \"XNB\" signature)");
    if (size < XNB_HEADER)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "xnb: %zu bytes, shorter than the 10-byte header", size);
    uint8_t platform = b[3], version = b[4], flags = b[5];
    uint32_t file_size = (uint32_t)b[6] | (uint32_t)b[7] << 8 | (uint32_t)b[8] << 16 |
                         (uint32_t)b[9] << 24;
    if (platform == 'x')
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: Xbox 360 content (platform 'x') stores big-endian data");
    if (!little_endian_platform(platform))
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED, "xnb: unknown target platform 0x%02x",
                         platform);
    if (version != 5)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: format version %d; xgd reads XNA 4.0's version 5", version);
    if (flags & XNB_FLAG_LZ4)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: LZ4-compressed content (MonoGame's flag 0x40)");
    if (flags & ~(XNB_FLAG_HIDEF | XNB_FLAG_LZX))
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED, "xnb: unknown header flags 0x%02x",
                         flags & ~(XNB_FLAG_HIDEF | XNB_FLAG_LZX));
    if (file_size != size)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "xnb: the header gives a file size of %u bytes; the data has %zu",
                         (unsigned)file_size, size);
    if ((flags & XNB_FLAG_HIDEF) && info.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: content built for the HiDef profile cannot load on a Reach device");

    out->platform = (char)platform;
    out->version = version;
    out->hidef = (flags & XNB_FLAG_HIDEF) != 0;
    out->compressed = (flags & XNB_FLAG_LZX) != 0;
    out->file_size = file_size;
    uint8_t *decoded = NULL;
    xnb_ctx c = { .dev = device, .profile = info.profile };
    if (out->compressed) {
        if (size < XNB_HEADER_COMPRESSED) {
            memset(out, 0, sizeof *out);
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "xnb: a compressed file of %zu bytes has no decompressed size", size);
        }
        uint32_t dsize = (uint32_t)b[10] | (uint32_t)b[11] << 8 | (uint32_t)b[12] << 16 |
                         (uint32_t)b[13] << 24;
        if (dsize > XNB_MAX_BYTES) {
            memset(out, 0, sizeof *out);
            return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                             "xnb: a payload of %u bytes is above xgd's limit of %zu",
                             (unsigned)dsize, XNB_MAX_BYTES);
        }
        if ((r = lzx_decode(device, b + XNB_HEADER_COMPRESSED, size - XNB_HEADER_COMPRESSED,
                            dsize, &decoded)) != XGD_OK) {
            memset(out, 0, sizeof *out);
            return r;
        }
        c.p = decoded;
        c.size = dsize;
        out->decompressed_size = dsize;
    } else {
        c.p = b + XNB_HEADER;
        c.size = size - XNB_HEADER;
        out->decompressed_size = (uint32_t)c.size;
    }

    r = read_payload(&c, out);
    if (r == XGD_OK) {
        out->type_reader_count = c.reader_count;
        c.create = true;
        c.pos = 0;
        r = read_payload(&c, out);
    }
    free(c.readers);
    free(decoded);
    if (r != XGD_OK) xgd_content_release(out);
    return r;
}

xgd_result xgd_content_load_file(xgd_device *device, const char *path, xgd_content *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    memset(out, 0, sizeof *out);
    if (path == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    FILE *f = fopen(path, "rb");
    if (f == NULL) return xgdi_fail(device, XGD_ERROR_IO, "xnb: cannot open %s", path);
    long len = -1;
    if (fseek(f, 0, SEEK_END) == 0) len = ftell(f);
    if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return xgdi_fail(device, XGD_ERROR_IO, "xnb: cannot size %s", path);
    }
    if ((unsigned long)len > XNB_MAX_BYTES) {
        fclose(f);
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "xnb: %s has %ld bytes, above xgd's limit of %zu", path, len,
                         XNB_MAX_BYTES);
    }
    uint8_t *data = malloc(len > 0 ? (size_t)len : 1);
    if (data == NULL) {
        fclose(f);
        return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "xnb: out of memory for %s", path);
    }
    size_t got = fread(data, 1, (size_t)len, f);
    fclose(f);
    if (got != (size_t)len) {
        free(data);
        return xgdi_fail(device, XGD_ERROR_IO, "xnb: cannot read %s", path);
    }
    r = xgd_content_load_memory(device, data, got, out);
    free(data);
    return r;
}

void xgd_content_release(xgd_content *content)
{
    if (content == NULL) return;
    destroy_object(&content->asset);
    for (int i = 0; i < content->shared_count; i++) destroy_object(&content->shared[i]);
    free(content->shared);
    memset(content, 0, sizeof *content);
}
