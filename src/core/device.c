/*
 * device.c - device creation and destruction, errors, info, format queries, Reset, simulated
 * context loss and recovery (spec 000 "Device recovery"), depth-bias conversion (spec 002).
 */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Failures with no device (xgd_device_create, disposed shells) keep their message per thread
 * (xgd.h ERRORS). */
static _Thread_local char tls_error[512];
static _Thread_local xgd_result tls_result;

const char *xgd_result_name(xgd_result r)
{
    switch (r) {
    case XGD_OK: return "OK";
    case XGD_ERROR_INVALID_ARGUMENT: return "ERROR_INVALID_ARGUMENT";
    case XGD_ERROR_INVALID_OPERATION: return "ERROR_INVALID_OPERATION";
    case XGD_ERROR_NOT_SUPPORTED: return "ERROR_NOT_SUPPORTED";
    case XGD_ERROR_OBJECT_DISPOSED: return "ERROR_OBJECT_DISPOSED";
    case XGD_ERROR_OUT_OF_MEMORY: return "ERROR_OUT_OF_MEMORY";
    case XGD_ERROR_DEVICE_LOST: return "ERROR_DEVICE_LOST";
    case XGD_ERROR_NO_SUITABLE_DEVICE: return "ERROR_NO_SUITABLE_DEVICE";
    case XGD_ERROR_IO: return "ERROR_IO";
    case XGD_ERROR_ARGUMENT_OUT_OF_RANGE: return "ERROR_ARGUMENT_OUT_OF_RANGE";
    }
    return "UNKNOWN_RESULT";
}

/* ---- errors, warnings, events ------------------------------------------------------------- */

xgd_result xgdi_fail(xgd_device *device, xgd_result code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (device == NULL) {
        memcpy(tls_error, msg, sizeof tls_error);
        tls_result = code;
        return code;
    }
    device->fail_code = code;
    if (device->quiet) {
        memcpy(device->quiet_error, msg, sizeof device->quiet_error);
        return code;
    }
    memcpy(device->last_error, msg, sizeof device->last_error);
    device->last_result = code;
    if (device->desc.log != NULL) device->desc.log(device->desc.log_user, XGD_LOG_ERROR, code, msg);
    return code;
}

void xgdi_quiet_begin(xgd_device *device)
{
    if (device->quiet++ == 0) device->quiet_error[0] = '\0';
}

const char *xgdi_quiet_end(xgd_device *device)
{
    if (device->quiet > 0) device->quiet--;
    return device->quiet_error;
}

xgd_result xgdi_failure(const xgd_device *device)
{
    return device->fail_code < XGD_OK ? device->fail_code : XGD_ERROR_INVALID_OPERATION;
}

char *xgdi_failure_message(xgd_device *device)
{
    return device->quiet ? device->quiet_error : device->last_error;
}

void xgdi_warn(xgd_device *device, const char *fmt, ...)
{
    if (device == NULL || device->desc.log == NULL) return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    device->desc.log(device->desc.log_user, XGD_LOG_WARNING, XGD_OK, msg);
}

void xgdi_raise_event(xgd_device *dev, xgd_device_event event)
{
    if (dev != NULL && dev->desc.on_event != NULL) dev->desc.on_event(dev->desc.event_user, dev, event);
}

/* Called by a renderer from inside a native call, so the renderer is not torn down here: that
 * happens at restore, once no renderer frame is on the stack. */
void xgdi_device_lost(xgd_device *device, const char *reason)
{
    if (device == NULL || device->lost) return;
    device->lost = true;
    xgdi_forget_user_draw(device);
    device->quad_reservation.id = 0; /* its memory goes with the context */
    xgdi_end_quad_holds(device);
    xgdi_fail(device, XGD_ERROR_DEVICE_LOST, "device lost: %s", reason != NULL ? reason : "unknown");
    xgdi_raise_event(device, XGD_EVENT_DEVICE_LOST);
}

xgd_result xgdi_check_device_alive(xgd_device *device)
{
    if (device == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "device is NULL");
    if (device->destroying)
        return xgdi_fail(device, XGD_ERROR_OBJECT_DISPOSED, "device is being destroyed");
    return XGD_OK;
}

xgd_result xgdi_check_device_slow(xgd_device *device)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    /* Spec 000 "Device recovery": until the context is restored, calls that need the renderer
     * report the loss. */
    if (device->lost || device->renderer == NULL)
        return xgdi_fail(device, XGD_ERROR_DEVICE_LOST,
                         "the device is lost; call xgd_device_restore_context");
    return XGD_OK;
}

const char *xgd_device_last_error(const xgd_device *device)
{
    return device != NULL ? device->last_error : tls_error;
}

xgd_result xgd_device_last_result(const xgd_device *device)
{
    return device != NULL ? device->last_result : tls_result;
}

xgd_result xgd_device_report_error(xgd_device *device, xgd_result code, const char *fmt, ...)
{
    if (code >= XGD_OK) return XGD_OK;
    char msg[512] = "";
    va_list ap;
    va_start(ap, fmt);
#if defined(__MINGW32__)
    /* the header promises C99 formats (gnu_printf) whatever the C runtime's printf supports */
    if (fmt != NULL) __mingw_vsnprintf(msg, sizeof msg, fmt, ap);
#else
    if (fmt != NULL) vsnprintf(msg, sizeof msg, fmt, ap);
#endif
    va_end(ap);
    return xgdi_fail(device, code, "%s", msg);
}

