/*
 * fuzz_xnb.c - libFuzzer target for the .xnb loader: the input is an .xnb file (or what is left
 * of one), given to xgd_content_load_memory on a HiDef or a Reach device (the input's length
 * decides which). For three inputs in four the header's file size field is set to the input's
 * length first, so mutations that change the length still reach the payload and LZX frames.
 *
 * Checked, with abort() on a violation:
 *   - a refusal is a named code with a logged message of that code, leaves *out zeroed and
 *     creates nothing (live resources and texture creations unchanged);
 *   - an accepted file's objects are what its kinds say (textures of the right kind, within
 *     the device's limits, whose level 0 reads back), and xgd_content_release destroys all of
 *     them (live resources back to where they were).
 */
#include <xgd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static xgd_device *g_dev[2];
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
    fprintf(stderr, "xgd .xnb contract violation: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

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
    return 0;
}

static void check_object(xgd_device *dev, const xgd_content_object *o, const char *what)
{
    if (o->kind == XGD_CONTENT_NONE) {
        if (o->texture || o->effect || o->sprite_font || o->type_reader)
            violation("%s: a null object with something in it", what);
        return;
    }
    if (o->type_reader == NULL) violation("%s: no type reader name", what);
    if (o->kind == XGD_CONTENT_EFFECT) {
        if (o->effect == NULL) violation("%s: an effect without its object", what);
        return;
    }
    if (o->kind == XGD_CONTENT_SPRITE_FONT) {
        if (o->sprite_font == NULL) violation("%s: a sprite font without its object", what);
        return;
    }
    static const xgd_texture_kind kinds[] = { XGD_TEXTURE_2D, XGD_TEXTURE_2D, XGD_TEXTURE_CUBE,
                                              XGD_TEXTURE_3D };
    if (o->kind > XGD_CONTENT_TEXTURE3D) violation("%s: kind %d", what, (int)o->kind);
    xgd_texture_info ti;
    if (o->texture == NULL || xgd_texture_get_info(o->texture, &ti) != XGD_OK)
        violation("%s: a texture kind without a live texture", what);
    if (ti.kind != kinds[o->kind]) violation("%s: content kind %d is texture kind %d", what,
                                             (int)o->kind, (int)ti.kind);
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) != XGD_OK) violation("device info");
    if (ti.width < 1 || ti.height < 1 || ti.width > info.max_texture_size ||
        ti.height > info.max_texture_size || ti.level_count < 1)
        violation("%s: a %dx%d texture of %d levels", what, ti.width, ti.height, ti.level_count);
    size_t bytes = xgd_surface_format_size(ti.format, ti.width, ti.height) * (size_t)ti.depth;
    if (bytes == 0) violation("%s: a texture of no size", what);
    if (bytes <= 1 << 20) {
        void *px = malloc(bytes);
        if (px == NULL) abort();
        xgd_result r = ti.kind == XGD_TEXTURE_3D
                           ? xgd_texture3d_get_data(o->texture, 0, NULL, px, bytes)
                           : xgd_texture_get_data(o->texture, 0, 0, NULL, px, bytes);
        if (r != XGD_OK) violation("%s: level 0 does not read back: %s", what, xgd_result_name(r));
        free(px);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xgd_device *dev = g_dev[size % 2];
    uint8_t *copy = malloc(size ? size : 1);
    if (copy == NULL) abort();
    if (size) memcpy(copy, data, size);
    if (size >= 10 && size % 4 != 3 && size <= UINT32_MAX)
        for (int i = 0; i < 4; i++) copy[6 + i] = (uint8_t)(size >> (8 * i));

    xgd_statistics before, after;
    if (xgd_device_get_statistics(dev, &before) != XGD_OK) violation("statistics");
    memset(&g_log, 0, sizeof g_log);
    xgd_content c;
    memset(&c, 0x5a, sizeof c);
    xgd_result r = xgd_content_load_memory(dev, copy, size, &c);
    free(copy);
    static const xgd_content zero;
    if (r != XGD_OK) {
        if (r < XGD_ERROR_ARGUMENT_OUT_OF_RANGE || r > XGD_ERROR_INVALID_ARGUMENT)
            violation("%d is not a named xgd_result", (int)r);
        if (g_log.errors == 0 || g_log.code != r || g_log.empty)
            violation("%s without a logged message of that code", xgd_result_name(r));
        if (memcmp(&c, &zero, sizeof c) != 0) violation("a refused file left *out set");
        if (xgd_device_get_statistics(dev, &after) != XGD_OK ||
            after.live_resources != before.live_resources)
            violation("a refused file left objects behind");
        return 0;
    }
    if (c.version != 5 || c.file_size != size) violation("header fields");
    check_object(dev, &c.asset, "asset");
    if (c.shared_count < 0 || (c.shared_count > 0) != (c.shared != NULL))
        violation("shared resources: %d", c.shared_count);
    for (int i = 0; i < c.shared_count; i++) check_object(dev, &c.shared[i], "shared resource");
    xgd_content_release(&c);
    if (memcmp(&c, &zero, sizeof c) != 0) violation("release left the content set");
    if (xgd_device_get_statistics(dev, &after) != XGD_OK ||
        after.live_resources != before.live_resources)
        violation("release left %llu objects behind",
                  (unsigned long long)(after.live_resources - before.live_resources));
    return 0;
}
