/*
 * d3d12_device.c - device creation (spec 003: Device Initialization Walkthrough), capability
 * queries, two frames in flight with one fence, present/submit, device removal, and the ops
 * table.
 */
#define INITGUID
#include "d3d12_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#include <pthread.h>
#endif

/* ---- errors ---------------------------------------------------------------------------- */

static bool d3d12_is_removed(HRESULT hr)
{
    return hr == DXGI_ERROR_DEVICE_REMOVED || hr == DXGI_ERROR_DEVICE_RESET ||
           hr == DXGI_ERROR_DEVICE_HUNG;
}

xgd_result xgdi_d3d12_check(d3d12_renderer *r, HRESULT hr, const char *what)
{
    if (SUCCEEDED(hr)) return XGD_OK;
    /* the info queue's messages usually say why a call failed or the device was removed:
       log them before the failure */
    if (r->debug) xgdi_d3d12_debug_drain(r);
    if (d3d12_is_removed(hr) || r->lost) {
        /* Device recovery: log the removal reason the runtime gives, then enter lost. */
        HRESULT reason = r->simulated_removal ? hr
                         : r->dev != NULL ? ID3D12Device_GetDeviceRemovedReason(r->dev) : hr;
        char msg[160];
        /* through uint32_t: vkd3d's HRESULT is a signed int and would print sign-extended */
        snprintf(msg, sizeof msg, "d3d12: %s: device removed (hr 0x%08lx, reason 0x%08lx)", what,
                 (unsigned long)(uint32_t)hr, (unsigned long)(uint32_t)reason);
        r->lost = true;
        xgdi_device_lost(r->base.device, msg);
        return XGD_ERROR_DEVICE_LOST;
    }
    if (hr == E_OUTOFMEMORY)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: %s: out of memory",
                         what);
    return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED, "d3d12: %s failed (hr 0x%08lx)",
                     what, (unsigned long)hr);
}

/* A list that could not be closed or signalled took the frame's recorded work with it
   (draws, uploads, query segments), so public state no longer matches the device: enter the
   lost state, from which xgd_device_restore_context rebuilds everything. */
static xgd_result d3d12_submission_failed(d3d12_renderer *r, HRESULT hr, const char *what)
{
    xgd_result res = xgdi_d3d12_check(r, hr, what);
    if (r->lost) return res;
    r->lost = true;
    char msg[160];
    snprintf(msg, sizeof msg, "d3d12: %s failed (hr 0x%08lx): the frame's work is lost", what,
             (unsigned long)(uint32_t)hr);
    xgdi_device_lost(r->base.device, msg);
    return XGD_ERROR_DEVICE_LOST;
}

void xgdi_d3d12_debug_remove_device(d3d12_renderer *r)
{
    r->remove_next_call = true;
}

/* The debug hook's substitution: true when the call about to be made must fail as removed. */
static bool d3d12_hook_removed(d3d12_renderer *r)
{
    if (!r->remove_next_call) return false;
    r->remove_next_call = false;
    r->simulated_removal = true;
    return true;
}

/* ---- fences ------------------------------------------------------------------------------ */

/* The completed fence value, never decreasing. vkd3d 1.2's fence worker polls the VkFences of
 * pending signals one after another and applies each value it finds done with
 * ID3D12Fence::Signal, which stores the value as given: when the later of two submissions
 * completes between the worker's two polls, the fence reads value+1 and then falls back to
 * value, until the next completion. Everything before a completed value is complete (one
 * queue), so the largest value ever read is the truth. */
uint64_t xgdi_d3d12_completed(d3d12_renderer *r)
{
    if (r->fence == NULL) return r->base.submitted_fence;
    uint64_t v = ID3D12Fence_GetCompletedValue(r->fence);
    if (v == UINT64_MAX) { /* a removed device reports all ones */
        r->lost = true;
        return r->base.submitted_fence;
    }
    if (v > r->completed_max) r->completed_max = v;
    return r->completed_max;
}

typedef struct d3d12_spin_ctx {
    d3d12_renderer *r;
    uint64_t value;
} d3d12_spin_ctx;

static bool d3d12_spin_done(void *ctx)
{
    d3d12_spin_ctx *c = ctx;
    return xgdi_d3d12_completed(c->r) >= c->value || c->r->lost;
}

/* Waits until `value` is complete. The same vkd3d race can leave the fence reading a value
 * below `value` after the signal of `value` already ran and found no event registered; an
 * event registered then would wait for a signal that never comes. So on vkd3d, after
 * registering, the newest submitted value is signalled once more on the queue: its completion
 * (which implies `value`'s) runs the event check again. A wake-up is only a reason to read the
 * fence again, never proof: a registration left by a failed call can fire late, and the fence
 * can be read falling back just after the signal that woke us; either way the loop registers
 * and re-signals again, so it neither returns early nor hangs. On Windows the wait runs in
 * slices of a second and re-reads the fence between them; vkd3d 1.2 has only untimed waits (a
 * timed one returns VKD3D_WAIT_FAILED, "Timed wait not implemented yet").
 * `spin`: data the caller needs now (a readback, a query result): the fence is polled for up to
 * the device's budget (0 unless $XGD_WAIT_SPIN_US asks: renderer.h, spin.c) before the blocking
 * wait. Frame slots do not poll, or a GPU-bound frame loop would spend the budget every frame. */
static xgd_result d3d12_wait(d3d12_renderer *r, uint64_t value, bool spin)
{
    if (xgdi_d3d12_completed(r) >= value) return XGD_OK;
    /* A value no submission will signal would block forever: report it instead of hanging
       the host (an internal ordering error, never expected). */
    if (value > r->base.submitted_fence)
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION,
                         "d3d12: internal error: wait for fence value %llu, only %llu submitted",
                         (unsigned long long)value, (unsigned long long)r->base.submitted_fence);
    r->stats.gpu_waits++;
    d3d12_spin_ctx c = { r, value };
    if (spin && r->wait_spin_ns > 0 && xgdi_spin_until(d3d12_spin_done, &c, r->wait_spin_ns) &&
        !r->lost)
        r->stats.wait_polls++;
    while (xgdi_d3d12_completed(r) < value && !r->lost) {
        HRESULT hr = ID3D12Fence_SetEventOnCompletion(r->fence, value, r->event);
        if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "SetEventOnCompletion");
#ifdef _WIN32
        DWORD w = WaitForSingleObject(r->event, 1000);
        if (w != WAIT_OBJECT_0 && w != WAIT_TIMEOUT)
            return xgdi_d3d12_check(r, DXGI_ERROR_DEVICE_HUNG, "fence wait");
#else
        hr = ID3D12CommandQueue_Signal(r->queue, r->fence, r->base.submitted_fence);
        if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CommandQueue::Signal(wait)");
        if (vkd3d_wait_event(r->event, VKD3D_INFINITE) != VKD3D_WAIT_OBJECT_0)
            return xgdi_d3d12_check(r, DXGI_ERROR_DEVICE_HUNG, "fence wait");
#endif
    }
    if (r->lost) return xgdi_d3d12_check(r, DXGI_ERROR_DEVICE_REMOVED, "fence wait");
    return XGD_OK;
}

