/*
 * d3d12_queries.c - occlusion queries on Direct3D 12: D3D12_QUERY_HEAP_TYPE_OCCLUSION heaps
 * (D3D12_QUERY_TYPE_OCCLUSION counts samples exactly; BINARY_OCCLUSION would only say 0 or 1),
 * BeginQuery/EndQuery on the frame list, ResolveQueryData into a readback buffer next to each
 * heap, read once the fence of the list that resolved it has passed.
 *
 * Slots come from a fence-stamped free list (xgdi_fenced_indices) over heaps of
 * D3D12X_QUERY_CHUNK queries, so a slot (and its readback bytes) is written again only after
 * the frame that last wrote it completed.
 *
 * A query must begin and end in the same command list (ID3D12GraphicsCommandList::EndQuery;
 * the debug layer refuses to close a list with a query begun in it). While an xgd query is
 * active, d3d12_submit_frame ends (and resolves) the native query in the list it closes and
 * d3d12_open_slot begins a fresh slot in the next one; the xgd count is the sum of the
 * segments. The blits (mip generation, sample refill) bracket their draw the same way so they
 * are not counted. The slot of the next segment and the room to record it are reserved when a
 * segment ends, so resuming allocates nothing.
 */
#include "d3d12_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct d3d12_query_chunk {
    ID3D12QueryHeap *heap;
    ID3D12Resource *readback;         /* D3D12X_QUERY_CHUNK UINT64 results, COPY_DEST forever */
} d3d12_query_chunk;

struct xgdi_native_query {
    uint32_t *slots;                  /* the segments of the current begin..end, oldest first */
    uint32_t count, capacity;
    uint64_t fence;                   /* fence value of the frame holding the last segment */
    bool open;                        /* a segment is begun in the open frame list */
    bool has_next;                    /* `next` is reserved for the segment after a suspension */
    uint32_t next;
    bool incomplete;                  /* a segment could not be reserved */
};

static d3d12_query_chunk *slot_chunk(d3d12_renderer *r, uint32_t slot)
{
    return &r->query_chunks[slot / D3D12X_QUERY_CHUNK];
}

static xgd_result add_chunk(d3d12_renderer *r)
{
    if (r->query_chunk_count >= UINT32_MAX / D3D12X_QUERY_CHUNK - 1)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: too many query slots");
    d3d12_query_chunk *chunks = realloc(r->query_chunks,
                                        (r->query_chunk_count + 1) * sizeof *chunks);
    if (chunks == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    r->query_chunks = chunks;
    d3d12_query_chunk c = { NULL, NULL };
    D3D12_QUERY_HEAP_DESC qd = { D3D12_QUERY_HEAP_TYPE_OCCLUSION, D3D12X_QUERY_CHUNK, 0 };
    HRESULT hr = ID3D12Device_CreateQueryHeap(r->dev, &qd, &IID_ID3D12QueryHeap, (void **)&c.heap);
    if (FAILED(hr)) return d3d12_check(r, hr, "CreateQueryHeap(occlusion)");
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
        return d3d12_check(r, hr, "CreateCommittedResource(query readback)");
    }
    d3d12_set_name(r, c.heap, "xgd occlusion queries %u", r->query_chunk_count);
    d3d12_set_name(r, c.readback, "xgd occlusion results %u", r->query_chunk_count);
    r->query_chunks[r->query_chunk_count++] = c;
    return XGD_OK;
}

/* A slot whose last use has completed, adding a heap when none is free. */
static xgd_result take_slot(d3d12_renderer *r, uint32_t *out)
{
    uint64_t done = d3d12_completed(r);
    if (xgdi_fenced_take(&r->query_slots, done, r->query_chunk_count * D3D12X_QUERY_CHUNK, out))
        return XGD_OK;
    xgd_result res = add_chunk(r);
    if (res != XGD_OK) return res;
    if (!xgdi_fenced_take(&r->query_slots, done, r->query_chunk_count * D3D12X_QUERY_CHUNK, out))
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: no query slot");
    return XGD_OK;
}

/* If the free list cannot grow the slot is never reused: one slot lost, never an early reuse. */
static void give_slot(d3d12_renderer *r, uint32_t slot, uint64_t fence)
{
    (void)xgdi_fenced_give(&r->query_slots, slot, fence);
}

static bool reserve_segments(d3d12_renderer *r, xgdi_native_query *q, uint32_t more)
{
    if (q->count + more <= q->capacity) return true;
    uint32_t cap = q->capacity != 0 ? q->capacity * 2 : 4;
    while (cap < q->count + more) cap *= 2;
    uint32_t *slots = realloc(q->slots, cap * sizeof *slots);
    if (slots == NULL) {
        xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
        return false;
    }
    q->slots = slots;
    q->capacity = cap;
    return true;
}

static void release_slots(d3d12_renderer *r, xgdi_native_query *q)
{
    for (uint32_t i = 0; i < q->count; i++) give_slot(r, q->slots[i], q->fence);
    q->count = 0;
    if (q->has_next) give_slot(r, q->next, 0); /* reserved, never recorded */
    q->has_next = false;
}

static void record_begin(d3d12_renderer *r, xgdi_native_query *q, uint32_t slot)
{
    ID3D12GraphicsCommandList_BeginQuery(d3d12_list(r), slot_chunk(r, slot)->heap,
                                         D3D12_QUERY_TYPE_OCCLUSION, slot % D3D12X_QUERY_CHUNK);
    q->slots[q->count++] = slot;
    q->open = true;
    q->fence = r->base.submitted_fence + 1; /* the open frame (renderer.h) */
}

