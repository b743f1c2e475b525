/*
 * test_state.c - neutral-layer tests of state objects: XNA's preset values, defaults filled by
 * create, refusal of unknown enums, device-owned presets, binding slots.
 */
#include "harness.h"

#include <string.h>

static uint64_t live_resources(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

static void check_target_blend(xgdt_ctx *t, int line, const char *what,
                               const xgd_target_blend_desc *d, xgd_blend cs, xgd_blend cd,
                               xgd_blend as, xgd_blend ad)
{
    if (d->color_blend_function != XGD_BLEND_FUNCTION_ADD ||
        d->alpha_blend_function != XGD_BLEND_FUNCTION_ADD)
        xgdt_fail_at(t, __FILE__, line, "%s: blend functions %d/%d, expected Add", what,
                     (int)d->color_blend_function, (int)d->alpha_blend_function);
    if (d->color_source_blend != cs || d->color_destination_blend != cd ||
        d->alpha_source_blend != as || d->alpha_destination_blend != ad)
        xgdt_fail_at(t, __FILE__, line, "%s: blends %d,%d,%d,%d, expected %d,%d,%d,%d", what,
                     (int)d->color_source_blend, (int)d->color_destination_blend,
                     (int)d->alpha_source_blend, (int)d->alpha_destination_blend, (int)cs,
                     (int)cd, (int)as, (int)ad);
    if (d->color_write_channels != XGD_COLOR_WRITE_ALL)
        xgdt_fail_at(t, __FILE__, line, "%s: write channels %u, expected All", what,
                     d->color_write_channels);
}

/* XNA 4.0 BlendState presets. */
XGD_TEST(state_blend_presets)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    static const struct { xgd_blend_preset p; const char *name; xgd_blend src, dst; } presets[] = {
        { XGD_BLEND_PRESET_OPAQUE, "Opaque", XGD_BLEND_ONE, XGD_BLEND_ZERO },
        { XGD_BLEND_PRESET_ALPHA_BLEND, "AlphaBlend", XGD_BLEND_ONE,
          XGD_BLEND_INVERSE_SOURCE_ALPHA },
        { XGD_BLEND_PRESET_ADDITIVE, "Additive", XGD_BLEND_SOURCE_ALPHA, XGD_BLEND_ONE },
        { XGD_BLEND_PRESET_NON_PREMULTIPLIED, "NonPremultiplied", XGD_BLEND_SOURCE_ALPHA,
          XGD_BLEND_INVERSE_SOURCE_ALPHA },
    };
    for (size_t i = 0; i < 4; i++) {
        xgd_blend_state *s = xgd_blend_state_preset(dev, presets[i].p);
        CHECK_MSG(s != NULL, "%s preset is NULL", presets[i].name);
        if (!s) continue;
        CHECK(xgd_blend_state_preset(dev, presets[i].p) == s); /* one object per device */
        xgd_blend_state_desc d;
        memset(&d, 0xCC, sizeof d);
        CHECK_OK(xgd_blend_state_get_desc(s, &d));
        check_target_blend(t, __LINE__, presets[i].name, &d.target[0], presets[i].src,
                           presets[i].dst, presets[i].src, presets[i].dst);
        CHECK(!d.independent_blend);
        /* BlendFactor White, MultiSampleMask -1 (all samples) */
        CHECK(d.blend_factor.r == 255 && d.blend_factor.g == 255 && d.blend_factor.b == 255 &&
              d.blend_factor.a == 255);
        CHECK_INT(d.multisample_mask, -1);
    }
    CHECK(xgd_blend_state_preset(dev, (xgd_blend_preset)4) == NULL);
    CHECK(xgd_blend_state_preset(NULL, XGD_BLEND_PRESET_OPAQUE) == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(state_depth_stencil_presets)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    static const struct { xgd_depth_stencil_preset p; bool enable, write; } presets[] = {
        { XGD_DEPTH_STENCIL_PRESET_DEFAULT, true, true },
        { XGD_DEPTH_STENCIL_PRESET_DEPTH_READ, true, false },
        { XGD_DEPTH_STENCIL_PRESET_NONE, false, false },
    };
    for (size_t i = 0; i < 3; i++) {
        xgd_depth_stencil_state *s = xgd_depth_stencil_state_preset(dev, presets[i].p);
        CHECK(s != NULL);
        if (!s) continue;
        xgd_depth_stencil_desc d;
        memset(&d, 0xCC, sizeof d);
        CHECK_OK(xgd_depth_stencil_state_get_desc(s, &d));
        CHECK_MSG(d.depth_buffer_enable == presets[i].enable, "preset %zu depth enable", i);
        CHECK_MSG(d.depth_buffer_write_enable == presets[i].write, "preset %zu depth write", i);
        CHECK_INT(d.depth_function, XGD_COMPARE_LESS_EQUAL);
        CHECK(!d.stencil_enable);
        CHECK_INT(d.stencil_function, XGD_COMPARE_ALWAYS);
        CHECK_INT(d.stencil_pass, XGD_STENCIL_OP_KEEP);
        CHECK_INT(d.stencil_fail, XGD_STENCIL_OP_KEEP);
        CHECK_INT(d.stencil_depth_fail, XGD_STENCIL_OP_KEEP);
        CHECK(!d.two_sided_stencil);
        CHECK_INT(d.ccw_stencil_function, XGD_COMPARE_ALWAYS);
        CHECK_INT(d.ccw_stencil_pass, XGD_STENCIL_OP_KEEP);
        CHECK_INT(d.reference_stencil, 0);
        CHECK_INT(d.stencil_mask & 0xFF, 0xFF);
        CHECK_INT(d.stencil_write_mask & 0xFF, 0xFF);
    }
    CHECK(xgd_depth_stencil_state_preset(dev, (xgd_depth_stencil_preset)3) == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(state_rasterizer_presets)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    static const struct { xgd_rasterizer_preset p; xgd_cull_mode cull; } presets[] = {
        { XGD_RASTERIZER_PRESET_CULL_NONE, XGD_CULL_NONE },
        { XGD_RASTERIZER_PRESET_CULL_CLOCKWISE, XGD_CULL_CLOCKWISE_FACE },
        { XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE, XGD_CULL_COUNTER_CLOCKWISE_FACE },
    };
    for (size_t i = 0; i < 3; i++) {
        xgd_rasterizer_state *s = xgd_rasterizer_state_preset(dev, presets[i].p);
        CHECK(s != NULL);
        if (!s) continue;
        xgd_rasterizer_desc d;
        memset(&d, 0xCC, sizeof d);
        CHECK_OK(xgd_rasterizer_state_get_desc(s, &d));
        CHECK_INT(d.cull_mode, presets[i].cull);
        CHECK_INT(d.fill_mode, XGD_FILL_SOLID);
        CHECK(!d.scissor_test_enable);
        CHECK(d.multisample_antialias);
        CHECK_NEAR(d.depth_bias, 0.0, 0.0);
        CHECK_NEAR(d.slope_scale_depth_bias, 0.0, 0.0);
    }
    CHECK(xgd_rasterizer_state_preset(dev, (xgd_rasterizer_preset)3) == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(state_sampler_presets)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    static const struct {
        xgd_sampler_preset p;
        xgd_texture_filter filter;
        xgd_texture_address_mode address;
    } presets[] = {
        { XGD_SAMPLER_PRESET_POINT_WRAP, XGD_FILTER_POINT, XGD_ADDRESS_WRAP },
        { XGD_SAMPLER_PRESET_POINT_CLAMP, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP },
        { XGD_SAMPLER_PRESET_LINEAR_WRAP, XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP },
        { XGD_SAMPLER_PRESET_LINEAR_CLAMP, XGD_FILTER_LINEAR, XGD_ADDRESS_CLAMP },
        { XGD_SAMPLER_PRESET_ANISOTROPIC_WRAP, XGD_FILTER_ANISOTROPIC, XGD_ADDRESS_WRAP },
        { XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP, XGD_FILTER_ANISOTROPIC, XGD_ADDRESS_CLAMP },
    };
    for (size_t i = 0; i < 6; i++) {
        xgd_sampler_state *s = xgd_sampler_state_preset(dev, presets[i].p);
        CHECK(s != NULL);
        if (!s) continue;
        xgd_sampler_desc d;
        memset(&d, 0xCC, sizeof d);
        CHECK_OK(xgd_sampler_state_get_desc(s, &d));
        CHECK_MSG(d.filter == presets[i].filter, "sampler preset %zu filter %d", i, (int)d.filter);
        CHECK_INT(d.address_u, presets[i].address);
        CHECK_INT(d.address_v, presets[i].address);
        CHECK_INT(d.address_w, presets[i].address);
        CHECK_INT(d.max_anisotropy, 4);
        CHECK_INT(d.max_mip_level, 0);
        CHECK_NEAR(d.mip_map_level_of_detail_bias, 0.0, 0.0);
    }
    CHECK(xgd_sampler_state_preset(dev, (xgd_sampler_preset)6) == NULL);
    xgd_device_destroy(dev);
}

/* NULL and the default initialisers mean XNA's new-object defaults; given values are kept. */
XGD_TEST(state_defaults_filled)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_blend_state *b = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &b));
    xgd_blend_state_desc bd;
    CHECK_OK(xgd_blend_state_get_desc(b, &bd));
    for (int i = 0; i < 4; i++)
        check_target_blend(t, __LINE__, "default blend", &bd.target[i], XGD_BLEND_ONE,
                           XGD_BLEND_ZERO, XGD_BLEND_ONE, XGD_BLEND_ZERO);
    CHECK(bd.blend_factor.r == 255 && bd.blend_factor.a == 255);
    CHECK_INT(bd.multisample_mask, -1);
    xgd_blend_state_destroy(b);

    /* an explicit zero factor is kept */
    xgd_blend_state_desc zero = XGD_BLEND_STATE_DESC_DEFAULT;
    zero.blend_factor = (xgd_color){ 0, 0, 0, 0 };
    REQUIRE_OK(xgd_blend_state_create(dev, &zero, &b));
    CHECK_OK(xgd_blend_state_get_desc(b, &bd));
    CHECK(bd.blend_factor.r == 0 && bd.blend_factor.g == 0 && bd.blend_factor.b == 0 &&
          bd.blend_factor.a == 0);
    xgd_blend_state_destroy(b);

    /* explicit write-none survives */
    memset(&zero, 0, sizeof zero);
    zero.target[0].color_write_channels = XGD_COLOR_WRITE_NONE;
    zero.target[0].color_source_blend = XGD_BLEND_SOURCE_ALPHA;
    REQUIRE_OK(xgd_blend_state_create(dev, &zero, &b));
    CHECK_OK(xgd_blend_state_get_desc(b, &bd));
    CHECK_INT(bd.target[0].color_write_channels, XGD_COLOR_WRITE_NONE);
    CHECK_INT(bd.target[0].color_source_blend, XGD_BLEND_SOURCE_ALPHA);
    CHECK_INT(bd.target[0].color_destination_blend, XGD_BLEND_ZERO);
    xgd_blend_state_destroy(b);

    xgd_depth_stencil_state *ds = NULL;
    xgd_depth_stencil_desc dd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, &dd, &ds));
    CHECK_OK(xgd_depth_stencil_state_get_desc(ds, &dd));
    CHECK(dd.depth_buffer_enable);
    CHECK(dd.depth_buffer_write_enable);
    CHECK_INT(dd.depth_function, XGD_COMPARE_LESS_EQUAL);
    CHECK_INT(dd.stencil_function, XGD_COMPARE_ALWAYS);
    CHECK_INT(dd.stencil_pass, XGD_STENCIL_OP_KEEP);
    CHECK_INT(dd.stencil_mask & 0xFF, 0xFF);
    xgd_depth_stencil_state_destroy(ds);

    xgd_rasterizer_state *rs = NULL;
    REQUIRE_OK(xgd_rasterizer_state_create(dev, NULL, &rs));
    xgd_rasterizer_desc rd;
    CHECK_OK(xgd_rasterizer_state_get_desc(rs, &rd));
    CHECK_INT(rd.cull_mode, XGD_CULL_COUNTER_CLOCKWISE_FACE);
    CHECK_INT(rd.fill_mode, XGD_FILL_SOLID);
    xgd_rasterizer_state_destroy(rs);

    xgd_sampler_state *ss = NULL;
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &ss));
    xgd_sampler_desc sd;
    CHECK_OK(xgd_sampler_state_get_desc(ss, &sd));
    CHECK_INT(sd.filter, XGD_FILTER_LINEAR);
    CHECK_INT(sd.address_u, XGD_ADDRESS_WRAP);
    CHECK_INT(sd.address_v, XGD_ADDRESS_WRAP);
    CHECK_INT(sd.address_w, XGD_ADDRESS_WRAP);
    CHECK_INT(sd.max_anisotropy, 4);
    xgd_sampler_state_destroy(ss);

    /* explicit values are kept as given */
    xgd_sampler_desc custom = { .filter = XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT,
                                .address_u = XGD_ADDRESS_MIRROR, .address_v = XGD_ADDRESS_CLAMP,
                                .max_anisotropy = 8, .max_mip_level = 2,
                                .mip_map_level_of_detail_bias = -0.5f };
    REQUIRE_OK(xgd_sampler_state_create(dev, &custom, &ss));
    CHECK_OK(xgd_sampler_state_get_desc(ss, &sd));
    CHECK_INT(sd.filter, XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT);
    CHECK_INT(sd.address_u, XGD_ADDRESS_MIRROR);
    CHECK_INT(sd.address_v, XGD_ADDRESS_CLAMP);
    CHECK_INT(sd.address_w, XGD_ADDRESS_WRAP);
    CHECK_INT(sd.max_anisotropy, 8);
    CHECK_INT(sd.max_mip_level, 2);
    CHECK_NEAR(sd.mip_map_level_of_detail_bias, -0.5, 0.0);
    xgd_sampler_state_destroy(ss);
    xgd_device_destroy(dev);
}

