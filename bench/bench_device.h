/*
 * bench_device.h - what the single-device benches (effect-bench, instancing-bench) share: a
 * headless device on a renderer named on the command line, the end of a timed frame, and the
 * report of a failed call as main's exit status (77, the tests' skip code, where the renderer
 * cannot do it). The includer defines _POSIX_C_SOURCE (bench_time.h's clock).
 */
#ifndef XGD_BENCH_DEVICE_H
#define XGD_BENCH_DEVICE_H

#include "xgd.h"
#include "bench_time.h"

#include <stdio.h>

/* Prints "prog: what: RESULT message" and returns main's exit status: 77 for NOT_SUPPORTED,
   1 otherwise. */
static inline int bench_fail(const char *prog, xgd_device *dev, const char *what, xgd_result r)
{
    fprintf(stderr, "%s: %s: %s %s\n", prog, what, xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_ERROR_NOT_SUPPORTED ? 77 : 1;
}

/* A headless w x h device without depth buffer, Direct3D 10 pixel centres (cell edges on pixel
   boundaries), on the renderer named `renderer` (NULL: the default). Returns 0 with *out set,
   or main's exit status after a message: 2 for an unknown name, 77 where no such device can
   be made here, 1 otherwise. */
static inline int bench_device_open(const char *prog, const char *renderer, int w, int h, xgd_device **out)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.headless = true;
    dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
    if (renderer) {
        dd.renderer = xgd_renderer_from_name(renderer);
        if (dd.renderer == XGD_RENDERER_COUNT) {
            fprintf(stderr, "%s: unknown renderer '%s'\n", prog, renderer);
            return 2;
        }
    }
    *out = NULL;
    xgd_result r = xgd_device_create(&dd, out);
    if (r != XGD_OK) {
        fprintf(stderr, "%s: no device: %s\n", prog, xgd_device_last_error(NULL));
        return r == XGD_ERROR_NOT_SUPPORTED || r == XGD_ERROR_NO_SUITABLE_DEVICE ? 77 : 1;
    }
    return 0;
}

/* Ends frame f begun at t0 (bench_clock_s): waits for its pixels with a 1x1 back-buffer read
   and keeps, unless f < 0 (the warm-up frame), the submission time in cpu[f] and the whole
   frame's in wall[f]. Returns the read's result. */
static inline xgd_result bench_frame_end(xgd_device *dev, int f, double t0, double *cpu, double *wall)
{
    double t1 = bench_clock_s();
    uint8_t one[4];
    xgd_result r = xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, one, sizeof one);
    double t2 = bench_clock_s();
    if (f >= 0) {
        cpu[f] = t1 - t0;
        wall[f] = t2 - t0;
    }
    return r;
}

#endif
