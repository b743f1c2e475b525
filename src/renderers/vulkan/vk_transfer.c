/*
 * vk_transfer.c - host-visible memory for one transfer or draw (spans): ring space for
 * ordinary sizes, a dedicated buffer for big ones (texture and back-buffer readbacks of
 * megapixel targets, uploads of large textures and buffers, user-primitive draws of hundreds of
 * thousands of triangles).
 *
 * Lifetime rule: a span stays valid until the caller releases it, and the caller releases it
 * only after the last thing that uses it happened: after recording the commands that read it
 * (uploads, draws) or after copying a readback out of it. Release stamps a big buffer with the
 * fence of the submission that may still use it; it is reused for a later span once that fence
 * passed, and freed when the kept spares would exceed their budget. A frame that takes more
 * than XVK_BIG_FRAME_BYTES of big buffers is submitted first, so many big draws in one frame
 * reuse a bounded set. A big span never waits for idle, and the small path (the ring)
 * allocates nothing.
 */
#include "vk_internal.h"

#include <stdlib.h>
#include <string.h>

static bool has_type(const xvk_renderer *r, uint32_t bits, VkMemoryPropertyFlags want)
{
    const VkPhysicalDeviceMemoryProperties *p = &r->memory.props;
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (p->memoryTypes[i].propertyFlags & want) == want) return true;
    return false;
}

static void big_free(xvk_renderer *r, xvk_big_buffer *b)
{
    r->counters.big_bytes_live -= b->size;
    if (b->buffer != VK_NULL_HANDLE) vkDestroyBuffer(r->dev, b->buffer, NULL);
    xvk_mem_free(r, &b->mem);
    free(b);
}

static void retired_big(xgdi_renderer *base, void *object)
{
    big_free(xvk_cast(base), object);
}

static xvk_big_buffer *big_create(xvk_renderer *r, uint64_t size, bool readback)
{
    xvk_big_buffer *b = calloc(1, sizeof *b);
    if (b == NULL) {
        xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        return NULL;
    }
    b->size = size;
    b->readback = readback;
    r->counters.big_bytes_live += size;
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult vr = vkCreateBuffer(r->dev, &bi, NULL, &b->buffer);
    if (vr != VK_SUCCESS) {
        (void)xvk_check(r, vr, "vkCreateBuffer (transfer)");
        free(b);
        return NULL;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(r->dev, b->buffer, &req);
    VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    /* the CPU reads a readback once, in full: cached memory makes that a plain memcpy where
       write-combined memory would be read uncached */
    if (readback && has_type(r, req.memoryTypeBits, want | VK_MEMORY_PROPERTY_HOST_CACHED_BIT))
        want |= VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
    xgd_result res = xvk_mem_alloc(r, &req, want, &b->mem);
    if (res == XGD_OK && b->mem.mapped == NULL)
        res = xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                        "vulkan: transfer memory of %llu bytes is not mapped",
                        (unsigned long long)size);
    if (res == XGD_OK)
        res = xvk_check(r, vkBindBufferMemory(r->dev, b->buffer, b->mem.memory, b->mem.offset),
                        "vkBindBufferMemory (transfer)");
    if (res != XGD_OK) {
        big_free(r, b);
        return NULL;
    }
    r->counters.big_created++;
    if (r->counters.big_bytes_live > r->counters.big_bytes_peak)
        r->counters.big_bytes_peak = r->counters.big_bytes_live;
    xvk_set_name(r, VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)b->buffer, "xgd transfer buffer");
    return b;
}

/* Takes spare i out of the list. */
static xvk_big_buffer *take_spare(xvk_renderer *r, int i)
{
    xvk_big_buffer *b = r->big_spares[i];
    r->big_spares[i] = r->big_spares[--r->big_spare_count];
    r->big_spare_bytes -= b->size;
    return b;
}

