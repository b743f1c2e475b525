/*
 * xgd-demo - renders a small scene headless and writes the last frame as PNG.
 *
 * The scene exercises the main paths of the device: a lit, textured, rotating cube with depth
 * test (BasicEffect); a 4x MSAA render target drawn with geometry and sprites, resolved and
 * sampled back as a sprite; a RenderTargetCube whose six faces are cleared and drawn, read
 * back and shown; rotated, tinted, alpha-blended sprites on top (SpriteBatch); and a line of
 * text (SpriteBatch DrawString) in a SpriteFont built at run time from a TrueType file
 * (--font, default DejaVu Sans from Debian's fonts-dejavu-core).
 *
 * usage: xgd-demo [--renderer NAME] [--size WxH] [--frames N] [--out FILE.png] [--window]
 *
 * --window (builds with SDL2): animates the scene in a resizable SDL window instead, the
 * WxH canvas letterboxed into it, with the frame rate in the title, until the window is closed
 * (or N frames with --frames); --out then saves the last frame too.
 */
#define _POSIX_C_SOURCE 200809L

#include "xgd.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef XGD_DEMO_HAVE_SDL2
#include <SDL.h>
#endif

#define PI_F 3.14159265358979f

static xgd_device *g_dev; /* for error messages */

static void die_xgd(const char *what, xgd_result r, int line)
{
    fprintf(stderr, "xgd-demo:%d: %s failed: %s: %s\n", line, what, xgd_result_name(r),
            xgd_device_last_error(g_dev));
    exit(1);
}

/* Every xgd call's result is checked; the first failure ends the program with its message. */
#define CHECK(expr)                                                                        \
    do {                                                                                   \
        xgd_result demo_r_ = (expr);                                                       \
        if (demo_r_ != XGD_OK) die_xgd(#expr, demo_r_, __LINE__);                           \
    } while (0)
#define CHECK_PTR(ptr, what)                                                               \
    do {                                                                                   \
        if (!(ptr)) {                                                                      \
            fprintf(stderr, "xgd-demo:%d: %s returned NULL: %s\n", __LINE__, what,         \
                    xgd_device_last_error(g_dev));                                         \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

typedef struct demo {
    xgd_device *dev;
    int width, height;
    xgd_sprite_batch *batch;
    xgd_effect *lit;          /* the cube: textured, default lighting */
    xgd_effect *flat;         /* 2D geometry with vertex colours, pixel projection */
    xgd_vertex_declaration *decl_pnt, *decl_pc;
    xgd_texture *checker;     /* 64x64 procedural checker */
    xgd_texture *dot;         /* 32x32 soft disc, premultiplied alpha */
    xgd_texture *msaa;        /* 4x MSAA RenderTarget2D */
    int msaa_w, msaa_h;
    xgd_texture *cube;        /* RenderTargetCube */
    int cube_size;
    xgd_texture *faces[6];    /* Texture2D copies of the cube's faces, for display */
    uint8_t *face_pixels;
    const char *font_path;
    xgd_sprite_font *font;    /* NULL when the font could not be built (the text is left out) */
} demo;

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "xgd-demo: out of memory\n");
        exit(1);
    }
    return p;
}

static xgd_texture *make_texture(xgd_device *dev, int w, int h, const uint8_t *rgba)
{
    xgd_texture *tex = NULL;
    CHECK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = w, .height = h }, &tex));
    CHECK(xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, rgba,
                               (size_t)w * (size_t)h * 4));
    return tex;
}

static xgd_texture *make_checker(xgd_device *dev)
{
    enum { N = 64, CELL = 8 };
    uint8_t *px = xmalloc(N * N * 4);
    for (int y = 0; y < N; y++) {
        for (int x = 0; x < N; x++) {
            uint8_t *p = px + (y * N + x) * 4;
            bool border = x < 2 || y < 2 || x >= N - 2 || y >= N - 2;
            bool odd = ((x / CELL) + (y / CELL)) & 1;
            p[0] = border ? 40 : odd ? 240 : 250;
            p[1] = border ? 40 : odd ? 140 : 245;
            p[2] = border ? 40 : odd ? 30 : 235;
            p[3] = 255;
        }
    }
    xgd_texture *tex = make_texture(dev, N, N, px);
    free(px);
    return tex;
}

