// skinned.fx - XNA 4.0's SkinnedEffect as an xgd effect (HLSL, compiled ahead of time to .xfx
// by shaders/compile-stock-xfx.sh; src/graphics/stock_effects.c loads it and derives the
// parameters from SkinnedEffect's properties as XNA's OnApply does).
//
// Techniques, in this order (stock_effects.c picks them by index): SkinnedEffect_1Bones,
// _2Bones, _4Bones (WeightsPerVertex), then the same three with _PixelLighting
// (PreferPerPixelLighting). Vertex input POSITION0, NORMAL0, TEXCOORD0, BLENDINDICES0,
// BLENDWEIGHT0.
//   skin = sum over the first WeightsPerVertex i of Bones[BlendIndices[i]] * BlendWeight[i]
//   (float4x3, at most 72 bones); position.xyz = float4(position, 1) * skin, normal =
//   normal * (float3x3)skin.
//   Lighting (XNA's ComputeLights, three directional lights): E = normalize(EyePosition -
//   worldPos), N = normalize(normal * WorldInverseTranspose); per light dotL = dot(N, -L),
//   zeroL = dotL >= 0, H = normalize(E - L), diffuse += zeroL * dotL * LightDiffuse,
//   specular += pow(max(dot(N, H), 0) * zeroL, SpecularPower) * LightSpecular; diffuse =
//   diffuse * DiffuseColor.rgb + EmissiveColor, specular *= SpecularColor.
//   Vertex lighting: both colours per vertex, saturated (Direct3D 9 clamps COLOR outputs);
//   pixel: colour = Texture.Sample(uv) * diffuse (a = DiffuseColor.a), rgb += specular * a.
//   Pixel lighting: world position and normal interpolated; colour = Texture.Sample(uv) *
//   (1, 1, 1, DiffuseColor.a), rgb *= diffuse, rgb += specular * a (not clamped, as XNA).
//   Fog: rgb = lerp(rgb, FogColor * a, factor), factor = saturate(dot(float4(skinnedPos, 1),
//   FogVector)) per vertex (a zero FogVector with fog off).

cbuffer SkinnedParameters : register(b0)
{
    float4 DiffuseColor;
    float3 EmissiveColor;
    float3 SpecularColor;
    float SpecularPower;
    float3 DirLight0Direction;
    float3 DirLight0DiffuseColor;
    float3 DirLight0SpecularColor;
    float3 DirLight1Direction;
    float3 DirLight1DiffuseColor;
    float3 DirLight1SpecularColor;
    float3 DirLight2Direction;
    float3 DirLight2DiffuseColor;
    float3 DirLight2SpecularColor;
    float3 EyePosition;
    float3 FogColor;
    float4 FogVector;
    float4x4 World;
    float3x3 WorldInverseTranspose;
    float4x4 WorldViewProj;
    float4x3 Bones[72];
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Position : POSITION0;
    float3 Normal   : NORMAL0;
    float2 TexCoord : TEXCOORD0;
    float4 Indices  : BLENDINDICES0;   // Byte4 indices read as floats, as Direct3D 9 reads them
    float4 Weights  : BLENDWEIGHT0;
};

