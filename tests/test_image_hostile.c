/*
 * test_image_hostile.c - damaged and hostile image files: huge declared sizes, truncated data,
 * lying headers and mip counts, sizes that overflow, unsupported DDS formats. Each gets its
 * named error with a message, creates nothing and leaves *out NULL. That no such file makes
 * the loaders allocate by its declared size is checked by the image fuzz target's replay of
 * these same cases under a malloc limit (fuzz/regressions/image/, written by
 * Image_HostileRegressionsCommitted's generator fuzz/make-image-regressions.py).
 */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IMAGES XGD_TEST_DATA_DIR "/images/"

static uint8_t *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    uint8_t *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = malloc((size_t)n + 1);
        if (buf != NULL && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
    }
    fclose(f);
    if (buf != NULL) *size = (size_t)n;
    return buf;
}

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* A DDS header (128 bytes, or 148 with a DX10 header) followed by `data` bytes of 0x55. */
typedef struct dds_spec {
    uint32_t width, height, depth, mips, caps2;
    uint32_t pf_flags, fourcc, bits, r, g, b, a;
    bool dx10;
    uint32_t dxgi, dimension, misc, array;
    size_t data;
} dds_spec;

static uint8_t *make_dds(const dds_spec *s, size_t *size)
{
    size_t head = 128 + (s->dx10 ? 20 : 0);
    uint8_t *f = malloc(head + s->data + 1);
    if (f == NULL) abort();
    memset(f, 0, head);
    memset(f + head, 0x55, s->data);
    memcpy(f, "DDS ", 4);
    uint8_t *h = f + 4;
    put32(h, 124);
    put32(h + 4, 0x1007);
    put32(h + 8, s->height);
    put32(h + 12, s->width);
    put32(h + 20, s->depth);
    put32(h + 24, s->mips);
    put32(h + 72, 32);
    put32(h + 76, s->dx10 ? 0x4 : s->pf_flags);
    put32(h + 80, s->dx10 ? 0x30315844u /* DX10 */ : s->fourcc);
    put32(h + 84, s->bits);
    put32(h + 88, s->r);
    put32(h + 92, s->g);
    put32(h + 96, s->b);
    put32(h + 100, s->a);
    put32(h + 104, 0x1000);
    put32(h + 108, s->caps2);
    if (s->dx10) {
        put32(f + 128, s->dxgi);
        put32(f + 132, s->dimension);
        put32(f + 136, s->misc);
        put32(f + 140, s->array);
    }
    *size = head + s->data;
    return f;
}

#define DXT1 0x31545844u
#define DXT5 0x35545844u

static xgd_device *hidef_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.profile = XGD_GRAPHICS_PROFILE_HIDEF;
    return xgdt_device(t, &dd);
}

/* Loads through `loader` (0: xgd_texture2d_from_memory, 1: xgd_texture_from_dds_memory) and
 * checks the named result, a message containing `words`, no texture and no new resource. */
static void expect_refusal(xgdt_ctx *t, xgd_device *dev, int loader, const char *what,
                           const void *data, size_t size, xgd_result expected, const char *words)
{
    xgd_statistics before, after;
    CHECK_OK(xgd_device_get_statistics(dev, &before));
    xgd_texture *tex = (xgd_texture *)dev;
    xgd_result r = loader == 0 ? xgd_texture2d_from_memory(dev, data, size, &tex)
                               : xgd_texture_from_dds_memory(dev, data, size, &tex);
    const char *msg = xgd_device_last_error(dev);
    CHECK_MSG(r == expected, "%s: %s, expected %s (%s)", what, xgd_result_name(r),
              xgd_result_name(expected), msg);
    CHECK_MSG(tex == NULL, "%s: *out was not cleared", what);
    CHECK_MSG(words == NULL || strstr(msg, words) != NULL, "%s: message '%s' lacks '%s'", what,
              msg, words);
    CHECK_OK(xgd_device_get_statistics(dev, &after));
    CHECK_MSG(after.textures_created == before.textures_created &&
                  after.live_resources == before.live_resources,
              "%s: a refused image created something", what);
    if (r == XGD_OK) xgd_texture_destroy(tex);
}

