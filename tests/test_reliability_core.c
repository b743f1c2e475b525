/*
 * test_reliability_core.c - the neutral layer under hostile input and failing renderers:
 * PNG files that lie about their size, end early or carry decompression bombs (built byte by
 * byte here, with real CRCs and Adler-32 sums); the packed-format self-test when one of its
 * steps fails; the statistics of a refused SetRenderTargets; size arithmetic at the edge of
 * size_t.
 *
 * Memory checks use the process's peak resident size (getrusage ru_maxrss): a deterministic
 * count of pages touched, not a timer. A load may add at most what its legal result needs; a
 * refused file must not add the size of even one legal image. The peak only grows, so each
 * test measures from its own start (ctest runs every test in a fresh process). Under
 * AddressSanitizer large blocks come straight from mmap and their shadow stays untouched for
 * unpoisoned memory, so the same bounds hold there.
 */
#include "harness.h"
#include "png_support.h"
#include "internal.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* ---- bytes ----------------------------------------------------------------------------------- */

typedef struct bytes {
    uint8_t *p;
    size_t n, cap;
    bool oom;
} bytes;

static void put(bytes *b, const void *data, size_t n)
{
    if (b->oom) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_u8(bytes *b, uint8_t v) { put(b, &v, 1); }

static void put_be32(bytes *b, uint32_t v)
{
    uint8_t x[4] = { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
    put(b, x, 4);
}

/* CRC-32 of the PNG specification (ISO 3309, polynomial 0xEDB88320 reflected). */
static uint32_t crc32_of(const uint8_t *p, size_t n, uint32_t crc)
{
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

/* A chunk: length, type, data, CRC over type and data. */
static void put_chunk(bytes *b, const char type[4], const void *data, size_t n)
{
    put_be32(b, (uint32_t)n);
    size_t at = b->n;
    put(b, type, 4);
    if (n) put(b, data, n);
    if (!b->oom) put_be32(b, crc32_of(b->p + at, n + 4, 0));
}

static void put_signature(bytes *b)
{
    static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n' };
    put(b, sig, sizeof sig);
}

static void put_ihdr(bytes *b, uint32_t w, uint32_t h, uint8_t depth, uint8_t color_type)
{
    uint8_t d[13] = { (uint8_t)(w >> 24), (uint8_t)(w >> 16), (uint8_t)(w >> 8), (uint8_t)w,
                      (uint8_t)(h >> 24), (uint8_t)(h >> 16), (uint8_t)(h >> 8), (uint8_t)h,
                      depth, color_type, 0, 0, 0 };
    put_chunk(b, "IHDR", d, sizeof d);
}

static void put_iend(bytes *b) { put_chunk(b, "IEND", NULL, 0); }

static uint32_t adler32_of(const uint8_t *p, size_t n)
{
    uint32_t a = 1, s = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        s = (s + a) % 65521u;
    }
    return s << 16 | a;
}

/* A zlib stream of stored (uncompressed) deflate blocks. */
static void put_zlib_stored(bytes *b, const uint8_t *raw, size_t n)
{
    put_u8(b, 0x78);
    put_u8(b, 0x01); /* 0x7801 is a multiple of 31: a valid zlib header, no dictionary */
    size_t off = 0;
    do {
        size_t k = n - off > 65535 ? 65535 : n - off;
        put_u8(b, off + k == n ? 1 : 0); /* BFINAL, BTYPE 00 */
        uint8_t len[4] = { (uint8_t)k, (uint8_t)(k >> 8), (uint8_t)~k, (uint8_t)(~k >> 8) };
        put(b, len, 4);
        if (k) put(b, raw + off, k);
        off += k;
    } while (off < n);
    put_be32(b, adler32_of(raw, n));
}

/* A zlib stream of n zero bytes in one fixed-Huffman deflate block: a literal 0, then copies
 * of 258 bytes at distance 1, then the rest as literals. About 1:160, so a few hundred KB
 * stand for tens of MB. */
typedef struct bits {
    bytes *b;
    uint32_t acc;
    int count;
} bits;

static void put_bits(bits *w, uint32_t v, int n) /* LSB first (deflate's order for values) */
{
    for (int i = 0; i < n; i++) {
        w->acc |= ((v >> i) & 1u) << w->count;
        if (++w->count == 8) {
            put_u8(w->b, (uint8_t)w->acc);
            w->acc = 0;
            w->count = 0;
        }
    }
}

static void put_code(bits *w, uint32_t code, int n) /* Huffman codes go MSB first */
{
    for (int i = n - 1; i >= 0; i--) put_bits(w, (code >> i) & 1u, 1);
}

static void put_zlib_zeros(bytes *b, uint64_t n)
{
    put_u8(b, 0x78);
    put_u8(b, 0x01);
    bits w = { b, 0, 0 };
    put_bits(&w, 1, 1); /* BFINAL */
    put_bits(&w, 1, 2); /* BTYPE 01: fixed Huffman codes */
    uint64_t left = n;
    if (left > 0) {
        put_code(&w, 0x30, 8); /* literal 0: codes 0x30.. for literals 0..143 */
        left--;
    }
    while (left >= 258) {
        put_code(&w, 0xC5, 8); /* length symbol 285 = 258 bytes, no extra bits */
        put_code(&w, 0, 5);    /* distance code 0 = distance 1 */
        left -= 258;
    }
    for (; left > 0; left--) put_code(&w, 0x30, 8);
    put_code(&w, 0, 7); /* end of block (symbol 256) */
    if (w.count) put_bits(&w, 0, 8 - w.count);
    /* Adler-32 of zeros: a stays 1 and b gains 1 per byte. */
    put_be32(b, (uint32_t)(n % 65521u) << 16 | 1u);
}

/* A 1-bit grey PNG of w x h black texels whose image data is complete and valid. */
static void put_black_png(bytes *b, uint32_t w, uint32_t h)
{
    put_signature(b);
    put_ihdr(b, w, h, 1, 0);
    bytes z = { 0 };
    put_zlib_zeros(&z, (uint64_t)h * (1u + (w + 7u) / 8u)); /* filter byte + packed row */
    b->oom |= z.oom;
    put_chunk(b, "IDAT", z.p, z.n);
    free(z.p);
    put_iend(b);
}

/* ---- helpers --------------------------------------------------------------------------------- */

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* KiB on Linux */
}

static char *temp_png(char *buf, size_t n, const char *tag)
{
    const char *dir = getenv("XGD_TEST_OUTPUT");
    if (!dir || !dir[0]) dir = getenv("TMPDIR");
    if (!dir || !dir[0]) dir = "/tmp";
    snprintf(buf, n, "%s/xgd-reliability-%ld-%s.png", dir, (long)getpid(), tag);
    return buf;
}

static bool write_file(const char *path, const bytes *b)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) return false;
    bool ok = fwrite(b->p, 1, b->n, f) == b->n;
    return fclose(f) == 0 && ok;
}

