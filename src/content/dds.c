/*
 * dds.c - DirectDraw Surface files: Texture2D, TextureCube (all six faces) and Texture3D with
 * their mip levels, in DXT1/3/5 or an uncompressed format xgd has. Debian packages no DDS
 * reader for C, so the header is parsed here, and parsed defensively: every field is checked
 * before it is used, every size is computed with overflow checks and compared with the bytes
 * the file really holds before anything image-sized is allocated.
 *
 * Layout (Microsoft's DDS documentation): "DDS ", a 124-byte DDS_HEADER whose pixel format is
 * a DDS_PIXELFORMAT (flags, FourCC, bit count, channel masks), optionally a 20-byte
 * DDS_HEADER_DXT10 (FourCC "DX10": DXGI format, resource dimension, flags, array size), then
 * the texels: for each face (cube maps: +X, -X, +Y, -Y, +Z, -Z) each mip level, largest
 * first, a Texture3D level holding its slices front to back; rows tightly packed, DXT levels
 * as rows of 4x4 blocks.
 */
#include "content.h"
#include "format.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DDS_HEADER_SIZE 124u
#define DDS_PF_SIZE 32u
#define DX10_HEADER_SIZE 20u

#define DDPF_ALPHAPIXELS 0x1u
#define DDPF_ALPHA 0x2u
#define DDPF_FOURCC 0x4u
#define DDPF_RGB 0x40u
#define DDPF_LUMINANCE 0x20000u
#define DDPF_BUMPDUDV 0x80000u

#define DDSCAPS2_CUBEMAP 0x200u
#define DDSCAPS2_CUBEMAP_ALLFACES 0xfc00u
#define DDSCAPS2_VOLUME 0x200000u

#define DX10_DIMENSION_TEXTURE1D 2u
#define DX10_DIMENSION_TEXTURE2D 3u
#define DX10_DIMENSION_TEXTURE3D 4u
#define DX10_MISC_TEXTURECUBE 0x4u

/* How file texels become the texture's: copied, or rearranged texel by texel. */
enum {
    CONV_COPY = 0,
    CONV_BGRA8,  /* 32-bit B,G,R,A in memory -> Color (R,G,B,A) */
    CONV_BGRX8,  /* 32-bit B,G,R,unused -> Color, alpha 255 */
    CONV_RGBX8,  /* 32-bit R,G,B,unused -> Color, alpha 255 */
    CONV_BGR8,   /* 24-bit B,G,R -> Color, alpha 255 */
    CONV_X1555,  /* 16-bit x1r5g5b5 -> Bgra5551 with alpha 1 */
    CONV_X4444,  /* 16-bit x4r4g4b4 -> Bgra4444 with alpha 15 */
};

