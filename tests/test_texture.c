/*
 * test_texture.c - neutral-layer tests of textures, render targets and the SetRenderTargets
 * transaction (spec 001: TextureCreationValidation, RenderTargetCreationValidation,
 * SetRenderTargetsTransaction, BoundTargetLifetime; CPU shadow rule).
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "png_support.h"
#include "internal.h" /* xgdi_debug_fail_*: a restore whose texture recreation fails */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers --------------------------------------------------------------------------------- */

static xgd_device *make_device(xgdt_ctx *t, xgd_graphics_profile profile, bool recovery)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.profile = profile;
    d.context_recovery = recovery;
    return xgdt_device(t, &d);
}

static uint64_t live_resources(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

/* Profile limits (maximum size, 2048:1 aspect) are XNA's NotSupportedException: NOT_SUPPORTED;
 * a bad shape (non-positive size, DXT not in whole blocks) is an argument error. The macro keeps
 * room for naming two codes where a rule is ambiguous; every use below names one. */
#define CHECK_RESULT_EITHER(expr, a, b)                                                     \
    do {                                                                                    \
        xgd_result r_ = (expr);                                                             \
        if (r_ != (a) && r_ != (b))                                                         \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s returned %s, expected %s or %s (%s)",    \
                         #expr, xgd_result_name(r_), xgd_result_name(a), xgd_result_name(b), \
                         xgdt_last_message());                                              \
    } while (0)

/* Creation that must fail: exact code, *out NULL, no resource registered. */
static void expect_tex_create_fails(xgdt_ctx *t, int line, xgd_device *dev,
                                    const xgd_texture2d_desc *d, xgd_result a, xgd_result b)
{
    uint64_t before = live_resources(dev);
    xgd_texture *tex = (xgd_texture *)(uintptr_t)0x1;
    xgd_result r = xgd_texture2d_create(dev, d, &tex);
    if (r != a && r != b)
        xgdt_fail_at(t, __FILE__, line, "texture2d %dx%d fmt %d mip %d: %s, expected %s%s%s (%s)",
                     d->width, d->height, (int)d->format, (int)d->mipmap, xgd_result_name(r),
                     xgd_result_name(a), a == b ? "" : " or ", a == b ? "" : xgd_result_name(b),
                     xgd_device_last_error(dev));
    if (r == XGD_OK) {
        xgd_texture_destroy(tex);
        return;
    }
    if (tex != NULL) xgdt_fail_at(t, __FILE__, line, "*out not NULL after failed create");
    if (live_resources(dev) != before)
        xgdt_fail_at(t, __FILE__, line, "live_resources changed by a failed create");
}
#define EXPECT_TEX_FAILS(dev, d, code) expect_tex_create_fails(t, __LINE__, dev, d, code, code)
#define EXPECT_TEX_FAILS2(dev, d, a, b) expect_tex_create_fails(t, __LINE__, dev, d, a, b)

static void expect_tex_ok(xgdt_ctx *t, int line, xgd_device *dev, const xgd_texture2d_desc *d)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture2d_create(dev, d, &tex);
    if (r != XGD_OK || tex == NULL)
        xgdt_fail_at(t, __FILE__, line, "texture2d %dx%d fmt %d: %s (%s)", d->width, d->height,
                     (int)d->format, xgd_result_name(r), xgd_device_last_error(dev));
    xgd_texture_destroy(tex);
}
#define EXPECT_TEX_OK(dev, d) expect_tex_ok(t, __LINE__, dev, d)

static xgd_texture *make_rt(xgdt_ctx *t, xgd_device *dev, int w, int h, xgd_surface_format f,
                            xgd_depth_format depth, int samples, xgd_render_target_usage usage)
{
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = w;
    d.height = h;
    d.preferred_format = f;
    d.preferred_depth_format = depth;
    d.preferred_multisample_count = samples;
    d.usage = usage;
    xgd_texture *rt = NULL;
    xgd_result r = xgd_render_target2d_create(dev, &d, &rt);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "render target %dx%d: %s (%s)", w, h,
                     xgd_result_name(r), xgd_device_last_error(dev));
    return rt;
}

static xgd_texture *simple_rt(xgdt_ctx *t, xgd_device *dev, int w, int h)
{
    return make_rt(t, dev, w, h, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE, 0,
                   XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS);
}

/* The public binding state a failed call must not change. */
typedef struct snap {
    xgd_viewport vp;
    xgd_rect scissor;
    int count;
    xgd_render_target_binding b[4];
    xgd_statistics st;
    bool bound;
} snap;

static void take_snap(xgd_device *dev, snap *s)
{
    memset(s, 0, sizeof *s);
    xgd_get_viewport(dev, &s->vp);
    xgd_get_scissor_rect(dev, &s->scissor);
    xgd_get_render_targets(dev, s->b, 4, &s->count);
    xgd_device_get_statistics(dev, &s->st);
    xgd_device_info info;
    memset(&info, 0, sizeof info);
    xgd_device_get_info(dev, &info);
    s->bound = info.render_target_bound;
}

static void check_snap(xgdt_ctx *t, int line, xgd_device *dev, const snap *a, const char *what)
{
    snap b;
    take_snap(dev, &b);
    if (a->vp.x != b.vp.x || a->vp.y != b.vp.y || a->vp.width != b.vp.width ||
        a->vp.height != b.vp.height || a->vp.min_depth != b.vp.min_depth ||
        a->vp.max_depth != b.vp.max_depth)
        xgdt_fail_at(t, __FILE__, line, "%s: viewport changed (%d,%d %dx%d -> %d,%d %dx%d)", what,
                     a->vp.x, a->vp.y, a->vp.width, a->vp.height, b.vp.x, b.vp.y, b.vp.width,
                     b.vp.height);
    if (a->scissor.x != b.scissor.x || a->scissor.y != b.scissor.y ||
        a->scissor.width != b.scissor.width || a->scissor.height != b.scissor.height)
        xgdt_fail_at(t, __FILE__, line, "%s: scissor changed", what);
    if (a->count != b.count)
        xgdt_fail_at(t, __FILE__, line, "%s: binding count %d -> %d", what, a->count, b.count);
    for (int i = 0; i < a->count && i < b.count && i < 4; i++)
        if (a->b[i].target != b.b[i].target || a->b[i].face != b.b[i].face)
            xgdt_fail_at(t, __FILE__, line, "%s: binding %d changed", what, i);
    if (a->bound != b.bound)
        xgdt_fail_at(t, __FILE__, line, "%s: render_target_bound changed", what);
    if (a->st.target_changes != b.st.target_changes || a->st.clears != b.st.clears ||
        a->st.live_resources != b.st.live_resources || a->st.resolves != b.st.resolves ||
        a->st.frames != b.st.frames || a->st.draw_calls != b.st.draw_calls)
        xgdt_fail_at(t, __FILE__, line, "%s: statistics changed", what);
}
#define CHECK_UNCHANGED(dev, s, what) check_snap(t, __LINE__, dev, s, what)

/* Fills a buffer with bytes that are a valid value in `format` (no NaN or infinity for float
 * formats, so no renderer can canonicalise them) and differ texel to texel. */
