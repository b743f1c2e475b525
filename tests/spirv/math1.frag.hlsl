// GLSL.std.450 functions of per-lane inputs (compared with the C library in the test).
struct PSOut { float4 o0 : SV_Target0; float4 o1 : SV_Target1; float4 o2 : SV_Target2;
               float4 o3 : SV_Target3; float4 o4 : SV_Target4; float4 o5 : SV_Target5;
               float4 o6 : SV_Target6; float4 o7 : SV_Target7; };
PSOut main(float4 v : TEXCOORD0, float4 w : TEXCOORD1)
{
    PSOut o;
    o.o0 = float4(pow(v.x, w.x), exp2(v.y), log2(v.z), sqrt(v.w));
    o.o1 = float4(rsqrt(v.x), length(v.xyz), dot(v.xyz, w.xyz), normalize(v.xyz).y);
    o.o2 = float4(cross(v.xyz, w.xyz), reflect(v.xyz, w.xyz).z);
    o.o3 = float4(lerp(v.x, w.x, v.y), clamp(v.y, 0.2, 0.4), min(v.z, w.z), max(v.w, w.w));
    o.o4 = float4(floor(v.x * 3), frac(v.y * 3), step(v.z, w.z), smoothstep(0.1, 0.9, v.w));
    o.o5 = float4(sin(v.x), cos(v.y), atan2(v.z, w.z), abs(w.w - v.w));
    o.o6 = float4(sign(v.x - w.x), exp(v.z), log(v.w), distance(v.xyz, w.xyz));
    o.o7 = float4(tan(v.x), asin(v.y * 0.5), acos(v.z * 0.5), atan(v.w));
    return o;
}
