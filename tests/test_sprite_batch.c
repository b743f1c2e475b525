/*
 * test_sprite_batch.c - SpriteBatch conformance (every renderer) and its error contract.
 *
 * Expected images come from the rules, not from the code under test:
 *   - a pixel is covered when its centre (x + .5, y + .5) is inside the sprite's quad, whose
 *     corners are position + rotate((corner * sourceSize - origin) * scale);
 *   - with point sampling, the pixel shows the texel its centre maps to through that formula
 *     inverted (source rectangle, flips mirror the texel index inside the source rectangle);
 *   - AlphaBlend is premultiplied: result = src + dst * (1 - src.a) per channel, src =
 *     texel * tint, stored in 8 bits as floor(clamp(v) * 255 + .5) (tolerance 1);
 *   - the sort mode decides which of several overlapping sprites is drawn last.
 * Back buffers are powers of two so the pixel projection is exact in float.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W = 32, H = 32 };

static const xgd_color CLEAR = { 20, 40, 60, 255 };

/* Texel (i, j) of the 4x4 test image: every texel distinct, no symmetry. */
static xgd_color texel(int i, int j)
{
    return (xgd_color){ (uint8_t)(30 + 60 * i), (uint8_t)(35 + 60 * j),
                        (uint8_t)(250 - 13 * (i + 4 * j)), 255 };
}

static xgd_device *sb_device(xgdt_ctx *t, int w, int h, xgd_depth_format depth)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = depth == XGD_DEPTH_FORMAT_DEFAULT ? XGD_DEPTH_FORMAT_NONE : depth;
    return xgdt_device(t, &dd);
}

static xgd_texture *grid_texture(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t rgba[4 * 4 * 4];
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            xgd_color c = texel(i, j);
            memcpy(&rgba[(j * 4 + i) * 4], &c, 4);
        }
    }
    return xgdt_image_texture(t, dev, 4, 4, rgba);
}

/* An expected image filled with the clear colour. */
static uint8_t *expect_image(int w, int h, xgd_color c)
{
    uint8_t *img = malloc((size_t)w * (size_t)h * 4);
    if (img == NULL) return NULL;
    for (int i = 0; i < w * h; i++) memcpy(&img[i * 4], &c, 4);
    return img;
}

static void put(uint8_t *img, int w, int x, int y, xgd_color c)
{
    memcpy(&img[(y * w + x) * 4], &c, 4);
}

static void fill(uint8_t *img, int w, int x0, int y0, int rw, int rh, xgd_color c)
{
    for (int y = y0; y < y0 + rh; y++)
        for (int x = x0; x < x0 + rw; x++) put(img, w, x, y, c);
}

static bool compare_back_buffer(xgdt_ctx *t, xgd_device *dev, const char *label,
                                const uint8_t *expected, int w, int h, int tolerance)
{
    uint8_t *actual = NULL;
    if (!xgdt_read_back_buffer(t, dev, w, h, &actual)) return false;
    bool ok = xgdt_compare_rgba(t, label, actual, expected, w, h, tolerance);
    free(actual);
    return ok;
}

