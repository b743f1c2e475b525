/*
 * fixture_util.h - small helpers shared by the conformance fixtures (tests/fixture_*.c): scene
 * building in pixel coordinates, state objects, expected images and an independent reference
 * of the rasterization rules (spec decisions in the team brief: top-left fill rule, positions
 * snapped to 1/256 pixel, D3D standard MSAA positions), written for Direct3D 10 pixel centres
 * (pixel (i, j) samples at (i + 0.5, j + 0.5)). Under XNA's centres (the device default) a
 * pixel samples at (i, j), which is the same as the reference applied to the geometry moved
 * by (+0.5, +0.5).
 *
 * Geometry is drawn with a BasicEffect whose matrices are all identity, so clip = position.
 * Pixel coordinates are turned into NDC here; with power-of-two target sizes that conversion
 * and the renderer's viewport transform are exact in float, so the reference below sees the
 * same positions the renderer does.
 */
#ifndef XGD_FIXTURE_UTIL_H
#define XGD_FIXTURE_UTIL_H

#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- devices ---------------------------------------------------------------------------- */

/* A device with the given pixel-centre convention: XNA's (Direct3D 9: pixel (i, j) samples at
 * (i, j), i.e. geometry lands half a pixel right and down of the reference below, which
 * samples at (i + 0.5, j + 0.5)) or Direct3D 10's (the reference's own). */
static inline xgd_device *fx_device_centers(xgdt_ctx *t, int w, int h, xgd_depth_format depth,
                                            int msaa, xgd_pixel_center centers)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = depth;
    dd.pp.multisample_count = msaa;
    dd.pixel_center = centers;
    return xgdt_device(t, &dd);
}

/* A device with the default convention (XNA's pixel centres). */
static inline xgd_device *fx_device(xgdt_ctx *t, int w, int h, xgd_depth_format depth, int msaa)
{
    return fx_device_centers(t, w, h, depth, msaa, XGD_PIXEL_CENTER_XNA);
}

/* A 2D render target; NULL (and a recorded failure) when creation fails. */
static inline xgd_texture *fx_target(xgdt_ctx *t, xgd_device *dev, int w, int h,
                                     xgd_depth_format depth, int msaa,
                                     xgd_render_target_usage usage, bool mipmap)
{
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = w;
    d.height = h;
    d.mipmap = mipmap;
    d.preferred_depth_format = depth;
    d.preferred_multisample_count = msaa;
    d.usage = usage;
    xgd_texture *rt = NULL;
    xgd_result r = xgd_render_target2d_create(dev, &d, &rt);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_render_target2d_create(%dx%d) returned %s (%s)",
                     w, h, xgd_result_name(r), xgdt_last_message());
        return NULL;
    }
    return rt;
}

/* Multisample count the device really gives (render targets); 0 when it cannot. */
static inline int fx_max_msaa(xgd_device *dev)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) != XGD_OK) return 0;
    return info.max_multisample_count;
}

/* ---- effects ------------------------------------------------------------------------------ */

/* A BasicEffect with identity matrices (clip = position); vertex colours on, applied. */
static inline xgd_effect *fx_effect(xgdt_ctx *t, xgd_device *dev)
{
    xgd_effect *fx = NULL;
    xgd_result r = xgd_basic_effect_create(dev, &fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_basic_effect_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        return NULL;
    }
    xgd_basic_effect_params p;
    xgd_basic_effect_get(fx, &p);
    p.vertex_color_enabled = true;
    r = xgd_basic_effect_set(fx, &p);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "basic effect setup returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* Identity-matrix BasicEffect with a texture (slot 0) and vertex colours, applied. */
static inline xgd_effect *fx_texture_effect(xgdt_ctx *t, xgd_device *dev, xgd_texture *tex)
{
    xgd_effect *fx = fx_effect(t, dev);
    if (!fx) return NULL;
    xgd_basic_effect_params p;
    xgd_basic_effect_get(fx, &p);
    p.texture_enabled = true;
    xgd_result r = xgd_basic_effect_set(fx, &p);
    if (r == XGD_OK) r = xgd_basic_effect_set_texture(fx, tex);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "textured effect setup returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* ---- states ------------------------------------------------------------------------------- */

static inline xgd_blend_state *fx_blend(xgdt_ctx *t, xgd_device *dev, const xgd_blend_state_desc *d)
{
    xgd_blend_state *s = NULL;
    xgd_result r = xgd_blend_state_create(dev, d, &s);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_blend_state_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return s;
}

static inline xgd_depth_stencil_state *fx_depth(xgdt_ctx *t, xgd_device *dev,
                                                const xgd_depth_stencil_desc *d)
{
    xgd_depth_stencil_state *s = NULL;
    xgd_result r = xgd_depth_stencil_state_create(dev, d, &s);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_depth_stencil_state_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return s;
}

static inline xgd_rasterizer_state *fx_raster(xgdt_ctx *t, xgd_device *dev,
                                              const xgd_rasterizer_desc *d)
{
    xgd_rasterizer_state *s = NULL;
    xgd_result r = xgd_rasterizer_state_create(dev, d, &s);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_rasterizer_state_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return s;
}

static inline xgd_sampler_state *fx_sampler(xgdt_ctx *t, xgd_device *dev,
                                            const xgd_sampler_desc *d)
{
    xgd_sampler_state *s = NULL;
    xgd_result r = xgd_sampler_state_create(dev, d, &s);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_sampler_state_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return s;
}

/* CullNone rasterizer, bound; the caller destroys it. */
static inline xgd_rasterizer_state *fx_cull_none(xgdt_ctx *t, xgd_device *dev)
{
    xgd_rasterizer_desc d = XGD_RASTERIZER_DESC_DEFAULT;
    d.cull_mode = XGD_CULL_NONE;
    xgd_rasterizer_state *s = fx_raster(t, dev, &d);
    if (s) xgd_set_rasterizer_state(dev, s);
    return s;
}

/* ---- geometry in pixel coordinates -------------------------------------------------------- */

/* Pixel position of a target w x h to NDC (viewport at the origin, full size). */
static inline float fx_ndc_x(float px, int w) { return px * 2.0f / (float)w - 1.0f; }
static inline float fx_ndc_y(float py, int h) { return 1.0f - py * 2.0f / (float)h; }

static inline xgd_vertex_position_color fx_vpc(float px, float py, float z, int w, int h,
                                               xgd_color c)
{
    xgd_vertex_position_color v;
    v.position.x = fx_ndc_x(px, w);
    v.position.y = fx_ndc_y(py, h);
    v.position.z = z;
    v.color = c;
    return v;
}

/* One triangle, vertices in pixel coordinates of a w x h target, depth z (0..1). */
static inline xgd_result fx_tri(xgd_device *dev, int w, int h, const float xy[6], float z,
                                xgd_color c)
{
    xgd_vertex_position_color v[3];
    for (int i = 0; i < 3; i++) v[i] = fx_vpc(xy[i * 2], xy[i * 2 + 1], z, w, h, c);
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR));
}

