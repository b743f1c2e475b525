/*
 * window.c - SDL2, X11 and Win32 windows for windowed devices (window.h). SDL2 and X11 are
 * compiled only where their library was found (XGD_HAVE_SDL2, XGD_HAVE_X11), Win32 only in
 * Windows builds (user32 and gdi32); a kind that is not compiled in answers NOT_SUPPORTED by
 * name.
 */
#include "window.h"

#include "renderer.h" /* xgdi_fail */

#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_SDL2
#include <SDL.h>
#include <SDL_syswm.h>
#include <SDL_vulkan.h>
#endif
#ifdef XGD_HAVE_X11
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <pthread.h>
#endif
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#endif

struct xgdi_window {
    xgd_window_handle h;
    bool lost;
#ifdef XGD_HAVE_SDL2
    uint32_t sdl_id;       /* looked up again before every use: the pointer may dangle */
#endif
#ifdef XGD_HAVE_X11
    GC gc;
    Visual *visual;
    int depth;
    XImage *image;         /* the last frame's conversion buffer, reused while the size holds */
    Display *trap_display; /* between xgdi_window_trap_begin and _end */
#endif
#ifdef _WIN32
    uint8_t *bgrx;         /* the last frame's GDI conversion buffer */
    size_t bgrx_size;
#endif
};

static const char *kind_name(xgd_window_kind k)
{
    switch (k) {
    case XGD_WINDOW_SDL2: return "SDL2";
    case XGD_WINDOW_X11: return "X11";
    case XGD_WINDOW_WIN32: return "Win32";
    default: return "none";
    }
}

static xgd_result gone(xgd_device *report, xgdi_window *w, const char *what)
{
    w->lost = true;
    return xgdi_fail(report, XGD_ERROR_DEVICE_LOST,
                     "%s: the %s window is gone; reset the device onto another window", what,
                     kind_name(w->h.kind));
}

/* ---- X11: requests on a window the application may destroy at any time --------------------
 * Xlib reports a protocol error (BadWindow for a destroyed window) to the process-wide error
 * handler, whose default exits the process. Each group of xgd's requests is therefore fenced
 * by XSync with a handler of its own that only records the error, and the application's
 * handler is put back afterwards. The swap is serialised by a lock; another thread's Xlib
 * errors arriving in that window are recorded instead of reaching the application. */
#ifdef XGD_HAVE_X11
static pthread_mutex_t x11_trap_lock = PTHREAD_MUTEX_INITIALIZER;
static int x11_trapped;
static int (*x11_saved_handler)(Display *, XErrorEvent *);

/* Only BadWindow and BadDrawable say the window is gone. Any other error inside the trap (the
 * handler is process-wide, so it may be another thread's, or a driver's probe such as Mesa's
 * window-system code asking for a request the server lacks) is swallowed, as the default
 * handler would have printed it, and does not count as window loss. */
static int x11_record_error(Display *dpy, XErrorEvent *e)
{
    (void)dpy;
    if (x11_trapped == 0 && (e->error_code == BadWindow || e->error_code == BadDrawable))
        x11_trapped = e->error_code;
    return 0;
}

static void x11_trap_begin(Display *dpy)
{
    pthread_mutex_lock(&x11_trap_lock);
    XSync(dpy, False); /* the application's earlier errors go to its own handler */
    x11_trapped = 0;
    x11_saved_handler = XSetErrorHandler(x11_record_error);
}

/* The first BadWindow or BadDrawable of the group (0 if none). */
static int x11_trap_end(Display *dpy)
{
    XSync(dpy, False);
    XSetErrorHandler(x11_saved_handler);
    int e = x11_trapped;
    pthread_mutex_unlock(&x11_trap_lock);
    return e;
}

static const char *x11_error_name(int code)
{
    switch (code) {
    case BadWindow: return "BadWindow";
    case BadDrawable: return "BadDrawable";
    case BadMatch: return "BadMatch";
    case BadAlloc: return "BadAlloc";
    case BadValue: return "BadValue";
    default: return "X protocol error";
    }
}

