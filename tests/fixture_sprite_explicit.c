/*
 * fixture_sprite_explicit.c - SpriteBatch fields mean what they say (every renderer).
 *
 * XNA's rules, from its Draw overloads:
 *   - a destination rectangle places the sprite at its corners, so a zero width or height
 *     covers no pixel (a 0%-wide health bar draws nothing);
 *   - position + scale gives corners position + (corner * sourceSize - origin) * scale, so a
 *     zero scale component, or a zero-size source rectangle, covers no pixel;
 *   - a null source rectangle (NULL here) is the whole texture; a zero-size one is a real
 *     rectangle: spread over a destination rectangle its zero-wide texture span shows the
 *     texture at the source's corner on every covered pixel, and with a non-zero origin the
 *     origin term (origin / 0 source size) moves the sprite beyond every viewport.
 * Expected images follow from those rules; each "draws nothing" case has pixels of its own, so
 * a fallback (zero read as "not given") would show there.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

enum { SW = 32, SH = 32 };

static const xgd_color SX_CLEAR = { 20, 40, 60, 255 };
static const xgd_color SX_RED = { 255, 0, 0, 255 };
static const xgd_color SX_BLUE = { 0, 0, 255, 255 };

static xgd_device *sx_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = SW;
    dd.pp.back_buffer_height = SH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    return xgdt_device(t, &dd);
}

/* 4x4: texels (1..2, 0..1) red, every other texel blue. The texture point (2, 1) (u 0.5,
 * v 0.25) is the shared corner of four red texels, so point and linear sampling there, and
 * near it, both give red. */
static xgd_texture *sx_texture(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t rgba[4 * 4 * 4];
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            xgd_color c = (i >= 1 && i <= 2 && j <= 1) ? SX_RED : SX_BLUE;
            memcpy(&rgba[(j * 4 + i) * 4], &c, 4);
        }
    return xgdt_image_texture(t, dev, 4, 4, rgba);
}

static uint8_t *sx_image(xgd_color c)
{
    uint8_t *img = malloc((size_t)SW * SH * 4);
    if (img == NULL) return NULL;
    for (int i = 0; i < SW * SH; i++) memcpy(&img[i * 4], &c, 4);
    return img;
}

static void sx_fill(uint8_t *img, int x0, int y0, int w, int h, xgd_color c)
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++) memcpy(&img[(y * SW + x) * 4], &c, 4);
}

/* The 4x4 texture drawn 1:1 at (x0, y0). */
static void sx_put_texture(uint8_t *img, int x0, int y0)
{
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++)
            sx_fill(img, x0 + i, y0 + j, 1, 1, (i >= 1 && i <= 2 && j <= 1) ? SX_RED : SX_BLUE);
}

static void sx_check(xgdt_ctx *t, xgd_device *dev, const char *label, const uint8_t *expected)
{
    uint8_t *actual = NULL;
    if (!xgdt_read_back_buffer(t, dev, SW, SH, &actual)) return;
    xgdt_compare_rgba(t, label, actual, expected, SW, SH, 0);
    free(actual);
}

typedef struct sx_scene {
    xgd_device *dev;
    xgd_texture *tex;
    xgd_sprite_batch *sb;
} sx_scene;

