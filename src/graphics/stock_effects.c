/*
 * stock_effects.c - XNA's AlphaTestEffect, DualTextureEffect, EnvironmentMapEffect and
 * SkinnedEffect as ordinary effects loaded from bytes: their compiled HLSL effects (.xfx in
 * shaders/generated/stock_xfx.h, from shaders/stock/{alphatest,dualtexture,envmap,skinned}.fx)
 * go through xgd_effect_create, so every build has them (no MojoShader needed), and this file
 * does what XNA's classes do in OnApply: it turns the public properties into the shader
 * constants and picks the technique. Only the public API is used.
 *
 * Each is a derived effect (xgd_effect_create_derived): its properties block is the effect's
 * state, so xgd_effect_clone keeps it and _get reads it back.
 *
 * Derived constants (XNA's EffectHelpers):
 *   WorldViewProj   World * View * Projection.
 *   DiffuseColor    unlit (AlphaTest, DualTexture): rgb = DiffuseColor * Alpha, a = Alpha;
 *                   lit (EnvironmentMap, Skinned): the same, and EmissiveColor =
 *                   (EmissiveColor + AmbientLightColor * DiffuseColor) * Alpha.
 *   FogVector       fog off: zero; FogStart == FogEnd: (0,0,0,1); else with wv = World * View,
 *                   s = 1 / (FogStart - FogEnd): (wv.m13, wv.m23, wv.m33, wv.m43 + FogStart) * s.
 *   EyePosition     the translation row of invert(View).
 *   WorldInverseTranspose  transpose(invert(World)), 3x3 part.
 *   DirLightN*      direction normalised (zero stays zero); colours zero for a disabled light.
 *   AlphaTest       reference = ReferenceAlpha / 255, threshold = 0.5 / 255:
 *                   Less (x = ref - t, z = 1, w = -1), LessEqual (ref + t, 1, -1),
 *                   GreaterEqual (ref - t, -1, 1), Greater (ref + t, -1, 1),
 *                   Equal (x = ref, y = t, z = 1, w = -1), NotEqual (ref, t, -1, 1),
 *                   Never (z = w = -1), Always (z = w = 1); the shader discards where
 *                   (a < x) ? z : w (Equal / NotEqual: (abs(a - x) < y) ? z : w) is negative.
 */
#include "xgd.h"
#include "../../shaders/generated/stock_xfx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef enum stock_kind { STOCK_ALPHA_TEST = 0, STOCK_DUAL_TEXTURE, STOCK_ENVIRONMENT_MAP, STOCK_SKINNED } stock_kind;

/* The classes: the state is the kind's properties block; the constants are derived when the
   properties are set, so there is nothing to do at apply. */
static const xgd_effect_class classes[] = {
    { "AlphaTestEffect", sizeof(xgd_alpha_test_effect_params), NULL },
    { "DualTextureEffect", sizeof(xgd_dual_texture_effect_params), NULL },
    { "EnvironmentMapEffect", sizeof(xgd_environment_map_effect_params), NULL },
    { "SkinnedEffect", sizeof(xgd_skinned_effect_params), NULL },
};

static const struct {
    const char *name;          /* XNA's class name */
    const unsigned char *bytes;
    size_t size;
} kinds[] = {
    { "AlphaTestEffect", xgd_stock_xfx_alphatest, sizeof xgd_stock_xfx_alphatest },
    { "DualTextureEffect", xgd_stock_xfx_dualtexture, sizeof xgd_stock_xfx_dualtexture },
    { "EnvironmentMapEffect", xgd_stock_xfx_envmap, sizeof xgd_stock_xfx_envmap },
    { "SkinnedEffect", xgd_stock_xfx_skinned, sizeof xgd_stock_xfx_skinned },
};

/* The effect's properties block after checking its kind (the effect checked: NULL, disposed,
   another kind); *dev is its device. */
static xgd_result check_kind(xgd_effect *effect, stock_kind kind, xgd_device **dev, void **state)
{
    *dev = NULL;
    xgd_result r = xgd_effect_get_state(effect, &classes[kind], state);
    if (r == XGD_OK) r = xgd_effect_get_device(effect, dev);
    return r;
}

