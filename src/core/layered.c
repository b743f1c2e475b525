/*
 * layered.c - the public calls for libraries layered on xgd (include/xgd.h, "Libraries layered
 * on xgd"): their objects registered with the device behind handles, typed checks of xgd's own
 * handles, weak references, and the checks and counters xgd's SpriteBatch needs.
 *
 * A layered object is one registry entry of type XGDI_RES_LAYERED: a small record holding the
 * library's class and object, so the handle table, the registry walks and the messages work
 * for it exactly as for xgd's own objects. The record is allocated once at registration, never
 * per call: resolving is the handle table's lookup plus three compares.
 */
#include "internal.h"

#include <stdlib.h>

typedef struct xgdi_layered {
    xgdi_resource res;                /* first: the handle table's xgdi_resource * is this */
    const xgd_resource_class *cls;
    void *object;
} xgdi_layered;

const char *xgdi_resource_name(const xgdi_resource *res)
{
    if (res != NULL && res->type == XGDI_RES_LAYERED) {
        const xgd_resource_class *cls = ((const xgdi_layered *)res)->cls;
        return cls != NULL && cls->name != NULL ? cls->name : "object";
    }
    return xgdi_resource_type_name(res != NULL ? res->type : XGDI_RES_TYPE_COUNT);
}

static const char *class_name(const xgd_resource_class *cls)
{
    return cls != NULL && cls->name != NULL ? cls->name : "object";
}

/* Device destroy: the library's object turns into a shell first (its callback), then core
 * marks the record disposed. */
static void layered_device_destroyed(xgdi_resource *res)
{
    xgdi_layered *l = (xgdi_layered *)res;
    if (l->cls->device_destroyed != NULL) l->cls->device_destroyed(l->object);
}

static const xgdi_resource_vtable layered_vtable = { NULL, NULL, layered_device_destroyed };

