/*
 * fixture_bound_state.c - the getters of what is bound (XNA's GraphicsDevice properties), on
 * every renderer:
 *
 *   BoundState_GettersReturnWhatIsBound  a new device reports XNA's default preset objects and
 *                                        empty texture/buffer slots; every setter's object comes
 *                                        back; NULL binds the preset again; a destroyed object
 *                                        is never returned; refused calls leave *out NULL; a
 *                                        lost device answers
 *   BoundState_SaveAndRestoreDraws       the save / change / restore pattern: a draw after the
 *                                        restore blends as with the saved state
 *   BoundState_FailedSpriteDrawKeepsStates
 *                                        a SpriteBatch draw (Immediate) or End that the renderer
 *                                        fails leaves the states and texture it set as they were
 */
#include "fixture_util.h"
#include "internal.h" /* the debug fault hook (src/core/fault.c) */

#define SLOTS 16

XGD_FIXTURE(BoundState_GettersReturnWhatIsBound)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_blend_state *bs = NULL;
    xgd_depth_stencil_state *ds = NULL;
    xgd_rasterizer_state *rs = NULL;
    xgd_sampler_state *ss = NULL;
    xgd_texture *tex = NULL;
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_color bf = { 1, 2, 3, 4 };
    int offset = -1;

    /* A new device: XNA's defaults are the preset objects. */
    CHECK_OK(xgd_get_blend_state(dev, &bs));
    CHECK(bs != NULL && bs == xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE));
    CHECK_OK(xgd_get_depth_stencil_state(dev, &ds));
    CHECK(ds != NULL && ds == xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT));
    CHECK_OK(xgd_get_rasterizer_state(dev, &rs));
    CHECK(rs != NULL &&
          rs == xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE));
    xgd_sampler_state *lw = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP);
    for (int i = 0; i < SLOTS; i++) {
        ss = NULL;
        tex = (xgd_texture *)dev;
        CHECK_OK(xgd_get_sampler_state(dev, i, &ss));
        CHECK_MSG(ss != NULL && ss == lw, "sampler slot %d is not LinearWrap", i);
        CHECK_OK(xgd_get_texture(dev, i, &tex));
        CHECK_MSG(tex == NULL, "texture slot %d is not empty", i);
    }
    CHECK_OK(xgd_get_blend_factor(dev, &bf));
    CHECK(bf.r == 255 && bf.g == 255 && bf.b == 255 && bf.a == 255);
    vb = (xgd_vertex_buffer *)dev;
    ib = (xgd_index_buffer *)dev;
    CHECK_OK(xgd_get_vertex_buffer(dev, &vb, &offset));
    CHECK(vb == NULL && offset == 0);
    CHECK_OK(xgd_get_indices(dev, &ib));
    CHECK(ib == NULL);

    /* What is bound comes back. */
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.blend_factor = (xgd_color){ 10, 20, 30, 40 };
    bd.target[0].color_source_blend = XGD_BLEND_BLEND_FACTOR;
    xgd_blend_state *my_bs = fx_blend(t, dev, &bd);
    xgd_depth_stencil_desc dsd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    dsd.depth_function = XGD_COMPARE_GREATER;
    xgd_depth_stencil_state *my_ds = fx_depth(t, dev, &dsd);
    xgd_rasterizer_desc rsd = XGD_RASTERIZER_DESC_DEFAULT;
    rsd.cull_mode = XGD_CULL_NONE;
    xgd_rasterizer_state *my_rs = fx_raster(t, dev, &rsd);
    xgd_sampler_desc ssd = XGD_SAMPLER_DESC_DEFAULT;
    ssd.filter = XGD_FILTER_POINT;
    xgd_sampler_state *my_ss = fx_sampler(t, dev, &ssd);
    tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    xgd_vertex_buffer *my_vb = NULL;
    xgd_index_buffer *my_ib = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(
        dev, &(xgd_vertex_buffer_desc){
                 .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
                 .vertex_count = 4 },
        &my_vb));
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6 },
                                       &my_ib));
    REQUIRE(my_bs && my_ds && my_rs && my_ss && tex);
    REQUIRE_OK(xgd_set_blend_state(dev, my_bs));
    REQUIRE_OK(xgd_set_depth_stencil_state(dev, my_ds));
    REQUIRE_OK(xgd_set_rasterizer_state(dev, my_rs));
    REQUIRE_OK(xgd_set_sampler_state(dev, 5, my_ss));
    REQUIRE_OK(xgd_set_texture(dev, 15, tex));
    REQUIRE_OK(xgd_set_vertex_buffer(dev, my_vb, 2));
    REQUIRE_OK(xgd_set_indices(dev, my_ib));
    CHECK_OK(xgd_get_blend_state(dev, &bs));
    CHECK(bs == my_bs);
    CHECK_OK(xgd_get_depth_stencil_state(dev, &ds));
    CHECK(ds == my_ds);
    CHECK_OK(xgd_get_rasterizer_state(dev, &rs));
    CHECK(rs == my_rs);
    CHECK_OK(xgd_get_sampler_state(dev, 5, &ss));
    CHECK(ss == my_ss);
    CHECK_OK(xgd_get_sampler_state(dev, 4, &ss));
    CHECK(ss == lw);
    xgd_texture *got = NULL;
    CHECK_OK(xgd_get_texture(dev, 15, &got));
    CHECK(got == tex);
    CHECK_OK(xgd_get_texture(dev, 0, &got));
    CHECK(got == NULL);
    CHECK_OK(xgd_get_blend_factor(dev, &bf));
    CHECK(bf.r == 10 && bf.g == 20 && bf.b == 30 && bf.a == 40);
    CHECK_OK(xgd_get_vertex_buffer(dev, &vb, &offset));
    CHECK(vb == my_vb && offset == 2);
    CHECK_OK(xgd_get_indices(dev, &ib));
    CHECK(ib == my_ib);

    /* Refused calls: *out NULL, a message, nothing changed. */
    ss = lw;
    CHECK_RESULT(xgd_get_sampler_state(dev, SLOTS, &ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(ss == NULL);
    got = tex;
    CHECK_RESULT(xgd_get_texture(dev, -1, &got), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(got == NULL);
    CHECK_RESULT(xgd_get_blend_state(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_get_blend_factor(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_get_vertex_buffer(dev, &vb, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(vb == NULL);
    CHECK_RESULT(xgd_get_indices(NULL, &ib), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(ib == NULL);
    CHECK_OK(xgd_get_blend_state(dev, &bs));
    CHECK(bs == my_bs);

    /* A lost device answers: bindings are public state. */
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_get_rasterizer_state(dev, &rs));
    CHECK(rs == my_rs);
    CHECK_OK(xgd_get_texture(dev, 15, &got));
    CHECK(got == tex);
    REQUIRE_OK(xgd_device_restore_context(dev));

    /* NULL binds the default again; destroying a bound object unbinds it. */
    REQUIRE_OK(xgd_set_blend_state(dev, NULL));
    CHECK_OK(xgd_get_blend_state(dev, &bs));
    CHECK(bs == xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE));
    CHECK_OK(xgd_get_blend_factor(dev, &bf));
    CHECK(bf.r == 255 && bf.g == 255 && bf.b == 255 && bf.a == 255);
    xgd_depth_stencil_state_destroy(my_ds);
    CHECK_OK(xgd_get_depth_stencil_state(dev, &ds));
    CHECK(ds == xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT));
    xgd_rasterizer_state_destroy(my_rs);
    CHECK_OK(xgd_get_rasterizer_state(dev, &rs));
    CHECK(rs == xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE));
    xgd_sampler_state_destroy(my_ss);
    CHECK_OK(xgd_get_sampler_state(dev, 5, &ss));
    CHECK(ss == lw);
    xgd_texture_destroy(tex);
    CHECK_OK(xgd_get_texture(dev, 15, &got));
    CHECK(got == NULL);
    xgd_vertex_buffer_destroy(my_vb);
    CHECK_OK(xgd_get_vertex_buffer(dev, &vb, &offset));
    CHECK(vb == NULL && offset == 0);
    xgd_index_buffer_destroy(my_ib);
    CHECK_OK(xgd_get_indices(dev, &ib));
    CHECK(ib == NULL);
    xgd_blend_state_destroy(my_bs);
    xgd_device_destroy(dev);
    /* A destroyed device is disposed, not read. */
    CHECK_RESULT(xgd_get_blend_state(NULL, &bs), XGD_ERROR_INVALID_ARGUMENT);
}

XGD_FIXTURE(BoundState_SaveAndRestoreDraws)
{
    enum { W = 8, H = 8 };
    const xgd_color GREY = { 100, 100, 100, 255 }, C = { 60, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, GREY));
    /* Additive for the left half, then the saved (Opaque) state for the right half. */
    xgd_blend_state *saved = NULL;
    REQUIRE_OK(xgd_get_blend_state(dev, &saved));
    REQUIRE_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE)));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 4, 8, 0, C));
    REQUIRE_OK(xgd_set_blend_state(dev, saved));
    CHECK_OK(fx_rect(dev, W, H, 4, 0, 8, 8, 0, C));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, C);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 4, 8, (xgd_color){ 160, 100, 100, 255 });
    fx_expect_texture(t, rt, 0, 0, "additive_then_restored", e, W, H, 1);
    free(e);
    xgd_texture_destroy(rt);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(BoundState_FailedSpriteDrawKeepsStates)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    xgd_texture *mine = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_BLACK);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE(tex && mine);
    xgd_blend_state *add = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
    xgd_sampler_state *pw = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP);
    const xgd_sprite_sort_mode modes[2] = { XGD_SPRITE_SORT_IMMEDIATE, XGD_SPRITE_SORT_DEFERRED };
    for (int m = 0; m < 2; m++) {
        REQUIRE_OK(xgd_set_blend_state(dev, add));
        REQUIRE_OK(xgd_set_sampler_state(dev, 0, pw));
        REQUIRE_OK(xgd_set_texture(dev, 0, mine));
        /* Immediate sets its states at Begin (XNA); the states a failed draw must keep are
         * those bound when the draw started. */
        REQUIRE_OK(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){
                                                  .sort_mode = modes[m] }));
        xgd_blend_state *bs0 = NULL;
        xgd_sampler_state *ss0 = NULL;
        xgd_texture *t0 = NULL;
        REQUIRE_OK(xgd_get_blend_state(dev, &bs0));
        REQUIRE_OK(xgd_get_sampler_state(dev, 0, &ss0));
        REQUIRE_OK(xgd_get_texture(dev, 0, &t0));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 1, XGD_ERROR_OUT_OF_MEMORY));
        xgd_sprite whole = XGD_SPRITE_INIT;
        xgd_result r = xgd_sprite_batch_draw(sb, tex, &whole);
        if (m == 1) {
            CHECK_OK(r);
            r = xgd_sprite_batch_end(sb);
        }
        CHECK_MSG(r == XGD_ERROR_OUT_OF_MEMORY, "mode %d: %s", m, xgd_result_name(r));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 0, XGD_OK));
        xgd_blend_state *bs1 = NULL;
        xgd_sampler_state *ss1 = NULL;
        xgd_texture *t1 = NULL;
        CHECK_OK(xgd_get_blend_state(dev, &bs1));
        CHECK_OK(xgd_get_sampler_state(dev, 0, &ss1));
        CHECK_OK(xgd_get_texture(dev, 0, &t1));
        CHECK_MSG(bs1 == bs0 && ss1 == ss0 && t1 == t0,
                  "mode %d: the failed draw left its states (blend %s, sampler %s, texture %s)",
                  m, bs1 == bs0 ? "kept" : "changed", ss1 == ss0 ? "kept" : "changed",
                  t1 == t0 ? "kept" : "changed");
        if (m == 0) CHECK_OK(xgd_sprite_batch_end(sb));
    }
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(mine);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
