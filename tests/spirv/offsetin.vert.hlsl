// Not the transform shape: the position is a product plus an input (an addition the shape
// does not have), and a coordinate is scaled by a uniform and offset.
cbuffer Params : register(b0) { float4x4 WorldViewProj; float4 UvScale; };
struct VSOut { float4 uv : TEXCOORD0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 shift : POSITION1, float4 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = mul(pos, WorldViewProj) + shift;
    o.uv = uv * UvScale + UvScale.wzyx;
    return o;
}
