/*
 * test_xnb.c - the .xnb container on the software renderer: what the header and payload
 * report, shared resources, the file path, the profile rule, the readers that hand over to
 * other APIs, and hostile files: each refused with its named code and a message saying what is
 * wrong, creating nothing and leaving the result zeroed.
 */
#include "harness.h"
#include "fx2_support.h"
#include "xnb_test_util.h"

#include <stdio.h>
#include <unistd.h>

/* Compressed .xnb files need libmspack (XGD_LZX); without it the tests that are not about
 * compression write their files uncompressed, and the compression test is not supported. */
#ifdef XGD_TEST_HAVE_LZX
#define XT_LZX XW_LZX
#define XT_LZX_PASSES 2
#else
#define XT_LZX 0
#define XT_LZX_PASSES 1
#endif

static xgd_device *device(xgdt_ctx *t, xgd_graphics_profile profile)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.profile = profile;
    return xgdt_device(t, &dd);
}

static uint64_t live(xgd_device *dev)
{
    xgd_statistics s;
    return xgd_device_get_statistics(dev, &s) == XGD_OK ? s.live_resources : ~0ull;
}

static bool zeroed(const xgd_content *c)
{
    static const xgd_content zero;
    return memcmp(c, &zero, sizeof zero) == 0;
}

/* Loads data expecting code with a message containing `says`; nothing may be created. */
static void expect_refusal(xgdt_ctx *t, xgd_device *dev, const char *label, const uint8_t *data,
                           size_t n, xgd_result code, const char *says)
{
    uint64_t before = live(dev);
    xgd_content c;
    memset(&c, 0xab, sizeof c);
    xgd_result r = xgd_content_load_memory(dev, data, n, &c);
    const char *msg = xgd_device_last_error(dev);
    CHECK_MSG(r == code, "%s: %s, expected %s (%s)", label, xgd_result_name(r),
              xgd_result_name(code), msg);
    CHECK_MSG(strstr(msg, says) != NULL, "%s: the message \"%s\" does not say \"%s\"", label, msg,
              says);
    CHECK_MSG(zeroed(&c), "%s: the refused load left *out set", label);
    CHECK_MSG(live(dev) == before, "%s: the refused load created something", label);
    if (r == XGD_OK) xgd_content_release(&c);
}

