/*
 * fixture_raster.c - rasterization rules: pixel centres (Direct3D 10's at .5, and XNA's at
 * whole coordinates for the fill rule and shared edges), the top-left fill rule on
 * 1/256-snapped positions, shared edges, culling, full-screen coverage, indexed and strip
 * topologies, perspective-correct interpolation.
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

/* Triangles chosen so edges run exactly through pixel centres (top, left, right, bottom and
 * diagonal edges), plus a sliver and off-grid vertices that need snapping. */
static const float fill_tris[][6] = {
    { 4, 4, 20, 4, 4, 20 },                          /* hypotenuse through centres x+y=23 */
    { 24.5f, 4.5f, 40.5f, 4.5f, 40.5f, 20.5f },      /* top and right edges on centres */
    { 44.5f, 4.5f, 60.5f, 20.5f, 44.5f, 20.5f },     /* left and bottom edges on centres */
    { 2.25f, 24, 62, 25.75f, 30, 27.125f },          /* long sliver */
    { 5.3333f, 30.1f, 25.77f, 48.9f, 12.5f, 52.5f }, /* off-grid: snapping decides */
    { 32.5f, 30.5f, 60.5f, 44.5f, 32.5f, 60.5f },    /* slope 1/2 edges through centres */
    { 40.5f, 62.5f, 62.5f, 50.5f, 62.5f, 62.5f },    /* bottom edge on centres, right edge */
};
static const xgd_color fill_colors[] = {
    { 255, 0, 0, 255 }, { 0, 255, 0, 255 }, { 0, 0, 255, 255 }, { 255, 255, 0, 255 },
    { 255, 0, 255, 255 }, { 0, 255, 255, 255 }, { 255, 128, 64, 255 },
};

/* The top-left rule under both pixel-centre conventions (XNA's samples at whole coordinates). */
static void fill_rule_case(xgdt_ctx *t, xgd_pixel_center centers, const char *label,
                           const char *label_reversed)
{
    enum { W = 64, H = 64 };
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, centers);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    uint8_t *expected = fx_image(W, H, BLACK);
    REQUIRE(fx && rs && expected);

    CHECK_OK(xgd_clear_color(dev, BLACK));
    for (size_t i = 0; i < sizeof fill_tris / sizeof fill_tris[0]; i++) {
        CHECK_OK(fx_tri(dev, W, H, fill_tris[i], 0.0f, fill_colors[i]));
        float ref[6];
        fx_centered_tri(fill_tris[i], centers, ref);
        fx_raster_tri(expected, W, H, ref, fill_colors[i]);
    }
    fx_expect_back_buffer(t, dev, label, expected, W, H, 0);

    /* The same triangles with the opposite winding must cover the same pixels. */
    CHECK_OK(xgd_clear_color(dev, BLACK));
    for (size_t i = 0; i < sizeof fill_tris / sizeof fill_tris[0]; i++) {
        const float *s = fill_tris[i];
        float r[6] = { s[0], s[1], s[4], s[5], s[2], s[3] };
        CHECK_OK(fx_tri(dev, W, H, r, 0.0f, fill_colors[i]));
    }
    fx_expect_back_buffer(t, dev, label_reversed, expected, W, H, 0);

    free(expected);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(Raster_FillRuleTriangles)
{
    fill_rule_case(t, XGD_PIXEL_CENTER_D3D10, "fill", "fill_reversed");
    fill_rule_case(t, XGD_PIXEL_CENTER_XNA, "fill_xna", "fill_reversed_xna");
}

/* Pixels on an edge shared by two triangles belong to exactly one of them: with additive
 * blending a hole reads 0 and a double hit reads twice the colour. */
