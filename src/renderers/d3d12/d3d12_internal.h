/*
 * d3d12_internal.h - private structures of the Direct3D 12 renderer (issue 5; spec 000/003).
 *
 * Written against the Direct3D 12 C interface (COBJMACROS). On Linux the interface comes from
 * vkd3d (libvkd3d + libvkd3d-utils); on Windows from the SDK/mingw-w64 headers. Every platform
 * difference of the renderer lives in this header.
 *
 * Methods returning a struct (GetCPUDescriptorHandleForHeapStart, GetDesc) are called through
 * lpVtbl with an out pointer: the C headers of both vkd3d 1.2 and mingw-w64 declare them that
 * way and their COBJMACROS forms do not expand.
 */
#ifndef XGD_D3D12_INTERNAL_H
#define XGD_D3D12_INTERNAL_H

#include "renderer.h"
#include "format.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef COBJMACROS
#define COBJMACROS
#endif

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
#include <d3d12sdklayers.h>
#include <dxgi1_6.h>
#else
#include <vkd3d_utils.h>
#include <vkd3d_d3d12sdklayers.h>
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#ifndef DXGI_ERROR_DEVICE_REMOVED
#define DXGI_ERROR_DEVICE_REMOVED ((HRESULT)0x887A0005L)
#endif
#ifndef DXGI_ERROR_DEVICE_RESET
#define DXGI_ERROR_DEVICE_RESET ((HRESULT)0x887A0007L)
#endif
#ifndef DXGI_ERROR_DEVICE_HUNG
#define DXGI_ERROR_DEVICE_HUNG ((HRESULT)0x887A0006L)
#endif

#define D3D12X_FRAMES 2                  /* frames in flight (issue 5) */
#define D3D12X_MAX_TARGETS 4
#define D3D12X_CHUNK_SIZE (1u << 20)     /* constant arena / upload ring chunk: 1 MiB */
#define D3D12X_CBV_ALIGN 256u            /* D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT */
#define D3D12X_MAX_TEXTURE_SIZE 16384
#define D3D12X_VIEW_HEAP_MAX 1000000u    /* CBV/SRV/UAV shader-visible limit (tier 1) */
#define D3D12X_SAMPLER_HEAP_MAX 2048u    /* sampler shader-visible limit */
#define D3D12X_MIP_CHAIN_MAX 128          /* levels drawn several a draw: at most this a side */
#define D3D12X_MIPS_PER_DISPATCH 6        /* levels shaders/mips.comp writes a dispatch */
#define D3D12X_MIPS_TILE 32               /* its workgroup's tile of the first of them */

typedef struct d3d12_renderer d3d12_renderer;

/* ---- descriptors (d3d12_descriptors.c) ---------------------------------------------------- */

/* A freed index waits for the fence value that could still reference it. */
typedef struct d3d12_free_index {
    uint32_t index;
    uint64_t fence;
} d3d12_free_index;

typedef struct d3d12_index_pool {
    d3d12_free_index *free;      /* FIFO ring: stamped in non-decreasing fence order */
    size_t free_head, free_count, free_capacity;
    uint32_t next_unused;        /* the never-used cursor */
    uint32_t capacity;
    uint32_t live, peak;
    uint64_t recycles;
} d3d12_index_pool;

/* RTV / DSV: CPU-only heaps in a chain of blocks, each twice the previous, so a handle handed
   out never moves. */
typedef struct d3d12_cpu_heap_chain {
    D3D12_DESCRIPTOR_HEAP_TYPE type;
    ID3D12DescriptorHeap *blocks[24];
    D3D12_CPU_DESCRIPTOR_HANDLE starts[24];
    int block_count;
    uint32_t first_block_size;
    UINT increment;
    d3d12_index_pool pool;
    uint64_t growths;
} d3d12_cpu_heap_chain;

/* CBV/SRV/UAV or sampler: a shader-visible heap mirrored from a CPU staging heap of the same
   capacity; growth replaces both with a larger pair re-mirrored from staging (indices stay). */
typedef struct d3d12_gpu_heap {
    D3D12_DESCRIPTOR_HEAP_TYPE type;
    ID3D12DescriptorHeap *staging, *visible;
    D3D12_CPU_DESCRIPTOR_HANDLE staging_cpu, visible_cpu;
    D3D12_GPU_DESCRIPTOR_HANDLE visible_gpu;
    UINT increment;
    uint32_t max_capacity;
    d3d12_index_pool pool;
    uint64_t growths, generation, publishes, bulk_copies, heap_objects;
} d3d12_gpu_heap;

typedef struct d3d12_sampler_entry {
    xgd_sampler_desc desc;
    uint32_t index;
} d3d12_sampler_entry;

xgd_result xgdi_d3d12_cpu_chain_init(d3d12_renderer *r, d3d12_cpu_heap_chain *c,
                                     D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t first_block);
void xgdi_d3d12_cpu_chain_free(d3d12_cpu_heap_chain *c);
xgd_result xgdi_d3d12_cpu_chain_alloc(d3d12_renderer *r, d3d12_cpu_heap_chain *c, uint32_t *index);
void xgdi_d3d12_cpu_chain_release(d3d12_renderer *r, d3d12_cpu_heap_chain *c, uint32_t index);
D3D12_CPU_DESCRIPTOR_HANDLE xgdi_d3d12_cpu_chain_handle(const d3d12_cpu_heap_chain *c, uint32_t index);

