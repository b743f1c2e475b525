/*
 * test_device.c - neutral-layer tests of device creation, defaults, presentation parameters,
 * renderer selection, errors and the log callback (xgd.h "Device"; spec 002 present interval).
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <stdlib.h>
#include <string.h>

/* A desc that creates a headless software device and nothing else set. */
static xgd_device_desc headless_desc(void)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = XGD_RENDERER_SOFTWARE;
    d.pp.headless = true;
    return d;
}

/* Creation must fail with `expected`, leave *out NULL and leave a message for
 * xgd_device_last_error(NULL). */
static void expect_create_fails(xgdt_ctx *t, int line, const xgd_device_desc *d,
                                xgd_result expected)
{
    xgd_device *dev = (xgd_device *)(uintptr_t)0x1; /* poison: must come back NULL */
    xgd_result r = xgd_device_create(d, &dev);
    if (r != expected)
        xgdt_fail_at(t, __FILE__, line, "xgd_device_create returned %s, expected %s (%s)",
                     xgd_result_name(r), xgd_result_name(expected), xgd_device_last_error(NULL));
    if (dev != NULL) {
        xgdt_fail_at(t, __FILE__, line, "*out is not NULL after a failed create");
        if (r == XGD_OK) xgd_device_destroy(dev);
    }
    const char *msg = xgd_device_last_error(NULL);
    if (msg == NULL || msg[0] == '\0')
        xgdt_fail_at(t, __FILE__, line, "no message in xgd_device_last_error(NULL)");
}
#define EXPECT_CREATE_FAILS(d, code) expect_create_fails(t, __LINE__, (d), (code))

static bool software_only_build(void)
{
    const char *const *names = xgd_renderers_compiled();
    if (names == NULL || names[0] == NULL) return false;
    return strcmp(names[0], "software") == 0 && names[1] == NULL;
}

static bool renderer_compiled(const char *name)
{
    const char *const *names = xgd_renderers_compiled();
    for (int i = 0; names && names[i]; i++)
        if (strcmp(names[i], name) == 0) return true;
    return false;
}

XGD_TEST(device_create_null_out)
{
    xgd_device_desc d = headless_desc();
    CHECK_RESULT(xgd_device_create(&d, NULL), XGD_ERROR_INVALID_ARGUMENT);
    const char *msg = xgd_device_last_error(NULL);
    CHECK(msg != NULL && msg[0] != '\0');
}

/* desc NULL means all defaults, which ask for a window without naming one: XNA refuses a
 * device without a window handle (ArgumentException), and a headless device naming a window
 * is contradictory (xgd.h). */
XGD_TEST(device_create_null_desc_asks_for_window)
{
    EXPECT_CREATE_FAILS(NULL, XGD_ERROR_INVALID_ARGUMENT);
    xgd_device_desc d = headless_desc();
    d.pp.headless = false;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.window.kind = XGD_WINDOW_X11;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.headless = false;
    d.pp.window.kind = (xgd_window_kind)99;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    /* windowed with a kind whose handles are NULL: refused by name, never dereferenced */
    d.pp.window.kind = XGD_WINDOW_SDL2;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    CHECK(r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_NOT_SUPPORTED);
    CHECK(dev == NULL);
    d.pp.window.kind = XGD_WINDOW_X11;
    r = xgd_device_create(&d, &dev);
    CHECK(r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_NOT_SUPPORTED);
    CHECK(dev == NULL);
}

XGD_TEST(device_create_bad_sizes)
{
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_width = -1;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.back_buffer_height = -5;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    /* 1..profile maximum: HiDef 4096, Reach 2048 */
    d = headless_desc();
    d.pp.back_buffer_width = 4097;
    d.pp.back_buffer_height = 16;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.profile = XGD_GRAPHICS_PROFILE_REACH;
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 2049;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.multisample_count = -1;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);

    /* the limits themselves are accepted */
    d = headless_desc();
    d.profile = XGD_GRAPHICS_PROFILE_REACH;
    d.pp.back_buffer_width = 2048;
    d.pp.back_buffer_height = 4;
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = NULL;
    CHECK_OK(xgd_device_create(&d, &dev));
    xgd_device_destroy(dev);
}