static uint64_t draw_calls(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

static xgd_sprite_batch_begin_desc point_clamp(xgd_device *dev, xgd_sprite_sort_mode mode)
{
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    return d;
}

/* 8-bit storage of a float channel (team decision: floor(clamp(v) * 255 + .5)). */
static uint8_t q8(double v)
{
    if (v < 0.0) v = 0.0;
    if (v > 1.0) v = 1.0;
    return (uint8_t)floor(v * 255.0 + 0.5);
}

/* ---- geometry and sampling ---------------------------------------------------------------- */

/* An unrotated sprite at an integer position covers exactly its 4x4 destination pixels, each
 * showing the texel under it. */
XGD_FIXTURE(SpriteBatch_Unrotated)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 5, 7 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) put(exp, W, 5 + i, 7 + j, texel(i, j));
    compare_back_buffer(t, dev, "unrotated", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Scale 2 about origin (2, 2): corners at position + (corner - origin) * 2, so the sprite
 * spans position - 4 .. position + 4 and each texel covers 2x2 pixels. A destination
 * rectangle 8x4 stretches texels to 2x1. */
XGD_FIXTURE(SpriteBatch_ScaleOriginDestination)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 10, 10 },
                                                           .origin = { 2, 2 },
                                                           .scale = { 2, 2 },
                                                           .color = XGD_COLOR_WHITE }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .destination = &(xgd_rect){ 18, 20, 8, 4 },
                                                           .color = XGD_COLOR_WHITE }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int y = 6; y < 14; y++)
        for (int x = 6; x < 14; x++) put(exp, W, x, y, texel((x - 6) / 2, (y - 6) / 2));
    for (int y = 20; y < 24; y++)
        for (int x = 18; x < 26; x++) put(exp, W, x, y, texel((x - 18) / 2, y - 20));
    compare_back_buffer(t, dev, "scale", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Source rectangle (1, 2, 2, 2): a 2x2 sprite of texels (1..2, 2..3). No source rectangle
 * (NULL, XNA's null) means the whole texture. */
XGD_FIXTURE(SpriteBatch_SourceRectangle)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 3, 3 },
                                                           .source = &(xgd_rect){ 1, 2, 2, 2 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 20, 3 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 2; j++)
        for (int i = 0; i < 2; i++) put(exp, W, 3 + i, 3 + j, texel(1 + i, 2 + j));
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) put(exp, W, 20 + i, 3 + j, texel(i, j));
    compare_back_buffer(t, dev, "source", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Flips mirror the texels inside the source rectangle and leave the covered pixels alone:
 * FlipHorizontally shows texel (sw-1-i, j), FlipVertically (i, sh-1-j), both (sw-1-i, sh-1-j).
 * The last sprite flips a 2x4 source rectangle. None is culled by CullCounterClockwise. */
XGD_FIXTURE(SpriteBatch_Flips)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){
        .position = { 2, 2 }, .color = XGD_COLOR_WHITE, .effects = XGD_SPRITE_FLIP_HORIZONTALLY,
        .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){
        .position = { 10, 2 }, .color = XGD_COLOR_WHITE, .effects = XGD_SPRITE_FLIP_VERTICALLY,
        .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){
        .position = { 18, 2 }, .color = XGD_COLOR_WHITE,
        .effects = (xgd_sprite_effects)(XGD_SPRITE_FLIP_HORIZONTALLY |
                                        XGD_SPRITE_FLIP_VERTICALLY), .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){
        .position = { 2, 10 }, .source = &(xgd_rect){ 0, 0, 2, 4 }, .color = XGD_COLOR_WHITE,
        .effects = XGD_SPRITE_FLIP_HORIZONTALLY, .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            put(exp, W, 2 + i, 2 + j, texel(3 - i, j));
            put(exp, W, 10 + i, 2 + j, texel(i, 3 - j));
            put(exp, W, 18 + i, 2 + j, texel(3 - i, 3 - j));
        }
        for (int i = 0; i < 2; i++) put(exp, W, 2 + i, 10 + j, texel(1 - i, j));
    }
    compare_back_buffer(t, dev, "flips", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Rotation by +90 degrees (clockwise on screen) about origin (0, 0) at position (20, 4):
 * texel centre (i + .5, j + .5) goes to (20 - (j + .5), 4 + (i + .5)), i.e. pixel
 * (19 - j, 4 + i). With origin (2, 2) at (10, 20) the centre (i + .5 - 2, j + .5 - 2) goes to
 * pixel (10 - (j + .5 - 2) - .5, 20 + (i + .5 - 2) - .5) = (11 - j, 18 + i). */
XGD_FIXTURE(SpriteBatch_Rotation90)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    const float quarter = 1.57079632679489662f;
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 20, 4 },
                                                           .rotation = quarter,
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 10, 20 },
                                                           .origin = { 2, 2 },
                                                           .rotation = quarter,
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 4; j++) {
        for (int i = 0; i < 4; i++) {
            put(exp, W, 19 - j, 4 + i, texel(i, j));
            put(exp, W, 11 - j, 18 + i, texel(i, j));
        }
    }
    compare_back_buffer(t, dev, "rotation", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- colour --------------------------------------------------------------------------------- */

/* Tint multiplies the texel; AlphaBlend (the default) is premultiplied:
 * result = src + dst * (1 - src.a), per channel including alpha. */
XGD_FIXTURE(SpriteBatch_TintPremultipliedBlend)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    const xgd_color white = XGD_COLOR_WHITE, base = { 200, 100, 50, 255 };
    xgd_texture *wtex = xgdt_solid_texture(t, dev, 4, 4, white);
    xgd_texture *ctex = xgdt_solid_texture(t, dev, 4, 4, base);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(wtex != NULL && ctex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    const xgd_color tint_a = { 100, 50, 25, 128 };   /* translucent, premultiplied */
    const xgd_color tint_b = { 128, 255, 64, 255 };  /* opaque */
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));       /* defaults: AlphaBlend, LinearClamp */
    CHECK_OK(xgd_sprite_batch_draw(sb, wtex, &(xgd_sprite){ .position = { 4, 4 },
                                                            .color = tint_a, .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, ctex, &(xgd_sprite){ .position = { 16, 4 },
                                                            .color = tint_b, .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));

    const uint8_t dst[4] = { CLEAR.r, CLEAR.g, CLEAR.b, CLEAR.a };
    const uint8_t ta[4] = { tint_a.r, tint_a.g, tint_a.b, tint_a.a };
    const uint8_t tb[4] = { tint_b.r, tint_b.g, tint_b.b, tint_b.a };
    const uint8_t bc[4] = { base.r, base.g, base.b, base.a };
    uint8_t ea[4], eb[4];
    double sa_a = ta[3] / 255.0, sa_b = (tb[3] / 255.0) * (bc[3] / 255.0);
    for (int c = 0; c < 4; c++) {
        double src_a = ta[c] / 255.0;                       /* white texel * tint */
        double src_b = (bc[c] / 255.0) * (tb[c] / 255.0);
        ea[c] = q8(src_a + dst[c] / 255.0 * (1.0 - sa_a));
        eb[c] = q8(src_b + dst[c] / 255.0 * (1.0 - sa_b));
    }
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    fill(exp, W, 4, 4, 4, 4, (xgd_color){ ea[0], ea[1], ea[2], ea[3] });
    fill(exp, W, 16, 4, 4, 4, (xgd_color){ eb[0], eb[1], eb[2], eb[3] });
    compare_back_buffer(t, dev, "tint", exp, W, H, 1);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(wtex);
    xgd_texture_destroy(ctex);
    xgd_device_destroy(dev);
}

/* ---- sorting ---------------------------------------------------------------------------------- */

/* Four opaque sprites over the same pixels, submitted red (.2), green (.8), blue (.5),
 * yellow (.2). The sort puts last: Deferred yellow (submission order); BackToFront
 * (descending, stable) green, blue, red, yellow -> yellow; FrontToBack (ascending, stable)
 * red, yellow, blue, green -> green; a stable sort keeps red before yellow. A second group
 * checks BackToFront keeps the earlier of equal depths first: red (.2) then yellow (.2) and
 * blue (.9) -> blue, red, yellow. */
static void sort_scene(xgdt_ctx *t, xgd_sprite_sort_mode mode, xgd_color expect_a,
                       xgd_color expect_b)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    const xgd_color red = { 255, 0, 0, 255 }, green = { 0, 255, 0, 255 },
                    blue = { 0, 0, 255, 255 }, yellow = { 255, 255, 0, 255 };
    xgd_texture *tex = xgdt_solid_texture(t, dev, 4, 4, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, mode);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    const struct { xgd_color c; float depth; float x; } order[] = {
        { red, 0.2f, 4 }, { green, 0.8f, 4 }, { blue, 0.5f, 4 }, { yellow, 0.2f, 4 },
        { red, 0.2f, 16 }, { yellow, 0.2f, 16 }, { blue, 0.9f, 16 },
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { order[i].x, 8 },
                                                               .color = order[i].c,
                                                               .layer_depth = order[i].depth,
                                                               .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    fill(exp, W, 4, 8, 4, 4, expect_a);
    fill(exp, W, 16, 8, 4, 4, expect_b);
    compare_back_buffer(t, dev, "sort", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_SortBackToFront)
{
    sort_scene(t, XGD_SPRITE_SORT_BACK_TO_FRONT, (xgd_color){ 255, 255, 0, 255 },
               (xgd_color){ 255, 255, 0, 255 });
}

XGD_FIXTURE(SpriteBatch_SortFrontToBack)
{
    /* group b ascending: red (.2), yellow (.2), blue (.9) -> blue last */
    sort_scene(t, XGD_SPRITE_SORT_FRONT_TO_BACK, (xgd_color){ 0, 255, 0, 255 },
               (xgd_color){ 0, 0, 255, 255 });
}

XGD_FIXTURE(SpriteBatch_SortDeferred)
{
    sort_scene(t, XGD_SPRITE_SORT_DEFERRED, (xgd_color){ 255, 255, 0, 255 },
               (xgd_color){ 0, 0, 255, 255 });
}

/* One draw per run of equal textures: Deferred A A B B A -> 3 runs; Texture sort groups them
 * -> 2. Each End that draws counts one sprite batch. */
XGD_FIXTURE(SpriteBatch_TextureBatching)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    const xgd_color ca = { 255, 0, 0, 255 }, cb = { 0, 0, 255, 255 };
    xgd_texture *a = xgdt_solid_texture(t, dev, 2, 2, ca);
    xgd_texture *b = xgdt_solid_texture(t, dev, 2, 2, cb);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(a != NULL && b != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_texture *seq[5] = { a, a, b, b, a };
    const xgd_sprite_sort_mode modes[2] = { XGD_SPRITE_SORT_DEFERRED, XGD_SPRITE_SORT_TEXTURE };
    const uint64_t want[2] = { 3, 2 };
    for (int m = 0; m < 2; m++) {
        CHECK_OK(xgd_clear_color(dev, CLEAR));
        xgd_statistics s0, s1;
        CHECK_OK(xgd_device_get_statistics(dev, &s0));
        xgd_sprite_batch_begin_desc bd = point_clamp(dev, modes[m]);
        CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
        for (int i = 0; i < 5; i++)
            CHECK_OK(xgd_sprite_batch_draw(sb, seq[i], &(xgd_sprite){
                .position = { (float)(2 + 4 * i), 2 }, .color = XGD_COLOR_WHITE,
                .scale = { 1, 1 } }));
        CHECK_INT(draw_calls(dev), s0.draw_calls); /* nothing drawn before End */
        CHECK_OK(xgd_sprite_batch_end(sb));
        CHECK_OK(xgd_device_get_statistics(dev, &s1));
        CHECK_INT(s1.draw_calls - s0.draw_calls, want[m]);
        CHECK_INT(s1.sprite_batches - s0.sprite_batches, 1);
        uint8_t *exp = expect_image(W, H, CLEAR);
        REQUIRE(exp != NULL);
        for (int i = 0; i < 5; i++) fill(exp, W, 2 + 4 * i, 2, 2, 2, seq[i] == a ? ca : cb);
        compare_back_buffer(t, dev, m == 0 ? "deferred" : "texture", exp, W, H, 0);
        free(exp);
    }
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(a);
    xgd_texture_destroy(b);
    xgd_device_destroy(dev);
}

/* More sprites than one draw call takes (2048 with 16-bit indices): 2100 one-pixel sprites of
 * one texture need two draws, and every sprite lands on its own pixel with its own tint. */
XGD_FIXTURE(SpriteBatch_LargeBatchSplits)
{
    enum { BW = 64, BH = 64, N = 2100 };
    xgd_device *dev = sb_device(t, BW, BH, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 1, 1, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    uint64_t before = draw_calls(dev);
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    uint8_t *exp = expect_image(BW, BH, CLEAR);
    REQUIRE(exp != NULL);
    for (int i = 0; i < N; i++) {
        xgd_color c = { (uint8_t)(i * 7), (uint8_t)(i / 9), (uint8_t)(255 - i % 200), 255 };
        int x = i % BW, y = i / BW;
        CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { (float)x, (float)y },
                                                               .color = c, .scale = { 1, 1 } }));
        put(exp, BW, x, y, c);
    }
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_INT(draw_calls(dev) - before, 2);
    compare_back_buffer(t, dev, "large", exp, BW, BH, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Immediate draws at each Draw call (the pixels are there before End), one draw per sprite. */
XGD_FIXTURE(SpriteBatch_Immediate)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    const xgd_color green = { 0, 255, 0, 255 };
    xgd_texture *tex = xgdt_solid_texture(t, dev, 4, 4, green);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    uint64_t before = draw_calls(dev);
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_IMMEDIATE);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 6, 6 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_INT(draw_calls(dev) - before, 1);
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    fill(exp, W, 6, 6, 4, 4, green);
    compare_back_buffer(t, dev, "first", exp, W, H, 0);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 20, 6 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_INT(draw_calls(dev) - before, 2);
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_INT(draw_calls(dev) - before, 2);
    fill(exp, W, 20, 6, 4, 4, green);
    compare_back_buffer(t, dev, "second", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* The Begin transform applies before the projection: a translation by (7, 3) moves a sprite
 * drawn at (2, 2) to (9, 5). */
XGD_FIXTURE(SpriteBatch_Transform)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_matrix m = xgd_matrix_create_translation(7, 3, 0);
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    bd.transform = &m;
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    m = xgd_matrix_identity(); /* copied at Begin: later changes do not count */
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 2, 2 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) put(exp, W, 9 + i, 5 + j, texel(i, j));
    compare_back_buffer(t, dev, "transform", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* A custom effect is applied after the stock sprite shader, as XNA's SpriteBatch applies it
 * per batch, so its program and constants are the ones that draw: a SpriteEffect whose matrix
 * adds a translation by (4, 0) before the pixel projection moves a sprite at (2, 2) to (6, 2). */
XGD_FIXTURE(SpriteBatch_CustomEffect)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = grid_texture(t, dev);
    xgd_effect *fx = NULL;
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_matrix move = xgd_matrix_create_translation(4, 0, 0);
    xgd_matrix proj = xgd_matrix_create_orthographic_off_center(0, W, H, 0, 0, -1);
    xgd_matrix m = xgd_matrix_multiply(&move, &proj);
    CHECK_OK(xgd_sprite_effect_set_matrix(fx, &m));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    bd.effect = fx;
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 2, 2 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) put(exp, W, 6 + i, 2 + j, texel(i, j));
    compare_back_buffer(t, dev, "custom", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Spec 002: SpriteBatch derives its projection from the effective viewport, so sprite
 * coordinates are local to it. With the viewport at (8, 8, 16, 16) a sprite at (0, 0) lands at
 * back-buffer (8, 8); one at (14, 14) is cut at the viewport's edge (only 2x2 pixels left). */
XGD_FIXTURE(SpriteBatch_CustomViewport)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    const xgd_color red = { 255, 0, 0, 255 };
    xgd_texture *tex = xgdt_solid_texture(t, dev, 4, 4, red);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 8, 8, 16, 16, 0.0f, 1.0f }));
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 0, 0 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 14, 14 },
                                                           .color = XGD_COLOR_WHITE,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    fill(exp, W, 8, 8, 4, 4, red);
    fill(exp, W, 22, 22, 2, 2, red);
    compare_back_buffer(t, dev, "viewport", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Layer depth is the vertex z and reaches the depth buffer unchanged: with DepthStencil Default
 * (LessEqual) a sprite at depth .7 behind one at .5 fails, one at .3 passes. */
XGD_FIXTURE(SpriteBatch_LayerDepthIsZ)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24);
    REQUIRE(dev != NULL);
    const xgd_color red = { 255, 0, 0, 255 }, green = { 0, 255, 0, 255 },
                    blue = { 0, 0, 255, 255 };
    xgd_texture *tex = xgdt_solid_texture(t, dev, 4, 4, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, CLEAR)); /* depth 1 */
    xgd_sprite_batch_begin_desc bd = point_clamp(dev, XGD_SPRITE_SORT_DEFERRED);
    bd.depth_stencil_state = xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT);
    CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 4, 4 }, .color = red,
                                                           .layer_depth = 0.5f,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 4, 4 }, .color = green,
                                                           .layer_depth = 0.7f,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 12, 4 }, .color = red,
                                                           .layer_depth = 0.5f,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 12, 4 }, .color = blue,
                                                           .layer_depth = 0.3f,
                                                           .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *exp = expect_image(W, H, CLEAR);
    REQUIRE(exp != NULL);
    fill(exp, W, 4, 4, 4, 4, red);
    fill(exp, W, 12, 4, 4, 4, blue);
    compare_back_buffer(t, dev, "depth", exp, W, H, 0);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- errors ----------------------------------------------------------------------------------- */

