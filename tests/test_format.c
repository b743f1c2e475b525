/*
 * test_format.c - surface-format facts, texel conversion, half floats, DXT block decoding,
 * PNG through libspng, and the shared retire queue.
 *
 * Every expected value is worked out by hand from the format's definition (bit layouts in
 * xgd.h, the BC1-BC3 rules, IEEE 754 binary16, the team's FLOAT -> UNORM rule
 * floor(v * max + 0.5)); the arithmetic is written next to each value.
 */
#include "harness.h"
#include "png_support.h"

#include "format.h"
#include "renderer.h"

#include <math.h>
#ifdef XGD_TEST_HAVE_PNG
#include <spng.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------------------------------- */

static void check_rgba_f(xgdt_ctx *t, const char *what, const float *got, float r, float g,
                         float b, float a)
{
    const float want[4] = { r, g, b, a };
    for (int k = 0; k < 4; k++)
        CHECK_MSG(fabsf(got[k] - want[k]) <= 1e-6f, "%s: channel %d = %.9g, expected %.9g", what,
                  k, (double)got[k], (double)want[k]);
}

static void check_texel8(xgdt_ctx *t, const char *what, uint8_t rgba[16][4], int i,
                         int r, int g, int b, int a)
{
    const int want[4] = { r, g, b, a };
    for (int k = 0; k < 4; k++)
        CHECK_MSG(rgba[i][k] == want[k], "%s: texel %d (x=%d, y=%d) channel %d = %d, expected %d",
                  what, i, i % 4, i / 4, k, rgba[i][k], want[k]);
}

static float f_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* A scratch path in the test-output directory, unique per test (ctest runs tests as separate
 * processes, each with its own name). */
static void scratch_path(char *buf, size_t size, const char *name)
{
    const char *dir = getenv("XGD_TEST_OUTPUT");
    snprintf(buf, size, "%s/%s.tmp.png", dir != NULL && dir[0] ? dir : ".", name);
}

/* ---- format facts ------------------------------------------------------------------------- */

XGD_TEST(format_info_table)
{
    /* element sizes from the bit layouts in xgd.h: bytes per texel, per 4x4 block for DXT. */
    static const struct { xgd_surface_format f; int size, block; bool hidef; } rows[] = {
        { XGD_SURFACE_FORMAT_COLOR, 4, 1, false },
        { XGD_SURFACE_FORMAT_BGR565, 2, 1, false },
        { XGD_SURFACE_FORMAT_BGRA5551, 2, 1, false },
        { XGD_SURFACE_FORMAT_BGRA4444, 2, 1, false },
        { XGD_SURFACE_FORMAT_DXT1, 8, 4, false },
        { XGD_SURFACE_FORMAT_DXT3, 16, 4, false },
        { XGD_SURFACE_FORMAT_DXT5, 16, 4, false },
        { XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, 2, 1, false },
        { XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, 4, 1, false },
        { XGD_SURFACE_FORMAT_RGBA1010102, 4, 1, true },
        { XGD_SURFACE_FORMAT_RG32, 4, 1, true },
        { XGD_SURFACE_FORMAT_RGBA64, 8, 1, true },
        { XGD_SURFACE_FORMAT_ALPHA8, 1, 1, true },
        { XGD_SURFACE_FORMAT_SINGLE, 4, 1, true },
        { XGD_SURFACE_FORMAT_VECTOR2, 8, 1, true },
        { XGD_SURFACE_FORMAT_VECTOR4, 16, 1, true },
        { XGD_SURFACE_FORMAT_HALF_SINGLE, 2, 1, true },
        { XGD_SURFACE_FORMAT_HALF_VECTOR2, 4, 1, true },
        { XGD_SURFACE_FORMAT_HALF_VECTOR4, 8, 1, true },
        { XGD_SURFACE_FORMAT_HDR_BLENDABLE, 8, 1, true },
    };
    CHECK_INT(sizeof rows / sizeof rows[0], XGD_SURFACE_FORMAT_COUNT - 1);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const xgdi_format_info *fi = xgdi_format_info_of(rows[i].f);
        CHECK_MSG(fi != NULL, "format %d has no info", (int)rows[i].f);
        if (fi == NULL) continue;
        CHECK_MSG(fi->element_size == rows[i].size, "%s: element_size %d, expected %d", fi->name,
                  fi->element_size, rows[i].size);
        CHECK_MSG(fi->block_size == rows[i].block, "%s: block_size %d", fi->name, fi->block_size);
        CHECK_MSG(fi->hidef_only == rows[i].hidef, "%s: hidef_only %d", fi->name, fi->hidef_only);
        CHECK_INT(xgd_surface_format_element_size(rows[i].f), rows[i].size);
    }
    CHECK(strcmp(xgdi_format_info_of(XGD_SURFACE_FORMAT_BGRA4444)->name, "Bgra4444") == 0);
    CHECK(xgdi_format_info_of(XGD_SURFACE_FORMAT_NORMALIZED_BYTE4)->is_signed);
    CHECK(!xgdi_format_info_of(XGD_SURFACE_FORMAT_COLOR)->is_signed);
    CHECK(xgdi_format_info_of(XGD_SURFACE_FORMAT_HDR_BLENDABLE)->is_float);
    CHECK(!xgdi_format_info_of(XGD_SURFACE_FORMAT_RG32)->is_float);
    CHECK(xgdi_format_info_of(XGD_SURFACE_FORMAT_DEFAULT) == NULL);
    CHECK(xgdi_format_info_of(XGD_SURFACE_FORMAT_COUNT) == NULL);
    CHECK(xgdi_format_info_of((xgd_surface_format)-1) == NULL);
    /* DEFAULT means Color in the public queries; unknown values are 0. */
    CHECK_INT(xgd_surface_format_element_size(XGD_SURFACE_FORMAT_DEFAULT), 4);
    CHECK_INT(xgd_surface_format_element_size(XGD_SURFACE_FORMAT_COUNT), 0);
}

