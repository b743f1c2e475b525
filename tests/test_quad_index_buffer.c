/*
 * test_quad_index_buffer.c - xgd_draw_user_quads' index pattern is one device-owned GPU index
 * buffer (quads.c):
 *  - on Vulkan, a frame of quad draws with a texture change every draw binds the index buffer
 *    once, not once per draw (the same buffer and offset every time), and still draws every
 *    quad in its own texture;
 *  - the device's own buffer is not counted among the caller's live resources.
 */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "fixture_util.h"
#include "internal.h"

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_internal.h"

/* A 1x1 texture of colour c. */
static xgd_texture *solid(xgdt_ctx *t, xgd_device *dev, xgd_color c)
{
    xgd_texture *tex = NULL;
    if (xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 1, .height = 1 }, &tex) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "texture: %s", xgdt_last_message());
        return NULL;
    }
    uint8_t px[4] = { c.r, c.g, c.b, c.a };
    if (xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px, sizeof px) != XGD_OK)
        xgdt_fail_at(t, __FILE__, __LINE__, "set_data: %s", xgdt_last_message());
    return tex;
}
#endif

XGD_TEST(QuadIndexBuffer_VulkanBindsItOncePerFrame)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { W = 32, H = 1, N = W };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_VULKAN;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&dd, &dev);
    if (r == XGD_ERROR_NO_SUITABLE_DEVICE || r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "no Vulkan device");
        return;
    }
    REQUIRE_OK(r);
    xvk_renderer *vr = (xvk_renderer *)dev->renderer;
    const xgd_color colors[2] = { fx_rgba(255, 0, 0, 255), fx_rgba(0, 0, 255, 255) };
    xgd_texture *tex[2] = { solid(t, dev, colors[0]), solid(t, dev, colors[1]) };
    xgd_sprite_batch *batch = NULL;
    REQUIRE(tex[0] && tex[1]);
    REQUIRE_OK(xgd_sprite_batch_create(dev, &batch));
    /* a draw per run (texture groups would draw the two textures at once) */
    REQUIRE_OK(xgd_sprite_batch_set_texture_groups(batch, XGD_SPRITE_TEXTURE_GROUPS_OFF));
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    uint64_t binds0 = vr->counters.index_binds;
    /* one 1x1 sprite per pixel, alternating textures: N runs, N draws */
    CHECK_OK(xgd_sprite_batch_begin(batch, NULL));
    for (int i = 0; i < N; i++) {
        xgd_sprite s = XGD_SPRITE_INIT;
        s.position = (xgd_vector2){ (float)i, 0.0f };
        CHECK_OK(xgd_sprite_batch_draw(batch, tex[i & 1], &s));
    }
    CHECK_OK(xgd_sprite_batch_end(batch));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_MSG(s1.draw_calls - s0.draw_calls == N, "%llu draws, expected %d (one per run)",
              (unsigned long long)(s1.draw_calls - s0.draw_calls), N);
    uint64_t binds = vr->counters.index_binds - binds0;
    CHECK_MSG(binds == 1, "%d quad draws in one frame bound an index buffer %llu times, expected 1",
              N, (unsigned long long)binds);
    uint8_t *px = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &px)) {
        for (int i = 0; i < N; i++) {
            const uint8_t *p = &px[i * 4];
            xgd_color c = colors[i & 1];
            CHECK_MSG(p[0] == c.r && p[1] == c.g && p[2] == c.b,
                      "pixel %d is %d,%d,%d, expected %d,%d,%d (its sprite's texture)", i, p[0],
                      p[1], p[2], c.r, c.g, c.b);
        }
    }
    free(px);
    xgd_sprite_batch_destroy(batch);
    xgd_texture_destroy(tex[0]);
    xgd_texture_destroy(tex[1]);
    xgd_device_destroy(dev);
#endif
}

XGD_TEST(QuadIndexBuffer_NotACallerResource)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    xgd_device *dev = NULL;
    REQUIRE_OK(xgd_device_create(&dd, &dev));
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx != NULL);
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    xgd_vertex_position_color v[4];
    for (int i = 0; i < 4; i++)
        v[i] = fx_vpc((float)(i & 1) * 8.0f, (float)(i >> 1) * 8.0f, 0, 8, 8, XGD_COLOR_WHITE);
    CHECK_OK(xgd_draw_user_quads(dev, v, 0, 1, xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_MSG(s1.live_resources == s0.live_resources && s1.buffers_created == s0.buffers_created,
              "a quad draw changed live_resources %llu -> %llu, buffers_created %llu -> %llu",
              (unsigned long long)s0.live_resources, (unsigned long long)s1.live_resources,
              (unsigned long long)s0.buffers_created, (unsigned long long)s1.buffers_created);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
