// A tint: the interpolated colour times a uniform, saturated (the software renderer's
// transform shape without a position: a clamped product).
cbuffer Params : register(b0) { float4 Tint; };
float4 main(float4 color : COLOR0) : SV_Target0
{
    return saturate(color * Tint);
}
