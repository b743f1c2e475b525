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
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
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
    /* the applied shaders went with the context (xgd_device_restore_context) */
    CHECK_OK(xgd_effect_apply(d.fx));
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

/* ---- the shared segment mechanism (src/core/query_segments.c) on a scripted renderer ------- */

/* A pretend GPU renderer: chunks of 4 slots, a count per slot that "draws" add to while the
 * slot is begun, a fence the test completes by hand, and submissions that end the active
 * query's segment and begin the next one as a real renderer's list change does. */
enum { FAKE_CHUNK = 4, FAKE_SLOTS = 64 };
typedef struct fake_gpu {
    xgdi_renderer base;
    xgdi_query_slots slots;
    uint64_t completed;
    uint32_t chunks_allowed;       /* add_chunk fails from this chunk on */
    uint64_t count[FAKE_SLOTS];
    int open;                      /* the begun slot, or -1 */
    int begins;
} fake_gpu;

static fake_gpu *fake_of(xgdi_renderer *r) { return (fake_gpu *)r; }

static xgd_result fake_add_chunk(xgdi_renderer *r, uint32_t chunk)
{
    if (chunk >= fake_of(r)->chunks_allowed || (chunk + 1) * FAKE_CHUNK > FAKE_SLOTS)
        return xgdi_fail(r->device, XGD_ERROR_OUT_OF_MEMORY, "fake: no chunk %u", chunk);
    return XGD_OK;
}
static xgd_result fake_list(xgdi_renderer *r, void **list)
{
    *list = r;
    return XGD_OK;
}
static void fake_begin(xgdi_renderer *r, void *list, uint32_t chunk, uint32_t index)
{
    fake_gpu *f = fake_of(r);
    (void)list;
    f->open = (int)(chunk * FAKE_CHUNK + index);
    f->count[f->open] = 0;
    f->begins++;
}
static void fake_end(xgdi_renderer *r, void *list, uint32_t chunk, uint32_t index)
{
    (void)list;
    (void)chunk;
    (void)index;
    fake_of(r)->open = -1;
}
static xgd_result fake_read(xgdi_renderer *r, uint32_t chunk, uint32_t index, uint64_t *samples)
{
    *samples = fake_of(r)->count[chunk * FAKE_CHUNK + index];
    return XGD_OK;
}
static const xgdi_query_native_ops fake_native = { fake_add_chunk, fake_list, fake_begin,
                                                   fake_end, fake_read };

static xgd_result fake_submit(xgdi_renderer *r)
{
    fake_gpu *f = fake_of(r);
    xgdi_query_slots_suspend(&f->slots, f);
    r->submitted_fence++;
    xgdi_query_slots_resume(&f->slots, f);
    return XGD_OK;
}
static uint64_t fake_completed(xgdi_renderer *r) { return fake_of(r)->completed; }
static xgd_result fake_wait(xgdi_renderer *r, uint64_t value)
{
    if (fake_of(r)->completed < value) fake_of(r)->completed = value;
    return XGD_OK;
}
static void fake_draw(fake_gpu *f, uint64_t n)
{
    if (f->open >= 0) f->count[f->open] += n;
}

/* Segments across submissions sum; results wait for the last segment's fence; chunks grow
 * on demand; slots come back only once their fence completed; a segment that cannot be
 * reserved at a submission makes the result OUT_OF_MEMORY until the query begins again. */
