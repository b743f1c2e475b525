/*
 * frame.c - clears, viewport and scissor, presentation geometry, Present and back-buffer
 * readback (spec 002).
 */
#include "internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- presentation geometry (spec 002 "Presentation modes") --------------------------------- */

static int round_int(double v) { return (int)floor(v + 0.5); }

xgdi_presentation_geometry xgdi_compute_presentation_geometry(const xgd_presentation_parameters *pp)
{
    int W = pp->back_buffer_width, H = pp->back_buffer_height;
    int vw = pp->virtual_width, vh = pp->virtual_height;
    xgdi_presentation_geometry g = { W, H, 1.0, 1.0, { 0, 0, W, H } };
    if (W <= 0 || H <= 0) return g;
    switch (pp->presentation_mode) {
    case XGD_PRESENTATION_MODE_FIXED_HEIGHT_DYNAMIC_WIDTH:
        /* Keeps the virtual height and widens the logical width to the back buffer's aspect. */
        if (vh <= 0) break;
        g.logical_height = vh;
        g.logical_width = round_int((double)vh * W / H);
        if (g.logical_width < 1) g.logical_width = 1;
        g.scale_x = (double)W / g.logical_width;
        g.scale_y = (double)H / vh;
        break;
    case XGD_PRESENTATION_MODE_STRETCH:
        /* Fills the back buffer with the virtual size. */
        if (vw <= 0 || vh <= 0) break;
        g.logical_width = vw;
        g.logical_height = vh;
        g.scale_x = (double)W / vw;
        g.scale_y = (double)H / vh;
        break;
    case XGD_PRESENTATION_MODE_LETTERBOX:
    case XGD_PRESENTATION_MODE_OVERSCAN: {
        /* Letterbox: uniform scale by the smaller axis ratio, centred. Overscan: by the larger,
         * centred and cropped (the rectangle then exceeds the back buffer). */
        if (vw <= 0 || vh <= 0) break;
        double rx = (double)W / vw, ry = (double)H / vh;
        double s = pp->presentation_mode == XGD_PRESENTATION_MODE_LETTERBOX ? (rx < ry ? rx : ry)
                                                                            : (rx > ry ? rx : ry);
        int dw = round_int(vw * s), dh = round_int(vh * s);
        g.logical_width = vw;
        g.logical_height = vh;
        g.scale_x = g.scale_y = s;
        g.rect = (xgd_rect){ (W - dw) / 2, (H - dh) / 2, dw, dh };
        if (W - dw < 0 && (W - dw) % 2 != 0) g.rect.x -= 1; /* floor for negative offsets */
        if (H - dh < 0 && (H - dh) % 2 != 0) g.rect.y -= 1;
        break;
    }
    default: /* NativeBackBuffer: logical = physical */
        break;
    }
    return g;
}

static bool geometry_is_identity(const xgdi_presentation_geometry *g, int W, int H)
{
    return g->logical_width == W && g->logical_height == H && g->rect.x == 0 && g->rect.y == 0 &&
           g->rect.width == W && g->rect.height == H;
}

void xgdi_current_target_size(const xgd_device *device, int *width, int *height)
{
    if (device->binding_count > 0 && device->bindings[0].target != NULL) {
        xgdi_texture_size(device->bindings[0].target, width, height);
        return;
    }
    xgdi_presentation_geometry g = xgdi_compute_presentation_geometry(&device->pp);
    *width = g.logical_width;
    *height = g.logical_height;
}

void xgdi_reset_viewport_scissor(xgd_device *dev)
{
    int w, h;
    xgdi_current_target_size(dev, &w, &h);
    dev->viewport = (xgd_viewport){ 0, 0, w, h, 0.0f, 1.0f };
    dev->scissor = (xgd_rect){ 0, 0, w, h };
    dev->draw_state.dirty |= XGDI_DIRTY_VIEWPORT | XGDI_DIRTY_SCISSOR;
}

/* Physical coordinates are kept within +-2^29 so that every later x + width (renderers add
 * them in int) stays far from INT_MAX; only absurd logical rectangles are affected. */
#define PHYSICAL_LIMIT 536870912.0

static int64_t map_coord(int origin, int64_t v, double scale)
{
    double p = (double)origin + floor((double)v * scale + 0.5);
    if (p > PHYSICAL_LIMIT) p = PHYSICAL_LIMIT;
    if (p < -PHYSICAL_LIMIT) p = -PHYSICAL_LIMIT;
    return (int64_t)p;
}

