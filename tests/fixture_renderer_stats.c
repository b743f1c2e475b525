/*
 * fixture_renderer_stats.c - issue 4 items checked per renderer: the descriptor counters that
 * xgd_statistics reports, and XNA's MultiSampleAntiAlias=false (every sample takes the pixel
 * centre's coverage, so a multisampled target shows aliased edges).
 */
#include "fixture_util.h"

/* Drawing with N distinct textures in one frame makes the renderer write descriptors for each;
 * once the textures are gone and the frames that used them have passed, live falls back. */
XGD_FIXTURE(descriptor_counters)
{
    enum { W = 16, H = 16, N = 6 };
    if (t->renderer == XGD_RENDERER_SOFTWARE) {
        xgdt_not_supported(t, "the software renderer samples textures directly and has no "
                              "descriptors; its descriptor counters are always 0");
        return;
    }
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_statistics before;
    REQUIRE_OK(xgd_device_get_statistics(dev, &before));
    xgd_texture *tex[N];
    for (int i = 0; i < N; i++) {
        tex[i] = xgdt_solid_texture(t, dev, 2, 2, fx_rgba(40 * i, 255 - 40 * i, 7, 255));
        REQUIRE(tex[i]);
    }
    xgd_effect *fx = fx_texture_effect(t, dev, tex[0]);
    REQUIRE(fx);
    const xgd_color white = { 255, 255, 255, 255 };
    for (int i = 0; i < N; i++) {
        CHECK_OK(xgd_basic_effect_set_texture(fx, tex[i]));
        CHECK_OK(xgd_effect_apply(fx));
        CHECK_OK(fx_tex_rect(dev, W, H, (float)i * 2, 0, (float)i * 2 + 2, 2, 0, 0, 1, 1, white));
    }
    xgd_statistics mid;
    REQUIRE_OK(xgd_device_get_statistics(dev, &mid));
    CHECK_MSG(mid.descriptors_peak > 0, "descriptors_peak is 0 after %d textured draws", N);
    CHECK_MSG(mid.descriptors_live > before.descriptors_live,
              "descriptors_live %llu did not rise above %llu while the frame holds %d textures",
              (unsigned long long)mid.descriptors_live, (unsigned long long)before.descriptors_live, N);
    CHECK(mid.descriptors_peak >= mid.descriptors_live);
    /* the frame's picture: N textures, one column pair each */
    uint8_t *img = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
        for (int i = 0; i < N; i++) {
            xgd_color c = fx_get(img, W, i * 2, 0);
            CHECK_MSG(c.r == 40 * i && c.g == 255 - 40 * i && c.b == 7,
                      "texture %d drew (%d,%d,%d)", i, c.r, c.g, c.b);
        }
        free(img);
    }
    CHECK_OK(xgd_basic_effect_set_texture(fx, NULL));
    xgd_effect_destroy(fx);
    for (int i = 0; i < N; i++) xgd_texture_destroy(tex[i]);
    /* more presents than frames in flight: every slot that held the draws has been reused */
    for (int f = 0; f < 4; f++) CHECK_OK(xgd_present(dev));
    xgd_statistics after;
    REQUIRE_OK(xgd_device_get_statistics(dev, &after));
    CHECK_MSG(after.descriptors_live < mid.descriptors_live,
              "descriptors_live stayed at %llu (was %llu with the textures in flight)",
              (unsigned long long)after.descriptors_live, (unsigned long long)mid.descriptors_live);
    CHECK(after.descriptors_peak >= mid.descriptors_peak);
    /* vulkan recycles a frame slot's pushed descriptors once its fence passed; d3d12 counts a
       recycle only when a freed heap index is handed out again, which this test never asks */
    if (t->renderer == XGD_RENDERER_VULKAN)
        CHECK_MSG(after.descriptor_recycles > mid.descriptor_recycles,
              "no descriptor recycled (%llu) after the frames passed",
              (unsigned long long)after.descriptor_recycles);
    xgd_device_destroy(dev);
}

