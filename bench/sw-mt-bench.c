/*
 * sw-mt-bench - the software renderer's frame rate on the sprite scene against xgd's Vulkan
 * renderer on the same machine (lavapipe where there is no GPU), and against itself on one
 * thread. Reports, never asserts on time.
 *
 * One frame: clear, SpriteBatch begin, N sprites (16x16 texels, scale S, random positions in
 * the target, AlphaBlend), end, present, and a read of the whole back buffer (which waits
 * for a GPU renderer's frame to finish, so every renderer's frame is complete when its time
 * stops). Devices under test:
 *   software, 1 thread        $XGD_SW_THREADS=1 (every draw on the calling thread)
 *   software, T threads       $XGD_SW_THREADS=T (--threads; default: the number of online CPUs)
 *   vulkan                    skipped (and said so) when no Vulkan device can be created
 * Frames of the devices are interleaved (one of each in turn), so a machine's load changes touch
 * all alike; each figure is the median of --frames frames after one warm-up frame. The last
 * image of every device is compared with the one-thread software image: the multithreaded one
 * must be identical (the bench fails otherwise), the Vulkan one's largest channel difference is
 * printed.
 *
 * --effect: SpriteBatch draws through a user effect (HLSL source: texture * vertex colour, the
 * stock sprite shader's formula), so the software renderer runs its SPIR-V executor; the build
 * must compile HLSL effects (the bench says so and exits 77 otherwise).
 *
 * usage: sw-mt-bench [--size WxH] [--sprites N] [--scale S] [--textures 1|16] [--frames F]
 *                    [--threads T] [--effect]
 */
#define _POSIX_C_SOURCE 200809L

#include "xgd.h"
#include "bench_time.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEXTURES 16
#define MAX_FRAMES 200

typedef struct target {
    const char *label;
    xgd_device *dev;
    xgd_sprite_batch *batch;
    xgd_texture *textures[TEXTURES];
    uint8_t *pixels;
    xgd_effect *effect;        /* --effect: the user sprite effect */
    double times[MAX_FRAMES];
} target;

static bool g_effect = false;
static const char sprite_fx[] =
    "float4x4 MatrixTransform;\n"
    "Texture2D Tex : register(t0);\n"
    "SamplerState Samp : register(s0);\n"
    "struct VSOut { float4 pos : SV_Position; float4 col : COLOR0; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float4 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.pos = mul(pos, MatrixTransform);\n"
    "    o.col = col;\n"
    "    o.uv = uv;\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0\n"
    "{\n"
    "    return Tex.Sample(Samp, i.uv) * i.col;\n"
    "}\n"
    "technique T { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                     SetPixelShader(CompileShader(ps_4_0, PS())); } }\n";

static int g_w = 640, g_h = 360, g_sprites = 10000, g_textures = 1, g_frames = 15;
static float g_scale = 1.0f;

static bool check(xgd_device *dev, xgd_result r, const char *what)
{
    if (r == XGD_OK) return true;
    fprintf(stderr, "sw-mt-bench: %s: %s: %s\n", what, xgd_result_name(r),
            dev != NULL ? xgd_device_last_error(dev) : "");
    return false;
}

