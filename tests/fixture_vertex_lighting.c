/*
 * fixture_vertex_lighting.c - BasicEffect's per-vertex colour clamp. XNA's stock vertex shaders
 * are Direct3D 9 programs whose colour outputs (COLOR0: the diffuse, lit or DiffuseColor;
 * COLOR1: the vertex-lit specular, fog factor in w) are clamped to 0..1 per vertex, before
 * interpolation. Per-pixel lighting computes the light in the pixel shader and is not clamped
 * before the output (the Color target then stores min(1, value)).
 *
 * Every expectation is computed here from XNA's lighting formula (Lighting.fxh, one
 * directional light; world = identity, so object space is world space):
 *   N = normalize(n), E = normalize(eye - pos), dotL = dot(N, -L), zeroL = dotL >= 0,
 *   H = normalize(E - L), diffuse = zeroL * dotL * LightDiffuse * Diffuse + Emissive +
 *   Ambient * Diffuse, specular = pow(max(dot(N, H), 0) * zeroL, Power) * LightSpecular *
 *   SpecularColor; pixel = diffuse (* texture) + specular * alpha, then
 *   lerp(pixel, FogColor * alpha, fog), fog = (distance - FogStart) / (FogEnd - FogStart).
 * Vertex lighting clamps diffuse, specular and fog per vertex, then interpolates them
 * linearly in x across a quad whose left and right vertices differ (w = 1).
 *
 * Tolerances: 1 unit for constant colours (rounding to 8 bits). The gradients allow 3: the
 * value moves 255/64 (about 4) units per pixel, so a renderer whose pixel centres sit half a
 * pixel from the .5 centres assumed here (Direct3D 9's convention) differs by up to 2 units,
 * plus 1 for rounding. Every wrong order of clamp and interpolation in these scenes is off by
 * tens of units over many pixels.
 */
#include "fixture_util.h"

static const xgd_color BLACK = { 0, 0, 0, 255 };

typedef struct vl_scene {
    double eye[3];
    double light_dir[3];          /* unnormalised, as given to the effect */
    double light_diffuse[3], light_specular[3];
    double diffuse[3], emissive[3], ambient[3], specular[3];
    double power;
} vl_scene;

static void vl_norm(double v[3])
{
    double l = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++) v[i] /= l;
}

/* XNA's vertex lighting at one vertex, unclamped. */
static void vl_light(const vl_scene *s, const double pos[3], const double n_in[3], double d[3],
                     double sp[3])
{
    double n[3] = { n_in[0], n_in[1], n_in[2] }, L[3], e[3], h[3];
    memcpy(L, s->light_dir, sizeof L);
    vl_norm(n);
    vl_norm(L);
    for (int i = 0; i < 3; i++) e[i] = s->eye[i] - pos[i];
    vl_norm(e);
    double dotl = -(n[0] * L[0] + n[1] * L[1] + n[2] * L[2]);
    double zero = dotl >= 0 ? 1 : 0;
    for (int i = 0; i < 3; i++) h[i] = e[i] - L[i];
    vl_norm(h);
    double doth = h[0] * n[0] + h[1] * n[1] + h[2] * n[2];
    double sb = pow((doth > 0 ? doth : 0) * zero, s->power);
    for (int c = 0; c < 3; c++) {
        d[c] = zero * dotl * s->light_diffuse[c] * s->diffuse[c] + s->emissive[c] +
               s->ambient[c] * s->diffuse[c];
        sp[c] = sb * s->light_specular[c] * s->specular[c];
    }
}

