/*
 * d3d12_commands.c - recording into the open frame: render-target binding (a complete ordered
 * set bound to every draw), clears, draws, the GPU blits (mip generation, one draw per level;
 * sample fill) and back-buffer readback.
 */
#include "d3d12_internal.h"

#include <string.h>

xgd_result xgdi_d3d12_op_set_render_targets(xgdi_renderer *base, const xgdi_target *targets, int count)
{
    d3d12_renderer *r = d3d12_cast(base);
    xgdi_d3d12_flush_clear(r); /* the pending clear is the outgoing set's */
    if (count <= 0 || targets == NULL) {
        memset(r->targets, 0, sizeof r->targets);
        r->targets[0].texture = r->back_buffer;
        r->target_count = 1;
        r->targets_dirty = true;
        r->memo_pso = NULL;
        return XGD_OK;
    }
    if (count > D3D12X_MAX_TARGETS)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: %d render targets (at most %d)", count, D3D12X_MAX_TARGETS);
    const xgdi_native_texture *t0 = targets[0].texture;
    for (int i = 0; i < count; i++) {
        const xgdi_native_texture *t = targets[i].texture;
        if (t == NULL || !t->desc.render_target || targets[i].face < 0 ||
            targets[i].face >= t->faces || t->desc.width != t0->desc.width ||
            t->desc.height != t0->desc.height || t->samples != t0->samples)
            return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                             "d3d12: render target %d cannot be bound with the others", i);
    }
    memset(r->targets, 0, sizeof r->targets);
    for (int i = 0; i < count; i++) r->targets[i] = targets[i];
    r->target_count = count;
    r->targets_dirty = true;
    r->memo_pso = NULL; /* the PSO key holds the targets' formats and sample count */
    return XGD_OK;
}

static D3D12_CPU_DESCRIPTOR_HANDLE target_rtv(d3d12_renderer *r, const xgdi_target *tg)
{
    xgdi_native_texture *t = tg->texture;
    if (t->samples > 1) return xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->ms_rtv[tg->face]);
    return xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->rtv[tg->face * t->desc.levels]);
}

/* Transitions the bound set for output and records OMSetRenderTargets when it changed. The
   states are tested here: a set drawn to again (most draws) needs no barrier. */
static void bind_targets(d3d12_renderer *r)
{
    for (int i = 0; i < r->target_count; i++) {
        xgdi_target *tg = &r->targets[i];
        xgdi_native_texture *t = tg->texture;
        if (t->samples > 1) {
            if (t->ms_state != D3D12_RESOURCE_STATE_RENDER_TARGET)
                xgdi_d3d12_transition(r, t->ms, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
                                      &t->ms_state, D3D12_RESOURCE_STATE_RENDER_TARGET);
        } else if (t->states[tg->face * t->desc.levels] != D3D12_RESOURCE_STATE_RENDER_TARGET) {
            xgdi_d3d12_texture_transition(r, t, tg->face, 0, D3D12_RESOURCE_STATE_RENDER_TARGET);
        }
    }
    xgdi_native_texture *t0 = r->targets[0].texture;
    bool has_depth = t0->has_dsv;
    if (has_depth && t0->depth_state != D3D12_RESOURCE_STATE_DEPTH_WRITE)
        xgdi_d3d12_transition(r, t0->depth, 0, &t0->depth_state, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    if (r->targets_dirty) {
        D3D12_CPU_DESCRIPTOR_HANDLE rtvs[D3D12X_MAX_TARGETS], dsv = { 0 };
        for (int i = 0; i < r->target_count; i++) rtvs[i] = target_rtv(r, &r->targets[i]);
        if (has_depth) dsv = xgdi_d3d12_cpu_chain_handle(&r->dsv_heap, t0->dsv);
        /* debug devices: each binding of a set opens the event of its rendering segment */
        d3d12_event_targets(r);
        ID3D12GraphicsCommandList_OMSetRenderTargets(d3d12_list(r), (UINT)r->target_count, rtvs,
                                                     FALSE, has_depth ? &dsv : NULL);
        r->targets_dirty = false;
    }
}

static void mark_written(d3d12_renderer *r)
{
    for (int i = 0; i < r->target_count; i++) {
        xgdi_native_texture *t = r->targets[i].texture;
        if (t->samples > 1) t->ms_dirty[r->targets[i].face] = true;
    }
}

void xgdi_d3d12_flush_clear(d3d12_renderer *r)
{
    struct d3d12_pending_clear *c = &r->pending_clear;
    if (!c->active) return;
    c->active = false;
    r->stats.clears_recorded++;
    ID3D12GraphicsCommandList *list = r->frames[r->slot].list;
    for (int i = 0; i < c->rt_count; i++)
        ID3D12GraphicsCommandList_ClearRenderTargetView(list, c->rtv[i], c->color, 0, NULL);
    if (c->ds_flags != 0)
        ID3D12GraphicsCommandList_ClearDepthStencilView(list, c->dsv, c->ds_flags, c->depth,
                                                        c->stencil, 0, NULL);
}

/* A clear is not recorded here but kept pending (d3d12_pending_clear): a second clear of the
   same set with no command between replaces the planes it clears (a clear covers the whole
   target, so only the last value of a plane shows). Everything that records a command records
   the pending clear first (d3d12_list), and so do binding another set, destroying a bound
   texture and closing the list. */
xgd_result xgdi_d3d12_op_clear(xgdi_renderer *base, unsigned options, const float color[4],
                               float depth, int stencil)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (r->heaps_dirty) xgdi_d3d12_bind_heaps(r);
    bind_targets(r);
    xgdi_d3d12_flush_barriers(r);
    /* a pending clear still pending here had no command after it: this one merges into it */
    struct d3d12_pending_clear *c = &r->pending_clear;
    if (!c->active) {
        memset(c, 0, sizeof *c);
        d3d12_marker(r, d3d12_list(r), "clear%s%s%s (%.3g, %.3g, %.3g, %.3g)",
                     options & XGD_CLEAR_TARGET ? " target" : "",
                     options & XGD_CLEAR_DEPTH_BUFFER ? " depth" : "",
                     options & XGD_CLEAR_STENCIL ? " stencil" : "", (double)color[0],
                     (double)color[1], (double)color[2], (double)color[3]);
    }
    if (options & XGD_CLEAR_TARGET) {
        c->rt_count = r->target_count;
        for (int i = 0; i < r->target_count; i++) c->rtv[i] = target_rtv(r, &r->targets[i]);
        memcpy(c->color, color, sizeof c->color);
        mark_written(r);
    }
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0->has_dsv) {
        c->dsv = xgdi_d3d12_cpu_chain_handle(&r->dsv_heap, t0->dsv);
        if (options & XGD_CLEAR_DEPTH_BUFFER) {
            c->ds_flags |= D3D12_CLEAR_FLAG_DEPTH;
            c->depth = depth < 0.0f ? 0.0f : depth > 1.0f ? 1.0f : depth;
        }
        if ((options & XGD_CLEAR_STENCIL) && t0->desc.depth_format == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8) {
            c->ds_flags |= D3D12_CLEAR_FLAG_STENCIL;
            c->stencil = (UINT8)stencil;
        }
    }
    c->active = c->rt_count > 0 || c->ds_flags != 0;
    return XGD_OK;
}