/* Unknown enum values: INVALID_ARGUMENT, nothing created. */
XGD_TEST(state_invalid_enums_refused)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    uint64_t live = live_resources(dev);

    xgd_blend_state_desc bd;
    xgd_blend_state *b;
#define BLEND_CASE(field, value)                                                     \
    do {                                                                             \
        memset(&bd, 0, sizeof bd);                                                   \
        bd.field = value;                                                            \
        b = (xgd_blend_state *)(uintptr_t)1;                                         \
        CHECK_RESULT(xgd_blend_state_create(dev, &bd, &b), XGD_ERROR_INVALID_ARGUMENT); \
        CHECK(b == NULL);                                                            \
    } while (0)
    BLEND_CASE(target[0].color_source_blend, XGD_BLEND_COUNT);
    BLEND_CASE(target[0].color_destination_blend, (xgd_blend)-1);
    BLEND_CASE(target[0].alpha_source_blend, (xgd_blend)99);
    BLEND_CASE(target[0].color_blend_function, XGD_BLEND_FUNCTION_COUNT);
    BLEND_CASE(target[0].alpha_blend_function, (xgd_blend_function)-2);
    BLEND_CASE(target[2].color_write_channels, 32u);
    BLEND_CASE(target[1].color_write_channels, 16u);
