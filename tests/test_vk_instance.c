/*
 * test_vk_instance.c - the Vulkan renderer creates its VkInstance once per process (one per
 * configuration: validation layer and debug utils on or off) and shares it across devices.
 * Drivers may cap the instances a process can create (NVIDIA 580 on an H200: the 30th
 * vkCreateInstance returns VK_ERROR_INCOMPATIBLE_DRIVER even when every earlier one was
 * destroyed), so a program creating a device per test or per tool run must not spend one per
 * device. Devices on two threads create and destroy concurrently through the same instance.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_internal.h"

/* A headless Vulkan device that clears to `c` and reads every pixel back; XGD_OK or the
   failing call's result. *created is false when the device could not be created. */
static xgd_result vk_cycle(bool debug, xgd_color c, bool *created)
{
    enum { W = 8, H = 8 };
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.debug = debug;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    *created = r == XGD_OK;
    if (r != XGD_OK) return r;
    r = xgd_clear_color(dev, c);
    uint8_t px[W * H * 4];
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
    for (int i = 0; r == XGD_OK && i < W * H; i++)
        if (px[i * 4] != c.r || px[i * 4 + 1] != c.g || px[i * 4 + 2] != c.b || px[i * 4 + 3] != c.a)
            r = XGD_ERROR_INVALID_OPERATION; /* wrong pixel: reported by the caller */
    xgd_device_destroy(dev);
    return r;
}
#endif

XGD_TEST(VkInstance_SharedAcrossDevices)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    uint64_t before = xvk_instance_creations();
    /* the counter shows the sharing at any N; Device_Churn goes past NVIDIA's cap of 29 */
    enum { N = 10 };
    for (int i = 0; i < N; i++) {
        bool created;
        xgd_color c = { (uint8_t)(i * 6), 100, (uint8_t)(255 - i), 255 };
        xgd_result r = vk_cycle(false, c, &created);
        if (!created && i == 0 &&
            (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED)) {
            xgdt_not_supported(t, "no Vulkan device");
            return;
        }
        if (r != XGD_OK) {
            xgdt_fail_at(t, __FILE__, __LINE__, "device %d of %d: %s (%s)", i + 1, N,
                         xgd_result_name(r), xgd_device_last_error(NULL));
            return;
        }
    }
    uint64_t plain = xvk_instance_creations() - before;
    CHECK_MSG(plain <= 1, "%d devices made %llu vkCreateInstance calls, expected at most 1", N,
              (unsigned long long)plain);
    /* a debug device asks for another configuration (validation layer, debug utils): one more
       instance at most, shared by every debug device */
    for (int i = 0; i < 3; i++) {
        bool created;
        xgd_result r = vk_cycle(true, (xgd_color){ 9, 8, 7, 255 }, &created);
        CHECK_MSG(r == XGD_OK, "debug device %d: %s (%s)", i, xgd_result_name(r),
                  xgd_device_last_error(NULL));
    }
    uint64_t all = xvk_instance_creations() - before;
    CHECK_MSG(all <= plain + 1, "3 debug devices made %llu more vkCreateInstance calls, expected "
              "at most 1", (unsigned long long)(all - plain));
#endif
}

#ifdef XGD_TEST_HAVE_VULKAN
typedef struct churn_thread {
    int index, cycles;
    int done;
    xgd_result first_error;
    int failed_at;
} churn_thread;

static void *churn_main(void *arg)
{
    churn_thread *c = arg;
    for (int i = 0; i < c->cycles; i++) {
        bool created;
        xgd_color col = { (uint8_t)(c->index * 100 + i), (uint8_t)i, (uint8_t)(50 * c->index), 255 };
        xgd_result r = vk_cycle(false, col, &created);
        if (r != XGD_OK) {
            c->first_error = r;
            c->failed_at = i;
            return NULL;
        }
        c->done++;
    }
    return NULL;
}
#endif

XGD_TEST(VkInstance_TwoThreadsChurn)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    bool created;
    uint64_t before = xvk_instance_creations();
    xgd_result r0 = vk_cycle(false, (xgd_color){ 1, 2, 3, 255 }, &created);
    if (!created && (r0 == XGD_ERROR_NO_SUITABLE_DEVICE || r0 == XGD_ERROR_NOT_SUPPORTED)) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    CHECK_OK(r0);
    enum { THREADS = 2, CYCLES = 6 };
    churn_thread c[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++) {
        c[i] = (churn_thread){ .index = i, .cycles = CYCLES, .first_error = XGD_OK };
        REQUIRE(pthread_create(&th[i], NULL, churn_main, &c[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < THREADS; i++)
        CHECK_MSG(c[i].done == CYCLES, "thread %d: %d of %d cycles, cycle %d failed with %s", i,
                  c[i].done, CYCLES, c[i].failed_at, xgd_result_name(c[i].first_error));
    uint64_t made = xvk_instance_creations() - before;
    CHECK_MSG(made <= 1, "%d devices on %d threads made %llu vkCreateInstance calls, expected at "
              "most 1", 1 + THREADS * CYCLES, THREADS, (unsigned long long)made);
#endif
}
