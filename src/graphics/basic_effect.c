/*
 * basic_effect.c - XNA's BasicEffect and SpriteEffect, plus the EXT MrtEffect (xgd.h;
 * constants: matrix, then one colour per render-target slot) and the EXT VolumeEffect
 * (constants: matrix, colour; its Texture3D in slot 0), as derived effects on the public API
 * (xgd_effect_create_derived): each is its compiled HLSL effect (shaders/stock/, compiled
 * ahead of time into shaders/generated/stock_xfx.h) with XNA's properties in the effect's
 * state, and an on_apply that turns them into the shader constants the way XNA's
 * EffectHelpers do (one float4 array parameter per effect, so an apply writes its block with
 * one parameter set), sets the texture parameter, and picks the technique (BasicEffect:
 * technique v is permutation v of the variant bits below, as XNA's BasicEffect picks a shader
 * index). Parameters are looked up once at creation; the state keeps their handles, which
 * stay valid in clones.
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
 *
 * Textures (BasicEffect.Texture, the VolumeEffect's) are kept as handles, which are weak
 * references: a texture destroyed behind the effect's back is found at apply
 * (xgd_resource_is_live) and reported with the effect's own message, never followed.
 */
#include "xgd.h"
#include "../../shaders/generated/stock_xfx.h"

#include <math.h>
#include <string.h>

/* BasicEffect's permutation bits: its technique index is their OR (shaders/stock/basic.fx). */
enum {
    BASIC_VERTEX_COLOR = 1 << 0, /* multiply by vertex COLOR0 */
    BASIC_TEXTURE = 1 << 1,      /* multiply by Texture (slot 0) at TEXCOORD0 */
    BASIC_LIGHTING = 1 << 2,     /* three directional lights, NORMAL0 */
    BASIC_PER_PIXEL = 1 << 3,    /* lighting evaluated per pixel (HiDef) */
    BASIC_FOG = 1 << 4           /* linear fog from fog_vector */
};

/* The constant rows of each effect, in the order of its float4 array parameter. */
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
_Static_assert(sizeof(basic_constants) == 26 * 16, "BasicConstants is 26 float4 rows");

typedef struct mrt_constants {
    float matrix[16];
    float colors[4][4];
} mrt_constants;

typedef struct volume_constants {
    float matrix[16];
    float color[4];
} volume_constants;

/* What every state starts with: the device (for messages; the effect's own, alive whenever
   the effect resolves) and the parameters apply writes. */
typedef struct common_state {
    xgd_device *device;
    xgd_effect_parameter constants;   /* the float4 array (SpriteEffect: its matrix) */
    xgd_effect_parameter texture;     /* Texture; id -1 when the effect has none */
} common_state;

typedef struct basic_state {
    common_state c;
    bool hidef;                       /* per-pixel lighting exists (HiDef profile) */
    xgd_basic_effect_params p;
    xgd_texture *texture;             /* BasicEffect.Texture (a weak handle) */
    basic_constants k;                /* scratch for apply: no allocation per apply */
} basic_state;

typedef struct sprite_state {
    common_state c;
    xgd_pixel_center pixel_center;    /* the device's, for the default projection */
    bool matrix_set;
    xgd_matrix matrix;                /* SpriteEffect.MatrixTransform when set */
} sprite_state;

typedef struct mrt_state {
    common_state c;
    xgd_matrix matrix;
    xgd_vector4 colors[4];
    mrt_constants k;
} mrt_state;

typedef struct volume_state {
    common_state c;
    xgd_matrix matrix;
    xgd_vector4 color;
    xgd_texture *texture;             /* the Texture3D (a weak handle) */
    volume_constants k;
} volume_state;

static xgd_result basic_apply(xgd_effect *effect, void *state);
static xgd_result sprite_apply(xgd_effect *effect, void *state);
static xgd_result mrt_apply(xgd_effect *effect, void *state);
static xgd_result volume_apply(xgd_effect *effect, void *state);