#undef BLEND_CASE

    xgd_depth_stencil_desc dd;
    xgd_depth_stencil_state *ds;
#define DS_CASE(field, value)                                                        \
    do {                                                                             \
        memset(&dd, 0, sizeof dd);                                                   \
        dd.field = value;                                                            \
        ds = (xgd_depth_stencil_state *)(uintptr_t)1;                                \
        CHECK_RESULT(xgd_depth_stencil_state_create(dev, &dd, &ds),                  \
                     XGD_ERROR_INVALID_ARGUMENT);                                    \
        CHECK(ds == NULL);                                                           \
    } while (0)
    DS_CASE(depth_function, XGD_COMPARE_COUNT);
    DS_CASE(stencil_function, (xgd_compare_function)-1);
    DS_CASE(stencil_pass, XGD_STENCIL_OP_COUNT);
    DS_CASE(stencil_fail, (xgd_stencil_operation)50);
    DS_CASE(stencil_depth_fail, XGD_STENCIL_OP_COUNT);
    DS_CASE(ccw_stencil_function, XGD_COMPARE_COUNT);
    DS_CASE(ccw_stencil_pass, XGD_STENCIL_OP_COUNT);
#undef DS_CASE

    xgd_rasterizer_desc rd;
    xgd_rasterizer_state *rs;
    memset(&rd, 0, sizeof rd);
    rd.cull_mode = XGD_CULL_COUNT;
    rs = (xgd_rasterizer_state *)(uintptr_t)1;
    CHECK_RESULT(xgd_rasterizer_state_create(dev, &rd, &rs), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rs == NULL);
    memset(&rd, 0, sizeof rd);
    rd.fill_mode = (xgd_fill_mode)-1;
    rs = (xgd_rasterizer_state *)(uintptr_t)1;
    CHECK_RESULT(xgd_rasterizer_state_create(dev, &rd, &rs), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rs == NULL);

    xgd_sampler_desc sd;
    xgd_sampler_state *ss;
    memset(&sd, 0, sizeof sd);
    sd.filter = XGD_FILTER_COUNT;
    ss = (xgd_sampler_state *)(uintptr_t)1;
    CHECK_RESULT(xgd_sampler_state_create(dev, &sd, &ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(ss == NULL);
    memset(&sd, 0, sizeof sd);
    sd.address_v = XGD_ADDRESS_COUNT;
    ss = (xgd_sampler_state *)(uintptr_t)1;
    CHECK_RESULT(xgd_sampler_state_create(dev, &sd, &ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(ss == NULL);
    memset(&sd, 0, sizeof sd);
    sd.address_w = (xgd_texture_address_mode)-4;
    ss = (xgd_sampler_state *)(uintptr_t)1;
    CHECK_RESULT(xgd_sampler_state_create(dev, &sd, &ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(ss == NULL);

    CHECK_INT(live_resources(dev), live);
    xgd_device_destroy(dev);
}

/* Presets are owned by the device: destroying one is a no-op, it keeps working. */
XGD_TEST(state_destroying_preset_is_noop)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    uint64_t live = live_resources(dev);
    xgd_blend_state *b = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
    xgd_depth_stencil_state *ds = xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE);
    xgd_rasterizer_state *rs = xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE);
    xgd_sampler_state *ss = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    REQUIRE(b && ds && rs && ss);
    xgd_blend_state_destroy(b);
    xgd_blend_state_destroy(b);
    xgd_depth_stencil_state_destroy(ds);
    xgd_rasterizer_state_destroy(rs);
    xgd_sampler_state_destroy(ss);
    CHECK_INT(live_resources(dev), live);
    CHECK(xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE) == b);
    xgd_blend_state_desc bd;
    CHECK_OK(xgd_blend_state_get_desc(b, &bd));
    CHECK_INT(bd.target[0].color_source_blend, XGD_BLEND_SOURCE_ALPHA);
    xgd_sampler_desc sd;
    CHECK_OK(xgd_sampler_state_get_desc(ss, &sd));
    CHECK_INT(sd.filter, XGD_FILTER_POINT);
    CHECK_OK(xgd_set_blend_state(dev, b));
    CHECK_OK(xgd_set_depth_stencil_state(dev, ds));
    CHECK_OK(xgd_set_rasterizer_state(dev, rs));
    CHECK_OK(xgd_set_sampler_state(dev, 0, ss));
    /* the same for stock declarations */
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    REQUIRE(decl);
    xgd_vertex_declaration_destroy(decl);
    CHECK(xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR) == decl);
    CHECK_INT(xgd_vertex_declaration_stride(decl), 16);
    CHECK_INT(live_resources(dev), live);
    xgd_device_destroy(dev);
}

