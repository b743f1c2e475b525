/*
 * texture.c - Texture2D, TextureCube, RenderTarget2D/Cube: construction and validation, the CPU
 * shadow, set_data/get_data, destroy (including a bound target), PNG load and save.
 * Spec 001 "Textures and render targets". Texture3D (XNA's volume texture) shares the
 * construction, shadow and recovery paths; its data calls are xgd_texture3d_set_data/get_data.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

static bool is_render_target(const xgd_texture *t)
{
    return t->kind == XGD_RENDER_TARGET_2D || t->kind == XGD_RENDER_TARGET_CUBE;
}

static bool is_cube(const xgd_texture *t)
{
    return t->kind == XGD_TEXTURE_CUBE || t->kind == XGD_RENDER_TARGET_CUBE;
}

static bool is_volume(const xgd_texture *t) { return t->kind == XGD_TEXTURE_3D; }

static int face_count(const xgd_texture *t) { return is_cube(t) ? 6 : 1; }

void xgdi_texture_size(const xgd_texture *t, int *width, int *height)
{
    *width = t->width;
    *height = is_cube(t) ? t->width : t->height;
}

/* A Texture3D level holds its slices (depth 1 for every other kind). */
static size_t level_bytes(const xgd_texture *t, int level)
{
    int w, h;
    xgdi_texture_size(t, &w, &h);
    return xgdi_format_rect_size(t->format, xgdi_mip_dim(w, level), xgdi_mip_dim(h, level)) *
           (size_t)xgdi_mip_dim(t->depth, level);
}

static size_t face_bytes(const xgd_texture *t)
{
    size_t n = 0;
    for (int l = 0; l < t->levels; l++) n += level_bytes(t, l);
    return n;
}

/* Shadow layout (internal.h): face-major, then level, tightly packed. */
static size_t shadow_offset(const xgd_texture *t, int face, int level)
{
    size_t off = (size_t)face * face_bytes(t);
    for (int l = 0; l < level; l++) off += level_bytes(t, l);
    return off;
}

static xgd_device *raw_device(const xgdi_resource *res)
{
    return res->token != NULL ? res->token->device : NULL;
}

static xgd_result create_native(xgd_device *dev, xgd_texture *t)
{
    xgdi_texture_desc d = {
        .cube = is_cube(t),
        .render_target = is_render_target(t),
        .width = t->width,
        .height = is_cube(t) ? t->width : t->height,
        .levels = t->levels,
        .format = t->format,
        .depth_format = is_render_target(t) ? t->depth_format : XGD_DEPTH_FORMAT_NONE,
        .samples = t->samples > 1 ? t->samples : 1,
        .debug_name = NULL,
        .volume = is_volume(t),
        .depth = t->depth,
    };
    xgdi_native_texture *n = NULL;
    xgd_result r = dev->ops->texture_create(dev->renderer, &d, &n);
    if (r != XGD_OK) return r;
    t->native = n;
    return XGD_OK;
}

static xgd_result upload_level(xgd_device *dev, xgd_texture *t, int face, int level,
                               const void *data)
{
    int w, h;
    xgdi_texture_size(t, &w, &h);
    xgd_rect rect = { 0, 0, xgdi_mip_dim(w, level), xgdi_mip_dim(h, level) };
    if (is_volume(t)) {
        xgd_box box = { 0, 0, 0, rect.width, rect.height, xgdi_mip_dim(t->depth, level) };
        size_t row = xgdi_format_row_size(t->format, rect.width);
        return dev->ops->texture_upload_volume(dev->renderer, t->native, level, &box, data, row,
                                               xgdi_format_rect_size(t->format, rect.width,
                                                                     rect.height));
    }
    return dev->ops->texture_upload(dev->renderer, t->native, face, level, &rect, data,
                                    xgdi_format_row_size(t->format, rect.width));
}

/* Initial or recovered contents: the shadow when there is one, else `contents` when given
 * (a texture made from an image file: every face and level in the shadow's layout), else a
 * zero-filled level 0 (spec 001: ImageData starts with a zero-filled level 0). */
static xgd_result upload_initial(xgd_device *dev, xgd_texture *t, const uint8_t *contents)
{
    if (is_render_target(t)) return XGD_OK;
    const uint8_t *all = t->shadow != NULL ? t->shadow : contents;
    if (all != NULL) {
        for (int f = 0; f < face_count(t); f++) {
            for (int l = 0; l < t->levels; l++) {
                xgd_result r = upload_level(dev, t, f, l, all + shadow_offset(t, f, l));
                if (r != XGD_OK) return r;
            }
        }
        return XGD_OK;
    }
    uint8_t *zeros = calloc(1, level_bytes(t, 0));
    if (zeros == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    xgd_result r = XGD_OK;
    for (int f = 0; f < face_count(t) && r == XGD_OK; f++) r = upload_level(dev, t, f, 0, zeros);
    free(zeros);
    return r;
}

/* ---- registry hooks ------------------------------------------------------------------------ */

static void tex_release_native(xgdi_resource *res)
{
    xgd_texture *t = (xgd_texture *)res;
    xgd_device *dev = raw_device(res);
    if (t->native != NULL && dev != NULL && dev->renderer != NULL)
        dev->ops->texture_destroy(dev->renderer, t->native);
    t->native = NULL;
}

static xgd_result tex_recreate_native(xgdi_resource *res)
{
    xgd_texture *t = (xgd_texture *)res;
    xgd_device *dev = raw_device(res);
    if (dev == NULL || dev->renderer == NULL) return XGD_ERROR_DEVICE_LOST;
    /* The restarted renderer was probed again (spec 000 packed formats): a format it can no
     * longer store is a recovery failure, not a texture with corrupt texels. */
    if (is_render_target(t) ? !dev->caps.formats[t->format].render_target
        : is_volume(t)      ? !dev->caps.formats[t->format].volume
                            : !dev->caps.formats[t->format].texture)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "format %s is no longer available after the restore",
                         xgdi_format_info_of(t->format)->name);
    xgd_result r = create_native(dev, t);
    if (r != XGD_OK) return r;
    /* Spec 000 "Device recovery": textures re-upload their CPU shadow; GPU-only content (render
     * targets, textures whose shadow was dropped) comes back lost. */
    if (is_render_target(t) || t->shadow == NULL) t->content_lost = true;
    return upload_initial(dev, t, NULL);
}