xgd_result xgdi_d3d12_gpu_heap_init(d3d12_renderer *r, d3d12_gpu_heap *h,
                                    D3D12_DESCRIPTOR_HEAP_TYPE type, uint32_t capacity,
                                    uint32_t max_capacity);
void xgdi_d3d12_gpu_heap_free(d3d12_gpu_heap *h);
xgd_result xgdi_d3d12_gpu_heap_alloc(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t *index);
void xgdi_d3d12_gpu_heap_release(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t index);
/* Where to write a descriptor (staging), then publish() copies it into the visible heap. */
D3D12_CPU_DESCRIPTOR_HANDLE xgdi_d3d12_gpu_heap_staging(const d3d12_gpu_heap *h, uint32_t index);
void xgdi_d3d12_gpu_heap_publish(d3d12_renderer *r, d3d12_gpu_heap *h, uint32_t index);
D3D12_GPU_DESCRIPTOR_HANDLE xgdi_d3d12_gpu_heap_gpu(const d3d12_gpu_heap *h, uint32_t index);
/* The sampler index of a desc, from the cache (identical descs allocate nothing). */
xgd_result xgdi_d3d12_sampler_get(d3d12_renderer *r, const xgd_sampler_desc *desc, uint32_t *index);
void xgdi_d3d12_descriptor_trace(d3d12_renderer *r);

/* ---- resources (d3d12_resources.c) -------------------------------------------------------- */

struct xgdi_native_texture {
    xgdi_texture_desc desc;
    int faces;
    const xgdi_format_info *fi;
    xgd_surface_format store;         /* the format res holds: desc.format, or the wide format
                                         of a packed one the device lacks (converted at upload
                                         and readback) */
    DXGI_FORMAT dxgi;
    ID3D12Resource *res;              /* sampleable image: faces * levels subresources (a
                                         volume: a TEXTURE3D resource, one per level) */
    ID3D12Resource *ms;               /* multisampled colour (samples > 1): faces slices */
    ID3D12Resource *depth;            /* one depth/stencil shared by all faces */
    DXGI_FORMAT depth_dxgi;
    int samples;
    D3D12_RESOURCE_STATES *states;    /* per subresource of res */
    D3D12_RESOURCE_STATES ms_state, depth_state;
    uint32_t srv;                     /* whole-resource SRV (2D, cube or 3D) */
    uint32_t *level_srv;              /* render targets with mips: one per (face, level) */
    uint32_t *level_uav;              /* Color 2D chains drawn up to three levels at a time
                                         (PSMipChain2/3): one UAV per level; NULL otherwise */
    uint32_t *rtv;                    /* render targets: per (face, level) of res */
    uint32_t ms_rtv[6];
    uint32_t dsv;
    bool has_srv, has_dsv;
    bool ms_dirty[6];
    char label[64];                   /* debug devices: the name events and markers show */
};

struct xgdi_native_buffer {
    xgdi_buffer_kind kind;
    size_t size;
    bool dynamic;
    ID3D12Resource *res;              /* default heap */
    D3D12_RESOURCE_STATES state;
};

xgd_result xgdi_d3d12_texture_alloc(d3d12_renderer *r, const xgdi_texture_desc *desc,
                                    xgdi_native_texture **out);
void xgdi_d3d12_texture_release(d3d12_renderer *r, xgdi_native_texture *t);
void xgdi_d3d12_transition(d3d12_renderer *r, ID3D12Resource *res, UINT sub,
                           D3D12_RESOURCE_STATES *state, D3D12_RESOURCE_STATES to);
void xgdi_d3d12_texture_transition(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                                   D3D12_RESOURCE_STATES to);
void xgdi_d3d12_texture_transition_all(d3d12_renderer *r, xgdi_native_texture *t,
                                       D3D12_RESOURCE_STATES to);
void xgdi_d3d12_flush_barriers(d3d12_renderer *r);
xgd_result xgdi_d3d12_texture_resolve(d3d12_renderer *r, xgdi_native_texture *t, int face);
DXGI_FORMAT xgdi_d3d12_dxgi_format(xgd_surface_format f);
DXGI_FORMAT xgdi_d3d12_dxgi_depth_format(xgd_depth_format f);
/* Frees the readback buffer kept between readbacks (idle: every readback waited for it). */
void xgdi_d3d12_readback_free(d3d12_renderer *r);
xgd_result xgdi_d3d12_read_subresource(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                                       const xgd_rect *rect, void *data, size_t row_pitch);

xgd_result xgdi_d3d12_op_texture_create(xgdi_renderer *r, const xgdi_texture_desc *desc,
                                        xgdi_native_texture **out);
void xgdi_d3d12_op_texture_destroy(xgdi_renderer *r, xgdi_native_texture *t);
xgd_result xgdi_d3d12_op_texture_upload(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                        const xgd_rect *rect, const void *data, size_t row_pitch);
xgd_result xgdi_d3d12_op_texture_download(xgdi_renderer *r, xgdi_native_texture *t, int face,
                                          int level, const xgd_rect *rect, void *data,
                                          size_t row_pitch);
