/*
 * fixture_sprite_run.c - SpriteBatch.Draw of a sprite whose texture is the previous sprite's
 * (the common call, which SpriteBatch takes through a shorter path) behaves as the first
 * sprite of a texture does: the same pixels and the same errors.
 *
 * The rule: a sprite's vertices and its checks depend on the sprite and its texture's size,
 * never on which textures earlier sprites used. So a scene drawn with a new texture of
 * identical content for every sprite (each sprite the first of its texture in the batch) must
 * match the same scene drawn with one texture (every sprite after the first inside a run)
 * and with two alternating textures (a texture seen earlier in the batch) pixel for pixel, and
 * a bad sprite inside a run is refused exactly as a first one is.
 */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { RW = 64, RH = 64, TW = 4, TH = 4 };

static xgd_device *run_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = RW;
    dd.pp.back_buffer_height = RH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    return xgdt_device(t, &dd);
}

/* 4x4 texels, every one distinct, no symmetry (a flip or an off-by-one shows). */
static xgd_texture *run_texture(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t rgba[TW * TH * 4];
    for (int j = 0; j < TH; j++) {
        for (int i = 0; i < TW; i++) {
            uint8_t *p = &rgba[(j * TW + i) * 4];
            p[0] = (uint8_t)(20 + 70 * i);
            p[1] = (uint8_t)(25 + 70 * j);
            p[2] = (uint8_t)(240 - 14 * (i + 4 * j));
            p[3] = (uint8_t)(255 - 40 * ((i + j) & 1));
        }
    }
    return xgdt_image_texture(t, dev, TW, TH, rgba);
}

static uint64_t stat_draws(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    (void)xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

/* Sprites covering what the corner math distinguishes: fractional positions (none on a
 * dyadic fraction, so no pixel centre samples exactly on a texel edge, where renderers may
 * round either way and the images would not agree across renderers), origins,
 * scales (negative: mirrored and culled; zero: empty), every flip, tints, layer depths, a
 * corner beyond float range (an empty quad, not an error), and a rotated and a
 * source-rectangle sprite between them. */
static int scene(xgd_sprite *out, xgd_rect *src)
{
    int n = 0;
    *src = (xgd_rect){ 1, 1, 2, 3 };
    for (int k = 0; k < 24; k++) {
        xgd_sprite s = XGD_SPRITE_INIT;
        s.position = (xgd_vector2){ 3.1f + (float)(k % 6) * 10.25f, 4.1f + (float)(k / 6) * 14.5f };
        s.origin = (xgd_vector2){ (float)(k % 3) * 0.75f, (float)(k % 5) * 0.5f };
        s.scale = (xgd_vector2){ 1.0f + (float)(k % 4) * 0.625f, 1.5f + (float)(k % 3) * 0.375f };
        s.effects = (xgd_sprite_effects)(k & 3);
        s.color = (xgd_color){ (uint8_t)(255 - 9 * k), 255, (uint8_t)(128 + 5 * k), 255 };
        s.layer_depth = (float)k / 24.0f;
        out[n++] = s;
    }
    xgd_sprite s = XGD_SPRITE_INIT;
    s.position = (xgd_vector2){ 30.6f, 30.6f };
    s.scale = (xgd_vector2){ -2.0f, 2.0f };
    out[n++] = s;
    s.scale = (xgd_vector2){ 0.0f, 3.0f };
    out[n++] = s;
    s.scale = (xgd_vector2){ 1e38f, 1e38f }; /* corners beyond float range */
    s.position = (xgd_vector2){ 3e38f, 3e38f };
    out[n++] = s;
    s = (xgd_sprite)XGD_SPRITE_INIT;
    s.position = (xgd_vector2){ 40.0f, 50.0f };
    s.rotation = 0.5f;
    s.scale = (xgd_vector2){ 2.0f, 2.0f };
    out[n++] = s;
    s.rotation = 0.0f;
    s.source = src;
    s.position = (xgd_vector2){ 12.0f, 50.0f };
    out[n++] = s;
    s.source = NULL;
    s.position = (xgd_vector2){ 50.35f, 40.85f };
    s.origin = (xgd_vector2){ 2.0f, 2.0f };
    s.scale = (xgd_vector2){ 3.0f, 1.25f };
    s.effects = (xgd_sprite_effects)(XGD_SPRITE_FLIP_HORIZONTALLY | XGD_SPRITE_FLIP_VERTICALLY);
    out[n++] = s;
    return n;
}

/* Sprite i uses textures[i % count]. */
static bool draw_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                       xgd_texture *const *textures, int count, uint8_t **pixels)
{
    xgd_sprite sprites[40];
    xgd_rect src;
    int n = scene(sprites, &src);
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, &d) != XGD_OK) return false;
    for (int i = 0; i < n; i++) {
        if (xgd_sprite_batch_draw(sb, textures[i % count], &sprites[i]) != XGD_OK) return false;
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, RW, RH, pixels);
}

