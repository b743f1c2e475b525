/*
 * retire.c - the deferred-destruction queue every GPU renderer shares: a native object that
 * submitted work may still use is freed only once the fence value it was retired with has
 * completed (STYLE.md: nothing waits for idle to free).
 *
 * Callbacks may push new entries onto the queue they are being collected from (freeing one
 * object can retire another); such entries are appended and seen by the same pass.
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
