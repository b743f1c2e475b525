/*
 * fixture_errors_state.c - XNA's error and state rules, on every renderer:
 *
 *   Reset_RaisesResettingThenResetOnce        GraphicsDevice.Reset raises DeviceResetting before
 *                                             anything changes and DeviceReset after, once each;
 *                                             a refused reset raises none, a reset the renderer
 *                                             fails raises DeviceResetting only and changes nothing
 *   DiscardClearAndRebindFailure_ChangesNothing
 *                                             SetRenderTargets whose DiscardContents clear fails
 *                                             and whose rebind of the previous set fails too
 *                                             leaves the previous set and every public state as
 *                                             they were; the next draw lands in the previous set
 *   ResetRebindFailure_ChangesNothing         the same for a Reset whose renderer step fails
 *   PNG_TransparentPixelsLoadAsZero           FromStream stores alpha-0 pixels as (0,0,0,0) and
 *                                             every other pixel as the file has it
 *   PNG_OtherFormatIsInvalidOperation         data that is not a PNG is InvalidOperation
 *   Reach_TextureLimits                       DXT sizes, cube sizes, NormalizedByte cubes, NPOT
 *                                             mipmaps: NotSupported under Reach, allowed by HiDef
 *   Reach_NonPowerOfTwoNeedsClamp             a NPOT texture sampled with Wrap or Mirror is
 *                                             NotSupported at the draw (nothing drawn); Clamp draws
 *   Reach_SpriteBatchNonPowerOfTwoNeedsClamp  the same through SpriteBatch (End draws nothing)
 *   BufferSetData_ZeroElementsOutOfRange      SetData of 0 elements is ArgumentOutOfRange on
 *                                             vertex and index buffers and changes nothing
 */
#include "fixture_util.h"
#include "internal.h" /* the debug fault hook (src/core/fault.c) */

#include <stdio.h>
#include <unistd.h>

/* ---- Reset events -------------------------------------------------------------------------- */

typedef struct event_log {
    int n;
    xgd_device_event ev[8];
    int width_at[8]; /* back-buffer width the device reported when the event was raised */
} event_log;

static void record_event(void *user, xgd_device *device, xgd_device_event event)
{
    event_log *log = user;
    if (event != XGD_EVENT_DEVICE_RESETTING && event != XGD_EVENT_DEVICE_RESET) return;
    if (log->n >= 8) return;
    xgd_device_info info;
    log->width_at[log->n] = xgd_device_get_info(device, &info) == XGD_OK
                                ? info.pp.back_buffer_width : -1;
    log->ev[log->n++] = event;
}

XGD_FIXTURE(Reset_RaisesResettingThenResetOnce)
{
    event_log log;
    memset(&log, 0, sizeof log);
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.on_event = record_event;
    dd.event_user = &log;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    log.n = 0;

    /* A successful reset: Resetting sees the old size, Reset the new one; once each. */
    xgd_presentation_parameters pp;
    memset(&pp, 0, sizeof pp);
    pp.back_buffer_width = 24;
    pp.back_buffer_height = 20;
    pp.headless = true;
    CHECK_OK(xgd_device_reset(dev, &pp));
    CHECK_INT(log.n, 2);
    if (log.n == 2) {
        CHECK_INT(log.ev[0], XGD_EVENT_DEVICE_RESETTING);
        CHECK_INT(log.ev[1], XGD_EVENT_DEVICE_RESET);
        CHECK_INT(log.width_at[0], 16);
        CHECK_INT(log.width_at[1], 24);
    }
    /* NULL keeps the parameters, and is still a reset. */
    log.n = 0;
    CHECK_OK(xgd_device_reset(dev, NULL));
    CHECK_INT(log.n, 2);
    if (log.n == 2) {
        CHECK_INT(log.ev[0], XGD_EVENT_DEVICE_RESETTING);
        CHECK_INT(log.ev[1], XGD_EVENT_DEVICE_RESET);
    }

    /* Refused by validation: no event, nothing changed. */
    log.n = 0;
    pp.back_buffer_width = -5;
    CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(log.n, 0);

    /* The renderer fails: Resetting was raised, Reset is not, and the device is as it was. */
    log.n = 0;
    pp.back_buffer_width = 32;
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_RESET_BACK_BUFFER, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_OUT_OF_MEMORY);
    CHECK_INT(log.n, 1);
    if (log.n == 1) CHECK_INT(log.ev[0], XGD_EVENT_DEVICE_RESETTING);
    xgd_device_info info;
    CHECK_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.pp.back_buffer_width, 24);
    CHECK_INT(info.pp.back_buffer_height, 20);
    xgd_device_destroy(dev);
}

