/*
 * test_fault_opt_in.c - the fault-injection hook is test machinery: a library built without
 * XGD_FAULT_INJECTION (the default) ignores XGD_DEBUG_FAIL in its host's environment, so no
 * variable can make a release build's calls fail; the internal arming call the tests use works
 * in every build. (A build with the option is checked by debug_fault_hook_environment.)
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */

#include "harness.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

XGD_TEST(debug_fault_environment_needs_opt_in)
{
#ifdef XGD_FAULT_INJECTION
    xgdt_not_supported(t, "built with XGD_FAULT_INJECTION=ON: XGD_DEBUG_FAIL is honoured");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 4;
    dd.pp.back_buffer_height = 4;
    /* every op the variable can name, failing at its first call and at every call */
    REQUIRE(setenv("XGD_DEBUG_FAIL",
                   "clear:1,present:-1,texture_create:-1,texture_upload,draw,read_back_buffer,"
                   "set_render_targets,corrupt_download,no_back_buffer_readback",
                   1) == 0);
    xgd_device *dev = NULL;
    xgd_result created = xgd_device_create(&dd, &dev);
    unsetenv("XGD_DEBUG_FAIL");
    REQUIRE_OK(created);
    CHECK_MSG(dev->debug_real_ops == NULL, "XGD_DEBUG_FAIL armed the fault hook");
    CHECK(dev->caps.back_buffer_readback);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_present(dev));
    CHECK_OK(xgd_present(dev));
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, XGD_COLOR_WHITE);
    CHECK(tex != NULL);
    xgd_texture_destroy(tex);
    uint8_t px[4] = { 1, 2, 3, 4 };
    xgd_rect one = { 0, 0, 1, 1 };
    CHECK_OK(xgd_get_back_buffer_data(dev, &one, px, sizeof px));
    CHECK(px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 255);

    /* the internal arming call still works */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_clear_color(dev, XGD_COLOR_BLACK), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_device_destroy(dev);
#endif
}