static D3D12_PRIMITIVE_TOPOLOGY topology(xgd_primitive_type t)
{
    switch (t) {
    case XGD_PRIMITIVE_TRIANGLE_STRIP: return D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP;
    case XGD_PRIMITIVE_LINE_LIST: return D3D_PRIMITIVE_TOPOLOGY_LINELIST;
    case XGD_PRIMITIVE_LINE_STRIP: return D3D_PRIMITIVE_TOPOLOGY_LINESTRIP;
    default: return D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST;
    }
}

static void fill_key(d3d12_renderer *r, const xgdi_draw *draw, d3d12_pso_key *k)
{
    const xgdi_draw_state *st = draw->state;
    memset(k, 0, sizeof *k);
    k->program = (uint32_t)st->program;
    if (st->layout != NULL) {
        k->layout_hash = st->layout->hash;
        k->layout_stride = st->layout->stride;
        k->layout_count = st->layout->count;
        for (int i = 0; i < st->layout->count && i < 16; i++) {
            /* field by field so padding stays zero for the hash */
            k->elements[i].offset = st->layout->elements[i].offset;
            k->elements[i].format = st->layout->elements[i].format;
            k->elements[i].usage = st->layout->elements[i].usage;
            k->elements[i].usage_index = st->layout->elements[i].usage_index;
        }
    }
    for (int i = 0; i < 4; i++) {
        const xgd_target_blend_desc *b = &st->blend->target[i];
        k->blend[i].color_blend_function = b->color_blend_function;
        k->blend[i].color_source_blend = b->color_source_blend;
        k->blend[i].color_destination_blend = b->color_destination_blend;
        k->blend[i].alpha_blend_function = b->alpha_blend_function;
        k->blend[i].alpha_source_blend = b->alpha_source_blend;
        k->blend[i].alpha_destination_blend = b->alpha_destination_blend;
        k->blend[i].color_write_channels = b->color_write_channels;
    }
    /* D3D rule (as the software renderer): MultiSampleMask applies to multisampled targets
       only; single-sample targets draw with an all-ones SampleMask (set below, once the
       target's sample count is known). */
    k->sample_mask = st->blend->multisample_mask;
    const xgd_depth_stencil_desc *ds = st->depth_stencil;
    k->ds.depth_buffer_enable = ds->depth_buffer_enable;
    k->ds.depth_buffer_write_enable = ds->depth_buffer_write_enable;
    k->ds.depth_function = ds->depth_function;
    k->ds.stencil_enable = ds->stencil_enable;
    k->ds.stencil_function = ds->stencil_function;
    k->ds.stencil_pass = ds->stencil_pass;
    k->ds.stencil_fail = ds->stencil_fail;
    k->ds.stencil_depth_fail = ds->stencil_depth_fail;
    k->ds.two_sided_stencil = ds->two_sided_stencil;
    k->ds.ccw_stencil_function = ds->ccw_stencil_function;
    k->ds.ccw_stencil_pass = ds->ccw_stencil_pass;
    k->ds.ccw_stencil_fail = ds->ccw_stencil_fail;
    k->ds.ccw_stencil_depth_fail = ds->ccw_stencil_depth_fail;
    k->ds.stencil_mask = ds->stencil_mask & 0xff;
    k->ds.stencil_write_mask = ds->stencil_write_mask & 0xff;
    const xgd_rasterizer_desc *rs = st->rasterizer;
    k->cull = rs->cull_mode;
    k->fill = rs->fill_mode;
    k->msaa_lines = rs->multisample_antialias;
    xgdi_native_texture *t0 = r->targets[0].texture;
    k->rt_count = r->target_count;
    /* A pixel shader writes the targets of its colour outputs; the other slots' outputs would
       be undefined, so those PSOs mask them. */
    for (int i = 0; i < r->target_count; i++) {
        k->rtv[i] = r->targets[i].texture->dxgi;
        if ((st->ps->color_outputs >> i & 1u) == 0) k->blend[i].color_write_channels = 0;
    }
    k->user_vs = st->vs->serial;
    k->user_ps = st->ps->serial;
    k->dsv = t0->has_dsv ? t0->depth_dxgi : DXGI_FORMAT_UNKNOWN;
    if (t0->has_dsv)
        k->depth_bias = xgdi_depth_bias_units(rs->depth_bias, t0->desc.depth_format, false);
    /* spec 002: the picture must show the rule's count of the bound format's steps; a driver
       whose unit is f steps (measured: d3d12_measure_depth_bias) gets 1/f of it, truncated
       toward zero as the rule truncates */
    if (t0->has_dsv && r->caps.bias_factor[t0->desc.depth_format] > 1)
        k->depth_bias /= r->caps.bias_factor[t0->desc.depth_format];
    k->slope_bias = t0->has_dsv ? rs->slope_scale_depth_bias : 0.0f;
    k->samples = t0->samples;
    if (k->samples <= 1) k->sample_mask = -1;
    k->topology = draw->type == XGD_PRIMITIVE_LINE_LIST || draw->type == XGD_PRIMITIVE_LINE_STRIP
                      ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE
                      : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
}

/* fast_draw's and fast_draw_one's ring space: `bytes` (user_count vertices of `stride`) at the
   next multiple of the stride in the bound chunk (xgdi_d3d12_linear_alloc_vertices' common
   case); another chunk goes the general way. On success *dst and *first (the first vertex's
   index in the chunk) say where, and the ring has taken the space; false changes nothing. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline bool fast_ring(d3d12_renderer *r, size_t stride, size_t bytes, int user_count,
                             uint8_t **dst, size_t *first)
{
    d3d12_linear *l = &r->frames[r->slot].ring;
    if (l->current >= l->count) return false;
    const d3d12_upload_chunk *c = &l->chunks[l->current];
    size_t f, off;
    if (l->offset == r->fast_next_offset) {
        f = r->fast_next_first;
        off = l->offset;
    } else {
        f = (l->offset + stride - 1) / stride;
        off = f * stride;
    }
    if (c->gpu != r->last_vbv[0].BufferLocation || c->size != r->last_vbv[0].SizeInBytes ||
        off + bytes > c->size)
        return false;
    *dst = c->cpu + off;
    *first = f;
    l->offset = off + bytes;
    r->fast_next_offset = off + bytes;
    r->fast_next_first = (UINT)(f + (size_t)user_count);
    return true;
}

/* fast_draw's and fast_draw_one's test of a sampled texture: every subresource already in
   the register's reading state `want` (a transition goes the general way) */
static inline bool fast_texture_ready(const xgdi_native_texture *t, D3D12_RESOURCE_STATES want)
{
    const int n = t->faces * t->desc.levels;
    for (int s = 0; s < n; s++)
        if (t->states[s] != want) return false;
    return true;
}

/* fast_draw's and fast_draw_one's binding of register `slot`'s table to the view `srv`, when
   it is not the one bound */
static inline void fast_bind_srv(d3d12_renderer *r, ID3D12GraphicsCommandList *list,
                                 const struct d3d12_fast_slot *fs, uint32_t srv)
{
    D3D12_GPU_DESCRIPTOR_HANDLE h = { r->view_heap.visible_gpu.ptr +
                                      (UINT64)srv * r->view_heap.increment };
    if (h.ptr != r->user_last_srv[fs->slot]) {
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, fs->table, h);
        r->user_last_srv[fs->slot] = h.ptr;
    }
}

