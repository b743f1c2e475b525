/*
 * quads.c - xgd_draw_user_quads: user vertices drawn as quads through one static index
 * pattern the device owns.
 *
 * Quad q uses vertices 4q..4q+3 with corner i at (i & 1, i >> 1): triangles (0,1,2) and
 * (1,3,2), both clockwise on screen for a quad laid out left to right, top to bottom (the
 * corner order XNA's SpriteBatch writes). The pattern is built once per device, at the first
 * call, for the most quads 16-bit indices can address, in a device-owned GPU index buffer; its
 * indices are valid by construction for the quad_count * 4 vertices the call names, so no
 * draw checks or uploads them.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The pattern lives in an index buffer the device owns (registered like any buffer, so context
 * recovery recreates its native part from its CPU copy; the device destroys it first thing at
 * its own destroy), so a draw binds it rather than copying 12 bytes per quad into the
 * renderer's upload ring, and a renderer sees the same index binding on every quad draw. */
static xgd_result quad_index_buffer(xgd_device *dev, xgdi_native_buffer **out)
{
    xgd_index_buffer *ib = dev->quad_index_buffer;
    if (ib == NULL) {
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
        uint64_t created = dev->stats.buffers_created;
        xgd_index_buffer *handle = NULL;
        xgd_result r = xgd_index_buffer_create(
            dev, &(xgd_index_buffer_desc){ .element_size = XGD_INDEX_SIXTEEN_BITS,
                                           .index_count = 6 * XGD_USER_QUADS_MAX },
            &handle);
        if (r == XGD_OK)
            r = xgd_index_buffer_set_data(handle, 0, p, sizeof *p * 6u * XGD_USER_QUADS_MAX,
                                          XGD_SET_DATA_NONE);
        free(p);
        if (r != XGD_OK) {
            xgd_index_buffer_destroy(handle);
            return r;
        }
        ib = (xgd_index_buffer *)xgdi_handle_get(handle, XGDI_RES_INDEX_BUFFER);
        dev->stats.buffers_created = created; /* the device's own buffer, not the caller's */
        dev->quad_index_buffer = ib;
    }
    if (ib->buf.native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the device's quad index buffer has no storage (its recovery failed)");
    *out = ib->buf.native;
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
    xgdi_native_buffer *indices = NULL;
    r = quad_index_buffer(device, &indices);
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
    draw.index_buffer = indices;
    return xgdi_draw_submit(device, &draw, &decl->layout);
}

/* What a draw refuses for a texture in slot 0 (draw.c's slot rules, in its order), checked for
 * every run before the first is drawn, so that bad input draws nothing. */
static xgd_result check_run_texture(xgd_device *dev, const xgd_texture *t, int run)
{
    for (int j = 0; j < dev->binding_count; j++) {
        if (dev->bindings[j].target == t)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the texture of run %d is also bound as render target %d; unbind "
                             "it before sampling it",
                             run, j);
    }
    if (t->native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the texture of run %d has no storage (its recovery failed)", run);
    bool pow2 = (t->width & (t->width - 1)) == 0 && (t->height & (t->height - 1)) == 0;
    const xgd_sampler_state *s = dev->sampler_states[0];
    if (dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH && !pow2 &&
        (t->kind == XGD_TEXTURE_2D || t->kind == XGD_RENDER_TARGET_2D) &&
        (s == NULL || s->desc.address_u != XGD_ADDRESS_CLAMP ||
         s->desc.address_v != XGD_ADDRESS_CLAMP))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "Reach requires Clamp addressing for the %dx%d texture of run %d, whose "
                         "size is not a power of two",
                         t->width, t->height, run);
    xgdi_sampler_kind k = dev->user_sampler_kinds[0];
    bool cube = t->kind == XGD_TEXTURE_CUBE || t->kind == XGD_RENDER_TARGET_CUBE;
    bool vol = t->kind == XGD_TEXTURE_3D;
    if (k != XGDI_SAMPLER_NONE &&
        !(k == XGDI_SAMPLER_CUBE ? cube : k == XGDI_SAMPLER_3D ? vol : !cube && !vol))
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the pixel shader samples register s0 as a %s texture, but run %d's "
                         "texture is a %s",
                         k == XGDI_SAMPLER_CUBE ? "cube" : k == XGDI_SAMPLER_3D ? "3D" : "2D", run,
                         cube ? "cube texture" : vol ? "Texture3D" : "2D texture");
    return XGD_OK;
}

