/*
 * vk_internal.h - private structures of the Vulkan renderer (src/renderers/vulkan).
 *
 * Model, in short (issue 4):
 *  - one graphics queue; two frame slots, each with a command pool/buffer and the timeline
 *    value its last submission signals; r->base.submitted_fence is the timeline's value, so
 *    completed_fence() is one vkGetSemaphoreCounterValue and the CPU waits only when a slot
 *    it is about to reuse has not finished;
 *  - every image lives in VK_IMAGE_LAYOUT_GENERAL after creation, and hazards between
 *    transfers, rendering and sampling are ordered by one global memory barrier emitted lazily
 *    (r->hazard) before the next operation that touches memory;
 *  - rendering is dynamic rendering begun lazily at the first draw after a binding change, with
 *    VK_ATTACHMENT_LOAD_OP_CLEAR when the last thing core did to an attachment was a whole
 *    clear (DiscardContents costs no load);
 *  - per-draw data (constants, user vertices and indices) and uploads go through one
 *    persistently mapped ring (big ones through dedicated buffers reused by fence,
 *    vk_transfer.c); descriptors are pushed (VK_KHR_push_descriptor) only when the
 *    constants, texture or sampler changed since the last draw, so nothing is allocated per
 *    draw in steady state.
 */
#ifndef XGD_VK_INTERNAL_H
#define XGD_VK_INTERNAL_H

#include "renderer.h"
#include "format.h"
#include "vk_mem.h"

#include <vulkan/vulkan.h>

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define XVK_FRAMES 2
#define XVK_MAX_TARGETS 4
#define XVK_RING_SIZE (32u << 20)
/* the most the ring grows to (vk_device.c ring_grow): 1 GiB */
#define XVK_RING_MAX ((uint64_t)1 << 30)
/* what Present prefaults ahead of the ring's head at least (ring_prefault) */
#define XVK_RING_PREFAULT_MIN ((uint64_t)1 << 20)
#define XVK_BLOCK_SIZE (64u << 20)

typedef struct xvk_renderer xvk_renderer;

/* ---- memory (vk_mem.c) ---- */

typedef struct xvk_block {
    VkDeviceMemory memory;
    void *mapped;              /* host-visible blocks stay mapped */
    xvk_range_heap heap;
    uint32_t type;
} xvk_block;

typedef struct xvk_alloc {
    VkDeviceMemory memory;
    VkDeviceSize offset;
    void *mapped;              /* NULL unless host visible */
    xvk_block *block;          /* NULL for a dedicated allocation */
    uint64_t taken_offset, taken_size;
    uint32_t type;             /* the memory type */
} xvk_alloc;

typedef struct xvk_memory {
    VkPhysicalDeviceMemoryProperties props;
    xvk_block **blocks;
    size_t block_count, block_capacity;
    uint64_t live_allocations, dedicated_allocations, blocks_created;
} xvk_memory;

xgd_result xvk_mem_alloc(xvk_renderer *r, const VkMemoryRequirements *req,
                         VkMemoryPropertyFlags want, xvk_alloc *out);
void xvk_mem_free(xvk_renderer *r, xvk_alloc *a);
void xvk_mem_destroy_all(xvk_renderer *r);

/* ---- resources ---- */

struct xgdi_native_texture {
    xgdi_texture_desc desc;
    int faces, layers;
    VkFormat format;
    xgd_surface_format store;  /* the format the image holds: desc.format, or the wide format
                                  of a packed one kept wide (converted at upload and readback) */
    VkImage image;             /* sampleable (single-sampled) image: all faces and levels (a
                                  volume: a VK_IMAGE_TYPE_3D image, desc.depth slices) */
    xvk_alloc mem;
    VkImageView view;          /* sampled view (2D, cube or 3D; identity or format swizzle) */
    bool filterable;           /* r->support[desc.format].filterable, kept where draws read view */
    VkImageView *rt_views;     /* render targets: one colour view per face of level 0 */
    /* multisampled render targets: a faces-layer 2D array image drawn into, resolved into
       `image` at finalisation (issue 4: a multisampled cube is a six-layer array) */
    VkImage ms_image;
    xvk_alloc ms_mem;
    VkImageView *ms_views;     /* one per face */
    bool ms_dirty[6];
    /* depth/stencil: one attachment shared by every face (XNA gives a target one) */
    VkImage depth_image;
    xvk_alloc depth_mem;
    VkImageView depth_view;
    VkFormat depth_vk;
    bool has_stencil;
    int samples;
    bool is_dxt;
    uint64_t last_use;         /* fence value of the last frame that referenced it */
    char label[64];            /* debug devices: the name command-buffer labels show */
};

