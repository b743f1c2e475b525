// basic.hlsl - the stock BasicEffect (XNA 4.0 BasicEffect.fx with Common.fxh and
// Lighting.fxh), shader model 4/5, one source for every variant.
//
// Variants: the preprocessor defines below, one per XGDI_BASIC_* bit (src/core/renderer.h).
// Variant number v compiles with each define whose bit is set in v (32 combinations):
//   VERTEX_COLOR  1   multiply by vertex COLOR0
//   TEXTURE       2   multiply by Texture (t0, s0) at TEXCOORD0
//   LIGHTING      4   three directional lights (NORMAL0 required)
//   PER_PIXEL     8   lighting evaluated per pixel (only meaningful with LIGHTING; core sets
//                     it only then, and without LIGHTING it changes nothing)
//   FOG          16   linear fog from FogVector
//
// Constants: xgdi_basic_constants, one cbuffer at b0, every member 16-byte aligned (byte
// offsets in brackets). The values are prepared by src/graphics/effect.c (see its header).
//
// The math, identical to src/renderers/software/sw_shader.c:
//   unlit:   diffuse = DiffuseColor (* vertex colour); specular 0.
//   lit:     N = normalize(normal * WorldInverseTranspose), E = normalize(EyePosition -
//            worldPos); for each light i: dotL = dot(N, -L_i), zeroL = step(0, dotL),
//            H = normalize(E - L_i), diffuse += zeroL * dotL * LightDiffuse_i,
//            specular += pow(max(dot(N, H), 0) * zeroL, SpecularPower) * LightSpecular_i;
//            diffuse.rgb = diffuse * DiffuseColor.rgb + EmissiveColor.rgb, alpha DiffuseColor.a;
//            specular *= SpecularColor.
//            Vertex lighting does this per vertex (then * vertex colour); per-pixel lighting
//            interpolates world position and normal and multiplies the light diffuse into
//            the colour in the pixel shader (vertex colour rgb, alpha * DiffuseColor.a).
//   pixel:   colour = diffuse (* texture); colour.rgb += specular * colour.a;
//            fog: colour.rgb = lerp(colour.rgb, FogColor.rgb * colour.a, fogFactor),
//            fogFactor = saturate(dot(float4(objectPos, 1), FogVector)) per vertex.

cbuffer BasicParameters : register(b0)
{
    float4 DiffuseColor;               // [0]   rgb premultiplied by alpha, a = Alpha
    float4 EmissiveColor;              // [16]  lit only: (Emissive + Ambient * Diffuse) * Alpha
    float4 SpecularColorPower;         // [32]  rgb = SpecularColor, a = SpecularPower
    float4 LightDirection[3];          // [48]  normalised, w unused
    float4 LightDiffuse[3];            // [96]  zero for a disabled light
    float4 LightSpecular[3];           // [144] zero for a disabled light
    float4 EyePosition;                // [192] world-space eye
    float4 FogColor;                   // [208]
    float4 FogVector;                  // [224]
    row_major float4x4 World;          // [240]
    float4 WorldInverseTranspose[3];   // [304] rows of the 3x3 part
    row_major float4x4 WorldViewProj;  // [352] .. 416 bytes
};

#ifdef TEXTURE
Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);
#endif

#if defined(LIGHTING) && defined(PER_PIXEL)
#define PIXEL_LIGHTING 1
#endif
#if defined(LIGHTING) && !defined(PER_PIXEL)
#define VERTEX_LIGHTING 1
#endif

struct VSInput
{
    float4 Position : POSITION0;
#ifdef LIGHTING
    float3 Normal   : NORMAL0;
#endif
#ifdef VERTEX_COLOR
    float4 Color    : COLOR0;
#endif
#ifdef TEXTURE
    float2 TexCoord : TEXCOORD0;
#endif
};

