// basic.fx - XNA 4.0's BasicEffect (BasicEffect.fx with Common.fxh and Lighting.fxh) as an
// xgd effect, compiled ahead of time to .xfx by shaders/compile-stock-xfx.sh, which expands
// this file into one effect of 32 techniques (src/graphics/basic_effect.c loads it).
//
// XNA's BasicEffect picks one of its shader permutations per apply; here technique v
// ("BasicEffect_v") is permutation v, v = OR of
//   VERTEX_COLOR  1   multiply by vertex COLOR0
//   TEXTURE       2   multiply by Texture (slot 0, sampler state 0) at TEXCOORD0
//   LIGHTING      4   three directional lights (NORMAL0 required)
//   PER_PIXEL     8   lighting evaluated per pixel (only meaningful with LIGHTING)
//   FOG          16   linear fog from FogVector
// The script copies the part below the VARIANT marker once per distinct shader with the
// variant's defines and the names suffixed (VSBasic_v, PSBasic_v); techniques whose shaders
// would be identical name the same function (a pixel shader does not see VERTEX_COLOR, and
// neither stage sees PER_PIXEL without LIGHTING), so each distinct shader is compiled once.
//
// Parameters: BasicConstants, 26 float4 rows (one array, so an apply writes the whole block
// with one parameter set; the rows are named below), and Texture. The values are XNA's
// EffectHelpers' (src/graphics/basic_effect.c derives them from BasicEffect's properties).
//
// The math:
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
    float4 BasicConstants[26];
};

#define DiffuseColor            BasicConstants[0]   // rgb premultiplied by alpha, a = Alpha
#define EmissiveColor           BasicConstants[1]   // lit: (Emissive + Ambient * Diffuse) * Alpha
#define SpecularColorPower      BasicConstants[2]   // rgb = SpecularColor, a = SpecularPower
#define LightDirection(i)       BasicConstants[3 + (i)]  // normalised, w unused
#define LightDiffuse(i)         BasicConstants[6 + (i)]  // zero for a disabled light
#define LightSpecular(i)        BasicConstants[9 + (i)]  // zero for a disabled light
#define EyePosition             BasicConstants[12]  // world-space eye
#define FogColor                BasicConstants[13]
#define FogVector               BasicConstants[14]
#define World float4x4(BasicConstants[15], BasicConstants[16], BasicConstants[17], BasicConstants[18])
#define WorldInverseTranspose(i) BasicConstants[19 + (i)] // rows of the 3x3 part
#define WorldViewProj float4x4(BasicConstants[22], BasicConstants[23], BasicConstants[24], BasicConstants[25])

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

// Accumulates light I into the locals sumDiffuse and sumSpecular, reading the unit eye vector
// from a local eyeVector and the unit world normal from a local worldNormal.
#define XGD_LIGHT(I)                                                                          \
    {                                                                                      \
        float3 lightDir = LightDirection(I).xyz;                                           \
        float dotL = dot(worldNormal, -lightDir);                                          \
        float zeroL = (float)(dotL >= 0.0);                                                \
        float3 halfVec = normalize(eyeVector - lightDir);                                  \
        float dotH = dot(halfVec, worldNormal);                                            \
        sumDiffuse += zeroL * dotL * LightDiffuse(I).rgb;                                  \
        sumSpecular += pow(max(dotH, 0.0) * zeroL, SpecularColorPower.a) *                 \
                       LightSpecular(I).rgb;                                               \
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
    normalize((n).x * WorldInverseTranspose(0).xyz + (n).y * WorldInverseTranspose(1).xyz + \
              (n).z * WorldInverseTranspose(2).xyz)

// ---- VARIANT (copied once per distinct shader by compile-stock-xfx.sh) ----

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

#ifdef VS_NAME
VSOutput VS_NAME(VSInput vin)
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
#endif

#ifdef PS_NAME
float4 PS_NAME(VSOutput pin) : SV_Target0
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
#endif
