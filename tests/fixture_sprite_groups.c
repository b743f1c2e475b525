/*
 * fixture_sprite_groups.c - SpriteBatch's texture groups (xgd_sprite_batch_set_texture_groups):
 * End drawing the sprites of up to 16 textures in one draw changes no pixel, keeps the
 * sprites' order, makes the draws the rule says, and leaves the device state XNA's SpriteBatch
 * leaves.
 *
 * The rules (include/xgd.h): a group is consecutive sprites in drawing order and ends where a
 * 17th distinct texture would come; a chunk of sprites (at most 2048) is drawn by groups in ON
 * mode when it has more than one run of equal textures, else a draw per run; a pixel is what
 * the draw per texture gives. So a scene drawn with groups ON must equal the same scene drawn
 * with OFF byte for byte, on every renderer, and the draw counts follow from the textures'
 * order alone (computed here by that rule, not by the library). The sprites overlap, with
 * alpha, so a group that reordered sprites would show.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

enum { GW = 96, GH = 64, GTW = 4, GTH = 4, GTEX = 40 };

static xgd_device *groups_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = GW;
    dd.pp.back_buffer_height = GH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    return xgdt_device(t, &dd);
}

/* Texture k: 4x4 texels, each distinct and distinct from every other texture's (so a sprite
   drawn with another texture's slot shows), alpha below 255 in half of them. */
static xgd_texture *group_texture(xgdt_ctx *t, xgd_device *dev, int k)
{
    uint8_t rgba[GTW * GTH * 4];
    for (int j = 0; j < GTH; j++) {
        for (int i = 0; i < GTW; i++) {
            uint8_t *p = &rgba[(j * GTW + i) * 4];
            p[0] = (uint8_t)(6 * k + 3);
            p[1] = (uint8_t)(30 + 50 * i + (k & 7));
            p[2] = (uint8_t)(40 + 45 * j + (k >> 3));
            p[3] = (uint8_t)(((i + j + k) & 1) ? 255 : 160);
        }
    }
    return xgdt_image_texture(t, dev, GTW, GTH, rgba);
}

/* The texture of sprite i: runs of several sprites, round robins among more than 16 textures
   (a group ends every 16 runs), among fewer (one group holds them all), and a long single
   texture stretch (a chunk of one run draws without groups). */
static int sprite_texture(int i)
{
    if (i < 30) return (i / 3) % GTEX;             /* runs of 3 over textures 0..9 */
    if (i < 200) return (i * 7) % 37;              /* 37 textures, a change every sprite */
    if (i < 260) return 20 + i % 5;                /* 5 textures */
    if (i < 2048 + 300) return i < 2048 ? (i % 23) : 3; /* the rest of chunk 1; chunk 2 starts with one texture */
    return (i % 19) + 2;                            /* chunk 2's rest */
}

enum { SPRITES = 2048 + 700 };

/* Sprite i's values: fractional positions, origins, scales, flips, tints, depths, and every
   ninth rotated and every seventh with a source rectangle (the three ways End makes vertices). */
static xgd_sprite group_sprite(int i, const xgd_rect *src)
{
    xgd_sprite s = XGD_SPRITE_INIT;
    s.position = (xgd_vector2){ 1.3f + (float)((i * 13) % 86), 1.7f + (float)((i * 29) % 55) };
    s.origin = (xgd_vector2){ (float)(i % 3) * 0.75f, (float)(i % 5) * 0.5f };
    s.scale = (xgd_vector2){ 1.0f + (float)(i % 4) * 0.625f, 1.5f + (float)(i % 3) * 0.375f };
    s.effects = (xgd_sprite_effects)(i & 3);
    s.color = (xgd_color){ (uint8_t)(255 - (i % 50)), 255, (uint8_t)(128 + (i % 100)), 255 };
    s.layer_depth = (float)((i * 37) % 101) / 101.0f;
    if (i % 9 == 4) s.rotation = 0.3f + (float)(i % 4) * 0.5f;
    if (i % 7 == 2) s.source = src;
    return s;
}

static bool draw_groups_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                              xgd_texture *const *tex, xgd_sprite_sort_mode mode, int count,
                              uint8_t **pixels)
{
    const xgd_rect src = { 1, 0, 2, 3 };
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sort_mode = mode;
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, &d) != XGD_OK) return false;
    for (int i = 0; i < count; i++) {
        xgd_sprite s = group_sprite(i, &src);
        if (xgd_sprite_batch_draw(sb, tex[sprite_texture(i)], &s) != XGD_OK) return false;
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, GW, GH, pixels);
}

