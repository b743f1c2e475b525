/*
 * d3d12_user.c - user shaders: the shader form of renderer.h (SPIR-V) translated to DXBC by
 * d3d12_dxbc.c, and what a draw of XGDI_PROGRAM_USER binds.
 *
 * Bindings: the form's vertex block (set 0, binding 0) becomes cbuffer b0, the pixel block
 * (binding 1) b1, and the combined image sampler of pixel sampler register s (binding 2 + s)
 * texture t<s> with sampler s<s>; that of vertex sampler register s (binding 18 + s, vertex
 * texture slot s) t<s> / s<s> of the vertex stage. Their root signatures have the blocks as
 * root CBVs, so a draw's constants are a copy into the frame's constant arena and one root
 * argument per changed block, and a table of one descriptor per register, so the device's
 * texture and sampler slots bind their existing descriptors without contiguous ranges.
 * A program gets the root signature of its shape: the registers up to the highest one each
 * stage samples, and the pixel block only when the pixel shader has one. vkd3d writes every
 * table of the root signature into a new descriptor set whenever one table changes, so a
 * signature declaring all 20 registers made each texture change cost twenty times the
 * descriptor writes of the one register a sprite shader reads. Every table gets a valid
 * descriptor (lavapipe reads every sampler of the set): registers below the highest that
 * the shader does not sample get the black texture and a stock sampler.
 */
#include "d3d12_internal.h"
#include "d3d12_dxbc.h"

#include <stdlib.h>
#include <string.h>

/* Root parameter order of a shape: [0] the vertex block b0 (a vertex shader always has one:
   its pixel_offset), [1] the pixel block b1 when the pixel shader has one, then per pixel
   register a table of one SRV and a table of one sampler, then the same per vertex register;
   each table is visible to its own stage only, as Direct3D's per-stage slots (the vertex
   stage's registers t0..t3 / s0..s3 overlap the pixel stage's). */
/* Root parameter order of a shape: [0] the vertex block b0 (a vertex shader always has one:
   its pixel_offset), [1] the pixel block b1 when the pixel shader has one, then per register
   with a table (shape_slots: pixel registers, then vertex ones) a table of one SRV and a
   table of one sampler; each table is visible to its own stage only, as Direct3D's per-stage
   slots (the vertex stage's registers t0..t3 / s0..s3 overlap the pixel stage's). */
static xgd_result create_root(d3d12_renderer *r, int pixel, int vertex, bool ps_cbv,
                              ID3D12RootSignature **out)
{
    D3D12_DESCRIPTOR_RANGE srv[D3D12X_USER_SAMPLERS], smp[D3D12X_USER_SAMPLERS];
    D3D12_ROOT_PARAMETER params[2 + 2 * D3D12X_USER_SAMPLERS];
    memset(params, 0, sizeof params);
    UINT n = 0;
    params[n].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[n].Descriptor.ShaderRegister = 0;
    params[n++].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    if (ps_cbv) {
        params[n].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
        params[n].Descriptor.ShaderRegister = 1;
        params[n++].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    }
    for (int k = 0; k < pixel + vertex; k++) {
        bool vs = k >= pixel;
        UINT reg = (UINT)(vs ? k - pixel : k);
        D3D12_SHADER_VISIBILITY vis = vs ? D3D12_SHADER_VISIBILITY_VERTEX : D3D12_SHADER_VISIBILITY_PIXEL;
        srv[k] = (D3D12_DESCRIPTOR_RANGE){ D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, reg, 0, 0 };
        smp[k] = (D3D12_DESCRIPTOR_RANGE){ D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, reg, 0, 0 };
        for (int t = 0; t < 2; t++) {
            D3D12_ROOT_PARAMETER *p = &params[n++];
            p->ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
            p->DescriptorTable.NumDescriptorRanges = 1;
            p->DescriptorTable.pDescriptorRanges = t == 0 ? &srv[k] : &smp[k];
            p->ShaderVisibility = vis;
        }
    }
    D3D12_ROOT_SIGNATURE_DESC rd = { n, params, 0, NULL,
                                     D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ID3DBlob *blob = NULL, *err = NULL;
    HRESULT hr = D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    if (err != NULL) ID3D10Blob_Release(err);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "D3D12SerializeRootSignature (user programs)");
    hr = ID3D12Device_CreateRootSignature(r->dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                          ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                          (void **)out);
    ID3D10Blob_Release(blob);
    if (SUCCEEDED(hr))
        d3d12_set_name(r, *out, "xgd user-program root signature (%d pixel, %d vertex registers%s)",
                       pixel, vertex, ps_cbv ? ", pixel block" : "");
    return xgdi_d3d12_check(r, hr, "CreateRootSignature (user programs)");
}

