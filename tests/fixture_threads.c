/*
 * fixture_threads.c - two devices on two threads (xgd.h THREADING: different devices may be
 * used from different threads concurrently).
 *
 * Two threads, released together, each create their own device of the renderer under test
 * (so they are the first users of the renderer in the process and meet whatever it initialises
 * lazily at the same moment), draw a scene many times and read the back buffer back: the first
 * image of each variant (the background changes; the threads step through the variants out of
 * phase, two variants apart) is checked against the rules it draws by
 * (clear, point and linear sampling, the blend presets, SpriteBatch, several texture formats, a
 * Color and a floating-point render target sampled back), and every later frame of the variant,
 * on the same device or on the next one (each thread destroys and recreates its device between
 * rounds), must repeat it exactly. After the join, the main thread draws each variant once on its
 * own device, alone: that single-threaded reference must equal both threads' images exactly.
 * Any state shared between devices that one thread's device disturbs (global tables, caches,
 * counters) shows up as a wrong pixel; under ThreadSanitizer (`make tsan`) the unsynchronised
 * access itself is reported.
 *
 * Rule values (expected images), with d the destination and a the source alpha:
 *   AlphaBlend (premultiplied)  rgb = s + d (1 - a)        alpha = a + da (1 - a)
 *   NonPremultiplied            rgb = s a + d (1 - a)      alpha = a a + da (1 - a)
 *   Additive                    rgb = s a + d              alpha = a a + da
 *   Opaque                      s
 * stored into an 8-bit unorm target as floor(clamp(v) * 255 + 0.5); a texel decodes by its
 * format (missing colour channels 0, missing alpha 1).
 */
#define _POSIX_C_SOURCE 200809L /* pthreads */

#include "fixture_util.h"

#include <pthread.h>

enum { W = 64, H = 32, VARIANTS = 4, THREADS = 2, RT = 8, PAT = 8 };

/* Background of each variant: opaque, so every blend below has da = 1. */
static const xgd_color CLEAR[VARIANTS] = {
    { 10, 20, 30, 255 }, { 200, 40, 90, 255 }, { 30, 160, 220, 255 }, { 90, 90, 0, 255 }
};

/* ---- texture formats drawn as sprites ------------------------------------------------------ */

typedef struct fmt_sprite {
    xgd_surface_format format;
    const char *name;
    uint8_t texel[16];       /* one texel, little-endian (DXT: one 4x4 block) */
    double value[4];         /* what the format's rule decodes it to */
} fmt_sprite;

static const fmt_sprite FORMATS[] = {
    { XGD_SURFACE_FORMAT_COLOR, "Color", { 255, 128, 0, 255 }, { 1, 128 / 255.0, 0, 1 } },
    /* r 31, g 32, b 10: 0xFC0A */
    { XGD_SURFACE_FORMAT_BGR565, "Bgr565", { 0x0A, 0xFC }, { 1, 32 / 63.0, 10 / 31.0, 1 } },
    /* a 1, r 0, g 31, b 16: 0x83F0 */
    { XGD_SURFACE_FORMAT_BGRA5551, "Bgra5551", { 0xF0, 0x83 }, { 0, 1, 16 / 31.0, 1 } },
    /* a 8, r 15, g 8, b 0: 0x8F80 */
    { XGD_SURFACE_FORMAT_BGRA4444, "Bgra4444", { 0x80, 0x8F }, { 1, 8 / 15.0, 0, 8 / 15.0 } },
    { XGD_SURFACE_FORMAT_ALPHA8, "Alpha8", { 0x40 }, { 0, 0, 0, 64 / 255.0 } },
    /* r 1023, g 512, b 0, a 2: 0x800803FF */
    { XGD_SURFACE_FORMAT_RGBA1010102, "Rgba1010102", { 0xFF, 0x03, 0x08, 0x80 },
      { 1, 512 / 1023.0, 0, 2 / 3.0 } },
    { XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, "NormalizedByte4", { 127, 64, 0, 127 },
      { 1, 64 / 127.0, 0, 1 } },
    /* 65535, 32768, 0, 65535 */
    { XGD_SURFACE_FORMAT_RGBA64, "Rgba64", { 0xFF, 0xFF, 0x00, 0x80, 0, 0, 0xFF, 0xFF },
      { 1, 32768 / 65535.0, 0, 1 } },
    /* 0.25, 0.5, 0.75, 1.0 as IEEE singles */
    { XGD_SURFACE_FORMAT_VECTOR4, "Vector4",
      { 0, 0, 0x80, 0x3E, 0, 0, 0, 0x3F, 0, 0, 0x40, 0x3F, 0, 0, 0x80, 0x3F },
      { 0.25, 0.5, 0.75, 1 } },
    /* 0.5, 0.25, 1.0, 0.75 as halves: 0x3800, 0x3400, 0x3C00, 0x3A00 */
    { XGD_SURFACE_FORMAT_HALF_VECTOR4, "HalfVector4", { 0, 0x38, 0, 0x34, 0, 0x3C, 0, 0x3A },
      { 0.5, 0.25, 1, 0.75 } },
    /* one block: c0 red (0xF800) > c1 blue (0x001F), every index 0: all red */
    { XGD_SURFACE_FORMAT_DXT1, "Dxt1", { 0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0 }, { 1, 0, 0, 1 } },
};
enum { NFMT = sizeof FORMATS / sizeof FORMATS[0] };