struct xgdi_native_buffer {
    xgdi_buffer_kind kind;
    size_t size;
    VkBuffer buffer;
    xvk_alloc mem;
    uint8_t *shadow;           /* CPU copy: downloads never wait (the GPU never writes buffers) */
};

/* ---- pipelines ---- */

/* xvk_pipeline_key.program of the sample fill's pipeline (vk_draw.c, xvk_refill_samples) */
#define XVK_PIPELINE_FILL_SAMPLES 0xffffffffu

typedef struct xvk_pipeline_key {
    uint32_t program;           /* XGDI_PROGRAM_USER or XVK_PIPELINE_FILL_SAMPLES */
    uint32_t user_vs, user_ps;  /* XGDI_PROGRAM_USER: the shaders' serial numbers */
    uint64_t layout_hash;
    uint32_t topology;
    uint32_t color_count;
    uint32_t color_formats[XVK_MAX_TARGETS];
    uint32_t depth_format;
    uint32_t samples;
    uint32_t sample_mask;
    /* blend per target: enable, 6 factors/ops, write mask */
    uint32_t blend[XVK_MAX_TARGETS][8];
    /* depth-stencil */
    uint32_t depth_test, depth_write, depth_func;
    uint32_t stencil_on, sread, swrite;
    uint32_t sfront[4], sback[4];
    /* raster */
    uint32_t cull, fill;
    int32_t bias_units;
    float bias_slope;
} xvk_pipeline_key;

typedef struct xvk_pipeline_entry {
    xvk_pipeline_key key;
    uint64_t hash;
    VkPipeline pipeline;
} xvk_pipeline_entry;

typedef struct xvk_sampler_entry {
    xgd_sampler_desc desc;
    VkSampler sampler;
} xvk_sampler_entry;

/* ---- frames ---- */

typedef struct xvk_frame {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    uint64_t fence;            /* timeline value its last submission signals (0: never) */
    uint64_t descriptors;      /* descriptors pushed into cmd since its pool was last reset */
} xvk_frame;

typedef struct xvk_ring_mark {
    uint64_t fence;
    uint64_t head;
} xvk_ring_mark;

typedef struct xvk_ring {
    VkBuffer buffer;
    xvk_alloc mem;
    uint8_t *mapped;
    uint64_t size;
    uint64_t head, tail;       /* monotonic byte counters; position = counter % size */
    uint64_t frame_head;       /* head at the last Present: the frame's use is head - frame_head */
    xvk_ring_mark *marks;      /* one per submission that used the ring, oldest first */
    size_t mark_count, mark_capacity;
    bool pressed;              /* an allocation waited for the GPU since the last Present */
    bool cached;               /* its memory is host-cached: the CPU reads it fast (readbacks) */
    bool device_local;         /* its memory is the GPU's own (mapped through a large BAR) */
    uint64_t heap_size;        /* the size of its memory's heap (ring_limit) */
    uint64_t grown;            /* times the ring was replaced by a larger one */
    uint64_t populated;        /* bytes from its start prefaulted (ring_prefault), or given up */
} xvk_ring;

/* A dedicated host-visible buffer for one big transfer or draw (vk_transfer.c). */
typedef struct xvk_big_buffer {
    VkBuffer buffer;
    xvk_alloc mem;             /* persistently mapped */
    uint64_t size;
    uint64_t fence;            /* last submission that may use it: reusable once it passed */
    bool readback;             /* host-cached memory where the device has it (CPU reads) */
} xvk_big_buffer;

