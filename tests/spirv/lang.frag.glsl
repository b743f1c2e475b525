#version 450
// GLSL (compiled without inlining): function calls with inout/out parameters (pointers),
// dynamically indexed local arrays and uniform arrays, matrix forms, integer arithmetic.
layout(location = 0) in vec4 v;
layout(location = 1) flat in ivec4 iv;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(set = 0, binding = 0, std140) uniform Params { vec4 table[4]; mat3 m3; mat2x3 m23; } P;

float accumulate(inout float acc, in float x, out float sq)
{
    acc += x;
    sq = x * x;
    return acc * 2.0;
}

void bump(inout vec4 a, int i)
{
    a[i] += 1.0;
}

void main()
{
    float arr[5];
    for (int i = 0; i < 5; i++) arr[i] = float(i) * v.x;
    int k = iv.x & 3;
    float acc = 1.0, sq;
    float r = accumulate(acc, arr[k + 1], sq);
    o0 = vec4(r, acc, sq, arr[iv.y & 3]);
    vec4 t = P.table[iv.z & 3];
    bump(t, iv.w & 3);
    o1 = t;
    mat3 m = P.m3 * transpose(P.m3);
    vec3 a = m * v.xyz;
    vec3 b = v.xyz * P.m3;
    o2 = vec4(a.x + b.y, a.y - b.z, (P.m23 * v.xy).z, dot(outerProduct(v.xy, v.zw)[1], v.xy));
    ivec4 q = iv * 3 - 7;
    uvec4 u = uvec4(iv + 8);
    o3 = vec4(float(q.x / 2), float((q.y + 100) % 3), float((u.z >> 1u) ^ 5u), float(q.w << 2));
}
