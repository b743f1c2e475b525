/*
 * fixture_sprite_instances.c - instanced sprites (xgd_sprite_batch_set_instancing) and the
 * reservation they draw from (xgd_reserve_user_quad_instances).
 *
 * The rules (include/xgd.h): on the GPU renderers End draws a chunk of unrotated sprites from
 * one element a sprite whose corners the program selects, so every vertex is the one the
 * vertex path writes and every pixel the same; a batch with a rotated sprite is drawn with
 * vertices; the draws are a draw per run of equal textures either way; the device state after
 * End is what XNA's SpriteBatch leaves. So a scene drawn with instancing ON must equal the same
 * scene drawn OFF byte for byte, with the same number of draws (a draw per run, counted here by
 * that rule from the textures' order). The scene overlaps sprites with alpha, flips them, uses
 * source and destination rectangles, fractional positions, origins and scales and spans two
 * chunks, so a corner, texture coordinate, depth or order that differed would show. That the
 * instanced path drew (and not the vertex path twice) is read from the device's last
 * reservation (internal.h: per_instance), which each End's chunks make. The software renderer
 * draws no instanced quads: ON and the reservation answer NOT_SUPPORTED.
 */
#include "harness.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { IW = 96, IH = 64, ITW = 4, ITH = 4, ITEX = 6, ISPRITES = 2048 + 500 };

static bool gpu_renderer(xgd_device *dev)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) != XGD_OK) return false;
    return info.renderer == XGD_RENDERER_VULKAN || info.renderer == XGD_RENDERER_D3D12;
}

static xgd_texture *inst_texture(xgdt_ctx *t, xgd_device *dev, int k)
{
    uint8_t rgba[ITW * ITH * 4];
    for (int j = 0; j < ITH; j++) {
        for (int i = 0; i < ITW; i++) {
            uint8_t *p = &rgba[(j * ITW + i) * 4];
            p[0] = (uint8_t)(40 * k + 7);
            p[1] = (uint8_t)(30 + 50 * i);
            p[2] = (uint8_t)(40 + 45 * j);
            p[3] = (uint8_t)(((i + j + k) & 1) ? 255 : 150);
        }
    }
    return xgdt_image_texture(t, dev, ITW, ITH, rgba);
}

/* Runs of 1 to 4 sprites over the textures, so chunks hold many runs. */
static int inst_texture_of(int i) { return (i / (1 + i % 4)) % ITEX; }

/* Sprite i: every way an unrotated sprite is queued (whole texture; a source rectangle; a
   destination rectangle, with and without a source), flips, tints, depths; rotated every 11th
   when `rotated`. */
static xgd_sprite inst_sprite(int i, const xgd_rect *src, const xgd_rect *dst, bool rotated)
{
    xgd_sprite s = XGD_SPRITE_INIT;
    s.position = (xgd_vector2){ 0.6f + (float)((i * 13) % 86), 1.3f + (float)((i * 29) % 55) };
    s.origin = (xgd_vector2){ (float)(i % 3) * 0.75f, (float)(i % 5) * 0.5f };
    s.scale = (xgd_vector2){ 1.0f + (float)(i % 4) * 0.625f, 1.5f + (float)(i % 3) * 0.3f };
    s.effects = (xgd_sprite_effects)(i & 3);
    s.color = (xgd_color){ (uint8_t)(255 - (i % 50)), 255, (uint8_t)(128 + (i % 100)), 255 };
    s.layer_depth = (float)((i * 37) % 101) / 101.0f;
    if (i % 7 == 2) s.source = src;
    if (i % 5 == 3) s.destination = &dst[i % 3];
    if (rotated && i % 11 == 4) s.rotation = 0.4f + (float)(i % 4) * 0.5f;
    return s;
}

/* What a scene holds besides inst_sprite's sprites (SCENE_ROTATED: every 11th rotated;
   SCENE_WHOLE: no source rectangles, see draw_whole_scene; SCENE_ONE_SOURCE: one more sprite
   with a source rectangle and a transparent tint, which adds nothing under AlphaBlend). */
enum { SCENE_ROTATED = 1, SCENE_WHOLE = 2, SCENE_ONE_SOURCE = 4 };