static xgd_texture *make_dot(xgd_device *dev)
{
    enum { N = 32 };
    uint8_t *px = xmalloc(N * N * 4);
    for (int y = 0; y < N; y++) {
        for (int x = 0; x < N; x++) {
            float dx = (x + 0.5f) / N * 2.0f - 1.0f, dy = (y + 0.5f) / N * 2.0f - 1.0f;
            float d = sqrtf(dx * dx + dy * dy);
            float a = d >= 1.0f ? 0.0f : d <= 0.6f ? 1.0f : (1.0f - d) / 0.4f;
            uint8_t v = (uint8_t)(a * 255.0f + 0.5f);
            /* Premultiplied white: SpriteBatch's default blend is One, InverseSourceAlpha. */
            uint8_t *p = px + (y * N + x) * 4;
            p[0] = p[1] = p[2] = p[3] = v;
        }
    }
    xgd_texture *tex = make_texture(dev, N, N, px);
    free(px);
    return tex;
}

/* A unit cube, 4 vertices per face so normals and texture coordinates are per face. Each face
 * is wound clockwise as seen from outside (XNA's front face under CullCounterClockwise). */
static void build_cube(xgd_vertex_position_normal_texture v[24], uint16_t idx[36])
{
    static const float faces[6][3][3] = {
        /* normal n, right u, up v, with u x v = n */
        { { 0, 0, 1 }, { 1, 0, 0 }, { 0, 1, 0 } },
        { { 0, 0, -1 }, { -1, 0, 0 }, { 0, 1, 0 } },
        { { 1, 0, 0 }, { 0, 0, -1 }, { 0, 1, 0 } },
        { { -1, 0, 0 }, { 0, 0, 1 }, { 0, 1, 0 } },
        { { 0, 1, 0 }, { 1, 0, 0 }, { 0, 0, -1 } },
        { { 0, -1, 0 }, { 1, 0, 0 }, { 0, 0, 1 } },
    };
    static const float corner[4][2] = { { -1, 1 }, { 1, 1 }, { 1, -1 }, { -1, -1 } };
    static const float uv[4][2] = { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } };
    for (int f = 0; f < 6; f++) {
        const float *n = faces[f][0], *u = faces[f][1], *w = faces[f][2];
        for (int c = 0; c < 4; c++) {
            xgd_vertex_position_normal_texture *p = &v[f * 4 + c];
            float a = corner[c][0] * 0.5f, b = corner[c][1] * 0.5f;
            p->position = (xgd_vector3){ n[0] * 0.5f + u[0] * a + w[0] * b,
                                         n[1] * 0.5f + u[1] * a + w[1] * b,
                                         n[2] * 0.5f + u[2] * a + w[2] * b };
            p->normal = (xgd_vector3){ n[0], n[1], n[2] };
            p->texture_coordinate = (xgd_vector2){ uv[c][0], uv[c][1] };
        }
        static const uint16_t quad[6] = { 0, 1, 2, 0, 2, 3 };
        for (int i = 0; i < 6; i++) idx[f * 6 + i] = (uint16_t)(f * 4 + quad[i]);
    }
}

