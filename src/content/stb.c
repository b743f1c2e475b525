/*
 * stb.c - JPEG, BMP, GIF and TGA decoding through stb_image, and JPEG encoding through
 * stb_image_write (Debian's libstb-dev ships both as single headers in /usr/include/stb).
 *
 * The implementations are compiled here from those headers rather than linked from Debian's
 * libstb.so: the loader's safety limits are compile-time settings of stb_image (the largest
 * side, the allocator, the formats built in), which the prebuilt library cannot take, and
 * compiled as static functions they export nothing that could collide with a program's own
 * copy of stb.
 *
 * Bounds (hostile files): the header is read first (stbi_info) and a side above the caller's
 * limit is refused before decoding; the decoder's allocations together are then capped by
 * what a valid image of the declared size needs (stb_image allocates the output and its
 * working buffers from the declared size, so a file that lies about its size runs into the
 * cap and fails instead of allocating without bound).
 */
#include "content.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_NO_STB
/* Built without stb_image (CMake -DXGD_STB=OFF, e.g. mingw-w64, for which Debian's libstb-dev
 * is not installed): JPEG, BMP, GIF and TGA load and JPEG save are unsupported, by name. */
static xgd_result no_stb(char *err, size_t err_size)
{
    if (err != NULL && err_size != 0)
        snprintf(err, err_size, "built without stb_image (XGD_STB=OFF): only PNG and DDS load");
    return XGD_ERROR_NOT_SUPPORTED;
}

xgd_result xgdi_stb_info(xgdi_image_source *src, xgdi_image_kind announced, int max_dim,
                         xgdi_image_kind *kind, int *width, int *height, char *err,
                         size_t err_size)
{
    (void)src, (void)max_dim, (void)kind, (void)width, (void)height;
    if (announced == XGDI_IMAGE_UNKNOWN) {
        if (err != NULL && err_size != 0)
            snprintf(err, err_size, "not an image format this build of xgd loads (PNG or DDS)");
        return XGD_ERROR_INVALID_OPERATION;
    }
    return no_stb(err, err_size);
}

xgd_result xgdi_stb_decode(xgdi_image_source *src, int width, int height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    (void)src, (void)width, (void)height;
    *rgba = NULL;
    return no_stb(err, err_size);
}

xgd_result xgdi_jpeg_encode(int width, int height, const uint8_t *rgba, int quality,
                            uint8_t **out, size_t *out_size, char *err, size_t err_size)
{
    (void)width, (void)height, (void)rgba, (void)quality;
    *out = NULL;
    *out_size = 0;
    return no_stb(err, err_size);
}
#else
/* The allocator stb_image uses while one decode runs on this thread: every request (a
 * realloc counts its new size) is taken from `left`; past it the request fails, stb_image
 * reports out of memory and `exceeded` tells that apart from the process running out. */
static _Thread_local struct {
    size_t left;
    bool exceeded;
} g_budget;

/* Zeroed: stb_image's JPEG decoder keeps its Huffman tables in a malloc'd state it does not
 * clear, and a damaged file that uses a table it never defined would otherwise decode
 * differently from one run to the next (whatever the heap held), or succeed on one run and
 * fail on the next. */
static void *budget_malloc(size_t n)
{
    if (n > g_budget.left) {
        g_budget.exceeded = true;
        return NULL;
    }
    g_budget.left -= n;
    return calloc(1, n != 0 ? n : 1);
}

static void *budget_realloc(void *p, size_t n)
{
    if (n > g_budget.left) {
        g_budget.exceeded = true;
        return NULL;
    }
    g_budget.left -= n;
    return realloc(p, n);
}

/* Compiled as static functions, stb declares entry points this build leaves out (its zlib
 * and PNG parts, HDR writing): GCC reports those as static functions never defined, for the
 * whole file. */
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_GIF
#define STBI_ONLY_TGA
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#define STBI_MAX_DIMENSIONS XGDI_IMAGE_MAX_DIM
#define STBI_MALLOC(n) budget_malloc(n)
#define STBI_REALLOC(p, n) budget_realloc((p), (n))
#define STBI_FREE(p) free(p)
#include <stb/stb_image.h>

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

static void set_err(char *err, size_t err_size, const char *fmt, ...) XGDI_CONTENT_PRINTF(3, 4);
static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

/* The source as stb_image's callbacks. past_end: the decoder asked for bytes after the last
 * one, i.e. it needed more data than the file has (stb_image itself continues with zeros, so
 * a truncated file would otherwise decode "successfully"). */
typedef struct stb_reader {
    xgdi_image_source *src;
    bool past_end;
    bool io_error;
} stb_reader;

