/*
 * d3d12_pipelines.c - the root signature (serialised in code with D3D12SerializeRootSignature)
 * and the pipeline-state cache, keyed by everything a PSO bakes in: the shaders (or the blit),
 * vertex layout, all four render-target blends with their colour-write masks, depth/stencil
 * (less the reference, which is list state, as is the blend factor), rasterizer with the depth
 * bias converted for the bound depth format (xgdi_depth_bias_units), target formats and samples.
 *
 * Root signature of the blits (mip generation, sample fill; shaders/blit.hlsl): [0] root CBV b0
 * (constant arena address), [1] table of one SRV t0, [2] table of one sampler s0; of mips of
 * several levels a draw (PSMipChain2/3), its own (mips_root_init). User programs
 * have their own (d3d12_user.c) and their PSOs are keyed by the shaders' serials.
 */
#include "d3d12_internal.h"
#include "d3d12_dxbc.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_INTERNAL_SPIRV
#include "xvk_spirv.h" /* shaders/mips.comp as SPIR-V, generated at build time */
#endif

/* The root signature of PSMipChain2/3 (r->mips_root), where Color has typed UAVs (a feature level
   11_0 requirement, asked all the same) and $XGD_MIPS_PER_LEVEL is unset. Stores to a typed
   UAV need no more than the UAV (only typed loads are limited to a few formats), and vkd3d
   leaves Support2, with its UAV_TYPED_STORE bit, at 0 for every format. */
static xgd_result mips_root_init(d3d12_renderer *r)
{
    D3D12_FEATURE_DATA_FORMAT_SUPPORT fs = { DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0 };
    if (r->mips_per_level ||
        FAILED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof fs)) ||
        !(fs.Support1 & D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW))
        return XGD_OK;
    D3D12_DESCRIPTOR_RANGE ranges[4] = { { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0 },
                                         { D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, 0 },
                                         { D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 1, 0, 0 },
                                         { D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 2, 0, 0 } };
    D3D12_ROOT_PARAMETER params[5];
    memset(params, 0, sizeof params);
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[0].Descriptor.ShaderRegister = 0;
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    for (int i = 1; i < 5; i++) {
        params[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        params[i].DescriptorTable.NumDescriptorRanges = 1;
        params[i].DescriptorTable.pDescriptorRanges = &ranges[i - 1];
        params[i].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    }
    D3D12_ROOT_SIGNATURE_DESC rd = { 5, params, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_NONE };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    if (err != NULL) ID3D10Blob_Release(err);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "D3D12SerializeRootSignature(mips)");
    hr = ID3D12Device_CreateRootSignature(r->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                          ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                          (void **)&r->mips_root);
    ID3D10Blob_Release(blob);
    if (SUCCEEDED(hr)) d3d12_set_name(r, r->mips_root, "xgd mips root signature");
    return xgdi_d3d12_check(r, hr, "CreateRootSignature(mips)");
}

/* The compute pipeline of Color chains (r->mips_cs, r->mips_cs_root), made at the first chain
   that could use it (a device that generates no Color chain never pays for the translation
   and the pipeline: about 20 ms on lavapipe): shaders/mips.comp, the Vulkan renderer's shader,
   translated to DXBC here (its push constants become b0, its sampled image t0 and its storage
   images u1..u6, their bindings). Where it cannot be made the chain is drawn (mips_root): no
   error is reported, as nothing a program can see depends on the route (both give the rule's
   bytes: fixture_mip_rule.c). */
