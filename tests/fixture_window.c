/*
 * fixture_window.c - windowed devices, proven by what the X server shows (spec 002).
 *
 * Every Window_ fixture presents to a real window (an X11 window, or an SDL2 one) and then
 * reads the window's pixels back from the X server with XGetImage, never through xgd's own
 * readback, and compares them with the frame the rules give:
 *   - the back buffer is the window's size; the presentation mode maps the logical canvas into
 *     it as the draws' viewport transform (letterbox bars, stretch, overscan crop, fixed height
 *     with dynamic width), the bars showing the clear colour;
 *   - geometry is drawn on every frame, not only the first (the flip-model rebinding rule), and
 *     a custom viewport survives Present;
 *   - a window resized between frames gets a back buffer of its new size, by Reset or by the
 *     next Present, and viewport and scissor then cover the new canvas;
 *   - xgd_window_to_logical names the logical pixel a window pixel shows;
 *   - a destroyed window makes Present fail by name, and Reset onto a new window recovers.
 * The expected geometry is computed here from the rule's wording, not with xgd's code.
 * Without an X display (DISPLAY unset) the fixtures are NOT SUPPORTED (77); with
 * XGD_TEST_REQUIRE_DISPLAY=1 (CI runs this group under xvfb-run) that is a failure instead.
 * Run one at a time on a shared X server (ctest -j1): the X server keeps no pixels of a window
 * another one covers.
 */
#include "fixture_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_X11
#include <X11/Xlib.h>
#include <X11/Xatom.h>
#include <X11/Xutil.h>
#endif
#ifdef XGD_TEST_HAVE_SDL2
#include <SDL.h>
#include <SDL_syswm.h>
#endif

#ifdef XGD_TEST_HAVE_X11 /* the helpers serve the X11 fixtures only */

/* ---- the rule: logical canvas and presentation rectangle (spec 002) ------------------------ */

typedef struct wt_geometry {
    int lw, lh;               /* logical canvas */
    double rx, ry, rw, rh;    /* the canvas's rectangle in the back buffer (physical pixels) */
} wt_geometry;

static wt_geometry wt_rule(xgd_presentation_mode mode, int W, int H, int vw, int vh)
{
    wt_geometry g = { W, H, 0, 0, W, H };
    switch (mode) {
    case XGD_PRESENTATION_MODE_FIXED_HEIGHT_DYNAMIC_WIDTH:
        /* keeps the virtual height, widens the logical width to the window's aspect */
        g.lh = vh;
        g.lw = (int)floor((double)vh * W / H + 0.5);
        break;
    case XGD_PRESENTATION_MODE_STRETCH: /* fills the drawable with the virtual size */
        g.lw = vw;
        g.lh = vh;
        break;
    case XGD_PRESENTATION_MODE_LETTERBOX: /* uniform scale by the smaller ratio, centred */
    case XGD_PRESENTATION_MODE_OVERSCAN: { /* by the larger, centred and cropped */
        double sx = (double)W / vw, sy = (double)H / vh;
        double s = mode == XGD_PRESENTATION_MODE_LETTERBOX ? fmin(sx, sy) : fmax(sx, sy);
        g.lw = vw;
        g.lh = vh;
        g.rw = floor(vw * s + 0.5);
        g.rh = floor(vh * s + 0.5);
        g.rx = floor((W - g.rw) / 2);
        g.ry = floor((H - g.rh) / 2);
        break;
    }
    default: /* NativeBackBuffer: logical = physical */
        break;
    }
    return g;
}

/* A frame: a clear colour over the whole back buffer, then rectangles in logical coordinates of
 * a viewport (later ones on top). */
typedef struct wt_rect { double x0, y0, x1, y1; xgd_color c; } wt_rect;
typedef struct wt_frame {
    xgd_color clear;
    xgd_viewport vp;          /* logical; width 0 = the whole canvas */
    wt_rect rects[4];
    int count;
} wt_frame;

/* The expected window image (W x H) and a mask of pixels whose centre lies within one physical
 * pixel of an edge (either rasterization of such an edge is right). */
static void wt_expected(const wt_frame *f, const wt_geometry *g, int W, int H, uint8_t *rgba,
                        uint8_t *care)
{
    double sx = g->rw / g->lw, sy = g->rh / g->lh;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double lx = (x + 0.5 - g->rx) / sx, ly = (y + 0.5 - g->ry) / sy;
            xgd_color c = f->clear;
            bool sure = true;
            bool in_canvas = lx >= 0 && ly >= 0 && lx < g->lw && ly < g->lh;
            /* one physical pixel around the canvas edges */
            if (fabs(lx * sx) < 1 || fabs((lx - g->lw) * sx) < 1 || fabs(ly * sy) < 1 ||
                fabs((ly - g->lh) * sy) < 1)
                sure = false;
            if (in_canvas) {
                for (int i = 0; i < f->count; i++) {
                    const wt_rect *r = &f->rects[i];
                    double x0 = f->vp.x + r->x0, x1 = f->vp.x + r->x1;
                    double y0 = f->vp.y + r->y0, y1 = f->vp.y + r->y1;
                    if (lx >= x0 && lx < x1 && ly >= y0 && ly < y1) c = r->c;
                    if ((fabs((lx - x0) * sx) < 1 || fabs((lx - x1) * sx) < 1) && ly > y0 - 1 / sy &&
                        ly < y1 + 1 / sy)
                        sure = false;
                    if ((fabs((ly - y0) * sy) < 1 || fabs((ly - y1) * sy) < 1) && lx > x0 - 1 / sx &&
                        lx < x1 + 1 / sx)
                        sure = false;
                }
            }
            uint8_t *p = rgba + ((size_t)y * W + x) * 4;
            p[0] = c.r;
            p[1] = c.g;
            p[2] = c.b;
            p[3] = 255;
            care[(size_t)y * W + x] = sure;
        }
    }
}

/* Draws a frame through the public API and presents it. */
static xgd_result wt_draw(xgdt_ctx *t, xgd_device *dev, xgd_effect *fx, const wt_frame *f)
{
    xgd_result r = xgd_clear_color(dev, f->clear);
    if (r != XGD_OK) return r;
    xgd_viewport vp;
    r = xgd_get_viewport(dev, &vp);
    if (r != XGD_OK) return r;
    if (f->vp.width > 0) {
        CHECK_MSG(vp.x == f->vp.x && vp.y == f->vp.y && vp.width == f->vp.width &&
                      vp.height == f->vp.height,
                  "viewport (%d,%d %dx%d) before the draws, expected (%d,%d %dx%d)", vp.x, vp.y,
                  vp.width, vp.height, f->vp.x, f->vp.y, f->vp.width, f->vp.height);
    }
    r = xgd_effect_apply(fx);
    for (int i = 0; i < f->count && r == XGD_OK; i++)
        r = fx_rect(dev, vp.width, vp.height, (float)f->rects[i].x0, (float)f->rects[i].y0,
                    (float)f->rects[i].x1, (float)f->rects[i].y1, 0.0f, f->rects[i].c);
    if (r != XGD_OK) return r;
    return xgd_present(dev);
}