/* fast_draw's and fast_draw_one's statistics of a recorded draw */
static inline void fast_count(d3d12_renderer *r, xgd_primitive_type type, int primitive_count)
{
    r->stats.draws++;
    if (type == XGD_PRIMITIVE_TRIANGLE_LIST || type == XGD_PRIMITIVE_TRIANGLE_STRIP)
        r->stats.triangles += (uint64_t)primitive_count;
}

/* The short path of a draw (r->fast_armed and the caller's tests say when it may run): the
   vertices into the ring chunk the last draw bound, the texture tables of the registers whose
   texture changed, the draw; no barrier (a resource that needs one goes the general way).
   `vertices` holds `user_count` vertices, of which the draw takes `count` from `first_vertex`.
   Everything is checked before anything changes, so false (take the general path) leaves
   everything as it was. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline bool fast_draw(d3d12_renderer *r, const xgdi_draw_state *st, xgd_primitive_type type,
                             const void *vertices, int user_count, int count, int first_vertex,
                             int primitive_count)
{
    if (user_count <= 0) return false;
    /* each sampled register's texture, bound and already in its reading state (a stand-in, a
       transition or an error goes the general way); its sampler is the one recorded, as no
       sampler state changed */
    uint32_t srv[D3D12X_USER_SAMPLERS];
    const int slots = r->fast_slot_count;
    for (int k = 0; k < slots; k++) {
        const struct d3d12_fast_slot *fs = &r->fast_slots[k];
        const xgdi_native_texture *t = fs->slot < XGDI_SHADER_MAX_SAMPLERS
                                           ? st->textures[fs->slot]
                                           : st->vertex_textures[fs->slot - XGDI_SHADER_MAX_SAMPLERS];
        if (t == NULL || !fast_texture_ready(t, fs->want)) return false;
        srv[k] = t->srv;
    }
    /* the targets already in their output states (bind_targets' tests; a readback may have
       moved them: the general path transitions them back) */
    bool ms = false;
    for (int i = 0; i < r->target_count; i++) {
        const xgdi_target *tg = &r->targets[i];
        const xgdi_native_texture *t = tg->texture;
        if (t->samples > 1 ? t->ms_state != D3D12_RESOURCE_STATE_RENDER_TARGET
                           : t->states[tg->face * t->desc.levels] != D3D12_RESOURCE_STATE_RENDER_TARGET)
            return false;
        ms |= t->samples > 1;
    }
    const xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0->has_dsv && t0->depth_state != D3D12_RESOURCE_STATE_DEPTH_WRITE) return false;
    size_t bytes = (size_t)user_count * (size_t)st->layout->stride, first;
    uint8_t *dst;
    if (!fast_ring(r, (size_t)st->layout->stride, bytes, user_count, &dst, &first)) return false;

    ID3D12GraphicsCommandList *list = d3d12_list(r);
    for (int k = 0; k < slots; k++) fast_bind_srv(r, list, &r->fast_slots[k], srv[k]);
    ID3D12GraphicsCommandList_DrawInstanced(list, (UINT)count, 1, (UINT)first_vertex + (UINT)first, 0);
    /* the vertices last (the GPU reads them when the list runs): fewer values live across the
       calls above */
    xgdi_copy_vertices(dst, vertices, bytes);
    if (ms) mark_written(r);
    fast_count(r, type, primitive_count);
    return true;
}

/* fast_draw for the common program and target (r->fast_one, set when armed): one sampled
   register, pixel register 0, and one single-sample target, the draw taking all its vertices.
   The same tests and recording without the loops over registers and targets: the renderer's
   part of a user draw in 164 instructions instead of 234 (callgrind, d3d12-raw-bench --draws
   2000 --frames 1 --rounds 1). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline bool fast_draw_one(d3d12_renderer *r, const xgdi_draw_state *st, xgd_primitive_type type,
                                 const void *vertices, int count, int primitive_count)
{
    const xgdi_native_texture *t = st->textures[0];
    if (t == NULL || count <= 0 || !fast_texture_ready(t, r->fast_slots[0].want)) return false;
    const xgdi_target *tg = &r->targets[0];
    const xgdi_native_texture *t0 = tg->texture;
    if (t0->states[tg->face * t0->desc.levels] != D3D12_RESOURCE_STATE_RENDER_TARGET ||
        (t0->has_dsv && t0->depth_state != D3D12_RESOURCE_STATE_DEPTH_WRITE))
        return false;
    size_t bytes = (size_t)count * (size_t)st->layout->stride, first;
    uint8_t *dst;
    if (!fast_ring(r, (size_t)st->layout->stride, bytes, count, &dst, &first)) return false;

    ID3D12GraphicsCommandList *list = d3d12_list(r);
    fast_bind_srv(r, list, &r->fast_slots[0], t->srv);
    ID3D12GraphicsCommandList_DrawInstanced(list, (UINT)count, 1, (UINT)first, 0);
    xgdi_copy_vertices(dst, vertices, bytes);
    fast_count(r, type, primitive_count);
    return true;
}

/* renderer.h's user_draw_fast: op_draw's test of its short path, for a draw core knows is
   user vertices, one instance, unindexed, with nothing but texture slots changed */
xgd_result xgdi_d3d12_op_user_draw_fast(xgdi_renderer *base, xgd_primitive_type type,
                                        const void *vertices, int primitive_count)
{
    d3d12_renderer *r = d3d12_cast(base);
    const xgdi_draw_state *st = base->draw_state;
    int count = xgdi_user_vertex_count(type, primitive_count);
    if (r->fast_armed && !r->lost && type == r->fast_type && st->layout == r->fast_layout &&
        r->draw_state_valid && r->user_root_bound && !r->heaps_dirty && !r->targets_dirty &&
        r->current_pso == r->memo_pso) {
        r->runs_armed = false;
        if (r->fast_one ? fast_draw_one(r, st, type, vertices, count, primitive_count)
                        : fast_draw(r, st, type, vertices, count, count, 0, primitive_count))
            return XGD_OK;
    }
    return xgdi_user_draw_declined(base->device, type, vertices, primitive_count);
}

