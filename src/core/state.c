/*
 * state.c - immutable state objects (BlendState, DepthStencilState, RasterizerState,
 * SamplerState), XNA's presets, the device's state bindings and the device-level objects
 * created with the device.
 *
 * A state object stores its desc normalised: every DEFAULT enum is replaced by XNA's default,
 * masks are explicit and, for blend states without independent_blend, targets 1..3 carry
 * target 0's blend (with their own write channels). Renderers and get_desc both see that
 * form, and feeding get_desc's result back into create gives an equal state.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- normalisation ------------------------------------------------------------------------- */

static bool blend_valid(xgd_blend b) { return (unsigned)b < XGD_BLEND_COUNT; }
static bool blend_function_valid(xgd_blend_function f)
{
    return (unsigned)f < XGD_BLEND_FUNCTION_COUNT;
}
static bool compare_valid(xgd_compare_function f) { return (unsigned)f < XGD_COMPARE_COUNT; }
static bool stencil_op_valid(xgd_stencil_operation op)
{
    return (unsigned)op < XGD_STENCIL_OP_COUNT;
}
static bool address_valid(xgd_texture_address_mode a) { return (unsigned)a < XGD_ADDRESS_COUNT; }

static xgd_blend blend_or(xgd_blend b, xgd_blend def) { return b == XGD_BLEND_DEFAULT ? def : b; }
static xgd_blend_function function_or(xgd_blend_function f)
{
    return f == XGD_BLEND_FUNCTION_DEFAULT ? XGD_BLEND_FUNCTION_ADD : f;
}
static xgd_compare_function compare_or(xgd_compare_function f, xgd_compare_function def)
{
    return f == XGD_COMPARE_DEFAULT ? def : f;
}
static xgd_stencil_operation op_or(xgd_stencil_operation op)
{
    return op == XGD_STENCIL_OP_DEFAULT ? XGD_STENCIL_OP_KEEP : op;
}
static xgd_texture_address_mode address_or(xgd_texture_address_mode a)
{
    return a == XGD_ADDRESS_DEFAULT ? XGD_ADDRESS_WRAP : a;
}

/* Write channels: any combination of the four bits; 0 writes nothing. */
static bool channels_valid(unsigned c)
{
    return c <= XGD_COLOR_WRITE_ALL;
}

static xgd_result normalize_blend(xgd_device *dev, const xgd_blend_state_desc *in,
                                  xgd_blend_state_desc *out)
{
    static const xgd_blend_state_desc defaults = XGD_BLEND_STATE_DESC_DEFAULT;
    xgd_blend_state_desc d = in != NULL ? *in : defaults;
    for (int i = 0; i < 4; i++) {
        const xgd_target_blend_desc *t = &d.target[i];
        if (!blend_function_valid(t->color_blend_function) ||
            !blend_function_valid(t->alpha_blend_function) ||
            !blend_valid(t->color_source_blend) || !blend_valid(t->color_destination_blend) ||
            !blend_valid(t->alpha_source_blend) || !blend_valid(t->alpha_destination_blend))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "blend state target %d: unknown blend or blend function value", i);
        if (!channels_valid(t->color_write_channels))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "blend state target %d: invalid color_write_channels 0x%x", i,
                             t->color_write_channels);
    }
    for (int i = 0; i < 4; i++) {
        xgd_target_blend_desc *t = &d.target[i];
        /* XNA's model: one blend for all targets, per-target write channels
           (ColorWriteChannels1..3). */
        if (i > 0 && !d.independent_blend) {
            unsigned channels = t->color_write_channels;
            *t = d.target[0];
            t->color_write_channels = channels;
        }
        t->color_blend_function = function_or(t->color_blend_function);
        t->alpha_blend_function = function_or(t->alpha_blend_function);
        t->color_source_blend = blend_or(t->color_source_blend, XGD_BLEND_ONE);
        t->alpha_source_blend = blend_or(t->alpha_source_blend, XGD_BLEND_ONE);
        t->color_destination_blend = blend_or(t->color_destination_blend, XGD_BLEND_ZERO);
        t->alpha_destination_blend = blend_or(t->alpha_destination_blend, XGD_BLEND_ZERO);
    }
    *out = d;
    return XGD_OK;
}

