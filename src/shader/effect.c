/*
 * effect.c - the Effect object (xgd.h): creation from bytes, derived effects (a class's state
 * and its on_apply, xgd_effect_create_derived), the device, destruction (a destroyed derived
 * effect's body is kept for the next effect of its class made from the same bytes) and apply.
 * Everything inside an effect body is src/shader/fx.c.
 */
#include "effect.h"

#include <stdlib.h>
#include <string.h>

/* A user effect's native shaders go with the device's renderer (loss, teardown) and come back
   at the next apply. */
static void user_release_native(xgdi_resource *res)
{
    xgd_effect *e = (xgd_effect *)res;
    /* the device itself, also while it is being destroyed (its renderer still exists then) */
    xgd_device *dev = res->token != NULL ? res->token->device : NULL;
    if (e->fx != NULL) xgdi_fx_release_natives(dev, e->fx);
}

static const xgdi_resource_vtable user_effect_vt = { user_release_native, NULL, NULL };

/* A new registered effect around body fx of class cls (NULL: a plain effect) with a copy of
   `state` (NULL: zeroed). On failure fx is freed and *out stays NULL. */
static xgd_result wrap(xgd_device *device, xgdi_fx *fx, const xgd_effect_class *cls,
                       const void *state, xgd_effect **out)
{
    xgd_effect *e = calloc(1, sizeof *e);
    void *st = NULL;
    if (e != NULL && cls != NULL && cls->state_size > 0) {
        st = calloc(1, cls->state_size);
        if (st != NULL && state != NULL) memcpy(st, state, cls->state_size);
    }
    if (e == NULL || (cls != NULL && cls->state_size > 0 && st == NULL)) {
        free(e);
        xgdi_fx_free(device, fx);
        return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    e->fx = fx;
    e->cls = cls;
    e->state = st;
    xgd_result r = xgdi_resource_register(device, &e->res, XGDI_RES_EFFECT, &user_effect_vt);
    if (r != XGD_OK) {
        free(st);
        free(e);
        xgdi_fx_free(device, fx);
        return r;
    }
    *out = e->res.handle;
    return XGD_OK;
}

xgd_result xgdi_effect_wrap_fx(xgd_device *device, xgdi_fx *fx, xgd_effect **out)
{
    return wrap(device, fx, NULL, NULL, out);
}

xgd_result xgdi_effect_wrap_clone(xgd_device *device, const xgd_effect *source, xgdi_fx *fx,
                                  xgd_effect **out)
{
    return wrap(device, fx, source->cls, source->state, out);
}

static xgd_result create(xgd_device *device, const void *bytes, size_t size,
                         const xgd_effect_class *cls, xgd_effect **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL || bytes == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         out == NULL ? "out" : "bytes");
    xgdi_fx *fx = NULL;
    if (cls != NULL) {
        /* a spare body of this class and these bytes: as loaded again, without the loading */
        for (int i = 0; i < XGDI_EFFECT_SPARES; i++) {
            xgdi_effect_spare *s = &device->effect_spares[i];
            if (s->cls == cls && s->fx != NULL && xgdi_fx_same_bytes(s->fx, bytes, size)) {
                fx = s->fx;
                s->fx = NULL;
                s->cls = NULL;
                xgdi_fx_reset(fx);
                break;
            }
        }
    }
    if (fx == NULL) {
        r = xgdi_fx_load(device, bytes, size, &fx);
        if (r != XGD_OK) return r;
        /* the loaded values, for a reuse of this body after the effect is destroyed */
        if (cls != NULL && !xgdi_fx_keep_defaults(fx)) {
            xgdi_fx_free(device, fx);
            return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        }
    }
    return wrap(device, fx, cls, NULL, out);
}

xgd_result xgd_effect_create(xgd_device *device, const void *bytes, size_t size, xgd_effect **out)
{
    return create(device, bytes, size, NULL, out);
}

xgd_result xgd_effect_create_derived(xgd_device *device, const void *bytes, size_t size,
                                     const xgd_effect_class *cls, xgd_effect **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (cls == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "cls is NULL");
    return create(device, bytes, size, cls, out);
}