/* Slot 0 as xgd_set_texture leaves it (the draw state learns of the change through the same
 * dirty bits). */
static void bind_slot0(xgd_device *dev, xgd_texture *t)
{
    if (dev->textures[0] != t) {
        dev->textures[0] = t;
        dev->texture_slots_changed |= 1u;
        dev->texture_slots_ready &= ~1u;
        dev->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
    }
}

xgd_result xgd_draw_user_quad_runs(xgd_device *device, const void *vertices, int vertex_offset,
                                   const xgd_quad_run *runs, int run_count,
                                   xgd_vertex_declaration *decl)
{
    XGDI_RESOLVE(device, decl, XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (runs == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "runs is NULL");
    if (run_count <= 0)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE, "run_count %d must be > 0",
                         run_count);
    if (vertices == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertices is NULL");
    if (vertex_offset < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex_offset %d is negative",
                         vertex_offset);
    r = xgdi_check_resource(device, decl != NULL ? &decl->res : NULL,
                            XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    if (r != XGD_OK) return r;
    /* every run before anything is drawn; the textures are resolved again while drawing (they
       cannot change in between: nothing here runs user code) */
    int64_t vertex_end = vertex_offset;
    for (int i = 0; i < run_count; i++) {
        int q = runs[i].quad_count;
        if (q <= 0 || q > XGD_USER_QUADS_MAX)
            return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "run %d's quad_count %d must be 1..%d", i, q, XGD_USER_QUADS_MAX);
        vertex_end += (int64_t)q * 4;
        if (vertex_end > INT32_MAX)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "the runs reach vertex %lld, beyond what an int counts",
                             (long long)vertex_end);
        if (runs[i].texture == NULL)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "run %d's texture is NULL", i);
        xgd_result rr = XGD_OK;
        const xgd_texture *t = xgdi_resolve(device, runs[i].texture, XGDI_RES_TEXTURE,
                                            "run texture", &rr);
        if (t == NULL) return rr;
        r = xgdi_check_resource(device, &t->res, XGDI_RES_TEXTURE, "run texture");
        if (r != XGD_OK) return r;
        r = check_run_texture(device, t, i);
        if (r != XGD_OK) return r;
    }
    r = xgdi_draw_check_layout(device, &decl->layout);
    if (r != XGD_OK) return r;
    xgdi_native_buffer *indices = NULL;
    r = quad_index_buffer(device, &indices);
    if (r != XGD_OK) return r;

    /* the slot's texture as a handle: a failed draw may report device loss, whose event
       handler may destroy that texture before the slot is restored */
    void *saved = device->textures[0] != NULL ? device->textures[0]->res.handle : NULL;
    const uint8_t *v = (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)decl->layout.stride;
    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = XGD_PRIMITIVE_TRIANGLE_LIST;
    draw.index_size = 2;
    draw.index_buffer = indices;
    for (int i = 0; i < run_count; i++) {
        bind_slot0(device, (xgd_texture *)xgdi_handle_get(runs[i].texture, XGDI_RES_TEXTURE));
        int q = runs[i].quad_count;
        /* every draw's checks (the device, the program, the stale slots): before run 0 they
           may refuse the whole call, which then changes nothing; after it only slot 0 is
           stale, and its texture passed above */
        r = xgdi_draw_check_common(device, XGD_PRIMITIVE_TRIANGLE_LIST, q * 2);
        if (r == XGD_OK) {
            draw.primitive_count = q * 2;
            draw.vertex_count = q * 6;
            draw.user_vertices = v;
            draw.user_vertex_count = q * 4;
            draw.state = NULL;
            r = xgdi_draw_submit(device, &draw, &decl->layout);
        }
        if (r != XGD_OK) {
            bind_slot0(device, saved != NULL ? (xgd_texture *)xgdi_handle_get(saved, XGDI_RES_TEXTURE) : NULL);
            return r;
        }
        v += (size_t)q * 4 * (size_t)decl->layout.stride;
    }
    return XGD_OK;
}