/* ---- SetRenderTargets / Reset whose rebind fails ------------------------------------------- */

typedef struct public_state {
    xgd_render_target_binding b[4];
    int count;
    xgd_viewport vp;
    xgd_rect sc;
    xgd_statistics st;
    xgd_device_info info;
} public_state;

static void snap(xgdt_ctx *t, xgd_device *dev, public_state *s)
{
    memset(s, 0, sizeof *s);
    CHECK_OK(xgd_get_render_targets(dev, s->b, 4, &s->count));
    CHECK_OK(xgd_get_viewport(dev, &s->vp));
    CHECK_OK(xgd_get_scissor_rect(dev, &s->sc));
    CHECK_OK(xgd_device_get_statistics(dev, &s->st));
    CHECK_OK(xgd_device_get_info(dev, &s->info));
}

static void expect_same(xgdt_ctx *t, const public_state *a, const public_state *b, const char *what)
{
    CHECK_MSG(a->count == b->count, "%s: %d targets bound, %d before", what, b->count, a->count);
    for (int i = 0; i < a->count && i < b->count; i++)
        CHECK_MSG(a->b[i].target == b->b[i].target && a->b[i].face == b->b[i].face,
                  "%s: binding %d changed", what, i);
    CHECK_MSG(memcmp(&a->vp, &b->vp, sizeof a->vp) == 0,
              "%s: viewport (%d,%d %dx%d), was (%d,%d %dx%d)", what, b->vp.x, b->vp.y,
              b->vp.width, b->vp.height, a->vp.x, a->vp.y, a->vp.width, a->vp.height);
    CHECK_MSG(memcmp(&a->sc, &b->sc, sizeof a->sc) == 0, "%s: scissor changed", what);
    CHECK_MSG(a->st.target_changes == b->st.target_changes && a->st.clears == b->st.clears &&
                  a->st.draw_calls == b->st.draw_calls,
              "%s: statistics changed (target changes %llu -> %llu, clears %llu -> %llu)", what,
              (unsigned long long)a->st.target_changes, (unsigned long long)b->st.target_changes,
              (unsigned long long)a->st.clears, (unsigned long long)b->st.clears);
    CHECK_MSG(a->info.render_target_bound == b->info.render_target_bound &&
                  a->info.lost == b->info.lost &&
                  a->info.pp.back_buffer_width == b->info.pp.back_buffer_width &&
                  a->info.pp.back_buffer_height == b->info.pp.back_buffer_height,
              "%s: device info changed (bound %d -> %d, lost %d -> %d)", what,
              a->info.render_target_bound, b->info.render_target_bound, a->info.lost,
              b->info.lost);
}

