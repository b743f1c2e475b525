/*
 * fixture_sprite_overloads.c - XNA's shorter SpriteBatch.Draw overloads:
 * xgd_sprite_batch_draw_at (Draw(Texture2D, Vector2, Color)), xgd_sprite_batch_draw_rect
 * (Draw(Texture2D, Rectangle, Color)), xgd_sprite_batch_draw_rect_source (Draw(Texture2D,
 * Rectangle, Rectangle?, Color)) and xgd_sprite_batch_draw_at_source (Draw(Texture2D, Vector2,
 * Rectangle?, Color)).
 *
 * The rules (include/xgd.h): each is xgd_sprite_batch_draw with the sprite it stands for (no
 * rotation, origin (0, 0), scale 1, no flips, layer depth 0), with the same results. So:
 *  - placed by the rule: with point sampling and opaque blending, texel (i, j) of a sprite drawn
 *    at an integer position (x, y) lands on pixel (x + i, y + j) (XNA's pixel centres), a
 *    destination rectangle's pixel (i, j) shows texel (floor((i + 0.5) * tw / dw),
 *    floor((j + 0.5) * th / dh)), and nothing else is drawn;
 *  - a scene of many overlapping sprites (fractional positions, tints, textures alternating so the
 *    batch's run and memo switch, more than a chunk, calls of both kinds interleaved) drawn
 *    with the overloads matches it drawn with xgd_sprite_batch_draw byte for byte, in every
 *    sort mode (point sampling, opaque texels and tints, odd texture sizes, edges 0.05 or more
 *    from a pixel centre, so that no pixel centre lies on an edge or a texel boundary and the
 *    renderers agree with each other too);
 *  - every error is the one xgd_sprite_batch_draw gives for the same sprite, and a refused
 *    call queues nothing.
 */
#include "harness.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OW = 40, OH = 32 };

static const xgd_color clear_color = { 10, 20, 30, 255 };

/* texel (i, j) of texture k: distinct in every channel the tests read */
static void overload_texel(int k, int i, int j, uint8_t out[4])
{
    out[0] = (uint8_t)(60 * k + 20 * i + 5);
    out[1] = (uint8_t)(40 + 50 * j + 3 * k);
    out[2] = (uint8_t)(200 - 30 * i - 20 * j);
    out[3] = (uint8_t)(((i + j + k) & 1) ? 255 : 140);
}

static xgd_texture *overload_texture(xgdt_ctx *t, xgd_device *dev, int k, int w, int h,
                                     bool opaque)
{
    uint8_t rgba[8 * 8 * 4];
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            overload_texel(k, i, j, &rgba[(j * w + i) * 4]);
            if (opaque) rgba[(j * w + i) * 4 + 3] = 255;
        }
    return xgdt_image_texture(t, dev, w, h, rgba);
}

/* Texture A is 3x2, B 2x2; opaque, point sampling: each pixel a texel. No pixel centre maps to
   a texel boundary ((2i + 1) * sw / (2 * dw) is never whole), where point sampling could go
   either way. */