/* Big buffers are sized in powers of two from XVK_BIG_MIN up. One open frame holds at most
   XVK_BIG_FRAME_BYTES of them: beyond it the frame is submitted, so what it released becomes
   reusable. Released buffers wait for reuse as spares, up to the buffers of XVK_FRAMES such frames
   (a frame's are busy while the one before it is reused), so a steady per-frame pattern of big
   draws settles on one set of buffers; the count limit follows from the bytes. */
#define XVK_BIG_MIN ((uint64_t)8 << 20)
#define XVK_BIG_FRAME_BYTES ((uint64_t)128 << 20)
#define XVK_BIG_SPARE_BYTES ((uint64_t)XVK_FRAMES * XVK_BIG_FRAME_BYTES)
#define XVK_BIG_SPARES ((int)(XVK_BIG_SPARE_BYTES / XVK_BIG_MIN))

/* Host-visible memory for one transfer or draw: ring space, or a big buffer (vk_transfer.c). */
typedef struct xvk_span {
    VkBuffer buffer;
    VkDeviceSize offset;
    uint8_t *ptr;
    xvk_big_buffer *big;       /* NULL for ring space */
} xvk_span;

/* combined image samplers of a user program: the pixel registers, then the vertex texture
   slots (binding XGDI_SHADER_BINDING_SAMPLER0 + i for both) */
#define XVK_USER_SAMPLERS (XGDI_SHADER_MAX_SAMPLERS + XGDI_SHADER_MAX_VERTEX_SAMPLERS)

typedef struct xvk_counters {
    uint64_t descriptor_pushes, descriptor_skips;
    uint64_t pipelines_created, pipeline_binds;
    uint64_t pipeline_lookups; /* draws whose pipeline was looked up (the memo did not serve) */
    uint64_t index_binds;      /* vkCmdBindIndexBuffer calls */
    uint64_t ring_wraps, ring_waits, slot_waits;
    uint64_t gpu_waits;        /* xvk_wait_value calls that found the value incomplete */
    uint64_t render_passes, barriers;
    uint64_t big_created, big_reused; /* big transfer buffers made and reused (vk_transfer.c) */
    uint64_t big_bytes_live, big_bytes_peak; /* bytes of big transfer buffers that exist */
    /* descriptor accounting for xgd_statistics: pushed descriptors live in the command buffer's
       memory until its slot's pool is reset after the fence passed, so "live" is what the
       frame slots hold, and a "recycle" is a slot reset returning them; push descriptors have
       no pool that could grow */
    uint64_t descriptors_live, descriptors_peak, descriptor_recycles;
} xvk_counters;

/* ---- the renderer ---- */

struct xvk_renderer {
    xgdi_renderer base;
    bool debug, validation;
    xgd_graphics_profile profile;
    char adapter_name[256];

    VkInstance instance;       /* the process's, shared (vk_device.c): never destroyed */
    /* In its instance's registry of validated devices (vk_device.c) from after vkCreateDevice
       until before vkDestroyDevice; both fields are guarded by the registry's lock. */
    bool reports;    /* its instance has a messenger: it joins the registry */
    bool registered;
    xvk_renderer *registry_next;
    VkPhysicalDevice phys;
    VkPhysicalDeviceProperties props;
    VkDevice dev;
    VkQueue queue;
    uint32_t queue_family;
    VkSemaphore timeline;
    bool lost;
    bool has_line_rasterization;
    bool has_divisor;             /* VK_EXT_vertex_attribute_divisor: instance frequencies > 1 */
    /* Anisotropic sampler states: the largest MaxAnisotropy applied, min(16,
       maxSamplerAnisotropy) with the samplerAnisotropy feature enabled, 1 without it (they
       then sample as Linear) */
    int max_anisotropy;
    bool has_4444;
    /* steps of each depth format one integer bias unit moves (1 or 2; 0 = not measured, taken
       as 1), measured at creation by xgdi_depth_bias_probe; see build_key */
    int bias_factor[XGD_DEPTH_FORMAT_COUNT];

