/*
 * sw_renderer.c - the software renderer's ops table: creation, caps, the back buffer, buffers,
 * render-target binding, present, fences. Everything executes synchronously, so a submitted
 * fence is complete as soon as it is signalled.
 */
#include "sw_internal.h"
#include "../../platform/window.h"

#include <stdlib.h>
#include <string.h>

static xgd_result sw_make_back_buffer(sw_renderer *r, const xgd_presentation_parameters *pp,
                                      xgdi_native_texture **out)
{
    xgdi_texture_desc d = xgdi_back_buffer_desc(pp, 8);
    return sw_texture_alloc(r, &d, out);
}

static void sw_bind_back_buffer(sw_renderer *r)
{
    memset(r->targets, 0, sizeof r->targets);
    r->targets[0].texture = r->back_buffer;
    r->targets[0].face = 0;
    r->target_count = 1;
}

/* Threads a device rasterizes with: $XGD_SW_THREADS (1..SW_MAX_THREADS; 1 = every draw on the
   calling thread), else the number of online CPUs. */
static int sw_thread_count(void)
{
    const char *e = getenv("XGD_SW_THREADS");
    if (e != NULL && *e != '\0') {
        char *end;
        long n = strtol(e, &end, 10);
        if (*end == '\0' && n >= 1) return n > SW_MAX_THREADS ? SW_MAX_THREADS : (int)n;
    }
    return sw_pool_default_threads();
}

#define SW_BAND_MIN_PIXELS 8192

static long sw_band_min_pixels(void)
{
    const char *e = getenv("XGD_SW_BAND_MIN_PIXELS");
    if (e != NULL && *e != '\0') {
        char *end;
        long n = strtol(e, &end, 10);
        if (*end == '\0' && n >= 0) return n;
    }
    return SW_BAND_MIN_PIXELS;
}

static xgd_result sw_create(const xgdi_renderer_create_info *info, xgdi_renderer **out)
{
    *out = NULL;
    sw_renderer *r = calloc(1, sizeof *r);
    if (r == NULL)
        return xgdi_fail(info->device, XGD_ERROR_OUT_OF_MEMORY, "software: out of memory");
    r->base.ops = &xgdi_software_renderer_ops;
    r->base.device = info->device;
    r->debug = info->debug;
    r->profile = info->profile;
    xgd_result res = sw_make_back_buffer(r, info->pp, &r->back_buffer);
    if (res != XGD_OK) {
        free(r);
        return res;
    }
    sw_bind_back_buffer(r);
    /* without workers (none could start) every draw runs on the calling thread */
    r->pool = sw_pool_create(sw_thread_count());
    r->band_min_pixels = sw_band_min_pixels();
    /* $XGD_SW_EXECUTOR_ONLY=1: every shader runs in the executor, for tests and benches that
       compare it with the shapes computed directly */
    const char *x = getenv("XGD_SW_EXECUTOR_ONLY");
    r->executor_only = x != NULL && strcmp(x, "1") == 0;
    /* $XGD_SW_QUAD_RUNS=off: a draw of quad runs is a draw per run (sw_draw_quad_runs), the
       reference tests compare the one-draw form with */
    const char *qr = getenv("XGD_SW_QUAD_RUNS");
    r->quad_runs_off = qr != NULL && strcmp(qr, "off") == 0;
    /* $XGD_SW_ROWS_SCALAR=1: the row path draws one pixel at a time, never four (the
       reference of the four-pixel form in tests) */
    const char *rs = getenv("XGD_SW_ROWS_SCALAR");
    r->rows_scalar = rs != NULL && strcmp(rs, "1") == 0;
    *out = &r->base;
    return XGD_OK;
}

static void sw_destroy(xgdi_renderer *base)
{
    if (base == NULL) return;
    sw_renderer *r = sw_cast(base);
    xgdi_retire_flush_all(&base->retired, base);
    xgdi_retire_free(&base->retired);
    sw_pool_destroy(r->pool);
    sw_texture_free(r->back_buffer);
    free(r->verts);
    free(r->vsrc);
    free(r->vmap);
    free(r->tris);
    free(r->tri_rows);
    free(r->tri_run);
    free(r->clip_vary);
    free(r->reserved);
    free(r);
}

