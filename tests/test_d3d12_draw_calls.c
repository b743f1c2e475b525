/*
 * test_d3d12_draw_calls.c - the native calls a Direct3D 12 draw records (white-box: the open
 * command list's methods are counted through a copy of its method table).
 *
 * The rules: a user program's root signature has tables only for the registers its shaders
 * sample, so the first draw of a list binds one SRV table and one sampler table for a pixel
 * shader reading s0 (vkd3d writes every table of the bound root signature into a new
 * descriptor set whenever one of them changes, so unused tables cost on every texture
 * change); later draws record only what changed: a texture change is one table, equal
 * constants and the same pipeline, targets and vertex chunk are not recorded again, and a
 * texture already readable needs no barrier.
 */
#include "harness.h"

#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

typedef struct call_counts {
    int tables, cbvs, barriers, root_signatures, psos, vertex_buffers, draws;
} call_counts;

static call_counts counts;
static const ID3D12GraphicsCommandListVtbl *real_methods;
static ID3D12GraphicsCommandListVtbl counting_methods;

static void STDMETHODCALLTYPE count_table(ID3D12GraphicsCommandList *l, UINT i, D3D12_GPU_DESCRIPTOR_HANDLE h)
{
    counts.tables++;
    real_methods->SetGraphicsRootDescriptorTable(l, i, h);
}

static void STDMETHODCALLTYPE count_cbv(ID3D12GraphicsCommandList *l, UINT i, D3D12_GPU_VIRTUAL_ADDRESS a)
{
    counts.cbvs++;
    real_methods->SetGraphicsRootConstantBufferView(l, i, a);
}

static void STDMETHODCALLTYPE count_barrier(ID3D12GraphicsCommandList *l, UINT n, const D3D12_RESOURCE_BARRIER *b)
{
    counts.barriers += (int)n;
    real_methods->ResourceBarrier(l, n, b);
}

static void STDMETHODCALLTYPE count_root(ID3D12GraphicsCommandList *l, ID3D12RootSignature *s)
{
    counts.root_signatures++;
    real_methods->SetGraphicsRootSignature(l, s);
}

static void STDMETHODCALLTYPE count_pso(ID3D12GraphicsCommandList *l, ID3D12PipelineState *p)
{
    counts.psos++;
    real_methods->SetPipelineState(l, p);
}

static void STDMETHODCALLTYPE count_vbs(ID3D12GraphicsCommandList *l, UINT first, UINT n,
                                        const D3D12_VERTEX_BUFFER_VIEW *v)
{
    counts.vertex_buffers++;
    real_methods->IASetVertexBuffers(l, first, n, v);
}

static void STDMETHODCALLTYPE count_draw(ID3D12GraphicsCommandList *l, UINT v, UINT n, UINT first, UINT inst)
{
    counts.draws++;
    real_methods->DrawInstanced(l, v, n, first, inst);
}

/* The list's methods are the counting ones until uncount; the queue takes only the real
   table (vkd3d recognises its lists by it), so uncount runs before anything submits. */
static void count_calls(ID3D12GraphicsCommandList *list)
{
    real_methods = list->lpVtbl;
    counting_methods = *real_methods;
    counting_methods.SetGraphicsRootDescriptorTable = count_table;
    counting_methods.SetGraphicsRootConstantBufferView = count_cbv;
    counting_methods.ResourceBarrier = count_barrier;
    counting_methods.SetGraphicsRootSignature = count_root;
    counting_methods.SetPipelineState = count_pso;
    counting_methods.IASetVertexBuffers = count_vbs;
    counting_methods.DrawInstanced = count_draw;
    list->lpVtbl = &counting_methods;
    memset(&counts, 0, sizeof counts);
}

static void uncount(ID3D12GraphicsCommandList *list)
{
    list->lpVtbl = real_methods;
}

static const char sprite_fx[] =
    "cbuffer PerObject : register(b0) { float4x4 WorldViewProj; };\n"
    "Texture2D Tex : register(t0);\n"
    "SamplerState Samp : register(s0);\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float4 col : COLOR0; };\n"
    "VSOut VS(float3 pos : POSITION0, float4 col : COLOR0, float2 uv : TEXCOORD0)\n"
    "{ VSOut o; o.pos = mul(float4(pos, 1), WorldViewProj); o.uv = uv; o.col = col; return o; }\n"
    "float4 PS(VSOut i) : SV_Target0 { return Tex.Sample(Samp, i.uv) * i.col; }\n"
    "technique T { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                     SetPixelShader(CompileShader(ps_4_0, PS())); } }\n";

