/*
 * sw_texture.c - texture and render-target storage of the software renderer: allocation,
 * upload/download in the texture's own format, the decoded sampling copies, MSAA resolve and
 * mip generation (finalisation, spec 000/001).
 */
#include "sw_internal.h"
#include "sw_simd.h" /* SW_USE_SSE2 and its intrinsics */

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

/* ---- mip generation ----
   Box filter: each texel of level n+1 averages the 2x2 texels of level n it covers (an odd
   last column or row is left out; a side of 1 repeats its texel). The rule is the float one:
   decode, sum in the order (x0,y0) + (x1,y0) + (x0,y1) + (x1,y1), times 0.25, encode. 8-bit
   unorm formats take an integer path that gives the same bytes (test_sw_mips.c proves it for
   every input), since the float path spends most of a chain in per-texel decode and encode
   calls. Rows are independent, so a large level is split into bands over the device's pool. */

void sw_mip_mean_float(const float q[16], float out[4])
{
    for (int c = 0; c < 4; c++) out[c] = (q[c] + q[4 + c] + q[8 + c] + q[12 + c]) * 0.25f;
}

bool sw_mip_has_fast_path(xgd_surface_format f)
{
    /* The byte formats whose decode is b / 255 per stored byte and whose encode is the unorm
       rule per byte: Alpha8's decoded red, green and blue are constants it never stores. */
    return f == XGD_SURFACE_FORMAT_COLOR || f == XGD_SURFACE_FORMAT_ALPHA8;
}

typedef struct sw_mip_job {
    xgd_surface_format format;
    size_t es;                 /* bytes per texel */
    bool fast;
    const uint8_t *src;
    int sw, sh;
    size_t src_pitch;
    uint8_t *dst;
    int dw, dh;
    size_t dst_pitch;
    int band_h;                /* destination rows per pool item */
} sw_mip_job;

/* The two source rows of destination row y: 2y and 2y + 1, the last row standing for both
   when the source has one (an odd last row is left out, the box rule's corner). */
static void sw_mip_source_rows(const sw_mip_job *j, int y, const uint8_t **r0, const uint8_t **r1)
{
    int y0 = 2 * y < j->sh ? 2 * y : j->sh - 1;
    int y1 = 2 * y + 1 < j->sh ? 2 * y + 1 : y0;
    *r0 = j->src + (size_t)y0 * j->src_pitch;
    *r1 = j->src + (size_t)y1 * j->src_pitch;
}

/* The float rule for destination rows [y_begin, y_end): the reference every format has. */
static void sw_mip_rows_float(const sw_mip_job *j, int y_begin, int y_end)
{
    float q[4 * 2 * 2], out4[4];
    size_t es = j->es;
    for (int y = y_begin; y < y_end; y++) {
        const uint8_t *r0, *r1;
        sw_mip_source_rows(j, y, &r0, &r1);
        for (int x = 0; x < j->dw; x++) {
            int x0 = 2 * x < j->sw ? 2 * x : j->sw - 1;
            int x1 = 2 * x + 1 < j->sw ? 2 * x + 1 : x0;
            xgdi_format_decode_row(j->format, r0 + (size_t)x0 * es, 1, q);
            xgdi_format_decode_row(j->format, r0 + (size_t)x1 * es, 1, q + 4);
            xgdi_format_decode_row(j->format, r1 + (size_t)x0 * es, 1, q + 8);
            xgdi_format_decode_row(j->format, r1 + (size_t)x1 * es, 1, q + 12);
            sw_mip_mean_float(q, out4);
            xgdi_format_encode_row(j->format, out4, 1, j->dst + (size_t)y * j->dst_pitch + (size_t)x * es);
        }
    }
}

#ifdef SW_USE_SSE2
/* Four destination RGBA8 texels per step from eight texels of each source row: the even and
   odd texels are separated as 32-bit lanes, widened to 16 bits (the sum of four bytes plus 2
   is at most 1022) and averaged with the integer rule. Returns the texels done; the caller
   finishes the row. */
static int sw_mip_row_rgba8_sse2(const uint8_t *r0, const uint8_t *r1, uint8_t *o, int dw)
{
    const __m128i zero = _mm_setzero_si128(), two = _mm_set1_epi16(2);
    int x = 0;
    for (; x + 4 <= dw; x += 4) {
        const uint8_t *p0 = r0 + (size_t)x * 8, *p1 = r1 + (size_t)x * 8;
        /* texels t0..t7 of a row: lanes reordered to t0 t2 t1 t3 and t4 t6 t5 t7, so the
           64-bit halves pair up into the even t0 t2 t4 t6 and the odd t1 t3 t5 t7 */
        __m128i a0 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)p0), _MM_SHUFFLE(3, 1, 2, 0));
        __m128i b0 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(p0 + 16)), _MM_SHUFFLE(3, 1, 2, 0));
        __m128i a1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)p1), _MM_SHUFFLE(3, 1, 2, 0));
        __m128i b1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(p1 + 16)), _MM_SHUFFLE(3, 1, 2, 0));
        __m128i e0 = _mm_unpacklo_epi64(a0, b0), d0 = _mm_unpackhi_epi64(a0, b0);
        __m128i e1 = _mm_unpacklo_epi64(a1, b1), d1 = _mm_unpackhi_epi64(a1, b1);
        __m128i lo = _mm_add_epi16(_mm_add_epi16(_mm_unpacklo_epi8(e0, zero), _mm_unpacklo_epi8(d0, zero)),
                                   _mm_add_epi16(_mm_unpacklo_epi8(e1, zero), _mm_unpacklo_epi8(d1, zero)));
        __m128i hi = _mm_add_epi16(_mm_add_epi16(_mm_unpackhi_epi8(e0, zero), _mm_unpackhi_epi8(d0, zero)),
                                   _mm_add_epi16(_mm_unpackhi_epi8(e1, zero), _mm_unpackhi_epi8(d1, zero)));
        lo = _mm_srli_epi16(_mm_add_epi16(lo, two), 2);
        hi = _mm_srli_epi16(_mm_add_epi16(hi, two), 2);
        _mm_storeu_si128((__m128i *)(o + (size_t)x * 4), _mm_packus_epi16(lo, hi));
    }
    return x;
}
#endif