XGD_TEST(format_rect_sizes)
{
    /* DXT: ceil(5/4) = 2 blocks each way; 2 * 2 * 8 = 32 bytes for DXT1, 64 for DXT3/5. */
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_DXT1, 5, 5), 32);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_DXT5, 5, 5), 64);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_DXT3, 1, 1), 16);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_DXT1, 4, 4), 8);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_DXT1, 8, 3), 16);  /* 2 x 1 blocks */
    CHECK_INT(xgdi_format_row_size(XGD_SURFACE_FORMAT_DXT1, 5), 16);      /* 2 blocks */
    CHECK_INT(xgdi_format_row_size(XGD_SURFACE_FORMAT_DXT5, 9), 48);      /* 3 blocks */
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_COLOR, 3, 2), 24);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_VECTOR4, 2, 2), 64);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_ALPHA8, 7, 3), 21);
    CHECK_INT(xgdi_format_row_size(XGD_SURFACE_FORMAT_BGR565, 7), 14);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_DXT1, 5, 5), 32);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_DEFAULT, 2, 2), 16);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_HALF_VECTOR4, 3, 1), 24);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_COLOR, 0, 4), 0);
    CHECK_INT(xgdi_format_rect_size(XGD_SURFACE_FORMAT_COLOR, 4, -1), 0);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_COUNT, 4, 4), 0);
}

XGD_TEST(format_mip_dims)
{
    CHECK_INT(xgdi_mip_dim(64, 0), 64);
    CHECK_INT(xgdi_mip_dim(64, 3), 8);
    CHECK_INT(xgdi_mip_dim(5, 1), 2);   /* floor(5 / 2) */
    CHECK_INT(xgdi_mip_dim(5, 3), 1);   /* 5 >> 3 = 0, clamped to 1 */
    CHECK_INT(xgdi_mip_dim(1, 10), 1);
    CHECK_INT(xgdi_mip_dim(4096, 40), 1);
    CHECK_INT(xgdi_full_mip_count(64, 32), 7);  /* 64 32 16 8 4 2 1 */
    CHECK_INT(xgdi_full_mip_count(1, 1), 1);
    CHECK_INT(xgdi_full_mip_count(5, 3), 3);    /* floor(log2 5) + 1: 5 2 1 */
    CHECK_INT(xgdi_full_mip_count(1, 256), 9);
    CHECK_INT(xgdi_full_mip_count(255, 1), 8);
}

/* ---- packed formats ------------------------------------------------------------------------- */

static void decode16(xgd_surface_format f, uint16_t v, float out[4])
{
    const uint8_t b[2] = { (uint8_t)(v & 0xff), (uint8_t)(v >> 8) }; /* little-endian */
    xgdi_format_decode_row(f, b, 1, out);
}

XGD_TEST(format_bgr565_decode)
{
    float c[4];
    decode16(XGD_SURFACE_FORMAT_BGR565, 0xF800, c); /* r = bits 11-15 */
    check_rgba_f(t, "0xF800", c, 1, 0, 0, 1);
    decode16(XGD_SURFACE_FORMAT_BGR565, 0x07E0, c); /* g = bits 5-10 */
    check_rgba_f(t, "0x07E0", c, 0, 1, 0, 1);
    decode16(XGD_SURFACE_FORMAT_BGR565, 0x001F, c); /* b = bits 0-4 */
    check_rgba_f(t, "0x001F", c, 0, 0, 1, 1);
    decode16(XGD_SURFACE_FORMAT_BGR565, 0x8410, c); /* r 16, g 32, b 16 */
    check_rgba_f(t, "0x8410", c, 16.0f / 31, 32.0f / 63, 16.0f / 31, 1);
    /* Two texels in a row, the second at byte offset 2. */
    const uint8_t two[4] = { 0x1F, 0x00, 0x00, 0xF8 };
    float c2[8];
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_BGR565, two, 2, c2);
    check_rgba_f(t, "row[0]", c2, 0, 0, 1, 1);
    check_rgba_f(t, "row[1]", c2 + 4, 1, 0, 0, 1);
}

XGD_TEST(format_bgra5551_bgra4444_decode)
{
    float c[4];
    decode16(XGD_SURFACE_FORMAT_BGRA5551, 0x8000, c); /* a = bit 15 */
    check_rgba_f(t, "5551 0x8000", c, 0, 0, 0, 1);
    decode16(XGD_SURFACE_FORMAT_BGRA5551, 0x7C00, c); /* r = bits 10-14 */
    check_rgba_f(t, "5551 0x7C00", c, 1, 0, 0, 0);
    decode16(XGD_SURFACE_FORMAT_BGRA5551, 0x03E0, c); /* g = bits 5-9 */
    check_rgba_f(t, "5551 0x03E0", c, 0, 1, 0, 0);
    decode16(XGD_SURFACE_FORMAT_BGRA5551, 0x0001, c);
    check_rgba_f(t, "5551 0x0001", c, 0, 0, 1.0f / 31, 0);

    decode16(XGD_SURFACE_FORMAT_BGRA4444, 0xF000, c); /* a = bits 12-15 */
    check_rgba_f(t, "4444 0xF000", c, 0, 0, 0, 1);
    decode16(XGD_SURFACE_FORMAT_BGRA4444, 0x0F00, c); /* r = bits 8-11 */
    check_rgba_f(t, "4444 0x0F00", c, 1, 0, 0, 0);
    decode16(XGD_SURFACE_FORMAT_BGRA4444, 0x1234, c); /* a 1, r 2, g 3, b 4 */
    check_rgba_f(t, "4444 0x1234", c, 2.0f / 15, 3.0f / 15, 4.0f / 15, 1.0f / 15);
}

XGD_TEST(format_wide_unorm_decode)
{
    float c[4];
    /* Rgba1010102: r 0-9, g 10-19, b 20-29, a 30-31; bytes little-endian. */
    const uint8_t r_only[4] = { 0xFF, 0x03, 0x00, 0x00 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_RGBA1010102, r_only, 1, c);
    check_rgba_f(t, "1010102 r", c, 1, 0, 0, 0);
    const uint8_t g_b_a[4] = { 0x00, 0x04, 0x30, 0x40 }; /* g = 1, b = 3, a = 1 */
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_RGBA1010102, g_b_a, 1, c);
    check_rgba_f(t, "1010102 gba", c, 0, 1.0f / 1023, 3.0f / 1023, 1.0f / 3);
    /* Rg32: two uint16 unorm, missing b = 0, missing a = 1. */
    const uint8_t rg[4] = { 0xFF, 0xFF, 0x00, 0x80 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_RG32, rg, 1, c);
    check_rgba_f(t, "Rg32", c, 1, 32768.0f / 65535, 0, 1);
    const uint8_t rgba64[8] = { 0x00, 0x00, 0xFF, 0xFF, 0x01, 0x00, 0x00, 0x80 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_RGBA64, rgba64, 1, c);
    check_rgba_f(t, "Rgba64", c, 0, 1, 1.0f / 65535, 32768.0f / 65535);
    /* Alpha8 samples as (0, 0, 0, a). */
    const uint8_t a8[2] = { 0xFF, 0x33 };
    float c2[8];
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_ALPHA8, a8, 2, c2);
    check_rgba_f(t, "Alpha8[0]", c2, 0, 0, 0, 1);
    check_rgba_f(t, "Alpha8[1]", c2 + 4, 0, 0, 0, 0.2f);
}