static xgd_result store_properties(xgd_effect *effect, stock_kind kind, const void *in)
{
    void *state;
    xgd_device *dev;
    xgd_result r = check_kind(effect, kind, &dev, &state);
    if (r == XGD_OK) memcpy(state, in, classes[kind].state_size);
    return r;
}

/* What every _get does: the kind, a non-NULL out, the stored properties. */
static xgd_result get_stock(xgd_effect *effect, stock_kind kind, void *out)
{
    xgd_device *dev;
    void *state;
    xgd_result r = check_kind(effect, kind, &dev, &state);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    memcpy(out, state, classes[kind].state_size);
    return XGD_OK;
}

/* ---- helpers -------------------------------------------------------------------------------- */

static bool finite3(xgd_vector3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

static bool finite_matrix(const xgd_matrix *m)
{
    for (int i = 0; i < 16; i++) {
        if (!isfinite(m->m[i])) return false;
    }
    return true;
}

/* The properties every stock effect has, under the same names in each params struct. */
typedef struct common_params {
    const xgd_matrix *world, *view, *projection;
    xgd_vector3 diffuse_color;
    float alpha;
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
} common_params;

#define COMMON_PARAMS(p)                                                                           \
    ((common_params){ &(p)->world, &(p)->view, &(p)->projection, (p)->diffuse_color, (p)->alpha,   \
                      (p)->fog_enabled, (p)->fog_color, (p)->fog_start, (p)->fog_end })

static bool finite_common(const common_params *c)
{
    return finite_matrix(c->world) && finite_matrix(c->view) && finite_matrix(c->projection) &&
           finite3(c->diffuse_color) && isfinite(c->alpha) && finite3(c->fog_color) &&
           isfinite(c->fog_start) && isfinite(c->fog_end);
}

static bool finite_lights(const xgd_directional_light l[3])
{
    for (int i = 0; i < 3; i++) {
        if (!finite3(l[i].direction) || !finite3(l[i].diffuse_color) ||
            !finite3(l[i].specular_color))
            return false;
    }
    return true;
}

/* Parameter writes by name; the names are those of the effect sources in shaders/stock/, so
   a failure here is a mismatch between the two files and is returned as it is. */
static xgd_result set_v4(xgd_effect *e, const char *name, xgd_vector4 v)
{
    xgd_effect_parameter p;
    xgd_result r = xgd_effect_find_parameter(e, name, &p);
    return r != XGD_OK ? r : xgd_effect_parameter_set_vector4(e, p, v);
}

static xgd_result set_v3(xgd_effect *e, const char *name, xgd_vector3 v)
{
    xgd_effect_parameter p;
    xgd_result r = xgd_effect_find_parameter(e, name, &p);
    return r != XGD_OK ? r : xgd_effect_parameter_set_vector3(e, p, v);
}

static xgd_result set_f(xgd_effect *e, const char *name, float v)
{
    xgd_effect_parameter p;
    xgd_result r = xgd_effect_find_parameter(e, name, &p);
    return r != XGD_OK ? r : xgd_effect_parameter_set_float(e, p, v);
}

static xgd_result set_m(xgd_effect *e, const char *name, const xgd_matrix *m)
{
    xgd_effect_parameter p;
    xgd_result r = xgd_effect_find_parameter(e, name, &p);
    return r != XGD_OK ? r : xgd_effect_parameter_set_matrix(e, p, m);
}

static xgd_vector3 scale3(xgd_vector3 v, float s) { return (xgd_vector3){ v.x * s, v.y * s, v.z * s }; }

static xgd_vector3 normalize_or_zero(xgd_vector3 v)
{
    float len = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    if (!(len > 0.0f)) return (xgd_vector3){ 0, 0, 0 };
    return scale3(v, 1.0f / len);
}

/* WorldViewProj, FogColor and FogVector. */
static xgd_result set_transform_and_fog(xgd_effect *e, const common_params *c)
{
    const float fog_start = c->fog_start, fog_end = c->fog_end;
    xgd_matrix wv = xgd_matrix_multiply(c->world, c->view);
    xgd_matrix wvp = xgd_matrix_multiply(&wv, c->projection);
    xgd_vector4 fv = { 0, 0, 0, 0 };
    if (c->fog_enabled) {
        if (fog_start == fog_end) {
            fv.w = 1.0f;
        } else {
            float s = 1.0f / (fog_start - fog_end);
            fv = (xgd_vector4){ wv.m13 * s, wv.m23 * s, wv.m33 * s, (wv.m43 + fog_start) * s };
        }
    }
    xgd_result r = set_m(e, "WorldViewProj", &wvp);
    if (r == XGD_OK) r = set_v3(e, "FogColor", c->fog_color);
    if (r == XGD_OK) r = set_v4(e, "FogVector", fv);
    return r;
}

/* World, WorldInverseTranspose, EyePosition, material colours and the three lights. */
static xgd_result set_lighting(xgd_effect *e, const xgd_matrix *world, const xgd_matrix *view,
                               xgd_vector3 diffuse, float alpha, xgd_vector3 emissive,
                               xgd_vector3 ambient, const xgd_directional_light lights[3],
                               bool specular)
{
    xgd_matrix inv, view_inv;
    (void)xgd_matrix_invert(world, &inv);
    xgd_matrix wit = xgd_matrix_transpose(&inv);
    (void)xgd_matrix_invert(view, &view_inv);
    xgd_vector3 d = scale3(diffuse, alpha);
    xgd_vector3 em = { (emissive.x + ambient.x * diffuse.x) * alpha,
                       (emissive.y + ambient.y * diffuse.y) * alpha,
                       (emissive.z + ambient.z * diffuse.z) * alpha };
    xgd_result r = set_m(e, "World", world);
    if (r == XGD_OK) r = set_m(e, "WorldInverseTranspose", &wit);
    if (r == XGD_OK) r = set_v3(e, "EyePosition", (xgd_vector3){ view_inv.m41, view_inv.m42, view_inv.m43 });
    if (r == XGD_OK) r = set_v4(e, "DiffuseColor", (xgd_vector4){ d.x, d.y, d.z, alpha });
    if (r == XGD_OK) r = set_v3(e, "EmissiveColor", em);
    for (int i = 0; i < 3 && r == XGD_OK; i++) {
        char name[40];
        const xgd_directional_light *l = &lights[i];
        const xgd_vector3 zero = { 0, 0, 0 };
        snprintf(name, sizeof name, "DirLight%dDirection", i);
        r = set_v3(e, name, normalize_or_zero(l->direction));
        snprintf(name, sizeof name, "DirLight%dDiffuseColor", i);
        if (r == XGD_OK) r = set_v3(e, name, l->enabled ? l->diffuse_color : zero);
        snprintf(name, sizeof name, "DirLight%dSpecularColor", i);
        if (r == XGD_OK && specular) r = set_v3(e, name, l->enabled ? l->specular_color : zero);
    }
    return r;
}

/* The start every _set shares: the kind, non-NULL params, and then (once the caller has
   checked its own fields too) the message for non-finite values. */
static xgd_result begin_set(xgd_effect *effect, stock_kind kind, const void *params,
                            xgd_device **dev)
{
    void *state;
    xgd_result r = check_kind(effect, kind, dev, &state);
    if (r != XGD_OK) return r;
    if (params == NULL)
        return xgd_device_report_error(*dev, XGD_ERROR_INVALID_ARGUMENT, "params is NULL");
    return XGD_OK;
}

static xgd_result not_finite(xgd_device *dev, stock_kind kind)
{
    return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                   "%s parameters hold non-finite values", kinds[kind].name);
}

