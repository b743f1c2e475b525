/*
 * vk_cmd_arena.c - see vk_cmd_arena.h.
 *
 * Every allocation, from the block or the heap, is preceded by a 16-byte header: its size (for
 * pfnReallocation), which of the two it came from, and for a heap one the distance back to what
 * malloc returned (the alignment may have moved it).
 */
#include "vk_cmd_arena.h"

#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define XVK_ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define XVK_ARENA_ASAN 1
#endif
#endif
#if defined(XVK_ARENA_ASAN)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

typedef struct arena_header {
    size_t size;
    uint32_t kind;
    uint32_t offset; /* heap: bytes from malloc's pointer to the allocation */
} arena_header;
_Static_assert(sizeof(arena_header) == 16, "the header keeps 16-byte alignment");

enum { KIND_HEAP = 0x68656170u, KIND_BLOCK = 0x626c6f6bu };

/* the first block, and the step a block grows by */
#define BLOCK_MIN ((size_t)256 * 1024)

static arena_header *header_of(void *p)
{
    return (arena_header *)(void *)((unsigned char *)p - sizeof(arena_header));
}

static void *heap_alloc(size_t size, size_t align)
{
    if (size > SIZE_MAX - align - sizeof(arena_header)) return NULL;
    unsigned char *raw = malloc(size + align + sizeof(arena_header));
    if (raw == NULL) return NULL;
    uintptr_t p = ((uintptr_t)raw + sizeof(arena_header) + align - 1) & ~(uintptr_t)(align - 1);
    arena_header *h = header_of((void *)p);
    h->size = size;
    h->kind = KIND_HEAP;
    h->offset = (uint32_t)(p - (uintptr_t)raw);
    return (void *)p;
}

static void *VKAPI_PTR arena_alloc(void *user, size_t size, size_t align,
                                   VkSystemAllocationScope scope)
{
    (void)scope;
    xvk_cmd_arena *a = user;
    /* the specification's alignment is a power of two; anything else is refused */
    if (align == 0 || (align & (align - 1)) != 0 || align > 65536 || size > SIZE_MAX / 4) return NULL;
    if (align < sizeof(arena_header)) align = sizeof(arena_header);
    if (a->recording) {
        a->demand += size + align + sizeof(arena_header);
        if (a->block != NULL) {
            const uintptr_t start = (uintptr_t)a->block;
            const uintptr_t p = (start + a->used + sizeof(arena_header) + align - 1) &
                                ~(uintptr_t)(align - 1);
            if (p - start <= a->capacity && size <= a->capacity - (p - start)) {
                UNPOISON((void *)(p - sizeof(arena_header)), size + sizeof(arena_header));
                arena_header *h = header_of((void *)p);
                h->size = size;
                h->kind = KIND_BLOCK;
                h->offset = 0;
                a->used = p - start + size;
                a->live++;
                return (void *)p;
            }
        }
        a->heap_allocations++;
    }
    return heap_alloc(size, align);
}

static void VKAPI_PTR arena_free(void *user, void *p)
{
    xvk_cmd_arena *a = user;
    if (p == NULL) return;
    arena_header *h = header_of(p);
    if (h->kind == KIND_BLOCK) {
        a->live--;
        POISON(h, h->size + sizeof(arena_header));
        return;
    }
    free((unsigned char *)p - h->offset);
}

static void *VKAPI_PTR arena_realloc(void *user, void *p, size_t size, size_t align,
                                     VkSystemAllocationScope scope)
{
    if (p == NULL) return arena_alloc(user, size, align, scope);
    if (size == 0) {
        arena_free(user, p);
        return NULL;
    }
    void *q = arena_alloc(user, size, align, scope);
    if (q == NULL) return NULL; /* the old allocation stays valid */
    const size_t old = header_of(p)->size;
    memcpy(q, p, old < size ? old : size);
    arena_free(user, p);
    return q;
}

void xvk_cmd_arena_init(xvk_cmd_arena *a)
{
    memset(a, 0, sizeof *a);
    a->callbacks.pUserData = a;
    a->callbacks.pfnAllocation = arena_alloc;
    a->callbacks.pfnReallocation = arena_realloc;
    a->callbacks.pfnFree = arena_free;
}

void xvk_cmd_arena_begin(xvk_cmd_arena *a)
{
    a->recording = !a->off;
}

void xvk_cmd_arena_reset(xvk_cmd_arena *a)
{
    a->recording = false;
    if (a->off) return;
    if (a->live != 0) {
        a->off = true; /* the driver keeps some: the block stays until the pool goes */
        return;
    }
    if (a->demand > a->capacity) {
        /* a quarter more than asked, in steps of BLOCK_MIN */
        size_t want = a->demand + a->demand / 4;
        want = (want + BLOCK_MIN - 1) / BLOCK_MIN * BLOCK_MIN;
        unsigned char *b = malloc(want);
        if (b != NULL) {
            /* its pages touched now, in the reset, rather than by the draws that fill it (a
               byte a page, through a volatile pointer: a compiler may turn malloc and a memset
               of zeros into calloc, which touches nothing) */
            volatile unsigned char *touch = b;
            for (size_t o = 0; o < want; o += 4096) touch[o] = 0;
            if (a->block != NULL) UNPOISON(a->block, a->capacity);
            free(a->block);
            a->block = b;
            a->capacity = want;
        }
    }
    a->used = 0;
    a->demand = 0;
    if (a->block != NULL) POISON(a->block, a->capacity);
}

void xvk_cmd_arena_release(xvk_cmd_arena *a)
{
    if (a->block != NULL) UNPOISON(a->block, a->capacity);
    free(a->block);
    a->block = NULL;
    a->capacity = a->used = 0;
}
