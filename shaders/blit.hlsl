// blit.hlsl - the GPU renderers' internal blit: mip generation and sample fill (not an XNA
// effect). Shader model 4/5; written for Wine's d3dcompiler_47 too (no user function calls).
//
// Constants (b0): Params = (source width, source height, scale, 0).
//   scale 2: mip generation. Destination texel (x, y) is the average of source texels
//            (2x + i, 2y + j), i, j in {0, 1}, each clamped to the source (an odd edge repeats
//            its last texel), in float; the target's format encodes it. This is the software
//            renderer's box filter (src/renderers/software/sw_texture.c).
//   scale 1: copy; destination texel (x, y) = source texel (x, y) (fills every sample of a
//            multisampled target from its single-sampled image).
// Source: t0, one level and slice of the source (a Texture2DArray view of one slice).
// Vertex stage: a full-screen triangle from SV_VertexID, no vertex buffer.
// PSMipUnorm8: mip generation of 8-bit unorm formats (Color) by the same box in whole numbers:
//   each texel's bytes (k / 255 times 255 is within a rounding step of k), (a + b + c + d + 2) / 4
//   per channel (the software renderer's integer path, equal to its float rule), stored as k / 255,
//   which the format encodes back to k. The float mean above leaves a tie ((a + b + c + d) % 4
//   == 2) to the GPU's float-to-unorm rounding, which goes either way.
// PSMipChain2/3: K = 2 or 3 levels of a Color chain in one draw, B + 1 .. B + K from level B
//   (t0, size Params.xy), the same rule in whole numbers, each level's bytes before the next
//   level reads them. No render target: the draw covers a grid of ceil(width(B + 1) / 2^(K-1)) x
//   ceil(height(B + 1) / 2^(K-1)) pixels (the viewport), and pixel p writes the 2^(K-1)-square
//   block of level B + 1 at 2^(K-1) p (u0), ..., texel p of level B + K (u(K-1)), each a UAV of
//   one level; texels past a level's edge are out of its view, where a UAV store does nothing.
//   So every level is whole, odd edges included, without waiting for the others. A texel (x, y)
//   of a level that exists has 2x + 1 <= w - 1 whenever w > 1, so the clamp to the last texel
//   only matters where a level is 1 wide (high): there the second column (row) is the first
//   again. Every texel is spelt out by object-like macros (Wine 8.0's preprocessor loses a
//   macro argument handed on to another macro), which also leaves the loads free to overlap;
//   four levels (256 loads a pixel) would make a DXBC blob of about 300 KB. Halving is a shift:
//   that compiler fails an assertion on a vector integer division.

cbuffer BlitParameters : register(b0)
{
    int4 Params;
};

Texture2DArray<float4> Source : register(t0);

float4 VSMain(uint id : SV_VertexID) : SV_Position
{
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
}

float4 PSMain(float4 pos : SV_Position) : SV_Target0
{
    int2 p = int2(pos.xy) * Params.z;
    int2 last = Params.xy - 1;
    int2 q = min(p + (Params.z - 1), last);
    float4 a = Source.Load(int4(min(p.x, last.x), min(p.y, last.y), 0, 0));
    float4 b = Source.Load(int4(q.x, min(p.y, last.y), 0, 0));
    float4 c = Source.Load(int4(min(p.x, last.x), q.y, 0, 0));
    float4 d = Source.Load(int4(q.x, q.y, 0, 0));
    return (a + b + c + d) * 0.25;
}

float4 PSMipUnorm8(float4 pos : SV_Position) : SV_Target0
{
    int2 p = int2(pos.xy) * 2;
    int2 last = Params.xy - 1;
    int2 a = min(p, last);
    int2 b = min(p + 1, last);
    uint4 t0 = uint4(Source.Load(int4(a.x, a.y, 0, 0)) * 255.0 + 0.5);
    uint4 t1 = uint4(Source.Load(int4(b.x, a.y, 0, 0)) * 255.0 + 0.5);
    uint4 t2 = uint4(Source.Load(int4(a.x, b.y, 0, 0)) * 255.0 + 0.5);
    uint4 t3 = uint4(Source.Load(int4(b.x, b.y, 0, 0)) * 255.0 + 0.5);
    return float4((t0 + t1 + t2 + t3 + 2) / 4) / 255.0;
}