xgd_result xgdi_d3d12_wait(d3d12_renderer *r, uint64_t value)
{
    return d3d12_wait(r, value, false);
}

/* ---- upload memory ------------------------------------------------------------------------ */

static xgd_result d3d12_create_upload(d3d12_renderer *r, size_t size, d3d12_upload_chunk *out)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_UPLOAD };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = size, .Height = 1,
        .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_UNKNOWN,
        .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR
    };
    memset(out, 0, sizeof *out);
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                                      &IID_ID3D12Resource, (void **)&out->res);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateCommittedResource(upload)");
    d3d12_set_name(r, out->res, "xgd upload chunk (%lu bytes)", (unsigned long)size);
    D3D12_RANGE none = { 0, 0 };
    void *p = NULL;
    hr = ID3D12Resource_Map(out->res, 0, &none, &p);
    if (FAILED(hr)) {
        ID3D12Resource_Release(out->res);
        out->res = NULL;
        return xgdi_d3d12_check(r, hr, "Map(upload)");
    }
    out->cpu = p;
    out->gpu = ID3D12Resource_GetGPUVirtualAddress(out->res);
    out->size = size;
    return XGD_OK;
}

xgd_result xgdi_d3d12_linear_alloc(d3d12_renderer *r, d3d12_linear *l, size_t size, size_t align,
                                   d3d12_alloc *out)
{
    if (size == 0) size = 1;
    for (;;) {
        if (l->current < l->count) {
            d3d12_upload_chunk *c = &l->chunks[l->current];
            size_t off = (l->offset + align - 1) & ~(align - 1);
            if (off + size <= c->size) {
                out->res = c->res;
                out->cpu = c->cpu + off;
                out->gpu = c->gpu + off;
                out->offset = off;
                l->offset = off + size;
                return XGD_OK;
            }
            /* the next chunk, if one is large enough: the first such of the chunks this frame
               has not used yet (those after the current one), moved up to be next, so that
               a frame whose large requests come in another order than the last one's reuses
               the chunks that one made; else a new chunk */
            int next = l->current + 1;
            while (next < l->count && l->chunks[next].size < size) next++;
            if (next < l->count) {
                d3d12_upload_chunk moved = l->chunks[next];
                l->chunks[next] = l->chunks[l->current + 1];
                l->chunks[l->current + 1] = moved;
                l->current++;
                l->offset = 0;
                continue;
            }
        }
        if (l->count == l->capacity) {
            int nc = l->capacity ? l->capacity * 2 : 4;
            d3d12_upload_chunk *n = realloc(l->chunks, (size_t)nc * sizeof *n);
            if (n == NULL)
                return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
            l->chunks = n;
            l->capacity = nc;
        }
        size_t csize = size > D3D12X_CHUNK_SIZE ? (size + 0xffff) & ~(size_t)0xffff
                                                : D3D12X_CHUNK_SIZE;
        d3d12_upload_chunk c;
        xgd_result res = d3d12_create_upload(r, csize, &c);
        if (res != XGD_OK) return res;
        l->created++;
        /* insert right after the current chunk so it is used next */
        int at = l->current < l->count ? l->current + 1 : l->count;
        memmove(&l->chunks[at + 1], &l->chunks[at], (size_t)(l->count - at) * sizeof c);
        l->chunks[at] = c;
        l->count++;
        l->current = at;
        l->offset = 0;
    }
}

xgd_result xgdi_d3d12_linear_alloc_vertices(d3d12_renderer *r, d3d12_linear *l, size_t bytes,
                                            size_t stride, d3d12_alloc *out, UINT *first)
{
    /* most draws: the current chunk has room at its next multiple of the stride */
    if (l->current < l->count) {
        d3d12_upload_chunk *c = &l->chunks[l->current];
        size_t n = (l->offset + stride - 1) / stride;
        size_t off = n * stride;
        if (off + bytes <= c->size) {
            out->res = c->res;
            out->cpu = c->cpu + off;
            out->gpu = c->gpu + off;
            out->offset = off;
            l->offset = off + bytes;
            *first = (UINT)n;
            return XGD_OK;
        }
    }
    /* else one stride more than the vertices, padded up to a multiple of the stride */
    d3d12_alloc a;
    xgd_result res = xgdi_d3d12_linear_alloc(r, l, bytes + stride, 16, &a);
    if (res != XGD_OK) return res;
    size_t pad = (stride - a.offset % stride) % stride;
    out->res = a.res;
    out->cpu = a.cpu + pad;
    out->gpu = a.gpu + pad;
    out->offset = a.offset + pad;
    *first = (UINT)(out->offset / stride);
    return XGD_OK;
}

static void d3d12_linear_reset(d3d12_linear *l)
{
    l->current = 0;
    l->offset = 0;
}

static void d3d12_linear_free(d3d12_linear *l)
{
    for (int i = 0; i < l->count; i++) ID3D12Resource_Release(l->chunks[i].res);
    free(l->chunks);
    memset(l, 0, sizeof *l);
}

/* ---- retirement of native objects --------------------------------------------------------- */

static void d3d12_retired_unknown_free(xgdi_renderer *r, void *object)
{
    (void)r;
    IUnknown_Release((IUnknown *)object);
}

void xgdi_d3d12_retire_unknown(d3d12_renderer *r, IUnknown *object)
{
    if (object == NULL) return;
    if (xgdi_retire_push(&r->base.retired, r->base.submitted_fence + 1,
                         d3d12_retired_unknown_free, object) != XGD_OK) {
        xgdi_d3d12_wait(r, r->base.submitted_fence);
        IUnknown_Release(object); /* recorded work of the open frame is not submitted: keep
                                     it correct by submitting first is the caller's job; the
                                     queue failing to grow is out-of-memory territory */
    }
}

/* ---- debug names and events -------------------------------------------------------------- */

/* UTF-8 to the platform's WCHAR (UTF-16 on Windows, wchar_t under vkd3d); anything malformed
   becomes '?'. Returns the characters written, excluding the terminator. */
static size_t widen(WCHAR *out, size_t cap, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    while (*p != 0 && n + 2 < cap) {
        uint32_t c = *p++;
        int more = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
        if (more > 0) c &= 0x3Fu >> more;
        for (int i = 0; i < more; i++) {
            if ((*p & 0xC0) != 0x80) { more = -1; break; }
            c = (c << 6) | (*p++ & 0x3Fu);
        }
        if (more < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) c = '?';
        if (sizeof(WCHAR) == 2 && c > 0xFFFF) {
            c -= 0x10000;
            out[n++] = (WCHAR)(0xD800 + (c >> 10));
            c = 0xDC00 + (c & 0x3FF);
        }
        out[n++] = (WCHAR)c;
    }
    out[n] = 0;
    return n;
}

