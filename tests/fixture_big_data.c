/*
 * fixture_big_data.c - transfers and draws far larger than a renderer's per-frame staging:
 * readbacks of a 4096x4096 render target (64 MiB) and of a 2560x1700 back buffer (17 MB),
 * partial readbacks between 8 and 16 MiB, uploads of 16 MiB and more (texture set_data, a
 * render target's partial set_data, vertex-buffer set_data), user-primitive draws of 400,000
 * triangles (19.2 MB of vertices), and XNA's per-draw primitive limit (HiDef 1,048,575, Reach
 * 65,535; beyond it NotSupportedException). Every pixel is checked against an image built from
 * what was cleared, drawn and uploaded.
 */
#include "fixture_util.h"

static const xgd_color RED = { 255, 0, 0, 255 }, GREEN = { 0, 255, 0, 255 },
                       BLUE = { 0, 0, 255, 255 };

/* Exact comparison. The images here are up to 64 MiB: a match is decided by memcmp and only a
   mismatch goes through the harness (first bad pixel, PNGs), so XGD_TEST_SAVE_IMAGES does not
   write 64 MiB PNGs of every passing run. */
static bool bd_expect(xgdt_ctx *t, const char *label, const uint8_t *actual,
                      const uint8_t *expected, int w, int h)
{
    if (memcmp(actual, expected, (size_t)w * (size_t)h * 4) == 0) return true;
    return xgdt_compare_rgba(t, label, actual, expected, w, h, 0);
}

/* Per-texel patterns whose every row differs, so an offset, pitch or order error shows. */
static xgd_color tex_pattern(int x, int y)
{
    return fx_rgba(x & 255, y & 255, ((x >> 8) << 4) | ((y >> 8) & 15), 255);
}

static xgd_color rt_pattern(int x, int y)
{
    return fx_rgba((x * 7) & 255, (y * 13) & 255, (x + y) & 255, 255 - ((x ^ y) & 63));
}

static uint8_t *pattern_image(int w, int h, xgd_color (*fn)(int, int))
{
    uint8_t *img = malloc((size_t)w * (size_t)h * 4);
    if (img == NULL) return NULL;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) fx_put(img, w, x, y, fn(x, y));
    return img;
}

/* A w x h Color texture of `pattern`, drawn 1:1 with point sampling at (x0, y0) of a tw x th
   target: every pixel centre samples its texel's centre. */
static void draw_pattern_texture(xgdt_ctx *t, xgd_device *dev, int tw, int th, int x0, int y0,
                                 int w, int h, xgd_color (*pattern)(int, int))
{
    uint8_t *img = pattern_image(w, h, pattern);
    REQUIRE(img);
    xgd_texture *tex = xgdt_image_texture(t, dev, w, h, img); /* one set_data of w*h*4 bytes */
    free(img);
    REQUIRE(tex);
    xgd_sampler_desc sd = XGD_SAMPLER_DESC_DEFAULT;
    sd.filter = XGD_FILTER_POINT;
    sd.address_u = sd.address_v = sd.address_w = XGD_ADDRESS_CLAMP;
    xgd_sampler_state *smp = fx_sampler(t, dev, &sd);
    xgd_effect *fx = fx_texture_effect(t, dev, tex);
    if (smp != NULL && fx != NULL) {
        CHECK_OK(xgd_set_sampler_state(dev, 0, smp));
        CHECK_OK(fx_tex_rect(dev, tw, th, (float)x0, (float)y0, (float)(x0 + w), (float)(y0 + h),
                             0.0f, 0.0f, 1.0f, 1.0f, XGD_COLOR_WHITE));
        CHECK_OK(xgd_set_sampler_state(dev, 0, NULL));
    }
    xgd_effect_destroy(fx);
    xgd_sampler_state_destroy(smp);
    xgd_texture_destroy(tex);
}

