/*
 * stock_effect.c - the stock effects: BasicEffect and SpriteEffect, plus the
 * EXT MrtEffect (xgd.h; constants: matrix, then one colour per render-target slot) and the
 * EXT VolumeEffect (constants: matrix, colour; its Texture3D in slot 0).
 *
 * Each is an ordinary effect on the path of effects loaded from bytes: its HLSL source
 * (shaders/stock/, one .fx per effect) was compiled ahead of time to .xfx (shaders/generated/stock_xfx.h), so
 * every build has it without a compiler. The effect keeps XNA's properties; xgd_effect_apply
 * turns them into the shader constants the way XNA's EffectHelpers do (one float4 array
 * parameter per effect, so an apply writes its block with one parameter set), sets the
 * texture parameter, and applies the technique the properties pick (BasicEffect: technique v
 * is permutation v of the variant bits below, as XNA's BasicEffect picks a shader index).
 *
 * What every basic_constants field holds after apply (the rows of BasicConstants):
 *
 *   world_view_proj   World * View * Projection; clip = float4(pos, 1) * world_view_proj.
 *   world             World.
 *   world_inverse_transpose  rows 0..2 = rows 0..2 of transpose(invert(World)), 3x3 part,
 *                     w = 0; world normal = normalize(float3 normal * that 3x3). A singular
 *                     World gives the identity here (xgd_matrix_invert's answer).
 *   eye_position      xyz = translation row of invert(View) (the camera in world space), w 0.
 *   diffuse_color     lit:   rgb = DiffuseColor * Alpha, a = Alpha.
 *                     unlit: rgb = (DiffuseColor + EmissiveColor) * Alpha, a = Alpha
 *                     (XNA's SetMaterialColor folds emissive in when lighting is off).
 *   emissive_color    lit:   rgb = (EmissiveColor + AmbientLightColor * DiffuseColor) * Alpha,
 *                     a = 0; unlit: zero (unused).
 *   specular_color_power  rgb = SpecularColor (not premultiplied; the shader adds
 *                     specular * colour.a), a = SpecularPower.
 *   light_direction[i]  xyz = normalize(Direction) (a zero direction stays zero), w 0.
 *   light_diffuse[i], light_specular[i]  the light's colours, w 0; zero when the light is
 *                     disabled or lighting is off.
 *   fog_color         rgb = FogColor, a 0.
 *   fog_vector        fog off: zero. FogStart == FogEnd: (0,0,0,1) (everything fogged).
 *                     Otherwise, with wv = World * View and s = 1 / (FogStart - FogEnd):
 *                     (wv.m13 * s, wv.m23 * s, wv.m33 * s, (wv.m43 + FogStart) * s);
 *                     fog factor = saturate(dot(float4(pos, 1), fog_vector)), pos in object
 *                     space, applied as lerp(colour.rgb, FogColor * colour.a, factor).
 *
 * Variant bits: VERTEX_COLOR, TEXTURE, LIGHTING, FOG follow the parameters; PER_PIXEL is set
 * only when lighting is on, PreferPerPixelLighting is set and the profile is HiDef.
 */
#include "internal.h"
#include "effect.h"
#include "stock_xfx.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* BasicEffect's permutation bits: its technique index is their OR (shaders/stock/basic.fx). */
enum {
    BASIC_VERTEX_COLOR = 1 << 0, /* multiply by vertex COLOR0 */
    BASIC_TEXTURE = 1 << 1,      /* multiply by Texture (slot 0) at TEXCOORD0 */
    BASIC_LIGHTING = 1 << 2,     /* three directional lights, NORMAL0 */
    BASIC_PER_PIXEL = 1 << 3,    /* lighting evaluated per pixel (HiDef) */
    BASIC_FOG = 1 << 4           /* linear fog from fog_vector */
};

/* ---- creation ------------------------------------------------------------------------------ */

