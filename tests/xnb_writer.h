/*
 * xnb_writer.h - the tests' own .xnb writer (XNA 4.0's public container format) and a small
 * LZX encoder (verbatim blocks), so the .xnb loader can be checked against files whose content
 * is known, with no XNA content pipeline. Used by the tests and by fuzz/make-xnb-corpus.c.
 *
 * Payload building: a growing byte buffer (xw_*), then xw_file() wraps a payload as a file,
 * compressed with xw_lzx() when asked.
 */
#ifndef XGD_TEST_XNB_WRITER_H
#define XGD_TEST_XNB_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xw_buf {
    uint8_t *p;
    size_t n, cap;
} xw_buf;

void xw_free(xw_buf *b);
void xw_bytes(xw_buf *b, const void *data, size_t n);
void xw_u8(xw_buf *b, uint8_t v);
void xw_u32(xw_buf *b, uint32_t v);
void xw_f32(xw_buf *b, float v);
void xw_7bit(xw_buf *b, uint32_t v);          /* .NET Write7BitEncodedInt */
void xw_string(xw_buf *b, const char *s);     /* 7-bit byte length, UTF-8 bytes */
void xw_char(xw_buf *b, uint32_t c);          /* BinaryWriter.Write(char): UTF-8, 1-3 bytes */

/* Reader names as XNA's pipeline writes them (assembly-qualified). */
#define XW_TEXTURE2D "Microsoft.Xna.Framework.Content.Texture2DReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553"
#define XW_TEXTURE_CUBE "Microsoft.Xna.Framework.Content.TextureCubeReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553"
#define XW_TEXTURE3D "Microsoft.Xna.Framework.Content.Texture3DReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553"
#define XW_SPRITE_FONT "Microsoft.Xna.Framework.Content.SpriteFontReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553"
#define XW_EFFECT "Microsoft.Xna.Framework.Content.EffectReader, Microsoft.Xna.Framework.Graphics, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553"
#define XW_LIST_RECT "Microsoft.Xna.Framework.Content.ListReader`1[[Microsoft.Xna.Framework.Rectangle, Microsoft.Xna.Framework, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553]]"
#define XW_RECT "Microsoft.Xna.Framework.Content.RectangleReader"
#define XW_LIST_CHAR "Microsoft.Xna.Framework.Content.ListReader`1[[System.Char, mscorlib, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b77a5c561934e089]]"
#define XW_CHAR "Microsoft.Xna.Framework.Content.CharReader"
#define XW_LIST_VEC3 "Microsoft.Xna.Framework.Content.ListReader`1[[Microsoft.Xna.Framework.Vector3, Microsoft.Xna.Framework, Version=4.0.0.0, Culture=neutral, PublicKeyToken=842cf8be1de50553]]"
#define XW_VEC3 "Microsoft.Xna.Framework.Content.Vector3Reader"

/* The type reader table: count, then each name with version 0. */
void xw_readers(xw_buf *b, int count, const char *const *names);

/* Texture2DReader content (after the object's type index): XNA SurfaceFormat number, size,
 * level count, then each level's byte count and bytes (levels[i], sizes[i]). */
void xw_texture2d(xw_buf *b, uint32_t xna_format, uint32_t w, uint32_t h, uint32_t levels,
                  const uint8_t *const *data, const uint32_t *sizes);
/* TextureCubeReader: format, size, levels, then per face per level (data[face * levels + l]). */
void xw_texture_cube(xw_buf *b, uint32_t xna_format, uint32_t size, uint32_t levels,
                     const uint8_t *const *data, const uint32_t *sizes);
/* Texture3DReader: format, width, height, depth, levels, then per level. */
void xw_texture3d(xw_buf *b, uint32_t xna_format, uint32_t w, uint32_t h, uint32_t d,
                  uint32_t levels, const uint8_t *const *data, const uint32_t *sizes);

/* XNB flags */
#define XW_HIDEF 0x01
#define XW_LZX 0x80

/* The whole file: header (platform, version 5, flags, size) and the payload, LZX-compressed
 * when flags has XW_LZX. The caller frees *out (xw_free). */
void xw_file(xw_buf *out, const xw_buf *payload, char platform, uint8_t flags);

/* LZX-compresses src as XNB frames: each 32768-byte frame (the last shorter) one verbatim block
 * of literals and matches, preceded by XNA's frame header (big-endian block size, or 0xFF,
 * frame size, block size for a frame that is not 32768 bytes). */
void xw_lzx(xw_buf *out, const uint8_t *src, size_t n);

/* Deterministic test bytes. */
void xw_fill(uint8_t *p, size_t n, uint32_t seed);

#endif