static bool draw_inst_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                            xgd_texture *const *tex, xgd_sprite_sort_mode mode, unsigned scene,
                            uint8_t **pixels)
{
    const xgd_rect src = { 1, 0, 2, 3 };
    const xgd_rect dst[3] = { { 5, 7, 9, 4 }, { 40, 30, 3, 11 }, { 70, 2, 17, 9 } };
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, &d) != XGD_OK) return false;
    for (int i = 0; i < ISPRITES; i++) {
        xgd_sprite s = inst_sprite(i, &src, dst, (scene & SCENE_ROTATED) != 0);
        if (scene & SCENE_WHOLE) s.source = NULL;
        if (xgd_sprite_batch_draw(sb, tex[inst_texture_of(i)], &s) != XGD_OK) return false;
    }
    if (scene & SCENE_ONE_SOURCE) {
        xgd_sprite s = XGD_SPRITE_INIT;
        s.position = (xgd_vector2){ 20, 20 };
        s.source = &src;
        s.color = (xgd_color){ 0, 0, 0, 0 };
        s.layer_depth = 0.5f;
        if (xgd_sprite_batch_draw(sb, tex[1], &s) != XGD_OK) return false;
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, IW, IH, pixels);
}

/* A draw per run of equal textures in each chunk of 2048 (Deferred: submission order). */
static int expected_runs(void)
{
    int draws = 0;
    for (int first = 0; first < ISPRITES; first += 2048) {
        int n = ISPRITES - first < 2048 ? ISPRITES - first : 2048;
        for (int i = first; i < first + n; i++)
            if (i == first || inst_texture_of(i) != inst_texture_of(i - 1)) draws++;
    }
    return draws;
}

static uint64_t inst_draws(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    (void)xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

static xgd_device *inst_setup(xgdt_ctx *t, xgd_texture **tex, xgd_sprite_batch **sb)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = IW;
    dd.pp.back_buffer_height = IH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = xgdt_device(t, &dd);
    if (dev == NULL) return NULL;
    for (int k = 0; k < ITEX; k++) {
        tex[k] = inst_texture(t, dev, k);
        if (tex[k] == NULL) return NULL;
    }
    if (xgd_sprite_batch_create(dev, sb) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_sprite_batch_create: %s", xgd_device_last_error(dev));
        return NULL;
    }
    /* the draw counts below are a draw per run: no texture groups */
    if (xgd_sprite_batch_set_texture_groups(*sb, XGD_SPRITE_TEXTURE_GROUPS_OFF) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "set_texture_groups: %s", xgd_device_last_error(dev));
        return NULL;
    }
    return dev;
}

static void inst_match(xgdt_ctx *t, xgd_sprite_sort_mode mode, bool rotated)
{
    xgd_texture *tex[ITEX];
    xgd_sprite_batch *sb = NULL;
    xgd_device *dev = inst_setup(t, tex, &sb);
    REQUIRE(dev != NULL);
    if (!gpu_renderer(dev)) {
        CHECK_RESULT(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_ON),
                     XGD_ERROR_NOT_SUPPORTED);
        xgd_sprite_batch_destroy(sb);
        for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws sprites from vertices");
        return;
    }
    uint8_t *off = NULL, *on = NULL;
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_OFF));
    uint64_t d0 = inst_draws(dev);
    REQUIRE(draw_inst_scene(t, dev, sb, tex, mode, rotated ? SCENE_ROTATED : 0, &off));
    CHECK_MSG(!dev->quad_reservation.per_instance, "OFF: End reserved per-quad elements");
    uint64_t d1 = inst_draws(dev);
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_ON));
    REQUIRE(draw_inst_scene(t, dev, sb, tex, mode, rotated ? SCENE_ROTATED : 0, &on));
    /* ON: instanced, unless a rotated sprite sends the batch to vertices */
    CHECK_MSG(dev->quad_reservation.per_instance == !rotated,
              "ON: End's last reservation %s per-quad elements, want %s",
              dev->quad_reservation.per_instance ? "held" : "did not hold",
              rotated ? "vertices (a rotated sprite)" : "elements");
    uint64_t d2 = inst_draws(dev);
    int drawn = 0;
    for (int i = 0; i < IW * IH; i++) drawn += off[i * 4] != 10;
    CHECK_MSG(drawn > IW * IH / 2, "only %d of %d pixels drawn", drawn, IW * IH);
    CHECK(xgdt_compare_rgba(t, "instanced sprites vs vertices", on, off, IW, IH, 0));
    CHECK_INT((int)(d2 - d1), (int)(d1 - d0));
    if (mode == XGD_SPRITE_SORT_DEFERRED) CHECK_INT((int)(d1 - d0), expected_runs());
    free(off);
    free(on);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_InstancedMatchesVerticesDeferred)
{
    inst_match(t, XGD_SPRITE_SORT_DEFERRED, false);
}
XGD_FIXTURE(SpriteBatch_InstancedMatchesVerticesBackToFront)
{
    inst_match(t, XGD_SPRITE_SORT_BACK_TO_FRONT, false);
}
/* a rotated sprite in the batch: drawn with vertices in ON mode too, the same image */
XGD_FIXTURE(SpriteBatch_InstancedWithRotatedSprites) { inst_match(t, XGD_SPRITE_SORT_TEXTURE, true); }