static xgd_device *hidef_device(xgdt_ctx *t, bool recovery)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.profile = XGD_GRAPHICS_PROFILE_HIDEF;
    d.context_recovery = recovery;
    return xgdt_device(t, &d);
}

static xgd_statistics stats_of(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s;
}

/* A refused load: the named code, a message containing `says`, no texture, no new resource. */
#define CHECK_REFUSED(dev, expr, code, says)                                                      \
    do {                                                                                         \
        xgd_statistics s0_ = stats_of(dev);                                                      \
        xgd_result r_ = (expr);                                                                  \
        CHECK_MSG(r_ == (code), "%s returned %s, expected %s (%s)", #expr, xgd_result_name(r_), \
                  xgd_result_name(code), xgd_device_last_error(dev));                            \
        CHECK_MSG(strstr(xgd_device_last_error(dev), (says)) != NULL,                            \
                  "%s: message '%s' does not say '%s'", #expr, xgd_device_last_error(dev),       \
                  (says));                                                                       \
        xgd_statistics s1_ = stats_of(dev);                                                      \
        CHECK_INT(s1_.textures_created, s0_.textures_created);                                   \
        CHECK_INT(s1_.live_resources, s0_.live_resources);                                      \
    } while (0)

/* ---- PNG: a declared size beyond the limit is refused before anything is allocated --------- */

/*
 * A complete, valid 1-bit PNG of 20000x20000 black texels is about 300 KB; decoded to RGBA8 it
 * would be 1.6 GB. The device's limit (HiDef: 4096 per side) refuses it from the header, so the
 * load must not touch even one legal image's worth of memory (4096 x 4096 x 4 = 64 MiB).
 */
XGD_TEST(png_oversized_refused_before_decoding)
{
    if (!xgdt_png_or_skip(t)) return;
    bytes png = { 0 };
    put_black_png(&png, 20000, 20000);
    REQUIRE(!png.oom);
    char path[512];
    temp_png(path, sizeof path, "oversized");
    REQUIRE(write_file(path, &png));
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    REQUIRE(info.max_texture_size < 20000);
    const long legal_kib = (long)info.max_texture_size * info.max_texture_size * 4 / 1024;

    long before = peak_rss_kib();
    xgd_texture *tex = NULL;
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, png.p, png.n, &tex),
                  XGD_ERROR_NOT_SUPPORTED, "20000x20000");
    CHECK(tex == NULL);
    CHECK_REFUSED(dev, xgd_texture2d_from_png_file(dev, path, &tex), XGD_ERROR_NOT_SUPPORTED,
                  "20000x20000");
    CHECK(tex == NULL);
    /* The device-less loader's limit is 16384 per side (xgd.h). */
    int w = -1, h = -1;
    uint8_t *rgba = NULL;
    CHECK_RESULT(xgd_image_load_png(path, &w, &h, &rgba), XGD_ERROR_NOT_SUPPORTED);
    CHECK(rgba == NULL);
    CHECK_MSG(strstr(xgd_device_last_error(NULL), "20000x20000") != NULL, "message: %s",
              xgd_device_last_error(NULL));
    long grown = peak_rss_kib() - before;
    printf("  peak RSS grew by %ld KiB refusing a 20000x20000 PNG of %zu bytes (bound %ld KiB)\n",
           grown, png.n, legal_kib);
    CHECK_MSG(grown < legal_kib, "refusing the PNG touched %ld KiB, more than one legal image "
              "(%ld KiB)", grown, legal_kib);
    remove(path);
    free(png.p);
    xgd_device_destroy(dev);
}

/*
 * 70 bytes: a header declaring 20000x20000 RGBA8, a 2-byte stored IDAT and IEND. And the
 * header alone (33 bytes). Both are refused by size (NOT_SUPPORTED, the declared size named),
 * not by a decode that first asked for 1.6 GB and then ran out of data.
 */
