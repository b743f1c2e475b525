/*
 * d3d9_check.h - structural check of Direct3D 9 shader bytecode before MojoShader sees it.
 */
#ifndef XGD_D3D9_CHECK_H
#define XGD_D3D9_CHECK_H

#include "xgd.h"

#include <stddef.h>
#include <stdint.h>

/* A register declaration (dcl) with its Direct3D usage (D3DDECLUSAGE numbering) and index. */
typedef struct xgdi_d3d9_decl {
    uint8_t regtype, regnum, usage, usage_index;
} xgdi_d3d9_decl;

typedef struct xgdi_d3d9_info {
    int decl_count;
    xgdi_d3d9_decl decls[64];
} xgdi_d3d9_info;

/* XGD_OK, or INVALID_ARGUMENT (malformed) / NOT_SUPPORTED (valid but outside what xgd runs)
 * with a message in err. bytes must be 4-byte aligned. info (may be NULL) receives the
 * declarations. */
xgd_result xgdi_d3d9_check(const void *bytes, size_t size, xgdi_d3d9_info *info, char *err,
                           size_t err_cap);

#endif