/* Batches whose sprites all show their whole texture (no source rectangle) are drawn by
 * spritewhole.fx from their 32-byte queue entries as they are, whose form word carries the
 * flips; a batch with a source rectangle among them by spriteinst.fx from 48-byte elements. The
 * same scene without source rectangles (whole textures flipped all four ways, placed by
 * position, origin and scale or by a destination rectangle, tinted, layered, two chunks, runs
 * over six textures) is drawn with vertices (OFF), by spritewhole (ON), and by spriteinst (ON,
 * with one more sprite that has a source rectangle and a transparent tint: under AlphaBlend it
 * adds 0 and keeps the rest, so the picture is the same): all three byte for byte, with the
 * element size each path's reservation says. */
static bool draw_whole_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                             xgd_texture *const *tex, xgd_sprite_sort_mode mode, bool one_source,
                             uint8_t **pixels, int *element)
{
    if (!draw_inst_scene(t, dev, sb, tex, mode, SCENE_WHOLE | (one_source ? SCENE_ONE_SOURCE : 0u),
                         pixels))
        return false;
    /* End's last reservation: its element size, 0 for vertices */
    *element = dev->quad_reservation.per_instance
                   ? xgd_vertex_declaration_stride(dev->quad_reservation.decl)
                   : 0;
    return true;
}

static void whole_match(xgdt_ctx *t, xgd_sprite_sort_mode mode)
{
    xgd_texture *tex[ITEX];
    xgd_sprite_batch *sb = NULL;
    xgd_device *dev = inst_setup(t, tex, &sb);
    REQUIRE(dev != NULL);
    if (!gpu_renderer(dev)) {
        xgd_sprite_batch_destroy(sb);
        for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws sprites from vertices");
        return;
    }
    uint8_t *off = NULL, *whole = NULL, *element = NULL;
    int size_off = -1, size_whole = -1, size_element = -1;
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_OFF));
    uint64_t d0 = inst_draws(dev);
    REQUIRE(draw_whole_scene(t, dev, sb, tex, mode, false, &off, &size_off));
    uint64_t d1 = inst_draws(dev);
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_ON));
    REQUIRE(draw_whole_scene(t, dev, sb, tex, mode, false, &whole, &size_whole));
    uint64_t d2 = inst_draws(dev);
    REQUIRE(draw_whole_scene(t, dev, sb, tex, mode, true, &element, &size_element));
    CHECK_INT(size_off, 0);
    CHECK_INT(size_whole, 32);
    CHECK_INT(size_element, 48);
    int drawn = 0;
    for (int i = 0; i < IW * IH; i++) drawn += off[i * 4] != 10;
    CHECK_MSG(drawn > IW * IH / 2, "only %d of %d pixels drawn", drawn, IW * IH);
    CHECK(xgdt_compare_rgba(t, "whole-texture elements vs vertices", whole, off, IW, IH, 0));
    CHECK(xgdt_compare_rgba(t, "48-byte elements vs vertices", element, off, IW, IH, 0));
    CHECK_INT((int)(d2 - d1), (int)(d1 - d0));
    if (mode == XGD_SPRITE_SORT_DEFERRED) CHECK_INT((int)(d1 - d0), expected_runs());
    free(off);
    free(whole);
    free(element);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_InstancedWholeTexturesDeferred) { whole_match(t, XGD_SPRITE_SORT_DEFERRED); }
XGD_FIXTURE(SpriteBatch_InstancedWholeTexturesFrontToBack)
{
    whole_match(t, XGD_SPRITE_SORT_FRONT_TO_BACK);
}

