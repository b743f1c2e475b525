/*
 * fixture_images.c - image files into textures on every renderer: each format xgd reads
 * (PNG, JPEG, BMP, GIF, TGA, DDS in its 2D, cube, volume, mip, DXT and uncompressed forms)
 * loads to the texels a reference decode made by another tool at test-data creation time
 * (tests/data/images/README.md says how each file and reference was made). The device keeps
 * no CPU shadow, so the texels read back are the renderer's own storage.
 */
#include "fixture_util.h"
#include "format.h"

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

typedef enum { DECODED, STORED, DXT } compare_kind;

typedef struct image_case {
    const char *file;
    xgd_texture_kind kind;
    int width, height, depth, levels;
    xgd_surface_format format;
    compare_kind compare;
    int tolerance;      /* per channel, decoded and DXT comparisons */
    bool needs_stb;
} image_case;

/*
 * Tolerances: lossless formats 0. JPEG 2: the standard fixes the DCT only up to rounding
 * (ITU-T T.81 leaves the IDCT's precision to each decoder within its accuracy test), and
 * stb_image's integer IDCT and upsampling differ from libjpeg-turbo's by one or two steps.
 * DXT 1: the BC1-BC3 interpolated colours (2a + b) / 3 and (a + b) / 2 are defined up to
 * rounding (Direct3D's functional specification allows decoders that error); Pillow truncates,
 * xgd's decoder rounds. Endpoint colours and alpha values match exactly either way.
 */
static const image_case g_cases[] = {
    { "rgba.png", XGD_TEXTURE_2D, 13, 7, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, false },
    { "rgb24.bmp", XGD_TEXTURE_2D, 13, 7, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, true },
    { "pal8.bmp", XGD_TEXTURE_2D, 11, 5, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, true },
    { "rgba32.tga", XGD_TEXTURE_2D, 13, 7, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, true },
    { "rgb24-rle.tga", XGD_TEXTURE_2D, 12, 6, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, true },
    { "two-frames.gif", XGD_TEXTURE_2D, 9, 6, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 0, true },
    { "q95-444.jpg", XGD_TEXTURE_2D, 24, 16, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 2, true },
    { "q90-420.jpg", XGD_TEXTURE_2D, 24, 16, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 2, true },
    { "progressive.jpg", XGD_TEXTURE_2D, 24, 16, 1, 1, XGD_SURFACE_FORMAT_COLOR, DECODED, 2, true },
    { "dxt1-mips.dds", XGD_TEXTURE_2D, 16, 8, 1, 5, XGD_SURFACE_FORMAT_DXT1, DXT, 1, false },
    { "dxt3-mips.dds", XGD_TEXTURE_2D, 8, 8, 1, 4, XGD_SURFACE_FORMAT_DXT3, DXT, 1, false },
    { "dxt5-mips.dds", XGD_TEXTURE_2D, 16, 16, 1, 5, XGD_SURFACE_FORMAT_DXT5, DXT, 1, false },
    { "bc3-dx10.dds", XGD_TEXTURE_2D, 8, 4, 1, 1, XGD_SURFACE_FORMAT_DXT5, DXT, 1, false },
    { "dxt1-cube.dds", XGD_TEXTURE_CUBE, 8, 8, 1, 2, XGD_SURFACE_FORMAT_DXT1, DXT, 1, false },
    { "a8r8g8b8-mips.dds", XGD_TEXTURE_2D, 8, 4, 1, 4, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "x8r8g8b8.dds", XGD_TEXTURE_2D, 5, 3, 1, 1, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "a8b8g8r8.dds", XGD_TEXTURE_2D, 6, 2, 1, 1, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "r8g8b8.dds", XGD_TEXTURE_2D, 7, 3, 1, 1, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "a8r8g8b8-cube.dds", XGD_TEXTURE_CUBE, 4, 4, 1, 3, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "a8r8g8b8-volume.dds", XGD_TEXTURE_3D, 4, 4, 3, 3, XGD_SURFACE_FORMAT_COLOR, STORED, 0, false },
    { "r5g6b5.dds", XGD_TEXTURE_2D, 6, 3, 1, 1, XGD_SURFACE_FORMAT_BGR565, STORED, 0, false },
    { "a1r5g5b5.dds", XGD_TEXTURE_2D, 5, 4, 1, 1, XGD_SURFACE_FORMAT_BGRA5551, STORED, 0, false },
    { "x1r5g5b5.dds", XGD_TEXTURE_2D, 5, 4, 1, 1, XGD_SURFACE_FORMAT_BGRA5551, STORED, 0, false },
    { "a4r4g4b4.dds", XGD_TEXTURE_2D, 3, 3, 1, 1, XGD_SURFACE_FORMAT_BGRA4444, STORED, 0, false },
    { "a16b16g16r16f.dds", XGD_TEXTURE_2D, 3, 1, 1, 1, XGD_SURFACE_FORMAT_HALF_VECTOR4, STORED, 0,
      false },
};

/* XNA's Texture2D.FromStream stores a fully transparent pixel as (0,0,0,0): applied to the
 * reference decode, which keeps the colour the file gives such a pixel. */
