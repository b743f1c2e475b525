/*
 * query_segments.c - the part of occlusion queries every GPU renderer shares (renderer.h
 * "shared occlusion-query segments"): slots handed out by fence, the segments of a query that
 * spans submissions, and the gating of results on the fence of the last segment. The
 * renderers' query files (vk_query.c, d3d12_queries.c) supply the native calls only.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void xgdi_query_slots_init(xgdi_query_slots *s, xgdi_renderer *owner,
                           const xgdi_query_native_ops *ops, uint32_t chunk_size)
{
    memset(s, 0, sizeof *s);
    s->owner = owner;
    s->ops = ops;
    s->chunk_size = chunk_size;
}

void xgdi_query_slots_free(xgdi_query_slots *s)
{
    xgdi_fenced_free(&s->free);
    s->chunk_count = 0;
    s->active = NULL;
}

static const char *renderer_name(const xgdi_query_slots *s) { return s->owner->ops->name; }

/* Every call into the renderer's table goes through the device's (dev->ops): the debug fault
   hook (fault.c) wraps that table, and a call that bypassed it could not be made to fail. */
static const xgdi_renderer_ops *dev_ops(const xgdi_query_slots *s)
{
    return s->owner->device->ops;
}

/* A slot whose last use has completed, adding a chunk when none is free. */
static xgd_result take_slot(xgdi_query_slots *s, uint32_t *out)
{
    xgdi_renderer *r = s->owner;
    uint64_t done = dev_ops(s)->completed_fence(r);
    if (xgdi_fenced_take(&s->free, done, s->chunk_count * s->chunk_size, out)) return XGD_OK;
    if (s->chunk_count >= UINT32_MAX / s->chunk_size - 1)
        return xgdi_fail(r->device, XGD_ERROR_OUT_OF_MEMORY, "%s: too many query slots",
                         renderer_name(s));
    xgd_result res = s->ops->add_chunk(r, s->chunk_count);
    if (res != XGD_OK) return res;
    s->chunk_count++;
    if (!xgdi_fenced_take(&s->free, done, s->chunk_count * s->chunk_size, out))
        return xgdi_fail(r->device, XGD_ERROR_OUT_OF_MEMORY, "%s: no query slot",
                         renderer_name(s));
    return XGD_OK;
}

/* Gives a slot back, reusable once `fence` completed. If the list cannot grow the slot is
   simply never reused (one slot lost, never an early reuse). */
static void give_slot(xgdi_query_slots *s, uint32_t slot, uint64_t fence)
{
    (void)xgdi_fenced_give(&s->free, slot, fence);
}

static bool reserve_segments(xgdi_query_slots *s, xgdi_query_segments *q, uint32_t more)
{
    if (q->count + more <= q->capacity) return true;
    uint32_t cap = q->capacity != 0 ? q->capacity * 2 : 4;
    while (cap < q->count + more) cap *= 2;
    uint32_t *slots = realloc(q->slots, cap * sizeof *slots);
    if (slots != NULL) q->slots = slots;
    uint64_t *fences = slots != NULL ? realloc(q->slot_fences, cap * sizeof *fences) : NULL;
    if (fences != NULL) q->slot_fences = fences;
    if (slots == NULL || fences == NULL) {
        xgdi_fail(s->owner->device, XGD_ERROR_OUT_OF_MEMORY, "%s: out of memory",
                  renderer_name(s));
        return false;
    }
    q->capacity = cap;
    return true;
}

/* The previous begin..end's slots go back, stamped with the frame that last wrote them. */
static void release_slots(xgdi_query_slots *s, xgdi_query_segments *q)
{
    for (uint32_t i = 0; i < q->count; i++) give_slot(s, q->slots[i], q->fence);
    q->count = 0;
    q->folded = 0;
    if (q->has_next) give_slot(s, q->next, 0); /* reserved, never recorded */
    q->has_next = false;
}

/* Slot s is index s % chunk_size of chunk s / chunk_size. */
static uint32_t slot_chunk(const xgdi_query_slots *s, uint32_t slot) { return slot / s->chunk_size; }
static uint32_t slot_index(const xgdi_query_slots *s, uint32_t slot) { return slot % s->chunk_size; }

/* Room for one more segment is reserved. */
static void record_begin(xgdi_query_slots *s, xgdi_query_segments *q, uint32_t slot, void *list)
{
    s->ops->begin(s->owner, list, slot_chunk(s, slot), slot_index(s, slot));
    q->slot_fences[q->count] = s->owner->submitted_fence + 1;
    q->slots[q->count++] = slot;
    q->open = true;
    q->fence = s->owner->submitted_fence + 1; /* the open frame (renderer.h) */
}

static void record_end(xgdi_query_slots *s, xgdi_query_segments *q, void *list)
{
    uint32_t slot = q->slots[q->count - 1];
    s->ops->end(s->owner, list, slot_chunk(s, slot), slot_index(s, slot));
    q->open = false;
    q->fence = s->owner->submitted_fence + 1;
    q->slot_fences[q->count - 1] = q->fence;
}

/* Reads the closed segments whose frame has completed into q->folded and gives their slots
   back, so a query left active across many submissions holds only the segments still in
   flight. Runs at submissions (suspend), never per draw; a segment whose read fails stays. */