/* Reach has no instancing (XNA's profile table; xgd_draw_instanced_primitives refuses it too):
 * on a Reach device xgd_reserve_user_quad_instances answers NOT_SUPPORTED and changes nothing
 * (an earlier reservation stays drawable), SpriteBatch's ON answers NOT_SUPPORTED, and AUTO
 * draws the whole-texture scene from vertices (End reserved no elements), the same image as
 * OFF, with the draws of a run each. Every renderer (the textures are powers of two, as Reach
 * wants for Wrap addressing and mipmaps). */
XGD_FIXTURE(SpriteBatch_ReachDrawsFromVertices)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = IW;
    dd.pp.back_buffer_height = IH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.profile = XGD_GRAPHICS_PROFILE_REACH;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev != NULL);
    xgd_texture *tex[ITEX];
    for (int k = 0; k < ITEX; k++) {
        tex[k] = inst_texture(t, dev, k);
        REQUIRE(tex[k] != NULL);
    }
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_quad_reservation a, b;
    memset(&b, 0, sizeof b);
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &a));
    const uint64_t id = dev->quad_reservation.id;
    CHECK_RESULT(xgd_reserve_user_quad_instances(dev, 1, decl, &b), XGD_ERROR_NOT_SUPPORTED);
    CHECK(b.vertices == NULL && dev->quad_reservation.id == id &&
          !dev->quad_reservation.per_instance);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_OFF));
    CHECK_RESULT(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_ON),
                 XGD_ERROR_NOT_SUPPORTED);
    uint8_t *off = NULL, *aut = NULL;
    int size_off = -1, size_auto = -1;
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_OFF));
    const uint64_t d0 = inst_draws(dev);
    REQUIRE(draw_whole_scene(t, dev, sb, tex, XGD_SPRITE_SORT_DEFERRED, false, &off, &size_off));
    const uint64_t d1 = inst_draws(dev);
    REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_AUTO));
    REQUIRE(draw_whole_scene(t, dev, sb, tex, XGD_SPRITE_SORT_DEFERRED, false, &aut, &size_auto));
    const uint64_t d2 = inst_draws(dev);
    CHECK_INT(size_off, 0);
    CHECK_INT(size_auto, 0);
    CHECK(xgdt_compare_rgba(t, "Reach AUTO vs OFF", aut, off, IW, IH, 0));
    CHECK_INT((int)(d1 - d0), expected_runs());
    CHECK_INT((int)(d2 - d1), expected_runs());
    free(off);
    free(aut);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

/* After an instanced End: slot 0 the last sprite's texture, sampler 0 the batch's, and the
 * stock SpriteEffect applied again (a later batch with a custom pixel-only pass, which keeps
 * the applied vertex shader, draws as it does after a vertex-path End); modes checked. */
XGD_FIXTURE(SpriteBatch_InstancedLeavesXnaState)
{
    xgd_texture *tex[ITEX];
    xgd_sprite_batch *sb = NULL;
    xgd_device *dev = inst_setup(t, tex, &sb);
    REQUIRE(dev != NULL);
    CHECK_RESULT(xgd_sprite_batch_set_instancing(sb, (xgd_sprite_instancing)3),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_set_instancing(NULL, XGD_SPRITE_INSTANCING_OFF),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_AUTO));
    CHECK_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_OFF));
    const bool gpu = gpu_renderer(dev);
    if (gpu) REQUIRE_OK(xgd_sprite_batch_set_instancing(sb, XGD_SPRITE_INSTANCING_ON));
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    const xgd_sprite s = XGD_SPRITE_INIT;
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
    for (int i = 0; i < 30; i++) CHECK_OK(xgd_sprite_batch_draw(sb, tex[i % 4], &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK(dev->quad_reservation.per_instance == gpu);
    xgd_texture *now_tex = NULL;
    xgd_sampler_state *now_smp = NULL;
    CHECK_OK(xgd_get_texture(dev, 0, &now_tex));
    CHECK(now_tex == tex[29 % 4]);
    CHECK_OK(xgd_get_sampler_state(dev, 0, &now_smp));
    CHECK(now_smp == d.sampler_state);
    /* the applied program draws SpriteBatch's vertices: a user quad through it after End
       shows texture 1 tinted as the vertices say, where the instanced program (which reads
       per-quad elements, not these vertices) would not */
    const xgd_vertex_position_color_texture quad[4] = {
        { { 10, 10, 0 }, { 255, 255, 255, 255 }, { 0, 0 } },
        { { 14, 10, 0 }, { 255, 255, 255, 255 }, { 1, 0 } },
        { { 10, 14, 0 }, { 255, 255, 255, 255 }, { 0, 1 } },
        { { 14, 14, 0 }, { 255, 255, 255, 255 }, { 1, 1 } },
    };
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE)));
    CHECK_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(xgd_draw_user_quads(dev, quad, 0, 1,
                                 xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    uint8_t *px = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, IW, IH, &px));
    /* the texel (1, 1) of texture 1 lands on pixel (11, 11): the quad spans pixels 10..13 */
    const uint8_t *p = &px[(11 * IW + 11) * 4];
    CHECK_MSG(p[0] == (uint8_t)(40 * 1 + 7) && p[1] == 80 && p[2] == 85,
              "pixel (11, 11) is %u %u %u, want texture 1's texel (1, 1): 47 80 85", p[0], p[1],
              p[2]);
    free(px);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < ITEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