XGD_TEST(png_header_declaring_huge_size)
{
    if (!xgdt_png_or_skip(t)) return;
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    bytes png = { 0 };
    put_signature(&png);
    put_ihdr(&png, 20000, 20000, 8, 6);
    bytes z = { 0 };
    static const uint8_t two[2] = { 0, 0 };
    put_zlib_stored(&z, two, sizeof two);
    put_chunk(&png, "IDAT", z.p, z.n);
    put_iend(&png);
    REQUIRE(!png.oom && !z.oom);
    CHECK_INT(png.n, 70);
    xgd_texture *tex = NULL;
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, png.p, png.n, &tex),
                  XGD_ERROR_NOT_SUPPORTED, "20000x20000");
    CHECK(tex == NULL);
    /* header only */
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, png.p, 33, &tex),
                  XGD_ERROR_NOT_SUPPORTED, "20000x20000");
    CHECK(tex == NULL);
    /* one side over the limit is enough */
    bytes tall = { 0 };
    put_signature(&tall);
    put_ihdr(&tall, 16, 4097, 8, 6);
    REQUIRE(!tall.oom);
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, tall.p, tall.n, &tex),
                  XGD_ERROR_NOT_SUPPORTED, "16x4097");
    /* sizes PNG itself forbids are damage, not a limit: 0 and 2^31 */
    bytes zero = { 0 }, huge = { 0 };
    put_signature(&zero);
    put_ihdr(&zero, 0, 16, 8, 6);
    put_signature(&huge);
    put_ihdr(&huge, 0x80000000u, 16, 8, 6);
    REQUIRE(!zero.oom && !huge.oom);
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, zero.p, zero.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "PNG");
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, huge.p, huge.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "PNG");
    CHECK(tex == NULL);
    free(png.p);
    free(z.p);
    free(tall.p);
    free(zero.p);
    free(huge.p);
    xgd_device_destroy(dev);
}

/* ---- PNG: damage is named, and a complete file decodes exactly ------------------------------- */

enum { SW = 7, SH = 5 };

/* A 7x5 RGBA8 PNG with distinct texels; *idat_end: the offset just past the IDAT chunk. */
static void put_small_png(bytes *b, uint8_t texels[SW * SH * 4], size_t *idat_end, bool text)
{
    uint8_t raw[SH * (1 + SW * 4)];
    for (int y = 0; y < SH; y++) {
        raw[y * (1 + SW * 4)] = 0; /* filter None */
        for (int x = 0; x < SW; x++) {
            uint8_t *p = texels + (y * SW + x) * 4;
            p[0] = (uint8_t)(x * 36 + 1);
            p[1] = (uint8_t)(y * 50 + 2);
            p[2] = (uint8_t)(x * y * 7 + 3);
            p[3] = (uint8_t)(255 - x - 8 * y);
            memcpy(raw + y * (1 + SW * 4) + 1 + x * 4, p, 4);
        }
    }
    put_signature(b);
    put_ihdr(b, SW, SH, 8, 6);
    if (text) put_chunk(b, "tEXt", "Comment\0xgd", 11);
    bytes z = { 0 };
    put_zlib_stored(&z, raw, sizeof raw);
    b->oom |= z.oom;
    put_chunk(b, "IDAT", z.p, z.n);
    free(z.p);
    *idat_end = b->n;
    put_iend(b);
}

static void check_texels(xgdt_ctx *t, xgd_texture *tex, const uint8_t *want, const char *what)
{
    uint8_t got[SW * SH * 4];
    memset(got, 0xEE, sizeof got);
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, got, sizeof got));
    CHECK_MSG(memcmp(got, want, sizeof got) == 0, "%s: texels differ from the PNG's", what);
}

/*
 * Every prefix of a valid file that ends before its IEND chunk's header does is
 * INVALID_ARGUMENT with a message that says "truncated"; a bad CRC in a critical chunk or a
 * bad Adler-32 is INVALID_ARGUMENT; a bad CRC in an ancillary chunk drops that chunk only. No
 * refusal creates a texture. The complete file decodes to exactly its texels, also after a
 * context loss (the decoded image is the CPU shadow) and on a device without recovery
 * (uploaded, no shadow).
 */
XGD_TEST(png_truncated_and_damaged)
{
    if (!xgdt_png_or_skip(t)) return;
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    uint8_t texels[SW * SH * 4];
    size_t idat_end = 0;
    bytes png = { 0 };
    put_small_png(&png, texels, &idat_end, true);
    REQUIRE(!png.oom);

    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_from_png_memory(dev, png.p, png.n, &tex));
    xgd_texture_info ti;
    CHECK_OK(xgd_texture_get_info(tex, &ti));
    CHECK(ti.width == SW && ti.height == SH && ti.has_cpu_shadow);
    check_texels(t, tex, texels, "from memory");
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    REQUIRE_OK(xgd_device_restore_context(dev));
    check_texels(t, tex, texels, "after a restore");
    xgd_texture_destroy(tex);
    xgd_device *norec = hidef_device(t, false);
    REQUIRE(norec);
    tex = NULL;
    CHECK_OK(xgd_texture2d_from_png_memory(norec, png.p, png.n, &tex));
    if (tex) {
        CHECK_OK(xgd_texture_get_info(tex, &ti));
        CHECK(!ti.has_cpu_shadow);
        check_texels(t, tex, texels, "without recovery");
    }
    xgd_texture_destroy(tex);
    xgd_device_destroy(norec);

    int truncated_named = 0;
    /* IEND's CRC (the last 4 bytes) guards no data, only the constant type, and libspng stops
     * at IEND's header: a file cut there holds the whole image and still loads. */
    for (size_t cut = 1; cut < png.n - 4; cut++) {
        xgd_statistics s0 = stats_of(dev);
        tex = NULL;
        xgd_result r = xgd_texture2d_from_png_memory(dev, png.p, cut, &tex);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "cut at %zu: %s (%s)", cut, xgd_result_name(r),
                  xgd_device_last_error(dev));
        CHECK(tex == NULL);
        if (strstr(xgd_device_last_error(dev), "truncated") != NULL) truncated_named++;
        else
            CHECK_MSG(false, "cut at %zu of %zu: message '%s' does not say truncated", cut,
                      png.n, xgd_device_last_error(dev));
        CHECK_INT(stats_of(dev).textures_created, s0.textures_created);
        CHECK_INT(stats_of(dev).live_resources, s0.live_resources);
    }
    printf("  %d truncations of a %zu-byte PNG refused as truncated\n", truncated_named, png.n);

    /* The chunk layout: signature 8, IHDR 8+13+4 (its CRC at 29), tEXt 8+11+4 (CRC at 52),
     * IDAT (its data from 64). */
    bytes bad = { 0 };
    put(&bad, png.p, png.n);
    REQUIRE(!bad.oom);
    bad.p[29] ^= 0x01; /* IHDR CRC */
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, bad.p, bad.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "PNG");
    memcpy(bad.p, png.p, png.n);
    bad.p[idat_end - 5] ^= 0x01; /* the last byte of the zlib stream: Adler-32 */
    bad.p[idat_end - 1] = 0;     /* and a CRC that would not match anyway */
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, bad.p, bad.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "PNG");
    memcpy(bad.p, png.p, png.n);
    bad.p[52] ^= 0x01; /* tEXt CRC: the ancillary chunk is dropped, the image stays */
    tex = NULL;
    CHECK_OK(xgd_texture2d_from_png_memory(dev, bad.p, bad.n, &tex));
    if (tex) check_texels(t, tex, texels, "with a damaged tEXt chunk");
    xgd_texture_destroy(tex);
    free(bad.p);
    free(png.p);
    xgd_device_destroy(dev);
}