static void basic_defaults(xgd_basic_effect_params *p)
{
    memset(p, 0, sizeof *p);
    p->world = p->view = p->projection = xgd_matrix_identity();
    p->diffuse_color = (xgd_vector3){ 1, 1, 1 };
    p->alpha = 1;
    p->specular_color = (xgd_vector3){ 1, 1, 1 };
    p->specular_power = 16;
    for (int i = 0; i < 3; i++) {
        p->lights[i].direction = (xgd_vector3){ 0, -1, 0 };
        p->lights[i].diffuse_color = (xgd_vector3){ 1, 1, 1 };
    }
    /* XNA's BasicEffect constructor enables DirectionalLight0 (used once lighting is on). */
    p->lights[0].enabled = true;
    p->fog_start = 0;
    p->fog_end = 1;
}

/* A stock effect: its compiled effect, and the parameters apply writes. */
static xgd_result create_effect(xgd_device *device, effect_kind kind, xgd_effect **out)
{
    static const struct {
        const char *name;
        const char *constants;
    } stock[] = {
        [EFFECT_SPRITE] = { "sprite", "MatrixTransform" },
        [EFFECT_BASIC] = { "basic", "BasicConstants" },
        [EFFECT_MRT] = { "mrt", "MrtConstants" },
        [EFFECT_VOLUME] = { "volume", "VolumeConstants" },
    };
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    xgdi_fx *fx = device->stock_spare[kind];
    device->stock_spare[kind] = NULL;
    if (fx == NULL) {
        size_t size;
        const unsigned char *bytes = xgdi_stock_xfx(stock[kind].name, &size);
        r = xgdi_fx_load(device, bytes, size, &fx);
        if (r != XGD_OK) return r;
    }
    int constants = xgdi_fx_parameter_id(fx, stock[kind].constants);
    int texture = xgdi_fx_parameter_id(fx, "Texture");
    if (constants < 0) {
        xgdi_fx_free(device, fx);
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION, "the stock effect lacks %s",
                         stock[kind].constants);
    }
    r = xgdi_effect_create_with(device, kind, fx, out);
    if (r != XGD_OK) {
        xgdi_fx_free(device, fx);
        return r;
    }
    xgd_effect *e = (xgd_effect *)(void *)xgdi_handle_get(*out, XGDI_RES_EFFECT);
    e->constants_param = constants;
    e->texture_param = texture;
    /* XNA's defaults of the properties */
    basic_defaults(&e->basic);
    e->sprite_matrix = xgd_matrix_identity();
    e->mrt_matrix = xgd_matrix_identity();
    for (int i = 0; i < 4; i++) e->mrt_colors[i] = (xgd_vector4){ 1, 1, 1, 1 };
    e->volume_matrix = xgd_matrix_identity();
    e->volume_color = (xgd_vector4){ 1, 1, 1, 1 };
    return XGD_OK;
}

xgd_result xgd_basic_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_effect(device, EFFECT_BASIC, out);
}

xgd_result xgd_sprite_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_effect(device, EFFECT_SPRITE, out);
}

xgd_result xgd_mrt_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_effect(device, EFFECT_MRT, out);
}

xgd_result xgd_volume_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_effect(device, EFFECT_VOLUME, out);
}


static bool finite_floats(const float *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(f[i])) return false;
    }
    return true;
}

static bool finite_v3(xgd_vector3 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z);
}

static bool params_finite(const xgd_basic_effect_params *p)
{
    if (!finite_floats(p->world.m, 16) || !finite_floats(p->view.m, 16) ||
        !finite_floats(p->projection.m, 16))
        return false;
    if (!finite_v3(p->diffuse_color) || !finite_v3(p->emissive_color) ||
        !finite_v3(p->specular_color) || !finite_v3(p->ambient_light_color) ||
        !finite_v3(p->fog_color))
        return false;
    if (!isfinite(p->alpha) || !isfinite(p->specular_power) || !isfinite(p->fog_start) ||
        !isfinite(p->fog_end))
        return false;
    for (int i = 0; i < 3; i++) {
        if (!finite_v3(p->lights[i].direction) || !finite_v3(p->lights[i].diffuse_color) ||
            !finite_v3(p->lights[i].specular_color))
            return false;
    }
    return true;
}