XGD_FIXTURE(DiscardClearAndRebindFailure_ChangesNothing)
{
    enum { BW = 16, BH = 16, W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 }, RED = { 255, 0, 0, 255 },
                    BLUE = { 0, 0, 255, 255 }, CYAN = { 0, 200, 200, 255 };
    xgd_device *dev = fx_device(t, BW, BH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_texture *c = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(a && c);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    /* c holds blue, a grey; a is bound with its own viewport and scissor. */
    REQUIRE_OK(xgd_set_render_target(dev, c));
    CHECK_OK(xgd_clear_color(dev, BLUE));
    REQUIRE_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_clear_color(dev, GREY));
    const xgd_viewport vp = { 1, 1, 6, 4, 0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &vp));
    CHECK_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 2, 2, 3, 3 }));
    public_state before, after;
    snap(t, dev, &before);

    /* Renderer calls: bind c (succeeds), its discard clear (fails), bind a again (fails). */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 2,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, c), XGD_ERROR_OUT_OF_MEMORY);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 0, XGD_OK));
    snap(t, dev, &after);
    expect_same(t, &before, &after, "after the failed bind");

    /* The next draw goes to a, the public binding, with a's viewport: (1,1)-(7,5). */
    CHECK_OK(fx_rect(dev, 6, 4, 0, 0, 6, 4, 0, RED));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, GREY);
    REQUIRE(e);
    fx_fill(e, W, H, 1, 1, 7, 5, RED);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "a_drawn_after_failed_bind", e, W,
                      H, 0);
    free(e);
    e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "c_untouched", e, W, H, 0);
    free(e);

    /* From the back buffer: the failed bind keeps the back buffer, and Present works. */
    CHECK_OK(xgd_clear_color(dev, GREY));
    snap(t, dev, &before);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 2,
                                    XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, c), XGD_ERROR_OUT_OF_MEMORY);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 0, XGD_OK));
    snap(t, dev, &after);
    expect_same(t, &before, &after, "after the failed bind from the back buffer");
    CHECK_OK(fx_rect(dev, BW, BH, 0, 0, 4, 4, 0, CYAN));
    CHECK_OK(xgd_present(dev));
    e = fx_image(BW, BH, GREY);
    REQUIRE(e);
    fx_fill(e, BW, BH, 0, 0, 4, 4, CYAN);
    fx_expect_back_buffer(t, dev, "back_buffer_after_failed_bind", e, BW, BH, 0);
    free(e);
    e = fx_image(W, H, BLUE);
    REQUIRE(e);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "c_still_untouched", e, W, H, 0);
    free(e);

    /* The faults are spent: the same bind now succeeds and discards c to opaque black. */
    CHECK_OK(xgd_set_render_target(dev, c));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    e = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
    REQUIRE(e);
    fx_expect_texture(t, c, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "c_discarded", e, W, H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(c);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(ResetRebindFailure_ChangesNothing)
{
    enum { BW = 16, BH = 16, W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 }, RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, BW, BH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *a = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                               XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(a);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_render_target(dev, a));
    CHECK_OK(xgd_clear_color(dev, GREY));
    const xgd_viewport vp = { 2, 1, 4, 6, 0.0f, 1.0f };
    CHECK_OK(xgd_set_viewport(dev, &vp));
    public_state before, after;
    snap(t, dev, &before);
    /* Renderer calls: unbind (succeeds), the back-buffer reset (fails), bind a again (fails). */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_RESET_BACK_BUFFER, 1,
                                    XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 2,
                                    XGD_ERROR_OUT_OF_MEMORY));
    xgd_presentation_parameters pp;
    memset(&pp, 0, sizeof pp);
    pp.back_buffer_width = 20;
    pp.back_buffer_height = 12;
    pp.headless = true;
    CHECK_RESULT(xgd_device_reset(dev, &pp), XGD_ERROR_OUT_OF_MEMORY);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 0, XGD_OK));
    snap(t, dev, &after);
    expect_same(t, &before, &after, "after the failed reset");
    /* The draw lands in a with its viewport: (2,1)-(6,7). */
    CHECK_OK(fx_rect(dev, 4, 6, 0, 0, 4, 6, 0, RED));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, GREY);
    REQUIRE(e);
    fx_fill(e, W, H, 2, 1, 6, 7, RED);
    fx_expect_texture(t, a, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "a_drawn_after_failed_reset", e, W,
                      H, 0);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(a);
    xgd_device_destroy(dev);
}

/* ---- PNG loading ----------------------------------------------------------------------------- */

static bool temp_path(char *out, size_t n, const char *name)
{
    const char *dir = getenv("TMPDIR");
    if (dir == NULL || dir[0] == '\0') dir = "/tmp";
    return snprintf(out, n, "%s/xgd-errors-state-%ld-%s", dir, (long)getpid(), name) < (int)n;
}

static uint8_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    uint8_t *buf = malloc(65536);
    size_t n = buf != NULL ? fread(buf, 1, 65536, f) : 0;
    fclose(f);
    *size = n;
    return buf;
}

