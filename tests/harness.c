/*
 * harness.c - the xgd-tests runner: registration table, command line, result policy, and the
 * helpers tests share (devices with a captured log, image comparison, readback).
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

typedef struct xgdt_entry {
    const char *name;
    xgdt_fn fn;
    bool fixture;
    const char *file;
} xgdt_entry;

/* Filled by constructors before main runs, so it cannot depend on anything main sets up. */
static xgdt_entry *g_tests;
static size_t g_test_count, g_test_capacity;
static bool g_registration_failed;

/* Per-test state that does not fit in xgdt_ctx (the header is the contract). */
static char g_last_message[1024];
static int g_log_count;
/* Vulkan validation-layer and D3D12 info-queue messages seen during the current test (issues
   4 and 5: any fails it). */
static int g_validation_count;
static int g_failures_before_not_supported = -1;

/* XGD_TEST_RESULTS=1: each fixture leaves <out>/<fixture>.<renderer>.result (its status, the
   reason and the images it saved), so xgd-conformance --from reads the suite's outcome instead
   of running every cell again. The first failure's text is the reason of a failed cell. */
static bool g_record_results;
static char g_first_failure[512];
static char **g_saved_images;
static size_t g_saved_count, g_saved_capacity;
static const char *g_running_fixture, *g_running_renderer;

static void write_result(const char *fixture, const char *renderer, const char *status,
                         const char *reason);

void xgdt_register(const char *name, xgdt_fn fn, bool fixture, const char *file)
{
    if (g_test_count == g_test_capacity) {
        size_t cap = g_test_capacity ? g_test_capacity * 2 : 64;
        xgdt_entry *grown = realloc(g_tests, cap * sizeof *grown);
        if (!grown) {
            g_registration_failed = true;
            return;
        }
        g_tests = grown;
        g_test_capacity = cap;
    }
    g_tests[g_test_count++] = (xgdt_entry){ name, fn, fixture, file };
}

void xgdt_fail_at(xgdt_ctx *t, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    t->failures++;
    fprintf(stdout, "%s:%d: %s [%s]: ", file, line, t->name, t->renderer_name);
    va_start(ap, fmt);
    vfprintf(stdout, fmt, ap);
    va_end(ap);
    fputc('\n', stdout);
    fflush(stdout);
    if (g_first_failure[0] == '\0') {
        int n = snprintf(g_first_failure, sizeof g_first_failure, "%s:%d: ", file, line);
        if (n > 0 && (size_t)n < sizeof g_first_failure) {
            va_start(ap, fmt);
            vsnprintf(g_first_failure + n, sizeof g_first_failure - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
}

void xgdt_not_supported(xgdt_ctx *t, const char *reason)
{
    if (!t->not_supported) g_failures_before_not_supported = t->failures;
    t->not_supported = true;
    t->not_supported_reason = reason ? reason : "(no reason given)";
}

void xgdt_expect_failure(xgdt_ctx *t, const char *reason)
{
    t->expected_failure = true;
    t->expected_failure_reason = reason ? reason : "(no reason given)";
}

/* ---- devices and their log ------------------------------------------------------------------ */

static void keep_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user;
    (void)code;
    /* Warnings go to the output for context but do not replace the error a CHECK reports. */
    if (level != XGD_LOG_ERROR) {
        if (message != NULL && (strncmp(message, "vulkan validation:", 18) == 0 ||
                                strncmp(message, "d3d12 debug layer:", 18) == 0))
            g_validation_count++;
        fprintf(stdout, "  [xgd %s] %s\n", level == XGD_LOG_WARNING ? "warning" : "info",
                message ? message : "");
        return;
    }
    g_log_count++;
    snprintf(g_last_message, sizeof g_last_message, "%s", message ? message : "");
}

const char *xgdt_last_message(void)
{
    if (g_last_message[0]) return g_last_message;
    return xgd_device_last_error(NULL);
}

int xgdt_log_count(void)
{
    return g_log_count;
}

static xgd_device *device_on(xgdt_ctx *t, const xgd_device_desc *desc, xgd_renderer_kind renderer,
                             const char *renderer_name)
{
    static const xgd_device_desc defaults = XGD_DEVICE_DESC_DEFAULT;
    xgd_device_desc dd = desc != NULL ? *desc : defaults;
    dd.renderer = renderer;
    dd.pp.headless = true;
    if (dd.pp.back_buffer_width == 0) dd.pp.back_buffer_width = 64;
    if (dd.pp.back_buffer_height == 0) dd.pp.back_buffer_height = 64;
    dd.log = keep_log;
    dd.log_user = NULL;

    g_log_count = 0;
    g_last_message[0] = '\0';

    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r == XGD_OK) return dev;

    snprintf(g_last_message, sizeof g_last_message, "%s", xgd_device_last_error(NULL));
    /* A GPU renderer without a usable device is an environment limit, not a wrong answer; the
       reference renderer has no such excuse. */
    if (renderer != XGD_RENDERER_SOFTWARE &&
        (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED)) {
        static char reason[1100];
        snprintf(reason, sizeof reason, "no %s device: %s", renderer_name, g_last_message);
        xgdt_not_supported(t, reason);
        return NULL;
    }
    xgdt_fail_at(t, __FILE__, __LINE__, "xgd_device_create returned %s (%s)",
                 xgd_result_name(r), g_last_message);
    return NULL;
}

xgd_device *xgdt_device(xgdt_ctx *t, const xgd_device_desc *desc)
{
    return device_on(t, desc, t->renderer, t->renderer_name);
}

xgd_device *xgdt_device_on(xgdt_ctx *t, xgd_renderer_kind renderer, int width, int height)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = width;
    dd.pp.back_buffer_height = height;
    const char *name = renderer == XGD_RENDERER_VULKAN  ? "vulkan"
                       : renderer == XGD_RENDERER_D3D12 ? "d3d12"
                                                        : "software";
    return device_on(t, &dd, renderer, name);
}

