/*
 * fixture_user_quads.c - xgd_draw_user_quads: the device's static quad index pattern.
 *
 * Rules (include/xgd.h): quad q is vertices vertex_offset + 4q .. + 3, corner i at
 * (i & 1, i >> 1); triangles (0,1,2) and (1,3,2) are clockwise on screen, so the default
 * CullCounterClockwise keeps them; quad_count is 1..XGD_USER_QUADS_MAX (the most quads 16-bit
 * indices address); bad input gets a named error, draws nothing and counts no draw call.
 */
#include "fixture_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum { W = 8, H = 8 };

static uint64_t draw_calls(xgd_device *dev)
{
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    return s.draw_calls;
}

/* The four corners of the pixel rectangle [x0,x1) x [y0,y1) in corner order TL, TR, BL, BR. */
static void quad(xgd_vertex_position_color *v, float x0, float y0, float x1, float y1,
                 xgd_color c)
{
    v[0] = fx_vpc(x0, y0, 0.0f, W, H, c);
    v[1] = fx_vpc(x1, y0, 0.0f, W, H, c);
    v[2] = fx_vpc(x0, y1, 0.0f, W, H, c);
    v[3] = fx_vpc(x1, y1, 0.0f, W, H, c);
}

static void check_image(xgdt_ctx *t, xgd_device *dev, const uint8_t *want)
{
    uint8_t *img = NULL;
    if (!xgdt_read_back_buffer(t, dev, W, H, &img)) return;
    int bad = 0;
    for (int i = 0; i < W * H * 4 && bad < 4; i++)
        if (img[i] != want[i]) {
            CHECK_MSG(false, "pixel (%d,%d) channel %d is %d, want %d", (i / 4) % W,
                      (i / 4) / W, i % 4, img[i], want[i]);
            bad++;
        }
    free(img);
}