static void setup(demo *d)
{
    xgd_device *dev = d->dev;
    CHECK(xgd_sprite_batch_create(dev, &d->batch));
    d->decl_pnt = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_NORMAL_TEXTURE);
    CHECK_PTR(d->decl_pnt, "xgd_vertex_declaration_stock(POSITION_NORMAL_TEXTURE)");
    d->decl_pc = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    CHECK_PTR(d->decl_pc, "xgd_vertex_declaration_stock(POSITION_COLOR)");

    d->checker = make_checker(dev);
    d->dot = make_dot(dev);

    CHECK(xgd_basic_effect_create(dev, &d->lit));
    CHECK(xgd_basic_effect_enable_default_lighting(d->lit));
    xgd_basic_effect_params p;
    CHECK(xgd_basic_effect_get(d->lit, &p));
    p.texture_enabled = true;
    p.prefer_per_pixel_lighting = true;
    p.specular_power = 24.0f;
    CHECK(xgd_basic_effect_set(d->lit, &p));
    CHECK(xgd_basic_effect_set_texture(d->lit, d->checker));
    xgd_matrix view = xgd_matrix_create_look_at((xgd_vector3){ 0, 0.4f, 2.6f },
                                                (xgd_vector3){ 0, 0, 0 },
                                                (xgd_vector3){ 0, 1, 0 });
    xgd_matrix proj = xgd_matrix_create_perspective_field_of_view(
        PI_F / 4.0f, (float)d->width / (float)d->height, 0.1f, 100.0f);
    CHECK(xgd_basic_effect_set_view(d->lit, &view));
    CHECK(xgd_basic_effect_set_projection(d->lit, &proj));

    d->msaa_w = d->width / 3 > 8 ? d->width / 3 : 8;
    d->msaa_h = d->height / 3 > 8 ? d->height / 3 : 8;
    CHECK(xgd_render_target2d_create(dev, &(xgd_render_target_desc){
                                              .width = d->msaa_w, .height = d->msaa_h,
                                              .preferred_multisample_count = 4 },
                                     &d->msaa));

    CHECK(xgd_basic_effect_create(dev, &d->flat));
    CHECK(xgd_basic_effect_get(d->flat, &p));
    p.vertex_color_enabled = true;
    /* Pixel coordinates of the MSAA target, y down, as SpriteBatch's projection. */
    p.projection = xgd_matrix_create_orthographic_off_center(0, (float)d->msaa_w,
                                                             (float)d->msaa_h, 0, 0, 1);
    CHECK(xgd_basic_effect_set(d->flat, &p));

    /* A font built at run time, sized with the canvas (XNA's Size: points at 96 DPI). Without
       one (no such file, or xgd built without stb_truetype) the demo runs without its text. */
    xgd_truetype_font_desc fd = { .size = 12.0f * (float)d->height / 360.0f,
                                  .allow_cff_outlines = true /* the user's own choice of file */ };
    xgd_result fr = xgd_sprite_font_from_truetype_file(dev, d->font_path, &fd, &d->font);
    if (fr != XGD_OK)
        fprintf(stderr, "xgd-demo: no text: %s: %s\n", xgd_result_name(fr),
                xgd_device_last_error(dev));

    d->cube_size = d->height / 8 > 4 ? d->height / 8 : 4;
    CHECK(xgd_render_target_cube_create(dev, &(xgd_render_target_desc){ .width = d->cube_size },
                                        &d->cube));
    d->face_pixels = xmalloc((size_t)d->cube_size * (size_t)d->cube_size * 4);
    for (int f = 0; f < 6; f++)
        CHECK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = d->cube_size,
                                                               .height = d->cube_size },
                                   &d->faces[f]));
}

static void teardown(demo *d)
{
    for (int f = 0; f < 6; f++) xgd_texture_destroy(d->faces[f]);
    free(d->face_pixels);
    xgd_texture_destroy(d->cube);
    xgd_texture_destroy(d->msaa);
    xgd_texture_destroy(d->dot);
    xgd_texture_destroy(d->checker);
    xgd_sprite_font_destroy(d->font);
    xgd_effect_destroy(d->flat);
    xgd_effect_destroy(d->lit);
    xgd_sprite_batch_destroy(d->batch);
}

/* A rotating five-pointed star of vertex-coloured triangles: hard diagonal edges show the
 * 4x multisampling once resolved. */