xgd_result xgdi_d3d12_op_texture_finalize(xgdi_renderer *r, xgdi_native_texture *t, int face);
xgd_result xgdi_d3d12_op_texture_upload_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                               const xgd_box *box, const void *data,
                                               size_t row_pitch, size_t slice_pitch);
xgd_result xgdi_d3d12_op_texture_download_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                                 const xgd_box *box, void *data, size_t row_pitch,
                                                 size_t slice_pitch);
xgd_result xgdi_d3d12_op_buffer_create(xgdi_renderer *r, xgdi_buffer_kind kind, size_t size,
                                       bool dynamic, xgdi_native_buffer **out);
void xgdi_d3d12_op_buffer_destroy(xgdi_renderer *r, xgdi_native_buffer *b);
xgd_result xgdi_d3d12_op_buffer_upload(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                       const void *data, size_t size, xgd_set_data_options options);
xgd_result xgdi_d3d12_op_buffer_download(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                         void *data, size_t size);

/* ---- pipelines (d3d12_pipelines.c) -------------------------------------------------------- */

typedef struct d3d12_pso_key {
    uint32_t program;
    uint64_t layout_hash;
    int layout_stride, layout_count;
    xgd_vertex_element elements[16];
    xgd_target_blend_desc blend[4];
    int sample_mask;
    xgd_depth_stencil_desc ds;        /* reference_stencil zeroed: it is list state */
    xgd_cull_mode cull;
    xgd_fill_mode fill;
    bool msaa_lines;
    int32_t depth_bias;               /* xgdi_depth_bias_units for the bound depth format */
    float slope_bias;
    int rt_count;
    DXGI_FORMAT rtv[4];
    DXGI_FORMAT dsv;
    int samples;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE topology;
    uint32_t mode;                    /* 0 draw (a user program), 1 mip/copy blit, 2 mip blit of
                                         8-bit unorm (Color) in whole numbers, 3 and 4 two and
                                         three Color levels by UAVs (PSMipChain2/3, mips_root,
                                         no target) */
    uint64_t user_vs, user_ps;        /* XGDI_PROGRAM_USER: the shaders' serials (never reused) */
    /* draws through several streams (d3d12_instancing.c): each element's input slot, each
       slot's instance step rate (0: per vertex); all zero for single-stream draws */
    int stream_count;
    uint8_t element_slot[16];
    int slot_step[XGD_MAX_VERTEX_BUFFER_BINDINGS];
} d3d12_pso_key;

typedef struct d3d12_pso_entry {
    uint64_t hash;
    d3d12_pso_key key;
    ID3D12PipelineState *pso;
} d3d12_pso_entry;

/* d3d12_instancing.c: the key, resource states and vertex buffer views of a draw through
   several streams */
void xgdi_d3d12_stream_key(const xgdi_draw *draw, d3d12_pso_key *k);
void xgdi_d3d12_stream_transitions(d3d12_renderer *r, const xgdi_draw *draw);
void xgdi_d3d12_stream_bind(d3d12_renderer *r, ID3D12GraphicsCommandList *list,
                            const xgdi_draw *draw);

xgd_result xgdi_d3d12_pipelines_init(d3d12_renderer *r);
void xgdi_d3d12_pipelines_free(d3d12_renderer *r);
/* Makes mips_cs and mips_cs_root once (after pipelines_init or _free), or leaves them NULL:
   the chain is then drawn. */
void xgdi_d3d12_mips_cs_init(d3d12_renderer *r);
xgd_result xgdi_d3d12_pso_get(d3d12_renderer *r, const d3d12_pso_key *key, ID3D12PipelineState **out);
/* Drops the cached PSOs made from the shader of this serial (its shader is being destroyed);
   each is released after the work that may use it. */
void xgdi_d3d12_psos_forget_shader(d3d12_renderer *r, uint64_t serial);

/* ---- user shaders (d3d12_user.c) ---------------------------------------------------------- */

/* A shader of renderer.h's form translated to DXBC (d3d12_dxbc.h) with the reflection draws
   need. PSOs copy the bytecode, so the shader can go while draws that used it are recorded. */
struct xgdi_native_shader {
    xgdi_shader_stage stage;
    uint64_t serial;                  /* PSO key; never reused by the renderer */
    void *dxbc;
    size_t dxbc_size;
    int constant_count;
    int input_count;
    xgdi_shader_input inputs[XGDI_SHADER_MAX_INPUTS];
    xgdi_sampler_kind sampler_kinds[XGDI_SHADER_MAX_SAMPLERS];
    uint32_t color_outputs;
    uint32_t *spirv;                  /* a vertex shader's SPIR-V, translated again for layouts */
    size_t spirv_words;               /* with integer formats (xgdi_d3d12_user_vs_int_inputs) */
};

/* A user draw's sampler registers: the pixel shader's 16, then the vertex shader's 4 vertex
   texture slots (registers t0..t3 / s0..s3 of that stage); d3d12_user.c gives the root
   signature of a program tables for the registers its shaders sample. */