static void tex_on_device_destroyed(xgdi_resource *res)
{
    xgd_texture *t = (xgd_texture *)res;
    free(t->shadow);
    t->shadow = NULL;
}

static const xgdi_resource_vtable texture_vt = {
    .release_native = tex_release_native,
    .recreate_native = tex_recreate_native,
    .on_device_destroyed = tex_on_device_destroyed,
};

/* ---- creation ------------------------------------------------------------------------------ */

/* Bytes of every level of every face (the CPU shadow's size), or false when that does not fit
 * in size_t. Every other size core computes for the texture (a level, a face, a region inside
 * a level) is a part of this total, so once it fits none of them can wrap. */
static bool texture_bytes(const xgd_texture *t, size_t *out)
{
    int w, h;
    xgdi_texture_size(t, &w, &h);
    size_t total = 0;
    for (int l = 0; l < t->levels; l++) {
        size_t rect = xgdi_format_rect_size(t->format, xgdi_mip_dim(w, l), xgdi_mip_dim(h, l));
        size_t level;
        if (rect == 0 || !xgdi_size_mul(rect, (size_t)xgdi_mip_dim(t->depth, l), &level) ||
            !xgdi_size_add(total, level, &total))
            return false;
    }
    return xgdi_size_mul(total, (size_t)face_count(t), out);
}

/* level0, when not NULL, is a malloc'd image of every face and level (the shadow's layout,
 * texture_bytes in size) that becomes the texture's contents: it is taken over as the CPU
 * shadow (no second copy of the image) or uploaded and freed when there is no shadow. It is
 * freed on failure too. */
static xgd_result create_texture_with(xgd_device *dev, const xgd_texture *proto, uint8_t *level0,
                                      xgd_texture **out)
{
    xgd_texture *t = calloc(1, sizeof *t);
    if (t == NULL) {
        free(level0);
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    *t = *proto;
    if (t->depth < 1) t->depth = 1; /* every kind but Texture3D */
    size_t total = 0;
    if (!texture_bytes(t, &total)) {
        int depth = t->depth;
        free(t);
        free(level0);
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY,
                         "a %dx%dx%d texture of %d levels does not fit in the address space",
                         proto->width, proto->height, depth, proto->levels);
    }
    /* Spec 001: the CPU shadow is a context-loss copy, kept unless recovery is disabled;
     * render targets keep none (GPU-only content). */
    if (!is_render_target(t)) {
        if (!dev->desc.context_recovery) {
            t->shadow_dropped = true;
        } else if (level0 != NULL) {
            t->shadow = level0; /* exactly `total` bytes: every face and level */
            level0 = NULL;
        } else {
            t->shadow = calloc(1, total);
            if (t->shadow == NULL) {
                free(t);
                free(level0);
                return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory for the CPU shadow");
            }
        }
    }
    xgd_result r = create_native(dev, t);
    if (r == XGD_OK) {
        r = upload_initial(dev, t, level0);
        if (r != XGD_OK) dev->ops->texture_destroy(dev->renderer, t->native);
    }
    if (r == XGD_OK) {
        r = xgdi_resource_register(dev, &t->res, XGDI_RES_TEXTURE, &texture_vt);
        if (r != XGD_OK) dev->ops->texture_destroy(dev->renderer, t->native);
    }
    free(level0);
    if (r != XGD_OK) {
        free(t->shadow);
        free(t);
        return r;
    }
    dev->stats.textures_created++;
    *out = t->res.handle;
    return XGD_OK;
}

static xgd_result create_texture(xgd_device *dev, const xgd_texture *proto, xgd_texture **out)
{
    return create_texture_with(dev, proto, NULL, out);
}

static xgd_result check_create_args(xgd_device *dev, const void *desc, xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (desc == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "desc is NULL");
    return XGD_OK;
}

/* Spec 001 Texture2D construction: profile size, dimension, format, creation shape. */
static xgd_result validate_texture(xgd_device *dev, int width, int height, bool mipmap,
                                   xgd_surface_format *format)
{
    if (width <= 0 || height <= 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "texture size %dx%d must be positive",
                         width, height);
    int maxs = xgdi_max_texture_size(dev);
    if (width > maxs || height > maxs)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "texture size %dx%d exceeds the maximum %d for the profile and renderer",
                         width, height, maxs);
    if ((unsigned)*format >= XGD_SURFACE_FORMAT_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d", (int)*format);
    if (*format == XGD_SURFACE_FORMAT_DEFAULT) *format = XGD_SURFACE_FORMAT_COLOR;
    const xgdi_format_info *fi = xgdi_format_info_of(*format);
    if (fi == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d", (int)*format);
    if (!xgdi_profile_allows_format(dev, *format))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "format %s is not available under Reach",
                         fi->name);
    if (!dev->caps.formats[*format].texture)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "renderer '%s' cannot sample format %s",
                         dev->ops->name, fi->name);
    /* XNA's Reach profile (NotSupportedException): a DXT texture's size must be a multiple of
     * 4, and a size that is not a power of two rules out DXT compression and mipmaps. */
    bool reach = dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH;
    bool pow2 = is_pow2(width) && is_pow2(height);
    if (reach && fi->block_size == 4 && (width % 4 != 0 || height % 4 != 0 || !pow2))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires %s texture sizes that are multiples of 4 and powers of "
                         "two (%dx%d)",
                         fi->name, width, height);
    if (fi->block_size == 4 && (width % 4 != 0 || height % 4 != 0))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "%s texture size %dx%d must be a multiple of 4", fi->name, width, height);
    if (reach && mipmap && !pow2)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires power-of-two sizes for mipmapped textures (%dx%d)",
                         width, height);
    return XGD_OK;
}

