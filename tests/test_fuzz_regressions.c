/*
 * test_fuzz_regressions.c - contract failures that fuzz/fuzz_api.c found, kept as fixtures so
 * they stay fixed on every renderer (their fuzzer inputs are in fuzz/regressions/api/).
 *
 *   Fuzz_DiscardClearFailureLeavesBinding  SetRenderTargets to a DiscardContents target whose
 *                                          clear fails changes nothing: the bindings, viewport,
 *                                          scissor and statistics stay, and the previous target
 *                                          is still the one drawn into
 *   Fuzz_SpriteBatchEndAllOrNothing        SpriteBatch.End that cannot draw one of its runs (a
 *                                          queued texture is the bound render target) draws
 *                                          none of them
 */
#include "fixture_util.h"
#include "internal.h" /* the debug fault hook (src/core/fault.c) */

XGD_FIXTURE(Fuzz_DiscardClearFailureLeavesBinding)
{
    enum { W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 }, RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *c = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(a && c);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_clear_color(dev, GREY));
    const xgd_viewport vp = { 1, 1, 6, 4, 0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &vp));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 2, 3, 3 }));
    xgd_statistics s0;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s0));

    /* The renderer binds c, then its discard clear fails: the call must fail as a whole. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, c), XGD_ERROR_OUT_OF_MEMORY);

    xgd_render_target_binding b[4];
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, b, 4, &count));
    CHECK_MSG(count == 1 && b[0].target == a, "after the failed bind: %d targets, first %s",
              count, count > 0 && b[0].target == c ? "the refused one" : "not the previous one");
    xgd_viewport got;
    CHECK_OK(xgd_get_viewport(dev, &got));
    CHECK_MSG(got.x == vp.x && got.y == vp.y && got.width == vp.width && got.height == vp.height,
              "the viewport was reset to (%d,%d %dx%d)", got.x, got.y, got.width, got.height);
    xgd_rect sc;
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_MSG(sc.x == 2 && sc.y == 2 && sc.width == 3 && sc.height == 3,
              "the scissor was reset to (%d,%d %dx%d)", sc.x, sc.y, sc.width, sc.height);
    xgd_statistics s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_MSG(s1.target_changes == s0.target_changes, "a refused bind counted a target change");

    /* The native binding is a with the custom viewport: this rectangle lands in a's
     * (1,1)-(7,5), and nothing reaches c. */
    CHECK_OK(fx_rect(dev, 6, 4, 0, 0, 6, 4, 0, RED));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, GREY);
    REQUIRE(e);
    fx_fill(e, W, H, 1, 1, 7, 5, RED);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "a_after_failed_discard_bind", e, W, H, 0);
    free(e);

    /* The fault was consumed: the same bind now succeeds and clears c to opaque black. */
    CHECK_OK(xgd_set_render_target(dev, c));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    e = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
    REQUIRE(e);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "c_discarded", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(c);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(Fuzz_SpriteBatchEndAllOrNothing)
{
    enum { W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 };
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *target = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                    XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(target);
    xgd_texture *white = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &white));
    const uint8_t texels[16] = { 255, 255, 255, 255, 255, 255, 255, 255,
                                 255, 255, 255, 255, 255, 255, 255, 255 };
    REQUIRE_OK(xgd_texture_set_data(white, 0, 0, NULL, texels, sizeof texels));
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));

    REQUIRE_OK(xgd_set_render_target(dev, target));
    CHECK_OK(xgd_clear_color(dev, GREY));
    xgd_statistics s0;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s0));

    /* Deferred: the white sprite's run comes first and could be drawn; the second run samples
     * the bound target itself, which a draw refuses. */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, white, &(xgd_sprite){ .position = { 0, 0 },
                                                             .color = XGD_COLOR_WHITE,
                                                             .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_draw(sb, target, &(xgd_sprite){ .position = { 4, 4 },
                                                              .color = XGD_COLOR_WHITE,
                                                              .scale = { 1, 1 } }));
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_INVALID_OPERATION);

    xgd_statistics s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_MSG(s1.draw_calls == s0.draw_calls && s1.primitives == s0.primitives &&
                  s1.sprite_batches == s0.sprite_batches,
              "a refused End drew: draw calls %llu -> %llu, primitives %llu -> %llu",
              (unsigned long long)s0.draw_calls, (unsigned long long)s1.draw_calls,
              (unsigned long long)s0.primitives, (unsigned long long)s1.primitives);
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, GREY);
    REQUIRE(e);
    fx_expect_texture(t, target, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "target_untouched", e, W, H, 0);
    free(e);

    /* The batch ended: with the target unbound the same queue draws. */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, white, &(xgd_sprite){ .position = { 0, 0 },
                                                             .color = XGD_COLOR_WHITE,
                                                             .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(sb));
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(white);
    xgd_texture_destroy(target);
    xgd_device_destroy(dev);
}