/*
 * Headers that lie about the image data: 64x64 declared with 8 rows of data, and the largest
 * legal size (4096x4096) with a 2-byte stream. Both are INVALID_ARGUMENT saying truncated, no
 * texture; the second may allocate its one legal image, never more.
 * A zTXt chunk that inflates to 64 MiB (a metadata bomb, about 400 KB) is refused by the
 * loader's ancillary limit (NOT_SUPPORTED) without inflating it all.
 */
XGD_TEST(png_lying_header_and_metadata_bomb)
{
    if (!xgdt_png_or_skip(t)) return;
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    const long legal_kib = (long)info.max_texture_size * info.max_texture_size * 4 / 1024;
    long before = peak_rss_kib();

    bytes shortpng = { 0 };
    put_signature(&shortpng);
    put_ihdr(&shortpng, 64, 64, 8, 6);
    {
        uint8_t *raw = calloc(8, 1 + 64 * 4);
        REQUIRE(raw);
        bytes z = { 0 };
        put_zlib_stored(&z, raw, 8 * (1 + 64 * 4));
        put_chunk(&shortpng, "IDAT", z.p, z.n);
        free(z.p);
        free(raw);
    }
    put_iend(&shortpng);
    REQUIRE(!shortpng.oom);
    xgd_texture *tex = NULL;
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, shortpng.p, shortpng.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "truncated");
    CHECK(tex == NULL);

    bytes big = { 0 };
    put_signature(&big);
    put_ihdr(&big, (uint32_t)info.max_texture_size, (uint32_t)info.max_texture_size, 8, 6);
    {
        bytes z = { 0 };
        static const uint8_t two[2] = { 0, 0 };
        put_zlib_stored(&z, two, sizeof two);
        put_chunk(&big, "IDAT", z.p, z.n);
        free(z.p);
    }
    put_iend(&big);
    REQUIRE(!big.oom);
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, big.p, big.n, &tex),
                  XGD_ERROR_INVALID_ARGUMENT, "truncated");
    CHECK(tex == NULL);
    long grown = peak_rss_kib() - before;
    CHECK_MSG(grown <= legal_kib + 4096, "a lying header cost %ld KiB (one legal image is %ld KiB)",
              grown, legal_kib);

    /* zTXt: keyword, NUL, compression method 0, zlib stream. */
    bytes bomb = { 0 };
    put_signature(&bomb);
    put_ihdr(&bomb, 4, 4, 8, 6);
    {
        bytes ztxt = { 0 };
        put(&ztxt, "Comment\0", 9);
        put_zlib_zeros(&ztxt, (uint64_t)64 << 20);
        put_chunk(&bomb, "zTXt", ztxt.p, ztxt.n);
        free(ztxt.p);
        uint8_t raw[4 * (1 + 16)];
        memset(raw, 0, sizeof raw);
        bytes z = { 0 };
        put_zlib_stored(&z, raw, sizeof raw);
        put_chunk(&bomb, "IDAT", z.p, z.n);
        free(z.p);
    }
    put_iend(&bomb);
    REQUIRE(!bomb.oom);
    before = peak_rss_kib();
    CHECK_REFUSED(dev, xgd_texture2d_from_png_memory(dev, bomb.p, bomb.n, &tex),
                  XGD_ERROR_NOT_SUPPORTED, "ancillary");
    CHECK(tex == NULL);
    grown = peak_rss_kib() - before;
    printf("  a %zu-byte zTXt bomb of 64 MiB cost %ld KiB\n", bomb.n, grown);
    CHECK_MSG(grown < 32 * 1024, "the metadata bomb cost %ld KiB (the limit is 16 MiB)", grown);
    free(shortpng.p);
    free(big.p);
    free(bomb.p);
    xgd_device_destroy(dev);
}

/*
 * A legal 4096x4096 PNG loads with one image-sized buffer besides the renderer's storage: the
 * decoded image becomes the CPU shadow. The texture legally needs its shadow (64 MiB) and the
 * software renderer's storage (64 MiB); the peak may grow by at most 2.5 images, which a
 * second full-size copy (a decode buffer next to the shadow) exceeds.
 */