static int highest_sampled(const xgdi_sampler_kind *kinds, int n)
{
    int top = 0;
    for (int i = 0; i < n; i++)
        if (kinds[i] != XGDI_SAMPLER_NONE) top = i + 1;
    return top;
}

xgd_result xgdi_d3d12_user_shape(d3d12_renderer *r, const xgdi_native_shader *vs,
                                 const xgdi_native_shader *ps)
{
    if (vs->serial == r->shape_vs && ps->serial == r->shape_ps) return XGD_OK;
    int pixel = highest_sampled(ps->sampler_kinds, XGDI_SHADER_MAX_SAMPLERS);
    int vertex = highest_sampled(vs->sampler_kinds, XGDI_SHADER_MAX_VERTEX_SAMPLERS);
    bool ps_cbv = ps->constant_count > 0;
    uint32_t key = (uint32_t)pixel | (uint32_t)vertex << 5 | (ps_cbv ? 1u << 8 : 0u);
    ID3D12RootSignature *root = NULL;
    for (size_t i = 0; i < r->user_root_count && root == NULL; i++)
        if (r->user_roots[i].key == key) root = r->user_roots[i].root;
    if (root == NULL) {
        if (r->user_root_count == r->user_root_capacity) {
            size_t nc = r->user_root_capacity ? r->user_root_capacity * 2 : 8;
            d3d12_user_root *n = realloc(r->user_roots, nc * sizeof *n);
            if (n == NULL)
                return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
            r->user_roots = n;
            r->user_root_capacity = nc;
        }
        xgd_result res = create_root(r, pixel, vertex, ps_cbv, &root);
        if (res != XGD_OK) return res;
        r->user_roots[r->user_root_count++] = (d3d12_user_root){ key, root };
    }
    r->shape_vs = vs->serial;
    r->shape_ps = ps->serial;
    r->shape_ps_cbv = ps_cbv;
    r->shape_root = root;
    /* the registers with tables, in root parameter order: pixel 0..pixel-1, then vertex */
    r->shape_slot_count = 0;
    for (int i = 0; i < pixel; i++) r->shape_slots[r->shape_slot_count++] = (uint8_t)i;
    for (int i = 0; i < vertex; i++)
        r->shape_slots[r->shape_slot_count++] = (uint8_t)(XGDI_SHADER_MAX_SAMPLERS + i);
    return XGD_OK;
}

static void user_reset(d3d12_renderer *r)
{
    r->user_root = r->shape_root = NULL;
    r->shape_vs = r->shape_ps = 0;
    r->filler_ready = false;
    memset(r->sampler_memo_valid, 0, sizeof r->sampler_memo_valid);
    memset(r->sampler_memo_ptr, 0, sizeof r->sampler_memo_ptr);
}

xgd_result xgdi_d3d12_user_init(d3d12_renderer *r)
{
    user_reset(r);
    return XGD_OK;
}

void xgdi_d3d12_user_free(d3d12_renderer *r)
{
    for (size_t i = 0; i < r->user_root_count; i++) ID3D12RootSignature_Release(r->user_roots[i].root);
    free(r->user_roots);
    r->user_roots = NULL;
    r->user_root_count = r->user_root_capacity = 0;
    user_reset(r);
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
   shader goes at once; the PSOs made from it leave the cache (no later draw can ask for them:
   serials are never reused) and are released after the work that may use them. */
void xgdi_d3d12_op_shader_destroy(xgdi_renderer *base, xgdi_native_shader *s)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (s == NULL) return;
    xgdi_d3d12_psos_forget_shader(r, s->serial);
    if (r->building_vs == s) r->building_vs = NULL;
    if (r->building_ps == s) r->building_ps = NULL;
    xgdi_d3d12_dxbc_free(s->dxbc);
    free(s->spirv);
    free(s);
}