/* In int64 and double: x + w may not fit an int after scaling (set_viewport / set_scissor_rect
 * only promise that the logical x + w fits). */
static xgd_rect map_rect(const xgdi_presentation_geometry *g, int x, int y, int w, int h)
{
    int64_t x0 = map_coord(g->rect.x, x, g->scale_x);
    int64_t x1 = map_coord(g->rect.x, (int64_t)x + w, g->scale_x);
    int64_t y0 = map_coord(g->rect.y, y, g->scale_y);
    int64_t y1 = map_coord(g->rect.y, (int64_t)y + h, g->scale_y);
    return (xgd_rect){ (int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0) };
}

void xgdi_physical_viewport(const xgd_device *dev, xgd_viewport *vp, xgd_rect *scissor)
{
    xgd_viewport v = dev->viewport;
    xgd_rect s = dev->scissor;
    int tw, th;
    if (dev->binding_count > 0 && dev->bindings[0].target != NULL) {
        xgdi_texture_size(dev->bindings[0].target, &tw, &th);
    } else {
        /* Spec 002: the scaling is the viewport transform itself; every public viewport and
         * scissor is mapped through the destination rectangle. */
        tw = dev->pp.back_buffer_width;
        th = dev->pp.back_buffer_height;
        xgdi_presentation_geometry g = xgdi_compute_presentation_geometry(&dev->pp);
        if (!geometry_is_identity(&g, tw, th)) {
            xgd_rect m = map_rect(&g, v.x, v.y, v.width, v.height);
            v.x = m.x;
            v.y = m.y;
            v.width = m.width;
            v.height = m.height;
            s = map_rect(&g, s.x, s.y, s.width, s.height);
        }
    }
    /* Clipped in int64: s.x + s.width may exceed INT_MAX before clipping. */
    int64_t x0 = s.x < 0 ? 0 : s.x, y0 = s.y < 0 ? 0 : s.y;
    int64_t x1 = (int64_t)s.x + s.width > tw ? tw : (int64_t)s.x + s.width;
    int64_t y1 = (int64_t)s.y + s.height > th ? th : (int64_t)s.y + s.height;
    if (x1 < x0) x1 = x0;
    if (y1 < y0) y1 = y0;
    if (x0 > tw) x0 = x1 = tw;
    if (y0 > th) y0 = y1 = th;
    if (vp != NULL) *vp = v;
    if (scissor != NULL) *scissor = (xgd_rect){ (int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0) };
}

/* ---- viewport and scissor ------------------------------------------------------------------ */

xgd_result xgd_set_viewport(xgd_device *device, const xgd_viewport *viewport)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (viewport == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "viewport is NULL");
    if (viewport->width <= 0 || viewport->height <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "viewport size %dx%d must be positive",
                         viewport->width, viewport->height);
    /* Every later x + width is then representable (draws and the renderers add them). */
    if ((int64_t)viewport->x + viewport->width > INT_MAX ||
        (int64_t)viewport->y + viewport->height > INT_MAX)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "viewport (%d, %d) + %dx%d extends past INT_MAX", viewport->x,
                         viewport->y, viewport->width, viewport->height);
    if (!(viewport->min_depth >= 0.0f && viewport->min_depth <= 1.0f) ||
        !(viewport->max_depth >= 0.0f && viewport->max_depth <= 1.0f))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "viewport depth range %g..%g is outside 0..1",
                         (double)viewport->min_depth, (double)viewport->max_depth);
    device->viewport = *viewport;
    device->draw_state.dirty |= XGDI_DIRTY_VIEWPORT;
    return XGD_OK;
}

xgd_result xgd_get_viewport(xgd_device *device, xgd_viewport *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = device->viewport;
    return XGD_OK;
}

xgd_result xgd_set_scissor_rect(xgd_device *device, xgd_rect rect)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (rect.width < 0 || rect.height < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "scissor size %dx%d is negative",
                         rect.width, rect.height);
    if ((int64_t)rect.x + rect.width > INT_MAX || (int64_t)rect.y + rect.height > INT_MAX)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "scissor (%d, %d) + %dx%d extends past INT_MAX", rect.x, rect.y,
                         rect.width, rect.height);
    /* Stored as given (logical); clipping to the target happens when draws map it
     * (xgdi_physical_viewport), so the same rectangle works after a target change. */
    device->scissor = rect;
    device->draw_state.dirty |= XGDI_DIRTY_SCISSOR;
    return XGD_OK;
}

