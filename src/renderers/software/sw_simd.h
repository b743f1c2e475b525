/*
 * sw_simd.h - four floats under one operation, for the software renderer's per-pixel row path
 * (sw_mod_rows in sw_raster.c): SSE2 where the compiler targets it (every x86-64 build), a
 * struct and plain loops elsewhere or with -DXGD_SW_NO_SIMD. Every operation is the scalar IEEE
 * one per element (no fused multiply-add, no approximation), so both forms give the reference
 * formulas' bits.
 */
#ifndef XGD_SW_SIMD_H
#define XGD_SW_SIMD_H

#include "sw_internal.h"

#include <stdint.h>
#include <string.h>
/* SSE2 only where C's float arithmetic is SSE's too (FLT_EVAL_METHOD 0): 32-bit x87 builds
   evaluate the scalar reference in extended precision */
#include <float.h>
#if defined(__SSE2__) && !defined(XGD_SW_NO_SIMD) && defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD == 0
#define SW_USE_SSE2 1
#include <emmintrin.h>
#endif

/* A float in 0..1 (else clamped; NaN gives 0) to an 8-bit unorm: v * 255 + 0.5, truncated. */
static inline uint8_t sw_unorm8(float v)
{
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

#ifdef SW_USE_SSE2
#define SW_SIMD 1
typedef __m128 sw_v4;
static inline sw_v4 sw_v4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void sw_v4_store(float *p, sw_v4 v) { _mm_storeu_ps(p, v); }
static inline sw_v4 sw_v4_splat(float x) { return _mm_set1_ps(x); }
static inline sw_v4 sw_v4_add(sw_v4 a, sw_v4 b) { return _mm_add_ps(a, b); }
static inline sw_v4 sw_v4_mul(sw_v4 a, sw_v4 b) { return _mm_mul_ps(a, b); }
/* x > 0 ? (x < 1 ? x : 1) : 0 per element, NaN giving 0 (MAXPS and MINPS return their second
   operand unless the comparison holds) */
static inline sw_v4 sw_v4_sat(sw_v4 x)
{
    return _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), _mm_set1_ps(1.0f));
}
/* 1 - x[3] in every element */
static inline sw_v4 sw_v4_one_minus_w(sw_v4 x)
{
    return _mm_sub_ps(_mm_set1_ps(1.0f), _mm_shuffle_ps(x, x, _MM_SHUFFLE(3, 3, 3, 3)));
}
/* four unorm8 bytes decoded: (float)b / 255, as xgdi_sw_unorm8 holds (unit.SwSimd_Unorm8
   checks every byte). A multiply by the double nearest 1/255 is exact too, but measured no
   faster here than DIVPS. */
static inline sw_v4 sw_v4_unorm8(const uint8_t *p)
{
    int32_t w;
    memcpy(&w, p, sizeof w);
    __m128i z = _mm_setzero_si128();
    __m128i i = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(w), z), z);
    return _mm_div_ps(_mm_cvtepi32_ps(i), _mm_set1_ps(255.0f));
}
/* sw_unorm8 of each element: clamped, (int)(v * 255 + 0.5) */
static inline void sw_v4_store_unorm8(uint8_t *q, sw_v4 v)
{
    __m128i i = _mm_cvttps_epi32(
        _mm_add_ps(_mm_mul_ps(sw_v4_sat(v), _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f)));
    i = _mm_packs_epi32(i, i);
    i = _mm_packus_epi16(i, i);
    int32_t w = _mm_cvtsi128_si32(i);
    memcpy(q, &w, sizeof w);
}
/* Premultiplied AlphaBlend of four RGBA8 texels over four RGBA8 target pixels, the source
 * being the texels themselves (a white tint), in integers: per channel
 * min(255, s + (d * (255 - sa) + 127) / 255), s, sa and d the bytes. That is the float row
 * path's unorm8 of sat(sat(s / 255 * f) + d / 255 * (1 - sat(sa / 255 * f))) for every s, sa and
 * d and any modulate factor f within 32 ulps of 1 (unit.SwSimd_BlendWhite compares every
 * triple): the exact value times 255 is s + d (255 - sa) / 255, whose fraction is a multiple of
 * 1/255 and so never within 1/510 of a half, far more than the float form's rounding moves it.
 * The division is exact as (y + 1 + (y >> 8)) >> 8 for y = d (255 - sa) + 127 <= 65152. */
static inline __m128i sw_blend4_white(__m128i tex, __m128i dst)
{
    const __m128i z = _mm_setzero_si128(), k255 = _mm_set1_epi16(255), k127 = _mm_set1_epi16(127);
    const __m128i one = _mm_set1_epi16(1);
    __m128i half[2];
    for (int h = 0; h < 2; h++) {
        const __m128i s = h ? _mm_unpackhi_epi8(tex, z) : _mm_unpacklo_epi8(tex, z);
        const __m128i d = h ? _mm_unpackhi_epi8(dst, z) : _mm_unpacklo_epi8(dst, z);
        /* each pixel's alpha in its four channels */
        const __m128i a = _mm_shufflehi_epi16(_mm_shufflelo_epi16(s, 0xff), 0xff);
        const __m128i y = _mm_add_epi16(_mm_mullo_epi16(d, _mm_sub_epi16(k255, a)), k127);
        const __m128i q = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(y, one), _mm_srli_epi16(y, 8)), 8);
        half[h] = _mm_add_epi16(s, q);
    }
    return _mm_packus_epi16(half[0], half[1]);
}
#else
#define SW_SIMD 0
typedef struct sw_v4 {
    float e[4];
} sw_v4;
static inline sw_v4 sw_v4_load(const float *p)
{
    sw_v4 r;
    memcpy(r.e, p, sizeof r.e);
    return r;
}
static inline void sw_v4_store(float *p, sw_v4 v) { memcpy(p, v.e, sizeof v.e); }
static inline sw_v4 sw_v4_splat(float x) { return (sw_v4){ { x, x, x, x } }; }
static inline sw_v4 sw_v4_add(sw_v4 a, sw_v4 b)
{
    for (int i = 0; i < 4; i++) a.e[i] += b.e[i];
    return a;
}
static inline sw_v4 sw_v4_mul(sw_v4 a, sw_v4 b)
{
    for (int i = 0; i < 4; i++) a.e[i] *= b.e[i];
    return a;
}
static inline sw_v4 sw_v4_sat(sw_v4 x)
{
    for (int i = 0; i < 4; i++) x.e[i] = x.e[i] > 0.0f ? (x.e[i] < 1.0f ? x.e[i] : 1.0f) : 0.0f;
    return x;
}
static inline sw_v4 sw_v4_one_minus_w(sw_v4 x) { return sw_v4_splat(1.0f - x.e[3]); }
static inline sw_v4 sw_v4_unorm8(const uint8_t *p)
{
    return (sw_v4){ { xgdi_sw_unorm8[p[0]], xgdi_sw_unorm8[p[1]], xgdi_sw_unorm8[p[2]],
                      xgdi_sw_unorm8[p[3]] } };
}
static inline void sw_v4_store_unorm8(uint8_t *q, sw_v4 v)
{
    for (int i = 0; i < 4; i++) q[i] = sw_unorm8(v.e[i]);
}
#endif


#endif /* XGD_SW_SIMD_H */
