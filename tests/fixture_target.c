/*
 * fixture_target.c - render-target usage (DiscardContents / PreserveContents, colour and
 * depth-stencil), mip generation at unbind, cube targets on every face.
 *
 * Scenes are asymmetric (bars at one corner, a slanted triangle) and each rebind draws only a
 * small marker, so a discard that looks like preservation, a wrong face, a flipped image or a
 * stale copy cannot pass (spec 000, render-target usage; spec 001, the transaction).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color MARK = { 255, 255, 255, 255 };

/* An asymmetric image in a w x h target (w, h >= 8, powers of two), coloured by seed. */
static void draw_asym(xgdt_ctx *t, xgd_device *dev, uint8_t *e, int w, int h, int seed)
{
    const xgd_color base = fx_rgba(40 * seed % 256, 200 - 30 * seed, 90 + 25 * seed, 255);
    const xgd_color bar = fx_rgba(255 - 20 * seed, 30 * seed, 60, 255);
    const xgd_color side = fx_rgba(10, 255 - 35 * seed, 20 * seed, 255);
    const xgd_color tri_c = fx_rgba(120, 60 + 20 * seed, 255 - 10 * seed, 255);
    CHECK_OK(fx_rect(dev, w, h, 0, 0, (float)w, (float)h, 0, base));
    CHECK_OK(fx_rect(dev, w, h, 0, 0, (float)(w / 2 + seed % 3), (float)(h / 4), 0, bar));
    CHECK_OK(fx_rect(dev, w, h, (float)(w - 3), (float)(h / 2), (float)w, (float)h, 0, side));
    const float tri[6] = { 1.3f, h * 0.45f, w * 0.55f, h * 0.7f, 2.6f, h - 0.7f };
    CHECK_OK(fx_tri(dev, w, h, tri, 0, tri_c));
    if (e) {
        fx_fill(e, w, h, 0, 0, w, h, base);
        fx_fill(e, w, h, 0, 0, w / 2 + seed % 3, h / 4, bar);
        fx_fill(e, w, h, w - 3, h / 2, w, h, side);
        fx_raster_tri(e, w, h, tri, tri_c);
    }
}

static void draw_marker(xgdt_ctx *t, xgd_device *dev, uint8_t *e, int w, int h)
{
    CHECK_OK(fx_rect(dev, w, h, 2, (float)(h - 4), 4, (float)(h - 2), 0, MARK));
    if (e) fx_fill(e, w, h, 2, h - 4, 4, h - 2, MARK);
}

XGD_FIXTURE(RenderTarget_Usage)
{
    enum { W = 16, H = 16 };
    /* D3D10 centres: tests usage, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const xgd_render_target_usage usages[3] = { XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS,
                                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS,
                                                XGD_RENDER_TARGET_USAGE_PLATFORM_CONTENTS };
    const char *names[3] = { "discard", "preserve", "platform" };
    for (int u = 0; u < 3; u++) {
        xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, usages[u], false);
        xgd_texture *away = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
        REQUIRE(rt && away);
        uint8_t *e = fx_image(W, H, BLACK);
        REQUIRE(e);
        CHECK_OK(xgd_set_render_target(dev, rt));
        draw_asym(t, dev, e, W, H, u + 1);
        /* rebinding the identical set is a no-op: nothing is discarded */
        CHECK_OK(xgd_set_render_target(dev, rt));
        CHECK_OK(xgd_set_render_target(dev, away));
        CHECK_OK(xgd_set_render_target(dev, rt));
        if (usages[u] == XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS) fx_fill(e, W, H, 0, 0, W, H, BLACK);
        draw_marker(t, dev, e, W, H);
        CHECK_OK(xgd_set_render_target(dev, NULL));
        fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, names[u], e, W, H, 0);
        free(e);
        xgd_texture_destroy(away);
        xgd_texture_destroy(rt);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* DiscardContents also clears the target's depth (1) and stencil (0) on rebind; Preserve keeps
 * them. Left half: depth 0.125; top half: stencil 7. The check draw is depth LessEqual at 0.5
 * with stencil Equal 0. */