xgd_result xgd_effect_get_state(xgd_effect *effect, const xgd_effect_class *cls, void **out)
{
    if (out != NULL) *out = NULL;
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    if (effect == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL");
    xgd_result r = xgdi_check_resource(NULL, &effect->res, XGDI_RES_EFFECT, "effect");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (cls == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "cls is NULL");
    if (effect->cls != cls) {
        const char *name = cls->name != NULL && cls->name[0] != '\0' ? cls->name : "derived effect";
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the effect is not a%s %s",
                         strchr("AEIOUaeiou", name[0]) != NULL ? "n" : "", name);
    }
    *out = effect->state;
    return XGD_OK;
}

xgdi_fx *xgdi_effect_fx(const xgd_effect *effect)
{
    return effect != NULL ? effect->fx : NULL;
}

xgd_device *xgdi_effect_device(const xgd_effect *effect)
{
    xgdi_resource *res = xgdi_handle_get(effect, XGDI_RES_EFFECT);
    return res != NULL ? xgdi_resource_device(res) : NULL;
}

xgd_result xgd_effect_get_device(xgd_effect *effect, xgd_device **out)
{
    if (out != NULL) *out = NULL;
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    if (effect == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL");
    xgd_device *dev = xgdi_resource_device(&effect->res);
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = dev;
    return XGD_OK;
}

/* The device keeps a copy of the applied constants, so an applied effect can go (its applied
   shaders are forgotten by the device: draws need another apply). */
void xgd_effect_destroy(xgd_effect *effect)
{
    XGDI_RESOLVE_DESTROY(effect, XGDI_RES_EFFECT);
    if (effect == NULL) return;
    if (effect->fx != NULL) {
        xgd_device *dev = xgdi_resource_device(&effect->res);
        /* A derived effect's body waits for the next create of its class from the same bytes
           (stock effects created and destroyed every frame keep their native shaders and so
           the renderers' pipelines). One spare per class, in a small ring: the slot of the
           class, else a free one, else the next in turn (its body is freed). */
        if (dev != NULL && effect->cls != NULL && dev->renderer != NULL) {
            int slot = -1;
            for (int i = 0; i < XGDI_EFFECT_SPARES && slot < 0; i++) {
                if (dev->effect_spares[i].cls == effect->cls) slot = i;
            }
            for (int i = 0; i < XGDI_EFFECT_SPARES && slot < 0; i++) {
                if (dev->effect_spares[i].fx == NULL) slot = i;
            }
            if (slot < 0) {
                slot = dev->effect_spare_next;
                dev->effect_spare_next = (slot + 1) % XGDI_EFFECT_SPARES;
            }
            xgdi_effect_spare *s = &dev->effect_spares[slot];
            /* the body's shaders may stay applied: they live until the spare is freed, which
               makes the device forget them */
            if (s->fx != NULL) xgdi_fx_free(dev, s->fx);
            s->fx = effect->fx;
            s->cls = effect->cls;
        } else {
            xgdi_fx_free(dev, effect->fx);
        }
        effect->fx = NULL;
    }
    xgdi_resource_dispose(&effect->res);
    free(effect->state);
    free(effect);
}

void xgdi_effect_drop_spares(xgd_device *device)
{
    for (int i = 0; i < XGDI_EFFECT_SPARES; i++) {
        xgdi_effect_spare *s = &device->effect_spares[i];
        if (s->fx != NULL) xgdi_fx_free(device, s->fx);
        s->fx = NULL;
        s->cls = NULL;
    }
    device->effect_spare_next = 0;
}

xgd_result xgdi_effect_on_apply(xgd_effect *effect)
{
    if (effect->cls == NULL || effect->cls->on_apply == NULL) return XGD_OK;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    const char *name = effect->cls->name != NULL ? effect->cls->name : "derived effect";
    if (effect->applying)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "%s: an apply inside its own on_apply (it would never end)", name);
    void *handle = effect->res.handle;
    effect->applying = true;
    xgd_result r = effect->cls->on_apply(handle, effect->state);
    /* on_apply may have destroyed the effect: then nothing of it may be touched */
    if (xgdi_handle_get(handle, XGDI_RES_EFFECT) != &effect->res)
        return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED, "%s was destroyed by its own on_apply",
                         name);
    effect->applying = false;
    return r;
}

xgd_result xgd_effect_apply(xgd_effect *effect)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    if (effect == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL");
    xgd_result r = xgdi_check_resource(NULL, &effect->res, XGDI_RES_EFFECT, "effect");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    r = xgdi_check_device_alive(dev);
    if (r == XGD_OK) r = xgdi_effect_on_apply(effect);
    if (r != XGD_OK) return r;
    return xgdi_fx_apply(dev, effect->fx, -1, 0);
}