/* ---- images --------------------------------------------------------------------------------- */

static const char *output_dir(void)
{
    const char *dir = getenv("XGD_TEST_OUTPUT");
    return dir && dir[0] ? dir : "test-output";
}

/* mkdir -p: the output directory may be nested and may not exist yet. */
static void make_dirs(const char *path)
{
    char buf[1024];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] != '/') continue;
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return;
        buf[i] = '/';
    }
    (void)mkdir(buf, 0777);
}

static bool env_flag(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/* Remembers an image of the running fixture for its result file (file name only: the result
   file lives in the same folder). */
static void note_saved_image(const char *path)
{
    if (!g_record_results) return;
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    if (g_saved_count == g_saved_capacity) {
        size_t cap = g_saved_capacity ? g_saved_capacity * 2 : 16;
        char **grown = realloc(g_saved_images, cap * sizeof *grown);
        if (!grown) return;
        g_saved_images = grown;
        g_saved_capacity = cap;
    }
    char *copy = malloc(strlen(base) + 1);
    if (!copy) return;
    strcpy(copy, base);
    g_saved_images[g_saved_count++] = copy;
    /* kept current while the fixture runs, so a cell that crashes later still names its
       images (the agreement check counts them as skipped, not as missing) */
    if (g_running_fixture != NULL)
        write_result(g_running_fixture, g_running_renderer, "running", NULL);
}

static void forget_saved_images(void)
{
    for (size_t i = 0; i < g_saved_count; i++) free(g_saved_images[i]);
    g_saved_count = 0;
}

/*
 * <out>/<fixture>.<renderer>.result, one "key value" per line:
 *   status pass|FAIL|XFAIL|n/s|running   ("running" stays when the cell crashed or was killed)
 *   reason TEXT                          (XFAIL / not-supported reason, or the first failure)
 *   image FILE                           (each PNG the fixture saved, in the same folder)
 * Written to a temporary name and renamed, so a reader never sees half a file.
 */
static void write_result(const char *fixture, const char *renderer, const char *status,
                         const char *reason)
{
    if (!g_record_results) return;
    const char *dir = output_dir();
    char path[2048], tmp[2100];
    make_dirs(dir);
    snprintf(path, sizeof path, "%s/%s.%s.result", dir, fixture, renderer);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        fprintf(stdout, "  could not write %s: %s\n", tmp, strerror(errno));
        return;
    }
    fprintf(f, "status %s\n", status);
    if (reason != NULL && reason[0] != '\0') {
        fputs("reason ", f);
        for (const char *c = reason; *c; c++) fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
        fputc('\n', f);
    }
    for (size_t i = 0; i < g_saved_count; i++) fprintf(f, "image %s\n", g_saved_images[i]);
    bool ok = fclose(f) == 0;
    if (!ok || rename(tmp, path) != 0) {
        fprintf(stdout, "  could not write %s: %s\n", path, strerror(errno));
        remove(tmp);
    }
}