/* XNA's Reach profile for cube maps (TextureCube and RenderTargetCube): at most 512 texels a
 * side, a power of two, and none of the NormalizedByte formats (Reach's cube formats are
 * Color, Bgr565, Bgra5551, Bgra4444 and DXT). NotSupportedException in XNA. HiDef allows any
 * size up to its texture limit and every texture format. */
#define XGDI_REACH_MAX_CUBE_SIZE 512
static xgd_result validate_reach_cube(xgd_device *dev, int size, xgd_surface_format format)
{
    if (dev->desc.profile != XGD_GRAPHICS_PROFILE_REACH) return XGD_OK;
    if (size > XGDI_REACH_MAX_CUBE_SIZE)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "cube size %d exceeds Reach's maximum of %d", size,
                         XGDI_REACH_MAX_CUBE_SIZE);
    if (!is_pow2(size))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires power-of-two cube sizes (%d)", size);
    if (format == XGD_SURFACE_FORMAT_NORMALIZED_BYTE2 ||
        format == XGD_SURFACE_FORMAT_NORMALIZED_BYTE4)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "Reach has no %s cube maps",
                         xgdi_format_info_of(format)->name);
    return XGD_OK;
}

xgd_result xgd_texture2d_create(xgd_device *device, const xgd_texture2d_desc *desc,
                                xgd_texture **out)
{
    xgd_result r = check_create_args(device, desc, out);
    if (r != XGD_OK) return r;
    xgd_surface_format format = desc->format;
    r = validate_texture(device, desc->width, desc->height, desc->mipmap, &format);
    if (r != XGD_OK) return r;
    xgd_texture proto = { .kind = XGD_TEXTURE_2D, .width = desc->width, .height = desc->height,
                          .levels = desc->mipmap ? xgdi_full_mip_count(desc->width, desc->height) : 1,
                          .format = format, .depth_format = XGD_DEPTH_FORMAT_NONE };
    return create_texture(device, &proto, out);
}

xgd_result xgd_texture_cube_create(xgd_device *device, const xgd_texture_cube_desc *desc,
                                   xgd_texture **out)
{
    xgd_result r = check_create_args(device, desc, out);
    if (r != XGD_OK) return r;
    xgd_surface_format format = desc->format;
    r = validate_texture(device, desc->size, desc->size, desc->mipmap, &format);
    if (r == XGD_OK) r = validate_reach_cube(device, desc->size, format);
    if (r != XGD_OK) return r;
    xgd_texture proto = { .kind = XGD_TEXTURE_CUBE, .width = desc->size, .height = desc->size,
                          .levels = desc->mipmap ? xgdi_full_mip_count(desc->size, desc->size) : 1,
                          .format = format, .depth_format = XGD_DEPTH_FORMAT_NONE };
    return create_texture(device, &proto, out);
}

/* XNA HiDef's volume texture limit: 256 texels along each axis. */
#define XGDI_MAX_VOLUME_SIZE 256

/* XNA Texture3D construction: HiDef only, 1..256 per dimension, a format the renderer can use
 * for volume textures. Reach is refused first: XNA throws NotSupportedException for any
 * Texture3D under Reach, whatever its size or format. */
static xgd_result validate_volume(xgd_device *device, int w, int h, int d,
                                  xgd_surface_format *format_io)
{
    if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "the Reach profile has no volume textures (Texture3D needs HiDef)");
    if (w <= 0 || h <= 0 || d <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "Texture3D size %dx%dx%d must be positive", w, h, d);
    /* As Texture2D past its profile limit: XNA throws NotSupportedException for a size
     * beyond what the profile supports (sizes below 1 stay argument errors above). */
    if (w > XGDI_MAX_VOLUME_SIZE || h > XGDI_MAX_VOLUME_SIZE || d > XGDI_MAX_VOLUME_SIZE)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "Texture3D size %dx%dx%d exceeds HiDef's volume limit of %d per "
                         "dimension", w, h, d, XGDI_MAX_VOLUME_SIZE);
    xgd_surface_format format = *format_io;
    if ((unsigned)format >= XGD_SURFACE_FORMAT_COUNT)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d",
                         (int)format);
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d",
                         (int)format);
    /* What the renderer reports it can do with volumes (xgd_format_support.volume): DXT and
     * the float formats only where its native API can. */
    if (!device->caps.formats[format].volume)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' cannot use format %s for volume textures",
                         device->ops->name, fi->name);
    if (fi->block_size == 4 && (w % 4 != 0 || h % 4 != 0))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "%s Texture3D size %dx%d must be a multiple of 4", fi->name, w, h);
    *format_io = format;
    return XGD_OK;
}

xgd_result xgd_texture3d_create(xgd_device *device, const xgd_texture3d_desc *desc,
                                xgd_texture **out)
{
    xgd_result r = check_create_args(device, desc, out);
    if (r != XGD_OK) return r;
    int w = desc->width, h = desc->height, d = desc->depth;
    xgd_surface_format format = desc->format;
    r = validate_volume(device, w, h, d, &format);
    if (r != XGD_OK) return r;
    int biggest = w > d ? w : d;
    xgd_texture proto = { .kind = XGD_TEXTURE_3D, .width = w, .height = h, .depth = d,
                          .levels = desc->mipmap ? xgdi_full_mip_count(biggest, h) : 1,
                          .format = format, .depth_format = XGD_DEPTH_FORMAT_NONE };
    return create_texture(device, &proto, out);
}

