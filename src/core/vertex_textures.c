/*
 * vertex_textures.c - XNA 4.0 HiDef's vertex texture slots: GraphicsDevice.VertexTextures[0..3]
 * and VertexSamplerStates[0..3], apart from the pixel stage's Textures[] / SamplerStates[].
 *
 * A user vertex shader's sampler register s reads vertex slot s (renderer.h, "samplers").
 * Every change marks XGDI_DIRTY_VERTEX_TEXTURES; a draw checks and copies the four slots into
 * the draw state only while that bit (or a program change, which changes what the slots must
 * hold) is set, so draws that change nothing here pay one test of the dirty mask.
 */
#include "internal.h"

#include <string.h>

/* The formats XNA's HiDef profile fetches in a vertex shader. */
bool xgdi_vertex_texture_format(xgd_surface_format f)
{
    return f == XGD_SURFACE_FORMAT_SINGLE || f == XGD_SURFACE_FORMAT_VECTOR2 || f == XGD_SURFACE_FORMAT_VECTOR4 ||
           f == XGD_SURFACE_FORMAT_HALF_SINGLE || f == XGD_SURFACE_FORMAT_HALF_VECTOR2 ||
           f == XGD_SURFACE_FORMAT_HALF_VECTOR4 || f == XGD_SURFACE_FORMAT_HDR_BLENDABLE;
}

static xgd_result check_vertex_slot(xgd_device *device, int slot)
{
    if (slot < 0 || slot >= XGDI_MAX_VERTEX_TEXTURE_SLOTS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex texture slot %d is outside 0..%d", slot,
                         XGDI_MAX_VERTEX_TEXTURE_SLOTS - 1);
    return XGD_OK;
}

void xgdi_bind_vertex_texture(xgd_device *device, int slot, xgd_texture *texture)
{
    if (device->vertex_textures[slot] != texture) {
        device->vertex_textures[slot] = texture;
        device->draw_state.dirty |= XGDI_DIRTY_VERTEX_TEXTURES;
    }
}

xgd_result xgd_set_vertex_texture(xgd_device *device, int slot, xgd_texture *texture)
{
    XGDI_RESOLVE(device, texture, XGDI_RES_TEXTURE, "texture");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    r = check_vertex_slot(device, slot);
    if (r != XGD_OK) return r;
    if (texture != NULL) {
        r = xgdi_check_resource(device, &texture->res, XGDI_RES_TEXTURE, "texture");
        if (r != XGD_OK) return r;
        /* XNA's Reach profile has no vertex texture fetch */
        if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
            return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                             "vertex textures need the HiDef profile (Reach has none)");
        if (!xgdi_vertex_texture_format(texture->format))
            return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                             "vertex texture slot %d: format %d cannot be sampled in a vertex shader (XNA "
                             "allows Single, Vector2, Vector4, HalfSingle, HalfVector2, HalfVector4 and "
                             "HdrBlendable)", slot, (int)texture->format);
    }
    xgdi_bind_vertex_texture(device, slot, texture);
    return XGD_OK;
}

xgd_result xgd_get_vertex_texture(xgd_device *device, int slot, xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    r = check_vertex_slot(device, slot);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->vertex_textures[slot]);
    return XGD_OK;
}

xgd_result xgd_set_vertex_sampler_state(xgd_device *device, int slot, xgd_sampler_state *state)
{
    XGDI_RESOLVE(device, state, XGDI_RES_SAMPLER_STATE, "sampler state");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    r = check_vertex_slot(device, slot);
    if (r != XGD_OK) return r;
    if (state == NULL) state = device->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
    r = xgdi_check_resource(device, &state->res, XGDI_RES_SAMPLER_STATE, "sampler state");
    if (r != XGD_OK) return r;
    if (device->vertex_sampler_states[slot] != state) {
        device->vertex_sampler_states[slot] = state;
        device->draw_state.dirty |= XGDI_DIRTY_VERTEX_TEXTURES;
    }
    return XGD_OK;
}

xgd_result xgd_get_vertex_sampler_state(xgd_device *device, int slot, xgd_sampler_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    r = check_vertex_slot(device, slot);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->vertex_sampler_states[slot]);
    return XGD_OK;
}

