/*
 * fault.c - debug fault injection (a renderer that fails on demand, so tests can prove that core
 * calls the renderer first and publishes public state only after it succeeds, spec 001 step 6)
 * and the packed-format probe of device creation (spec 000).
 *
 * The hook costs nothing until armed: arming swaps the device's ops pointer for a per-device
 * copy whose intercepted entries count calls and forward to the real table, so the draw path of
 * an ordinary device never sees a branch.
 */
#include "internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const fault_names[XGDI_FAULT_OP_COUNT] = {
    "set_render_targets", "texture_create", "texture_upload", "clear", "draw", "present",
    "read_back_buffer", "corrupt_download", "no_back_buffer_readback", "reset_back_buffer",
    "submit", "texture_download"
};

/* Faults armed with device NULL wait here for the next device created on this thread. */
static _Thread_local int pending_count[XGDI_FAULT_OP_COUNT];
static _Thread_local xgd_result pending_code[XGDI_FAULT_OP_COUNT];
static _Thread_local bool pending_any;

static const xgdi_renderer_ops *real_ops(xgdi_renderer *r) { return r->device->debug_real_ops; }

/* Counts one call of op; true when this call is the one that fails. */
static bool fires(xgd_device *dev, xgdi_fault_op op)
{
    int *n = &dev->debug_fault_count[op];
    if (*n == 0) return false;
    if (*n < -1) { /* xgdi_debug_fail_after: a call still let through */
        ++*n;
        return false;
    }
    if (*n < 0) return true;
    return --*n == 0;
}

static xgd_result injected(xgd_device *dev, xgdi_fault_op op)
{
    return xgdi_fail(dev, dev->debug_fault_code[op],
                     "renderer '%s': %s failed (injected debug fault)", dev->debug_real_ops->name,
                     fault_names[op]);
}

/* ---- the intercepting entries ---------------------------------------------------------------- */
/* The "any operation" mode (xgdi_debug_fail_any): every fallible renderer call core makes
 * counts once, in call order, and the n-th fails whatever its kind. A DEVICE_LOST fault enters
 * the lost state as a renderer's own native loss does (xgdi_device_lost), so a program sees
 * what a real loss at that call would give it. */
static bool any_fires(xgd_device *dev)
{
    dev->debug_op_calls++;
    return dev->debug_any_count > 0 && --dev->debug_any_count == 0;
}

static xgd_result any_injected(xgd_device *dev, const char *op)
{
    char msg[160];
    snprintf(msg, sizeof msg, "renderer '%s': %s failed (injected debug fault, operation %llu)",
             dev->debug_real_ops->name, op, (unsigned long long)dev->debug_op_calls);
    if (dev->debug_any_code == XGD_ERROR_DEVICE_LOST) {
        xgdi_device_lost(dev, msg);
        return XGD_ERROR_DEVICE_LOST;
    }
    return xgdi_fail(dev, dev->debug_any_code, "%s", msg);
}

#define ANY_FAULT(r, op)                                                                      \
    do {                                                                                      \
        if (any_fires((r)->device)) return any_injected((r)->device, op);                    \
    } while (0)


static void apply_caps_faults(xgd_device *dev, xgdi_caps *caps)
{
    if (dev->debug_fault_count[XGDI_FAULT_NO_BACK_BUFFER_READBACK] != 0)
        caps->back_buffer_readback = false;
}

static void w_get_caps(xgdi_renderer *r, xgdi_caps *out)
{
    real_ops(r)->get_caps(r, out);
    apply_caps_faults(r->device, out);
}

static xgd_result w_texture_create(xgdi_renderer *r, const xgdi_texture_desc *desc,
                                   xgdi_native_texture **out)
{
    ANY_FAULT(r, "texture_create");
    if (fires(r->device, XGDI_FAULT_TEXTURE_CREATE)) return injected(r->device, XGDI_FAULT_TEXTURE_CREATE);
    return real_ops(r)->texture_create(r, desc, out);
}

static xgd_result w_texture_upload(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                   const xgd_rect *rect, const void *data, size_t row_pitch)
{
    ANY_FAULT(r, "texture_upload");
    if (fires(r->device, XGDI_FAULT_TEXTURE_UPLOAD)) return injected(r->device, XGDI_FAULT_TEXTURE_UPLOAD);
    return real_ops(r)->texture_upload(r, t, face, level, rect, data, row_pitch);
}

