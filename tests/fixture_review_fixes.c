/*
 * fixture_review_fixes.c - pixel fixtures for review findings: shared clipped edges stay
 * watertight, MultiSampleMask ignores single-sample targets, and the standalone SpriteEffect's
 * default projection keeps depths in 0..1 visible. Expected values come from the rules, not
 * from the renderer: coverage exactly once along a shared edge, D3D9's multisample-mask rule,
 * and the resolve average of the covered samples.
 */
#include "fixture_util.h"

/* ---- shared edge crossing the near plane -------------------------------------------------- */

enum { CW = 256, CH = 256 };

typedef struct dvec4 {
    double x, y, z, w;
} dvec4;

/* Clip-space triangle (w = 1) clipped against z >= 0, in double; returns the vertex count. */
static int clip_near(const dvec4 in[3], dvec4 out[4])
{
    int n = 0;
    for (int i = 0; i < 3; i++) {
        dvec4 a = in[i], b = in[(i + 1) % 3];
        if (a.z >= 0.0) out[n++] = a;
        if ((a.z >= 0.0) != (b.z >= 0.0)) {
            double s = a.z / (a.z - b.z);
            out[n++] = (dvec4){ a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s, 0.0, 1.0 };
        }
    }
    return n;
}

static void to_pixels(dvec4 v, double *px, double *py)
{
    *px = (v.x + 1.0) * CW / 2.0;
    *py = (1.0 - v.y) * CH / 2.0;
}

static double seg_dist(double px, double py, double ax, double ay, double bx, double by)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    double s = l2 > 0.0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0.0;
    if (s < 0.0) s = 0.0;
    if (s > 1.0) s = 1.0;
    double ex = ax + s * dx - px, ey = ay + s * dy - py;
    return sqrt(ex * ex + ey * ey);
}

/* Inside the clipped polygon (convex, either winding), in pixels. */
static bool poly_inside(const double (*p)[2], int n, double x, double y)
{
    int pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        const double *a = p[i], *b = p[(i + 1) % n];
        double c = (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]);
        if (c > 0) pos++;
        if (c < 0) neg++;
    }
    return pos == 0 || neg == 0;
}

/*
 * Triangles (P, Q, R1) and (Q, P, R2) share the edge PQ; P is far off screen behind the near
 * plane, so both clip PQ, one walking it from P and one from Q. Drawn additively at 128/255
 * each with no depth buffer: a pixel covered by both reads 255 (overlap), an interior pixel
 * covered by neither reads 0 (crack). Top-left rule: every pixel centre of the union, away
 * from its outer boundary, is covered exactly once.
 */
