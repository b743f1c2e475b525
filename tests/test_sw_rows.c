/*
 * test_sw_rows.c - the software renderer's row path for SpriteBatch (sw_mod_rows in
 * sw_raster.c) draws four pixels at once in SSE2 builds, and those bytes must be the ones it
 * draws one pixel at a time, which must be the SPIR-V executor's on the quad path.
 *
 * Rule: the four-pixel form is only a faster way to compute the same IEEE operations per pixel;
 * the reference images come from the general paths, never from the form under test:
 * $XGD_SW_ROWS_SCALAR=1 (the row path one pixel at a time) and $XGD_SW_EXECUTOR_ONLY=1 (no
 * recognised shape: the executor runs the stock sprite shader on 2x2 quads), both read when a
 * device is created.
 *
 * SwRows_FourPixelsSameAsOne: randomised SpriteBatch scenes under AlphaBlend: textures of odd
 * sizes (1x1 up to 64x4) with random texels, point and linear filters with each address mode
 * on each axis, sprites texel-exact, scaled by whole numbers, rotated and scaled with fractional
 * positions (bilinear weights, coordinates outside the texture through the address modes),
 * corners on pixel centres (edges through pixel centres: the fill rule's ties, exact divisions),
 * source rectangles reaching outside the texture, flips, tints white, grey (one value in
 * every channel), with one channel apart from three equal ones, and random, and a few huge
 * sprites (clipped, edge values beyond 2^52 in the guard band); then triangles of the stock
 * SpriteEffect with random corners, coordinates and a colour per vertex (half of them with
 * one grey for all three), a third of them with corners on pixel centres (sloped edges through
 * pixel centres every few rows: sw_mod_rows's stepped spans reach a remainder equal to their
 * divisor there, for left edges). Drawn on one thread and banded on three; every image must
 * equal both references, and the scenes must cover most of the target. Last, six triangles
 * whose right edge has the value exactly 1 at a pixel centre (the fill rule's bias leaves 0
 * there), the one case where the stepped span's carry on an exact divisor decides a pixel: a
 * carry on > instead of >= loses that pixel (seen: 9 bytes differ from the executor's).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include "fixture_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RW = 97, RH = 61, NTEX = 5, NSAMP = 9 };

static uint32_t rows_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

typedef enum rows_mode { ROWS_DEFAULT, ROWS_SCALAR, ROWS_EXECUTOR } rows_mode;

/* Draws the scenes on a new software device; false (a failure recorded) when something
   could not be made. */
