/*
 * vk_mem.c - the block sub-allocator (issue 4, "Memory"): a first-fit free list per block
 * (xvk_range_heap, no Vulkan types) and VkDeviceMemory blocks per memory type on top.
 */
#include "vk_internal.h"

#include <stdlib.h>
#include <string.h>

/* AddressSanitizer builds poison the host-visible ranges the sub-allocator has taken back, so a
   CPU access through a pointer into memory already released (a staging buffer read after its
   retirement) is reported like a use after free; other builds pay nothing. */
#if defined(__SANITIZE_ADDRESS__)
#define XVK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XVK_ASAN 1
#endif
#endif
#ifdef XVK_ASAN
#include <sanitizer/asan_interface.h>
#define xvk_poison(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define xvk_unpoison(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define xvk_poison(p, n) ((void)(p), (void)(n))
#define xvk_unpoison(p, n) ((void)(p), (void)(n))
#endif

/* ---- range heap ---- */

bool xvk_range_heap_init(xvk_range_heap *h, uint64_t size)
{
    memset(h, 0, sizeof *h);
    h->free_list = malloc(8 * sizeof *h->free_list);
    if (h->free_list == NULL) return false;
    h->free_capacity = 8;
    h->size = size;
    if (size > 0) {
        h->free_list[0].offset = 0;
        h->free_list[0].size = size;
        h->free_count = 1;
    }
    return true;
}

void xvk_range_heap_release(xvk_range_heap *h)
{
    free(h->free_list);
    memset(h, 0, sizeof *h);
}

static bool heap_reserve(xvk_range_heap *h, size_t n)
{
    if (n <= h->free_capacity) return true;
    size_t cap = h->free_capacity ? h->free_capacity * 2 : 8;
    while (cap < n) cap *= 2;
    xvk_range *nl = realloc(h->free_list, cap * sizeof *nl);
    if (nl == NULL) return false;
    h->free_list = nl;
    h->free_capacity = cap;
    return true;
}

bool xvk_range_heap_alloc(xvk_range_heap *h, uint64_t size, uint64_t align, uint64_t *offset,
                          uint64_t *taken_offset, uint64_t *taken_size)
{
    if (size == 0) size = 1;
    if (align == 0) align = 1;
    for (size_t i = 0; i < h->free_count; i++) {
        xvk_range *f = &h->free_list[i];
        uint64_t start = (f->offset + align - 1) & ~(align - 1);
        uint64_t pad = start - f->offset;
        if (pad > f->size || f->size - pad < size) continue;
        /* The padding stays with the allocation: the free list never holds slivers that
           nothing aligned could use, and freeing returns exactly what was taken. */
        *offset = start;
        *taken_offset = f->offset;
        *taken_size = pad + size;
        if (f->size == pad + size) {
            memmove(f, f + 1, (h->free_count - i - 1) * sizeof *f);
            h->free_count--;
        } else {
            f->offset += pad + size;
            f->size -= pad + size;
        }
        h->used += pad + size;
        return true;
    }
    return false;
}

bool xvk_range_heap_free(xvk_range_heap *h, uint64_t offset, uint64_t size)
{
    if (size == 0 || offset > h->size || size > h->size - offset) return false;
    /* first free range after the returned one */
    size_t i = 0;
    while (i < h->free_count && h->free_list[i].offset < offset) i++;
    if (i > 0) {
        const xvk_range *p = &h->free_list[i - 1];
        if (p->offset + p->size > offset) return false; /* overlaps free space */
    }
    if (i < h->free_count && offset + size > h->free_list[i].offset) return false;
    bool merge_prev = i > 0 && h->free_list[i - 1].offset + h->free_list[i - 1].size == offset;
    bool merge_next = i < h->free_count && offset + size == h->free_list[i].offset;
    if (merge_prev && merge_next) {
        h->free_list[i - 1].size += size + h->free_list[i].size;
        memmove(&h->free_list[i], &h->free_list[i + 1],
                (h->free_count - i - 1) * sizeof *h->free_list);
        h->free_count--;
    } else if (merge_prev) {
        h->free_list[i - 1].size += size;
    } else if (merge_next) {
        h->free_list[i].offset = offset;
        h->free_list[i].size += size;
    } else {
        if (!heap_reserve(h, h->free_count + 1)) return false;
        memmove(&h->free_list[i + 1], &h->free_list[i],
                (h->free_count - i) * sizeof *h->free_list);
        h->free_list[i].offset = offset;
        h->free_list[i].size = size;
        h->free_count++;
    }
    h->used -= size;
    return true;
}

uint64_t xvk_range_heap_largest(const xvk_range_heap *h)
{
    uint64_t m = 0;
    for (size_t i = 0; i < h->free_count; i++)
        if (h->free_list[i].size > m) m = h->free_list[i].size;
    return m;
}

/* ---- device memory ---- */

static int find_type(const VkPhysicalDeviceMemoryProperties *p, uint32_t bits,
                     VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < p->memoryTypeCount; i++)
        if ((bits & (1u << i)) && (p->memoryTypes[i].propertyFlags & want) == want) return (int)i;
    return -1;
}

