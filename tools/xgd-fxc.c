/*
 * xgd-fxc - compiles an HLSL effect ahead of time into the file xgd loads without a compiler
 * (the .xfx format of src/shader/hlsl_program.h, the same structure the library builds when it
 * compiles the source at run time).
 *
 *   xgd-fxc [-D NAME[=VALUE]]... [-o OUT.xfx] IN.fx
 *                                    compile (with the macros, as #define NAME VALUE before the
 *                                    source; VALUE defaults to 1); OUT defaults to IN with .xfx
 *   xgd-fxc --info FILE.xfx          load a compiled effect and list its techniques, passes
 *                                    and shaders
 *
 * Compiler messages go to stderr as "file:line: ..."; the exit status is 0 on success, 1 for
 * an effect that does not compile or load, 2 for bad usage or I/O.
 */
#define _POSIX_C_SOURCE 200809L

#include "hlsl_program.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: xgd-fxc [-D NAME[=VALUE]]... [-o OUT.xfx] IN.fx\n       xgd-fxc --info FILE.xfx\n");
    return 2;
}

/* Reads a whole file (at most 64 MiB: no effect source or compiled effect is near that). */
static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "xgd-fxc: %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        if (n == cap) {
            if (cap >= (size_t)64 << 20) {
                fprintf(stderr, "xgd-fxc: %s: larger than 64 MiB\n", path);
                free(buf);
                buf = NULL;
                break;
            }
            char *nb = realloc(buf, cap * 2);
            if (nb == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (buf != NULL && ferror(f)) {
        fprintf(stderr, "xgd-fxc: %s: read error\n", path);
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = n;
    return buf;
}

static int info(const char *path)
{
    size_t size = 0;
    void *bytes = read_file(path, &size);
    if (bytes == NULL) return 2;
    xgdi_hlsl_program p;
    char msg[512];
    xgd_result r = xgdi_hlsl_program_load(bytes, size, &p, msg, sizeof msg);
    free(bytes);
    if (r != XGD_OK) {
        fprintf(stderr, "xgd-fxc: %s: %s: %s\n", path, xgd_result_name(r), msg);
        return 1;
    }
    for (int t = 0; t < p.fx.technique_count; t++) {
        const xgdi_hlsl_technique *tq = &p.fx.techniques[t];
        printf("technique %s\n", tq->name[0] ? tq->name : "(unnamed)");
        for (int q = 0; q < tq->pass_count; q++) {
            printf("  pass %s:", tq->passes[q].name[0] ? tq->passes[q].name : "(unnamed)");
            for (int st = 0; st < 2; st++) {
                int s = p.pass_shader[p.first_pass[t] + q][st];
                if (s >= 0)
                    printf(" %s %s (%s, %zu words)", st ? "pixel" : "vertex", p.shaders[s].entry,
                           p.shaders[s].profile, p.shaders[s].word_count);
            }
            printf(", %d states\n", tq->passes[q].state_count);
        }
    }
    for (int i = 0; i < p.fx.sampler_count; i++)
        printf("sampler %s%s%s (line %d)\n", p.fx.samplers[i].name, p.fx.samplers[i].texture[0] ? " of texture " : "",
               p.fx.samplers[i].texture, p.fx.samplers[i].line);
    if (p.fx.annotation_count > 0) printf("%d annotations\n", p.fx.annotation_count);
    xgdi_hlsl_program_free(&p);
    return 0;
}

int main(int argc, char **argv)
{
    const char *in = NULL, *out = NULL;
    static xgd_hlsl_define defines[256];
    static char define_text[256][1100];
    int define_count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--info") == 0 && i + 1 < argc) return info(argv[i + 1]);
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) out = argv[++i];
        else if (strncmp(argv[i], "-D", 2) == 0) {
            const char *d = argv[i][2] != '\0' ? argv[i] + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (d == NULL || define_count == 256 || strlen(d) >= sizeof define_text[0]) return usage();
            char *text = define_text[define_count];
            strcpy(text, d);
            char *eq = strchr(text, '=');
            if (eq != NULL) *eq = '\0';
            defines[define_count].name = text;
            defines[define_count].value = eq != NULL ? eq + 1 : NULL;
            define_count++;
        } else if (argv[i][0] == '-') return usage();
        else if (in == NULL) in = argv[i];
        else return usage();
    }
    if (in == NULL) return usage();
    char *default_out = NULL;
    if (out == NULL) {
        size_t n = strlen(in);
        const char *dot = strrchr(in, '.');
        size_t stem = dot != NULL && strchr(dot, '/') == NULL ? (size_t)(dot - in) : n;
        default_out = malloc(stem + 5);
        if (default_out == NULL) return 2;
        memcpy(default_out, in, stem);
        memcpy(default_out + stem, ".xfx", 5);
        out = default_out;
    }
    size_t size = 0;
    char *src = read_file(in, &size);
    if (src == NULL) {
        free(default_out);
        return 2;
    }
    char *preamble = NULL, pmsg[200];
    if (xgdi_hlsl_preamble(defines, define_count, &preamble, pmsg, sizeof pmsg) != XGD_OK) {
        fprintf(stderr, "xgd-fxc: -D: %s\n", pmsg);
        free(src);
        free(default_out);
        return 2;
    }
    xgdi_hlsl_program p;
    char *log = NULL;
    xgd_result r = xgdi_hlsl_program_compile_ex(src, size, in, preamble, &p, &log);
    free(preamble);
    free(src);
    if (log != NULL) fputs(log, stderr);
    if (log != NULL && log[0] != '\0' && log[strlen(log) - 1] != '\n') fputc('\n', stderr);
    free(log);
    if (r != XGD_OK) {
        fprintf(stderr, "xgd-fxc: %s: %s\n", in, xgd_result_name(r));
        free(default_out);
        return 1;
    }
    void *bytes = NULL;
    size_t nbytes = 0;
    r = xgdi_hlsl_program_save(&p, &bytes, &nbytes);
    xgdi_hlsl_program_free(&p);
    int status = 0;
    if (r != XGD_OK) {
        fprintf(stderr, "xgd-fxc: %s\n", xgd_result_name(r));
        status = 2;
    } else {
        FILE *f = fopen(out, "wb");
        if (f == NULL || fwrite(bytes, 1, nbytes, f) != nbytes || fclose(f) != 0) {
            fprintf(stderr, "xgd-fxc: %s: %s\n", out, strerror(errno));
            status = 2;
        } else {
            printf("xgd-fxc: wrote %s (%zu bytes)\n", out, nbytes);
        }
    }
    free(bytes);
    free(default_out);
    return status;
}