#define D3D12X_USER_SAMPLERS (XGDI_SHADER_MAX_SAMPLERS + XGDI_SHADER_MAX_VERTEX_SAMPLERS)

/* A user root signature made for one shape of program (d3d12_user.c): its key packs the pixel
   registers with tables (0..n-1), the vertex ones, and whether the pixel stage has a block. */
typedef struct d3d12_user_root {
    uint32_t key;
    ID3D12RootSignature *root;
} d3d12_user_root;

/* What a user draw binds, gathered before recording (everything that can fail). */
typedef struct d3d12_user_binding {
    xgdi_native_texture *textures[D3D12X_USER_SAMPLERS]; /* NULL: register not sampled */
    uint32_t srv[D3D12X_USER_SAMPLERS];
    uint32_t sampler[D3D12X_USER_SAMPLERS];
    D3D12_GPU_VIRTUAL_ADDRESS cbv[2];  /* 0: the stage's block is already bound */
    const float *data[2];              /* the blocks of cbv[i] != 0 and their bytes */
    size_t size[2];
} d3d12_user_binding;

xgd_result xgdi_d3d12_user_init(d3d12_renderer *r);
void xgdi_d3d12_user_free(d3d12_renderer *r);
/* The vertex shader translated for a layout feeding integer formats at the locations in
   uint_locations / sint_locations (d3d12_dxbc.h); free *dxbc with xgdi_d3d12_dxbc_free. */
xgd_result xgdi_d3d12_user_vs_int_inputs(d3d12_renderer *r, const xgdi_native_shader *vs,
                                         uint32_t uint_locations, uint32_t sint_locations,
                                         void **dxbc, size_t *size);
xgd_result xgdi_d3d12_op_shader_create(xgdi_renderer *r, const xgdi_shader_desc *desc,
                                       xgdi_native_shader **out);
void xgdi_d3d12_op_shader_destroy(xgdi_renderer *r, xgdi_native_shader *s);
/* Resolves textures and samplers, uploads changed blocks (call before recording). */
xgd_result xgdi_d3d12_user_prepare(d3d12_renderer *r, const xgdi_draw_state *st,
                                   d3d12_user_binding *b);
/* Queues the sampled textures' transitions (before flush_barriers). */
void xgdi_d3d12_user_transitions(d3d12_renderer *r, const d3d12_user_binding *b);
/* Records the root arguments (the user root signature is bound; valid: the list's root
   arguments are the last ones recorded by this function). */
void xgdi_d3d12_user_bind(d3d12_renderer *r, const d3d12_user_binding *b, bool valid);
/* Makes r->shape_root the root signature of the program of vs and ps (made on first use). */
xgd_result xgdi_d3d12_user_shape(d3d12_renderer *r, const xgdi_native_shader *vs,
                                 const xgdi_native_shader *ps);

/* ---- frames and submission (d3d12_device.c) ------------------------------------------------ */

/* A linear allocator over persistently mapped upload-heap chunks (1 MiB each, or larger for one
   big request), reset when its frame slot is reused. */
typedef struct d3d12_upload_chunk {
    ID3D12Resource *res;
    uint8_t *cpu;
    D3D12_GPU_VIRTUAL_ADDRESS gpu;
    size_t size;
} d3d12_upload_chunk;

typedef struct d3d12_linear {
    d3d12_upload_chunk *chunks;
    int count, capacity;
    int current;
    size_t offset;
    uint64_t created;                 /* chunks ever created (FramesInFlight counters) */
} d3d12_linear;

typedef struct d3d12_alloc {
    ID3D12Resource *res;
    uint8_t *cpu;
    D3D12_GPU_VIRTUAL_ADDRESS gpu;
    size_t offset;                    /* in res */
} d3d12_alloc;

typedef struct d3d12_frame {
    ID3D12CommandAllocator *allocator;
    ID3D12GraphicsCommandList *list;
    uint64_t fence;                   /* value signalled when this slot's work completes */
    d3d12_linear constants;           /* 256-byte aligned constant arena */
    d3d12_linear ring;                /* upload ring: vertices, indices, texture data */
} d3d12_frame;

typedef struct d3d12_stats {
    uint64_t draws, triangles, buffers_created, textures_created, gpu_waits, submits;
    uint64_t readback_buffers_created; /* readback-heap buffers made for readbacks */
    uint64_t pso_lookups;             /* draws whose PSO was looked up (the memo did not serve) */
    uint64_t mip_chain_draws;         /* mip draws of several levels (PSMipChain2/3) */
    uint64_t clears_recorded;         /* pending clears recorded (xgdi_d3d12_flush_clear) */
    uint64_t wait_polls;              /* waits that polled ($XGD_WAIT_SPIN_US) and saw the value */
} d3d12_stats;