static void save_image(xgdt_ctx *t, const char *label, const char *kind, const uint8_t *rgba,
                       int width, int height)
{
    const char *dir = output_dir();
    char path[2048];
    make_dirs(dir);
    snprintf(path, sizeof path, "%s/%s.%s.%s.%s.png", dir, t->name, t->renderer_name, label,
             kind);
    xgd_result r = xgd_image_save_png(path, width, height, rgba);
    if (r == XGD_OK) {
        fprintf(stdout, "  wrote %s\n", path);
        note_saved_image(path);
    } else
        fprintf(stdout, "  could not write %s: %s\n", path, xgd_result_name(r));
}

bool xgdt_compare_rgba(xgdt_ctx *t, const char *label, const uint8_t *actual,
                       const uint8_t *expected, int width, int height, int tolerance)
{
    if (!actual || !expected || width <= 0 || height <= 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "%s: compare called without images (%dx%d)", label,
                     width, height);
        return false;
    }
    long bad = 0;
    int first_x = -1, first_y = -1;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            const uint8_t *a = actual + ((size_t)y * (size_t)width + (size_t)x) * 4;
            const uint8_t *e = expected + ((size_t)y * (size_t)width + (size_t)x) * 4;
            bool ok = true;
            for (int c = 0; c < 4; c++) {
                int d = (int)a[c] - (int)e[c];
                if (d > tolerance || -d > tolerance) ok = false;
            }
            if (!ok) {
                if (bad == 0) {
                    first_x = x;
                    first_y = y;
                }
                bad++;
            }
        }
    }
    if (bad == 0) {
        /* XGD_TEST_SAVE_IMAGES=1 keeps every comparison, so a report (xgd-conformance --html)
           can show passing images too; so does XGD_TEST_RESULTS=1, whose images the
           cross-renderer agreement check compares. */
        if (g_record_results || env_flag("XGD_TEST_SAVE_IMAGES")) {
            save_image(t, label, "actual", actual, width, height);
            save_image(t, label, "expected", expected, width, height);
            fflush(stdout);
        }
        return true;
    }

    const uint8_t *a = actual + ((size_t)first_y * (size_t)width + (size_t)first_x) * 4;
    const uint8_t *e = expected + ((size_t)first_y * (size_t)width + (size_t)first_x) * 4;
    t->failures++;
    if (g_first_failure[0] == '\0')
        snprintf(g_first_failure, sizeof g_first_failure,
                 "image '%s' (%dx%d) differs: first bad pixel (%d, %d), tolerance %d, %ld pixels",
                 label, width, height, first_x, first_y, tolerance, bad);
    fprintf(stdout,
            "%s [%s]: image '%s' (%dx%d) differs: first bad pixel (%d, %d) is (%u, %u, %u, %u), "
            "expected (%u, %u, %u, %u), tolerance %d; %ld of %ld pixels differ\n",
            t->name, t->renderer_name, label, width, height, first_x, first_y, a[0], a[1], a[2],
            a[3], e[0], e[1], e[2], e[3], tolerance, bad, (long)width * height);
    save_image(t, label, "actual", actual, width, height);
    save_image(t, label, "expected", expected, width, height);
    fflush(stdout);
    return false;
}