XGD_TEST(Image_DdsHostileHeaders)
{
    xgd_device *dev = hidef_device(t);
    REQUIRE(dev != NULL);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    size_t n;
    uint8_t *f;
    const dds_spec dxt1 = { .width = 16, .height = 16, .mips = 1, .pf_flags = 0x4,
                            .fourcc = DXT1, .data = 128 };

    /* Sizes far beyond the device: refused from the header, before any size is computed. */
    dds_spec s = dxt1;
    s.width = s.height = 0xfffffffcu;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS 4294967292 per side", f, n, XGD_ERROR_NOT_SUPPORTED,
                   "4294967292x4294967292");
    free(f);

    /* Within the limit but with no texels behind the header: a 4096x4096 DXT5 with a full
     * chain would need 11 MiB; the file has 64 bytes. */
    s = dxt1;
    s.fourcc = DXT5;
    s.width = s.height = (uint32_t)info.max_texture_size;
    s.mips = 13;
    s.data = 64;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS without its texels", f, n, XGD_ERROR_INVALID_ARGUMENT,
                   "truncated");
    free(f);

    /* A mip count beyond the chain (16x16 has 5 levels). */
    s = dxt1;
    s.mips = 0xffffffffu;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS lying mip count", f, n, XGD_ERROR_INVALID_ARGUMENT,
                   "mip levels");
    free(f);
    s.mips = 6;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS one mip too many", f, n, XGD_ERROR_INVALID_ARGUMENT,
                   "a 16x16x1 texture has 5");
    free(f);
    /* A mip count the chain allows but the file does not hold (level 0 is 128 bytes). */
    s.mips = 5;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS mips missing", f, n, XGD_ERROR_INVALID_ARGUMENT, "truncated");
    free(f);

    /* A volume whose byte count overflows 32 bits (4096^3 texels of 16 bytes): refused by its
     * size, never by a wrapped-around small number. */
    s = (dds_spec){ .width = (uint32_t)info.max_texture_size,
                    .height = (uint32_t)info.max_texture_size,
                    .depth = (uint32_t)info.max_texture_size, .mips = 1, .caps2 = 0x200000,
                    .pf_flags = 0x4, .fourcc = 116 /* A32B32G32R32F */, .data = 16 };
    f = make_dds(&s, &n);
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture_from_dds_memory(dev, f, n, &tex);
    CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_OUT_OF_MEMORY ||
                  r == XGD_ERROR_NOT_SUPPORTED,
              "DDS volume size overflow: %s", xgd_result_name(r));
    CHECK(tex == NULL);
    free(f);

    /* Truncated inside the header, a bad header size, zero sizes. */
    s = dxt1;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS header cut", f, 60, XGD_ERROR_INVALID_ARGUMENT, "header");
    put32(f + 4, 100);
    expect_refusal(t, dev, 1, "DDS header size 100", f, n, XGD_ERROR_INVALID_ARGUMENT,
                   "header sizes");
    free(f);
    s.width = 0;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS width 0", f, n, XGD_ERROR_INVALID_ARGUMENT, "0x16");
    free(f);

    /* Formats and shapes xgd has no texture for: NOT_SUPPORTED naming them. */
    s = dxt1;
    s.fourcc = 0x32495441u; /* ATI2 */
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS ATI2", f, n, XGD_ERROR_NOT_SUPPORTED, "'ATI2'");
    free(f);
    s = dxt1;
    s.dx10 = true, s.dxgi = 98, s.dimension = 3, s.array = 1;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS BC7", f, n, XGD_ERROR_NOT_SUPPORTED, "BC7_UNORM");
    free(f);
    s.dxgi = 71, s.array = 4;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS array", f, n, XGD_ERROR_NOT_SUPPORTED, "array");
    free(f);
    s.array = 1, s.dimension = 2;
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS 1D", f, n, XGD_ERROR_NOT_SUPPORTED, "Texture1D");
    free(f);
    s = dxt1;
    s.caps2 = 0x200 | 0x400 | 0x800; /* +X and -X only */
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS partial cube", f, n, XGD_ERROR_NOT_SUPPORTED, "six faces");
    free(f);
    s = (dds_spec){ .width = 4, .height = 4, .mips = 1, .pf_flags = 0x20000 /* luminance */,
                    .bits = 8, .r = 0xff, .data = 16 };
    f = make_dds(&s, &n);
    expect_refusal(t, dev, 1, "DDS L8", f, n, XGD_ERROR_NOT_SUPPORTED, "luminance");
    free(f);
    xgd_device_destroy(dev);
}

/* Reach refuses what XNA's Reach profile refuses, from the header: a non-power-of-two DXT
 * texture and any Texture3D. */
XGD_TEST(Image_DdsProfileRules)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.profile = XGD_GRAPHICS_PROFILE_REACH;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev != NULL);
    size_t n;
    uint8_t *f = make_dds(&(dds_spec){ .width = 12, .height = 8, .mips = 1, .pf_flags = 0x4,
                                       .fourcc = DXT1, .data = 48 },
                          &n);
    expect_refusal(t, dev, 1, "Reach DXT 12x8", f, n, XGD_ERROR_NOT_SUPPORTED, "Reach");
    free(f);
    size_t vn = 0;
    uint8_t *vol = read_all(IMAGES "a8r8g8b8-volume.dds", &vn);
    REQUIRE(vol != NULL);
    expect_refusal(t, dev, 1, "Reach Texture3D", vol, vn, XGD_ERROR_NOT_SUPPORTED, "Reach");
    free(vol);
    xgd_device_destroy(dev);
}