static xgd_result normalize_depth_stencil(xgd_device *dev, const xgd_depth_stencil_desc *in,
                                          xgd_depth_stencil_desc *out)
{
    static const xgd_depth_stencil_desc defaults = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    xgd_depth_stencil_desc d = in != NULL ? *in : defaults;
    if (!compare_valid(d.depth_function) || !compare_valid(d.stencil_function) ||
        !compare_valid(d.ccw_stencil_function))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "depth-stencil state: unknown compare function");
    if (!stencil_op_valid(d.stencil_pass) || !stencil_op_valid(d.stencil_fail) ||
        !stencil_op_valid(d.stencil_depth_fail) || !stencil_op_valid(d.ccw_stencil_pass) ||
        !stencil_op_valid(d.ccw_stencil_fail) || !stencil_op_valid(d.ccw_stencil_depth_fail))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "depth-stencil state: unknown stencil operation");
    d.depth_function = compare_or(d.depth_function, XGD_COMPARE_LESS_EQUAL);
    d.stencil_function = compare_or(d.stencil_function, XGD_COMPARE_ALWAYS);
    d.ccw_stencil_function = compare_or(d.ccw_stencil_function, XGD_COMPARE_ALWAYS);
    d.stencil_pass = op_or(d.stencil_pass);
    d.stencil_fail = op_or(d.stencil_fail);
    d.stencil_depth_fail = op_or(d.stencil_depth_fail);
    d.ccw_stencil_pass = op_or(d.ccw_stencil_pass);
    d.ccw_stencil_fail = op_or(d.ccw_stencil_fail);
    d.ccw_stencil_depth_fail = op_or(d.ccw_stencil_depth_fail);
    /* XNA's masks are Int32 (default Int32.MaxValue); the stencil planes have 8 bits, so only
       the low byte matters. */
    d.stencil_mask &= 0xFF;
    d.stencil_write_mask &= 0xFF;
    d.reference_stencil &= 0xFF;
    *out = d;
    return XGD_OK;
}

static xgd_result normalize_rasterizer(xgd_device *dev, const xgd_rasterizer_desc *in,
                                       xgd_rasterizer_desc *out)
{
    static const xgd_rasterizer_desc defaults = XGD_RASTERIZER_DESC_DEFAULT;
    xgd_rasterizer_desc d = in != NULL ? *in : defaults;
    if ((unsigned)d.cull_mode >= XGD_CULL_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "rasterizer state: unknown cull mode %d",
                         (int)d.cull_mode);
    if ((unsigned)d.fill_mode >= XGD_FILL_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "rasterizer state: unknown fill mode %d",
                         (int)d.fill_mode);
    if (d.cull_mode == XGD_CULL_DEFAULT) d.cull_mode = XGD_CULL_COUNTER_CLOCKWISE_FACE;
    if (d.fill_mode == XGD_FILL_DEFAULT) d.fill_mode = XGD_FILL_SOLID;
    /* Depth bias floats pass through: XNA takes any float, and the conversion to depth-format
       units (spec 002) maps NaN to 0 and saturates. */
    *out = d;
    return XGD_OK;
}

static xgd_result normalize_sampler(xgd_device *dev, const xgd_sampler_desc *in,
                                    xgd_sampler_desc *out)
{
    static const xgd_sampler_desc defaults = XGD_SAMPLER_DESC_DEFAULT;
    xgd_sampler_desc d = in != NULL ? *in : defaults;
    if ((unsigned)d.filter >= XGD_FILTER_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "sampler state: unknown filter %d",
                         (int)d.filter);
    if (!address_valid(d.address_u) || !address_valid(d.address_v) ||
        !address_valid(d.address_w))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "sampler state: unknown texture address mode");
    if (d.max_anisotropy < 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "sampler state: max_anisotropy %d is negative", d.max_anisotropy);
    if (d.max_mip_level < 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "sampler state: max_mip_level %d is negative", d.max_mip_level);
    if (d.filter == XGD_FILTER_DEFAULT) d.filter = XGD_FILTER_LINEAR;
    d.address_u = address_or(d.address_u);
    d.address_v = address_or(d.address_v);
    d.address_w = address_or(d.address_w);
    /* Direct3D and Vulkan clamp anisotropy to 16; say so in the applied desc. */
    if (d.max_anisotropy > 16) d.max_anisotropy = 16;
    *out = d;
    return XGD_OK;
}

