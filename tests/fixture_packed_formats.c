/*
 * fixture_packed_formats.c - XNA 4.0's packed 16-bit formats (Bgr565, Bgra5551, Bgra4444) on
 * every renderer. XNA guarantees them as textures in both profiles, so a renderer must create,
 * upload, read back and sample them whether or not its device has the native format (one that
 * lacks it stores them wider and converts: src/core/format.c).
 *
 * Rules under test, each expectation derived from the format's bit layout in xgd.h:
 * - SetData then GetData returns every 16-bit texel bit-exactly: all 65536 values, every mip
 *   level, and sub-rectangles written and read inside a level;
 * - point sampling a texel gives each field v of m = 2^bits - 1 as v/m (Bgr565's missing alpha
 *   as 1), the value a native unorm format samples: round(v/m * 255) in a Color target, and
 *   v/m itself in a float (Vector4) target, within 2e-5.
 */
#include "fixture_util.h"

#include <stdio.h>

typedef struct packed_fmt {
    xgd_surface_format format;
    const char *name;
    int bits[4], shift[4]; /* r, g, b, a; 0 bits = no field (reads 1) */
} packed_fmt;

static const packed_fmt PACKED[3] = {
    { XGD_SURFACE_FORMAT_BGR565, "Bgr565", { 5, 6, 5, 0 }, { 11, 5, 0, 0 } },
    { XGD_SURFACE_FORMAT_BGRA5551, "Bgra5551", { 5, 5, 5, 1 }, { 10, 5, 0, 15 } },
    { XGD_SURFACE_FORMAT_BGRA4444, "Bgra4444", { 4, 4, 4, 4 }, { 8, 4, 0, 12 } },
};

/* The normalised value of channel ch of texel v. */
static double packed_value(const packed_fmt *f, unsigned v, int ch)
{
    if (f->bits[ch] == 0) return 1.0;
    unsigned m = (1u << f->bits[ch]) - 1u;
    return (double)((v >> f->shift[ch]) & m) / m;
}

/* Texel pattern of level `level`: level 0 holds every 16-bit value once (256x256, row-major);
 * other levels a scramble that differs per level. */
static unsigned pattern(int level, int i)
{
    if (level == 0) return (unsigned)i & 0xFFFFu;
    return ((unsigned)i * 40503u + (unsigned)level * 977u) & 0xFFFFu;
}

static void put16(uint8_t *d, size_t i, unsigned v)
{
    d[2 * i] = (uint8_t)v;
    d[2 * i + 1] = (uint8_t)(v >> 8);
}

static unsigned get16(const uint8_t *d, size_t i) { return d[2 * i] | (unsigned)d[2 * i + 1] << 8; }

/* Compares two 16-bit texel arrays; reports the first difference. */
static bool same_texels(xgdt_ctx *t, const char *what, const uint8_t *actual,
                        const uint8_t *expected, int w, int h)
{
    long bad = 0;
    int fx = -1, fy = -1;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            if (get16(actual, i) != get16(expected, i)) {
                if (bad++ == 0) { fx = x; fy = y; }
            }
        }
    if (bad == 0) return true;
    size_t i = (size_t)fy * w + fx;
    xgdt_fail_at(t, __FILE__, __LINE__, "%s: %ld texels differ; first at (%d,%d): 0x%04x, "
                 "expected 0x%04x", what, bad, fx, fy, get16(actual, i), get16(expected, i));
    return false;
}

/* A packed format must be a texture on every device (XNA's Reach and HiDef both list it). */
static bool guaranteed(xgdt_ctx *t, xgd_device *dev, const packed_fmt *f)
{
    xgd_format_support fs;
    if (xgd_device_query_format(dev, f->format, &fs) != XGD_OK) return false;
    CHECK_MSG(fs.texture && fs.filterable, "%s: query_format says texture %d filterable %d; XNA "
              "guarantees the format in both profiles", f->name, fs.texture, fs.filterable);
    return fs.texture;
}