/* The two sprite rows of formats: tinted white, then by premultiplied half grey. */
static const xgd_color FMT_TINT[2] = { { 255, 255, 255, 255 }, { 128, 128, 128, 128 } };
static const int FMT_ROW_Y[2] = { 16, 24 };

/* The render-target cells: a Color target and a floating-point one (HdrBlendable, else
   HalfVector4, when the renderer can render to and blend one of them). */
static const xgd_color RT_CLEAR = { 0, 0, 255, 255 };
static const xgd_color RT_ALPHA = { 128, 0, 0, 128 };   /* AlphaBlend, left half */
static const xgd_color RT_NONPRE = { 0, 255, 0, 64 };   /* NonPremultiplied, bottom right */
/* Clear (0.25, 0.375, 0.125, 1) plus Additive (32, 96, 64, 255): 95.75, 191.625, 95.875 of 255
   and alpha 2, far enough from a rounding boundary that half-float storage cannot move them. */
static const xgd_vector4 HDR_CLEAR = { 0.25f, 0.375f, 0.125f, 1.0f };
static const xgd_color HDR_ADD = { 32, 96, 64, 255 };

/* Blended rectangles on the back buffer, x [24, 48) in three 8-pixel columns. */
static const xgd_color BB_ALPHA = { 128, 64, 0, 128 };
static const xgd_color BB_NONPRE = { 255, 0, 64, 96 };
static const xgd_color BB_ADD = { 40, 80, 120, 128 };

static xgd_color pattern_texel(int x, int y)
{
    return fx_rgba(x * 32 + 16, y * 32 + 8, (x ^ y) * 20 + 50, 255);
}

/* 2x2 texture sampled linearly */
static const xgd_color QUAD[4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 },
                                   { 0, 0, 255, 255 }, { 255, 255, 255, 255 } };

/* ---- the rules ------------------------------------------------------------------------------ */

typedef enum blend_kind { B_OPAQUE, B_ALPHA, B_NONPRE, B_ADD } blend_kind;

static void to_unit(xgd_color c, double v[4])
{
    v[0] = c.r / 255.0;
    v[1] = c.g / 255.0;
    v[2] = c.b / 255.0;
    v[3] = c.a / 255.0;
}

static void blend(blend_kind k, const double s[4], const double d[4], double o[4])
{
    double a = s[3];
    for (int i = 0; i < 4; i++) {
        switch (k) {
        case B_OPAQUE: o[i] = s[i]; break;
        case B_ALPHA: o[i] = s[i] + d[i] * (1 - a); break;
        case B_NONPRE: o[i] = s[i] * a + d[i] * (1 - a); break;
        case B_ADD: o[i] = s[i] * a + d[i]; break;
        }
    }
}

static xgd_color q8c(const double v[4])
{
    return fx_rgba(fx_q8(v[0]), fx_q8(v[1]), fx_q8(v[2]), fx_q8(v[3]));
}

/* What the renderer supports of the optional parts; the same for every device of a renderer. */
typedef struct scene_support {
    bool fmt[NFMT];
    xgd_surface_format hdr;  /* XGD_SURFACE_FORMAT_DEFAULT: no floating-point target cell */
} scene_support;

