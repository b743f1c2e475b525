// sprite.fx - XNA 4.0's SpriteEffect as an xgd effect (HLSL, compiled ahead of time to .xfx by
// shaders/compile-stock-xfx.sh; src/graphics/basic_effect.c loads it).
//
// Parameters: MatrixTransform (row_major, XNA's row vectors: clip = float4(pos, 1) * M;
// SpriteBatch sets transform * pixel projection of the viewport), Texture (slot 0, sampled
// with sampler state 0). Vertex input: POSITION0, COLOR0, TEXCOORD0.
// Pixel colour = Texture.Sample(uv) * vertex colour.
//
// The vertex shader reads and writes TEXCOORD0 as a float4 (a float2 element reads as
// (u, v, 0, 1), as Direct3D does): every varying of xgd's shader form is a float4, so a
// pixel-shader-only pass of any effect (fx_2_0 or HLSL) can follow this vertex shader inside
// SpriteBatch, as XNA's custom sprite effects do.

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
    float4 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 Color    : COLOR0;
    float4 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOutput SpriteVertexShader(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(float4(vin.Position.xyz, 1.0), MatrixTransform);
    vout.Color = vin.Color;
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 SpritePixelShader(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord.xy) * pin.Color;
}

technique SpriteBatch
{
    pass
    {
        VertexShader = compile vs_4_0 SpriteVertexShader();
        PixelShader = compile ps_4_0 SpritePixelShader();
    }
}
