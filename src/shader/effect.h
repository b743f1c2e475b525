/*
 * effect.h - the xgd_effect object shared by the Effect API (src/shader/effect.c: creation,
 * destruction, the spare stock bodies, apply's dispatch) and the stock effects
 * (src/shader/stock_effect.c: XNA's properties turned into the stock .xfx's constants).
 */
#ifndef XGD_EFFECT_OBJECT_H
#define XGD_EFFECT_OBJECT_H

#include "fx.h"

/* The constant rows of each stock effect, in the order of its float4 array parameter. */
typedef struct basic_constants {
    float diffuse_color[4];
    float emissive_color[4];
    float specular_color_power[4];
    float light_direction[3][4];
    float light_diffuse[3][4];
    float light_specular[3][4];
    float eye_position[4];
    float fog_color[4];
    float fog_vector[4];
    float world[16];
    float world_inverse_transpose[12];
    float world_view_proj[16];
} basic_constants;

typedef struct mrt_constants {
    float matrix[16];
    float colors[4][4];
} mrt_constants;

typedef struct volume_constants {
    float matrix[16];
    float color[4];
} volume_constants;

typedef enum effect_kind {
    EFFECT_SPRITE = 0, EFFECT_BASIC, EFFECT_MRT, EFFECT_VOLUME,
    EFFECT_USER                       /* loaded from bytes: everything is in fx (src/shader) */
} effect_kind;

struct xgd_effect {
    xgdi_resource res;
    effect_kind kind;
    xgd_basic_effect_params basic;
    xgd_texture *texture;             /* BasicEffect.Texture; the VolumeEffect's Texture3D */
    xgdi_ref texture_ref;             /* followed only while this still resolves to it */
    bool sprite_matrix_set;
    xgd_matrix sprite_matrix;         /* SpriteEffect.MatrixTransform when set */
    xgd_matrix mrt_matrix;            /* MrtEffect (EXT) */
    xgd_vector4 mrt_colors[4];
    xgd_matrix volume_matrix;         /* VolumeEffect (EXT) */
    xgd_vector4 volume_color;
    xgdi_fx *fx;                      /* the effect body (stock kinds: their .xfx) */
    int constants_param;              /* stock kinds: the float4 array (sprite: the matrix) */
    int texture_param;                /* stock kinds: Texture, or -1 */
    union {
        basic_constants basic;
        mrt_constants mrt;
        volume_constants volume;
    } constants;                      /* scratch for apply: no allocation per apply */
};

/* A new registered effect of `kind` around body fx (fx stays the caller's on failure). */
xgd_result xgdi_effect_create_with(xgd_device *device, effect_kind kind, xgdi_fx *fx,
                                   xgd_effect **out);
/* Refuses (with a message naming the wanted kind) an effect that does not resolve or is not a
 * `kind` effect. */
xgd_result xgdi_effect_check_kind(const xgd_effect *effect, effect_kind kind);
/* xgd_effect_apply of a stock effect (src/shader/stock_effect.c); effect, dev checked. */
xgd_result xgdi_stock_effect_apply(xgd_device *dev, xgd_effect *effect);

#endif