/* The back buffer of one variant, derived from the rules above. */
static void expected_scene(int variant, const scene_support *sup, uint8_t *img)
{
    xgd_color bg = CLEAR[variant];
    double d[4], s[4], o[4];
    to_unit(bg, d);
    fx_fill(img, W, H, 0, 0, W, H, bg);
    /* point: an 8x8 texture over 16x16 pixels, pixel x reads texel floor((x + 0.5) / 2) */
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) fx_put(img, W, x, y, pattern_texel(x / 2, y / 2));
    /* linear, clamp: a 2x2 texture over 8x8 pixels samples at texel (x + 0.5) / 4 - 0.5 */
    for (int y = 0; y < 8; y++) {
        for (int x = 0; x < 8; x++) {
            double tu = (x + 0.5) / 4 - 0.5, tv = (y + 0.5) / 4 - 0.5;
            double fu = tu - floor(tu), fv = tv - floor(tv);
            int u0 = (int)floor(tu), v0 = (int)floor(tv);
            int u1 = u0 + 1, v1 = v0 + 1;
            u0 = u0 < 0 ? 0 : u0 > 1 ? 1 : u0;
            u1 = u1 < 0 ? 0 : u1 > 1 ? 1 : u1;
            v0 = v0 < 0 ? 0 : v0 > 1 ? 1 : v0;
            v1 = v1 < 0 ? 0 : v1 > 1 ? 1 : v1;
            double t00[4], t10[4], t01[4], t11[4];
            to_unit(QUAD[v0 * 2 + u0], t00);
            to_unit(QUAD[v0 * 2 + u1], t10);
            to_unit(QUAD[v1 * 2 + u0], t01);
            to_unit(QUAD[v1 * 2 + u1], t11);
            for (int c = 0; c < 4; c++)
                o[c] = (t00[c] * (1 - fu) + t10[c] * fu) * (1 - fv) +
                       (t01[c] * (1 - fu) + t11[c] * fu) * fv;
            fx_put(img, W, 16 + x, y, q8c(o));
        }
    }
    /* blended rectangles over the background */
    const xgd_color cols[3] = { BB_ALPHA, BB_NONPRE, BB_ADD };
    const blend_kind kinds[3] = { B_ALPHA, B_NONPRE, B_ADD };
    for (int i = 0; i < 3; i++) {
        to_unit(cols[i], s);
        blend(kinds[i], s, d, o);
        fx_fill(img, W, H, 24 + 8 * i, 0, 32 + 8 * i, 16, q8c(o));
    }
    /* the Color render target: cleared, AlphaBlend left half, NonPremultiplied bottom right,
       stored as 8-bit and drawn back 1:1 with Opaque */
    double rc[4];
    to_unit(RT_CLEAR, rc);
    fx_fill(img, W, H, 48, 0, 56, 8, RT_CLEAR);
    to_unit(RT_ALPHA, s);
    blend(B_ALPHA, s, rc, o);
    fx_fill(img, W, H, 48, 0, 52, 8, q8c(o));
    to_unit(RT_NONPRE, s);
    blend(B_NONPRE, s, rc, o);
    fx_fill(img, W, H, 52, 4, 56, 8, q8c(o));
    /* the floating-point target: clear + Additive, unclamped until the Color back buffer */
    if (sup->hdr != XGD_SURFACE_FORMAT_DEFAULT) {
        double hc[4] = { HDR_CLEAR.x, HDR_CLEAR.y, HDR_CLEAR.z, HDR_CLEAR.w };
        to_unit(HDR_ADD, s);
        blend(B_ADD, s, hc, o);
        fx_fill(img, W, H, 56, 0, 64, 8, q8c(o));
    }
    /* the pattern as a sprite flipped horizontally (AlphaBlend of opaque texels: the texels) */
    for (int y = 0; y < PAT; y++)
        for (int x = 0; x < PAT; x++) fx_put(img, W, 48 + x, 8 + y, pattern_texel(PAT - 1 - x, y));
    /* format sprites under AlphaBlend: source = texel * tint */
    for (int row = 0; row < 2; row++) {
        double tint[4];
        to_unit(FMT_TINT[row], tint);
        for (int f = 0; f < NFMT; f++) {
            if (!sup->fmt[f]) continue;
            for (int c = 0; c < 4; c++) s[c] = FORMATS[f].value[c] * tint[c];
            blend(B_ALPHA, s, d, o);
            fx_fill(img, W, H, f * 4, FMT_ROW_Y[row], f * 4 + 4, FMT_ROW_Y[row] + 4, q8c(o));
        }
    }
}

