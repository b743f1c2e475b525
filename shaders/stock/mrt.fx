// mrt.fx - the EXT MrtEffect (not an XNA effect) as an xgd effect (HLSL, compiled ahead of time
// to .xfx by shaders/compile-stock-xfx.sh; src/graphics/basic_effect.c loads it). It writes a
// distinct colour to each of render targets 0..3, as CNA's MRT conformance fixtures' custom
// effects do.
//
// Parameter MrtConstants: float4 rows 0..3 = the matrix (XNA's, row vectors: clip =
// float4(pos, 1) * Matrix), rows 4..7 = the colour of target 0..3. One array, so an apply
// writes the block with one parameter set. Vertex input: POSITION0, COLOR0.
// Target i = vertex colour * colour i (outputs for targets not bound are dropped).

cbuffer MrtParameters : register(b0)
{
    float4 MrtConstants[8];
};

struct VSInput
{
    float4 Position : POSITION0;
    float4 Color    : COLOR0;
};

struct VSOutput
{
    float4 Color    : COLOR0;
    float4 Position : SV_Position;
};

struct PSOutput
{
    float4 Target0 : SV_Target0;
    float4 Target1 : SV_Target1;
    float4 Target2 : SV_Target2;
    float4 Target3 : SV_Target3;
};

VSOutput MrtVertexShader(VSInput vin)
{
    VSOutput vout;
    float4x4 m = float4x4(MrtConstants[0], MrtConstants[1], MrtConstants[2], MrtConstants[3]);
    vout.Position = mul(float4(vin.Position.xyz, 1.0), m);
    vout.Color = vin.Color;
    return vout;
}

PSOutput MrtPixelShader(VSOutput pin)
{
    PSOutput pout;
    pout.Target0 = pin.Color * MrtConstants[4];
    pout.Target1 = pin.Color * MrtConstants[5];
    pout.Target2 = pin.Color * MrtConstants[6];
    pout.Target3 = pin.Color * MrtConstants[7];
    return pout;
}

technique MrtEffect
{
    pass
    {
        VertexShader = compile vs_4_0 MrtVertexShader();
        PixelShader = compile ps_4_0 MrtPixelShader();
    }
}
