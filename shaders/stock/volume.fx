// volume.fx - the EXT VolumeEffect (not an XNA effect) as an xgd effect (HLSL, compiled ahead
// of time to .xfx by shaders/compile-stock-xfx.sh; src/graphics/basic_effect.c loads it): it samples
// a Texture3D, which XNA does only from custom effects.
//
// Parameters: VolumeConstants (float4 rows 0..3 = the matrix, XNA's row vectors: clip =
// float4(pos, 1) * Matrix; row 4 = the colour), Texture (a Texture3D in slot 0, sampled with
// sampler state 0, AddressW included). Vertex input: POSITION0, TEXCOORD0 read as (u, v, w).
// Colour = Texture.Sample(uvw) * colour.

cbuffer VolumeParameters : register(b0)
{
    float4 VolumeConstants[5];
};

Texture3D<float4> Texture : register(t0);
SamplerState TextureSampler : register(s0);

struct VSInput
{
    float4 Position : POSITION0;
    float4 TexCoord : TEXCOORD0;
};

struct VSOutput
{
    float4 TexCoord : TEXCOORD0;
    float4 Position : SV_Position;
};

VSOutput VolumeVertexShader(VSInput vin)
{
    VSOutput vout;
    float4x4 m = float4x4(VolumeConstants[0], VolumeConstants[1], VolumeConstants[2],
                          VolumeConstants[3]);
    vout.Position = mul(float4(vin.Position.xyz, 1.0), m);
    vout.TexCoord = vin.TexCoord;
    return vout;
}

float4 VolumePixelShader(VSOutput pin) : SV_Target0
{
    return Texture.Sample(TextureSampler, pin.TexCoord.xyz) * VolumeConstants[4];
}

technique VolumeEffect
{
    pass
    {
        VertexShader = compile vs_4_0 VolumeVertexShader();
        PixelShader = compile ps_4_0 VolumePixelShader();
    }
}
