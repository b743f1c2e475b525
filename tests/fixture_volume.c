/*
 * fixture_volume.c - Texture3D (XNA's volume texture) and the EXT VolumeEffect on every
 * renderer: texels round-trip through set/get (every level, sub-boxes, every format the
 * renderer reports for volumes, DXT where it can), and sampling follows Direct3D's rules on the
 * third axis: point picks texel floor(w * depth), linear is trilinear (weights from
 * w * depth - 0.5), address_w wraps/clamps/mirrors w, mip levels are chosen as for 2D.
 * Expected pixels come from the texels uploaded and those rules, stored into a Color target as
 * floor(clamp(v) * 255 + 0.5).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

/* Position and a three-component texture coordinate (uvw). */
typedef struct vx_vertex {
    xgd_vector3 position;
    xgd_vector3 uvw;
} vx_vertex;

static xgd_vertex_declaration *vx_decl(xgdt_ctx *t, xgd_device *dev)
{
    const xgd_vertex_element el[2] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 12, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    xgd_vertex_declaration *d = NULL;
    xgd_result r = xgd_vertex_declaration_create(dev, el, 2, (int)sizeof(vx_vertex), &d);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "vertex declaration: %s (%s)", xgd_result_name(r),
                     xgdt_last_message());
    return d;
}

/* A VolumeEffect sampling tex (identity matrix: clip = position), applied. */
static xgd_effect *vx_effect(xgdt_ctx *t, xgd_device *dev, xgd_texture *tex)
{
    xgd_effect *fx = NULL;
    xgd_result r = xgd_volume_effect_create(dev, &fx);
    if (r == XGD_OK) r = xgd_volume_effect_set_texture(fx, tex);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "VolumeEffect setup: %s (%s)", xgd_result_name(r),
                     xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* A rectangle [x0,x1) x [y0,y1) of a w x h target whose corners carry the given uvw (corner
 * order: top-left, top-right, bottom-right, bottom-left). */
static xgd_result vx_quad4(xgd_device *dev, xgd_vertex_declaration *decl, int w, int h, float x0,
                           float y0, float x1, float y1, const float uvw[4][3])
{
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    vx_vertex q[4];
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ fx_ndc_x(xs[i], w), fx_ndc_y(ys[i], h), 0.0f };
        q[i].uvw = (xgd_vector3){ uvw[i][0], uvw[i][1], uvw[i][2] };
    }
    vx_vertex v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2, decl);
}

/* The same uvw at every corner: every pixel samples that one point. */
static xgd_result vx_quad(xgd_device *dev, xgd_vertex_declaration *decl, int w, int h, float x0,
                          float y0, float x1, float y1, float u, float v, float wc)
{
    const float uvw[4][3] = { { u, v, wc }, { u, v, wc }, { u, v, wc }, { u, v, wc } };
    return vx_quad4(dev, decl, w, h, x0, y0, x1, y1, uvw);
}

static xgd_sampler_state *vx_sampler(xgdt_ctx *t, xgd_device *dev, xgd_texture_filter filter,
                                     xgd_texture_address_mode w_mode, int max_mip)
{
    xgd_sampler_desc d = XGD_SAMPLER_DESC_DEFAULT;
    d.filter = filter;
    d.address_u = XGD_ADDRESS_CLAMP;
    d.address_v = XGD_ADDRESS_CLAMP;
    d.address_w = w_mode;
    d.max_mip_level = max_mip;
    xgd_sampler_state *s = fx_sampler(t, dev, &d);
    if (s) CHECK_OK(xgd_set_sampler_state(dev, 0, s));
    return s;
}

/* A Texture3D, NULL (and a recorded failure) when creation fails. */
static xgd_texture *vx_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, int d, bool mipmap,
                               xgd_surface_format f)
{
    xgd_texture *tex = NULL;
    xgd_texture3d_desc desc = { .width = w, .height = h, .depth = d, .mipmap = mipmap,
                                .format = f };
    xgd_result r = xgd_texture3d_create(dev, &desc, &tex);
    if (r != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_texture3d_create(%dx%dx%d): %s (%s)", w, h, d,
                     xgd_result_name(r), xgdt_last_message());
    return tex;
}

/* The renderer reports Color for volumes on every renderer that has them; a renderer without
 * any volume support says so instead of failing every fixture. */
static bool vx_supported(xgdt_ctx *t, xgd_device *dev)
{
    xgd_format_support s;
    if (xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &s) != XGD_OK || !s.volume) {
        xgdt_not_supported(t, "the renderer reports no volume texture support for Color");
        return false;
    }
    return true;
}

static xgd_device *vx_device(xgdt_ctx *t, int w, int h, bool recovery)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.context_recovery = recovery;
    return xgdt_device(t, &dd);
}

/* Deterministic bytes, different per seed. */
static void vx_pattern(uint8_t *p, size_t n, unsigned seed)
{
    uint32_t x = 2463534242u ^ (seed * 2654435761u);
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = (uint8_t)(x >> 7);
    }
}

/* Opaque Color texels (alpha 255), so that blending never matters. */
static void vx_color_pattern(uint8_t *p, size_t texels, unsigned seed)
{
    vx_pattern(p, texels * 4, seed);
    for (size_t i = 0; i < texels; i++) p[i * 4 + 3] = 255;
}

static int vx_mip(int base, int level)
{
    int v = base >> level;
    return v < 1 ? 1 : v;
}

/* ---- round trips ----------------------------------------------------------------------------- */

/*
 * Every level of an 8x4x6 mipmapped Color volume (levels 8x4x6, 4x2x3, 2x1x1, 1x1x1) and a
 * sub-box, written and read back: through the CPU shadow (recovery on) and from the renderer
 * itself (recovery off: no shadow, get_data downloads, and a partial level-0 write is refused
 * as for Texture2D).
 */