/* XNA RasterizerState.MultiSampleAntiAlias = false on a 4x target: coverage is decided once at
 * the pixel centre for all samples (spec: the software reference's single_coverage), so the
 * resolved image equals the single-sample rasterization: no partially covered pixel. */
XGD_FIXTURE(multisample_antialias_disable)
{
    enum { W = 24, H = 24 };
    /* D3D10 centres: tests sample placement, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    if (fx_max_msaa(dev) < 4) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the device offers no 4x multisampled render target");
        return;
    }
    if (t->renderer == XGD_RENDERER_VULKAN)
        xgdt_expect_failure(t, "vulkan: centre-only sample positions need VK_EXT_sample_locations, "
                               "which this renderer does not use; the pipeline warns instead");
    else if (t->renderer == XGD_RENDERER_D3D12)
        xgdt_expect_failure(t, "d3d12: MultisampleEnable only affects lines (D3D10+ semantics), "
                               "and vkd3d 1.2 ignores it; triangles keep the standard pattern");
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 4,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(rt);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_desc rd = XGD_RASTERIZER_DESC_DEFAULT;
    rd.cull_mode = XGD_CULL_NONE;
    rd.multisample_antialias = false;
    xgd_rasterizer_state *rs = fx_raster(t, dev, &rd);
    REQUIRE(fx && rs);
    xgd_set_rasterizer_state(dev, rs);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, (xgd_vector4){ 0, 0, 0, 1 }, 1.0f, 0));
    /* slanted edges so that many pixels are partially covered under the 4x pattern */
    const float tri[6] = { 2.3f, 1.7f, 21.6f, 6.2f, 7.1f, 22.4f };
    const xgd_color white = { 255, 255, 255, 255 };
    CHECK_OK(fx_tri(dev, W, H, tri, 0.0f, white));
    int partial = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = fx_covered_samples4(tri, x, y);
            partial += k > 0 && k < 4;
        }
    CHECK_MSG(partial > 0, "the triangle has no partially covered pixel: the test cannot fail");
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint8_t *expected = fx_image(W, H, (xgd_color){ 0, 0, 0, 255 });
    REQUIRE(expected);
    fx_raster_tri(expected, W, H, tri, white);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "centre_coverage", expected, W, H, 0);
    free(expected);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/* One cycle that makes a GPU renderer recycle descriptors: N textures drawn, destroyed, their
 * frames passed, then N new ones drawn (Vulkan recycles a slot's pushed descriptors once its
 * fence passed; D3D12 hands the freed heap indices out again). */
static void descriptor_cycle(xgdt_ctx *t, xgd_device *dev, xgd_effect *fx, int w, int h)
{
    enum { N = 6 };
    const xgd_color white = { 255, 255, 255, 255 };
    for (int round = 0; round < 2; round++) {
        xgd_texture *tex[N];
        for (int i = 0; i < N; i++) {
            tex[i] = xgdt_solid_texture(t, dev, 2, 2, fx_rgba(30 * i, 9, 200, 255));
            if (tex[i] == NULL) return;
        }
        for (int i = 0; i < N; i++) {
            CHECK_OK(xgd_basic_effect_set_texture(fx, tex[i]));
            CHECK_OK(xgd_effect_apply(fx));
            CHECK_OK(fx_tex_rect(dev, w, h, (float)i, 0, (float)i + 1, 1, 0, 0, 1, 1, white));
        }
        CHECK_OK(xgd_basic_effect_set_texture(fx, NULL));
        for (int i = 0; i < N; i++) xgd_texture_destroy(tex[i]);
        for (int f = 0; f < 4; f++) CHECK_OK(xgd_present(dev));
    }
}

/* xgd_device_reset_statistics restarts the renderer-reported cumulative counters too
 * (descriptor_pool_growths, descriptor_recycles), and counting resumes after it. */
