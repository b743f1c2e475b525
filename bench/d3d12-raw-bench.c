/*
 * d3d12-raw-bench - xgd's per-draw CPU cost on the Direct3D 12 renderer as a ratio of a raw
 * Direct3D 12 loop that records the same draws directly (issue 5, "bench"); the Direct3D 12
 * counterpart of bench/vk-raw-bench.c, with the same scene and output.
 *
 * Scene: N textured 8x8 quads per frame into a 640x480 RGBA8 off-screen target, one draw per
 * quad, a texture change every draw (16 textures), the last frame checked at one pixel per
 * texture.
 *   raw   one command list per frame: the stock sprite shaders (the committed DXBC), xgd's root
 *         signature (root CBV b0, SRV table t0, sampler table s0), the quad's four vertices
 *         written into a persistently mapped upload buffer, one SetGraphicsRootDescriptorTable
 *         (the texture) and one DrawInstanced per quad;
 *   xgd   the same draws through the public API on the "d3d12" renderer (bench_common.c,
 *         which also holds the scene, the timing and the report).
 * The ratio is of the draw loops' CPU time per draw, each timed from the commands xgd records
 * at its first draw (pipeline, root signature, constants, viewport, vertex buffer) to its last
 * draw; the frame's recording + submission and the time until it finished are reported beside
 * it (bench_common.c says how: rounds over N = 1,000 / 10,000 / 100,000 by default, JSON, an
 * SVG chart, allocations per draw). On Linux both run on vkd3d (VKD3D_VULKAN_DEVICE picks the
 * Vulkan device for both).
 *
 * usage: d3d12-raw-bench [--draws N[,N...]] [--frames F] [--rounds R] [--json FILE] [--svg FILE]
 */
#ifndef COBJMACROS
#define COBJMACROS
#endif
#define INITGUID

#include "xgd.h"

/* The system headers are not written for -Wpedantic (anonymous unions, zero-sized arrays). */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#endif
#ifdef _WIN32
#include <windows.h>
#include <d3d12.h>
#else
#include <vkd3d_utils.h>
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#include "shaders/sprite_vs.h"
#include "shaders/sprite_ps.h"
#include "bench_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HR(expr)                                                                            \
    do {                                                                                    \
        HRESULT hr_ = (expr);                                                               \
        if (FAILED(hr_)) {                                                                  \
            fprintf(stderr, "d3d12-raw-bench:%d: %s failed (hr 0x%08lx)\n", __LINE__, #expr,  \
                    (unsigned long)hr_);                                                    \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* ---- raw Direct3D 12 ----------------------------------------------------------------------- */

typedef struct raw {
    ID3D12Device *dev;
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    uint64_t fence_value;
    HANDLE event;
} raw;

static void raw_init(raw *g)
{
    /* vkd3d picks the Vulkan device as xgd's renderer does (VKD3D_VULKAN_DEVICE selects one);
       feature level 11_0 is what xgd asks for */
    HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&g->dev));
    D3D12_COMMAND_QUEUE_DESC qd = { D3D12_COMMAND_LIST_TYPE_DIRECT, 0, D3D12_COMMAND_QUEUE_FLAG_NONE, 0 };
    HR(ID3D12Device_CreateCommandQueue(g->dev, &qd, &IID_ID3D12CommandQueue, (void **)&g->queue));
    HR(ID3D12Device_CreateCommandAllocator(g->dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                           &IID_ID3D12CommandAllocator, (void **)&g->alloc));
    /* a new list is open: setup records into it directly */
    HR(ID3D12Device_CreateCommandList(g->dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, g->alloc, NULL,
                                      &IID_ID3D12GraphicsCommandList, (void **)&g->list));
    HR(ID3D12Device_CreateFence(g->dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fence));
#ifdef _WIN32
    g->event = CreateEventA(NULL, FALSE, FALSE, NULL);
#else
    g->event = vkd3d_create_event();
#endif
    if (g->event == NULL) {
        fprintf(stderr, "d3d12-raw-bench: cannot create an event\n");
        exit(1);
    }
}