XGD_TEST(format_unorm_encode)
{
    uint8_t b[16];
    /* Color: 0.5 * 255 + 0.5 = 128; 0.25 -> 64.25 -> 64; clamps; NaN -> 0. */
    const float px[8] = { 0.5f, 0.25f, -0.2f, 1.5f, NAN, 1.0f, 0.0f, 0.998f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_COLOR, px, 2, b);
    const uint8_t want[8] = { 128, 64, 0, 255, 0, 255, 0, 254 }; /* 0.998*255+.5 = 254.99 */
    for (int i = 0; i < 8; i++) CHECK_MSG(b[i] == want[i], "Color byte %d = %d, expected %d", i, b[i], want[i]);
    /* Bgr565 (1, 0.5, 0): r 31, g 0.5*63+0.5 = 32, b 0 -> 31<<11 | 32<<5 = 0xFC00. */
    const float c565[4] = { 1.0f, 0.5f, 0.0f, 0.3f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_BGR565, c565, 1, b);
    CHECK_INT(b[0] | b[1] << 8, 0xFC00);
    /* Bgra4444 (0.2, 0.4, 0.6, 1): 3.5 -> 3, 6.5 -> 6, 9.5 -> 9, 15 -> 0xF369. */
    const float c4444[4] = { 0.2f, 0.4f, 0.6f, 1.0f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_BGRA4444, c4444, 1, b);
    CHECK_INT(b[0] | b[1] << 8, 0xF369);
    /* Bgra5551 alpha 0.49 -> 0, 0.5 -> 1. */
    const float c5551[8] = { 0, 0, 1, 0.49f, 1, 0, 0, 0.5f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_BGRA5551, c5551, 2, b);
    CHECK_INT(b[0] | b[1] << 8, 0x001F);
    CHECK_INT(b[2] | b[3] << 8, 0xFC00);
    /* Rg32 0.5 -> 32767.5 + 0.5 = 32768. */
    const float crg[4] = { 0.5f, 1.0f, 0.7f, 0.7f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_RG32, crg, 1, b);
    CHECK_INT(b[0] | b[1] << 8, 0x8000);
    CHECK_INT(b[2] | b[3] << 8, 0xFFFF);
    /* Rgba1010102 (1, 0, 0.5, 1): b 511.5+0.5 = 512, a 3 -> 3<<30 | 512<<20 | 1023. */
    const float c1010[4] = { 1.0f, 0.0f, 0.5f, 1.0f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_RGBA1010102, c1010, 1, b);
    CHECK_INT((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24,
              0xC00003FFu | 512u << 20);
    /* Alpha8 stores alpha only. */
    const float ca[4] = { 1.0f, 1.0f, 1.0f, 0.5f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_ALPHA8, ca, 1, b);
    CHECK_INT(b[0], 128);
    /* Every 8-bit value survives decode then encode. */
    uint8_t all[256], back[256];
    float f[256 * 4];
    for (int i = 0; i < 256; i++) all[i] = (uint8_t)i;
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_COLOR, all, 64, f);
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_COLOR, f, 64, back);
    CHECK(memcmp(all, back, 256) == 0);
}

XGD_TEST(format_snorm)
{
    float c[8];
    /* NormalizedByte2: -128 and -127 read -1, 127 reads 1, 64 reads 64/127; b 0, a 1. */
    const uint8_t nb2[4] = { 0x80, 0x7F, 0x81, 0x40 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, nb2, 2, c);
    check_rgba_f(t, "nb2[0]", c, -1, 1, 0, 1);
    check_rgba_f(t, "nb2[1]", c + 4, -1, 64.0f / 127, 0, 1);
    const uint8_t nb4[4] = { 0x00, 0xC0, 0x01, 0x80 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, nb4, 1, c);
    check_rgba_f(t, "nb4", c, 0, -64.0f / 127, 1.0f / 127, -1);
    /* Encode: -1 -> -127 (0x81), 1 -> 127, 0.5 -> 63.5 -> 64, -0.5 -> -64, -2 clamps. */
    const float e[4] = { -1.0f, 1.0f, 0.5f, -0.5f };
    uint8_t b[4];
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, e, 1, b);
    CHECK_INT(b[0], 0x81);
    CHECK_INT(b[1], 0x7F);
    CHECK_INT(b[2], 0x40);
    CHECK_INT(b[3], 0xC0);
    const float e2[4] = { -2.0f, 0.0f, 9.0f, 9.0f };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, e2, 1, b);
    CHECK_INT(b[0], 0x81);
    CHECK_INT(b[1], 0x00);
}

/* ---- half floats ---------------------------------------------------------------------------- */

XGD_TEST(format_half_known_values)
{
    /* binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits. */
    CHECK_INT(xgdi_float_to_half(1.0f), 0x3C00);
    CHECK_INT(xgdi_float_to_half(0.5f), 0x3800);
    CHECK_INT(xgdi_float_to_half(-2.0f), 0xC000);
    CHECK_INT(xgdi_float_to_half(65504.0f), 0x7BFF);           /* largest finite */
    CHECK_INT(xgdi_float_to_half(0x1p-14f), 0x0400);           /* smallest normal */
    CHECK_INT(xgdi_float_to_half(0x1p-24f), 0x0001);           /* smallest denormal */
    CHECK_INT(xgdi_float_to_half(1023 * 0x1p-24f), 0x03FF);    /* largest denormal */
    CHECK_INT(xgdi_float_to_half(0.0f), 0x0000);
    CHECK_INT(xgdi_float_to_half(-0.0f), 0x8000);
    CHECK_INT(xgdi_float_to_half(INFINITY), 0x7C00);
    CHECK_INT(xgdi_float_to_half(-INFINITY), 0xFC00);
    CHECK_INT(xgdi_float_to_half(1e10f), 0x7C00);              /* overflow -> inf */
    CHECK_INT(xgdi_float_to_half(-1e10f), 0xFC00);
    CHECK_INT(xgdi_float_to_half(1e-10f), 0x0000);             /* underflow -> 0 */
    uint16_t nan_h = xgdi_float_to_half(NAN);
    CHECK_MSG((nan_h & 0x7C00) == 0x7C00 && (nan_h & 0x03FF) != 0, "NaN -> 0x%04X", nan_h);

    CHECK(xgdi_half_to_float(0x3C00) == 1.0f);
    CHECK(xgdi_half_to_float(0x7BFF) == 65504.0f);
    CHECK(xgdi_half_to_float(0x0001) == 0x1p-24f);
    CHECK(xgdi_half_to_float(0x03FF) == 1023 * 0x1p-24f);
    CHECK(xgdi_half_to_float(0x0400) == 0x1p-14f);
    CHECK(xgdi_half_to_float(0xC000) == -2.0f);
    CHECK(xgdi_half_to_float(0x3555) == 1365 * 0x1p-12f); /* 2^-2 * (1 + 341/1024) */
    CHECK(bits_of(xgdi_half_to_float(0x8000)) == 0x80000000u);
    CHECK(xgdi_half_to_float(0x7C00) == INFINITY);
    CHECK(xgdi_half_to_float(0xFC00) == -INFINITY);
    CHECK(isnan(xgdi_half_to_float(0x7E00)));
    CHECK(isnan(xgdi_half_to_float(0x7C01))); /* signalling payload stays a NaN */
}

