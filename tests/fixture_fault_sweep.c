/*
 * fixture_fault_sweep.c - a fault at every renderer operation of a small scene, and recovery.
 *
 * The scene is what a game does in its first frames: it creates a mipmapped Texture2D, a
 * TextureCube, a Texture3D (where the renderer has volumes), render targets (an MRT pair with
 * depth, a multisampled one), a dynamic vertex buffer, an index buffer, state objects and an
 * occlusion query, then renders three frames: each rewrites the vertex buffer, draws into the
 * targets under the query, samples the first target onto the back buffer and presents.
 *
 * A first run counts the fallible renderer calls the scene makes (the debug hook's "any
 * operation" mode, src/core/fault.c). Then, for each index k (every one on the software
 * renderer, twice: a transient OUT_OF_MEMORY and a DEVICE_LOST; 16 spread over the range on
 * the GPU renderers, alternating the two), a fresh device runs the scene with the k-th call
 * failing. The scene reacts as an XNA game would: the failed call must return an error with a
 * message; a transient failure changed nothing, so the call is made again; a loss is answered
 * with xgd_device_restore_context and, inside a frame, the frame is drawn again from its start
 * (render targets come back with content lost; textures and buffers come back from their CPU
 * copies). Afterwards every texel of every texture level, face and slice and of every target,
 * the back buffer and every byte of both buffers are read back, the textures and buffers both
 * through the public calls (which read the CPU copies) and from the renderer's own storage,
 * and compared with what the scene's data says they hold: the bytes uploaded, the last frame's
 * clear colours and rectangles. The occlusion count of every frame is the rectangle's area.
 */
#include "fixture_util.h"
#include "internal.h" /* the debug fault hook and the native objects behind the handles */

/* The internal struct behind a public handle (white-box reads of native objects). */
#define OBJ(type, handle) ((type *)XGDI_OBJECT(handle))

#include <stdio.h>

enum { W = 16, H = 16, FRAMES = 3, TEX = 8, TEX_LEVELS = 4, CUBE = 4, VW = 4, VH = 4, VD = 2 };

/* Per frame: clear colours and rectangle colours, all different, so a stale frame shows. */
static const xgd_color CLEAR_A[FRAMES] = { { 10, 20, 30, 255 }, { 40, 50, 60, 255 }, { 70, 80, 90, 255 } };
static const xgd_color CLEAR_MS[FRAMES] = { { 200, 10, 10, 255 }, { 10, 200, 10, 255 }, { 10, 10, 200, 255 } };
static const xgd_color CLEAR_BB = { 1, 2, 3, 255 };
static const xgd_color QUAD0[FRAMES] = { { 255, 128, 0, 255 }, { 0, 255, 128, 255 }, { 128, 0, 255, 255 } };
static const xgd_color QUAD1[FRAMES] = { { 250, 250, 0, 255 }, { 0, 250, 250, 255 }, { 250, 0, 250, 255 } };
/* The rectangles, in pixels: quad 0 (MRT pair, counted by the query) and quad 1 (MSAA). */
static const int R0[4] = { 4, 4, 12, 12 }, R1[4] = { 2, 6, 10, 14 };

typedef struct sweep {
    xgdt_ctx *t;
    xgd_device *dev;
    int k;                       /* the failing call (0: none) */
    xgd_result code;
    bool mrt, volume;
    int msaa;
    xgd_texture *tex, *cube, *vol, *rt_a, *rt_b, *rt_ms;
    xgd_vertex_buffer *vb;
    xgd_index_buffer *ib;
    xgd_blend_state *blend;
    xgd_depth_stencil_state *ds;
    xgd_rasterizer_state *rs;
    xgd_sampler_state *ss;
    xgd_occlusion_query *query;
    xgd_effect *basic, *textured, *mrt_fx;
    int failures, losses;
    bool broken;                 /* a check failed: the run is abandoned */
    /* CPU copies of everything uploaded */
    uint8_t tex_data[TEX_LEVELS][TEX * TEX * 4];
    uint8_t cube_data[6][CUBE * CUBE * 4];
    uint8_t vol_data[VW * VH * VD * 4];
    xgd_vertex_position_color vb_data[8];
    uint16_t ib_data[12];
} sweep;