/* The draws ON mode makes for sprites [0, count) in submission order, by the rule: per chunk
   of 2048, one draw per group (a new group where a 17th distinct texture comes) when the chunk
   has more than one run, else one draw. OFF: a draw per run of each chunk. */
static void expected_draws(int count, int *on, int *off)
{
    *on = *off = 0;
    for (int first = 0; first < count; first += 2048) {
        int n = count - first < 2048 ? count - first : 2048;
        int runs = 0, groups = 0, members = 0, group[16];
        for (int i = first; i < first + n; i++) {
            int k = sprite_texture(i);
            if (i == first || k != sprite_texture(i - 1)) runs++;
            bool member = false;
            for (int m = 0; m < members; m++) member |= group[m] == k;
            if (!member) {
                if (groups == 0 || members == 16) {
                    groups++;
                    members = 0;
                }
                group[members++] = k;
            }
        }
        *on += runs > 1 ? groups : 1;
        *off += runs;
    }
}

static uint64_t group_draws(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    (void)xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

/* The device, its GTEX textures and a batch; NULL (the failure recorded) if any failed. */
static xgd_device *groups_setup(xgdt_ctx *t, xgd_texture **tex, xgd_sprite_batch **sb)
{
    xgd_device *dev = groups_device(t);
    if (dev == NULL) return NULL;
    for (int k = 0; k < GTEX; k++) {
        tex[k] = group_texture(t, dev, k);
        if (tex[k] == NULL) return NULL;
    }
    if (xgd_sprite_batch_create(dev, sb) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_sprite_batch_create: %s", xgd_device_last_error(dev));
        return NULL;
    }
    return dev;
}

static void groups_match(xgdt_ctx *t, xgd_sprite_sort_mode mode)
{
    xgd_texture *tex[GTEX];
    xgd_sprite_batch *sb = NULL;
    xgd_device *dev = groups_setup(t, tex, &sb);
    REQUIRE(dev != NULL);
    uint8_t *off = NULL, *on = NULL;
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_OFF));
    uint64_t d0 = group_draws(dev);
    REQUIRE(draw_groups_scene(t, dev, sb, tex, mode, SPRITES, &off));
    uint64_t d1 = group_draws(dev);
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_ON));
    REQUIRE(draw_groups_scene(t, dev, sb, tex, mode, SPRITES, &on));
    uint64_t d2 = group_draws(dev);
    bool drawn = false;
    for (int i = 0; i < GW * GH && !drawn; i++) drawn = off[i * 4] != 10;
    CHECK(drawn);
    CHECK(xgdt_compare_rgba(t, "texture groups vs a draw per run", on, off, GW, GH, 0));
    if (mode == XGD_SPRITE_SORT_DEFERRED) {
        int want_on, want_off;
        expected_draws(SPRITES, &want_on, &want_off);
        CHECK_INT((int)(d1 - d0), want_off);
        CHECK_INT((int)(d2 - d1), want_on);
    } else {
        CHECK((d2 - d1) < (d1 - d0)); /* sorted: fewer draws than runs all the same */
    }
    free(off);
    free(on);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < GTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_TextureGroupsMatchRunsDeferred) { groups_match(t, XGD_SPRITE_SORT_DEFERRED); }
XGD_FIXTURE(SpriteBatch_TextureGroupsMatchRunsBackToFront)
{
    groups_match(t, XGD_SPRITE_SORT_BACK_TO_FRONT);
}

/* After End with groups: SpriteEffect's state as XNA's SpriteBatch leaves it (slot 0 the last
 * sprite's texture, sampler 0 the batch's), slots 1..15 as the program set them before End,
 * textures and sampler states both; AUTO groups on GPU renderers only; a bad mode is refused. */