static void fromstream_rule(uint8_t *rgba, size_t bytes)
{
    for (size_t i = 0; i + 3 < bytes; i += 4)
        if (rgba[i + 3] == 0) rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
}

/* Reads one level (all slices of a volume level) back from the renderer. */
static bool read_level(xgdt_ctx *t, xgd_texture *tex, const image_case *c, int face, int level,
                       uint8_t *out, size_t bytes)
{
    int w = xgdi_mip_dim(c->width, level), h = xgdi_mip_dim(c->height, level);
    xgd_result r;
    if (c->kind == XGD_TEXTURE_3D) {
        xgd_box box = { 0, 0, 0, w, h, xgdi_mip_dim(c->depth, level) };
        r = xgd_texture3d_get_data(tex, level, &box, out, bytes);
    } else {
        r = xgd_texture_get_data(tex, level, (xgd_cube_map_face)face, NULL, out, bytes);
    }
    CHECK_MSG(r == XGD_OK, "%s: get_data face %d level %d: %s", c->file, face, level,
              xgd_result_name(r));
    return r == XGD_OK;
}

/* Compares every face and level of a loaded texture with the file's reference. */
static void check_texels(xgdt_ctx *t, xgd_texture *tex, const image_case *c, const uint8_t *ref,
                         size_t ref_size, const char *how)
{
    xgd_texture_info ti;
    if (xgd_texture_get_info(tex, &ti) != XGD_OK) {
        CHECK_MSG(false, "%s: get_info failed", c->file);
        return;
    }
    CHECK_MSG(ti.kind == c->kind && ti.width == c->width && ti.height == c->height &&
                  ti.depth == c->depth && ti.level_count == c->levels && ti.format == c->format,
              "%s (%s): kind %d %dx%dx%d, %d levels, format %d; expected kind %d %dx%dx%d, %d "
              "levels, format %d",
              c->file, how, (int)ti.kind, ti.width, ti.height, ti.depth, ti.level_count,
              (int)ti.format, (int)c->kind, c->width, c->height, c->depth, c->levels,
              (int)c->format);
    int faces = c->kind == XGD_TEXTURE_CUBE ? 6 : 1;
    size_t pos = 0;
    for (int f = 0; f < faces; f++) {
        for (int l = 0; l < c->levels; l++) {
            int w = xgdi_mip_dim(c->width, l), h = xgdi_mip_dim(c->height, l);
            int d = xgdi_mip_dim(c->depth, l);
            size_t bytes = xgd_surface_format_size(c->format, w, h) * (size_t)d;
            size_t rgba_bytes = (size_t)w * (size_t)h * 4 * (size_t)d;
            size_t want = c->compare == STORED ? bytes : rgba_bytes;
            if (pos + want > ref_size) {
                CHECK_MSG(false, "%s: the reference is shorter than the texture", c->file);
                return;
            }
            uint8_t *got = malloc(bytes);
            uint8_t *rgba = malloc(rgba_bytes);
            uint8_t *expect = malloc(want);
            if (got == NULL || rgba == NULL || expect == NULL) abort();
            memcpy(expect, ref + pos, want);
            pos += want;
            if (read_level(t, tex, c, f, l, got, bytes)) {
                char label[160];
                snprintf(label, sizeof label, "%s.%s.f%d.l%d", c->file, how, f, l);
                if (c->compare == STORED) {
                    CHECK_MSG(memcmp(got, expect, bytes) == 0,
                              "%s: face %d level %d texels differ from the reference", c->file,
                              f, l);
                } else if (c->compare == DXT) {
                    for (int s = 0; s < d; s++)
                        xgdi_dxt_decode_image(c->format, got + (size_t)s * (bytes / (size_t)d),
                                              w, h, rgba + (size_t)s * (size_t)w * (size_t)h * 4);
                    xgdt_compare_rgba(t, label, rgba, expect, w, h * d, c->tolerance);
                } else {
                    fromstream_rule(expect, want);
                    xgdt_compare_rgba(t, label, got, expect, w, h, c->tolerance);
                }
            }
            free(got);
            free(rgba);
            free(expect);
        }
    }
    CHECK_MSG(pos == ref_size, "%s: the reference holds %zu bytes, the texture %zu", c->file,
              ref_size, pos);
}