bool xvk_span_alloc(xvk_renderer *r, uint64_t size, uint64_t align, bool readback, xvk_span *out)
{
    memset(out, 0, sizeof *out);
    /* the CPU reads a readback: from the ring only where the ring's memory is host-cached (it
       may be device-local or write-combined, where reads crawl) */
    if (size <= r->ring.size / 4 && (!readback || r->ring.cached)) {
        void *p;
        if (!xvk_ring_alloc(r, size, align, &out->offset, &p)) return false;
        out->buffer = r->ring.buffer;
        out->ptr = p;
        return true;
    }
    uint64_t want = XVK_BIG_MIN;
    while (want < size) {
        if (want > UINT64_MAX / 2) {
            xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: %llu bytes to transfer",
                      (unsigned long long)size);
            return false;
        }
        want *= 2;
    }
    /* The open frame's command buffer first: its slot wait makes the buffers released in the
       frame that last used the slot idle, so they can serve this span. */
    if (xvk_cmd(r) == VK_NULL_HANDLE) return false;
    if (r->big_frame_fence != r->base.submitted_fence + 1) {
        r->big_frame_fence = r->base.submitted_fence + 1;
        r->big_frame_bytes = 0;
    }
    /* Buffers released in the open frame carry its fence, so none of them serves another span
       of the same frame: a frame of many big draws would hold one buffer per draw. Past
       XVK_BIG_FRAME_BYTES the frame is submitted (no wait: the slot wait above holds the CPU
       back while XVK_FRAMES frames are in flight), and its buffers become reusable once it
       completes, which bounds what big buffers hold. */
    if (r->big_frame_bytes > 0 && r->big_frame_bytes + want > XVK_BIG_FRAME_BYTES) {
        if (r->base.ops->submit(&r->base) != XGD_OK) return false;
        if (xvk_cmd(r) == VK_NULL_HANDLE) return false;
        r->big_frame_fence = r->base.submitted_fence + 1;
        r->big_frame_bytes = 0;
    }
    /* the smallest idle spare of the kind that holds it (no more than 4x what is needed) */
    uint64_t done = xvk_completed(r);
    int best = -1;
    for (int i = 0; i < r->big_spare_count; i++) {
        const xvk_big_buffer *b = r->big_spares[i];
        if (b->fence > done || b->readback != readback || b->size < want || b->size / 4 > want)
            continue;
        if (best < 0 || b->size < r->big_spares[best]->size) best = i;
    }
    xvk_big_buffer *b;
    if (best >= 0) {
        b = take_spare(r, best);
        r->counters.big_reused++;
    } else {
        b = big_create(r, want, readback);
        if (b == NULL) return false;
    }
    r->big_frame_bytes += b->size;
    out->buffer = b->buffer;
    out->offset = 0;
    out->ptr = b->mem.mapped;
    out->big = b;
    return true;
}

void xvk_span_release(xvk_renderer *r, xvk_span *s)
{
    xvk_big_buffer *b = s->big;
    memset(s, 0, sizeof *s);
    if (b == NULL) return; /* ring space: reclaimed when its submission completes */
    /* the last submission that may read or write it: the open frame while recording, else the
       last one submitted (a readback's, already waited for) */
    b->fence = r->base.submitted_fence + (r->recording ? 1u : 0u);
    uint64_t done = xvk_completed(r);
    /* a buffer larger than all spares may hold is never kept: evicting them would not help */
    if (b->size <= XVK_BIG_SPARE_BYTES) {
        /* make room among the spares: idle ones go first, oldest fence first */
        while (r->big_spare_count == XVK_BIG_SPARES ||
               r->big_spare_bytes + b->size > XVK_BIG_SPARE_BYTES) {
            int victim = -1;
            for (int i = 0; i < r->big_spare_count; i++)
                if (r->big_spares[i]->fence <= done &&
                    (victim < 0 || r->big_spares[i]->fence < r->big_spares[victim]->fence))
                    victim = i;
            if (victim < 0) break;
            big_free(r, take_spare(r, victim));
        }
        if (r->big_spare_count < XVK_BIG_SPARES &&
            r->big_spare_bytes + b->size <= XVK_BIG_SPARE_BYTES) {
            r->big_spares[r->big_spare_count++] = b;
            r->big_spare_bytes += b->size;
            return;
        }
    }
    /* no room: freed once the submissions that may use it completed */
    if (b->fence <= done) big_free(r, b);
    else xvk_retire(r, retired_big, b);
}

void xvk_spans_destroy(xvk_renderer *r)
{
    while (r->big_spare_count > 0) big_free(r, take_spare(r, r->big_spare_count - 1));
}
