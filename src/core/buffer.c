/*
 * buffer.c - vertex declarations, vertex and index buffers, and their bindings.
 *
 * Every buffer keeps a CPU shadow of its contents: get_data reads it (no GPU round trip), and
 * after a context loss recreate_native uploads it again, so buffers survive recovery with
 * their data like XNA's managed buffers.
 */
#include "internal.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- vertex declarations ------------------------------------------------------------------- */

/* Direct3D's and Vulkan's guaranteed minimum for a vertex stride. */
#define MAX_VERTEX_STRIDE 2048

static int element_size(xgd_vertex_element_format f)
{
    switch (f) {
    case XGD_VERTEX_FORMAT_SINGLE: return 4;
    case XGD_VERTEX_FORMAT_VECTOR2: return 8;
    case XGD_VERTEX_FORMAT_VECTOR3: return 12;
    case XGD_VERTEX_FORMAT_VECTOR4: return 16;
    case XGD_VERTEX_FORMAT_COLOR: return 4;
    case XGD_VERTEX_FORMAT_BYTE4: return 4;
    case XGD_VERTEX_FORMAT_SHORT2: return 4;
    case XGD_VERTEX_FORMAT_SHORT4: return 8;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT2: return 4;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT4: return 8;
    case XGD_VERTEX_FORMAT_HALF_VECTOR2: return 4;
    case XGD_VERTEX_FORMAT_HALF_VECTOR4: return 8;
    default: return 0;
    }
}

/* FNV-1a over the values (not the struct bytes, which may hold padding). */
static uint64_t hash_int(uint64_t h, int v)
{
    uint32_t u = (uint32_t)v;
    for (int i = 0; i < 4; i++) {
        h ^= (u >> (8 * i)) & 0xFFu;
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t layout_hash(const xgdi_vertex_layout *l)
{
    uint64_t h = 14695981039346656037ull;
    h = hash_int(h, l->stride);
    h = hash_int(h, l->count);
    for (int i = 0; i < l->count; i++) {
        h = hash_int(h, l->elements[i].offset);
        h = hash_int(h, (int)l->elements[i].format);
        h = hash_int(h, (int)l->elements[i].usage);
        h = hash_int(h, l->elements[i].usage_index);
    }
    return h;
}

/* XNA VertexDeclaration's checks: known formats and usages, offsets that are multiples of
 * four (every vertex format is a whole number of 32-bit words), no two elements overlapping or
 * sharing a usage and index, all inside the stride. */
static xgd_result build_layout(xgd_device *dev, const xgd_vertex_element *elements, int count,
                               int stride, xgdi_vertex_layout *out)
{
    if (elements == NULL || count <= 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "a vertex declaration needs elements");
    if (count > (int)(sizeof out->elements / sizeof out->elements[0]))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "%d vertex elements; at most 16 are supported", count);
    if (stride < 0 || stride > MAX_VERTEX_STRIDE || stride % 4 != 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "vertex stride %d must be a multiple of 4 in 0..%d", stride,
                         MAX_VERTEX_STRIDE);
    int needed = 0;
    for (int i = 0; i < count; i++) {
        const xgd_vertex_element *e = &elements[i];
        int size = (unsigned)e->format < XGD_VERTEX_FORMAT_COUNT ? element_size(e->format) : 0;
        if (size == 0)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "vertex element %d: unknown format %d", i, (int)e->format);
        if ((unsigned)e->usage >= XGD_VERTEX_USAGE_COUNT)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "vertex element %d: unknown usage %d", i, (int)e->usage);
        if (e->usage_index < 0 || e->usage_index > 15)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "vertex element %d: usage index %d outside 0..15", i,
                             e->usage_index);
        if (e->offset < 0 || e->offset % 4 != 0 || e->offset > MAX_VERTEX_STRIDE - size)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "vertex element %d: offset %d must be a non-negative multiple of 4 "
                             "inside the vertex",
                             i, e->offset);
        if (e->offset + size > needed) needed = e->offset + size;
        for (int j = 0; j < i; j++) {
            const xgd_vertex_element *o = &elements[j];
            int osize = element_size(o->format);
            if (e->offset < o->offset + osize && o->offset < e->offset + size)
                return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                                 "vertex elements %d and %d overlap", j, i);
            if (e->usage == o->usage && e->usage_index == o->usage_index)
                return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                                 "vertex elements %d and %d have the same usage and index", j,
                                 i);
        }
    }
    if (stride == 0) stride = needed;
    if (needed > stride)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "vertex elements need %d bytes but the stride is %d", needed, stride);
    memset(out, 0, sizeof *out);
    out->stride = stride;
    out->count = count;
    memcpy(out->elements, elements, (size_t)count * sizeof *elements);
    out->hash = layout_hash(out);
    return XGD_OK;
}