xgd_result xgdi_d3d12_op_draw(xgdi_renderer *base, const xgdi_draw *draw)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    r->runs_armed = false;
    const xgdi_draw_state *st = draw->state;
    /* nothing but texture slots changed (a bit none of the memos below reads) */
    if (r->fast_armed && (st->dirty & ~(uint32_t)XGDI_DIRTY_TEXTURES) == 0 &&
        draw->vertex_buffer == NULL && draw->user_vertices != NULL && draw->index_size == 0 &&
        draw->stream_count == 0 && draw->instance_count <= 1 && draw->type == r->fast_type &&
        st->layout == r->fast_layout && r->draw_state_valid && r->user_root_bound &&
        !r->heaps_dirty && !r->targets_dirty && r->current_pso == r->memo_pso &&
        fast_draw(r, st, draw->type, draw->user_vertices, draw->user_vertex_count,
                  draw->vertex_count, draw->first_vertex, draw->primitive_count))
        return XGD_OK;
    r->fast_armed = false;
    /* core draws through user programs only (the stock effects are effects too) */
    if (st->program != XGDI_PROGRAM_USER)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "d3d12: draws need a user program");
    if (st->vs == NULL || st->ps == NULL || st->vs_constants == NULL)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_OPERATION,
                         "d3d12: user program draw without its shaders");
    /* the blits bind a root signature of their own: switching back records the draws' one,
       which drops every root argument */
    if (!r->user_root_bound) r->draw_state_valid = false;
    r->pending_dirty |= st->dirty;
    r->dynamic_dirty |= st->dirty;
    r->user_dirty |= st->dirty;
    /* the last draw's PSO serves again while nothing its key holds changed; the vertex layout
       is compared by its hash (a draw through several streams: the combined layout's, which
       covers every stream's elements, stride and step rate), not by the layout's dirty bit,
       which core sets for every draw through several streams */
    const uint32_t key_bits = XGDI_DIRTY_BLEND | XGDI_DIRTY_DEPTH_STENCIL | XGDI_DIRTY_RASTERIZER |
                              XGDI_DIRTY_PROGRAM | XGDI_DIRTY_LAYOUT;
    uint64_t layout_hash = draw->stream_count > 0 ? draw->stream_layout->hash
                           : st->layout != NULL   ? st->layout->hash
                                                  : 0;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topo_type =
        draw->type == XGD_PRIMITIVE_LINE_LIST || draw->type == XGD_PRIMITIVE_LINE_STRIP
            ? D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE
            : D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    ID3D12PipelineState *pso = r->memo_pso;
    xgd_result res;
    if (pso == NULL || (r->pending_dirty & key_bits & ~(uint32_t)XGDI_DIRTY_LAYOUT) ||
        topo_type != r->memo_topology || layout_hash != r->memo_layout_hash ||
        draw->stream_count != r->memo_stream_count || draw->per_instance != r->memo_per_instance) {
        d3d12_pso_key key;
        fill_key(r, draw, &key);
        if (draw->stream_count > 0) xgdi_d3d12_stream_key(draw, &key);
        /* a reservation of per-quad elements: its one slot steps once an instance */
        if (draw->per_instance) key.slot_step[0] = 1;
        r->building_vs = st->vs;
        r->building_ps = st->ps;
        res = xgdi_d3d12_pso_get(r, &key, &pso);
        r->building_vs = r->building_ps = NULL;
        if (res != XGD_OK) return res;
        r->memo_pso = pso;
        r->memo_topology = topo_type;
        r->memo_layout_hash = layout_hash;
        r->memo_stream_count = draw->stream_count;
        r->memo_per_instance = draw->per_instance;
        r->stats.pso_lookups++;
        r->pending_dirty &= ~key_bits;
    }

    d3d12_frame *f = &r->frames[r->slot];
    /* everything that can fail (allocation) happens before recording */
    d3d12_user_binding ub;
    if ((res = xgdi_d3d12_user_prepare(r, st, &ub)) != XGD_OK) return res;

    D3D12_VERTEX_BUFFER_VIEW vbv[2];
    memset(vbv, 0, sizeof vbv);
    UINT user_first = 0; /* user vertices: the first one's index in the bound ring chunk */
    int stride = st->layout != NULL ? st->layout->stride : 0;
    if (draw->vertex_buffer != NULL) {
        xgdi_native_buffer *b = draw->vertex_buffer;
        vbv[0].BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->res) + draw->vertex_offset;
        vbv[0].SizeInBytes = (UINT)(b->size - draw->vertex_offset);
    } else if (draw->reserved && stride > 0) {
        /* already in the ring (op_reserve_vertices), its chunk bound whole: the chunk of this
           frame's ring that holds the reservation's CPU address (core keeps held reservations
           drawable across other reservations, so it need not be the latest one's) */
        const d3d12_linear *l = &f->ring;
        const uint8_t *p = draw->user_vertices;
        int c = 0;
        while (c < l->count &&
               !(p >= l->chunks[c].cpu && p < l->chunks[c].cpu + l->chunks[c].size))
            c++;
        if (c == l->count)
            return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION,
                             "d3d12: the reserved vertices are not in this frame's upload memory");
        vbv[0].BufferLocation = l->chunks[c].gpu;
        vbv[0].SizeInBytes = (UINT)l->chunks[c].size;
        user_first = (UINT)draw->reserved_at;
    } else if (draw->user_vertices != NULL && stride > 0) {
        /* placed at a multiple of the stride from the start of the ring's chunk, which stays
           bound: the draw names its first vertex, so consecutive draws set no vertex buffer.
           The view spans the whole chunk rather than the bytes written so far: a view that
           grew with each draw would be set again every draw (on vkd3d three heap allocations
           each), and core checks that a draw reads only its own vertices, so the bytes past
           them are never fetched. */
        size_t bytes = (size_t)draw->user_vertex_count * (size_t)stride;
        d3d12_alloc a;
        res = xgdi_d3d12_linear_alloc_vertices(r, &f->ring, bytes, (size_t)stride, &a, &user_first);
        if (res != XGD_OK) return res;
        memcpy(a.cpu, draw->user_vertices, bytes);
        vbv[0].BufferLocation = a.gpu - a.offset;
        vbv[0].SizeInBytes = (UINT)f->ring.chunks[f->ring.current].size;
    }
    vbv[0].StrideInBytes = (UINT)stride;
    vbv[1].BufferLocation = r->defaults_gpu;
    vbv[1].SizeInBytes = 32;
    vbv[1].StrideInBytes = 0;
    D3D12_INDEX_BUFFER_VIEW ibv;
    memset(&ibv, 0, sizeof ibv);
    if (draw->index_size != 0) {
        ibv.Format = draw->index_size == 2 ? DXGI_FORMAT_R16_UINT : DXGI_FORMAT_R32_UINT;
        if (draw->index_buffer != NULL) {
            xgdi_native_buffer *b = draw->index_buffer;
            ibv.BufferLocation = ID3D12Resource_GetGPUVirtualAddress(b->res) + draw->index_offset;
            ibv.SizeInBytes = (UINT)(b->size - draw->index_offset);
        } else {
            size_t bytes = (size_t)draw->vertex_count * (size_t)draw->index_size;
            d3d12_alloc a;
            if ((res = xgdi_d3d12_linear_alloc(r, &f->ring, bytes, 16, &a)) != XGD_OK) return res;
            memcpy(a.cpu, draw->user_indices, bytes);
            ibv.BufferLocation = a.gpu;
            ibv.SizeInBytes = (UINT)bytes;
        }
    }

    if (r->heaps_dirty) xgdi_d3d12_bind_heaps(r);
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    if (!r->user_root_bound) {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, r->user_root);
        r->user_root_bound = true;
        r->mips_root_bound = false;
        r->draw_state_valid = false;
    }
    /* resource states: targets for output, the sampled textures for reading, buffers */
    bind_targets(r);
    xgdi_d3d12_user_transitions(r, &ub);
    if (draw->vertex_buffer != NULL)
        xgdi_d3d12_transition(r, draw->vertex_buffer->res, 0, &draw->vertex_buffer->state,
                              D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
    if (draw->stream_count > 0) xgdi_d3d12_stream_transitions(r, draw);
    if (draw->index_size != 0 && draw->index_buffer != NULL)
        xgdi_d3d12_transition(r, draw->index_buffer->res, 0, &draw->index_buffer->state,
                              D3D12_RESOURCE_STATE_INDEX_BUFFER);
    xgdi_d3d12_flush_barriers(r);

    if (pso != r->current_pso) {
        ID3D12GraphicsCommandList_SetPipelineState(list, pso);
        r->current_pso = pso;
    }
    bool valid = r->draw_state_valid;
    xgdi_d3d12_user_bind(r, &ub, valid);
    /* the viewport, scissor, stencil reference and blend factor follow those states and the
       first target's size: derived and compared again only when one of them changed */
    const uint32_t dynamic_bits = XGDI_DIRTY_VIEWPORT | XGDI_DIRTY_SCISSOR | XGDI_DIRTY_RASTERIZER |
                                  XGDI_DIRTY_BLEND | XGDI_DIRTY_DEPTH_STENCIL;
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (!valid || (r->dynamic_dirty & dynamic_bits) || t0->desc.width != r->dynamic_width ||
        t0->desc.height != r->dynamic_height) {
        D3D12_VIEWPORT vp = { (FLOAT)st->viewport.x, (FLOAT)st->viewport.y,
                              (FLOAT)st->viewport.width, (FLOAT)st->viewport.height,
                              st->viewport.min_depth, st->viewport.max_depth };
        if (!valid || memcmp(&vp, &r->last_viewport, sizeof vp) != 0) {
            ID3D12GraphicsCommandList_RSSetViewports(list, 1, &vp);
            r->last_viewport = vp;
        }
        D3D12_RECT sc = { 0, 0, t0->desc.width, t0->desc.height };
        if (st->rasterizer->scissor_test_enable) {
            sc.left = st->scissor.x;
            sc.top = st->scissor.y;
            sc.right = st->scissor.x + st->scissor.width;
            sc.bottom = st->scissor.y + st->scissor.height;
        }
        if (!valid || memcmp(&sc, &r->last_scissor, sizeof sc) != 0) {
            ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &sc);
            r->last_scissor = sc;
        }
        /* stencil reference and blend factor are list state, not pipeline state */
        UINT stencil_ref = (UINT)(st->depth_stencil->reference_stencil & 0xff);
        if (!valid || stencil_ref != r->last_stencil_ref) {
            ID3D12GraphicsCommandList_OMSetStencilRef(list, stencil_ref);
            r->last_stencil_ref = stencil_ref;
        }
        xgd_color bf = st->blend->blend_factor;
        FLOAT factor[4] = { bf.r / 255.0f, bf.g / 255.0f, bf.b / 255.0f, bf.a / 255.0f };
        if (!valid || memcmp(factor, r->last_blend_factor, sizeof factor) != 0) {
            ID3D12GraphicsCommandList_OMSetBlendFactor(list, factor);
            memcpy(r->last_blend_factor, factor, sizeof factor);
        }
        r->dynamic_dirty = 0;
        r->dynamic_width = t0->desc.width;
        r->dynamic_height = t0->desc.height;
    }
    D3D12_PRIMITIVE_TOPOLOGY topo = topology(draw->type);
    if (!valid || topo != r->last_topology) {
        ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, topo);
        r->last_topology = topo;
    }
    if (draw->stream_count > 0) {
        xgdi_d3d12_stream_bind(r, list, draw);
    } else if (!valid || memcmp(vbv, r->last_vbv, sizeof vbv) != 0) {
        ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, 2, vbv);
        memcpy(r->last_vbv, vbv, sizeof vbv);
    }
    /* an unindexed draw leaves the recorded index buffer as it was, so last_ibv stays valid */
    if (draw->index_size != 0 && (!valid || memcmp(&ibv, &r->last_ibv, sizeof ibv) != 0)) {
        ID3D12GraphicsCommandList_IASetIndexBuffer(list, &ibv);
        r->last_ibv = ibv;
    } else if (!valid) {
        memset(&r->last_ibv, 0, sizeof r->last_ibv);
    }
    r->draw_state_valid = true;
    UINT instances = draw->instance_count > 1 ? (UINT)draw->instance_count : 1u;
    if (draw->per_instance) {
        /* an element a quad at instance rate, the corner from the index (0..3) */
        ID3D12GraphicsCommandList_DrawIndexedInstanced(list, (UINT)draw->vertex_count, instances, 0,
                                                       0, user_first + (UINT)draw->first_instance);
    } else if (draw->index_size != 0) {
        ID3D12GraphicsCommandList_DrawIndexedInstanced(list, (UINT)draw->vertex_count, instances, 0,
                                                       draw->base_vertex + (INT)user_first, 0);
    } else {
        ID3D12GraphicsCommandList_DrawInstanced(list, (UINT)draw->vertex_count, instances,
                                                (UINT)draw->first_vertex + user_first, 0);
    }
    mark_written(r);
    r->stats.draws++;
    if (draw->type == XGD_PRIMITIVE_TRIANGLE_LIST || draw->type == XGD_PRIMITIVE_TRIANGLE_STRIP)
        r->stats.triangles += (uint64_t)draw->primitive_count * instances;
    /* what fast_draw relies on besides the flags its caller tests */
    r->fast_armed = draw->vertex_buffer == NULL && draw->user_vertices != NULL && stride > 0 &&
                    draw->index_size == 0 && draw->stream_count == 0 && draw->instance_count <= 1;
    r->fast_type = draw->type;
    r->fast_layout = st->layout;
    if (r->fast_armed) {
        /* the program's sampled registers, in root parameter order (tables from 1, or 2 after
           the pixel stage's block), those of no kind (the black stand-in) left out */
        int n = 0;
        UINT table = r->shape_ps_cbv ? 2 : 1;
        for (int k = 0; k < r->shape_slot_count; k++, table += 2) {
            int i = r->shape_slots[k];
            bool vertex = i >= XGDI_SHADER_MAX_SAMPLERS;
            int reg = vertex ? i - XGDI_SHADER_MAX_SAMPLERS : i;
            if ((vertex ? st->vs->sampler_kinds[reg] : st->ps->sampler_kinds[reg]) == XGDI_SAMPLER_NONE)
                continue;
            r->fast_slots[n].slot = (uint8_t)i;
            r->fast_slots[n].table = (uint8_t)table;
            r->fast_slots[n].want = vertex ? D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE |
                                                 D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE
                                           : D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
            n++;
        }
        r->fast_slot_count = n;
        r->fast_next_offset = SIZE_MAX; /* the stride may be another: divide once */
        r->fast_one = n == 1 && r->fast_slots[0].slot == 0 && r->target_count == 1 &&
                      r->targets[0].texture->samples <= 1;
    }
    r->runs_armed = draw->reserved && draw->index_size == 2 && draw->stream_count == 0 &&
                    (draw->instance_count <= 1 || draw->per_instance) && stride > 0;
    return XGD_OK;
}