struct VSOutput
{
    float4 Diffuse    : COLOR0;
    float4 Specular   : COLOR1;     // rgb = vertex specular, w = fog factor
#ifdef TEXTURE
    float2 TexCoord   : TEXCOORD0;
#endif
#ifdef PIXEL_LIGHTING
    float3 PositionWS : TEXCOORD1;
    float3 NormalWS   : TEXCOORD2;
#endif
    float4 Position   : SV_Position;
};

struct Lights
{
    float3 Diffuse;
    float3 Specular;
};

#ifdef LIGHTING
Lights ComputeLights(float3 eyeVector, float3 worldNormal)
{
    float3 diffuse = 0;
    float3 specular = 0;
    [unroll]
    for (int i = 0; i < 3; i++)
    {
        float3 L = LightDirection[i].xyz;
        float dotL = dot(worldNormal, -L);
        float zeroL = step(0.0, dotL);
        float3 H = normalize(eyeVector - L);
        float dotH = dot(H, worldNormal);
        diffuse += zeroL * dotL * LightDiffuse[i].rgb;
        specular += pow(max(dotH, 0.0) * zeroL, SpecularColorPower.a) * LightSpecular[i].rgb;
    }
    Lights result;
    result.Diffuse = diffuse * DiffuseColor.rgb + EmissiveColor.rgb;
    result.Specular = specular * SpecularColorPower.rgb;
    return result;
}

float3 WorldNormal(float3 n)
{
    return normalize(n.x * WorldInverseTranspose[0].xyz + n.y * WorldInverseTranspose[1].xyz +
                     n.z * WorldInverseTranspose[2].xyz);
}
#endif

float ComputeFogFactor(float4 objectPosition)
{
#ifdef FOG
    return saturate(dot(objectPosition, FogVector));
#else
    return 0.0;
#endif
}

VSOutput VSMain(VSInput vin)
{
    VSOutput vout;
    float4 pos = float4(vin.Position.xyz, 1.0);
    vout.Position = mul(pos, WorldViewProj);
    float fog = ComputeFogFactor(pos);
#ifdef TEXTURE
    vout.TexCoord = vin.TexCoord;
#endif

#if defined(VERTEX_LIGHTING)
    float3 posWS = mul(pos, World).xyz;
    float3 eyeVector = normalize(EyePosition.xyz - posWS);
    Lights lights = ComputeLights(eyeVector, WorldNormal(vin.Normal));
    vout.Diffuse = float4(lights.Diffuse, DiffuseColor.a);
#ifdef VERTEX_COLOR
    vout.Diffuse *= vin.Color;
#endif
    vout.Specular = float4(lights.Specular, fog);
#elif defined(PIXEL_LIGHTING)
    vout.PositionWS = mul(pos, World).xyz;
    vout.NormalWS = WorldNormal(vin.Normal);
#ifdef VERTEX_COLOR
    vout.Diffuse = float4(vin.Color.rgb, vin.Color.a * DiffuseColor.a);
#else
    vout.Diffuse = float4(1.0, 1.0, 1.0, DiffuseColor.a);
#endif
    vout.Specular = float4(0.0, 0.0, 0.0, fog);
#else
    vout.Diffuse = DiffuseColor;
#ifdef VERTEX_COLOR
    vout.Diffuse *= vin.Color;
#endif
    vout.Specular = float4(0.0, 0.0, 0.0, fog);
#endif
    return vout;
}

float4 PSMain(VSOutput pin) : SV_Target0
{
    float4 color = pin.Diffuse;
#ifdef TEXTURE
    color *= Texture.Sample(TextureSampler, pin.TexCoord);
#endif

#if defined(PIXEL_LIGHTING)
    float3 eyeVector = normalize(EyePosition.xyz - pin.PositionWS);
    Lights lights = ComputeLights(eyeVector, normalize(pin.NormalWS));
    color.rgb *= lights.Diffuse;
    color.rgb += lights.Specular * color.a;
#elif defined(VERTEX_LIGHTING)
    color.rgb += pin.Specular.rgb * color.a;
#endif

#ifdef FOG
    color.rgb = lerp(color.rgb, FogColor.rgb * color.a, pin.Specular.w);
#endif
    return color;
}
