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
        dev->draw_state.slots_changed |= 1u;
        dev->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
    }
}

/* Every run's count and texture, before anything is drawn (the textures are resolved again
 * while drawing; they cannot change in between: nothing here runs user code). *quads: the
 * runs' quads together. */
static xgd_result check_runs(xgd_device *device, const xgd_quad_run *runs, int run_count,
                             int64_t *quads)
{
    if (runs == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "runs is NULL");
    if (run_count <= 0)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE, "run_count %d must be > 0",
                         run_count);
    int64_t total = 0;
    for (int i = 0; i < run_count; i++) {
        int q = runs[i].quad_count;
        if (q <= 0 || q > XGD_USER_QUADS_MAX)
            return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                             "run %d's quad_count %d must be 1..%d", i, q, XGD_USER_QUADS_MAX);
        total += q;
        if (runs[i].texture == NULL)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "run %d's texture is NULL", i);
        xgd_result rr = XGD_OK;
        const xgd_texture *t = xgdi_resolve(device, runs[i].texture, XGDI_RES_TEXTURE,
                                            "run texture", &rr);
        if (t == NULL) return rr;
        xgd_result r = xgdi_check_resource(device, &t->res, XGDI_RES_TEXTURE, "run texture");
        if (r != XGD_OK) return r;
        r = check_run_texture(device, t, i);
        if (r != XGD_OK) return r;
    }
    *quads = total;
    return XGD_OK;
}

/* A run the renderer recorded through draw_quad_runs, counted as accepted() counts a draw. */
static void count_run(xgd_device *dev, int quads)
{
    dev->stats.draw_calls++;
    dev->stats.primitives += (uint64_t)quads * 2;
    dev->stats.triangles += (uint64_t)quads * 2;
}

/* Runs handed to renderer_ops.draw_quad_runs at a time (16 bytes each, on the stack): enough
   that the software renderer's draw of them is worth its threads (64 were not). */
enum { QUAD_RUN_BATCH = 512 };

/* Draws checked runs: each as xgd_set_texture(slot 0) + one quad draw. `draw` describes the
 * vertices: reserved (the device's reservation; a run names its first vertex as base_vertex)
 * or user memory at v (a run passes its own vertices). Run 0 and every run the renderer cannot
 * take in bulk go through the draw path; the others, with reserved vertices, through the
 * renderer's draw_quad_runs, which changes only slot 0 between them. *spend is zeroed before
 * the renderer first sees the draw (a reservation is spent from then on). */
static xgd_result draw_runs(xgd_device *device, xgd_vertex_declaration *decl, xgdi_draw *draw,
                            const uint8_t *v, const xgd_quad_run *runs, int run_count,
                            uint64_t *spend)
{
    /* the slot's texture as a handle: a failed draw may report device loss, whose event
       handler may destroy that texture before the slot is restored */
    void *saved = device->textures[0] != NULL ? device->textures[0]->res.handle : NULL;
    const size_t stride = (size_t)decl->layout.stride;
    /* the debug fault hook (fault.c) clears draw_quad_runs so that a fault can hit any run */
    const bool bulk = draw->reserved && device->ops->draw_quad_runs != NULL;
    int base = 0;
    xgd_result r = XGD_OK;
    for (int i = 0; i < run_count;) {
        if (i > 0 && bulk) {
            /* up to QUAD_RUN_BATCH runs at a time, on the stack: no allocation per call */
            xgdi_quad_run batch[QUAD_RUN_BATCH];
            int n = 0;
            for (int b = base; n < QUAD_RUN_BATCH && i + n < run_count; n++) {
                const xgd_texture *t =
                    (const xgd_texture *)xgdi_handle_get(runs[i + n].texture, XGDI_RES_TEXTURE);
                batch[n] = (xgdi_quad_run){ t->native, runs[i + n].quad_count, b };
                b += runs[i + n].quad_count * 4;
            }
            int drawn = 0;
            r = device->ops->draw_quad_runs(device->renderer, draw, batch, n, &drawn);
            if (drawn > n) drawn = n;
            for (int k = 0; k < drawn; k++) {
                count_run(device, batch[k].quad_count);
                base += batch[k].quad_count * 4;
            }
            if (drawn > 0) {
                /* slot 0 as the last recorded run left it; the renderer saw that texture, so
                   the draw state holds it with nothing marked dirty */
                xgd_texture *last =
                    (xgd_texture *)xgdi_handle_get(runs[i + drawn - 1].texture, XGDI_RES_TEXTURE);
                /* gone only when a failure's device-lost handler destroyed it: slot 0 is then
                   restored below, as after any failed run */
                if (last != NULL) {
                    device->textures[0] = last;
                    device->draw_state.textures[0] = last->native;
                }
            }
            i += drawn;
            if (r != XGD_OK) break;
            continue;
        }
        bind_slot0(device, (xgd_texture *)xgdi_handle_get(runs[i].texture, XGDI_RES_TEXTURE));
        int q = runs[i].quad_count;
        /* every draw's checks (the device, the program, the stale slots): before run 0 they
           may refuse the whole call, which then changes nothing; after it only slot 0 is
           stale, and its texture passed check_runs */
        r = xgdi_draw_check_common(device, XGD_PRIMITIVE_TRIANGLE_LIST, q * 2);
        if (r != XGD_OK) break;
        if (draw->per_instance) {
            /* one quad's indices, an instance a quad (base counts vertices: 4 a quad) */
            draw->primitive_count = 2;
            draw->vertex_count = 6;
            draw->instance_count = q;
            draw->base_vertex = 0;
            draw->first_instance = base / 4;
        } else if (draw->reserved) {
            draw->primitive_count = q * 2;
            draw->vertex_count = q * 6;
            draw->base_vertex = base;
        } else {
            draw->primitive_count = q * 2;
            draw->vertex_count = q * 6;
            draw->user_vertices = v + (size_t)base * stride;
            draw->user_vertex_count = q * 4;
        }
        draw->state = NULL;
        *spend = 0;
        r = xgdi_draw_submit(device, draw, &decl->layout);
        if (r != XGD_OK) break;
        base += q * 4;
        i++;
    }
    if (r != XGD_OK)
        bind_slot0(device, saved != NULL ? (xgd_texture *)xgdi_handle_get(saved, XGDI_RES_TEXTURE) : NULL);
    return r;
}

