/*
 * fixture_clear.c - clears happen in order with draws, clear the whole target set, honour
 * each option bit, and refuse planes the bound attachment lacks (XNA 4.0, spec 002 "clear
 * masking").
 */
#include "fixture_util.h"

static const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                       BLUE = { 0, 0, 255, 255 }, YELLOW = { 255, 255, 0, 255 };

XGD_FIXTURE(GraphicsDevice_OrderedClear)
{
    enum { W = 32, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *rt = fx_target(t, dev, 16, 16, XGD_DEPTH_FORMAT_DEPTH24, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(fx && rt);

    CHECK_OK(xgd_clear_color(dev, RED));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, 16, 0.125f, GREEN));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(BLUE), 1.0f, 0));
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 24, 24, 0.125f, YELLOW)); /* equal to GREEN's depth: passes */
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, fx_vec4(RED), 0.25f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 24, 32, 32, 0.5f, RED));   /* behind the 0.25 clear */
    CHECK_OK(fx_rect(dev, W, H, 24, 0, 32, 8, 0.1875f, GREEN)); /* nearer than 0.25 */

    /* interleave a render target: its clears and draws do not leak into the back buffer */
    const xgd_color grey = { 128, 128, 128, 255 };
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_WHITE));
    CHECK_OK(fx_rect(dev, 16, 16, 0, 0, 8, 8, 0.5f, RED));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(grey), 1.0f, 0));
    CHECK_OK(fx_rect(dev, 16, 16, 4, 4, 12, 6, 0.5f, BLUE));
    CHECK_OK(xgd_set_render_target(dev, NULL));

    uint8_t *e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_fill(e, W, H, 8, 8, 24, 24, YELLOW);
    fx_fill(e, W, H, 24, 0, 32, 8, GREEN);
    fx_expect_back_buffer(t, dev, "back_buffer", e, W, H, 0);
    free(e);
    e = fx_image(16, 16, grey);
    REQUIRE(e);
    fx_fill(e, 16, 16, 4, 4, 12, 6, BLUE);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target", e, 16, 16, 0);
    free(e);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Probes depth (a LessEqual draw at 0.5: passes when the stored depth is 1, not 0.125) and
 * stencil (Equal draws with the expected and another reference). */
static void probe(xgdt_ctx *t, xgd_device *dev, int w, int h, int stencil)
{
    xgd_depth_stencil_desc d = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    d.depth_buffer_write_enable = false;
    xgd_depth_stencil_state *s = fx_depth(t, dev, &d);
    if (!s) return;
    xgd_set_depth_stencil_state(dev, s);
    CHECK_OK(fx_rect(dev, w, h, 0, 0, 8, (float)h, 0.5f, GREEN));
    xgd_set_depth_stencil_state(dev, NULL);
    xgd_depth_stencil_state_destroy(s);
    for (int k = 0; k < 2; k++) {
        d = (xgd_depth_stencil_desc)XGD_DEPTH_STENCIL_DESC_DEFAULT;
        d.depth_buffer_enable = false;
        d.stencil_enable = true;
        d.stencil_function = XGD_COMPARE_EQUAL;
        d.reference_stencil = k ? (stencil + 1) & 0xFF : stencil;
        s = fx_depth(t, dev, &d);
        if (!s) return;
        xgd_set_depth_stencil_state(dev, s);
        CHECK_OK(fx_rect(dev, w, h, (float)(8 + 8 * k), 0, (float)(16 + 8 * k), (float)h, 0.5f, k ? RED : BLUE));
        xgd_set_depth_stencil_state(dev, NULL);
        xgd_depth_stencil_state_destroy(s);
    }
}

