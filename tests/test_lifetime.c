/*
 * test_lifetime.c - resource registration, disposal and device destruction (spec 001 "Why
 * registration is not ownership"), events, and the context recovery contract
 * (DebugSimulateContextLoss / DebugRestoreContext). Run under ASan in CI: the shell handles must
 * neither leak nor be used after free.
 */
#include "harness.h"

#include <string.h>

typedef struct event_log {
    int count[5];
    xgd_device_event order[64];
    int n;
    xgd_device *device;
    bool wrong_device;
} event_log;

static void on_event(void *user, xgd_device *device, xgd_device_event event)
{
    event_log *l = user;
    if ((int)event >= 0 && (int)event < 5) l->count[event]++;
    if (l->n < 64) l->order[l->n++] = event;
    if (l->device && device != l->device) l->wrong_device = true;
}

static xgd_device *event_device(xgdt_ctx *t, event_log *log, bool recovery)
{
    memset(log, 0, sizeof *log);
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.on_event = on_event;
    d.event_user = log;
    d.context_recovery = recovery;
    xgd_device *dev = xgdt_device(t, &d);
    log->device = dev;
    return dev;
}

static uint64_t live_resources(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

XGD_TEST(lifetime_destroy_null_accepted)
{
    xgd_device_destroy(NULL);
    xgd_texture_destroy(NULL);
    xgd_vertex_declaration_destroy(NULL);
    xgd_vertex_buffer_destroy(NULL);
    xgd_index_buffer_destroy(NULL);
    xgd_blend_state_destroy(NULL);
    xgd_depth_stencil_state_destroy(NULL);
    xgd_rasterizer_state_destroy(NULL);
    xgd_sampler_state_destroy(NULL);
    xgd_effect_destroy(NULL);
    xgd_sprite_batch_destroy(NULL);
    xgd_free(NULL);
    /* reaching here is the check; the library is still usable afterwards */
    xgd_device *dev = xgdt_device(t, NULL);
    CHECK(dev != NULL);
    xgd_device_destroy(dev);
}

/* Destroying the device turns every handle into a disposed shell that answers OBJECT_DISPOSED;
 * destroying the shells afterwards is harmless. */
XGD_TEST(lifetime_device_destroy_leaves_shells)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_texture *tex = NULL, *rt = NULL, *cube = NULL;
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_vertex_declaration *decl = NULL;
    xgd_blend_state *bs = NULL;
    xgd_depth_stencil_state *dss = NULL;
    xgd_rasterizer_state *rs = NULL;
    xgd_sampler_state *ss = NULL;
    xgd_effect *basic = NULL, *sprite = NULL;
    xgd_sprite_batch *sb = NULL;
    const xgd_vertex_element el[] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION,
                                        0 } };
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4,
                                          .height = 4 }, &rt));
    REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4 }, &cube));
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 1, 0, &decl));
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = decl,
                                        .vertex_count = 4 }, &vb));
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 4 }, &ib));
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &bs));
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, NULL, &dss));
    REQUIRE_OK(xgd_rasterizer_state_create(dev, NULL, &rs));
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &ss));
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    REQUIRE_OK(xgd_sprite_effect_create(dev, &sprite));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    /* bound objects too: destruction must not follow the bindings into freed memory */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_set_texture(dev, 1, tex));
    CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
    CHECK_OK(xgd_set_indices(dev, ib));
    CHECK_OK(xgd_set_blend_state(dev, bs));
    CHECK_OK(xgd_set_sampler_state(dev, 2, ss));
    CHECK_OK(xgd_basic_effect_set_texture(basic, tex));

    xgd_device_destroy(dev);

    xgd_texture_info ti;
    CHECK_RESULT(xgd_texture_get_info(tex, &ti), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_texture_get_info(rt, &ti), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_texture_get_info(cube, &ti), XGD_ERROR_OBJECT_DISPOSED);
    uint8_t px[64] = { 0 };
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, px, 64), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_texture_get_data(tex, 0, 0, NULL, px, 64), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_texture_save_png(tex, "/nonexistent/x.png"), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 0, px, 12, XGD_SET_DATA_NONE),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_vertex_buffer_get_data(vb, 0, px, 12), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_index_buffer_set_data(ib, 0, px, 2, XGD_SET_DATA_NONE),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_index_buffer_get_data(ib, 0, px, 2), XGD_ERROR_OBJECT_DISPOSED);
    xgd_blend_state_desc bd;
    CHECK_RESULT(xgd_blend_state_get_desc(bs, &bd), XGD_ERROR_OBJECT_DISPOSED);
    xgd_depth_stencil_desc dd;
    CHECK_RESULT(xgd_depth_stencil_state_get_desc(dss, &dd), XGD_ERROR_OBJECT_DISPOSED);
    xgd_rasterizer_desc rd;
    CHECK_RESULT(xgd_rasterizer_state_get_desc(rs, &rd), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sampler_desc sd;
    CHECK_RESULT(xgd_sampler_state_get_desc(ss, &sd), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_effect_apply(basic), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_effect_apply(sprite), XGD_ERROR_OBJECT_DISPOSED);
    xgd_basic_effect_params bp;
    CHECK_RESULT(xgd_basic_effect_get(basic, &bp), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_basic_effect_set_texture(basic, NULL), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_begin(sb, NULL), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);

    /* destroying the shells, twice for those that are shells, is harmless */
    xgd_sprite_batch_destroy(sb);
    xgd_effect_destroy(basic);
    xgd_effect_destroy(sprite);
    xgd_sampler_state_destroy(ss);
    xgd_rasterizer_state_destroy(rs);
    xgd_depth_stencil_state_destroy(dss);
    xgd_blend_state_destroy(bs);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(vb);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(cube);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
}