XGD_FIXTURE(Volume_RoundTrip)
{
    for (int pass = 0; pass < 2; pass++) {
        bool recovery = pass == 0;
        xgd_device *dev = vx_device(t, 16, 16, recovery);
        REQUIRE(dev);
        if (!vx_supported(t, dev)) {
            xgd_device_destroy(dev);
            return;
        }
        xgd_texture *tex = vx_texture(t, dev, 8, 4, 6, true, XGD_SURFACE_FORMAT_COLOR);
        REQUIRE(tex);
        xgd_texture_info info;
        CHECK_OK(xgd_texture_get_info(tex, &info));
        CHECK_INT(info.kind, XGD_TEXTURE_3D);
        CHECK_INT(info.level_count, 4);
        CHECK_INT(info.depth, 6);
        CHECK_INT(info.has_cpu_shadow, recovery);
        uint8_t *levels[4];
        size_t sizes[4];
        for (int l = 0; l < 4; l++) {
            int w = vx_mip(8, l), h = vx_mip(4, l), d = vx_mip(6, l);
            sizes[l] = (size_t)w * h * d * 4;
            levels[l] = malloc(sizes[l]);
            REQUIRE(levels[l]);
            vx_pattern(levels[l], sizes[l], 10u + (unsigned)l + 7u * (unsigned)pass);
            CHECK_OK(xgd_texture3d_set_data(tex, l, NULL, levels[l], sizes[l]));
        }
        for (int l = 0; l < 4; l++) {
            uint8_t *got = malloc(sizes[l]);
            REQUIRE(got);
            memset(got, 0xEE, sizes[l]);
            CHECK_OK(xgd_texture3d_get_data(tex, l, NULL, got, sizes[l]));
            CHECK_MSG(memcmp(got, levels[l], sizes[l]) == 0, "level %d differs after a round trip",
                      l);
            free(got);
        }
        /* a sub-box read: texels (x 2..4, y 1..2, z 1..3) of level 0 */
        const xgd_box sub = { 2, 1, 1, 5, 3, 4 };
        uint8_t got[3 * 2 * 3 * 4];
        CHECK_OK(xgd_texture3d_get_data(tex, 0, &sub, got, sizeof got));
        for (int z = 0; z < 3; z++)
            for (int y = 0; y < 2; y++)
                for (int x = 0; x < 3; x++) {
                    const uint8_t *e = levels[0] + (((size_t)(z + 1) * 4 + (size_t)(y + 1)) * 8 +
                                                    (size_t)(x + 2)) * 4;
                    const uint8_t *a = got + (((size_t)z * 2 + (size_t)y) * 3 + (size_t)x) * 4;
                    CHECK_MSG(memcmp(a, e, 4) == 0, "sub-box texel (%d,%d,%d) differs", x, y, z);
                }
        /* a sub-box write: level 1 (4x2x3), box x 1..2, y 1, z 1..2; everything else stays */
        const xgd_box wbox = { 1, 1, 1, 3, 2, 3 };
        uint8_t put[2 * 1 * 2 * 4];
        vx_pattern(put, sizeof put, 99u + (unsigned)pass);
        CHECK_OK(xgd_texture3d_set_data(tex, 1, &wbox, put, sizeof put));
        for (int z = 0; z < 2; z++)
            for (int x = 0; x < 2; x++)
                memcpy(levels[1] + (((size_t)(z + 1) * 2 + 1) * 4 + (size_t)(x + 1)) * 4,
                       put + ((size_t)z * 2 + (size_t)x) * 4, 4);
        uint8_t l1[4 * 2 * 3 * 4];
        CHECK_OK(xgd_texture3d_get_data(tex, 1, NULL, l1, sizeof l1));
        CHECK_MSG(memcmp(l1, levels[1], sizeof l1) == 0, "level 1 after a sub-box write differs");
        /* level 0 partial: through the shadow, or refused without one (Texture2D's rule) */
        uint8_t one[4] = { 1, 2, 3, 4 };
        const xgd_box cell = { 7, 3, 5, 8, 4, 6 };
        if (recovery) {
            CHECK_OK(xgd_texture3d_set_data(tex, 0, &cell, one, sizeof one));
            memcpy(levels[0] + (((size_t)5 * 4 + 3) * 8 + 7) * 4, one, 4);
        } else {
            CHECK_RESULT(xgd_texture3d_set_data(tex, 0, &cell, one, sizeof one),
                         XGD_ERROR_INVALID_OPERATION);
        }
        uint8_t *l0 = malloc(sizes[0]);
        REQUIRE(l0);
        CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, l0, sizes[0]));
        CHECK_MSG(memcmp(l0, levels[0], sizes[0]) == 0, "level 0 differs after the partial write");
        free(l0);
        for (int l = 0; l < 4; l++) free(levels[l]);
        xgd_texture_destroy(tex);
        xgd_device_destroy(dev);
    }
}

/* Every format the renderer reports for volumes round-trips byte for byte from the renderer
 * (recovery off: no CPU shadow answers), level 0 and level 1, with a sub-box; a format it does
 * not report is refused with NOT_SUPPORTED. Single, Vector4 and HalfVector4 among them. */