/* ---- BasicEffect parameters ---------------------------------------------------------------- */

xgd_result xgd_basic_effect_get(const xgd_effect *effect, xgd_basic_effect_params *out)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    if (r != XGD_OK) return r;
    if (out == NULL)
        return xgdi_fail(xgdi_resource_device(&effect->res), XGD_ERROR_INVALID_ARGUMENT,
                         "out is NULL");
    *out = effect->basic;
    return XGD_OK;
}

xgd_result xgd_basic_effect_set(xgd_effect *effect, const xgd_basic_effect_params *p)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (p == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "params is NULL");
    if (!params_finite(p))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "BasicEffect parameters must be finite");
    effect->basic = *p;
    return XGD_OK;
}

static xgd_result set_matrix(xgd_effect *effect, const xgd_matrix *m, xgd_matrix *dst)
{
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (m == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "matrix is NULL");
    if (!finite_floats(m->m, 16))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the matrix has non-finite entries");
    *dst = *m;
    return XGD_OK;
}

xgd_result xgd_basic_effect_set_world(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    return r != XGD_OK ? r : set_matrix(effect, m, &effect->basic.world);
}

xgd_result xgd_basic_effect_set_view(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    return r != XGD_OK ? r : set_matrix(effect, m, &effect->basic.view);
}

xgd_result xgd_basic_effect_set_projection(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    return r != XGD_OK ? r : set_matrix(effect, m, &effect->basic.projection);
}

/* BasicEffect.Texture is a Texture2D: cube and volume textures are refused. */
xgd_result xgd_basic_effect_set_texture(xgd_effect *effect, xgd_texture *texture)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    XGDI_RESOLVE(XGDI_OWNER(effect), texture, XGDI_RES_TEXTURE, "texture");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (texture != NULL) {
        r = xgdi_check_resource(dev, &texture->res, XGDI_RES_TEXTURE, "texture");
        if (r != XGD_OK) return r;
        if (texture->kind == XGD_TEXTURE_CUBE || texture->kind == XGD_RENDER_TARGET_CUBE ||
            texture->kind == XGD_TEXTURE_3D)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "BasicEffect.Texture must be a 2D texture");
    }
    effect->texture = texture;
    effect->texture_ref = texture != NULL ? xgdi_ref_make(&texture->res) : (xgdi_ref){ 0, 0 };
    return XGD_OK;
}

/* XNA EffectHelpers.EnableDefaultLighting: the key/fill/back rig. */
xgd_result xgd_basic_effect_enable_default_lighting(xgd_effect *effect)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_BASIC);
    if (r != XGD_OK) return r;
    xgd_basic_effect_params *p = &effect->basic;
    p->lighting_enabled = true;
    p->ambient_light_color = (xgd_vector3){ 0.05333332f, 0.09882354f, 0.1819608f };
    p->lights[0] = (xgd_directional_light){
        true, { -0.5265408f, -0.5735765f, -0.6275069f }, { 1.0f, 0.9607844f, 0.8078432f },
        { 1.0f, 0.9607844f, 0.8078432f } };
    p->lights[1] = (xgd_directional_light){
        true, { 0.7198464f, 0.3420201f, 0.6040227f }, { 0.9647059f, 0.7607844f, 0.4078432f },
        { 0.0f, 0.0f, 0.0f } };
    p->lights[2] = (xgd_directional_light){
        true, { 0.4545195f, -0.7660444f, 0.4545195f }, { 0.3231373f, 0.3607844f, 0.3937255f },
        { 0.3231373f, 0.3607844f, 0.3937255f } };
    return XGD_OK;
}

/* ---- SpriteEffect -------------------------------------------------------------------------- */