/* A shell of a destroyed device is refused by a live device with OBJECT_DISPOSED, not treated
 * as a foreign or valid object. */
XGD_TEST(lifetime_shells_refused_by_other_devices)
{
    xgd_device *gone = xgdt_device(t, NULL);
    REQUIRE(gone);
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_texture *tex = NULL, *rt = NULL;
    xgd_blend_state *bs = NULL;
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_texture2d_create(gone, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    REQUIRE_OK(xgd_render_target2d_create(gone, &(xgd_render_target_desc){ .width = 4,
                                          .height = 4 }, &rt));
    REQUIRE_OK(xgd_blend_state_create(gone, NULL, &bs));
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_device_destroy(gone);

    uint64_t live = live_resources(dev);
    CHECK_RESULT(xgd_set_texture(dev, 0, tex), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_set_render_target(dev, rt), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_set_blend_state(dev, bs), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_basic_effect_set_texture(fx, tex), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_INT(live_resources(dev), live);
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, NULL, 0, &count));
    CHECK_INT(count, 0);
    xgd_texture_destroy(tex);
    xgd_texture_destroy(rt);
    xgd_blend_state_destroy(bs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* RESOURCE_CREATED / RESOURCE_DESTROYED are raised once per successful create and destroy;
 * failures raise nothing; live_resources follows. */
XGD_TEST(lifetime_resource_events)
{
    event_log log;
    xgd_device *dev = event_device(t, &log, true);
    REQUIRE(dev);
    int c0 = log.count[XGD_EVENT_RESOURCE_CREATED];
    int d0 = log.count[XGD_EVENT_RESOURCE_DESTROYED];
    uint64_t live0 = live_resources(dev);

    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_CREATED], c0 + 1);
    CHECK_INT(live_resources(dev), live0 + 1);
    xgd_vertex_buffer *vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){
                   .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
                   .vertex_count = 3 }, &vb));
    xgd_sampler_state *ss = NULL;
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &ss));
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_CREATED], c0 + 3);
    CHECK_INT(live_resources(dev), live0 + 3);

    /* failures raise nothing */
    xgd_texture *bad = NULL;
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = -1, .height = 4 },
                                      &bad), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_CREATED], c0 + 3);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_DESTROYED], d0);

    /* presets are not created or destroyed by lookups or destroy calls */
    xgd_blend_state *opaque = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
    xgd_blend_state_destroy(opaque);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_CREATED], c0 + 3);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_DESTROYED], d0);

    xgd_texture_destroy(tex);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_DESTROYED], d0 + 1);
    CHECK_INT(live_resources(dev), live0 + 2);
    xgd_vertex_buffer_destroy(vb);
    xgd_sampler_state_destroy(ss);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_DESTROYED], d0 + 3);
    CHECK_INT(live_resources(dev), live0);
    CHECK(!log.wrong_device);
    CHECK_INT(log.count[XGD_EVENT_DEVICE_LOST], 0);

    /* resources the device disposes at its own destruction, then destroyed by the owner, are
     * not reported destroyed twice */
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    xgd_device_destroy(dev);
    int d2 = log.count[XGD_EVENT_RESOURCE_DESTROYED];
    xgd_texture_destroy(tex);
    CHECK_INT(log.count[XGD_EVENT_RESOURCE_DESTROYED], d2);
}

/* ContextRecoveryContract: loss raises LOST and makes renderer calls return DEVICE_LOST;
 * restore raises RESETTING then RESET, textures come back from their CPU shadow, render
 * targets report content lost, no recovery failures. */
