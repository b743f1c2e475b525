/*
 * d3d12_instancing.c - draws through several vertex buffers (xgd_set_vertex_buffers) and
 * instancing: stream i of the draw is input slot i, classified per instance with the
 * frequency as its step rate when it holds per-instance data; the zero-stride defaults stream
 * takes slot XGD_MAX_VERTEX_BUFFER_BINDINGS (core guarantees user inputs are all in streams).
 */
#include "d3d12_internal.h"

#include <string.h>

void xgdi_d3d12_stream_key(const xgdi_draw *draw, d3d12_pso_key *k)
{
    const xgdi_vertex_layout *cl = draw->stream_layout;
    k->layout_hash = cl->hash;
    k->layout_stride = 0;
    k->layout_count = cl->count;
    for (int i = 0; i < cl->count && i < 16; i++) {
        /* field by field so padding stays zero for the hash */
        k->elements[i].offset = cl->elements[i].offset;
        k->elements[i].format = cl->elements[i].format;
        k->elements[i].usage = cl->elements[i].usage;
        k->elements[i].usage_index = cl->elements[i].usage_index;
        k->element_slot[i] = draw->element_stream[i];
    }
    k->stream_count = draw->stream_count;
    for (int s = 0; s < draw->stream_count; s++) k->slot_step[s] = draw->streams[s].instance_frequency;
}

void xgdi_d3d12_stream_transitions(d3d12_renderer *r, const xgdi_draw *draw)
{
    for (int s = 0; s < draw->stream_count; s++) {
        xgdi_native_buffer *b = draw->streams[s].buffer;
        xgdi_d3d12_transition(r, b->res, 0, &b->state,
                              D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
    }
}

void xgdi_d3d12_stream_bind(d3d12_renderer *r, ID3D12GraphicsCommandList *list,
                            const xgdi_draw *draw)
{
    D3D12_VERTEX_BUFFER_VIEW v[XGD_MAX_VERTEX_BUFFER_BINDINGS];
    int n = draw->stream_count;
    for (int s = 0; s < n; s++) {
        const xgdi_vertex_stream *st = &draw->streams[s];
        v[s].BufferLocation = ID3D12Resource_GetGPUVirtualAddress(st->buffer->res) + st->offset;
        v[s].SizeInBytes = (UINT)(st->buffer->size - st->offset);
        v[s].StrideInBytes = (UINT)st->stride;
    }
    ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, (UINT)n, v);
    D3D12_VERTEX_BUFFER_VIEW d;
    d.BufferLocation = r->defaults_gpu;
    d.SizeInBytes = 32;
    d.StrideInBytes = 0;
    ID3D12GraphicsCommandList_IASetVertexBuffers(list, XGD_MAX_VERTEX_BUFFER_BINDINGS, 1, &d);
    /* slots 0 and 1 no longer hold what a single-stream draw recorded there */
    memset(r->last_vbv, 0, sizeof r->last_vbv);
}
