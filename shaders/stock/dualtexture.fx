// dualtexture.fx - XNA 4.0's DualTextureEffect as an xgd effect (HLSL, compiled ahead of time
// to .xfx by shaders/compile-stock-xfx.sh; src/graphics/stock_effects.c loads it and derives
// the parameters from DualTextureEffect's properties as XNA's OnApply does).
//
// Techniques: DualTextureEffect (POSITION0, TEXCOORD0, TEXCOORD1) and
// DualTextureEffect_VertexColor (+ COLOR0). XNA's fog permutations are uniform values here:
//   colour = Texture.Sample(uv); colour.rgb *= 2; colour *= Texture2.Sample(uv2) * DiffuseColor
//   (* vertex colour)   (modulate2x in rgb, the product of the alphas in a);
//   fog: rgb = lerp(rgb, FogColor * a, factor), factor = saturate(dot(float4(pos, 1),
//   FogVector)) per vertex (a zero FogVector with fog off).
// Vertex colours are saturated by the vertex shader, as Direct3D 9 clamps COLOR outputs.

cbuffer DualTextureParameters : register(b0)
{
    float4 DiffuseColor;
    float3 FogColor;
    float4 FogVector;
    float4x4 WorldViewProj;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);
Texture2D<float4> Texture2 : register(t1);
SamplerState Texture2Sampler : register(s1);

struct VSInput
{
    float4 Position  : POSITION0;
    float2 TexCoord  : TEXCOORD0;
    float2 TexCoord2 : TEXCOORD1;
};

struct VSInputVc
{
    float4 Position  : POSITION0;
    float2 TexCoord  : TEXCOORD0;
    float2 TexCoord2 : TEXCOORD1;
    float4 Color     : COLOR0;
};

struct VSOutput
{
    float4 Diffuse   : COLOR0;
    float4 Specular  : COLOR1;  // w = fog factor
    float2 TexCoord  : TEXCOORD0;
    float2 TexCoord2 : TEXCOORD1;
    float4 Position  : SV_Position;
};

#define XGD_VS_BODY(COLOR)                                                                    \
    VSOutput vout;                                                                           \
    float4 pos = float4(vin.Position.xyz, 1.0);                                              \
    vout.Position = mul(pos, WorldViewProj);                                                 \
    vout.Diffuse = saturate(COLOR);                                                          \
    vout.Specular = float4(0.0, 0.0, 0.0, saturate(dot(pos, FogVector)));                    \
    vout.TexCoord = vin.TexCoord;                                                            \
    vout.TexCoord2 = vin.TexCoord2;                                                          \
    return vout;

VSOutput VSDualTexture(VSInput vin)
{
    XGD_VS_BODY(DiffuseColor)
}

VSOutput VSDualTextureVc(VSInputVc vin)
{
    XGD_VS_BODY(vin.Color * DiffuseColor)
}

float4 PSDualTexture(VSOutput pin) : SV_Target0
{
    float4 color = Texture.Sample(TextureSampler, pin.TexCoord);
    float4 overlay = Texture2.Sample(Texture2Sampler, pin.TexCoord2);
    color.rgb *= 2.0;
    color *= overlay * pin.Diffuse;
    color.rgb = lerp(color.rgb, FogColor * color.a, pin.Specular.w);
    return color;
}

technique DualTextureEffect
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSDualTexture();
        PixelShader = compile ps_4_0 PSDualTexture();
    }
}

technique DualTextureEffect_VertexColor
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSDualTextureVc();
        PixelShader = compile ps_4_0 PSDualTexture();
    }
}
