/*
 * test_query.c - the state rules of occlusion queries (src/core/query.c) on the software
 * renderer: one active query per device, begin/end pairing, results only of ended queries,
 * failed calls changing nothing, restart, destroy while active, the Reach profile, device
 * loss and restore, device destroy. Counts themselves are the conformance fixtures' job
 * (fixture_query.c); here a query over a known rectangle only shows that counting goes on.
 */
#include "fixture_util.h"
#include "internal.h" /* white-box: a renderer without query ops; the shared slot free list */

static const xgd_color RED = { 255, 0, 0, 255 };

enum { W = 32, H = 16 };

typedef struct qdev {
    xgd_device *dev;
    xgd_effect *fx;
} qdev;

static bool qdev_init(xgdt_ctx *t, qdev *d)
{
    d->dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    d->fx = d->dev ? fx_effect(t, d->dev) : NULL;
    if (d->fx == NULL) {
        xgd_device_destroy(d->dev);
        return false;
    }
    return xgd_clear_color(d->dev, RED) == XGD_OK;
}

static void qdev_free(qdev *d)
{
    xgd_effect_destroy(d->fx);
    xgd_device_destroy(d->dev);
}

/* Draws an n-pixel rectangle (n columns, one row). */
static xgd_result draw_n(qdev *d, int n)
{
    return fx_rect(d->dev, W, H, 0, 0, (float)n, 1, 0.5f, RED);
}

static uint64_t live(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.live_resources;
}

XGD_TEST(query_create_destroy)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    uint64_t before = live(d.dev);
    xgd_occlusion_query *q = NULL;
    CHECK_OK(xgd_occlusion_query_create(d.dev, &q));
    REQUIRE(q != NULL);
    CHECK_INT(live(d.dev), before + 1);
    xgd_occlusion_query_destroy(q);
    CHECK_INT(live(d.dev), before);
    xgd_occlusion_query_destroy(NULL);
    qdev_free(&d);
}

XGD_TEST(query_reach_profile_not_supported)
{
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.profile = XGD_GRAPHICS_PROFILE_REACH;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_occlusion_query *q = (xgd_occlusion_query *)&dd; /* must be set to NULL */
    uint64_t before = live(dev);
    CHECK_RESULT(xgd_occlusion_query_create(dev, &q), XGD_ERROR_NOT_SUPPORTED);
    CHECK(q == NULL);
    CHECK(strstr(xgd_device_last_error(dev), "Reach") != NULL);
    CHECK_INT(live(dev), before);
    xgd_device_destroy(dev);
}

/* Results only of ended queries; end only of the active one. */
XGD_TEST(query_results_need_end)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *q = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &q));
    bool done = true;
    uint64_t n = 1234;
    /* never begun */
    CHECK_RESULT(xgd_occlusion_query_is_complete(q, &done), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(q, false, &n), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(q, true, &n), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_end(q), XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(d.dev), "not active") != NULL);
    /* active */
    CHECK_OK(xgd_occlusion_query_begin(q));
    CHECK_OK(draw_n(&d, 5));
    CHECK_RESULT(xgd_occlusion_query_is_complete(q, &done), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(q, true, &n), XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(d.dev), "active") != NULL);
    CHECK(done);
    CHECK_INT(n, 1234);
    CHECK_OK(xgd_occlusion_query_end(q));
    CHECK_RESULT(xgd_occlusion_query_end(q), XGD_ERROR_INVALID_OPERATION);
    /* ended: the software renderer's results are immediate */
    done = false;
    CHECK_OK(xgd_occlusion_query_is_complete(q, &done));
    CHECK(done);
    CHECK_OK(xgd_occlusion_query_get_pixel_count(q, false, &n));
    CHECK_INT(n, 5);
    xgd_occlusion_query_destroy(q);
    qdev_free(&d);
}

/* One active query per device: a second begin fails and changes nothing; the active query
 * keeps counting. */
