/*
 * query.c - XNA OcclusionQuery (xgd.h "Occlusion queries"): the state rules live here; the
 * renderers' query ops (renderer.h) only execute.
 *
 * A query is idle (never ended since creation or the last restore), active (between begin and
 * end) or ended. The device knows its one active query (dev->active_query): Vulkan forbids two
 * active queries of one type in a command buffer and XNA allows one OcclusionQuery at a time,
 * so a second begin is refused rather than nested.
 */
#include "internal.h"

#include <stdlib.h>

typedef enum query_state {
    QUERY_IDLE = 0, /* never ended: no result to ask for */
    QUERY_ACTIVE,
    QUERY_ENDED
} query_state;

struct xgd_occlusion_query {
    xgdi_resource res;
    xgdi_native_query *native;         /* NULL while lost or when recovery failed */
    query_state state;
    bool have_result;                  /* the count of the last begin/end, once read */
    uint64_t result;
};

/* The device whatever its state (device destroy runs with `destroying` set, when
 * xgdi_resource_device already answers NULL), as buffer.c does. */
static xgd_device *owner_device(const xgdi_resource *res)
{
    return res->token != NULL ? res->token->device : NULL;
}

/* Loss, destroy and device destroy: an active query is ended natively first (a GPU renderer
 * must not close a command list with a query open), then the native part goes. Whatever was
 * pending is gone with it: the query is idle again (xgd.h "Device loss"). */
static void query_release_native(xgdi_resource *res)
{
    xgd_occlusion_query *q = (xgd_occlusion_query *)res;
    xgd_device *dev = owner_device(res);
    bool renderer = dev != NULL && dev->renderer != NULL;
    if (q->native != NULL && renderer) {
        if (q->state == QUERY_ACTIVE) (void)dev->ops->query_end(dev->renderer, q->native);
        dev->ops->query_destroy(dev->renderer, q->native);
    }
    q->native = NULL;
    if (dev != NULL && dev->active_query == q) dev->active_query = NULL;
    q->state = QUERY_IDLE;
    q->have_result = false;
    q->result = 0;
}

static xgd_result query_recreate_native(xgdi_resource *res)
{
    xgd_occlusion_query *q = (xgd_occlusion_query *)res;
    xgd_device *dev = owner_device(res);
    if (dev == NULL || dev->renderer == NULL) return XGD_ERROR_DEVICE_LOST;
    if (q->native != NULL) return XGD_OK;
    return dev->ops->query_create(dev->renderer, &q->native);
}

static const xgdi_resource_vtable query_vtable = { query_release_native, query_recreate_native,
                                                   NULL };

xgd_result xgd_occlusion_query_create(xgd_device *device, xgd_occlusion_query **out)
{
    if (out != NULL) *out = NULL;
    xgd_result r = xgdi_check_device(device);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    /* XNA 4.0 profile table (Shawn Hargreaves, "Reach vs. HiDef"): occlusion queries are
     * HiDef only; Reach throws NotSupportedException. */
    if (device->desc.profile == XGD_GRAPHICS_PROFILE_REACH)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "the Reach profile does not support occlusion queries (HiDef only)");
    const xgdi_renderer_ops *ops = device->ops;
    if (ops->query_create == NULL || ops->query_destroy == NULL || ops->query_begin == NULL ||
        ops->query_end == NULL || ops->query_result == NULL)
        return xgdi_fail(device, XGD_ERROR_NOT_SUPPORTED,
                         "renderer '%s' has no occlusion queries", ops->name);
    xgd_occlusion_query *q = calloc(1, sizeof *q);
    if (q == NULL) return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    r = ops->query_create(device->renderer, &q->native);
    if (r != XGD_OK) {
        free(q);
        return r;
    }
    r = xgdi_resource_register(device, &q->res, XGDI_RES_OCCLUSION_QUERY, &query_vtable);
    if (r != XGD_OK) {
        ops->query_destroy(device->renderer, q->native);
        free(q);
        return r;
    }
    *out = q->res.handle;
    return XGD_OK;
}

void xgd_occlusion_query_destroy(xgd_occlusion_query *query)
{
    XGDI_RESOLVE_DESTROY(query, XGDI_RES_OCCLUSION_QUERY);
    if (query == NULL) return;
    /* release_native ends an active query and clears the device's active query */
    xgdi_resource_dispose(&query->res);
    free(query);
}

