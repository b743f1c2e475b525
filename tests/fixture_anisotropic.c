/*
 * fixture_anisotropic.c - the Anisotropic filter against Linear on a footprint stretched along
 * one axis.
 *
 * The rule (EXT_texture_filter_anisotropic, which Direct3D's and Vulkan's anisotropic filters
 * implement in their own approximations): with the pixel footprint's axes Pmax >= Pmin in
 * texels, N = min(ceil(Pmax / Pmin), MaxAnisotropy) linear-mip samples are averaged along the
 * major axis at level of detail log2(Pmax / N); Linear samples once at log2(Pmax).
 *
 * Scene: a 64x64 texture whose level 0 has vertical stripes 8 texels wide (255, 0, 255, ...),
 * constant along v; each mip level is the 2x2 mean of the one above, uploaded explicitly:
 * stripes 4, 2 and 1 texel wide at levels 1-3, and 127.5 (stored 128) from level 4 on, where a
 * texel spans a whole white + black pair. The quad is 64 pixels wide (u 1:1) and 3 pixels tall
 * (all 64 rows of v), so Pmin = 1 (along x) and Pmax = 64/3 = 21.3 (along y).
 *   Linear, and Anisotropic with MaxAnisotropy 1 (N = 1): lod 4.4, levels 4 and 5: 128 over
 *     the whole quad.
 *   Anisotropic, MaxAnisotropy 16: N = 16, lod 0.4. The samples differ only in v, along which
 *     the texture is constant, so every one reads the stripes. In the two central columns of
 *     each stripe (8k+3, 8k+4) levels 0, 1 and 2 all give exactly the stripe value (a bilinear
 *     footprint there never leaves the stripe, for pixel centres at .5 or half a pixel off), so
 *     any level of detail up to 2 gives 255 / 0.
 *   Anisotropic, MaxAnisotropy 4 (the AnisotropicClamp preset's default): N = 4, lod 2.4,
 *     levels 2 and 3. Level 3 has one texel per stripe, and at the central columns its
 *     bilinear neighbour weighs 1/16 (1/8 with centres half a pixel off), so any level of
 *     detail up to 3 gives at least 7/8 of the stripe value: >= 223 on white, <= 32 on black.
 * Tolerances: 2 units where the expected value is exact (a GPU's fixed-point filter weights
 * and 8-bit texels); the MaxAnisotropy 4 band is the derived bound itself, with 2 units more.
 * Stripe edges are not checked: which levels the hardware blends there is its own choice.
 */
#include "fixture_util.h"

enum { TEX = 64, LEVELS = 7, STRIPE = 8 };

/* Texel x of level l (every row alike). */
static uint8_t stripe_texel(int level, int x)
{
    int width = STRIPE >> level; /* texels per stripe at this level; 0 from level 4 on */
    if (width == 0) return 128;  /* mean of 255 and 0, rounded half up */
    return (x / width) % 2 == 0 ? 255 : 0;
}

static xgd_texture *stripe_texture(xgdt_ctx *t, xgd_device *dev)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc d = { .width = TEX, .height = TEX, .mipmap = true,
                             .format = XGD_SURFACE_FORMAT_COLOR };
    xgd_result r = xgd_texture2d_create(dev, &d, &tex);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "stripe texture: %s", xgd_result_name(r));
        return NULL;
    }
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.level_count, LEVELS);
    for (int l = 0; l < LEVELS; l++) {
        int s = TEX >> l;
        uint8_t *img = fx_image(s, s, fx_rgba(0, 0, 0, 255));
        if (img == NULL) break;
        for (int y = 0; y < s; y++)
            for (int x = 0; x < s; x++) {
                uint8_t v = stripe_texel(l, x);
                fx_put(img, s, x, y, fx_rgba(v, v, v, 255));
            }
        CHECK_OK(xgd_texture_set_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, img,
                                      (size_t)s * s * 4));
        free(img);
    }
    return tex;
}

/* The four cases, one band of rows each (3 rows drawn, 1 left clear). */
enum { CASE_LINEAR, CASE_ANISO16, CASE_ANISO4, CASE_ANISO1, CASES };
static const char *const case_name[CASES] = { "Linear", "Anisotropic, MaxAnisotropy 16",
                                              "AnisotropicClamp (MaxAnisotropy 4)",
                                              "Anisotropic, MaxAnisotropy 1" };