/* xgd_reserve_user_quad_instances: bad input changes nothing (an earlier reservation stays
 * drawable); NOT_SUPPORTED on the software renderer; its reservation obeys the reservation
 * rules (spent by a draw). */
XGD_FIXTURE(ReserveQuadInstances_Errors)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, 16, 16);
    REQUIRE(dev != NULL);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_quad_reservation a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK_RESULT(xgd_reserve_user_quad_instances(NULL, 1, decl, &b), XGD_ERROR_INVALID_ARGUMENT);
    if (!gpu_renderer(dev)) {
        CHECK_RESULT(xgd_reserve_user_quad_instances(dev, 1, decl, &b), XGD_ERROR_NOT_SUPPORTED);
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws no instanced quads");
        return;
    }
    REQUIRE_OK(xgd_reserve_user_quads(dev, 2, decl, &a));
    CHECK_RESULT(xgd_reserve_user_quad_instances(dev, 1, decl, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_reserve_user_quad_instances(dev, 0, decl, &b), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_reserve_user_quad_instances(dev, XGD_USER_QUADS_MAX + 1, decl, &b),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_reserve_user_quad_instances(dev, 1, NULL, &b), XGD_ERROR_INVALID_ARGUMENT);
    /* the first reservation is still the drawable one: draw it with SpriteEffect */
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    xgd_matrix m = xgd_matrix_create_sprite_projection(16, 16, XGD_PIXEL_CENTER_XNA);
    REQUIRE_OK(xgd_sprite_effect_set_matrix(fx, &m));
    REQUIRE_OK(xgd_effect_apply(fx));
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    xgd_texture *tx = xgdt_image_texture(t, dev, 4, 4, white);
    REQUIRE(tx != NULL);
    memset(a.vertices, 0, sizeof(xgd_vertex_position_color_texture) * 8);
    const xgd_quad_run run = { tx, 2 };
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &a, &run, 1));
    /* an instanced reservation is spent by a draw of another kind too */
    REQUIRE_OK(xgd_reserve_user_quad_instances(dev, 1, decl, &b));
    CHECK(b.vertices != NULL && b.quad_count == 1);
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    const xgd_vertex_position_color_texture quad[4] = {
        { { 0, 0, 0 }, { 255, 255, 255, 255 }, { 0, 0 } },
        { { 1, 0, 0 }, { 255, 255, 255, 255 }, { 1, 0 } },
        { { 0, 1, 0 }, { 255, 255, 255, 255 }, { 0, 1 } },
        { { 1, 1, 0 }, { 255, 255, 255, 255 }, { 1, 1 } },
    };
    CHECK_OK(xgd_set_texture(dev, 0, tx));
    CHECK_OK(xgd_draw_user_quads(dev, quad, 0, 1, decl));
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &b, &run, 1), XGD_ERROR_INVALID_OPERATION);
    xgd_texture_destroy(tx);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* A draw of per-quad elements and draws of vertices through the same declaration and the same
 * program, one after the other in both orders: each draws as its own kind (the renderers'
 * pipeline memos tell the two apart). SpriteEffect reads POSITION/COLOR/TEXCOORD, so drawn
 * per quad each element is its quad's four corners at one point (nothing covered); drawn as
 * vertices the same bytes are a quad. */
