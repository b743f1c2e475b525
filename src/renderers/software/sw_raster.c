/*
 * sw_raster.c - primitive assembly, clipping, rasterization and the output merger.
 *
 * Rules (team brief "Cross-cutting decisions", Direct3D 10+/Vulkan):
 *  - clip space: 0 <= z <= w; x and y are clipped against a guard band (planes chosen so
 *    screen coordinates stay within +-2^20 pixels of the target origin, keeping snapped
 *    coordinates far inside 64-bit edge arithmetic for any viewport); the viewport and
 *    scissor rectangles then bound the pixels that are visited;
 *  - viewport: x = vp.x + (ndc.x + 1) * vp.w / 2, y = vp.y + (1 - ndc.y) * vp.h / 2,
 *    z = min + ndc.z * (max - min);
 *  - positions are snapped to 1/256 pixel (round to nearest even) before edge setup; coverage
 *    is tested at pixel centres (x + 0.5, y + 0.5), or at the D3D standard sample positions
 *    when multisampled, with the top-left rule for samples exactly on an edge;
 *  - front face = clockwise on screen (y down); XNA CullCounterClockwiseFace culls the others;
 *  - attributes are interpolated perspective-correctly at the pixel centre (shading once per
 *    pixel); depth is interpolated linearly in screen space at each sample;
 *  - depth bias = depth_bias + slope_scale * max(|dz/dx|, |dz/dy|), added before the depth
 *    test, then clamped to the viewport depth range; depth is quantised to the buffer format
 *    (D16: 16 bits, D24: 24 bits) before it is compared and stored;
 *  - lines (and wireframe edges) use a documented "nearest pixel per major-axis column" rule:
 *    for an x-major line the columns whose centre x + 0.5 lies in [x0, x1) (start inclusive,
 *    end exclusive, in drawing direction) each light the pixel whose row contains the line at
 *    that centre (floor(y)); y-major lines are symmetric. Line pixels cover every sample, use
 *    the constant depth bias only, and interpolate attributes perspective-correctly along the
 *    line. This matches Direct3D's diamond-exit rule for lines between pixel centres.
 *  - every draw runs shaders of renderer.h's shader form: the pixel shader runs per aligned
 *    2x2 quad in the SPIR-V executor (lanes without coverage run as helpers, so derivatives
 *    are quad differences), and depth and stencil are tested after it, since it may discard
 *    or write depth. Vertices are shaded four per execute, filled triangles rasterized in
 *    bands, both on the pool. A pixel shader of a recognised shape (sw_spirv.h: texture times
 *    an input) is computed here directly, with the executor's operations.
 */
#include "sw_internal.h"
#include "sw_spirv.h"
#include "sw_spirv_sample.h"
#include "sw_simd.h"
#include "sw_fetch.h"

#include <stdatomic.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sample positions (1/16 pixel from the centre) ---- */

static const int8_t sw_pos1[1][2] = { { 0, 0 } };
static const int8_t sw_pos2[2][2] = { { 4, 4 }, { -4, -4 } };
static const int8_t sw_pos4[4][2] = { { -2, -6 }, { 6, -2 }, { -6, 2 }, { 2, 6 } };
static const int8_t sw_pos8[8][2] = { { 1, -3 }, { -1, 3 }, { 5, 1 }, { -3, -5 },
                                      { -5, 5 }, { -7, -1 }, { 3, 7 }, { 7, -7 } };

const int8_t (*sw_sample_positions(int samples))[2]
{
    switch (samples) {
    case 2: return sw_pos2;
    case 4: return sw_pos4;
    case 8: return sw_pos8;
    default: return sw_pos1;
    }
}

/* ---- context ---- */

typedef struct sw_blend {
    bool enabled;
    /* One, InverseSourceAlpha, Add on colour and alpha (SpriteBatch's AlphaBlend): blended
       without the factor switches, with the same float operations */
    bool premultiplied;
    xgd_blend cs, cd, as, ad;
    xgd_blend_function cf, af;
} sw_blend;

typedef struct sw_rt_view {
    xgdi_native_texture *tex;
    int face;
    xgd_surface_format format;
    size_t es;
    uint8_t *base;            /* sample 0 of pixel (0,0) */
    bool is_color;
    int range;                /* 0 float, 1 unorm, 2 snorm: clamp of the source before blending */
    sw_blend blend;
    unsigned write_mask;      /* RGBA bits */
} sw_rt_view;

typedef struct sw_stencil_face {
    xgd_compare_function func;
    xgd_stencil_operation pass, fail, zfail;
} sw_stencil_face;

typedef struct sw_ctx {
    sw_renderer *r;
    int nvary;
    int width, height, samples;
    bool single_coverage;     /* samples == 1 or multisample_antialias off */
    unsigned full_mask;
    const int8_t (*spos)[2];
    int cx0, cy0, cx1, cy1;   /* pixel rectangle visited: [cx0, cx1) x [cy0, cy1) */
    float vx, vy, vhw, vhh, zmin, zmax;
    float gx_lo, gx_hi, gy_lo, gy_hi; /* guard band in NDC (see sw_setup) */
    sw_rt_view rt[SW_MAX_TARGETS];
    int rt_count;
    int out_count;            /* targets the program writes */
    float blend_factor[4];
    /* depth/stencil */
    float *depth;
    uint8_t *stencil;
    xgd_depth_format dfmt;
    double dscale;            /* quantisation steps, 0 = none */
    bool depth_test, depth_write;
    xgd_compare_function depth_func;
    bool stencil_on;
    unsigned sref, srmask, swmask;
    sw_stencil_face sf_front, sf_back;
    /* rasterizer */
    xgd_cull_mode cull;
    bool wireframe;
    float depth_bias, slope_bias;
    double zlo, zhi;
    /* per primitive */
    bool front;
    double prim_bias;
    uint64_t *occlusion;      /* the active occlusion query's counter, or NULL */
    /* the shaders; the layout's element feeding each vertex input
       location; the varyings the pixel shader reads, packed as float4s into sw_vertex.v
       (link i at v[4i]); the targets the pixel shader writes (bit i = COLORi) */
    xgdi_native_shader *vs, *ps;
    xgdi_sw_spirv_state *ps_state; /* the pixel shader's state of the thread using this context */
    float *ps_R;                   /* its register file (xgdi_sw_spirv_regs) */
    /* vertices waiting for the vertex shader (sw_shade_vertex): r->verts[0, vq_count) from
       r->vsrc */
    size_t vq_count;
    int nin;
    int in_loc[XGDI_SHADER_LOCATION_COUNT];
    const xgd_vertex_element *in_elem[XGDI_SHADER_LOCATION_COUNT];
    int nlink;
    uint32_t link_vs[SW_USER_MAX_LINKS], link_ps[SW_USER_MAX_LINKS];
    uint8_t link_vs_comps[SW_USER_MAX_LINKS], link_ps_comps[SW_USER_MAX_LINKS];
    unsigned color_written;
    /* the pixel shader's modulate shape (xgdi_native_shader.modulate) computed here: the
       varyings of its coordinates and its factor, whether the sample needs derivatives */
    bool mod;
    bool mod_lod;
    int mod_uv, mod_col;
    const xgdi_native_texture *mod_tex;   /* its texture (NULL: unbound or invalid) */
    const sw_sampler *mod_samp;
    const sw_image *mod_image;            /* one level and an isotropic filter without a level
                                             of detail: its image and the filter chosen */
    bool mod_linear;
    /* the pixel goes to one single-sampled Color target through SpriteBatch's AlphaBlend
       (premultiplied, all channels), with no depth, stencil or query to update */
    bool mod_blend_write;
    /* and the image is RGBA8 with one level and no level of detail: affine triangles are
       drawn by sw_mod_rows */
    bool mod_rows;
    /* and the image's texels are not the target's: sw_mod_rows may read four target pixels
       before writing them (SSE2 builds) */
    bool mod_rows4;
    /* a draw of quad runs (sw_draw_quad_runs): run k's triangles sample runs[k].texture in
       slot 0, from primitive 2 * (runs[k].base_vertex - runs[0].base_vertex) / 4 on; cur_run
       is the run whose texture the context holds (recording: whose triangles are recorded) */
    const xgdi_quad_run *runs;
    int run_count, cur_run;
    int slot0_resource;                   /* the pixel shader's resource of slot 0 (-1: none) */
    /* banded draws (sw_renderer.pool): filled triangles are recorded instead of rasterized */
    bool record;
    bool record_failed;       /* out of memory while recording: the draw fails unrasterized */
    xgdi_sw_spirv_textures tex;
    xgdi_sw_spirv_textures vtex;   /* the vertex stage's (vertex textures) */
    /* several vertex buffers (xgdi_draw.streams): the instance being drawn; the primary
       stream's source (a vertex's index is its offset there over the stride); per input, the
       stream feeding it (in_stream[i] < 0: the primary, read through the vertex pointer) */
    int instance;
    const uint8_t *vbase;
    size_t vstride;
    const xgdi_draw *draw;
    int in_stream[XGDI_SHADER_LOCATION_COUNT];
} sw_ctx;

/* ---- output merger ---- */

static inline bool sw_compare(xgd_compare_function f, double a, double b)
{
    switch (f) {
    case XGD_COMPARE_NEVER: return false;
    case XGD_COMPARE_LESS: return a < b;
    case XGD_COMPARE_LESS_EQUAL: return a <= b;
    case XGD_COMPARE_EQUAL: return a == b;
    case XGD_COMPARE_GREATER_EQUAL: return a >= b;
    case XGD_COMPARE_GREATER: return a > b;
    case XGD_COMPARE_NOT_EQUAL: return a != b;
    case XGD_COMPARE_ALWAYS:
    default: return true;
    }
}

static inline uint8_t sw_stencil_op(xgd_stencil_operation op, uint8_t v, unsigned ref)
{
    switch (op) {
    case XGD_STENCIL_OP_ZERO: return 0;
    case XGD_STENCIL_OP_REPLACE: return (uint8_t)ref;
    case XGD_STENCIL_OP_INCREMENT: return (uint8_t)(v + 1);
    case XGD_STENCIL_OP_DECREMENT: return (uint8_t)(v - 1);
    case XGD_STENCIL_OP_INCREMENT_SATURATION: return v == 255 ? 255 : (uint8_t)(v + 1);
    case XGD_STENCIL_OP_DECREMENT_SATURATION: return v == 0 ? 0 : (uint8_t)(v - 1);
    case XGD_STENCIL_OP_INVERT: return (uint8_t)~v;
    case XGD_STENCIL_OP_KEEP:
    default: return v;
    }
}

static inline void sw_stencil_apply(const sw_ctx *c, uint8_t *p, xgd_stencil_operation op)
{
    uint8_t nv = sw_stencil_op(op, *p, c->sref);
    *p = (uint8_t)((*p & ~c->swmask) | (nv & c->swmask));
}

/* Stencil test, then depth test, per covered sample (Direct3D order); returns the samples that
   passed both. It runs after the pixel shader, which may discard or write depth. */
static unsigned sw_depth_stencil(const sw_ctx *c, size_t pix, unsigned mask, const double *zs)
{
    const sw_stencil_face *sf = c->front ? &c->sf_front : &c->sf_back;
    size_t base = pix * (size_t)c->samples;
    for (int s = 0; s < c->samples; s++) {
        unsigned bit = 1u << s;
        if (!(mask & bit)) continue;
        size_t i = base + (size_t)s;
        if (c->stencil_on) {
            uint8_t *sp = &c->stencil[i];
            if (!sw_compare(sf->func, (double)(c->sref & c->srmask), (double)(*sp & c->srmask))) {
                sw_stencil_apply(c, sp, sf->fail);
                mask &= ~bit;
                continue;
            }
        }
        if (c->depth_test) {
            double z = zs[s] + c->prim_bias;
            if (!(z >= c->zlo)) z = c->zlo;
            if (z > c->zhi) z = c->zhi;
            float zq = c->dscale > 0.0 ? (float)(floor(z * c->dscale + 0.5) / c->dscale) : (float)z;
            if (!sw_compare(c->depth_func, zq, c->depth[i])) {
                if (c->stencil_on) sw_stencil_apply(c, &c->stencil[i], sf->zfail);
                mask &= ~bit;
                continue;
            }
            if (c->depth_write) c->depth[i] = zq;
        }
        if (c->stencil_on) sw_stencil_apply(c, &c->stencil[i], sf->pass);
    }
    return mask;
}

static inline float sw_factor(xgd_blend f, int ch, const float *s, const float *d, const float *bf)
{
    switch (f) {
    case XGD_BLEND_ZERO: return 0.0f;
    case XGD_BLEND_SOURCE_COLOR: return s[ch];
    case XGD_BLEND_INVERSE_SOURCE_COLOR: return 1.0f - s[ch];
    case XGD_BLEND_SOURCE_ALPHA: return s[3];
    case XGD_BLEND_INVERSE_SOURCE_ALPHA: return 1.0f - s[3];
    case XGD_BLEND_DESTINATION_COLOR: return d[ch];
    case XGD_BLEND_INVERSE_DESTINATION_COLOR: return 1.0f - d[ch];
    case XGD_BLEND_DESTINATION_ALPHA: return d[3];
    case XGD_BLEND_INVERSE_DESTINATION_ALPHA: return 1.0f - d[3];
    case XGD_BLEND_BLEND_FACTOR: return bf[ch];
    case XGD_BLEND_INVERSE_BLEND_FACTOR: return 1.0f - bf[ch];
    case XGD_BLEND_SOURCE_ALPHA_SATURATION: {
        if (ch == 3) return 1.0f;
        float ia = 1.0f - d[3];
        return s[3] < ia ? s[3] : ia;
    }
    case XGD_BLEND_ONE:
    default: return 1.0f;
    }
}

static inline float sw_blend_op(xgd_blend_function f, float s, float sf, float d, float df)
{
    switch (f) {
    case XGD_BLEND_FUNCTION_SUBTRACT: return s * sf - d * df;
    case XGD_BLEND_FUNCTION_REVERSE_SUBTRACT: return d * df - s * sf;
    case XGD_BLEND_FUNCTION_MIN: return s < d ? s : d;
    case XGD_BLEND_FUNCTION_MAX: return s > d ? s : d;
    case XGD_BLEND_FUNCTION_ADD:
    default: return s * sf + d * df;
    }
}

static inline void sw_blend_px(const sw_blend *b, const float *s, const float *d, const float *bf,
                               float *o)
{
    for (int ch = 0; ch < 3; ch++)
        o[ch] = sw_blend_op(b->cf, s[ch], sw_factor(b->cs, ch, s, d, bf), d[ch],
                            sw_factor(b->cd, ch, s, d, bf));
    o[3] = sw_blend_op(b->af, s[3], sw_factor(b->as, 3, s, d, bf), d[3],
                       sw_factor(b->ad, 3, s, d, bf));
}

static void sw_write_target(const sw_ctx *c, const sw_rt_view *t, size_t pix, unsigned mask,
                            const float *color)
{
    float s[4];
    memcpy(s, color, sizeof s);
    if (t->range == 1) {
        for (int i = 0; i < 4; i++) s[i] = s[i] > 0.0f ? (s[i] < 1.0f ? s[i] : 1.0f) : 0.0f;
    } else if (t->range == 2) {
        for (int i = 0; i < 4; i++) s[i] = s[i] > -1.0f ? (s[i] < 1.0f ? s[i] : 1.0f) : -1.0f;
    }
    size_t es = t->es;
    uint8_t *p = t->base + pix * (size_t)c->samples * es;
    bool simple = !t->blend.enabled && t->write_mask == 15;
    if (t->is_color) {
        uint8_t enc[4];
        if (simple) {
            for (int i = 0; i < 4; i++) enc[i] = sw_unorm8(s[i]);
            for (int k = 0; k < c->samples; k++)
                if (mask & (1u << k)) memcpy(p + (size_t)k * 4, enc, 4);
            return;
        }
        if (t->blend.premultiplied && t->write_mask == 15) {
            /* s * 1 + d * (1 - sa): what sw_blend_px computes for these factors (s * 1 is
               exact), so the bytes are the same */
            float ia = 1.0f - s[3];
            for (int k = 0; k < c->samples; k++) {
                if (!(mask & (1u << k))) continue;
                uint8_t *q = p + (size_t)k * 4;
                for (int i = 0; i < 4; i++) q[i] = sw_unorm8(s[i] * 1.0f + xgdi_sw_unorm8[q[i]] * ia);
            }
            return;
        }
        for (int k = 0; k < c->samples; k++) {
            if (!(mask & (1u << k))) continue;
            uint8_t *q = p + (size_t)k * 4;
            float d[4] = { xgdi_sw_unorm8[q[0]], xgdi_sw_unorm8[q[1]], xgdi_sw_unorm8[q[2]],
                           xgdi_sw_unorm8[q[3]] };
            float o[4];
            if (t->blend.enabled) sw_blend_px(&t->blend, s, d, c->blend_factor, o);
            else memcpy(o, s, sizeof o);
            for (int i = 0; i < 4; i++)
                if (t->write_mask & (1u << i)) q[i] = sw_unorm8(o[i]);
        }
        return;
    }
    if (simple) {
        uint8_t enc[16];
        xgdi_format_encode_row(t->format, s, 1, enc);
        for (int k = 0; k < c->samples; k++)
            if (mask & (1u << k)) memcpy(p + (size_t)k * es, enc, es);
        return;
    }
    for (int k = 0; k < c->samples; k++) {
        if (!(mask & (1u << k))) continue;
        uint8_t *q = p + (size_t)k * es;
        float d[4], o[4];
        xgdi_format_decode_row(t->format, q, 1, d);
        if (t->blend.enabled) sw_blend_px(&t->blend, s, d, c->blend_factor, o);
        else memcpy(o, s, sizeof o);
        for (int i = 0; i < 4; i++)
            if (!(t->write_mask & (1u << i))) o[i] = d[i];
        xgdi_format_encode_row(t->format, o, 1, q);
    }
}

