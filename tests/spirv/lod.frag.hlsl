// The four sampling forms: implicit level of detail, with a bias, explicit level, gradients.
Texture2D Tex : register(t0);
SamplerState Samp : register(s0);
cbuffer Params : register(b0) { float Bias; float Lod; float2 Pad; float4 Gx; float4 Gy; };
struct PSOut { float4 a : SV_Target0; float4 b : SV_Target1; float4 c : SV_Target2; float4 d : SV_Target3; };
PSOut main(float2 uv : TEXCOORD0)
{
    PSOut o;
    o.a = Tex.Sample(Samp, uv);
    o.b = Tex.SampleBias(Samp, uv, Bias);
    o.c = Tex.SampleLevel(Samp, uv, Lod);
    o.d = Tex.SampleGrad(Samp, uv, Gx.xy, Gy.xy);
    return o;
}
