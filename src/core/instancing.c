/*
 * instancing.c - XNA's SetVertexBuffers / GetVertexBuffers and DrawInstancedPrimitives, and
 * the draws that read several vertex buffers.
 *
 * The bindings live in the device (vertex_bindings; binding 0 doubles as vertex_buffer /
 * vertex_offset, which the single-buffer draws of draw.c read). A draw with several bindings,
 * a per-instance binding or more than one instance comes here: the bindings are checked,
 * their elements combined into one layout in binding order (what the user program's inputs
 * are looked up in), and the renderer gets the streams (renderer.h, xgdi_draw). Nothing is
 * allocated per draw.
 */
#include "internal.h"

#include <stdint.h>
#include <string.h>

static const char *const usage_names[XGD_VERTEX_USAGE_COUNT] = {
    "Position", "Color", "TextureCoordinate", "Normal", "Binormal", "Tangent",
    "BlendIndices", "BlendWeight", "Depth", "Fog", "PointSize", "Sample", "TessellateFactor" };

static const char *usage_name(xgd_vertex_element_usage u)
{
    return (unsigned)u < XGD_VERTEX_USAGE_COUNT ? usage_names[u] : "?";
}

xgd_result xgd_set_vertex_buffers(xgd_device *device, const xgd_vertex_buffer_binding *bindings,
                                  int count)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (count < 0 || count > XGD_MAX_VERTEX_BUFFER_BINDINGS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "%d vertex buffer bindings: 0..%d are allowed", count,
                         XGD_MAX_VERTEX_BUFFER_BINDINGS);
    if (count > 0 && bindings == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "bindings is NULL (count %d)",
                         count);
    /* everything is checked before anything changes */
    xgd_vertex_buffer_binding resolved[XGD_MAX_VERTEX_BUFFER_BINDINGS];
    for (int i = 0; i < count; i++) {
        const xgd_vertex_buffer_binding *b = &bindings[i];
        if (b->buffer == NULL)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "binding %d has no vertex buffer", i);
        xgd_vertex_buffer *vb = xgdi_resolve(device, b->buffer, XGDI_RES_VERTEX_BUFFER,
                                             "vertex buffer", &r);
        if (r != XGD_OK) return r;
        r = xgdi_check_resource(device, &vb->buf.res, XGDI_RES_VERTEX_BUFFER, "vertex buffer");
        if (r != XGD_OK) return r;
        if (b->vertex_offset < 0 || b->vertex_offset >= vb->vertex_count)
            return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "binding %d: vertex_offset %d is outside the buffer's %d vertices",
                             i, b->vertex_offset, vb->vertex_count);
        if (b->instance_frequency < 0)
            return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "binding %d: instance_frequency %d is negative (0 = per-vertex "
                             "data)",
                             i, b->instance_frequency);
        /* XNA's Reach profile has no instancing (HiDef only, as DrawInstancedPrimitives). */
        if (b->instance_frequency > 0 && device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
            return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                             "binding %d: per-instance data (instance_frequency %d) needs the "
                             "HiDef profile; Reach has no instancing",
                             i, b->instance_frequency);
        resolved[i] = (xgd_vertex_buffer_binding){ vb, b->vertex_offset, b->instance_frequency };
    }
    xgd_vertex_buffer *first = count > 0 ? resolved[0].buffer : NULL;
    if (device->vertex_buffer != first) device->draw_state.dirty |= XGDI_DIRTY_LAYOUT;
    device->vertex_buffer = first;
    device->vertex_offset = count > 0 ? resolved[0].vertex_offset : 0;
    if (count > 0) memcpy(device->vertex_bindings, resolved, sizeof *resolved * (size_t)count);
    device->vertex_binding_count = count;
    return XGD_OK;
}

xgd_result xgd_get_vertex_buffers(xgd_device *device, xgd_vertex_buffer_binding *out,
                                  int capacity, int *count)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (count == NULL || capacity < 0 || (out == NULL && capacity > 0))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "count is NULL, capacity %d is negative, or out is NULL", capacity);
    int n = device->vertex_binding_count;
    for (int i = 0; i < n && i < capacity; i++) {
        out[i] = device->vertex_bindings[i];
        out[i].buffer = device->vertex_bindings[i].buffer != NULL
                            ? device->vertex_bindings[i].buffer->buf.res.handle
                            : NULL;
    }
    *count = n;
    return XGD_OK;
}

