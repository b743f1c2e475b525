/*
 * fixture_desc_explicit.c - state descs mean what they say: NULL and the XGD_*_DESC_DEFAULT
 * initialisers are XNA's defaults (DepthBufferEnable, DepthBufferWriteEnable,
 * MultiSampleAntiAlias true; BlendFactor White; MultiSampleMask -1; stencil masks all bits;
 * MaxAnisotropy 4; ColorWriteChannels All), and a field given as zero or false is zero or
 * false (XNA's properties hold whatever was assigned, so an explicit 0 is honoured).
 *
 * The unit test reads the applied descs back; the fixtures show the pixels on every renderer.
 */
#include "fixture_util.h"

static const xgd_color DX_CLEAR = { 0, 0, 0, 255 };
static const xgd_color DX_NEAR = { 0, 255, 0, 255 };
static const xgd_color DX_FAR = { 255, 0, 0, 255 };

/* Field-by-field equality (padding bytes are unspecified, so no memcmp). */
static bool dx_same_target(const xgd_target_blend_desc *a, const xgd_target_blend_desc *b)
{
    return a->color_blend_function == b->color_blend_function &&
           a->color_source_blend == b->color_source_blend &&
           a->color_destination_blend == b->color_destination_blend &&
           a->alpha_blend_function == b->alpha_blend_function &&
           a->alpha_source_blend == b->alpha_source_blend &&
           a->alpha_destination_blend == b->alpha_destination_blend &&
           a->color_write_channels == b->color_write_channels;
}

static bool dx_same_blend(const xgd_blend_state_desc *a, const xgd_blend_state_desc *b)
{
    for (int i = 0; i < 4; i++)
        if (!dx_same_target(&a->target[i], &b->target[i])) return false;
    return a->independent_blend == b->independent_blend &&
           memcmp(&a->blend_factor, &b->blend_factor, sizeof a->blend_factor) == 0 &&
           a->multisample_mask == b->multisample_mask;
}

static bool dx_same_depth(const xgd_depth_stencil_desc *a, const xgd_depth_stencil_desc *b)
{
    return a->depth_buffer_enable == b->depth_buffer_enable &&
           a->depth_buffer_write_enable == b->depth_buffer_write_enable &&
           a->depth_function == b->depth_function && a->stencil_enable == b->stencil_enable &&
           a->stencil_function == b->stencil_function && a->stencil_pass == b->stencil_pass &&
           a->stencil_fail == b->stencil_fail && a->stencil_depth_fail == b->stencil_depth_fail &&
           a->two_sided_stencil == b->two_sided_stencil &&
           a->ccw_stencil_function == b->ccw_stencil_function &&
           a->ccw_stencil_pass == b->ccw_stencil_pass &&
           a->ccw_stencil_fail == b->ccw_stencil_fail &&
           a->ccw_stencil_depth_fail == b->ccw_stencil_depth_fail &&
           a->stencil_mask == b->stencil_mask && a->stencil_write_mask == b->stencil_write_mask &&
           a->reference_stencil == b->reference_stencil;
}

static bool dx_same_raster(const xgd_rasterizer_desc *a, const xgd_rasterizer_desc *b)
{
    return a->cull_mode == b->cull_mode && a->fill_mode == b->fill_mode &&
           a->scissor_test_enable == b->scissor_test_enable &&
           a->multisample_antialias == b->multisample_antialias &&
           a->depth_bias == b->depth_bias && a->slope_scale_depth_bias == b->slope_scale_depth_bias;
}

static bool dx_same_sampler(const xgd_sampler_desc *a, const xgd_sampler_desc *b)
{
    return a->filter == b->filter && a->address_u == b->address_u &&
           a->address_v == b->address_v && a->address_w == b->address_w &&
           a->max_anisotropy == b->max_anisotropy && a->max_mip_level == b->max_mip_level &&
           a->mip_map_level_of_detail_bias == b->mip_map_level_of_detail_bias;
}