static xgd_result create_declaration(xgd_device *device, const xgd_vertex_element *elements,
                                     int count, int stride, bool device_owned,
                                     xgd_vertex_declaration **out)
{
    xgdi_vertex_layout layout;
    xgd_result r = build_layout(device, elements, count, stride, &layout);
    if (r != XGD_OK) return r;
    xgd_vertex_declaration *decl = calloc(1, sizeof *decl);
    if (decl == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    decl->layout = layout;
    r = xgdi_resource_register(device, &decl->res, XGDI_RES_VERTEX_DECLARATION, NULL);
    if (r != XGD_OK) {
        free(decl);
        return r;
    }
    decl->res.device_owned = device_owned;
    *out = decl;
    return XGD_OK;
}

xgd_result xgd_vertex_declaration_create(xgd_device *device, const xgd_vertex_element *elements,
                                         int count, int stride, xgd_vertex_declaration **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    xgd_vertex_declaration *decl = NULL;
    r = create_declaration(device, elements, count, stride, false, &decl);
    if (r == XGD_OK) *out = decl->res.handle;
    return r;
}

/* The stock vertex types, laid out from the public structs so the declarations cannot drift
 * from what the compiler lays out. */
xgd_result xgdi_create_stock_declarations(xgd_device *dev)
{
    const xgd_vertex_element pc[] = {
        { offsetof(xgd_vertex_position_color, position), XGD_VERTEX_FORMAT_VECTOR3,
          XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(xgd_vertex_position_color, color), XGD_VERTEX_FORMAT_COLOR,
          XGD_VERTEX_USAGE_COLOR, 0 },
    };
    const xgd_vertex_element pt[] = {
        { offsetof(xgd_vertex_position_texture, position), XGD_VERTEX_FORMAT_VECTOR3,
          XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(xgd_vertex_position_texture, texture_coordinate), XGD_VERTEX_FORMAT_VECTOR2,
          XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    const xgd_vertex_element pct[] = {
        { offsetof(xgd_vertex_position_color_texture, position), XGD_VERTEX_FORMAT_VECTOR3,
          XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(xgd_vertex_position_color_texture, color), XGD_VERTEX_FORMAT_COLOR,
          XGD_VERTEX_USAGE_COLOR, 0 },
        { offsetof(xgd_vertex_position_color_texture, texture_coordinate),
          XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    const xgd_vertex_element pnt[] = {
        { offsetof(xgd_vertex_position_normal_texture, position), XGD_VERTEX_FORMAT_VECTOR3,
          XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(xgd_vertex_position_normal_texture, normal), XGD_VERTEX_FORMAT_VECTOR3,
          XGD_VERTEX_USAGE_NORMAL, 0 },
        { offsetof(xgd_vertex_position_normal_texture, texture_coordinate),
          XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    struct {
        const xgd_vertex_element *e;
        int count, stride;
    } stock[4] = {
        { pc, 2, (int)sizeof(xgd_vertex_position_color) },
        { pt, 2, (int)sizeof(xgd_vertex_position_texture) },
        { pct, 3, (int)sizeof(xgd_vertex_position_color_texture) },
        { pnt, 3, (int)sizeof(xgd_vertex_position_normal_texture) },
    };
    for (int i = 0; i < 4; i++) {
        if (dev->stock_declarations[i] != NULL) continue;
        xgd_result r = create_declaration(dev, stock[i].e, stock[i].count, stock[i].stride, true,
                                          &dev->stock_declarations[i]);
        if (r != XGD_OK) return r;
    }
    return XGD_OK;
}

xgd_vertex_declaration *xgd_vertex_declaration_stock(xgd_device *device, xgd_stock_vertex kind)
{
    if (device == NULL || device->destroying || (unsigned)kind > XGD_VERTEX_POSITION_NORMAL_TEXTURE)
        return NULL;
    return XGDI_HANDLE_OF(device->stock_declarations[kind]);
}

/* Buffers copy the layout at creation, so a declaration can go while buffers still use it.
 * draw_state forgets a layout that goes away, so pointer comparison detects layout changes. */
void xgd_vertex_declaration_destroy(xgd_vertex_declaration *decl)
{
    XGDI_RESOLVE_DESTROY(decl, XGDI_RES_VERTEX_DECLARATION);
    if (decl == NULL || decl->res.device_owned) return;
    xgd_device *dev = xgdi_resource_device(&decl->res);
    if (dev != NULL && dev->draw_state.layout == &decl->layout) {
        dev->draw_state.layout = NULL;
        dev->draw_state.dirty |= XGDI_DIRTY_LAYOUT;
    }
    if (dev != NULL && dev->user_decl_layout == &decl->layout) {
        xgdi_forget_user_draw(dev);
        dev->user_decl_layout = NULL;
    }
    xgdi_resource_dispose(&decl->res);
    free(decl);
}

int xgd_vertex_declaration_stride(const xgd_vertex_declaration *decl)
{
    XGDI_RESOLVE_OR(NULL, decl, XGDI_RES_VERTEX_DECLARATION, "declaration", 0);
    return decl != NULL ? decl->layout.stride : 0;
}

/* ---- buffers: native part ------------------------------------------------------------------ */

/* The device through the token even while it is being destroyed (xgdi_resource_device says
 * NULL then), because device teardown releases native parts before the renderer goes. */
static xgd_device *owner_device(const xgdi_resource *res)
{
    return res->token != NULL ? res->token->device : NULL;
}

static void buffer_release_native(xgdi_resource *res)
{
    xgdi_buffer *b = (xgdi_buffer *)res;
    xgd_device *dev = owner_device(res);
    if (b->native != NULL && dev != NULL && dev->renderer != NULL)
        dev->ops->buffer_destroy(dev->renderer, b->native);
    b->native = NULL;
}

static xgd_result buffer_create_native(xgd_device *dev, xgdi_buffer *b, xgdi_buffer_kind kind,
                                       bool upload)
{
    xgdi_native_buffer *native = NULL;
    xgd_result r = dev->ops->buffer_create(dev->renderer, kind, b->size, b->dynamic, &native);
    if (r != XGD_OK) return r;
    if (upload) {
        r = dev->ops->buffer_upload(dev->renderer, native, 0, b->shadow, b->size,
                                    XGD_SET_DATA_NONE);
        if (r != XGD_OK) {
            dev->ops->buffer_destroy(dev->renderer, native);
            return r;
        }
    }
    b->native = native;
    return XGD_OK;
}

static xgd_result vertex_recreate_native(xgdi_resource *res)
{
    xgd_device *dev = owner_device(res);
    if (dev == NULL || dev->renderer == NULL) return XGD_ERROR_DEVICE_LOST;
    if (((xgdi_buffer *)res)->native != NULL) return XGD_OK;
    return buffer_create_native(dev, (xgdi_buffer *)res, XGDI_BUFFER_VERTEX, true);
}

static xgd_result index_recreate_native(xgdi_resource *res)
{
    xgd_device *dev = owner_device(res);
    if (dev == NULL || dev->renderer == NULL) return XGD_ERROR_DEVICE_LOST;
    if (((xgdi_buffer *)res)->native != NULL) return XGD_OK;
    return buffer_create_native(dev, (xgdi_buffer *)res, XGDI_BUFFER_INDEX, true);
}

static const xgdi_resource_vtable vertex_vtable = { buffer_release_native,
                                                    vertex_recreate_native, NULL };
static const xgdi_resource_vtable index_vtable = { buffer_release_native, index_recreate_native,
                                                   NULL };

/* ---- buffers: create / destroy ------------------------------------------------------------- */

static xgd_result init_buffer(xgd_device *dev, xgdi_buffer *b, xgdi_buffer_kind kind, size_t size,
                              bool dynamic, bool write_only)
{
    b->size = size;
    b->dynamic = dynamic;
    b->write_only = write_only;
    /* Zero-filled, so a buffer read before any set_data is defined on every renderer. */
    b->shadow = calloc(1, size);
    if (b->shadow == NULL)
        return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory for a %zu-byte buffer", size);
    xgd_result r = buffer_create_native(dev, b, kind, true);
    if (r != XGD_OK) {
        free(b->shadow);
        b->shadow = NULL;
    }
    return r;
}

xgd_result xgd_vertex_buffer_create(xgd_device *device, const xgd_vertex_buffer_desc *desc,
                                    xgd_vertex_buffer **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL || desc == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "desc or out is NULL");
    const xgd_vertex_declaration *declaration = desc->declaration;
    XGDI_RESOLVE(device, declaration, XGDI_RES_VERTEX_DECLARATION, "desc->declaration");
    r = xgdi_check_resource(device, declaration != NULL ? &declaration->res : NULL,
                            XGDI_RES_VERTEX_DECLARATION, "desc->declaration");
    if (r != XGD_OK) return r;
    if (desc->vertex_count <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex_count %d must be > 0",
                         desc->vertex_count);
    size_t stride = (size_t)declaration->layout.stride;
    if ((size_t)desc->vertex_count > (SIZE_MAX / 2) / stride)
        return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "vertex buffer too large");
    xgd_vertex_buffer *vb = calloc(1, sizeof *vb);
    if (vb == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    r = init_buffer(device, &vb->buf, XGDI_BUFFER_VERTEX, (size_t)desc->vertex_count * stride,
                    desc->dynamic, desc->write_only);
    if (r != XGD_OK) {
        free(vb);
        return r;
    }
    vb->declaration = desc->declaration;
    vb->layout = declaration->layout;
    vb->vertex_count = desc->vertex_count;
    r = xgdi_resource_register(device, &vb->buf.res, XGDI_RES_VERTEX_BUFFER, &vertex_vtable);
    if (r != XGD_OK) {
        device->ops->buffer_destroy(device->renderer, vb->buf.native);
        free(vb->buf.shadow);
        free(vb);
        return r;
    }
    device->stats.buffers_created++;
    *out = vb->buf.res.handle;
    return XGD_OK;
}

static int index_bytes(xgd_index_element_size s)
{
    return s == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
}

xgd_result xgd_index_buffer_create(xgd_device *device, const xgd_index_buffer_desc *desc,
                                   xgd_index_buffer **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL || desc == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "desc or out is NULL");
    xgd_index_element_size es = desc->element_size;
    if ((unsigned)es > XGD_INDEX_THIRTY_TWO_BITS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown index element size %d",
                         (int)es);
    if (es == XGD_INDEX_DEFAULT) es = XGD_INDEX_SIXTEEN_BITS;
    /* XNA: the Reach profile has no 32-bit indices (NotSupportedException). */
    if (es == XGD_INDEX_THIRTY_TWO_BITS && device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "the Reach profile does not support 32-bit indices");
    if (desc->index_count <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "index_count %d must be > 0",
                         desc->index_count);
    size_t elem = (size_t)index_bytes(es), bytes = 0;
    /* As vertex buffers: a byte count that would wrap size_t (32-bit hosts) is refused. */
    if (!xgdi_size_mul((size_t)desc->index_count, elem, &bytes) || bytes > SIZE_MAX / 2)
        return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "index buffer too large");
    xgd_index_buffer *ib = calloc(1, sizeof *ib);
    if (ib == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    r = init_buffer(device, &ib->buf, XGDI_BUFFER_INDEX, bytes, desc->dynamic, desc->write_only);
    if (r != XGD_OK) {
        free(ib);
        return r;
    }
    ib->element_size = es;
    ib->index_count = desc->index_count;
    r = xgdi_resource_register(device, &ib->buf.res, XGDI_RES_INDEX_BUFFER, &index_vtable);
    if (r != XGD_OK) {
        device->ops->buffer_destroy(device->renderer, ib->buf.native);
        free(ib->buf.shadow);
        free(ib);
        return r;
    }
    device->stats.buffers_created++;
    *out = ib->buf.res.handle;
    return XGD_OK;
}

/* A bound buffer is unbound first, so the device never holds a freed pointer; a later draw
 * then reports the missing buffer. */
void xgd_vertex_buffer_destroy(xgd_vertex_buffer *buffer)
{
    XGDI_RESOLVE_DESTROY(buffer, XGDI_RES_VERTEX_BUFFER);
    if (buffer == NULL) return;
    xgd_device *dev = xgdi_resource_device(&buffer->buf.res);
    if (dev != NULL && dev->vertex_buffer == buffer) {
        dev->vertex_buffer = NULL;
        dev->vertex_offset = 0;
    }
    for (int i = 0; dev != NULL && i < dev->vertex_binding_count; i++)
        if (dev->vertex_bindings[i].buffer == buffer) dev->vertex_bindings[i].buffer = NULL;
    if (dev != NULL && dev->draw_state.layout == &buffer->layout) {
        dev->draw_state.layout = NULL;
        dev->draw_state.dirty |= XGDI_DIRTY_LAYOUT;
        xgdi_forget_user_draw(dev); /* internal.h user_decl_handle */
    }
    xgdi_resource_dispose(&buffer->buf.res);
    free(buffer->buf.shadow);
    free(buffer);
}

void xgd_index_buffer_destroy(xgd_index_buffer *buffer)
{
    XGDI_RESOLVE_DESTROY(buffer, XGDI_RES_INDEX_BUFFER);
    if (buffer == NULL) return;
    xgd_device *dev = xgdi_resource_device(&buffer->buf.res);
    if (dev != NULL && dev->index_buffer == buffer) dev->index_buffer = NULL;
    xgdi_resource_dispose(&buffer->buf.res);
    free(buffer->buf.shadow);
    free(buffer);
}

/* ---- buffers: data ------------------------------------------------------------------------- */

static xgd_result check_range(xgd_device *dev, const xgdi_buffer *b, size_t offset, size_t size,
                              size_t align)
{
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "range [%zu, +%zu) is outside the %zu-byte buffer", offset, size,
                         b->size);
    if (offset % align != 0 || size % align != 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "offset %zu and size %zu must be multiples of the %zu-byte index", offset,
                         size, align);
    return XGD_OK;
}

static xgd_result set_data(xgdi_buffer *b, xgdi_resource_type type, xgdi_buffer_kind kind,
                           size_t align, size_t offset, const void *data, size_t size,
                           xgd_set_data_options options)
{
    xgd_result r = xgdi_check_resource(NULL, &b->res, type, "buffer");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&b->res);
    r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (data == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    /* XNA's VertexBuffer/IndexBuffer.SetData throw ArgumentOutOfRangeException for an
       elementCount of 0: a write of no elements is a caller error, not a no-op. */
    if (size == 0)
        return xgdi_fail(dev, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                         "size is 0: SetData needs at least one element");
    if ((unsigned)options > XGD_SET_DATA_NO_OVERWRITE)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown set-data options %d",
                         (int)options);
    /* XNA exposes SetDataOptions only on DynamicVertexBuffer/DynamicIndexBuffer, so the
       options are an argument a static buffer does not take (xgd.h: INVALID_ARGUMENT). */
    if (options != XGD_SET_DATA_NONE && !b->dynamic)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "Discard and NoOverwrite need a dynamic buffer");
    r = check_range(dev, b, offset, size, align);
    if (r != XGD_OK) return r;
    /* A buffer whose recreation failed after a restore gets its storage back first. */
    if (b->native == NULL) {
        r = buffer_create_native(dev, b, kind, true);
        if (r != XGD_OK) return r;
    }
    r = dev->ops->buffer_upload(dev->renderer, b->native, offset, data, size, options);
    if (r != XGD_OK) return r;
    memcpy(b->shadow + offset, data, size);
    return XGD_OK;
}

/* Reads the shadow: the exact bytes written, with no renderer round trip. */
static xgd_result get_data(const xgdi_buffer *b, xgdi_resource_type type, size_t align,
                           size_t offset, void *data, size_t size)
{
    xgd_result r = xgdi_check_resource(NULL, &b->res, type, "buffer");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&b->res);
    if (data == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "data is NULL");
    /* XNA BufferUsage.WriteOnly: reading back is refused. */
    if (b->write_only)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the buffer was created write-only; get_data is not allowed");
    r = check_range(dev, b, offset, size, align);
    if (r != XGD_OK) return r;
    if (size > 0) memcpy(data, b->shadow + offset, size);
    return XGD_OK;
}

xgd_result xgd_vertex_buffer_set_data(xgd_vertex_buffer *buffer, size_t offset, const void *data,
                                      size_t size, xgd_set_data_options options)
{
    XGDI_RESOLVE(NULL, buffer, XGDI_RES_VERTEX_BUFFER, "buffer");
    if (buffer == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    return set_data(&buffer->buf, XGDI_RES_VERTEX_BUFFER, XGDI_BUFFER_VERTEX, 1, offset, data,
                    size, options);
}

xgd_result xgd_vertex_buffer_get_data(xgd_vertex_buffer *buffer, size_t offset, void *data,
                                      size_t size)
{
    XGDI_RESOLVE(NULL, buffer, XGDI_RES_VERTEX_BUFFER, "buffer");
    if (buffer == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    return get_data(&buffer->buf, XGDI_RES_VERTEX_BUFFER, 1, offset, data, size);
}

xgd_result xgd_index_buffer_set_data(xgd_index_buffer *buffer, size_t offset, const void *data,
                                     size_t size, xgd_set_data_options options)
{
    XGDI_RESOLVE(NULL, buffer, XGDI_RES_INDEX_BUFFER, "buffer");
    if (buffer == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    size_t isize = (size_t)index_bytes(buffer->element_size);
    xgd_result r = set_data(&buffer->buf, XGDI_RES_INDEX_BUFFER, XGDI_BUFFER_INDEX, isize, offset,
                            data, size, options);
    if (r != XGD_OK || size == 0) return r;
    /* The bounds draw.c trusts: widened by this write, or exact when it replaced everything
       (the rest of the buffer no longer holds older values). */
    uint32_t lo = UINT32_MAX, hi = 0;
    const uint8_t *p = data;
    for (size_t i = 0; i < size; i += isize) {
        uint32_t v;
        if (isize == 2) {
            uint16_t x;
            memcpy(&x, p + i, 2);
            v = x;
        } else {
            memcpy(&v, p + i, 4);
        }
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    if (offset == 0 && size == buffer->buf.size) {
        buffer->index_min = lo;
        buffer->index_max = hi;
    } else {
        if (lo < buffer->index_min) buffer->index_min = lo;
        if (hi > buffer->index_max) buffer->index_max = hi;
    }
    return XGD_OK;
}

xgd_result xgd_index_buffer_get_data(xgd_index_buffer *buffer, size_t offset, void *data,
                                     size_t size)
{
    XGDI_RESOLVE(NULL, buffer, XGDI_RES_INDEX_BUFFER, "buffer");
    if (buffer == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "buffer is NULL");
    return get_data(&buffer->buf, XGDI_RES_INDEX_BUFFER,
                    (size_t)index_bytes(buffer->element_size), offset, data, size);
}

/* ---- bindings ------------------------------------------------------------------------------ */

/* XNA SetVertexBuffer(vb, vertexOffset): the offset is in vertices and must name a vertex of
 * the buffer (ArgumentOutOfRangeException otherwise). Public state only; a lost device
 * accepts it. */
xgd_result xgd_set_vertex_buffer(xgd_device *device, xgd_vertex_buffer *buffer, int vertex_offset)
{
    XGDI_RESOLVE(device, buffer, XGDI_RES_VERTEX_BUFFER, "buffer");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (vertex_offset < 0)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE, "vertex_offset %d is negative",
                         vertex_offset);
    if (buffer != NULL) {
        r = xgdi_check_resource(device, &buffer->buf.res, XGDI_RES_VERTEX_BUFFER, "buffer");
        if (r != XGD_OK) return r;
        if (vertex_offset >= buffer->vertex_count)
            return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "vertex_offset %d is beyond the buffer's %d vertices", vertex_offset,
                             buffer->vertex_count);
    } else {
        vertex_offset = 0;
    }
    if (device->vertex_buffer != buffer) device->draw_state.dirty |= XGDI_DIRTY_LAYOUT;
    device->vertex_buffer = buffer;
    device->vertex_offset = vertex_offset;
    device->vertex_binding_count = buffer != NULL ? 1 : 0;
    device->vertex_bindings[0] = (xgd_vertex_buffer_binding){ buffer, vertex_offset, 0 };
    return XGD_OK;
}

xgd_result xgd_set_indices(xgd_device *device, xgd_index_buffer *buffer)
{
    XGDI_RESOLVE(device, buffer, XGDI_RES_INDEX_BUFFER, "buffer");
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (buffer != NULL) {
        r = xgdi_check_resource(device, &buffer->buf.res, XGDI_RES_INDEX_BUFFER, "buffer");
        if (r != XGD_OK) return r;
    }
    device->index_buffer = buffer;
    return XGD_OK;
}