XGD_FIXTURE(SpriteBatch_DrawOverloadsPlaceByTheRule)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, OW, OH);
    REQUIRE(dev != NULL);
    xgd_texture *a = overload_texture(t, dev, 1, 3, 2, false);
    xgd_texture *b = overload_texture(t, dev, 2, 2, 2, false);
    REQUIRE(a != NULL && b != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    const xgd_color white = { 255, 255, 255, 255 };
    const xgd_rect src = { 1, 0, 2, 2 };
    CHECK_OK(xgd_clear_color(dev, clear_color));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
    CHECK_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ 3, 5 }, white));
    CHECK_OK(xgd_sprite_batch_draw_at(sb, b, (xgd_vector2){ 10, 2 }, white));
    CHECK_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ 20, 20 }, white));
    CHECK_OK(xgd_sprite_batch_draw_rect(sb, b, (xgd_rect){ 1, 20, 6, 4 }, white));
    CHECK_OK(xgd_sprite_batch_draw_at_source(sb, a, (xgd_vector2){ 30, 3 }, &src, white));
    CHECK_OK(xgd_sprite_batch_draw_at_source(sb, b, (xgd_vector2){ 30, 10 }, NULL, white));
    CHECK_OK(xgd_sprite_batch_draw_rect_source(sb, a, (xgd_rect){ 12, 12, 4, 6 }, &src, white));
    CHECK_OK(xgd_sprite_batch_draw_rect_source(sb, b, (xgd_rect){ 30, 20, 4, 2 }, NULL, white));
    CHECK_OK(xgd_sprite_batch_end(sb));
    uint8_t *px = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, OW, OH, &px));

    uint8_t *want = malloc((size_t)OW * OH * 4);
    REQUIRE(want != NULL);
    for (int i = 0; i < OW * OH; i++) memcpy(&want[i * 4], &clear_color, 4);
    /* (texture k, size, placed at x, y, covering dw x dh, from source x0, y0 of size sw x sh) */
    const struct {
        int k, x, y, dw, dh, sx, sy, sw, sh;
    } placed[] = {
        { 1, 3, 5, 3, 2, 0, 0, 3, 2 },   { 2, 10, 2, 2, 2, 0, 0, 2, 2 },
        { 1, 20, 20, 3, 2, 0, 0, 3, 2 }, { 2, 1, 20, 6, 4, 0, 0, 2, 2 },
        { 1, 30, 3, 2, 2, 1, 0, 2, 2 },  { 2, 30, 10, 2, 2, 0, 0, 2, 2 },
        { 1, 12, 12, 4, 6, 1, 0, 2, 2 }, { 2, 30, 20, 4, 2, 0, 0, 2, 2 },
    };
    for (size_t s = 0; s < sizeof placed / sizeof placed[0]; s++)
        for (int j = 0; j < placed[s].dh; j++)
            for (int i = 0; i < placed[s].dw; i++) {
                /* the pixel centre (i + 0.5, j + 0.5) of the sprite, in source texels */
                int ti = placed[s].sx + (int)floor((i + 0.5) * placed[s].sw / placed[s].dw);
                int tj = placed[s].sy + (int)floor((j + 0.5) * placed[s].sh / placed[s].dh);
                uint8_t *p = &want[((placed[s].y + j) * OW + placed[s].x + i) * 4];
                overload_texel(placed[s].k, ti, tj, p); /* opaque: the texel, alpha too */
            }
    CHECK(xgdt_compare_rgba(t, "overloads placed by the rule", px, want, OW, OH, 0));
    free(want);
    free(px);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(a);
    xgd_texture_destroy(b);
    xgd_device_destroy(dev);
}

enum { MTEX = 5, MSPRITES = 2048 + 700 };

/* sprite i's texture: runs of 1 to 3, so the run switches and the memo serves */
static int match_texture_of(int i) { return (i / (1 + i % 3)) % MTEX; }

static xgd_vector2 match_position(int i)
{
    return (xgd_vector2){ -2.3f + (float)((i * 13) % 41) + (float)(i % 4) * 0.25f,
                          -1.6f + (float)((i * 29) % 33) + (float)(i % 3) * 0.375f };
}

/* opaque: a pixel is the last sprite's texel times its tint, so the order shows, and blending
   rounds nothing that could differ between renderers */
static xgd_color match_color(int i)
{
    return (xgd_color){ (uint8_t)(255 - (i % 50)), (uint8_t)(128 + (i % 120)),
                        (uint8_t)(200 + (i % 40)), 255 };
}

/* The scene: kind 0 draws every sprite with xgd_sprite_batch_draw; kind 1 the same sprites
   with the overloads (draw_at for most, draw_rect or, every 13th, draw_rect_source every 7th,
   draw_at_source every 5th) and every 11th still with xgd_sprite_batch_draw, so the two kinds
   of call share runs. */
static bool draw_match_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                             xgd_texture *const *tex, xgd_sprite_sort_mode mode, int kind,
                             uint8_t **pixels)
{
    const xgd_rect src = { 0, 1, 3, 1 }; /* odd sizes: no pixel centre on a texel boundary */
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    if (xgd_clear_color(dev, clear_color) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, &d) != XGD_OK) return false;
    for (int i = 0; i < MSPRITES; i++) {
        xgd_texture *tx = tex[match_texture_of(i)];
        const xgd_vector2 p = match_position(i);
        const xgd_color c = match_color(i);
        const xgd_rect dst = { (int)p.x, (int)p.y, 2 + i % 9, 1 + i % 6 };
        xgd_sprite s = XGD_SPRITE_INIT;
        s.color = c;
        s.position = p;
        if (i % 7 == 3) s.destination = &dst;
        else if (i % 5 == 1) s.source = &src;
        if (i % 7 == 3 && i % 13 == 5) s.source = &src;
        xgd_result r;
        if (kind == 0 || i % 11 == 6) r = xgd_sprite_batch_draw(sb, tx, &s);
        else if (i % 7 == 3 && i % 13 == 5)
            r = xgd_sprite_batch_draw_rect_source(sb, tx, dst, &src, c);
        else if (i % 7 == 3) r = xgd_sprite_batch_draw_rect(sb, tx, dst, c);
        else if (i % 5 == 1) r = xgd_sprite_batch_draw_at_source(sb, tx, p, &src, c);
        else r = xgd_sprite_batch_draw_at(sb, tx, p, c);
        if (r != XGD_OK) {
            xgdt_fail_at(t, __FILE__, __LINE__, "sprite %d: %s", i, xgd_device_last_error(dev));
            return false;
        }
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, OW, OH, pixels);
}