XGD_FIXTURE(Volume_Formats)
{
    xgd_device *dev = vx_device(t, 16, 16, false);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    int tested = 0;
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        xgd_surface_format fmt = (xgd_surface_format)f;
        if (xgd_surface_format_element_size(fmt) == 0) continue;
        bool dxt = fmt == XGD_SURFACE_FORMAT_DXT1 || fmt == XGD_SURFACE_FORMAT_DXT3 ||
                   fmt == XGD_SURFACE_FORMAT_DXT5;
        if (dxt) continue; /* Volume_Dxt */
        xgd_format_support s;
        CHECK_OK(xgd_device_query_format(dev, fmt, &s));
        xgd_texture *tex = NULL;
        xgd_texture3d_desc desc = { .width = 4, .height = 4, .depth = 3, .mipmap = true,
                                    .format = fmt };
        xgd_result r = xgd_texture3d_create(dev, &desc, &tex);
        if (!s.volume) {
            CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED,
                      "format %d: not reported for volumes, but create returned %s", f,
                      xgd_result_name(r));
            xgd_texture_destroy(tex);
            continue;
        }
        CHECK_MSG(r == XGD_OK, "format %d: reported for volumes, create returned %s (%s)", f,
                  xgd_result_name(r), xgdt_last_message());
        if (r != XGD_OK) continue;
        tested++;
        for (int l = 0; l < 2; l++) {
            int w = vx_mip(4, l), h = vx_mip(4, l), d = vx_mip(3, l);
            size_t n = xgd_surface_format_size(fmt, w, h) * (size_t)d;
            uint8_t up[4 * 4 * 3 * 16], down[4 * 4 * 3 * 16];
            vx_pattern(up, n, 31u * (unsigned)f + (unsigned)l);
            memset(down, 0xA5, n);
            CHECK_OK(xgd_texture3d_set_data(tex, l, NULL, up, n));
            CHECK_OK(xgd_texture3d_get_data(tex, l, NULL, down, n));
            CHECK_MSG(memcmp(up, down, n) == 0, "format %d level %d: texels differ", f, l);
            if (l == 0) {
                /* box x 1..2, y 2..3, z 1..2 */
                const xgd_box b = { 1, 2, 1, 3, 4, 3 };
                size_t es = (size_t)xgd_surface_format_element_size(fmt);
                uint8_t part[2 * 2 * 2 * 16];
                CHECK_OK(xgd_texture3d_get_data(tex, 0, &b, part, 8 * es));
                bool same = true;
                for (int z = 0; z < 2; z++)
                    for (int y = 0; y < 2; y++)
                        same &= memcmp(part + ((size_t)z * 2 + (size_t)y) * 2 * es,
                                       up + (((size_t)(z + 1) * 4 + (size_t)(y + 2)) * 4 + 1) * es,
                                       2 * es) == 0;
                CHECK_MSG(same, "format %d: sub-box read differs", f);
            }
        }
        xgd_texture_destroy(tex);
    }
    CHECK_MSG(tested > 0, "no format round-tripped");
    printf("Volume_Formats: %d formats round-trip as volumes on %s\n", tested, t->renderer_name);
    xgd_device_destroy(dev);
}

/* DXT1/3/5 volumes: where the renderer reports them, blocks round-trip (level 0 whole, a
 * block-aligned box, and a level smaller than a block) and a solid block samples as its
 * colour; where it does not, creation is NOT_SUPPORTED. */
XGD_FIXTURE(Volume_Dxt)
{
    enum { W = 8, H = 4 };
    xgd_device *dev = vx_device(t, W, H, false);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    static const xgd_surface_format dxt[3] = { XGD_SURFACE_FORMAT_DXT1, XGD_SURFACE_FORMAT_DXT3,
                                               XGD_SURFACE_FORMAT_DXT5 };
    int tested = 0;
    for (int i = 0; i < 3; i++) {
        xgd_format_support s;
        CHECK_OK(xgd_device_query_format(dev, dxt[i], &s));
        xgd_texture *tex = NULL;
        xgd_texture3d_desc desc = { .width = 8, .height = 8, .depth = 2, .mipmap = true,
                                    .format = dxt[i] };
        xgd_result r = xgd_texture3d_create(dev, &desc, &tex);
        if (!s.volume) {
            CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED, "DXT%d: create returned %s, caps say no",
                      i == 0 ? 1 : i == 1 ? 3 : 5, xgd_result_name(r));
            xgd_texture_destroy(tex);
            continue;
        }
        CHECK_MSG(r == XGD_OK, "DXT%d: caps say yes, create returned %s (%s)",
                  i == 0 ? 1 : i == 1 ? 3 : 5, xgd_result_name(r), xgdt_last_message());
        if (r != XGD_OK) continue;
        tested++;
        size_t bsz = (size_t)xgd_surface_format_element_size(dxt[i]);
        uint8_t up[4 * 2 * 16], down[4 * 2 * 16]; /* 2x2 blocks, 2 slices */
        size_t n = bsz * 4 * 2;
        vx_pattern(up, n, 500u + (unsigned)i);
        CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, up, n));
        CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, down, n));
        CHECK_MSG(memcmp(up, down, n) == 0, "DXT format %d: level 0 differs", (int)dxt[i]);
        /* the block at x 4..7, y 0..3 of slice 1 */
        uint8_t blk[16];
        CHECK_OK(xgd_texture3d_get_data(tex, 0, &(xgd_box){ 4, 0, 1, 8, 4, 2 }, blk, bsz));
        CHECK_MSG(memcmp(blk, up + bsz * (4 + 1), bsz) == 0, "DXT format %d: box read differs",
                  (int)dxt[i]);
        /* level 2 is 2x2x1: one block, clipped */
        uint8_t small[16], back[16];
        vx_pattern(small, bsz, 600u + (unsigned)i);
        CHECK_OK(xgd_texture3d_set_data(tex, 2, NULL, small, bsz));
        CHECK_OK(xgd_texture3d_get_data(tex, 2, NULL, back, bsz));
        CHECK_MSG(memcmp(small, back, bsz) == 0, "DXT format %d: level 2 differs", (int)dxt[i]);
        if (dxt[i] == XGD_SURFACE_FORMAT_DXT1) {
            /* solid blocks: slice 0 pure red (0xF800), slice 1 pure blue (0x001F), indices 0 */
            uint8_t solid[8 * 4 * 2];
            for (int b = 0; b < 8; b++) {
                uint16_t c = b < 4 ? 0xF800 : 0x001F;
                uint8_t *p = solid + b * 8;
                p[0] = p[2] = (uint8_t)(c & 0xFF);
                p[1] = p[3] = (uint8_t)(c >> 8);
                p[4] = p[5] = p[6] = p[7] = 0;
            }
            CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, solid, sizeof solid));
            xgd_vertex_declaration *decl = vx_decl(t, dev);
            xgd_effect *fx = vx_effect(t, dev, tex);
            xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
            if (decl && fx && ss) {
                CHECK_OK(xgd_clear_color(dev, BLACK));
                CHECK_OK(vx_quad(dev, decl, W, H, 0, 0, 4, 4, 0.5f, 0.5f, 0.25f));
                CHECK_OK(vx_quad(dev, decl, W, H, 4, 0, 8, 4, 0.5f, 0.5f, 0.75f));
                uint8_t *e = fx_image(W, H, BLACK);
                REQUIRE(e);
                fx_fill(e, W, H, 0, 0, 4, 4, (xgd_color){ 255, 0, 0, 255 });
                fx_fill(e, W, H, 4, 0, 8, 4, (xgd_color){ 0, 0, 255, 255 });
                fx_expect_back_buffer(t, dev, "dxt1_slices", e, W, H, 0);
                free(e);
            }
            xgd_set_sampler_state(dev, 0, NULL);
            xgd_sampler_state_destroy(ss);
            xgd_effect_destroy(fx);
            xgd_vertex_declaration_destroy(decl);
        }
        xgd_texture_destroy(tex);
    }
    xgd_device_destroy(dev);
    if (tested == 0) xgdt_not_supported(t, "the renderer reports no DXT format for volumes "
                                           "(creation was NOT_SUPPORTED for each, as it says)");
}