XGD_FIXTURE(PNG_TransparentPixelsLoadAsZero)
{
    enum { W = 4, H = 2 };
    /* Transparent pixels with colours, partly transparent and opaque ones. */
    static const uint8_t file_px[W * H * 4] = {
        255, 0, 0, 0,      10, 20, 30, 128,  0, 255, 0, 255,   1, 2, 3, 0,
        200, 100, 50, 1,   255, 255, 255, 0, 40, 80, 120, 254, 0, 0, 0, 0,
    };
    /* FromStream's rule: alpha 0 -> (0,0,0,0); every other pixel as stored, not premultiplied. */
    uint8_t expected[W * H * 4];
    for (int i = 0; i < W * H; i++) {
        bool clear = file_px[i * 4 + 3] == 0;
        for (int k = 0; k < 4; k++) expected[i * 4 + k] = clear ? 0 : file_px[i * 4 + k];
    }
    char path[512];
    REQUIRE(temp_path(path, sizeof path, "transparent.png"));
    REQUIRE_OK(xgd_image_save_png(path, W, H, file_px));
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    CHECK_OK(xgd_texture2d_from_png_file(dev, path, &tex));
    if (tex != NULL) fx_expect_texture(t, tex, 0, 0, "from_file", expected, W, H, 0);
    xgd_texture_destroy(tex);
    size_t n = 0;
    uint8_t *bytes = read_file(path, &n);
    REQUIRE(bytes);
    tex = NULL;
    CHECK_OK(xgd_texture2d_from_png_memory(dev, bytes, n, &tex));
    if (tex != NULL) fx_expect_texture(t, tex, 0, 0, "from_memory", expected, W, H, 0);
    xgd_texture_destroy(tex);
    free(bytes);
    /* The plain decoder returns the file's bytes unchanged. */
    int w = 0, h = 0;
    uint8_t *raw = NULL;
    CHECK_OK(xgd_image_load_png(path, &w, &h, &raw));
    CHECK(raw != NULL && w == W && h == H && memcmp(raw, file_px, sizeof file_px) == 0);
    xgd_free(raw);
    remove(path);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PNG_OtherFormatIsInvalidOperation)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    static const uint8_t gif[] = { 'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0, 0x80, 0, 0,
                                   0,   0,   0,   255, 255, 255, ',', 0, 0, 0, 0, 1, 0,
                                   1,   0,   0,   2,   2,   'D', 1, 0, ';' };
    static const uint8_t jpeg[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J', 'F', 'I', 'F', 0, 1 };
    static const uint8_t text[] = "hello, this is not an image\n";
    static const uint8_t png_prefix[] = { 0x89, 'P', 'N', 'G' }; /* a truncated PNG */
    xgd_statistics s0, s1;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s0));
    const struct { const uint8_t *p; size_t n; xgd_result want; const char *what; } cases[] = {
        { gif, sizeof gif, XGD_ERROR_INVALID_OPERATION, "GIF" },
        { jpeg, sizeof jpeg, XGD_ERROR_INVALID_OPERATION, "JPEG" },
        { text, sizeof text - 1, XGD_ERROR_INVALID_OPERATION, "text" },
        { text, 1, XGD_ERROR_INVALID_OPERATION, "one byte of text" },
        { png_prefix, sizeof png_prefix, XGD_ERROR_INVALID_ARGUMENT, "truncated PNG" },
    };
    char path[512];
    REQUIRE(temp_path(path, sizeof path, "notpng.png"));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgd_texture *tex = (xgd_texture *)&s0; /* must come back NULL */
        xgd_result r = xgd_texture2d_from_png_memory(dev, cases[i].p, cases[i].n, &tex);
        CHECK_MSG(r == cases[i].want, "%s from memory: %s (%s)", cases[i].what,
                  xgd_result_name(r), xgd_device_last_error(dev));
        CHECK_MSG(tex == NULL, "%s from memory left *out set", cases[i].what);
        CHECK(xgd_device_last_error(dev)[0] != '\0');
        FILE *f = fopen(path, "wb");
        REQUIRE(f);
        fwrite(cases[i].p, 1, cases[i].n, f);
        fclose(f);
        tex = (xgd_texture *)&s0;
        r = xgd_texture2d_from_png_file(dev, path, &tex);
        CHECK_MSG(r == cases[i].want, "%s from a file: %s (%s)", cases[i].what,
                  xgd_result_name(r), xgd_device_last_error(dev));
        CHECK(tex == NULL);
        int w = 0, h = 0;
        uint8_t *raw = NULL;
        r = xgd_image_load_png(path, &w, &h, &raw);
        CHECK_MSG(r == cases[i].want, "%s through xgd_image_load_png: %s", cases[i].what,
                  xgd_result_name(r));
        CHECK(raw == NULL);
        xgd_free(raw);
    }
    remove(path);
    REQUIRE_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.textures_created, s0.textures_created);
    CHECK_INT(s1.live_resources, s0.live_resources);
    xgd_device_destroy(dev);
}