static void overloads_match(xgdt_ctx *t, xgd_sprite_sort_mode mode)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, OW, OH);
    REQUIRE(dev != NULL);
    xgd_texture *tex[MTEX];
    for (int k = 0; k < MTEX; k++) {
        tex[k] = overload_texture(t, dev, k, 3 + 2 * (k % 2), 5 - 2 * (k % 2), true);
        REQUIRE(tex[k] != NULL);
    }
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    uint8_t *general = NULL, *overloads = NULL;
    REQUIRE(draw_match_scene(t, dev, sb, tex, mode, 0, &general));
    REQUIRE(draw_match_scene(t, dev, sb, tex, mode, 1, &overloads));
    int drawn = 0;
    for (int i = 0; i < OW * OH; i++) drawn += memcmp(&general[i * 4], &clear_color, 4) != 0;
    CHECK_MSG(drawn > OW * OH / 2, "only %d of %d pixels drawn", drawn, OW * OH);
    CHECK(xgdt_compare_rgba(t, "overloads vs xgd_sprite_batch_draw", overloads, general, OW, OH,
                            0));
    free(general);
    free(overloads);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < MTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_DrawOverloadsMatchDrawDeferred)
{
    overloads_match(t, XGD_SPRITE_SORT_DEFERRED);
}
XGD_FIXTURE(SpriteBatch_DrawOverloadsMatchDrawImmediate)
{
    overloads_match(t, XGD_SPRITE_SORT_IMMEDIATE);
}
XGD_FIXTURE(SpriteBatch_DrawOverloadsMatchDrawTexture)
{
    overloads_match(t, XGD_SPRITE_SORT_TEXTURE);
}
XGD_FIXTURE(SpriteBatch_DrawOverloadsMatchDrawBackToFront)
{
    overloads_match(t, XGD_SPRITE_SORT_BACK_TO_FRONT);
}

static uint64_t overload_primitives(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    (void)xgd_device_get_statistics(dev, &s);
    return s.primitives;
}

/* Every refusal is xgd_sprite_batch_draw's for the same sprite, and queues nothing: after the
 * refused calls End draws only the good sprites (two triangles each). */
