/*
 * draw.c - the four XNA draw calls and the applied program (EffectPass.Apply).
 *
 * A draw validates everything first (no state changes on failure), then refreshes the
 * device's persistent xgdi_draw_state in place, setting a dirty bit for every part that
 * differs from what the renderer saw last, and hands the renderer one xgdi_draw. Nothing is
 * allocated per draw. The dirty mask is reset only after the renderer accepted the draw, so a
 * failed draw re-sends everything it did not get to see.
 */
#include "internal.h"

#include <stdint.h>
#include <string.h>

const uint64_t xgdi_no_user_decl = 0;

/* Vertices (or indices) a primitive count needs, in 64 bits so huge counts cannot wrap. */
static int64_t vertices_for(xgd_primitive_type type, int primitive_count)
{
    int64_t n = primitive_count;
    switch (type) {
    case XGD_PRIMITIVE_TRIANGLE_LIST: return 3 * n;
    case XGD_PRIMITIVE_TRIANGLE_STRIP: return n + 2;
    case XGD_PRIMITIVE_LINE_LIST: return 2 * n;
    case XGD_PRIMITIVE_LINE_STRIP: return n + 1;
    default: return 0;
    }
}

static xgd_result check_primitives(xgd_device *dev, xgd_primitive_type type, int primitive_count)
{
    if ((unsigned)type >= XGD_PRIMITIVE_COUNT)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown primitive type %d", (int)type);
    if (primitive_count <= 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "primitive_count %d must be > 0",
                         primitive_count);
    /* XNA 4.0's profiles cap one draw at MaxPrimitiveCount (HiDef 1,048,575, Reach 65,535) and
       throw NotSupportedException beyond it, on every draw call and every renderer. */
    int max = dev->max_primitive_count;
    if (primitive_count > max)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "primitive_count %d exceeds the %s profile's maximum of %d per draw",
                         primitive_count,
                         dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH ? "Reach" : "HiDef", max);
    return XGD_OK;
}

/* XNA refuses a draw whose vertex declaration lacks an input of the current vertex shader
 * ("The current vertex declaration does not include all the elements required by the current
 * vertex shader"). Renderers can then rely on the inputs being present. */
static xgd_result check_layout(xgd_device *dev, const xgdi_vertex_layout *l)
{
    /* The layout of the last draw passed against the same program (a program change is marked
       dirty until a draw succeeds; a destroyed layout is cleared from the draw state). */
    if (l == dev->draw_state.layout && !(dev->draw_state.dirty & XGDI_DIRTY_PROGRAM)) return XGD_OK;
    {
        /* every input the vertex shader reads, by usage and usage index */
        static const char *const usage_names[XGD_VERTEX_USAGE_COUNT] = {
            "Position", "Color", "TextureCoordinate", "Normal", "Binormal", "Tangent",
            "BlendIndices", "BlendWeight", "Depth", "Fog", "PointSize", "Sample",
            "TessellateFactor" };
        for (int i = 0; i < dev->user_input_count; i++) {
            const xgdi_shader_input *in = &dev->user_inputs[i];
            bool found = false;
            for (int j = 0; j < l->count && !found; j++)
                found = l->elements[j].usage == in->usage &&
                        l->elements[j].usage_index == in->usage_index;
            if (!found)
                return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                 "the current vertex declaration does not include all the "
                                 "elements required by the current vertex shader: %s%d is "
                                 "missing",
                                 (unsigned)in->usage < XGD_VERTEX_USAGE_COUNT
                                     ? usage_names[in->usage] : "?",
                                 in->usage_index);
        }
        return XGD_OK;
    }
    return XGD_OK;
}

/* Checks shared by all four draws: the device, the applied program, and the textures. */
static bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

/* The texture slots whose checks and draw state may be stale (bit i: slot i). What the slot
 * checks depend on (the slot's texture and sampler state, the program, the bound render
 * targets, the textures' storage) changes only through a setter that marks it dirty or through
 * xgdi_invalidate_draw_state (every bit), and the dirty bits are cleared only by a draw that
 * passed the checks: so every slot after a sampler, program or wholesale change, the changed
 * slots after texture changes alone, and none when nothing of theirs changed. The same holds
 * for the draw state's per-slot copies (prepare_state). (xgd_set_texture names no slot whose
 * new texture passed the slot's checks in this epoch, or that it emptied: it copies the
 * native texture into the draw state itself, and the memo stands for the checks.) */
static uint32_t stale_slots(const xgd_device *dev)
{
    const uint32_t all = (1u << XGDI_MAX_TEXTURE_SLOTS) - 1u;
    uint32_t d = dev->draw_state.dirty;
    if (d & (XGDI_DIRTY_SAMPLERS | XGDI_DIRTY_PROGRAM)) return all;
    if (d & XGDI_DIRTY_TEXTURES) return dev->draw_state.slots_changed & all;
    return 0;
}

static xgd_result check_slots(xgd_device *dev, uint32_t slots);