XGD_TEST(format_half_round_to_even)
{
    /* Between 1.0 (0x3C00) and 1 + 2^-10 (0x3C01) the tie 1 + 2^-11 goes to the even 0x3C00. */
    CHECK_INT(xgdi_float_to_half(1.0f + 0x1p-11f), 0x3C00);
    /* Just above the tie rounds up. */
    CHECK_INT(xgdi_float_to_half(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);
    /* Tie between 0x3C01 and 0x3C02 goes to the even 0x3C02. */
    CHECK_INT(xgdi_float_to_half(1.0f + 3 * 0x1p-11f), 0x3C02);
    /* Tie just below 2.0 (0x3FFF odd) carries into the exponent: 0x4000. */
    CHECK_INT(xgdi_float_to_half(2.0f - 0x1p-11f), 0x4000);
    /* 65520 is the tie between 65504 (odd) and 2^16: rounds to infinity; 65519 does not. */
    CHECK_INT(xgdi_float_to_half(65520.0f), 0x7C00);
    CHECK_INT(xgdi_float_to_half(65519.0f), 0x7BFF);
    /* Denormals, in units of 2^-24: 0.5 -> 0 (even), 1.5 -> 2, 2.5 -> 2, 0.5 + tiny -> 1. */
    CHECK_INT(xgdi_float_to_half(0x1p-25f), 0x0000);
    CHECK_INT(xgdi_float_to_half(3 * 0x1p-25f), 0x0002);
    CHECK_INT(xgdi_float_to_half(5 * 0x1p-25f), 0x0002);
    CHECK_INT(xgdi_float_to_half(0x1p-25f + 0x1p-35f), 0x0001);
    CHECK_INT(xgdi_float_to_half(-3 * 0x1p-25f), 0x8002);
    /* 1023.5 units: tie between 0x03FF (odd) and the smallest normal 0x0400. */
    CHECK_INT(xgdi_float_to_half(2047 * 0x1p-25f), 0x0400);
    /* half -> float is exact, so every non-NaN half must come back unchanged. */
    int bad = 0;
    for (uint32_t h = 0; h < 0x10000u; h++) {
        if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0) continue;
        if (xgdi_float_to_half(xgdi_half_to_float((uint16_t)h)) != h && bad++ < 5)
            CHECK_MSG(false, "half 0x%04X does not round-trip", (unsigned)h);
    }
    CHECK_INT(bad, 0);
}

XGD_TEST(format_float_formats)
{
    float c[8];
    /* Single (r, 0, 0, 1); stored little-endian IEEE. 0x40490FDB = 3.14159274f */
    const uint8_t s[4] = { 0xDB, 0x0F, 0x49, 0x40 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_SINGLE, s, 1, c);
    CHECK(bits_of(c[0]) == 0x40490FDBu);
    check_rgba_f(t, "Single", c, f_bits(0x40490FDBu), 0, 0, 1);
    /* Vector2 (r, g, 0, 1): -1.0 = 0xBF800000, 2.5 = 0x40200000. */
    const uint8_t v2[8] = { 0x00, 0x00, 0x80, 0xBF, 0x00, 0x00, 0x20, 0x40 };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_VECTOR2, v2, 1, c);
    check_rgba_f(t, "Vector2", c, -1.0f, 2.5f, 0, 1);
    /* HalfSingle (r, 0, 0, 1), HalfVector2 (r, g, 0, 1). */
    const uint8_t hs[2] = { 0x00, 0x3C };
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_HALF_SINGLE, hs, 1, c);
    check_rgba_f(t, "HalfSingle", c, 1, 0, 0, 1);
    const uint8_t hv2[4] = { 0x00, 0xB8, 0x00, 0x7C }; /* -0.5, +inf */
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_HALF_VECTOR2, hv2, 1, c);
    CHECK(c[0] == -0.5f && c[1] == INFINITY && c[2] == 0.0f && c[3] == 1.0f);
    /* HalfVector4 and HdrBlendable share the layout: r, g, b, a halves. */
    const float in4[4] = { 1.0f, 0.5f, -2.0f, 65504.0f };
    uint8_t hb[8];
    const uint8_t want_h[8] = { 0x00, 0x3C, 0x00, 0x38, 0x00, 0xC0, 0xFF, 0x7B };
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_HALF_VECTOR4, in4, 1, hb);
    CHECK(memcmp(hb, want_h, 8) == 0);
    memset(hb, 0, sizeof hb);
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_HDR_BLENDABLE, in4, 1, hb);
    CHECK(memcmp(hb, want_h, 8) == 0);
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_HDR_BLENDABLE, want_h, 1, c);
    check_rgba_f(t, "HdrBlendable", c, 1.0f, 0.5f, -2.0f, 65504.0f);
    /* Vector4 stores values unclamped and bit-exact (render targets keep HDR values). */
    const float v4[4] = { -0.0f, 1e30f, -3.25f, 0x1p-140f };
    uint8_t vb[16];
    float back[4];
    xgdi_format_encode_row(XGD_SURFACE_FORMAT_VECTOR4, v4, 1, vb);
    CHECK_INT(vb[3], 0x80); /* -0.0 little-endian: 00 00 00 80 */
    xgdi_format_decode_row(XGD_SURFACE_FORMAT_VECTOR4, vb, 1, back);
    for (int k = 0; k < 4; k++) CHECK(bits_of(back[k]) == bits_of(v4[k]));
}