static void round_trip(xgdt_ctx *t, xgd_graphics_profile profile)
{
    enum { S = 256 };
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = dd.pp.back_buffer_height = 8;
    dd.profile = profile;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    uint8_t *up = malloc((size_t)S * S * 2), *down = malloc((size_t)S * S * 2);
    REQUIRE(up && down);
    const char *pname = profile == XGD_GRAPHICS_PROFILE_REACH ? "Reach" : "HiDef";
    for (int k = 0; k < 3; k++) {
        const packed_fmt *f = &PACKED[k];
        if (!guaranteed(t, dev, f)) continue;
        xgd_texture *tex = NULL;
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = S, .height = S,
                                            .mipmap = true, .format = f->format }, &tex);
        CHECK_MSG(r == XGD_OK, "%s %s: create returned %s (%s)", pname, f->name,
                  xgd_result_name(r), xgdt_last_message());
        if (r != XGD_OK) continue;
        xgd_texture_info ti;
        CHECK_OK(xgd_texture_get_info(tex, &ti));
        CHECK_INT(ti.level_count, 9);
        CHECK_INT(ti.format, f->format);
        char what[96];
        /* every level, whole */
        for (int l = 0; l < ti.level_count; l++) {
            int s = (S >> l);
            for (int i = 0; i < s * s; i++) put16(up, (size_t)i, pattern(l, i));
            CHECK_OK(xgd_texture_set_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, up,
                                          (size_t)s * s * 2));
        }
        for (int l = 0; l < ti.level_count; l++) {
            int s = (S >> l);
            for (int i = 0; i < s * s; i++) put16(up, (size_t)i, pattern(l, i));
            memset(down, 0xCD, (size_t)s * s * 2);
            CHECK_OK(xgd_texture_get_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, down,
                                          (size_t)s * s * 2));
            snprintf(what, sizeof what, "%s %s level %d (%dx%d)", pname, f->name, l, s, s);
            same_texels(t, what, down, up, s, s);
        }
        /* sub-rectangles of levels 0 and 2, odd positions and sizes */
        const int levels[2] = { 0, 2 };
        for (int j = 0; j < 2; j++) {
            int l = levels[j], s = (S >> l);
            xgd_rect rc = { 13, 7, 37, 19 };
            uint8_t sub[37 * 19 * 2];
            for (int i = 0; i < rc.width * rc.height; i++)
                put16(sub, (size_t)i, (0xFFFFu - (unsigned)i * 331u) & 0xFFFFu);
            CHECK_OK(xgd_texture_set_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, &rc, sub,
                                          sizeof sub));
            /* expected level: the pattern with the rectangle replaced */
            for (int y = 0; y < s; y++)
                for (int x = 0; x < s; x++) {
                    size_t i = (size_t)y * s + x;
                    unsigned v = pattern(l, (int)i);
                    if (x >= rc.x && x < rc.x + rc.width && y >= rc.y && y < rc.y + rc.height)
                        v = get16(sub, (size_t)(y - rc.y) * rc.width + (x - rc.x));
                    put16(up, i, v);
                }
            CHECK_OK(xgd_texture_get_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, down,
                                          (size_t)s * s * 2));
            snprintf(what, sizeof what, "%s %s level %d after a sub-rectangle write", pname,
                     f->name, l);
            same_texels(t, what, down, up, s, s);
            /* a sub-rectangle read across the written edge */
            xgd_rect rd = { 5, 3, 17, 9 };
            uint8_t part[17 * 9 * 2], want[17 * 9 * 2];
            for (int y = 0; y < rd.height; y++)
                for (int x = 0; x < rd.width; x++)
                    put16(want, (size_t)y * rd.width + x,
                          get16(up, (size_t)(y + rd.y) * s + (x + rd.x)));
            CHECK_OK(xgd_texture_get_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, &rd, part,
                                          sizeof part));
            snprintf(what, sizeof what, "%s %s level %d sub-rectangle read", pname, f->name, l);
            same_texels(t, what, part, want, rd.width, rd.height);
        }
        xgd_texture_destroy(tex);
    }
    free(up);
    free(down);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PackedFormats_RoundTrip)
{
    round_trip(t, XGD_GRAPHICS_PROFILE_HIDEF);
    round_trip(t, XGD_GRAPHICS_PROFILE_REACH);
}

/* Draws level 0 (256x256, all texel values) 1:1 and level 1 into a 128x128 square (LOD 1)
 * with point sampling into the bound target (W x 256). */
static void draw_levels(xgd_device *dev, int w, int h)
{
    (void)fx_tex_rect(dev, w, h, 0, 0, 256, 256, 0, 0, 1, 1, fx_rgba(255, 255, 255, 255));
    (void)fx_tex_rect(dev, w, h, 256, 0, 384, 128, 0, 0, 1, 1, fx_rgba(255, 255, 255, 255));
}

/* The texel the pixel (x, y) of draw_levels samples, as (level, index). */
static bool texel_at(int x, int y, int *level, int *index)
{
    if (x < 256) { *level = 0; *index = y * 256 + x; return true; }
    if (x < 384 && y < 128) { *level = 1; *index = y * 128 + (x - 256); return true; }
    return false;
}

