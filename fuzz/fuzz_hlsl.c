/*
 * fuzz_hlsl.c - libFuzzer target: the input is an HLSL effect source for the technique/pass
 * scanner (src/shader/hlsl_fx.h). The compiler itself (glslang) is not fuzzed here: it is a
 * third-party front end, and each compile takes milliseconds.
 *
 * Checked after every scan (a violation aborts):
 *   - success: the blanked copy has the input's size and NUL terminator, every byte is the
 *     input's own or a blank, every newline is kept, and every technique has passes, each pass
 *     a shader with a known stage;
 *     declared sampler states and annotations are in range;
 *   - failure: a named code, a "name:line:" message, and a zeroed result.
 */
#include "hlsl_fx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void violation(const char *what)
{
    fprintf(stderr, "hlsl scanner contract violation: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xgdi_hlsl_fx fx;
    char msg[256];
    xgd_result r = xgdi_hlsl_fx_scan((const char *)data, size, "fuzz.fx", &fx, msg, sizeof msg);
    if (r == XGD_OK) {
        if (fx.source == NULL || fx.source_size != size || fx.source[size] != '\0')
            violation("the blanked copy has another size");
        for (size_t i = 0; i < size; i++) {
            char in = (char)data[i];
            if (fx.source[i] != in && fx.source[i] != ' ') violation("a byte changed");
            if ((in == '\n') != (fx.source[i] == '\n')) violation("a newline moved");
        }
        for (int i = 0; i < fx.technique_count; i++) {
            const xgdi_hlsl_technique *tq = &fx.techniques[i];
            if (tq->pass_count <= 0 || tq->passes == NULL) violation("a technique without passes");
            for (int p = 0; p < tq->pass_count; p++)
                if (tq->passes[p].entry[0][0] == '\0' && tq->passes[p].entry[1][0] == '\0')
                    violation("a pass without a shader");
        }
        for (int i = 0; i < fx.sampler_count; i++) {
            const xgdi_hlsl_sampler *ss = &fx.samplers[i];
            if (ss->name[0] == '\0' || (ss->set & ~(uint32_t)XGDI_HLSL_SS_ALL) != 0)
                violation("a sampler without a name or with unknown states");
            if (ss->min_filter < 0 || ss->min_filter > 3 || ss->mag_filter < 0 || ss->mag_filter > 3 ||
                ss->mip_filter < 0 || ss->mip_filter > 3 || ss->max_anisotropy < 0 || ss->max_anisotropy > 16 ||
                ss->max_mip_level < 0 || ss->max_mip_level > 31 || !(ss->mip_lod_bias > -1e6f && ss->mip_lod_bias < 1e6f))
                violation("a sampler state out of range");
            for (int k = 0; k < 3; k++)
                if (ss->address[k] < 0 || ss->address[k] > 5) violation("an address mode out of range");
        }
        for (int i = 0; i < fx.annotation_count; i++) {
            const xgdi_hlsl_annotation *a = &fx.annotations[i];
            if (a->owner[0] == '\0' || a->name[0] == '\0' || a->type > XGDI_HLSL_ANNO_STRING ||
                (a->type == XGDI_HLSL_ANNO_BOOL && a->i != 0 && a->i != 1))
                violation("a malformed annotation");
        }
        xgdi_hlsl_fx_free(&fx);
    } else {
        if (r != XGD_ERROR_INVALID_ARGUMENT && r != XGD_ERROR_NOT_SUPPORTED &&
            r != XGD_ERROR_OUT_OF_MEMORY)
            violation("an unexpected result code");
        if (r != XGD_ERROR_OUT_OF_MEMORY && strncmp(msg, "fuzz.fx:", 8) != 0)
            violation("a failure without its place");
        if (fx.technique_count != 0 || fx.techniques != NULL || fx.source != NULL || fx.samplers != NULL ||
            fx.annotations != NULL || fx.sampler_count != 0 || fx.annotation_count != 0)
            violation("a failure left results");
    }
    return 0;
}
