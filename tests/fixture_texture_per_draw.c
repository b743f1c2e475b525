/*
 * fixture_texture_per_draw.c - a run of draws that changes the slot-0 texture before every
 * draw, interrupted by everything that must take a draw off its shortest path.
 *
 * A draw after an accepted one that changed only texture slots records only its vertices, the
 * changed texture bindings and the draw (src/core/draw.c, the renderers' draw paths). These
 * runs put each quad into its own cell and interleave what that path must notice: the same
 * texture again after another, a readback of the back buffer (the target leaves its output
 * state), new contents of a texture already drawn with, an empty slot ((0,0,0,1)), another
 * sampler state and another applied effect. Every cell must show the texture its draw had.
 */
#include "fixture_util.h"
#include "fx2_support.h"
#include "fx_writer.h"
#include "internal.h" /* the debug fault hook (src/core/fault.c) */

#include <stdlib.h>
#include <string.h>

enum { CELL = 4, CELLS = 12, W = CELL * CELLS, H = 4 };

static xgd_result cell_quad(xgd_device *dev, int cell)
{
    return fx_tex_rect(dev, W, H, (float)(cell * CELL), 0.0f, (float)((cell + 1) * CELL), (float)H,
                       0, 0, 1, 1, XGD_COLOR_WHITE);
}

static bool same(xgd_color a, xgd_color b)
{
    return a.r == b.r && a.g == b.g && a.b == b.b && a.a == b.a;
}

static const xgd_color RUN_RED = { 255, 0, 0, 255 }, RUN_GREEN = { 0, 255, 0, 255 }, RUN_BLUE = { 0, 0, 255, 255 },
                       RUN_BLACK = { 0, 0, 0, 255 };

/* The run fixtures' scene: a W x H back buffer cleared to black, textures tex[i] of one
   colour each (run_color(i): red, green, blue), an effect sampling slot 0 with point
   clamping, no culling. */
typedef struct run_scene {
    xgd_device *dev;
    xgd_texture *tex[3];
    xgd_effect *fx;
} run_scene;

static xgd_color run_color(int i)
{
    return i == 0 ? RUN_RED : i == 1 ? RUN_GREEN : RUN_BLUE;
}

static void run_scene_destroy(run_scene *sc)
{
    xgd_effect_destroy(sc->fx);
    for (int i = 0; i < 3; i++) xgd_texture_destroy(sc->tex[i]);
    xgd_device_destroy(sc->dev);
    memset(sc, 0, sizeof *sc);
}

/* the scene, or the failure recorded and what was made destroyed */
static bool run_scene_create(xgdt_ctx *t, run_scene *sc)
{
    memset(sc, 0, sizeof *sc);
    sc->dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    if (sc->dev != NULL) {
        for (int i = 0; i < 3; i++) sc->tex[i] = xgdt_solid_texture(t, sc->dev, 4, 4, run_color(i));
        if (sc->tex[0] && sc->tex[1] && sc->tex[2]) sc->fx = fx_texture_effect(t, sc->dev, sc->tex[0]);
    }
    if (sc->fx != NULL && xgd_set_rasterizer_state(sc->dev, fx_cull_none(t, sc->dev)) == XGD_OK &&
        xgd_set_sampler_state(sc->dev, 0, xgd_sampler_state_preset(sc->dev, XGD_SAMPLER_PRESET_POINT_CLAMP)) ==
            XGD_OK &&
        xgd_clear_color(sc->dev, XGD_COLOR_BLACK) == XGD_OK)
        return true;
    xgdt_fail_at(t, __FILE__, __LINE__, "the run scene's setup failed (%s)", xgdt_last_message());
    run_scene_destroy(sc);
    return false;
}

/* Reads the back buffer back and checks pixel (c * CELL + x, y) of every cell c against
   want[c]; `where` names the pixel in messages. */
