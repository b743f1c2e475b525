/*
 * renderer.h - the one interface every xgd renderer implements.
 *
 * Core (src/core) owns validation and all public state; a renderer only executes. Every
 * pointer and value a renderer receives has been validated and defaults are filled. A
 * renderer reports failures with xgdi_fail (core.h) and returns the code; it must leave its
 * own state as it was when it fails.
 *
 * Submission model (written for GPU renderers; the software renderer executes immediately):
 * work is recorded into the open frame; submit() closes it and signals the next value of a
 * monotonically increasing fence (r->submitted_fence); completed_fence() tells how far the
 * device got. Native objects that submitted or recorded work may still reference are retired
 * through xgdi_retire_push with the fence value that must pass before they are freed
 * (r->submitted_fence + 1 while recorded into the open frame) and freed by
 * xgdi_retire_collect; nothing waits for idle to free.
 */
#ifndef XGD_RENDERER_H
#define XGD_RENDERER_H

#include "xgd.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* a test that a per-draw path (core's or a renderer's) expects to pass (or to fail): the
   compiler lays the expected way out straight, without a taken jump */
#if defined(__GNUC__) || defined(__clang__)
#define XGDI_LIKELY(x) __builtin_expect(!!(x), 1)
#define XGDI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define XGDI_LIKELY(x) (x)
#define XGDI_UNLIKELY(x) (x)
#endif

typedef struct xgdi_renderer xgdi_renderer;
typedef struct xgdi_native_texture xgdi_native_texture; /* defined by each renderer */
typedef struct xgdi_native_buffer xgdi_native_buffer;   /* defined by each renderer */
typedef struct xgdi_native_query xgdi_native_query;     /* defined by each renderer */
typedef struct xgdi_native_shader xgdi_native_shader;   /* defined by each renderer */

/* ---- shared retirement (src/core/retire.c) ------------------------------------------------ */

typedef void (*xgdi_retire_fn)(xgdi_renderer *r, void *object);

typedef struct xgdi_retire_entry {
    uint64_t fence;       /* free once completed_fence() >= fence */
    xgdi_retire_fn fn;
    void *object;
} xgdi_retire_entry;

/* FIFO of objects waiting for a fence value; entries are pushed in non-decreasing fence order
 * per push site, collected in any order. Growth is amortised (no allocation in steady state). */
typedef struct xgdi_retire_queue {
    xgdi_retire_entry *items;
    size_t count, capacity;
} xgdi_retire_queue;

/* Returns XGD_ERROR_OUT_OF_MEMORY only when the queue cannot grow; the caller then frees the
 * object after waiting for the fence (correct, just slower). */
xgd_result xgdi_retire_push(xgdi_retire_queue *q, uint64_t fence, xgdi_retire_fn fn, void *object);
/* Frees (calls fn for) every entry whose fence <= completed, in push order. Returns how many. */
size_t xgdi_retire_collect(xgdi_retire_queue *q, xgdi_renderer *r, uint64_t completed);
/* Frees everything regardless of fences (after the renderer waited for idle at teardown). */
void xgdi_retire_flush_all(xgdi_retire_queue *q, xgdi_renderer *r);
void xgdi_retire_free(xgdi_retire_queue *q);

/* Fence-stamped index free list (retire.c): an index given back with a fence value is handed
 * out again only once completed_fence() >= that value, so native slots the GPU may still write
 * (query-heap slots) are never reused early. FIFO; growth is amortised. */
typedef struct xgdi_fenced_index {
    uint32_t index;
    uint64_t fence;
} xgdi_fenced_index;
typedef struct xgdi_fenced_indices {
    xgdi_fenced_index *items;    /* ring: head, count, capacity */
    size_t head, count, capacity;
    uint32_t next_unused;        /* indices below it have been handed out at least once */
} xgdi_fenced_indices;
/* A given-back index whose fence <= completed, else a never-used one below `limit`; false when
 * neither exists (the caller grows its storage, raising limit, and asks again). */
bool xgdi_fenced_take(xgdi_fenced_indices *p, uint64_t completed, uint32_t limit, uint32_t *index);
/* OUT_OF_MEMORY only when the list cannot grow; the index is then never reissued (a leak of
 * one slot, never a reuse). */
xgd_result xgdi_fenced_give(xgdi_fenced_indices *p, uint32_t index, uint64_t fence);
void xgdi_fenced_free(xgdi_fenced_indices *p);

/* ---- shared occlusion-query segments (src/core/query_segments.c) --------------------------- */

/* The renderer-neutral half of a GPU renderer's query ops (renderer.h query_*). Native queries
 * are slots of fixed-size chunks (Vulkan query pools, D3D12 query heaps) recycled through an
 * xgdi_fenced_indices, so a slot is written again only once the frame that last wrote it has
 * completed. A native query must begin and end in one command list while an xgd query must
 * survive submissions, so an xgd query is a list of segments: the list being closed ends the
 * active query's segment (xgdi_query_slots_suspend), the next one begins a fresh slot
 * (xgdi_query_slots_resume), and the count is the sum of the segments. Internal draws (blits)
 * are bracketed the same way so they are not counted. The next segment's slot and the room to
 * record it are reserved when a segment ends, so resuming (on the draw path, when a list
 * opens) neither allocates nor waits. The renderer supplies only the native calls. */
typedef struct xgdi_query_native_ops {
    /* Creates chunk number `chunk` (slots chunk * chunk_size onwards); fails by name,
       changing nothing. */
    xgd_result (*add_chunk)(xgdi_renderer *r, uint32_t chunk);
    /* The command list a begin or end is recorded into, outside any render pass (opened if
       none is being recorded); DEVICE_LOST once the device is lost. */
    xgd_result (*list)(xgdi_renderer *r, void **list);
    /* Records into `list` the start of a count from zero in slot `index` of chunk `chunk`
       (resetting the slot where the API needs it) ... */
    void (*begin)(xgdi_renderer *r, void *list, uint32_t chunk, uint32_t index);
    /* ... and its end, after which the count is readable once the list's frame completed. */
    void (*end)(xgdi_renderer *r, void *list, uint32_t chunk, uint32_t index);
    /* The count of a slot whose frame has completed. */
    xgd_result (*read)(xgdi_renderer *r, uint32_t chunk, uint32_t index, uint64_t *samples);
} xgdi_query_native_ops;