RWTexture2D<float4> Level1 : register(u0);
RWTexture2D<float4> Level2 : register(u1);
RWTexture2D<float4> Level3 : register(u2);

// mv = the mean of the 2x2 m0 m1 / m2 m3 of a level; mt.x (.y) is 1 where the level is more
// than 1 wide (high), else 0: the second column (row) then repeats the first (the clamp)
#define MIP_MEAN_QUAD \
    m1 = m0 + (m1 - m0) * mt.x; \
    m3 = m2 + (m3 - m2) * mt.x; \
    m2 = m0 + (m2 - m0) * mt.y; \
    m3 = m1 + (m3 - m1) * mt.y; \
    mv = (m0 + m1 + m2 + m3 + 2) >> 2;

// texel p1 of level B + 1 into v1, stored (the source's texels clamped to its last one)
#define MIP_LEVEL1_TEXEL \
    a = min(p1 * 2, last); \
    b = min(p1 * 2 + 1, last); \
    v1 = (uint4(Source.Load(int4(a.x, a.y, 0, 0)) * 255.0 + 0.5) + \
          uint4(Source.Load(int4(b.x, a.y, 0, 0)) * 255.0 + 0.5) + \
          uint4(Source.Load(int4(a.x, b.y, 0, 0)) * 255.0 + 0.5) + \
          uint4(Source.Load(int4(b.x, b.y, 0, 0)) * 255.0 + 0.5) + 2) >> 2; \
    Level1[p1] = float4(v1) / 255.0;

// texel p2 of level B + 2 into v2, stored, after its 2x2 of level B + 1
#define MIP_LEVEL2_TEXEL \
    p1 = p2 * 2; \
    MIP_LEVEL1_TEXEL \
    q0 = v1; \
    p1 = p2 * 2 + int2(1, 0); \
    MIP_LEVEL1_TEXEL \
    q1 = v1; \
    p1 = p2 * 2 + int2(0, 1); \
    MIP_LEVEL1_TEXEL \
    q2 = v1; \
    p1 = p2 * 2 + int2(1, 1); \
    MIP_LEVEL1_TEXEL \
    m0 = q0; \
    m1 = q1; \
    m2 = q2; \
    m3 = v1; \
    mt = t1; \
    MIP_MEAN_QUAD \
    v2 = mv; \
    Level2[p2] = float4(v2) / 255.0;

// texel p3 of level B + 3, stored, after its 2x2 of level B + 2
#define MIP_LEVEL3_TEXEL \
    p2 = p3 * 2; \
    MIP_LEVEL2_TEXEL \
    r0 = v2; \
    p2 = p3 * 2 + int2(1, 0); \
    MIP_LEVEL2_TEXEL \
    r1 = v2; \
    p2 = p3 * 2 + int2(0, 1); \
    MIP_LEVEL2_TEXEL \
    r2 = v2; \
    p2 = p3 * 2 + int2(1, 1); \
    MIP_LEVEL2_TEXEL \
    m0 = r0; \
    m1 = r1; \
    m2 = r2; \
    m3 = v2; \
    mt = t2; \
    MIP_MEAN_QUAD \
    Level3[p3] = float4(mv) / 255.0;

// what every PSMipChain starts with: its pixel, the source's last texel, the clamp flags of
// levels B + 1 and B + 2 and the temporaries of the macros above
#define MIP_CHAIN_BEGIN \
    int2 p = int2(pos.xy); \
    int2 last = Params.xy - 1; \
    uint2 t1 = uint2(min(max(Params.xy >> 1, 1) - 1, 1)); \
    uint2 t2 = uint2(min(max(Params.xy >> 2, 1) - 1, 1)); \
    int2 a, b, p1, p2, p3; \
    uint2 mt; \
    uint4 v1, v2, q0, q1, q2, r0, r1, r2, m0, m1, m2, m3, mv;

void PSMipChain2(float4 pos : SV_Position)
{
    MIP_CHAIN_BEGIN
    p2 = p;
    MIP_LEVEL2_TEXEL
}

void PSMipChain3(float4 pos : SV_Position)
{
    MIP_CHAIN_BEGIN
    p3 = p;
    MIP_LEVEL3_TEXEL
}