static xgd_result x11_open(xgd_device *report, xgdi_window *w)
{
    Display *dpy = w->h.x11_display;
    if (dpy == NULL || w->h.x11_window == 0)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "X11 window: x11_display and x11_window must both be set");
    XWindowAttributes a;
    memset(&a, 0, sizeof a);
    x11_trap_begin(dpy);
    Status ok = XGetWindowAttributes(dpy, (Window)w->h.x11_window, &a);
    GC gc = NULL;
    if (ok) gc = XCreateGC(dpy, (Window)w->h.x11_window, 0, NULL);
    int err = x11_trap_end(dpy);
    if (!ok || err != 0) {
        if (gc != NULL) XFreeGC(dpy, gc);
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "X11 window 0x%lx: XGetWindowAttributes failed (%s)", w->h.x11_window,
                         err != 0 ? x11_error_name(err) : "no such window");
    }
    if (a.class != InputOutput || a.visual == NULL ||
        (a.visual->class != TrueColor && a.visual->class != DirectColor)) {
        XFreeGC(dpy, gc);
        return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                         "X11 window 0x%lx: only InputOutput windows of a TrueColor or "
                         "DirectColor visual can be presented to", w->h.x11_window);
    }
    w->gc = gc;
    w->visual = a.visual;
    w->depth = a.depth;
    return XGD_OK;
}

static void x11_close(xgdi_window *w)
{
    Display *dpy = w->h.x11_display;
    if (w->image != NULL) XDestroyImage(w->image); /* frees its malloc'd data too */
    w->image = NULL;
    /* A GC is the client's resource, alive after its window went; freeing it needs no trap
     * but is fenced anyway, as the display may report the window's death here. */
    if (w->gc != NULL) {
        x11_trap_begin(dpy);
        XFreeGC(dpy, w->gc);
        x11_trap_end(dpy);
    }
    w->gc = NULL;
}

static xgd_result x11_size(xgd_device *report, xgdi_window *w, int *width, int *height)
{
    Display *dpy = w->h.x11_display;
    Window root;
    int x, y;
    unsigned int ww = 0, hh = 0, border, depth;
    x11_trap_begin(dpy);
    Status ok = XGetGeometry(dpy, (Window)w->h.x11_window, &root, &x, &y, &ww, &hh, &border,
                             &depth);
    int err = x11_trap_end(dpy);
    if (!ok || err != 0) return gone(report, w, "XGetGeometry");
    *width = (int)ww;
    *height = (int)hh;
    return XGD_OK;
}

static int mask_shift(unsigned long mask)
{
    int s = 0;
    if (mask == 0) return 0;
    while (!(mask & 1)) {
        mask >>= 1;
        s++;
    }
    return s;
}

static int mask_bits(unsigned long mask)
{
    int n = 0;
    for (; mask != 0; mask >>= 1) n += (int)(mask & 1);
    return n;
}

/* An 8-bit channel placed into a visual's mask (its top bits when the mask is narrower). */
static unsigned long place(uint8_t v, unsigned long mask, int shift, int bits)
{
    unsigned long c = bits >= 8 ? (unsigned long)v << (bits - 8) : (unsigned long)v >> (8 - bits);
    return (c << shift) & mask;
}