xgd_result xgdi_d3d12_op_reserve_vertices(xgdi_renderer *base, size_t bytes, size_t stride,
                                          void **cpu, uint64_t *at)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    d3d12_linear *l = &r->frames[r->slot].ring;
    d3d12_alloc a;
    UINT first = 0;
    /* one stride more: a layout's elements may reach past its stride (op_draw's view spans
       the chunk, so nothing past the reservation is written); up to 15 more move the start to
       a 16-byte boundary (upload_streams) */
    xgd_result res = xgdi_d3d12_linear_alloc_vertices(r, l, bytes + 16 * stride, stride, &a, &first);
    if (res != XGD_OK) return res;
    uint8_t *start = a.cpu;
    for (int k = 0; k < 15 && ((uintptr_t)start & 15u) != 0; k++) { /* page-aligned chunks */
        first++;
        start += stride;
    }
    *cpu = start;
    *at = first;
    return XGD_OK;
}

/* Runs after the draw op_draw just recorded: while the list holds what it recorded, a run
   costs what a texture change costs on the short path of a single draw (fast_draw): the
   texture table of pixel register 0 when its texture differs, and the draw. A run whose
   texture needs a transition, or any change of the list's state, goes through op_draw.
   What the list holds changes only through op_draw, so it is tested once and again after
   each run op_draw recorded, not per run. Every texture's SRV is in the shader-visible heap
   from its creation, so a run copies no descriptor. Under vkd3d 1.2 the table change is most
   of a run's cost: the next draw allocates, fills (every table of the root signature, the
   sampler's too) and binds a new VkDescriptorSet (callgrind on lavapipe: ~2,400 of a run's
   ~2,500 instructions are vkd3d's and the Vulkan driver's). */