void xgd_device_quiet_begin(xgd_device *device)
{
    if (device != NULL) xgdi_quiet_begin(device);
}

const char *xgd_device_quiet_end(xgd_device *device)
{
    if (device == NULL || device->quiet == 0) return "";
    return xgdi_quiet_end(device);
}

/* ---- profile ------------------------------------------------------------------------------ */

static int profile_max_texture(xgd_graphics_profile profile)
{
    return profile == XGD_GRAPHICS_PROFILE_REACH ? 2048 : 4096;
}

int xgdi_max_texture_size(const xgd_device *dev)
{
    int m = profile_max_texture(dev->desc.profile);
    if (dev->caps.max_texture_size > 0 && dev->caps.max_texture_size < m) m = dev->caps.max_texture_size;
    return m;
}

/* Spec 001 step 2: the renderer's maximum for the profile; default one under Reach, four under
 * HiDef. */
int xgdi_max_render_targets(const xgd_device *dev)
{
    int m = dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH ? 1 : XGDI_MAX_RENDER_TARGETS;
    if (dev->caps.max_render_targets > 0 && dev->caps.max_render_targets < m) m = dev->caps.max_render_targets;
    return m;
}

bool xgdi_profile_allows_format(const xgd_device *dev, xgd_surface_format format)
{
    const xgdi_format_info *fi = xgdi_format_info_of(format);
    if (fi == NULL) return false;
    return !(fi->hidef_only && dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH);
}

/* ---- presentation parameters --------------------------------------------------------------- */

static int round_down_pow2(int n)
{
    if (n <= 1) return 0; /* 0 and 1 both mean "off" in XNA */
    int p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}

/* Validates pp and fills its defaults (xgd.h field comments). report: where to record. */
static xgd_result apply_pp(xgd_device *report, const xgd_presentation_parameters *in,
                           xgd_graphics_profile profile, xgd_presentation_parameters *out)
{
    xgd_presentation_parameters pp = *in;
    int maxsize = profile_max_texture(profile);
    if (pp.back_buffer_width == 0) pp.back_buffer_width = 800;
    if (pp.back_buffer_height == 0) pp.back_buffer_height = 480;
    if (pp.back_buffer_width < 0 || pp.back_buffer_height < 0 || pp.back_buffer_width > maxsize ||
        pp.back_buffer_height > maxsize)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "back buffer %dx%d is outside 1..%d for the profile",
                         pp.back_buffer_width, pp.back_buffer_height, maxsize);
    if ((unsigned)pp.back_buffer_format >= XGD_SURFACE_FORMAT_COUNT)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown back_buffer_format %d",
                         (int)pp.back_buffer_format);
    /* Spec 002: the DXGI-style back buffer is kept as R8G8B8A8 and reported as Color. */
    pp.back_buffer_format = XGD_SURFACE_FORMAT_COLOR;
    if ((unsigned)pp.depth_stencil_format >= XGD_DEPTH_FORMAT_COUNT)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown depth_stencil_format %d",
                         (int)pp.depth_stencil_format);
    if (pp.depth_stencil_format == XGD_DEPTH_FORMAT_DEFAULT)
        pp.depth_stencil_format = XGD_DEPTH_FORMAT_DEPTH24;
    if (pp.multisample_count < 0)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "multisample_count %d is negative",
                         pp.multisample_count);
    pp.multisample_count = round_down_pow2(pp.multisample_count);
    if ((unsigned)pp.presentation_mode > XGD_PRESENTATION_MODE_OVERSCAN)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown presentation_mode %d",
                         (int)pp.presentation_mode);
    if (pp.presentation_mode == XGD_PRESENTATION_MODE_DEFAULT)
        pp.presentation_mode = XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER;
    if (pp.virtual_width < 0 || pp.virtual_height < 0 || pp.virtual_width > maxsize ||
        pp.virtual_height > maxsize)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "virtual size %dx%d is out of range",
                         pp.virtual_width, pp.virtual_height);
    if ((unsigned)pp.present_interval > XGD_PRESENT_INTERVAL_IMMEDIATE)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown present_interval %d",
                         (int)pp.present_interval);
    if (pp.present_interval == XGD_PRESENT_INTERVAL_DEFAULT)
        pp.present_interval = XGD_PRESENT_INTERVAL_ONE;
    /* XNA refuses a device without a window handle (ArgumentException); a headless device
     * naming a window is as contradictory. */
    if ((unsigned)pp.window.kind > XGD_WINDOW_WIN32)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown window kind %d",
                         (int)pp.window.kind);
    if (pp.headless && pp.window.kind != XGD_WINDOW_NONE)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "a headless device takes no window (pp.window.kind must be NONE)");
    if (!pp.headless && pp.window.kind == XGD_WINDOW_NONE)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "a windowed device needs pp.window (or set pp.headless)");
    if (pp.headless && pp.is_full_screen)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "a headless device has no window to make full screen "
                         "(pp.is_full_screen must be false)");
    if (pp.headless) memset(&pp.window, 0, sizeof pp.window);
    *out = pp;
    return XGD_OK;
}

