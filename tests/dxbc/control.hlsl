// Control flow and integer/array work: loops with break and continue, a switch, discard,
// a local array indexed dynamically, a uniform array indexed dynamically, intrinsics.
cbuffer Parameters : register(b0)
{
    float4 Values[8];
    int Count;
    int Mode;
    float Threshold;
};

struct VSOut
{
    float4 Color : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOut VSMain(float4 position : TEXCOORD0, uint index : TEXCOORD1)
{
    VSOut o;
    float4 sum = 0;
    for (int i = 0; i < Count; i++) {
        if (i == 5) break;
        if (Values[i].w < 0) continue;
        sum += Values[i];
    }
    o.Color = sum + Values[index & 7];
    o.Position = position;
    return o;
}

float4 PSMain(float4 color : TEXCOORD0, float4 pos : SV_Position) : SV_Target0
{
    float local[4] = { 0.1, 0.2, 0.3, 0.4 };
    int k = (int)pos.x & 3;
    float4 c = color * local[k];
    switch (Mode) {
    case 0: c.r = saturate(c.r); break;
    case 1: c.g = pow(abs(c.g), 2.2); break;
    case 2:
    case 3: c.b = lerp(c.b, sqrt(abs(c.a)), 0.5); break;
    default: c = normalize(c); break;
    }
    if (c.a < Threshold) discard;
    c.rgb += frac(pos.xyx * 0.5) + floor(pos.yxy) * 0.001 + step(0.5, c.rgb) * exp2(c.a) + log2(1 + c.a);
    c.xyz = cross(c.xyz, float3(ddx(pos.x), ddy(pos.y), 1)) + fmod(c.xyz, 0.3) + smoothstep(0, 1, c.zyx);
    return c * rsqrt(2 + dot(c, c)) + sin(c) * cos(c) + max(c, 0.1) + min(c, 0.9) + clamp(c, 0.2, 0.8) + abs(sign(c));
}