xgd_result xgd_resource_register(xgd_device *device, const xgd_resource_class *cls, void *object,
                                 void **out_handle)
{
    if (out_handle != NULL) *out_handle = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (cls == NULL || object == NULL || out_handle == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         cls == NULL ? "cls" : object == NULL ? "object" : "out_handle");
    xgdi_layered *l = calloc(1, sizeof *l);
    if (l == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    l->cls = cls;
    l->object = object;
    r = xgdi_resource_register(device, &l->res, XGDI_RES_LAYERED, &layered_vtable);
    if (r != XGD_OK) {
        free(l);
        return r;
    }
    *out_handle = l->res.handle;
    return XGD_OK;
}

void *xgd_resource_unregister(const void *handle, const xgd_resource_class *cls)
{
    xgdi_layered *l = (xgdi_layered *)xgdi_handle_get(handle, XGDI_RES_LAYERED);
    if (l == NULL || cls == NULL || l->cls != cls) return NULL;
    xgdi_handle_free(&l->res);
    xgdi_resource_dispose(&l->res);
    void *object = l->object;
    free(l);
    return object;
}

/* Why a handle did not resolve to a live object of cls on device, recorded as the handle
 * table and the resource checks word it for xgd's own objects. */
static xgd_result resolve_failed(xgd_device *device, const void *handle,
                                 const xgd_resource_class *cls, const char *what)
{
    if (what == NULL) what = class_name(cls);
    if (handle == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    xgdi_resource *res = xgdi_handle_get(handle, XGDI_RES_TYPE_COUNT);
    if (res == NULL) {
        /* stale or no handle: the handle table says which */
        xgd_result r = XGD_OK;
        (void)xgdi_handle_resolve_failed(device, handle, XGDI_RES_LAYERED, what, &r);
        return r;
    }
    xgd_device *owner = xgdi_resource_device(res);
    xgd_device *report = device != NULL ? device : owner;
    if (res->type != XGDI_RES_LAYERED || ((xgdi_layered *)res)->cls != cls)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "%s is a %s, not a %s", what,
                         xgdi_resource_name(res), class_name(cls));
    if (owner == NULL)
        return xgdi_fail(report, XGD_ERROR_OBJECT_DISPOSED, "%s (%s) is disposed", what,
                         class_name(cls));
    return xgdi_fail(report, XGD_ERROR_INVALID_OPERATION, "%s belongs to another device", what);
}

/* Out of line, so the live case below needs no stack frame. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result resolve_slow(xgd_device *device, const void *handle,
                               const xgd_resource_class *cls, const char *what,
                               void **out_object, xgd_device **out_device)
{
    if (out_device != NULL) *out_device = NULL;
    if (out_object != NULL) *out_object = NULL;
    if (out_object == NULL || cls == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         cls == NULL ? "cls" : "out_object");
    return resolve_failed(device, handle, cls, what);
}

/* Called for every call of a layered library (SpriteBatch.Draw: every sprite), so the live
 * case is a straight line: the handle table's lookup, the class, then the device through the
 * token (NULL once the object is disposed, so it stands for the disposed flag too). */
xgd_result xgd_resource_resolve(xgd_device *device, const void *handle,
                                const xgd_resource_class *cls, const char *what,
                                void **out_object, xgd_device **out_device)
{
    const xgdi_layered *l = (const xgdi_layered *)xgdi_handle_get(handle, XGDI_RES_LAYERED);
    if (l != NULL && l->cls == cls && out_object != NULL && l->res.token != NULL) {
        xgd_device *owner = l->res.token->device;
        if (owner != NULL && !owner->destroying && (device == NULL || device == owner)) {
            *out_object = l->object;
            if (out_device != NULL) *out_device = owner;
            return XGD_OK;
        }
    }
    return resolve_slow(device, handle, cls, what, out_object, out_device);
}

/* The public kinds in their order; xgd_resource_kind is API, the internal enum is not. */
static const xgdi_resource_type kind_types[] = {
    XGDI_RES_TEXTURE,          XGDI_RES_VERTEX_DECLARATION, XGDI_RES_VERTEX_BUFFER,
    XGDI_RES_INDEX_BUFFER,     XGDI_RES_BLEND_STATE,        XGDI_RES_DEPTH_STENCIL_STATE,
    XGDI_RES_RASTERIZER_STATE, XGDI_RES_SAMPLER_STATE,      XGDI_RES_EFFECT,
    XGDI_RES_OCCLUSION_QUERY,
};

xgd_result xgd_resource_check(xgd_device *device, const void *resource, xgd_resource_kind kind,
                              const char *what)
{
    if (device == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "device is NULL");
    if ((unsigned)kind >= sizeof kind_types / sizeof kind_types[0])
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown resource kind %d",
                         (int)kind);
    xgdi_resource_type type = kind_types[kind];
    if (what == NULL) what = xgdi_resource_type_name(type);
    if (resource == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    return xgdi_check_handle(device, resource, type, what);
}

bool xgd_resource_is_live(const xgd_device *device, const void *resource)
{
    /* the token is NULL once the object is disposed, and names NULL once its device is */
    const xgdi_resource *res = xgdi_handle_get(resource, XGDI_RES_TYPE_COUNT);
    return res != NULL && res->token != NULL && res->token->device == device && device != NULL &&
           !device->destroying;
}

xgd_result xgd_device_check_status(xgd_device *device)
{
    return xgdi_check_device(device);
}

xgd_result xgd_device_check_sampling(xgd_device *device, xgd_texture *texture,
                                     xgd_sampler_state *sampler)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    r = xgd_resource_check(device, texture, XGD_RESOURCE_TEXTURE, "texture");
    if (r != XGD_OK) return r;
    if (sampler != NULL) {
        r = xgd_resource_check(device, sampler, XGD_RESOURCE_SAMPLER_STATE, "sampler state");
        if (r != XGD_OK) return r;
    }
    const xgd_texture *t = (const xgd_texture *)xgdi_handle_get(texture, XGDI_RES_TEXTURE);
    const xgd_sampler_state *s =
        sampler != NULL ? (const xgd_sampler_state *)xgdi_handle_get(sampler,
                                                                     XGDI_RES_SAMPLER_STATE)
                        : device->sampler_states[0];
    /* draw.c's rules for a bound texture, in its order */
    for (int j = 0; j < device->binding_count; j++) {
        if (device->bindings[j].target == t)
            return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                             "the texture is bound as render target %d; unbind it before "
                             "drawing it",
                             j);
    }
    if (t->native == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "the texture has no storage (its recovery failed)");
    bool pow2 = (t->width & (t->width - 1)) == 0 && (t->height & (t->height - 1)) == 0;
    if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH && !pow2 &&
        (t->kind == XGD_TEXTURE_2D || t->kind == XGD_RENDER_TARGET_2D) &&
        (s == NULL || s->desc.address_u != XGD_ADDRESS_CLAMP ||
         s->desc.address_v != XGD_ADDRESS_CLAMP))
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires Clamp addressing for the %dx%d texture, whose size is "
                         "not a power of two",
                         t->width, t->height);
    return XGD_OK;
}

void xgd_device_count_sprite_batch(xgd_device *device)
{
    if (device != NULL && !device->destroying) device->stats.sprite_batches++;
}

xgd_matrix xgd_matrix_create_sprite_projection(int width, int height,
                                               xgd_pixel_center pixel_center)
{
    if (width < 1) width = 1;
    if (height < 1) height = 1;
    xgd_matrix m = xgd_matrix_create_orthographic_off_center(0.0f, (float)width, (float)height,
                                                             0.0f, 0.0f, -1.0f);
    if (pixel_center == XGD_PIXEL_CENTER_XNA) {
        xgd_matrix half = xgd_matrix_create_translation(-0.5f, -0.5f, 0.0f);
        m = xgd_matrix_multiply(&half, &m);
    }
    return m;
}
