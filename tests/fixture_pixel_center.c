/*
 * fixture_pixel_center.c - the pixel-centre convention (xgd_device_desc.pixel_center).
 *
 * Rule under test. XGD_PIXEL_CENTER_XNA (the default) is Direct3D 9's: pixel (i, j) of the
 * viewport samples the geometry at viewport coordinates (i, j), so attributes are interpolated
 * there and coverage is decided there (top-left rule). XGD_PIXEL_CENTER_D3D10 samples at
 * (i + 0.5, j + 0.5). Both are relative to the viewport origin, and the coordinates are those
 * of the logical canvas (a scaled back buffer maps them through the presentation geometry).
 * Clipping stays on the viewport's whole pixels and the scissor rectangle is unaffected.
 * SpriteBatch and the stock SpriteEffect build XNA's CreateTranslation(-0.5, -0.5, 0) into
 * their projection under XNA centres and nothing under D3D10 centres, so a sprite's texels land
 * 1:1 on pixels in both.
 *
 * Expected images come from that rule alone: for each pixel, the point of the drawing's own
 * (user) space it samples; coverage of the quad by that point (left/top edges inclusive); and
 * the bilinear Clamp sample of a 16x16 texel pattern there. A crisp draw samples texel centres
 * (each pixel one texel); a draw off by half a pixel samples texel boundaries, the average of
 * two or four neighbouring texels.
 */
#include "fixture_util.h"

#define TEX 16

static const xgd_color CLEAR = { 20, 40, 60, 255 };

/* Distinct neighbours in every channel, not symmetric in x and y. */
static xgd_color texel(int x, int y)
{
    return fx_rgba(x * 16 + 8, y * 16 + 4, ((x * 7 + y * 3) % 16) * 16 + 2, 255);
}

static xgd_device *pc_device(xgdt_ctx *t, int w, int h, xgd_pixel_center pc)
{
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = w;
    dd.pp.back_buffer_height = h;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pixel_center = pc;
    return xgdt_device(t, &dd);
}

static xgd_texture *pattern_texture(xgdt_ctx *t, xgd_device *dev)
{
    uint8_t img[TEX * TEX * 4];
    for (int y = 0; y < TEX; y++)
        for (int x = 0; x < TEX; x++) fx_put(img, TEX, x, y, texel(x, y));
    return xgdt_image_texture(t, dev, TEX, TEX, img);
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/*
 * Paints the expected image of the pattern drawn as a TEX x TEX quad whose top-left corner is
 * at (qx, qy) of a viewport at (vx, vy): pixel (x, y) of the image samples the quad's space at
 * (x - vx + off_x, y - vy + off_y). Bilinear with Clamp addressing, texel (i, j) centred at
 * (qx + i + 0.5, qy + j + 0.5). Pixels outside [clip_x0, clip_x1) x [clip_y0, clip_y1) are left.
 */
typedef struct quad_rule {
    double qx, qy;             /* quad corner in the drawing's space */
    int vx, vy;                /* viewport origin in the image */
    double off_x, off_y;       /* sample point of pixel (vx, vy) in the drawing's space */
    double step;               /* drawing units per image pixel (1, or 1/scale) */
    int clip_x0, clip_y0, clip_x1, clip_y1;
} quad_rule;

static void paint_quad(uint8_t *img, int w, int h, const quad_rule *q)
{
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            if (x < q->clip_x0 || x >= q->clip_x1 || y < q->clip_y0 || y >= q->clip_y1) continue;
            double sx = (x - q->vx) * q->step + q->off_x, sy = (y - q->vy) * q->step + q->off_y;
            if (!(sx >= q->qx && sx < q->qx + TEX && sy >= q->qy && sy < q->qy + TEX)) continue;
            double tu = sx - q->qx - 0.5, tv = sy - q->qy - 0.5;
            int i0 = (int)floor(tu), j0 = (int)floor(tv);
            double fu = tu - i0, fv = tv - j0;
            double acc[4] = { 0, 0, 0, 0 };
            for (int k = 0; k < 4; k++) {
                int i = clampi(i0 + (k & 1), 0, TEX - 1), j = clampi(j0 + (k >> 1), 0, TEX - 1);
                double wgt = ((k & 1) ? fu : 1.0 - fu) * ((k >> 1) ? fv : 1.0 - fv);
                xgd_color c = texel(i, j);
                acc[0] += wgt * c.r;
                acc[1] += wgt * c.g;
                acc[2] += wgt * c.b;
                acc[3] += wgt * c.a;
            }
            fx_put(img, w, x, y,
                   fx_rgba(fx_q8(acc[0] / 255.0), fx_q8(acc[1] / 255.0), fx_q8(acc[2] / 255.0),
                           fx_q8(acc[3] / 255.0)));
        }
    }
}