static xgd_result alloc_memory(xvk_renderer *r, uint32_t type, VkDeviceSize size,
                               VkDeviceMemory *mem, void **mapped)
{
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = size, .memoryTypeIndex = type };
    VkResult vr = vkAllocateMemory(r->dev, &ai, NULL, mem);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkAllocateMemory");
    *mapped = NULL;
    if (r->memory.props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        vr = vkMapMemory(r->dev, *mem, 0, VK_WHOLE_SIZE, 0, mapped);
        if (vr != VK_SUCCESS) {
            vkFreeMemory(r->dev, *mem, NULL);
            return xvk_check(r, vr, "vkMapMemory");
        }
    }
    return XGD_OK;
}

xgd_result xvk_mem_alloc(xvk_renderer *r, const VkMemoryRequirements *req,
                         VkMemoryPropertyFlags want, xvk_alloc *out)
{
    memset(out, 0, sizeof *out);
    xvk_memory *m = &r->memory;
    int type = find_type(&m->props, req->memoryTypeBits, want);
    if (type < 0 && (want & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
        type = find_type(&m->props, req->memoryTypeBits,
                         want & ~(VkMemoryPropertyFlags)VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type < 0)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                         "vulkan: no memory type for the request (bits 0x%x)",
                         (unsigned)req->memoryTypeBits);
    out->type = (uint32_t)type;
    /* large requests get their own allocation so blocks stay reusable */
    if (req->size > XVK_BLOCK_SIZE / 4) {
        xgd_result res = alloc_memory(r, (uint32_t)type, req->size, &out->memory, &out->mapped);
        if (res != XGD_OK) return res;
        m->dedicated_allocations++;
        m->live_allocations++;
        return XGD_OK;
    }
    uint64_t align = req->alignment ? req->alignment : 1;
    /* bufferImageGranularity: keep linear and optimal resources apart by aligning to it */
    if (r->props.limits.bufferImageGranularity > align)
        align = r->props.limits.bufferImageGranularity;
    for (size_t i = 0; i < m->block_count; i++) {
        xvk_block *b = m->blocks[i];
        if (b->type != (uint32_t)type) continue;
        uint64_t off, to, ts;
        if (xvk_range_heap_alloc(&b->heap, req->size, align, &off, &to, &ts)) {
            if (b->mapped != NULL) xvk_unpoison((uint8_t *)b->mapped + to, ts);
            out->memory = b->memory;
            out->offset = off;
            out->mapped = b->mapped ? (uint8_t *)b->mapped + off : NULL;
            out->block = b;
            out->taken_offset = to;
            out->taken_size = ts;
            m->live_allocations++;
            return XGD_OK;
        }
    }
    if (m->block_count == m->block_capacity) {
        size_t cap = m->block_capacity ? m->block_capacity * 2 : 8;
        xvk_block **nb = realloc(m->blocks, cap * sizeof *nb);
        if (nb == NULL) return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        m->blocks = nb;
        m->block_capacity = cap;
    }
    xvk_block *b = calloc(1, sizeof *b);
    if (b == NULL || !xvk_range_heap_init(&b->heap, XVK_BLOCK_SIZE)) {
        free(b);
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    }
    b->type = (uint32_t)type;
    xgd_result res = alloc_memory(r, (uint32_t)type, XVK_BLOCK_SIZE, &b->memory, &b->mapped);
    if (res != XGD_OK) {
        xvk_range_heap_release(&b->heap);
        free(b);
        return res;
    }
    if (b->mapped != NULL) xvk_poison(b->mapped, XVK_BLOCK_SIZE); /* nothing handed out yet */
    m->blocks[m->block_count++] = b;
    m->blocks_created++;
    uint64_t off, to, ts;
    if (!xvk_range_heap_alloc(&b->heap, req->size, align, &off, &to, &ts))
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: block allocation failed");
    if (b->mapped != NULL) xvk_unpoison((uint8_t *)b->mapped + to, ts);
    out->memory = b->memory;
    out->offset = off;
    out->mapped = b->mapped ? (uint8_t *)b->mapped + off : NULL;
    out->block = b;
    out->taken_offset = to;
    out->taken_size = ts;
    m->live_allocations++;
    return XGD_OK;
}

void xvk_mem_free(xvk_renderer *r, xvk_alloc *a)
{
    if (a->memory == VK_NULL_HANDLE) return;
    if (a->block == NULL) {
        vkFreeMemory(r->dev, a->memory, NULL);
        r->memory.dedicated_allocations--;
    } else if (xvk_range_heap_free(&a->block->heap, a->taken_offset, a->taken_size) &&
               a->block->mapped != NULL) {
        xvk_poison((uint8_t *)a->block->mapped + a->taken_offset, a->taken_size);
    }
    r->memory.live_allocations--;
    memset(a, 0, sizeof *a);
}

void xvk_mem_destroy_all(xvk_renderer *r)
{
    for (size_t i = 0; i < r->memory.block_count; i++) {
        xvk_block *b = r->memory.blocks[i];
        /* the mapping goes away: its addresses may serve someone else next */
        if (b->mapped != NULL) xvk_unpoison(b->mapped, XVK_BLOCK_SIZE);
        vkFreeMemory(r->dev, b->memory, NULL);
        xvk_range_heap_release(&b->heap);
        free(b);
    }
    free(r->memory.blocks);
    r->memory.blocks = NULL;
    r->memory.block_count = r->memory.block_capacity = 0;
}
