// mips.comp - the Vulkan renderer's mip generation for 8-bit RGBA unorm images (Color): up to
// six levels per dispatch, so a chain is a few dispatches instead of one dependent pass per level.
//
// Rule (the renderers' box rule: shaders/blit.hlsl, src/renderers/software/sw_texture.c):
// level n + 1 is max(1, w >> 1) x max(1, h >> 1) and its texel (x, y) is the rounded mean of the
// texels (2x + i, 2y + j), i, j in {0, 1}, of level n, each clamped to level n's last texel. Every
// level is a byte per channel before the next reads it, and the mean of four bytes is
// (a + b + c + d + 2) >> 2, the software renderer's integer path (equal to its float rule), so
// the result does not depend on how the GPU rounds floats to unorm; a byte k is stored as k / 255,
// which every implementation encodes back to k.
//
// Work: a workgroup of 256 threads owns a 64x64 tile of the first level it writes (level B + 1
// from level B, read through Source) and reduces it in registers and shared memory through
// levels B + 2 .. B + 6 (32x32 ... 2x2 texels of the tile), so no level waits for another
// workgroup. The next dispatch starts from level B + 6.
// Clamping: a texel (x, y) of a level that exists has 2x + 1 <= w - 1 whenever w > 1, so the
// clamp only matters where a level is 1 wide (or high): there the second column (row) is the
// first one again. Lanes past a level's edge compute values nobody stores or reads.
//
// Bindings (set 0, push descriptors): 0 = level B (sampled image), 1..6 = levels B + 1 .. B + 6
// (storage images; the ones past Count repeat a level and are never written).
// Push constants: Size = level B's width and height, Count = levels to write (1..6).
#version 450
#extension GL_EXT_samplerless_texture_functions : require

layout(local_size_x = 256) in;

layout(set = 0, binding = 0) uniform texture2D Source;
// six bindings rather than an array: a store's level is then a constant, with no need for
// dynamic indexing of storage image arrays
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D Level1;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D Level2;
layout(set = 0, binding = 3, rgba8) uniform writeonly image2D Level3;
layout(set = 0, binding = 4, rgba8) uniform writeonly image2D Level4;
layout(set = 0, binding = 5, rgba8) uniform writeonly image2D Level5;
layout(set = 0, binding = 6, rgba8) uniform writeonly image2D Level6;

layout(push_constant) uniform Params {
    ivec2 Size;
    int Count;
} pc;

shared uint Tile[256]; // level B + 3 (16x16), then B + 5 (4x4) in its first 16 entries
shared uint Tile2[64]; // level B + 4 (8x8)

uvec4 fetch(ivec2 p)
{
    // k / 255 times 255 is within a rounding step of k
    return uvec4(texelFetch(Source, p, 0) * 255.0 + 0.5);
}

uvec4 mean4(uvec4 a, uvec4 b, uvec4 c, uvec4 d)
{
    return (a + b + c + d + 2u) >> 2u;
}

uint pack(uvec4 v)
{
    return v.x | (v.y << 8u) | (v.z << 16u) | (v.w << 24u);
}

uvec4 unpack(uint v)
{
    return uvec4(v & 255u, (v >> 8u) & 255u, (v >> 16u) & 255u, v >> 24u);
}

ivec2 level_size(int k)
{
    return max(pc.Size >> k, ivec2(1));
}

// level B + K (image IMG); texels past the level's edge are not the level's
#define STORE(K, IMG, P, V)                                                                      \
    if (K <= pc.Count && all(lessThan(P, level_size(K)))) imageStore(IMG, P, vec4(V) / 255.0)

// the mean of a 2x2 of a level from its four texels in row order, the second column (row)
// standing in for the first where the level is 1 wide (high): the clamp
uvec4 mean_quad(uvec4 q0, uvec4 q1, uvec4 q2, uvec4 q3, bvec2 two)
{
    return mean4(q0, two.x ? q1 : q0, two.y ? q2 : q0, two.x ? (two.y ? q3 : q1) : (two.y ? q2 : q0));
}

