/*
 * format.c - facts about the 20 XNA 4.0 surface formats, texel decode/encode, DXT (BC1-BC3)
 * block decoding and IEEE half-float conversion.
 *
 * Texel data is always read and written byte by byte in little-endian order, the layout
 * Direct3D and XNA define for packed formats, so the results do not depend on the host.
 */
#include "format.h"

#include <math.h>
#include <string.h>

/* Profile column: XNA 4.0's Reach profile admits exactly Color, Bgr565, Bgra5551, Bgra4444,
 * NormalizedByte2/4 and Dxt1/3/5; everything else needs HiDef. */
static const xgdi_format_info format_table[XGD_SURFACE_FORMAT_COUNT] = {
    /*                                   name  elem blk ch  float  signed hidef */
    [XGD_SURFACE_FORMAT_COLOR] =            { "Color", 4, 1, 4, false, false, false },
    [XGD_SURFACE_FORMAT_BGR565] =           { "Bgr565", 2, 1, 3, false, false, false },
    [XGD_SURFACE_FORMAT_BGRA5551] =         { "Bgra5551", 2, 1, 4, false, false, false },
    [XGD_SURFACE_FORMAT_BGRA4444] =         { "Bgra4444", 2, 1, 4, false, false, false },
    [XGD_SURFACE_FORMAT_DXT1] =             { "Dxt1", 8, 4, 4, false, false, false },
    [XGD_SURFACE_FORMAT_DXT3] =             { "Dxt3", 16, 4, 4, false, false, false },
    [XGD_SURFACE_FORMAT_DXT5] =             { "Dxt5", 16, 4, 4, false, false, false },
    [XGD_SURFACE_FORMAT_NORMALIZED_BYTE2] = { "NormalizedByte2", 2, 1, 2, false, true, false },
    [XGD_SURFACE_FORMAT_NORMALIZED_BYTE4] = { "NormalizedByte4", 4, 1, 4, false, true, false },
    [XGD_SURFACE_FORMAT_RGBA1010102] =      { "Rgba1010102", 4, 1, 4, false, false, true },
    [XGD_SURFACE_FORMAT_RG32] =             { "Rg32", 4, 1, 2, false, false, true },
    [XGD_SURFACE_FORMAT_RGBA64] =           { "Rgba64", 8, 1, 4, false, false, true },
    [XGD_SURFACE_FORMAT_ALPHA8] =           { "Alpha8", 1, 1, 1, false, false, true },
    [XGD_SURFACE_FORMAT_SINGLE] =           { "Single", 4, 1, 1, true, false, true },
    [XGD_SURFACE_FORMAT_VECTOR2] =          { "Vector2", 8, 1, 2, true, false, true },
    [XGD_SURFACE_FORMAT_VECTOR4] =          { "Vector4", 16, 1, 4, true, false, true },
    [XGD_SURFACE_FORMAT_HALF_SINGLE] =      { "HalfSingle", 2, 1, 1, true, false, true },
    [XGD_SURFACE_FORMAT_HALF_VECTOR2] =     { "HalfVector2", 4, 1, 2, true, false, true },
    [XGD_SURFACE_FORMAT_HALF_VECTOR4] =     { "HalfVector4", 8, 1, 4, true, false, true },
    [XGD_SURFACE_FORMAT_HDR_BLENDABLE] =    { "HdrBlendable", 8, 1, 4, true, false, true },
};

const xgdi_format_info *xgdi_format_info_of(xgd_surface_format format)
{
    if ((int)format <= (int)XGD_SURFACE_FORMAT_DEFAULT || format >= XGD_SURFACE_FORMAT_COUNT)
        return NULL;
    return &format_table[format];
}

size_t xgdi_format_row_size(xgd_surface_format format, int width)
{
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL || width <= 0) return 0;
    size_t units = ((size_t)width + (size_t)fi->block_size - 1) / (size_t)fi->block_size;
    size_t bytes;
    return xgdi_size_mul(units, (size_t)fi->element_size, &bytes) ? bytes : 0;
}