XGD_TEST(query_shared_segments)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    /* the table core calls through (dev->ops) is the fake's for the length of the test */
    const xgdi_renderer_ops *real = dev->ops;
    xgdi_renderer_ops ops = *real;
    ops.name = "fake";
    ops.submit = fake_submit;
    ops.completed_fence = fake_completed;
    ops.wait_fence = fake_wait;
    dev->ops = &ops;
    static fake_gpu f; /* large; zeroed */
    memset(&f, 0, sizeof f);
    f.base.ops = &ops;
    f.base.device = dev;
    f.open = -1;
    f.chunks_allowed = 2;
    xgdi_query_slots_init(&f.slots, &f.base, &fake_native, FAKE_CHUNK);
    xgdi_query_segments q[6];
    memset(q, 0, sizeof q);
    for (int i = 0; i < 6; i++) REQUIRE_OK(xgdi_query_segments_init(&f.slots, &q[i]));

    /* three segments: begin, two submissions, end */
    bool done = true;
    uint64_t n = 0;
    CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[0]));
    CHECK_INT(f.slots.chunk_count, 1);
    fake_draw(&f, 3);
    CHECK_OK(fake_submit(&f.base));
    fake_draw(&f, 4);
    CHECK_OK(fake_submit(&f.base));
    fake_draw(&f, 5);
    CHECK_OK(xgdi_query_segments_end(&f.slots, &q[0]));
    fake_draw(&f, 100); /* after end: not counted */
    CHECK_INT(q[0].count, 3);
    CHECK_INT(f.begins, 3);
    CHECK(f.slots.active == NULL);
    /* the last segment is in the open frame: no flush, no result; flush submits */
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[0], false, false, &done, &n));
    CHECK(!done);
    CHECK_INT(f.base.submitted_fence, 2);
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[0], true, false, &done, &n));
    CHECK(!done);
    CHECK_INT(f.base.submitted_fence, 3);
    f.completed = 2; /* the frame of the last segment (3) has not completed */
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[0], true, false, &done, &n));
    CHECK(!done);
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[0], true, true, &done, &n));
    CHECK(done);
    CHECK_INT(n, 12);

    /* slots 0..2 went to q[0] and slot 3 was reserved then given back at end (fence 0): four
       more live queries need a second chunk */
    for (int i = 1; i <= 4; i++) {
        CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[i]));
        fake_draw(&f, (uint64_t)i);
        CHECK_OK(xgdi_query_segments_end(&f.slots, &q[i]));
    }
    CHECK_INT(f.slots.chunk_count, 2);
    /* q[0] begun again: its old slots go back with fence 3, which has completed */
    f.completed = 3;
    CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[0]));
    CHECK_OK(xgdi_query_segments_end(&f.slots, &q[0]));
    CHECK_INT(f.slots.chunk_count, 2);
    for (int i = 1; i <= 4; i++) {
        CHECK_OK(xgdi_query_segments_result(&f.slots, &q[i], true, true, &done, &n));
        CHECK(done);
        CHECK_INT(n, (uint64_t)i);
    }

    /* no third chunk: fill every free slot, then a submission cannot reserve the next one */
    f.completed = f.base.submitted_fence;
    int filled = 0;
    xgdi_query_segments extra[8];
    memset(extra, 0, sizeof extra);
    for (int i = 0; i < 8; i++) REQUIRE_OK(xgdi_query_segments_init(&f.slots, &extra[i]));
    /* each begin needs one slot; stop at the first refusal (OUT_OF_MEMORY from add_chunk) */
    for (; filled < 8; filled++) {
        xgd_result r = xgdi_query_segments_begin(&f.slots, &extra[filled]);
        if (r != XGD_OK) {
            CHECK_RESULT(r, XGD_ERROR_OUT_OF_MEMORY);
            CHECK(strstr(xgd_device_last_error(dev), "fake: no chunk 2") != NULL);
            CHECK(extra[filled].count == 0 && f.slots.active == NULL);
            break;
        }
        CHECK_OK(xgdi_query_segments_end(&f.slots, &extra[filled]));
    }
    CHECK_INT(filled, 2 * FAKE_CHUNK - 5); /* q[0] holds one slot, q[1..4] one each */
    /* give one slot back so q[5] can begin, then have none for its next segment */
    xgdi_query_segments_release(&f.slots, &extra[0]);
    f.completed = f.base.submitted_fence + 1;
    CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[5]));
    fake_draw(&f, 7);
    CHECK_OK(fake_submit(&f.base));
    fake_draw(&f, 8); /* lost: no segment */
    CHECK_OK(xgdi_query_segments_end(&f.slots, &q[5]));
    CHECK(q[5].incomplete);
    done = true;
    CHECK_RESULT(xgdi_query_segments_result(&f.slots, &q[5], true, true, &done, &n),
                 XGD_ERROR_OUT_OF_MEMORY);
    CHECK(!done);
    CHECK(strstr(xgd_device_last_error(dev), "fake: the occlusion query lost a segment") != NULL);
    /* begun again it counts again (a begin takes its slot before giving the old ones back, so
       one more slot is freed first) */
    xgdi_query_segments_release(&f.slots, &extra[1]);
    f.completed = f.base.submitted_fence + 1;
    CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[5]));
    CHECK(!q[5].incomplete);
    fake_draw(&f, 9);
    CHECK_OK(xgdi_query_segments_end(&f.slots, &q[5]));
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[5], true, true, &done, &n));
    CHECK(done);
    CHECK_INT(n, 9);

    /* a query left active across 40 submissions whose frames complete keeps only the segments
       in flight (the others are read into `folded` and their slots given back), and its count
       is still the sum of every segment: 1 + 2 + ... + 40 */
    for (int i = 0; i < 8; i++) xgdi_query_segments_release(&f.slots, &extra[i]);
    for (int i = 1; i < 6; i++) xgdi_query_segments_release(&f.slots, &q[i]);
    for (int i = 1; i < 6; i++) REQUIRE_OK(xgdi_query_segments_init(&f.slots, &q[i]));
    f.completed = f.base.submitted_fence;
    uint32_t chunks = f.slots.chunk_count;
    CHECK_OK(xgdi_query_segments_begin(&f.slots, &q[1]));
    uint32_t most = 0;
    for (uint64_t k = 1; k <= 40; k++) {
        fake_draw(&f, k);
        CHECK_OK(fake_submit(&f.base));
        f.completed = f.base.submitted_fence; /* the frame just submitted has completed */
        if (q[1].count > most) most = q[1].count;
    }
    CHECK_MSG(most <= 2, "an active query held %u segments (expected at most 2)", most);
    CHECK_INT(f.slots.chunk_count, chunks);
    CHECK_OK(xgdi_query_segments_end(&f.slots, &q[1]));
    CHECK_OK(xgdi_query_segments_result(&f.slots, &q[1], true, true, &done, &n));
    CHECK(done);
    CHECK_INT(n, 40 * 41 / 2);
    memset(extra, 0, sizeof extra);

    for (int i = 0; i < 8; i++) xgdi_query_segments_release(&f.slots, &extra[i]);
    for (int i = 0; i < 6; i++) xgdi_query_segments_release(&f.slots, &q[i]);
    xgdi_query_slots_free(&f.slots);
    dev->ops = real;
    xgd_device_destroy(dev);
}