static quad_rule rule_at(double qx, double qy, int vx, int vy, int vw, int vh, double off)
{
    return (quad_rule){ qx, qy, vx, vy, off, off, 1.0, vx, vy, vx + vw, vy + vh };
}

/* A textured BasicEffect (no vertex colour, no lighting) with the given projection. */
static xgd_effect *basic_2d(xgdt_ctx *t, xgd_device *dev, xgd_texture *tex, bool half_pixel,
                            int vw, int vh)
{
    xgd_effect *fx = NULL;
    if (xgd_basic_effect_create(dev, &fx) != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_basic_effect_create: %s", xgdt_last_message());
        return NULL;
    }
    xgd_basic_effect_params p;
    xgd_basic_effect_get(fx, &p);
    p.texture_enabled = true;
    xgd_matrix proj = xgd_matrix_create_orthographic_off_center(0.0f, (float)vw, (float)vh, 0.0f,
                                                               0.0f, 1.0f);
    if (half_pixel) {
        /* XNA's idiom: CreateTranslation(-0.5, -0.5, 0) * CreateOrthographicOffCenter(...) */
        xgd_matrix half = xgd_matrix_create_translation(-0.5f, -0.5f, 0.0f);
        proj = xgd_matrix_multiply(&half, &proj);
    }
    xgd_result r = xgd_basic_effect_set(fx, &p);
    if (r == XGD_OK) r = xgd_basic_effect_set_projection(fx, &proj);
    if (r == XGD_OK) r = xgd_basic_effect_set_texture(fx, tex);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "BasicEffect setup returned %s (%s)",
                     xgd_result_name(r), xgdt_last_message());
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

/* The TEX x TEX quad at (x0, y0) of the drawing's space, uv 0..1. */
static xgd_result draw_quad(xgd_device *dev, float x0, float y0)
{
    xgd_vertex_position_color_texture q[4];
    const float xs[4] = { x0, x0 + TEX, x0 + TEX, x0 }, ys[4] = { y0, y0, y0 + TEX, y0 + TEX };
    const float us[4] = { 0, 1, 1, 0 }, vs[4] = { 0, 0, 1, 1 };
    for (int i = 0; i < 4; i++) {
        q[i].position = (xgd_vector3){ xs[i], ys[i], 0.0f };
        q[i].color = fx_rgba(255, 255, 255, 255);
        q[i].texture_coordinate = (xgd_vector2){ us[i], vs[i] };
    }
    xgd_vertex_position_color_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    return xgd_draw_user_primitives(
        dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}

/* ---- the option ---------------------------------------------------------------------------- */

XGD_TEST(PixelCenter_DeviceOption)
{
    xgd_device *dev = pc_device(t, 16, 16, XGD_PIXEL_CENTER_XNA);
    REQUIRE(dev != NULL);
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.pixel_center, XGD_PIXEL_CENTER_XNA); /* the zero default is XNA's rule */
    xgd_device_destroy(dev);

    dev = pc_device(t, 16, 16, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev != NULL);
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    CHECK_INT(info.pixel_center, XGD_PIXEL_CENTER_D3D10);
    xgd_device_destroy(dev);

    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.headless = true;
    dd.pixel_center = (xgd_pixel_center)7;
    xgd_device *bad = NULL;
    CHECK_RESULT(xgd_device_create(&dd, &bad), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(bad == NULL);
}

/* ---- BasicEffect in 2D ---------------------------------------------------------------------- */

/* One draw of the pattern at (qx, qy) through a BasicEffect in a (vx, vy, vw, vh) viewport of a
 * W x H back buffer; off is the sample point of the viewport's first pixel. */
static void basic_case(xgdt_ctx *t, xgd_pixel_center pc, bool half_pixel, const char *label,
                       double off)
{
    const int W = 48, H = 40;
    const int vx = 3, vy = 2, vw = 42, vh = 34;
    const float qx = 5, qy = 7;
    xgd_device *dev = pc_device(t, W, H, pc);
    REQUIRE(dev != NULL);
    xgd_texture *tex = pattern_texture(t, dev);
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    REQUIRE_OK(xgd_set_viewport(dev, &(xgd_viewport){ vx, vy, vw, vh, 0.0f, 1.0f }));
    REQUIRE_OK(xgd_set_sampler_state(
        dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP)));
    REQUIRE_OK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    xgd_effect *fx = basic_2d(t, dev, tex, half_pixel, vw, vh);
    REQUIRE(fx != NULL);
    CHECK_OK(draw_quad(dev, qx, qy));
    uint8_t *expected = fx_image(W, H, CLEAR);
    REQUIRE(expected != NULL);
    quad_rule q = rule_at(qx, qy, vx, vy, vw, vh, off);
    paint_quad(expected, W, H, &q);
    fx_expect_back_buffer(t, dev, label, expected, W, H, 1);
    free(expected);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PixelCenter_BasicEffect2D)
{
    /* XNA centres: the idiom's -0.5 cancels the rasterizer's half pixel, so pixel i samples
       user x = i + 0.5, a texel centre: crisp 1:1. */
    basic_case(t, XGD_PIXEL_CENTER_XNA, true, "xna_idiom_crisp", 0.5);
    /* XNA centres without the -0.5: pixel i samples user x = i, a texel boundary: the average
       of texels i-1 and i (and of four texels in 2D), the blur XNA shows. */
    basic_case(t, XGD_PIXEL_CENTER_XNA, false, "xna_plain_blurred", 0.0);
    /* D3D10 centres: the plain projection is crisp ... */
    basic_case(t, XGD_PIXEL_CENTER_D3D10, false, "d3d10_plain_crisp", 0.5);
    /* ... and XNA's idiom moves the sample point to the next texel boundary. */
    basic_case(t, XGD_PIXEL_CENTER_D3D10, true, "d3d10_idiom_blurred", 1.0);
}

