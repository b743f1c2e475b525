// spriteinst.fx - SpriteBatch's own program for instanced sprites (not a public effect;
// src/graphics/sprite_batch.c loads it, compiled ahead of time to .xfx by
// shaders/compile-stock-xfx.sh). Same math as sprite.fx (SpriteEffect), with the four vertices
// of an unrotated sprite made here from one per-sprite element rather than written by the CPU
// (xgd_reserve_user_quad_instances: 48 bytes a sprite instead of 96):
//   Rect  (POSITION0) = the sprite's edges (x0, y0, x1, y1), as SpriteBatch computes them
//   UV    (TEXCOORD0) = the texture coordinates of corners 0 and 3 (ua, va, ub, vb), flipped
//   Depth (POSITION1) = the layer depth (a float: reads as (z, 0, 0, 1))
//   Color (COLOR0)    = the tint
// Corner i (the vertex index, 0..3) is at (i & 1, i >> 1): its x is x1 where i & 1 else x0,
// its y y1 where i & 2 else y0, and the same for u and v. The values are selected, not
// computed, so each vertex is bit for bit the one SpriteBatch writes for sprite.fx, and the
// position then goes through the same product: clip = float4(x, y, z, 1) * MatrixTransform.

cbuffer SpriteParameters : register(b0)
{
    row_major float4x4 MatrixTransform;
};

Texture2D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Rect     : POSITION0;
    float4 UV       : TEXCOORD0;
    float4 Depth    : POSITION1;
    float4 Color    : COLOR0;
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
    float x = right ? vin.Rect.z : vin.Rect.x;
    float y = bottom ? vin.Rect.w : vin.Rect.y;
    float u = right ? vin.UV.z : vin.UV.x;
    float v = bottom ? vin.UV.w : vin.UV.y;
    vout.Position = mul(float4(x, y, vin.Depth.x, 1.0), MatrixTransform);
    vout.Color = vin.Color;
    vout.TexCoord = float4(u, v, 0.0, 1.0);
    return vout;
}

float4 SpritePixelShader(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord.xy) * pin.Color;
}

technique SpriteBatchInstanced
{
    pass
    {
        VertexShader = compile vs_4_0 SpriteVertexShader();
        PixelShader = compile ps_4_0 SpritePixelShader();
    }
}
