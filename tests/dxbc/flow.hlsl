// Control flow with a pixel rule the test computes (x, y = pixel position):
//   r = 1/16 for every even i below (x & 7), g = 0.25 / 0.5 / 1 for (y & 3) = 0 / 1 / other,
//   b = {0.1, 0.3, 0.6, 0.9}[(x >> 3) & 3], a = 1; pixel (31, 31) is discarded.
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
    int x = (int)pos.x;
    int y = (int)pos.y;
    float4 c = float4(0, 0, 0, color.a);
    for (int i = 0; i < 8; i++) {
        if (i == (x & 7)) break;
        if ((i & 1) == 1) continue;
        c.r += 0.0625;
    }
    switch (y & 3) {
    case 0: c.g = 0.25; break;
    case 1: c.g = 0.5; break;
    default: c.g = 1.0; break;
    }
    float table[4] = { 0.1, 0.3, 0.6, 0.9 };
    c.b = table[(x >> 3) & 3];
    if (x == 31 && y == 31) discard;
    return c;
}
