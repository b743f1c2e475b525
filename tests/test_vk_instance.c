/*
 * test_vk_instance.c - the Vulkan renderer creates its VkInstance once per process (one per
 * configuration: validation layer and debug utils on or off) and shares it across devices.
 * Drivers may cap the instances a process can create (NVIDIA 580 on an H200: the 30th
 * vkCreateInstance returns VK_ERROR_INCOMPATIBLE_DRIVER even when every earlier one was
 * destroyed), so a program creating a device per test or per tool run must not spend one per
 * device. Devices on two threads create and destroy concurrently through the same instance.
 * Each validation message of a shared instance reaches one device: the one whose device, queue
 * or command buffer it names, else the one being created on the reporting thread, else the
 * instance's only validated device, else none (stderr), so one device's log never carries
 * another's messages.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_VULKAN
#include "internal.h"
#include "vk_internal.h"

/* A headless Vulkan device that clears to `c` and reads every pixel back; XGD_OK or the
   failing call's result. *created is false when the device could not be created. */
static xgd_result vk_cycle(bool debug, xgd_color c, bool *created)
{
    enum { W = 8, H = 8 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
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

#ifdef XGD_TEST_HAVE_VULKAN
/* What one device's log received: the messages carrying the test's marker, and all validation
   messages (atomic: a misrouted message arrives on another device's thread). */
typedef struct msg_log {
    atomic_int marked, validation;
} msg_log;

static const char marker[] = "xgd-test-routed-message";

static void count_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)level;
    (void)code;
    msg_log *l = user;
    if (message == NULL || strncmp(message, "vulkan validation:", 18) != 0) return;
    atomic_fetch_add(&l->validation, 1);
    if (strstr(message, marker) != NULL) atomic_fetch_add(&l->marked, 1);
}

static xgd_result debug_device(msg_log *log, xgd_device **out)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.debug = true;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.log = count_log;
    dd.log_user = log;
    return xgd_device_create(&dd, out);
}

/* Sends a validation-class error through the instance's messengers, naming `count` objects. */
static void emit(VkInstance inst, const VkDebugUtilsObjectNameInfoEXT *objects, uint32_t count)
{
    PFN_vkSubmitDebugUtilsMessageEXT submit = (PFN_vkSubmitDebugUtilsMessageEXT)
        vkGetInstanceProcAddr(inst, "vkSubmitDebugUtilsMessageEXT");
    if (submit == NULL) return;
    VkDebugUtilsMessengerCallbackDataEXT cd = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = "xgd-test", .pMessage = marker, .objectCount = count,
        .pObjects = objects };
    submit(inst, VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT, &cd);
}

static VkDebugUtilsObjectNameInfoEXT object(VkObjectType type, uint64_t handle)
{
    return (VkDebugUtilsObjectNameInfoEXT){ .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                            .objectType = type, .objectHandle = handle };
}

/* Both devices validated through one messenger-carrying instance, else why not (NULL). */
static const char *why_unvalidated(xgd_device *dev)
{
    const xvk_renderer *r = (const xvk_renderer *)dev->renderer;
    return r->reports ? NULL : "the Vulkan validation layer or debug utils are not installed";
}
#endif

