/*
 * effect.c - the Effect object (xgd.h): creation from bytes, the device, destruction (a
 * destroyed stock effect's body is kept for the next stock effect of its kind), the kind check
 * and apply's dispatch. Everything inside an effect body is src/shader/fx.c; the stock
 * effects' XNA properties are src/shader/stock_effect.c.
 */
#include "effect.h"

#include <stdlib.h>

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

xgd_result xgdi_effect_create_with(xgd_device *device, effect_kind kind, xgdi_fx *fx,
                                   xgd_effect **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    xgd_effect *e = calloc(1, sizeof *e);
    if (e == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    e->kind = kind;
    e->fx = fx;
    r = xgdi_resource_register(device, &e->res, XGDI_RES_EFFECT, &user_effect_vt);
    if (r != XGD_OK) {
        free(e);
        return r;
    }
    *out = e->res.handle;
    return XGD_OK;
}

xgd_result xgd_effect_create(xgd_device *device, const void *bytes, size_t size, xgd_effect **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL || bytes == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is NULL",
                         out == NULL ? "out" : "bytes");
    xgdi_fx *fx;
    r = xgdi_fx_load(device, bytes, size, &fx);
    if (r != XGD_OK) return r;
    return xgdi_effect_wrap_fx(device, fx, out);
}

xgd_result xgdi_effect_wrap_fx(xgd_device *device, xgdi_fx *fx, xgd_effect **out)
{
    xgd_result r = xgdi_effect_create_with(device, EFFECT_USER, fx, out);
    if (r != XGD_OK) xgdi_fx_free(device, fx);
    return r;
}

/* A stock effect's body is driven by its own functions only (its parameters are XNA's
   properties, not the Effect API's). */
xgdi_fx *xgdi_effect_fx(const xgd_effect *effect)
{
    return effect != NULL && effect->kind == EFFECT_USER ? effect->fx : NULL;
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

/* The device keeps a copy of the applied constants, so an applied effect can go (a user
   effect's applied shaders are forgotten by the device: draws need another apply). */
void xgd_effect_destroy(xgd_effect *effect)
{
    XGDI_RESOLVE_DESTROY(effect, XGDI_RES_EFFECT);
    if (effect == NULL) return;
    if (effect->fx != NULL) {
        xgd_device *dev = xgdi_resource_device(&effect->res);
        /* a stock body is kept for the next effect of its kind (every apply writes all its
           constants, its texture and its technique, so nothing of this one shows through) */
        if (dev != NULL && effect->kind != EFFECT_USER && dev->stock_spare[effect->kind] == NULL &&
            dev->renderer != NULL)
            dev->stock_spare[effect->kind] = effect->fx;
        else
            xgdi_fx_free(dev, effect->fx);
        effect->fx = NULL;
    }
    xgdi_resource_dispose(&effect->res);
    free(effect);
}

void xgdi_effect_drop_spares(xgd_device *device)
{
    for (int k = 0; k < 4; k++) {
        if (device->stock_spare[k] != NULL) xgdi_fx_free(device, device->stock_spare[k]);
        device->stock_spare[k] = NULL;
    }
}

xgd_result xgdi_effect_check_kind(const xgd_effect *effect, effect_kind kind)
{
    if (effect == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL");
    xgd_result r = xgdi_check_resource(NULL, &effect->res, XGDI_RES_EFFECT, "effect");
    if (r != XGD_OK) return r;
    if (effect->kind != kind)
        return xgdi_fail(xgdi_resource_device(&effect->res), XGD_ERROR_INVALID_ARGUMENT,
                         "the effect is not a %s",
                         kind == EFFECT_BASIC    ? "BasicEffect"
                         : kind == EFFECT_USER   ? "effect loaded from bytes"
                         : kind == EFFECT_MRT    ? "MrtEffect"
                         : kind == EFFECT_VOLUME ? "VolumeEffect"
                                                 : "SpriteEffect");
    return XGD_OK;
}

xgd_result xgd_effect_apply(xgd_effect *effect)
{
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");
    if (effect == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL");
    xgd_result r = xgdi_check_resource(NULL, &effect->res, XGDI_RES_EFFECT, "effect");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&effect->res);
    r = xgdi_check_device_alive(dev);
    if (r != XGD_OK) return r;

    if (effect->kind == EFFECT_USER) return xgdi_fx_apply(dev, effect->fx, -1, 0);
    return xgdi_stock_effect_apply(dev, effect);
}