static bool wt_display_ok(xgdt_ctx *t)
{
    const char *d = getenv("DISPLAY");
    if (d != NULL && d[0] != '\0') return true;
    const char *req = getenv("XGD_TEST_REQUIRE_DISPLAY");
    if (req != NULL && strcmp(req, "1") == 0)
        xgdt_fail_at(t, __FILE__, __LINE__, "XGD_TEST_REQUIRE_DISPLAY=1 but DISPLAY is unset");
    else
        xgdt_not_supported(t, "no X display (DISPLAY is unset); CI runs the windowed group "
                              "under xvfb-run");
    return false;
}

static Display *wt_open(xgdt_ctx *t)
{
    if (!wt_display_ok(t)) return NULL;
    Display *dpy = XOpenDisplay(NULL);
    if (dpy == NULL) xgdt_fail_at(t, __FILE__, __LINE__, "XOpenDisplay(%s) failed", getenv("DISPLAY"));
    return dpy;
}

static Bool wt_is_map(Display *dpy, XEvent *e, XPointer arg)
{
    (void)dpy;
    return e->type == MapNotify && e->xmap.window == *(Window *)(void *)arg;
}

/* A mapped top-level window at (0, 0) whose background is magenta, so a frame xgd never showed
 * cannot pass for one it did. */
static Window wt_window(Display *dpy, int w, int h)
{
    XSetWindowAttributes a;
    memset(&a, 0, sizeof a);
    a.background_pixel = 0xff00ffUL;
    a.event_mask = StructureNotifyMask;
    Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, (unsigned)w, (unsigned)h, 0,
                               CopyFromParent, InputOutput, CopyFromParent,
                               CWBackPixel | CWEventMask, &a);
    XMapRaised(dpy, win);
    XEvent e;
    XIfEvent(dpy, &e, wt_is_map, (XPointer)&win);
    XSync(dpy, False);
    return win;
}

static int wt_mask_shift(unsigned long m)
{
    int s = 0;
    while (m != 0 && !(m & 1)) {
        m >>= 1;
        s++;
    }
    return s;
}

/* The window's pixels as the X server holds them, as RGBA8 (alpha 255). */
static uint8_t *wt_grab(xgdt_ctx *t, Display *dpy, Window win, int w, int h)
{
    XSync(dpy, False);
    XImage *img = XGetImage(dpy, win, 0, 0, (unsigned)w, (unsigned)h, AllPlanes, ZPixmap);
    if (img == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "XGetImage of window 0x%lx failed", win);
        return NULL;
    }
    uint8_t *rgba = malloc((size_t)w * h * 4);
    int rs = wt_mask_shift(img->red_mask), gs = wt_mask_shift(img->green_mask),
        bs = wt_mask_shift(img->blue_mask);
    unsigned long rm = img->red_mask >> rs, gm = img->green_mask >> gs, bm = img->blue_mask >> bs;
    for (int y = 0; rgba != NULL && y < h; y++)
        for (int x = 0; x < w; x++) {
            unsigned long p = XGetPixel(img, x, y);
            uint8_t *o = rgba + ((size_t)y * w + x) * 4;
            o[0] = (uint8_t)(((p >> rs) & rm) * 255 / (rm ? rm : 1));
            o[1] = (uint8_t)(((p >> gs) & gm) * 255 / (gm ? gm : 1));
            o[2] = (uint8_t)(((p >> bs) & bm) * 255 / (bm ? bm : 1));
            o[3] = 255;
        }
    XDestroyImage(img);
    return rgba;
}

/* Grabs the window and compares it with the frame's expected image (edge pixels excluded). */
static bool wt_check(xgdt_ctx *t, const char *label, Display *dpy, Window win, int W, int H,
                     const wt_frame *f, const wt_geometry *g)
{
    uint8_t *got = wt_grab(t, dpy, win, W, H);
    uint8_t *want = malloc((size_t)W * H * 4), *care = malloc((size_t)W * H);
    bool ok = false;
    if (got != NULL && want != NULL && care != NULL) {
        wt_expected(f, g, W, H, want, care);
        for (size_t i = 0; i < (size_t)W * H; i++)
            if (!care[i]) memcpy(got + i * 4, want + i * 4, 4);
        ok = xgdt_compare_rgba(t, label, got, want, W, H, 2);
    }
    free(got);
    free(want);
    free(care);
    return ok;
}

static char wt_reason[600];

/* A windowed device on the fixture's renderer for an X11 window; NOT SUPPORTED (named) when
 * the renderer cannot present to a window in this version. */
static xgd_device *wt_device(xgdt_ctx *t, Display *dpy, Window win, xgd_presentation_mode mode,
                             int vw, int vh)
{
    xgd_device_desc d;
    d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    /* presentation is under test, and the expected frames lay geometry out for .5 centres */
    d.pixel_center = XGD_PIXEL_CENTER_D3D10;
    d.renderer = t->renderer;
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    d.pp.presentation_mode = mode;
    d.pp.virtual_width = vw;
    d.pp.virtual_height = vh;
    d.pp.window.kind = XGD_WINDOW_X11;
    d.pp.window.x11_display = dpy;
    d.pp.window.x11_window = win;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        snprintf(wt_reason, sizeof wt_reason, "%s", xgd_device_last_error(NULL));
        xgdt_not_supported(t, wt_reason);
        return NULL;
    }
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_device_create (X11 window): %s: %s",
                     xgd_result_name(r), xgd_device_last_error(NULL));
    return dev;
}

static const xgd_color WT_RED = { 230, 30, 20, 255 }, WT_GREEN = { 20, 220, 40, 255 },
                       WT_BLUE = { 30, 40, 230, 255 }, WT_YELLOW = { 240, 220, 10, 255 },
                       WT_GREY = { 60, 60, 70, 255 }, WT_BLACK = { 0, 0, 0, 255 };

/* Several consecutive frames with geometry inside a custom viewport: every frame shows its own
 * clear colour and its own rectangles (flip-model presentation must not lose the target
 * binding after the first Present), and the viewport survives each Present. */
