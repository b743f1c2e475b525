/*
 * bench_common.c - the half of vk-raw-bench and d3d12-raw-bench that does not depend on the raw
 * API (see bench_common.h): the scene, the pixel check, timing, the xgd path and the report.
 *   xgd   the raw loop's draws through the public API on the bench's renderer: xgd_set_texture,
 *         xgd_draw_user_primitives per quad, then xgd_present; a one-pixel readback waits for
 *         the frame.
 * Per draw: the draw loop's CPU time (the ratio's figure: what a draw costs, without the
 * frame's fixed costs), the frame's recording + submission, and the time until the frame
 * finished. Each figure is the median of --frames frames after one warm-up frame; a round runs both paths
 * once for every N (alternating which goes first), and the report gives min / median / max of
 * the rounds, the ratio taken within each round (both paths then saw the same machine load).
 * Allocations are counted by wrapping malloc, calloc and realloc (glibc: the executable's
 * definitions take precedence over libc's for xgd and the drivers too), only inside the draw
 * loops: the raw loop's count is what the driver allocates, xgd's adds its own.
 * --malloc-trim off stops glibc returning the heap's free top to the system (mallopt
 * M_TRIM_THRESHOLD), for both paths alike. Lavapipe allocates each recorded command with malloc
 * (about 335 bytes a draw here) and frees it when the command buffer or pool is reset; when those
 * frees leave the heap's top free, glibc trims it, and the next frame touches the same megabytes
 * afresh: about 8,400 page faults a frame at 100,000 draws, about 10 us each on this project's
 * VMs, which makes a loop 5-7x slower. Whether the top is free depends on where the heap's other
 * blocks happen to lie, so it comes and goes between rounds, in the raw loop and in xgd's alike
 * (README: "Lavapipe's slow rounds"). Since both loops' command pools keep their memory
 * (src/renderers/vulkan/vk_cmd_arena.h), lavapipe's commands no longer reach malloc; the option
 * stays for what else a driver frees.
 */
#define _POSIX_C_SOURCE 200809L

#include "bench_common.h"
#include "bench_time.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <sys/resource.h> /* getrusage: page faults in the draw loops */
#if defined(__GLIBC__)
#include <malloc.h> /* mallopt: --malloc-trim off */
#endif
#endif

/* Under callgrind (valgrind --tool=callgrind --collect-atstart=no, and --instr-atstart=no for a
   faster set-up), each draw loop is collected and dumped by itself, named "raw N" or "xgd N":
   the instructions per draw of both paths, steady where timings on a shared machine are not. */
#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#include <valgrind/callgrind.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#define BENCH_CALLGRIND 1
#endif
#endif
static char loop_label[32];

/* glibc only, and not under a sanitizer, whose runtime owns malloc */
#if defined(__GLIBC__) && !defined(_WIN32) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer) && !__has_feature(memory_sanitizer)
#define BENCH_COUNT_ALLOCS 1
#endif
#else
#define BENCH_COUNT_ALLOCS 1
#endif
#endif

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
    p->loop_us = bench_median(p->loop, frames) * 1e6 / draws;
    p->cpu_us = bench_median(p->cpu, frames) * 1e6 / draws;
    p->wait_us = bench_median(p->wall, frames) * 1e6 / draws;
}

/* ---- allocation counting --------------------------------------------------------------- */

static volatile int alloc_on;
static long long alloc_count;
static double loop_t0;

#ifdef BENCH_COUNT_ALLOCS
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

void *malloc(size_t size)
{
    if (alloc_on) alloc_count++;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    if (alloc_on) alloc_count++;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    if (alloc_on) alloc_count++;
    return __libc_realloc(p, size);
}

int bench_alloc_counting(void) { return 1; }
#else
int bench_alloc_counting(void) { return 0; }
#endif

/* The process's minor page faults so far (first touches of fresh pages: on a VM each costs
   microseconds), or -1 where not counted. */
static long long page_faults(void)
{
#if defined(__linux__)
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) return (long long)ru.ru_minflt;
#endif
    return -1;
}

static long long loop_faults0;

int bench_fault_counting(void) { return page_faults() >= 0; }