/* Windowed devices: the back buffer is the window's drawable size (spec 002: the swap chain
 * follows the window), at least 1x1 (a minimised window may report 0) and at most the
 * profile's and renderer's maximum (the rest of a bigger window is not drawn). */
static xgd_result size_pp_to_window(xgd_device *report, xgdi_window *win, int max_size,
                                    xgd_presentation_parameters *pp)
{
    int w = 0, h = 0;
    xgd_result r = xgdi_window_drawable_size(report, win, &w, &h);
    if (r != XGD_OK) return r;
    pp->back_buffer_width = w < 1 ? 1 : w > max_size ? max_size : w;
    pp->back_buffer_height = h < 1 ? 1 : h > max_size ? max_size : h;
    return XGD_OK;
}

static bool same_window(const xgd_window_handle *a, const xgd_window_handle *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case XGD_WINDOW_SDL2: return a->sdl2_window == b->sdl2_window;
    case XGD_WINDOW_X11: return a->x11_display == b->x11_display && a->x11_window == b->x11_window;
    case XGD_WINDOW_WIN32: return a->hwnd == b->hwnd;
    default: return true;
    }
}

/* Clamps what depends on the renderer's caps; true when something changed. */
static bool clamp_pp_to_caps(const xgdi_caps *caps, xgd_presentation_parameters *pp)
{
    bool changed = false;
    int maxs = caps->max_multisample_count > 1 ? caps->max_multisample_count : 0;
    if (pp->multisample_count > maxs) {
        pp->multisample_count = round_down_pow2(maxs);
        changed = true;
    }
    return changed;
}

/* ---- create / destroy ---------------------------------------------------------------------- */

/* XNA 4.0 renders to no signed format: a NormalizedByte2 or NormalizedByte4 render target
 * falls back to Color (RenderTarget2D's preferred format, as QueryRenderTargetFormat reports
 * it). Alpha8 render targets are a device capability in XNA (no profile guarantees them); the
 * Vulkan renderer cannot have one (it samples Alpha8 through a swizzled view, which cannot be
 * an attachment), so every renderer answers no and a request gets Color everywhere, the same
 * pixels on each. Applied to every renderer's caps, so query_format says what creation does. */
static void xna_render_target_rules(xgdi_caps *caps)
{
    static const xgd_surface_format never[3] = { XGD_SURFACE_FORMAT_NORMALIZED_BYTE2,
                                                 XGD_SURFACE_FORMAT_NORMALIZED_BYTE4,
                                                 XGD_SURFACE_FORMAT_ALPHA8 };
    for (int i = 0; i < 3; i++) {
        xgd_format_support *s = &caps->formats[never[i]];
        s->render_target = s->blendable = s->multisample = false;
    }
}

static xgd_result start_renderer(xgd_device *dev, const xgdi_renderer_ops *ops)
{
    xgdi_renderer_create_info info = { .device = dev, .pp = &dev->pp, .profile = dev->desc.profile,
                                       .debug = dev->desc.debug, .window = dev->window };
    xgdi_renderer *r = NULL;
    xgd_result res = ops->create(&info, &r);
    if (res != XGD_OK || r == NULL) return res != XGD_OK ? res : XGD_ERROR_NO_SUITABLE_DEVICE;
    if (r->ops == NULL) r->ops = ops;
    r->device = dev;
    r->window = dev->window;
    r->draw_state = &dev->draw_state;
    dev->renderer = r;
    xgdi_forget_user_draw(dev);
    dev->ops = ops;
    memset(&dev->caps, 0, sizeof dev->caps);
    ops->get_caps(r, &dev->caps);
    xna_render_target_rules(&dev->caps);
    if (dev->window != NULL && !dev->caps.present_to_window) {
        ops->destroy(r);
        dev->renderer = NULL;
        xgdi_forget_user_draw(dev);
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' cannot present to a window in this version", ops->name);
    }
    snprintf(dev->adapter_name, sizeof dev->adapter_name, "%s",
             dev->caps.adapter_name != NULL ? dev->caps.adapter_name : ops->name);
    return XGD_OK;
}

static void stop_renderer(xgd_device *dev)
{
    if (dev->renderer != NULL) dev->ops->destroy(dev->renderer);
    dev->renderer = NULL;
    xgdi_forget_user_draw(dev);
}

/* Starts ops with the applied pp, restarting once when the caps clamp the request (the back
 * buffer is created already clamped, as renderer.h promises). */
static xgd_result start_with_caps(xgd_device *dev, const xgdi_renderer_ops *ops)
{
    xgd_result res = start_renderer(dev, ops);
    if (res != XGD_OK) return res;
    if (clamp_pp_to_caps(&dev->caps, &dev->pp)) {
        stop_renderer(dev);
        res = start_renderer(dev, ops);
        if (res != XGD_OK) return res;
    }
    if (dev->pp.back_buffer_width > xgdi_max_texture_size(dev) ||
        dev->pp.back_buffer_height > xgdi_max_texture_size(dev)) {
        stop_renderer(dev);
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "back buffer %dx%d exceeds the renderer's maximum %d",
                         dev->pp.back_buffer_width, dev->pp.back_buffer_height,
                         xgdi_max_texture_size(dev));
    }
    if (!dev->caps.depth_formats[dev->pp.depth_stencil_format] &&
        dev->pp.depth_stencil_format != XGD_DEPTH_FORMAT_NONE) {
        stop_renderer(dev);
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "renderer '%s' has no depth format %d",
                         ops->name, (int)dev->pp.depth_stencil_format);
    }
    return XGD_OK;
}

