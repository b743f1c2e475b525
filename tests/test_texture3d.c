/*
 * test_texture3d.c - neutral-layer tests of Texture3D (XNA's volume texture) and the EXT
 * VolumeEffect's core rules: Reach has no volume textures, HiDef's 256 per dimension, formats
 * by the renderer's volume caps, box validation, the calls that belong to other texture kinds,
 * the draw-time kind check of slot 0, info fields, and the CPU shadow across loss and restore
 * (as Texture2D). Failed calls change nothing: results are exact and the texels are re-read.
 */
#include "harness.h"
#include "internal.h" /* xgdi_debug_fail_next: a renderer upload that fails on demand */

#include <math.h>
#include <stdlib.h>
#include <string.h>

static xgd_device *make_device(xgdt_ctx *t, xgd_graphics_profile profile, bool recovery)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.profile = profile;
    d.context_recovery = recovery;
    return xgdt_device(t, &d);
}

static uint64_t live_resources(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

/* Creation that must fail: the exact code, *out NULL, nothing registered. */
static void expect_create_fails(xgdt_ctx *t, int line, xgd_device *dev,
                                const xgd_texture3d_desc *d, xgd_result expected)
{
    uint64_t before = live_resources(dev);
    xgd_texture *tex = (xgd_texture *)(uintptr_t)0x1;
    xgd_result r = xgd_texture3d_create(dev, d, &tex);
    if (r != expected)
        xgdt_fail_at(t, __FILE__, line, "texture3d %dx%dx%d fmt %d: %s, expected %s (%s)",
                     d->width, d->height, d->depth, (int)d->format, xgd_result_name(r),
                     xgd_result_name(expected), xgd_device_last_error(dev));
    if (r == XGD_OK) {
        xgd_texture_destroy(tex);
        return;
    }
    if (tex != NULL) xgdt_fail_at(t, __FILE__, line, "a failed create left *out non-NULL");
    if (live_resources(dev) != before)
        xgdt_fail_at(t, __FILE__, line, "a failed create registered a resource");
}
#define EXPECT_CREATE_FAILS(dev, desc, code) expect_create_fails(t, __LINE__, dev, desc, code)

static xgd_texture *make_volume(xgdt_ctx *t, xgd_device *dev, int w, int h, int d, bool mip)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture3d_create(
        dev, &(xgd_texture3d_desc){ .width = w, .height = h, .depth = d, .mipmap = mip }, &tex);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_texture3d_create: %s (%s)", xgd_result_name(r),
                     xgdt_last_message());
    return tex;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 31u + seed * 7u + (i >> 5));
}

/* XNA: Texture3D under Reach throws NotSupportedException, whatever its size or format; the
 * format query reports no volume support there. */
XGD_TEST(texture3d_reach_refused)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_REACH, true);
    REQUIRE(dev);
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 4 }),
                        XGD_ERROR_NOT_SUPPORTED);
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 1, .height = 1, .depth = 1 }),
                        XGD_ERROR_NOT_SUPPORTED);
    xgd_format_support s;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &s));
    CHECK(s.texture);
    CHECK(!s.volume);
    xgd_device_destroy(dev);

    dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &s));
    CHECK(s.volume);
    xgd_texture *tex = make_volume(t, dev, 4, 4, 4, false);
    CHECK(tex != NULL);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* XNA HiDef's volume limit is 256 along each axis (NOT_SUPPORTED beyond, as a Texture2D past
 * its profile limit: XNA's NotSupportedException); sizes must be positive (INVALID_ARGUMENT);
 * the format must be known; DXT widths and heights come in whole blocks. */