static const xgd_effect_class basic_class = { "BasicEffect", sizeof(basic_state), basic_apply };
static const xgd_effect_class sprite_class = { "SpriteEffect", sizeof(sprite_state), sprite_apply };
static const xgd_effect_class mrt_class = { "MrtEffect", sizeof(mrt_state), mrt_apply };
static const xgd_effect_class volume_class = { "VolumeEffect", sizeof(volume_state),
                                               volume_apply };

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

/* A derived effect of cls from `bytes`, its parameters looked up (`constants`; Texture when
   the effect has one) into the common part of its state, which is returned. */
static xgd_result create_effect(xgd_device *device, const unsigned char *bytes, size_t size,
                                const xgd_effect_class *cls, const char *constants,
                                xgd_effect **out, void **state)
{
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_derived(device, bytes, size, cls, out != NULL ? &e : NULL);
    if (r != XGD_OK) return r;
    *out = NULL;
    common_state *c = NULL;
    xgd_effect_parameter tex = { -1 };
    int count = 0;
    r = xgd_effect_get_state(e, cls, (void **)&c);
    if (r == XGD_OK) r = xgd_effect_find_parameter(e, constants, &c->constants);
    /* Texture is optional (the MrtEffect has none): looked up by walking the parameters, so
       its absence records no error */
    if (r == XGD_OK) r = xgd_effect_get_parameter_count(e, &count);
    for (int i = 0; i < count && r == XGD_OK; i++) {
        xgd_effect_parameter p;
        xgd_effect_parameter_info info;
        r = xgd_effect_get_parameter(e, i, &p);
        if (r == XGD_OK) r = xgd_effect_parameter_get_info(e, p, &info);
        if (r == XGD_OK && strcmp(info.name, "Texture") == 0) tex = p;
    }
    if (r != XGD_OK) {
        xgd_effect_destroy(e);
        return r;
    }
    c->device = device;
    c->texture = tex;
    *state = c;
    *out = e;
    return XGD_OK;
}

xgd_result xgd_basic_effect_create(xgd_device *device, xgd_effect **out)
{
    basic_state *s;
    xgd_result r = create_effect(device, xgd_stock_xfx_basic, sizeof xgd_stock_xfx_basic,
                                 &basic_class, "BasicConstants", out, (void **)&s);
    if (r != XGD_OK) return r;
    xgd_device_info info;
    r = xgd_device_get_info(device, &info);
    if (r != XGD_OK) {
        xgd_effect_destroy(*out);
        *out = NULL;
        return r;
    }
    s->hidef = info.profile != XGD_GRAPHICS_PROFILE_REACH;
    basic_defaults(&s->p);
    return XGD_OK;
}

xgd_result xgd_sprite_effect_create(xgd_device *device, xgd_effect **out)
{
    sprite_state *s;
    xgd_result r = create_effect(device, xgd_stock_xfx_sprite, sizeof xgd_stock_xfx_sprite,
                                 &sprite_class, "MatrixTransform", out, (void **)&s);
    if (r != XGD_OK) return r;
    xgd_device_info info;
    r = xgd_device_get_info(device, &info);
    if (r != XGD_OK) {
        xgd_effect_destroy(*out);
        *out = NULL;
        return r;
    }
    s->pixel_center = info.pixel_center;
    s->matrix = xgd_matrix_identity();
    return XGD_OK;
}

xgd_result xgd_mrt_effect_create(xgd_device *device, xgd_effect **out)
{
    mrt_state *s;
    xgd_result r = create_effect(device, xgd_stock_xfx_mrt, sizeof xgd_stock_xfx_mrt, &mrt_class,
                                 "MrtConstants", out, (void **)&s);
    if (r != XGD_OK) return r;
    s->matrix = xgd_matrix_identity();
    for (int i = 0; i < 4; i++) s->colors[i] = (xgd_vector4){ 1, 1, 1, 1 };
    return XGD_OK;
}