/* ---- create / destroy ---------------------------------------------------------------------- */

/* Creation needs no renderer (states have no native part), so a lost device accepts it. */
static xgd_result begin_create(xgd_device *device, void *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    return XGD_OK;
}

xgd_result xgd_blend_state_create(xgd_device *device, const xgd_blend_state_desc *desc,
                                  xgd_blend_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_create(device, out);
    if (r != XGD_OK) return r;
    xgd_blend_state_desc d;
    r = normalize_blend(device, desc, &d);
    if (r != XGD_OK) return r;
    xgd_blend_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    s->desc = d;
    r = xgdi_resource_register(device, &s->res, XGDI_RES_BLEND_STATE, NULL);
    if (r != XGD_OK) {
        free(s);
        return r;
    }
    *out = s->res.handle;
    return XGD_OK;
}

xgd_result xgd_depth_stencil_state_create(xgd_device *device, const xgd_depth_stencil_desc *desc,
                                          xgd_depth_stencil_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_create(device, out);
    if (r != XGD_OK) return r;
    xgd_depth_stencil_desc d;
    r = normalize_depth_stencil(device, desc, &d);
    if (r != XGD_OK) return r;
    xgd_depth_stencil_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    s->desc = d;
    r = xgdi_resource_register(device, &s->res, XGDI_RES_DEPTH_STENCIL_STATE, NULL);
    if (r != XGD_OK) {
        free(s);
        return r;
    }
    *out = s->res.handle;
    return XGD_OK;
}

xgd_result xgd_rasterizer_state_create(xgd_device *device, const xgd_rasterizer_desc *desc,
                                       xgd_rasterizer_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_create(device, out);
    if (r != XGD_OK) return r;
    xgd_rasterizer_desc d;
    r = normalize_rasterizer(device, desc, &d);
    if (r != XGD_OK) return r;
    xgd_rasterizer_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    s->desc = d;
    r = xgdi_resource_register(device, &s->res, XGDI_RES_RASTERIZER_STATE, NULL);
    if (r != XGD_OK) {
        free(s);
        return r;
    }
    *out = s->res.handle;
    return XGD_OK;
}

xgd_result xgd_sampler_state_create(xgd_device *device, const xgd_sampler_desc *desc,
                                    xgd_sampler_state **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = begin_create(device, out);
    if (r != XGD_OK) return r;
    xgd_sampler_desc d;
    r = normalize_sampler(device, desc, &d);
    if (r != XGD_OK) return r;
    xgd_sampler_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    s->desc = d;
    r = xgdi_resource_register(device, &s->res, XGDI_RES_SAMPLER_STATE, NULL);
    if (r != XGD_OK) {
        free(s);
        return r;
    }
    *out = s->res.handle;
    return XGD_OK;
}

/* Destroying a bound state rebinds XNA's default for the slot, and draw_state forgets the
 * desc, so neither holds a freed pointer (and a new state allocated at the same address still
 * counts as a change). Device-owned presets are never freed here (the registry frees them). */
void xgd_blend_state_destroy(xgd_blend_state *state)
{
    XGDI_RESOLVE_DESTROY(state, XGDI_RES_BLEND_STATE);
    if (state == NULL || state->res.device_owned) return;
    xgd_device *dev = xgdi_resource_device(&state->res);
    if (dev != NULL && dev->blend_state == state)
        dev->blend_state = dev->blend_presets[XGD_BLEND_PRESET_OPAQUE];
    if (dev != NULL && dev->draw_state.blend == &state->desc) {
        dev->draw_state.blend = NULL;
        dev->draw_state.dirty |= XGDI_DIRTY_BLEND;
    }
    xgdi_resource_dispose(&state->res);
    free(state);
}