XGD_TEST(format_to_rgba8)
{
    uint8_t out[8];
    /* Bgra4444 0x1234: a 1, r 2, g 3, b 4 nibbles; n/15*255 = 17n exactly. */
    const uint8_t p4444[2] = { 0x34, 0x12 };
    xgdi_format_to_rgba8(XGD_SURFACE_FORMAT_BGRA4444, p4444, 1, 1, out);
    CHECK(out[0] == 34 && out[1] == 51 && out[2] == 68 && out[3] == 17);
    /* Vector4 clamps to 0..1 and rounds: (2, -1, 0.5, 0.25) -> 255, 0, 128, 64. */
    const float v4[4] = { 2.0f, -1.0f, 0.5f, 0.25f };
    xgdi_format_to_rgba8(XGD_SURFACE_FORMAT_VECTOR4, v4, 1, 1, out);
    CHECK(out[0] == 255 && out[1] == 0 && out[2] == 128 && out[3] == 64);
    /* A 2x1 Alpha8 image: rows are handled with the right pitch. */
    const uint8_t a8[2] = { 10, 200 };
    xgdi_format_to_rgba8(XGD_SURFACE_FORMAT_ALPHA8, a8, 2, 1, out);
    const uint8_t want[8] = { 0, 0, 0, 10, 0, 0, 0, 200 };
    CHECK(memcmp(out, want, 8) == 0);
}

/* ---- DXT ------------------------------------------------------------------------------------ */

/*
 * Endpoints chosen so that rounding goes both ways:
 *   A = 0xA50A: r5 20, g6 40, b5 10 -> expanded (165, 162, 82)   [20<<3|20>>2 = 165, ...]
 *   B = 0x18E1: r5 3,  g6 7,  b5 1  -> expanded (24, 28, 8)
 *   (2A + B)/3 = (354/3, 352/3, 172/3) = (118, 117.33, 57.33) -> (118, 117, 57)
 *   (A + 2B)/3 = (213/3, 218/3, 98/3)  = (71, 72.67, 32.67)   -> (71, 73, 33)
 *   (A + B)/2  = (94.5, 95, 45)                                -> (95, 95, 45)
 * Index rows (2 bits per texel, texel x at bits 2x of the row's byte):
 *   row 0: 0 1 2 3 -> 0xE4; row 1: 3 2 1 0 -> 0x1B; row 2: 2 2 2 2 -> 0xAA; row 3: 1 0 0 3 -> 0xC1
 */
static const int dxt_indices[16] = { 0, 1, 2, 3, 3, 2, 1, 0, 2, 2, 2, 2, 1, 0, 0, 3 };
#define DXT_INDEX_BYTES 0xE4, 0x1B, 0xAA, 0xC1

XGD_TEST(format_dxt1_four_colour)
{
    const uint8_t blk[8] = { 0x0A, 0xA5, 0xE1, 0x18, DXT_INDEX_BYTES }; /* c0 = A > c1 = B */
    static const int pal[4][4] = { { 165, 162, 82, 255 }, { 24, 28, 8, 255 },
                                   { 118, 117, 57, 255 }, { 71, 73, 33, 255 } };
    uint8_t out[16][4];
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT1, blk, out);
    for (int i = 0; i < 16; i++) {
        const int *e = pal[dxt_indices[i]];
        check_texel8(t, "dxt1 4-colour", out, i, e[0], e[1], e[2], e[3]);
    }
    /* Pure endpoints: red 0xF800 > blue 0x001F; 2/3 red + 1/3 blue = (170, 0, 85). */
    const uint8_t rb[8] = { 0x00, 0xF8, 0x1F, 0x00, 0x02, 0x00, 0x00, 0x00 }; /* texel 0: idx 2 */
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT1, rb, out);
    check_texel8(t, "dxt1 red/blue", out, 0, 170, 0, 85, 255);
    check_texel8(t, "dxt1 red/blue", out, 1, 255, 0, 0, 255);
}

XGD_TEST(format_dxt1_three_colour)
{
    /* c0 = B <= c1 = A: palette c0, c1, (c0 + c1)/2, transparent black. */
    const uint8_t blk[8] = { 0xE1, 0x18, 0x0A, 0xA5, DXT_INDEX_BYTES };
    static const int pal[4][4] = { { 24, 28, 8, 255 }, { 165, 162, 82, 255 },
                                   { 95, 95, 45, 255 }, { 0, 0, 0, 0 } };
    uint8_t out[16][4];
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT1, blk, out);
    for (int i = 0; i < 16; i++) {
        const int *e = pal[dxt_indices[i]];
        check_texel8(t, "dxt1 3-colour", out, i, e[0], e[1], e[2], e[3]);
    }
    /* c0 == c1 is also 3-colour mode: index 3 is transparent, index 0 the colour. */
    const uint8_t eq[8] = { 0x1F, 0x00, 0x1F, 0x00, 0xC0, 0x00, 0x00, 0x00 }; /* texel 3: idx 3 */
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT1, eq, out);
    check_texel8(t, "dxt1 c0==c1", out, 0, 0, 0, 255, 255);
    check_texel8(t, "dxt1 c0==c1", out, 3, 0, 0, 0, 0);
}

XGD_TEST(format_dxt3_explicit_alpha)
{
    /* Alpha: texel i holds nibble i (low nibble first) -> a = 17 i. The colour half uses
     * c0 = B <= c1 = A, which BC2 still decodes in 4-colour mode:
     * (2B + A)/3 = (213/3, 218/3, 98/3) -> (71, 73, 33); (B + 2A)/3 -> (118, 117, 57). */
    const uint8_t blk[16] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                              0xE1, 0x18, 0x0A, 0xA5, DXT_INDEX_BYTES };
    static const int pal[4][3] = { { 24, 28, 8 }, { 165, 162, 82 }, { 71, 73, 33 }, { 118, 117, 57 } };
    uint8_t out[16][4];
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT3, blk, out);
    for (int i = 0; i < 16; i++) {
        const int *e = pal[dxt_indices[i]];
        check_texel8(t, "dxt3", out, i, e[0], e[1], e[2], 17 * i);
    }
}

