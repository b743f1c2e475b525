/*
 * xgd-bench - throughput figures for one renderer. Reports, never asserts: timings depend on
 * the machine, and a number is only worth comparing with another run on the same machine.
 *
 *   sprites/s, one texture           SpriteBatch begin..end of N sprites sharing a texture
 *   sprites/s, 16 textures           the same with a texture change every sprite (one draw
 *                                    call per sprite: the batching worst case)
 *                                    Both also as sprites per 16.7 ms frame (60 Hz) beside the
 *                                    targets (1,000,000 and 150,000 on one core), and, where
 *                                    Linux lets a process count its own instructions
 *                                    (perf_event_open), user-space instructions per sprite
 *                                    (xgd, the driver and the bench's loop together).
 *   us per draw call                 N xgd_draw_user_primitives of one small quad, present
 *                                    excluded (recording cost on GPU renderers)
 *   back-buffer readback MB/s        xgd_get_back_buffer_data of the whole back buffer
 *   mip generation, ms per chain     a 1024x1024 mipmapped render target cleared and unbound
 *                                    (which regenerates its levels), then its 1x1 level read;
 *                                    beside it the CPU route without mip generation (level 0
 *                                    read back, each level box-filtered on the CPU and
 *                                    uploaded, the 1x1 level read) and the ratio of the two;
 *                                    and per chain of 8 such targets in a row behind one wait
 *                                    (the generation's own cost, without a wait per chain)
 *
 * Each figure is the median of --repeat runs, timed with clock_gettime(CLOCK_MONOTONIC).
 *
 * usage: xgd-bench [--renderer NAME] [--size WxH] [--sprites N] [--draws N] [--readbacks N]
 *                  [--repeat R] [--json FILE] [--svg FILE] [--sprites-only 1|16|64]
 *                  [--texture-groups auto|off|on] [--sprite-instancing auto|off|on]
 *                  [--sprite-call at|sprite|source|cell|mixed]
 *
 * --svg FILE draws the full run's targets as a chart: each figure as a share of its target
 * (SpriteBatch per frame: 1,000,000 and 150,000; mip generation: 20x the CPU route).
 *
 * --sprites-only T runs only the SpriteBatch scene with T textures (warm-up passes, see
 * warm_sprites, and --repeat timed passes) and prints its figures: a profile of one scene, e.g.
 *   valgrind --tool=callgrind --toggle-collect='xgd_sprite_batch_*' xgd-bench --sprites-only 1
 * collects Begin, Draw and End (with everything they call) and nothing else. 64 textures (a
 * change every sprite among more than a texture group holds) is texture groups' worst case.
 *
 * With --sprites-only the calling thread's reference loops are printed too (bench_time.h's
 * bench_ref_chain_ns before the passes and, right before each pass, it and bench_ref_wide_ns;
 * ref_memset_gbs): what the same process's core and memory did, to tell a slow host or a core
 * shared with another hardware thread from a slow path when runs or passes differ.
 *
 * --texture-groups MODE sets the batch's xgd_sprite_batch_set_texture_groups (default auto).
 * --sprite-call picks the call the sprite scene makes for each sprite: at (default) is XNA's
 * Draw(Texture2D, Vector2, Color), xgd_sprite_batch_draw_at, the call a game drawing the scene
 * makes; sprite is xgd_sprite_batch_draw with the same sprite as an xgd_sprite (the general
 * call, for every other overload); source is XNA's Draw(Texture2D, Vector2, Rectangle?, Color),
 * xgd_sprite_batch_draw_at_source, each sprite a 4x4 cell of its 16x16 texture (a sprite
 * sheet: animation frames, tiles), the cell changing every 4 sprites; cell is the same
 * sprites through xgd_sprite_batch_draw (an xgd_sprite with .source); mixed draws four
 * stretches, a quarter of the sprites each: at, source, at, source (a frame's background,
 * tiles, sprites and text).
 * --sprite-instancing MODE sets its xgd_sprite_batch_set_instancing (default auto; off draws
 * sprites from vertices, to compare).
 *
 * --mips-only times only mip generation, in parts (medians, minima and maxima of --repeat): a
 * round trip alone (a generated target's 1x1 level read), a clear and read of a one-level
 * target (alone, and per clear of 8 in a row), a chain alone, a chain in a row with the calling
 * thread's and the process's CPU time (which holds the driver's own threads), and the CPU route.
 */
#define _POSIX_C_SOURCE 200809L
#if defined(__linux__)
#define _GNU_SOURCE /* syscall() */
#endif

#include "xgd.h"
#include "bench_time.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#define TEXTURES 16
/* --sprites-only 64: a texture change every sprite among more textures than a texture group
   holds (xgd_sprite_batch_set_texture_groups: 16), so every group is 16 sprites */
#define TEXTURES_MAX 64
#define MAX_REPEAT 32
/* SpriteBatch targets, sprites per 16.7 ms frame on one core: one texture, and a texture
   change every sprite */
#define FRAME_S (1.0 / 60.0)
#define TARGET_ONE_TEXTURE 1000000.0
#define MIP_TARGET 20.0 /* mip generation: at least 20x the CPU route (issue 15) */
#define TARGET_TEXTURE_CHANGE 150000.0

static xgd_device *g_dev;

