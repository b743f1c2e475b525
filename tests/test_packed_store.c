/*
 * test_packed_store.c - the wide storage of XNA's packed formats (Bgr565, Bgra5551, Bgra4444)
 * used by a renderer that lacks them natively: every 16-bit texel comes back bit-exactly, and
 * every stored field is the nearest wide unorm value to the field's normalised value v/m
 * (m = 2^bits - 1), which is what a native format samples.
 */
#include "harness.h"

#include "format.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct packed_case {
    xgd_surface_format format;
    xgd_surface_format wide;   /* the storage format the rule gives */
    int bits[4], shift[4];     /* r, g, b, a fields from xgd.h's layouts; 0 bits = none */
} packed_case;

static const packed_case cases[3] = {
    { XGD_SURFACE_FORMAT_BGR565, XGD_SURFACE_FORMAT_RGBA64, { 5, 6, 5, 0 }, { 11, 5, 0, 0 } },
    { XGD_SURFACE_FORMAT_BGRA5551, XGD_SURFACE_FORMAT_RGBA64, { 5, 5, 5, 1 }, { 10, 5, 0, 15 } },
    { XGD_SURFACE_FORMAT_BGRA4444, XGD_SURFACE_FORMAT_COLOR, { 4, 4, 4, 4 }, { 8, 4, 0, 12 } },
};

XGD_TEST(packed_store_round_trip_and_nearest)
{
    enum { N = 65536 };
    uint8_t *packed = malloc(N * 2), *wide = malloc((size_t)N * 8), *back = malloc(N * 2);
    REQUIRE(packed && wide && back);
    for (int v = 0; v < N; v++) {
        packed[2 * v] = (uint8_t)v;
        packed[2 * v + 1] = (uint8_t)(v >> 8);
    }
    for (int c = 0; c < 3; c++) {
        const packed_case *k = &cases[c];
        CHECK_INT(xgdi_packed_wide_format(k->format), k->wide);
        double top = k->wide == XGD_SURFACE_FORMAT_RGBA64 ? 65535.0 : 255.0;
        memset(wide, 0xAB, (size_t)N * 8);
        xgdi_packed_widen_row(k->format, packed, N, wide);
        xgdi_packed_narrow_row(k->format, wide, N, back);
        int bad_trip = 0, bad_near = 0;
        for (int v = 0; v < N; v++) {
            /* Bgr565 has no unused bit, Bgra5551 and Bgra4444 neither: all 16 bits return */
            if (back[2 * v] != packed[2 * v] || back[2 * v + 1] != packed[2 * v + 1]) {
                if (bad_trip++ == 0)
                    CHECK_MSG(false, "format %d: texel 0x%04x came back as 0x%02x%02x",
                              (int)k->format, v, back[2 * v + 1], back[2 * v]);
            }
            for (int ch = 0; ch < 4; ch++) {
                double e = top == 255.0 ? wide[4 * v + ch]
                                        : (double)(wide[8 * v + 2 * ch] |
                                                   wide[8 * v + 2 * ch + 1] << 8);
                /* the native format samples v/m (a missing alpha reads 1) */
                double want = 1.0;
                if (k->bits[ch] > 0) {
                    int m = (1 << k->bits[ch]) - 1;
                    want = (double)((v >> k->shift[ch]) & m) / m;
                }
                /* nearest: within half a step of the wide format, and that step is the
                   rounding of want * top (no ties: m is odd) */
                if (fabs(e - floor(want * top + 0.5)) > 0.0) {
                    if (bad_near++ == 0)
                        CHECK_MSG(false, "format %d texel 0x%04x channel %d stored %g, expected "
                                  "round(%.9g * %g) = %g", (int)k->format, v, ch, e, want, top,
                                  floor(want * top + 0.5));
                }
            }
        }
        CHECK_INT(bad_trip, 0);
        CHECK_INT(bad_near, 0);
        /* the remaining difference from the native sample, at most half a wide step:
           0 for 4-bit and 1-bit fields (255 and 65535 are multiples of 15 and 1) */
        double worst = 0;
        for (int v = 0; v < N; v++) {
            float native[4], stored[4];
            xgdi_format_decode_row(k->format, packed + 2 * v, 1, native);
            xgdi_format_decode_row(k->wide, wide + (size_t)v * (top == 255.0 ? 4 : 8), 1, stored);
            for (int ch = 0; ch < 4; ch++) {
                double d = fabs((double)native[ch] - stored[ch]);
                if (d > worst) worst = d;
            }
        }
        CHECK_MSG(worst <= 0.5 / top + 1e-7, "format %d: stored texels differ from v/m by up "
                  "to %g", (int)k->format, worst);
        if (k->format == XGD_SURFACE_FORMAT_BGRA4444) CHECK_MSG(worst <= 1e-7, "4444: %g", worst);
    }
    /* other formats have no wide storage and are left alone */
    CHECK_INT(xgdi_packed_wide_format(XGD_SURFACE_FORMAT_COLOR), XGD_SURFACE_FORMAT_DEFAULT);
    CHECK_INT(xgdi_packed_wide_format(XGD_SURFACE_FORMAT_ALPHA8), XGD_SURFACE_FORMAT_DEFAULT);
    free(packed);
    free(wide);
    free(back);
}