static void wt_Window_ConsecutiveFramesDrawGeometry(xgdt_ctx *t)
{
    enum { W = 96, H = 72 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_DEFAULT, 0, 0);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, W);
        CHECK_INT(info.pp.back_buffer_height, H);
        CHECK(!info.pp.headless);
        CHECK(!info.window_lost);
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
        xgd_viewport vp = { 8, 6, 64, 48, 0.0f, 1.0f };
        CHECK_OK(xgd_set_viewport(dev, &vp));
        const xgd_color clears[4] = { WT_GREY, WT_BLACK, { 90, 20, 60, 255 }, { 10, 70, 80, 255 } };
        const xgd_color fills[4] = { WT_RED, WT_GREEN, WT_BLUE, WT_YELLOW };
        for (int i = 0; i < 4; i++) {
            wt_frame f = { clears[i], vp, { { 4.0 * i, 4, 4.0 * i + 20, 30, fills[i] },
                                            { 40, 30.0 - 2 * i, 60, 44, fills[(i + 1) % 4] } }, 2 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            char label[32];
            snprintf(label, sizeof label, "frame%d", i);
            CHECK_MSG(wt_check(t, label, dpy, win, W, H, &f, &g), "frame %d differs", i);
        }
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

/* The five presentation modes with a window whose size and aspect differ from the virtual
 * resolution: quadrants of the logical canvas land where the rule puts them, the bars show the
 * clear colour. Reset switches the mode on the same window. */
static void wt_Window_PresentationModes(xgdt_ctx *t)
{
    enum { W = 120, H = 72, VW = 64, VH = 48 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, VW, VH);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    static const struct { xgd_presentation_mode mode; const char *name; } modes[] = {
        { XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, "native" },
        { XGD_PRESENTATION_MODE_FIXED_HEIGHT_DYNAMIC_WIDTH, "fixed_height" },
        { XGD_PRESENTATION_MODE_STRETCH, "stretch" },
        { XGD_PRESENTATION_MODE_LETTERBOX, "letterbox" },
        { XGD_PRESENTATION_MODE_OVERSCAN, "overscan" },
    };
    for (size_t m = 0; dev != NULL && fx != NULL && m < sizeof modes / sizeof modes[0]; m++) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        xgd_presentation_parameters pp = info.pp;
        pp.presentation_mode = modes[m].mode;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK_OK(xgd_device_get_info(dev, &info));
        wt_geometry g = wt_rule(modes[m].mode, W, H, VW, VH);
        CHECK_MSG(info.logical_width == g.lw && info.logical_height == g.lh,
                  "%s: logical %dx%d, expected %dx%d", modes[m].name, info.logical_width,
                  info.logical_height, g.lw, g.lh);
        double hx = g.lw / 2.0, hy = g.lh / 2.0;
        wt_frame f = { WT_BLACK, { 0, 0, 0, 0, 0, 1 },
                       { { 0, 0, hx, hy, WT_RED }, { hx, 0, g.lw, hy, WT_GREEN },
                         { 0, hy, hx, g.lh, WT_BLUE }, { hx, hy, g.lw, g.lh, WT_YELLOW } }, 4 };
        /* two frames: the second must look the same */
        for (int k = 0; k < 2; k++) {
            CHECK_OK(wt_draw(t, dev, fx, &f));
            char label[48];
            snprintf(label, sizeof label, "%s%d", modes[m].name, k);
            CHECK_MSG(wt_check(t, label, dpy, win, W, H, &f, &g), "%s frame %d differs",
                      modes[m].name, k);
        }
        /* readback of the windowed device is in logical space: the quadrant colours */
        uint8_t px[4];
        int qx = g.lw * 3 / 4, qy = g.lh * 3 / 4; /* inside the back buffer in every mode */
        CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ qx, qy, 1, 1 }, px, 4));
        CHECK_MSG(px[0] == WT_YELLOW.r && px[1] == WT_YELLOW.g && px[2] == WT_YELLOW.b,
                  "%s: readback of logical (%d,%d) = %d,%d,%d, expected yellow", modes[m].name,
                  qx, qy, px[0], px[1], px[2]);
    }
    if (fx != NULL) xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

static void wt_resize(Display *dpy, Window win, int w, int h)
{
    XResizeWindow(dpy, win, (unsigned)w, (unsigned)h);
    XSync(dpy, False);
}

/* A window resized between frames: the next Present (after showing the old-size frame) or a
 * Reset gives the back buffer the new size; viewport and scissor then cover the new canvas,
 * and the frames after it fill the resized window by the letterbox rule. */
static void wt_Window_ResizeBetweenFrames(xgdt_ctx *t)
{
    enum { VW = 64, VH = 48 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, 96, 64);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_LETTERBOX, VW, VH);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        wt_frame f = { WT_GREY, { 0, 0, 0, 0, 0, 1 },
                       { { 0, 0, 32, 24, WT_RED }, { 32, 24, 64, 48, WT_BLUE },
                         { 10, 30, 20, 44, WT_GREEN } }, 3 };
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, 96, 64, VW, VH);
        CHECK_OK(wt_draw(t, dev, fx, &f));
        CHECK(wt_check(t, "before", dpy, win, 96, 64, &f, &g));

        /* resized by the application, no Reset: the next Present notices */
        wt_resize(dpy, win, 128, 64);
        xgd_viewport custom = { 4, 4, 20, 20, 0.0f, 1.0f };
        CHECK_OK(xgd_set_viewport(dev, &custom));
        CHECK_OK(xgd_clear_color(dev, WT_BLACK));
        CHECK_OK(xgd_present(dev));
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, 128);
        CHECK_INT(info.pp.back_buffer_height, 64);
        xgd_viewport vp;
        CHECK_OK(xgd_get_viewport(dev, &vp));
        CHECK_MSG(vp.x == 0 && vp.y == 0 && vp.width == VW && vp.height == VH,
                  "viewport after the resize (%d,%d %dx%d), expected the canvas %dx%d", vp.x,
                  vp.y, vp.width, vp.height, VW, VH);
        xgd_rect sc;
        CHECK_OK(xgd_get_scissor_rect(dev, &sc));
        CHECK(sc.x == 0 && sc.y == 0 && sc.width == VW && sc.height == VH);
        g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, 128, 64, VW, VH);
        for (int k = 0; k < 2; k++) {
            CHECK_OK(wt_draw(t, dev, fx, &f));
            CHECK_MSG(wt_check(t, k == 0 ? "wide0" : "wide1", dpy, win, 128, 64, &f, &g),
                      "frame %d after the resize differs", k);
        }

        /* resized, then Reset(NULL) as a game's window-size handler does: at once */
        wt_resize(dpy, win, 80, 100);
        CHECK_OK(xgd_device_reset(dev, NULL));
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, 80);
        CHECK_INT(info.pp.back_buffer_height, 100);
        g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, 80, 100, VW, VH);
        CHECK_OK(wt_draw(t, dev, fx, &f));
        CHECK(wt_check(t, "tall", dpy, win, 80, 100, &f, &g));
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

/* Each present interval presents every frame and is forwarded as spec 002 says (One 1, Two 2,
 * Immediate 0); how a renderer paces them is in the README (a stored Two is no evidence of
 * half-rate pacing, so this fixture claims none). */
