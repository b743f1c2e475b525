// SkinnedEffect's core: a uniform array of float4x3 bones indexed per vertex, blended by weight.
cbuffer Params : register(b0) { float4x3 Bones[8]; };
float4 main(float4 pos : POSITION0, uint4 idx : BLENDINDICES0, float4 wt : BLENDWEIGHT0) : SV_Position
{
    float4x3 skin = 0;
    [unroll] for (int i = 0; i < 4; i++) skin += Bones[idx[i]] * wt[i];
    return float4(mul(pos, skin), 1);
}