static void set_err(char *err, size_t err_size, const char *fmt, ...) XGDI_CONTENT_PRINTF(3, 4);
static void set_err(char *err, size_t err_size, const char *fmt, ...)
{
    if (err == NULL || err_size == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t fourcc(const char *s)
{
    return (uint32_t)(uint8_t)s[0] | (uint32_t)(uint8_t)s[1] << 8 |
           (uint32_t)(uint8_t)s[2] << 16 | (uint32_t)(uint8_t)s[3] << 24;
}

/* A FourCC for a message: printable characters as such, else the number (legacy D3DFORMAT
 * values such as 113 travel in the same field). */
static void fourcc_text(uint32_t cc, char *out, size_t n)
{
    char c[4];
    bool printable = true;
    for (int i = 0; i < 4; i++) {
        c[i] = (char)(cc >> (8 * i) & 0xff);
        if (c[i] < 0x20 || c[i] > 0x7e) printable = false;
    }
    if (printable)
        snprintf(out, n, "FourCC '%c%c%c%c'", c[0], c[1], c[2], c[3]);
    else
        snprintf(out, n, "FourCC %lu", (unsigned long)cc);
}

typedef struct format_map {
    xgd_surface_format format;
    int convert;
    int src_bytes;  /* bytes per texel in the file (uncompressed formats) */
} format_map;

/* DXGI_FORMAT values of the DX10 header that are xgd formats. */
static bool map_dxgi(uint32_t dxgi, format_map *m)
{
    static const struct {
        uint32_t dxgi;
        xgd_surface_format format;
        int convert;
    } table[] = {
        { 28, XGD_SURFACE_FORMAT_COLOR, CONV_COPY },            /* R8G8B8A8_UNORM */
        { 87, XGD_SURFACE_FORMAT_COLOR, CONV_BGRA8 },           /* B8G8R8A8_UNORM */
        { 88, XGD_SURFACE_FORMAT_COLOR, CONV_BGRX8 },           /* B8G8R8X8_UNORM */
        { 85, XGD_SURFACE_FORMAT_BGR565, CONV_COPY },           /* B5G6R5_UNORM */
        { 86, XGD_SURFACE_FORMAT_BGRA5551, CONV_COPY },         /* B5G5R5A1_UNORM */
        { 115, XGD_SURFACE_FORMAT_BGRA4444, CONV_COPY },        /* B4G4R4A4_UNORM */
        { 71, XGD_SURFACE_FORMAT_DXT1, CONV_COPY },             /* BC1_UNORM */
        { 74, XGD_SURFACE_FORMAT_DXT3, CONV_COPY },             /* BC2_UNORM */
        { 77, XGD_SURFACE_FORMAT_DXT5, CONV_COPY },             /* BC3_UNORM */
        { 51, XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, CONV_COPY }, /* R8G8_SNORM */
        { 31, XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, CONV_COPY }, /* R8G8B8A8_SNORM */
        { 24, XGD_SURFACE_FORMAT_RGBA1010102, CONV_COPY },      /* R10G10B10A2_UNORM */
        { 35, XGD_SURFACE_FORMAT_RG32, CONV_COPY },             /* R16G16_UNORM */
        { 11, XGD_SURFACE_FORMAT_RGBA64, CONV_COPY },           /* R16G16B16A16_UNORM */
        { 65, XGD_SURFACE_FORMAT_ALPHA8, CONV_COPY },           /* A8_UNORM */
        { 41, XGD_SURFACE_FORMAT_SINGLE, CONV_COPY },           /* R32_FLOAT */
        { 16, XGD_SURFACE_FORMAT_VECTOR2, CONV_COPY },          /* R32G32_FLOAT */
        { 2, XGD_SURFACE_FORMAT_VECTOR4, CONV_COPY },           /* R32G32B32A32_FLOAT */
        { 54, XGD_SURFACE_FORMAT_HALF_SINGLE, CONV_COPY },      /* R16_FLOAT */
        { 34, XGD_SURFACE_FORMAT_HALF_VECTOR2, CONV_COPY },     /* R16G16_FLOAT */
        { 10, XGD_SURFACE_FORMAT_HALF_VECTOR4, CONV_COPY },     /* R16G16B16A16_FLOAT */
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].dxgi == dxgi) {
            m->format = table[i].format;
            m->convert = table[i].convert;
            m->src_bytes = xgdi_format_info_of(table[i].format)->element_size;
            return true;
        }
    }
    return false;
}

/* Names of DXGI formats a DDS often holds that xgd has no surface format for. */
static const char *dxgi_name(uint32_t dxgi)
{
    switch (dxgi) {
    case 29: return "R8G8B8A8_UNORM_SRGB";
    case 72: return "BC1_UNORM_SRGB";
    case 75: return "BC2_UNORM_SRGB";
    case 78: return "BC3_UNORM_SRGB";
    case 80: return "BC4_UNORM";
    case 81: return "BC4_SNORM";
    case 83: return "BC5_UNORM";
    case 84: return "BC5_SNORM";
    case 91: return "B8G8R8A8_UNORM_SRGB";
    case 95: return "BC6H_UF16";
    case 96: return "BC6H_SF16";
    case 98: return "BC7_UNORM";
    case 99: return "BC7_UNORM_SRGB";
    case 61: return "R8_UNORM";
    case 49: return "R8G8_UNORM";
    case 26: return "R11G11B10_FLOAT";
    case 6: return "R32G32B32_FLOAT";
    default: return "unknown";
    }
}