/* Texture3D uploads count as texture_upload faults too (one op name for every texel upload). */
static xgd_result w_texture_upload_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                          const xgd_box *box, const void *data, size_t row_pitch,
                                          size_t slice_pitch)
{
    ANY_FAULT(r, "texture_upload_volume");
    if (fires(r->device, XGDI_FAULT_TEXTURE_UPLOAD)) return injected(r->device, XGDI_FAULT_TEXTURE_UPLOAD);
    return real_ops(r)->texture_upload_volume(r, t, level, box, data, row_pitch, slice_pitch);
}

static xgd_result w_texture_download(xgdi_renderer *r, xgdi_native_texture *t, int face,
                                     int level, const xgd_rect *rect, void *data,
                                     size_t row_pitch)
{
    ANY_FAULT(r, "texture_download");
    if (fires(r->device, XGDI_FAULT_TEXTURE_DOWNLOAD))
        return injected(r->device, XGDI_FAULT_TEXTURE_DOWNLOAD);
    xgd_result res = real_ops(r)->texture_download(r, t, face, level, rect, data, row_pitch);
    /* The first row is the only one known to lie inside the caller's buffer whatever the
     * format's block height; inverting it is enough to make any comparison fail. */
    if (res == XGD_OK && fires(r->device, XGDI_FAULT_CORRUPT_DOWNLOAD)) {
        uint8_t *p = data;
        for (size_t i = 0; i < row_pitch; i++) p[i] = (uint8_t)~p[i];
    }
    return res;
}

static xgd_result w_set_render_targets(xgdi_renderer *r, const xgdi_target *targets, int count)
{
    ANY_FAULT(r, "set_render_targets");
    if (fires(r->device, XGDI_FAULT_SET_RENDER_TARGETS))
        return injected(r->device, XGDI_FAULT_SET_RENDER_TARGETS);
    return real_ops(r)->set_render_targets(r, targets, count);
}

static xgd_result w_clear(xgdi_renderer *r, unsigned options, const float color[4], float depth,
                          int stencil)
{
    ANY_FAULT(r, "clear");
    if (fires(r->device, XGDI_FAULT_CLEAR)) return injected(r->device, XGDI_FAULT_CLEAR);
    return real_ops(r)->clear(r, options, color, depth, stencil);
}

static xgd_result w_draw(xgdi_renderer *r, const xgdi_draw *draw)
{
    ANY_FAULT(r, "draw");
    if (fires(r->device, XGDI_FAULT_DRAW)) return injected(r->device, XGDI_FAULT_DRAW);
    return real_ops(r)->draw(r, draw);
}

static xgd_result w_read_back_buffer(xgdi_renderer *r, const xgd_rect *rect, void *rgba)
{
    ANY_FAULT(r, "read_back_buffer");
    if (fires(r->device, XGDI_FAULT_READ_BACK_BUFFER))
        return injected(r->device, XGDI_FAULT_READ_BACK_BUFFER);
    return real_ops(r)->read_back_buffer(r, rect, rgba);
}

static xgd_result w_reset_back_buffer(xgdi_renderer *r, const xgd_presentation_parameters *pp)
{
    ANY_FAULT(r, "reset_back_buffer");
    if (fires(r->device, XGDI_FAULT_RESET_BACK_BUFFER))
        return injected(r->device, XGDI_FAULT_RESET_BACK_BUFFER);
    return real_ops(r)->reset_back_buffer(r, pp);
}

/* Only core's submits pass here (query results, query_segments.c): a renderer submitting on
 * its own (present, synchronous readbacks) calls its function directly. */
static xgd_result w_submit(xgdi_renderer *r)
{
    ANY_FAULT(r, "submit");
    if (fires(r->device, XGDI_FAULT_SUBMIT)) return injected(r->device, XGDI_FAULT_SUBMIT);
    return real_ops(r)->submit(r);
}

static xgd_result w_present(xgdi_renderer *r, int swap_interval)
{
    ANY_FAULT(r, "present");
    if (fires(r->device, XGDI_FAULT_PRESENT)) return injected(r->device, XGDI_FAULT_PRESENT);
    xgd_result res = real_ops(r)->present(r, swap_interval);
    if (res == XGD_OK) r->device->debug_last_swap_interval = swap_interval;
    return res;
}

/* Calls that only the "any operation" mode intercepts. */
static xgd_result w_texture_download_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                            const xgd_box *box, void *data, size_t row_pitch,
                                            size_t slice_pitch)
{
    ANY_FAULT(r, "texture_download_volume");
    return real_ops(r)->texture_download_volume(r, t, level, box, data, row_pitch, slice_pitch);
}