static xgd_result check_common(xgd_device *dev)
{
    xgd_result r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (!dev->program_set)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "a valid vertex shader and pixel shader must be set on the device "
                         "before any draw operations may be performed (apply an effect)");
    if (dev->draw_state.dirty & (XGDI_DIRTY_VERTEX_TEXTURES | XGDI_DIRTY_PROGRAM)) {
        xgd_result vr = xgdi_check_vertex_textures(dev);
        if (vr != XGD_OK) return vr;
    }
    uint32_t slots = stale_slots(dev);
    return slots == 0 ? XGD_OK : check_slots(dev, slots);
}

/* check_common's checks of the texture slots in `slots` (stale_slots). */
static xgd_result check_slots(xgd_device *dev, uint32_t slots)
{
    for (uint32_t m = slots; m != 0; m &= m - 1) {
        int i = xgdi_lowest_bit(m);
        xgd_texture *t = dev->textures[i];
        if (t == NULL) continue;
        if (xgdi_resource_device(&t->res) == NULL)
            return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED,
                             "the texture in slot %d is disposed", i);
        /* XNA: a render target cannot be sampled while it is bound for output. */
        for (int j = 0; j < dev->binding_count; j++) {
            if (dev->bindings[j].target == t)
                return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                 "the render target in texture slot %d is also bound as render "
                                 "target %d; unbind it before sampling it",
                                 i, j);
        }
        if (t->native == NULL)
            return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                             "the texture in slot %d has no storage (its recovery failed)", i);
        /* XNA's Reach profile samples a texture whose size is not a power of two only with
         * Clamp addressing (NotSupportedException at the draw, for every bound texture, as
         * XNA checks every sampler slot that holds one). Cube maps are powers of two there. */
        if (dev->desc.profile == XGD_GRAPHICS_PROFILE_REACH &&
            (t->kind == XGD_TEXTURE_2D || t->kind == XGD_RENDER_TARGET_2D) &&
            (!is_pow2(t->width) || !is_pow2(t->height))) {
            const xgd_sampler_desc *sd = &dev->sampler_states[i]->desc;
            if (sd->address_u != XGD_ADDRESS_CLAMP || sd->address_v != XGD_ADDRESS_CLAMP)
                return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                                 "Reach requires Clamp addressing for the %dx%d texture in slot "
                                 "%d, whose size is not a power of two",
                                 t->width, t->height, i);
        }
    }
    /* A pixel shader's sampler s reads slot s as the kind its code declares (renderer.h):
     * another kind is refused here, as Direct3D leaves such a mismatch undefined. */
    {
        for (uint32_t m = slots & ((1u << XGDI_SHADER_MAX_SAMPLERS) - 1u); m != 0; m &= m - 1) {
            int s = xgdi_lowest_bit(m);
            const xgd_texture *t = dev->textures[s];
            xgdi_sampler_kind k = dev->user_sampler_kinds[s];
            if (t == NULL || k == XGDI_SAMPLER_NONE) continue;
            bool cube = t->kind == XGD_TEXTURE_CUBE || t->kind == XGD_RENDER_TARGET_CUBE;
            bool vol = t->kind == XGD_TEXTURE_3D;
            bool ok = k == XGDI_SAMPLER_CUBE ? cube : k == XGDI_SAMPLER_3D ? vol : !cube && !vol;
            if (!ok)
                return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                                 "the pixel shader samples register s%d as a %s texture, but "
                                 "texture slot %d holds a %s",
                                 s, k == XGDI_SAMPLER_CUBE ? "cube" : k == XGDI_SAMPLER_3D ? "3D" : "2D",
                                 s, cube ? "cube texture" : vol ? "Texture3D" : "2D texture");
        }
        return XGD_OK;
    }
    return XGD_OK;
}

static bool viewport_equal(const xgd_viewport *a, const xgd_viewport *b)
{
    return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height &&
           a->min_depth == b->min_depth && a->max_depth == b->max_depth;
}

static bool rect_equal(const xgd_rect *a, const xgd_rect *b)
{
    return a->x == b->x && a->y == b->y && a->width == b->width && a->height == b->height;
}

/* Direct3D 9 pixel centres (XGD_PIXEL_CENTER_XNA): pixel (i, j) samples the geometry at
 * integer viewport coordinates, i.e. every primitive is rasterized half a pixel right of and
 * below where the renderers' Direct3D 10 rule puts it. The shift is the vertex block's
 * pixel_offset (renderer.h): clip.x += w / vp.width, clip.y -= w / vp.height (half a pixel of the logical
 * viewport in NDC, after the divide by w), which moves the geometry and its interpolated
 * attributes but not the clip volume: clipping stays on the viewport's whole pixels, as D3D9
 * clipped to its viewport rectangle. It uses the viewport of the draw, not of the apply,
 * because the rule belongs to rasterization. The presentation geometry scales the logical
 * viewport, so the half pixel is one of the canvas the game sees. Only user draws pass here;
 * clears, blits, mip generation, resolves, presentation and the depth-bias probe call the
 * renderer directly and keep their exact pixel grid. */
