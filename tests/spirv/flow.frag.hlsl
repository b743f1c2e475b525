// Loops, branches and a switch whose paths differ per lane of the quad.
float4 main(float4 v : TEXCOORD0) : SV_Target0
{
    float s = 0;
    int n = (int)v.x;
    [loop] for (int i = 0; i < n; i++) {
        [branch] if ((i & 1) == 0) s += i; else s -= 0.5;
    }
    float d = ddx_coarse(v.y);
    [branch] if (v.z > 0) s *= 10; else s = -s;
    [branch] switch ((int)v.w) {
    case 0: s += 100; break;
    case 1: s += 200; break;
    default: s += 300; break;
    }
    return float4(s, d, n, 1);
}