/* Copies the rect (x, y, w, h) of an image of width iw into a packed buffer. */
static uint8_t *crop(const uint8_t *img, int iw, int x, int y, int w, int h)
{
    uint8_t *out = malloc((size_t)w * (size_t)h * 4);
    if (out == NULL) return NULL;
    for (int r = 0; r < h; r++)
        memcpy(out + (size_t)r * (size_t)w * 4, img + ((size_t)(y + r) * (size_t)iw + (size_t)x) * 4,
               (size_t)w * 4);
    return out;
}

/*
 * A 4096x4096 render target (HiDef's largest): cleared, a 4096x1024 texture (a 16 MiB upload)
 * drawn 1:1, three rectangles, then a partial set_data (which seeds itself from a whole-level
 * read and writes the whole level back: 64 MiB each way). Read back whole (64 MiB) and as a
 * 4096x768 band (12 MiB, between 8 and 16 MiB).
 */
XGD_FIXTURE(BigData_RenderTargetReadback)
{
    enum { W = 4096, H = 4096 };
    const xgd_color C0 = { 10, 20, 30, 255 };
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *rt = fx_target(t, dev, W, H, XGD_DEPTH_FORMAT_NONE, 0,
                                XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
    REQUIRE(rt);
    CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_clear_color(dev, C0));
    enum { TX = 0, TY = 2560, TW = 4096, TH = 1024 };
    draw_pattern_texture(t, dev, W, H, TX, TY, TW, TH, tex_pattern);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(fx_rect(dev, W, H, 100, 100, 1100, 600, 0.0f, RED));
    CHECK_OK(fx_rect(dev, W, H, 3000, 200, 4000, 1900, 0.0f, GREEN));
    CHECK_OK(fx_rect(dev, W, H, 512, 2400, 2560, 2700, 0.0f, BLUE));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    enum { SX = 1000, SY = 1500, SW = 2000, SH = 1000 };
    uint8_t *patch = pattern_image(SW, SH, rt_pattern);
    REQUIRE(patch);
    xgd_rect sr = { SX, SY, SW, SH };
    CHECK_OK(xgd_texture_set_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, &sr, patch,
                                  (size_t)SW * SH * 4));

    uint8_t *e = fx_image(W, H, C0);
    REQUIRE(e);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) fx_put(e, W, TX + x, TY + y, tex_pattern(x, y));
    fx_fill(e, W, H, 100, 100, 1100, 600, RED);
    fx_fill(e, W, H, 3000, 200, 4000, 1900, GREEN);
    fx_fill(e, W, H, 512, 2400, 2560, 2700, BLUE);
    for (int y = 0; y < SH; y++)
        memcpy(e + ((size_t)(SY + y) * W + SX) * 4, patch + (size_t)y * SW * 4, (size_t)SW * 4);
    free(patch);

    uint8_t *a = NULL;
    if (xgdt_read_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, W, H, &a))
        bd_expect(t, "whole", a, e, W, H);
    free(a);
    enum { BY = 1024, BH = 768 };
    a = malloc((size_t)W * BH * 4);
    uint8_t *eb = crop(e, W, 0, BY, W, BH);
    REQUIRE(a && eb);
    xgd_rect br = { 0, BY, W, BH };
    xgd_result r = xgd_texture_get_data(rt, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, &br, a,
                                        (size_t)W * BH * 4);
    CHECK_OK(r);
    if (r == XGD_OK) bd_expect(t, "band_12MiB", a, eb, W, BH);
    free(a);
    free(eb);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

/*
 * A 2560x1700 back buffer (4.35 Mpixel, 17.4 MB): cleared, rectangles and a 300x200 texture
 * drawn 1:1; read back as a 2560x1200 band (12.3 MB, between 8 and 16 MiB) and whole, before
 * and after Present.
 */