/* Committed images cut short: a named INVALID_ARGUMENT that says so, for every format. */
XGD_TEST(Image_TruncatedFiles)
{
    xgd_device *dev = hidef_device(t);
    REQUIRE(dev != NULL);
    static const char *const files[] = {
#ifdef XGD_TEST_HAVE_PNG
        "rgba.png",
#endif
        "dxt5-mips.dds", "a8r8g8b8-cube.dds", "r8g8b8.dds",
#ifdef XGD_TEST_HAVE_STB
        "q95-444.jpg", "progressive.jpg", "two-frames.gif", "rgb24.bmp", "pal8.bmp",
        "rgba32.tga", "rgb24-rle.tga",
#endif
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, IMAGES "%s", files[i]);
        size_t n = 0;
        uint8_t *data = read_all(path, &n);
        CHECK_MSG(data != NULL, "cannot read %s", path);
        if (data == NULL) continue;
        /* GIF: cut inside the first frame's image data (the second frame follows it). */
        size_t cut = strstr(files[i], ".gif") != NULL ? n / 3 : n * 2 / 3;
        char what[160];
        snprintf(what, sizeof what, "%s cut to %zu of %zu bytes", files[i], cut, n);
        expect_refusal(t, dev, 0, what, data, cut, XGD_ERROR_INVALID_ARGUMENT, NULL);
        /* the whole file loads */
        xgd_texture *tex = NULL;
        CHECK_MSG(xgd_texture2d_from_memory(dev, data, n, &tex) == XGD_OK ||
                      strstr(files[i], "cube") != NULL,
                  "%s: %s", files[i], xgd_device_last_error(dev));
        xgd_texture_destroy(tex);
        free(data);
    }
    xgd_device_destroy(dev);
}

/* Content, not names, decides the format; data that is no image xgd reads is
 * INVALID_OPERATION (XNA's FromStream refusing an unsupported format). */
XGD_TEST(Image_UnknownFormat)
{
    xgd_device *dev = hidef_device(t);
    REQUIRE(dev != NULL);
    static const char text[] = "this is a text file, not an image";
    expect_refusal(t, dev, 0, "text", text, sizeof text - 1, XGD_ERROR_INVALID_OPERATION,
                   "not an image format");
    expect_refusal(t, dev, 1, "text as DDS", text, sizeof text - 1, XGD_ERROR_INVALID_OPERATION,
                   "DDS");
    xgd_device_destroy(dev);
}

/* Without stb_image a JPEG is refused as NOT_SUPPORTED naming the build option, and the tests
 * of stb_image's limits are not supported. */
static bool stb_or_skip(xgdt_ctx *t, xgd_device *dev)
{
#ifdef XGD_TEST_HAVE_STB
    (void)t;
    (void)dev;
    return true;
#else
    size_t n;
    uint8_t *jpg = read_all(IMAGES "q95-444.jpg", &n);
    if (jpg == NULL) {
        xgdt_fail_at(t, __FILE__, __LINE__, "cannot read q95-444.jpg");
        return false;
    }
    expect_refusal(t, dev, 0, "JPEG without stb_image", jpg, n, XGD_ERROR_NOT_SUPPORTED, "XGD_STB");
    free(jpg);
    xgdt_not_supported(t, "built without stb_image (XGD_STB=OFF)");
    return false;
#endif
}

/* Declared sizes beyond the device, in each stb format's header: NOT_SUPPORTED before
 * decoding, the size named. */
