/*
 * fuzz_truetype.c - libFuzzer target for SpriteFonts built from TrueType / OpenType data: the
 * input is a font file (or what is left of one) given to xgd_sprite_font_from_truetype_memory
 * at a size and with ranges that the input's length chooses (so corpus files stay plain fonts).
 *
 * Checked, with abort() on a violation:
 *   - a refusal is a named code with a message, leaves *out NULL and creates nothing (live
 *     resources and creation counters unchanged);
 *   - an accepted font has a Color Texture2D within 4096 x 4096 whose texels are premultiplied
 *     white (r = g = b = a), glyph rectangles inside it, and kerning that sums to whole pixels;
 *     MeasureString and DrawString of its own characters succeed.
 * stb_truetype itself trusts the font (see README, "Text"): what xgd validates before calling
 * it is what this target exercises.
 */
#include <xgd.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static xgd_device *g_dev;
static xgd_sprite_batch *g_batch;
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
    fprintf(stderr, "xgd TrueType contract violation: ");
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
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 32;
    dd.pp.back_buffer_height = 32;
    dd.pp.headless = true;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.log = on_log;
    if (xgd_device_create(&dd, &g_dev) != XGD_OK || xgd_sprite_batch_create(g_dev, &g_batch) != XGD_OK) {
        fprintf(stderr, "device: %s\n", xgd_device_last_error(NULL));
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const xgd_char_range ranges[] = { { 0x20, 0x7E }, { 0xA0, 0x17F }, { 0x0, 0x1F } };
    xgd_truetype_font_desc td = { .size = 4.0f + (float)(size % 7) * 3.0f, .ranges = ranges,
                                  .range_count = 1 + (int)(size / 7 % 3) };
    xgd_statistics before, after;
    if (xgd_device_get_statistics(g_dev, &before) != XGD_OK) violation("statistics failed");
    memset(&g_log, 0, sizeof g_log);
    xgd_sprite_font *font = (xgd_sprite_font *)&g_log;
    xgd_result r = xgd_sprite_font_from_truetype_memory(g_dev, data, size, &td, &font);
    if (r != XGD_OK) {
        if (r < XGD_ERROR_ARGUMENT_OUT_OF_RANGE || r > XGD_ERROR_INVALID_ARGUMENT)
            violation("%d is not a named xgd_result", (int)r);
        if (g_log.errors == 0 || g_log.code != r || g_log.empty)
            violation("%s without a logged message of that code", xgd_result_name(r));
        if (font != NULL) violation("a refused font left *out set");
        if (xgd_device_get_statistics(g_dev, &after) != XGD_OK ||
            after.live_resources != before.live_resources)
            violation("a refused font left something alive");
        return 0;
    }
    xgd_sprite_font_info info;
    xgd_texture_info ti;
    if (font == NULL || xgd_sprite_font_get_info(font, &info) != XGD_OK ||
        xgd_texture_get_info(info.texture, &ti) != XGD_OK)
        violation("an accepted font cannot be queried");
    if (ti.kind != XGD_TEXTURE_2D || ti.format != XGD_SURFACE_FORMAT_COLOR || ti.width > 4096 ||
        ti.height > 4096)
        violation("the font's texture is %dx%d, kind %d, format %d", ti.width, ti.height,
                  (int)ti.kind, (int)ti.format);
    size_t bytes = (size_t)ti.width * (size_t)ti.height * 4;
    uint8_t *px = malloc(bytes);
    if (px == NULL) abort();
    if (xgd_texture_get_data(info.texture, 0, 0, NULL, px, bytes) != XGD_OK)
        violation("get_data of the font's texture failed");
    for (size_t i = 0; i < bytes; i += 4)
        if (px[i] != px[i + 3] || px[i + 1] != px[i + 3] || px[i + 2] != px[i + 3])
            violation("texel %zu is not premultiplied white", i / 4);
    free(px);
    char text[64];
    size_t n = 0;
    for (int i = 0; i < info.glyph_count && n + 5 < sizeof text; i++) {
        xgd_sprite_font_glyph g;
        if (xgd_sprite_font_get_glyph(font, i, &g) != XGD_OK) violation("get_glyph %d", i);
        float sum = g.kerning.x + g.kerning.y + g.kerning.z;
        if (sum != floorf(sum) || g.glyph.x < 0 || g.glyph.y < 0 ||
            g.glyph.x + g.glyph.width > ti.width || g.glyph.y + g.glyph.height > ti.height)
            violation("glyph %d: kerning or rectangle out of bounds", i);
        uint32_t c = g.character;
        if (c < 0x80) text[n++] = (char)c;
        else {
            text[n++] = (char)(0xC0 | c >> 6);
            text[n++] = (char)(0x80 | (c & 0x3F));
        }
        if (i % 5 == 4) text[n++] = '\n';
    }
    text[n] = '\0';
    xgd_vector2 measured;
    if (xgd_sprite_font_measure_string(font, text, &measured) != XGD_OK)
        violation("MeasureString of the font's own characters: %s", xgd_device_last_error(g_dev));
    if (xgd_sprite_batch_begin(g_batch, NULL) != XGD_OK ||
        xgd_sprite_batch_draw_string(g_batch, font, text, NULL) != XGD_OK ||
        xgd_sprite_batch_end(g_batch) != XGD_OK)
        violation("DrawString of the font's own characters: %s", xgd_device_last_error(g_dev));
    xgd_sprite_font_destroy(font);
    return 0;
}