/* One native query: the segments of its current begin..end. */
typedef struct xgdi_query_segments {
    uint32_t *slots;            /* oldest first */
    uint64_t *slot_fences;      /* per segment: the fence of the frame that ended it */
    uint32_t count, capacity;
    uint64_t folded;            /* counts of segments already read and given back (a query
                                   active across many submissions keeps few slots) */
    uint64_t fence;             /* fence value of the frame holding the last segment */
    bool open;                  /* a segment is begun in the list being recorded */
    bool has_next;              /* `next` is reserved for the segment after a suspension */
    uint32_t next;
    bool incomplete;            /* a segment could not be reserved: the count would be short */
} xgdi_query_segments;

/* A renderer's slots. Slot s is index s % chunk_size of chunk s / chunk_size. */
typedef struct xgdi_query_slots {
    xgdi_renderer *owner;
    const xgdi_query_native_ops *ops;
    uint32_t chunk_size;
    uint32_t chunk_count;       /* chunks created (the renderer frees them at teardown) */
    xgdi_fenced_indices free;
    xgdi_query_segments *active; /* the query between begin and end, or NULL */
} xgdi_query_slots;

void xgdi_query_slots_init(xgdi_query_slots *s, xgdi_renderer *owner,
                           const xgdi_query_native_ops *ops, uint32_t chunk_size);
/* Teardown, after the device went idle and the renderer freed its chunks. */
void xgdi_query_slots_free(xgdi_query_slots *s);
/* The active query's segment around a submission or an internal draw: suspend ends it in
   `list` (outside rendering) and reserves the next slot; resume begins that slot in `list`.
   Both do nothing without an active query. */
void xgdi_query_slots_suspend(xgdi_query_slots *s, void *list);
void xgdi_query_slots_resume(xgdi_query_slots *s, void *list);
/* query_create (q zeroed by the caller), query_destroy (frees q's storage, not q), query_begin,
   query_end and query_result of renderer.h for one query, once the renderer checked that its
   device is not lost. result submits and waits through the device's ops table (dev->ops), as
   every core call does, so the debug fault hook (fault.c) sees those calls. */
xgd_result xgdi_query_segments_init(xgdi_query_slots *s, xgdi_query_segments *q);
void xgdi_query_segments_release(xgdi_query_slots *s, xgdi_query_segments *q);
xgd_result xgdi_query_segments_begin(xgdi_query_slots *s, xgdi_query_segments *q);
xgd_result xgdi_query_segments_end(xgdi_query_slots *s, xgdi_query_segments *q);
xgd_result xgdi_query_segments_result(xgdi_query_slots *s, xgdi_query_segments *q, bool flush,
                                      bool wait, bool *done, uint64_t *samples);

/* ---- what a renderer can do --------------------------------------------------------------- */

typedef struct xgdi_caps {
    const char *adapter_name;                 /* owned by the renderer */
    int max_texture_size;                     /* the renderer's own limit (core applies the
                                                 profile's on top) */
    int max_render_targets;                   /* 1..4 */
    int max_multisample_count;                /* highest power of two for colour targets */
    xgd_format_support formats[XGD_SURFACE_FORMAT_COUNT];
    bool depth_formats[XGD_DEPTH_FORMAT_COUNT]; /* which attachments it can create */
    xgd_zero_scissor_behavior zero_scissor;
    bool back_buffer_readback;                /* read_back_buffer works */
    bool present_to_window;                   /* present shows frames in renderer->window (a
                                                 windowed device is refused by name without) */
} xgdi_caps;

/* ---- resources ---------------------------------------------------------------------------- */

typedef struct xgdi_texture_desc {
    bool cube;                  /* six faces */
    bool render_target;         /* can be bound with set_render_targets */
    int width, height;          /* level 0 */
    int levels;                 /* >= 1 */
    xgd_surface_format format;  /* never DEFAULT */
    xgd_depth_format depth_format; /* NONE or an attachment format (render targets only) */
    int samples;                /* 1, 2, 4, 8 ... (render targets only; 1 = single-sampled) */
    const char *debug_name;     /* may be NULL */
    /* Texture3D (XGD_TEXTURE_3D): a volume of `depth` slices at level 0, each level halving
       width, height and depth on their own (xgdi_mip_dim). Never cube, never render_target.
       Its texels move through texture_upload_volume / texture_download_volume only. */
    bool volume;
    int depth;                  /* level-0 depth of a volume; 0 or 1 for every other texture */
} xgdi_texture_desc;

/* The region a texture op moves, as one shape for every kind: a 2D or cube face's rect is the
   box z 0..1 of that face; a volume's box has its own z range (face 0). */
static inline xgd_box xgdi_box_of_rect(const xgd_rect *rect)
{
    /* saturating, so a rect that skipped core's validation cannot overflow here; the region
       check then refuses it */
    long long r = (long long)rect->x + rect->width, btm = (long long)rect->y + rect->height;
    xgd_box b = { rect->x, rect->y, 0, r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : (int)r,
                  btm > INT32_MAX ? INT32_MAX : btm < INT32_MIN ? INT32_MIN : (int)btm, 1 };
    return b;
}

/* Whether face, level and box (right/bottom/back exclusive) lie inside a texture of this desc.
   Core validates every region before a renderer sees it (texture.c check_data_call /
   check_box_call); this one check is what renderers use to refuse, rather than overrun, a
   region that reached them some other way. */
bool xgdi_texture_region_ok(const xgdi_texture_desc *desc, int face, int level,
                            const xgd_box *box);

typedef enum xgdi_buffer_kind {
    XGDI_BUFFER_VERTEX = 0,
    XGDI_BUFFER_INDEX
} xgdi_buffer_kind;

/* One binding of a render-target set: a texture created with render_target, and the cube face
 * (0 for 2D). */
typedef struct xgdi_target {
    xgdi_native_texture *texture;
    int face;
} xgdi_target;

/* ---- programs ------------------------------------------------------------------------------ */

/* What a draw runs: always a vertex and a pixel shader of the shader form below. No renderer
 * has a built-in effect program: the stock effects are effects too (shaders/stock/,
 * src/graphics/). The field stays an enum so a renderer can refuse anything else by
 * name. */
