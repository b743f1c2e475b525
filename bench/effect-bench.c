/*
 * effect-bench - the CPU cost per draw of a user effect against BasicEffect: N small quads a
 * frame, each drawn after a new world matrix (a constant that changes every draw), through
 *
 *   basic   BasicEffect: xgd_basic_effect_set_world, xgd_effect_apply, draw
 *   fx      an equivalent fx_2_0 effect built by tests/fx_writer.c (vs_2_0 position times
 *           WorldViewProj, ps_2_0 Tint): xgd_effect_parameter_set_matrix, pass apply, draw
 *   hlsl    the same effect as HLSL source through xgd_effect_create_hlsl (skipped, said so,
 *           when the build has no compiler)
 *
 * BasicEffect runs with lighting, texture and vertex colour off, view and projection identity
 * and DiffuseColor Tint, so all paths compute the same pixels. Reported per path: the median
 * over --frames frames of the submission time (CPU, clear to last draw) and of the whole
 * frame including the wait for its pixels (a 1x1 back-buffer read), in microseconds per draw,
 * and the ratio of each user path to basic. Every path's last frame is checked pixel by pixel
 * against the rule (each quad's cell holds Tint, the gap between cells the clear colour); a
 * mismatch exits 1. Reports, never asserts timings.
 *
 * usage: effect-bench [--renderer NAME] [--draws N] [--frames F] [--path basic|fx|hlsl]
 */
#define _POSIX_C_SOURCE 200809L

#include "xgd.h"
#include "bench_device.h"
#include "fx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 4, SIDE = 3, COLS = 128, MAX_FRAMES = 200, PATHS = 3 };

static const char *const path_names[PATHS] = { "basic", "fx", "hlsl" };
static const float tint[4] = { 0.2f, 0.6f, 1.0f, 1.0f };
static const xgd_color tint8 = { 51, 153, 255, 255 };

static const char hlsl_src[] =
    "float4x4 WorldViewProj;\n"
    "float4 Tint;\n"
    "float4 VS(float3 pos : POSITION0) : SV_Position { return mul(float4(pos, 1), WorldViewProj); }\n"
    "float4 PS() : SV_Target0 { return Tint; }\n"
    "technique Solid { pass P0 { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

static int g_w, g_h;

/* quad i's world matrix (XNA row vectors): the unit quad scaled to SIDE pixels at its cell */
static void quad_matrix(int i, xgd_matrix *m)
{
    int x0 = i % COLS * CELL, y0 = i / COLS * CELL;
    memset(m, 0, sizeof *m);
    m->m11 = 2.0f * SIDE / (float)g_w;
    m->m22 = -2.0f * SIDE / (float)g_h;
    m->m33 = 1.0f;
    m->m41 = 2.0f * (float)x0 / (float)g_w - 1.0f;
    m->m42 = 1.0f - 2.0f * (float)y0 / (float)g_h;
    m->m44 = 1.0f;
}

static int fail(xgd_device *dev, const char *what, xgd_result r)
{
    return bench_fail("effect-bench", dev, what, r);
}