size_t xgdi_format_rect_size(xgd_surface_format format, int width, int height)
{
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL || width <= 0 || height <= 0) return 0;
    size_t rows = ((size_t)height + (size_t)fi->block_size - 1) / (size_t)fi->block_size;
    size_t bytes;
    return xgdi_size_mul(rows, xgdi_format_row_size(format, width), &bytes) ? bytes : 0;
}

int xgdi_mip_dim(int base, int level)
{
    if (level < 0) level = 0;
    int d = level >= 31 ? 0 : base >> level;
    return d < 1 ? 1 : d;
}

int xgdi_full_mip_count(int width, int height)
{
    int m = width > height ? width : height;
    int levels = 1;
    while (m > 1) {
        m >>= 1;
        levels++;
    }
    return levels;
}

/* DEFAULT is documented as Color wherever a format is chosen, so the public size queries
 * accept it too. A rectangle whose byte count does not fit in size_t reports 0 (xgd.h), the
 * same "no valid size" answer as a bad format or dimension, never a wrapped small number. */
size_t xgd_surface_format_size(xgd_surface_format format, int width, int height)
{
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    return xgdi_format_rect_size(format, width, height);
}

int xgd_surface_format_element_size(xgd_surface_format format)
{
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    return fi != NULL ? fi->element_size : 0;
}

/* ---- half floats ---------------------------------------------------------------------------- */

static uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float bits_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

float xgdi_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t mant = h & 0x3ffu;
    if (exp == 0) {
        /* Zero or denormal: mant * 2^-24, exact in float. */
        float v = (float)mant * 0x1p-24f;
        return sign ? -v : v;
    }
    if (exp == 31) /* infinity, or NaN keeping its payload (quiet bit included) */
        return bits_float(sign | 0x7f800000u | (mant << 13));
    return bits_float(sign | ((exp + 112u) << 23) | (mant << 13));
}

uint16_t xgdi_float_to_half(float f)
{
    uint32_t x = float_bits(f);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    x &= 0x7fffffffu;
    if (x >= 0x7f800000u) {
        if (x == 0x7f800000u) return (uint16_t)(sign | 0x7c00u);
        /* NaN: keep the top payload bits and force the quiet bit so it stays a NaN. */
        return (uint16_t)(sign | 0x7e00u | ((x >> 13) & 0x3ffu));
    }
    /* 65520 is halfway between 65504 (largest half, odd mantissa) and 2^16: ties-to-even
     * rounds it up, so everything from there on overflows to infinity. */
    if (x >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);
    if (x >= 0x38800000u) {
        /* Normal half. A mantissa carry correctly bumps the exponent. */
        uint32_t h = ((x >> 23) - 112u) << 10 | ((x >> 13) & 0x3ffu);
        uint32_t rem = x & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;
        return (uint16_t)(sign | h);
    }
    /* 2^-25 is the tie between 0 and the smallest denormal 2^-24; even is 0. */
    if (x <= 0x33000000u) return sign;
    /* Denormal half: value / 2^-24 = mant24 * 2^(e - 126), with a shift of 14..24. */
    uint32_t e = x >> 23;
    uint32_t mant = (x & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - e;
    uint32_t h = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1u);
    uint32_t halfway = 1u << (shift - 1u);
    if (rem > halfway || (rem == halfway && (h & 1u))) h++;
    return (uint16_t)(sign | h);
}

/* ---- texel decode / encode ------------------------------------------------------------------ */

static uint32_t rd16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void wr32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static float rdf32(const uint8_t *p)
{
    return bits_float(rd32(p));
}

static void wrf32(uint8_t *p, float v)
{
    wr32(p, float_bits(v));
}

static float snorm8(uint8_t b)
{
    /* -128 and -127 both read -1 (Direct3D SNORM -> FLOAT). */
    float v = (float)(int8_t)b / 127.0f;
    return v < -1.0f ? -1.0f : v;
}

static void set4(float *o, float r, float g, float b, float a)
{
    o[0] = r;
    o[1] = g;
    o[2] = b;
    o[3] = a;
}