static inline unsigned sw_popcount(unsigned m)
{
    unsigned n = 0;
    for (; m != 0; m &= m - 1) n++;
    return n;
}

/* User pixel shaders: depth and stencil run after the shader (it may discard or write
   depth), on the samples it covered; each target the shader writes gets its own colour. */
static void sw_pixel_user(sw_ctx *c, int x, int y, unsigned mask, const double *zs,
                          float (*color)[4])
{
    size_t pix = (size_t)y * (size_t)c->width + (size_t)x;
    if (c->depth_test || c->stencil_on) {
        mask = sw_depth_stencil(c, pix, mask, zs);
        if (mask == 0) return;
    }
    if (c->occlusion != NULL) *c->occlusion += sw_popcount(mask);
    for (int t = 0; t < c->out_count; t++)
        if (c->rt[t].write_mask != 0 && (c->color_written >> t & 1u))
            sw_write_target(c, &c->rt[t], pix, mask, color[t]);
}

/* Writes one lane of the pixel shader's inputs: the varyings at barycentric weights
   (w0, w1, w2) of the primitive's vertices (a2 NULL for lines), FragCoord and FrontFacing. */
static void sw_user_lane(sw_ctx *c, int lane, double fx, double fy, double z, double invw,
                         float w0, float w1, float w2, const float *a0, const float *a1,
                         const float *a2)
{
    xgdi_native_shader *ps = c->ps;
    float *R = c->ps_R + lane;
    for (int i = 0; i < c->nlink; i++) {
        const float *p0 = a0 + 4 * i, *p1 = a1 + 4 * i;
        float *d = R + c->link_ps[i];
        int n = c->link_ps_comps[i];
        if (a2 != NULL) {
            const float *p2 = a2 + 4 * i;
            for (int k = 0; k < n; k++) d[4 * k] = w0 * p0[k] + w1 * p1[k] + w2 * p2[k];
        } else {
            for (int k = 0; k < n; k++) d[4 * k] = w0 * p0[k] + w1 * p1[k];
        }
    }
    if (ps->frag_coord_reg != SW_NO_REG) {
        float *d = R + ps->frag_coord_reg;
        d[0] = (float)fx;
        d[4] = (float)fy;
        d[8] = (float)z;
        d[12] = (float)invw;
    }
    if (ps->front_facing_reg != SW_NO_REG) {
        uint32_t ff = c->front ? 1u : 0u;
        memcpy(R + ps->front_facing_reg, &ff, sizeof ff);
    }
}

/* Runs the pixel shader on the quad at (qx, qy) (all four lanes, so derivatives see four
   values) and writes the lanes with coverage that were not discarded. */
static void sw_user_quad(sw_ctx *c, int64_t qx, int64_t qy, const unsigned cov[4],
                         double zs[4][SW_MAX_SAMPLES])
{
    xgdi_native_shader *ps = c->ps;
    xgdi_sw_spirv_state *st = c->ps_state;
    const float *R = c->ps_R;
    unsigned alive = 15u;
    if (ps->transform != NULL) xgdi_sw_spirv_run_transform(st, ps->transform);
    else alive = xgdi_sw_spirv_execute(st, 15u, NULL);
    for (int l = 0; l < 4; l++) {
        if (cov[l] == 0 || !(alive >> l & 1u)) continue;
        float color[SW_MAX_TARGETS][4];
        for (int t = 0; t < c->out_count; t++) {
            if (!(c->color_written >> t & 1u)) continue;
            for (int k = 0; k < 4; k++)
                color[t][k] = k < ps->color_comps[t] ? R[ps->color_reg[t] + 4u * (unsigned)k + (unsigned)l]
                                                     : (k == 3 ? 1.0f : 0.0f);
        }
        double saved = c->prim_bias;
        if (ps->frag_depth_reg != SW_NO_REG) {
            /* a written depth replaces the interpolated one at every sample, without bias */
            double z = R[ps->frag_depth_reg + (unsigned)l];
            for (int s = 0; s < c->samples; s++) zs[l][s] = z;
            c->prim_bias = 0.0;
        }
        sw_pixel_user(c, (int)(qx + (l & 1)), (int)(qy + (l >> 1)), cov[l], zs[l], color);
        c->prim_bias = saved;
    }
}

/* The pixel shader's modulate shape on the quad at (qx, qy): the executor's values without
   the executor. The inputs are interpolated as sw_user_lane does, the sample request is the
   one the executor builds (coarse derivatives from lanes 0, 1 and 2, no bias), and the
   product is taken in the shader's operand order, so every written bit is the same. Lanes
   without coverage are only computed when the sample needs their coordinates (derivatives);
   nothing else reads them. */
static void sw_mod_quad(sw_ctx *c, int64_t qx, int64_t qy, const unsigned cov[4],
                        double zs[4][SW_MAX_SAMPLES], const float w[4][3], const float *a0,
                        const float *a1, const float *a2)
{
    const xgdi_native_shader *ps = c->ps;
    unsigned live = 0;
    for (int l = 0; l < 4; l++)
        if (cov[l] != 0) live |= 1u << l;
    int u = c->mod_uv, ci = c->mod_col;
    bool sample_first = ps->mod.sample_first;
    if (c->mod_tex != NULL && !c->mod_lod) {
        /* no level of detail: each lane's sample is what the sampling callback computes for a
           2D sample without derivatives */
        for (int l = 0; l < 4; l++) {
            if (!(live >> l & 1u)) continue;
            float w0 = w[l][0], w1 = w[l][1], w2 = w[l][2];
            float uu = w0 * a0[u] + w1 * a1[u] + w2 * a2[u];
            float vv = w0 * a0[u + 1] + w1 * a1[u + 1] + w2 * a2[u + 1];
            float t[4], color[SW_MAX_TARGETS][4];
            if (c->mod_image != NULL)
                sw_sample_image(c->mod_image, c->mod_linear, uu, vv, c->mod_samp->desc->address_u,
                                c->mod_samp->desc->address_v, t);
            else
                sw_sample_2d_with(c->mod_tex, c->mod_samp, uu, vv, NULL, t);
            for (int k = 0; k < 4; k++) {
                float f = w0 * a0[ci + k] + w1 * a1[ci + k] + w2 * a2[ci + k];
                color[0][k] = sample_first ? t[k] * f : f * t[k];
            }
            if (c->mod_blend_write) {
                /* sw_write_target's premultiplied branch for one sample of a Color target */
                size_t pix = (size_t)(qy + (l >> 1)) * (size_t)c->width + (size_t)(qx + (l & 1));
                uint8_t *q = c->rt[0].base + pix * 4;
                float sc[4];
                for (int i = 0; i < 4; i++)
                    sc[i] = color[0][i] > 0.0f ? (color[0][i] < 1.0f ? color[0][i] : 1.0f) : 0.0f;
                float ia = 1.0f - sc[3];
                for (int i = 0; i < 4; i++) q[i] = sw_unorm8(sc[i] * 1.0f + xgdi_sw_unorm8[q[i]] * ia);
                continue;
            }
            sw_pixel_user(c, (int)(qx + (l & 1)), (int)(qy + (l >> 1)), cov[l], zs[l], color);
        }
        return;
    }
    xgdi_sw_spirv_sample_request q;
    unsigned need = c->mod_lod ? 15u : live;
    for (int l = 0; l < 4; l++) {
        q.lod[l] = 0.0f;
        q.lod_bias[l] = 0.0f;
        if (!(need >> l & 1u)) {
            q.coord[l][0] = q.coord[l][1] = q.coord[l][2] = 0.0f;
            continue;
        }
        float w0 = w[l][0], w1 = w[l][1], w2 = w[l][2];
        q.coord[l][0] = w0 * a0[u] + w1 * a1[u] + w2 * a2[u];
        q.coord[l][1] = w0 * a0[u + 1] + w1 * a1[u + 1] + w2 * a2[u + 1];
        q.coord[l][2] = 0.0f;
    }
    if (c->mod_lod) {
        float d[6];
        d[0] = q.coord[1][0] - q.coord[0][0];
        d[1] = q.coord[1][1] - q.coord[0][1];
        d[2] = q.coord[2][0] - q.coord[0][0];
        d[3] = q.coord[2][1] - q.coord[0][1];
        d[4] = q.coord[1][2] - q.coord[0][2];
        d[5] = q.coord[2][2] - q.coord[0][2];
        for (int l = 0; l < 4; l++) memcpy(q.deriv[l], d, sizeof d);
    } else {
        memset(q.deriv, 0, sizeof q.deriv);
    }
    q.image = (int)(ps->mod.resource & 0xffu);
    q.sampler = (int)(ps->mod.resource >> 8 & 0xffu);
    q.dim = XGDI_SW_SPIRV_DIM_2D;
    q.kind = XGDI_SW_SPIRV_SAMPLE_IMPLICIT;
    q.mask = live;
    float t[4][4] = { { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 } };
    if (ps->mod.valid) xgdi_sw_spirv_sample_textures(&c->tex, &q, t);
    for (int l = 0; l < 4; l++) {
        if (!(live >> l & 1u)) continue;
        float w0 = w[l][0], w1 = w[l][1], w2 = w[l][2];
        float color[SW_MAX_TARGETS][4];
        for (int k = 0; k < 4; k++) {
            float f = w0 * a0[ci + k] + w1 * a1[ci + k] + w2 * a2[ci + k];
            color[0][k] = sample_first ? t[l][k] * f : f * t[l][k];
        }
        sw_pixel_user(c, (int)(qx + (l & 1)), (int)(qy + (l >> 1)), cov[l], zs[l], color);
    }
}

static inline int64_t sw_floor_div256(int64_t v)
{
    return v >= 0 ? v / 256 : -((-v + 255) / 256);
}

/* floor(a / b) and ceil(a / b) for b > 0 */
static inline int64_t sw_floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

static inline int64_t sw_ceil_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && a > 0) ? q + 1 : q;
}

/* ---- the modulate shape in rows ---- */

/*
 * SpriteBatch's common case runs here pixel by pixel along each covered row instead of quad by
 * quad: the modulate shape without a level of detail (no lane reads another), an affine
 * triangle, a one-level RGBA8 image, one single-sampled Color target written through
 * AlphaBlend with nothing else to update (sw_ctx.mod_rows). Every value is the one
 * sw_raster_triangle, sw_mod_quad, sw_sample_image and sw_write_target compute, by the same
 * IEEE operations in the same order, four channels at a time (SSE2 where the compiler targets
 * it, plain loops elsewhere; with SSE2 also four pixels at a time, sw_mod4_px): the edge
 * values of a row step exactly in int64 and the barycentrics come from them by the same double
 * formula, so only the bookkeeping is cheaper.
 */
#if !SW_SIMD
/* sw_sample_image's value for an RGBA8 image (its rgba8 branches) */
static inline sw_v4 sw_sample_rgba8(const sw_image *img, bool linear, float u, float v,
                                    xgd_texture_address_mode au, xgd_texture_address_mode av)
{
    int w = img->width, h = img->height;
    const uint8_t *px = img->rgba8;
    if (!linear) {
        int x = sw_ifloor(sw_safe_coord(u * (float)w));
        int y = sw_ifloor(sw_safe_coord(v * (float)h));
        if (x < 0 || x >= w) x = sw_address(x, w, au);
        if (y < 0 || y >= h) y = sw_address(y, h, av);
        return sw_v4_unorm8(px + ((size_t)y * (size_t)w + (size_t)x) * 4);
    }
    float fx = sw_safe_coord(u * (float)w - 0.5f);
    float fy = sw_safe_coord(v * (float)h - 0.5f);
    int x0 = sw_ifloor(fx), y0 = sw_ifloor(fy);
    float ax = fx - (float)x0, ay = fy - (float)y0;
    int xa, xb, ya, yb;
    if (x0 >= 0 && x0 + 1 < w) {
        xa = x0;
        xb = x0 + 1;
    } else {
        xa = sw_address(x0, w, au);
        xb = sw_address(x0 + 1, w, au);
    }
    if (y0 >= 0 && y0 + 1 < h) {
        ya = y0;
        yb = y0 + 1;
    } else {
        ya = sw_address(y0, h, av);
        yb = sw_address(y0 + 1, h, av);
    }
    const uint8_t *ra = px + (size_t)ya * (size_t)w * 4, *rb = px + (size_t)yb * (size_t)w * 4;
    if (ax == 0.0f && ay == 0.0f) return sw_v4_unorm8(ra + (size_t)xa * 4);
    float w00 = (1.0f - ax) * (1.0f - ay), w10 = ax * (1.0f - ay);
    float w01 = (1.0f - ax) * ay, w11 = ax * ay;
    sw_v4 o = sw_v4_mul(sw_v4_unorm8(ra + (size_t)xa * 4), sw_v4_splat(w00));
    o = sw_v4_add(o, sw_v4_mul(sw_v4_unorm8(ra + (size_t)xb * 4), sw_v4_splat(w10)));
    o = sw_v4_add(o, sw_v4_mul(sw_v4_unorm8(rb + (size_t)xa * 4), sw_v4_splat(w01)));
    return sw_v4_add(o, sw_v4_mul(sw_v4_unorm8(rb + (size_t)xb * 4), sw_v4_splat(w11)));
}
#endif

#if SW_SIMD
/* sw_sample_rgba8 with (u, v) in elements 0 and 1 of uv and (width, height) in those of size
   (the image's texels px, w and h passed by value: the row loop's stores could alias them):
   the same operations on both axes at once (sw_safe_coord is MAXPS then MINPS, which pass NaN
   to -1e8 as it does; sw_ifloor is truncation less one where it rounded up) */
static inline sw_v4 sw_sample_rgba8_uv(const uint8_t *px, int w, int h, bool linear, sw_v4 uv,
                                       sw_v4 size, xgd_texture_address_mode au,
                                       xgd_texture_address_mode av)
{
    __m128 f = _mm_mul_ps(uv, size);
    if (linear) f = _mm_sub_ps(f, _mm_set1_ps(0.5f));
    f = _mm_min_ps(_mm_max_ps(f, _mm_set1_ps(-1.0e8f)), _mm_set1_ps(1.0e8f));
    __m128i i = _mm_cvttps_epi32(f);
    i = _mm_add_epi32(i, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), f)));
    int x0 = _mm_cvtsi128_si32(i), y0 = _mm_cvtsi128_si32(_mm_shuffle_epi32(i, _MM_SHUFFLE(1, 1, 1, 1)));
    if (!linear) {
        if (x0 < 0 || x0 >= w) x0 = sw_address(x0, w, au);
        if (y0 < 0 || y0 >= h) y0 = sw_address(y0, h, av);
        return sw_v4_unorm8(px + ((size_t)y0 * (size_t)w + (size_t)x0) * 4);
    }
    __m128 fr = _mm_sub_ps(f, _mm_cvtepi32_ps(i)); /* (ax, ay) */
    int xa, xb, ya, yb;
    if (x0 >= 0 && x0 + 1 < w) {
        xa = x0;
        xb = x0 + 1;
    } else {
        xa = sw_address(x0, w, au);
        xb = sw_address(x0 + 1, w, au);
    }
    if (y0 >= 0 && y0 + 1 < h) {
        ya = y0;
        yb = y0 + 1;
    } else {
        ya = sw_address(y0, h, av);
        yb = sw_address(y0 + 1, h, av);
    }
    const uint8_t *ra = px + (size_t)ya * (size_t)w * 4, *rb = px + (size_t)yb * (size_t)w * 4;
    if ((_mm_movemask_ps(_mm_cmpeq_ps(fr, _mm_setzero_ps())) & 3) == 3)
        return sw_v4_unorm8(ra + (size_t)xa * 4);
    /* (1 - ax, ax, 1 - ax, ax) * (1 - ay, 1 - ay, ay, ay) = (w00, w10, w01, w11) */
    __m128 t = _mm_unpacklo_ps(_mm_sub_ps(_mm_set1_ps(1.0f), fr), fr);
    __m128 wt = _mm_mul_ps(_mm_shuffle_ps(t, t, _MM_SHUFFLE(1, 0, 1, 0)),
                           _mm_shuffle_ps(t, t, _MM_SHUFFLE(3, 3, 2, 2)));
    sw_v4 o = _mm_mul_ps(sw_v4_unorm8(ra + (size_t)xa * 4), _mm_shuffle_ps(wt, wt, 0x00));
    o = _mm_add_ps(o, _mm_mul_ps(sw_v4_unorm8(ra + (size_t)xb * 4), _mm_shuffle_ps(wt, wt, 0x55)));
    o = _mm_add_ps(o, _mm_mul_ps(sw_v4_unorm8(rb + (size_t)xa * 4), _mm_shuffle_ps(wt, wt, 0xaa)));
    return _mm_add_ps(o, _mm_mul_ps(sw_v4_unorm8(rb + (size_t)xb * 4), _mm_shuffle_ps(wt, wt, 0xff)));
}
#endif

