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

XGD_FIXTURE(TexturePerDraw_EveryInterruptionSeen)
{
    const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                    BLUE = { 0, 0, 255, 255 }, YELLOW = { 255, 255, 0, 255 },
                    BLACK = { 0, 0, 0, 255 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex[3] = { xgdt_solid_texture(t, dev, 4, 4, RED), xgdt_solid_texture(t, dev, 4, 4, GREEN),
                            xgdt_solid_texture(t, dev, 4, 4, BLUE) };
    REQUIRE(tex[0] && tex[1] && tex[2]);
    xgd_effect *fx = fx_texture_effect(t, dev, tex[0]);
    REQUIRE(fx);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_color want[CELLS];
    int cell = 0;
    /* a plain run: each texture after another, then the first again */
    const int order[4] = { 0, 1, 2, 0 };
    for (int i = 0; i < 4; i++, cell++) {
        REQUIRE_OK(xgd_set_texture(dev, 0, tex[order[i]]));
        CHECK_OK(cell_quad(dev, cell));
        want[cell] = order[i] == 0 ? RED : order[i] == 1 ? GREEN : BLUE;
    }
    /* a readback in the middle of the run, then the run goes on */
    uint8_t px[4];
    REQUIRE_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, sizeof px));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = GREEN;
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
    want[cell++] = BLACK;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[0]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RED;
    /* another sampler state, then texture changes alone again */
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP)));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = GREEN;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[0]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = RED;
    /* the effect applied again (the same program), then a texture change */
    REQUIRE_OK(xgd_effect_apply(fx));
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[2]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = YELLOW;
    REQUIRE_OK(xgd_set_texture(dev, 0, tex[1]));
    CHECK_OK(cell_quad(dev, cell));
    want[cell++] = GREEN;
    REQUIRE(cell == CELLS);

    uint8_t *img = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, W, H, &img));
    for (int c = 0; c < CELLS; c++) {
        xgd_color got = fx_get(img, W, c * CELL + CELL / 2, H / 2);
        if (!same(got, want[c]))
            xgdt_fail_at(t, __FILE__, __LINE__, "cell %d is (%d,%d,%d,%d), want (%d,%d,%d,%d)", c,
                         got.r, got.g, got.b, got.a, want[c].r, want[c].g, want[c].b, want[c].a);
    }
    free(img);
    xgd_statistics s;
    memset(&s, 0, sizeof s);
    xgd_device_get_statistics(dev, &s);
    CHECK(s.draw_calls >= (uint64_t)CELLS);
    xgd_effect_destroy(fx);
    for (int i = 0; i < 3; i++) xgd_texture_destroy(tex[i]);
    xgd_device_destroy(dev);
}