static double vl_sat(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* The effect's parameters for a scene: identity world, view and projection (clip = position)
 * unless the caller moves the eye; one light. */
static void vl_params(xgd_basic_effect_params *p, const vl_scene *s)
{
    p->lighting_enabled = true;
    p->alpha = 1.0f;
    p->diffuse_color = (xgd_vector3){ (float)s->diffuse[0], (float)s->diffuse[1], (float)s->diffuse[2] };
    p->emissive_color = (xgd_vector3){ (float)s->emissive[0], (float)s->emissive[1], (float)s->emissive[2] };
    p->ambient_light_color = (xgd_vector3){ (float)s->ambient[0], (float)s->ambient[1], (float)s->ambient[2] };
    p->specular_color = (xgd_vector3){ (float)s->specular[0], (float)s->specular[1], (float)s->specular[2] };
    p->specular_power = (float)s->power;
    p->lights[0].enabled = true;
    p->lights[0].direction = (xgd_vector3){ (float)s->light_dir[0], (float)s->light_dir[1], (float)s->light_dir[2] };
    p->lights[0].diffuse_color = (xgd_vector3){ (float)s->light_diffuse[0], (float)s->light_diffuse[1], (float)s->light_diffuse[2] };
    p->lights[0].specular_color = (xgd_vector3){ (float)s->light_specular[0], (float)s->light_specular[1], (float)s->light_specular[2] };
    p->lights[1].enabled = false;
    p->lights[2].enabled = false;
}

static xgd_effect *vl_effect(xgdt_ctx *t, xgd_device *dev, xgd_basic_effect_params *p)
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

/* Quad [x0,x1) x [y0,y1) of a w x h target; the left vertices get normal nl and depth zl, the
 * right ones nr and zr; texture coordinates 0..1. */
static xgd_result vl_quad(xgd_device *dev, int w, int h, float x0, float y0, float x1, float y1,
                          const double nl[3], const double nr[3], float zl, float zr)
{
    const float xs[4] = { x0, x1, x1, x0 }, ys[4] = { y0, y0, y1, y1 };
    xgd_vertex_position_normal_texture q[4];
    for (int k = 0; k < 4; k++) {
        bool left = k == 0 || k == 3;
        const double *n = left ? nl : nr;
        q[k].position = (xgd_vector3){ fx_ndc_x(xs[k], w), fx_ndc_y(ys[k], h), left ? zl : zr };
        q[k].normal = (xgd_vector3){ (float)n[0], (float)n[1], (float)n[2] };
        q[k].texture_coordinate = (xgd_vector2){ k == 1 || k == 2 ? 1.0f : 0.0f, k >= 2 ? 1.0f : 0.0f };
    }
    xgd_vertex_position_normal_texture v[6] = { q[0], q[1], q[2], q[0], q[2], q[3] };
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE));
}

static xgd_texture *vl_grey_texture(xgdt_ctx *t, xgd_device *dev, uint8_t g)
{
    xgd_texture *tex = NULL;
    xgd_texture2d_desc d = { .width = 4, .height = 4, .format = XGD_SURFACE_FORMAT_COLOR };
    xgd_result r = xgd_texture2d_create(dev, &d, &tex);
    if (r != XGD_OK) {
        xgdt_fail_at(t, __FILE__, __LINE__, "texture: %s", xgd_result_name(r));
        return NULL;
    }
    uint8_t *img = fx_image(4, 4, fx_rgba(g, g, g, 255));
    if (img != NULL)
        CHECK_OK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, img, 4 * 4 * 4));
    free(img);
    return tex;
}

/* Ambient 0.5 and one directional light of 1.0 facing the surface on a white material: the lit
 * colour is 1.5 at every vertex. Times a 50% grey texture (128) that is
 * saturate(1.5) * 128/255 -> 128 with vertex lighting, and 1.5 * 128/255 -> 192 per pixel.
 * XNA's unlit BasicEffect passes (Diffuse + Emissive) * Alpha through the same COLOR0, so
 * white diffuse with emissive 0.5 is clamped to 1 too -> 128. */