#if SW_SIMD
/*
 * Four pixels of a row at once (SSE2 builds): the same IEEE operations as sw_mod_rows's
 * per-pixel loop, each on four lanes that hold four pixels (one vector per channel instead of
 * one per pixel). The edge values are doubles stepped by exact additions (the caller checks
 * that every value of the row is an integer below 2^52, so the sum is the int64 value
 * converted, as the per-pixel loop does); a lane whose sample is one texel (point filter, or
 * linear weights (1, 0, 0, 0): sw_sample_rgba8_uv's early return, and in-range coordinates,
 * which every address mode maps to themselves) is fetched from the texel index at once, any
 * other lane by sw_sample_rgba8_uv itself. n (2..4) lanes are written; lanes past n repeat
 * lane 0 (valid coordinates, nothing stored). The four destination pixels are read before any
 * is written, which the caller allows only when the texture's texels are not the target's.
 */
typedef struct sw_mod4 {
    __m128 uv[3][2];           /* splats of each vertex's u and v */
    __m128 col[3][4];          /* splats of each vertex's colour channels */
    bool one_col;              /* all twelve colour values are the same float (bits) */
    bool white;                /* and that value is 1: sw_blend4_white where every lane is one
                                  texel */
    __m128 size[2];            /* splats of the image's width and height as floats */
    __m128 size_uv;            /* (width, height, 1, 1) for sw_sample_rgba8_uv */
    __m128 uv1[3], col1[3];    /* one pixel's form (sw_mod1_px): (u, v, 0, 0), the colour */
    const uint8_t *texels;
    int tw, th;
    bool linear;
    xgd_texture_address_mode au, av;
    double inv_area;
} sw_mod4;

#if defined(__GNUC__) || defined(__clang__)
#define SW_INLINE inline __attribute__((always_inline))
#else
#define SW_INLINE inline
#endif

/* the four bytes of each lane's 32-bit word as floats b / 255, channel by channel */
static SW_INLINE void sw_mod4_unorm8(__m128i px, __m128 out[4])
{
    const __m128i ff = _mm_set1_epi32(0xff);
    const __m128 k = _mm_set1_ps(255.0f);
    out[0] = _mm_div_ps(_mm_cvtepi32_ps(_mm_and_si128(px, ff)), k);
    out[1] = _mm_div_ps(_mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(px, 8), ff)), k);
    out[2] = _mm_div_ps(_mm_cvtepi32_ps(_mm_and_si128(_mm_srli_epi32(px, 16), ff)), k);
    out[3] = _mm_div_ps(_mm_cvtepi32_ps(_mm_srli_epi32(px, 24)), k);
}

static SW_INLINE uint32_t sw_ld32(const uint8_t *p)
{
    uint32_t w;
    memcpy(&w, p, 4);
    return w;
}

static SW_INLINE void sw_st32(uint8_t *p, uint32_t w) { memcpy(p, &w, 4); }

/* the modulate factor of one channel: ((w0 c0 + w1 c1) + w2 c2) */
static SW_INLINE __m128 sw_mod4_factor(const sw_mod4 *m, const __m128 w[3], int k)
{
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(w[0], m->col[0][k]), _mm_mul_ps(w[1], m->col[1][k])),
                      _mm_mul_ps(w[2], m->col[2][k]));
}

/* sw_mod_rows's pixel for n lanes from q: a1, a2 the edge values of lanes 0, 1 and b1, b2
   those of lanes 2, 3 (edge 1, edge 2) */
static SW_INLINE void sw_mod4_px(const sw_mod4 *m, uint8_t *q, int n, __m128d a1, __m128d b1,
                                 __m128d a2, __m128d b2)
{
    const __m128d ia = _mm_set1_pd(m->inv_area), one = _mm_set1_pd(1.0);
    __m128 w[3];
    {
        __m128d l0a = _mm_mul_pd(a1, ia), l0b = _mm_mul_pd(b1, ia);
        __m128d l1a = _mm_mul_pd(a2, ia), l1b = _mm_mul_pd(b2, ia);
        __m128d l2a = _mm_sub_pd(_mm_sub_pd(one, l0a), l1a);
        __m128d l2b = _mm_sub_pd(_mm_sub_pd(one, l0b), l1b);
        w[0] = _mm_movelh_ps(_mm_cvtpd_ps(l0a), _mm_cvtpd_ps(l0b));
        w[1] = _mm_movelh_ps(_mm_cvtpd_ps(l1a), _mm_cvtpd_ps(l1b));
        w[2] = _mm_movelh_ps(_mm_cvtpd_ps(l2a), _mm_cvtpd_ps(l2b));
    }
    /* coordinates, then sw_sample_rgba8_uv's steps on each axis */
    __m128 u = _mm_add_ps(_mm_add_ps(_mm_mul_ps(w[0], m->uv[0][0]), _mm_mul_ps(w[1], m->uv[1][0])),
                          _mm_mul_ps(w[2], m->uv[2][0]));
    __m128 v = _mm_add_ps(_mm_add_ps(_mm_mul_ps(w[0], m->uv[0][1]), _mm_mul_ps(w[1], m->uv[1][1])),
                          _mm_mul_ps(w[2], m->uv[2][1]));
    __m128 fx = _mm_mul_ps(u, m->size[0]), fy = _mm_mul_ps(v, m->size[1]);
    if (m->linear) {
        fx = _mm_sub_ps(fx, _mm_set1_ps(0.5f));
        fy = _mm_sub_ps(fy, _mm_set1_ps(0.5f));
    }
    fx = _mm_min_ps(_mm_max_ps(fx, _mm_set1_ps(-1.0e8f)), _mm_set1_ps(1.0e8f));
    fy = _mm_min_ps(_mm_max_ps(fy, _mm_set1_ps(-1.0e8f)), _mm_set1_ps(1.0e8f));
    __m128i ix = _mm_cvttps_epi32(fx), iy = _mm_cvttps_epi32(fy);
    ix = _mm_add_epi32(ix, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(ix), fx)));
    iy = _mm_add_epi32(iy, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(iy), fy)));
    const __m128 flx = _mm_cvtepi32_ps(ix), fly = _mm_cvtepi32_ps(iy);
    /* one texel: 0 <= x < width and 0 <= y < height, which for the floor of a finite f is
       0 <= f < size (and no fraction when linear: f equal to its floor) */
    __m128 hit = _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(fx, _mm_setzero_ps()), _mm_cmplt_ps(fx, m->size[0])),
                            _mm_and_ps(_mm_cmpge_ps(fy, _mm_setzero_ps()), _mm_cmplt_ps(fy, m->size[1])));
    if (m->linear) hit = _mm_and_ps(hit, _mm_and_ps(_mm_cmpeq_ps(fx, flx), _mm_cmpeq_ps(fy, fly)));
    int fast = _mm_movemask_ps(hit);
    /* texel index y * width + x of the one-texel lanes (0 in the others): exact in float, as
       it is below width * height <= 2^24 (sw_mod_rows checks) */
    __m128i idx = _mm_and_si128(_mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(fly, m->size[0]), flx)),
                                _mm_castps_si128(hit));
    const uint8_t *tx = m->texels;
    __m128i g0 = _mm_cvtsi32_si128((int)sw_ld32(tx + (size_t)(uint32_t)_mm_cvtsi128_si32(idx) * 4));
    __m128i g1 = _mm_cvtsi32_si128((int)sw_ld32(
        tx + (size_t)(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, _MM_SHUFFLE(1, 1, 1, 1))) * 4));
    __m128i g2 = _mm_cvtsi32_si128((int)sw_ld32(
        tx + (size_t)(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, _MM_SHUFFLE(2, 2, 2, 2))) * 4));
    __m128i g3 = _mm_cvtsi32_si128((int)sw_ld32(
        tx + (size_t)(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, _MM_SHUFFLE(3, 3, 3, 3))) * 4));
    const __m128i texels = _mm_unpacklo_epi64(_mm_unpacklo_epi32(g0, g1), _mm_unpacklo_epi32(g2, g3));
    const bool all_fast = (fast & ((1 << n) - 1)) == (1 << n) - 1; /* lanes 0..n-1 */
    __m128i dpx;
    if (n == 4) {
        dpx = _mm_loadu_si128((const __m128i *)(const void *)q);
    } else {
        dpx = _mm_cvtsi32_si128((int)sw_ld32(q));
        if (n >= 2) dpx = _mm_unpacklo_epi32(dpx, _mm_cvtsi32_si128((int)sw_ld32(q + 4)));
        if (n == 3) dpx = _mm_unpacklo_epi64(dpx, _mm_cvtsi32_si128((int)sw_ld32(q + 8)));
    }
    __m128i out;
    if (m->white && all_fast) {
        /* a white tint on one texel a lane: the same bytes in integers (sw_blend4_white;
           the modulate factor is w0 + w1 + w2 within a few ulps of 1) */
        out = sw_blend4_white(texels, dpx);
        goto store;
    }
    __m128 t[4];
    sw_mod4_unorm8(texels, t);
    if (!all_fast) {
        float tf[4][4], uf[4], vf[4];
        for (int k = 0; k < 4; k++) _mm_storeu_ps(tf[k], t[k]);
        _mm_storeu_ps(uf, u);
        _mm_storeu_ps(vf, v);
        for (int l = 0; l < n; l++) {
            if (fast >> l & 1) continue;
            float s[4];
            _mm_storeu_ps(s, sw_sample_rgba8_uv(m->texels, m->tw, m->th, m->linear,
                                                _mm_setr_ps(uf[l], vf[l], 0.0f, 0.0f), m->size_uv,
                                                m->au, m->av));
            for (int k = 0; k < 4; k++) tf[k][l] = s[k];
        }
        for (int k = 0; k < 4; k++) t[k] = _mm_loadu_ps(tf[k]);
    }
    /* modulate (sw_v4_sat of the product), then premultiplied AlphaBlend over the target */
    __m128 f0, f1, f2, f3;
    if (m->one_col) {
        f0 = f1 = f2 = f3 = sw_mod4_factor(m, w, 0);
    } else {
        f0 = sw_mod4_factor(m, w, 0);
        f1 = sw_mod4_factor(m, w, 1);
        f2 = sw_mod4_factor(m, w, 2);
        f3 = sw_mod4_factor(m, w, 3);
    }
    const __m128 zero = _mm_setzero_ps(), onef = _mm_set1_ps(1.0f);
    __m128 s0 = _mm_min_ps(_mm_max_ps(_mm_mul_ps(t[0], f0), zero), onef);
    __m128 s1 = _mm_min_ps(_mm_max_ps(_mm_mul_ps(t[1], f1), zero), onef);
    __m128 s2 = _mm_min_ps(_mm_max_ps(_mm_mul_ps(t[2], f2), zero), onef);
    __m128 s3 = _mm_min_ps(_mm_max_ps(_mm_mul_ps(t[3], f3), zero), onef);
    __m128 d[4];
    sw_mod4_unorm8(dpx, d);
    const __m128 oma = _mm_sub_ps(onef, s3);
    const __m128 k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
#define SW_MOD4_OUT(s, dk)                                                                       \
    _mm_cvttps_epi32(_mm_add_ps(                                                                 \
        _mm_mul_ps(_mm_min_ps(_mm_max_ps(_mm_add_ps(s, _mm_mul_ps(dk, oma)), zero), onef), k255), \
        half))
    out = _mm_or_si128(_mm_or_si128(SW_MOD4_OUT(s0, d[0]), _mm_slli_epi32(SW_MOD4_OUT(s1, d[1]), 8)),
                       _mm_or_si128(_mm_slli_epi32(SW_MOD4_OUT(s2, d[2]), 16),
                                    _mm_slli_epi32(SW_MOD4_OUT(s3, d[3]), 24)));
#undef SW_MOD4_OUT
store:
    if (n == 4) {
        _mm_storeu_si128((__m128i *)(void *)q, out);
    } else {
        sw_st32(q, (uint32_t)_mm_cvtsi128_si32(out));
        if (n >= 2) sw_st32(q + 4, (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(out, _MM_SHUFFLE(1, 1, 1, 1))));
        if (n == 3) sw_st32(q + 8, (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(out, _MM_SHUFFLE(2, 2, 2, 2))));
    }
}

/* sw_mod_rows's per-pixel loop body for the pixel at q: a row's last pixel when it is alone
   (cheaper so than as a group of four with three lanes repeated) */
static SW_INLINE void sw_mod1_px(const sw_mod4 *m, uint8_t *q, double e1, double e2)
{
    double l0 = e1 * m->inv_area, l1 = e2 * m->inv_area;
    double l2 = 1.0 - l0 - l1;
    const sw_v4 sw0 = sw_v4_splat((float)l0), sw1 = sw_v4_splat((float)l1);
    const sw_v4 sw2 = sw_v4_splat((float)l2);
    sw_v4 uv = sw_v4_add(sw_v4_add(sw_v4_mul(sw0, m->uv1[0]), sw_v4_mul(sw1, m->uv1[1])),
                         sw_v4_mul(sw2, m->uv1[2]));
    sw_v4 t = sw_sample_rgba8_uv(m->texels, m->tw, m->th, m->linear, uv, m->size_uv, m->au, m->av);
    sw_v4 f = sw_v4_add(sw_v4_add(sw_v4_mul(sw0, m->col1[0]), sw_v4_mul(sw1, m->col1[1])),
                        sw_v4_mul(sw2, m->col1[2]));
    sw_v4 sc = sw_v4_sat(sw_v4_mul(t, f));
    sw_v4 out = sw_v4_add(sc, sw_v4_mul(sw_v4_unorm8(q), sw_v4_one_minus_w(sc)));
    sw_v4_store_unorm8(q, out);
}

/* A row of len pixels from q, e1 and e2 the edge values of its first pixel, s1 and s2 their
   steps (exact doubles, see above) */
static void sw_mod4_row(const sw_mod4 *m, uint8_t *q, int64_t len, double e1, double e2, double s1,
                        double s2)
{
    __m128d a1 = _mm_setr_pd(e1, e1 + s1), b1 = _mm_setr_pd(e1 + 2.0 * s1, e1 + 3.0 * s1);
    __m128d a2 = _mm_setr_pd(e2, e2 + s2), b2 = _mm_setr_pd(e2 + 2.0 * s2, e2 + 3.0 * s2);
    const __m128d st1 = _mm_set1_pd(4.0 * s1), st2 = _mm_set1_pd(4.0 * s2);
    for (; len >= 4; len -= 4, q += 16) {
        sw_mod4_px(m, q, 4, a1, b1, a2, b2);
        a1 = _mm_add_pd(a1, st1);
        b1 = _mm_add_pd(b1, st1);
        a2 = _mm_add_pd(a2, st2);
        b2 = _mm_add_pd(b2, st2);
    }
    if (len == 0) return;
    if (len == 1) {
        sw_mod1_px(m, q, _mm_cvtsd_f64(a1), _mm_cvtsd_f64(a2));
        return;
    }
    /* lanes past the row's end repeat lane 0 */
    if (len == 2) {
        b1 = _mm_unpacklo_pd(a1, a1);
        b2 = _mm_unpacklo_pd(a2, a2);
    } else {
        b1 = _mm_unpacklo_pd(b1, a1);
        b2 = _mm_unpacklo_pd(b2, a2);
    }
    sw_mod4_px(m, q, (int)len, a1, b1, a2, b2);
}

static inline int64_t sw_abs64(int64_t v) { return v < 0 ? -v : v; }
#endif

