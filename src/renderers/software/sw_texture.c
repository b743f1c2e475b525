/*
 * sw_texture.c - texture and render-target storage of the software renderer: allocation,
 * upload/download in the texture's own format, the decoded sampling copies, MSAA resolve and
 * mip generation (finalisation, spec 000/001).
 */
#include "sw_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

float sw_quantize_depth(xgd_depth_format f, double z)
{
    if (!(z > 0.0)) z = 0.0; /* also catches NaN */
    if (z > 1.0) z = 1.0;
    switch (f) {
    case XGD_DEPTH_FORMAT_DEPTH16:
        return (float)(floor(z * 65535.0 + 0.5) / 65535.0);
    case XGD_DEPTH_FORMAT_DEPTH24:
    case XGD_DEPTH_FORMAT_DEPTH24_STENCIL8:
        return (float)(floor(z * 16777215.0 + 0.5) / 16777215.0);
    default:
        return (float)z;
    }
}

void sw_texture_free(xgdi_native_texture *t)
{
    if (t == NULL) return;
    if (t->images != NULL) {
        int n = t->faces * t->desc.levels;
        for (int i = 0; i < n; i++) {
            sw_image *img = &t->images[i];
            if (img->rgba8 != img->texels) free(img->rgba8);
            free(img->texels);
            free(img->rgbaf);
        }
        free(t->images);
    }
    free(t->ms);
    free(t->depth);
    free(t->stencil);
    free(t);
}

xgd_result sw_texture_alloc(sw_renderer *r, const xgdi_texture_desc *desc,
                            xgdi_native_texture **out)
{
    *out = NULL;
    const xgdi_format_info *fi = xgdi_format_info_of(desc->format);
    int depth = desc->volume && desc->depth > 1 ? desc->depth : 1;
    if (fi == NULL || desc->width < 1 || desc->height < 1 || desc->levels < 1 ||
        desc->width > SW_MAX_TEXTURE_SIZE || desc->height > SW_MAX_TEXTURE_SIZE ||
        depth > SW_MAX_TEXTURE_SIZE || (desc->volume && (desc->cube || desc->render_target)))
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: bad texture description (%dx%d, %d levels, format %d)",
                         desc->width, desc->height, desc->levels, (int)desc->format);
    xgdi_native_texture *t = calloc(1, sizeof *t);
    if (t == NULL) goto oom;
    t->desc = *desc;
    t->desc.debug_name = NULL; /* not owned */
    t->faces = desc->cube ? 6 : 1;
    t->fi = fi;
    t->is_color = desc->format == XGD_SURFACE_FORMAT_COLOR;
    t->is_dxt = fi->block_size == 4;
    t->samples = desc->render_target && desc->samples > 1 ? desc->samples : 1;
    t->images = calloc((size_t)t->faces * (size_t)desc->levels, sizeof *t->images);
    if (t->images == NULL) goto oom;
    for (int f = 0; f < t->faces; f++) {
        for (int l = 0; l < desc->levels; l++) {
            sw_image *img = sw_texture_image(t, f, l);
            img->width = xgdi_mip_dim(desc->width, l);
            img->height = xgdi_mip_dim(desc->height, l);
            img->depth = xgdi_mip_dim(depth, l);
            img->row_pitch = xgdi_format_row_size(desc->format, img->width);
            img->slice_pitch = xgdi_format_rect_size(desc->format, img->width, img->height);
            size_t bytes = img->slice_pitch * (size_t)img->depth;
            img->texels = calloc(1, bytes);
            if (img->texels == NULL) goto oom;
            /* The decoded sampling copy is allocated here, with the texture, so that running
               out of memory is reported by create and draws never allocate (or fail). */
            size_t n = (size_t)img->width * (size_t)img->height * (size_t)img->depth;
            if (t->is_color) img->rgba8 = img->texels;
            else if (t->is_dxt) img->rgba8 = malloc(n * 4);
            else img->rgbaf = malloc(n * 4 * sizeof(float));
            if (img->rgba8 == NULL && img->rgbaf == NULL) goto oom;
            img->cache_valid = t->is_color;
        }
    }
    size_t pixels = (size_t)desc->width * (size_t)desc->height;
    if (t->samples > 1) {
        t->ms = calloc(pixels * (size_t)t->samples * (size_t)t->faces, (size_t)fi->element_size);
        if (t->ms == NULL) goto oom;
    }
    if (desc->render_target && desc->depth_format != XGD_DEPTH_FORMAT_NONE &&
        desc->depth_format != XGD_DEPTH_FORMAT_DEFAULT) {
        t->depth = calloc(pixels * (size_t)t->samples, sizeof(float));
        if (t->depth == NULL) goto oom;
        if (desc->depth_format == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8) {
            t->stencil = calloc(pixels * (size_t)t->samples, 1);
            if (t->stencil == NULL) goto oom;
        }
    }
    *out = t;
    return XGD_OK;