static void free_device(xgd_device *dev)
{
    if (dev->quad_index_buffer != NULL) xgd_index_buffer_destroy(dev->quad_index_buffer->buf.res.handle);
    /* Spare effect bodies own state objects (sampler_state blocks, pass states): they must be
       destroyed while the device still unlinks what is disposed, before `destroying`. */
    xgdi_effect_drop_spares(dev);
    dev->destroying = true;
    dev->quad_hold_count = 0; /* xgd.h: dropped without calls */
    xgdi_forget_user_draw(dev);
    xgdi_handle_epoch_advance();
    xgdi_registry_dispose_all(dev);
    stop_renderer(dev);
    xgdi_window_close(dev->window);
    dev->window = NULL;
    if (dev->token != NULL) {
        dev->token->device = NULL;
        if (--dev->token->refs == 0) free(dev->token);
    }
    free(dev);
}

/* Whether the current creation failure already reached the log callback through the device. */
static _Thread_local bool create_logged;

/* A creation failure: the message moves to the thread's slot (xgd.h ERRORS). */
static xgd_result create_failed(xgd_device *dev, xgd_result code)
{
    if (dev != NULL) {
        create_logged = dev->desc.log != NULL;
        memcpy(tls_error, dev->last_error, sizeof tls_error);
        tls_result = code;
        dev->desc.log = NULL; /* nothing more to report from the teardown */
        dev->desc.on_event = NULL;
        if (dev->window != NULL && dev->window_full_screen_set)
            xgdi_window_set_full_screen(dev, dev->window, false);
        free_device(dev);
    }
    return code;
}

static xgd_result create_device(const xgd_device_desc *desc, xgd_device **out);

xgd_result xgd_device_create(const xgd_device_desc *desc, xgd_device **out)
{
    create_logged = false;
    xgd_result r = create_device(desc, out);
    /* Failures found before the device existed still reach the caller's log callback. */
    if (r != XGD_OK && !create_logged && desc != NULL && desc->log != NULL)
        desc->log(desc->log_user, XGD_LOG_ERROR, r, tls_error);
    return r;
}

