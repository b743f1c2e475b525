/*
 * fuzz_common.h - a byte reader for the libFuzzer targets: every value a target needs is taken
 * from the input in order, and an exhausted input reads as zeros, so every input is a program.
 */
#ifndef XGD_FUZZ_COMMON_H
#define XGD_FUZZ_COMMON_H

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct fz_reader {
    const uint8_t *p;
    size_t n;
} fz_reader;

static inline uint8_t fz_u8(fz_reader *r)
{
    if (r->n == 0) return 0;
    r->n--;
    return *r->p++;
}

static inline uint16_t fz_u16(fz_reader *r)
{
    uint16_t lo = fz_u8(r);
    return (uint16_t)(lo | (uint16_t)fz_u8(r) << 8);
}

static inline uint32_t fz_u32(fz_reader *r)
{
    uint32_t lo = fz_u16(r);
    return lo | (uint32_t)fz_u16(r) << 16;
}

static inline bool fz_bool(fz_reader *r) { return (fz_u8(r) & 1) != 0; }

/* Copies up to n bytes of the input into dst; the rest is a repeating pattern, so large
 * buffers cost little input. */
static inline void fz_bytes(fz_reader *r, void *dst, size_t n)
{
    uint8_t *d = dst;
    size_t take = n < r->n ? n : r->n;
    if (take > 64) take = 64;
    memcpy(d, r->p, take);
    r->p += take;
    r->n -= take;
    for (size_t i = take; i < n; i++) d[i] = (uint8_t)(i * 131u + 7u);
}

/* Integers where the bugs live: boundaries of sizes, signs and int arithmetic. */
static inline int fz_edge_int(fz_reader *r)
{
    static const int edges[] = { 0, -1, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64,
                                 255, 256, 257, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 4097,
                                 16384, 65535, 65536, 1048575, 1048576, INT_MAX / 2, INT_MAX / 4,
                                 INT_MAX - 1, INT_MAX, INT_MIN, INT_MIN + 1, -2, -4096 };
    return edges[fz_u8(r) % (sizeof edges / sizeof edges[0])];
}

/* Mostly small, sometimes an edge value, sometimes 32 raw bits. */
static inline int fz_int(fz_reader *r)
{
    uint8_t mode = fz_u8(r);
    if (mode < 160) return mode % 20;
    if (mode < 240) return fz_edge_int(r);
    return (int)fz_u32(r);
}

static inline float fz_float(fz_reader *r)
{
    static const float edges[] = { 0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 1e-30f, 1e30f, -1e30f,
                                   3.4e38f, -3.4e38f, INFINITY, -INFINITY, NAN,
                                   16.0f, -16.0f, 1e-45f, 100.0f, 0.25f };
    uint8_t mode = fz_u8(r);
    if (mode < 128) return (float)(mode % 33) / 8.0f - 2.0f;
    if (mode < 224) return edges[fz_u8(r) % (sizeof edges / sizeof edges[0])];
    uint32_t bits = fz_u32(r);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

#endif /* XGD_FUZZ_COMMON_H */
