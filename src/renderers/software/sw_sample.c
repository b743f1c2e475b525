/*
 * sw_sample.c - texture sampling by Direct3D's rules (team brief "Texture sampling"):
 *   point:  texel floor(u * w);  linear: weights from u * w - 0.5 (exact float weights, no
 *           sub-texel quantisation);
 *   wrap / clamp / mirror per axis;
 *   anisotropic (2D textures): the footprint filter of EXT_texture_filter_anisotropic, see
 *           sw_sample_anisotropic; cube and volume textures sample it as linear with linear mips;
 *   level of detail = log2(rho) + bias with rho = max(|(du/dx, dv/dx)|, |(du/dy, dv/dy)|) in
 *           texels (the isotropic formula of the D3D/GL specifications); lod <= 0 selects the
 *           magnification filter; the level is then clamped to [max_mip_level, levels - 1];
 *           point mips take level floor(lod + 0.5), linear mips blend floor(lod) and the next.
 *   Derivatives come from sw_raster.c, computed analytically at each pixel centre (exact for
 *   affine mappings, the limit of 2x2 quad differences under perspective).
 *   Cube maps: Direct3D's major-axis face selection, faces +X,-X,+Y,-Y,+Z,-Z, clamp inside a
 *   face (no seamless filtering).
 *   Volumes (Texture3D): the same rules along w with address_w; linear is trilinear (the 2x2x2
 *   texels around u * w - 0.5, v * h - 0.5, w * d - 0.5), and rho takes the w gradient too:
 *   rho = max(|(du/dx, dv/dx, dw/dx)|, |(du/dy, dv/dy, dw/dy)|) in texels.
 */
#include "sw_internal.h"

#include <math.h>

/* The same float division the decode rule states, done by the compiler (a constant
   expression is evaluated with the run-time semantics, so every entry is (float)v / 255.0f). */
#define SW_U8(v) ((float)(v) / 255.0f)
#define SW_U8_4(v) SW_U8(v), SW_U8((v) + 1), SW_U8((v) + 2), SW_U8((v) + 3)
#define SW_U8_16(v) SW_U8_4(v), SW_U8_4((v) + 4), SW_U8_4((v) + 8), SW_U8_4((v) + 12)
#define SW_U8_64(v) SW_U8_16(v), SW_U8_16((v) + 16), SW_U8_16((v) + 32), SW_U8_16((v) + 48)
const float xgdi_sw_unorm8[256] = { SW_U8_64(0), SW_U8_64(64), SW_U8_64(128), SW_U8_64(192) };
#undef SW_U8_64
#undef SW_U8_16
#undef SW_U8_4
#undef SW_U8