/* Zeroed descs keep their zeros; the default initialisers equal what NULL gives. */
XGD_TEST(desc_zero_fields_are_literal)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);

    xgd_blend_state_desc bz, bn, bi;
    memset(&bz, 0, sizeof bz);
    xgd_blend_state *b = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, &bz, &b));
    CHECK_OK(xgd_blend_state_get_desc(b, &bz));
    xgd_blend_state_destroy(b);
    for (int i = 0; i < 4; i++) CHECK_INT(bz.target[i].color_write_channels, 0);
    CHECK(bz.blend_factor.r == 0 && bz.blend_factor.g == 0 && bz.blend_factor.b == 0 &&
          bz.blend_factor.a == 0);
    CHECK_INT(bz.multisample_mask, 0);
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &b));
    CHECK_OK(xgd_blend_state_get_desc(b, &bn));
    xgd_blend_state_destroy(b);
    bi = (xgd_blend_state_desc)XGD_BLEND_STATE_DESC_DEFAULT;
    CHECK(dx_same_blend(&bn, &bi));
    CHECK_INT(bn.target[3].color_write_channels, XGD_COLOR_WRITE_ALL);
    CHECK_INT(bn.multisample_mask, -1);

    xgd_depth_stencil_desc dz, dn, di;
    memset(&dz, 0, sizeof dz);
    xgd_depth_stencil_state *ds = NULL;
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, &dz, &ds));
    CHECK_OK(xgd_depth_stencil_state_get_desc(ds, &dz));
    xgd_depth_stencil_state_destroy(ds);
    CHECK(!dz.depth_buffer_enable);
    CHECK(!dz.depth_buffer_write_enable);
    CHECK_INT(dz.stencil_mask, 0);
    CHECK_INT(dz.stencil_write_mask, 0);
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, NULL, &ds));
    CHECK_OK(xgd_depth_stencil_state_get_desc(ds, &dn));
    xgd_depth_stencil_state_destroy(ds);
    di = (xgd_depth_stencil_desc)XGD_DEPTH_STENCIL_DESC_DEFAULT;
    CHECK(dx_same_depth(&dn, &di));
    CHECK(dn.depth_buffer_enable && dn.depth_buffer_write_enable);
    CHECK_INT(dn.stencil_mask, 0xFF);
    CHECK_INT(dn.stencil_write_mask, 0xFF);

    xgd_rasterizer_desc rz, rn, ri;
    memset(&rz, 0, sizeof rz);
    xgd_rasterizer_state *rs = NULL;
    REQUIRE_OK(xgd_rasterizer_state_create(dev, &rz, &rs));
    CHECK_OK(xgd_rasterizer_state_get_desc(rs, &rz));
    xgd_rasterizer_state_destroy(rs);
    CHECK(!rz.multisample_antialias);
    REQUIRE_OK(xgd_rasterizer_state_create(dev, NULL, &rs));
    CHECK_OK(xgd_rasterizer_state_get_desc(rs, &rn));
    xgd_rasterizer_state_destroy(rs);
    ri = (xgd_rasterizer_desc)XGD_RASTERIZER_DESC_DEFAULT;
    CHECK(dx_same_raster(&rn, &ri));
    CHECK(rn.multisample_antialias);

    /* MaxAnisotropy: default 4; 0 and 2 kept as given; above 16 applied as 16 */
    const int aniso_in[4] = { 0, 1, 2, 40 }, aniso_out[4] = { 0, 1, 2, 16 };
    for (int i = 0; i < 4; i++) {
        xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
        sd.filter = XGD_FILTER_ANISOTROPIC;
        sd.max_anisotropy = aniso_in[i];
        xgd_sampler_state *ss = NULL;
        REQUIRE_OK(xgd_sampler_state_create(dev, &sd, &ss));
        CHECK_OK(xgd_sampler_state_get_desc(ss, &sd));
        xgd_sampler_state_destroy(ss);
        CHECK_INT(sd.max_anisotropy, aniso_out[i]);
    }
    xgd_sampler_desc sn, si = XGD_SAMPLER_DESC_DEFAULT;
    xgd_sampler_state *ss = NULL;
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &ss));
    CHECK_OK(xgd_sampler_state_get_desc(ss, &sn));
    xgd_sampler_state_destroy(ss);
    CHECK(dx_same_sampler(&sn, &si));
    CHECK_INT(sn.max_anisotropy, 4);
    xgd_device_destroy(dev);
}

/* Depth: a near rectangle (z 0.25) drawn first, then a far one (z 0.75) over the same pixels.
 * XNA's default (LessEqual test and write on) keeps the near colour; a zeroed desc turns the
 * test off, so the far colour lands. Columns: state NULL, the default initialiser, the
 * default preset, a zeroed desc. */
