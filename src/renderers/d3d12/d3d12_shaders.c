/*
 * d3d12_shaders.c - the blit's DXBC (mip generation and the multisampled-target sample fill),
 * generated offline from shaders/blit.hlsl by shaders/compile-dxbc.sh (committed under
 * shaders/generated/dxbc/).
 */
#include "d3d12_internal.h"

#include "../../../shaders/generated/dxbc/blit.h"

d3d12_bytecode xgdi_d3d12_blit_shader(int stage)
{
    static const d3d12_bytecode blobs[5] = { { xgd_dxbc_blit_vs, sizeof xgd_dxbc_blit_vs },
                                             { xgd_dxbc_blit_ps, sizeof xgd_dxbc_blit_ps },
                                             { xgd_dxbc_blit_mip8_ps, sizeof xgd_dxbc_blit_mip8_ps },
                                             { xgd_dxbc_blit_chain2_ps, sizeof xgd_dxbc_blit_chain2_ps },
                                             { xgd_dxbc_blit_chain3_ps, sizeof xgd_dxbc_blit_chain3_ps } };
    d3d12_bytecode none = { NULL, 0 };
    return stage >= 0 && stage < 5 ? blobs[stage] : none;
}
