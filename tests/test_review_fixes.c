/*
 * test_review_fixes.c - tests for review findings: weak references instead of registry walks,
 * viewport/scissor extents that would overflow int, NULL render-target bindings, Reset that
 * fails in the renderer, the software renderer's retirement without Present, decode caches
 * allocated at creation, cached index bounds, and indexed draws equal to their expansion.
 *
 * White-box where the finding is about internals (internal.h, the software renderer's
 * structs); expected values follow the rules (spec 001 "a failed call changes no state",
 * XNA's argument checks), not the code under test.
 */
#include "harness.h"
#include "internal.h"
#include "../renderers/software/sw_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static xgd_device *rf_device(xgdt_ctx *t, int w, int h)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    return xgdt_device(t, &dd);
}

static xgd_texture *rf_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, xgd_surface_format f)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = w, .height = h,
                                                                    .format = f },
                                        &tex);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "texture2d_create returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
    return tex;
}

/* ---- 1. weak references ------------------------------------------------------------------- */

XGD_TEST(weak_ref_follows_generation)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_texture *a = rf_texture(t, dev, 4, 4, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(a);
    xgdi_ref ra = xgdi_ref_make(XGDI_OBJECT(a));
    CHECK(xgdi_ref_get(dev, ra) == XGDI_OBJECT(a));
    CHECK(xgdi_ref_get(dev, (xgdi_ref){ 0, 0 }) == NULL);
    xgd_texture_destroy(a);
    CHECK(xgdi_ref_get(dev, ra) == NULL);
    /* A new object may take the same slot: the old reference must still not resolve. */
    xgd_texture *b = rf_texture(t, dev, 4, 4, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(b);
    xgdi_ref rb = xgdi_ref_make(XGDI_OBJECT(b));
    CHECK(xgdi_ref_get(dev, ra) == NULL);
    CHECK(xgdi_ref_get(dev, rb) == XGDI_OBJECT(b));
    CHECK(rb.index != ra.index || rb.gen != ra.gen);
    /* Many live objects keep distinct slots. */
    enum { N = 300 };
    xgd_blend_state *states[N];
    xgdi_ref refs[N];
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(xgd_blend_state_create(dev, NULL, &states[i]));
        refs[i] = xgdi_ref_make(XGDI_OBJECT(states[i]));
    }
    for (int i = 0; i < N; i += 2) xgd_blend_state_destroy(states[i]);
    for (int i = 0; i < N; i++) {
        xgdi_resource *res = xgdi_ref_get(dev, refs[i]);
        if (i % 2 == 0) CHECK(res == NULL);
        else CHECK(res == XGDI_OBJECT(states[i]));
    }
    for (int i = 1; i < N; i += 2) xgd_blend_state_destroy(states[i]);
    xgd_texture_destroy(b);
    xgd_device_destroy(dev);
}

