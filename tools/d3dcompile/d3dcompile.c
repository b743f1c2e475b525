/*
 * d3dcompile.c - a minimal HLSL to DXBC compiler around D3DCompile, for regenerating the
 * committed Direct3D 12 stock shaders (shaders/compile-dxbc.sh). Built with mingw-w64 and run
 * under Wine's built-in d3dcompiler_47, so no Windows machine is needed:
 *
 *   x86_64-w64-mingw32-gcc -O2 -o d3dcompile.exe d3dcompile.c -ld3dcompiler_47
 *   wine d3dcompile.exe SOURCE ENTRY PROFILE OUTPUT [NAME=VALUE...]
 *
 * Writes the raw DXBC container to OUTPUT. Exit status 0 on success, 1 on a compile error
 * (the compiler's messages go to stderr), 2 on bad usage or I/O errors.
 */
#include <windows.h>
#include <d3dcompiler.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    char *buf = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap);
            if (nb == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0) break;
    }
    fclose(f);
    *size = len;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: d3dcompile SOURCE ENTRY PROFILE OUTPUT [NAME=VALUE...]\n");
        return 2;
    }
    size_t size = 0;
    char *src = read_all(argv[1], &size);
    if (src == NULL) {
        fprintf(stderr, "d3dcompile: cannot read %s\n", argv[1]);
        return 2;
    }
    int ndefs = argc - 5;
    D3D_SHADER_MACRO *defs = calloc((size_t)ndefs + 1, sizeof *defs);
    char **names = calloc((size_t)ndefs + 1, sizeof *names);
    if (defs == NULL || names == NULL) return 2;
    for (int i = 0; i < ndefs; i++) {
        names[i] = _strdup(argv[5 + i]);
        char *eq = strchr(names[i], '=');
        if (eq != NULL) {
            *eq = '\0';
            defs[i].Definition = eq + 1;
        } else {
            defs[i].Definition = "1";
        }
        defs[i].Name = names[i];
    }
    ID3DBlob *code = NULL, *errors = NULL;
    /* Optimisation level 3 and strictness make the output independent of defaults that could
       differ between compiler builds. */
    HRESULT hr = D3DCompile(src, size, argv[1], defs, NULL, argv[2], argv[3],
                            D3DCOMPILE_OPTIMIZATION_LEVEL3 | D3DCOMPILE_ENABLE_STRICTNESS, 0,
                            &code, &errors);
    if (errors != NULL) {
        fwrite(errors->lpVtbl->GetBufferPointer(errors), 1,
               errors->lpVtbl->GetBufferSize(errors), stderr);
        errors->lpVtbl->Release(errors);
    }
    if (FAILED(hr) || code == NULL) {
        fprintf(stderr, "d3dcompile: %s %s %s failed (hr 0x%08lx)\n", argv[1], argv[2], argv[3],
                (unsigned long)hr);
        return 1;
    }
    FILE *out = fopen(argv[4], "wb");
    if (out == NULL) {
        fprintf(stderr, "d3dcompile: cannot write %s\n", argv[4]);
        return 2;
    }
    size_t n = code->lpVtbl->GetBufferSize(code);
    int ok = fwrite(code->lpVtbl->GetBufferPointer(code), 1, n, out) == n;
    ok = fclose(out) == 0 && ok;
    code->lpVtbl->Release(code);
    return ok ? 0 : 2;
}