static void sw_get_caps(xgdi_renderer *base, xgdi_caps *out)
{
    (void)base;
    memset(out, 0, sizeof *out);
    out->adapter_name = "xgd software rasterizer";
    out->max_texture_size = SW_MAX_TEXTURE_SIZE;
    out->max_render_targets = SW_MAX_TARGETS;
    out->max_multisample_count = SW_MAX_SAMPLES;
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        bool dxt = f == XGD_SURFACE_FORMAT_DXT1 || f == XGD_SURFACE_FORMAT_DXT3 ||
                   f == XGD_SURFACE_FORMAT_DXT5;
        out->formats[f].texture = true;
        out->formats[f].filterable = true;
        out->formats[f].max_anisotropy = 16; /* sw_sample.c's footprint filter */
        out->formats[f].render_target = !dxt;
        out->formats[f].blendable = !dxt;
        out->formats[f].multisample = !dxt;
        out->formats[f].volume = true; /* every format, DXT included: volumes are slices */
    }
    out->depth_formats[XGD_DEPTH_FORMAT_NONE] = true;
    out->depth_formats[XGD_DEPTH_FORMAT_DEPTH16] = true;
    out->depth_formats[XGD_DEPTH_FORMAT_DEPTH24] = true;
    out->depth_formats[XGD_DEPTH_FORMAT_DEPTH24_STENCIL8] = true;
    out->zero_scissor = XGD_ZERO_SCISSOR_CLIPS_ALL;
    out->back_buffer_readback = true;
    out->present_to_window = true;
}

static xgd_result sw_reset_back_buffer(xgdi_renderer *base, const xgd_presentation_parameters *pp)
{
    sw_renderer *r = sw_cast(base);
    xgdi_native_texture *nb = NULL;
    xgd_result res = sw_make_back_buffer(r, pp, &nb);
    if (res != XGD_OK) return res; /* the old back buffer stays */
    sw_texture_free(r->back_buffer);
    r->back_buffer = nb;
    sw_bind_back_buffer(r);
    return XGD_OK;
}

/* ---- buffers: plain memory ---- */

static xgd_result sw_buffer_create(xgdi_renderer *base, xgdi_buffer_kind kind, size_t size,
                                   bool dynamic, xgdi_native_buffer **out)
{
    (void)dynamic;
    *out = NULL;
    xgdi_native_buffer *b = calloc(1, sizeof *b);
    uint8_t *data = calloc(1, size > 0 ? size : 1);
    if (b == NULL || data == NULL) {
        free(b);
        free(data);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                         "software: out of memory for a %zu-byte buffer", size);
    }
    b->kind = kind;
    b->size = size;
    b->data = data;
    *out = b;
    return XGD_OK;
}

static void sw_buffer_destroy(xgdi_renderer *base, xgdi_native_buffer *b)
{
    (void)base;
    if (b == NULL) return;
    free(b->data);
    free(b);
}

static xgd_result sw_buffer_upload(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset,
                                   const void *data, size_t size, xgd_set_data_options options)
{
    (void)options; /* draws execute immediately: every option may write in place */
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: buffer upload [%zu, +%zu) outside %zu bytes", offset, size,
                         b->size);
    if (size > 0) memcpy(b->data + offset, data, size);
    return XGD_OK;
}

static xgd_result sw_buffer_download(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset,
                                     void *data, size_t size)
{
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: buffer download [%zu, +%zu) outside %zu bytes", offset,
                         size, b->size);
    if (size > 0) memcpy(data, b->data + offset, size);
    return XGD_OK;
}

/* ---- targets, clear, draw ---- */