    PFN_vkCmdPushDescriptorSetKHR push_descriptor;
    /* a push of one sampler register's image through its template (user_templates): on
       lavapipe one allocation and ~130 instructions fewer than push_descriptor with a write */
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_template;
    /* the per-draw commands through the device's entry points (no loader trampoline) */
    PFN_vkCmdDraw cmd_draw;
    PFN_vkCmdDrawIndexed cmd_draw_indexed;
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    /* command-buffer labels: loaded only for debug devices with VK_EXT_debug_utils enabled, so
       a release device pays one NULL test per labelled operation */
    bool debug_utils;          /* VK_EXT_debug_utils is enabled on the instance */
    PFN_vkCmdBeginDebugUtilsLabelEXT cmd_begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT cmd_end_label;
    PFN_vkCmdInsertDebugUtilsLabelEXT cmd_insert_label;

    xvk_memory memory;
    xvk_frame frames[XVK_FRAMES];
    int frame_index;
    bool recording;            /* the open frame's command buffer has begun */
    xvk_ring ring;
    /* released big transfer buffers, in flight or idle (vk_transfer.c) */
    xvk_big_buffer *big_spares[XVK_BIG_SPARES];
    int big_spare_count;
    uint64_t big_spare_bytes;
    /* big-buffer bytes taken for the open frame, whose fence is big_frame_fence */
    uint64_t big_frame_fence, big_frame_bytes;

    /* format facts */
    VkFormat surface_vk[XGD_SURFACE_FORMAT_COUNT];
    VkComponentMapping surface_swizzle[XGD_SURFACE_FORMAT_COUNT];
    xgd_format_support support[XGD_SURFACE_FORMAT_COUNT];
    bool widened[XGD_SURFACE_FORMAT_COUNT]; /* packed formats kept wide (xgdi_packed_wide_format) */
    VkFormat depth_vk[XGD_DEPTH_FORMAT_COUNT];
    int max_samples;

    /* shaders and layouts */
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkShaderModule fill_vs, fill_fs; /* the sample fill (set_layout, pipeline_layout) */
    VkPipelineCache pipeline_cache;
    xvk_pipeline_entry *pipelines; /* open addressing, capacity a power of two */
    size_t pipeline_count, pipeline_capacity;
    xvk_sampler_entry *samplers;
    size_t sampler_count, sampler_capacity;

