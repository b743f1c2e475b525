/*
 * fixture_draw_checks.c - a draw re-checks exactly what changed since the last accepted draw.
 *
 * Draws check their textures, sampler states and vertex declaration only for what a setter
 * marked changed since the last accepted draw (src/core/draw.c). These sequences change one
 * thing after an accepted draw and expect XNA's error for it at the next draw, as a draw that
 * checked everything would raise it: a texture slot the draw did not use before, a render
 * target bound for output while it is still in a texture slot, a Texture3D put in slot 0 of a
 * 2D program, a program change that a declaration no longer satisfies, and a sampler change
 * on Reach. Each refused draw changes nothing and counts no draw call.
 */
#include "fixture_util.h"

#include <stdlib.h>
#include <string.h>

enum { W = 8, H = 8 };

static uint64_t draw_calls(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

/* One textured quad (BasicEffect with texture and vertex colours applied). */
static xgd_result quad(xgd_device *dev)
{
    return fx_tex_rect(dev, W, H, 0, 0, W, H, 0, 0, 1, 1, XGD_COLOR_WHITE);
}

XGD_FIXTURE(DrawChecks_ChangesAfterAnAcceptedDraw)
{
    const xgd_color GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(tex && rt);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    CHECK_OK(quad(dev));

    /* A render target left in slot 3 cannot be sampled while it is bound for output: the
       slot changed, then the targets changed, each after an accepted draw. */
    REQUIRE_OK(xgd_set_texture(dev, 3, rt));
    CHECK_OK(quad(dev));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    uint64_t before = draw_calls(dev);
    CHECK_RESULT(quad(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(quad(dev), XGD_ERROR_INVALID_OPERATION); /* still refused: nothing changed */
    CHECK(draw_calls(dev) == before);
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(quad(dev));
    /* and the other order: bound for output first, then put in a slot */
    REQUIRE_OK(xgd_set_texture(dev, 3, NULL));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(quad(dev));
    REQUIRE_OK(xgd_set_texture(dev, 5, rt));
    CHECK_RESULT(quad(dev), XGD_ERROR_INVALID_OPERATION);
    REQUIRE_OK(xgd_set_texture(dev, 5, NULL));
    CHECK_OK(quad(dev));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));

    /* A Texture3D in slot 0 after an accepted draw of a 2D program (the slot alone changed). */
    xgd_texture *vol = NULL;
    xgd_texture3d_desc vd;
    memset(&vd, 0, sizeof vd);
    vd.width = vd.height = vd.depth = 2;
    if (xgd_texture3d_create(dev, &vd, &vol) == XGD_OK) {
        CHECK_OK(quad(dev));
        REQUIRE_OK(xgd_set_texture(dev, 0, vol));
        before = draw_calls(dev);
        CHECK_RESULT(quad(dev), XGD_ERROR_INVALID_OPERATION);
        CHECK(draw_calls(dev) == before);
        REQUIRE_OK(xgd_set_texture(dev, 0, tex));
        CHECK_OK(quad(dev));
        xgd_texture_destroy(vol);
    }

    /* The same declaration after a program change that needs an input it lacks: a BasicEffect
       with vertex colours needs Color0, which PositionTexture does not have. */
    xgd_vertex_declaration *pt = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_TEXTURE);
    REQUIRE(pt);
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = false;
    REQUIRE_OK(xgd_basic_effect_set(fx, &p));
    REQUIRE_OK(xgd_effect_apply(fx));
    xgd_vertex_position_texture v[4] = { { { -1, 1, 0 }, { 0, 0 } }, { { 1, 1, 0 }, { 1, 0 } },
                                         { { -1, -1, 0 }, { 0, 1 } }, { { 1, -1, 0 }, { 1, 1 } } };
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, 2, pt));
    p.vertex_color_enabled = true;
    REQUIRE_OK(xgd_basic_effect_set(fx, &p));
    REQUIRE_OK(xgd_effect_apply(fx));
    before = draw_calls(dev);
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, 2, pt),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before);

    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Reach: a texture whose size is not a power of two needs Clamp in its slot's sampler; a
   sampler change alone after an accepted draw is checked again. */
XGD_FIXTURE(DrawChecks_ReachSamplerChangeAfterAnAcceptedDraw)
{
    const xgd_color GREEN = { 0, 255, 0, 255 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.profile = XGD_GRAPHICS_PROFILE_REACH;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_texture *npot = xgdt_solid_texture(t, dev, 3, 2, GREEN);
    REQUIRE(npot);
    xgd_effect *fx = fx_texture_effect(t, dev, npot);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    CHECK_OK(quad(dev));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP)));
    uint64_t before = draw_calls(dev);
    CHECK_RESULT(quad(dev), XGD_ERROR_NOT_SUPPORTED);
    CHECK(draw_calls(dev) == before);
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP)));
    CHECK_OK(quad(dev));
    xgd_effect_destroy(fx);
    xgd_texture_destroy(npot);
    xgd_device_destroy(dev);
}
