// Not the transform shape: a colour lit by a dot product and a max (per-vertex lighting).
cbuffer Params : register(b0) { float4x4 WorldViewProj; float3 LightDir; };
struct VSOut { float4 color : COLOR0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float3 normal : NORMAL0, float4 color : COLOR0)
{
    VSOut o;
    o.pos = mul(pos, WorldViewProj);
    o.color = color * max(dot(normal, LightDir), 0.0);
    return o;
}
