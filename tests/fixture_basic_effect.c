/*
 * fixture_basic_effect.c - the stock BasicEffect: vertex colour interpolation, texture and
 * diffuse modulation (XNA premultiplies DiffuseColor by Alpha), one directional light
 * (diffuse * max(0, dot(n, -L)) * light + emissive) per vertex and per pixel, and linear fog
 * (lerp(colour, fogColour * alpha, saturate((distance - start) / (end - start)))).
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

static xgd_effect *plain_effect(xgdt_ctx *t, xgd_device *dev, xgd_basic_effect_params *p)
{
    xgd_effect *fx = NULL;
    xgd_result r = xgd_basic_effect_create(dev, &fx);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "xgd_basic_effect_create: %s", xgd_result_name(r));
        return NULL;
    }
    CHECK_OK(xgd_basic_effect_get(fx, p));
    return fx;
}

/* Colours interpolate linearly across a triangle drawn with w = 1 (barycentric weights at
 * the pixel centre). */
XGD_FIXTURE(BasicEffect_VertexColor)
{
    enum { W = 64, H = 64 };
    /* D3D10 centres: colour interpolation, its gradient derived at .5 centres. */
    xgd_device *dev = fx_device_centers(t, W, H, XGD_DEPTH_FORMAT_NONE, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    xgd_effect *fx = fx_effect(t, dev);
    REQUIRE(fx);
    const float xy[6] = { 3.5f, 2.25f, 61.0f, 20.75f, 12.125f, 60.5f };
    const xgd_color vc[3] = { { 255, 0, 0, 255 }, { 0, 255, 0, 128 }, { 0, 0, 255, 0 } };
    xgd_vertex_position_color v[3];
    for (int i = 0; i < 3; i++) v[i] = fx_vpc(xy[i * 2], xy[i * 2 + 1], 0, W, H, vc[i]);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    double x0 = xy[0], y0 = xy[1], x1 = xy[2], y1 = xy[3], x2 = xy[4], y2 = xy[5];
    double area = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (!fx_covers_pixel(xy, x, y)) continue;
            double px = x + 0.5, py = y + 0.5;
            double l0 = ((x1 - px) * (y2 - py) - (y1 - py) * (x2 - px)) / area;
            double l1 = ((x2 - px) * (y0 - py) - (y2 - py) * (x0 - px)) / area;
            double l2 = 1.0 - l0 - l1;
            double c[4];
            for (int ch = 0; ch < 4; ch++) {
                const uint8_t *a = &vc[0].r, *b = &vc[1].r, *d = &vc[2].r;
                c[ch] = (l0 * a[ch] + l1 * b[ch] + l2 * d[ch]) / 255.0;
            }
            fx_put(e, W, x, y, fx_rgba(fx_q8(c[0]), fx_q8(c[1]), fx_q8(c[2]), fx_q8(c[3])));
        }
    fx_expect_back_buffer(t, dev, "gradient", e, W, H, 1);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* colour = tex * (DiffuseColor * Alpha, Alpha) * vertex colour; without texture and vertex
 * colour the whole quad is the premultiplied diffuse colour. */
XGD_FIXTURE(BasicEffect_TextureModulation)
{
    enum { W = 32, H = 16 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    const xgd_color T[4] = { { 255, 128, 64, 255 }, { 10, 250, 100, 200 }, { 90, 30, 240, 100 }, { 255, 255, 255, 255 } };
    uint8_t tx[16];
    for (int i = 0; i < 4; i++) fx_put(tx, 2, i % 2, i / 2, T[i]);
    xgd_texture *tex = xgdt_image_texture(t, dev, 2, 2, tx);
    REQUIRE(tex);
    xgd_basic_effect_params p;
    xgd_effect *fx = plain_effect(t, dev, &p);
    REQUIRE(fx);
    p.texture_enabled = true;
    p.vertex_color_enabled = true;
    p.diffuse_color = (xgd_vector3){ 0.5f, 1.0f, 0.25f };
    p.alpha = 0.8f;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_basic_effect_set_texture(fx, tex));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    const xgd_color vc = { 200, 100, 255, 230 };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    CHECK_OK(fx_tex_rect(dev, W, H, 0, 0, 8, 8, 0, 0, 1, 1, vc));
    const double d[3] = { 0.5, 1.0, 0.25 }, alpha = 0.8f;
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 4; i++) {
        const uint8_t *tc = &T[i].r, *v = &vc.r;
        double c[4];
        for (int ch = 0; ch < 3; ch++) c[ch] = tc[ch] / 255.0 * d[ch] * alpha * v[ch] / 255.0;
        c[3] = tc[3] / 255.0 * alpha * v[3] / 255.0;
        fx_fill(e, W, H, (i % 2) * 4, (i / 2) * 4, (i % 2) * 4 + 4, (i / 2) * 4 + 4,
                fx_rgba(fx_q8(c[0]), fx_q8(c[1]), fx_q8(c[2]), fx_q8(c[3])));
    }
    /* no texture, no vertex colour */
    p.texture_enabled = false;
    p.vertex_color_enabled = false;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(fx_rect(dev, W, H, 16, 0, 32, 16, 0, vc));
    fx_fill(e, W, H, 16, 0, 32, 16, fx_rgba(fx_q8(0.5 * alpha), fx_q8(alpha), fx_q8(0.25 * alpha), fx_q8(alpha)));
    fx_expect_back_buffer(t, dev, "modulation", e, W, H, 1);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static void normalize3(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++) v[i] /= l;
}

