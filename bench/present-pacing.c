/*
 * present-pacing.c - frame-to-frame intervals of a windowed device per present interval.
 *
 * Opens an X11 window, creates a device on it, and for each present interval (One, Immediate,
 * Two, switched by Reset) draws N cleared frames after a warm-up, taking the clock after every
 * xgd_present. Prints the median, 10th and 90th percentile, minimum and maximum of the
 * intervals between consecutive Presents, and the frame rate the median gives. A display with
 * a vertical blank paces One at its refresh (Two at half of it where the renderer does); Xvfb
 * has none, so there every interval runs at the speed of the frame loop and says nothing about
 * vsync.
 *
 *   present-pacing [--renderer software|vulkan|d3d12] [--frames N] [--size WxH]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <xgd.h>

#include <X11/Xlib.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"

static Bool is_map(Display *dpy, XEvent *e, XPointer arg)
{
    (void)dpy;
    return e->type == MapNotify && e->xmap.window == *(Window *)(void *)arg;
}

static double percentile(const double *sorted, int n, double p)
{
    int i = (int)(p * (n - 1) + 0.5);
    return sorted[i < 0 ? 0 : i >= n ? n - 1 : i];
}

int main(int argc, char **argv)
{
    const char *renderer = "software";
    int frames = 200, w = 320, h = 240;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--renderer") == 0 && i + 1 < argc) renderer = argv[++i];
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc &&
                 sscanf(argv[++i], "%dx%d", &w, &h) == 2) {
        } else {
            fprintf(stderr, "usage: %s [--renderer software|vulkan|d3d12] [--frames N] "
                            "[--size WxH]\n", argv[0]);
            return 2;
        }
    }
    if (frames < 2 || w < 1 || h < 1) {
        fprintf(stderr, "present-pacing: --frames must be >= 2 and the size positive\n");
        return 2;
    }
    xgd_renderer_kind kind = strcmp(renderer, "vulkan") == 0  ? XGD_RENDERER_VULKAN
                             : strcmp(renderer, "d3d12") == 0 ? XGD_RENDERER_D3D12
                                                              : XGD_RENDERER_SOFTWARE;
    Display *dpy = XOpenDisplay(NULL);
    if (dpy == NULL) {
        fprintf(stderr, "present-pacing: no X display (run under xvfb-run on a headless machine)\n");
        return 1;
    }
    XSetWindowAttributes a;
    memset(&a, 0, sizeof a);
    a.event_mask = StructureNotifyMask;
    Window win = XCreateWindow(dpy, DefaultRootWindow(dpy), 0, 0, (unsigned)w, (unsigned)h, 0,
                               CopyFromParent, InputOutput, CopyFromParent, CWEventMask, &a);
    XMapRaised(dpy, win);
    XEvent e;
    XIfEvent(dpy, &e, is_map, (XPointer)&win);
    XSync(dpy, False);

    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = kind;
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    d.pp.window.kind = XGD_WINDOW_X11;
    d.pp.window.x11_display = dpy;
    d.pp.window.x11_window = win;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    if (r != XGD_OK) {
        fprintf(stderr, "present-pacing: xgd_device_create(%s): %s: %s\n", renderer,
                xgd_result_name(r), xgd_device_last_error(NULL));
        XDestroyWindow(dpy, win);
        XCloseDisplay(dpy);
        return r == XGD_ERROR_NOT_SUPPORTED ? 77 : 1;
    }
    double *dt = malloc(sizeof *dt * (size_t)frames);
    if (dt == NULL) return 1;
    printf("present-pacing: %s, %dx%d X11 window on %s, %d frames per interval after 10 "
           "warm-up frames\n", renderer, w, h, ServerVendor(dpy), frames);
    printf("%-10s %8s %8s %8s %8s %8s %8s\n", "interval", "median", "p10", "p90", "min", "max",
           "fps");
    static const struct { xgd_present_interval pi; const char *name; } modes[3] = {
        { XGD_PRESENT_INTERVAL_ONE, "One" },
        { XGD_PRESENT_INTERVAL_IMMEDIATE, "Immediate" },
        { XGD_PRESENT_INTERVAL_TWO, "Two" } };
    int rc = 0;
    for (int m = 0; m < 3 && rc == 0; m++) {
        xgd_device_info info;
        xgd_device_get_info(dev, &info);
        xgd_presentation_parameters pp = info.pp;
        pp.present_interval = modes[m].pi;
        r = xgd_device_reset(dev, &pp);
        double prev = 0;
        for (int f = -10; f < frames && r == XGD_OK; f++) {
            xgd_color c = { (uint8_t)(f * 7), (uint8_t)(f * 3), 90, 255 };
            r = xgd_clear_color(dev, c);
            if (r == XGD_OK) r = xgd_present(dev);
            double now = bench_clock_s();
            if (f >= 0) dt[f] = (now - prev) * 1e3;
            prev = now;
        }
        if (r != XGD_OK) {
            fprintf(stderr, "present-pacing: %s: %s: %s\n", modes[m].name, xgd_result_name(r),
                    xgd_device_last_error(dev));
            rc = 1;
            break;
        }
        /* dt[0] spans the last warm-up Present to the first measured one, like the rest */
        double med = bench_median(dt, frames); /* sorts dt */
        printf("%-10s %8.2f %8.2f %8.2f %8.2f %8.2f %8.1f\n", modes[m].name, med,
               percentile(dt, frames, 0.1), percentile(dt, frames, 0.9), dt[0], dt[frames - 1],
               med > 0 ? 1e3 / med : 0.0);
    }
    printf("(ms between consecutive Presents. Xvfb has no vertical blank: nothing is paced "
           "there, so these are the frame loop's speed, not vsync.)\n");
    free(dt);
    xgd_device_destroy(dev);
    XDestroyWindow(dpy, win);
    XCloseDisplay(dpy);
    return rc;
}