static xgd_result x11_put(xgd_device *report, xgdi_window *w, const uint8_t *rgba, int width,
                          int height, size_t pitch)
{
    Display *dpy = w->h.x11_display;
    if (w->image == NULL || w->image->width != width || w->image->height != height) {
        if (w->image != NULL) XDestroyImage(w->image);
        w->image = XCreateImage(dpy, w->visual, (unsigned)w->depth, ZPixmap, 0, NULL,
                                (unsigned)width, (unsigned)height, 32, 0);
        if (w->image == NULL)
            return xgdi_fail(report, XGD_ERROR_OUT_OF_MEMORY,
                             "X11: XCreateImage %dx%d failed", width, height);
        w->image->data = malloc((size_t)w->image->bytes_per_line * (size_t)height);
        if (w->image->data == NULL) {
            XDestroyImage(w->image);
            w->image = NULL;
            return xgdi_fail(report, XGD_ERROR_OUT_OF_MEMORY,
                             "X11: out of memory for a %dx%d image", width, height);
        }
    }
    XImage *img = w->image;
    unsigned long rm = w->visual->red_mask, gm = w->visual->green_mask, bm = w->visual->blue_mask;
    int rs = mask_shift(rm), gs = mask_shift(gm), bs = mask_shift(bm);
    int rb = mask_bits(rm), gb = mask_bits(gm), bb = mask_bits(bm);
    const uint16_t probe = 1;
    bool host_lsb = *(const uint8_t *)&probe == 1;
    bool direct = img->bits_per_pixel == 32 && (img->byte_order == LSBFirst) == host_lsb;
    for (int y = 0; y < height; y++) {
        const uint8_t *src = rgba + (size_t)y * pitch;
        uint32_t *row32 = (uint32_t *)(void *)(img->data + (size_t)y * (size_t)img->bytes_per_line);
        for (int x = 0; x < width; x++, src += 4) {
            unsigned long p = place(src[0], rm, rs, rb) | place(src[1], gm, gs, gb) |
                              place(src[2], bm, bs, bb);
            if (direct) row32[x] = (uint32_t)p;
            else XPutPixel(img, x, y, p);
        }
    }
    x11_trap_begin(dpy);
    XPutImage(dpy, (Window)w->h.x11_window, w->gc, img, 0, 0, 0, 0, (unsigned)width,
              (unsigned)height);
    int err = x11_trap_end(dpy);
    if (err == BadWindow || err == BadDrawable) return gone(report, w, "XPutImage");
    if (err != 0)
        return xgdi_fail(report, XGD_ERROR_DEVICE_LOST, "X11: XPutImage failed (%s)",
                         x11_error_name(err));
    return XGD_OK;
}
#endif /* XGD_HAVE_X11 */

/* ---- SDL2 ------------------------------------------------------------------------------------ */
#ifdef XGD_HAVE_SDL2
/* The application may destroy its SDL_Window at any time; the pointer is then dangling, so it
 * is only used after SDL, looking the remembered id up, still returns that same window. */
static SDL_Window *sdl_window(xgdi_window *w)
{
    if (w->lost) return NULL;
    if (SDL_WasInit(SDL_INIT_VIDEO) == 0) return NULL;
    SDL_Window *win = SDL_GetWindowFromID(w->sdl_id);
    return win != NULL && win == (SDL_Window *)w->h.sdl2_window ? win : NULL;
}

static xgd_result sdl_open(xgd_device *report, xgdi_window *w)
{
    if (w->h.sdl2_window == NULL)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "SDL2 window: sdl2_window is NULL");
    if (SDL_WasInit(SDL_INIT_VIDEO) == 0)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "SDL2 window: SDL's video subsystem is not initialised");
    w->sdl_id = SDL_GetWindowID((SDL_Window *)w->h.sdl2_window);
    if (w->sdl_id == 0 || SDL_GetWindowFromID(w->sdl_id) != w->h.sdl2_window)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "SDL2 window: not a window SDL knows (%s)", SDL_GetError());
    return XGD_OK;
}

static xgd_result sdl_size(xgd_device *report, xgdi_window *w, int *width, int *height,
                           bool pixels)
{
    SDL_Window *win = sdl_window(w);
    if (win == NULL) return gone(report, w, "SDL_GetWindowFromID");
#if SDL_VERSION_ATLEAST(2, 26, 0)
    if (pixels) SDL_GetWindowSizeInPixels(win, width, height);
    else SDL_GetWindowSize(win, width, height);
#else
    (void)pixels;
    SDL_GetWindowSize(win, width, height);
#endif
    return XGD_OK;
}