xgd_result xgd_get_scissor_rect(xgd_device *device, xgd_rect *out)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = device->scissor;
    return XGD_OK;
}

/* ---- clears (spec 002 "Clears: native bits, one public contract") --------------------------- */

static xgd_depth_format bound_depth_format(const xgd_device *dev)
{
    /* Depth and stencil availability comes from the bound attachment itself: the first target
     * owns depth in an MRT set; otherwise the back buffer's format. */
    if (dev->binding_count > 0 && dev->bindings[0].target != NULL)
        return dev->bindings[0].target->depth_format;
    return dev->pp.depth_stencil_format;
}

xgd_result xgd_clear(xgd_device *device, unsigned options, xgd_vector4 color, float depth,
                     int stencil)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if ((options & ~7u) != 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown clear options 0x%x", options);
    if ((options & XGD_CLEAR_DEPTH_BUFFER) && !(depth >= 0.0f && depth <= 1.0f))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "clear depth %g is outside 0..1",
                         (double)depth);
    xgd_depth_format df = bound_depth_format(device);
    /* XNA 4.0 throws InvalidOperationException before the renderer sees a depth or stencil
     * clear that the bound attachment cannot take. */
    if ((options & XGD_CLEAR_DEPTH_BUFFER) && df == XGD_DEPTH_FORMAT_NONE)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "depth clear requested but the bound target has no depth buffer");
    if ((options & XGD_CLEAR_STENCIL) && df != XGD_DEPTH_FORMAT_DEPTH24_STENCIL8)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "stencil clear requested but the bound target has no stencil buffer");
    if (options == 0) return XGD_OK;
    r = xgdi_sync_native_targets(device);
    if (r != XGD_OK) return r;
    float c[4] = { color.x, color.y, color.z, color.w };
    r = device->ops->clear(device->renderer, options, c, depth, stencil & 0xff);
    if (r != XGD_OK) return r;
    device->stats.clears++;
    return XGD_OK;
}

xgd_result xgd_clear_color(xgd_device *device, xgd_color color)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    xgd_depth_format df = bound_depth_format(device);
    unsigned opts = XGD_CLEAR_TARGET;
    if (df != XGD_DEPTH_FORMAT_NONE) opts |= XGD_CLEAR_DEPTH_BUFFER;
    if (df == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8) opts |= XGD_CLEAR_STENCIL;
    xgd_vector4 c = { color.r / 255.0f, color.g / 255.0f, color.b / 255.0f, color.a / 255.0f };
    return xgd_clear(device, opts, c, 1.0f, 0);
}

/* ---- present ----------------------------------------------------------------------------- */

/* After a windowed frame was shown: a window whose drawable size changed gets a back buffer of
 * the new size for the next frame, with viewport and scissor reset to the new logical canvas
 * (a viewport is re-pushed after a present only when the window size changed, spec 002; a
 * custom one survives every other present). */
static xgd_result follow_window_size(xgd_device *device)
{
    int w = 0, h = 0;
    xgd_result r = xgdi_window_drawable_size(device, device->window, &w, &h);
    if (r != XGD_OK) return r;
    int max = xgdi_max_texture_size(device);
    w = w < 1 ? 1 : w > max ? max : w;
    h = h < 1 ? 1 : h > max ? max : h;
    if (w == device->pp.back_buffer_width && h == device->pp.back_buffer_height) return XGD_OK;
    xgd_presentation_parameters pp = device->pp;
    pp.back_buffer_width = w;
    pp.back_buffer_height = h;
    return xgdi_reset_onto_window(device, &pp, device->window);
}

xgd_result xgd_present(xgd_device *device)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    /* Spec 001: Present refuses while a render target is bound (also after a bound target was
     * destroyed, until SetRenderTargets is called again). */
    if (device->render_target_bound)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "a render target is bound; call xgd_set_render_target(dev, NULL) first");
    r = xgdi_sync_native_targets(device);
    if (r != XGD_OK) return r;
    r = device->ops->present(device->renderer, xgdi_swap_interval(device));
    if (r != XGD_OK) return r;
    /* Spec 003: statistics are per frame, reset at the start of each one. */
    xgdi_settle_user_primitives(device);
    device->last_frame = xgdi_frame_statistics(device);
    device->stats.frames++;
    device->frame_base = device->stats;
    if (device->window != NULL) return follow_window_size(device);
    return XGD_OK;
}

/* ---- back-buffer readback (spec 002 "Back-buffer readback follows the same geometry") ------- */