/* The triangle's pixels for sw_ctx.mod_rows (see above) */
static void sw_mod_rows(const sw_ctx *c, const sw_screen_vertex *const v[3], const int64_t A[3],
                        const int64_t B[3], const int64_t bias[3], double inv_area, int64_t px0,
                        int64_t px1, int64_t py0, int64_t py1)
{
    const float *a0 = v[0]->a, *a1 = v[1]->a, *a2 = v[2]->a;
    int u = c->mod_uv;
    const sw_v4 c0 = sw_v4_load(a0 + c->mod_col), c1 = sw_v4_load(a1 + c->mod_col);
    const sw_v4 c2 = sw_v4_load(a2 + c->mod_col);
#if SW_SIMD
    /* (u, v) of each vertex in elements 0 and 1 */
    const sw_v4 uv0 = _mm_setr_ps(a0[u], a0[u + 1], 0.0f, 0.0f);
    const sw_v4 uv1 = _mm_setr_ps(a1[u], a1[u + 1], 0.0f, 0.0f);
    const sw_v4 uv2 = _mm_setr_ps(a2[u], a2[u + 1], 0.0f, 0.0f);
    const sw_v4 size = _mm_setr_ps((float)c->mod_image->width, (float)c->mod_image->height, 1.0f, 1.0f);
#else
    const float u0 = a0[u], u1 = a1[u], u2 = a2[u];
    const float v0 = a0[u + 1], v1 = a1[u + 1], v2 = a2[u + 1];
#endif
    const sw_image *img = c->mod_image;
#if SW_SIMD
    const uint8_t *const texels = img->rgba8;
    const int tw = img->width, th = img->height;
#endif
    const bool linear = c->mod_linear;
    const xgd_texture_address_mode au = c->mod_samp->desc->address_u;
    const xgd_texture_address_mode av = c->mod_samp->desc->address_v;
    const int64_t s1 = A[1] * 256, s2 = A[2] * 256;
#if SW_SIMD
    /* (set up whether or not it is used: one per triangle) */
    sw_mod4 m4;
    {
        for (int i = 0; i < 3; i++) {
            const float *a = v[i]->a;
            m4.uv[i][0] = _mm_set1_ps(a[u]);
            m4.uv[i][1] = _mm_set1_ps(a[u + 1]);
            m4.uv1[i] = _mm_setr_ps(a[u], a[u + 1], 0.0f, 0.0f);
            m4.col1[i] = sw_v4_load(a + c->mod_col);
            for (int k = 0; k < 4; k++) m4.col[i][k] = _mm_set1_ps(a[c->mod_col + k]);
        }
        /* the bits of the twelve values: each vertex's colour the first's, whose four
           channels are its red's */
        uint32_t cb[4];
        memcpy(cb, a0 + c->mod_col, sizeof cb);
        m4.one_col = cb[1] == cb[0] && cb[2] == cb[0] && cb[3] == cb[0] &&
                     memcmp(a1 + c->mod_col, cb, sizeof cb) == 0 &&
                     memcmp(a2 + c->mod_col, cb, sizeof cb) == 0;
        m4.white = m4.one_col && cb[0] == 0x3f800000u; /* 1.0f */
        m4.size[0] = _mm_set1_ps((float)tw);
        m4.size[1] = _mm_set1_ps((float)th);
        m4.size_uv = size;
        m4.texels = texels;
        m4.tw = tw;
        m4.th = th;
        m4.linear = linear;
        m4.au = au;
        m4.av = av;
        m4.inv_area = inv_area;
    }
    const double ds1 = (double)s1, ds2 = (double)s2;
#endif
    /* Each row's covered columns [px0 + klo, px0 + khi] are those where every edge's value
       (sw_raster_triangle's edge functions with the fill rule's bias, single coverage) is >= 0.
       An edge's value at (px0, y) grows by B * 256 a row; an edge with B == 0 (vertical)
       bounds every row's columns alike and one with A == 0 (horizontal) the rows, so their
       divisions are done once; only sloped edges bound each row anew (below). */
    const int64_t Px0 = px0 * 256 + 128, Py0 = py0 * 256 + 128;
    int64_t te[3], klo_fix = 0, khi_fix = px1 - px0, ylo = py0, yhi = py1;
    int dyn[3], ndyn = 0;
    for (int i = 0; i < 3; i++) {
        int64_t step = A[i] * 256, rstep = B[i] * 256;
        te[i] = A[i] * (Px0 - v[i]->X) + B[i] * (Py0 - v[i]->Y) - bias[i];
        if (step != 0 && rstep != 0) {
            dyn[ndyn++] = i;
        } else if (step > 0) {
            int64_t k = sw_ceil_div(-te[i], step);
            if (k > klo_fix) klo_fix = k;
        } else if (step < 0) {
            int64_t k = sw_floor_div(te[i], -step);
            if (k < khi_fix) khi_fix = k;
        } else if (rstep > 0) {
            int64_t k = py0 + sw_ceil_div(-te[i], rstep);
            if (k > ylo) ylo = k;
        } else if (rstep < 0) {
            int64_t k = py0 + sw_floor_div(te[i], -rstep);
            if (k < yhi) yhi = k;
        } else if (te[i] < 0) {
            yhi = ylo - 1;
        }
    }
    /* the edge values sw_raster_triangle gives each pixel (l0 from edge 1, l1 from edge 2) at
       (px0, py0), and their steps a row */
    const int64_t E1 = A[1] * (Px0 - v[1]->X) + B[1] * (Py0 - v[1]->Y);
    const int64_t E2 = A[2] * (Px0 - v[2]->X) + B[2] * (Py0 - v[2]->Y);
    const int64_t r1 = B[1] * 256, r2 = B[2] * 256;
#if SW_SIMD
    /* four at a time where every edge value of the box (and up to four pixels past its right
       end, where a row's last step lands) is below 2^52 in magnitude, so the doubles stepped
       by exact additions are the int64 values converted; the extremes are at its corners */
    bool four = c->mod_rows4 && (int64_t)tw * th <= (int64_t)1 << 24;
    const int64_t exact = (int64_t)1 << 52;
    for (int k = 0; k < 4 && four; k++) {
        int64_t dx = k & 1 ? px1 + 4 - px0 : 0, dy = k & 2 ? py1 - py0 : 0;
        if (sw_abs64(E1 + dx * s1 + dy * r1) >= exact || sw_abs64(E2 + dx * s2 + dy * r2) >= exact)
            four = false;
    }
#endif
    /* a sloped edge's bound from row ylo on without a division a row: its sw_ceil_div(-t0,
       step) (step > 0) or sw_floor_div(t0, -step) (step < 0) is floor(n / d) (plus one for the
       ceiling when the remainder is not 0) with n = -t0 or t0 and d = |step|, kept as quotient
       and remainder (0 <= rem < d) and stepped by those of n's change a row */
    int64_t quo[3], rem[3], dquo[3], drem[3], den[3];
    bool pos[3];
    for (int j = 0; j < ndyn; j++) {
        int i = dyn[j];
        int64_t step = A[i] * 256, rstep = B[i] * 256;
        int64_t t0 = te[i] + (ylo - py0) * rstep;
        pos[j] = step > 0;
        den[j] = pos[j] ? step : -step;
        int64_t n = pos[j] ? -t0 : t0, dn = pos[j] ? -rstep : rstep;
        quo[j] = sw_floor_div(n, den[j]);
        rem[j] = n - quo[j] * den[j];
        dquo[j] = sw_floor_div(dn, den[j]);
        drem[j] = dn - dquo[j] * den[j];
    }
    for (int64_t y = ylo; y <= yhi; y++) {
        const int64_t dy = y - py0;
        int64_t klo = klo_fix, khi = khi_fix;
        for (int j = 0; j < ndyn; j++) {
            int64_t qj = quo[j], rj = rem[j];
            if (pos[j]) {
                int64_t k = qj + (rj != 0);
                if (k > klo) klo = k;
            } else if (qj < khi) {
                khi = qj;
            }
            qj += dquo[j];
            rj += drem[j];
            if (rj >= den[j]) {
                rj -= den[j];
                qj++;
            }
            quo[j] = qj;
            rem[j] = rj;
        }
        if (klo > khi) continue;
        const int64_t x0 = px0 + klo, x1 = px0 + khi;
        int64_t e1 = E1 + dy * r1 + klo * s1;
        int64_t e2 = E2 + dy * r2 + klo * s2;
        uint8_t *q = c->rt[0].base + ((size_t)y * (size_t)c->width + (size_t)x0) * 4;
#if SW_SIMD
        if (four) {
            sw_mod4_row(&m4, q, x1 - x0 + 1, (double)e1, (double)e2, ds1, ds2);
            continue;
        }
#endif
        for (int64_t x = x0; x <= x1; x++, e1 += s1, e2 += s2, q += 4) {
            double l0 = (double)e1 * inv_area, l1 = (double)e2 * inv_area;
            double l2 = 1.0 - l0 - l1;
            float w0 = (float)l0, w1 = (float)l1, w2 = (float)l2;
            const sw_v4 sw0 = sw_v4_splat(w0), sw1 = sw_v4_splat(w1), sw2 = sw_v4_splat(w2);
#if SW_SIMD
            sw_v4 uv = sw_v4_add(sw_v4_add(sw_v4_mul(sw0, uv0), sw_v4_mul(sw1, uv1)),
                                 sw_v4_mul(sw2, uv2));
            sw_v4 t = sw_sample_rgba8_uv(texels, tw, th, linear, uv, size, au, av);
#else
            float uu = w0 * u0 + w1 * u1 + w2 * u2;
            float vv = w0 * v0 + w1 * v1 + w2 * v2;
            sw_v4 t = sw_sample_rgba8(img, linear, uu, vv, au, av);
#endif
            sw_v4 f = sw_v4_add(sw_v4_add(sw_v4_mul(sw0, c0), sw_v4_mul(sw1, c1)),
                                sw_v4_mul(sw2, c2));
            /* the product in either operand order is the same number (a NaN clamps to 0) */
            sw_v4 sc = sw_v4_sat(sw_v4_mul(t, f));
            sw_v4 out = sw_v4_add(sc, sw_v4_mul(sw_v4_unorm8(q), sw_v4_one_minus_w(sc)));
            sw_v4_store_unorm8(q, out);
        }
    }
}

/* ---- triangles ---- */

/* A triangle: edge functions with the top-left fill rule, depth and perspective-correct
   interpolation, visited in aligned 2x2 quads so the pixel shader runs on whole quads (lanes
   without coverage are helpers). */
static void sw_raster_triangle(sw_ctx *c, const sw_screen_vertex *in0,
                               const sw_screen_vertex *in1, const sw_screen_vertex *in2)
{
    const sw_screen_vertex *v[3] = { in0, in1, in2 };
    int64_t area = (v[1]->X - v[0]->X) * (v[2]->Y - v[0]->Y) -
                   (v[2]->X - v[0]->X) * (v[1]->Y - v[0]->Y);
    if (area == 0) return;
    c->front = area > 0;
    if (c->cull == XGD_CULL_COUNTER_CLOCKWISE_FACE && !c->front) return;
    if (c->cull == XGD_CULL_CLOCKWISE_FACE && c->front) return;
    if (area < 0) {
        const sw_screen_vertex *t = v[1];
        v[1] = v[2];
        v[2] = t;
        area = -area;
    }
    int64_t A[3], B[3], bias[3];
    for (int i = 0; i < 3; i++) {
        const sw_screen_vertex *a = v[i], *b = v[(i + 1) % 3];
        int64_t dx = b->X - a->X, dy = b->Y - a->Y;
        A[i] = -dy;
        B[i] = dx;
        bool top_left = dy < 0 || (dy == 0 && dx > 0);
        bias[i] = top_left ? 0 : 1;
    }
    int64_t minX = v[0]->X, maxX = v[0]->X, minY = v[0]->Y, maxY = v[0]->Y;
    for (int i = 1; i < 3; i++) {
        if (v[i]->X < minX) minX = v[i]->X;
        if (v[i]->X > maxX) maxX = v[i]->X;
        if (v[i]->Y < minY) minY = v[i]->Y;
        if (v[i]->Y > maxY) maxY = v[i]->Y;
    }
    int64_t px0 = sw_floor_div256(minX) - 1, px1 = sw_floor_div256(maxX) + 1;
    int64_t py0 = sw_floor_div256(minY) - 1, py1 = sw_floor_div256(maxY) + 1;
    if (px0 < c->cx0) px0 = c->cx0;
    if (py0 < c->cy0) py0 = c->cy0;
    if (px1 > c->cx1 - 1) px1 = c->cx1 - 1;
    if (py1 > c->cy1 - 1) py1 = c->cy1 - 1;
    if (px0 > px1 || py0 > py1) return;

    double inv_area = 1.0 / (double)area;
    bool affine = v[0]->iw == v[1]->iw && v[1]->iw == v[2]->iw;
    if (c->mod_rows && affine) {
        sw_mod_rows(c, v, A, B, bias, inv_area, px0, px1, py0, py1);
        return;
    }
    double dldx[3], dldy[3];
    for (int i = 0; i < 3; i++) {
        int j = (i + 2) % 3;
        dldx[j] = (double)A[i] * 256.0 * inv_area;
        dldy[j] = (double)B[i] * 256.0 * inv_area;
    }
    double dzdx = dldx[0] * v[0]->z + dldx[1] * v[1]->z + dldx[2] * v[2]->z;
    double dzdy = dldy[0] * v[0]->z + dldy[1] * v[1]->z + dldy[2] * v[2]->z;
    double slope = fabs(dzdx) > fabs(dzdy) ? fabs(dzdx) : fabs(dzdy);
    c->prim_bias = (double)c->depth_bias + (double)c->slope_bias * slope;

    int64_t eoff[3][SW_MAX_SAMPLES];
    double zoffs[SW_MAX_SAMPLES];
    int ns = c->samples;
    for (int s = 0; s < ns; s++) {
        int ox = c->single_coverage ? 0 : c->spos[s][0] * 16;
        int oy = c->single_coverage ? 0 : c->spos[s][1] * 16;
        for (int i = 0; i < 3; i++) eoff[i][s] = A[i] * ox + B[i] * oy - bias[i];
        zoffs[s] = (dzdx * ox + dzdy * oy) / 256.0;
    }
    /* per edge, an offset at least as large as any sample's (exact for single coverage): a
       row's span from it holds every pixel with a covered sample */
    int64_t span_off[3] = { -bias[0], -bias[1], -bias[2] };
    for (int s = 0; s < ns; s++)
        for (int i = 0; i < 3; i++)
            if (eoff[i][s] > span_off[i]) span_off[i] = eoff[i][s];
    const float *a0 = v[0]->a, *a1 = v[1]->a, *a2 = v[2]->a;
    double zs[4][SW_MAX_SAMPLES];
    /* sample depths are read by the depth and stencil tests only (the shader's FragCoord.z
       is the centre's) */
    bool need_z = c->depth_test || c->stencil_on || !c->mod;
    /* edge functions of a quad's lanes from lane 0's: E(x + 1, y) = E + 256 A,
       E(x, y + 1) = E + 256 B, exactly */
    int64_t lane_step[4][3];
    for (int l = 0; l < 4; l++)
        for (int i = 0; i < 3; i++)
            lane_step[l][i] = (l & 1 ? A[i] * 256 : 0) + (l >> 1 ? B[i] * 256 : 0);
    /* quads are aligned to even pixel coordinates (px0, py0 >= 0 here); a row of quads visits
       those its two rows' spans touch (the others have no coverage) */
    for (int64_t qy = py0 & ~(int64_t)1; qy <= py1; qy += 2) {
        int64_t xlo = px1 + 1, xhi = px0 - 1;
        for (int64_t y = qy; y <= qy + 1; y++) {
            if (y < py0 || y > py1) continue;
            int64_t Py = y * 256 + 128, Px = px0 * 256 + 128;
            int64_t klo = 0, khi = px1 - px0;
            for (int i = 0; i < 3 && klo <= khi; i++) {
                int64_t step = A[i] * 256;
                int64_t t0 = A[i] * (Px - v[i]->X) + B[i] * (Py - v[i]->Y) + span_off[i];
                if (step > 0) {
                    int64_t k = sw_ceil_div(-t0, step);
                    if (k > klo) klo = k;
                } else if (step < 0) {
                    int64_t k = sw_floor_div(t0, -step);
                    if (k < khi) khi = k;
                } else if (t0 < 0) {
                    klo = khi + 1;
                }
            }
            if (klo > khi) continue;
            if (px0 + klo < xlo) xlo = px0 + klo;
            if (px0 + khi > xhi) xhi = px0 + khi;
        }
        if (xlo > xhi) continue;
        for (int64_t qx = xlo & ~(int64_t)1; qx <= xhi; qx += 2) {
            unsigned cov[4];
            double e[4][3];
            unsigned any = 0;
            int64_t e00[3];
            for (int i = 0; i < 3; i++)
                e00[i] = A[i] * (qx * 256 + 128 - v[i]->X) + B[i] * (qy * 256 + 128 - v[i]->Y);
            for (int l = 0; l < 4; l++) {
                int64_t x = qx + (l & 1), y = qy + (l >> 1);
                int64_t ei[3];
                for (int i = 0; i < 3; i++) {
                    ei[i] = e00[i] + lane_step[l][i];
                    e[l][i] = (double)ei[i];
                }
                unsigned mask = 0;
                if (x >= px0 && x <= px1 && y >= py0 && y <= py1) {
                    for (int s = 0; s < ns; s++)
                        if (ei[0] + eoff[0][s] >= 0 && ei[1] + eoff[1][s] >= 0 && ei[2] + eoff[2][s] >= 0)
                            mask |= 1u << s;
                    mask &= c->full_mask;
                }
                cov[l] = mask;
                any |= mask;
            }
            if (any == 0) continue;
            float wl[4][3];
            for (int l = 0; l < 4; l++) {
                /* the modulate shape reads no helper lane unless it needs derivatives */
                if (c->mod && cov[l] == 0 && !c->mod_lod) continue;
                double l0 = e[l][1] * inv_area, l1 = e[l][2] * inv_area;
                double l2 = 1.0 - l0 - l1;
                double zc = 0.0;
                if (need_z) {
                    zc = l0 * v[0]->z + l1 * v[1]->z + l2 * v[2]->z;
                    for (int s = 0; s < ns; s++) zs[l][s] = zc + zoffs[s];
                }
                float w0, w1, w2;
                double q;
                if (affine) {
                    w0 = (float)l0;
                    w1 = (float)l1;
                    w2 = (float)l2;
                    q = v[0]->iw;
                } else {
                    double p0 = l0 * v[0]->iw, p1 = l1 * v[1]->iw, p2 = l2 * v[2]->iw;
                    q = p0 + p1 + p2;
                    double iq = q != 0.0 ? 1.0 / q : 0.0;
                    w0 = (float)(p0 * iq);
                    w1 = (float)(p1 * iq);
                    w2 = (float)(p2 * iq);
                }
                if (c->mod) {
                    wl[l][0] = w0;
                    wl[l][1] = w1;
                    wl[l][2] = w2;
                    continue;
                }
                sw_user_lane(c, l, (double)(qx + (l & 1)) + 0.5, (double)(qy + (l >> 1)) + 0.5, zc,
                             q, w0, w1, w2, a0, a1, a2);
            }
            if (c->mod) sw_mod_quad(c, qx, qy, cov, zs, (const float (*)[3])wl, a0, a1, a2);
            else sw_user_quad(c, qx, qy, cov, zs);
        }
    }
}