/* ---- sampling -------------------------------------------------------------------------------- */

/*
 * Point filter at exact texel centres ((x + .5) / 4, (y + .5) / 4, (z + .5) / 4) of a 4x4x4
 * volume with 64 distinct texels: each 2x2-pixel quad shows texel (x, y, z), slice z in its own
 * column of the target. A second pass multiplies by the effect's colour.
 */
XGD_FIXTURE(Volume_PointSlices)
{
    enum { W = 32, H = 16, N = 4 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    uint8_t tx[N * N * N * 4];
    vx_color_pattern(tx, N * N * N, 7);
    xgd_texture *tex = vx_texture(t, dev, N, N, N, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(tex);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, tx, sizeof tx));
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    const xgd_vector4 tint = { 0.5f, 1.0f, 0.25f, 1.0f };
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            CHECK_OK(xgd_volume_effect_set_color(fx, tint));
            CHECK_OK(xgd_effect_apply(fx));
        }
        CHECK_OK(xgd_clear_color(dev, BLACK));
        uint8_t *e = fx_image(W, H, BLACK);
        REQUIRE(e);
        for (int z = 0; z < N; z++)
            for (int y = 0; y < N; y++)
                for (int x = 0; x < N; x++) {
                    float px = (float)(z * 8 + x * 2), py = (float)(y * 2);
                    CHECK_OK(vx_quad(dev, decl, W, H, px, py, px + 2, py + 2, (x + 0.5f) / N,
                                     (y + 0.5f) / N, (z + 0.5f) / N));
                    const uint8_t *s = tx + (((size_t)z * N + (size_t)y) * N + (size_t)x) * 4;
                    xgd_color c = { s[0], s[1], s[2], s[3] };
                    if (pass == 1)
                        c = fx_rgba(fx_q8(s[0] / 255.0 * tint.x), fx_q8(s[1] / 255.0 * tint.y),
                                    fx_q8(s[2] / 255.0 * tint.z), fx_q8(s[3] / 255.0 * tint.w));
                    fx_fill(e, W, H, (int)px, (int)py, (int)px + 2, (int)py + 2, c);
                }
        fx_expect_back_buffer(t, dev, pass == 0 ? "point" : "point_tinted", e, W, H,
                              pass == 0 ? 0 : 1);
        free(e);
    }
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Trilinear filtering by the rule (Direct3D 11.3 "Linear Sample Addressing"), Clamp on every
 * axis: per axis a = coord * size - 0.5, texels floor(a) and floor(a) + 1 (clamped into the
 * volume) weighted 1 - frac(a) and frac(a); the result is the sum of the eight weighted texels
 * (out in 0..1 per channel). */
static void vx_trilinear_ref(const uint8_t *tx, const int n[3], const float uvw[3], double out[4])
{
    int lo[3], hi[3];
    double fr[3];
    for (int a = 0; a < 3; a++) {
        double c = (double)uvw[a] * n[a] - 0.5;
        double i0 = floor(c);
        fr[a] = c - i0;
        lo[a] = (int)i0 < 0 ? 0 : (int)i0 > n[a] - 1 ? n[a] - 1 : (int)i0;
        hi[a] = (int)i0 + 1 < 0 ? 0 : (int)i0 + 1 > n[a] - 1 ? n[a] - 1 : (int)i0 + 1;
    }
    for (int c = 0; c < 4; c++) out[c] = 0.0;
    for (int k = 0; k < 8; k++) {
        int b[3] = { k & 1, (k >> 1) & 1, (k >> 2) & 1 };
        double wgt = 1.0;
        int idx[3];
        for (int a = 0; a < 3; a++) {
            wgt *= b[a] ? fr[a] : 1.0 - fr[a];
            idx[a] = b[a] ? hi[a] : lo[a];
        }
        const uint8_t *s = tx + (((size_t)idx[2] * (size_t)n[1] + (size_t)idx[1]) * (size_t)n[0] +
                                 (size_t)idx[0]) * 4;
        for (int c = 0; c < 4; c++) out[c] += wgt * s[c] / 255.0;
    }
}

/*
 * Linear filtering is trilinear. A 2x2x4 volume whose slices are each one colour S[z]: at w
 * halfway between two slice centres ((z + 1) / 4) the result is 0.5 * (S[z] + S[z + 1]), at a
 * slice centre it is S[z]. A 2x2x2 volume of eight distinct texels sampled at its centre gives
 * their average (weights 1/8 each). Those weights are all 1/2 or 1, which a filter that swaps
 * frac and 1 - frac on an axis also produces, so a third pass samples a 2x2x4 volume of 16
 * distinct texels off-centre on every axis: u, v in {0.375, 0.625} (a = 0.25 or 0.75) and
 * w = (z + 0.75) / 4 or (z + 0.25) / 4 (frac 0.25 or 0.75), i.e. weights 1/4 and 3/4 that
 * differ from their swap, the expected colour being vx_trilinear_ref's weighted sum.
 */