static void put32_at(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* A valid 4x4 Color Texture2D file with one level (uncompressed). */
static void color_file(xw_buf *f, uint8_t flags)
{
    xt_tex tex;
    xt_tex_make(&tex, XT_2D, 0, 4, 4, 1, 1, 1);
    xt_tex_file(f, &tex, flags);
    xt_tex_free(&tex);
}

/* A file from a payload, with the given flags. */
static void file_of(xw_buf *f, xw_buf *payload, uint8_t flags)
{
    xw_file(f, payload, 'w', flags);
    xw_free(payload);
}

XGD_TEST(Xnb_HeaderAndSharedResources)
{
    xgd_device *dev = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    /* Primary asset: a cube; shared resources: a Texture2D, null, a Texture3D. */
    xt_tex cube, flat, vol;
    xt_tex_make(&cube, XT_CUBE, 0, 4, 4, 1, 3, 3);
    xt_tex_make(&flat, XT_2D, 12, 8, 2, 1, 4, 4); /* Alpha8 8x2, 4 levels */
    xt_tex_make(&vol, XT_3D, 0, 2, 2, 2, 1, 5);
    const char *names[3] = { XW_TEXTURE3D, XW_TEXTURE_CUBE, XW_TEXTURE2D };
    xw_buf p = { 0 };
    xw_readers(&p, 3, names);
    xw_7bit(&p, 3);
    xw_7bit(&p, 2);
    xt_tex_content(&p, &cube);
    xw_7bit(&p, 3);
    xt_tex_content(&p, &flat);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xt_tex_content(&p, &vol);
    size_t payload = p.n;
    for (int lzx = 0; lzx < XT_LZX_PASSES; lzx++) {
        xw_buf f;
        xw_file(&f, &p, 'm', (uint8_t)(XW_HIDEF | (lzx ? XW_LZX : 0)));
        xgd_content c;
        CHECK_OK(xgd_content_load_memory(dev, f.p, f.n, &c));
        CHECK_INT(c.platform, 'm');
        CHECK_INT(c.version, 5);
        CHECK(c.hidef);
        CHECK_INT(c.compressed, lzx);
        CHECK_INT(c.file_size, f.n);
        CHECK_INT(c.decompressed_size, payload);
        CHECK_INT(c.type_reader_count, 3);
        CHECK_INT(c.asset.kind, XGD_CONTENT_TEXTURE_CUBE);
        CHECK(c.asset.type_reader != NULL &&
              strcmp(c.asset.type_reader, "Microsoft.Xna.Framework.Content.TextureCubeReader") == 0);
        REQUIRE(c.shared_count == 3 && c.shared != NULL);
        CHECK_INT(c.shared[0].kind, XGD_CONTENT_TEXTURE2D);
        CHECK_INT(c.shared[1].kind, XGD_CONTENT_NONE);
        CHECK(c.shared[1].texture == NULL && c.shared[1].type_reader == NULL);
        CHECK_INT(c.shared[2].kind, XGD_CONTENT_TEXTURE3D);
        xgd_texture_info ti;
        CHECK_OK(xgd_texture_get_info(c.shared[0].texture, &ti));
        CHECK_INT(ti.format, XGD_SURFACE_FORMAT_ALPHA8);
        CHECK_INT(ti.width, 8);
        CHECK_INT(ti.height, 2);
        CHECK_INT(ti.level_count, 4);
        uint8_t back[32];
        CHECK_OK(xgd_texture_get_data(c.shared[0].texture, 0, 0, NULL, back, 16));
        CHECK(memcmp(back, flat.data[0], 16) == 0);
        CHECK_OK(xgd_texture_get_data(c.asset.texture, 2, XGD_CUBE_MAP_FACE_NEGATIVE_Z, NULL, back, 4));
        CHECK(memcmp(back, cube.data[5 * 3 + 2], 4) == 0);
        CHECK_OK(xgd_texture3d_get_data(c.shared[2].texture, 0, NULL, back, 32));
        CHECK(memcmp(back, vol.data[0], 32) == 0);
        /* taking one object out keeps it alive past release */
        xgd_texture *kept = c.shared[0].texture;
        c.shared[0].texture = NULL;
        uint64_t before = live(dev);
        xgd_content_release(&c);
        CHECK(zeroed(&c));
        CHECK_INT(live(dev), before - 2);
        CHECK_OK(xgd_texture_get_info(kept, &ti));
        xgd_texture_destroy(kept);
        xw_free(&f);
    }
    xw_free(&p);
    xt_tex_free(&cube);
    xt_tex_free(&flat);
    xt_tex_free(&vol);
    xgd_content_release(NULL);
    xgd_device_destroy(dev);
}

XGD_TEST(Xnb_FileAndProfile)
{
    xgd_device *hidef = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    xgd_device *reach = device(t, XGD_GRAPHICS_PROFILE_REACH);
    REQUIRE(hidef != NULL && reach != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/xgd-test-xnb-%ld.xnb", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (long)getpid());
    xw_buf f;
    color_file(&f, XW_HIDEF | XT_LZX);
    FILE *fp = fopen(path, "wb");
    REQUIRE(fp != NULL);
    CHECK_INT(fwrite(f.p, 1, f.n, fp), f.n);
    fclose(fp);
    xgd_content c;
    CHECK_OK(xgd_content_load_file(hidef, path, &c));
    CHECK_INT(c.asset.kind, XGD_CONTENT_TEXTURE2D);
    xgd_content_release(&c);
    /* HiDef content on a Reach device: XNA refuses it */
    CHECK_RESULT(xgd_content_load_file(reach, path, &c), XGD_ERROR_NOT_SUPPORTED);
    CHECK(strstr(xgd_device_last_error(reach), "HiDef") != NULL);
    CHECK(zeroed(&c));
    remove(path);
    xw_free(&f);
    /* Reach content loads on both */
    color_file(&f, 0);
    CHECK_OK(xgd_content_load_memory(reach, f.p, f.n, &c));
    CHECK(!c.hidef);
    xgd_content_release(&c);
    xw_free(&f);
    CHECK_RESULT(xgd_content_load_file(hidef, path, &c), XGD_ERROR_IO);
    CHECK_RESULT(xgd_content_load_file(hidef, NULL, &c), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_content_load_memory(hidef, NULL, 4, &c), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_content_load_memory(hidef, "XNB", 3, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_content_load_memory(NULL, "XNB", 3, &c), XGD_ERROR_INVALID_ARGUMENT);
    /* the reader list */
    int n = 0;
    while (xgd_content_type_reader_name(n) != NULL) n++;
    CHECK_INT(n, 11);
    CHECK(xgd_content_type_reader_name(-1) == NULL);
    CHECK(strcmp(xgd_content_type_reader_name(0), "Microsoft.Xna.Framework.Content.Texture2DReader") == 0);
    xgd_device_destroy(reach);
    xgd_device_destroy(hidef);
}

/* A SpriteFont file: Texture2D, glyphs, cropping, characters, line spacing, spacing, kerning,
 * default character. `texture_reader` picks the reader index written for the texture slot. */
static void sprite_font_payload(xw_buf *p, int texture_reader, int n_glyphs, int n_kerning)
{
    const char *names[8] = { XW_SPRITE_FONT, XW_TEXTURE2D, XW_LIST_RECT, XW_RECT,
                             XW_LIST_CHAR, XW_CHAR, XW_LIST_VEC3, XW_VEC3 };
    memset(p, 0, sizeof *p);
    xw_readers(p, 8, names);
    xw_7bit(p, 0);
    xw_7bit(p, 1);
    xt_tex tex;
    xt_tex_make(&tex, XT_2D, 0, 8, 8, 1, 1, 9);
    xw_7bit(p, (uint32_t)texture_reader);
    xt_tex_content(p, &tex);
    xt_tex_free(&tex);
    /* a count above 64 is written without its elements (a lying count) */
    int written = n_glyphs > 64 ? 0 : n_glyphs;
    for (int list = 0; list < 2; list++) {
        xw_7bit(p, 3);
        xw_u32(p, (uint32_t)n_glyphs);
        for (int i = 0; i < written; i++) {
            xw_u32(p, (uint32_t)i * 2), xw_u32(p, 0), xw_u32(p, 2), xw_u32(p, 8);
        }
    }
    xw_7bit(p, 5);
    xw_u32(p, (uint32_t)n_glyphs);
    for (int i = 0; i < written; i++) xw_char(p, i == 1 ? 0x20ac : 'A' + (uint32_t)i); /* U+20AC: 3 bytes */
    xw_u32(p, 10);
    xw_f32(p, 1.0f);
    xw_7bit(p, 7);
    xw_u32(p, (uint32_t)n_kerning);
    for (int i = 0; i < n_kerning; i++) xw_f32(p, 0), xw_f32(p, 2), xw_f32(p, 0);
    xw_u8(p, 1);
    xw_char(p, 'C'); /* the third character (a default the font lacks is refused at creation) */
}

XGD_TEST(Xnb_SpriteFontAndEffect)
{
    xgd_device *dev = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    xw_buf p, f;
    uint64_t before = live(dev);
    sprite_font_payload(&p, 2, 3, 3);
    file_of(&f, &p, XT_LZX);
    xgd_content c;
    xgd_result r = xgd_content_load_memory(dev, f.p, f.n, &c);
    CHECK_OK(r);
    CHECK_INT(c.asset.kind, XGD_CONTENT_SPRITE_FONT);
    CHECK(c.asset.sprite_font != NULL);
    if (c.asset.sprite_font != NULL) {
        /* what sprite_font_payload wrote comes back through the font's getters */
        xgd_sprite_font_info fi;
        CHECK_OK(xgd_sprite_font_get_info(c.asset.sprite_font, &fi));
        CHECK_INT(fi.glyph_count, 3);
        CHECK_INT(fi.line_spacing, 10);
        CHECK(fi.spacing == 1.0f);
        CHECK(fi.has_default_character && fi.default_character == 'C');
        xgd_sprite_font_glyph g;
        CHECK_OK(xgd_sprite_font_get_glyph(c.asset.sprite_font, 1, &g));
        CHECK_INT(g.character, 0x20ac);
        CHECK(g.glyph.x == 2 && g.glyph.y == 0 && g.glyph.width == 2 && g.glyph.height == 8);
        CHECK(g.cropping.x == 2 && g.cropping.width == 2);
        CHECK(g.kerning.x == 0 && g.kerning.y == 2 && g.kerning.z == 0);
    }
    xgd_content_release(&c);
    CHECK_INT(live(dev), before);
    xw_free(&f);

    /* Effect: the bytes go to the effect loader. */
    const char *names[1] = { XW_EFFECT };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, names);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, 8);
    xw_bytes(&p, "notfx2.0", 8);
    file_of(&f, &p, 0);
    r = xgd_content_load_memory(dev, f.p, f.n, &c);
    CHECK_MSG(r != XGD_OK && strstr(xgd_device_last_error(dev), "this build has no") == NULL,
              "8 bytes that are no effect: %s (%s)", xgd_result_name(r), xgd_device_last_error(dev));
    CHECK(zeroed(&c));
    CHECK_INT(live(dev), before);
    xw_free(&f);
    xgd_device_destroy(dev);
}

XGD_TEST(Xnb_HostileFiles)
{
    xgd_device *dev = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    xw_buf f, p;

    /* the header */
    expect_refusal(t, dev, "empty", (const uint8_t *)"", 0, XGD_ERROR_INVALID_OPERATION, "not an .xnb");
    expect_refusal(t, dev, "PNG", (const uint8_t *)"\x89PNG\r\n\x1a\n", 8, XGD_ERROR_INVALID_OPERATION,
                   "not an .xnb");
    expect_refusal(t, dev, "short header", (const uint8_t *)"XNBw\x05", 5, XGD_ERROR_INVALID_ARGUMENT,
                   "10-byte header");
    color_file(&f, 0);
    f.p[3] = 'x';
    expect_refusal(t, dev, "Xbox 360", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "Xbox 360");
    f.p[3] = 'q';
    expect_refusal(t, dev, "platform", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "platform 0x71");
    f.p[3] = 'w';
    f.p[4] = 4;
    expect_refusal(t, dev, "version", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "version 4");
    f.p[4] = 5;
    f.p[5] = 0x40;
    expect_refusal(t, dev, "LZ4", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "LZ4");
    f.p[5] = 0x02;
    expect_refusal(t, dev, "flags", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "flags 0x02");
    f.p[5] = 0;
    put32_at(f.p + 6, (uint32_t)f.n + 1);
    expect_refusal(t, dev, "file size", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "file size");
    put32_at(f.p + 6, (uint32_t)f.n);
    expect_refusal(t, dev, "truncated", f.p, f.n - 1, XGD_ERROR_INVALID_ARGUMENT, "file size");
    xw_free(&f);

    /* type readers */
    const char *unknown[1] = { "Microsoft.Xna.Framework.Content.ModelReader, Microsoft.Xna.Framework.Graphics" };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, unknown);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "unknown reader", f.p, f.n, XGD_ERROR_NOT_SUPPORTED,
                   "\"Microsoft.Xna.Framework.Content.ModelReader, Microsoft.Xna.Framework.Graphics\"");
    xw_free(&f);
    const char *tex_reader[1] = { XW_TEXTURE2D };
    p = (xw_buf){ 0 };
    xw_7bit(&p, 1);
    xw_string(&p, XW_TEXTURE2D);
    xw_u32(&p, 3);
    xw_7bit(&p, 0);
    xw_7bit(&p, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "reader version", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "version 3");
    xw_free(&f);
    p = (xw_buf){ 0 };
    xw_7bit(&p, 0x7fffffff);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "huge reader count", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "2147483647 type readers");
    xw_free(&f);
    p = (xw_buf){ 0 };
    xw_bytes(&p, "\xff\xff\xff\xff\xff\x01", 6);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "7-bit overlong", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "7-bit");
    xw_free(&f);

    /* objects and shared resources */
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, tex_reader);
    xw_7bit(&p, 0);
    xw_7bit(&p, 2);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "reader index", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "type reader index 2, but the file has 1");
    xw_free(&f);
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, tex_reader);
    xw_7bit(&p, 3);
    xw_7bit(&p, 0);
    xw_7bit(&p, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "shared count lies", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "3 shared resources");
    xw_free(&f);
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, tex_reader);
    xw_7bit(&p, 0xfffffff);
    xw_7bit(&p, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "huge shared count", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "268435455 shared resources");
    xw_free(&f);
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, tex_reader);
    xw_7bit(&p, 0);
    xw_7bit(&p, 0);
    xw_u8(&p, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "trailing bytes", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "1 bytes follow");
    xw_free(&f);
    /* a list as the primary asset */
    const char *list_reader[1] = { XW_LIST_CHAR };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, list_reader);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "list asset", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "ListReader`1[[System.Char]]");
    xw_free(&f);

    /* textures: lying sizes, huge sizes and counts, unknown formats */
    struct { uint32_t fmt, w, h, levels, bytes; size_t have; xgd_result code; const char *says; } tex[] = {
        { 0, 4, 4, 1, 64, 64, XGD_OK, "" },
        { 0, 4, 4, 1, 65, 65, XGD_ERROR_INVALID_ARGUMENT, "has 65 bytes; the format needs 64" },
        { 0, 4, 4, 1, 64, 63, XGD_ERROR_INVALID_ARGUMENT, "needs 64 bytes, the data has 63" },
        { 0, 65536, 65536, 1, 0, 0, XGD_ERROR_INVALID_ARGUMENT, "the format needs 17179869184" },
        { 0, 0x7fffffff, 1, 1, 64, 64, XGD_ERROR_NOT_SUPPORTED, "beyond any device" },
        { 0, 0, 4, 1, 64, 64, XGD_ERROR_INVALID_ARGUMENT, "size 0x4x1" },
        { 0, 4, 4, 4, 64, 64, XGD_ERROR_INVALID_ARGUMENT, "4 levels; its mip chain has 1 to 3" },
        { 0, 4, 4, 0xffffffffu, 64, 64, XGD_ERROR_INVALID_ARGUMENT, "mip chain" },
        { 20, 4, 4, 1, 64, 64, XGD_ERROR_NOT_SUPPORTED, "Bgr32" },
        { 99, 4, 4, 1, 64, 64, XGD_ERROR_NOT_SUPPORTED, "SurfaceFormat 99" },
        { 4, 4, 4, 1, 8, 8, XGD_OK, "" },                 /* DXT1: one block */
        { 4, 4, 4, 1, 16, 16, XGD_ERROR_INVALID_ARGUMENT, "needs 8" },
        { 0, 4096, 4096, 1, 0xffffffffu, 64, XGD_ERROR_INVALID_ARGUMENT, "needs 67108864" },
    };
    for (size_t i = 0; i < sizeof tex / sizeof tex[0]; i++) {
        p = (xw_buf){ 0 };
        xw_readers(&p, 1, tex_reader);
        xw_7bit(&p, 0);
        xw_7bit(&p, 1);
        xw_u32(&p, tex[i].fmt), xw_u32(&p, tex[i].w), xw_u32(&p, tex[i].h), xw_u32(&p, tex[i].levels);
        xw_u32(&p, tex[i].bytes);
        uint8_t *texels = calloc(1, tex[i].have + 1);
        REQUIRE(texels != NULL);
        xw_bytes(&p, texels, tex[i].have);
        free(texels);
        file_of(&f, &p, 0);
        char label[64];
        snprintf(label, sizeof label, "texture case %zu", i);
        if (tex[i].code == XGD_OK) {
            xgd_content c;
            CHECK_MSG(xgd_content_load_memory(dev, f.p, f.n, &c) == XGD_OK, "%s: %s", label,
                      xgd_device_last_error(dev));
            xgd_content_release(&c);
        } else {
            expect_refusal(t, dev, label, f.p, f.n, tex[i].code, tex[i].says);
        }
        xw_free(&f);
    }
    /* a size the file holds but the device refuses: the texture is never made */
    xt_tex big;
    xt_tex_make(&big, XT_2D, 12, 8192, 8, 1, 1, 2);
    xt_tex_file(&f, &big, XW_HIDEF);
    expect_refusal(t, dev, "beyond the device", f.p, f.n, XGD_ERROR_NOT_SUPPORTED, "");
    xw_free(&f);
    xt_tex_free(&big);

    /* sprite fonts: recursion (a font where its texture goes), lists of other lengths, null */
    sprite_font_payload(&p, 1, 2, 2);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "font in font", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "SpriteFont texture: the object's type reader is Microsoft.Xna.Framework.Content.SpriteFontReader");
    xw_free(&f);
    sprite_font_payload(&p, 2, 2, 1);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "kerning length", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "2 glyphs, 2 cropping, 2 characters, 1 kerning");
    xw_free(&f);
    sprite_font_payload(&p, 0, 2, 2);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "null texture", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "SpriteFont texture is null");
    xw_free(&f);
    sprite_font_payload(&p, 2, 2, 2);
    /* the characters list: 0xff is no UTF-8 lead byte; find the 'A' after its count of 2 */
    for (size_t i = 0; i + 5 < p.n; i++)
        if (memcmp(p.p + i, "\x02\x00\x00\x00" "A\xe2\x82\xac", 8) == 0) p.p[i + 4] = 0xff;
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "bad char", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT, "byte 0xff starts no UTF-8");
    xw_free(&f);
    sprite_font_payload(&p, 2, 0x10000000, 0);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "huge glyph count", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "268435456 elements need at least 4294967296 bytes");
    xw_free(&f);
    /* effect byte count beyond the data */
    const char *fx_reader[1] = { XW_EFFECT };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, fx_reader);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, 0xfffffff0u);
    xw_bytes(&p, "abcd", 4);
    file_of(&f, &p, 0);
    expect_refusal(t, dev, "effect size", f.p, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "Effect bytecode needs 4294967280 bytes, the data has 4 left");
    xw_free(&f);
    xgd_device_destroy(dev);
}

