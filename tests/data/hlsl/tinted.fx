// A small HLSL effect for the xgd-fxc smoke test: a textured, tinted mesh in both effect syntaxes.
cbuffer Params
{
    float4x4 WorldViewProj;
    float4 Tint;
};
sampler2D Tex;

struct VSOut
{
    float4 pos : SV_Position;
    float4 col : COLOR0;
    float2 uv : TEXCOORD0;
};

VSOut VS(float4 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0)
{
    VSOut o;
    o.pos = mul(pos, WorldViewProj);
    o.col = col;
    o.uv = uv;
    return o;
}

float4 PS(VSOut i) : SV_Target
{
    return tex2D(Tex, i.uv) * i.col * Tint;
}

technique Tinted
{
    pass P0
    {
        VertexShader = compile vs_3_0 VS();
        PixelShader = compile ps_3_0 PS();
    }
}
