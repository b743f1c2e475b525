/*
 * fixture_sample.c - texture sampling through BasicEffect: point texel selection, linear
 * weights, address modes, mip selection, MaxMipLevel and LOD bias, and every surface format's
 * decode rule (Direct3D conventions: missing colour channels 0, missing alpha 1, snorm
 * max(-1, v/max), then stored into a Color target: floor(clamp(v) * 255 + 0.5)).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };
static const xgd_color WHITE = { 255, 255, 255, 255 };

static xgd_sampler_state *bind_sampler(xgdt_ctx *t, xgd_device *dev, xgd_texture_filter filter,
                                       xgd_texture_address_mode u, xgd_texture_address_mode v,
                                       int max_mip, float bias)
{
    xgd_sampler_desc d = XGD_SAMPLER_DESC_DEFAULT;
    d.filter = filter;
    d.address_u = u;
    d.address_v = v;
    d.address_w = XGD_ADDRESS_CLAMP;
    d.max_mip_level = max_mip;
    d.mip_map_level_of_detail_bias = bias;
    xgd_sampler_state *s = fx_sampler(t, dev, &d);
    if (s) CHECK_OK(xgd_set_sampler_state(dev, 0, s));
    return s;
}

/* A 5x3 texture stretched over 13x7 pixels: pixel x reads texel floor((x + 0.5) * 5 / 13)
 * (never on a boundary: (2x + 1) * 5 / 26 is not an integer). */