XGD_FIXTURE(ClearOverloads)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const xgd_color X = { 10, 20, 30, 255 }, Y = { 200, 100, 50, 255 };
    const unsigned all = XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL;
    struct {
        const char *label;
        float first_depth;
        unsigned second;      /* 0: xgd_clear_color(Y) */
        float depth;
        int stencil;
        xgd_color bg;
        bool depth_is_one;
        int expect_stencil;
    } cases[] = {
        { "clear_color", 0.125f, 0, 0, 0, Y, true, 0 },
        { "target", 0.125f, XGD_CLEAR_TARGET, 1.0f, 0, Y, false, 9 },
        { "depth", 0.125f, XGD_CLEAR_DEPTH_BUFFER, 1.0f, 0, X, true, 9 },
        { "stencil", 0.125f, XGD_CLEAR_STENCIL, 1.0f, 4, X, false, 4 },
        { "target_stencil", 1.0f, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL, 0.125f, 200, Y, true, 200 },
        { "depth_stencil_masked", 1.0f, XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL, 0.125f, 0x1FF, X, false, 255 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        CHECK_OK(xgd_clear(dev, all, fx_vec4(X), cases[i].first_depth, 9));
        if (cases[i].second)
            CHECK_OK(xgd_clear(dev, cases[i].second, fx_vec4(Y), cases[i].depth, cases[i].stencil));
        else
            CHECK_OK(xgd_clear_color(dev, Y));
        probe(t, dev, W, H, cases[i].expect_stencil);
        uint8_t *e = fx_image(W, H, cases[i].bg);
        REQUIRE(e);
        if (cases[i].depth_is_one) fx_fill(e, W, H, 0, 0, 8, H, GREEN);
        fx_fill(e, W, H, 8, 0, 16, H, BLUE);
        fx_expect_back_buffer(t, dev, cases[i].label, e, W, H, 0);
        free(e);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Reads the bound colour (back buffer or rt) and checks it is still c everywhere. */
static void expect_solid(xgdt_ctx *t, xgd_device *dev, xgd_texture *rt, int w, int h, xgd_color c, const char *label)
{
    uint8_t *e = fx_image(w, h, c);
    if (!e) return;
    if (rt) {
        CHECK_OK(xgd_set_render_target(dev, NULL));
        fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, w, h, 0);
    } else {
        fx_expect_back_buffer(t, dev, label, e, w, h, 0);
    }
    free(e);
}

XGD_FIXTURE(ClearMasking)
{
    enum { W = 16, H = 16 };
    const xgd_vector4 green = fx_vec4(GREEN);
    /* back buffer without depth: depth or stencil requests fail and leave the colour alone */
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, RED));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, green, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL, green, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, green, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    expect_solid(t, dev, NULL, W, H, RED, "no_depth");
    xgd_device_destroy(dev);

    /* Depth24 has no stencil plane */
    dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, RED));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_STENCIL, green, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, green, 1.0f, 0));
    expect_solid(t, dev, NULL, W, H, RED, "depth24_no_stencil");

    /* the bound render target's attachment decides, not the back buffer's */
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, BLUE));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, green, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    expect_solid(t, dev, rt, W, H, BLUE, "target_without_depth");
    xgd_texture_destroy(rt);

    rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL, fx_vec4(YELLOW), 1.0f, 3));
    expect_solid(t, dev, rt, W, H, YELLOW, "target_with_stencil");
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* Clears with no command between them: every plane keeps the last value cleared into it,
   whichever clear set it. Direct3D 12 records such clears as one (the DiscardContents clear of
   SetRenderTargets and the application's next Clear fill the target once: d3d12_commands.c), so
   a merge that lost a plane, or took a plane's value from the wrong clear, shows here. */
XGD_FIXTURE(Clear_BackToBackKeepEachPlane)
{
    enum { W = 16, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    xgd_depth_stencil_desc eq7 = XGD_DEPTH_STENCIL_DESC_DEFAULT, eq0;
    eq7.depth_buffer_enable = false;
    eq7.stencil_enable = true;
    eq7.stencil_function = XGD_COMPARE_EQUAL;
    eq7.reference_stencil = 7;
    eq0 = eq7;
    eq0.reference_stencil = 0;
    xgd_depth_stencil_state *s7 = fx_depth(t, dev, &eq7), *s0 = fx_depth(t, dev, &eq0);
    REQUIRE(fx && rt && s7 && s0);

    /* DiscardContents (black, depth 1, stencil 0), then three clears: colour red then blue,
       depth 0.25, stencil 7 */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(RED), 1.0f, 0));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(BLUE), 0.25f, 0));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_STENCIL, fx_vec4(RED), 0.75f, 7));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, 8, 0.5f, RED));      /* behind depth 0.25 */
    CHECK_OK(fx_rect(dev, W, H, 8, 0, 16, 8, 0.125f, GREEN)); /* in front of it */
    CHECK_OK(xgd_set_depth_stencil_state(dev, s7));
    CHECK_OK(fx_rect(dev, W, H, 0, 8, 8, 16, 0.9f, YELLOW));  /* stencil 7: passes */
    CHECK_OK(xgd_set_depth_stencil_state(dev, s0));
    CHECK_OK(fx_rect(dev, W, H, 8, 8, 16, 16, 0.9f, RED));    /* stencil is not 0: fails */
    CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
    uint8_t *e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_fill(e, W, H, 8, 0, 16, 8, GREEN);
    fx_fill(e, W, H, 0, 8, 8, 16, YELLOW);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "three_clears", e, W, H, 0);

    /* DiscardContents, then a depth clear alone: the colour is the DiscardContents clear's
       (opaque black), the depth the application's */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, fx_vec4(RED), 0.25f, 0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 16, 8, 0.5f, RED));      /* behind depth 0.25 */
    CHECK_OK(fx_rect(dev, W, H, 0, 8, 16, 16, 0.125f, GREEN)); /* in front of it */
    fx_fill(e, W, H, 0, 0, 16, 8, (xgd_color){ 0, 0, 0, 255 });
    fx_fill(e, W, H, 0, 8, 16, 16, GREEN);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "depth_clear_alone", e, W, H, 0);

    free(e);
    xgd_depth_stencil_state_destroy(s7);
    xgd_depth_stencil_state_destroy(s0);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