XGD_FIXTURE(SpriteBatch_RunOfOneTextureMatchesFirstSprites)
{
    enum { N = 40 };
    xgd_device *dev = run_device(t);
    REQUIRE(dev != NULL);
    xgd_texture *tex[N];
    for (int i = 0; i < N; i++) {
        tex[i] = run_texture(t, dev);
        REQUIRE(tex[i] != NULL);
    }
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    uint8_t *firsts = NULL, *one = NULL, *two = NULL;
    REQUIRE(draw_scene(t, dev, sb, tex, N, &firsts));
    REQUIRE(draw_scene(t, dev, sb, tex, 1, &one));
    REQUIRE(draw_scene(t, dev, sb, tex, 2, &two));
    /* the scene must draw something, or the comparison proves nothing */
    bool drawn = false;
    for (int i = 0; i < RW * RH && !drawn; i++) drawn = firsts[i * 4] != 10;
    CHECK(drawn);
    CHECK(xgdt_compare_rgba(t, "one texture vs a texture per sprite", one, firsts, RW, RH, 0));
    CHECK(xgdt_compare_rgba(t, "two textures vs a texture per sprite", two, firsts, RW, RH, 0));
    free(firsts);
    free(one);
    free(two);
    xgd_sprite_batch_destroy(sb);
    for (int i = 0; i < N; i++) xgd_texture_destroy(tex[i]);
    xgd_device_destroy(dev);
}

/* A bad sprite after a good one of the same texture is refused and queues nothing. */
XGD_FIXTURE(SpriteBatch_RunRefusesBadSprites)
{
    xgd_device *dev = run_device(t);
    REQUIRE(dev != NULL);
    xgd_texture *tex = run_texture(t, dev), *gone = run_texture(t, dev);
    REQUIRE(tex != NULL && gone != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const xgd_sprite good = XGD_SPRITE_INIT;

    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &good));
    xgd_sprite bad[8];
    for (int i = 0; i < 8; i++) bad[i] = good;
    bad[0].position.x = NAN;
    bad[1].position.y = INFINITY;
    bad[2].origin.x = NAN;
    bad[3].origin.y = -INFINITY;
    bad[4].scale.x = INFINITY;
    bad[5].scale.y = NAN;
    bad[6].layer_depth = NAN;
    bad[7].effects = (xgd_sprite_effects)4;
    for (int i = 0; i < 8; i++) {
        CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &bad[i]), XGD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(xgd_sprite_batch_draw(sb, tex, &good)); /* the run goes on */
    }
    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, NULL), XGD_ERROR_INVALID_ARGUMENT);
    /* nine good sprites of one texture: one draw of 18 triangles */
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.draw_calls - s0.draw_calls, 1);
    CHECK_INT(s1.primitives - s0.primitives, 18);

    /* the same with a texture seen earlier in the batch but not by the previous sprite */
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &good));
    CHECK_OK(xgd_sprite_batch_draw(sb, gone, &good));
    for (int i = 0; i < 8; i++) {
        CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &bad[i]), XGD_ERROR_INVALID_ARGUMENT);
        CHECK_OK(xgd_sprite_batch_draw(sb, gone, &good));
    }
    /* 10 sprites in two runs (the refused ones queued nothing): 2 draws, 20 triangles */
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.draw_calls - s0.draw_calls, 2);
    CHECK_INT(s1.primitives - s0.primitives, 20);

    /* a texture destroyed inside its own run: the next Draw of its handle is refused */
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, gone, &good));
    xgd_texture_destroy(gone);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, gone, &good), XGD_ERROR_OBJECT_DISPOSED);
    uint64_t before = stat_draws(dev);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_INT(stat_draws(dev) - before, 0);

    /* outside Begin/End, with the last batch's texture */
    CHECK_RESULT(xgd_sprite_batch_draw(sb, tex, &good), XGD_ERROR_INVALID_OPERATION);

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- End's stretches: sprites of one key expanded together ------------------------------------ */

