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

/* Encoding: PNG allows 2^31-1 per side; the encoder refuses anything whose RGBA8 image could
 * not be addressed. */
#define PNG_MAX_DIM 65535u

/* Decoding bounds (hostile files): the declared size is checked against the caller's limit as
 * soon as the IHDR is read, before anything image-sized is allocated; ancillary chunks libspng
 * keeps (text, eXIf, iCCP, sPLT) may hold at most XGDI_PNG_CACHE_LIMIT bytes together and a
 * compressed one may expand to at most XGDI_PNG_CHUNK_LIMIT, so a decompression bomb in the
 * metadata stops there. xgd uses none of that metadata; real images carry far less. */
#define XGDI_PNG_CHUNK_LIMIT ((size_t)8 << 20)
#define XGDI_PNG_CACHE_LIMIT ((size_t)16 << 20)

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
static xgd_result no_png(char *err, size_t err_size)
{
    set_err(err, err_size, "built without PNG support (XGD_PNG=OFF)");
    return XGD_ERROR_NOT_SUPPORTED;
}

xgd_result xgdi_png_open_memory(const void *data, size_t size, int max_dim,
                                xgdi_png_reader **out, int *width, int *height, char *err,
                                size_t err_size)
{
    (void)data;
    (void)size;
    (void)max_dim;
    (void)width;
    (void)height;
    if (out != NULL) *out = NULL;
    return no_png(err, err_size);
}

xgd_result xgdi_png_open_file(const char *path, int max_dim, xgdi_png_reader **out, int *width,
                              int *height, char *err, size_t err_size)
{
    (void)path;
    (void)max_dim;
    (void)width;
    (void)height;
    if (out != NULL) *out = NULL;
    return no_png(err, err_size);
}

xgd_result xgdi_png_read_rgba(xgdi_png_reader *reader, uint8_t *rgba, size_t size, char *err,
                              size_t err_size)
{
    (void)reader;
    (void)rgba;
    (void)size;
    return no_png(err, err_size);
}

void xgdi_png_close(xgdi_png_reader *reader) { (void)reader; }

xgd_result xgdi_png_load_file(const char *path, int max_dim, int *width, int *height,
                              uint8_t **rgba, char *err, size_t err_size)
{
    (void)path;
    (void)max_dim;
    (void)width;
    (void)height;
    (void)rgba;
    return no_png(err, err_size);
}

xgd_result xgdi_png_decode(const void *data, size_t size, int *width, int *height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    (void)data;
    (void)size;
    (void)width;
    (void)height;
    (void)rgba;
    return no_png(err, err_size);
}

xgd_result xgdi_png_encode_file(const char *path, int width, int height, const uint8_t *rgba,
                                char *err, size_t err_size)
{
    (void)path;
    (void)width;
    (void)height;
    (void)rgba;
    return no_png(err, err_size);
}
#else
struct xgdi_png_reader {
    spng_ctx *ctx;
    FILE *file;          /* owned by file readers */
    uint8_t head[24];    /* the first bytes (signature, IHDR length, type, width, height) */
    size_t head_len;
    bool io_error;       /* the file could not be read (as opposed to ending early) */
    int io_errno;        /* errno of that read, kept before libspng's unwinding can change it */
};