void xgdi_format_decode_row(xgd_surface_format format, const void *src, int count, float *rgba)
{
    const uint8_t *p = src;
    for (int i = 0; i < count; i++) {
        float *o = rgba + (size_t)i * 4;
        uint32_t v;
        switch (format) {
        case XGD_SURFACE_FORMAT_DEFAULT:
        case XGD_SURFACE_FORMAT_COLOR:
            set4(o, p[4 * i] / 255.0f, p[4 * i + 1] / 255.0f, p[4 * i + 2] / 255.0f,
                 p[4 * i + 3] / 255.0f);
            break;
        case XGD_SURFACE_FORMAT_BGR565:
            v = rd16(p + 2 * i);
            set4(o, (float)(v >> 11) / 31.0f, (float)((v >> 5) & 63u) / 63.0f,
                 (float)(v & 31u) / 31.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_BGRA5551:
            v = rd16(p + 2 * i);
            set4(o, (float)((v >> 10) & 31u) / 31.0f, (float)((v >> 5) & 31u) / 31.0f,
                 (float)(v & 31u) / 31.0f, (float)(v >> 15));
            break;
        case XGD_SURFACE_FORMAT_BGRA4444:
            v = rd16(p + 2 * i);
            set4(o, (float)((v >> 8) & 15u) / 15.0f, (float)((v >> 4) & 15u) / 15.0f,
                 (float)(v & 15u) / 15.0f, (float)(v >> 12) / 15.0f);
            break;
        case XGD_SURFACE_FORMAT_NORMALIZED_BYTE2:
            set4(o, snorm8(p[2 * i]), snorm8(p[2 * i + 1]), 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_NORMALIZED_BYTE4:
            set4(o, snorm8(p[4 * i]), snorm8(p[4 * i + 1]), snorm8(p[4 * i + 2]),
                 snorm8(p[4 * i + 3]));
            break;
        case XGD_SURFACE_FORMAT_RGBA1010102:
            v = rd32(p + 4 * i);
            set4(o, (float)(v & 1023u) / 1023.0f, (float)((v >> 10) & 1023u) / 1023.0f,
                 (float)((v >> 20) & 1023u) / 1023.0f, (float)(v >> 30) / 3.0f);
            break;
        case XGD_SURFACE_FORMAT_RG32:
            set4(o, (float)rd16(p + 4 * i) / 65535.0f, (float)rd16(p + 4 * i + 2) / 65535.0f,
                 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_RGBA64:
            set4(o, (float)rd16(p + 8 * i) / 65535.0f, (float)rd16(p + 8 * i + 2) / 65535.0f,
                 (float)rd16(p + 8 * i + 4) / 65535.0f, (float)rd16(p + 8 * i + 6) / 65535.0f);
            break;
        case XGD_SURFACE_FORMAT_ALPHA8:
            set4(o, 0.0f, 0.0f, 0.0f, p[i] / 255.0f);
            break;
        case XGD_SURFACE_FORMAT_SINGLE:
            set4(o, rdf32(p + 4 * i), 0.0f, 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_VECTOR2:
            set4(o, rdf32(p + 8 * i), rdf32(p + 8 * i + 4), 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_VECTOR4:
            set4(o, rdf32(p + 16 * i), rdf32(p + 16 * i + 4), rdf32(p + 16 * i + 8),
                 rdf32(p + 16 * i + 12));
            break;
        case XGD_SURFACE_FORMAT_HALF_SINGLE:
            set4(o, xgdi_half_to_float((uint16_t)rd16(p + 2 * i)), 0.0f, 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_HALF_VECTOR2:
            set4(o, xgdi_half_to_float((uint16_t)rd16(p + 4 * i)),
                 xgdi_half_to_float((uint16_t)rd16(p + 4 * i + 2)), 0.0f, 1.0f);
            break;
        case XGD_SURFACE_FORMAT_HALF_VECTOR4:
        case XGD_SURFACE_FORMAT_HDR_BLENDABLE:
            set4(o, xgdi_half_to_float((uint16_t)rd16(p + 8 * i)),
                 xgdi_half_to_float((uint16_t)rd16(p + 8 * i + 2)),
                 xgdi_half_to_float((uint16_t)rd16(p + 8 * i + 4)),
                 xgdi_half_to_float((uint16_t)rd16(p + 8 * i + 6)));
            break;
        default:
            /* Block formats have no per-texel layout (xgdi_dxt_decode_*); keep the output
             * defined rather than leaving caller memory uninitialised. */
            set4(o, 0.0f, 0.0f, 0.0f, 0.0f);
            break;
        }
    }
}

/* FLOAT -> UNORM (team rule, after Direct3D): NaN -> 0, clamp to 0..1, floor(v * max + 0.5). */
static uint32_t to_unorm(float v, uint32_t max)
{
    if (!(v > 0.0f)) return 0; /* also NaN */
    if (v >= 1.0f) return max;
    return (uint32_t)(v * (float)max + 0.5f);
}

/* FLOAT -> SNORM8: NaN -> 0, clamp to -1..1, round to nearest (halves away from zero). */
static uint8_t to_snorm8(float v)
{
    if (v != v) return 0;
    if (v <= -1.0f) return (uint8_t)(int8_t)-127;
    if (v >= 1.0f) return 127;
    float s = v * 127.0f;
    int q = s >= 0.0f ? (int)(s + 0.5f) : -(int)(0.5f - s);
    return (uint8_t)(int8_t)q;
}

void xgdi_format_encode_row(xgd_surface_format format, const float *rgba, int count, void *dst)
{
    uint8_t *p = dst;
    for (int i = 0; i < count; i++) {
        const float *c = rgba + (size_t)i * 4;
        switch (format) {
        case XGD_SURFACE_FORMAT_DEFAULT:
        case XGD_SURFACE_FORMAT_COLOR:
            for (int k = 0; k < 4; k++) p[4 * i + k] = (uint8_t)to_unorm(c[k], 255);
            break;
        case XGD_SURFACE_FORMAT_BGR565:
            wr16(p + 2 * i, to_unorm(c[0], 31) << 11 | to_unorm(c[1], 63) << 5 | to_unorm(c[2], 31));
            break;
        case XGD_SURFACE_FORMAT_BGRA5551:
            wr16(p + 2 * i, to_unorm(c[3], 1) << 15 | to_unorm(c[0], 31) << 10 |
                                to_unorm(c[1], 31) << 5 | to_unorm(c[2], 31));
            break;
        case XGD_SURFACE_FORMAT_BGRA4444:
            wr16(p + 2 * i, to_unorm(c[3], 15) << 12 | to_unorm(c[0], 15) << 8 |
                                to_unorm(c[1], 15) << 4 | to_unorm(c[2], 15));
            break;
        case XGD_SURFACE_FORMAT_NORMALIZED_BYTE2:
            p[2 * i] = to_snorm8(c[0]);
            p[2 * i + 1] = to_snorm8(c[1]);
            break;
        case XGD_SURFACE_FORMAT_NORMALIZED_BYTE4:
            for (int k = 0; k < 4; k++) p[4 * i + k] = to_snorm8(c[k]);
            break;
        case XGD_SURFACE_FORMAT_RGBA1010102:
            wr32(p + 4 * i, to_unorm(c[3], 3) << 30 | to_unorm(c[2], 1023) << 20 |
                                to_unorm(c[1], 1023) << 10 | to_unorm(c[0], 1023));
            break;
        case XGD_SURFACE_FORMAT_RG32:
            wr16(p + 4 * i, to_unorm(c[0], 65535));
            wr16(p + 4 * i + 2, to_unorm(c[1], 65535));
            break;
        case XGD_SURFACE_FORMAT_RGBA64:
            for (int k = 0; k < 4; k++) wr16(p + 8 * i + 2 * k, to_unorm(c[k], 65535));
            break;
        case XGD_SURFACE_FORMAT_ALPHA8:
            p[i] = (uint8_t)to_unorm(c[3], 255);
            break;
        case XGD_SURFACE_FORMAT_SINGLE:
            wrf32(p + 4 * i, c[0]);
            break;
        case XGD_SURFACE_FORMAT_VECTOR2:
            wrf32(p + 8 * i, c[0]);
            wrf32(p + 8 * i + 4, c[1]);
            break;
        case XGD_SURFACE_FORMAT_VECTOR4:
            for (int k = 0; k < 4; k++) wrf32(p + 16 * i + 4 * k, c[k]);
            break;
        case XGD_SURFACE_FORMAT_HALF_SINGLE:
            wr16(p + 2 * i, xgdi_float_to_half(c[0]));
            break;
        case XGD_SURFACE_FORMAT_HALF_VECTOR2:
            wr16(p + 4 * i, xgdi_float_to_half(c[0]));
            wr16(p + 4 * i + 2, xgdi_float_to_half(c[1]));
            break;
        case XGD_SURFACE_FORMAT_HALF_VECTOR4:
        case XGD_SURFACE_FORMAT_HDR_BLENDABLE:
            for (int k = 0; k < 4; k++) wr16(p + 8 * i + 2 * k, xgdi_float_to_half(c[k]));
            break;
        default:
            /* Block formats cannot be render targets; nothing is written. */
            return;
        }
    }
}

/* ---- DXT (BC1-BC3) -------------------------------------------------------------------------- */

static void expand565(uint32_t c, uint8_t out[3])
{
    uint32_t r = c >> 11, g = (c >> 5) & 63u, b = c & 31u;
    out[0] = (uint8_t)(r << 3 | r >> 2);
    out[1] = (uint8_t)(g << 2 | g >> 4);
    out[2] = (uint8_t)(b << 3 | b >> 2);
}

/*
 * The BC1 colour palette. Interpolation is computed exactly on the 8-bit expanded endpoints
 * and rounded to nearest: (2*c0 + c1)/3 has a fraction of 0, 1/3 or 2/3, so
 * floor((2*c0 + c1 + 1) / 3) is the nearest integer; the 3-colour midpoint (c0 + c1)/2
 * rounds its .5 up. The Direct3D specification only bounds the error, and GPUs differ by 1 in
 * these entries (some interpolate in 5/6-bit space, some use 1/3 weights in fixed point), so
 * GPU renderers compare DXT results with a tolerance of 1.
 */
static void bc1_palette(const uint8_t *blk, bool allow_three_colour, uint8_t pal[4][4])
{
    uint32_t c0 = rd16(blk), c1 = rd16(blk + 2);
    expand565(c0, pal[0]);
    expand565(c1, pal[1]);
    pal[0][3] = pal[1][3] = 255;
    if (c0 > c1 || !allow_three_colour) {
        for (int k = 0; k < 3; k++) {
            pal[2][k] = (uint8_t)((2u * pal[0][k] + pal[1][k] + 1u) / 3u);
            pal[3][k] = (uint8_t)((pal[0][k] + 2u * pal[1][k] + 1u) / 3u);
        }
        pal[2][3] = pal[3][3] = 255;
    } else {
        for (int k = 0; k < 3; k++) {
            pal[2][k] = (uint8_t)((pal[0][k] + pal[1][k] + 1u) / 2u);
            pal[3][k] = 0;
        }
        pal[2][3] = 255;
        pal[3][3] = 0; /* transparent black */
    }
}

static void bc1_colours(const uint8_t *blk, bool allow_three_colour, uint8_t rgba[16][4])
{
    uint8_t pal[4][4];
    bc1_palette(blk, allow_three_colour, pal);
    uint32_t idx = rd32(blk + 4);
    for (int i = 0; i < 16; i++) memcpy(rgba[i], pal[(idx >> (2 * i)) & 3u], 4);
}

void xgdi_dxt_decode_block(xgd_surface_format format, const uint8_t *block, uint8_t rgba[16][4])
{
    switch (format) {
    case XGD_SURFACE_FORMAT_DXT1:
        bc1_colours(block, true, rgba);
        break;
    case XGD_SURFACE_FORMAT_DXT3: {
        /* BC2/BC3 colour blocks always use the 4-colour palette, whatever c0 <= c1 says. */
        bc1_colours(block + 8, false, rgba);
        for (int i = 0; i < 16; i++) {
            uint32_t a4 = (block[i / 2] >> (4 * (i & 1))) & 15u;
            rgba[i][3] = (uint8_t)(a4 * 17u); /* 4-bit unorm to 8-bit exactly: a * 255/15 */
        }
        break;
    }
    case XGD_SURFACE_FORMAT_DXT5: {
        bc1_colours(block + 8, false, rgba);
        uint32_t a0 = block[0], a1 = block[1];
        uint8_t pal[8];
        pal[0] = (uint8_t)a0;
        pal[1] = (uint8_t)a1;
        /* Same rounding policy as the colours: exact weights, nearest integer (a fraction of
         * k/7 or k/5 is never one half). */
        if (a0 > a1) {
            for (uint32_t c = 1; c <= 6; c++)
                pal[c + 1] = (uint8_t)(((7u - c) * a0 + c * a1 + 3u) / 7u);
        } else {
            for (uint32_t c = 1; c <= 4; c++)
                pal[c + 1] = (uint8_t)(((5u - c) * a0 + c * a1 + 2u) / 5u);
            pal[6] = 0;
            pal[7] = 255;
        }
        uint64_t bits = 0;
        for (int k = 0; k < 6; k++) bits |= (uint64_t)block[2 + k] << (8 * k);
        for (int i = 0; i < 16; i++) rgba[i][3] = pal[(bits >> (3 * i)) & 7u];
        break;
    }
    default:
        memset(rgba, 0, 16 * 4);
        break;
    }
}

void xgdi_dxt_decode_image(xgd_surface_format format, const void *blocks, int width, int height,
                           uint8_t *rgba)
{
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL || fi->block_size != 4 || width <= 0 || height <= 0) return;
    const uint8_t *src = blocks;
    int bw = (width + 3) / 4, bh = (height + 3) / 4;
    for (int by = 0; by < bh; by++) {
        for (int bx = 0; bx < bw; bx++) {
            uint8_t texels[16][4];
            xgdi_dxt_decode_block(format, src, texels);
            src += fi->element_size;
            for (int y = 0; y < 4 && by * 4 + y < height; y++)
                for (int x = 0; x < 4 && bx * 4 + x < width; x++)
                    memcpy(rgba + ((size_t)(by * 4 + y) * (size_t)width + (size_t)(bx * 4 + x)) * 4,
                           texels[y * 4 + x], 4);
        }
    }
}

void xgdi_format_to_rgba8(xgd_surface_format format, const void *src, int width, int height,
                          uint8_t *rgba)
{
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL || width <= 0 || height <= 0) return;
    if (fi->block_size == 4) {
        xgdi_dxt_decode_image(format, src, width, height, rgba);
        return;
    }
    size_t pitch = xgdi_format_row_size(format, width);
    if (format == XGD_SURFACE_FORMAT_COLOR) {
        memcpy(rgba, src, pitch * (size_t)height);
        return;
    }
    /* Through a small stack buffer so this never allocates. */
    enum { CHUNK = 64 };
    float tmp[CHUNK * 4];
    const uint8_t *s = src;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = s + pitch * (size_t)y;
        uint8_t *out = rgba + (size_t)y * (size_t)width * 4;
        for (int x0 = 0; x0 < width; x0 += CHUNK) {
            int n = width - x0 < CHUNK ? width - x0 : CHUNK;
            xgdi_format_decode_row(format, row + (size_t)x0 * (size_t)fi->element_size, n, tmp);
            xgdi_format_encode_row(XGD_SURFACE_FORMAT_COLOR, tmp, n, out + (size_t)x0 * 4);
        }
    }
}

/* ---- packed formats stored wide --------------------------------------------------------- */

/* Field widths (bits) of the packed formats, in r, g, b, a order; 0 = no such field. */
static const int *packed_bits(xgd_surface_format format)
{
    static const int b565[4] = { 5, 6, 5, 0 }, b5551[4] = { 5, 5, 5, 1 },
                     b4444[4] = { 4, 4, 4, 4 };
    switch (format) {
    case XGD_SURFACE_FORMAT_BGR565: return b565;
    case XGD_SURFACE_FORMAT_BGRA5551: return b5551;
    case XGD_SURFACE_FORMAT_BGRA4444: return b4444;
    default: return NULL;
    }
}

/* Bit position of each field inside the 16-bit texel (xgd.h's layouts). */
static const int *packed_shift(xgd_surface_format format)
{
    static const int s565[4] = { 11, 5, 0, 0 }, s5551[4] = { 10, 5, 0, 15 },
                     s4444[4] = { 8, 4, 0, 12 };
    switch (format) {
    case XGD_SURFACE_FORMAT_BGR565: return s565;
    case XGD_SURFACE_FORMAT_BGRA5551: return s5551;
    case XGD_SURFACE_FORMAT_BGRA4444: return s4444;
    default: return NULL;
    }
}

xgd_surface_format xgdi_packed_wide_format(xgd_surface_format format)
{
    switch (format) {
    /* 4-bit fields widen exactly to 8 bits (v * 17); 5- and 6-bit fields need 16 bits to land
       within 0.5/65535 of v/31 and v/63, far below any 8-bit result's rounding step */
    case XGD_SURFACE_FORMAT_BGRA4444: return XGD_SURFACE_FORMAT_COLOR;
    case XGD_SURFACE_FORMAT_BGR565:
    case XGD_SURFACE_FORMAT_BGRA5551: return XGD_SURFACE_FORMAT_RGBA64;
    default: return XGD_SURFACE_FORMAT_DEFAULT;
    }
}

void xgdi_packed_widen_row(xgd_surface_format format, const void *src, int count, void *dst)
{
    const int *bits = packed_bits(format), *shift = packed_shift(format);
    bool wide16 = xgdi_packed_wide_format(format) == XGD_SURFACE_FORMAT_RGBA64;
    uint32_t top = wide16 ? 65535u : 255u;
    const uint8_t *s = src;
    uint8_t *d = dst;
    if (bits == NULL) return;
    for (int i = 0; i < count; i++) {
        uint32_t texel = rd16(s + 2 * i);
        for (int k = 0; k < 4; k++) {
            uint32_t e = top; /* a missing field reads as 1 (Bgr565's alpha) */
            if (bits[k] > 0) {
                uint32_t m = (1u << bits[k]) - 1u, v = (texel >> shift[k]) & m;
                e = (v * top + m / 2u) / m; /* round(v * top / m); m is odd, no ties */
            }
            if (wide16) wr16(d + 8 * i + 2 * k, e);
            else d[4 * i + k] = (uint8_t)e;
        }
    }
}

void xgdi_packed_narrow_row(xgd_surface_format format, const void *src, int count, void *dst)
{
    const int *bits = packed_bits(format), *shift = packed_shift(format);
    bool wide16 = xgdi_packed_wide_format(format) == XGD_SURFACE_FORMAT_RGBA64;
    uint32_t top = wide16 ? 65535u : 255u;
    const uint8_t *s = src;
    uint8_t *d = dst;
    if (bits == NULL) return;
    for (int i = 0; i < count; i++) {
        uint32_t texel = 0;
        for (int k = 0; k < 4; k++) {
            if (bits[k] == 0) continue;
            uint32_t e = wide16 ? rd16(s + 8 * i + 2 * k) : s[4 * i + k];
            uint32_t m = (1u << bits[k]) - 1u;
            texel |= ((e * m + top / 2u) / top) << shift[k]; /* round(e * m / top) */
        }
        wr16(d + 2 * i, texel);
    }
}