XGD_TEST(texture3d_size_and_format_limits)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    const int ok[4][3] = { { 256, 1, 1 }, { 1, 256, 1 }, { 1, 1, 256 }, { 256, 16, 4 } };
    for (int i = 0; i < 4; i++) {
        xgd_texture *tex = make_volume(t, dev, ok[i][0], ok[i][1], ok[i][2], true);
        CHECK(tex != NULL);
        xgd_texture_destroy(tex);
    }
    const int too_big[3][3] = { { 257, 1, 1 }, { 1, 257, 1 }, { 1, 1, 257 } };
    for (int i = 0; i < 3; i++)
        EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = too_big[i][0],
                                                         .height = too_big[i][1],
                                                         .depth = too_big[i][2] }),
                            XGD_ERROR_NOT_SUPPORTED);
    const int bad[4][3] = { { 0, 4, 4 }, { 4, 0, 4 }, { 4, 4, 0 }, { 4, -4, 4 } };
    for (int i = 0; i < 4; i++)
        EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = bad[i][0],
                                                         .height = bad[i][1],
                                                         .depth = bad[i][2] }),
                            XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 4,
                                                     .format = XGD_SURFACE_FORMAT_COUNT }),
                        XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 4,
                                                     .format = (xgd_surface_format)-3 }),
                        XGD_ERROR_INVALID_ARGUMENT);
    /* the software renderer reports DXT for volumes: a partial block is an argument error */
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 6, .height = 4, .depth = 3,
                                                     .format = XGD_SURFACE_FORMAT_DXT1 }),
                        XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture *dxt = NULL;
    CHECK_OK(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = 8, .height = 4, .depth = 3,
                                                              .format = XGD_SURFACE_FORMAT_DXT5 },
                                  &dxt));
    xgd_texture_destroy(dxt);
    CHECK_RESULT(xgd_texture3d_create(dev, NULL, &dxt), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(dxt == NULL);
    CHECK_RESULT(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = 1, .height = 1,
                                                                  .depth = 1 }, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_device_destroy(dev);
}

/* A renderer that cannot use a format for volumes makes creation NOT_SUPPORTED (whatever it
 * can do with the format in 2D): the software renderer's caps with the volume bit cleared. */
XGD_TEST(texture3d_format_by_volume_caps)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    dev->caps.formats[XGD_SURFACE_FORMAT_SINGLE].volume = false;
    EXPECT_CREATE_FAILS(dev, (&(xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 2,
                                                     .format = XGD_SURFACE_FORMAT_SINGLE }),
                        XGD_ERROR_NOT_SUPPORTED);
    xgd_format_support s;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_SINGLE, &s));
    CHECK(s.texture && !s.volume);
    /* 2D creation of the format is untouched */
    xgd_texture *t2 = NULL;
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4,
                                                              .format = XGD_SURFACE_FORMAT_SINGLE },
                                  &t2));
    xgd_texture_destroy(t2);
    xgd_device_destroy(dev);
}

/* Mip chain down to 1x1x1 with each dimension halving on its own; info fields; depth 1 for
 * every other kind. */
XGD_TEST(texture3d_info_and_mips)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    const struct { int w, h, d, levels; } c[4] = {
        { 8, 4, 16, 5 }, { 1, 1, 1, 1 }, { 3, 5, 2, 3 }, { 2, 64, 2, 7 } };
    for (int i = 0; i < 4; i++) {
        xgd_texture *tex = make_volume(t, dev, c[i].w, c[i].h, c[i].d, true);
        REQUIRE(tex);
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(tex, &info));
        CHECK_INT(info.kind, XGD_TEXTURE_3D);
        CHECK_INT(info.width, c[i].w);
        CHECK_INT(info.height, c[i].h);
        CHECK_INT(info.depth, c[i].d);
        CHECK_INT(info.level_count, c[i].levels);
        CHECK_INT(info.format, XGD_SURFACE_FORMAT_COLOR);
        CHECK_INT(info.depth_format, XGD_DEPTH_FORMAT_NONE);
        CHECK_INT(info.multisample_count, 0);
        CHECK(info.has_cpu_shadow);
        CHECK(!info.content_lost);
        /* the smallest level is 1x1x1: 4 bytes */
        uint8_t px[4] = { 1, 2, 3, 4 }, back[4];
        CHECK_OK(xgd_texture3d_set_data(tex, c[i].levels - 1, NULL, px, 4));
        CHECK_OK(xgd_texture3d_get_data(tex, c[i].levels - 1, NULL, back, 4));
        CHECK(memcmp(px, back, 4) == 0);
        CHECK_RESULT(xgd_texture3d_get_data(tex, c[i].levels, NULL, back, 4),
                     XGD_ERROR_INVALID_ARGUMENT);
        xgd_texture_destroy(tex);
    }
    xgd_texture *tex = make_volume(t, dev, 8, 4, 6, false);
    REQUIRE(tex);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.level_count, 1);
    xgd_texture_destroy(tex);
    /* every other kind reports depth 1 */
    xgd_texture *t2 = NULL, *cube = NULL, *rt = NULL;
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 2 }, &t2));
    CHECK_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4 }, &cube));
    CHECK_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4, .height = 4 },
                                        &rt));
    xgd_texture *all[3] = { t2, cube, rt };
    for (int i = 0; i < 3; i++) {
        if (all[i] == NULL) continue;
        CHECK_OK(xgd_texture_get_info(all[i], &info));
        CHECK_INT(info.depth, 1);
        xgd_texture_destroy(all[i]);
    }
    xgd_device_destroy(dev);
}