oom:
    sw_texture_free(t);
    return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                     "software: out of memory creating a %dx%d texture", desc->width,
                     desc->height);
}

static void sw_invalidate(xgdi_native_texture *t, sw_image *img)
{
    if (!t->is_color) img->cache_valid = false;
}

void sw_image_ensure_decoded(const xgdi_native_texture *t, sw_image *img)
{
    if (img->cache_valid) return;
    xgd_surface_format f = t->desc.format;
    /* The caches exist since sw_texture_alloc: decoding never allocates. A volume's slices
       follow each other in both the texels and the cache. */
    size_t slice_texels = (size_t)img->width * (size_t)img->height;
    for (int z = 0; z < img->depth; z++) {
        const uint8_t *src = img->texels + (size_t)z * img->slice_pitch;
        if (t->is_dxt) {
            xgdi_dxt_decode_image(f, src, img->width, img->height,
                                  img->rgba8 + (size_t)z * slice_texels * 4);
        } else {
            float *dst = img->rgbaf + (size_t)z * slice_texels * 4;
            for (int y = 0; y < img->height; y++)
                xgdi_format_decode_row(f, src + (size_t)y * img->row_pitch, img->width,
                                       dst + (size_t)y * (size_t)img->width * 4);
        }
    }
    img->cache_valid = true;
}

void sw_texture_prepare_sampling(xgdi_native_texture *t)
{
    if (t->is_color) return;
    int n = t->faces * t->desc.levels;
    for (int i = 0; i < n; i++) sw_image_ensure_decoded(t, &t->images[i]);
}

void sw_texture_mark_written(xgdi_native_texture *t, int face)
{
    if (t->samples > 1) t->ms_dirty[face] = true;
    t->mips_dirty[face] = true;
    sw_invalidate(t, sw_texture_image(t, face, 0));
}

/* Resolve = per-pixel average of the samples, in float, then encoded (team brief, MSAA). */
void sw_texture_resolve(xgdi_native_texture *t, int face)
{
    if (t->samples <= 1) return;
    sw_image *img = sw_texture_image(t, face, 0);
    int s = t->samples;
    size_t es = (size_t)t->fi->element_size;
    size_t pixels = (size_t)img->width * (size_t)img->height;
    const uint8_t *src = t->ms + (size_t)face * pixels * (size_t)s * es;
    float tmp[SW_MAX_SAMPLES * 4];
    for (size_t i = 0; i < pixels; i++) {
        xgdi_format_decode_row(t->desc.format, src + i * (size_t)s * es, s, tmp);
        float acc[4] = { 0, 0, 0, 0 };
        for (int k = 0; k < s; k++)
            for (int c = 0; c < 4; c++) acc[c] += tmp[k * 4 + c];
        for (int c = 0; c < 4; c++) acc[c] /= (float)s;
        xgdi_format_encode_row(t->desc.format, acc, 1, img->texels + i * es);
    }
    t->ms_dirty[face] = false;
    sw_invalidate(t, img);
}