xgd_result xgdi_texture_validate_contents(xgd_device *dev, xgd_texture_kind kind, int width,
                                          int height, int depth, int levels,
                                          xgd_surface_format format)
{
    xgd_result r;
    int chain;
    if (kind == XGD_TEXTURE_3D) {
        r = validate_volume(dev, width, height, depth, &format);
        int biggest = width > depth ? width : depth;
        chain = r == XGD_OK ? xgdi_full_mip_count(biggest, height) : 0;
    } else if (kind == XGD_TEXTURE_2D || kind == XGD_TEXTURE_CUBE) {
        if (kind == XGD_TEXTURE_CUBE) height = width;
        r = validate_texture(dev, width, height, levels > 1, &format);
        if (r == XGD_OK && kind == XGD_TEXTURE_CUBE) r = validate_reach_cube(dev, width, format);
        chain = r == XGD_OK ? xgdi_full_mip_count(width, height) : 0;
    } else {
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "texture kind %d cannot be loaded",
                         (int)kind);
    }
    if (r != XGD_OK) return r;
    /* A level below 1x1(x1) does not exist: a mip count beyond the full chain is a damaged
     * file, not a bigger texture. */
    if (levels < 1 || levels > chain)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "%d mip levels for a %dx%dx%d texture (the full chain has %d)", levels,
                         width, height, depth, chain);
    return XGD_OK;
}

xgd_result xgdi_texture_create_contents(xgd_device *dev, xgd_texture_kind kind, int width,
                                        int height, int depth, int levels,
                                        xgd_surface_format format, uint8_t *contents,
                                        size_t size, xgd_texture **out)
{
    xgd_result r = xgdi_texture_validate_contents(dev, kind, width, height, depth, levels, format);
    if (r != XGD_OK) {
        free(contents);
        return r;
    }
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    xgd_texture proto = { .kind = kind, .width = width,
                          .height = kind == XGD_TEXTURE_CUBE ? width : height,
                          .depth = kind == XGD_TEXTURE_3D ? depth : 1, .levels = levels,
                          .format = format, .depth_format = XGD_DEPTH_FORMAT_NONE };
    size_t total = 0;
    if (!texture_bytes(&proto, &total) || total != size) {
        free(contents);
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "loaded contents of %zu bytes for a texture of %zu bytes", size, total);
    }
    return create_texture_with(dev, &proto, contents, out);
}

/* Spec 001 "RenderTarget2D is a texture with attachment policy". */
static xgd_result create_render_target(xgd_device *dev, const xgd_render_target_desc *desc,
                                       bool cube, xgd_texture **out)
{
    xgd_result r = check_create_args(dev, desc, out);
    if (r != XGD_OK) return r;
    int width = desc->width, height = cube ? desc->width : desc->height;
    if ((unsigned)desc->usage > XGD_RENDER_TARGET_USAGE_PLATFORM_CONTENTS)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown usage %d", (int)desc->usage);
    if ((unsigned)desc->preferred_format >= XGD_SURFACE_FORMAT_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d",
                         (int)desc->preferred_format);
    if ((unsigned)desc->preferred_depth_format >= XGD_DEPTH_FORMAT_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown depth format %d",
                         (int)desc->preferred_depth_format);
    if (desc->preferred_multisample_count < 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "multisample count %d is negative",
                         desc->preferred_multisample_count);

    /* SelectRenderTargetFormatEXT: XNA's "preferred" format; what the profile forbids or the
     * renderer cannot render to becomes Color. */
    xgd_surface_format format = desc->preferred_format;
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    if (!xgdi_profile_allows_format(dev, format) || !dev->caps.formats[format].render_target)
        format = XGD_SURFACE_FORMAT_COLOR;
    /* Reach has no NormalizedByte cube maps (validate_reach_cube): a preferred one falls back. */
    if (cube && dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH &&
        (format == XGD_SURFACE_FORMAT_NORMALIZED_BYTE2 ||
         format == XGD_SURFACE_FORMAT_NORMALIZED_BYTE4))
        format = XGD_SURFACE_FORMAT_COLOR;

    /* DEFAULT means None for render targets (xgd.h); an unsupported request falls back through
     * the formats the renderer can create, reported as applied. */
    xgd_depth_format depth = desc->preferred_depth_format;
    if (depth == XGD_DEPTH_FORMAT_DEFAULT) depth = XGD_DEPTH_FORMAT_NONE;
    while (depth != XGD_DEPTH_FORMAT_NONE && !dev->caps.depth_formats[depth])
        depth = (xgd_depth_format)(depth - 1);

    /* CreateValidatedRenderTargetRenderer: positive size, profile maximum, 2048:1 aspect, the
     * renderer's verdict, multisample rounded down to a power of two and clamped. */
    if (width <= 0 || height <= 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "render target size %dx%d must be positive", width, height);
    int maxs = xgdi_max_texture_size(dev);
    if (width > maxs || height > maxs)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "render target size %dx%d exceeds the maximum %d", width, height, maxs);
    int lo = width < height ? width : height, hi = width < height ? height : width;
    if ((long)hi > 2048L * lo)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "render target %dx%d exceeds the 2048:1 aspect ratio", width, height);
    if (!dev->caps.formats[format].render_target)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' cannot render to format %s", dev->ops->name,
                         xgdi_format_info_of(format)->name);
    if (dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH && desc->mipmap &&
        (!is_pow2(width) || !is_pow2(height)))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires power-of-two sizes for mipmapped render targets (%dx%d)",
                         width, height);
    if (cube) {
        r = validate_reach_cube(dev, width, format);
        if (r != XGD_OK) return r;
    }
    int samples = 0;
    if (desc->preferred_multisample_count > 1) {
        samples = 1;
        while (samples <= desc->preferred_multisample_count / 2) samples *= 2;
        int maxms = dev->caps.max_multisample_count;
        if (!dev->caps.formats[format].multisample) maxms = 0;
        while (samples > 1 && samples > maxms) samples /= 2;
        if (samples <= 1) samples = 0;
    }

    xgd_texture proto = {
        .kind = cube ? XGD_RENDER_TARGET_CUBE : XGD_RENDER_TARGET_2D,
        .width = width, .height = height,
        .levels = desc->mipmap ? xgdi_full_mip_count(width, height) : 1,
        .format = format, .depth_format = depth, .samples = samples,
        .usage = desc->usage == XGD_RENDER_TARGET_USAGE_DEFAULT ? XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS
                                                                : desc->usage,
    };
    return create_texture(dev, &proto, out);
}