static void check_cells(xgdt_ctx *t, xgd_device *dev, int x, int y, const xgd_color *want, const char *where)
{
    uint8_t *img = NULL;
    if (!xgdt_read_back_buffer(t, dev, W, H, &img)) {
        xgdt_fail_at(t, __FILE__, __LINE__, "the back buffer could not be read back");
        return;
    }
    for (int c = 0; c < CELLS; c++) {
        xgd_color got = fx_get(img, W, c * CELL + x, y);
        if (!same(got, want[c]))
            xgdt_fail_at(t, __FILE__, __LINE__, "cell %d, %s, is (%d,%d,%d,%d), want (%d,%d,%d,%d)", c, where,
                         got.r, got.g, got.b, got.a, want[c].r, want[c].g, want[c].b, want[c].a);
    }
    free(img);
}

XGD_FIXTURE(TexturePerDraw_EveryInterruptionSeen)
{
    const xgd_color YELLOW = { 255, 255, 0, 255 };
    run_scene sc;
    if (!run_scene_create(t, &sc)) return;
    xgd_device *dev = sc.dev;
    xgd_texture *const *tex = sc.tex;
    xgd_effect *fx = sc.fx;
    xgd_color want[CELLS];
    int cell = 0;
    /* a plain run: each texture after another, then the first again */
    const int order[4] = { 0, 1, 2, 0 };
    for (int i = 0; i < 4; i++, cell++) {
        REQUIRE_OK(xgd_set_texture(dev, 0, tex[order[i]]));
        CHECK_OK(cell_quad(dev, cell));
        want[cell] = order[i] == 0 ? RUN_RED : order[i] == 1 ? RUN_GREEN : RUN_BLUE;
    }
    /* a readback in the middle of the run, then the run goes on */
    uint8_t px[4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, sizeof px));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_GREEN;
    /* new contents of a texture drawn with before, then drawn with again */
    uint8_t yellow[4 * 4 * 4];
    for (int i = 0; i < 16; i++) memcpy(yellow + i * 4, &YELLOW, 4);
    REQUIRE_OK(xgd_texture_set_data(tex[2], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, yellow, sizeof yellow));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[2]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = YELLOW;
    /* an empty slot samples (0,0,0,1); then a texture again */
    REQUIRE_OK(xgd_set_texture(dev, 0, NULL));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_BLACK;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[0]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_RED;
    /* another sampler state, then texture changes alone again */
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP)));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_GREEN;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[0]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_RED;
    /* the effect applied again (the same program), then a texture change */
    REQUIRE_OK(xgd_effect_apply(fx));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[2]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = YELLOW;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RUN_GREEN;
    CHECK(cell == CELLS);
    check_cells(t, dev, CELL / 2, H / 2, want, "centre");
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    CHECK(s.draw_calls >= (uint64_t)CELLS);
    run_scene_destroy(&sc);
}

/* vertex_offset skips that many vertices of the caller's array (XNA's DrawUserPrimitives
 * vertexOffset): a program drawing pieces of one array, a texture change before each, takes the
 * common path from every offset (src/core/draw.c). The array starts with a triangle over the
 * whole back buffer in white that no draw may use; cell c is drawn from vertex 3 + 6c, and
 * draws from offset 0 of another array, a refused negative offset and another declaration are
 * interleaved. Every cell must show its own texture, the gaps the clear colour. */