void xgd_depth_stencil_state_destroy(xgd_depth_stencil_state *state)
{
    XGDI_RESOLVE_DESTROY(state, XGDI_RES_DEPTH_STENCIL_STATE);
    if (state == NULL || state->res.device_owned) return;
    xgd_device *dev = xgdi_resource_device(&state->res);
    if (dev != NULL && dev->depth_stencil_state == state)
        dev->depth_stencil_state = dev->depth_stencil_presets[XGD_DEPTH_STENCIL_PRESET_DEFAULT];
    if (dev != NULL && dev->draw_state.depth_stencil == &state->desc) {
        dev->draw_state.depth_stencil = NULL;
        dev->draw_state.dirty |= XGDI_DIRTY_DEPTH_STENCIL;
    }
    xgdi_resource_dispose(&state->res);
    free(state);
}

void xgd_rasterizer_state_destroy(xgd_rasterizer_state *state)
{
    XGDI_RESOLVE_DESTROY(state, XGDI_RES_RASTERIZER_STATE);
    if (state == NULL || state->res.device_owned) return;
    xgd_device *dev = xgdi_resource_device(&state->res);
    if (dev != NULL && dev->rasterizer_state == state)
        dev->rasterizer_state =
            dev->rasterizer_presets[XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE];
    if (dev != NULL && dev->draw_state.rasterizer == &state->desc) {
        dev->draw_state.rasterizer = NULL;
        dev->draw_state.dirty |= XGDI_DIRTY_RASTERIZER;
    }
    xgdi_resource_dispose(&state->res);
    free(state);
}

void xgd_sampler_state_destroy(xgd_sampler_state *state)
{
    XGDI_RESOLVE_DESTROY(state, XGDI_RES_SAMPLER_STATE);
    if (state == NULL || state->res.device_owned) return;
    xgd_device *dev = xgdi_resource_device(&state->res);
    if (dev != NULL) {
        for (int i = 0; i < XGDI_MAX_TEXTURE_SLOTS; i++) {
            if (dev->sampler_states[i] == state)
                dev->sampler_states[i] = dev->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
            if (dev->draw_state.samplers[i] == &state->desc) {
                dev->draw_state.samplers[i] = NULL;
                dev->draw_state.dirty |= XGDI_DIRTY_SAMPLERS;
            }
        }
        xgdi_vertex_textures_forget_sampler(dev, state);
    }
    xgdi_resource_dispose(&state->res);
    free(state);
}

/* ---- get_desc ------------------------------------------------------------------------------ */

/* A shell left by a destroyed device answers OBJECT_DISPOSED like every other call on it. */
#define GET_DESC(fn, state_type, desc_type, res_type)                                            \
    xgd_result fn(const state_type *s, desc_type *out)                                           \
    {                                                                                            \
        XGDI_RESOLVE(NULL, s, res_type, "state");                                                \
        if (s == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "state is NULL");      \
        xgd_result r = xgdi_check_resource(NULL, &s->res, res_type, "state");                    \
        if (r != XGD_OK) return r;                                                               \
        if (out == NULL)                                                                         \
            return xgdi_fail(xgdi_resource_device(&s->res), XGD_ERROR_INVALID_ARGUMENT,          \
                             "out is NULL");                                                     \
        *out = s->desc;                                                                          \
        return XGD_OK;                                                                           \
    }

GET_DESC(xgd_blend_state_get_desc, xgd_blend_state, xgd_blend_state_desc, XGDI_RES_BLEND_STATE)
GET_DESC(xgd_depth_stencil_state_get_desc, xgd_depth_stencil_state, xgd_depth_stencil_desc,
         XGDI_RES_DEPTH_STENCIL_STATE)
GET_DESC(xgd_rasterizer_state_get_desc, xgd_rasterizer_state, xgd_rasterizer_desc,
         XGDI_RES_RASTERIZER_STATE)
GET_DESC(xgd_sampler_state_get_desc, xgd_sampler_state, xgd_sampler_desc, XGDI_RES_SAMPLER_STATE)

#undef GET_DESC

/* ---- presets ------------------------------------------------------------------------------- */

static bool preset_device_ok(const xgd_device *device)
{
    return device != NULL && !device->destroying && device->ctx_state_initialised;
}