xgd_result xgd_sprite_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_SPRITE);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        effect->sprite_matrix_set = false;
        effect->sprite_matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    r = set_matrix(effect, m, &effect->sprite_matrix);
    if (r == XGD_OK) effect->sprite_matrix_set = true;
    return r;
}

/* ---- MrtEffect (EXT) ----------------------------------------------------------------------- */

xgd_result xgd_mrt_effect_set_colors(xgd_effect *effect, const xgd_vector4 colors[4])
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_MRT);
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (colors == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "colors is NULL");
    for (int i = 0; i < 4; i++) {
        const xgd_vector4 c = colors[i];
        if (!(isfinite(c.x) && isfinite(c.y) && isfinite(c.z) && isfinite(c.w)))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "MrtEffect colour %d has non-finite components", i);
    }
    memcpy(effect->mrt_colors, colors, sizeof effect->mrt_colors);
    return XGD_OK;
}

xgd_result xgd_mrt_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_MRT);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        effect->mrt_matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    return set_matrix(effect, m, &effect->mrt_matrix);
}

/* ---- VolumeEffect (EXT) -------------------------------------------------------------------- */

xgd_result xgd_volume_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_VOLUME);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        effect->volume_matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    return set_matrix(effect, m, &effect->volume_matrix);
}

/* The VolumeEffect samples a Texture3D only: every other kind is refused here, as
 * BasicEffect.Texture refuses what is not 2D. */
xgd_result xgd_volume_effect_set_texture(xgd_effect *effect, xgd_texture *texture)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    XGDI_RESOLVE(XGDI_OWNER(effect), texture, XGDI_RES_TEXTURE, "texture");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_VOLUME);
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (texture != NULL) {
        r = xgdi_check_resource(dev, &texture->res, XGDI_RES_TEXTURE, "texture");
        if (r != XGD_OK) return r;
        if (texture->kind != XGD_TEXTURE_3D)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "the VolumeEffect's texture must be a Texture3D");
    }
    effect->texture = texture;
    effect->texture_ref = texture != NULL ? xgdi_ref_make(&texture->res) : (xgdi_ref){ 0, 0 };
    return XGD_OK;
}

xgd_result xgd_volume_effect_set_color(xgd_effect *effect, xgd_vector4 c)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    xgd_result r = xgdi_effect_check_kind(effect, EFFECT_VOLUME);
    if (r != XGD_OK) return r;
    if (!(isfinite(c.x) && isfinite(c.y) && isfinite(c.z) && isfinite(c.w)))
        return xgdi_fail(xgdi_resource_device(&effect->res), XGD_ERROR_INVALID_ARGUMENT,
                         "VolumeEffect colour has non-finite components");
    effect->volume_color = c;
    return XGD_OK;
}

/* ---- apply --------------------------------------------------------------------------------- */

static void put3(float dst[4], xgd_vector3 v, float w)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
    dst[3] = w;
}

static xgd_vector3 normalize_or_zero(xgd_vector3 v)
{
    float len = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!(len > 0.0f)) return (xgd_vector3){ 0, 0, 0 };
    return (xgd_vector3){ v.x / len, v.y / len, v.z / len };
}

