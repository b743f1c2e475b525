/*
 * sw_shader.c - the stock programs in C, written to compute what XNA 4.0's stock HLSL computes
 * (SpriteEffect.fx, BasicEffect.fx with Common.fxh / Lighting.fxh), reading the constants of
 * renderer.h (xgdi_sprite_constants, xgdi_basic_constants) exactly as the GPU shaders will.
 *
 * Varyings (sw_vertex.v):
 *   sprite:          0-3 colour, 4-5 uv
 *   basic:           0-3 diffuse, 4-6 specular (vertex lighting), 7 fog factor, 8-9 uv
 *   basic per-pixel: 0-3 diffuse, 4-6 world position, 7 fog factor, 8-9 uv, 10-12 world normal
 *   mrt (EXT, shaders/mrt.hlsl): 0-3 colour; target i = colour * colors[i]
 *   volume (EXT, shaders/volume.hlsl): 0-2 uvw; colour = tex3D(uvw) * color
 */
#include "sw_internal.h"

#include <math.h>
#include <string.h>

/* ---- vertex fetch: all 12 xgd_vertex_element_format values ---- */

static float sw_rd_f32(const uint8_t *p)
{
    float f;
    memcpy(&f, p, 4);
    return f;
}

static float sw_rd_s16(const uint8_t *p)
{
    int16_t v;
    memcpy(&v, p, 2);
    return (float)v;
}

static float sw_rd_half(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return xgdi_half_to_float(v);
}

static float sw_snorm16(float v)
{
    float f = v / 32767.0f;
    return f < -1.0f ? -1.0f : f;
}

void sw_fetch_element(xgd_vertex_element_format f, const uint8_t *p, float o[4])
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

static const xgd_vertex_element *sw_find(const xgdi_vertex_layout *l, xgd_vertex_element_usage u)
{
    if (l == NULL) return NULL;
    for (int i = 0; i < l->count && i < 16; i++)
        if (l->elements[i].usage == u && l->elements[i].usage_index == 0) return &l->elements[i];
    return NULL;
}

static const xgd_sampler_desc sw_default_sampler = {
    XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, 4, 0, 0.0f
};

void sw_program_setup(sw_program *p, const xgdi_draw_state *st)
{
    memset(p, 0, sizeof *p);
    p->id = st->program;
    p->variant = st->variant;
    p->constants = st->constants;
    p->position = sw_find(st->layout, XGD_VERTEX_USAGE_POSITION);
    p->color = sw_find(st->layout, XGD_VERTEX_USAGE_COLOR);
    p->texcoord = sw_find(st->layout, XGD_VERTEX_USAGE_TEXTURE_COORDINATE);
    p->normal = sw_find(st->layout, XGD_VERTEX_USAGE_NORMAL);
    bool samples;
    p->uv_count = 2;
    if (p->id == XGDI_PROGRAM_VOLUME) {
        p->varyings = 3;
        p->uv_varying = 0;
        p->uv_count = 3;
        samples = true;
    } else if (p->id == XGDI_PROGRAM_SPRITE) {
        p->varyings = 6;
        p->uv_varying = 4;
        samples = true;
    } else if (p->id == XGDI_PROGRAM_MRT) {
        p->varyings = 4;
        p->uv_varying = -1;
        samples = false;
    } else {
        bool ppl = (p->variant & XGDI_BASIC_LIGHTING) && (p->variant & XGDI_BASIC_PER_PIXEL);
        p->varyings = ppl ? 13 : 10;
        samples = (p->variant & XGDI_BASIC_TEXTURE) != 0;
        p->uv_varying = samples ? 8 : -1;
    }
    if (samples) {
        p->texture = st->textures[0];
        p->sampler = st->samplers[0] != NULL ? st->samplers[0] : &sw_default_sampler;
        if (p->texture != NULL) {
            xgd_texture_filter f = p->sampler->filter;
            bool mixed = f == XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR ||
                         f == XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT ||
                         f == XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR ||
                         f == XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT;
            /* the footprint filter takes its taps from the derivatives even on one level */
            p->needs_lod = p->texture->desc.levels > 1 || mixed || f == XGD_FILTER_ANISOTROPIC;
            sw_sampler_init(&p->samp, p->sampler);
        }
    }
}

/* ---- math helpers ---- */

static void sw_mul4(const float v[4], const float m[16], float o[4])
{
    for (int c = 0; c < 4; c++)
        o[c] = v[0] * m[c] + v[1] * m[4 + c] + v[2] * m[8 + c] + v[3] * m[12 + c];
}

static float sw_dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void sw_normalize3(float v[3])
{
    float l = sqrtf(sw_dot3(v, v));
    if (l > 0.0f) {
        v[0] /= l;
        v[1] /= l;
        v[2] /= l;
    }
}