xgd_result xgd_render_target2d_create(xgd_device *device, const xgd_render_target_desc *desc,
                                      xgd_texture **out)
{
    return create_render_target(device, desc, false, out);
}

xgd_result xgd_render_target_cube_create(xgd_device *device, const xgd_render_target_desc *desc,
                                         xgd_texture **out)
{
    return create_render_target(device, desc, true, out);
}

/* ---- destroy, info -------------------------------------------------------------------------- */

void xgd_texture_destroy(xgd_texture *texture)
{
    XGDI_RESOLVE_DESTROY(texture, XGDI_RES_TEXTURE);
    if (texture == NULL) return;
    if (!texture->res.disposed) {
        xgd_device *dev = xgdi_resource_device(&texture->res);
        if (dev != NULL) {
            /* Spec 001 "Bound target disposal has two paths": the destructor path detaches. */
            if (is_render_target(texture)) xgdi_detach_destroyed_render_target(dev, texture);
            bool touched = false;
            for (int i = 0; i < XGDI_MAX_TEXTURE_SLOTS; i++) {
                if (dev->textures[i] == texture) {
                    dev->textures[i] = NULL;
                    touched = true;
                }
                if (texture->native != NULL && dev->draw_state.textures[i] == texture->native) {
                    dev->draw_state.textures[i] = NULL;
                    touched = true;
                }
            }
            if (xgdi_vertex_textures_forget_texture(dev, texture)) touched = true;
            if (touched) xgdi_invalidate_draw_state(dev);
        }
        xgdi_resource_dispose(&texture->res);
    }
    free(texture->shadow);
    free(texture);
}

xgd_result xgd_texture_get_info(const xgd_texture *texture, xgd_texture_info *out)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    if (texture == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    xgd_device *dev = xgdi_resource_device(&texture->res);
    if (dev == NULL) return xgdi_fail(NULL, XGD_ERROR_OBJECT_DISPOSED, "texture is disposed");
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    memset(out, 0, sizeof *out);
    out->kind = texture->kind;
    xgdi_texture_size(texture, &out->width, &out->height);
    out->level_count = texture->levels;
    out->format = texture->format;
    out->depth_format = is_render_target(texture) ? texture->depth_format : XGD_DEPTH_FORMAT_NONE;
    out->multisample_count = texture->samples;
    out->usage = texture->usage;
    out->content_lost = texture->content_lost;
    out->has_cpu_shadow = texture->shadow != NULL;
    out->depth = texture->depth;
    return XGD_OK;
}

/* ---- set_data / get_data -------------------------------------------------------------------- */

static bool is_bound(const xgd_device *dev, const xgd_texture *t)
{
    for (int i = 0; i < dev->binding_count; i++)
        if (dev->bindings[i].target == t) return true;
    return false;
}

/* Validates a data call; fills *rect with the level rectangle used and *dev. */
static xgd_result check_data_call(xgd_texture *t, int level, xgd_cube_map_face face,
                                  const xgd_rect *rect_in, const void *data, size_t size,
                                  xgd_device **dev_out, xgd_rect *rect)
{
    if (t == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    xgd_result r = xgdi_check_resource(NULL, &t->res, XGDI_RES_TEXTURE, "texture");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&t->res);
    r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    /* XNA's Texture3D has no SetData(level, face, rect, ...): a volume's texels are reached
     * through its own box calls only. */
    if (is_volume(t))
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the texture is a Texture3D; use xgd_texture3d_set_data / get_data");
    if (level < 0 || level >= t->levels)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "level %d is outside 0..%d", level,
                         t->levels - 1);
    if (is_cube(t) ? ((unsigned)face > XGD_CUBE_MAP_FACE_NEGATIVE_Z) : face != 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "face %d is invalid for this texture",
                         (int)face);
    int w, h;
    xgdi_texture_size(t, &w, &h);
    int lw = xgdi_mip_dim(w, level), lh = xgdi_mip_dim(h, level);
    if (rect_in == NULL) {
        *rect = (xgd_rect){ 0, 0, lw, lh };
    } else {
        *rect = *rect_in;
        if (rect->x < 0 || rect->y < 0 || rect->width <= 0 || rect->height <= 0 ||
            rect->x > lw - rect->width || rect->y > lh - rect->height)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "rect (%d,%d %dx%d) is not inside level %d (%dx%d)", rect->x,
                             rect->y, rect->width, rect->height, level, lw, lh);
        const xgdi_format_info *fi = xgdi_format_info_of(t->format);
        if (fi->block_size == 4 &&
            (rect->x % 4 != 0 || rect->y % 4 != 0 ||
             (rect->width % 4 != 0 && rect->x + rect->width != lw) ||
             (rect->height % 4 != 0 && rect->y + rect->height != lh)))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "rect of a %s texture must be aligned to 4 or reach the level edge",
                             fi->name);
    }
    if (data == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    /* The rect lies inside a level whose size was checked at creation (texture_bytes), so it
     * has a size; 0 would mean it could not be addressed and must never match a size of 0. */
    size_t need = xgdi_format_rect_size(t->format, rect->width, rect->height);
    if (need == 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "rect %dx%d has no addressable size",
                         rect->width, rect->height);
    if (size != need)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "size %zu does not match %zu bytes",
                         size, need);
    if (is_render_target(t) && is_bound(dev, t))
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the render target is bound; unbind it before accessing its data");
    /* As draw.c's slot check: a texture whose recreation failed at the last restore has no
     * native part, and no renderer op may be handed NULL (renderer.h). */
    if (t->native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the texture has no storage (its recovery failed)");
    *dev_out = dev;
    return XGD_OK;
}

