/*
 * d3d12_queries.c - occlusion queries on Direct3D 12: D3D12_QUERY_HEAP_TYPE_OCCLUSION heaps
 * (D3D12_QUERY_TYPE_OCCLUSION counts samples exactly; BINARY_OCCLUSION would only say 0 or 1),
 * BeginQuery/EndQuery on the frame list, ResolveQueryData into a readback buffer next to each
 * heap, read once the fence of the list that resolved it has passed.
 *
 * Slots, segments and result gating are core's (src/core/query_segments.c, renderer.h
 * "shared occlusion-query segments"); this file supplies the D3D12 calls: a chunk is a heap of
 * D3D12X_QUERY_CHUNK queries and its readback buffer.
 *
 * A query must begin and end in the same command list (ID3D12GraphicsCommandList::EndQuery;
 * the debug layer refuses to close a list with a query begun in it). While an xgd query is
 * active, d3d12_submit_frame ends (and resolves) the native query in the list it closes and
 * d3d12_open_slot begins a fresh slot in the next one. The blits (mip generation, sample
 * refill) bracket their draw the same way so they are not counted.
 */
#include "d3d12_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct d3d12_query_chunk {
    ID3D12QueryHeap *heap;
    ID3D12Resource *readback;         /* D3D12X_QUERY_CHUNK UINT64 results, COPY_DEST forever */
} d3d12_query_chunk;

struct xgdi_native_query {
    xgdi_query_segments segments;
};

static xgd_result add_chunk(xgdi_renderer *base, uint32_t chunk)
{
    d3d12_renderer *r = d3d12_cast(base);
    d3d12_query_chunk *chunks = realloc(r->query_chunks, (chunk + 1) * sizeof *chunks);
    if (chunks == NULL)
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    r->query_chunks = chunks;
    d3d12_query_chunk c = { NULL, NULL };
    D3D12_QUERY_HEAP_DESC qd = { D3D12_QUERY_HEAP_TYPE_OCCLUSION, D3D12X_QUERY_CHUNK, 0 };
    HRESULT hr = ID3D12Device_CreateQueryHeap(r->dev, &qd, &IID_ID3D12QueryHeap, (void **)&c.heap);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateQueryHeap(occlusion)");
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_READBACK };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = D3D12X_QUERY_CHUNK * sizeof(UINT64),
        .Height = 1, .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_UNKNOWN,
        .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR
    };
    /* a readback-heap resource starts and stays in COPY_DEST (ResolveQueryData's state) */
    hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                              D3D12_RESOURCE_STATE_COPY_DEST, NULL,
                                              &IID_ID3D12Resource, (void **)&c.readback);
    if (FAILED(hr)) {
        ID3D12QueryHeap_Release(c.heap);
        return xgdi_d3d12_check(r, hr, "CreateCommittedResource(query readback)");
    }
    d3d12_set_name(r, c.heap, "xgd occlusion queries %u", chunk);
    d3d12_set_name(r, c.readback, "xgd occlusion results %u", chunk);
    r->query_chunks[chunk] = c;
    return XGD_OK;
}

/* The open frame list. */
static xgd_result query_list(xgdi_renderer *base, void **list)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    *list = d3d12_list(r);
    return XGD_OK;
}

static void record_begin(xgdi_renderer *base, void *list, uint32_t chunk, uint32_t index)
{
    ID3D12GraphicsCommandList_BeginQuery((ID3D12GraphicsCommandList *)list,
                                         d3d12_cast(base)->query_chunks[chunk].heap,
                                         D3D12_QUERY_TYPE_OCCLUSION, index);
}

/* Ends the segment and resolves it into its readback bytes in the same list. */
static void record_end(xgdi_renderer *base, void *list, uint32_t chunk, uint32_t index)
{
    ID3D12GraphicsCommandList *l = list;
    d3d12_query_chunk *c = &d3d12_cast(base)->query_chunks[chunk];
    ID3D12GraphicsCommandList_EndQuery(l, c->heap, D3D12_QUERY_TYPE_OCCLUSION, index);
    ID3D12GraphicsCommandList_ResolveQueryData(l, c->heap, D3D12_QUERY_TYPE_OCCLUSION, index, 1,
                                               c->readback, (UINT64)index * sizeof(UINT64));
}