XGD_FIXTURE(ReserveQuadInstances_ThenVertices)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, 16, 16);
    REQUIRE(dev != NULL);
    if (!gpu_renderer(dev)) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws no instanced quads");
        return;
    }
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    xgd_matrix m = xgd_matrix_create_sprite_projection(16, 16, XGD_PIXEL_CENTER_XNA);
    REQUIRE_OK(xgd_sprite_effect_set_matrix(fx, &m));
    REQUIRE_OK(xgd_effect_apply(fx));
    REQUIRE_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE)));
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    xgd_texture *tx = xgdt_image_texture(t, dev, 4, 4, white);
    REQUIRE(tx != NULL);
    const xgd_quad_run run = { tx, 1 };
    const xgd_vertex_position_color_texture quad[4] = {
        { { 4, 4, 0 }, { 255, 0, 0, 255 }, { 0, 0 } },
        { { 8, 4, 0 }, { 255, 0, 0, 255 }, { 1, 0 } },
        { { 4, 8, 0 }, { 255, 0, 0, 255 }, { 0, 1 } },
        { { 8, 8, 0 }, { 255, 0, 0, 255 }, { 1, 1 } },
    };
    for (int order = 0; order < 2; order++) {
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        for (int step = 0; step < 2; step++) {
            xgd_quad_reservation res;
            if ((step == 0) == (order == 0)) {
                /* per quad: element 0 is the quad's first vertex (the point (4, 4)) */
                REQUIRE_OK(xgd_reserve_user_quad_instances(dev, 1, decl, &res));
                memcpy(res.vertices, quad, sizeof quad[0]);
            } else {
                REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
                memcpy(res.vertices, quad, sizeof quad);
            }
            CHECK_OK(xgd_draw_reserved_quad_runs(dev, &res, &run, 1));
        }
        uint8_t *px = NULL;
        REQUIRE(xgdt_read_back_buffer(t, dev, 16, 16, &px));
        int red = 0, other = 0;
        for (int y = 0; y < 16; y++)
            for (int x = 0; x < 16; x++) {
                const uint8_t *p = &px[(y * 16 + x) * 4];
                bool inside = x >= 4 && x < 8 && y >= 4 && y < 8;
                if (inside && p[0] == 255 && p[1] == 0 && p[2] == 0) red++;
                else if (!inside && (p[0] | p[1] | p[2]) != 0) other++;
            }
        CHECK_MSG(red == 16 && other == 0,
                  "order %d: %d of 16 pixels of the vertex quad red, %d pixels drawn outside it",
                  order, red, other);
        free(px);
    }
    xgd_texture_destroy(tx);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- held reservations (xgd_hold_user_quad_instances) -------------------------------------- */

/* What the on_end calls of held reservations saw: the ids in order and, for each, whether the
 * first 16 bytes still held what was written there (the reservation's first element). */
typedef struct hold_log {
    int calls;
    uint64_t ids[XGD_QUAD_HOLDS_MAX + 4];
    bool intact[XGD_QUAD_HOLDS_MAX + 4];
    const xgd_quad_reservation *watch; /* the reservations whose bytes are checked, by id */
    int watch_count;
} hold_log;

static void hold_ended(void *user, uint64_t id)
{
    hold_log *log = user;
    int k = log->calls++;
    if (k >= XGD_QUAD_HOLDS_MAX + 4) return;
    log->ids[k] = id;
    log->intact[k] = false;
    for (int i = 0; i < log->watch_count; i++) {
        if (log->watch[i].id != id) continue;
        const uint8_t *p = log->watch[i].vertices;
        bool same = true;
        for (int b = 0; b < 16; b++) same = same && p[b] == (uint8_t)(id * 7 + (uint64_t)b);
        log->intact[k] = same;
    }
}

static void hold_fill(const xgd_quad_reservation *r)
{
    uint8_t *p = r->vertices;
    for (int b = 0; b < 16; b++) p[b] = (uint8_t)(r->id * 7 + (uint64_t)b);
}

/* The hold rules: a held reservation stays drawable across another draw and other
 * reservations (the latest plain one keeps its own rules and is not replaced by a hold);
 * release gives it back (drawn or released twice: INVALID_OPERATION); a readback, a Present
 * and a Reset end every held one, calling on_end once each in the order made while the bytes
 * written are still there, after which none is drawable; at most XGD_QUAD_HOLDS_MAX; bad input
 * changes nothing; a device destroyed with holds makes no call. Software: NOT_SUPPORTED. */
