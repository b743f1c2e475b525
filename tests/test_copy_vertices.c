/*
 * test_copy_vertices.c - the copy of a user draw's vertices into upload memory
 * (src/core/renderer.h: xgdi_copy_vertices, and xgdi_copy_small_vertices for the sizes
 * xgdi_small_vertices accepts): every size and misalignment gives the source's bytes exactly,
 * and no byte before or after the destination range changes.
 */
#include "harness.h"

#include "renderer.h"

#include <stdint.h>
#include <string.h>

enum { MAX_N = 320, GUARD = 48 };

/* copies n bytes from src + so to a guarded buffer at offset do with `small`'s function, and
   checks the range and both guards */
static void check_copy(xgdt_ctx *t, size_t n, size_t so, size_t dof, bool small)
{
    uint8_t src[MAX_N + 16], dst[GUARD + MAX_N + 16 + GUARD];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7u + 3u + n);
    memset(dst, 0xA5, sizeof dst);
    uint8_t *d = dst + GUARD + dof;
    if (small)
        xgdi_copy_small_vertices(d, src + so, n);
    else
        xgdi_copy_vertices(d, src + so, n);
    size_t bad = SIZE_MAX;
    for (size_t i = 0; i < n && bad == SIZE_MAX; i++)
        if (d[i] != src[so + i]) bad = i;
    CHECK_MSG(bad == SIZE_MAX, "%s copy of %zu bytes (source +%zu, destination +%zu): byte %zu differs",
              small ? "small" : "general", n, so, dof, bad);
    for (uint8_t *p = dst; p < d; p++)
        CHECK_MSG(*p == 0xA5, "%s copy of %zu bytes wrote %td bytes before its destination",
                  small ? "small" : "general", n, d - p);
    for (uint8_t *p = d + n; p < dst + sizeof dst; p++)
        CHECK_MSG(*p == 0xA5, "%s copy of %zu bytes wrote %td bytes past its destination",
                  small ? "small" : "general", n, p - (d + n) + 1);
}

XGD_TEST(copy_vertices_every_size_exact)
{
    /* the range the inline copy takes: four to six vertices of up to 32 bytes */
    CHECK(!xgdi_small_vertices(XGDI_SMALL_VERTICES_MIN - 1));
    CHECK(xgdi_small_vertices(XGDI_SMALL_VERTICES_MIN));
    CHECK(xgdi_small_vertices(XGDI_SMALL_VERTICES_MAX));
    CHECK(!xgdi_small_vertices(XGDI_SMALL_VERTICES_MAX + 1));
    CHECK(!xgdi_small_vertices(0));
    CHECK(xgdi_small_vertices(4 * 24) && xgdi_small_vertices(6 * 32));
    for (size_t n = 0; n <= MAX_N; n++)
        for (size_t so = 0; so < 16; so += 5)
            for (size_t dof = 0; dof < 16; dof += 3) {
                check_copy(t, n, so, dof, false);
                if (xgdi_small_vertices(n)) check_copy(t, n, so, dof, true);
            }
}