typedef struct d3d12_capabilities {
    D3D_FEATURE_LEVEL feature_level;
    int resource_binding_tier;
    int shader_model;                 /* 0x50, 0x51, ... */
    int root_signature_version;       /* 10 or 11 */
    bool debug_layer;
    char adapter[128];
    /* Steps of each depth format one integer DepthBias unit moves (1 or 2; 0 = not measured,
       taken as 1): a driver may use r up to 2 x 2^-n (Vulkan under vkd3d), so the renderer
       measures it at creation (xgdi_depth_bias_probe) and divides spec 002's count by it. */
    int bias_factor[XGD_DEPTH_FORMAT_COUNT];
    /* Anisotropic sampler states: the largest MaxAnisotropy applied (16 on Direct3D 12, which
       requires it; under vkd3d what the Vulkan device has, 1 without samplerAnisotropy: they
       then sample as Linear); 0 until known */
    int max_anisotropy;
} d3d12_capabilities;

struct d3d12_renderer {
    xgdi_renderer base;
    bool debug, lost;
    /* $XGD_MIPS_PER_LEVEL set (not "0"): every chain by the float blit, Color's too */
    bool mips_per_level;
    uint64_t completed_max;           /* largest completed fence value read (xgdi_d3d12_completed) */
    xgd_graphics_profile profile;
    ID3D12Device *dev;
#ifdef _WIN32
    ID3D12InfoQueue *info_queue;      /* debug devices with the debug layer (d3d12_debug.c) */
#endif
    ID3D12CommandQueue *queue;
    ID3D12Fence *fence;
    HANDLE event;
    d3d12_capabilities caps;
    xgdi_caps xcaps;
    bool widened[XGD_SURFACE_FORMAT_COUNT]; /* packed formats kept wide (xgdi_packed_wide_format) */

    d3d12_frame frames[D3D12X_FRAMES];
    int slot;                         /* the open frame's slot */
    /* the readback buffer kept between readbacks, mapped while kept (d3d12_resources.c) */
    ID3D12Resource *readback;
    size_t readback_size;

    d3d12_cpu_heap_chain rtv_heap, dsv_heap;
    d3d12_gpu_heap view_heap, sampler_heap;
    bool heaps_dirty;                 /* the open list needs SetDescriptorHeaps */
    d3d12_sampler_entry *samplers;
    size_t sampler_count, sampler_capacity;
    ID3D12DescriptorHeap **retired_heaps; /* paired with retired_heap_fence */
    uint64_t *retired_heap_fence;
    size_t retired_heap_count, retired_heap_capacity;

    D3D12_RESOURCE_BARRIER *barriers;
    size_t barrier_count, barrier_capacity;

    ID3D12RootSignature *root;
    /* Color mips of several levels a draw (PSMipChain2/3): [0] root CBV b0, [1] table of the
       SRV t0, [2..4] tables of one UAV each (u0..u2); NULL where R8G8B8A8 has no typed UAVs
       or mips_per_level is set. mips_root_bound: the open list has it bound. */
    ID3D12RootSignature *mips_root;
    bool mips_root_bound;
    /* user programs (d3d12_user.c): their root signature, whether the open list has it bound
       (else the blit's, root), the shaders a PSO is being built from, the last blocks bound
       (CPU copies, valid while draw_state_valid) and the tables bound */
    ID3D12RootSignature *user_root;
    bool user_root_bound;
    uint64_t user_serial;
    const xgdi_native_shader *building_vs, *building_ps;
    size_t user_last_size[2];
    float user_last[2][(XGDI_SHADER_MAX_REGISTERS + 1) * 4];
    UINT64 user_last_srv[D3D12X_USER_SAMPLERS], user_last_sampler[D3D12X_USER_SAMPLERS];
    /* user_root is the root signature of the last program prepared, made for its shape and
       kept in user_roots; the shape memo is that program's (by its shaders' serials): whether
       the pixel stage has a block, the registers with tables in root parameter order */
    d3d12_user_root *user_roots;
    size_t user_root_count, user_root_capacity;
    uint64_t shape_vs, shape_ps;
    bool shape_ps_cbv;
    ID3D12RootSignature *shape_root;
    int shape_slot_count;
    uint8_t shape_slots[D3D12X_USER_SAMPLERS];
    /* heap indices of samplers, which stay valid while the device lives: the stand-in for
       unset states and, per register, the last state's description */
    bool filler_ready;
    uint32_t filler_sampler;
    bool sampler_memo_valid[D3D12X_USER_SAMPLERS];
    xgd_sampler_desc sampler_memo_desc[D3D12X_USER_SAMPLERS];
    uint32_t sampler_memo[D3D12X_USER_SAMPLERS];
    const xgd_sampler_desc *sampler_memo_ptr[D3D12X_USER_SAMPLERS]; /* the state it came from */
    /* core's dirty bits since the last user draw was recorded: without XGDI_DIRTY_CONSTANTS or
       XGDI_DIRTY_PROGRAM its blocks equal user_last without a compare */
    uint32_t user_dirty;
    d3d12_pso_entry *psos;
    size_t pso_count, pso_capacity;
    ID3D12Resource *defaults;         /* default vertex attribute values (stride-0 stream) */
    D3D12_GPU_VIRTUAL_ADDRESS defaults_gpu;