xgd_blend_state *xgd_blend_state_preset(xgd_device *device, xgd_blend_preset preset)
{
    if (!preset_device_ok(device) || (unsigned)preset > XGD_BLEND_PRESET_NON_PREMULTIPLIED)
        return NULL;
    return XGDI_HANDLE_OF(device->blend_presets[preset]);
}

xgd_depth_stencil_state *xgd_depth_stencil_state_preset(xgd_device *device,
                                                        xgd_depth_stencil_preset preset)
{
    if (!preset_device_ok(device) || (unsigned)preset > XGD_DEPTH_STENCIL_PRESET_NONE) return NULL;
    return XGDI_HANDLE_OF(device->depth_stencil_presets[preset]);
}

xgd_rasterizer_state *xgd_rasterizer_state_preset(xgd_device *device,
                                                  xgd_rasterizer_preset preset)
{
    if (!preset_device_ok(device) ||
        (unsigned)preset > XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE)
        return NULL;
    return XGDI_HANDLE_OF(device->rasterizer_presets[preset]);
}

xgd_sampler_state *xgd_sampler_state_preset(xgd_device *device, xgd_sampler_preset preset)
{
    if (!preset_device_ok(device) || (unsigned)preset > XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP)
        return NULL;
    return XGDI_HANDLE_OF(device->sampler_presets[preset]);
}

/* ---- binding ------------------------------------------------------------------------------- */

/* Binding is public state only (the renderer sees it at the next draw), so a lost device
 * accepts it, as XNA's property setters do. */
xgd_result xgd_set_blend_state(xgd_device *device, xgd_blend_state *state)
{
    XGDI_RESOLVE(device, state, XGDI_RES_BLEND_STATE, "blend state");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (state == NULL) state = device->blend_presets[XGD_BLEND_PRESET_OPAQUE];
    r = xgdi_check_resource(device, &state->res, XGDI_RES_BLEND_STATE, "blend state");
    if (r != XGD_OK) return r;
    if (device->blend_state != state) {
        device->blend_state = state;
        device->draw_state.dirty |= XGDI_DIRTY_BLEND;
    }
    return XGD_OK;
}

xgd_result xgd_set_depth_stencil_state(xgd_device *device, xgd_depth_stencil_state *state)
{
    XGDI_RESOLVE(device, state, XGDI_RES_DEPTH_STENCIL_STATE, "depth-stencil state");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (state == NULL) state = device->depth_stencil_presets[XGD_DEPTH_STENCIL_PRESET_DEFAULT];
    r = xgdi_check_resource(device, &state->res, XGDI_RES_DEPTH_STENCIL_STATE,
                            "depth-stencil state");
    if (r != XGD_OK) return r;
    if (device->depth_stencil_state != state) {
        device->depth_stencil_state = state;
        device->draw_state.dirty |= XGDI_DIRTY_DEPTH_STENCIL;
    }
    return XGD_OK;
}

xgd_result xgd_set_rasterizer_state(xgd_device *device, xgd_rasterizer_state *state)
{
    XGDI_RESOLVE(device, state, XGDI_RES_RASTERIZER_STATE, "rasterizer state");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (state == NULL)
        state = device->rasterizer_presets[XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE];
    r = xgdi_check_resource(device, &state->res, XGDI_RES_RASTERIZER_STATE, "rasterizer state");
    if (r != XGD_OK) return r;
    if (device->rasterizer_state != state) {
        device->rasterizer_state = state;
        /* The scissor is only used with scissor_test_enable, so it is re-sent too. */
        device->draw_state.dirty |= XGDI_DIRTY_RASTERIZER | XGDI_DIRTY_SCISSOR;
    }
    return XGD_OK;
}

static xgd_result check_slot(xgd_device *device, int slot)
{
    if (slot < 0 || slot >= XGDI_MAX_TEXTURE_SLOTS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "slot %d is outside 0..%d", slot,
                         XGDI_MAX_TEXTURE_SLOTS - 1);
    return XGD_OK;
}

