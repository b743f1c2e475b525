/*
 * sw_spirv_sample.h - wires the SPIR-V executor's sampling callback to the software
 * renderer's textures and samplers (sw_sample.c).
 *
 * Usage per draw: xgdi_sw_spirv_textures_init, then xgdi_sw_spirv_textures_set for each
 * reflected resource index (a combined image-sampler's index gets its texture and sampler;
 * separate images and samplers each get theirs: the texture at the image's index, the
 * sampler desc at the sampler's index), then
 *     xgdi_sw_spirv_bind_sampler(state, xgdi_sw_spirv_sample_textures, &textures);
 */
#ifndef XGD_SW_SPIRV_SAMPLE_H
#define XGD_SW_SPIRV_SAMPLE_H

#include "sw_internal.h"
#include "sw_spirv.h"

typedef struct xgdi_sw_spirv_textures {
    const xgdi_native_texture *texture[XGDI_SW_SPIRV_MAX_RESOURCES];
    xgd_sampler_desc desc[XGDI_SW_SPIRV_MAX_RESOURCES];
    sw_sampler sampler[XGDI_SW_SPIRV_MAX_RESOURCES];
    /* per sampler slot: whether its filter makes the level of detail matter on a one-level
       texture (min and mag differ, or anisotropy); with neither that nor several levels,
       level 0 is sampled without computing one, as the stock programs do */
    bool needs_lod[XGDI_SW_SPIRV_MAX_RESOURCES];
} xgdi_sw_spirv_textures;

void xgdi_sw_spirv_textures_init(xgdi_sw_spirv_textures *t);
/* slot: a resource index of the module's reflection. tex may be NULL (reads 0,0,0,1);
   s NULL means the default sampler (linear, wrap). Makes the texture's images decoded. */
void xgdi_sw_spirv_textures_set(xgdi_sw_spirv_textures *t, int slot,
                                const xgdi_native_texture *tex, const xgd_sampler_desc *s);
/* the xgdi_sw_spirv_sample_fn; user = the xgdi_sw_spirv_textures */
void xgdi_sw_spirv_sample_textures(void *user, const xgdi_sw_spirv_sample_request *q,
                                   float out[4][4]);

#endif /* XGD_SW_SPIRV_SAMPLE_H */