XGD_FIXTURE(Volume_LinearSlices)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    const xgd_color S[4] = { { 200, 10, 60, 255 }, { 20, 250, 100, 255 }, { 90, 30, 240, 255 },
                             { 255, 255, 0, 255 } };
    uint8_t tx[2 * 2 * 4 * 4];
    for (int z = 0; z < 4; z++)
        for (int i = 0; i < 4; i++) fx_put(tx, 1, 0, z * 4 + i, S[z]);
    xgd_texture *slices = vx_texture(t, dev, 2, 2, 4, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(slices);
    CHECK_OK(xgd_texture3d_set_data(slices, 0, NULL, tx, sizeof tx));
    uint8_t cube[2 * 2 * 2 * 4];
    vx_color_pattern(cube, 8, 3);
    xgd_texture *corner = vx_texture(t, dev, 2, 2, 2, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(corner);
    CHECK_OK(xgd_texture3d_set_data(corner, 0, NULL, cube, sizeof cube));
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, slices);
    REQUIRE(fx);
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_LINEAR, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    /* halfway between slice centres z and z + 1: columns 0..2 */
    for (int z = 0; z < 3; z++) {
        float px = (float)(z * 4);
        CHECK_OK(vx_quad(dev, decl, W, H, px, 0, px + 4, 4, 0.5f, 0.5f, (z + 1) / 4.0f));
        xgd_color a = S[z], b = S[z + 1];
        fx_fill(e, W, H, (int)px, 0, (int)px + 4, 4,
                fx_rgba(fx_q8(0.5 * (a.r + b.r) / 255.0), fx_q8(0.5 * (a.g + b.g) / 255.0),
                        fx_q8(0.5 * (a.b + b.b) / 255.0), 255));
    }
    /* at slice centres: columns 3..6 */
    for (int z = 0; z < 4; z++) {
        float px = (float)(12 + z * 4);
        CHECK_OK(vx_quad(dev, decl, W, H, px, 4, px + 4, 8, 0.5f, 0.5f, (z + 0.5f) / 4.0f));
        fx_fill(e, W, H, (int)px, 4, (int)px + 4, 8, S[z]);
    }
    /* the centre of a 2x2x2 volume: the mean of its eight texels */
    CHECK_OK(xgd_volume_effect_set_texture(fx, corner));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(vx_quad(dev, decl, W, H, 28, 0, 32, 4, 0.5f, 0.5f, 0.5f));
    double m[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++) m[c] += cube[i * 4 + c] / (8.0 * 255.0);
    fx_fill(e, W, H, 28, 0, 32, 4, fx_rgba(fx_q8(m[0]), fx_q8(m[1]), fx_q8(m[2]), fx_q8(m[3])));
    /* within 1/255: rounding of an exact half and the GPU's filter precision */
    fx_expect_back_buffer(t, dev, "trilinear", e, W, H, 1);
    free(e);

    /* off-centre: 16 distinct texels, 4x4-pixel quads, columns by w, rows by (u, v) */
    uint8_t odd[2 * 2 * 4 * 4];
    vx_color_pattern(odd, 16, 11);
    xgd_texture *offc = vx_texture(t, dev, 2, 2, 4, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(offc);
    CHECK_OK(xgd_texture3d_set_data(offc, 0, NULL, odd, sizeof odd));
    CHECK_OK(xgd_volume_effect_set_texture(fx, offc));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    e = fx_image(W, H, BLACK);
    REQUIRE(e);
    const float ws[6] = { 0.75f / 4, 1.75f / 4, 2.75f / 4, 1.25f / 4, 2.25f / 4, 3.25f / 4 };
    const float uvs[2][2] = { { 0.625f, 0.375f }, { 0.375f, 0.625f } };
    const int n[3] = { 2, 2, 4 };
    for (int row = 0; row < 2; row++)
        for (int col = 0; col < 6; col++) {
            float px = (float)(col * 4), py = (float)(row * 4);
            const float uvw[3] = { uvs[row][0], uvs[row][1], ws[col] };
            CHECK_OK(vx_quad(dev, decl, W, H, px, py, px + 4, py + 4, uvw[0], uvw[1], uvw[2]));
            double ref[4];
            vx_trilinear_ref(odd, n, uvw, ref);
            fx_fill(e, W, H, (int)px, (int)py, (int)px + 4, (int)py + 4,
                    fx_rgba(fx_q8(ref[0]), fx_q8(ref[1]), fx_q8(ref[2]), fx_q8(ref[3])));
        }
    /* within 1/255: the GPU's filter precision (weights of 1/4 and 3/4 are exact) */
    fx_expect_back_buffer(t, dev, "trilinear_off_centre", e, W, H, 1);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(offc);
    xgd_texture_destroy(corner);
    xgd_texture_destroy(slices);
    xgd_device_destroy(dev);
}

static int vx_address(xgd_texture_address_mode m, int i, int n)
{
    switch (m) {
    case XGD_ADDRESS_CLAMP: return i < 0 ? 0 : i >= n ? n - 1 : i;
    case XGD_ADDRESS_MIRROR: {
        int p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    default: return ((i % n) + n) % n;
    }
}

/* address_w alone moves w outside [0, 1] back into the volume: point sampling at w = -0.375,
 * 1.125, 1.625 and 2.375 of a 2x2x4 volume of one-colour slices reads slice
 * address(floor(w * 4)) for Wrap, Clamp and Mirror (u and v stay inside, clamped). */
XGD_FIXTURE(Volume_AddressW)
{
    enum { W = 16, H = 12 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    const xgd_color S[4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
                             { 255, 255, 255, 255 } };
    uint8_t tx[2 * 2 * 4 * 4];
    for (int z = 0; z < 4; z++)
        for (int i = 0; i < 4; i++) fx_put(tx, 1, 0, z * 4 + i, S[z]);
    xgd_texture *tex = vx_texture(t, dev, 2, 2, 4, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(tex);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, tx, sizeof tx));
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, tex);
    REQUIRE(fx);
    const xgd_texture_address_mode modes[3] = { XGD_ADDRESS_WRAP, XGD_ADDRESS_CLAMP,
                                                XGD_ADDRESS_MIRROR };
    const float ws[4] = { -0.375f, 1.125f, 1.625f, 2.375f };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int m = 0; m < 3; m++) {
        xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, modes[m], 0);
        REQUIRE(ss);
        for (int i = 0; i < 4; i++) {
            float px = (float)(i * 4), py = (float)(m * 4);
            CHECK_OK(vx_quad(dev, decl, W, H, px, py, px + 4, py + 4, 0.25f, 0.75f, ws[i]));
            int z = vx_address(modes[m], (int)floor(ws[i] * 4.0), 4);
            fx_fill(e, W, H, (int)px, (int)py, (int)px + 4, (int)py + 4, S[z]);
        }
        xgd_set_sampler_state(dev, 0, NULL);
        xgd_sampler_state_destroy(ss);
    }
    fx_expect_back_buffer(t, dev, "address_w", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static const xgd_color MIPC[4] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
                                   { 255, 255, 0, 255 } };