static void fill_pattern(xgd_surface_format f, uint8_t *p, size_t size, unsigned seed)
{
    uint32_t x = 2463534242u ^ (seed * 2654435761u);
    for (size_t i = 0; i < size; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x >> 7);
    }
    switch (f) {
    case XGD_SURFACE_FORMAT_SINGLE:
    case XGD_SURFACE_FORMAT_VECTOR2:
    case XGD_SURFACE_FORMAT_VECTOR4:
        for (size_t i = 0; i + 4 <= size; i += 4) {
            uint32_t v;
            memcpy(&v, p + i, 4);
            v &= 0xBF7FFFFFu; /* exponent <= 0x7E: finite, no NaN */
            v |= 0x00800000u; /* exponent >= 1: no denormal */
            memcpy(p + i, &v, 4);
        }
        break;
    case XGD_SURFACE_FORMAT_HALF_SINGLE:
    case XGD_SURFACE_FORMAT_HALF_VECTOR2:
    case XGD_SURFACE_FORMAT_HALF_VECTOR4:
    case XGD_SURFACE_FORMAT_HDR_BLENDABLE:
        for (size_t i = 0; i + 2 <= size; i += 2) {
            uint16_t v;
            memcpy(&v, p + i, 2);
            v &= 0xBBFFu; /* exponent <= 30 */
            v |= 0x0400u; /* exponent >= 1 */
            memcpy(p + i, &v, 2);
        }
        break;
    default:
        break;
    }
}

/* XNA's SurfaceFormat sizes: bytes per texel, per 4x4 block for DXT. */
static const struct {
    xgd_surface_format f;
    int element_size;
    bool block;
    bool hidef_only; /* XNA 4.0 profile table: Reach has the first nine */
} k_formats[] = {
    { XGD_SURFACE_FORMAT_COLOR, 4, false, false },
    { XGD_SURFACE_FORMAT_BGR565, 2, false, false },
    { XGD_SURFACE_FORMAT_BGRA5551, 2, false, false },
    { XGD_SURFACE_FORMAT_BGRA4444, 2, false, false },
    { XGD_SURFACE_FORMAT_DXT1, 8, true, false },
    { XGD_SURFACE_FORMAT_DXT3, 16, true, false },
    { XGD_SURFACE_FORMAT_DXT5, 16, true, false },
    { XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, 2, false, false },
    { XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, 4, false, false },
    { XGD_SURFACE_FORMAT_RGBA1010102, 4, false, true },
    { XGD_SURFACE_FORMAT_RG32, 4, false, true },
    { XGD_SURFACE_FORMAT_RGBA64, 8, false, true },
    { XGD_SURFACE_FORMAT_ALPHA8, 1, false, true },
    { XGD_SURFACE_FORMAT_SINGLE, 4, false, true },
    { XGD_SURFACE_FORMAT_VECTOR2, 8, false, true },
    { XGD_SURFACE_FORMAT_VECTOR4, 16, false, true },
    { XGD_SURFACE_FORMAT_HALF_SINGLE, 2, false, true },
    { XGD_SURFACE_FORMAT_HALF_VECTOR2, 4, false, true },
    { XGD_SURFACE_FORMAT_HALF_VECTOR4, 8, false, true },
    { XGD_SURFACE_FORMAT_HDR_BLENDABLE, 8, false, true },
};
#define FORMAT_COUNT ((int)(sizeof k_formats / sizeof k_formats[0]))

static size_t rect_bytes(int fi, int w, int h)
{
    if (k_formats[fi].block)
        return (size_t)((w + 3) / 4) * (size_t)((h + 3) / 4) * (size_t)k_formats[fi].element_size;
    return (size_t)w * (size_t)h * (size_t)k_formats[fi].element_size;
}

/* ---- format facts ---------------------------------------------------------------------------- */

XGD_TEST(texture_format_sizes)
{
    CHECK_INT(FORMAT_COUNT, XGD_SURFACE_FORMAT_COUNT - 1);
    for (int i = 0; i < FORMAT_COUNT; i++) {
        CHECK_MSG(xgd_surface_format_element_size(k_formats[i].f) == k_formats[i].element_size,
                  "format %d element size %d, expected %d", (int)k_formats[i].f,
                  xgd_surface_format_element_size(k_formats[i].f), k_formats[i].element_size);
        size_t want = rect_bytes(i, 10, 6);
        CHECK_MSG(xgd_surface_format_size(k_formats[i].f, 10, 6) == want,
                  "format %d: size of 10x6 %zu, expected %zu", (int)k_formats[i].f,
                  xgd_surface_format_size(k_formats[i].f, 10, 6), want);
    }
    CHECK_INT(xgd_surface_format_element_size(XGD_SURFACE_FORMAT_COUNT), 0);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_DXT1, 1, 1), 8);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_DXT5, 5, 4), 32);
}

/* ---- TextureCreationValidation ------------------------------------------------------------- */

XGD_TEST(texture_size_limits_hidef)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    /* thin textures keep memory small while testing each axis at the limit (aspect 1024:1) */
    EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 4096, .height = 4 }));
    EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 4096 }));
    EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 4097, .height = 4 }),
                      XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 4097 }),
                      XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    xgd_texture *c = NULL;
    CHECK_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4096,
                                     .format = XGD_SURFACE_FORMAT_ALPHA8 }, &c));
    xgd_texture_destroy(c);
    c = NULL;
    CHECK_RESULT_EITHER(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4097 }, &c),
                        XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    CHECK(c == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(texture_size_limits_reach)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_REACH, true);
    REQUIRE(dev);
    EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 2048, .height = 4 }));
    EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 2048 }));
    EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 2049, .height = 4 }),
                      XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 2049 }),
                      XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 4096, .height = 4 }),
                      XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    xgd_device_destroy(dev);
}

XGD_TEST(texture_zero_and_negative_sizes)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    EXPECT_TEX_FAILS(dev, (&(xgd_texture2d_desc){ .width = 0, .height = 4 }),
                     XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_TEX_FAILS(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 0 }),
                     XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_TEX_FAILS(dev, (&(xgd_texture2d_desc){ .width = -4, .height = 4 }),
                     XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_TEX_FAILS(dev, (&(xgd_texture2d_desc){ .width = 4, .height = -1 }),
                     XGD_ERROR_INVALID_ARGUMENT);
    EXPECT_TEX_FAILS(dev, (&(xgd_texture2d_desc){ .width = 4, .height = 4,
                                                  .format = XGD_SURFACE_FORMAT_COUNT }),
                     XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture *c = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 0 }, &c),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(c == NULL);
    xgd_device_destroy(dev);
}

/* XNA 4.0 Reach has no HDR/float/packed-10-bit/Alpha8 formats: NotSupportedException. */
XGD_TEST(texture_hidef_formats_refused_under_reach)
{
    xgd_device *reach = make_device(t, XGD_GRAPHICS_PROFILE_REACH, true);
    REQUIRE(reach);
    xgd_device *hidef = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(hidef);
    for (int i = 0; i < FORMAT_COUNT; i++) {
        xgd_texture2d_desc d = { .width = 8, .height = 8, .format = k_formats[i].f };
        if (k_formats[i].hidef_only)
            EXPECT_TEX_FAILS(reach, &d, XGD_ERROR_NOT_SUPPORTED);
        else
            EXPECT_TEX_OK(reach, &d);
        EXPECT_TEX_OK(hidef, &d);
    }
    xgd_texture *c = NULL;
    CHECK_RESULT(xgd_texture_cube_create(reach, &(xgd_texture_cube_desc){ .size = 4,
                                         .format = XGD_SURFACE_FORMAT_VECTOR4 }, &c),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK(c == NULL);
    xgd_device_destroy(reach);
    xgd_device_destroy(hidef);
}

/* Block-compressed level 0 must be whole 4x4 blocks (spec 001 ValidateTexture2DCreationShape). */
XGD_TEST(texture_dxt_dimensions)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    const xgd_surface_format dxt[] = { XGD_SURFACE_FORMAT_DXT1, XGD_SURFACE_FORMAT_DXT3,
                                       XGD_SURFACE_FORMAT_DXT5 };
    for (int i = 0; i < 3; i++) {
        EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 8, .height = 12, .format = dxt[i] }));
        EXPECT_TEX_OK(dev, (&(xgd_texture2d_desc){ .width = 16, .height = 4, .mipmap = true,
                                                   .format = dxt[i] }));
        EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 6, .height = 8, .format = dxt[i] }),
                          XGD_ERROR_INVALID_ARGUMENT, XGD_ERROR_INVALID_ARGUMENT);
        EXPECT_TEX_FAILS2(dev, (&(xgd_texture2d_desc){ .width = 8, .height = 2, .format = dxt[i] }),
                          XGD_ERROR_INVALID_ARGUMENT, XGD_ERROR_INVALID_ARGUMENT);
    }
    xgd_device_destroy(dev);
}

