/*
 * test_sw_threads.c - the software renderer draws the same pixels and counts the same occlusion
 * samples whatever the number of threads it rasterizes with ($XGD_SW_THREADS, read when a
 * device is created).
 *
 * Rule: banded rasterization splits the target into rows owned by one thread each, and every
 * band visits a draw's triangles in submission order, so each pixel, depth and stencil sample
 * goes through the same operations in the same order as on one thread. Blending is order
 * dependent and depth/stencil results depend on what was drawn before, so any row drawn twice,
 * skipped, or drawn out of order changes bytes; a query's count is the sum over bands, so a
 * lost or doubled band count changes it.
 *
 * The scene (single-sampled and 4x multisampled): per frame a clear, then inside an occlusion
 * query hundreds of overlapping random triangles in one draw (alpha blending, depth test and
 * write; some cross the near plane and the guard band, so clipping makes vertices), a second
 * draw with additive blending, depth read and two-sided stencil incrementing, a textured
 * linear-filtered draw, and a SpriteBatch of rotated sprites taking two textures (16x16 and
 * 8x8) in runs of a few, which End draws as runs (the software renderer as one draw switching
 * slot 0's texture). The image and counts of a one-thread device must equal those of the same
 * device drawing a draw per run ($XGD_SW_QUAD_RUNS=off) and of a 3-thread and a 5-thread device
 * byte for byte, and the scene must not be trivial (the counts non-zero, many distinct colours,
 * at least 50 runs).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fixture_util.h"

#include <stdlib.h>

enum { W = 197, H = 131, TRIS = 600, SPRITES = 300, FRAMES = 2 };

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float frand(uint32_t *s, float lo, float hi)
{
    return lo + (hi - lo) * (float)(lcg(s) & 0xffff) / 65535.0f;
}

typedef struct scene_out {
    uint8_t px[W * H * 4];
    uint64_t counts[FRAMES * 2];
    uint64_t sprite_draws; /* draw calls of the last frame's SpriteBatch End */
} scene_out;