static void raw_submit(raw *g)
{
    HR(ID3D12GraphicsCommandList_Close(g->list));
    ID3D12CommandList *lists[1] = { (ID3D12CommandList *)g->list };
    ID3D12CommandQueue_ExecuteCommandLists(g->queue, 1, lists);
    HR(ID3D12CommandQueue_Signal(g->queue, g->fence, ++g->fence_value));
}

static void raw_wait(raw *g)
{
    if (ID3D12Fence_GetCompletedValue(g->fence) >= g->fence_value) return;
    HR(ID3D12Fence_SetEventOnCompletion(g->fence, g->fence_value, g->event));
#ifdef _WIN32
    WaitForSingleObject(g->event, INFINITE);
#else
    vkd3d_wait_event(g->event, VKD3D_INFINITE);
#endif
}

static ID3D12Resource *committed(const raw *g, D3D12_HEAP_TYPE heap, const D3D12_RESOURCE_DESC *rd,
                                 D3D12_RESOURCE_STATES state, const D3D12_CLEAR_VALUE *clear)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = heap };
    ID3D12Resource *res;
    HR(ID3D12Device_CreateCommittedResource(g->dev, &hp, D3D12_HEAP_FLAG_NONE, rd, state, clear,
                                            &IID_ID3D12Resource, (void **)&res));
    return res;
}

static ID3D12Resource *buffer(const raw *g, D3D12_HEAP_TYPE heap, UINT64 size, D3D12_RESOURCE_STATES state,
                              void **ptr)
{
    D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = size, .Height = 1,
                               .DepthOrArraySize = 1, .MipLevels = 1, .Format = DXGI_FORMAT_UNKNOWN,
                               .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR };
    ID3D12Resource *res = committed(g, heap, &rd, state, NULL);
    D3D12_RANGE none = { 0, 0 };
    HR(ID3D12Resource_Map(res, 0, &none, ptr));
    return res;
}

static ID3D12Resource *image(const raw *g, int w, int h, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES state)
{
    D3D12_RESOURCE_DESC rd = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = (UINT64)w,
                               .Height = (UINT)h, .DepthOrArraySize = 1, .MipLevels = 1,
                               .Format = DXGI_FORMAT_R8G8B8A8_UNORM, .SampleDesc = { 1, 0 },
                               .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN, .Flags = flags };
    D3D12_CLEAR_VALUE cv = { .Format = DXGI_FORMAT_R8G8B8A8_UNORM };
    return committed(g, D3D12_HEAP_TYPE_DEFAULT, &rd, state,
                     (flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET) ? &cv : NULL);
}

static void transition(ID3D12GraphicsCommandList *list, ID3D12Resource *res, D3D12_RESOURCE_STATES from,
                       D3D12_RESOURCE_STATES to)
{
    D3D12_RESOURCE_BARRIER b = { .Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION };
    b.Transition.pResource = res;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = from;
    b.Transition.StateAfter = to;
    ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &b);
}

static ID3D12DescriptorHeap *heap(const raw *g, D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, bool visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd = { type, n,
                                      visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE
                                              : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0 };
    ID3D12DescriptorHeap *h;
    HR(ID3D12Device_CreateDescriptorHeap(g->dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h));
    return h;
}