typedef enum xgdi_program {
    XGDI_PROGRAM_USER = 1      /* a vertex and a pixel shader of the shader form (below); nonzero,
                                  so a zeroed draw state names no program */
} xgdi_program;

/* ---- user shaders: the one shader form every renderer consumes ---------------------------- */

/*
 * Effects loaded from bytes (src/shader) reach renderers as shaders of one form, SPIR-V 1.0
 * normalised by core (src/shader/spirv_form.c), whatever produced them (MojoShader's spirv
 * profile for fx_2_0 today; glslang for HLSL source later). Every renderer consumes this form
 * (Vulkan directly; the software renderer interprets it; Direct3D 12 translates it to DXBC).
 *
 * The form (tests/test_effect_spirv.c checks it, with spirv-val where installed):
 *   module      SPIR-V 1.0, capability Shader, memory model Logical GLSL450 or Simple, one
 *               entry point "main" (Vertex or Fragment; fragments OriginUpperLeft). Nothing
 *               follows the instruction stream.
 *   registers   a stage's constants are one uniform block, `struct { vec4 r[N]; }` (Block,
 *               member Offset 0, ArrayStride 16: std140 and HLSL cbuffer packing agree),
 *               DescriptorSet 0, Binding 0 for the vertex stage and Binding 1 for the pixel
 *               stage. r[i] holds register xgdi_shader_desc.registers[i] (core packs them;
 *               the constants a draw sees are already in this order, N vec4s). A pixel
 *               shader without constants has no block (constant_count 0, nothing to bind).
 *               HLSL effects (src/shader/spirv_hlsl.c) keep glslang's cbuffer struct, its
 *               members at HLSL packing offsets inside the N registers: renderers bind the
 *               block as 16 x N bytes and read it by the module's own offsets either way, so
 *               the form is "a Block of 16 x N bytes", and the constants core hands over are
 *               those bytes (registers[i] = i). The vertex struct's last member is the vec4
 *               pixel_offset at byte 16 x (N - 1). HLSL's separate Texture/SamplerState pairs
 *               are rewritten into the combined samplers below (texture register tN -> slot N),
 *               so every renderer still sees one form and nothing is converted per draw.
 *   pixel centre  the vertex stage's block has one more vec4 after its registers,
 *               r[N-1] = pixel_offset, which core fills per draw: (1/vp.width, -1/vp.height,
 *               0, 0) under XGD_PIXEL_CENTER_XNA (half a logical pixel of the viewport, as
 *               draw.c folds it into the stock matrices), zero otherwise. Before every return
 *               of main the shader does position += pixel_offset * position.w. A vertex
 *               shader therefore always has the block (N >= 1).
 *   samplers    pixel sampler register s (0..15) is a combined image sampler
 *               (OpTypeSampledImage) at DescriptorSet 0, Binding 2 + s, sampling device
 *               texture slot s with sampler state s (XNA: Textures[s], SamplerStates[s]).
 *               Its dimension is xgdi_shader_desc.sampler_kinds[s]. fx_2_0 vertex samplers
 *               are refused at load (NOT_SUPPORTED). A vertex shader's sampler register s
 *               (0..3, HLSL vertex textures) is a combined image sampler at Binding
 *               XGDI_SHADER_BINDING_VERTEX_SAMPLER0 + s, sampling vertex texture slot s with
 *               vertex sampler state s (XNA: VertexTextures[s], VertexSamplerStates[s]); its
 *               dimension is the vertex shader's sampler_kinds[s].
 *   locations   vertex inputs and the varyings between the stages use one rule,
 *               xgdi_shader_location(usage, index) below, so a vertex shader's outputs meet
 *               the pixel shader's inputs without a link step, and a vertex element of
 *               (usage, index) feeds the input at that location. Pixel outputs: COLORi at
 *               Location i; depth is BuiltIn FragDepth.
 *   position    BuiltIn Position in Direct3D clip space (y up, z in 0..1 after the divide),
 *               as the stock shaders: renderers flip y exactly as they do for them.
 *   values      every varying and register is a float4; vertex inputs read float4 (missing
 *               components 0,0,0,1 as Direct3D); colours are UNORM-converted by the input
 *               format. Interpolation is perspective-correct.
 */
#define XGDI_SHADER_MAX_REGISTERS 256   /* float4 registers a stage can use (vs_3_0: 256) */
#define XGDI_SHADER_MAX_INPUTS 16
#define XGDI_SHADER_MAX_SAMPLERS 16
#define XGDI_SHADER_BINDING_VS_CONSTANTS 0
#define XGDI_SHADER_BINDING_PS_CONSTANTS 1
#define XGDI_SHADER_BINDING_SAMPLER0 2  /* + sampler register */
#define XGDI_SHADER_BINDING_VERTEX_SAMPLER0 (XGDI_SHADER_BINDING_SAMPLER0 + XGDI_SHADER_MAX_SAMPLERS) /* + vertex sampler register */
#define XGDI_SHADER_MAX_VERTEX_SAMPLERS 4
#define XGDI_SHADER_LOCATION_COUNT 32

/* The location of a varying or vertex input of (usage, usage index), or -1 when the form has
 * none for it (the effect is then refused at load):
 *   TextureCoordinate 0..15 -> 0..15     Color 0..3 -> 16..19        Normal 0..1 -> 20..21
 *   Tangent 0 -> 22   Binormal 0 -> 23   BlendWeight 0 -> 24         BlendIndices 0 -> 25
 *   Position 0..2 -> 26..28              Fog 0 -> 29   PointSize 0 -> 30   Depth 0 -> 31 */
static inline int xgdi_shader_location(xgd_vertex_element_usage usage, int index)
{
    if (index < 0) return -1;
    switch (usage) {
    case XGD_VERTEX_USAGE_TEXTURE_COORDINATE: return index < 16 ? index : -1;
    case XGD_VERTEX_USAGE_COLOR: return index < 4 ? 16 + index : -1;
    case XGD_VERTEX_USAGE_NORMAL: return index < 2 ? 20 + index : -1;
    case XGD_VERTEX_USAGE_TANGENT: return index == 0 ? 22 : -1;
    case XGD_VERTEX_USAGE_BINORMAL: return index == 0 ? 23 : -1;
    case XGD_VERTEX_USAGE_BLEND_WEIGHT: return index == 0 ? 24 : -1;
    case XGD_VERTEX_USAGE_BLEND_INDICES: return index == 0 ? 25 : -1;
    case XGD_VERTEX_USAGE_POSITION: return index < 3 ? 26 + index : -1;
    case XGD_VERTEX_USAGE_FOG: return index == 0 ? 29 : -1;
    case XGD_VERTEX_USAGE_POINT_SIZE: return index == 0 ? 30 : -1;
    case XGD_VERTEX_USAGE_DEPTH: return index == 0 ? 31 : -1;
    default: return -1;
    }
}