static void fold_completed(xgdi_query_slots *s, xgdi_query_segments *q)
{
    uint64_t done = dev_ops(s)->completed_fence(s->owner);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < q->count; i++) {
        bool closed = i + 1 < q->count || !q->open;
        uint64_t v = 0;
        uint32_t slot = q->slots[i];
        /* a segment of the frame being closed has not been submitted, whatever the fence says */
        if (closed && q->slot_fences[i] <= done && q->slot_fences[i] <= s->owner->submitted_fence &&
            s->ops->read(s->owner, slot_chunk(s, slot), slot_index(s, slot), &v) == XGD_OK) {
            q->folded += v;
            give_slot(s, slot, q->slot_fences[i]);
            continue;
        }
        q->slots[kept] = slot;
        q->slot_fences[kept] = q->slot_fences[i];
        kept++;
    }
    q->count = kept;
}

xgd_result xgdi_query_segments_init(xgdi_query_slots *s, xgdi_query_segments *q)
{
    return reserve_segments(s, q, 4) ? XGD_OK : XGD_ERROR_OUT_OF_MEMORY;
}

void xgdi_query_segments_release(xgdi_query_slots *s, xgdi_query_segments *q)
{
    if (s->active == q) {
        /* core ends an active query first; this keeps the list closable regardless (a lost
           device gives no list: nothing will be submitted) */
        void *list = NULL;
        if (q->open && s->ops->list(s->owner, &list) == XGD_OK) record_end(s, q, list);
        s->active = NULL;
    }
    release_slots(s, q);
    free(q->slots);
    free(q->slot_fences);
    memset(q, 0, sizeof *q);
}

xgd_result xgdi_query_segments_begin(xgdi_query_slots *s, xgdi_query_segments *q)
{
    /* room for this segment and the one a submission would reserve */
    if (!reserve_segments(s, q, 2)) return XGD_ERROR_OUT_OF_MEMORY;
    uint32_t slot;
    xgd_result res = take_slot(s, &slot);
    if (res != XGD_OK) return res;
    void *list = NULL;
    if ((res = s->ops->list(s->owner, &list)) != XGD_OK) {
        give_slot(s, slot, 0);
        return res;
    }
    release_slots(s, q); /* the previous result is discarded */
    q->incomplete = false;
    record_begin(s, q, slot, list);
    s->active = q;
    return XGD_OK;
}

xgd_result xgdi_query_segments_end(xgdi_query_slots *s, xgdi_query_segments *q)
{
    if (q->open) {
        /* open implies a list being recorded: a segment is only open in the recording one */
        void *list = NULL;
        xgd_result res = s->ops->list(s->owner, &list);
        if (res != XGD_OK) return res;
        record_end(s, q, list);
    }
    if (q->has_next) give_slot(s, q->next, 0);
    q->has_next = false;
    if (s->active == q) s->active = NULL;
    return XGD_OK;
}

void xgdi_query_slots_suspend(xgdi_query_slots *s, void *list)
{
    xgdi_query_segments *q = s->active;
    if (q == NULL || !q->open) return;
    record_end(s, q, list);
    fold_completed(s, q);
    if (q->has_next) return;
    if (!reserve_segments(s, q, 1) || take_slot(s, &q->next) != XGD_OK) {
        /* reported when the result is asked for: the count would miss what follows */
        q->incomplete = true;
        return;
    }
    q->has_next = true;
}

void xgdi_query_slots_resume(xgdi_query_slots *s, void *list)
{
    xgdi_query_segments *q = s->active;
    if (q == NULL || q->open || !q->has_next) return;
    q->has_next = false;
    record_begin(s, q, q->next, list);
}

/* Whether work recorded into the frame of fence value `fence` has completed. flush or wait
   submit the open frame first when that frame is still open; wait then blocks until it
   completes. Renderer failures are returned as they are. */
static xgd_result fence_ready(xgdi_query_slots *s, uint64_t fence, bool flush, bool wait,
                              bool *ready)
{
    xgdi_renderer *r = s->owner;
    const xgdi_renderer_ops *ops = dev_ops(s);
    *ready = false;
    xgd_result res;
    if (fence > r->submitted_fence) {
        /* still in the open frame: nothing will ever complete it unless it is submitted */
        if (!flush && !wait) return XGD_OK;
        if ((res = ops->submit(r)) != XGD_OK) return res;
    }
    if (ops->completed_fence(r) < fence) {
        if (!wait) return XGD_OK;
        if ((res = ops->wait_fence(r, fence)) != XGD_OK) return res;
    }
    *ready = true;
    return XGD_OK;
}

xgd_result xgdi_query_segments_result(xgdi_query_slots *s, xgdi_query_segments *q, bool flush,
                                      bool wait, bool *done, uint64_t *samples)
{
    *done = false;
    if (q->incomplete)
        return xgdi_fail(s->owner->device, XGD_ERROR_OUT_OF_MEMORY,
                         "%s: the occlusion query lost a segment (no query slot could be "
                         "reserved at a submission); its count is unavailable",
                         renderer_name(s));
    bool ready = false;
    xgd_result res = fence_ready(s, q->fence, flush, wait, &ready);
    if (res != XGD_OK || !ready) return res;
    /* every segment's frame has completed: each count is readable without waiting */
    uint64_t sum = q->folded;
    for (uint32_t i = 0; i < q->count; i++) {
        uint64_t v = 0;
        uint32_t slot = q->slots[i];
        res = s->ops->read(s->owner, slot_chunk(s, slot), slot_index(s, slot), &v);
        if (res != XGD_OK) return res;
        sum += v;
    }
    *samples = sum;
    *done = true;
    return XGD_OK;
}