/*
 * Mip levels of an 8x8x8 volume (levels 8, 4, 2, 1, each one solid colour), point filter:
 * with one uvw per quad (no gradient) the level is max_mip_level; by geometry, a quad showing
 * the whole volume's u and v range over 4x4 pixels has rho 2 (level 1) and over 2x2 pixels
 * rho 4 (level 2).
 * That cube cannot tell which size scales the w gradient, so a second pass uses a 4x4x16 volume
 * (levels 4x4x16, 2x2x8, 1x1x4, 1x1x2, 1x1x1, one colour each) with u, v constant and w running
 * 0..1 across a quad of P pixels: the LOD rule (D3D 11.3 "LOD Calculations", isotropic:
 * lambda = log2(rho), rho = max over x and y of |(du, dv, dw) * (width, height, depth)|) gives
 * rho = 16 / P, so P = 16, 8, 4, 2 select levels 0, 1, 2, 3 with lambda an exact integer
 * (point mips round lambda, whose nearest .5 boundary is half a level away); w running down a
 * 4-pixel-tall quad instead selects level 2 through the y gradient. Scaling dw by the width
 * (4) would give levels 0, 0, 0, 1, and ignoring it level 0 throughout.
 */
XGD_FIXTURE(Volume_MipLevels)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *tex = vx_texture(t, dev, 8, 8, 8, true, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(tex);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.level_count, 4);
    for (int l = 0; l < 4; l++) {
        int s = 8 >> l;
        uint8_t *img = fx_image(s, s * s, MIPC[l]);
        REQUIRE(img);
        CHECK_OK(xgd_texture3d_set_data(tex, l, NULL, img, (size_t)s * s * s * 4));
        free(img);
    }
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, tex);
    REQUIRE(fx);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int l = 0; l < 4; l++) {
        xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, l);
        REQUIRE(ss);
        CHECK_OK(vx_quad(dev, decl, W, H, (float)(l * 4), 0, (float)(l * 4 + 4), 4, 0.3f, 0.6f,
                         0.55f));
        fx_fill(e, W, H, l * 4, 0, l * 4 + 4, 4, MIPC[l]);
        xgd_set_sampler_state(dev, 0, NULL);
        xgd_sampler_state_destroy(ss);
    }
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    const float full[4][3] = { { 0, 0, 0.5f }, { 1, 0, 0.5f }, { 1, 1, 0.5f }, { 0, 1, 0.5f } };
    CHECK_OK(vx_quad4(dev, decl, W, H, 16, 0, 20, 4, full));
    fx_fill(e, W, H, 16, 0, 20, 4, MIPC[1]);
    CHECK_OK(vx_quad4(dev, decl, W, H, 24, 0, 26, 2, full));
    fx_fill(e, W, H, 24, 0, 26, 2, MIPC[2]);
    fx_expect_back_buffer(t, dev, "mips", e, W, H, 0);
    free(e);

    /* 4x4x16: the w gradient scaled by the depth */
    static const xgd_color DEEPC[5] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
                                        { 255, 255, 0, 255 }, { 255, 0, 255, 255 } };
    xgd_texture *deep = vx_texture(t, dev, 4, 4, 16, true, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(deep);
    CHECK_OK(xgd_texture_get_info(deep, &info));
    CHECK_INT(info.level_count, 5);
    for (int l = 0; l < 5; l++) {
        int lw = vx_mip(4, l), ld = vx_mip(16, l);
        uint8_t *img = fx_image(lw, lw * ld, DEEPC[l]);
        REQUIRE(img);
        CHECK_OK(xgd_texture3d_set_data(deep, l, NULL, img, (size_t)lw * lw * ld * 4));
        free(img);
    }
    CHECK_OK(xgd_volume_effect_set_texture(fx, deep));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    e = fx_image(W, H, BLACK);
    REQUIRE(e);
    /* w 0..1 left to right over P = 16, 8, 4, 2 pixels (u = 0.3, v = 0.6 everywhere) */
    const float across[4][3] = { { 0.3f, 0.6f, 0 }, { 0.3f, 0.6f, 1 }, { 0.3f, 0.6f, 1 },
                                 { 0.3f, 0.6f, 0 } };
    const int x0s[4] = { 0, 16, 24, 28 }, ps[4] = { 16, 8, 4, 2 };
    for (int i = 0; i < 4; i++) {
        CHECK_OK(vx_quad4(dev, decl, W, H, (float)x0s[i], 0, (float)(x0s[i] + ps[i]), 4, across));
        int level = (int)floor(log2(16.0 / ps[i]) + 0.5);
        fx_fill(e, W, H, x0s[i], 0, x0s[i] + ps[i], 4, DEEPC[level]);
    }
    /* w 0..1 top to bottom over 4 pixels: rho = 16 / 4 from the y gradient, level 2 */
    const float down[4][3] = { { 0.3f, 0.6f, 0 }, { 0.3f, 0.6f, 0 }, { 0.3f, 0.6f, 1 },
                               { 0.3f, 0.6f, 1 } };
    CHECK_OK(vx_quad4(dev, decl, W, H, 0, 4, 4, 8, down));
    fx_fill(e, W, H, 0, 4, 4, 8, DEEPC[2]);
    fx_expect_back_buffer(t, dev, "mips_depth", e, W, H, 0);
    free(e);
    xgd_set_sampler_state(dev, 0, NULL);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(deep);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* Float volumes sample their stored values: Vector4 and HalfVector4 texels (values exact in
 * half precision) at texel centres, point filter, into the Color target. */
XGD_FIXTURE(Volume_FloatSampling)
{
    enum { W = 16, H = 4 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    static const float vals[2][4] = { { 0.25f, 0.5f, 0.75f, 1.0f }, { 1.0f, 0.125f, 0.0f, 1.0f } };
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    int drawn = 0;
    const xgd_surface_format fmts[2] = { XGD_SURFACE_FORMAT_VECTOR4, XGD_SURFACE_FORMAT_HALF_VECTOR4 };
    for (int k = 0; k < 2; k++) {
        xgd_format_support s;
        CHECK_OK(xgd_device_query_format(dev, fmts[k], &s));
        if (!s.volume) continue;
        /* 1x1x2: slice 0 vals[0], slice 1 vals[1] */
        xgd_texture *tex = vx_texture(t, dev, 1, 1, 2, false, fmts[k]);
        if (!tex) continue;
        uint8_t data[2 * 16];
        for (int z = 0; z < 2; z++) {
            if (k == 0) {
                memcpy(data + z * 16, vals[z], 16);
            } else {
                for (int c = 0; c < 4; c++) {
                    /* exact halves: 0, 0.125 .. 1 have a zero low mantissa */
                    float v = vals[z][c];
                    uint16_t h = v == 0.0f ? 0 : v == 1.0f ? 0x3C00 : v == 0.5f ? 0x3800
                                 : v == 0.25f ? 0x3400 : v == 0.75f ? 0x3A00 : 0x3000;
                    memcpy(data + z * 8 + c * 2, &h, 2);
                }
            }
        }
        CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, data, k == 0 ? 32 : 16));
        xgd_effect *fx = vx_effect(t, dev, tex);
        xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
        if (fx && ss) {
            for (int z = 0; z < 2; z++) {
                float px = (float)(k * 8 + z * 4);
                CHECK_OK(vx_quad(dev, decl, W, H, px, 0, px + 4, 4, 0.5f, 0.5f, (z + 0.5f) / 2));
                fx_fill(e, W, H, (int)px, 0, (int)px + 4, 4,
                        fx_rgba(fx_q8(vals[z][0]), fx_q8(vals[z][1]), fx_q8(vals[z][2]),
                                fx_q8(vals[z][3])));
            }
            drawn++;
        }
        xgd_set_sampler_state(dev, 0, NULL);
        xgd_sampler_state_destroy(ss);
        xgd_effect_destroy(fx);
        xgd_texture_destroy(tex);
    }
    if (drawn > 0) fx_expect_back_buffer(t, dev, "float", e, W, H, 1);
    free(e);
    xgd_vertex_declaration_destroy(decl);
    xgd_device_destroy(dev);
    if (drawn == 0) xgdt_not_supported(t, "neither Vector4 nor HalfVector4 volumes are reported");
}

