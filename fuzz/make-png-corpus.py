#!/usr/bin/env python3
"""Writes the seed corpus of xgd-fuzz-png (fuzz/corpus/png/): small valid PNGs of every colour
type and bit depth, interlaced and not, with palettes, tRNS, ancillary chunks and split IDAT
streams, plus images one texel beyond the Reach (2048) and HiDef (4096) maximum width.
Deterministic; run from anywhere: python3 fuzz/make-png-corpus.py"""
import os
import struct
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "png")


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def sample(x, y, c, depth, colour_type, palette_size):
    v = (x * 7 + y * 13 + c * 5) & 0xFFFF
    if colour_type == 3:
        return v % palette_size
    return v % (1 << depth)


def pack_row(values, depth):
    if depth >= 8:
        fmt = ">B" if depth == 8 else ">H"
        return b"".join(struct.pack(fmt, v) for v in values)
    out, acc, bits = bytearray(), 0, 0
    for v in values:
        acc = (acc << depth) | v
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def raw_image(w, h, depth, colour_type, interlace, palette_size, filt):
    ch = CHANNELS[colour_type]
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    data = bytearray()
    for (x0, y0, dx, dy) in passes:
        xs = list(range(x0, w, dx))
        ys = list(range(y0, h, dy))
        if not xs or not ys:
            continue
        for y in ys:
            values = [sample(x, y, c, depth, colour_type, palette_size) for x in xs for c in range(ch)]
            data.append(filt)  # filter type; rows are stored unfiltered but the byte varies
            row = pack_row(values, depth)
            if filt == 1:  # Sub
                bpp = max(1, ch * depth // 8)
                row = bytes((row[i] - (row[i - bpp] if i >= bpp else 0)) & 0xFF for i in range(len(row)))
            elif filt != 0:
                data[-1] = 0
            data += row
    return bytes(data)


def png(w, h, depth, colour_type, interlace=0, trns=False, extras=False, split=1, filt=0, palette_size=6):
    ihdr = struct.pack(">IIBBBBB", w, h, depth, colour_type, 0, 0, interlace)
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
    if extras:
        out += chunk(b"gAMA", struct.pack(">I", 45455)) + chunk(b"tEXt", b"Comment\x00xgd fuzz seed")
    if colour_type == 3:
        out += chunk(b"PLTE", bytes((i * 40) & 0xFF for i in range(palette_size * 3)))
        if trns:
            out += chunk(b"tRNS", bytes([0, 128, 255][: min(3, palette_size)]))
    elif trns and colour_type == 0:
        out += chunk(b"tRNS", struct.pack(">H", 1))
    elif trns and colour_type == 2:
        out += chunk(b"tRNS", struct.pack(">HHH", 1, 2, 3))
    z = zlib.compress(raw_image(w, h, depth, colour_type, interlace, palette_size, filt), 9)
    step = max(1, (len(z) + split - 1) // split)
    for i in range(0, len(z), step):
        out += chunk(b"IDAT", z[i:i + step])
    return out + chunk(b"IEND", b"")


SEEDS = {
    "rgba8-2x2.png": png(2, 2, 8, 6),
    "rgb8-3x3.png": png(3, 3, 8, 2, extras=True),
    "rgb8-trns-4x2.png": png(4, 2, 8, 2, trns=True),
    "grey1-5x3.png": png(5, 3, 1, 0),
    "grey2-7x2.png": png(7, 2, 2, 0, trns=True),
    "grey4-3x5.png": png(3, 5, 4, 0),
    "grey8-1x1.png": png(1, 1, 8, 0),
    "greyalpha8-4x4.png": png(4, 4, 8, 4, filt=1),
    "palette4-trns-6x3.png": png(6, 3, 4, 3, trns=True),
    "palette8-2x6.png": png(2, 6, 8, 3, palette_size=200),
    "palette1-9x1.png": png(9, 1, 1, 3, palette_size=2),
    "rgba16-3x2.png": png(3, 2, 16, 6),
    "grey16-2x2.png": png(2, 2, 16, 0),
    "rgb16-trns-2x2.png": png(2, 2, 16, 2, trns=True),
    "adam7-rgb8-9x9.png": png(9, 9, 8, 2, interlace=1),
    "adam7-palette2-5x6.png": png(5, 6, 2, 3, interlace=1, palette_size=4),
    "split-idat-rgba8-8x8.png": png(8, 8, 8, 6, split=5, filt=1),
    "wide-64x1.png": png(64, 1, 8, 2),
    "tall-1x64.png": png(1, 64, 8, 0),
    "reach-limit-2049x1.png": png(2049, 1, 1, 0),
    "hidef-limit-4097x1.png": png(4097, 1, 1, 0),
}

if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"{len(SEEDS)} seeds in {OUT}")