void main()
{
    uint gi = gl_LocalInvocationIndex;
    ivec2 lane = ivec2(int(gi & 15u), int(gi >> 4u));
    ivec2 tile = ivec2(gl_WorkGroupID.xy) * 64; // origin of the tile in level B + 1
    ivec2 last = pc.Size - 1;
    ivec2 s1 = level_size(1), s2 = level_size(2);
    bvec2 two1 = greaterThan(s1, ivec2(1)), two2 = greaterThan(s2, ivec2(1));

    // this lane: a 4x4 block of level B + 1, its 2x2 of B + 2 and its texel of B + 3
    uvec4 l2[4];
    for (int q = 0; q < 4; q++) {
        ivec2 p2 = (tile >> 1) + lane * 2 + ivec2(q & 1, q >> 1);
        uvec4 l1[4];
        for (int c = 0; c < 4; c++) {
            ivec2 p1 = p2 * 2 + ivec2(c & 1, c >> 1);
            ivec2 a = min(p1 * 2, last), b = min(p1 * 2 + 1, last);
            l1[c] = mean4(fetch(a), fetch(ivec2(b.x, a.y)), fetch(ivec2(a.x, b.y)), fetch(b));
            STORE(1, Level1, p1, l1[c]);
        }
        l2[q] = mean_quad(l1[0], l1[1], l1[2], l1[3], two1);
        STORE(2, Level2, p2, l2[q]);
    }
    if (pc.Count < 3) return; // uniform: every lane leaves
    uvec4 l3 = mean_quad(l2[0], l2[1], l2[2], l2[3], two2);
    STORE(3, Level3, (tile >> 2) + lane, l3);
    if (pc.Count < 4) return;
    Tile[gi] = pack(l3);
    barrier();

    // level B + 4: 8x8 texels of the tile from the 16x16 of B + 3
    // the offset of the second column (row): 0 where level B + 3 is 1 wide (high), the clamp
    ivec2 o3 = ivec2(greaterThan(level_size(3), ivec2(1)));
    if (gi < 64u) {
        ivec2 p = ivec2(int(gi & 7u), int(gi >> 3u));
        int i0 = p.y * 2 * 16 + p.x * 2;
        uvec4 v = mean4(unpack(Tile[i0]), unpack(Tile[i0 + o3.x]), unpack(Tile[i0 + 16 * o3.y]),
                        unpack(Tile[i0 + 16 * o3.y + o3.x]));
        STORE(4, Level4, (tile >> 3) + p, v);
        Tile2[gi] = pack(v);
    }
    if (pc.Count < 5) return;
    barrier();

    // level B + 5: 4x4 from the 8x8 of B + 4
    ivec2 o4 = ivec2(greaterThan(level_size(4), ivec2(1)));
    if (gi < 16u) {
        ivec2 p = ivec2(int(gi & 3u), int(gi >> 2u));
        int i0 = p.y * 2 * 8 + p.x * 2;
        uvec4 v = mean4(unpack(Tile2[i0]), unpack(Tile2[i0 + o4.x]), unpack(Tile2[i0 + 8 * o4.y]),
                        unpack(Tile2[i0 + 8 * o4.y + o4.x]));
        STORE(5, Level5, (tile >> 4) + p, v);
        Tile[gi] = pack(v);
    }
    if (pc.Count < 6) return;
    barrier();

    // level B + 6: 2x2 from the 4x4 of B + 5
    ivec2 o5 = ivec2(greaterThan(level_size(5), ivec2(1)));
    if (gi < 4u) {
        ivec2 p = ivec2(int(gi & 1u), int(gi >> 1u));
        int i0 = p.y * 2 * 4 + p.x * 2;
        uvec4 v = mean4(unpack(Tile[i0]), unpack(Tile[i0 + o5.x]), unpack(Tile[i0 + 4 * o5.y]),
                        unpack(Tile[i0 + 4 * o5.y + o5.x]));
        STORE(6, Level6, (tile >> 5) + p, v);
    }
}