XGD_FIXTURE(TexturePerDraw_VertexOffsets)
{
    enum { N = CELLS / 2 }; /* cells 0, 2, 4, ... from the array; odd cells stay clear */
    run_scene sc;
    if (!run_scene_create(t, &sc)) return;
    xgd_device *dev = sc.dev;
    xgd_texture *const *tex = sc.tex;
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    CHECK(decl != NULL);
    xgd_vertex_position_color_texture v[3 + 6 * N];
    memset(v, 0, sizeof v);
    /* the vertices no draw may use: a white triangle over everything */
    const float px[3] = { -1.0f, 3.0f, -1.0f }, py[3] = { 1.0f, 1.0f, -3.0f };
    for (int i = 0; i < 3; i++) {
        v[i].position.x = px[i];
        v[i].position.y = py[i];
        v[i].color = XGD_COLOR_WHITE;
    }
    for (int q = 0; q < N; q++) {
        float x0 = (float)(2 * q * CELL), x1 = x0 + CELL;
        const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { 0, 0, H, H };
        const int corner[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) {
            xgd_vertex_position_color_texture *o = &v[3 + 6 * q + k];
            o->position.x = fx_ndc_x(xs[corner[k]], W);
            o->position.y = fx_ndc_y(ys[corner[k]], H);
            o->color = XGD_COLOR_WHITE;
            o->texture_coordinate.x = corner[k] == 1 || corner[k] == 2 ? 1.0f : 0.0f;
            o->texture_coordinate.y = corner[k] >= 2 ? 1.0f : 0.0f;
        }
    }
    xgd_color want[CELLS];
    for (int c = 0; c < CELLS; c++) want[c] = RUN_BLACK;
    /* a first draw from offset 0 of another array makes the declaration the remembered one */
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[2]));
    CHECK_OK(cell_quad(dev, 1));
    want[1] = RUN_BLUE;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[0]));
    CHECK_OK(cell_quad(dev, 3));
    want[3] = RUN_RED;
    for (int q = 0; q < N; q++) {
        REQUIRE_OK(xgd_set_texture(dev, 0, tex[q % 3]));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 3 + 6 * q, 2, decl));
        want[2 * q] = run_color(q % 3);
        if (q == 1) {
            /* refused, drawing nothing: the poison triangle would cover every cell */
            CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, -1, 1, decl),
                         XGD_ERROR_INVALID_ARGUMENT);
        }
        if (q == 2) {
            /* offset 0 again, between offsets */
            REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
            CHECK_OK(cell_quad(dev, 5));
            want[5] = RUN_GREEN;
        }
        if (q == 3) {
            /* the same vertices through another declaration of the same layout (not the
               remembered one), from an offset */
            const xgd_vertex_element el[3] = {
                { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
                { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
                { 16, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 } };
            xgd_vertex_declaration *other = NULL;
            REQUIRE_OK(xgd_vertex_declaration_create(dev, el, 3, (int)sizeof v[0], &other));
            REQUIRE_OK(xgd_set_texture(dev, 0, tex[2]));
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 3 + 6 * q, 2, other));
            want[2 * q] = RUN_BLUE; /* drawn over q's own */
            xgd_vertex_declaration_destroy(other);
        }
    }
    check_cells(t, dev, CELL / 2, H / 2, want, "centre");
    run_scene_destroy(&sc);
}

/* A run of draws that change only the slot-0 texture may change their primitive count from
 * draw to draw: each draws as many primitives as it names (XNA's primitiveCount), whatever the
 * draw before drew (the renderers' short paths remember the last count's vertices). Triangle
 * strips over whole cells, and single triangles that cover only a cell's upper-left half. */
XGD_FIXTURE(TexturePerDraw_PrimitiveCountsVary)
{
    run_scene sc;
    if (!run_scene_create(t, &sc)) return;
    xgd_device *dev = sc.dev;
    xgd_texture *const *tex = sc.tex;
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    CHECK(decl != NULL);
    /* draw k: texture, first cell, primitives (a strip over m cells has 2m; 1 is the first
       triangle of a cell: its upper-left half) */
    static const struct { int tex, cell, prims; } draws[] = {
        { 0, 0, 2 }, { 1, 1, 2 }, { 2, 2, 4 }, { 0, 4, 1 }, { 1, 5, 6 }, { 2, 8, 2 }, { 0, 9, 1 }, { 1, 10, 2 },
    };
    xgd_color full[CELLS], half[CELLS]; /* want: a cell's centre, its upper-left pixel */
    for (int c = 0; c < CELLS; c++) full[c] = half[c] = RUN_BLACK;
    for (size_t k = 0; k < sizeof draws / sizeof draws[0]; k++) {
        int m = (draws[k].prims + 1) / 2; /* cells the strip's vertices span */
        xgd_vertex_position_color_texture v[2 * (CELLS + 1)];
        memset(v, 0, sizeof v);
        for (int j = 0; j <= m; j++) {
            for (int b = 0; b < 2; b++) {
                xgd_vertex_position_color_texture *o = &v[2 * j + b];
                o->position.x = fx_ndc_x((float)((draws[k].cell + j) * CELL), W);
                o->position.y = fx_ndc_y(b ? (float)H : 0.0f, H);
                o->color = XGD_COLOR_WHITE;
                o->texture_coordinate.x = (float)(j % 2);
                o->texture_coordinate.y = (float)b;
            }
        }
        REQUIRE_OK(xgd_set_texture(dev, 0, tex[draws[k].tex]));
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, draws[k].prims, decl));
        xgd_color c = run_color(draws[k].tex);
        for (int j = 0; j < m; j++) {
            half[draws[k].cell + j] = c;
            if (draws[k].prims >= 2 * (j + 1)) full[draws[k].cell + j] = c;
        }
    }
    /* a cell's last pixel is in its lower-right half (x + y past the diagonal), its first in
       its upper-left one */
    check_cells(t, dev, CELL - 1, H - 1, full, "lower-right");
    check_cells(t, dev, 0, 0, half, "upper-left");
    run_scene_destroy(&sc);
}