/* the fx_2_0 twin of the BasicEffect configuration above */
static uint8_t *user_fx(size_t *size, char *err, size_t cap)
{
    fxw *w = fxw_create();
    if (w == NULL) return NULL;
    const float ident[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    fxw_param(w, "WorldViewProj", "WORLDVIEWPROJECTION", FXW_MATRIX_COLUMNS, FXW_FLOAT, 4, 4, 0, ident);
    fxw_param(w, "Tint", "COLOR", FXW_VECTOR, FXW_FLOAT, 1, 4, 0, tint);
    int t = fxw_technique(w, "Solid");
    int p = fxw_pass(w, t, "P0");
    static const char vs[] = "vs_2_0\ndcl_position v0\nm4x4 oPos, v0, c0\n";
    static const char ps[] = "ps_2_0\nmov oC0, c0\n";
    const fxw_symbol vsym = { "WorldViewProj", 2, 0, 4, FXW_MATRIX_COLUMNS, FXW_FLOAT, 4, 4, 0 };
    const fxw_symbol tsym = { "Tint", 2, 0, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 };
    bool ok = fxw_shader(w, t, p, true, vs, &vsym, 1, err, cap) &&
              fxw_shader(w, t, p, false, ps, &tsym, 1, err, cap);
    uint8_t *bytes = ok ? fxw_finish(w, false, size) : NULL;
    fxw_destroy(w);
    return bytes;
}

/* cells whose pixels break the rule in the last frame (n + 1 when it cannot be read) */
static int check_pixels(xgd_device *dev, int n)
{
    size_t bytes = (size_t)g_w * (size_t)g_h * 4;
    uint8_t *px = malloc(bytes);
    if (px == NULL) return n + 1;
    xgd_rect all = { 0, 0, g_w, g_h };
    if (xgd_get_back_buffer_data(dev, &all, px, bytes) != XGD_OK) {
        free(px);
        return n + 1;
    }
    int bad = 0;
    for (int cy = 0; cy < g_h / CELL; cy++)
        for (int cx = 0; cx < COLS; cx++) {
            int i = cy * COLS + cx;
            bool ok = true;
            for (int y = cy * CELL; y < cy * CELL + CELL && ok; y++)
                for (int x = cx * CELL; x < cx * CELL + CELL && ok; x++) {
                    const uint8_t *p = px + ((size_t)y * (size_t)g_w + (size_t)x) * 4;
                    bool inside = i < n && x - cx * CELL < SIDE && y - cy * CELL < SIDE;
                    xgd_color c = inside ? tint8 : (xgd_color){ 0, 0, 0, 255 };
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
    int n = 1000, frames = 20, only = -1;
    for (int i = 1; i < argc; i++) {
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(argv[i], "--renderer") == 0 && val) renderer = argv[++i];
        else if (strcmp(argv[i], "--draws") == 0 && val) n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--frames") == 0 && val) frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--path") == 0 && val) {
            ++i;
            for (int p = 0; p < PATHS; p++)
                if (strcmp(argv[i], path_names[p]) == 0) only = p;
            if (only < 0) {
                fprintf(stderr, "effect-bench: unknown path '%s'\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: effect-bench [--renderer NAME] [--draws N] [--frames F] "
                            "[--path basic|fx|hlsl]\n");
            return 2;
        }
    }
    if (n < 1 || n > 100000 || frames < 1 || frames > MAX_FRAMES) {
        fprintf(stderr, "effect-bench: --draws 1..100000, --frames 1..%d\n", MAX_FRAMES);
        return 2;
    }
    g_w = COLS * CELL;
    g_h = (n + COLS - 1) / COLS * CELL;
    xgd_device *dev = NULL;
    int status = bench_device_open("effect-bench", renderer, g_w, g_h, &dev);
    if (status != 0) return status;
    xgd_result r;

    /* the three effects */
    xgd_effect *fx[PATHS] = { NULL, NULL, NULL };
    xgd_effect_parameter wvp[PATHS];
    if ((r = xgd_basic_effect_create(dev, &fx[0])) != XGD_OK) return fail(dev, "BasicEffect", r);
    xgd_basic_effect_params bp;
    if ((r = xgd_basic_effect_get(fx[0], &bp)) != XGD_OK) return fail(dev, "BasicEffect get", r);
    bp.diffuse_color = (xgd_vector3){ tint[0], tint[1], tint[2] };
    if ((r = xgd_basic_effect_set(fx[0], &bp)) != XGD_OK) return fail(dev, "BasicEffect set", r);
    char err[512] = "";
    size_t size = 0;
    uint8_t *bytes = user_fx(&size, err, sizeof err);
    if (bytes == NULL) {
        fprintf(stderr, "effect-bench: fx_2_0 effect: %s\n", err);
        return 1;
    }
    r = xgd_effect_create(dev, bytes, size, &fx[1]);
    free(bytes);
    if (r != XGD_OK) return fail(dev, "fx_2_0 effect", r);
    r = xgd_effect_create_hlsl(dev, hlsl_src, sizeof hlsl_src - 1, "effect-bench.fx", &fx[2]);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        printf("effect-bench: hlsl path skipped: %s\n", xgd_device_last_error(dev));
        fx[2] = NULL;
    } else if (r != XGD_OK) {
        return fail(dev, "HLSL effect", r);
    }
    for (int p = 1; p < PATHS; p++) {
        if (fx[p] == NULL) continue;
        xgd_effect_parameter t;
        if ((r = xgd_effect_find_parameter(fx[p], "WorldViewProj", &wvp[p])) != XGD_OK ||
            (r = xgd_effect_find_parameter(fx[p], "Tint", &t)) != XGD_OK ||
            (r = xgd_effect_parameter_set_vector4(fx[p], t, (xgd_vector4){ tint[0], tint[1], tint[2], tint[3] })) != XGD_OK)
            return fail(dev, "parameters", r);
    }

    /* one unit quad, drawn N times */
    const xgd_vertex_element el[] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 } };
    xgd_vertex_declaration *decl = NULL;
    if ((r = xgd_vertex_declaration_create(dev, el, 1, 0, &decl)) != XGD_OK) return fail(dev, "declaration", r);
    const xgd_vector3 quad[4] = { { 0, 0, 0 }, { 1, 0, 0 }, { 1, 1, 0 }, { 0, 1, 0 } };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_vertex_buffer_desc vdesc = { decl, 4, false, false };
    xgd_index_buffer_desc ibd = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
    rd.cull_mode = XGD_CULL_NONE;
    xgd_rasterizer_state *rs = NULL;
    if ((r = xgd_vertex_buffer_create(dev, &vdesc, &vb)) != XGD_OK ||
        (r = xgd_index_buffer_create(dev, &ibd, &ib)) != XGD_OK ||
        (r = xgd_vertex_buffer_set_data(vb, 0, quad, sizeof quad, XGD_SET_DATA_NONE)) != XGD_OK ||
        (r = xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE)) != XGD_OK ||
        (r = xgd_set_indices(dev, ib)) != XGD_OK ||
        (r = xgd_rasterizer_state_create(dev, &rd, &rs)) != XGD_OK ||
        (r = xgd_set_rasterizer_state(dev, rs)) != XGD_OK)
        return fail(dev, "buffers", r);
    xgd_vertex_buffer_binding b = { vb, 0, 0 };
    if ((r = xgd_set_vertex_buffers(dev, &b, 1)) != XGD_OK) return fail(dev, "vertex buffer", r);
    xgd_matrix *mats = malloc(sizeof *mats * (size_t)n);
    if (mats == NULL) return 1;
    for (int i = 0; i < n; i++) quad_matrix(i, &mats[i]);

    double cpu[PATHS][MAX_FRAMES], wall[PATHS][MAX_FRAMES];
    int bad[PATHS] = { 0, 0, 0 };
    for (int p = 0; p < PATHS; p++) {
        if (fx[p] == NULL || (only >= 0 && p != only)) continue;
        for (int f = -1; f < frames; f++) { /* frame -1 warms up (pipelines, uploads) */
            double t0 = bench_clock_s();
            if ((r = xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 })) != XGD_OK) return fail(dev, "clear", r);
            for (int i = 0; i < n; i++) {
                r = p == 0 ? xgd_basic_effect_set_world(fx[0], &mats[i])
                           : xgd_effect_parameter_set_matrix(fx[p], wvp[p], &mats[i]);
                if (r != XGD_OK) return fail(dev, "set", r);
                r = p == 0 ? xgd_effect_apply(fx[0]) : xgd_effect_pass_apply(fx[p], 0, 0);
                if (r != XGD_OK) return fail(dev, "apply", r);
                r = xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2);
                if (r != XGD_OK) return fail(dev, "draw", r);
            }
            if ((r = bench_frame_end(dev, f, t0, cpu[p], wall[p])) != XGD_OK) return fail(dev, "read", r);
        }
        bad[p] = check_pixels(dev, n);
    }

    xgd_device_info info;
    const char *name = xgd_device_get_info(dev, &info) == XGD_OK ? info.renderer_name : "?";
    printf("effect-bench: %d draws/frame (%dx%d quads, a new world matrix each), %d frames, renderer %s\n",
           n, SIDE, SIDE, frames, name);
    printf("  %-6s %14s %14s %12s %12s\n", "path", "cpu us/draw", "us/draw", "cpu ratio", "ratio");
    double c0 = 0, w0 = 0;
    for (int p = 0; p < PATHS; p++) {
        if (fx[p] == NULL || (only >= 0 && p != only)) continue;
        double c = bench_median(cpu[p], frames) * 1e6 / n, w = bench_median(wall[p], frames) * 1e6 / n;
        if (p == 0) {
            c0 = c;
            w0 = w;
        }
        printf("  %-6s %14.3f %14.3f", path_names[p], c, w);
        if (p > 0 && c0 > 0) printf(" %12.3f %12.3f", c / c0, w / w0);
        printf("\n");
    }
    status = 0;
    for (int p = 0; p < PATHS; p++)
        if (bad[p]) {
            fprintf(stderr, "effect-bench: wrong pixels through %s: %d cells\n", path_names[p], bad[p]);
            status = 1;
        }
    free(mats);
    for (int p = 0; p < PATHS; p++)
        if (fx[p]) xgd_effect_destroy(fx[p]);
    xgd_device_destroy(dev);
    return status;
}