/* Deterministic bytes that differ per object, level and position. */
static void pattern(uint8_t *p, size_t n, unsigned seed)
{
    uint32_t x = 2166136261u ^ seed;
    for (size_t i = 0; i < n; i++) {
        x ^= (uint32_t)i;
        x *= 16777619u;
        p[i] = (uint8_t)(x >> 13);
    }
}

#define SWEEP_FAIL(s, ...)                                                                    \
    do {                                                                                      \
        char m_[400];                                                                         \
        snprintf(m_, sizeof m_, __VA_ARGS__);                                                 \
        xgdt_fail_at((s)->t, __FILE__, __LINE__, "fault at call %d (%s): %s", (s)->k,         \
                     xgd_result_name((s)->code), m_);                                         \
        (s)->broken = true;                                                                   \
    } while (0)

/* The program's answer to a failed call. Checks the failure carries a message, restores a lost
 * device. Returns false when the run cannot go on; sets *lost after a restore. */
static bool on_failure(sweep *s, xgd_result r, const char *what, bool *lost)
{
    s->failures++;
    const char *msg = xgd_device_last_error(s->dev);
    if (msg == NULL || msg[0] == '\0') SWEEP_FAIL(s, "%s returned %s with no message", what, xgd_result_name(r));
    if (xgd_device_last_result(s->dev) != r)
        SWEEP_FAIL(s, "%s returned %s but the device's last result is %s", what, xgd_result_name(r),
                   xgd_result_name(xgd_device_last_result(s->dev)));
    if (s->k == 0 || s->failures > 1) {
        SWEEP_FAIL(s, "%s returned %s (%s) where no fault was injected", what, xgd_result_name(r), msg);
        return false;
    }
    if (r != s->code)
        SWEEP_FAIL(s, "%s returned %s, expected the injected %s (%s)", what, xgd_result_name(r),
                   xgd_result_name(s->code), msg);
    xgd_device_info info;
    if (xgd_device_get_info(s->dev, &info) != XGD_OK) {
        SWEEP_FAIL(s, "xgd_device_get_info failed after %s", what);
        return false;
    }
    if (r == XGD_ERROR_DEVICE_LOST && !info.lost)
        SWEEP_FAIL(s, "%s returned DEVICE_LOST on a device that is not lost", what);
    if (info.lost) {
        xgd_result rr = xgd_device_restore_context(s->dev);
        if (rr != XGD_OK) {
            SWEEP_FAIL(s, "xgd_device_restore_context after %s returned %s (%s)", what,
                       xgd_result_name(rr), xgd_device_last_error(s->dev));
            return false;
        }
        if (xgd_device_get_info(s->dev, &info) != XGD_OK || info.lost || info.last_recovery_failures != 0) {
            SWEEP_FAIL(s, "restore after %s left the device lost or %d resources unrecovered", what,
                       info.last_recovery_failures);
            return false;
        }
        s->losses++;
        *lost = true;
    }
    return !s->broken;
}

/* Setup calls: retried after a transient failure and after a restore (creations and uploads
 * made before the loss came back with the device). */
