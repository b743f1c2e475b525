/*
 * test_d3d12_instance.c - the Direct3D 12 renderer on vkd3d creates one vkd3d instance (one
 * VkInstance) per process and every device shares it: a driver may allow a process only a few
 * dozen Vulkan instances in its life, so a program that creates and destroys devices one after
 * another must not create an instance per device. Devices created at the same time on two
 * threads share it too and both work. Linux (vkd3d) only: on Windows the runtime owns this.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <string.h>

#if defined(XGD_TEST_HAVE_D3D12) && !defined(_WIN32)
#include <pthread.h>

#include "d3d12_internal.h"
#include "internal.h"

static xgd_result create_d3d12(xgd_device **out)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    *out = NULL;
    return xgd_device_create(&dd, out);
}

static struct vkd3d_instance *instance_of(xgd_device *dev)
{
    return vkd3d_instance_from_device(((d3d12_renderer *)dev->renderer)->dev);
}

/* Clears to `c` and reads pixel (7, 7) back; XGD_OK and the pixel, or the failing result. */
static xgd_result clear_and_read(xgd_device *dev, xgd_color c, uint8_t px[4])
{
    xgd_rect corner = { 7, 7, 1, 1 };
    xgd_result r = xgd_clear_color(dev, c);
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, &corner, px, 4);
    return r;
}
#endif

XGD_TEST(D3D12_OneInstancePerProcess)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d");
#else
    enum { DEVICES = 40 }; /* beyond the 29 Vulkan instances NVIDIA 580 gives a process */
    xgd_device *first = NULL;
    if (create_d3d12(&first) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    /* Two devices alive at once: one vkd3d instance between them. */
    xgd_device *second = NULL;
    REQUIRE_OK(create_d3d12(&second));
    CHECK_MSG(instance_of(first) == instance_of(second),
              "two live devices have two vkd3d instances (%p, %p)", (void *)instance_of(first),
              (void *)instance_of(second));
    xgd_device_destroy(second);
    xgd_device_destroy(first);

    /* Devices one after another, each used and destroyed before the next: every one starts
       and works, and the process created one instance in all. */
    for (int i = 0; i < DEVICES; i++) {
        xgd_device *dev = NULL;
        xgd_result r = create_d3d12(&dev);
        CHECK_MSG(r == XGD_OK, "device %d of %d: %s (%s)", i + 1, DEVICES, xgd_result_name(r),
                  xgd_device_last_error(NULL));
        if (r != XGD_OK) break;
        const xgd_color c = { (uint8_t)(10 + i), 20, 30, 255 };
        uint8_t px[4] = { 0, 0, 0, 0 };
        CHECK_OK(clear_and_read(dev, c, px));
        CHECK_MSG(px[0] == c.r && px[1] == c.g && px[2] == c.b && px[3] == c.a,
                  "device %d read back (%d,%d,%d,%d), expected (%d,%d,%d,%d)", i + 1, px[0],
                  px[1], px[2], px[3], c.r, c.g, c.b, c.a);
        xgd_device_destroy(dev);
    }
    CHECK_MSG(xgdi_d3d12_instance_creations() == 1,
              "%u vkd3d instances created for %d devices; one per process expected",
              xgdi_d3d12_instance_creations(), DEVICES + 2);
#endif
}

#if defined(XGD_TEST_HAVE_D3D12) && !defined(_WIN32)
typedef struct creator {
    pthread_barrier_t *start;
    xgd_color color;
    int rounds;
    xgd_result result;
    int bad_round;                /* the first round whose pixel was wrong, or -1 */
    uint8_t px[4];
    struct vkd3d_instance *instance;
    char message[256];
} creator;

static void *create_on_thread(void *arg)
{
    creator *c = arg;
    c->result = XGD_OK;
    c->bad_round = -1;
    for (int i = 0; i < c->rounds && c->result == XGD_OK; i++) {
        /* both threads leave the barrier together, so their creations overlap */
        pthread_barrier_wait(c->start);
        xgd_device *dev = NULL;
        c->result = create_d3d12(&dev);
        if (c->result != XGD_OK) {
            snprintf(c->message, sizeof c->message, "%s", xgd_device_last_error(NULL));
            /* the other thread still waits at the next round's barrier */
            for (int j = i + 1; j < c->rounds; j++) pthread_barrier_wait(c->start);
            break;
        }
        c->instance = instance_of(dev);
        c->result = clear_and_read(dev, c->color, c->px);
        if (c->result != XGD_OK)
            snprintf(c->message, sizeof c->message, "%s", xgd_device_last_error(dev));
        else if (c->bad_round < 0 && (c->px[0] != c->color.r || c->px[1] != c->color.g ||
                                      c->px[2] != c->color.b || c->px[3] != c->color.a))
            c->bad_round = i;
        xgd_device_destroy(dev);
        if (c->result != XGD_OK)
            for (int j = i + 1; j < c->rounds; j++) pthread_barrier_wait(c->start);
    }
    return NULL;
}
#endif

XGD_TEST(D3D12_ConcurrentDeviceCreation)
{
#if !defined(XGD_TEST_HAVE_D3D12) || defined(_WIN32)
    xgdt_not_supported(t, "needs the Direct3D 12 renderer on vkd3d");
#else
    {
        xgd_device *probe = NULL;
        if (create_d3d12(&probe) != XGD_OK) {
            xgdt_not_supported(t, "no Direct3D 12 device here");
            return;
        }
        xgd_device_destroy(probe);
    }
    pthread_barrier_t start;
    REQUIRE(pthread_barrier_init(&start, NULL, 2) == 0);
    creator c[2] = {
        { .start = &start, .color = { 255, 0, 0, 255 }, .rounds = 3 },
        { .start = &start, .color = { 0, 0, 255, 255 }, .rounds = 3 },
    };
    /* one creator on a new thread, the other on this one */
    pthread_t other;
    if (pthread_create(&other, NULL, create_on_thread, &c[1]) != 0) {
        pthread_barrier_destroy(&start);
        xgdt_fail_at(t, __FILE__, __LINE__, "pthread_create failed");
        return;
    }
    create_on_thread(&c[0]);
    pthread_join(other, NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < 2; i++) {
        CHECK_MSG(c[i].result == XGD_OK, "thread %d: %s (%s)", i, xgd_result_name(c[i].result),
                  c[i].message);
        CHECK_MSG(c[i].bad_round < 0, "thread %d round %d read back (%d,%d,%d,%d)", i,
                  c[i].bad_round, c[i].px[0], c[i].px[1], c[i].px[2], c[i].px[3]);
    }
    CHECK(c[0].instance != NULL && c[0].instance == c[1].instance);
    CHECK_MSG(xgdi_d3d12_instance_creations() == 1,
              "%u vkd3d instances created; one per process expected",
              xgdi_d3d12_instance_creations());
#endif
}