/* Makes the device's reservation: quad_count * 4 vertices of decl in the renderer's upload
 * memory. decl is resolved and checked. */
static xgd_result reserve(xgd_device *device, int quad_count, xgd_vertex_declaration *decl,
                          bool per_instance)
{
    size_t stride = (size_t)decl->layout.stride;
    size_t bytes = (size_t)quad_count * (per_instance ? 1u : 4u) * stride;
    void *cpu = NULL;
    uint64_t at = 0;
    xgd_result r = device->ops->reserve_vertices(device->renderer, bytes, stride, &cpu, &at);
    if (r != XGD_OK) return r;
    /* a renderer's success always comes with memory (session 28: one that passed a quiet
       refusal on as success gave none, and SpriteBatch wrote through NULL) */
    if (cpu == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "renderer '%s' reserved no memory for %zu bytes", device->ops->name, bytes);
    /* the renderer may have submitted (a full ring) or been lost while making room */
    r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    device->quad_reservation.id = ++device->quad_reservation.next_id;
    device->quad_reservation.decl = decl->res.handle;
    device->quad_reservation.quad_count = quad_count;
    device->quad_reservation.cpu = cpu;
    device->quad_reservation.at = at;
    device->quad_reservation.renderer = device->renderer;
    device->quad_reservation.fence = device->renderer->submitted_fence;
    device->quad_reservation.draws = device->stats.draw_calls;
    device->quad_reservation.per_instance = per_instance;
    return XGD_OK;
}

/* The reserved draw of the device's reservation, indexed through the quad pattern. */
static void reserved_draw(const struct xgdi_quad_reservation *q, xgdi_native_buffer *indices,
                          xgdi_draw *draw)
{
    memset(draw, 0, sizeof *draw);
    draw->type = XGD_PRIMITIVE_TRIANGLE_LIST;
    draw->index_size = 2;
    draw->index_buffer = indices;
    draw->reserved = true;
    draw->reserved_at = q->at;
    draw->user_vertices = q->cpu;
    draw->per_instance = q->per_instance;
    draw->user_vertex_count = q->quad_count * (draw->per_instance ? 1 : 4);
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
    int64_t quads = 0;
    r = check_runs(device, runs, run_count, &quads);
    if (r != XGD_OK) return r;
    if ((int64_t)vertex_offset + quads * 4 > INT32_MAX)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "the runs reach vertex %lld, beyond what an int counts",
                         (long long)(vertex_offset + quads * 4));
    r = xgdi_draw_check_layout(device, &decl->layout);
    if (r != XGD_OK) return r;
    xgdi_native_buffer *indices = NULL;
    r = quad_index_buffer(device, &indices);
    if (r != XGD_OK) return r;

    const uint8_t *v = (const uint8_t *)vertices + (size_t)vertex_offset * (size_t)decl->layout.stride;
    xgdi_draw draw;
    uint64_t spent = 0;
    /* More than one run: the vertices go into upload memory in one copy, and the runs after
       the first are the renderer's bulk runs (a texture binding and a draw each). One run,
       or more vertices than one reservation surely holds: the runs' own draws copy them. */
    size_t bytes = (size_t)quads * 4 * (size_t)decl->layout.stride;
    /* not while the caller holds a reservation: a call refused after reserving would have
       replaced it */
    if (run_count > 1 && bytes <= XGDI_RESERVE_MIN_CAPACITY && device->program_set &&
        device->quad_reservation.id == 0) {
        r = reserve(device, (int)quads, decl, false);
        if (r != XGD_OK) return r;
        memcpy(device->quad_reservation.cpu, v, bytes);
        reserved_draw(&device->quad_reservation, indices, &draw);
        r = draw_runs(device, decl, &draw, NULL, runs, run_count, &spent);
        device->quad_reservation.id = 0; /* this call's own */
        return r;
    }
    memset(&draw, 0, sizeof draw);
    draw.type = XGD_PRIMITIVE_TRIANGLE_LIST;
    draw.index_size = 2;
    draw.index_buffer = indices;
    return draw_runs(device, decl, &draw, v, runs, run_count, &spent);
}