XGD_TEST(weak_ref_effect_texture_destroyed)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(fx, &p));
    p.texture_enabled = true;
    REQUIRE_OK(xgd_basic_effect_set(fx, &p));
    xgd_texture *a = rf_texture(t, dev, 4, 4, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(a);
    REQUIRE_OK(xgd_basic_effect_set_texture(fx, a));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_texture_destroy(a);
    CHECK_RESULT(xgd_effect_apply(fx), XGD_ERROR_OBJECT_DISPOSED);
    /* a texture created afterwards (possibly at the same address) is not the effect's */
    xgd_texture *b = rf_texture(t, dev, 4, 4, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(b);
    CHECK_RESULT(xgd_effect_apply(fx), XGD_ERROR_OBJECT_DISPOSED);
    REQUIRE_OK(xgd_basic_effect_set_texture(fx, b));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_texture_destroy(b);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

static const xgd_sprite RF_SPRITE = { .position = { 1, 1 }, .color = { 255, 255, 255, 255 },
                                      .scale = { 1, 1 } };

XGD_TEST(weak_ref_sprite_batch_end)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_texture *a = rf_texture(t, dev, 2, 2, XGD_SURFACE_FORMAT_COLOR);
    xgd_texture *b = rf_texture(t, dev, 2, 2, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(a && b);

    /* a queued texture destroyed before End */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    CHECK_OK(xgd_sprite_batch_draw(sb, a, &RF_SPRITE));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &RF_SPRITE));
    CHECK_OK(xgd_sprite_batch_draw(sb, a, &RF_SPRITE));
    xgd_texture_destroy(a);
    xgd_texture *c = rf_texture(t, dev, 2, 2, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(c);
    CHECK_OK(xgd_sprite_batch_draw(sb, c, &RF_SPRITE));
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);

    /* the next batch starts clean */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){
                                              .sort_mode = XGD_SPRITE_SORT_TEXTURE }));
    for (int i = 0; i < 40; i++) CHECK_OK(xgd_sprite_batch_draw(sb, i % 2 ? b : c, &RF_SPRITE));
    CHECK_OK(xgd_sprite_batch_end(sb));

    /* a Begin state destroyed before End */
    xgd_blend_state *bs = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &bs));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){ .blend_state = bs }));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &RF_SPRITE));
    xgd_blend_state_destroy(bs);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);

    /* a custom effect destroyed between Begin(Immediate) and Draw is not followed */
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){
                                              .sort_mode = XGD_SPRITE_SORT_IMMEDIATE,
                                              .effect = fx }));
    CHECK_OK(xgd_sprite_batch_draw(sb, b, &RF_SPRITE));
    xgd_effect_destroy(fx);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, b, &RF_SPRITE), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_sprite_batch_end(sb));

    /* device destroy: the batch and textures are shells */
    xgd_device_destroy(dev);
    CHECK_RESULT(xgd_sprite_batch_begin(sb, NULL), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_draw(sb, b, &RF_SPRITE), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(b);
    xgd_texture_destroy(c);
}

/* ---- 2. viewport / scissor extents --------------------------------------------------------- */

XGD_TEST(viewport_scissor_extent_overflow)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_viewport before, now;
    REQUIRE_OK(xgd_get_viewport(dev, &before));
    xgd_viewport bad = { INT_MAX - 10, 0, 100, 16, 0.0f, 1.0f };
    CHECK_RESULT(xgd_set_viewport(dev, &bad), XGD_ERROR_INVALID_ARGUMENT);
    bad = (xgd_viewport){ 0, INT_MAX - 10, 16, 11, 0.0f, 1.0f };
    CHECK_RESULT(xgd_set_viewport(dev, &bad), XGD_ERROR_INVALID_ARGUMENT);
    REQUIRE_OK(xgd_get_viewport(dev, &now));
    CHECK(memcmp(&before, &now, sizeof now) == 0);

    xgd_rect sb, sn;
    REQUIRE_OK(xgd_get_scissor_rect(dev, &sb));
    CHECK_RESULT(xgd_set_scissor_rect(dev, (xgd_rect){ INT_MAX - 3, 0, 4, 4 }),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_scissor_rect(dev, (xgd_rect){ 0, 1, 4, INT_MAX }),
                 XGD_ERROR_INVALID_ARGUMENT);
    REQUIRE_OK(xgd_get_scissor_rect(dev, &sn));
    CHECK(memcmp(&sb, &sn, sizeof sn) == 0);

    /* exactly INT_MAX is representable, and drawing with it is defined (UBSan builds) */
    xgd_viewport edge = { INT_MAX - 100, INT_MAX - 100, 100, 100, 0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &edge));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ INT_MAX - 5, INT_MIN, 5, INT_MAX }));
    xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
    rd.scissor_test_enable = true;
    rd.cull_mode = XGD_CULL_NONE;
    xgd_rasterizer_state *rs = NULL;
    REQUIRE_OK(xgd_rasterizer_state_create(dev, &rd, &rs));
    CHECK_OK(xgd_set_rasterizer_state(dev, rs));
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_vertex_position_color v[3] = {
        { { -1, -1, 0 }, { 255, 0, 0, 255 } },
        { { 1, -1, 0 }, { 255, 0, 0, 255 } },
        { { 0, 1, 0 }, { 255, 0, 0, 255 } },
    };
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    xgd_effect_destroy(fx);
    xgd_rasterizer_state_destroy(rs);
    xgd_device_destroy(dev);
}