static xgd_result sdl_put(xgd_device *report, xgdi_window *w, const uint8_t *rgba, int width,
                          int height, size_t pitch)
{
    SDL_Window *win = sdl_window(w);
    if (win == NULL) return gone(report, w, "SDL_GetWindowFromID");
    SDL_Surface *dst = SDL_GetWindowSurface(win);
    if (dst == NULL)
        return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED, "SDL_GetWindowSurface: %s",
                         SDL_GetError());
    SDL_Surface *src = SDL_CreateRGBSurfaceWithFormatFrom((void *)(uintptr_t)rgba, width, height,
                                                          32, (int)pitch, SDL_PIXELFORMAT_RGBA32);
    if (src == NULL)
        return xgdi_fail(report, XGD_ERROR_OUT_OF_MEMORY, "SDL_CreateRGBSurfaceWithFormatFrom: %s",
                         SDL_GetError());
    /* a copy, not a blend: the window shows the back buffer's colour whatever its alpha */
    SDL_SetSurfaceBlendMode(src, SDL_BLENDMODE_NONE);
    SDL_Rect at = { 0, 0, width, height };
    int rc = SDL_BlitSurface(src, NULL, dst, &at);
    SDL_FreeSurface(src);
    if (rc == 0) rc = SDL_UpdateWindowSurface(win);
    if (rc != 0)
        return xgdi_fail(report, XGD_ERROR_DEVICE_LOST, "SDL window surface: %s", SDL_GetError());
    return XGD_OK;
}
#endif /* XGD_HAVE_SDL2 */

/* ---- Win32: a window the application owns, and may destroy at any time -----------------------
 * IsWindow before every use: a destroyed window's HWND answers false (GDI calls on it fail
 * rather than crash, but would not say why). */
#ifdef _WIN32
static xgd_result win32_open(xgd_device *report, xgdi_window *w)
{
    if (w->h.hwnd == NULL)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "Win32 window: hwnd is NULL");
    if (!IsWindow((HWND)w->h.hwnd))
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "Win32 window %p: not a window (IsWindow is false)", w->h.hwnd);
    return XGD_OK;
}

static void win32_close(xgdi_window *w)
{
    free(w->bgrx);
    w->bgrx = NULL;
    w->bgrx_size = 0;
}

/* The client area, in pixels; mouse messages report client coordinates in the same units. */
static xgd_result win32_size(xgd_device *report, xgdi_window *w, int *width, int *height)
{
    RECT rc;
    if (!IsWindow((HWND)w->h.hwnd) || !GetClientRect((HWND)w->h.hwnd, &rc))
        return gone(report, w, "GetClientRect");
    *width = (int)(rc.right - rc.left);
    *height = (int)(rc.bottom - rc.top);
    return XGD_OK;
}

/* GDI: a top-down 32-bit DIB is BGRX, so the RGBA rows are swizzled into a buffer first. */
static xgd_result win32_put(xgd_device *report, xgdi_window *w, const uint8_t *rgba, int width,
                            int height, size_t pitch)
{
    HWND hwnd = (HWND)w->h.hwnd;
    if (!IsWindow(hwnd)) return gone(report, w, "IsWindow");
    size_t need = (size_t)width * (size_t)height * 4;
    if (need > w->bgrx_size) {
        uint8_t *b = realloc(w->bgrx, need);
        if (b == NULL)
            return xgdi_fail(report, XGD_ERROR_OUT_OF_MEMORY,
                             "Win32: out of memory for a %dx%d frame", width, height);
        w->bgrx = b;
        w->bgrx_size = need;
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *src = rgba + (size_t)y * pitch;
        uint8_t *dst = w->bgrx + (size_t)y * (size_t)width * 4;
        for (int x = 0; x < width; x++, src += 4, dst += 4) {
            dst[0] = src[2];
            dst[1] = src[1];
            dst[2] = src[0];
            dst[3] = 0;
        }
    }
    BITMAPINFO bi;
    memset(&bi, 0, sizeof bi);
    bi.bmiHeader.biSize = sizeof bi.bmiHeader;
    bi.bmiHeader.biWidth = width;
    bi.bmiHeader.biHeight = -height; /* negative: rows top-down */
    bi.bmiHeader.biPlanes = 1;
    bi.bmiHeader.biBitCount = 32;
    bi.bmiHeader.biCompression = BI_RGB;
    HDC dc = GetDC(hwnd);
    if (dc == NULL) return IsWindow(hwnd) ? xgdi_fail(report, XGD_ERROR_DEVICE_LOST,
                                                       "Win32: GetDC failed (error %lu)",
                                                       (unsigned long)GetLastError())
                                          : gone(report, w, "GetDC");
    int lines = SetDIBitsToDevice(dc, 0, 0, (DWORD)width, (DWORD)height, 0, 0, 0, (UINT)height,
                                  w->bgrx, &bi, DIB_RGB_COLORS);
    ReleaseDC(hwnd, dc);
    if (lines == 0) {
        if (!IsWindow(hwnd)) return gone(report, w, "SetDIBitsToDevice");
        return xgdi_fail(report, XGD_ERROR_DEVICE_LOST, "Win32: SetDIBitsToDevice failed");
    }
    return XGD_OK;
}
#endif /* _WIN32 */