XGD_FIXTURE(DescExplicit_DepthEnableDefault)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_depth_stencil_desc def = XGD_DEPTH_STENCIL_DESC_DEFAULT, zero;
    memset(&zero, 0, sizeof zero);
    xgd_depth_stencil_state *s_null = NULL;
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, NULL, &s_null));
    xgd_depth_stencil_state *s_def = fx_depth(t, dev, &def), *s_zero = fx_depth(t, dev, &zero);
    REQUIRE(fx && s_def && s_zero);
    xgd_depth_stencil_state *states[4] = {
        s_null, s_def, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_DEFAULT),
        s_zero
    };
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, (xgd_vector4){ 0, 0, 0, 1 },
                       1.0f, 0));
    uint8_t *e = fx_image(W, H, DX_CLEAR);
    REQUIRE(e);
    for (int i = 0; i < 4; i++) {
        CHECK_OK(xgd_set_depth_stencil_state(dev, states[i]));
        float x0 = (float)(i * 8), x1 = x0 + 8.0f;
        CHECK_OK(fx_rect(dev, W, H, x0, 0, x1, H, 0.25f, DX_NEAR));
        CHECK_OK(fx_rect(dev, W, H, x0, 0, x1, H, 0.75f, DX_FAR));
        fx_fill(e, W, H, i * 8, 0, i * 8 + 8, H, i < 3 ? DX_NEAR : DX_FAR);
    }
    fx_expect_back_buffer(t, dev, "depth defaults", e, W, H, 0);
    free(e);
    CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
    xgd_depth_stencil_state_destroy(s_null);
    xgd_depth_stencil_state_destroy(s_def);
    xgd_depth_stencil_state_destroy(s_zero);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Stencil masks given as 0 are honoured: with read mask 0 an Equal test against reference 5
 * compares 0 with 0 and passes on a stencil of 0; with write mask 0 a Replace by 7 leaves the
 * stencil at 0, which a later Equal-0 test (masks 0xFF) sees. Masks taken as 0xFF would fail
 * the first test and let the Replace write 7. Depth is off throughout. */
XGD_FIXTURE(DescExplicit_StencilMasksZero)
{
    enum { W = 16, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_depth_stencil_desc read0 = XGD_DEPTH_STENCIL_DESC_DEFAULT;
    read0.depth_buffer_enable = false;
    read0.stencil_enable = true;
    read0.stencil_function = XGD_COMPARE_EQUAL;
    read0.reference_stencil = 5;
    read0.stencil_mask = 0;
    xgd_depth_stencil_desc write0 = read0;
    write0.stencil_function = XGD_COMPARE_ALWAYS;
    write0.stencil_pass = XGD_STENCIL_OP_REPLACE;
    write0.reference_stencil = 7;
    write0.stencil_mask = 0xFF;
    write0.stencil_write_mask = 0;
    xgd_depth_stencil_desc equal0 = read0;
    equal0.reference_stencil = 0;
    equal0.stencil_mask = 0xFF;
    xgd_depth_stencil_state *s_read0 = fx_depth(t, dev, &read0);
    xgd_depth_stencil_state *s_write0 = fx_depth(t, dev, &write0);
    xgd_depth_stencil_state *s_equal0 = fx_depth(t, dev, &equal0);
    REQUIRE(fx && s_read0 && s_write0 && s_equal0);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                       (xgd_vector4){ 0, 0, 0, 1 }, 1.0f, 0));
    CHECK_OK(xgd_set_depth_stencil_state(dev, s_read0));
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 8, H, 0.5f, DX_NEAR));
    CHECK_OK(xgd_set_depth_stencil_state(dev, s_write0));
    CHECK_OK(fx_rect(dev, W, H, 8, 0, 16, H, 0.5f, DX_FAR));
    CHECK_OK(xgd_set_depth_stencil_state(dev, s_equal0));
    CHECK_OK(fx_rect(dev, W, H, 12, 0, 16, H, 0.5f, DX_NEAR));
    uint8_t *e = fx_image(W, H, DX_CLEAR);
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 8, H, DX_NEAR);
    fx_fill(e, W, H, 8, 0, 12, H, DX_FAR);
    fx_fill(e, W, H, 12, 0, 16, H, DX_NEAR);
    fx_expect_back_buffer(t, dev, "stencil masks 0", e, W, H, 0);
    free(e);
    CHECK_OK(xgd_set_depth_stencil_state(dev, NULL));
    xgd_depth_stencil_state_destroy(s_read0);
    xgd_depth_stencil_state_destroy(s_write0);
    xgd_depth_stencil_state_destroy(s_equal0);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Context recovery: on in XGD_DEVICE_DESC_DEFAULT (and so for desc NULL), off in a zeroed desc;
 * textures keep a CPU shadow only with it on. */
XGD_TEST(desc_device_context_recovery)
{
    for (int k = 0; k < 2; k++) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        if (k == 1) memset(&dd, 0, sizeof dd);
        dd.pp.back_buffer_width = dd.pp.back_buffer_height = 8;
        xgd_device *dev = xgdt_device(t, &dd);
        REQUIRE(dev);
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_MSG(info.context_recovery_enabled == (k == 0), "desc %s: recovery %d",
                  k ? "zeroed" : "default", (int)info.context_recovery_enabled);
        xgd_texture *tex = NULL;
        REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 },
                                        &tex));
        xgd_texture_info ti;
        CHECK_OK(xgd_texture_get_info(tex, &ti));
        CHECK(ti.has_cpu_shadow == (k == 0));
        xgd_texture_destroy(tex);
        xgd_device_destroy(dev);
    }
}