XGD_TEST(query_one_active_per_device)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *a = NULL, *b = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &a));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &b));
    /* b has a result, which a refused begin must keep */
    CHECK_OK(xgd_occlusion_query_begin(b));
    CHECK_OK(draw_n(&d, 2));
    CHECK_OK(xgd_occlusion_query_end(b));

    CHECK_OK(xgd_occlusion_query_begin(a));
    CHECK_OK(draw_n(&d, 3));
    CHECK_RESULT(xgd_occlusion_query_begin(a), XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(d.dev), "already active") != NULL);
    CHECK_RESULT(xgd_occlusion_query_begin(b), XGD_ERROR_INVALID_OPERATION);
    CHECK(strstr(xgd_device_last_error(d.dev), "another") != NULL);
    CHECK_RESULT(xgd_occlusion_query_end(b), XGD_ERROR_INVALID_OPERATION);
    uint64_t n = 0;
    CHECK_OK(xgd_occlusion_query_get_pixel_count(b, false, &n));
    CHECK_INT(n, 2);
    CHECK_OK(draw_n(&d, 4));
    CHECK_OK(xgd_occlusion_query_end(a));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(a, false, &n));
    CHECK_INT(n, 7);
    /* nothing active now: b may begin */
    CHECK_OK(xgd_occlusion_query_begin(b));
    CHECK_OK(xgd_occlusion_query_end(b));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(b, false, &n));
    CHECK_INT(n, 0);
    /* queries of different devices do not interfere */
    qdev e;
    REQUIRE(qdev_init(t, &e));
    xgd_occlusion_query *c = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(e.dev, &c));
    CHECK_OK(xgd_occlusion_query_begin(a));
    CHECK_OK(xgd_occlusion_query_begin(c));
    CHECK_OK(draw_n(&e, 6));
    CHECK_OK(xgd_occlusion_query_end(c));
    CHECK_OK(xgd_occlusion_query_end(a));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(c, false, &n));
    CHECK_INT(n, 6);
    CHECK_OK(xgd_occlusion_query_get_pixel_count(a, false, &n));
    CHECK_INT(n, 0);
    xgd_occlusion_query_destroy(c);
    qdev_free(&e);
    xgd_occlusion_query_destroy(a);
    xgd_occlusion_query_destroy(b);
    qdev_free(&d);
}

/* Begin on an ended query discards its result; counting starts from zero. */
XGD_TEST(query_restart_discards)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *q = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &q));
    uint64_t n = 0;
    CHECK_OK(xgd_occlusion_query_begin(q));
    CHECK_OK(draw_n(&d, 9));
    CHECK_OK(xgd_occlusion_query_end(q));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(q, false, &n)); /* read and cached */
    CHECK_INT(n, 9);
    CHECK_OK(xgd_occlusion_query_begin(q));
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(q, false, &n), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(draw_n(&d, 1));
    CHECK_OK(xgd_occlusion_query_end(q));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(q, false, &n));
    CHECK_INT(n, 1);
    xgd_occlusion_query_destroy(q);
    qdev_free(&d);
}

/* Destroying the active query leaves the device without one; draws go on uncounted. */
XGD_TEST(query_destroy_active)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *a = NULL, *b = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &a));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &b));
    CHECK_OK(xgd_occlusion_query_begin(a));
    CHECK_OK(draw_n(&d, 3));
    xgd_occlusion_query_destroy(a);
    CHECK_OK(draw_n(&d, 3));
    CHECK_OK(xgd_occlusion_query_begin(b));
    CHECK_OK(draw_n(&d, 2));
    CHECK_OK(xgd_occlusion_query_end(b));
    uint64_t n = 0;
    CHECK_OK(xgd_occlusion_query_get_pixel_count(b, true, &n));
    CHECK_INT(n, 2);
    xgd_occlusion_query_destroy(b);
    qdev_free(&d);
}

/* Loss: every call but destroy says DEVICE_LOST and changes nothing; restore: all queries are
 * idle (an ended one has no result, an active one is no longer active). */
XGD_TEST(query_device_loss_and_restore)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *ended = NULL, *active = NULL, *idle = NULL, *gone = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &ended));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &active));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &idle));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &gone));
    CHECK_OK(xgd_occlusion_query_begin(ended));
    CHECK_OK(draw_n(&d, 4));
    CHECK_OK(xgd_occlusion_query_end(ended));
    uint64_t n = 0;
    CHECK_OK(xgd_occlusion_query_get_pixel_count(ended, false, &n)); /* cached: also gone */
    CHECK_OK(xgd_occlusion_query_begin(active));
    uint64_t before = live(d.dev);
    CHECK_OK(xgd_device_simulate_context_loss(d.dev));

    xgd_occlusion_query *q = (xgd_occlusion_query *)&n;
    CHECK_RESULT(xgd_occlusion_query_create(d.dev, &q), XGD_ERROR_DEVICE_LOST);
    CHECK(q == NULL);
    bool done = true;
    n = 99;
    CHECK_RESULT(xgd_occlusion_query_begin(idle), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_occlusion_query_end(active), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_occlusion_query_is_complete(ended, &done), XGD_ERROR_DEVICE_LOST);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(ended, false, &n), XGD_ERROR_DEVICE_LOST);
    CHECK(done);
    CHECK_INT(n, 99);
    xgd_occlusion_query_destroy(gone); /* destroy works while lost */
    CHECK_INT(live(d.dev), before - 1);

    CHECK_OK(xgd_device_restore_context(d.dev));
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(d.dev, &info));
    CHECK_INT(info.last_recovery_failures, 0);
    CHECK_RESULT(xgd_occlusion_query_is_complete(ended, &done), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(ended, true, &n), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_end(active), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_occlusion_query_is_complete(active, &done), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_clear_color(d.dev, RED));
    CHECK_OK(xgd_occlusion_query_begin(idle));
    CHECK_OK(draw_n(&d, 3));
    CHECK_OK(xgd_occlusion_query_end(idle));
    CHECK_OK(xgd_occlusion_query_get_pixel_count(idle, false, &n));
    CHECK_INT(n, 3);
    CHECK_OK(xgd_occlusion_query_begin(active));
    CHECK_OK(xgd_occlusion_query_end(active));
    xgd_occlusion_query_destroy(ended);
    xgd_occlusion_query_destroy(active);
    xgd_occlusion_query_destroy(idle);
    qdev_free(&d);
}