static float sw_saturate(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

/* XNA Lighting.fxh ComputeLights: three directional lights, Blinn-Phong half vectors,
   zeroL = step(0, dot(N, -L)) masks both terms. */
static void sw_compute_lights(const xgdi_basic_constants *k, const float eye[3], const float n[3],
                              float diffuse[3], float specular[3])
{
    float dsum[3] = { 0, 0, 0 }, ssum[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++) {
        const float *L = k->light_direction[i];
        float dotL = -sw_dot3(L, n);
        float h[3] = { eye[0] - L[0], eye[1] - L[1], eye[2] - L[2] };
        sw_normalize3(h);
        float dotH = sw_dot3(h, n);
        float zeroL = dotL >= 0.0f ? 1.0f : 0.0f;
        float d = zeroL * dotL;
        float sbase = (dotH > 0.0f ? dotH : 0.0f) * zeroL;
        float s = powf(sbase, k->specular_color_power[3]);
        for (int c = 0; c < 3; c++) {
            dsum[c] += d * k->light_diffuse[i][c];
            ssum[c] += s * k->light_specular[i][c];
        }
    }
    for (int c = 0; c < 3; c++) {
        diffuse[c] = dsum[c] * k->diffuse_color[c] + k->emissive_color[c];
        specular[c] = ssum[c] * k->specular_color_power[c];
    }
}

static void sw_world_normal(const xgdi_basic_constants *k, const float n[4], float o[3])
{
    const float *w = k->world_inverse_transpose;
    for (int c = 0; c < 3; c++) o[c] = n[0] * w[c] + n[1] * w[4 + c] + n[2] * w[8 + c];
    sw_normalize3(o);
}

/* ---- vertex stage ----
 * XNA's stock vertex shaders are vs_2_0/vs_3_0 programs: Direct3D 9 clamps their colour outputs
 * (oD0 = COLOR0, the diffuse; oD1 = COLOR1, the specular and, in w, the fog factor) to 0..1 per
 * vertex, before interpolation. So the diffuse (unlit: DiffuseColor, which holds Diffuse +
 * Emissive; vertex lighting: the lit colour, ambient and emissive included), the vertex-lit
 * specular and the fog factor are saturated here, per vertex; an interpolated value never
 * exceeds 1 even where one vertex's unclamped value would. */

void sw_vertex_shade(const sw_program *p, const uint8_t *vertex, sw_vertex *out)
{
    float pos[4] = { 0, 0, 0, 1 }, col[4] = { 1, 1, 1, 1 }, uv[4] = { 0, 0, 0, 1 };
    if (vertex != NULL) {
        if (p->position) sw_fetch_element(p->position->format, vertex + p->position->offset, pos);
        if (p->color) sw_fetch_element(p->color->format, vertex + p->color->offset, col);
        if (p->texcoord) sw_fetch_element(p->texcoord->format, vertex + p->texcoord->offset, uv);
    }
    if (p->id == XGDI_PROGRAM_SPRITE) {
        const xgdi_sprite_constants *k = p->constants;
        sw_mul4(pos, k->matrix_transform, out->clip);
        memcpy(out->v, col, sizeof col);
        out->v[4] = uv[0];
        out->v[5] = uv[1];
        return;
    }
    if (p->id == XGDI_PROGRAM_MRT) {
        const xgdi_mrt_constants *k = p->constants;
        sw_mul4(pos, k->matrix, out->clip);
        memcpy(out->v, col, sizeof col);
        return;
    }
    if (p->id == XGDI_PROGRAM_VOLUME) {
        /* TEXCOORD0 read as float3: a two-component element gives w = 0 */
        const xgdi_volume_constants *k = p->constants;
        sw_mul4(pos, k->matrix, out->clip);
        out->v[0] = uv[0];
        out->v[1] = uv[1];
        out->v[2] = uv[2];
        return;
    }
    const xgdi_basic_constants *k = p->constants;
    uint32_t var = p->variant;
    sw_mul4(pos, k->world_view_proj, out->clip);
    float *v = out->v;
    v[7] = (var & XGDI_BASIC_FOG) ? sw_saturate(pos[0] * k->fog_vector[0] + pos[1] * k->fog_vector[1] +
                                                pos[2] * k->fog_vector[2] + pos[3] * k->fog_vector[3])
                                  : 0.0f;
    v[8] = uv[0];
    v[9] = uv[1];
    float nrm[4] = { 0, 0, 0, 1 };
    if ((var & XGDI_BASIC_LIGHTING) && vertex != NULL && p->normal)
        sw_fetch_element(p->normal->format, vertex + p->normal->offset, nrm);
    bool vc = (var & XGDI_BASIC_VERTEX_COLOR) != 0;
    if (!(var & XGDI_BASIC_LIGHTING)) {
        /* VSBasic(Vc): Diffuse = DiffuseColor (* Color) */
        for (int c = 0; c < 4; c++) v[c] = sw_saturate(k->diffuse_color[c] * (vc ? col[c] : 1.0f));
        v[4] = v[5] = v[6] = 0.0f;
        return;
    }
    float wp[4];
    sw_mul4(pos, k->world, wp);
    float wn[3];
    sw_world_normal(k, nrm, wn);
    if (var & XGDI_BASIC_PER_PIXEL) {
        /* VSBasicPixelLighting(Vc): Diffuse = (1,1,1,a) or (Color.rgb, Color.a * a), in 0..1
           already; the light is computed per pixel and not clamped before the output. */
        if (vc) {
            v[0] = col[0];
            v[1] = col[1];
            v[2] = col[2];
            v[3] = col[3] * k->diffuse_color[3];
        } else {
            v[0] = v[1] = v[2] = 1.0f;
            v[3] = k->diffuse_color[3];
        }
        v[4] = wp[0];
        v[5] = wp[1];
        v[6] = wp[2];
        v[10] = wn[0];
        v[11] = wn[1];
        v[12] = wn[2];
        return;
    }
    /* VSBasicVertexLighting(Vc) */
    float eye[3] = { k->eye_position[0] - wp[0], k->eye_position[1] - wp[1],
                     k->eye_position[2] - wp[2] };
    sw_normalize3(eye);
    float d[3], s[3];
    sw_compute_lights(k, eye, wn, d, s);
    v[0] = d[0];
    v[1] = d[1];
    v[2] = d[2];
    v[3] = k->diffuse_color[3];
    if (vc)
        for (int c = 0; c < 4; c++) v[c] *= col[c];
    v[4] = s[0];
    v[5] = s[1];
    v[6] = s[2];
    for (int c = 0; c < 7; c++) v[c] = sw_saturate(v[c]);
}

/* ---- pixel stage ---- */

static void sw_tex(const sw_program *p, const float *v, const float *deriv, float out[4])
{
    if (p->texture == NULL) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return;
    }
    sw_sample_2d_with(p->texture, &p->samp, v[p->uv_varying], v[p->uv_varying + 1],
                      p->needs_lod ? deriv : NULL, out);
}