    xgdi_native_texture *back_buffer;
    struct d3d12_present *present;    /* windowed devices: the swap chain (d3d12_window.c) */
    xgdi_native_texture *black;       /* sampled by an unbound slot: (0,0,0,1) */
    xgdi_native_texture *black_volume; /* the same, 1x1x1, for a Texture3D register (NULL
                                          when the device has no volume textures) */
    xgdi_target targets[D3D12X_MAX_TARGETS];
    int target_count;
    bool targets_dirty;
    ID3D12PipelineState *current_pso;
    size_t pso_last;                  /* psos[] index of the last lookup: consecutive draws
                                         usually share a key, so it is compared before hashing */
    /* Fixed-function list state last recorded by xgdi_d3d12_op_draw, so an unchanged value is not
       re-recorded per draw. Valid only while draw_state_valid; xgdi_d3d12_bind_heaps (list open,
       heap growth) and blit (which records its own) clear it. */
    bool draw_state_valid;
    D3D12_VIEWPORT last_viewport;
    D3D12_RECT last_scissor;
    UINT last_stencil_ref;
    FLOAT last_blend_factor[4];
    D3D12_PRIMITIVE_TOPOLOGY last_topology;
    D3D12_VERTEX_BUFFER_VIEW last_vbv[2];
    D3D12_INDEX_BUFFER_VIEW last_ibv;
    /* Memos of the draw path: core's dirty bits not yet applied to them (core clears its own
       after every accepted draw), the PSO of the last draw with the topology type it was made
       for (forgotten on a change of blend, depth-stencil, rasterizer, program, layout or
       targets). */
    uint32_t pending_dirty;
    /* core's dirty bits not yet applied to the viewport, scissor, stencil reference and blend
       factor, and the target size the recorded scissor was derived from */
    uint32_t dynamic_dirty;
    int dynamic_width, dynamic_height;
    ID3D12PipelineState *memo_pso;
    D3D12_PRIMITIVE_TOPOLOGY_TYPE memo_topology;
    /* the vertex layout the memo's PSO was made for: its hash (the combined layout's for a
       draw through several streams) and the number of streams (0: one buffer) */
    uint64_t memo_layout_hash;
    int memo_stream_count;
    bool memo_per_instance;     /* the PSO reads binding 0 per instance (xgdi_draw.per_instance) */
    /* op_draw's short path (fast_draw) may record the next draw: the last one drew user
       vertices (one stream, not indexed, one instance) of fast_layout as fast_type, so while
       core marks nothing but texture slots changed and the list still holds what that draw
       recorded (draw_state_valid, the user root bound, no heap or target change), only the
       vertices, the changed texture tables and the draw are recorded. Armed by the general
       path's draws, disarmed as it starts. */
    bool fast_armed;
    xgd_primitive_type fast_type;
    const xgdi_vertex_layout *fast_layout;
    /* set with fast_armed, from the program then bound (which no fast draw can change): the
       sampled registers that have a table (slot: a sampler slot, vertex ones after
       XGDI_SHADER_MAX_SAMPLERS), their root parameter and the state their texture must be in */
    int fast_slot_count;
    struct d3d12_fast_slot {
        uint8_t slot;
        uint8_t table;
        D3D12_RESOURCE_STATES want;
    } fast_slots[D3D12X_USER_SAMPLERS];
    /* set with fast_armed: one sampled register (pixel register 0) and one single-sample
       target, so that user_draw_fast takes fast_draw_one */
    bool fast_one;
    /* where the next fast draw's vertices go while the chunk's offset is still fast_next_offset
       (nothing else took ring space): no division then */
    size_t fast_next_offset;
    UINT fast_next_first;
    /* op_draw_quad_runs may follow the last draw with more runs: it drew reserved vertices
       through the quad index pattern (one stream, one instance). Armed by op_draw, disarmed
       as it starts. */
    bool runs_armed;
    d3d12_stats stats;
    /* Debug hook (DeviceRemovedRecovery): the next submission-path native call is treated as
       having returned DXGI_ERROR_DEVICE_REMOVED; simulated_removal then supplies the removal
       reason a live device would not report. */
    bool remove_next_call, simulated_removal;
    bool event_open;                  /* debug: a rendering-segment event is open on the list */
    /* occlusion queries (d3d12_queries.c): slots of D3D12X_QUERY_CHUNK-query heaps, each with
       a readback buffer the results are resolved into; recycled by fence, and the active
       query's segments (core's xgdi_query_slots) */
    struct d3d12_query_chunk *query_chunks; /* queries.chunk_count of them */
    xgdi_query_slots queries;

