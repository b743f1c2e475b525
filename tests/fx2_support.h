/*
 * fx2_support.h - whether this xgd loads fx_2_0 effects. They load through MojoShader; an xgd
 * built without it (-DXGD_MOJOSHADER=OFF, the mingw-w64 build) answers XGD_ERROR_NOT_SUPPORTED
 * for them, and a test that needs one is then not supported (exit 77) with that reason.
 */
#ifndef XGDT_FX2_SUPPORT_H
#define XGDT_FX2_SUPPORT_H

#include "harness.h"

#include <stdint.h>

/* Probes dev with the smallest fx_2_0 container (its magic and a table offset, no tables):
 * an xgd with MojoShader refuses it as truncated, one without answers NOT_SUPPORTED. */
static inline bool xgdt_fx2_available(xgdt_ctx *t, xgd_device *dev)
{
    static const uint8_t header[8] = { 0x01, 0x09, 0xff, 0xfe, 0, 0, 0, 0 };
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create(dev, header, sizeof header, &e);
    if (e != NULL) xgd_effect_destroy(e);
    if (r != XGD_ERROR_NOT_SUPPORTED) return true;
    xgdt_not_supported(t, "fx_2_0 effects answer NOT_SUPPORTED: this xgd was built without MojoShader");
    return false;
}

/* After `REQUIRE(dev != NULL)`: ends the test as not supported when fx_2_0 cannot load. */
#define XGDT_FX2_OR_SKIP(t, dev)              \
    do {                                      \
        if (!xgdt_fx2_available((t), (dev))) { \
            xgd_device_destroy(dev);          \
            return;                           \
        }                                     \
    } while (0)

#endif