/* The end every _set shares: the technique XNA would pick (-1: the effect has one) and the
   properties, stored for _get and clones. */
static xgd_result finish_set(xgd_effect *effect, stock_kind kind, int technique, const void *params)
{
    xgd_result r = technique >= 0 ? xgd_effect_set_current_technique(effect, technique) : XGD_OK;
    return r == XGD_OK ? store_properties(effect, kind, params) : r;
}

/* The unlit effects' constants: transform, fog and DiffuseColor (rgb * Alpha, Alpha). */
static xgd_result set_unlit(xgd_effect *e, const common_params *c)
{
    xgd_vector3 d = scale3(c->diffuse_color, c->alpha);
    xgd_result r = set_transform_and_fog(e, c);
    if (r == XGD_OK) r = set_v4(e, "DiffuseColor", (xgd_vector4){ d.x, d.y, d.z, c->alpha });
    return r;
}

static void default_lights(xgd_directional_light lights[3])
{
    for (int i = 0; i < 3; i++) {
        lights[i] = (xgd_directional_light){ i == 0, { 0, -1, 0 }, { 1, 1, 1 }, { 0, 0, 0 } };
    }
}

static xgd_result create_stock(xgd_device *device, stock_kind kind, xgd_effect **out)
{
    if (out == NULL) {
        /* the device's own checks and message, as xgd_effect_create gives them */
        return xgd_effect_create_derived(device, kinds[kind].bytes, kinds[kind].size,
                                         &classes[kind], NULL);
    }
    *out = NULL;
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_derived(device, kinds[kind].bytes, kinds[kind].size,
                                             &classes[kind], &e);
    if (r != XGD_OK) return r;
    const xgd_matrix id = xgd_matrix_identity();
    const xgd_vector3 one = { 1, 1, 1 }, zero = { 0, 0, 0 };
    switch (kind) {
    case STOCK_ALPHA_TEST: {
        xgd_alpha_test_effect_params p = { id, id, id, one, 1, false, zero, 0, 1, false,
                                           XGD_COMPARE_GREATER, 0 };
        r = xgd_alpha_test_effect_set(e, &p);
        break;
    }
    case STOCK_DUAL_TEXTURE: {
        xgd_dual_texture_effect_params p = { id, id, id, one, 1, false, zero, 0, 1, false };
        r = xgd_dual_texture_effect_set(e, &p);
        break;
    }
    case STOCK_ENVIRONMENT_MAP: {
        xgd_environment_map_effect_params p;
        memset(&p, 0, sizeof p);
        p.world = p.view = p.projection = id;
        p.diffuse_color = one;
        p.alpha = 1;
        default_lights(p.lights);
        p.fog_end = 1;
        p.environment_map_amount = 1;
        p.fresnel_factor = 1;
        r = xgd_environment_map_effect_set(e, &p);
        break;
    }
    case STOCK_SKINNED: {
        xgd_skinned_effect_params p;
        memset(&p, 0, sizeof p);
        p.world = p.view = p.projection = id;
        p.diffuse_color = one;
        p.alpha = 1;
        p.specular_color = one;
        p.specular_power = 16;
        default_lights(p.lights);
        p.fog_end = 1;
        p.weights_per_vertex = 4;
        r = xgd_skinned_effect_set(e, &p);
        xgd_matrix bones[XGD_SKINNED_EFFECT_MAX_BONES];
        for (int i = 0; i < XGD_SKINNED_EFFECT_MAX_BONES; i++) bones[i] = id;
        if (r == XGD_OK)
            r = xgd_skinned_effect_set_bone_transforms(e, bones, XGD_SKINNED_EFFECT_MAX_BONES);
        break;
    }
    }
    if (r != XGD_OK) {
        xgd_effect_destroy(e);
        return r;
    }
    *out = e;
    return XGD_OK;
}