XGD_TEST(texture_mip_count_and_info)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    static const struct { int w, h, levels; } cases[] = {
        { 64, 16, 7 }, { 16, 64, 7 }, { 1, 1, 1 }, { 5, 3, 3 }, { 256, 256, 9 }, { 7, 1, 3 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgd_texture *tex = NULL;
        REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = cases[i].w,
                                        .height = cases[i].h, .mipmap = true }, &tex));
        xgd_texture_info info;
        memset(&info, 0xCD, sizeof info);
        CHECK_OK(xgd_texture_get_info(tex, &info));
        CHECK_MSG(info.level_count == cases[i].levels, "%dx%d: %d levels, expected %d",
                  cases[i].w, cases[i].h, info.level_count, cases[i].levels);
        CHECK_INT(info.kind, XGD_TEXTURE_2D);
        CHECK_INT(info.width, cases[i].w);
        CHECK_INT(info.height, cases[i].h);
        CHECK_INT(info.format, XGD_SURFACE_FORMAT_COLOR);
        CHECK_INT(info.depth_format, XGD_DEPTH_FORMAT_NONE);
        CHECK_INT(info.multisample_count, 0);
        CHECK(!info.content_lost);
        CHECK(info.has_cpu_shadow);
        xgd_texture_destroy(tex);
    }
    /* without mipmap: one level */
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 64, .height = 16 }, &tex));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.level_count, 1);
    /* the smallest level of a full chain is 1x1: 64x16 level 6 takes one texel */
    xgd_texture_destroy(tex);
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 64, .height = 16,
                                    .mipmap = true }, &tex));
    uint8_t px[4] = { 1, 2, 3, 4 }, back[4] = { 0 };
    CHECK_OK(xgd_texture_set_data(tex, 6, 0, NULL, px, 4));
    CHECK_OK(xgd_texture_get_data(tex, 6, 0, NULL, back, 4));
    CHECK(memcmp(px, back, 4) == 0);
    uint8_t l4[4 * 1 * 4];
    CHECK_OK(xgd_texture_get_data(tex, 4, 0, NULL, l4, sizeof l4)); /* 4x1 */
    CHECK_RESULT(xgd_texture_set_data(tex, 7, 0, NULL, px, 4), XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* set_data then get_data returns the same bytes for every format, on every level: once with the
 * CPU shadow (which may answer get_data) and once without it, so the renderer's own storage
 * answers. */
XGD_TEST(texture_roundtrip_every_format)
{
    for (int pass = 0; pass < 2; pass++) {
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, pass == 0);
    REQUIRE(dev);
    for (int i = 0; i < FORMAT_COUNT; i++) {
        xgd_texture *tex = NULL;
        xgd_result r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 8, .height = 4,
                                            .mipmap = true, .format = k_formats[i].f }, &tex);
        CHECK_MSG(r == XGD_OK, "format %d: create %s", (int)k_formats[i].f, xgd_result_name(r));
        if (r != XGD_OK) continue;
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(tex, &info));
        CHECK_INT(info.format, k_formats[i].f);
        CHECK_INT(info.level_count, 4);
        for (int level = 0; level < info.level_count; level++) {
            int w = 8 >> level, h = 4 >> level;
            if (w < 1) w = 1;
            if (h < 1) h = 1;
            size_t n = rect_bytes(i, w, h);
            uint8_t *in = malloc(n), *out = malloc(n);
            REQUIRE(in && out);
            fill_pattern(k_formats[i].f, in, n, (unsigned)(i * 16 + level));
            memset(out, 0xEE, n);
            CHECK_OK(xgd_texture_set_data(tex, level, 0, NULL, in, n));
            CHECK_OK(xgd_texture_get_data(tex, level, 0, NULL, out, n));
            size_t bad = n;
            for (size_t k = 0; k < n; k++)
                if (in[k] != out[k]) {
                    bad = k;
                    break;
                }
            CHECK_MSG(bad == n, "%s: format %d level %d: byte %zu read %02x, wrote %02x",
                      pass == 0 ? "shadow" : "no shadow", (int)k_formats[i].f, level, bad,
                      bad < n ? out[bad] : 0, bad < n ? in[bad] : 0);
            free(in);
            free(out);
        }
        xgd_texture_destroy(tex);
    }
    xgd_device_destroy(dev);
    }
}

/* Partial rectangles land where they say; the rest of the level keeps its texels. */
XGD_TEST(texture_rect_update)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 3 }, &tex));
    uint8_t full[4 * 3 * 4];
    for (int i = 0; i < (int)sizeof full; i++) full[i] = (uint8_t)i;
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, full, sizeof full));
    uint8_t patch[2 * 2 * 4];
    memset(patch, 0xF0, sizeof patch);
    xgd_rect r = { 1, 1, 2, 2 };
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, &r, patch, sizeof patch));
    uint8_t out[sizeof full];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 4; x++) {
            bool in = x >= 1 && x < 3 && y >= 1 && y < 3;
            for (int c = 0; c < 4; c++) {
                int k = (y * 4 + x) * 4 + c;
                uint8_t want = in ? 0xF0 : (uint8_t)k;
                CHECK_MSG(out[k] == want, "texel %d,%d ch %d: %u, expected %u", x, y, c, out[k],
                          want);
            }
        }
    /* get_data of a rect */
    uint8_t one[4];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, &(xgd_rect){ 3, 2, 1, 1 }, one, 4));
    CHECK_INT(one[0], (2 * 4 + 3) * 4);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Every refused set_data leaves every texel as it was. */
XGD_TEST(texture_set_data_refusals)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 8, .height = 8,
                                    .mipmap = true }, &tex));
    uint8_t base[8 * 8 * 4];
    fill_pattern(XGD_SURFACE_FORMAT_COLOR, base, sizeof base, 7);
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, base, sizeof base));
    uint8_t junk[8 * 8 * 4 + 16];
    memset(junk, 0x5A, sizeof junk);

    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, junk, sizeof base - 4),
                 XGD_ERROR_INVALID_ARGUMENT);                                   /* short */
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, junk, sizeof base + 4),
                 XGD_ERROR_INVALID_ARGUMENT);                                   /* long */
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, NULL, NULL, sizeof base),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(tex, 4, 0, NULL, junk, 4), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(tex, -1, 0, NULL, junk, sizeof base),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_NEGATIVE_X, NULL, junk,
                                      sizeof base), XGD_ERROR_INVALID_ARGUMENT);
    static const xgd_rect bad_rects[] = {
        { 6, 0, 4, 1 },   /* past the right edge */
        { 0, 7, 1, 2 },   /* past the bottom */
        { -1, 0, 2, 2 },  /* negative origin */
        { 0, 0, 0, 1 },   /* empty */
        { 0, 0, 2, -1 },  /* negative */
        { 2, 2, 8, 8 },
    };
    for (size_t i = 0; i < sizeof bad_rects / sizeof bad_rects[0]; i++) {
        size_t n = bad_rects[i].width > 0 && bad_rects[i].height > 0
                       ? (size_t)bad_rects[i].width * (size_t)bad_rects[i].height * 4
                       : 4;
        if (n > sizeof junk) n = sizeof junk;
        xgd_result r = xgd_texture_set_data(tex, 0, 0, &bad_rects[i], junk, n);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "rect %zu: %s", i, xgd_result_name(r));
    }
    /* a rect inside level 1 (4x4) but outside level 2 (2x2) */
    CHECK_RESULT(xgd_texture_set_data(tex, 2, 0, &(xgd_rect){ 0, 0, 3, 3 }, junk, 36),
                 XGD_ERROR_INVALID_ARGUMENT);
    /* same refusals on get_data */
    uint8_t out[sizeof base];
    CHECK_RESULT(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out - 1),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_get_data(tex, 9, 0, NULL, out, 4), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_get_data(tex, 0, 0, &(xgd_rect){ 7, 7, 2, 2 }, out, 16),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_get_data(tex, 0, 0, NULL, NULL, sizeof out),
                 XGD_ERROR_INVALID_ARGUMENT);

    memset(out, 0, sizeof out);
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    CHECK_MSG(memcmp(out, base, sizeof base) == 0, "a refused set_data changed level 0");
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Textures the packed-format self-test of a restore creates before any resource comes back:
 * one per packed format the renderer claims. */