xgd_result xgd_set_sampler_state(xgd_device *device, int slot, xgd_sampler_state *state)
{
    XGDI_RESOLVE(device, state, XGDI_RES_SAMPLER_STATE, "sampler state");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    r = check_slot(device, slot);
    if (r != XGD_OK) return r;
    if (state == NULL) state = device->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
    r = xgdi_check_resource(device, &state->res, XGDI_RES_SAMPLER_STATE, "sampler state");
    if (r != XGD_OK) return r;
    if (device->sampler_states[slot] != state) {
        device->sampler_states[slot] = state;
        device->draw_state.dirty |= XGDI_DIRTY_SAMPLERS;
    }
    return XGD_OK;
}

/* A render target may be bound here while it is also bound for output: XNA refuses that at
 * draw time (InvalidOperationException), not when the texture is set. */
static xgd_result set_texture_checked(xgd_device *device, int slot, xgd_texture *texture)
{
    XGDI_RESOLVE(device, texture, XGDI_RES_TEXTURE, "texture");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    r = check_slot(device, slot);
    if (r != XGD_OK) return r;
    if (texture != NULL) {
        r = xgdi_check_resource(device, &texture->res, XGDI_RES_TEXTURE, "texture");
        if (r != XGD_OK) return r;
    }
    if (device->textures[slot] != texture) {
        device->textures[slot] = texture;
        device->draw_state.slots_changed |= 1u << slot;
        device->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
    }
    return XGD_OK;
}

/* xgd_set_texture's other cases: no texture (NULL, which the handle lookup does not resolve),
   then set_texture_checked for everything that fails a check */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result set_texture_other(xgd_device *device, int slot, xgd_texture *texture)
{
    if (texture != NULL || device == NULL || device->destroying ||
        (unsigned)slot >= XGDI_MAX_TEXTURE_SLOTS)
        return set_texture_checked(device, slot, texture);
    if (device->textures[slot] != NULL) {
        device->textures[slot] = NULL;
        device->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
        /* no texture needs no slot check: its native texture (none) goes straight into the
           draw state, and the slot is not named changed (internal.h draw_state.slots_changed) */
        device->draw_state.textures[slot] = NULL;
    }
    return XGD_OK;
}

/* xgd_set_texture's update of a slot to t, a live texture of the device */
static inline void set_texture_slot(xgd_device *device, int slot, xgd_texture *t)
{
    if (device->textures[slot] != t) {
        device->textures[slot] = t;
        device->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
        /* a texture that passed this slot's checks in this epoch (draw.c, check_changed_slots)
           needs only its native texture in the draw state: done here, where t is at hand, and
           the slot is not named changed (internal.h draw_state.slots_changed) */
        if (XGDI_LIKELY(t->slot_checked[slot] == device->slot_check_epoch))
            device->draw_state.textures[slot] = t->native;
        else
            device->draw_state.slots_changed |= 1u << slot;
    }
}

/* xgd_set_texture's lookup when its memo does not answer: the handle table, then the owner
   and destroy checks, then the memo entry filled for the next call with this handle */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result set_texture_lookup(xgd_device *device, int slot, xgd_texture *texture, size_t k)
{
    /* read before the lookup: a destroy after it moves the epoch past the entry's */
    uint64_t epoch = atomic_load_explicit(&xgdi_lifetime_epoch, memory_order_acquire);
    /* NULL does not resolve; an owner is never NULL (XGDI_NO_OWNER once disposed): this fails
       a NULL device too */
    xgdi_resource *res = xgdi_handle_get(texture, XGDI_RES_TEXTURE);
    if (res == NULL || res->owner != device || device->destroying ||
        (unsigned)slot >= XGDI_MAX_TEXTURE_SLOTS)
        return set_texture_other(device, slot, texture);
    device->texture_memo_handle[k] = (uintptr_t)texture;
    device->texture_memo_epoch[k] = epoch;
    device->texture_memo[k] = (xgd_texture *)res;
    set_texture_slot(device, slot, (xgd_texture *)res);
    return XGD_OK;
}

/* A draw loop sets a texture per draw: a handle this device resolved before, with no handle
 * freed anywhere since (the memo, internal.h texture_memo), and a slot in range are tested in
 * one expression; set_texture_lookup resolves the rest, and everything that fails a check goes
 * through set_texture_other, which takes NULL and sends the rest to set_texture_checked (which
 * checks in order and names the failure). */