static void basic_constants_of(const xgd_basic_effect_params *p, basic_constants *c)
{
    memset(c, 0, sizeof *c);
    xgd_matrix wv = xgd_matrix_multiply(&p->world, &p->view);
    xgd_matrix wvp = xgd_matrix_multiply(&wv, &p->projection);
    memcpy(c->world_view_proj, wvp.m, sizeof c->world_view_proj);
    memcpy(c->world, p->world.m, sizeof c->world);

    xgd_matrix world_inverse;
    (void)xgd_matrix_invert(&p->world, &world_inverse);
    xgd_matrix wit = xgd_matrix_transpose(&world_inverse);
    for (int row = 0; row < 3; row++) {
        for (int col = 0; col < 3; col++)
            c->world_inverse_transpose[row * 4 + col] = wit.m[row * 4 + col];
        c->world_inverse_transpose[row * 4 + 3] = 0.0f;
    }

    xgd_matrix view_inverse;
    (void)xgd_matrix_invert(&p->view, &view_inverse);
    c->eye_position[0] = view_inverse.m41;
    c->eye_position[1] = view_inverse.m42;
    c->eye_position[2] = view_inverse.m43;

    float a = p->alpha;
    const xgd_vector3 d = p->diffuse_color, e = p->emissive_color, amb = p->ambient_light_color;
    if (p->lighting_enabled) {
        put3(c->diffuse_color, (xgd_vector3){ d.x * a, d.y * a, d.z * a }, a);
        put3(c->emissive_color,
             (xgd_vector3){ (e.x + amb.x * d.x) * a, (e.y + amb.y * d.y) * a,
                            (e.z + amb.z * d.z) * a },
             0.0f);
        for (int i = 0; i < 3; i++) {
            const xgd_directional_light *l = &p->lights[i];
            put3(c->light_direction[i], normalize_or_zero(l->direction), 0.0f);
            if (l->enabled) {
                put3(c->light_diffuse[i], l->diffuse_color, 0.0f);
                put3(c->light_specular[i], l->specular_color, 0.0f);
            }
        }
    } else {
        put3(c->diffuse_color, (xgd_vector3){ (d.x + e.x) * a, (d.y + e.y) * a, (d.z + e.z) * a },
             a);
    }
    put3(c->specular_color_power, p->specular_color, p->specular_power);

    put3(c->fog_color, p->fog_color, 0.0f);
    if (p->fog_enabled) {
        if (p->fog_start == p->fog_end) {
            c->fog_vector[3] = 1.0f;
        } else {
            float s = 1.0f / (p->fog_start - p->fog_end);
            c->fog_vector[0] = wv.m13 * s;
            c->fog_vector[1] = wv.m23 * s;
            c->fog_vector[2] = wv.m33 * s;
            c->fog_vector[3] = (wv.m43 + p->fog_start) * s;
        }
    }
}

static uint32_t basic_variant(const xgd_device *dev, const xgd_basic_effect_params *p)
{
    uint32_t v = 0;
    if (p->vertex_color_enabled) v |= BASIC_VERTEX_COLOR;
    if (p->texture_enabled) v |= BASIC_TEXTURE;
    if (p->lighting_enabled) {
        v |= BASIC_LIGHTING;
        if (p->prefer_per_pixel_lighting && dev->desc.profile != XGD_GRAPHICS_PROFILE_REACH)
            v |= BASIC_PER_PIXEL;
    }
    if (p->fog_enabled) v |= BASIC_FOG;
    return v;
}

/* SpriteBatch's and SpriteEffect's pixel projection: CreateOrthographicOffCenter(0, width,
 * height, 0, 0, -1), preceded under Direct3D 9 pixel centres (XGD_PIXEL_CENTER_XNA) by XNA's
 * CreateTranslation(-0.5, -0.5, 0), which cancels the half pixel the rasterizer adds (draw.c),
 * so a sprite's texels land 1:1 on pixels in both conventions. Near 0, far -1: z passes
 * through, so depths in 0..1 stay inside the D3D clip range 0 <= z <= w (far 1 would negate z
 * and clip everything above 0). */
xgd_matrix xgdi_sprite_projection(const xgd_device *dev, int width, int height)
{
    xgd_matrix m =
        xgd_matrix_create_orthographic_off_center(0.0f, (float)width, (float)height, 0.0f,
                                                  0.0f, -1.0f);
    if (dev->desc.pixel_center == XGD_PIXEL_CENTER_XNA) {
        xgd_matrix half = xgd_matrix_create_translation(-0.5f, -0.5f, 0.0f);
        m = xgd_matrix_multiply(&half, &m);
    }
    return m;
}

