// fill_samples.hlsl - the Vulkan renderer's internal sample fill (not an XNA effect): every
// sample of a multisampled target gets the texel of its single-sampled (resolved) image at the
// same pixel. Vulkan copies and blits only between images of equal sample counts, and a resolve
// goes the other way, so this is a draw. (The Direct3D 12 renderer does the same with the scale
// 1 copy of blit.hlsl.)
// Source: t0 (SPIR-V binding 0), the resolved image's face; Load reads one texel exactly, with
// no sampler, so every format's value is copied unchanged.
// Vertex stage: a full-screen triangle from SV_VertexID, no vertex buffer.

Texture2D<float4> Source : register(t0);

float4 VSMain(uint id : SV_VertexID) : SV_Position
{
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * 2.0 - 1.0, 0.0, 1.0);
}

float4 PSMain(float4 pos : SV_Position) : SV_Target0
{
    return Source.Load(int3(pos.xy, 0));
}