/* ---- lines ---- */

static void sw_raster_line(sw_ctx *c, const sw_screen_vertex *a, const sw_screen_vertex *b)
{
    double x0 = (double)a->X / 256.0, y0 = (double)a->Y / 256.0;
    double x1 = (double)b->X / 256.0, y1 = (double)b->Y / 256.0;
    double dx = x1 - x0, dy = y1 - y0;
    if (dx == 0.0 && dy == 0.0) return;
    bool xmajor = fabs(dx) >= fabs(dy);
    double s0 = xmajor ? x0 : y0, s1 = xmajor ? x1 : y1;
    double o0 = xmajor ? y0 : x0, dmaj = xmajor ? dx : dy, dmin = xmajor ? dy : dx;
    int64_t i0, i1;
    if (s1 > s0) {
        i0 = (int64_t)ceil(s0 - 0.5);
        i1 = (int64_t)ceil(s1 - 0.5) - 1;
    } else {
        i0 = (int64_t)floor(s1 - 0.5) + 1;
        i1 = (int64_t)floor(s0 - 0.5);
    }
    int64_t lo = xmajor ? c->cx0 : c->cy0, hi = (xmajor ? c->cx1 : c->cy1) - 1;
    if (i0 < lo) i0 = lo;
    if (i1 > hi) i1 = hi;
    c->prim_bias = c->depth_bias;
    for (int64_t i = i0; i <= i1; i++) {
        double cs = (double)i + 0.5;
        double t = (cs - s0) / dmaj;
        double om = o0 + t * dmin;
        int64_t j = (int64_t)floor(om);
        int64_t px = xmajor ? i : j, py = xmajor ? j : i;
        if (px < c->cx0 || px >= c->cx1 || py < c->cy0 || py >= c->cy1) continue;
        double z = a->z + t * (b->z - a->z);
        /* the quad's helper lanes: one pixel on along the major axis the line moves on (its
           parameter advances), one along the minor axis it does not */
        double zq[4][SW_MAX_SAMPLES];
        unsigned cov[4] = { c->full_mask, 0, 0, 0 };
        for (int s = 0; s < c->samples; s++) zq[0][s] = z;
        for (int l = 0; l < 4; l++) {
            double tl = t + (double)(xmajor ? (l & 1) : (l >> 1)) / dmaj;
            double la = (1.0 - tl) * a->iw, lb = tl * b->iw, ql = la + lb;
            float fa = ql != 0.0 ? (float)(la / ql) : 0.0f, fb = ql != 0.0 ? (float)(lb / ql) : 0.0f;
            sw_user_lane(c, l, (double)(px + (l & 1)) + 0.5, (double)(py + (l >> 1)) + 0.5,
                         a->z + tl * (b->z - a->z), ql, fa, fb, 0.0f, a->a, b->a, NULL);
        }
        sw_user_quad(c, px, py, cov, zq);
    }
}

/* ---- clipping ---- */

#define SW_CLIP_PLANES 6
#define SW_CLIP_MAX 12

static inline float sw_plane_dist(const sw_ctx *c, int p, const float *clip)
{
    switch (p) {
    case 0: return clip[2];                      /* z >= 0 */
    case 1: return clip[3] - clip[2];            /* z <= w */
    case 2: return c->gx_hi * clip[3] - clip[0]; /* guard band */
    case 3: return clip[0] - c->gx_lo * clip[3];
    case 4: return c->gy_hi * clip[3] - clip[1];
    default: return clip[1] - c->gy_lo * clip[3];
    }
}

static unsigned sw_outcode(const sw_ctx *c, const sw_vertex *v)
{
    unsigned code = 0;
    for (int p = 0; p < SW_CLIP_PLANES; p++)
        if (!(sw_plane_dist(c, p, v->clip) >= 0.0f)) code |= 1u << p;
    return code;
}

/* A total order on vertices (clip position, then varyings), so that an edge is always
   interpolated from the same endpoint whichever triangle walks it: a + (b - a) * t and
   b + (a - b) * (1 - t) round differently, which would open cracks (or overlaps) along shared
   clipped edges. */
static bool sw_vertex_less(const sw_ctx *c, const sw_vertex *a, const sw_vertex *b)
{
    for (int k = 0; k < 4; k++)
        if (a->clip[k] != b->clip[k]) return a->clip[k] < b->clip[k];
    for (int k = 0; k < c->nvary; k++)
        if (a->v[k] != b->v[k]) return a->v[k] < b->v[k];
    return false;
}

static void sw_lerp_vertex(const sw_ctx *c, const sw_vertex *a, const sw_vertex *b, float t,
                           sw_vertex *o)
{
    for (int k = 0; k < 4; k++) o->clip[k] = a->clip[k] + (b->clip[k] - a->clip[k]) * t;
    for (int k = 0; k < c->nvary; k++) o->v[k] = a->v[k] + (b->v[k] - a->v[k]) * t;
}

static bool sw_to_screen(const sw_ctx *c, const sw_vertex *v, sw_screen_vertex *o)
{
    float w = v->clip[3];
    if (!(w > 0.0f)) return false;
    float iw = 1.0f / w;
    float nx = v->clip[0] * iw, ny = v->clip[1] * iw, nz = v->clip[2] * iw;
    float sx = c->vx + (nx + 1.0f) * c->vhw;
    float sy = c->vy + (1.0f - ny) * c->vhh;
    /* A w so small that 1 / w overflows single precision (a denormal w: hardware that flushes
       denormals sees w = 0) leaves nothing to place: the vertex is inside the clip volume yet
       x / w is inf or NaN. The primitive is dropped rather than snapped from a non-finite value
       (llrint's result would be undefined). Finite positions stay inside the guard band, a
       little over 2^20 pixels from the origin; twice that is still far inside int64 for the edge
       products. */
    if (!isfinite(iw) || !isfinite(sx) || !isfinite(sy) || fabsf(sx) > 2097152.0f ||
        fabsf(sy) > 2097152.0f)
        return false;
    o->X = (int64_t)llrint((double)sx * 256.0);
    o->Y = (int64_t)llrint((double)sy * 256.0);
    o->sx = sx;
    o->sy = sy;
    o->z = (double)c->zmin + (double)nz * ((double)c->zmax - (double)c->zmin);
    o->iw = iw;
    o->a = v->v;
    return true;
}

static void sw_line_edges(sw_ctx *c, const sw_vertex *a, const sw_vertex *b);

/* ---- banded rasterization ---- */

/* A triangle recorded for the bands: its snapped vertices and the rows it may touch. Vertices
   of the draw's own array keep their varyings in place (a_off = SW_NO_OFF); those clipping made
   have theirs copied to clip_vary (their pointers are set once recording ended, since the
   array may move while it grows). */
#define SW_NO_OFF SIZE_MAX
struct sw_rec_tri {
    sw_screen_vertex v[3];
    size_t a_off[3];
    int64_t area;             /* pixels of the bounding box (how much work the draw is) */
};

static bool sw_grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *np = realloc(*p, n * elem);
    if (np == NULL) return false;
    *p = np;
    *cap = n;
    return true;
}

static void sw_record_triangle(sw_ctx *c, const sw_screen_vertex *s0, const sw_screen_vertex *s1,
                               const sw_screen_vertex *s2, bool in_place)
{
    sw_renderer *r = c->r;
    if (c->record_failed) return;
    int64_t minY = s0->Y, maxY = s0->Y, minX = s0->X, maxX = s0->X;
    const sw_screen_vertex *sv[3] = { s0, s1, s2 };
    for (int i = 1; i < 3; i++) {
        if (sv[i]->Y < minY) minY = sv[i]->Y;
        if (sv[i]->Y > maxY) maxY = sv[i]->Y;
        if (sv[i]->X < minX) minX = sv[i]->X;
        if (sv[i]->X > maxX) maxX = sv[i]->X;
    }
    /* the same conservative box sw_raster_triangle starts from */
    int64_t py0 = sw_floor_div256(minY) - 1, py1 = sw_floor_div256(maxY) + 1;
    int64_t px0 = sw_floor_div256(minX) - 1, px1 = sw_floor_div256(maxX) + 1;
    if (py0 < c->cy0) py0 = c->cy0;
    if (py1 > c->cy1 - 1) py1 = c->cy1 - 1;
    if (px0 < c->cx0) px0 = c->cx0;
    if (px1 > c->cx1 - 1) px1 = c->cx1 - 1;
    if (py0 > py1 || px0 > px1) return; /* nothing of it is visited */
    if (!sw_grow_array((void **)&r->tri_rows, &r->tri_rows_capacity, r->tris_count + 1,
                       sizeof *r->tri_rows)) {
        c->record_failed = true;
        return;
    }
    if (c->runs != NULL && !sw_grow_array((void **)&r->tri_run, &r->tri_run_capacity,
                                          r->tris_count + 1, sizeof *r->tri_run)) {
        c->record_failed = true;
        return;
    }
    if (!sw_grow_array((void **)&r->tris, &r->tris_capacity, r->tris_count + 1, sizeof *r->tris) ||
        (!in_place && !sw_grow_array((void **)&r->clip_vary, &r->clip_vary_capacity,
                                     r->clip_vary_count + 3 * (size_t)c->nvary + 3,
                                     sizeof *r->clip_vary))) {
        c->record_failed = true;
        return;
    }
    r->tri_rows[r->tris_count][0] = (int32_t)py0;
    r->tri_rows[r->tris_count][1] = (int32_t)py1;
    if (c->runs != NULL) r->tri_run[r->tris_count] = (uint32_t)c->cur_run;
    sw_rec_tri *t = &r->tris[r->tris_count++];
    for (int i = 0; i < 3; i++) {
        t->v[i] = *sv[i];
        t->a_off[i] = SW_NO_OFF;
        if (!in_place) {
            t->a_off[i] = r->clip_vary_count;
            memcpy(r->clip_vary + r->clip_vary_count, sv[i]->a, (size_t)c->nvary * sizeof(float));
            r->clip_vary_count += (size_t)c->nvary;
            t->v[i].a = NULL;
        }
    }
    t->area = (px1 - px0 + 1) * (py1 - py0 + 1);
}

/* A filled triangle: rasterized now, or recorded for the bands. in_place: the vertices'
   varyings are the draw's own (they stay where they are until it ends). */
static inline void sw_emit_triangle(sw_ctx *c, const sw_screen_vertex *s0,
                                         const sw_screen_vertex *s1, const sw_screen_vertex *s2,
                                         bool in_place)
{
    if (c->record) sw_record_triangle(c, s0, s1, s2, in_place);
    else sw_raster_triangle(c, s0, s1, s2);
}

static void sw_ctx_slot0(sw_ctx *c, const xgdi_native_texture *tex);

typedef struct sw_band_job {
    const sw_ctx *c;
    const sw_rec_tri *tris;
    const int32_t (*rows)[2];
    size_t count;
    int64_t y0, band_h;
    uint64_t *counts;          /* per band: samples the occlusion query counted */
    atomic_uchar *claimed;     /* per band: set by the thread that runs it */
    int bands, threads;
} sw_band_job;

/* A band of a draw: the recorded triangles that touch its rows, with the pixel shader state
   of the worker running it. Bands start on even rows, so each 2x2 quad lies in one band and
   runs once. */
static void sw_band_run(void *arg, int item, int worker)
{
    const sw_band_job *j = arg;
    sw_ctx lc = *j->c;
    lc.ps_state = lc.ps->states[worker];
    lc.ps_R = xgdi_sw_spirv_regs(lc.ps_state);
    int64_t y0 = j->y0 + (int64_t)item * j->band_h, y1 = y0 + j->band_h;
    if (y0 > lc.cy0) lc.cy0 = (int)y0;
    if (y1 < lc.cy1) lc.cy1 = (int)y1;
    uint64_t count = 0;
    if (lc.occlusion != NULL) lc.occlusion = &count;
    /* a draw of quad runs: this band's context follows the runs' textures, and its executor
       state samples through this context's copy (sw_user_setup bound it to the draw's) */
    uint32_t cur = UINT32_MAX;
    if (lc.runs != NULL) xgdi_sw_spirv_bind_sampler(lc.ps_state, xgdi_sw_spirv_sample_textures, &lc.tex);
    for (size_t i = 0; i < j->count; i++) {
        if (j->rows[i][1] < lc.cy0 || j->rows[i][0] >= lc.cy1) continue;
        if (lc.runs != NULL && j->c->r->tri_run[i] != cur) {
            cur = j->c->r->tri_run[i];
            sw_ctx_slot0(&lc, lc.runs[cur].texture);
        }
        const sw_rec_tri *t = &j->tris[i];
        sw_raster_triangle(&lc, &t->v[0], &t->v[1], &t->v[2]);
    }
    /* back to the draw's context, which outlives this band's */
    if (lc.runs != NULL)
        xgdi_sw_spirv_bind_sampler(lc.ps_state, xgdi_sw_spirv_sample_textures,
                                   (xgdi_sw_spirv_textures *)&j->c->tex);
    j->counts[item] = count;
}

/* One thread's share of a draw's bands (the pool's items are the threads): first its own
   block of consecutive bands, the same rows draw after draw, then any band still unclaimed,
   from the last (where another thread's block ends, away from where its owner works). Keeping
   a thread on its rows keeps them in that core's cache: when the pool handed bands out in
   order, a band's rows moved between cores from one draw to the next (sw-mt-bench's 10,000
   16-pixel sprites, 2 cores: 1.25x-1.29x one thread's frame rate with every band taken in
   turn, 1.32x-1.37x with blocks). Which thread draws a band does not change its pixels. */
static void sw_band_worker(void *arg, int item, int worker)
{
    const sw_band_job *j = arg;
    (void)item;
    int per = (j->bands + j->threads - 1) / j->threads;
    int b0 = worker * per, b1 = b0 + per;
    if (b1 > j->bands) b1 = j->bands;
    for (int b = b0; b < b1; b++)
        if (!atomic_exchange(&j->claimed[b], 1)) sw_band_run(arg, b, worker);
    for (int b = j->bands - 1; b >= 0; b--)
        if (!atomic_exchange(&j->claimed[b], 1)) sw_band_run(arg, b, worker);
}