static int cb_read(void *user, char *data, int size)
{
    stb_reader *rd = user;
    if (size <= 0) return 0;
    if (rd->src->pos >= rd->src->size) {
        rd->past_end = true;
        return 0;
    }
    size_t n = xgdi_source_read(rd->src, data, (size_t)size);
    if (n < (size_t)size && rd->src->io_errno != 0) rd->io_error = true;
    return (int)n;
}

static void cb_skip(void *user, int n)
{
    stb_reader *rd = user;
    size_t to = rd->src->pos;
    if (n < 0) {
        to = (size_t)-(long)n > to ? 0 : to - (size_t)-(long)n;
    } else {
        to = (size_t)n > rd->src->size - to ? rd->src->size : to + (size_t)n;
    }
    if (!xgdi_source_seek(rd->src, to)) rd->io_error = true;
}

static int cb_eof(void *user)
{
    stb_reader *rd = user;
    return rd->src->pos >= rd->src->size;
}

static const stbi_io_callbacks g_callbacks = { cb_read, cb_skip, cb_eof };

/* stb_image's failure reasons for valid files of a kind it does not decode (12-bit JPEG, a
 * JPEG whose height comes later, RLE or embedded JPEG/PNG BMPs, BMP header versions it does
 * not know): a limit of the loader, NOT_SUPPORTED, rather than a damaged file. */
static bool stb_unsupported(const char *why)
{
    static const char *const reasons[] = { "only 8-bit", "no header height", "BMP RLE",
                                           "BMP JPEG/PNG", "unknown BMP" };
    for (size_t i = 0; why != NULL && i < sizeof reasons / sizeof reasons[0]; i++)
        if (strcmp(why, reasons[i]) == 0) return true;
    return false;
}

/* Which stb decoder recognises the data: the same tests stbi_info runs, one at a time, so the
 * message can name the kind. */
static xgdi_image_kind stb_kind(xgdi_image_source *src, xgdi_image_kind announced, int *w,
                                int *h)
{
    static const xgdi_image_kind order[] = { XGDI_IMAGE_JPEG, XGDI_IMAGE_BMP, XGDI_IMAGE_GIF,
                                              XGDI_IMAGE_TGA };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        /* A signature names the one decoder to ask, so its failure reason is the one kept. */
        if (announced != XGDI_IMAGE_UNKNOWN && order[i] != announced) continue;
        if (!xgdi_source_seek(src, 0)) return XGDI_IMAGE_UNKNOWN;
        stb_reader rd = { .src = src };
        stbi__context s;
        stbi__start_callbacks(&s, (stbi_io_callbacks *)&g_callbacks, &rd);
        int comp = 0, ok = 0;
        switch (order[i]) {
        case XGDI_IMAGE_JPEG: ok = stbi__jpeg_info(&s, w, h, &comp); break;
        case XGDI_IMAGE_BMP: ok = stbi__bmp_info(&s, w, h, &comp); break;
        case XGDI_IMAGE_GIF: ok = stbi__gif_info(&s, w, h, &comp); break;
        default: ok = stbi__tga_info(&s, w, h, &comp); break;
        }
        if (ok) return order[i];
    }
    return XGDI_IMAGE_UNKNOWN;
}

/* A byte reader over the source for the JPEG table check (-1 at the end). */
typedef struct byte_reader {
    xgdi_image_source *src;
    uint8_t buf[4096];
    size_t len, at;
} byte_reader;

static int next_byte(byte_reader *br)
{
    if (br->at == br->len) {
        br->len = xgdi_source_read(br->src, br->buf, sizeof br->buf);
        br->at = 0;
        if (br->len == 0) return -1;
    }
    return br->buf[br->at++];
}

/*
 * stb_image 2.27 (Debian bookworm's libstb-dev) builds a JPEG Huffman table (DHT) from its 16
 * code counts without checking that they add up to at most 256, the most symbols a table has
 * (ITU-T T.81 B.2.4.2), and writes past the table's arrays when they do not (upstream added
 * the check in 2.28). Every DHT segment of the file is checked here the way stb_image reads
 * it, before stb_image sees the file: all markers are found as stb_image finds them (0xFF
 * followed by a code; 0xFF00 and RSTn belong to entropy-coded data), each segment's payload is
 * skipped by its length, and a DHT's tables are walked as stb_image walks them.
 * *codes is the offending total. Returns false on such a table.
 */