#define SETUP(expr)                                                                           \
    do {                                                                                      \
        xgd_result r_;                                                                        \
        bool lost_ = false;                                                                   \
        while ((r_ = (expr)) != XGD_OK)                                                       \
            if (!on_failure(s, r_, #expr, &lost_)) return false;                              \
    } while (0)

/* Frame calls: retried after a transient failure; after a loss the frame starts again, since
 * the render targets lost what the frame drew into them. */
#define FRAME(expr)                                                                           \
    do {                                                                                      \
        xgd_result r_;                                                                        \
        bool lost_ = false;                                                                   \
        while ((r_ = (expr)) != XGD_OK) {                                                     \
            if (!on_failure(s, r_, #expr, &lost_)) return false;                              \
            if (lost_) goto restart;                                                          \
        }                                                                                     \
    } while (0)

static xgd_vertex_position_color vpc(int x, int y, xgd_color c)
{
    return fx_vpc((float)x, (float)y, 0.5f, W, H, c);
}

static void fill_vertices(sweep *s, int f)
{
    const int *r[2] = { R0, R1 };
    const xgd_color c[2] = { QUAD0[f], QUAD1[f] };
    for (int q = 0; q < 2; q++) {
        s->vb_data[q * 4 + 0] = vpc(r[q][0], r[q][1], c[q]);
        s->vb_data[q * 4 + 1] = vpc(r[q][2], r[q][1], c[q]);
        s->vb_data[q * 4 + 2] = vpc(r[q][2], r[q][3], c[q]);
        s->vb_data[q * 4 + 3] = vpc(r[q][0], r[q][3], c[q]);
    }
}

static xgd_result set_colors(xgd_effect *fx)
{
    /* target 0 takes the vertex colour, target 1 the vertex colour without red */
    const xgd_vector4 colors[4] = { { 1, 1, 1, 1 }, { 0, 1, 1, 1 }, { 1, 1, 1, 1 }, { 1, 1, 1, 1 } };
    return xgd_mrt_effect_set_colors(fx, colors);
}

static xgd_result bind_pair(sweep *s)
{
    xgd_render_target_binding set[2] = { { s->rt_a, XGD_CUBE_MAP_FACE_POSITIVE_X },
                                          { s->rt_b, XGD_CUBE_MAP_FACE_POSITIVE_X } };
    return xgd_set_render_targets(s->dev, set, s->mrt ? 2 : 1);
}

static xgd_result fullscreen_copy(xgd_device *dev)
{
    return fx_tex_rect(dev, W, H, 0, 0, W, H, 0, 0, 1, 1, (xgd_color){ 255, 255, 255, 255 });
}

static bool setup(sweep *s)
{
    xgd_device *dev = s->dev;
    for (int l = 0; l < TEX_LEVELS; l++) pattern(s->tex_data[l], sizeof s->tex_data[l], 100u + (unsigned)l);
    for (int f = 0; f < 6; f++) pattern(s->cube_data[f], sizeof s->cube_data[f], 200u + (unsigned)f);
    pattern(s->vol_data, sizeof s->vol_data, 300u);
    const uint16_t idx[12] = { 0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7 };
    memcpy(s->ib_data, idx, sizeof idx);

    SETUP(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TEX, .height = TEX, .mipmap = true }, &s->tex));
    for (int l = 0; l < TEX_LEVELS; l++)
        SETUP(xgd_texture_set_data(s->tex, l, 0, NULL, s->tex_data[l], (size_t)(TEX >> l) * (size_t)(TEX >> l) * 4));
    SETUP(xgd_texture_cube_create(dev, &(xgd_texture_cube_desc){ .size = CUBE }, &s->cube));
    for (int f = 0; f < 6; f++)
        SETUP(xgd_texture_set_data(s->cube, 0, (xgd_cube_map_face)f, NULL, s->cube_data[f], sizeof s->cube_data[f]));
    if (s->volume) {
        SETUP(xgd_texture3d_create(dev, &(xgd_texture3d_desc){ .width = VW, .height = VH, .depth = VD }, &s->vol));
        SETUP(xgd_texture3d_set_data(s->vol, 0, NULL, s->vol_data, sizeof s->vol_data));
    }
    SETUP(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = W, .height = H,
              .preferred_depth_format = XGD_DEPTH_FORMAT_DEPTH24,
              .usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS }, &s->rt_a));
    if (s->mrt) /* mipmapped: unbinding it regenerates its chain */
        SETUP(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = W, .height = H,
                  .mipmap = true, .usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS }, &s->rt_b));
    SETUP(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = W, .height = H,
              .preferred_multisample_count = s->msaa,
              .usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS }, &s->rt_ms));
    SETUP(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){
              .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
              .vertex_count = 8, .dynamic = true }, &s->vb));
    SETUP(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 12 }, &s->ib));
    SETUP(xgd_index_buffer_set_data(s->ib, 0, s->ib_data, sizeof s->ib_data, XGD_SET_DATA_NONE));
    SETUP(xgd_blend_state_create(dev, &(xgd_blend_state_desc)XGD_BLEND_STATE_DESC_DEFAULT, &s->blend));
    SETUP(xgd_depth_stencil_state_create(dev, &(xgd_depth_stencil_desc)XGD_DEPTH_STENCIL_DESC_DEFAULT, &s->ds));
    SETUP(xgd_rasterizer_state_create(dev, &(xgd_rasterizer_desc){ .cull_mode = XGD_CULL_NONE }, &s->rs));
    SETUP(xgd_sampler_state_create(dev, &(xgd_sampler_desc){ .filter = XGD_FILTER_POINT,
              .address_u = XGD_ADDRESS_CLAMP, .address_v = XGD_ADDRESS_CLAMP }, &s->ss));
    SETUP(xgd_occlusion_query_create(dev, &s->query));
    SETUP(xgd_basic_effect_create(dev, &s->basic));
    xgd_basic_effect_params p;
    SETUP(xgd_basic_effect_get(s->basic, &p));
    p.vertex_color_enabled = true;
    SETUP(xgd_basic_effect_set(s->basic, &p));
    SETUP(xgd_basic_effect_create(dev, &s->textured));
    p.texture_enabled = true;
    SETUP(xgd_basic_effect_set(s->textured, &p));
    SETUP(xgd_basic_effect_set_texture(s->textured, s->rt_a));
    if (s->mrt) {
        SETUP(xgd_mrt_effect_create(dev, &s->mrt_fx));
        SETUP(set_colors(s->mrt_fx));
    }
    return true;
}