#define CHECK(expr)                                                                        \
    do {                                                                                   \
        xgd_result bench_r_ = (expr);                                                      \
        if (bench_r_ != XGD_OK) {                                                          \
            fprintf(stderr, "xgd-bench:%d: %s failed: %s: %s\n", __LINE__, #expr,          \
                    xgd_result_name(bench_r_), xgd_device_last_error(g_dev));              \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* A deterministic sequence so every run draws the same scene. */
static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* A counter of this thread's user-space instructions, or -1 where the system refuses one
   (other systems, perf_event_paranoid 3, containers without perf events). */
static int instructions_open(void)
{
#if defined(__linux__)
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_HARDWARE;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
#else
    return -1;
#endif
}

/* The counter's value, or 0 without one. */
static uint64_t instructions_read(int fd)
{
#if defined(__linux__)
    uint64_t v = 0;
    if (fd >= 0 && read(fd, &v, sizeof v) == (ssize_t)sizeof v) return v;
#else
    (void)fd;
#endif
    return 0;
}

typedef struct bench {
    xgd_device *dev;
    int width, height;
    int sprites, draws, readbacks, repeat;
    int sprites_only;            /* 0, or the texture count of the one scene to run */
    bool mips_only;              /* --mips-only: the mip figures alone, in parts */
    xgd_sprite_batch *batch;
    xgd_texture *textures[TEXTURES_MAX];
    xgd_vector2 *positions;      /* the scene's sprite positions, made before any timing */
    int counter;                 /* instructions_open's descriptor, or -1 */
    bool sprite_struct;          /* --sprite-call sprite: xgd_sprite_batch_draw */
    bool sprite_source;          /* --sprite-call source: xgd_sprite_batch_draw_at_source */
    bool sprite_cell;            /* --sprite-call cell: those sprites by xgd_sprite_batch_draw */
    bool sprite_mixed;           /* --sprite-call mixed: stretches of at and of source */
} bench;

/* The scene's positions: pseudo-random, inside the back buffer, the same in every run. Made
   once, outside the timed span, as a game's sprite positions are already in memory. */
static xgd_vector2 *make_positions(const bench *b)
{
    xgd_vector2 *p = malloc(sizeof *p * (size_t)b->sprites);
    if (p == NULL) return NULL;
    uint32_t seed = 12345;
    for (int i = 0; i < b->sprites; i++) {
        p[i].x = (float)(next_random(&seed) % (uint32_t)(b->width > 16 ? b->width - 16 : 1));
        p[i].y = (float)(next_random(&seed) % (uint32_t)(b->height > 16 ? b->height - 16 : 1));
    }
    return p;
}

static void make_textures(bench *b)
{
    enum { N = 16 };
    uint8_t px[N * N * 4];
    for (int t = 0; t < TEXTURES_MAX; t++) {
        for (int i = 0; i < N * N; i++) {
            px[i * 4 + 0] = (uint8_t)(t * 4);
            px[i * 4 + 1] = (uint8_t)(255 - t * 4);
            px[i * 4 + 2] = (uint8_t)((i % N) * 16);
            px[i * 4 + 3] = 255;
        }
        CHECK(xgd_texture2d_create(b->dev, &(xgd_texture2d_desc){ .width = N, .height = N },
                                   &b->textures[t]));
        CHECK(xgd_texture_set_data(b->textures[t], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px,
                                   sizeof px));
    }
}

/* The parts of the last time_sprites: Draw's loop and End (wall seconds), the calling thread's
   CPU seconds over both (less than the wall time when the thread slept), and the waits for the
   GPU that the renderer counted in the span (xgd_statistics.gpu_waits). */
static double g_sprites_draw_s, g_sprites_end_s, g_sprites_cpu_s;
static uint64_t g_sprites_waits;
/* Minor page faults of the calling thread in Draw's loop and in End (first touches of fresh
   pages: microseconds each on a VM), -1 where not counted. */
static long long g_sprites_draw_faults, g_sprites_end_faults;

static long long thread_faults(void)
{
#if defined(__linux__)
    struct rusage ru;
    if (getrusage(RUSAGE_THREAD, &ru) == 0) return (long long)ru.ru_minflt;
#endif
    return -1;
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *sprite_call_name(const bench *b)
{
    return b->sprite_mixed    ? "xgd_sprite_batch_draw_at, _at_source, _at, _at_source (a quarter each)"
           : b->sprite_cell   ? "xgd_sprite_batch_draw (.source)"
           : b->sprite_source ? "xgd_sprite_batch_draw_at_source"
           : b->sprite_struct ? "xgd_sprite_batch_draw"
                              : "xgd_sprite_batch_draw_at";
}

/* Seconds for one begin..end of b->sprites sprites; `textures` is 1, TEXTURES or TEXTURES_MAX. *instructions
   gets the user-space instructions of the same span (0 without a counter). */
static double time_sprites(bench *b, int textures, uint64_t *draw_calls, uint64_t *instructions)
{
    xgd_statistics s0, s1;
    const xgd_vector2 *pos = b->positions;
    const int mask = textures - 1; /* a power of two */
    CHECK(xgd_clear_color(b->dev, XGD_COLOR_BLACK));
    CHECK(xgd_device_get_statistics(b->dev, &s0));
    uint64_t i0 = instructions_read(b->counter);
    double c0 = thread_cpu_s();
    long long f0 = thread_faults();
    double t0 = bench_clock_s();
    CHECK(xgd_sprite_batch_begin(b->batch, NULL));
    if (b->sprite_source || b->sprite_cell || b->sprite_mixed) {
        /* each texture a sheet of 4x4 cells of 4x4 texels, a cell a sprite (an animation's
           frames, a tile set) */
        static const xgd_rect cells[16] = {
            { 0, 0, 4, 4 }, { 4, 0, 4, 4 }, { 8, 0, 4, 4 }, { 12, 0, 4, 4 },
            { 0, 4, 4, 4 }, { 4, 4, 4, 4 }, { 8, 4, 4, 4 }, { 12, 4, 4, 4 },
            { 0, 8, 4, 4 }, { 4, 8, 4, 4 }, { 8, 8, 4, 4 }, { 12, 8, 4, 4 },
            { 0, 12, 4, 4 }, { 4, 12, 4, 4 }, { 8, 12, 4, 4 }, { 12, 12, 4, 4 },
        };
        if (b->sprite_mixed) {
            const int quarter = (b->sprites + 3) / 4;
            for (int i = 0; i < b->sprites; i++) {
                if (i / quarter % 2 == 1)
                    CHECK(xgd_sprite_batch_draw_at_source(b->batch, b->textures[i & mask], pos[i],
                                                          &cells[(i >> 2) & 15], XGD_COLOR_WHITE));
                else
                    CHECK(xgd_sprite_batch_draw_at(b->batch, b->textures[i & mask], pos[i],
                                                   XGD_COLOR_WHITE));
            }
        } else if (b->sprite_cell) {
            for (int i = 0; i < b->sprites; i++)
                CHECK(xgd_sprite_batch_draw(b->batch, b->textures[i & mask], &(xgd_sprite){
                    .position = pos[i], .source = &cells[(i >> 2) & 15], .color = XGD_COLOR_WHITE,
                    .scale = { 1, 1 } }));
        } else {
            for (int i = 0; i < b->sprites; i++)
                CHECK(xgd_sprite_batch_draw_at_source(b->batch, b->textures[i & mask], pos[i],
                                                      &cells[(i >> 2) & 15], XGD_COLOR_WHITE));
        }
    } else if (b->sprite_struct) {
        for (int i = 0; i < b->sprites; i++)
            CHECK(xgd_sprite_batch_draw(b->batch, b->textures[i & mask], &(xgd_sprite){
                .position = pos[i], .color = XGD_COLOR_WHITE, .scale = { 1, 1 } }));
    } else {
        for (int i = 0; i < b->sprites; i++)
            CHECK(xgd_sprite_batch_draw_at(b->batch, b->textures[i & mask], pos[i],
                                           XGD_COLOR_WHITE));
    }
    double tm = bench_clock_s();
    long long fm = thread_faults();
    CHECK(xgd_sprite_batch_end(b->batch));
    double t1 = bench_clock_s();
    long long f1 = thread_faults();
    g_sprites_cpu_s = thread_cpu_s() - c0;
    g_sprites_draw_faults = f0 < 0 ? -1 : fm - f0;
    g_sprites_end_faults = f0 < 0 ? -1 : f1 - fm;
    g_sprites_draw_s = tm - t0;
    g_sprites_end_s = t1 - tm;
    *instructions = instructions_read(b->counter) - i0;
    CHECK(xgd_device_get_statistics(b->dev, &s1));
    *draw_calls = s1.draw_calls - s0.draw_calls;
    g_sprites_waits = s1.gpu_waits - s0.gpu_waits;
    CHECK(xgd_present(b->dev));
    return t1 - t0;
}

/* The GB/s of memset over a 64 MiB buffer already written once (the memory path), printed
   beside --sprites-only with bench_time.h's core references, so runs that differ can be
   compared with what the same process's core and memory did. */
static double ref_memset_gbs(void)
{
    const size_t bytes = (size_t)64 << 20;
    unsigned char *p = malloc(bytes);
    if (p == NULL) return 0;
    memset(p, 1, bytes);
    double best = 0;
    for (int k = 0; k < 4; k++) {
        double t0 = bench_clock_s();
        memset(p, k, bytes);
        double t = bench_clock_s() - t0;
        /* read one byte back, so the stores are not dead */
        if (((volatile unsigned char *)p)[bytes / 2] != (unsigned char)k) break;
        if (t > 0 && bytes / t / 1e9 > best) best = bytes / t / 1e9;
    }
    free(p);
    return best;
}

/* Untimed passes of the sprite scene until its memory settles: GPU renderers enlarge their
   upload memory at the Present after a frame had to wait for it (and fresh memory costs page
   faults on first use), so the first frames of a large scene are not the steady state a game
   runs in. At least 2 passes; then until one neither waited nor (by the count) follows a wait,
   at most 12. Returns the passes run. */
static int warm_sprites(bench *b, int textures)
{
    uint64_t calls, ins;
    int n = 0;
    bool quiet = false;
    while (n < 12) {
        (void)time_sprites(b, textures, &calls, &ins);
        n++;
        if (n >= 2 && quiet && g_sprites_waits == 0) break;
        quiet = g_sprites_waits == 0;
    }
    return n;
}

/* Seconds for b->draws user-primitive draws of a 2x2-pixel quad (present excluded). */
static double time_draws(bench *b, xgd_effect *flat, xgd_vertex_declaration *decl)
{
    xgd_vertex_position_color quad[4] = {
        { { 10, 10, 0 }, { 255, 0, 0, 255 } },
        { { 12, 10, 0 }, { 0, 255, 0, 255 } },
        { { 10, 12, 0 }, { 0, 0, 255, 255 } },
        { { 12, 12, 0 }, { 255, 255, 255, 255 } },
    };
    CHECK(xgd_clear_color(b->dev, XGD_COLOR_BLACK));
    CHECK(xgd_set_blend_state(b->dev, NULL));
    CHECK(xgd_set_depth_stencil_state(
        b->dev, xgd_depth_stencil_state_preset(b->dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    CHECK(xgd_set_rasterizer_state(
        b->dev, xgd_rasterizer_state_preset(b->dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    CHECK(xgd_effect_apply(flat));
    double t0 = bench_clock_s();
    for (int i = 0; i < b->draws; i++)
        CHECK(xgd_draw_user_primitives(b->dev, XGD_PRIMITIVE_TRIANGLE_STRIP, quad, 0, 2, decl));
    double t1 = bench_clock_s();
    CHECK(xgd_present(b->dev));
    return t1 - t0;
}

static double time_readback(bench *b, uint8_t *buf, size_t size)
{
    CHECK(xgd_clear_color(b->dev, (xgd_color){ 1, 2, 3, 255 }));
    CHECK(xgd_present(b->dev));
    double t0 = bench_clock_s();
    for (int i = 0; i < b->readbacks; i++)
        CHECK(xgd_get_back_buffer_data(b->dev, NULL, buf, size));
    double t1 = bench_clock_s();
    return t1 - t0;
}

/* ---- mip generation ---------------------------------------------------------------------- */

enum { MIP_SIZE = 1024, MIP_BATCH = 8 };

/* One level of the box rule the renderers' mip generation follows: each texel the rounded
   mean of its 2x2 parent texels, per channel (an edge of 1 repeats its texel). */
static void box_level(const uint8_t *src, int sw, int sh, uint8_t *dst)
{
    int dw = sw > 1 ? sw / 2 : 1, dh = sh > 1 ? sh / 2 : 1;
    for (int y = 0; y < dh; y++) {
        const uint8_t *r0 = src + (size_t)(2 * y < sh ? 2 * y : sh - 1) * (size_t)sw * 4;
        const uint8_t *r1 = src + (size_t)(2 * y + 1 < sh ? 2 * y + 1 : sh - 1) * (size_t)sw * 4;
        for (int x = 0; x < dw; x++) {
            int x0 = (2 * x < sw ? 2 * x : sw - 1) * 4, x1 = (2 * x + 1 < sw ? 2 * x + 1 : sw - 1) * 4;
            for (int c = 0; c < 4; c++)
                dst[((size_t)y * (size_t)dw + (size_t)x) * 4 + (size_t)c] =
                    (uint8_t)((r0[x0 + c] + r0[x1 + c] + r1[x0 + c] + r1[x1 + c] + 2) / 4);
        }
    }
}

/* Seconds for one chain through the device (XNA: a mipmapped render target regenerates its
   levels when it is unbound): bind, clear, unbind, then read the 1x1 level, which waits for
   the GPU. */
static double time_mips_device(bench *b, xgd_texture *rt, int levels, int iter)
{
    uint8_t texel[4];
    double t0 = bench_clock_s();
    CHECK(xgd_set_render_target(b->dev, rt));
    CHECK(xgd_clear_color(b->dev, (xgd_color){ (uint8_t)(iter * 37), 64, 128, 255 }));
    CHECK(xgd_set_render_target(b->dev, NULL));
    CHECK(xgd_texture_get_data(rt, levels - 1, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texel, 4));
    return bench_clock_s() - t0;
}

/* Seconds per chain for MIP_BATCH chains behind one wait: each target bound, cleared and
   unbound in turn (each unbind regenerates that target's levels), then the last one's 1x1
   level read, which waits for all of them (one queue runs them in order). The GPU's cost of a
   chain without a submission and a wait of its own. */
static double time_mips_device_batch(bench *b, xgd_texture **rts, int levels, int iter)
{
    uint8_t texel[4];
    double t0 = bench_clock_s();
    for (int k = 0; k < MIP_BATCH; k++) {
        CHECK(xgd_set_render_target(b->dev, rts[k]));
        CHECK(xgd_clear_color(b->dev, (xgd_color){ (uint8_t)(iter * 37 + k), 64, 128, 255 }));
        CHECK(xgd_set_render_target(b->dev, NULL));
    }
    CHECK(xgd_texture_get_data(rts[MIP_BATCH - 1], levels - 1, XGD_CUBE_MAP_FACE_POSITIVE_X,
                               NULL, texel, 4));
    return (bench_clock_s() - t0) / MIP_BATCH;
}

/* The same chain by the CPU route a program without mip generation takes: level 0 drawn into a
   one-level target and read back, every level box-filtered on the CPU and uploaded into a
   mipmapped texture, then its 1x1 level read (the wait). a and c hold level 0's texels. */
static double time_mips_cpu(bench *b, xgd_texture *flat_rt, xgd_texture *tex, int levels,
                            int iter, uint8_t *a, uint8_t *c)
{
    uint8_t texel[4];
    size_t bytes = (size_t)MIP_SIZE * MIP_SIZE * 4;
    double t0 = bench_clock_s();
    CHECK(xgd_set_render_target(b->dev, flat_rt));
    CHECK(xgd_clear_color(b->dev, (xgd_color){ (uint8_t)(iter * 37), 64, 128, 255 }));
    CHECK(xgd_set_render_target(b->dev, NULL));
    CHECK(xgd_texture_get_data(flat_rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, a, bytes));
    CHECK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, a, bytes));
    int w = MIP_SIZE, h = MIP_SIZE;
    uint8_t *src = a, *dst = c;
    for (int level = 1; level < levels; level++) {
        box_level(src, w, h, dst);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        CHECK(xgd_texture_set_data(tex, level, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, dst,
                                   (size_t)w * (size_t)h * 4));
        uint8_t *t = src;
        src = dst;
        dst = t;
    }
    CHECK(xgd_texture_get_data(tex, levels - 1, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texel, 4));
    return bench_clock_s() - t0;
}

/* process CPU seconds (every thread: the driver's own included) */
static double process_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --mips-only: where a chain's time goes. Seconds of a round trip alone (the 1x1 level of a
   target already generated read back: a submission, a copy and a wait), of the same route
   without generation (a one-level target bound, cleared, unbound and one texel read; and
   MIP_BATCH such clears behind one read, per clear), of a
   chain alone, and of MIP_BATCH chains in a row per chain with the calling thread's and the
   process's CPU time of it. */
typedef struct mips_parts {
    double trip, flat, flat_row, chain, row, row_thread, row_process, cpu_route;
} mips_parts;

static void time_mips_parts(bench *b, xgd_texture *rt, xgd_texture *flat_rt, xgd_texture **rts,
                            xgd_texture *tex, int levels, int iter, uint8_t *a, uint8_t *c,
                            mips_parts *out)
{
    uint8_t texel[4];
    double t0 = bench_clock_s();
    CHECK(xgd_texture_get_data(rt, levels - 1, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texel, 4));
    out->trip = bench_clock_s() - t0;
    t0 = bench_clock_s();
    CHECK(xgd_set_render_target(b->dev, flat_rt));
    CHECK(xgd_clear_color(b->dev, (xgd_color){ (uint8_t)(iter * 37), 64, 128, 255 }));
    CHECK(xgd_set_render_target(b->dev, NULL));
    CHECK(xgd_texture_get_data(flat_rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X,
                               &(xgd_rect){ 0, 0, 1, 1 }, texel, 4));
    out->flat = bench_clock_s() - t0;
    t0 = bench_clock_s();
    for (int k = 0; k < MIP_BATCH; k++) {
        CHECK(xgd_set_render_target(b->dev, flat_rt));
        CHECK(xgd_clear_color(b->dev, (xgd_color){ (uint8_t)(iter * 37 + k), 64, 128, 255 }));
        CHECK(xgd_set_render_target(b->dev, NULL));
    }
    CHECK(xgd_texture_get_data(flat_rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X,
                               &(xgd_rect){ 0, 0, 1, 1 }, texel, 4));
    out->flat_row = (bench_clock_s() - t0) / MIP_BATCH;
    out->chain = time_mips_device(b, rt, levels, iter);
    double th0 = thread_cpu_s(), pr0 = process_cpu_s();
    out->row = time_mips_device_batch(b, rts, levels, iter);
    out->row_thread = (thread_cpu_s() - th0) / MIP_BATCH;
    out->row_process = (process_cpu_s() - pr0) / MIP_BATCH;
    out->cpu_route = time_mips_cpu(b, flat_rt, tex, levels, iter, a, c);
}

/* The targets and buffers the mip figures use. */
typedef struct mip_set {
    xgd_texture *rt, *flat_rt, *tex, *rts[MIP_BATCH];
    int levels;
    uint8_t *a, *c; /* level 0's texels and the CPU route's levels */
} mip_set;

static void mip_set_destroy(mip_set *m)
{
    for (int k = 0; k < MIP_BATCH; k++) xgd_texture_destroy(m->rts[k]);
    free(m->a);
    free(m->c);
    xgd_texture_destroy(m->tex);
    xgd_texture_destroy(m->flat_rt);
    xgd_texture_destroy(m->rt);
}

static bool mip_set_create(bench *b, mip_set *m)
{
    memset(m, 0, sizeof *m);
    const xgd_render_target_desc mipped = { .width = MIP_SIZE, .height = MIP_SIZE, .mipmap = true };
    for (int k = 0; k < MIP_BATCH; k++) CHECK(xgd_render_target2d_create(b->dev, &mipped, &m->rts[k]));
    CHECK(xgd_render_target2d_create(b->dev, &mipped, &m->rt));
    CHECK(xgd_render_target2d_create(
        b->dev, &(xgd_render_target_desc){ .width = MIP_SIZE, .height = MIP_SIZE }, &m->flat_rt));
    CHECK(xgd_texture2d_create(
        b->dev, &(xgd_texture2d_desc){ .width = MIP_SIZE, .height = MIP_SIZE, .mipmap = true }, &m->tex));
    xgd_texture_info ti;
    CHECK(xgd_texture_get_info(m->rt, &ti));
    m->levels = ti.level_count;
    m->a = malloc((size_t)MIP_SIZE * MIP_SIZE * 4);
    m->c = malloc((size_t)MIP_SIZE * MIP_SIZE * 4);
    if (!m->a || !m->c) {
        fprintf(stderr, "xgd-bench: out of memory\n");
        mip_set_destroy(m);
        return false;
    }
    return true;
}

/* ---- the chart ---------------------------------------------------------------------------- */

typedef struct chart_row {
    const char *label;
    double value, target; /* the figure and the target for it, in the same unit */
    const char *unit;
    int decimals;         /* how the figure and the target are written */
} chart_row;

/* One horizontal bar per target: the figure as a share of its target, a line at 1 (the
   target), the figure and the target written beside each bar. Plain SVG, so the README shows
   it without a plotting library. Returns 0, or 1 after printing why the file failed. */
static int write_targets_svg(const char *path, const xgd_device_info *info, const bench *b,
                             const chart_row *rows, int n, double readback_mbs)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return 1;
    }
    const int cw = 720, left = 250, right = 30, top = 60, bar = 22, gap = 18;
    const int ch = top + n * (bar + gap) + 50, pw = cw - left - right;
    /* the scale reaches the largest share, at most 20x (a figure over a zero time is infinite) */
    double xmax = 1.2;
    for (int i = 0; i < n; i++) {
        double share = rows[i].value / rows[i].target * 1.1;
        if (share > xmax) xmax = isfinite(share) && share < 20.0 ? share : 20.0;
    }
    /* the adapter's name as SVG text: XML's special characters left out */
    char adapter[128];
    size_t an = 0;
    for (const char *c = info->adapter_name ? info->adapter_name : "?"; *c && an + 1 < sizeof adapter; c++)
        if (!strchr("<>&\"'", *c)) adapter[an++] = *c;
    adapter[an] = '\0';
#define XPIX(v) (left + (v) / xmax * pw)
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            cw, ch, cw, ch);
    fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", cw, ch);
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">xgd-bench, %s "
               "renderer: each figure as a share of its target</text>\n", info->renderer_name);
    fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555\">%s; %d sprites, %dx%d, median of %d; "
               "back-buffer readback %.0f MB/s</text>\n",
            adapter, b->sprites, b->width, b->height,
            b->repeat, readback_mbs);
    for (int k = 0; k * 0.5 <= xmax; k++) {
        double x = XPIX(k * 0.5);
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"%s\"/>\n", x, x,
                top - 6, top + n * (bar + gap), k == 2 ? "black" : "#ddd");
        fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.1fx</text>\n", x,
                top + n * (bar + gap) + 16, k * 0.5);
    }
    for (int i = 0; i < n; i++) {
        const chart_row *r = &rows[i];
        double share = r->value / r->target;
        double drawn = isfinite(share) && share < xmax ? share : xmax;
        int y = top + i * (bar + gap);
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8,
                y + bar / 2 + 4, r->label);
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n", left,
                y, XPIX(drawn) - left, bar, share >= 1.0 ? "#4a9a5b" : "#d9534f");
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%.*f of %.*f %s (%.2fx)</text>\n",
                left, y + bar + 11, r->decimals, r->value, r->decimals, r->target, r->unit, share);
    }