static bool jpeg_huffman_tables_ok(xgdi_image_source *src, int *codes)
{
    byte_reader br = { .src = src };
    if (!xgdi_source_seek(src, 0)) return true; /* the decoder reports the I/O error */
    int c = next_byte(&br);
    for (;;) {
        if (c < 0) return true;
        if (c != 0xff) {
            c = next_byte(&br);
            continue;
        }
        int m = next_byte(&br);
        while (m == 0xff) m = next_byte(&br);
        if (m < 0) return true;
        if (m == 0x00 || m == 0x01 || (m >= 0xd0 && m <= 0xd9)) {
            c = next_byte(&br);
            continue;
        }
        int hi = next_byte(&br), lo = next_byte(&br);
        if (hi < 0 || lo < 0) return true;
        long left = (long)(hi << 8 | lo) - 2;
        if (m == 0xc4) {
            /* stb_image reads bytes past the end of the data as 0, so counts cut off by the
             * end of the file are read the same way here. */
            while (left > 0) {
                bool end = next_byte(&br) < 0; /* table class and id */
                int n = 0;
                for (int i = 0; i < 16; i++) {
                    int k = next_byte(&br);
                    if (k < 0) end = true;
                    else n += k;
                }
                if (n > 256) {
                    *codes = n;
                    return false;
                }
                if (end) return true;
                for (int i = 0; i < n; i++)
                    if (next_byte(&br) < 0) return true;
                left -= 17 + n;
            }
        } else {
            for (; left > 0; left--)
                if (next_byte(&br) < 0) return true;
        }
        c = next_byte(&br);
    }
}