static bool frame(sweep *s, int f)
{
    xgd_device *dev = s->dev;
    uint64_t samples = 0;
restart:
    fill_vertices(s, f);
    FRAME(xgd_vertex_buffer_set_data(s->vb, 0, s->vb_data, sizeof s->vb_data, XGD_SET_DATA_DISCARD));
    FRAME(xgd_set_blend_state(dev, s->blend));
    FRAME(xgd_set_depth_stencil_state(dev, s->ds));
    FRAME(xgd_set_rasterizer_state(dev, s->rs));
    FRAME(xgd_set_sampler_state(dev, 0, s->ss));
    FRAME(xgd_set_texture(dev, 0, NULL));
    FRAME(xgd_set_vertex_buffer(dev, s->vb, 0));
    FRAME(xgd_set_indices(dev, s->ib));

    /* the MRT pair (or target a alone), counted by the query */
    FRAME(bind_pair(s));
    FRAME(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, fx_vec4(CLEAR_A[f]), 1.0f, 0));
    FRAME(xgd_effect_apply(s->mrt ? s->mrt_fx : s->basic));
    FRAME(xgd_occlusion_query_begin(s->query));
    FRAME(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 8, 0, 2));
    FRAME(xgd_occlusion_query_end(s->query));

    /* the multisampled target */
    FRAME(xgd_set_render_target(dev, s->rt_ms));
    FRAME(xgd_clear(dev, XGD_CLEAR_TARGET, fx_vec4(CLEAR_MS[f]), 1.0f, 0));
    FRAME(xgd_effect_apply(s->basic));
    FRAME(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 8, 6, 2));

    /* the back buffer: target a copied texel for texel */
    FRAME(xgd_set_render_target(dev, NULL));
    FRAME(xgd_clear_color(dev, CLEAR_BB));
    FRAME(xgd_effect_apply(s->textured));
    FRAME(fullscreen_copy(dev));
    FRAME(xgd_set_texture(dev, 0, NULL));
    FRAME(xgd_present(dev));

    FRAME(xgd_occlusion_query_get_pixel_count(s->query, true, &samples));
    int64_t area = (int64_t)(R0[2] - R0[0]) * (R0[3] - R0[1]);
    if ((int64_t)samples != area) SWEEP_FAIL(s, "frame %d: occlusion count %llu, expected %lld", f,
                                             (unsigned long long)samples, (long long)area);
    return !s->broken;
}