static void shared_edges_case(xgdt_ctx *t, xgd_pixel_center centers, const char *label)
{
    enum { W = 64, H = 64 };
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, centers);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.target[0].color_source_blend = XGD_BLEND_ONE;
    bd.target[0].color_destination_blend = XGD_BLEND_ONE;
    bd.target[0].alpha_source_blend = XGD_BLEND_ONE;
    bd.target[0].alpha_destination_blend = XGD_BLEND_ONE;
    xgd_blend_state *add = fx_blend(t, dev, &bd);
    REQUIRE(fx && rs && add);
    CHECK_OK(xgd_set_blend_state(dev, add));

    /* a skewed quad split on its diagonal, a fan around an off-grid centre, and a quad whose
       diagonal runs through pixel centres */
    float tris[16][6];
    int n = 0;
    const float quad[4][2] = { { 3.5f, 2.25f }, { 29.75f, 6.5f }, { 27.0f, 28.5f }, { 5.125f, 24.0f } };
    float t0[6] = { quad[0][0], quad[0][1], quad[1][0], quad[1][1], quad[2][0], quad[2][1] };
    float t1[6] = { quad[0][0], quad[0][1], quad[2][0], quad[2][1], quad[3][0], quad[3][1] };
    memcpy(tris[n++], t0, sizeof t0);
    memcpy(tris[n++], t1, sizeof t1);
    const float cx = 47.3f, cy = 16.6f;
    const float ring[6][2] = { { 34, 4 }, { 50, 2.5f }, { 62, 12 }, { 60, 30 }, { 44, 31 }, { 35, 20 } };
    for (int i = 0; i < 6; i++) {
        float f[6] = { cx, cy, ring[i][0], ring[i][1], ring[(i + 1) % 6][0], ring[(i + 1) % 6][1] };
        memcpy(tris[n++], f, sizeof f);
    }
    float d0[6] = { 4.5f, 36.5f, 28.5f, 36.5f, 28.5f, 60.5f };
    float d1[6] = { 4.5f, 36.5f, 28.5f, 60.5f, 4.5f, 60.5f };
    memcpy(tris[n++], d0, sizeof d0);
    memcpy(tris[n++], d1, sizeof d1);
    float s0[6] = { 36, 36, 60, 40, 40, 60 };
    float s1[6] = { 60, 40, 40, 60, 58, 62 };
    memcpy(tris[n++], s0, sizeof s0);
    memcpy(tris[n++], s1, sizeof s1);

    const xgd_color c = { 96, 64, 32, 100 };
    CHECK_OK(xgd_clear(dev, XGD_CLEAR_TARGET, (xgd_vector4){ 0, 0, 0, 0 }, 1.0f, 0));
    for (int i = 0; i < n; i++) CHECK_OK(fx_tri(dev, W, H, tris[i], 0.0f, c));

    uint8_t *expected = fx_image(W, H, XGD_COLOR_TRANSPARENT);
    REQUIRE(expected);
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            int k = 0;
            for (int i = 0; i < n; i++) {
                float ref[6];
                fx_centered_tri(tris[i], centers, ref);
                k += fx_covers_pixel(ref, x, y);
            }
            CHECK_MSG(k <= 1, "reference covers pixel (%d,%d) %d times", x, y, k);
            fx_put(expected, W, x, y, fx_rgba(c.r * k, c.g * k, c.b * k, c.a * k));
        }
    }
    fx_expect_back_buffer(t, dev, label, expected, W, H, 0);

    free(expected);
    xgd_set_blend_state(dev, NULL);
    xgd_blend_state_destroy(add);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(Raster_SharedEdgesCoverOnce)
{
    shared_edges_case(t, XGD_PIXEL_CENTER_D3D10, "additive");
    shared_edges_case(t, XGD_PIXEL_CENTER_XNA, "additive_xna");
}

/* Front face = clockwise on screen; CullCounterClockwiseFace (the default) removes CCW. */
XGD_FIXTURE(Raster_CullModes)
{
    enum { W = 64, H = 32 };
    /* D3D10 centres: tests culling, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const float cw[6] = { 4, 4, 28, 6, 8, 28 };    /* right then down: clockwise on screen */
    const float ccw[6] = { 36, 4, 40, 28, 60, 6 }; /* down then right: counter-clockwise */
    const xgd_color red = { 255, 0, 0, 255 }, green = { 0, 255, 0, 255 };
    struct {
        const char *label;
        xgd_rasterizer_state *state;
        bool draw_cw, draw_ccw;
    } cases[] = {
        { "default", NULL, true, false },
        { "cull_ccw", xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE), true, false },
        { "cull_cw", xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_CLOCKWISE), false, true },
        { "cull_none", xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE), true, true },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (i > 0) REQUIRE(cases[i].state);
        CHECK_OK(xgd_set_rasterizer_state(dev, cases[i].state));
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(fx_tri(dev, W, H, cw, 0.0f, red));
        CHECK_OK(fx_tri(dev, W, H, ccw, 0.0f, green));
        uint8_t *expected = fx_image(W, H, BLACK);
        REQUIRE(expected);
        if (cases[i].draw_cw) fx_raster_tri(expected, W, H, cw, red);
        if (cases[i].draw_ccw) fx_raster_tri(expected, W, H, ccw, green);
        fx_expect_back_buffer(t, dev, cases[i].label, expected, W, H, 0);
        free(expected);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* A quad on NDC [-1,1] covers every pixel of a target of any size; one reaching past the
 * edges (clipped) does too. */