xgd_result xgdi_stb_info(xgdi_image_source *src, xgdi_image_kind announced, int max_dim,
                         xgdi_image_kind *kind, int *width, int *height, char *err,
                         size_t err_size)
{
    int w = 0, h = 0;
    uint8_t first = 0;
    if (xgdi_source_seek(src, 0) && xgdi_source_read(src, &first, 1) == 1 && first == 0xff) {
        /* stb_image's JPEG reader takes any data that starts with a marker (0xFF, fill bytes
         * 0xFF, then SOI), so every such input is checked. */
        int codes = 0;
        if (!jpeg_huffman_tables_ok(src, &codes)) {
            set_err(err, err_size,
                    "corrupt JPEG: a Huffman table declares %d codes (at most 256 exist)", codes);
            return XGD_ERROR_INVALID_ARGUMENT;
        }
    }
    /* stb's header readers allocate nothing image-sized (GIF's reads a small state). */
    g_budget.left = (size_t)1 << 20;
    g_budget.exceeded = false;
    xgdi_image_kind k = stb_kind(src, announced, &w, &h);
    if (k == XGDI_IMAGE_UNKNOWN) {
        if (src->io_errno != 0) {
            set_err(err, err_size, "read error: %s", strerror(src->io_errno));
            return XGD_ERROR_IO;
        }
        if (announced == XGDI_IMAGE_UNKNOWN) {
            set_err(err, err_size,
                    "not an image format xgd loads (PNG, JPEG, BMP, GIF, TGA or DDS)");
            return XGD_ERROR_INVALID_OPERATION;
        }
        const char *why = stbi_failure_reason();
        /* stb_image's own limit on a side (STBI_MAX_DIMENSIONS), checked in its header
         * readers: as large a size as the device limit below. */
        if (why != NULL && strcmp(why, "too large") == 0) {
            set_err(err, err_size,
                    "the %s declares more than %d texels per side; the limit is %d per side "
                    "(the profile's and renderer's texture size)",
                    xgdi_image_kind_name(announced), XGDI_IMAGE_MAX_DIM, max_dim);
            return XGD_ERROR_NOT_SUPPORTED;
        }
        if (stb_unsupported(why)) {
            set_err(err, err_size, "this kind of %s is not supported (stb_image: %s)",
                    xgdi_image_kind_name(announced), why);
            return XGD_ERROR_NOT_SUPPORTED;
        }
        set_err(err, err_size, "damaged %s header (stb_image: %s)",
                xgdi_image_kind_name(announced), why != NULL ? why : "not recognised");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    if (w < 1 || h < 1) {
        set_err(err, err_size, "the %s declares %dx%d texels", xgdi_image_kind_name(k), w, h);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    if (w > max_dim || h > max_dim) {
        set_err(err, err_size,
                "the %s declares %dx%d texels; the limit is %d per side (the profile's and "
                "renderer's texture size)",
                xgdi_image_kind_name(k), w, h, max_dim);
        return XGD_ERROR_NOT_SUPPORTED;
    }
    *kind = k;
    *width = w;
    *height = h;
    return XGD_OK;
}

/* What decoding a valid w x h image may allocate in stb_image, with room to spare: the RGBA
 * output and a format conversion (8 bytes a texel), GIF's background and history buffers
 * (5), JPEG's component planes and progressive coefficients (up to 4 components of 1 + 2
 * bytes, 12), each plane padded to whole 8x8 blocks of the largest sampling factor (up to 32
 * texels a side), plus 1 MiB for tables and rows. */
static size_t decode_budget(int w, int h)
{
    /* At most 25 * 16416^2 + 1 MiB (both sides at most XGDI_IMAGE_MAX_DIM): fits in 64 bits;
     * a 32-bit size_t is saturated instead. */
    uint64_t n = (uint64_t)25 * ((uint64_t)w + 32) * ((uint64_t)h + 32) + ((uint64_t)1 << 20);
    return n > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)n;
}

xgd_result xgdi_stb_decode(xgdi_image_source *src, int width, int height, uint8_t **rgba,
                           char *err, size_t err_size)
{
    *rgba = NULL;
    if (!xgdi_source_seek(src, 0)) {
        set_err(err, err_size, "seek error: %s", strerror(src->io_errno));
        return XGD_ERROR_IO;
    }
    stb_reader rd = { .src = src };
    g_budget.left = decode_budget(width, height);
    g_budget.exceeded = false;
    int w = 0, h = 0, comp = 0;
    stbi_uc *px = stbi_load_from_callbacks(&g_callbacks, &rd, &w, &h, &comp, 4);
    if (rd.io_error) {
        stbi_image_free(px);
        set_err(err, err_size, "read error: %s", strerror(src->io_errno));
        return XGD_ERROR_IO;
    }
    if (px == NULL) {
        if (g_budget.exceeded) {
            set_err(err, err_size,
                    "decoding needed more memory than a %dx%d image may (%zu MiB): a damaged "
                    "or hostile file",
                    width, height, decode_budget(width, height) >> 20);
            return XGD_ERROR_INVALID_ARGUMENT;
        }
        const char *why = stbi_failure_reason();
        if (why != NULL && strcmp(why, "outofmem") == 0) {
            set_err(err, err_size, "out of memory for a %dx%d image", width, height);
            return XGD_ERROR_OUT_OF_MEMORY;
        }
        if (stb_unsupported(why)) {
            set_err(err, err_size, "this kind of image is not supported (stb_image: %s)", why);
            return XGD_ERROR_NOT_SUPPORTED;
        }
        set_err(err, err_size, "%s (stb_image: %s)",
                rd.past_end ? "the image is truncated" : "the image is damaged",
                why != NULL ? why : "unknown error");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    if (rd.past_end) {
        stbi_image_free(px);
        set_err(err, err_size, "the image is truncated (its data ends before the image does)");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    if (w != width || h != height) {
        stbi_image_free(px);
        set_err(err, err_size, "the header said %dx%d, the image is %dx%d", width, height, w, h);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    *rgba = px; /* allocated by budget_malloc: plain malloc, freed with free */
    return XGD_OK;
}

typedef struct grow_buffer {
    uint8_t *data;
    size_t size, cap;
    bool failed;
} grow_buffer;

static void write_cb(void *user, void *data, int size)
{
    grow_buffer *b = user;
    if (b->failed || size <= 0) return;
    if (b->size + (size_t)size > b->cap) {
        size_t cap = b->cap != 0 ? b->cap : 4096;
        while (cap < b->size + (size_t)size) cap *= 2;
        uint8_t *p = realloc(b->data, cap);
        if (p == NULL) {
            b->failed = true;
            return;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->size, data, (size_t)size);
    b->size += (size_t)size;
}

xgd_result xgdi_jpeg_encode(int width, int height, const uint8_t *rgba, int quality,
                            uint8_t **out, size_t *out_size, char *err, size_t err_size)
{
    *out = NULL;
    *out_size = 0;
    /* JPEG's frame header stores each side in 16 bits. */
    if (width < 1 || height < 1 || width > 65535 || height > 65535 || rgba == NULL) {
        set_err(err, err_size, "bad image arguments (%dx%d)", width, height);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    grow_buffer b = { 0 };
    /* stb_image_write drops the alpha channel of a 4-component image (JPEG has none). */
    int ok = stbi_write_jpg_to_func(write_cb, &b, width, height, 4, rgba, quality);
    if (!ok || b.failed) {
        free(b.data);
        set_err(err, err_size, b.failed ? "out of memory" : "stb_image_write failed");
        return b.failed ? XGD_ERROR_OUT_OF_MEMORY : XGD_ERROR_INVALID_ARGUMENT;
    }
    *out = b.data;
    *out_size = b.size;
    return XGD_OK;
}
#endif /* XGD_NO_STB */
