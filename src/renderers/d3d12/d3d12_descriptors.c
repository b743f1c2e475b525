/*
 * d3d12_descriptors.c - descriptor heaps that grow and recycle (spec 003, issue 5):
 * RTV/DSV from a chain of CPU heap blocks that doubles (handles never move); CBV/SRV/UAV and
 * samplers from a shader-visible heap mirrored from a CPU staging heap, replaced by a pair of
 * twice the capacity on growth (re-mirrored from staging, callers keep their indices); freed
 * indices and retired heaps stamped with the fence value that could still reference them and
 * recycled only after it passes; a sampler cache so identical states allocate nothing.
 */
#include "d3d12_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- index pools -------------------------------------------------------------------------- */

/* A freed index is reusable once completed_fence() >= its stamp. */
static bool pool_take_free(d3d12_renderer *r, d3d12_index_pool *p, uint32_t *index)
{
    if (p->free_count == 0) return false;
    d3d12_free_index *f = &p->free[p->free_head];
    if (f->fence > xgdi_d3d12_completed(r)) return false;
    *index = f->index;
    p->free_head = (p->free_head + 1) % p->free_capacity;
    p->free_count--;
    p->recycles++;
    return true;
}

static void pool_count_live(d3d12_index_pool *p)
{
    p->live++;
    if (p->live > p->peak) p->peak = p->live;
}

static xgd_result pool_push_free(d3d12_renderer *r, d3d12_index_pool *p, uint32_t index)
{
    if (p->free_count == p->free_capacity) {
        size_t nc = p->free_capacity ? p->free_capacity * 2 : 64;
        d3d12_free_index *n = malloc(nc * sizeof *n);
        if (n == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        for (size_t i = 0; i < p->free_count; i++)
            n[i] = p->free[(p->free_head + i) % p->free_capacity];
        free(p->free);
        p->free = n;
        p->free_head = 0;
        p->free_capacity = nc;
    }
    /* the open frame may have recorded a use of the index */
    d3d12_free_index f = { index, r->base.submitted_fence + 1 };
    p->free[(p->free_head + p->free_count) % p->free_capacity] = f;
    p->free_count++;
    if (p->live > 0) p->live--;
    return XGD_OK;
}

static void pool_free(d3d12_index_pool *p)
{
    free(p->free);
    memset(p, 0, sizeof *p);
}

static xgd_result d3d12_new_heap(d3d12_renderer *r, D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t n,
                                 bool visible, ID3D12DescriptorHeap **out)
{
    D3D12_DESCRIPTOR_HEAP_DESC d = { type, n,
                                     visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE
                                             : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0 };
    HRESULT hr = ID3D12Device_CreateDescriptorHeap(r->dev, &d, &IID_ID3D12DescriptorHeap,
                                                   (void **)out);
    if (SUCCEEDED(hr)) {
        static const char *const kinds[] = { "CBV/SRV/UAV", "sampler", "RTV", "DSV" };
        d3d12_set_name(r, *out, "xgd %s heap (%u%s)", (unsigned)type < 4 ? kinds[type] : "?",
                       (unsigned)n, visible ? ", shader visible" : "");
    }
    return xgdi_d3d12_check(r, hr, "CreateDescriptorHeap");
}

/* ---- RTV / DSV block chains --------------------------------------------------------------- */

xgd_result xgdi_d3d12_cpu_chain_init(d3d12_renderer *r, d3d12_cpu_heap_chain *c,
                                     D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t first_block)
{
    memset(c, 0, sizeof *c);
    c->type = type;
    c->first_block_size = first_block;
    c->increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->dev, type);
    return XGD_OK;
}

void xgdi_d3d12_cpu_chain_free(d3d12_cpu_heap_chain *c)
{
    for (int i = 0; i < c->block_count; i++) ID3D12DescriptorHeap_Release(c->blocks[i]);
    pool_free(&c->pool);
    c->block_count = 0;
}

/* Block b holds indices [first * (2^b - 1), first * (2^(b+1) - 1)). */
static void chain_locate(const d3d12_cpu_heap_chain *c, uint32_t index, int *block, uint32_t *off)
{
    uint32_t start = 0, size = c->first_block_size;
    int b = 0;
    while (index >= start + size) {
        start += size;
        size *= 2;
        b++;
    }
    *block = b;
    *off = index - start;
}