static void wt_Window_PresentIntervals(xgdt_ctx *t)
{
    enum { W = 64, H = 48 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_DEFAULT, 0, 0);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    static const struct { xgd_present_interval pi; int swap; } cases[] = {
        { XGD_PRESENT_INTERVAL_ONE, 1 },
        { XGD_PRESENT_INTERVAL_TWO, 2 },
        { XGD_PRESENT_INTERVAL_IMMEDIATE, 0 },
        { XGD_PRESENT_INTERVAL_DEFAULT, 1 },
    };
    wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
    for (size_t i = 0; dev != NULL && fx != NULL && i < sizeof cases / sizeof cases[0]; i++) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        xgd_presentation_parameters pp = info.pp;
        pp.present_interval = cases[i].pi;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.swap_interval, cases[i].swap);
        for (int k = 0; k < 3; k++) {
            xgd_color c = { (uint8_t)(40 * i + 20 * k), 100, (uint8_t)(200 - 30 * k), 255 };
            wt_frame f = { c, { 0, 0, 0, 0, 0, 1 }, { { 8.0 + 10 * k, 8, 30.0 + 10 * k, 40, WT_RED } }, 1 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            char label[32];
            snprintf(label, sizeof label, "interval%d_%d", cases[i].swap, k);
            CHECK_MSG(wt_check(t, label, dpy, win, W, H, &f, &g), "interval %d frame %d differs",
                      cases[i].swap, k);
        }
    }
    if (fx != NULL) xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

/* A click lands on the logical pixel it shows: a one-logical-pixel marker drawn through a 3x
 * letterbox is exactly where xgd_window_to_logical says, and the bars map outside the canvas. */
static void wt_Window_MouseToLogical(xgdt_ctx *t)
{
    enum { W = 300, H = 200, VW = 100, VH = 50, MX = 37, MY = 21 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_LETTERBOX, VW, VH);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        wt_frame f = { WT_BLACK, { 0, 0, 0, 0, 0, 1 },
                       { { 0, 0, VW, VH, WT_GREY }, { MX, MY, MX + 1, MY + 1, WT_GREEN } }, 2 };
        CHECK_OK(wt_draw(t, dev, fx, &f));
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, W, H, VW, VH);
        CHECK(wt_check(t, "marker", dpy, win, W, H, &f, &g));
        uint8_t *got = wt_grab(t, dpy, win, W, H);
        int marker = 0, bad = 0;
        for (int y = 0; got != NULL && y < H; y++)
            for (int x = 0; x < W; x++) {
                xgd_vector2 l;
                bool inside = true;
                if (xgd_window_to_logical(dev, x, y, &l, &inside) != XGD_OK) {
                    bad++;
                    continue;
                }
                const uint8_t *p = got + ((size_t)y * W + x) * 4;
                bool green = p[0] == WT_GREEN.r && p[1] == WT_GREEN.g && p[2] == WT_GREEN.b;
                bool black = p[0] == 0 && p[1] == 0 && p[2] == 0;
                int lx = (int)floor(l.x), ly = (int)floor(l.y);
                bool on_marker = inside && lx == MX && ly == MY;
                marker += green;
                if (green != on_marker || black == inside) {
                    if (bad++ < 4)
                        xgdt_fail_at(t, __FILE__, __LINE__,
                                     "window (%d,%d) shows %d,%d,%d but maps to logical (%.2f,"
                                     "%.2f) %s", x, y, p[0], p[1], p[2], (double)l.x,
                                     (double)l.y, inside ? "inside" : "outside");
                }
            }
        CHECK_INT(bad, 0);
        CHECK_INT(marker, 9); /* 3x3 window pixels per logical pixel */
        free(got);
        /* NULL out is refused by name */
        CHECK_RESULT(xgd_window_to_logical(dev, 0, 0, NULL, NULL), XGD_ERROR_INVALID_ARGUMENT);
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

/* The window destroyed under the device: Present fails as DEVICE_LOST with a message naming
 * the window (never a crash, a hang or Xlib's fatal handler), again on the next try; drawing
 * into the back buffer still works; Reset onto a new window recovers and shows frames there. */
static void wt_Window_LostAndResetOntoNewWindow(xgdt_ctx *t)
{
    enum { W = 64, H = 48 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_DEFAULT, 0, 0);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
        wt_frame f = { WT_GREY, { 0, 0, 0, 0, 0, 1 }, { { 10, 10, 40, 30, WT_BLUE } }, 1 };
        CHECK_OK(wt_draw(t, dev, fx, &f));
        CHECK(wt_check(t, "before", dpy, win, W, H, &f, &g));
        XDestroyWindow(dpy, win);
        XSync(dpy, False);
        CHECK_OK(xgd_clear_color(dev, WT_RED));
        CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
        CHECK(strstr(xgd_device_last_error(dev), "gone") != NULL);
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(info.window_lost);
        CHECK_OK(xgd_clear_color(dev, WT_GREEN));
        CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
        /* Reset onto the same, destroyed window fails by name and changes nothing */
        CHECK(xgd_device_reset(dev, NULL) != XGD_OK);
        /* a new window of another size */
        Window win2 = wt_window(dpy, 80, 60);
        xgd_presentation_parameters pp = info.pp;
        pp.window.x11_window = win2;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(!info.window_lost);
        CHECK_INT(info.pp.back_buffer_width, 80);
        CHECK_INT(info.pp.back_buffer_height, 60);
        g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, 80, 60, 0, 0);
        for (int k = 0; k < 2; k++) {
            f.rects[0].x0 += 5;
            CHECK_OK(wt_draw(t, dev, fx, &f));
            CHECK(wt_check(t, k == 0 ? "after0" : "after1", dpy, win2, 80, 60, &f, &g));
        }
        /* and back to headless */
        pp.headless = true;
        memset(&pp.window, 0, sizeof pp.window);
        pp.back_buffer_width = 32;
        pp.back_buffer_height = 16;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK_OK(xgd_present(dev));
        xgd_effect_destroy(fx);
        xgd_device_destroy(dev);
        XDestroyWindow(dpy, win2);
    } else {
        xgd_device_destroy(dev);
        XDestroyWindow(dpy, win);
    }
    XCloseDisplay(dpy);
}

#ifdef XGD_TEST_HAVE_SDL2
static xgd_device *wt_sdl_device(xgdt_ctx *t, SDL_Window *w)
{
    xgd_device_desc d;
    d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    /* presentation is under test, and the expected frames lay geometry out for .5 centres */
    d.pixel_center = XGD_PIXEL_CENTER_D3D10;
    d.renderer = t->renderer;
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    d.pp.window.kind = XGD_WINDOW_SDL2;
    d.pp.window.sdl2_window = w;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        snprintf(wt_reason, sizeof wt_reason, "%s", xgd_device_last_error(NULL));
        xgdt_not_supported(t, wt_reason);
        return NULL;
    }
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_device_create (SDL2 window): %s: %s",
                     xgd_result_name(r), xgd_device_last_error(NULL));
    return dev;
}

static Window wt_sdl_xid(SDL_Window *w)
{
    SDL_SysWMinfo info;
    SDL_VERSION(&info.version);
    if (!SDL_GetWindowWMInfo(w, &info) || info.subsystem != SDL_SYSWM_X11) return 0;
    return info.info.x11.window;
}

static void wt_sdl_pump(void)
{
    SDL_Event e;
    while (SDL_PollEvent(&e)) {
    }
}

