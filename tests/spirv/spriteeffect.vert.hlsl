// SpriteBatch's vertex shader (XNA's SpriteEffect): clip = float4(pos, 1) * MatrixTransform with
// XNA's row vectors (row_major), colour and uv passed on.
cbuffer Params : register(b0) { row_major float4x4 MatrixTransform; };
struct VSOut { float4 color : COLOR0; float2 uv : TEXCOORD0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 color : COLOR0, float2 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = mul(float4(pos.xyz, 1.0), MatrixTransform);
    o.color = color;
    o.uv = uv;
    return o;
}