XGD_FIXTURE(RenderTarget_DepthStencilUsage)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.target[0].color_write_channels = XGD_COLOR_WRITE_NONE;
    xgd_blend_state *nocolor = fx_blend(t, dev, &bd);
    xgd_depth_stencil_desc sd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    sd.depth_buffer_enable = false;
    sd.stencil_enable = true;
    sd.stencil_function = XGD_COMPARE_ALWAYS;
    sd.stencil_pass = XGD_STENCIL_OP_REPLACE;
    sd.reference_stencil = 7;
    xgd_depth_stencil_state *mark = fx_depth(t, dev, &sd);
    sd = (xgd_depth_stencil_desc)XGD_DEPTH_STENCIL_DESC_DEFAULT;
    sd.stencil_enable = true;
    sd.stencil_function = XGD_COMPARE_EQUAL;
    sd.reference_stencil = 0;
    xgd_depth_stencil_state *check = fx_depth(t, dev, &sd);
    REQUIRE(nocolor && mark && check);
    const xgd_color red = { 255, 0, 0, 255 }, green = { 0, 255, 0, 255 };
    for (int u = 0; u < 2; u++) {
        xgd_render_target_usage usage = u ? XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS : XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS;
        xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0, usage, false);
        REQUIRE(rt);
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(rt, &info));
        CHECK_INT(info.depth_format, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8);
        CHECK_OK(xgd_set_render_target(dev, rt));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, H, 0.125f, red));
        CHECK_OK(xgd_set_blend_state(dev, nocolor));
        CHECK_OK(xgd_set_depth_stencil_state(dev, mark));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, W, 8, 0.9f, red));
        CHECK_OK(xgd_set_blend_state(dev, NULL));
        CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
        CHECK_OK(xgd_set_render_target(dev, NULL));
        CHECK_OK(xgd_set_render_target(dev, rt));
        CHECK_OK(xgd_set_depth_stencil_state(dev, check));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, W, H, 0.5f, green));
        CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
        CHECK_OK(xgd_set_render_target(dev, NULL));
        uint8_t *e = fx_image(W, H, green);
        REQUIRE(e);
        if (u) {
            fx_fill(e, W, H, 0, 0, W, H, BLACK);
            fx_fill(e, W, H, 0, 0, 8, H, red);
            fx_fill(e, W, H, 8, 8, W, H, green);
        }
        fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, u ? "preserve" : "discard", e, W, H, 0);
        free(e);
        xgd_texture_destroy(rt);
    }
    xgd_depth_stencil_state_destroy(check);
    xgd_depth_stencil_state_destroy(mark);
    xgd_blend_state_destroy(nocolor);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Level n+1 texel = box average of the 2x2 texels of level n, in float, stored as 8 bits. */
static uint8_t *box_down(const uint8_t *src, int w, int h)
{
    int nw = w > 1 ? w / 2 : 1, nh = h > 1 ? h / 2 : 1;
    uint8_t *dst = fx_image(nw, nh, BLACK);
    if (!dst) return NULL;
    for (int y = 0; y < nh; y++)
        for (int x = 0; x < nw; x++) {
            double acc[4] = { 0, 0, 0, 0 };
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 2; i++) {
                    xgd_color c = fx_get(src, w, x * 2 + i < w ? x * 2 + i : w - 1, y * 2 + j < h ? y * 2 + j : h - 1);
                    acc[0] += c.r; acc[1] += c.g; acc[2] += c.b; acc[3] += c.a;
                }
            fx_put(dst, nw, x, y, fx_rgba(fx_q8(acc[0] / 1020.0), fx_q8(acc[1] / 1020.0), fx_q8(acc[2] / 1020.0), fx_q8(acc[3] / 1020.0)));
        }
    return dst;
}

/* Checks levels 1.. of a (face of a) mipmapped target against box averages of level 0. */
static void expect_mips(xgdt_ctx *t, xgd_texture *rt, xgd_cube_map_face face, const uint8_t *level0, int w, int h, int levels, const char *prefix)
{
    uint8_t *prev = malloc((size_t)w * h * 4);
    if (!prev) return;
    memcpy(prev, level0, (size_t)w * h * 4);
    int cw = w, ch = h;
    for (int l = 1; l < levels; l++) {
        uint8_t *next = box_down(prev, cw, ch);
        free(prev);
        if (!next) return;
        cw = cw > 1 ? cw / 2 : 1;
        ch = ch > 1 ? ch / 2 : 1;
        char label[64];
        snprintf(label, sizeof label, "%s_level%d", prefix, l);
        fx_expect_texture(t, rt, face, l, label, next, cw, ch, 1);
        prev = next;
    }
    free(prev);
}

