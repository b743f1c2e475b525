/*
 * vk_query.c - occlusion queries on Vulkan: VK_QUERY_TYPE_OCCLUSION with
 * VK_QUERY_CONTROL_PRECISE_BIT (exact sample counts; needs the occlusionQueryPrecise feature).
 *
 * Native queries are slots of fixed-size query pools, handed out by a fence-stamped free list
 * (xgdi_fenced_indices): a slot is reset and begun again only once the frame that last wrote
 * it has completed, so a result is never clobbered before it is read.
 *
 * Placement rules (Vulkan 1.3):
 *  - vkCmdResetQueryPool only outside a render pass instance (VUID-vkCmdResetQueryPool-
 *    renderpass), so a slot is reset right before its vkCmdBeginQuery, outside rendering;
 *  - a query begun inside a render pass instance must end inside it (VUID-vkCmdEndQuery-
 *    None-07007), while one begun outside may span several instances. Dynamic rendering
 *    segments start and stop at every binding change here (vk_draw.c), so native queries are
 *    always begun and ended outside rendering: begin and end close the current segment;
 *  - a primary command buffer must not end with a query active (VUID-vkEndCommandBuffer-
 *    commandBuffer-00061): while an xgd query is active, every submitted command buffer ends
 *    its native query (xvk_query_suspend from xvk_submit) and the next command buffer begins a
 *    fresh slot (xvk_query_resume from xvk_cmd). The xgd count is the sum of the segments.
 *    Internal draws (refilling a multisampled target's samples) are bracketed the same way so
 *    they are not counted.
 * The slot of the next segment and the room to record it are reserved when a segment ends, so
 * resuming (on the draw path, when the next command buffer opens) allocates nothing.
 */
#include "vk_internal.h"

#include <stdlib.h>

struct xgdi_native_query {
    uint32_t *slots;           /* the segments of the current begin..end, oldest first */
    uint32_t count, capacity;
    uint64_t fence;            /* fence value of the frame holding the last segment */
    bool active;               /* between begin and end */
    bool open;                 /* a segment is begun in the recording command buffer */
    bool has_next;             /* `next` is reserved for the segment after a suspension */
    uint32_t next;
    bool incomplete;           /* a segment could not be reserved: the count would be short */
};

static VkQueryPool slot_pool(const xvk_renderer *r, uint32_t slot)
{
    return r->query_pools[slot / XVK_QUERY_POOL_SIZE];
}

/* A slot whose last use has completed, growing the pools by one when none is free. */
static xgd_result take_slot(xvk_renderer *r, uint32_t *out)
{
    uint64_t done = r->base.ops->completed_fence(&r->base);
    uint32_t limit = r->query_pool_count * XVK_QUERY_POOL_SIZE;
    if (xgdi_fenced_take(&r->query_slots, done, limit, out)) return XGD_OK;
    if (r->query_pool_count >= UINT32_MAX / XVK_QUERY_POOL_SIZE - 1)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: too many query slots");
    VkQueryPool *pools = realloc(r->query_pools, (r->query_pool_count + 1) * sizeof *pools);
    if (pools == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    r->query_pools = pools;
    VkQueryPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_OCCLUSION,
                                 .queryCount = XVK_QUERY_POOL_SIZE };
    VkQueryPool pool = VK_NULL_HANDLE;
    xgd_result res = xvk_check(r, vkCreateQueryPool(r->dev, &ci, NULL, &pool), "vkCreateQueryPool");
    if (res != XGD_OK) return res;
    xvk_set_name(r, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)(uintptr_t)pool, "xgd occlusion queries");
    r->query_pools[r->query_pool_count++] = pool;
    limit += XVK_QUERY_POOL_SIZE;
    if (!xgdi_fenced_take(&r->query_slots, done, limit, out))
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: no query slot");
    return XGD_OK;
}

/* Gives a slot back, reusable once `fence` completed. If the list cannot grow the slot is
   simply never reused (one slot lost, never an early reuse). */
static void give_slot(xvk_renderer *r, uint32_t slot, uint64_t fence)
{
    (void)xgdi_fenced_give(&r->query_slots, slot, fence);
}

static bool reserve_segments(xvk_renderer *r, xgdi_native_query *q, uint32_t more)
{
    if (q->count + more <= q->capacity) return true;
    uint32_t cap = q->capacity != 0 ? q->capacity * 2 : 4;
    while (cap < q->count + more) cap *= 2;
    uint32_t *slots = realloc(q->slots, cap * sizeof *slots);
    if (slots == NULL) {
        xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        return false;
    }
    q->slots = slots;
    q->capacity = cap;
    return true;
}

/* The previous begin..end's slots go back, stamped with the frame that last wrote them. */
static void release_slots(xvk_renderer *r, xgdi_native_query *q)
{
    for (uint32_t i = 0; i < q->count; i++) give_slot(r, q->slots[i], q->fence);
    q->count = 0;
    if (q->has_next) give_slot(r, q->next, 0); /* reserved, never recorded */
    q->has_next = false;
}

/* Outside rendering; room for one more segment reserved. */
static void record_begin(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_query *q,
                         uint32_t slot)
{
    VkQueryPool pool = slot_pool(r, slot);
    uint32_t index = slot % XVK_QUERY_POOL_SIZE;
    vkCmdResetQueryPool(cmd, pool, index, 1);
    vkCmdBeginQuery(cmd, pool, index, VK_QUERY_CONTROL_PRECISE_BIT);
    q->slots[q->count++] = slot;
    q->open = true;
    q->fence = r->base.submitted_fence + 1; /* the open frame (renderer.h) */
}