void xgdi_d3d12_set_name_now(ID3D12Object *object, const char *fmt, ...)
{
    char text[256];
    WCHAR wide[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    widen(wide, sizeof wide / sizeof wide[0], text);
    /* vkd3d 1.2 may implement it as a stub; a failure only loses a name */
    if (object->lpVtbl->SetName != NULL) (void)ID3D12Object_SetName(object, wide);
}

/* PIX convention: metadata 0 is a NUL-terminated wide string, size in bytes with the NUL. */
#define D3D12X_EVENT_UNICODE 0u

static void begin_event(ID3D12GraphicsCommandList *list, const char *text)
{
    WCHAR wide[256];
    size_t n = widen(wide, sizeof wide / sizeof wide[0], text);
    if (list->lpVtbl->BeginEvent != NULL)
        ID3D12GraphicsCommandList_BeginEvent(list, D3D12X_EVENT_UNICODE, wide,
                                             (UINT)((n + 1) * sizeof(WCHAR)));
}

void xgdi_d3d12_marker_now(ID3D12GraphicsCommandList *list, const char *fmt, ...)
{
    char text[256];
    WCHAR wide[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t n = widen(wide, sizeof wide / sizeof wide[0], text);
    if (list->lpVtbl->SetMarker != NULL)
        ID3D12GraphicsCommandList_SetMarker(list, D3D12X_EVENT_UNICODE, wide,
                                            (UINT)((n + 1) * sizeof(WCHAR)));
}

void xgdi_d3d12_event_end_now(d3d12_renderer *r)
{
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    if (list->lpVtbl->EndEvent != NULL) ID3D12GraphicsCommandList_EndEvent(list);
    r->event_open = false;
}

void xgdi_d3d12_event_targets_now(d3d12_renderer *r)
{
    d3d12_event_end(r);
    char text[256];
    size_t at = 0;
    text[0] = '\0';
    for (int i = 0; i < r->target_count && at < sizeof text; i++) {
        const xgdi_target *tg = &r->targets[i];
        const xgdi_native_texture *t = tg->texture;
        const char *sep = i ? ", " : "";
        int n;
        if (t == r->back_buffer)
            n = snprintf(text + at, sizeof text - at, "%sback buffer", sep);
        else if (t->label[0] != '\0')
            n = snprintf(text + at, sizeof text - at, "%s%s", sep, t->label);
        else
            n = snprintf(text + at, sizeof text - at, "%srender target %dx%d", sep,
                         t->desc.width, t->desc.height);
        if (n < 0) break;
        at += (size_t)n;
        if (t->faces > 1 && at < sizeof text) {
            n = snprintf(text + at, sizeof text - at, " face %d", tg->face);
            if (n < 0) break;
            at += (size_t)n;
        }
    }
    begin_event(d3d12_list(r), text);
    r->event_open = true;
}

/* ---- frames -------------------------------------------------------------------------------- */

void xgdi_d3d12_bind_heaps(d3d12_renderer *r)
{
    ID3D12DescriptorHeap *heaps[2] = { r->view_heap.visible, r->sampler_heap.visible };
    ID3D12GraphicsCommandList_SetDescriptorHeaps(d3d12_list(r), 2, heaps);
    ID3D12GraphicsCommandList_SetGraphicsRootSignature(d3d12_list(r), r->root);
    r->user_root_bound = false;
    r->mips_root_bound = false;
    r->heaps_dirty = false;
    r->targets_dirty = true;
    r->current_pso = NULL;
    r->draw_state_valid = false;
}

static void d3d12_collect(d3d12_renderer *r)
{
    uint64_t done = xgdi_d3d12_completed(r);
    xgdi_retire_collect(&r->base.retired, &r->base, done);
    size_t k = 0;
    for (size_t i = 0; i < r->retired_heap_count; i++) {
        if (r->retired_heap_fence[i] <= done) {
            ID3D12DescriptorHeap_Release(r->retired_heaps[i]);
        } else {
            r->retired_heaps[k] = r->retired_heaps[i];
            r->retired_heap_fence[k] = r->retired_heap_fence[i];
            k++;
        }
    }
    r->retired_heap_count = k;
}

/* Opens slot `slot`: back-pressure only when its previous work is still running. */
static xgd_result d3d12_open_slot(d3d12_renderer *r, int slot)
{
    d3d12_frame *f = &r->frames[slot];
    xgd_result res = xgdi_d3d12_wait(r, f->fence);
    if (res != XGD_OK) return res;
    if (d3d12_hook_removed(r))
        return xgdi_d3d12_check(r, DXGI_ERROR_DEVICE_REMOVED, "CommandAllocator::Reset");
    HRESULT hr = ID3D12CommandAllocator_Reset(f->allocator);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CommandAllocator::Reset");
    hr = ID3D12GraphicsCommandList_Reset(f->list, f->allocator, NULL);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CommandList::Reset");
    d3d12_linear_reset(&f->constants);
    d3d12_linear_reset(&f->ring);
    r->slot = slot;
    r->event_open = false; /* a reset list holds no event (also after a failed close) */
    xgdi_d3d12_bind_heaps(r);
    d3d12_collect(r);
    /* an occlusion query active across the submission continues in a fresh slot */
    xgdi_d3d12_query_resume(r);
    return XGD_OK;
}

static xgd_result d3d12_submit_frame(d3d12_renderer *r)
{
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_renderer_submitting(&r->base);
    xgdi_d3d12_flush_clear(r);
    xgdi_d3d12_flush_barriers(r);
    d3d12_event_end(r); /* events stay balanced within one list */
    /* a query must end in the list it began in: the active one's segment ends here */
    xgdi_d3d12_query_suspend(r);
    d3d12_frame *f = &r->frames[r->slot];
    if (d3d12_hook_removed(r)) return xgdi_d3d12_check(r, DXGI_ERROR_DEVICE_REMOVED, "CommandList::Close");
    HRESULT hr = ID3D12GraphicsCommandList_Close(f->list);
    if (FAILED(hr)) return d3d12_submission_failed(r, hr, "CommandList::Close");
    ID3D12CommandList *lists[1] = { (ID3D12CommandList *)f->list };
    ID3D12CommandQueue_ExecuteCommandLists(r->queue, 1, lists);
    uint64_t value = r->base.submitted_fence + 1;
    hr = ID3D12CommandQueue_Signal(r->queue, r->fence, value);
    if (FAILED(hr)) return d3d12_submission_failed(r, hr, "CommandQueue::Signal");
    r->base.submitted_fence = value;
    f->fence = value;
    r->stats.submits++;
    if (r->debug) xgdi_d3d12_debug_drain(r);
    return d3d12_open_slot(r, (r->slot + 1) % D3D12X_FRAMES);
}

static xgd_result d3d12_op_submit(xgdi_renderer *base)
{
    return d3d12_submit_frame(d3d12_cast(base));
}

xgd_result xgdi_d3d12_submit_and_wait(d3d12_renderer *r)
{
    xgd_result res = d3d12_submit_frame(r);
    /* the frame's value is the last one submitted (opening the next slot submits nothing) */
    if (res == XGD_OK) res = d3d12_wait(r, r->base.submitted_fence, true);
    return res;
}

static uint64_t d3d12_op_completed_fence(xgdi_renderer *base)
{
    return xgdi_d3d12_completed(d3d12_cast(base));
}

static xgd_result d3d12_op_wait_fence(xgdi_renderer *base, uint64_t value)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return d3d12_wait(r, value, true);
}

/* ---- device ------------------------------------------------------------------------------- */

#ifdef _WIN32
static HRESULT d3d12_create_device(d3d12_renderer *r, ID3D12Device **out)
{
    IDXGIFactory6 *factory = NULL;
    IDXGIAdapter1 *adapter = NULL;
    HRESULT hr = CreateDXGIFactory2(0, &IID_IDXGIFactory6, (void **)&factory);
    if (FAILED(hr)) return hr;
    const char *choice = getenv("XGD_D3D12_ADAPTER");
    if (choice != NULL && strcmp(choice, "warp") == 0) {
        hr = IDXGIFactory6_EnumWarpAdapter(factory, &IID_IDXGIAdapter1, (void **)&adapter);
    } else {
        hr = IDXGIFactory6_EnumAdapterByGpuPreference(factory, 0,
                                                      DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                                      &IID_IDXGIAdapter1, (void **)&adapter);
    }
    if (SUCCEEDED(hr)) {
        DXGI_ADAPTER_DESC1 ad;
        if (SUCCEEDED(IDXGIAdapter1_GetDesc1(adapter, &ad))) {
            snprintf(r->caps.adapter, sizeof r->caps.adapter, "%ls", ad.Description);
            /* WARP: a CPU device (xgdi_renderer.cpu_device) */
            r->base.cpu_device = (ad.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) != 0;
        }
        hr = D3D12CreateDevice((IUnknown *)adapter, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device,
                               (void **)out);
        IDXGIAdapter1_Release(adapter);
    }
    IDXGIFactory6_Release(factory);
    return hr;
}
#else
/*
 * The Vulkan device vkd3d chose: its name becomes the adapter name (depth-bias behaviour is
 * measured, not inferred from it: d3d12_measure_depth_bias). libvulkan is vkd3d's (loaded by
 * it), so its entry point is looked up at run time instead of linking the loader.
 */
static void d3d12_identify_vulkan_device(d3d12_renderer *r, ID3D12Device *dev)
{
    VkPhysicalDevice pd = vkd3d_get_vk_physical_device(dev);
    VkInstance inst = vkd3d_instance_get_vk_instance(vkd3d_instance_from_device(dev));
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL || pd == VK_NULL_HANDLE || inst == VK_NULL_HANDLE) {
        if (lib != NULL) dlclose(lib);
        return;
    }
    PFN_vkGetInstanceProcAddr gipa = NULL;
    PFN_vkGetPhysicalDeviceProperties props_fn = NULL;
    void *sym = dlsym(lib, "vkGetInstanceProcAddr");
    /* ISO C has no object-to-function pointer conversion; POSIX guarantees the bits agree */
    if (sym != NULL) memcpy(&gipa, &sym, sizeof gipa);
    if (gipa != NULL)
        props_fn = (PFN_vkGetPhysicalDeviceProperties)gipa(inst, "vkGetPhysicalDeviceProperties");
    PFN_vkGetPhysicalDeviceFeatures features_fn = NULL;
    if (gipa != NULL)
        features_fn = (PFN_vkGetPhysicalDeviceFeatures)gipa(inst, "vkGetPhysicalDeviceFeatures");
    if (props_fn != NULL) {
        VkPhysicalDeviceProperties props;
        props_fn(pd, &props);
        /* the name is cut to what the adapter field holds (128 bytes with "vkd3d on ") */
        snprintf(r->caps.adapter, sizeof r->caps.adapter, "vkd3d on %.118s", props.deviceName);
        r->base.cpu_device = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
        /* vkd3d turns D3D12_FILTER_ANISOTROPIC into a Vulkan sampler with anisotropyEnable
           (on lavapipe it filters anisotropically up to 16); a device without
           samplerAnisotropy gets Linear from this renderer instead (xgdi_d3d12_sampler_get) */
        if (features_fn != NULL) {
            VkPhysicalDeviceFeatures f;
            features_fn(pd, &f);
            float m = props.limits.maxSamplerAnisotropy;
            r->caps.max_anisotropy =
                !f.samplerAnisotropy ? 1 : (m >= 16.0f ? 16 : (m >= 1.0f ? (int)m : 1));
        }
    }
    dlclose(lib);
}