/* End expands a stretch of sprites that share their texture and draw it whole with the same
 * effects, or a stretch of one texture's source-rectangle sprites, in one inner loop; a sprite
 * whose texture differs from its neighbours' is a stretch of its own. The rule is the same as
 * above: a sprite's vertices depend only on the sprite and its texture's size. So a scene with
 * stretches of every length (equal flips in threes, consecutive source rectangles, rotated
 * sprites and destination rectangles breaking stretches) drawn with one texture must match it drawn with a texture per
 * sprite (every stretch one sprite long) and with two alternating ones, pixel for pixel, in
 * submission order and sorted (End walks the sorted order). The sprites do not overlap.
 * No pixel centre lies on a sprite's edge or a texel boundary, so the images agree across
 * renderers too: rows start 0.1 past a multiple of 0.25 (edges and texel boundaries at
 * scales 1.25 and 1.75 fall 0.1 or more from a centre), columns 0.05 or 0.3 past a multiple
 * of 0.5 (scale 1.5), and destination rectangles are 4 wide (texel boundaries on whole
 * pixels for 4 texels, thirds for 6) and 8 tall (whole pixels for 4 texels, thirds for 3).
 * A scene with such centres (rows at 12.5, 5-wide rectangles) differed on lavapipe in 21 of
 * 4,096 pixels. */
enum { STRETCH_N = 48 };

static int stretch_scene(xgd_sprite *out, const xgd_rect *src, xgd_rect *dst)
{
    for (int k = 0; k < STRETCH_N; k++) {
        xgd_sprite s = XGD_SPRITE_INIT;
        s.position = (xgd_vector2){ 1.3f + (float)(k % 8) * 7.75f, 2.1f + (float)(k / 8) * 10.0f };
        s.scale = (xgd_vector2){ 1.5f, 1.25f + (float)(k % 2) * 0.5f };
        s.effects = (xgd_sprite_effects)((k / 3) & 3);
        s.color = (xgd_color){ (uint8_t)(255 - 4 * k), (uint8_t)(200 + k), 255, 255 };
        s.layer_depth = (float)((k * 7) % STRETCH_N) / (float)STRETCH_N;
        if (k % 7 >= 4) s.source = &src[k % 3];
        if (k % 11 == 9) { /* a destination rectangle: whole texture (9, 31, 42), source (20) */
            dst[k / 11] = (xgd_rect){ 2 + (k % 8) * 8, 3 + (k / 8) * 10, 4, 8 };
            s.destination = &dst[k / 11];
        }
        if (k == 22 || k == 23 || k == 40) s.rotation = 0.25f; /* whole (22, 23), source (40) */
        if (k == 30) s.rotation = -0.0f;                        /* unrotated, by another path */
        out[k] = s;
    }
    return STRETCH_N;
}

static bool draw_stretches(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                           xgd_sprite_sort_mode mode, xgd_texture *const *textures, int count,
                           uint8_t **pixels)
{
    const xgd_rect src[3] = { { 1, 0, 2, 3 }, { 0, 1, 4, 2 }, { 2, 2, 1, 1 } };
    xgd_rect dst[STRETCH_N / 11 + 1];
    xgd_sprite sprites[STRETCH_N];
    int n = stretch_scene(sprites, src, dst);
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, &d) != XGD_OK) return false;
    for (int i = 0; i < n; i++) {
        if (xgd_sprite_batch_draw(sb, textures[i % count], &sprites[i]) != XGD_OK) return false;
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, RW, RH, pixels);
}