/* An SDL2 window (the application owns SDL and its event loop): consecutive frames with
 * geometry, read back from the X server; SDL_DestroyWindow under the device gives DEVICE_LOST
 * by name; Reset onto a new SDL window recovers. */
static void wt_Window_SDL2Frames(xgdt_ctx *t)
{
    enum { W = 80, H = 60 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "SDL_Init: %s", SDL_GetError());
        XCloseDisplay(dpy);
        return;
    }
    SDL_Window *w = SDL_CreateWindow("xgd test", 0, 0, W, H, SDL_WINDOW_SHOWN);
    REQUIRE(w != NULL);
    wt_sdl_pump();
    Window xid = wt_sdl_xid(w);
    CHECK(xid != 0);
    xgd_device *dev = xid != 0 ? wt_sdl_device(t, w) : NULL;
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, W);
        CHECK_INT(info.pp.back_buffer_height, H);
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
        for (int k = 0; k < 3; k++) {
            wt_frame f = { k % 2 ? WT_BLACK : WT_GREY, { 0, 0, 0, 0, 0, 1 },
                           { { 5.0 + 8 * k, 6, 40.0 + 8 * k, 30, WT_RED },
                             { 20, 35, 70, 55, WT_BLUE } }, 2 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            wt_sdl_pump();
            char label[32];
            snprintf(label, sizeof label, "sdl%d", k);
            /* SDL may recreate the X window when it first makes the window's surface */
            CHECK_MSG(wt_check(t, label, dpy, wt_sdl_xid(w), W, H, &f, &g), "SDL frame %d differs", k);
        }
        SDL_DestroyWindow(w);
        w = NULL;
        CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
        CHECK(strstr(xgd_device_last_error(dev), "gone") != NULL);
        SDL_Window *w2 = SDL_CreateWindow("xgd test 2", 0, 0, 64, 40, SDL_WINDOW_SHOWN);
        REQUIRE(w2 != NULL);
        wt_sdl_pump();
        xgd_presentation_parameters pp = info.pp;
        pp.window.sdl2_window = w2;
        CHECK_OK(xgd_device_reset(dev, &pp));
        g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, 64, 40, 0, 0);
        wt_frame f = { WT_GREY, { 0, 0, 0, 0, 0, 1 }, { { 8, 8, 30, 30, WT_GREEN } }, 1 };
        CHECK_OK(wt_draw(t, dev, fx, &f));
        wt_sdl_pump();
        CHECK(wt_check(t, "sdl_after", dpy, wt_sdl_xid(w2), 64, 40, &f, &g));
        xgd_effect_destroy(fx);
        xgd_device_destroy(dev);
        SDL_DestroyWindow(w2);
    } else {
        xgd_device_destroy(dev);
    }
    if (w != NULL) SDL_DestroyWindow(w);
    SDL_Quit();
    XCloseDisplay(dpy);
}

/* An SDL2 window made with SDL_WINDOW_VULKAN: the Vulkan renderer takes its surface from
 * SDL_Vulkan_CreateSurface (the path for SDL's non-X11 drivers such as Wayland, here on SDL's
 * X11 driver, the one this machine has), the others present to it as to any SDL window.
 * Consecutive frames read back from the X server; a destroyed window is DEVICE_LOST by name. */
static void wt_Window_SDL2VulkanWindow(xgdt_ctx *t)
{
    enum { W = 72, H = 56 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "SDL_Init: %s", SDL_GetError());
        XCloseDisplay(dpy);
        return;
    }
    SDL_Window *w = SDL_CreateWindow("xgd vulkan window", 0, 0, W, H,
                                     SDL_WINDOW_SHOWN | SDL_WINDOW_VULKAN);
    if (w == NULL) {
        snprintf(wt_reason, sizeof wt_reason, "SDL_CreateWindow(SDL_WINDOW_VULKAN): %s",
                 SDL_GetError());
        xgdt_not_supported(t, wt_reason);
        SDL_Quit();
        XCloseDisplay(dpy);
        return;
    }
    wt_sdl_pump();
    xgd_device *dev = wt_sdl_device(t, w);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
        for (int k = 0; k < 2; k++) {
            wt_frame f = { k ? WT_BLACK : WT_GREY, { 0, 0, 0, 0, 0, 1 },
                           { { 4.0 + 10 * k, 5, 40.0 + 10 * k, 30, WT_YELLOW },
                             { 10, 34, 60, 50, WT_BLUE } }, 2 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            wt_sdl_pump();
            char label[32];
            snprintf(label, sizeof label, "sdlvk%d", k);
            CHECK_MSG(wt_check(t, label, dpy, wt_sdl_xid(w), W, H, &f, &g),
                      "SDL_WINDOW_VULKAN frame %d differs", k);
        }
        SDL_DestroyWindow(w);
        w = NULL;
        CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
        CHECK(strstr(xgd_device_last_error(dev), "gone") != NULL);
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    if (w != NULL) SDL_DestroyWindow(w);
    SDL_Quit();
    XCloseDisplay(dpy);
}

/* An SDL2 window on a video driver other than X11 (SDL's offscreen driver, which has no Vulkan
 * support: the stand-in here for Wayland, which this machine cannot run): the software renderer
 * presents through SDL's window surface; Vulkan needs the window made with SDL_WINDOW_VULKAN
 * and says so by name (NOT_SUPPORTED); Direct3D 12 presents only to X11 windows on Linux
 * (NOT_SUPPORTED). The frame is still submitted and the device goes on. */
static void wt_Window_SDL2OtherDriver(xgdt_ctx *t)
{
    SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    int init = SDL_Init(SDL_INIT_VIDEO);
    SDL_ResetHint(SDL_HINT_VIDEODRIVER);
    if (init != 0) {
        snprintf(wt_reason, sizeof wt_reason, "SDL's offscreen video driver: %s", SDL_GetError());
        xgdt_not_supported(t, wt_reason);
        return;
    }
    CHECK_MSG(strcmp(SDL_GetCurrentVideoDriver(), "offscreen") == 0, "SDL's driver is %s",
              SDL_GetCurrentVideoDriver());
    SDL_Window *w = SDL_CreateWindow("xgd offscreen", 0, 0, 48, 32, 0);
    REQUIRE(w != NULL);
    xgd_device *dev = wt_sdl_device(t, w);
    if (dev != NULL) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, 48);
        CHECK_INT(info.pp.back_buffer_height, 32);
        CHECK_OK(xgd_clear_color(dev, WT_GREEN));
        xgd_result r = xgd_present(dev);
        const char *msg = xgd_device_last_error(dev);
        if (t->renderer == XGD_RENDERER_SOFTWARE) {
            CHECK_OK(r);
        } else if (t->renderer == XGD_RENDERER_VULKAN) {
            CHECK_RESULT(r, XGD_ERROR_NOT_SUPPORTED);
            CHECK_MSG(strstr(msg, "SDL_WINDOW_VULKAN") != NULL, "message: %s", msg);
        } else {
            CHECK_RESULT(r, XGD_ERROR_NOT_SUPPORTED);
            CHECK_MSG(strstr(msg, "X11") != NULL, "message: %s", msg);
        }
        /* the device goes on: its back buffer holds the frame */
        uint8_t px[4] = { 0 };
        xgd_rect one = { 3, 3, 1, 1 };
        CHECK_OK(xgd_clear_color(dev, WT_RED));
        CHECK_OK(xgd_get_back_buffer_data(dev, &one, px, sizeof px));
        CHECK_INT(px[0], WT_RED.r);
        xgd_device_destroy(dev);
    }
    SDL_DestroyWindow(w);
    SDL_Quit();
}