void bench_loop_begin(void)
{
    loop_faults0 = page_faults();
    alloc_count = 0;
    alloc_on = 1;
#ifdef BENCH_CALLGRIND
    /* instrumented only inside the loops when run with --instr-atstart=no, which makes the
       set-up (device creation, shader compilation in the drivers) run several times faster */
    if (RUNNING_ON_VALGRIND) {
        CALLGRIND_START_INSTRUMENTATION;
        CALLGRIND_TOGGLE_COLLECT;
    }
#endif
    loop_t0 = bench_clock_s();
}

void bench_loop_end(bench_path *p, int f)
{
    double t = bench_clock_s() - loop_t0;
#ifdef BENCH_CALLGRIND
    if (RUNNING_ON_VALGRIND) {
        CALLGRIND_TOGGLE_COLLECT;
        CALLGRIND_DUMP_STATS_AT(loop_label);
        CALLGRIND_STOP_INSTRUMENTATION;
    }
#endif
    alloc_on = 0;
    long long faults = page_faults() - loop_faults0;
    if (f < 0) return;
    p->allocs += alloc_count;
    p->faults += faults;
    p->loop[f] = t;
}

/* ---- the same draws through xgd ------------------------------------------------------------ */

typedef struct xgd_bench {
    xgd_device *dev;
    xgd_texture *tex[TEX];
    xgd_effect *fx;
    xgd_vertex_declaration *decl;
    uint8_t *pixels;
    char adapter[128];
} xgd_bench;

