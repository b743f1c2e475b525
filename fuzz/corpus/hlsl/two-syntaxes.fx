// technique Fake { } in a comment does not count
float4x4 World;
float4 Tint = float4(1, 1, 1, 1);
sampler2D Tex;
struct VSIn { float4 pos : POSITION0; float4 col : COLOR0; float2 uv : TEXCOORD0; };
struct VSOut { float4 pos : POSITION0; float4 col : COLOR0; float2 uv : TEXCOORD0; };
VSOut VS(VSIn i) { VSOut o; o.pos = mul(i.pos, World); o.col = i.col; o.uv = i.uv;
                   return o; }
float4 PS(VSOut i) : COLOR0 { return tex2D(Tex, i.uv) * i.col * Tint; }
technique Textured <string Note = "{ technique }";>
{
    pass P0
    {
        AlphaBlendEnable = true;
        VertexShader = compile vs_3_0 VS();
        PixelShader = compile ps_3_0 PS();
    }
    pass P1 { SrcBlend = SrcAlpha; PixelShader = compile ps_2_0 PS(); }
}
float4 PS2(VSOut i) : SV_Target { return i.col; }
technique11 Modern
{
    pass
    {
        SetVertexShader(CompileShader(vs_4_0, VS()));
        SetGeometryShader(NULL);
        SetPixelShader( CompileShader( ps_4_0, PS2() ) );
        SetBlendState(NoBlend, float4(0, 0, 0, 0), 0xFFFFFFFF);
    }
}