XGD_FIXTURE(Sample_AnisotropicFootprint)
{
    enum { W = TEX, H = 4 * CASES, ROWS = 3 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_format_support fs;
    REQUIRE_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &fs));
    CHECK(fs.max_anisotropy >= 1 && fs.max_anisotropy <= 16);
    /* A device without anisotropic filtering (1) must sample every case as Linear, as
       documented: that is checked, and the fixture then reports NOT SUPPORTED. A device
       limited to 2..15 is reported at once (the MaxAnisotropy 16 case needs 16 samples). */
    bool fallback = fs.max_anisotropy == 1;
    if (fs.max_anisotropy > 1 && fs.max_anisotropy < 16) {
        static char why[96];
        snprintf(why, sizeof why, "the device applies MaxAnisotropy up to %d (16 needed)",
                 fs.max_anisotropy);
        xgdt_not_supported(t, why);
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *tex = stripe_texture(t, dev);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss[CASES] = { NULL };
    const xgd_sampler_desc descs[CASES] = {
        [CASE_LINEAR] = { .filter = XGD_FILTER_LINEAR, .address_u = XGD_ADDRESS_CLAMP,
                          .address_v = XGD_ADDRESS_CLAMP, .address_w = XGD_ADDRESS_CLAMP,
                          .max_anisotropy = 16 },
        [CASE_ANISO16] = { .filter = XGD_FILTER_ANISOTROPIC, .address_u = XGD_ADDRESS_CLAMP,
                           .address_v = XGD_ADDRESS_CLAMP, .address_w = XGD_ADDRESS_CLAMP,
                           .max_anisotropy = 16 },
        [CASE_ANISO1] = { .filter = XGD_FILTER_ANISOTROPIC, .address_u = XGD_ADDRESS_CLAMP,
                          .address_v = XGD_ADDRESS_CLAMP, .address_w = XGD_ADDRESS_CLAMP,
                          .max_anisotropy = 1 },
    };
    for (int c = 0; c < CASES; c++) {
        if (c == CASE_ANISO4)
            ss[c] = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP);
        else
            ss[c] = fx_sampler(t, dev, &descs[c]);
        REQUIRE(ss[c]);
    }
    xgd_sampler_desc preset;
    CHECK_OK(xgd_sampler_state_get_desc(ss[CASE_ANISO4], &preset));
    CHECK_INT(preset.filter, XGD_FILTER_ANISOTROPIC);
    CHECK_INT(preset.max_anisotropy, 4);

    const xgd_color white = { 255, 255, 255, 255 }, clear = { 40, 80, 160, 255 };
    CHECK_OK(xgd_clear_color(dev, clear));
    for (int c = 0; c < CASES; c++) {
        CHECK_OK(xgd_set_sampler_state(dev, 0, ss[c]));
        CHECK_OK(fx_tex_rect(dev, W, H, 0, (float)(4 * c), (float)W, (float)(4 * c + ROWS), 0, 0,
                             1, 1, white));
    }
    uint8_t *img = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, W, H, &img));

    /* expected values from the mip chain above */
    const int mean = stripe_texel(4, 0); /* levels 4.. hold the mean of a stripe pair */
    CHECK_INT(stripe_texel(5, 0), mean);
    int bad = 0;
    for (int c = 0; c < CASES && bad < 8; c++) {
        for (int y = 4 * c; y < 4 * c + ROWS; y++) {
            for (int x = 0; x < W; x++) {
                int got = fx_get(img, W, x, y).r;
                int in_stripe = x % STRIPE;
                bool central = in_stripe == STRIPE / 2 - 1 || in_stripe == STRIPE / 2;
                int s = stripe_texel(0, x);
                int lo, hi;
                if (c == CASE_LINEAR || c == CASE_ANISO1 || fallback) {
                    lo = mean - 2;
                    hi = mean + 2;
                } else if (!central) {
                    continue;
                } else if (c == CASE_ANISO16) {
                    lo = s - 2;
                    hi = s + 2;
                } else {
                    /* at least 7/8 of the stripe value, at most 1/8 of the other */
                    lo = s == 255 ? 255 * 7 / 8 - 2 : -1;
                    hi = s == 255 ? 256 : 255 / 8 + 2;
                }
                if (got < lo || got > hi) {
                    if (bad++ < 8)
                        xgdt_fail_at(t, __FILE__, __LINE__,
                                     "%s: pixel (%d, %d) is %d, expected %d..%d (level-0 "
                                     "stripe %d, mip mean %d)",
                                     case_name[c], x, y, got, lo < 0 ? 0 : lo,
                                     hi > 255 ? 255 : hi, s, mean);
                }
            }
        }
    }
    if (bad > 0) {
        uint8_t *e = fx_image(W, H, clear);
        if (e != NULL) {
            for (int c = 0; c < CASES; c++)
                for (int x = 0; x < W; x++) {
                    int v = c == CASE_LINEAR || c == CASE_ANISO1 || fallback ? mean
                                                                             : stripe_texel(0, x);
                    fx_fill(e, W, H, x, 4 * c, x + 1, 4 * c + ROWS, fx_rgba(v, v, v, 255));
                }
            /* writes actual and expected PNGs (the bands above decide pass or fail) */
            xgdt_compare_rgba(t, "anisotropic", img, e, W, H, 255);
            free(e);
        }
    }
    free(img);
    if (fallback)
        xgdt_not_supported(t, "the device has no anisotropic filtering: Anisotropic sampled as "
                              "Linear (checked)");
    xgd_set_sampler_state(dev, 0, NULL);
    for (int c = 0; c < CASES; c++) xgd_sampler_state_destroy(ss[c]); /* a preset: no-op */
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* What the caps say: every renderer reports 1..16 on filterable formats (1 = no anisotropic
 * filtering, sampled as Linear) and 0 on the others; the software renderer's footprint
 * filter takes up to 16 samples. */
XGD_FIXTURE(Sample_AnisotropyCaps)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, (xgd_surface_format)f, &fs));
        if (fs.texture && fs.filterable)
            CHECK(fs.max_anisotropy >= 1 && fs.max_anisotropy <= 16);
        else
            CHECK_INT(fs.max_anisotropy, 0);
    }
    if (info.renderer == XGD_RENDERER_SOFTWARE) {
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &fs));
        CHECK_INT(fs.max_anisotropy, 16);
    }
    xgd_device_destroy(dev);
}