static xgd_bench *xgd_open(xgd_renderer_kind renderer)
{
    xgd_bench *b = calloc(1, sizeof *b);
    if (!b) exit(1);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = renderer;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.present_interval = XGD_PRESENT_INTERVAL_IMMEDIATE;
    dd.pp.headless = true;
    XGD(xgd_device_create(&dd, &b->dev));
    xgd_device_info info;
    XGD(xgd_device_get_info(b->dev, &info));
    snprintf(b->adapter, sizeof b->adapter, "%s", info.adapter_name ? info.adapter_name : "?");
    for (int t = 0; t < TEX; t++) {
        uint8_t c[4], px[TS * TS * 4];
        bench_texture_color(t, c);
        for (int i = 0; i < TS * TS; i++) memcpy(px + i * 4, c, 4);
        XGD(xgd_texture2d_create(b->dev, &(xgd_texture2d_desc){ .width = TS, .height = TS }, &b->tex[t]));
        XGD(xgd_texture_set_data(b->tex[t], 0, 0, NULL, px, sizeof px));
    }
    XGD(xgd_sprite_effect_create(b->dev, &b->fx));
    b->decl = xgd_vertex_declaration_stock(b->dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    XGD(xgd_set_sampler_state(b->dev, 0, xgd_sampler_state_preset(b->dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    XGD(xgd_set_rasterizer_state(b->dev, xgd_rasterizer_state_preset(b->dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    XGD(xgd_set_depth_stencil_state(b->dev, xgd_depth_stencil_state_preset(b->dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    b->pixels = malloc((size_t)W * H * 4);
    if (!b->pixels) exit(1);
    return b;
}

static void xgd_run(xgd_bench *b, int draws, int frames, bench_path *p)
{
    xgd_device *dev = b->dev;
    uint8_t one[4];
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now_s();
        XGD(xgd_clear_color(dev, XGD_COLOR_BLACK));
        XGD(xgd_effect_apply(b->fx));
        bench_loop_begin();
        for (int i = 0; i < draws; i++) {
            vtx q[4];
            bench_quad_vertices(i, q);
            XGD(xgd_set_texture(dev, 0, b->tex[i % TEX]));
            XGD(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, b->decl));
        }
        bench_loop_end(p, f);
        XGD(xgd_present(dev));
        double t1 = bench_now_s();
        /* a one-pixel readback waits for the frame */
        XGD(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, one, sizeof one));
        double t2 = bench_now_s();
        bench_path_frame(p, f, t0, t1, t2);
    }
    XGD(xgd_get_back_buffer_data(dev, NULL, b->pixels, (size_t)W * H * 4));
    bench_path_finish(p, b->pixels, draws, frames, "xgd");
}

static void xgd_close(xgd_bench *b)
{
    free(b->pixels);
    xgd_effect_destroy(b->fx);
    for (int t = 0; t < TEX; t++) xgd_texture_destroy(b->tex[t]);
    xgd_device_destroy(b->dev);
    free(b);
}

/* ---- rounds, report, JSON and chart ---------------------------------------------------- */

enum { MAX_NS = 8, MAX_ROUNDS = 256 };

/* The core reference (bench_time.h's bench_ref_wide_ns, about a millisecond) is read before and
   after each path's frames of each round, and the slower of the two kept. A round is quiet when
   both paths' readings are within QUIET of the fastest reading of the whole run: the core ran
   both loops at its own speed, not shared with another hardware thread or throttled. The
   ratio over quiet rounds compares the two paths on equal cores; a round where one path ran
   on a shared core and the other did not compares the host, not the paths. Contention that
   starts and ends inside a path's frames is not seen, and on a host contended throughout the
   run's fastest reading is itself slow (H200 machine, session 19: readings of 0.54-0.59 ns on
   a quiet host, 0.68-1.07 on a busy one, where 10 rounds of 189 were quiet: Vulkan 1.16x-1.34x,
   Direct3D 12 1.06x-1.23x). */
#define QUIET 1.10
enum { REF_STEPS = 250000 };

typedef struct bench_row {
    int draws;
    double raw[MAX_ROUNDS], xgd[MAX_ROUNDS], ratio[MAX_ROUNDS]; /* draw-loop us/draw per round */
    double raw_cpu[MAX_ROUNDS], xgd_cpu[MAX_ROUNDS], raw_wait[MAX_ROUNDS], xgd_wait[MAX_ROUNDS];
    long long raw_allocs, xgd_allocs; /* over all rounds' timed frames */
    long long raw_faults, xgd_faults; /* page faults, the same way */
    double raw_ref[MAX_ROUNDS], xgd_ref[MAX_ROUNDS]; /* core reference, ns/step (see QUIET) */
    double quiet[MAX_ROUNDS];                        /* the ratios of the quiet rounds */
    int nquiet;
    int bad;
} bench_row;

typedef struct bench_stat {
    double min, med, max;
} bench_stat;

static bench_stat stat_of(const double *v, int n)
{
    double c[MAX_ROUNDS];
    memcpy(c, v, sizeof *v * (size_t)n);
    bench_stat s;
    s.med = bench_median(c, n); /* sorts c */
    s.min = c[0];
    s.max = c[n - 1];
    return s;
}

static void json_stat(FILE *f, const char *name, bench_stat s, const char *end)
{
    fprintf(f, "\"%s\": { \"min\": %.5f, \"median\": %.5f, \"max\": %.5f }%s", name, s.min, s.med, s.max, end);
}

static int write_json(const char *path, const bench_desc *d, const char *adapter, const bench_row *rows,
                      int nrows, int rounds, int frames, const char *trim)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "{\n  \"bench\": \"%s\",\n  \"raw\": \"%s\",\n  \"xgd\": \"%s\",\n  \"renderer\": \"%s\",\n  \"adapter\": \"%s\",\n"
               "  \"scene\": \"textured 8x8 quads, one draw each, texture change every draw, %dx%d RGBA8\",\n"
               "  \"rounds\": %d,\n  \"frames_per_round\": %d,\n  \"unit\": \"microseconds per draw: "
               "us_per_draw and ratio the draw loop alone, frame_cpu recording + submission of the "
               "frame, with_wait until the frame finished\",\n  \"malloc_trim\": \"%s\",\n  \"allocations_counted\": %s,\n  \"results\": [\n",
            d->name, d->raw_label, d->xgd_label, (d->renderer == XGD_RENDERER_VULKAN ? "vulkan" : "d3d12"), adapter,
            W, H, rounds, frames, trim,
            bench_alloc_counting() ? "true" : "false");
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        double per = (double)r->draws * frames * rounds;
        fprintf(f, "    { \"draws\": %d, ", r->draws);
        json_stat(f, "raw_us_per_draw", stat_of(r->raw, rounds), ", ");
        json_stat(f, "xgd_us_per_draw", stat_of(r->xgd, rounds), ", ");
        json_stat(f, "ratio", stat_of(r->ratio, rounds), ", ");
        json_stat(f, "raw_frame_cpu_us_per_draw", stat_of(r->raw_cpu, rounds), ", ");
        json_stat(f, "xgd_frame_cpu_us_per_draw", stat_of(r->xgd_cpu, rounds), ", ");
        json_stat(f, "raw_with_wait_us_per_draw", stat_of(r->raw_wait, rounds), ", ");
        json_stat(f, "xgd_with_wait_us_per_draw", stat_of(r->xgd_wait, rounds), ", ");
        json_stat(f, "raw_core_reference_ns", stat_of(r->raw_ref, rounds), ", ");
        json_stat(f, "xgd_core_reference_ns", stat_of(r->xgd_ref, rounds), ", ");
        fprintf(f, "\"quiet_rounds\": %d, ", r->nquiet);
        if (r->nquiet > 0) json_stat(f, "quiet_ratio", stat_of(r->quiet, r->nquiet), ", ");
        fprintf(f, "\"raw_allocations_per_draw\": %.4f, \"xgd_allocations_per_draw\": %.4f, ",
                r->raw_allocs / per, r->xgd_allocs / per);
        if (bench_fault_counting())
            fprintf(f, "\"raw_page_faults_per_draw\": %.4f, \"xgd_page_faults_per_draw\": %.4f, ",
                    r->raw_faults / per, r->xgd_faults / per);
        fprintf(f, "\"pixels_ok\": %s }%s\n", r->bad ? "false" : "true", i + 1 < nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

/* A grouped bar chart (raw and xgd median us/draw per N, min..max whiskers, the median ratio
   above each group), plain SVG so the README can show it without a plotting library. */
static int write_svg(const char *path, const bench_desc *d, const char *adapter, const bench_row *rows,
                     int nrows, int rounds, int frames)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    const int cw = 640, ch = 380, left = 60, right = 20, top = 56, bottom = 70;
    double ymax = 0;
    for (int i = 0; i < nrows; i++)
        for (int r = 0; r < rounds; r++) {
            if (rows[i].raw[r] > ymax) ymax = rows[i].raw[r];
            if (rows[i].xgd[r] > ymax) ymax = rows[i].xgd[r];
        }
    /* a round step of 1, 2 or 5 times a power of ten, about 5 ticks */
    double step = 1e-3;
    for (int k = 0; ymax / step > 5; k++) step *= k % 3 == 1 ? 2.5 : 2;
    double top_v = step;
    while (top_v < ymax * 1.05) top_v += step;
    int pw = cw - left - right, ph = ch - top - bottom;
#define YPIX(v) (top + ph - (v) / top_v * ph)
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", cw, ch, cw, ch);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", cw, ch);
    fprintf(f, "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s: CPU us per draw (draw loop), xgd %s vs %s</text>\n",
            left, d->name, (d->renderer == XGD_RENDERER_VULKAN ? "vulkan" : "d3d12"), d->raw_name ? d->raw_name : "raw");
    fprintf(f, "<text x=\"%d\" y=\"38\" fill=\"#555\">%s; median of %d rounds (whiskers min..max), "
               "%d frames each; texture change every draw</text>\n", left, adapter, rounds, frames);
    for (double v = 0; v <= top_v + step / 2; v += step) {
        double y = YPIX(v);
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, left + pw, y, y);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", left - 6, y + 4, v);
    }
    int gw = pw / (nrows > 0 ? nrows : 1), bw = gw / 4;
    for (int i = 0; i < nrows; i++) {
        const bench_row *r = &rows[i];
        bench_stat s[2] = { stat_of(r->raw, rounds), stat_of(r->xgd, rounds) };
        bench_stat q = stat_of(r->ratio, rounds);
        int gx = left + i * gw + gw / 2;
        for (int k = 0; k < 2; k++) {
            int x = gx - bw - 2 + k * (bw + 4);
            double y = YPIX(s[k].med);
            fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>\n", x, y, bw,
                    top + ph - y, k ? "#d9534f" : "#5b7fbf");
            fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x + bw / 2,
                    x + bw / 2, YPIX(s[k].min), YPIX(s[k].max));
            fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%.3f</text>\n",
                    x + bw / 2, YPIX(s[k].max) - 4, s[k].med);
        }
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">N = %d</text>\n", gx, top + ph + 18, r->draws);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">ratio %.2fx (%.2f-%.2f)</text>\n",
                gx, top + ph + 36, q.med, q.min, q.max);
    }