typedef enum xgdi_shader_stage {
    XGDI_SHADER_VERTEX = 0,
    XGDI_SHADER_PIXEL
} xgdi_shader_stage;

typedef enum xgdi_sampler_kind {
    XGDI_SAMPLER_NONE = 0,      /* the register is not sampled */
    XGDI_SAMPLER_2D,            /* OpTypeImage Dim 2D: a 2D texture or render target */
    XGDI_SAMPLER_CUBE,          /* Dim Cube */
    XGDI_SAMPLER_3D             /* Dim 3D: a Texture3D */
} xgdi_sampler_kind;

typedef struct xgdi_shader_input {
    xgd_vertex_element_usage usage;
    int usage_index;
    int location;               /* xgdi_shader_location(usage, usage_index) */
} xgdi_shader_input;

/* What shader_create receives: the code in the form above and its reflection. */
typedef struct xgdi_shader_desc {
    xgdi_shader_stage stage;
    const uint32_t *code;       /* SPIR-V words (valid for the call only) */
    size_t word_count;
    int constant_count;         /* N: vec4s of the block, pixel_offset included for vertex
                                   shaders; 0 = the stage has no block */
    const uint16_t *registers;  /* the register each r[i] holds (constant_count entries; the
                                   vertex stage's last one is pixel_offset, 0xffff) */
    int input_count;            /* vertex shaders: the inputs, at most XGDI_SHADER_MAX_INPUTS */
    const xgdi_shader_input *inputs;
    xgdi_sampler_kind sampler_kinds[XGDI_SHADER_MAX_SAMPLERS]; /* pixel shaders; vertex
                                   shaders: vertex sampler registers 0..3 */
    uint32_t color_outputs;     /* pixel shaders: bit i = writes COLORi (render target i) */
    const char *debug_name;     /* may be NULL */
} xgdi_shader_desc;

/* ---- draws -------------------------------------------------------------------------------- */

typedef struct xgdi_vertex_layout {
    int stride;
    int count;
    xgd_vertex_element elements[16];
    uint64_t hash;              /* of stride and elements: equal layouts hash equally */
} xgdi_vertex_layout;

/* Bits of xgdi_draw_state.dirty: what changed since the renderer last saw this state. The
 * renderer clears nothing; core resets the mask after each successful draw. */
enum {
    XGDI_DIRTY_BLEND = 1 << 0,
    XGDI_DIRTY_DEPTH_STENCIL = 1 << 1,
    XGDI_DIRTY_RASTERIZER = 1 << 2,
    XGDI_DIRTY_VIEWPORT = 1 << 3,
    XGDI_DIRTY_SCISSOR = 1 << 4,
    XGDI_DIRTY_PROGRAM = 1 << 5,
    XGDI_DIRTY_CONSTANTS = 1 << 6,
    XGDI_DIRTY_TEXTURES = 1 << 7,
    XGDI_DIRTY_SAMPLERS = 1 << 8,
    XGDI_DIRTY_LAYOUT = 1 << 9,
    XGDI_DIRTY_VERTEX_TEXTURES = 1 << 10, /* vertex_textures or vertex_samplers */
    XGDI_DIRTY_ALL = 0x7ff
};

#define XGDI_MAX_TEXTURE_SLOTS 16
#define XGDI_MAX_VERTEX_TEXTURE_SLOTS 4 /* XNA HiDef's VertexTextures[0..3] */

/* The index of the lowest set bit of m (m != 0): draws walk only the slots whose bit is set. */
static inline int xgdi_lowest_bit(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int i = 0;
    while (!(m >> i & 1u)) i++;
    return i;
#endif
}

/* The pipeline state a draw uses. All pointers are valid for the duration of the call; the
 * descs are normalised (no DEFAULT enum values remain, masks explicit). */
typedef struct xgdi_draw_state {
    uint32_t dirty;
    /* core's (internal.h, the texture slots named changed), beside dirty so that
       xgd_draw_user_primitives tests both in one; renderers do not read it */
    uint32_t slots_changed;
    const xgd_blend_state_desc *blend;            /* independent_blend resolved: all 4 filled */
    const xgd_depth_stencil_desc *depth_stencil;
    const xgd_rasterizer_desc *rasterizer;
    /* Viewport and scissor in physical pixels of the bound target (presentation geometry
       already applied). scissor is clipped to the target and used only when
       rasterizer->scissor_test_enable. */
    xgd_viewport viewport;
    xgd_rect scissor;
    xgdi_program program;
    /* XGDI_PROGRAM_USER: the shaders (from shader_create) and each stage's block contents
       (constant_count vec4s of its desc; the vertex block's last vec4 is pixel_offset, filled
       for this draw). A pixel shader's sampler s reads textures[s] with samplers[s]; core
       guarantees the texture's kind matches sampler_kinds[s] (or the slot is NULL: the
       renderer samples (0,0,0,1) there). XGDI_DIRTY_PROGRAM marks a change of shaders,
       XGDI_DIRTY_CONSTANTS one of either block. */
    xgdi_native_shader *vs, *ps;
    const float *vs_constants, *ps_constants;
    size_t vs_constants_size, ps_constants_size; /* bytes: 16 x constant_count */
    xgdi_native_texture *textures[XGDI_MAX_TEXTURE_SLOTS];
    const xgd_sampler_desc *samplers[XGDI_MAX_TEXTURE_SLOTS];
    const xgdi_vertex_layout *layout;
    /* XGDI_PROGRAM_USER: the vertex stage's slots (XNA's VertexTextures / VertexSamplerStates);
       a vertex shader's sampler s reads vertex_textures[s] with vertex_samplers[s] (NULL
       texture: (0,0,0,1) as for pixel slots; the kind is checked by core as for those). */
    xgdi_native_texture *vertex_textures[XGDI_MAX_VERTEX_TEXTURE_SLOTS];
    const xgd_sampler_desc *vertex_samplers[XGDI_MAX_VERTEX_TEXTURE_SLOTS];
} xgdi_draw_state;

