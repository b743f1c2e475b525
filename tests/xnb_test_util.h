/*
 * xnb_test_util.h - textures with known texels written as .xnb payloads (tests/xnb_writer.h),
 * for the .xnb unit tests and fixtures. Level sizes follow XNA's format rules, computed here
 * independently of the library: bytes per texel, or per 4x4 block for DXT, of each level of a
 * chain that halves every dimension down to 1.
 */
#ifndef XGD_TEST_XNB_UTIL_H
#define XGD_TEST_XNB_UTIL_H

#include "xnb_writer.h"

#include <stdlib.h>
#include <string.h>

enum { XT_2D, XT_CUBE, XT_3D };

/* XNA 4.0 SurfaceFormat 0..19: bytes per texel (per block for DXT1/3/5 = 4, 5, 6). */
static inline size_t xt_level_size(uint32_t xfmt, int w, int h)
{
    static const int bpp[20] = { 4, 2, 2, 2, 8, 16, 16, 2, 4, 4, 4, 8, 1, 4, 8, 16, 2, 4, 8, 8 };
    if (xfmt >= 4 && xfmt <= 6) return (size_t)((w + 3) / 4) * (size_t)((h + 3) / 4) * (size_t)bpp[xfmt];
    return (size_t)w * (size_t)h * (size_t)bpp[xfmt];
}

static inline int xt_dim(int v, int level) { return v >> level ? v >> level : 1; }

typedef struct xt_tex {
    int kind;
    uint32_t xfmt;
    int w, h, d, levels, faces;
    uint8_t *data[6 * 16];       /* [face * levels + level] */
    uint32_t sizes[6 * 16];
} xt_tex;

/* Test texels: random bytes, except that float formats get finite normal numbers (so no
 * renderer may canonicalise a NaN on the way). */
static inline void xt_texels(uint32_t xfmt, uint8_t *p, size_t n, uint32_t seed)
{
    xw_fill(p, n, seed);
    if (xfmt == 13 || xfmt == 14 || xfmt == 15) { /* Single, Vector2, Vector4 */
        for (size_t i = 0; i + 4 <= n; i += 4) p[i + 3] = (uint8_t)(0x3e + (p[i + 3] & 1)) | (p[i + 3] & 0x80);
    } else if (xfmt >= 16 && xfmt <= 19) {        /* HalfSingle ... HdrBlendable */
        for (size_t i = 0; i + 2 <= n; i += 2) p[i + 1] = (uint8_t)(0x38 + (p[i + 1] & 7)) | (p[i + 1] & 0x80);
    }
}

static inline void xt_tex_make(xt_tex *t, int kind, uint32_t xfmt, int w, int h, int d,
                               int levels, uint32_t seed)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->xfmt = xfmt;
    t->w = w;
    t->h = kind == XT_CUBE ? w : h;
    t->d = kind == XT_3D ? d : 1;
    t->levels = levels;
    t->faces = kind == XT_CUBE ? 6 : 1;
    for (int f = 0; f < t->faces; f++) {
        for (int l = 0; l < levels; l++) {
            size_t n = xt_level_size(xfmt, xt_dim(t->w, l), xt_dim(t->h, l)) * (size_t)xt_dim(t->d, l);
            int i = f * levels + l;
            t->data[i] = malloc(n);
            t->sizes[i] = (uint32_t)n;
            if (t->data[i] == NULL) abort();
            xt_texels(xfmt, t->data[i], n, seed + (uint32_t)i * 977u);
        }
    }
}

static inline void xt_tex_free(xt_tex *t)
{
    for (int i = 0; i < 6 * 16; i++) free(t->data[i]);
    memset(t, 0, sizeof *t);
}

/* The texture's reader content (after its type index). */
static inline void xt_tex_content(xw_buf *p, const xt_tex *t)
{
    const uint8_t *const *data = (const uint8_t *const *)t->data;
    if (t->kind == XT_2D)
        xw_texture2d(p, t->xfmt, (uint32_t)t->w, (uint32_t)t->h, (uint32_t)t->levels, data, t->sizes);
    else if (t->kind == XT_CUBE)
        xw_texture_cube(p, t->xfmt, (uint32_t)t->w, (uint32_t)t->levels, data, t->sizes);
    else
        xw_texture3d(p, t->xfmt, (uint32_t)t->w, (uint32_t)t->h, (uint32_t)t->d, (uint32_t)t->levels,
                     data, t->sizes);
}

static inline const char *xt_reader_of(const xt_tex *t)
{
    return t->kind == XT_2D ? XW_TEXTURE2D : t->kind == XT_CUBE ? XW_TEXTURE_CUBE : XW_TEXTURE3D;
}

/* A whole payload whose primary asset is the texture: one type reader, no shared resources. */
static inline void xt_tex_payload(xw_buf *p, const xt_tex *t)
{
    memset(p, 0, sizeof *p);
    const char *names[1] = { xt_reader_of(t) };
    xw_readers(p, 1, names);
    xw_7bit(p, 0); /* shared resources */
    xw_7bit(p, 1); /* type reader 1 */
    xt_tex_content(p, t);
}

/* The file of that payload. */
static inline void xt_tex_file(xw_buf *file, const xt_tex *t, uint8_t flags)
{
    xw_buf p;
    xt_tex_payload(&p, t);
    xw_file(file, &p, 'w', flags);
    xw_free(&p);
}

#endif