/* Draws the scene on a new device rasterizing with `threads` threads. */
static bool draw_scene(xgdt_ctx *t, const char *threads, int msaa, scene_out *out)
{
    setenv("XGD_SW_THREADS", threads, 1);
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, msaa);
    unsetenv("XGD_SW_THREADS");
    if (dev == NULL) return false;
    bool ok = true;
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *cull = fx_cull_none(t, dev);
    xgd_occlusion_query *q = NULL;
    CHECK_INT(xgd_occlusion_query_create(dev, &q), XGD_OK);
    xgd_depth_stencil_desc sd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    sd.depth_buffer_write_enable = false;
    sd.depth_function = XGD_COMPARE_LESS;
    sd.stencil_enable = true;
    sd.stencil_function = XGD_COMPARE_ALWAYS;
    sd.stencil_pass = XGD_STENCIL_OP_INCREMENT;
    sd.stencil_depth_fail = XGD_STENCIL_OP_INVERT;
    sd.two_sided_stencil = true;
    sd.ccw_stencil_function = XGD_COMPARE_LESS_EQUAL;
    sd.reference_stencil = 2;
    sd.ccw_stencil_pass = XGD_STENCIL_OP_DECREMENT_SATURATION;
    xgd_depth_stencil_state *stencil = fx_depth(t, dev, &sd);
    /* a checker texture with mips, sampled linearly */
    enum { TS = 16 };
    uint8_t tex_px[TS * TS * 4];
    for (int i = 0; i < TS * TS; i++) {
        int x = i % TS, y = i / TS;
        tex_px[i * 4 + 0] = (uint8_t)(x * 16);
        tex_px[i * 4 + 1] = (uint8_t)(((x ^ y) & 1) ? 255 : 40);
        tex_px[i * 4 + 2] = (uint8_t)(y * 16);
        tex_px[i * 4 + 3] = (uint8_t)(128 + x * 8);
    }
    xgd_texture *tex = xgdt_image_texture(t, dev, TS, TS, tex_px);
    /* a second texture, of another size: the sprites take one or the other in short runs, so
       End draws many runs (the software renderer's draw of quad runs switches the texture and
       what its sampling derives from it) */
    enum { TS2 = 8 };
    uint8_t tex2_px[TS2 * TS2 * 4];
    for (int i = 0; i < TS2 * TS2 * 4; i++) tex2_px[i] = (uint8_t)(255 - tex_px[i * 3 % (TS * TS * 4)] / 2);
    xgd_texture *tex2 = xgdt_image_texture(t, dev, TS2, TS2, tex2_px);
    xgd_effect *tfx = tex != NULL ? fx_texture_effect(t, dev, tex) : NULL;
    xgd_sprite_batch *sb = NULL;
    CHECK_INT(xgd_sprite_batch_create(dev, &sb), XGD_OK);
    if (fx == NULL || cull == NULL || q == NULL || stencil == NULL || tfx == NULL || sb == NULL ||
        tex2 == NULL) {
        ok = false;
        goto done;
    }
    static xgd_vertex_position_color v[TRIS * 3];
    uint32_t seed = 7;
    for (int f = 0; f < FRAMES && ok; f++) {
        CHECK_INT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                            (xgd_vector4){ 0.1f, 0.15f, 0.2f, 1.0f }, 1.0f, 0), XGD_OK);
        for (int i = 0; i < TRIS * 3; i++) {
            /* pixel positions reaching well outside the target (the guard band) and depths
               below 0 (the near plane clips) */
            float x = frand(&seed, -60.0f, W + 60.0f), y = frand(&seed, -60.0f, H + 60.0f);
            if (i % 3 != 0) {
                x = v[i - 1 - (i % 3 == 2)].position.x;
                y = v[i - 1 - (i % 3 == 2)].position.y;
                x = (x + 1.0f) * W / 2.0f + frand(&seed, -50.0f, 50.0f);
                y = (1.0f - y) * H / 2.0f + frand(&seed, -50.0f, 50.0f);
            }
            xgd_color c = { (uint8_t)lcg(&seed), (uint8_t)lcg(&seed), (uint8_t)lcg(&seed),
                            (uint8_t)(60 + lcg(&seed) % 160) };
            v[i] = fx_vpc(x, y, frand(&seed, -0.2f, 1.0f), W, H, c);
        }
        xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND));
        xgd_set_depth_stencil_state(dev,
                                    xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT));
        xgd_set_rasterizer_state(dev, cull);
        CHECK_INT(xgd_effect_apply(fx), XGD_OK);
        CHECK_INT(xgd_occlusion_query_begin(q), XGD_OK);
        CHECK_INT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, TRIS,
                                           xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)),
                  XGD_OK);
        CHECK_INT(xgd_occlusion_query_end(q), XGD_OK);
        CHECK_INT(xgd_occlusion_query_get_pixel_count(q, true, &out->counts[f * 2]), XGD_OK);
        /* additive, depth read, two-sided stencil; a strip of the same vertices */
        xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE));
        xgd_set_depth_stencil_state(dev, stencil);
        CHECK_INT(xgd_occlusion_query_begin(q), XGD_OK);
        CHECK_INT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, TRIS - 2,
                                           xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)),
                  XGD_OK);
        CHECK_INT(xgd_occlusion_query_end(q), XGD_OK);
        CHECK_INT(xgd_occlusion_query_get_pixel_count(q, true, &out->counts[f * 2 + 1]), XGD_OK);
        /* textured, linear with mips-free derivatives, non-premultiplied blending */
        xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_NON_PREMULTIPLIED));
        xgd_set_depth_stencil_state(dev,
                                    xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE));
        xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP));
        CHECK_INT(xgd_effect_apply(tfx), XGD_OK);
        CHECK_INT(fx_tex_rect(dev, W, H, 5.5f, 3.25f, W - 7.0f, H - 2.5f, -0.3f, 0.1f, 2.7f, 1.9f,
                              (xgd_color){ 255, 200, 150, 180 }),
                  XGD_OK);
        /* rotated sprites, in runs of one to four of either texture */
        CHECK_INT(xgd_sprite_batch_begin(sb, NULL), XGD_OK);
        xgd_texture *run_tex = tex;
        for (int i = 0; i < SPRITES; i++) {
            if (lcg(&seed) % 3 == 0) run_tex = run_tex == tex ? tex2 : tex;
            xgd_sprite s = XGD_SPRITE_INIT;
            s.position.x = frand(&seed, -10.0f, W + 10.0f);
            s.position.y = frand(&seed, -10.0f, H + 10.0f);
            s.rotation = frand(&seed, 0.0f, 6.2f);
            s.scale.x = s.scale.y = frand(&seed, 0.5f, 2.5f);
            s.color = (xgd_color){ 200, 200, 200, 200 };
            CHECK_INT(xgd_sprite_batch_draw(sb, run_tex, &s), XGD_OK);
        }
        xgd_statistics s0, s1;
        CHECK_INT(xgd_device_get_statistics(dev, &s0), XGD_OK);
        CHECK_INT(xgd_sprite_batch_end(sb), XGD_OK);
        CHECK_INT(xgd_device_get_statistics(dev, &s1), XGD_OK);
        out->sprite_draws = s1.draw_calls - s0.draw_calls;
        CHECK_INT(xgd_present(dev), XGD_OK);
    }
    CHECK_INT(xgd_get_back_buffer_data(dev, NULL, out->px, sizeof out->px), XGD_OK);
