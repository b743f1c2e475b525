/*
 * hlsl_compile.c - xgdi_hlsl_compile (hlsl_fx.h): the C side of the glslang shim, and the
 * NOT_SUPPORTED answer of a build without glslang (XGD_HLSL=OFF).
 */
#include "hlsl_fx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_GLSLANG
int xgdi_glslang_hlsl_to_spirv(const char *source, const char *file_name, const char *entry,
                               const char *preamble, int pixel, unsigned **words, size_t *word_count,
                               char **log);
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
    return xgdi_hlsl_compile_ex(source, file_name, entry, NULL, stage, words, word_count, log);
}

xgd_result xgdi_hlsl_compile_ex(const char *source, const char *file_name, const char *entry,
                                const char *preamble, xgdi_hlsl_stage stage, uint32_t **words,
                                size_t *word_count, char **log)
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
                                        preamble, stage == XGDI_HLSL_PIXEL, &w, &n, log);
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
    (void)preamble;
    *log = dup_text("this xgd was built without an HLSL compiler (XGD_HLSL=OFF: glslang-dev "
                    "was not found); load a precompiled effect instead");
    return XGD_ERROR_NOT_SUPPORTED;
#endif
}

xgd_result xgdi_hlsl_preamble(const xgd_hlsl_define *defines, int count, char **out, char *msg,
                              size_t msg_size)
{
    *out = NULL;
    if (count < 0 || count > 256 || (count > 0 && defines == NULL)) {
        snprintf(msg, msg_size, "%d macros (defines must point to 0..256 of them)", count);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    size_t total = 1;
    for (int i = 0; i < count; i++) {
        const char *n = defines[i].name, *v = defines[i].value != NULL ? defines[i].value : "1";
        size_t k = n != NULL ? strlen(n) : 0;
        bool ok = k > 0 && k < 64 && !(n[0] >= '0' && n[0] <= '9');
        for (size_t j = 0; ok && j < k; j++)
            ok = (n[j] >= 'a' && n[j] <= 'z') || (n[j] >= 'A' && n[j] <= 'Z') || (n[j] >= '0' && n[j] <= '9') ||
                 n[j] == '_';
        if (!ok) {
            snprintf(msg, msg_size, "macro %d: the name \"%.64s\" is not an identifier of 1..63 characters", i,
                     n != NULL ? n : "(NULL)");
            return XGD_ERROR_INVALID_ARGUMENT;
        }
        size_t vk = 0;
        while (vk <= 1024 && v[vk] != '\0') vk++;
        if (vk > 1024 || memchr(v, '\n', vk) != NULL || memchr(v, '\r', vk) != NULL) {
            snprintf(msg, msg_size, "macro %s: the value holds a line break or is longer than 1024 bytes", n);
            return XGD_ERROR_INVALID_ARGUMENT;
        }
        total += k + vk + 10;
    }
    char *p = malloc(total);
    if (p == NULL) {
        snprintf(msg, msg_size, "out of memory");
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    size_t at = 0;
    p[0] = '\0';
    for (int i = 0; i < count; i++)
        at += (size_t)snprintf(p + at, total - at, "#define %s %s\n", defines[i].name,
                               defines[i].value != NULL ? defines[i].value : "1");
    *out = p;
    return XGD_OK;
}