/* Box validation: inside the level, non-empty (right/bottom/back exclusive), DXT 4-aligned or
 * reaching the level edge, the exact size; each refusal leaves the texels as they were. */
XGD_TEST(texture3d_box_validation)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = make_volume(t, dev, 4, 4, 3, true); /* levels 4x4x3, 2x2x1, 1x1x1 */
    REQUIRE(tex);
    uint8_t before[4 * 4 * 3 * 4], after[sizeof before], junk[sizeof before];
    fill(before, sizeof before, 1);
    fill(junk, sizeof junk, 9);
    REQUIRE_OK(xgd_texture3d_set_data(tex, 0, NULL, before, sizeof before));
    const struct { xgd_box b; size_t size; const char *what; } bad[] = {
        { { -1, 0, 0, 2, 2, 1 }, 16, "negative left" },
        { { 0, -1, 0, 2, 2, 1 }, 16, "negative top" },
        { { 0, 0, -1, 2, 2, 1 }, 16, "negative front" },
        { { 2, 0, 0, 2, 2, 1 }, 0, "empty width" },
        { { 0, 2, 0, 2, 2, 1 }, 0, "empty height" },
        { { 0, 0, 1, 2, 2, 1 }, 0, "empty depth" },
        { { 3, 0, 0, 2, 2, 1 }, 16, "right before left" },
        { { 0, 0, 0, 5, 2, 1 }, 40, "right beyond the level" },
        { { 0, 0, 0, 2, 5, 1 }, 40, "bottom beyond the level" },
        { { 0, 0, 0, 2, 2, 4 }, 64, "back beyond the level" },
        { { 0, 0, 2, 2, 2, 3 }, 15, "size one byte short" },
        { { 0, 0, 2, 2, 2, 3 }, 17, "size one byte long" },
        { { 0, 0, 0, 4, 4, 3 }, 4 * 4 * 4, "size of one slice for three" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xgd_result r = xgd_texture3d_set_data(tex, 0, &bad[i].b, junk, bad[i].size);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "set_data %s: %s", bad[i].what,
                  xgd_result_name(r));
        r = xgd_texture3d_get_data(tex, 0, &bad[i].b, junk, bad[i].size);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "get_data %s: %s", bad[i].what,
                  xgd_result_name(r));
    }
    /* level 1 is 2x2x1: a box valid for level 0 is outside it */
    CHECK_RESULT(xgd_texture3d_set_data(tex, 1, &(xgd_box){ 0, 0, 0, 3, 2, 1 }, junk, 24),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(tex, 1, &(xgd_box){ 0, 0, 0, 2, 2, 2 }, junk, 32),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(tex, -1, NULL, junk, 64), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(tex, 3, NULL, junk, 4), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(tex, 0, NULL, NULL, sizeof before),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_get_data(tex, 0, NULL, NULL, sizeof before),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(NULL, 0, NULL, junk, 4), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, after, sizeof after));
    CHECK_MSG(memcmp(before, after, sizeof before) == 0, "a refused set_data changed texels");
    /* a valid box of each edge: the last texel of the last slice */
    uint8_t one[4] = { 9, 8, 7, 6 };
    CHECK_OK(xgd_texture3d_set_data(tex, 0, &(xgd_box){ 3, 3, 2, 4, 4, 3 }, one, 4));
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, after, sizeof after));
    memcpy(before + sizeof before - 4, one, 4);
    CHECK(memcmp(before, after, sizeof before) == 0);
    xgd_texture_destroy(tex);

    /* DXT: 4-aligned left/top, right/bottom at a multiple of 4 or the level edge */
    xgd_texture *dxt = NULL;
    REQUIRE_OK(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = 8, .height = 8,
                                                                .depth = 2, .mipmap = true,
                                                                .format = XGD_SURFACE_FORMAT_DXT1 },
                                    &dxt));
    uint8_t blocks[8 * 4 * 2];
    fill(blocks, sizeof blocks, 3);
    CHECK_OK(xgd_texture3d_set_data(dxt, 0, &(xgd_box){ 4, 4, 1, 8, 8, 2 }, blocks, 8));
    CHECK_RESULT(xgd_texture3d_set_data(dxt, 0, &(xgd_box){ 2, 0, 0, 6, 4, 1 }, blocks, 8),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(dxt, 0, &(xgd_box){ 0, 0, 0, 6, 4, 1 }, blocks, 16),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture3d_set_data(dxt, 0, &(xgd_box){ 0, 1, 0, 4, 5, 1 }, blocks, 8),
                 XGD_ERROR_INVALID_ARGUMENT);
    /* level 1 is 4x4x1, level 2 2x2x1 (one clipped block): the edge allows a partial block */
    CHECK_OK(xgd_texture3d_set_data(dxt, 2, &(xgd_box){ 0, 0, 0, 2, 2, 1 }, blocks, 8));
    xgd_texture_destroy(dxt);
    xgd_device_destroy(dev);
}