/*
 * One vkd3d instance per process, shared by every device. vkd3d-utils' D3D12CreateDevice
 * creates a vkd3d instance, and so a VkInstance, for each device; some drivers allow a process
 * only a few dozen vkCreateInstance calls in its life (NVIDIA 580 refuses the 30th with
 * VK_ERROR_INCOMPATIBLE_DRIVER, even when every earlier instance was destroyed), so a program
 * that creates devices one after another would stop getting any. The instance is created on
 * first use under a lock (a failure is not remembered: the next device tries again) and this
 * file keeps one reference to it for the rest of the process; each device holds its own
 * reference too (vkd3d_create_device takes one). Its creation parameters are those of
 * D3D12CreateDevice (vkd3d-utils 1.2), so a device behaves as one made there: the events
 * vkd3d signals are vkd3d-utils' events, the surface extensions are asked for (optional xcb
 * surface, required swap chain on the device) and the API version is 1.0; the optional Xlib
 * surface is added for windowed devices (d3d12_window.c).
 */
static pthread_mutex_t d3d12_instance_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vkd3d_instance *d3d12_instance;
static unsigned d3d12_instance_creations;

unsigned xgdi_d3d12_instance_creations(void)
{
    pthread_mutex_lock(&d3d12_instance_lock);
    unsigned n = d3d12_instance_creations;
    pthread_mutex_unlock(&d3d12_instance_lock);
    return n;
}

static HRESULT d3d12_shared_instance(struct vkd3d_instance **out)
{
    static const char *const instance_extensions[] = { "VK_KHR_surface" };
    /* the Xlib surface is what windowed devices present through (d3d12_window.c) */
    static const char *const optional_instance_extensions[] = { "VK_KHR_xcb_surface",
                                                                "VK_KHR_xlib_surface" };
    HRESULT hr = S_OK;
    pthread_mutex_lock(&d3d12_instance_lock);
    if (d3d12_instance == NULL) {
        struct vkd3d_application_info app = {
            .type = VKD3D_STRUCTURE_TYPE_APPLICATION_INFO,
            .application_name = "xgd",
            .api_version = VKD3D_API_VERSION_1_0,
        };
        struct vkd3d_optional_instance_extensions_info optional = {
            .type = VKD3D_STRUCTURE_TYPE_OPTIONAL_INSTANCE_EXTENSIONS_INFO,
            .next = &app,
            .extensions = optional_instance_extensions,
            .extension_count = 2,
        };
        struct vkd3d_instance_create_info info = {
            .type = VKD3D_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
            .next = &optional,
            .pfn_signal_event = vkd3d_signal_event,
            .wchar_size = sizeof(WCHAR),
            .instance_extensions = instance_extensions,
            .instance_extension_count = 1,
        };
        struct vkd3d_instance *created = NULL;
        hr = vkd3d_create_instance(&info, &created);
        if (SUCCEEDED(hr)) {
            d3d12_instance = created;
            d3d12_instance_creations++;
        }
    }
    *out = d3d12_instance;
    pthread_mutex_unlock(&d3d12_instance_lock);
    return hr;
}

