/*
 * png_support.h - whether this xgd loads and saves PNG. It does through libspng; an xgd built
 * without it (-DXGD_PNG=OFF, the mingw-w64 build) answers XGD_ERROR_NOT_SUPPORTED, and a test
 * of PNG is then not supported (exit 77) with that reason.
 */
#ifndef XGDT_PNG_SUPPORT_H
#define XGDT_PNG_SUPPORT_H

#include "harness.h"

#include <stdint.h>

/* At the start of a PNG test: true where PNG is compiled in; otherwise checks that a save is
 * refused as NOT_SUPPORTED, ends the test as not supported and returns false. */
static inline bool xgdt_png_or_skip(xgdt_ctx *t)
{
#ifdef XGD_TEST_HAVE_PNG
    (void)t;
    return true;
#else
    static const uint8_t px[4] = { 1, 2, 3, 4 };
    CHECK_RESULT(xgd_image_save_png("/nonexistent-xgd-dir/x.png", 1, 1, px), XGD_ERROR_NOT_SUPPORTED);
    xgdt_not_supported(t, "built without libspng (XGD_PNG=OFF)");
    return false;
#endif
}

#endif
