/*
 * test_vk_cmd_arena.c - the Vulkan renderer's command-pool arena (src/renderers/vulkan/
 * vk_cmd_arena.h), called through its VkAllocationCallbacks as a driver calls them. No device.
 * The rules under test (the header's): outside recording and while the block is full or
 * missing, the heap; a recording's allocations from one block, aligned as asked; a reset after
 * all were freed takes the block back whole, grown to what the recording asked for; an
 * allocation that outlives a reset turns the arena off, leaving it valid.
 */
#include "harness.h"

#include <string.h>

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_cmd_arena.h"

static void *cb_alloc(xvk_cmd_arena *a, size_t size, size_t align)
{
    return a->callbacks.pfnAllocation(a->callbacks.pUserData, size, align,
                                      VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
}

static void cb_free(xvk_cmd_arena *a, void *p)
{
    a->callbacks.pfnFree(a->callbacks.pUserData, p);
}

static bool in_block(const xvk_cmd_arena *a, const void *p)
{
    const unsigned char *c = p;
    return a->block != NULL && c >= a->block && c < a->block + a->capacity;
}
#endif

XGD_TEST(VkCmdArena_RecordingRewindsAndGrows)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xvk_cmd_arena a;
    xvk_cmd_arena_init(&a);
    /* outside recording (the pool and its command buffer): the heap, and no block */
    void *pool_object = cb_alloc(&a, 200, 8);
    REQUIRE(pool_object != NULL);
    CHECK(a.block == NULL);
    CHECK_INT(a.live, 0);
    /* the first recording has no block yet: heap allocations, counted */
    xvk_cmd_arena_reset(&a);
    xvk_cmd_arena_begin(&a);
    enum { N = 3000, SIZE = 100 };
    static void *p[N];
    for (int i = 0; i < N; i++) {
        p[i] = cb_alloc(&a, SIZE, 8);
        REQUIRE(p[i] != NULL);
        memset(p[i], i & 255, SIZE);
    }
    CHECK_INT(a.heap_allocations, N);
    for (int i = 0; i < N; i++) cb_free(&a, p[i]);
    /* the reset sizes the block for what was asked */
    xvk_cmd_arena_reset(&a);
    REQUIRE(a.block != NULL);
    CHECK_MSG(a.capacity >= (size_t)N * SIZE, "block of %zu bytes for %d allocations of %d",
              a.capacity, N, SIZE);
    /* the second recording fits in it: every allocation inside the block, none overlapping */
    xvk_cmd_arena_begin(&a);
    unsigned char *first = NULL;
    for (int i = 0; i < N; i++) {
        p[i] = cb_alloc(&a, SIZE, 8);
        REQUIRE(p[i] != NULL);
        CHECK(in_block(&a, p[i]));
        memset(p[i], i & 255, SIZE);
        if (i == 0) first = p[0];
    }
    CHECK_INT(a.heap_allocations, N);
    CHECK_INT(a.live, N);
    int bad = 0;
    for (int i = 0; i < N; i++) {
        const unsigned char *c = p[i];
        for (int k = 0; k < SIZE; k++) bad += c[k] != (unsigned char)(i & 255);
    }
    CHECK_INT(bad, 0);
    for (int i = 0; i < N; i++) cb_free(&a, p[i]);
    CHECK_INT(a.live, 0);
    /* a reset takes it back whole: the next recording starts at the same place */
    xvk_cmd_arena_reset(&a);
    CHECK_INT(a.used, 0);
    xvk_cmd_arena_begin(&a);
    void *again = cb_alloc(&a, SIZE, 8);
    CHECK(again == (void *)first);
    cb_free(&a, again);
    xvk_cmd_arena_reset(&a);
    CHECK(!a.off);
    cb_free(&a, pool_object);
    xvk_cmd_arena_release(&a);
    CHECK(a.block == NULL);
#endif
}

XGD_TEST(VkCmdArena_AlignReallocAndOutlivingReset)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xvk_cmd_arena a;
    xvk_cmd_arena_init(&a);
    /* one recording through the heap makes the block */
    xvk_cmd_arena_begin(&a);
    void *warm = cb_alloc(&a, 64 * 1024, 16);
    REQUIRE(warm != NULL);
    cb_free(&a, warm);
    xvk_cmd_arena_reset(&a);
    REQUIRE(a.block != NULL);
    xvk_cmd_arena_begin(&a);
    /* alignment as asked, in the block; a size that is not a power of two is refused */
    static const size_t aligns[] = { 1, 4, 16, 64, 256, 4096 };
    for (size_t k = 0; k < sizeof aligns / sizeof aligns[0]; k++) {
        void *q = cb_alloc(&a, 24, aligns[k]);
        REQUIRE(q != NULL);
        CHECK(in_block(&a, q));
        CHECK_MSG(((uintptr_t)q & (aligns[k] - 1)) == 0, "%p not aligned to %zu", q, aligns[k]);
        cb_free(&a, q);
    }
    CHECK(cb_alloc(&a, 24, 3) == NULL);
    /* reallocation keeps the contents, in the block and into the heap when it outgrows it */
    unsigned char *r = cb_alloc(&a, 32, 16);
    REQUIRE(r != NULL);
    for (int k = 0; k < 32; k++) r[k] = (unsigned char)(k * 7);
    unsigned char *r2 = a.callbacks.pfnReallocation(a.callbacks.pUserData, r, 4000, 16,
                                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    REQUIRE(r2 != NULL);
    int bad = 0;
    for (int k = 0; k < 32; k++) bad += r2[k] != (unsigned char)(k * 7);
    const size_t big = a.capacity * 2;
    unsigned char *r3 = a.callbacks.pfnReallocation(a.callbacks.pUserData, r2, big, 16,
                                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
    REQUIRE(r3 != NULL);
    CHECK(!in_block(&a, r3));
    for (int k = 0; k < 32; k++) bad += r3[k] != (unsigned char)(k * 7);
    CHECK_INT(bad, 0);
    /* a reallocation to size 0 frees and returns NULL */
    CHECK(a.callbacks.pfnReallocation(a.callbacks.pUserData, r3, 0, 16,
                                      VK_SYSTEM_ALLOCATION_SCOPE_OBJECT) == NULL);
    CHECK_INT(a.live, 0);
    /* an allocation the driver keeps across the reset: the arena turns off, the memory stays */
    unsigned char *kept = cb_alloc(&a, 48, 16);
    REQUIRE(kept != NULL);
    CHECK(in_block(&a, kept));
    memset(kept, 0x5a, 48);
    xvk_cmd_arena_reset(&a);
    CHECK(a.off);
    xvk_cmd_arena_begin(&a);
    void *later = cb_alloc(&a, 48, 16);
    REQUIRE(later != NULL);
    CHECK(!in_block(&a, later));
    int changed = 0;
    for (int k = 0; k < 48; k++) changed += kept[k] != 0x5a;
    CHECK_INT(changed, 0);
    cb_free(&a, later);
    cb_free(&a, kept);
    CHECK_INT(a.live, 0);
    xvk_cmd_arena_reset(&a);
    CHECK(a.off);
    xvk_cmd_arena_release(&a);
#endif
}
