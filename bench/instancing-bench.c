/*
 * instancing-bench - the cost of drawing the same 1,000 objects (small quads, each with its
 * own transform and colour) instanced and not, through one user effect (fx_writer.c's
 * instancing effect: per-instance matrix in TEXCOORD1..4, colour in COLOR1):
 *
 *   instanced       one xgd_draw_instanced_primitives of N instances a frame
 *   non-instanced   N xgd_draw_indexed_primitives a frame, each after xgd_set_vertex_buffers
 *                   points the per-instance binding at the object's element (vertex offset i),
 *                   which a non-instanced draw reads as its only instance
 *
 * Reported per path: the median over --frames frames of the submission time (CPU) and of the
 * frame including the wait for its pixels (a 1x1 back-buffer read), per object in
 * microseconds, and the ratio non-instanced / instanced. Both paths' last frames are checked
 * pixel by pixel against the rule (every quad its colour); a mismatch exits 1. Reports, never
 * asserts timings.
 *
 * usage: instancing-bench [--renderer NAME] [--objects N] [--frames F]
 */
#define _POSIX_C_SOURCE 200809L

#include "xgd.h"
#include "bench_device.h"
#include "fx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 4, SIDE = 3, COLS = 64, MAX_FRAMES = 200 };

typedef struct instance {
    float m[4][4];
    xgd_color color;
} instance;

static int g_w, g_h;

static xgd_color object_color(int i)
{
    return (xgd_color){ (uint8_t)(5 + 25 * (i % 10)), (uint8_t)(5 + 25 * (i / 10 % 10)),
                        (uint8_t)(5 + 25 * (i / 100 % 10)), 255 };
}

static void object_matrix(int i, float m[4][4])
{
    int x0 = i % COLS * CELL, y0 = i / COLS * CELL;
    memset(m, 0, sizeof(float) * 16);
    m[0][0] = 2.0f * SIDE / (float)g_w;
    m[1][1] = -2.0f * SIDE / (float)g_h;
    m[3][0] = 2.0f * (float)x0 / (float)g_w - 1.0f;
    m[3][1] = 1.0f - 2.0f * (float)y0 / (float)g_h;
    m[3][3] = 1.0f;
}

static int fail(xgd_device *dev, const char *what, xgd_result r)
{
    return bench_fail("instancing-bench", dev, what, r);
}

/* quads whose pixels are not their colour in the last frame */
static int check_pixels(xgd_device *dev, int n)
{
    uint8_t *px = malloc((size_t)g_w * (size_t)g_h * 4);
    if (px == NULL) return n;
    xgd_rect all = { 0, 0, g_w, g_h };
    if (xgd_get_back_buffer_data(dev, &all, px, (size_t)g_w * (size_t)g_h * 4) != XGD_OK) {
        free(px);
        return n;
    }
    int bad = 0;
    for (int i = 0; i < n; i++) {
        xgd_color c = object_color(i);
        int x0 = i % COLS * CELL, y0 = i / COLS * CELL;
        bool ok = true;
        for (int y = y0; y < y0 + SIDE && ok; y++)
            for (int x = x0; x < x0 + SIDE && ok; x++) {
                const uint8_t *p = px + ((size_t)y * (size_t)g_w + (size_t)x) * 4;
                ok = abs(p[0] - c.r) <= 1 && abs(p[1] - c.g) <= 1 && abs(p[2] - c.b) <= 1;
            }
        bad += !ok;
    }
    free(px);
    return bad;
}