/* Writes a stock effect's constants and texture and applies `technique`. */
static xgd_result stock_apply(xgd_device *dev, xgd_effect *effect, const float *constants,
                              int count, xgd_texture *texture, int technique)
{
    xgd_result r = xgdi_fx_set_floats(dev, effect->fx, effect->constants_param, constants, count);
    if (r == XGD_OK && effect->texture_param >= 0)
        r = xgdi_fx_set_texture(dev, effect->fx, effect->texture_param, texture);
    if (r != XGD_OK) return r;
    return xgdi_fx_apply(dev, effect->fx, technique, 0);
}

xgd_result xgdi_stock_effect_apply(xgd_device *dev, xgd_effect *effect)
{
    xgd_result r;
    if (effect->kind == EFFECT_SPRITE) {
        xgd_matrix m = effect->sprite_matrix;
        /* The pixel projection of the current logical viewport, computed now so it follows
           viewport changes between applies. */
        if (!effect->sprite_matrix_set)
            m = xgdi_sprite_projection(dev, dev->viewport.width, dev->viewport.height);
        /* SpriteEffect has no texture property: it samples whatever texture slot 0 holds
           (SpriteBatch sets it per batch), so its Texture parameter follows the slot. */
        r = stock_apply(dev, effect, m.m, 16, dev->textures[0], 0);
        /* a pixel-shader-only pass applied next keeps this vertex shader (SpriteBatch with a
           custom sprite effect) */
        if (r == XGD_OK) dev->sprite_vs = dev->user_vs;
        return r;
    }

    if (effect->kind == EFFECT_MRT) {
        mrt_constants *k = &effect->constants.mrt;
        memcpy(k->matrix, effect->mrt_matrix.m, sizeof k->matrix);
        for (int i = 0; i < 4; i++) {
            k->colors[i][0] = effect->mrt_colors[i].x;
            k->colors[i][1] = effect->mrt_colors[i].y;
            k->colors[i][2] = effect->mrt_colors[i].z;
            k->colors[i][3] = effect->mrt_colors[i].w;
        }
        return stock_apply(dev, effect, k->matrix, (int)(sizeof *k / sizeof(float)), NULL, 0);
    }

    if (effect->kind == EFFECT_VOLUME) {
        xgd_texture *tex = NULL;
        if (effect->texture != NULL) {
            /* weak reference, as BasicEffect.Texture below */
            xgdi_resource *res = xgdi_ref_get(dev, effect->texture_ref);
            if (res == NULL)
                return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED,
                                 "the VolumeEffect's texture is disposed");
            tex = (xgd_texture *)(void *)res;
        }
        volume_constants *k = &effect->constants.volume;
        memcpy(k->matrix, effect->volume_matrix.m, sizeof k->matrix);
        k->color[0] = effect->volume_color.x;
        k->color[1] = effect->volume_color.y;
        k->color[2] = effect->volume_color.z;
        k->color[3] = effect->volume_color.w;
        return stock_apply(dev, effect, k->matrix, (int)(sizeof *k / sizeof(float)), tex, 0);
    }

    const xgd_basic_effect_params *p = &effect->basic;
    xgd_texture *tex = NULL;
    if (p->texture_enabled && effect->texture != NULL) {
        /* The effect holds XNA's plain parameter; the weak reference keeps a texture destroyed
           behind the effect's back from being followed (O(1), nothing freed is read). */
        xgdi_resource *res = xgdi_ref_get(dev, effect->texture_ref);
        if (res == NULL)
            return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED,
                             "the BasicEffect's texture is disposed");
        tex = (xgd_texture *)(void *)res;
    }
    basic_constants_of(p, &effect->constants.basic);
    _Static_assert(sizeof(basic_constants) == 26 * 16, "BasicConstants is 26 float4 rows");
    return stock_apply(dev, effect, (const float *)(const void *)&effect->constants.basic,
                       (int)(sizeof(basic_constants) / sizeof(float)), tex,
                       (int)basic_variant(dev, p));
}