XGD_TEST(png_legal_load_memory_bound)
{
    if (!xgdt_png_or_skip(t)) return;
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    const int n = info.max_texture_size;
    bytes png = { 0 };
    put_black_png(&png, (uint32_t)n, (uint32_t)n);
    REQUIRE(!png.oom);
    const long image_kib = (long)n * n * 4 / 1024;

    long before = peak_rss_kib();
    xgd_texture *tex = NULL;
    CHECK_OK(xgd_texture2d_from_png_memory(dev, png.p, png.n, &tex));
    long grown = peak_rss_kib() - before;
    printf("  loading a %dx%d PNG (%zu bytes) grew the peak RSS by %ld KiB; one image is %ld "
           "KiB\n", n, n, png.n, grown, image_kib);
    CHECK_MSG(grown * 2 <= image_kib * 5, "the load used %ld KiB, more than 2.5 images (%ld KiB)",
              grown, image_kib * 5 / 2);
    REQUIRE(tex);
    /* Grey 0 decodes to opaque black. */
    uint8_t *all = malloc((size_t)n * (size_t)n * 4);
    REQUIRE(all);
    CHECK_OK(xgd_texture_get_data(tex, 0, 0, NULL, all, (size_t)n * (size_t)n * 4));
    size_t bad = 0;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
        if (all[i * 4] != 0 || all[i * 4 + 1] != 0 || all[i * 4 + 2] != 0 || all[i * 4 + 3] != 255)
            bad++;
    CHECK_MSG(bad == 0, "%zu texels are not opaque black", bad);
    free(all);
    free(png.p);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* ---- the packed-format self-test ---------------------------------------------------------- */

static const xgd_surface_format packed_formats[3] = { XGD_SURFACE_FORMAT_BGRA4444,
                                                      XGD_SURFACE_FORMAT_BGR565,
                                                      XGD_SURFACE_FORMAT_BGRA5551 };

static int claimed_packed(xgdt_ctx *t, xgd_device *dev, bool claimed[3])
{
    int n = 0;
    for (int i = 0; i < 3; i++) {
        xgd_format_support fs;
        memset(&fs, 0, sizeof fs);
        CHECK_OK(xgd_device_query_format(dev, packed_formats[i], &fs));
        claimed[i] = fs.texture;
        n += fs.texture;
    }
    return n;
}

static const struct {
    xgdi_fault_op op;
    const char *name;
} probe_steps[3] = {
    { XGDI_FAULT_TEXTURE_CREATE, "texture_create" },
    { XGDI_FAULT_TEXTURE_UPLOAD, "texture_upload" },
    { XGDI_FAULT_TEXTURE_DOWNLOAD, "texture_download" },
};

/*
 * The self-test runs one create, upload and readback per packed format the renderer claims.
 * A failure of any of those calls (injected at each one in turn) is an error of creation: the
 * injected code comes back with a message naming the self-test, no device, and nothing is
 * remembered: the next device has every packed format the renderer claims. Only a round trip
 * that ran and read back other texels (PackedFormatProbe), or a renderer answering
 * NOT_SUPPORTED for the format, takes a format away.
 */
XGD_TEST(packed_probe_step_failure_fails_creation)
{
    xgd_device *ref = hidef_device(t, true);
    REQUIRE(ref);
    bool claimed[3];
    int p = claimed_packed(t, ref, claimed);
    xgd_device_destroy(ref);
    if (p == 0) {
        xgdt_not_supported(t, "the renderer claims no packed format, so there is no self-test");
        return;
    }
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = t->renderer;
    d.pp.headless = true;
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 16;
    int runs = 0;
    for (int s = 0; s < 3; s++) {
        for (int k = 1; k <= p; k++) {
            xgd_result code = (k == 2) ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_OUT_OF_MEMORY;
            REQUIRE_OK(xgdi_debug_fail_next(NULL, probe_steps[s].op, k, code));
            xgd_device *dev = (xgd_device *)(uintptr_t)1;
            xgd_result r = xgd_device_create(&d, &dev);
            CHECK_MSG(r == code, "%s #%d: creation returned %s, expected %s (%s)",
                      probe_steps[s].name, k, xgd_result_name(r), xgd_result_name(code),
                      xgd_device_last_error(NULL));
            CHECK_MSG(strstr(xgd_device_last_error(NULL), "self-test") != NULL,
                      "%s #%d: message '%s' does not name the self-test", probe_steps[s].name, k,
                      xgd_device_last_error(NULL));
            if (r == XGD_OK) {
                bool now[3];
                int left = claimed_packed(t, dev, now);
                CHECK_MSG(left == p, "%s #%d: a failed self-test step took %d packed formats "
                          "away", probe_steps[s].name, k, p - left);
                xgd_device_destroy(dev);
            } else {
                CHECK(dev == NULL);
            }
            /* The next device is unaffected. */
            xgd_device *next = NULL;
            REQUIRE_OK(xgd_device_create(&d, &next));
            bool now[3];
            CHECK_INT(claimed_packed(t, next, now), p);
            xgd_device_destroy(next);
            runs++;
        }
    }
    printf("  %d self-test steps failed in turn (%d packed formats claimed)\n", runs, p);

    /* NOT_SUPPORTED is not a failure of the test but the renderer's verdict on the format:
     * creation succeeds and that format (the first claimed) alone becomes unavailable. */
    REQUIRE_OK(xgdi_debug_fail_next(NULL, XGDI_FAULT_TEXTURE_CREATE, 1, XGD_ERROR_NOT_SUPPORTED));
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    bool now[3];
    CHECK_INT(claimed_packed(t, dev, now), p - 1);
    int first = claimed[0] ? 0 : claimed[1] ? 1 : 2;
    CHECK_MSG(!now[first], "format %d refused by the renderer is still available",
              (int)packed_formats[first]);
    xgd_device_destroy(dev);
}

/*
 * The same at a restore: the restore returns the injected code with the self-test named, the
 * device stays lost; the next restore succeeds with every format, and a texture of each
 * packed format comes back with its texels (no recovery failure).
 */
XGD_TEST(packed_probe_step_failure_fails_restore)
{
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    bool claimed[3];
    int p = claimed_packed(t, dev, claimed);
    if (p == 0) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the renderer claims no packed format, so there is no self-test");
        return;
    }
    static const uint16_t texels[4] = { 0x1234, 0xF00F, 0x8001, 0x7BDE };
    xgd_texture *keep[3] = { NULL, NULL, NULL };
    for (int i = 0; i < 3; i++) {
        if (!claimed[i]) continue;
        REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2,
                                        .format = packed_formats[i] }, &keep[i]));
        REQUIRE_OK(xgd_texture_set_data(keep[i], 0, 0, NULL, texels, sizeof texels));
    }
    for (int s = 0; s < 3; s++) {
        for (int k = 1; k <= p; k++) {
            REQUIRE_OK(xgd_device_simulate_context_loss(dev));
            REQUIRE_OK(xgdi_debug_fail_next(dev, probe_steps[s].op, k, XGD_ERROR_OUT_OF_MEMORY));
            xgd_result r = xgd_device_restore_context(dev);
            CHECK_MSG(r == XGD_ERROR_OUT_OF_MEMORY, "%s #%d: restore returned %s (%s)",
                      probe_steps[s].name, k, xgd_result_name(r), xgd_device_last_error(dev));
            CHECK_MSG(strstr(xgd_device_last_error(dev), "self-test") != NULL,
                      "%s #%d: message '%s' does not name the self-test", probe_steps[s].name, k,
                      xgd_device_last_error(dev));
            xgd_device_info info;
            CHECK_OK(xgd_device_get_info(dev, &info));
            if (r != XGD_OK) {
                CHECK_MSG(info.lost, "%s #%d: the device is not lost after a failed restore",
                          probe_steps[s].name, k);
                CHECK_RESULT(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }),
                             XGD_ERROR_DEVICE_LOST);
                REQUIRE_OK(xgdi_debug_fail_next(dev, probe_steps[s].op, 0, XGD_OK));
                REQUIRE_OK(xgd_device_restore_context(dev));
            } else {
                REQUIRE_OK(xgdi_debug_fail_next(dev, probe_steps[s].op, 0, XGD_OK));
            }
            CHECK_OK(xgd_device_get_info(dev, &info));
            CHECK_INT(info.last_recovery_failures, 0);
            bool now[3];
            CHECK_MSG(claimed_packed(t, dev, now) == p, "%s #%d: packed formats lost",
                      probe_steps[s].name, k);
            for (int i = 0; i < 3; i++) {
                if (keep[i] == NULL) continue;
                uint16_t got[4] = { 0, 0, 0, 0 };
                CHECK_OK(xgd_texture_get_data(keep[i], 0, 0, NULL, got, sizeof got));
                CHECK_MSG(memcmp(got, texels, sizeof got) == 0, "%s #%d: format %d lost texels",
                          probe_steps[s].name, k, (int)packed_formats[i]);
            }
        }
    }
    for (int i = 0; i < 3; i++) xgd_texture_destroy(keep[i]);
    xgd_device_destroy(dev);
}