/* A mipmapped target with a split not on a 2-texel boundary regenerates its chain on unbind. */
XGD_FIXTURE(RenderTarget_MipGeneration)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
    REQUIRE(fx && rt);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.level_count, 5);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int pass = 0; pass < 2; pass++) {
        CHECK_OK(xgd_set_render_target(dev, rt));
        const xgd_color left = pass ? fx_rgba(0, 0, 255, 255) : fx_rgba(255, 0, 0, 255);
        const xgd_color right = pass ? fx_rgba(255, 255, 0, 255) : fx_rgba(0, 255, 0, 255);
        CHECK_OK(fx_rect(dev, W, H, 0, 0, 5, H, 0, left));
        CHECK_OK(fx_rect(dev, W, H, 5, 0, W, H, 0, right));
        CHECK_OK(fx_rect(dev, W, H, 0, 0, 3, 1, 0, MARK));
        fx_fill(e, W, H, 0, 0, 5, H, left);
        fx_fill(e, W, H, 5, 0, W, H, right);
        fx_fill(e, W, H, 0, 0, 3, 1, MARK);
        CHECK_OK(xgd_set_render_target(dev, NULL));
        /* the second pass proves the chain follows new content, not only the first */
        fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, pass ? "p2_level0" : "p1_level0", e, W, H, 0);
        expect_mips(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, e, W, H, info.level_count, pass ? "p2" : "p1");
    }
    free(e);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Odd sizes: level n+1 is floor(w/2) x floor(h/2) and texel (x, y) averages texels (2x + i,
 * 2y + j) of level n, so an odd last column or row of level n is left out (the box rule of
 * sw_texture.c and blit.hlsl; a scaled linear blit over the whole level would weigh it in).
 * 13x7 -> 6x3 -> 3x1 -> 1x1, with a bright last column and row and columns that change every
 * texel, so any renderer that filters differently shows it at some level. */
XGD_FIXTURE(RenderTarget_MipGenerationOddSize)
{
    enum { W = 13, H = 7 };
    xgd_device *dev = fx_device(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
    REQUIRE(fx && rt);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.level_count, 4);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    CHECK_OK(xgd_set_render_target(dev, rt));
    for (int x = 0; x < W - 1; x++) {
        const xgd_color c = fx_rgba(17 * x, 255 - 19 * x, (x % 3) * 100, 255);
        CHECK_OK(fx_rect(dev, W, H, (float)x, 0, (float)x + 1, (float)(H - 1), 0, c));
        fx_fill(e, W, H, x, 0, x + 1, H - 1, c);
    }
    const xgd_color last_col = fx_rgba(255, 255, 255, 255), last_row = fx_rgba(250, 0, 250, 255);
    const xgd_color spot = fx_rgba(0, 0, 0, 255);
    CHECK_OK(fx_rect(dev, W, H, (float)(W - 1), 0, (float)W, (float)H, 0, last_col));
    fx_fill(e, W, H, W - 1, 0, W, H, last_col);
    CHECK_OK(fx_rect(dev, W, H, 0, (float)(H - 1), (float)(W - 1), (float)H, 0, last_row));
    fx_fill(e, W, H, 0, H - 1, W - 1, H, last_row);
    CHECK_OK(fx_rect(dev, W, H, 3, 1, 6, 4, 0, spot));
    fx_fill(e, W, H, 3, 1, 6, 4, spot);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "odd_level0", e, W, H, 0);
    expect_mips(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, e, W, H, info.level_count, "odd");
    free(e);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

static xgd_texture *cube_target(xgdt_ctx *t, xgd_device *dev, int size, xgd_render_target_usage usage, bool mipmap)
{
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = size;
    d.height = size;
    d.mipmap = mipmap;
    d.usage = usage;
    xgd_texture *rt = NULL;
    xgd_result r = xgd_render_target_cube_create(dev, &d, &rt);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_render_target_cube_create returned %s (%s)", xgd_result_name(r), xgdt_last_message());
    return rt;
}

