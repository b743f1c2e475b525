/*
 * vk_mem.h - device-memory sub-allocation for the Vulkan renderer.
 *
 * Debian ships no Vulkan memory allocator library (issue 4), so xgd keeps its own: large
 * VkDeviceMemory blocks per memory type, each carved by a first-fit free list with coalescing
 * (xvk_range_heap, pure C so it can be unit-tested without a device), plus dedicated
 * allocations for requests bigger than a block's quarter.
 */
#ifndef XGD_VK_MEM_H
#define XGD_VK_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- the free list of one block (no Vulkan types) ---- */

typedef struct xvk_range {
    uint64_t offset, size;
} xvk_range;

typedef struct xvk_range_heap {
    uint64_t size;          /* bytes managed */
    uint64_t used;          /* bytes handed out (including alignment padding kept by owners) */
    xvk_range *free_list;   /* sorted by offset, never adjacent (coalesced) */
    size_t free_count, free_capacity;
} xvk_range_heap;

bool xvk_range_heap_init(xvk_range_heap *h, uint64_t size);
void xvk_range_heap_release(xvk_range_heap *h);
/* First fit: finds `size` bytes at an offset aligned to `align` (a power of two). On success
 * *offset is the aligned start and *taken_offset / *taken_size the range actually removed from
 * the free list (pass both back to xvk_range_heap_free). false when nothing fits or the free
 * list cannot grow. */
bool xvk_range_heap_alloc(xvk_range_heap *h, uint64_t size, uint64_t align, uint64_t *offset,
                          uint64_t *taken_offset, uint64_t *taken_size);
/* Returns a range; merges it with its neighbours. false (and no change) for a range that
 * overlaps free space or lies outside the heap: a double free. */
bool xvk_range_heap_free(xvk_range_heap *h, uint64_t offset, uint64_t size);
/* Largest free range (for tests and statistics). */
uint64_t xvk_range_heap_largest(const xvk_range_heap *h);

#endif /* XGD_VK_MEM_H */