/* The data calls of the other kinds refuse a Texture3D and its own refuse the other kinds
 * (INVALID_OPERATION); a Texture3D is no render target and no BasicEffect texture. */
XGD_TEST(texture3d_wrong_kind_calls)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *vol = make_volume(t, dev, 4, 4, 2, false);
    REQUIRE(vol);
    xgd_texture *t2 = NULL, *cube = NULL, *rt = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &t2));
    REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4 }, &cube));
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4,
                                                                           .height = 4 }, &rt));
    uint8_t buf[4 * 4 * 2 * 4];
    memset(buf, 0, sizeof buf);
    CHECK_RESULT(xgd_texture_set_data(vol, 0, 0, NULL, buf, 64), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_texture_get_data(vol, 0, 0, NULL, buf, 64), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_texture_save_png(vol, "/nonexistent-dir/x.png"), XGD_ERROR_INVALID_OPERATION);
    /* save_png refuses the kind itself, before it allocates the level (not get_data later) */
    CHECK_MSG(strstr(xgd_device_last_error(dev), "PNG") != NULL,
              "save_png did not refuse the Texture3D itself: '%s'", xgd_device_last_error(dev));
    xgd_texture *others[3] = { t2, cube, rt };
    for (int i = 0; i < 3; i++) {
        CHECK_RESULT(xgd_texture3d_set_data(others[i], 0, NULL, buf, 64),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK_RESULT(xgd_texture3d_get_data(others[i], 0, NULL, buf, 64),
                     XGD_ERROR_INVALID_OPERATION);
    }
    /* not a render target */
    CHECK_RESULT(xgd_set_render_target(dev, vol), XGD_ERROR_INVALID_OPERATION);
    xgd_render_target_binding b = { vol, 0 };
    CHECK_RESULT(xgd_set_render_targets(dev, &b, 1), XGD_ERROR_INVALID_OPERATION);
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, NULL, 0, &count));
    CHECK_INT(count, 0);
    /* effects: BasicEffect.Texture is 2D; the VolumeEffect's is 3D */
    xgd_effect *basic = NULL, *volfx = NULL, *sprite = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    REQUIRE_OK(xgd_volume_effect_create(dev, &volfx));
    REQUIRE_OK(xgd_sprite_effect_create(dev, &sprite));
    CHECK_RESULT(xgd_basic_effect_set_texture(basic, vol), XGD_ERROR_INVALID_ARGUMENT);
    for (int i = 0; i < 3; i++)
        CHECK_RESULT(xgd_volume_effect_set_texture(volfx, others[i]), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_volume_effect_set_texture(volfx, vol));
    CHECK_OK(xgd_volume_effect_set_texture(volfx, NULL));
    /* the VolumeEffect setters refuse other effects, and other setters the VolumeEffect */
    CHECK_RESULT(xgd_volume_effect_set_texture(basic, vol), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_volume_effect_set_matrix(sprite, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_volume_effect_set_color(basic, (xgd_vector4){ 1, 1, 1, 1 }),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_basic_effect_set_texture(volfx, t2), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_mrt_effect_set_matrix(volfx, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_matrix nan_m = xgd_matrix_identity();
    nan_m.m22 = NAN;
    CHECK_RESULT(xgd_volume_effect_set_matrix(volfx, &nan_m), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_volume_effect_set_color(volfx, (xgd_vector4){ 1, INFINITY, 1, 1 }),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_volume_effect_set_matrix(volfx, NULL));
    xgd_effect_destroy(basic);
    xgd_effect_destroy(volfx);
    xgd_effect_destroy(sprite);
    xgd_texture_destroy(t2);
    xgd_texture_destroy(cube);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(vol);
    xgd_device_destroy(dev);
}

typedef struct vt_vertex {
    xgd_vector3 position;
    xgd_vector3 uvw;
} vt_vertex;

/* Draw-time rules (a sampler register's kind): slot 0's kind must match what the program
 * samples, and the declaration must hold TextureCoordinate0; refused before the renderer sees
 * the draw (no draw counted). */
XGD_TEST(texture3d_draw_kind_checks)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *vol = make_volume(t, dev, 2, 2, 2, false);
    REQUIRE(vol);
    xgd_texture *t2 = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &t2));
    const xgd_vertex_element el[2] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 12, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 2, 0, &decl));
    vt_vertex tri[3] = { { { -1, -1, 0 }, { 0, 0, 0 } }, { { -1, 1, 0 }, { 0, 1, 0 } },
                         { { 1, -1, 0 }, { 1, 0, 1 } } };
    xgd_vertex_position_color ptri[3] = { { { -1, -1, 0 }, { 255, 255, 255, 255 } },
                                          { { -1, 1, 0 }, { 255, 255, 255, 255 } },
                                          { { 1, -1, 0 }, { 255, 255, 255, 255 } } };
    xgd_statistics s0, s1;

    xgd_effect *volfx = NULL;
    REQUIRE_OK(xgd_volume_effect_create(dev, &volfx));
    CHECK_OK(xgd_volume_effect_set_texture(volfx, vol));
    CHECK_OK(xgd_effect_apply(volfx));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, decl));
    /* a 2D texture put in slot 0 after the apply */
    CHECK_OK(xgd_set_texture(dev, 0, t2));
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, decl),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    /* no texture at all is fine: (0,0,0,1) */
    CHECK_OK(xgd_set_texture(dev, 0, NULL));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, decl));
    /* a declaration without TextureCoordinate0 */
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, ptri, 0, 1,
                                          xgd_vertex_declaration_stock(dev,
                                                                       XGD_VERTEX_POSITION_COLOR)),
                 XGD_ERROR_INVALID_OPERATION);

    /* BasicEffect with its texture variant, and SpriteEffect, refuse a Texture3D in slot 0 */
    xgd_effect *basic = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(basic, &p));
    p.texture_enabled = true;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_basic_effect_set_texture(basic, t2));
    CHECK_OK(xgd_effect_apply(basic));
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, tri, 0, 1, decl),
                 XGD_ERROR_INVALID_OPERATION);
    /* without the texture variant the BasicEffect samples nothing: the Texture3D is ignored */
    p.texture_enabled = false;
    p.vertex_color_enabled = true;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_effect_apply(basic));
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, ptri, 0, 1,
                                      xgd_vertex_declaration_stock(dev,
                                                                   XGD_VERTEX_POSITION_COLOR)));
    /* the SpriteEffect samples slot 0 as 2D: a Texture3D there is refused at the draw */
    xgd_effect *sprite = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &sprite));
    CHECK_OK(xgd_effect_apply(sprite));
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    xgd_vertex_position_color_texture stri[3];
    memset(stri, 0, sizeof stri);
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, stri, 0, 1,
                                          xgd_vertex_declaration_stock(
                                              dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    CHECK_OK(xgd_set_texture(dev, 0, t2));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, stri, 0, 1,
                                      xgd_vertex_declaration_stock(
                                          dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    xgd_effect_destroy(sprite);
    /* SpriteBatch.Draw takes a Texture2D: its own argument check refuses a Texture3D first
       (INVALID_ARGUMENT, as for cube textures) */
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){
                                            .sort_mode = XGD_SPRITE_SORT_IMMEDIATE }));
    CHECK_RESULT(xgd_sprite_batch_draw(sb, vol, &(xgd_sprite){ .color = XGD_COLOR_WHITE,
                                                               .scale = { 1, 1 } }),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_sprite_batch_end(sb));
    CHECK_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, t2, &(xgd_sprite){ .color = XGD_COLOR_WHITE,
                                                          .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    xgd_sprite_batch_destroy(sb);

    /* the VolumeEffect's texture destroyed behind its back: apply says disposed */
    CHECK_OK(xgd_volume_effect_set_texture(volfx, vol));
    xgd_texture_destroy(vol);
    CHECK_RESULT(xgd_effect_apply(volfx), XGD_ERROR_OBJECT_DISPOSED);
    xgd_effect_destroy(basic);
    xgd_effect_destroy(volfx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(t2);
    xgd_device_destroy(dev);
}

/* Context loss and restore, exactly as Texture2D (spec 000 "Device recovery", spec 001's CPU
 * shadow): with recovery on the volume gets every level's texels back; with recovery off it
 * has no shadow, comes back content-lost with a zero-filled level 0, and a partial level-0
 * write is refused. A native upload failure changes neither the shadow nor the texels. */
XGD_TEST(texture3d_loss_and_restore)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = make_volume(t, dev, 4, 2, 4, true); /* 4x2x4, 2x1x2, 1x1x1 */
    REQUIRE(tex);
    uint8_t l0[4 * 2 * 4 * 4], l1[2 * 1 * 2 * 4], l2[4], got[sizeof l0];
    fill(l0, sizeof l0, 1);
    fill(l1, sizeof l1, 2);
    fill(l2, sizeof l2, 3);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, l0, sizeof l0));
    CHECK_OK(xgd_texture3d_set_data(tex, 1, NULL, l1, sizeof l1));
    CHECK_OK(xgd_texture3d_set_data(tex, 2, NULL, l2, sizeof l2));
    /* a failing renderer upload: the texels stay */
    uint8_t other[sizeof l0];
    fill(other, sizeof other, 77);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_UPLOAD, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_texture3d_set_data(tex, 0, NULL, other, sizeof other),
                 XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof l0));
    CHECK_MSG(memcmp(got, l0, sizeof l0) == 0, "a failed upload changed the shadow");

    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_RESULT(xgd_texture3d_set_data(tex, 0, NULL, l0, sizeof l0), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = 1, .height = 1,
                                                                  .depth = 1 }, &(xgd_texture *){ NULL }),
                 XGD_ERROR_DEVICE_LOST);
    CHECK_OK(xgd_device_restore_context(dev));
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK_INT(di.last_recovery_failures, 0);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK(!info.content_lost);
    CHECK(info.has_cpu_shadow);
    CHECK_INT(info.depth, 4);
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof l0));
    CHECK(memcmp(got, l0, sizeof l0) == 0);
    CHECK_OK(xgd_texture3d_get_data(tex, 1, NULL, got, sizeof l1));
    CHECK(memcmp(got, l1, sizeof l1) == 0);
    CHECK_OK(xgd_texture3d_get_data(tex, 2, NULL, got, sizeof l2));
    CHECK(memcmp(got, l2, sizeof l2) == 0);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);

    /* recovery disabled */
    dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, false);
    REQUIRE(dev);
    tex = make_volume(t, dev, 4, 2, 4, true);
    REQUIRE(tex);
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK(!info.has_cpu_shadow);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, l0, sizeof l0));
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof l0)); /* from the renderer */
    CHECK(memcmp(got, l0, sizeof l0) == 0);
    CHECK_RESULT(xgd_texture3d_set_data(tex, 0, &(xgd_box){ 0, 0, 0, 1, 1, 1 }, l2, 4),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_texture3d_set_data(tex, 1, &(xgd_box){ 0, 0, 1, 1, 1, 2 }, l2, 4));
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_device_restore_context(dev));
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK(info.content_lost);
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof l0));
    bool zero = true;
    for (size_t i = 0; i < sizeof l0; i++) zero &= got[i] == 0;
    CHECK_MSG(zero, "a volume without a shadow did not come back zero-filled");
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Textures the packed-format self-test of a restore creates before any resource comes back:
 * one per packed format the renderer claims. */
