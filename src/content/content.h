/*
 * content.h - image file loaders shared inside src/content (not part of the public API).
 *
 * Every decoder reads from an xgdi_image_source (memory or an open file), checks the declared
 * size before anything image-sized is allocated, and reports a failure as a named xgd_result
 * with a message in err. A decoder never allocates more than a valid image of the declared,
 * already checked size needs.
 */
#ifndef XGD_CONTENT_H
#define XGD_CONTENT_H

#include "xgd.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* printf-style checking of the loaders' message helpers; C99 formats (%zu): mingw checks plain
 * printf as MS printf. */
#if defined(__MINGW32__)
#define XGDI_CONTENT_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#else
#define XGDI_CONTENT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#endif

/* The largest side any loader accepts without a device (and the compile-time limit given to
 * stb_image): the largest texture any xgd renderer creates. */
#define XGDI_IMAGE_MAX_DIM 16384

/* Bytes of memory (data, size) or a file (file, size = its length); pos is the next byte. */
typedef struct xgdi_image_source {
    const uint8_t *data;
    FILE *file;
    size_t size;
    size_t pos;
    int io_errno;     /* errno of a failed file read, 0 when none */
} xgdi_image_source;

/* Reads up to n bytes at pos (fewer only at the end or on a read error). */
size_t xgdi_source_read(xgdi_image_source *src, void *dst, size_t n);
/* Moves pos to offset (at most size); false on a seek error. */
bool xgdi_source_seek(xgdi_image_source *src, size_t offset);

typedef enum xgdi_image_kind {
    XGDI_IMAGE_UNKNOWN = 0,
    XGDI_IMAGE_PNG,
    XGDI_IMAGE_JPEG,
    XGDI_IMAGE_BMP,
    XGDI_IMAGE_GIF,
    XGDI_IMAGE_TGA,
    XGDI_IMAGE_DDS
} xgdi_image_kind;

const char *xgdi_image_kind_name(xgdi_image_kind kind);
/* The kind the first bytes announce (PNG, JPEG, GIF, BMP and DDS signatures). TGA has no
 * signature: UNKNOWN here, and the stb decoder's own test decides. */
xgdi_image_kind xgdi_image_sniff(const uint8_t *head, size_t n);

/* ---- stb_image (stb.c): JPEG, BMP, GIF (first frame), TGA ------------------------------- */

/* Reads the header: *kind, *width, *height. Sides above max_dim are NOT_SUPPORTED; data no
 * stb decoder recognises is INVALID_OPERATION when `announced` is UNKNOWN (not an image format
 * xgd loads), else INVALID_ARGUMENT (a damaged file of the announced kind). */
xgd_result xgdi_stb_info(xgdi_image_source *src, xgdi_image_kind announced, int max_dim,
                         xgdi_image_kind *kind, int *width, int *height, char *err,
                         size_t err_size);
/* Decodes from the start of src into a malloc'd RGBA8 image of exactly width x height (the
 * sides xgdi_stb_info returned); stb's allocations together are capped by what a valid image
 * of that size needs. */
xgd_result xgdi_stb_decode(xgdi_image_source *src, int width, int height, uint8_t **rgba,
                           char *err, size_t err_size);
/* Encodes an RGBA8 image as a baseline JPEG (quality 1..100; alpha is dropped) into a
 * malloc'd buffer. */
xgd_result xgdi_jpeg_encode(int width, int height, const uint8_t *rgba, int quality,
                            uint8_t **out, size_t *out_size, char *err, size_t err_size);

/* ---- DDS (dds.c) --------------------------------------------------------------------------- */

typedef struct xgdi_dds_info {
    xgd_texture_kind kind;         /* XGD_TEXTURE_2D, XGD_TEXTURE_CUBE or XGD_TEXTURE_3D */
    int width, height, depth;      /* depth 1 unless 3D */
    int levels;
    xgd_surface_format format;
    size_t data_offset;            /* where the texels start in the file */
    size_t file_bytes;             /* bytes of texels the file holds for every face and level */
    size_t texture_bytes;          /* bytes the texture's contents take (the converted texels) */
    int convert;                   /* how file texels become the format's (dds.c) */
} xgdi_dds_info;

/* Parses and checks the header against the limits (max_dim per side of 2D and cube textures;
 * Texture3D sides are checked by the texture rules) and the source's length. Nothing
 * image-sized is allocated. */
xgd_result xgdi_dds_parse(xgdi_image_source *src, int max_dim, xgdi_dds_info *info, char *err,
                          size_t err_size);
/* Reads the texels into a malloc'd buffer of info->texture_bytes in the texture's layout
 * (faces, then levels, each level's slices). */
xgd_result xgdi_dds_read(xgdi_image_source *src, const xgdi_dds_info *info, uint8_t **contents,
                         char *err, size_t err_size);

#endif /* XGD_CONTENT_H */
