/*
 * hlsl_compile.c - xgdi_hlsl_compile (hlsl_fx.h): the C side of the glslang shim, and the
 * NOT_SUPPORTED answer of a build without glslang (XGD_HLSL=OFF).
 */
#include "hlsl_fx.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_GLSLANG
int xgdi_glslang_hlsl_to_spirv(const char *source, const char *file_name, const char *entry,
                               int pixel, unsigned **words, size_t *word_count, char **log);
#endif

bool xgdi_hlsl_compiler_available(void)
{
#ifdef XGD_HAVE_GLSLANG
    return true;
#else
    return false;
#endif
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p != NULL) memcpy(p, s, n);
    return p;
}

xgd_result xgdi_hlsl_compile(const char *source, const char *file_name, const char *entry,
                             xgdi_hlsl_stage stage, uint32_t **words, size_t *word_count,
                             char **log)
{
    if (words != NULL) *words = NULL;
    if (word_count != NULL) *word_count = 0;
    if (log != NULL) *log = NULL;
    if (source == NULL || entry == NULL || words == NULL || word_count == NULL || log == NULL ||
        (stage != XGDI_HLSL_VERTEX && stage != XGDI_HLSL_PIXEL))
        return XGD_ERROR_INVALID_ARGUMENT;
    if (entry[0] == '\0') {
        *log = dup_text("no entry point named");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
#ifdef XGD_HAVE_GLSLANG
    unsigned *w = NULL;
    size_t n = 0;
    int rc = xgdi_glslang_hlsl_to_spirv(source, file_name != NULL ? file_name : "(effect)", entry,
                                        stage == XGDI_HLSL_PIXEL, &w, &n, log);
    if (rc == 2) return XGD_ERROR_OUT_OF_MEMORY;
    if (rc != 0) {
        free(w);
        if (*log == NULL) *log = dup_text("the HLSL compiler rejected the source");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    *words = (uint32_t *)w;
    *word_count = n;
    return XGD_OK;
#else
    (void)file_name;
    *log = dup_text("this xgd was built without an HLSL compiler (XGD_HLSL=OFF: glslang-dev "
                    "was not found); load a precompiled effect instead");
    return XGD_ERROR_NOT_SUPPORTED;
#endif
}
