// BasicEffect's unlit vertex-colour vertex shader, as basic.fx writes it: the matrix made of
// four uniform rows, Diffuse = saturate(DiffuseColor * colour), Specular constant 0, and the
// shader form's pixel offset times w (the software renderer's transform shape, with a clamp).
cbuffer Params : register(b0) { float4 DiffuseColor; float4 Rows[4]; float4 PixelOffset; };
struct VSOut { float4 diffuse : COLOR0; float4 specular : COLOR1; float4 pos : SV_Position; };
VSOut main(float4 pos : POSITION0, float4 color : COLOR0)
{
    VSOut o;
    float4x4 m = float4x4(Rows[0], Rows[1], Rows[2], Rows[3]);
    o.pos = mul(m, float4(pos.xyz, 1.0));
    o.diffuse = saturate(DiffuseColor * color);
    o.specular = float4(0.0, 0.0, 0.0, 0.0);
    o.pos += PixelOffset * o.pos.w;
    return o;
}