static void update_draw_constants(xgd_device *dev)
{
    xgdi_draw_state *s = &dev->draw_state;
    int w = dev->viewport.width, h = dev->viewport.height;
    /* the vertex block's last vec4 is the form's pixel_offset (renderer.h) */
    float off[4] = { 0, 0, 0, 0 };
    if (dev->desc.pixel_center == XGD_PIXEL_CENTER_XNA && w > 0 && h > 0) {
        off[0] = (float)(1.0 / (double)w);
        off[1] = (float)(-1.0 / (double)h);
    }
    if (dev->user_vs_count > 0) {
        float *dst = &dev->user_vs_constants[(dev->user_vs_count - 1) * 4];
        if (memcmp(dst, off, sizeof off) != 0) {
            memcpy(dst, off, sizeof off);
            s->dirty |= XGDI_DIRTY_CONSTANTS;
        }
    }
}

/* The draw state's copies of the stale texture slots (stale_slots). */
static void refresh_texture_slots(xgd_device *dev, uint32_t slots)
{
    xgdi_draw_state *s = &dev->draw_state;
    for (uint32_t m = slots; m != 0; m &= m - 1) {
        int i = xgdi_lowest_bit(m);
        xgdi_native_texture *nt = dev->textures[i] != NULL ? dev->textures[i]->native : NULL;
        const xgd_sampler_desc *sd = &dev->sampler_states[i]->desc;
        if (s->textures[i] != nt) s->dirty |= XGDI_DIRTY_TEXTURES;
        if (s->samplers[i] != sd) s->dirty |= XGDI_DIRTY_SAMPLERS;
        s->textures[i] = nt;
        s->samplers[i] = sd;
    }
}

/* Refreshes dev->draw_state for this draw; dirty bits mark what changed. */
static void prepare_state(xgd_device *dev, const xgdi_vertex_layout *layout)
{
    xgdi_draw_state *s = &dev->draw_state;
    uint32_t slots = stale_slots(dev); /* before this draw's own dirty bits are added */
    /* Every part of the draw state but the texture slots changes only with its dirty bit (set
       by its setter, EffectPass.Apply, the destroy of a bound object or
       xgdi_invalidate_draw_state), and those bits are cleared only by an accepted draw: with
       none of them set and the layout of the last draw, only the stale slots need a look. */
    if ((s->dirty & ~(uint32_t)XGDI_DIRTY_TEXTURES) == 0 && s->layout == layout) {
        refresh_texture_slots(dev, slots);
        return;
    }
    const xgd_blend_state_desc *blend = &dev->blend_state->desc;
    const xgd_depth_stencil_desc *ds = &dev->depth_stencil_state->desc;
    const xgd_rasterizer_desc *rs = &dev->rasterizer_state->desc;
    if (s->blend != blend) s->dirty |= XGDI_DIRTY_BLEND;
    if (s->depth_stencil != ds) s->dirty |= XGDI_DIRTY_DEPTH_STENCIL;
    if (s->rasterizer != rs) s->dirty |= XGDI_DIRTY_RASTERIZER;
    s->blend = blend;
    s->depth_stencil = ds;
    s->rasterizer = rs;

    /* The physical viewport and scissor follow the logical ones (their setters mark them),
       the first target and the presentation parameters (changing either invalidates every
       bit): derived again only when one of them changed. */
    if (s->dirty & (XGDI_DIRTY_VIEWPORT | XGDI_DIRTY_SCISSOR)) {
        xgd_viewport vp;
        xgd_rect scissor;
        xgdi_physical_viewport(dev, &vp, &scissor);
        if (!viewport_equal(&vp, &s->viewport)) s->dirty |= XGDI_DIRTY_VIEWPORT;
        if (!rect_equal(&scissor, &s->scissor)) s->dirty |= XGDI_DIRTY_SCISSOR;
        s->viewport = vp;
        s->scissor = scissor;
    }

    s->program = XGDI_PROGRAM_USER;
    if (s->vs != dev->user_vs || s->ps != dev->user_ps) s->dirty |= XGDI_DIRTY_PROGRAM;
    s->vs = dev->user_vs;
    s->ps = dev->user_ps;
    s->vs_constants = dev->user_vs_constants;
    s->ps_constants = dev->user_ps_constants;
    s->vs_constants_size = (size_t)dev->user_vs_count * 16;
    s->ps_constants_size = (size_t)dev->user_ps_count * 16;
    update_draw_constants(dev);

    refresh_texture_slots(dev, slots);

    if (s->dirty & XGDI_DIRTY_VERTEX_TEXTURES) xgdi_prepare_vertex_textures(dev);

    /* Layouts are immutable and destroy clears this pointer, so identity means no change. */
    if (s->layout != layout) s->dirty |= XGDI_DIRTY_LAYOUT;
    /* xgd_draw_user_primitives' common case takes the draw state's layout to be its
       declaration's (internal.h user_decl_handle) */
    if (layout != dev->user_decl_layout) xgdi_forget_user_draw(dev);
    s->layout = layout;
}

static xgd_result accepted(xgd_device *dev, const xgdi_draw *draw);