void xgdi_d3d12_mips_cs_init(d3d12_renderer *r)
{
    if (r->mips_cs_tried) return;
    r->mips_cs_tried = true;
#ifdef XGD_HAVE_INTERNAL_SPIRV
    if (r->mips_root == NULL || r->mips_by_draws) return;
    const xgdi_d3d12_dxbc_binding push = { XGDI_D3D12_DXBC_CBUFFER, UINT32_MAX, UINT32_MAX, 0, 0 };
    void *dxbc = NULL;
    size_t size = 0;
    if (xgdi_d3d12_dxbc_from_spirv(xvk_spv_mips_comp, sizeof xvk_spv_mips_comp / 4, &push, 1, &dxbc,
                                   &size, NULL, 0) != XGD_OK)
        return;
    D3D12_DESCRIPTOR_RANGE ranges[1 + D3D12X_MIPS_PER_DISPATCH];
    D3D12_ROOT_PARAMETER params[2 + D3D12X_MIPS_PER_DISPATCH];
    memset(params, 0, sizeof params);
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    params[0].Constants.ShaderRegister = 0;
    params[0].Constants.Num32BitValues = 4;
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    for (int i = 0; i <= D3D12X_MIPS_PER_DISPATCH; i++) {
        ranges[i] = (D3D12_DESCRIPTOR_RANGE){ i == 0 ? D3D12_DESCRIPTOR_RANGE_TYPE_SRV
                                                     : D3D12_DESCRIPTOR_RANGE_TYPE_UAV,
                                              1, (UINT)i, 0, 0 };
        params[1 + i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        params[1 + i].DescriptorTable.NumDescriptorRanges = 1;
        params[1 + i].DescriptorTable.pDescriptorRanges = &ranges[i];
        params[1 + i].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    D3D12_ROOT_SIGNATURE_DESC rd = { 2 + D3D12X_MIPS_PER_DISPATCH, params, 0, NULL,
                                     D3D12_ROOT_SIGNATURE_FLAG_NONE };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    if (err != NULL) ID3D10Blob_Release(err);
    if (SUCCEEDED(hr)) {
        hr = ID3D12Device_CreateRootSignature(r->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                              ID3D10Blob_GetBufferSize(blob),
                                              &IID_ID3D12RootSignature, (void **)&r->mips_cs_root);
        ID3D10Blob_Release(blob);
    }
    if (SUCCEEDED(hr)) {
        D3D12_COMPUTE_PIPELINE_STATE_DESC cd;
        memset(&cd, 0, sizeof cd);
        cd.pRootSignature = r->mips_cs_root;
        cd.CS.pShaderBytecode = dxbc;
        cd.CS.BytecodeLength = size;
        hr = ID3D12Device_CreateComputePipelineState(r->dev, &cd, &IID_ID3D12PipelineState,
                                                     (void **)&r->mips_cs);
    }
    xgdi_d3d12_dxbc_free(dxbc);
    if (FAILED(hr)) {
        if (r->mips_cs_root != NULL) ID3D12RootSignature_Release(r->mips_cs_root);
        r->mips_cs_root = NULL;
        r->mips_cs = NULL;
        return;
    }
    d3d12_set_name(r, r->mips_cs_root, "xgd mips compute root signature");
    d3d12_set_name(r, r->mips_cs, "xgd mips compute pipeline");
#else
    (void)r;
#endif
}

xgd_result xgdi_d3d12_pipelines_init(d3d12_renderer *r)
{
    D3D12_DESCRIPTOR_RANGE srv = { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0 };
    D3D12_DESCRIPTOR_RANGE smp = { D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, 0, 0, 0 };
    D3D12_ROOT_PARAMETER params[3];
    memset(params, 0, sizeof params);
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[0].Descriptor.ShaderRegister = 0;
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[1].DescriptorTable.NumDescriptorRanges = 1;
    params[1].DescriptorTable.pDescriptorRanges = &srv;
    params[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    params[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[2].DescriptorTable.NumDescriptorRanges = 1;
    params[2].DescriptorTable.pDescriptorRanges = &smp;
    params[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_ROOT_SIGNATURE_DESC rd = { 3, params, 0, NULL,
                                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    if (err != NULL) ID3D10Blob_Release(err);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "D3D12SerializeRootSignature");
    hr = ID3D12Device_CreateRootSignature(r->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                          ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                          (void **)&r->root);
    ID3D10Blob_Release(blob);
    if (SUCCEEDED(hr)) d3d12_set_name(r, r->root, "xgd root signature");
    xgd_result res = xgdi_d3d12_check(r, hr, "CreateRootSignature");
    if (res == XGD_OK) res = mips_root_init(r);
    return res == XGD_OK ? xgdi_d3d12_user_init(r) : res;
}

void xgdi_d3d12_pipelines_free(d3d12_renderer *r)
{
    for (size_t i = 0; i < r->pso_count; i++) ID3D12PipelineState_Release(r->psos[i].pso);
    free(r->psos);
    r->psos = NULL;
    r->pso_count = r->pso_capacity = 0;
    if (r->root != NULL) ID3D12RootSignature_Release(r->root);
    r->root = NULL;
    if (r->mips_root != NULL) ID3D12RootSignature_Release(r->mips_root);
    r->mips_root = NULL;
    if (r->mips_cs != NULL) ID3D12PipelineState_Release(r->mips_cs);
    r->mips_cs = NULL;
    if (r->mips_cs_root != NULL) ID3D12RootSignature_Release(r->mips_cs_root);
    r->mips_cs_root = NULL;
    r->mips_cs_tried = false;
    xgdi_d3d12_user_free(r);
}

/* FNV-1a over the key bytes (the key is memset before it is filled, so padding is zero). */
static uint64_t key_hash(const d3d12_pso_key *k)
{
    const uint8_t *p = (const uint8_t *)k;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < sizeof *k; i++) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

static D3D12_BLEND blend_factor(xgd_blend b, bool alpha)
{
    switch (b) {
    case XGD_BLEND_ONE: return D3D12_BLEND_ONE;
    case XGD_BLEND_ZERO: return D3D12_BLEND_ZERO;
    case XGD_BLEND_SOURCE_COLOR: return alpha ? D3D12_BLEND_SRC_ALPHA : D3D12_BLEND_SRC_COLOR;
    case XGD_BLEND_INVERSE_SOURCE_COLOR:
        return alpha ? D3D12_BLEND_INV_SRC_ALPHA : D3D12_BLEND_INV_SRC_COLOR;
    case XGD_BLEND_SOURCE_ALPHA: return D3D12_BLEND_SRC_ALPHA;
    case XGD_BLEND_INVERSE_SOURCE_ALPHA: return D3D12_BLEND_INV_SRC_ALPHA;
    case XGD_BLEND_DESTINATION_COLOR: return alpha ? D3D12_BLEND_DEST_ALPHA : D3D12_BLEND_DEST_COLOR;
    case XGD_BLEND_INVERSE_DESTINATION_COLOR:
        return alpha ? D3D12_BLEND_INV_DEST_ALPHA : D3D12_BLEND_INV_DEST_COLOR;
    case XGD_BLEND_DESTINATION_ALPHA: return D3D12_BLEND_DEST_ALPHA;
    case XGD_BLEND_INVERSE_DESTINATION_ALPHA: return D3D12_BLEND_INV_DEST_ALPHA;
    case XGD_BLEND_BLEND_FACTOR: return D3D12_BLEND_BLEND_FACTOR;
    case XGD_BLEND_INVERSE_BLEND_FACTOR: return D3D12_BLEND_INV_BLEND_FACTOR;
    case XGD_BLEND_SOURCE_ALPHA_SATURATION: return D3D12_BLEND_SRC_ALPHA_SAT;
    default: return D3D12_BLEND_ONE;
    }
}

static D3D12_BLEND_OP blend_op(xgd_blend_function f)
{
    switch (f) {
    case XGD_BLEND_FUNCTION_SUBTRACT: return D3D12_BLEND_OP_SUBTRACT;
    case XGD_BLEND_FUNCTION_REVERSE_SUBTRACT: return D3D12_BLEND_OP_REV_SUBTRACT;
    case XGD_BLEND_FUNCTION_MIN: return D3D12_BLEND_OP_MIN;
    case XGD_BLEND_FUNCTION_MAX: return D3D12_BLEND_OP_MAX;
    default: return D3D12_BLEND_OP_ADD;
    }
}

static D3D12_COMPARISON_FUNC compare(xgd_compare_function c)
{
    switch (c) {
    case XGD_COMPARE_NEVER: return D3D12_COMPARISON_FUNC_NEVER;
    case XGD_COMPARE_LESS: return D3D12_COMPARISON_FUNC_LESS;
    case XGD_COMPARE_LESS_EQUAL: return D3D12_COMPARISON_FUNC_LESS_EQUAL;
    case XGD_COMPARE_EQUAL: return D3D12_COMPARISON_FUNC_EQUAL;
    case XGD_COMPARE_GREATER_EQUAL: return D3D12_COMPARISON_FUNC_GREATER_EQUAL;
    case XGD_COMPARE_GREATER: return D3D12_COMPARISON_FUNC_GREATER;
    case XGD_COMPARE_NOT_EQUAL: return D3D12_COMPARISON_FUNC_NOT_EQUAL;
    default: return D3D12_COMPARISON_FUNC_ALWAYS;
    }
}

static D3D12_STENCIL_OP stencil_op(xgd_stencil_operation o)
{
    switch (o) {
    case XGD_STENCIL_OP_ZERO: return D3D12_STENCIL_OP_ZERO;
    case XGD_STENCIL_OP_REPLACE: return D3D12_STENCIL_OP_REPLACE;
    case XGD_STENCIL_OP_INCREMENT: return D3D12_STENCIL_OP_INCR;
    case XGD_STENCIL_OP_DECREMENT: return D3D12_STENCIL_OP_DECR;
    case XGD_STENCIL_OP_INCREMENT_SATURATION: return D3D12_STENCIL_OP_INCR_SAT;
    case XGD_STENCIL_OP_DECREMENT_SATURATION: return D3D12_STENCIL_OP_DECR_SAT;
    case XGD_STENCIL_OP_INVERT: return D3D12_STENCIL_OP_INVERT;
    default: return D3D12_STENCIL_OP_KEEP;
    }
}

static DXGI_FORMAT element_format(xgd_vertex_element_format f)
{
    switch (f) {
    case XGD_VERTEX_FORMAT_SINGLE: return DXGI_FORMAT_R32_FLOAT;
    case XGD_VERTEX_FORMAT_VECTOR2: return DXGI_FORMAT_R32G32_FLOAT;
    case XGD_VERTEX_FORMAT_VECTOR3: return DXGI_FORMAT_R32G32B32_FLOAT;
    case XGD_VERTEX_FORMAT_VECTOR4: return DXGI_FORMAT_R32G32B32A32_FLOAT;
    case XGD_VERTEX_FORMAT_COLOR: return DXGI_FORMAT_R8G8B8A8_UNORM;
    case XGD_VERTEX_FORMAT_BYTE4: return DXGI_FORMAT_R8G8B8A8_UINT;
    case XGD_VERTEX_FORMAT_SHORT2: return DXGI_FORMAT_R16G16_SINT;
    case XGD_VERTEX_FORMAT_SHORT4: return DXGI_FORMAT_R16G16B16A16_SINT;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT2: return DXGI_FORMAT_R16G16_SNORM;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT4: return DXGI_FORMAT_R16G16B16A16_SNORM;
    case XGD_VERTEX_FORMAT_HALF_VECTOR2: return DXGI_FORMAT_R16G16_FLOAT;
    case XGD_VERTEX_FORMAT_HALF_VECTOR4: return DXGI_FORMAT_R16G16B16A16_FLOAT;
    default: return DXGI_FORMAT_R32G32B32A32_FLOAT;
    }
}

static xgd_result finish_pso(d3d12_renderer *r, const d3d12_pso_key *k,
                             D3D12_GRAPHICS_PIPELINE_STATE_DESC *pd, ID3D12PipelineState **out);

/* A user program's PSO: the translated shaders being drawn (r->building_vs/ps, whose serials
   the key holds) and an input layout naming each element the vertex shader reads TEXCOORD
   with the semantic index of its location (d3d12_dxbc.h's rule); the input assembler fills
   the missing components as Direct3D does (0, 0, 0, 1). */
static xgd_result create_user_pso(d3d12_renderer *r, const d3d12_pso_key *k,
                                  D3D12_GRAPHICS_PIPELINE_STATE_DESC *d,
                                  D3D12_INPUT_ELEMENT_DESC *el, ID3D12PipelineState **out)
{
    const xgdi_native_shader *vs = r->building_vs, *ps = r->building_ps;
    if (vs == NULL || ps == NULL || vs->serial != k->user_vs || ps->serial != k->user_ps)
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION,
                         "d3d12: user pipeline without its shaders");
    /* the root signature of the program's shape (the one its draws bind) */
    xgd_result shaped = xgdi_d3d12_user_shape(r, vs, ps);
    if (shaped != XGD_OK) return shaped;
    d->pRootSignature = r->shape_root;
    d->VS.pShaderBytecode = vs->dxbc;
    d->VS.BytecodeLength = vs->dxbc_size;
    d->PS.pShaderBytecode = ps->dxbc;
    d->PS.BytecodeLength = ps->dxbc_size;
    UINT nel = 0;
    uint32_t uint_locations = 0, sint_locations = 0;
    for (int i = 0; i < vs->input_count; i++) {
        const xgdi_shader_input *in = &vs->inputs[i];
        const xgd_vertex_element *e = NULL;
        int slot = 0;
        for (int j = 0; j < k->layout_count && e == NULL; j++)
            if (k->elements[j].usage == in->usage && k->elements[j].usage_index == in->usage_index) {
                e = &k->elements[j];
                slot = k->element_slot[j];
            }
        D3D12_INPUT_ELEMENT_DESC *o = &el[nel++];
        o->SemanticName = "TEXCOORD";
        o->SemanticIndex = (UINT)in->location;
        o->InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA;
        if (e != NULL) {
            o->Format = element_format(e->format);
            o->InputSlot = (UINT)slot;
            o->AlignedByteOffset = (UINT)e->offset;
            if (in->location >= 0 && in->location < 32) {
                if (e->format == XGD_VERTEX_FORMAT_BYTE4) uint_locations |= 1u << in->location;
                if (e->format == XGD_VERTEX_FORMAT_SHORT2 || e->format == XGD_VERTEX_FORMAT_SHORT4)
                    sint_locations |= 1u << in->location;
            }
            /* per-instance data of a draw through several streams (d3d12_instancing.c) */
            if (k->slot_step[slot] > 0) {
                o->InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
                o->InstanceDataStepRate = (UINT)k->slot_step[slot];
            }
        } else {
            /* core refuses such a draw (check_layout); the default stream keeps it defined */
            o->Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
            o->InputSlot = k->stream_count > 0 ? XGD_MAX_VERTEX_BUFFER_BINDINGS : 1;
            o->AlignedByteOffset = 16;
        }
    }
    d->InputLayout.pInputElementDescs = nel ? el : NULL;
    d->InputLayout.NumElements = nel;
    if (uint_locations == 0 && sint_locations == 0) return finish_pso(r, k, d, out);
    /* integer formats (DXGI has no USCALED/SSCALED): a translation that converts them */
    void *dxbc = NULL;
    size_t size = 0;
    xgd_result res = xgdi_d3d12_user_vs_int_inputs(r, vs, uint_locations, sint_locations, &dxbc, &size);
    if (res != XGD_OK) return res;
    d->VS.pShaderBytecode = dxbc;
    d->VS.BytecodeLength = size;
    res = finish_pso(r, k, d, out);
    xgdi_d3d12_dxbc_free(dxbc);
    return res;
}

static xgd_result create_pso(d3d12_renderer *r, const d3d12_pso_key *k,
                             ID3D12PipelineState **out)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
    memset(&d, 0, sizeof d);
    D3D12_INPUT_ELEMENT_DESC el[24];
    memset(el, 0, sizeof el); /* InstanceDataStepRate 0: per-vertex elements require it */
    if (k->mode == 0) return create_user_pso(r, k, &d, el, out);
    /* the blit: no vertex input, its own root signature */
    d.pRootSignature = k->mode >= 3 ? r->mips_root : r->root;
    d3d12_bytecode vs = xgdi_d3d12_blit_shader(0),
                   ps = xgdi_d3d12_blit_shader(k->mode == 1 ? 1 : (int)k->mode);
    d.VS.pShaderBytecode = vs.data;
    d.VS.BytecodeLength = vs.size;
    d.PS.pShaderBytecode = ps.data;
    d.PS.BytecodeLength = ps.size;
    return finish_pso(r, k, &d, out);
}

/* The fixed-function part every PSO shares: blend, rasterizer, depth/stencil, targets. */
static xgd_result finish_pso(d3d12_renderer *r, const d3d12_pso_key *k,
                             D3D12_GRAPHICS_PIPELINE_STATE_DESC *pd, ID3D12PipelineState **out)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = *pd;
    d.BlendState.IndependentBlendEnable = TRUE;
    for (int i = 0; i < 4; i++) {
        const xgd_target_blend_desc *b = &k->blend[i];
        D3D12_RENDER_TARGET_BLEND_DESC *o = &d.BlendState.RenderTarget[i];
        bool opaque = b->color_blend_function == XGD_BLEND_FUNCTION_ADD &&
                      b->alpha_blend_function == XGD_BLEND_FUNCTION_ADD &&
                      b->color_source_blend == XGD_BLEND_ONE &&
                      b->alpha_source_blend == XGD_BLEND_ONE &&
                      b->color_destination_blend == XGD_BLEND_ZERO &&
                      b->alpha_destination_blend == XGD_BLEND_ZERO;
        o->BlendEnable = k->mode == 0 && !opaque;
        o->SrcBlend = blend_factor(b->color_source_blend, false);
        o->DestBlend = blend_factor(b->color_destination_blend, false);
        o->BlendOp = blend_op(b->color_blend_function);
        o->SrcBlendAlpha = blend_factor(b->alpha_source_blend, true);
        o->DestBlendAlpha = blend_factor(b->alpha_destination_blend, true);
        o->BlendOpAlpha = blend_op(b->alpha_blend_function);
        o->LogicOp = D3D12_LOGIC_OP_NOOP;
        unsigned m = b->color_write_channels;
        o->RenderTargetWriteMask = k->mode != 0 ? D3D12_COLOR_WRITE_ENABLE_ALL
                                                : (UINT8)(m & XGD_COLOR_WRITE_ALL);
    }
    d.SampleMask = (UINT)k->sample_mask;

    D3D12_RASTERIZER_DESC *rs = &d.RasterizerState;
    rs->FillMode = k->fill == XGD_FILL_WIREFRAME ? D3D12_FILL_MODE_WIREFRAME
                                                 : D3D12_FILL_MODE_SOLID;
    /* front face = clockwise on screen; CullCounterClockwiseFace culls the back faces */
    rs->CullMode = k->cull == XGD_CULL_CLOCKWISE_FACE           ? D3D12_CULL_MODE_FRONT
                   : k->cull == XGD_CULL_COUNTER_CLOCKWISE_FACE ? D3D12_CULL_MODE_BACK
                                                                : D3D12_CULL_MODE_NONE;
    rs->FrontCounterClockwise = FALSE;
    rs->DepthBias = k->depth_bias;
    rs->SlopeScaledDepthBias = k->slope_bias;
    rs->DepthClipEnable = TRUE;
    rs->MultisampleEnable = k->msaa_lines;
    rs->AntialiasedLineEnable = FALSE;

    D3D12_DEPTH_STENCIL_DESC *ds = &d.DepthStencilState;
    if (k->dsv != DXGI_FORMAT_UNKNOWN && k->mode == 0) {
        ds->DepthEnable = k->ds.depth_buffer_enable;
        ds->DepthWriteMask = ds->DepthEnable && k->ds.depth_buffer_write_enable
                                 ? D3D12_DEPTH_WRITE_MASK_ALL
                                 : D3D12_DEPTH_WRITE_MASK_ZERO;
        ds->DepthFunc = compare(k->ds.depth_function);
        ds->StencilEnable = k->ds.stencil_enable;
        ds->StencilReadMask = (UINT8)k->ds.stencil_mask;
        ds->StencilWriteMask = (UINT8)k->ds.stencil_write_mask;
        ds->FrontFace.StencilFunc = compare(k->ds.stencil_function);
        ds->FrontFace.StencilPassOp = stencil_op(k->ds.stencil_pass);
        ds->FrontFace.StencilFailOp = stencil_op(k->ds.stencil_fail);
        ds->FrontFace.StencilDepthFailOp = stencil_op(k->ds.stencil_depth_fail);
        if (k->ds.two_sided_stencil) {
            ds->BackFace.StencilFunc = compare(k->ds.ccw_stencil_function);
            ds->BackFace.StencilPassOp = stencil_op(k->ds.ccw_stencil_pass);
            ds->BackFace.StencilFailOp = stencil_op(k->ds.ccw_stencil_fail);
            ds->BackFace.StencilDepthFailOp = stencil_op(k->ds.ccw_stencil_depth_fail);
        } else {
            ds->BackFace = ds->FrontFace;
        }
    }
    d.PrimitiveTopologyType = k->topology;
    d.NumRenderTargets = (UINT)k->rt_count;
    for (int i = 0; i < k->rt_count; i++) d.RTVFormats[i] = k->rtv[i];
    d.DSVFormat = k->mode == 0 ? k->dsv : DXGI_FORMAT_UNKNOWN;
    d.SampleDesc.Count = (UINT)k->samples;
    HRESULT hr = ID3D12Device_CreateGraphicsPipelineState(r->dev, &d, &IID_ID3D12PipelineState,
                                                          (void **)out);
    if (SUCCEEDED(hr))
        d3d12_set_name(r, *out, "xgd %s pso (%d targets, %dx)", k->mode != 0 ? "blit" : "user",
                       k->rt_count, k->samples);
    return xgdi_d3d12_check(r, hr, "CreateGraphicsPipelineState");
}

xgd_result xgdi_d3d12_pso_get(d3d12_renderer *r, const d3d12_pso_key *key, ID3D12PipelineState **out)
{
    if (r->pso_last < r->pso_count &&
        memcmp(&r->psos[r->pso_last].key, key, sizeof *key) == 0) {
        *out = r->psos[r->pso_last].pso;
        return XGD_OK;
    }
    uint64_t h = key_hash(key);
    for (size_t i = 0; i < r->pso_count; i++) {
        if (r->psos[i].hash == h && memcmp(&r->psos[i].key, key, sizeof *key) == 0) {
            r->pso_last = i;
            *out = r->psos[i].pso;
            return XGD_OK;
        }
    }
    if (r->pso_count == r->pso_capacity) {
        size_t nc = r->pso_capacity ? r->pso_capacity * 2 : 32;
        d3d12_pso_entry *n = realloc(r->psos, nc * sizeof *n);
        if (n == NULL)
            return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
        r->psos = n;
        r->pso_capacity = nc;
    }
    ID3D12PipelineState *pso = NULL;
    xgd_result res = create_pso(r, key, &pso);
    if (res != XGD_OK) return res;
    d3d12_pso_entry *e = &r->psos[r->pso_count++];
    e->hash = h;
    e->key = *key;
    e->pso = pso;
    r->pso_last = r->pso_count - 1;
    *out = pso;
    return XGD_OK;
}

static void retired_pso_free(xgdi_renderer *r, void *object)
{
    (void)r;
    ID3D12PipelineState_Release((ID3D12PipelineState *)object);
}

/* The PSOs made from a shader that is going: no later draw can ask for them (serials are never
 * reused), so they leave the cache and are released once the work that may use them is done
 * (the open frame's list may). Without this, a program that made and destroyed effects kept
 * every PSO it ever used until the device went. A PSO the retire queue cannot take (out of
 * memory) stays cached: released with the device, and never wrong. */
void xgdi_d3d12_psos_forget_shader(d3d12_renderer *r, uint64_t serial)
{
    for (size_t i = 0; i < r->pso_count;) {
        d3d12_pso_entry *e = &r->psos[i];
        if (e->key.mode != 0 || (e->key.user_vs != serial && e->key.user_ps != serial) ||
            xgdi_retire_push(&r->base.retired, r->base.submitted_fence + 1, retired_pso_free,
                             e->pso) != XGD_OK) {
            i++;
            continue;
        }
        if (r->memo_pso == e->pso) r->memo_pso = NULL;
        if (r->current_pso == e->pso) r->current_pso = NULL;
        *e = r->psos[--r->pso_count];
    }
    r->pso_last = 0; /* pso_get compares the key before it trusts the index */
}