static int probe_texture_creates(xgd_device *dev)
{
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGRA4444,
                                                  XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551 };
    int n = 0;
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        if (xgd_device_query_format(dev, packed[i], &fs) == XGD_OK && fs.texture) n++;
    }
    return n;
}

/* A texture whose recreation failed at a restore has no native part (each resource's
 * texture_create fails here): set_data / get_data answer INVALID_OPERATION, as a draw sampling it
 * does (draw.c), instead of handing the renderer a NULL texture. With and without the CPU
 * shadow (without one get_data would read from the renderer), for a Texture2D, a cube and a
 * render target (a partial write of which first reads the level back). */
XGD_TEST(texture_data_after_failed_recovery)
{
    for (int recovery = 1; recovery >= 0; recovery--) {
        xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, recovery != 0);
        REQUIRE(dev);
        xgd_texture *tex[3] = { NULL, NULL, NULL };
        REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 8, .height = 4,
                                        .mipmap = true }, &tex[0]));
        REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4 }, &tex[1]));
        REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8,
                                              .height = 4 }, &tex[2]));
        uint8_t base[8 * 4 * 4], got[sizeof base];
        fill_pattern(XGD_SURFACE_FORMAT_COLOR, base, sizeof base, 3);
        CHECK_OK(xgd_texture_set_data(tex[0], 0, 0, NULL, base, sizeof base));
        int probe_creates = probe_texture_creates(dev);
        CHECK_OK(xgd_device_simulate_context_loss(dev));
        /* Every resource's recreation fails; the self-test's creations before them pass. */
        REQUIRE_OK(xgdi_debug_fail_after(dev, XGDI_FAULT_TEXTURE_CREATE, probe_creates,
                                         XGD_ERROR_OUT_OF_MEMORY));
        CHECK_OK(xgd_device_restore_context(dev));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_CREATE, 0, XGD_OK));
        xgd_device_info di;
        CHECK_OK(xgd_device_get_info(dev, &di));
        CHECK_INT(di.last_recovery_failures, 3);
        for (int i = 0; i < 3; i++) {
            size_t whole = i == 1 ? 4 * 4 * 4 : sizeof base;
            CHECK_RESULT(xgd_texture_set_data(tex[i], 0, 0, NULL, base, whole),
                         XGD_ERROR_INVALID_OPERATION);
            CHECK_MSG(strstr(xgd_device_last_error(dev), "no storage") != NULL,
                      "texture %d: message '%s'", i, xgd_device_last_error(dev));
            CHECK_RESULT(xgd_texture_set_data(tex[i], 0, 0, &(xgd_rect){ 1, 1, 1, 1 }, base, 4),
                         XGD_ERROR_INVALID_OPERATION);
            CHECK_RESULT(xgd_texture_get_data(tex[i], 0, 0, NULL, got, whole),
                         XGD_ERROR_INVALID_OPERATION);
            CHECK_MSG(strstr(xgd_device_last_error(dev), "no storage") != NULL,
                      "texture %d: message '%s'", i, xgd_device_last_error(dev));
            /* argument errors still come first */
            CHECK_RESULT(xgd_texture_get_data(tex[i], 0, 0, NULL, got, 3),
                         XGD_ERROR_INVALID_ARGUMENT);
        }
        CHECK_RESULT(xgd_texture_save_png(tex[0], "/nonexistent-dir/x.png"),
                     XGD_ERROR_INVALID_OPERATION);
        for (int i = 0; i < 3; i++) xgd_texture_destroy(tex[i]);
        xgd_device_destroy(dev);
    }
}

/* DXT rects are whole blocks: aligned to 4, or reaching the level's edge. */
XGD_TEST(texture_dxt_rect_alignment)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 8, .height = 8,
                                    .mipmap = true, .format = XGD_SURFACE_FORMAT_DXT1 }, &tex));
    uint8_t level0[32];
    fill_pattern(XGD_SURFACE_FORMAT_DXT1, level0, sizeof level0, 3);
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, level0, sizeof level0));
    uint8_t block[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 2, 0, 4, 4 }, block, 8),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 0, 1, 4, 4 }, block, 8),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 0, 0, 2, 4 }, block, 8),
                 XGD_ERROR_INVALID_ARGUMENT);
    uint8_t out[32];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    CHECK(memcmp(out, level0, sizeof out) == 0);

    /* block (1,1) is the fourth block in row-major block order */
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 4, 4, 4, 4 }, block, 8));
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    CHECK(memcmp(out, level0, 24) == 0);
    CHECK(memcmp(out + 24, block, 8) == 0);
    /* level 2 is 2x2: the whole level is one block that reaches the edge */
    CHECK_OK(xgd_texture_set_data(tex, 2, 0, NULL, block, 8));
    CHECK_OK(xgd_texture_set_data(tex, 2, 0, &(xgd_rect){ 0, 0, 2, 2 }, block, 8));
    uint8_t l2[8];
    CHECK_OK(xgd_texture_get_data(tex, 2, 0, NULL, l2, 8));
    CHECK(memcmp(l2, block, 8) == 0);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_TEST(texture_cube_faces_independent)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *cube = NULL;
    REQUIRE_OK(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = 4, .mipmap = true },
                                       &cube));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(cube, &info));
    CHECK_INT(info.kind, XGD_TEXTURE_CUBE);
    CHECK_INT(info.width, 4);
    CHECK_INT(info.height, 4);
    CHECK_INT(info.level_count, 3);
    uint8_t face[6][64];
    for (int f = 0; f < 6; f++) {
        fill_pattern(XGD_SURFACE_FORMAT_COLOR, face[f], 64, (unsigned)(100 + f));
        CHECK_OK(xgd_texture_set_data(cube, 0, (xgd_cube_map_face)f, NULL, face[f], 64));
    }
    /* writing a level of one face touches nothing else */
    uint8_t l1[16] = { 0 };
    CHECK_OK(xgd_texture_set_data(cube, 1, XGD_CUBE_MAP_FACE_POSITIVE_Y, NULL, l1, 16));
    for (int f = 0; f < 6; f++) {
        uint8_t out[64];
        CHECK_OK(xgd_texture_get_data(cube, 0, (xgd_cube_map_face)f, NULL, out, 64));
        CHECK_MSG(memcmp(out, face[f], 64) == 0, "cube face %d lost its texels", f);
    }
    uint8_t junk[64] = { 0 };
    CHECK_RESULT(xgd_texture_set_data(cube, 0, (xgd_cube_map_face)6, NULL, junk, 64),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_texture_set_data(cube, 0, (xgd_cube_map_face)-1, NULL, junk, 64),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture_destroy(cube);
    xgd_device_destroy(dev);
}