/* ---- Reach profile limits ------------------------------------------------------------------ */

static xgd_device *profile_device(xgdt_ctx *t, xgd_graphics_profile profile)
{
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.profile = profile;
    return xgdt_device(t, &dd);
}

static bool can_sample(xgd_device *dev, xgd_surface_format f)
{
    xgd_format_support s;
    return xgd_device_query_format(dev, f, &s) == XGD_OK && s.texture;
}

/* Creates and destroys; the result code is what the test checks. */
static xgd_result try_tex2d(xgd_device *dev, int w, int h, bool mip, xgd_surface_format f)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture2d_create(
        dev, &(xgd_texture2d_desc){ .width = w, .height = h, .mipmap = mip, .format = f }, &tex);
    if (r != XGD_OK && tex != NULL) r = XGD_ERROR_IO; /* a failure must leave *out NULL */
    xgd_texture_destroy(tex);
    return r;
}

static xgd_result try_cube(xgd_device *dev, int size, xgd_surface_format f)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_texture_cube_create(
        dev, &(xgd_texture_cube_desc){ .size = size, .format = f }, &tex);
    if (r != XGD_OK && tex != NULL) r = XGD_ERROR_IO;
    xgd_texture_destroy(tex);
    return r;
}

static xgd_result try_rt_cube(xgd_device *dev, int size, xgd_surface_format f,
                              xgd_surface_format *applied)
{
    xgd_texture *tex = NULL;
    xgd_result r = xgd_render_target_cube_create(
        dev, &(xgd_render_target_desc){ .width = size, .preferred_format = f }, &tex);
    if (r != XGD_OK && tex != NULL) r = XGD_ERROR_IO;
    xgd_texture_info info;
    if (tex != NULL && applied != NULL && xgd_texture_get_info(tex, &info) == XGD_OK)
        *applied = info.format;
    xgd_texture_destroy(tex);
    return r;
}