/* ---- the interface --------------------------------------------------------------------------- */

xgd_result xgdi_window_open(xgd_device *report, const xgd_window_handle *h, xgdi_window **out)
{
    *out = NULL;
    bool compiled = false;
#ifdef XGD_HAVE_SDL2
    if (h->kind == XGD_WINDOW_SDL2) compiled = true;
#endif
#ifdef XGD_HAVE_X11
    if (h->kind == XGD_WINDOW_X11) compiled = true;
#endif
#ifdef _WIN32
    if (h->kind == XGD_WINDOW_WIN32) compiled = true;
#endif
    if ((unsigned)h->kind > XGD_WINDOW_WIN32)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT, "unknown window kind %d",
                         (int)h->kind);
    if (h->kind == XGD_WINDOW_NONE)
        return xgdi_fail(report, XGD_ERROR_INVALID_ARGUMENT,
                         "a windowed device needs pp.window (or set pp.headless)");
    if (!compiled)
        return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                         "%s windows are not compiled into this build", kind_name(h->kind));
    xgdi_window *w = calloc(1, sizeof *w);
    if (w == NULL) return xgdi_fail(report, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    w->h = *h;
    xgd_result r = XGD_ERROR_NOT_SUPPORTED;
#ifdef XGD_HAVE_SDL2
    if (h->kind == XGD_WINDOW_SDL2) r = sdl_open(report, w);
#endif
#ifdef XGD_HAVE_X11
    if (h->kind == XGD_WINDOW_X11) r = x11_open(report, w);
#endif
#ifdef _WIN32
    if (h->kind == XGD_WINDOW_WIN32) r = win32_open(report, w);
#endif
    if (r != XGD_OK) {
        free(w);
        return r;
    }
    *out = w;
    return XGD_OK;
}

void xgdi_window_close(xgdi_window *w)
{
    if (w == NULL) return;
#ifdef XGD_HAVE_X11
    if (w->h.kind == XGD_WINDOW_X11) x11_close(w);
#endif
#ifdef _WIN32
    if (w->h.kind == XGD_WINDOW_WIN32) win32_close(w);
#endif
    free(w);
}

const xgd_window_handle *xgdi_window_handle_of(const xgdi_window *w)
{
    return &w->h;
}

bool xgdi_window_lost(const xgdi_window *w)
{
    return w->lost;
}

static xgd_result any_size(xgd_device *report, xgdi_window *w, int *width, int *height,
                           bool pixels)
{
    if (w->lost) return gone(report, w, "window size");
#ifdef XGD_HAVE_SDL2
    if (w->h.kind == XGD_WINDOW_SDL2) return sdl_size(report, w, width, height, pixels);
#endif
#ifdef XGD_HAVE_X11
    if (w->h.kind == XGD_WINDOW_X11) return x11_size(report, w, width, height);
#endif
#ifdef _WIN32
    if (w->h.kind == XGD_WINDOW_WIN32) return win32_size(report, w, width, height);
#endif
    (void)pixels;
    (void)width;
    (void)height;
    return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED, "%s windows are not compiled in",
                     kind_name(w->h.kind));
}

xgd_result xgdi_window_drawable_size(xgd_device *report, xgdi_window *w, int *width, int *height)
{
    return any_size(report, w, width, height, true);
}

xgd_result xgdi_window_size(xgd_device *report, xgdi_window *w, int *width, int *height)
{
    return any_size(report, w, width, height, false);
}