/* Methods returning a struct go through lpVtbl with an out pointer (vkd3d and mingw-w64). */
static D3D12_CPU_DESCRIPTOR_HANDLE cpu_start(ID3D12DescriptorHeap *h)
{
    D3D12_CPU_DESCRIPTOR_HANDLE c;
    h->lpVtbl->GetCPUDescriptorHandleForHeapStart(h, &c);
    return c;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_start(ID3D12DescriptorHeap *h)
{
    D3D12_GPU_DESCRIPTOR_HANDLE c;
    h->lpVtbl->GetGPUDescriptorHandleForHeapStart(h, &c);
    return c;
}

/* D3D12 row-pitch (256) and placement (512) alignments: each 8-row texture gets 2 KiB */
enum { TEX_PITCH = 256, TEX_SLICE = TS * TEX_PITCH };

/* Everything the frames reuse: made once per process (drivers limit device creations: see
   platform-measurements.md), sized for the largest --draws. */
typedef struct d3d_bench {
    raw g;
    ID3D12Resource *target, *staging, *readback, *vbuf, *cbuf, *tex[TEX];
    void *sptr, *rptr, *vptr, *cptr;
    ID3D12DescriptorHeap *srv_heap, *smp_heap, *rtv_heap;
    UINT srv_inc;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv;
    ID3D12RootSignature *root;
    ID3D12PipelineState *pso;
    D3D12_VERTEX_BUFFER_VIEW vbv;
} d3d_bench;

static void *raw_open(int max_draws)
{
    d3d_bench *b = calloc(1, sizeof *b);
    if (!b) exit(1);
    raw_init(&b->g);
    ID3D12GraphicsCommandList *list = b->g.list;

    /* setup: target, textures, staging, vertex and constant buffers */
    b->target = image(&b->g, W, H, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                                   D3D12_RESOURCE_STATE_RENDER_TARGET);
    b->staging = buffer(&b->g, D3D12_HEAP_TYPE_UPLOAD, (UINT64)TEX * TEX_SLICE,
                                     D3D12_RESOURCE_STATE_GENERIC_READ, &b->sptr);
    b->readback = buffer(&b->g, D3D12_HEAP_TYPE_READBACK, (UINT64)W * H * 4,
                                      D3D12_RESOURCE_STATE_COPY_DEST, &b->rptr);
    b->srv_heap = heap(&b->g, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, TEX, true);
    b->smp_heap = heap(&b->g, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 1, true);
    b->rtv_heap = heap(&b->g, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, false);
    b->srv_inc = ID3D12Device_GetDescriptorHandleIncrementSize(b->g.dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    for (int t = 0; t < TEX; t++) {
        b->tex[t] = image(&b->g, TS, TS, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
        uint8_t c[4];
        bench_texture_color(t, c);
        for (int y = 0; y < TS; y++)
            for (int x = 0; x < TS; x++)
                memcpy((uint8_t *)b->sptr + (size_t)t * TEX_SLICE + (size_t)y * TEX_PITCH + (size_t)x * 4, c, 4);
        D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = b->tex[t],
                                            .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
        D3D12_TEXTURE_COPY_LOCATION src = { .pResource = b->staging, .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT };
        src.PlacedFootprint.Offset = (UINT64)t * TEX_SLICE;
        src.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){ DXGI_FORMAT_R8G8B8A8_UNORM, TS, TS, 1,
                                                                       TEX_PITCH };
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
        transition(list, b->tex[t], D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
        D3D12_SHADER_RESOURCE_VIEW_DESC sd = { .Format = DXGI_FORMAT_R8G8B8A8_UNORM,
                                               .ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D,
                                               .Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING };
        sd.Texture2D.MipLevels = 1;
        D3D12_CPU_DESCRIPTOR_HANDLE h = cpu_start(b->srv_heap);
        h.ptr += (SIZE_T)t * b->srv_inc;
        ID3D12Device_CreateShaderResourceView(b->g.dev, b->tex[t], &sd, h);
    }
    raw_submit(&b->g);
    raw_wait(&b->g);
    b->vbuf = buffer(&b->g, D3D12_HEAP_TYPE_UPLOAD, (UINT64)max_draws * 4 * sizeof(vtx),
                                  D3D12_RESOURCE_STATE_GENERIC_READ, &b->vptr);
    b->cbuf = buffer(&b->g, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ, &b->cptr);
    /* clip = float4(pos, 1) * M: pixel space to clip space, y down (D3D's viewport has y down) */
    const float m[16] = { 2.0f / W, 0, 0, 0, 0, -2.0f / H, 0, 0, 0, 0, 1, 0, -1, 1, 0, 1 };
    memcpy(b->cptr, m, sizeof m);
    D3D12_SAMPLER_DESC smp = { .Filter = D3D12_FILTER_MIN_MAG_MIP_POINT,
                               .AddressU = D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
                               .AddressV = D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
                               .AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
                               .ComparisonFunc = D3D12_COMPARISON_FUNC_NEVER, .MaxLOD = 0 };
    ID3D12Device_CreateSampler(b->g.dev, &smp, cpu_start(b->smp_heap));
    b->rtv = cpu_start(b->rtv_heap);
    ID3D12Device_CreateRenderTargetView(b->g.dev, b->target, NULL, b->rtv);

    /* root signature: root CBV b0, one-SRV table t0, one-sampler table s0 (as xgd's) */
    D3D12_DESCRIPTOR_RANGE srv_range = { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0 };
    D3D12_DESCRIPTOR_RANGE smp_range = { D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, 0, 0, 0 };
    D3D12_ROOT_PARAMETER params[3];
    memset(params, 0, sizeof params);
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[1].DescriptorTable.NumDescriptorRanges = 1;
    params[1].DescriptorTable.pDescriptorRanges = &srv_range;
    params[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    params[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[2].DescriptorTable.NumDescriptorRanges = 1;
    params[2].DescriptorTable.pDescriptorRanges = &smp_range;
    params[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_ROOT_SIGNATURE_DESC rsd = { 3, params, 0, NULL,
                                      D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT };
    ID3DBlob *blob = NULL, *err = NULL;
    HR(D3D12SerializeRootSignature(&rsd, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err));
    if (err != NULL) ID3D10Blob_Release(err);
    HR(ID3D12Device_CreateRootSignature(b->g.dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                        ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                        (void **)&b->root));
    ID3D10Blob_Release(blob);

    /* pipeline: the stock sprite shaders (the committed DXBC xgd uses) */
    D3D12_INPUT_ELEMENT_DESC ie[3] = {
        { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
        { "COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, 0, 12, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
        { "TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 } };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd;
    memset(&pd, 0, sizeof pd);
    pd.pRootSignature = b->root;
    pd.VS = (D3D12_SHADER_BYTECODE){ xgd_dxbc_sprite_vs, sizeof xgd_dxbc_sprite_vs };
    pd.PS = (D3D12_SHADER_BYTECODE){ xgd_dxbc_sprite_ps, sizeof xgd_dxbc_sprite_ps };
    pd.BlendState.RenderTarget[0].SrcBlend = D3D12_BLEND_ONE;
    pd.BlendState.RenderTarget[0].DestBlend = D3D12_BLEND_ZERO;
    pd.BlendState.RenderTarget[0].BlendOp = D3D12_BLEND_OP_ADD;
    pd.BlendState.RenderTarget[0].SrcBlendAlpha = D3D12_BLEND_ONE;
    pd.BlendState.RenderTarget[0].DestBlendAlpha = D3D12_BLEND_ZERO;
    pd.BlendState.RenderTarget[0].BlendOpAlpha = D3D12_BLEND_OP_ADD;
    pd.BlendState.RenderTarget[0].LogicOp = D3D12_LOGIC_OP_NOOP;
    pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = UINT32_MAX;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.InputLayout = (D3D12_INPUT_LAYOUT_DESC){ ie, 3 };
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    pd.NumRenderTargets = 1;
    pd.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    pd.SampleDesc.Count = 1;
    HR(ID3D12Device_CreateGraphicsPipelineState(b->g.dev, &pd, &IID_ID3D12PipelineState, (void **)&b->pso));

    b->vbv = (D3D12_VERTEX_BUFFER_VIEW){ ID3D12Resource_GetGPUVirtualAddress(b->vbuf),
                                         (UINT)((size_t)max_draws * 4 * sizeof(vtx)), sizeof(vtx) };
    return b;
}

static void raw_run(void *ctx, int draws, int frames, bench_path *p)
{
    d3d_bench *b = ctx;
    raw *g = &b->g;
    ID3D12GraphicsCommandList *list = g->list;
    D3D12_VIEWPORT vp = { 0, 0, W, H, 0, 1 };
    D3D12_RECT sc = { 0, 0, W, H };
    D3D12_GPU_DESCRIPTOR_HANDLE srv0 = gpu_start(b->srv_heap);
    ID3D12DescriptorHeap *heaps[2] = { b->srv_heap, b->smp_heap };
    const float black[4] = { 0, 0, 0, 0 };
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now_s();
        HR(ID3D12CommandAllocator_Reset(g->alloc));
        HR(ID3D12GraphicsCommandList_Reset(list, g->alloc, NULL));
        ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 2, heaps);
        ID3D12GraphicsCommandList_OMSetRenderTargets(list, 1, &b->rtv, FALSE, NULL);
        ID3D12GraphicsCommandList_ClearRenderTargetView(list, b->rtv, black, 0, NULL);
        vtx *verts = b->vptr;
        /* Timed from here, as xgd's loop is: xgd's clear records the heaps, the target and
           the clear (before its timer); its first draw records the pipeline, root signature,
           constants, sampler table, viewport, scissor, topology and vertex buffer. */
        bench_loop_begin();
        ID3D12GraphicsCommandList_SetPipelineState(list, b->pso);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(list, b->root);
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(list, 0,
                                                                    ID3D12Resource_GetGPUVirtualAddress(b->cbuf));
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, 2, gpu_start(b->smp_heap));
        ID3D12GraphicsCommandList_RSSetViewports(list, 1, &vp);
        ID3D12GraphicsCommandList_RSSetScissorRects(list, 1, &sc);
        ID3D12GraphicsCommandList_IASetPrimitiveTopology(list, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP);
        ID3D12GraphicsCommandList_IASetVertexBuffers(list, 0, 1, &b->vbv);
        for (int i = 0; i < draws; i++) {
            bench_quad_vertices(i, &verts[i * 4]);
            D3D12_GPU_DESCRIPTOR_HANDLE s = srv0;
            s.ptr += (UINT64)(i % TEX) * b->srv_inc;
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(list, 1, s);
            ID3D12GraphicsCommandList_DrawInstanced(list, 4, 1, (UINT)(i * 4), 0);
        }
        bench_loop_end(p, f);
        if (f == frames - 1) {
            transition(list, b->target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
            D3D12_TEXTURE_COPY_LOCATION src = { .pResource = b->target,
                                                .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX };
            D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = b->readback,
                                                .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT };
            dst.PlacedFootprint.Footprint = (D3D12_SUBRESOURCE_FOOTPRINT){ DXGI_FORMAT_R8G8B8A8_UNORM, W, H, 1,
                                                                           W * 4 };
            ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
            transition(list, b->target, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
        }
        raw_submit(g);
        double t1 = bench_now_s();
        raw_wait(g);
        double t2 = bench_now_s();
        bench_path_frame(p, f, t0, t1, t2);
    }
    bench_path_finish(p, b->rptr, draws, frames, "raw");
}

static void raw_close(void *ctx)
{
    d3d_bench *b = ctx;
    ID3D12PipelineState_Release(b->pso);
    ID3D12RootSignature_Release(b->root);
    ID3D12Resource *res[5] = { b->target, b->staging, b->readback, b->vbuf, b->cbuf };
    for (int i = 0; i < 5; i++) ID3D12Resource_Release(res[i]);
    for (int t = 0; t < TEX; t++) ID3D12Resource_Release(b->tex[t]);
    ID3D12DescriptorHeap_Release(b->srv_heap);
    ID3D12DescriptorHeap_Release(b->smp_heap);
    ID3D12DescriptorHeap_Release(b->rtv_heap);
    ID3D12GraphicsCommandList_Release(b->g.list);
    ID3D12CommandAllocator_Release(b->g.alloc);
    ID3D12Fence_Release(b->g.fence);
#ifdef _WIN32
    CloseHandle(b->g.event);
#else
    vkd3d_destroy_event(b->g.event);
#endif
    ID3D12CommandQueue_Release(b->g.queue);
    ID3D12Device_Release(b->g.dev);
    free(b);
}

int main(int argc, char **argv)
{
    static const bench_desc desc = { "d3d12-raw-bench", XGD_RENDERER_D3D12, "raw Direct3D 12",
                                     "xgd d3d12 renderer", raw_open, raw_run, raw_close, "raw D3D12" };
    return bench_main(argc, argv, &desc);
}