/* The integer rule for 8-bit unorm texels (sw_mip_mean_unorm8 per byte), rows [y_begin,
   y_end). Every stored byte is a channel of its own, so a texel of es bytes is es lanes. */
static void sw_mip_rows_unorm8(const sw_mip_job *j, int y_begin, int y_end)
{
    size_t es = j->es;
    for (int y = y_begin; y < y_end; y++) {
        const uint8_t *r0, *r1;
        sw_mip_source_rows(j, y, &r0, &r1);
        uint8_t *o = j->dst + (size_t)y * j->dst_pitch;
        if (j->sw == 1) {
            /* a column of one texel: it stands for both columns of the 2x2 */
            for (size_t k = 0; k < es; k++)
                o[k] = sw_mip_mean_unorm8(2u * r0[k] + 2u * r1[k]);
            continue;
        }
        /* Otherwise the source is at least 2 * dw wide, so 2x + 1 is always a texel. */
        int x = 0;
#ifdef SW_USE_SSE2
        if (es == 4) x = sw_mip_row_rgba8_sse2(r0, r1, o, j->dw);
#endif
        for (; x < j->dw; x++) {
            const uint8_t *a = r0 + (size_t)x * 2 * es, *b = r1 + (size_t)x * 2 * es;
            for (size_t k = 0; k < es; k++)
                o[(size_t)x * es + k] =
                    sw_mip_mean_unorm8((unsigned)a[k] + a[es + k] + b[k] + b[es + k]);
        }
    }
}

static void sw_mip_band(void *arg, int item, int worker)
{
    (void)worker;
    const sw_mip_job *j = arg;
    int y_begin = item * j->band_h;
    int y_end = y_begin + j->band_h < j->dh ? y_begin + j->band_h : j->dh;
    if (j->fast) sw_mip_rows_unorm8(j, y_begin, y_end);
    else sw_mip_rows_float(j, y_begin, y_end);
}

/* Destination bytes below which a level runs on the calling thread: waking the workers costs
   more than the rows of a small level. The integer path streams memory about as fast as one
   thread can read it (a 1024x1024 RGBA8 chain took about 0.2 ms on one thread and no less
   banded on a two-core machine), so it is banded only for levels far larger; the float path
   is bound by its per-texel decode and encode and gains from threads much sooner. */
#define SW_MIP_POOL_MIN_BYTES 65536
#define SW_MIP_POOL_MIN_BYTES_FAST (4u << 20)

void sw_mip_level(sw_pool *pool, xgd_surface_format f, const uint8_t *src, int sw, int sh,
                  size_t src_pitch, uint8_t *dst, size_t dst_pitch, bool fast)
{
    sw_mip_job j = { .format = f, .es = (size_t)xgdi_format_info_of(f)->element_size,
                     .fast = fast && sw_mip_has_fast_path(f), .src = src, .sw = sw, .sh = sh,
                     .src_pitch = src_pitch, .dst = dst, .dw = sw > 1 ? sw / 2 : 1,
                     .dh = sh > 1 ? sh / 2 : 1, .dst_pitch = dst_pitch };
    int threads = sw_pool_threads(pool);
    int bands = threads * 2 < j.dh ? threads * 2 : j.dh;
    size_t min_bytes = j.fast ? SW_MIP_POOL_MIN_BYTES_FAST : SW_MIP_POOL_MIN_BYTES;
    if (bands <= 1 || (size_t)j.dw * j.es * (size_t)j.dh < min_bytes) {
        j.band_h = j.dh;
        sw_mip_band(&j, 0, 0);
        return;
    }
    /* a few bands per thread, so a thread slowed by other work does not hold up the level */
    j.band_h = (j.dh + bands - 1) / bands;
    sw_pool_run(pool, (j.dh + j.band_h - 1) / j.band_h, sw_mip_band, &j);
}

void sw_texture_generate_mips(sw_pool *pool, xgdi_native_texture *t, int face)
{
    if (t->desc.levels <= 1 || t->is_dxt) return;
    for (int l = 1; l < t->desc.levels; l++) {
        sw_image *src = sw_texture_image(t, face, l - 1);
        sw_image *dst = sw_texture_image(t, face, l);
        sw_mip_level(pool, t->desc.format, src->texels, src->width, src->height, src->row_pitch,
                     dst->texels, dst->row_pitch, true);
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
    sw_texture_generate_mips(sw_cast(r)->pool, t, face);
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
