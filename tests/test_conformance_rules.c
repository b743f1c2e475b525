/*
 * test_conformance_rules.c - neutral-layer rules of issue 3 that need no pixels: the depth-bias
 * conversion of spec 002 and the debug fault hook the contract fixtures rely on.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Spec 002 "Depth bias": XNA's float times the format's step count (D16 65535, D24 and D24S8
 * 16777215, 32-bit float 8388607), truncated toward zero like the C++ static_cast, saturated at
 * the int32 limits; NaN or an unknown format gives 0. Expected values are worked by hand:
 * 0.25 * 65535 = 16383.75, 0.25 * 16777215 = 4194303.75, 0.25 * 8388607 = 2097151.75,
 * 2^-10 * 65535 = 63.999..., 200 * 8388607 = 1677721400 (fits), 300 * 8388607 = 2516582100
 * (does not), 1000 * 16777215 > 2^31.
 */
XGD_TEST(depth_bias_units_rule)
{
    const xgd_depth_format D16 = XGD_DEPTH_FORMAT_DEPTH16, D24 = XGD_DEPTH_FORMAT_DEPTH24,
                           D24S8 = XGD_DEPTH_FORMAT_DEPTH24_STENCIL8;
    CHECK_INT(xgdi_depth_bias_units(1.0f, D16, false), 65535);
    CHECK_INT(xgdi_depth_bias_units(1.0f, D24, false), 16777215);
    CHECK_INT(xgdi_depth_bias_units(1.0f, D24S8, false), 16777215);
    CHECK_INT(xgdi_depth_bias_units(1.0f, XGD_DEPTH_FORMAT_NONE, true), 8388607);
    CHECK_INT(xgdi_depth_bias_units(1.0f, D16, true), 8388607); /* float depth decides */
    CHECK_INT(xgdi_depth_bias_units(0.25f, D16, false), 16383);
    CHECK_INT(xgdi_depth_bias_units(0.25f, D24S8, false), 4194303);
    CHECK_INT(xgdi_depth_bias_units(0.25f, D24, true), 2097151);
    CHECK_INT(xgdi_depth_bias_units(-0.25f, D16, false), -16383);   /* toward zero */
    CHECK_INT(xgdi_depth_bias_units(1.0f / 1024.0f, D16, false), 63);
    CHECK_INT(xgdi_depth_bias_units(-1.0f / 1024.0f, D16, false), -63);
    CHECK_INT(xgdi_depth_bias_units(0.0f, D24S8, false), 0);
    CHECK_INT(xgdi_depth_bias_units(-0.0f, D24S8, false), 0);
    /* saturation */
    CHECK_INT(xgdi_depth_bias_units(200.0f, D24, true), 1677721400);
    CHECK_INT(xgdi_depth_bias_units(300.0f, D24, true), INT32_MAX);
    CHECK_INT(xgdi_depth_bias_units(-300.0f, D24, true), INT32_MIN);
    CHECK_INT(xgdi_depth_bias_units(1000.0f, D24S8, false), INT32_MAX);
    CHECK_INT(xgdi_depth_bias_units(-1000.0f, D24S8, false), INT32_MIN);
    CHECK_INT(xgdi_depth_bias_units(INFINITY, D16, false), INT32_MAX);
    CHECK_INT(xgdi_depth_bias_units(-INFINITY, D16, false), INT32_MIN);
    CHECK_INT(xgdi_depth_bias_units(1e30f, D16, false), INT32_MAX);
    /* NaN and unknown formats */
    CHECK_INT(xgdi_depth_bias_units(NAN, D16, false), 0);
    CHECK_INT(xgdi_depth_bias_units(NAN, D24S8, false), 0);
    CHECK_INT(xgdi_depth_bias_units(NAN, D24, true), 0);
    CHECK_INT(xgdi_depth_bias_units(0.5f, XGD_DEPTH_FORMAT_NONE, false), 0);
    CHECK_INT(xgdi_depth_bias_units(0.5f, XGD_DEPTH_FORMAT_DEFAULT, false), 0);
    CHECK_INT(xgdi_depth_bias_units(0.5f, XGD_DEPTH_FORMAT_COUNT, false), 0);
    CHECK_INT(xgdi_depth_bias_units(0.5f, (xgd_depth_format)-3, false), 0);
}