static HRESULT d3d12_create_device(d3d12_renderer *r, ID3D12Device **out)
{
    /* vkd3d chooses the Vulkan physical device (VKD3D_VULKAN_DEVICE selects one). */
    snprintf(r->caps.adapter, sizeof r->caps.adapter, "vkd3d (Direct3D 12 on Vulkan)");
    static const char *const device_extensions[] = { "VK_KHR_swapchain" };
    struct vkd3d_instance *instance = NULL;
    HRESULT hr = d3d12_shared_instance(&instance);
    if (FAILED(hr)) return hr;
    struct vkd3d_device_create_info info = {
        .type = VKD3D_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .minimum_feature_level = D3D_FEATURE_LEVEL_11_0,
        .instance = instance,
        .device_extensions = device_extensions,
        .device_extension_count = 1,
    };
    hr = vkd3d_create_device(&info, &IID_ID3D12Device, (void **)out);
    if (SUCCEEDED(hr)) d3d12_identify_vulkan_device(r, *out);
    return hr;
}
#endif

/* Whether a TEXTURE3D of this format can really be created. The TEXTURE3D support bit alone is
 * not enough under vkd3d: it derives the bit from the Vulkan format's sampled-image features,
 * but 3D images of block-compressed formats are optional in Vulkan, so the bit can be set while
 * CreateCommittedResource fails. A 4x4x4 single-level probe, released at once, settles it. */
static bool d3d12_volume_creatable(d3d12_renderer *r, DXGI_FORMAT fmt)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D, .Width = 4, .Height = 4,
        .DepthOrArraySize = 4, .MipLevels = 1, .Format = fmt, .SampleDesc = { 1, 0 },
        .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN, .Flags = D3D12_RESOURCE_FLAG_NONE
    };
    ID3D12Resource *probe = NULL;
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_COMMON, NULL,
                                                      &IID_ID3D12Resource, (void **)&probe);
    if (probe != NULL) ID3D12Resource_Release(probe);
    return SUCCEEDED(hr) && probe != NULL;
}

static void d3d12_query_caps(d3d12_renderer *r)
{
    d3d12_capabilities *c = &r->caps;
    static const D3D_FEATURE_LEVEL levels[] = { D3D_FEATURE_LEVEL_12_1, D3D_FEATURE_LEVEL_12_0,
                                                D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0 };
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl = { 4, levels, D3D_FEATURE_LEVEL_11_0 };
    c->feature_level = D3D_FEATURE_LEVEL_11_0;
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_FEATURE_LEVELS, &fl,
                                                   sizeof fl)))
        c->feature_level = fl.MaxSupportedFeatureLevel;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    memset(&o, 0, sizeof o);
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_D3D12_OPTIONS, &o,
                                                   sizeof o)))
        c->resource_binding_tier = (int)o.ResourceBindingTier;
    D3D12_FEATURE_DATA_SHADER_MODEL sm = { D3D_SHADER_MODEL_5_1 };
    c->shader_model = 0x50;
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_SHADER_MODEL, &sm,
                                                   sizeof sm)))
        c->shader_model = (int)sm.HighestShaderModel;
    D3D12_FEATURE_DATA_ROOT_SIGNATURE rs = { D3D_ROOT_SIGNATURE_VERSION_1_1 };
    c->root_signature_version = 10;
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_ROOT_SIGNATURE, &rs,
                                                   sizeof rs)))
        c->root_signature_version = rs.HighestVersion == D3D_ROOT_SIGNATURE_VERSION_1_1 ? 11 : 10;

    /* Direct3D 12 applies MaxAnisotropy up to D3D12_MAX_MAXANISOTROPY (16) at every feature
       level; under vkd3d d3d12_identify_vulkan_device has read the Vulkan device's own limit */
    if (c->max_anisotropy == 0) c->max_anisotropy = 16;

    xgdi_caps *x = &r->xcaps;
    memset(x, 0, sizeof *x);
    x->adapter_name = c->adapter;
    x->max_texture_size = D3D12X_MAX_TEXTURE_SIZE;
    x->max_render_targets = D3D12X_MAX_TARGETS;
    x->max_multisample_count = 1;
    x->zero_scissor = XGD_ZERO_SCISSOR_CLIPS_ALL; /* an empty D3D12 scissor rect clips all */
    x->back_buffer_readback = true;
    x->present_to_window = xgdi_d3d12_can_present(r);
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        DXGI_FORMAT d = xgdi_d3d12_dxgi_format((xgd_surface_format)f);
        D3D12_FEATURE_DATA_FORMAT_SUPPORT fs = { d, 0, 0 };
        if (d == DXGI_FORMAT_UNKNOWN ||
            FAILED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs,
                                                    sizeof fs)))
            continue;
        x->formats[f].texture = (fs.Support1 & D3D12_FORMAT_SUPPORT1_TEXTURE2D) != 0;
        x->formats[f].filterable = (fs.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE) != 0;
        x->formats[f].max_anisotropy = x->formats[f].filterable ? c->max_anisotropy : 0;
        x->formats[f].render_target = (fs.Support1 & D3D12_FORMAT_SUPPORT1_RENDER_TARGET) != 0;
        x->formats[f].blendable = (fs.Support1 & D3D12_FORMAT_SUPPORT1_BLENDABLE) != 0;
        /* Texture3D: the runtime's TEXTURE3D bit (sampled like the 2D formats), confirmed by
         * creating one (d3d12_volume_creatable) */
        x->formats[f].volume = (fs.Support1 & D3D12_FORMAT_SUPPORT1_TEXTURE3D) != 0 &&
                               (fs.Support1 & D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE) != 0 &&
                               d3d12_volume_creatable(r, d);
        bool ms = (fs.Support1 & D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET) != 0 &&
                  (fs.Support1 & D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RESOLVE) != 0;
        if (ms) {
            D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q = { d, 4, 0, 0 };
            ms = SUCCEEDED(ID3D12Device_CheckFeatureSupport(
                     r->dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof q)) &&
                 q.NumQualityLevels > 0;
        }
        x->formats[f].multisample = ms;
    }
    /* XNA guarantees Bgr565, Bgra5551 and Bgra4444 textures in both profiles. A device without
     * the native DXGI format (vkd3d has none of the three) keeps them in a wider unorm format
     * and converts every upload and readback, so texels round-trip bit-exactly and sample as
     * the packed values. Native 5- and 6-bit fields are never used: GPUs expand them by bit
     * replication, one 8-bit step off v/31 for a quarter of the values (vk_texture.c). They are no render targets there: XNA lets render-target formats vary
     * per device (a Bgra5551 target may come back Color), and a wide target would keep more
     * precision than the format has, so such a request falls back to Color. */
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551,
                                                  XGD_SURFACE_FORMAT_BGRA4444 };
    for (int i = 0; i < 3; i++) {
        xgd_surface_format f = packed[i], w = xgdi_packed_wide_format(f);
        r->widened[f] = false;
        bool exact = w != XGD_SURFACE_FORMAT_RGBA64; /* 4-bit fields only */
        if (x->formats[f].texture && x->formats[f].filterable && exact) continue;
        if (!x->formats[w].texture || !x->formats[w].filterable) continue;
        r->widened[f] = true;
        memset(&x->formats[f], 0, sizeof x->formats[f]);
        x->formats[f].texture = x->formats[f].filterable = true;
        x->formats[f].volume = x->formats[w].volume;
        x->formats[f].max_anisotropy = x->formats[w].max_anisotropy;
    }
    /* max_multisample_count: the highest power of two Color and every depth format take */
    for (int s = 2; s <= 8; s *= 2) {
        DXGI_FORMAT fmts[3] = { DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_D24_UNORM_S8_UINT,
                                DXGI_FORMAT_D16_UNORM };
        bool ok = true;
        for (int i = 0; i < 3; i++) {
            D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q = { fmts[i], (UINT)s, 0, 0 };
            if (FAILED(ID3D12Device_CheckFeatureSupport(
                    r->dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof q)) ||
                q.NumQualityLevels == 0)
                ok = false;
        }
        if (ok) x->max_multisample_count = s;
    }
    x->depth_formats[XGD_DEPTH_FORMAT_NONE] = true;
    for (int f = XGD_DEPTH_FORMAT_DEPTH16; f < XGD_DEPTH_FORMAT_COUNT; f++) {
        D3D12_FEATURE_DATA_FORMAT_SUPPORT fs = { xgdi_d3d12_dxgi_depth_format((xgd_depth_format)f),
                                                 0, 0 };
        x->depth_formats[f] =
            SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs,
                                                       sizeof fs)) &&
            (fs.Support1 & D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL) != 0;
    }
}