/* Copies a rect between packed rect rows and a level laid out with level width lw. */
static void copy_rect(const xgd_texture *t, uint8_t *level_base, int lw, const xgd_rect *rect,
                      uint8_t *rect_data, bool to_level)
{
    const xgdi_format_info *fi = xgdi_format_info_of(t->format);
    int bs = fi->block_size;
    size_t level_pitch = xgdi_format_row_size(t->format, lw);
    size_t row = xgdi_format_row_size(t->format, rect->width);
    int rows = (rect->height + bs - 1) / bs;
    size_t xoff = (size_t)(rect->x / bs) * (size_t)fi->element_size;
    for (int y = 0; y < rows; y++) {
        uint8_t *lv = level_base + (size_t)(rect->y / bs + y) * level_pitch + xoff;
        uint8_t *rd = rect_data + (size_t)y * row;
        if (to_level) memcpy(lv, rd, row);
        else memcpy(rd, lv, row);
    }
}

xgd_result xgd_texture_set_data(xgd_texture *texture, int level, xgd_cube_map_face face,
                                const xgd_rect *rect, const void *data, size_t size)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    xgd_device *dev = NULL;
    xgd_rect rc;
    xgd_result r = check_data_call(texture, level, face, rect, data, size, &dev, &rc);
    if (r != XGD_OK) return r;
    int w, h;
    xgdi_texture_size(texture, &w, &h);
    int lw = xgdi_mip_dim(w, level), lh = xgdi_mip_dim(h, level);
    bool full = rc.x == 0 && rc.y == 0 && rc.width == lw && rc.height == lh;
    if (!full && level == 0 && !is_render_target(texture) && texture->shadow_dropped)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "partial set_data on level 0 needs the CPU shadow, which was dropped "
                         "because context recovery is disabled");

    if (is_render_target(texture) && !full) {
        /* Spec 001: GPU-only content; a partial update seeds itself from the renderer. */
        if (dev->ops->texture_download == NULL)
            return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                             "renderer '%s' cannot read render targets back", dev->ops->name);
        size_t bytes = level_bytes(texture, level);
        uint8_t *lvl = malloc(bytes);
        if (lvl == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        xgd_rect whole = { 0, 0, lw, lh };
        size_t pitch = xgdi_format_row_size(texture->format, lw);
        r = dev->ops->texture_download(dev->renderer, texture->native, (int)face, level, &whole,
                                       lvl, pitch);
        if (r == XGD_OK) {
            copy_rect(texture, lvl, lw, &rc, (uint8_t *)(uintptr_t)data, true);
            r = dev->ops->texture_upload(dev->renderer, texture->native, (int)face, level, &whole,
                                         lvl, pitch);
        }
        free(lvl);
        return r;
    }

    r = dev->ops->texture_upload(dev->renderer, texture->native, (int)face, level, &rc, data,
                                 xgdi_format_row_size(texture->format, rc.width));
    if (r != XGD_OK) return r;
    if (texture->shadow != NULL)
        copy_rect(texture, texture->shadow + shadow_offset(texture, (int)face, level), lw, &rc,
                  (uint8_t *)(uintptr_t)data, true);
    return XGD_OK;
}

xgd_result xgd_texture_get_data(xgd_texture *texture, int level, xgd_cube_map_face face,
                                const xgd_rect *rect, void *data, size_t size)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    xgd_device *dev = NULL;
    xgd_rect rc;
    xgd_result r = check_data_call(texture, level, face, rect, data, size, &dev, &rc);
    if (r != XGD_OK) return r;
    if (texture->shadow != NULL) {
        int w, h;
        xgdi_texture_size(texture, &w, &h);
        copy_rect(texture, texture->shadow + shadow_offset(texture, (int)face, level),
                  xgdi_mip_dim(w, level), &rc, data, false);
        return XGD_OK;
    }
    if (dev->ops->texture_download == NULL)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "renderer '%s' cannot read textures back",
                         dev->ops->name);
    return dev->ops->texture_download(dev->renderer, texture->native, (int)face, level, &rc, data,
                                      xgdi_format_row_size(texture->format, rc.width));
}

/* ---- Texture3D set_data / get_data ---------------------------------------------------------- */

/* renderer.h: the one region check the renderers' upload/download guards share (core has
 * already validated the region by the rules below, so it never fails for a call from here). */
bool xgdi_texture_region_ok(const xgdi_texture_desc *desc, int face, int level,
                            const xgd_box *box)
{
    int faces = desc->cube ? 6 : 1;
    if (face < 0 || face >= faces || level < 0 || level >= desc->levels) return false;
    int w = xgdi_mip_dim(desc->width, level), h = xgdi_mip_dim(desc->height, level);
    int d = desc->volume ? xgdi_mip_dim(desc->depth > 1 ? desc->depth : 1, level) : 1;
    return box->left >= 0 && box->top >= 0 && box->front >= 0 && box->right > box->left &&
           box->bottom > box->top && box->back > box->front && box->right <= w &&
           box->bottom <= h && box->back <= d;
}

/* Validates a Texture3D data call (XNA SetData(level, left, top, right, bottom, front, back)):
 * fills *box with the region used and *dev. */