/* The slot checks of a draw that changed only texture slots are remembered per texture, slot
 * and state (src/core/draw.c, check_changed_slots): a texture that passed them before must
 * be checked again in another slot and after any change of what they depend on. Reach: a
 * texture whose size is not a power of two needs Clamp addressing in its slot; a render
 * target cannot be sampled while bound. Each refused draw names its failure and draws
 * nothing. */
/* The Reach device of the two slot-check fixtures: a 4x4 texture (pot, red), a 3x2 one (npot,
   green), a 4x4 render target, an effect sampling slot 0, no culling, slot 0 with Clamp, the
   back buffer cleared. */
typedef struct slot_scene {
    xgd_device *dev;
    xgd_texture *pot, *npot, *rt;
    xgd_effect *fx;
    xgd_sampler_state *clamp, *wrap;
} slot_scene;

static bool slot_scene_setup(xgdt_ctx *t, slot_scene *sc);

static void slot_scene_destroy(slot_scene *sc);

/* slot_scene_setup, or the failure recorded and what was made destroyed. */
static bool slot_scene_create(xgdt_ctx *t, slot_scene *sc)
{
    if (slot_scene_setup(t, sc)) return true;
    xgdt_fail_at(t, __FILE__, __LINE__, "the slot-check scene's setup failed");
    slot_scene_destroy(sc);
    return false;
}

static bool slot_scene_setup(xgdt_ctx *t, slot_scene *sc)
{
    memset(sc, 0, sizeof *sc);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.profile = XGD_GRAPHICS_PROFILE_REACH;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = sc->dev = xgdt_device(t, &dd);
    if (dev == NULL) return false;
    sc->pot = xgdt_solid_texture(t, dev, 4, 4, (xgd_color){ 255, 0, 0, 255 });
    sc->npot = xgdt_solid_texture(t, dev, 3, 2, (xgd_color){ 0, 255, 0, 255 });
    sc->rt = fx_target(t, dev, 4, 4, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    if (sc->pot == NULL || sc->npot == NULL || sc->rt == NULL) return false;
    if ((sc->fx = fx_texture_effect(t, dev, sc->pot)) == NULL) return false;
    sc->clamp = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    sc->wrap = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_WRAP);
    return xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)) == XGD_OK &&
           xgd_set_sampler_state(dev, 0, sc->clamp) == XGD_OK &&
           xgd_clear_color(dev, XGD_COLOR_BLACK) == XGD_OK;
}

static void slot_scene_destroy(slot_scene *sc)
{
    xgd_effect_destroy(sc->fx);
    xgd_texture_destroy(sc->rt);
    xgd_texture_destroy(sc->npot);
    xgd_texture_destroy(sc->pot);
    xgd_device_destroy(sc->dev);
}

