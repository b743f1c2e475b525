/*
 * fuzz_png.c - libFuzzer target for the PNG entry points: the input is a PNG file (or what is
 * left of one), given to xgd_texture2d_from_png_memory on a HiDef or a Reach device (the
 * input's length decides which, so corpus files stay plain PNGs).
 *
 * Checked, with abort() on a violation:
 *   - a refusal is a named code with a message, leaves *out NULL and creates nothing (live
 *     resources and creation counters unchanged);
 *   - an accepted image is a Color Texture2D of one level within the device's maximum size,
 *     whose texels read back;
 *   - for small images (one input in four), the save paths that take user data round-trip exactly:
 *     xgd_texture_save_png then xgd_image_load_png and xgd_texture2d_from_png_file give back
 *     the same texels; xgd_image_save_png of input bytes as RGBA loads back unchanged.
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
    fprintf(stderr, "xgd PNG contract violation: ");
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

static void check_failure(xgd_result r, const char *what)
{
    if (r < XGD_ERROR_ARGUMENT_OUT_OF_RANGE || r > XGD_ERROR_INVALID_ARGUMENT)
        violation("%s: %d is not a named xgd_result", what, (int)r);
    if (g_log.errors == 0 || g_log.code != r || g_log.empty)
        violation("%s: %s without a logged message of that code", what, xgd_result_name(r));
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
    snprintf(g_path, sizeof g_path, "%s/xgd-fuzz-png-%ld.png", tmp != NULL && tmp[0] ? tmp : "/tmp",
             (long)getpid());
    atexit(remove_temp);
    return 0;
}

static void round_trip_user_image(const uint8_t *data, size_t size)
{
    /* The input's bytes as an RGBA image of a width and height it chooses. */
    if (size < 2) return;
    int w = 1 + data[0] % 16, h = 1 + data[1] % 16;
    if (size < (size_t)w * (size_t)h * 4) return;
    memset(&g_log, 0, sizeof g_log);
    xgd_result r = xgd_image_save_png(g_path, w, h, data);
    if (r != XGD_OK) violation("xgd_image_save_png %dx%d: %s (%s)", w, h, xgd_result_name(r),
                               xgd_device_last_error(NULL));
    int lw = 0, lh = 0;
    uint8_t *px = NULL;
    r = xgd_image_load_png(g_path, &lw, &lh, &px);
    if (r != XGD_OK) violation("xgd_image_load_png of a saved image: %s", xgd_result_name(r));
    if (lw != w || lh != h || memcmp(px, data, (size_t)w * (size_t)h * 4) != 0)
        violation("xgd_image_save_png / load_png changed a %dx%d image", w, h);
    xgd_free(px);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xgd_device *dev = g_dev[size % 2];
    xgd_device_info info;
    xgd_statistics before, after;
    if (xgd_device_get_info(dev, &info) != XGD_OK || xgd_device_get_statistics(dev, &before) != XGD_OK)
        violation("device queries failed");

    memset(&g_log, 0, sizeof g_log);
    xgd_texture *tex = (xgd_texture *)&g_log;
    xgd_result r = xgd_texture2d_from_png_memory(dev, data, size, &tex);
    if (r != XGD_OK) {
        check_failure(r, "xgd_texture2d_from_png_memory");
        if (tex != NULL) violation("a refused PNG left *out set");
        if (xgd_device_get_statistics(dev, &after) != XGD_OK ||
            after.live_resources != before.live_resources ||
            after.textures_created != before.textures_created)
            violation("a refused PNG created something");
        if (size / 2 % 4 == 0) round_trip_user_image(data, size);
        return 0;
    }
    if (tex == NULL) violation("an accepted PNG gave no texture");
    xgd_texture_info ti;
    if (xgd_texture_get_info(tex, &ti) != XGD_OK) violation("get_info of a PNG texture failed");
    if (ti.kind != XGD_TEXTURE_2D || ti.format != XGD_SURFACE_FORMAT_COLOR || ti.level_count != 1 ||
        ti.width < 1 || ti.height < 1 || ti.width > info.max_texture_size ||
        ti.height > info.max_texture_size)
        violation("a PNG became a %dx%d texture of kind %d, format %d, %d levels (maximum %d)",
                  ti.width, ti.height, (int)ti.kind, (int)ti.format, ti.level_count,
                  info.max_texture_size);
    /* Encoding costs milliseconds (libspng's deflate state), so one input in four round-trips. */
    bool round_trip = size / 2 % 4 == 0;
    size_t bytes = (size_t)ti.width * (size_t)ti.height * 4;
    if (round_trip && bytes <= 64 * 64 * 4) {
        uint8_t *px = malloc(bytes);
        if (px == NULL) abort();
        if (xgd_texture_get_data(tex, 0, 0, NULL, px, bytes) != XGD_OK)
            violation("get_data of a PNG texture: %s", xgd_device_last_error(dev));
        /* Saving what was loaded and loading it again gives the same texels, by both paths. */
        memset(&g_log, 0, sizeof g_log);
        if (xgd_texture_save_png(tex, g_path) != XGD_OK)
            violation("xgd_texture_save_png: %s", xgd_device_last_error(dev));
        int w = 0, h = 0;
        uint8_t *again = NULL;
        if (xgd_image_load_png(g_path, &w, &h, &again) != XGD_OK || w != ti.width ||
            h != ti.height || memcmp(again, px, bytes) != 0)
            violation("a %dx%d texture saved and loaded again differs", ti.width, ti.height);
        xgd_free(again);
        xgd_texture *t2 = NULL;
        if (xgd_texture2d_from_png_file(dev, g_path, &t2) != XGD_OK)
            violation("xgd_texture2d_from_png_file of a saved texture: %s", xgd_device_last_error(dev));
        again = calloc(1, bytes);
        if (again == NULL) abort();
        if (xgd_texture_get_data(t2, 0, 0, NULL, again, bytes) != XGD_OK || memcmp(again, px, bytes) != 0)
            violation("xgd_texture2d_from_png_file gave other texels than the memory path");
        free(again);
        xgd_texture_destroy(t2);
        free(px);
    }
    xgd_texture_destroy(tex);
    if (round_trip) round_trip_user_image(data, size);
    return 0;
}