void sw_pixel_shade_mrt(const sw_program *p, const float *v, int target, float out[4])
{
    const xgdi_mrt_constants *k = p->constants;
    for (int c = 0; c < 4; c++) out[c] = v[c] * k->colors[target][c];
}

void sw_pixel_shade(const sw_program *p, const float *v, const float *uv_deriv, float out[4])
{
    if (p->id == XGDI_PROGRAM_MRT) {
        sw_pixel_shade_mrt(p, v, 0, out);
        return;
    }
    if (p->id == XGDI_PROGRAM_VOLUME) {
        const xgdi_volume_constants *k = p->constants;
        float t[4] = { 0.0f, 0.0f, 0.0f, 1.0f }; /* no texture: (0,0,0,1) as an unbound slot */
        if (p->texture != NULL)
            sw_sample_3d_with(p->texture, &p->samp, v, p->needs_lod ? uv_deriv : NULL, t);
        for (int c = 0; c < 4; c++) out[c] = t[c] * k->color[c];
        return;
    }
    if (p->id == XGDI_PROGRAM_SPRITE) {
        float t[4];
        sw_tex(p, v, uv_deriv, t);
        for (int c = 0; c < 4; c++) out[c] = t[c] * v[c];
        return;
    }
    const xgdi_basic_constants *k = p->constants;
    uint32_t var = p->variant;
    float color[4] = { v[0], v[1], v[2], v[3] };
    if (var & XGDI_BASIC_TEXTURE) {
        float t[4];
        sw_tex(p, v, uv_deriv, t);
        for (int c = 0; c < 4; c++) color[c] *= t[c];
    }
    if (var & XGDI_BASIC_LIGHTING) {
        float spec[3];
        if (var & XGDI_BASIC_PER_PIXEL) {
            float eye[3] = { k->eye_position[0] - v[4], k->eye_position[1] - v[5],
                             k->eye_position[2] - v[6] };
            sw_normalize3(eye);
            float n[3] = { v[10], v[11], v[12] };
            sw_normalize3(n);
            float d[3];
            sw_compute_lights(k, eye, n, d, spec);
            for (int c = 0; c < 3; c++) color[c] *= d[c];
        } else {
            spec[0] = v[4];
            spec[1] = v[5];
            spec[2] = v[6];
        }
        /* AddSpecular: color.rgb += specular * color.a */
        for (int c = 0; c < 3; c++) color[c] += spec[c] * color[3];
    }
    if (var & XGDI_BASIC_FOG) {
        /* ApplyFog: lerp(color.rgb, FogColor * color.a, fogFactor) */
        float f = v[7];
        for (int c = 0; c < 3; c++)
            color[c] += (k->fog_color[c] * color[3] - color[c]) * f;
    }
    memcpy(out, color, sizeof color);
}