XGD_TEST(device_create_unknown_enums)
{
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_format = XGD_SURFACE_FORMAT_COUNT;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.back_buffer_format = (xgd_surface_format)-1;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_COUNT;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.presentation_mode = (xgd_presentation_mode)42;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.pp.present_interval = (xgd_present_interval)7;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.profile = (xgd_graphics_profile)9;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.renderer = XGD_RENDERER_COUNT;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
    d = headless_desc();
    d.renderer = (xgd_renderer_kind)-3;
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_INVALID_ARGUMENT);
}

/* A renderer that is a known kind but not compiled in: NOT_SUPPORTED (xgd.h). */
XGD_TEST(device_create_renderer_not_compiled)
{
    int tested = 0;
    xgd_device_desc d = headless_desc();
    if (!renderer_compiled("vulkan")) {
        d.renderer = XGD_RENDERER_VULKAN;
        EXPECT_CREATE_FAILS(&d, XGD_ERROR_NOT_SUPPORTED);
        tested++;
    }
    if (!renderer_compiled("d3d12")) {
        d.renderer = XGD_RENDERER_D3D12;
        EXPECT_CREATE_FAILS(&d, XGD_ERROR_NOT_SUPPORTED);
        tested++;
    }
    if (tested == 0) xgdt_not_supported(t, "every renderer kind is compiled in");
}

/* The library's own defaults (not the harness's 64x64): XNA PresentationParameters and
 * xgd.h field comments: 800x480, Color, Depth24, no MSAA, NativeBackBuffer, One, HiDef. */
XGD_TEST(device_defaults_filled)
{
    xgd_device_desc d = headless_desc();
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    REQUIRE(dev != NULL);
    xgd_device_info info;
    memset(&info, 0xAB, sizeof info);
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.renderer, XGD_RENDERER_SOFTWARE);
    CHECK(info.renderer_name != NULL && strcmp(info.renderer_name, "software") == 0);
    CHECK(info.adapter_name != NULL);
    CHECK_INT(info.profile, XGD_GRAPHICS_PROFILE_HIDEF);
    CHECK_INT(info.pp.back_buffer_width, 800);
    CHECK_INT(info.pp.back_buffer_height, 480);
    CHECK_INT(info.pp.back_buffer_format, XGD_SURFACE_FORMAT_COLOR);
    CHECK_INT(info.pp.depth_stencil_format, XGD_DEPTH_FORMAT_DEPTH24);
    CHECK_INT(info.pp.multisample_count, 0);
    CHECK_INT(info.pp.presentation_mode, XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER);
    CHECK_INT(info.pp.present_interval, XGD_PRESENT_INTERVAL_ONE);
    CHECK(info.pp.headless);
    CHECK_INT(info.swap_interval, 1);
    /* NativeBackBuffer: logical = physical, the canvas fills the back buffer */
    CHECK_INT(info.logical_width, 800);
    CHECK_INT(info.logical_height, 480);
    CHECK_INT(info.presentation_rect.x, 0);
    CHECK_INT(info.presentation_rect.y, 0);
    CHECK_INT(info.presentation_rect.width, 800);
    CHECK_INT(info.presentation_rect.height, 480);
    CHECK_INT(info.max_texture_size, 4096);
    CHECK_INT(info.max_render_targets, 4);
    CHECK(info.max_multisample_count >= 1);
    CHECK(!info.lost);
    CHECK(!info.render_target_bound);
    CHECK(info.context_recovery_enabled);
    CHECK_INT(info.last_recovery_failures, 0);

    /* the default viewport and scissor cover the back buffer */
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.x, 0);
    CHECK_INT(vp.y, 0);
    CHECK_INT(vp.width, 800);
    CHECK_INT(vp.height, 480);
    CHECK_NEAR(vp.min_depth, 0.0, 0.0);
    CHECK_NEAR(vp.max_depth, 1.0, 0.0);
    xgd_rect sc;
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_INT(sc.width, 800);
    CHECK_INT(sc.height, 480);
    xgd_device_destroy(dev);
}

