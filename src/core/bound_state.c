/*
 * bound_state.c - getters for what is bound on the device, as XNA's GraphicsDevice properties
 * read (BlendState, DepthStencilState, RasterizerState, SamplerStates[i], Textures[i],
 * BlendFactor, GetVertexBuffers, Indices), for the save / change / restore pattern:
 *
 *     xgd_blend_state *saved;
 *     xgd_get_blend_state(dev, &saved);
 *     xgd_set_blend_state(dev, additive);
 *     ... draw ...
 *     xgd_set_blend_state(dev, saved);
 *
 * Every state slot always holds an object: binding NULL binds XNA's default preset, so the
 * getter returns that preset object, as XNA returns BlendState.Opaque etc. Texture and buffer
 * slots may be empty (NULL). Bindings are public state, so a lost device answers too.
 *
 * Each getter hands the bound object to the caller as its public handle (XGDI_HANDLE_OF), never
 * the internal address.
 */
#include "internal.h"

#include <stddef.h>

/* The public handle of a bound object (objects are their own handles today). */
/* Device checks shared by the getters; each getter clears *out first, so a refused call
 * leaves no stale value behind. */
static xgd_result begin_get(xgd_device *device, const void *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    return XGD_OK;
}

static xgd_result check_get_slot(xgd_device *device, int slot)
{
    if (slot < 0 || slot >= XGDI_MAX_TEXTURE_SLOTS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "slot %d is outside 0..%d", slot,
                         XGDI_MAX_TEXTURE_SLOTS - 1);
    return XGD_OK;
}

xgd_result xgd_get_blend_state(xgd_device *device, xgd_blend_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->blend_state);
    return XGD_OK;
}

xgd_result xgd_get_depth_stencil_state(xgd_device *device, xgd_depth_stencil_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->depth_stencil_state);
    return XGD_OK;
}

xgd_result xgd_get_rasterizer_state(xgd_device *device, xgd_rasterizer_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->rasterizer_state);
    return XGD_OK;
}

xgd_result xgd_get_sampler_state(xgd_device *device, int slot, xgd_sampler_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r == XGD_OK) r = check_get_slot(device, slot);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->sampler_states[slot]);
    return XGD_OK;
}

xgd_result xgd_get_texture(xgd_device *device, int slot, xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r == XGD_OK) r = check_get_slot(device, slot);
    if (r != XGD_OK) return r;
    *out = XGDI_HANDLE_OF(device->textures[slot]);
    return XGD_OK;
}

/* XNA: assigning a BlendState sets GraphicsDevice.BlendFactor to the state's BlendFactor; xgd
 * has no separate setter, so the bound state's (applied) factor is the device's. */
xgd_result xgd_get_blend_factor(xgd_device *device, xgd_color *out)
{
    xgd_result r = begin_get(device, out);
    if (r != XGD_OK) return r;
    *out = device->blend_state->desc.blend_factor;
    return XGD_OK;
}

xgd_result xgd_get_vertex_buffer(xgd_device *device, xgd_vertex_buffer **out, int *vertex_offset)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r == XGD_OK && vertex_offset == NULL)
        r = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex_offset is NULL");
    if (r != XGD_OK) return r;
    *out = device->vertex_buffer != NULL ? device->vertex_buffer->buf.res.handle : NULL;
    *vertex_offset = device->vertex_buffer != NULL ? device->vertex_offset : 0;
    return XGD_OK;
}

xgd_result xgd_get_indices(xgd_device *device, xgd_index_buffer **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_get(device, out);
    if (r != XGD_OK) return r;
    *out = device->index_buffer != NULL ? device->index_buffer->buf.res.handle : NULL;
    return XGD_OK;
}
