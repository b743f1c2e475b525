/*
 * vk_query.c - occlusion queries on Vulkan: VK_QUERY_TYPE_OCCLUSION with
 * VK_QUERY_CONTROL_PRECISE_BIT (exact sample counts; needs the occlusionQueryPrecise feature).
 *
 * Slots, segments and result gating are core's (src/core/query_segments.c, renderer.h
 * "shared occlusion-query segments"); this file supplies the Vulkan calls: a chunk is a query
 * pool of XVK_QUERY_POOL_SIZE queries, read with vkGetQueryPoolResults.
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
 *    fresh slot (xvk_query_resume from xvk_cmd). Internal draws (refilling a multisampled
 *    target's samples) are bracketed the same way so they are not counted.
 */
#include "vk_internal.h"

#include <stdlib.h>

struct xgdi_native_query {
    xgdi_query_segments segments;
};

static xgd_result add_pool(xgdi_renderer *base, uint32_t chunk)
{
    xvk_renderer *r = xvk_cast(base);
    VkQueryPool *pools = realloc(r->query_pools, (chunk + 1) * sizeof *pools);
    if (pools == NULL)
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    r->query_pools = pools;
    VkQueryPoolCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                 .queryType = VK_QUERY_TYPE_OCCLUSION,
                                 .queryCount = XVK_QUERY_POOL_SIZE };
    VkQueryPool pool = VK_NULL_HANDLE;
    xgd_result res = xvk_check(r, vkCreateQueryPool(r->dev, &ci, NULL, &pool), "vkCreateQueryPool");
    if (res != XGD_OK) return res;
    xvk_set_name(r, VK_OBJECT_TYPE_QUERY_POOL, (uint64_t)(uintptr_t)pool, "xgd occlusion queries");
    r->query_pools[chunk] = pool;
    return XGD_OK;
}

/* The command buffer being recorded (opened if none is), with rendering ended. */
static xgd_result query_list(xgdi_renderer *base, void **list)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE)
        return r->lost ? XGD_ERROR_DEVICE_LOST : xgdi_failure(base->device);
    xvk_end_rendering(r);
    *list = cmd;
    return XGD_OK;
}

/* Outside rendering. */
static void record_begin(xgdi_renderer *base, void *list, uint32_t pool, uint32_t index)
{
    VkCommandBuffer cmd = list;
    VkQueryPool p = xvk_cast(base)->query_pools[pool];
    vkCmdResetQueryPool(cmd, p, index, 1);
    vkCmdBeginQuery(cmd, p, index, VK_QUERY_CONTROL_PRECISE_BIT);
}

/* Outside rendering. */
static void record_end(xgdi_renderer *base, void *list, uint32_t pool, uint32_t index)
{
    vkCmdEndQuery((VkCommandBuffer)list, xvk_cast(base)->query_pools[pool], index);
}

/* The slot's frame has completed: the result is available (WAIT returns at once). */
static xgd_result read_slot(xgdi_renderer *base, uint32_t pool, uint32_t index,
                            uint64_t *samples)
{
    xvk_renderer *r = xvk_cast(base);
    VkResult vr = vkGetQueryPoolResults(r->dev, r->query_pools[pool], index, 1, sizeof *samples,
                                        samples, sizeof *samples,
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    return xvk_check(r, vr, "vkGetQueryPoolResults");
}

static const xgdi_query_native_ops native_ops = { add_pool, query_list, record_begin, record_end,
                                                  read_slot };

void xvk_query_init(xvk_renderer *r)
{
    xgdi_query_slots_init(&r->queries, &r->base, &native_ops, XVK_QUERY_POOL_SIZE);
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
    if (q == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    xgd_result res = xgdi_query_segments_init(&r->queries, &q->segments);
    if (res != XGD_OK) {
        free(q);
        return res;
    }
    *out = q;
    return XGD_OK;
}

void xvk_query_destroy(xgdi_renderer *base, xgdi_native_query *q)
{
    if (q == NULL) return;
    xgdi_query_segments_release(&xvk_cast(base)->queries, &q->segments);
    free(q);
}

xgd_result xvk_query_begin(xgdi_renderer *base, xgdi_native_query *q)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return xgdi_query_segments_begin(&r->queries, &q->segments);
}

xgd_result xvk_query_end(xgdi_renderer *base, xgdi_native_query *q)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return xgdi_query_segments_end(&r->queries, &q->segments);
}

void xvk_query_suspend(xvk_renderer *r, VkCommandBuffer cmd)
{
    xgdi_query_slots_suspend(&r->queries, cmd);
}

void xvk_query_resume(xvk_renderer *r, VkCommandBuffer cmd)
{
    xgdi_query_slots_resume(&r->queries, cmd);
}

xgd_result xvk_query_result(xgdi_renderer *base, xgdi_native_query *q, bool flush, bool wait,
                            bool *done, uint64_t *samples)
{
    xvk_renderer *r = xvk_cast(base);
    *done = false;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    return xgdi_query_segments_result(&r->queries, &q->segments, flush, wait, done, samples);
}

void xvk_query_pools_destroy(xvk_renderer *r)
{
    for (uint32_t i = 0; i < r->queries.chunk_count; i++)
        vkDestroyQueryPool(r->dev, r->query_pools[i], NULL);
    free(r->query_pools);
    r->query_pools = NULL;
    xgdi_query_slots_free(&r->queries);
}
