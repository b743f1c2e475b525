/*
 * xnb_writer.c - the tests' .xnb writer and LZX encoder (see xnb_writer.h).
 *
 * LZX as the format defines it (and as XNA's content pipeline writes .xnb frames): a bit stream
 * read most significant bit first from 16-bit little-endian words; one header bit (0: no Intel
 * E8 translation); then blocks: 3 bits of type (1 = verbatim), 24 bits of output size, the code
 * lengths of the main tree (elements 0-255, then 256 up to 256 + 8 * position slots) and of the
 * length tree, each list sent through its own 20-symbol pretree (four bits per pretree length,
 * then per element the pretree symbol (previous length - new length) mod 17, the previous
 * lengths being the last block's, zeros at the start), then Huffman-coded elements: a literal
 * byte (0-255) or a match 256 + (position slot << 3 | min(length - 2, 7)), a length-tree
 * symbol (length - 9) when that is 7, and for slots above 2 the offset's extra bits verbatim.
 * Slot s covers formatted offsets (offset + 2) from base[s], with extra[s] = max(0, s/2 - 1)
 * bits; slot 0 repeats the last offset. A frame is 32768 output bytes (the last shorter),
 * matches stay inside their frame, and the stream is padded to 16 bits at each frame's end.
 *
 * The encoder keeps every code fixed, so it is short and its output easy to reason about: main
 * tree all 512 elements (window 2^16: 32 slots) 9 bits; length tree elements 0-6 7 bits and
 * 7-248 8 bits; pretree 0-15 5 bits and 16-19 3 bits (all complete prefix codes, canonical:
 * shorter codes first, then by symbol). Matches come from a hash of 3 bytes, at most 257 long.
 */
#include "xnb_writer.h"

#include <stdlib.h>
#include <string.h>

static void reserve(xw_buf *b, size_t more)
{
    if (b->n + more <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + more) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (p == NULL) abort(); /* test code: out of memory ends the run */
    b->p = p;
    b->cap = cap;
}

void xw_free(xw_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

void xw_bytes(xw_buf *b, const void *data, size_t n)
{
    reserve(b, n + 1);
    if (n) memcpy(b->p + b->n, data, n);
    b->n += n;
}

void xw_u8(xw_buf *b, uint8_t v) { xw_bytes(b, &v, 1); }

void xw_u32(xw_buf *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    xw_bytes(b, x, 4);
}

void xw_f32(xw_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    xw_u32(b, u);
}

void xw_7bit(xw_buf *b, uint32_t v)
{
    while (v >= 0x80) {
        xw_u8(b, (uint8_t)(v | 0x80));
        v >>= 7;
    }
    xw_u8(b, (uint8_t)v);
}

void xw_string(xw_buf *b, const char *s)
{
    size_t n = strlen(s);
    xw_7bit(b, (uint32_t)n);
    xw_bytes(b, s, n);
}

void xw_char(xw_buf *b, uint32_t c)
{
    if (c < 0x80) {
        xw_u8(b, (uint8_t)c);
    } else if (c < 0x800) {
        xw_u8(b, (uint8_t)(0xc0 | c >> 6));
        xw_u8(b, (uint8_t)(0x80 | (c & 0x3f)));
    } else {
        xw_u8(b, (uint8_t)(0xe0 | c >> 12));
        xw_u8(b, (uint8_t)(0x80 | (c >> 6 & 0x3f)));
        xw_u8(b, (uint8_t)(0x80 | (c & 0x3f)));
    }
}

void xw_readers(xw_buf *b, int count, const char *const *names)
{
    xw_7bit(b, (uint32_t)count);
    for (int i = 0; i < count; i++) {
        xw_string(b, names[i]);
        xw_u32(b, 0);
    }
}

static void levels_out(xw_buf *b, uint32_t count, const uint8_t *const *data, const uint32_t *sizes)
{
    for (uint32_t i = 0; i < count; i++) {
        xw_u32(b, sizes[i]);
        xw_bytes(b, data[i], sizes[i]);
    }
}

void xw_texture2d(xw_buf *b, uint32_t xna_format, uint32_t w, uint32_t h, uint32_t levels,
                  const uint8_t *const *data, const uint32_t *sizes)
{
    xw_u32(b, xna_format);
    xw_u32(b, w);
    xw_u32(b, h);
    xw_u32(b, levels);
    levels_out(b, levels, data, sizes);
}

void xw_texture_cube(xw_buf *b, uint32_t xna_format, uint32_t size, uint32_t levels,
                     const uint8_t *const *data, const uint32_t *sizes)
{
    xw_u32(b, xna_format);
    xw_u32(b, size);
    xw_u32(b, levels);
    levels_out(b, 6 * levels, data, sizes);
}

void xw_texture3d(xw_buf *b, uint32_t xna_format, uint32_t w, uint32_t h, uint32_t d,
                  uint32_t levels, const uint8_t *const *data, const uint32_t *sizes)
{
    xw_u32(b, xna_format);
    xw_u32(b, w);
    xw_u32(b, h);
    xw_u32(b, d);
    xw_u32(b, levels);
    levels_out(b, levels, data, sizes);
}

void xw_fill(uint8_t *p, size_t n, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (uint8_t)(x >> 16);
    }
}