/* ---- one device's scene --------------------------------------------------------------------- */

typedef struct scene {
    xgd_device *dev;
    xgd_effect *fx;
    xgd_texture *pattern, *quad, *rt_color, *rt_hdr, *fmt[NFMT];
    xgd_sprite_batch *sb;
    scene_support sup;
} scene;

/* Like CHECK_OK, with the message of the scene's own device (the harness's last-message slot
   belongs to the main thread). */
#define SCENE_OK(expr)                                                                      \
    do {                                                                                    \
        xgd_result scene_r_ = (expr);                                                       \
        if (scene_r_ != XGD_OK) {                                                           \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s returned %s (%s)", #expr,               \
                         xgd_result_name(scene_r_), xgd_device_last_error(s->dev));         \
            ok = false;                                                                     \
        }                                                                                   \
    } while (0)

static void scene_destroy(scene *s)
{
    xgd_sprite_batch_destroy(s->sb);
    xgd_effect_destroy(s->fx);
    xgd_texture_destroy(s->pattern);
    xgd_texture_destroy(s->quad);
    xgd_texture_destroy(s->rt_color);
    xgd_texture_destroy(s->rt_hdr);
    for (int f = 0; f < NFMT; f++) xgd_texture_destroy(s->fmt[f]);
    xgd_device_destroy(s->dev);
    memset(s, 0, sizeof *s);
}

/* Creates the scene's resources on s->dev and fills s->sup from what the device reports. */
static bool scene_create(xgdt_ctx *t, scene *s)
{
    bool ok = true;
    uint8_t pat[PAT * PAT * 4], quad[2 * 2 * 4];
    for (int y = 0; y < PAT; y++)
        for (int x = 0; x < PAT; x++) fx_put(pat, PAT, x, y, pattern_texel(x, y));
    for (int i = 0; i < 4; i++) fx_put(quad, 2, i % 2, i / 2, QUAD[i]);
    s->pattern = xgdt_image_texture(t, s->dev, PAT, PAT, pat);
    s->quad = xgdt_image_texture(t, s->dev, 2, 2, quad);
    if (!s->pattern || !s->quad) return false;
    SCENE_OK(xgd_basic_effect_create(s->dev, &s->fx));
    SCENE_OK(xgd_sprite_batch_create(s->dev, &s->sb));
    xgd_render_target_desc rd = { .width = RT, .height = RT,
                                  .usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS };
    SCENE_OK(xgd_render_target2d_create(s->dev, &rd, &s->rt_color));
    if (!ok) return false;

    const xgd_surface_format hdr_choices[2] = { XGD_SURFACE_FORMAT_HDR_BLENDABLE,
                                                XGD_SURFACE_FORMAT_HALF_VECTOR4 };
    s->sup.hdr = XGD_SURFACE_FORMAT_DEFAULT;
    for (int i = 0; i < 2 && s->sup.hdr == XGD_SURFACE_FORMAT_DEFAULT; i++) {
        xgd_format_support fs;
        SCENE_OK(xgd_device_query_format(s->dev, hdr_choices[i], &fs));
        if (fs.render_target && fs.blendable) s->sup.hdr = hdr_choices[i];
    }
    if (s->sup.hdr != XGD_SURFACE_FORMAT_DEFAULT) {
        rd.preferred_format = s->sup.hdr;
        SCENE_OK(xgd_render_target2d_create(s->dev, &rd, &s->rt_hdr));
        xgd_texture_info info;
        if (s->rt_hdr && xgd_texture_get_info(s->rt_hdr, &info) == XGD_OK)
            CHECK_INT(info.format, s->sup.hdr);
    }
    for (int f = 0; f < NFMT; f++) {
        xgd_format_support fs;
        SCENE_OK(xgd_device_query_format(s->dev, FORMATS[f].format, &fs));
        s->sup.fmt[f] = fs.texture;
        if (!fs.texture) continue;
        xgd_texture2d_desc td = { .width = 4, .height = 4, .format = FORMATS[f].format };
        SCENE_OK(xgd_texture2d_create(s->dev, &td, &s->fmt[f]));
        if (!s->fmt[f]) continue;
        uint8_t data[16 * 16];
        size_t size = xgd_surface_format_size(FORMATS[f].format, 4, 4);
        int es = xgd_surface_format_element_size(FORMATS[f].format);
        if (!(size <= sizeof data && es > 0 && es <= 16 && size % (size_t)es == 0)) {
            xgdt_fail_at(t, __FILE__, __LINE__, "%s: size %zu, element size %d", FORMATS[f].name,
                         size, es);
            return false;
        }
        for (size_t o = 0; o < size; o += (size_t)es)
            memcpy(data + o, FORMATS[f].texel, (size_t)es);
        SCENE_OK(xgd_texture_set_data(s->fmt[f], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, data,
                                      size));
    }
    return ok;
}

static bool set_basic(xgdt_ctx *t, scene *s, xgd_texture *tex)
{
    bool ok = true;
    xgd_basic_effect_params p;
    xgd_basic_effect_get(s->fx, &p);
    p.vertex_color_enabled = true;
    p.texture_enabled = tex != NULL;
    SCENE_OK(xgd_basic_effect_set(s->fx, &p));
    SCENE_OK(xgd_basic_effect_set_texture(s->fx, tex));
    SCENE_OK(xgd_effect_apply(s->fx));
    return ok;
}

/* Draws one variant of the scene and reads the back buffer into *out (malloc'd). */
static bool scene_draw(xgdt_ctx *t, scene *s, int variant, uint8_t **out)
{
    bool ok = true;
    xgd_device *dev = s->dev;
    *out = NULL;
    xgd_blend_state *opaque = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
    xgd_blend_state *alpha = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND);
    xgd_blend_state *nonpre = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_NON_PREMULTIPLIED);
    xgd_blend_state *add = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
    xgd_sampler_state *point = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    xgd_sampler_state *linear = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
    if (!(opaque && alpha && nonpre && add && point && linear)) {
        xgdt_fail_at(t, __FILE__, __LINE__, "a state preset is missing");
        return false;
    }

    /* render targets first: binding the back buffer again may discard its contents */
    SCENE_OK(xgd_set_render_target(dev, s->rt_color));
    SCENE_OK(xgd_clear_color(dev, RT_CLEAR));
    if (!set_basic(t, s, NULL)) ok = false;
    SCENE_OK(xgd_set_blend_state(dev, alpha));
    SCENE_OK(fx_rect(dev, RT, RT, 0, 0, 4, 8, 0, RT_ALPHA));
    SCENE_OK(xgd_set_blend_state(dev, nonpre));
    SCENE_OK(fx_rect(dev, RT, RT, 4, 4, 8, 8, 0, RT_NONPRE));
    if (s->rt_hdr) {
        SCENE_OK(xgd_set_render_target(dev, s->rt_hdr));
        SCENE_OK(xgd_clear(dev, XGD_CLEAR_TARGET, HDR_CLEAR, 1.0f, 0));
        SCENE_OK(xgd_set_blend_state(dev, add));
        SCENE_OK(fx_rect(dev, RT, RT, 0, 0, 8, 8, 0, HDR_ADD));
    }
    SCENE_OK(xgd_set_render_target(dev, NULL));
    SCENE_OK(xgd_clear_color(dev, CLEAR[variant]));

    /* BasicEffect: point and linear sampling (Opaque), then the three blended rectangles */
    SCENE_OK(xgd_set_blend_state(dev, opaque));
    SCENE_OK(xgd_set_sampler_state(dev, 0, point));
    if (!set_basic(t, s, s->pattern)) ok = false;
    SCENE_OK(fx_tex_rect(dev, W, H, 0, 0, 16, 16, 0, 0, 1, 1, XGD_COLOR_WHITE));
    SCENE_OK(xgd_set_sampler_state(dev, 0, linear));
    if (!set_basic(t, s, s->quad)) ok = false;
    SCENE_OK(fx_tex_rect(dev, W, H, 16, 0, 24, 8, 0, 0, 1, 1, XGD_COLOR_WHITE));
    if (!set_basic(t, s, NULL)) ok = false;
    SCENE_OK(xgd_set_blend_state(dev, alpha));
    SCENE_OK(fx_rect(dev, W, H, 24, 0, 32, 16, 0, BB_ALPHA));
    SCENE_OK(xgd_set_blend_state(dev, nonpre));
    SCENE_OK(fx_rect(dev, W, H, 32, 0, 40, 16, 0, BB_NONPRE));
    SCENE_OK(xgd_set_blend_state(dev, add));
    SCENE_OK(fx_rect(dev, W, H, 40, 0, 48, 16, 0, BB_ADD));

    /* SpriteBatch: the targets 1:1 with Opaque, then AlphaBlend sprites */
    xgd_sprite_batch_begin_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.blend_state = opaque;
    bd.sampler_state = point;
    SCENE_OK(xgd_sprite_batch_begin(s->sb, &bd));
    xgd_rect dst = { 48, 0, RT, RT };
    xgd_sprite sp = { .destination = &dst, .color = XGD_COLOR_WHITE };
    SCENE_OK(xgd_sprite_batch_draw(s->sb, s->rt_color, &sp));
    if (s->rt_hdr) {
        dst.x = 56;
        SCENE_OK(xgd_sprite_batch_draw(s->sb, s->rt_hdr, &sp));
    }
    SCENE_OK(xgd_sprite_batch_end(s->sb));
    bd.blend_state = alpha;
    SCENE_OK(xgd_sprite_batch_begin(s->sb, &bd));
    sp = (xgd_sprite){ .destination = &(xgd_rect){ 48, 8, PAT, PAT }, .color = XGD_COLOR_WHITE,
                       .effects = XGD_SPRITE_FLIP_HORIZONTALLY };
    SCENE_OK(xgd_sprite_batch_draw(s->sb, s->pattern, &sp));
    for (int row = 0; row < 2; row++) {
        for (int f = 0; f < NFMT; f++) {
            if (!s->fmt[f]) continue;
            sp = (xgd_sprite){ .destination = &(xgd_rect){ f * 4, FMT_ROW_Y[row], 4, 4 },
                               .color = FMT_TINT[row] };
            SCENE_OK(xgd_sprite_batch_draw(s->sb, s->fmt[f], &sp));
        }
    }
    SCENE_OK(xgd_sprite_batch_end(s->sb));
    if (!ok) return false;
    return xgdt_read_back_buffer(t, dev, W, H, out);
}