XGD_FIXTURE(UserQuads_CornerOrderWindingAndOffset)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 },
                    GREEN = { 0, 255, 0, 255 }, BLUE = { 0, 0, 255, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    /* one leading vertex that vertex_offset skips (a full-screen blue corner if it were used),
       then a red left half and a green right half */
    xgd_vertex_position_color v[9];
    v[0] = fx_vpc(0, 0, 0.0f, W, H, BLUE);
    quad(&v[1], 0, 0, 4, 8, RED);
    quad(&v[5], 4, 0, 8, 8, GREEN);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    CHECK_OK(xgd_draw_user_quads(dev, v, 1, 2, decl));
    CHECK(draw_calls(dev) == before + 1);
    uint8_t *want = fx_image(W, H, RED);
    REQUIRE(want);
    fx_fill(want, W, H, 4, 0, 8, 8, GREEN);
    check_image(t, dev, want);

    /* a mirrored quad (x1 < x0) winds counter-clockwise and is culled, as SpriteBatch's */
    CHECK_OK(xgd_clear_color(dev, BLACK));
    quad(&v[1], 8, 0, 0, 8, BLUE);
    CHECK_OK(xgd_draw_user_quads(dev, v, 1, 1, decl));
    fx_fill(want, W, H, 0, 0, W, H, BLACK);
    check_image(t, dev, want);
    free(want);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* The most quads one call takes: the pattern reaches vertex 65535 (the last quad is the only
   one with area). */
XGD_FIXTURE(UserQuads_MaxCountReachesLastVertex)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, BLUE = { 0, 0, 255, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    size_t n = (size_t)XGD_USER_QUADS_MAX * 4;
    xgd_vertex_position_color *v = calloc(n, sizeof *v);
    REQUIRE(v);
    quad(&v[n - 4], 0, 0, W, H, BLUE);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_quads(dev, v, 0, XGD_USER_QUADS_MAX,
                                 xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    uint8_t *want = fx_image(W, H, BLUE);
    REQUIRE(want);
    check_image(t, dev, want);
    free(want);
    free(v);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(UserQuads_BadInputNamedErrorsDrawNothing)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_vertex_position_color v[4];
    quad(v, 0, 0, W, H, RED);
    xgd_vertex_declaration *stock = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    /* before any effect is applied: the draw's own program rule */
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, 1, stock), XGD_ERROR_INVALID_OPERATION);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    CHECK_RESULT(xgd_draw_user_quads(NULL, v, 0, 1, stock), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, 0, stock), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, -1, stock), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, XGD_USER_QUADS_MAX + 1, stock),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_draw_user_quads(dev, NULL, 0, 1, stock), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, -1, 1, stock), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, 1, NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_vertex_element el[2] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 } };
    xgd_vertex_declaration *decl = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 2, (int)sizeof v[0], &decl));
    xgd_vertex_declaration_destroy(decl);
    CHECK_RESULT(xgd_draw_user_quads(dev, v, 0, 1, decl), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(draw_calls(dev) == before);
    uint8_t *want = fx_image(W, H, BLACK);
    REQUIRE(want);
    check_image(t, dev, want);
    free(want);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- xgd_draw_user_quad_runs: one call, a texture per run in slot 0 ------------------------- */

static xgd_texture *solid_texture(xgdt_ctx *t, xgd_device *dev, xgd_color c)
{
    uint8_t px[4] = { c.r, c.g, c.b, c.a };
    return xgdt_image_texture(t, dev, 1, 1, px);
}

/* The corners of [x0,x1) x [y0,y1), white, sampling the texture's whole 0..1 range. */
static void tex_quad(xgd_vertex_position_color_texture *v, float x0, float y0, float x1, float y1)
{
    const xgd_color WHITE = { 255, 255, 255, 255 };
    for (int i = 0; i < 4; i++) {
        float x = (i & 1) ? x1 : x0, y = (i >> 1) ? y1 : y0;
        v[i].position = (xgd_vector3){ fx_ndc_x(x, W), fx_ndc_y(y, H), 0.0f };
        v[i].color = WHITE;
        v[i].texture_coordinate = (xgd_vector2){ (float)(i & 1), (float)(i >> 1) };
    }
}

/* A device with solid red, green and blue textures, a program sampling slot 0 and point
   sampling there: what the runs fixtures draw with. False (with what failed reported) when any
   of it could not be made; rgb_runs_close frees what was. */
typedef struct rgb_runs {
    xgd_device *dev;
    xgd_texture *red, *green, *blue;
    xgd_effect *fx;
} rgb_runs;

static void rgb_runs_close(rgb_runs *s)
{
    xgd_effect_destroy(s->fx);
    xgd_texture_destroy(s->red);
    xgd_texture_destroy(s->green);
    xgd_texture_destroy(s->blue);
    xgd_device_destroy(s->dev);
}

static bool rgb_runs_open(xgdt_ctx *t, rgb_runs *s)
{
    memset(s, 0, sizeof *s);
    s->dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    if (s->dev == NULL) return false;
    s->red = solid_texture(t, s->dev, (xgd_color){ 255, 0, 0, 255 });
    s->green = solid_texture(t, s->dev, (xgd_color){ 0, 255, 0, 255 });
    s->blue = solid_texture(t, s->dev, (xgd_color){ 0, 0, 255, 255 });
    if (s->red != NULL && s->green != NULL && s->blue != NULL)
        s->fx = fx_texture_effect(t, s->dev, s->green);
    if (s->fx == NULL) {
        rgb_runs_close(s);
        return false;
    }
    CHECK_OK(xgd_set_sampler_state(s->dev, 0,
                                   xgd_sampler_state_preset(s->dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    return true;
}

/* Runs (red 2 quads, green 1, blue 1) over four 2-pixel columns after one skipped vertex:
 * each column shows its run's texture, each run is one draw call, and slot 0 keeps the last
 * run's texture, as xgd_set_texture + xgd_draw_user_quads per run would leave them. */
XGD_FIXTURE(UserQuadRuns_EachRunSamplesItsTexture)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 },
                    GREEN = { 0, 255, 0, 255 }, BLUE = { 0, 0, 255, 255 };
    rgb_runs set;
    REQUIRE(rgb_runs_open(t, &set));
    xgd_device *dev = set.dev;
    xgd_texture *red = set.red, *green = set.green, *blue = set.blue;
    xgd_vertex_position_color_texture v[17];
    memset(v, 0, sizeof v);
    for (int q = 0; q < 4; q++) tex_quad(&v[1 + 4 * q], (float)(2 * q), 0, (float)(2 * q + 2), H);
    const xgd_quad_run runs[3] = { { red, 2 }, { green, 1 }, { blue, 1 } };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    CHECK_OK(xgd_draw_user_quad_runs(dev, v, 1, runs, 3,
                                     xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    CHECK(draw_calls(dev) == before + 3);
    xgd_texture *slot0 = NULL;
    CHECK_OK(xgd_get_texture(dev, 0, &slot0));
    CHECK(slot0 == blue);
    uint8_t *want = fx_image(W, H, RED);
    REQUIRE(want);
    fx_fill(want, W, H, 4, 0, 6, H, GREEN);
    fx_fill(want, W, H, 6, 0, 8, H, BLUE);
    check_image(t, dev, want);
    free(want);
    rgb_runs_close(&set);
}

/* Runs holding more quads together than the quad pattern addresses (XGD_USER_QUADS_MAX each,
 * two full runs after a one-quad run) draw every quad: in each run only the last quad covers
 * the target (the others have no area), so the image is the last run's texture and would be
 * the middle run's if any quad past the pattern's count were lost. */
XGD_FIXTURE(UserQuadRuns_MoreQuadsTogetherThanOnePattern)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, BLUE = { 0, 0, 255, 255 };
    rgb_runs set;
    REQUIRE(rgb_runs_open(t, &set));
    xgd_device *dev = set.dev;
    xgd_texture *red = set.red, *green = set.green, *blue = set.blue;
    enum { QUADS = 1 + 2 * XGD_USER_QUADS_MAX };
    xgd_vertex_position_color_texture *v = calloc((size_t)QUADS * 4, sizeof *v);
    if (v == NULL) rgb_runs_close(&set);
    REQUIRE(v);
    for (int q = 0; q < QUADS; q++) tex_quad(&v[4 * q], 1.0f, 1.0f, 1.0f, 1.0f);
    const int last[3] = { 0, XGD_USER_QUADS_MAX, 2 * XGD_USER_QUADS_MAX };
    for (int k = 0; k < 3; k++) tex_quad(&v[4 * last[k]], 0, 0, W, H);
    const xgd_quad_run runs[3] = { { red, 1 }, { green, XGD_USER_QUADS_MAX },
                                   { blue, XGD_USER_QUADS_MAX } };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    CHECK_OK(xgd_draw_user_quad_runs(dev, v, 0, runs, 3,
                                     xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    CHECK(draw_calls(dev) == before + 3);
    uint8_t *want = fx_image(W, H, BLUE);
    REQUIRE(want);
    check_image(t, dev, want);
    free(want);
    free(v);
    rgb_runs_close(&set);
}

/* Bad input anywhere in the runs is refused by name before any run is drawn: no draw call, the
 * image untouched, slot 0 as it was. */
XGD_FIXTURE(UserQuadRuns_BadInputNamedErrorsDrawNothing)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = solid_texture(t, dev, RED), *gone = solid_texture(t, dev, RED);
    REQUIRE(red && gone);
    xgd_texture_destroy(gone);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_vertex_position_color_texture v[8];
    tex_quad(&v[0], 0, 0, W, H);
    tex_quad(&v[4], 0, 0, W, H);
    xgd_quad_run runs[2] = { { red, 1 }, { red, 1 } };
    /* before any effect is applied: the draw's own program rule */
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_INVALID_OPERATION);
    xgd_effect *fx = fx_texture_effect(t, dev, red);
    REQUIRE(fx);
    CHECK_OK(xgd_set_texture(dev, 0, NULL));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    CHECK_RESULT(xgd_draw_user_quad_runs(NULL, v, 0, runs, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, NULL, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 0, decl), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, NULL, 0, runs, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, -1, runs, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, NULL), XGD_ERROR_INVALID_ARGUMENT);
    /* the second run is the bad one: the first is not drawn either */
    runs[1].quad_count = 0;
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    runs[1].quad_count = XGD_USER_QUADS_MAX + 1;
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    runs[1].quad_count = 1;
    runs[1].texture = NULL;
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    runs[1].texture = gone;
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_OBJECT_DISPOSED);
    runs[1].texture = (xgd_texture *)(void *)decl; /* a handle of another kind */
    CHECK_RESULT(xgd_draw_user_quad_runs(dev, v, 0, runs, 2, decl), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(draw_calls(dev) == before);
    xgd_texture *slot0 = red;
    CHECK_OK(xgd_get_texture(dev, 0, &slot0));
    CHECK(slot0 == NULL);
    uint8_t *want = fx_image(W, H, BLACK);
    REQUIRE(want);
    check_image(t, dev, want);
    free(want);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(red);
    xgd_device_destroy(dev);
}

/* ---- xgd_reserve_user_quads + xgd_draw_reserved_quad_runs: vertices written in place ------- */

/* Quads written straight into a reservation of 5 and drawn in runs (red 2, green 1, blue 1):
 * each column shows its run's texture, the fifth quad (all of the target, white texture) is
 * left undrawn, a clear and state setters between the reservation and its draw keep it
 * drawable, and slot 0 keeps the last run's texture. */
XGD_FIXTURE(ReservedQuadRuns_DrawWhatWasWrittenInPlace)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 },
                    GREEN = { 0, 255, 0, 255 }, BLUE = { 0, 0, 255, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = solid_texture(t, dev, RED), *green = solid_texture(t, dev, GREEN),
                *blue = solid_texture(t, dev, BLUE);
    REQUIRE(red && green && blue);
    xgd_effect *fx = fx_texture_effect(t, dev, green);
    REQUIRE(fx);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_quad_reservation res;
    memset(&res, 0, sizeof res);
    REQUIRE_OK(xgd_reserve_user_quads(dev, 5, decl, &res));
    REQUIRE(res.vertices != NULL);
    CHECK(res.quad_count == 5);
    xgd_vertex_position_color_texture *v = res.vertices;
    for (int q = 0; q < 4; q++) tex_quad(&v[4 * q], (float)(2 * q), 0, (float)(2 * q + 2), H);
    tex_quad(&v[16], 0, 0, W, H);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    CHECK_OK(xgd_set_texture(dev, 0, red));
    const xgd_quad_run runs[3] = { { red, 2 }, { green, 1 }, { blue, 1 } };
    /* once before the draw that is checked, so that the textures have been sampled (GPU
       renderers then bind each run's texture on their short way, which this checks) */
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &res, runs, 3));
    REQUIRE_OK(xgd_reserve_user_quads(dev, 5, decl, &res));
    v = res.vertices;
    for (int q = 0; q < 4; q++) tex_quad(&v[4 * q], (float)(2 * q), 0, (float)(2 * q + 2), H);
    tex_quad(&v[16], 0, 0, W, H);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_texture(dev, 0, red));
    uint64_t before = draw_calls(dev);
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &res, runs, 3));
    CHECK(draw_calls(dev) == before + 3);
    xgd_texture *slot0 = NULL;
    CHECK_OK(xgd_get_texture(dev, 0, &slot0));
    CHECK(slot0 == blue);
    uint8_t *want = fx_image(W, H, RED);
    REQUIRE(want);
    fx_fill(want, W, H, 4, 0, 6, H, GREEN);
    fx_fill(want, W, H, 6, 0, 8, H, BLUE);
    check_image(t, dev, want);
    /* the draw spent it */
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, runs, 3), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before + 3);
    check_image(t, dev, want);
    free(want);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(red);
    xgd_texture_destroy(green);
    xgd_texture_destroy(blue);
    xgd_device_destroy(dev);
}

