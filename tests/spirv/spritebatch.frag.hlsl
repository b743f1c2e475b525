// SpriteBatch's pixel shader (XNA's SpriteEffect): the texture tinted by the vertex colour.
Texture2D Tex : register(t0);
SamplerState Samp : register(s0);
float4 main(float4 color : COLOR0, float2 uv : TEXCOORD0) : SV_Target0
{
    return Tex.Sample(Samp, uv) * color;
}
