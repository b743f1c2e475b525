// spritebatch16.fx - SpriteBatch's own program for drawing sprites of up to 16 textures in one
// draw (not a public effect; src/graphics/sprite_batch.c loads it, compiled ahead of time to
// .xfx by shaders/compile-stock-xfx.sh). Same math as sprite.fx (SpriteEffect), with the
// texture picked per sprite: each vertex carries its sprite's slot (0..15, a whole number as a
// float, TEXCOORD1), and the pixel shader samples Texture<slot> with sampler state <slot>.
// SpriteBatch binds the group's textures to slots 0..15 and its sampler state to all 16, so
// a pixel is exactly what sprite.fx gives with that texture in slot 0:
//   pixel colour = Texture<slot>.Sample(uv) * vertex colour.
// The slot is the same at every vertex of a sprite, so it is the same in every pixel of a
// 2x2 quad (a quad never mixes primitives) and the sample's derivatives are those of
// sprite.fx's; the interpolated value may differ from the whole number by rounding, so the
// shader compares against the halves between them (a binary search, one sample per pixel).

cbuffer SpriteParameters : register(b0)
{
    row_major float4x4 MatrixTransform;
};

Texture2D<float4> Texture0 : register(t0);
SamplerState Sampler0 : register(s0);
Texture2D<float4> Texture1 : register(t1);
SamplerState Sampler1 : register(s1);
Texture2D<float4> Texture2 : register(t2);
SamplerState Sampler2 : register(s2);
Texture2D<float4> Texture3 : register(t3);
SamplerState Sampler3 : register(s3);
Texture2D<float4> Texture4 : register(t4);
SamplerState Sampler4 : register(s4);
Texture2D<float4> Texture5 : register(t5);
SamplerState Sampler5 : register(s5);
Texture2D<float4> Texture6 : register(t6);
SamplerState Sampler6 : register(s6);
Texture2D<float4> Texture7 : register(t7);
SamplerState Sampler7 : register(s7);
Texture2D<float4> Texture8 : register(t8);
SamplerState Sampler8 : register(s8);
Texture2D<float4> Texture9 : register(t9);
SamplerState Sampler9 : register(s9);
Texture2D<float4> Texture10 : register(t10);
SamplerState Sampler10 : register(s10);
Texture2D<float4> Texture11 : register(t11);
SamplerState Sampler11 : register(s11);
Texture2D<float4> Texture12 : register(t12);
SamplerState Sampler12 : register(s12);
Texture2D<float4> Texture13 : register(t13);
SamplerState Sampler13 : register(s13);
Texture2D<float4> Texture14 : register(t14);
SamplerState Sampler14 : register(s14);
Texture2D<float4> Texture15 : register(t15);
SamplerState Sampler15 : register(s15);

struct VSInput
{
    float4 Position : POSITION0;
    float4 Color    : COLOR0;
    float4 TexCoord : TEXCOORD0;
    float4 Slot     : TEXCOORD1;
};

struct VSOutput
{
    float4 Color    : COLOR0;
    float4 TexCoord : TEXCOORD0;
    float4 Slot     : TEXCOORD1;
    float4 Position : SV_Position;
};

VSOutput SpriteVertexShader(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(float4(vin.Position.xyz, 1.0), MatrixTransform);
    vout.Color = vin.Color;
    vout.TexCoord = vin.TexCoord;
    vout.Slot = vin.Slot;
    return vout;
}

float4 SpritePixelShader(VSOutput pin) : SV_Target0
{
    float2 uv = pin.TexCoord.xy;
    float slot = pin.Slot.x;
    float4 c;
    if (slot < 7.5)
    {
        if (slot < 3.5)
        {
            if (slot < 1.5)
            {
                if (slot < 0.5)
                {
                    c = Texture0.Sample(Sampler0, uv);
                }
                else
                {
                    c = Texture1.Sample(Sampler1, uv);
                }
            }
            else
            {
                if (slot < 2.5)
                {
                    c = Texture2.Sample(Sampler2, uv);
                }
                else
                {
                    c = Texture3.Sample(Sampler3, uv);
                }
            }
        }
        else
        {
            if (slot < 5.5)
            {
                if (slot < 4.5)
                {
                    c = Texture4.Sample(Sampler4, uv);
                }
                else
                {
                    c = Texture5.Sample(Sampler5, uv);
                }
            }
            else
            {
                if (slot < 6.5)
                {
                    c = Texture6.Sample(Sampler6, uv);
                }
                else
                {
                    c = Texture7.Sample(Sampler7, uv);
                }
            }
        }
    }
    else
    {
        if (slot < 11.5)
        {
            if (slot < 9.5)
            {
                if (slot < 8.5)
                {
                    c = Texture8.Sample(Sampler8, uv);
                }
                else
                {
                    c = Texture9.Sample(Sampler9, uv);
                }
            }
            else
            {
                if (slot < 10.5)
                {
                    c = Texture10.Sample(Sampler10, uv);
                }
                else
                {
                    c = Texture11.Sample(Sampler11, uv);
                }
            }
        }
        else
        {
            if (slot < 13.5)
            {
                if (slot < 12.5)
                {
                    c = Texture12.Sample(Sampler12, uv);
                }
                else
                {
                    c = Texture13.Sample(Sampler13, uv);
                }
            }
            else
            {
                if (slot < 14.5)
                {
                    c = Texture14.Sample(Sampler14, uv);
                }
                else
                {
                    c = Texture15.Sample(Sampler15, uv);
                }
            }
        }
    }
    return c * pin.Color;
}

technique SpriteBatch16
{
    pass
    {
        VertexShader = compile vs_4_0 SpriteVertexShader();
        PixelShader = compile ps_4_0 SpritePixelShader();
    }
}