XGD_FIXTURE(SpriteBatch_DrawOverloadsErrors)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, OW, OH);
    REQUIRE(dev != NULL);
    xgd_device *other = xgdt_device_on(t, t->renderer, 8, 8);
    REQUIRE(other != NULL);
    xgd_texture *a = overload_texture(t, dev, 0, 2, 2, false);
    xgd_texture *gone = overload_texture(t, dev, 1, 2, 2, false);
    xgd_texture *foreign = overload_texture(t, other, 2, 2, 2, false);
    REQUIRE(a != NULL && gone != NULL && foreign != NULL);
    xgd_sprite_batch *sb = NULL, *dead = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &dead));
    xgd_sprite_batch_destroy(dead);
    const xgd_color white = { 255, 255, 255, 255 };
    const xgd_vector2 at = { 1, 2 };
    const xgd_rect dst = { 1, 2, 3, 4 }, src = { 0, 0, 1, 1 };

    /* outside Begin/End */
    CHECK_RESULT(xgd_sprite_batch_draw_at(sb, a, at, white), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_draw_rect(sb, a, dst, white), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_draw_at_source(sb, a, at, &src, white),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_draw_rect_source(sb, a, dst, &src, white),
                 XGD_ERROR_INVALID_OPERATION);

    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw_at(sb, a, at, white));
    CHECK_OK(xgd_sprite_batch_draw_at(sb, gone, at, white)); /* in the memo now */
    CHECK_OK(xgd_sprite_batch_draw_at(sb, a, at, white));
    xgd_texture_destroy(gone);
    /* draw_at first after the destroy (no general Draw has seen the new epoch): its own check
       of the epoch refuses the texture that the batch's memo still names */
    CHECK_RESULT(xgd_sprite_batch_draw_at(sb, gone, at, white), XGD_ERROR_OBJECT_DISPOSED);
    /* a batch this thread's last draw_at went to, destroyed: its handle is refused, and the
       freed batch is not read (ASan) */
    xgd_sprite_batch *used = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &used));
    REQUIRE_OK(xgd_sprite_batch_begin(used, NULL));
    CHECK_OK(xgd_sprite_batch_draw_at(used, a, at, white));
    CHECK_OK(xgd_sprite_batch_draw_at(used, a, at, white));
    xgd_sprite_batch_destroy(used);
    CHECK_RESULT(xgd_sprite_batch_draw_at(used, a, at, white), XGD_ERROR_OBJECT_DISPOSED);
    const struct {
        xgd_sprite_batch *batch;
        xgd_texture *texture;
        xgd_vector2 position;
    } bad[] = {
        { NULL, a, { 1, 2 } },
        { dead, a, { 1, 2 } },
        { sb, NULL, { 1, 2 } },
        { sb, gone, { 1, 2 } },
        { sb, foreign, { 1, 2 } },
        { sb, a, { NAN, 2 } },
        { sb, a, { 1, INFINITY } },
        { sb, a, { -INFINITY, 2 } },
    };
    const xgd_result want[] = {
        XGD_ERROR_INVALID_ARGUMENT, XGD_ERROR_OBJECT_DISPOSED, XGD_ERROR_INVALID_ARGUMENT,
        XGD_ERROR_OBJECT_DISPOSED, XGD_ERROR_INVALID_OPERATION, XGD_ERROR_INVALID_ARGUMENT,
        XGD_ERROR_INVALID_ARGUMENT, XGD_ERROR_INVALID_ARGUMENT,
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xgd_sprite s = XGD_SPRITE_INIT;
        s.position = bad[i].position;
        const xgd_result general = xgd_sprite_batch_draw(bad[i].batch, bad[i].texture, &s);
        const xgd_result r = xgd_sprite_batch_draw_at(bad[i].batch, bad[i].texture,
                                                      bad[i].position, white);
        CHECK_MSG(r == general && r == want[i],
                  "bad call %zu: draw_at gave %s, xgd_sprite_batch_draw %s, want %s", i,
                  xgd_result_name(r), xgd_result_name(general), xgd_result_name(want[i]));
        /* the run goes on after each refusal */
        CHECK_OK(xgd_sprite_batch_draw_at(sb, a, at, white));
    }
    CHECK_RESULT(xgd_sprite_batch_draw_rect(sb, NULL, dst, white), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw_rect(sb, foreign, dst, white), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_sprite_batch_draw_at_source(sb, a, (xgd_vector2){ NAN, 0 }, &src, white),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw_at_source(sb, gone, at, NULL, white),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_draw_rect_source(sb, NULL, dst, &src, white),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_draw_rect_source(sb, gone, dst, NULL, white),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_sprite_batch_draw_rect(sb, a, dst, white));
    CHECK_OK(xgd_sprite_batch_draw_rect_source(sb, a, dst, &src, white));
    CHECK_OK(xgd_sprite_batch_draw_at_source(sb, a, at, &src, white));
    /* the destroyed texture was queued before it went: End names it and draws nothing */
    const uint64_t p0 = overload_primitives(dev);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_INT((int)(overload_primitives(dev) - p0), 0);

    /* the same refusals in a batch whose queued textures all live: End draws the good ones */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (bad[i].texture == gone) continue;
        CHECK_RESULT(xgd_sprite_batch_draw_at(bad[i].batch, bad[i].texture, bad[i].position,
                                              white),
                     want[i]);
        CHECK_OK(xgd_sprite_batch_draw_at(sb, a, at, white));
    }
    const uint64_t p1 = overload_primitives(dev);
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_INT((int)(overload_primitives(dev) - p1), 2 * (int)(sizeof bad / sizeof bad[0] - 1));

    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(a);
    xgd_texture_destroy(foreign);
    xgd_device_destroy(other);
    xgd_device_destroy(dev);
}

/* The fast paths stay on (internal.h: xgdi_sprite_batch_long_draws). xgd_sprite_batch_draw_at,
 * xgd_sprite_batch_draw_at_source with a source rectangle and xgd_sprite_batch_draw with an
 * unrotated sprite (the whole texture, or a source or destination rectangle) queue a run's
 * sprites without the long way once the run's texture was checked in the batch, while no handle has
 * ended since (the resource epoch) and the queue has room (kept between batches). Their
 * results are the same either way, so only this count shows a fast path that silently turned
 * off: one that read a stale or placeholder epoch (no batch storing the real counter's
 * address), or lost its run. Each step's count follows from that rule: a batch's first Draw
 * checks its texture (1), the rest of the run none (0), a texture destroyed mid-batch moves the
 * epoch, so the next Draw goes the long way once (1) and the run goes on fast (0). */