XGD_FIXTURE(Reach_TextureLimits)
{
    xgd_device *reach = profile_device(t, XGD_GRAPHICS_PROFILE_REACH);
    REQUIRE(reach);
    xgd_device *hidef = profile_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(hidef);
    xgd_statistics s0, s1;
    REQUIRE_OK(xgd_device_get_statistics(reach, &s0));

    /* DXT under Reach: multiples of 4 that are powers of two only. */
    const xgd_surface_format dxt[3] = { XGD_SURFACE_FORMAT_DXT1, XGD_SURFACE_FORMAT_DXT3,
                                        XGD_SURFACE_FORMAT_DXT5 };
    for (int i = 0; i < 3; i++) {
        if (!can_sample(reach, dxt[i])) continue;
        CHECK_RESULT(try_tex2d(reach, 6, 8, false, dxt[i]), XGD_ERROR_NOT_SUPPORTED);
        CHECK_RESULT(try_tex2d(reach, 8, 2, false, dxt[i]), XGD_ERROR_NOT_SUPPORTED);
        CHECK_RESULT(try_tex2d(reach, 12, 8, false, dxt[i]), XGD_ERROR_NOT_SUPPORTED);
        CHECK_RESULT(try_cube(reach, 2, dxt[i]), XGD_ERROR_NOT_SUPPORTED);
        CHECK_OK(try_tex2d(reach, 8, 16, false, dxt[i]));
        CHECK_OK(try_cube(reach, 8, dxt[i]));
        /* HiDef: any multiple of 4; other sizes stay an invalid argument */
        if (!can_sample(hidef, dxt[i])) continue;
        CHECK_OK(try_tex2d(hidef, 12, 8, false, dxt[i]));
        CHECK_RESULT(try_tex2d(hidef, 6, 8, false, dxt[i]), XGD_ERROR_INVALID_ARGUMENT);
    }

    /* Cube maps under Reach: at most 512, powers of two, no NormalizedByte formats. */
    CHECK_RESULT(try_cube(reach, 1024, XGD_SURFACE_FORMAT_COLOR), XGD_ERROR_NOT_SUPPORTED);
    CHECK_RESULT(try_cube(reach, 24, XGD_SURFACE_FORMAT_COLOR), XGD_ERROR_NOT_SUPPORTED);
    CHECK_RESULT(try_cube(reach, 3, XGD_SURFACE_FORMAT_COLOR), XGD_ERROR_NOT_SUPPORTED);
    CHECK_OK(try_cube(reach, 512, XGD_SURFACE_FORMAT_COLOR));
    CHECK_OK(try_cube(reach, 1, XGD_SURFACE_FORMAT_COLOR));
    CHECK_RESULT(try_rt_cube(reach, 1024, XGD_SURFACE_FORMAT_COLOR, NULL), XGD_ERROR_NOT_SUPPORTED);
    CHECK_RESULT(try_rt_cube(reach, 24, XGD_SURFACE_FORMAT_COLOR, NULL), XGD_ERROR_NOT_SUPPORTED);
    CHECK_OK(try_rt_cube(reach, 16, XGD_SURFACE_FORMAT_COLOR, NULL));
    const xgd_surface_format nb[2] = { XGD_SURFACE_FORMAT_NORMALIZED_BYTE2,
                                       XGD_SURFACE_FORMAT_NORMALIZED_BYTE4 };
    for (int i = 0; i < 2; i++) {
        if (can_sample(reach, nb[i])) {
            CHECK_RESULT(try_cube(reach, 16, nb[i]), XGD_ERROR_NOT_SUPPORTED);
            CHECK_OK(try_tex2d(reach, 16, 16, false, nb[i])); /* a Reach texture format */
        }
        if (can_sample(hidef, nb[i])) CHECK_OK(try_cube(hidef, 16, nb[i]));
        /* a preferred render-target format falls back instead of failing */
        xgd_surface_format applied = XGD_SURFACE_FORMAT_DEFAULT;
        CHECK_OK(try_rt_cube(reach, 16, nb[i], &applied));
        CHECK_INT(applied, XGD_SURFACE_FORMAT_COLOR);
    }
    /* HiDef: any cube size up to its texture limit. */
    CHECK_OK(try_cube(hidef, 24, XGD_SURFACE_FORMAT_COLOR));
    CHECK_OK(try_cube(hidef, 1024, XGD_SURFACE_FORMAT_COLOR));
    CHECK_OK(try_rt_cube(hidef, 24, XGD_SURFACE_FORMAT_COLOR, NULL));

    /* Mipmaps need powers of two under Reach. */
    CHECK_RESULT(try_tex2d(reach, 12, 16, true, XGD_SURFACE_FORMAT_COLOR), XGD_ERROR_NOT_SUPPORTED);
    CHECK_OK(try_tex2d(reach, 12, 16, false, XGD_SURFACE_FORMAT_COLOR));
    CHECK_OK(try_tex2d(hidef, 12, 16, true, XGD_SURFACE_FORMAT_COLOR));

    /* The refusals created nothing. */
    REQUIRE_OK(xgd_device_get_statistics(reach, &s1));
    CHECK_INT(s1.live_resources, s0.live_resources);
    xgd_device_destroy(hidef);
    xgd_device_destroy(reach);
}

/* Draws a quad sampling `tex` through slot 0 into an 8x8 target cleared to grey; returns the
 * draw's result and leaves the target's texels in *img (caller frees). */
static xgd_result draw_sampled(xgdt_ctx *t, xgd_device *dev, xgd_texture *tex,
                               xgd_sampler_state *sampler, uint8_t **img)
{
    enum { W = 8, H = 8 };
    *img = NULL;
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    if (rt == NULL) return XGD_ERROR_IO;
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    xgd_result r = XGD_ERROR_IO;
    if (fx != NULL && xgd_set_render_target(dev, rt) == XGD_OK &&
        xgd_clear_color(dev, (xgd_color){ 128, 128, 128, 255 }) == XGD_OK &&
        xgd_set_sampler_state(dev, 0, sampler) == XGD_OK) {
        r = fx_tex_rect(dev, W, H, 2, 2, 6, 6, 0, 0, 1, 1, XGD_COLOR_WHITE);
        if (xgd_set_render_target(dev, NULL) != XGD_OK ||
            !xgdt_read_texture(t, rt, 0, 0, W, H, img))
            r = XGD_ERROR_IO;
    }
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    return r;
}