static xgd_device *plain_device(xgdt_ctx *t)
{
    return xgdt_device(t, &(xgd_device_desc){ .pp = { .back_buffer_width = 8,
                                                      .back_buffer_height = 8,
                                                      .depth_stencil_format =
                                                          XGD_DEPTH_FORMAT_NONE },
                                              .context_recovery = true });
}

/* The hook's own contract: nth counts calls, negative is sticky, 0 disarms, an unknown op is an
 * invalid argument, and faults armed for the next device do not leak to the one after. */
XGD_TEST(debug_fault_hook_semantics)
{
    xgd_device *dev = plain_device(t);
    REQUIRE(dev);
    CHECK_RESULT(xgdi_debug_fail_next(dev, XGDI_FAULT_OP_COUNT, 1, XGD_ERROR_OUT_OF_MEMORY),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgdi_debug_fail_next(dev, (xgdi_fault_op)-1, 1, XGD_ERROR_OUT_OF_MEMORY),
                 XGD_ERROR_INVALID_ARGUMENT);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, -1, XGD_ERROR_DEVICE_LOST));
    for (int i = 0; i < 3; i++)
        CHECK_RESULT(xgd_clear_color(dev, XGD_COLOR_BLACK), XGD_ERROR_DEVICE_LOST);
    CHECK(strstr(xgd_device_last_error(dev), "injected") != NULL);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 0, XGD_OK));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    /* code OK means "some failure": it must never make a call fail with OK */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_PRESENT, 1, XGD_OK));
    xgd_result r = xgd_present(dev);
    CHECK(r != XGD_OK);
    CHECK_OK(xgd_present(dev));
    xgd_device_destroy(dev);

    REQUIRE_OK(xgdi_debug_fail_next(NULL, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    dev = plain_device(t);
    REQUIRE(dev);
    CHECK_RESULT(xgd_clear_color(dev, XGD_COLOR_BLACK), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_device_destroy(dev);
    dev = plain_device(t);
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_device_destroy(dev);
}

/* XGD_DEBUG_FAIL arms every new device: "clear:2" fails the second clear only (libraries built
   with XGD_FAULT_INJECTION=ON; test_fault_opt_in.c checks that others ignore it). */
XGD_TEST(debug_fault_hook_environment)
{
#ifndef XGD_FAULT_INJECTION
    xgdt_not_supported(t, "built without XGD_FAULT_INJECTION: XGD_DEBUG_FAIL is ignored");
    return;
#endif
    REQUIRE(setenv("XGD_DEBUG_FAIL", "clear:2,no_such_op:1,present", 1) == 0);
    xgd_device *dev = plain_device(t);
    unsetenv("XGD_DEBUG_FAIL");
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_RESULT(xgd_clear_color(dev, XGD_COLOR_BLACK), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_RESULT(xgd_present(dev), XGD_ERROR_OUT_OF_MEMORY); /* no count: the next call */
    CHECK_OK(xgd_present(dev));
    xgd_device_destroy(dev);
    dev = plain_device(t);
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_device_destroy(dev);
}

/* An unarmed device keeps the renderer's own table: the hook costs the draw path nothing. */
XGD_TEST(debug_fault_hook_unarmed_is_direct)
{
    xgd_device *dev = plain_device(t);
    REQUIRE(dev);
    CHECK(dev->ops == xgdi_renderer_find(XGD_RENDERER_SOFTWARE));
    CHECK(dev->debug_real_ops == NULL);
    CHECK_INT(xgdi_debug_last_swap_interval(dev), -1);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 0, XGD_OK));
    CHECK(dev->ops != xgdi_renderer_find(XGD_RENDERER_SOFTWARE));
    CHECK(dev->debug_real_ops == xgdi_renderer_find(XGD_RENDERER_SOFTWARE));
    xgd_device_destroy(dev);
}