/* The sampler of a register's bound state (NULL: XNA's SamplerState.LinearWrap, as the stock
   path uses for an unset state). Heap indices stay valid while the device lives, so the last
   index found for the register serves while the description is equal. */
static xgd_result slot_sampler(d3d12_renderer *r, int slot, const xgd_sampler_desc *desc,
                               uint32_t *index)
{
    if (desc == NULL) {
        if (!r->filler_ready) {
            static const xgd_sampler_desc linear_wrap = { XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP,
                                                          XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP, 4,
                                                          0, 0.0f };
            xgd_result res = xgdi_d3d12_sampler_get(r, &linear_wrap, &r->filler_sampler);
            if (res != XGD_OK) return res;
            r->filler_ready = true;
        }
        *index = r->filler_sampler;
        return XGD_OK;
    }
    /* the same state as the last draw's, unless core marked a change of sampler states
       since (a state destroyed and another made at its address is set again) */
    if (desc == r->sampler_memo_ptr[slot] &&
        (r->user_dirty & (XGDI_DIRTY_SAMPLERS | XGDI_DIRTY_VERTEX_TEXTURES)) == 0) {
        *index = r->sampler_memo[slot];
        return XGD_OK;
    }
    if (!r->sampler_memo_valid[slot] ||
        memcmp(&r->sampler_memo_desc[slot], desc, sizeof *desc) != 0) {
        xgd_result res = xgdi_d3d12_sampler_get(r, desc, &r->sampler_memo[slot]);
        if (res != XGD_OK) return res;
        r->sampler_memo_desc[slot] = *desc;
        r->sampler_memo_valid[slot] = true;
    }
    r->sampler_memo_ptr[slot] = desc;
    *index = r->sampler_memo[slot];
    return XGD_OK;
}

xgd_result xgdi_d3d12_user_prepare(d3d12_renderer *r, const xgdi_draw_state *st,
                                   d3d12_user_binding *b)
{
    b->cbv[0] = b->cbv[1] = 0;
    xgd_result res;
    if ((st->vs->serial != r->shape_vs || st->ps->serial != r->shape_ps) &&
        (res = xgdi_d3d12_user_shape(r, st->vs, st->ps)) != XGD_OK)
        return res;
    /* another shape's root signature: op_draw records it, which drops every root argument */
    if (r->user_root != r->shape_root) {
        r->user_root = r->shape_root;
        r->user_root_bound = false;
        r->draw_state_valid = false;
    }
    for (int k = 0; k < r->shape_slot_count; k++) {
        /* the pixel shader's registers, then the vertex shader's (vertex texture slots) */
        int i = r->shape_slots[k];
        bool vertex = i >= XGDI_SHADER_MAX_SAMPLERS;
        int reg = vertex ? i - XGDI_SHADER_MAX_SAMPLERS : i;
        xgdi_sampler_kind kind = vertex ? st->vs->sampler_kinds[reg] : st->ps->sampler_kinds[reg];
        b->textures[i] = NULL;
        if (kind == XGDI_SAMPLER_NONE) {
            b->srv[i] = r->black->srv;
            if ((res = slot_sampler(r, i, NULL, &b->sampler[i])) != XGD_OK) return res;
            continue;
        }
        xgdi_native_texture *bound = vertex ? st->vertex_textures[reg] : st->textures[reg];
        const xgd_sampler_desc *bound_sampler = vertex ? st->vertex_samplers[reg] : st->samplers[reg];
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
        if ((res = slot_sampler(r, i, bound_sampler, &b->sampler[i])) != XGD_OK) return res;
    }

    /* Blocks equal to the bound ones are neither uploaded nor rebound: valid while the list's
       user root arguments are the last recorded. */
    bool valid = r->draw_state_valid && !r->heaps_dirty && r->user_root_bound;
    /* compared only when core marked a change of blocks or shaders since they were bound */
    bool unchanged = (r->user_dirty & (XGDI_DIRTY_CONSTANTS | XGDI_DIRTY_PROGRAM)) == 0;
    const float *data[2] = { st->vs_constants, st->ps_constants };
    size_t size[2] = { st->vs_constants_size, st->ps_constants_size };
    d3d12_frame *f = &r->frames[r->slot];
    for (int i = 0; i < 2; i++) {
        if (size[i] > sizeof r->user_last[i])
            return xgdi_fail(r->base.device, XGD_ERROR_INVALID_ARGUMENT,
                             "d3d12: a %zu-byte constant block (at most %zu)", size[i],
                             sizeof r->user_last[i]);
        /* a pixel shader without a block has no root CBV in its shape */
        if (size[i] == 0 || (i == 1 && !r->shape_ps_cbv)) continue;
        if (valid && r->user_last_size[i] == size[i] &&
            (unchanged || memcmp(r->user_last[i], data[i], size[i]) == 0))
            continue;
        d3d12_alloc a;
        res = xgdi_d3d12_linear_alloc(r, &f->constants, size[i], D3D12X_CBV_ALIGN, &a);
        if (res != XGD_OK) return res;
        memcpy(a.cpu, data[i], size[i]);
        b->cbv[i] = a.gpu;
        b->data[i] = data[i];
        b->size[i] = size[i];
    }
    return XGD_OK;
}