XGD_TEST(device_reach_profile_limits)
{
    xgd_device_desc d = headless_desc();
    d.profile = XGD_GRAPHICS_PROFILE_REACH;
    xgd_device *dev = xgdt_device(t, &d);
    REQUIRE(dev);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.profile, XGD_GRAPHICS_PROFILE_REACH);
    CHECK_INT(info.max_texture_size, 2048);
    CHECK_INT(info.max_render_targets, 1);
    xgd_device_destroy(dev);
}

/* spec 002 "One PresentInterval::Two, three implementations": Immediate 0, Two 2, Default and
 * One 1 (SwapIntervalForwarding). */
XGD_TEST(device_swap_interval_forwarding)
{
    static const struct { xgd_present_interval pi; int swap; } cases[] = {
        { XGD_PRESENT_INTERVAL_DEFAULT, 1 },
        { XGD_PRESENT_INTERVAL_ONE, 1 },
        { XGD_PRESENT_INTERVAL_TWO, 2 },
        { XGD_PRESENT_INTERVAL_IMMEDIATE, 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgd_device_desc d = headless_desc();
        d.pp.present_interval = cases[i].pi;
        xgd_device *dev = xgdt_device(t, &d);
        REQUIRE(dev);
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_MSG(info.swap_interval == cases[i].swap, "present_interval %d: swap_interval %d, "
                  "expected %d", (int)cases[i].pi, info.swap_interval, cases[i].swap);
        CHECK_OK(xgd_present(dev));
        xgd_device_destroy(dev);
    }

    /* Reset forwards the new interval too */
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    xgd_presentation_parameters pp = info.pp;
    pp.present_interval = XGD_PRESENT_INTERVAL_IMMEDIATE;
    CHECK_OK(xgd_device_reset(dev, &pp));
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.swap_interval, 0);
    pp.present_interval = XGD_PRESENT_INTERVAL_TWO;
    CHECK_OK(xgd_device_reset(dev, &pp));
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.swap_interval, 2);
    xgd_device_destroy(dev);
}

static int floor_pow2(int n)
{
    int p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

/* pp.multisample_count: rounded down to a power of two, clamped by the renderer (xgd.h). */
XGD_TEST(device_multisample_rounding)
{
    xgd_device *probe = xgdt_device(t, NULL);
    REQUIRE(probe);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(probe, &info));
    int max = info.max_multisample_count;
    xgd_device_destroy(probe);
    REQUIRE(max >= 1);

    static const int requests[] = { 2, 3, 4, 5, 7, 8, 16, 64 };
    for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
        xgd_device_desc d = headless_desc();
        d.pp.back_buffer_width = 8;
        d.pp.back_buffer_height = 8;
        d.pp.multisample_count = requests[i];
        xgd_device *dev = xgdt_device(t, &d);
        REQUIRE(dev);
        CHECK_OK(xgd_device_get_info(dev, &info));
        int expected = floor_pow2(requests[i]);
        if (expected > max) expected = max;
        /* a renderer without MSAA may report 'off' as 0 or 1 */
        bool ok = info.pp.multisample_count == expected ||
                  (expected <= 1 && info.pp.multisample_count <= 1 &&
                   info.pp.multisample_count >= 0);
        CHECK_MSG(ok,
                  "multisample_count %d applied as %d, expected %d (renderer max %d)",
                  requests[i], info.pp.multisample_count, expected, max);
        xgd_device_destroy(dev);
    }
}

