/*
 * fuzz_fx.c - libFuzzer target for the effect loader: the input is an fx_2_0 container (or
 * what is left of one), given to xgd_effect_create on a software device.
 *
 * Checked, with abort() on a violation:
 *   - a refusal is INVALID_ARGUMENT, NOT_SUPPORTED or OUT_OF_MEMORY with a message, leaves
 *     *out NULL;
 *   - an accepted effect answers its reflection: every technique and pass has info, every
 *     parameter, element, member and annotation has info, and the typed getters that match a
 *     parameter's type succeed; a clone of it loads too; applying pass 0 answers a named code
 *     (the software renderer runs no effects loaded from bytes yet: NOT_SUPPORTED).
 * The corpus (fuzz/corpus/fx/) is written by the project's own fx writer (tests/fx_writer.c,
 * test unit.effect_fx_write_corpus with XGD_FX_CORPUS_DIR set).
 */
#include <xgd.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static xgd_device *g_dev;

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xgd effect contract violation: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static void quiet(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user;
    (void)level;
    (void)code;
    (void)message;
}

static void walk_parameter(xgd_effect *e, xgd_effect_parameter p, int depth)
{
    xgd_effect_parameter_info info;
    if (xgd_effect_parameter_get_info(e, p, &info) != XGD_OK) violation("parameter %d has no info", (int)p.id);
    if (info.name == NULL || info.semantic == NULL) violation("parameter %d has a NULL name", (int)p.id);
    if (depth > 8) return;
    for (int i = 0; i < info.element_count && i < 4; i++) {
        xgd_effect_parameter c;
        if (xgd_effect_parameter_get_element(e, p, i, &c) != XGD_OK) violation("element %d missing", i);
        walk_parameter(e, c, depth + 1);
    }
    for (int i = 0; i < info.member_count && info.element_count == 0; i++) {
        xgd_effect_parameter c;
        if (xgd_effect_parameter_get_member(e, p, i, &c) != XGD_OK) violation("member %d missing", i);
        walk_parameter(e, c, depth + 1);
    }
    for (int i = 0; i < info.annotation_count; i++) {
        xgd_effect_parameter c;
        if (xgd_effect_parameter_get_annotation(e, p, i, &c) != XGD_OK) violation("annotation %d missing", i);
        walk_parameter(e, c, depth + 1);
    }
    int total = (info.element_count > 0 ? info.element_count : 1) * info.rows * info.columns;
    if (info.parameter_class <= XGD_EFFECT_PARAMETER_CLASS_MATRIX && total > 0 && total <= 4096) {
        float *f = malloc(sizeof(float) * (size_t)total);
        int32_t *iv = malloc(sizeof(int32_t) * (size_t)total);
        xgd_result r = XGD_OK;
        if (info.parameter_type == XGD_EFFECT_PARAMETER_TYPE_SINGLE) r = xgd_effect_parameter_get_floats(e, p, f, total);
        if (info.parameter_type == XGD_EFFECT_PARAMETER_TYPE_INT32) r = xgd_effect_parameter_get_ints(e, p, iv, total);
        if (r != XGD_OK && r != XGD_ERROR_NOT_SUPPORTED) violation("reading parameter %d gave %s", (int)p.id, xgd_result_name(r));
        if (r == XGD_OK && !info.annotation && info.parameter_type == XGD_EFFECT_PARAMETER_TYPE_SINGLE) {
            r = xgd_effect_parameter_set_floats(e, p, f, total);
            if (r != XGD_OK) violation("writing back parameter %d gave %s", (int)p.id, xgd_result_name(r));
        }
        free(f);
        free(iv);
    }
    if (info.parameter_type == XGD_EFFECT_PARAMETER_TYPE_STRING && info.element_count == 0) {
        const char *s = NULL;
        if (xgd_effect_parameter_get_string(e, p, &s) != XGD_OK || s == NULL) violation("string parameter unreadable");
    }
}

static void walk(xgd_effect *e)
{
    int techniques = 0, params = 0;
    if (xgd_effect_get_technique_count(e, &techniques) != XGD_OK || techniques < 1) violation("no techniques");
    for (int t = 0; t < techniques; t++) {
        xgd_effect_technique_info ti;
        if (xgd_effect_get_technique_info(e, t, &ti) != XGD_OK || ti.name == NULL) violation("technique %d", t);
        for (int a = 0; a < ti.annotation_count; a++) {
            xgd_effect_parameter p;
            if (xgd_effect_technique_get_annotation(e, t, a, &p) != XGD_OK) violation("technique annotation");
            walk_parameter(e, p, 0);
        }
        for (int p = 0; p < ti.pass_count; p++) {
            xgd_effect_pass_info pi;
            if (xgd_effect_get_pass_info(e, t, p, &pi) != XGD_OK || pi.name == NULL) violation("pass %d", p);
            for (int a = 0; a < pi.annotation_count; a++) {
                xgd_effect_parameter ap;
                if (xgd_effect_pass_get_annotation(e, t, p, a, &ap) != XGD_OK) violation("pass annotation");
                walk_parameter(e, ap, 0);
            }
        }
    }
    if (xgd_effect_get_parameter_count(e, &params) != XGD_OK) violation("parameter count");
    for (int i = 0; i < params; i++) {
        xgd_effect_parameter p;
        if (xgd_effect_get_parameter(e, i, &p) != XGD_OK) violation("parameter %d", i);
        walk_parameter(e, p, 0);
    }
    xgd_result r = xgd_effect_pass_apply(e, 0, 0);
    if (r != XGD_OK && r != XGD_ERROR_NOT_SUPPORTED && r != XGD_ERROR_INVALID_OPERATION)
        violation("apply gave %s", xgd_result_name(r));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (g_dev == NULL) {
        xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
        dd.renderer = XGD_RENDERER_SOFTWARE;
        dd.pp.back_buffer_width = 16;
        dd.pp.back_buffer_height = 16;
        dd.pp.headless = true;
        dd.log = quiet;
        if (xgd_device_create(&dd, &g_dev) != XGD_OK) abort();
    }
    xgd_effect *e = (xgd_effect *)1;
    xgd_result r = xgd_effect_create(g_dev, data, size, &e);
    if (r != XGD_OK) {
        if (e != NULL) violation("a refused effect left *out set");
        if (r != XGD_ERROR_INVALID_ARGUMENT && r != XGD_ERROR_NOT_SUPPORTED && r != XGD_ERROR_OUT_OF_MEMORY)
            violation("refusal code %s", xgd_result_name(r));
        if (xgd_device_last_error(g_dev)[0] == '\0') violation("a refusal without a message");
        return 0;
    }
    walk(e);
    xgd_effect *c = NULL;
    r = xgd_effect_clone(e, &c);
    if (r != XGD_OK) violation("the clone of an accepted effect failed: %s", xgd_result_name(r));
    walk(c);
    xgd_effect_destroy(c);
    xgd_effect_destroy(e);
    return 0;
}
