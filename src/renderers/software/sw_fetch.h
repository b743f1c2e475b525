/*
 * sw_fetch.h - vertex fetch: one vertex element decoded to the four floats a vertex shader
 * input reads (missing components read 0, 0, 0, 1, as Direct3D and Vulkan fill them). Inline:
 * the vertex stage decodes every input of every vertex through it (sw_raster.c).
 */
#ifndef XGD_SW_FETCH_H
#define XGD_SW_FETCH_H

#include "sw_internal.h"

#include <string.h>

/* ---- vertex fetch: all 12 xgd_vertex_element_format values ---- */

static inline float sw_rd_f32(const uint8_t *p)
{
    float f;
    memcpy(&f, p, 4);
    return f;
}

static inline float sw_rd_s16(const uint8_t *p)
{
    int16_t v;
    memcpy(&v, p, 2);
    return (float)v;
}

static inline float sw_rd_half(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return xgdi_half_to_float(v);
}

static inline float sw_snorm16(float v)
{
    float f = v / 32767.0f;
    return f < -1.0f ? -1.0f : f;
}

static inline void sw_fetch_element(xgd_vertex_element_format f, const uint8_t *p, float o[4])
{
    o[0] = o[1] = o[2] = 0.0f;
    o[3] = 1.0f;
    switch (f) {
    case XGD_VERTEX_FORMAT_VECTOR4: o[3] = sw_rd_f32(p + 12); /* fall through */
    case XGD_VERTEX_FORMAT_VECTOR3: o[2] = sw_rd_f32(p + 8); /* fall through */
    case XGD_VERTEX_FORMAT_VECTOR2: o[1] = sw_rd_f32(p + 4); /* fall through */
    case XGD_VERTEX_FORMAT_SINGLE: o[0] = sw_rd_f32(p); break;
    case XGD_VERTEX_FORMAT_COLOR:
        for (int i = 0; i < 4; i++) o[i] = (float)p[i] / 255.0f;
        break;
    case XGD_VERTEX_FORMAT_BYTE4:
        for (int i = 0; i < 4; i++) o[i] = (float)p[i];
        break;
    case XGD_VERTEX_FORMAT_SHORT4:
        o[2] = sw_rd_s16(p + 4);
        o[3] = sw_rd_s16(p + 6);
        /* fall through */
    case XGD_VERTEX_FORMAT_SHORT2:
        o[0] = sw_rd_s16(p);
        o[1] = sw_rd_s16(p + 2);
        break;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT4:
        o[2] = sw_snorm16(sw_rd_s16(p + 4));
        o[3] = sw_snorm16(sw_rd_s16(p + 6));
        /* fall through */
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT2:
        o[0] = sw_snorm16(sw_rd_s16(p));
        o[1] = sw_snorm16(sw_rd_s16(p + 2));
        break;
    case XGD_VERTEX_FORMAT_HALF_VECTOR4:
        o[2] = sw_rd_half(p + 4);
        o[3] = sw_rd_half(p + 6);
        /* fall through */
    case XGD_VERTEX_FORMAT_HALF_VECTOR2:
        o[0] = sw_rd_half(p);
        o[1] = sw_rd_half(p + 2);
        break;
    default:
        break;
    }
}

#endif /* XGD_SW_FETCH_H */
