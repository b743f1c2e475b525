/*
 * stream_memo_scene.h - a scene of draws through two vertex streams with an HLSL effect, for
 * the pipeline (PSO) memo of draws through several streams: a per-vertex quad in stream 0
 * (Position0) and a per-instance colour in stream 1 (Color1) read through one of two
 * declarations: A (the colour at offset 0, stride 4) or B (the colour at offset 4 after 4
 * bytes of something else, stride 8). Every draw is one instance of a quad covering one
 * quarter of the target (columns quarter * W/4 .. +W/4), under D3D10 pixel centres.
 */
#ifndef XGD_TEST_STREAM_MEMO_SCENE_H
#define XGD_TEST_STREAM_MEMO_SCENE_H

#include "harness.h"

#include <string.h>

enum { SM_W = 16, SM_H = 4 };

static const char sm_effect_src[] =
    "struct VSOut { float4 pos : SV_Position; float4 color : COLOR0; };\n"
    "VSOut VS(float3 pos : POSITION0, float4 color : COLOR1)\n"
    "{\n"
    "    VSOut o;\n"
    "    o.pos = float4(pos, 1);\n"
    "    o.color = color;\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0 { return i.color; }\n"
    "technique T { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

typedef struct sm_scene {
    xgd_device *dev;
    xgd_effect *effect;
    xgd_vertex_declaration *pos_decl, *decl_a, *decl_b;
    xgd_vertex_buffer *quads;      /* four quads, 4 vertices each, quarter q at vertex 4q */
    xgd_vertex_buffer *colors_a;   /* declaration A: red */
    xgd_vertex_buffer *colors_b;   /* declaration B: green (skipped bytes), then blue */
    xgd_index_buffer *ib;
} sm_scene;

static const xgd_color sm_red = { 255, 0, 0, 255 }, sm_green = { 0, 255, 0, 255 },
                       sm_blue = { 0, 0, 255, 255 };

static void sm_destroy(sm_scene *s)
{
    xgd_effect_destroy(s->effect);
    xgd_vertex_buffer_destroy(s->quads);
    xgd_vertex_buffer_destroy(s->colors_a);
    xgd_vertex_buffer_destroy(s->colors_b);
    xgd_index_buffer_destroy(s->ib);
    xgd_vertex_declaration_destroy(s->pos_decl);
    xgd_vertex_declaration_destroy(s->decl_a);
    xgd_vertex_declaration_destroy(s->decl_b);
    xgd_device_destroy(s->dev);
    memset(s, 0, sizeof *s);
}

/* Builds the scene on `dev` (taken over). False: skipped (no HLSL compiler: NOT_SUPPORTED by
 * name) or a failure recorded. */
static bool sm_create(xgdt_ctx *t, sm_scene *s, xgd_device *dev)
{
    memset(s, 0, sizeof *s);
    s->dev = dev;
    xgd_result r = xgd_effect_create_hlsl(dev, sm_effect_src, strlen(sm_effect_src), "streams.fx", &s->effect);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        return false;
    }
    CHECK_MSG(r == XGD_OK, "xgd_effect_create_hlsl: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    if (r != XGD_OK) return false;
    const xgd_vertex_element pos_el = { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 };
    const xgd_vertex_element a_el = { 0, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 };
    const xgd_vertex_element b_el = { 4, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 1 };
    CHECK_OK(xgd_vertex_declaration_create(dev, &pos_el, 1, 0, &s->pos_decl));
    CHECK_OK(xgd_vertex_declaration_create(dev, &a_el, 1, 4, &s->decl_a));
    CHECK_OK(xgd_vertex_declaration_create(dev, &b_el, 1, 8, &s->decl_b));
    if (s->pos_decl == NULL || s->decl_a == NULL || s->decl_b == NULL) return false;
    xgd_vector3 quads[16];
    for (int q = 0; q < 4; q++) {
        float x0 = -1 + 0.5f * (float)q, x1 = x0 + 0.5f;
        const xgd_vector3 c[4] = { { x0, 1, 0 }, { x1, 1, 0 }, { x1, -1, 0 }, { x0, -1, 0 } };
        memcpy(&quads[q * 4], c, sizeof c);
    }
    const xgd_color ca[1] = { sm_red };
    const xgd_color cb[2] = { sm_green, sm_blue };
    xgd_vertex_buffer_desc qd = { s->pos_decl, 16, false, false };
    xgd_vertex_buffer_desc ad = { s->decl_a, 1, false, false };
    xgd_vertex_buffer_desc bd = { s->decl_b, 1, false, false };
    CHECK_OK(xgd_vertex_buffer_create(dev, &qd, &s->quads));
    CHECK_OK(xgd_vertex_buffer_create(dev, &ad, &s->colors_a));
    CHECK_OK(xgd_vertex_buffer_create(dev, &bd, &s->colors_b));
    xgd_index_buffer_desc id = { XGD_INDEX_SIXTEEN_BITS, 6, false, false };
    CHECK_OK(xgd_index_buffer_create(dev, &id, &s->ib));
    if (s->quads == NULL || s->colors_a == NULL || s->colors_b == NULL || s->ib == NULL) return false;
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    CHECK_OK(xgd_vertex_buffer_set_data(s->quads, 0, quads, sizeof quads, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_vertex_buffer_set_data(s->colors_a, 0, ca, sizeof ca, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_vertex_buffer_set_data(s->colors_b, 0, cb, sizeof cb, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_index_buffer_set_data(s->ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    CHECK_OK(xgd_set_indices(dev, s->ib));
    r = xgd_effect_pass_apply(s->effect, 0, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, xgd_device_last_error(dev));
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply: %s %s", xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

/* One instance of quarter q's quad, its colour through declaration B (b) or A. */
static xgd_result sm_draw(sm_scene *s, int quarter, bool b)
{
    xgd_vertex_buffer_binding bind[2] = { { s->quads, quarter * 4, 0 }, { b ? s->colors_b : s->colors_a, 0, 1 } };
    xgd_result r = xgd_set_vertex_buffers(s->dev, bind, 2);
    if (r != XGD_OK) return r;
    return xgd_draw_instanced_primitives(s->dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 1);
}

#endif
