// envmap.fx - XNA 4.0's EnvironmentMapEffect as an xgd effect (HLSL, compiled ahead of time to
// .xfx by shaders/compile-stock-xfx.sh; src/graphics/stock_effects.c loads it and derives the
// parameters from EnvironmentMapEffect's properties as XNA's OnApply does).
//
// Technique EnvironmentMapEffect; vertex input POSITION0, NORMAL0, TEXCOORD0. XNA's vertex
// lighting (diffuse only, three lights) per vertex:
//   E = normalize(EyePosition - worldPos), N = normalize(normal * WorldInverseTranspose),
//   diffuse = sum(max(dot(N, -L_i), 0) * LightDiffuse_i) * DiffuseColor.rgb + EmissiveColor,
//   a = DiffuseColor.a (saturated, as Direct3D 9 clamps COLOR outputs);
//   amount = pow(max(1 - abs(dot(E, N)), tiny), FresnelFactor) * EnvironmentMapAmount
//   (FresnelFactor 0 gives EnvironmentMapAmount, as XNA's non-Fresnel shaders do; the base is
//   kept above 0 so pow(0, 0) is 1); EnvCoord = reflect(-E, N).
// Pixel: colour = Texture.Sample(uv) * diffuse; env = EnvironmentMap.Sample(EnvCoord) * a;
//   rgb = lerp(rgb, env.rgb, amount) + EnvironmentMapSpecular * env.a; then fog:
//   rgb = lerp(rgb, FogColor * a, factor), factor = saturate(dot(float4(pos, 1), FogVector)).
// XNA's fog, Fresnel and specular permutations are uniform values here (same pixels: a zero
// FogVector gives factor 0, a zero EnvironmentMapSpecular adds nothing).

cbuffer EnvironmentMapParameters : register(b0)
{
    float3 EnvironmentMapSpecular;
    float FresnelFactor;
    float EnvironmentMapAmount;
    float4 DiffuseColor;
    float3 EmissiveColor;
    float3 DirLight0Direction;
    float3 DirLight0DiffuseColor;
    float3 DirLight1Direction;
    float3 DirLight1DiffuseColor;
    float3 DirLight2Direction;
    float3 DirLight2DiffuseColor;
    float3 EyePosition;
    float3 FogColor;
    float4 FogVector;
    float4x4 World;
    float3x3 WorldInverseTranspose;
    float4x4 WorldViewProj;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);
TextureCube<float4> EnvironmentMap : register(t1);
SamplerState EnvironmentMapSampler : register(s1);

struct VSInput
{
    float4 Position : POSITION0;
    float3 Normal   : NORMAL0;
    float2 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 Diffuse  : COLOR0;
    float4 Specular : COLOR1;   // rgb = environment amount, w = fog factor
    float2 TexCoord : TEXCOORD0;
    float3 EnvCoord : TEXCOORD1;
    float4 Position : SV_Position;
};

VSOutput VSEnvironmentMap(VSInput vin)
{
    VSOutput vout;
    float4 pos = float4(vin.Position.xyz, 1.0);
    vout.Position = mul(pos, WorldViewProj);
    float3 posWS = mul(pos, World).xyz;
    float3 eyeVector = normalize(EyePosition - posWS);
    float3 worldNormal = normalize(mul(vin.Normal, WorldInverseTranspose));
    float3 diffuse = max(dot(worldNormal, -DirLight0Direction), 0.0) * DirLight0DiffuseColor +
                     max(dot(worldNormal, -DirLight1Direction), 0.0) * DirLight1DiffuseColor +
                     max(dot(worldNormal, -DirLight2Direction), 0.0) * DirLight2DiffuseColor;
    vout.Diffuse = saturate(float4(diffuse * DiffuseColor.rgb + EmissiveColor, DiffuseColor.a));
    float fresnel = max(1.0 - abs(dot(eyeVector, worldNormal)), 0.000000001);
    float amount = pow(fresnel, FresnelFactor) * EnvironmentMapAmount;
    vout.Specular = saturate(float4(amount, amount, amount, dot(pos, FogVector)));
    vout.EnvCoord = reflect(-eyeVector, worldNormal);
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 PSEnvironmentMap(VSOutput pin) : SV_Target0
{
    float4 color = Texture.Sample(TextureSampler, pin.TexCoord) * pin.Diffuse;
    float4 envmap = EnvironmentMap.Sample(EnvironmentMapSampler, pin.EnvCoord) * color.a;
    color.rgb = lerp(color.rgb, envmap.rgb, pin.Specular.rgb);
    color.rgb += EnvironmentMapSpecular * envmap.a;
    color.rgb = lerp(color.rgb, FogColor * color.a, pin.Specular.w);
    return color;
}

technique EnvironmentMapEffect
{
    pass Pass1
    {
        VertexShader = compile vs_4_0 VSEnvironmentMap();
        PixelShader = compile ps_4_0 PSEnvironmentMap();
    }
}
