/*
 * png.c - PNG decoding and encoding through libspng. Any PNG (grey, palette, 16-bit, tRNS,
 * interlaced) is decoded to 8-bit RGBA; images are written as 8-bit RGBA.
 */
#include "format.h"

#include <errno.h>
#ifndef XGD_NO_PNG
#include <spng.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PNG allows 2^31-1 per side; the decoder refuses anything whose RGBA8 image could not be
 * addressed, and libspng's own chunk limits guard against decompression bombs. */
#define PNG_MAX_DIM 65535u

static void set_err(char *err, size_t err_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

#ifdef XGD_NO_PNG
/* Built without libspng (CMake -DXGD_PNG=OFF, e.g. mingw-w64, which Debian ships no libspng
   for): PNG load and save are unsupported, by name. */
xgd_result xgdi_png_decode(const void *data, size_t size, int *width, int *height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    (void)data;
    (void)size;
    (void)width;
    (void)height;
    (void)rgba;
    set_err(err, err_size, "built without PNG support (XGD_PNG=OFF)");
    return XGD_ERROR_NOT_SUPPORTED;
}

xgd_result xgdi_png_encode_file(const char *path, int width, int height, const uint8_t *rgba,
                                char *err, size_t err_size)
{
    (void)path;
    (void)width;
    (void)height;
    (void)rgba;
    set_err(err, err_size, "built without PNG support (XGD_PNG=OFF)");
    return XGD_ERROR_NOT_SUPPORTED;
}
#else
static xgd_result spng_result(int rc)
{
    return rc == SPNG_EMEM ? XGD_ERROR_OUT_OF_MEMORY : XGD_ERROR_INVALID_ARGUMENT;
}

xgd_result xgdi_png_decode(const void *data, size_t size, int *width, int *height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    if (data == NULL || size == 0 || width == NULL || height == NULL || rgba == NULL) {
        set_err(err, err_size, "no PNG data");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    spng_ctx *ctx = spng_ctx_new(0);
    if (ctx == NULL) {
        set_err(err, err_size, "spng_ctx_new failed");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    xgd_result r = XGD_OK;
    uint8_t *out = NULL;
    struct spng_ihdr ihdr;
    size_t len = 0;
    int rc = spng_set_image_limits(ctx, PNG_MAX_DIM, PNG_MAX_DIM);
    if (rc == 0) rc = spng_set_png_buffer(ctx, data, size);
    if (rc == 0) rc = spng_get_ihdr(ctx, &ihdr);
    if (rc == 0) rc = spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &len);
    if (rc != 0) {
        set_err(err, err_size, "%s", spng_strerror(rc));
        r = spng_result(rc);
        goto done;
    }
    out = malloc(len);
    if (out == NULL) {
        set_err(err, err_size, "out of memory for a %ux%u image", (unsigned)ihdr.width,
                (unsigned)ihdr.height);
        r = XGD_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    /* tRNS becomes alpha; no gamma correction: texels are used as stored, like XNA's
     * Texture2D.FromStream. */
    rc = spng_decode_image(ctx, out, len, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    if (rc != 0) {
        set_err(err, err_size, "%s", spng_strerror(rc));
        r = spng_result(rc);
        free(out);
        out = NULL;
        goto done;
    }
    *width = (int)ihdr.width;
    *height = (int)ihdr.height;
    *rgba = out;
done:
    spng_ctx_free(ctx);
    return r;
}

xgd_result xgdi_png_encode_file(const char *path, int width, int height, const uint8_t *rgba,
                                char *err, size_t err_size)
{
    if (path == NULL || rgba == NULL || width <= 0 || height <= 0 ||
        (unsigned)width > PNG_MAX_DIM || (unsigned)height > PNG_MAX_DIM) {
        set_err(err, err_size, "bad image arguments (%dx%d)", width, height);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    if (ctx == NULL) {
        set_err(err, err_size, "spng_ctx_new failed");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    /* Encode to memory first so a failure of libspng and a failure of the file system are
     * told apart (INVALID_ARGUMENT / OUT_OF_MEMORY versus IO) and no half file is left by the
     * encoder. */
    struct spng_ihdr ihdr = {
        .width = (uint32_t)width,
        .height = (uint32_t)height,
        .bit_depth = 8,
        .color_type = SPNG_COLOR_TYPE_TRUECOLOR_ALPHA,
    };
    size_t len = (size_t)width * (size_t)height * 4;
    void *png = NULL;
    size_t png_len = 0;
    int rc = spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    if (rc == 0) rc = spng_set_ihdr(ctx, &ihdr);
    if (rc == 0) rc = spng_encode_image(ctx, rgba, len, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    if (rc == 0) png = spng_get_png_buffer(ctx, &png_len, &rc);
    spng_ctx_free(ctx);
    if (rc != 0 || png == NULL) {
        set_err(err, err_size, "%s", spng_strerror(rc));
        free(png);
        return spng_result(rc);
    }

    xgd_result r = XGD_OK;
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        set_err(err, err_size, "cannot create '%s': %s", path, strerror(errno));
        free(png);
        return XGD_ERROR_IO;
    }
    if (fwrite(png, 1, png_len, f) != png_len) {
        set_err(err, err_size, "cannot write '%s': %s", path, strerror(errno));
        r = XGD_ERROR_IO;
    }
    if (fclose(f) != 0 && r == XGD_OK) {
        set_err(err, err_size, "cannot write '%s': %s", path, strerror(errno));
        r = XGD_ERROR_IO;
    }
    if (r != XGD_OK) remove(path);
    free(png);
    return r;
}
#endif /* XGD_NO_PNG */