void xgdi_vertex_textures_init(xgd_device *dev)
{
    for (int i = 0; i < XGDI_MAX_VERTEX_TEXTURE_SLOTS; i++)
        if (dev->vertex_sampler_states[i] == NULL)
            dev->vertex_sampler_states[i] = dev->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
}

bool xgdi_vertex_textures_forget_texture(xgd_device *dev, xgd_texture *texture)
{
    bool touched = false;
    for (int i = 0; i < XGDI_MAX_VERTEX_TEXTURE_SLOTS; i++) {
        if (dev->vertex_textures[i] == texture) {
            dev->vertex_textures[i] = NULL;
            touched = true;
        }
        if (texture->native != NULL && dev->draw_state.vertex_textures[i] == texture->native) {
            dev->draw_state.vertex_textures[i] = NULL;
            touched = true;
        }
    }
    if (touched) dev->draw_state.dirty |= XGDI_DIRTY_VERTEX_TEXTURES;
    return touched;
}

void xgdi_vertex_textures_forget_sampler(xgd_device *dev, xgd_sampler_state *state)
{
    for (int i = 0; i < XGDI_MAX_VERTEX_TEXTURE_SLOTS; i++) {
        if (dev->vertex_sampler_states[i] == state) {
            dev->vertex_sampler_states[i] = dev->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
            dev->draw_state.dirty |= XGDI_DIRTY_VERTEX_TEXTURES;
        }
        if (dev->draw_state.vertex_samplers[i] == &state->desc) {
            dev->draw_state.vertex_samplers[i] = NULL;
            dev->draw_state.dirty |= XGDI_DIRTY_VERTEX_TEXTURES;
        }
    }
}

void xgdi_set_user_vertex_sampler_kinds(xgd_device *dev, const xgdi_sampler_kind *kinds)
{
    if (kinds == NULL) memset(dev->user_vertex_sampler_kinds, 0, sizeof dev->user_vertex_sampler_kinds);
    else memcpy(dev->user_vertex_sampler_kinds, kinds, sizeof dev->user_vertex_sampler_kinds);
}

/* The draw-time rules of the vertex slots a user vertex shader samples, as for pixel slots
 * (draw.c check_common): a live texture with storage, not bound for output, of the kind the
 * shader declares. Slots the shader does not sample are not looked at. */
xgd_result xgdi_check_vertex_textures(xgd_device *dev)
{
    if (dev->program != XGDI_PROGRAM_USER) return XGD_OK;
    for (int s = 0; s < XGDI_MAX_VERTEX_TEXTURE_SLOTS; s++) {
        xgd_texture *t = dev->vertex_textures[s];
        xgdi_sampler_kind k = dev->user_vertex_sampler_kinds[s];
        if (t == NULL || k == XGDI_SAMPLER_NONE) continue;
        if (xgdi_resource_device(&t->res) == NULL)
            return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED, "the texture in vertex texture slot %d is disposed", s);
        for (int j = 0; j < dev->binding_count; j++)
            if (dev->bindings[j].target == t)
                return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                 "the render target in vertex texture slot %d is also bound as render target "
                                 "%d; unbind it before sampling it", s, j);
        if (t->native == NULL)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the texture in vertex texture slot %d has no storage (its recovery failed)", s);
        bool cube = t->kind == XGD_TEXTURE_CUBE || t->kind == XGD_RENDER_TARGET_CUBE;
        bool vol = t->kind == XGD_TEXTURE_3D;
        bool ok = k == XGDI_SAMPLER_CUBE ? cube : k == XGDI_SAMPLER_3D ? vol : !cube && !vol;
        if (!ok)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the vertex shader samples register s%d as a %s texture, but vertex texture "
                             "slot %d holds a %s", s,
                             k == XGDI_SAMPLER_CUBE ? "cube" : k == XGDI_SAMPLER_3D ? "3D" : "2D", s,
                             cube ? "cube texture" : vol ? "Texture3D" : "2D texture");
    }
    return XGD_OK;
}

void xgdi_prepare_vertex_textures(xgd_device *dev)
{
    xgdi_draw_state *s = &dev->draw_state;
    for (int i = 0; i < XGDI_MAX_VERTEX_TEXTURE_SLOTS; i++) {
        s->vertex_textures[i] = dev->vertex_textures[i] != NULL ? dev->vertex_textures[i]->native : NULL;
        s->vertex_samplers[i] = &dev->vertex_sampler_states[i]->desc;
    }
}