bool xgdt_read_back_buffer(xgdt_ctx *t, xgd_device *dev, int width, int height, uint8_t **rgba)
{
    *rgba = NULL;
    if (width <= 0 || height <= 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "read_back_buffer: bad size %dx%d", width, height);
        return false;
    }
    size_t size = (size_t)width * (size_t)height * 4;
    uint8_t *buf = malloc(size);
    if (!buf) {
        xgdt_fail_at(t, __FILE__, __LINE__, "read_back_buffer: out of memory");
        return false;
    }
    xgd_rect rect = { 0, 0, width, height };
    xgd_result r = xgd_get_back_buffer_data(dev, &rect, buf, size);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_get_back_buffer_data returned %s (%s)",
                     xgd_result_name(r), xgd_device_last_error(dev));
        free(buf);
        return false;
    }
    *rgba = buf;
    return true;
}

bool xgdt_read_texture(xgdt_ctx *t, xgd_texture *tex, xgd_cube_map_face face, int level,
                       int width, int height, uint8_t **rgba)
{
    *rgba = NULL;
    if (width <= 0 || height <= 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "read_texture: bad size %dx%d", width, height);
        return false;
    }
    size_t size = (size_t)width * (size_t)height * 4;
    uint8_t *buf = malloc(size);
    if (!buf) {
        xgdt_fail_at(t, __FILE__, __LINE__, "read_texture: out of memory");
        return false;
    }
    xgd_result r = xgd_texture_get_data(tex, level, face, NULL, buf, size);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__,
                     "xgd_texture_get_data(face %d, level %d) returned %s (%s)", (int)face, level,
                     xgd_result_name(r), xgdt_last_message());
        free(buf);
        return false;
    }
    *rgba = buf;
    return true;
}

xgd_texture *xgdt_image_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, const uint8_t *rgba)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc desc = { .width = w, .height = h, .format = XGD_SURFACE_FORMAT_COLOR };
    xgd_result r = xgd_texture2d_create(dev, &desc, &tex);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_texture2d_create(%dx%d) returned %s (%s)", w, h,
                     xgd_result_name(r), xgd_device_last_error(dev));
        return NULL;
    }
    r = xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, rgba,
                             (size_t)w * (size_t)h * 4);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_texture_set_data returned %s (%s)",
                     xgd_result_name(r), xgd_device_last_error(dev));
        xgd_texture_destroy(tex);
        return NULL;
    }
    return tex;
}

