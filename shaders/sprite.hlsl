// sprite.hlsl - the stock SpriteEffect (XNA 4.0 SpriteEffect.fx), shader model 4/5.
//
// Constants: xgdi_sprite_constants (src/core/renderer.h), one cbuffer at b0.
//   MatrixTransform   XNA matrix (row-major, row vectors): clip = float4(pos, 1) * M.
//                     SpriteBatch sets transform * pixel projection of the viewport.
// Texture and sampler: slot 0 (t0, s0).
// Vertex input: POSITION0 (float3; w is 1), COLOR0 (UNORM8x4), TEXCOORD0 (float2).
// Entry points: VSMain (vertex), PSMain (pixel). No variants.
//
// The software renderer (src/renderers/software/sw_shader.c) computes the same thing:
// clip = pos * MatrixTransform; colour = tex(uv) * vertex colour.

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
