/*
 * fuzz_image.c - libFuzzer target for every image loader: the input is an image file (or
 * what is left of one) of any format, given to xgd_texture2d_from_memory (XNA's FromStream:
 * PNG, JPEG, BMP, GIF, TGA, DDS) and xgd_texture_from_dds_memory on a HiDef or a Reach
 * device (the input's length decides which, so corpus files stay plain image files).
 *
 * Checked, with abort() on a violation:
 *   - a refusal is a named code with a message, leaves *out NULL and creates nothing (live
 *     resources and creation counters unchanged);
 *   - an accepted image is a texture within the device's limits whose level 0 reads back;
 *     a decoded (non-DDS) image is a one-level Color Texture2D stored by XNA's FromStream
 *     rule (no texel with alpha 0 has colour);
 *   - one input in four also goes through the file loaders, which must give the same result
 *     code and the same texels as the memory loaders.
 * Run under ASan/UBSan with -malloc_limit_mb: no loader may allocate by a declared size that
 * the data cannot back (beyond what a valid image of that size needs).
 */
#include <xgd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static xgd_device *g_dev[2];
static char g_path[512];
static struct {
    int errors;
    xgd_result code;
    bool empty;
} g_log;

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xgd image contract violation: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static void remove_temp(void) { remove(g_path); }

static void on_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user;
    if (level != XGD_LOG_ERROR) return;
    g_log.errors++;
    g_log.code = code;
    g_log.empty = message == NULL || message[0] == '\0';
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    for (int i = 0; i < 2; i++) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.pp.back_buffer_width = 8;
        dd.pp.back_buffer_height = 8;
        dd.pp.headless = true;
        dd.renderer = XGD_RENDERER_SOFTWARE;
        dd.profile = i == 0 ? XGD_GRAPHICS_PROFILE_HIDEF : XGD_GRAPHICS_PROFILE_REACH;
        dd.log = on_log;
        if (xgd_device_create(&dd, &g_dev[i]) != XGD_OK) {
            fprintf(stderr, "xgd_device_create: %s\n", xgd_device_last_error(NULL));
            exit(2);
        }
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(g_path, sizeof g_path, "%s/xgd-fuzz-image-%ld.img",
             tmp != NULL && tmp[0] ? tmp : "/tmp", (long)getpid());
    atexit(remove_temp);
    return 0;
}

typedef xgd_result (*mem_loader)(xgd_device *, const void *, size_t, xgd_texture **);
typedef xgd_result (*file_loader)(xgd_device *, const char *, xgd_texture **);

/* Level 0 (face 0; every slice of a volume) of a texture, malloc'd; *bytes its size. */
static uint8_t *level0(xgd_texture *tex, const xgd_texture_info *ti, size_t *bytes)
{
    *bytes = xgd_surface_format_size(ti->format, ti->width, ti->height) * (size_t)ti->depth;
    uint8_t *px = malloc(*bytes != 0 ? *bytes : 1);
    if (px == NULL) abort();
    xgd_result r;
    if (ti->kind == XGD_TEXTURE_3D) {
        xgd_box box = { 0, 0, 0, ti->width, ti->height, ti->depth };
        r = xgd_texture3d_get_data(tex, 0, &box, px, *bytes);
    } else {
        r = xgd_texture_get_data(tex, 0, 0, NULL, px, *bytes);
    }
    if (r != XGD_OK) violation("get_data of a loaded texture: %s", xgd_result_name(r));
    return px;
}

static void run(xgd_device *dev, const uint8_t *data, size_t size, mem_loader mem,
                file_loader file, bool decoded_rules, bool with_file, const char *what)
{
    xgd_device_info info;
    xgd_statistics before, after;
    if (xgd_device_get_info(dev, &info) != XGD_OK || xgd_device_get_statistics(dev, &before) != XGD_OK)
        violation("device queries failed");
    memset(&g_log, 0, sizeof g_log);
    xgd_texture *tex = (xgd_texture *)&g_log;
    xgd_result r = mem(dev, data, size, &tex);
    if (r != XGD_OK) {
        if (r < XGD_ERROR_ARGUMENT_OUT_OF_RANGE || r > XGD_ERROR_INVALID_ARGUMENT)
            violation("%s: %d is not a named xgd_result", what, (int)r);
        if (g_log.errors == 0 || g_log.code != r || g_log.empty)
            violation("%s: %s without a logged message of that code", what, xgd_result_name(r));
        if (tex != NULL) violation("%s: a refused image left *out set", what);
    }
    xgd_texture *ftex = NULL;
    if (with_file) {
        FILE *f = fopen(g_path, "wb");
        if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0) abort();
        xgd_result file_r = file(dev, g_path, &ftex);
        if (file_r != r)
            violation("%s: memory gives %s, the file %s (%s)", what, xgd_result_name(r),
                      xgd_result_name(file_r), xgd_device_last_error(dev));
    }
    if (r != XGD_OK) {
        if (xgd_device_get_statistics(dev, &after) != XGD_OK ||
            after.live_resources != before.live_resources ||
            after.textures_created != before.textures_created)
            violation("%s: a refused image created something", what);
        return;
    }
    if (tex == NULL) violation("%s: an accepted image gave no texture", what);
    xgd_texture_info ti;
    if (xgd_texture_get_info(tex, &ti) != XGD_OK) violation("get_info of a loaded texture failed");
    if (ti.width < 1 || ti.height < 1 || ti.width > info.max_texture_size ||
        ti.height > info.max_texture_size || ti.level_count < 1 || ti.depth < 1)
        violation("%s: a %dx%dx%d texture of %d levels (maximum %d)", what, ti.width, ti.height,
                  ti.depth, ti.level_count, info.max_texture_size);
    size_t bytes = 0;
    uint8_t *px = level0(tex, &ti, &bytes);
    if (decoded_rules && ti.format == XGD_SURFACE_FORMAT_COLOR && ti.kind == XGD_TEXTURE_2D &&
        ti.level_count == 1) {
        for (size_t i = 0; i + 3 < bytes; i += 4)
            if (px[i + 3] == 0 && (px[i] | px[i + 1] | px[i + 2]) != 0)
                violation("%s: a transparent texel kept its colour (FromStream stores 0,0,0,0)",
                          what);
    }
    if (ftex != NULL) {
        size_t fbytes = 0;
        xgd_texture_info fi;
        if (xgd_texture_get_info(ftex, &fi) != XGD_OK || fi.width != ti.width ||
            fi.height != ti.height || fi.format != ti.format || fi.level_count != ti.level_count)
            violation("%s: the file loader made another texture than the memory loader", what);
        uint8_t *fpx = level0(ftex, &fi, &fbytes);
        if (fbytes != bytes || memcmp(fpx, px, bytes) != 0)
            violation("%s: the file loader gave other texels than the memory loader", what);
        free(fpx);
    }
    free(px);
    xgd_texture_destroy(ftex);
    xgd_texture_destroy(tex);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xgd_device *dev = g_dev[size % 2];
    bool with_file = size / 2 % 4 == 0;
    bool dds = size >= 4 && memcmp(data, "DDS ", 4) == 0;
    /* A DDS keeps its texels as stored; every other format is decoded by FromStream's rule. */
    run(dev, data, size, xgd_texture2d_from_memory, xgd_texture2d_from_file, !dds, with_file,
        "xgd_texture2d_from_memory");
    if (dds)
        run(dev, data, size, xgd_texture_from_dds_memory, xgd_texture_from_dds_file, false,
            with_file, "xgd_texture_from_dds_memory");
    return 0;
}