/* Whether an EWMH window manager runs on the display (_NET_SUPPORTING_WM_CHECK on the root):
 * borderless full screen is a request SDL makes of it, which nothing honours on a bare X
 * server such as Xvfb alone. */
static bool wt_have_wm(Display *dpy)
{
    Atom check = XInternAtom(dpy, "_NET_SUPPORTING_WM_CHECK", True);
    if (check == None) return false;
    Atom type;
    int format;
    unsigned long n = 0, after;
    unsigned char *data = NULL;
    bool ok = XGetWindowProperty(dpy, DefaultRootWindow(dpy), check, 0, 1, False, XA_WINDOW,
                                 &type, &format, &n, &after, &data) == Success &&
              type == XA_WINDOW && n == 1;
    if (data != NULL) XFree(data);
    return ok;
}

/* Pumps SDL (the application's event loop) until the window's X geometry, in root
 * coordinates, is x, y, w x h; at most about 3 s. */
static bool wt_sdl_wait_geometry(Display *dpy, SDL_Window *sw, int x, int y, int w, int h)
{
    for (int i = 0; i < 300; i++) {
        wt_sdl_pump();
        Window xid = wt_sdl_xid(sw), root, child;
        int gx, gy, rx = -1, ry = -1;
        unsigned int gw = 0, gh = 0, border, depth;
        XSync(dpy, False);
        if (xid != 0 && XGetGeometry(dpy, xid, &root, &gx, &gy, &gw, &gh, &border, &depth) &&
            XTranslateCoordinates(dpy, xid, root, 0, 0, &rx, &ry, &child) && rx == x &&
            ry == y && (int)gw == w && (int)gh == h) {
            int sw_w = 0, sw_h = 0;
            SDL_GetWindowSize(sw, &sw_w, &sw_h);
            if (sw_w == w && sw_h == h) return true;
        }
        SDL_Delay(10);
    }
    return false;
}

/* ---- SDL_CreateWindow under a window manager, bounded ----------------------------------------
 * SDL 2.26 shows a new window by mapping it and then waiting for its MapNotify with XIfEvent,
 * which has no timeout. Under a window manager the map is a request the manager carries out.
 * Seen in make window-test under load (gdb on a run hung for 45 s): SDL in XIfEvent inside
 * SDL_CreateWindow, the window still an unmapped child of the root; openbox idle in its main
 * loop's poll, managing no client (_NET_CLIENT_LIST empty), with the request never carried
 * out. Two measures, both from the application's side (SDL owns that wait, xgd does not):
 *   - while SDL waits, the window manager is woken every 100 ms by an event it listens to (a
 *     property change on the root window), so a request it holds unread is looked at;
 *   - after 5 s SDL's wait is ended with a synthetic MapNotify sent to the window, and the
 *     fixture fails by name instead of hanging. */
typedef struct wt_map_watch {
    const char *title;
    SDL_atomic_t done;
    SDL_atomic_t rescued;
} wt_map_watch;

static Window wt_find_top_level(Display *dpy, const char *title)
{
    Window root, parent, *kids = NULL, found = 0;
    unsigned int n = 0;
    if (!XQueryTree(dpy, DefaultRootWindow(dpy), &root, &parent, &kids, &n)) return 0;
    for (unsigned int i = 0; i < n && found == 0; i++) {
        char *name = NULL;
        if (XFetchName(dpy, kids[i], &name) && name != NULL && strcmp(name, title) == 0)
            found = kids[i];
        if (name != NULL) XFree(name);
    }
    if (kids != NULL) XFree(kids);
    return found;
}

static int wt_map_watch_main(void *arg)
{
    wt_map_watch *w = arg;
    Display *dpy = XOpenDisplay(NULL); /* its own connection: Xlib is not shared across threads */
    if (dpy == NULL) return 0;
    Atom nudge = XInternAtom(dpy, "_XGD_TEST_WM_NUDGE", False);
    for (long i = 1; SDL_AtomicGet(&w->done) == 0; i++) {
        SDL_Delay(100);
        if (SDL_AtomicGet(&w->done) != 0) break;
        XChangeProperty(dpy, DefaultRootWindow(dpy), nudge, XA_CARDINAL, 32, PropModeReplace,
                        (unsigned char *)&i, 1);
        XFlush(dpy);
        if (i == 50) {
            Window win = wt_find_top_level(dpy, w->title);
            if (win != 0) {
                XEvent e;
                memset(&e, 0, sizeof e);
                e.xmap.type = MapNotify;
                e.xmap.event = win;
                e.xmap.window = win;
                XSendEvent(dpy, win, False, StructureNotifyMask, &e);
                XFlush(dpy);
                SDL_AtomicSet(&w->rescued, 1);
            }
        }
    }
    XDeleteProperty(dpy, DefaultRootWindow(dpy), nudge);
    XCloseDisplay(dpy);
    return 0;
}

/* SDL_CreateWindow with the watch above; NULL (and a recorded failure) when SDL fails or the
 * window manager did not map the window within 5 s. */
static SDL_Window *wt_sdl_create_managed(xgdt_ctx *t, const char *title, int w, int h,
                                         Uint32 flags)
{
    wt_map_watch watch;
    memset(&watch, 0, sizeof watch);
    watch.title = title;
    SDL_Thread *th = SDL_CreateThread(wt_map_watch_main, "xgd-map-watch", &watch);
    SDL_Window *win = SDL_CreateWindow(title, 0, 0, w, h, flags);
    SDL_AtomicSet(&watch.done, 1);
    if (th != NULL) SDL_WaitThread(th, NULL);
    if (win == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "SDL_CreateWindow: %s", SDL_GetError());
        return NULL;
    }
    if (SDL_AtomicGet(&watch.rescued) != 0) {
        xgdt_fail_at(t, __FILE__, __LINE__,
                     "the window manager did not map the new SDL window within 5 s (SDL's "
                     "wait for MapNotify was ended by a synthetic one)");
        SDL_DestroyWindow(win);
        return NULL;
    }
    return win;
}

