// mrt.hlsl - the EXT MrtEffect (not an XNA effect), shader model 4/5.
//
// XNA's stock effects write render target 0 only. CNA's MRT conformance fixtures use
// ShaderEffect programs that write distinct outputs to targets 0..3; xgd has no custom shaders,
// so this stock extension program (XGDI_PROGRAM_MRT, xgd_mrt_effect_create) plays that part.
//
// Constants: xgdi_mrt_constants (src/core/renderer.h), one cbuffer at b0 (128 bytes).
//   Matrix     XNA matrix (row-major, row vectors): clip = float4(pos, 1) * Matrix.
//   Colors[i]  multiplier of render-target slot i.
// No texture, no sampler. Vertex input: POSITION0 (float3; w is 1), COLOR0 (UNORM8x4).
// Entry points: VSMain (vertex), PSMain (pixel). No variants.
// Outputs: SV_Target0..3. Each bound target gets its own output through its own blend and
// colour-write mask; outputs for slots with no bound target are dropped by the pipeline.
//
// The software renderer (src/renderers/software/sw_shader.c) computes the same thing:
// clip = pos * Matrix; target i = vertex colour * Colors[i].

cbuffer MrtParameters : register(b0)
{
    row_major float4x4 Matrix;
    float4 Colors[4];
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

VSOutput VSMain(VSInput vin)
{
    VSOutput vout;
    vout.Position = mul(float4(vin.Position.xyz, 1.0), Matrix);
    vout.Color = vin.Color;
    return vout;
}

PSOutput PSMain(VSOutput pin)
{
    PSOutput pout;
    pout.Target0 = pin.Color * Colors[0];
    pout.Target1 = pin.Color * Colors[1];
    pout.Target2 = pin.Color * Colors[2];
    pout.Target3 = pin.Color * Colors[3];
    return pout;
}
