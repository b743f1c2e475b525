// Texture2D.Load is an OpImageFetch: outside the executor's subset (refused by name).
Texture2D Tex : register(t0);
float4 main(float4 v : TEXCOORD0) : SV_Target0
{
    return Tex.Load(int3(v.xy, 0));
}