/* A VolumeEffect with no texture samples (0,0,0,1) (an unbound slot), times its colour; a
 * TextureCoordinate0 with two components reads w = 0. */
XGD_FIXTURE(Volume_NoTextureAndVector2Coordinates)
{
    enum { W = 8, H = 4 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, NULL);
    REQUIRE(fx);
    CHECK_OK(xgd_volume_effect_set_color(fx, (xgd_vector4){ 1, 1, 1, 0.5f }));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 9, 9, 9, 255 }));
    CHECK_OK(vx_quad(dev, decl, W, H, 0, 0, 4, 4, 0.5f, 0.5f, 0.5f));
    uint8_t *e = fx_image(W, H, (xgd_color){ 9, 9, 9, 255 });
    REQUIRE(e);
    fx_fill(e, W, H, 0, 0, 4, 4, (xgd_color){ 0, 0, 0, 128 });
    /* PositionTexture (Vector2 coordinates) on a 1x1x2 volume: w = 0 -> slice 0 (clamp) */
    uint8_t tx[8] = { 10, 200, 30, 255, 250, 5, 90, 255 };
    xgd_texture *tex = vx_texture(t, dev, 1, 1, 2, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(tex);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, tx, sizeof tx));
    CHECK_OK(xgd_volume_effect_set_texture(fx, tex));
    CHECK_OK(xgd_volume_effect_set_color(fx, (xgd_vector4){ 1, 1, 1, 1 }));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    xgd_vertex_position_texture q[6];
    const float xs[6] = { 4, 8, 8, 4, 8, 4 }, ys[6] = { 0, 0, 4, 0, 4, 4 };
    for (int i = 0; i < 6; i++) {
        q[i].position = (xgd_vector3){ fx_ndc_x(xs[i], W), fx_ndc_y(ys[i], H), 0 };
        q[i].texture_coordinate = (xgd_vector2){ 0.5f, 0.5f };
    }
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, q, 0, 2,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_TEXTURE)));
    fx_fill(e, W, H, 4, 0, 8, 4, (xgd_color){ 10, 200, 30, 255 });
    fx_expect_back_buffer(t, dev, "no_texture_vector2", e, W, H, 1);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_vertex_declaration_destroy(decl);
    xgd_device_destroy(dev);
}