/* Box filter: each texel of level n+1 averages the 2x2 texels of level n it covers (an odd
   edge repeats its last texel), in float, then encoded. */
void sw_texture_generate_mips(xgdi_native_texture *t, int face)
{
    if (t->desc.levels <= 1 || t->is_dxt) return;
    xgd_surface_format f = t->desc.format;
    float row0[4 * 2 * 2], out4[4];
    for (int l = 1; l < t->desc.levels; l++) {
        sw_image *src = sw_texture_image(t, face, l - 1);
        sw_image *dst = sw_texture_image(t, face, l);
        size_t es = (size_t)t->fi->element_size;
        for (int y = 0; y < dst->height; y++) {
            int y0 = 2 * y < src->height ? 2 * y : src->height - 1;
            int y1 = 2 * y + 1 < src->height ? 2 * y + 1 : y0;
            for (int x = 0; x < dst->width; x++) {
                int x0 = 2 * x < src->width ? 2 * x : src->width - 1;
                int x1 = 2 * x + 1 < src->width ? 2 * x + 1 : x0;
                xgdi_format_decode_row(f, src->texels + (size_t)y0 * src->row_pitch + (size_t)x0 * es, 1, row0);
                xgdi_format_decode_row(f, src->texels + (size_t)y0 * src->row_pitch + (size_t)x1 * es, 1, row0 + 4);
                xgdi_format_decode_row(f, src->texels + (size_t)y1 * src->row_pitch + (size_t)x0 * es, 1, row0 + 8);
                xgdi_format_decode_row(f, src->texels + (size_t)y1 * src->row_pitch + (size_t)x1 * es, 1, row0 + 12);
                for (int c = 0; c < 4; c++)
                    out4[c] = (row0[c] + row0[4 + c] + row0[8 + c] + row0[12 + c]) * 0.25f;
                xgdi_format_encode_row(f, out4, 1, dst->texels + (size_t)y * dst->row_pitch + (size_t)x * es);
            }
        }
        sw_invalidate(t, dst);
    }
    t->mips_dirty[face] = false;
}

/* ---- ops ---- */

xgd_result sw_op_texture_create(xgdi_renderer *r, const xgdi_texture_desc *desc,
                                xgdi_native_texture **out)
{
    return sw_texture_alloc(sw_cast(r), desc, out);
}

static void sw_retired_texture_free(xgdi_renderer *r, void *object)
{
    (void)r;
    sw_texture_free(object);
}

void sw_op_texture_destroy(xgdi_renderer *r, xgdi_native_texture *t)
{
    if (t == NULL) return;
    sw_renderer *sr = sw_cast(r);
    /* Never leave a dangling binding behind (core unbinds first; this is defence). */
    for (int i = 0; i < sr->target_count; i++) {
        if (sr->targets[i].texture == t) {
            sr->targets[0].texture = sr->back_buffer;
            sr->targets[0].face = 0;
            sr->target_count = 1;
            break;
        }
    }
    /* The software renderer executes synchronously, but it retires through the shared queue
       anyway so the mechanism the GPU renderers depend on is exercised by every test. Work
       recorded into the open frame has already run, so the fence is complete at once and the
       queue is collected here rather than at Present: a program that creates and destroys
       textures without presenting must not accumulate them. */
    uint64_t fence = r->submitted_fence + 1;
    if (xgdi_retire_push(&r->retired, fence, sw_retired_texture_free, t) != XGD_OK)
        sw_texture_free(t);
    xgdi_retire_collect(&r->retired, r, r->ops->completed_fence(r));
}

/* Copies a box between the caller's rows/slices and a level's texels (block rows for DXT); a
   2D or cube face is the box z 0..1 of its image. */