xgd_result xgd_volume_effect_create(xgd_device *device, xgd_effect **out)
{
    volume_state *s;
    xgd_result r = create_effect(device, xgd_stock_xfx_volume, sizeof xgd_stock_xfx_volume,
                                 &volume_class, "VolumeConstants", out, (void **)&s);
    if (r != XGD_OK) return r;
    s->matrix = xgd_matrix_identity();
    s->color = (xgd_vector4){ 1, 1, 1, 1 };
    return XGD_OK;
}

/* ---- validation ---------------------------------------------------------------------------- */

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

static bool finite_v4(xgd_vector4 v)
{
    return isfinite(v.x) && isfinite(v.y) && isfinite(v.z) && isfinite(v.w);
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

/* The state of an effect of cls (the effect checked: NULL, disposed, another kind). */
static xgd_result state_of(xgd_effect *effect, const xgd_effect_class *cls, void **state)
{
    return xgd_effect_get_state(effect, cls, state);
}

static xgd_result set_matrix(const common_state *c, const xgd_matrix *m, xgd_matrix *dst)
{
    if (m == NULL)
        return xgd_device_report_error(c->device, XGD_ERROR_INVALID_ARGUMENT, "matrix is NULL");
    if (!finite_floats(m->m, 16))
        return xgd_device_report_error(c->device, XGD_ERROR_INVALID_ARGUMENT,
                                       "the matrix has non-finite entries");
    *dst = *m;
    return XGD_OK;
}

/* A texture for an effect property: the effect's device's live texture of one of `kinds`
   (a bit per xgd_texture_kind), else `message`. */
static xgd_result check_texture(const common_state *c, xgd_texture *texture, unsigned kinds,
                                const char *message)
{
    xgd_result r = xgd_resource_check(c->device, texture, XGD_RESOURCE_TEXTURE, "texture");
    xgd_texture_info info;
    if (r == XGD_OK) r = xgd_texture_get_info(texture, &info);
    if (r != XGD_OK) return r;
    if ((kinds & (1u << info.kind)) == 0)
        return xgd_device_report_error(c->device, XGD_ERROR_INVALID_ARGUMENT, "%s", message);
    return XGD_OK;
}

/* ---- BasicEffect parameters ---------------------------------------------------------------- */

xgd_result xgd_basic_effect_get(const xgd_effect *effect, xgd_basic_effect_params *out)
{
    basic_state *s;
    /* the handle is opaque: reading through it changes nothing */
    xgd_result r = state_of((xgd_effect *)(uintptr_t)effect, &basic_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (out == NULL)
        return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = s->p;
    return XGD_OK;
}

xgd_result xgd_basic_effect_set(xgd_effect *effect, const xgd_basic_effect_params *p)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (p == NULL)
        return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT,
                                       "params is NULL");
    if (!params_finite(p))
        return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT,
                                       "BasicEffect parameters must be finite");
    s->p = *p;
    return XGD_OK;
}

xgd_result xgd_basic_effect_set_world(xgd_effect *effect, const xgd_matrix *m)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    return r != XGD_OK ? r : set_matrix(&s->c, m, &s->p.world);
}

xgd_result xgd_basic_effect_set_view(xgd_effect *effect, const xgd_matrix *m)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    return r != XGD_OK ? r : set_matrix(&s->c, m, &s->p.view);
}

xgd_result xgd_basic_effect_set_projection(xgd_effect *effect, const xgd_matrix *m)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    return r != XGD_OK ? r : set_matrix(&s->c, m, &s->p.projection);
}

/* BasicEffect.Texture is a Texture2D: cube and volume textures are refused. */
xgd_result xgd_basic_effect_set_texture(xgd_effect *effect, xgd_texture *texture)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    if (r == XGD_OK && texture != NULL)
        r = check_texture(&s->c, texture,
                          (1u << XGD_TEXTURE_2D) | (1u << XGD_RENDER_TARGET_2D),
                          "BasicEffect.Texture must be a 2D texture");
    if (r != XGD_OK) return r;
    s->texture = texture;
    return XGD_OK;
}