XGD_FIXTURE(BigData_BackBufferReadback)
{
    enum { W = 2560, H = 1700 };
    const xgd_color C1 = { 200, 180, 40, 255 };
    /* D3D10 centres: tests readback, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    CHECK_OK(xgd_clear_color(dev, C1));
    enum { TX = 2100, TY = 100, TW = 300, TH = 200 };
    draw_pattern_texture(t, dev, W, H, TX, TY, TW, TH, rt_pattern);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    CHECK_OK(fx_rect(dev, W, H, 0, 0, 700, 300, 0.0f, RED));
    CHECK_OK(fx_rect(dev, W, H, 1800, 1200, 2560, 1700, 0.0f, GREEN));
    CHECK_OK(fx_rect(dev, W, H, 1000, 500, 1600, 1650, 0.0f, BLUE));

    uint8_t *e = fx_image(W, H, C1);
    REQUIRE(e);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) fx_put(e, W, TX + x, TY + y, rt_pattern(x, y));
    fx_fill(e, W, H, 0, 0, 700, 300, RED);
    fx_fill(e, W, H, 1800, 1200, 2560, 1700, GREEN);
    fx_fill(e, W, H, 1000, 500, 1600, 1650, BLUE);
    enum { BY = 200, BH = 1200 };
    uint8_t *eb = crop(e, W, 0, BY, W, BH);
    uint8_t *a = malloc((size_t)W * H * 4);
    REQUIRE(eb && a);
    xgd_rect br = { 0, BY, W, BH };
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) CHECK_OK(xgd_present(dev));
        xgd_result r = xgd_get_back_buffer_data(dev, &br, a, (size_t)W * BH * 4);
        CHECK_OK(r);
        if (r == XGD_OK) bd_expect(t, pass ? "presented_band_12MB" : "band_12MB", a, eb, W, BH);
        r = xgd_get_back_buffer_data(dev, NULL, a, (size_t)W * H * 4);
        CHECK_OK(r);
        if (r == XGD_OK) bd_expect(t, pass ? "presented_whole" : "whole", a, e, W, H);
    }
    free(a);
    free(eb);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- 400,000 coloured triangles --------------------------------------------------------- */

/* A 1000x800 back buffer as 500x400 cells of 2x2 pixels, each cell two triangles of its own
   colour: 200,000 cells, 400,000 triangles. `variant` changes every colour, so an image left
   over from an earlier draw cannot pass for the next one. */
enum { TRI_W = 1000, TRI_H = 800, CELL = 2, CELLS_X = TRI_W / CELL, CELLS_Y = TRI_H / CELL,
       CELLS = CELLS_X * CELLS_Y };

static xgd_color cell_color(int i, int variant)
{
    int k = i + variant * 77777;
    return fx_rgba(k & 255, (k >> 8) & 255, 255 - ((k >> 16) & 255), 255);
}

static uint8_t *cells_image(int variant)
{
    uint8_t *e = fx_image(TRI_W, TRI_H, XGD_COLOR_BLACK);
    if (e == NULL) return NULL;
    for (int i = 0; i < CELLS; i++) {
        int cx = (i % CELLS_X) * CELL, cy = (i / CELLS_X) * CELL;
        fx_fill(e, TRI_W, TRI_H, cx, cy, cx + CELL, cy + CELL, cell_color(i, variant));
    }
    return e;
}

/* Corner k (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left) of cell i. */
static xgd_vertex_position_color cell_corner(int i, int k, int variant)
{
    int cx = (i % CELLS_X) * CELL, cy = (i / CELLS_X) * CELL;
    float x = (float)(cx + (k == 1 || k == 2 ? CELL : 0));
    float y = (float)(cy + (k >= 2 ? CELL : 0));
    return fx_vpc(x, y, 0.0f, TRI_W, TRI_H, cell_color(i, variant));
}

static void expect_cells(xgdt_ctx *t, xgd_device *dev, const char *label, int variant)
{
    uint8_t *e = cells_image(variant);
    uint8_t *a = NULL;
    if (e != NULL && xgdt_read_back_buffer(t, dev, TRI_W, TRI_H, &a))
        bd_expect(t, label, a, e, TRI_W, TRI_H);
    else if (e == NULL)
        xgdt_fail_at(t, __FILE__, __LINE__, "out of memory");
    free(a);
    free(e);
}

XGD_FIXTURE(BigData_UserPrimitives400k)
{
    xgd_device *dev = fx_device(t, TRI_W, TRI_H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    const int tris = 2 * CELLS;

    /* 1. DrawUserPrimitives: 1.2 million VertexPositionColor, 19.2 MB */
    size_t nv = (size_t)tris * 3;
    xgd_vertex_position_color *v = malloc(nv * sizeof *v);
    REQUIRE(v);
    for (int i = 0; i < CELLS; i++) {
        static const int order[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) v[(size_t)i * 6 + (size_t)k] = cell_corner(i, order[k], 0);
    }
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, tris,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    expect_cells(t, dev, "user", 0);

    /* 2. DrawUserIndexedPrimitives: 800,000 VertexPositionColorTexture (19.2 MB), stored in
       reverse cell order so only the indices put them in place, and 1.2 million 32-bit indices */
    size_t nq = (size_t)CELLS * 4;
    xgd_vertex_position_color_texture *q = malloc(nq * sizeof *q);
    uint32_t *idx = malloc((size_t)tris * 3 * sizeof *idx);
    REQUIRE(q && idx);
    for (int i = 0; i < CELLS; i++) {
        size_t base = (size_t)(CELLS - 1 - i) * 4;
        for (int k = 0; k < 4; k++) {
            xgd_vertex_position_color c = cell_corner(i, k, 1);
            q[base + (size_t)k].position = c.position;
            q[base + (size_t)k].color = c.color;
            q[base + (size_t)k].texture_coordinate = (xgd_vector2){ 0.0f, 0.0f };
        }
        static const uint32_t order[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) idx[(size_t)i * 6 + (size_t)k] = (uint32_t)base + order[k];
    }
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_draw_user_indexed_primitives(
        dev, XGD_PRIMITIVE_TRIANGLE_LIST, q, 0, (int)nq, idx, 0, tris, XGD_INDEX_THIRTY_TWO_BITS,
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
    expect_cells(t, dev, "user_indexed", 1);
    free(q);
    free(idx);

    /* 3. one 19.2 MB vertex-buffer set_data, then DrawPrimitives from it */
    for (int i = 0; i < CELLS; i++) {
        static const int order[6] = { 0, 1, 2, 0, 2, 3 };
        for (int k = 0; k < 6; k++) v[(size_t)i * 6 + (size_t)k] = cell_corner(i, order[k], 2);
    }
    xgd_vertex_buffer *vb = NULL;
    xgd_vertex_buffer_desc vd = { .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
                                  .vertex_count = (int)nv };
    CHECK_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    if (vb != NULL) {
        CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, v, nv * sizeof *v, XGD_SET_DATA_NONE));
        CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
        CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
        CHECK_OK(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, tris));
        expect_cells(t, dev, "vertex_buffer", 2);
        CHECK_OK(xgd_set_vertex_buffer(dev, NULL, 0));
        xgd_vertex_buffer_destroy(vb);
    }
    free(v);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- the per-draw primitive limit ----------------------------------------------------------- */

/*
 * XNA 4.0's profiles cap one draw at MaxPrimitiveCount primitives: HiDef 1,048,575, Reach
 * 65,535; a larger count throws NotSupportedException on every draw call. A draw of exactly the
 * limit must draw all of it: all primitives but the last two are degenerate (no pixel) and the
 * last two fill a marker square, so a renderer that dropped or truncated the draw misses it.
 */
static void limit_case(xgdt_ctx *t, xgd_graphics_profile profile, int limit)
{
    enum { W = 64, H = 64 };
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.profile = profile;
    dd.pp.back_buffer_width = W;
    dd.pp.back_buffer_height = H;
    xgd_device *dev = xgdt_device(t, &dd);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    REQUIRE(fx && rs);
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const bool hidef = profile == XGD_GRAPHICS_PROFILE_HIDEF;
    const int over = limit + 1;
    const size_t isz = hidef ? 4 : 2;
    const xgd_index_element_size ies = hidef ? XGD_INDEX_THIRTY_TWO_BITS : XGD_INDEX_SIXTEEN_BITS;

    /* vertex 0 is a point (every degenerate triangle uses it thrice), 1..4 the marker square */
    xgd_vertex_position_color quad[5] = {
        fx_vpc(1, 1, 0, W, H, GREEN), fx_vpc(16, 16, 0, W, H, GREEN), fx_vpc(48, 16, 0, W, H, GREEN),
        fx_vpc(48, 48, 0, W, H, GREEN), fx_vpc(16, 48, 0, W, H, GREEN)
    };
    uint8_t *indices = calloc((size_t)over * 3, isz);
    /* the non-indexed draw: `over` triangles of vertex 0 copies, the last two the square */
    xgd_vertex_position_color *flat = malloc((size_t)over * 3 * sizeof *flat);
    REQUIRE(indices && flat);
    for (size_t i = 0; i < (size_t)over * 3; i++) flat[i] = quad[0];
    static const int sq[6] = { 1, 2, 3, 1, 3, 4 };
    uint8_t *e = fx_image(W, H, XGD_COLOR_BLACK);
    uint8_t *black = fx_image(W, H, XGD_COLOR_BLACK);
    REQUIRE(e && black);
    fx_fill(e, W, H, 16, 16, 48, 48, GREEN);

    /* exactly the limit: the last two primitives are the square */
    for (int k = 0; k < 6; k++) {
        size_t at = (size_t)(limit - 2) * 3 + (size_t)k;
        if (hidef) ((uint32_t *)indices)[at] = (uint32_t)sq[k];
        else ((uint16_t *)indices)[at] = (uint16_t)sq[k];
        flat[at] = quad[sq[k]];
    }
    char label[64];
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, quad, 0, 5,
                                              indices, 0, limit, ies, decl));
    snprintf(label, sizeof label, "%s_indexed_at_limit", hidef ? "hidef" : "reach");
    fx_expect_back_buffer(t, dev, label, e, W, H, 0);
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, flat, 0, limit, decl));
    snprintf(label, sizeof label, "%s_at_limit", hidef ? "hidef" : "reach");
    fx_expect_back_buffer(t, dev, label, e, W, H, 0);

    /* one more: refused by every draw call, nothing drawn (the square is now primitives
       limit-1 and limit, so a partial draw of the refused call would show it) */
    for (int k = 0; k < 6; k++) {
        size_t at = (size_t)(over - 2) * 3 + (size_t)k;
        if (hidef) ((uint32_t *)indices)[at] = (uint32_t)sq[k];
        else ((uint16_t *)indices)[at] = (uint16_t)sq[k];
        flat[at] = quad[sq[k]];
    }
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_RESULT(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, quad, 0, 5,
                                                  indices, 0, over, ies, decl),
                 XGD_ERROR_NOT_SUPPORTED);
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, flat, 0, over, decl),
                 XGD_ERROR_NOT_SUPPORTED);
    /* buffer draws: the buffers hold every vertex and index the count names */
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_vertex_buffer_desc vd = { .declaration = decl, .vertex_count = over * 3 };
    xgd_index_buffer_desc id = { .element_size = ies, .index_count = over * 3 };
    CHECK_OK(xgd_vertex_buffer_create(dev, &vd, &vb));
    CHECK_OK(xgd_index_buffer_create(dev, &id, &ib));
    if (vb != NULL && ib != NULL) {
        CHECK_OK(xgd_vertex_buffer_set_data(vb, 0, flat, (size_t)over * 3 * sizeof *flat,
                                            XGD_SET_DATA_NONE));
        CHECK_OK(xgd_index_buffer_set_data(ib, 0, indices, (size_t)over * 3 * isz,
                                           XGD_SET_DATA_NONE));
        CHECK_OK(xgd_set_vertex_buffer(dev, vb, 0));
        CHECK_OK(xgd_set_indices(dev, ib));
        CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, over),
                     XGD_ERROR_NOT_SUPPORTED);
        CHECK_RESULT(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 5, 0, over),
                     XGD_ERROR_NOT_SUPPORTED);
        /* strips and lists of lines count primitives the same way */
        CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_LINE_LIST, 0, over),
                     XGD_ERROR_NOT_SUPPORTED);
        CHECK_RESULT(xgd_draw_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, 0, over),
                     XGD_ERROR_NOT_SUPPORTED);
        CHECK_OK(xgd_set_vertex_buffer(dev, NULL, 0));
        CHECK_OK(xgd_set_indices(dev, NULL));
    }
    xgd_vertex_buffer_destroy(vb);
    xgd_index_buffer_destroy(ib);
    snprintf(label, sizeof label, "%s_over_limit", hidef ? "hidef" : "reach");
    fx_expect_back_buffer(t, dev, label, black, W, H, 0);

    free(e);
    free(black);
    free(flat);
    free(indices);
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(BigData_PrimitiveCountLimit)
{
    limit_case(t, XGD_GRAPHICS_PROFILE_HIDEF, 1048575);
    limit_case(t, XGD_GRAPHICS_PROFILE_REACH, 65535);
}

