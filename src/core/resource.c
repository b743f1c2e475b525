/*
 * resource.c - the device's registry of resources and the counted lifetime token
 * (spec 001 "Why registration is not ownership").
 *
 * Registration is a disposal-order mechanism, not ownership: the device walks the list to
 * dispose every native part while the renderer still exists; each resource's owner frees its
 * own struct. The token lets a resource outlive its device without following a stale pointer.
 */
#include "internal.h"

#include <stdlib.h>

static void token_release(xgdi_lifetime *token)
{
    if (token != NULL && --token->refs == 0) free(token);
}

xgd_result xgdi_resource_register(xgd_device *device, xgdi_resource *res, xgdi_resource_type type,
                                  const xgdi_resource_vtable *vt)
{
    /* The handle first: it is the only step that can fail, so a failure changes nothing. */
    res->type = type;
    xgd_result r = xgdi_handle_alloc(device, res);
    if (r != XGD_OK) return r;
    res->vt = vt;
    res->disposed = false;
    res->prev = NULL;
    res->next = device->resources;
    if (device->resources != NULL) device->resources->prev = res;
    device->resources = res;
    device->resource_count++;
    res->token = device->token;
    device->token->refs++;
    res->owner = device;
    xgdi_raise_event(device, XGD_EVENT_RESOURCE_CREATED);
    return XGD_OK;
}

xgdi_ref xgdi_ref_from_handle(const void *handle)
{
    uintptr_t h = (uintptr_t)handle;
    xgdi_ref ref = { 0, 0 };
    if ((h & 1u) == 0) return ref;
    ref.index = (uint32_t)((h >> 1) & XGDI_HANDLE_INDEX_MASK);
    ref.gen = (uint32_t)(h >> (1 + XGDI_HANDLE_INDEX_BITS));
    return ref;
}

xgdi_ref xgdi_ref_make(const xgdi_resource *res)
{
    xgdi_ref ref = { 0, 0 };
    if (xgdi_resource_device(res) == NULL) return ref;
    return xgdi_ref_from_handle(res->handle);
}

xgdi_resource *xgdi_ref_get(xgd_device *device, xgdi_ref ref)
{
    if (device == NULL || ref.gen == 0 || ref.gen > XGDI_HANDLE_GEN_MAX ||
        ref.index > XGDI_HANDLE_INDEX_MASK)
        return NULL;
    const void *handle = (const void *)(((uintptr_t)ref.gen << (1 + XGDI_HANDLE_INDEX_BITS)) |
                                        ((uintptr_t)ref.index << 1) | 1u);
    xgdi_resource *res = xgdi_handle_get(handle, XGDI_RES_TYPE_COUNT);
    return res != NULL && xgdi_resource_device(res) == device ? res : NULL;
}

static void unlink_resource(xgd_device *device, xgdi_resource *res)
{
    if (res->prev != NULL) res->prev->next = res->next;
    else if (device->resources == res) device->resources = res->next;
    if (res->next != NULL) res->next->prev = res->prev;
    res->prev = res->next = NULL;
    if (device->resource_count > 0) device->resource_count--;
}

void xgdi_resource_dispose(xgdi_resource *res)
{
    if (res == NULL || res->disposed) return;
    xgd_device *device = xgdi_resource_device(res);
    if (res->vt != NULL && res->vt->release_native != NULL) res->vt->release_native(res);
    /* Spec 001: ResourceDestroyed is raised and the entry unregistered only while the token
     * says the device is alive. */
    if (device != NULL) {
        unlink_resource(device, res);
        xgdi_raise_event(device, XGD_EVENT_RESOURCE_DESTROYED);
    }
    res->disposed = true;
    res->owner = XGDI_NO_OWNER;
    token_release(res->token);
    res->token = NULL;
}

xgd_result xgdi_check_resource_slow(xgd_device *device, const xgdi_resource *res,
                                    xgdi_resource_type type, const char *what)
{
    if (what == NULL) what = "object";
    if (res == NULL) {
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL", what);
    }
    xgd_device *owner = xgdi_resource_device(res);
    xgd_device *report = device != NULL ? device : owner;
    if (owner == NULL) {
        return xgdi_fail(report, XGD_ERROR_OBJECT_DISPOSED, "%s (%s) is disposed", what,
                         xgdi_resource_name(res));
    }
    if (res->type != type) {
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "%s is a %s, not a %s", what,
                         xgdi_resource_name(res), xgdi_resource_type_name(type));
    }
    if (device != NULL && owner != device) {
        return xgdi_fail(report, XGD_ERROR_INVALID_OPERATION,
                         "%s belongs to another device", what);
    }
    return XGD_OK;
}

/* ---- used by device.c at destroy, loss and restore ---------------------------------------- */

/* Device destroy (spec 001: the device disposes every tracked resource while the renderer still
 * exists). Each resource becomes a disposed shell; device-owned ones are freed here because no
 * owner will ever call their destroy. Re-entrant unregistering is harmless: the list is detached
 * from the device before the loop. */
void xgdi_registry_dispose_all(xgd_device *device)
{
    xgdi_effect_drop_spares(device);
    xgdi_resource *res = device->resources;
    device->resources = NULL;
    device->resource_count = 0;
    while (res != NULL) {
        xgdi_resource *next = res->next;
        res->prev = res->next = NULL;
        if (res->vt != NULL && res->vt->release_native != NULL) res->vt->release_native(res);
        if (res->vt != NULL && res->vt->on_device_destroyed != NULL)
            res->vt->on_device_destroyed(res);
        res->disposed = true;
        res->owner = XGDI_NO_OWNER;
        token_release(res->token);
        res->token = NULL;
        if (res->device_owned) {
            xgdi_handle_free(res);
            free(res);
        }
        res = next;
    }
}

/* Context loss: every native part goes, the resources stay registered to be recreated. */
void xgdi_registry_release_native(xgd_device *device)
{
    xgdi_effect_drop_spares(device);
    for (xgdi_resource *res = device->resources; res != NULL; res = res->next) {
        if (res->vt != NULL && res->vt->release_native != NULL) res->vt->release_native(res);
    }
}

/* Restore: asks each registered resource to recreate itself; returns how many failed. */
int xgdi_registry_recreate_native(xgd_device *device)
{
    int failures = 0;
    for (xgdi_resource *res = device->resources; res != NULL; res = res->next) {
        if (res->vt != NULL && res->vt->recreate_native != NULL &&
            res->vt->recreate_native(res) != XGD_OK)
            failures++;
    }
    return failures;
}