/* ---- LZX ---------------------------------------------------------------------------------- */

typedef struct bitw {
    xw_buf *out;
    uint32_t acc;
    int bits;
} bitw;

static void put_bits(bitw *w, uint32_t v, int n)
{
    for (int i = n - 1; i >= 0; i--) {
        w->acc = w->acc << 1 | (v >> i & 1);
        if (++w->bits == 16) {
            xw_u8(w->out, (uint8_t)w->acc);
            xw_u8(w->out, (uint8_t)(w->acc >> 8));
            w->acc = 0;
            w->bits = 0;
        }
    }
}

static void align16(bitw *w)
{
    if (w->bits) put_bits(w, 0, 16 - w->bits);
}

/* Canonical codes from lengths: shorter first, then by symbol. */
static void canonical(const uint8_t *len, int n, uint32_t *code)
{
    uint32_t next = 0;
    for (int l = 1; l <= 16; l++) {
        for (int s = 0; s < n; s++)
            if (len[s] == l) code[s] = next++;
        next <<= 1;
    }
}

#define MAIN_N 512
#define LEN_N 249

typedef struct lzx_state {
    uint8_t main_len[MAIN_N], len_len[LEN_N], pre_len[20];
    uint32_t main_code[MAIN_N], len_code[LEN_N], pre_code[20];
    uint8_t prev_main[MAIN_N], prev_len[LEN_N];
    uint32_t r0, r1, r2;
} lzx_state;

static void send_lengths(bitw *w, lzx_state *s, const uint8_t *lens, uint8_t *prev, int first,
                         int last)
{
    for (int i = 0; i < 20; i++) put_bits(w, s->pre_len[i], 4);
    for (int x = first; x < last; x++) {
        int sym = ((int)prev[x] - (int)lens[x] + 17) % 17;
        put_bits(w, s->pre_code[sym], s->pre_len[sym]);
        prev[x] = lens[x];
    }
}

static int slot_of(uint32_t formatted, uint32_t *base_out, int *extra_out)
{
    uint32_t base = 0;
    for (int s = 0; s < 32; s++) {
        int extra = s < 4 ? 0 : s / 2 - 1;
        if (formatted < base + (1u << extra)) {
            *base_out = base;
            *extra_out = extra;
            return s;
        }
        base += 1u << extra;
    }
    return -1;
}

static void put_match(bitw *w, lzx_state *s, uint32_t offset, uint32_t length)
{
    int slot, extra = 0;
    uint32_t base = 0;
    if (offset == s->r0) {
        slot = 0;
    } else {
        slot = slot_of(offset + 2, &base, &extra);
        s->r2 = s->r1;
        s->r1 = s->r0;
        s->r0 = offset;
    }
    uint32_t header = length - 2 < 7 ? length - 2 : 7;
    uint32_t sym = 256 + ((uint32_t)slot << 3 | header);
    put_bits(w, s->main_code[sym], s->main_len[sym]);
    if (header == 7) put_bits(w, s->len_code[length - 9], s->len_len[length - 9]);
    if (slot >= 3 && extra) put_bits(w, offset + 2 - base, extra);
}

#define HASH_BITS 12