static xgd_result submit(xgd_device *dev, xgdi_draw *draw, const xgdi_vertex_layout *layout)
{
    xgd_result r;
    if (dev->native_targets_stale && (r = xgdi_sync_native_targets(dev)) != XGD_OK) return r;
    prepare_state(dev, layout);
    draw->state = &dev->draw_state;
    r = dev->ops->draw(dev->renderer, draw);
    if (r != XGD_OK) return r;
    return accepted(dev, draw);
}

/* What follows a draw the renderer accepted: the dirty marks are spent, and it is counted. */
static xgd_result accepted(xgd_device *dev, const xgdi_draw *draw)
{
    /* an input of the slot checks may have changed: the memo of passed checks starts over */
    if (dev->draw_state.dirty & ~(uint32_t)XGDI_DIRTY_TEXTURES) xgdi_new_slot_check_epoch(dev);
    dev->draw_state.dirty = 0;
    dev->draw_state.slots_changed = 0;
    dev->stats.draw_calls++;
    /* one draw call; every instance's primitives are drawn (as PIX counts an instanced draw) */
    uint64_t prims = (uint64_t)draw->primitive_count * (uint64_t)(draw->instance_count > 1 ? draw->instance_count : 1);
    dev->stats.primitives += prims;
    if (draw->type == XGD_PRIMITIVE_TRIANGLE_LIST ||
        draw->type == XGD_PRIMITIVE_TRIANGLE_STRIP)
        dev->stats.triangles += prims;
    return XGD_OK;
}

static xgd_result check_vertex_buffer(xgd_device *dev)
{
    xgd_vertex_buffer *vb = dev->vertex_buffer;
    if (vb == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "a vertex buffer must be set before drawing (xgd_set_vertex_buffer)");
    xgd_result r = xgdi_check_resource(dev, &vb->buf.res, XGDI_RES_VERTEX_BUFFER, "vertex buffer");
    if (r != XGD_OK) return r;
    if (vb->buf.native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the vertex buffer has no storage (its recovery failed); set its data "
                         "again");
    return check_layout(dev, &vb->layout);
}

xgd_result xgd_draw_primitives(xgd_device *device, xgd_primitive_type type, int start_vertex,
                               int primitive_count)
{
    xgd_result r = check_common(device);
    if (r != XGD_OK) return r;
    r = check_primitives(device, type, primitive_count);
    if (r != XGD_OK) return r;
    if (start_vertex < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "start_vertex %d is negative",
                         start_vertex);
    if (xgdi_draw_needs_bindings(device))
        return xgdi_draw_bindings(device, type, false, start_vertex, 0, 0, primitive_count, 1);
    r = check_vertex_buffer(device);
    if (r != XGD_OK) return r;
    const xgd_vertex_buffer *vb = device->vertex_buffer;
    int64_t count = vertices_for(type, primitive_count);
    if ((int64_t)device->vertex_offset + start_vertex + count > vb->vertex_count)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "vertices %d..%lld (after the vertex offset %d) are beyond the buffer's "
                         "%d vertices",
                         start_vertex, (long long)(start_vertex + count - 1),
                         device->vertex_offset, vb->vertex_count);

    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = type;
    draw.primitive_count = primitive_count;
    draw.vertex_count = (int)count;
    draw.vertex_buffer = vb->buf.native;
    draw.vertex_offset = (size_t)device->vertex_offset * (size_t)vb->layout.stride;
    draw.first_vertex = start_vertex;
    return submit(device, &draw, &vb->layout);
}

/* Every index, plus base_vertex and the vertex offset, must name a vertex of the buffer. The
 * check reads the CPU shadow, so no renderer ever fetches outside a buffer. */
static xgd_result check_indices(xgd_device *dev, const void *indices, int index_size, int count,
                                int64_t base, int64_t vertex_count)
{
    const uint8_t *p = indices;
    /* The common case first: the largest 16-bit index of the range, in a loop without a branch
       per index (SpriteBatch checks six per sprite); the scan below then only names the bad
       one. A 16-bit index plus a base >= 0 is never negative. */
    if (index_size == 2 && base >= 0) {
        uint32_t hi = 0;
        for (int i = 0; i < count; i++) {
            uint16_t x;
            memcpy(&x, p + (size_t)i * 2, 2);
            hi = x > hi ? x : hi;
        }
        if ((int64_t)hi + base < vertex_count) return XGD_OK;
    }
    for (int i = 0; i < count; i++) {
        int64_t v;
        if (index_size == 2) {
            uint16_t x;
            memcpy(&x, p + (size_t)i * 2, 2);
            v = x;
        } else {
            uint32_t x;
            memcpy(&x, p + (size_t)i * 4, 4);
            v = x;
        }
        v += base;
        if (v < 0 || v >= vertex_count)
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "index %d refers to vertex %lld, outside the %lld vertices available",
                             i, (long long)v, (long long)vertex_count);
    }
    return XGD_OK;
}