#undef YPIX
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#5b7fbf\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
            left, ch - 18, left + 14, ch - 9, d->raw_label);
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"#d9534f\"/><text x=\"%d\" y=\"%d\">%s</text>\n",
            left + 260, ch - 18, left + 274, ch - 9, d->xgd_label);
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static int parse_ns(const char *s, int *ns)
{
    int n = 0;
    while (*s && n < MAX_NS) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s || v < 1 || v > 10000000) return 0;
        ns[n++] = (int)v;
        s = end;
        if (*s == ',') s++;
        else if (*s) return 0;
    }
    return *s ? 0 : n;
}

int bench_main(int argc, char **argv, const bench_desc *d)
{
    bench_name = d->name;
    int ns[MAX_NS] = { 1000, 10000, 100000 }, nn = 3, frames = 3, rounds = 3;
    const char *json = NULL, *svg = NULL, *trim = "on";
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = v != NULL;
        if (ok && strcmp(a, "--draws") == 0) ok = (nn = parse_ns(v, ns)) > 0;
        else if (ok && strcmp(a, "--frames") == 0) ok = (frames = atoi(v)) >= 1 && frames <= MAX_FRAMES;
        else if (ok && strcmp(a, "--rounds") == 0) ok = (rounds = atoi(v)) >= 1 && rounds <= MAX_ROUNDS;
        else if (ok && strcmp(a, "--json") == 0) json = v;
        else if (ok && strcmp(a, "--svg") == 0) svg = v;
        else if (ok && strcmp(a, "--malloc-trim") == 0) {
            if (strcmp(v, "off") == 0) {
#if defined(__GLIBC__)
                ok = mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
                if (ok) trim = "off";
#else
                ok = 0;
                fprintf(stderr, "%s: --malloc-trim off needs glibc\n", d->name);
#endif
            } else ok = strcmp(v, "on") == 0;
        } else ok = 0;
        if (!ok) {
            fprintf(stderr, "usage: %s [--draws N[,N...] (1..10000000, at most %d)] [--frames 1..%d] "
                            "[--rounds 1..%d] [--json FILE] [--svg FILE] [--malloc-trim on|off]\n"
                            "  defaults: --draws 1000,10000,100000 --frames 3 --rounds 3 --malloc-trim on\n",
                    d->name, MAX_NS, MAX_FRAMES, MAX_ROUNDS);
            return 1;
        }
    }
    int max_draws = 0;
    for (int i = 0; i < nn; i++)
        if (ns[i] > max_draws) max_draws = ns[i];
    static bench_row rows[MAX_NS];
    for (int i = 0; i < nn; i++) rows[i].draws = ns[i];
    /* one device of each kind for the whole run: drivers limit how many a process creates */
    void *raw_ctx = d->raw_open(max_draws);
    xgd_bench *xb = xgd_open(d->renderer);
    double best_ref = 1e30;
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < nn; i++) {
            bench_path raw, xgd;
            memset(&raw, 0, sizeof raw);
            memset(&xgd, 0, sizeof xgd);
            char rl[32], xl[32];
            snprintf(rl, sizeof rl, "raw %d", ns[i]);
            snprintf(xl, sizeof xl, "xgd %d", ns[i]);
            bench_row *row = &rows[i];
            for (int k = 0; k < 2; k++) {
                double before = bench_ref_wide_ns(REF_STEPS), after;
                if (((r + i) % 2 == 0) == (k == 0)) {
                    memcpy(loop_label, rl, sizeof loop_label);
                    d->raw_run(raw_ctx, ns[i], frames, &raw);
                    after = bench_ref_wide_ns(REF_STEPS);
                    row->raw_ref[r] = before > after ? before : after;
                } else {
                    memcpy(loop_label, xl, sizeof loop_label);
                    xgd_run(xb, ns[i], frames, &xgd);
                    after = bench_ref_wide_ns(REF_STEPS);
                    row->xgd_ref[r] = before > after ? before : after;
                }
                if (before < best_ref) best_ref = before;
                if (after < best_ref) best_ref = after;
            }
            row->raw[r] = raw.loop_us;
            row->xgd[r] = xgd.loop_us;
            row->ratio[r] = xgd.loop_us / raw.loop_us;
            row->raw_cpu[r] = raw.cpu_us;
            row->xgd_cpu[r] = xgd.cpu_us;
            row->raw_wait[r] = raw.wait_us;
            row->xgd_wait[r] = xgd.wait_us;
            row->raw_allocs += raw.allocs;
            row->xgd_allocs += xgd.allocs;
            row->raw_faults += raw.faults;
            row->xgd_faults += xgd.faults;
            row->bad |= raw.bad | xgd.bad;
        }
    }
    for (int i = 0; i < nn; i++) {
        bench_row *row = &rows[i];
        for (int r = 0; r < rounds; r++)
            if (row->raw_ref[r] <= best_ref * QUIET && row->xgd_ref[r] <= best_ref * QUIET)
                row->quiet[row->nquiet++] = row->ratio[r];
    }
    char adapter[128];
    memcpy(adapter, xb->adapter, sizeof adapter);
    xgd_close(xb);
    d->raw_close(raw_ctx);

    printf("%s: textured 8x8 quads per frame, texture change per draw, %dx%d RGBA8\n"
           "  %s vs %s on %s; CPU us per draw of the draw loop; min / median / max of %d "
           "interleaved rounds, each the median of %d frames; glibc heap trimming %s\n",
           d->name, W, H, d->xgd_label, d->raw_label, adapter, rounds, frames, trim);
    printf("%8s  %-23s %-23s %-20s %-15s %-15s %-17s %-17s %-15s %s\n", "draws", "raw us/draw", "xgd us/draw",
           "ratio xgd/raw", "allocs/draw", "faults/draw", "frame cpu (med)", "with wait (med)",
           "core ref (med)", "quiet ratio");
    int bad = 0;
    for (int i = 0; i < nn; i++) {
        const bench_row *row = &rows[i];
        bench_stat a = stat_of(row->raw, rounds), b = stat_of(row->xgd, rounds), q = stat_of(row->ratio, rounds);
        bench_stat aw = stat_of(row->raw_wait, rounds), bw = stat_of(row->xgd_wait, rounds);
        bench_stat ac = stat_of(row->raw_cpu, rounds), bc = stat_of(row->xgd_cpu, rounds);
        double per = (double)row->draws * frames * rounds;
        char al[32];
        if (bench_alloc_counting())
            snprintf(al, sizeof al, "%.2f / %.2f", row->raw_allocs / per, row->xgd_allocs / per);
        else
            snprintf(al, sizeof al, "not counted");
        char pf[32];
        if (bench_fault_counting())
            snprintf(pf, sizeof pf, "%.3f / %.3f", row->raw_faults / per, row->xgd_faults / per);
        else
            snprintf(pf, sizeof pf, "not counted");
        char wt[32], qr[40];
        snprintf(wt, sizeof wt, "%.1f / %.1f", aw.med, bw.med);
        if (row->nquiet > 0)
            snprintf(qr, sizeof qr, "%.2f %.2f %.2f (%d of %d)", stat_of(row->quiet, row->nquiet).min,
                     stat_of(row->quiet, row->nquiet).med, stat_of(row->quiet, row->nquiet).max,
                     row->nquiet, rounds);
        else
            snprintf(qr, sizeof qr, "none of %d", rounds);
        printf("%8d  %.3f %.3f %.3f   %.3f %.3f %.3f   %.2f %.2f %.2f     %-15s %-15s %.3f / %.3f   %-17s %.2f / %.2f     %s%s\n",
               row->draws, a.min, a.med, a.max, b.min, b.med, b.max, q.min, q.med, q.max, al, pf, ac.med,
               bc.med, wt, stat_of(row->raw_ref, rounds).med, stat_of(row->xgd_ref, rounds).med, qr,
               row->bad ? "  PIXELS WRONG" : "");
        bad |= row->bad;
    }
    printf("allocs/draw: raw / xgd, heap allocations inside the draw loops per draw (the raw "
           "loop's are the driver's); faults/draw: page faults (first touches of fresh pages) "
           "inside the draw loops per draw; frame cpu: raw / xgd, recording + submission of the whole "
           "frame per draw (xgd's includes clear, apply and present); with wait: until the frame "
           "finished; core ref: raw / xgd, ns a step of bench_ref_wide_ns around each path's frames "
           "(the slower of before and after; it rises when another hardware thread shares the core); "
           "quiet ratio: min / median / max over the rounds where both paths' core ref was within "
           "%.0f%% of the run's fastest\n", (QUIET - 1) * 100);
    printf("pixels: %s\n", bad ? "WRONG" : "ok");
    if (json) {
        if (write_json(json, d, adapter, rows, nn, rounds, frames, trim)) return 1;
        printf("%s\n", json);
    }
    if (svg) {
        if (write_svg(svg, d, adapter, rows, nn, rounds, frames)) return 1;
        printf("%s\n", svg);
    }
    return bad ? 1 : 0;
}
