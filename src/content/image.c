/*
 * image.c - XNA's Texture2D.FromStream for every image format xgd reads (the format is told
 * by the content, never by a file name), DDS into Texture2D / TextureCube / Texture3D, and
 * SaveAsJpeg. PNG goes through libspng (src/core/png.c), JPEG / BMP / GIF / TGA through
 * stb_image (stb.c), DDS through dds.c.
 */
#include "content.h"
#include "internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

size_t xgdi_source_read(xgdi_image_source *src, void *dst, size_t n)
{
    if (src->pos >= src->size) return 0;
    if (n > src->size - src->pos) n = src->size - src->pos;
    if (src->file == NULL) {
        memcpy(dst, src->data + src->pos, n);
        src->pos += n;
        return n;
    }
    size_t got = fread(dst, 1, n, src->file);
    if (got < n && ferror(src->file)) src->io_errno = errno != 0 ? errno : EIO;
    src->pos += got;
    return got;
}

bool xgdi_source_seek(xgdi_image_source *src, size_t offset)
{
    if (offset > src->size) offset = src->size;
    if (src->file != NULL && src->pos != offset) {
        if (offset > (size_t)LONG_MAX || fseek(src->file, (long)offset, SEEK_SET) != 0) {
            src->io_errno = errno != 0 ? errno : EIO;
            return false;
        }
    }
    src->pos = offset;
    return true;
}

const char *xgdi_image_kind_name(xgdi_image_kind kind)
{
    switch (kind) {
    case XGDI_IMAGE_PNG: return "PNG";
    case XGDI_IMAGE_JPEG: return "JPEG";
    case XGDI_IMAGE_BMP: return "BMP";
    case XGDI_IMAGE_GIF: return "GIF";
    case XGDI_IMAGE_TGA: return "TGA";
    case XGDI_IMAGE_DDS: return "DDS";
    default: return "image";
    }
}

