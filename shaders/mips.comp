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
// Work: a workgroup of 256 threads owns a 32x32 tile of the first level it writes (level B + 1
// from the 64x64 texels of level B under it, read through Source), a lane 2x2 texels of it, and
// reduces the tile through levels B + 2 .. B + 6 (16x16 texels in the lanes' registers, then
// 8x8 ... 1x1 in shared memory), so no level waits for another workgroup. The next dispatch
// starts from level B + 6. (A 64x64 tile a workgroup would leave most of an H200 idle on a
// 1024x1024 chain's first level: 64 workgroups for 132 multiprocessors.)
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

shared uint Tile[256]; // level B + 2 (16x16), then B + 4 (4x4) in its first 16 entries
shared uint Tile2[64]; // level B + 3 (8x8), then B + 5 (2x2)

// Macros, not functions, and no signed division: the Direct3D 12 renderer translates this
// module to DXBC (src/renderers/d3d12/d3d12_dxbc.c), which takes the entry point alone.

// a texel of level B as bytes (k / 255 times 255 is within a rounding step of k)
#define FETCH(P) uvec4(texelFetch(Source, P, 0) * 255.0 + 0.5)
#define MEAN4(A, B, C, D) (((A) + (B) + (C) + (D) + 2u) >> 2u)
#define PACK(V) ((V).x | ((V).y << 8u) | ((V).z << 16u) | ((V).w << 24u))
#define UNPACK(U) uvec4((U) & 255u, ((U) >> 8u) & 255u, ((U) >> 16u) & 255u, (U) >> 24u)
#define LEVEL_SIZE(K) max(pc.Size >> (K), ivec2(1))

// level B + K (image IMG); texels past the level's edge are not the level's
#define STORE(K, IMG, P, V)                                                                      \
    if (K <= pc.Count && all(lessThan(P, LEVEL_SIZE(K)))) imageStore(IMG, P, vec4(V) / 255.0)

// texel C (row order) of this lane's 2x2 block of level B + 1, into OUT
#define LEVEL1(C, OUT)                                                                           \
    {                                                                                            \
        ivec2 p1 = p2 * 2 + ivec2((C) & 1, (C) >> 1);                                            \
        ivec2 a = min(p1 * 2, last), b = min(p1 * 2 + 1, last);                                  \
        OUT = MEAN4(FETCH(a), FETCH(ivec2(b.x, a.y)), FETCH(ivec2(a.x, b.y)), FETCH(b));         \
        STORE(1, Level1, p1, OUT);                                                               \
    }

// Level B + K (image IMG, SIDE x SIDE texels of the tile) from the 2 SIDE x 2 SIDE of level
// B + K - 1 in shared array SRC, into DST (read no more by then); Count below K: every lane
// leaves (Count is uniform, so the barriers stay in uniform control flow). The second column
// (row) stands in for the first where level B + K - 1 is 1 wide (high): the clamp.
#define REDUCE(K, IMG, SRC, DST, SIDE)                                                           \
    if (pc.Count < K) return;                                                                    \
    barrier();                                                                                   \
    {                                                                                            \
        /* the offset of the second column (row): 0 where level B + K - 1 is 1 wide (high) */    \
        uvec2 o = uvec2(greaterThan(LEVEL_SIZE(K - 1), ivec2(1)));                               \
        if (gi < uint(SIDE * SIDE)) {                                                            \
            uvec2 p = uvec2(gi % uint(SIDE), gi / uint(SIDE));                                   \
            uint i0 = p.y * uint(4 * SIDE) + p.x * 2u;                                           \
            uint s0 = SRC[i0], s1 = SRC[i0 + o.x], s2 = SRC[i0 + uint(2 * SIDE) * o.y];           \
            uint s3 = SRC[i0 + uint(2 * SIDE) * o.y + o.x];                                      \
            uvec4 v = MEAN4(UNPACK(s0), UNPACK(s1), UNPACK(s2), UNPACK(s3));                     \
            STORE(K, IMG, (tile >> (K - 1)) + ivec2(p), v);                                      \
            DST[gi] = PACK(v);                                                                   \
        }                                                                                        \
    }

void main()
{
    uint gi = gl_LocalInvocationIndex;
    ivec2 lane = ivec2(int(gi & 15u), int(gi >> 4u));
    ivec2 tile = ivec2(gl_WorkGroupID.xy) * 32; // origin of the tile in level B + 1
    ivec2 last = pc.Size - 1;

    // this lane: a 2x2 block of level B + 1 and its texel of B + 2
    ivec2 p2 = (tile >> 1) + lane;
    uvec4 q0, q1, q2, q3;
    LEVEL1(0, q0)
    LEVEL1(1, q1)
    LEVEL1(2, q2)
    LEVEL1(3, q3)
    if (pc.Count < 2) return; // uniform: every lane leaves
    // the mean of the 2x2, the second column (row) standing in for the first where level
    // B + 1 is 1 wide (high)
    bvec2 two = greaterThan(LEVEL_SIZE(1), ivec2(1));
    uvec4 c1 = two.x ? q1 : q0, c2 = two.y ? q2 : q0, c3 = two.y ? (two.x ? q3 : q2) : c1;
    uvec4 l2 = MEAN4(q0, c1, c2, c3);
    STORE(2, Level2, p2, l2);
    Tile[gi] = PACK(l2);

    REDUCE(3, Level3, Tile, Tile2, 8)
    REDUCE(4, Level4, Tile2, Tile, 4)
    REDUCE(5, Level5, Tile, Tile2, 2)
    REDUCE(6, Level6, Tile2, Tile, 1)
}
