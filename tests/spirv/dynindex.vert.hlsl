// Not the transform shape: the matrix is picked per vertex (a uniform array indexed by an input).
cbuffer Params : register(b0) { float4x4 Bones[8]; };
struct VSOut { float4 color : COLOR0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 color : COLOR0, float4 index : BLENDINDICES0)
{
    VSOut o;
    o.pos = mul(pos, Bones[(int)index.x]);
    o.color = color;
    return o;
}
