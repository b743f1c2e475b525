/*
 * fixture_lifetime.c - render-target lifetime and finalisation edges.
 *
 * BoundTargetLifetime (spec 001 "Bound target disposal has two paths"): destroying a target that
 * is still bound detaches it. The renderer returns to the back buffer while the target's native
 * part still exists, the public bindings are cleared, and Present keeps refusing until
 * SetRenderTargets is called again (with an empty set or a new set). Nothing in the destroy path
 * is a SetRenderTargets transition, so viewport and scissor keep the destroyed target's size
 * (they are reset only by steps 3 and 6 of the transaction); clears and draws in between go to
 * the back buffer through that viewport.
 *
 * BoundTargetLifetime_MrtMips (spec 000, leg L1): destroying one slot of a bound MRT set whose
 * targets have mipmaps still finalises the survivor: its resolved image and mip chain are
 * current.
 *
 * RenderTargetCube_Transitions (spec 000 "Cube targets"): leaving a cube face resolves and
 * regenerates the mips of that face before the next binding, for every kind of transition:
 * another face of the same cube, a 2D target, an MRT set and the back buffer. Every face is
 * read, at level 0 and 1.
 */
#include "fixture_model.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color WHITE = { 255, 255, 255, 255 };

static bool target_bound(xgd_device *dev)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) != XGD_OK) return false;
    return info.render_target_bound;
}

static int binding_count(xgd_device *dev)
{
    int count = -1;
    if (xgd_get_render_targets(dev, NULL, 0, &count) != XGD_OK) return -1;
    return count;
}

static void expect_viewport(xgdt_ctx *t, xgd_device *dev, int w, int h, const char *when)
{
    xgd_viewport vp;
    xgd_rect sc;
    if (xgd_get_viewport(dev, &vp) != XGD_OK || xgd_get_scissor_rect(dev, &sc) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "%s: viewport/scissor query failed", when);
        return;
    }
    CHECK_MSG(vp.x == 0 && vp.y == 0 && vp.width == w && vp.height == h,
              "%s: viewport (%d,%d %dx%d), expected (0,0 %dx%d)", when, vp.x, vp.y, vp.width,
              vp.height, w, h);
    CHECK_MSG(sc.x == 0 && sc.y == 0 && sc.width == w && sc.height == h,
              "%s: scissor (%d,%d %dx%d), expected (0,0 %dx%d)", when, sc.x, sc.y, sc.width,
              sc.height, w, h);
}

