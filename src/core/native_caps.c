/*
 * native_caps.c - xgd_device_get_native_caps: the native API's own capability report (feature
 * level, shader model, binding tier, ...; issue 5), asked of the renderer through its optional
 * get_native_caps op.
 */
#include "internal.h"

#include <string.h>

xgd_result xgd_device_get_native_caps(xgd_device *device, xgd_native_caps *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    /* Spec 000 "Device recovery": a lost device has no renderer to ask. */
    r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    memset(out, 0, sizeof *out);
    if (device->renderer->ops->get_native_caps == NULL)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' reports no native capabilities",
                         device->renderer->ops->name);
    return device->renderer->ops->get_native_caps(device->renderer, out);
}
