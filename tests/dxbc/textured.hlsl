// A sprite-like pass: clip = pos * Transform; colour = Texture(uv) * vertex colour * Tint.
cbuffer Parameters : register(b0)
{
    row_major float4x4 Transform;
    float4 Tint;
};
Texture2D Texture : register(t0);
SamplerState Sampler : register(s0);

struct VSOut
{
    float4 Color : TEXCOORD0;
    float2 TexCoord : TEXCOORD1;
    float4 Position : SV_Position;
};

VSOut VSMain(float4 position : TEXCOORD0, float4 color : TEXCOORD1, float2 texCoord : TEXCOORD2)
{
    VSOut o;
    o.Position = mul(position, Transform);
    o.Color = color;
    o.TexCoord = texCoord;
    return o;
}

float4 PSMain(float4 color : TEXCOORD0, float2 texCoord : TEXCOORD1) : SV_Target0
{
    return Texture.Sample(Sampler, texCoord) * color * Tint;
}
