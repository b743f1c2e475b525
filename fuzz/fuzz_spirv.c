/*
 * fuzz_spirv.c - libFuzzer target for the software renderer's SPIR-V executor
 * (src/renderers/software/sw_spirv.c): the input is a module's bytes (little-endian words).
 *
 * Checked, with abort() on a violation:
 *   - a refusal is INVALID_ARGUMENT, NOT_SUPPORTED or OUT_OF_MEMORY with a message and no
 *     module;
 *   - an accepted module reflects within its limits (interface registers inside the state),
 *     and executes a full quad with every uniform block bound (shorter than declared, so the
 *     out-of-range reads are exercised) and a sampler bound, within the step budget;
 *   - a module matched as the transform shape (xgdi_sw_spirv_match_transform, vertex or pixel)
 *     gives, through xgdi_sw_spirv_run_transform on another state with the same uniforms and
 *     inputs, the executor's output words (a NaN matching any NaN: C fixes no payload).
 */
#include "sw_spirv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xgd SPIR-V contract violation: ");
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static void sampler(void *user, const xgdi_sw_spirv_sample_request *q, float out[4][4])
{
    (void)user;
    for (int l = 0; l < 4; l++) {
        out[l][0] = q->coord[l][0];
        out[l][1] = q->coord[l][1] + q->deriv[l][0];
        out[l][2] = q->lod[l] + q->lod_bias[l];
        out[l][3] = (float)(q->image + q->sampler);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    uint32_t *w = malloc(n * 4 + 4);
    if (w == NULL) return 0;
    if (n) memcpy(w, data, n * 4);
    char err[256] = "";
    xgdi_sw_spirv_module *m = (xgdi_sw_spirv_module *)(uintptr_t)1;
    xgd_result r = xgdi_sw_spirv_load(w, n, NULL, &m, err, sizeof err);
    if (r != XGD_OK) {
        if (r != XGD_ERROR_INVALID_ARGUMENT && r != XGD_ERROR_NOT_SUPPORTED &&
            r != XGD_ERROR_OUT_OF_MEMORY)
            violation("load returned %d", (int)r);
        if (m != NULL) violation("a refused module was returned");
        if (err[0] == 0) violation("refusal %d without a message", (int)r);
        free(w);
        return 0;
    }
    const xgdi_sw_spirv_reflection *rf = xgdi_sw_spirv_reflect(m);
    if (rf->io_count < 0 || rf->io_count > XGDI_SW_SPIRV_MAX_INTERFACE ||
        rf->uniform_block_count > XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS ||
        rf->resource_count > XGDI_SW_SPIRV_MAX_RESOURCES)
        violation("reflection counts out of range");
    for (int i = 0; i < rf->io_count; i++)
        if ((uint64_t)rf->io[i].reg + (uint64_t)rf->io[i].components * 4 > rf->state_words)
            violation("interface %d outside the state", i);
    static xgdi_sw_spirv_transform shape;
    bool transform = xgdi_sw_spirv_match_transform(m, &shape);
    xgdi_sw_spirv_state *s, *t = NULL;
    if (xgdi_sw_spirv_state_create(m, &s) == XGD_OK) {
        if (transform && xgdi_sw_spirv_state_create(m, &t) != XGD_OK) t = NULL;
        static float ubo[64];
        for (int i = 0; i < 64; i++) ubo[i] = (float)i * 0.25f - 3.0f;
        ubo[5] = -0.0f;
        for (int i = 0; i < rf->uniform_block_count; i++) {
            xgdi_sw_spirv_bind_uniform(s, i, ubo, (size_t)(i * 37 + 72) % sizeof ubo);
            if (t) xgdi_sw_spirv_bind_uniform(t, i, ubo, (size_t)(i * 37 + 72) % sizeof ubo);
        }
        xgdi_sw_spirv_bind_sampler(s, sampler, NULL);
        for (int i = 0; i < rf->io_count; i++) {
            if (rf->io[i].output) continue;
            for (int c = 0; c < rf->io[i].components && c < 16; c++) {
                float *p = xgdi_sw_spirv_reg(s, rf->io[i].reg, c);
                for (int l = 0; l < 4; l++) p[l] = (float)(c * 4 + l) * 0.375f - 2.0f;
                if (t) memcpy(xgdi_sw_spirv_reg(t, rf->io[i].reg, c), p, 4 * sizeof *p);
            }
        }
        bool exhausted;
        unsigned alive = xgdi_sw_spirv_execute(s, 0xf, &exhausted);
        if (alive & ~0xfu) violation("alive mask 0x%x", alive);
        if (t) {
            xgdi_sw_spirv_run_transform(t, &shape);
            for (int i = 0; i < rf->io_count; i++) {
                if (!rf->io[i].output) continue;
                for (int c = 0; c < rf->io[i].components; c++) {
                    const float *a = xgdi_sw_spirv_reg(s, rf->io[i].reg, c);
                    const float *b = xgdi_sw_spirv_reg(t, rf->io[i].reg, c);
                    for (int l = 0; l < 4; l++)
                        if ((a[l] == a[l] || b[l] == b[l]) && memcmp(&a[l], &b[l], 4) != 0)
                            violation("transform shape output %d.%d lane %d: %a, executor %a", i,
                                      c, l, (double)b[l], (double)a[l]);
                }
            }
            xgdi_sw_spirv_state_free(t);
        }
        xgdi_sw_spirv_state_free(s);
    }
    xgdi_sw_spirv_free(m);
    free(w);
    return 0;
}
