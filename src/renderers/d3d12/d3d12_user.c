/*
 * d3d12_user.c - user shaders: the shader form of renderer.h (SPIR-V) translated to DXBC by
 * d3d12_dxbc.c, and what a draw of XGDI_PROGRAM_USER binds.
 *
 * Bindings: the form's vertex block (set 0, binding 0) becomes cbuffer b0, the pixel block
 * (binding 1) b1, and the combined image sampler of pixel sampler register s (binding 2 + s)
 * texture t<s> with sampler s<s>; that of vertex sampler register s (binding 18 + s, vertex
 * texture slot s) t<s> / s<s> of the vertex stage. Their own root signature (d3d12_internal.h,
 * D3D12X_USER_ROOT_*) has the blocks as root CBVs, so a draw's constants are a copy into the
 * frame's constant arena and one root argument per changed block, and a table of one
 * descriptor per register, so the device's texture and sampler slots bind their existing
 * descriptors without contiguous ranges. Every table gets a valid descriptor on every draw
 * (vkd3d writes the whole descriptor set, and lavapipe reads every sampler in it): registers
 * the shader does not sample get the black texture and a stock sampler.
 */
#include "d3d12_internal.h"
#include "d3d12_dxbc.h"

#include <stdlib.h>
#include <string.h>

xgd_result xgdi_d3d12_user_init(d3d12_renderer *r)
{
    D3D12_DESCRIPTOR_RANGE srv[D3D12X_USER_SAMPLERS], smp[D3D12X_USER_SAMPLERS];
    D3D12_ROOT_PARAMETER params[D3D12X_USER_ROOT_COUNT];
    memset(params, 0, sizeof params);
    params[D3D12X_USER_ROOT_VS_CBV].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[D3D12X_USER_ROOT_VS_CBV].Descriptor.ShaderRegister = 0;
    params[D3D12X_USER_ROOT_VS_CBV].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    params[D3D12X_USER_ROOT_PS_CBV].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[D3D12X_USER_ROOT_PS_CBV].Descriptor.ShaderRegister = 1;
    params[D3D12X_USER_ROOT_PS_CBV].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    for (UINT s = 0; s < D3D12X_USER_SAMPLERS; s++) {
        /* the vertex stage's registers overlap the pixel stage's: each table is visible to
           its own stage only, as Direct3D's per-stage slots */
        bool vertex = s >= XGDI_SHADER_MAX_SAMPLERS;
        UINT reg = vertex ? s - XGDI_SHADER_MAX_SAMPLERS : s;
        D3D12_SHADER_VISIBILITY vis = vertex ? D3D12_SHADER_VISIBILITY_VERTEX : D3D12_SHADER_VISIBILITY_PIXEL;
        srv[s] = (D3D12_DESCRIPTOR_RANGE){ D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, reg, 0, 0 };
        smp[s] = (D3D12_DESCRIPTOR_RANGE){ D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, reg, 0, 0 };
        D3D12_ROOT_PARAMETER *p = &params[D3D12X_USER_ROOT_SRV0 + s];
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        p->DescriptorTable.NumDescriptorRanges = 1;
        p->DescriptorTable.pDescriptorRanges = &srv[s];
        p->ShaderVisibility = vis;
        p = &params[D3D12X_USER_ROOT_SAMPLER0 + s];
        p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        p->DescriptorTable.NumDescriptorRanges = 1;
        p->DescriptorTable.pDescriptorRanges = &smp[s];
        p->ShaderVisibility = vis;
    }
    D3D12_ROOT_SIGNATURE_DESC rd = { D3D12X_USER_ROOT_COUNT, params, 0, NULL,
                                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    if (err != NULL) ID3D10Blob_Release(err);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "D3D12SerializeRootSignature (user programs)");
    hr = ID3D12Device_CreateRootSignature(r->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                          ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                          (void **)&r->user_root);
    ID3D10Blob_Release(blob);
    if (SUCCEEDED(hr)) d3d12_set_name(r, r->user_root, "xgd user-program root signature");
    return xgdi_d3d12_check(r, hr, "CreateRootSignature (user programs)");
}

void xgdi_d3d12_user_free(d3d12_renderer *r)
{
    if (r->user_root != NULL) ID3D12RootSignature_Release(r->user_root);
    r->user_root = NULL;
}

static void user_binding_map(xgdi_d3d12_dxbc_binding map[2 + D3D12X_USER_SAMPLERS])
{
    map[0] = (xgdi_d3d12_dxbc_binding){ XGDI_D3D12_DXBC_CBUFFER, 0,
                                        XGDI_SHADER_BINDING_VS_CONSTANTS, 0, 0 };
    map[1] = (xgdi_d3d12_dxbc_binding){ XGDI_D3D12_DXBC_CBUFFER, 0,
                                        XGDI_SHADER_BINDING_PS_CONSTANTS, 1, 0 };
    for (uint32_t s = 0; s < XGDI_SHADER_MAX_SAMPLERS; s++)
        map[2 + s] = (xgdi_d3d12_dxbc_binding){ XGDI_D3D12_DXBC_TEXTURE, 0,
                                                XGDI_SHADER_BINDING_SAMPLER0 + s, s, s };
    /* vertex texture slot s: t<s> / s<s> of the vertex stage */
    for (uint32_t s = 0; s < XGDI_SHADER_MAX_VERTEX_SAMPLERS; s++)
        map[2 + XGDI_SHADER_MAX_SAMPLERS + s] = (xgdi_d3d12_dxbc_binding){
            XGDI_D3D12_DXBC_TEXTURE, 0, XGDI_SHADER_BINDING_VERTEX_SAMPLER0 + s, s, s };
}