xgd_result xgdi_draw_check_index_range(xgd_device *dev, int base_vertex, int start_index,
                                       int64_t count, int64_t available, xgd_index_buffer **out)
{
    xgd_index_buffer *ib = dev->index_buffer;
    if (ib == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "an index buffer must be set before drawing indexed primitives");
    xgd_result r = xgdi_check_resource(dev, &ib->buf.res, XGDI_RES_INDEX_BUFFER, "index buffer");
    if (r != XGD_OK) return r;
    if (ib->buf.native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the index buffer has no storage (its recovery failed)");
    if ((int64_t)start_index + count > ib->index_count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "indices %d..%lld are beyond the buffer's %d indices", start_index,
                         (long long)(start_index + count - 1), ib->index_count);
    /* O(1) when every index the buffer can hold fits (set_data keeps the bounds); otherwise
       only the drawn range is scanned, which also names the offending index. */
    int isize = ib->element_size == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
    if (!((int64_t)ib->index_min + base_vertex >= 0 &&
          (int64_t)ib->index_max + base_vertex < available)) {
        r = check_indices(dev, ib->buf.shadow + (size_t)start_index * (size_t)isize, isize,
                          (int)count, base_vertex, available);
        if (r != XGD_OK) return r;
    }
    *out = ib;
    return XGD_OK;
}

xgd_result xgd_draw_indexed_primitives(xgd_device *device, xgd_primitive_type type,
                                       int base_vertex, int min_vertex_index, int num_vertices,
                                       int start_index, int primitive_count)
{
    xgd_result r = check_common(device);
    if (r != XGD_OK) return r;
    r = check_primitives(device, type, primitive_count);
    if (r != XGD_OK) return r;
    /* min_vertex_index and num_vertices are Direct3D 9 hints XNA passes through; they are
       checked for sign (XNA: numVertices > 0) but not against the indices, which are checked
       one by one below. */
    if (min_vertex_index < 0 || num_vertices <= 0 || start_index < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "min_vertex_index %d and start_index %d must not be negative, "
                         "num_vertices %d must be > 0",
                         min_vertex_index, start_index, num_vertices);
    if (xgdi_draw_needs_bindings(device))
        return xgdi_draw_bindings(device, type, true, 0, base_vertex, start_index,
                                  primitive_count, 1);
    r = check_vertex_buffer(device);
    if (r != XGD_OK) return r;
    const xgd_vertex_buffer *vb = device->vertex_buffer;
    int64_t count = vertices_for(type, primitive_count);
    xgd_index_buffer *ib = NULL;
    r = xgdi_draw_check_index_range(device, base_vertex, start_index, count,
                                    (int64_t)vb->vertex_count - device->vertex_offset, &ib);
    if (r != XGD_OK) return r;
    int isize = ib->element_size == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;

    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = type;
    draw.primitive_count = primitive_count;
    draw.vertex_count = (int)count;
    draw.vertex_buffer = vb->buf.native;
    draw.vertex_offset = (size_t)device->vertex_offset * (size_t)vb->layout.stride;
    draw.index_size = isize;
    draw.index_buffer = ib->buf.native;
    draw.index_offset = (size_t)start_index * (size_t)isize;
    draw.base_vertex = base_vertex;
    return submit(device, &draw, &vb->layout);
}

static xgd_result check_user_decl(xgd_device *dev, xgd_vertex_declaration *decl)
{
    xgd_result r = xgdi_check_resource(dev, decl != NULL ? &decl->res : NULL,
                                       XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    if (r != XGD_OK) return r;
    return check_layout(dev, &decl->layout);
}

/* check_changed_slots for the slots (`unchecked`) whose textures have not passed check_slots
 * there in this epoch: the checks, then the memo. */
static xgd_result check_unmemoized_slots(xgd_device *dev, uint32_t unchecked)
{
    xgd_result r = check_slots(dev, unchecked);
    if (r != XGD_OK) return r;
    for (uint32_t m = unchecked; m != 0; m &= m - 1) {
        int i = xgdi_lowest_bit(m);
        dev->textures[i]->slot_checked[i] = dev->slot_check_epoch;
    }
    return XGD_OK;
}

/* xgd_draw_user_primitives' common case, for the slots set since the last draw that
 * xgd_set_texture did not make ready (`slots`; all changed slots are stale_slots with
 * XGDI_DIRTY_TEXTURES alone): check_slots for each texture that has not passed them in this
 * slot and epoch (xgd_device.slot_check_epoch), then refresh_texture_slots (the slots' sampler
 * states are unchanged, as XGDI_DIRTY_SAMPLERS is clear). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result check_changed_slots(xgd_device *dev, uint32_t slots)
{
    uint64_t epoch = dev->slot_check_epoch, unchecked = 0;
    for (uint32_t m = slots; m != 0; m &= m - 1) {
        int i = xgdi_lowest_bit(m);
        const xgd_texture *t = dev->textures[i];
        if (t != NULL && t->slot_checked[i] != epoch)
            unchecked |= 1u << i;
    }
    if (unchecked != 0) {
        xgd_result r = check_unmemoized_slots(dev, unchecked);
        if (r != XGD_OK) return r;
    }
    xgdi_draw_state *s = &dev->draw_state;
    for (uint32_t m = slots; m != 0; m &= m - 1) {
        int i = xgdi_lowest_bit(m);
        s->textures[i] = dev->textures[i] != NULL ? dev->textures[i]->native : NULL;
    }
    return XGD_OK;
}

/* accepted(), for one instance and no dirty bit but XGDI_DIRTY_TEXTURES. (The triangle count
   sits between the two others so that gcc does not pack those two into one vector add, which
   takes five instructions more.) */
static inline void accepted_user_draw(xgd_device *device, xgd_primitive_type type, int primitive_count)
{
    device->draw_state.dirty = 0;
    device->draw_state.slots_changed = 0;
    device->stats.draw_calls++;
    /* (zero-extended, one move fewer than a sign extension: primitive_count is at least 1) */
    device->user_primitives[type] += (uint32_t)primitive_count; /* xgdi_settle_user_primitives */
}

static xgd_result draw_user_primitives_checked(xgd_device *device, xgd_primitive_type type,
                                               const void *vertices, int vertex_offset,
                                               int primitive_count, xgd_vertex_declaration *decl);

xgd_result xgdi_user_draw_declined(xgd_device *device, xgd_primitive_type type, const void *vertices,
                                   int primitive_count)
{
    int count = xgdi_user_vertex_count(type, primitive_count);
    /* The common case counted the draw as accepted before the call: taken back. Its dirty
       bits were XGDI_DIRTY_TEXTURES or none, and every changed slot was checked and refreshed
       (by xgd_set_texture or draw_user_primitives_checked), so no slot stays named changed:
       XGDI_DIRTY_TEXTURES alone has the renderer look at the slots again, which holds either
       way. */
    device->draw_state.dirty = XGDI_DIRTY_TEXTURES;
    device->stats.draw_calls--;
    device->user_primitives[type] -= (uint64_t)primitive_count;
    xgdi_draw *d = &device->user_draw;
    d->type = type;
    d->primitive_count = primitive_count;
    d->vertex_count = count;
    d->user_vertices = vertices;
    d->user_vertex_count = count;
    d->state = &device->draw_state;
    xgd_result r = device->ops->draw(device->renderer, d);
    if (r != XGD_OK) return r;
    accepted_user_draw(device, type, primitive_count);
    return XGD_OK;
}

/* user_draw_fast for a renderer without one: the common case's draw through ops->draw */
static xgd_result user_draw_through_draw(xgdi_renderer *r, xgd_primitive_type type,
                                         const void *vertices, int primitive_count)
{
    return xgdi_user_draw_declined(r->device, type, vertices, primitive_count);
}

/* The dirty bits but XGDI_DIRTY_TEXTURES and the slots named changed (draw_state.dirty and
   .slots_changed, side by side): none set is xgd_draw_user_primitives' common case. Read as
   one 8-byte value (the mask is laid out as the pair is, whatever the byte order). */
_Static_assert(offsetof(xgdi_draw_state, slots_changed) == offsetof(xgdi_draw_state, dirty) + 4,
               "dirty and slots_changed are read together");
static inline bool user_draw_state_clean(const xgdi_draw_state *s)
{
    const uint32_t m[2] = { ~(uint32_t)XGDI_DIRTY_TEXTURES, ~0u };
    uint64_t v, mask;
    memcpy(&v, &s->dirty, sizeof v);
    memcpy(&mask, m, sizeof mask);
    return (v & mask) == 0;
}

/* The arguments of xgd_draw_user_primitives' common case but the vertex offset: the
   remembered declaration, a type and a primitive count in range (1..max_primitive_count, at
   least 1, in one compare), vertices given. */
static inline bool user_draw_args_pass(const xgd_device *device, xgd_primitive_type type,
                                       const void *vertices, int primitive_count,
                                       const xgd_vertex_declaration *decl)
{
    return device != NULL && decl == device->user_decl_handle && (unsigned)type < XGD_PRIMITIVE_COUNT &&
           (unsigned)primitive_count - 1u < (unsigned)device->max_primitive_count && vertices != NULL;
}

xgd_result xgd_draw_user_primitives(xgd_device *device, xgd_primitive_type type,
                                    const void *vertices, int vertex_offset, int primitive_count,
                                    xgd_vertex_declaration *decl)
{
    /* The common draw in one test: since the last accepted user draw, through the same
       declaration handle (which its destroy forgets), nothing but texture slots changed (every
       other input of check_common, check_layout and prepare_state comes with a dirty bit),
       every changed slot made ready by xgd_set_texture (none named in slots_changed), with
       arguments that pass. Anything else takes draw_user_primitives_checked, which checks
       in order and names the failure, or goes back here once it has made the slots ready.
       (A device that is destroyed, lost, without a program or with stale native targets has
       no user_decl_handle: xgdi_forget_user_draw, which leaves one that no argument equals,
       NULL included; nor has a draw state with another layout.) */
    /* (user_draw_args_pass written out, with the state's test second: in this order gcc
       makes every test a compare and a branch, two instructions fewer than the helper's) */
    if (XGDI_LIKELY(device != NULL && decl == device->user_decl_handle &&
                    user_draw_state_clean(&device->draw_state) &&
                    (unsigned)type < XGD_PRIMITIVE_COUNT &&
                    (unsigned)primitive_count - 1u < (unsigned)device->max_primitive_count &&
                    vertices != NULL && vertex_offset == 0)) {
        /* counted as accepted first, so that the renderer finishes the call (a tail call);
           xgdi_user_draw_declined takes it back */
        accepted_user_draw(device, type, primitive_count);
        return device->user_draw_fast(device->renderer, type, vertices, primitive_count);
    }
    return draw_user_primitives_checked(device, type, vertices, vertex_offset, primitive_count, decl);
}

/* xgd_draw_user_primitives: every check in order */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_user_primitives_checked(xgd_device *device, xgd_primitive_type type,
                                               const void *vertices, int vertex_offset,
                                               int primitive_count, xgd_vertex_declaration *decl)
{
    const bool args_pass = user_draw_args_pass(device, type, vertices, primitive_count, decl);
    if (args_pass && vertex_offset >= 0 && (device->draw_state.dirty & ~(uint32_t)XGDI_DIRTY_TEXTURES) == 0 &&
        device->draw_state.slots_changed != 0) {
        /* the common case but for changed slots that xgd_set_texture could not make ready:
           check_changed_slots checks and refreshes them exactly as the steps below would
           (after the arguments, which pass), then the common case */
        xgd_result r = check_changed_slots(device, device->draw_state.slots_changed);
        if (r != XGD_OK) return r;
        device->draw_state.slots_changed = 0;
        return xgd_draw_user_primitives(device, type, vertices, vertex_offset, primitive_count, decl);
    }
    if (args_pass && vertex_offset > 0)
        /* the common case from an offset (a program drawing pieces of one array), which
           xgd_draw_user_primitives takes from offset 0 only (it then computes no address):
           the same from the offset's vertex (a pointer past the array's end is the caller's
           error, as the offset is) */
        return xgd_draw_user_primitives(
            device, type, (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)device->user_decl_stride,
            0, primitive_count, decl);
    const xgd_vertex_declaration *handle = decl;
    XGDI_RESOLVE(device, decl, XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    xgd_result r = check_common(device);
    if (r != XGD_OK) return r;
    r = check_primitives(device, type, primitive_count);
    if (r != XGD_OK) return r;
    if (vertices == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertices is NULL");
    if (vertex_offset < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertex_offset %d is negative",
                         vertex_offset);
    r = check_user_decl(device, decl);
    if (r != XGD_OK) return r;
    int count = (int)vertices_for(type, primitive_count);

    xgdi_draw draw = {
        .type = type,
        .primitive_count = primitive_count,
        .vertex_count = count,
        .user_vertices = (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)decl->layout.stride,
        .user_vertex_count = count,
    };
    r = submit(device, &draw, &decl->layout);
    /* remembered only while nothing blocks the next draw: a renderer may report a loss inside
       a draw that it still records and accepts (the short path does not look for one) */
    if (r == XGD_OK && !device->lost && !device->destroying && device->renderer != NULL &&
        device->program_set && !device->native_targets_stale) {
        device->user_decl_handle = handle;
        device->user_decl_layout = &decl->layout;
        device->user_decl_stride = decl->layout.stride;
        device->user_draw_fast = device->ops->user_draw_fast != NULL ? device->ops->user_draw_fast
                                                                      : user_draw_through_draw;
    }
    return r;
}

xgd_result xgd_draw_user_indexed_primitives(xgd_device *device, xgd_primitive_type type,
                                            const void *vertices, int vertex_offset,
                                            int num_vertices, const void *indices,
                                            int index_offset, int primitive_count,
                                            xgd_index_element_size index_size,
                                            xgd_vertex_declaration *decl)
{
    XGDI_RESOLVE(device, decl, XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    xgd_result r = check_common(device);
    if (r != XGD_OK) return r;
    r = check_primitives(device, type, primitive_count);
    if (r != XGD_OK) return r;
    if (vertices == NULL || indices == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "vertices or indices is NULL");
    if (vertex_offset < 0 || index_offset < 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "vertex_offset %d and index_offset %d must not be negative",
                         vertex_offset, index_offset);
    if (num_vertices <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "num_vertices %d must be > 0",
                         num_vertices);
    if ((unsigned)index_size > XGD_INDEX_THIRTY_TWO_BITS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "unknown index element size %d",
                         (int)index_size);
    int isize = index_size == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
    if (isize == 4 && device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "the Reach profile does not support 32-bit indices");
    r = check_user_decl(device, decl);
    if (r != XGD_OK) return r;
    int64_t count = vertices_for(type, primitive_count);
    const uint8_t *first_index = (const uint8_t *)indices + (size_t)index_offset * (size_t)isize;
    /* Indices are relative to vertex_offset and must stay inside num_vertices: that is the
       only extent of the caller's array this call knows. */
    r = check_indices(device, first_index, isize, (int)count, 0, num_vertices);
    if (r != XGD_OK) return r;

    xgdi_draw draw;
    memset(&draw, 0, sizeof draw);
    draw.type = type;
    draw.primitive_count = primitive_count;
    draw.vertex_count = (int)count;
    draw.user_vertices =
        (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)decl->layout.stride;
    draw.user_vertex_count = num_vertices;
    draw.index_size = isize;
    draw.user_indices = first_index;
    return submit(device, &draw, &decl->layout);
}

/* ---- shared with instancing.c ---------------------------------------------------------------- */

int64_t xgdi_vertices_for(xgd_primitive_type type, int primitive_count)
{
    return vertices_for(type, primitive_count);
}

xgd_result xgdi_draw_check_common(xgd_device *dev, xgd_primitive_type type, int primitive_count)
{
    xgd_result r = check_common(dev);
    return r != XGD_OK ? r : check_primitives(dev, type, primitive_count);
}

xgd_result xgdi_draw_check_layout(xgd_device *dev, const xgdi_vertex_layout *layout)
{
    return check_layout(dev, layout);
}

xgd_result xgdi_draw_submit(xgd_device *dev, xgdi_draw *draw, const xgdi_vertex_layout *layout)
{
    return submit(dev, draw, layout);
}

/* ---- the applied program ------------------------------------------------------------------- */

xgd_result xgdi_apply_user_program(xgd_device *device, xgdi_native_shader *vs,
                                   xgdi_native_shader *ps, const xgdi_shader_input *inputs,
                                   int input_count, const xgdi_sampler_kind *sampler_kinds,
                                   const float *vs_constants, int vs_count,
                                   const float *ps_constants, int ps_count)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (vs == NULL || ps == NULL || input_count < 0 || input_count > XGDI_SHADER_MAX_INPUTS ||
        vs_count < 1 || vs_count > XGDI_SHADER_MAX_REGISTERS + 1 || ps_count < 0 ||
        ps_count > XGDI_SHADER_MAX_REGISTERS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "invalid user program description");
    if (!device->program_set || device->program != XGDI_PROGRAM_USER ||
        device->user_vs != vs || device->user_ps != ps)
        device->draw_state.dirty |= XGDI_DIRTY_PROGRAM;
    /* pixel_offset (the last vertex vec4) is the draw's; compare the rest */
    size_t vbytes = (size_t)(vs_count - 1) * 16, pbytes = (size_t)ps_count * 16;
    if (device->user_vs_count != vs_count || device->user_ps_count != ps_count ||
        memcmp(device->user_vs_constants, vs_constants, vbytes) != 0 ||
        (pbytes > 0 && memcmp(device->user_ps_constants, ps_constants, pbytes) != 0))
        device->draw_state.dirty |= XGDI_DIRTY_CONSTANTS;
    memcpy(device->user_vs_constants, vs_constants, vbytes);
    if (pbytes > 0) memcpy(device->user_ps_constants, ps_constants, pbytes);
    device->user_vs_count = vs_count;
    device->user_ps_count = ps_count;
    device->user_vs = vs;
    device->user_ps = ps;
    memcpy(device->user_inputs, inputs, sizeof *inputs * (size_t)input_count);
    device->user_input_count = input_count;
    memcpy(device->user_sampler_kinds, sampler_kinds, sizeof device->user_sampler_kinds);
    xgdi_set_user_vertex_sampler_kinds(device, NULL); /* the caller names them afterwards */
    device->program_set = true;
    device->program = XGDI_PROGRAM_USER;
    return XGD_OK;
}

xgd_result xgdi_apply_user_pixel_shader(xgd_device *device, xgdi_native_shader *ps,
                                        const xgdi_sampler_kind *sampler_kinds,
                                        const float *ps_constants, int ps_count,
                                        int technique, int pass)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (!device->program_set || device->program != XGDI_PROGRAM_USER || device->user_vs == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "pass %d of technique %d has no vertex shader and none is applied (a "
                         "pixel-shader-only pass keeps the vertex shader of the last apply: use it "
                         "inside SpriteBatch, or after applying an effect with one)", pass, technique);
    if (ps == NULL || ps_count < 0 || ps_count > XGDI_SHADER_MAX_REGISTERS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "invalid user program description");
    if (device->user_ps != ps) device->draw_state.dirty |= XGDI_DIRTY_PROGRAM;
    size_t pbytes = (size_t)ps_count * 16;
    if (device->user_ps_count != ps_count ||
        (pbytes > 0 && memcmp(device->user_ps_constants, ps_constants, pbytes) != 0))
        device->draw_state.dirty |= XGDI_DIRTY_CONSTANTS;
    if (pbytes > 0) memcpy(device->user_ps_constants, ps_constants, pbytes);
    device->user_ps_count = ps_count;
    device->user_ps = ps;
    memcpy(device->user_sampler_kinds, sampler_kinds, sizeof device->user_sampler_kinds);
    return XGD_OK;
}

void xgdi_forget_user_shader(xgd_device *device, xgdi_native_shader *shader)
{
    if (device == NULL || shader == NULL) return;
    if (device->user_vs == shader || device->user_ps == shader) {
        if (device->program == XGDI_PROGRAM_USER) device->program_set = false;
        xgdi_forget_user_draw(device);
        device->user_vs = device->user_ps = NULL;
    }
    if (device->draw_state.vs == shader || device->draw_state.ps == shader) {
        device->draw_state.vs = device->draw_state.ps = NULL;
        device->draw_state.dirty |= XGDI_DIRTY_PROGRAM;
    }
}