/* w x h texels, every one distinct (as run_texture's), the size in the pattern too. */
static xgd_texture *sized_texture(xgdt_ctx *t, xgd_device *dev, int w, int h)
{
    uint8_t rgba[8 * 8 * 4];
    for (int j = 0; j < h; j++) {
        for (int i = 0; i < w; i++) {
            uint8_t *p = &rgba[(j * w + i) * 4];
            p[0] = (uint8_t)(20 + 29 * i + 3 * w);
            p[1] = (uint8_t)(25 + 60 * j);
            p[2] = (uint8_t)(240 - 14 * (i + 4 * j));
            p[3] = (uint8_t)(255 - 40 * ((i + j) & 1));
        }
    }
    return xgdt_image_texture(t, dev, w, h, rgba);
}

/* two_sizes: texture i is 4x4 for an even i and 6x3 for an odd one (the same content as
 * texture i % 2), and only the two alternating textures are compared with a texture per
 * sprite: switching between checked textures must switch the size the corners use. */
static void stretches_match(xgdt_ctx *t, xgd_sprite_sort_mode mode, bool two_sizes)
{
    xgd_device *dev = run_device(t);
    REQUIRE(dev != NULL);
    xgd_texture *tex[STRETCH_N];
    for (int i = 0; i < STRETCH_N; i++) {
        tex[i] = two_sizes ? sized_texture(t, dev, i % 2 ? 6 : 4, i % 2 ? 3 : 4)
                           : run_texture(t, dev);
        REQUIRE(tex[i] != NULL);
    }
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    uint8_t *singles = NULL, *one = NULL, *two = NULL;
    REQUIRE(draw_stretches(t, dev, sb, mode, tex, STRETCH_N, &singles));
    REQUIRE(draw_stretches(t, dev, sb, mode, tex, 1, &one));
    REQUIRE(draw_stretches(t, dev, sb, mode, tex, 2, &two));
    int drawn = 0;
    for (int i = 0; i < RW * RH; i++) drawn += singles[i * 4] != 10;
    CHECK(drawn > RW * RH / 4); /* the comparison must see most sprites */
    if (!two_sizes)
        CHECK(xgdt_compare_rgba(t, "one texture vs a texture per sprite", one, singles, RW, RH, 0));
    CHECK(xgdt_compare_rgba(t, "two textures vs a texture per sprite", two, singles, RW, RH, 0));
    free(singles);
    free(one);
    free(two);
    xgd_sprite_batch_destroy(sb);
    for (int i = 0; i < STRETCH_N; i++) xgd_texture_destroy(tex[i]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_StretchesMatchSingleSpritesDeferred)
{
    stretches_match(t, XGD_SPRITE_SORT_DEFERRED, false);
}
XGD_FIXTURE(SpriteBatch_StretchesMatchSingleSpritesBackToFront)
{
    stretches_match(t, XGD_SPRITE_SORT_BACK_TO_FRONT, false);
}
XGD_FIXTURE(SpriteBatch_AlternatingSizesMatchSingleSprites)
{
    stretches_match(t, XGD_SPRITE_SORT_DEFERRED, true);
}

/* ---- sprite sheets: source and destination rectangles inside a run --------------------------- */

/* Texel (i, j) of the 4x4 sheet: opaque, every one distinct. */
static xgd_color sheet_texel(int i, int j)
{
    return (xgd_color){ (uint8_t)(30 + 60 * i), (uint8_t)(35 + 60 * j),
                        (uint8_t)(250 - 13 * (i + 4 * j)), 255 };
}

static void sheet_put(uint8_t *img, int x, int y, xgd_color c)
{
    memcpy(&img[(y * RW + x) * 4], &c, 4);
}

/* Sprites of one texture, each after the first inside its run, with source rectangles,
 * destination rectangles, origins, scales and flips (a sprite sheet's calls), a rotated one
 * between them, drawn in submission order and sorted: each pixel must show what XNA's corner
 * formula gives. A sprite covers the pixels whose centres lie inside position +
 * (corner * sourceSize - origin) * scale (a destination rectangle: at its corners, scale =
 * destination size / source size); a covered pixel shows, point sampled, the source texel its
 * centre maps to, mirrored inside the source rectangle by the flips. Every edge is on a pixel
 * boundary and no pixel centre maps onto a texel edge. */
static void sheet_scene(xgdt_ctx *t, xgd_sprite_sort_mode mode)
{
    xgd_device *dev = run_device(t);
    REQUIRE(dev != NULL);
    uint8_t rgba[TW * TH * 4];
    for (int j = 0; j < TH; j++)
        for (int i = 0; i < TW; i++) {
            xgd_color c = sheet_texel(i, j);
            memcpy(&rgba[(j * TW + i) * 4], &c, 4);
        }
    xgd_texture *tex = xgdt_image_texture(t, dev, TW, TH, rgba);
    REQUIRE(tex != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const xgd_color clear = { 10, 20, 30, 255 };
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);

    xgd_sprite s[10];
    for (int k = 0; k < 10; k++) {
        s[k] = (xgd_sprite)XGD_SPRITE_INIT;
        s[k].layer_depth = (float)((k * 5) % 8) / 8.0f; /* sorted: a permutation of the order */
    }
    const xgd_rect src1 = { 1, 0, 2, 3 }, src2 = { 0, 2, 4, 2 }, src4 = { 2, 2, 2, 2 };
    const xgd_rect src6 = { 0, 0, 1, 1 };
    const xgd_rect dst2 = { 20, 2, 8, 6 }, dst3 = { 36, 2, 8, 4 }, dst4 = { 50, 10, 4, 4 };
    s[0].position = (xgd_vector2){ 2, 2 };                      /* the whole texture */
    s[1].position = (xgd_vector2){ 10, 2 };                     /* source, scale, origin, flip */
    s[1].source = &src1;
    s[1].scale = (xgd_vector2){ 2, 1 };
    s[1].origin = (xgd_vector2){ 0.5f, 1 };
    s[1].effects = XGD_SPRITE_FLIP_HORIZONTALLY;
    s[2].source = &src2;                                        /* source over destination */
    s[2].destination = &dst2;
    s[2].effects = XGD_SPRITE_FLIP_VERTICALLY;
    s[3].destination = &dst3;                                   /* whole texture, destination */
    s[3].effects = (xgd_sprite_effects)(XGD_SPRITE_FLIP_HORIZONTALLY | XGD_SPRITE_FLIP_VERTICALLY);
    s[4].source = &src4;                                        /* origin over a destination */
    s[4].destination = &dst4;
    s[4].origin = (xgd_vector2){ 1, 1 };
    s[5].position = (xgd_vector2){ 20, 30 };                    /* rotated */
    s[5].rotation = 1.57079632679489662f;
    s[6].source = &src6;                                        /* one texel, scaled */
    s[6].position = (xgd_vector2){ 30, 30 };
    s[6].scale = (xgd_vector2){ 3, 3 };
    s[7].position = (xgd_vector2){ 40, 40 };                    /* whole texture again */
    s[7].effects = XGD_SPRITE_FLIP_VERTICALLY;
    /* two on the same pixels: submitted last is on top, unless sorting puts the nearer last */
    s[8].position = (xgd_vector2){ 54, 40 };                    /* the whole texture, near */
    s[8].layer_depth = 0.0625f;
    s[9].source = &src6;                                        /* one texel, far */
    s[9].position = (xgd_vector2){ 54, 40 };
    s[9].scale = (xgd_vector2){ 4, 4 };
    s[9].layer_depth = 0.9375f;

    CHECK_OK(xgd_clear_color(dev, clear));
    CHECK_OK(xgd_sprite_batch_begin(sb, &d));
    for (int k = 0; k < 10; k++) CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s[k]));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *exp = malloc((size_t)RW * RH * 4);
    REQUIRE(exp != NULL);
    for (int i = 0; i < RW * RH; i++) memcpy(&exp[i * 4], &clear, 4);
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) sheet_put(exp, 2 + i, 2 + j, sheet_texel(i, j));
    /* s1: x 10 + (0 - .5) * 2 = 9 .. 10 + (2 - .5) * 2 = 13, y 2 - 1 = 1 .. 2 + 2 = 4; column
       c of the source (2 pixels each) flipped: source column 1 - c */
    for (int y = 1; y < 4; y++)
        for (int x = 9; x < 13; x++)
            sheet_put(exp, x, y, sheet_texel(1 + (1 - (x - 9) / 2), y - 1));
    /* s2: 8x6 over 4x2 texels: 2 pixels a column, 3 a row, rows flipped */
    for (int y = 2; y < 8; y++)
        for (int x = 20; x < 28; x++)
            sheet_put(exp, x, y, sheet_texel((x - 20) / 2, 2 + (1 - (y - 2) / 3)));
    /* s3: 8x4 over the whole 4x4 texture, both flips */
    for (int y = 2; y < 6; y++)
        for (int x = 36; x < 44; x++)
            sheet_put(exp, x, y, sheet_texel(3 - (x - 36) / 2, 3 - (y - 2)));
    /* s4: scale 4 / 2 = 2, origin (1, 1): 50 + (0 - 1) * 2 = 48 .. 52, y 8 .. 12 */
    for (int y = 8; y < 12; y++)
        for (int x = 48; x < 52; x++)
            sheet_put(exp, x, y, sheet_texel(2 + (x - 48) / 2, 2 + (y - 8) / 2));
    /* s5: +90 degrees about (0, 0): texel centre (i + .5, j + .5) lands at pixel
       (19 - j, 30 + i) */
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) sheet_put(exp, 19 - j, 30 + i, sheet_texel(i, j));
    for (int y = 30; y < 33; y++)
        for (int x = 30; x < 33; x++) sheet_put(exp, x, y, sheet_texel(0, 0));
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) sheet_put(exp, 40 + i, 40 + j, sheet_texel(i, 3 - j));
    const bool near_last = mode == XGD_SPRITE_SORT_BACK_TO_FRONT;
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            sheet_put(exp, 54 + i, 40 + j, near_last ? sheet_texel(i, j) : sheet_texel(0, 0));
    uint8_t *got = NULL;
    if (xgdt_read_back_buffer(t, dev, RW, RH, &got))
        CHECK(xgdt_compare_rgba(t, "sprite sheet", got, exp, RW, RH, 0));
    free(got);
    free(exp);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_SheetRunDeferred) { sheet_scene(t, XGD_SPRITE_SORT_DEFERRED); }
