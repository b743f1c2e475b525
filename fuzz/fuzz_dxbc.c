/*
 * fuzz_dxbc.c - libFuzzer target for the SPIR-V -> DXBC translator of the Direct3D 12 renderer
 * (src/renderers/d3d12/d3d12_dxbc.c), which takes the SPIR-V of user effects and the renderers'
 * compute shader: the input's words (a SPIR-V module, or what is left of one) are translated with
 * a binding map of one entry, the one the renderer gives shaders/mips.comp (push constants at b0;
 * without it a compute shader's push constants are refused before the rest is read).
 *
 * Checked, with abort() on a violation:
 *   - the result is XGD_OK, XGD_ERROR_INVALID_ARGUMENT or XGD_ERROR_NOT_SUPPORTED (never out
 *     of memory for inputs this small) with a message on a refusal, and a refusal leaves no
 *     output;
 *   - an accepted module gives a DXBC container whose size field is its size and whose stored
 *     checksum is the container's.
 */
#include "d3d12_dxbc.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    if (n == 0 || n > (1u << 16)) return 0;
    uint32_t *w = malloc(n * 4);
    if (!w) return 0;
    memcpy(w, data, n * 4);
    void *dxbc = NULL;
    size_t out = 0;
    char msg[256];
    const xgdi_d3d12_dxbc_binding push = { XGDI_D3D12_DXBC_CBUFFER, 0xffffffffu, 0xffffffffu, 0, 0 };
    xgd_result r = xgdi_d3d12_dxbc_from_spirv(w, n, &push, 1, &dxbc, &out, msg, sizeof msg);
    free(w);
    if (r != XGD_OK) {
        if ((r != XGD_ERROR_INVALID_ARGUMENT && r != XGD_ERROR_NOT_SUPPORTED) || dxbc || out || !msg[0])
            abort();
        return 0;
    }
    const uint8_t *b = dxbc;
    uint32_t sum[4], stored[4], total;
    if (out < 32 || memcmp(b, "DXBC", 4)) abort();
    memcpy(&total, b + 24, 4);
    memcpy(stored, b + 4, 16);
    xgdi_d3d12_dxbc_checksum(b, out, sum);
    if (total != out || memcmp(sum, stored, 16)) abort();
    xgdi_d3d12_dxbc_free(dxbc);
    return 0;
}