/* ---- coverage ------------------------------------------------------------------------------- */

/* Pixels whose sample point the triangle (pixel coordinates of the full target) covers:
 * centre = (x, y) under XNA centres, (x + 0.5, y + 0.5) under D3D10 centres. */
static void paint_tri(uint8_t *img, int w, int h, const float xy[6], xgd_color c, int centre256)
{
    int64_t x[3], y[3];
    fx_snap_tri(xy, x, y);
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++)
            if (fx_covers(x, y, (int64_t)px * 256 + centre256, (int64_t)py * 256 + centre256))
                fx_put(img, w, px, py, c);
}

static void coverage_case(xgdt_ctx *t, xgd_pixel_center pc, const char *label)
{
    const int W = 64, H = 64;
    const int centre = pc == XGD_PIXEL_CENTER_XNA ? 0 : 128;
    xgd_device *dev = pc_device(t, W, H, pc);
    REQUIRE(dev != NULL);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx != NULL);
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    uint8_t *expected = fx_image(W, H, CLEAR);
    REQUIRE(expected != NULL);

    /* Edges on half pixels (where the two rules pick different rows and columns), on whole
       pixels, and diagonal ones through both. */
    static const float tris[][6] = {
        { 2.5f, 3.5f, 12.5f, 3.5f, 12.5f, 9.5f },     /* half-pixel axis edges + diagonal */
        { 2.5f, 3.5f, 12.5f, 9.5f, 2.5f, 9.5f },
        { 20.0f, 2.0f, 30.0f, 2.0f, 20.0f, 12.0f },   /* whole-pixel edges, diagonal */
        { 33.5f, 1.5f, 45.25f, 14.75f, 36.0f, 20.5f },
        { 4.25f, 30.5f, 27.5f, 24.0f, 15.5f, 44.5f },
        { 50.5f, 40.5f, 50.5f, 60.5f, 40.5f, 60.5f },
    };
    for (size_t i = 0; i < sizeof tris / sizeof tris[0]; i++) {
        xgd_color c = fx_rgba(40 + (int)i * 35, 250 - (int)i * 30, 90 + (int)i * 20, 255);
        CHECK_OK(fx_tri(dev, W, H, tris[i], 0.0f, c));
        paint_tri(expected, W, H, tris[i], c, centre);
    }
    fx_expect_back_buffer(t, dev, label, expected, W, H, 0);

    /* A quad far larger than a sub-viewport covers exactly the viewport's pixels under both
       rules (clipping stays on whole pixels), and a scissor rectangle cuts on whole pixels. */
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    xgd_color big = fx_rgba(200, 100, 30, 255);
    REQUIRE_OK(xgd_set_viewport(dev, &(xgd_viewport){ 5, 9, 20, 13, 0.0f, 1.0f }));
    CHECK_OK(fx_rect(dev, 2, 2, -3.0f, -3.0f, 5.0f, 5.0f, 0.0f, big)); /* NDC -4..4 */
    xgd_rasterizer_desc sd = { .cull_mode = XGD_CULL_NONE, .scissor_test_enable = true };
    xgd_rasterizer_state *scissor = fx_raster(t, dev, &sd);
    REQUIRE(scissor != NULL);
    REQUIRE_OK(xgd_set_rasterizer_state(dev, scissor));
    REQUIRE_OK(xgd_set_viewport(dev, &(xgd_viewport){ 30, 30, 30, 30, 0.0f, 1.0f }));
    REQUIRE_OK(xgd_set_scissor_rect(dev, (xgd_rect){ 37, 33, 11, 17 }));
    CHECK_OK(fx_rect(dev, 2, 2, -3.0f, -3.0f, 5.0f, 5.0f, 0.0f, big));
    uint8_t *exp2 = fx_image(W, H, CLEAR);
    REQUIRE(exp2 != NULL);
    fx_fill(exp2, W, H, 5, 9, 25, 22, big);
    fx_fill(exp2, W, H, 37, 33, 48, 50, big);
    char label2[64];
    snprintf(label2, sizeof label2, "%s_clip", label);
    fx_expect_back_buffer(t, dev, label2, exp2, W, H, 0);

    free(exp2);
    free(expected);
    xgd_rasterizer_state_destroy(scissor);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PixelCenter_EdgeCoverage)
{
    coverage_case(t, XGD_PIXEL_CENTER_XNA, "xna");
    coverage_case(t, XGD_PIXEL_CENTER_D3D10, "d3d10");
}