XGD_TEST(format_dxt5_eight_alpha)
{
    /* a0 = 200 > a1 = 10: codes 2..7 = ((7-k)*200 + k*10)/7 for k = 1..6:
     * 1210/7 = 172.86 -> 173, 1020/7 = 145.71 -> 146, 830/7 = 118.57 -> 119,
     * 640/7 = 91.43 -> 91, 450/7 = 64.29 -> 64, 260/7 = 37.14 -> 37.
     * Texel codes 0 1 2 3 4 5 6 7 7 6 5 4 3 2 1 0 packed 3 bits each, little-endian. */
    const uint8_t blk[16] = { 200, 10, 0x88, 0xC6, 0xFA, 0x77, 0x39, 0x05,
                              0x0A, 0xA5, 0xE1, 0x18, DXT_INDEX_BYTES };
    static const int apal[8] = { 200, 10, 173, 146, 119, 91, 64, 37 };
    static const int codes[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0 };
    static const int pal[4][3] = { { 165, 162, 82 }, { 24, 28, 8 }, { 118, 117, 57 }, { 71, 73, 33 } };
    uint8_t out[16][4];
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT5, blk, out);
    for (int i = 0; i < 16; i++) {
        const int *e = pal[dxt_indices[i]];
        check_texel8(t, "dxt5 8-alpha", out, i, e[0], e[1], e[2], apal[codes[i]]);
    }
}

XGD_TEST(format_dxt5_six_alpha)
{
    /* a0 = 11 <= a1 = 200: codes 2..5 = ((5-k)*11 + k*200)/5 for k = 1..4:
     * 244/5 = 48.8 -> 49, 433/5 = 86.6 -> 87, 622/5 = 124.4 -> 124, 811/5 = 162.2 -> 162;
     * code 6 = 0, code 7 = 255.
     * Texel codes 6 7 0 1 2 3 4 5 5 4 3 2 1 0 7 6. Colour half as in the DXT3 test (4-colour
     * mode although c0 <= c1). */
    const uint8_t blk[16] = { 11, 200, 0x3E, 0xA2, 0xB1, 0xE5, 0x14, 0xDC,
                              0xE1, 0x18, 0x0A, 0xA5, DXT_INDEX_BYTES };
    static const int apal[8] = { 11, 200, 49, 87, 124, 162, 0, 255 };
    static const int codes[16] = { 6, 7, 0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0, 7, 6 };
    static const int pal[4][3] = { { 24, 28, 8 }, { 165, 162, 82 }, { 71, 73, 33 }, { 118, 117, 57 } };
    uint8_t out[16][4];
    xgdi_dxt_decode_block(XGD_SURFACE_FORMAT_DXT5, blk, out);
    for (int i = 0; i < 16; i++) {
        const int *e = pal[dxt_indices[i]];
        check_texel8(t, "dxt5 6-alpha", out, i, e[0], e[1], e[2], apal[codes[i]]);
    }
}

XGD_TEST(format_dxt_decode_image)
{
    /* 5x5 DXT1 = 2x2 blocks of solid colours (c0 == c1, all indices 0), blocks in row order:
     * red, green, blue, white. The partial right/bottom blocks contribute one column/row. */
    const uint8_t blocks[32] = {
        0x00, 0xF8, 0x00, 0xF8, 0, 0, 0, 0, /* red   0xF800 */
        0xE0, 0x07, 0xE0, 0x07, 0, 0, 0, 0, /* green 0x07E0 */
        0x1F, 0x00, 0x1F, 0x00, 0, 0, 0, 0, /* blue  0x001F */
        0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, /* white 0xFFFF */
    };
    uint8_t img[5 * 5 * 4];
    memset(img, 0x55, sizeof img);
    xgdi_dxt_decode_image(XGD_SURFACE_FORMAT_DXT1, blocks, 5, 5, img);
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 5; x++) {
            int blk = (y / 4) * 2 + x / 4;
            static const uint8_t col[4][4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 },
                                               { 0, 0, 255, 255 }, { 255, 255, 255, 255 } };
            const uint8_t *p = img + (y * 5 + x) * 4;
            CHECK_MSG(memcmp(p, col[blk], 4) == 0, "pixel (%d,%d) = %d %d %d %d, block %d", x, y,
                      p[0], p[1], p[2], p[3], blk);
        }
    }
    /* format_to_rgba8 routes DXT through the same path. */
    uint8_t img2[5 * 5 * 4];
    xgdi_format_to_rgba8(XGD_SURFACE_FORMAT_DXT1, blocks, 5, 5, img2);
    CHECK(memcmp(img, img2, sizeof img) == 0);
}

/* ---- PNG ------------------------------------------------------------------------------------ */

/* 3x2, every pixel different, alpha varying, so a flip, a transpose or a channel swap fails. */
static const uint8_t png_image[3 * 2 * 4] = {
    255, 0, 0, 255,    0, 255, 0, 128,    0, 0, 255, 0,
    10, 20, 30, 40,    250, 240, 230, 220, 1, 2, 3, 255,
};

static bool read_whole(const char *path, uint8_t **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return false;
    uint8_t *buf = malloc(1 << 16);
    size_t n = buf ? fread(buf, 1, 1 << 16, f) : 0;
    fclose(f);
    *data = buf;
    *size = n;
    return buf != NULL && n > 0;
}

XGD_TEST(png_round_trip)
{
    if (!xgdt_png_or_skip(t)) return;
    char path[512];
    scratch_path(path, sizeof path, t->name);
    char err[256] = "";
    REQUIRE_OK(xgdi_png_encode_file(path, 3, 2, png_image, err, sizeof err));
    uint8_t *file = NULL;
    size_t size = 0;
    REQUIRE(read_whole(path, &file, &size));
    CHECK(size > 8 && memcmp(file, "\x89PNG\r\n\x1a\n", 8) == 0);
    int w = 0, h = 0;
    uint8_t *rgba = NULL;
    xgd_result r = xgdi_png_decode(file, size, &w, &h, &rgba, err, sizeof err);
    CHECK_MSG(r == XGD_OK, "decode: %s (%s)", xgd_result_name(r), err);
    if (r == XGD_OK) {
        CHECK_INT(w, 3);
        CHECK_INT(h, 2);
        CHECK(memcmp(rgba, png_image, sizeof png_image) == 0);
    }
    free(rgba);
    free(file);

    /* The public pair goes through the same code. */
    CHECK_OK(xgd_image_save_png(path, 3, 2, png_image));
    uint8_t *img = NULL;
    w = h = 0;
    CHECK_OK(xgd_image_load_png(path, &w, &h, &img));
    if (img != NULL) {
        CHECK(w == 3 && h == 2);
        CHECK(memcmp(img, png_image, sizeof png_image) == 0);
        xgd_free(img);
    }
    remove(path);
}