static void draw_star(demo *d, float t)
{
    enum { POINTS = 5 };
    xgd_vertex_position_color v[POINTS * 2 * 3];
    float cx = d->msaa_w * 0.5f, cy = d->msaa_h * 0.5f;
    float outer = (d->msaa_w < d->msaa_h ? d->msaa_w : d->msaa_h) * 0.45f, inner = outer * 0.45f;
    static const xgd_color tips[2] = { { 255, 220, 40, 255 }, { 230, 60, 40, 255 } };
    int n = 0;
    for (int i = 0; i < POINTS * 2; i++) {
        float a0 = t + (float)i * PI_F / POINTS, a1 = t + (float)(i + 1) * PI_F / POINTS;
        float r0 = (i & 1) ? inner : outer, r1 = (i & 1) ? outer : inner;
        v[n++] = (xgd_vertex_position_color){ { cx, cy, 0 }, { 255, 255, 255, 255 } };
        v[n++] = (xgd_vertex_position_color){ { cx + r0 * sinf(a0), cy - r0 * cosf(a0), 0 },
                                              tips[i & 1] };
        v[n++] = (xgd_vertex_position_color){ { cx + r1 * sinf(a1), cy - r1 * cosf(a1), 0 },
                                              tips[(i + 1) & 1] };
    }
    CHECK(xgd_draw_user_primitives(d->dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, n / 3,
                                   d->decl_pc));
}

