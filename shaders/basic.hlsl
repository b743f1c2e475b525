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
//            worldPos); for each light i: dotL = dot(N, -L_i), zeroL = (dotL >= 0),
//            H = normalize(E - L_i), diffuse += zeroL * dotL * LightDiffuse_i,
//            specular += pow(max(dot(N, H), 0) * zeroL, SpecularPower) * LightSpecular_i;
//            diffuse.rgb = diffuse * DiffuseColor.rgb + EmissiveColor.rgb, alpha DiffuseColor.a;
//            specular *= SpecularColor.
//            Vertex lighting does this per vertex (then * vertex colour, then both colours
//            saturated per vertex, as Direct3D 9 clamps COLOR0/COLOR1); per-pixel lighting
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

// The lighting is written as macros, not functions: Wine 8.0's built-in d3dcompiler (the DXBC
// compiler of shaders/compile-dxbc.sh) implements neither calls to user-defined functions,
// loop attributes such as [unroll], nor step(); the three lights are therefore expanded by
// hand and step(0, dotL) is the comparison (dotL >= 0), which is the same function.

#ifdef LIGHTING
// Both macros read the unit eye vector from a local float3 eyeVector and the unit world normal
// from a local float3 worldNormal (named, not passed: Wine 8.0's preprocessor loses macro
// arguments forwarded into a nested macro call).

// Accumulates light I into the locals sumDiffuse and sumSpecular.
#define XGD_LIGHT(I)                                                                          \
    {                                                                                      \
        float3 lightDir = LightDirection[I].xyz;                                           \
        float dotL = dot(worldNormal, -lightDir);                                          \
        float zeroL = (float)(dotL >= 0.0);                                                \
        float3 halfVec = normalize(eyeVector - lightDir);                                  \
        float dotH = dot(halfVec, worldNormal);                                            \
        sumDiffuse += zeroL * dotL * LightDiffuse[I].rgb;                                  \
        sumSpecular += pow(max(dotH, 0.0) * zeroL, SpecularColorPower.a) *                 \
                       LightSpecular[I].rgb;                                               \
    }

// XNA ComputeLights: sets LDIFF (diffuse * DiffuseColor + emissive) and LSPEC (specular *
// SpecularColor).
#define XGD_COMPUTE_LIGHTS(LDIFF, LSPEC)                                                      \
    {                                                                                      \
        float3 sumDiffuse = float3(0.0, 0.0, 0.0);                                         \
        float3 sumSpecular = float3(0.0, 0.0, 0.0);                                        \
        XGD_LIGHT(0)                                                                       \
        XGD_LIGHT(1)                                                                       \
        XGD_LIGHT(2)                                                                       \
        LDIFF = sumDiffuse * DiffuseColor.rgb + EmissiveColor.rgb;                         \
        LSPEC = sumSpecular * SpecularColorPower.rgb;                                      \
    }

// Object-space normal -> normalised world-space normal (rows of WorldInverseTranspose).
#define XGD_WORLD_NORMAL(n)                                                                   \
    normalize((n).x * WorldInverseTranspose[0].xyz + (n).y * WorldInverseTranspose[1].xyz + \
              (n).z * WorldInverseTranspose[2].xyz)
#endif

VSOutput VSMain(VSInput vin)
{
    VSOutput vout;
    float4 pos = float4(vin.Position.xyz, 1.0);
    vout.Position = mul(pos, WorldViewProj);
#ifdef FOG
    float fog = saturate(dot(pos, FogVector));
#else
    float fog = 0.0;
#endif
#ifdef TEXTURE
    vout.TexCoord = vin.TexCoord;
#endif

#if defined(VERTEX_LIGHTING)
    float3 posWS = mul(pos, World).xyz;
    float3 eyeVector = normalize(EyePosition.xyz - posWS);
    float3 worldNormal = XGD_WORLD_NORMAL(vin.Normal);
    float3 lightDiffuse;
    float3 lightSpecular;
    XGD_COMPUTE_LIGHTS(lightDiffuse, lightSpecular)
    vout.Diffuse = float4(lightDiffuse, DiffuseColor.a);
#ifdef VERTEX_COLOR
    vout.Diffuse *= vin.Color;
#endif
    vout.Specular = float4(lightSpecular, fog);
#elif defined(PIXEL_LIGHTING)
    vout.PositionWS = mul(pos, World).xyz;
    vout.NormalWS = XGD_WORLD_NORMAL(vin.Normal);
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
    // XNA's stock shaders are vs_2_0/vs_3_0 programs whose colour outputs (oD0 = COLOR0, the
    // diffuse; oD1 = COLOR1, the specular with the fog factor in w) Direct3D 9 clamps to 0..1
    // per vertex, before interpolation: a lit diffuse above 1 (ambient + lights) reaches the
    // pixel shader as 1. Per-pixel lighting computes its light in the pixel shader and is not
    // clamped (only its vertex colour and fog factor, already in range, pass through here).
    vout.Diffuse = saturate(vout.Diffuse);
    vout.Specular = saturate(vout.Specular);
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
    float3 worldNormal = normalize(pin.NormalWS);
    float3 lightDiffuse;
    float3 lightSpecular;
    XGD_COMPUTE_LIGHTS(lightDiffuse, lightSpecular)
    color.rgb *= lightDiffuse;
    color.rgb += lightSpecular * color.a;
#elif defined(VERTEX_LIGHTING)
    color.rgb += pin.Specular.rgb * color.a;
#endif

#ifdef FOG
    color.rgb = lerp(color.rgb, FogColor.rgb * color.a, pin.Specular.w);
#endif
    return color;
}