/* Queues the transition of every subresource not yet in `to` (most draws: none, tested here
   without a call per subresource). */
static void read_state(d3d12_renderer *r, xgdi_native_texture *t, D3D12_RESOURCE_STATES to)
{
    int n = t->faces * t->desc.levels;
    for (int s = 0; s < n; s++)
        if (t->states[s] != to) xgdi_d3d12_transition(r, t->res, (UINT)s, &t->states[s], to);
}

void xgdi_d3d12_user_transitions(d3d12_renderer *r, const d3d12_user_binding *b)
{
    /* a vertex texture is read by the vertex stage (and may be a pixel slot's too: the
       read-only states combine) */
    for (int k = 0; k < r->shape_slot_count; k++) {
        int i = r->shape_slots[k];
        if (b->textures[i] != NULL)
            read_state(r, b->textures[i],
                       i < XGDI_SHADER_MAX_SAMPLERS ? D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE
                                                    : D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE |
                                                          D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    }
}

void xgdi_d3d12_user_bind(d3d12_renderer *r, const d3d12_user_binding *b, bool valid)
{
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    /* the blocks bound become the ones later draws compare with (a draw that failed before
       recording bound nothing, so they change only here) */
    for (int i = 0; i < 2; i++) {
        if (b->cbv[i] == 0) continue;
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, (UINT)i, b->cbv[i]);
        memcpy(r->user_last[i], b->data[i], b->size[i]);
        r->user_last_size[i] = b->size[i];
    }
    r->user_dirty = 0;
    UINT64 srv0 = r->view_heap.visible_gpu.ptr, smp0 = r->sampler_heap.visible_gpu.ptr;
    UINT64 srv_inc = r->view_heap.increment, smp_inc = r->sampler_heap.increment;
    UINT table = r->shape_ps_cbv ? 2 : 1;
    for (int k = 0; k < r->shape_slot_count; k++, table += 2) {
        int i = r->shape_slots[k];
        D3D12_GPU_DESCRIPTOR_HANDLE t = { srv0 + (UINT64)b->srv[i] * srv_inc };
        if (!valid || t.ptr != r->user_last_srv[i]) {
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, table, t);
            r->user_last_srv[i] = t.ptr;
        }
        D3D12_GPU_DESCRIPTOR_HANDLE s = { smp0 + (UINT64)b->sampler[i] * smp_inc };
        if (!valid || s.ptr != r->user_last_sampler[i]) {
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, table + 1, s);
            r->user_last_sampler[i] = s.ptr;
        }
    }
}