XGD_TEST(lifetime_context_recovery_contract)
{
    event_log log;
    xgd_device *dev = event_device(t, &log, true);
    REQUIRE(dev);
    xgd_texture *tex = NULL, *rt = NULL, *cube = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 2,
                                    .mipmap = true }, &tex));
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4,
                                          .height = 4, .usage =
                                          XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS }, &rt));
    REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 2 }, &cube));
    uint8_t l0[4 * 2 * 4], l1[2 * 1 * 4], f3[2 * 2 * 4];
    for (int i = 0; i < (int)sizeof l0; i++) l0[i] = (uint8_t)(i * 3 + 1);
    for (int i = 0; i < (int)sizeof l1; i++) l1[i] = (uint8_t)(250 - i);
    for (int i = 0; i < (int)sizeof f3; i++) f3[i] = (uint8_t)(i ^ 0x5C);
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, l0, sizeof l0));
    CHECK_OK(xgd_texture_set_data(tex, 1, 0, NULL, l1, sizeof l1));
    CHECK_OK(xgd_texture_set_data(cube, 0, XGD_CUBE_MAP_FACE_NEGATIVE_Y, NULL, f3, sizeof f3));
    xgd_vertex_buffer *vb = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){
                   .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
                   .vertex_count = 2 }, &vb));
    uint8_t vdata[32];
    for (int i = 0; i < 32; i++) vdata[i] = (uint8_t)(i + 100);
    CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, vdata, 32, XGD_SET_DATA_NONE));
    xgd_viewport custom = { 1, 2, 3, 4, 0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &custom));
    uint64_t live = live_resources(dev);
    int n0 = log.n;

    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_INT(log.count[XGD_EVENT_DEVICE_LOST], 1);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(info.lost);
    CHECK_RESULT(xgd_clear_color(dev, XGD_COLOR_BLACK), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_DEVICE_LOST);
    xgd_texture *none = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 },
                                      &none), XGD_ERROR_DEVICE_LOST);
    CHECK(none == NULL);
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, l0, sizeof l0), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_set_render_target(dev, rt), XGD_ERROR_DEVICE_LOST);
    CHECK_INT(live_resources(dev), live);
    /* a failed call while lost changes nothing public */
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.x, 1);
    CHECK_INT(vp.width, 3);

    CHECK_OK(xgd_device_restore_context(dev));
    /* the events after the loss, in order: LOST, RESETTING, RESET (resource events may not
     * appear in between: restore recreates, it does not register anew) */
    int lost_at = -1, resetting_at = -1, reset_at = -1;
    for (int i = n0; i < log.n; i++) {
        if (log.order[i] == XGD_EVENT_DEVICE_LOST && lost_at < 0) lost_at = i;
        if (log.order[i] == XGD_EVENT_DEVICE_RESETTING && resetting_at < 0) resetting_at = i;
        if (log.order[i] == XGD_EVENT_DEVICE_RESET && reset_at < 0) reset_at = i;
    }
    CHECK(lost_at >= 0 && resetting_at > lost_at && reset_at > resetting_at);
    CHECK_INT(log.count[XGD_EVENT_DEVICE_RESETTING], 1);
    CHECK_INT(log.count[XGD_EVENT_DEVICE_RESET], 1);
    CHECK_INT(live_resources(dev), live);

    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(!info.lost);
    CHECK_INT(info.last_recovery_failures, 0);

    uint8_t out[64];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof l0));
    CHECK_MSG(memcmp(out, l0, sizeof l0) == 0, "level 0 not restored from the CPU shadow");
    CHECK_OK(xgd_texture_get_data(tex, 1, 0, NULL, out, sizeof l1));
    CHECK_MSG(memcmp(out, l1, sizeof l1) == 0, "level 1 not restored from the CPU shadow");
    CHECK_OK(xgd_texture_get_data(cube, 0, XGD_CUBE_MAP_FACE_NEGATIVE_Y, NULL, out, sizeof f3));
    CHECK_MSG(memcmp(out, f3, sizeof f3) == 0, "cube face not restored from the CPU shadow");
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 0, out, 32));
    CHECK_MSG(memcmp(out, vdata, 32) == 0, "vertex buffer not restored");

    xgd_texture_info ti;
    CHECK_OK(xgd_texture_get_info(rt, &ti));
    CHECK(ti.content_lost);
    CHECK_OK(xgd_texture_get_info(tex, &ti));
    CHECK(!ti.content_lost);
    /* binding clears content_lost (spec 001 step 6) */
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_texture_get_info(rt, &ti));
    CHECK(!ti.content_lost);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_present(dev));

    xgd_vertex_buffer_destroy(vb);
    xgd_texture_destroy(cube);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* A target bound at the loss comes back unbound or bound, but never half-bound: Present works
 * after an explicit unbind, and the device can be destroyed while lost. */
XGD_TEST(lifetime_loss_with_bound_target_and_destroy_while_lost)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_texture *rt = NULL, *tex = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4,
                                          .height = 4 }, &rt));
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_device_restore_context(dev));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_present(dev));

    /* destroy while lost: everything becomes shells */
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    xgd_device_destroy(dev);
    xgd_texture_info ti;
    CHECK_RESULT(xgd_texture_get_info(tex, &ti), XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
}

/* With recovery disabled the textures have no shadow; recovery still recreates them and counts
 * no failure, and the contents are whatever the renderer gives (not checked). */
XGD_TEST(lifetime_recovery_without_shadows)
{
    event_log log;
    xgd_device *dev = event_device(t, &log, false);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    xgd_texture_info ti;
    CHECK_OK(xgd_texture_get_info(tex, &ti));
    CHECK(!ti.has_cpu_shadow);
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_device_restore_context(dev));
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(!info.lost);
    CHECK_INT(info.last_recovery_failures, 0);
    uint8_t full[64] = { 0 };
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, full, sizeof full));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