/* Sampler and texture slots are 0..15; out-of-range slots and foreign states are refused. */
XGD_TEST(state_binding_slots_and_devices)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_device *other = xgdt_device(t, NULL);
    REQUIRE(other);
    xgd_sampler_state *ss = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP);
    REQUIRE(ss);
    CHECK_OK(xgd_set_sampler_state(dev, 0, ss));
    CHECK_OK(xgd_set_sampler_state(dev, 15, ss));
    CHECK_RESULT(xgd_set_sampler_state(dev, 16, ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_sampler_state(dev, -1, ss), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_set_sampler_state(dev, 3, NULL));
    CHECK_RESULT(xgd_set_texture(dev, 16, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_texture(dev, -1, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_set_texture(dev, 15, NULL));

    xgd_blend_state *foreign_b = xgd_blend_state_preset(other, XGD_BLEND_PRESET_ALPHA_BLEND);
    xgd_sampler_state *foreign_s = xgd_sampler_state_preset(other, XGD_SAMPLER_PRESET_POINT_WRAP);
    xgd_rasterizer_state *foreign_r = NULL;
    CHECK_OK(xgd_rasterizer_state_create(other, NULL, &foreign_r));
    xgd_depth_stencil_state *foreign_d = NULL;
    CHECK_OK(xgd_depth_stencil_state_create(other, NULL, &foreign_d));
    CHECK_RESULT(xgd_set_blend_state(dev, foreign_b), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_set_sampler_state(dev, 0, foreign_s), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_set_rasterizer_state(dev, foreign_r), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_set_depth_stencil_state(dev, foreign_d), XGD_ERROR_INVALID_OPERATION);
    xgd_texture *foreign_t = NULL;
    CHECK_OK(xgd_texture2d_create(other, &(xgd_texture2d_desc){ .width = 2, .height = 2 },
                                  &foreign_t));
    CHECK_RESULT(xgd_set_texture(dev, 0, foreign_t), XGD_ERROR_INVALID_OPERATION);
    /* NULL restores the defaults */
    CHECK_OK(xgd_set_blend_state(dev, NULL));
    CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
    CHECK_OK(xgd_set_rasterizer_state(dev, NULL));

    xgd_texture_destroy(foreign_t);
    xgd_rasterizer_state_destroy(foreign_r);
    xgd_depth_stencil_state_destroy(foreign_d);
    xgd_device_destroy(other);
    xgd_device_destroy(dev);
}

/* A created state counts as a live resource until destroyed. */
XGD_TEST(state_create_destroy_counts)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    uint64_t live = live_resources(dev);
    xgd_blend_state *b = NULL;
    xgd_sampler_state *s = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &b));
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &s));
    CHECK_INT(live_resources(dev), live + 2);
    CHECK(b != xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE));
    xgd_blend_state_destroy(b);
    CHECK_INT(live_resources(dev), live + 1);
    xgd_sampler_state_destroy(s);
    CHECK_INT(live_resources(dev), live);
    xgd_device_destroy(dev);
}
