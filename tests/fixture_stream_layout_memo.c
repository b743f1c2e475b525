/*
 * Draws through two vertex streams whose layout changes between two draws with otherwise equal
 * state: the per-instance colour is read through declaration A (offset 0, stride 4) for the
 * first quarter of the target and through declaration B (offset 4, stride 8) for the second.
 * A pipeline kept from the first draw would read B's buffer at offset 0 (green) instead of the
 * blue at offset 4; a third draw through B again and a fourth through A check the way back.
 */
#include "fixture_util.h"
#include "stream_memo_scene.h"

#include <stdlib.h>

XGD_FIXTURE(stream_layout_change_between_draws)
{
    xgd_device *dev = fx_device_centers(t, SM_W, SM_H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    sm_scene s;
    if (sm_create(t, &s, dev)) {
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        CHECK_OK(sm_draw(&s, 0, false));
        CHECK_OK(sm_draw(&s, 1, true));
        CHECK_OK(sm_draw(&s, 2, true));
        CHECK_OK(sm_draw(&s, 3, false));
        uint8_t *img = fx_image(SM_W, SM_H, (xgd_color){ 0, 0, 0, 255 });
        REQUIRE(img != NULL);
        const xgd_color want[4] = { sm_red, sm_blue, sm_blue, sm_red };
        for (int q = 0; q < 4; q++) fx_fill(img, SM_W, SM_H, q * SM_W / 4, 0, (q + 1) * SM_W / 4, SM_H, want[q]);
        fx_expect_back_buffer(t, dev, "stream_layout_change_between_draws", img, SM_W, SM_H, 0);
        free(img);
    }
    sm_destroy(&s);
}
