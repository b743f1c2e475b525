/*
 * fixture_rt_fallback.c - render-target formats XNA 4.0 cannot render to.
 *
 * Rule (XNA's RenderTarget2D constructor takes a *preferred* format; QueryRenderTargetFormat
 * reports the format it falls back to): a format the device cannot render to does not fail the
 * constructor but gives the closest supported format, Color in the end, and the target then
 * reports that format. XNA renders to no signed format, so NormalizedByte2 and NormalizedByte4
 * targets are Color; Alpha8 targets are Color on every xgd renderer (xgd.h,
 * xgd_device_query_format). query_format says the same before anything is created: the format
 * is still a texture but not a render target (nor blendable or multisampled). The target is
 * then an ordinary Color target: cleared, drawn to and read back as RGBA8, on every renderer
 * the same pixels.
 */
#include "fixture_util.h"

#include <stdio.h>

typedef struct fallback_case {
    xgd_surface_format format;
    const char *name;
    bool hidef_only;
} fallback_case;

static const fallback_case CASES[3] = {
    { XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, "NormalizedByte2", false },
    { XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, "NormalizedByte4", false },
    { XGD_SURFACE_FORMAT_ALPHA8, "Alpha8", true },
};

static void check_profile(xgdt_ctx *t, xgd_graphics_profile profile)
{
    enum { W = 16, H = 8 };
    const char *pname = profile == XGD_GRAPHICS_PROFILE_REACH ? "Reach" : "HiDef";
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.profile = profile;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_format_support color;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &color));
    for (int k = 0; k < 3; k++) {
        const fallback_case *c = &CASES[k];
        if (c->hidef_only && profile == XGD_GRAPHICS_PROFILE_REACH) continue;
        xgd_format_support fs;
        CHECK_OK(xgd_device_query_format(dev, c->format, &fs));
        CHECK_MSG(fs.texture, "%s %s: still a texture format", pname, c->name);
        CHECK_MSG(!fs.render_target && !fs.blendable && !fs.multisample,
                  "%s %s: query_format says render_target %d blendable %d multisample %d; XNA "
                  "falls back to Color", pname, c->name, fs.render_target, fs.blendable,
                  fs.multisample);
        /* 2D and cube targets, with and without multisampling, succeed as Color */
        for (int variant = 0; variant < 3; variant++) {
            bool cube = variant == 2;
            int ms = variant == 1 ? 4 : 0;
            xgd_render_target_desc rd = { .width = W, .height = cube ? W : H,
                                          .preferred_format = c->format,
                                          .preferred_depth_format = XGD_DEPTH_FORMAT_DEPTH24_STENCIL8,
                                          .preferred_multisample_count = ms };
            xgd_texture *rt = NULL;
            xgd_result r = cube ? xgd_render_target_cube_create(dev, &rd, &rt)
                                : xgd_render_target2d_create(dev, &rd, &rt);
            CHECK_MSG(r == XGD_OK, "%s %s variant %d: create returned %s (%s)", pname, c->name,
                      variant, xgd_result_name(r), xgdt_last_message());
            if (r != XGD_OK) continue;
            xgd_texture_info ti;
            CHECK_OK(xgd_texture_get_info(rt, &ti));
            CHECK_MSG(ti.format == XGD_SURFACE_FORMAT_COLOR, "%s %s variant %d: the target "
                      "reports format %d, expected Color (%d)", pname, c->name, variant,
                      (int)ti.format, (int)XGD_SURFACE_FORMAT_COLOR);
            CHECK_INT(ti.kind, cube ? XGD_RENDER_TARGET_CUBE : XGD_RENDER_TARGET_2D);
            /* the multisample count is Color's: what Color takes, never more than asked */
            if (ms == 0 || !color.multisample) CHECK_INT(ti.multisample_count, 0);
            else CHECK_MSG(ti.multisample_count >= 0 && ti.multisample_count <= ms,
                           "%s %s: %d samples", pname, c->name, ti.multisample_count);
            if (cube) {
                xgd_texture_destroy(rt);
                continue;
            }
            /* an ordinary Color target: cleared, then drawn over by a quad larger than the
               target (whatever the pixel-centre convention, it covers every pixel), each read
               back as RGBA8 */
            const xgd_color cleared = fx_rgba(10, 200, 30, 255), drawn = fx_rgba(255, 64, 128, 255);
            char label[64];
            for (int pass = 0; pass < 2; pass++) {
                CHECK_OK(xgd_set_render_target(dev, rt));
                if (pass == 0) {
                    CHECK_OK(xgd_clear_color(dev, cleared));
                } else {
                    CHECK_OK(xgd_effect_apply(fx));
                    CHECK_OK(fx_rect(dev, W, H, -2, -2, W + 2, H + 2, 0, drawn));
                }
                CHECK_OK(xgd_set_render_target(dev, NULL));
                uint8_t *e = fx_image(W, H, pass == 0 ? cleared : drawn);
                REQUIRE(e);
                snprintf(label, sizeof label, "%s_%s%s_%s", pname, c->name, ms ? "_ms" : "",
                         pass == 0 ? "cleared" : "drawn");
                fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, label, e, W, H, 0);
                free(e);
            }
            /* data in the preferred format's size is the wrong size for a Color target */
            uint8_t small[W * H * 2];
            if (xgd_surface_format_size(c->format, W, H) != (size_t)W * H * 4)
                CHECK_RESULT(xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL,
                                                  small, xgd_surface_format_size(c->format, W, H)),
                             XGD_ERROR_INVALID_ARGUMENT);
            xgd_texture_destroy(rt);
        }
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(RenderTargetFormat_XnaFallback)
{
    check_profile(t, XGD_GRAPHICS_PROFILE_HIDEF);
    check_profile(t, XGD_GRAPHICS_PROFILE_REACH);
}