/* xgd_reserve_user_quads (per_instance false) and xgd_reserve_user_quad_instances. */
static xgd_result reserve_quads(xgd_device *device, int quad_count, xgd_vertex_declaration *decl,
                                xgd_quad_reservation *out, bool per_instance, int max)
{
    XGDI_RESOLVE(device, decl, XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    if (per_instance && !device->ops->instanced_quads)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "the %s renderer draws no instanced quads (reserve quads of vertices "
                         "with xgd_reserve_user_quads)", device->ops->name);
    /* XNA's Reach profile has no instancing (xgd_draw_instanced_primitives, instance_frequency) */
    if (per_instance && device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "instanced quads need the HiDef profile; Reach has no instancing "
                         "(reserve quads of vertices with xgd_reserve_user_quads)");
    if (quad_count <= 0 || quad_count > max)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE, "quad_count %d must be 1..%d",
                         quad_count, max);
    r = xgdi_check_resource(device, decl != NULL ? &decl->res : NULL,
                            XGDI_RES_VERTEX_DECLARATION, "vertex declaration");
    if (r != XGD_OK) return r;
    if (decl->layout.stride <= 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "the vertex declaration has no stride");
    /* the index pattern now, so the draw has nothing left to make */
    xgdi_native_buffer *indices = NULL;
    r = quad_index_buffer(device, &indices);
    if (r != XGD_OK) return r;
    r = reserve(device, quad_count, decl, per_instance);
    if (r != XGD_OK) return r;
    out->vertices = device->quad_reservation.cpu;
    out->quad_count = quad_count;
    out->id = device->quad_reservation.id;
    /* Non-temporal stores where a GPU reads the memory. A CPU device (lavapipe) reads it
       through the same caches soon after: plain stores leave the lines there, non-temporal
       ones send them to memory to be read back (lavapipe, 10,000 sprites a frame:
       SpriteBatch End 1.3-1.5 ns a sprite faster with plain stores, Vulkan and Direct3D 12). */
    out->stream_stores = device->ops->upload_streams && !device->renderer->cpu_device;
    return XGD_OK;
}

xgd_result xgd_reserve_user_quads(xgd_device *device, int quad_count,
                                  xgd_vertex_declaration *decl, xgd_quad_reservation *out)
{
    return reserve_quads(device, quad_count, decl, out, false, XGD_USER_QUADS_MAX);
}

xgd_result xgd_reserve_user_quad_instances(xgd_device *device, int quad_count,
                                           xgd_vertex_declaration *decl,
                                           xgd_quad_reservation *out)
{
    return reserve_quads(device, quad_count, decl, out, true, XGD_USER_QUADS_MAX);
}

xgd_result xgd_hold_user_quad_instances(xgd_device *device, int quad_count,
                                        xgd_vertex_declaration *decl, xgd_quad_hold_fn on_end,
                                        void *user, xgd_quad_reservation *out)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (on_end == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "on_end is NULL");
    if (device->quad_hold_count == XGD_QUAD_HOLDS_MAX)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "%d held reservations are outstanding (draw or release one first)",
                         XGD_QUAD_HOLDS_MAX);
    /* made as the latest reservation is, then moved into the table: the latest one the
       caller may hold stays as it was */
    const struct xgdi_quad_reservation latest = device->quad_reservation;
    device->renderer->holding = true;
    r = reserve_quads(device, quad_count, decl, out, true, XGD_QUAD_HOLD_QUADS_MAX);
    if (device->renderer != NULL) device->renderer->holding = false;
    if (r != XGD_OK) return r;
    struct xgdi_quad_hold *h = &device->quad_holds[device->quad_hold_count++];
    h->res = device->quad_reservation;
    h->on_end = on_end;
    h->user = user;
    const uint64_t next = device->quad_reservation.next_id;
    device->quad_reservation = latest;
    device->quad_reservation.next_id = next;
    return XGD_OK;
}