/* ---- SpriteBatch ---------------------------------------------------------------------------- */

static xgd_sprite sprite_at(float x, float y)
{
    xgd_sprite s;
    memset(&s, 0, sizeof s);
    s.position = (xgd_vector2){ x, y };
    s.scale = (xgd_vector2){ 1.0f, 1.0f };
    s.color = fx_rgba(255, 255, 255, 255);
    return s;
}

/* Sprites are crisp in both conventions: each pixel samples its texel's centre. */
static void sprite_case(xgdt_ctx *t, xgd_pixel_center pc)
{
    const int W = 48, H = 40;
    xgd_device *dev = pc_device(t, W, H, pc);
    REQUIRE(dev != NULL);
    xgd_texture *tex = pattern_texture(t, dev);
    REQUIRE(tex != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    uint8_t *expected = fx_image(W, H, CLEAR);
    REQUIRE(expected != NULL);
    quad_rule q;

    /* Deferred and Immediate in the full back buffer. */
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    xgd_sprite s = sprite_at(2, 3);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    q = rule_at(2, 3, 0, 0, W, H, 0.5);
    paint_quad(expected, W, H, &q);
    REQUIRE_OK(xgd_sprite_batch_begin(
        sb, &(xgd_sprite_batch_begin_desc){ .sort_mode = XGD_SPRITE_SORT_IMMEDIATE }));
    s = sprite_at(25, 20);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    /* A viewport resized after Begin: sprite coordinates are pixels of the new viewport. */
    REQUIRE_OK(xgd_set_viewport(dev, &(xgd_viewport){ 19, 1, 27, 18, 0.0f, 1.0f }));
    s = sprite_at(3, 1);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    q = rule_at(25, 20, 0, 0, W, H, 0.5);
    paint_quad(expected, W, H, &q);
    q = rule_at(3, 1, 19, 1, 27, 18, 0.5);
    paint_quad(expected, W, H, &q);
    fx_expect_back_buffer(t, dev,
                          pc == XGD_PIXEL_CENTER_XNA ? "xna_back_buffer" : "d3d10_back_buffer",
                          expected, W, H, 1);

    /* A sub-viewport set before Begin (Deferred), the sprite clipped by its right edge. */
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    REQUIRE_OK(xgd_set_viewport(dev, &(xgd_viewport){ 7, 5, 29, 31, 0.0f, 1.0f }));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    s = sprite_at(4, 9);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    s = sprite_at(21, 1);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    fx_fill(expected, W, H, 0, 0, W, H, CLEAR);
    q = rule_at(4, 9, 7, 5, 29, 31, 0.5);
    paint_quad(expected, W, H, &q);
    q = rule_at(21, 1, 7, 5, 29, 31, 0.5);
    paint_quad(expected, W, H, &q);
    fx_expect_back_buffer(t, dev, pc == XGD_PIXEL_CENTER_XNA ? "xna_viewport" : "d3d10_viewport",
                          expected, W, H, 1);
    free(expected);

    /* A render target whose size is no power of two. */
    const int RW = 40, RH = 24;
    xgd_texture *rt = fx_target(t, dev, RW, RH, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS, false);
    REQUIRE(rt != NULL);
    REQUIRE_OK(xgd_set_render_target(dev, rt));
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    s = sprite_at(17, 5);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));
    REQUIRE_OK(xgd_set_render_target(dev, NULL));
    expected = fx_image(RW, RH, CLEAR);
    REQUIRE(expected != NULL);
    q = rule_at(17, 5, 0, 0, RW, RH, 0.5);
    paint_quad(expected, RW, RH, &q);
    fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0,
                      pc == XGD_PIXEL_CENTER_XNA ? "xna_target" : "d3d10_target", expected, RW,
                      RH, 1);
    free(expected);

    xgd_texture_destroy(rt);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PixelCenter_SpriteBatchExactXna) { sprite_case(t, XGD_PIXEL_CENTER_XNA); }
