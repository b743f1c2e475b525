// clip() discards the lanes whose x is below one half.
float4 main(float4 v : TEXCOORD0) : SV_Target0
{
    clip(v.x - 0.5);
    return v * 2;
}