/* ---- checking what every object holds ------------------------------------------------------ */

static bool same_bytes(sweep *s, const char *what, const uint8_t *got, const uint8_t *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            SWEEP_FAIL(s, "%s: byte %zu is %u, expected %u", what, i, got[i], want[i]);
            return false;
        }
    return true;
}

static bool same_image(sweep *s, const char *what, const uint8_t *got, const uint8_t *want, int w, int h)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const uint8_t *a = got + ((size_t)y * (size_t)w + (size_t)x) * 4;
            const uint8_t *e = want + ((size_t)y * (size_t)w + (size_t)x) * 4;
            if (memcmp(a, e, 4) != 0) {
                SWEEP_FAIL(s, "%s: pixel (%d,%d) is %u,%u,%u,%u, expected %u,%u,%u,%u", what, x, y,
                           a[0], a[1], a[2], a[3], e[0], e[1], e[2], e[3]);
                return false;
            }
        }
    return true;
}

/* A texture's level/face through the public call (its CPU copy) and from the renderer. */
static void check_texture(sweep *s, xgd_texture *tex, const char *name, int face, int level,
                          int w, int h, const uint8_t *want)
{
    uint8_t got[TEX * TEX * 4];
    char what[64];
    size_t n = (size_t)w * (size_t)h * 4;
    memset(got, 0xEE, sizeof got);
    snprintf(what, sizeof what, "%s face %d level %d (get_data)", name, face, level);
    xgd_result r = xgd_texture_get_data(tex, level, (xgd_cube_map_face)face, NULL, got, n);
    if (r != XGD_OK) SWEEP_FAIL(s, "%s returned %s", what, xgd_result_name(r));
    else same_bytes(s, what, got, want, n);

    memset(got, 0xEE, sizeof got);
    snprintf(what, sizeof what, "%s face %d level %d (renderer storage)", name, face, level);
    xgd_rect rect = { 0, 0, w, h };
    const xgd_texture *obj = XGDI_OBJECT(tex); /* the object behind the handle */
    r = s->dev->ops->texture_download(s->dev->renderer, obj->native, face, level, &rect, got,
                                      (size_t)w * 4);
    if (r != XGD_OK) SWEEP_FAIL(s, "%s returned %s", what, xgd_result_name(r));
    else same_bytes(s, what, got, want, n);
}

static void check_target(sweep *s, xgd_texture *rt, const char *name, const uint8_t *want)
{
    uint8_t got[W * H * 4];
    xgd_result r = xgd_texture_get_data(rt, 0, 0, NULL, got, sizeof got);
    if (r != XGD_OK) SWEEP_FAIL(s, "%s get_data returned %s", name, xgd_result_name(r));
    else same_image(s, name, got, want, W, H);
}

/* The mip levels of a target whose level-0 image is `want`, as far as every 2^l x 2^l block of
 * level 0 is one colour (then any averaging filter gives that colour exactly). */