/* Presentation scaling maps the logical viewport to physical pixels: a large logical extent
 * times the scale must neither overflow nor stop the draw from working. */
XGD_TEST(viewport_scaled_extent_defined)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.back_buffer_width = 64;
    dd.pp.back_buffer_height = 64;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.presentation_mode = XGD_PRESENTATION_MODE_STRETCH;
    dd.pp.virtual_width = 16;
    dd.pp.virtual_height = 16;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_viewport big = { -(INT_MAX / 2), -(INT_MAX / 2), INT_MAX / 2 + 16, INT_MAX / 2 + 16,
                         0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &big));
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_vertex_position_color v[3] = {
        { { -1, -1, 0 }, { 255, 0, 0, 255 } },
        { { 1, -1, 0 }, { 255, 0, 0, 255 } },
        { { 0, 1, 0 }, { 255, 0, 0, 255 } },
    };
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- 3. NULL bindings with a count -------------------------------------------------------- */

XGD_TEST(set_render_targets_null_with_count)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_texture *rt = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8, .height = 8 },
                                          &rt));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_RESULT(xgd_set_render_targets(dev, NULL, 2), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_render_targets(dev, NULL, 1), XGD_ERROR_INVALID_ARGUMENT);
    xgd_render_target_binding out[4];
    int n = -1;
    REQUIRE_OK(xgd_get_render_targets(dev, out, 4, &n));
    CHECK_INT(n, 1);
    CHECK(n == 1 && out[0].target == rt);
    CHECK_OK(xgd_set_render_targets(dev, NULL, 0)); /* count 0: the back buffer */
    REQUIRE_OK(xgd_get_render_targets(dev, out, 4, &n));
    CHECK_INT(n, 0);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* ---- 4. Reset failing in the renderer ------------------------------------------------------- */

XGD_TEST(reset_renderer_failure_changes_nothing)
{
    xgd_device *dev = rf_device(t, 32, 32);
    REQUIRE(dev);
    xgd_texture *rt = NULL;
    REQUIRE_OK(xgd_render_target2d_create(
        dev, &(xgd_render_target_desc){ .width = 8, .height = 8,
                                        .usage = XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS },
        &rt));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    const xgd_color mark = { 10, 200, 30, 255 };
    REQUIRE_OK(xgd_clear_color(dev, mark));
    xgd_viewport vp = { 1, 2, 5, 4, 0.25f, 0.75f };
    REQUIRE_OK(xgd_set_viewport(dev, &vp));
    REQUIRE_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 1, 3, 3 }));
    xgd_device_info before;
    REQUIRE_OK(xgd_device_get_info(dev, &before));

    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_RESET_BACK_BUFFER, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    xgd_presentation_parameters pp = before.pp;
    pp.back_buffer_width = 48;
    CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_OUT_OF_MEMORY);

    xgd_device_info after;
    REQUIRE_OK(xgd_device_get_info(dev, &after));
    CHECK_INT(after.pp.back_buffer_width, 32);
    CHECK(after.render_target_bound);
    xgd_render_target_binding out[4];
    int n = 0;
    REQUIRE_OK(xgd_get_render_targets(dev, out, 4, &n));
    CHECK(n == 1 && out[0].target == rt);
    xgd_viewport vn;
    xgd_rect sn;
    REQUIRE_OK(xgd_get_viewport(dev, &vn));
    REQUIRE_OK(xgd_get_scissor_rect(dev, &sn));
    CHECK(memcmp(&vn, &vp, sizeof vp) == 0);
    CHECK(sn.x == 2 && sn.y == 1 && sn.width == 3 && sn.height == 3);
    /* natively bound again, and not through the transaction (which would have discarded the
       DiscardContents target): a draw filling the viewport reaches the target, the rest of it
       keeps the colour cleared before the Reset */
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    REQUIRE_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    const xgd_color fill = { 250, 5, 6, 255 };
    xgd_vertex_position_color q[6] = {
        { { -1, 1, 0 }, fill }, { { 1, 1, 0 }, fill }, { { 1, -1, 0 }, fill },
        { { -1, 1, 0 }, fill }, { { 1, -1, 0 }, fill }, { { -1, -1, 0 }, fill },
    };
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, q, 0, 2,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t px[8 * 8 * 4];
    REQUIRE_OK(xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px, sizeof px));
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 8; x++) {
            bool in = x >= 1 && x < 6 && y >= 2 && y < 6;
            xgd_color e = in ? fill : mark;
            const uint8_t *c = &px[(y * 8 + x) * 4];
            CHECK_MSG(c[0] == e.r && c[1] == e.g && c[2] == e.b,
                      "pixel (%d, %d) is (%d, %d, %d), expected (%d, %d, %d)", x, y, c[0], c[1],
                      c[2], e.r, e.g, e.b);
        }
    }
    xgd_effect_destroy(fx);

    /* without the fault the same Reset succeeds */
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_device_reset(dev, &pp));
    REQUIRE_OK(xgd_device_get_info(dev, &after));
    CHECK_INT(after.pp.back_buffer_width, 48);
    CHECK(!after.render_target_bound);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* ---- 5. software retirement without Present ----------------------------------------------- */