/* bands per thread: several, so that a thread that finished early takes another's */
#define SW_BANDS_PER_THREAD 4
#define SW_MAX_BANDS (SW_MAX_THREADS * SW_BANDS_PER_THREAD)
#define SW_BAND_ROWS 32
/* least band height in mean triangle heights, for small triangles (sw_run_bands) */
#define SW_BAND_SPANS 6

/* Rasterizes the recorded triangles of the draw, in bands over the pool's threads. */
static void sw_run_bands(sw_ctx *c)
{
    sw_renderer *r = c->r;
    int64_t work = 0, spans = 0;
    for (size_t i = 0; i < r->tris_count; i++) {
        sw_rec_tri *t = &r->tris[i];
        for (int k = 0; k < 3; k++)
            if (t->a_off[k] != SW_NO_OFF) t->v[k].a = r->clip_vary + t->a_off[k];
        work += t->area;
        spans += (int64_t)r->tri_rows[i][1] - r->tri_rows[i][0] + 1;
    }
    int64_t rows = (int64_t)c->cy1 - c->cy0;
    int threads = sw_pool_threads(r->pool);
    int64_t bands = (int64_t)threads * SW_BANDS_PER_THREAD;
    if (bands > rows) bands = rows;
    if (work < r->band_min_pixels || bands <= 1) {
        uint32_t cur = UINT32_MAX;
        for (size_t i = 0; i < r->tris_count; i++) {
            if (c->runs != NULL && r->tri_run[i] != cur) {
                cur = r->tri_run[i];
                sw_ctx_slot0(c, c->runs[cur].texture);
            }
            sw_raster_triangle(c, &r->tris[i].v[0], &r->tris[i].v[1], &r->tris[i].v[2]);
        }
        return;
    }
    uint64_t counts[SW_MAX_BANDS];
    sw_band_job job = { .c = c, .tris = r->tris, .rows = (const int32_t (*)[2])r->tri_rows,
                        .count = r->tris_count, .y0 = c->cy0, .counts = counts };
    /* Bands of at most SW_BAND_ROWS rows keep a band's part of the target in the cache while
       its triangles are drawn (a draw's triangles land anywhere); more bands cost one bounding
       box test per triangle per band and the setup of triangles that cross band edges. */
    job.band_h = (rows + bands - 1) / bands;
    if (job.band_h > SW_BAND_ROWS) job.band_h = SW_BAND_ROWS;
    /* A triangle that crosses a band edge is set up and visited by every band it touches,
       which for small triangles is much of their cost: with 16-pixel sprites on 640x360,
       32-row bands set up 1.55 triangles per triangle. Triangles shorter than SW_BAND_ROWS on
       average get bands of SW_BAND_SPANS times their mean height, up to two bands per thread
       (the same scene with blocks, above: 1.32x-1.33x, with these 1.39x-1.43x); taller ones
       cross bands anyway, and the bands' height is what keeps their rows in the cache. */
    int64_t mean_h = r->tris_count > 0 ? spans / (int64_t)r->tris_count : 0;
    if (mean_h < SW_BAND_ROWS) {
        int64_t tall = SW_BAND_SPANS * mean_h, half = (rows + 2 * threads - 1) / (2 * threads);
        if (tall > half) tall = half;
        if (job.band_h < tall) job.band_h = tall;
    }
    if (job.band_h < (rows + SW_MAX_BANDS - 1) / SW_MAX_BANDS)
        job.band_h = (rows + SW_MAX_BANDS - 1) / SW_MAX_BANDS;
    /* pixel shaders run on aligned 2x2 quads: bands of even height from an even row */
    job.y0 = c->cy0 & ~1;
    rows = (int64_t)c->cy1 - job.y0;
    job.band_h += job.band_h & 1;
    if (job.band_h < 2) job.band_h = 2;
    while ((rows + job.band_h - 1) / job.band_h > SW_MAX_BANDS) job.band_h += 2;
    bands = (rows + job.band_h - 1) / job.band_h;
    if (mean_h < SW_BAND_ROWS) {
        /* small triangles: each thread on its own rows (sw_band_worker) */
        atomic_uchar claimed[SW_MAX_BANDS];
        for (int64_t b = 0; b < bands; b++) atomic_init(&claimed[b], 0);
        job.claimed = claimed;
        job.bands = (int)bands;
        job.threads = threads;
        sw_pool_run(r->pool, threads, sw_band_worker, &job);
    } else {
        /* taller ones: bands in turn, which balanced 64-pixel sprites slightly better (1.84x
           against 1.81x with blocks) */
        sw_pool_run(r->pool, (int)bands, sw_band_run, &job);
    }
    if (c->occlusion != NULL)
        for (int64_t b = 0; b < bands; b++) *c->occlusion += counts[b];
}

static void sw_triangle(sw_ctx *c, const sw_vertex *v0, const sw_vertex *v1, const sw_vertex *v2)
{
    unsigned o0 = v0->outcode, o1 = v1->outcode, o2 = v2->outcode; /* sw_outcode's */
    if (o0 & o1 & o2) return;
    if (c->wireframe) {
        /* Wireframe: cull by the triangle's orientation, then draw its edges as lines. */
        if ((o0 | o1 | o2) == 0) {
            sw_screen_vertex s0, s1, s2;
            if (!sw_to_screen(c, v0, &s0) || !sw_to_screen(c, v1, &s1) || !sw_to_screen(c, v2, &s2))
                return;
            int64_t area = (s1.X - s0.X) * (s2.Y - s0.Y) - (s2.X - s0.X) * (s1.Y - s0.Y);
            if (area == 0) return;
            if (c->cull == XGD_CULL_COUNTER_CLOCKWISE_FACE && area < 0) return;
            if (c->cull == XGD_CULL_CLOCKWISE_FACE && area > 0) return;
            c->front = area > 0;
        } else {
            /* orientation of a clipped triangle from the sign of the clip-space determinant
               (positive w: same sign as the screen-space area, y flipped) */
            double det = (double)v0->clip[0] * ((double)v1->clip[1] * v2->clip[3] - (double)v2->clip[1] * v1->clip[3]) -
                         (double)v1->clip[0] * ((double)v0->clip[1] * v2->clip[3] - (double)v2->clip[1] * v0->clip[3]) +
                         (double)v2->clip[0] * ((double)v0->clip[1] * v1->clip[3] - (double)v1->clip[1] * v0->clip[3]);
            bool front = det < 0.0; /* ndc y up: clockwise on screen = negative in ndc */
            if (det == 0.0) return;
            if (c->cull == XGD_CULL_COUNTER_CLOCKWISE_FACE && !front) return;
            if (c->cull == XGD_CULL_CLOCKWISE_FACE && front) return;
            c->front = front;
        }
        sw_line_edges(c, v0, v1);
        sw_line_edges(c, v1, v2);
        sw_line_edges(c, v2, v0);
        return;
    }
    if ((o0 | o1 | o2) == 0) {
        /* sw_to_screen's vertices, computed with the outcodes (sw_user_vertices) */
        if (!v0->screen_ok || !v1->screen_ok || !v2->screen_ok) return;
        sw_emit_triangle(c, &v0->screen, &v1->screen, &v2->screen, true);
        return;
    }
    /* Sutherland-Hodgman against the planes some vertex is outside of */
    sw_vertex buf[2][SW_CLIP_MAX];
    int n = 3;
    buf[0][0] = *v0;
    buf[0][1] = *v1;
    buf[0][2] = *v2;
    int cur = 0;
    unsigned planes = o0 | o1 | o2;
    for (int p = 0; p < SW_CLIP_PLANES && n >= 3; p++) {
        if (!(planes & (1u << p))) continue;
        sw_vertex *in = buf[cur], *out = buf[cur ^ 1];
        int m = 0;
        for (int i = 0; i < n; i++) {
            const sw_vertex *a = &in[i], *b = &in[(i + 1) % n];
            float da = sw_plane_dist(c, p, a->clip), db = sw_plane_dist(c, p, b->clip);
            bool ina = da >= 0.0f, inb = db >= 0.0f;
            if (ina && m < SW_CLIP_MAX) out[m++] = *a;
            if (ina != inb && m < SW_CLIP_MAX) {
                if (sw_vertex_less(c, b, a)) sw_lerp_vertex(c, b, a, db / (db - da), &out[m++]);
                else sw_lerp_vertex(c, a, b, da / (da - db), &out[m++]);
            }
        }
        n = m;
        cur ^= 1;
    }
    if (n < 3) return;
    sw_screen_vertex sv[SW_CLIP_MAX];
    for (int i = 0; i < n; i++)
        if (!sw_to_screen(c, &buf[cur][i], &sv[i])) return;
    for (int i = 1; i + 1 < n; i++) {
        sw_emit_triangle(c, &sv[0], &sv[i], &sv[i + 1], false);
    }
}

static void sw_line_edges(sw_ctx *c, const sw_vertex *from, const sw_vertex *to)
{
    /* clipped from the canonical endpoint (see sw_vertex_less), drawn in the given direction */
    bool swap = sw_vertex_less(c, to, from);
    const sw_vertex *a = swap ? to : from, *b = swap ? from : to;
    float t0 = 0.0f, t1 = 1.0f;
    for (int p = 0; p < SW_CLIP_PLANES; p++) {
        float da = sw_plane_dist(c, p, a->clip), db = sw_plane_dist(c, p, b->clip);
        if (da < 0.0f && db < 0.0f) return;
        if (!(da >= 0.0f && db >= 0.0f)) {
            if (!(da == da) || !(db == db)) return;
            float t = da / (da - db);
            if (da < 0.0f) {
                if (t > t0) t0 = t;
            } else if (t < t1) {
                t1 = t;
            }
        }
    }
    if (t0 > t1) return;
    sw_vertex ca, cb;
    sw_lerp_vertex(c, a, b, t0, &ca);
    sw_lerp_vertex(c, a, b, t1, &cb);
    sw_screen_vertex sa, sb;
    if (!sw_to_screen(c, &ca, &sa) || !sw_to_screen(c, &cb, &sb)) return;
    if (swap) sw_raster_line(c, &sb, &sa);
    else sw_raster_line(c, &sa, &sb);
}

/* ---- draw setup ---- */

static unsigned sw_write_mask(unsigned m)
{
    return m & 15;
}

static void sw_setup_blend(sw_blend *b, const xgd_target_blend_desc *d)
{
    b->cs = d->color_source_blend ? d->color_source_blend : XGD_BLEND_ONE;
    b->cd = d->color_destination_blend ? d->color_destination_blend : XGD_BLEND_ZERO;
    b->as = d->alpha_source_blend ? d->alpha_source_blend : XGD_BLEND_ONE;
    b->ad = d->alpha_destination_blend ? d->alpha_destination_blend : XGD_BLEND_ZERO;
    b->cf = d->color_blend_function ? d->color_blend_function : XGD_BLEND_FUNCTION_ADD;
    b->af = d->alpha_blend_function ? d->alpha_blend_function : XGD_BLEND_FUNCTION_ADD;
    b->enabled = !(b->cs == XGD_BLEND_ONE && b->cd == XGD_BLEND_ZERO && b->as == XGD_BLEND_ONE &&
                   b->ad == XGD_BLEND_ZERO && b->cf == XGD_BLEND_FUNCTION_ADD &&
                   b->af == XGD_BLEND_FUNCTION_ADD);
    b->premultiplied = b->cs == XGD_BLEND_ONE && b->cd == XGD_BLEND_INVERSE_SOURCE_ALPHA &&
                       b->as == XGD_BLEND_ONE && b->ad == XGD_BLEND_INVERSE_SOURCE_ALPHA &&
                       b->cf == XGD_BLEND_FUNCTION_ADD && b->af == XGD_BLEND_FUNCTION_ADD;
}

static void sw_setup_view(sw_rt_view *v, xgdi_native_texture *t, int face)
{
    memset(v, 0, sizeof *v);
    v->tex = t;
    v->face = face;
    v->format = t->desc.format;
    v->es = (size_t)t->fi->element_size;
    v->is_color = t->is_color;
    v->range = t->fi->is_float ? 0 : (t->fi->is_signed ? 2 : 1);
    size_t pixels = (size_t)t->desc.width * (size_t)t->desc.height;
    if (t->samples > 1) v->base = t->ms + (size_t)face * pixels * (size_t)t->samples * v->es;
    else v->base = sw_texture_image(t, face, 0)->texels;
}

/* The pixel shader's modulate shape (xgdi_native_shader.modulate) for the context's textures:
   whether it applies and what its sampling and writing may skip (sw_user_setup, and again at
   each run's texture in a draw of quad runs). */
static void sw_mod_setup(sw_ctx *c)
{
    const xgdi_native_shader *ps = c->ps;
    /* the modulate shape: both inputs must be linked varyings (an unlinked one reads 0 in
       the executor, which this path does not model) */
    c->mod = false;
    if (ps->modulate) {
        int uv = -1, col = -1;
        for (int i = 0; i < c->nlink; i++) {
            uint32_t base = c->link_ps[i], end = base + 4u * c->link_ps_comps[i];
            if (ps->mod.uv_reg >= base && ps->mod.uv_reg + 4u < end && (ps->mod.uv_reg - base) % 4u == 0)
                uv = 4 * i + (int)((ps->mod.uv_reg - base) / 4u);
            if (ps->mod.color_reg >= base && ps->mod.color_reg + 12u < end &&
                (ps->mod.color_reg - base) % 4u == 0)
                col = 4 * i + (int)((ps->mod.color_reg - base) / 4u);
        }
        if (uv >= 0 && col >= 0) {
            c->mod = true;
            c->mod_uv = uv;
            c->mod_col = col;
            int img = (int)(ps->mod.resource & 0xffu), smp = (int)(ps->mod.resource >> 8 & 0xffu);
            const xgdi_native_texture *tex = ps->mod.valid ? c->tex.texture[img] : NULL;
            /* as xgdi_sw_spirv_sample_textures decides whether a level is computed */
            c->mod_lod = tex != NULL && (tex->desc.levels > 1 || c->tex.needs_lod[smp]);
            c->mod_tex = tex;
            c->mod_samp = ps->mod.valid ? &c->tex.sampler[smp] : NULL;
            /* sw_sample_2d_with without derivatives on a one-level texture: lod 0 plus the
               sampler's bias picks the filter, the image is level 0 of face 0 */
            const sw_rt_view *rt0 = &c->rt[0];
            c->mod_blend_write = c->out_count == 1 && c->color_written == 1u && c->samples == 1 &&
                                 c->full_mask == 1u && !c->depth_test && !c->stencil_on &&
                                 c->occlusion == NULL && rt0->is_color && rt0->range == 1 &&
                                 rt0->blend.enabled && rt0->blend.premultiplied &&
                                 rt0->write_mask == 15;
            c->mod_image = NULL;
            if (tex != NULL && !c->mod_lod && tex->desc.levels == 1 && c->mod_samp->anisotropy <= 1) {
                c->mod_image = &tex->images[0];
                float lod = 0.0f + c->mod_samp->desc->mip_map_level_of_detail_bias;
                c->mod_linear = lod > 0.0f ? c->mod_samp->min_linear : c->mod_samp->mag_linear;
            }
            c->mod_rows = c->mod_blend_write && c->single_coverage && c->mod_image != NULL &&
                          c->mod_image->rgba8 != NULL;
            c->mod_rows4 = false;
            if (c->mod_rows && !c->r->rows_scalar) {
                const uint8_t *tx = c->mod_image->rgba8, *tb = rt0->base;
                size_t tn = (size_t)c->mod_image->width * (size_t)c->mod_image->height * 4;
                size_t bn = (size_t)c->width * (size_t)c->height * 4;
                /* compared as addresses: distinct allocations never overlap */
                uintptr_t a0 = (uintptr_t)tx, a1 = a0 + tn, b0 = (uintptr_t)tb, b1 = b0 + bn;
                c->mod_rows4 = a1 <= b0 || b1 <= a0;
            }
        }
    }
}

/* Slot 0's texture becomes `tex` for what follows in this context (a run of a draw of quad
   runs; the sampler is the draw's): then the modulate shape for it. Writes only the context,
   so band threads may call it: sw_draw_quad_runs readied every run's texture for sampling on
   the calling thread first (sw_texture_prepare_sampling, which may decode). */
static void sw_ctx_slot0(sw_ctx *c, const xgdi_native_texture *tex)
{
    if (c->slot0_resource >= 0 && c->slot0_resource < XGDI_SW_SPIRV_MAX_RESOURCES)
        c->tex.texture[c->slot0_resource] = tex;
    sw_mod_setup(c);
}