/* XNA EffectHelpers.EnableDefaultLighting: the key/fill/back rig. */
xgd_result xgd_basic_effect_enable_default_lighting(xgd_effect *effect)
{
    basic_state *s;
    xgd_result r = state_of(effect, &basic_class, (void **)&s);
    if (r != XGD_OK) return r;
    xgd_basic_effect_params *p = &s->p;
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
    sprite_state *s;
    xgd_result r = state_of(effect, &sprite_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        s->matrix_set = false;
        s->matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    r = set_matrix(&s->c, m, &s->matrix);
    if (r == XGD_OK) s->matrix_set = true;
    return r;
}

/* ---- MrtEffect (EXT) ----------------------------------------------------------------------- */

xgd_result xgd_mrt_effect_set_colors(xgd_effect *effect, const xgd_vector4 colors[4])
{
    mrt_state *s;
    xgd_result r = state_of(effect, &mrt_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (colors == NULL)
        return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT,
                                       "colors is NULL");
    for (int i = 0; i < 4; i++) {
        if (!finite_v4(colors[i]))
            return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT,
                                           "MrtEffect colour %d has non-finite components", i);
    }
    memcpy(s->colors, colors, sizeof s->colors);
    return XGD_OK;
}

xgd_result xgd_mrt_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m)
{
    mrt_state *s;
    xgd_result r = state_of(effect, &mrt_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        s->matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    return set_matrix(&s->c, m, &s->matrix);
}

/* ---- VolumeEffect (EXT) -------------------------------------------------------------------- */

xgd_result xgd_volume_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m)
{
    volume_state *s;
    xgd_result r = state_of(effect, &volume_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (m == NULL) {
        s->matrix = xgd_matrix_identity();
        return XGD_OK;
    }
    return set_matrix(&s->c, m, &s->matrix);
}

/* The VolumeEffect samples a Texture3D only: every other kind is refused here, as
 * BasicEffect.Texture refuses what is not 2D. */
xgd_result xgd_volume_effect_set_texture(xgd_effect *effect, xgd_texture *texture)
{
    volume_state *s;
    xgd_result r = state_of(effect, &volume_class, (void **)&s);
    if (r == XGD_OK && texture != NULL)
        r = check_texture(&s->c, texture, 1u << XGD_TEXTURE_3D,
                          "the VolumeEffect's texture must be a Texture3D");
    if (r != XGD_OK) return r;
    s->texture = texture;
    return XGD_OK;
}

xgd_result xgd_volume_effect_set_color(xgd_effect *effect, xgd_vector4 c)
{
    volume_state *s;
    xgd_result r = state_of(effect, &volume_class, (void **)&s);
    if (r != XGD_OK) return r;
    if (!finite_v4(c))
        return xgd_device_report_error(s->c.device, XGD_ERROR_INVALID_ARGUMENT,
                                       "VolumeEffect colour has non-finite components");
    s->color = c;
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

static void put4(float dst[4], xgd_vector4 v)
{
    dst[0] = v.x;
    dst[1] = v.y;
    dst[2] = v.z;
    dst[3] = v.w;
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

static int basic_variant(bool hidef, const xgd_basic_effect_params *p)
{
    int v = 0;
    if (p->vertex_color_enabled) v |= BASIC_VERTEX_COLOR;
    if (p->texture_enabled) v |= BASIC_TEXTURE;
    if (p->lighting_enabled) {
        v |= BASIC_LIGHTING;
        if (p->prefer_per_pixel_lighting && hidef) v |= BASIC_PER_PIXEL;
    }
    if (p->fog_enabled) v |= BASIC_FOG;
    return v;
}

/* Writes an effect's constant block and texture and picks `technique`. The parameters were
   found at creation, so a failure here is a mismatch with the effect source, returned as it
   is. */
static xgd_result write_block(xgd_effect *effect, const common_state *c, const float *constants,
                              int count, xgd_texture *texture, int technique)
{
    xgd_result r = xgd_effect_parameter_set_floats(effect, c->constants, constants, count);
    if (r == XGD_OK && c->texture.id >= 0)
        r = xgd_effect_parameter_set_texture(effect, c->texture, texture);
    if (r == XGD_OK) r = xgd_effect_set_current_technique(effect, technique);
    return r;
}

/* A property's texture at apply: NULL, or the handle while it still names the texture it was
   set to (a handle is a weak reference, so a destroyed one is never followed). */
static xgd_result live_texture(const common_state *c, xgd_texture *texture, const char *message,
                               xgd_texture **out)
{
    *out = NULL;
    if (texture == NULL) return XGD_OK;
    if (!xgd_resource_is_live(c->device, texture))
        return xgd_device_report_error(c->device, XGD_ERROR_OBJECT_DISPOSED, "%s", message);
    *out = texture;
    return XGD_OK;
}

static xgd_result basic_apply(xgd_effect *effect, void *state)
{
    basic_state *s = state;
    xgd_texture *tex = NULL;
    if (s->p.texture_enabled) {
        xgd_result r = live_texture(&s->c, s->texture, "the BasicEffect's texture is disposed",
                                    &tex);
        if (r != XGD_OK) return r;
    }
    basic_constants_of(&s->p, &s->k);
    return write_block(effect, &s->c, (const float *)(const void *)&s->k,
                       (int)(sizeof s->k / sizeof(float)), tex, basic_variant(s->hidef, &s->p));
}

static xgd_result sprite_apply(xgd_effect *effect, void *state)
{
    sprite_state *s = state;
    xgd_matrix m = s->matrix;
    xgd_result r = XGD_OK;
    /* The pixel projection of the current logical viewport, computed now so it follows
       viewport changes between applies. */
    if (!s->matrix_set) {
        xgd_viewport vp;
        r = xgd_get_viewport(s->c.device, &vp);
        if (r != XGD_OK) return r;
        m = xgd_matrix_create_sprite_projection(vp.width, vp.height, s->pixel_center);
    }
    /* SpriteEffect has no texture property: it samples whatever texture slot 0 holds
       (SpriteBatch sets it per batch), so its Texture parameter follows the slot. Its
       Texture is a Texture2D: another kind in the slot leaves the parameter unset, and the
       draw refuses the slot's texture until a 2D one is bound. */
    xgd_texture *tex = NULL;
    r = xgd_get_texture(s->c.device, 0, &tex);
    if (r != XGD_OK) return r;
    if (tex != NULL) {
        xgd_texture_info info;
        r = xgd_texture_get_info(tex, &info);
        if (r != XGD_OK) return r;
        if (info.kind != XGD_TEXTURE_2D && info.kind != XGD_RENDER_TARGET_2D) tex = NULL;
    }
    r = xgd_effect_parameter_set_matrix(effect, s->c.constants, &m);
    if (r == XGD_OK && s->c.texture.id >= 0)
        r = xgd_effect_parameter_set_texture(effect, s->c.texture, tex);
    return r;
}

static xgd_result mrt_apply(xgd_effect *effect, void *state)
{
    mrt_state *s = state;
    memcpy(s->k.matrix, s->matrix.m, sizeof s->k.matrix);
    for (int i = 0; i < 4; i++) put4(s->k.colors[i], s->colors[i]);
    return write_block(effect, &s->c, s->k.matrix, (int)(sizeof s->k / sizeof(float)), NULL, 0);
}

static xgd_result volume_apply(xgd_effect *effect, void *state)
{
    volume_state *s = state;
    xgd_texture *tex;
    xgd_result r = live_texture(&s->c, s->texture, "the VolumeEffect's texture is disposed", &tex);
    if (r != XGD_OK) return r;
    memcpy(s->k.matrix, s->matrix.m, sizeof s->k.matrix);
    put4(s->k.color, s->color);
    return write_block(effect, &s->c, s->k.matrix, (int)(sizeof s->k / sizeof(float)), tex, 0);
}