XGD_FIXTURE(Images_DecodeToReferenceTexels)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.profile = XGD_GRAPHICS_PROFILE_HIDEF;
    /* No CPU shadow: get_data reads the renderer's storage. */
    dd.context_recovery = false;
    xgd_device *dev = xgdt_device(t, &dd);
    if (dev == NULL) return;
    int checked = 0;
    for (size_t i = 0; i < sizeof g_cases / sizeof g_cases[0]; i++) {
        const image_case *c = &g_cases[i];
#ifndef XGD_TEST_HAVE_STB
        if (c->needs_stb) continue;
#endif
#ifndef XGD_TEST_HAVE_PNG
        if (strstr(c->file, ".png") != NULL) continue;
#endif
        xgd_format_support fs;
        if (xgd_device_query_format(dev, c->format, &fs) != XGD_OK || !fs.texture ||
            (c->kind == XGD_TEXTURE_3D && !fs.volume)) {
            printf("  %s: the renderer cannot hold %s textures of this kind; skipped\n", c->file,
                   xgdi_format_info_of(c->format)->name);
            continue;
        }
        char path[512], ref_path[520];
        snprintf(path, sizeof path, IMAGES "%s", c->file);
        snprintf(ref_path, sizeof ref_path, "%s.ref", path);
        size_t size = 0, ref_size = 0;
        uint8_t *data = read_all(path, &size), *ref = read_all(ref_path, &ref_size);
        CHECK_MSG(data != NULL && ref != NULL, "cannot read %s or its reference", path);
        if (data == NULL || ref == NULL) {
            free(data);
            free(ref);
            continue;
        }
        bool dds = strstr(c->file, ".dds") != NULL;
        xgd_texture *tex = NULL;
        /* From memory and from the file, through the general loader (2D) and the DDS loader. */
        for (int how = 0; how < (dds ? 4 : 2); how++) {
            xgd_result r;
            bool general = how < 2;
            if (general && c->kind != XGD_TEXTURE_2D) continue;
            if (how == 0) r = xgd_texture2d_from_memory(dev, data, size, &tex);
            else if (how == 1) r = xgd_texture2d_from_file(dev, path, &tex);
            else if (how == 2) r = xgd_texture_from_dds_memory(dev, data, size, &tex);
            else r = xgd_texture_from_dds_file(dev, path, &tex);
            static const char *const names[] = { "memory", "file", "dds-memory", "dds-file" };
            CHECK_MSG(r == XGD_OK, "%s from %s: %s (%s)", c->file, names[how],
                      xgd_result_name(r), xgd_device_last_error(dev));
            if (r != XGD_OK) continue;
            check_texels(t, tex, c, ref, ref_size, names[how]);
            xgd_texture_destroy(tex);
            checked++;
        }
        free(data);
        free(ref);
    }
    CHECK(checked > 0);
    xgd_device_destroy(dev);
}

/* A DDS cube map or volume is not a Texture2D: the FromStream entry points say so by name and
 * create nothing. */
XGD_FIXTURE(Images_Texture2DRefusesCubeAndVolumeDds)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    if (dev == NULL) return;
    xgd_texture *tex = (xgd_texture *)dev;
    CHECK_RESULT(xgd_texture2d_from_file(dev, IMAGES "a8r8g8b8-cube.dds", &tex),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(tex == NULL);
    CHECK(strstr(xgd_device_last_error(dev), "TextureCube") != NULL);
    CHECK_RESULT(xgd_texture2d_from_file(dev, IMAGES "a8r8g8b8-volume.dds", &tex),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(dev), "Texture3D") != NULL);
    xgd_device_destroy(dev);
}

/* XNA SaveAsJpeg: the texture's level 0 as a JPEG that decodes (here through xgd's own loader,
 * which test Images_DecodeToReferenceTexels ties to libjpeg-turbo) to the texels within JPEG's
 * loss on a smooth image, alpha dropped (opaque). Without stb_image_write: NOT_SUPPORTED. */
XGD_FIXTURE(Images_SaveAsJpeg)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    if (dev == NULL) return;
    enum { W = 32, H = 16 };
    uint8_t img[W * H * 4];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = img + (y * W + x) * 4;
            p[0] = (uint8_t)(40 + x * 5), p[1] = (uint8_t)(60 + y * 9);
            p[2] = (uint8_t)(220 - x * 3 - y * 2), p[3] = (uint8_t)(x < 4 ? 0 : 255);
        }
    xgd_texture *tex = xgdt_image_texture(t, dev, W, H, img);
    REQUIRE(tex != NULL);
    char path[512];
    const char *dir = getenv("XGD_TEST_OUTPUT");
    snprintf(path, sizeof path, "%s/images-save.%s.jpg", dir != NULL && dir[0] ? dir : ".",
             t->renderer_name);
#ifndef XGD_TEST_HAVE_STB
    CHECK_RESULT(xgd_texture_save_jpeg(tex, path), XGD_ERROR_NOT_SUPPORTED);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
    xgdt_not_supported(t, "built without stb_image_write (XGD_STB=OFF)");
    return;
#endif
    CHECK_OK(xgd_texture_save_jpeg(tex, path));
    size_t size = 0;
    uint8_t *jpg = read_all(path, &size);
    REQUIRE(jpg != NULL);
    CHECK(size > 3 && jpg[0] == 0xff && jpg[1] == 0xd8 && jpg[2] == 0xff);
    xgd_texture *back = NULL;
    CHECK_OK(xgd_texture2d_from_memory(dev, jpg, size, &back));
    if (back != NULL) {
        uint8_t got[W * H * 4];
        CHECK_OK(xgd_texture_get_data(back, 0, 0, NULL, got, sizeof got));
        for (int i = 0; i < W * H; i++) img[i * 4 + 3] = 255;
        xgdt_compare_rgba(t, "save-jpeg", got, img, W, H, 8);
    }
    remove(path);
    free(jpg);
    xgd_texture_destroy(back);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