XGD_FIXTURE(TexturePerDraw_SlotChecksFollowState)
{
    const xgd_color RED = { 255, 0, 0, 255 };
    slot_scene sc;
    if (!slot_scene_create(t, &sc)) return;
    xgd_device *dev = sc.dev;
    xgd_texture *pot = sc.pot, *npot = sc.npot, *rt = sc.rt;
    xgd_sampler_state *clamp = sc.clamp, *wrap = sc.wrap;
    REQUIRE_OK(xgd_set_sampler_state(dev, 1, wrap));
    xgd_statistics s0, s1;

    /* npot passes in slot 0 (Clamp) between texture-only draws, and is remembered there */
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    CHECK_OK(cell_quad(dev, 0));
    REQUIRE_OK(xgd_set_texture(dev, 0, npot));
    CHECK_OK(cell_quad(dev, 1));
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    CHECK_OK(cell_quad(dev, 2));
    /* slot 1 addresses with Wrap: npot is refused there, though it passed in slot 0 */
    REQUIRE_OK(xgd_set_texture(dev, 1, npot));
    memset(&s0, 0, sizeof s0);
    xgd_device_get_statistics(dev, &s0);
    CHECK_RESULT(cell_quad(dev, 3), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "Reach requires Clamp addressing for the 3x2 texture in slot 1") != NULL,
              "message: %s", xgd_device_last_error(dev));
    REQUIRE_OK(xgd_set_texture(dev, 1, NULL));
    CHECK_OK(cell_quad(dev, 3));
    /* slot 0 turns to Wrap while pot is bound (a draw passes and clears the change), then
       npot comes back into slot 0 with texture changes alone: refused */
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, wrap));
    CHECK_OK(cell_quad(dev, 4));
    REQUIRE_OK(xgd_set_texture(dev, 0, npot));
    CHECK_RESULT(cell_quad(dev, 5), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "Reach requires Clamp addressing for the 3x2 texture in slot 0") != NULL,
              "message: %s", xgd_device_last_error(dev));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, clamp));
    CHECK_OK(cell_quad(dev, 5));

    /* a render target sampled between texture-only draws, then bound for output (a draw
       into it with another texture passes), then sampled again: refused */
    REQUIRE_OK(xgd_set_texture(dev, 0, rt));
    CHECK_OK(cell_quad(dev, 6));
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    CHECK_OK(cell_quad(dev, 7));
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST,
                                      (xgd_vertex_position_color_texture[3]){ { { -1, -1, 0 }, RED, { 0, 0 } },
                                                                              { { 1, -1, 0 }, RED, { 0, 0 } },
                                                                              { { -1, 1, 0 }, RED, { 0, 0 } } },
                                      0, 1, xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    REQUIRE_OK(xgd_set_texture(dev, 0, rt));
    CHECK_RESULT(cell_quad(dev, 8), XGD_ERROR_INVALID_OPERATION);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "the render target in texture slot 0 is also bound as render target 0") != NULL,
              "message: %s", xgd_device_last_error(dev));
    memset(&s1, 0, sizeof s1);
    xgd_device_get_statistics(dev, &s1);
    /* counted since s0: cells 3, 4, 5, 6, 7 and the draw into rt; not the refused ones */
    CHECK_MSG(s1.draw_calls == s0.draw_calls + 6, "%llu draws after %llu, want 6 more",
              (unsigned long long)s1.draw_calls, (unsigned long long)s0.draw_calls);
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(cell_quad(dev, 0));
    slot_scene_destroy(&sc);
}

/* The same checks when nothing is drawn between the change they depend on and the texture's
 * return: a render target that passed its slot's checks is bound for output and put back into
 * its slot right after, with no draw between (so no draw has moved the checks' epoch on), and
 * the draw is refused; so is a Reach texture of a size not a power of two whose slot turned to
 * Wrap the same way. Each refused draw draws nothing; the next allowed one draws. */