/* A device of `kind`, its batch and textures; false (nothing left open) when unavailable. */
static bool open_target(target *t, const char *label, xgd_renderer_kind kind, const char *threads)
{
    memset(t, 0, sizeof *t);
    t->label = label;
    if (threads != NULL) setenv("XGD_SW_THREADS", threads, 1);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = kind;
    dd.pp.back_buffer_width = g_w;
    dd.pp.back_buffer_height = g_h;
    dd.pp.present_interval = XGD_PRESENT_INTERVAL_IMMEDIATE;
    dd.pp.headless = true;
    xgd_result r = xgd_device_create(&dd, &t->dev);
    unsetenv("XGD_SW_THREADS");
    if (r != XGD_OK) {
        printf("%-28s not measured: %s\n", label, xgd_result_name(r));
        return false;
    }
    if (!check(t->dev, xgd_sprite_batch_create(t->dev, &t->batch), "sprite batch")) exit(1);
    enum { N = 16 };
    uint8_t px[N * N * 4];
    for (int k = 0; k < TEXTURES; k++) {
        for (int i = 0; i < N * N; i++) {
            px[i * 4 + 0] = (uint8_t)(k * 16);
            px[i * 4 + 1] = (uint8_t)(255 - k * 16);
            px[i * 4 + 2] = (uint8_t)((i % N) * 16);
            px[i * 4 + 3] = (uint8_t)(i % 3 == 0 ? 255 : 160); /* some blending to do */
        }
        if (!check(t->dev, xgd_texture2d_create(t->dev, &(xgd_texture2d_desc){ .width = N, .height = N },
                                                &t->textures[k]), "texture") ||
            !check(t->dev, xgd_texture_set_data(t->textures[k], 0, XGD_CUBE_MAP_FACE_POSITIVE_X,
                                                NULL, px, sizeof px), "texture data"))
            exit(1);
    }
    if (g_effect) {
        r = xgd_effect_create_hlsl(t->dev, sprite_fx, strlen(sprite_fx), "sprite.fx", &t->effect);
        if (r == XGD_ERROR_NOT_SUPPORTED) {
            printf("sw-mt-bench: --effect: %s\n", xgd_device_last_error(t->dev));
            exit(77);
        }
        if (!check(t->dev, r, "effect")) exit(1);
        /* SpriteBatch's projection: pixels to clip space (XNA's OrthographicOffCenter) */
        xgd_matrix m;
        memset(&m, 0, sizeof m);
        m.m[0] = 2.0f / (float)g_w;
        m.m[5] = -2.0f / (float)g_h;
        m.m[10] = 1.0f;
        m.m[12] = -1.0f;
        m.m[13] = 1.0f;
        m.m[15] = 1.0f;
        xgd_effect_parameter p = { -1 };
        if (!check(t->dev, xgd_effect_find_parameter(t->effect, "MatrixTransform", &p), "parameter") ||
            !check(t->dev, xgd_effect_parameter_set_matrix(t->effect, p, &m), "matrix"))
            exit(1);
    }
    t->pixels = malloc((size_t)g_w * (size_t)g_h * 4);
    if (t->pixels == NULL) exit(1);
    return true;
}

static void close_target(target *t)
{
    if (t->dev == NULL) return;
    for (int k = 0; k < TEXTURES; k++) xgd_texture_destroy(t->textures[k]);
    xgd_effect_destroy(t->effect);
    xgd_sprite_batch_destroy(t->batch);
    xgd_device_destroy(t->dev);
    free(t->pixels);
}

static double frame(target *t)
{
    uint32_t seed = 12345;
    double t0 = bench_clock_s();
    bool ok = check(t->dev, xgd_clear_color(t->dev, (xgd_color){ 30, 40, 50, 255 }), "clear") &&
              check(t->dev, xgd_sprite_batch_begin(t->batch, t->effect == NULL ? NULL :
                        &(xgd_sprite_batch_begin_desc){ .effect = t->effect }), "begin");
    for (int i = 0; ok && i < g_sprites; i++) {
        seed = seed * 1664525u + 1013904223u;
        float x = (float)((seed >> 8) % (uint32_t)g_w) - 8.0f * g_scale;
        seed = seed * 1664525u + 1013904223u;
        float y = (float)((seed >> 8) % (uint32_t)g_h) - 8.0f * g_scale;
        ok = check(t->dev, xgd_sprite_batch_draw(t->batch, t->textures[i % g_textures], &(xgd_sprite){
                       .position = { x, y }, .color = XGD_COLOR_WHITE, .scale = { g_scale, g_scale } }),
                   "draw");
    }
    ok = ok && check(t->dev, xgd_sprite_batch_end(t->batch), "end") &&
         check(t->dev, xgd_present(t->dev), "present") &&
         check(t->dev, xgd_get_back_buffer_data(t->dev, NULL, t->pixels, (size_t)g_w * (size_t)g_h * 4),
               "readback");
    if (!ok) exit(1);
    return bench_clock_s() - t0;
}

static int int_arg(const char *opt, const char *val, int lo, int hi)
{
    char *end;
    long v = strtol(val, &end, 10);
    if (*end || v < lo || v > hi) {
        fprintf(stderr, "sw-mt-bench: bad %s '%s' (%d..%d)\n", opt, val, lo, hi);
        exit(2);
    }
    return (int)v;
}