XGD_FIXTURE(PackedFormats_PointSample)
{
    enum { W = 512, H = 256 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_sampler_desc sd;
    memset(&sd, 0, sizeof sd);
    sd.filter = XGD_FILTER_POINT;
    sd.address_u = sd.address_v = sd.address_w = XGD_ADDRESS_CLAMP;
    xgd_sampler_state *ss = fx_sampler(t, dev, &sd);
    REQUIRE(ss);
    xgd_format_support v4;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_VECTOR4, &v4));
    xgd_texture *fl = NULL;
    if (v4.render_target)
        CHECK_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = W,
                                            .height = H, .preferred_format =
                                            XGD_SURFACE_FORMAT_VECTOR4 }, &fl));
    else
        printf("  note: %s cannot render to Vector4; the float check is skipped\n",
               t->renderer_name);
    uint8_t *texels = malloc(256 * 256 * 2);
    float *fpx = malloc((size_t)W * H * 16);
    REQUIRE(texels && fpx);
    for (int k = 0; k < 3; k++) {
        const packed_fmt *f = &PACKED[k];
        if (!guaranteed(t, dev, f)) continue;
        xgd_texture *tex = NULL;
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 256,
                                            .height = 256, .mipmap = true,
                                            .format = f->format }, &tex);
        CHECK_MSG(r == XGD_OK, "%s: create returned %s (%s)", f->name, xgd_result_name(r),
                  xgdt_last_message());
        if (r != XGD_OK) continue;
        for (int l = 0; l < 9; l++) {
            int s = (256 >> l);
            for (int i = 0; i < s * s; i++) put16(texels, (size_t)i, pattern(l, i));
            CHECK_OK(xgd_texture_set_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, texels,
                                          (size_t)s * s * 2));
        }
        xgd_effect *fx = fx_texture_effect(t, dev, tex);
        if (!fx) { xgd_texture_destroy(tex); continue; }
        xgd_set_sampler_state(dev, 0, ss);
        /* Color back buffer: round(v/m * 255) per channel */
        CHECK_OK(xgd_clear_color(dev, fx_rgba(1, 2, 3, 4)));
        draw_levels(dev, W, H);
        uint8_t *e = fx_image(W, H, fx_rgba(1, 2, 3, 4));
        REQUIRE(e);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int l, i;
                if (!texel_at(x, y, &l, &i)) continue;
                unsigned v = pattern(l, i);
                fx_put(e, W, x, y, fx_rgba(fx_q8(packed_value(f, v, 0)), fx_q8(packed_value(f, v, 1)),
                                           fx_q8(packed_value(f, v, 2)), fx_q8(packed_value(f, v, 3))));
            }
        char label[64];
        snprintf(label, sizeof label, "%s_color", f->name);
        /* Tolerance 1: Direct3D 10+ and Vulkan let a float -> UNORM8 conversion be off by up to
           0.6 of a step (NVIDIA writes 20/31 = 164.52/255 as 164). The Vector4 target below is
           what pins the sampled value to v/m. */
        fx_expect_back_buffer(t, dev, label, e, W, H, 1);
        free(e);
        /* Vector4 target: v/m itself */
        if (fl != NULL) {
            CHECK_OK(xgd_set_render_target(dev, fl));
            CHECK_OK(xgd_clear_color(dev, fx_rgba(0, 0, 0, 0)));
            CHECK_OK(xgd_effect_apply(fx));
            xgd_set_sampler_state(dev, 0, ss);
            draw_levels(dev, W, H);
            CHECK_OK(xgd_set_render_target(dev, NULL));
            CHECK_OK(xgd_texture_get_data(fl, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, fpx,
                                          (size_t)W * H * 16));
            long bad = 0;
            double worst = 0;
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    int l, i;
                    if (!texel_at(x, y, &l, &i)) continue;
                    unsigned v = pattern(l, i);
                    for (int ch = 0; ch < 4; ch++) {
                        double d = fabs(fpx[((size_t)y * W + x) * 4 + ch] - packed_value(f, v, ch));
                        if (d > worst) worst = d;
                        if (d > 2e-5 && bad++ == 0)
                            xgdt_fail_at(t, __FILE__, __LINE__, "%s float target (%d,%d) channel "
                                         "%d: %.7f, expected %.7f (texel 0x%04x of level %d)",
                                         f->name, x, y, ch, fpx[((size_t)y * W + x) * 4 + ch],
                                         packed_value(f, v, ch), v, l);
                    }
                }
            printf("  %s: float target differs from v/m by at most %.3g\n", f->name, worst);
            CHECK_INT(bad, 0);
        }
        xgd_effect_destroy(fx);
        xgd_texture_destroy(tex);
    }
    free(texels);
    free(fpx);
    xgd_texture_destroy(fl);
    xgd_sampler_state_destroy(ss);
    xgd_device_destroy(dev);
}