XGD_FIXTURE(TexturePerDraw_SlotChecksWithoutDrawBetween)
{
    slot_scene sc;
    if (!slot_scene_create(t, &sc)) return;
    xgd_device *dev = sc.dev;
    xgd_texture *pot = sc.pot, *npot = sc.npot, *rt = sc.rt;
    xgd_sampler_state *clamp = sc.clamp, *wrap = sc.wrap;
    xgd_statistics s0, s1;

    /* rt and npot pass in slot 0 between texture-only draws */
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    CHECK_OK(cell_quad(dev, 0));
    REQUIRE_OK(xgd_set_texture(dev, 0, rt));
    CHECK_OK(cell_quad(dev, 1));
    REQUIRE_OK(xgd_set_texture(dev, 0, npot));
    CHECK_OK(cell_quad(dev, 2));
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    CHECK_OK(cell_quad(dev, 3));

    /* rt bound for output, then straight back into slot 0 */
    memset(&s0, 0, sizeof s0);
    xgd_device_get_statistics(dev, &s0);
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    REQUIRE_OK(xgd_set_texture(dev, 0, rt));
    CHECK_RESULT(cell_quad(dev, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "the render target in texture slot 0 is also bound as render target 0") != NULL,
              "message: %s", xgd_device_last_error(dev));
    REQUIRE_OK(xgd_set_texture(dev, 0, pot));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));

    /* slot 0 turned to Wrap, then npot straight back into it */
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, wrap));
    REQUIRE_OK(xgd_set_texture(dev, 0, npot));
    CHECK_RESULT(cell_quad(dev, 4), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(xgd_device_last_error(dev), "Reach requires Clamp addressing for the 3x2 texture in slot 0") != NULL,
              "message: %s", xgd_device_last_error(dev));
    memset(&s1, 0, sizeof s1);
    xgd_device_get_statistics(dev, &s1);
    CHECK_MSG(s1.draw_calls == s0.draw_calls, "%llu draws counted for refused draws",
              (unsigned long long)(s1.draw_calls - s0.draw_calls));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, clamp));
    CHECK_OK(cell_quad(dev, 4));
    slot_scene_destroy(&sc);
}

/* A renderer failure injected on the draw reaches a draw that changed only the texture (the
   short path): the draw returns the error and draws nothing; the next one draws. */
XGD_FIXTURE(TexturePerDraw_InjectedFaultReachesShortPath)
{
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = xgdt_solid_texture(t, dev, 4, 4, RED), *green = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    REQUIRE(red && green);
    xgd_effect *fx = fx_texture_effect(t, dev, red);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    /* two draws: the second changed only the texture, so the third may take the short path */
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    CHECK_OK(cell_quad(dev, 0));
    REQUIRE_OK(xgd_set_texture(dev, 0, green));
    CHECK_OK(cell_quad(dev, 1));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 1, XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    xgd_result r = cell_quad(dev, 2);
    CHECK_MSG(r == XGD_ERROR_OUT_OF_MEMORY, "the texture-only draw under an injected fault: %s",
              xgd_result_name(r));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_DRAW, 0, XGD_OK));
    REQUIRE_OK(xgd_set_texture(dev, 0, green));
    CHECK_OK(cell_quad(dev, 3));
    uint8_t px[W * H * 4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, NULL, px, sizeof px));
    const xgd_color want[4] = { RED, GREEN, XGD_COLOR_BLACK, GREEN };
    for (int c = 0; c < 4; c++) {
        const uint8_t *p = px + ((size_t)(H / 2) * W + (size_t)(c * CELL + CELL / 2)) * 4;
        xgd_color got = { p[0], p[1], p[2], p[3] };
        CHECK_MSG(same(got, want[c]), "cell %d: (%d,%d,%d,%d), want (%d,%d,%d,%d)", c, got.r, got.g,
                  got.b, got.a, want[c].r, want[c].g, want[c].b, want[c].a);
    }
    xgd_device_destroy(dev);
}