/* Ends the open segment and resolves it into its readback bytes in the same list. */
static void record_end(d3d12_renderer *r, xgdi_native_query *q)
{
    uint32_t slot = q->slots[q->count - 1];
    d3d12_query_chunk *c = slot_chunk(r, slot);
    UINT index = slot % D3D12X_QUERY_CHUNK;
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    ID3D12GraphicsCommandList_EndQuery(list, c->heap, D3D12_QUERY_TYPE_OCCLUSION, index);
    ID3D12GraphicsCommandList_ResolveQueryData(list, c->heap, D3D12_QUERY_TYPE_OCCLUSION, index, 1,
                                               c->readback, (UINT64)index * sizeof(UINT64));
    q->open = false;
    q->fence = r->base.submitted_fence + 1;
}

xgd_result d3d12_op_query_create(xgdi_renderer *base, xgdi_native_query **out)
{
    d3d12_renderer *r = d3d12_cast(base);
    xgdi_native_query *q = calloc(1, sizeof *q);
    if (q == NULL || !reserve_segments(r, q, 4)) {
        free(q);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    }
    *out = q;
    return XGD_OK;
}

void d3d12_op_query_destroy(xgdi_renderer *base, xgdi_native_query *q)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (q == NULL) return;
    if (r->active_query == q) {
        /* core ends an active query first; this keeps the frame list closable regardless */
        if (q->open && !r->lost) record_end(r, q);
        r->active_query = NULL;
    }
    release_slots(r, q);
    free(q->slots);
    free(q);
}

xgd_result d3d12_op_query_begin(xgdi_renderer *base, xgdi_native_query *q)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    /* room for this segment and the one a submission would reserve */
    if (!reserve_segments(r, q, 2)) return XGD_ERROR_OUT_OF_MEMORY;
    uint32_t slot;
    xgd_result res = take_slot(r, &slot);
    if (res != XGD_OK) return res;
    release_slots(r, q); /* the previous result is discarded */
    q->incomplete = false;
    record_begin(r, q, slot);
    r->active_query = q;
    return XGD_OK;
}

xgd_result d3d12_op_query_end(xgdi_renderer *base, xgdi_native_query *q)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (q->open) record_end(r, q);
    if (q->has_next) give_slot(r, q->next, 0);
    q->has_next = false;
    if (r->active_query == q) r->active_query = NULL;
    return XGD_OK;
}

void d3d12_query_suspend(d3d12_renderer *r)
{
    xgdi_native_query *q = r->active_query;
    if (q == NULL || !q->open) return;
    record_end(r, q);
    if (q->has_next) return;
    if (!reserve_segments(r, q, 1) || take_slot(r, &q->next) != XGD_OK) {
        /* reported when the result is asked for: the count would miss what follows */
        q->incomplete = true;
        return;
    }
    q->has_next = true;
}

void d3d12_query_resume(d3d12_renderer *r)
{
    xgdi_native_query *q = r->active_query;
    if (q == NULL || q->open || !q->has_next) return;
    q->has_next = false;
    record_begin(r, q, q->next);
}

xgd_result d3d12_op_query_result(xgdi_renderer *base, xgdi_native_query *q, bool flush,
                                 bool wait, bool *done, uint64_t *samples)
{
    d3d12_renderer *r = d3d12_cast(base);
    *done = false;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (q->incomplete)
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                         "d3d12: the occlusion query lost a segment (no query slot could be "
                         "reserved at a submission); its count is unavailable");
    bool ready = false;
    xgd_result res = xgdi_fence_ready(base, q->fence, flush, wait, &ready);
    if (res != XGD_OK || !ready) return res;
    /* the lists that resolved every segment have completed */
    uint64_t sum = 0;
    for (uint32_t i = 0; i < q->count; i++) {
        uint32_t slot = q->slots[i];
        size_t offset = (size_t)(slot % D3D12X_QUERY_CHUNK) * sizeof(UINT64);
        D3D12_RANGE read = { offset, offset + sizeof(UINT64) };
        void *p = NULL;
        HRESULT hr = ID3D12Resource_Map(slot_chunk(r, slot)->readback, 0, &read, &p);
        if (FAILED(hr)) return d3d12_check(r, hr, "Map(query readback)");
        UINT64 v;
        memcpy(&v, (const uint8_t *)p + offset, sizeof v);
        D3D12_RANGE none = { 0, 0 };
        ID3D12Resource_Unmap(slot_chunk(r, slot)->readback, 0, &none);
        sum += v;
    }
    *samples = sum;
    *done = true;
    return XGD_OK;
}

void d3d12_query_heaps_free(d3d12_renderer *r)
{
    for (uint32_t i = 0; i < r->query_chunk_count; i++) {
        if (r->query_chunks[i].heap != NULL) ID3D12QueryHeap_Release(r->query_chunks[i].heap);
        if (r->query_chunks[i].readback != NULL) ID3D12Resource_Release(r->query_chunks[i].readback);
    }
    free(r->query_chunks);
    r->query_chunks = NULL;
    r->query_chunk_count = 0;
    xgdi_fenced_free(&r->query_slots);
}