XGD_FIXTURE(SpriteBatch_SheetRunBackToFront) { sheet_scene(t, XGD_SPRITE_SORT_BACK_TO_FRONT); }

/* Draw remembers the batch and its textures between calls; every way a handle can end is still
 * seen at the next Draw: a texture destroyed while another one is the run (it is in the memo),
 * its slot taken by a new texture, the batch destroyed and its slot taken by a new batch. */
XGD_FIXTURE(SpriteBatch_DrawSeesEveryHandleEnd)
{
    xgd_device *dev = run_device(t);
    REQUIRE(dev != NULL);
    xgd_texture *a = run_texture(t, dev), *b = run_texture(t, dev);
    REQUIRE(a != NULL && b != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const xgd_sprite good = XGD_SPRITE_INIT;

    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, a, &good));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &good));
    CHECK_OK(xgd_sprite_batch_draw(sb, a, &good));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &good)); /* b is the run, a in the memo */
    xgd_texture_destroy(a);
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &good));
    CHECK_RESULT(xgd_sprite_batch_draw(sb, a, &good), XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture *c = run_texture(t, dev); /* may take a's slot */
    REQUIRE(c != NULL);
    CHECK_OK(xgd_sprite_batch_draw(sb, c, &good));
    CHECK_OK(xgd_sprite_batch_draw(sb, c, &good));
    CHECK_RESULT(xgd_sprite_batch_draw(sb, a, &good), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);

    /* the batch: Draw right before its destroy, then through the stale handle */
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &good));
    xgd_sprite_batch_destroy(sb);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, b, &good), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch *sb2 = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb2)); /* may take sb's slot */
    CHECK_RESULT(xgd_sprite_batch_draw(sb, b, &good), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_draw(sb2, b, &good), XGD_ERROR_INVALID_OPERATION); /* no Begin */
    CHECK_OK(xgd_sprite_batch_begin(sb2, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb2, b, &good));
    CHECK_OK(xgd_sprite_batch_end(sb2));

    /* the device: the batch open, its texture the run */
    CHECK_OK(xgd_sprite_batch_begin(sb2, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb2, b, &good));
    xgd_device_destroy(dev);
    CHECK_RESULT(xgd_sprite_batch_draw(sb2, b, &good), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch_destroy(sb2);
    xgd_texture_destroy(b);
    xgd_texture_destroy(c);
}