/* Context loss and restore (spec 000, as Texture2D): the volume comes back with its texels,
 * proven by reading them and by sampling every slice after the restore. */
XGD_FIXTURE(Volume_Restore)
{
    enum { W = 16, H = 4, N = 4 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    uint8_t tx[N * N * N * 4];
    vx_color_pattern(tx, N * N * N, 21);
    xgd_texture *tex = vx_texture(t, dev, N, N, N, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(tex);
    CHECK_OK(xgd_texture3d_set_data(tex, 0, NULL, tx, sizeof tx));
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_device_restore_context(dev));
    xgd_device_info di;
    CHECK_OK(xgd_device_get_info(dev, &di));
    CHECK_INT(di.last_recovery_failures, 0);
    uint8_t got[sizeof tx];
    CHECK_OK(xgd_texture3d_get_data(tex, 0, NULL, got, sizeof got));
    CHECK_MSG(memcmp(got, tx, sizeof tx) == 0, "texels differ after the restore");
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *fx = vx_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int z = 0; z < N; z++)
        for (int y = 0; y < N; y++)
            for (int x = 0; x < N; x++) {
                int px = z * 4 + x, py = y;
                CHECK_OK(vx_quad(dev, decl, W, H, (float)px, (float)py, (float)px + 1,
                                 (float)py + 1, (x + 0.5f) / N, (y + 0.5f) / N, (z + 0.5f) / N));
                const uint8_t *s = tx + (((size_t)z * N + (size_t)y) * N + (size_t)x) * 4;
                fx_put(e, W, px, py, (xgd_color){ s[0], s[1], s[2], s[3] });
            }
    fx_expect_back_buffer(t, dev, "restored", e, W, H, 0);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/*
 * A Texture3D left in slot 0 by a VolumeEffect draw stays bound under programs that do not
 * sample slot 0 (an untextured BasicEffect, vertex-coloured or diffuse-only, and the MrtEffect):
 * core lets those draws through (they read no texture, so slot 0's kind cannot mismatch), and
 * each renderer must not put the volume where the program's 2D texture would be (a renderer
 * binds slot 0 only when the program samples it, else its stand-in). Each quad shows its own
 * colour: the volume's texel, the vertex colour, the diffuse colour, the MRT output.
 */
XGD_FIXTURE(Volume_SlotZeroUnderUntexturedPrograms)
{
    enum { W = 16, H = 4 };
    xgd_device *dev = vx_device(t, W, H, true);
    REQUIRE(dev);
    if (!vx_supported(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    const xgd_color vol_c = { 30, 160, 220, 255 }, vc = { 250, 40, 10, 255 },
                    mrt_c = { 20, 240, 60, 255 };
    uint8_t tx[2 * 2 * 2 * 4];
    for (int i = 0; i < 8; i++) fx_put(tx, 1, 0, i, vol_c);
    xgd_texture *vol = vx_texture(t, dev, 2, 2, 2, false, XGD_SURFACE_FORMAT_COLOR);
    REQUIRE(vol);
    CHECK_OK(xgd_texture3d_set_data(vol, 0, NULL, tx, sizeof tx));
    xgd_vertex_declaration *decl = vx_decl(t, dev);
    REQUIRE(decl);
    xgd_effect *vfx = vx_effect(t, dev, vol);
    REQUIRE(vfx);
    xgd_sampler_state *ss = vx_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    CHECK_OK(vx_quad(dev, decl, W, H, 0, 0, 4, 4, 0.5f, 0.5f, 0.5f));
    fx_fill(e, W, H, 0, 0, 4, 4, vol_c);

    /* untextured BasicEffect, vertex colours; the volume is still (and again) in slot 0 */
    xgd_effect *bfx = fx_effect(t, dev);
    REQUIRE(bfx);
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    CHECK_OK(fx_rect(dev, W, H, 4, 0, 8, 4, 0.0f, vc));
    fx_fill(e, W, H, 4, 0, 8, 4, vc);
    /* untextured, no vertex colours: the diffuse colour alone (variant 0) */
    xgd_basic_effect_params p;
    xgd_basic_effect_get(bfx, &p);
    p.vertex_color_enabled = false;
    p.diffuse_color = (xgd_vector3){ 0.5f, 0.25f, 1.0f };
    CHECK_OK(xgd_basic_effect_set(bfx, &p));
    CHECK_OK(xgd_effect_apply(bfx));
    CHECK_OK(xgd_set_texture(dev, 0, vol));
    CHECK_OK(fx_rect(dev, W, H, 8, 0, 12, 4, 0.0f, vc));
    fx_fill(e, W, H, 8, 0, 12, 4, fx_rgba(fx_q8(0.5), fx_q8(0.25), 255, 255));
    /* MrtEffect: target 0 = vertex colour * colors[0] (default white) */
    xgd_effect *mfx = NULL;
    CHECK_OK(xgd_mrt_effect_create(dev, &mfx));
    if (mfx) {
        CHECK_OK(xgd_effect_apply(mfx));
        CHECK_OK(xgd_set_texture(dev, 0, vol));
        CHECK_OK(fx_rect(dev, W, H, 12, 0, 16, 4, 0.0f, mrt_c));
        fx_fill(e, W, H, 12, 0, 16, 4, mrt_c);
    }
    fx_expect_back_buffer(t, dev, "slot0_untextured", e, W, H, 1);
    free(e);
    xgd_effect_destroy(mfx);
    xgd_effect_destroy(bfx);
    xgd_set_sampler_state(dev, 0, NULL);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(vfx);
    xgd_vertex_declaration_destroy(decl);
    xgd_texture_destroy(vol);
    xgd_device_destroy(dev);
}