xgd_result xgdi_d3d12_cpu_chain_alloc(d3d12_renderer *r, d3d12_cpu_heap_chain *c, uint32_t *index)
{
    if (pool_take_free(r, &c->pool, index)) {
        pool_count_live(&c->pool);
        return XGD_OK;
    }
    if (c->pool.next_unused == c->pool.capacity) {
        if (c->block_count == (int)(sizeof c->blocks / sizeof c->blocks[0]))
            return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                             "d3d12: render-target/depth view heap chain exhausted");
        uint32_t size = c->first_block_size << c->block_count;
        xgd_result res = d3d12_new_heap(r, c->type, size, false, &c->blocks[c->block_count]);
        if (res != XGD_OK) return res;
        ID3D12DescriptorHeap *h = c->blocks[c->block_count];
        h->lpVtbl->GetCPUDescriptorHandleForHeapStart(h, &c->starts[c->block_count]);
        c->block_count++;
        c->pool.capacity += size;
        c->growths++;
    }
    *index = c->pool.next_unused++;
    pool_count_live(&c->pool);
    return XGD_OK;
}

void xgdi_d3d12_cpu_chain_release(d3d12_renderer *r, d3d12_cpu_heap_chain *c, uint32_t index)
{
    pool_push_free(r, &c->pool, index);
}

D3D12_CPU_DESCRIPTOR_HANDLE xgdi_d3d12_cpu_chain_handle(const d3d12_cpu_heap_chain *c, uint32_t index)
{
    int b;
    uint32_t off;
    chain_locate(c, index, &b, &off);
    D3D12_CPU_DESCRIPTOR_HANDLE h = c->starts[b];
    h.ptr += (SIZE_T)off * c->increment;
    return h;
}

/* ---- shader-visible heaps ----------------------------------------------------------------- */

static void gpu_heap_handles(d3d12_gpu_heap *h)
{
    h->staging->lpVtbl->GetCPUDescriptorHandleForHeapStart(h->staging, &h->staging_cpu);
    h->visible->lpVtbl->GetCPUDescriptorHandleForHeapStart(h->visible, &h->visible_cpu);
    h->visible->lpVtbl->GetGPUDescriptorHandleForHeapStart(h->visible, &h->visible_gpu);
}

xgd_result xgdi_d3d12_gpu_heap_init(d3d12_renderer *r, d3d12_gpu_heap *h,
                                    D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t capacity,
                                    uint32_t max_capacity)
{
    memset(h, 0, sizeof *h);
    h->type = type;
    h->max_capacity = max_capacity;
    h->increment = ID3D12Device_GetDescriptorHandleIncrementSize(r->dev, type);
    xgd_result res = d3d12_new_heap(r, type, capacity, false, &h->staging);
    if (res == XGD_OK) res = d3d12_new_heap(r, type, capacity, true, &h->visible);
    if (res != XGD_OK) return res;
    h->pool.capacity = capacity;
    h->heap_objects = 2;
    gpu_heap_handles(h);
    return XGD_OK;
}

void xgdi_d3d12_gpu_heap_free(d3d12_gpu_heap *h)
{
    if (h->staging != NULL) ID3D12DescriptorHeap_Release(h->staging);
    if (h->visible != NULL) ID3D12DescriptorHeap_Release(h->visible);
    pool_free(&h->pool);
    h->staging = h->visible = NULL;
}