static xgd_result w_texture_finalize(xgdi_renderer *r, xgdi_native_texture *t, int face)
{
    ANY_FAULT(r, "texture_finalize");
    return real_ops(r)->texture_finalize(r, t, face);
}

static xgd_result w_buffer_create(xgdi_renderer *r, xgdi_buffer_kind kind, size_t size,
                                  bool dynamic, xgdi_native_buffer **out)
{
    ANY_FAULT(r, "buffer_create");
    return real_ops(r)->buffer_create(r, kind, size, dynamic, out);
}

static xgd_result w_buffer_upload(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                  const void *data, size_t size, xgd_set_data_options options)
{
    ANY_FAULT(r, "buffer_upload");
    return real_ops(r)->buffer_upload(r, b, offset, data, size, options);
}

static xgd_result w_buffer_download(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                    void *data, size_t size)
{
    ANY_FAULT(r, "buffer_download");
    return real_ops(r)->buffer_download(r, b, offset, data, size);
}

static xgd_result w_wait_fence(xgdi_renderer *r, uint64_t value)
{
    ANY_FAULT(r, "wait_fence");
    return real_ops(r)->wait_fence(r, value);
}

static xgd_result w_query_create(xgdi_renderer *r, xgdi_native_query **out)
{
    ANY_FAULT(r, "query_create");
    return real_ops(r)->query_create(r, out);
}

static xgd_result w_query_begin(xgdi_renderer *r, xgdi_native_query *q)
{
    ANY_FAULT(r, "query_begin");
    return real_ops(r)->query_begin(r, q);
}

static xgd_result w_query_end(xgdi_renderer *r, xgdi_native_query *q)
{
    ANY_FAULT(r, "query_end");
    return real_ops(r)->query_end(r, q);
}

static xgd_result w_query_result(xgdi_renderer *r, xgdi_native_query *q, bool flush, bool wait,
                                 bool *done, uint64_t *samples)
{
    ANY_FAULT(r, "query_result");
    return real_ops(r)->query_result(r, q, flush, wait, done, samples);
}

/* ---- arming ---------------------------------------------------------------------------------- */

static void wrap(xgd_device *dev)
{
    if (dev->debug_real_ops != NULL) return;
    const xgdi_renderer_ops *ops = dev->ops;
    dev->debug_real_ops = ops;
    dev->debug_ops = *ops;
    dev->debug_ops.get_caps = w_get_caps;
    dev->debug_ops.texture_create = w_texture_create;
    dev->debug_ops.texture_upload = w_texture_upload;
    if (ops->texture_upload_volume != NULL)
        dev->debug_ops.texture_upload_volume = w_texture_upload_volume;
    if (ops->texture_download != NULL) dev->debug_ops.texture_download = w_texture_download;
    dev->debug_ops.set_render_targets = w_set_render_targets;
    dev->debug_ops.clear = w_clear;
    dev->debug_ops.draw = w_draw;
    /* the short user draw bypasses draw: without it every draw reaches w_draw */
    dev->debug_ops.user_draw_fast = NULL;
    /* every run of a quad-run draw then passes w_draw, so a fault can hit any run */
    dev->debug_ops.draw_quad_runs = NULL;
    if (ops->read_back_buffer != NULL) dev->debug_ops.read_back_buffer = w_read_back_buffer;
    dev->debug_ops.present = w_present;
    dev->debug_ops.reset_back_buffer = w_reset_back_buffer;
    if (ops->submit != NULL) dev->debug_ops.submit = w_submit;
    if (ops->texture_download_volume != NULL)
        dev->debug_ops.texture_download_volume = w_texture_download_volume;
    if (ops->texture_finalize != NULL) dev->debug_ops.texture_finalize = w_texture_finalize;
    dev->debug_ops.buffer_create = w_buffer_create;
    dev->debug_ops.buffer_upload = w_buffer_upload;
    if (ops->buffer_download != NULL) dev->debug_ops.buffer_download = w_buffer_download;
    if (ops->wait_fence != NULL) dev->debug_ops.wait_fence = w_wait_fence;
    if (ops->query_create != NULL) {
        dev->debug_ops.query_create = w_query_create;
        dev->debug_ops.query_begin = w_query_begin;
        dev->debug_ops.query_end = w_query_end;
        dev->debug_ops.query_result = w_query_result;
    }
    dev->debug_last_swap_interval = -1;
    dev->ops = &dev->debug_ops;
    xgdi_forget_user_draw(dev); /* its user_draw_fast was the renderer's */
}