/* Device destroy turns queries (an active one too) into disposed shells; their destroy is
 * harmless afterwards. */
XGD_TEST(query_device_destroy_disposes)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    xgd_occlusion_query *a = NULL, *b = NULL;
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &a));
    REQUIRE_OK(xgd_occlusion_query_create(d.dev, &b));
    CHECK_OK(xgd_occlusion_query_begin(a));
    CHECK_OK(xgd_occlusion_query_end(a));
    CHECK_OK(xgd_occlusion_query_begin(b));
    qdev_free(&d);
    bool done = false;
    uint64_t n = 5;
    CHECK_RESULT(xgd_occlusion_query_begin(a), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_occlusion_query_end(b), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_occlusion_query_is_complete(a, &done), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_occlusion_query_get_pixel_count(a, true, &n), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(strstr(xgd_device_last_error(NULL), "occlusion query") != NULL);
    CHECK_INT(n, 5);
    xgd_occlusion_query_destroy(a); /* shells: destroy frees them */
    xgd_occlusion_query_destroy(b);
}

/* renderer.h: a renderer without the query ops makes create NOT_SUPPORTED, naming it. */
XGD_TEST(query_renderer_without_ops)
{
    qdev d;
    REQUIRE(qdev_init(t, &d));
    const xgdi_renderer_ops *real = d.dev->ops;
    xgdi_renderer_ops lacking = *real;
    lacking.query_create = NULL;
    lacking.query_result = NULL;
    d.dev->ops = &lacking;
    uint64_t before = live(d.dev);
    xgd_occlusion_query *q = (xgd_occlusion_query *)&lacking;
    CHECK_RESULT(xgd_occlusion_query_create(d.dev, &q), XGD_ERROR_NOT_SUPPORTED);
    CHECK(q == NULL);
    CHECK(strstr(xgd_device_last_error(d.dev), "renderer 'software' has no occlusion queries") !=
          NULL);
    CHECK_INT(live(d.dev), before);
    d.dev->ops = real;
    qdev_free(&d);
}

/* The fence-stamped free list GPU renderers recycle query slots with: an index comes back only
 * once its fence completed, new ones only below the limit. */
XGD_TEST(query_fenced_index_recycling)
{
    xgdi_fenced_indices p;
    memset(&p, 0, sizeof p);
    uint32_t i = 99;
    CHECK(!xgdi_fenced_take(&p, 0, 0, &i)); /* no storage yet */
    CHECK(xgdi_fenced_take(&p, 0, 2, &i));
    CHECK_INT(i, 0);
    CHECK(xgdi_fenced_take(&p, 0, 2, &i));
    CHECK_INT(i, 1);
    CHECK(!xgdi_fenced_take(&p, 0, 2, &i));
    CHECK_OK(xgdi_fenced_give(&p, 1, 5));
    CHECK_OK(xgdi_fenced_give(&p, 0, 7));
    CHECK(!xgdi_fenced_take(&p, 4, 2, &i)); /* fence 5 not complete */
    CHECK(xgdi_fenced_take(&p, 4, 3, &i));  /* a new one instead */
    CHECK_INT(i, 2);
    CHECK(xgdi_fenced_take(&p, 6, 3, &i));
    CHECK_INT(i, 1);
    CHECK(!xgdi_fenced_take(&p, 6, 3, &i)); /* 0 waits for fence 7 */
    CHECK(xgdi_fenced_take(&p, 7, 3, &i));
    CHECK_INT(i, 0);
    /* growth of the ring keeps order across its wrap */
    for (uint32_t k = 0; k < 40; k++) CHECK_OK(xgdi_fenced_give(&p, 100 + k, 10 + k));
    for (uint32_t k = 0; k < 40; k++) {
        CHECK(xgdi_fenced_take(&p, 10 + k, 3, &i));
        CHECK_INT(i, 100 + k);
        if (k % 7 == 0) CHECK_OK(xgdi_fenced_give(&p, 200 + k, 1000));
    }
    CHECK(!xgdi_fenced_take(&p, 999, 3, &i));
    CHECK(xgdi_fenced_take(&p, 1000, 3, &i));
    CHECK_INT(i, 200);
    xgdi_fenced_free(&p);
}