/* One vertex buffer binding of a draw with several (xgd_set_vertex_buffers). */
typedef struct xgdi_vertex_stream {
    xgdi_native_buffer *buffer;
    size_t offset;                   /* bytes: the binding's vertex offset times stride */
    size_t readable;                 /* elements readable from offset (core checked the draw
                                        stays inside) */
    int stride;
    int instance_frequency;          /* 0: per vertex; n: element instance / n */
} xgdi_vertex_stream;

typedef struct xgdi_draw {
    xgd_primitive_type type;
    int primitive_count;
    int vertex_count;                /* vertices (non-indexed) or indices (indexed) to read */
    /* vertex source: a buffer (byte offset) or user memory (already offset) */
    xgdi_native_buffer *vertex_buffer;
    size_t vertex_offset;            /* bytes into vertex_buffer */
    const void *user_vertices;       /* when vertex_buffer is NULL */
    int user_vertex_count;           /* vertices readable from user_vertices */
    /* index source, for indexed draws (index_size 0 = not indexed) */
    int index_size;                  /* 0, 2 or 4 bytes */
    xgdi_native_buffer *index_buffer;
    size_t index_offset;             /* bytes into index_buffer */
    const void *user_indices;        /* when index_buffer is NULL */
    int base_vertex;                 /* added to each index */
    int first_vertex;                /* non-indexed: first vertex, relative to the source */
    const xgdi_draw_state *state;
    /* Instancing and several vertex buffers (user programs only). instance_count 0 or 1 draws
       once. stream_count 0: the draw reads vertex_buffer with state->layout alone. Otherwise
       streams[] are the bindings in order, stream_layout holds their elements in that order
       (element i from stream element_stream[i]; offsets within that stream; its hash covers
       every stream's layout, stride and frequency), and vertex_buffer / vertex_offset /
       state->layout are the first per-vertex stream's, as a single-stream draw has them. */
    int instance_count;
    int stream_count;
    const xgdi_vertex_stream *streams;
    const xgdi_vertex_layout *stream_layout;
    const uint8_t *element_stream;
    /* Vertices already in the renderer's upload memory (reserve_vertices, the latest
       reservation, made in the open frame): user_vertices is the reservation's CPU pointer
       (what a renderer without upload memory reads) and user_vertex_count its vertices; a GPU
       renderer reads them where they lie, at reserved_at, without a copy. Only indexed through
       index_buffer; base_vertex counts from the reservation's first vertex. */
    bool reserved;
    uint64_t reserved_at;
    /* A reservation of per-quad elements (xgd_reserve_user_quad_instances; only with
       `reserved`): each element is one quad's, read at instance rate, and the draw is one
       quad's 6 indices (vertex_count 6, base_vertex 0: the vertex index is the corner 0..3)
       for instance_count quads from element reserved_at + first_instance. */
    bool per_instance;
    int first_instance;
} xgdi_draw;

/* One run of draw_quad_runs: the texture pixel sampler slot 0 samples, the quads, and their
   first vertex counted from the reservation's (a draw's base_vertex). */
typedef struct xgdi_quad_run {
    xgdi_native_texture *texture;
    int quad_count;
    int base_vertex;
} xgdi_quad_run;

/* The most bytes one reserve_vertices must be able to give (GPU renderers may give more). */
#define XGDI_RESERVE_MIN_CAPACITY ((size_t)4 << 20)

/* ---- the function table ------------------------------------------------------------------- */

typedef struct xgdi_renderer_create_info {
    struct xgd_device *device;          /* for xgdi_fail / xgdi_warn */
    const xgd_presentation_parameters *pp; /* applied; windowed: back buffer = window size */
    struct xgdi_window *window;         /* src/platform/window.h; NULL when headless */
    xgd_graphics_profile profile;
    bool debug;
} xgdi_renderer_create_info;

/* The vertices of a user_draw_fast draw into upload memory. A quad's few (33 to 192 bytes:
   four to six vertices of up to 32 bytes) are two overlapping runs of two to six 16-byte
   moves inline (xgdi_copy_small_vertices, for a caller that has tested the size); more, or
   fewer, go through memcpy. The moves are written one by one: a compiler may expand a
   fixed-size memcpy of 64 bytes into a string instruction (rep movs), which costs more than
   the moves at this size. */
#define XGDI_SMALL_VERTICES_MIN 33u
#define XGDI_SMALL_VERTICES_MAX 192u
#if defined(__GNUC__) || defined(__clang__)
typedef unsigned char xgdi_chunk16 __attribute__((vector_size(16), aligned(1), may_alias));
#define XGDI_COPY16(d, s) (*(xgdi_chunk16 *)(void *)(d) = *(const xgdi_chunk16 *)(const void *)(s))
#else
#define XGDI_COPY16(d, s) memcpy((d), (s), 16)
#endif
/* n in XGDI_SMALL_VERTICES_MIN..MAX (one unsigned compare: n - MIN <= MAX - MIN) */
static inline bool xgdi_small_vertices(size_t n)
{
    return n - XGDI_SMALL_VERTICES_MIN <= XGDI_SMALL_VERTICES_MAX - XGDI_SMALL_VERTICES_MIN;
}
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void xgdi_copy_small_vertices(uint8_t *dst, const void *src, size_t n)
{
    /* the first k and the last k 16-byte pieces, overlapping in the middle */
    const uint8_t *s = src;
    uint8_t *de = dst + n - 16;
    const uint8_t *se = s + n - 16;
    XGDI_COPY16(dst, s);
    XGDI_COPY16(dst + 16, s + 16);
    XGDI_COPY16(de - 16, se - 16);
    XGDI_COPY16(de, se);
    if (n > 64) {
        XGDI_COPY16(dst + 32, s + 32);
        XGDI_COPY16(de - 32, se - 32);
        if (n > 96) {
            XGDI_COPY16(dst + 48, s + 48);
            XGDI_COPY16(de - 48, se - 48);
            if (n > 128) {
                XGDI_COPY16(dst + 64, s + 64);
                XGDI_COPY16(de - 64, se - 64);
                if (n > 160) {
                    XGDI_COPY16(dst + 80, s + 80);
                    XGDI_COPY16(de - 80, se - 80);
                }
            }
        }
    }
}
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void xgdi_copy_vertices(uint8_t *dst, const void *src, size_t n)
{
    if (xgdi_small_vertices(n))
        xgdi_copy_small_vertices(dst, src, n);
    else
        memcpy(dst, src, n);
}

