// BasicEffect's unlit vertex-colour pixel shader: the interpolated colour is the pixel's (the
// software renderer's transform shape without a position).
float4 main(float4 color : COLOR0) : SV_Target0
{
    return color;
}