XGD_FIXTURE(Sample_PointTexel)
{
    enum { W = 16, H = 8, TW = 5, TH = 3 };
    /* D3D10 centres: tests point sampling, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    uint8_t tx[TW * TH * 4];
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) fx_put(tx, TW, x, y, fx_rgba(x * 60, y * 120, 255 - x * 50 - y * 10, 255 - y * 40));
    xgd_texture *tex = xgdt_image_texture(t, dev, TW, TH, tx);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, 0, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_tex_rect(dev, W, H, 0, 0, 13, 7, 0, 0, 1, 1, WHITE));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int y = 0; y < 7; y++)
        for (int x = 0; x < 13; x++)
            fx_put(e, W, x, y, fx_get(tx, TW, (int)floor((x + 0.5) * TW / 13.0), (int)floor((y + 0.5) * TH / 7.0)));
    fx_expect_back_buffer(t, dev, "point", e, W, H, 0);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/*
 * Linear weights come from u * w - 0.5: a 2x2 texture over 4x4 pixels samples at texel
 * coordinates -0.25, 0.25, 0.75, 1.25 (weights 1|0, .75|.25, .25|.75, 0|1 under Clamp); a
 * one-pixel quad with uv 0.25..0.75 samples exactly between all four texels (their average).
 */
XGD_FIXTURE(Sample_LinearWeights)
{
    enum { W = 16, H = 8 };
    /* D3D10 centres: tests filter weights, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    const xgd_color T[4] = { { 255, 0, 40, 255 }, { 0, 200, 80, 155 }, { 20, 60, 240, 55 }, { 250, 250, 0, 205 } };
    uint8_t tx[16];
    for (int i = 0; i < 4; i++) fx_put(tx, 2, i % 2, i / 2, T[i]);
    xgd_texture *tex = xgdt_image_texture(t, dev, 2, 2, tx);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_LINEAR, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, 0, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_tex_rect(dev, W, H, 0, 0, 4, 4, 0, 0, 1, 1, WHITE));
    CHECK_OK(fx_tex_rect(dev, W, H, 8, 2, 9, 3, 0.25f, 0.25f, 0.75f, 0.75f, WHITE));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    const double w1[4] = { 0.0, 0.25, 0.75, 1.0 }; /* weight of texel 1 per pixel */
    for (int y = 0; y < 4; y++) {
        for (int x = 0; x < 4; x++) {
            double wx[2] = { 1 - w1[x], w1[x] }, wy[2] = { 1 - w1[y], w1[y] };
            double acc[4] = { 0, 0, 0, 0 };
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 2; i++) {
                    xgd_color c = T[j * 2 + i];
                    double k = wx[i] * wy[j] / 255.0;
                    acc[0] += c.r * k; acc[1] += c.g * k; acc[2] += c.b * k; acc[3] += c.a * k;
                }
            fx_put(e, W, x, y, fx_rgba(fx_q8(acc[0]), fx_q8(acc[1]), fx_q8(acc[2]), fx_q8(acc[3])));
        }
    }
    double avg[4] = { 0, 0, 0, 0 };
    for (int i = 0; i < 4; i++) {
        avg[0] += T[i].r / 1020.0; avg[1] += T[i].g / 1020.0; avg[2] += T[i].b / 1020.0; avg[3] += T[i].a / 1020.0;
    }
    fx_put(e, W, 8, 2, fx_rgba(fx_q8(avg[0]), fx_q8(avg[1]), fx_q8(avg[2]), fx_q8(avg[3])));
    fx_expect_back_buffer(t, dev, "linear", e, W, H, 1);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static int address(xgd_texture_address_mode m, int i, int n)
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

/* uv -1..2 over 24x24 pixels of a 4x4 asymmetric texture: texel coordinate -4 + (x + 0.5) / 2,
 * then each axis's address mode. */
XGD_FIXTURE(Sample_AddressModes)
{
    enum { W = 128, H = 32, N = 4 };
    /* D3D10 centres: tests address modes, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    uint8_t tx[N * N * 4];
    for (int y = 0; y < N; y++)
        for (int x = 0; x < N; x++) fx_put(tx, N, x, y, fx_rgba(x * 80, y * 80, (x * 3 + y * 5) * 15, 255));
    xgd_texture *tex = xgdt_image_texture(t, dev, N, N, tx);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    const xgd_texture_address_mode modes[4][2] = {
        { XGD_ADDRESS_WRAP, XGD_ADDRESS_CLAMP }, { XGD_ADDRESS_CLAMP, XGD_ADDRESS_MIRROR },
        { XGD_ADDRESS_MIRROR, XGD_ADDRESS_WRAP }, { XGD_ADDRESS_MIRROR, XGD_ADDRESS_MIRROR },
    };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int q = 0; q < 4; q++) {
        xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_POINT, modes[q][0], modes[q][1], 0, 0);
        REQUIRE(ss);
        int x0 = q * 32;
        CHECK_OK(fx_tex_rect(dev, W, H, (float)x0, 0, (float)(x0 + 24), 24, -1, -1, 2, 2, WHITE));
        xgd_set_sampler_state(dev, 0, NULL);
        xgd_sampler_state_destroy(ss);
        for (int y = 0; y < 24; y++)
            for (int x = 0; x < 24; x++) {
                int iu = (int)floor(-4.0 + (x + 0.5) / 2.0), iv = (int)floor(-4.0 + (y + 0.5) / 2.0);
                fx_put(e, W, x0 + x, y, fx_get(tx, N, address(modes[q][0], iu, N), address(modes[q][1], iv, N)));
            }
    }
    fx_expect_back_buffer(t, dev, "address", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static const xgd_color MIPC[5] = { { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 },
                                   { 255, 255, 0, 255 }, { 255, 0, 255, 255 } };

/* 16x16 with five levels, each a solid distinct colour. */
static xgd_texture *mip_texture(xgdt_ctx *t, xgd_device *dev)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc d = { .width = 16, .height = 16, .mipmap = true, .format = XGD_SURFACE_FORMAT_COLOR };
    xgd_result r = xgd_texture2d_create(dev, &d, &tex);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "mip texture: %s", xgd_result_name(r));
        return NULL;
    }
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(tex, &info));
    CHECK_INT(info.level_count, 5);
    for (int l = 0; l < 5; l++) {
        int s = 16 >> l;
        uint8_t *img = fx_image(s, s, MIPC[l]);
        if (!img) break;
        CHECK_OK(xgd_texture_set_data(tex, l, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, img, (size_t)s * s * 4));
        free(img);
    }
    return tex;
}

