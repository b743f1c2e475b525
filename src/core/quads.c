/*
 * quads.c - xgd_draw_user_quads: user vertices drawn as quads through one static index
 * pattern the device owns.
 *
 * Quad q uses vertices 4q..4q+3 with corner i at (i & 1, i >> 1): triangles (0,1,2) and
 * (1,3,2), both clockwise on screen for a quad laid out left to right, top to bottom (the
 * corner order XNA's SpriteBatch writes). The pattern is built once per device, at the first
 * call, for the most quads 16-bit indices can address; its indices are valid by construction
 * for the quad_count * 4 vertices the call names, so no draw checks them one by one.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static xgd_result quad_indices(xgd_device *dev, const uint16_t **out)
{
    if (dev->quad_indices == NULL) {
        uint16_t *p = malloc(sizeof *p * 6u * XGD_USER_QUADS_MAX);
        if (p == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t q = 0; q < XGD_USER_QUADS_MAX; q++) {
            uint16_t v = (uint16_t)(q * 4u), *i = &p[q * 6u];
            i[0] = v;
            i[1] = (uint16_t)(v + 1);
            i[2] = (uint16_t)(v + 2);
            i[3] = (uint16_t)(v + 1);
            i[4] = (uint16_t)(v + 3);
            i[5] = (uint16_t)(v + 2);
        }
        dev->quad_indices = p;
    }
    *out = dev->quad_indices;
    return XGD_OK;
}

xgd_result xgd_draw_user_quads(xgd_device *device, const void *vertices, int vertex_offset,
                               int quad_count, xgd_vertex_declaration *decl)
{
    XGDI_RESOLVE(device, decl, XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (quad_count <= 0 || quad_count > XGD_USER_QUADS_MAX)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                         "quad_count %d must be 1..%d", quad_count, XGD_USER_QUADS_MAX);
    r = xgdi_draw_check_common(device, XGD_PRIMITIVE_TRIANGLE_LIST, quad_count * 2);
    if (r != XGD_OK) return r;
    if (vertices == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertices is NULL");
    if (vertex_offset < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex_offset %d is negative",
                         vertex_offset);
    r = xgdi_check_resource(device, decl != NULL ? &decl->res : NULL,
                            XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    if (r != XGD_OK) return r;
    r = xgdi_draw_check_layout(device, &decl->layout);
    if (r != XGD_OK) return r;
    const uint16_t *indices = NULL;
    r = quad_indices(device, &indices);
    if (r != XGD_OK) return r;

    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = XGD_PRIMITIVE_TRIANGLE_LIST;
    draw.primitive_count = quad_count * 2;
    draw.vertex_count = quad_count * 6;
    draw.user_vertices =
        (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)decl->layout.stride;
    draw.user_vertex_count = quad_count * 4;
    draw.index_size = 2;
    draw.user_indices = indices;
    return xgdi_draw_submit(device, &draw, &decl->layout);
}