/* The caps field a caps fault changes follows the armed state both ways. */
static void refresh_caps(xgd_device *dev)
{
    if (dev->renderer == NULL) return; /* lost: the restore asks again through w_get_caps */
    xgdi_caps real;
    memset(&real, 0, sizeof real);
    dev->debug_real_ops->get_caps(dev->renderer, &real);
    dev->caps.back_buffer_readback = real.back_buffer_readback;
    apply_caps_faults(dev, &dev->caps);
}

/* count as debug_fault_count holds it: 0 off, n > 0 the nth next call, -1 every call, -(k+1)
 * every call after k that pass. */
static xgd_result arm(xgd_device *device, xgdi_fault_op op, int nth, xgd_result code)
{
    if ((unsigned)op >= XGDI_FAULT_OP_COUNT)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown fault op %d", (int)op);
    if (code == XGD_OK) code = XGD_ERROR_OUT_OF_MEMORY;
    if (device == NULL) {
        pending_count[op] = nth;
        pending_code[op] = code;
        pending_any = false;
        for (int i = 0; i < XGDI_FAULT_OP_COUNT; i++) pending_any |= pending_count[i] != 0;
        return XGD_OK;
    }
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    wrap(device);
    device->debug_fault_count[op] = nth;
    device->debug_fault_code[op] = code;
    if (op == XGDI_FAULT_NO_BACK_BUFFER_READBACK) refresh_caps(device);
    return XGD_OK;
}

xgd_result xgdi_debug_fail_any(xgd_device *device, int nth, xgd_result code)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    wrap(device);
    device->debug_any_count = nth > 0 ? nth : 0;
    device->debug_any_code = code == XGD_OK ? XGD_ERROR_OUT_OF_MEMORY : code;
    device->debug_op_calls = 0;
    return XGD_OK;
}

uint64_t xgdi_debug_op_calls(const xgd_device *device)
{
    return device != NULL ? device->debug_op_calls : 0;
}

xgd_result xgdi_debug_fail_next(xgd_device *device, xgdi_fault_op op, int nth, xgd_result code)
{
    return arm(device, op, nth < 0 ? -1 : nth, code);
}

xgd_result xgdi_debug_fail_after(xgd_device *device, xgdi_fault_op op, int skip, xgd_result code)
{
    if (skip < 0 || skip == INT_MAX)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "bad fault skip count %d", skip);
    return arm(device, op, -(skip + 1), code);
}

int xgdi_debug_last_swap_interval(const xgd_device *device)
{
    return device != NULL && device->debug_real_ops != NULL ? device->debug_last_swap_interval : -1;
}

#ifdef XGD_FAULT_INJECTION
/* XGD_DEBUG_FAIL="op:nth,..." (nth defaults to 1); unknown names are reported as warnings.
 * Compiled only with the CMake option XGD_FAULT_INJECTION=ON (test builds): a library built
 * for release must not start failing calls because of a variable in its host's environment.
 * The arming calls above (xgdi_debug_fail_next) work in every build. */
static void arm_from_env(xgd_device *dev)
{
    const char *env = getenv("XGD_DEBUG_FAIL");
    if (env == NULL || env[0] == '\0') return;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", env);
    for (char *item = buf; item != NULL && *item != '\0';) {
        char *next = strchr(item, ',');
        if (next != NULL) *next++ = '\0';
        char *colon = strchr(item, ':');
        int nth = 1;
        if (colon != NULL) {
            *colon = '\0';
            nth = atoi(colon + 1);
        }
        int op = -1;
        for (int i = 0; i < XGDI_FAULT_OP_COUNT; i++)
            if (strcmp(item, fault_names[i]) == 0) op = i;
        if (op < 0)
            xgdi_warn(dev, "XGD_DEBUG_FAIL: unknown fault '%s' ignored", item);
        else
            xgdi_debug_fail_next(dev, (xgdi_fault_op)op, nth, XGD_ERROR_OUT_OF_MEMORY);
        item = next;
    }
}
#endif

void xgdi_debug_install_pending(xgd_device *dev)
{
    if (pending_any) {
        for (int i = 0; i < XGDI_FAULT_OP_COUNT; i++) {
            if (pending_count[i] != 0)
                arm(dev, (xgdi_fault_op)i, pending_count[i], pending_code[i]);
            pending_count[i] = 0;
        }
        pending_any = false;
    }
#ifdef XGD_FAULT_INJECTION
    arm_from_env(dev);
#endif
}

/* ---- packed-format probe (spec 000 device creation) ---------------------------------------- */

/* One run of the round trip. *verdict is NULL when the renderer stores the format exactly, or
 * why it does not: texels read back differ, or the renderer refused the format by name
 * (NOT_SUPPORTED). Any other failure of a step means the test did not run: that is returned
 * (with *step naming it), and says nothing about the format. */