/* ---- AlphaTestEffect ------------------------------------------------------------------------ */

xgd_result xgd_alpha_test_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_stock(device, STOCK_ALPHA_TEST, out);
}

xgd_result xgd_alpha_test_effect_get(xgd_effect *effect, xgd_alpha_test_effect_params *out)
{
    return get_stock(effect, STOCK_ALPHA_TEST, out);
}

xgd_result xgd_alpha_test_effect_set(xgd_effect *effect, const xgd_alpha_test_effect_params *p)
{
    xgd_device *dev;
    xgd_result r = begin_set(effect, STOCK_ALPHA_TEST, p, &dev);
    if (r != XGD_OK) return r;
    const common_params c = COMMON_PARAMS(p);
    if (!finite_common(&c)) return not_finite(dev, STOCK_ALPHA_TEST);
    if (p->alpha_function < XGD_COMPARE_ALWAYS || p->alpha_function > XGD_COMPARE_NOT_EQUAL)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "AlphaFunction %d is not a compare function", (int)p->alpha_function);
    if (p->reference_alpha < 0 || p->reference_alpha > 255)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                       "ReferenceAlpha %d is outside 0..255",
                         p->reference_alpha);
    const float ref = (float)p->reference_alpha / 255.0f, t = 0.5f / 255.0f;
    xgd_vector4 at = { 0, 0, 1, 1 };
    float eqne = 0;
    switch (p->alpha_function) {
    case XGD_COMPARE_LESS: at = (xgd_vector4){ ref - t, 0, 1, -1 }; break;
    case XGD_COMPARE_LESS_EQUAL: at = (xgd_vector4){ ref + t, 0, 1, -1 }; break;
    case XGD_COMPARE_GREATER_EQUAL: at = (xgd_vector4){ ref - t, 0, -1, 1 }; break;
    case XGD_COMPARE_GREATER: at = (xgd_vector4){ ref + t, 0, -1, 1 }; break;
    case XGD_COMPARE_EQUAL: at = (xgd_vector4){ ref, t, 1, -1 }; eqne = 1; break;
    case XGD_COMPARE_NOT_EQUAL: at = (xgd_vector4){ ref, t, -1, 1 }; eqne = 1; break;
    case XGD_COMPARE_NEVER: at = (xgd_vector4){ 0, 0, -1, -1 }; break;
    default: break; /* Always */
    }
    r = set_unlit(effect, &c);
    if (r == XGD_OK) r = set_v4(effect, "AlphaTest", at);
    if (r == XGD_OK) r = set_f(effect, "AlphaTestEqNe", eqne);
    if (r == XGD_OK) r = finish_set(effect, STOCK_ALPHA_TEST, p->vertex_color_enabled ? 1 : 0, p);
    return r;
}

