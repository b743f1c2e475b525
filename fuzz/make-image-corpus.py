#!/usr/bin/env python3
"""Writes the seed corpus of xgd-fuzz-image (fuzz/corpus/image/): the committed test images
of every format (tests/data/images/, see its README) and hostile variants of them: declared
sizes beyond every device or just within one with the texels missing, lying mip counts, DX10
headers, cube and volume DDS files, files cut short. Deterministic; run from anywhere:
python3 fuzz/make-image-corpus.py"""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus", "image")
DATA = os.path.join(HERE, "..", "tests", "data", "images")

os.makedirs(OUT, exist_ok=True)
images = sorted(n for n in os.listdir(DATA)
                if n.rsplit(".", 1)[-1] in ("png", "jpg", "bmp", "gif", "tga", "dds"))
for name in images:
    shutil.copy(os.path.join(DATA, name), os.path.join(OUT, name))


def read(name):
    with open(os.path.join(DATA, name), "rb") as f:
        return bytearray(f.read())


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes(data))


def dds(w, h, pf_flags, fourcc, bits=0, masks=(0, 0, 0, 0), mips=1, depth=0, caps2=0,
        dx10=None, data=b""):
    hdr = struct.pack("<7I", 124, 0x1007, h, w, 0, depth, mips) + b"\0" * 44
    hdr += struct.pack("<2I4sI4I", 32, pf_flags, fourcc, bits, *masks)
    hdr += struct.pack("<5I", 0x1000, caps2, 0, 0, 0)
    ext = b"" if dx10 is None else struct.pack("<5I", *dx10)
    return b"DDS " + hdr + ext + data


# DDS
write("dds-huge.dds", dds(0xFFFFFFFC, 0xFFFFFFFC, 4, b"DXT1", data=b"\x55" * 64))
write("dds-4096-no-texels.dds", dds(4096, 4096, 4, b"DXT5", mips=13, data=b"\x55" * 64))
write("dds-2049-no-texels.dds", dds(2049, 2048, 0x41, b"\0\0\0\0", 32,
                                    (0xFF0000, 0xFF00, 0xFF, 0xFF000000), data=b"\x11" * 64))
# A 4096 cube of Vector4 texels with every mip would take 2 GiB: refused from the header
# because the file holds none of it, never allocated first (the replay's -malloc_limit_mb).
write("dds-cube-4096-vector4-no-texels.dds", dds(4096, 4096, 4, struct.pack("<I", 116),
                                                 mips=13, caps2=0xFE00, data=b"\x55" * 64))
write("dds-mips-lie.dds", dds(16, 16, 4, b"DXT1", mips=0xFFFFFFFF, data=b"\x55" * 128))
write("dds-volume-overflow.dds", dds(4096, 4096, 4, struct.pack("<I", 116), mips=1,
                                     depth=4096, caps2=0x200000, data=b"\x55" * 16))
write("dds-volume-small.dds", dds(4, 4, 4, struct.pack("<I", 113), mips=3, depth=2,
                                  caps2=0x200000, data=b"\x3c" * 400))
write("dds-dx10-cube.dds", dds(4, 4, 4, b"DX10", mips=1, dx10=(28, 3, 4, 1, 0),
                               data=bytes(range(256)) * 2 + b"\x7f" * 128))
write("dds-dx10-array.dds", dds(4, 4, 4, b"DX10", dx10=(71, 3, 0, 6, 0), data=b"\x55" * 48))
write("dds-dx10-bc7.dds", dds(4, 4, 4, b"DX10", dx10=(98, 3, 0, 1, 0), data=b"\x55" * 16))
write("dds-a8.dds", dds(3, 5, 2, b"\0\0\0\0", 8, (0, 0, 0, 0xFF), data=bytes(range(15))))
write("dds-v8u8.dds", dds(2, 2, 0x80000, b"\0\0\0\0", 16, (0xFF, 0xFF00, 0, 0),
                          data=bytes(range(8))))
write("dds-partial-cube.dds", dds(4, 4, 4, b"DXT1", caps2=0x200 | 0x400, data=b"\x55" * 48))
write("dds-header-cut.dds", dds(4, 4, 4, b"DXT1")[:70])

# JPEG: the SOF frame header's sizes
jpg = read("q95-444.jpg")
sof = next(i for i in range(2, len(jpg) - 9) if jpg[i] == 0xFF and jpg[i + 1] in (0xC0, 0xC2))
big = bytearray(jpg)
big[sof + 5:sof + 9] = struct.pack(">2H", 4096, 4096)
write("jpeg-4096-truncated.jpg", big[:len(big) * 2 // 3])
big[sof + 5:sof + 9] = struct.pack(">2H", 60000, 60000)
write("jpeg-60000.jpg", big)
write("jpeg-cut.jpg", jpg[:len(jpg) // 2])

# GIF: logical screen and first image sizes
gif = read("two-frames.gif")
g = bytearray(gif)
g[6:10] = struct.pack("<2H", 2048, 2048)
write("gif-screen-2048.gif", g)
write("gif-cut.gif", gif[:len(gif) // 3])

# BMP: BITMAPINFOHEADER sizes
bmp = read("rgb24.bmp")
b = bytearray(bmp)
b[18:26] = struct.pack("<2i", 2048, -2048)
write("bmp-2048-no-texels.bmp", b)
b[18:26] = struct.pack("<2i", 1000000, 1000000)
write("bmp-huge.bmp", b)

# TGA: sizes at 12
tga = read("rgba32.tga")
t = bytearray(tga)
t[12:16] = struct.pack("<2H", 2048, 2048)
write("tga-2048-no-texels.tga", t)
write("tga-rle-cut.tga", read("rgb24-rle.tga")[:100])
print("wrote", len(os.listdir(OUT)), "files to", OUT)
