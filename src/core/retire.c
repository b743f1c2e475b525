/*
 * retire.c - the deferred-destruction queue every GPU renderer shares: a native object that
 * submitted work may still use is freed only once the fence value it was retired with has
 * completed (STYLE.md: nothing waits for idle to free).
 *
 * Callbacks may push new entries onto the queue they are being collected from (freeing one
 * object can retire another); such entries are appended and seen by the same pass.
 *
 * Also the fence-stamped index free list (xgdi_fenced_indices) renderers recycle native slots
 * with (occlusion-query heap slots), by the same rule: reused only once their fence passed.
 */
#include "renderer.h"

#include <stdint.h>
#include <stdlib.h>

xgd_result xgdi_retire_push(xgdi_retire_queue *q, uint64_t fence, xgdi_retire_fn fn, void *object)
{
    if (q->count == q->capacity) {
        size_t cap = q->capacity ? q->capacity * 2 : 16;
        if (cap < q->capacity || cap > SIZE_MAX / sizeof *q->items) return XGD_ERROR_OUT_OF_MEMORY;
        xgdi_retire_entry *items = realloc(q->items, cap * sizeof *items);
        if (items == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        q->items = items;
        q->capacity = cap;
    }
    q->items[q->count++] = (xgdi_retire_entry){ .fence = fence, .fn = fn, .object = object };
    return XGD_OK;
}

size_t xgdi_retire_collect(xgdi_retire_queue *q, xgdi_renderer *r, uint64_t completed)
{
    /* Fences are only ordered per push site, so the whole queue is scanned; kept entries are
     * compacted to the front in their original order. q->items and q->count are re-read every
     * step because a callback may push (and reallocate). Entries at [kept, i) are stale copies
     * until the final count is written. */
    size_t kept = 0, freed = 0;
    for (size_t i = 0; i < q->count; i++) {
        xgdi_retire_entry e = q->items[i];
        if (e.fence <= completed) {
            if (e.fn != NULL) e.fn(r, e.object);
            freed++;
        } else {
            q->items[kept++] = e;
        }
    }
    q->count = kept;
    return freed;
}

void xgdi_retire_flush_all(xgdi_retire_queue *q, xgdi_renderer *r)
{
    for (size_t i = 0; i < q->count; i++) {
        xgdi_retire_entry e = q->items[i];
        if (e.fn != NULL) e.fn(r, e.object);
    }
    q->count = 0;
}

void xgdi_retire_free(xgdi_retire_queue *q)
{
    free(q->items);
    q->items = NULL;
    q->count = 0;
    q->capacity = 0;
}

/* ---- fence-stamped index free list ------------------------------------------------------------ */

bool xgdi_fenced_take(xgdi_fenced_indices *p, uint64_t completed, uint32_t limit, uint32_t *index)
{
    /* Only the oldest entry is looked at: entries are usually given back in fence order, and
       when they are not, a younger ready entry simply waits its turn (never an early reuse). */
    if (p->count > 0 && p->items[p->head].fence <= completed) {
        *index = p->items[p->head].index;
        p->head = (p->head + 1) % p->capacity;
        p->count--;
        return true;
    }
    if (p->next_unused < limit) {
        *index = p->next_unused++;
        return true;
    }
    return false;
}

xgd_result xgdi_fenced_give(xgdi_fenced_indices *p, uint32_t index, uint64_t fence)
{
    if (p->count == p->capacity) {
        size_t cap = p->capacity ? p->capacity * 2 : 16;
        if (cap < p->capacity || cap > SIZE_MAX / sizeof *p->items) return XGD_ERROR_OUT_OF_MEMORY;
        xgdi_fenced_index *items = malloc(cap * sizeof *items);
        if (items == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        for (size_t i = 0; i < p->count; i++) items[i] = p->items[(p->head + i) % p->capacity];
        free(p->items);
        p->items = items;
        p->head = 0;
        p->capacity = cap;
    }
    p->items[(p->head + p->count) % p->capacity] = (xgdi_fenced_index){ index, fence };
    p->count++;
    return XGD_OK;
}

void xgdi_fenced_free(xgdi_fenced_indices *p)
{
    free(p->items);
    p->items = NULL;
    p->head = p->count = p->capacity = 0;
    p->next_unused = 0;
}
