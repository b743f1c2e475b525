/*
 * sw_spirv_sample.c - the sampling callback of the SPIR-V executor for the software
 * renderer's textures: one request (four lanes) to sw_sample.c's rules.
 *
 * Level of detail: sw_sample.c selects the level from derivatives (rho = the longer of the
 * two footprint axes in texels, lod = log2(rho) + the sampler's bias). The executor's other
 * forms are expressed through the same rule so every path shares one level selection:
 *   - a shader bias b scales the derivatives by 2^b (log2(rho * 2^b) = log2(rho) + b, exact
 *     in binary floating point);
 *   - an explicit lod L is a round footprint of 2^L texels on both axes (rho = 2^L; also
 *     one tap for the anisotropic filter, whose ratio is then 1).
 * Cube maps take an explicit level (sw_sample_cube); their implicit level is log2 of the
 * larger direction derivative over the major axis, in face texels (the face spans 2 units
 * of the projected coordinates over `width` texels).
 */
#include "sw_spirv_sample.h"

#include <math.h>
#include <string.h>

static const xgd_sampler_desc sw_spirv_default_sampler = {
    XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, 4, 0, 0.0f
};

void xgdi_sw_spirv_textures_init(xgdi_sw_spirv_textures *t)
{
    memset(t, 0, sizeof *t);
}

void xgdi_sw_spirv_textures_set(xgdi_sw_spirv_textures *t, int slot,
                                const xgdi_native_texture *tex, const xgd_sampler_desc *s)
{
    if (slot < 0 || slot >= XGDI_SW_SPIRV_MAX_RESOURCES) return;
    t->texture[slot] = tex;
    t->desc[slot] = s != NULL ? *s : sw_spirv_default_sampler;
    sw_sampler_init(&t->sampler[slot], &t->desc[slot]);
    xgd_texture_filter f = t->desc[slot].filter;
    bool mixed = f == XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR ||
                 f == XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT ||
                 f == XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR ||
                 f == XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT;
    t->needs_lod[slot] = mixed || f == XGD_FILTER_ANISOTROPIC;
    if (tex != NULL) sw_texture_prepare_sampling((xgdi_native_texture *)tex);
}

void xgdi_sw_spirv_sample_textures(void *user, const xgdi_sw_spirv_sample_request *q,
                                   float out[4][4])
{
    const xgdi_sw_spirv_textures *t = user;
    int ti = q->image, si = q->sampler;
    const xgdi_native_texture *tex =
        ti >= 0 && ti < XGDI_SW_SPIRV_MAX_RESOURCES ? t->texture[ti] : NULL;
    if (tex == NULL || si < 0 || si >= XGDI_SW_SPIRV_MAX_RESOURCES) {
        /* an unbound slot reads (0, 0, 0, 1), as the stock programs' */
        for (int l = 0; l < 4; l++) {
            out[l][0] = out[l][1] = out[l][2] = 0.0f;
            out[l][3] = 1.0f;
        }
        return;
    }
    const sw_sampler *s = &t->sampler[si];
    /* a combined image-sampler or a texture whose sampler needs no level: no derivatives */
    bool use_lod = tex->desc.levels > 1 || t->needs_lod[si];
    float w = (float)tex->desc.width, h = (float)tex->desc.height;
    float d = (float)(tex->desc.depth > 1 ? tex->desc.depth : 1);
    for (int l = 0; l < 4; l++) {
        if (!(q->mask & (1u << l))) continue;
        float deriv[6];
        memcpy(deriv, q->deriv[l], sizeof deriv);
        if (q->kind == XGDI_SW_SPIRV_SAMPLE_LOD) {
            float r = exp2f(q->lod[l]);
            deriv[0] = r / w;
            deriv[1] = 0.0f;
            deriv[2] = 0.0f;
            deriv[3] = r / h;
            deriv[4] = 0.0f;
            deriv[5] = 0.0f;
        } else if (q->lod_bias[l] != 0.0f) {
            float k = exp2f(q->lod_bias[l]);
            for (int i = 0; i < 6; i++) deriv[i] *= k;
        }
        if (q->dim == XGDI_SW_SPIRV_DIM_CUBE && tex->faces == 6) {
            const float *c = q->coord[l];
            float ma = fmaxf(fabsf(c[0]), fmaxf(fabsf(c[1]), fabsf(c[2])));
            float lod;
            if (q->kind == XGDI_SW_SPIRV_SAMPLE_LOD) {
                lod = q->lod[l];
            } else {
                float gx = sqrtf(deriv[0] * deriv[0] + deriv[1] * deriv[1] + deriv[4] * deriv[4]);
                float gy = sqrtf(deriv[2] * deriv[2] + deriv[3] * deriv[3] + deriv[5] * deriv[5]);
                float rho = ma > 0.0f ? fmaxf(gx, gy) / ma * 0.5f * w : 0.0f;
                lod = rho > 0.0f ? log2f(rho) : -1000.0f;
            }
            sw_sample_cube(tex, s->desc, c, lod, out[l]);
        } else if (q->dim == XGDI_SW_SPIRV_DIM_3D) {
            (void)d;
            sw_sample_3d_with(tex, s, q->coord[l], deriv, out[l]);
        } else {
            sw_sample_2d_with(tex, s, q->coord[l][0], q->coord[l][1], use_lod ? deriv : NULL, out[l]);
        }
    }
}