XGD_FIXTURE(Reach_NonPowerOfTwoNeedsClamp)
{
    enum { W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *reach = profile_device(t, XGD_GRAPHICS_PROFILE_REACH);
    REQUIRE(reach);
    xgd_texture *npot = xgdt_solid_texture(t, reach, 3, 2, GREEN);
    xgd_texture *pot = xgdt_solid_texture(t, reach, 4, 2, GREEN);
    REQUIRE(npot && pot);
    xgd_sampler_state *wrap = xgd_sampler_state_preset(reach, XGD_SAMPLER_PRESET_LINEAR_WRAP);
    xgd_sampler_state *clamp = xgd_sampler_state_preset(reach, XGD_SAMPLER_PRESET_POINT_CLAMP);
    xgd_sampler_desc md = XGD_SAMPLER_DESC_DEFAULT;
    md.filter = XGD_FILTER_POINT;
    md.address_u = XGD_ADDRESS_CLAMP;
    md.address_v = XGD_ADDRESS_MIRROR;
    xgd_sampler_state *mirror = fx_sampler(t, reach, &md);
    REQUIRE(wrap && clamp && mirror);
    uint8_t *untouched = fx_image(W, H, GREY), *drawn = fx_image(W, H, GREY);
    REQUIRE(untouched && drawn);
    fx_fill(drawn, W, H, 2, 2, 6, 6, GREEN);
    xgd_statistics s0, s1;

    const struct { xgd_texture *tex; xgd_sampler_state *s; xgd_result want; const char *label; }
        cases[] = {
            { npot, wrap, XGD_ERROR_NOT_SUPPORTED, "npot_wrap" },
            { npot, NULL, XGD_ERROR_NOT_SUPPORTED, "npot_default_sampler" },
            { npot, mirror, XGD_ERROR_NOT_SUPPORTED, "npot_mirror" },
            { npot, clamp, XGD_OK, "npot_clamp" },
            { pot, wrap, XGD_OK, "pot_wrap" },
        };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        REQUIRE_OK(xgd_device_get_statistics(reach, &s0));
        uint8_t *img = NULL;
        xgd_result r = draw_sampled(t, reach, cases[i].tex, cases[i].s, &img);
        CHECK_MSG(r == cases[i].want, "%s: %s (%s)", cases[i].label, xgd_result_name(r),
                  xgd_device_last_error(reach));
        REQUIRE_OK(xgd_device_get_statistics(reach, &s1));
        if (img != NULL)
            xgdt_compare_rgba(t, cases[i].label, img, cases[i].want == XGD_OK ? drawn : untouched,
                              W, H, 0);
        free(img);
        if (cases[i].want != XGD_OK)
            CHECK_MSG(s1.draw_calls == s0.draw_calls, "%s: a refused draw counted", cases[i].label);
    }

    /* Every bound texture counts, not only the one the effect samples: a NPOT texture left in
     * slot 1 with its Wrap sampler refuses the draw. */
    REQUIRE_OK(xgd_set_texture(reach, 1, npot));
    REQUIRE_OK(xgd_set_sampler_state(reach, 1, wrap));
    uint8_t *img = NULL;
    CHECK_RESULT(draw_sampled(t, reach, pot, wrap, &img), XGD_ERROR_NOT_SUPPORTED);
    if (img != NULL) xgdt_compare_rgba(t, "npot_in_slot1", img, untouched, W, H, 0);
    free(img);
    REQUIRE_OK(xgd_set_sampler_state(reach, 1, clamp));
    CHECK_OK(draw_sampled(t, reach, pot, wrap, &img));
    free(img);
    REQUIRE_OK(xgd_set_texture(reach, 1, NULL));
    xgd_sampler_state_destroy(mirror);
    xgd_texture_destroy(npot);
    xgd_texture_destroy(pot);
    xgd_device_destroy(reach);

    /* HiDef samples any size with any address mode. */
    xgd_device *hidef = profile_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    REQUIRE(hidef);
    npot = xgdt_solid_texture(t, hidef, 3, 2, GREEN);
    REQUIRE(npot);
    img = NULL;
    CHECK_OK(draw_sampled(t, hidef, npot,
                          xgd_sampler_state_preset(hidef, XGD_SAMPLER_PRESET_LINEAR_WRAP), &img));
    if (img != NULL) xgdt_compare_rgba(t, "hidef_npot_wrap", img, drawn, W, H, 0);
    free(img);
    xgd_texture_destroy(npot);
    xgd_device_destroy(hidef);
    free(untouched);
    free(drawn);
}

