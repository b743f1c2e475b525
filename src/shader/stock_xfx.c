/*
 * stock_xfx.c - the compiled stock effects (shaders/generated/stock_xfx.h) in one translation
 * unit: BasicEffect, SpriteEffect and the EXT MrtEffect and VolumeEffect load them through
 * xgd_effect_create (src/shader/stock_effect.c), and the depth-bias probe takes its two shaders
 * from the MrtEffect's (src/core/depth_bias_probe.c).
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
        { "basic", xgd_stock_xfx_basic, sizeof xgd_stock_xfx_basic },
        { "sprite", xgd_stock_xfx_sprite, sizeof xgd_stock_xfx_sprite },
        { "mrt", xgd_stock_xfx_mrt, sizeof xgd_stock_xfx_mrt },
        { "volume", xgd_stock_xfx_volume, sizeof xgd_stock_xfx_volume },
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