static bool sx_open(xgdt_ctx *t, sx_scene *s)
{
    memset(s, 0, sizeof *s);
    s->dev = sx_device(t);
    if (s->dev == NULL) return false;
    s->tex = sx_texture(t, s->dev);
    if (s->tex == NULL) return false;
    if (xgd_sprite_batch_create(s->dev, &s->sb) != XGD_OK) return false;
    if (xgd_clear_color(s->dev, SX_CLEAR) != XGD_OK) return false;
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.sampler_state = xgd_sampler_state_preset(s->dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    return xgd_sprite_batch_begin(s->sb, &bd) == XGD_OK;
}

static void sx_close(sx_scene *s)
{
    xgd_sprite_batch_destroy(s->sb);
    xgd_texture_destroy(s->tex);
    xgd_device_destroy(s->dev);
}

/* Zero-width, zero-height and zero-size destination rectangles cover nothing; the position
 * (where a fallback would put the sprite) stays clear. A 4x4 destination next to them is the
 * control. */
XGD_FIXTURE(SpriteExplicit_ZeroDestinationDrawsNothing)
{
    sx_scene s;
    REQUIRE(sx_open(t, &s));
    xgd_sprite sp = XGD_SPRITE_INIT;
    const xgd_rect dests[3] = { { 4, 4, 0, 8 }, { 12, 4, 8, 0 }, { 24, 4, 0, 0 } };
    for (int i = 0; i < 3; i++) {
        sp.position = (xgd_vector2){ (float)(4 + 8 * i), 20.0f };
        sp.destination = &dests[i];
        CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    }
    sp.destination = &(xgd_rect){ 26, 26, 4, 4 };
    CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    CHECK_OK(xgd_sprite_batch_end(s.sb));

    uint8_t *exp = sx_image(SX_CLEAR);
    REQUIRE(exp != NULL);
    sx_put_texture(exp, 26, 26);
    sx_check(t, s.dev, "zero destination", exp);
    free(exp);
    sx_close(&s);
}

/* Scale (0, 0), (0, 1) and (1, 0) cover nothing; XGD_SPRITE_INIT (scale 1, white) draws the
 * texture 1:1 at its position. */
XGD_FIXTURE(SpriteExplicit_ZeroScaleDrawsNothing)
{
    sx_scene s;
    REQUIRE(sx_open(t, &s));
    xgd_sprite sp = XGD_SPRITE_INIT;
    const xgd_vector2 scales[3] = { { 0, 0 }, { 0, 1 }, { 1, 0 } };
    for (int i = 0; i < 3; i++) {
        sp.position = (xgd_vector2){ (float)(4 + 8 * i), 4.0f };
        sp.scale = scales[i];
        CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    }
    xgd_sprite init = XGD_SPRITE_INIT;
    init.position = (xgd_vector2){ 20, 20 };
    CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &init));
    CHECK_OK(xgd_sprite_batch_end(s.sb));

    uint8_t *exp = sx_image(SX_CLEAR);
    REQUIRE(exp != NULL);
    sx_put_texture(exp, 20, 20);
    sx_check(t, s.dev, "zero scale", exp);
    free(exp);
    sx_close(&s);
}

/* Placed by position and scale, a zero-size source rectangle makes a zero-size sprite (scale
 * 1 and scale 4 alike): nothing is drawn. A NULL source draws the whole texture. */
XGD_FIXTURE(SpriteExplicit_ZeroSourceAtPositionDrawsNothing)
{
    sx_scene s;
    REQUIRE(sx_open(t, &s));
    xgd_sprite sp = XGD_SPRITE_INIT;
    const xgd_rect sources[3] = { { 1, 1, 0, 0 }, { 1, 1, 0, 2 }, { 1, 1, 2, 0 } };
    for (int i = 0; i < 3; i++) {
        sp.position = (xgd_vector2){ (float)(2 + 10 * i), 4.0f };
        sp.source = &sources[i];
        sp.scale = (xgd_vector2){ 4, 4 };
        CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
        sp.position.y = 20.0f;
        sp.scale = (xgd_vector2){ 1, 1 };
        CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    }
    sp.position = (xgd_vector2){ 26, 26 };
    sp.source = NULL;
    CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    CHECK_OK(xgd_sprite_batch_end(s.sb));

    uint8_t *exp = sx_image(SX_CLEAR);
    REQUIRE(exp != NULL);
    sx_put_texture(exp, 26, 26);
    sx_check(t, s.dev, "zero source at position", exp);
    free(exp);
    sx_close(&s);
}

/* A zero-size source (2, 1, 0, 0) spread over an 8x8 destination: every covered pixel shows
 * the texture at (2, 1), red. With origin (1, 1) the sprite leaves every viewport: nothing.
 * The whole texture (the old reading of a zero-size source) would show blue texels. */
XGD_FIXTURE(SpriteExplicit_ZeroSourceOverDestination)
{
    sx_scene s;
    REQUIRE(sx_open(t, &s));
    xgd_sprite sp = XGD_SPRITE_INIT;
    const xgd_rect src = { 2, 1, 0, 0 };
    sp.source = &src;
    sp.destination = &(xgd_rect){ 4, 4, 8, 8 };
    CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    sp.destination = &(xgd_rect){ 18, 4, 8, 8 };
    sp.origin = (xgd_vector2){ 1, 1 };
    CHECK_OK(xgd_sprite_batch_draw(s.sb, s.tex, &sp));
    CHECK_OK(xgd_sprite_batch_end(s.sb));

    uint8_t *exp = sx_image(SX_CLEAR);
    REQUIRE(exp != NULL);
    sx_fill(exp, 4, 4, 8, 8, SX_RED);
    sx_check(t, s.dev, "zero source over destination", exp);
    free(exp);
    sx_close(&s);
}