int main(int argc, char **argv)
{
    const char *renderer = NULL;
    int n = 1000, frames = 30;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--renderer") == 0 && val) renderer = argv[++i];
        else if (strcmp(argv[i], "--objects") == 0 && val) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && val) frames = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: instancing-bench [--renderer NAME] [--objects N] [--frames F]\n");
            return 2;
        }
    }
    if (n < 1 || n > 100000 || frames < 1 || frames > MAX_FRAMES) {
        fprintf(stderr, "instancing-bench: --objects 1..100000, --frames 1..%d\n", MAX_FRAMES);
        return 2;
    }
    g_w = COLS * CELL;
    g_h = (n + COLS - 1) / COLS * CELL;
    xgd_device *dev = NULL;
    int status = bench_device_open("instancing-bench", renderer, g_w, g_h, &dev);
    if (status != 0) return status;
    xgd_result r;
    char err[256] = "";
    size_t size = 0;
    uint8_t *fx = fxw_instancing(&size, err, sizeof err);
    if (fx == NULL) {
        fprintf(stderr, "instancing-bench: effect: %s\n", err);
        return 1;
    }
    xgd_effect *effect = NULL;
    if ((r = xgd_effect_create(dev, fx, size, &effect)) != XGD_OK) return fail(dev, "effect", r);
    const xgd_vertex_element quad_el[] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 } };
    const xgd_vertex_element inst_el[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 1 },
        { 16, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 2 },
        { 32, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 3 },
        { 48, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 4 },
        { 64, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 } };
    xgd_vertex_declaration *qd = NULL, *id = NULL;
    if ((r = xgd_vertex_declaration_create(dev, quad_el, 1, 0, &qd)) != XGD_OK ||
        (r = xgd_vertex_declaration_create(dev, inst_el, 5, 0, &id)) != XGD_OK)
        return fail(dev, "declarations", r);
    const xgd_vector3 quad[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    instance *inst = calloc((size_t)n, sizeof *inst);
    if (inst == NULL) return 1;
    for (int i = 0; i < n; i++) {
        object_matrix(i, inst[i].m);
        inst[i].color = object_color(i);
    }
    xgd_vertex_buffer *qvb = NULL, *ivb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_vertex_buffer_desc qdesc = { qd, 4, false, false }, idesc = { id, n, false, false };
    xgd_index_buffer_desc ibd = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    if ((r = xgd_vertex_buffer_create(dev, &qdesc, &qvb)) != XGD_OK ||
        (r = xgd_vertex_buffer_create(dev, &idesc, &ivb)) != XGD_OK ||
        (r = xgd_index_buffer_create(dev, &ibd, &ib)) != XGD_OK ||
        (r = xgd_vertex_buffer_set_data(qvb, 0, quad, sizeof quad, XGD_SET_DATA_NONE)) != XGD_OK ||
        (r = xgd_vertex_buffer_set_data(ivb, 0, inst, sizeof *inst * (size_t)n, XGD_SET_DATA_NONE)) != XGD_OK ||
        (r = xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE)) != XGD_OK ||
        (r = xgd_set_indices(dev, ib)) != XGD_OK)
        return fail(dev, "buffers", r);
    if ((r = xgd_effect_pass_apply(effect, 0, 0)) != XGD_OK) return fail(dev, "apply", r);

    double cpu[2][MAX_FRAMES], wall[2][MAX_FRAMES];
    int bad[2] = { 0, 0 };
    for (int path = 0; path < 2; path++) {
        for (int f = -1; f < frames; f++) { /* frame -1 warms up (pipelines, uploads) */
            double t0 = bench_clock_s();
            if ((r = xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 })) != XGD_OK) return fail(dev, "clear", r);
            if (path == 0) {
                xgd_vertex_buffer_binding b[2] = { { qvb, 0, 0 }, { ivb, 0, 1 } };
                if ((r = xgd_set_vertex_buffers(dev, b, 2)) != XGD_OK ||
                    (r = xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, n)) != XGD_OK)
                    return fail(dev, "instanced draw", r);
            } else {
                for (int i = 0; i < n; i++) {
                    xgd_vertex_buffer_binding b[2] = { { qvb, 0, 0 }, { ivb, i, 1 } };
                    if ((r = xgd_set_vertex_buffers(dev, b, 2)) != XGD_OK ||
                        (r = xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2)) != XGD_OK)
                        return fail(dev, "draw", r);
                }
            }
            if ((r = bench_frame_end(dev, f, t0, cpu[path], wall[path])) != XGD_OK) return fail(dev, "read", r);
        }
        bad[path] = check_pixels(dev, n);
    }
    double c0 = bench_median(cpu[0], frames), c1 = bench_median(cpu[1], frames);
    double w0 = bench_median(wall[0], frames), w1 = bench_median(wall[1], frames);
    xgd_device_info info;
    const char *name = xgd_device_get_info(dev, &info) == XGD_OK ? info.renderer_name : "?";
    printf("instancing-bench: %d objects (%dx%d quads of %d px), %d frames, renderer %s\n", n, SIDE,
           SIDE, SIDE * SIDE, frames, name);
    printf("  %-14s %12s %12s %14s %14s\n", "path", "cpu ms/frame", "ms/frame", "cpu us/object",
           "us/object");
    printf("  %-14s %12.3f %12.3f %14.3f %14.3f\n", "instanced", c0 * 1e3, w0 * 1e3, c0 * 1e6 / n,
           w0 * 1e6 / n);
    printf("  %-14s %12.3f %12.3f %14.3f %14.3f\n", "non-instanced", c1 * 1e3, w1 * 1e3,
           c1 * 1e6 / n, w1 * 1e6 / n);
    printf("  ratio non-instanced / instanced: cpu %.1fx, frame %.1fx\n", c0 > 0 ? c1 / c0 : 0.0,
           w0 > 0 ? w1 / w0 : 0.0);
    if (bad[0] || bad[1])
        fprintf(stderr, "instancing-bench: wrong pixels: %d quads instanced, %d non-instanced\n",
                bad[0], bad[1]);
    free(inst);
    free(fx);
    xgd_effect_destroy(effect);
    xgd_device_destroy(dev);
    return bad[0] || bad[1] ? 1 : 0;
}