static void shared_edge_case(xgdt_ctx *t, xgd_device *dev, const dvec4 P, const dvec4 Q,
                             const dvec4 R1, const dvec4 R2, int index)
{
    const xgd_color half = { 128, 128, 128, 255 };
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    const dvec4 tris[2][3] = { { P, Q, R1 }, { Q, P, R2 } };
    xgd_vertex_position_color v[6];
    for (int k = 0; k < 6; k++) {
        const dvec4 *s = &tris[k / 3][k % 3];
        v[k].position = (xgd_vector3){ (float)s->x, (float)s->y, (float)s->z };
        v[k].color = half;
    }
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    uint8_t *img = NULL;
    if (!xgdt_read_back_buffer(t, dev, CW, CH, &img)) return;

    /* The reference region, from the float vertices the renderer received, clipped in double. */
    double poly[2][4][2];
    int pn[2];
    for (int k = 0; k < 2; k++) {
        dvec4 in[3], out[4];
        for (int i = 0; i < 3; i++) {
            const xgd_vector3 *p = &v[k * 3 + i].position;
            in[i] = (dvec4){ p->x, p->y, p->z, 1.0 };
        }
        pn[k] = clip_near(in, out);
        for (int i = 0; i < pn[k]; i++) to_pixels(out[i], &poly[k][i][0], &poly[k][i][1]);
    }
    double pqx0, pqy0, pqx1, pqy1;
    to_pixels((dvec4){ v[0].position.x, v[0].position.y, 0, 1 }, &pqx0, &pqy0);
    to_pixels((dvec4){ v[1].position.x, v[1].position.y, 0, 1 }, &pqx1, &pqy1);
    double plen = hypot(pqx1 - pqx0, pqy1 - pqy0);

    int overlaps = 0, cracks = 0, interior = 0;
    for (int y = 0; y < CH; y++) {
        for (int x = 0; x < CW; x++) {
            uint8_t r = img[((size_t)y * CW + (size_t)x) * 4];
            double cx = x + 0.5, cy = y + 0.5;
            if (r > 200) {
                if (overlaps++ == 0)
                    xgdt_fail_at(t, __FILE__, __LINE__,
                                 "case %d: pixel (%d, %d) covered twice (%d)", index, x, y, r);
                continue;
            }
            bool in = false;
            double dmin = 1e30;
            for (int k = 0; k < 2; k++) {
                if (poly_inside((const double(*)[2])poly[k], pn[k], cx, cy)) in = true;
                for (int i = 0; i < pn[k]; i++) {
                    const double *a = poly[k][i], *b = poly[k][(i + 1) % pn[k]];
                    /* edges on the line PQ are the shared edge, not the union's boundary */
                    double da = fabs((pqx1 - pqx0) * (a[1] - pqy0) - (pqy1 - pqy0) * (a[0] - pqx0)) / plen;
                    double db = fabs((pqx1 - pqx0) * (b[1] - pqy0) - (pqy1 - pqy0) * (b[0] - pqx0)) / plen;
                    if (da < 1e-3 && db < 1e-3) continue;
                    double d = seg_dist(cx, cy, a[0], a[1], b[0], b[1]);
                    if (d < dmin) dmin = d;
                }
            }
            if (in && dmin > 1.0) {
                interior++;
                if (r != 128 && cracks++ == 0)
                    xgdt_fail_at(t, __FILE__, __LINE__,
                                 "case %d: interior pixel (%d, %d) reads %d, expected 128 (once)",
                                 index, x, y, r);
            }
        }
    }
    CHECK_MSG(interior > 1000, "case %d: the scene has only %d interior pixels", index, interior);
    if (overlaps + cracks > 0)
        xgdt_fail_at(t, __FILE__, __LINE__, "case %d: %d pixels covered twice, %d never", index,
                     overlaps, cracks);
    free(img);
}