static void lit_grey(xgdt_ctx *t, bool per_pixel)
{
    enum { W = 32, H = 8 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_texture *tex = vl_grey_texture(t, dev, 128);
    REQUIRE(tex);
    xgd_basic_effect_params p;
    xgd_effect *fx = vl_effect(t, dev, &p);
    REQUIRE(fx);
    const vl_scene s = { .eye = { 0, 0, 0 }, .light_dir = { 0, 0, -1 },
                         .light_diffuse = { 1, 1, 1 }, .light_specular = { 0, 0, 0 },
                         .diffuse = { 1, 1, 1 }, .emissive = { 0, 0, 0 },
                         .ambient = { 0.5, 0.5, 0.5 }, .specular = { 0, 0, 0 }, .power = 16 };
    vl_params(&p, &s);
    p.prefer_per_pixel_lighting = per_pixel;
    p.texture_enabled = true;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_basic_effect_set_texture(fx, tex));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const double n[3] = { 0, 0, 1 };
    CHECK_OK(vl_quad(dev, W, H, 0, 0, W / 2, H, n, n, 0, 0));
    double d[3], sp[3];
    vl_light(&s, (const double[3]){ -1, 1, 0 }, n, d, sp);
    CHECK(fabs(d[0] - 1.5) < 1e-9); /* the scene is the one it claims to be */
    double lit = (per_pixel ? d[0] : vl_sat(d[0])) * 128.0 / 255.0;
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    uint8_t v = fx_q8(lit);
    CHECK_INT(v, per_pixel ? 192 : 128);
    fx_fill(e, W, H, 0, 0, W / 2, H, fx_rgba(v, v, v, 255));
    /* the unlit right half: (Diffuse + Emissive) = 1.5 through COLOR0 */
    p.lighting_enabled = false;
    p.emissive_color = (xgd_vector3){ 0.5f, 0.5f, 0.5f };
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(vl_quad(dev, W, H, W / 2, 0, W, H, n, n, 0, 0));
    uint8_t u = fx_q8(vl_sat(1.0 + 0.5) * 128.0 / 255.0);
    fx_fill(e, W, H, W / 2, 0, W, H, fx_rgba(u, u, u, 255));
    fx_expect_back_buffer(t, dev, per_pixel ? "per_pixel_grey" : "vertex_grey", e, W, H, 1);
    free(e);
    xgd_effect_destroy(fx);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(VertexLighting_AmbientPlusLightClampedTo128) { lit_grey(t, false); }

/* The same scene per pixel keeps the unclamped 1.5 until the output: 192 (the unlit half is
 * still clamped per vertex: 128). */
XGD_FIXTURE(VertexLighting_PerPixelUnclamped) { lit_grey(t, true); }

/* A quad lit 1.6 x Diffuse at its left vertices (normal facing the light) and 0 at its right
 * ones (normal turned just past 90 degrees, dotL < 0): the clamped red channel interpolates
 * 1 -> 0, a straight ramp, where clamping after interpolation would give min(1, 1.6 (1 - t)),
 * flat at 1 over the left 37.5%. Green (0.8) and blue (0.4) never exceed 1 and ramp either way.
 * Per pixel the same normals interpolate and the light is computed per pixel, so that row is
 * not checked here (VertexLighting_PerPixelUnclamped covers per-pixel lighting). */
XGD_FIXTURE(VertexLighting_ClampBeforeInterpolation)
{
    enum { W = 64, H = 4 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_basic_effect_params p;
    xgd_effect *fx = vl_effect(t, dev, &p);
    REQUIRE(fx);
    const vl_scene s = { .eye = { 0, 0, 0 }, .light_dir = { 0, 0, -1 },
                         .light_diffuse = { 1.6, 1.6, 1.6 }, .light_specular = { 0, 0, 0 },
                         .diffuse = { 1, 0.5, 0.25 }, .emissive = { 0, 0, 0 },
                         .ambient = { 0, 0, 0 }, .specular = { 0, 0, 0 }, .power = 16 };
    vl_params(&p, &s);
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const double nl[3] = { 0, 0, 1 }, nr[3] = { 1, 0, -0.01 };
    CHECK_OK(vl_quad(dev, W, H, 0, 0, W, H, nl, nr, 0, 0));
    double dl[3], dr[3], sp[3];
    vl_light(&s, (const double[3]){ -1, 0, 0 }, nl, dl, sp);
    vl_light(&s, (const double[3]){ 1, 0, 0 }, nr, dr, sp);
    CHECK(dl[0] > 1.5 && dr[0] == 0.0);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int x = 0; x < W; x++) {
        double f = (x + 0.5) / W;
        uint8_t c[3];
        for (int ch = 0; ch < 3; ch++)
            c[ch] = fx_q8(vl_sat(dl[ch]) + (vl_sat(dr[ch]) - vl_sat(dl[ch])) * f);
        fx_fill(e, W, H, x, 0, x + 1, H, fx_rgba(c[0], c[1], c[2], 255));
    }
    fx_expect_back_buffer(t, dev, "clamp_then_interpolate", e, W, H, 3);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* The vertex-lit specular is clamped per vertex too. The eye is moved far along +z (view =
 * translation(0, 0, -100), projection = translation(0, 0, 100), so clip = position still) and
 * the light shines along -z: at the left vertices N = +z, H ~ +z and the specular is
 * LightSpecular * SpecularColor = (2, 1, 0.5) (times pow(~1, 8)); at the right ones dotL < 0
 * masks it to 0. No diffuse light, no emissive: the pixel is the specular alone, so red ramps
 * 1 -> 0 rather than min(1, 2 (1 - t)). */
XGD_FIXTURE(VertexLighting_SpecularClamped)
{
    enum { W = 64, H = 4 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_basic_effect_params p;
    xgd_effect *fx = vl_effect(t, dev, &p);
    REQUIRE(fx);
    const vl_scene s = { .eye = { 0, 0, 100 }, .light_dir = { 0, 0, -1 },
                         .light_diffuse = { 0, 0, 0 }, .light_specular = { 2, 2, 2 },
                         .diffuse = { 1, 1, 1 }, .emissive = { 0, 0, 0 },
                         .ambient = { 0, 0, 0 }, .specular = { 1, 0.5, 0.25 }, .power = 8 };
    vl_params(&p, &s);
    p.view = xgd_matrix_create_translation(0, 0, -100);
    p.projection = xgd_matrix_create_translation(0, 0, 100);
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const double nl[3] = { 0, 0, 1 }, nr[3] = { 1, 0, -0.01 };
    CHECK_OK(vl_quad(dev, W, H, 0, 0, W, H, nl, nr, 0, 0));
    /* the four vertices sit at x = +-1, y = +-1; the left pair's specular differs by far less
       than a unit between y = 1 and y = -1, so one value per side stands for both */
    double d[3], sl[3], sr[3];
    vl_light(&s, (const double[3]){ -1, 1, 0 }, nl, d, sl);
    vl_light(&s, (const double[3]){ 1, 1, 0 }, nr, d, sr);
    CHECK(sl[0] > 1.9 && sr[0] == 0.0);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int x = 0; x < W; x++) {
        double f = (x + 0.5) / W;
        uint8_t c[3];
        for (int ch = 0; ch < 3; ch++)
            c[ch] = fx_q8(vl_sat(sl[ch]) + (vl_sat(sr[ch]) - vl_sat(sl[ch])) * f);
        fx_fill(e, W, H, x, 0, x + 1, H, fx_rgba(c[0], c[1], c[2], 255));
    }
    fx_expect_back_buffer(t, dev, "specular_clamped", e, W, H, 3);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}

/* Fog on a vertex-lit quad: the lit colour is 1.5 (white, ambient 0.5, light 1.0) at every
 * vertex and clamps to 1; the fog factor is 1.5 at the left vertices (depth 0) and -0.5 at the
 * right ones (depth 0.5): distance = -z, FogStart -0.375, FogEnd -0.125, factor = (distance -
 * start) / (end - start). Both clamp per vertex, so with black fog the pixel is
 * 1 - fog(t) = t: a ramp from 0 to 1. Unclamped colour gives 1.5 t (saturating at t = 2/3);
 * an unclamped factor gives 0 over the left quarter. */
XGD_FIXTURE(VertexLighting_FogClamped)
{
    enum { W = 64, H = 4 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev);
    xgd_basic_effect_params p;
    xgd_effect *fx = vl_effect(t, dev, &p);
    REQUIRE(fx);
    const vl_scene s = { .eye = { 0, 0, 0 }, .light_dir = { 0, 0, -1 },
                         .light_diffuse = { 1, 1, 1 }, .light_specular = { 0, 0, 0 },
                         .diffuse = { 1, 1, 1 }, .emissive = { 0, 0, 0 },
                         .ambient = { 0.5, 0.5, 0.5 }, .specular = { 0, 0, 0 }, .power = 16 };
    vl_params(&p, &s);
    p.fog_enabled = true;
    p.fog_color = (xgd_vector3){ 0, 0, 0 };
    p.fog_start = -0.375f;
    p.fog_end = -0.125f;
    CHECK_OK(xgd_basic_effect_set(fx, &p));
    CHECK_OK(xgd_effect_apply(fx));
    CHECK_OK(xgd_clear_color(dev, BLACK));
    const double n[3] = { 0, 0, 1 };
    const float zl = 0.0f, zr = 0.5f;
    CHECK_OK(vl_quad(dev, W, H, 0, 0, W, H, n, n, zl, zr));
    double d[3], sp[3];
    vl_light(&s, (const double[3]){ -1, 1, 0 }, n, d, sp);
    double fog_l = (-(double)zl - (double)p.fog_start) / ((double)p.fog_end - (double)p.fog_start);
    double fog_r = (-(double)zr - (double)p.fog_start) / ((double)p.fog_end - (double)p.fog_start);
    CHECK(fabs(fog_l - 1.5) < 1e-9 && fabs(fog_r + 0.5) < 1e-9 && fabs(d[0] - 1.5) < 1e-9);
    uint8_t *e = fx_image(W, H, BLACK);
    REQUIRE(e);
    for (int x = 0; x < W; x++) {
        double f = (x + 0.5) / W;
        double fog = vl_sat(fog_l) + (vl_sat(fog_r) - vl_sat(fog_l)) * f;
        uint8_t c = fx_q8(vl_sat(d[0]) * (1.0 - fog)); /* lerp toward black fog */
        fx_fill(e, W, H, x, 0, x + 1, H, fx_rgba(c, c, c, 255));
    }
    fx_expect_back_buffer(t, dev, "fog_clamped", e, W, H, 3);
    free(e);
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
}