XGD_TEST(png_decode_corrupt)
{
    if (!xgdt_png_or_skip(t)) return;
    char err[256];
    int w = -7, h = -7;
    uint8_t *rgba = NULL;
    const uint8_t junk[64] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    err[0] = 0;
    /* data that is not a PNG at all: InvalidOperation, as XNA's FromStream */
    CHECK_RESULT(xgdi_png_decode(junk, sizeof junk, &w, &h, &rgba, err, sizeof err),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(rgba == NULL && w == -7 && h == -7);
    CHECK_MSG(err[0] != 0, "no message for a bad signature");
    CHECK_RESULT(xgdi_png_decode(junk, 0, &w, &h, &rgba, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);

    /* A real PNG cut in half, and one with a damaged IDAT. */
    char path[512];
    scratch_path(path, sizeof path, t->name);
    REQUIRE_OK(xgdi_png_encode_file(path, 3, 2, png_image, err, sizeof err));
    uint8_t *file = NULL;
    size_t size = 0;
    REQUIRE(read_whole(path, &file, &size));
    remove(path);
    err[0] = 0;
    CHECK_RESULT(xgdi_png_decode(file, size / 2, &w, &h, &rgba, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rgba == NULL);
    CHECK_MSG(err[0] != 0, "no message for a truncated file");
    /* IHDR ends at 8 + 25 = 33; flip bytes inside the next chunk's data. */
    for (size_t i = 41; i < size - 12 && i < 45; i++) file[i] ^= 0xA5;
    CHECK_RESULT(xgdi_png_decode(file, size, &w, &h, &rgba, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rgba == NULL);
    free(file);
}

XGD_TEST(png_encode_errors)
{
    if (!xgdt_png_or_skip(t)) return;
    char err[256] = "";
    CHECK_RESULT(xgdi_png_encode_file("/nonexistent-xgd-dir/sub/x.png", 3, 2, png_image, err,
                                      sizeof err),
                 XGD_ERROR_IO);
    CHECK_MSG(strstr(err, "nonexistent-xgd-dir") != NULL, "message: %s", err);
    char path[512];
    scratch_path(path, sizeof path, t->name);
    CHECK_RESULT(xgdi_png_encode_file(path, 0, 2, png_image, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgdi_png_encode_file(path, 3, 2, NULL, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgdi_png_encode_file(NULL, 3, 2, png_image, err, sizeof err),
                 XGD_ERROR_INVALID_ARGUMENT);
    FILE *f = fopen(path, "rb");
    CHECK_MSG(f == NULL, "a failed encode left %s behind", path);
    if (f != NULL) fclose(f);
    /* Loading a missing file is an IO error. */
    int w, h;
    uint8_t *img = NULL;
    CHECK_RESULT(xgd_image_load_png("/nonexistent-xgd-dir/none.png", &w, &h, &img), XGD_ERROR_IO);
}

#ifdef XGD_TEST_HAVE_PNG
/* Encodes an image with libspng directly, to feed the decoder PNG types xgd never writes. */
static void *spng_encode_mem(struct spng_ihdr *ihdr, struct spng_plte *plte,
                             struct spng_trns *trns, const void *img, size_t len, size_t *out_len)
{
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (ctx == NULL) return NULL;
    void *png = NULL;
    int rc = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    if (rc == 0) rc = spng_set_ihdr(ctx, ihdr);
    if (rc == 0 && plte) rc = spng_set_plte(ctx, plte);
    if (rc == 0 && trns) rc = spng_set_trns(ctx, trns);
    if (rc == 0) rc = spng_encode_image(ctx, img, len, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    if (rc == 0) png = spng_get_png_buffer(ctx, out_len, &rc);
    spng_ctx_free(ctx);
    return png;
}
#endif

XGD_TEST(png_decode_grey_and_palette)
{
    if (!xgdt_png_or_skip(t)) return;
#ifdef XGD_TEST_HAVE_PNG
    char err[256] = "";
    int w = 0, h = 0;
    uint8_t *rgba = NULL;
    size_t len = 0;
    /* 8-bit grey 2x1: v -> (v, v, v, 255). */
    struct spng_ihdr grey = { .width = 2, .height = 1, .bit_depth = 8,
                              .color_type = SPNG_COLOR_TYPE_GRAYSCALE };
    const uint8_t gpix[2] = { 7, 200 };
    void *png = spng_encode_mem(&grey, NULL, NULL, gpix, sizeof gpix, &len);
    REQUIRE(png != NULL);
    CHECK_OK(xgdi_png_decode(png, len, &w, &h, &rgba, err, sizeof err));
    if (rgba != NULL) {
        const uint8_t want[8] = { 7, 7, 7, 255, 200, 200, 200, 255 };
        CHECK(w == 2 && h == 1 && memcmp(rgba, want, 8) == 0);
    }
    free(rgba);
    rgba = NULL;
    free(png);

    /* Indexed 8-bit 3x1 with tRNS: entry 1 gets alpha 60, entries past tRNS are opaque. */
    struct spng_ihdr pal = { .width = 3, .height = 1, .bit_depth = 8,
                             .color_type = SPNG_COLOR_TYPE_INDEXED };
    struct spng_plte plte = { .n_entries = 3 };
    plte.entries[0] = (struct spng_plte_entry){ 10, 20, 30, 0 };
    plte.entries[1] = (struct spng_plte_entry){ 40, 50, 60, 0 };
    plte.entries[2] = (struct spng_plte_entry){ 70, 80, 90, 0 };
    struct spng_trns trns = { .n_type3_entries = 2 };
    trns.type3_alpha[0] = 255;
    trns.type3_alpha[1] = 60;
    const uint8_t ppix[3] = { 2, 1, 0 };
    png = spng_encode_mem(&pal, &plte, &trns, ppix, sizeof ppix, &len);
    REQUIRE(png != NULL);
    CHECK_OK(xgdi_png_decode(png, len, &w, &h, &rgba, err, sizeof err));
    if (rgba != NULL) {
        const uint8_t want[12] = { 70, 80, 90, 255, 40, 50, 60, 60, 10, 20, 30, 255 };
        CHECK(w == 3 && h == 1 && memcmp(rgba, want, 12) == 0);
    }
    free(rgba);
    free(png);
#endif
}

/* ---- retire queue --------------------------------------------------------------------------- */

typedef struct retire_log {
    int order[64];
    int count;
    xgdi_renderer *seen_renderer;
    xgdi_retire_queue *requeue; /* when set, freeing object 100 retires object 200 */
} retire_log;

static retire_log g_rlog;
static int g_robjs[256];

static void retire_record(xgdi_renderer *r, void *object)
{
    g_rlog.seen_renderer = r;
    int id = *(int *)object;
    if (g_rlog.count < 64) g_rlog.order[g_rlog.count] = id;
    g_rlog.count++;
    if (id == 100 && g_rlog.requeue != NULL) {
        g_robjs[200] = 200;
        xgdi_retire_push(g_rlog.requeue, 10, retire_record, &g_robjs[200]);
    }
}

static void *robj(int id)
{
    g_robjs[id] = id;
    return &g_robjs[id];
}

static bool rlog_is(const int *want, int n)
{
    if (g_rlog.count != n) return false;
    for (int i = 0; i < n; i++)
        if (g_rlog.order[i] != want[i]) return false;
    return true;
}

XGD_TEST(retire_collect_by_fence)
{
    memset(&g_rlog, 0, sizeof g_rlog);
    int tag;
    xgdi_renderer *rr = (xgdi_renderer *)(void *)&tag;
    xgdi_retire_queue q = { 0 };
    CHECK_OK(xgdi_retire_push(&q, 1, retire_record, robj(1)));
    CHECK_OK(xgdi_retire_push(&q, 2, retire_record, robj(2)));
    CHECK_OK(xgdi_retire_push(&q, 2, retire_record, robj(3)));
    CHECK_OK(xgdi_retire_push(&q, 3, retire_record, robj(4)));
    CHECK_OK(xgdi_retire_push(&q, 5, retire_record, robj(5)));
    CHECK_INT(xgdi_retire_collect(&q, rr, 0), 0);
    CHECK_INT(g_rlog.count, 0);
    CHECK_INT(xgdi_retire_collect(&q, rr, 2), 3); /* fence <= 2: objects 1, 2, 3 */
    static const int after2[] = { 1, 2, 3 };
    CHECK(rlog_is(after2, 3));
    CHECK(g_rlog.seen_renderer == rr);
    CHECK_INT(q.count, 2);
    CHECK_INT(xgdi_retire_collect(&q, rr, 4), 1); /* object 4 (fence 3) */
    CHECK_INT(xgdi_retire_collect(&q, rr, 4), 0); /* nothing is freed twice */
    static const int after4[] = { 1, 2, 3, 4 };
    CHECK(rlog_is(after4, 4));
    xgdi_retire_flush_all(&q, rr);                /* object 5 regardless of its fence */
    static const int all[] = { 1, 2, 3, 4, 5 };
    CHECK(rlog_is(all, 5));
    CHECK_INT(q.count, 0);
    xgdi_retire_free(&q);
    CHECK(q.items == NULL && q.capacity == 0);
}

XGD_TEST(retire_interleaved_sites)
{
    /* Two push sites, each in non-decreasing fence order, interleaved: 5 1 7 2 6.
     * collect(2) frees 1 and 2 in push order and keeps 5 7 6 in push order. */
    memset(&g_rlog, 0, sizeof g_rlog);
    xgdi_retire_queue q = { 0 };
    const int fences[5] = { 5, 1, 7, 2, 6 };
    for (int i = 0; i < 5; i++)
        CHECK_OK(xgdi_retire_push(&q, (uint64_t)fences[i], retire_record, robj(10 + i)));
    CHECK_INT(xgdi_retire_collect(&q, NULL, 2), 2);
    static const int first[] = { 11, 13 };
    CHECK(rlog_is(first, 2));
    CHECK_INT(xgdi_retire_collect(&q, NULL, 6), 2); /* 5 and 6 pass; 7 stays */
    static const int second[] = { 11, 13, 10, 14 };
    CHECK(rlog_is(second, 4));
    CHECK_INT(q.count, 1);
    CHECK_INT(q.items[0].fence, 7);
    xgdi_retire_flush_all(&q, NULL);
    static const int third[] = { 11, 13, 10, 14, 12 };
    CHECK(rlog_is(third, 5));
    xgdi_retire_free(&q);
}

XGD_TEST(retire_growth_and_requeue)
{
    memset(&g_rlog, 0, sizeof g_rlog);
    xgdi_retire_queue q = { 0 };
    /* 1000 entries at fences 1..1000: growth keeps every entry; collect(500) frees 500. */
    for (int i = 0; i < 1000; i++)
        CHECK_OK(xgdi_retire_push(&q, (uint64_t)(i + 1), retire_record, robj(1)));
    CHECK_INT(q.count, 1000);
    CHECK(q.capacity >= 1000);
    size_t cap = q.capacity;
    CHECK_INT(xgdi_retire_collect(&q, NULL, 500), 500);
    CHECK_INT(q.count, 500);
    CHECK_INT(q.items[0].fence, 501);
    CHECK_INT(q.items[499].fence, 1000);
    /* Steady state: pushing back up to the old size does not grow the array. */
    for (int i = 0; i < 500; i++) CHECK_OK(xgdi_retire_push(&q, 2000, retire_record, robj(1)));
    CHECK(q.capacity == cap);
    xgdi_retire_flush_all(&q, NULL);
    CHECK_INT(g_rlog.count, 1500);
    CHECK_INT(q.count, 0);
    xgdi_retire_free(&q);

    /* A callback that retires another object: the new entry (fence 10) survives collect(5)
     * and is freed by flush_all. */
    memset(&g_rlog, 0, sizeof g_rlog);
    g_rlog.requeue = &q;
    for (int i = 0; i < 20; i++) CHECK_OK(xgdi_retire_push(&q, 1, retire_record, robj(1)));
    CHECK_OK(xgdi_retire_push(&q, 1, retire_record, robj(100)));  /* forces growth at 17+ */
    CHECK_INT(xgdi_retire_collect(&q, NULL, 5), 21);
    CHECK_INT(q.count, 1);
    if (q.count == 1) CHECK_INT(q.items[0].fence, 10);
    xgdi_retire_flush_all(&q, NULL);
    CHECK_INT(g_rlog.count, 22);
    CHECK_INT(g_rlog.order[21], 200);
    g_rlog.requeue = NULL;
    xgdi_retire_free(&q);
}