xgd_result xgd_set_texture(xgd_device *device, int slot, xgd_texture *texture)
{
    uintptr_t h = (uintptr_t)texture;
    size_t k = xgdi_texture_memo_entry(texture);
    /* read first: the entry's epoch is then compared in memory */
    uint64_t epoch = atomic_load_explicit(&xgdi_lifetime_epoch, memory_order_acquire);
    if (XGDI_UNLIKELY(device == NULL || device->texture_memo_handle[k] != h ||
                      device->texture_memo_epoch[k] != epoch || (unsigned)slot >= XGDI_MAX_TEXTURE_SLOTS))
        return set_texture_lookup(device, slot, texture, k);
    set_texture_slot(device, slot, device->texture_memo[k]);
    return XGD_OK;
}

/* ---- device-level objects ------------------------------------------------------------------ */

/* On failure the caller's struct is freed here (it was never registered). */
static xgd_result own(xgd_device *dev, xgdi_resource *res, xgdi_resource_type type)
{
    xgd_result r = xgdi_resource_register(dev, res, type, NULL);
    if (r != XGD_OK) {
        free(res);
        return r;
    }
    res->device_owned = true;
    return XGD_OK;
}

static xgd_result make_blend_preset(xgd_device *dev, xgd_blend_preset p, xgd_blend src,
                                    xgd_blend dst)
{
    xgd_blend_state_desc d = XGD_BLEND_STATE_DESC_DEFAULT;
    d.target[0].color_source_blend = d.target[0].alpha_source_blend = src;
    d.target[0].color_destination_blend = d.target[0].alpha_destination_blend = dst;
    xgd_blend_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    (void)normalize_blend(dev, &d, &s->desc);
    xgd_result r = own(dev, &s->res, XGDI_RES_BLEND_STATE);
    if (r != XGD_OK) return r;
    dev->blend_presets[p] = s;
    return XGD_OK;
}

static xgd_result make_depth_preset(xgd_device *dev, xgd_depth_stencil_preset p, bool enable,
                                    bool write)
{
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_enable = enable;
    d.depth_buffer_write_enable = write;
    xgd_depth_stencil_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    (void)normalize_depth_stencil(dev, &d, &s->desc);
    xgd_result r = own(dev, &s->res, XGDI_RES_DEPTH_STENCIL_STATE);
    if (r != XGD_OK) return r;
    dev->depth_stencil_presets[p] = s;
    return XGD_OK;
}

static xgd_result make_rasterizer_preset(xgd_device *dev, xgd_rasterizer_preset p,
                                         xgd_cull_mode cull)
{
    xgd_rasterizer_desc d = XGD_RASTERIZER_DESC_DEFAULT;
    d.cull_mode = cull;
    xgd_rasterizer_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    (void)normalize_rasterizer(dev, &d, &s->desc);
    xgd_result r = own(dev, &s->res, XGDI_RES_RASTERIZER_STATE);
    if (r != XGD_OK) return r;
    dev->rasterizer_presets[p] = s;
    return XGD_OK;
}

static xgd_result make_sampler_preset(xgd_device *dev, xgd_sampler_preset p,
                                      xgd_texture_filter filter, xgd_texture_address_mode address)
{
    xgd_sampler_desc d = XGD_SAMPLER_DESC_DEFAULT;
    d.filter = filter;
    d.address_u = d.address_v = d.address_w = address;
    xgd_sampler_state *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    (void)normalize_sampler(dev, &d, &s->desc);
    xgd_result r = own(dev, &s->res, XGDI_RES_SAMPLER_STATE);
    if (r != XGD_OK) return r;
    dev->sampler_presets[p] = s;
    return XGD_OK;
}

/* XNA's preset values (BlendState.Opaque etc.). On failure the objects made so far stay
 * registered as device-owned and the device's teardown frees them. Objects have no native
 * part, so they survive loss and a second call only rebinds. */