/* Drawn at 1, 1/2, 1/4 and 1/8 size, point mip selection picks levels 0, 1, 2, 3. */
XGD_FIXTURE(Sample_MipSelection)
{
    enum { W = 32, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = mip_texture(t, dev);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, 0, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const int x0[4] = { 0, 16, 24, 28 }, size[4] = { 16, 8, 4, 2 };
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 4; i++) {
        CHECK_OK(fx_tex_rect(dev, W, H, (float)x0[i], 0, (float)(x0[i] + size[i]), (float)size[i], 0, 0, 1, 1, WHITE));
        fx_fill(e, W, H, x0[i], 0, x0[i] + size[i], size[i], MIPC[i]);
    }
    fx_expect_back_buffer(t, dev, "mips", e, W, H, 0);
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* lod = log2(scale) + bias, clamped to [MaxMipLevel, levels - 1], nearest level for point mip. */
XGD_FIXTURE(Sample_MaxMipLevelAndBias)
{
    enum { W = 128, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = mip_texture(t, dev);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    struct { int x0, size, max_mip; float bias; int level; } q[6] = {
        { 0, 16, 2, 0.0f, 2 },    /* lod 0 raised to MaxMipLevel 2 */
        { 16, 16, 0, 1.0f, 1 },   /* bias 1 */
        { 32, 16, 2, 1.0f, 2 },   /* bias 1, clamped up to 2 */
        { 48, 8, 0, -1.0f, 0 },   /* lod 1 - 1 */
        { 64, 4, 1, 0.0f, 2 },    /* lod 2 is already above MaxMipLevel 1 */
        { 80, 16, 0, 2.6f, 3 },   /* lod 2.6: nearest level 3 */
    };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 6; i++) {
        xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, q[i].max_mip, q[i].bias);
        REQUIRE(ss);
        CHECK_OK(fx_tex_rect(dev, W, H, (float)q[i].x0, 0, (float)(q[i].x0 + q[i].size), (float)q[i].size, 0, 0, 1, 1, WHITE));
        xgd_set_sampler_state(dev, 0, NULL);
        xgd_sampler_state_destroy(ss);
        fx_fill(e, W, H, q[i].x0, 0, q[i].x0 + q[i].size, q[i].size, MIPC[q[i].level]);
    }
    fx_expect_back_buffer(t, dev, "maxmip_bias", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- formats ---------------------------------------------------------------------------- */

typedef struct fmt_case {
    xgd_surface_format format;
    const char *name;
    uint8_t data[256];        /* 4x4 texels (or one block) */
    double expect[4][4];      /* decoded RGBA of texels 0..3 of every row */
} fmt_case;

static void put16(uint8_t *d, int i, unsigned v) { d[i * 2] = (uint8_t)v; d[i * 2 + 1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *d, int i, uint32_t v)
{
    for (int k = 0; k < 4; k++) d[i * 4 + k] = (uint8_t)(v >> (8 * k));
}
static void putf(uint8_t *d, int i, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(d, i, u);
}

/* Fills 4 rows with the first row's bytes. */
static void repeat_rows(uint8_t *d, size_t row_bytes)
{
    for (int r = 1; r < 4; r++) memcpy(d + r * row_bytes, d, row_bytes);
}

static void set4(double e[4], double r, double g, double b, double a)
{
    e[0] = r; e[1] = g; e[2] = b; e[3] = a;
}

static int build_cases(fmt_case *c)
{
    int n = 0;
    memset(c, 0, sizeof(fmt_case) * 24);

    /* Bgr565: b 0-4, g 5-10, r 11-15 */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_BGR565; k->name = "Bgr565";
        const unsigned r[4] = { 31, 0, 0, 16 }, g[4] = { 0, 63, 0, 32 }, b[4] = { 0, 0, 31, 5 };
        for (int i = 0; i < 4; i++) {
            put16(k->data, i, (r[i] << 11) | (g[i] << 5) | b[i]);
            set4(k->expect[i], r[i] / 31.0, g[i] / 63.0, b[i] / 31.0, 1);
        }
        repeat_rows(k->data, 8);
    }
    /* Bgra5551: b 0-4, g 5-9, r 10-14, a 15 */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_BGRA5551; k->name = "Bgra5551";
        const unsigned r[4] = { 31, 3, 0, 20 }, g[4] = { 0, 31, 9, 10 }, b[4] = { 7, 0, 31, 30 }, a[4] = { 1, 0, 1, 1 };
        for (int i = 0; i < 4; i++) {
            put16(k->data, i, (a[i] << 15) | (r[i] << 10) | (g[i] << 5) | b[i]);
            set4(k->expect[i], r[i] / 31.0, g[i] / 31.0, b[i] / 31.0, a[i]);
        }
        repeat_rows(k->data, 8);
    }
    /* Bgra4444: b 0-3, g 4-7, r 8-11, a 12-15 */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_BGRA4444; k->name = "Bgra4444";
        const unsigned r[4] = { 15, 1, 0, 8 }, g[4] = { 0, 14, 3, 8 }, b[4] = { 5, 0, 15, 8 }, a[4] = { 15, 7, 0, 10 };
        for (int i = 0; i < 4; i++) {
            put16(k->data, i, (a[i] << 12) | (r[i] << 8) | (g[i] << 4) | b[i]);
            set4(k->expect[i], r[i] / 15.0, g[i] / 15.0, b[i] / 15.0, a[i] / 15.0);
        }
        repeat_rows(k->data, 8);
    }
    /* Alpha8: (0, 0, 0, a) */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_ALPHA8; k->name = "Alpha8";
        const unsigned a[4] = { 255, 0, 77, 200 };
        for (int i = 0; i < 4; i++) {
            k->data[i] = (uint8_t)a[i];
            set4(k->expect[i], 0, 0, 0, a[i] / 255.0);
        }
        repeat_rows(k->data, 4);
    }
    /* NormalizedByte4: snorm, max(-1, v / 127); negatives store as 0 in Color */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_NORMALIZED_BYTE4; k->name = "NormalizedByte4";
        const int v[4][4] = { { 127, -128, 64, 127 }, { 0, 127, -1, 32 }, { -127, 10, 127, 0 }, { 100, 50, 25, 127 } };
        for (int i = 0; i < 4; i++) {
            for (int ch = 0; ch < 4; ch++) {
                k->data[i * 4 + ch] = (uint8_t)(int8_t)v[i][ch];
                double f = v[i][ch] / 127.0;
                k->expect[i][ch] = f < -1 ? -1 : f;
            }
        }
        repeat_rows(k->data, 16);
    }
    /* NormalizedByte2: (r, g, 0, 1) */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_NORMALIZED_BYTE2; k->name = "NormalizedByte2";
        const int v[4][2] = { { 127, 0 }, { 64, 127 }, { -64, 90 }, { 13, -128 } };
        for (int i = 0; i < 4; i++) {
            k->data[i * 2] = (uint8_t)(int8_t)v[i][0];
            k->data[i * 2 + 1] = (uint8_t)(int8_t)v[i][1];
            set4(k->expect[i], v[i][0] / 127.0, v[i][1] / 127.0, 0, 1);
        }
        repeat_rows(k->data, 8);
    }
    /* Rgba1010102: r 0-9, g 10-19, b 20-29, a 30-31 */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_RGBA1010102; k->name = "Rgba1010102";
        const uint32_t r[4] = { 1023, 0, 512, 100 }, g[4] = { 0, 1023, 256, 900 }, b[4] = { 300, 0, 1023, 4 }, a[4] = { 3, 1, 2, 0 };
        for (int i = 0; i < 4; i++) {
            put32(k->data, i, r[i] | (g[i] << 10) | (b[i] << 20) | (a[i] << 30));
            set4(k->expect[i], r[i] / 1023.0, g[i] / 1023.0, b[i] / 1023.0, a[i] / 3.0);
        }
        repeat_rows(k->data, 16);
    }
    /* Rg32: R16G16 unorm */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_RG32; k->name = "Rg32";
        const unsigned r[4] = { 65535, 0, 32768, 1000 }, g[4] = { 0, 65535, 16384, 60000 };
        for (int i = 0; i < 4; i++) {
            put16(k->data, i * 2, r[i]);
            put16(k->data, i * 2 + 1, g[i]);
            set4(k->expect[i], r[i] / 65535.0, g[i] / 65535.0, 0, 1);
        }
        repeat_rows(k->data, 16);
    }
    /* Rgba64: R16G16B16A16 unorm */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_RGBA64; k->name = "Rgba64";
        const unsigned v[4][4] = { { 65535, 0, 12345, 65535 }, { 0, 40000, 65535, 30000 }, { 5000, 5000, 50000, 0 }, { 32767, 32768, 1, 65534 } };
        for (int i = 0; i < 4; i++) {
            for (int ch = 0; ch < 4; ch++) {
                put16(k->data, i * 4 + ch, v[i][ch]);
                k->expect[i][ch] = v[i][ch] / 65535.0;
            }
        }
        repeat_rows(k->data, 32);
    }
    /* Single: (r, 0, 0, 1) */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_SINGLE; k->name = "Single";
        const float v[4] = { 1.0f, 0.25f, -3.0f, 7.5f };
        for (int i = 0; i < 4; i++) {
            putf(k->data, i, v[i]);
            set4(k->expect[i], v[i], 0, 0, 1);
        }
        repeat_rows(k->data, 16);
    }
    /* Vector2: (r, g, 0, 1) */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_VECTOR2; k->name = "Vector2";
        const float v[4][2] = { { 0.5f, 1.0f }, { 0.0f, 0.75f }, { 2.0f, -1.0f }, { 0.125f, 0.375f } };
        for (int i = 0; i < 4; i++) {
            putf(k->data, i * 2, v[i][0]);
            putf(k->data, i * 2 + 1, v[i][1]);
            set4(k->expect[i], v[i][0], v[i][1], 0, 1);
        }
        repeat_rows(k->data, 32);
    }
    /* Vector4 */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_VECTOR4; k->name = "Vector4";
        const float v[4][4] = { { 1, 0, 0.5f, 1 }, { 0.25f, 0.75f, 0, 0.5f }, { -1, 2, 0.1f, 0.9f }, { 0.3f, 0.6f, 0.9f, 0 } };
        for (int i = 0; i < 4; i++)
            for (int ch = 0; ch < 4; ch++) {
                putf(k->data, i * 4 + ch, v[i][ch]);
                k->expect[i][ch] = v[i][ch];
            }
        repeat_rows(k->data, 64);
    }
    /* Half formats: 0x3C00 1.0, 0x3800 0.5, 0x3400 0.25, 0x3A00 0.75, 0xBC00 -1, 0x4000 2 */
    {
        const unsigned h[4][4] = { { 0x3C00, 0x0000, 0x3800, 0x3C00 }, { 0x3400, 0x3A00, 0xBC00, 0x3800 },
                                   { 0x4000, 0x3800, 0x3400, 0x0000 }, { 0x0000, 0x3C00, 0x3A00, 0x3400 } };
        const double hv[4][4] = { { 1, 0, 0.5, 1 }, { 0.25, 0.75, -1, 0.5 }, { 2, 0.5, 0.25, 0 }, { 0, 1, 0.75, 0.25 } };
        const xgd_surface_format f[4] = { XGD_SURFACE_FORMAT_HALF_SINGLE, XGD_SURFACE_FORMAT_HALF_VECTOR2,
                                          XGD_SURFACE_FORMAT_HALF_VECTOR4, XGD_SURFACE_FORMAT_HDR_BLENDABLE };
        const char *names[4] = { "HalfSingle", "HalfVector2", "HalfVector4", "HdrBlendable" };
        const int chans[4] = { 1, 2, 4, 4 };
        for (int fi = 0; fi < 4; fi++) {
            fmt_case *k = &c[n++];
            k->format = f[fi]; k->name = names[fi];
            for (int i = 0; i < 4; i++) {
                set4(k->expect[i], 0, 0, 0, 1);
                for (int ch = 0; ch < chans[fi]; ch++) {
                    put16(k->data, i * chans[fi] + ch, h[i][ch]);
                    k->expect[i][ch] = hv[i][ch];
                }
            }
            repeat_rows(k->data, (size_t)8 * chans[fi]);
        }
    }
    /* DXT1, 4-colour mode (c0 > c1): red, blue, 2/3 red + 1/3 blue, 1/3 red + 2/3 blue;
       indices 0,1,2,3 along every row (2 bits per texel, texel 0 in the low bits). */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_DXT1; k->name = "Dxt1";
        put16(k->data, 0, 0xF800);
        put16(k->data, 1, 0x001F);
        for (int r = 0; r < 4; r++) k->data[4 + r] = 0xE4;
        set4(k->expect[0], 1, 0, 0, 1);
        set4(k->expect[1], 0, 0, 1, 1);
        set4(k->expect[2], 2.0 / 3, 0, 1.0 / 3, 1);
        set4(k->expect[3], 1.0 / 3, 0, 2.0 / 3, 1);
    }
    /* DXT1, 3-colour mode (c0 <= c1): blue, red, half-way, transparent black */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_DXT1; k->name = "Dxt1_3colour";
        put16(k->data, 0, 0x001F);
        put16(k->data, 1, 0xF800);
        for (int r = 0; r < 4; r++) k->data[4 + r] = 0xE4;
        set4(k->expect[0], 0, 0, 1, 1);
        set4(k->expect[1], 1, 0, 0, 1);
        set4(k->expect[2], 0.5, 0, 0.5, 1);
        set4(k->expect[3], 0, 0, 0, 0);
    }
    /* DXT3: explicit 4-bit alpha 0, 5, 10, 15 per row, then the 4-colour block above */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_DXT3; k->name = "Dxt3";
        for (int r = 0; r < 4; r++) put16(k->data, r, 0xFA50);
        put16(k->data, 4, 0xF800);
        put16(k->data, 5, 0x001F);
        for (int r = 0; r < 4; r++) k->data[12 + r] = 0xE4;
        set4(k->expect[0], 1, 0, 0, 0);
        set4(k->expect[1], 0, 0, 1, 5 / 15.0);
        set4(k->expect[2], 2.0 / 3, 0, 1.0 / 3, 10 / 15.0);
        set4(k->expect[3], 1.0 / 3, 0, 2.0 / 3, 1);
    }
    /* DXT5: alpha0 255 > alpha1 0 (8-value mode); indices 0, 1, 2, 7 per row give 1, 0, 6/7,
       1/7 (3 bits per texel, texel 0 in the low bits) */
    {
        fmt_case *k = &c[n++];
        k->format = XGD_SURFACE_FORMAT_DXT5; k->name = "Dxt5";
        k->data[0] = 255;
        k->data[1] = 0;
        uint64_t bits = 0;
        for (int r = 0; r < 4; r++) bits |= (uint64_t)(0u | 1u << 3 | 2u << 6 | 7u << 9) << (12 * r);
        for (int b = 0; b < 6; b++) k->data[2 + b] = (uint8_t)(bits >> (8 * b));
        put16(k->data, 4, 0xF800);
        put16(k->data, 5, 0x001F);
        for (int r = 0; r < 4; r++) k->data[12 + r] = 0xE4;
        set4(k->expect[0], 1, 0, 0, 1);
        set4(k->expect[1], 0, 0, 1, 0);
        set4(k->expect[2], 2.0 / 3, 0, 1.0 / 3, 6.0 / 7);
        set4(k->expect[3], 1.0 / 3, 0, 2.0 / 3, 1.0 / 7);
    }
    return n;
}