XGD_FIXTURE(Raster_FullScreenQuad)
{
    enum { W = 61, H = 37 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const float ext[2] = { 1.0f, 3.0f };
    const xgd_color colors[2] = { { 10, 200, 30, 255 }, { 250, 20, 130, 255 } };
    for (int k = 0; k < 2; k++) {
        float e = ext[k];
        xgd_vertex_position_color v[4] = {
            { { -e, e, 0 }, colors[k] }, { { e, e, 0 }, colors[k] },
            { { e, -e, 0 }, colors[k] }, { { -e, -e, 0 }, colors[k] },
        };
        const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
        CHECK_OK(xgd_clear_color(dev, BLACK));
        CHECK_OK(xgd_draw_user_indexed_primitives(
            dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 4, idx, 0, 2, XGD_INDEX_SIXTEEN_BITS,
            xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
        uint8_t *expected = fx_image(W, H, colors[k]);
        REQUIRE(expected);
        fx_expect_back_buffer(t, dev, k ? "oversized" : "exact", expected, W, H, 0);
        free(expected);
    }
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* The same clockwise geometry through every topology and index size gives the same pixels;
 * default culling proves the strip's alternating winding is handled. */
XGD_FIXTURE(Raster_Topologies)
{
    enum { W = 32, H = 32 };
    /* D3D10 centres: tests topologies, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const xgd_color c = { 30, 160, 240, 255 };
    /* strip order: v0 top-left, v1 top-right, v2 bottom-left, v3 bottom-right of a skewed quad */
    const float p[4][2] = { { 3.5f, 4.25f }, { 27.0f, 2.5f }, { 5.0f, 29.5f }, { 29.5f, 26.75f } };
    xgd_vertex_position_color v[4];
    for (int i = 0; i < 4; i++) v[i] = fx_vpc(p[i][0], p[i][1], 0.0f, W, H, c);
    const float ta[6] = { p[0][0], p[0][1], p[1][0], p[1][1], p[2][0], p[2][1] };
    const float tb[6] = { p[2][0], p[2][1], p[1][0], p[1][1], p[3][0], p[3][1] };
    uint8_t *expected = fx_image(W, H, BLACK);
    REQUIRE(expected);
    fx_raster_tri(expected, W, H, ta, c);
    fx_raster_tri(expected, W, H, tb, c);

    xgd_vertex_position_color list[6] = { v[0], v[1], v[2], v[2], v[1], v[3] };
    const uint16_t i16[6] = { 0, 1, 2, 2, 1, 3 };
    const uint32_t i32[8] = { 99, 99, 0, 1, 2, 2, 1, 3 };

    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, list, 0, 2, decl));
    fx_expect_back_buffer(t, dev, "list", expected, W, H, 0);

    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, 2, decl));
    fx_expect_back_buffer(t, dev, "strip", expected, W, H, 0);

    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 4, i16, 0,
                                              2, XGD_INDEX_SIXTEEN_BITS, decl));
    fx_expect_back_buffer(t, dev, "indexed16", expected, W, H, 0);

    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 4, i32, 2,
                                              2, XGD_INDEX_THIRTY_TWO_BITS, decl));
    fx_expect_back_buffer(t, dev, "indexed32_offset", expected, W, H, 0);

    free(expected);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/*
 * A trapezoid whose right edge is three times as far as its left edge (w = 1 .. 3) fills the
 * screen. Perspective-correct interpolation: with screen-space barycentrics b_i of the
 * covering triangle, the attribute weights are (b_i / w_i) / sum_j (b_j / w_j). Affine
 * interpolation would put u = 0.5 at the centre column instead of 0.25.
 */
