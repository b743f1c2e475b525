/*
 * test_sw_mips.c - the software renderer's integer mip path gives the float rule's bytes.
 *
 * Rule (sw_texture.c): a texel of level n+1 is the 2x2 mean of level n's texels (2x+i, 2y+j),
 * computed by decoding each texel to float (xgdi_format_decode_row), adding them in the order
 * (x0,y0) + (x1,y0) + (x0,y1) + (x1,y1), multiplying by 0.25 (sw_mip_mean_float) and encoding
 * (xgdi_format_encode_row); an odd last column or row is left out and a side of 1 repeats.
 * 8-bit unorm formats (Color, Alpha8) take an integer path instead: (sum of the four bytes + 2)
 * / 4, truncated (sw_mip_mean_unorm8), with SSE2 for Color where built.
 *
 * SwMips_Unorm8MeanExhaustive: the integer formula against the float rule for every ordered
 * four of bytes (256^4 of them, all sums 0..1020), through the format's own decode and encode
 * and the generic path's mean. The float sums are not a function of the integer sum alone
 * (float addition rounds), so the test does not pick one four per sum: it enumerates every
 * distinct float value the first two and three additions can take (a handful per integer
 * sum), which covers every ordered four exactly.
 * SwMips_FastLevelMatchesFloat: whole levels through sw_mip_level with the integer path (on
 * one thread and banded over a pool) and with the float path banded, against the float path on
 * one thread, for odd and even sizes, sides of 1, padded row pitches, sizes that leave SSE2
 * tails and levels large enough to be banded: identical bytes, and nothing written outside
 * each row's texels.
 */
#include "harness.h"

#include "format.h"
#include "sw_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* distinct float values a partial sum takes for one integer sum (2 and 3 are seen) */
#define SWM_CLASSES 8

static uint32_t swm_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

/* Adds v to the distinct values of one integer sum; false when there are more than the room
   (the enumeration would then not be exhaustive). */
static bool swm_add_class(float *vals, int *count, float v)
{
    for (int i = 0; i < *count; i++)
        if (swm_bits(vals[i]) == swm_bits(v)) return true;
    if (*count == SWM_CLASSES) return false;
    vals[(*count)++] = v;
    return true;
}

static void swm_exhaustive(xgdt_ctx *t, xgd_surface_format f)
{
    const xgdi_format_info *fi = xgdi_format_info_of(f);
    REQUIRE(fi != NULL && fi->element_size <= 4);
    REQUIRE(sw_mip_has_fast_path(f));
    int es = fi->element_size;
    /* The channel each stored byte decodes to: Color's bytes are red, green, blue, alpha in
       order; Alpha8's one byte is alpha. Every stored byte is checked. */
    int chan[4];
    for (int k = 0; k < es; k++) chan[k] = f == XGD_SURFACE_FORMAT_ALPHA8 ? 3 : k;
    /* decoded[b]: byte b through the format's decode, the same in every stored channel */
    float decoded[256];
    for (int b = 0; b < 256; b++) {
        uint8_t texel[4] = { (uint8_t)b, (uint8_t)b, (uint8_t)b, (uint8_t)b };
        float q[4];
        xgdi_format_decode_row(f, texel, 1, q);
        decoded[b] = q[chan[0]];
        for (int k = 1; k < es; k++) REQUIRE(swm_bits(q[chan[k]]) == swm_bits(decoded[b]));
    }
    /* Every float value of (x0,y0) + (x1,y0), then of that + (x0,y1), by integer sum. */
    static float s2[766][SWM_CLASSES];
    static int n2[766];
    {
        static float s1[511][SWM_CLASSES];
        static int n1[511];
        memset(n1, 0, sizeof n1);
        memset(n2, 0, sizeof n2);
        for (int a = 0; a < 256; a++)
            for (int b = 0; b < 256; b++)
                REQUIRE(swm_add_class(s1[a + b], &n1[a + b], decoded[a] + decoded[b]));
        for (int s = 0; s <= 510; s++)
            for (int i = 0; i < n1[s]; i++)
                for (int c = 0; c < 256; c++)
                    REQUIRE(swm_add_class(s2[s + c], &n2[s + c], s1[s][i] + decoded[c]));
    }
    /* The last addition, the 0.25 and the encode go through the generic path's own functions:
       the partial sum stands as the first texel with zeros after it, and adding +0 to a
       non-negative float gives it back unchanged, so sw_mip_mean_float computes exactly
       ((partial + 0) + 0 + last) * 0.25, the float rule for that four. */
    int bad = 0, checked = 0;
    for (int s = 0; s <= 765; s++) {
        for (int i = 0; i < n2[s]; i++) {
            for (int d = 0; d < 256; d++) {
                float q[16] = { 0 }, mean[4];
                for (int k = 0; k < 4; k++) {
                    q[k] = s2[s][i];
                    q[12 + k] = decoded[d];
                }
                sw_mip_mean_float(q, mean);
                uint8_t enc[4] = { 0, 0, 0, 0 };
                xgdi_format_encode_row(f, mean, 1, enc);
                uint8_t want = sw_mip_mean_unorm8((unsigned)(s + d));
                int k = 0;
                while (k < es && enc[k] == want) k++;
                if (k < es && bad++ < 8)
                    xgdt_fail_at(t, __FILE__, __LINE__,
                                 "%s: sum %d (partial %.9g + byte %d): float rule gives %d, "
                                 "integer formula %d", fi->name, s + d, (double)s2[s][i], d,
                                 enc[k], want);
                checked++;
            }
        }
    }
    CHECK_MSG(bad == 0, "%s: %d of %d sum classes differ", fi->name, bad, checked);
    /* every integer sum was reached */
    for (int s = 0; s <= 765; s++) CHECK(n2[s] >= 1);
}