XGD_FIXTURE(Reach_SpriteBatchNonPowerOfTwoNeedsClamp)
{
    enum { W = 8, H = 8 };
    const xgd_color GREY = { 128, 128, 128, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = profile_device(t, XGD_GRAPHICS_PROFILE_REACH);
    REQUIRE(dev);
    xgd_texture *npot = xgdt_solid_texture(t, dev, 3, 2, GREEN);
    xgd_texture *pot = xgdt_solid_texture(t, dev, 2, 2, GREEN);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE(npot && pot && rt);
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, GREY));
    xgd_sprite_batch_begin_desc bd = {
        .sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP),
        .blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE) };
    /* Deferred: the POT sprite could be drawn, the NPOT one cannot; End draws neither. */
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &bd));
    xgd_sprite at0 = XGD_SPRITE_INIT, at4 = XGD_SPRITE_INIT;
    at4.position = (xgd_vector2){ 4, 4 };
    CHECK_OK(xgd_sprite_batch_draw(sb, pot, &at0));
    CHECK_OK(xgd_sprite_batch_draw(sb, npot, &at4));
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_NOT_SUPPORTED);
    /* The default sampler (LinearClamp) draws both. */
    bd.sampler_state = NULL;
    REQUIRE_OK(xgd_sprite_batch_begin(sb, &bd));
    CHECK_OK(xgd_sprite_batch_draw(sb, npot, &at4));
    CHECK_OK(xgd_sprite_batch_end(sb));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    uint8_t *e = fx_image(W, H, GREY);
    REQUIRE(e);
    fx_fill(e, W, H, 4, 4, 7, 6, GREEN);
    fx_expect_texture(t, rt, 0, 0, "only_the_clamped_batch", e, W, H, 0);
    free(e);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(pot);
    xgd_texture_destroy(npot);
    xgd_device_destroy(dev);
}

/* ---- buffers: SetData of no elements ----------------------------------------------------- */

XGD_FIXTURE(BufferSetData_ZeroElementsOutOfRange)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    REQUIRE_OK(xgd_vertex_buffer_create(
        dev, &(xgd_vertex_buffer_desc){
                 .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
                 .vertex_count = 4 },
        &vb));
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6 }, &ib));
    uint8_t vdata[64], idata[12], back[64];
    for (int i = 0; i < 64; i++) vdata[i] = (uint8_t)(i * 3 + 1);
    for (int i = 0; i < 12; i++) idata[i] = (uint8_t)(i % 4);
    REQUIRE_OK(xgd_vertex_buffer_set_data(vb, 0, vdata, sizeof vdata, XGD_SET_DATA_NONE));
    REQUIRE_OK(xgd_index_buffer_set_data(ib, 0, idata, sizeof idata, XGD_SET_DATA_NONE));
    const uint8_t other[64] = { 0 };
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 0, other, 0, XGD_SET_DATA_NONE),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK(xgd_device_last_error(dev)[0] != '\0');
    CHECK_RESULT(xgd_vertex_buffer_set_data(vb, 16, other, 0, XGD_SET_DATA_NONE),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_index_buffer_set_data(ib, 0, other, 0, XGD_SET_DATA_NONE),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_OK(xgd_vertex_buffer_get_data(vb, 0, back, sizeof vdata));
    CHECK(memcmp(back, vdata, sizeof vdata) == 0);
    CHECK_OK(xgd_index_buffer_get_data(ib, 0, back, sizeof idata));
    CHECK(memcmp(back, idata, sizeof idata) == 0);
    CHECK(strcmp(xgd_result_name(XGD_ERROR_ARGUMENT_OUT_OF_RANGE),
                 "ERROR_ARGUMENT_OUT_OF_RANGE") == 0);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(vb);
    xgd_device_destroy(dev);
}