/* Bad input and reservations that are no longer drawable get named errors and draw nothing; a
 * refused draw leaves a drawable reservation drawable. */
XGD_FIXTURE(ReservedQuadRuns_StaleOrBadInputNamedErrorsDrawNothing)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = solid_texture(t, dev, RED);
    REQUIRE(red);
    xgd_effect *fx = fx_texture_effect(t, dev, red);
    REQUIRE(fx);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_quad_reservation res, other;
    memset(&res, 0, sizeof res);
    /* reserving */
    CHECK_RESULT(xgd_reserve_user_quads(NULL, 1, decl, &res), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_reserve_user_quads(dev, 1, decl, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_reserve_user_quads(dev, 1, NULL, &res), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_reserve_user_quads(dev, 0, decl, &res), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    CHECK_RESULT(xgd_reserve_user_quads(dev, XGD_USER_QUADS_MAX + 1, decl, &res),
                 XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    xgd_vertex_element el[3] = { { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                                 { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
                                 { 16, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 } };
    xgd_vertex_declaration *gone = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 3, 24, &gone));
    xgd_vertex_declaration_destroy(gone);
    CHECK_RESULT(xgd_reserve_user_quads(dev, 1, gone, &res), XGD_ERROR_OBJECT_DISPOSED);

    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint64_t before = draw_calls(dev);
    xgd_quad_run run = { red, 1 };
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
    tex_quad(res.vertices, 0, 0, W, H);
    /* refused draws of a drawable reservation */
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, NULL, &run, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, NULL, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 0), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    xgd_quad_run two = { red, 2 };
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &two, 1), XGD_ERROR_ARGUMENT_OUT_OF_RANGE);
    xgd_quad_run none = { NULL, 1 };
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &none, 1), XGD_ERROR_INVALID_ARGUMENT);
    xgd_quad_reservation changed = res;
    changed.quad_count = 2;
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &changed, &run, 1), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(draw_calls(dev) == before);
    uint8_t *want = fx_image(W, H, BLACK);
    REQUIRE(want);
    check_image(t, dev, want);
    /* replaced by a later reservation: only the later one draws */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &other));
    tex_quad(other.vertices, 0, 0, W, H);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before);
    check_image(t, dev, want);
    /* another draw since the reservation (nothing submitted since: the readback above came
       before it) */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &other));
    tex_quad(other.vertices, 0, 0, W, H);
    xgd_vertex_position_color_texture q[4];
    tex_quad(q, 0, 0, 1, 1);
    CHECK_OK(xgd_draw_user_quads(dev, q, 0, 1, decl));
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &other, &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before + 1);
    fx_fill(want, W, H, 0, 0, 1, 1, RED);
    check_image(t, dev, want);
    /* a submission since the reservation (present) */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
    tex_quad(res.vertices, 0, 0, W, H);
    CHECK_OK(xgd_present(dev));
    uint64_t presented = draw_calls(dev);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == presented);
    /* a destroyed declaration */
    xgd_vertex_declaration *own = NULL;
    REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 3, 24, &own));
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, own, &res));
    xgd_vertex_declaration_destroy(own);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(draw_calls(dev) == presented);
    free(want);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(red);
    xgd_device_destroy(dev);
}

