// spritewhole.fx - SpriteBatch's own program for instanced sprites that each show their whole
// texture (not a public effect; src/graphics/sprite_batch.c loads it, compiled ahead of time to
// .xfx by shaders/compile-stock-xfx.sh). spriteinst.fx's program with a 32-byte element, which is
// SpriteBatch's queue entry itself (sprite_quad), so End copies a sprite's entry rather than
// building a 48-byte element from it:
//   Rect  (POSITION0) = the sprite's edges (x0, y0, x1, y1), as SpriteBatch computes them
//   Depth (POSITION1) = the layer depth (a float: reads as (z, 0, 0, 1))
//   Color (COLOR0)    = the tint
//   Form  (TEXCOORD0) = the entry's form word as four bytes, read normalized (Color format);
//                       for a whole-texture sprite it is SpriteEffects << 2, so one byte is
//                       0, 4, 8 or 12 and the others 0 whatever the machine's byte order
// (bytes 24..27, the entry's texture number, are not read). Corner i (the vertex index, 0..3) is
// at (i & 1, i >> 1). Its texture coordinates are those of the whole texture flipped as
// SpriteBatch flips them: u of corner i is ua where i & 1 is 0, else 1 - ua, with ua 1 under
// FlipHorizontally and 0 otherwise (v likewise with FlipVertically and i & 2): 0 and 1 exactly,
// the values spriteinst.fx is given for such a sprite. Position, color and sampling as there.

cbuffer SpriteParameters : register(b0)
{
    row_major float4x4 MatrixTransform;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Rect     : POSITION0;
    float4 Depth    : POSITION1;
    float4 Color    : COLOR0;
    float4 Form     : TEXCOORD0;
    uint   Corner   : SV_VertexID;
};

struct VSOutput
{
    float4 Color    : COLOR0;
    float4 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOutput SpriteVertexShader(VSInput vin)
{
    VSOutput vout;
    bool right = (vin.Corner & 1u) != 0u;
    bool bottom = (vin.Corner & 2u) != 0u;
    // the one nonzero byte of the form: 4 * effects (each byte n reads as n / 255)
    uint effects = (uint)(dot(vin.Form, float4(255.0, 255.0, 255.0, 255.0)) + 0.5) >> 2;
    float ua = (effects & 1u) != 0u ? 1.0 : 0.0;
    float va = (effects & 2u) != 0u ? 1.0 : 0.0;
    float x = right ? vin.Rect.z : vin.Rect.x;
    float y = bottom ? vin.Rect.w : vin.Rect.y;
    float u = right ? 1.0 - ua : ua;
    float v = bottom ? 1.0 - va : va;
    vout.Position = mul(float4(x, y, vin.Depth.x, 1.0), MatrixTransform);
    vout.Color = vin.Color;
    vout.TexCoord = float4(u, v, 0.0, 1.0);
    return vout;
}

float4 SpritePixelShader(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord.xy) * pin.Color;
}

technique SpriteBatchInstancedWhole
{
    pass
    {
        VertexShader = compile vs_4_0 SpriteVertexShader();
        PixelShader = compile ps_4_0 SpritePixelShader();
    }
}