/* Sets up the run the short path serves: two draws, the second changing only the texture. */
static xgd_effect *short_path_run(xgdt_ctx *t, xgd_device *dev, xgd_texture *a, xgd_texture *b)
{
    xgd_effect *fx = fx_texture_effect(t, dev, a);
    if (fx == NULL) return NULL;
    if (xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)) != XGD_OK ||
        xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)) != XGD_OK ||
        xgd_clear_color(dev, XGD_COLOR_BLACK) != XGD_OK || xgd_set_texture(dev, 0, a) != XGD_OK ||
        cell_quad(dev, 0) != XGD_OK || xgd_set_texture(dev, 0, b) != XGD_OK || cell_quad(dev, 1) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "the run's setup failed: %s", xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* A draw that changed only the texture, after the device lost its context (which has no
   dirty bit: src/core/draw.c's common case learns it from xgdi_forget_user_draw), reports the
   loss, as every other draw; after the restore the run draws again. */
XGD_FIXTURE(TexturePerDraw_ContextLossEndsShortPath)
{
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = xgdt_solid_texture(t, dev, 4, 4, RED), *green = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    REQUIRE(red && green);
    xgd_effect *fx = short_path_run(t, dev, red, green);
    REQUIRE(fx);
    REQUIRE_OK(xgd_device_simulate_context_loss(dev));
    (void)xgd_set_texture(dev, 0, red);
    CHECK_RESULT(cell_quad(dev, 2), XGD_ERROR_DEVICE_LOST);
    REQUIRE_OK(xgd_device_restore_context(dev));
    REQUIRE_OK(xgd_effect_apply(fx));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    REQUIRE_OK(xgd_set_texture(dev, 0, green));
    CHECK_OK(cell_quad(dev, 0));
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    CHECK_OK(cell_quad(dev, 1));
    uint8_t px[W * H * 4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, NULL, px, sizeof px));
    const xgd_color want[3] = { GREEN, RED, XGD_COLOR_BLACK };
    for (int c = 0; c < 3; c++) {
        const uint8_t *p = px + ((size_t)(H / 2) * W + (size_t)(c * CELL + CELL / 2)) * 4;
        xgd_color got = { p[0], p[1], p[2], p[3] };
        CHECK_MSG(same(got, want[c]), "cell %d: (%d,%d,%d,%d), want (%d,%d,%d,%d)", c, got.r, got.g,
                  got.b, got.a, want[c].r, want[c].g, want[c].b, want[c].a);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* A draw that changed only the texture, after the applied user effect was destroyed (its
   shaders go, so no program is set, which has no dirty bit), is refused as any draw without a
   program; nothing is drawn. */
XGD_FIXTURE(TexturePerDraw_ProgramGoneEndsShortPath)
{
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    XGDT_FX2_OR_SKIP(t, dev);
    xgd_texture *red = xgdt_solid_texture(t, dev, 4, 4, RED), *green = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    REQUIRE(red && green);
    char err[256] = "";
    size_t n = 0;
    uint8_t *bytes = fxw_standard(&n, err, sizeof err);
    CHECK_MSG(bytes != NULL, "fx writer: %s", err);
    REQUIRE(bytes != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, bytes, n, &e));
    free(bytes);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_result r = xgd_effect_apply(e);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        xgd_effect_destroy(e);
        xgd_device_destroy(dev);
        return;
    }
    REQUIRE_OK(r);
    /* the Solid technique samples nothing; the slot changes still make the draws texture-only */
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    CHECK_OK(cell_quad(dev, 0));
    REQUIRE_OK(xgd_set_texture(dev, 0, green));
    CHECK_OK(cell_quad(dev, 1));
    xgd_effect_destroy(e);
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    CHECK_RESULT(cell_quad(dev, 2), XGD_ERROR_INVALID_OPERATION);
    uint8_t px[W * H * 4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, NULL, px, sizeof px));
    const uint8_t *p = px + ((size_t)(H / 2) * W + (size_t)(2 * CELL + CELL / 2)) * 4;
    xgd_color got = { p[0], p[1], p[2], p[3] };
    CHECK_MSG(same(got, XGD_COLOR_BLACK), "cell 2: (%d,%d,%d,%d), want black", got.r, got.g, got.b, got.a);
    xgd_device_destroy(dev);
}

/* A draw that changed only the texture, after a render-target bind failed and could not bind
   the back buffer again (native targets stale), binds the back buffer first and draws there;
   a draw the renderer's short path declines (an empty slot) is counted once. */