XGD_TEST(software_retire_without_present)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    REQUIRE(dev->renderer != NULL);
    size_t most = 0;
    for (int i = 0; i < 200; i++) {
        xgd_texture *tex = rf_texture(t, dev, 512, 512, XGD_SURFACE_FORMAT_COLOR);
        REQUIRE(tex);
        xgd_texture_destroy(tex);
        if (dev->renderer->retired.count > most) most = dev->renderer->retired.count;
    }
    /* work completes immediately in software: nothing accumulates until Present */
    CHECK_MSG(most <= 1, "retire queue reached %zu entries without a present", most);
    xgd_device_destroy(dev);
}

/* ---- 8. decode caches exist before any draw ------------------------------------------------- */

XGD_TEST(software_decode_cache_allocated_at_create)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    const xgd_surface_format formats[3] = { XGD_SURFACE_FORMAT_VECTOR4, XGD_SURFACE_FORMAT_DXT1,
                                            XGD_SURFACE_FORMAT_BGR565 };
    for (int f = 0; f < 3; f++) {
        xgd_texture *tex = NULL;
        REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 16, .height = 8,
                                                                    .mipmap = true,
                                                                    .format = formats[f] },
                                        &tex));
        xgdi_native_texture *n = ((xgd_texture *)XGDI_OBJECT(tex))->native;
        REQUIRE(n != NULL);
        for (int i = 0; i < n->faces * n->desc.levels; i++)
            CHECK_MSG(n->images[i].rgba8 != NULL || n->images[i].rgbaf != NULL,
                      "format %d level %d has no decoded copy before drawing", (int)formats[f], i);
        xgd_texture_destroy(tex);
    }
    xgd_device_destroy(dev);
}

/* ---- 9. cached index bounds ------------------------------------------------------------------ */