/* A payload of `n` bytes (a Color texture) compressed, for the LZX cases. */
static void lzx_file(xw_buf *f, int w, int h)
{
    xt_tex tex;
    xt_tex_make(&tex, XT_2D, 0, w, h, 1, 1, 11);
    xt_tex_file(f, &tex, XW_LZX);
    xt_tex_free(&tex);
}

XGD_TEST(Xnb_HostileLzx)
{
    xgd_device *dev = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    xw_buf f;
    /* 64x160 Color: 40960 bytes of payload and its header, two frames */
    lzx_file(&f, 64, 160);
    xgd_content c;
#ifndef XGD_TEST_HAVE_LZX
    CHECK_RESULT(xgd_content_load_memory(dev, f.p, f.n, &c), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "libmspack") != NULL, "message: %s",
              xgd_device_last_error(dev));
    xw_free(&f);
    xgd_device_destroy(dev);
    xgdt_not_supported(t, "built without libmspack (XGD_LZX=OFF)");
    return;
#endif
    CHECK_OK(xgd_content_load_memory(dev, f.p, f.n, &c));
    xgd_content_release(&c);
    uint8_t *copy = malloc(f.n);
    REQUIRE(copy != NULL);
    size_t block0 = (size_t)f.p[14] << 8 | f.p[15];

    /* truncated: frames cut short, the file size field kept true */
    for (size_t cut = 20; cut < f.n; cut += f.n / 7) {
        memcpy(copy, f.p, cut);
        put32_at(copy + 6, (uint32_t)cut);
        char label[64];
        snprintf(label, sizeof label, "LZX truncated at %zu", cut);
        expect_refusal(t, dev, label, copy, cut, XGD_ERROR_INVALID_ARGUMENT, "LZX frames");
    }
    /* corrupt: the first block's type made 0 (no block type) */
    memcpy(copy, f.p, f.n);
    copy[16] = 0;
    copy[17] = 0;
    expect_refusal(t, dev, "LZX corrupt block type", copy, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "corrupt LZX data (libmspack: MSPACK_ERR_DECRUNCH");
    /* corrupt: a byte of literal codes changed decodes to other bytes or fails; never the file */
    memcpy(copy, f.p, f.n);
    for (size_t i = 16 + block0 - 64; i < 16 + block0 - 32; i++) copy[i] ^= 0x5a;
    {
        xgd_result r = xgd_content_load_memory(dev, copy, f.n, &c);
        if (r == XGD_OK) {
            uint8_t *back = malloc(64 * 160 * 4);
            REQUIRE(back != NULL);
            CHECK_OK(xgd_texture_get_data(c.asset.texture, 0, 0, NULL, back, 64 * 160 * 4));
            xt_tex tex;
            xt_tex_make(&tex, XT_2D, 0, 64, 160, 1, 1, 11);
            CHECK_MSG(memcmp(back, tex.data[0], tex.sizes[0]) != 0, "corrupt LZX gave the original texels");
            xt_tex_free(&tex);
            free(back);
            xgd_content_release(&c);
        } else {
            CHECK_INT(r, XGD_ERROR_INVALID_ARGUMENT);
        }
    }
    /* the declared decompressed size lies (larger, smaller, beyond the limit) */
    memcpy(copy, f.p, f.n);
    uint32_t dsize = (uint32_t)f.p[10] | (uint32_t)f.p[11] << 8 | (uint32_t)f.p[12] << 16 | (uint32_t)f.p[13] << 24;
    put32_at(copy + 10, dsize + 1);
    expect_refusal(t, dev, "LZX size larger", copy, f.n, XGD_ERROR_INVALID_ARGUMENT, "the header declares");
    put32_at(copy + 10, dsize - 1);
    expect_refusal(t, dev, "LZX size smaller", copy, f.n, XGD_ERROR_INVALID_ARGUMENT, "more than the");
    put32_at(copy + 10, 0xffffffffu);
    expect_refusal(t, dev, "LZX size huge", copy, f.n, XGD_ERROR_NOT_SUPPORTED, "above xgd's limit");
    /* a first frame that is not 32768 bytes */
    {
        xw_buf g = { 0 };
        xw_bytes(&g, f.p, 14);
        xw_u8(&g, 0xff), xw_u8(&g, 0x40), xw_u8(&g, 0x00); /* frame 16384 */
        xw_bytes(&g, f.p + 14, f.n - 14);
        put32_at(g.p + 6, (uint32_t)g.n);
        put32_at(g.p + 10, dsize - 16384);
        expect_refusal(t, dev, "LZX short first frame", g.p, g.n, XGD_ERROR_INVALID_ARGUMENT,
                       "only the last frame may be");
        g.p[15] = 0x80, g.p[16] = 0x01; /* frame 32769 */
        expect_refusal(t, dev, "LZX long frame", g.p, g.n, XGD_ERROR_INVALID_ARGUMENT,
                       "declares 32769 output bytes");
        xw_free(&g);
    }
    /* a block larger than any frame compresses to */
    memcpy(copy, f.p, f.n);
    copy[14] = 0xa0, copy[15] = 0x00;
    expect_refusal(t, dev, "LZX huge block", copy, f.n, XGD_ERROR_INVALID_ARGUMENT,
                   "40960 compressed bytes");
    free(copy);
    xw_free(&f);
    xgd_device_destroy(dev);
}

