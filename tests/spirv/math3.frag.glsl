#version 450
// GLSL.std.450 functions HLSL does not reach: integer abs/sign/min/max/clamp (signed and
// unsigned), round, roundEven, asinh/acosh/atanh, ldexp with an integer exponent.
layout(location = 0) in vec4 v;
layout(location = 1) flat in ivec4 iv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

void main()
{
    uvec4 u = uvec4(iv + 10);
    o0 = vec4(abs(iv.x), sign(iv.y), min(iv.z, iv.w), max(iv.x, iv.z));
    o1 = vec4(clamp(iv.w, -2, 3), min(u.x, u.y), max(u.z, u.w), clamp(u.x, 9u, 12u));
    o2 = vec4(round(v.x * 4.0), roundEven(v.y * 4.0), asinh(v.z), acosh(v.w + 1.0));
    o3 = vec4(atanh(v.x * 0.5), ldexp(v.y, iv.x), fma(v.z, v.w, v.x), inversesqrt(v.w));
}