XGD_FIXTURE(TexturePerDraw_StaleTargetsEndShortPath)
{
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *red = xgdt_solid_texture(t, dev, 4, 4, RED), *green = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    REQUIRE(red && green);
    xgd_texture *c = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS,
                               false);
    REQUIRE(c);
    xgd_effect *fx = short_path_run(t, dev, red, green);
    REQUIRE(fx);
    /* renderer calls: bind c (succeeds), its discard clear (fails), bind the back buffer (fails) */
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 1, XGD_ERROR_OUT_OF_MEMORY));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 2, XGD_ERROR_OUT_OF_MEMORY));
    CHECK_RESULT(xgd_set_render_target(dev, c), XGD_ERROR_OUT_OF_MEMORY);
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_SET_RENDER_TARGETS, 0, XGD_OK));
    REQUIRE_OK(xgdi_debug_fail_next(dev, XGDI_FAULT_CLEAR, 0, XGD_OK));
    REQUIRE_OK(xgd_set_texture(dev, 0, red));
    CHECK_OK(cell_quad(dev, 2));
    xgd_statistics s0, s1;
    memset(&s0, 0, sizeof s0);
    memset(&s1, 0, sizeof s1);
    xgd_device_get_statistics(dev, &s0);
    REQUIRE_OK(xgd_set_texture(dev, 0, NULL));
    CHECK_OK(cell_quad(dev, 3));
    xgd_device_get_statistics(dev, &s1);
    CHECK_MSG(s1.draw_calls == s0.draw_calls + 1 && s1.primitives == s0.primitives + 2,
              "a declined short draw counted %llu draws and %llu primitives, want 1 and 2",
              (unsigned long long)(s1.draw_calls - s0.draw_calls),
              (unsigned long long)(s1.primitives - s0.primitives));
    uint8_t px[W * H * 4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, NULL, px, sizeof px));
    const xgd_color want[4] = { RED, GREEN, RED, XGD_COLOR_BLACK };
    for (int k = 0; k < 4; k++) {
        const uint8_t *p = px + ((size_t)(H / 2) * W + (size_t)(k * CELL + CELL / 2)) * 4;
        xgd_color got = { p[0], p[1], p[2], p[3] };
        CHECK_MSG(same(got, want[k]), "cell %d: (%d,%d,%d,%d), want (%d,%d,%d,%d)", k, got.r, got.g,
                  got.b, got.a, want[k].r, want[k].g, want[k].b, want[k].a);
    }
    xgd_effect_destroy(fx);
    xgd_texture_destroy(c);
    xgd_device_destroy(dev);
}

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_internal.h"

/* Native device loss seen by a Vulkan call inside a draw that still records and returns OK
   (here: vkCmdDraw's wrapper, as xvk_completed's vkGetSemaphoreCounterValue in xvk_cmd or
   xvk_ring_alloc would): the device is lost, so the next texture-only draw must report
   DEVICE_LOST, as every draw on a lost device does. */
static xvk_renderer *lost_r;
static PFN_vkCmdDraw lost_real_draw;
static void VKAPI_PTR lose_in_draw(VkCommandBuffer cmd, uint32_t v, uint32_t i, uint32_t fv, uint32_t fi)
{
    lost_r->cmd_draw = lost_real_draw; /* once */
    (void)xvk_check(lost_r, VK_ERROR_DEVICE_LOST, "injected");
    lost_real_draw(cmd, v, i, fv, fi);
}

#endif

XGD_FIXTURE(TexturePerDraw_LossInsideDrawEndsShortPath)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    if (info.renderer != XGD_RENDERER_VULKAN) {
        xgdt_not_supported(t, "Vulkan renderer internals");
        xgd_device_destroy(dev);
        return;
    }
    xgd_texture *red = xgdt_solid_texture(t, dev, 4, 4, RED), *green = xgdt_solid_texture(t, dev, 4, 4, GREEN);
    REQUIRE(red && green);
    xgd_effect *fx = short_path_run(t, dev, red, green);
    REQUIRE(fx);
    /* a draw through the checked path (a state change) during which the loss is seen */
    REQUIRE_OK(xgd_set_rasterizer_state(dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    lost_r = xvk_cast(dev->renderer);
    lost_real_draw = lost_r->cmd_draw;
    lost_r->cmd_draw = lose_in_draw;
    (void)xgd_set_texture(dev, 0, red);
    xgd_result first = cell_quad(dev, 2);
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    CHECK_MSG(info.lost, "the injected loss did not reach the device");
    /* texture-only draws on the lost device */
    for (int i = 0; i < 3; i++) {
        (void)xgd_set_texture(dev, 0, i & 1 ? red : green);
        xgd_result r = cell_quad(dev, 3 + i);
        CHECK_MSG(r == XGD_ERROR_DEVICE_LOST, "draw %d after the loss (the loss-seeing draw returned %s): %s, want DEVICE_LOST",
                  i, xgd_result_name(first), xgd_result_name(r));
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
#endif
}