/* XGD_RENDERER selects the renderer for AUTO; an unknown name is NOT_SUPPORTED. */
XGD_TEST(device_renderer_env_selection)
{
    const char *saved = getenv("XGD_RENDERER");
    char *saved_copy = saved ? strdup(saved) : NULL;

    xgd_device_desc d = headless_desc();
    d.renderer = XGD_RENDERER_AUTO;
    d.pp.back_buffer_width = 8;
    d.pp.back_buffer_height = 8;

    setenv("XGD_RENDERER", "software", 1);
    xgd_device *dev = NULL;
    CHECK_OK(xgd_device_create(&d, &dev));
    if (dev) {
        xgd_device_info info;
        CHECK_OK(xgd_device_get_info(dev, &info));
        CHECK_INT(info.renderer, XGD_RENDERER_SOFTWARE);
        xgd_device_destroy(dev);
    }

    setenv("XGD_RENDERER", "no-such-renderer", 1);
    EXPECT_CREATE_FAILS(&d, XGD_ERROR_NOT_SUPPORTED);

    if (!renderer_compiled("vulkan")) {
        setenv("XGD_RENDERER", "vulkan", 1);
        EXPECT_CREATE_FAILS(&d, XGD_ERROR_NOT_SUPPORTED);
    }

    /* without the variable, a software-only build falls back to software */
    unsetenv("XGD_RENDERER");
    if (software_only_build()) {
        dev = NULL;
        CHECK_OK(xgd_device_create(&d, &dev));
        if (dev) {
            xgd_device_info info;
            CHECK_OK(xgd_device_get_info(dev, &info));
            CHECK_INT(info.renderer, XGD_RENDERER_SOFTWARE);
            xgd_device_destroy(dev);
        }
    }

    /* an explicit renderer ignores the variable */
    setenv("XGD_RENDERER", "no-such-renderer", 1);
    d.renderer = XGD_RENDERER_SOFTWARE;
    dev = NULL;
    CHECK_OK(xgd_device_create(&d, &dev));
    xgd_device_destroy(dev);

    if (saved_copy) {
        setenv("XGD_RENDERER", saved_copy, 1);
        free(saved_copy);
    } else {
        unsetenv("XGD_RENDERER");
    }
}

XGD_TEST(device_renderer_names)
{
    const char *const *names = xgd_renderers_compiled();
    REQUIRE(names != NULL);
    REQUIRE(names[0] != NULL);
    bool software = false;
    for (int i = 0; names[i]; i++) {
        if (strcmp(names[i], "software") == 0) software = true;
        CHECK(xgd_renderer_from_name(names[i]) != XGD_RENDERER_COUNT);
    }
    CHECK(software);
    CHECK_INT(xgd_renderer_from_name("software"), XGD_RENDERER_SOFTWARE);
    CHECK_INT(xgd_renderer_from_name("vulkan"), XGD_RENDERER_VULKAN);
    CHECK_INT(xgd_renderer_from_name("d3d12"), XGD_RENDERER_D3D12);
    CHECK_INT(xgd_renderer_from_name("opengl"), XGD_RENDERER_COUNT);
    CHECK_INT(xgd_renderer_from_name(""), XGD_RENDERER_COUNT);
    CHECK_INT(xgd_renderer_from_name(NULL), XGD_RENDERER_COUNT);
}

/* A failed creation's message is per thread under xgd_device_last_error(NULL), and a success
 * does not leave a stale device pointer around. */
XGD_TEST(device_last_error_null_device)
{
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_width = -7;
    xgd_device *dev = NULL;
    CHECK_RESULT(xgd_device_create(&d, &dev), XGD_ERROR_INVALID_ARGUMENT);
    const char *msg = xgd_device_last_error(NULL);
    REQUIRE(msg != NULL);
    CHECK(msg[0] != '\0');
}

typedef struct log_capture {
    int count;
    xgd_log_level level;
    xgd_result code;
    char message[512];
} log_capture;

