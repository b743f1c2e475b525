/*
 * format.h - surface format facts and texel conversion, shared by core and every renderer
 * (the software renderer samples and renders through these; GPU renderers use the size facts).
 */
#ifndef XGD_FORMAT_H
#define XGD_FORMAT_H

#include "xgd.h"

#include <stddef.h>
#include <stdint.h>

typedef struct xgdi_format_info {
    const char *name;        /* XNA name, e.g. "Color", "Bgra4444" */
    int element_size;        /* bytes per texel, or per 4x4 block when block_size == 4 */
    int block_size;          /* 1, or 4 for DXT1/3/5 */
    int channels;            /* stored channels */
    bool is_float;           /* Single, Vector2/4, HalfSingle, HalfVector2/4, HdrBlendable */
    bool is_signed;          /* NormalizedByte2/4 */
    bool hidef_only;         /* not available under the Reach profile (XNA 4.0 profile table) */
} xgdi_format_info;

/* NULL for DEFAULT/out-of-range values. */
const xgdi_format_info *xgdi_format_info_of(xgd_surface_format format);
/* Bytes of a width x height rectangle: rows of blocks for DXT (ceil(w/4) x ceil(h/4)). 0 for
 * an unknown format, a dimension below 1, or a byte count that does not fit in size_t: callers
 * that may see user-sized regions treat 0 as "cannot be addressed", never as an empty rect. */
size_t xgdi_format_rect_size(xgd_surface_format format, int width, int height);
/* Bytes of one row of a rect (one block row for DXT); 0 under the same conditions. */
size_t xgdi_format_row_size(xgd_surface_format format, int width);

/* a * b and a + b that report wrap-around (false, *out untouched) instead of producing a small
 * wrong size that a later allocation or copy would trust. */
static inline bool xgdi_size_mul(size_t a, size_t b, size_t *out)
{
    if (b != 0 && a > SIZE_MAX / b) return false;
    *out = a * b;
    return true;
}
static inline bool xgdi_size_add(size_t a, size_t b, size_t *out)
{
    if (a > SIZE_MAX - b) return false;
    *out = a + b;
    return true;
}
/* Dimension of mip level `level` of a base dimension: max(1, base >> level). */
int xgdi_mip_dim(int base, int level);
/* Levels of the full chain for w x h: floor(log2(max(w,h))) + 1. */
int xgdi_full_mip_count(int width, int height);

/*
 * Decodes `count` consecutive texels of an uncompressed format into RGBA floats, using the
 * sampling convention of Direct3D: missing colour channels read 0, missing alpha reads 1
 * (Alpha8 reads (0,0,0,a)); unorm v/max; snorm max(-1, v/max); floats as stored.
 */
void xgdi_format_decode_row(xgd_surface_format format, const void *src, int count, float *rgba);
/*
 * Encodes RGBA floats into `count` texels as a render target stores them: unorm formats clamp
 * to 0..1 and round to nearest (v * max + 0.5, truncated); snorm clamp to -1..1 and round to
 * nearest; float formats store the value (half floats round to nearest even).
 */
void xgdi_format_encode_row(xgd_surface_format format, const float *rgba, int count, void *dst);
/* Decodes one 4x4 block of DXT1/DXT3/DXT5 into 16 RGBA8 texels (row-major) following the
 * BC1-BC3 rules of the Direct3D specification (BC1's 3-colour mode when c0 <= c1, with
 * transparent black for index 3). */
void xgdi_dxt_decode_block(xgd_surface_format format, const uint8_t *block, uint8_t rgba[16][4]);
/* Decodes a whole DXT rectangle (w x h texels, block rows) into RGBA8 rows of w*4 bytes. */
void xgdi_dxt_decode_image(xgd_surface_format format, const void *blocks, int width, int height,
                           uint8_t *rgba);

/*
 * Packed formats kept in a wider unorm format by a renderer that lacks them natively
 * (Bgr565, Bgra5551, Bgra4444). xgdi_packed_wide_format gives the storage format (Color or
 * Rgba64 layout; DEFAULT for any other format). Widening stores each field v of m = 2^bits - 1
 * as round(v * top / m) (top 255 or 65535; a missing alpha as top), so sampling reads v/m
 * exactly for 4-bit fields and within 0.5/65535 for 5- and 6-bit ones; narrowing rounds back
 * (round(e * m / top)), which returns every widened texel's bits exactly.
 */
xgd_surface_format xgdi_packed_wide_format(xgd_surface_format format);
void xgdi_packed_widen_row(xgd_surface_format format, const void *src, int count, void *dst);
void xgdi_packed_narrow_row(xgd_surface_format format, const void *src, int count, void *dst);

float xgdi_half_to_float(uint16_t h);
uint16_t xgdi_float_to_half(float f); /* round to nearest even; overflow to infinity */

/* Converts any level data (in `format`, tightly packed) to RGBA8 (for PNG saving and
 * readback helpers): floats are clamped to 0..1 and rounded. */
void xgdi_format_to_rgba8(xgd_surface_format format, const void *src, int width, int height,
                          uint8_t *rgba);

/* PNG through libspng (src/core/png.c). *rgba is malloc'd. Messages go into err.
 * Decoding never allocates more than the declared image allows: the IHDR is read first and a
 * side above the limit is refused (NOT_SUPPORTED) before anything image-sized is allocated;
 * ancillary chunks are capped (NOT_SUPPORTED past the cap); a damaged file is INVALID_ARGUMENT
 * (truncation named), a file that cannot be read IO. */
/* The limit per side of the loaders that have no device (xgd_image_load_png, xgdi_png_decode):
 * the largest texture any renderer of xgd creates. */
#define XGDI_PNG_MAX_DIM 16384
typedef struct xgdi_png_reader xgdi_png_reader;
/* Opens a PNG and reads its header: *width x *height, each at most max_dim (1..65535). The
 * memory reader borrows data until xgdi_png_close. */
xgd_result xgdi_png_open_memory(const void *data, size_t size, int max_dim,
                                xgdi_png_reader **out, int *width, int *height, char *err,
                                size_t err_size);
xgd_result xgdi_png_open_file(const char *path, int max_dim, xgdi_png_reader **out, int *width,
                              int *height, char *err, size_t err_size);
/* Decodes the image as 8-bit RGBA rows (width * 4 bytes) into rgba; size must be at least
 * width * height * 4. Once per reader. */
xgd_result xgdi_png_read_rgba(xgdi_png_reader *reader, uint8_t *rgba, size_t size, char *err,
                              size_t err_size);
void xgdi_png_close(xgdi_png_reader *reader);
/* Open, allocate width * height * 4 and decode, limited to XGDI_PNG_MAX_DIM per side (decode)
 * or max_dim (load_file). */
xgd_result xgdi_png_decode(const void *data, size_t size, int *width, int *height, uint8_t **rgba,
                           char *err, size_t err_size);
xgd_result xgdi_png_load_file(const char *path, int max_dim, int *width, int *height,
                              uint8_t **rgba, char *err, size_t err_size);
xgd_result xgdi_png_encode_file(const char *path, int width, int height, const uint8_t *rgba,
                                char *err, size_t err_size);

#endif /* XGD_FORMAT_H */
