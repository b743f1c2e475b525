/*
 * stock_xfx.c - the compiled MrtEffect (shaders/generated/stock_xfx.h) for core: the depth-bias
 * probe takes its two shaders from it (src/core/depth_bias_probe.c). The stock effects
 * themselves load their bytes in src/graphics/; only the one core needs is referenced here,
 * so the library holds the others once.
 */
#include "stock_xfx.h"

#include "../../shaders/generated/stock_xfx.h"

#include <string.h>

const unsigned char *xgdi_stock_xfx(const char *name, size_t *size)
{
    static const struct {
        const char *name;
        const unsigned char *bytes;
        size_t size;
    } all[] = {
        { "mrt", xgd_stock_xfx_mrt, sizeof xgd_stock_xfx_mrt },
    };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(all[i].name, name) == 0) {
            *size = all[i].size;
            return all[i].bytes;
        }
    }
    *size = 0;
    return NULL;
}
