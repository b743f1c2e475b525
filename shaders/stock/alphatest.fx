// alphatest.fx - XNA 4.0's AlphaTestEffect as an xgd effect (HLSL, compiled ahead of time to
// .xfx by shaders/compile-stock-xfx.sh; src/graphics/stock_effects.c loads it and derives the
// parameters from AlphaTestEffect's properties as XNA's OnApply does).
//
// Techniques: AlphaTestEffect (POSITION0, TEXCOORD0) and AlphaTestEffect_VertexColor (+ COLOR0).
// XNA's alpha-function and fog permutations are uniform values here (the pixels are the same):
//   colour = Texture.Sample(uv) * DiffuseColor (* vertex colour);
//   the pixel is discarded where (value < 0) ? AlphaTest.z : AlphaTest.w is negative, value =
//   a - AlphaTest.x (AlphaTestEqNe = 0: less/greater) or abs(a - AlphaTest.x) - AlphaTest.y
//   (AlphaTestEqNe = 1: equal/not-equal);
//   fog: rgb = lerp(rgb, FogColor * a, factor), factor = saturate(dot(float4(pos, 1),
//   FogVector)) per vertex (a zero FogVector with fog off).
// Vertex colours are saturated by the vertex shader, as Direct3D 9 clamps COLOR outputs.

cbuffer AlphaTestParameters : register(b0)
{
    float4 DiffuseColor;
    float4 AlphaTest;
    float AlphaTestEqNe;
    float3 FogColor;
    float4 FogVector;
    float4x4 WorldViewProj;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
};

struct VSInputVc
{
    float4 Position : POSITION0;
    float2 TexCoord : TEXCOORD0;
    float4 Color    : COLOR0;
};

struct VSOutput
{
    float4 Diffuse  : COLOR0;
    float4 Specular : COLOR1;   // w = fog factor
    float2 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

#define XGD_VS_BODY(COLOR)                                                                    \
    VSOutput vout;                                                                           \
    float4 pos = float4(vin.Position.xyz, 1.0);                                              \
    vout.Position = mul(pos, WorldViewProj);                                                 \
    vout.Diffuse = saturate(COLOR);                                                          \
    vout.Specular = float4(0.0, 0.0, 0.0, saturate(dot(pos, FogVector)));                    \
    vout.TexCoord = vin.TexCoord;                                                            \
    return vout;

VSOutput VSAlphaTest(VSInput vin)
{
    XGD_VS_BODY(DiffuseColor)
}

VSOutput VSAlphaTestVc(VSInputVc vin)
{
    XGD_VS_BODY(vin.Color * DiffuseColor)
}

float4 PSAlphaTest(VSOutput pin) : SV_Target0
{
    float4 color = Texture.Sample(TextureSampler, pin.TexCoord) * pin.Diffuse;
    float d = color.a - AlphaTest.x;
    float value = (AlphaTestEqNe != 0.0) ? abs(d) - AlphaTest.y : d;
    clip((value < 0.0) ? AlphaTest.z : AlphaTest.w);
    color.rgb = lerp(color.rgb, FogColor * color.a, pin.Specular.w);
    return color;
}

technique AlphaTestEffect
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSAlphaTest();
        PixelShader = compile ps_4_0 PSAlphaTest();
    }
}

technique AlphaTestEffect_VertexColor
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSAlphaTestVc();
        PixelShader = compile ps_4_0 PSAlphaTest();
    }
}