static void render_msaa_target(demo *d, float t)
{
    xgd_device *dev = d->dev;
    CHECK(xgd_set_render_target(dev, d->msaa));
    CHECK(xgd_clear_color(dev, (xgd_color){ 30, 34, 48, 255 }));
    CHECK(xgd_set_blend_state(dev, xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE)));
    CHECK(xgd_set_depth_stencil_state(
        dev, xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE)));
    CHECK(xgd_set_rasterizer_state(
        dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    CHECK(xgd_effect_apply(d->flat));
    draw_star(d, t);

    CHECK(xgd_sprite_batch_begin(d->batch, NULL));
    for (int i = 0; i < 3; i++) {
        float a = t * (i + 1) * 0.7f;
        CHECK(xgd_sprite_batch_draw(d->batch, d->checker, &(xgd_sprite){
            .position = { d->msaa_w * (0.2f + 0.3f * i), d->msaa_h * 0.8f },
            .origin = { 32, 32 },
            .scale = { 0.25f, 0.25f },
            .rotation = a,
            .color = { 200, 200, 255, 200 } }));
    }
    CHECK(xgd_sprite_batch_end(d->batch));
}

static void render_cube_target(demo *d, float t)
{
    static const xgd_color face_colors[6] = {
        { 200, 40, 40, 255 }, { 40, 160, 60, 255 }, { 40, 70, 200, 255 },
        { 220, 200, 40, 255 }, { 40, 190, 200, 255 }, { 190, 50, 190, 255 },
    };
    xgd_device *dev = d->dev;
    float s = (float)d->cube_size;
    for (int f = 0; f < 6; f++) {
        CHECK(xgd_set_render_target_cube(dev, d->cube, (xgd_cube_map_face)f));
        CHECK(xgd_clear_color(dev, face_colors[f]));
        CHECK(xgd_sprite_batch_begin(d->batch, NULL));
        /* A disc whose position encodes the face index, so a face mix-up is visible. */
        CHECK(xgd_sprite_batch_draw(d->batch, d->dot, &(xgd_sprite){
            .position = { s * (f + 1) / 7.0f, s * 0.5f },
            .origin = { 16, 16 },
            .scale = { s / 64.0f, s / 64.0f },
            .color = XGD_COLOR_WHITE }));
        CHECK(xgd_sprite_batch_draw(d->batch, d->checker, &(xgd_sprite){
            .position = { s * 0.5f, s * 0.5f },
            .origin = { 32, 32 },
            .scale = { s / 256.0f, s / 256.0f },
            .rotation = t + f,
            .color = XGD_COLOR_WHITE }));
        CHECK(xgd_sprite_batch_end(d->batch));
    }
    CHECK(xgd_set_render_target(dev, NULL));
    size_t size = (size_t)d->cube_size * (size_t)d->cube_size * 4;
    for (int f = 0; f < 6; f++) {
        CHECK(xgd_texture_get_data(d->cube, 0, (xgd_cube_map_face)f, NULL, d->face_pixels,
                                   size));
        CHECK(xgd_texture_set_data(d->faces[f], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL,
                                   d->face_pixels, size));
    }
}

static void render_frame(demo *d, float t, const xgd_vertex_position_normal_texture *cube_v,
                         const uint16_t *cube_i)
{
    xgd_device *dev = d->dev;
    /* Off-screen passes first: binding the back buffer again may discard its contents. */
    render_msaa_target(d, t);
    render_cube_target(d, t);

    CHECK(xgd_clear_color(dev, (xgd_color){ 100, 149, 237, 255 })); /* CornflowerBlue */

    /* SpriteBatch leaves its own states bound; the 3D pass sets XNA's defaults back. */
    CHECK(xgd_set_blend_state(dev, NULL));
    CHECK(xgd_set_depth_stencil_state(dev, NULL));
    CHECK(xgd_set_rasterizer_state(dev, NULL));
    CHECK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev,
                                                                 XGD_SAMPLER_PRESET_LINEAR_WRAP)));
    xgd_matrix rx = xgd_matrix_create_rotation_x(t * 0.7f);
    xgd_matrix ry = xgd_matrix_create_rotation_y(t);
    xgd_matrix world = xgd_matrix_multiply(&rx, &ry);
    CHECK(xgd_basic_effect_set_world(d->lit, &world));
    CHECK(xgd_effect_apply(d->lit));
    CHECK(xgd_draw_user_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, cube_v, 0, 24,
                                           cube_i, 0, 12, XGD_INDEX_SIXTEEN_BITS, d->decl_pnt));

    /* The resolved MSAA target and the cube's faces, as sprites. */
    CHECK(xgd_sprite_batch_begin(d->batch, NULL));
    CHECK(xgd_sprite_batch_draw(d->batch, d->msaa, &(xgd_sprite){
        .position = { 8, 8 }, .color = XGD_COLOR_WHITE, .scale = { 1, 1 } }));
    int gap = d->cube_size / 4 + 2;
    for (int f = 0; f < 6; f++)
        CHECK(xgd_sprite_batch_draw(d->batch, d->faces[f], &(xgd_sprite){
            .position = { 8.0f + f * (d->cube_size + gap),
                          (float)(d->height - d->cube_size - 8) },
            .color = XGD_COLOR_WHITE, .scale = { 1, 1 } }));
    CHECK(xgd_sprite_batch_end(d->batch));

    /* Rotated, tinted, translucent sprites over everything (premultiplied tints). */
    CHECK(xgd_sprite_batch_begin(d->batch, &(xgd_sprite_batch_begin_desc){
        .sort_mode = XGD_SPRITE_SORT_BACK_TO_FRONT }));
    static const xgd_color tints[4] = {
        { 160, 80, 0, 160 }, { 0, 90, 140, 140 }, { 100, 0, 100, 100 }, { 64, 64, 64, 64 },
    };
    for (int i = 0; i < 8; i++) {
        float a = t * 0.8f + i * (2.0f * PI_F / 8.0f);
        float r = d->height * 0.32f;
        CHECK(xgd_sprite_batch_draw(d->batch, i & 1 ? d->dot : d->checker, &(xgd_sprite){
            .position = { d->width * 0.5f + r * cosf(a), d->height * 0.5f + r * sinf(a) },
            .origin = { i & 1 ? 16.0f : 32.0f, i & 1 ? 16.0f : 32.0f },
            .scale = { d->height / 360.0f * (i & 1 ? 1.5f : 0.6f),
                       d->height / 360.0f * (i & 1 ? 1.5f : 0.6f) },
            .rotation = -a * 1.5f,
            .color = tints[i & 3],
            .effects = (xgd_sprite_effects)(i & 2 ? XGD_SPRITE_FLIP_HORIZONTALLY : 0),
            .layer_depth = (float)i / 8.0f }));
    }
    CHECK(xgd_sprite_batch_end(d->batch));

    /* A line of text, right-aligned through MeasureString, with a drop shadow. */
    if (d->font != NULL) {
        const char *text = "xgd: DrawString with a font built at run time";
        xgd_vector2 size;
        CHECK(xgd_sprite_font_measure_string(d->font, text, &size));
        CHECK(xgd_sprite_batch_begin(d->batch, NULL));
        xgd_draw_string_params p = XGD_DRAW_STRING_INIT;
        p.position = (xgd_vector2){ floorf((float)d->width - size.x - 8.0f) + 1.0f, 9.0f };
        p.color = (xgd_color){ 0, 0, 0, 160 };
        CHECK(xgd_sprite_batch_draw_string(d->batch, d->font, text, &p));
        p.position.x -= 1.0f;
        p.position.y -= 1.0f;
        p.color = XGD_COLOR_WHITE;
        CHECK(xgd_sprite_batch_draw_string(d->batch, d->font, text, &p));
        CHECK(xgd_sprite_batch_end(d->batch));
    }

    CHECK(xgd_present(dev));
}

