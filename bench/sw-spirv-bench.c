/*
 * sw-spirv-bench - the software renderer's pixel cost per 2x2 quad for SpriteBatch's pixel
 * shader (texture * vertex colour): the shader as the tests compile it (tests/spirv/spritebatch.spv,
 * glslang) through the executor (sw_spirv.c) with the sampling callback of sw_spirv_sample.c,
 * against the same shader computed directly, as sw_raster.c does for the shapes the executor
 * recognises (xgdi_sw_spirv_match_modulate: one sample per lane through sw_sample.c, times the
 * colour). Both read the same varyings and the same texture; the executor's figure includes
 * writing its inputs and reading its outputs. The two must agree bit for bit. Prints the median
 * of several runs; asserts no timings.
 *
 * The vertex stage likewise: SpriteBatch's vertex shader (position * matrix, colour and uv
 * passed on) through the executor per four vertices, inputs fetched as the renderer does,
 * against the same through the recognised transform shape (xgdi_sw_spirv_match_transform,
 * xgdi_sw_spirv_run_transform); their positions must agree bit for bit.
 *
 * usage: sw-spirv-bench [--quads N] [--runs R] [--filter point|linear] [--spv PATH]
 *                       [--vs-spv PATH]
 */
#define _POSIX_C_SOURCE 199309L
#include "bench_time.h"
#include "sw_internal.h"
#include "sw_fetch.h"
#include "sw_spirv.h"
#include "sw_spirv_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef XGD_BENCH_SPRITE_SPV
#define XGD_BENCH_SPRITE_SPV "spritebatch.spv"
#endif
#ifndef XGD_BENCH_VERTEX_SPV
#define XGD_BENCH_VERTEX_SPV "transform.spv"
#endif