/* A user program's draw: constants and samplers bound to the shaders' states, each vertex
   input location fed by the layout's element of that location (the first, as core checked
   every input has one), and the varyings linked by location. A pixel input no vertex output
   writes reads 0. */
static bool sw_user_setup(sw_ctx *c, const xgdi_draw_state *st)
{
    xgdi_native_shader *vs = st->vs, *ps = st->ps;
    if (vs == NULL || ps == NULL) return false;
    c->vs = vs;
    c->ps = ps;
    c->ps_state = ps->state;
    c->ps_R = xgdi_sw_spirv_regs(ps->state);
    /* every thread's state gets the draw's constants, samplers and unlinked inputs */
    for (int w = 0; w < vs->nstates; w++)
        if (vs->block >= 0)
            xgdi_sw_spirv_bind_uniform(vs->states[w], vs->block, st->vs_constants, st->vs_constants_size);
    for (int w = 0; w < ps->nstates; w++)
        if (ps->block >= 0)
            xgdi_sw_spirv_bind_uniform(ps->states[w], ps->block, st->ps_constants, st->ps_constants_size);
    const xgd_vertex_element *by_loc[XGDI_SHADER_LOCATION_COUNT] = { NULL };
    const xgdi_vertex_layout *lay = st->layout;
    for (int i = lay->count < 16 ? lay->count - 1 : 15; i >= 0; i--) {
        int loc = xgdi_shader_location(lay->elements[i].usage, lay->elements[i].usage_index);
        if (loc >= 0) by_loc[loc] = &lay->elements[i];
    }
    c->nin = 0;
    c->nlink = 0;
    for (int loc = 0; loc < XGDI_SHADER_LOCATION_COUNT; loc++) {
        if (vs->in_reg[loc] != SW_NO_REG) {
            c->in_loc[c->nin] = loc;
            c->in_elem[c->nin++] = by_loc[loc];
        }
        if (ps->in_reg[loc] == SW_NO_REG) continue;
        if (vs->out_reg[loc] != SW_NO_REG && c->nlink < SW_USER_MAX_LINKS) {
            c->link_vs[c->nlink] = vs->out_reg[loc];
            c->link_vs_comps[c->nlink] = vs->out_comps[loc];
            c->link_ps[c->nlink] = ps->in_reg[loc];
            c->link_ps_comps[c->nlink++] = ps->in_comps[loc];
        } else {
            for (int w = 0; w < ps->nstates; w++)
                for (int k = 0; k < ps->in_comps[loc]; k++)
                    for (int l = 0; l < 4; l++)
                        xgdi_sw_spirv_reg(ps->states[w], ps->in_reg[loc], k)[l] = 0.0f;
        }
    }
    c->nvary = 4 * c->nlink;
    xgdi_sw_spirv_textures_init(&c->tex);
    for (int s = 0; s < XGDI_SHADER_MAX_SAMPLERS; s++)
        if (ps->sampler_resource[s] >= 0)
            xgdi_sw_spirv_textures_set(&c->tex, ps->sampler_resource[s], st->textures[s], st->samplers[s]);
    for (int w = 0; w < ps->nstates; w++)
        xgdi_sw_spirv_bind_sampler(ps->states[w], xgdi_sw_spirv_sample_textures, &c->tex);
    /* vertex textures: the vertex stage samples its own slots */
    xgdi_sw_spirv_textures_init(&c->vtex);
    for (int s = 0; s < XGDI_MAX_VERTEX_TEXTURE_SLOTS; s++)
        if (vs->sampler_resource[s] >= 0)
            xgdi_sw_spirv_textures_set(&c->vtex, vs->sampler_resource[s], st->vertex_textures[s],
                                       st->vertex_samplers[s]);
    for (int w = 0; w < vs->nstates; w++)
        xgdi_sw_spirv_bind_sampler(vs->states[w], xgdi_sw_spirv_sample_textures, &c->vtex);
    c->color_written = 0;
    for (int t = 0; t < SW_MAX_TARGETS; t++)
        if (ps->color_reg[t] != SW_NO_REG) c->color_written |= 1u << t;
    c->slot0_resource = ps->sampler_resource[0];
    sw_mod_setup(c);
    return true;
}

/* A draw with several vertex buffers: each input reads the element of its stream's binding
   (found in stream_layout); the primary stream's stays on the vertex pointer. */
static void sw_user_streams(sw_ctx *c, const xgdi_draw *d)
{
    c->draw = d;
    for (int i = 0; i < c->nin; i++) {
        c->in_stream[i] = -1;
        if (d->stream_count == 0) continue;
        const xgdi_vertex_layout *cl = d->stream_layout;
        for (int j = 0; j < cl->count && j < 16; j++) {
            if (xgdi_shader_location(cl->elements[j].usage, cl->elements[j].usage_index) !=
                c->in_loc[i])
                continue;
            const xgdi_vertex_stream *s = &d->streams[d->element_stream[j]];
            bool primary = s->buffer == d->vertex_buffer && s->offset == d->vertex_offset &&
                           s->instance_frequency == 0;
            c->in_elem[i] = &cl->elements[j];
            c->in_stream[i] = primary ? -1 : d->element_stream[j];
            break;
        }
    }
}

/* The source of input i for the vertex at src (primary stream) of the current instance. */
static const uint8_t *sw_stream_source(const sw_ctx *c, int i, const uint8_t *src)
{
    if (c->draw == NULL || c->in_stream[i] < 0) return src;
    const xgdi_vertex_stream *s = &c->draw->streams[c->in_stream[i]];
    size_t k;
    if (s->instance_frequency > 0) {
        k = (size_t)c->instance / (size_t)s->instance_frequency;
    } else {
        if (src == NULL || c->vstride == 0) return NULL;
        k = (size_t)(src - c->vbase) / c->vstride;
    }
    if (k >= s->readable || s->buffer == NULL) return NULL;
    return s->buffer->data + s->offset + k * (size_t)s->stride;
}

/* One lane's input (sw_fetch_element's four values, 0, 0, 0, 1 without a source), the first
   comps of them into lane registers r[0], r[4], r[8], r[12]. */
static inline void sw_fetch_lane(const xgd_vertex_element *e, const uint8_t *from, float *r,
                                 int comps)
{
    float v[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    if (from != NULL && e != NULL) sw_fetch_element(e->format, from + e->offset, v);
    if (comps == 4) {
        r[0] = v[0];
        r[4] = v[1];
        r[8] = v[2];
        r[12] = v[3];
    } else {
        for (int k = 0; k < comps; k++) r[4 * k] = v[k];
    }
}

/* The vertex stage of a user program for up to four vertices at once, one per lane (lanes of
   the vertex stage are independent invocations). src[l] NULL: every input missing, 0,0,0,1. */
static void sw_user_vertices(const sw_ctx *c, xgdi_sw_spirv_state *st, const uint8_t *const *src,
                             sw_vertex *out, int n)
{
    const xgdi_native_shader *vs = c->vs;
    /* component k of register reg, lane l, is R[reg + 4k + l] (xgdi_sw_spirv_reg) */
    float *R = xgdi_sw_spirv_regs(st);
    for (int i = 0; i < c->nin; i++) {
        const xgd_vertex_element *e = c->in_elem[i];
        uint32_t reg = vs->in_reg[c->in_loc[i]];
        int comps = vs->in_comps[c->in_loc[i]];
        for (int l = 0; l < n; l++)
            sw_fetch_lane(e, sw_stream_source(c, i, src[l]), R + reg + (uint32_t)l, comps);
    }
    if (vs->transform != NULL) xgdi_sw_spirv_run_transform(st, vs->transform);
    else xgdi_sw_spirv_execute(st, (1u << n) - 1u, NULL);
    for (int l = 0; l < n; l++) {
        sw_vertex *o = &out[l];
        for (int k = 0; k < 4; k++) o->clip[k] = R[vs->position_reg + 4u * (uint32_t)k + (uint32_t)l];
        for (int i = 0; i < c->nlink; i++)
            for (int k = 0; k < 4; k++)
                o->v[4 * i + k] = k < c->link_vs_comps[i]
                                      ? R[c->link_vs[i] + 4u * (uint32_t)k + (uint32_t)l]
                                      : (k == 3 ? 1.0f : 0.0f);
        /* what sw_triangle needs of each vertex, here on the pool rather than per triangle on
           the calling thread: the outcode, and inside every plane the screen position */
        o->outcode = sw_outcode(c, o);
        o->screen_ok = o->outcode == 0 && sw_to_screen(c, o, &o->screen);
    }
}

/* Notes vertex `out` (an element of r->verts) for the vertex shader: vertices are shaded by
   sw_shade_flush, four per execute, in chunks of SW_VERTEX_CHUNK spread over the pool. Vertices are independent invocations and the chunks (and the groups of four
   in them) are the same whatever the thread count, so every count shades the same values. */
static inline void sw_shade_vertex(sw_ctx *c, const uint8_t *src, sw_vertex *out)
{
    size_t i = (size_t)(out - c->r->verts);
    c->r->vsrc[i] = src;
    if (i + 1 > c->vq_count) c->vq_count = i + 1;
}

#define SW_VERTEX_CHUNK 64
/* vertices below which a draw shades on the calling thread */
#define SW_VERTEX_POOL_MIN 512

typedef struct sw_vertex_job {
    const sw_ctx *c;
    size_t count;
} sw_vertex_job;

static void sw_vertex_chunk(void *arg, int item, int worker)
{
    const sw_vertex_job *j = arg;
    const sw_ctx *c = j->c;
    xgdi_sw_spirv_state *st = c->vs->states[worker];
    size_t i0 = (size_t)item * SW_VERTEX_CHUNK, i1 = i0 + SW_VERTEX_CHUNK;
    if (i1 > j->count) i1 = j->count;
    for (size_t i = i0; i < i1; i += 4) {
        int n = i1 - i < 4 ? (int)(i1 - i) : 4;
        sw_user_vertices(c, st, c->r->vsrc + i, c->r->verts + i, n);
    }
}

static void sw_shade_flush(sw_ctx *c)
{
    if (c->vq_count == 0) return;
    sw_vertex_job job = { .c = c, .count = c->vq_count };
    size_t chunks = (c->vq_count + SW_VERTEX_CHUNK - 1) / SW_VERTEX_CHUNK;
    if (c->r->pool != NULL && c->vq_count >= SW_VERTEX_POOL_MIN && chunks <= INT32_MAX) {
        sw_pool_run(c->r->pool, (int)chunks, sw_vertex_chunk, &job);
    } else {
        for (size_t k = 0; k < chunks; k++) sw_vertex_chunk(&job, (int)k, 0);
    }
    c->vq_count = 0;
}

static bool sw_setup(sw_ctx *c, sw_renderer *r, const xgdi_draw_state *st)
{
    memset(c, 0, sizeof *c);
    c->r = r;
    c->occlusion = r->occlusion;
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0 == NULL) return false;
    c->width = t0->desc.width;
    c->height = t0->desc.height;
    c->samples = t0->samples;
    c->spos = sw_sample_positions(c->samples);
    const xgd_rasterizer_desc *rs = st->rasterizer;
    c->single_coverage = c->samples == 1 || (rs != NULL && !rs->multisample_antialias);
    c->full_mask = (1u << c->samples) - 1u;
    const xgd_blend_state_desc *bs = st->blend;
    /* MultiSampleMask selects samples of a multisampled target only: XNA's native
       D3DRS_MULTISAMPLEMASK "has no effect when rendering to a single sample buffer". */
    if (c->samples > 1 && bs != NULL)
        c->full_mask &= (unsigned)bs->multisample_mask;
    if (c->full_mask == 0) return false;

    /* pixel rectangle: viewport, target, scissor (in int64: x + width need not fit an int) */
    const xgd_viewport *vp = &st->viewport;
    int64_t x0 = vp->x, y0 = vp->y;
    int64_t x1 = (int64_t)vp->x + vp->width, y1 = (int64_t)vp->y + vp->height;
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > c->width) x1 = c->width;
    if (y1 > c->height) y1 = c->height;
    if (rs != NULL && rs->scissor_test_enable) {
        /* a zero-area scissor clips everything (XGD_ZERO_SCISSOR_CLIPS_ALL) */
        const xgd_rect *sc = &st->scissor;
        if (sc->x > x0) x0 = sc->x;
        if (sc->y > y0) y0 = sc->y;
        if ((int64_t)sc->x + sc->width < x1) x1 = (int64_t)sc->x + sc->width;
        if ((int64_t)sc->y + sc->height < y1) y1 = (int64_t)sc->y + sc->height;
    }
    if (x0 >= x1 || y0 >= y1) return false;
    /* now inside [0, width] x [0, height] */
    c->cx0 = (int)x0;
    c->cy0 = (int)y0;
    c->cx1 = (int)x1;
    c->cy1 = (int)y1;
    c->vx = (float)vp->x;
    c->vy = (float)vp->y;
    c->vhw = (float)vp->width * 0.5f;
    c->vhh = (float)vp->height * 0.5f;
    c->zmin = vp->min_depth;
    c->zmax = vp->max_depth;
    c->zlo = c->zmin < c->zmax ? c->zmin : c->zmax;
    c->zhi = c->zmin < c->zmax ? c->zmax : c->zmin;
    if (c->zlo < 0.0) c->zlo = 0.0;
    if (c->zhi > 1.0) c->zhi = 1.0;
    /* Guard band: screen coordinates stay within +-2^20 pixels of the target's origin (so
       snapped edge products stay far inside int64), whatever the viewport's size or place:
       sx = vx + (ndc.x + 1) * vhw in [-G, G], sy = vy + (1 - ndc.y) * vhh in [-G, G]. */
    const double G = 1048576.0;
    double vhw = (double)vp->width * 0.5, vhh = (double)vp->height * 0.5;
    c->gx_lo = (float)((-G - vp->x) / vhw - 1.0);
    c->gx_hi = (float)((G - vp->x) / vhw - 1.0);
    c->gy_lo = (float)(1.0 - (G - vp->y) / vhh);
    c->gy_hi = (float)(1.0 + (G + vp->y) / vhh);

    c->cull = rs != NULL ? rs->cull_mode : XGD_CULL_COUNTER_CLOCKWISE_FACE;
    c->wireframe = rs != NULL && rs->fill_mode == XGD_FILL_WIREFRAME;
    c->depth_bias = rs != NULL ? rs->depth_bias : 0.0f;
    c->slope_bias = rs != NULL ? rs->slope_scale_depth_bias : 0.0f;

    /* targets: each gets the pixel shader's output of its slot (COLORi), if it writes one */
    c->rt_count = r->target_count;
    for (int i = 0; i < c->rt_count; i++) {
        sw_setup_view(&c->rt[i], r->targets[i].texture, r->targets[i].face);
        const xgd_target_blend_desc *tb = bs != NULL ? &bs->target[i] : NULL;
        if (tb != NULL) {
            sw_setup_blend(&c->rt[i].blend, bs->independent_blend ? tb : &bs->target[0]);
            c->rt[i].write_mask = sw_write_mask(tb->color_write_channels);
        } else {
            c->rt[i].write_mask = 15;
        }
    }
    c->out_count = c->rt_count;
    if (bs != NULL) {
        xgd_color f = bs->blend_factor;
        c->blend_factor[0] = f.r / 255.0f;
        c->blend_factor[1] = f.g / 255.0f;
        c->blend_factor[2] = f.b / 255.0f;
        c->blend_factor[3] = f.a / 255.0f;
    } else {
        c->blend_factor[0] = c->blend_factor[1] = c->blend_factor[2] = c->blend_factor[3] = 1.0f;
    }

    /* depth/stencil of the first target */
    const xgd_depth_stencil_desc *ds = st->depth_stencil;
    c->depth = t0->depth;
    c->stencil = t0->stencil;
    c->dfmt = t0->desc.depth_format;
    c->dscale = c->dfmt == XGD_DEPTH_FORMAT_DEPTH16 ? 65535.0 : (c->depth ? 16777215.0 : 0.0);
    if (ds != NULL && c->depth != NULL) {
        c->depth_test = ds->depth_buffer_enable;
        c->depth_write = c->depth_test && ds->depth_buffer_write_enable;
        c->depth_func = ds->depth_function ? ds->depth_function : XGD_COMPARE_LESS_EQUAL;
    }
    if (ds != NULL && c->stencil != NULL && ds->stencil_enable) {
        c->stencil_on = true;
        c->sref = (unsigned)ds->reference_stencil & 0xffu;
        unsigned rm = (unsigned)ds->stencil_mask, wm = (unsigned)ds->stencil_write_mask;
        c->srmask = rm & 0xffu;
        c->swmask = wm & 0xffu;
        c->sf_front.func = ds->stencil_function ? ds->stencil_function : XGD_COMPARE_ALWAYS;
        c->sf_front.pass = ds->stencil_pass ? ds->stencil_pass : XGD_STENCIL_OP_KEEP;
        c->sf_front.fail = ds->stencil_fail ? ds->stencil_fail : XGD_STENCIL_OP_KEEP;
        c->sf_front.zfail = ds->stencil_depth_fail ? ds->stencil_depth_fail : XGD_STENCIL_OP_KEEP;
        if (ds->two_sided_stencil) {
            c->sf_back.func = ds->ccw_stencil_function ? ds->ccw_stencil_function : XGD_COMPARE_ALWAYS;
            c->sf_back.pass = ds->ccw_stencil_pass ? ds->ccw_stencil_pass : XGD_STENCIL_OP_KEEP;
            c->sf_back.fail = ds->ccw_stencil_fail ? ds->ccw_stencil_fail : XGD_STENCIL_OP_KEEP;
            c->sf_back.zfail = ds->ccw_stencil_depth_fail ? ds->ccw_stencil_depth_fail : XGD_STENCIL_OP_KEEP;
        } else {
            c->sf_back = c->sf_front;
        }
    }
    return sw_user_setup(c, st);
}