    /* last: the fields above keep the layout the per-draw paths were measured with */
    /* A clear not recorded yet (d3d12_commands.c, xgdi_d3d12_op_clear): a clear of the bound set
       waits for the next command, so that the clear which follows it with nothing between
       (SetRenderTargets' DiscardContents clear, then the application's Clear) replaces it
       instead of filling the target twice. d3d12_list records it before anything else. */
    struct d3d12_pending_clear {
        bool active;
        int rt_count;                                  /* colour targets cleared (0: none) */
        D3D12_CPU_DESCRIPTOR_HANDLE rtv[D3D12X_MAX_TARGETS], dsv;
        float color[4];
        D3D12_CLEAR_FLAGS ds_flags;                    /* 0: neither depth nor stencil */
        float depth;
        UINT8 stencil;
    } pending_clear;
    uint64_t wait_spin_ns; /* xgdi_wait_spin_budget_ns: the poll before a data wait */
    /* Color chains of 2D targets by compute (shaders/mips.comp translated to DXBC at the first
       Color chain, xgdi_d3d12_mips_cs_init): [0] four root constants b0 (level B's width and
       height, the levels to write), [1] a table of the SRV t0 (level B), [2..7] tables of one
       UAV each (u1..u6, levels B + 1 .. B + 6). NULL before that chain, where mips_root is,
       where the build has no SPIR-V of the shader (no glslangValidator), where the translation
       or the pipeline failed (the chain is then drawn, PSMipChain2/3), or where
       $XGD_MIPS_BY_DRAWS is set (not "0"). */
    ID3D12RootSignature *mips_cs_root;
    ID3D12PipelineState *mips_cs;
    bool mips_by_draws;
    bool mips_cs_tried;               /* xgdi_d3d12_mips_cs_init ran (it runs once) */
    uint64_t mip_dispatches;          /* compute dispatches of mip generation */
};

static inline d3d12_renderer *d3d12_cast(xgdi_renderer *r) { return (d3d12_renderer *)r; }
/* Records the pending clear, if any (d3d12_commands.c). */
void xgdi_d3d12_flush_clear(d3d12_renderer *r);
/* The open list, for recording: a pending clear goes in first, so every command lands after
   the clears that came before it. */
static inline ID3D12GraphicsCommandList *d3d12_list(d3d12_renderer *r)
{
    if (r->pending_clear.active) xgdi_d3d12_flush_clear(r);
    return r->frames[r->slot].list;
}

/* Debug hook: the next native call on the submission path (closing, executing or signalling a
   list, resetting a slot) fails as DXGI_ERROR_DEVICE_REMOVED without being made, so device
   removal and recovery can be tested on a healthy device (issue 5, DeviceRemovedRecovery). */
void xgdi_d3d12_debug_remove_device(d3d12_renderer *r);

#ifndef _WIN32
/* vkd3d instances this process has created: devices share one (d3d12_device.c), so this is at
   most 1 however many devices came and went. */
unsigned xgdi_d3d12_instance_creations(void);
#endif

/* HRESULT check: DEVICE_REMOVED/RESET/HUNG enter the lost state (spec: Device recovery). */
xgd_result xgdi_d3d12_check(d3d12_renderer *r, HRESULT hr, const char *what);
xgd_result xgdi_d3d12_linear_alloc(d3d12_renderer *r, d3d12_linear *l, size_t size, size_t align,
                                   d3d12_alloc *out);
/* `bytes` of vertices placed at a multiple of `stride` from the start of their chunk, the
   first one's index in the chunk in *first (out->offset: the first vertex's offset). */
xgd_result xgdi_d3d12_linear_alloc_vertices(d3d12_renderer *r, d3d12_linear *l, size_t bytes,
                                            size_t stride, d3d12_alloc *out, UINT *first);
/* Submits the open frame (readbacks record their copy at its end) and waits until the GPU
   finished it: one submission and one wait. */
xgd_result xgdi_d3d12_submit_and_wait(d3d12_renderer *r);
xgd_result xgdi_d3d12_wait(d3d12_renderer *r, uint64_t value);
uint64_t xgdi_d3d12_completed(d3d12_renderer *r);
/* Keeps a native object alive until the open frame's fence passes. */
void xgdi_d3d12_retire_unknown(d3d12_renderer *r, IUnknown *object);
void xgdi_d3d12_bind_heaps(d3d12_renderer *r);

/* Debug names and PIX-style events (debug devices only; otherwise one test of r->debug).
   d3d12_set_name names any ID3D12Object (cast); d3d12_event_targets closes the open segment
   event and opens one naming the bound set; d3d12_event_end closes it (before a list closes or
   its targets change); d3d12_marker sets a one-off marker on `list`. */
#if defined(__MINGW32__)
#define D3D12X_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__)
#define D3D12X_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define D3D12X_PRINTF(f, a)
#endif
void xgdi_d3d12_set_name_now(ID3D12Object *object, const char *fmt, ...) D3D12X_PRINTF(2, 3);
/* The runtime's debug layer and info queue (d3d12_debug.c; debug devices only): enable the
   layer before the device is created, attach the filtered info queue after; drain forwards
   stored messages to the log after each submission; release drains and drops the queue. */
void xgdi_d3d12_debug_enable_layer(d3d12_renderer *r);
void xgdi_d3d12_debug_attach_info_queue(d3d12_renderer *r);
void xgdi_d3d12_debug_drain(d3d12_renderer *r);
void xgdi_d3d12_debug_release(d3d12_renderer *r);
void xgdi_d3d12_event_targets_now(d3d12_renderer *r);
void xgdi_d3d12_event_end_now(d3d12_renderer *r);
void xgdi_d3d12_marker_now(ID3D12GraphicsCommandList *list, const char *fmt, ...) D3D12X_PRINTF(2, 3);
#define d3d12_set_name(r, object, ...) \
    ((r)->debug && (object) != NULL ? xgdi_d3d12_set_name_now((ID3D12Object *)(object), __VA_ARGS__) \
                                    : (void)0)