static xgd_result quad(xgd_device *dev, int i)
{
    xgd_vertex_position_color_texture v[4];
    memset(v, 0, sizeof v);
    float x = -1.0f + 0.1f * (float)(i % 10), y = 1.0f - 0.2f * (float)(i / 10 % 10);
    for (int k = 0; k < 4; k++) {
        v[k].position = (xgd_vector3){ x + 0.1f * (float)(k & 1), y - 0.2f * (float)(k >> 1), 0 };
        v[k].color = XGD_COLOR_WHITE;
        v[k].texture_coordinate = (xgd_vector2){ (float)(k & 1), (float)(k >> 1) };
    }
    return xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_STRIP, v, 0, 2,
                                    xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE));
}
#endif

XGD_TEST(D3D12_DrawRecordsOnlyWhatChanged)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.renderer = XGD_RENDERER_D3D12;
    dd.pp.headless = true;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        xgdt_not_supported(t, "no Direct3D 12 device here");
        return;
    }
    xgd_effect *e = NULL;
    xgd_result res = xgd_effect_create_hlsl(dev, sprite_fx, sizeof sprite_fx - 1, "sprite.fx", &e);
    if (res == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "built without the HLSL compiler");
        xgd_device_destroy(dev);
        return;
    }
    CHECK_OK(res);
    xgd_texture *tex[2] = { NULL, NULL };
    for (int i = 0; i < 2; i++) {
        const uint8_t px[4] = { (uint8_t)(200 * i), 100, 50, 255 };
        CHECK_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 1, .height = 1 }, &tex[i]));
        CHECK_OK(xgd_texture_set_data(tex[i], 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, px, sizeof px));
    }
    xgd_matrix m;
    memset(&m, 0, sizeof m);
    m.m[0] = m.m[5] = m.m[10] = m.m[15] = 1;
    xgd_effect_parameter wvp = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, "WorldViewProj", &wvp));
    CHECK_OK(xgd_effect_parameter_set_matrix(e, wvp, &m));
    CHECK_OK(xgd_set_sampler_state(dev, 0, xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP)));
    d3d12_renderer *r = (d3d12_renderer *)dev->renderer;
    /* a frame that makes the pipeline and reads both textures once */
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_effect_apply(e));
    for (int i = 0; i < 2; i++) {
        CHECK_OK(xgd_set_texture(dev, 0, tex[i]));
        CHECK_OK(quad(dev, i));
    }
    CHECK_OK(xgd_present(dev));

    /* the next list: its first draw binds everything once */
    CHECK_OK(xgd_clear_color(dev, XGD_COLOR_BLACK));
    CHECK_OK(xgd_effect_apply(e));
    CHECK_OK(xgd_set_texture(dev, 0, tex[0]));
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    count_calls(list);
    CHECK_OK(quad(dev, 0));
    call_counts first = counts;
    /* then a texture change every draw, nothing else changing */
    memset(&counts, 0, sizeof counts);
    const int n = 20;
    for (int i = 1; i <= n; i++) {
        CHECK_OK(xgd_set_texture(dev, 0, tex[i % 2]));
        CHECK_OK(quad(dev, i));
    }
    call_counts later = counts;
    /* and the same texture again: no table */
    memset(&counts, 0, sizeof counts);
    CHECK_OK(quad(dev, n + 1));
    call_counts same = counts;
    uncount(list);
    CHECK_OK(xgd_present(dev));

    CHECK_INT(first.draws, 1);
    CHECK_INT(first.tables, 2); /* t0 and s0: nothing for registers the shaders do not sample */
    CHECK_INT(first.cbvs, 1);   /* the vertex block; the pixel shader has none */
    CHECK_INT(later.draws, n);
    CHECK_INT(later.tables, n);
    CHECK_INT(later.cbvs, 0);
    CHECK_INT(later.barriers, 0);
    CHECK_INT(later.root_signatures, 0);
    CHECK_INT(later.psos, 0);
    CHECK_INT(later.vertex_buffers, 0);
    CHECK_INT(same.draws, 1);
    CHECK_INT(same.tables, 0);
    CHECK_INT(same.cbvs, 0);

    for (int i = 0; i < 2; i++) xgd_texture_destroy(tex[i]);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
#endif
}