/* spec 001 CPU shadow: kept by default; with recovery disabled, a later partial set_data on
 * level 0 is refused (it would re-upload zeros over untouched texels), a full level works. */
XGD_TEST(texture_cpu_shadow_rule)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 }, &tex));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK(info.has_cpu_shadow);
    uint8_t px[4] = { 1, 2, 3, 4 };
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 1, 1, 1, 1 }, px, 4));
    xgd_texture_destroy(tex);
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(di.context_recovery_enabled);
    xgd_device_destroy(dev);

    dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, false);
    REQUIRE(dev);
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(!di.context_recovery_enabled);
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4,
                                    .mipmap = true }, &tex));
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK(!info.has_cpu_shadow);
    uint8_t full[64];
    fill_pattern(XGD_SURFACE_FORMAT_COLOR, full, sizeof full, 11);
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, NULL, full, sizeof full));
    CHECK_RESULT(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 1, 1, 1, 1 }, px, 4),
                 XGD_ERROR_INVALID_OPERATION);
    uint8_t out[64];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    CHECK_MSG(memcmp(out, full, sizeof full) == 0, "the refused partial write changed texels");
    /* a rect that covers the whole level is a full-level write */
    CHECK_OK(xgd_texture_set_data(tex, 0, 0, &(xgd_rect){ 0, 0, 4, 4 }, full, sizeof full));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static char *temp_path(char *buf, size_t n, const char *tag)
{
    const char *dir = getenv("XGD_TEST_OUTPUT");
    if (!dir || !dir[0]) dir = getenv("TMPDIR");
    if (!dir || !dir[0]) dir = "/tmp";
    snprintf(buf, n, "%s/xgd-unit-%ld-%s.png", dir, (long)getpid(), tag);
    return buf;
}

XGD_TEST(texture_png_roundtrip)
{
    if (!xgdt_png_or_skip(t)) return;
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    /* asymmetric 3x2 image with partial alpha */
    const uint8_t img[3 * 2 * 4] = {
        255, 0, 0, 255,   0, 255, 0, 128,   0, 0, 255, 0,
        10, 20, 30, 40,   200, 100, 50, 255, 1, 2, 3, 4,
    };
    char path[512], path2[512];
    temp_path(path, sizeof path, "in");
    temp_path(path2, sizeof path2, "out");
    REQUIRE_OK(xgd_image_save_png(path, 3, 2, img));

    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_from_png_file(dev, path, &tex));
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.width, 3);
    CHECK_INT(info.height, 2);
    CHECK_INT(info.level_count, 1);
    CHECK_INT(info.format, XGD_SURFACE_FORMAT_COLOR);
    /* FromStream's rule: a fully transparent pixel is stored as (0,0,0,0), the others as
     * the file has them (not premultiplied). */
    uint8_t loaded[sizeof img];
    for (size_t i = 0; i < sizeof img; i += 4)
        for (int k = 0; k < 4; k++) loaded[i + k] = img[i + 3] == 0 ? 0 : img[i + k];
    uint8_t out[sizeof img];
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, out, sizeof out));
    CHECK_MSG(memcmp(out, loaded, sizeof img) == 0, "PNG file decoded differently");

    CHECK_OK(xgd_texture_save_png(tex, path2));
    int w = 0, h = 0;
    uint8_t *back = NULL;
    CHECK_OK(xgd_image_load_png(path2, &w, &h, &back));
    CHECK_INT(w, 3);
    CHECK_INT(h, 2);
    if (back) CHECK_MSG(memcmp(back, loaded, sizeof img) == 0, "texture_save_png changed texels");
    xgd_free(back);

    /* from memory */
    FILE *f = fopen(path, "rb");
    REQUIRE(f);
    uint8_t bytes[4096];
    size_t n = fread(bytes, 1, sizeof bytes, f);
    fclose(f);
    xgd_texture *tex2 = NULL;
    CHECK_OK(xgd_texture2d_from_png_memory(dev, bytes, n, &tex2));
    if (tex2) {
        CHECK_OK(xgd_texture_get_data(tex2, 0, 0, NULL, out, sizeof out));
        CHECK(memcmp(out, loaded, sizeof img) == 0);
    }
    xgd_texture_destroy(tex2);

    /* failures: missing file is IO; garbage is refused and creates nothing */
    uint64_t live = live_resources(dev);
    xgd_texture *none = (xgd_texture *)(uintptr_t)1;
    remove(path2);
    CHECK_RESULT(xgd_texture2d_from_png_file(dev, path2, &none), XGD_ERROR_IO);
    CHECK(none == NULL);
    none = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_texture2d_from_png_memory(dev, "not a png at all", 16, &none),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(none == NULL);
    CHECK_INT(live_resources(dev), live);
    CHECK_RESULT(xgd_image_load_png(path2, &w, &h, &back), XGD_ERROR_IO);
    remove(path);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- RenderTargetCreationValidation ---------------------------------------------------------- */

/* "Preferred" format: a format the profile forbids becomes Color (spec 001). */
XGD_TEST(render_target_preferred_format_fallback)
{
    xgd_device *reach = make_device(t, XGD_GRAPHICS_PROFILE_REACH, true);
    REQUIRE(reach);
    xgd_texture *rt = make_rt(t, reach, 8, 8, XGD_SURFACE_FORMAT_VECTOR4, XGD_DEPTH_FORMAT_NONE,
                              0, XGD_RENDER_TARGET_USAGE_DEFAULT);
    REQUIRE(rt);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.format, XGD_SURFACE_FORMAT_COLOR);
    CHECK_INT(info.kind, XGD_RENDER_TARGET_2D);
    xgd_texture_destroy(rt);
    xgd_device_destroy(reach);

    xgd_device *hidef = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(hidef);
    xgd_format_support s;
    CHECK_OK(xgd_device_query_format(hidef, XGD_SURFACE_FORMAT_VECTOR4, &s));
    rt = make_rt(t, hidef, 8, 8, XGD_SURFACE_FORMAT_VECTOR4, XGD_DEPTH_FORMAT_NONE, 0,
                 XGD_RENDER_TARGET_USAGE_DEFAULT);
    REQUIRE(rt);
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.format, s.render_target ? XGD_SURFACE_FORMAT_VECTOR4 : XGD_SURFACE_FORMAT_COLOR);
    xgd_texture_destroy(rt);
    /* DXT can never be rendered to */
    rt = make_rt(t, hidef, 8, 8, XGD_SURFACE_FORMAT_DXT1, XGD_DEPTH_FORMAT_NONE, 0,
                 XGD_RENDER_TARGET_USAGE_DEFAULT);
    REQUIRE(rt);
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.format, XGD_SURFACE_FORMAT_COLOR);
    xgd_texture_destroy(rt);
    xgd_device_destroy(hidef);
}

/* spec 001 CreateValidatedRenderTargetRenderer: positive sizes, profile maximum, 2048:1. */
XGD_TEST(render_target_size_and_aspect)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *rt = NULL;
    CHECK_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 2048,
                                        .height = 1 }, &rt));
    xgd_texture_destroy(rt);
    rt = NULL;
    CHECK_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 1,
                                        .height = 2048 }, &rt));
    xgd_texture_destroy(rt);
    uint64_t live = live_resources(dev);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT_EITHER(xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                            .width = 4096, .height = 1 }, &rt),
                        XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    CHECK(rt == NULL);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT_EITHER(xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                            .width = 1, .height = 2049 }, &rt),
                        XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    CHECK(rt == NULL);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT_EITHER(xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                            .width = 4097, .height = 4096 }, &rt),
                        XGD_ERROR_NOT_SUPPORTED, XGD_ERROR_NOT_SUPPORTED);
    CHECK(rt == NULL);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 0,
                                            .height = 8 }, &rt), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rt == NULL);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8,
                                            .height = -8 }, &rt), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rt == NULL);
    rt = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_render_target_cube_create(dev, &(xgd_render_target_desc){ .width = 0 }, &rt),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(rt == NULL);
    CHECK_INT(live_resources(dev), live);
    xgd_device_destroy(dev);
}

