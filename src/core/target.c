/*
 * target.c - the SetRenderTargets transaction (spec 001 "SetRenderTargets: neutral
 * transaction"), finalisation of outgoing targets (spec 000 "Finalising MRT sets", "Cube
 * targets"), and the detach of a target destroyed while bound (spec 001 "Bound target disposal
 * has two paths").
 */
#include "internal.h"

#include <string.h>

static bool is_cube_target(const xgd_texture *t) { return t->kind == XGD_RENDER_TARGET_CUBE; }

/* Resolves and mip generations done while finalising an outgoing set. They reach the
 * statistics only when the transition they belong to happens: a refused SetRenderTargets keeps
 * the set bound, and its targets are finalised (and counted) again when it really leaves. */
typedef struct finalize_count {
    uint64_t resolves, mip_generations;
} finalize_count;

/* Spec 000: an outgoing target is finalised (MSAA resolve of the active face, then its mip
 * chain) before anything else is bound, for every MRT slot and for a cube's active face. */
static xgd_result finalize_one(xgd_device *dev, xgd_texture *t, int face, finalize_count *n)
{
    if (t == NULL || t->native == NULL || (t->samples <= 1 && t->levels <= 1)) return XGD_OK;
    if (dev->ops->texture_finalize == NULL) return XGD_OK;
    xgd_result r = dev->ops->texture_finalize(dev->renderer, t->native, face);
    if (r != XGD_OK) return r;
    if (t->samples > 1) n->resolves++;
    if (t->levels > 1) n->mip_generations++;
    return XGD_OK;
}

static xgd_result finalize_outgoing(xgd_device *dev, const xgd_texture *skip, finalize_count *n)
{
    for (int i = 0; i < dev->binding_count; i++) {
        if (dev->bindings[i].target == skip) continue;
        xgd_result r = finalize_one(dev, dev->bindings[i].target, dev->bindings[i].face, n);
        if (r != XGD_OK) return r;
    }
    return XGD_OK;
}

static void count_finalized(xgd_device *dev, const finalize_count *n)
{
    dev->stats.resolves += n->resolves;
    dev->stats.mip_generations += n->mip_generations;
}

static bool has_stencil(xgd_depth_format f) { return f == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8; }