static void capture_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    log_capture *c = user;
    c->count++;
    c->level = level;
    c->code = code;
    snprintf(c->message, sizeof c->message, "%s", message ? message : "(null)");
}

/* xgd_device_report_error: a layered library's failure reaches last_error, last_result and the
 * log exactly as a failed xgd call's; XGD_OK and positive codes are not failures. */
XGD_TEST(device_report_error_for_layered_libraries)
{
    log_capture cap;
    memset(&cap, 0, sizeof cap);
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 16;
    d.log = capture_log;
    d.log_user = &cap;
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    int before = cap.count;
    CHECK_RESULT(xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED, "layer: %s %d", "frob", 7),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK_INT(cap.count, before + 1);
    CHECK_INT(cap.code, XGD_ERROR_NOT_SUPPORTED);
    CHECK(strcmp(cap.message, "layer: frob 7") == 0);
    CHECK(strcmp(xgd_device_last_error(dev), "layer: frob 7") == 0);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_NOT_SUPPORTED);
    /* not a failure: nothing recorded */
    CHECK_RESULT(xgd_device_report_error(dev, XGD_OK, "ignored"), XGD_OK);
    CHECK_INT(cap.count, before + 1);
    CHECK(strcmp(xgd_device_last_error(dev), "layer: frob 7") == 0);
    /* a '%' in user text is not a format when passed as an argument; long text is cut */
    char big[700];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK_RESULT(xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "%s", big),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT((int)strlen(xgd_device_last_error(dev)), 511);
    /* no device: this thread's message, as xgd_device_create's */
    CHECK_RESULT(xgd_device_report_error(NULL, XGD_ERROR_INVALID_OPERATION, "no device"),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(strcmp(xgd_device_last_error(NULL), "no device") == 0);
    CHECK_INT(xgd_device_last_result(NULL), XGD_ERROR_INVALID_OPERATION);

    /* xgd_effect_get_device: the owner; NULL and destroyed effects are named errors */
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &fx));
    xgd_device *owner = NULL;
    CHECK_OK(xgd_effect_get_device(fx, &owner));
    CHECK(owner == dev);
    CHECK_RESULT(xgd_effect_get_device(fx, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_get_device(NULL, &owner), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(owner == NULL);
    xgd_effect_destroy(fx);
    owner = dev;
    CHECK_RESULT(xgd_effect_get_device(fx, &owner), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(owner == NULL);
    xgd_device_destroy(dev);
}

/* xgd_device_quiet_begin/end: a failure inside a span returns its code and records nothing
 * (no last error, no last result, no log); spans nest, the innermost end gives the span's last
 * message, the outermost begin clears it; after the span failures are recorded again. */
XGD_TEST(device_quiet_spans)
{
    log_capture cap;
    memset(&cap, 0, sizeof cap);
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 16;
    d.log = capture_log;
    d.log_user = &cap;
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    const int logged = cap.count;
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);

    xgd_device_quiet_begin(dev);
    CHECK_RESULT(xgd_device_get_statistics(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(cap.count, logged);
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK(strcmp(xgd_device_last_error(dev), "") == 0);
    xgd_device_quiet_begin(dev); /* nested: the outer span's message is not cleared */
    CHECK_RESULT(xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED, "inner %d", 2),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK(strcmp(xgd_device_quiet_end(dev), "inner 2") == 0);
    /* still inside the outer span */
    CHECK_RESULT(xgd_device_report_error(dev, XGD_ERROR_IO, "outer"), XGD_ERROR_IO);
    CHECK(strcmp(xgd_device_quiet_end(dev), "outer") == 0);
    CHECK_INT(cap.count, logged);
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK(strcmp(xgd_device_last_error(dev), "") == 0);
    /* a new outermost span starts without a message; one without failures ends with "" */
    xgd_device_quiet_begin(dev);
    CHECK(strcmp(xgd_device_quiet_end(dev), "") == 0);
    /* an end without a begin does nothing; NULL is accepted */
    CHECK(strcmp(xgd_device_quiet_end(dev), "") == 0);
    xgd_device_quiet_begin(NULL);
    CHECK(strcmp(xgd_device_quiet_end(NULL), "") == 0);
    /* outside every span failures are recorded and logged again */
    CHECK_RESULT(xgd_device_report_error(dev, XGD_ERROR_IO, "loud"), XGD_ERROR_IO);
    CHECK_INT(cap.count, logged + 1);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_IO);
    CHECK(strcmp(xgd_device_last_error(dev), "loud") == 0);
    /* a quiet failure leaves an earlier recorded one as it was */
    xgd_device_quiet_begin(dev);
    CHECK_RESULT(xgd_device_get_statistics(dev, NULL), XGD_ERROR_INVALID_ARGUMENT);
    (void)xgd_device_quiet_end(dev);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_IO);
    CHECK(strcmp(xgd_device_last_error(dev), "loud") == 0);
    CHECK_INT(cap.count, logged + 1);
    xgd_device_destroy(dev);
}

XGD_TEST(device_log_callback_receives_message)
{
    log_capture cap;
    memset(&cap, 0, sizeof cap);
    xgd_device_desc d = headless_desc();
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 16;
    d.log = capture_log;
    d.log_user = &cap;
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK(strcmp(xgd_device_last_error(dev), "") == 0);
    int before = cap.count;

    xgd_viewport vp = { 0, 0, 0, 16, 0.0f, 1.0f };
    CHECK_RESULT(xgd_set_viewport(dev, &vp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(cap.count, before + 1);
    CHECK_INT(cap.level, XGD_LOG_ERROR);
    CHECK_INT(cap.code, XGD_ERROR_INVALID_ARGUMENT);
    CHECK(cap.message[0] != '\0');
    CHECK_MSG(strcmp(cap.message, xgd_device_last_error(dev)) == 0,
              "log got '%s', last_error is '%s'", cap.message, xgd_device_last_error(dev));
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_INVALID_ARGUMENT);

    /* a different failure replaces the message and the code */
    xgd_texture *tex = NULL;
    CHECK_RESULT(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 0, .height = 4 }, &tex),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(cap.count, before + 2);
    CHECK(tex == NULL);
    CHECK_RESULT(xgd_present(dev), XGD_OK);
    xgd_texture *rt = NULL;
    REQUIRE_OK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4, .height = 4 },
                                          &rt));
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_INT(cap.code, XGD_ERROR_INVALID_OPERATION);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_INVALID_OPERATION);
    CHECK_MSG(strcmp(cap.message, xgd_device_last_error(dev)) == 0,
              "log got '%s', last_error is '%s'", cap.message, xgd_device_last_error(dev));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