static int floor_pow2(int n)
{
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

XGD_TEST(render_target_multisample_rounding)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_device_info di;
    REQUIRE_OK(xgd_device_get_info(dev, &di));
    int max = di.max_multisample_count;
    static const int req[] = { 2, 3, 4, 5, 6, 8, 9, 16, 32 };
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        xgd_texture *rt = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE,
                                  req[i], XGD_RENDER_TARGET_USAGE_DEFAULT);
        if (!rt) continue;
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(rt, &info));
        int want = floor_pow2(req[i]);
        if (want > max) want = max;
        bool ok = info.multisample_count == want ||
                  (want <= 1 && info.multisample_count >= 0 && info.multisample_count <= 1);
        CHECK_MSG(ok, "multisample %d applied as %d, expected %d (max %d)", req[i],
                  info.multisample_count, want, max);
        xgd_texture_destroy(rt);
    }
    xgd_texture *rt = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE, 0,
                              XGD_RENDER_TARGET_USAGE_DEFAULT);
    REQUIRE(rt);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    CHECK_INT(info.multisample_count, 0);
    xgd_texture_destroy(rt);
    xgd_texture *none = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8,
                                            .height = 8, .preferred_multisample_count = -2 },
                                            &none), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(none == NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(render_target_applied_depth_and_usage)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    static const struct { xgd_depth_format req, want; } depth[] = {
        { XGD_DEPTH_FORMAT_DEFAULT, XGD_DEPTH_FORMAT_NONE },
        { XGD_DEPTH_FORMAT_NONE, XGD_DEPTH_FORMAT_NONE },
        { XGD_DEPTH_FORMAT_DEPTH16, XGD_DEPTH_FORMAT_DEPTH16 },
        { XGD_DEPTH_FORMAT_DEPTH24, XGD_DEPTH_FORMAT_DEPTH24 },
        { XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8 },
    };
    for (size_t i = 0; i < sizeof depth / sizeof depth[0]; i++) {
        xgd_texture *rt = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR, depth[i].req, 0,
                                  XGD_RENDER_TARGET_USAGE_DEFAULT);
        if (!rt) continue;
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(rt, &info));
        CHECK_MSG(info.depth_format == depth[i].want, "depth %d applied as %d, expected %d",
                  (int)depth[i].req, (int)info.depth_format, (int)depth[i].want);
        CHECK_INT(info.usage, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS);
        CHECK(!info.has_cpu_shadow); /* GPU-only content (spec 001) */
        xgd_texture_destroy(rt);
    }
    static const xgd_render_target_usage usages[] = {
        XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS,
        XGD_RENDER_TARGET_USAGE_PLATFORM_CONTENTS,
    };
    for (size_t i = 0; i < 3; i++) {
        xgd_texture *rt = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE, 0,
                                  usages[i]);
        if (!rt) continue;
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(rt, &info));
        CHECK_INT(info.usage, usages[i]);
        xgd_texture_destroy(rt);
    }
    xgd_texture *cube = NULL;
    CHECK_OK(xgd_render_target_cube_create(dev, &(xgd_render_target_desc){ .width = 16,
                                           .height = 999, .mipmap = true }, &cube));
    if (cube) {
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(cube, &info));
        CHECK_INT(info.kind, XGD_RENDER_TARGET_CUBE);
        CHECK_INT(info.width, 16);
        CHECK_INT(info.height, 16);
        CHECK_INT(info.level_count, 5);
    }
    xgd_texture_destroy(cube);
    xgd_texture *none = (xgd_texture *)(uintptr_t)1;
    CHECK_RESULT(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 8,
                 .height = 8, .preferred_depth_format = XGD_DEPTH_FORMAT_COUNT }, &none),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(none == NULL);
    xgd_device_destroy(dev);
}

/* ---- SetRenderTargetsTransaction ------------------------------------------------------------ */

XGD_TEST(set_render_targets_binding_ceiling)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_render_target_binding b[5];
    memset(b, 0, sizeof b);
    for (int i = 0; i < 5; i++) b[i].target = simple_rt(t, dev, 8, 8);
    snap s;
    take_snap(dev, &s);
    CHECK_RESULT(xgd_set_render_targets(dev, b, 5), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(dev, &s, "5 bindings");
    CHECK_RESULT(xgd_set_render_targets(dev, b, -1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(dev, &s, "-1 bindings");
    CHECK_OK(xgd_set_render_targets(dev, b, 4));
    int count = 0;
    xgd_render_target_binding got[4];
    CHECK_OK(xgd_get_render_targets(dev, got, 4, &count));
    CHECK_INT(count, 4);
    for (int i = 0; i < count && i < 4; i++) CHECK(got[i].target == b[i].target);
    /* max smaller than the count: copies max, reports the count */
    count = 0;
    CHECK_OK(xgd_get_render_targets(dev, got, 1, &count));
    CHECK_INT(count, 4);
    CHECK(got[0].target == b[0].target);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    for (int i = 0; i < 5; i++) xgd_texture_destroy(b[i].target);
    xgd_device_destroy(dev);
}

XGD_TEST(set_render_targets_reach_single_target)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_REACH, true);
    REQUIRE(dev);
    xgd_render_target_binding b[2] = { { simple_rt(t, dev, 8, 8), 0 },
                                       { simple_rt(t, dev, 8, 8), 0 } };
    REQUIRE(b[0].target && b[1].target);
    snap s;
    take_snap(dev, &s);
    CHECK_RESULT(xgd_set_render_targets(dev, b, 2), XGD_ERROR_INVALID_OPERATION);
    CHECK_UNCHANGED(dev, &s, "two targets under Reach");
    CHECK_OK(xgd_set_render_targets(dev, b, 1));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(b[0].target);
    xgd_texture_destroy(b[1].target);
    xgd_device_destroy(dev);
}