XGD_FIXTURE(PixelCenter_SpriteBatchExactD3D10) { sprite_case(t, XGD_PIXEL_CENTER_D3D10); }

/* ---- a scaled back buffer ------------------------------------------------------------------- */

/* A 32x32 canvas stretched onto a 64x64 back buffer. Readback returns logical pixel x from
 * physical pixel 2x + 1, whose centre lies at logical x + 0.75 under D3D10 centres; under XNA
 * centres the geometry sits half a LOGICAL pixel lower right, so that pixel samples logical
 * x + 0.25, and XNA's -0.5 (SpriteBatch, the BasicEffect idiom) brings both to the drawing's
 * x + 0.75: a quarter of the way to the next texel, the same in both conventions. */
static void scaled_case(xgdt_ctx *t, xgd_pixel_center pc, const char *label)
{
    const int L = 32;
    xgd_device_desc dd;
    dd = (xgd_device_desc)XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 2 * L;
    dd.pp.back_buffer_height = 2 * L;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    dd.pp.presentation_mode = XGD_PRESENTATION_MODE_STRETCH;
    dd.pp.virtual_width = L;
    dd.pp.virtual_height = L;
    dd.pixel_center = pc;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev != NULL);
    xgd_texture *tex = pattern_texture(t, dev);
    REQUIRE(tex != NULL);
    REQUIRE_OK(xgd_clear_color(dev, CLEAR));
    REQUIRE_OK(xgd_set_sampler_state(
        dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP)));
    REQUIRE_OK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    xgd_effect *fx = basic_2d(t, dev, tex, pc == XGD_PIXEL_CENTER_XNA, L, L);
    REQUIRE(fx != NULL);
    CHECK_OK(draw_quad(dev, 2, 3));
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    xgd_sprite s = sprite_at(14, 15);
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &s));
    CHECK_OK(xgd_sprite_batch_end(sb));

    uint8_t *expected = fx_image(L, L, CLEAR);
    REQUIRE(expected != NULL);
    quad_rule q = rule_at(2, 3, 0, 0, L, L, 0.75);
    paint_quad(expected, L, L, &q);
    q = rule_at(14, 15, 0, 0, L, L, 0.75);
    paint_quad(expected, L, L, &q);
    fx_expect_back_buffer(t, dev, label, expected, L, L, 1);
    free(expected);
    xgd_sprite_batch_destroy(sb);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(PixelCenter_ScaledBackBuffer)
{
    scaled_case(t, XGD_PIXEL_CENTER_XNA, "xna");
    scaled_case(t, XGD_PIXEL_CENTER_D3D10, "d3d10");
}