xgdi_image_kind xgdi_image_sniff(const uint8_t *head, size_t n)
{
    static const uint8_t png[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
    if (n >= 8 && memcmp(head, png, 8) == 0) return XGDI_IMAGE_PNG;
    if (n >= 4 && memcmp(head, "DDS ", 4) == 0) return XGDI_IMAGE_DDS;
    if (n >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff) return XGDI_IMAGE_JPEG;
    if (n >= 6 && (memcmp(head, "GIF87a", 6) == 0 || memcmp(head, "GIF89a", 6) == 0))
        return XGDI_IMAGE_GIF;
    if (n >= 2 && head[0] == 'B' && head[1] == 'M') return XGDI_IMAGE_BMP;
    return XGDI_IMAGE_UNKNOWN;
}

/* Opens a file as a source (its length from the end position). */
static xgd_result open_file(const char *path, xgdi_image_source *src, char *err, size_t n)
{
    memset(src, 0, sizeof *src);
    src->file = fopen(path, "rb");
    if (src->file == NULL) {
        snprintf(err, n, "cannot open: %s", strerror(errno));
        return XGD_ERROR_IO;
    }
    long len = -1;
    if (fseek(src->file, 0, SEEK_END) == 0) len = ftell(src->file);
    if (len < 0 || fseek(src->file, 0, SEEK_SET) != 0) {
        snprintf(err, n, "cannot read: %s", strerror(errno));
        fclose(src->file);
        src->file = NULL;
        return XGD_ERROR_IO;
    }
    src->size = (size_t)len;
    return XGD_OK;
}

/* XNA's Texture2D.FromStream stores a fully transparent pixel as (0,0,0,0), whatever colour
 * the file gives it; every other pixel keeps its colour as stored (not premultiplied). */
static void fromstream_alpha_rule(uint8_t *rgba, size_t bytes)
{
    for (size_t i = 0; i + 3 < bytes; i += 4)
        if (rgba[i + 3] == 0) rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
}

/* DDS into a texture of the kind the file holds; want_2d refuses the other kinds (the
 * Texture2D entry points). */
static xgd_result texture_from_dds(xgd_device *dev, xgdi_image_source *src, bool want_2d,
                                   const char *what, xgd_texture **out)
{
    char err[256] = "";
    xgdi_dds_info info;
    xgd_result r = xgdi_dds_parse(src, xgdi_max_texture_size(dev), &info, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(dev, r, "DDS decode%s: %s", what, err);
    if (want_2d && info.kind != XGD_TEXTURE_2D)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "DDS decode%s: the file holds a %s, not a Texture2D (load it with "
                         "xgd_texture_from_dds_file / _memory)",
                         what, info.kind == XGD_TEXTURE_CUBE ? "TextureCube" : "Texture3D");
    /* The texture rules (profile, renderer formats, Reach sizes, mip count) before any texel
     * is read. */
    r = xgdi_texture_validate_contents(dev, info.kind, info.width, info.height, info.depth,
                                       info.levels, info.format);
    if (r != XGD_OK) return r;
    uint8_t *contents = NULL;
    r = xgdi_dds_read(src, &info, &contents, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(dev, r, "DDS decode%s: %s", what, err);
    return xgdi_texture_create_contents(dev, info.kind, info.width, info.height, info.depth,
                                        info.levels, info.format, contents, info.texture_bytes,
                                        out);
}

static xgd_result texture_from_stb(xgd_device *dev, xgdi_image_source *src,
                                   xgdi_image_kind announced, const char *what,
                                   xgd_texture **out)
{
    char err[256] = "";
    int w = 0, h = 0;
    xgdi_image_kind kind = XGDI_IMAGE_UNKNOWN;
    xgd_result r = xgdi_stb_info(src, announced, xgdi_max_texture_size(dev), &kind, &w, &h, err,
                                 sizeof err);
    if (r != XGD_OK)
        return xgdi_fail(dev, r, "%s decode%s: %s", xgdi_image_kind_name(announced), what, err);
    r = xgdi_texture_validate_contents(dev, XGD_TEXTURE_2D, w, h, 1, 1, XGD_SURFACE_FORMAT_COLOR);
    if (r != XGD_OK) return r;
    uint8_t *rgba = NULL;
    r = xgdi_stb_decode(src, w, h, &rgba, err, sizeof err);
    if (r != XGD_OK)
        return xgdi_fail(dev, r, "%s decode%s: %s", xgdi_image_kind_name(kind), what, err);
    size_t bytes = (size_t)w * (size_t)h * 4;
    fromstream_alpha_rule(rgba, bytes);
    return xgdi_texture_create_contents(dev, XGD_TEXTURE_2D, w, h, 1, 1,
                                        XGD_SURFACE_FORMAT_COLOR, rgba, bytes, out);
}

static xgd_result load_source(xgd_device *dev, xgdi_image_source *src, const char *path,
                              const char *what, xgd_texture **out)
{
    uint8_t head[16];
    size_t n = xgdi_source_read(src, head, sizeof head);
    if (src->io_errno != 0)
        return xgdi_fail(dev, XGD_ERROR_IO, "image decode%s: read error: %s", what,
                         strerror(src->io_errno));
    xgdi_image_kind kind = xgdi_image_sniff(head, n);
    switch (kind) {
    case XGDI_IMAGE_PNG:
        /* libspng reads the memory or streams the file itself. */
        if (path != NULL) return xgd_texture2d_from_png_file(dev, path, out);
        return xgd_texture2d_from_png_memory(dev, src->data, src->size, out);
    case XGDI_IMAGE_DDS:
        return texture_from_dds(dev, src, true, what, out);
    default:
        return texture_from_stb(dev, src, kind, what, out);
    }
}

static xgd_result check_load_args(xgd_device *device, xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    return XGD_OK;
}

xgd_result xgd_texture2d_from_memory(xgd_device *device, const void *data, size_t size,
                                     xgd_texture **out)
{
    xgd_result r = check_load_args(device, out);
    if (r != XGD_OK) return r;
    if (data == NULL || size == 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "image data is empty");
    xgdi_image_source src = { .data = data, .size = size };
    return load_source(device, &src, NULL, "", out);
}

xgd_result xgd_texture2d_from_file(xgd_device *device, const char *path, xgd_texture **out)
{
    xgd_result r = check_load_args(device, out);
    if (r != XGD_OK) return r;
    if (path == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    char err[256] = "", what[160];
    snprintf(what, sizeof what, " '%s'", path);
    xgdi_image_source src;
    r = open_file(path, &src, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(device, r, "image decode%s: %s", what, err);
    /* As the memory loader: no bytes is no image data, not an unknown format. */
    if (src.size == 0)
        r = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "image decode%s: the file is empty",
                      what);
    else
        r = load_source(device, &src, path, what, out);
    fclose(src.file);
    return r;
}

xgd_result xgd_texture_from_dds_memory(xgd_device *device, const void *data, size_t size,
                                       xgd_texture **out)
{
    xgd_result r = check_load_args(device, out);
    if (r != XGD_OK) return r;
    if (data == NULL || size == 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "DDS data is empty");
    xgdi_image_source src = { .data = data, .size = size };
    return texture_from_dds(device, &src, false, "", out);
}

xgd_result xgd_texture_from_dds_file(xgd_device *device, const char *path, xgd_texture **out)
{
    xgd_result r = check_load_args(device, out);
    if (r != XGD_OK) return r;
    if (path == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    char err[256] = "", what[160];
    snprintf(what, sizeof what, " '%s'", path);
    xgdi_image_source src;
    r = open_file(path, &src, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(device, r, "DDS decode%s: %s", what, err);
    if (src.size == 0)
        r = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "DDS decode%s: the file is empty",
                      what);
    else
        r = texture_from_dds(device, &src, false, what, out);
    fclose(src.file);
    return r;
}

/* ---- JPEG saving ---------------------------------------------------------------------------- */

static xgd_result write_file(const char *path, const uint8_t *bytes, size_t n, char *err,
                             size_t err_size)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        snprintf(err, err_size, "cannot create: %s", strerror(errno));
        return XGD_ERROR_IO;
    }
    xgd_result r = XGD_OK;
    if (fwrite(bytes, 1, n, f) != n) {
        snprintf(err, err_size, "cannot write: %s", strerror(errno));
        r = XGD_ERROR_IO;
    }
    if (fclose(f) != 0 && r == XGD_OK) {
        snprintf(err, err_size, "cannot write: %s", strerror(errno));
        r = XGD_ERROR_IO;
    }
    if (r != XGD_OK) remove(path);
    return r;
}

static xgd_result save_jpeg(xgd_device *dev, const char *path, int w, int h,
                            const uint8_t *rgba, int quality)
{
    char err[256] = "";
    uint8_t *jpg = NULL;
    size_t n = 0;
    xgd_result r = xgdi_jpeg_encode(w, h, rgba, quality, &jpg, &n, err, sizeof err);
    if (r == XGD_OK) r = write_file(path, jpg, n, err, sizeof err);
    free(jpg);
    if (r != XGD_OK) return xgdi_fail(dev, r, "JPEG save '%s': %s", path, err);
    return XGD_OK;
}

xgd_result xgd_image_save_jpeg(const char *path, int width, int height, const void *rgba,
                               int quality)
{
    if (path == NULL || rgba == NULL || width <= 0 || height <= 0 || quality < 1 ||
        quality > 100)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "xgd_image_save_jpeg: bad arguments");
    return save_jpeg(NULL, path, width, height, rgba, quality);
}

/* The quality XNA's SaveAsJpeg leaves unstated; 90 keeps 8-bit colour within a few steps. */
#define XGDI_SAVE_JPEG_QUALITY 90

xgd_result xgd_texture_save_jpeg(xgd_texture *texture, const char *path)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    if (texture == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    xgd_result r = xgdi_check_resource(NULL, &texture->res, XGDI_RES_TEXTURE, "texture");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&texture->res);
    if (path == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    if (texture->kind == XGD_TEXTURE_3D)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "a Texture3D cannot be saved as a JPEG (it has no single 2D level 0)");
    int w, h;
    xgdi_texture_size(texture, &w, &h);
    size_t bytes = xgdi_format_rect_size(texture->format, w, h);
    bool color = texture->format == XGD_SURFACE_FORMAT_COLOR;
    uint8_t *lvl = bytes != 0 ? malloc(bytes) : NULL;
    uint8_t *rgba = color ? lvl : malloc((size_t)w * (size_t)h * 4);
    if (lvl == NULL || rgba == NULL) {
        free(lvl);
        if (!color) free(rgba);
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    r = xgd_texture_get_data(texture->res.handle, 0, 0, NULL, lvl, bytes);
    if (r == XGD_OK) {
        if (!color) xgdi_format_to_rgba8(texture->format, lvl, w, h, rgba);
        r = save_jpeg(dev, path, w, h, rgba, XGDI_SAVE_JPEG_QUALITY);
    }
    free(lvl);
    if (!color) free(rgba);
    return r;
}