xgd_result xgdi_d3d12_op_draw_quad_runs(xgdi_renderer *base, const xgdi_draw *draw,
                                        const xgdi_quad_run *runs, int count, int *drawn)
{
    d3d12_renderer *r = d3d12_cast(base);
    *drawn = 0;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    const xgdi_draw_state *st = draw->state;
    /* the root table of pixel register 0's texture, when the pixel shader samples it */
    int table0 = -1;
    UINT table = r->shape_ps_cbv ? 2 : 1;
    for (int k = 0; k < r->shape_slot_count; k++, table += 2)
        if (r->shape_slots[k] == 0) {
            if (st->ps->sampler_kinds[0] != XGDI_SAMPLER_NONE) table0 = (int)table;
            break;
        }
    const UINT64 srv0 = r->view_heap.visible_gpu.ptr, srv_inc = r->view_heap.increment;
    const INT at = (INT)draw->reserved_at;
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    bool armed = false, ms = false;
    int recorded = 0;     /* runs recorded here since the last op_draw */
    uint64_t triangles = 0;
    for (int k = 0; k < count; k++) {
        const xgdi_quad_run *run = &runs[k];
        xgdi_native_texture *t = run->texture;
        if (!armed) {
            armed = r->runs_armed && r->draw_state_valid && r->user_root_bound &&
                    !r->heaps_dirty && !r->targets_dirty && r->current_pso == r->memo_pso;
            if (armed) {
                list = d3d12_list(r);
                ms = false;
                for (int i = 0; i < r->target_count; i++) ms |= r->targets[i].texture->samples > 1;
            }
        }
        bool ready = armed;
        if (ready && table0 >= 0) {
            int n = t->faces * t->desc.levels;
            for (int s = 0; s < n && ready; s++)
                ready = t->states[s] == D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE;
        }
        if (!ready) {
            /* the runs recorded so far are accounted before op_draw changes what they drew to */
            if (recorded > 0 && ms) mark_written(r);
            r->stats.draws += (uint64_t)recorded;
            r->stats.triangles += triangles;
            recorded = 0;
            triangles = 0;
            xgdi_draw_state s = *st;
            s.textures[0] = t;
            s.dirty = XGDI_DIRTY_TEXTURES;
            xgdi_draw one = *draw;
            one.state = &s;
            if (draw->per_instance) {
                one.primitive_count = 2;
                one.vertex_count = 6;
                one.instance_count = run->quad_count;
                one.first_instance = run->base_vertex / 4;
            } else {
                one.primitive_count = run->quad_count * 2;
                one.vertex_count = run->quad_count * 6;
                one.base_vertex = run->base_vertex;
            }
            armed = false;
            xgd_result res = xgdi_d3d12_op_draw(base, &one);
            if (res != XGD_OK) return res;
            ++*drawn;
            continue;
        }
        if (table0 >= 0) {
            D3D12_GPU_DESCRIPTOR_HANDLE h = { srv0 + (UINT64)t->srv * srv_inc };
            if (h.ptr != r->user_last_srv[0]) {
                ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, (UINT)table0, h);
                r->user_last_srv[0] = h.ptr;
            }
        }
        if (draw->per_instance)
            ID3D12GraphicsCommandList_DrawIndexedInstanced(list, 6, (UINT)run->quad_count, 0, 0,
                                                           (UINT)(at + run->base_vertex / 4));
        else
            ID3D12GraphicsCommandList_DrawIndexedInstanced(list, (UINT)run->quad_count * 6, 1, 0,
                                                           run->base_vertex + at, 0);
        recorded++;
        triangles += (uint64_t)run->quad_count * 2;
        ++*drawn;
    }
    if (recorded > 0 && ms) mark_written(r);
    r->stats.draws += (uint64_t)recorded;
    r->stats.triangles += triangles;
    return XGD_OK;
}

/* One full-screen triangle of the blit program into `rtv` (w x h) reading level srv `src`;
   `mode` picks the pixel shader (d3d12_pso_key.mode: 1 the float blit, 2 Color mips). */