static xgd_result create_device(const xgd_device_desc *desc, xgd_device **out)
{
    if (out == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    tls_error[0] = '\0';
    tls_result = XGD_OK;
    static const xgd_device_desc defaults = XGD_DEVICE_DESC_DEFAULT;
    xgd_device_desc d = desc != NULL ? *desc : defaults;

    if ((unsigned)d.profile > XGD_GRAPHICS_PROFILE_HIDEF)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "unknown profile %d", (int)d.profile);
    if (d.profile == XGD_GRAPHICS_PROFILE_DEFAULT) d.profile = XGD_GRAPHICS_PROFILE_HIDEF;
    if ((unsigned)d.renderer >= XGD_RENDERER_COUNT)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "unknown renderer %d", (int)d.renderer);
    if ((unsigned)d.pixel_center > XGD_PIXEL_CENTER_D3D10)
        return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "unknown pixel centre convention %d",
                         (int)d.pixel_center);
    xgd_presentation_parameters pp;
    xgd_result res = apply_pp(NULL, &d.pp, d.profile, &pp);
    if (res != XGD_OK) return res;
    d.pp = pp;

    /* Selection (xgd.h xgd_device_desc.renderer): explicit kind, else $XGD_RENDERER, else the
     * first GPU renderer that starts, else software. */
    xgd_renderer_kind kind = d.renderer;
    if (kind == XGD_RENDERER_AUTO) {
        const char *env = getenv("XGD_RENDERER");
        if (env != NULL && env[0] != '\0') {
            kind = xgd_renderer_from_name(env);
            if (kind == XGD_RENDERER_COUNT)
                return xgdi_fail(NULL, XGD_ERROR_NOT_SUPPORTED,
                                 "XGD_RENDERER='%s' names no renderer (software, vulkan, d3d12)",
                                 env);
        }
    }
    const xgdi_renderer_ops *chosen = NULL;
    if (kind != XGD_RENDERER_AUTO) {
        chosen = xgdi_renderer_find(kind);
        if (chosen == NULL)
            return xgdi_fail(NULL, XGD_ERROR_NOT_SUPPORTED,
                             "renderer '%s' is not compiled into this build",
                             xgdi_renderer_kind_name(kind));
    }

    xgd_device *dev = calloc(1, sizeof *dev);
    xgdi_lifetime *token = calloc(1, sizeof *token);
    if (dev == NULL || token == NULL) {
        free(dev);
        free(token);
        return xgdi_fail(NULL, XGD_ERROR_OUT_OF_MEMORY, "out of memory creating the device");
    }
    token->refs = 1;
    token->device = dev;
    dev->token = token;
    xgdi_forget_user_draw(dev);
    dev->desc = d;
    dev->desc.renderer = kind;
    dev->max_primitive_count = d.profile == XGD_GRAPHICS_PROFILE_REACH ? 65535 : 1048575;
    if (!pp.headless) {
        res = xgdi_window_open(dev, &pp.window, &dev->window);
        /* IsFullScreen false leaves the window as the application made it */
        if (res == XGD_OK && pp.is_full_screen && !xgdi_window_full_screen(dev->window)) {
            res = xgdi_window_set_full_screen(dev, dev->window, true);
            dev->window_full_screen_set = res == XGD_OK;
        }
        if (res == XGD_OK) res = size_pp_to_window(dev, dev->window, profile_max_texture(d.profile), &pp);
        if (res != XGD_OK) return create_failed(dev, res);
    }

    if (chosen != NULL) {
        dev->pp = pp;
        res = start_with_caps(dev, chosen);
    } else {
        res = XGD_ERROR_NO_SUITABLE_DEVICE;
        const xgdi_renderer_ops *const *list = xgdi_renderer_list();
        for (size_t i = 0; list[i] != NULL && res != XGD_OK; i++) {
            if (list[i]->kind == XGD_RENDERER_SOFTWARE && list[i + 1] != NULL) continue;
            dev->pp = pp;
            res = start_with_caps(dev, list[i]);
            chosen = list[i];
        }
        /* Software last, whatever its position in the table. */
        if (res != XGD_OK) {
            const xgdi_renderer_ops *sw = xgdi_renderer_find(XGD_RENDERER_SOFTWARE);
            if (sw != NULL && sw != chosen) {
                dev->pp = pp;
                res = start_with_caps(dev, sw);
                chosen = sw;
            }
        }
    }
    if (res != XGD_OK) {
        if (res != XGD_ERROR_OUT_OF_MEMORY && res != XGD_ERROR_INVALID_ARGUMENT &&
            res != XGD_ERROR_NOT_SUPPORTED) {
            char why[512];
            memcpy(why, xgdi_failure_message(dev), sizeof why);
            xgdi_fail(dev, XGD_ERROR_NO_SUITABLE_DEVICE, "renderer '%s' could not start: %s",
                      chosen != NULL ? chosen->name : "?", why[0] ? why : xgd_result_name(res));
            res = XGD_ERROR_NO_SUITABLE_DEVICE;
        }
        return create_failed(dev, res);
    }
    dev->desc.renderer = dev->ops->kind;
    dev->desc.pp = dev->pp;
    /* Debug faults armed for this device apply from here on (fault.c); then spec 000: packed
     * formats the renderer cannot store become unavailable. */
    xgdi_debug_install_pending(dev);
    /* No event may name a device the caller never receives: a loss reported during the
     * self-test fails the creation instead. */
    xgd_event_fn on_event = dev->desc.on_event;
    dev->desc.on_event = NULL;
    res = xgdi_probe_packed_formats(dev);
    if (res != XGD_OK) return create_failed(dev, res);
    dev->desc.on_event = on_event;

    xgdi_reset_viewport_scissor(dev);
    res = xgdi_create_device_objects(dev);
    if (res != XGD_OK) return create_failed(dev, res);
    dev->ctx_state_initialised = true;
    xgdi_invalidate_draw_state(dev);
    dev->last_error[0] = '\0';
    dev->last_result = XGD_OK;
    *out = dev;
    return XGD_OK;
}

/* Spec 001 disposal order: mark destroying, dispose every registered resource's native part
 * (they become shells), then the renderer, then clear the lifetime token. */
void xgd_device_destroy(xgd_device *device)
{
    if (device == NULL || device->destroying) return;
    free_device(device);
}

/* ---- queries ------------------------------------------------------------------------------- */

static int swap_interval_of(xgd_present_interval pi)
{
    /* Spec 002 "One PresentInterval::Two": Immediate 0, Two 2, Default/One 1. */
    switch (pi) {
    case XGD_PRESENT_INTERVAL_IMMEDIATE: return 0;
    case XGD_PRESENT_INTERVAL_TWO: return 2;
    default: return 1;
    }
}

int xgdi_swap_interval(const xgd_device *dev)
{
    return swap_interval_of(dev->pp.present_interval);
}

xgd_result xgd_device_get_info(xgd_device *device, xgd_device_info *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    memset(out, 0, sizeof *out);
    out->renderer = device->ops->kind;
    out->renderer_name = device->ops->name;
    out->adapter_name = device->adapter_name;
    out->profile = device->desc.profile;
    out->pp = device->pp;
    out->swap_interval = swap_interval_of(device->pp.present_interval);
    xgdi_presentation_geometry g = xgdi_compute_presentation_geometry(&device->pp);
    out->logical_width = g.logical_width;
    out->logical_height = g.logical_height;
    out->presentation_rect = g.rect;
    out->max_texture_size = xgdi_max_texture_size(device);
    out->max_render_targets = xgdi_max_render_targets(device);
    out->max_multisample_count = device->caps.max_multisample_count;
    out->zero_scissor = device->caps.zero_scissor;
    out->lost = device->lost;
    out->render_target_bound = device->render_target_bound;
    out->context_recovery_enabled = device->desc.context_recovery;
    out->last_recovery_failures = device->last_recovery_failures;
    out->window_lost = device->window != NULL && xgdi_window_lost(device->window);
    out->pixel_center = device->desc.pixel_center;
    return XGD_OK;
}