/* ---- statistics of a refused SetRenderTargets --------------------------------------------- */

static void check_same_finalisation(xgdt_ctx *t, xgd_device *dev, const xgd_statistics *s0,
                                    const xgd_frame_statistics *f0, const char *what)
{
    xgd_statistics s1 = stats_of(dev);
    xgd_frame_statistics f1;
    memset(&f1, 0, sizeof f1);
    CHECK_OK(xgd_device_get_frame_statistics(dev, true, &f1));
    CHECK_MSG(s1.resolves == s0->resolves && s1.mip_generations == s0->mip_generations &&
                  s1.target_changes == s0->target_changes,
              "%s: a refused SetRenderTargets counted resolves %+lld, mip generations %+lld, "
              "target changes %+lld",
              what, (long long)(s1.resolves - s0->resolves),
              (long long)(s1.mip_generations - s0->mip_generations),
              (long long)(s1.target_changes - s0->target_changes));
    CHECK(f1.resolves == f0->resolves && f1.mip_generations == f0->mip_generations &&
          f1.target_changes == f0->target_changes);
}

/*
 * Outgoing targets are finalised (resolve, mips) before the new set is bound; when the renderer
 * refuses the bind, the old set stays bound and the statistics must not have counted its
 * finalisation (it is counted when the set really leaves). Cases: back to the back buffer, to
 * another target, from an MRT pair; then the real transitions count exactly once each.
 */