/* The list that resolved the slot has completed. */
static xgd_result read_slot(xgdi_renderer *base, uint32_t chunk, uint32_t index,
                            uint64_t *samples)
{
    d3d12_renderer *r = d3d12_cast(base);
    ID3D12Resource *readback = r->query_chunks[chunk].readback;
    size_t offset = (size_t)index * sizeof(UINT64);
    D3D12_RANGE read = { offset, offset + sizeof(UINT64) };
    void *p = NULL;
    HRESULT hr = ID3D12Resource_Map(readback, 0, &read, &p);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "Map(query readback)");
    UINT64 v;
    memcpy(&v, (const uint8_t *)p + offset, sizeof v);
    D3D12_RANGE none = { 0, 0 };
    ID3D12Resource_Unmap(readback, 0, &none);
    *samples = v;
    return XGD_OK;
}

static const xgdi_query_native_ops native_ops = { add_chunk, query_list, record_begin,
                                                  record_end, read_slot };

void xgdi_d3d12_query_init(d3d12_renderer *r)
{
    xgdi_query_slots_init(&r->queries, &r->base, &native_ops, D3D12X_QUERY_CHUNK);
}

xgd_result xgdi_d3d12_op_query_create(xgdi_renderer *base, xgdi_native_query **out)
{
    d3d12_renderer *r = d3d12_cast(base);
    xgdi_native_query *q = calloc(1, sizeof *q);
    if (q == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    xgd_result res = xgdi_query_segments_init(&r->queries, &q->segments);
    if (res != XGD_OK) {
        free(q);
        return res;
    }
    *out = q;
    return XGD_OK;
}

void xgdi_d3d12_op_query_destroy(xgdi_renderer *base, xgdi_native_query *q)
{
    if (q == NULL) return;
    xgdi_query_segments_release(&d3d12_cast(base)->queries, &q->segments);
    free(q);
}

xgd_result xgdi_d3d12_op_query_begin(xgdi_renderer *base, xgdi_native_query *q)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return xgdi_query_segments_begin(&r->queries, &q->segments);
}

xgd_result xgdi_d3d12_op_query_end(xgdi_renderer *base, xgdi_native_query *q)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return xgdi_query_segments_end(&r->queries, &q->segments);
}

void xgdi_d3d12_query_suspend(d3d12_renderer *r)
{
    xgdi_query_slots_suspend(&r->queries, d3d12_list(r));
}

void xgdi_d3d12_query_resume(d3d12_renderer *r)
{
    xgdi_query_slots_resume(&r->queries, d3d12_list(r));
}

/* Whether submitting the open frame now would block: the slot the submission opens next is
   still in use by an earlier submission (d3d12_open_slot waits for it). */
static bool submit_would_wait(d3d12_renderer *r)
{
    return r->frames[(r->slot + 1) % D3D12X_FRAMES].fence > xgdi_d3d12_completed(r);
}

xgd_result xgdi_d3d12_op_query_result(xgdi_renderer *base, xgdi_native_query *q, bool flush,
                                      bool wait, bool *done, uint64_t *samples)
{
    d3d12_renderer *r = d3d12_cast(base);
    *done = false;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    /* XNA's IsComplete (Direct3D 9 GetData with D3DGETDATA_FLUSH) starts the work without ever
       waiting for the GPU: a flush that would block on the frame slot it opens is left to a
       later poll, which finds the slot free once the earlier frame completed (it was already
       submitted, so polling still ends), or to Present. */
    if (flush && !wait && submit_would_wait(r)) flush = false;
    return xgdi_query_segments_result(&r->queries, &q->segments, flush, wait, done, samples);
}

void xgdi_d3d12_query_heaps_free(d3d12_renderer *r)
{
    for (uint32_t i = 0; i < r->queries.chunk_count; i++) {
        if (r->query_chunks[i].heap != NULL) ID3D12QueryHeap_Release(r->query_chunks[i].heap);
        if (r->query_chunks[i].readback != NULL) ID3D12Resource_Release(r->query_chunks[i].readback);
    }
    free(r->query_chunks);
    r->query_chunks = NULL;
    xgdi_query_slots_free(&r->queries);
}