xgd_result xgd_device_get_statistics(xgd_device *device, xgd_statistics *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    xgdi_settle_user_primitives(device);
    *out = device->stats;
    /* the device's own quad index buffer (quads.c) is not one of the caller's resources */
    out->live_resources = device->resource_count - (device->quad_index_buffer != NULL ? 1u : 0u);
    out->descriptors_live = out->descriptors_peak = 0;
    out->descriptor_pool_growths = out->descriptor_recycles = 0;
    /* a lost device has no renderer: the renderer-reported counters read 0 then */
    if (device->renderer != NULL && device->renderer->ops->get_statistics != NULL)
        device->renderer->ops->get_statistics(device->renderer, out);
    /* growths and recycles are counters: they restart at xgd_device_reset_statistics */
    if (out->descriptor_pool_growths >= device->descriptor_growths_base)
        out->descriptor_pool_growths -= device->descriptor_growths_base;
    if (out->descriptor_recycles >= device->descriptor_recycles_base)
        out->descriptor_recycles -= device->descriptor_recycles_base;
    if (out->gpu_waits >= device->gpu_waits_base) out->gpu_waits -= device->gpu_waits_base;
    return XGD_OK;
}

xgd_frame_statistics xgdi_frame_statistics(const xgd_device *device)
{
    const xgd_statistics *s = &device->stats, *b = &device->frame_base;
    return (xgd_frame_statistics){
        .frame = s->frames,
        .draw_calls = s->draw_calls - b->draw_calls,
        .primitives = s->primitives - b->primitives,
        .triangles = s->triangles - b->triangles,
        .clears = s->clears - b->clears,
        .target_changes = s->target_changes - b->target_changes,
        .resolves = s->resolves - b->resolves,
        .mip_generations = s->mip_generations - b->mip_generations,
        .buffers_created = s->buffers_created - b->buffers_created,
        .textures_created = s->textures_created - b->textures_created,
        .sprite_batches = s->sprite_batches - b->sprite_batches,
    };
}

xgd_result xgd_device_get_frame_statistics(xgd_device *device, bool current,
                                           xgd_frame_statistics *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (current) {
        xgdi_settle_user_primitives(device);
        *out = xgdi_frame_statistics(device);
    } else {
        *out = device->last_frame;
    }
    return XGD_OK;
}

xgd_result xgd_device_reset_statistics(xgd_device *device)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    /* Counters only; live_resources and the descriptor gauges are computed when read. The
     * frame index is a counter of Presents and restarts too, like the spec's ResetStatistics. */
    xgdi_settle_user_primitives(device);
    memset(&device->stats, 0, sizeof device->stats);
    memset(&device->frame_base, 0, sizeof device->frame_base);
    device->quad_reservation.id = 0; /* its draw count restarted with them */
    /* The renderer keeps its own cumulative descriptor counters: remember where they stand. */
    xgd_statistics native;
    memset(&native, 0, sizeof native);
    if (device->renderer != NULL && device->renderer->ops->get_statistics != NULL)
        device->renderer->ops->get_statistics(device->renderer, &native);
    device->descriptor_growths_base = native.descriptor_pool_growths;
    device->descriptor_recycles_base = native.descriptor_recycles;
    device->gpu_waits_base = native.gpu_waits;
    return XGD_OK;
}

xgd_result xgd_device_query_format(xgd_device *device, xgd_surface_format format,
                                   xgd_format_support *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if ((unsigned)format >= XGD_SURFACE_FORMAT_COUNT)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown surface format %d", (int)format);
    if (format == XGD_SURFACE_FORMAT_DEFAULT) format = XGD_SURFACE_FORMAT_COLOR;
    memset(out, 0, sizeof *out);
    /* The caps say what the renderer can do; the profile removes HiDef-only formats under Reach
     * (XNA 4.0 profile table). */
    if (xgdi_profile_allows_format(device, format)) *out = device->caps.formats[format];
    /* XNA's Reach profile has no volume textures (xgd_texture3d_create refuses them). */
    if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH) out->volume = false;
    return XGD_OK;
}

/* ---- Reset --------------------------------------------------------------------------------- */

/* A failed Reset changes nothing: the window goes back to the full-screen state it had. The
 * error being reported stays the Reset's (saved around the undo). */
static void undo_full_screen(xgd_device *device, xgdi_window *w, bool on)
{
    char why[sizeof device->last_error];
    xgd_result code = device->last_result;
    memcpy(why, device->last_error, sizeof why);
    xgdi_window_set_full_screen(device, w, on);
    memcpy(device->last_error, why, sizeof why);
    device->last_result = code;
}