/* The legacy pixel format: a FourCC (DXTn or a D3DFORMAT number) or channel masks. */
static bool map_legacy(const uint8_t *pf, format_map *m, char *name, size_t name_size)
{
    uint32_t flags = le32(pf + 4), cc = le32(pf + 8), bits = le32(pf + 12);
    uint32_t r = le32(pf + 16), g = le32(pf + 20), b = le32(pf + 24), a = le32(pf + 28);
    m->convert = CONV_COPY;
    if (flags & DDPF_FOURCC) {
        static const struct {
            uint32_t cc;
            xgd_surface_format format;
        } table[] = {
            { 0x31545844u /* DXT1 */, XGD_SURFACE_FORMAT_DXT1 },
            { 0x33545844u /* DXT3 */, XGD_SURFACE_FORMAT_DXT3 },
            { 0x35545844u /* DXT5 */, XGD_SURFACE_FORMAT_DXT5 },
            /* D3DFORMAT numbers */
            { 36, XGD_SURFACE_FORMAT_RGBA64 },        /* A16B16G16R16 */
            { 111, XGD_SURFACE_FORMAT_HALF_SINGLE },  /* R16F */
            { 112, XGD_SURFACE_FORMAT_HALF_VECTOR2 }, /* G16R16F */
            { 113, XGD_SURFACE_FORMAT_HALF_VECTOR4 }, /* A16B16G16R16F */
            { 114, XGD_SURFACE_FORMAT_SINGLE },       /* R32F */
            { 115, XGD_SURFACE_FORMAT_VECTOR2 },      /* G32R32F */
            { 116, XGD_SURFACE_FORMAT_VECTOR4 },      /* A32B32G32R32F */
        };
        for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
            if (table[i].cc == cc) {
                m->format = table[i].format;
                m->src_bytes = xgdi_format_info_of(m->format)->element_size;
                return true;
            }
        }
        fourcc_text(cc, name, name_size);
        return false;
    }
    bool alpha = (flags & (DDPF_ALPHAPIXELS | DDPF_ALPHA)) != 0;
    if (!alpha) a = 0;
    static const struct {
        uint32_t flag, bits, r, g, b, a;
        xgd_surface_format format;
        int convert;
    } masks[] = {
        { DDPF_RGB, 32, 0xff, 0xff00, 0xff0000, 0xff000000u, XGD_SURFACE_FORMAT_COLOR, CONV_COPY },
        { DDPF_RGB, 32, 0xff0000, 0xff00, 0xff, 0xff000000u, XGD_SURFACE_FORMAT_COLOR, CONV_BGRA8 },
        { DDPF_RGB, 32, 0xff0000, 0xff00, 0xff, 0, XGD_SURFACE_FORMAT_COLOR, CONV_BGRX8 },
        { DDPF_RGB, 32, 0xff, 0xff00, 0xff0000, 0, XGD_SURFACE_FORMAT_COLOR, CONV_RGBX8 },
        { DDPF_RGB, 24, 0xff0000, 0xff00, 0xff, 0, XGD_SURFACE_FORMAT_COLOR, CONV_BGR8 },
        { DDPF_RGB, 16, 0xf800, 0x7e0, 0x1f, 0, XGD_SURFACE_FORMAT_BGR565, CONV_COPY },
        { DDPF_RGB, 16, 0x7c00, 0x3e0, 0x1f, 0x8000, XGD_SURFACE_FORMAT_BGRA5551, CONV_COPY },
        { DDPF_RGB, 16, 0x7c00, 0x3e0, 0x1f, 0, XGD_SURFACE_FORMAT_BGRA5551, CONV_X1555 },
        { DDPF_RGB, 16, 0xf00, 0xf0, 0xf, 0xf000, XGD_SURFACE_FORMAT_BGRA4444, CONV_COPY },
        { DDPF_RGB, 16, 0xf00, 0xf0, 0xf, 0, XGD_SURFACE_FORMAT_BGRA4444, CONV_X4444 },
        { DDPF_RGB, 32, 0x3ff, 0xffc00, 0x3ff00000, 0xc0000000u, XGD_SURFACE_FORMAT_RGBA1010102,
          CONV_COPY },
        { DDPF_RGB, 32, 0xffff, 0xffff0000u, 0, 0, XGD_SURFACE_FORMAT_RG32, CONV_COPY },
        { DDPF_ALPHA, 8, 0, 0, 0, 0xff, XGD_SURFACE_FORMAT_ALPHA8, CONV_COPY },
        { DDPF_BUMPDUDV, 16, 0xff, 0xff00, 0, 0, XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, CONV_COPY },
        { DDPF_BUMPDUDV, 32, 0xff, 0xff00, 0xff0000, 0xff000000u,
          XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, CONV_COPY },
    };
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        if ((flags & masks[i].flag) && bits == masks[i].bits && r == masks[i].r &&
            g == masks[i].g && b == masks[i].b && a == masks[i].a) {
            m->format = masks[i].format;
            m->convert = masks[i].convert;
            m->src_bytes = (int)bits / 8;
            return true;
        }
    }
    snprintf(name, name_size,
             "%lu-bit masks r=0x%lx g=0x%lx b=0x%lx a=0x%lx (flags 0x%lx)%s",
             (unsigned long)bits, (unsigned long)r, (unsigned long)g, (unsigned long)b,
             (unsigned long)a, (unsigned long)flags,
             (flags & DDPF_LUMINANCE) ? ", luminance" : "");
    return false;
}