xgd_result xgdi_d3d12_user_vs_int_inputs(d3d12_renderer *r, const xgdi_native_shader *vs,
                                         uint32_t uint_locations, uint32_t sint_locations,
                                         void **dxbc, size_t *size)
{
    if (vs->spirv == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION,
                         "d3d12: the vertex shader's SPIR-V is not kept");
    xgdi_d3d12_dxbc_binding map[2 + D3D12X_USER_SAMPLERS];
    user_binding_map(map);
    char msg[256] = "";
    xgd_result res = xgdi_d3d12_dxbc_from_spirv_int_inputs(
        vs->spirv, vs->spirv_words, map, sizeof map / sizeof map[0], uint_locations,
        sint_locations, dxbc, size, msg, sizeof msg);
    if (res == XGD_ERROR_OUT_OF_MEMORY)
        return xgdi_fail(r->base.device, res, "d3d12: out of memory translating the vertex shader");
    if (res != XGD_OK)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the vertex shader cannot be translated to DXBC: %s", msg);
    return XGD_OK;
}

xgd_result xgdi_d3d12_op_shader_create(xgdi_renderer *base, const xgdi_shader_desc *desc,
                                       xgdi_native_shader **out)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (desc->input_count < 0 || desc->input_count > XGDI_SHADER_MAX_INPUTS)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: %d vertex shader inputs (at most %d)", desc->input_count,
                         XGDI_SHADER_MAX_INPUTS);
    xgdi_d3d12_dxbc_binding map[2 + D3D12X_USER_SAMPLERS];
    user_binding_map(map);
    void *dxbc = NULL;
    size_t size = 0;
    char msg[256] = "";
    xgd_result res = xgdi_d3d12_dxbc_from_spirv(desc->code, desc->word_count, map,
                                                sizeof map / sizeof map[0], &dxbc, &size, msg,
                                                sizeof msg);
    const char *what = desc->stage == XGDI_SHADER_VERTEX ? "vertex" : "pixel";
    if (res == XGD_ERROR_OUT_OF_MEMORY)
        return xgdi_fail(base->device, res, "d3d12: out of memory translating the %s shader", what);
    /* the form reaching a renderer is core's normalised SPIR-V, so any refusal is something
       this translator cannot express: the shader does not run on this renderer */
    if (res != XGD_OK)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the %s shader cannot be translated to DXBC: %s", what, msg);
    xgdi_native_shader *s = calloc(1, sizeof *s);
    if (s != NULL && desc->stage == XGDI_SHADER_VERTEX) {
        s->spirv = malloc(desc->word_count * sizeof *s->spirv);
        if (s->spirv == NULL) {
            free(s);
            s = NULL;
        } else {
            memcpy(s->spirv, desc->code, desc->word_count * sizeof *s->spirv);
            s->spirv_words = desc->word_count;
        }
    }
    if (s == NULL) {
        xgdi_d3d12_dxbc_free(dxbc);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    }
    s->stage = desc->stage;
    s->serial = ++r->user_serial;
    s->dxbc = dxbc;
    s->dxbc_size = size;
    s->constant_count = desc->constant_count;
    s->input_count = desc->input_count;
    if (desc->input_count > 0)
        memcpy(s->inputs, desc->inputs, sizeof *s->inputs * (size_t)desc->input_count);
    memcpy(s->sampler_kinds, desc->sampler_kinds, sizeof s->sampler_kinds);
    s->color_outputs = desc->color_outputs;
    *out = s;
    return XGD_OK;
}

/* A PSO keeps its own copy of the bytecode and a recorded list references only PSOs, so the
   shader goes at once; its PSOs stay cached under serials that are never reused. */
void xgdi_d3d12_op_shader_destroy(xgdi_renderer *base, xgdi_native_shader *s)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (s == NULL) return;
    if (r->building_vs == s) r->building_vs = NULL;
    if (r->building_ps == s) r->building_ps = NULL;
    xgdi_d3d12_dxbc_free(s->dxbc);
    free(s->spirv);
    free(s);
}