/* ---- device churn ---------------------------------------------------------------------------- */

/*
 * Creates and destroys XGD_TEST_CHURN devices of the renderer in sequence, each clearing to
 * its own colour and reading it back. Drivers may cap how many native instances a process can
 * create (NVIDIA 580: 29 Vulkan instances, and vkd3d makes one per D3D12 device), so a renderer
 * must not spend one per device. The default, 32, just passes that cap; AddressSanitizer builds,
 * where a lavapipe device costs about ten times as much, default to 12 to stay within CI's time
 * (unit.VkInstance_SharedAcrossDevices counts the instances there).
 */
#if defined(__SANITIZE_ADDRESS__)
#define CHURN_DEFAULT 12
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHURN_DEFAULT 12
#endif
#endif
#ifndef CHURN_DEFAULT
#define CHURN_DEFAULT 32
#endif

XGD_FIXTURE(Device_Churn)
{
    int n = CHURN_DEFAULT;
    const char *env = getenv("XGD_TEST_CHURN");
    if (env != NULL && env[0] != '\0') n = atoi(env);
    if (n < 1) n = 1;
    enum { W = 16, H = 16 };
    for (int i = 0; i < n; i++) {
        xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
        if (dev == NULL) {
            xgdt_fail_at(t, __FILE__, __LINE__, "device %d of %d could not be created", i + 1, n);
            return;
        }
        xgd_color c = fx_rgba(i & 255, (i >> 8) & 255, 255 - (i & 255), 255);
        CHECK_OK(xgd_clear_color(dev, c));
        uint8_t px[W * H * 4];
        xgd_result r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
        CHECK_OK(r);
        for (int p = 0; r == XGD_OK && p < W * H; p++) {
            const uint8_t *q = px + p * 4;
            if (q[0] != c.r || q[1] != c.g || q[2] != c.b || q[3] != c.a) {
                xgdt_fail_at(t, __FILE__, __LINE__, "device %d: pixel (%d,%d) is (%u,%u,%u,%u)",
                             i, p % W, p / W, q[0], q[1], q[2], q[3]);
                break;
            }
        }
        xgd_device_destroy(dev);
        if (t->failures > 0) return;
    }
}
