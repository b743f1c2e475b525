/*
 * fuzz_xfx.c - libFuzzer target: the input is a compiled xgd effect (.xfx, written by xgd-fxc;
 * src/shader/hlsl_program.h) for the loader, the part a shipped game feeds with files.
 *
 * Checked (a violation aborts): a failure is one of the loader's codes with a message and
 * leaves nothing behind; a success saves back to exactly the input's bytes (the format has one
 * spelling of each program), so nothing was read past, skipped or invented (a version 1 file
 * saves as version 2: its bytes plus two empty sections).
 */
#include "hlsl_program.h"
#include "spirv_hlsl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void violation(const char *what)
{
    fprintf(stderr, "xfx loader contract violation: %s\n", what);
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    xgdi_hlsl_program p;
    char msg[256];
    xgd_result r = xgdi_hlsl_program_load(data, size, &p, msg, sizeof msg);
    if (r != XGD_OK) {
        if (r != XGD_ERROR_INVALID_ARGUMENT && r != XGD_ERROR_NOT_SUPPORTED &&
            r != XGD_ERROR_OUT_OF_MEMORY)
            violation("an unexpected result code");
        if (msg[0] == '\0') violation("a failure without a message");
        if (p.shaders != NULL || p.fx.techniques != NULL) violation("a failure left results");
        return 0;
    }
    void *bytes = NULL;
    size_t n = 0;
    if (xgdi_hlsl_program_save(&p, &bytes, &n) != XGD_OK) violation("a loaded program did not save");
    if (size >= 12 && data[8] == 1) {
        /* a version 1 file saves as the current version: the same bytes with the version word
           changed and the version 2 sections empty (two zero counts) */
        if (n != size + 8 || memcmp(bytes, data, 8) != 0 || memcmp((uint8_t *)bytes + 12, data + 12, size - 12) != 0 ||
            memcmp((uint8_t *)bytes + size, "\0\0\0\0\0\0\0\0", 8) != 0)
            violation("save(load(x)) of a version 1 file is not x in version 2");
    } else if (n != size || memcmp(bytes, data, size) != 0) {
        violation("save(load(x)) != x");
    }
    free(bytes);
    /* every shader of a loaded file is checked at effect load and rewritten into the shader
       form at its first apply: the check must refuse exactly what the rewrite refuses, with
       the same words, and describe the rewritten shader as the rewrite does */
    for (int s = 0; s < p.shader_count; s++) {
        xgdi_spirv_hlsl_out form, checked;
        char cmsg[256];
        uint32_t block = p.shaders[s].reflection.buffer_count > 0 ? p.shaders[s].reflection.buffers[0].size : 0;
        xgdi_shader_stage stage = p.shaders[s].stage == XGDI_HLSL_VERTEX ? XGDI_SHADER_VERTEX : XGDI_SHADER_PIXEL;
        xgd_result c = xgdi_spirv_hlsl_check(p.shaders[s].words, p.shaders[s].word_count, stage, block, &checked,
                                             cmsg, sizeof cmsg);
        r = xgdi_spirv_from_hlsl(p.shaders[s].words, p.shaders[s].word_count, stage, block, &form, msg, sizeof msg);
        if (checked.words != NULL) violation("the check wrote words");
        if (r == XGD_OK) {
            if (c != XGD_OK) violation("the check refused a shader the rewrite takes");
            xgdi_spirv_hlsl_out described;
            memcpy(&described, &form, sizeof form); /* bytes, padding included */
            described.words = NULL;
            described.word_count = 0;
            if (memcmp(&described, &checked, sizeof checked) != 0) violation("the check describes another shader");
            free(form.words);
        } else {
            if (form.words != NULL) violation("a failed rewrite left words");
            if (r != XGD_ERROR_OUT_OF_MEMORY && (c != r || strcmp(cmsg, msg) != 0))
                violation("the check and the rewrite refuse differently");
        }
    }
    xgdi_hlsl_program_free(&p);
    return 0;
}