static xgd_result check_box_call(xgd_texture *t, int level, const xgd_box *box_in,
                                 const void *data, size_t size, xgd_device **dev_out,
                                 xgd_box *box)
{
    if (t == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    xgd_result r = xgdi_check_resource(NULL, &t->res, XGDI_RES_TEXTURE, "texture");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&t->res);
    r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (!is_volume(t))
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the texture is not a Texture3D; use xgd_texture_set_data / get_data");
    if (level < 0 || level >= t->levels)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "level %d is outside 0..%d", level,
                         t->levels - 1);
    int lw = xgdi_mip_dim(t->width, level), lh = xgdi_mip_dim(t->height, level);
    int ld = xgdi_mip_dim(t->depth, level);
    if (box_in == NULL) {
        *box = (xgd_box){ 0, 0, 0, lw, lh, ld };
    } else {
        *box = *box_in;
        /* right/bottom/back are exclusive: a box is non-empty and inside the level */
        if (box->left < 0 || box->top < 0 || box->front < 0 || box->right <= box->left ||
            box->bottom <= box->top || box->back <= box->front || box->right > lw ||
            box->bottom > lh || box->back > ld)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "box (left %d, top %d, front %d, right %d, bottom %d, back %d) is "
                             "not inside level %d (%dx%dx%d)",
                             box->left, box->top, box->front, box->right, box->bottom, box->back,
                             level, lw, lh, ld);
        /* as Texture2D rects: DXT regions cover whole 4x4 blocks of every slice */
        const xgdi_format_info *fi = xgdi_format_info_of(t->format);
        if (fi->block_size == 4 &&
            (box->left % 4 != 0 || box->top % 4 != 0 || (box->right % 4 != 0 && box->right != lw) ||
             (box->bottom % 4 != 0 && box->bottom != lh)))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "box of a %s texture must be aligned to 4 or reach the level edge",
                             fi->name);
    }
    if (data == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    size_t need = 0;
    if (!xgdi_size_mul(xgdi_format_rect_size(t->format, box->right - box->left,
                                             box->bottom - box->top),
                       (size_t)(box->back - box->front), &need) ||
        need == 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the box has no addressable size");
    if (size != need)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "size %zu does not match %zu bytes",
                         size, need);
    /* As check_data_call: a failed recovery left no native part to hand the renderer. */
    if (t->native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the texture has no storage (its recovery failed)");
    *dev_out = dev;
    return XGD_OK;
}

/* Copies a box between packed box data (rows, then slices) and a shadow level. */
static void copy_box(const xgd_texture *t, uint8_t *level_base, int level, const xgd_box *box,
                     uint8_t *box_data, bool to_level)
{
    int lw = xgdi_mip_dim(t->width, level), lh = xgdi_mip_dim(t->height, level);
    size_t level_slice = xgdi_format_rect_size(t->format, lw, lh);
    xgd_rect rect = { box->left, box->top, box->right - box->left, box->bottom - box->top };
    size_t box_slice = xgdi_format_rect_size(t->format, rect.width, rect.height);
    for (int z = box->front; z < box->back; z++)
        copy_rect(t, level_base + (size_t)z * level_slice, lw, &rect,
                  box_data + (size_t)(z - box->front) * box_slice, to_level);
}

/* Same shadow and recovery rules as xgd_texture_set_data on a Texture2D (spec 001): the
 * renderer first, then the CPU shadow, so a failed upload changes nothing. */
xgd_result xgd_texture3d_set_data(xgd_texture *texture, int level, const xgd_box *box,
                                  const void *data, size_t size)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    xgd_device *dev = NULL;
    xgd_box bx;
    xgd_result r = check_box_call(texture, level, box, data, size, &dev, &bx);
    if (r != XGD_OK) return r;
    int lw = xgdi_mip_dim(texture->width, level), lh = xgdi_mip_dim(texture->height, level);
    int ld = xgdi_mip_dim(texture->depth, level);
    bool full = bx.left == 0 && bx.top == 0 && bx.front == 0 && bx.right == lw &&
                bx.bottom == lh && bx.back == ld;
    if (!full && level == 0 && texture->shadow_dropped)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "partial set_data on level 0 needs the CPU shadow, which was dropped "
                         "because context recovery is disabled");
    if (dev->ops->texture_upload_volume == NULL)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "renderer '%s' has no volume textures",
                         dev->ops->name);
    int bw = bx.right - bx.left, bh = bx.bottom - bx.top;
    r = dev->ops->texture_upload_volume(dev->renderer, texture->native, level, &bx, data,
                                        xgdi_format_row_size(texture->format, bw),
                                        xgdi_format_rect_size(texture->format, bw, bh));
    if (r != XGD_OK) return r;
    if (texture->shadow != NULL)
        copy_box(texture, texture->shadow + shadow_offset(texture, 0, level), level, &bx,
                 (uint8_t *)(uintptr_t)data, true);
    return XGD_OK;
}

xgd_result xgd_texture3d_get_data(xgd_texture *texture, int level, const xgd_box *box,
                                  void *data, size_t size)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    xgd_device *dev = NULL;
    xgd_box bx;
    xgd_result r = check_box_call(texture, level, box, data, size, &dev, &bx);
    if (r != XGD_OK) return r;
    if (texture->shadow != NULL) {
        copy_box(texture, texture->shadow + shadow_offset(texture, 0, level), level, &bx, data,
                 false);
        return XGD_OK;
    }
    if (dev->ops->texture_download_volume == NULL)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "renderer '%s' cannot read textures back",
                         dev->ops->name);
    int bw = bx.right - bx.left, bh = bx.bottom - bx.top;
    return dev->ops->texture_download_volume(dev->renderer, texture->native, level, &bx, data,
                                             xgdi_format_row_size(texture->format, bw),
                                             xgdi_format_rect_size(texture->format, bw, bh));
}