xgd_result xgdi_d3d12_user_prepare(d3d12_renderer *r, const xgdi_draw_state *st,
                                   d3d12_user_binding *b)
{
    memset(b, 0, sizeof *b);
    /* XNA's SamplerState.LinearWrap, as the stock path uses for an unset state */
    static const xgd_sampler_desc linear_wrap = { XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP,
                                                  XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, 4, 0, 0.0f };
    uint32_t filler = 0;
    xgd_result res = xgdi_d3d12_sampler_get(r, &linear_wrap, &filler);
    if (res != XGD_OK) return res;
    for (int i = 0; i < D3D12X_USER_SAMPLERS; i++) {
        /* the pixel shader's registers, then the vertex shader's (vertex texture slots) */
        bool vertex = i >= XGDI_SHADER_MAX_SAMPLERS;
        int reg = vertex ? i - XGDI_SHADER_MAX_SAMPLERS : i;
        xgdi_sampler_kind kind = vertex ? st->vs->sampler_kinds[reg] : st->ps->sampler_kinds[reg];
        xgdi_native_texture *bound = vertex ? st->vertex_textures[reg] : st->textures[reg];
        const xgd_sampler_desc *bound_sampler = vertex ? st->vertex_samplers[reg] : st->samplers[reg];
        b->srv[i] = r->black->srv;
        b->sampler[i] = filler;
        if (kind == XGDI_SAMPLER_NONE) continue;
        /* core guarantees a bound texture's kind matches the register's; an empty slot reads
           (0,0,0,1) from the black stand-in of the register's kind */
        xgdi_native_texture *t = bound != NULL ? bound
                                 : kind == XGDI_SAMPLER_3D ? r->black_volume
                                 : kind == XGDI_SAMPLER_2D ? r->black
                                                           : NULL;
        if (t == NULL)
            return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                             "d3d12: sampler s%d of the %s shader needs a %s texture bound", reg,
                             vertex ? "vertex" : "pixel", kind == XGDI_SAMPLER_CUBE ? "cube" : "3D");
        b->textures[i] = t;
        b->srv[i] = t->srv;
        if (bound_sampler != NULL) {
            res = xgdi_d3d12_sampler_get(r, bound_sampler, &b->sampler[i]);
            if (res != XGD_OK) return res;
        }
    }

    /* Blocks equal to the bound ones are neither uploaded nor rebound: valid while the list's
       user root arguments are the last recorded. */
    bool valid = r->draw_state_valid && !r->heaps_dirty && r->user_root_bound;
    const float *data[2] = { st->vs_constants, st->ps_constants };
    size_t size[2] = { st->vs_constants_size, st->ps_constants_size };
    d3d12_frame *f = &r->frames[r->slot];
    for (int i = 0; i < 2; i++) {
        if (size[i] > sizeof r->user_last[i])
            return xgdi_fail(r->base.device, XGD_ERROR_INVALID_ARGUMENT,
                             "d3d12: a %zu-byte constant block (at most %zu)", size[i],
                             sizeof r->user_last[i]);
        if (size[i] == 0) continue;
        if (valid && r->user_last_size[i] == size[i] &&
            memcmp(r->user_last[i], data[i], size[i]) == 0)
            continue;
        d3d12_alloc a;
        res = xgdi_d3d12_linear_alloc(r, &f->constants, size[i], D3D12X_CBV_ALIGN, &a);
        if (res != XGD_OK) return res;
        memcpy(a.cpu, data[i], size[i]);
        b->cbv[i] = a.gpu;
    }
    /* a pixel shader without a block reads no b1, but the root CBV still needs an address */
    if (size[1] == 0 && !valid) b->cbv[1] = b->cbv[0];
    for (int i = 0; i < 2; i++) {
        if (b->cbv[i] == 0) continue;
        memcpy(r->user_last[i], data[i], size[i]);
        r->user_last_size[i] = size[i];
    }
    return XGD_OK;
}

void xgdi_d3d12_user_transitions(d3d12_renderer *r, const d3d12_user_binding *b)
{
    /* a vertex texture is read by the vertex stage (and may be a pixel slot's too: the
       read-only states combine) */
    for (int i = 0; i < D3D12X_USER_SAMPLERS; i++)
        if (b->textures[i] != NULL)
            xgdi_d3d12_texture_transition_all(
                r, b->textures[i],
                i < XGDI_SHADER_MAX_SAMPLERS ? D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE
                                             : D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE |
                                                   D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
}

void xgdi_d3d12_user_bind(d3d12_renderer *r, const d3d12_user_binding *b, bool valid)
{
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    if (b->cbv[0] != 0)
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, D3D12X_USER_ROOT_VS_CBV,
                                                                    b->cbv[0]);
    if (b->cbv[1] != 0)
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, D3D12X_USER_ROOT_PS_CBV,
                                                                    b->cbv[1]);
    for (int i = 0; i < D3D12X_USER_SAMPLERS; i++) {
        D3D12_GPU_DESCRIPTOR_HANDLE t = xgdi_d3d12_gpu_heap_gpu(&r->view_heap, b->srv[i]);
        if (!valid || t.ptr != r->user_last_srv[i]) {
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
                list, D3D12X_USER_ROOT_SRV0 + (UINT)i, t);
            r->user_last_srv[i] = t.ptr;
        }
        D3D12_GPU_DESCRIPTOR_HANDLE s = xgdi_d3d12_gpu_heap_gpu(&r->sampler_heap, b->sampler[i]);
        if (!valid || s.ptr != r->user_last_sampler[i]) {
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
                list, D3D12X_USER_ROOT_SAMPLER0 + (UINT)i, s);
            r->user_last_sampler[i] = s.ptr;
        }
    }
}