static xgd_result blit(d3d12_renderer *r, uint32_t mode, uint32_t src, int src_w, int src_h,
                       int scale, D3D12_CPU_DESCRIPTOR_HANDLE rtv, DXGI_FORMAT fmt, int samples,
                       int w, int h)
{
    d3d12_pso_key key;
    memset(&key, 0, sizeof key);
    key.mode = mode;
    key.rt_count = 1;
    key.rtv[0] = fmt;
    key.dsv = DXGI_FORMAT_UNKNOWN;
    key.samples = samples;
    key.sample_mask = -1;
    key.cull = XGD_CULL_NONE;
    key.fill = XGD_FILL_SOLID;
    key.topology = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    for (int i = 0; i < 4; i++) {
        key.blend[i].color_source_blend = key.blend[i].alpha_source_blend = XGD_BLEND_ONE;
        key.blend[i].color_destination_blend = key.blend[i].alpha_destination_blend = XGD_BLEND_ZERO;
        key.blend[i].color_blend_function = key.blend[i].alpha_blend_function =
            XGD_BLEND_FUNCTION_ADD;
        key.blend[i].color_write_channels = XGD_COLOR_WRITE_ALL;
    }
    ID3D12PipelineState *pso = NULL;
    xgd_result res = xgdi_d3d12_pso_get(r, &key, &pso);
    if (res != XGD_OK) return res;
    d3d12_alloc cb;
    res = xgdi_d3d12_linear_alloc(r, &r->frames[r->slot].constants, 16, D3D12X_CBV_ALIGN, &cb);
    if (res != XGD_OK) return res;
    int32_t params[4] = { src_w, src_h, scale, 0 };
    memcpy(cb.cpu, params, sizeof params);
    /* The blit reads no sampler, but every table of the root signature gets a valid
       descriptor: vkd3d writes the whole descriptor set at the draw, and lavapipe dereferences
       every sampler in the bound set, so a list whose first draw is a blit (finalisation
       right after a submit) crashed in lavapipe's queue thread with an unset sampler table. */
    static const xgd_sampler_desc point = { XGD_FILTER_POINT,
                                            XGD_ADDRESS_CLAMP,
                                            XGD_ADDRESS_CLAMP,
                                            XGD_ADDRESS_CLAMP, 0, 0, 0.0f };
    uint32_t sampler = 0;
    res = xgdi_d3d12_sampler_get(r, &point, &sampler);
    if (res != XGD_OK) return res;
    if (r->heaps_dirty) xgdi_d3d12_bind_heaps(r);
    xgdi_d3d12_flush_barriers(r);
    /* the blit binds its own target: the frame's segment event ends here */
    d3d12_event_end(r);
    /* an internal draw: an active occlusion query must not count it (d3d12_queries.c) */
    xgdi_d3d12_query_suspend(r);
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    if (r->user_root_bound || r->mips_root_bound) {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, r->root);
        r->user_root_bound = false;
        r->mips_root_bound = false;
    }
    ID3D12GraphicsCommandList_SetPipelineState(list, pso);
    ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, 0, cb.gpu);
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
        list, 1, xgdi_d3d12_gpu_heap_gpu(&r->view_heap, src));
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
        list, 2, xgdi_d3d12_gpu_heap_gpu(&r->sampler_heap, sampler));
    ID3D12GraphicsCommandList_OMSetRenderTargets(list, 1, &rtv, FALSE, NULL);
    D3D12_VIEWPORT vp = { 0, 0, (FLOAT)w, (FLOAT)h, 0, 1 };
    D3D12_RECT sc = { 0, 0, w, h };
    ID3D12GraphicsCommandList_RSSetViewports(list, 1, &vp);
    ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &sc);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
    xgdi_d3d12_query_resume(r);
    /* the frame's own bindings must be re-recorded before its next draw */
    r->current_pso = NULL;
    r->targets_dirty = true;
    r->draw_state_valid = false;
    return XGD_OK;
}

/* Readies a pass that reads level `base` of t (in `read_state`) and stores levels base + 1 ..
   base + k through UAVs: the transitions, the heaps, and a UAV barrier when one of those levels
   is still UNORDERED_ACCESS from the last chain's stores (no transition since orders this
   pass's stores after them). Returns the list to record the pass on. */
static ID3D12GraphicsCommandList *mip_levels_ready(d3d12_renderer *r, xgdi_native_texture *t,
                                                   int base, int k,
                                                   D3D12_RESOURCE_STATES read_state)
{
    bool uav_hazard = false;
    for (int l = base + 1; l <= base + k; l++)
        uav_hazard |= t->states[l] == D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    xgdi_d3d12_texture_transition(r, t, 0, base, read_state);
    for (int l = base + 1; l <= base + k; l++)
        xgdi_d3d12_texture_transition(r, t, 0, l, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    if (r->heaps_dirty) xgdi_d3d12_bind_heaps(r);
    xgdi_d3d12_flush_barriers(r);
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    if (uav_hazard) {
        D3D12_RESOURCE_BARRIER ub;
        memset(&ub, 0, sizeof ub);
        ub.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
        ub.UAV.pResource = t->res;
        ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &ub);
    }
    return list;
}

/* Levels B + 1 .. B + k (k 2 or 3) of a 2D Color chain from level B in one draw without a
   render target (PSMipChain2/3, shaders/blit.hlsl): a pixel per 2^(k-1)-square block of level
   B + 1, each level a UAV. */
static xgd_result mip_chain_draw(d3d12_renderer *r, xgdi_native_texture *t, int base, int k)
{
    d3d12_pso_key key;
    memset(&key, 0, sizeof key);
    key.mode = 1 + (uint32_t)k;
    key.rt_count = 0;
    key.dsv = DXGI_FORMAT_UNKNOWN;
    key.samples = 1;
    key.sample_mask = -1;
    key.cull = XGD_CULL_NONE;
    key.fill = XGD_FILL_SOLID;
    key.topology = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    ID3D12PipelineState *pso = NULL;
    xgd_result res = xgdi_d3d12_pso_get(r, &key, &pso);
    if (res != XGD_OK) return res;
    d3d12_alloc cb;
    res = xgdi_d3d12_linear_alloc(r, &r->frames[r->slot].constants, 16, D3D12X_CBV_ALIGN, &cb);
    if (res != XGD_OK) return res;
    int32_t params[4] = { xgdi_mip_dim(t->desc.width, base), xgdi_mip_dim(t->desc.height, base), 0, 0 };
    memcpy(cb.cpu, params, sizeof params);
    ID3D12GraphicsCommandList *list =
        mip_levels_ready(r, t, base, k, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    d3d12_event_end(r);
    /* an internal draw: an active occlusion query must not count it (d3d12_queries.c) */
    xgdi_d3d12_query_suspend(r);
    if (!r->mips_root_bound) {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, r->mips_root);
        r->mips_root_bound = true;
        r->user_root_bound = false;
    }
    ID3D12GraphicsCommandList_SetPipelineState(list, pso);
    ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, 0, cb.gpu);
    ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
        list, 1, xgdi_d3d12_gpu_heap_gpu(&r->view_heap, t->level_srv[base]));
    /* every table gets a descriptor (vkd3d writes the whole set); past k, one the shader of k
       levels does not read */
    for (int i = 0; i < 3; i++)
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
            list, 2 + (UINT)i,
            xgdi_d3d12_gpu_heap_gpu(&r->view_heap, t->level_uav[base + 1 + (i < k ? i : k - 1)]));
    ID3D12GraphicsCommandList_OMSetRenderTargets(list, 0, NULL, FALSE, NULL);
    int block = 1 << (k - 1);
    int gw = (xgdi_mip_dim(t->desc.width, base + 1) + block - 1) / block;
    int gh = (xgdi_mip_dim(t->desc.height, base + 1) + block - 1) / block;
    D3D12_VIEWPORT vp = { 0, 0, (FLOAT)gw, (FLOAT)gh, 0, 1 };
    D3D12_RECT sc = { 0, 0, gw, gh };
    ID3D12GraphicsCommandList_RSSetViewports(list, 1, &vp);
    ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &sc);
    ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    ID3D12GraphicsCommandList_DrawInstanced(list, 3, 1, 0, 0);
    xgdi_d3d12_query_resume(r);
    r->current_pso = NULL;
    r->targets_dirty = true;
    r->draw_state_valid = false;
    r->stats.mip_chain_draws++;
    return XGD_OK;
}

/* A 2D Color chain by compute (r->mips_cs: shaders/mips.comp, which states the rule): levels
   1..6 from level 0 in one dispatch, 7..12 from level 6 in the next, and so on, a dispatch's
   workgroups independent of each other, as on Vulkan; a 1024x1024 chain is two dispatches where
   the draws took three to five dependent passes. Each dispatch reads level B as a
   non-pixel-shader resource and writes its levels as UAVs (the transitions order it after the
   dispatch before, which wrote level B). */
