// More GLSL.std.450 functions and matrix forms (compared with the C library in the test).
struct PSOut { float4 o0 : SV_Target0; float4 o1 : SV_Target1; float4 o2 : SV_Target2;
               float4 o3 : SV_Target3; float4 o4 : SV_Target4; };
PSOut main(float4 v : TEXCOORD0, float4 w : TEXCOORD1)
{
    PSOut o;
    o.o0 = float4(round(v.x * 5), trunc(-v.y * 5), ceil(v.z * 5), degrees(v.w));
    o.o1 = float4(radians(v.x), sinh(v.y), cosh(v.z), tanh(v.w));
    o.o2 = float4(refract(normalize(v.xyz), normalize(w.xyz), 0.5), saturate(w.w * 2 - 0.5));
    float2x2 m2 = float2x2(v.x, v.y, w.x, w.y);
    float3x3 m3 = float3x3(v.xyz, w.xyz, v.yzx);
    float4x4 m4 = float4x4(v, w, v.yzwx, w.wzyx * 2);
    o.o3 = float4(determinant(m2), determinant(m3), determinant(m4), fmod(v.x * 7, w.x + 0.5));
    o.o4 = float4(faceforward(v.xy, w.xy, v.yx), ldexp(v.z, 3), mad(v.w, w.w, v.x));
    return o;
}
