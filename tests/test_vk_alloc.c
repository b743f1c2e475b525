/*
 * test_vk_alloc.c - the Vulkan renderer's block sub-allocator free list (issue 4: "write a
 * small, tested block allocator"), src/renderers/vulkan/vk_mem.h. Pure arithmetic: no device.
 * Expected offsets follow from first fit with alignment padding kept by the allocation.
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_mem.h"
#endif

XGD_TEST(VkRangeHeap_FirstFitAlignCoalesce)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    xvk_range_heap h;
    REQUIRE(xvk_range_heap_init(&h, 1024));
    uint64_t a, at, as, b, bt, bs, c, ct, cs;
    /* 100 bytes at 0; the next request aligned to 64 starts at 128, padding 28 kept with it */
    REQUIRE(xvk_range_heap_alloc(&h, 100, 16, &a, &at, &as));
    CHECK_INT(a, 0);
    CHECK_INT(as, 100);
    REQUIRE(xvk_range_heap_alloc(&h, 200, 64, &b, &bt, &bs));
    CHECK_INT(b, 128);
    CHECK_INT(bt, 100);
    CHECK_INT(bs, 228);
    REQUIRE(xvk_range_heap_alloc(&h, 300, 1, &c, &ct, &cs));
    CHECK_INT(c, 328);
    CHECK_INT(h.used, 628);
    CHECK_INT(xvk_range_heap_largest(&h), 1024 - 628);
    /* nothing bigger than what is left fits */
    uint64_t x, xt, xs;
    CHECK(!xvk_range_heap_alloc(&h, 1024 - 628 + 1, 1, &x, &xt, &xs));
    /* freeing the middle leaves a hole first fit reuses */
    CHECK(xvk_range_heap_free(&h, bt, bs));
    CHECK_INT(h.free_count, 2);
    REQUIRE(xvk_range_heap_alloc(&h, 50, 4, &x, &xt, &xs));
    CHECK_INT(x, 100);
    CHECK(xvk_range_heap_free(&h, xt, xs));
    /* a double free is refused and changes nothing */
    CHECK(!xvk_range_heap_free(&h, xt, xs));
    CHECK(!xvk_range_heap_free(&h, 1000, 100));
    CHECK_INT(h.free_count, 2);
    /* freeing everything coalesces back into one range of the whole heap */
    CHECK(xvk_range_heap_free(&h, at, as));
    CHECK(xvk_range_heap_free(&h, ct, cs));
    CHECK_INT(h.free_count, 1);
    CHECK_INT(h.used, 0);
    CHECK_INT(xvk_range_heap_largest(&h), 1024);
    xvk_range_heap_release(&h);
#endif
}

XGD_TEST(VkRangeHeap_ManyBlocksRoundTrip)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { N = 64 };
    xvk_range_heap h;
    REQUIRE(xvk_range_heap_init(&h, N * 256));
    uint64_t off[N], to[N], ts[N];
    for (int i = 0; i < N; i++) {
        REQUIRE(xvk_range_heap_alloc(&h, 256, 256, &off[i], &to[i], &ts[i]));
        CHECK_INT(off[i], (uint64_t)i * 256);
    }
    uint64_t x, xt, xs;
    CHECK(!xvk_range_heap_alloc(&h, 1, 1, &x, &xt, &xs));
    /* free every other block: 32 separate holes, then the rest in reverse: one range */
    for (int i = 0; i < N; i += 2) CHECK(xvk_range_heap_free(&h, to[i], ts[i]));
    CHECK_INT(h.free_count, N / 2);
    CHECK_INT(xvk_range_heap_largest(&h), 256);
    for (int i = N - 1; i > 0; i -= 2) CHECK(xvk_range_heap_free(&h, to[i], ts[i]));
    CHECK_INT(h.free_count, 1);
    CHECK_INT(xvk_range_heap_largest(&h), N * 256);
    xvk_range_heap_release(&h);
#endif
}