static xgd_result sw_set_render_targets(xgdi_renderer *base, const xgdi_target *targets,
                                        int count)
{
    sw_renderer *r = sw_cast(base);
    if (count <= 0 || targets == NULL) {
        sw_bind_back_buffer(r);
        return XGD_OK;
    }
    if (count > SW_MAX_TARGETS)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: %d render targets (at most %d)", count, SW_MAX_TARGETS);
    xgdi_native_texture *t0 = targets[0].texture;
    for (int i = 0; i < count; i++) {
        xgdi_native_texture *t = targets[i].texture;
        if (t == NULL || !t->desc.render_target || targets[i].face < 0 ||
            targets[i].face >= t->faces || t->desc.width != t0->desc.width ||
            t->desc.height != t0->desc.height || t->samples != t0->samples)
            return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                             "software: render target %d cannot be bound with the others", i);
    }
    memset(r->targets, 0, sizeof r->targets);
    for (int i = 0; i < count; i++) r->targets[i] = targets[i];
    r->target_count = count;
    return XGD_OK;
}

static xgd_result sw_op_clear(xgdi_renderer *base, unsigned options, const float color[4],
                              float depth, int stencil)
{
    return sw_clear(sw_cast(base), options, color, depth, stencil);
}

static xgd_result sw_op_draw(xgdi_renderer *base, const xgdi_draw *draw)
{
    return sw_draw(sw_cast(base), draw);
}

static xgd_result sw_op_draw_quad_runs(xgdi_renderer *base, const xgdi_draw *draw,
                                       const xgdi_quad_run *runs, int count, int *drawn)
{
    return sw_draw_quad_runs(sw_cast(base), draw, runs, count, drawn);
}

static xgd_result sw_reserve_vertices(xgdi_renderer *base, size_t bytes, size_t stride,
                                      void **cpu, uint64_t *at)
{
    sw_renderer *r = sw_cast(base);
    /* one stride more: a layout's elements may reach past its stride */
    size_t need = bytes + stride;
    if (need > r->reserved_capacity) {
        size_t cap = r->reserved_capacity != 0 ? r->reserved_capacity : 64 * 1024;
        while (cap < need) cap *= 2;
        uint8_t *p = realloc(r->reserved, cap);
        if (p == NULL)
            return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                             "software: out of memory reserving %zu vertex bytes", bytes);
        r->reserved = p;
        r->reserved_capacity = cap;
    }
    *cpu = r->reserved;
    *at = 0;
    return XGD_OK;
}

static xgd_result sw_read_back_buffer(xgdi_renderer *base, const xgd_rect *rect, void *rgba)
{
    sw_renderer *r = sw_cast(base);
    xgdi_native_texture *bb = r->back_buffer;
    if (bb == NULL)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "software: no back buffer");
    sw_image *img = sw_texture_image(bb, 0, 0);
    if (rect->x < 0 || rect->y < 0 || rect->width <= 0 || rect->height <= 0 ||
        rect->x + rect->width > img->width || rect->y + rect->height > img->height)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: readback rectangle outside the back buffer");
    if (bb->samples > 1 && bb->ms_dirty[0]) sw_texture_resolve(bb, 0);
    uint8_t *dst = rgba;
    for (int y = 0; y < rect->height; y++)
        memcpy(dst + (size_t)y * (size_t)rect->width * 4,
               img->texels + (size_t)(rect->y + y) * img->row_pitch + (size_t)rect->x * 4,
               (size_t)rect->width * 4);
    return XGD_OK;
}

/* ---- frames and fences ---- */

static xgd_result sw_submit(xgdi_renderer *base)
{
    base->submitted_fence++;
    xgdi_retire_collect(&base->retired, base, base->submitted_fence);
    return XGD_OK;
}

/* Windowed, the resolved back buffer is copied to the window as it is: it has the window's
 * size, and the presentation mode's scaling already happened in the draws' viewport. A CPU copy
 * has no vertical blank to wait for, so every interval presents at once (README "Windows"). */
