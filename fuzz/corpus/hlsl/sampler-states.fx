// sampler state blocks (both spellings), a DX9 texture, annotations of globals
texture Pattern < string ResourceName = "pattern.png"; >;
sampler PatternSampler : register(s1) = sampler_state
{
    Texture = <Pattern>;
    MinFilter = Linear; MagFilter = Point; MipFilter = None;
    AddressU = Mirror; AddressV = MirrorOnce; AddressW = Border;
    MaxAnisotropy = 4; MaxMipLevel = 1; MipMapLodBias = -0.5f;
};
Texture2D Tex : register(t0);
SamplerState Samp : register(s0) { Filter = MIN_MAG_MIP_POINT; AddressU = Clamp; AddressV = Wrap; BorderColor = float4(0, 0, 0, 0); };
float Scale <string UIName = "Scale"; int Steps = 4; float Min = -1.5; bool Visible = true;> = 1;
float4 Tint : DIFFUSE <string Space = "sRGB";>;
struct Light { float3 Dir; float4 Color; };
Light Lights[2];
float4 VS(float4 p : POSITION0) : SV_Position { return p * Scale; }
float4 PS(float2 uv : TEXCOORD0) : SV_Target0
{
    return Tex.Sample(Samp, uv) * Tint + tex2D(PatternSampler, uv) + Lights[1].Color;
}
technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
