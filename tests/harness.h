/*
 * harness.h - xgd's test harness.
 *
 * XGD_TEST(name)    a neutral-layer test, run once (ctest name: unit.<name>).
 * XGD_FIXTURE(name) a conformance fixture, written once and registered for every compiled
 *                   renderer (ctest name: conformance.<renderer>.<name>); t->renderer says which.
 *
 * Each test file is linked into one runner (xgd-tests); tests/CMakeLists.txt scans the sources
 * for XGD_TEST / XGD_FIXTURE at configure time and registers each as its own ctest test.
 * Runner: xgd-tests [--renderer NAME] [--list] [--list-fixtures] TEST...
 * Exit codes: 0 pass (an expected failure, the renderer's registered known gap, also exits 0
 * and prints "XFAIL: <reason>"), 1 fail (an expected failure that passed is a failure too, so
 * a fixed gap shows up), 77 not supported (ctest SKIP_RETURN_CODE; prints
 * "NOT SUPPORTED: <reason>").
 */
#ifndef XGD_TEST_HARNESS_H
#define XGD_TEST_HARNESS_H

#include "xgd.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct xgdt_ctx {
    const char *name;            /* test name */
    xgd_renderer_kind renderer;  /* fixtures: the renderer under test; tests: SOFTWARE */
    const char *renderer_name;
    int failures;
    bool not_supported;
    const char *not_supported_reason;
    bool expected_failure;
    const char *expected_failure_reason;
} xgdt_ctx;

typedef void (*xgdt_fn)(xgdt_ctx *t);

void xgdt_register(const char *name, xgdt_fn fn, bool fixture, const char *file);