static size_t sw_element_size(xgd_vertex_element_format f)
{
    static const unsigned char sizes[XGD_VERTEX_FORMAT_COUNT] = { 4, 8, 12, 16, 4, 4, 4, 8, 4, 8, 4, 8 };
    return (unsigned)f < XGD_VERTEX_FORMAT_COUNT ? sizes[f] : 16;
}

static xgd_result sw_grow_verts(sw_renderer *r, size_t n)
{
    if (n <= r->verts_capacity) return XGD_OK;
    size_t cap = r->verts_capacity ? r->verts_capacity : 256;
    while (cap < n) cap *= 2;
    sw_vertex *nv = realloc(r->verts, cap * sizeof *nv);
    if (nv != NULL) r->verts = nv;
    const uint8_t **ns = nv != NULL ? realloc(r->vsrc, cap * sizeof *ns) : NULL;
    if (ns != NULL) r->vsrc = ns;
    if (nv == NULL || ns == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                         "software: out of memory for %zu transformed vertices", n);
    r->verts_capacity = cap;
    return XGD_OK;
}

static xgd_result sw_grow_map(sw_renderer *r, size_t n)
{
    if (n <= r->vmap_capacity) return XGD_OK;
    size_t cap = r->vmap_capacity ? r->vmap_capacity : 256;
    while (cap < n) cap *= 2;
    uint32_t *m = realloc(r->vmap, cap * sizeof *m);
    if (m == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                         "software: out of memory for %zu vertex indices", n);
    r->vmap = m;
    r->vmap_capacity = cap;
    return XGD_OK;
}

/* The vertex index at position i of an indexed draw (base vertex added), -1 when the index
   itself is unreadable. */
static inline int64_t sw_index_at(const xgdi_draw *d, const uint8_t *ibase, size_t ilimit, size_t i)
{
    size_t off = i * (size_t)d->index_size;
    if (ibase == NULL || off + (size_t)d->index_size > ilimit) return -1;
    if (d->index_size == 2) {
        uint16_t x;
        memcpy(&x, ibase + off, 2);
        return (int64_t)x + d->base_vertex;
    }
    uint32_t x;
    memcpy(&x, ibase + off, 4);
    return (int64_t)x + d->base_vertex;
}

/* The run of primitive `prim` of a draw of quad runs becomes the context's: recorded
   triangles are tagged with it, and triangles drawn at once sample its texture. */
static void sw_run_at(sw_ctx *c, int prim)
{
    int k = c->cur_run < 0 ? 0 : c->cur_run;
    while (k + 1 < c->run_count &&
           (int64_t)prim >= ((int64_t)c->runs[k + 1].base_vertex - c->runs[0].base_vertex) / 2)
        k++;
    if (k == c->cur_run) return;
    c->cur_run = k;
    if (!c->record) sw_ctx_slot0(c, c->runs[k].texture);
}

/* A draw; with runs (run_count > 0), a draw of quad runs whose slot-0 texture is each run's
   from its first primitive on (sw_draw_quad_runs). */
static xgd_result sw_draw_with(sw_renderer *r, const xgdi_draw *d, const xgdi_quad_run *runs,
                               int run_count)
{
    const xgdi_draw_state *st = d->state;
    if (st == NULL || st->layout == NULL || d->vertex_count <= 0 || d->primitive_count <= 0)
        return XGD_OK;
    /* every draw runs a vertex and a pixel shader of the shader form (core applies no other
       program) */
    if (st->program != XGDI_PROGRAM_USER)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "software: draws run shaders (program %d is not one)", (int)st->program);
    sw_ctx ctx;
    if (!sw_setup(&ctx, r, st)) return XGD_OK;
    sw_ctx *c = &ctx;
    c->runs = run_count > 0 ? runs : NULL;
    c->run_count = run_count;
    c->cur_run = -1;
    size_t count = (size_t)d->vertex_count;
    xgd_result res;

    /* vertex source and the bytes one vertex needs */
    const xgdi_vertex_layout *lay = st->layout;
    size_t stride = (size_t)lay->stride;
    size_t vneed = 0;
    for (int i = 0; i < lay->count && i < 16; i++) {
        size_t end = (size_t)lay->elements[i].offset + sw_element_size(lay->elements[i].format);
        if (end > vneed) vneed = end;
    }
    const uint8_t *vbase;
    size_t vlimit; /* bytes readable from vbase */
    if (d->vertex_buffer != NULL) {
        vbase = d->vertex_buffer->data;
        vlimit = d->vertex_buffer->size;
        if (d->vertex_offset > vlimit) vlimit = 0;
        else {
            vbase += d->vertex_offset;
            vlimit -= d->vertex_offset;
        }
    } else {
        vbase = d->user_vertices;
        vlimit = d->user_vertex_count > 0 ? (size_t)d->user_vertex_count * stride : 0;
        if (vlimit > 0 && vneed > stride) vlimit += vneed - stride;
    }
    const uint8_t *ibase = NULL;
    size_t ilimit = 0;
    if (d->index_size != 0) {
        if (d->index_buffer != NULL) {
            ibase = d->index_buffer->data;
            ilimit = d->index_buffer->size;
            if (d->index_offset > ilimit) ilimit = 0;
            else {
                ibase += d->index_offset;
                ilimit -= d->index_offset;
            }
        } else {
            ibase = d->user_indices;
            ilimit = count * (size_t)d->index_size;
        }
    }
    /* Vertices 0 .. readable-1 lie inside the source; the others read as all attributes
       missing (robust buffer access). Indexed draws shade each vertex of the index range
       [lo, hi] once and assemble primitives through a map from index position to shaded
       vertex (slot `range` is the vertex every unreadable index reads). Non-indexed draws,
       and index ranges much sparser than the draw, shade per position. */
    uint64_t readable = 0;
    if (vbase != NULL && vlimit >= vneed)
        readable = stride > 0 ? (uint64_t)((vlimit - vneed) / stride) + 1 : UINT64_MAX;
    c->vbase = vbase;
    c->vstride = stride;
    sw_user_streams(c, d);
    /* instances are drawn one after another, each shading its vertices */
    int instances = d->instance_count > 1 ? d->instance_count : 1;
next_instance:;
    uint32_t *map = NULL;
    if (d->index_size != 0) {
        res = sw_grow_map(r, count);
        if (res != XGD_OK) return res;
        map = r->vmap;
        int64_t lo = INT64_MAX, hi = -1;
        for (size_t i = 0; i < count; i++) {
            int64_t vi = sw_index_at(d, ibase, ilimit, i);
            if (vi >= 0 && (uint64_t)vi < readable) {
                if (vi < lo) lo = vi;
                if (vi > hi) hi = vi;
            }
        }
        size_t range = hi >= lo ? (size_t)(hi - lo + 1) : 0;
        if (range <= 4 * count + 64 && range < UINT32_MAX) {
            res = sw_grow_verts(r, range + 1);
            if (res != XGD_OK) return res;
            for (size_t k = 0; k < range; k++)
                sw_shade_vertex(c, vbase + ((size_t)lo + k) * stride, &r->verts[k]);
            sw_shade_vertex(c, NULL, &r->verts[range]);
            sw_shade_flush(c);
            for (size_t i = 0; i < count; i++) {
                int64_t vi = sw_index_at(d, ibase, ilimit, i);
                map[i] = range > 0 && vi >= lo && vi <= hi ? (uint32_t)(vi - lo) : (uint32_t)range;
            }
        } else {
            map = NULL;
        }
    }
    if (map == NULL) {
        res = sw_grow_verts(r, count);
        if (res != XGD_OK) return res;
        for (size_t i = 0; i < count; i++) {
            int64_t vi = d->index_size != 0 ? sw_index_at(d, ibase, ilimit, i)
                                            : (int64_t)d->first_vertex + (int64_t)i;
            const uint8_t *src = NULL;
            if (vi >= 0 && (uint64_t)vi < readable) src = vbase + (size_t)vi * stride;
            sw_shade_vertex(c, src, &r->verts[i]);
        }
        sw_shade_flush(c);
    }

    const sw_vertex *vv = r->verts;
    c->record = r->pool != NULL && !c->wireframe &&
                (d->type == XGD_PRIMITIVE_TRIANGLE_LIST || d->type == XGD_PRIMITIVE_TRIANGLE_STRIP);
    r->tris_count = 0;
    r->clip_vary_count = 0;
#define SW_V(i) (map != NULL ? &vv[map[(i)]] : &vv[(i)])
    int pc = d->primitive_count;
    switch (d->type) {
    case XGD_PRIMITIVE_TRIANGLE_LIST:
        for (int p = 0; p < pc && (size_t)p * 3 + 2 < count; p++) {
            if (c->runs != NULL) sw_run_at(c, p);
            sw_triangle(c, SW_V((size_t)3 * p), SW_V((size_t)3 * p + 1), SW_V((size_t)3 * p + 2));
        }
        break;
    case XGD_PRIMITIVE_TRIANGLE_STRIP:
        for (int p = 0; p < pc && (size_t)p + 2 < count; p++) {
            /* odd triangles swap their first two vertices to keep the strip's winding */
            if (p & 1) sw_triangle(c, SW_V((size_t)p + 1), SW_V((size_t)p), SW_V((size_t)p + 2));
            else sw_triangle(c, SW_V((size_t)p), SW_V((size_t)p + 1), SW_V((size_t)p + 2));
        }
        break;
    case XGD_PRIMITIVE_LINE_LIST:
        c->front = true; /* lines use the clockwise (front) stencil state */
        for (int p = 0; p < pc && (size_t)p * 2 + 1 < count; p++)
            sw_line_edges(c, SW_V((size_t)2 * p), SW_V((size_t)2 * p + 1));
        break;
    case XGD_PRIMITIVE_LINE_STRIP:
        c->front = true;
        for (int p = 0; p < pc && (size_t)p + 1 < count; p++)
            sw_line_edges(c, SW_V((size_t)p), SW_V((size_t)p + 1));
        break;
    default:
        break;
    }
#undef SW_V
    if (c->record) {
        if (c->record_failed)
            return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                             "software: out of memory for the draw's %zu triangles",
                             r->tris_count + 1);
        sw_run_bands(c); /* each instance's triangles before the next instance's */
    }
    if (++c->instance < instances) goto next_instance;
    for (int t = 0; t < c->out_count; t++)
        sw_texture_mark_written(c->rt[t].tex, c->rt[t].face);
    return XGD_OK;
}

xgd_result sw_draw(sw_renderer *r, const xgdi_draw *d)
{
    return sw_draw_with(r, d, NULL, 0);
}

/* The runs (consecutive quads of the reservation, as core lays them out) as one draw, or as
   few as the quad pattern's indices allow (runs may hold more quads together than it
   addresses), each run's triangles sampling its texture in slot 0: the pixels of a draw per
   run (each pixel sees the triangles in the same order, with the same state but for slot 0),
   but one vertex pass, one setup and, for the pool, one banded job instead of a small draw
   per run on the calling thread. Every run's texture is readied for sampling here, on the
   calling thread, so the bands only switch pointers (sw_ctx_slot0). */
xgd_result sw_draw_quad_runs(sw_renderer *r, const xgdi_draw *draw, const xgdi_quad_run *runs,
                             int count, int *drawn)
{
    *drawn = 0;
    if (draw->state == NULL) { /* as sw_draw: nothing to draw */
        *drawn = count;
        return XGD_OK;
    }
    for (int k = 0; k < count; k++)
        if (runs[k].texture != NULL) sw_texture_prepare_sampling(runs[k].texture);
    /* the most quads one draw's indices address: the quad pattern's (a run has at most that
       many, but runs together may have more) */
    int64_t cap = 0;
    if (draw->index_buffer != NULL && draw->index_size > 0)
        cap = (int64_t)(draw->index_buffer->size / ((size_t)draw->index_size * 6));
    if (cap > INT32_MAX / 6) cap = INT32_MAX / 6;
    for (int s = 0; s < count;) {
        /* the consecutive runs from s that fit one draw (none when a draw per run is asked) */
        int n = 0;
        int64_t quads = 0;
        while (!r->quad_runs_off && s + n < count && runs[s + n].quad_count > 0 &&
               (int64_t)runs[s + n].base_vertex == (int64_t)runs[s].base_vertex + 4 * quads &&
               quads + runs[s + n].quad_count <= cap) {
            quads += runs[s + n].quad_count;
            n++;
        }
        xgdi_draw d = *draw;
        xgdi_draw_state st;
        xgd_result res;
        if (n > 0) {
            d.base_vertex = runs[s].base_vertex;
            d.primitive_count = (int)(2 * quads);
            d.vertex_count = (int)(6 * quads);
            res = sw_draw_with(r, &d, runs + s, n);
        } else {
            /* a draw of its own, slot 0 its texture: the reference, and any run that cannot
               join the others */
            n = 1;
            st = *draw->state;
            st.textures[0] = runs[s].texture;
            d.state = &st;
            d.base_vertex = runs[s].base_vertex;
            d.primitive_count = 2 * runs[s].quad_count;
            d.vertex_count = 6 * runs[s].quad_count;
            res = sw_draw_with(r, &d, NULL, 0);
        }
        if (res != XGD_OK) return res;
        s += n;
        *drawn = s;
    }
    return XGD_OK;
}

/* ---- clear ---- */

/* count elements of es bytes, each a copy of enc: the first 4 KiB by doubling, then that block
   again and again (it stays in the cache), so a clear moves memory at memcpy's speed rather
   than one small copy per texel (a 1024x1024 target: about 4 ms before). */
static void fill_elements(uint8_t *dst, size_t count, const uint8_t *enc, size_t es)
{
    if (count == 0) return;
    memcpy(dst, enc, es);
    size_t block = 4096 / es > 0 ? 4096 / es : 1, done = 1;
    if (block > count) block = count;
    while (done < block) {
        size_t n = done < block - done ? done : block - done;
        memcpy(dst + done * es, dst, n * es);
        done += n;
    }
    while (done < count) {
        size_t n = block < count - done ? block : count - done;
        memcpy(dst + done * es, dst, n * es);
        done += n;
    }
}

xgd_result sw_clear(sw_renderer *r, unsigned options, const float color[4], float depth,
                    int stencil)
{
    for (int i = 0; i < r->target_count; i++) {
        xgdi_native_texture *t = r->targets[i].texture;
        int face = r->targets[i].face;
        if (t == NULL) continue;
        if (options & XGD_CLEAR_TARGET) {
            size_t es = (size_t)t->fi->element_size;
            uint8_t enc[16];
            xgdi_format_encode_row(t->desc.format, color, 1, enc);
            sw_image *img = sw_texture_image(t, face, 0);
            size_t pixels = (size_t)img->width * (size_t)img->height;
            fill_elements(img->texels, pixels, enc, es);
            if (t->samples > 1) {
                uint8_t *ms = t->ms + (size_t)face * pixels * (size_t)t->samples * es;
                fill_elements(ms, pixels * (size_t)t->samples, enc, es);
            }
            sw_texture_mark_written(t, face);
            t->ms_dirty[face] = false; /* level 0 already holds the resolved clear colour */
        }
    }
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0 != NULL) {
        size_t n = (size_t)t0->desc.width * (size_t)t0->desc.height * (size_t)t0->samples;
        if ((options & XGD_CLEAR_DEPTH_BUFFER) && t0->depth != NULL) {
            float z = sw_quantize_depth(t0->desc.depth_format, depth);
            for (size_t i = 0; i < n; i++) t0->depth[i] = z;
        }
        if ((options & XGD_CLEAR_STENCIL) && t0->stencil != NULL)
            memset(t0->stencil, stencil & 0xff, n);
    }
    return XGD_OK;
}