done:
    xgd_sprite_batch_destroy(sb);
    xgd_effect_destroy(tfx);
    xgd_texture_destroy(tex);
    xgd_texture_destroy(tex2);
    xgd_depth_stencil_state_destroy(stencil);
    xgd_occlusion_query_destroy(q);
    xgd_rasterizer_state_destroy(cull);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    return ok && t->failures == 0;
}

static int distinct_colors(const uint8_t *px)
{
    /* distinct values of a 12-bit hash of each pixel: a lower bound on the colours */
    static bool seen[4096];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (int i = 0; i < W * H; i++) {
        uint32_t h = ((uint32_t)px[i * 4] * 31u + px[i * 4 + 1]) * 31u + px[i * 4 + 2];
        h = (h ^ (h >> 12)) & 4095u;
        if (!seen[h]) {
            seen[h] = true;
            n++;
        }
    }
    return n;
}

static void compare_threads(xgdt_ctx *t, int msaa)
{
    static scene_out one, many, per_run;
    if (!draw_scene(t, "1", msaa, &one)) return;
    for (int k = 0; k < FRAMES * 2; k++) CHECK_MSG(one.counts[k] > 0, "query %d counted nothing", k);
    CHECK_MSG(distinct_colors(one.px) > 500, "the scene is too plain (%d colours)",
              distinct_colors(one.px));
    CHECK_MSG(one.sprite_draws >= 50, "the sprites made %llu runs, too few to test runs",
              (unsigned long long)one.sprite_draws);
    /* The renderer draws SpriteBatch's runs as one draw switching slot 0's texture; the rule is
       a draw per run ($XGD_SW_QUAD_RUNS=off), which must give the same bytes and counts. */
    setenv("XGD_SW_QUAD_RUNS", "off", 1);
    bool drew = draw_scene(t, "1", msaa, &per_run);
    unsetenv("XGD_SW_QUAD_RUNS");
    if (!drew) return;
    for (int k = 0; k < FRAMES * 2; k++)
        CHECK_MSG(per_run.counts[k] == one.counts[k], "msaa %d: query %d counted %llu a draw per "
                  "run, %llu as one draw", msaa, k, (unsigned long long)per_run.counts[k],
                  (unsigned long long)one.counts[k]);
    int differ = 0;
    for (int i = 0; i < W * H * 4; i++) differ += per_run.px[i] != one.px[i];
    CHECK_MSG(differ == 0, "msaa %d: %d bytes differ between a draw per run and one draw", msaa,
              differ);
    const char *counts[] = { "3", "5" };
    for (int n = 0; n < 2; n++) {
        if (!draw_scene(t, counts[n], msaa, &many)) return;
        for (int k = 0; k < FRAMES * 2; k++)
            CHECK_MSG(many.counts[k] == one.counts[k],
                      "msaa %d, %s threads: query %d counted %llu samples, one thread %llu", msaa,
                      counts[n], k, (unsigned long long)many.counts[k],
                      (unsigned long long)one.counts[k]);
        int bad = 0, first = -1;
        for (int i = 0; i < W * H * 4; i++)
            if (many.px[i] != one.px[i]) {
                if (first < 0) first = i / 4;
                bad++;
            }
        CHECK_MSG(bad == 0, "msaa %d, %s threads: %d bytes differ from one thread (first at %d,%d)",
                  msaa, counts[n], bad, first % W, first / W);
    }
}

XGD_TEST(SoftwareThreads_SameImage)
{
    compare_threads(t, 0);
}

XGD_TEST(SoftwareThreads_SameImageMsaa)
{
    compare_threads(t, 4);
}

/* The same with every shader in the executor (SpriteBatch's pixel shader then samples through
   each band's context copy, not the modulate shape) */
XGD_TEST(SoftwareThreads_SameImageExecutor)
{
    setenv("XGD_SW_EXECUTOR_ONLY", "1", 1);
    compare_threads(t, 0);
    unsetenv("XGD_SW_EXECUTOR_ONLY");
}

/* and with no draw banded (the pool's threads never run a band: the calling thread draws
   every recorded triangle, runs included) */
XGD_TEST(SoftwareThreads_SameImageUnbanded)
{
    setenv("XGD_SW_BAND_MIN_PIXELS", "2000000000", 1);
    compare_threads(t, 0);
    unsetenv("XGD_SW_BAND_MIN_PIXELS");
}