static int probe_texture_creates(xgd_device *dev)
{
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGRA4444,
                                                  XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551 };
    int n = 0;
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        if (xgd_device_query_format(dev, packed[i], &fs) == XGD_OK && fs.texture) n++;
    }
    return n;
}

/* A volume whose recreation failed at a restore has no native part (each resource's
 * texture_create fails here): its box calls answer INVALID_OPERATION, as a draw sampling it does
 * (draw.c), instead of handing the renderer a NULL texture, with and without the CPU shadow;
 * info and destroy still work, and the failure is counted. */
XGD_TEST(texture3d_data_after_failed_recovery)
{
    for (int recovery = 1; recovery >= 0; recovery--) {
        xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, recovery != 0);
        REQUIRE(dev);
        xgd_texture *tex = make_volume(t, dev, 4, 2, 4, true);
        REQUIRE(tex);
        uint8_t l0[4 * 2 * 4 * 4], got[sizeof l0];
        fill(l0, sizeof l0, 5);
        CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, l0, sizeof l0));
        int probe_creates = probe_texture_creates(dev);
        CHECK_OK(xgd_device_simulate_context_loss(dev));
        /* Every resource's recreation fails; the self-test's creations before them pass. */
        REQUIRE_OK(xgdi_debug_fail_after(dev, XGDI_FAULT_TEXTURE_CREATE, probe_creates,
                                         XGD_ERROR_OUT_OF_MEMORY));
        CHECK_OK(xgd_device_restore_context(dev));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_CREATE, 0, XGD_OK));
        xgd_device_info di;
        CHECK_OK(xgd_device_get_info(dev, &di));
        CHECK_INT(di.last_recovery_failures, 1);
        CHECK_RESULT(xgd_texture3d_set_data(tex, 0, NULL, l0, sizeof l0),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK_MSG(strstr(xgd_device_last_error(dev), "no storage") != NULL, "message: '%s'",
                  xgd_device_last_error(dev));
        CHECK_RESULT(xgd_texture3d_set_data(tex, 1, &(xgd_box){ 0, 0, 0, 1, 1, 1 }, l0, 4),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK_RESULT(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof got),
                     XGD_ERROR_INVALID_OPERATION);
        CHECK_MSG(strstr(xgd_device_last_error(dev), "no storage") != NULL, "message: '%s'",
                  xgd_device_last_error(dev));
        /* argument errors still come first */
        CHECK_RESULT(xgd_texture3d_get_data(tex, 0, NULL, got, 3), XGD_ERROR_INVALID_ARGUMENT);
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(tex, &info));
        CHECK_INT(info.depth, 4);
        xgd_texture_destroy(tex);
        xgd_device_destroy(dev);
    }
}

/* Destroy and foreign devices as for other textures: NULL and double destroy are harmless, a
 * shell answers OBJECT_DISPOSED, another device's volume is refused by an effect. */
XGD_TEST(texture3d_lifetime)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    xgd_device *other = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev && other);
    uint64_t live = live_resources(dev);
    xgd_texture *vol = make_volume(t, dev, 2, 2, 2, false);
    xgd_texture *foreign = make_volume(t, other, 2, 2, 2, false);
    REQUIRE(vol && foreign);
    CHECK_INT(live_resources(dev), live + 1);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_volume_effect_create(dev, &fx));
    CHECK_RESULT(xgd_volume_effect_set_texture(fx, foreign), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    xgd_texture_destroy(vol);
    CHECK_INT(live_resources(dev), live + 1); /* the effect */
    xgd_texture_destroy(NULL);
    xgd_device_destroy(other); /* foreign becomes a shell */
    uint8_t buf[32];
    CHECK_RESULT(xgd_texture3d_set_data(foreign, 0, NULL, buf, sizeof buf),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_texture3d_get_data(foreign, 0, NULL, buf, sizeof buf),
                 XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_info info;
    CHECK_RESULT(xgd_texture_get_info(foreign, &info), XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_destroy(foreign);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