/* ---- PNG ------------------------------------------------------------------------------------ */

/* Texture2D.FromStream: the header is checked against the device's texture size limit and the
 * texture rules before anything image-sized is allocated; the image is then decoded row by row
 * into the one buffer that becomes the texture's CPU shadow (or is uploaded and freed when
 * recovery is off), so a load holds one image-sized buffer besides the renderer's storage.
 * The image is decoded completely before the texture exists: a file that turns out damaged
 * halfway then creates nothing (no texture, no statistics), which uploading bands of rows into
 * an already created texture could not promise. */
static xgd_result texture_from_png(xgd_device *device, xgdi_png_reader *png, xgd_result r,
                                   int w, int h, const char *err, const char *what,
                                   xgd_texture **out)
{
    char derr[256] = "";
    if (r != XGD_OK) return xgdi_fail(device, r, "PNG decode%s: %s", what, err);
    xgd_surface_format format = XGD_SURFACE_FORMAT_COLOR;
    r = validate_texture(device, w, h, false, &format);
    if (r != XGD_OK) return r;
    size_t bytes = xgdi_format_rect_size(format, w, h);
    uint8_t *rgba = bytes != 0 ? malloc(bytes) : NULL;
    if (rgba == NULL)
        return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory for a %dx%d image", w,
                         h);
    r = xgdi_png_read_rgba(png, rgba, bytes, derr, sizeof derr);
    if (r != XGD_OK) {
        free(rgba);
        return xgdi_fail(device, r, "PNG decode%s: %s", what, derr);
    }
    /* XNA's Texture2D.FromStream stores a fully transparent pixel as (0,0,0,0), whatever
     * colour the file gives it; every other pixel keeps its colour as stored (it is not
     * premultiplied by its alpha). */
    for (size_t i = 0; i < bytes; i += 4)
        if (rgba[i + 3] == 0) rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
    xgd_texture proto = { .kind = XGD_TEXTURE_2D, .width = w, .height = h, .levels = 1,
                          .format = format, .depth_format = XGD_DEPTH_FORMAT_NONE };
    return create_texture_with(device, &proto, rgba, out);
}

xgd_result xgd_texture2d_from_png_memory(xgd_device *device, const void *data, size_t size,
                                         xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (data == NULL || size == 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "PNG data is empty");
    int w = 0, h = 0;
    char err[256] = "";
    xgdi_png_reader *png = NULL;
    r = xgdi_png_open_memory(data, size, xgdi_max_texture_size(device), &png, &w, &h, err,
                             sizeof err);
    r = texture_from_png(device, png, r, w, h, err, "", out);
    xgdi_png_close(png);
    return r;
}

xgd_result xgd_texture2d_from_png_file(xgd_device *device, const char *path, xgd_texture **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (path == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    int w = 0, h = 0;
    char err[256] = "", what[160];
    snprintf(what, sizeof what, " '%s'", path);
    xgdi_png_reader *png = NULL;
    r = xgdi_png_open_file(path, xgdi_max_texture_size(device), &png, &w, &h, err, sizeof err);
    r = texture_from_png(device, png, r, w, h, err, what, out);
    xgdi_png_close(png);
    return r;
}

xgd_result xgd_texture_save_png(xgd_texture *texture, const char *path)
{
    XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
    if (texture == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    xgd_result r = xgdi_check_resource(NULL, &texture->res, XGDI_RES_TEXTURE, "texture");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&texture->res);
    if (path == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "path is NULL");
    /* Refused before anything is allocated: level 0 of a volume may be 256 slices deep. */
    if (is_volume(texture))
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "a Texture3D cannot be saved as a PNG (it has no single 2D level 0)");
    int w, h;
    xgdi_texture_size(texture, &w, &h);
    size_t bytes = level_bytes(texture, 0);
    /* A Color level already is the RGBA8 image: no second buffer for the conversion. */
    bool color = texture->format == XGD_SURFACE_FORMAT_COLOR;
    uint8_t *lvl = malloc(bytes);
    uint8_t *rgba = color ? lvl : malloc((size_t)w * (size_t)h * 4);
    if (lvl == NULL || rgba == NULL) {
        free(lvl);
        if (!color) free(rgba);
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    r = xgd_texture_get_data(texture->res.handle, 0, 0, NULL, lvl, bytes);
    if (r == XGD_OK) {
        if (!color) xgdi_format_to_rgba8(texture->format, lvl, w, h, rgba);
        char err[256] = "";
        r = xgdi_png_encode_file(path, w, h, rgba, err, sizeof err);
        if (r != XGD_OK) r = xgdi_fail(dev, r, "PNG save '%s': %s", path, err);
    }
    free(lvl);
    if (!color) free(rgba);
    return r;
}

xgd_result xgd_image_save_png(const char *path, int width, int height, const void *rgba)
{
    if (path == NULL || rgba == NULL || width <= 0 || height <= 0)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "xgd_image_save_png: bad arguments");
    char err[256] = "";
    xgd_result r = xgdi_png_encode_file(path, width, height, rgba, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(NULL, r, "PNG save '%s': %s", path, err);
    return XGD_OK;
}

xgd_result xgd_image_load_png(const char *path, int *width, int *height, uint8_t **rgba)
{
    if (path == NULL || width == NULL || height == NULL || rgba == NULL)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "xgd_image_load_png: bad arguments");
    *rgba = NULL;
    char err[256] = "";
    xgd_result r = xgdi_png_load_file(path, XGDI_PNG_MAX_DIM, width, height, rgba, err, sizeof err);
    if (r != XGD_OK) return xgdi_fail(NULL, r, "PNG decode '%s': %s", path, err);
    return XGD_OK;
}

void xgd_free(void *p)
{
    free(p);
}
