/*
 * bench_common.h - what vk-raw-bench and d3d12-raw-bench share: the scene (N textured 8x8 quads
 * per frame into a 640x480 RGBA8 target, one draw per quad, a texture change every draw, 16
 * textures), its pixel check, the per-frame timing and medians, the same draws through xgd, the
 * allocation count, and main (arguments, interleaved rounds over several N, the report, JSON and
 * an SVG chart). Each bench supplies only its raw-API loop (bench_desc.raw_open/run/close).
 */
#ifndef XGD_BENCH_COMMON_H
#define XGD_BENCH_COMMON_H

#include "xgd.h"

#include <stdint.h>

/* target size, texture count, quad (and texture) size in pixels, most --frames */
enum { W = 640, H = 480, TEX = 16, TS = 8, MAX_FRAMES = 64 };

/* The quads' vertex (xgd's XGD_VERTEX_POSITION_COLOR_TEXTURE layout). */
typedef struct vtx {
    float pos[3];
    uint8_t color[4];
    float uv[2];
} vtx;

/* One path's figures: per-frame seconds, then the per-draw medians and the pixel check. */
typedef struct bench_path {
    double loop[MAX_FRAMES]; /* the draw loop alone (bench_loop_begin/end) */
    double cpu[MAX_FRAMES];  /* recording + submission of the whole frame */
    double wall[MAX_FRAMES]; /* the same, plus waiting for the frame to finish */
    double loop_us, cpu_us, wait_us; /* medians per draw, microseconds (bench_path_finish) */
    int bad;                 /* checked quads with the wrong colour (bench_path_finish) */
    long long allocs;        /* heap allocations inside the draw loops of the timed frames */
    long long faults;        /* page faults inside them (Linux; bench_fault_counting) */
} bench_path;

typedef struct bench_desc {
    const char *name;                  /* program name, in messages and the report */
    xgd_renderer_kind renderer;        /* the renderer the xgd path runs on */
    const char *raw_label, *xgd_label; /* the report's row names */
    /* Makes everything the frames reuse (device, pipeline, textures, buffers for up to
       max_draws quads); the context goes to raw_run and raw_close. */
    void *(*raw_open)(int max_draws);
    /* Draws `draws` quads a frame for one warm-up frame and then `frames` frames, recording
       each with bench_path_frame and bracketing the draw loop with bench_loop_begin/end, and
       ends with bench_path_finish on the last frame's pixels. */
    void (*raw_run)(void *ctx, int draws, int frames, bench_path *p);
    void (*raw_close)(void *ctx);
    /* the other path's short name in the chart's title and the JSON ("raw" when NULL) */
    const char *raw_name;
} bench_desc;

double bench_now_s(void);
/* texture t's colour (every texel) */
void bench_texture_color(int t, uint8_t c[4]);
/* quad i's four vertices (triangle strip), pixel units, a grid of 8x8 cells that wraps */
void bench_quad_vertices(int i, vtx v[4]);
/* frame f's times from its start t0, end of submission t1 and end of waiting t2; the warm-up
   frame (f < 0) is not kept */
void bench_path_frame(bench_path *p, int f, double t0, double t1, double t2);
/* the medians per draw, and the pixel check of the last frame's W x H RGBA8 pixels */
void bench_path_finish(bench_path *p, const uint8_t *rgba, int draws, int frames, const char *who);

/* Brackets frame f's draw loop: its time goes to p->loop[f] and the heap allocations inside
   it (malloc, calloc, realloc of the whole process, glibc only) to p->allocs, when f >= 0. */
void bench_loop_begin(void);
/* 1 where bench_path.faults counts page faults (Linux), else 0. */
int bench_fault_counting(void);
void bench_loop_end(bench_path *p, int f);
/* Whether allocations are counted on this platform. */
int bench_alloc_counting(void);

/* Parses [--draws N[,N...]] [--frames F] [--rounds R] [--json FILE] [--svg FILE], runs the
   raw and the xgd path for every N in R interleaved rounds, prints the report; returns main's
   exit status. */
int bench_main(int argc, char **argv, const bench_desc *d);

#endif