/* Outside rendering. */
static void record_end(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_query *q)
{
    uint32_t slot = q->slots[q->count - 1];
    vkCmdEndQuery(cmd, slot_pool(r, slot), slot % XVK_QUERY_POOL_SIZE);
    q->open = false;
    q->fence = r->base.submitted_fence + 1;
}

xgd_result xvk_query_create(xgdi_renderer *base, xgdi_native_query **out)
{
    xvk_renderer *r = xvk_cast(base);
    /* Exact counts (xgd.h): without precise queries Vulkan may report any non-zero value for
       a visible draw, which is a boolean, not XNA's PixelCount. */
    if (!r->occlusion_precise)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: %s lacks the occlusionQueryPrecise feature (exact occlusion "
                         "counts)", r->adapter_name);
    xgdi_native_query *q = calloc(1, sizeof *q);
    if (q == NULL || !reserve_segments(r, q, 4)) {
        free(q);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    }
    *out = q;
    return XGD_OK;
}

void xvk_query_destroy(xgdi_renderer *base, xgdi_native_query *q)
{
    xvk_renderer *r = xvk_cast(base);
    if (q == NULL) return;
    if (r->active_query == q) {
        /* core ends an active query first; this keeps the command buffer valid regardless */
        if (q->open && r->recording && !r->lost) {
            xvk_end_rendering(r);
            record_end(r, r->frames[r->frame_index].cmd, q);
        }
        r->active_query = NULL;
    }
    release_slots(r, q);
    free(q->slots);
    free(q);
}

xgd_result xvk_query_begin(xgdi_renderer *base, xgdi_native_query *q)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    /* room for this segment and the one a submission would reserve */
    if (!reserve_segments(r, q, 2)) return XGD_ERROR_OUT_OF_MEMORY;
    uint32_t slot;
    xgd_result res = take_slot(r, &slot);
    if (res != XGD_OK) return res;
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) {
        give_slot(r, slot, 0);
        return r->lost ? XGD_ERROR_DEVICE_LOST : xgd_device_last_result(base->device);
    }
    xvk_end_rendering(r);
    release_slots(r, q); /* the previous result is discarded */
    q->incomplete = false;
    record_begin(r, cmd, q, slot);
    q->active = true;
    r->active_query = q;
    return XGD_OK;
}

xgd_result xvk_query_end(xgdi_renderer *base, xgdi_native_query *q)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    /* open implies recording: a segment is only open in the command buffer being recorded */
    if (q->open) {
        xvk_end_rendering(r);
        record_end(r, r->frames[r->frame_index].cmd, q);
    }
    if (q->has_next) give_slot(r, q->next, 0);
    q->has_next = false;
    q->active = false;
    if (r->active_query == q) r->active_query = NULL;
    return XGD_OK;
}

void xvk_query_suspend(xvk_renderer *r, VkCommandBuffer cmd)
{
    xgdi_native_query *q = r->active_query;
    if (q == NULL || !q->open) return;
    record_end(r, cmd, q);
    if (q->has_next) return;
    if (!reserve_segments(r, q, 1) || take_slot(r, &q->next) != XGD_OK) {
        /* reported when the result is asked for: the count would miss what follows */
        q->incomplete = true;
        return;
    }
    q->has_next = true;
}

void xvk_query_resume(xvk_renderer *r, VkCommandBuffer cmd)
{
    xgdi_native_query *q = r->active_query;
    if (q == NULL || q->open || !q->has_next) return;
    q->has_next = false;
    record_begin(r, cmd, q, q->next);
}

xgd_result xvk_query_result(xgdi_renderer *base, xgdi_native_query *q, bool flush, bool wait,
                            bool *done, uint64_t *samples)
{
    xvk_renderer *r = xvk_cast(base);
    *done = false;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (q->incomplete)
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                         "vulkan: the occlusion query lost a segment (no query slot could be "
                         "reserved at a submission); its count is unavailable");
    bool ready = false;
    xgd_result res = xgdi_fence_ready(base, q->fence, flush, wait, &ready);
    if (res != XGD_OK || !ready) return res;
    /* every segment's frame has completed: the results are available (WAIT returns at once) */
    uint64_t sum = 0;
    for (uint32_t i = 0; i < q->count; i++) {
        uint64_t v = 0;
        uint32_t slot = q->slots[i];
        VkResult vr = vkGetQueryPoolResults(r->dev, slot_pool(r, slot), slot % XVK_QUERY_POOL_SIZE,
                                            1, sizeof v, &v, sizeof v,
                                            VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if ((res = xvk_check(r, vr, "vkGetQueryPoolResults")) != XGD_OK) return res;
        sum += v;
    }
    *samples = sum;
    *done = true;
    return XGD_OK;
}

void xvk_query_pools_destroy(xvk_renderer *r)
{
    for (uint32_t i = 0; i < r->query_pool_count; i++)
        vkDestroyQueryPool(r->dev, r->query_pools[i], NULL);
    free(r->query_pools);
    r->query_pools = NULL;
    r->query_pool_count = 0;
    xgdi_fenced_free(&r->query_slots);
}