/* A reservation is memory of the renderer's current frame: Reset ends it on every renderer,
   and a context loss ends it for good (the restored context has new memory, which may even
   sit at the old addresses). Each draw of it is then refused and draws nothing. */
XGD_FIXTURE(ReservedQuadRuns_EndedByResetAndContextLoss)
{
    const xgd_color RED = { 255, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = solid_texture(t, dev, RED);
    REQUIRE(red);
    xgd_effect *fx = fx_texture_effect(t, dev, red);
    REQUIRE(fx);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_quad_run run = { red, 1 };
    xgd_quad_reservation res;
    /* Reset with NULL: the same parameters again */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
    tex_quad(res.vertices, 0, 0, W, H);
    REQUIRE_OK(xgd_device_reset(dev, NULL));
    uint64_t before = draw_calls(dev);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before);
    /* a context loss and its restore */
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
    tex_quad(res.vertices, 0, 0, W, H);
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_DEVICE_LOST);
    REQUIRE_OK(xgd_device_restore_context(dev));
    before = draw_calls(dev);
    CHECK_RESULT(xgd_draw_reserved_quad_runs(dev, &res, &run, 1), XGD_ERROR_INVALID_OPERATION);
    CHECK(draw_calls(dev) == before);
    /* a new reservation after the restore draws */
    REQUIRE_OK(xgd_effect_apply(fx));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    REQUIRE_OK(xgd_reserve_user_quads(dev, 1, decl, &res));
    tex_quad(res.vertices, 0, 0, W, H);
    CHECK_OK(xgd_draw_reserved_quad_runs(dev, &res, &run, 1));
    uint8_t *want = fx_image(W, H, RED);
    REQUIRE(want);
    check_image(t, dev, want);
    free(want);
    xgd_device_destroy(dev);
}