XGD_FIXTURE(SpriteBatch_TextureGroupsLeaveXnaState)
{
    xgd_texture *tex[GTEX];
    xgd_sprite_batch *sb = NULL;
    xgd_device *dev = groups_setup(t, tex, &sb);
    REQUIRE(dev != NULL);
    CHECK_RESULT(xgd_sprite_batch_set_texture_groups(sb, (xgd_sprite_texture_groups)3),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_sprite_batch_set_texture_groups(NULL, XGD_SPRITE_TEXTURE_GROUPS_ON),
                 XGD_ERROR_INVALID_ARGUMENT);

    /* the program's own slots: textures 30..32 in slots 1, 5, 15 and sampler states */
    xgd_sampler_state *wrap = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP);
    xgd_sampler_state *aniso = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_ANISOTROPIC_WRAP);
    REQUIRE_OK(xgd_set_texture(dev, 1, tex[30]));
    REQUIRE_OK(xgd_set_texture(dev, 5, tex[31]));
    REQUIRE_OK(xgd_set_texture(dev, 15, tex[32]));
    REQUIRE_OK(xgd_set_sampler_state(dev, 1, wrap));
    REQUIRE_OK(xgd_set_sampler_state(dev, 7, aniso));
    xgd_texture *before_tex[16];
    xgd_sampler_state *before_smp[16];
    for (int k = 0; k < 16; k++) {
        REQUIRE_OK(xgd_get_texture(dev, k, &before_tex[k]));
        REQUIRE_OK(xgd_get_sampler_state(dev, k, &before_smp[k]));
    }

    const xgd_sprite s = XGD_SPRITE_INIT;
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_ON));
    xgd_sprite_batch_begin_desc d;
    memset(&d, 0, sizeof d);
    d.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
    for (int i = 0; i < 40; i++) CHECK_OK(xgd_sprite_batch_draw(sb, tex[(i * 3) % 20], &s));
    uint64_t d0 = group_draws(dev);
    CHECK_OK(xgd_sprite_batch_end(sb));
    /* 20 textures, a change every sprite: a group of 16, then one of the other 4 and the
       first 16 again would be 20 distinct, so groups of 16 sprites: 40 sprites -> 3 draws */
    CHECK_INT((int)(group_draws(dev) - d0), 3);
    xgd_texture *now_tex;
    xgd_sampler_state *now_smp;
    CHECK_OK(xgd_get_texture(dev, 0, &now_tex));
    CHECK(now_tex == tex[(39 * 3) % 20]);
    CHECK_OK(xgd_get_sampler_state(dev, 0, &now_smp));
    CHECK(now_smp == d.sampler_state);
    for (int k = 1; k < 16; k++) {
        CHECK_OK(xgd_get_texture(dev, k, &now_tex));
        CHECK(now_tex == before_tex[k]);
        CHECK_OK(xgd_get_sampler_state(dev, k, &now_smp));
        CHECK(now_smp == before_smp[k]);
    }

    /* AUTO groups on GPU renderers where a chunk has enough runs a group (Direct3D 12 4,
       Vulkan 32) and draws a run at a time on the software renderer: 40 sprites cycling over
       4 textures are 40 runs in one group; the 40 over 20 textures above are 40 runs in 3
       groups (13.3 a group): grouped on Direct3D 12 only */
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_AUTO));
    for (int scene = 0; scene < 2; scene++) {
        REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
        for (int i = 0; i < 40; i++)
            CHECK_OK(xgd_sprite_batch_draw(sb, tex[scene == 0 ? i % 4 : (i * 3) % 20], &s));
        d0 = group_draws(dev);
        CHECK_OK(xgd_sprite_batch_end(sb));
        int want = 40;
        if (info.renderer == XGD_RENDERER_D3D12) want = scene == 0 ? 1 : 3;
        if (info.renderer == XGD_RENDERER_VULKAN) want = scene == 0 ? 1 : 40;
        CHECK_MSG((int)(group_draws(dev) - d0) == want, "AUTO, scene %d: %d draws, want %d",
                  scene, (int)(group_draws(dev) - d0), want);
    }

    /* a texture bound as the render target is refused before anything is drawn, and the
       slots stay as they were */
    xgd_texture *rt = NULL;
    xgd_render_target_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.width = GTW;
    rd.height = GTH;
    REQUIRE_OK(xgd_render_target2d_create(dev, &rd, &rt));
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(sb, XGD_SPRITE_TEXTURE_GROUPS_ON));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &d));
    for (int i = 0; i < 40; i++) CHECK_OK(xgd_sprite_batch_draw(sb, i == 20 ? rt : tex[i % 20], &s));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    d0 = group_draws(dev);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_INVALID_OPERATION);
    CHECK_INT((int)(group_draws(dev) - d0), 0);
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    for (int k = 1; k < 16; k++) {
        CHECK_OK(xgd_get_texture(dev, k, &now_tex));
        CHECK(now_tex == before_tex[k]);
        CHECK_OK(xgd_get_sampler_state(dev, k, &now_smp));
        CHECK(now_smp == before_smp[k]);
    }
    xgd_texture_destroy(rt);
    xgd_sprite_batch_destroy(sb);
    for (int k = 0; k < GTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}