/* An axis-aligned rectangle [x0,x1) x [y0,y1) as two clockwise triangles. */
static inline xgd_result fx_rect(xgd_device *dev, int w, int h, float x0, float y0, float x1,
                                 float y1, float z, xgd_color c)
{
    xgd_vertex_position_color v[6];
    v[0] = fx_vpc(x0, y0, z, w, h, c);
    v[1] = fx_vpc(x1, y0, z, w, h, c);
    v[2] = fx_vpc(x1, y1, z, w, h, c);
    v[3] = v[0];
    v[4] = v[2];
    v[5] = fx_vpc(x0, y1, z, w, h, c);
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR));
}

/* A textured, vertex-coloured rectangle with texture coordinates (u0,v0) .. (u1,v1). */
static inline xgd_result fx_tex_rect(xgd_device *dev, int w, int h, float x0, float y0, float x1,
                                     float y1, float u0, float v0, float u1, float v1,
                                     xgd_color c)
{
    xgd_vertex_position_color_texture q[4];
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    const float us[4] = { u0, u1, u1, u0 }, vs[4] = { v0, v0, v1, v1 };
    for (int i = 0; i < 4; i++) {
        q[i].position.x = fx_ndc_x(xs[i], w);
        q[i].position.y = fx_ndc_y(ys[i], h);
        q[i].position.z = 0.0f;
        q[i].color = c;
        q[i].texture_coordinate.x = us[i];
        q[i].texture_coordinate.y = vs[i];
    }
    xgd_vertex_position_color_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    return xgd_draw_user_primitives(
        dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

/* ---- expected images ---------------------------------------------------------------------- */

/* v8 = floor(clamp(v, 0, 1) * 255 + 0.5): how an 8-bit unorm target stores v. */
static inline uint8_t fx_q8(double v)
{
    if (!(v > 0.0)) return 0;
    if (v >= 1.0) return 255;
    return (uint8_t)floor(v * 255.0 + 0.5);
}

static inline uint8_t *fx_image(int w, int h, xgd_color c)
{
    uint8_t *img = malloc((size_t)w * (size_t)h * 4);
    if (!img) return NULL;
    for (int i = 0; i < w * h; i++) {
        img[i * 4 + 0] = c.r;
        img[i * 4 + 1] = c.g;
        img[i * 4 + 2] = c.b;
        img[i * 4 + 3] = c.a;
    }
    return img;
}

static inline void fx_put(uint8_t *img, int w, int x, int y, xgd_color c)
{
    uint8_t *p = img + ((size_t)y * (size_t)w + (size_t)x) * 4;
    p[0] = c.r;
    p[1] = c.g;
    p[2] = c.b;
    p[3] = c.a;
}

static inline xgd_color fx_get(const uint8_t *img, int w, int x, int y)
{
    const uint8_t *p = img + ((size_t)y * (size_t)w + (size_t)x) * 4;
    return (xgd_color){ p[0], p[1], p[2], p[3] };
}

/* Pixels [x0,x1) x [y0,y1), clipped to the image. */
static inline void fx_fill(uint8_t *img, int w, int h, int x0, int y0, int x1, int y1,
                           xgd_color c)
{
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++) fx_put(img, w, x, y, c);
}

static inline xgd_color fx_rgba(int r, int g, int b, int a)
{
    return (xgd_color){ (uint8_t)r, (uint8_t)g, (uint8_t)b, (uint8_t)a };
}

static inline xgd_vector4 fx_vec4(xgd_color c)
{
    return (xgd_vector4){ c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, c.a / 255.0f };
}

/* ---- reference rasterization -------------------------------------------------------------- */

/* Snap to the 1/256-pixel grid (round to nearest), as the rasterizer does before edge setup. */
static inline int64_t fx_snap(double v)
{
    return (int64_t)floor(v * 256.0 + 0.5);
}

/*
 * Whether point (px, py) (in 1/256 pixel) is inside the triangle under the top-left rule:
 * inside when every edge function is > 0, or == 0 on a top or left edge. Orientation is
 * normalised first so the rule does not depend on winding. Degenerate triangles cover nothing.
 */
static inline bool fx_covers(const int64_t x[3], const int64_t y[3], int64_t px, int64_t py)
{
    int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    if (area == 0) return false;
    int order[3] = { 0, 1, 2 };
    if (area < 0) {
        order[1] = 2;
        order[2] = 1;
    }
    for (int e = 0; e < 3; e++) {
        int a = order[e], b = order[(e + 1) % 3];
        int64_t dx = x[b] - x[a], dy = y[b] - y[a];
        /* inward normal n = (-dy, dx) with y pointing down */
        int64_t ev = dx * (py - y[a]) - dy * (px - x[a]);
        if (ev > 0) continue;
        if (ev < 0) return false;
        bool left = -dy > 0;              /* interior lies to the right of the edge */
        bool top = dy == 0 && dx > 0;     /* horizontal, interior below (n.y = dx > 0) */
        if (!(left || top)) return false;
    }
    return true;
}

/* Triangle in float pixel coordinates, snapped. */
static inline void fx_snap_tri(const float xy[6], int64_t x[3], int64_t y[3])
{
    for (int i = 0; i < 3; i++) {
        x[i] = fx_snap(xy[i * 2]);
        y[i] = fx_snap(xy[i * 2 + 1]);
    }
}

/* Does the triangle cover pixel (px, py)'s centre? */
static inline bool fx_covers_pixel(const float xy[6], int px, int py)
{
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    return fx_covers(x, y, (int64_t)px * 256 + 128, (int64_t)py * 256 + 128);
}

/* How many of the 4 standard sample positions of pixel (px, py) the triangle covers. */
static inline int fx_covered_samples4(const float xy[6], int px, int py)
{
    /* standard 4x positions in 1/16 pixel from the centre (D3D), as the team brief lists */
    static const int fx_msaa4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    int k = 0;
    for (int s = 0; s < 4; s++)
        k += fx_covers(x, y, (int64_t)px * 256 + 128 + fx_msaa4[s][0] * 16,
                       (int64_t)py * 256 + 128 + fx_msaa4[s][1] * 16);
    return k;
}

/* The triangle the reference must see for a device with `centers`: under XNA's pixel centres
 * the rasterizer samples pixel (i, j) at (i, j), which is the reference's (i + 0.5, j + 0.5)
 * with the geometry moved by (+0.5, +0.5). */
static inline void fx_centered_tri(const float xy[6], xgd_pixel_center centers, float out[6])
{
    float d = centers == XGD_PIXEL_CENTER_XNA ? 0.5f : 0.0f;
    for (int i = 0; i < 6; i++) out[i] = xy[i] + d;
}

/* Paints c over every pixel whose centre the triangle covers. */
static inline void fx_raster_tri(uint8_t *img, int w, int h, const float xy[6], xgd_color c)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            if (fx_covers_pixel(xy, x, y)) fx_put(img, w, x, y, c);
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Reads and compares the back buffer (w x h) with expected; frees what it read. */
static inline bool fx_expect_back_buffer(xgdt_ctx *t, xgd_device *dev, const char *label,
                                         const uint8_t *expected, int w, int h, int tolerance)
{
    uint8_t *actual = NULL;
    if (!xgdt_read_back_buffer(t, dev, w, h, &actual)) return false;
    bool ok = xgdt_compare_rgba(t, label, actual, expected, w, h, tolerance);
    free(actual);
    return ok;
}

/* Reads level `level` of a (face of a) Color texture or render target and compares it. */
static inline bool fx_expect_texture(xgdt_ctx *t, xgd_texture *tex, xgd_cube_map_face face,
                                     int level, const char *label, const uint8_t *expected,
                                     int w, int h, int tolerance)
{
    uint8_t *actual = NULL;
    if (!xgdt_read_texture(t, tex, face, level, w, h, &actual)) return false;
    bool ok = xgdt_compare_rgba(t, label, actual, expected, w, h, tolerance);
    free(actual);
    return ok;
}

#endif /* XGD_FIXTURE_UTIL_H */