/* ---- the threads ---------------------------------------------------------------------------- */

typedef struct thread_log {
    int validation;          /* Vulkan validation / D3D12 debug-layer messages: each a failure */
} thread_log;

static void log_to_thread(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    thread_log *l = user;
    (void)code;
    if (level != XGD_LOG_ERROR && message != NULL &&
        (strncmp(message, "vulkan validation:", 18) == 0 ||
         strncmp(message, "d3d12 debug layer:", 18) == 0)) {
        l->validation++;
        printf("  [thread device] %s\n", message);
    }
}

/* Holds the threads until every one exists, then releases them together (or tells them to
   give up when one could not be started). */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int state;               /* 0 waiting, 1 go, -1 give up */
} gate;

static bool gate_wait(gate *g)
{
    pthread_mutex_lock(&g->lock);
    while (g->state == 0) pthread_cond_wait(&g->cond, &g->lock);
    int state = g->state;
    pthread_mutex_unlock(&g->lock);
    return state > 0;
}

static void gate_open(gate *g, int state)
{
    pthread_mutex_lock(&g->lock);
    g->state = state;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

typedef struct worker {
    xgdt_ctx t;              /* this thread's own copy: failures are summed after the join */
    int index, rounds, frames;
    struct gate *start;
    bool no_device;          /* a GPU renderer without a device (NO_SUITABLE_DEVICE or
                                NOT_SUPPORTED) */
    scene_support sup;       /* what this thread's first device reported */
    uint8_t *first[VARIANTS];/* the thread's first image of each variant */
    int frames_checked;
    thread_log log;
} worker;

/* Compares through the harness region by region: the upper half, each format's column of
   sprites, the rest. A failure then names the region, and the images saved for the
   cross-renderer agreement check (XGD_TEST_SAVE_IMAGES) never depend on which formats a
   renderer can sample. */
static bool compare_regions(xgdt_ctx *t, const scene_support *sup, const char *label,
                            const uint8_t *actual, const uint8_t *expected, int tolerance)
{
    enum { MAXR = NFMT + 2 };
    struct { int x, y, w, h; char name[48]; } r[MAXR];
    int n = 0;
    r[n].x = 0, r[n].y = 0, r[n].w = W, r[n].h = 16;
    snprintf(r[n++].name, sizeof r[0].name, "upper");
    for (int f = 0; f < NFMT; f++) {
        r[n].x = f * 4, r[n].y = 16, r[n].w = 4, r[n].h = H - 16;
        snprintf(r[n++].name, sizeof r[0].name, "%s%s", FORMATS[f].name,
                 sup->fmt[f] ? "" : "_unsampled");
    }
    r[n].x = NFMT * 4, r[n].y = 16, r[n].w = W - NFMT * 4, r[n].h = H - 16;
    snprintf(r[n++].name, sizeof r[0].name, "rest");
    bool ok = true;
    uint8_t a[W * H * 4], e[W * H * 4];
    for (int i = 0; i < n; i++) {
        for (int y = 0; y < r[i].h; y++) {
            size_t from = ((size_t)(r[i].y + y) * W + (size_t)r[i].x) * 4;
            memcpy(a + (size_t)y * (size_t)r[i].w * 4, actual + from, (size_t)r[i].w * 4);
            memcpy(e + (size_t)y * (size_t)r[i].w * 4, expected + from, (size_t)r[i].w * 4);
        }
        char full[128];
        snprintf(full, sizeof full, "%s_%s", label, r[i].name);
        if (!xgdt_compare_rgba(t, full, a, e, r[i].w, r[i].h, tolerance)) ok = false;
    }
    return ok;
}

/* The same comparison, quietly when the images match (only a difference is reported and
   saved). */
static bool check_image(xgdt_ctx *t, const scene_support *sup, const char *label,
                        const uint8_t *actual, const uint8_t *expected, int tolerance)
{
    bool within = true;
    for (size_t i = 0; within && i < (size_t)W * H * 4; i++) {
        int d = (int)actual[i] - (int)expected[i];
        within = d <= tolerance && -d <= tolerance;
    }
    return within || compare_regions(t, sup, label, actual, expected, tolerance);
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    xgdt_ctx *t = &w->t;
    uint8_t *expected[VARIANTS] = { 0 };
    /* Both threads create their first device and draw at the same moment. */
    if (!gate_wait(w->start)) return NULL;
    for (int round = 0; round < w->rounds && t->failures == 0; round++) {
        scene sc;
        scene *s = &sc;
        memset(s, 0, sizeof *s);
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.renderer = t->renderer;
        dd.pp.back_buffer_width = W;
        dd.pp.back_buffer_height = H;
        dd.pp.headless = true;
        dd.log = log_to_thread;
        dd.log_user = &w->log;
        /* D3D10 centres: tests threads, not the centre rule; expectations assume .5 */
        dd.pixel_center = XGD_PIXEL_CENTER_D3D10;
        xgd_result r = xgd_device_create(&dd, &s->dev);
        if (r != XGD_OK && t->renderer != XGD_RENDERER_SOFTWARE &&
            (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED)) {
            w->no_device = true; /* the main thread's device below says whether that is so */
            break;
        }
        if (r != XGD_OK) {
            xgdt_fail_at(t, __FILE__, __LINE__, "thread %d: xgd_device_create returned %s (%s)",
                         w->index, xgd_result_name(r), xgd_device_last_error(NULL));
            break;
        }
        if (scene_create(t, s)) {
            if (round == 0) {
                w->sup = s->sup;
                for (int v = 0; v < VARIANTS; v++) {
                    expected[v] = malloc((size_t)W * H * 4);
                    if (expected[v]) expected_scene(v, &w->sup, expected[v]);
                    else xgdt_fail_at(t, __FILE__, __LINE__, "out of memory");
                }
            }
            bool same = s->sup.hdr == w->sup.hdr;
            for (int f = 0; f < NFMT; f++) same = same && s->sup.fmt[f] == w->sup.fmt[f];
            CHECK_MSG(same, "thread %d: a later device reports other format support", w->index);
            for (int f = 0; f < w->frames && t->failures == 0; f++) {
                /* the threads step through the variants out of phase */
                int v = (f + w->index * 2 + round) % VARIANTS;
                uint8_t *img = NULL;
                if (!scene_draw(t, s, v, &img)) break;
                char label[64];
                snprintf(label, sizeof label, "thread%d_round%d_frame%d_variant%d", w->index,
                         round, f, v);
                if (w->first[v] == NULL) {
                    /* the rules; later frames of the variant must repeat this image exactly */
                    check_image(t, &w->sup, label, img, expected[v], 1);
                    w->first[v] = img;
                } else {
                    check_image(t, &w->sup, label, img, w->first[v], 0);
                    free(img);
                }
                w->frames_checked++;
            }
        }
        scene_destroy(s);
    }
    for (int v = 0; v < VARIANTS; v++) free(expected[v]);
    CHECK_MSG(w->log.validation == 0, "thread %d: %d validation messages", w->index,
              w->log.validation);
    return NULL;
}

XGD_FIXTURE(Threads_TwoDevices)
{
    /* The threads come first, so that they are the first users of the renderer in the process:
       whatever the renderer initialises lazily, two threads meet it at once. */
    bool gpu = t->renderer != XGD_RENDERER_SOFTWARE;
    worker w[THREADS];
    pthread_t th[THREADS];
    bool started[THREADS] = { false };
    gate start = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
    for (int i = 0; i < THREADS; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].t = *t;
        w[i].t.failures = 0;
        w[i].index = i;
        /* enough frames that the two threads' draws overlap for a long time; fewer on the GPU
           renderers, whose device creation and readbacks cost far more */
        w[i].rounds = gpu ? 2 : 4;
        w[i].frames = gpu ? 6 : 25;
        w[i].start = &start;
    }
    bool all = true;
    for (int i = 0; i < THREADS; i++) {
        int e = pthread_create(&th[i], NULL, worker_main, &w[i]);
        CHECK_MSG(e == 0, "pthread_create returned %d", e);
        started[i] = e == 0;
        all = all && started[i];
    }
    gate_open(&start, all ? 1 : -1);
    for (int i = 0; i < THREADS; i++) {
        if (!started[i]) continue;
        pthread_join(th[i], NULL);
        t->failures += w[i].t.failures;
        printf("  thread %d: %d of %d frames checked, %d devices in turn\n", i,
               w[i].frames_checked, w[i].rounds * w[i].frames, w[i].rounds);
    }
    pthread_mutex_destroy(&start.lock);
    pthread_cond_destroy(&start.cond);
    /* A GPU renderer without a device reports NOT SUPPORTED here, as the threads found. */
    scene sc;
    scene *s = &sc;
    memset(s, 0, sizeof *s);
    s->dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    if (s->dev && all) {
        for (int i = 0; i < THREADS; i++)
            CHECK_MSG(!w[i].no_device, "thread %d found no %s device, this thread did", i,
                      t->renderer_name);
    }
    if (s->dev && t->failures == 0) {
        for (int i = 0; i < THREADS; i++)
            CHECK_MSG(w[i].frames_checked == w[i].rounds * w[i].frames,
                      "thread %d checked %d of %d frames", i, w[i].frames_checked,
                      w[i].rounds * w[i].frames);
        /* The single-threaded reference: the same scene on one device, on this thread alone. */
        uint8_t *expected = malloc((size_t)W * H * 4);
        bool ok = expected != NULL && scene_create(t, s);
        for (int f = 0; ok && f < NFMT; f++)
            if (!s->sup.fmt[f])
                printf("  note: %s is not sampleable on %s; its sprites are left out\n",
                       FORMATS[f].name, t->renderer_name);
        if (ok && s->sup.hdr == XGD_SURFACE_FORMAT_DEFAULT)
            printf("  note: no blendable floating-point render target on %s; cell left out\n",
                   t->renderer_name);
        for (int v = 0; ok && v < VARIANTS; v++) {
            uint8_t *ref = NULL;
            if (!scene_draw(t, s, v, &ref)) break;
            expected_scene(v, &s->sup, expected);
            char label[48];
            snprintf(label, sizeof label, "reference_variant%d", v);
            compare_regions(t, &s->sup, label, ref, expected, 1);
            for (int i = 0; i < THREADS; i++) {
                snprintf(label, sizeof label, "thread%d_variant%d_vs_reference", i, v);
                if (w[i].first[v]) check_image(t, &s->sup, label, w[i].first[v], ref, 0);
            }
            free(ref);
        }
        free(expected);
    }
    scene_destroy(s);
    for (int i = 0; i < THREADS; i++)
        for (int v = 0; v < VARIANTS; v++) free(w[i].first[v]);
}
