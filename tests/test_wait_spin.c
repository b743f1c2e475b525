/*
 * test_wait_spin.c - the poll before a blocking wait for the GPU (src/core/spin.c, renderer.h):
 *  - WaitSpin_Budget: $XGD_WAIT_SPIN_US sets the budget in microseconds (at most a second);
 *    unset, empty, malformed or 0, nothing polls;
 *  - WaitSpin_Until: xgdi_spin_until returns as soon as its condition holds, asks once and
 *    returns with a zero budget, and gives up no earlier than the budget when the condition
 *    never holds;
 *  - WaitSpin_{Vulkan,D3D12}ReadbackPolls: a renderer takes its budget from the variable; with
 *    a budget every readback that waits polls and its poll sees the work finish (the renderer's
 *    wait_polls counter), without one nothing polls; the texels are right both ways.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv, clock_gettime */
#include "harness.h"

#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* each renderer's budget, read where its internal header is included (one renderer's header a
   file): test_vk_transfer.c, test_d3d12_readback.c */
uint64_t xgdt_vk_wait_spin_ns(xgd_device *dev);
uint64_t xgdt_d3d12_wait_spin_ns(xgd_device *dev);
uint64_t xgdt_vk_wait_polls(xgd_device *dev);
uint64_t xgdt_d3d12_wait_polls(xgd_device *dev);

/* $XGD_WAIT_SPIN_US as the run found it, put back when a test has changed it */
typedef struct saved_env {
    bool set;
    char value[64];
} saved_env;

static saved_env env_save(void)
{
    saved_env e = { false, "" };
    const char *v = getenv("XGD_WAIT_SPIN_US");
    if (v != NULL) {
        e.set = true;
        snprintf(e.value, sizeof e.value, "%s", v);
    }
    return e;
}

static void env_restore(const saved_env *e)
{
    if (e->set) (void)setenv("XGD_WAIT_SPIN_US", e->value, 1);
    else unsetenv("XGD_WAIT_SPIN_US");
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

XGD_TEST(WaitSpin_Budget)
{
    saved_env saved = env_save();
    unsetenv("XGD_WAIT_SPIN_US");
    CHECK(xgdi_wait_spin_budget_ns() == 0); /* off unless asked */
    static const struct {
        const char *value;
        uint64_t ns;
    } cases[] = {
        { "250", 250000u },
        { "0", 0 },
        { "1000000", 1000000000u },
        { "5000000", 1000000000u }, /* at most a second */
        { "", 0 },                  /* empty, malformed, signed or spaced: off */
        { "12us", 0 },
        { "-3", 0 },
        { " 5", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        REQUIRE(setenv("XGD_WAIT_SPIN_US", cases[i].value, 1) == 0);
        CHECK_MSG(xgdi_wait_spin_budget_ns() == cases[i].ns, "'%s': %llu ns, expected %llu",
                  cases[i].value, (unsigned long long)xgdi_wait_spin_budget_ns(),
                  (unsigned long long)cases[i].ns);
    }
    env_restore(&saved);
}

typedef struct countdown {
    int calls, true_at; /* true from call true_at on (never when 0) */
} countdown;

static bool countdown_done(void *ctx)
{
    countdown *c = ctx;
    c->calls++;
    return c->true_at > 0 && c->calls >= c->true_at;
}

XGD_TEST(WaitSpin_Until)
{
    /* holds at once: one call, true */
    countdown c = { 0, 1 };
    CHECK(xgdi_spin_until(countdown_done, &c, 1000000000u));
    CHECK_INT(c.calls, 1);
    /* holds at the fifth call: returns then, long before the second's budget */
    c = (countdown){ 0, 5 };
    double t0 = now_s();
    CHECK(xgdi_spin_until(countdown_done, &c, 1000000000u));
    CHECK_INT(c.calls, 5);
    CHECK_MSG(now_s() - t0 < 0.5, "returned after %.3f s", now_s() - t0);
    /* no budget: asked once */
    c = (countdown){ 0, 0 };
    CHECK(!xgdi_spin_until(countdown_done, &c, 0));
    CHECK_INT(c.calls, 1);
    /* never holds: gives up, not before the budget (3 ms) */
    c = (countdown){ 0, 0 };
    t0 = now_s();
    CHECK(!xgdi_spin_until(countdown_done, &c, 3000000u));
    double spent = now_s() - t0;
    CHECK_MSG(spent >= 0.003, "gave up after %.6f s, before its 3 ms", spent);
    CHECK(c.calls > 1);
}

#if defined(XGD_TEST_HAVE_VULKAN) || defined(XGD_TEST_HAVE_D3D12)
/* The render target cleared to c, then a texel read back: the read's submission holds the
   clear, so the GPU is still busy when the read starts waiting. Returns the device's gpu_waits
   increase. */
static uint64_t clear_and_read(xgdt_ctx *t, xgd_device *dev, xgd_texture *rt, xgd_color c)
{
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, c));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint8_t px[4] = { 0x55, 0x55, 0x55, 0x55 };
    CHECK_OK(xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, &(xgd_rect){ 17, 33, 1, 1 },
                                  px, sizeof px));
    CHECK_MSG(px[0] == c.r && px[1] == c.g && px[2] == c.b && px[3] == c.a,
              "read (%d, %d, %d, %d), cleared to (%d, %d, %d, %d)", px[0], px[1], px[2], px[3], c.r,
              c.g, c.b, c.a);
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    return s1.gpu_waits - s0.gpu_waits;
}