/* Bytes of one level (all its slices) in the file's texels and in the texture's; false when
 * they do not fit in size_t. */
static bool level_sizes(const format_map *m, int w, int h, int d, size_t *file, size_t *tex)
{
    size_t rect = xgdi_format_rect_size(m->format, w, h);
    if (rect == 0 || !xgdi_size_mul(rect, (size_t)d, tex)) return false;
    if (m->convert == CONV_COPY) {
        *file = *tex;
        return true;
    }
    size_t texels;
    return xgdi_size_mul((size_t)w, (size_t)h, &texels) &&
           xgdi_size_mul(texels, (size_t)d, &texels) &&
           xgdi_size_mul(texels, (size_t)m->src_bytes, file);
}

xgd_result xgdi_dds_parse(xgdi_image_source *src, int max_dim, xgdi_dds_info *info, char *err,
                          size_t err_size)
{
    memset(info, 0, sizeof *info);
    uint8_t hd[4 + DDS_HEADER_SIZE + DX10_HEADER_SIZE];
    if (!xgdi_source_seek(src, 0)) {
        set_err(err, err_size, "seek error: %s", strerror(src->io_errno));
        return XGD_ERROR_IO;
    }
    size_t n = xgdi_source_read(src, hd, 4 + DDS_HEADER_SIZE);
    if (src->io_errno != 0) {
        set_err(err, err_size, "read error: %s", strerror(src->io_errno));
        return XGD_ERROR_IO;
    }
    if (n < 4 || memcmp(hd, "DDS ", 4) != 0) {
        set_err(err, err_size, "not a DDS file (no \"DDS \" signature)");
        return XGD_ERROR_INVALID_OPERATION;
    }
    if (n < 4 + DDS_HEADER_SIZE) {
        set_err(err, err_size, "the DDS is truncated inside its %u-byte header (%zu bytes)",
                DDS_HEADER_SIZE + 4, n);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    const uint8_t *h = hd + 4, *pf = h + 72;
    if (le32(h) != DDS_HEADER_SIZE || le32(pf) != DDS_PF_SIZE) {
        set_err(err, err_size, "bad DDS header sizes (%lu and %lu; 124 and 32 expected)",
                (unsigned long)le32(h), (unsigned long)le32(pf));
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    uint32_t height = le32(h + 8), width = le32(h + 12), depth = le32(h + 20);
    uint32_t mips = le32(h + 24), caps2 = le32(h + 108);
    size_t offset = 4 + DDS_HEADER_SIZE;

    format_map m = { 0 };
    char name[128] = "";
    xgd_texture_kind kind = XGD_TEXTURE_2D;
    bool dx10 = (le32(pf + 4) & DDPF_FOURCC) && le32(pf + 8) == fourcc("DX10");
    if (dx10) {
        n = xgdi_source_read(src, hd + offset, DX10_HEADER_SIZE);
        if (n < DX10_HEADER_SIZE) {
            set_err(err, err_size, "the DDS is truncated inside its DX10 header");
            return src->io_errno != 0 ? XGD_ERROR_IO : XGD_ERROR_INVALID_ARGUMENT;
        }
        const uint8_t *x = hd + offset;
        uint32_t dxgi = le32(x), dim = le32(x + 4), misc = le32(x + 8), array = le32(x + 12);
        offset += DX10_HEADER_SIZE;
        if (!map_dxgi(dxgi, &m)) {
            set_err(err, err_size, "DDS DXGI format %lu (%s) is not supported",
                    (unsigned long)dxgi, dxgi_name(dxgi));
            return XGD_ERROR_NOT_SUPPORTED;
        }
        if (dim == DX10_DIMENSION_TEXTURE1D) {
            set_err(err, err_size, "a DDS Texture1D is not supported (xgd has no 1D textures)");
            return XGD_ERROR_NOT_SUPPORTED;
        }
        if (dim != DX10_DIMENSION_TEXTURE2D && dim != DX10_DIMENSION_TEXTURE3D) {
            set_err(err, err_size, "bad DDS resource dimension %lu", (unsigned long)dim);
            return XGD_ERROR_INVALID_ARGUMENT;
        }
        if (array != 1) {
            set_err(err, err_size, "a DDS texture array (array size %lu) is not supported",
                    (unsigned long)array);
            return array == 0 ? XGD_ERROR_INVALID_ARGUMENT : XGD_ERROR_NOT_SUPPORTED;
        }
        if (dim == DX10_DIMENSION_TEXTURE3D) kind = XGD_TEXTURE_3D;
        else if (misc & DX10_MISC_TEXTURECUBE) kind = XGD_TEXTURE_CUBE;
    } else {
        if (!map_legacy(pf, &m, name, sizeof name)) {
            set_err(err, err_size, "DDS pixel format %s is not supported", name);
            return XGD_ERROR_NOT_SUPPORTED;
        }
        if (caps2 & DDSCAPS2_CUBEMAP) {
            if ((caps2 & DDSCAPS2_CUBEMAP_ALLFACES) != DDSCAPS2_CUBEMAP_ALLFACES) {
                set_err(err, err_size,
                        "a DDS cube map without all six faces (caps2 0x%lx) is not supported",
                        (unsigned long)caps2);
                return XGD_ERROR_NOT_SUPPORTED;
            }
            kind = XGD_TEXTURE_CUBE;
        } else if (caps2 & DDSCAPS2_VOLUME) {
            kind = XGD_TEXTURE_3D;
        }
    }
    if (kind != XGD_TEXTURE_3D) depth = 1;
    if (width == 0 || height == 0 || depth == 0) {
        set_err(err, err_size, "the DDS declares %lux%lux%lu texels", (unsigned long)width,
                (unsigned long)height, (unsigned long)depth);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    /* Sizes beyond the device's limit are refused here, before any size is computed from them
     * (a Texture3D's tighter limit of the texture rules follows). */
    if (width > (uint32_t)max_dim || height > (uint32_t)max_dim || depth > (uint32_t)max_dim) {
        set_err(err, err_size,
                "the DDS declares %lux%lux%lu texels; the limit is %d per side (the profile's "
                "and renderer's texture size)",
                (unsigned long)width, (unsigned long)height, (unsigned long)depth, max_dim);
        return XGD_ERROR_NOT_SUPPORTED;
    }
    if (kind == XGD_TEXTURE_CUBE && width != height) {
        set_err(err, err_size, "a DDS cube map of %lux%lu faces (faces are square)",
                (unsigned long)width, (unsigned long)height);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    int w = (int)width, ht = (int)height, d = (int)depth;
    int biggest = w > d ? w : d;
    int chain = xgdi_full_mip_count(biggest, ht);
    if (mips == 0) mips = 1; /* writers leave the count 0 for a texture without mips */
    if (mips > (uint32_t)chain) {
        set_err(err, err_size, "the DDS declares %lu mip levels; a %dx%dx%d texture has %d",
                (unsigned long)mips, w, ht, d, chain);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    int faces = kind == XGD_TEXTURE_CUBE ? 6 : 1;
    size_t file_face = 0, tex_face = 0;
    for (int l = 0; l < (int)mips; l++) {
        size_t fb, tb;
        if (!level_sizes(&m, xgdi_mip_dim(w, l), xgdi_mip_dim(ht, l), xgdi_mip_dim(d, l), &fb,
                         &tb) ||
            !xgdi_size_add(file_face, fb, &file_face) || !xgdi_size_add(tex_face, tb, &tex_face)) {
            set_err(err, err_size, "the DDS's size does not fit in memory");
            return XGD_ERROR_OUT_OF_MEMORY;
        }
    }
    size_t file_bytes, tex_bytes;
    if (!xgdi_size_mul(file_face, (size_t)faces, &file_bytes) ||
        !xgdi_size_mul(tex_face, (size_t)faces, &tex_bytes)) {
        set_err(err, err_size, "the DDS's size does not fit in memory");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    size_t have = src->size > offset ? src->size - offset : 0;
    if (have < file_bytes) {
        set_err(err, err_size,
                "the DDS is truncated: %dx%dx%d %s, %d face(s) of %lu level(s) need %zu bytes "
                "of texels, the file has %zu",
                w, ht, d, xgdi_format_info_of(m.format)->name, faces, (unsigned long)mips,
                file_bytes, have);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    info->kind = kind;
    info->width = w;
    info->height = ht;
    info->depth = d;
    info->levels = (int)mips;
    info->format = m.format;
    info->data_offset = offset;
    info->file_bytes = file_bytes;
    info->texture_bytes = tex_bytes;
    info->convert = m.convert;
    return XGD_OK;
}

/* Rearranges `count` file texels into the texture's. */
static void convert_texels(int convert, const uint8_t *s, size_t count, uint8_t *d)
{
    for (size_t i = 0; i < count; i++) {
        switch (convert) {
        case CONV_BGRA8:
            d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = s[3];
            s += 4, d += 4;
            break;
        case CONV_BGRX8:
            d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = 255;
            s += 4, d += 4;
            break;
        case CONV_RGBX8:
            d[0] = s[0], d[1] = s[1], d[2] = s[2], d[3] = 255;
            s += 4, d += 4;
            break;
        case CONV_BGR8:
            d[0] = s[2], d[1] = s[1], d[2] = s[0], d[3] = 255;
            s += 3, d += 4;
            break;
        case CONV_X1555:
            d[0] = s[0], d[1] = (uint8_t)(s[1] | 0x80);
            s += 2, d += 2;
            break;
        default: /* CONV_X4444 */
            d[0] = s[0], d[1] = (uint8_t)(s[1] | 0xf0);
            s += 2, d += 2;
            break;
        }
    }
}

static int src_texel_bytes(int convert)
{
    switch (convert) {
    case CONV_BGR8: return 3;
    case CONV_X1555:
    case CONV_X4444: return 2;
    default: return 4;
    }
}

static int dst_texel_bytes(int convert)
{
    return convert == CONV_X1555 || convert == CONV_X4444 ? 2 : 4;
}

xgd_result xgdi_dds_read(xgdi_image_source *src, const xgdi_dds_info *info, uint8_t **contents,
                         char *err, size_t err_size)
{
    *contents = NULL;
    if (!xgdi_source_seek(src, info->data_offset)) {
        set_err(err, err_size, "seek error: %s", strerror(src->io_errno));
        return XGD_ERROR_IO;
    }
    /* texture_bytes is at most 4/3 of the file's texels (24-bit texels widen to 32), which
     * xgdi_dds_parse found present in the file: the allocation is bounded by the input. */
    uint8_t *out = malloc(info->texture_bytes);
    if (out == NULL) {
        set_err(err, err_size, "out of memory for %zu bytes of texels", info->texture_bytes);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    size_t got = 0;
    if (info->convert == CONV_COPY) {
        got = xgdi_source_read(src, out, info->file_bytes);
    } else {
        /* Converted through a small staging buffer: no second image-sized allocation. */
        int sb = src_texel_bytes(info->convert), db = dst_texel_bytes(info->convert);
        uint8_t stage[3 * 4 * 256];
        size_t texels = info->file_bytes / (size_t)sb, done = 0;
        while (done < texels) {
            size_t chunk = texels - done < 1024 ? texels - done : 1024;
            if (chunk * (size_t)sb > sizeof stage) chunk = sizeof stage / (size_t)sb;
            size_t n = xgdi_source_read(src, stage, chunk * (size_t)sb);
            got += n;
            if (n < chunk * (size_t)sb) break;
            convert_texels(info->convert, stage, chunk, out + done * (size_t)db);
            done += chunk;
        }
    }
    if (got < info->file_bytes) {
        free(out);
        if (src->io_errno != 0) {
            set_err(err, err_size, "read error: %s", strerror(src->io_errno));
            return XGD_ERROR_IO;
        }
        set_err(err, err_size, "the DDS is truncated (%zu of %zu bytes of texels)", got,
                info->file_bytes);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    *contents = out;
    return XGD_OK;
}