xgd_result xgd_set_render_targets(xgd_device *device, const xgd_render_target_binding *bindings,
                                  int count)
{
    /* The bindings' handles resolved into a local copy, which the rest reads. */
    xgd_render_target_binding resolved[XGDI_MAX_RENDER_TARGETS];
    if (bindings != NULL && count > 0 && count <= XGDI_MAX_RENDER_TARGETS) {
        for (int i = 0; i < count; i++) {
            resolved[i] = bindings[i];
            XGDI_RESOLVE(device, resolved[i].target, XGDI_RES_TEXTURE, "render target");
        }
        bindings = resolved;
    }
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (count < 0) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "count %d is negative", count);
    /* count 0 is the back buffer; a NULL array that claims bindings is a caller bug, not an
     * unbind (XNA's SetRenderTargets(null) means "no targets" only through the empty set). */
    if (bindings == NULL && count > 0)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "bindings is NULL with count %d",
                         count);

    /* Step 1: an unchanged set (identity and cube face) is a no-op, including empty-to-empty,
     * unless a bound target was destroyed: then a real transition is forced. */
    if (count == device->binding_count && !device->bound_render_target_destroyed) {
        bool same = true;
        for (int i = 0; i < count && same; i++) {
            same = bindings[i].target == device->bindings[i].target &&
                   (int)bindings[i].face == device->bindings[i].face;
        }
        /* Nothing changes publicly; a binding a failed transaction left stale is bound
         * again here (no DiscardContents clear: the set is not new). */
        if (same) return xgdi_sync_native_targets(device);
    }

    /* Step 2: XNA's four-binding ceiling, then the profile's and renderer's maximum. */
    if (count > XGDI_MAX_RENDER_TARGETS)
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                         "%d render targets exceed the maximum of %d bindings", count,
                         XGDI_MAX_RENDER_TARGETS);
    if (count > xgdi_max_render_targets(device))
        return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                         "%d render targets exceed the profile/renderer maximum of %d", count,
                         xgdi_max_render_targets(device));

    /* Step 3: the empty set returns to the back buffer. */
    finalize_count finalized = { 0, 0 };
    if (count == 0) {
        r = finalize_outgoing(device, NULL, &finalized);
        if (r != XGD_OK) return r;
        r = device->ops->set_render_targets(device->renderer, NULL, 0);
        if (r != XGD_OK) return r;
        device->native_targets_stale = false;
        count_finalized(device, &finalized);
        memset(device->bindings, 0, sizeof device->bindings);
        device->binding_count = 0;
        device->render_target_bound = false;
        device->bound_render_target_destroyed = false;
        device->stats.target_changes++;
        xgdi_reset_viewport_scissor(device);
        xgdi_invalidate_draw_state(device);
        return XGD_OK;
    }

    /* Step 4: each binding must be a live render target of this device. */
    xgdi_target targets[XGDI_MAX_RENDER_TARGETS];
    for (int i = 0; i < count; i++) {
        xgd_texture *t = bindings[i].target;
        if (t == NULL)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "binding %d has no target", i);
        r = xgdi_check_resource(device, &t->res, XGDI_RES_TEXTURE, "render target");
        if (r != XGD_OK) return r;
        if (t->kind != XGD_RENDER_TARGET_2D && t->kind != XGD_RENDER_TARGET_CUBE)
            return xgdi_fail(device, XGD_ERROR_INVALID_OPERATION,
                             "binding %d is a texture, not a render target", i);
        int face = (int)bindings[i].face;
        if (is_cube_target(t) ? (face < 0 || face > XGD_CUBE_MAP_FACE_NEGATIVE_Z) : face != 0)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "binding %d: face %d is invalid for this target", i, face);
        if (t->native == NULL)
            return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                             "binding %d: renderer '%s' has no storage for this target", i,
                             device->ops->name);
        targets[i] = (xgdi_target){ t->native, face };
    }

    /* Step 5: one slot per resource; equal sizes, applied sample counts and pixel byte sizes
     * (equal byte size is compatible even when formats differ, as in XNA). */
    xgd_texture *first = bindings[0].target;
    int fw, fh;
    xgdi_texture_size(first, &fw, &fh);
    for (int i = 1; i < count; i++) {
        xgd_texture *t = bindings[i].target;
        for (int j = 0; j < i; j++) {
            if (bindings[j].target == t)
                return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                                 "a render target is bound to slots %d and %d", j, i);
        }
        int w, h;
        xgdi_texture_size(t, &w, &h);
        if (w != fw || h != fh)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "render target %d is %dx%d, target 0 is %dx%d", i, w, h, fw, fh);
        if (t->samples != first->samples)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "render target %d has %d samples, target 0 has %d", i, t->samples,
                             first->samples);
        if (xgdi_format_info_of(t->format)->element_size !=
            xgdi_format_info_of(first->format)->element_size)
            return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                             "render target %d's pixel size differs from target 0's", i);
    }

    /* Step 6: finalise the outgoing set, bind natively, and publish only after success. */
    r = finalize_outgoing(device, NULL, &finalized);
    if (r != XGD_OK) return r;
    r = device->ops->set_render_targets(device->renderer, targets, count);
    if (r != XGD_OK) return r;

    /* RenderTargetUsage: a DiscardContents first target clears colour to opaque black plus the
     * depth and stencil planes that really exist; the first descriptor decides for the set. The
     * clear is part of the transaction: it runs before anything is published, and when it fails
     * the previous set is bound again natively, so the failed call changed nothing. When even
     * that rebind fails, the public state still stays exactly as it was (the previous set,
     * viewport, scissor, statistics): the native binding is marked stale and the next call
     * that uses it binds the previous set first (xgdi_sync_native_targets). */
    if (first->usage == XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS) {
        static const float black[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
        unsigned opts = XGD_CLEAR_TARGET;
        if (first->depth_format != XGD_DEPTH_FORMAT_NONE) opts |= XGD_CLEAR_DEPTH_BUFFER;
        if (has_stencil(first->depth_format)) opts |= XGD_CLEAR_STENCIL;
        r = device->ops->clear(device->renderer, opts, black, 1.0f, 0);
        if (r != XGD_OK) {
            char why[512];
            memcpy(why, xgdi_failure_message(device), sizeof why);
            xgd_result back = device->binding_count == 0
                                  ? device->ops->set_render_targets(device->renderer, NULL, 0)
                                  : xgdi_rebind_render_targets(device);
            device->native_targets_stale = back != XGD_OK;
            xgdi_forget_user_draw(device);
            xgdi_invalidate_draw_state(device);
            if (back == XGD_OK) return xgdi_fail(device, r, "%s", why);
            return xgdi_fail(device, r, "%s (the previous render targets stay bound; binding "
                                        "them natively again failed too and is retried by the "
                                        "next call that uses them)", why);
        }
    }
    device->native_targets_stale = false;
    count_finalized(device, &finalized);
    memset(device->bindings, 0, sizeof device->bindings);
    for (int i = 0; i < count; i++) {
        bindings[i].target->content_lost = false;
        device->bindings[i] = (xgdi_binding){ bindings[i].target, (int)bindings[i].face };
    }
    device->binding_count = count;
    device->render_target_bound = true;
    device->bound_render_target_destroyed = false;
    device->stats.target_changes++;
    xgdi_reset_viewport_scissor(device);
    xgdi_invalidate_draw_state(device);
    return XGD_OK;
}

