/*
 * fixture_sprite_large.c - a SpriteBatch larger than any one buffer a renderer streams sprites
 * through: more sprites than the Vulkan upload ring holds (32 MiB, 96 bytes a sprite: 349,525),
 * drawn in many chunks, each of many texture runs.
 *
 * The rule: End draws the queue (Deferred: in Draw order; Texture: stably sorted by each
 * texture's first appearance) as if each sprite were drawn alone, so with opaque colours each
 * pixel shows the last sprite drawn over it, whatever chunks, runs or buffers carried it. The
 * expected image is that rule applied to the sprite list, here.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

enum { LW = 16, LH = 16, LN = 400000, RUN = 80 };

/* sprite i: a 1x1 texel at pixel i % (LW * LH), its own colour, texture A or B by runs of RUN
   sprites (RUN does not divide LW * LH, so both textures reach every pixel) */
static xgd_color sprite_color(int i)
{
    return (xgd_color){ (uint8_t)(i * 37), (uint8_t)(i >> 8), (uint8_t)(i * 11 + 3), 255 };
}
static int sprite_texture(int i) { return (i / RUN) % 2; }

/* texture A is white, B is yellow: a sprite of B shows its colour with blue 0 */
static void expect_pixel(uint8_t *img, int i)
{
    xgd_color c = sprite_color(i);
    uint8_t *p = &img[(i % (LW * LH)) * 4];
    p[0] = c.r;
    p[1] = c.g;
    p[2] = sprite_texture(i) ? 0 : c.b;
    p[3] = 255;
}

static void large_batch(xgdt_ctx *t, xgd_sprite_sort_mode mode)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = LW;
    dd.pp.back_buffer_height = LH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev != NULL);
    const uint8_t white[4] = { 255, 255, 255, 255 }, yellow[4] = { 255, 255, 0, 255 };
    xgd_texture *tex[2] = { xgdt_image_texture(t, dev, 1, 1, white),
                            xgdt_image_texture(t, dev, 1, 1, yellow) };
    REQUIRE(tex[0] != NULL && tex[1] != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    CHECK_OK(xgd_sprite_batch_begin(sb, &d));
    xgd_sprite s = XGD_SPRITE_INIT;
    for (int i = 0; i < LN; i++) {
        s.position = (xgd_vector2){ (float)(i % LW), (float)(i / LW % LH) };
        s.color = sprite_color(i);
        xgd_result r = xgd_sprite_batch_draw(sb, tex[sprite_texture(i)], &s);
        if (r != XGD_OK) {
            CHECK_MSG(false, "sprite %d: %s", i, xgd_result_name(r));
            break;
        }
    }
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    /* every sprite drawn once: two triangles each */
    CHECK(s1.primitives - s0.primitives == 2ull * LN);

    uint8_t *want = calloc(LW * LH * 4, 1);
    REQUIRE(want != NULL);
    if (mode == XGD_SPRITE_SORT_TEXTURE) {
        /* texture A (first seen) before B, each in Draw order */
        for (int pass = 0; pass < 2; pass++)
            for (int i = 0; i < LN; i++)
                if (sprite_texture(i) == pass) expect_pixel(want, i);
    } else {
        for (int i = 0; i < LN; i++) expect_pixel(want, i);
    }
    uint8_t *got = NULL;
    if (xgdt_read_back_buffer(t, dev, LW, LH, &got)) {
        CHECK(xgdt_compare_rgba(t, "large batch", got, want, LW, LH, 1));
        free(got);
    }
    free(want);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex[0]);
    xgd_texture_destroy(tex[1]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_LargerThanRingDeferred) { large_batch(t, XGD_SPRITE_SORT_DEFERRED); }
XGD_FIXTURE(SpriteBatch_LargerThanRingTextureSort) { large_batch(t, XGD_SPRITE_SORT_TEXTURE); }