/* The query's device, usable (not lost), with storage. */
static xgd_result check_query(xgd_occlusion_query *q, xgd_device **out_dev)
{
    xgd_result r = xgdi_check_resource(NULL, q != NULL ? &q->res : NULL, XGDI_RES_OCCLUSION_QUERY,
                                       "query");
    if (r != XGD_OK) return r;
    xgd_device *dev = xgdi_resource_device(&q->res);
    r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (q->native == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the occlusion query has no native storage (its recovery failed)");
    *out_dev = dev;
    return XGD_OK;
}

xgd_result xgd_occlusion_query_begin(xgd_occlusion_query *query)
{
    XGDI_RESOLVE(NULL, query, XGDI_RES_OCCLUSION_QUERY, "query");
    xgd_device *dev = NULL;
    xgd_result r = check_query(query, &dev);
    if (r != XGD_OK) return r;
    /* XNA: Begin while a query is active is InvalidOperationException; Vulkan: one active
     * occlusion query per command buffer. */
    if (dev->active_query == query)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the occlusion query is already active; call xgd_occlusion_query_end "
                         "first");
    if (dev->active_query != NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "another occlusion query of this device is active; end it first (one "
                         "active query per device)");
    r = dev->ops->query_begin(dev->renderer, query->native);
    if (r != XGD_OK) return r;
    query->state = QUERY_ACTIVE;
    query->have_result = false;
    query->result = 0;
    dev->active_query = query;
    return XGD_OK;
}

xgd_result xgd_occlusion_query_end(xgd_occlusion_query *query)
{
    XGDI_RESOLVE(NULL, query, XGDI_RES_OCCLUSION_QUERY, "query");
    xgd_device *dev = NULL;
    xgd_result r = check_query(query, &dev);
    if (r != XGD_OK) return r;
    if (dev->active_query != query)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "the occlusion query is not active; call xgd_occlusion_query_begin "
                         "first");
    r = dev->ops->query_end(dev->renderer, query->native);
    if (r != XGD_OK) return r;
    query->state = QUERY_ENDED;
    dev->active_query = NULL;
    return XGD_OK;
}

/* Common part of is_complete and get_pixel_count, after the query and out were checked: the
 * result if available (cached once read, so a completed query never goes back to the
 * renderer). */
static xgd_result poll(xgd_device *dev, xgd_occlusion_query *q, bool wait, const char *call,
                       bool *done)
{
    if (q->state == QUERY_ACTIVE)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "%s: the occlusion query is active; call xgd_occlusion_query_end first",
                         call);
    if (q->state != QUERY_ENDED)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "%s: the occlusion query was never ended (begin and end it first)",
                         call);
    if (q->have_result) {
        *done = true;
        return XGD_OK;
    }
    uint64_t samples = 0;
    bool ready = false;
    /* flush: D3DGETDATA_FLUSH semantics, so polling in a loop cannot spin forever on work
     * that nobody submits */
    xgd_result r = dev->ops->query_result(dev->renderer, q->native, true, wait, &ready, &samples);
    if (r != XGD_OK) return r;
    if (ready) {
        q->have_result = true;
        q->result = samples;
    }
    *done = ready;
    return XGD_OK;
}

xgd_result xgd_occlusion_query_is_complete(xgd_occlusion_query *query, bool *out)
{
    XGDI_RESOLVE(NULL, query, XGDI_RES_OCCLUSION_QUERY, "query");
    xgd_device *dev = NULL;
    xgd_result r = check_query(query, &dev);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    bool done = false;
    r = poll(dev, query, false, "is_complete", &done);
    if (r != XGD_OK) return r;
    *out = done;
    return XGD_OK;
}

xgd_result xgd_occlusion_query_get_pixel_count(xgd_occlusion_query *query, bool wait,
                                               uint64_t *out)
{
    XGDI_RESOLVE(NULL, query, XGDI_RES_OCCLUSION_QUERY, "query");
    xgd_device *dev = NULL;
    xgd_result r = check_query(query, &dev);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    bool done = false;
    r = poll(dev, query, wait, "get_pixel_count", &done);
    if (r != XGD_OK) return r;
    if (!done)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION,
                         "get_pixel_count: the occlusion query is not complete yet (poll "
                         "xgd_occlusion_query_is_complete, or pass wait = true)");
    *out = query->result;
    return XGD_OK;
}