/* Each format's 4x4 texture drawn 1:1 with point sampling into its own 4x4 cell. */
XGD_FIXTURE(Sample_Formats)
{
    enum { H = 4 };
    fmt_case cases[24];
    int n = build_cases(cases);
    int W = n * 4;
    /* D3D10 centres: tests format decoding, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_sampler_state *ss = bind_sampler(t, dev, XGD_FILTER_POINT, XGD_ADDRESS_CLAMP, XGD_ADDRESS_CLAMP, 0, 0);
    REQUIRE(ss);
    CHECK_OK(xgd_clear_color(dev, fx_rgba(1, 2, 3, 4)));
    uint8_t *e = fx_image(W, H, fx_rgba(1, 2, 3, 4));
    REQUIRE(e);
    for (int i = 0; i < n; i++) {
        xgd_format_support sup;
        CHECK_OK(xgd_device_query_format(dev, cases[i].format, &sup));
        if (!sup.texture) {
            printf("  note: %s is not sampleable on %s; skipped\n", cases[i].name, t->renderer_name);
            continue;
        }
        xgd_texture *tex = NULL;
        xgd_texture2d_desc d = { .width = 4, .height = 4, .format = cases[i].format };
        xgd_result r = xgd_texture2d_create(dev, &d, &tex);
        CHECK_MSG(r == XGD_OK, "%s: create returned %s (%s)", cases[i].name, xgd_result_name(r), xgdt_last_message());
        if (r != XGD_OK) continue;
        size_t size = xgd_surface_format_size(cases[i].format, 4, 4);
        REQUIRE(size <= sizeof cases[i].data);
        r = xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, cases[i].data, size);
        CHECK_MSG(r == XGD_OK, "%s: set_data returned %s (%s)", cases[i].name, xgd_result_name(r), xgdt_last_message());
        xgd_basic_effect_params p;
        xgd_basic_effect_get(fx, &p);
        p.texture_enabled = true;
        CHECK_OK(xgd_basic_effect_set(fx, &p));
        CHECK_OK(xgd_basic_effect_set_texture(fx, tex));
        CHECK_OK(xgd_effect_apply(fx));
        CHECK_OK(fx_tex_rect(dev, W, H, (float)(i * 4), 0, (float)(i * 4 + 4), 4, 0, 0, 1, 1, WHITE));
        CHECK_OK(xgd_basic_effect_set_texture(fx, NULL));
        CHECK_OK(xgd_effect_apply(fx));
        xgd_texture_destroy(tex);
        for (int x = 0; x < 4; x++) {
            const double *v = cases[i].expect[x];
            fx_fill(e, W, H, i * 4 + x, 0, i * 4 + x + 1, 4, fx_rgba(fx_q8(v[0]), fx_q8(v[1]), fx_q8(v[2]), fx_q8(v[3])));
        }
    }
    uint8_t *actual = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &actual)) {
        /* per format, so a failure names the format */
        for (int i = 0; i < n; i++) {
            uint8_t a[64], x[64];
            for (int y = 0; y < 4; y++) {
                memcpy(a + y * 16, actual + ((size_t)y * W + (size_t)i * 4) * 4, 16);
                memcpy(x + y * 16, e + ((size_t)y * W + (size_t)i * 4) * 4, 16);
            }
            xgdt_compare_rgba(t, cases[i].name, a, x, 4, 4, 1);
        }
        free(actual);
    }
    free(e);
    xgd_sampler_state_destroy(ss);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