    /* the back buffer and the bound set */
    xgdi_native_texture *back_buffer;
    /* windowed presentation (vk_swapchain.c): instance and device extensions found, the swap
       chain of the current window, and the binary semaphores the next xvk_submit waits on and
       signals besides the timeline (VK_NULL_HANDLE: none) */
    bool has_surface, has_swapchain; /* an instance surface extension; the device's swap chain */
    struct xvk_swapchain *swapchain;
    VkSemaphore submit_wait, submit_signal;
    xgdi_target targets[XVK_MAX_TARGETS];
    int target_count;
    /* rendering state of the open frame */
    bool rendering;
    bool hazard;               /* a write happened since the last global barrier */
    bool clear_color_pending[XVK_MAX_TARGETS];
    VkClearColorValue clear_color[XVK_MAX_TARGETS];
    bool clear_depth_pending, clear_stencil_pending;
    float clear_depth;
    uint32_t clear_stencil;
    /* what is bound in the open command buffer (reset per frame) */
    VkPipeline bound_pipeline;
    bool warned_aa_disable;    /* the MultiSampleAntiAlias=false gap was reported */
    uint32_t pending_dirty;    /* draw-state dirty bits not yet applied to last_pipeline */
    VkPipeline last_pipeline;
    xgd_primitive_type last_type;
    /* the vertex layout last_pipeline was made for: its hash (of the combined layout for a
       draw through several streams) and the number of streams (0: one buffer) */
    uint64_t last_layout_hash;
    int last_stream_count;
    uint64_t targets_gen, last_targets_gen; /* targets_gen moves on every binding change */
    bool viewport_valid;
    /* draw-state dirty bits the dynamic state (viewport, scissor, blend constants, stencil
       reference) has not seen yet, and the targets it was derived for */
    uint32_t dynamic_dirty;
    uint32_t constants_dirty;  /* the same for the user stage blocks (place_user_constants) */
    const xgdi_vertex_layout *memo_layout; /* place_vertices: the last layout and its reach */
    size_t memo_layout_reach;
    /* xvk_draw's short path (fast_draw) may record the next draw: the last one was recorded
       in the open rendering scope from user vertices in ring space (one stream, not indexed,
       one instance), so its pipeline, constants, dynamic state and vertex buffer binding serve
       again while core marks nothing but texture slots changed. Armed by record_draw,
       disarmed by the general path, xvk_reset_bindings and xvk_end_rendering. */
    bool fast_armed;
    bool fast_ms;              /* a bound target is multisampled (its draws mark it dirty) */
    /* xvk_draw_quad_runs may follow the last draw with more runs: it was recorded from
       reserved vertices through the quad index pattern, in the open rendering scope. Armed
       by record_draw, disarmed by every xvk_draw. */
    bool runs_armed;
    size_t fast_stride, fast_extra; /* the layout's stride; bytes its elements reach past it */
    /* where fast_draw's next vertices go while the ring's head is still fast_head (nothing else
       took ring space since its last placement): offset fast_next_off, vertex fast_next_first.
       UINT64_MAX: unknown (found from the head, which takes two divisions) */
    uint64_t fast_head;
    VkDeviceSize fast_next_off;
    uint32_t fast_next_first;
    /* bytes fast_next_off may take: the ring's end or its free space then, whichever is
       nearer (the tail only moves on, so there is at least as much now); 0 with fast_extra */
    uint64_t fast_avail;
    VkCommandBuffer fast_cmd;  /* the open frame's, while armed */
    xvk_frame *fast_frame;
    /* the writes fast_draw pushes: entry k points at image k; sType, count, type and layout
       are set once, the binding, view and sampler per draw */
    VkWriteDescriptorSet fast_writes[XVK_USER_SAMPLERS];
    VkDescriptorImageInfo fast_images[XVK_USER_SAMPLERS];
    uint64_t dynamic_targets_gen;
    bool vb_valid;
    VkBuffer bound_vb;
    VkDeviceSize bound_vb_offset;
    /* the index buffer bound by the last indexed draw (xgd_draw_user_quads binds the same one
       every time) */
    bool ib_valid;
    VkBuffer bound_ib;
    VkDeviceSize bound_ib_offset;
    VkIndexType bound_ib_type;
    VkViewport bound_viewport;
    VkRect2D bound_scissor;
    float bound_blend[4];
    uint32_t bound_stencil_ref;

    /* user shaders (vk_user.c): their set layout (binding 0/1 the stage blocks, 2 + s pixel
       sampler s, renderer.h), pipeline layout, serial numbers for pipeline keys, the shaders
       of the pipeline being built, and what the last user draw pushed */
    VkDescriptorSetLayout user_set_layout;
    VkPipelineLayout user_pipeline_layout;
    /* per sampler register k: a push template of its combined image sampler alone, reading
       one VkDescriptorImageInfo (fast_images[k]); VK_NULL_HANDLE where push_template is NULL */
    VkDescriptorUpdateTemplate user_templates[XVK_USER_SAMPLERS];
    uint32_t user_serial;
    struct xgdi_native_shader *building_vs, *building_ps;
    const struct xgdi_draw *building_draw; /* its streams, when it has several */
    bool user_descriptors_valid;
    VkDeviceSize user_bound_offsets[2], user_bound_offsets_pending[2];
    VkImageView user_bound_views[XVK_USER_SAMPLERS];
    VkSampler user_bound_samplers[XVK_USER_SAMPLERS];
    /* user_bindings' memo: the registers the last user shaders sample (forgotten when the
       program changes) and each register's sampler by its sampler description and
       filterability (forgotten when sampler states change) */
    const struct xgdi_native_shader *user_memo_vs, *user_memo_ps;
    uint32_t user_memo_used;
    const xgd_sampler_desc *user_memo_desc[XVK_USER_SAMPLERS];
    bool user_memo_filterable[XVK_USER_SAMPLERS];
    VkSampler user_memo_sampler[XVK_USER_SAMPLERS];
    float user_last[2][(XGDI_SHADER_MAX_REGISTERS + 1) * 4];
    size_t user_last_size[2];
    VkDeviceSize user_last_offset[2];