static void check_target_mips(sweep *s, xgd_texture *rt, const char *name, const uint8_t *want)
{
    xgd_texture_info ti;
    if (xgd_texture_get_info(rt, &ti) != XGD_OK) {
        SWEEP_FAIL(s, "%s: get_info failed", name);
        return;
    }
    for (int l = 1; l < ti.level_count && !s->broken; l++) {
        const int lw = W >> l, lh = H >> l, b = 1 << l;
        uint8_t exp[W * H * 4], got[W * H * 4];
        bool uniform = true;
        for (int y = 0; y < lh && uniform; y++)
            for (int x = 0; x < lw && uniform; x++) {
                const uint8_t *c = want + ((size_t)(y * b) * W + (size_t)(x * b)) * 4;
                for (int j = 0; j < b && uniform; j++)
                    for (int i = 0; i < b; i++)
                        if (memcmp(c, want + ((size_t)(y * b + j) * W + (size_t)(x * b + i)) * 4, 4) != 0)
                            uniform = false;
                memcpy(exp + ((size_t)y * (size_t)lw + (size_t)x) * 4, c, 4);
            }
        if (!uniform) return;
        char what[64];
        snprintf(what, sizeof what, "%s level %d", name, l);
        xgd_result r = xgd_texture_get_data(rt, l, 0, NULL, got, (size_t)lw * (size_t)lh * 4);
        if (r != XGD_OK) SWEEP_FAIL(s, "%s get_data returned %s", what, xgd_result_name(r));
        else same_image(s, what, got, exp, lw, lh);
    }
}

static void check_all(sweep *s)
{
    xgd_device *dev = s->dev;
    const int f = FRAMES - 1;
    if (dev->lost || dev->renderer == NULL) {
        SWEEP_FAIL(s, "the device is lost after the scene");
        return;
    }
    for (int l = 0; l < TEX_LEVELS && !s->broken; l++)
        check_texture(s, s->tex, "texture2d", 0, l, TEX >> l, TEX >> l, s->tex_data[l]);
    for (int face = 0; face < 6 && !s->broken; face++)
        check_texture(s, s->cube, "cube", face, 0, CUBE, CUBE, s->cube_data[face]);
    if (s->volume && !s->broken) {
        uint8_t got[sizeof s->vol_data];
        memset(got, 0xEE, sizeof got);
        xgd_result r = xgd_texture3d_get_data(s->vol, 0, NULL, got, sizeof got);
        if (r != XGD_OK) SWEEP_FAIL(s, "texture3d get_data returned %s", xgd_result_name(r));
        else same_bytes(s, "texture3d (get_data)", got, s->vol_data, sizeof got);
        memset(got, 0xEE, sizeof got);
        xgd_box box = { 0, 0, 0, VW, VH, VD };
        r = dev->ops->texture_download_volume(dev->renderer, OBJ(xgd_texture, s->vol)->native, 0, &box, got, VW * 4,
                                              VW * VH * 4);
        if (r != XGD_OK) SWEEP_FAIL(s, "texture3d download returned %s", xgd_result_name(r));
        else same_bytes(s, "texture3d (renderer storage)", got, s->vol_data, sizeof got);
    }

    /* targets: the last frame's clear and rectangle */
    uint8_t *a = fx_image(W, H, CLEAR_A[f]), *b = fx_image(W, H, CLEAR_A[f]), *ms = fx_image(W, H, CLEAR_MS[f]);
    if (a && b && ms && !s->broken) {
        xgd_color q = QUAD0[f], qb = { 0, q.g, q.b, q.a };
        fx_fill(a, W, H, R0[0], R0[1], R0[2], R0[3], q);
        fx_fill(b, W, H, R0[0], R0[1], R0[2], R0[3], qb);
        fx_fill(ms, W, H, R1[0], R1[1], R1[2], R1[3], QUAD1[f]);
        check_target(s, s->rt_a, "target a", a);
        if (s->mrt && !s->broken) check_target(s, s->rt_b, "target b (MRT slot 1)", b);
        if (s->mrt && !s->broken) check_target_mips(s, s->rt_b, "target b (MRT slot 1)", b);
        if (!s->broken) check_target(s, s->rt_ms, "multisampled target", ms);
        if (!s->broken) {
            uint8_t got[W * H * 4];
            xgd_result r = xgd_get_back_buffer_data(dev, NULL, got, sizeof got);
            if (r != XGD_OK) SWEEP_FAIL(s, "back buffer readback returned %s", xgd_result_name(r));
            else same_image(s, "back buffer", got, a, W, H);
        }
    }
    free(a);
    free(b);
    free(ms);

    /* buffers: the CPU copy and the renderer's storage */
    uint8_t got[sizeof s->vb_data];
    if (!s->broken) {
        fill_vertices(s, f);
        xgd_result r = xgd_vertex_buffer_get_data(s->vb, 0, got, sizeof s->vb_data);
        if (r != XGD_OK) SWEEP_FAIL(s, "vertex buffer get_data returned %s", xgd_result_name(r));
        else same_bytes(s, "vertex buffer (get_data)", got, (const uint8_t *)s->vb_data, sizeof s->vb_data);
        r = dev->ops->buffer_download(dev->renderer, OBJ(xgd_vertex_buffer, s->vb)->buf.native, 0, got, sizeof s->vb_data);
        if (r != XGD_OK) SWEEP_FAIL(s, "vertex buffer download returned %s", xgd_result_name(r));
        else same_bytes(s, "vertex buffer (renderer storage)", got, (const uint8_t *)s->vb_data, sizeof s->vb_data);
    }
    if (!s->broken) {
        xgd_result r = xgd_index_buffer_get_data(s->ib, 0, got, sizeof s->ib_data);
        if (r != XGD_OK) SWEEP_FAIL(s, "index buffer get_data returned %s", xgd_result_name(r));
        else same_bytes(s, "index buffer (get_data)", got, (const uint8_t *)s->ib_data, sizeof s->ib_data);
        r = dev->ops->buffer_download(dev->renderer, OBJ(xgd_index_buffer, s->ib)->buf.native, 0, got, sizeof s->ib_data);
        if (r != XGD_OK) SWEEP_FAIL(s, "index buffer download returned %s", xgd_result_name(r));
        else same_bytes(s, "index buffer (renderer storage)", got, (const uint8_t *)s->ib_data, sizeof s->ib_data);
    }
}