/* xgdi_quiet_begin/_end (renderer.h): a renderer's optional step that fails (the Vulkan upload
 * ring's growth at Present) records nothing and logs nothing as an error; the message is handed
 * back for the renderer's warning. Outside the span xgdi_fail records and logs again. */
static int quiet_log_errors;
static void quiet_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user, (void)code, (void)message;
    if (level == XGD_LOG_ERROR) quiet_log_errors++;
}

XGD_TEST(quiet_span_records_and_logs_no_error)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = XGD_RENDERER_SOFTWARE;
    d.pp.headless = true;
    d.pp.back_buffer_width = d.pp.back_buffer_height = 8;
    d.log = quiet_log;
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&d, &dev));
    CHECK_RESULT(xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "before"), XGD_ERROR_INVALID_ARGUMENT);
    quiet_log_errors = 0;
    xgdi_quiet_begin(dev);
    CHECK_RESULT(xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "grow %d", 2), XGD_ERROR_OUT_OF_MEMORY);
    const char *why = xgdi_quiet_end(dev);
    CHECK(strcmp(why, "grow 2") == 0);
    CHECK_INT(quiet_log_errors, 0);
    CHECK(strcmp(xgd_device_last_error(dev), "before") == 0);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_INVALID_ARGUMENT);
    /* an empty span hands back "" */
    xgdi_quiet_begin(dev);
    CHECK(strcmp(xgdi_quiet_end(dev), "") == 0);
    /* nested spans: the inner end leaves the outer span quiet, and the outer end sees the
       inner failure (Vulkan's ring growth tries device-local memory quietly inside its own
       span) */
    xgdi_quiet_begin(dev);
    xgdi_quiet_begin(dev);
    CHECK_RESULT(xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "inner"), XGD_ERROR_OUT_OF_MEMORY);
    CHECK(strcmp(xgdi_quiet_end(dev), "inner") == 0);
    CHECK_RESULT(xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "outer"), XGD_ERROR_OUT_OF_MEMORY);
    CHECK(strcmp(xgdi_quiet_end(dev), "outer") == 0);
    CHECK_INT(quiet_log_errors, 0);
    CHECK(strcmp(xgd_device_last_error(dev), "before") == 0);
    /* after the span: recorded and logged */
    CHECK_RESULT(xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "after"), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_INT(quiet_log_errors, 1);
    CHECK(strcmp(xgd_device_last_error(dev), "after") == 0);
    xgd_device_destroy(dev);
}