    /* stand-ins: a 1x1 (0,0,0,1) texture for an unbound slot, and (0,0,0,1) for a vertex
       attribute the layout lacks (read through a zero-stride binding) */
    xgdi_native_texture *dummy_texture;
    xgdi_native_texture *dummy_volume; /* 1x1x1 (0,0,0,1): an unbound Texture3D register */
    VkBuffer defaults_buffer;
    xvk_alloc defaults_mem;

    xvk_counters counters;

    /* occlusion queries (vk_query.c): slots of XVK_QUERY_POOL_SIZE-query pools, recycled by
       fence, and the active query's segments (core's xgdi_query_slots) */
    bool occlusion_precise;    /* the occlusionQueryPrecise feature is enabled */
    VkQueryPool *query_pools;  /* queries.chunk_count of them */
    xgdi_query_slots queries;
};

static inline xvk_renderer *xvk_cast(xgdi_renderer *r) { return (xvk_renderer *)r; }

/* ---- vk_query.c ---- */
#define XVK_QUERY_POOL_SIZE 64
/* At creation, before any query op. */
void xvk_query_init(xvk_renderer *r);
xgd_result xvk_query_create(xgdi_renderer *r, xgdi_native_query **out);
void xvk_query_destroy(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xvk_query_begin(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xvk_query_end(xgdi_renderer *r, xgdi_native_query *q);
xgd_result xvk_query_result(xgdi_renderer *r, xgdi_native_query *q, bool flush, bool wait,
                            bool *done, uint64_t *samples);
/* The active query's native segment around work that must not count or must not stay open:
   suspend ends it in `cmd` (outside rendering) and reserves the slot of the next segment;
   resume begins that segment in `cmd` (outside rendering). Both do nothing without an active
   query. xvk_submit suspends before ending a command buffer, xvk_cmd resumes in a new one. */
void xvk_query_suspend(xvk_renderer *r, VkCommandBuffer cmd);
void xvk_query_resume(xvk_renderer *r, VkCommandBuffer cmd);
/* Teardown after the device went idle. */
void xvk_query_pools_destroy(xvk_renderer *r);

/* ---- vk_device.c ---- */
/* The instance surface extensions the shared instances enable (at most XVK_SURFACE_EXTS names
   into `names`; 0 when the loader has no VK_KHR_surface or no platform surface). */
#define XVK_SURFACE_EXTS 4
uint32_t xvk_surface_extensions(const char **names);
/* vkCreateInstance calls this process made (tests: instances are shared across devices). */
uint64_t xvk_instance_creations(void);
/* Tests only: called on the creating thread right after vkCreateDevice succeeded, while the
   renderer is its thread's device in creation (messages naming no device go to it). */
extern void (*xvk_device_created_hook)(xvk_renderer *r);
/* Turns a VkResult into an xgd_result (device loss enters the lost state) with a message. */
xgd_result xvk_check(xvk_renderer *r, VkResult vr, const char *what);
/* The open frame's command buffer, begun on first use; NULL after a failure (reported). */
VkCommandBuffer xvk_cmd(xvk_renderer *r);
/* Accounts n descriptors just pushed into the open frame's command buffer. */
/* n descriptors written into the open frame (counted until its frame slot is reused; the
   live and peak counters are settled from these counts when read: vk_device.c) */
static inline void xvk_note_descriptors(xvk_renderer *r, uint64_t n)
{
    r->frames[r->frame_index].descriptors += n;
}
/* Emits the global barrier if a write happened since the last one. */
void xvk_barrier(xvk_renderer *r, VkCommandBuffer cmd);
/* Submits the open frame and waits until it completed (readbacks). */
xgd_result xvk_submit_and_wait(xvk_renderer *r);
/* vk_swapchain.c: whether windows can be presented to; the windowed half of present (after
   the back buffer's MSAA resolve, before and after the frame's submission through `submit`);
   teardown after the device went idle. */
bool xvk_can_present(const xvk_renderer *r);
xgd_result xvk_present_window(xvk_renderer *r, int swap_interval,
                              xgd_result (*submit)(xgdi_renderer *base));
void xvk_swapchain_destroy(xvk_renderer *r);
/* Drops the swap chain when r->base.window is no longer the window it was made for. */
void xvk_swapchain_follow_window(xvk_renderer *r);
void xvk_set_name(xvk_renderer *r, VkObjectType type, uint64_t handle, const char *name);
/* The largest the upload ring may grow to (vk_device.c). */
uint64_t xvk_ring_limit(const xvk_renderer *r);
/* Ring space for `size` bytes aligned to `align`; may submit and wait when the ring is full.
   Returns false (reported) when it cannot. */
bool xvk_ring_alloc(xvk_renderer *r, uint64_t size, uint64_t align, VkDeviceSize *offset,
                    void **ptr);
/* Retires a callback at the open frame's fence. */
void xvk_retire(xvk_renderer *r, xgdi_retire_fn fn, void *object);

/* vk_user.c: user shaders (renderer.h's shader form) */
struct xgdi_native_shader {
    xgdi_shader_stage stage;
    VkShaderModule module;
    uint32_t serial;
    int constant_count;
    xgdi_shader_input inputs[XGDI_SHADER_MAX_INPUTS];
    int input_count;
    xgdi_sampler_kind sampler_kinds[XGDI_SHADER_MAX_SAMPLERS];
    uint32_t color_outputs;
};
/* vk_draw.c: the Vulkan format of a vertex element format */
VkFormat xvk_attribute_format(xgd_vertex_element_format f);
/* vk_instancing.c: a user pipeline's vertex input state for a draw through several streams
   (NOT_SUPPORTED for an instance frequency above 1 without attribute divisors), and the
   streams' binding before such a draw */
xgd_result xvk_stream_inputs(xvk_renderer *r, const xgdi_draw *d, const xgdi_native_shader *vs,
                             VkPipelineVertexInputStateCreateInfo *vi,
                             VkVertexInputAttributeDescription *attrs,
                             VkVertexInputBindingDescription *binds,
                             VkVertexInputBindingDivisorDescriptionEXT *divs,
                             VkPipelineVertexInputDivisorStateCreateInfoEXT *div);
void xvk_bind_streams(xvk_renderer *r, VkCommandBuffer cmd, const xgdi_draw *d);
xgd_result xvk_user_init(xvk_renderer *r);
void xvk_user_destroy(xvk_renderer *r);
xgd_result xvk_shader_create(xgdi_renderer *base, const xgdi_shader_desc *desc, xgdi_native_shader **out);
void xvk_shader_destroy(xgdi_renderer *base, xgdi_native_shader *s);
/* The timeline value the device has completed. */
uint64_t xvk_completed(xvk_renderer *r);

/* ---- vk_transfer.c ---- */
/* Host-visible memory for `size` bytes aligned to `align` that commands of the open frame
   read or write: ring space up to a quarter of the ring, else a big buffer (offset 0;
   `readback` asks for host-cached memory). May submit and wait while the ring is full, never
   for idle. false (reported) when it cannot. */
bool xvk_span_alloc(xvk_renderer *r, uint64_t size, uint64_t align, bool readback, xvk_span *out);
/* Gives a span back once nothing will touch it any more: after recording the commands that use
   it, or after copying a completed readback out of it. Clears *s. */
void xvk_span_release(xvk_renderer *r, xvk_span *s);
/* Teardown after the device went idle. */
void xvk_spans_destroy(xvk_renderer *r);

/* Debug labels (VK_EXT_debug_utils): the macros cost one NULL test unless the device is a debug
   one. xvk_label_begin_targets opens a label naming the bound set ("back buffer", or the targets'
   debug names or "render target WxH"); xvk_label_end closes it. */
void xvk_label_targets_now(xvk_renderer *r, VkCommandBuffer cmd);
void xvk_label_insert_now(xvk_renderer *r, VkCommandBuffer cmd, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
#define xvk_label_begin_targets(r, cmd) \
    ((r)->cmd_begin_label != NULL ? xvk_label_targets_now((r), (cmd)) : (void)0)
#define xvk_label_insertf(r, cmd, ...) \
    ((r)->cmd_insert_label != NULL ? xvk_label_insert_now((r), (cmd), __VA_ARGS__) : (void)0)
static inline void xvk_label_end(xvk_renderer *r, VkCommandBuffer cmd)
{
    if (r->cmd_end_label != NULL) r->cmd_end_label(cmd);
}

/* ---- vk_texture.c ---- */
xgd_result xvk_texture_create(xgdi_renderer *r, const xgdi_texture_desc *desc,
                              xgdi_native_texture **out);
void xvk_texture_destroy(xgdi_renderer *r, xgdi_native_texture *t);
void xvk_texture_free_now(xvk_renderer *r, xgdi_native_texture *t);
xgd_result xvk_texture_upload(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                              const xgd_rect *rect, const void *data, size_t row_pitch);
xgd_result xvk_texture_download(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                const xgd_rect *rect, void *data, size_t row_pitch);
xgd_result xvk_texture_finalize(xgdi_renderer *r, xgdi_native_texture *t, int face);
xgd_result xvk_texture_upload_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                     const xgd_box *box, const void *data, size_t row_pitch,
                                     size_t slice_pitch);
xgd_result xvk_texture_download_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                       const xgd_box *box, void *data, size_t row_pitch,
                                       size_t slice_pitch);
/* Resolves a face's samples into the sampleable image if draws wrote them since. */
void xvk_texture_resolve(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_texture *t, int face);
xgd_result xvk_buffer_create(xgdi_renderer *r, xgdi_buffer_kind kind, size_t size, bool dynamic,
                             xgdi_native_buffer **out);
void xvk_buffer_destroy(xgdi_renderer *r, xgdi_native_buffer *b);
xgd_result xvk_buffer_upload(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                             const void *data, size_t size, xgd_set_data_options options);
xgd_result xvk_buffer_download(xgdi_renderer *r, xgdi_native_buffer *b, size_t offset,
                               void *data, size_t size);
void xvk_classify_formats(xvk_renderer *r);

/* ---- vk_draw.c ---- */
xgd_result xvk_pipelines_init(xvk_renderer *r);
void xvk_pipelines_destroy(xvk_renderer *r);
/* Ends dynamic rendering if active, and carries out pending clears that no draw consumed. */
void xvk_end_rendering(xvk_renderer *r);
/* Forgets what is bound (a new command buffer). */
void xvk_reset_bindings(xvk_renderer *r);
xgd_result xvk_set_render_targets(xgdi_renderer *r, const xgdi_target *targets, int count);
xgd_result xvk_clear(xgdi_renderer *r, unsigned options, const float color[4], float depth,
                     int stencil);
xgd_result xvk_draw(xgdi_renderer *r, const xgdi_draw *draw);
xgd_result xvk_user_draw_fast(xgdi_renderer *r, const xgdi_draw_state *state, xgd_primitive_type type,
                              const void *vertices, int count, int primitive_count);
xgd_result xvk_reserve_vertices(xgdi_renderer *r, size_t bytes, size_t stride, void **cpu,
                                uint64_t *at);
xgd_result xvk_draw_quad_runs(xgdi_renderer *r, const xgdi_draw *draw, const xgdi_quad_run *runs,
                              int count, int *drawn);
/* Copies a multisampled target's sampleable face into all its samples (after an upload). */
void xvk_refill_samples(xvk_renderer *r, xgdi_native_texture *t, int face);

#endif /* XGD_VK_INTERNAL_H */