/* Device on `kind` with $XGD_WAIT_SPIN_US = spin_us; NULL (test not supported) without one. */
static xgd_device *spin_device(xgdt_ctx *t, xgd_renderer_kind kind, const char *spin_us)
{
    saved_env saved = env_save();
    if (setenv("XGD_WAIT_SPIN_US", spin_us, 1) != 0) {
        CHECK_MSG(false, "setenv failed");
        return NULL;
    }
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = kind;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 64;
    dd.pp.back_buffer_height = 64;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    env_restore(&saved);
    if (r != XGD_OK) {
        xgdt_not_supported(t, "no device of this renderer here");
        return NULL;
    }
    return dev;
}

/* Reads with polling on (a second's budget, so each poll sees its read's work finish) and off:
   right texels both ways; with polling every wait polled and ended in the poll, without it
   none polled. A 1024x1024 clear before each read keeps the GPU busy past the read's start. */
static void readback_polls(xgdt_ctx *t, xgd_renderer_kind kind, uint64_t (*budget)(xgd_device *),
                           uint64_t (*polls)(xgd_device *))
{
    const char *settings[2] = { "1000000", "0" };
    for (int s = 0; s < 2; s++) {
        xgd_device *dev = spin_device(t, kind, settings[s]);
        if (dev == NULL) return;
        CHECK_MSG(budget(dev) == (s == 0 ? 1000000000u : 0u), "budget %llu ns with '%s'",
                  (unsigned long long)budget(dev), settings[s]);
        xgd_texture *rt = NULL;
        CHECK_OK(xgd_render_target2d_create(
            dev, &(xgd_render_target_desc){ .width = 1024, .height = 1024 }, &rt));
        uint64_t waits = 0, polled = polls(dev);
        for (int i = 0; i < 8; i++)
            waits += clear_and_read(t, dev, rt, (xgd_color){ (uint8_t)(30 * i), 200, (uint8_t)(255 - i), 255 });
        polled = polls(dev) - polled;
        CHECK_MSG(waits >= 1 && waits <= 8, "%llu waits in 8 reads", (unsigned long long)waits);
        CHECK_MSG(polled == (s == 0 ? waits : 0), "'%s': %llu of %llu waits ended polling",
                  settings[s], (unsigned long long)polled, (unsigned long long)waits);
        xgd_texture_destroy(rt);
        xgd_device_destroy(dev);
    }
}
#endif

XGD_TEST(WaitSpin_VulkanReadbackPolls)
{
#ifdef XGD_TEST_HAVE_VULKAN
    readback_polls(t, XGD_RENDERER_VULKAN, xgdt_vk_wait_spin_ns, xgdt_vk_wait_polls);
#else
    xgdt_not_supported(t, "built without the Vulkan renderer");
#endif
}

XGD_TEST(WaitSpin_D3D12ReadbackPolls)
{
#ifdef XGD_TEST_HAVE_D3D12
    readback_polls(t, XGD_RENDERER_D3D12, xgdt_d3d12_wait_spin_ns, xgdt_d3d12_wait_polls);
#else
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#endif
}