static void sw_copy_box(const xgdi_native_texture *t, sw_image *img, const xgd_box *b,
                        uint8_t *data, size_t row_pitch, size_t slice_pitch, bool upload)
{
    int bs = t->fi->block_size;
    size_t es = (size_t)t->fi->element_size;
    size_t row_bytes = xgdi_format_row_size(t->desc.format, b->right - b->left);
    int rows = (b->bottom - b->top + bs - 1) / bs;
    for (int z = b->front; z < b->back; z++) {
        uint8_t *lv = img->texels + (size_t)z * img->slice_pitch +
                      (size_t)(b->top / bs) * img->row_pitch + (size_t)(b->left / bs) * es;
        uint8_t *us = data + (size_t)(z - b->front) * slice_pitch;
        for (int y = 0; y < rows; y++) {
            if (upload) memcpy(lv + (size_t)y * img->row_pitch, us + (size_t)y * row_pitch, row_bytes);
            else memcpy(us + (size_t)y * row_pitch, lv + (size_t)y * img->row_pitch, row_bytes);
        }
    }
}

xgd_result sw_op_texture_upload(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                const xgd_rect *rect, const void *data, size_t row_pitch)
{
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(r->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: upload to face %d level %d outside the texture", face, level);
    sw_image *img = sw_texture_image(t, face, level);
    size_t es = (size_t)t->fi->element_size;
    /* one slice: its pitch is never used */
    sw_copy_box(t, img, &box, (uint8_t *)(uintptr_t)data, row_pitch, 0, true);
    sw_invalidate(t, img);
    /* A multisampled target's samples follow its level 0, so later draws with PreserveContents
       blend over what was uploaded. */
    if (t->samples > 1 && level == 0) {
        size_t pixels = (size_t)img->width * (size_t)img->height;
        uint8_t *ms = t->ms + (size_t)face * pixels * (size_t)t->samples * es;
        for (int y = rect->y; y < rect->y + rect->height; y++)
            for (int x = rect->x; x < rect->x + rect->width; x++) {
                const uint8_t *texel = img->texels + (size_t)y * img->row_pitch + (size_t)x * es;
                uint8_t *p = ms + ((size_t)y * (size_t)img->width + (size_t)x) * (size_t)t->samples * es;
                for (int s = 0; s < t->samples; s++) memcpy(p + (size_t)s * es, texel, es);
            }
        t->ms_dirty[face] = false;
    }
    return XGD_OK;
}

xgd_result sw_op_texture_download(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                  const xgd_rect *rect, void *data, size_t row_pitch)
{
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(r->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: download from face %d level %d outside the texture", face,
                         level);
    if (level == 0 && t->samples > 1 && t->ms_dirty[face]) sw_texture_resolve(t, face);
    sw_copy_box(t, sw_texture_image(t, face, level), &box, data, row_pitch, 0, false);
    return XGD_OK;
}

xgd_result sw_op_texture_finalize(xgdi_renderer *r, xgdi_native_texture *t, int face)
{
    if (face < 0 || face >= t->faces)
        return xgdi_fail(r->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: finalize of face %d out of range", face);
    /* Always resolve and regenerate (not only when dirty) so results never depend on what the
       renderer happened to track; this is what the GPU renderers do as well. */
    sw_texture_resolve(t, face);
    sw_texture_generate_mips(t, face);
    return XGD_OK;
}

/* ---- volumes (Texture3D): a box of one level, through the same copy ---- */

xgd_result sw_op_texture_upload_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                       const xgd_box *box, const void *data, size_t row_pitch,
                                       size_t slice_pitch)
{
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(r->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: volume upload to level %d outside the texture", level);
    sw_image *img = sw_texture_image(t, 0, level);
    sw_copy_box(t, img, box, (uint8_t *)(uintptr_t)data, row_pitch, slice_pitch, true);
    sw_invalidate(t, img);
    return XGD_OK;
}

xgd_result sw_op_texture_download_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                         const xgd_box *box, void *data, size_t row_pitch,
                                         size_t slice_pitch)
{
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(r->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: volume download from level %d outside the texture", level);
    sw_copy_box(t, sw_texture_image(t, 0, level), box, data, row_pitch, slice_pitch, false);
    return XGD_OK;
}