#ifdef XGD_TEST_HAVE_MOJOSHADER
#include "fx_writer.h"
#endif

/* EffectReader hands its bytes to the effect loader: an fx_2_0 effect written by the tests'
 * writer, wrapped in an LZX-compressed .xnb, loads into an effect with the writer's techniques
 * and parameters (fx_writer.h: "Solid" and "Textured", WorldViewProj and Tint). */
XGD_TEST(Xnb_EffectRoundTrip)
{
#ifndef XGD_TEST_HAVE_MOJOSHADER
    xgdt_not_supported(t, "this build has no MojoShader: no effect to write or load");
#else
    xgd_device *dev = device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(dev != NULL);
    XGDT_FX2_OR_SKIP(t, dev);
    char err[256];
    size_t n = 0;
    uint8_t *fx = fxw_standard(&n, err, sizeof err);
    REQUIRE(fx != NULL);
    const char *names[1] = { XW_EFFECT };
    xw_buf p = { 0 }, f;
    xw_readers(&p, 1, names);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, (uint32_t)n);
    xw_bytes(&p, fx, n);
    file_of(&f, &p, XT_LZX);
    uint64_t before = live(dev);
    xgd_content c;
    CHECK_OK(xgd_content_load_memory(dev, f.p, f.n, &c));
    CHECK_INT(c.asset.kind, XGD_CONTENT_EFFECT);
    CHECK_INT(c.compressed, XT_LZX != 0);
    if (c.asset.effect != NULL) {
        int count = 0, textured = -1;
        CHECK_OK(xgd_effect_get_technique_count(c.asset.effect, &count));
        CHECK_INT(count, 2);
        CHECK_OK(xgd_effect_find_technique(c.asset.effect, "Textured", &textured));
        CHECK_INT(textured, 1);
        xgd_effect_parameter wvp, tint;
        CHECK_OK(xgd_effect_find_parameter(c.asset.effect, "WorldViewProj", &wvp));
        CHECK_OK(xgd_effect_find_parameter(c.asset.effect, "Tint", &tint));
        xgd_effect_parameter_info info;
        CHECK_OK(xgd_effect_parameter_get_info(c.asset.effect, wvp, &info));
        CHECK(info.parameter_class == XGD_EFFECT_PARAMETER_CLASS_MATRIX && info.rows == 4 &&
              info.columns == 4 && strcmp(info.semantic, "WORLDVIEWPROJECTION") == 0);
    }
    xgd_content_release(&c);
    CHECK_INT(live(dev), before);
    xw_free(&f);
    free(fx);
    xgd_device_destroy(dev);
#endif
}
