// sprite.hlsl - the raw halves' sprite shaders of vk-raw-bench and d3d12-raw-bench (XNA 4.0's
// SpriteEffect, shader model 4/5): the shaders a raw Vulkan or Direct3D 12 loop would write for
// the bench's textured quads. The library's own SpriteEffect is shaders/stock/sprite.fx.
//
// Constants: one cbuffer at b0, MatrixTransform: XNA matrix (row-major, row vectors),
//   clip = float4(pos, 1) * M.
// Texture and sampler: slot 0 (t0, s0).
// Vertex input: POSITION0 (float3; w is 1), COLOR0 (UNORM8x4), TEXCOORD0 (float2).
// Entry points: VSMain (vertex), PSMain (pixel).
// SPIR-V: compiled at build time (CMakeLists.txt, vk-raw-bench) with bindings cbuffer b0 -> 0,
//   t0 -> 1, s0 -> 2. DXBC: sprite_vs.h / sprite_ps.h, made by shaders/compile-dxbc.sh's compile
//   function (Wine's d3dcompiler_47, vs_5_0 / ps_5_0) when these were stock shaders.

cbuffer SpriteParameters : register(b0)
{
    row_major float4x4 MatrixTransform;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Position : POSITION0;
    float4 Color    : COLOR0;
    float2 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 Color    : COLOR0;
    float2 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOutput VSMain(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(float4(vin.Position.xyz, 1.0), MatrixTransform);
    vout.Color = vin.Color;
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 PSMain(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord) * pin.Color;
}
