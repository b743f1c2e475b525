// A loop that never ends for inputs below 1e30: the executor's step budget stops it.
float4 main(float4 v : TEXCOORD0) : SV_Target0
{
    float s = 0;
    [loop] while (v.x < 1e30) { s += 1; v.x = v.x * v.y; }
    return s;
}