static xgd_result retire_heap(d3d12_renderer *r, ID3D12DescriptorHeap *heap)
{
    if (r->retired_heap_count == r->retired_heap_capacity) {
        size_t nc = r->retired_heap_capacity ? r->retired_heap_capacity * 2 : 8;
        ID3D12DescriptorHeap **a = realloc(r->retired_heaps, nc * sizeof *a);
        if (a == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        r->retired_heaps = a;
        uint64_t *b = realloc(r->retired_heap_fence, nc * sizeof *b);
        if (b == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        r->retired_heap_fence = b;
        r->retired_heap_capacity = nc;
    }
    r->retired_heaps[r->retired_heap_count] = heap;
    r->retired_heap_fence[r->retired_heap_count] = r->base.submitted_fence + 1;
    r->retired_heap_count++;
    return XGD_OK;
}

/* Replaces the pair with one of twice the capacity; the open list rebinds the new heaps. */
static xgd_result gpu_heap_grow(d3d12_renderer *r, d3d12_gpu_heap *h)
{
    uint32_t old = h->pool.capacity;
    if (old >= h->max_capacity)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                         "d3d12: %s descriptor heap full (%u descriptors, the limit)",
                         h->type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER ? "sampler" : "view",
                         (unsigned)old);
    uint32_t cap = old * 2 > h->max_capacity ? h->max_capacity : old * 2;
    ID3D12DescriptorHeap *st = NULL, *vis = NULL;
    xgd_result res = d3d12_new_heap(r, h->type, cap, false, &st);
    if (res == XGD_OK) res = d3d12_new_heap(r, h->type, cap, true, &vis);
    if (res != XGD_OK) {
        if (st != NULL) ID3D12DescriptorHeap_Release(st);
        return res;
    }
    D3D12_CPU_DESCRIPTOR_HANDLE nst, nvis;
    st->lpVtbl->GetCPUDescriptorHandleForHeapStart(st, &nst);
    vis->lpVtbl->GetCPUDescriptorHandleForHeapStart(vis, &nvis);
    ID3D12Device_CopyDescriptorsSimple(r->dev, old, nst, h->staging_cpu, h->type);
    ID3D12Device_CopyDescriptorsSimple(r->dev, old, nvis, nst, h->type);
    h->bulk_copies += 2;
    /* The staging heap is CPU-only: nothing recorded references it. The visible heap may be
       referenced by recorded or submitted work until the open frame's fence passes. */
    ID3D12DescriptorHeap_Release(h->staging);
    if (retire_heap(r, h->visible) != XGD_OK) {
        xgdi_d3d12_wait(r, r->base.submitted_fence);
        ID3D12DescriptorHeap_Release(h->visible);
    }
    h->staging = st;
    h->visible = vis;
    h->pool.capacity = cap;
    h->growths++;
    h->generation++;
    h->heap_objects += 2;
    gpu_heap_handles(h);
    r->heaps_dirty = true;
    return XGD_OK;
}

xgd_result xgdi_d3d12_gpu_heap_alloc(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t *index)
{
    if (pool_take_free(r, &h->pool, index)) {
        pool_count_live(&h->pool);
        return XGD_OK;
    }
    if (h->pool.next_unused == h->pool.capacity) {
        xgd_result res = gpu_heap_grow(r, h);
        if (res != XGD_OK) return res;
    }
    *index = h->pool.next_unused++;
    pool_count_live(&h->pool);
    return XGD_OK;
}

void xgdi_d3d12_gpu_heap_release(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t index)
{
    pool_push_free(r, &h->pool, index);
}

D3D12_CPU_DESCRIPTOR_HANDLE xgdi_d3d12_gpu_heap_staging(const d3d12_gpu_heap *h, uint32_t index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE c = h->staging_cpu;
    c.ptr += (SIZE_T)index * h->increment;
    return c;
}

void xgdi_d3d12_gpu_heap_publish(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t index)
{
    D3D12_CPU_DESCRIPTOR_HANDLE dst = h->visible_cpu;
    dst.ptr += (SIZE_T)index * h->increment;
    ID3D12Device_CopyDescriptorsSimple(r->dev, 1, dst, xgdi_d3d12_gpu_heap_staging(h, index), h->type);
    h->publishes++;
}

D3D12_GPU_DESCRIPTOR_HANDLE xgdi_d3d12_gpu_heap_gpu(const d3d12_gpu_heap *h, uint32_t index)
{
    D3D12_GPU_DESCRIPTOR_HANDLE g = h->visible_gpu;
    g.ptr += (UINT64)index * h->increment;
    return g;
}

/* ---- samplers ----------------------------------------------------------------------------- */

static D3D12_FILTER d3d12_filter(xgd_texture_filter f)
{
    switch (f) {
    case XGD_FILTER_POINT: return D3D12_FILTER_MIN_MAG_MIP_POINT;
    case XGD_FILTER_ANISOTROPIC: return D3D12_FILTER_ANISOTROPIC;
    case XGD_FILTER_LINEAR_MIP_POINT: return D3D12_FILTER_MIN_MAG_LINEAR_MIP_POINT;
    case XGD_FILTER_POINT_MIP_LINEAR: return D3D12_FILTER_MIN_MAG_POINT_MIP_LINEAR;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR:
        return D3D12_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT: return D3D12_FILTER_MIN_LINEAR_MAG_MIP_POINT;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR:
        return D3D12_FILTER_MIN_POINT_MAG_MIP_LINEAR;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT:
        return D3D12_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT;
    case XGD_FILTER_LINEAR:
    default: return D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    }
}

static D3D12_TEXTURE_ADDRESS_MODE d3d12_address(xgd_texture_address_mode m)
{
    switch (m) {
    case XGD_ADDRESS_CLAMP: return D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    case XGD_ADDRESS_MIRROR: return D3D12_TEXTURE_ADDRESS_MODE_MIRROR;
    default: return D3D12_TEXTURE_ADDRESS_MODE_WRAP;
    }
}

xgd_result xgdi_d3d12_sampler_get(d3d12_renderer *r, const xgd_sampler_desc *desc, uint32_t *index)
{
    for (size_t i = 0; i < r->sampler_count; i++) {
        if (memcmp(&r->samplers[i].desc, desc, sizeof *desc) == 0) {
            *index = r->samplers[i].index;
            return XGD_OK;
        }
    }
    if (r->sampler_count == r->sampler_capacity) {
        size_t nc = r->sampler_capacity ? r->sampler_capacity * 2 : 16;
        d3d12_sampler_entry *n = realloc(r->samplers, nc * sizeof *n);
        if (n == NULL)
            return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
        r->samplers = n;
        r->sampler_capacity = nc;
    }
    uint32_t idx;
    xgd_result res = xgdi_d3d12_gpu_heap_alloc(r, &r->sampler_heap, &idx);
    if (res != XGD_OK) return res;
    D3D12_SAMPLER_DESC sd;
    memset(&sd, 0, sizeof sd);
    sd.Filter = d3d12_filter(desc->filter);
    /* a device without anisotropic filtering samples Anisotropic states as Linear (its
       xgd_format_support.max_anisotropy says 1) */
    if (desc->filter == XGD_FILTER_ANISOTROPIC && r->caps.max_anisotropy <= 1)
        sd.Filter = D3D12_FILTER_MIN_MAG_MIP_LINEAR;
    sd.AddressU = d3d12_address(desc->address_u);
    sd.AddressV = d3d12_address(desc->address_v);
    sd.AddressW = d3d12_address(desc->address_w);
    sd.MipLODBias = desc->mip_map_level_of_detail_bias;
    sd.MaxAnisotropy = desc->max_anisotropy > 1 ? (UINT)desc->max_anisotropy : 1;
    if (r->caps.max_anisotropy >= 1 && sd.MaxAnisotropy > (UINT)r->caps.max_anisotropy)
        sd.MaxAnisotropy = (UINT)r->caps.max_anisotropy;
    if (sd.MaxAnisotropy > 16) sd.MaxAnisotropy = 16;
    sd.ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER;
    /* XNA MaxMipLevel is the most detailed level sampled: D3D's MinLOD. */
    sd.MinLOD = (FLOAT)desc->max_mip_level;
    sd.MaxLOD = D3D12_FLOAT32_MAX;
    ID3D12Device_CreateSampler(r->dev, &sd, xgdi_d3d12_gpu_heap_staging(&r->sampler_heap, idx));
    xgdi_d3d12_gpu_heap_publish(r, &r->sampler_heap, idx);
    r->samplers[r->sampler_count].desc = *desc;
    r->samplers[r->sampler_count].index = idx;
    r->sampler_count++;
    *index = idx;
    return XGD_OK;
}

/* ---- counters (XGD_D3D12_DESCRIPTOR_TRACE) ------------------------------------------------ */

static void trace_pool(const char *name, const d3d12_index_pool *p, uint64_t growths,
                       uint64_t heaps, uint64_t generation, uint64_t publishes, uint64_t copies,
                       uint64_t completed)
{
    size_t ready = 0;
    for (size_t i = 0; i < p->free_count; i++)
        if (p->free[(p->free_head + i) % p->free_capacity].fence <= completed) ready++;
    fprintf(stderr,
            "xgd d3d12 descriptors %-8s capacity %u live %u peak %u never-used %u free-ready %u "
            "free-pending %u recycles %llu growths %llu heap-objects %llu generation %llu "
            "publishes %llu bulk-copies %llu\n",
            name, (unsigned)p->capacity, (unsigned)p->live, (unsigned)p->peak,
            (unsigned)(p->capacity - p->next_unused), (unsigned)ready,
            (unsigned)(p->free_count - ready),
            (unsigned long long)p->recycles, (unsigned long long)growths,
            (unsigned long long)heaps, (unsigned long long)generation,
            (unsigned long long)publishes, (unsigned long long)copies);
}

void xgdi_d3d12_descriptor_trace(d3d12_renderer *r)
{
    uint64_t done = xgdi_d3d12_completed(r);
    trace_pool("rtv", &r->rtv_heap.pool, r->rtv_heap.growths, (uint64_t)r->rtv_heap.block_count,
               0, 0, 0, done);
    trace_pool("dsv", &r->dsv_heap.pool, r->dsv_heap.growths, (uint64_t)r->dsv_heap.block_count,
               0, 0, 0, done);
    trace_pool("view", &r->view_heap.pool, r->view_heap.growths, r->view_heap.heap_objects,
               r->view_heap.generation, r->view_heap.publishes, r->view_heap.bulk_copies, done);
    trace_pool("sampler", &r->sampler_heap.pool, r->sampler_heap.growths,
               r->sampler_heap.heap_objects, r->sampler_heap.generation,
               r->sampler_heap.publishes, r->sampler_heap.bulk_copies, done);
}