xgd_texture *xgdt_solid_texture(xgdt_ctx *t, xgd_device *dev, int w, int h, xgd_color c)
{
    if (w <= 0 || h <= 0) {
        xgdt_fail_at(t, __FILE__, __LINE__, "solid_texture: bad size %dx%d", w, h);
        return NULL;
    }
    size_t n = (size_t)w * (size_t)h;
    uint8_t *rgba = malloc(n * 4);
    if (!rgba) {
        xgdt_fail_at(t, __FILE__, __LINE__, "solid_texture: out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        rgba[i * 4 + 0] = c.r;
        rgba[i * 4 + 1] = c.g;
        rgba[i * 4 + 2] = c.b;
        rgba[i * 4 + 3] = c.a;
    }
    xgd_texture *tex = xgdt_image_texture(t, dev, w, h, rgba);
    free(rgba);
    return tex;
}

/* ---- runner --------------------------------------------------------------------------------- */

enum { EXIT_PASS = 0, EXIT_FAIL = 1, EXIT_NOT_SUPPORTED = 77 };

static const xgdt_entry *find_test(const char *name)
{
    for (size_t i = 0; i < g_test_count; i++)
        if (strcmp(g_tests[i].name, name) == 0) return &g_tests[i];
    return NULL;
}

static bool renderer_compiled(const char *name)
{
    const char *const *list = xgd_renderers_compiled();
    for (size_t i = 0; list && list[i]; i++)
        if (strcmp(list[i], name) == 0) return true;
    return false;
}

/* Runs one test and applies the result policy of harness.h. */
static int run_one(const xgdt_entry *e, xgd_renderer_kind kind, const char *renderer_name)
{
    xgdt_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.name = e->name;
    ctx.renderer = e->fixture ? kind : XGD_RENDERER_SOFTWARE;
    ctx.renderer_name = e->fixture ? renderer_name : "software";
    g_last_message[0] = '\0';
    g_log_count = 0;
    g_failures_before_not_supported = -1;
    g_validation_count = 0;
    g_first_failure[0] = '\0';
    forget_saved_images();

    fprintf(stdout, "RUN %s%s [%s] (%s)\n", e->fixture ? "fixture " : "", e->name,
            ctx.renderer_name, e->file);
    fflush(stdout);
    if (e->fixture) {
        g_running_fixture = e->name;
        g_running_renderer = ctx.renderer_name;
        write_result(e->name, ctx.renderer_name, "running", NULL);
    }
    e->fn(&ctx);
    g_running_fixture = NULL;
    if (g_validation_count > 0)
        xgdt_fail_at(&ctx, __FILE__, __LINE__, "%d validation / debug-layer message%s (see the warnings above)",
                     g_validation_count, g_validation_count == 1 ? "" : "s");

    int rc;
    const char *status, *reason = NULL;
    /* Failures recorded after a test declared itself unsupported are the cascade of the
       missing feature (e.g. REQUIRE(dev) after xgdt_device found no GPU); earlier ones count. */
    if (ctx.not_supported && g_failures_before_not_supported == 0) {
        fprintf(stdout, "NOT SUPPORTED: %s\n", ctx.not_supported_reason);
        rc = EXIT_NOT_SUPPORTED;
        status = "n/s";
        reason = ctx.not_supported_reason;
    } else if (ctx.expected_failure) {
        if (ctx.failures > 0) {
            fprintf(stdout, "XFAIL: %s\n", ctx.expected_failure_reason);
            rc = EXIT_PASS;
            status = "XFAIL";
            reason = ctx.expected_failure_reason;
        } else {
            fprintf(stdout, "UNEXPECTED PASS: %s is registered as a known gap (%s); remove the "
                    "expected failure\n", e->name, ctx.expected_failure_reason);
            rc = EXIT_FAIL;
            status = "FAIL";
            reason = "unexpected pass of a registered known gap";
        }
    } else if (ctx.failures > 0) {
        fprintf(stdout, "FAIL %s [%s]: %d failure%s\n", e->name, ctx.renderer_name,
                ctx.failures, ctx.failures == 1 ? "" : "s");
        rc = EXIT_FAIL;
        status = "FAIL";
        reason = g_first_failure[0] ? g_first_failure : "failed (see the log)";
    } else {
        fprintf(stdout, "PASS %s [%s]\n", e->name, ctx.renderer_name);
        rc = EXIT_PASS;
        status = "pass";
    }
    fflush(stdout);
    if (e->fixture) write_result(e->name, ctx.renderer_name, status, reason);
    forget_saved_images();
    return rc;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xgd-tests [--renderer NAME] [--list] [--list-fixtures] [TEST...]\n"
            "  --renderer NAME   renderer for fixtures (default software); compiled:");
    const char *const *list = xgd_renderers_compiled();
    for (size_t i = 0; list && list[i]; i++) fprintf(f, " %s", list[i]);
    fprintf(f,
            "\n  --list            print the unit tests, one per line\n"
            "  --list-fixtures   print the conformance fixtures, one per line\n"
            "  TEST...           run these tests (none: every unit test and fixture)\n"
            "exit: 0 pass or XFAIL, 1 failure, 77 not supported\n");
}

