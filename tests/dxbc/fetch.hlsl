// Texel loads and size queries: colour = Texture.Load(texel under the pixel, scaled from the
// 32x32 target to the texture's own size, level 0) * vertex colour.
Texture2D Texture : register(t0);

struct VSOut
{
    float4 Color : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOut VSMain(float4 position : TEXCOORD0, float4 color : TEXCOORD1)
{
    VSOut o;
    o.Position = float4(position.xy * 2 - 1, 0, 1);
    o.Color = color;
    return o;
}

float4 PSMain(float4 color : TEXCOORD0, float4 pos : SV_Position) : SV_Target0
{
    uint w, h;
    Texture.GetDimensions(w, h);
    int2 texel = int2(pos.xy) * int2(w, h) / 32;
    return Texture.Load(int3(texel, 0)) * color;
}