XGD_TEST(Image_HugeDeclaredSizes)
{
    xgd_device *dev = hidef_device(t);
    REQUIRE(dev != NULL);
    if (!stb_or_skip(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    size_t n;
    /* JPEG: the SOF0 frame header's height and width (16-bit big-endian). */
    uint8_t *jpg = read_all(IMAGES "q95-444.jpg", &n);
    REQUIRE(jpg != NULL);
    size_t sof = 0;
    for (size_t i = 2; i + 9 < n; i++)
        if (jpg[i] == 0xff && (jpg[i + 1] == 0xc0 || jpg[i + 1] == 0xc2)) {
            sof = i;
            break;
        }
    REQUIRE(sof != 0);
    jpg[sof + 5] = 0xea, jpg[sof + 6] = 0x60; /* height 60000 */
    jpg[sof + 7] = 0xea, jpg[sof + 8] = 0x60; /* width 60000 */
    expect_refusal(t, dev, 0, "JPEG 60000x60000", jpg, n, XGD_ERROR_NOT_SUPPORTED, "per side");
    /* Above the device's limit (4096 under HiDef here) but within stb_image's own. */
    jpg[sof + 5] = 0x1f, jpg[sof + 6] = 0x40; /* height 8000 */
    jpg[sof + 7] = 0x1f, jpg[sof + 8] = 0x40; /* width 8000 */
    expect_refusal(t, dev, 0, "JPEG 8000x8000", jpg, n, XGD_ERROR_NOT_SUPPORTED, "8000x8000");
    free(jpg);
    /* GIF: the logical screen (16-bit little-endian). */
    uint8_t *gif = read_all(IMAGES "two-frames.gif", &n);
    REQUIRE(gif != NULL);
    gif[6] = gif[7] = gif[8] = gif[9] = 0xff;
    expect_refusal(t, dev, 0, "GIF 65535x65535", gif, n, XGD_ERROR_NOT_SUPPORTED, "per side");
    free(gif);
    /* BMP: BITMAPINFOHEADER width and height (32-bit). */
    uint8_t *bmp = read_all(IMAGES "rgb24.bmp", &n);
    REQUIRE(bmp != NULL);
    put32(bmp + 18, 1000000);
    put32(bmp + 22, 1000000);
    expect_refusal(t, dev, 0, "BMP 1000000 per side", bmp, n, XGD_ERROR_NOT_SUPPORTED, "per side");
    /* Within the device's limit but with the texels missing: decoding runs out of data. */
    put32(bmp + 18, 2048);
    put32(bmp + 22, 2048);
    expect_refusal(t, dev, 0, "BMP 2048x2048 of 364 bytes", bmp, n, XGD_ERROR_INVALID_ARGUMENT,
                   "truncated");
    free(bmp);
    /* A valid kind of BMP the decoder does not handle (RLE8 compression, field at 30): the
     * loader's limit, NOT_SUPPORTED naming it, not a damaged file. */
    bmp = read_all(IMAGES "pal8.bmp", &n);
    REQUIRE(bmp != NULL);
    put32(bmp + 30, 1);
    expect_refusal(t, dev, 0, "BMP RLE8", bmp, n, XGD_ERROR_NOT_SUPPORTED, "RLE");
    free(bmp);
    /* TGA: 16-bit little-endian width and height at 12. */
    uint8_t *tga = read_all(IMAGES "rgba32.tga", &n);
    REQUIRE(tga != NULL);
    tga[12] = tga[13] = tga[14] = tga[15] = 0xff;
    expect_refusal(t, dev, 0, "TGA 65535x65535", tga, n, XGD_ERROR_NOT_SUPPORTED, "per side");
    free(tga);
    xgd_device_destroy(dev);
}

/* A JPEG Huffman table whose 16 code counts add up to more than 256 (the most a table holds):
 * refused as damaged before stb_image 2.27 builds it past its arrays; also when fill bytes
 * (0xFF) come before SOI, which stb_image's marker reader skips. */
XGD_TEST(Image_JpegHuffmanTableOverflow)
{
    xgd_device *dev = hidef_device(t);
    REQUIRE(dev != NULL);
    if (!stb_or_skip(t, dev)) {
        xgd_device_destroy(dev);
        return;
    }
    size_t n;
    uint8_t *jpg = read_all(IMAGES "q95-444.jpg", &n);
    REQUIRE(jpg != NULL);
    size_t dht = 0;
    for (size_t i = 2; i + 21 < n; i++)
        if (jpg[i] == 0xff && jpg[i + 1] == 0xc4) {
            dht = i;
            break;
        }
    REQUIRE(dht != 0);
    /* counts at dht + 5 .. dht + 20 (after the marker, the length and the class/id byte) */
    jpg[dht + 19] = 200, jpg[dht + 20] = 200;
    expect_refusal(t, dev, 0, "JPEG DHT of too many codes", jpg, n, XGD_ERROR_INVALID_ARGUMENT,
                   "Huffman table");
    uint8_t *filled = malloc(n + 8);
    REQUIRE(filled != NULL);
    memset(filled, 0xff, 8);
    memcpy(filled + 8, jpg, n);
    expect_refusal(t, dev, 0, "JPEG DHT of too many codes after fill bytes", filled, n + 8,
                   XGD_ERROR_INVALID_ARGUMENT, "Huffman table");
    free(filled);
    /* The same table with its counts cut off by the end of the data (stb_image reads the
     * missing bytes as 0 and overflows all the same). */
    jpg[dht + 19] = jpg[dht + 20] = 0;
    jpg[dht + 5] = 200, jpg[dht + 6] = 200;
    expect_refusal(t, dev, 0, "JPEG DHT counts cut off", jpg, dht + 12,
                   XGD_ERROR_INVALID_ARGUMENT, "Huffman table");
    free(jpg);
    xgd_device_destroy(dev);
}