static xgd_result d3d12_make_back_buffer(d3d12_renderer *r, const xgd_presentation_parameters *pp,
                                         xgdi_native_texture **out)
{
    xgdi_texture_desc d = xgdi_back_buffer_desc(pp, r->xcaps.max_multisample_count);
    return xgdi_d3d12_texture_alloc(r, &d, out);
}

static void d3d12_bind_back_buffer(d3d12_renderer *r)
{
    memset(r->targets, 0, sizeof r->targets);
    r->targets[0].texture = r->back_buffer;
    r->target_count = 1;
    r->targets_dirty = true;
}

static void d3d12_destroy_all(d3d12_renderer *r)
{
    if (r->dev != NULL && r->fence != NULL && !r->lost) {
        /* close the open list (it may hold recorded work) and wait for idle */
        if (d3d12_submit_frame(r) == XGD_OK) xgdi_d3d12_wait(r, r->base.submitted_fence);
        xgdi_d3d12_present_destroy(r);
    } else if (r->fence != NULL && r->lost) {
        /* Work submitted before the loss may still run (a simulated removal leaves the device
           healthy); a removed device's fence reads all ones, so this returns at once there. */
        xgdi_d3d12_wait(r, r->base.submitted_fence);
        xgdi_d3d12_present_destroy(r);
    }
    if (r->back_buffer != NULL) xgdi_d3d12_texture_release(r, r->back_buffer);
    if (r->black != NULL) xgdi_d3d12_texture_release(r, r->black);
    if (r->black_volume != NULL) xgdi_d3d12_texture_release(r, r->black_volume);
    xgdi_retire_flush_all(&r->base.retired, &r->base);
    xgdi_retire_free(&r->base.retired);
    xgdi_d3d12_query_heaps_free(r);
    for (size_t i = 0; i < r->retired_heap_count; i++)
        ID3D12DescriptorHeap_Release(r->retired_heaps[i]);
    free(r->retired_heaps);
    free(r->retired_heap_fence);
    xgdi_d3d12_pipelines_free(r);
    if (r->defaults != NULL) ID3D12Resource_Release(r->defaults);
    for (int i = 0; i < D3D12X_FRAMES; i++) {
        d3d12_frame *f = &r->frames[i];
        if (f->list != NULL) ID3D12GraphicsCommandList_Release(f->list);
        if (f->allocator != NULL) ID3D12CommandAllocator_Release(f->allocator);
        d3d12_linear_free(&f->constants);
        d3d12_linear_free(&f->ring);
    }
    xgdi_d3d12_readback_free(r);
    xgdi_d3d12_cpu_chain_free(&r->rtv_heap);
    xgdi_d3d12_cpu_chain_free(&r->dsv_heap);
    xgdi_d3d12_gpu_heap_free(&r->view_heap);
    xgdi_d3d12_gpu_heap_free(&r->sampler_heap);
    free(r->samplers);
    free(r->barriers);
    if (r->fence != NULL) ID3D12Fence_Release(r->fence);
#ifdef _WIN32
    if (r->event != NULL) CloseHandle(r->event);
#else
    if (r->event != NULL) vkd3d_destroy_event(r->event);
#endif
    if (r->queue != NULL) ID3D12CommandQueue_Release(r->queue);
    xgdi_d3d12_debug_release(r);
    if (r->dev != NULL) ID3D12Device_Release(r->dev);
    free(r);
}

static xgd_result d3d12_create_lists(d3d12_renderer *r)
{
    HRESULT hr;
    for (int i = 0; i < D3D12X_FRAMES; i++) {
        ID3D12CommandAllocator **a = &r->frames[i].allocator;
        ID3D12GraphicsCommandList **l = &r->frames[i].list;
        hr = ID3D12Device_CreateCommandAllocator(r->dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                 &IID_ID3D12CommandAllocator, (void **)a);
        if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateCommandAllocator");
        hr = ID3D12Device_CreateCommandList(r->dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, *a, NULL,
                                            &IID_ID3D12GraphicsCommandList, (void **)l);
        if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateCommandList");
        d3d12_set_name(r, *a, "xgd frame %d allocator", i);
        d3d12_set_name(r, *l, "xgd frame %d list", i);
        /* a new list is open; close it so reset/reopen follows one path */
        hr = ID3D12GraphicsCommandList_Close(*l);
        if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CommandList::Close");
    }
    return XGD_OK;
}

static xgd_result d3d12_create_defaults(d3d12_renderer *r)
{
    /* Stride-0 stream for attributes a layout lacks, as the software renderer reads them:
       colour (1,1,1,1) at 0, everything else (0,0,0,1) at 16. */
    static const float values[8] = { 1, 1, 1, 1, 0, 0, 0, 1 };
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_UPLOAD };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = 256, .Height = 1,
        .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
        .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR
    };
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                                      &IID_ID3D12Resource, (void **)&r->defaults);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateCommittedResource(defaults)");
    d3d12_set_name(r, r->defaults, "xgd default vertex attributes");
    r->defaults_gpu = ID3D12Resource_GetGPUVirtualAddress(r->defaults);
    void *p = NULL;
    D3D12_RANGE none = { 0, 0 };
    hr = ID3D12Resource_Map(r->defaults, 0, &none, &p);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "Map(defaults)");
    memcpy(p, values, sizeof values);
    ID3D12Resource_Unmap(r->defaults, 0, NULL);
    return XGD_OK;
}

/*
 * Spec 002 counts DepthBias in steps of the bound format; the native unit may be two steps
 * (Vulkan lets r be up to 2 x 2^-n, and vkd3d passes DepthBias through: llvmpipe and NVIDIA
 * double D24). One small draw per format tells the factor; build_key divides by it.
 */