/* Each refused binding leaves the bound set, viewport, scissor and counters unchanged. */
XGD_TEST(set_render_targets_refusals_leave_state)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_device *other = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(other);
    xgd_device *gone = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(gone);

    xgd_texture *a = simple_rt(t, dev, 16, 16);
    xgd_texture *b = simple_rt(t, dev, 16, 16);
    xgd_texture *small = simple_rt(t, dev, 8, 16);
    xgd_texture *wide = make_rt(t, dev, 16, 16, XGD_SURFACE_FORMAT_HALF_VECTOR4,
                                XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DEFAULT);
    xgd_texture *foreign = simple_rt(t, other, 16, 16);
    xgd_texture *shell = simple_rt(t, gone, 16, 16);
    xgd_texture *cube = NULL;
    CHECK_OK(xgd_render_target_cube_create(dev, &(xgd_render_target_desc){ .width = 16 }, &cube));
    xgd_texture *plain = NULL;
    CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 16, .height = 16 }, &plain));
    REQUIRE(a && b && small && wide && foreign && shell && cube && plain);
    xgd_device_destroy(gone); /* shell is now a disposed handle */

    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    int max_samples = di.max_multisample_count;
    xgd_texture *msaa = NULL;
    if (max_samples >= 2)
        msaa = make_rt(t, dev, 16, 16, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE, 2,
                       XGD_RENDER_TARGET_USAGE_DEFAULT);

    /* a non-trivial current state: a bound, a custom viewport and scissor */
    CHECK_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 1, 2, 5, 6, 0.25f, 0.75f }));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 3, 4, 5 }));
    snap s;
    take_snap(dev, &s);

    struct {
        const char *what;
        xgd_render_target_binding b[2];
        int count;
        xgd_result expected;
    } rows[] = {
        { "NULL target", { { NULL, 0 } }, 1, XGD_ERROR_INVALID_ARGUMENT },
        { "NULL second target", { { b, 0 }, { NULL, 0 } }, 2, XGD_ERROR_INVALID_ARGUMENT },
        { "disposed target", { { shell, 0 } }, 1, XGD_ERROR_OBJECT_DISPOSED },
        { "another device's target", { { foreign, 0 } }, 1, XGD_ERROR_INVALID_OPERATION },
        { "plain texture", { { plain, 0 } }, 1, XGD_ERROR_INVALID_OPERATION },
        { "plain texture second", { { b, 0 }, { plain, 0 } }, 2, XGD_ERROR_INVALID_OPERATION },
        { "same target twice", { { b, 0 }, { b, 0 } }, 2, XGD_ERROR_INVALID_ARGUMENT },
        { "mismatched sizes", { { b, 0 }, { small, 0 } }, 2, XGD_ERROR_INVALID_ARGUMENT },
        { "mismatched pixel sizes", { { b, 0 }, { wide, 0 } }, 2, XGD_ERROR_INVALID_ARGUMENT },
        { "cube face 6", { { cube, (xgd_cube_map_face)6 } }, 1, XGD_ERROR_INVALID_ARGUMENT },
        { "cube face -1", { { cube, (xgd_cube_map_face)-1 } }, 1, XGD_ERROR_INVALID_ARGUMENT },
        { "mismatched sample counts", { { b, 0 }, { msaa, 0 } }, 2, XGD_ERROR_INVALID_ARGUMENT },
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        if (strcmp(rows[i].what, "mismatched sample counts") == 0 && msaa == NULL)
            continue; /* the renderer has no MSAA */
        xgd_result r = xgd_set_render_targets(dev, rows[i].b, rows[i].count);
        CHECK_MSG(r == rows[i].expected, "%s: %s, expected %s (%s)", rows[i].what,
                  xgd_result_name(r), xgd_result_name(rows[i].expected),
                  xgd_device_last_error(dev));
        CHECK_UNCHANGED(dev, &s, rows[i].what);
    }
    /* the single-target helpers refuse the same way */
    CHECK_RESULT(xgd_set_render_target(dev, plain), XGD_ERROR_INVALID_OPERATION);
    CHECK_UNCHANGED(dev, &s, "set_render_target(plain)");
    CHECK_RESULT(xgd_set_render_target(dev, shell), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_UNCHANGED(dev, &s, "set_render_target(shell)");
    CHECK_RESULT(xgd_set_render_target_cube(dev, cube, (xgd_cube_map_face)9),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_UNCHANGED(dev, &s, "set_render_target_cube(face 9)");

    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(shell);
    xgd_texture_destroy(foreign);
    xgd_texture_destroy(msaa);
    xgd_texture_destroy(a);
    xgd_texture_destroy(b);
    xgd_texture_destroy(small);
    xgd_texture_destroy(wide);
    xgd_texture_destroy(cube);
    xgd_texture_destroy(plain);
    xgd_device_destroy(other);
    xgd_device_destroy(dev);
}

/* Equal bytes per pixel are compatible even when the formats differ (XNA, spec 001 step 5). */
XGD_TEST(set_render_targets_equal_pixel_size_compatible)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_format_support s;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_SINGLE, &s));
    if (!s.render_target) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "Single is not renderable on this renderer");
        return;
    }
    xgd_render_target_binding b[2] = {
        { simple_rt(t, dev, 8, 8), 0 },
        { make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_SINGLE, XGD_DEPTH_FORMAT_NONE, 0,
                  XGD_RENDER_TARGET_USAGE_DEFAULT), 0 },
    };
    REQUIRE(b[0].target && b[1].target);
    CHECK_OK(xgd_set_render_targets(dev, b, 2));
    int count = 0;
    CHECK_OK(xgd_get_render_targets(dev, NULL, 0, &count));
    CHECK_INT(count, 2);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(b[0].target);
    xgd_texture_destroy(b[1].target);
    xgd_device_destroy(dev);
}

/* An unchanged set returns at once: no viewport/scissor reset, no transition counted. */
XGD_TEST(set_render_targets_identical_set_is_noop)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *a = simple_rt(t, dev, 16, 16);
    REQUIRE(a);
    CHECK_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 1, 1, 4, 4, 0.0f, 0.5f }));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 1, 1, 2, 2 }));
    snap s;
    take_snap(dev, &s);
    CHECK_OK(xgd_set_render_target(dev, a));
    CHECK_UNCHANGED(dev, &s, "rebinding the same target");
    xgd_render_target_binding b = { a, 0 };
    CHECK_OK(xgd_set_render_targets(dev, &b, 1));
    CHECK_UNCHANGED(dev, &s, "rebinding the same set");
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

XGD_TEST(set_render_targets_empty_to_empty_is_noop)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 3, 3, 7, 7, 0.1f, 0.9f }));
    snap s;
    take_snap(dev, &s);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_UNCHANGED(dev, &s, "set_render_target(NULL) on the back buffer");
    CHECK_OK(xgd_set_render_targets(dev, NULL, 0));
    CHECK_UNCHANGED(dev, &s, "set_render_targets(NULL, 0) on the back buffer");
    xgd_device_destroy(dev);
}

/* A real change resets viewport and scissor to the first target, and back to the back buffer. */
XGD_TEST(set_render_targets_viewport_reset_on_change)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *a = simple_rt(t, dev, 24, 12);
    xgd_texture *b = simple_rt(t, dev, 10, 20);
    REQUIRE(a && b);
    xgd_statistics st0, st1;
    CHECK_OK(xgd_device_get_statistics(dev, &st0));
    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 3, 3, 7, 7, 0.1f, 0.9f }));
    CHECK_OK(xgd_set_render_target(dev, a));
    xgd_viewport vp;
    xgd_rect sc;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_INT(vp.x, 0);
    CHECK_INT(vp.y, 0);
    CHECK_INT(vp.width, 24);
    CHECK_INT(vp.height, 12);
    CHECK_NEAR(vp.min_depth, 0.0, 0.0);
    CHECK_NEAR(vp.max_depth, 1.0, 0.0);
    CHECK_INT(sc.x, 0);
    CHECK_INT(sc.width, 24);
    CHECK_INT(sc.height, 12);
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(di.render_target_bound);

    CHECK_OK(xgd_set_viewport(dev, &(xgd_viewport){ 1, 1, 2, 2, 0.0f, 1.0f }));
    CHECK_OK(xgd_set_render_target(dev, b));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.width, 10);
    CHECK_INT(vp.height, 20);

    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_INT(vp.x, 0);
    CHECK_INT(vp.width, 64);
    CHECK_INT(vp.height, 64);
    CHECK_INT(sc.width, 64);
    CHECK_INT(sc.height, 64);
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(!di.render_target_bound);
    CHECK_OK(xgd_device_get_statistics(dev, &st1));
    CHECK_INT(st1.target_changes, st0.target_changes + 3);
    xgd_texture_destroy(a);
    xgd_texture_destroy(b);
    xgd_device_destroy(dev);
}