static inline void sw_fetch(const sw_image *img, int x, int y, float out[4])
{
    size_t i = (size_t)y * (size_t)img->width + (size_t)x;
    if (img->rgba8 != NULL) {
        const uint8_t *p = img->rgba8 + i * 4;
        out[0] = xgdi_sw_unorm8[p[0]];
        out[1] = xgdi_sw_unorm8[p[1]];
        out[2] = xgdi_sw_unorm8[p[2]];
        out[3] = xgdi_sw_unorm8[p[3]];
    } else if (img->rgbaf != NULL && img->cache_valid) {
        const float *p = img->rgbaf + i * 4;
        out[0] = p[0];
        out[1] = p[1];
        out[2] = p[2];
        out[3] = p[3];
    } else {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

static void sw_sample_level(const sw_image *img, bool linear, float u, float v,
                            xgd_texture_address_mode au, xgd_texture_address_mode av,
                            float out[4])
{
    int w = img->width, h = img->height;
    if (!linear) {
        int x = sw_ifloor(sw_safe_coord(u * (float)w));
        int y = sw_ifloor(sw_safe_coord(v * (float)h));
        if (x < 0 || x >= w) x = sw_address(x, w, au);
        if (y < 0 || y >= h) y = sw_address(y, h, av);
        sw_fetch(img, x, y, out);
        return;
    }
    float fx = sw_safe_coord(u * (float)w - 0.5f);
    float fy = sw_safe_coord(v * (float)h - 0.5f);
    int x0 = sw_ifloor(fx), y0 = sw_ifloor(fy);
    float ax = fx - (float)x0, ay = fy - (float)y0;
    int xa, xb, ya, yb;
    /* interior texels need no addressing (the common case) */
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
    float w00 = (1.0f - ax) * (1.0f - ay), w10 = ax * (1.0f - ay);
    float w01 = (1.0f - ax) * ay, w11 = ax * ay;
    if (img->rgba8 != NULL && ax == 0.0f && ay == 0.0f) {
        /* on a texel centre (SpriteBatch drawing texel-exactly): the weights are 1, 0, 0, 0
           and the texels finite and >= 0, so the weighted sum below is exactly t00 */
        const uint8_t *p00 = img->rgba8 + ((size_t)ya * (size_t)w + (size_t)xa) * 4;
        for (int c = 0; c < 4; c++) out[c] = xgdi_sw_unorm8[p00[c]];
        return;
    }
    if (img->rgba8 != NULL) {
        const uint8_t *p00 = img->rgba8 + ((size_t)ya * (size_t)w + (size_t)xa) * 4;
        const uint8_t *p10 = img->rgba8 + ((size_t)ya * (size_t)w + (size_t)xb) * 4;
        const uint8_t *p01 = img->rgba8 + ((size_t)yb * (size_t)w + (size_t)xa) * 4;
        const uint8_t *p11 = img->rgba8 + ((size_t)yb * (size_t)w + (size_t)xb) * 4;
        for (int c = 0; c < 4; c++)
            out[c] = xgdi_sw_unorm8[p00[c]] * w00 + xgdi_sw_unorm8[p10[c]] * w10 +
                     xgdi_sw_unorm8[p01[c]] * w01 + xgdi_sw_unorm8[p11[c]] * w11;
        return;
    }
    float t00[4], t10[4], t01[4], t11[4];
    sw_fetch(img, xa, ya, t00);
    sw_fetch(img, xb, ya, t10);
    sw_fetch(img, xa, yb, t01);
    sw_fetch(img, xb, yb, t11);
    for (int c = 0; c < 4; c++)
        out[c] = t00[c] * w00 + t10[c] * w10 + t01[c] * w01 + t11[c] * w11;
}

void sw_sample_image(const sw_image *img, bool linear, float u, float v,
                     xgd_texture_address_mode au, xgd_texture_address_mode av, float out[4])
{
    sw_sample_level(img, linear, u, v, au, av, out);
}

static void sw_filter_of(xgd_texture_filter f, sw_sampler *o)
{
    bool min = true, mag = true, mip = true;
    switch (f) {
    case XGD_FILTER_POINT: min = mag = mip = false; break;
    case XGD_FILTER_LINEAR_MIP_POINT: mip = false; break;
    case XGD_FILTER_POINT_MIP_LINEAR: min = mag = false; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR: mag = false; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT: mag = mip = false; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR: min = false; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT: min = mip = false; break;
    case XGD_FILTER_ANISOTROPIC:
    case XGD_FILTER_LINEAR:
    default: break;
    }
    o->min_linear = min;
    o->mag_linear = mag;
    o->mip_linear = mip;
}

void sw_sampler_init(sw_sampler *out, const xgd_sampler_desc *s)
{
    out->desc = s;
    sw_filter_of(s->filter, out);
    /* core clamps MaxAnisotropy to 0..16 (0 and 1 mean no anisotropy); a desc that did not come
       through core still gets a defined tap count */
    int n = s->max_anisotropy > 1 ? s->max_anisotropy : 1; /* 0 and 1: no anisotropy */
    out->anisotropy = s->filter == XGD_FILTER_ANISOTROPIC ? (n > 16 ? 16 : n) : 1;
}

static void sw_sample_face(const xgdi_native_texture *t, int face, const sw_sampler *f,
                           float u, float v, float lod, xgd_texture_address_mode au,
                           xgd_texture_address_mode av, float out[4])
{
    const xgd_sampler_desc *s = f->desc;
    lod += s->mip_map_level_of_detail_bias;
    bool linear = lod > 0.0f ? f->min_linear : f->mag_linear;
    int levels = t->desc.levels;
    if (levels == 1) {
        /* the clamps below take any lod to level 0 */
        sw_sample_level(&t->images[face], linear, u, v, au, av, out);
        return;
    }
    float lo = (float)(s->max_mip_level < 0 ? 0 : s->max_mip_level);
    float hi = (float)(levels - 1);
    if (lo > hi) lo = hi;
    if (!(lod >= lo)) lod = lo; /* NaN reads the most detailed allowed level */
    if (lod > hi) lod = hi;
    if (!f->mip_linear) {
        int l = (int)floorf(lod + 0.5f);
        if (l > levels - 1) l = levels - 1;
        sw_sample_level(&t->images[face * levels + l], linear, u, v, au, av, out);
        return;
    }
    int l0 = (int)floorf(lod);
    float fr = lod - (float)l0;
    sw_sample_level(&t->images[face * levels + l0], linear, u, v, au, av, out);
    if (fr > 0.0f && l0 + 1 < levels) {
        float o2[4];
        sw_sample_level(&t->images[face * levels + l0 + 1], linear, u, v, au, av, o2);
        for (int c = 0; c < 4; c++) out[c] += (o2[c] - out[c]) * fr;
    }
}

void sw_sample_2d(const xgdi_native_texture *t, const xgd_sampler_desc *s, float u, float v,
                  const float *deriv, float out[4])
{
    sw_sampler f;
    sw_sampler_init(&f, s);
    sw_sample_2d_with(t, &f, u, v, deriv, out);
}

/*
 * The Anisotropic filter, as the reference of EXT_texture_filter_anisotropic (which Direct3D's
 * and Vulkan's anisotropic filtering approximate). In texels, the pixel's footprint has the
 * axes Px = |(du/dx, dv/dx)| and Py = |(du/dy, dv/dy)|; Pmax is the longer, Pmin the shorter.
 * N = min(ceil(Pmax / Pmin), MaxAnisotropy) samples are taken along the longer axis, at the
 * level of detail lambda = log2(Pmax / N) (the shorter axis' own level whenever N is not
 * clamped), each filtered linearly within and between mip levels, and averaged with equal
 * weights. The samples sit at the centres of N equal segments of the major axis, which is
 * centred on (u, v): (u, v) + D * ((i + 0.5) / N - 0.5), D the major axis' derivative in
 * texture coordinates. N = 1 (MaxAnisotropy 1, or a round footprint) is the isotropic linear
 * filter with lambda = log2(Pmax), as Linear computes it.
 */
static void sw_sample_anisotropic(const xgdi_native_texture *t, const sw_sampler *s, float u,
                                  float v, const float *deriv, float out[4])
{
    float w = (float)t->desc.width, h = (float)t->desc.height;
    float px = hypotf(deriv[0] * w, deriv[1] * h), py = hypotf(deriv[2] * w, deriv[3] * h);
    bool x_major = px >= py;
    float pmax = x_major ? px : py, pmin = x_major ? py : px;
    int n = s->anisotropy;
    if (pmin > 0.0f && pmax / pmin < (float)n) n = (int)ceilf(pmax / pmin);
    if (!(pmax > 0.0f) || !isfinite(pmax) || n < 1) n = 1; /* magnified, degenerate or NaN */
    float lod = pmax > 0.0f ? log2f(pmax / (float)n) : -1000.0f;
    if (!(lod == lod)) lod = 0.0f;
    float du = x_major ? deriv[0] : deriv[2], dv = x_major ? deriv[1] : deriv[3];
    if (n == 1) {
        sw_sample_face(t, 0, s, u, v, lod, s->desc->address_u, s->desc->address_v, out);
        return;
    }
    float acc[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < n; i++) {
        float k = ((float)i + 0.5f) / (float)n - 0.5f, tap[4];
        sw_sample_face(t, 0, s, u + du * k, v + dv * k, lod, s->desc->address_u,
                       s->desc->address_v, tap);
        for (int c = 0; c < 4; c++) acc[c] += tap[c];
    }
    for (int c = 0; c < 4; c++) out[c] = acc[c] / (float)n;
}

void sw_sample_2d_with(const xgdi_native_texture *t, const sw_sampler *s, float u, float v,
                       const float *deriv, float out[4])
{
    if (deriv != NULL && s->anisotropy > 1) {
        sw_sample_anisotropic(t, s, u, v, deriv, out);
        return;
    }
    float lod = 0.0f;
    if (deriv != NULL) {
        float w = (float)t->desc.width, h = (float)t->desc.height;
        float ux = deriv[0] * w, vx = deriv[1] * h, uy = deriv[2] * w, vy = deriv[3] * h;
        float rx = ux * ux + vx * vx, ry = uy * uy + vy * vy;
        float rho2 = rx > ry ? rx : ry;
        lod = rho2 > 0.0f ? 0.5f * log2f(rho2) : -1000.0f;
    }
    sw_sample_face(t, 0, s, u, v, lod, s->desc->address_u, s->desc->address_v, out);
}

/* Direct3D cube face table: major axis, then (sc, tc) per face, u = (sc/|ma| + 1)/2. */
int sw_cube_face(const float dir[3], float *u, float *v)
{
    float x = dir[0], y = dir[1], z = dir[2];
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
    int face;
    float sc, tc, ma;
    if (az >= ax && az >= ay) {
        ma = az;
        if (z >= 0.0f) { face = 4; sc = x; tc = -y; }
        else { face = 5; sc = -x; tc = -y; }
    } else if (ay >= ax) {
        ma = ay;
        if (y >= 0.0f) { face = 2; sc = x; tc = z; }
        else { face = 3; sc = x; tc = -z; }
    } else {
        ma = ax;
        if (x >= 0.0f) { face = 0; sc = -z; tc = -y; }
        else { face = 1; sc = z; tc = -y; }
    }
    if (!(ma > 0.0f)) {
        *u = *v = 0.5f;
        return face;
    }
    *u = 0.5f * (sc / ma + 1.0f);
    *v = 0.5f * (tc / ma + 1.0f);
    return face;
}

void sw_sample_cube(const xgdi_native_texture *t, const xgd_sampler_desc *s, const float dir[3],
                    float lod, float out[4])
{
    sw_sampler f;
    sw_sampler_init(&f, s);
    float u, v;
    int face = sw_cube_face(dir, &u, &v);
    if (face >= t->faces) face = 0;
    sw_sample_face(t, face, &f, u, v, lod, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, out);
}

/* ---- volumes ---- */

/* Texel (x, y, z) of a volume level's decoded copy; a 2D image is a volume of depth 1. */
static inline void sw_fetch3(const sw_image *img, int x, int y, int z, float out[4])
{
    sw_fetch(img, x, y + z * img->height, out);
}

static void sw_sample_level3(const sw_image *img, bool linear, const float uvw[3],
                             const xgd_sampler_desc *s, float out[4])
{
    int n[3] = { img->width, img->height, img->depth };
    xgd_texture_address_mode am[3] = { s->address_u, s->address_v, s->address_w };
    if (!linear) {
        int i[3];
        for (int a = 0; a < 3; a++) {
            i[a] = sw_ifloor(sw_safe_coord(uvw[a] * (float)n[a]));
            if (i[a] < 0 || i[a] >= n[a]) i[a] = sw_address(i[a], n[a], am[a]);
        }
        sw_fetch3(img, i[0], i[1], i[2], out);
        return;
    }
    int lo[3], hi[3];
    float frac[3];
    for (int a = 0; a < 3; a++) {
        float f = sw_safe_coord(uvw[a] * (float)n[a] - 0.5f);
        int i0 = sw_ifloor(f);
        frac[a] = f - (float)i0;
        lo[a] = i0 >= 0 && i0 < n[a] ? i0 : sw_address(i0, n[a], am[a]);
        hi[a] = i0 + 1 >= 0 && i0 + 1 < n[a] ? i0 + 1 : sw_address(i0 + 1, n[a], am[a]);
    }
    for (int c = 0; c < 4; c++) out[c] = 0.0f;
    for (int k = 0; k < 8; k++) {
        int bx = k & 1, by = (k >> 1) & 1, bz = (k >> 2) & 1;
        float wgt = (bx ? frac[0] : 1.0f - frac[0]) * (by ? frac[1] : 1.0f - frac[1]) *
                    (bz ? frac[2] : 1.0f - frac[2]);
        if (wgt == 0.0f) continue;
        float tx[4];
        sw_fetch3(img, bx ? hi[0] : lo[0], by ? hi[1] : lo[1], bz ? hi[2] : lo[2], tx);
        for (int c = 0; c < 4; c++) out[c] += tx[c] * wgt;
    }
}

void sw_sample_3d_with(const xgdi_native_texture *t, const sw_sampler *f, const float uvw[3],
                       const float *deriv, float out[4])
{
    const xgd_sampler_desc *s = f->desc;
    float lod = 0.0f;
    if (deriv != NULL) {
        float w = (float)t->desc.width, h = (float)t->desc.height;
        float d = (float)(t->desc.depth > 1 ? t->desc.depth : 1);
        float ux = deriv[0] * w, vx = deriv[1] * h, wx = deriv[4] * d;
        float uy = deriv[2] * w, vy = deriv[3] * h, wy = deriv[5] * d;
        float rx = ux * ux + vx * vx + wx * wx, ry = uy * uy + vy * vy + wy * wy;
        float rho2 = rx > ry ? rx : ry;
        lod = rho2 > 0.0f ? 0.5f * log2f(rho2) : -1000.0f;
    }
    /* level choice exactly as sw_sample_face (2D) */
    lod += s->mip_map_level_of_detail_bias;
    bool linear = lod > 0.0f ? f->min_linear : f->mag_linear;
    int levels = t->desc.levels;
    float lo = (float)(s->max_mip_level < 0 ? 0 : s->max_mip_level);
    float hi = (float)(levels - 1);
    if (lo > hi) lo = hi;
    if (!(lod >= lo)) lod = lo;
    if (lod > hi) lod = hi;
    if (!f->mip_linear || levels == 1) {
        int l = (int)floorf(lod + 0.5f);
        if (l > levels - 1) l = levels - 1;
        sw_sample_level3(&t->images[l], linear, uvw, s, out);
        return;
    }
    int l0 = (int)floorf(lod);
    float fr = lod - (float)l0;
    sw_sample_level3(&t->images[l0], linear, uvw, s, out);
    if (fr > 0.0f && l0 + 1 < levels) {
        float o2[4];
        sw_sample_level3(&t->images[l0 + 1], linear, uvw, s, o2);
        for (int c = 0; c < 4; c++) out[c] += (o2[c] - out[c]) * fr;
    }
}

void sw_sample_3d(const xgdi_native_texture *t, const xgd_sampler_desc *s, const float uvw[3],
                  const float *deriv, float out[4])
{
    sw_sampler f;
    sw_sampler_init(&f, s);
    sw_sample_3d_with(t, &f, uvw, deriv, out);
}