static void d3d12_measure_depth_bias(d3d12_renderer *r)
{
    static const xgd_depth_format fmts[3] = { XGD_DEPTH_FORMAT_DEPTH16, XGD_DEPTH_FORMAT_DEPTH24,
                                              XGD_DEPTH_FORMAT_DEPTH24_STENCIL8 };
    for (int i = 0; i < 3; i++) {
        xgd_depth_format f = fmts[i];
        if (!r->xcaps.depth_formats[f]) continue;
        r->caps.bias_factor[f] = 1; /* spec 002's count unscaled while probing */
        int factor = xgdi_depth_bias_probe(&r->base, f);
        if (factor == 0) {
            xgdi_warn(r->base.device,
                      "d3d12: depth-bias probe for depth format %d was inconclusive; assuming "
                      "one step per unit", (int)f);
            factor = 1;
        } else if (r->debug) {
            xgdi_warn(r->base.device, "d3d12: info: depth format %d: one bias unit = %d step%s",
                      (int)f, factor, factor == 1 ? "" : "s");
        }
        r->caps.bias_factor[f] = factor;
    }
}

static xgd_result d3d12_op_create(const xgdi_renderer_create_info *info, xgdi_renderer **out)
{
    *out = NULL;
    d3d12_renderer *r = calloc(1, sizeof *r);
    if (r == NULL)
        return xgdi_fail(info->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    r->base.ops = &xgdi_d3d12_renderer_ops;
    r->base.device = info->device;
    xgdi_d3d12_query_init(r);
    /* XGD_D3D12_DEBUG=1 turns debug mode on without a code change (as XGD_VK_VALIDATION=1
       does for Vulkan): names, event markers, debug layer and info queue. */
    const char *debug_env = getenv("XGD_D3D12_DEBUG");
    r->debug = info->debug || (debug_env != NULL && debug_env[0] == '1');
    r->profile = info->profile;
    const char *per_level = getenv("XGD_MIPS_PER_LEVEL");
    r->mips_per_level = per_level != NULL && per_level[0] != '\0' && strcmp(per_level, "0") != 0;
    const char *by_draws = getenv("XGD_MIPS_BY_DRAWS");
    r->mips_by_draws = by_draws != NULL && by_draws[0] != '\0' && strcmp(by_draws, "0") != 0;

    if (r->debug) xgdi_d3d12_debug_enable_layer(r);
    HRESULT hr = d3d12_create_device(r, &r->dev);
    if (FAILED(hr)) {
        xgd_result res = xgdi_fail(info->device, XGD_ERROR_NOT_SUPPORTED,
                                   "d3d12: no device with feature level 11_0 (hr 0x%08lx)",
                                   (unsigned long)hr);
        free(r);
        return res;
    }
    if (r->debug) xgdi_d3d12_debug_attach_info_queue(r);
    r->wait_spin_ns = xgdi_wait_spin_budget_ns();
    xgd_result res = XGD_OK;
    D3D12_COMMAND_QUEUE_DESC qd = { D3D12_COMMAND_LIST_TYPE_DIRECT, 0,
                                    D3D12_COMMAND_QUEUE_FLAG_NONE, 0 };
    hr = ID3D12Device_CreateCommandQueue(r->dev, &qd, &IID_ID3D12CommandQueue,
                                         (void **)&r->queue);
    if (FAILED(hr)) { res = xgdi_d3d12_check(r, hr, "CreateCommandQueue"); goto fail; }
    d3d12_set_name(r, r->queue, "xgd direct queue");
    hr = ID3D12Device_CreateFence(r->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence,
                                  (void **)&r->fence);
    if (FAILED(hr)) { res = xgdi_d3d12_check(r, hr, "CreateFence"); goto fail; }
    d3d12_set_name(r, r->fence, "xgd frame fence");
#ifdef _WIN32
    r->event = CreateEventA(NULL, FALSE, FALSE, NULL);
#else
    r->event = vkd3d_create_event();
#endif
    if (r->event == NULL) {
        res = xgdi_fail(info->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: cannot create an event");
        goto fail;
    }
    d3d12_query_caps(r);
    if ((res = d3d12_create_lists(r)) != XGD_OK) goto fail;
    if ((res = xgdi_d3d12_cpu_chain_init(r, &r->rtv_heap, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 64)) != XGD_OK ||
        (res = xgdi_d3d12_cpu_chain_init(r, &r->dsv_heap, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 16)) != XGD_OK ||
        (res = xgdi_d3d12_gpu_heap_init(r, &r->view_heap, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 256,
                                        D3D12X_VIEW_HEAP_MAX)) != XGD_OK ||
        (res = xgdi_d3d12_gpu_heap_init(r, &r->sampler_heap, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 64,
                                        D3D12X_SAMPLER_HEAP_MAX)) != XGD_OK)
        goto fail;
    if ((res = xgdi_d3d12_pipelines_init(r)) != XGD_OK) goto fail;
    if ((res = d3d12_create_defaults(r)) != XGD_OK) goto fail;
    /* open slot 0 (its fence value 0 is complete) */
    r->slot = 0;
    if ((res = d3d12_open_slot(r, 0)) != XGD_OK) goto fail;
    if ((res = d3d12_make_back_buffer(r, info->pp, &r->back_buffer)) != XGD_OK) goto fail;
    {
        xgdi_texture_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.width = bd.height = 1;
        bd.levels = 1;
        bd.format = XGD_SURFACE_FORMAT_COLOR;
        bd.samples = 1;
        if ((res = xgdi_d3d12_texture_alloc(r, &bd, &r->black)) != XGD_OK) goto fail;
        static const uint8_t opaque_black[4] = { 0, 0, 0, 255 };
        xgd_rect one = { 0, 0, 1, 1 };
        if ((res = xgdi_d3d12_op_texture_upload(&r->base, r->black, 0, 0, &one, opaque_black, 4)) !=
            XGD_OK)
            goto fail;
        /* the VolumeEffect's stand-in needs a TEXTURE3D SRV (a 2D one cannot fill t0) */
        if (r->xcaps.formats[XGD_SURFACE_FORMAT_COLOR].volume) {
            bd.volume = true;
            bd.depth = 1;
            if ((res = xgdi_d3d12_texture_alloc(r, &bd, &r->black_volume)) != XGD_OK) goto fail;
            xgd_box cell = { 0, 0, 0, 1, 1, 1 };
            if ((res = xgdi_d3d12_op_texture_upload_volume(&r->base, r->black_volume, 0, &cell,
                                                           opaque_black, 4, 4)) != XGD_OK)
                goto fail;
        }
    }
    d3d12_bind_back_buffer(r);
    d3d12_measure_depth_bias(r);
    if (getenv("XGD_D3D12_DESCRIPTOR_TRACE") != NULL) xgdi_d3d12_descriptor_trace(r);
    *out = &r->base;
    return XGD_OK;
fail:
    d3d12_destroy_all(r);
    return res;
}

static void d3d12_op_destroy(xgdi_renderer *base)
{
    if (base == NULL) return;
    d3d12_renderer *r = d3d12_cast(base);
    if (getenv("XGD_D3D12_DESCRIPTOR_TRACE") != NULL) xgdi_d3d12_descriptor_trace(r);
    d3d12_destroy_all(r);
}

static void d3d12_op_get_caps(xgdi_renderer *base, xgdi_caps *out)
{
    *out = d3d12_cast(base)->xcaps;
}

static xgd_result d3d12_op_reset_back_buffer(xgdi_renderer *base,
                                             const xgd_presentation_parameters *pp)
{
    d3d12_renderer *r = d3d12_cast(base);
    xgdi_native_texture *nb = NULL;
    xgd_result res = d3d12_make_back_buffer(r, pp, &nb);
    if (res != XGD_OK) return res; /* the old one stays */
    xgdi_d3d12_op_texture_destroy(base, r->back_buffer);
    r->back_buffer = nb;
    d3d12_bind_back_buffer(r);
    xgdi_d3d12_present_follow_window(r);
    return XGD_OK;
}

static xgd_result d3d12_op_present(xgdi_renderer *base, int swap_interval)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_native_texture *bb = r->back_buffer;
    if (bb != NULL && bb->samples > 1 && bb->ms_dirty[0]) {
        xgd_result res = xgdi_d3d12_texture_resolve(r, bb, 0);
        if (res != XGD_OK) return res;
    }
    if (r->base.window != NULL) return xgdi_d3d12_present_window(r, swap_interval, d3d12_submit_frame);
    (void)swap_interval; /* HeadlessEXT: nothing is presented */
    return d3d12_submit_frame(r);
}

/* Maps the four descriptor heaps' counters onto xgd_statistics (issue 4). live and recycles
   are exact sums; peak is the sum of each heap's own high-water mark, an upper bound of the
   combined peak since the heaps peak at different moments. */
static void d3d12_op_get_statistics(xgdi_renderer *base, xgd_statistics *inout)
{
    d3d12_renderer *r = d3d12_cast(base);
    const d3d12_index_pool *pools[4] = { &r->rtv_heap.pool, &r->dsv_heap.pool,
                                         &r->view_heap.pool, &r->sampler_heap.pool };
    uint64_t live = 0, peak = 0, recycles = 0;
    for (int i = 0; i < 4; i++) {
        live += pools[i]->live;
        peak += pools[i]->peak;
        recycles += pools[i]->recycles;
    }
    inout->descriptors_live = live;
    inout->descriptors_peak = peak;
    inout->gpu_waits = r->stats.gpu_waits;
    inout->descriptor_pool_growths = r->rtv_heap.growths + r->dsv_heap.growths +
                                     r->view_heap.growths + r->sampler_heap.growths;
    inout->descriptor_recycles = recycles;
}

/*
 * D3D12_OPTIONS7 (mesh shader tier) postdates vkd3d 1.2's headers: its feature number and the
 * leading field of its data are spelled here (the runtime answers E_INVALIDARG where it does
 * not know the query, which reads as "not supported").
 */
#define D3D12X_FEATURE_OPTIONS7 ((D3D12_FEATURE)32)
typedef struct d3d12_options7 {
    int mesh_shader_tier;
    int sampler_feedback_tier;
} d3d12_options7;

static xgd_result d3d12_op_get_native_caps(xgdi_renderer *base, xgd_native_caps *out)
{
    d3d12_renderer *r = d3d12_cast(base);
    /* the levels, model and root-signature version were asked at creation (d3d12_query_caps) */
    out->feature_level = (int)r->caps.feature_level;
    out->shader_model = r->caps.shader_model;
    out->resource_binding_tier = r->caps.resource_binding_tier;
    out->root_signature_version = r->caps.root_signature_version;
    out->debug_layer = r->caps.debug_layer;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    memset(&o, 0, sizeof o);
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_D3D12_OPTIONS, &o,
                                                   sizeof o)))
        out->conservative_raster = o.ConservativeRasterizationTier !=
                                   D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED;
    D3D12_FEATURE_DATA_D3D12_OPTIONS5 o5;
    memset(&o5, 0, sizeof o5);
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12_FEATURE_D3D12_OPTIONS5, &o5,
                                                   sizeof o5)))
        out->ray_tracing = o5.RaytracingTier != D3D12_RAYTRACING_TIER_NOT_SUPPORTED;
    d3d12_options7 o7;
    memset(&o7, 0, sizeof o7);
    if (SUCCEEDED(ID3D12Device_CheckFeatureSupport(r->dev, D3D12X_FEATURE_OPTIONS7, &o7,
                                                   sizeof o7)))
        out->mesh_shaders = o7.mesh_shader_tier != 0; /* D3D12_MESH_SHADER_TIER_NOT_SUPPORTED */
    return XGD_OK;
}