XGD_TEST(device_result_names)
{
    static const struct { xgd_result r; const char *name; } names[] = {
        { XGD_OK, "OK" },
        { XGD_ERROR_INVALID_ARGUMENT, "ERROR_INVALID_ARGUMENT" },
        { XGD_ERROR_INVALID_OPERATION, "ERROR_INVALID_OPERATION" },
        { XGD_ERROR_NOT_SUPPORTED, "ERROR_NOT_SUPPORTED" },
        { XGD_ERROR_OBJECT_DISPOSED, "ERROR_OBJECT_DISPOSED" },
        { XGD_ERROR_OUT_OF_MEMORY, "ERROR_OUT_OF_MEMORY" },
        { XGD_ERROR_DEVICE_LOST, "ERROR_DEVICE_LOST" },
        { XGD_ERROR_NO_SUITABLE_DEVICE, "ERROR_NO_SUITABLE_DEVICE" },
        { XGD_ERROR_IO, "ERROR_IO" },
        { XGD_ERROR_ARGUMENT_OUT_OF_RANGE, "ERROR_ARGUMENT_OUT_OF_RANGE" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *n = xgd_result_name(names[i].r);
        CHECK_MSG(n != NULL && strcmp(n, names[i].name) == 0, "xgd_result_name(%d) = '%s', "
                  "expected '%s'", (int)names[i].r, n ? n : "(null)", names[i].name);
    }
    CHECK(xgd_result_name((xgd_result)-100) != NULL);
    CHECK(xgd_result_name((xgd_result)12345) != NULL);
}

/* Reset applies new parameters, resets viewport and scissor; a bad Reset changes nothing. */
XGD_TEST(device_reset_parameters)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_viewport custom = { 3, 4, 10, 11, 0.25f, 0.5f };
    CHECK_OK(xgd_set_viewport(dev, &custom));

    xgd_presentation_parameters bad = info.pp;
    bad.back_buffer_width = 0;
    bad.back_buffer_height = -2;
    CHECK_RESULT(xgd_device_reset(dev, &bad), XGD_ERROR_INVALID_ARGUMENT);
    bad = info.pp;
    bad.depth_stencil_format = (xgd_depth_format)77;
    CHECK_RESULT(xgd_device_reset(dev, &bad), XGD_ERROR_INVALID_ARGUMENT);
    xgd_device_info after;
    CHECK_OK(xgd_device_get_info(dev, &after));
    CHECK_INT(after.pp.back_buffer_width, info.pp.back_buffer_width);
    CHECK_INT(after.pp.back_buffer_height, info.pp.back_buffer_height);
    CHECK_INT(after.pp.depth_stencil_format, info.pp.depth_stencil_format);
    xgd_viewport vp;
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.x, 3);
    CHECK_INT(vp.width, 10);
    CHECK_NEAR(vp.max_depth, 0.5, 0.0);

    xgd_presentation_parameters pp = info.pp;
    pp.back_buffer_width = 40;
    pp.back_buffer_height = 24;
    pp.depth_stencil_format = XGD_DEPTH_FORMAT_DEPTH24_STENCIL8;
    CHECK_OK(xgd_device_reset(dev, &pp));
    CHECK_OK(xgd_device_get_info(dev, &after));
    CHECK_INT(after.pp.back_buffer_width, 40);
    CHECK_INT(after.pp.back_buffer_height, 24);
    CHECK_INT(after.pp.depth_stencil_format, XGD_DEPTH_FORMAT_DEPTH24_STENCIL8);
    CHECK_OK(xgd_get_viewport(dev, &vp));
    CHECK_INT(vp.x, 0);
    CHECK_INT(vp.y, 0);
    CHECK_INT(vp.width, 40);
    CHECK_INT(vp.height, 24);
    xgd_rect sc;
    CHECK_OK(xgd_get_scissor_rect(dev, &sc));
    CHECK_INT(sc.width, 40);
    CHECK_INT(sc.height, 24);
    /* the stencil plane now exists */
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL,
                       (xgd_vector4){ 0, 0, 0, 1 }, 1.0f, 0));

    /* NULL keeps the current parameters */
    CHECK_OK(xgd_device_reset(dev, NULL));
    CHECK_OK(xgd_device_get_info(dev, &after));
    CHECK_INT(after.pp.back_buffer_width, 40);
    xgd_device_destroy(dev);
}