XGD_FIXTURE(RenderTargetCube_Usage)
{
    enum { S = 16 };
    /* D3D10 centres: tests usage, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    for (int u = 0; u < 2; u++) {
        xgd_texture *cube = cube_target(t, dev, S, u ? XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS : XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
        REQUIRE(cube);
        uint8_t *e[6];
        for (int f = 0; f < 6; f++) {
            e[f] = fx_image(S, S, BLACK);
            REQUIRE(e[f]);
            CHECK_OK(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)f));
            draw_asym(t, dev, e[f], S, S, f + 1);
        }
        CHECK_OK(xgd_set_render_target(dev, NULL));
        for (int f = 0; f < 6; f++) {
            char label[48];
            snprintf(label, sizeof label, "%s_face%d_drawn", u ? "preserve" : "discard", f);
            fx_expect_texture(t, cube, (xgd_cube_map_face)f, 0, label, e[f], S, S, 0);
        }
        for (int f = 0; f < 6; f++) {
            CHECK_OK(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)f));
            if (!u) fx_fill(e[f], S, S, 0, 0, S, S, BLACK);
            draw_marker(t, dev, e[f], S, S);
        }
        CHECK_OK(xgd_set_render_target(dev, NULL));
        for (int f = 0; f < 6; f++) {
            char label[48];
            snprintf(label, sizeof label, "%s_face%d_rebound", u ? "preserve" : "discard", f);
            fx_expect_texture(t, cube, (xgd_cube_map_face)f, 0, label, e[f], S, S, 0);
            free(e[f]);
        }
        xgd_texture_destroy(cube);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Every face of a mipmapped cube target, drawn through face-to-face transitions, is finalised
 * (its chain regenerated) when it is left, including the last one at the return to the back
 * buffer. */
XGD_FIXTURE(RenderTargetCube_SampleAfterUnbind)
{
    enum { S = 16 };
    /* D3D10 centres: tests sampling, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *cube = cube_target(t, dev, S, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
    REQUIRE(fx && cube);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(cube, &info));
    CHECK_INT(info.kind, XGD_RENDER_TARGET_CUBE);
    CHECK_INT(info.level_count, 5);
    uint8_t *e[6];
    for (int f = 0; f < 6; f++) {
        e[f] = fx_image(S, S, BLACK);
        REQUIRE(e[f]);
        CHECK_OK(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)f));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        draw_asym(t, dev, e[f], S, S, 6 - f);
    }
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int f = 0; f < 6; f++) {
        char label[32];
        snprintf(label, sizeof label, "face%d", f);
        fx_expect_texture(t, cube, (xgd_cube_map_face)f, 0, label, e[f], S, S, 0);
        expect_mips(t, cube, (xgd_cube_map_face)f, e[f], S, S, info.level_count, label);
        free(e[f]);
    }
    xgd_texture_destroy(cube);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* get_data on cube faces: whole faces, sub-rectangles, and the argument rules. */
XGD_FIXTURE(RenderTargetCube_GetDataContract)
{
    enum { S = 8 };
    /* D3D10 centres: tests GetData, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 32, 32, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *cube = cube_target(t, dev, S, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(fx && cube);
    uint8_t *e[6];
    for (int f = 0; f < 6; f++) {
        e[f] = fx_image(S, S, BLACK);
        REQUIRE(e[f]);
        CHECK_OK(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)f));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        draw_asym(t, dev, e[f], S, S, f + 2);
    }
    /* the bound face cannot be read (a bound render target, as set_data) */
    uint8_t buf[S * S * 4];
    CHECK_RESULT(xgd_texture_get_data(cube, 0, XGD_CUBE_MAP_FACE_NEGATIVE_Z, NULL, buf, sizeof buf), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int f = 0; f < 6; f++) {
        char label[32];
        snprintf(label, sizeof label, "face%d", f);
        fx_expect_texture(t, cube, (xgd_cube_map_face)f, 0, label, e[f], S, S, 0);
        /* a sub-rectangle comes back tightly packed */
        xgd_rect r = { 1, 2, 5, 3 };
        uint8_t sub[5 * 3 * 4], want[5 * 3 * 4];
        CHECK_OK(xgd_texture_get_data(cube, 0, (xgd_cube_map_face)f, &r, sub, sizeof sub));
        for (int y = 0; y < 3; y++)
            for (int x = 0; x < 5; x++) fx_put(want, 5, x, y, fx_get(e[f], S, x + 1, y + 2));
        snprintf(label, sizeof label, "face%d_rect", f);
        xgdt_compare_rgba(t, label, sub, want, 5, 3, 0);
        free(e[f]);
    }
    CHECK_RESULT(xgd_texture_get_data(cube, 0, (xgd_cube_map_face)6, NULL, buf, sizeof buf), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_get_data(cube, 1, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, buf, sizeof buf), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_get_data(cube, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, buf, sizeof buf - 4), XGD_ERROR_INVALID_ARGUMENT);
    xgd_rect outside = { 4, 4, 5, 5 };
    CHECK_RESULT(xgd_texture_get_data(cube, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, &outside, buf, 5 * 5 * 4), XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture_destroy(cube);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