static void mip_chain_compute(d3d12_renderer *r, xgdi_native_texture *t)
{
    const int levels = t->desc.levels;
    bool first = true;
    for (int base = 0; base < levels - 1; base += D3D12X_MIPS_PER_DISPATCH) {
        int count = levels - 1 - base < D3D12X_MIPS_PER_DISPATCH ? levels - 1 - base
                                                                  : D3D12X_MIPS_PER_DISPATCH;
        ID3D12GraphicsCommandList *list =
            mip_levels_ready(r, t, base, count, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
        if (first) {
            /* like the internal draws, out of an active occlusion query (d3d12_queries.c) */
            xgdi_d3d12_query_suspend(r);
            ID3D12GraphicsCommandList_SetComputeRootSignature(list, r->mips_cs_root);
            ID3D12GraphicsCommandList_SetPipelineState(list, r->mips_cs);
            first = false;
        }
        UINT params[4] = { (UINT)xgdi_mip_dim(t->desc.width, base),
                           (UINT)xgdi_mip_dim(t->desc.height, base), (UINT)count, 0 };
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(list, 0, 4, params, 0);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
            list, 1, xgdi_d3d12_gpu_heap_gpu(&r->view_heap, t->level_srv[base]));
        /* every table gets a descriptor; past count, a level the shader does not write */
        for (int i = 0; i < D3D12X_MIPS_PER_DISPATCH; i++)
            ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
                list, 2 + (UINT)i,
                xgdi_d3d12_gpu_heap_gpu(&r->view_heap, t->level_uav[base + 1 + (i < count ? i : count - 1)]));
        int w1 = xgdi_mip_dim(t->desc.width, base + 1), h1 = xgdi_mip_dim(t->desc.height, base + 1);
        ID3D12GraphicsCommandList_Dispatch(list, (UINT)((w1 + D3D12X_MIPS_TILE - 1) / D3D12X_MIPS_TILE),
                                           (UINT)((h1 + D3D12X_MIPS_TILE - 1) / D3D12X_MIPS_TILE), 1);
        r->mip_dispatches++;
    }
    if (!first) xgdi_d3d12_query_resume(r);
    /* the pipeline state is shared with draws: the next draw sets its own */
    r->current_pso = NULL;
    r->draw_state_valid = false;
}

/* One level of a chain by one draw reading the level above (the box filter; mode 2: Color in
   whole numbers, PSMipUnorm8). */
static xgd_result mip_level_draw(d3d12_renderer *r, xgdi_native_texture *t, int face, int l,
                                 uint32_t mode)
{
    xgdi_d3d12_texture_transition(r, t, face, l - 1, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    xgdi_d3d12_texture_transition(r, t, face, l, D3D12_RESOURCE_STATE_RENDER_TARGET);
    int i = face * t->desc.levels + l;
    return blit(r, mode, t->level_srv[i - 1], xgdi_mip_dim(t->desc.width, l - 1),
                xgdi_mip_dim(t->desc.height, l - 1), 2,
                xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->rtv[i]), t->dxgi, 1,
                xgdi_mip_dim(t->desc.width, l), xgdi_mip_dim(t->desc.height, l));
}

/* Mip generation on the GPU: one draw per level, each reading the level above (box filter);
   Color in whole numbers, so its bytes are the rule's exactly (shaders/blit.hlsl). A 2D Color
   chain draws its levels of at most D3D12X_MIP_CHAIN_MAX texels a side several a draw
   (mip_chain_draw): three while three remain, then two, then one. A chain draw's pixel reads
   64 texels and writes three levels, which pays where a level's own draw would be short (the
   GPU then waits between dependent passes more than it works) but not on large levels, where it
   runs a sixteenth of the threads with sixteen times the work each: on the H200 a 1024x1024
   chain drawn 3+3+3+1 took 0.38 to 0.40 ms in a row against 0.31 for ten single draws. So
   1024x1024 is levels 1 and 2 alone, then 3-5, 6-8, 9-10: five draws instead of ten. */
xgd_result xgdi_d3d12_generate_mips(d3d12_renderer *r, xgdi_native_texture *t, int face)
{
    if (t->desc.levels <= 1 || t->fi->block_size != 1 || t->rtv == NULL) return XGD_OK;
    uint32_t mode = t->dxgi == DXGI_FORMAT_R8G8B8A8_UNORM && !r->mips_per_level ? 2 : 1;
    d3d12_marker(r, d3d12_list(r), "generate %d mip levels of %s face %d", t->desc.levels - 1,
                 t->label[0] ? t->label : "texture", face);
    if (t->level_uav != NULL && face == 0) xgdi_d3d12_mips_cs_init(r);
    if (r->mips_cs != NULL && t->level_uav != NULL && face == 0) {
        mip_chain_compute(r, t);
        return XGD_OK;
    }
    int first = 1;
    if (t->level_uav != NULL && face == 0) {
        while (first + 1 < t->desc.levels &&
               (xgdi_mip_dim(t->desc.width, first) > D3D12X_MIP_CHAIN_MAX ||
                xgdi_mip_dim(t->desc.height, first) > D3D12X_MIP_CHAIN_MAX)) {
            xgd_result res = mip_level_draw(r, t, face, first, mode);
            if (res != XGD_OK) return res;
            first++;
        }
        while (first + 1 < t->desc.levels) {
            int k = first + 2 < t->desc.levels ? 3 : 2;
            xgd_result res = mip_chain_draw(r, t, first - 1, k);
            if (res != XGD_OK) return res;
            first += k;
        }
    }
    for (int l = first; l < t->desc.levels; l++) {
        xgd_result res = mip_level_draw(r, t, face, l, mode);
        if (res != XGD_OK) return res;
    }
    return XGD_OK;
}

/* Copies a face's level 0 into every sample of its multisampled image. */
xgd_result xgdi_d3d12_fill_samples(d3d12_renderer *r, xgdi_native_texture *t, int face)
{
    d3d12_marker(r, d3d12_list(r), "refill samples of %s face %d",
                 t->label[0] ? t->label : "render target", face);
    xgdi_d3d12_texture_transition(r, t, face, 0, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    xgdi_d3d12_transition(r, t->ms, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, &t->ms_state,
                          D3D12_RESOURCE_STATE_RENDER_TARGET);
    xgd_result res = blit(r, 1, t->level_srv[face * t->desc.levels], t->desc.width, t->desc.height,
                          1, xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->ms_rtv[face]), t->dxgi,
                          t->samples, t->desc.width, t->desc.height);
    if (res == XGD_OK) t->ms_dirty[face] = false;
    return res;
}

xgd_result xgdi_d3d12_op_read_back_buffer(xgdi_renderer *base, const xgd_rect *rect, void *rgba)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_native_texture *bb = r->back_buffer;
    if (bb == NULL)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "d3d12: no back buffer");
    if (rect->x < 0 || rect->y < 0 || rect->width <= 0 || rect->height <= 0 ||
        rect->x + rect->width > bb->desc.width || rect->y + rect->height > bb->desc.height)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: readback rectangle outside the back buffer");
    if (bb->samples > 1 && bb->ms_dirty[0]) {
        xgd_result res = xgdi_d3d12_texture_resolve(r, bb, 0);
        if (res != XGD_OK) return res;
    }
    return xgdi_d3d12_read_subresource(r, bb, 0, 0, rect, rgba, (size_t)rect->width * 4);
}
