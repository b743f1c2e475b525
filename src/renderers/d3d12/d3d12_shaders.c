/*
 * d3d12_shaders.c - the stock programs' DXBC, generated offline from the shaders/ HLSL sources by
 * shaders/compile-dxbc.sh (committed under shaders/generated/dxbc/).
 */
#include "d3d12_internal.h"

#include "../../../shaders/generated/dxbc/stock.h"

#define BLOB(name) { xgd_dxbc_##name, sizeof xgd_dxbc_##name }

static const d3d12_bytecode basic_blobs[XGDI_BASIC_VARIANT_COUNT][2] = {
    { BLOB(basic_00_vs), BLOB(basic_00_ps) }, { BLOB(basic_01_vs), BLOB(basic_01_ps) },
    { BLOB(basic_02_vs), BLOB(basic_02_ps) }, { BLOB(basic_03_vs), BLOB(basic_03_ps) },
    { BLOB(basic_04_vs), BLOB(basic_04_ps) }, { BLOB(basic_05_vs), BLOB(basic_05_ps) },
    { BLOB(basic_06_vs), BLOB(basic_06_ps) }, { BLOB(basic_07_vs), BLOB(basic_07_ps) },
    { BLOB(basic_08_vs), BLOB(basic_08_ps) }, { BLOB(basic_09_vs), BLOB(basic_09_ps) },
    { BLOB(basic_10_vs), BLOB(basic_10_ps) }, { BLOB(basic_11_vs), BLOB(basic_11_ps) },
    { BLOB(basic_12_vs), BLOB(basic_12_ps) }, { BLOB(basic_13_vs), BLOB(basic_13_ps) },
    { BLOB(basic_14_vs), BLOB(basic_14_ps) }, { BLOB(basic_15_vs), BLOB(basic_15_ps) },
    { BLOB(basic_16_vs), BLOB(basic_16_ps) }, { BLOB(basic_17_vs), BLOB(basic_17_ps) },
    { BLOB(basic_18_vs), BLOB(basic_18_ps) }, { BLOB(basic_19_vs), BLOB(basic_19_ps) },
    { BLOB(basic_20_vs), BLOB(basic_20_ps) }, { BLOB(basic_21_vs), BLOB(basic_21_ps) },
    { BLOB(basic_22_vs), BLOB(basic_22_ps) }, { BLOB(basic_23_vs), BLOB(basic_23_ps) },
    { BLOB(basic_24_vs), BLOB(basic_24_ps) }, { BLOB(basic_25_vs), BLOB(basic_25_ps) },
    { BLOB(basic_26_vs), BLOB(basic_26_ps) }, { BLOB(basic_27_vs), BLOB(basic_27_ps) },
    { BLOB(basic_28_vs), BLOB(basic_28_ps) }, { BLOB(basic_29_vs), BLOB(basic_29_ps) },
    { BLOB(basic_30_vs), BLOB(basic_30_ps) }, { BLOB(basic_31_vs), BLOB(basic_31_ps) },
};
static const d3d12_bytecode sprite_blobs[2] = { BLOB(sprite_vs), BLOB(sprite_ps) };
static const d3d12_bytecode mrt_blobs[2] = { BLOB(mrt_vs), BLOB(mrt_ps) };
static const d3d12_bytecode blit_blobs[2] = { BLOB(blit_vs), BLOB(blit_ps) };

d3d12_bytecode d3d12_shader(xgdi_program program, uint32_t variant, int stage)
{
    d3d12_bytecode none = { NULL, 0 };
    if (stage < 0 || stage > 1) return none;
    switch (program) {
    case XGDI_PROGRAM_SPRITE: return sprite_blobs[stage];
    case XGDI_PROGRAM_MRT: return mrt_blobs[stage];
    case XGDI_PROGRAM_BASIC:
        return variant < XGDI_BASIC_VARIANT_COUNT ? basic_blobs[variant][stage] : none;
    default: return none;
    }
}

d3d12_bytecode d3d12_blit_shader(int stage)
{
    d3d12_bytecode none = { NULL, 0 };
    return stage == 0 || stage == 1 ? blit_blobs[stage] : none;
}