#define d3d12_event_targets(r) ((r)->debug ? xgdi_d3d12_event_targets_now(r) : (void)0)
#define d3d12_event_end(r) ((r)->event_open ? xgdi_d3d12_event_end_now(r) : (void)0)
#define d3d12_marker(r, list, ...) ((r)->debug ? xgdi_d3d12_marker_now((list), __VA_ARGS__) : (void)0)

/* ---- commands (d3d12_commands.c) ---------------------------------------------------------- */
xgd_result xgdi_d3d12_op_set_render_targets(xgdi_renderer *r, const xgdi_target *targets, int count);
xgd_result xgdi_d3d12_op_clear(xgdi_renderer *r, unsigned options, const float color[4], float depth,
                               int stencil);
xgd_result xgdi_d3d12_op_draw(xgdi_renderer *r, const xgdi_draw *draw);
/* renderer.h's user_draw_fast: op_draw's short path without the xgdi_draw */
xgd_result xgdi_d3d12_op_user_draw_fast(xgdi_renderer *r, xgd_primitive_type type,
                                        const void *vertices, int primitive_count);
xgd_result xgdi_d3d12_op_reserve_vertices(xgdi_renderer *r, size_t bytes, size_t stride,
                                          void **cpu, uint64_t *at);
xgd_result xgdi_d3d12_op_draw_quad_runs(xgdi_renderer *r, const xgdi_draw *draw,
                                        const xgdi_quad_run *runs, int count, int *drawn);
/* Windowed presentation (d3d12_window.c through vkd3d on Linux, d3d12_dxgi.c through DXGI on
   Windows): whether this device can present to windows, the present itself (submit closes and
   submits the open frame), and teardown (waits for idle). */
bool xgdi_d3d12_can_present(d3d12_renderer *r);
xgd_result xgdi_d3d12_present_window(d3d12_renderer *r, int swap_interval,
                                     xgd_result (*submit)(d3d12_renderer *r));
void xgdi_d3d12_present_destroy(d3d12_renderer *r);
/* After a Reset onto another window (or none): the old window's swap chain goes while that
   window is still open (core closes it after reset_back_buffer). */
void xgdi_d3d12_present_follow_window(d3d12_renderer *r);
/* Spec 002's tearing rule for IDXGISwapChain::Present: XGDI_DXGI_PRESENT_ALLOW_TEARING when
   tearing is supported, the swap interval is 0 (Immediate) and the swap chain is not in
   exclusive full screen; else 0. Plain C on every platform (unit-tested on Linux). */
#define XGDI_DXGI_PRESENT_ALLOW_TEARING 0x200u /* DXGI_PRESENT_ALLOW_TEARING (dxgi1_5.h) */
unsigned xgdi_dxgi_present_flags(bool tearing_supported, int swap_interval,
                                 bool exclusive_full_screen);
xgd_result xgdi_d3d12_op_read_back_buffer(xgdi_renderer *r, const xgd_rect *rect, void *rgba);
xgd_result xgdi_d3d12_generate_mips(d3d12_renderer *r, xgdi_native_texture *t, int face);
xgd_result xgdi_d3d12_fill_samples(d3d12_renderer *r, xgdi_native_texture *t, int face);

/* ---- occlusion queries (d3d12_queries.c) -------------------------------------------------- */
#define D3D12X_QUERY_CHUNK 64
/* At creation, before any query op. */
void xgdi_d3d12_query_init(d3d12_renderer *r);
xgd_result xgdi_d3d12_op_query_create(xgdi_renderer *r, xgdi_native_query **out);
void xgdi_d3d12_op_query_destroy(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xgdi_d3d12_op_query_begin(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xgdi_d3d12_op_query_end(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xgdi_d3d12_op_query_result(xgdi_renderer *r, xgdi_native_query *q, bool flush, bool wait,
                                      bool *done, uint64_t *samples);
/* The active query's segment in the frame list: suspend ends (and resolves) it and reserves
   the next slot; resume begins that slot. No-ops without an active query. d3d12_submit_frame
   suspends before closing a list and d3d12_open_slot resumes in the new one; blits bracket
   their draw so internal draws are not counted. */
void xgdi_d3d12_query_suspend(d3d12_renderer *r);
void xgdi_d3d12_query_resume(d3d12_renderer *r);
/* Teardown after the device went idle. */
void xgdi_d3d12_query_heaps_free(d3d12_renderer *r);

/* ---- shaders (d3d12_shaders.c) ------------------------------------------------------------ */
typedef struct d3d12_bytecode {
    const unsigned char *data;
    size_t size;
} d3d12_bytecode;
/* The blit's bytecode (DXBC, shader model 5.0, shaders/blit.hlsl); stage 0 vertex, 1 pixel,
   2 the pixel shader of 8-bit unorm mips (PSMipUnorm8), 3 and 4 of two and three levels
   (PSMipChain2, PSMipChain3). */
d3d12_bytecode xgdi_d3d12_blit_shader(int stage);

#endif /* XGD_D3D12_INTERNAL_H */