xgd_result xgd_get_back_buffer_data(xgd_device *device, const xgd_rect *rect, void *data,
                                    size_t size)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    xgdi_presentation_geometry g = xgdi_compute_presentation_geometry(&device->pp);
    xgd_rect rc = rect != NULL ? *rect : (xgd_rect){ 0, 0, g.logical_width, g.logical_height };
    if (rc.x < 0 || rc.y < 0 || rc.width <= 0 || rc.height <= 0 ||
        rc.x > g.logical_width - rc.width || rc.y > g.logical_height - rc.height)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "rect (%d,%d %dx%d) is not inside the logical back buffer %dx%d", rc.x,
                         rc.y, rc.width, rc.height, g.logical_width, g.logical_height);
    if (data == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    if (size != (size_t)rc.width * (size_t)rc.height * 4)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "size %zu must be %zu", size,
                         (size_t)rc.width * (size_t)rc.height * 4);
    /* NotSupported by name rather than a zero-filled "successful" frame. */
    if (!device->caps.back_buffer_readback || device->ops->read_back_buffer == NULL)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' has no back-buffer readback", device->ops->name);
    int W = device->pp.back_buffer_width, H = device->pp.back_buffer_height;
    if (geometry_is_identity(&g, W, H))
        return device->ops->read_back_buffer(device->renderer, &rc, data);

    /* Each logical pixel samples the physical back buffer at its centre:
     * presentX + floor((x + 0.5) * scaleX); samples outside the resource read zero. Read the
     * physical span the samples cover once, then pick. */
    int px0 = W, px1 = -1, py0 = H, py1 = -1;
    for (int x = rc.x; x < rc.x + rc.width; x++) {
        int px = g.rect.x + (int)floor((x + 0.5) * g.scale_x);
        if (px >= 0 && px < W) {
            if (px < px0) px0 = px;
            if (px > px1) px1 = px;
        }
    }
    for (int y = rc.y; y < rc.y + rc.height; y++) {
        int py = g.rect.y + (int)floor((y + 0.5) * g.scale_y);
        if (py >= 0 && py < H) {
            if (py < py0) py0 = py;
            if (py > py1) py1 = py;
        }
    }
    if (px1 < px0 || py1 < py0) {
        memset(data, 0, size);
        return XGD_OK;
    }
    xgd_rect phys = { px0, py0, px1 - px0 + 1, py1 - py0 + 1 };
    uint8_t *buf = malloc((size_t)phys.width * (size_t)phys.height * 4);
    if (buf == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    r = device->ops->read_back_buffer(device->renderer, &phys, buf);
    if (r == XGD_OK) {
        uint8_t *dst = data;
        memset(data, 0, size);
        for (int y = 0; y < rc.height; y++) {
            int py = g.rect.y + (int)floor((rc.y + y + 0.5) * g.scale_y);
            if (py < 0 || py >= H) continue;
            for (int x = 0; x < rc.width; x++) {
                int px = g.rect.x + (int)floor((rc.x + x + 0.5) * g.scale_x);
                if (px < 0 || px >= W) continue;
                memcpy(dst + ((size_t)y * (size_t)rc.width + (size_t)x) * 4,
                       buf + ((size_t)(py - phys.y) * (size_t)phys.width + (size_t)(px - phys.x)) * 4,
                       4);
            }
        }
    }
    free(buf);
    return r;
}

/* ---- window coordinates (spec 002: the input side of the presentation geometry) ------------ */

xgd_result xgd_window_to_logical(xgd_device *device, int window_x, int window_y, xgd_vector2 *out,
                                 bool *inside)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    double fx = 1.0, fy = 1.0;
    if (device->window != NULL) xgdi_window_pixel_ratio(device->window, &fx, &fy);
    /* The window pixel's centre in back-buffer pixels, then the inverse of the viewport
     * transform that draws the whole logical canvas into the presentation rectangle (its
     * rounded size, which is what the draws' viewport spans). */
    xgdi_presentation_geometry g = xgdi_compute_presentation_geometry(&device->pp);
    double px = ((double)window_x + 0.5) * fx, py = ((double)window_y + 0.5) * fy;
    double sx = (double)g.rect.width / g.logical_width, sy = (double)g.rect.height / g.logical_height;
    double lx = (px - g.rect.x) / sx, ly = (py - g.rect.y) / sy;
    out->x = (float)lx;
    out->y = (float)ly;
    if (inside != NULL)
        *inside = lx >= 0.0 && ly >= 0.0 && lx < g.logical_width && ly < g.logical_height;
    return XGD_OK;
}