static void release(sweep *s)
{
    xgd_occlusion_query_destroy(s->query);
    xgd_effect_destroy(s->basic);
    xgd_effect_destroy(s->textured);
    xgd_effect_destroy(s->mrt_fx);
    xgd_blend_state_destroy(s->blend);
    xgd_depth_stencil_state_destroy(s->ds);
    xgd_rasterizer_state_destroy(s->rs);
    xgd_sampler_state_destroy(s->ss);
    xgd_vertex_buffer_destroy(s->vb);
    xgd_index_buffer_destroy(s->ib);
    xgd_texture_destroy(s->tex);
    xgd_texture_destroy(s->cube);
    xgd_texture_destroy(s->vol);
    xgd_texture_destroy(s->rt_a);
    xgd_texture_destroy(s->rt_b);
    xgd_texture_destroy(s->rt_ms);
}

static int sweep_failures, sweep_losses; /* over a sweep: failed calls seen, restores made */

/* One run of the scene on dev with call k failing with code (k 0: none). Returns the calls the
 * scene made; *ok false when a check failed. Every object is destroyed at the end, so the
 * device is back where it started (checked by the caller). */
static long run_scene(xgdt_ctx *t, xgd_device *dev, int k, xgd_result code, bool *ok)
{
    static sweep s; /* large CPU copies: kept off the stack */
    memset(&s, 0, sizeof s);
    s.t = t;
    s.dev = dev;
    s.k = k;
    s.code = code;
    xgd_device_info info;
    xgd_format_support fs;
    *ok = false;
    if (xgd_device_get_info(dev, &info) != XGD_OK) return -1;
    s.mrt = info.max_render_targets >= 2;
    s.msaa = info.max_multisample_count >= 4 ? 4 : info.max_multisample_count;
    s.volume = xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &fs) == XGD_OK && fs.volume;
    long calls = -1;
    if (xgdi_debug_fail_any(dev, k, code) == XGD_OK) {
        bool done = setup(&s);
        for (int f = 0; f < FRAMES && done; f++) done = frame(&s, f);
        calls = (long)xgdi_debug_op_calls(dev);
        xgdi_debug_fail_any(dev, 0, XGD_OK); /* the checks below are not swept */
        if (done) check_all(&s);
        if (k > 0 && s.failures == 0 && !s.broken) {
            /* The call did not come: the run made fewer calls than the counting run, which
               only the GPU renderers may (a fence wait depends on timing). */
            if (t->renderer == XGD_RENDERER_SOFTWARE || calls >= k)
                SWEEP_FAIL(&s, "the injected fault never fired (%ld calls made)", calls);
        }
    } else {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgdi_debug_fail_any: %s", xgdt_last_message());
        s.broken = true;
    }
    *ok = !s.broken;
    sweep_failures += s.failures;
    sweep_losses += s.losses;
    release(&s);
    return calls;
}