XGD_FIXTURE(HoldQuadInstances_Rules)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, 16, 16);
    REQUIRE(dev != NULL);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    hold_log log;
    memset(&log, 0, sizeof log);
    xgd_quad_reservation h[XGD_QUAD_HOLDS_MAX + 1], plain;
    memset(h, 0, sizeof h);
    CHECK_RESULT(xgd_hold_user_quad_instances(NULL, 1, decl, hold_ended, &log, &h[0]),
                 XGD_ERROR_INVALID_ARGUMENT);
    if (!gpu_renderer(dev)) {
        CHECK_RESULT(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[0]),
                     XGD_ERROR_NOT_SUPPORTED);
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws no instanced quads");
        return;
    }
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    REQUIRE_OK(xgd_effect_apply(fx));
    uint8_t white[4 * 4 * 4];
    memset(white, 255, sizeof white);
    xgd_texture *tx = xgdt_image_texture(t, dev, 4, 4, white);
    REQUIRE(tx != NULL);
    const xgd_quad_run run = { tx, 1 };
    const xgd_vertex_position_color_texture quad[4] = { { { 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0 } } };

    /* bad input changes nothing: the plain reservation made first stays drawable */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &plain));
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 1, decl, NULL, &log, &h[0]),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 0, decl, hold_ended, &log, &h[0]),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 1, NULL, hold_ended, &log, &h[0]),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_release_quad_hold(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_release_quad_hold(dev, &plain), XGD_ERROR_INVALID_OPERATION);
    /* a hold does not replace the latest plain reservation */
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 2, decl, hold_ended, &log, &h[0]));
    CHECK(h[0].vertices != NULL && h[0].quad_count == 2 && h[0].id != plain.id);
    memset(plain.vertices, 0, sizeof quad);
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &plain, &run, 1));
    /* another draw, another plain reservation and another hold leave it drawable */
    REQUIRE_OK(xgd_set_texture(dev, 0, tx));
    CHECK_OK(xgd_draw_user_quads(dev, quad, 0, 1, decl));
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &plain));
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[1]));
    memset(h[0].vertices, 0, sizeof quad[0] * 2);
    const xgd_quad_run two = { tx, 2 }, three = { tx, 3 };
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &h[0], &three, 1),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &h[0], &two, 1));
    /* drawn: spent; the plain one ended with that draw, as any draw ends it */
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &h[0], &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_release_quad_hold(dev, &h[0]), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &plain, &run, 1), XGD_ERROR_INVALID_OPERATION);
    /* released: given back without a call; a reservation that only carries its id (another
       device's, or one changed) releases nothing */
    xgd_quad_reservation forged = h[1];
    forged.vertices = plain.vertices;
    CHECK_RESULT(xgd_release_quad_hold(dev, &forged), XGD_ERROR_INVALID_OPERATION);
    forged = h[1];
    forged.quad_count++;
    CHECK_RESULT(xgd_release_quad_hold(dev, &forged), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_release_quad_hold(dev, &h[1]));
    CHECK_RESULT(xgd_release_quad_hold(dev, &h[1]), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &h[1], &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK_INT(log.calls, 0);

    /* a readback ends all of them, in order, their bytes still there during the call */
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[0]));
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 3, decl, hold_ended, &log, &h[1]));
    hold_fill(&h[0]);
    hold_fill(&h[1]);
    log.watch = h;
    log.watch_count = 2;
    uint8_t *px = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, 16, 16, &px));
    free(px);
    CHECK_INT(log.calls, 2);
    CHECK(log.ids[0] == h[0].id && log.ids[1] == h[1].id);
    CHECK(log.intact[0] && log.intact[1]);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &h[0], &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_release_quad_hold(dev, &h[1]), XGD_ERROR_INVALID_OPERATION);

    /* XGD_QUAD_HOLDS_MAX at once; Present ends them all */
    memset(&log, 0, sizeof log);
    for (int i = 0; i < XGD_QUAD_HOLDS_MAX; i++)
        REQUIRE_OK(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[i]));
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log,
                                              &h[XGD_QUAD_HOLDS_MAX]),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_present(dev));
    CHECK_INT(log.calls, XGD_QUAD_HOLDS_MAX);
    bool in_order = true;
    for (int i = 0; i < XGD_QUAD_HOLDS_MAX; i++) in_order = in_order && log.ids[i] == h[i].id;
    CHECK(in_order);

    /* making one never submits (which would end the others): where the upload memory has no
       room without that it fails with OUT_OF_MEMORY (a new Vulkan device's 32 MiB ring holds
       five of these 6 MiB at most), and those held stay held */
    memset(&log, 0, sizeof log);
    int held = 0;
    xgd_result last = XGD_OK;
    while (held < 8 && (last = xgd_hold_user_quad_instances(dev, XGD_QUAD_HOLD_QUADS_MAX, decl,
                                                             hold_ended, &log, &h[held])) == XGD_OK)
        held++;
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    if (info.renderer == XGD_RENDERER_VULKAN) {
        CHECK_INT(last, XGD_ERROR_OUT_OF_MEMORY);
        CHECK(held >= 3 && held <= 5);
    } else {
        CHECK(last == XGD_OK || last == XGD_ERROR_OUT_OF_MEMORY);
    }
    CHECK_INT(log.calls, 0);
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, XGD_QUAD_HOLD_QUADS_MAX + 1, decl, hold_ended,
                                              &log, &h[held]),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    for (int i = 0; i < held; i++) CHECK_OK(xgd_release_quad_hold(dev, &h[i]));

    /* Reset ends them too; a device destroyed with one makes no call */
    memset(&log, 0, sizeof log);
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[0]));
    CHECK_OK(xgd_device_reset(dev, NULL));
    CHECK_INT(log.calls, 1);
    REQUIRE_OK(xgd_hold_user_quad_instances(dev, 1, decl, hold_ended, &log, &h[0]));
    xgd_texture_destroy(tx);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    CHECK_INT(log.calls, 1);
}