XGD_FIXTURE(Raster_PerspectiveCorrectTexture)
{
    enum { W = 64, H = 16, TW = 8, TH = 2 };
    /* D3D10 centres: tests perspective division, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    uint8_t texels[TW * TH * 4];
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++)
            fx_put(texels, TW, x, y, fx_rgba(x * 32 + 16, y ? 255 : 0, 255 - x * 32, 255));
    xgd_texture *tex = xgdt_image_texture(t, dev, TW, TH, texels);
    REQUIRE(tex);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    REQUIRE(fx);
    /* clip = (x, y, 0.5 z, z): a hand-built projection so the expectation needs no library math */
    xgd_matrix proj;
    memset(&proj, 0, sizeof proj);
    proj.m11 = 1;
    proj.m22 = 1;
    proj.m33 = 0.5f;
    proj.m34 = 1;
    CHECK_OK(xgd_basic_effect_set_projection(fx, &proj));
    CHECK_OK(xgd_effect_apply(fx));
    xgd_sampler_state *ss = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
    CHECK_OK(xgd_set_sampler_state(dev, 0, ss));
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(rs);

    const xgd_color white = XGD_COLOR_WHITE;
    xgd_vertex_position_color_texture q[4] = {
        { { -1, 1, 1 }, white, { 0, 0 } }, { { 3, 3, 3 }, white, { 1, 0 } },
        { { 3, -3, 3 }, white, { 1, 1 } }, { { -1, -1, 1 }, white, { 0, 1 } },
    };
    xgd_vertex_position_color_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                      xgd_vertex_declaration_stock(
                                          dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    uint8_t *actual = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, W, H, &actual));
    uint8_t *expected = fx_image(W, H, BLACK);
    REQUIRE(expected);
    /* screen positions (pixels), w and uv of the corners; triangles (0,1,2) and (0,2,3) */
    const double sx[4] = { 0, W, W, 0 }, sy[4] = { 0, 0, H, H }, w[4] = { 1, 3, 3, 1 };
    const double tu[4] = { 0, 1, 1, 0 }, tv[4] = { 0, 0, 1, 1 };
    const int tri_idx[2][3] = { { 0, 1, 2 }, { 0, 2, 3 } };
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            double px = x + 0.5, py = y + 0.5;
            double u = -1, vv = -1;
            for (int k = 0; k < 2; k++) {
                const int *id = tri_idx[k];
                float xy[6];
                for (int i = 0; i < 3; i++) {
                    xy[i * 2] = (float)sx[id[i]];
                    xy[i * 2 + 1] = (float)sy[id[i]];
                }
                if (!fx_covers_pixel(xy, x, y)) continue;
                double b[3], sum = 0;
                for (int i = 0; i < 3; i++) {
                    int a = id[(i + 1) % 3], c = id[(i + 2) % 3];
                    b[i] = (sx[a] - px) * (sy[c] - py) - (sy[a] - py) * (sx[c] - px);
                    b[i] /= w[id[i]];
                    sum += b[i];
                }
                u = vv = 0;
                for (int i = 0; i < 3; i++) {
                    u += b[i] / sum * tu[id[i]];
                    vv += b[i] / sum * tv[id[i]];
                }
            }
            double fu = u * TW, fv = vv * TH;
            /* within rounding of a texel boundary either neighbour is right: take the actual */
            if (u < 0 || fabs(fu - floor(fu + 0.5)) < 1e-3 || fabs(fv - floor(fv + 0.5)) < 1e-3) {
                CHECK_MSG(u >= 0, "reference covers pixel (%d,%d) with no triangle", x, y);
                fx_put(expected, W, x, y, fx_get(actual, W, x, y));
                continue;
            }
            int tx = (int)floor(fu), ty = (int)floor(fv);
            fx_put(expected, W, x, y, fx_get(texels, TW, tx, ty));
        }
    }
    xgdt_compare_rgba(t, "perspective", actual, expected, W, H, 0);
    free(actual);
    free(expected);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* A vertex inside the clip volume whose w is the smallest denormal (found by the api fuzzer:
 * the software rasterizer snapped x / w = 0 * inf = NaN through llrint, undefined behaviour, and
 * then multiplied INT64_MIN-based edge terms). Whether such a triangle is drawn is not defined
 * (hardware that flushes denormals sees w = 0), but the draw must succeed, draw nothing outside
 * the triangle's own footprint, and leave the device drawing normally. */
XGD_FIXTURE(Raster_DenormalW)
{
    enum { W = 32, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    /* w = z * M34 + M44: z = 0 gives w = FLT_TRUE_MIN, z = 1 gives w = 1 */
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(fx, &p));
    p.projection.m[11] = 1.0f;
    p.projection.m[15] = 0x1p-149f;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    const xgd_color red = { 255, 0, 0, 255 };
    xgd_vertex_position_color v[3] = {
        { { 0.0f, 0.0f, 0.0f }, red }, { { 0.5f, 0.0f, 1.0f }, red }, { { 0.0f, -0.5f, 1.0f }, red } };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    /* NDC (0,0), (0.5,0), (0,-0.5): pixels [16,24] x [16,24] with a pixel of margin */
    uint8_t *actual = NULL;
    if (xgdt_read_back_buffer(t, dev, W, H, &actual)) {
        int stray = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                bool near = x >= 15 && x <= 25 && y >= 15 && y <= 25;
                xgd_color c = fx_get(actual, W, x, y);
                if (!near && (c.r != 0 || c.g != 0 || c.b != 0)) stray++;
            }
        CHECK_MSG(stray == 0, "%d pixels drawn outside the triangle's footprint", stray);
        free(actual);
    }

    /* the device still draws: identity matrices, an ordinary triangle */
    CHECK_OK(xgd_basic_effect_get(fx, &p));
    p.projection = xgd_matrix_identity();
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    static const float tri[6] = { 4, 4, 28, 4, 4, 28 };
    const xgd_color green = { 0, 255, 0, 255 };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_tri(dev, W, H, tri, 0.0f, green));
    uint8_t *expected = fx_image(W, H, BLACK);
    REQUIRE(expected);
    float ref[6];
    fx_centered_tri(tri, XGD_PIXEL_CENTER_XNA, ref);
    fx_raster_tri(expected, W, H, ref, green);
    fx_expect_back_buffer(t, dev, "after", expected, W, H, 0);
    free(expected);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