#define XGDT_DEFINE(name, fixture)                                                   \
    static void xgdt_body_##name(xgdt_ctx *t);                                       \
    __attribute__((constructor)) static void xgdt_reg_##name(void)                   \
    {                                                                                \
        xgdt_register(#name, xgdt_body_##name, fixture, __FILE__);                   \
    }                                                                                \
    static void xgdt_body_##name(xgdt_ctx *t)

#define XGD_TEST(name) XGDT_DEFINE(name, false)
#define XGD_FIXTURE(name) XGDT_DEFINE(name, true)

/* Records a failure with file:line and continues. */
void xgdt_fail_at(xgdt_ctx *t, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) xgdt_fail_at(t, __FILE__, __LINE__, "CHECK(%s)", #cond);         \
    } while (0)
#define CHECK_MSG(cond, ...)                                                         \
    do {                                                                             \
        if (!(cond)) xgdt_fail_at(t, __FILE__, __LINE__, __VA_ARGS__);               \
    } while (0)
#define CHECK_INT(actual, expected)                                                  \
    do {                                                                             \
        long long xgdt_a_ = (long long)(actual), xgdt_e_ = (long long)(expected);    \
        if (xgdt_a_ != xgdt_e_)                                                      \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s == %lld, expected %s == %lld",    \
                         #actual, xgdt_a_, #expected, xgdt_e_);                      \
    } while (0)
#define CHECK_NEAR(actual, expected, tol)                                            \
    do {                                                                             \
        double xgdt_a_ = (double)(actual), xgdt_e_ = (double)(expected);             \
        if (!(xgdt_a_ - xgdt_e_ <= (tol) && xgdt_e_ - xgdt_a_ <= (tol)))             \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s == %.9g, expected %.9g (+-%g)",   \
                         #actual, xgdt_a_, xgdt_e_, (double)(tol));                  \
    } while (0)
/* Asserts an xgd_result and prints the device's message on mismatch. */
#define CHECK_RESULT(expr, expected)                                                 \
    do {                                                                             \
        xgd_result xgdt_r_ = (expr);                                                 \
        if (xgdt_r_ != (expected))                                                   \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s returned %s, expected %s (%s)",   \
                         #expr, xgd_result_name(xgdt_r_), xgd_result_name(expected),  \
                         xgdt_last_message());                                       \
    } while (0)
#define CHECK_OK(expr) CHECK_RESULT(expr, XGD_OK)
/* Stops the test when a precondition fails (further checks would only cascade). */
#define REQUIRE(cond)                                                                \
    do {                                                                             \
        if (!(cond)) {                                                               \
            xgdt_fail_at(t, __FILE__, __LINE__, "REQUIRE(%s)", #cond);                \
            return;                                                                  \
        }                                                                            \
    } while (0)
#define REQUIRE_OK(expr)                                                             \
    do {                                                                             \
        xgd_result xgdt_r_ = (expr);                                                 \
        if (xgdt_r_ != XGD_OK) {                                                     \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s returned %s (%s)", #expr,          \
                         xgd_result_name(xgdt_r_), xgdt_last_message());             \
            return;                                                                  \
        }                                                                            \
    } while (0)

/* Marks the test not supported on this renderer (exit 77) with the reason; the caller returns. */
void xgdt_not_supported(xgdt_ctx *t, const char *reason);
/* Marks a registered known gap: failures are then reported as XFAIL (exit 0); if the test
 * passes anyway, that is reported as an unexpected pass (exit 1). */
void xgdt_expect_failure(xgdt_ctx *t, const char *reason);

/* The message of the device last created through xgdt_device (or of xgd_device_create). */
const char *xgdt_last_message(void);

/*
 * Creates a headless device on the test's renderer with a log callback that keeps the
 * messages. desc may be NULL; its renderer field is overwritten and pp.headless forced.
 * Width/height zero default to 64x64 (not XNA's 800x480) to keep tests fast.
 */
xgd_device *xgdt_device(xgdt_ctx *t, const xgd_device_desc *desc);
/* The same on a named renderer, width x height (0: 64): for unit tests of one renderer's
 * internals. NOT SUPPORTED (the caller returns on NULL) where that renderer has no device. */
xgd_device *xgdt_device_on(xgdt_ctx *t, xgd_renderer_kind renderer, int width, int height);
/* Number of log messages (errors) seen since the device was created through xgdt_device. */
int xgdt_log_count(void);

/*
 * Compares RGBA8 images. A pixel matches when every channel differs by at most `tolerance`.
 * On mismatch: prints the first bad pixel (x, y, actual, expected), the count of bad pixels,
 * and writes <out>/<test>.<renderer>.<label>.actual.png / .expected.png, where <out> is
 * $XGD_TEST_OUTPUT or "test-output" in the working directory. Returns true on match.
 * With XGD_TEST_SAVE_IMAGES=1 in the environment the two PNGs are written on a match too.
 * With XGD_TEST_RESULTS=1 (as ctest runs the conformance cells) they are written too, and each
 * fixture leaves <out>/<fixture>.<renderer>.result (status, reason, the images it saved) for
 * xgd-conformance --from, which builds its matrix, report and agreement check from them.
 */
bool xgdt_compare_rgba(xgdt_ctx *t, const char *label, const uint8_t *actual,
                       const uint8_t *expected, int width, int height, int tolerance);
/* Reads the whole back buffer (physical == logical in tests unless they set a mode). *rgba is
 * malloc'd; free with free(). */
bool xgdt_read_back_buffer(xgdt_ctx *t, xgd_device *dev, int width, int height, uint8_t **rgba);
/* Reads level 0 (face) of a Color texture or render target. */
bool xgdt_read_texture(xgdt_ctx *t, xgd_texture *tex, xgd_cube_map_face face, int level,
                       int width, int height, uint8_t **rgba);
/* A w x h Color texture filled with one colour, or from an RGBA8 image. */
xgd_texture *xgdt_solid_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, xgd_color c);
xgd_texture *xgdt_image_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, const uint8_t *rgba);

#endif /* XGD_TEST_HARNESS_H */