/* Holds refused inside a quiet span (as SpriteBatch makes them): holds of the largest size are
 * made until one is refused. Each one made has its memory; the refusal is an error code
 * (Vulkan: OUT_OF_MEMORY, its 32 MiB ring holding three to five; Direct3D 12 adds upload
 * memory and refuses the hold past XGD_QUAD_HOLDS_MAX); nothing is recorded, and the span's
 * message says why. A renderer that took its failure's code from the device's last result,
 * which the span leaves as it was, passed the refusal on as a hold of NULL vertices (SpriteBatch
 * then wrote a million-sprite batch through NULL). Software: NOT_SUPPORTED. */
XGD_FIXTURE(HoldQuadInstances_QuietRefusal)
{
    xgd_device *dev = xgdt_device_on(t, t->renderer, 16, 16);
    REQUIRE(dev != NULL);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    hold_log log;
    memset(&log, 0, sizeof log);
    xgd_quad_reservation h[XGD_QUAD_HOLDS_MAX + 1];
    memset(h, 0, sizeof h);
    if (!gpu_renderer(dev)) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws no instanced quads");
        return;
    }
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    REQUIRE_OK(xgd_effect_apply(fx));
    /* an earlier failure, which the span must leave as the last one */
    CHECK_RESULT(xgd_hold_user_quad_instances(dev, 0, decl, hold_ended, &log, &h[0]),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    const xgd_result result_before = xgd_device_last_result(dev);
    char error_before[512];
    snprintf(error_before, sizeof error_before, "%s", xgd_device_last_error(dev));
    int held = 0;
    bool all_memory = true;
    xgd_result last = XGD_OK;
    xgd_device_quiet_begin(dev);
    while (held <= XGD_QUAD_HOLDS_MAX &&
           (last = xgd_hold_user_quad_instances(dev, XGD_QUAD_HOLD_QUADS_MAX, decl, hold_ended,
                                                &log, &h[held])) == XGD_OK)
        all_memory = all_memory && h[held++].vertices != NULL;
    char message[512];
    snprintf(message, sizeof message, "%s", xgd_device_quiet_end(dev));
    CHECK(all_memory);
    CHECK_MSG(last != XGD_OK, "%d holds made, none refused", held);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    if (info.renderer == XGD_RENDERER_VULKAN) {
        CHECK_INT(last, XGD_ERROR_OUT_OF_MEMORY);
        CHECK(held >= 3 && held <= 5);
        CHECK_MSG(strstr(message, "upload ring") != NULL, "span message \"%s\"", message);
    } else {
        CHECK(last == XGD_ERROR_OUT_OF_MEMORY ||
              (last == XGD_ERROR_INVALID_OPERATION && held == XGD_QUAD_HOLDS_MAX));
        CHECK(message[0] != '\0');
    }
    CHECK_INT(xgd_device_last_result(dev), result_before);
    CHECK(strcmp(xgd_device_last_error(dev), error_before) == 0);
    CHECK_INT(log.calls, 0);
    for (int i = 0; i < held; i++) CHECK_OK(xgd_release_quad_hold(dev, &h[i]));
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
