/*
 * make-xnb-corpus.c - writes the committed seed corpus of the xnb fuzz target with the tests'
 * own .xnb writer (tests/xnb_writer.c): small textures of every XNA SurfaceFormat (2D with
 * mips, cube, volume), a sprite font, an effect, shared resources, each uncompressed and
 * LZX-compressed, and a few refused ones (unknown reader, lying counts).
 *
 *   cc -Itests fuzz/make-xnb-corpus.c tests/xnb_writer.c -o make-xnb-corpus
 *   ./make-xnb-corpus fuzz/corpus/xnb
 */
#include "xnb_test_util.h"

#include <stdio.h>

static const char *g_dir;

static void save(const char *name, const xw_buf *f)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.xnb", g_dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp == NULL || fwrite(f->p, 1, f->n, fp) != f->n || fclose(fp) != 0) {
        perror(path);
        exit(1);
    }
}

/* The payload, saved uncompressed and compressed. */
static void save_both(const char *name, xw_buf *payload, uint8_t flags)
{
    char n[128];
    xw_buf f;
    xw_file(&f, payload, 'w', flags);
    snprintf(n, sizeof n, "%s", name);
    save(n, &f);
    xw_free(&f);
    xw_file(&f, payload, 'w', (uint8_t)(flags | XW_LZX));
    snprintf(n, sizeof n, "%s-lzx", name);
    save(n, &f);
    xw_free(&f);
    xw_free(payload);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    xw_buf p;
    char name[64];
    for (uint32_t f = 0; f < 20; f++) {
        xt_tex t;
        xt_tex_make(&t, XT_2D, f, 4, 4, 1, 3, f);
        xt_tex_payload(&p, &t);
        snprintf(name, sizeof name, "texture2d-format%u", (unsigned)f);
        save_both(name, &p, XW_HIDEF);
        xt_tex_free(&t);
    }
    xt_tex t;
    xt_tex_make(&t, XT_CUBE, 0, 2, 2, 1, 2, 1);
    xt_tex_payload(&p, &t);
    save_both("cube-color", &p, XW_HIDEF);
    xt_tex_free(&t);
    xt_tex_make(&t, XT_3D, 1, 2, 2, 2, 2, 2);
    xt_tex_payload(&p, &t);
    save_both("volume-bgr565", &p, XW_HIDEF);
    xt_tex_free(&t);
    /* a larger texture: two LZX frames, with repeats the encoder turns into matches */
    xt_tex_make(&t, XT_2D, 12, 256, 160, 1, 1, 3);
    for (uint32_t i = 0; i < t.sizes[0]; i++) t.data[0][i] = (uint8_t)((i / 8) % 5 ? t.data[0][i % 64] : t.data[0][i]);
    xt_tex_payload(&p, &t);
    xw_buf file;
    xw_file(&file, &p, 'w', XW_LZX); /* compressed only: 40 KiB uncompressed */
    save("texture2d-two-frames-lzx", &file);
    xw_free(&file);
    xw_free(&p);
    xt_tex_free(&t);

    /* a sprite font: texture, glyphs, cropping, characters, spacing, kerning, default char */
    const char *font[8] = { XW_SPRITE_FONT, XW_TEXTURE2D, XW_LIST_RECT, XW_RECT,
                            XW_LIST_CHAR, XW_CHAR, XW_LIST_VEC3, XW_VEC3 };
    p = (xw_buf){ 0 };
    xw_readers(&p, 8, font);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_7bit(&p, 2);
    xt_tex_make(&t, XT_2D, 0, 8, 8, 1, 1, 4);
    xt_tex_content(&p, &t);
    xt_tex_free(&t);
    for (int list = 0; list < 2; list++) {
        xw_7bit(&p, 3);
        xw_u32(&p, 3);
        for (uint32_t i = 0; i < 3; i++) xw_u32(&p, i * 2), xw_u32(&p, 0), xw_u32(&p, 2), xw_u32(&p, 8);
    }
    xw_7bit(&p, 5);
    xw_u32(&p, 3);
    xw_char(&p, 'A'), xw_char(&p, 0xe9), xw_char(&p, 0x20ac);
    xw_u32(&p, 10);
    xw_f32(&p, 1.0f);
    xw_7bit(&p, 7);
    xw_u32(&p, 3);
    for (int i = 0; i < 3; i++) xw_f32(&p, 0), xw_f32(&p, 2), xw_f32(&p, 1);
    xw_u8(&p, 1);
    xw_char(&p, '?');
    save_both("sprite-font", &p, 0);

    /* an effect (bytes the effect loader gets) */
    const char *fx[1] = { XW_EFFECT };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, fx);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, 16);
    xw_bytes(&p, "\x01\x09\xff\xfe" "effect bytes", 16);
    save_both("effect", &p, XW_HIDEF);

    /* shared resources: a null asset and two textures */
    const char *two[2] = { XW_TEXTURE2D, XW_TEXTURE3D };
    p = (xw_buf){ 0 };
    xw_readers(&p, 2, two);
    xw_7bit(&p, 2);
    xw_7bit(&p, 0);
    xt_tex_make(&t, XT_2D, 5, 4, 4, 1, 1, 5);
    xw_7bit(&p, 1);
    xt_tex_content(&p, &t);
    xt_tex_free(&t);
    xt_tex_make(&t, XT_3D, 12, 2, 2, 2, 1, 6);
    xw_7bit(&p, 2);
    xt_tex_content(&p, &t);
    xt_tex_free(&t);
    save_both("shared-resources", &p, XW_HIDEF);

    /* refused: an unknown reader; a count beyond the data */
    const char *model[1] = { "Microsoft.Xna.Framework.Content.ModelReader, Microsoft.Xna.Framework.Graphics" };
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, model);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    save_both("unknown-reader", &p, 0);
    p = (xw_buf){ 0 };
    xw_readers(&p, 1, two);
    xw_7bit(&p, 0);
    xw_7bit(&p, 1);
    xw_u32(&p, 0), xw_u32(&p, 4096), xw_u32(&p, 4096), xw_u32(&p, 1), xw_u32(&p, 67108864);
    save_both("lying-level-size", &p, 0);
    return 0;
}