/* Four quad vertices into dst: with non-temporal stores when asked and the CPU has them (dst is
 * then 16-byte aligned: 96 bytes, six stores), else a plain copy. */
static void put_quad(void *dst, const xgd_vertex_position_color_texture src[4], bool stream)
{
#if defined(__SSE2__)
    if (stream) {
        float f[24];
        memcpy(f, src, sizeof f);
        for (int i = 0; i < 24; i += 4) _mm_stream_ps((float *)dst + i, _mm_loadu_ps(f + i));
        return;
    }
#else
    (void)stream;
#endif
    memcpy(dst, src, 4 * sizeof *src);
}

/* Whether the adapter is a CPU implementation, by the names they report: lavapipe (Vulkan, and
 * Direct3D 12 as "vkd3d on llvmpipe"), SwiftShader, WARP. */
static bool cpu_adapter(const char *name)
{
    return name != NULL &&
           (strstr(name, "llvmpipe") != NULL || strstr(name, "SwiftShader") != NULL ||
            strstr(name, "Microsoft Basic Render Driver") != NULL);
}

/* stream_stores is true exactly on the GPU renderers on a GPU (xgd.h: the GPU reads their
 * upload memory; not the software renderer, nor a CPU device such as lavapipe, which reads it
 * through the CPU's caches). The GPU renderers' reservations start on a 16-byte boundary
 * wherever the upload memory's offset stands (a 3-vertex draw of 72 bytes before each
 * reservation, reservations of 20-byte vertices), on a CPU device too. Quads written there
 * with non-temporal stores (correct on any memory, the hint only says where they pay) and one
 * store fence draw what was written: eight one-pixel columns, each from its own reservation,
 * left to right in red and green. */