static bool rows_draw(xgdt_ctx *t, rows_mode mode, const char *threads, uint32_t seed, uint8_t *px)
{
    if (mode == ROWS_SCALAR) setenv("XGD_SW_ROWS_SCALAR", "1", 1);
    if (mode == ROWS_EXECUTOR) setenv("XGD_SW_EXECUTOR_ONLY", "1", 1);
    setenv("XGD_SW_THREADS", threads, 1);
    setenv("XGD_SW_BAND_MIN_PIXELS", "0", 1);
    xgd_device *dev = fx_device(t, RW, RH, XGD_DEPTH_FORMAT_NONE, 0);
    unsetenv("XGD_SW_ROWS_SCALAR");
    unsetenv("XGD_SW_EXECUTOR_ONLY");
    unsetenv("XGD_SW_THREADS");
    unsetenv("XGD_SW_BAND_MIN_PIXELS");
    if (dev == NULL) return false;
    bool ok = true;
    xgd_sprite_batch *batch = NULL;
    xgd_texture *tex[NTEX] = { NULL };
    xgd_sampler_state *samp[NSAMP] = { NULL };
    static const int sizes[NTEX][2] = { { 1, 1 }, { 3, 5 }, { 16, 16 }, { 17, 9 }, { 64, 4 } };
    CHECK_OK(xgd_sprite_batch_create(dev, &batch));
    for (int k = 0; k < NTEX && ok; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        static uint8_t data[64 * 16 * 4];
        for (int i = 0; i < w * h * 4; i++) data[i] = (uint8_t)rows_rand(&seed);
        /* some texels opaque, some fully transparent */
        for (int i = 0; i < w * h; i += 3) data[i * 4 + 3] = (uint8_t)(i % 2 ? 255 : 0);
        CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = w, .height = h }, &tex[k]));
        if (tex[k] == NULL) ok = false;
        else CHECK_OK(xgd_texture_set_data(tex[k], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data,
                                           (size_t)w * (size_t)h * 4));
    }
    static const xgd_texture_address_mode modes[3] = { XGD_ADDRESS_CLAMP, XGD_ADDRESS_WRAP,
                                                       XGD_ADDRESS_MIRROR };
    for (int k = 0; k < NSAMP && ok; k++) {
        xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
        sd.filter = k % 2 ? XGD_FILTER_POINT : XGD_FILTER_LINEAR;
        sd.address_u = modes[k % 3];
        sd.address_v = modes[(k / 3) % 3];
        CHECK_OK(xgd_sampler_state_create(dev, &sd, &samp[k]));
        if (samp[k] == NULL) ok = false;
    }
    if (batch == NULL || !ok) {
        ok = false;
        goto done;
    }
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 30, 40, 50, 255 }));
    for (int pass = 0; pass < 2 * NSAMP && ok; pass++) {
        xgd_sprite_batch_begin_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.sampler_state = samp[pass % NSAMP];
        CHECK_OK(xgd_sprite_batch_begin(batch, &bd));
        for (int i = 0; i < 120 && ok; i++) {
            xgd_sprite s = XGD_SPRITE_INIT;
            s.position.x = (float)(rows_rand(&seed) % (RW + 30)) - 20.0f;
            s.position.y = (float)(rows_rand(&seed) % (RH + 30)) - 20.0f;
            uint32_t tint = rows_rand(&seed) % 5;
            if (tint == 1) {
                uint8_t g = (uint8_t)rows_rand(&seed);
                s.color = (xgd_color){ g, g, g, g };
            } else if (tint >= 3) {
                /* one channel apart from the three others */
                uint8_t g = (uint8_t)rows_rand(&seed), h = (uint8_t)(g ^ (1 + rows_rand(&seed) % 255));
                s.color = (xgd_color){ g, g, g, g };
                if (tint == 3) s.color.g = h;
                else s.color.a = h;
            } else if (tint == 2) {
                s.color = (xgd_color){ (uint8_t)rows_rand(&seed), (uint8_t)rows_rand(&seed),
                                       (uint8_t)rows_rand(&seed), (uint8_t)rows_rand(&seed) };
            }
            s.effects = (xgd_sprite_effects)(rows_rand(&seed) % 4);
            xgd_rect src;
            int which = (int)(rows_rand(&seed) % NTEX);
            switch (rows_rand(&seed) % 6) {
            case 5: /* corners on pixel centres: edges through centres (the fill rule's ties) */
                s.position.x += 0.5f;
                s.position.y += 0.5f;
                s.scale.x = (float)(1 + rows_rand(&seed) % 3);
                s.scale.y = (float)(1 + rows_rand(&seed) % 3);
                break;
            case 0: /* texel-exact */
                break;
            case 1: /* whole-number scale */
                s.scale.x = (float)(1 + rows_rand(&seed) % 3);
                s.scale.y = (float)(1 + rows_rand(&seed) % 3);
                break;
            case 2: /* rotated, scaled, fractional */
                s.position.x += (float)(rows_rand(&seed) % 256) / 256.0f;
                s.position.y += (float)(rows_rand(&seed) % 100) / 100.0f;
                s.rotation = (float)(rows_rand(&seed) % 628) / 100.0f;
                s.scale.x = 0.5f + (float)(rows_rand(&seed) % 400) / 100.0f;
                s.scale.y = 0.5f + (float)(rows_rand(&seed) % 400) / 100.0f;
                s.origin = (xgd_vector2){ 2.0f, 3.0f };
                break;
            case 3: /* a source rectangle reaching outside the texture */
                src.x = (int)(rows_rand(&seed) % 40) - 20;
                src.y = (int)(rows_rand(&seed) % 40) - 20;
                src.width = 1 + (int)(rows_rand(&seed) % 30);
                src.height = 1 + (int)(rows_rand(&seed) % 30);
                s.source = &src;
                s.position.x += (float)(rows_rand(&seed) % 4) / 4.0f;
                break;
            default: /* huge: clipped, far-away vertices */
                if (rows_rand(&seed) % 6 != 0) break;
                s.scale.x = s.scale.y = (float)(1000 + rows_rand(&seed) % 200000);
                s.rotation = (float)(rows_rand(&seed) % 628) / 100.0f;
                s.origin = (xgd_vector2){ 0.4f, 0.6f };
                s.color.a = (uint8_t)(s.color.a / 8); /* the scene still shows through */
                s.color.r = (uint8_t)(s.color.r / 8);
                s.color.g = (uint8_t)(s.color.g / 8);
                s.color.b = (uint8_t)(s.color.b / 8);
                break;
            }
            CHECK_OK(xgd_sprite_batch_draw(batch, tex[which], &s));
        }
        CHECK_OK(xgd_sprite_batch_end(batch));
    }
    /* triangles of the stock SpriteEffect with a colour per vertex (SpriteBatch gives a sprite's
       four one colour) and random coordinates, drawn through AlphaBlend */
    xgd_effect *fx = NULL;
    xgd_rasterizer_state *rs = ok ? fx_cull_none(t, dev) : NULL;
    CHECK_OK(xgd_sprite_effect_create(dev, &fx));
    if (fx != NULL && rs != NULL) {
        CHECK_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND)));
        for (int pass = 0; pass < NSAMP && ok; pass++) {
            CHECK_OK(xgd_set_texture(dev, 0, tex[pass % NTEX]));
            CHECK_OK(xgd_set_sampler_state(dev, 0, samp[pass]));
            CHECK_OK(xgd_effect_apply(fx));
            xgd_vertex_position_color_texture vx[3 * 20];
            for (int i = 0; i < 3 * 20; i++) {
                vx[i].position = (xgd_vector3){ (float)(rows_rand(&seed) % (256 * (RW + 20))) / 256.0f - 10.0f,
                                                (float)(rows_rand(&seed) % (256 * (RH + 20))) / 256.0f - 10.0f,
                                                0.0f };
                if (pass % 3 == 0) /* corners on pixel centres: sloped edges through pixel
                                      centres every few rows, where a stepped span's
                                      remainder reaches its divisor exactly */
                    vx[i].position = (xgd_vector3){ (float)(rows_rand(&seed) % RW) + 0.5f,
                                                    (float)(rows_rand(&seed) % RH) + 0.5f, 0.0f };
                vx[i].color = (xgd_color){ (uint8_t)rows_rand(&seed), (uint8_t)rows_rand(&seed),
                                           (uint8_t)rows_rand(&seed), (uint8_t)rows_rand(&seed) };
                if (i % 6 < 3) vx[i].color = (xgd_color){ 200, 200, 200, 200 };
                vx[i].texture_coordinate = (xgd_vector2){ (float)(rows_rand(&seed) % 400) / 100.0f - 1.5f,
                                                          (float)(rows_rand(&seed) % 400) / 100.0f - 1.5f };
            }
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, vx, 0, 20,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        }
        /* right edges through a point 1/65536 of a pixel's area inside a pixel centre: from
           (0.5 + 1/256, 0.5) by (2m, 2m + 1/256), whose edge value at pixel (2m, 2m) is exactly
           1, so the fill rule's bias (1: right edges are exclusive) leaves 0 there and the
           stepped span's remainder lands exactly on its divisor on that row; the third corner
           is to the left, below */
        if (ok) {
            xgd_vertex_position_color_texture ex[3 * 6];
            for (int m = 2; m < 8; m++) {
                xgd_vertex_position_color_texture *tri = &ex[3 * (m - 2)];
                tri[0].position = (xgd_vector3){ 0.5f + 1.0f / 256.0f, 0.5f, 0.0f };
                tri[1].position = (xgd_vector3){ 0.5f + 1.0f / 256.0f + (float)(2 * m),
                                                 0.5f + (float)(2 * m) + 1.0f / 256.0f, 0.0f };
                tri[2].position = (xgd_vector3){ 0.5f - (float)m, 0.5f + (float)(2 * m) + 7.0f, 0.0f };
                for (int k = 0; k < 3; k++) {
                    tri[k].position.x += (float)(10 * (m - 2)); /* side by side */
                    tri[k].color = (xgd_color){ 255, (uint8_t)(40 * m), (uint8_t)(30 * k), 255 };
                    tri[k].texture_coordinate = (xgd_vector2){ 0.25f * (float)k, 0.5f };
                }
            }
            CHECK_OK(xgd_set_texture(dev, 0, tex[0]));
            CHECK_OK(xgd_set_sampler_state(dev, 0, samp[0]));
            CHECK_OK(xgd_effect_apply(fx));
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, ex, 0, 6,
                                              xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        }
        xgd_set_texture(dev, 0, NULL);
    }
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    CHECK_OK(xgd_get_back_buffer_data(dev, NULL, px, (size_t)RW * RH * 4));
done:
    for (int k = 0; k < NSAMP; k++) xgd_sampler_state_destroy(samp[k]);
    for (int k = 0; k < NTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_sprite_batch_destroy(batch);
    xgd_device_destroy(dev);
    return ok;
}