int main(int argc, char **argv)
{
    const char *threads = NULL;
    char threads_buf[24];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--effect") == 0) {
            g_effect = true;
            continue;
        }
        if (v == NULL) {
            fprintf(stderr, "usage: sw-mt-bench [--size WxH] [--sprites N] [--scale S] "
                            "[--textures 1|16] [--frames F] [--threads T] [--effect]\n");
            return 2;
        }
        i++;
        if (strcmp(a, "--size") == 0) {
            if (sscanf(v, "%dx%d", &g_w, &g_h) != 2 || g_w < 16 || g_h < 16 || g_w > 4096 ||
                g_h > 4096) {
                fprintf(stderr, "sw-mt-bench: bad --size '%s'\n", v);
                return 2;
            }
        } else if (strcmp(a, "--sprites") == 0) {
            g_sprites = int_arg(a, v, 1, 10000000);
        } else if (strcmp(a, "--scale") == 0) {
            g_scale = (float)int_arg(a, v, 1, 64);
        } else if (strcmp(a, "--textures") == 0) {
            g_textures = int_arg(a, v, 1, TEXTURES);
        } else if (strcmp(a, "--frames") == 0) {
            g_frames = int_arg(a, v, 1, MAX_FRAMES);
        } else if (strcmp(a, "--threads") == 0) {
            threads = v;
            (void)int_arg(a, v, 1, 1024);
        } else {
            fprintf(stderr, "sw-mt-bench: unknown option %s\n", a);
            return 2;
        }
    }
    if (threads == NULL) {
        /* the software renderer's own default: the online CPUs */
        long n = 1;
#ifdef _SC_NPROCESSORS_ONLN
        n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
        snprintf(threads_buf, sizeof threads_buf, "%d", n > 0 && n < 1024 ? (int)n : 1);
        threads = threads_buf;
    }
    char many_label[48];
    snprintf(many_label, sizeof many_label, "software, %s threads", threads);
    target tg[3];
    bool open[3];
    open[0] = open_target(&tg[0], "software, 1 thread", XGD_RENDERER_SOFTWARE, "1");
    open[1] = open_target(&tg[1], many_label, XGD_RENDERER_SOFTWARE, threads);
    open[2] = open_target(&tg[2], "vulkan", XGD_RENDERER_VULKAN, NULL);
    if (!open[0] || !open[1]) return 1;
    for (int k = 0; k < 3; k++)
        if (open[k]) (void)frame(&tg[k]); /* warm-up: pipelines, caches, first-use allocation */
    for (int f = 0; f < g_frames; f++)
        for (int k = 0; k < 3; k++)
            if (open[k]) tg[k].times[f] = frame(&tg[k]);
    printf("sw-mt-bench: %dx%d, %d sprites of %gx%g pixels, %d texture%s, %s, median of %d frames\n",
           g_w, g_h, g_sprites, 16.0 * g_scale, 16.0 * g_scale, g_textures,
           g_textures > 1 ? "s (a change every sprite)" : "",
           g_effect ? "a user effect (SPIR-V executor)" : "SpriteBatch's own SpriteEffect", g_frames);
    double fps[3] = { 0, 0, 0 };
    for (int k = 0; k < 3; k++) {
        if (!open[k]) continue;
        double sorted[MAX_FRAMES];
        memcpy(sorted, tg[k].times, sizeof(double) * (size_t)g_frames);
        fps[k] = 1.0 / bench_median(sorted, g_frames);
        printf("%-28s %9.1f frames/s  (%.2f ms/frame, min %.2f ms, max %.2f ms)\n", tg[k].label,
               fps[k], 1000.0 / fps[k], 1000.0 * sorted[0], 1000.0 * sorted[g_frames - 1]);
    }
    size_t bytes = (size_t)g_w * (size_t)g_h * 4;
    int status = 0;
    size_t diff = 0;
    for (size_t i = 0; i < bytes; i++) diff += tg[1].pixels[i] != tg[0].pixels[i];
    printf("%-28s %zu bytes differ from one thread\n", many_label, diff);
    if (diff != 0) status = 1;
    printf("ratio: software %s threads / software 1 thread: %.2fx\n", threads, fps[1] / fps[0]);
    if (open[2]) {
        int maxd = 0;
        for (size_t i = 0; i < bytes; i++) {
            int d = abs((int)tg[2].pixels[i] - (int)tg[0].pixels[i]);
            if (d > maxd) maxd = d;
        }
        printf("%-28s largest channel difference from software: %d\n", "vulkan", maxd);
        printf("ratio: software %s threads / vulkan: %.2fx   (software 1 thread / vulkan: %.2fx)\n",
               threads, fps[1] / fps[2], fps[0] / fps[2]);
    }
    for (int k = 0; k < 3; k++) close_target(&tg[k]);
    return status;
}