XGD_FIXTURE(BoundTargetLifetime)
{
    enum { BW = 32, BH = 32, W = 16, H = 16 };
    /* D3D10 centres: tests target lifetime, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, BW, BH, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    const xgd_color colors[4] = { { 240, 60, 20, 255 }, WHITE, WHITE, WHITE };
    xgd_effect *fx = fm_mrt_effect(t, dev, colors);
    REQUIRE(fx);
    const xgd_color back = { 10, 20, 30, 255 }, after = { 90, 160, 60, 255 };
    CHECK_OK(xgd_clear_color(dev, back));

    /* ---- destroy while bound, then an empty set ---- */
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, fx_rgba(200, 0, 200, 255)));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 8, 0, WHITE));
    xgd_texture_destroy(rt);
    CHECK_INT(binding_count(dev), 0);
    CHECK_MSG(target_bound(dev), "render_target_bound must stay set after a bound target is destroyed");
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    expect_viewport(t, dev, W, H, "after destroy");

    /* The renderer is back on the back buffer: a clear fills all of it, and a draw over the
     * (unchanged) 16x16 viewport lands in its top-left quarter. Nothing reaches the dead
     * target. */
    CHECK_OK(xgd_clear_color(dev, after));
    const float tri[6] = { 1.2f, 0.7f, 15.1f, 6.4f, 3.3f, 14.6f };
    CHECK_OK(fx_tri(dev, W, H, tri, 0, WHITE));
    uint8_t *e = fx_image(BW, BH, after);
    REQUIRE(e);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (fx_covers_pixel(tri, x, y)) fx_put(e, BW, x, y, colors[0]);
    fx_expect_back_buffer(t, dev, "draw_after_destroy", e, BW, BH, 0);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);

    /* An empty set is a real transition here (not the empty-to-empty no-op). */
    CHECK_OK(xgd_set_render_targets(dev, NULL, 0));
    CHECK_MSG(!target_bound(dev), "an empty set after the destroy must unbind");
    expect_viewport(t, dev, BW, BH, "after the empty set");
    CHECK_OK(xgd_present(dev));
    fx_expect_back_buffer(t, dev, "after_empty_set", e, BW, BH, 0);
    free(e);

    /* ---- destroy while bound, then a new target ---- */
    xgd_texture *u = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *v = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(u && v);
    CHECK_OK(xgd_set_render_target(dev, u));
    xgd_texture_destroy(u);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_render_target(dev, v));
    xgd_render_target_binding got[4];
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, got, 4, &count));
    CHECK_INT(count, 1);
    CHECK(count == 1 && got[0].target == v);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION); /* v itself is bound */
    CHECK_OK(fx_rect(dev, W, H, 4, 4, 12, 8, 0, WHITE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_present(dev));
    /* v was bound for real: DiscardContents cleared it to opaque black, then the draw */
    e = fx_image(W, H, BLACK);
    REQUIRE(e);
    fx_fill(e, W, H, 4, 4, 12, 8, colors[0]);
    fx_expect_texture(t, v, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "new_target", e, W, H, 0);
    free(e);

    /* ---- destroying an unbound target changes nothing ---- */
    xgd_texture_destroy(v);
    CHECK(!target_bound(dev));
    CHECK_OK(xgd_present(dev));
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Leg L1: slot `victim` of a bound two-target set is destroyed; the other must come out
 * resolved and with its mip chain regenerated. */
static void mrt_mips_leg(xgdt_ctx *t, xgd_device *dev, int victim, int ms)
{
    enum { W = 16, H = 16 };
    xgd_texture *tg[2];
    for (int i = 0; i < 2; i++) {
        tg[i] = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, ms, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
        REQUIRE(tg[i]);
    }
    xgd_texture_info info;
    REQUIRE_OK(xgd_texture_get_info(tg[0], &info));
    REQUIRE(info.level_count == 5);
    const xgd_color colors[4] = { { 250, 30, 90, 255 }, { 20, 200, 240, 255 }, WHITE, WHITE };
    const xgd_color clear = { 60, 90, 30, 255 };
    xgd_effect *fx = fm_mrt_effect(t, dev, colors);
    REQUIRE(fx);
    int n = fm_samples(tg[0]);
    const float tri[6] = { 0.6f, 1.3f, 15.4f, 4.8f, 6.2f, 15.1f };
    xgd_render_target_binding set[2] = { { tg[0], XGD_CUBE_MAP_FACE_POSITIVE_X }, { tg[1], XGD_CUBE_MAP_FACE_POSITIVE_X } };
    CHECK_OK(xgd_set_render_targets(dev, set, 2));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(clear), 1.0f, 0));
    CHECK_OK(fx_tri(dev, W, H, tri, 0, WHITE));
    CHECK_OK(fx_rect(dev, W, H, 10, 0, 16, 6, 0, WHITE));
    int survivor = 1 - victim;
    xgd_texture_destroy(tg[victim]);
    CHECK_INT(binding_count(dev), 0);
    CHECK(target_bound(dev));
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    fm_model m;
    REQUIRE(fm_init(&m, W, H, n, clear));
    fm_tri(&m, tri, colors[survivor], 15);
    fm_rect(&m, 10, 0, 16, 6, colors[survivor], 15);
    char label[48];
    snprintf(label, sizeof label, "destroy_slot%d_survivor", victim);
    fm_expect(t, &m, tg[survivor], XGD_CUBE_MAP_FACE_POSITIVE_X, 2, label);
    fm_free(&m);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_present(dev));
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tg[survivor]);
}

XGD_FIXTURE(BoundTargetLifetime_MrtMips)
{
    /* D3D10 centres: tests target lifetime, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    int ms = fx_max_msaa(dev) >= 4 ? 4 : 0;
    mrt_mips_leg(t, dev, 0, ms);
    mrt_mips_leg(t, dev, 1, ms);
    xgd_device_destroy(dev);
}

/* ---- cube transitions ------------------------------------------------------------------------ */

/* Draws face f's own asymmetric picture (clear, triangle, marker rect) and models it. */
static void cube_face_scene(xgdt_ctx *t, xgd_device *dev, xgd_effect *fx, fm_model *m, int f)
{
    enum { S = 16 };
    const xgd_color bg = fx_rgba(30 + 35 * f, 200 - 30 * f, 40 + 20 * f, 255);
    const xgd_color ink = fx_rgba(255 - 40 * f, 40 * f, 120, 255);
    const xgd_color mark = fx_rgba(250, 250, 30 * f, 255);
    const xgd_color colors[4] = { ink, WHITE, WHITE, WHITE };
    const xgd_color mcolors[4] = { mark, WHITE, WHITE, WHITE };
    const float tri[6] = { 1.3f + f, 1.1f, 15.2f, 6.7f + f * 0.5f, 3.9f, 15.4f - f * 0.3f };
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(bg), 1.0f, 0));
    fm_fill(m, bg);
    CHECK_OK(fm_mrt_colors(fx, colors));
    CHECK_OK(fx_tri(dev, S, S, tri, 0, WHITE));
    fm_tri(m, tri, ink, 15);
    CHECK_OK(fm_mrt_colors(fx, mcolors));
    CHECK_OK(fx_rect(dev, S, S, (float)(2 * f), 12, (float)(2 * f + 4), 14, 0, WHITE));
    fm_rect(m, (float)(2 * f), 12, (float)(2 * f + 4), 14, mark, 15);
}