/* renderer_ops.user_draw_fast (the draw state is r->draw_state, the vertex count
   xgdi_user_vertex_count's; the parameters are in the registers of xgd_draw_user_primitives'
   own, so that its tail call moves few) */
typedef xgd_result xgdi_user_draw_fast_fn(xgdi_renderer *r, xgd_primitive_type type,
                                          const void *vertices, int primitive_count);
/* user_draw_fast's answer when it records nothing: core takes back the draw it counted and
   draws through renderer_ops.draw (draw.c). */
xgd_result xgdi_user_draw_declined(struct xgd_device *device, xgd_primitive_type type,
                                   const void *vertices, int primitive_count);
/* The vertices `primitive_count` (>= 0) primitives of a valid `type` take, without a switch:
   count * mul + add. */
static inline int xgdi_user_vertex_count(xgd_primitive_type type, int primitive_count)
{
    static const int8_t mul[4] = { 3, 1, 2, 1 }, add[4] = { 0, 2, 0, 1 };
    return primitive_count * mul[type] + add[type];
}

typedef struct xgdi_renderer_ops {
    const char *name;                   /* "software", "vulkan", "d3d12" */
    xgd_renderer_kind kind;
    /* reserve_vertices gives memory the GPU reads and the CPU does not (xgd_quad_reservation's
       stream_stores): its space then starts 16-byte aligned */
    bool upload_streams;
    /* draws reservations of per-quad elements (xgdi_draw.per_instance) */
    bool instanced_quads;

    /* Creates the renderer with its implicit back buffer (pp size, Color, pp depth format,
       pp multisample count, all already clamped by core through probe_caps) and binds it. */
    xgd_result (*create)(const xgdi_renderer_create_info *info, xgdi_renderer **out);
    /* Waits for the device to go idle, frees every retired object, then the renderer. Native
       textures/buffers still alive have been destroyed by core before this call. */
    void (*destroy)(xgdi_renderer *r);
    void (*get_caps)(xgdi_renderer *r, xgdi_caps *out);
    /* Recreates the back buffer for new presentation parameters (Reset). On failure the old one
       stays. Render targets are unbound by core before the call. */
    xgd_result (*reset_back_buffer)(xgdi_renderer *r, const xgd_presentation_parameters *pp);

    xgd_result (*texture_create)(xgdi_renderer *r, const xgdi_texture_desc *desc,
                                 xgdi_native_texture **out);
    /* Retires the texture (it may be referenced by submitted work). Never fails. */
    void (*texture_destroy)(xgdi_renderer *r, xgdi_native_texture *t);
    /* data: rows of the rect, row_pitch bytes apart, in the texture's format (block rows for
       DXT). Render targets upload into their sampleable image. */
    xgd_result (*texture_upload)(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                 const xgd_rect *rect, const void *data, size_t row_pitch);
    /* Synchronous read of the sampleable image (a multisampled target's resolved image). */
    xgd_result (*texture_download)(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                   const xgd_rect *rect, void *data, size_t row_pitch);
    /* Texture3D texels (desc.volume textures only; core never passes a volume to
       texture_upload / texture_download, nor a 2D or cube texture here). box: inside `level`,
       right/bottom/back exclusive, DXT boxes 4-aligned (or reaching the level edge) in x and
       y. data: rows row_pitch bytes apart (block rows for DXT), slices slice_pitch bytes
       apart, front to back. Upload records like texture_upload (draws already recorded keep
       the old texels); download is synchronous. NULL: the renderer has no volume textures
       (its caps then report no format with .volume). */
    xgd_result (*texture_upload_volume)(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                        const xgd_box *box, const void *data, size_t row_pitch,
                                        size_t slice_pitch);
    xgd_result (*texture_download_volume)(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                          const xgd_box *box, void *data, size_t row_pitch,
                                          size_t slice_pitch);
    /* Finalisation of a render target leaving a binding (spec 000/001): resolve the MSAA
       image of `face` into the sampleable image, then regenerate that face's mip chain when
       levels > 1. Core calls it for every outgoing target before set_render_targets. */
    xgd_result (*texture_finalize)(xgdi_renderer *r, xgdi_native_texture *t, int face);

    xgd_result (*buffer_create)(xgdi_renderer *r, xgdi_buffer_kind kind, size_t size,
                                bool dynamic, xgdi_native_buffer **out);
    void (*buffer_destroy)(xgdi_renderer *r, xgdi_native_buffer *b);
    /* NONE must not disturb draws already recorded (copy through the upload ring, or rename);
       DISCARD may rename the storage; NO_OVERWRITE may write in place. */
    xgd_result (*buffer_upload)(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                const void *data, size_t size, xgd_set_data_options options);
    xgd_result (*buffer_download)(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                                  void *data, size_t size);

    /* Binds 1..4 targets, or the back buffer when count is 0. Validation is done; the renderer
       may still fail natively, and then must keep the old binding. */
    xgd_result (*set_render_targets)(xgdi_renderer *r, const xgdi_target *targets, int count);
    /* Clears every bound target's colour (options & XGD_CLEAR_TARGET), depth and stencil planes
       (core only asks for planes that exist). The whole target, ignoring viewport/scissor.
       color is the float value written (converted to the target format). */
    xgd_result (*clear)(xgdi_renderer *r, unsigned options, const float color[4], float depth,
                        int stencil);
    xgd_result (*draw)(xgdi_renderer *r, const xgdi_draw *draw);
    /* Optional (NULL: draw serves): xgd_draw_user_primitives' common case, a draw of
       user vertices (one instance, no indices, `primitive_count` primitives) of primitive
       `type` when nothing in r->draw_state but texture slots changed since the last draw the
       renderer accepted (its layout, r->draw_state->layout, included: a renderer that armed
       this path at that draw need not test the layout again). Core has already counted the
       draw as accepted (dirty is 0).
       Records it and returns XGD_OK, or records nothing and returns
       xgdi_user_draw_declined(r->device, type, vertices, primitive_count), which takes
       the count back and draws through draw. It cannot fail otherwise: a renderer that would
       have to report something declines. */
    xgdi_user_draw_fast_fn *user_draw_fast;
    /* Reads rect (physical pixels, inside the back buffer) of the back buffer's resolved image
       as RGBA8 rows of rect->width * 4 bytes. */
    xgd_result (*read_back_buffer)(xgdi_renderer *r, const xgd_rect *rect, void *rgba);
    /* Ends the frame: resolves back-buffer MSAA, submits, rotates frame slots; presents when
       windowed. */
    xgd_result (*present)(xgdi_renderer *r, int swap_interval);

    /* Closes and submits the open frame's work; r->submitted_fence is then its fence value. */
    xgd_result (*submit)(xgdi_renderer *r);
    uint64_t (*completed_fence)(xgdi_renderer *r);
    /* Blocks until completed_fence() >= value. DEVICE_LOST if the device is gone. */
    xgd_result (*wait_fence)(xgdi_renderer *r, uint64_t value);

    /* Optional (NULL allowed): fills the renderer-reported fields of *inout (the descriptor
       counters); core has already filled the rest and leaves them to core. */
    void (*get_statistics)(xgdi_renderer *r, xgd_statistics *inout);

    /* Optional (NULL: XGD_ERROR_NOT_SUPPORTED): fills *out (zeroed by core) with what the native
       API reports (xgd_device_get_native_caps). */
    xgd_result (*get_native_caps)(xgdi_renderer *r, xgd_native_caps *out);

    /* Occlusion queries (optional as a group: a renderer without query_create makes
       xgd_occlusion_query_create return NOT_SUPPORTED by name). Core (src/core/query.c) owns
       every rule: at most one query is active per device, begin is only called on an inactive
       query, end only on the active one, query_result only on an ended one. A query counts the
       samples that pass the depth and stencil tests (after scissor and viewport) of the draws
       between begin and end; internal draws of the renderer (blits) must not count, clears
       do not.
       query_create: a new, never-begun query. NOT_SUPPORTED (with the missing feature named)
         where the native device cannot count precisely.
       query_destroy: frees it; core ends an active query first. Native slots the GPU may
         still write are recycled by fence (xgdi_fenced_give), never reused early. Never fails.
       query_begin: discards the previous result and starts counting from zero. The count must
         survive submissions of the open frame while active (present, synchronous readbacks,
         fences): a GPU renderer ends its native query in the list it closes, begins a fresh
         native slot in the next one, and sums the segments.
       query_end: stops counting.
       query_result: whether the count of the last begin/end is available, and then *samples.
         flush: submit the open frame if the end is still in it (D3D9 D3DGETDATA_FLUSH),
         without waiting; wait: submit if needed and block until it is available. *done false
         (and XGD_OK) when it is not yet available. */
    xgd_result (*query_create)(xgdi_renderer *r, xgdi_native_query **out);
    void (*query_destroy)(xgdi_renderer *r, xgdi_native_query *q);
    xgd_result (*query_begin)(xgdi_renderer *r, xgdi_native_query *q);
    xgd_result (*query_end)(xgdi_renderer *r, xgdi_native_query *q);
    xgd_result (*query_result)(xgdi_renderer *r, xgdi_native_query *q, bool flush, bool wait,
                               bool *done, uint64_t *samples);

    /* User shaders (optional as a pair: NULL makes applying an effect loaded from bytes fail
       with NOT_SUPPORTED naming the renderer). shader_create makes a native shader from the
       form above (desc and code are valid for the call only; copy what draws need); it fails
       by name (NOT_SUPPORTED for an instruction the renderer cannot run). shader_destroy may
       be called while draws that used it are recorded: retire what they reference. Never
       fails. */
    xgd_result (*shader_create)(xgdi_renderer *r, const xgdi_shader_desc *desc,
                                xgdi_native_shader **out);
    void (*shader_destroy)(xgdi_renderer *r, xgdi_native_shader *s);

    /* Vertex space the caller writes itself (xgd_reserve_user_quads): `bytes` bytes (at least
       up to XGDI_RESERVE_MIN_CAPACITY) for vertices of `stride` bytes in the open frame's
       upload memory, returned as a CPU pointer and the renderer's place for it (*at, which a
       draw with `reserved` names). It may submit and wait as a draw's own upload may (never
       per vertex); core keeps only the latest reservation drawable, and none across a
       submission. The space must stay untouched by everything the renderer records until
       the frame is submitted, and a draw of it must not submit before recording it (a GPU
       renderer that would have to refuses the draw with INVALID_OPERATION). Fails by name
       (OUT_OF_MEMORY), changing nothing. Required. */
    xgd_result (*reserve_vertices)(xgdi_renderer *r, size_t bytes, size_t stride, void **cpu,
                                   uint64_t *at);
    /* Optional (NULL: core submits each run as a draw). Right after `draw` (a reserved quad
       draw the renderer accepted, its state current), records runs[0..count) of the same
       draw: each with textures[0] = the run's texture (core checked it as a draw checks a
       slot) and the run's quads at its base vertex (a reservation of per-quad elements,
       draw->per_instance: its quads from element base_vertex / 4, an instance each, as that
       draw does); nothing else differs. *drawn: the runs
       recorded, all of them on success; a failure at run k leaves runs before it recorded. */
    xgd_result (*draw_quad_runs)(xgdi_renderer *r, const xgdi_draw *draw,
                                 const xgdi_quad_run *runs, int count, int *drawn);
} xgdi_renderer_ops;