XGD_FIXTURE(ReservedQuadRuns_StreamStoresOnGpuMemory)
{
    const xgd_color BLACK = { 0, 0, 0, 255 }, RED = { 255, 0, 0, 255 },
                    GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    xgd_texture *red = solid_texture(t, dev, RED), *green = solid_texture(t, dev, GREEN);
    REQUIRE(red && green);
    xgd_effect *fx = fx_texture_effect(t, dev, red);
    REQUIRE(fx);
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    xgd_vertex_declaration *pt_decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_TEXTURE);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    /* a triangle off the target (nothing drawn), 72 bytes of vertices in the upload memory */
    xgd_vertex_position_color_texture off[3];
    for (int i = 0; i < 3; i++)
        off[i] = (xgd_vertex_position_color_texture){ { 3.0f, 3.0f, 0.0f }, BLACK, { 0, 0 } };
    for (int column = 0; column < W; column++) {
        CHECK_OK(xgd_set_texture(dev, 0, red));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, off, 0, 1, decl));
        /* 20-byte vertices: a start at a multiple of the stride is on a 16-byte boundary only
           at every fourth vertex, so the renderer has to move it (the reservation is replaced
           by the next one, undrawn) */
        xgd_quad_reservation pt;
        memset(&pt, 0, sizeof pt);
        REQUIRE_OK(xgd_reserve_user_quads(dev, 1 + column, pt_decl, &pt));
        const bool gpu_renderer = info.renderer != XGD_RENDERER_SOFTWARE;
        if (gpu_renderer)
            CHECK_MSG(((uintptr_t)pt.vertices & 15u) == 0,
                      "column %d: 20-byte vertices at %p, not on a 16-byte boundary", column,
                      pt.vertices);
        xgd_quad_reservation res;
        memset(&res, 0, sizeof res);
        REQUIRE_OK(xgd_reserve_user_quads(dev, 1 + column % 3, decl, &res));
        CHECK_MSG(res.stream_stores == (gpu_renderer && !cpu_adapter(info.adapter_name)),
                  "stream_stores %d on the %s renderer (%s)", (int)res.stream_stores,
                  info.renderer_name, info.adapter_name ? info.adapter_name : "?");
        if (gpu_renderer)
            CHECK_MSG(((uintptr_t)res.vertices & 15u) == 0,
                      "column %d: vertices at %p, not on a 16-byte boundary", column, res.vertices);
        bool stream = gpu_renderer && ((uintptr_t)res.vertices & 15u) == 0;
        xgd_vertex_position_color_texture v[4];
        tex_quad(v, (float)column, 0, (float)column + 1, H);
        put_quad(res.vertices, v, stream);
#if defined(__SSE2__)
        if (stream) _mm_sfence();
#endif
        const xgd_quad_run run = { column % 2 ? green : red, 1 };
        CHECK_OK(xgd_draw_reserved_quad_runs(dev, &res, &run, 1));
    }
    uint8_t *want = fx_image(W, H, RED);
    REQUIRE(want);
    for (int column = 1; column < W; column += 2) fx_fill(want, W, H, column, 0, column + 1, H, GREEN);
    check_image(t, dev, want);
    free(want);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(red);
    xgd_texture_destroy(green);
    xgd_device_destroy(dev);
}