/* XNA's IsFullScreen on an SDL2 window, toggled by Reset: borderless desktop full screen
 * covers the whole screen (Xvfb's 1024x768), the back buffer becomes the screen's size, and a
 * frame letterboxing a 320x180 canvas (scale min(1024/320, 768/180) = 3.2: 1024x576 at y 96,
 * bars of the clear colour above and below) is what the X server shows over the whole root
 * window; Reset back to windowed restores the window's 160x120 and a back buffer of that
 * size. Needs a window manager (make window-test starts one for this fixture). */
static void wt_Window_SDL2FullScreenByReset(xgdt_ctx *t)
{
    enum { W = 160, H = 120, VW = 320, VH = 180 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    int SW = DisplayWidth(dpy, DefaultScreen(dpy)), SH = DisplayHeight(dpy, DefaultScreen(dpy));
    const char *req = getenv("XGD_TEST_REQUIRE_WM");
    bool need_wm = req != NULL && strcmp(req, "1") == 0;
    /* a window manager started with the test may take a moment to claim the screen */
    for (int i = 0; need_wm && i < 100 && !wt_have_wm(dpy); i++) SDL_Delay(50);
    if (!wt_have_wm(dpy)) {
        if (need_wm)
            xgdt_fail_at(t, __FILE__, __LINE__, "XGD_TEST_REQUIRE_WM=1 but no EWMH window "
                                                "manager runs on the display");
        else
            xgdt_not_supported(t, "no window manager on the display: borderless full screen "
                                  "is applied by one (make window-test runs this fixture "
                                  "under openbox)");
        XCloseDisplay(dpy);
        return;
    }
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "SDL_Init: %s", SDL_GetError());
        XCloseDisplay(dpy);
        return;
    }
    SDL_Window *w = wt_sdl_create_managed(t, "xgd full screen", W, H,
                                          SDL_WINDOW_SHOWN | SDL_WINDOW_BORDERLESS);
    if (w == NULL) {
        SDL_Quit();
        XCloseDisplay(dpy);
        return;
    }
    wt_sdl_pump();
    /* Creation applies IsFullScreen too; a creation the renderer refuses leaves the window as
     * it was (windowed). */
    {
        xgd_device_desc d;
        d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
        d.renderer = t->renderer;
        d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
        d.pp.window.kind = XGD_WINDOW_SDL2;
        d.pp.window.sdl2_window = w;
        d.pp.is_full_screen = true;
        xgd_device *fs = NULL;
        xgd_result r = xgd_device_create(&d, &fs);
        if (r == XGD_OK) {
            xgd_device_info info;
            CHECK_OK(xgd_device_get_info(fs, &info));
            CHECK(info.pp.is_full_screen);
            CHECK_INT(info.pp.back_buffer_width, SW);
            CHECK_INT(info.pp.back_buffer_height, SH);
            CHECK((SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN_DESKTOP) ==
                  SDL_WINDOW_FULLSCREEN_DESKTOP);
            xgd_device_destroy(fs);
            SDL_SetWindowFullscreen(w, 0); /* the window is the application's to restore */
        } else {
            CHECK_RESULT(r, XGD_ERROR_NOT_SUPPORTED);
            CHECK_MSG((SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN_DESKTOP) == 0,
                      "a refused creation left the window full screen");
        }
        CHECK_MSG(wt_sdl_wait_geometry(dpy, w, 0, 0, W, H),
                  "the window is not back at %dx%d after the creation test", W, H);
    }
    xgd_device *dev = wt_sdl_device(t, w);
    xgd_effect *fx = dev != NULL ? fx_effect(t, dev) : NULL;
    if (dev != NULL && fx != NULL) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(!info.pp.is_full_screen);
        CHECK_INT(info.pp.back_buffer_width, W);
        CHECK_INT(info.pp.back_buffer_height, H);
        xgd_presentation_parameters pp = info.pp;
        pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
        pp.virtual_width = VW;
        pp.virtual_height = VH;
        pp.is_full_screen = true;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK((SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN_DESKTOP) ==
              SDL_WINDOW_FULLSCREEN_DESKTOP);
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(info.pp.is_full_screen);
        CHECK_INT(info.pp.back_buffer_width, SW);
        CHECK_INT(info.pp.back_buffer_height, SH);
        CHECK_MSG(wt_sdl_wait_geometry(dpy, w, 0, 0, SW, SH),
                  "the full-screen window does not cover the %dx%d screen", SW, SH);
        wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, SW, SH, VW, VH);
        for (int k = 0; k < 2; k++) {
            wt_frame f = { k ? WT_BLACK : WT_GREY, { 0, 0, 0, 0, 0, 1 },
                           { { 10.0 + 20 * k, 10, 150.0 + 20 * k, 90, WT_RED },
                             { 200, 100, 310, 170, WT_BLUE } }, 2 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            wt_sdl_pump();
            char label[32];
            snprintf(label, sizeof label, "fullscreen%d", k);
            CHECK_MSG(wt_check(t, label, dpy, DefaultRootWindow(dpy), SW, SH, &f, &g),
                      "full-screen frame %d differs on the screen", k);
        }
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.pp.back_buffer_width, SW);
        CHECK_INT(info.pp.back_buffer_height, SH);

        /* Windowed again: the window manager puts the window back at its size; the
         * application pumps its events and resets on the size change (as on any resize). */
        pp = info.pp;
        pp.is_full_screen = false;
        CHECK_OK(xgd_device_reset(dev, &pp));
        CHECK((SDL_GetWindowFlags(w) & SDL_WINDOW_FULLSCREEN_DESKTOP) == 0);
        CHECK_MSG(wt_sdl_wait_geometry(dpy, w, 0, 0, W, H),
                  "the window did not return to %dx%d at (0, 0)", W, H);
        CHECK_OK(xgd_device_reset(dev, NULL));
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(!info.pp.is_full_screen);
        CHECK_INT(info.pp.back_buffer_width, W);
        CHECK_INT(info.pp.back_buffer_height, H);
        g = wt_rule(XGD_PRESENTATION_MODE_LETTERBOX, W, H, VW, VH);
        wt_frame f = { WT_GREY, { 0, 0, 0, 0, 0, 1 }, { { 20, 20, 300, 160, WT_GREEN } }, 1 };
        CHECK_OK(wt_draw(t, dev, fx, &f));
        wt_sdl_pump();
        CHECK(wt_check(t, "windowed_again", dpy, wt_sdl_xid(w), W, H, &f, &g));
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    SDL_DestroyWindow(w);
    SDL_Quit();
    XCloseDisplay(dpy);
}
#endif /* XGD_TEST_HAVE_SDL2 */

/* IsFullScreen on a native X11 window: xgd does not ask the window manager about a window it
 * does not own, so both creation and Reset answer NOT_SUPPORTED by name, and a refused Reset
 * changes nothing (pp, back buffer and the window's geometry as before). */
