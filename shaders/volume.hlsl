// volume.hlsl - the EXT VolumeEffect (not an XNA effect), shader model 4/5.
//
// XNA samples a Texture3D only from custom effects (tex3D in HLSL); xgd has no custom shaders,
// so this stock extension program (XGDI_PROGRAM_VOLUME, xgd_volume_effect_create) does it.
//
// Constants: xgdi_volume_constants (src/core/renderer.h), one cbuffer at b0 (80 bytes).
//   Matrix   XNA matrix (row-major, row vectors): clip = float4(pos, 1) * Matrix.
//   Color    multiplier of the sampled colour.
// Texture and sampler: slot 0 (t0, s0) as a Texture3D; the sampler's AddressW and filter apply
// on the third axis (Linear = trilinear across slices).
// Vertex input: POSITION0 (float3; w is 1), TEXCOORD0 read as float3 (u, v, w).
// Entry points: VSMain (vertex), PSMain (pixel). No variants. Output: SV_Target0.
//
// The software renderer (src/renderers/software/sw_shader.c, sw_sample.c) computes the same
// thing: clip = pos * Matrix; colour = tex3D(uvw) * Color.

cbuffer VolumeParameters : register(b0)
{
    row_major float4x4 Matrix;
    float4 Color;
};

Texture3D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Position : POSITION0;
    float3 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float3 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOutput VSMain(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(float4(vin.Position.xyz, 1.0), Matrix);
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 PSMain(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord) * Color;
}