xgd_result xgdi_create_device_objects(xgd_device *dev)
{
    xgd_result r = XGD_OK;
    if (dev->blend_presets[0] == NULL) {
        if (r == XGD_OK)
            r = make_blend_preset(dev, XGD_BLEND_PRESET_OPAQUE, XGD_BLEND_ONE, XGD_BLEND_ZERO);
        if (r == XGD_OK)
            r = make_blend_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND, XGD_BLEND_ONE,
                                  XGD_BLEND_INVERSE_SOURCE_ALPHA);
        if (r == XGD_OK)
            r = make_blend_preset(dev, XGD_BLEND_PRESET_ADDITIVE, XGD_BLEND_SOURCE_ALPHA,
                                  XGD_BLEND_ONE);
        if (r == XGD_OK)
            r = make_blend_preset(dev, XGD_BLEND_PRESET_NON_PREMULTIPLIED,
                                  XGD_BLEND_SOURCE_ALPHA, XGD_BLEND_INVERSE_SOURCE_ALPHA);
        if (r == XGD_OK) r = make_depth_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT, true, true);
        if (r == XGD_OK)
            r = make_depth_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEPTH_READ, true, false);
        if (r == XGD_OK) r = make_depth_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE, false, false);
        if (r == XGD_OK)
            r = make_rasterizer_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE, XGD_CULL_NONE);
        if (r == XGD_OK)
            r = make_rasterizer_preset(dev, XGD_RASTERIZER_PRESET_CULL_CLOCKWISE,
                                       XGD_CULL_CLOCKWISE_FACE);
        if (r == XGD_OK)
            r = make_rasterizer_preset(dev, XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE,
                                       XGD_CULL_COUNTER_CLOCKWISE_FACE);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP, XGD_FILTER_POINT,
                                    XGD_ADDRESS_WRAP);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP, XGD_FILTER_POINT,
                                    XGD_ADDRESS_CLAMP);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP, XGD_FILTER_LINEAR,
                                    XGD_ADDRESS_WRAP);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP, XGD_FILTER_LINEAR,
                                    XGD_ADDRESS_CLAMP);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_ANISOTROPIC_WRAP,
                                    XGD_FILTER_ANISOTROPIC, XGD_ADDRESS_WRAP);
        if (r == XGD_OK)
            r = make_sampler_preset(dev, XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP,
                                    XGD_FILTER_ANISOTROPIC, XGD_ADDRESS_CLAMP);
        if (r == XGD_OK) r = xgdi_create_stock_declarations(dev);
        if (r != XGD_OK) return r;
    }
    /* XNA's GraphicsDevice starts with Opaque, Default, CullCounterClockwise, LinearWrap. */
    if (dev->blend_state == NULL) dev->blend_state = dev->blend_presets[XGD_BLEND_PRESET_OPAQUE];
    if (dev->depth_stencil_state == NULL)
        dev->depth_stencil_state = dev->depth_stencil_presets[XGD_DEPTH_STENCIL_PRESET_DEFAULT];
    if (dev->rasterizer_state == NULL)
        dev->rasterizer_state =
            dev->rasterizer_presets[XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE];
    for (int i = 0; i < XGDI_MAX_TEXTURE_SLOTS; i++) {
        if (dev->sampler_states[i] == NULL)
            dev->sampler_states[i] = dev->sampler_presets[XGD_SAMPLER_PRESET_LINEAR_WRAP];
    }
    xgdi_vertex_textures_init(dev);
    xgdi_invalidate_draw_state(dev);
    return XGD_OK;
}

/* The renderer may have been recreated or the target changed: everything is sent again. The
 * native texture pointers cached in draw_state may be stale after a restore; draws rebuild
 * them, so they are cleared here rather than trusted. */
void xgdi_invalidate_draw_state(xgd_device *dev)
{
    if (dev == NULL) return;
    dev->draw_state.dirty = XGDI_DIRTY_ALL;
    xgdi_new_slot_check_epoch(dev);
    for (int i = 0; i < XGDI_MAX_TEXTURE_SLOTS; i++) dev->draw_state.textures[i] = NULL;
    for (int i = 0; i < XGDI_MAX_VERTEX_TEXTURE_SLOTS; i++) dev->draw_state.vertex_textures[i] = NULL;
}