static void wt_Window_X11FullScreenNotSupported(xgdt_ctx *t)
{
    enum { W = 90, H = 70 };
    Display *dpy = wt_open(t);
    if (dpy == NULL) return;
    Window win = wt_window(dpy, W, H);
    xgd_device *dev = wt_device(t, dpy, win, XGD_PRESENTATION_MODE_DEFAULT, 0, 0);
    if (dev != NULL) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(!info.pp.is_full_screen);
        xgd_presentation_parameters pp = info.pp;
        pp.is_full_screen = true;
        CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_NOT_SUPPORTED);
        CHECK(strstr(xgd_device_last_error(dev), "_NET_WM_STATE_FULLSCREEN") != NULL);
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK(!info.pp.is_full_screen);
        CHECK_INT(info.pp.back_buffer_width, W);
        CHECK_INT(info.pp.back_buffer_height, H);
        Window root;
        int gx, gy;
        unsigned int gw = 0, gh = 0, border, depth;
        CHECK(XGetGeometry(dpy, win, &root, &gx, &gy, &gw, &gh, &border, &depth));
        CHECK_INT((int)gw, W);
        CHECK_INT((int)gh, H);
        /* the device still presents */
        xgd_effect *fx = fx_effect(t, dev);
        if (fx != NULL) {
            wt_frame f = { WT_GREY, { 0, 0, 0, 0, 0, 1 }, { { 10, 10, 50, 40, WT_RED } }, 1 };
            CHECK_OK(wt_draw(t, dev, fx, &f));
            wt_geometry g = wt_rule(XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER, W, H, 0, 0);
            CHECK(wt_check(t, "x11_after_refusal", dpy, win, W, H, &f, &g));
            xgd_effect_destroy(fx);
        }
        xgd_device_destroy(dev);

        /* creation with IsFullScreen is refused the same way */
        xgd_device_desc d;
        d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
        d.renderer = t->renderer;
        d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
        d.pp.window.kind = XGD_WINDOW_X11;
        d.pp.window.x11_display = dpy;
        d.pp.window.x11_window = win;
        d.pp.is_full_screen = true;
        xgd_device *dev2 = NULL;
        CHECK_RESULT(xgd_device_create(&d, &dev2), XGD_ERROR_NOT_SUPPORTED);
        CHECK(dev2 == NULL);
        CHECK(strstr(xgd_device_last_error(NULL), "_NET_WM_STATE_FULLSCREEN") != NULL);
    }
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
}

#endif

/* Every fixture is registered in every build (the registry check reads the sources); one whose
 * window system is not compiled in says so. */
#ifdef XGD_TEST_HAVE_X11
#define WT_RUN_X11(fn) fn(t)
#else
#define WT_RUN_X11(fn) xgdt_not_supported(t, "built without X11: the windowed fixtures read " \
                                             "windows back with XGetImage")
#endif
#if defined(XGD_TEST_HAVE_X11) && defined(XGD_TEST_HAVE_SDL2)
#define WT_RUN_SDL2(fn) fn(t)
#else
#define WT_RUN_SDL2(fn) xgdt_not_supported(t, "built without SDL2 or X11")
#endif

XGD_FIXTURE(Window_ConsecutiveFramesDrawGeometry)
{
    WT_RUN_X11(wt_Window_ConsecutiveFramesDrawGeometry);
}

XGD_FIXTURE(Window_PresentationModes)
{
    WT_RUN_X11(wt_Window_PresentationModes);
}

XGD_FIXTURE(Window_ResizeBetweenFrames)
{
    WT_RUN_X11(wt_Window_ResizeBetweenFrames);
}

XGD_FIXTURE(Window_PresentIntervals)
{
    WT_RUN_X11(wt_Window_PresentIntervals);
}

XGD_FIXTURE(Window_MouseToLogical)
{
    WT_RUN_X11(wt_Window_MouseToLogical);
}

XGD_FIXTURE(Window_LostAndResetOntoNewWindow)
{
    WT_RUN_X11(wt_Window_LostAndResetOntoNewWindow);
}

XGD_FIXTURE(Window_SDL2Frames)
{
    WT_RUN_SDL2(wt_Window_SDL2Frames);
}

XGD_FIXTURE(Window_SDL2VulkanWindow)
{
    WT_RUN_SDL2(wt_Window_SDL2VulkanWindow);
}

XGD_FIXTURE(Window_SDL2OtherDriver)
{
    WT_RUN_SDL2(wt_Window_SDL2OtherDriver);
}

XGD_FIXTURE(Window_SDL2FullScreenByReset)
{
    WT_RUN_SDL2(wt_Window_SDL2FullScreenByReset);
}

XGD_FIXTURE(Window_X11FullScreenNotSupported)
{
    WT_RUN_X11(wt_Window_X11FullScreenNotSupported);
}

/* A headless device has no window to make full screen. */
XGD_TEST(FullScreen_HeadlessRefused)
{
    xgd_device_desc d;
    d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    d.renderer = XGD_RENDERER_SOFTWARE;
    d.pp.headless = true;
    d.pp.is_full_screen = true;
    xgd_device *dev = NULL;
    CHECK_RESULT(xgd_device_create(&d, &dev), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(dev == NULL);
    d.pp.is_full_screen = false;
    dev = xgdt_device(t, &d);
    REQUIRE(dev);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    xgd_presentation_parameters pp = info.pp;
    pp.is_full_screen = true;
    CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(!info.pp.is_full_screen);
    xgd_device_destroy(dev);
}

/* The window-to-logical mapping on a headless device is the presentation geometry alone:
 * a 320x180 canvas letterboxed into 400x300 is scaled by 1.25 and moved down by 37 pixels. */
XGD_TEST(WindowToLogical_Letterbox)
{
    xgd_device_desc d;
    d = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    /* presentation is under test, and the expected frames lay geometry out for .5 centres */
    d.pixel_center = XGD_PIXEL_CENTER_D3D10;
    d.renderer = XGD_RENDERER_SOFTWARE;
    d.pp.headless = true;
    d.pp.back_buffer_width = 400;
    d.pp.back_buffer_height = 300;
    d.pp.virtual_width = 320;
    d.pp.virtual_height = 180;
    d.pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
    xgd_device *dev = xgdt_device(t, &d);
    REQUIRE(dev);
    xgd_vector2 l;
    bool inside = false;
    CHECK_OK(xgd_window_to_logical(dev, 200, 149, &l, &inside));
    CHECK_NEAR(l.x, 200.5 / 1.25, 1e-4);
    CHECK_NEAR(l.y, (149.5 - 37) / 1.25, 1e-4);
    CHECK(inside);
    CHECK_OK(xgd_window_to_logical(dev, 10, 10, &l, &inside)); /* the top bar */
    CHECK(!inside);
    CHECK_OK(xgd_window_to_logical(dev, 399, 261, &l, &inside)); /* last canvas pixel */
    CHECK(inside);
    CHECK_INT((int)floor(l.x), 319);
    CHECK_INT((int)floor(l.y), 179);
    CHECK_OK(xgd_window_to_logical(dev, 399, 262, &l, &inside)); /* the bottom bar */
    CHECK(!inside);
    CHECK_RESULT(xgd_window_to_logical(dev, 0, 0, NULL, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_device_destroy(dev);
}