XGD_FIXTURE(statistics_reset_descriptor_counters)
{
    enum { W = 8, H = 8 };
    if (t->renderer == XGD_RENDERER_SOFTWARE) {
        xgdt_not_supported(t, "the software renderer has no descriptors; its descriptor "
                              "counters are always 0");
        return;
    }
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *first = xgdt_solid_texture(t, dev, 2, 2, fx_rgba(1, 2, 3, 255));
    REQUIRE(first);
    xgd_effect *fx = fx_texture_effect(t, dev, first);
    REQUIRE(fx);
    descriptor_cycle(t, dev, fx, W, H);
    xgd_statistics s;
    REQUIRE_OK(xgd_device_get_statistics(dev, &s));
    CHECK_MSG(s.descriptor_recycles > 0, "no descriptor recycled after a destroy/present cycle");
    REQUIRE_OK(xgd_device_reset_statistics(dev));
    REQUIRE_OK(xgd_device_get_statistics(dev, &s));
    CHECK_INT(s.descriptor_recycles, 0);
    CHECK_INT(s.descriptor_pool_growths, 0);
    CHECK_INT(s.draw_calls, 0);
    descriptor_cycle(t, dev, fx, W, H);
    REQUIRE_OK(xgd_device_get_statistics(dev, &s));
    CHECK_MSG(s.descriptor_recycles > 0, "descriptor recycles did not count again after the reset");
    CHECK_INT(s.draw_calls, 12);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(first);
    xgd_device_destroy(dev);
}

/* Frames whose draws upload more than a GPU renderer's upload memory first held (40 MiB of
 * vertices; the Vulkan ring starts at 32 MiB) stop waiting for the GPU once that memory has
 * grown (xgd_statistics.gpu_waits, its documented rule: enlarged at the next Present), and
 * every frame draws what its last draw uploaded. Each frame ends with a readback, so the GPU
 * is idle when the next frame starts and any wait counted during its draws is one the
 * upload memory caused. Most quads are degenerate (all four corners on one point: uploaded,
 * never rasterized); the last quad of each frame covers pixel (f, 0) with the frame's colour. */
XGD_FIXTURE(upload_memory_grows_without_waits)
{
    enum { W = 16, H = 4, FRAMES = 7, QUADS = XGD_USER_QUADS_MAX, DRAWS = 40 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    REQUIRE(decl);
    const size_t bytes = sizeof(xgd_vertex_position_color) * 4 * QUADS; /* 1 MiB a draw */
    xgd_vertex_position_color *v = malloc(bytes);
    REQUIRE(v);
    const xgd_color black = { 0, 0, 0, 255 };
    for (int q = 0; q < QUADS; q++)
        for (int i = 0; i < 4; i++) v[q * 4 + i] = fx_vpc(0.5f, 2.5f, 0, W, H, black);
    uint64_t waits[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        const xgd_color c = fx_rgba(30 * f + 10, 250 - 30 * f, 77, 255);
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        xgd_statistics s0, s1;
        REQUIRE_OK(xgd_device_get_statistics(dev, &s0));
        for (int d = 0; d < DRAWS; d++) {
            if (d == DRAWS - 1) { /* corner i at (i & 1, i >> 1) of pixel (f, 0) */
                for (int i = 0; i < 4; i++)
                    v[(QUADS - 1) * 4 + i] = fx_vpc((float)(f + (i & 1)), (float)(i >> 1), 0, W, H, c);
            }
            CHECK_OK(xgd_draw_user_quads(dev, v, 0, QUADS, decl));
        }
        REQUIRE_OK(xgd_device_get_statistics(dev, &s1));
        waits[f] = s1.gpu_waits - s0.gpu_waits;
        for (int i = 0; i < 4; i++) v[(QUADS - 1) * 4 + i] = fx_vpc(0.5f, 2.5f, 0, W, H, black);
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, W, H, &img)) {
            for (int x = 0; x <= f; x++) {
                xgd_color got = fx_get(img, W, x, 0);
                xgd_color want = x == f ? c : XGD_COLOR_BLACK;
                CHECK_MSG(got.r == want.r && got.g == want.g && got.b == want.b,
                          "frame %d: pixel (%d, 0) is (%d,%d,%d), expected (%d,%d,%d)", f, x,
                          got.r, got.g, got.b, want.r, want.g, want.b);
            }
            free(img);
        }
        CHECK_OK(xgd_present(dev));
    }
    /* by the last two frames the memory has had several Presents to grow */
    CHECK_MSG(waits[FRAMES - 2] == 0 && waits[FRAMES - 1] == 0,
              "the draws of the last frames waited for the GPU %llu and %llu times "
              "(waits per frame: %llu %llu %llu ...)",
              (unsigned long long)waits[FRAMES - 2], (unsigned long long)waits[FRAMES - 1],
              (unsigned long long)waits[0], (unsigned long long)waits[1],
              (unsigned long long)waits[2]);
    free(v);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Vulkan's short path (a texture change and a draw, nothing else changed) pushes register 0's
 * descriptor alone and counts it in a pending counter that the statistics settle when they are
 * read: a read in the middle of a run sees every push so far, one descriptor per draw. */