static xgd_result sw_present(xgdi_renderer *base, int swap_interval)
{
    (void)swap_interval;
    sw_renderer *r = sw_cast(base);
    if (r->back_buffer != NULL && r->back_buffer->samples > 1 && r->back_buffer->ms_dirty[0])
        sw_texture_resolve(r->back_buffer, 0);
    xgd_result res = sw_submit(base);
    if (res != XGD_OK || base->window == NULL || r->back_buffer == NULL) return res;
    sw_image *img = sw_texture_image(r->back_buffer, 0, 0);
    return xgdi_window_put_rgba(base->device, base->window, img->texels, img->width, img->height,
                                img->row_pitch);
}

/* Every call executes before it returns, so the open frame's work (fence submitted + 1) is
 * already complete too. */
static uint64_t sw_completed_fence(xgdi_renderer *base)
{
    return base->submitted_fence + 1;
}

static xgd_result sw_wait_fence(xgdi_renderer *base, uint64_t value)
{
    (void)base;
    (void)value;
    return XGD_OK;
}

/* ---- occlusion queries: the rasterizer counts into the active query (sw_raster.c) ---- */

static xgd_result sw_query_create(xgdi_renderer *base, xgdi_native_query **out)
{
    xgdi_native_query *q = calloc(1, sizeof *q);
    if (q == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "software: out of memory");
    *out = q;
    return XGD_OK;
}

static void sw_query_destroy(xgdi_renderer *base, xgdi_native_query *q)
{
    sw_renderer *r = sw_cast(base);
    if (r->occlusion == &q->samples) r->occlusion = NULL;
    free(q);
}

static xgd_result sw_query_begin(xgdi_renderer *base, xgdi_native_query *q)
{
    q->samples = 0;
    sw_cast(base)->occlusion = &q->samples;
    return XGD_OK;
}

static xgd_result sw_query_end(xgdi_renderer *base, xgdi_native_query *q)
{
    sw_renderer *r = sw_cast(base);
    if (r->occlusion == &q->samples) r->occlusion = NULL;
    return XGD_OK;
}

static xgd_result sw_query_result(xgdi_renderer *base, xgdi_native_query *q, bool flush,
                                  bool wait, bool *done, uint64_t *samples)
{
    (void)base;
    (void)flush;
    (void)wait;
    *done = true; /* draws executed before they returned */
    *samples = q->samples;
    return XGD_OK;
}

const xgdi_renderer_ops xgdi_software_renderer_ops = {
    .name = "software",
    .kind = XGD_RENDERER_SOFTWARE,
    .create = sw_create,
    .destroy = sw_destroy,
    .get_caps = sw_get_caps,
    .reset_back_buffer = sw_reset_back_buffer,
    .texture_create = sw_op_texture_create,
    .texture_destroy = sw_op_texture_destroy,
    .texture_upload = sw_op_texture_upload,
    .texture_download = sw_op_texture_download,
    .texture_finalize = sw_op_texture_finalize,
    .texture_upload_volume = sw_op_texture_upload_volume,
    .texture_download_volume = sw_op_texture_download_volume,
    .buffer_create = sw_buffer_create,
    .buffer_destroy = sw_buffer_destroy,
    .buffer_upload = sw_buffer_upload,
    .buffer_download = sw_buffer_download,
    .set_render_targets = sw_set_render_targets,
    .clear = sw_op_clear,
    .draw = sw_op_draw,
    .read_back_buffer = sw_read_back_buffer,
    .present = sw_present,
    .submit = sw_submit,
    .completed_fence = sw_completed_fence,
    .wait_fence = sw_wait_fence,
    .query_create = sw_query_create,
    .query_destroy = sw_query_destroy,
    .query_begin = sw_query_begin,
    .query_end = sw_query_end,
    .query_result = sw_query_result,
    .shader_create = sw_op_shader_create,
    .shader_destroy = sw_op_shader_destroy,
    .reserve_vertices = sw_reserve_vertices,
    .draw_quad_runs = sw_op_draw_quad_runs,
};
