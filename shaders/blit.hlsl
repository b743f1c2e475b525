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