XGD_TEST(refused_set_render_targets_counts_nothing)
{
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_texture *mip = NULL, *mip2 = NULL, *other = NULL, *ms = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 16,
                                          .height = 16, .mipmap = true }, &mip));
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 16,
                                          .height = 16, .mipmap = true }, &mip2));
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 16,
                                          .height = 16 }, &other));
    xgd_texture_info ti;
    bool have_ms = false;
    if (info.max_multisample_count >= 2 &&
        xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 16, .height = 16,
                                   .preferred_multisample_count = 4 }, &ms) == XGD_OK) {
        CHECK_OK(xgd_texture_get_info(ms, &ti));
        have_ms = ti.multisample_count > 1;
    }

    xgd_statistics s0;
    xgd_frame_statistics f0;
    /* mip -> back buffer, refused */
    REQUIRE_OK(xgd_set_render_target(dev, mip));
    s0 = stats_of(dev);
    REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f0));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, NULL), XGD_ERROR_OUT_OF_MEMORY);
    check_same_finalisation(t, dev, &s0, &f0, "mip target to the back buffer");
    /* mip -> other, refused */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, other), XGD_ERROR_OUT_OF_MEMORY);
    check_same_finalisation(t, dev, &s0, &f0, "mip target to another target");
    /* the real transition counts once */
    CHECK_OK(xgd_set_render_target(dev, other));
    xgd_statistics s1 = stats_of(dev);
    CHECK_INT(s1.mip_generations, s0.mip_generations + 1);
    CHECK_INT(s1.resolves, s0.resolves);
    CHECK_INT(s1.target_changes, s0.target_changes + 1);

    /* an MRT pair of mipmapped targets -> back buffer */
    if (info.max_render_targets >= 2) {
        xgd_render_target_binding pair[2] = { { mip, 0 }, { mip2, 0 } };
        REQUIRE_OK(xgd_set_render_targets(dev, pair, 2));
        s0 = stats_of(dev);
        REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f0));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                        XGD_ERROR_DEVICE_LOST));
        CHECK_RESULT(xgd_set_render_target(dev, NULL), XGD_ERROR_DEVICE_LOST);
        check_same_finalisation(t, dev, &s0, &f0, "MRT pair to the back buffer");
        CHECK_OK(xgd_set_render_target(dev, NULL));
        CHECK_INT(stats_of(dev).mip_generations, s0.mip_generations + 2);
    }

    /* a multisampled target: its resolve likewise */
    if (have_ms) {
        REQUIRE_OK(xgd_set_render_target(dev, ms));
        s0 = stats_of(dev);
        REQUIRE_OK(xgd_device_get_frame_statistics(dev, true, &f0));
        REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                        XGD_ERROR_OUT_OF_MEMORY));
        CHECK_RESULT(xgd_set_render_target(dev, NULL), XGD_ERROR_OUT_OF_MEMORY);
        check_same_finalisation(t, dev, &s0, &f0, "multisampled target to the back buffer");
        CHECK_OK(xgd_set_render_target(dev, NULL));
        CHECK_INT(stats_of(dev).resolves, s0.resolves + 1);
    } else {
        printf("  no multisampled render target on this renderer: resolve case skipped\n");
    }
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(ms);
    xgd_texture_destroy(other);
    xgd_texture_destroy(mip2);
    xgd_texture_destroy(mip);
    xgd_device_destroy(dev);
}

/* ---- size arithmetic at the edge of size_t ------------------------------------------------- */

/*
 * xgd_surface_format_size is the exact byte count when it fits in size_t and 0 when it does
 * not (xgd.h), never a wrapped number. Expected values come from the format's element and
 * block size and from SIZE_MAX, not from the function under test.
 */
XGD_TEST(surface_format_size_never_wraps)
{
    static const struct {
        xgd_surface_format f;
        size_t elem, block;
    } fmts[] = {
        { XGD_SURFACE_FORMAT_COLOR, 4, 1 },   { XGD_SURFACE_FORMAT_ALPHA8, 1, 1 },
        { XGD_SURFACE_FORMAT_BGR565, 2, 1 },  { XGD_SURFACE_FORMAT_RGBA64, 8, 1 },
        { XGD_SURFACE_FORMAT_VECTOR4, 16, 1 }, { XGD_SURFACE_FORMAT_DXT1, 8, 4 },
        { XGD_SURFACE_FORMAT_DXT5, 16, 4 },
    };
    static const int dims[] = { 1, 2, 3, 4, 5, 4096, 65535, 65536, 1 << 20, INT_MAX / 2,
                                INT_MAX - 3, INT_MAX - 1, INT_MAX };
    int checked = 0, overflowing = 0;
    for (size_t i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
        for (size_t a = 0; a < sizeof dims / sizeof dims[0]; a++) {
            for (size_t b = 0; b < sizeof dims / sizeof dims[0]; b++) {
                size_t bw = ((size_t)dims[a] + fmts[i].block - 1) / fmts[i].block;
                size_t bh = ((size_t)dims[b] + fmts[i].block - 1) / fmts[i].block;
                /* row = bw * elem; total = row * bh, each step checked against SIZE_MAX */
                bool fits = bw <= SIZE_MAX / fmts[i].elem &&
                            bh <= SIZE_MAX / (bw * fmts[i].elem);
                size_t want = fits ? bw * fmts[i].elem * bh : 0;
                size_t got = xgd_surface_format_size(fmts[i].f, dims[a], dims[b]);
                CHECK_MSG(got == want, "format %d, %dx%d: %zu, expected %zu", (int)fmts[i].f,
                          dims[a], dims[b], got, want);
                CHECK_MSG(xgdi_format_rect_size(fmts[i].f, dims[a], dims[b]) == want,
                          "internal rect size of format %d, %dx%d", (int)fmts[i].f, dims[a],
                          dims[b]);
                checked++;
                overflowing += !fits;
            }
        }
        /* The boundary: the largest height that fits for the widest row, and one more. */
        size_t row = ((size_t)INT_MAX + fmts[i].block - 1) / fmts[i].block * fmts[i].elem;
        size_t max_rows = SIZE_MAX / row;
        if (max_rows * fmts[i].block < (size_t)INT_MAX) {
            int h = (int)(max_rows * fmts[i].block);
            CHECK_INT(xgd_surface_format_size(fmts[i].f, INT_MAX, h), row * max_rows);
            CHECK_INT(xgd_surface_format_size(fmts[i].f, INT_MAX, h + 1), 0);
        }
    }
    CHECK(overflowing > 0); /* the table reaches past SIZE_MAX on this platform */
    printf("  %d sizes checked, %d of them too large for size_t\n", checked, overflowing);
    /* DEFAULT is Color; unknown formats and sizes below 1 have no size */
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_DEFAULT, 3, 5), 60);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_COUNT, 3, 5), 0);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_COLOR, 0, 5), 0);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_COLOR, 5, -1), 0);
    CHECK_INT(xgd_surface_format_size(XGD_SURFACE_FORMAT_COLOR, INT_MIN, INT_MIN), 0);
}