XGD_FIXTURE(SpriteBatch_Errors)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const xgd_sprite s = { .position = { 1, 1 }, .color = XGD_COLOR_WHITE, .scale = { 1, 1 } };

    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &s), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_create(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_begin(NULL, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){
                     .sort_mode = (xgd_sprite_sort_mode)99 }),
                 XGD_ERROR_INVALID_ARGUMENT);

    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_RESULT(xgd_sprite_batch_begin(sb, NULL), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, NULL, &s), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_sprite bad = s;
    bad.rotation = NAN;
    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &bad), XGD_ERROR_INVALID_ARGUMENT);
    /* failed calls left the batch open and empty: End draws nothing and succeeds */
    uint64_t before = draw_calls(dev);
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_INT(draw_calls(dev) - before, 0);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_INVALID_OPERATION);

    /* a texture destroyed between Draw and End: End reports it and draws nothing */
    xgd_texture *gone = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    REQUIRE(gone != NULL);
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, gone, &s));
    xgd_texture_destroy(gone);
    before = draw_calls(dev);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_INT(draw_calls(dev) - before, 0);
    /* the batch ended anyway */
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_end(sb));

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* A sprite batch (and a texture) outliving the device answer OBJECT_DISPOSED, even when the
 * device went away inside Begin/End; destroying the shells afterwards is harmless. */
XGD_FIXTURE(SpriteBatch_DisposedWithDevice)
{
    xgd_device *dev = sb_device(t, W, H, XGD_DEPTH_FORMAT_NONE);
    REQUIRE(dev != NULL);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    xgd_sprite_batch *sb = NULL, *open = NULL;
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &open));
    const xgd_sprite s = { .position = { 1, 1 }, .color = XGD_COLOR_WHITE, .scale = { 1, 1 } };
    CHECK_OK(xgd_sprite_batch_begin(open, NULL));
    CHECK_OK(xgd_sprite_batch_draw(open, tex, &s));

    xgd_device_destroy(dev);

    CHECK_RESULT(xgd_sprite_batch_begin(sb, NULL), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &s), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_draw(open, tex, &s), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_end(open), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch_destroy(sb);
    xgd_sprite_batch_destroy(open);
    xgd_texture_destroy(tex);
}