void xw_lzx(xw_buf *out, const uint8_t *src, size_t n)
{
    lzx_state s;
    memset(&s, 0, sizeof s);
    for (int i = 0; i < MAIN_N; i++) s.main_len[i] = 9;
    for (int i = 0; i < LEN_N; i++) s.len_len[i] = i < 7 ? 7 : 8;
    for (int i = 0; i < 20; i++) s.pre_len[i] = i < 16 ? 5 : 3;
    canonical(s.main_len, MAIN_N, s.main_code);
    canonical(s.len_len, LEN_N, s.len_code);
    canonical(s.pre_len, 20, s.pre_code);
    s.r0 = s.r1 = s.r2 = 1;
    static int32_t head[1 << HASH_BITS];

    for (size_t start = 0; start < n; start += 32768) {
        size_t end = n - start < 32768 ? n : start + 32768;
        xw_buf frame = { 0 };
        bitw w = { &frame, 0, 0 };
        if (start == 0) put_bits(&w, 0, 1); /* no E8 translation */
        put_bits(&w, 1, 3);                 /* verbatim block */
        uint32_t size = (uint32_t)(end - start);
        put_bits(&w, size >> 8, 16);
        put_bits(&w, size & 0xff, 8);
        send_lengths(&w, &s, s.main_len, s.prev_main, 0, 256);
        send_lengths(&w, &s, s.main_len, s.prev_main, 256, MAIN_N);
        send_lengths(&w, &s, s.len_len, s.prev_len, 0, LEN_N);
        for (int i = 0; i < (1 << HASH_BITS); i++) head[i] = -1;
        size_t i = start;
        while (i < end) {
            uint32_t best_len = 0, best_off = 0;
            if (end - i >= 3) {
                uint32_t h = ((uint32_t)src[i] << 16 | (uint32_t)src[i + 1] << 8 | src[i + 2]) *
                             2654435761u >> (32 - HASH_BITS);
                int32_t cand = head[h];
                head[h] = (int32_t)i;
                /* the last offset first: a repeat costs no extra bits */
                size_t tries[2] = { i >= start + s.r0 ? i - s.r0 : (size_t)-1,
                                    cand >= 0 ? (size_t)cand : (size_t)-1 };
                for (int k = 0; k < 2; k++) {
                    if (tries[k] == (size_t)-1 || tries[k] < start || tries[k] >= i) continue;
                    uint32_t l = 0, max = end - i < 257 ? (uint32_t)(end - i) : 257;
                    while (l < max && src[tries[k] + l] == src[i + l]) l++;
                    if (l > best_len) best_len = l, best_off = (uint32_t)(i - tries[k]);
                }
            }
            if (best_len >= 3) {
                put_match(&w, &s, best_off, best_len);
                i += best_len;
            } else {
                put_bits(&w, s.main_code[src[i]], s.main_len[src[i]]);
                i++;
            }
        }
        align16(&w);
        if (size == 32768) {
            xw_u8(out, (uint8_t)(frame.n >> 8));
            xw_u8(out, (uint8_t)frame.n);
        } else {
            xw_u8(out, 0xff);
            xw_u8(out, (uint8_t)(size >> 8));
            xw_u8(out, (uint8_t)size);
            xw_u8(out, (uint8_t)(frame.n >> 8));
            xw_u8(out, (uint8_t)frame.n);
        }
        xw_bytes(out, frame.p, frame.n);
        xw_free(&frame);
    }
}

void xw_file(xw_buf *out, const xw_buf *payload, char platform, uint8_t flags)
{
    memset(out, 0, sizeof *out);
    xw_bytes(out, "XNB", 3);
    xw_u8(out, (uint8_t)platform);
    xw_u8(out, 5);
    xw_u8(out, flags);
    xw_u32(out, 0); /* size, patched below */
    if (flags & XW_LZX) {
        xw_u32(out, (uint32_t)payload->n);
        xw_lzx(out, payload->p, payload->n);
    } else {
        xw_bytes(out, payload->p, payload->n);
    }
    uint32_t size = (uint32_t)out->n;
    for (int i = 0; i < 4; i++) out->p[6 + i] = (uint8_t)(size >> (8 * i));
}
