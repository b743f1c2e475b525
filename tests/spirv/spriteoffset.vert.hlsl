// SpriteBatch's vertex shader as xgd's shader form gives it to a renderer: SpriteEffect's
// clip = float4(pos, 1) * MatrixTransform, then the form's pixel offset times w added (the
// half-pixel rule), colour and coordinates passed on (the software renderer's transform shape).
cbuffer Params : register(b0) { row_major float4x4 MatrixTransform; float4 PixelOffset; };
struct VSOut { float4 color : COLOR0; float4 uv : TEXCOORD0; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 color : COLOR0, float4 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = mul(float4(pos.xyz, 1.0), MatrixTransform);
    o.color = color;
    o.uv = uv;
    o.pos += PixelOffset * o.pos.w;
    return o;
}