void xgdi_window_pixel_ratio(xgdi_window *w, double *x, double *y)
{
    *x = *y = 1.0;
#ifdef XGD_HAVE_SDL2
    SDL_Window *win = w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    if (win != NULL) {
        int ww = 0, wh = 0, pw = 0, ph = 0;
        SDL_GetWindowSize(win, &ww, &wh);
#if SDL_VERSION_ATLEAST(2, 26, 0)
        SDL_GetWindowSizeInPixels(win, &pw, &ph);
#else
        pw = ww;
        ph = wh;
#endif
        if (ww > 0 && wh > 0 && pw > 0 && ph > 0) {
            *x = (double)pw / ww;
            *y = (double)ph / wh;
        }
    }
#else
    (void)w;
#endif
}

xgd_result xgdi_window_set_full_screen(xgd_device *report, xgdi_window *w, bool on)
{
    if (w->lost) return gone(report, w, "full screen");
#ifdef XGD_HAVE_SDL2
    if (w->h.kind == XGD_WINDOW_SDL2) {
        SDL_Window *win = sdl_window(w);
        if (win == NULL) return gone(report, w, "SDL_GetWindowFromID");
        Uint32 want = on ? (Uint32)SDL_WINDOW_FULLSCREEN_DESKTOP : 0;
        if ((SDL_GetWindowFlags(win) & SDL_WINDOW_FULLSCREEN_DESKTOP) == want) return XGD_OK;
        if (SDL_SetWindowFullscreen(win, want) != 0) {
            /* SDL leaves the window as it was when the request fails */
            return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                             "SDL_SetWindowFullscreen(%s): %s",
                             on ? "SDL_WINDOW_FULLSCREEN_DESKTOP" : "0", SDL_GetError());
        }
        return XGD_OK;
    }
#endif
    if (!on) return XGD_OK;
    /* EWMH full screen (_NET_WM_STATE_FULLSCREEN) is a request to the window manager about a
     * window xgd does not own; without a window manager (Xvfb) nothing would honour it. A
     * Win32 window's owner restyles it (DXGI exclusive full screen is never used, spec 002). */
    return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                     "%s windows cannot be made full screen by xgd: the application asks its "
                     "window manager (_NET_WM_STATE_FULLSCREEN on X11) or restyles its window "
                     "(Win32), or uses an SDL2 window",
                     kind_name(w->h.kind));
}

bool xgdi_window_full_screen(xgdi_window *w)
{
#ifdef XGD_HAVE_SDL2
    SDL_Window *win = w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    if (win != NULL)
        return (SDL_GetWindowFlags(win) & SDL_WINDOW_FULLSCREEN_DESKTOP) ==
               SDL_WINDOW_FULLSCREEN_DESKTOP;
#else
    (void)w;
#endif
    return false;
}

xgd_result xgdi_window_put_rgba(xgd_device *report, xgdi_window *w, const uint8_t *rgba,
                                int width, int height, size_t pitch)
{
    if (w->lost) return gone(report, w, "present");
#ifdef XGD_HAVE_SDL2
    if (w->h.kind == XGD_WINDOW_SDL2) return sdl_put(report, w, rgba, width, height, pitch);
#endif
#ifdef XGD_HAVE_X11
    if (w->h.kind == XGD_WINDOW_X11) return x11_put(report, w, rgba, width, height, pitch);
#endif
#ifdef _WIN32
    if (w->h.kind == XGD_WINDOW_WIN32) return win32_put(report, w, rgba, width, height, pitch);
#endif
    (void)rgba;
    (void)width;
    (void)height;
    (void)pitch;
    return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED, "%s windows are not compiled in",
                     kind_name(w->h.kind));
}

bool xgdi_window_x11_handles(xgdi_window *w, void **display, unsigned long *window)
{
    if (w == NULL || w->lost) return false;
#ifdef XGD_HAVE_X11
    if (w->h.kind == XGD_WINDOW_X11) {
        *display = w->h.x11_display;
        *window = w->h.x11_window;
        return true;
    }
#endif
#if defined(XGD_HAVE_SDL2) && defined(SDL_VIDEO_DRIVER_X11)
    SDL_Window *win = w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    if (win != NULL) {
        SDL_SysWMinfo info;
        SDL_VERSION(&info.version);
        if (SDL_GetWindowWMInfo(win, &info) && info.subsystem == SDL_SYSWM_X11) {
            *display = info.info.x11.display;
            *window = info.info.x11.window;
            return true;
        }
    }
#endif
    (void)display;
    (void)window;
    return false;
}