static xgd_result probe_one(xgd_device *dev, xgd_surface_format format, const char **verdict,
                            const char **step)
{
    /* Eight 16-bit texels that together set and clear every bit of every channel, so a
     * renderer that widens, swizzles or drops bits cannot reproduce them. */
    static const uint16_t pattern[8] = { 0x0000, 0xFFFF, 0x1234, 0x8001,
                                         0x7BDE, 0xA5A5, 0x5A5A, 0xF00F };
    enum { PW = 4, PH = 2 };
    uint8_t up[PW * PH * 2], down[PW * PH * 2];
    memcpy(up, pattern, sizeof up);
    memset(down, 0xCC, sizeof down);
    *verdict = NULL;
    *step = NULL;
    xgdi_texture_desc d = { .width = PW, .height = PH, .levels = 1, .format = format,
                            .depth_format = XGD_DEPTH_FORMAT_NONE, .samples = 1,
                            .debug_name = "xgd packed-format probe" };
    xgdi_native_texture *n = NULL;
    /* A failing step that writes no message of its own must not be reported with an older,
     * unrelated one. */
    xgdi_failure_message(dev)[0] = '\0';
    xgd_result r = dev->ops->texture_create(dev->renderer, &d, &n);
    if (r == XGD_OK && n == NULL) r = xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                                "the renderer returned no texture");
    if (r != XGD_OK) {
        *step = "creating the probe texture";
        if (r != XGD_ERROR_NOT_SUPPORTED) return r;
        *verdict = "the renderer refused to create a texture of the format";
        return XGD_OK;
    }
    xgd_rect rect = { 0, 0, PW, PH };
    size_t pitch = xgdi_format_row_size(format, PW);
    xgdi_failure_message(dev)[0] = '\0';
    r = dev->ops->texture_upload(dev->renderer, n, 0, 0, &rect, up, pitch);
    if (r != XGD_OK) {
        *step = "uploading the probe texels";
    } else if (dev->ops->texture_download != NULL) { /* else nothing to compare: trust caps */
        xgdi_failure_message(dev)[0] = '\0';
        r = dev->ops->texture_download(dev->renderer, n, 0, 0, &rect, down, pitch);
        if (r != XGD_OK) *step = "reading the probe texels back";
        else if (memcmp(up, down, sizeof up) != 0)
            *verdict = "texels read back differ from the texels uploaded";
    }
    dev->ops->texture_destroy(dev->renderer, n);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        *verdict = "the renderer refused a step of the round trip as not supported";
        r = XGD_OK;
    }
    return r;
}

xgd_result xgdi_probe_packed_formats(xgd_device *dev)
{
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGRA4444,
                                                  XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551 };
    if (dev == NULL || dev->renderer == NULL) return XGD_OK;
    /* A probe that ran keeps the caller's last error as it was; one that could not run is the
     * caller's error (creation or restore fails, and may be tried again). */
    char saved[sizeof dev->last_error];
    memcpy(saved, dev->last_error, sizeof saved);
    xgd_result saved_result = dev->last_result;
    bool unusable[3] = { false, false, false };
    const char *why[3] = { NULL, NULL, NULL };
    for (int i = 0; i < 3; i++) {
        xgd_surface_format f = packed[i];
        if (!dev->caps.formats[f].texture) continue;
        const char *step = NULL;
        xgd_result r = probe_one(dev, f, &why[i], &step);
        if (r != XGD_OK) {
            char cause[sizeof dev->last_error];
            memcpy(cause, xgdi_failure_message(dev), sizeof cause);
            return xgdi_fail(dev, r,
                             "the packed-format self-test of renderer '%s' could not run "
                             "(%s %s failed: %s)",
                             dev->ops->name, xgdi_format_info_of(f)->name, step,
                             cause[0] != '\0' ? cause : xgd_result_name(r));
        }
        unusable[i] = why[i] != NULL;
    }
    /* Verdicts are published only once every format's test ran. */
    for (int i = 0; i < 3; i++) {
        if (!unusable[i]) continue;
        xgd_surface_format f = packed[i];
        memset(&dev->caps.formats[f], 0, sizeof dev->caps.formats[f]);
        xgdi_warn(dev, "renderer '%s' cannot store %s texels (%s); the format is unavailable",
                  dev->ops->name, xgdi_format_info_of(f)->name, why[i]);
    }
    memcpy(dev->last_error, saved, sizeof saved);
    dev->last_result = saved_result;
    return XGD_OK;
}