/* Clear masking (spec 002 "Clears"): depth or stencil requested where the attachment has none is
 * INVALID_OPERATION, and nothing is cleared. */
XGD_TEST(device_clear_masking_back_buffer)
{
    xgd_device_desc d = headless_desc();
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = xgdt_device(t, &d);
    REQUIRE(dev);
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    xgd_vector4 red = { 1, 0, 0, 1 };
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, red, 1.0f, 0),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_STENCIL, red, 1.0f, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.clears, s0.clears);
    /* nothing was written: the back buffer is not red */
    uint8_t px[4] = { 9, 9, 9, 9 };
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, 4));
    CHECK(!(px[0] == 255 && px[1] == 0 && px[2] == 0));
    /* colour alone works, and Clear(Color) clears only the planes that exist */
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, red, 1.0f, 0));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 255, 0, 255 }));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.clears, s0.clears + 2);
    CHECK_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 5, 6, 1, 1 }, px, 4));
    CHECK_INT(px[0], 0);
    CHECK_INT(px[1], 255);
    CHECK_INT(px[2], 0);
    CHECK_INT(px[3], 255);
    xgd_device_destroy(dev);

    /* Depth24 has depth but no stencil */
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_DEPTH24;
    dev = xgdt_device(t, &d);
    REQUIRE(dev);
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER, red, 0.5f, 0));
    CHECK_RESULT(xgd_clear(dev, XGD_CLEAR_DEPTH_BUFFER | XGD_CLEAR_STENCIL, red, 0.5f, 0),
                 XGD_ERROR_INVALID_OPERATION);
    xgd_device_destroy(dev);
}