static int rows_diff(const uint8_t *a, const uint8_t *b, int *first)
{
    int bad = 0;
    *first = -1;
    for (int i = 0; i < RW * RH * 4; i++)
        if (a[i] != b[i]) {
            if (*first < 0) *first = i / 4;
            bad++;
        }
    return bad;
}

XGD_TEST(SwRows_FourPixelsSameAsOne)
{
    static uint8_t scalar[RW * RH * 4], exec[RW * RH * 4], got[RW * RH * 4];
    static const char *threads[2] = { "1", "3" };
    for (uint32_t seed = 1; seed <= 3; seed++) {
        if (!rows_draw(t, ROWS_SCALAR, "1", seed, scalar)) return;
        if (!rows_draw(t, ROWS_EXECUTOR, "1", seed, exec)) return;
        int drawn = 0, first;
        for (int i = 0; i < RW * RH; i++)
            if (scalar[i * 4] != 30 || scalar[i * 4 + 1] != 40 || scalar[i * 4 + 2] != 50) drawn++;
        CHECK_MSG(drawn > RW * RH * 3 / 4, "seed %u: only %d of %d pixels drawn", seed, drawn, RW * RH);
        int bad = rows_diff(scalar, exec, &first);
        CHECK_MSG(bad == 0, "seed %u: one pixel at a time, %d bytes differ from the executor's "
                  "(first at %d,%d)", seed, bad, first % RW, first / RW);
        for (int k = 0; k < 2; k++) {
            if (!rows_draw(t, ROWS_DEFAULT, threads[k], seed, got)) return;
            bad = rows_diff(got, scalar, &first);
            CHECK_MSG(bad == 0, "seed %u, %s threads: %d bytes differ from one pixel at a time "
                      "(first at %d,%d)", seed, threads[k], bad, first % RW, first / RW);
            bad = rows_diff(got, exec, &first);
            CHECK_MSG(bad == 0, "seed %u, %s threads: %d bytes differ from the executor's "
                      "(first at %d,%d)", seed, threads[k], bad, first % RW, first / RW);
        }
    }
}