/* ---- failure paths inside failure paths ---------------------------------------------------- */

/* A DiscardContents clear that fails, then a rebind of the previous set that fails too: the
 * failed call still changes no public state (the previous set stays bound, with its viewport),
 * and the next call that uses the binding binds the previous set natively first. */
XGD_TEST(discard_clear_and_rebind_failure_changes_nothing)
{
    enum { BW = 16, BH = 16, W = 8, H = 8 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = BW;
    dd.pp.back_buffer_height = BH;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_render_target_desc rd;
    memset(&rd, 0, sizeof rd);
    rd.width = W;
    rd.height = H;
    rd.usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS;
    xgd_texture *a = NULL, *c = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &rd, &a));
    rd.usage = XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS;
    REQUIRE_OK(xgd_render_target2d_create(dev, &rd, &c));
    REQUIRE_OK(xgd_set_render_target(dev, a));
    const xgd_viewport vp = { 1, 1, 4, 4, 0.0f, 1.0f };
    REQUIRE_OK(xgd_set_viewport(dev, &vp));

    /* Renderer calls: bind c (succeeds), the discard clear (fails), rebind a (fails). */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 2,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, c), XGD_ERROR_OUT_OF_MEMORY);
    xgd_render_target_binding b[4];
    int count = -1;
    CHECK_OK(xgd_get_render_targets(dev, b, 4, &count));
    CHECK_MSG(count == 1 && b[0].target == a, "%d targets reported bound; a must stay bound",
              count);
    xgd_viewport got;
    CHECK_OK(xgd_get_viewport(dev, &got));
    CHECK_MSG(got.x == vp.x && got.y == vp.y && got.width == vp.width && got.height == vp.height,
              "viewport (%d,%d %dx%d), expected a's (1,1 4x4)", got.x, got.y, got.width,
              got.height);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK(info.render_target_bound && !info.lost);
    /* While the rebind keeps failing, a clear fails too and clears nothing. */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_clear_color(dev, (xgd_color){ 1, 2, 3, 255 }), XGD_ERROR_OUT_OF_MEMORY);
    /* Then it works: the clear lands in a, not in c. */
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t px[W * H * 4];
    CHECK_OK(xgd_texture_get_data(a, 0, 0, NULL, px, sizeof px));
    CHECK_MSG(px[0] == 10 && px[1] == 20 && px[2] == 30, "a holds (%d,%d,%d) after the clear",
              px[0], px[1], px[2]);
    xgd_texture_destroy(c);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* A restore whose self-test cannot run leaves the device lost with the format answers it had:
 * a format the creation's self-test removed is not reported again from the new renderer's
 * untested caps. */
XGD_TEST(failed_restore_keeps_format_answers)
{
    /* The first probe read-back at creation comes back corrupted: that format is removed. */
    REQUIRE_OK(xgdi_debug_fail_next(NULL, XGDI_FAULT_CORRUPT_DOWNLOAD, 1, XGD_OK));
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    bool claimed[3];
    int p = claimed_packed(t, dev, claimed);
    xgd_device *ref = hidef_device(t, true);
    REQUIRE(ref);
    bool ref_claimed[3];
    int p_ref = claimed_packed(t, ref, ref_claimed);
    xgd_device_destroy(ref);
    if (p_ref == 0) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the renderer claims no packed format, so there is no self-test");
        return;
    }
    CHECK_MSG(p == p_ref - 1, "a corrupted probe read-back removed %d formats, expected 1",
              p_ref - p);
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_TEXTURE_CREATE, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_device_restore_context(dev), XGD_ERROR_OUT_OF_MEMORY);
    bool now[3];
    int after = claimed_packed(t, dev, now);
    CHECK_MSG(after == p, "a failed restore changed the packed formats reported: %d -> %d", p,
              after);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(now[i] == claimed[i], "format %d: %d before the failed restore, %d after",
                  (int)packed_formats[i], claimed[i], now[i]);
    xgd_device_destroy(dev);
}

/* A self-test step that fails without a message of its own (a loss reported while the device
 * is already lost writes none) is not reported with an older, unrelated message. */
XGD_TEST(self_test_failure_message_is_its_own)
{
    xgd_device *dev = hidef_device(t, true);
    REQUIRE(dev);
    bool claimed[3];
    if (claimed_packed(t, dev, claimed) == 0) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the renderer claims no packed format, so there is no self-test");
        return;
    }
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    /* A distinctive message of an earlier, unrelated failure. */
    CHECK_RESULT(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }), XGD_ERROR_DEVICE_LOST);
    char stale[512];
    snprintf(stale, sizeof stale, "%s", xgd_device_last_error(dev));
    REQUIRE(stale[0] != '\0');
    REQUIRE_OK(xgdi_debug_fail_any(dev, 1, XGD_ERROR_DEVICE_LOST));
    xgd_result r = xgd_device_restore_context(dev);
    CHECK_MSG(r != XGD_OK, "the restore succeeded although its first renderer call failed");
    CHECK_MSG(strstr(xgd_device_last_error(dev), stale) == NULL,
              "the restore's message quotes an earlier failure: '%s'", xgd_device_last_error(dev));
    REQUIRE_OK(xgdi_debug_fail_any(dev, 0, XGD_OK));
    CHECK_OK(xgd_device_restore_context(dev));
    xgd_device_destroy(dev);
}