XGD_TEST(SpriteBatch_FastPathsStayOn)
{
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_SOFTWARE, OW, OH);
    REQUIRE(dev != NULL);
    xgd_texture *a = overload_texture(t, dev, 0, 3, 3, true);
    xgd_texture *other = overload_texture(t, dev, 1, 3, 3, true);
    REQUIRE(a != NULL && other != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK(xgdi_sprite_batch_long_draws(NULL) == UINT64_MAX);
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    const xgd_color white = { 255, 255, 255, 255 };
    /* a first batch grows the queue to 2,048 sprites and the source rectangles' texture
       coordinates to 1,024; the next ones queue into them */
    const xgd_rect cell = { 1, 0, 2, 2 };
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
    for (int i = 0; i < 1024; i++) {
        REQUIRE_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ (float)(i % 30), 2 }, white));
        REQUIRE_OK(xgd_sprite_batch_draw_at_source(sb, a, (xgd_vector2){ 2, (float)(i % 9) },
                                                   &cell, white));
    }
    REQUIRE_OK(xgd_sprite_batch_end(sb));
    xgd_sprite plain = XGD_SPRITE_INIT;
    plain.position = (xgd_vector2){ 4.25f, 5.5f };
    plain.scale = (xgd_vector2){ 2, 1.5f };
    plain.origin = (xgd_vector2){ 1, 0.5f };
    xgd_sprite sheet = plain; /* a sprite sheet's cell, flipped, at a depth */
    sheet.source = &cell;
    sheet.effects = XGD_SPRITE_FLIP_HORIZONTALLY;
    sheet.layer_depth = 0.25f;
    const xgd_rect dst = { 3, 4, 5, 2 };
    xgd_sprite stretched = XGD_SPRITE_INIT; /* the whole texture filling a rectangle */
    stretched.destination = &dst;
    for (int round = 0; round < 2; round++) {
        REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
        uint64_t n0 = xgdi_sprite_batch_long_draws(sb);
        REQUIRE_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ 1, 1 }, white));
        uint64_t n1 = xgdi_sprite_batch_long_draws(sb);
        CHECK_MSG(n1 - n0 == 1, "round %d: the batch's first Draw: %llu long draws, want 1", round,
                  (unsigned long long)(n1 - n0));
        for (int i = 0; i < 299; i++) {
            REQUIRE_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ (float)i * 0.1f, 3 }, white));
            REQUIRE_OK(xgd_sprite_batch_draw(sb, a, &plain));
            REQUIRE_OK(xgd_sprite_batch_draw_at_source(sb, a, (xgd_vector2){ 5, (float)i * 0.1f },
                                                       &cell, white));
            REQUIRE_OK(xgd_sprite_batch_draw(sb, a, &sheet));
            REQUIRE_OK(xgd_sprite_batch_draw(sb, a, &stretched));
        }
        uint64_t n2 = xgdi_sprite_batch_long_draws(sb);
        CHECK_MSG(n2 == n1, "round %d: 1,495 more Draws of the run: %llu long draws, want 0",
                  round, (unsigned long long)(n2 - n1));
        if (round == 0) {
            /* a texture the batch never saw ends: the epoch moves */
            xgd_texture_destroy(other);
            other = NULL;
        } else {
            /* a batch's own resources too: a state object made and destroyed */
            xgd_blend_state *bs = NULL;
            xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
            REQUIRE_OK(xgd_blend_state_create(dev, &bd, &bs));
            xgd_blend_state_destroy(bs);
        }
        REQUIRE_OK(xgd_sprite_batch_draw(sb, a, &plain));
        uint64_t n3 = xgdi_sprite_batch_long_draws(sb);
        CHECK_MSG(n3 - n2 == 1, "round %d: the first Draw after a handle ended: %llu long draws, "
                  "want 1", round, (unsigned long long)(n3 - n2));
        for (int i = 0; i < 200; i++)
            REQUIRE_OK(xgd_sprite_batch_draw_at(sb, a, (xgd_vector2){ 2, (float)i * 0.1f }, white));
        uint64_t n4 = xgdi_sprite_batch_long_draws(sb);
        CHECK_MSG(n4 == n3, "round %d: 200 Draws after that: %llu long draws, want 0", round,
                  (unsigned long long)(n4 - n3));
        REQUIRE_OK(xgd_sprite_batch_end(sb));
    }
    xgd_sprite_batch_destroy(sb);
    CHECK(xgdi_sprite_batch_long_draws(sb) == UINT64_MAX);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}