/* live resources of the device (the registry), or -1 */
static long live_resources(xgd_device *dev)
{
    xgd_statistics st;
    return xgd_device_get_statistics(dev, &st) == XGD_OK ? (long)st.live_resources : -1;
}

/* One device for every run keeps the GPU sweeps short (a restore already starts a new
 * renderer); each run destroys what it made, and the device must be back where it started:
 * not lost, the same live resources. */
XGD_FIXTURE(FaultSweep_EveryOperationRecovers)
{
    /* D3D10 centres: tests recovery, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_DEPTH24, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    const long live0 = live_resources(dev);
    bool ok = true;
    sweep_failures = sweep_losses = 0;
    long total = run_scene(t, dev, 0, XGD_OK, &ok);
    if (!(total > 0 && ok)) {
        xgdt_fail_at(t, __FILE__, __LINE__, "the scene fails without faults");
        xgd_device_destroy(dev);
        return;
    }
    const bool every = t->renderer == XGD_RENDERER_SOFTWARE;
    const int samples = 16;
    int runs = 0, bad = 0;
    for (int i = 0; bad < 5; i++) {
        int k;
        xgd_result code;
        if (every) { /* each call twice: transient, then loss */
            k = 1 + i / 2;
            code = (i & 1) ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_OUT_OF_MEMORY;
            if (k > total) break;
        } else { /* 16 calls spread over the range, first and last included */
            if (i >= samples) break;
            k = 1 + (int)((long)i * (total - 1) / (samples - 1));
            code = (i & 1) ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_OUT_OF_MEMORY;
        }
        run_scene(t, dev, k, code, &ok);
        runs++;
        xgd_device_info info;
        long live = live_resources(dev);
        if (xgd_device_get_info(dev, &info) != XGD_OK || info.lost || live != live0) {
            xgdt_fail_at(t, __FILE__, __LINE__, "fault at call %d (%s): afterwards the device is %s "
                         "with %ld live resources (%ld before the run)", k, xgd_result_name(code),
                         info.lost ? "lost" : "alive", live, live0);
            ok = false;
        }
        bad += !ok;
        if (info.lost) break;
    }
    printf("fault sweep: %ld renderer calls in the scene, %d faulted runs (%d failed calls seen, "
           "%d restores), %d runs failed%s\n", total, runs, sweep_failures, sweep_losses, bad,
           bad >= 5 ? " (stopped after 5)" : "");
    CHECK_MSG(sweep_failures >= (every ? runs : runs / 2), "too few injected faults fired");
    xgd_device_destroy(dev);
}