XGD_FIXTURE(clip_shared_edge_is_watertight)
{
    xgd_device *dev = fx_device(t, CW, CH, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    xgd_rasterizer_state *rs = fx_cull_none(t, dev);
    xgd_blend_state *add = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
    REQUIRE(fx && rs && add);
    CHECK_OK(xgd_set_blend_state(dev, add));
    CHECK_OK(xgd_set_depth_stencil_state(
        dev, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    /* P far away (thousands of NDC units) makes the clip point computed from P's end lose
       bits to cancellation, so walking PQ from either end must give the same point. */
    uint32_t seed = 0x1234567u;
    for (int i = 0; i < 32; i++) {
        seed = seed * 1664525u + 1013904223u;
        double a = (double)(seed >> 8) / 16777216.0; /* 0..1 */
        seed = seed * 1664525u + 1013904223u;
        double b = (double)(seed >> 8) / 16777216.0;
        double ang = 6.2831853 * a;
        double far = 2000.0 + 1800.0 * b;
        dvec4 Q = { 0.1 * cos(ang * 3.0), 0.1 * sin(ang * 5.0), 0.5, 1.0 };
        dvec4 P = { Q.x + far * cos(ang), Q.y + far * sin(ang), 0.0, 1.0 };
        /* z(P) such that z = 0 about 1.2 NDC units from Q along QP */
        P.z = Q.z - Q.z * far / 1.2;
        /* R1, R2 on either side of the line, in front */
        double nx = -sin(ang), ny = cos(ang);
        dvec4 R1 = { Q.x + 0.8 * nx + 0.6 * cos(ang), Q.y + 0.8 * ny + 0.6 * sin(ang), 0.4, 1.0 };
        dvec4 R2 = { Q.x - 0.8 * nx + 0.5 * cos(ang), Q.y - 0.8 * ny + 0.5 * sin(ang), 0.3, 1.0 };
        shared_edge_case(t, dev, P, Q, R1, R2, i);
    }
    xgd_rasterizer_state_destroy(rs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- MultiSampleMask ------------------------------------------------------------------------ */

/* D3D9 D3DRS_MULTISAMPLEMASK (XNA's native state) "has no effect when rendering to a single
 * sample buffer"; on a 4x target it keeps only the samples whose bits are set. */
XGD_FIXTURE(multisample_mask_ignored_single_sample)
{
    enum { S = 16 };
    /* D3D10 centres: tests sample mask, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, S, S, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
    bd.multisample_mask = 0x2; /* sample 0 excluded */
    xgd_blend_state *bs = fx_blend(t, dev, &bd);
    REQUIRE(bs);
    CHECK_OK(xgd_set_blend_state(dev, bs));
    CHECK_OK(xgd_set_depth_stencil_state(
        dev, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    const xgd_color white = { 255, 255, 255, 255 }, black = { 0, 0, 0, 255 };

    /* single-sample back buffer: the whole rectangle is written */
    CHECK_OK(xgd_clear_color(dev, black));
    CHECK_OK(fx_rect(dev, S, S, 4, 4, 12, 12, 0.5f, white));
    uint8_t *exp = fx_image(S, S, black);
    REQUIRE(exp);
    fx_fill(exp, S, S, 4, 4, 12, 12, white);
    fx_expect_back_buffer(t, dev, "single", exp, S, S, 0);

    /* 4x target: only sample 1 of each covered pixel, resolved to (1 + 0 + 0 + 0) / 4 */
    if (fx_max_msaa(dev) >= 4) {
        xgd_texture *rt = fx_target(t, dev, S, S, XGD_DEPTH_FORMAT_NONE, 4,
                                    XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, false);
        if (rt) {
            CHECK_OK(xgd_set_render_target(dev, rt));
            CHECK_OK(xgd_clear_color(dev, black));
            CHECK_OK(fx_rect(dev, S, S, 4, 4, 12, 12, 0.5f, white));
            CHECK_OK(xgd_set_render_target(dev, NULL));
            const uint8_t q = fx_q8(0.25);
            fx_fill(exp, S, S, 4, 4, 12, 12, fx_rgba(q, q, q, 255));
            fx_expect_texture(t, rt, XGD_CUBE_MAP_FACE_POSITIVE_X, 0, "msaa4", exp, S, S, 1);
            xgd_texture_destroy(rt);
        }
    }
    free(exp);
    xgd_blend_state_destroy(bs);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* ---- SpriteEffect default projection --------------------------------------------------------- */

/* Without a matrix, SpriteEffect uses the pixel projection of the viewport with near 0 and
 * far -1 (as SpriteBatch): z passes through, so a vertex at z = 0.5 is inside 0 <= z <= w. */
XGD_FIXTURE(sprite_effect_default_projection_keeps_depth)
{
    enum { S = 32 };
    xgd_device *dev = fx_device(t, S, S, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = xgdt_solid_texture(t, dev, 2, 2, (xgd_color){ 255, 255, 255, 255 });
    xgd_effect *fx = NULL;
    REQUIRE(tex);
    REQUIRE_OK(xgd_sprite_effect_create(dev, &fx));
    CHECK_OK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE)));
    CHECK_OK(xgd_set_depth_stencil_state(
        dev, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    CHECK_OK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    const xgd_color red = { 255, 0, 0, 255 }, black = { 0, 0, 0, 255 };
    const float depths[3] = { 0.0f, 0.5f, 1.0f };
    uint8_t *exp = fx_image(S, S, black);
    REQUIRE(exp);
    fx_fill(exp, S, S, 8, 8, 24, 24, red);
    for (int d = 0; d < 3; d++) {
        CHECK_OK(xgd_clear_color(dev, black));
        CHECK_OK(xgd_effect_apply(fx));
        CHECK_OK(xgd_set_texture(dev, 0, tex));
        xgd_vertex_position_color_texture q[6];
        const float xs[6] = { 8, 24, 24, 8, 24, 8 }, ys[6] = { 8, 8, 24, 8, 24, 24 };
        for (int i = 0; i < 6; i++) {
            q[i].position = (xgd_vector3){ xs[i], ys[i], depths[d] };
            q[i].color = red;
            q[i].texture_coordinate = (xgd_vector2){ 0.5f, 0.5f };
        }
        CHECK_OK(xgd_draw_user_primitives(
            dev, XGD_PRIMITIVE_TRIANGLE_LIST, q, 0, 2,
            xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)));
        char label[32];
        snprintf(label, sizeof label, "z%d", d);
        fx_expect_back_buffer(t, dev, label, exp, S, S, 0);
    }
    free(exp);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