/* Three quads with normals at different angles to one directional light; top row lit per
 * vertex, bottom row per pixel (same result for constant normals). */
XGD_FIXTURE(BasicEffect_DirectionalLight)
{
    enum { W = 48, H = 32 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_basic_effect_params p;
    xgd_effect *fx = plain_effect(t, dev, &p);
    REQUIRE(fx);
    const double L[3] = { -1 / sqrt(2.0), 0, -1 / sqrt(2.0) };
    const double D[3] = { 0.9, 0.5, 0.3 }, Ld[3] = { 1.0, 0.8, 0.6 }, E[3] = { 0.05, 0.1, 0.0 };
    double n[3][3] = { { 0, 0, 1 }, { 0.6, 0, 0.8 }, { 0, 0, -1 } };
    p.lighting_enabled = true;
    p.diffuse_color = (xgd_vector3){ 0.9f, 0.5f, 0.3f };
    p.emissive_color = (xgd_vector3){ 0.05f, 0.1f, 0.0f };
    p.specular_color = (xgd_vector3){ 0, 0, 0 };
    p.ambient_light_color = (xgd_vector3){ 0, 0, 0 };
    p.lights[0].enabled = true;
    p.lights[0].direction = (xgd_vector3){ -1, 0, -1 }; /* normalised by the effect */
    p.lights[0].diffuse_color = (xgd_vector3){ 1.0f, 0.8f, 0.6f };
    p.lights[0].specular_color = (xgd_vector3){ 0, 0, 0 };
    p.lights[1].enabled = false;
    p.lights[2].enabled = false;
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    CHECK_OK(xgd_clear_color(dev, BLACK));
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE);
    for (int row = 0; row < 2; row++) {
        p.prefer_per_pixel_lighting = row == 1;
        CHECK_OK(xgd_basic_effect_set(fx, &p));
        CHECK_OK(xgd_effect_apply(fx));
        for (int q = 0; q < 3; q++) {
            normalize3(n[q]);
            float x0 = (float)(q * 16), y0 = (float)(row * 16);
            const float xs[4] = { x0, x0 + 16, x0 + 16, x0 }, ys[4] = { y0, y0, y0 + 16, y0 + 16 };
            xgd_vertex_position_normal_texture c4[4];
            for (int k = 0; k < 4; k++) {
                c4[k].position = (xgd_vector3){ fx_ndc_x(xs[k], W), fx_ndc_y(ys[k], H), 0 };
                c4[k].normal = (xgd_vector3){ (float)n[q][0], (float)n[q][1], (float)n[q][2] };
                c4[k].texture_coordinate = (xgd_vector2){ 0, 0 };
            }
            xgd_vertex_position_normal_texture v[6] = { c4[0], c4[1], c4[2], c4[0], c4[2], c4[3] };
            CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2, decl));
            double ndl = -(n[q][0] * L[0] + n[q][1] * L[1] + n[q][2] * L[2]);
            if (ndl < 0) ndl = 0;
            double c[3];
            for (int ch = 0; ch < 3; ch++) c[ch] = D[ch] * Ld[ch] * ndl + E[ch];
            fx_fill(e, W, H, q * 16, row * 16, q * 16 + 16, row * 16 + 16, fx_rgba(fx_q8(c[0]), fx_q8(c[1]), fx_q8(c[2]), 255));
        }
    }
    fx_expect_back_buffer(t, dev, "lit", e, W, H, 1);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* With identity world and view the distance is -z (right-handed view space looks down -z):
 * fog = saturate((-z - start) / (end - start)). start -1, end 1: z 0.25 -> 0.375, z 0.75 ->
 * 0.125; start -1, end -0.5 saturates to 1. */
XGD_FIXTURE(BasicEffect_Fog)
{
    enum { W = 48, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_basic_effect_params p;
    xgd_effect *fx = plain_effect(t, dev, &p);
    REQUIRE(fx);
    p.vertex_color_enabled = true;
    p.fog_enabled = true;
    p.fog_color = (xgd_vector3){ 0.2f, 0.9f, 0.4f };
    const xgd_color c = { 250, 20, 100, 255 };
    const struct { float z, start, end; } q[3] = { { 0.25f, -1, 1 }, { 0.75f, -1, 1 }, { 0.25f, -1, -0.5f } };
    CHECK_OK(xgd_clear_color(dev, BLACK));
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int i = 0; i < 3; i++) {
        p.fog_start = q[i].start;
        p.fog_end = q[i].end;
        CHECK_OK(xgd_basic_effect_set(fx, &p));
        CHECK_OK(xgd_effect_apply(fx));
        CHECK_OK(fx_rect(dev, W, H, (float)(i * 16), 0, (float)(i * 16 + 16), H, q[i].z, c));
        double f = (-(double)q[i].z - q[i].start) / ((double)q[i].end - q[i].start);
        f = f < 0 ? 0 : f > 1 ? 1 : f;
        const double fc[3] = { 0.2f, 0.9f, 0.4f };
        const double s[3] = { c.r / 255.0, c.g / 255.0, c.b / 255.0 };
        double o[3];
        for (int ch = 0; ch < 3; ch++) o[ch] = s[ch] + (fc[ch] * 1.0 - s[ch]) * f;
        fx_fill(e, W, H, i * 16, 0, i * 16 + 16, H, fx_rgba(fx_q8(o[0]), fx_q8(o[1]), fx_q8(o[2]), 255));
    }
    fx_expect_back_buffer(t, dev, "fog", e, W, H, 1);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