XGD_TEST(VkInstance_MessagesReachTheirDeviceOnly)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    msg_log la, lb;
    atomic_init(&la.marked, 0);
    atomic_init(&la.validation, 0);
    atomic_init(&lb.marked, 0);
    atomic_init(&lb.validation, 0);
    xgd_device *a = NULL, *b = NULL;
    xgd_result res = debug_device(&la, &a);
    if (res == XGD_ERROR_NO_SUITABLE_DEVICE || res == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    REQUIRE_OK(res);
    if (why_unvalidated(a) != NULL) {
        xgdt_not_supported(t, why_unvalidated(a));
        xgd_device_destroy(a);
        return;
    }
    REQUIRE_OK(debug_device(&lb, &b));
    xvk_renderer *rb = (xvk_renderer *)b->renderer;
    CHECK_MSG(rb->instance == ((xvk_renderer *)a->renderer)->instance,
              "two debug devices should share one instance");
    CHECK_MSG(atomic_load(&la.validation) == 0 && atomic_load(&lb.validation) == 0,
              "creating the devices reported %d + %d validation messages",
              atomic_load(&la.validation), atomic_load(&lb.validation));

    /* naming B's device, then B's queue: B's alone */
    VkDebugUtilsObjectNameInfoEXT o = object(VK_OBJECT_TYPE_DEVICE, (uint64_t)(uintptr_t)rb->dev);
    emit(rb->instance, &o, 1);
    CHECK_MSG(atomic_load(&lb.marked) >= 1, "B's log missed a message naming B's VkDevice");
    o = object(VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)rb->queue);
    int before = atomic_load(&lb.marked);
    emit(rb->instance, &o, 1);
    CHECK_MSG(atomic_load(&lb.marked) > before, "B's log missed a message naming B's VkQueue");
    CHECK_MSG(atomic_load(&la.marked) == 0,
              "A's log received %d message(s) naming B's device or queue", atomic_load(&la.marked));

    /* naming only B's upload buffer, then nothing, with no device being created or destroyed
       on this thread and two devices alive: no device can be told, so neither log gets it
       (stderr does) */
    o = object(VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)rb->ring.buffer);
    emit(rb->instance, &o, 1);
    emit(rb->instance, NULL, 0);
    CHECK_MSG(atomic_load(&la.marked) == 0,
              "A's log received %d message(s) naming only B's buffer or nothing",
              atomic_load(&la.marked));

    /* one validated device left: a message naming only its buffer is its own */
    xgd_device_destroy(a);
    a = NULL;
    before = atomic_load(&lb.marked);
    emit(rb->instance, &o, 1);
    CHECK_MSG(atomic_load(&lb.marked) > before,
              "the only validated device missed a message naming its buffer");
    xgd_device_destroy(b);
#endif
}

#ifdef XGD_TEST_HAVE_VULKAN
static atomic_int hook_calls;

/* Runs inside the new device's creation, on its thread: a message naming no object. */
static void emit_during_creation(xvk_renderer *r)
{
    atomic_fetch_add(&hook_calls, 1);
    emit(r->instance, NULL, 0);
}

typedef struct creator {
    msg_log log;
    xgd_device *dev;
    xgd_result res;
} creator;

static void *create_main(void *arg)
{
    creator *c = arg;
    c->res = debug_device(&c->log, &c->dev);
    return NULL;
}
#endif

XGD_TEST(VkInstance_CreationMessagesGoToTheNewDevice)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    msg_log la;
    atomic_init(&la.marked, 0);
    atomic_init(&la.validation, 0);
    xgd_device *a = NULL;
    xgd_result res = debug_device(&la, &a);
    if (res == XGD_ERROR_NO_SUITABLE_DEVICE || res == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    REQUIRE_OK(res);
    if (why_unvalidated(a) != NULL) {
        xgdt_not_supported(t, why_unvalidated(a));
        xgd_device_destroy(a);
        return;
    }
    creator c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.log.marked, 0);
    atomic_init(&c.log.validation, 0);
    atomic_init(&hook_calls, 0);
    xvk_device_created_hook = emit_during_creation;
    pthread_t th;
    int rc = pthread_create(&th, NULL, create_main, &c);
    if (rc == 0) pthread_join(th, NULL);
    xvk_device_created_hook = NULL;
    REQUIRE(rc == 0);
    CHECK_OK(c.res);
    CHECK_MSG(atomic_load(&hook_calls) == 1, "the creation hook ran %d times, expected 1",
              atomic_load(&hook_calls));
    CHECK_MSG(atomic_load(&c.log.marked) >= 1,
              "the device in creation missed the message its thread reported");
    CHECK_MSG(atomic_load(&la.marked) == 0,
              "device A received %d message(s) reported while another device was being created",
              atomic_load(&la.marked));
    /* the layer's own report while the device is destroyed (a buffer left alive when
       vkDestroyDevice runs) reaches that device's log, not A's */
    if (c.dev != NULL) {
        xvk_renderer *rcr = (xvk_renderer *)c.dev->renderer;
        VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 256,
                                  .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                  .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
        VkBuffer leaked = VK_NULL_HANDLE;
        CHECK_MSG(vkCreateBuffer(rcr->dev, &bi, NULL, &leaked) == VK_SUCCESS, "vkCreateBuffer");
        int seen = atomic_load(&c.log.validation);
        xgd_device_destroy(c.dev);
        CHECK_MSG(atomic_load(&c.log.validation) > seen,
                  "destroying a device with a live VkBuffer reported nothing to its log");
    }
    CHECK_MSG(atomic_load(&la.validation) == 0, "device A received %d validation message(s) of "
              "another device", atomic_load(&la.validation));
    xgd_device_destroy(a);
#endif
}
