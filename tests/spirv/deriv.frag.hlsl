// Derivatives across the 2x2 quad: fine (per row / column), coarse (per quad), fwidth.
struct PSOut { float4 a : SV_Target0; float4 b : SV_Target1; };
PSOut main(float4 v : TEXCOORD0)
{
    PSOut o;
    o.a = float4(ddx_fine(v.x), ddy_fine(v.x), ddx_coarse(v.y), ddy_coarse(v.y));
    o.b = float4(ddx(v.z), ddy(v.z), fwidth(v.w), fwidth(v.xy).y);
    return o;
}
