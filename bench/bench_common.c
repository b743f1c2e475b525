/*
 * bench_common.c - the half of vk-raw-bench and d3d12-raw-bench that does not depend on the raw
 * API (see bench_common.h): the scene, the pixel check, timing, the xgd path and the report.
 *   xgd   the raw loop's draws through the public API on the bench's renderer: xgd_set_texture,
 *         xgd_draw_user_primitives per quad, then xgd_present; a one-pixel readback waits for
 *         the frame.
 * "cpu" is recording + submission per draw; "with wait" adds waiting for the frame to finish.
 * Each figure is the median of --frames frames after one warm-up frame.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"
#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *bench_name = "bench";

#define XGD(expr)                                                                           \
    do {                                                                                    \
        xgd_result x_r_ = (expr);                                                           \
        if (x_r_ != XGD_OK) {                                                               \
            fprintf(stderr, "%s:%d: %s failed: %s\n", bench_name, __LINE__, #expr,          \
                    xgd_result_name(x_r_));                                                 \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

double bench_now_s(void) { return bench_clock_s(); }

void bench_texture_color(int t, uint8_t c[4])
{
    c[0] = (uint8_t)(16 * t + 8);
    c[1] = (uint8_t)(255 - 16 * t);
    c[2] = (uint8_t)(t * 37 % 256);
    c[3] = 255;
}

/* Where quad i lands (pixel units), a grid of 8x8 cells that wraps. */
static void quad_pos(int i, int *x, int *y)
{
    int cells_x = W / TS, cells = cells_x * (H / TS);
    int c = i % cells;
    *x = (c % cells_x) * TS;
    *y = (c / cells_x) * TS;
}

void bench_quad_vertices(int i, vtx v[4])
{
    int x, y;
    quad_pos(i, &x, &y);
    float x0 = (float)x, y0 = (float)y, x1 = x0 + TS, y1 = y0 + TS;
    vtx q[4] = { { { x0, y0, 0 }, { 255, 255, 255, 255 }, { 0, 0 } },
                 { { x1, y0, 0 }, { 255, 255, 255, 255 }, { 1, 0 } },
                 { { x0, y1, 0 }, { 255, 255, 255, 255 }, { 0, 1 } },
                 { { x1, y1, 0 }, { 255, 255, 255, 255 }, { 1, 1 } } };
    memcpy(v, q, sizeof q);
}

static int check_pixels(const uint8_t *rgba, int draws, const char *who)
{
    /* the last quad drawn into each of the first TEX cells decides its colour */
    int bad = 0, cells = (W / TS) * (H / TS);
    for (int c = 0; c < TEX && c < draws; c++) {
        int last = c;
        while (last + cells < draws) last += cells;
        uint8_t want[4];
        bench_texture_color(last % TEX, want);
        int x, y;
        quad_pos(c, &x, &y);
        const uint8_t *p = rgba + ((size_t)(y + TS / 2) * W + (size_t)(x + TS / 2)) * 4;
        if (memcmp(p, want, 4) != 0) bad++;
    }
    if (bad) fprintf(stderr, "%s: %s: %d of %d checked quads have the wrong colour\n", bench_name, who, bad, TEX);
    return bad;
}

void bench_path_frame(bench_path *p, int f, double t0, double t1, double t2)
{
    if (f < 0) return;
    p->cpu[f] = t1 - t0;
    p->wall[f] = t2 - t0;
}

void bench_path_finish(bench_path *p, const uint8_t *rgba, int draws, int frames, const char *who)
{
    p->bad = check_pixels(rgba, draws, who);
    p->cpu_us = bench_median(p->cpu, frames) * 1e6 / draws;
    p->wait_us = bench_median(p->wall, frames) * 1e6 / draws;
}

/* ---- the same draws through xgd ------------------------------------------------------------ */

static void run_xgd(xgd_renderer_kind renderer, int draws, int frames, bench_path *p)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = renderer;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.present_interval = XGD_PRESENT_INTERVAL_IMMEDIATE;
    dd.pp.headless = true;
    xgd_device *dev;
    XGD(xgd_device_create(&dd, &dev));
    xgd_texture *tex[TEX];
    for (int t = 0; t < TEX; t++) {
        uint8_t c[4], px[TS * TS * 4];
        bench_texture_color(t, c);
        for (int i = 0; i < TS * TS; i++) memcpy(px + i * 4, c, 4);
        XGD(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TS, .height = TS }, &tex[t]));
        XGD(xgd_texture_set_data(tex[t], 0, 0, NULL, px, sizeof px));
    }
    xgd_effect *fx;
    XGD(xgd_sprite_effect_create(dev, &fx));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    XGD(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    XGD(xgd_set_rasterizer_state(dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    XGD(xgd_set_depth_stencil_state(dev, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    uint8_t *pixels = malloc((size_t)W * H * 4);
    uint8_t one[4];
    if (!pixels) exit(1);
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now_s();
        XGD(xgd_clear_color(dev, XGD_COLOR_BLACK));
        XGD(xgd_effect_apply(fx));
        for (int i = 0; i < draws; i++) {
            vtx q[4];
            bench_quad_vertices(i, q);
            XGD(xgd_set_texture(dev, 0, tex[i % TEX]));
            XGD(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl));
        }
        XGD(xgd_present(dev));
        double t1 = bench_now_s();
        /* a one-pixel readback waits for the frame */
        XGD(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, one, sizeof one));
        double t2 = bench_now_s();
        bench_path_frame(p, f, t0, t1, t2);
    }
    XGD(xgd_get_back_buffer_data(dev, NULL, pixels, (size_t)W * H * 4));
    bench_path_finish(p, pixels, draws, frames, "xgd");
    free(pixels);
    xgd_effect_destroy(fx);
    for (int t = 0; t < TEX; t++) xgd_texture_destroy(tex[t]);
    xgd_device_destroy(dev);
}

int bench_main(int argc, char **argv, const bench_desc *d)
{
    bench_name = d->name;
    int draws = 10000, frames = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--draws") == 0) draws = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--frames") == 0) frames = atoi(argv[i + 1]);
    }
    if (draws < 1 || frames < 1 || frames > MAX_FRAMES) {
        fprintf(stderr, "usage: %s [--draws N >= 1] [--frames 1..%d]\n", d->name, MAX_FRAMES);
        return 1;
    }
    static bench_path raw, xgd;
    d->run_raw(draws, frames, &raw);
    run_xgd(d->renderer, draws, frames, &xgd);
    printf("%s: %d textured 8x8 quads per frame, texture change per draw, %dx%d RGBA8, "
           "median of %d frames\n", d->name, draws, W, H, frames);
    printf("%-28s %12s %16s\n", "path", "cpu us/draw", "with wait us/draw");
    printf("%-28s %12.3f %16.3f\n", d->raw_label, raw.cpu_us, raw.wait_us);
    printf("%-28s %12.3f %16.3f\n", d->xgd_label, xgd.cpu_us, xgd.wait_us);
    printf("%-28s %12.2f %16.2f\n", "ratio xgd / raw", xgd.cpu_us / raw.cpu_us, xgd.wait_us / raw.wait_us);
    printf("pixels: raw %s, xgd %s\n", raw.bad ? "WRONG" : "ok", xgd.bad ? "WRONG" : "ok");
    return raw.bad || xgd.bad ? 1 : 0;
}