xgd_result xgd_device_reset(xgd_device *device, const xgd_presentation_parameters *pp)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    xgd_presentation_parameters applied;
    r = apply_pp(device, pp != NULL ? pp : &device->pp, device->desc.profile, &applied);
    if (r != XGD_OK) return r;
    clamp_pp_to_caps(&device->caps, &applied);
    /* The window: kept, or another one opened (also the same handle again after a loss, which
     * then fails unless the window is back), or left for a headless back buffer. */
    xgdi_window *old_window = device->window, *new_window = NULL, *toggled_window = NULL;
    if (!applied.headless) {
        if (old_window != NULL && !xgdi_window_lost(old_window) &&
            same_window(xgdi_window_handle_of(old_window), &applied.window)) {
            new_window = old_window;
        } else {
            if (!device->caps.present_to_window)
                return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                                 "renderer '%s' cannot present to a window in this version",
                                 device->ops->name);
            r = xgdi_window_open(device, &applied.window, &new_window);
            if (r != XGD_OK) return r;
        }
        /* XNA's IsFullScreen, toggled by Reset: applied when it changes on the same window, or
         * when it is asked of a new one (false leaves a new window as the application made
         * it); sized afterwards, so the back buffer takes the size SDL then reports. */
        bool same = new_window == old_window;
        bool toggle = same ? applied.is_full_screen != device->pp.is_full_screen
                           : applied.is_full_screen && !xgdi_window_full_screen(new_window);
        if (toggle) r = xgdi_window_set_full_screen(device, new_window, applied.is_full_screen);
        if (r == XGD_OK)
            r = size_pp_to_window(device, new_window, xgdi_max_texture_size(device), &applied);
        if (r != XGD_OK) {
            if (toggle && r != XGD_ERROR_NOT_SUPPORTED)
                undo_full_screen(device, new_window, !applied.is_full_screen);
            if (!same) xgdi_window_close(new_window);
            return r;
        }
        if (toggle) toggled_window = new_window;
    }
    r = xgdi_reset_onto_window(device, &applied, new_window);
    if (r != XGD_OK && toggled_window != NULL)
        undo_full_screen(device, toggled_window, !applied.is_full_screen);
    if (r == XGD_OK && old_window != new_window) xgdi_window_close(old_window);
    else if (r != XGD_OK && new_window != old_window) xgdi_window_close(new_window);
    return r;
}

/* Reset's second half, also Present's resize to a new window size: the back buffer recreated
 * for `applied` (validated, window-sized) in `window`, render targets unbound, viewport and
 * scissor reset. On failure nothing changed (the device keeps its window). */
xgd_result xgdi_reset_onto_window(xgd_device *device, const xgd_presentation_parameters *pp,
                                  xgdi_window *window)
{
    xgd_result r;
    xgd_presentation_parameters applied = *pp;
    if (applied.back_buffer_width > xgdi_max_texture_size(device) ||
        applied.back_buffer_height > xgdi_max_texture_size(device))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "back buffer %dx%d exceeds the maximum %d", applied.back_buffer_width,
                         applied.back_buffer_height, xgdi_max_texture_size(device));
    if (applied.depth_stencil_format != XGD_DEPTH_FORMAT_NONE &&
        !device->caps.depth_formats[applied.depth_stencil_format])
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED, "the renderer has no depth format %d",
                         (int)applied.depth_stencil_format);
    /* XNA's GraphicsDevice.Reset raises DeviceResetting once the parameters are accepted and
     * before anything changes, so handlers see the device as it was (and may release what
     * they recreate in DeviceReset); DeviceReset follows only a reset that succeeded. The
     * state below is saved after the handler ran, since it may bind or unbind targets. */
    xgdi_raise_event(device, XGD_EVENT_DEVICE_RESETTING);
    r = xgdi_check_device(device); /* a handler may have lost the device */
    if (r != XGD_OK) return r;
    xgdi_end_quad_holds(device); /* xgd.h: before Reset, whether it succeeds or not */
    /* Spec 001: Reset unbinds render targets through the transaction, so Present's invariant
     * (render_target_bound) stays true to the native state. The renderer is called with the
     * targets unbound (renderer.h), so if it fails the old set is bound again natively (not
     * through the transaction: a DiscardContents target must not be cleared) and the public
     * state restored: a failed Reset changes nothing. */
    xgdi_binding saved_bindings[XGDI_MAX_RENDER_TARGETS];
    memcpy(saved_bindings, device->bindings, sizeof saved_bindings);
    int saved_count = device->binding_count;
    bool saved_bound = device->render_target_bound;
    bool saved_destroyed = device->bound_render_target_destroyed;
    xgd_viewport saved_viewport = device->viewport;
    xgd_rect saved_scissor = device->scissor;
    xgdi_settle_user_primitives(device);
    xgd_statistics saved_stats = device->stats;
    bool unbound = false;
    if (device->binding_count > 0 || device->bound_render_target_destroyed ||
        device->render_target_bound) {
        r = xgd_set_render_targets(device, NULL, 0);
        if (r != XGD_OK) return r;
        unbound = true;
    }
    xgdi_window *old_window = device->window;
    device->renderer->window = window;
    r = device->ops->reset_back_buffer(device->renderer, &applied);
    if (r != XGD_OK) {
        device->renderer->window = old_window;
        if (unbound) {
            memcpy(device->bindings, saved_bindings, sizeof saved_bindings);
            device->binding_count = saved_count;
            device->render_target_bound = saved_bound;
            device->bound_render_target_destroyed = saved_destroyed;
            device->viewport = saved_viewport;
            device->scissor = saved_scissor;
            device->stats = saved_stats;
            char why[512];
            memcpy(why, xgdi_failure_message(device), sizeof why);
            /* A rebind that fails leaves the public state as it was and the native binding
             * stale: the next call that uses it binds the set again (target.c). */
            device->native_targets_stale = xgdi_rebind_render_targets(device) != XGD_OK;
            xgdi_forget_user_draw(device);
            xgdi_invalidate_draw_state(device);
            if (device->native_targets_stale)
                return xgdi_fail(device, r, "%s (binding the render targets natively again "
                                            "failed too and is retried by the next call that "
                                            "uses them)", why);
        }
        return r;
    }
    device->pp = applied;
    device->window = window;
    device->quad_reservation.id = 0; /* xgd.h: Reset ends a reservation on every renderer */
    xgdi_reset_viewport_scissor(device);
    xgdi_invalidate_draw_state(device);
    xgdi_raise_event(device, XGD_EVENT_DEVICE_RESET);
    return XGD_OK;
}

