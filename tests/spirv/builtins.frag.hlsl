// Fragment built-ins: SV_Position (FragCoord) and SV_IsFrontFace (FrontFacing).
float4 main(float4 pos : SV_Position, bool front : SV_IsFrontFace) : SV_Target0
{
    return front ? pos : -pos;
}