#undef XPIX
    fprintf(f, "<text x=\"10\" y=\"%d\" fill=\"#555\">green: target met; the per-draw targets "
               "are vk-raw-bench's and d3d12-raw-bench's charts</text>\n", ch - 8);
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        perror(path);
        return 1;
    }
    return 0;
}

static int positive_arg(const char *opt, const char *val, int max)
{
    char *end;
    long v = strtol(val, &end, 10);
    if (*end || v < 1 || v > max) {
        fprintf(stderr, "xgd-bench: bad %s '%s' (1..%d)\n", opt, val, max);
        exit(1);
    }
    return (int)v;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: xgd-bench [--renderer NAME] [--size WxH] [--sprites N] [--draws N]\n"
               "                 [--readbacks N] [--repeat R] [--json FILE] [--svg FILE]\n"
               "                 [--sprites-only 1|16|64] [--texture-groups auto|off|on]\n"
               "                 [--sprite-instancing auto|off|on] [--sprite-call at|sprite|source|cell|mixed]\n"
               "                 [--mips-only]\n"
               "  defaults: 640x360, 10000 sprites, 10000 draws, 50 readbacks, 3 repeats\n");
}

int main(int argc, char **argv)
{
    const char *renderer = NULL, *json = NULL, *svg = NULL;
    xgd_sprite_texture_groups groups = XGD_SPRITE_TEXTURE_GROUPS_AUTO;
    xgd_sprite_instancing instancing = XGD_SPRITE_INSTANCING_AUTO;
    bench b = { .width = 640, .height = 360, .sprites = 10000, .draws = 10000, .readbacks = 50,
                .repeat = 3, .counter = -1 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--mips-only") == 0) {
            b.mips_only = true;
            continue;
        }
        if (!val) {
            fprintf(stderr, "xgd-bench: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 1;
        }
        i++;
        if (strcmp(a, "--renderer") == 0) {
            renderer = val;
        } else if (strcmp(a, "--size") == 0) {
            if (sscanf(val, "%dx%d", &b.width, &b.height) != 2 || b.width < 16 ||
                b.height < 16 || b.width > 8192 || b.height > 8192) {
                fprintf(stderr, "xgd-bench: bad --size '%s' (WxH, 16..8192)\n", val);
                return 1;
            }
        } else if (strcmp(a, "--sprites") == 0) {
            b.sprites = positive_arg(a, val, 10000000);
        } else if (strcmp(a, "--draws") == 0) {
            b.draws = positive_arg(a, val, 10000000);
        } else if (strcmp(a, "--readbacks") == 0) {
            b.readbacks = positive_arg(a, val, 100000);
        } else if (strcmp(a, "--repeat") == 0) {
            b.repeat = positive_arg(a, val, MAX_REPEAT);
        } else if (strcmp(a, "--sprites-only") == 0) {
            b.sprites_only = positive_arg(a, val, TEXTURES_MAX);
            if (b.sprites_only != 1 && b.sprites_only != TEXTURES && b.sprites_only != TEXTURES_MAX) {
                fprintf(stderr, "xgd-bench: bad --sprites-only '%s' (1, %d or %d)\n", val, TEXTURES,
                        TEXTURES_MAX);
                return 1;
            }
        } else if (strcmp(a, "--texture-groups") == 0) {
            if (strcmp(val, "auto") == 0) groups = XGD_SPRITE_TEXTURE_GROUPS_AUTO;
            else if (strcmp(val, "off") == 0) groups = XGD_SPRITE_TEXTURE_GROUPS_OFF;
            else if (strcmp(val, "on") == 0) groups = XGD_SPRITE_TEXTURE_GROUPS_ON;
            else {
                fprintf(stderr, "xgd-bench: bad --texture-groups '%s' (auto, off or on)\n", val);
                return 1;
            }
        } else if (strcmp(a, "--sprite-instancing") == 0) {
            if (strcmp(val, "auto") == 0) instancing = XGD_SPRITE_INSTANCING_AUTO;
            else if (strcmp(val, "off") == 0) instancing = XGD_SPRITE_INSTANCING_OFF;
            else if (strcmp(val, "on") == 0) instancing = XGD_SPRITE_INSTANCING_ON;
            else {
                fprintf(stderr, "xgd-bench: bad --sprite-instancing '%s' (auto, off or on)\n",
                        val);
                return 1;
            }
        } else if (strcmp(a, "--sprite-call") == 0) {
            b.sprite_struct = b.sprite_source = b.sprite_cell = b.sprite_mixed = false;
            if (strcmp(val, "at") == 0) {}
            else if (strcmp(val, "sprite") == 0) b.sprite_struct = true;
            else if (strcmp(val, "source") == 0) b.sprite_source = true;
            else if (strcmp(val, "cell") == 0) b.sprite_cell = true;
            else if (strcmp(val, "mixed") == 0) b.sprite_mixed = true;
            else {
                fprintf(stderr, "xgd-bench: bad --sprite-call '%s' (at, sprite, source, cell or mixed)\n", val);
                return 1;
            }
        } else if (strcmp(a, "--json") == 0) {
            json = val;
        } else if (strcmp(a, "--svg") == 0) {
            svg = val;
        } else {
            fprintf(stderr, "xgd-bench: unknown option '%s'\n", a);
            usage(stderr);
            return 1;
        }
    }

    xgd_device_desc dd = { .pp = { .back_buffer_width = b.width, .back_buffer_height = b.height,
                                   .depth_stencil_format = XGD_DEPTH_FORMAT_NONE,
                                   .present_interval = XGD_PRESENT_INTERVAL_IMMEDIATE,
                                   .headless = true },
                           .context_recovery = true };
    if (renderer) {
        dd.renderer = xgd_renderer_from_name(renderer);
        if (dd.renderer == XGD_RENDERER_COUNT) {
            fprintf(stderr, "xgd-bench: unknown renderer '%s'\n", renderer);
            return 1;
        }
    }
    CHECK(xgd_device_create(&dd, &b.dev));
    g_dev = b.dev;
    xgd_device_info info;
    CHECK(xgd_device_get_info(b.dev, &info));
    CHECK(xgd_sprite_batch_create(b.dev, &b.batch));
    CHECK(xgd_sprite_batch_set_texture_groups(b.batch, groups));
    CHECK(xgd_sprite_batch_set_instancing(b.batch, instancing));
    make_textures(&b);
    b.positions = make_positions(&b);
    if (b.positions == NULL) {
        fprintf(stderr, "xgd-bench: out of memory\n");
        return 1;
    }

    xgd_effect *flat;
    CHECK(xgd_basic_effect_create(b.dev, &flat));
    xgd_basic_effect_params p;
    CHECK(xgd_basic_effect_get(flat, &p));
    p.vertex_color_enabled = true;
    p.projection = xgd_matrix_create_orthographic_off_center(0, (float)b.width, (float)b.height,
                                                             0, 0, 1);
    CHECK(xgd_basic_effect_set(flat, &p));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(b.dev, XGD_VERTEX_POSITION_COLOR);
    if (!decl) {
        fprintf(stderr, "xgd-bench: no stock declaration: %s\n", xgd_device_last_error(b.dev));
        return 1;
    }
    size_t rb_size = (size_t)b.width * (size_t)b.height * 4;
    uint8_t *rb = malloc(rb_size);
    if (!rb) {
        fprintf(stderr, "xgd-bench: out of memory\n");
        return 1;
    }

    double one[MAX_REPEAT], many[MAX_REPEAT], draw[MAX_REPEAT], readt[MAX_REPEAT];
    double ins_one[MAX_REPEAT], ins_many[MAX_REPEAT];
    uint64_t calls_one = 0, calls_many = 0, ins = 0;
    b.counter = instructions_open();
    if (b.mips_only) {
        mip_set m;
        if (!mip_set_create(&b, &m)) return 1;
        mips_parts parts[MAX_REPEAT];
        time_mips_parts(&b, m.rt, m.flat_rt, m.rts, m.tex, m.levels, 0, m.a, m.c, &parts[0]);
        for (int r = 0; r < b.repeat; r++)
            time_mips_parts(&b, m.rt, m.flat_rt, m.rts, m.tex, m.levels, r + 1, m.a, m.c, &parts[r]);
        mip_set_destroy(&m);
        static const struct {
            const char *label;
            size_t off;
        } rows[] = {
            { "round trip (1x1 level read alone)", offsetof(mips_parts, trip) },
            { "clear and read, no generation", offsetof(mips_parts, flat) },
            { "clear and read in a row, no generation", offsetof(mips_parts, flat_row) },
            { "chain alone", offsetof(mips_parts, chain) },
            { "chain in a row, wall", offsetof(mips_parts, row) },
            { "chain in a row, calling thread CPU", offsetof(mips_parts, row_thread) },
            { "chain in a row, process CPU", offsetof(mips_parts, row_process) },
            { "CPU route", offsetof(mips_parts, cpu_route) },
        };
        printf("xgd-bench: %s renderer (%s), mip generation of %dx%d (%d levels), median of %d\n",
               info.renderer_name, info.adapter_name ? info.adapter_name : "?", MIP_SIZE, MIP_SIZE,
               m.levels, b.repeat);
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
            double v[MAX_REPEAT], lo = 1e30, hi = 0;
            for (int r = 0; r < b.repeat; r++) {
                memcpy(&v[r], (const char *)&parts[r] + rows[i].off, sizeof(double));
                lo = v[r] < lo ? v[r] : lo;
                hi = v[r] > hi ? v[r] : hi;
            }
            printf("%-44s %10.4f  ms (min %.4f, max %.4f)\n", rows[i].label,
                   bench_median(v, b.repeat) * 1e3, lo * 1e3, hi * 1e3);
        }
        goto done;
    }
    if (b.sprites_only != 0) {
        uint64_t calls = 0;
        double draw_part[MAX_REPEAT], end_part[MAX_REPEAT], cpu[MAX_REPEAT];
        double draw_faults[MAX_REPEAT], end_faults[MAX_REPEAT];
        uint64_t waits = 0;
        double ref_ns = bench_ref_chain_ns(20000000), ref_gbs = ref_memset_gbs();
        double pass_chain[MAX_REPEAT], pass_wide[MAX_REPEAT];
        int warm = warm_sprites(&b, b.sprites_only);
        for (int r = 0; r < b.repeat; r++) {
            /* about 2 ms each, right before the pass */
            pass_chain[r] = bench_ref_chain_ns(1000000);
            pass_wide[r] = bench_ref_wide_ns(250000);
            one[r] = time_sprites(&b, b.sprites_only, &calls, &ins);
            ins_one[r] = (double)ins / b.sprites;
            draw_part[r] = g_sprites_draw_s;
            end_part[r] = g_sprites_end_s;
            cpu[r] = g_sprites_cpu_s;
            draw_faults[r] = (double)g_sprites_draw_faults;
            end_faults[r] = (double)g_sprites_end_faults;
            waits += g_sprites_waits;
        }
        double per_s = b.sprites / bench_median(one, b.repeat);
        printf("xgd-bench: %s renderer, %d sprites, %d texture%s, %s, median of %d (after %d "
               "warm-up passes)\n",
               info.renderer_name, b.sprites, b.sprites_only, b.sprites_only > 1 ? "s" : "",
               sprite_call_name(&b), b.repeat,
               warm);
        /* in the order run (the medians below sort their arrays) */
        printf("%-44s ", "SpriteBatch, each pass (Draw+End ns/sprite)");
        for (int r = 0; r < b.repeat; r++)
            printf(" %.1f+%.1f", draw_part[r] * 1e9 / b.sprites, end_part[r] * 1e9 / b.sprites);
        printf("\n");
        printf("%-44s %14.0f  sprites/s (%llu draw calls)\n", "SpriteBatch", per_s,
               (unsigned long long)calls);
        double lo = one[0], hi = one[0];
        for (int r = 1; r < b.repeat; r++) {
            if (one[r] < lo) lo = one[r];
            if (one[r] > hi) hi = one[r];
        }
        printf("%-44s %14.0f  sprites/16.7 ms frame (slowest pass %.0f, fastest %.0f)\n",
               "SpriteBatch, per frame", per_s * FRAME_S, b.sprites / hi * FRAME_S,
               b.sprites / lo * FRAME_S);
        printf("%-44s %14.2f  ns/sprite (Draw calls %.2f, End %.2f; medians)\n", "SpriteBatch, wall",
               bench_median(one, b.repeat) * 1e9 / b.sprites,
               bench_median(draw_part, b.repeat) * 1e9 / b.sprites,
               bench_median(end_part, b.repeat) * 1e9 / b.sprites);
        printf("%-44s %14.2f  ns/sprite (less than wall: the thread slept)\n",
               "SpriteBatch, thread CPU time", bench_median(cpu, b.repeat) * 1e9 / b.sprites);
        printf("%-44s %14llu  in the %d timed spans (xgd_statistics.gpu_waits)\n",
               "SpriteBatch, waits for the GPU", (unsigned long long)waits, b.repeat);
        if (g_sprites_draw_faults >= 0)
            printf("%-44s %14.4f  page faults/sprite (Draw calls %.4f, End %.4f; medians)\n",
                   "SpriteBatch, calling thread",
                   (bench_median(draw_faults, b.repeat) + bench_median(end_faults, b.repeat)) /
                       b.sprites,
                   bench_median(draw_faults, b.repeat) / b.sprites,
                   bench_median(end_faults, b.repeat) / b.sprites);
        if (b.counter >= 0)
            printf("%-44s %14.0f  instructions/sprite\n", "SpriteBatch",
                   bench_median(ins_one, b.repeat));
        printf("%-44s %14.3f  ns/step (a dependent xorshift chain, before the passes)\n",
               "CPU reference, integer chain", ref_ns);
        printf("%-44s %14.1f  GB/s (memset of 64 MiB, best of 4)\n", "CPU reference, streaming writes",
               ref_gbs);
        printf("%-44s ", "CPU reference before each pass (1 / 8 chains)");
        for (int r = 0; r < b.repeat; r++) printf(" %.2f/%.2f", pass_chain[r], pass_wide[r]);
        printf("  ns/step\n");
        goto done;
    }
    /* Untimed warm-up passes of each (warm_sprites) so first-use allocations and the upload
       memory's growth are not measured. */
    (void)warm_sprites(&b, 1);
    (void)warm_sprites(&b, TEXTURES);
    uint64_t waits_one = 0, waits_many = 0;
    for (int r = 0; r < b.repeat; r++) {
        one[r] = time_sprites(&b, 1, &calls_one, &ins);
        ins_one[r] = (double)ins / b.sprites;
        waits_one += g_sprites_waits;
        many[r] = time_sprites(&b, TEXTURES, &calls_many, &ins);
        ins_many[r] = (double)ins / b.sprites;
        waits_many += g_sprites_waits;
        draw[r] = time_draws(&b, flat, decl);
        readt[r] = time_readback(&b, rb, rb_size);
    }
    /* mip generation against the CPU route, medians of --repeat chains after one of each */
    double mips_dev[MAX_REPEAT], mips_cpu[MAX_REPEAT], mips_batch[MAX_REPEAT];
    {
        mip_set m;
        if (!mip_set_create(&b, &m)) return 1;
        (void)time_mips_device(&b, m.rt, m.levels, 0);
        (void)time_mips_cpu(&b, m.flat_rt, m.tex, m.levels, 0, m.a, m.c);
        (void)time_mips_device_batch(&b, m.rts, m.levels, 0);
        for (int r = 0; r < b.repeat; r++) {
            mips_dev[r] = time_mips_device(&b, m.rt, m.levels, r + 1);
            mips_cpu[r] = time_mips_cpu(&b, m.flat_rt, m.tex, m.levels, r + 1, m.a, m.c);
            mips_batch[r] = time_mips_device_batch(&b, m.rts, m.levels, r + 1);
        }
        mip_set_destroy(&m);
    }
    double mips_dev_ms = bench_median(mips_dev, b.repeat) * 1e3;
    double mips_cpu_ms = bench_median(mips_cpu, b.repeat) * 1e3;
    double mips_batch_ms = bench_median(mips_batch, b.repeat) * 1e3;

    double sprites_one = b.sprites / bench_median(one, b.repeat);
    double sprites_many = b.sprites / bench_median(many, b.repeat);
    double frame_one = sprites_one * FRAME_S, frame_many = sprites_many * FRAME_S;
    double per_sprite_one = bench_median(ins_one, b.repeat);
    double per_sprite_many = bench_median(ins_many, b.repeat);
    double us_per_draw = bench_median(draw, b.repeat) * 1e6 / b.draws;
    double readback_mbs = (double)rb_size * b.readbacks / 1e6 / bench_median(readt, b.repeat);

    printf("xgd-bench: %s renderer (%s), %dx%d, %d sprites (%s), %d draws, %d readbacks, "
           "median of %d\n",
           info.renderer_name, info.adapter_name ? info.adapter_name : "?", b.width, b.height,
           b.sprites, sprite_call_name(&b),
           b.draws, b.readbacks, b.repeat);
    printf("%-44s %14s  %s\n", "measure", "value", "unit");
    printf("%-44s %14.0f  sprites/s (%llu draw calls)\n", "SpriteBatch, one texture", sprites_one,
           (unsigned long long)calls_one);
    printf("%-44s %14.0f  sprites/s (%llu draw calls)\n", "SpriteBatch, texture change per sprite",
           sprites_many, (unsigned long long)calls_many);
    printf("%-44s %14.0f  sprites/16.7 ms frame (target %.0f: %.2fx)\n",
           "SpriteBatch, one texture, per frame", frame_one, TARGET_ONE_TEXTURE,
           frame_one / TARGET_ONE_TEXTURE);
    printf("%-44s %14.0f  sprites/16.7 ms frame (target %.0f: %.2fx)\n",
           "SpriteBatch, texture change, per frame", frame_many, TARGET_TEXTURE_CHANGE,
           frame_many / TARGET_TEXTURE_CHANGE);
    if (b.counter >= 0) {
        printf("%-44s %14.0f  instructions/sprite (user space: xgd + driver + loop)\n",
               "SpriteBatch, one texture", per_sprite_one);
        printf("%-44s %14.0f  instructions/sprite (user space: xgd + driver + loop)\n",
               "SpriteBatch, texture change per sprite", per_sprite_many);
    } else {
        printf("%-44s %14s  (no instruction counter: perf_event_open refused)\n",
               "SpriteBatch, instructions per sprite", "n/a");
    }
    printf("%-44s %14llu  one texture, %llu texture change (all %d timed runs)\n",
           "SpriteBatch, waits for the GPU", (unsigned long long)waits_one,
           (unsigned long long)waits_many, b.repeat);
    printf("%-44s %14.3f  us/draw\n", "draw_user_primitives, one quad (no present)", us_per_draw);
    printf("%-44s %14.1f  MB/s\n", "back-buffer readback", readback_mbs);
    printf("%-44s %14.3f  ms per %dx%d chain (CPU route %.3f ms: %.1fx)\n",
           "mip generation (render target unbound)", mips_dev_ms, MIP_SIZE, MIP_SIZE, mips_cpu_ms,
           mips_cpu_ms / mips_dev_ms);
    printf("%-44s %14.3f  ms per chain, %d chains behind one wait (CPU route: %.1fx)\n",
           "mip generation, chains in a row", mips_batch_ms, MIP_BATCH, mips_cpu_ms / mips_batch_ms);

    if (svg) {
        const chart_row rows[] = {
            { "SpriteBatch, one texture", frame_one, TARGET_ONE_TEXTURE, "sprites a frame", 0 },
            { "SpriteBatch, texture change", frame_many, TARGET_TEXTURE_CHANGE, "sprites a frame", 0 },
            { "mip generation, one chain", mips_cpu_ms / mips_dev_ms, MIP_TARGET, "x the CPU route", 1 },
            { "mip generation, 8 in a row", mips_cpu_ms / mips_batch_ms, MIP_TARGET, "x the CPU route", 1 },
        };
        if (write_targets_svg(svg, &info, &b, rows, (int)(sizeof rows / sizeof rows[0]), readback_mbs))
            return 1;
        printf("%s\n", svg);
    }

    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) {
            perror(json);
            return 1;
        }
        fprintf(f,
                "{\n"
                "  \"renderer\": \"%s\",\n"
                "  \"width\": %d,\n"
                "  \"height\": %d,\n"
                "  \"sprites\": %d,\n"
                "  \"sprite_call\": \"%s\",\n"
                "  \"draws\": %d,\n"
                "  \"readbacks\": %d,\n"
                "  \"repeat\": %d,\n"
                "  \"sprites_per_second_one_texture\": %.1f,\n"
                "  \"sprites_per_second_texture_change\": %.1f,\n"
                "  \"sprites_per_frame_one_texture\": %.1f,\n"
                "  \"sprites_per_frame_texture_change\": %.1f,\n"
                "  \"sprites_per_frame_target_one_texture\": %.0f,\n"
                "  \"sprites_per_frame_target_texture_change\": %.0f,\n"
                "  \"instructions_per_sprite_one_texture\": %.1f,\n"
                "  \"instructions_per_sprite_texture_change\": %.1f,\n"
                "  \"draw_calls_one_texture\": %llu,\n"
                "  \"draw_calls_texture_change\": %llu,\n"
                "  \"microseconds_per_draw\": %.4f,\n"
                "  \"gpu_waits_sprites_one_texture\": %llu,\n"
                "  \"gpu_waits_sprites_texture_change\": %llu,\n"
                "  \"readback_megabytes_per_second\": %.1f,\n"
                "  \"mip_chain_milliseconds\": %.4f,\n"
                "  \"mip_chain_cpu_route_milliseconds\": %.4f,\n"
                "  \"mip_generation_speedup_over_cpu_route\": %.2f,\n"
                "  \"mip_chain_in_a_row_milliseconds\": %.4f,\n"
                "  \"mip_chains_in_a_row\": %d,\n"
                "  \"mip_generation_in_a_row_speedup_over_cpu_route\": %.2f\n"
                "}\n",
                info.renderer_name, b.width, b.height, b.sprites,
                sprite_call_name(&b), b.draws,
                b.readbacks, b.repeat,
                sprites_one, sprites_many, frame_one, frame_many, TARGET_ONE_TEXTURE,
                TARGET_TEXTURE_CHANGE, b.counter >= 0 ? per_sprite_one : -1.0,
                b.counter >= 0 ? per_sprite_many : -1.0, (unsigned long long)calls_one,
                (unsigned long long)calls_many, us_per_draw, (unsigned long long)waits_one,
                (unsigned long long)waits_many, readback_mbs, mips_dev_ms, mips_cpu_ms,
                mips_cpu_ms / mips_dev_ms, mips_batch_ms, MIP_BATCH, mips_cpu_ms / mips_batch_ms);
        if (fclose(f) != 0) {
            perror(json);
            return 1;
        }
        printf("%s\n", json);
    }

done:
#if defined(__linux__)
    if (b.counter >= 0) close(b.counter);
#endif
    free(rb);
    free(b.positions);
    xgd_effect_destroy(flat);
    for (int t = 0; t < TEXTURES_MAX; t++) xgd_texture_destroy(b.textures[t]);
    xgd_sprite_batch_destroy(b.batch);
    xgd_device_destroy(b.dev);
    return 0;
}
