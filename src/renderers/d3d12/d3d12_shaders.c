/*
 * d3d12_shaders.c - the stock programs' DXBC, generated offline from the shaders/ HLSL sources by
 * shaders/compile-dxbc.sh (committed under shaders/generated/dxbc/, one blob per distinct
 * shader, with the BasicEffect variant -> blob table XGD_DXBC_BASIC_VARIANTS).
 */
#include "d3d12_internal.h"

#include "../../../shaders/generated/dxbc/stock.h"

#define BLOB(name) { xgd_dxbc_##name, sizeof xgd_dxbc_##name }

/* BasicEffect: variants whose compiled blobs are byte-identical share one blob (the generated
   table in basic_variants.h says which; compile-dxbc.sh decides by comparing the bytes). */
_Static_assert(XGD_DXBC_BASIC_VARIANT_COUNT == XGDI_BASIC_VARIANT_COUNT,
               "shaders/generated/dxbc/basic_variants.h is out of date: rerun shaders/compile-dxbc.sh");
#define BASIC_VARIANT(variant, vs, ps) [variant] = { BLOB(vs), BLOB(ps) },
static const d3d12_bytecode basic_blobs[XGDI_BASIC_VARIANT_COUNT][2] = {
    XGD_DXBC_BASIC_VARIANTS(BASIC_VARIANT)
};
#undef BASIC_VARIANT
static const d3d12_bytecode sprite_blobs[2] = { BLOB(sprite_vs), BLOB(sprite_ps) };
static const d3d12_bytecode mrt_blobs[2] = { BLOB(mrt_vs), BLOB(mrt_ps) };
static const d3d12_bytecode blit_blobs[2] = { BLOB(blit_vs), BLOB(blit_ps) };
static const d3d12_bytecode volume_blobs[2] = { BLOB(volume_vs), BLOB(volume_ps) };

d3d12_bytecode xgdi_d3d12_shader(xgdi_program program, uint32_t variant, int stage)
{
    d3d12_bytecode none = { NULL, 0 };
    if (stage < 0 || stage > 1) return none;
    switch (program) {
    case XGDI_PROGRAM_SPRITE: return sprite_blobs[stage];
    case XGDI_PROGRAM_MRT: return mrt_blobs[stage];
    case XGDI_PROGRAM_VOLUME: return volume_blobs[stage];
    case XGDI_PROGRAM_BASIC:
        return variant < XGDI_BASIC_VARIANT_COUNT ? basic_blobs[variant][stage] : none;
    default: return none;
    }
}

d3d12_bytecode xgdi_d3d12_blit_shader(int stage)
{
    d3d12_bytecode none = { NULL, 0 };
    return stage == 0 || stage == 1 ? blit_blobs[stage] : none;
}
