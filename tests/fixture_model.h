/*
 * fixture_model.h - a per-sample reference model of a Color render target for the MRT,
 * lifetime and cube-transition fixtures (fixture_mrt.c, fixture_lifetime.c), plus the MrtEffect
 * (EXT) helpers they share.
 *
 * The model applies the rules of the team brief, independently of the renderer: coverage at
 * the D3D standard sample positions (1, 2, 4, 8 samples) under the top-left rule after
 * snapping to 1/256 pixel (fixture_util.h's fx_covers); colour-write masks per channel; the
 * resolve is the float average of the samples, then stored as 8 bits
 * (v8 = floor(clamp(v, 0, 1) * 255 + 0.5)); mip level n+1 is the 2x2 box average of level n,
 * in float, then stored as 8 bits.
 */
#ifndef XGD_FIXTURE_MODEL_H
#define XGD_FIXTURE_MODEL_H

#include "fixture_util.h"

#include <stdio.h>

typedef struct fm_model {
    int w, h, n;       /* n: samples per pixel (1 for a single-sampled target) */
    xgd_color *s;      /* w * h * n, pixel-major */
} fm_model;

static inline bool fm_init(fm_model *m, int w, int h, int n, xgd_color fill)
{
    m->w = w;
    m->h = h;
    m->n = n < 1 ? 1 : n;
    m->s = malloc(sizeof *m->s * (size_t)w * (size_t)h * (size_t)m->n);
    if (m->s == NULL) return false;
    for (int i = 0; i < w * h * m->n; i++) m->s[i] = fill;
    return true;
}

static inline void fm_free(fm_model *m)
{
    free(m->s);
    m->s = NULL;
}

static inline void fm_fill(fm_model *m, xgd_color c)
{
    for (int i = 0; i < m->w * m->h * m->n; i++) m->s[i] = c;
}

/* D3D standard sample positions in 1/16 pixel from the pixel centre (team brief). */
static inline void fm_sample_offset(int n, int s, int *dx, int *dy)
{
    static const int p2[2][2] = { { 4, 4 }, { -4, -4 } };
    static const int p4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
    static const int p8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
                                  { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };
    *dx = *dy = 0;
    if (n == 2) { *dx = p2[s][0]; *dy = p2[s][1]; }
    if (n == 4) { *dx = p4[s][0]; *dy = p4[s][1]; }
    if (n == 8) { *dx = p8[s][0]; *dy = p8[s][1]; }
}

/* Writes c into every covered sample; mask: XGD_COLOR_WRITE_* channel bits (15 = all). */
static inline void fm_tri(fm_model *m, const float xy[6], xgd_color c, unsigned mask)
{
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    for (int py = 0; py < m->h; py++)
        for (int px = 0; px < m->w; px++)
            for (int s = 0; s < m->n; s++) {
                int dx, dy;
                fm_sample_offset(m->n, s, &dx, &dy);
                if (!fx_covers(x, y, (int64_t)px * 256 + 128 + dx * 16,
                               (int64_t)py * 256 + 128 + dy * 16))
                    continue;
                xgd_color *d = &m->s[(py * m->w + px) * m->n + s];
                if (mask & XGD_COLOR_WRITE_RED) d->r = c.r;
                if (mask & XGD_COLOR_WRITE_GREEN) d->g = c.g;
                if (mask & XGD_COLOR_WRITE_BLUE) d->b = c.b;
                if (mask & XGD_COLOR_WRITE_ALPHA) d->a = c.a;
            }
}

/* The two triangles fx_rect draws. */
static inline void fm_rect(fm_model *m, float x0, float y0, float x1, float y1, xgd_color c,
                           unsigned mask)
{
    const float a[6] = { x0, y0, x1, y0, x1, y1 }, b[6] = { x0, y0, x1, y1, x0, y1 };
    fm_tri(m, a, c, mask);
    fm_tri(m, b, c, mask);
}