int main(int argc, char **argv)
{
    const char *renderer_name = "software";
    bool list_units = false, list_fixtures = false;
    int first_name = argc;

    if (g_registration_failed) {
        fprintf(stderr, "xgd-tests: out of memory while registering tests\n");
        return EXIT_FAIL;
    }
    for (size_t i = 0; i < g_test_count; i++) {
        for (size_t j = i + 1; j < g_test_count; j++) {
            if (strcmp(g_tests[i].name, g_tests[j].name) == 0) {
                fprintf(stderr, "xgd-tests: test '%s' is defined twice (%s, %s)\n",
                        g_tests[i].name, g_tests[i].file, g_tests[j].file);
                return EXIT_FAIL;
            }
        }
    }

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--renderer") == 0) {
            if (i + 1 >= argc) {
                usage(stderr);
                return EXIT_FAIL;
            }
            renderer_name = argv[++i];
        } else if (strncmp(argv[i], "--renderer=", 11) == 0) {
            renderer_name = argv[i] + 11;
        } else if (strcmp(argv[i], "--list") == 0) {
            list_units = true;
        } else if (strcmp(argv[i], "--list-fixtures") == 0) {
            list_fixtures = true;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return EXIT_PASS;
        } else if (strcmp(argv[i], "--") == 0) {
            first_name = i + 1;
            break;
        } else if (argv[i][0] == '-') {
            fprintf(stderr, "xgd-tests: unknown option %s\n", argv[i]);
            usage(stderr);
            return EXIT_FAIL;
        } else {
            first_name = i;
            break;
        }
    }

    if (list_units || list_fixtures) {
        for (size_t i = 0; i < g_test_count; i++)
            if (g_tests[i].fixture ? list_fixtures : list_units) printf("%s\n", g_tests[i].name);
        return EXIT_PASS;
    }

    /* Names come after the options; options after a name are not accepted, so a test can
       never be mistaken for a flag. */
    for (int i = first_name; i < argc; i++) {
        if (!find_test(argv[i])) {
            fprintf(stderr, "xgd-tests: no test named '%s' (see --list, --list-fixtures)\n",
                    argv[i]);
            return EXIT_FAIL;
        }
    }

    xgd_renderer_kind kind = xgd_renderer_from_name(renderer_name);
    if (kind == XGD_RENDERER_COUNT || kind == XGD_RENDERER_AUTO) {
        fprintf(stderr, "xgd-tests: unknown renderer '%s'\n", renderer_name);
        return EXIT_FAIL;
    }
    bool compiled = renderer_compiled(renderer_name);
    g_record_results = env_flag("XGD_TEST_RESULTS");

    int passed = 0, failed = 0, skipped = 0;
    size_t total = first_name < argc ? (size_t)(argc - first_name) : g_test_count;
    for (size_t k = 0; k < total; k++) {
        const xgdt_entry *e = first_name < argc ? find_test(argv[first_name + (int)k])
                                                : &g_tests[k];
        int rc;
        if (e->fixture && !compiled) {
            fprintf(stdout, "RUN fixture %s [%s]\nNOT SUPPORTED: renderer '%s' is not compiled "
                    "into this build\n", e->name, renderer_name, renderer_name);
            forget_saved_images();
            write_result(e->name, renderer_name, "n/s", "renderer not compiled into this build");
            rc = EXIT_NOT_SUPPORTED;
        } else {
            rc = run_one(e, kind, renderer_name);
        }
        if (rc == EXIT_PASS)
            passed++;
        else if (rc == EXIT_NOT_SUPPORTED)
            skipped++;
        else
            failed++;
    }
    if (total != 1)
        fprintf(stdout, "%d passed, %d failed, %d not supported\n", passed, failed, skipped);
    free(g_tests);
    g_tests = NULL;
    forget_saved_images();
    free(g_saved_images);
    g_saved_images = NULL;

    if (failed) return EXIT_FAIL;
    if (skipped && !passed) return EXIT_NOT_SUPPORTED;
    return EXIT_PASS;
}