/* The index of the held reservation id, or -1. */
static int find_hold(const xgd_device *device, uint64_t id)
{
    for (int i = 0; i < device->quad_hold_count; i++)
        if (id != 0 && device->quad_holds[i].res.id == id) return i;
    return -1;
}

static void remove_hold(xgd_device *device, int i)
{
    memmove(&device->quad_holds[i], &device->quad_holds[i + 1],
            sizeof device->quad_holds[0] * (size_t)(device->quad_hold_count - i - 1));
    device->quad_hold_count--;
}

xgd_result xgd_release_quad_hold(xgd_device *device, const xgd_quad_reservation *reservation)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (reservation == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "reservation is NULL");
    /* the id, and what it hands out: ids are the device's, so another device's reservation
       may carry one of this device's */
    int i = find_hold(device, reservation->id);
    if (i < 0 || device->quad_holds[i].res.cpu != reservation->vertices ||
        device->quad_holds[i].res.quad_count != reservation->quad_count)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "the reservation is not held (drawn, released or ended)");
    remove_hold(device, i);
    return XGD_OK;
}

void xgdi_end_quad_holds(xgd_device *device)
{
    int n = device->quad_hold_count;
    if (n == 0) return;
    struct xgdi_quad_hold ended[XGD_QUAD_HOLDS_MAX];
    memcpy(ended, device->quad_holds, sizeof ended[0] * (size_t)n);
    device->quad_hold_count = 0;
    for (int i = 0; i < n; i++) ended[i].on_end(ended[i].user, ended[i].res.id);
}

void xgdi_renderer_submitting(xgdi_renderer *r)
{
    if (r != NULL && r->device != NULL && r->device->quad_hold_count != 0)
        xgdi_end_quad_holds(r->device);
}

xgd_result xgd_draw_reserved_quad_runs(xgd_device *device, const xgd_quad_reservation *reservation,
                                       const xgd_quad_run *runs, int run_count)
{
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (reservation == NULL)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "reservation is NULL");
    int64_t quads = 0;
    r = check_runs(device, runs, run_count, &quads);
    if (r != XGD_OK) return r;
    /* A reservation is space in the open frame's upload memory: another draw or a
       submission may reuse it, so only the latest one drawn before either is drawable, and
       held ones until the device ends them (before it submits). */
    int held = find_hold(device, reservation->id);
    struct xgdi_quad_reservation q = device->quad_reservation;
    if (held >= 0) {
        q = device->quad_holds[held].res;
        q.draws = device->stats.draw_calls; /* other draws leave it drawable */
    }
    const uint64_t id = q.id;
    if (reservation->id == 0 || reservation->id != id)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "the reservation is spent or was replaced by a later one (reserve again)");
    if (q.renderer != device->renderer || device->renderer->submitted_fence != q.fence)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "the device submitted its work since the reservation (a present, a "
                         "readback or full upload memory): reserve again");
    if (device->stats.draw_calls != q.draws)
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "the device drew since the reservation: reserve again");
    if (reservation->vertices != q.cpu || reservation->quad_count != q.quad_count)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "the reservation's vertices or quad_count were changed");
    if (quads > q.quad_count)
        return xgdi_fail(device, XGD_ERROR_ARGUMENT_OUT_OF_RANGE,
                         "the runs draw %lld quads, more than the %d reserved", (long long)quads,
                         q.quad_count);
    xgd_result rr = XGD_OK;
    xgd_vertex_declaration *decl = xgdi_resolve(device, q.decl,
                                                XGDI_RES_VERTEX_DECLARATION,
                                                "the reservation's vertex declaration", &rr);
    if (decl == NULL) return rr;
    r = xgdi_check_resource(device, &decl->res, XGDI_RES_VERTEX_DECLARATION,
                            "the reservation's vertex declaration");
    if (r != XGD_OK) return r;
    r = xgdi_draw_check_layout(device, &decl->layout);
    if (r != XGD_OK) return r;
    xgdi_native_buffer *indices = NULL;
    r = quad_index_buffer(device, &indices);
    if (r != XGD_OK) return r;
    xgdi_draw draw;
    reserved_draw(&q, indices, &draw);
    if (held < 0)
        return draw_runs(device, decl, &draw, NULL, runs, run_count, &device->quad_reservation.id);
    /* spent at its first recorded draw; by id, since the draw may end every hold (a
       renderer's submission before it records) and so move the table */
    uint64_t spend = id;
    r = draw_runs(device, decl, &draw, NULL, runs, run_count, &spend);
    if (spend == 0 && (held = find_hold(device, id)) >= 0) remove_hold(device, held);
    return r;
}