static uint32_t *read_spv(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *w = n > 0 ? malloc((size_t)n) : NULL;
    if (w == NULL || fread(w, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(w);
        return NULL;
    }
    fclose(f);
    *count = (size_t)n / 4;
    return w;
}

int main(int argc, char **argv)
{
    long quads = 250000;
    int runs = 5;
    bool linear = true;
    const char *spv = XGD_BENCH_SPRITE_SPV, *vs_spv = XGD_BENCH_VERTEX_SPV;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quads") && i + 1 < argc) quads = atol(argv[++i]);
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) linear = strcmp(argv[++i], "point") != 0;
        else if (!strcmp(argv[i], "--spv") && i + 1 < argc) spv = argv[++i];
        else if (!strcmp(argv[i], "--vs-spv") && i + 1 < argc) vs_spv = argv[++i];
        else {
            fprintf(stderr, "usage: %s [--quads N] [--runs R] [--filter point|linear] [--spv PATH]\n", argv[0]);
            return 2;
        }
    }
    if (runs < 1 || runs > 99 || quads < 1) return 2;
    size_t nw;
    uint32_t *words = read_spv(spv, &nw);
    if (words == NULL) {
        fprintf(stderr, "cannot read %s\n", spv);
        return 1;
    }
    char err[256];
    xgdi_sw_spirv_module *m;
    if (xgdi_sw_spirv_load(words, nw, NULL, &m, err, sizeof err) != XGD_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const xgdi_sw_spirv_reflection *r = xgdi_sw_spirv_reflect(m);
    xgdi_sw_spirv_state *st;
    if (xgdi_sw_spirv_state_create(m, &st) != XGD_OK) return 1;

    /* a 64x64 Color texture, one level */
    enum { S = 64 };
    static uint8_t texels[S * S * 4];
    for (int i = 0; i < S * S * 4; i++) texels[i] = (uint8_t)(i * 37 + (i >> 7));
    sw_image img = { .width = S, .height = S, .depth = 1, .texels = texels, .rgba8 = texels,
                     .cache_valid = true };
    xgdi_native_texture tex;
    memset(&tex, 0, sizeof tex);
    tex.desc.width = tex.desc.height = S;
    tex.desc.levels = 1;
    tex.desc.format = XGD_SURFACE_FORMAT_COLOR;
    tex.faces = 1;
    tex.is_color = true;
    tex.images = &img;
    xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
    sd.filter = linear ? XGD_FILTER_LINEAR : XGD_FILTER_POINT;

    /* the direct computation: what the rasterizer does for a recognised shape */
    xgdi_sw_spirv_modulate mod;
    if (!xgdi_sw_spirv_match_modulate(m, &mod)) {
        fprintf(stderr, "%s: not recognised as texture * colour\n", spv);
        return 1;
    }
    sw_sampler samp;
    sw_sampler_init(&samp, &sd);

    xgdi_sw_spirv_textures tx;
    xgdi_sw_spirv_textures_init(&tx);
    for (int i = 0; i < r->resource_count; i++) xgdi_sw_spirv_textures_set(&tx, i, &tex, &sd);
    xgdi_sw_spirv_bind_sampler(st, xgdi_sw_spirv_sample_textures, &tx);
    const xgdi_sw_spirv_io *in_col = NULL, *in_uv = NULL, *out = NULL;
    for (int i = 0; i < r->io_count; i++) {
        const xgdi_sw_spirv_io *io = &r->io[i];
        if (!io->output && io->location == 0) in_col = io;
        if (!io->output && io->location == 1) in_uv = io;
        if (io->output && io->location == 0) out = io;
    }
    if (!in_col || !in_uv || !out) {
        fprintf(stderr, "unexpected interface in %s\n", spv);
        return 1;
    }
    float *col[4], *uv[2], *oc[4];
    for (int c = 0; c < 4; c++) col[c] = xgdi_sw_spirv_reg(st, in_col->reg, c);
    for (int c = 0; c < 2; c++) uv[c] = xgdi_sw_spirv_reg(st, in_uv->reg, c);
    for (int c = 0; c < 4; c++) oc[c] = xgdi_sw_spirv_reg(st, out->reg, c);

    double t_direct[99], t_spv[99], sink = 0.0;
    float maxdiff = 0.0f;
    for (int run = 0; run < runs; run++) {
        /* varyings of a quad: colour, uv stepping over the texture */
        float v[4][6];
        double t0 = bench_clock_s();
        for (long q = 0; q < quads; q++) {
            float bu = (float)(q & 255) * (1.0f / 256.0f), bv = (float)((q >> 8) & 255) * (1.0f / 256.0f);
            for (int l = 0; l < 4; l++) {
                v[l][0] = 0.9f; v[l][1] = 0.5f; v[l][2] = 0.25f; v[l][3] = 1.0f;
                v[l][4] = bu + (float)(l & 1) * (1.0f / 64.0f);
                v[l][5] = bv + (float)(l >> 1) * (1.0f / 64.0f);
                float tx4[4], o[4];
                sw_sample_2d_with(&tex, &samp, v[l][4], v[l][5], NULL, tx4);
                for (int c = 0; c < 4; c++) o[c] = mod.sample_first ? tx4[c] * v[l][c] : v[l][c] * tx4[c];
                sink += o[0];
            }
        }
        double t1 = bench_clock_s();
        for (long q = 0; q < quads; q++) {
            float bu = (float)(q & 255) * (1.0f / 256.0f), bv = (float)((q >> 8) & 255) * (1.0f / 256.0f);
            for (int l = 0; l < 4; l++) {
                col[0][l] = 0.9f; col[1][l] = 0.5f; col[2][l] = 0.25f; col[3][l] = 1.0f;
                uv[0][l] = bu + (float)(l & 1) * (1.0f / 64.0f);
                uv[1][l] = bv + (float)(l >> 1) * (1.0f / 64.0f);
            }
            xgdi_sw_spirv_execute(st, 0xf, NULL);
            for (int l = 0; l < 4; l++) sink += oc[0][l];
        }
        double t2 = bench_clock_s();
        t_direct[run] = (t1 - t0) / (double)quads * 1e9;
        t_spv[run] = (t2 - t1) / (double)quads * 1e9;
    }
    /* the two paths must agree bit for bit (same operations): check a quad */
    {
        float v[6] = { 0.9f, 0.5f, 0.25f, 1.0f, 0.3f, 0.7f }, o[4];
        for (int l = 0; l < 4; l++) {
            col[0][l] = v[0]; col[1][l] = v[1]; col[2][l] = v[2]; col[3][l] = v[3];
            uv[0][l] = v[4]; uv[1][l] = v[5];
        }
        xgdi_sw_spirv_execute(st, 0xf, NULL);
        float tx4[4];
        sw_sample_2d_with(&tex, &samp, v[4], v[5], NULL, tx4);
        for (int c = 0; c < 4; c++) o[c] = mod.sample_first ? tx4[c] * v[c] : v[c] * tx4[c];
        for (int c = 0; c < 4; c++) {
            float d = o[c] - oc[c][0];
            if (d < 0) d = -d;
            if (d > maxdiff) maxdiff = d;
        }
    }
    double direct = bench_median(t_direct, runs), sv = bench_median(t_spv, runs);
    printf("sprite pixel shader, %s filter, %ld quads x %d runs (median):\n",
           linear ? "linear" : "point", quads, runs);
    printf("  recognised shape, direct:   %8.1f ns per quad\n", direct);
    printf("  SPIR-V executor:            %8.1f ns per quad (%.0f%% of the direct speed)\n",
           sv, 100.0 * direct / sv);
    printf("  largest difference between the two: %g (checksum %g)\n", (double)maxdiff, sink);
    xgdi_sw_spirv_state_free(st);
    xgdi_sw_spirv_free(m);
    free(words);

    /* ---- vertex stage ---- */
    words = read_spv(vs_spv, &nw);
    if (words == NULL || xgdi_sw_spirv_load(words, nw, NULL, &m, err, sizeof err) != XGD_OK ||
        xgdi_sw_spirv_state_create(m, &st) != XGD_OK) {
        fprintf(stderr, "cannot load %s\n", vs_spv);
        return 1;
    }
    r = xgdi_sw_spirv_reflect(m);
    const xgdi_sw_spirv_io *vin[3] = { NULL, NULL, NULL }, *vpos = NULL;
    for (int i = 0; i < r->io_count; i++) {
        const xgdi_sw_spirv_io *io = &r->io[i];
        if (!io->output && io->location >= 0 && io->location < 3) vin[io->location] = io;
        if (io->output && io->builtin == XGDI_SW_SPIRV_BUILTIN_POSITION) vpos = io;
    }
    if (!vin[0] || !vin[1] || !vin[2] || !vpos) return 1;
    float matrix_transform[16];
    for (int i = 0; i < 16; i++) matrix_transform[i] = (float)((i * 5) % 7) * 0.25f - 0.5f;
    xgdi_sw_spirv_bind_uniform(st, 0, matrix_transform, sizeof matrix_transform);
    /* the sprite vertex: float3 position, Color, float2 uv (SpriteBatch's layout) */
    xgd_vertex_element el[3];
    memset(el, 0, sizeof el);
    el[0].format = XGD_VERTEX_FORMAT_VECTOR3;
    el[1].format = XGD_VERTEX_FORMAT_COLOR;
    el[1].offset = 12;
    el[2].format = XGD_VERTEX_FORMAT_VECTOR2;
    el[2].offset = 16;
    uint8_t vb[4][24];
    for (int v = 0; v < 4; v++)
        for (int b = 0; b < 24; b++) vb[v][b] = (uint8_t)(b < 12 || b >= 16 ? 0 : 200 + v);
    for (int v = 0; v < 4; v++) {
        float f[5] = { (float)v, 2.0f - (float)v, 0.5f, 0.25f * (float)v, 1.0f };
        memcpy(vb[v], f, 12);
        memcpy(vb[v] + 16, f + 3, 8);
    }
    float *vreg[3][4], *pos_out[4];
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 4; c++) vreg[k][c] = c < vin[k]->components ? xgdi_sw_spirv_reg(st, vin[k]->reg, c) : NULL;
    for (int c = 0; c < 4; c++) pos_out[c] = xgdi_sw_spirv_reg(st, vpos->reg, c);
    /* path 0: the executor; path 1: the recognised transform shape
       (xgdi_sw_spirv_match_transform), when the shader is one */
    xgdi_sw_spirv_transform *shape = malloc(sizeof *shape);
    bool recognised = shape != NULL && xgdi_sw_spirv_match_transform(m, shape);
    double v_path[2][99], v_sink[2] = { 0.0, 0.0 };
    float vdiff = 0.0f;
    for (int path = 0; path < (recognised ? 2 : 1); path++) {
        for (int run = 0; run < runs; run++) {
            double t1 = bench_clock_s();
            for (long q = 0; q < quads; q++) {
                /* the inputs fetched as the renderer would: sw_fetch_element per element */
                for (int v = 0; v < 4; v++)
                    for (int k = 0; k < 3; k++) {
                        float f[4];
                        sw_fetch_element(el[k].format, vb[v] + el[k].offset, f);
                        for (int c = 0; c < 4; c++)
                            if (vreg[k][c]) vreg[k][c][v] = f[c];
                    }
                if (path == 0) xgdi_sw_spirv_execute(st, 0xf, NULL);
                else xgdi_sw_spirv_run_transform(st, shape);
                for (int v = 0; v < 4; v++) v_sink[path] += pos_out[0][v];
            }
            double t2 = bench_clock_s();
            v_path[path][run] = (t2 - t1) / (double)quads * 1e9;
        }
    }
    if (recognised) {
        /* the positions of both paths, for one set of inputs */
        float want[4][4];
        xgdi_sw_spirv_execute(st, 0xf, NULL);
        for (int c = 0; c < 4; c++) memcpy(want[c], pos_out[c], sizeof want[c]);
        for (int c = 0; c < 4; c++) memset(pos_out[c], 0, sizeof want[c]);
        xgdi_sw_spirv_run_transform(st, shape);
        for (int c = 0; c < 4; c++)
            if (memcmp(want[c], pos_out[c], sizeof want[c]) != 0) vdiff = 1.0f;
    }
    printf("sprite vertex shader, 4 vertices x %ld x %d runs (median):\n", quads, runs);
    if (recognised)
        printf("  recognised shape, direct:   %8.1f ns per 4 vertices (checksum %g)\n",
               bench_median(v_path[1], runs), v_sink[1]);
    else
        printf("  recognised shape:                not recognised\n");
    printf("  SPIR-V executor:            %8.1f ns per 4 vertices (checksum %g)\n",
           bench_median(v_path[0], runs), v_sink[0]);
    if (recognised) printf("  positions differ: %s\n", vdiff != 0.0f ? "YES" : "no");
    free(shape);
    if (vdiff != 0.0f) maxdiff = vdiff;
    xgdi_sw_spirv_state_free(st);
    xgdi_sw_spirv_free(m);
    free(words);
    return maxdiff != 0.0f ? 1 : 0;
}