/* The draw.c draws route here when the bindings need it. */
bool xgdi_draw_needs_bindings(const xgd_device *dev)
{
    return dev->vertex_binding_count > 1 ||
           (dev->vertex_binding_count == 1 && dev->vertex_bindings[0].instance_frequency > 0);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        h ^= (v >> (8 * i)) & 0xFFu;
        h *= 1099511628211ull;
    }
    return h;
}

/*
 * A draw through the bindings: indexed (start_index, base_vertex) or not (start_vertex), of
 * instance_count instances. The caller checked the device, the program and the primitives.
 * Binding rules: every binding holds a live buffer with storage, at least one holds
 * per-vertex data, the bindings' elements together are at most 16 and name no usage and
 * index twice (Direct3D 9 builds one vertex declaration from all streams, which allows each
 * once), and the program's inputs are all among them.
 */
xgd_result xgdi_draw_bindings(xgd_device *dev, xgd_primitive_type type, bool indexed,
                              int start_vertex, int base_vertex, int start_index,
                              int primitive_count, int instance_count)
{
    int n = dev->vertex_binding_count;
    if (n == 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "a vertex buffer must be set before drawing (xgd_set_vertex_buffer or "
                         "xgd_set_vertex_buffers)");
    int primary = -1, total = 0;
    for (int i = 0; i < n; i++) {
        xgd_vertex_buffer *vb = dev->vertex_bindings[i].buffer;
        if (vb == NULL)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the vertex buffer of binding %d was destroyed", i);
        xgd_result r =
            xgdi_check_resource(dev, &vb->buf.res, XGDI_RES_VERTEX_BUFFER, "vertex buffer");
        if (r != XGD_OK) return r;
        if (vb->buf.native == NULL)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the vertex buffer of binding %d has no storage (its recovery "
                             "failed); set its data again",
                             i);
        if (primary < 0 && dev->vertex_bindings[i].instance_frequency == 0) primary = i;
        total += vb->layout.count;
    }
    if (primary < 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "every vertex buffer binding holds per-instance data: at least one "
                         "must hold per-vertex data (instance_frequency 0)");
    if (total > 16)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the vertex buffer bindings hold %d elements together; at most 16 are "
                         "allowed",
                         total);
    /* the combined layout, each usage and index once */
    xgdi_vertex_layout *cl = &dev->stream_layout;
    cl->count = 0;
    cl->stride = 0;
    uint64_t h = 14695981039346656037ull;
    for (int i = 0; i < n; i++) {
        const xgdi_vertex_layout *l = &dev->vertex_bindings[i].buffer->layout;
        h = mix(h, l->hash);
        h = mix(h, (uint64_t)(uint32_t)dev->vertex_bindings[i].instance_frequency);
        for (int e = 0; e < l->count; e++) {
            const xgd_vertex_element *el = &l->elements[e];
            for (int j = 0; j < cl->count; j++) {
                if (cl->elements[j].usage == el->usage &&
                    cl->elements[j].usage_index == el->usage_index)
                    return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                     "%s%d is in the declarations of bindings %d and %d; a "
                                     "usage and index may appear in one binding only",
                                     usage_name(el->usage), el->usage_index,
                                     dev->element_stream[j], i);
            }
            dev->element_stream[cl->count] = (uint8_t)i;
            cl->elements[cl->count++] = *el;
        }
    }
    cl->hash = h;
    bool user = dev->program == XGDI_PROGRAM_USER;
    const xgd_vertex_buffer *pvb = dev->vertex_bindings[primary].buffer;
    /* stock programs read the first per-vertex binding; user programs every binding */
    xgd_result r = xgdi_draw_check_layout(dev, user ? cl : &pvb->layout);
    if (r != XGD_OK) return r;

    /* ranges: every per-vertex binding holds every vertex read, every per-instance binding
       the elements instance_count instances read */
    int64_t available = INT64_MAX;
    for (int i = 0; i < n; i++) {
        const xgd_vertex_buffer_binding *b = &dev->vertex_bindings[i];
        int64_t avail = (int64_t)b->buffer->vertex_count - b->vertex_offset;
        if (b->instance_frequency == 0) {
            if (avail < available) available = avail;
            continue;
        }
        int64_t need = ((int64_t)instance_count + b->instance_frequency - 1) /
                       b->instance_frequency;
        if (need > avail)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "%d instances at frequency %d read %lld elements of binding %d, "
                             "which holds %lld after its vertex offset",
                             instance_count, b->instance_frequency, (long long)need, i,
                             (long long)avail);
    }
    int64_t count = xgdi_vertices_for(type, primitive_count);
    xgd_index_buffer *ib = NULL;
    if (indexed) {
        r = xgdi_draw_check_index_range(dev, base_vertex, start_index, count, available, &ib);
        if (r != XGD_OK) return r;
    } else if ((int64_t)start_vertex + count > available) {
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "vertices %d..%lld (after the vertex offsets) are beyond the %lld "
                         "vertices every per-vertex binding holds",
                         start_vertex, (long long)(start_vertex + count - 1),
                         (long long)available);
    }

    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = type;
    draw.primitive_count = primitive_count;
    draw.vertex_count = (int)count;
    draw.vertex_buffer = pvb->buf.native;
    draw.vertex_offset =
        (size_t)dev->vertex_bindings[primary].vertex_offset * (size_t)pvb->layout.stride;
    draw.first_vertex = indexed ? 0 : start_vertex;
    if (indexed) {
        int isize = ib->element_size == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
        draw.index_size = isize;
        draw.index_buffer = ib->buf.native;
        draw.index_offset = (size_t)start_index * (size_t)isize;
        draw.base_vertex = base_vertex;
    }
    draw.instance_count = instance_count;
    if (user && n > 1) {
        for (int i = 0; i < n; i++) {
            const xgd_vertex_buffer_binding *b = &dev->vertex_bindings[i];
            xgdi_vertex_stream *s = &dev->draw_streams[i];
            s->buffer = b->buffer->buf.native;
            s->stride = b->buffer->layout.stride;
            s->offset = (size_t)b->vertex_offset * (size_t)s->stride;
            s->readable = (size_t)(b->buffer->vertex_count - b->vertex_offset);
            s->instance_frequency = b->instance_frequency;
        }
        draw.stream_count = n;
        draw.streams = dev->draw_streams;
        draw.stream_layout = cl;
        draw.element_stream = dev->element_stream;
        /* the renderer's pipeline depends on every stream, which the layout pointer alone
           does not show: mark it changed here and for the next draw */
        dev->draw_state.dirty |= XGDI_DIRTY_LAYOUT;
    }
    r = xgdi_draw_submit(dev, &draw, &pvb->layout);
    if (draw.stream_count > 0) {
        dev->draw_state.layout = NULL;
        xgdi_forget_user_draw(dev); /* internal.h user_decl_handle */
    }
    return r;
}

xgd_result xgd_draw_instanced_primitives(xgd_device *device, xgd_primitive_type type,
                                         int base_vertex, int min_vertex_index, int num_vertices,
                                         int start_index, int primitive_count,
                                         int instance_count)
{
    xgd_result r = xgdi_draw_check_common(device, type, primitive_count);
    if (r != XGD_OK) return r;
    if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "DrawInstancedPrimitives needs the HiDef profile; Reach has no "
                         "instancing");
    if (min_vertex_index < 0 || num_vertices <= 0 || start_index < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "min_vertex_index %d and start_index %d must not be negative, "
                         "num_vertices %d must be > 0",
                         min_vertex_index, start_index, num_vertices);
    if (instance_count <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "instance_count %d must be > 0",
                         instance_count);
    return xgdi_draw_bindings(device, type, true, 0, base_vertex, start_index, primitive_count,
                              instance_count);
}