/* ---- DualTextureEffect ---------------------------------------------------------------------- */

xgd_result xgd_dual_texture_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_stock(device, STOCK_DUAL_TEXTURE, out);
}

xgd_result xgd_dual_texture_effect_get(xgd_effect *effect, xgd_dual_texture_effect_params *out)
{
    return get_stock(effect, STOCK_DUAL_TEXTURE, out);
}

xgd_result xgd_dual_texture_effect_set(xgd_effect *effect, const xgd_dual_texture_effect_params *p)
{
    xgd_device *dev;
    xgd_result r = begin_set(effect, STOCK_DUAL_TEXTURE, p, &dev);
    if (r != XGD_OK) return r;
    const common_params c = COMMON_PARAMS(p);
    if (!finite_common(&c)) return not_finite(dev, STOCK_DUAL_TEXTURE);
    r = set_unlit(effect, &c);
    if (r == XGD_OK) r = finish_set(effect, STOCK_DUAL_TEXTURE, p->vertex_color_enabled ? 1 : 0, p);
    return r;
}

/* ---- EnvironmentMapEffect ------------------------------------------------------------------- */

xgd_result xgd_environment_map_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_stock(device, STOCK_ENVIRONMENT_MAP, out);
}

xgd_result xgd_environment_map_effect_get(xgd_effect *effect,
                                          xgd_environment_map_effect_params *out)
{
    return get_stock(effect, STOCK_ENVIRONMENT_MAP, out);
}

xgd_result xgd_environment_map_effect_set(xgd_effect *effect,
                                          const xgd_environment_map_effect_params *p)
{
    xgd_device *dev;
    xgd_result r = begin_set(effect, STOCK_ENVIRONMENT_MAP, p, &dev);
    if (r != XGD_OK) return r;
    const common_params c = COMMON_PARAMS(p);
    if (!finite_common(&c) ||
        !finite3(p->emissive_color) || !finite3(p->ambient_light_color) ||
        !finite_lights(p->lights) || !isfinite(p->environment_map_amount) ||
        !finite3(p->environment_map_specular) || !isfinite(p->fresnel_factor))
        return not_finite(dev, STOCK_ENVIRONMENT_MAP);
    r = set_transform_and_fog(effect, &c);
    if (r == XGD_OK)
        r = set_lighting(effect, &p->world, &p->view, p->diffuse_color, p->alpha,
                         p->emissive_color, p->ambient_light_color, p->lights, false);
    if (r == XGD_OK) r = set_f(effect, "EnvironmentMapAmount", p->environment_map_amount);
    if (r == XGD_OK) r = set_v3(effect, "EnvironmentMapSpecular", p->environment_map_specular);
    if (r == XGD_OK) r = set_f(effect, "FresnelFactor", p->fresnel_factor);
    if (r == XGD_OK) r = finish_set(effect, STOCK_ENVIRONMENT_MAP, -1, p);
    return r;
}

/* ---- SkinnedEffect -------------------------------------------------------------------------- */