const xgdi_renderer_ops xgdi_d3d12_renderer_ops = {
    .name = "d3d12",
    .kind = XGD_RENDERER_D3D12,
    .upload_streams = true,
    .instanced_quads = true,
    .create = d3d12_op_create,
    .destroy = d3d12_op_destroy,
    .get_caps = d3d12_op_get_caps,
    .reset_back_buffer = d3d12_op_reset_back_buffer,
    .texture_create = xgdi_d3d12_op_texture_create,
    .texture_destroy = xgdi_d3d12_op_texture_destroy,
    .texture_upload = xgdi_d3d12_op_texture_upload,
    .texture_download = xgdi_d3d12_op_texture_download,
    .texture_upload_volume = xgdi_d3d12_op_texture_upload_volume,
    .texture_download_volume = xgdi_d3d12_op_texture_download_volume,
    .texture_finalize = xgdi_d3d12_op_texture_finalize,
    .buffer_create = xgdi_d3d12_op_buffer_create,
    .buffer_destroy = xgdi_d3d12_op_buffer_destroy,
    .buffer_upload = xgdi_d3d12_op_buffer_upload,
    .buffer_download = xgdi_d3d12_op_buffer_download,
    .set_render_targets = xgdi_d3d12_op_set_render_targets,
    .clear = xgdi_d3d12_op_clear,
    .draw = xgdi_d3d12_op_draw,
    .user_draw_fast = xgdi_d3d12_op_user_draw_fast,
    .read_back_buffer = xgdi_d3d12_op_read_back_buffer,
    .present = d3d12_op_present,
    .submit = d3d12_op_submit,
    .completed_fence = d3d12_op_completed_fence,
    .wait_fence = d3d12_op_wait_fence,
    .get_statistics = d3d12_op_get_statistics,
    .get_native_caps = d3d12_op_get_native_caps,
    .query_create = xgdi_d3d12_op_query_create,
    .query_destroy = xgdi_d3d12_op_query_destroy,
    .query_begin = xgdi_d3d12_op_query_begin,
    .query_end = xgdi_d3d12_op_query_end,
    .query_result = xgdi_d3d12_op_query_result,
    .shader_create = xgdi_d3d12_op_shader_create,
    .shader_destroy = xgdi_d3d12_op_shader_destroy,
    .reserve_vertices = xgdi_d3d12_op_reserve_vertices,
    .draw_quad_runs = xgdi_d3d12_op_draw_quad_runs,
};
