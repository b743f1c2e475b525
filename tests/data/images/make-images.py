#!/usr/bin/python3
"""make-images.py - writes the image test data of tests/fixture_images.c (see README.md).

Every file is written here by Pillow (PNG, JPEG, BMP, GIF, TGA) or by the small DDS writer
below, and every reference (*.ref) is decoded here, at test-data creation time, by a tool
other than the one xgd decodes the file with: Pillow (libjpeg-turbo for JPEG, Pillow's own
BMP / GIF / TGA / DDS readers) or, for texels that are stored rather than decoded, the numbers
this script wrote. Run with Debian's python3 and python3-pil (9.4):

    /usr/bin/python3 tests/data/images/make-images.py
"""
import io
import os
import random
import struct

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def out(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def pattern(w, h, seed, alpha=True):
    """An asymmetric RGBA image: gradients, a checker, and (alpha) transparent texels that
    carry a colour (XNA's FromStream stores those as 0,0,0,0) and partial alpha."""
    img = Image.new("RGBA", (w, h))
    px = img.load()
    for y in range(h):
        for x in range(w):
            r = (x * 255) // max(1, w - 1)
            g = (y * 255) // max(1, h - 1)
            b = ((x + 2 * y + seed) * 37) % 256
            a = 255
            if alpha:
                k = (x + y * w + seed) % 7
                a = 0 if k == 0 else (128 if k == 3 else (17 if k == 5 else 255))
            px[x, y] = (r, g, b, a)
    return img


def rgba_bytes(img):
    return img.convert("RGBA").tobytes()


def saved(img, fmt, **kw):
    b = io.BytesIO()
    img.save(b, fmt, **kw)
    return b.getvalue()


def decoded(data, frame=0):
    im = Image.open(io.BytesIO(data))
    im.seek(frame)
    return rgba_bytes(im)


def write_decoded(name, data):
    """The file and Pillow's RGBA decode of it."""
    out(name, data)
    out(name + ".ref", decoded(data))


# ---- PNG, BMP, GIF, TGA, JPEG (Pillow writes, Pillow decodes the reference) ---------------

write_decoded("rgba.png", saved(pattern(13, 7, 1), "PNG"))
write_decoded("rgb24.bmp", saved(pattern(13, 7, 2, alpha=False).convert("RGB"), "BMP"))
write_decoded("pal8.bmp",
              saved(pattern(11, 5, 3, alpha=False).convert("RGB").quantize(16), "BMP"))
write_decoded("rgba32.tga", saved(pattern(13, 7, 4), "TGA"))
write_decoded("rgb24-rle.tga",
              saved(pattern(12, 6, 5, alpha=False).convert("RGB"), "TGA", compression="tga_rle"))

# GIF: two frames; the first is the one XNA loads. Palette index 0 is transparent.
f0 = pattern(9, 6, 6, alpha=False).convert("RGB").quantize(8)
f1 = pattern(9, 6, 9, alpha=False).convert("RGB").quantize(8)
for im in (f0, f1):
    p = im.load()
    for y in range(im.size[1]):
        for x in range(im.size[0]):
            if (x + y) % 5 == 0:
                p[x, y] = 0
gif = saved(f0, "GIF", save_all=True, append_images=[f1], transparency=0, duration=100,
            disposal=1)
write_decoded("two-frames.gif", gif)

# JPEG: lossy, so the reference is libjpeg-turbo's decode (through Pillow) of the same file.
smooth = Image.new("RGB", (24, 16))
sp = smooth.load()
for y in range(16):
    for x in range(24):
        sp[x, y] = (40 + x * 8, 30 + y * 12, 200 - x * 4 - y * 3)
write_decoded("q95-444.jpg", saved(smooth, "JPEG", quality=95, subsampling=0))
write_decoded("q90-420.jpg", saved(smooth, "JPEG", quality=90, subsampling=2))
write_decoded("progressive.jpg",
              saved(smooth, "JPEG", quality=90, subsampling=0, progressive=True))

# ---- DDS (written here; decoded texels from Pillow's DDS reader or the written numbers) ------

DDPF_ALPHAPIXELS, DDPF_FOURCC, DDPF_RGB = 0x1, 0x4, 0x40
CAPS2_CUBE, CAPS2_VOLUME = 0xFE00, 0x200000


def dds(w, h, pf, data, mips=1, depth=0, caps2=0, dx10=None):
    flags = 0x1007 | (0x20000 if mips > 1 else 0) | (0x800000 if depth else 0)
    hdr = struct.pack("<7I", 124, flags, h, w, 0, depth, mips) + b"\0" * 44 + pf
    hdr += struct.pack("<5I", 0x1000 | (0x400008 if mips > 1 else 0), caps2, 0, 0, 0)
    ext = b"" if dx10 is None else struct.pack("<5I", *dx10)
    return b"DDS " + hdr + ext + data


def pf_fourcc(cc):
    return struct.pack("<2I4s5I", 32, DDPF_FOURCC, cc, 0, 0, 0, 0, 0)


def pf_masks(flags, bits, r, g, b, a):
    return struct.pack("<2I4s5I", 32, flags, b"\0\0\0\0", bits, r, g, b, a)


def mip(v, l):
    return max(1, v >> l)


def dxt_blocks(fmt, w, h, rng):
    """Random blocks (every bit pattern is a valid BC1-3 block); a few are forced into BC1's
    3-colour mode (c0 <= c1) and BC3's 6-value alpha mode (a0 <= a1)."""
    bw, bh = (w + 3) // 4, (h + 3) // 4
    size = 8 if fmt == b"DXT1" else 16
    out_ = bytearray()
    for i in range(bw * bh):
        blk = bytearray(rng.randrange(256) for _ in range(size))
        col = blk[-8:]
        c0, c1 = struct.unpack("<2H", col[:4])
        if i % 3 == 1 and c0 > c1:
            col[:4] = struct.pack("<2H", c1, c0)
        if i % 3 == 0 and c0 <= c1 and c0 != c1:
            col[:4] = struct.pack("<2H", c1, c0)
        blk[-8:] = col
        if fmt == b"DXT5" and i % 2 == 1 and blk[0] > blk[1]:
            blk[0], blk[1] = blk[1], blk[0]
        out_ += blk
    return bytes(out_)


def pillow_decode_level(pf, w, h, data):
    """Pillow's decode of one 2D level, written as a single-level DDS of the same pixel format."""
    return decoded(dds(w, h, pf, data))


def write_dds_dxt(name, fc, w, h, levels, faces=1, dx10=None):
    rng = random.Random(name)
    pf = pf_fourcc(fc)
    data, ref = b"", b""
    for _ in range(faces):
        for l in range(levels):
            lw, lh = mip(w, l), mip(h, l)
            blocks = dxt_blocks(fc, lw, lh, rng)
            data += blocks
            ref += pillow_decode_level(pf, lw, lh, blocks)
    if dx10 is not None:
        out(name, dds(w, h, pf_fourcc(b"DX10"), data, levels, dx10=dx10))
    else:
        out(name, dds(w, h, pf, data, levels, caps2=CAPS2_CUBE if faces == 6 else 0))
    out(name + ".ref", ref)


write_dds_dxt("dxt1-mips.dds", b"DXT1", 16, 8, 5)
write_dds_dxt("dxt3-mips.dds", b"DXT3", 8, 8, 4)
write_dds_dxt("dxt5-mips.dds", b"DXT5", 16, 16, 5)
write_dds_dxt("bc3-dx10.dds", b"DXT5", 8, 4, 1, dx10=(77, 3, 0, 1, 0))
write_dds_dxt("dxt1-cube.dds", b"DXT1", 8, 8, 2, faces=6)

# 32- and 24-bit Color DDS: the file's texels come from a pattern; the reference is Pillow's
# decode of each level (or face, or slice) alone.
BGRA = pf_masks(DDPF_RGB | DDPF_ALPHAPIXELS, 32, 0xFF0000, 0xFF00, 0xFF, 0xFF000000)
BGRX = pf_masks(DDPF_RGB, 32, 0xFF0000, 0xFF00, 0xFF, 0)
RGBA = pf_masks(DDPF_RGB | DDPF_ALPHAPIXELS, 32, 0xFF, 0xFF00, 0xFF0000, 0xFF000000)
BGR = pf_masks(DDPF_RGB, 24, 0xFF0000, 0xFF00, 0xFF, 0)


def texels(img, order):
    """The image's texels in a byte order such as 'BGRA' or 'BGR'."""
    raw = rgba_bytes(img)
    idx = ["RGBA".index(c) for c in order]
    return b"".join(bytes(raw[i + k] for k in idx) for i in range(0, len(raw), 4))


def opaque(img):
    raw = rgba_bytes(img)
    return b"".join(raw[i:i + 3] + b"\xff" for i in range(0, len(raw), 4))


def write_dds_color(name, pf, order, w, h, levels, faces=1, depth=1, pillow=True):
    data, ref = b"", b""
    seed = 0
    for _ in range(faces):
        for l in range(levels):
            lw, lh, ld = mip(w, l), mip(h, l), mip(depth, l)
            for _ in range(ld):
                seed += 1
                img = pattern(lw, lh, seed)
                t = texels(img, order)
                data += t
                ref += pillow_decode_level(pf, lw, lh, t) if pillow else opaque(img)
    caps2 = CAPS2_CUBE if faces == 6 else (CAPS2_VOLUME if depth > 1 else 0)
    out(name, dds(w, h, pf, data, levels, depth=depth if depth > 1 else 0, caps2=caps2))
    out(name + ".ref", ref)


write_dds_color("a8r8g8b8-mips.dds", BGRA, "BGRA", 8, 4, 4)
# Pillow 9.4 reads a 32-bit DDS without alpha as 24-bit texels, so X8R8G8B8's reference is
# the pattern written (its unused byte holds the pattern's alpha, which must not show).
write_dds_color("x8r8g8b8.dds", BGRX, "BGRA", 5, 3, 1, pillow=False)
write_dds_color("a8b8g8r8.dds", RGBA, "RGBA", 6, 2, 1)
write_dds_color("r8g8b8.dds", BGR, "BGR", 7, 3, 1)
write_dds_color("a8r8g8b8-cube.dds", BGRA, "BGRA", 4, 4, 3, faces=6)
write_dds_color("a8r8g8b8-volume.dds", BGRA, "BGRA", 4, 4, 3, depth=3)

# 16-bit DDS: stored, not decoded; the reference is the 16-bit values written here, with the
# alpha bit (X1R5G5B5) or nibble (X4R4G4B4) the texture stores for "no alpha" set to one.
def write_dds_16(name, pf, w, h, fill_alpha):
    rng = random.Random(name)
    vals = [rng.randrange(65536) for _ in range(w * h)]
    out(name, dds(w, h, pf, struct.pack("<%dH" % len(vals), *vals)))
    out(name + ".ref", struct.pack("<%dH" % len(vals), *[v | fill_alpha for v in vals]))


write_dds_16("r5g6b5.dds", pf_masks(DDPF_RGB, 16, 0xF800, 0x7E0, 0x1F, 0), 6, 3, 0)
write_dds_16("a1r5g5b5.dds",
             pf_masks(DDPF_RGB | DDPF_ALPHAPIXELS, 16, 0x7C00, 0x3E0, 0x1F, 0x8000), 5, 4, 0)
write_dds_16("x1r5g5b5.dds", pf_masks(DDPF_RGB, 16, 0x7C00, 0x3E0, 0x1F, 0), 5, 4, 0x8000)
write_dds_16("a4r4g4b4.dds",
             pf_masks(DDPF_RGB | DDPF_ALPHAPIXELS, 16, 0xF00, 0xF0, 0xF, 0xF000), 3, 3, 0)

# A float format through its D3DFORMAT number (113, A16B16G16R16F): stored as written.
halfs = [struct.unpack("<H", struct.pack("<e", v))[0]
         for v in (0.0, 1.0, -2.5, 0.25, 65504.0, -0.0, 3.140625, 0.5, 7.0, -1.0, 2.0, 0.125)]
half_data = struct.pack("<12H", *halfs)
out("a16b16g16r16f.dds", dds(3, 1, pf_fourcc(struct.pack("<I", 113)), half_data))
out("a16b16g16r16f.dds.ref", half_data)
print("wrote", len([n for n in os.listdir(HERE) if n.endswith(".ref")]), "images")