XGD_TEST(SwMips_Unorm8MeanExhaustive)
{
    swm_exhaustive(t, XGD_SURFACE_FORMAT_COLOR);
    swm_exhaustive(t, XGD_SURFACE_FORMAT_ALPHA8);
}

/* A small deterministic generator (the images only need to be varied and repeatable). */
static uint32_t swm_next(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 24;
}

/* Fills an image: random bytes, runs of 0 and 255 (the clamps) and ties (sums of 2 mod 4). */
static void swm_fill(uint8_t *img, size_t pitch, int w, int h, int es, uint32_t seed)
{
    uint32_t st = seed;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w * es; x++) {
            uint32_t r = swm_next(&st);
            uint8_t v = (uint8_t)swm_next(&st);
            if (r < 24) v = 0;
            else if (r < 48) v = 255;
            /* bytes 1 and 3 make sums such as 1 + 1 + 1 + 3 = 6, whose mean is an exact half */
            else if (r < 96) v = (uint8_t)((x + y) & 1 ? 3 : 1);
            img[(size_t)y * pitch + (size_t)x] = v;
        }
}

static void swm_level_case(xgdt_ctx *t, sw_pool *pool, xgd_surface_format f, int w, int h,
                           int pad, uint32_t seed)
{
    int es = xgdi_format_info_of(f)->element_size;
    int dw = w > 1 ? w / 2 : 1, dh = h > 1 ? h / 2 : 1;
    size_t sp = (size_t)w * (size_t)es + (size_t)pad, dp = (size_t)dw * (size_t)es + (size_t)pad;
    uint8_t *src = malloc(sp * (size_t)h);
    uint8_t *want = malloc(dp * (size_t)dh), *got = malloc(dp * (size_t)dh);
    REQUIRE(src != NULL && want != NULL && got != NULL);
    memset(src, 0x5a, sp * (size_t)h);
    swm_fill(src, sp, w, h, es, seed);
    /* 0xcd everywhere first: the padding after each row must come back untouched */
    memset(want, 0xcd, dp * (size_t)dh);
    sw_mip_level(NULL, f, src, w, h, sp, want, dp, false);
    /* the integer path on one thread and on the pool, and the float path on the pool (its
       bands must not change it either) */
    static const char *const pass_name[3] = { "integer, one thread", "integer, pool",
                                              "float, pool" };
    for (int pass = 0; pass < 3; pass++) {
        memset(got, 0xcd, dp * (size_t)dh);
        sw_mip_level(pass == 0 ? NULL : pool, f, src, w, h, sp, got, dp, pass < 2);
        int diff = -1;
        for (size_t i = 0; i < dp * (size_t)dh && diff < 0; i++)
            if (got[i] != want[i]) diff = (int)i;
        CHECK_MSG(diff < 0, "%s %dx%d (pad %d, %s): byte %d of the level is %d, float rule %d",
                  xgdi_format_info_of(f)->name, w, h, pad, pass_name[pass], diff,
                  diff < 0 ? 0 : got[diff], diff < 0 ? 0 : want[diff]);
    }
    free(src);
    free(want);
    free(got);
}

XGD_TEST(SwMips_FastLevelMatchesFloat)
{
    /* three threads whatever the machine, so the banded path runs */
    sw_pool *pool = sw_pool_create(3);
    static const int sizes[][2] = {
        { 1, 1 }, { 2, 1 }, { 1, 2 }, { 2, 2 }, { 3, 3 }, { 1, 9 }, { 9, 1 }, { 5, 7 },
        { 7, 5 }, { 8, 8 }, { 9, 9 }, { 16, 2 }, { 17, 5 }, { 33, 19 }, { 64, 3 },
        { 130, 66 }, { 1, 300 }, { 300, 1 }, { 257, 513 }, { 512, 512 }, { 1023, 301 },
        /* destinations of 4 MiB and more, which the integer path bands over the pool */
        { 4097, 2051 },
    };
    static const xgd_surface_format formats[] = { XGD_SURFACE_FORMAT_COLOR,
                                                  XGD_SURFACE_FORMAT_ALPHA8 };
    uint32_t seed = 1;
    for (size_t fi = 0; fi < sizeof formats / sizeof formats[0]; fi++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
            for (int pad = 0; pad <= 5; pad += 5)
                swm_level_case(t, pool, formats[fi], sizes[i][0], sizes[i][1], pad, seed++);
    sw_pool_destroy(pool);
}