/* Cube faces are part of the identity: another face of the same target is a change. */
XGD_TEST(set_render_targets_cube_face_identity)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *cube = NULL;
    REQUIRE_OK(xgd_render_target_cube_create(dev, &(xgd_render_target_desc){ .width = 8 }, &cube));
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_OK(xgd_set_render_target_cube(dev, cube, XGD_CUBE_MAP_FACE_POSITIVE_Y));
    xgd_render_target_binding got;
    int count = 0;
    CHECK_OK(xgd_get_render_targets(dev, &got, 1, &count));
    CHECK_INT(count, 1);
    CHECK(got.target == cube);
    CHECK_INT(got.face, XGD_CUBE_MAP_FACE_POSITIVE_Y);
    CHECK_OK(xgd_set_render_target_cube(dev, cube, XGD_CUBE_MAP_FACE_POSITIVE_Y));
    CHECK_OK(xgd_set_render_target_cube(dev, cube, XGD_CUBE_MAP_FACE_NEGATIVE_Z));
    CHECK_OK(xgd_get_render_targets(dev, &got, 1, &count));
    CHECK_INT(got.face, XGD_CUBE_MAP_FACE_NEGATIVE_Z);
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.target_changes, s0.target_changes + 2);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(cube);
    xgd_device_destroy(dev);
}

XGD_TEST(present_refused_while_target_bound)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *a = simple_rt(t, dev, 8, 8);
    REQUIRE(a);
    CHECK_OK(xgd_set_render_target(dev, a));
    snap s;
    take_snap(dev, &s);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_UNCHANGED(dev, &s, "refused present");
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_statistics st;
    CHECK_OK(xgd_device_get_statistics(dev, &st));
    CHECK_OK(xgd_present(dev));
    xgd_statistics st2;
    CHECK_OK(xgd_device_get_statistics(dev, &st2));
    CHECK_INT(st2.frames, st.frames + 1);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

XGD_TEST(device_reset_unbinds_targets)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *a = simple_rt(t, dev, 8, 8);
    REQUIRE(a);
    CHECK_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_device_reset(dev, NULL));
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, NULL, 0, &count));
    CHECK_INT(count, 0);
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(!di.render_target_bound);
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.width, 64);
    CHECK_OK(xgd_present(dev));
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* spec 001 "Bound target disposal": the public bindings are cleared, Present keeps refusing
 * until SetRenderTargets is called again, even with the empty set. */
XGD_TEST(bound_target_lifetime_basics)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *a = simple_rt(t, dev, 8, 8);
    REQUIRE(a);
    CHECK_OK(xgd_set_render_target(dev, a));
    uint64_t live = live_resources(dev);
    xgd_texture_destroy(a);
    CHECK_INT(live_resources(dev), live - 1);
    int count = -1;
    xgd_render_target_binding got = { (xgd_texture *)(uintptr_t)1, 0 };
    CHECK_OK(xgd_get_render_targets(dev, &got, 1, &count));
    CHECK_INT(count, 0);
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(di.render_target_bound);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    /* drawing-free calls still work on the back buffer */
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    /* the empty set is a real transition here */
    CHECK_OK(xgd_set_render_targets(dev, NULL, 0));
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK(!di.render_target_bound);
    CHECK_OK(xgd_present(dev));

    /* a new target (possibly at the same address) binds as a change, not a no-op */
    xgd_texture *b = simple_rt(t, dev, 12, 12);
    REQUIRE(b);
    CHECK_OK(xgd_set_render_target(dev, b));
    xgd_texture_destroy(b);
    xgd_texture *c = simple_rt(t, dev, 20, 20);
    REQUIRE(c);
    CHECK_OK(xgd_set_render_target(dev, c));
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.width, 20);
    CHECK_OK(xgd_set_render_target(dev, NULL));
    CHECK_OK(xgd_present(dev));
    xgd_texture_destroy(c);
    xgd_device_destroy(dev);
}

/* XNA 4.0 Clear: depth/stencil on a bound attachment without them is InvalidOperation. */
XGD_TEST(render_target_clear_masking)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *nodepth = simple_rt(t, dev, 8, 8);
    xgd_texture *depth = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_DEPTH24,
                                 0, XGD_RENDER_TARGET_USAGE_DEFAULT);
    xgd_texture *ds = make_rt(t, dev, 8, 8, XGD_SURFACE_FORMAT_COLOR,
                              XGD_DEPTH_FORMAT_DEPTH24_STENCIL8, 0,
                              XGD_RENDER_TARGET_USAGE_DEFAULT);
    REQUIRE(nodepth && depth && ds);
    xgd_vector4 c = { 1, 0, 0, 1 };
    CHECK_OK(xgd_set_render_target(dev, nodepth));
    snap s;
    take_snap(dev, &s);
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, c, 1.0f, 0),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_STENCIL, c, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_UNCHANGED(dev, &s, "refused clear");
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, c, 1.0f, 0));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_WHITE)); /* only the planes that exist */

    CHECK_OK(xgd_set_render_target(dev, depth));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, c, 1.0f, 0));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL, c, 1.0f, 0),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_render_target(dev, ds));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL, c,
                       0.5f, 3));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(nodepth);
    xgd_texture_destroy(depth);
    xgd_texture_destroy(ds);
    xgd_device_destroy(dev);
}

static void fill_rt(xgdt_ctx *t, xgd_texture *rt, int w, int h, xgd_color c)
{
    uint8_t *p = malloc((size_t)w * (size_t)h * 4);
    if (!p) return;
    for (int i = 0; i < w * h; i++) memcpy(p + i * 4, &c, 4);
    CHECK_OK(xgd_texture_set_data(rt, 0, 0, NULL, p, (size_t)w * (size_t)h * 4));
    free(p);
}

static xgd_color read_px(xgdt_ctx *t, xgd_texture *rt, int x, int y)
{
    xgd_color c = { 1, 2, 3, 4 };
    CHECK_OK(xgd_texture_get_data(rt, 0, 0, &(xgd_rect){ x, y, 1, 1 }, &c, 4));
    return c;
}

/* A DiscardContents first target is cleared to opaque black on a real bind; PreserveContents
 * keeps its pixels (xgd_set_render_targets). A bound target refuses set_data and get_data. */
XGD_TEST(render_target_usage_on_bind)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF, true);
    REQUIRE(dev);
    xgd_texture *discard = simple_rt(t, dev, 4, 4);
    xgd_texture *keep = make_rt(t, dev, 4, 4, XGD_SURFACE_FORMAT_COLOR, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS);
    REQUIRE(discard && keep);
    xgd_color red = { 255, 0, 0, 255 };
    fill_rt(t, discard, 4, 4, red);
    fill_rt(t, keep, 4, 4, red);
    xgd_color c = read_px(t, discard, 2, 3);
    CHECK(c.r == 255 && c.g == 0 && c.b == 0 && c.a == 255);

    CHECK_OK(xgd_set_render_target(dev, discard));
    uint8_t px[4 * 4 * 4] = { 0 };
    CHECK_RESULT(xgd_texture_set_data(discard, 0, 0, NULL, px, sizeof px),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_texture_set_data(discard, 0, 0, &(xgd_rect){ 0, 0, 1, 1 }, px, 4),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_texture_get_data(discard, 0, 0, &(xgd_rect){ 0, 0, 1, 1 }, px, 4),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_render_target(dev, keep));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    c = read_px(t, discard, 2, 3);
    CHECK_MSG(c.r == 0 && c.g == 0 && c.b == 0 && c.a == 255,
              "DiscardContents target after bind: %u %u %u %u, expected 0 0 0 255", c.r, c.g, c.b,
              c.a);
    c = read_px(t, keep, 1, 0);
    CHECK_MSG(c.r == 255 && c.g == 0 && c.b == 0 && c.a == 255,
              "PreserveContents target after bind: %u %u %u %u, expected 255 0 0 255", c.r, c.g,
              c.b, c.a);
    xgd_texture_destroy(discard);
    xgd_texture_destroy(keep);
    xgd_device_destroy(dev);
}