xgd_result xgd_set_render_target(xgd_device *device, xgd_texture *target)
{
    if (target == NULL) return xgd_set_render_targets(device, NULL, 0);
    xgd_render_target_binding b = { target, XGD_CUBE_MAP_FACE_POSITIVE_X };
    return xgd_set_render_targets(device, &b, 1);
}

xgd_result xgd_set_render_target_cube(xgd_device *device, xgd_texture *target,
                                      xgd_cube_map_face face)
{
    if (target == NULL) return xgd_set_render_targets(device, NULL, 0);
    xgd_render_target_binding b = { target, face };
    return xgd_set_render_targets(device, &b, 1);
}

xgd_result xgd_get_render_targets(xgd_device *device, xgd_render_target_binding *out, int max,
                                  int *count)
{
    xgd_result r = xgdi_check_device_alive(device);
    if (r != XGD_OK) return r;
    if (count == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "count is NULL");
    if (max < 0 || (out == NULL && max > 0))
        return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out/max are invalid");
    int n = device->binding_count < max ? device->binding_count : max;
    for (int i = 0; i < n; i++)
        out[i] = (xgd_render_target_binding){ XGDI_HANDLE_OF(device->bindings[i].target),
                                              (xgd_cube_map_face)device->bindings[i].face };
    *count = device->binding_count;
    return XGD_OK;
}

/* Spec 001 "Bound target disposal has two paths", the destructor path: return the renderer to
 * the back buffer while the dying target's native part still exists (survivors of an MRT set
 * are finalised first, spec 000 leg L1), clear the public bindings so nothing sees the dead
 * pointer, and keep render_target_bound so Present refuses until SetRenderTargets is called. */
void xgdi_detach_destroyed_render_target(xgd_device *dev, xgd_texture *target)
{
    bool bound = false;
    for (int i = 0; i < dev->binding_count; i++)
        if (dev->bindings[i].target == target) bound = true;
    if (!bound) return;
    if (dev->renderer != NULL && !dev->lost) {
        /* Errors are swallowed: this path cannot fail (the C++ original is noexcept). The
         * set leaves whatever the renderer says, so what was finalised counts. */
        finalize_count finalized = { 0, 0 };
        (void)finalize_outgoing(dev, target, &finalized);
        count_finalized(dev, &finalized);
        /* A failure leaves the binding stale: the next call that uses it binds the back
         * buffer before the dying target's native part can be used. */
        dev->native_targets_stale =
            dev->ops->set_render_targets(dev->renderer, NULL, 0) != XGD_OK;
        xgdi_forget_user_draw(dev);
    }
    memset(dev->bindings, 0, sizeof dev->bindings);
    dev->binding_count = 0;
    dev->bound_render_target_destroyed = true;
    xgdi_invalidate_draw_state(dev);
}

xgd_result xgdi_rebind_render_targets(xgd_device *dev)
{
    if (dev->binding_count == 0) return XGD_OK;
    xgdi_target targets[XGDI_MAX_RENDER_TARGETS];
    for (int i = 0; i < dev->binding_count; i++) {
        xgd_texture *t = dev->bindings[i].target;
        if (t == NULL || t->native == NULL) return XGD_ERROR_DEVICE_LOST;
        targets[i] = (xgdi_target){ t->native, dev->bindings[i].face };
    }
    return dev->ops->set_render_targets(dev->renderer, targets, dev->binding_count);
}

xgd_result xgdi_sync_native_targets(xgd_device *dev)
{
    if (!dev->native_targets_stale) return XGD_OK;
    xgd_result r = dev->binding_count == 0 ? dev->ops->set_render_targets(dev->renderer, NULL, 0)
                                           : xgdi_rebind_render_targets(dev);
    if (r != XGD_OK) {
        char why[512];
        memcpy(why, xgdi_failure_message(dev), sizeof why);
        return xgdi_fail(dev, r, "the bound render targets could not be bound natively again "
                                 "(%s): %s",
                         xgd_result_name(r), why);
    }
    dev->native_targets_stale = false;
    xgdi_invalidate_draw_state(dev);
    return XGD_OK;
}