XGD_TEST(device_viewport_and_scissor_roundtrip)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_viewport vp = { 1, 2, 30, 40, 0.125f, 0.875f }, got;
    CHECK_OK(xgd_set_viewport(dev, &vp));
    CHECK_OK(xgd_get_viewport(dev, &got));
    CHECK_INT(got.x, 1);
    CHECK_INT(got.y, 2);
    CHECK_INT(got.width, 30);
    CHECK_INT(got.height, 40);
    CHECK_NEAR(got.min_depth, 0.125, 0.0);
    CHECK_NEAR(got.max_depth, 0.875, 0.0);

    /* failures leave it as it was */
    xgd_viewport bad[] = {
        { 0, 0, 0, 10, 0.0f, 1.0f },
        { 0, 0, 10, -1, 0.0f, 1.0f },
        { 0, 0, 10, 10, -0.5f, 1.0f },
        { 0, 0, 10, 10, 0.0f, 1.5f },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_RESULT(xgd_set_viewport(dev, &bad[i]), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_get_viewport(dev, &got));
    CHECK_INT(got.width, 30);
    CHECK_INT(got.height, 40);
    CHECK_NEAR(got.min_depth, 0.125, 0.0);

    xgd_rect sc = { 5, 6, 7, 8 }, gs;
    CHECK_OK(xgd_set_scissor_rect(dev, sc));
    CHECK_OK(xgd_get_scissor_rect(dev, &gs));
    CHECK_INT(gs.x, 5);
    CHECK_INT(gs.y, 6);
    CHECK_INT(gs.width, 7);
    CHECK_INT(gs.height, 8);
    xgd_device_destroy(dev);
}

/* xgd_device_query_format: the formats XNA guarantees on HiDef are creatable textures. */
XGD_TEST(device_query_format)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_format_support s;
    CHECK_OK(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, &s));
    CHECK(s.texture);
    CHECK(s.render_target);
    CHECK(s.filterable);
    CHECK(s.blendable);
    CHECK_RESULT(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COUNT, &s),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_device_query_format(dev, XGD_SURFACE_FORMAT_COLOR, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_device_destroy(dev);
}

/* Two devices are independent: a failure on one leaves the other's error state alone. */
XGD_TEST(device_errors_are_per_device)
{
    xgd_device *a = xgdt_device(t, NULL);
    REQUIRE(a);
    xgd_device *b = xgdt_device(t, NULL);
    REQUIRE(b);
    xgd_viewport vp = { 0, 0, -1, -1, 0, 1 };
    CHECK_RESULT(xgd_set_viewport(a, &vp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(xgd_device_last_result(a), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(xgd_device_last_result(b), XGD_OK);
    CHECK(strcmp(xgd_device_last_error(b), "") == 0);
    xgd_device_destroy(a);
    xgd_device_destroy(b);
}