static xgd_result spng_result(int rc)
{
    return rc == SPNG_EMEM ? XGD_ERROR_OUT_OF_MEMORY : XGD_ERROR_INVALID_ARGUMENT;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Whether the first bytes seen differ from the PNG signature: the data is some other kind of
 * file (JPEG, GIF, text), not a damaged PNG. */
static bool not_png(const xgdi_png_reader *rd)
{
    static const uint8_t signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    size_t n = rd->head_len < sizeof signature ? rd->head_len : sizeof signature;
    return n > 0 && memcmp(rd->head, signature, n) != 0;
}

/* Names a decoding failure: data that is not a PNG at all (INVALID_OPERATION, as XNA's
 * Texture2D.FromStream refuses an unsupported image format), the file's fault
 * (INVALID_ARGUMENT, truncation said so), a limit of the loader (NOT_SUPPORTED), the process
 * (OUT_OF_MEMORY) or the file system (IO). */
static xgd_result decode_failure(const xgdi_png_reader *rd, int rc, char *err, size_t err_size)
{
    if (rc != SPNG_EMEM && !rd->io_error && not_png(rd)) {
        set_err(err, err_size, "not a PNG image (the only format xgd loads)");
        return XGD_ERROR_INVALID_OPERATION;
    }
    switch (rc) {
    case SPNG_EMEM:
        set_err(err, err_size, "out of memory");
        return XGD_ERROR_OUT_OF_MEMORY;
    case SPNG_ECHUNK_LIMITS:
        set_err(err, err_size,
                "the PNG's ancillary chunks exceed the loader's limits (%zu MiB in all, %zu MiB "
                "for one decompressed chunk, %u chunks)",
                XGDI_PNG_CACHE_LIMIT >> 20, XGDI_PNG_CHUNK_LIMIT >> 20, 1000u);
        return XGD_ERROR_NOT_SUPPORTED;
    case SPNG_IO_ERROR:
    case SPNG_EIO:
        if (rd->io_error) {
            set_err(err, err_size, "read error: %s", strerror(rd->io_errno));
            return XGD_ERROR_IO;
        }
        set_err(err, err_size, "the PNG is truncated (%s)", spng_strerror(rc));
        return XGD_ERROR_INVALID_ARGUMENT;
    case SPNG_IO_EOF:
    case SPNG_EOF:
    case SPNG_EIDAT_TOO_SHORT:
        set_err(err, err_size, "the PNG is truncated (%s)", spng_strerror(rc));
        return XGD_ERROR_INVALID_ARGUMENT;
    default:
        set_err(err, err_size, "%s", spng_strerror(rc));
        return spng_result(rc);
    }
}

/* The stream of a file reader: keeps the first bytes for the size report and tells a read
 * error from the end of the file. */
static int file_read(spng_ctx *ctx, void *user, void *dst, size_t len)
{
    (void)ctx;
    xgdi_png_reader *rd = user;
    size_t n = fread(dst, 1, len, rd->file);
    if (rd->head_len < sizeof rd->head) {
        size_t k = sizeof rd->head - rd->head_len;
        if (k > n) k = n;
        memcpy(rd->head + rd->head_len, dst, k);
        rd->head_len += k;
    }
    if (n == len) return 0;
    if (ferror(rd->file)) {
        rd->io_error = true;
        rd->io_errno = errno;
        return SPNG_IO_ERROR;
    }
    return SPNG_IO_EOF;
}

/* Reads the header (and the chunks before the image data, within the chunk limits) and checks
 * the declared size against max_dim per side before any image-sized allocation. */
static xgd_result open_reader(xgdi_png_reader *rd, int max_dim, int *width, int *height,
                              char *err, size_t err_size)
{
    struct spng_ihdr ihdr;
    int rc = spng_get_ihdr(rd->ctx, &ihdr);
    if (rc == SPNG_EUSER_WIDTH || rc == SPNG_EUSER_HEIGHT) {
        /* libspng checked the limit inside the IHDR: the 8-byte signature, the chunk's length
         * and type, then width and height as big-endian 32-bit numbers. */
        if (rd->head_len >= 24)
            set_err(err, err_size,
                    "the PNG declares %lux%lu texels; the limit is %d per side (the profile's "
                    "and renderer's texture size)",
                    (unsigned long)be32(rd->head + 16), (unsigned long)be32(rd->head + 20),
                    max_dim);
        else
            set_err(err, err_size, "the PNG declares more than %d texels per side", max_dim);
        return XGD_ERROR_NOT_SUPPORTED;
    }
    if (rc != 0) return decode_failure(rd, rc, err, err_size);
    size_t len = 0;
    rc = spng_decoded_image_size(rd->ctx, SPNG_FMT_RGBA8, &len);
    if (rc != 0) return decode_failure(rd, rc, err, err_size);
    /* With both sides at most max_dim (at most 65535 here) this cannot wrap; it is what
     * xgdi_png_read_rgba will be asked to fill. */
    if (len != (size_t)ihdr.width * (size_t)ihdr.height * 4) {
        set_err(err, err_size, "unexpected decoded size %zu for %lux%lu", len,
                (unsigned long)ihdr.width, (unsigned long)ihdr.height);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    *width = (int)ihdr.width;
    *height = (int)ihdr.height;
    return XGD_OK;
}

static xgd_result new_reader(int max_dim, xgdi_png_reader **out, char *err, size_t err_size)
{
    if (max_dim < 1 || (unsigned)max_dim > PNG_MAX_DIM) {
        set_err(err, err_size, "bad PNG size limit %d", max_dim);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    xgdi_png_reader *rd = calloc(1, sizeof *rd);
    if (rd == NULL) {
        set_err(err, err_size, "out of memory");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    rd->ctx = spng_ctx_new(0);
    if (rd->ctx == NULL) {
        free(rd);
        set_err(err, err_size, "spng_ctx_new failed");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    /* A critical chunk with a bad CRC ends decoding; a damaged ancillary one is dropped, as
     * libpng does (xgd reads no ancillary chunk but tRNS). The number of stored chunks keeps
     * libspng's default limit of 1000 (libspng 0.7.3 refuses to set SPNG_CHUNK_COUNT_LIMIT
     * above the count already read, so it cannot be set explicitly before decoding). */
    int rc = spng_set_image_limits(rd->ctx, (uint32_t)max_dim, (uint32_t)max_dim);
    if (rc == 0) rc = spng_set_chunk_limits(rd->ctx, XGDI_PNG_CHUNK_LIMIT, XGDI_PNG_CACHE_LIMIT);
    if (rc == 0) rc = spng_set_crc_action(rd->ctx, SPNG_CRC_ERROR, SPNG_CRC_DISCARD);
    if (rc != 0) {
        set_err(err, err_size, "%s", spng_strerror(rc));
        spng_ctx_free(rd->ctx);
        free(rd);
        return spng_result(rc);
    }
    *out = rd;
    return XGD_OK;
}

void xgdi_png_close(xgdi_png_reader *reader)
{
    if (reader == NULL) return;
    spng_ctx_free(reader->ctx);
    if (reader->file != NULL) fclose(reader->file);
    free(reader);
}

xgd_result xgdi_png_open_memory(const void *data, size_t size, int max_dim,
                                xgdi_png_reader **out, int *width, int *height, char *err,
                                size_t err_size)
{
    if (out != NULL) *out = NULL;
    if (data == NULL || size == 0 || out == NULL || width == NULL || height == NULL) {
        set_err(err, err_size, "no PNG data");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    xgdi_png_reader *rd = NULL;
    xgd_result r = new_reader(max_dim, &rd, err, err_size);
    if (r != XGD_OK) return r;
    rd->head_len = size < sizeof rd->head ? size : sizeof rd->head;
    memcpy(rd->head, data, rd->head_len);
    int rc = spng_set_png_buffer(rd->ctx, data, size);
    r = rc != 0 ? decode_failure(rd, rc, err, err_size)
                : open_reader(rd, max_dim, width, height, err, err_size);
    if (r != XGD_OK) {
        xgdi_png_close(rd);
        return r;
    }
    *out = rd;
    return XGD_OK;
}

xgd_result xgdi_png_open_file(const char *path, int max_dim, xgdi_png_reader **out, int *width,
                              int *height, char *err, size_t err_size)
{
    if (out != NULL) *out = NULL;
    if (path == NULL || out == NULL || width == NULL || height == NULL) {
        set_err(err, err_size, "no PNG path");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    xgdi_png_reader *rd = NULL;
    xgd_result r = new_reader(max_dim, &rd, err, err_size);
    if (r != XGD_OK) return r;
    /* Streamed through libspng's read buffer: the file is never held in memory whole. */
    rd->file = fopen(path, "rb");
    if (rd->file == NULL) {
        set_err(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        xgdi_png_close(rd);
        return XGD_ERROR_IO;
    }
    int rc = spng_set_png_stream(rd->ctx, file_read, rd);
    r = rc != 0 ? decode_failure(rd, rc, err, err_size)
                : open_reader(rd, max_dim, width, height, err, err_size);
    if (r != XGD_OK) {
        xgdi_png_close(rd);
        return r;
    }
    *out = rd;
    return XGD_OK;
}

xgd_result xgdi_png_read_rgba(xgdi_png_reader *reader, uint8_t *rgba, size_t size, char *err,
                              size_t err_size)
{
    if (reader == NULL || rgba == NULL) {
        set_err(err, err_size, "no PNG reader or output");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    /* Decoded row by row straight into the caller's buffer (libspng keeps two or three rows of
     * its own). tRNS becomes alpha; no gamma correction: texels are used as stored, like XNA's
     * Texture2D.FromStream. */
    int rc = spng_decode_image(reader->ctx, rgba, size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    /* The rest of the file up to IEND is read too (within the same chunk limits): the last
     * image chunk's CRC follows its data, and a file that ends early is truncated even when
     * the image data happened to be complete. */
    if (rc == 0) rc = spng_decode_chunks(reader->ctx);
    if (rc != 0) return decode_failure(reader, rc, err, err_size);
    return XGD_OK;
}

/* Opens, allocates exactly the checked image and decodes into it. */
static xgd_result load(xgdi_png_reader *rd, int w, int h, int *width, int *height,
                       uint8_t **rgba, char *err, size_t err_size)
{
    size_t len = (size_t)w * (size_t)h * 4;
    uint8_t *out = malloc(len);
    if (out == NULL) {
        set_err(err, err_size, "out of memory for a %dx%d image", w, h);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    xgd_result r = xgdi_png_read_rgba(rd, out, len, err, err_size);
    if (r != XGD_OK) {
        free(out);
        return r;
    }
    *width = w;
    *height = h;
    *rgba = out;
    return XGD_OK;
}

xgd_result xgdi_png_load_file(const char *path, int max_dim, int *width, int *height,
                              uint8_t **rgba, char *err, size_t err_size)
{
    if (rgba == NULL || width == NULL || height == NULL) {
        set_err(err, err_size, "no output");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    xgdi_png_reader *rd = NULL;
    int w = 0, h = 0;
    xgd_result r = xgdi_png_open_file(path, max_dim, &rd, &w, &h, err, err_size);
    if (r == XGD_OK) r = load(rd, w, h, width, height, rgba, err, err_size);
    xgdi_png_close(rd);
    return r;
}

xgd_result xgdi_png_decode(const void *data, size_t size, int *width, int *height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    if (rgba == NULL || width == NULL || height == NULL) {
        set_err(err, err_size, "no output");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    xgdi_png_reader *rd = NULL;
    int w = 0, h = 0;
    xgd_result r = xgdi_png_open_memory(data, size, XGDI_PNG_MAX_DIM, &rd, &w, &h, err, err_size);
    if (r == XGD_OK) r = load(rd, w, h, width, height, rgba, err, err_size);
    xgdi_png_close(rd);
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
    size_t len = 0;
    if (!xgdi_size_mul((size_t)width * (size_t)height, 4, &len)) {
        spng_ctx_free(ctx);
        set_err(err, err_size, "a %dx%d RGBA image does not fit in memory", width, height);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
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
