#!/usr/bin/env python3
"""make-ttf-corpus.py - writes the seed fonts of the truetype fuzz target (fuzz/corpus/truetype/).

Small TrueType fonts written from the format's public specification (no font tool needed):
cmap (format 4), glyf, head, hhea, hmtx, loca, maxp, with an empty space glyph, a square, a
triangle with off-curve points and repeated flags, and a composite of the two (offset by
word arguments). Variants: long and short loca, and the composite nested one level deeper.

    python3 fuzz/make-ttf-corpus.py fuzz/corpus/truetype
"""
import struct
import sys
import os


def simple_glyph(contours):
    """contours: lists of (x, y, on_curve) in absolute font units."""
    pts = [p for c in contours for p in c]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    out = struct.pack('>hhhhh', len(contours), min(xs), min(ys), max(xs), max(ys))
    end = -1
    for c in contours:
        end += len(c)
        out += struct.pack('>H', end)
    out += struct.pack('>H', 0)  # no instructions
    # flags: on-curve bit, coordinates as signed words; runs of equal flags use the repeat bit
    flags = [1 if p[2] else 0 for p in pts]
    i = 0
    while i < len(flags):
        j = i
        while j + 1 < len(flags) and flags[j + 1] == flags[i] and j - i < 255:
            j += 1
        if j > i:
            out += bytes([flags[i] | 8, j - i])
        else:
            out += bytes([flags[i]])
        i = j + 1
    px = py = 0
    for x, _, _ in pts:
        out += struct.pack('>h', x - px)
        px = x
    for _, y, _ in pts:
        out += struct.pack('>h', y - py)
        py = y
    return out


def composite_glyph(parts, bbox):
    out = struct.pack('>hhhhh', -1, *bbox)
    for k, (glyph, dx, dy) in enumerate(parts):
        flags = 1 | 2 | (32 if k + 1 < len(parts) else 0)  # word args, xy values, more
        out += struct.pack('>HHhh', flags, glyph, dx, dy)
    return out


def pad(b):
    return b + b'\0' * (-len(b) % 4)


def font(long_loca=True, nested=False):
    square = simple_glyph([[(100, 0, 1), (100, 700, 1), (500, 700, 1), (500, 0, 1)]])
    triangle = simple_glyph([[(50, 0, 1), (300, 700, 0), (550, 0, 1)],
                             [(200, 100, 1), (300, 400, 1), (400, 100, 1)]])
    comp = composite_glyph([(1, 0, 0), (2, 300, -100)], (50, -100, 850, 700))
    glyphs = [b'', square, triangle, comp, b'']
    if nested:
        glyphs.append(composite_glyph([(3, 100, 0), (1, 0, 200)], (50, -100, 950, 900)))
    chars = {0x20: 4, 0x41: 1, 0x42: 2, 0x43: 3}
    if nested:
        chars[0x44] = 5
    glyf = b''
    offsets = []
    for g in glyphs:
        offsets.append(len(glyf))
        glyf += g + (b'\0' if len(g) % 2 else b'')
    offsets.append(len(glyf))
    loca = b''.join(struct.pack('>I' if long_loca else '>H', o if long_loca else o // 2)
                    for o in offsets)
    n = len(glyphs)
    head = struct.pack('>IIIIHHqqhhhhHHhhh', 0x00010000, 0x00010000, 0, 0x5F0F3CF5, 3, 1000,
                       0, 0, 0, -200, 1000, 900, 0, 8, 2, 1 if long_loca else 0, 0)
    hhea = struct.pack('>IhhhHhhhhhh4hhH', 0x00010000, 800, -200, 90, 1000, 0, 0, 950, 1, 0, 0,
                       0, 0, 0, 0, 0, n)
    maxp = struct.pack('>IH', 0x00005000, n)
    hmtx = b''.join(struct.pack('>Hh', 600 if i not in (0, 4) else 300, 50) for i in range(n))
    # cmap format 4: one segment per run of consecutive codes, then the 0xFFFF terminator
    codes = sorted(chars)
    segs = []
    for c in codes:
        if segs and segs[-1][1] == c - 1 and chars[c] - c == segs[-1][2]:
            segs[-1][1] = c
        else:
            segs.append([c, c, chars[c] - c])
    segs.append([0xFFFF, 0xFFFF, 1])
    sc = len(segs)
    selector = sc.bit_length() - 1          # floor(log2(segCount))
    search = 2 * (1 << selector)
    sub = struct.pack('>HHHHHHH', 4, 16 + 8 * sc, 0, 2 * sc, search, selector, 2 * sc - search)
    sub += b''.join(struct.pack('>H', s[1]) for s in segs) + b'\0\0'
    sub += b''.join(struct.pack('>H', s[0]) for s in segs)
    sub += b''.join(struct.pack('>H', s[2] & 0xFFFF) for s in segs)
    sub += b''.join(struct.pack('>H', 0) for s in segs)
    cmap = struct.pack('>HHHHI', 0, 1, 3, 1, 12) + sub
    tables = sorted({'cmap': cmap, 'glyf': glyf, 'head': head, 'hhea': hhea, 'hmtx': hmtx,
                     'loca': loca, 'maxp': maxp}.items())
    out = struct.pack('>IHHHH', 0x00010000, len(tables), 0, 0, 0)
    offset = 12 + 16 * len(tables)
    body = b''
    for tag, data in tables:
        out += struct.pack('>4sIII', tag.encode(), 0, offset + len(body), len(data))
        body += pad(data)
    return out + body


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else 'fuzz/corpus/truetype'
    os.makedirs(d, exist_ok=True)
    for name, data in (('long-loca.ttf', font(True)), ('short-loca.ttf', font(False)),
                       ('nested-composite.ttf', font(True, True))):
        with open(os.path.join(d, name), 'wb') as f:
            f.write(data)


main()