/* ---- simulated context loss and restore (spec 000 "Device recovery") ---------------------- */

static void teardown_renderer(xgd_device *device)
{
    if (device->renderer == NULL) return;
    /* a reservation points into the renderer's memory: never drawable after it is gone */
    device->quad_reservation.id = 0;
    xgdi_end_quad_holds(device);
    xgdi_registry_release_native(device);
    stop_renderer(device);
}

xgd_result xgd_device_simulate_context_loss(xgd_device *device)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (device->lost)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION, "the device is already lost");
    device->lost = true;
    xgdi_forget_user_draw(device);
    /* Every native part goes while the renderer still exists, then the renderer itself. */
    teardown_renderer(device);
    xgdi_raise_event(device, XGD_EVENT_DEVICE_LOST);
    return XGD_OK;
}

xgd_result xgd_device_restore_context(xgd_device *device)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (!device->lost)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION, "the device is not lost");
    xgdi_raise_event(device, XGD_EVENT_DEVICE_RESETTING);
    /* A loss reported by a renderer left it alive (see xgdi_device_lost). */
    teardown_renderer(device);
    /* A restore that fails after the renderer started must not leave the new renderer's
     * untested caps (or its name) as the device's public answers. */
    xgdi_caps saved_caps = device->caps;
    char saved_adapter[sizeof device->adapter_name];
    memcpy(saved_adapter, device->adapter_name, sizeof saved_adapter);
    r = start_renderer(device, device->ops);
    if (r != XGD_OK) {
        if (r != XGD_ERROR_OUT_OF_MEMORY) {
            char why[512];
            memcpy(why, xgdi_failure_message(device), sizeof why);
            r = xgdi_fail(device, XGD_ERROR_NO_SUITABLE_DEVICE,
                          "renderer '%s' could not restart: %s", device->ops->name, why);
        }
        return r;
    }
    /* The new renderer is probed like a new device's before resources come back (spec 000).
     * A probe that could not run fails the restore: the device stays lost, with no renderer,
     * and the restore may be tried again. */
    r = xgdi_probe_packed_formats(device);
    if (r != XGD_OK) {
        stop_renderer(device);
        device->caps = saved_caps;
        memcpy(device->adapter_name, saved_adapter, sizeof saved_adapter);
        return r;
    }
    device->lost = false;
    device->native_targets_stale = false; /* the new renderer starts on its back buffer */
    device->descriptor_growths_base = device->descriptor_recycles_base = device->gpu_waits_base = 0;
    device->last_recovery_failures = xgdi_registry_recreate_native(device);
    if (xgdi_rebind_render_targets(device) != XGD_OK) {
        /* The set could not be bound again: the device is on its back buffer, say so. */
        device->binding_count = 0;
        memset(device->bindings, 0, sizeof device->bindings);
        device->render_target_bound = false;
        device->last_recovery_failures++;
        xgdi_reset_viewport_scissor(device);
    }
    /* Public state (viewport, scissor, bound states) survives the recreation. */
    xgdi_invalidate_draw_state(device);
    xgdi_raise_event(device, XGD_EVENT_DEVICE_RESET);
    return XGD_OK;
}

/* ---- depth bias (spec 002 "Depth bias: floats on Direct3D 9, integers on DXGI") ------------ */

int32_t xgdi_depth_bias_units(float depth_bias, xgd_depth_format format, bool float32_depth)
{
    if (isnan(depth_bias)) return 0;
    double scale;
    if (float32_depth) scale = 8388607.0;
    else if (format == XGD_DEPTH_FORMAT_DEPTH16) scale = 65535.0;
    else if (format == XGD_DEPTH_FORMAT_DEPTH24 || format == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8)
        scale = 16777215.0;
    else return 0;
    double v = (double)depth_bias * scale;
    if (v >= 2147483647.0) return INT32_MAX;
    if (v <= -2147483648.0) return INT32_MIN;
    return (int32_t)v; /* truncation, as the C++ static_cast it mirrors */
}

xgdi_texture_desc xgdi_back_buffer_desc(const xgd_presentation_parameters *pp, int max_samples)
{
    xgdi_texture_desc d;
    memset(&d, 0, sizeof d);
    d.render_target = true;
    d.width = pp->back_buffer_width > 0 ? pp->back_buffer_width : 800;
    d.height = pp->back_buffer_height > 0 ? pp->back_buffer_height : 480;
    d.levels = 1;
    d.format = XGD_SURFACE_FORMAT_COLOR;
    d.depth_format = pp->depth_stencil_format == XGD_DEPTH_FORMAT_DEFAULT
                         ? XGD_DEPTH_FORMAT_DEPTH24
                         : pp->depth_stencil_format;
    d.samples = 1;
    while (d.samples * 2 <= pp->multisample_count && d.samples * 2 <= max_samples) d.samples *= 2;
    d.debug_name = "back buffer";
    return d;
}