/* Resolved level 0 as RGBA8 (malloc'd). */
static inline uint8_t *fm_resolve(const fm_model *m)
{
    uint8_t *img = malloc((size_t)m->w * (size_t)m->h * 4);
    if (img == NULL) return NULL;
    for (int i = 0; i < m->w * m->h; i++) {
        double acc[4] = { 0, 0, 0, 0 };
        for (int s = 0; s < m->n; s++) {
            xgd_color c = m->s[i * m->n + s];
            acc[0] += c.r;
            acc[1] += c.g;
            acc[2] += c.b;
            acc[3] += c.a;
        }
        for (int k = 0; k < 4; k++) img[i * 4 + k] = fx_q8(acc[k] / (255.0 * m->n));
    }
    return img;
}

/* The next mip level of an RGBA8 image w x h (even sizes): 2x2 box average (malloc'd). */
static inline uint8_t *fm_box(const uint8_t *src, int w, int h)
{
    int w2 = w / 2, h2 = h / 2;
    uint8_t *img = malloc((size_t)w2 * (size_t)h2 * 4);
    if (img == NULL) return NULL;
    for (int y = 0; y < h2; y++)
        for (int x = 0; x < w2; x++)
            for (int k = 0; k < 4; k++) {
                int sum = src[((2 * y) * w + 2 * x) * 4 + k] + src[((2 * y) * w + 2 * x + 1) * 4 + k] +
                          src[((2 * y + 1) * w + 2 * x) * 4 + k] +
                          src[((2 * y + 1) * w + 2 * x + 1) * 4 + k];
                img[(y * w2 + x) * 4 + k] = fx_q8(sum / (4.0 * 255.0));
            }
    return img;
}

/*
 * Compares the resolved level 0 of `face` with the model and, when levels > 1, level 1 with
 * the box filter of the expected level 0. Tolerance 1: the resolve and the box filter round a
 * float average, where the last bit may differ between renderers.
 */
static inline void fm_expect(xgdt_ctx *t, const fm_model *m, xgd_texture *tex,
                             xgd_cube_map_face face, int levels, const char *label)
{
    uint8_t *e0 = fm_resolve(m);
    if (e0 == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "out of memory");
        return;
    }
    char name[96];
    snprintf(name, sizeof name, "%s_level0", label);
    fx_expect_texture(t, tex, face, 0, name, e0, m->w, m->h, 1);
    if (levels > 1) {
        uint8_t *e1 = fm_box(e0, m->w, m->h);
        if (e1 != NULL) {
            snprintf(name, sizeof name, "%s_level1", label);
            fx_expect_texture(t, tex, face, 1, name, e1, m->w / 2, m->h / 2, 1);
            free(e1);
        }
    }
    free(e0);
}

/* Applied sample count of a target as a model sample count (0 -> 1). */
static inline int fm_samples(xgd_texture *tex)
{
    xgd_texture_info info;
    if (xgd_texture_get_info(tex, &info) != XGD_OK) return 1;
    return info.multisample_count > 1 ? info.multisample_count : 1;
}

/* ---- MrtEffect (EXT) ---------------------------------------------------------------------- */

/* Sets the four target colours (as 8-bit colours, so a white vertex colour gives exactly
 * colors[i] in an 8-bit target) and applies the effect. */
static inline xgd_result fm_mrt_colors(xgd_effect *fx, const xgd_color colors[4])
{
    xgd_vector4 v[4];
    for (int i = 0; i < 4; i++) v[i] = fx_vec4(colors[i]);
    xgd_result r = xgd_mrt_effect_set_colors(fx, v);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    return r;
}

/* A new MrtEffect (identity matrix: clip = position) with colours, applied. */
static inline xgd_effect *fm_mrt_effect(xgdt_ctx *t, xgd_device *dev, const xgd_color colors[4])
{
    xgd_effect *fx = NULL;
    xgd_result r = xgd_mrt_effect_create(dev, &fx);
    if (r == XGD_OK) r = fm_mrt_colors(fx, colors);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "MrtEffect setup returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* Enough simultaneous render targets, else marks the fixture not supported. */
static inline bool fm_need_targets(xgdt_ctx *t, xgd_device *dev, int count)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) == XGD_OK && info.max_render_targets >= count) return true;
    xgdt_not_supported(t, "renderer has too few simultaneous render targets");
    return false;
}

#endif /* XGD_FIXTURE_MODEL_H */