XGD_TEST(index_buffer_bounds_cached)
{
    xgd_device *dev = rf_device(t, 16, 16);
    REQUIRE(dev);
    xgd_index_buffer *ib = NULL;
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6,
                                                                       .dynamic = true },
                                       &ib));
    const xgd_index_buffer *ibo = XGDI_OBJECT(ib); /* white-box: the cached bounds */
    /* zero-filled at creation */
    CHECK_INT(ibo->index_min, 0);
    CHECK_INT(ibo->index_max, 0);
    const uint16_t part[2] = { 7, 3 };
    REQUIRE_OK(xgd_index_buffer_set_data(ib, 4, part, sizeof part, XGD_SET_DATA_NONE));
    CHECK_INT(ibo->index_min, 0); /* indices 0..1 still hold 0 */
    CHECK_INT(ibo->index_max, 7);
    const uint16_t more[1] = { 12 };
    REQUIRE_OK(xgd_index_buffer_set_data(ib, 0, more, sizeof more, XGD_SET_DATA_NONE));
    CHECK_INT(ibo->index_max, 12); /* conservative: never narrower than the contents */
    const uint16_t all[6] = { 2, 3, 4, 4, 5, 2 };
    REQUIRE_OK(xgd_index_buffer_set_data(ib, 0, all, sizeof all, XGD_SET_DATA_DISCARD));
    CHECK_INT(ibo->index_min, 2); /* a whole-buffer write makes them exact */
    CHECK_INT(ibo->index_max, 5);

    /* draws: the bounds only skip a check that would pass */
    xgd_vertex_buffer *vb = NULL;
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = decl,
                                                                        .vertex_count = 6 },
                                        &vb));
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    CHECK_OK(xgd_set_indices(dev, ib));
    CHECK_OK(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 6, 0, 2));
    /* max 5 + base 1 = 6 is outside the 6 vertices */
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 1, 0, 6, 0, 2),
                 XGD_ERROR_INVALID_ARGUMENT);
    /* the first triangle alone (2, 3, 4) + 1 fits: the drawn range is what counts */
    CHECK_OK(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 1, 0, 6, 0, 1));
    /* min 2 - 2 = 0 fits; - 3 does not */
    CHECK_OK(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, -2, 0, 6, 0, 2));
    CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, -3, 0, 6, 0, 2),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_effect_destroy(fx);
    xgd_vertex_buffer_destroy(vb);
    xgd_index_buffer_destroy(ib);
    xgd_device_destroy(dev);
}

/* ---- 10. indexed draws equal their expansion -------------------------------------------------- */

static bool rf_read(xgdt_ctx *t, xgd_device *dev, uint8_t **img)
{
    return xgdt_read_back_buffer(t, dev, 32, 32, img);
}

XGD_TEST(indexed_draw_equals_expansion)
{
    xgd_device *dev = rf_device(t, 32, 32);
    REQUIRE(dev);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    REQUIRE_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    /* 10 vertices; the indices use 3..8 (offset range), reuse vertices, and one triangle is
       far from the others in the vertex array (sparse range) */
    xgd_vertex_position_color v[10];
    for (int i = 0; i < 10; i++) {
        float a = (float)i * 0.7f;
        v[i].position = (xgd_vector3){ 0.9f * cosf(a), 0.9f * sinf(a * 1.3f), 0.2f };
        v[i].color = (xgd_color){ (uint8_t)(25 * i), (uint8_t)(250 - 20 * i), 90, 255 };
    }
    const uint16_t idx[12] = { 3, 5, 4, 5, 6, 7, 8, 3, 6, 4, 8, 7 };
    xgd_vertex_position_color expanded[12];
    for (int i = 0; i < 12; i++) expanded[i] = v[idx[i]];
    uint8_t *a = NULL, *b = NULL;
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, expanded, 0, 4, decl));
    REQUIRE(rf_read(t, dev, &a));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 10, idx, 0,
                                              4, XGD_INDEX_SIXTEEN_BITS, decl));
    REQUIRE(rf_read(t, dev, &b));
    xgdt_compare_rgba(t, "indexed", b, a, 32, 32, 0);
    free(b);
    b = NULL;

    /* sparse: one index far away from the rest (the renderer must not shade the gap) */
    enum { FAR = 5000 };
    xgd_vertex_position_color *big = calloc(FAR + 1, sizeof *big);
    REQUIRE(big);
    memcpy(big, v, sizeof v);
    big[FAR] = v[8];
    const uint16_t sparse[12] = { 3, 5, 4, 5, 6, 7, FAR, 3, 6, 4, FAR, 7 };
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, big, 0, FAR + 1,
                                              sparse, 0, 4, XGD_INDEX_SIXTEEN_BITS, decl));
    REQUIRE(rf_read(t, dev, &b));
    xgdt_compare_rgba(t, "sparse", b, a, 32, 32, 0);
    free(big);
    free(a);
    free(b);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
