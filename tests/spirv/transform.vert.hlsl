cbuffer Params : register(b0) { float4x4 MatrixTransform; };
struct VSOut { float4 color : COLOR0; float2 uv : TEXCOORD0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 color : COLOR0, float2 uv : TEXCOORD0)
{
    VSOut o; o.pos = mul(pos, MatrixTransform); o.color = color; o.uv = uv; return o;
}