/* Every renderer's struct starts with this. */
struct xgdi_renderer {
    const xgdi_renderer_ops *ops;
    struct xgd_device *device;
    uint64_t submitted_fence;   /* value signalled by the last submit (0 before the first) */
    xgdi_retire_queue retired;
    /* Windowed devices: the window present shows the back buffer in (src/platform/window.h),
       set by core after create and switched by Reset before reset_back_buffer; NULL headless. */
    struct xgdi_window *window;
    /* the device's draw state (what xgdi_draw.state points at), set by core after create */
    const xgdi_draw_state *draw_state;
    /* Set by the renderer at create: its device is a CPU implementation (lavapipe, WARP, vkd3d
       on lavapipe), which reads upload memory through the CPU's caches, so a reservation's
       stream_stores is false there (xgd_reserve_user_quads) although ops->upload_streams
       still aligns it. */
    bool cpu_device;
    /* Set by core around reserve_vertices for a held reservation (xgd_hold_user_quad_instances):
       the renderer must not submit the open frame to make room then (it may wait for earlier
       frames), and fails by name (OUT_OF_MEMORY) instead: a submission would end the device's
       other held reservations, whose holders would copy them out of write-combined memory. */
    bool holding;
};

/* The renderers compiled in (src/core/renderers.c, the only list with #if per renderer). */
extern const xgdi_renderer_ops xgdi_software_renderer_ops;
#ifdef XGD_HAVE_VULKAN
extern const xgdi_renderer_ops xgdi_vulkan_renderer_ops;
#endif
#ifdef XGD_HAVE_D3D12
extern const xgdi_renderer_ops xgdi_d3d12_renderer_ops;
#endif

