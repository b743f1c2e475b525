Texture2D Tex : register(t0);
SamplerState Samp : register(s0);
cbuffer Params : register(b0) { float4 Tint; };
float4 main(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target0
{
    return Tex.Sample(Samp, uv) * color * Tint;
}