struct VSOutputVertex
{
    float4 Diffuse  : COLOR0;
    float4 Specular : COLOR1;   // w = fog factor
    float2 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

struct VSOutputPixel
{
    float4 Diffuse    : COLOR0;
    float2 TexCoord   : TEXCOORD0;
    float4 PositionWS : TEXCOORD1;  // w = fog factor
    float3 NormalWS   : TEXCOORD2;
    float4 Position   : SV_Position;
};

// One light I into the locals sumDiffuse and sumSpecular, from the locals eyeVector and
// worldNormal (unit vectors).
#define XGD_LIGHT(I)                                                                          \
    {                                                                                        \
        float dotL = dot(worldNormal, -DirLight##I##Direction);                              \
        float zeroL = (float)(dotL >= 0.0);                                                  \
        float3 halfVec = normalize(eyeVector - DirLight##I##Direction);                      \
        float dotH = dot(halfVec, worldNormal);                                              \
        sumDiffuse += zeroL * dotL * DirLight##I##DiffuseColor;                              \
        sumSpecular += pow(max(dotH, 0.0) * zeroL, SpecularPower) * DirLight##I##SpecularColor; \
    }

#define XGD_COMPUTE_LIGHTS(LDIFF, LSPEC)                                                      \
    {                                                                                        \
        float3 sumDiffuse = float3(0.0, 0.0, 0.0);                                           \
        float3 sumSpecular = float3(0.0, 0.0, 0.0);                                          \
        XGD_LIGHT(0)                                                                         \
        XGD_LIGHT(1)                                                                         \
        XGD_LIGHT(2)                                                                         \
        LDIFF = sumDiffuse * DiffuseColor.rgb + EmissiveColor;                               \
        LSPEC = sumSpecular * SpecularColor;                                                 \
    }

// The skinned position (w = 1) and normal of vin for the first N weights: locals pos, normal.
#define XGD_BONE(C) (Bones[(int)vin.Indices.C] * vin.Weights.C)
#define XGD_SKIN_1 XGD_BONE(x)
#define XGD_SKIN_2 (XGD_BONE(x) + XGD_BONE(y))
#define XGD_SKIN_4 (XGD_BONE(x) + XGD_BONE(y) + XGD_BONE(z) + XGD_BONE(w))
#define XGD_SKIN(N)                                                                           \
    float4x3 skin = XGD_SKIN_##N;                                                            \
    float4 pos = float4(mul(float4(vin.Position.xyz, 1.0), skin), 1.0);                      \
    float3 normal = mul(vin.Normal, (float3x3)skin);

#define XGD_VS_VERTEX(NAME, N)                                                                \
    VSOutputVertex NAME(VSInput vin)                                                         \
    {                                                                                        \
        VSOutputVertex vout;                                                                 \
        XGD_SKIN(N)                                                                          \
        vout.Position = mul(pos, WorldViewProj);                                             \
        float3 posWS = mul(pos, World).xyz;                                                  \
        float3 eyeVector = normalize(EyePosition - posWS);                                   \
        float3 worldNormal = normalize(mul(normal, WorldInverseTranspose));                  \
        float3 lightDiffuse;                                                                 \
        float3 lightSpecular;                                                                \
        XGD_COMPUTE_LIGHTS(lightDiffuse, lightSpecular)                                      \
        vout.Diffuse = saturate(float4(lightDiffuse, DiffuseColor.a));                       \
        vout.Specular = saturate(float4(lightSpecular, dot(pos, FogVector)));                \
        vout.TexCoord = vin.TexCoord;                                                        \
        return vout;                                                                         \
    }

#define XGD_VS_PIXEL(NAME, N)                                                                 \
    VSOutputPixel NAME(VSInput vin)                                                          \
    {                                                                                        \
        VSOutputPixel vout;                                                                  \
        XGD_SKIN(N)                                                                          \
        vout.Position = mul(pos, WorldViewProj);                                             \
        vout.PositionWS = float4(mul(pos, World).xyz, saturate(dot(pos, FogVector)));        \
        vout.NormalWS = normalize(mul(normal, WorldInverseTranspose));                       \
        vout.Diffuse = saturate(float4(1.0, 1.0, 1.0, DiffuseColor.a));                      \
        vout.TexCoord = vin.TexCoord;                                                        \
        return vout;                                                                         \
    }

XGD_VS_VERTEX(VSSkinned1, 1)
XGD_VS_VERTEX(VSSkinned2, 2)
XGD_VS_VERTEX(VSSkinned4, 4)
XGD_VS_PIXEL(VSSkinnedPixel1, 1)
XGD_VS_PIXEL(VSSkinnedPixel2, 2)
XGD_VS_PIXEL(VSSkinnedPixel4, 4)

float4 PSSkinnedVertex(VSOutputVertex pin) : SV_Target0
{
    float4 color = Texture.Sample(TextureSampler, pin.TexCoord) * pin.Diffuse;
    color.rgb += pin.Specular.rgb * color.a;
    color.rgb = lerp(color.rgb, FogColor * color.a, pin.Specular.w);
    return color;
}

float4 PSSkinnedPixel(VSOutputPixel pin) : SV_Target0
{
    float4 color = Texture.Sample(TextureSampler, pin.TexCoord) * pin.Diffuse;
    float3 eyeVector = normalize(EyePosition - pin.PositionWS.xyz);
    float3 worldNormal = normalize(pin.NormalWS);
    float3 lightDiffuse;
    float3 lightSpecular;
    XGD_COMPUTE_LIGHTS(lightDiffuse, lightSpecular)
    color.rgb *= lightDiffuse;
    color.rgb += lightSpecular * color.a;
    color.rgb = lerp(color.rgb, FogColor * color.a, pin.PositionWS.w);
    return color;
}

technique SkinnedEffect_1Bones
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinned1();
        PixelShader = compile ps_4_0 PSSkinnedVertex();
    }
}

technique SkinnedEffect_2Bones
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinned2();
        PixelShader = compile ps_4_0 PSSkinnedVertex();
    }
}

technique SkinnedEffect_4Bones
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinned4();
        PixelShader = compile ps_4_0 PSSkinnedVertex();
    }
}

technique SkinnedEffect_1Bones_PixelLighting
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinnedPixel1();
        PixelShader = compile ps_4_0 PSSkinnedPixel();
    }
}

technique SkinnedEffect_2Bones_PixelLighting
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinnedPixel2();
        PixelShader = compile ps_4_0 PSSkinnedPixel();
    }
}

technique SkinnedEffect_4Bones_PixelLighting
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSSkinnedPixel4();
        PixelShader = compile ps_4_0 PSSkinnedPixel();
    }
}