static void usage(FILE *f)
{
    fprintf(f, "usage: xgd-demo [--renderer NAME] [--size WxH] [--frames N] [--out FILE.png] "
               "[--window] [--font FILE.ttf]\n"
               "  defaults: renderer auto ($XGD_RENDERER or the best compiled), 640x360, "
               "1 frame, xgd-demo.png\n");
}

int main(int argc, char **argv)
{
    const char *renderer = NULL, *out = "xgd-demo.png";
    const char *font_path = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
    int width = 640, height = 360, frames = 1;
    bool window = false, frames_given = false, out_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--renderer") == 0 && val) {
            renderer = val;
            i++;
        } else if (strcmp(a, "--size") == 0 && val) {
            if (sscanf(val, "%dx%d", &width, &height) != 2 || width < 16 || height < 16 ||
                width > 8192 || height > 8192) {
                fprintf(stderr, "xgd-demo: bad --size '%s' (WxH, 16..8192)\n", val);
                return 1;
            }
            i++;
        } else if (strcmp(a, "--frames") == 0 && val) {
            frames = atoi(val);
            frames_given = true;
            if (frames < 1) {
                fprintf(stderr, "xgd-demo: bad --frames '%s'\n", val);
                return 1;
            }
            i++;
        } else if (strcmp(a, "--out") == 0 && val) {
            out = val;
            out_given = true;
            i++;
        } else if (strcmp(a, "--font") == 0 && val) {
            font_path = val;
            i++;
        } else if (strcmp(a, "--window") == 0) {
            window = true;
        } else {
            fprintf(stderr, "xgd-demo: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return 1;
        }
    }

    xgd_device_desc dd = {
        .pp = { .back_buffer_width = width, .back_buffer_height = height,
                .depth_stencil_format = XGD_DEPTH_FORMAT_DEPTH24, .headless = true },
        .context_recovery = true,
    };
    if (renderer) {
        dd.renderer = xgd_renderer_from_name(renderer);
        if (dd.renderer == XGD_RENDERER_COUNT) {
            fprintf(stderr, "xgd-demo: unknown renderer '%s'\n", renderer);
            return 1;
        }
    }