XGD_FIXTURE(descriptor_counters_short_path)
{
    enum { W = 16, H = 16, K = 5 };
    if (t->renderer != XGD_RENDERER_VULKAN) {
        xgdt_not_supported(t, "one descriptor per short-path draw is the Vulkan renderer's "
                              "accounting (push descriptors)");
        return;
    }
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex[2] = { xgdt_solid_texture(t, dev, 2, 2, fx_rgba(255, 0, 0, 255)),
                            xgdt_solid_texture(t, dev, 2, 2, fx_rgba(0, 255, 0, 255)) };
    REQUIRE(tex[0] && tex[1]);
    xgd_effect *fx = NULL;
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    REQUIRE(decl);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    /* a readback waits for every frame so far (the textures' uploads): their slots are
       recycled at the first read below, so that only the open frame's pushes change live */
    uint8_t px[4];
    REQUIRE_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    REQUIRE_OK(xgd_get_back_buffer_data(dev, &(xgd_rect){ 0, 0, 1, 1 }, px, sizeof px));
    REQUIRE_OK(xgd_effect_apply(fx));
    const xgd_vertex_position_color_texture q[4] = {
        { { 0, 0, 0 }, { 255, 255, 255, 255 }, { 0, 0 } },
        { { 4, 0, 0 }, { 255, 255, 255, 255 }, { 1, 0 } },
        { { 0, 4, 0 }, { 255, 255, 255, 255 }, { 0, 1 } },
        { { 4, 4, 0 }, { 255, 255, 255, 255 }, { 1, 1 } } };
    /* the first draws take the general path and arm the short one */
    for (int i = 0; i < 2; i++) {
        REQUIRE_OK(xgd_set_texture(dev, 0, tex[i]));
        REQUIRE_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl));
    }
    xgd_statistics s[3];
    for (int run = 0; run < 3; run++) {
        REQUIRE_OK(xgd_device_get_statistics(dev, &s[run]));
        if (run == 2) break;
        /* K draws, each with the texture the last one did not have (draw 2 + run * K + i) */
        for (int i = 0; i < K; i++) {
            REQUIRE_OK(xgd_set_texture(dev, 0, tex[(run * K + i) % 2]));
            REQUIRE_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, q, 0, 2, decl));
        }
    }
    for (int run = 0; run < 2; run++) {
        CHECK_MSG(s[run + 1].descriptors_live == s[run].descriptors_live + K,
                  "descriptors_live went from %llu to %llu over %d short-path draws with a new "
                  "texture each (want +%d)",
                  (unsigned long long)s[run].descriptors_live,
                  (unsigned long long)s[run + 1].descriptors_live, K, K);
        CHECK(s[run + 1].descriptors_peak >= s[run + 1].descriptors_live);
        CHECK(s[run + 1].draw_calls == s[run].draw_calls + K);
    }
    xgd_effect_destroy(fx);
    for (int i = 0; i < 2; i++) xgd_texture_destroy(tex[i]);
    xgd_device_destroy(dev);
}