bool xgdi_window_win32_handle(xgdi_window *w, void **hwnd)
{
    if (w == NULL || w->lost) return false;
#ifdef _WIN32
    if (w->h.kind == XGD_WINDOW_WIN32) {
        if (!IsWindow((HWND)w->h.hwnd)) return false;
        *hwnd = w->h.hwnd;
        return true;
    }
#endif
#if defined(XGD_HAVE_SDL2) && defined(SDL_VIDEO_DRIVER_WINDOWS)
    SDL_Window *win = w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    if (win != NULL) {
        SDL_SysWMinfo info;
        SDL_VERSION(&info.version);
        if (SDL_GetWindowWMInfo(win, &info) && info.subsystem == SDL_SYSWM_WINDOWS) {
            *hwnd = info.info.win.window;
            return true;
        }
    }
#endif
    (void)hwnd;
    return false;
}

bool xgdi_window_sdl_vulkan(xgdi_window *w)
{
#ifdef XGD_HAVE_SDL2
    SDL_Window *win = w != NULL && w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    return win != NULL && (SDL_GetWindowFlags(win) & SDL_WINDOW_VULKAN) != 0;
#else
    (void)w;
    return false;
#endif
}

xgd_result xgdi_window_sdl_vulkan_surface(xgd_device *report, xgdi_window *w, void *instance,
                                          const char *const *enabled, uint32_t enabled_count,
                                          void *surface)
{
#ifdef XGD_HAVE_SDL2
    SDL_Window *win = w->h.kind == XGD_WINDOW_SDL2 ? sdl_window(w) : NULL;
    if (win == NULL) return gone(report, w, "SDL_GetWindowFromID");
    const char *driver = SDL_GetCurrentVideoDriver();
    if (driver == NULL) driver = "?";
    const char *need[16];
    unsigned n = 16;
    if (!SDL_Vulkan_GetInstanceExtensions(win, &n, need))
        return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                         "SDL_Vulkan_GetInstanceExtensions (SDL video driver '%s'): %s", driver,
                         SDL_GetError());
    for (unsigned i = 0; i < n; i++) {
        bool have = false;
        for (uint32_t j = 0; j < enabled_count && !have; j++) have = strcmp(need[i], enabled[j]) == 0;
        if (!have)
            return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                             "SDL's '%s' video driver needs the Vulkan instance extension %s, "
                             "which the Vulkan loader does not offer", driver, need[i]);
    }
    VkSurfaceKHR made;
    if (!SDL_Vulkan_CreateSurface(win, (VkInstance)instance, &made))
        return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED,
                         "SDL_Vulkan_CreateSurface (SDL video driver '%s'): %s", driver,
                         SDL_GetError());
    memcpy(surface, &made, sizeof made);
    return XGD_OK;
#else
    (void)instance;
    (void)enabled;
    (void)enabled_count;
    (void)surface;
    return xgdi_fail(report, XGD_ERROR_NOT_SUPPORTED, "%s windows have no SDL Vulkan surface",
                     kind_name(w->h.kind));
#endif
}

void xgdi_window_trap_begin(xgdi_window *w)
{
#ifdef XGD_HAVE_X11
    void *dpy;
    unsigned long win;
    if (xgdi_window_x11_handles(w, &dpy, &win)) {
        x11_trap_begin(dpy);
        w->trap_display = dpy;
    }
#else
    (void)w;
#endif
}

int xgdi_window_trap_end(xgdi_window *w)
{
#ifdef XGD_HAVE_X11
    if (w->trap_display != NULL) {
        int e = x11_trap_end(w->trap_display);
        w->trap_display = NULL;
        return e;
    }
#else
    (void)w;
#endif
    return 0;
}