#ifdef XGD_DEMO_HAVE_SDL2
    SDL_Window *sdl_window = NULL;
    if (window) {
        if (SDL_Init(SDL_INIT_VIDEO) != 0) {
            fprintf(stderr, "xgd-demo: SDL_Init: %s\n", SDL_GetError());
            return 1;
        }
        sdl_window = SDL_CreateWindow("xgd-demo", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED,
                                      width, height, SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
        if (sdl_window == NULL) {
            fprintf(stderr, "xgd-demo: SDL_CreateWindow: %s\n", SDL_GetError());
            SDL_Quit();
            return 1;
        }
        /* the scene's WxH canvas, letterboxed into whatever size the window gets */
        dd.pp.headless = false;
        dd.pp.window = (xgd_window_handle){ .kind = XGD_WINDOW_SDL2, .sdl2_window = sdl_window };
        dd.pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
        dd.pp.virtual_width = width;
        dd.pp.virtual_height = height;
        if (!frames_given) frames = 0; /* until the window is closed */
    }
#else
    (void)frames_given;
    if (window) {
        fprintf(stderr, "xgd-demo: --window needs a build with SDL2 (libsdl2-dev)\n");
        return 1;
    }
#endif
    demo d = { .width = width, .height = height, .font_path = font_path };
    CHECK(xgd_device_create(&dd, &d.dev));
    g_dev = d.dev;
    xgd_device_info info;
    CHECK(xgd_device_get_info(d.dev, &info));

    setup(&d);
    xgd_vertex_position_normal_texture cube_v[24];
    uint16_t cube_i[36];
    build_cube(cube_v, cube_i);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
#ifdef XGD_DEMO_HAVE_SDL2
    if (window) {
        /* The application owns the event loop: xgd only presents. A resize resets the device
         * (the back buffer takes the window's new size, as XNA's GraphicsDeviceManager does). */
        bool quit = false;
        int shown = 0, f = 0;
        struct timespec tw = t0, now;
        for (; !quit && (frames == 0 || f < frames); f++) {
            SDL_Event e;
            while (SDL_PollEvent(&e)) {
                if (e.type == SDL_QUIT) quit = true;
                if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED)
                    CHECK(xgd_device_reset(d.dev, NULL));
            }
            clock_gettime(CLOCK_MONOTONIC, &now);
            float secs = (float)(now.tv_sec - t0.tv_sec) + (float)(now.tv_nsec - t0.tv_nsec) / 1e9f;
            render_frame(&d, 0.6f + secs, cube_v, cube_i);
            double since = (double)(now.tv_sec - tw.tv_sec) + (double)(now.tv_nsec - tw.tv_nsec) / 1e9;
            if (since >= 0.5) {
                char title[128];
                snprintf(title, sizeof title, "xgd-demo: %s, %.1f fps", info.renderer_name,
                         (f - shown) / since);
                SDL_SetWindowTitle(sdl_window, title);
                shown = f;
                tw = now;
            }
        }
        frames = f;
    } else
#endif
    for (int f = 0; f < frames; f++) render_frame(&d, 0.6f + (float)f / 30.0f, cube_v, cube_i);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = ((double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);

    if (!window || out_given) {
        size_t size = (size_t)width * (size_t)height * 4;
        uint8_t *pixels = xmalloc(size);
        CHECK(xgd_get_back_buffer_data(d.dev, NULL, pixels, size));
        CHECK(xgd_image_save_png(out, width, height, pixels));
        free(pixels);
    }
    if (frames < 1) frames = 1;

    printf("xgd-demo: %s renderer (%s), %dx%d, %d frame%s, %.1f ms/frame\n",
           info.renderer_name, info.adapter_name ? info.adapter_name : "?", width, height, frames,
           frames == 1 ? "" : "s", ms / frames);
    xgd_frame_statistics fs;
    CHECK(xgd_device_get_frame_statistics(d.dev, false, &fs));
    printf("xgd-demo: last frame: %llu draws, %llu triangles, %llu clears, %llu target changes, "
           "%llu resolves, %llu mip generations\n",
           (unsigned long long)fs.draw_calls, (unsigned long long)fs.triangles,
           (unsigned long long)fs.clears, (unsigned long long)fs.target_changes,
           (unsigned long long)fs.resolves, (unsigned long long)fs.mip_generations);
    if (!window || out_given) printf("%s\n", out);

    teardown(&d);
    xgd_device_destroy(d.dev);
#ifdef XGD_DEMO_HAVE_SDL2
    if (sdl_window != NULL) {
        SDL_DestroyWindow(sdl_window);
        SDL_Quit();
    }
#endif
    return 0;
}