/* ---- helpers core gives renderers (src/core/device.c) ------------------------------------- */

/* Records code + formatted message on the device, sends it to the log callback, returns code. */
xgd_result xgdi_fail(struct xgd_device *device, xgd_result code, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats (%zu): mingw checks plain printf as MS printf */
    __attribute__((format(gnu_printf, 3, 4)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Sends a warning to the log callback without changing the last error. */
void xgdi_warn(struct xgd_device *device, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats (%zu): mingw checks plain printf as MS printf */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* An optional step whose failure is no error of the call that tried it (an upload memory that
   could not grow): between these, xgdi_fail records nothing and logs nothing. Spans nest; the
   outermost begin clears the message. xgdi_quiet_end returns the last message such a failure
   made ("" if none), valid until the next failure; the renderer says what it did instead
   (xgdi_warn). Losses are still entered and raised. */
void xgdi_quiet_begin(struct xgd_device *device);
const char *xgdi_quiet_end(struct xgd_device *device);
/* The code of the device's latest xgdi_fail, in a quiet span or not: what a helper that
   reported its failure and returned false (or NULL) failed with. Never XGD_OK: a device that
   recorded no failure gives INVALID_OPERATION (a helper that failed without reporting). Not
   xgd_device_last_result, which a quiet span leaves as it was (then often XGD_OK: a failure
   passed on as success). */
xgd_result xgdi_failure(const struct xgd_device *device);
/* The message of the device's latest failure, in a quiet span or not (the buffer it is in:
   a caller may clear it before a step, to tell whether the step wrote one). */
char *xgdi_failure_message(struct xgd_device *device);
/* Enters the lost state (a native call returned device-lost) and raises DEVICE_LOST. */
void xgdi_device_lost(struct xgd_device *device, const char *reason);
/* Called by a GPU renderer right before it submits recorded work (the first thing its submit
 * does): the device's held reservations end (xgd_hold_user_quad_instances), their holders
 * reading what they wrote while it is still there. */
void xgdi_renderer_submitting(xgdi_renderer *r);
/* Backs the pages of [p, p + n) of a mapping now (pages.c), so that first writes there take
   no page fault; the contents are left as they are. False where the system has no such call or
   refused it (device memory mapped without page structures): the pages then fault in on use. */
bool xgdi_prefault_pages(void *p, size_t n);
/* Writes a zero into the byte at p and into the first byte of every later 4 KiB page of
   [p, p + n), so that each page has been written once before a per-draw path writes it (see
   pages.c: the first write into a page can cost where no page fault shows). The caller
   guarantees that nothing reads or writes that memory meanwhile (the GPU included). */
#define XGDI_TOUCH_PAGE ((uintptr_t)4096)
void xgdi_touch_pages(void *p, size_t n);

/* The poll before a blocking wait for the GPU (spin.c). A blocking wait returns some time after
   the GPU finished (the driver's completion signal, then the thread's wake-up); a caller that
   waits for data it needs now (a readback, a query result) may poll the fence first, for at
   most a budget, and block only after it. The budget, in nanoseconds: $XGD_WAIT_SPIN_US
   microseconds (read once per device, at most a second); unset, malformed or 0: no polling
   (spin.c says why that is the default). */
uint64_t xgdi_wait_spin_budget_ns(void);
/* Calls done(ctx) until it returns true or budget_ns have passed; returns its last answer. */
bool xgdi_spin_until(bool (*done)(void *ctx), void *ctx, uint64_t budget_ns);

/* The implicit back buffer every renderer creates (spec 002 "Back-buffer format"): the pp size,
   stored as Color whatever pp asks, the pp depth format (DEFAULT = Depth24), and the pp sample
   count rounded down to a power of two no higher than max_samples (1 = single-sampled). */
xgdi_texture_desc xgdi_back_buffer_desc(const xgd_presentation_parameters *pp, int max_samples);

/* XNA's float depth bias to integer units of a depth format (spec 002): D16 65535, D24/D24S8
   16777215, 32-bit float 8388607; saturates at int32; NaN or an unknown format gives 0. */
int32_t xgdi_depth_bias_units(float depth_bias, xgd_depth_format format, bool float32_depth);

/* Depth-bias unit probe (src/core/depth_bias_probe.c). Vulkan lets a fixed-point format's r be
   up to 2 x 2^-n, so a driver may move depth by two of the format's steps per integer unit;
   GPU renderers measure it and divide spec 002's count by the factor (truncating toward zero).
   xgdi_depth_bias_probe draws through r->ops into a 4x1 colour + `format` target (D16, D24 or
   D24S8; the renderer must pass spec 002's count unscaled for `format` while probing), reads
   it back, binds the back buffer again and returns 1 or 2, or 0 when it cannot conclude (the
   caller then assumes 1 and warns). xgdi_depth_bias_factor_decide is the decision alone:
   passed[] are its four columns (biases 0, -8, -18, -40 units, quad 12 steps behind). */
int xgdi_depth_bias_probe(xgdi_renderer *r, xgd_depth_format format);
int xgdi_depth_bias_factor_decide(const bool passed[4]);

#endif /* XGD_RENDERER_H */