xgd_result xgd_skinned_effect_create(xgd_device *device, xgd_effect **out)
{
    return create_stock(device, STOCK_SKINNED, out);
}

xgd_result xgd_skinned_effect_get(xgd_effect *effect, xgd_skinned_effect_params *out)
{
    return get_stock(effect, STOCK_SKINNED, out);
}

xgd_result xgd_skinned_effect_set(xgd_effect *effect, const xgd_skinned_effect_params *p)
{
    xgd_device *dev;
    xgd_result r = begin_set(effect, STOCK_SKINNED, p, &dev);
    if (r != XGD_OK) return r;
    const common_params c = COMMON_PARAMS(p);
    if (!finite_common(&c) ||
        !finite3(p->emissive_color) || !finite3(p->ambient_light_color) ||
        !finite3(p->specular_color) || !isfinite(p->specular_power) || !finite_lights(p->lights))
        return not_finite(dev, STOCK_SKINNED);
    if (p->weights_per_vertex != 1 && p->weights_per_vertex != 2 && p->weights_per_vertex != 4)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "WeightsPerVertex %d is not 1, 2 or 4", p->weights_per_vertex);
    r = set_transform_and_fog(effect, &c);
    if (r == XGD_OK)
        r = set_lighting(effect, &p->world, &p->view, p->diffuse_color, p->alpha,
                         p->emissive_color, p->ambient_light_color, p->lights, true);
    if (r == XGD_OK) r = set_v3(effect, "SpecularColor", p->specular_color);
    if (r == XGD_OK) r = set_f(effect, "SpecularPower", p->specular_power);
    const int technique = (p->weights_per_vertex == 1 ? 0 : p->weights_per_vertex == 2 ? 1 : 2) +
                          (p->prefer_per_pixel_lighting ? 3 : 0);
    if (r == XGD_OK) r = finish_set(effect, STOCK_SKINNED, technique, p);
    return r;
}

xgd_result xgd_skinned_effect_set_bone_transforms(xgd_effect *effect, const xgd_matrix *bones,
                                                  int count)
{
    xgd_device *dev;
    void *state;
    xgd_result r = check_kind(effect, STOCK_SKINNED, &dev, &state);
    if (r != XGD_OK) return r;
    if (bones == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                                      "bones is NULL");
    if (count < 1 || count > XGD_SKINNED_EFFECT_MAX_BONES)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "%d bones: SkinnedEffect takes 1..%d bone transforms", count,
                         XGD_SKINNED_EFFECT_MAX_BONES);
    for (int i = 0; i < count; i++) {
        if (!finite_matrix(&bones[i]))
            return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                           "bone %d is not finite", i);
    }
    /* Bones [count, 72) keep their values (XNA's SetBoneTransforms sets the first count), so
       only the given elements are written; every element exists, so a failure here is a
       mismatch with the effect source shaders/stock/skinned.fx, returned as it is. */
    xgd_effect_parameter p;
    r = xgd_effect_find_parameter(effect, "Bones", &p);
    for (int i = 0; i < count && r == XGD_OK; i++) {
        xgd_effect_parameter el;
        r = xgd_effect_parameter_get_element(effect, p, i, &el);
        if (r == XGD_OK) r = xgd_effect_parameter_set_matrix(effect, el, &bones[i]);
    }
    return r;
}

xgd_result xgd_skinned_effect_get_bone_transforms(xgd_effect *effect, xgd_matrix *out, int count)
{
    xgd_device *dev;
    void *state;
    xgd_result r = check_kind(effect, STOCK_SKINNED, &dev, &state);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (count < 1 || count > XGD_SKINNED_EFFECT_MAX_BONES)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "%d bones: SkinnedEffect holds %d bone transforms", count,
                         XGD_SKINNED_EFFECT_MAX_BONES);
    xgd_matrix all[XGD_SKINNED_EFFECT_MAX_BONES];
    xgd_effect_parameter p;
    r = xgd_effect_find_parameter(effect, "Bones", &p);
    if (r == XGD_OK) r = xgd_effect_parameter_get_matrices(effect, p, all, XGD_SKINNED_EFFECT_MAX_BONES);
    if (r == XGD_OK) memcpy(out, all, (size_t)count * sizeof *out);
    return r;
}