/*
 * Face +X -> face -X -> face +Y (same cube), +Y -> 2D target, bind -Y, -Y -> MRT set, bind +Z,
 * +Z -> back buffer, bind -Z, -Z -> back buffer. After each transition the outgoing face is
 * read (resolved level 0 and level 1); at the end every face again, so a finalisation of the
 * wrong face, or a draw into the wrong face, shows.
 */
XGD_FIXTURE(RenderTargetCube_Transitions)
{
    enum { S = 16 };
    /* D3D10 centres: tests transitions, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (!fm_need_targets(t, dev, 2)) {
        xgd_device_destroy(dev);
        return;
    }
    int ms = fx_max_msaa(dev) >= 4 ? 4 : 0;
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = S;
    d.height = S;
    d.mipmap = true;
    d.preferred_multisample_count = ms;
    d.usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS;
    xgd_texture *cube = NULL;
    REQUIRE_OK(xgd_render_target_cube_create(dev, &d, &cube));
    xgd_texture_info info;
    REQUIRE_OK(xgd_texture_get_info(cube, &info));
    REQUIRE(info.level_count == 5);
    int n = fm_samples(cube);
    xgd_texture *flat = fx_target(t, dev, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *ma = fx_target(t, dev, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *mb = fx_target(t, dev, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    const xgd_color start[4] = { WHITE, WHITE, WHITE, WHITE };
    xgd_effect *fx = fm_mrt_effect(t, dev, start);
    REQUIRE(flat && ma && mb && rs && fx);
    fm_model m[6];
    for (int f = 0; f < 6; f++) REQUIRE(fm_init(&m[f], S, S, n, BLACK));
    static const char *const face_names[6] = { "pos_x", "neg_x", "pos_y", "neg_y", "pos_z", "neg_z" };
    char label[64];
#define FACE(f) ((xgd_cube_map_face)(f))
#define CHECK_FACE(f, what)                                                                   \
    do {                                                                                      \
        snprintf(label, sizeof label, "%s_%s", what, face_names[f]);                          \
        fm_expect(t, &m[f], cube, FACE(f), 2, label);                                         \
    } while (0)

    /* face -> another face of the same cube (twice) */
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(0)));
    cube_face_scene(t, dev, fx, &m[0], 0);
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(1)));
    CHECK_OK(xgd_set_render_target(dev, NULL)); /* the cube itself cannot be read while bound */
    CHECK_FACE(0, "face_to_face");
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(1)));
    cube_face_scene(t, dev, fx, &m[1], 1);
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(2)));
    cube_face_scene(t, dev, fx, &m[2], 2);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_FACE(1, "face_to_face");

    /* cube -> 2D target */
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(2)));
    CHECK_OK(fm_mrt_colors(fx, start));
    CHECK_OK(fx_rect(dev, S, S, 14, 0, 16, 2, 0, fx_rgba(0, 0, 0, 255)));
    fm_rect(&m[2], 14, 0, 16, 2, BLACK, 15);
    CHECK_OK(xgd_set_render_target(dev, flat));
    CHECK_FACE(2, "cube_to_2d");

    /* cube -> MRT set */
    CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(3)));
    cube_face_scene(t, dev, fx, &m[3], 3);
    xgd_render_target_binding set[2] = { { ma, XGD_CUBE_MAP_FACE_POSITIVE_X }, { mb, XGD_CUBE_MAP_FACE_POSITIVE_X } };
    CHECK_OK(xgd_set_render_targets(dev, set, 2));
    CHECK_FACE(3, "cube_to_mrt");

    /* cube -> back buffer */
    for (int f = 4; f < 6; f++) {
        CHECK_OK(xgd_set_render_target_cube(dev, cube, FACE(f)));
        cube_face_scene(t, dev, fx, &m[f], f);
        CHECK_OK(xgd_set_render_target(dev, NULL));
        CHECK_FACE(f, "cube_to_back_buffer");
    }

    /* every face still holds its own picture */
    for (int f = 0; f < 6; f++) CHECK_FACE(f, "final");
#undef CHECK_FACE
#undef FACE
    for (int f = 0; f < 6; f++) fm_free(&m[f]);
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    xgd_texture_destroy(mb);
    xgd_texture_destroy(ma);
    xgd_texture_destroy(flat);
    xgd_texture_destroy(cube);
    xgd_device_destroy(dev);
}
