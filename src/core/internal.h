/*
 * internal.h - core's private structures, shared by src/core and src/graphics.
 * Renderers do not include this file; they see only renderer.h and format.h.
 */
#ifndef XGD_INTERNAL_H
#define XGD_INTERNAL_H

#include "renderer.h"
#include "format.h"
#include "../platform/window.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#define XGDI_MAX_RENDER_TARGETS 4 /* XNA's MAX_RENDERTARGET_BINDINGS */

/* ---- lifetime ------------------------------------------------------------------------------ */

/* Counted lifetime token (spec 001 "weak device-lifetime token"): every resource holds a
 * reference; the device clears `device` when it is destroyed, so a resource that outlives its
 * device never follows a stale pointer. Freed when the last reference goes. */
typedef struct xgdi_lifetime {
    int refs;
    struct xgd_device *device;   /* NULL once the device is destroyed */
} xgdi_lifetime;

typedef enum xgdi_resource_type {
    XGDI_RES_TEXTURE = 0,
    XGDI_RES_VERTEX_DECLARATION,
    XGDI_RES_VERTEX_BUFFER,
    XGDI_RES_INDEX_BUFFER,
    XGDI_RES_BLEND_STATE,
    XGDI_RES_DEPTH_STENCIL_STATE,
    XGDI_RES_RASTERIZER_STATE,
    XGDI_RES_SAMPLER_STATE,
    XGDI_RES_EFFECT,
    XGDI_RES_OCCLUSION_QUERY,          /* added by queries (query.c) */
    XGDI_RES_LAYERED,                  /* a layered library's object (layered.c): SpriteBatch,
                                          SpriteFont and the user's own */
    XGDI_RES_TYPE_COUNT
} xgdi_resource_type;

typedef struct xgdi_resource xgdi_resource;

/* What a resource type does at device-level events. Any may be NULL. */
typedef struct xgdi_resource_vtable {
    /* Frees the native part (renderer object). Called on device destroy, context loss, and by
       the resource's own destroy. Must leave the resource recreatable. */
    void (*release_native)(xgdi_resource *res);
    /* Recreates the native part after restore (textures re-upload their CPU shadow; render
       targets come back content-lost). Returns the failure code. */
    xgd_result (*recreate_native)(xgdi_resource *res);
    /* Device destroy: the resource becomes a disposed shell (after release_native). */
    void (*on_device_destroyed)(xgdi_resource *res);
} xgdi_resource_vtable;

/* Header of every registered object. */
struct xgdi_resource {
    xgdi_resource_type type;
    const xgdi_resource_vtable *vt;
    xgdi_lifetime *token;             /* counted; token->device NULL once the device is gone */
    xgdi_resource *prev, *next;       /* the device's registry (intrusive list) */
    bool disposed;
    bool device_owned;                /* presets and stock declarations: destroy is a no-op */
    void *handle;                     /* the public value of this object (handle.c); NULL once
                                         its destroy began */
    /* token->device until disposed (registration sets it), so that one compare tells a live
       object of a device; once disposed XGDI_NO_OWNER, which no device and no NULL equals */
    struct xgd_device *owner;
};

/* Registers res with device (takes a slot and a token reference, raises RESOURCE_CREATED).
 * OUT_OF_MEMORY (recorded) when the slot table cannot grow; then nothing changed. */
xgd_result xgdi_resource_register(struct xgd_device *device, xgdi_resource *res,
                                  xgdi_resource_type type, const xgdi_resource_vtable *vt);

/* Weak reference: the resource's handle-table slot and that slot's generation when taken (the
 * public handle, decoded). The generation moves on when the resource is destroyed, so a
 * reference to a destroyed object fails in O(1) without reading the freed struct. {0, 0} never
 * resolves. */
typedef struct xgdi_ref { uint32_t index, gen; } xgdi_ref;
/* res must be registered and live ({0, 0} for NULL). */
xgdi_ref xgdi_ref_make(const xgdi_resource *res);
/* The reference of a public handle (its value decoded; {0, 0} for NULL or a non-handle). */
xgdi_ref xgdi_ref_from_handle(const void *handle);
/* The resource if it is still the one the reference was taken from and belongs to device,
 * else NULL. */
xgdi_resource *xgdi_ref_get(struct xgd_device *device, xgdi_ref ref);
/* Explicit dispose: release_native, unregister (RESOURCE_DESTROYED) if the device is alive,
 * mark disposed, drop the token. Idempotent. The caller frees its own struct afterwards. */
void xgdi_resource_dispose(xgdi_resource *res);
/* The live device of a resource, or NULL if the resource or its device is disposed. */
static inline struct xgd_device *xgdi_resource_device(const xgdi_resource *res);
/* Validates that res is usable on `device` (NULL device = its own): INVALID_ARGUMENT for NULL,
 * OBJECT_DISPOSED, INVALID_OPERATION for another device's object. Records the message on the
 * device when there is one. `what` names the parameter in the message. */
static inline xgd_result xgdi_check_resource(struct xgd_device *device, const xgdi_resource *res,
                                             xgdi_resource_type type, const char *what);
/* xgdi_check_resource's checks in their order, for what its inline test did not pass. */
xgd_result xgdi_check_resource_slow(struct xgd_device *device, const xgdi_resource *res,
                                    xgdi_resource_type type, const char *what);

/* ---- public handles (handle.c) ------------------------------------------------------------- */

/* A public object pointer is a cookie, not an address: bit 0 set (object addresses are even,
 * NULL is 0), then XGDI_HANDLE_INDEX_BITS of slot index in a process-wide table, then
 * XGDI_HANDLE_GEN_BITS of the slot's generation. Destroy moves the generation on, so a stale
 * handle resolves to nothing and answers OBJECT_DISPOSED; nothing is read through it. The
 * table outlives devices (an object outlives its device as a disposed shell). xgd_device *
 * itself stays an address: a device is created and destroyed once by its owner and every
 * object call reaches it through the counted lifetime token, never through a user's copy. */
#if UINTPTR_MAX > 0xFFFFFFFFu
#define XGDI_HANDLE_INDEX_BITS 24      /* 16M live objects */
#define XGDI_HANDLE_GEN_BITS 32
#else
#define XGDI_HANDLE_INDEX_BITS 20      /* 1M live objects; 11 generation bits */
#define XGDI_HANDLE_GEN_BITS 11
#endif
#define XGDI_HANDLE_INDEX_MASK ((1u << XGDI_HANDLE_INDEX_BITS) - 1u)
#define XGDI_HANDLE_GEN_MAX ((uint32_t)((1ull << XGDI_HANDLE_GEN_BITS) - 1u))
#define XGDI_HANDLE_MAX_SLOTS (1u << XGDI_HANDLE_INDEX_BITS)
#define XGDI_HANDLE_PAGE_BITS 10       /* slots per page: 1024 */
#define XGDI_HANDLE_PAGE_SIZE (1u << XGDI_HANDLE_PAGE_BITS)
#define XGDI_HANDLE_PAGE_MASK (XGDI_HANDLE_PAGE_SIZE - 1u)
#define XGDI_HANDLE_PAGE_COUNT (XGDI_HANDLE_MAX_SLOTS >> XGDI_HANDLE_PAGE_BITS)

typedef struct xgdi_handle_slot {
    /* The live handle's value while the slot holds an object, else 0 (no value is even): a
       lookup is one compare of the whole value, and a slot with no object matches nothing
       whatever generation a value names. */
    _Atomic uintptr_t live;
    xgdi_resource *res;                /* the object while its handle is live */
    /* The generation of the slot's live or next handle: 1..GEN_MAX; 0 once retired. Written
       under the table lock; read without it only to word an error. */
    _Atomic uint32_t gen;
    uint32_t next_free;                /* free list (under the table lock): index + 1, 0 ends */
} xgdi_handle_slot;
/* Pages of slots, allocated on demand, published with release, never freed. */
extern _Atomic(xgdi_handle_slot *) xgdi_handle_pages[XGDI_HANDLE_PAGE_COUNT];

/* Gives res its handle (res->handle); OUT_OF_MEMORY (recorded on device) when the table is
 * full or cannot grow. Called by xgdi_resource_register. */
xgd_result xgdi_handle_alloc(struct xgd_device *device, xgdi_resource *res);
/* Makes res's handle stale (generation moves on; a slot whose generation would wrap is
 * retired); res->handle becomes NULL. Called as a destroy starts (XGDI_RESOLVE_DESTROY) and
 * when the device frees its own objects. */
void xgdi_handle_free(xgdi_resource *res);

/* xgd_resource_epoch's counter (handle.c), read directly where a call would cost more than the
 * lookup it saves (state.c, xgd_set_texture's memo). */
#if defined(__GNUC__) && !defined(_WIN32)
/* (hidden, as the library's symbols are: the load then needs no step through the GOT) */
extern __attribute__((visibility("hidden"))) _Atomic uint64_t xgdi_lifetime_epoch;
#else
extern _Atomic uint64_t xgdi_lifetime_epoch;
#endif
/* xgd_set_texture's memo (xgd_device.texture_memo): XGDI_TEXTURE_MEMO_USED entries, those of
   the low index bits of a handle. A handle's bit 0 is always set, so the entry is the handle's
   value masked, which takes one instruction fewer than shifting the bit out: the arrays have
   twice the entries, the even ones unused. */
#define XGDI_TEXTURE_MEMO_USED 32      /* a power of 2 */
#define XGDI_TEXTURE_MEMO (2 * XGDI_TEXTURE_MEMO_USED)
static inline size_t xgdi_texture_memo_entry(const void *handle)
{
    return (size_t)(uintptr_t)handle & (XGDI_TEXTURE_MEMO - 1u);
}

/* Moves xgd_resource_epoch on: called wherever a live handle may stop naming a live object of
 * its device (a handle freed, a device starting its destroy), before anything can observe it. */
void xgdi_handle_epoch_advance(void);

/* The live object behind a handle if it is of `type` (XGDI_RES_TYPE_COUNT: any type), else
 * NULL. Lock-free and allocation-free: a few loads and compares. */
static inline xgdi_resource *xgdi_handle_get(const void *handle, xgdi_resource_type type)
{
    uintptr_t h = (uintptr_t)handle;
    uint32_t index = (uint32_t)((h >> 1) & XGDI_HANDLE_INDEX_MASK);
    if ((h & 1u) == 0) return NULL;
    xgdi_handle_slot *page = atomic_load_explicit(&xgdi_handle_pages[index >> XGDI_HANDLE_PAGE_BITS],
                                                  memory_order_acquire);
    if (page == NULL) return NULL;
    xgdi_handle_slot *s = &page[index & XGDI_HANDLE_PAGE_MASK];
    if (atomic_load_explicit(&s->live, memory_order_acquire) != h) return NULL;
    xgdi_resource *res = s->res;
    return type == XGDI_RES_TYPE_COUNT || res->type == type ? res : NULL;
}
/* Records why a non-NULL handle did not resolve and returns NULL: OBJECT_DISPOSED for a stale
 * handle, INVALID_ARGUMENT for another type's object or a value that is no handle. */
void *xgdi_handle_resolve_failed(struct xgd_device *device, const void *handle,
                                 xgdi_resource_type type, const char *what, xgd_result *result);
/* Handle -> internal struct: NULL for NULL (result OK: the caller's own NULL check answers as
 * before), the object (result OK), or NULL with the failure recorded on device (NULL: the
 * thread's last error). A resolved object may still be a disposed shell or another device's:
 * xgdi_check_resource says so afterwards, as before. */
static inline void *xgdi_resolve(struct xgd_device *device, const void *handle,
                                 xgdi_resource_type type, const char *what, xgd_result *result)
{
    *result = XGD_OK;
    if (handle == NULL) return NULL;
    xgdi_resource *res = xgdi_handle_get(handle, type);
    if (res != NULL) return res;
    return xgdi_handle_resolve_failed(device, handle, type, what, result);
}
/* xgdi_resolve then xgdi_check_resource (NULL is INVALID_ARGUMENT): for handles inside descs. */
xgd_result xgdi_check_handle(struct xgd_device *device, const void *handle,
                             xgdi_resource_type type, const char *what);
/* Takes xgd_draw_user_primitives' common case off the device (the next user draw takes every
 * check): at each change of destroying, lost, renderer, program_set or native_targets_stale. */
static inline void xgdi_forget_user_draw(struct xgd_device *device);
/* "texture", "blend state", ... */
const char *xgdi_resource_type_name(xgdi_resource_type type);
/* The name of a registered object's kind: its type's, or a layered object's class name
 * (layered.c). */
const char *xgdi_resource_name(const xgdi_resource *res);

/* EVERY PUBLIC ENTRY POINT THAT TAKES AN OBJECT starts with one of these per object parameter,
 * before anything reads it; the rest of the function then works on the internal struct in the
 * same variable, as if the user had passed its address:
 *     xgd_result xgd_texture_set_data(xgd_texture *texture, ...)
 *     {
 *         XGDI_RESOLVE(NULL, texture, XGDI_RES_TEXTURE, "texture");
 * `device` is where a failure is recorded (the function's device parameter, or NULL). NULL
 * passes through unchanged. A function returning an object returns obj->res.handle (or
 * XGDI_HANDLE_OF(obj)), never the address; an internal call of another public function passes
 * handles too. Handles inside descs are checked with xgdi_check_handle / xgdi_resolve. */
#define XGDI_RESOLVE(device, var, type, what)                                                    \
    do {                                                                                         \
        if ((var) != NULL) {                                                                     \
            xgdi_resource *xgdi_resolve_res_ = xgdi_handle_get((var), (type));                   \
            if (xgdi_resolve_res_ == NULL) {                                                     \
                xgd_result xgdi_resolve_r_;                                                      \
                xgdi_handle_resolve_failed((device), (var), (type), (what), &xgdi_resolve_r_);   \
                return xgdi_resolve_r_;                                                          \
            }                                                                                    \
            (var) = (void *)xgdi_resolve_res_;                                                   \
        }                                                                                        \
    } while (0)
/* The same for functions that return something else: `fail` is returned on failure. */
#define XGDI_RESOLVE_OR(device, var, type, what, fail)                                           \
    do {                                                                                         \
        if ((var) != NULL) {                                                                     \
            xgdi_resource *xgdi_resolve_res_ = xgdi_handle_get((var), (type));                   \
            if (xgdi_resolve_res_ == NULL) {                                                     \
                xgd_result xgdi_resolve_r_;                                                      \
                xgdi_handle_resolve_failed((device), (var), (type), (what), &xgdi_resolve_r_);   \
                return fail;                                                                     \
            }                                                                                    \
            (var) = (void *)xgdi_resolve_res_;                                                   \
        }                                                                                        \
    } while (0)
/* Destroy functions: NULL, a stale handle, another type's handle and a device-owned object
 * are no-ops; otherwise the handle goes stale first, then the destroy proceeds. */
#define XGDI_RESOLVE_DESTROY(var, type)                                                          \
    do {                                                                                         \
        xgdi_resource *xgdi_resolve_res_ = xgdi_handle_get((var), (type));                       \
        if (xgdi_resolve_res_ == NULL || xgdi_resolve_res_->device_owned) return;                \
        xgdi_handle_free(xgdi_resolve_res_);                                                     \
        (var) = (void *)xgdi_resolve_res_;                                                       \
    } while (0)
/* The live device of a resolved object pointer (NULL for NULL), to record a second
 * argument's failure where the first one's would go. */
#define XGDI_OWNER(obj) ((obj) != NULL ? xgdi_resource_device(&(obj)->res) : NULL)
/* The public value of an internal object pointer (NULL for NULL). */
#define XGDI_HANDLE_OF(obj) ((obj) != NULL ? (void *)(obj)->res.handle : NULL)

/* White-box tests: the internal struct behind a live handle of any type, or NULL. */
#define XGDI_OBJECT(handle) ((void *)xgdi_handle_get((handle), XGDI_RES_TYPE_COUNT))
/* Test hooks: give a live object's slot generation `gen` (returns its new handle; NULL for a
 * bad argument); the number of slots retired because their generation would wrap; the slots
 * ever handed out (the table's high-water mark: its memory). */
void *xgdi_handle_debug_set_generation(xgdi_resource *res, uint32_t gen);
uint32_t xgdi_handle_debug_retired(void);
uint32_t xgdi_handle_debug_slots_used(void);

/* ---- objects ------------------------------------------------------------------------------- */

struct xgd_texture {
    xgdi_resource res;
    xgd_texture_kind kind;
    int width, height, levels;
    int depth;                         /* Texture3D level-0 depth; 1 for every other kind */
    xgd_surface_format format;         /* applied */
    xgd_depth_format depth_format;     /* applied; NONE for plain textures */
    int samples;                       /* applied; 0 for plain textures and single-sampled RTs */
    xgd_render_target_usage usage;
    bool content_lost;
    /* CPU shadow for context recovery: every face and level, tightly packed face-major then
       level (a Texture3D level: its slices front to back). NULL for render targets (GPU-only
       content, spec 001) and once dropped. */
    uint8_t *shadow;
    bool shadow_dropped;               /* recovery disabled: partial set_data is refused */
    xgdi_native_texture *native;
    /* per slot i: the device's slot_check_epoch in which this texture last passed slot i's
       draw checks (0: never). 64 bits: a draw per nanosecond takes 584 years to wrap one. */
    uint64_t slot_checked[XGDI_MAX_TEXTURE_SLOTS];
};

struct xgd_vertex_declaration {
    xgdi_resource res;
    xgdi_vertex_layout layout;
};

typedef struct xgdi_buffer {
    xgdi_resource res;
    size_t size;
    bool dynamic, write_only;
    uint8_t *shadow;                   /* CPU copy for recovery and get_data */
    xgdi_native_buffer *native;
} xgdi_buffer;

struct xgd_vertex_buffer {
    xgdi_buffer buf;
    xgd_vertex_declaration *declaration;
    xgdi_vertex_layout layout;         /* copied: survives the declaration's destroy */
    int vertex_count;
};

struct xgd_index_buffer {
    xgdi_buffer buf;
    xgd_index_element_size element_size;
    int index_count;
    /* added by fixes: bounds of every index value the buffer may hold (widened by each
       set_data, exact again after a write of the whole buffer), so a draw whose bounds fit
       skips the per-index check */
    uint32_t index_min, index_max;
};

struct xgd_blend_state { xgdi_resource res; xgd_blend_state_desc desc; };
struct xgd_depth_stencil_state { xgdi_resource res; xgd_depth_stencil_desc desc; };
struct xgd_rasterizer_state { xgdi_resource res; xgd_rasterizer_desc desc; };
struct xgd_sampler_state { xgdi_resource res; xgd_sampler_desc desc; };

/* ---- the device ---------------------------------------------------------------------------- */

typedef struct xgdi_binding {
    xgd_texture *target;
    int face;
} xgdi_binding;

/* Renderer calls that the debug fault hook (src/core/fault.c) can make fail as if natively. */
typedef enum xgdi_fault_op {
    XGDI_FAULT_SET_RENDER_TARGETS = 0,
    XGDI_FAULT_TEXTURE_CREATE,
    XGDI_FAULT_TEXTURE_UPLOAD,
    XGDI_FAULT_CLEAR,
    XGDI_FAULT_DRAW,
    XGDI_FAULT_PRESENT,
    XGDI_FAULT_READ_BACK_BUFFER,
    XGDI_FAULT_CORRUPT_DOWNLOAD,        /* texture_download succeeds with its first row inverted */
    XGDI_FAULT_NO_BACK_BUFFER_READBACK, /* the caps report no back-buffer readback */
    XGDI_FAULT_RESET_BACK_BUFFER,       /* added by fixes */
    XGDI_FAULT_SUBMIT,                  /* core's submits (query results); renderer-internal
                                           ones (present, readbacks) do not pass dev->ops */
    XGDI_FAULT_TEXTURE_DOWNLOAD,        /* texture_download fails */
    XGDI_FAULT_OP_COUNT
} xgdi_fault_op;

/* The body of a destroyed derived effect kept for its class (src/shader/effect.c): room for
   a spare of each of the library's 11 derived classes (BasicEffect, SpriteEffect, MrtEffect,
   VolumeEffect, the four of stock_effects.c, SpriteBatch's three programs), so a program that
   makes and destroys any of them every frame never evicts another's */
#define XGDI_EFFECT_SPARES 12
typedef struct xgdi_effect_spare {
    const xgd_effect_class *cls;
    struct xgdi_fx *fx;
} xgdi_effect_spare;

struct xgd_device {
    xgdi_lifetime *token;
    xgd_device_desc desc;              /* as created, defaults filled */
    xgd_presentation_parameters pp;    /* applied */
    const xgdi_renderer_ops *ops;
    xgdi_renderer *renderer;           /* NULL while lost */
    struct xgd_index_buffer *quad_index_buffer; /* xgd_draw_user_quads' pattern (device-owned) */
    /* The one drawable reservation of xgd_reserve_user_quads (id 0: none). It stays drawable
       while the renderer that made it has submitted nothing and the device has drawn
       nothing since (draws counted by stats.draw_calls; a reset of the statistics ends it). */
    struct xgdi_quad_reservation {
        uint64_t id, next_id;
        void *decl;                 /* its declaration's handle */
        int quad_count;
        void *cpu;
        uint64_t at;                /* the renderer's place for it */
        struct xgdi_renderer *renderer;
        uint64_t fence;             /* renderer->submitted_fence when made */
        uint64_t draws;             /* stats.draw_calls when made */
        bool per_instance;          /* xgd_reserve_user_quad_instances: an element a quad */
    } quad_reservation;
    /* Held reservations (xgd_hold_user_quad_instances), in the order made: each drawable
       until drawn, released, or ended by xgdi_end_quad_holds (before a submission, Reset, a
       loss), which calls its on_end first. ids come from quad_reservation.next_id. */
    struct xgdi_quad_hold {
        struct xgdi_quad_reservation res; /* per_instance; draws and next_id unused */
        xgd_quad_hold_fn on_end;
        void *user;
    } quad_holds[XGD_QUAD_HOLDS_MAX];
    int quad_hold_count;
    xgdi_caps caps;
    bool lost;
    bool destroying;

    char last_error[512];
    xgd_result last_result;
    int quiet;                         /* open xgdi_quiet_begin spans (they nest): while any is,
                                          xgdi_fail records into quiet_error */
    char quiet_error[512];
    xgd_result fail_code;              /* every xgdi_fail's, quiet or not (xgdi_failure) */

    xgdi_resource *resources;          /* registry head */
    size_t resource_count;

    /* render-target binding (spec 001 SetRenderTargets) */
    xgdi_binding bindings[XGDI_MAX_RENDER_TARGETS];
    int binding_count;
    bool render_target_bound;
    bool bound_render_target_destroyed;
    /* The renderer's binding may differ from the public set above: a failed transaction could
     * not bind the previous set again. Calls that use the binding rebind it first
     * (xgdi_sync_native_targets, target.c). */
    bool native_targets_stale;

    /* public state */
    xgd_viewport viewport;             /* logical */
    xgd_rect scissor;                  /* logical */
    xgd_blend_state *blend_state;
    xgd_depth_stencil_state *depth_stencil_state;
    xgd_rasterizer_state *rasterizer_state;
    xgd_sampler_state *sampler_states[XGDI_MAX_TEXTURE_SLOTS];
    xgd_texture *textures[XGDI_MAX_TEXTURE_SLOTS];
    /* draw_state.slots_changed, bit i: textures[i] changed since the last draw and neither
       its checks nor its copy in draw_state.textures are known to be done (with
       XGDI_DIRTY_TEXTURES alone, a draw checks and refreshes only these slots, or every slot
       when none is named: draw.c). A change to a texture that passed slot i's checks in this
       epoch (the memo below), or to none, is not named: xgd_set_texture copies its native
       texture into draw_state.textures[i] itself, the work a draw would do for the slot. It
       sits in the draw state, beside its dirty bits, so that the common user draw tests both
       with one instruction (draw.c, xgd_draw_user_primitives). */
    /* The slot checks' memo (draw.c, check_changed_slots): a texture whose checks passed in
       slot i records bit i with this epoch. Every input of those checks but the texture
       (sampler states, the program's sampler kinds, the bound targets, the textures' storage)
       changes only with a dirty bit other than XGDI_DIRTY_TEXTURES, and the draw that clears
       such a bit starts a new epoch; starts at 1, so a zeroed texture records nothing. */
    uint64_t slot_check_epoch;
    /* xgd_set_texture's memo of the handles it resolved, by the handle's low index bits: entry
       k holds a handle of a texture of this device and the value of xgdi_lifetime_epoch read
       before its lookup. While the epoch reads the same, no handle anywhere has been freed and
       this device has not started its destroy, so the texture is live and this device's, which
       is all the lookup and the owner and destroy checks tell; a draw loop that switches among
       a few textures skips them. Zeroed, an entry matches no epoch (it starts at 1). */
    uintptr_t texture_memo_handle[XGDI_TEXTURE_MEMO];
    uint64_t texture_memo_epoch[XGDI_TEXTURE_MEMO];
    xgd_texture *texture_memo[XGDI_TEXTURE_MEMO];
    int max_primitive_count;           /* the profile's MaxPrimitiveCount (draw.c) */
    /* xgd_draw_user_primitives' common case counts its primitives here by type (one add a draw
       instead of a test and two); xgdi_settle_user_primitives moves them into stats.primitives
       and stats.triangles, and runs before anything reads, copies or clears stats */
    uint64_t user_primitives[XGD_PRIMITIVE_COUNT];
    /* xgd_draw_user_primitives' common case: the declaration (as the caller's handle) and its
       layout of the last user draw accepted; the declaration's destroy clears both, so an equal
       handle is a live declaration of this device. Every change that refuses or redirects a
       draw without a dirty bit (destroying, lost, renderer, program_set, native_targets_stale:
       xgdi_forget_user_draw) clears the handle too, so the common case tests none of them.
       So does every change of draw_state.layout to another layout (draw.c prepare_state, the
       resets of it to NULL): while a handle is remembered, the draw state's layout is
       user_decl_layout, and the common case need not compare them.
       Cleared is XGDI_NO_USER_DECL, which no argument equals (NULL included), so that the
       common case needs no NULL test of its own. */
    const xgd_vertex_declaration *user_decl_handle;
    const xgdi_vertex_layout *user_decl_layout;
    int user_decl_stride;              /* user_decl_layout->stride, for the common case */
    /* set with user_decl_handle: the renderer's user_draw_fast, or draw.c's stand-in that
       draws through ops->draw (a change of ops forgets the handle: fault.c) */
    xgdi_user_draw_fast_fn *user_draw_fast;
    /* XNA HiDef VertexTextures / VertexSamplerStates (vertex_textures.c); changes mark
       XGDI_DIRTY_VERTEX_TEXTURES, and only then does a draw check and copy them. The kinds
       are what the applied user vertex shader samples (NONE: not sampled). */
    xgd_texture *vertex_textures[XGDI_MAX_VERTEX_TEXTURE_SLOTS];
    xgd_sampler_state *vertex_sampler_states[XGDI_MAX_VERTEX_TEXTURE_SLOTS];
    xgdi_sampler_kind user_vertex_sampler_kinds[XGDI_MAX_VERTEX_TEXTURE_SLOTS];
    xgd_vertex_buffer *vertex_buffer;
    int vertex_offset;
    /* xgd_set_vertex_buffers (instancing.c): every binding, resolved pointers ([0] is
       vertex_buffer / vertex_offset; a destroyed buffer leaves NULL); and what a draw with
       several builds from them */
    int vertex_binding_count;
    xgd_vertex_buffer_binding vertex_bindings[XGD_MAX_VERTEX_BUFFER_BINDINGS];
    xgdi_vertex_stream draw_streams[XGD_MAX_VERTEX_BUFFER_BINDINGS];
    xgdi_vertex_layout stream_layout;
    uint8_t element_stream[16];
    xgd_index_buffer *index_buffer;

    /* the applied program (xgd_effect_apply) */
    bool program_set;
    xgdi_program program;
    /* XGDI_PROGRAM_USER (src/shader/fx.c, xgdi_apply_user_program): the shaders, copies of
       their reflection and of the constants of the last apply (the vertex block's last vec4
       is pixel_offset, written per draw by draw.c) */
    xgdi_native_shader *user_vs, *user_ps;
    /* bodies of destroyed derived effects with their native shaders, one per class: the next
       create of that class from the same bytes takes it, so effects created and destroyed
       every frame reuse the same shaders (and the renderers' pipelines made for them)
       (src/shader/effect.c) */
    xgdi_effect_spare effect_spares[XGDI_EFFECT_SPARES];
    int effect_spare_next;            /* the slot a new class takes when every slot is used */
    xgdi_shader_input user_inputs[XGDI_SHADER_MAX_INPUTS];
    int user_input_count;
    xgdi_sampler_kind user_sampler_kinds[XGDI_SHADER_MAX_SAMPLERS];
    float user_vs_constants[(XGDI_SHADER_MAX_REGISTERS + 1) * 4];
    float user_ps_constants[XGDI_SHADER_MAX_REGISTERS * 4];
    int user_vs_count, user_ps_count;  /* vec4s */

    xgdi_draw_state draw_state;        /* reused for every draw; dirty bits track changes */
    /* the draw xgd_draw_user_primitives' common case hands the renderer: the fields it sets
       change per draw, every other one stays zero (renderers take draws as const) */
    xgdi_draw user_draw;

    /* presets */
    xgd_blend_state *blend_presets[4];
    xgd_depth_stencil_state *depth_stencil_presets[3];
    xgd_rasterizer_state *rasterizer_presets[3];
    xgd_sampler_state *sampler_presets[6];
    xgd_vertex_declaration *stock_declarations[4];

    xgd_statistics stats;
    /* Per-frame statistics: the cumulative counters as they were when the current frame began
       (the current frame's numbers are stats minus frame_base), and the last completed frame. */
    xgd_statistics frame_base;
    xgd_frame_statistics last_frame;
    /* The renderer's cumulative descriptor counters at the last xgd_device_reset_statistics
       (subtracted when read; zeroed when a restore starts a new renderer counting from 0). */
    uint64_t descriptor_growths_base, descriptor_recycles_base, gpu_waits_base;
    int last_recovery_failures;

    /* added by core-A (device.c) */
    char adapter_name[128];            /* copy of caps.adapter_name: valid while lost */
    bool ctx_state_initialised;        /* xgdi_create_device_objects succeeded */

    /* added by conformance (fault.c): debug fault injection. While armed, ops points at
       debug_ops, a copy of the renderer's table whose intercepted entries count calls and
       forward to debug_real_ops; unarmed devices never pay for it. */
    const xgdi_renderer_ops *debug_real_ops; /* NULL until the hook is first armed */
    xgdi_renderer_ops debug_ops;
    int debug_fault_count[XGDI_FAULT_OP_COUNT];   /* 0 off, n > 0 the n-th next call, < 0 all */
    xgd_result debug_fault_code[XGDI_FAULT_OP_COUNT];
    int debug_last_swap_interval;      /* what present() last received (-1 before the first) */
    /* the "any operation" mode (xgdi_debug_fail_any) */
    int debug_any_count;               /* 0 off, n > 0 the n-th next fallible call fails */
    xgd_result debug_any_code;
    uint64_t debug_op_calls;           /* fallible renderer calls seen since it was armed */

    /* added by queries (query.c): the one occlusion query between begin and end, or NULL
       (Vulkan allows one active query of a type per command buffer; XNA one per device) */
    struct xgd_occlusion_query *active_query;

    /* windowed devices (src/platform/window.h): the window presented to; NULL when headless */
    struct xgdi_window *window;
    bool window_full_screen_set; /* creation made the window full screen (undone if it fails) */
};

/* Records a failure on the device (same as xgdi_fail, declared in renderer.h). */
#define XGDI_FAIL(dev, code, ...) xgdi_fail((dev), (code), __VA_ARGS__)

/* Checks that the device is usable: INVALID_ARGUMENT for NULL, OBJECT_DISPOSED after destroy,
 * DEVICE_LOST while lost. The usable case passes inline (every draw checks it). */
xgd_result xgdi_check_device_slow(xgd_device *device);
static inline xgd_result xgdi_check_device(xgd_device *device)
{
    if (device != NULL && !device->destroying && !device->lost && device->renderer != NULL)
        return XGD_OK;
    return xgdi_check_device_slow(device);
}

/* (declared above; inline because every draw asks it of its textures) */
static inline struct xgd_device *xgdi_resource_device(const xgdi_resource *res)
{
    if (res == NULL || res->disposed || res->token == NULL) return NULL;
    xgd_device *dev = res->token->device;
    if (dev == NULL || dev->destroying) return NULL;
    return dev;
}

/* Every draw and setter checks its objects: a live object of the type, owned by the device,
 * passes in a few compares inline; anything else takes the checks in their order. */
static inline xgd_result xgdi_check_resource(struct xgd_device *device, const xgdi_resource *res,
                                             xgdi_resource_type type, const char *what)
{
    if (device != NULL && res != NULL && res->type == type && res->owner == device &&
        !device->destroying)
        return XGD_OK;
    return xgdi_check_resource_slow(device, res, type, what);
}

/* Presentation geometry (spec 002): logical canvas size and its rectangle in the back buffer. */
typedef struct xgdi_presentation_geometry {
    int logical_width, logical_height;
    double scale_x, scale_y;          /* physical pixels per logical pixel */
    xgd_rect rect;                    /* destination rectangle in the back buffer (may exceed it
                                         under Overscan) */
} xgdi_presentation_geometry;
xgdi_presentation_geometry xgdi_compute_presentation_geometry(const xgd_presentation_parameters *pp);

/* Frees the spare effect bodies (device->effect_spares) and their native shaders: before
 * the renderer's natives go (context loss, device destroy). */
void xgdi_effect_drop_spares(xgd_device *device);
/* A pass with a pixel shader only: keeps the applied vertex shader and its constants (Direct3D
 * 9's rule: the vertex shader of the last apply stays, e.g. SpriteBatch's SpriteEffect's) and
 * applies ps with them; INVALID_OPERATION naming the pass when no vertex shader is applied. */
xgd_result xgdi_apply_user_pixel_shader(xgd_device *device, xgdi_native_shader *ps,
                                        const xgdi_sampler_kind *sampler_kinds,
                                        const float *ps_constants, int ps_count,
                                        int technique, int pass);
/* Applies a user program (XGDI_PROGRAM_USER) for the following draws: the shaders, their
 * reflection (copied) and each stage's constants (vs_count vec4s including pixel_offset,
 * which draws fill; ps_count). Marks PROGRAM / CONSTANTS dirty only for what changed. */
xgd_result xgdi_apply_user_program(xgd_device *device, xgdi_native_shader *vs,
                                   xgdi_native_shader *ps, const xgdi_shader_input *inputs,
                                   int input_count, const xgdi_sampler_kind *sampler_kinds,
                                   const float *vs_constants, int vs_count,
                                   const float *ps_constants, int ps_count);
/* A user effect's shader is going away: the device forgets it if applied (draws then need
 * another apply). */
void xgdi_forget_user_shader(xgd_device *device, xgdi_native_shader *shader);
/* Vertex texture slots (vertex_textures.c): the formats XNA fetches in a vertex shader; binding
 * without checks (effects, which check at apply); the default sampler states; forgetting a
 * destroyed texture (true when a slot held it) or sampler state; the applied vertex shader's
 * sampler kinds (NULL: none); the draw-time checks and the copy into the draw state, which
 * draws run only while XGDI_DIRTY_VERTEX_TEXTURES or XGDI_DIRTY_PROGRAM is set. */
bool xgdi_vertex_texture_format(xgd_surface_format f);
void xgdi_bind_vertex_texture(xgd_device *device, int slot, xgd_texture *texture);
void xgdi_vertex_textures_init(xgd_device *dev);
bool xgdi_vertex_textures_forget_texture(xgd_device *dev, xgd_texture *texture);
void xgdi_vertex_textures_forget_sampler(xgd_device *dev, xgd_sampler_state *state);
void xgdi_set_user_vertex_sampler_kinds(xgd_device *dev, const xgdi_sampler_kind *kinds);
xgd_result xgdi_check_vertex_textures(xgd_device *dev);
void xgdi_prepare_vertex_textures(xgd_device *dev);
/* Reset's back-buffer half (device.c): recreates the back buffer for applied pp (validated;
 * windowed: sized to `window`) in `window` (NULL headless), unbinding targets and resetting
 * viewport and scissor; on failure nothing changed. Present uses it when the window resized. */
xgd_result xgdi_reset_onto_window(xgd_device *device, const xgd_presentation_parameters *pp,
                                  struct xgdi_window *window);

/* Size of the target draws go to (logical size of the back buffer, or the first target). */
void xgdi_current_target_size(const xgd_device *device, int *width, int *height);

/* ---- added by core-A ------------------------------------------------------------------------ */

/* Device-level objects of core-B (src/core/state.c): presets, stock declarations, default bound
 * states. Called once by xgd_device_create after the renderer exists. Device-owned objects are
 * registered with device_owned = true; at device destroy core calls release_native and
 * on_device_destroyed on them like any resource, then frees the struct itself with free()
 * (on_device_destroyed must not free it). */
xgd_result xgdi_create_device_objects(xgd_device *dev);
/* Marks every part of dev->draw_state dirty (target change, restore, reset). (state.c) */
void xgdi_invalidate_draw_state(xgd_device *dev);
/* Forgets every texture's slot-check memo (slot_check_epoch; never 0, which no memo holds). */
static inline void xgdi_new_slot_check_epoch(xgd_device *dev)
{
    if (++dev->slot_check_epoch == 0) dev->slot_check_epoch = 1;
}
/* The viewport and scissor a draw uses, in physical pixels of the bound target: the logical
 * dev->viewport / dev->scissor mapped through the presentation geometry when the back buffer is
 * bound (identity for render targets); scissor clipped to the target. Allocation-free. */
void xgdi_physical_viewport(const xgd_device *dev, xgd_viewport *vp, xgd_rect *scissor);
/* The renderer table (src/core/renderers.c): the compiled renderers, best first, NULL-terminated,
 * and the entry for a kind (NULL when not compiled). */
const xgdi_renderer_ops *const *xgdi_renderer_list(void);
const xgdi_renderer_ops *xgdi_renderer_find(xgd_renderer_kind kind);
/* "software", "vulkan", "d3d12" for any kind, compiled or not; "auto"/"unknown" otherwise. */
const char *xgdi_renderer_kind_name(xgd_renderer_kind kind);
/* Ends every held reservation of the device (quads.c): each on_end is called, in the order
 * they were made, after the table is emptied. */
void xgdi_end_quad_holds(struct xgd_device *device);
/* Raises a device event to desc.on_event (no-op without a callback). */
void xgdi_raise_event(xgd_device *dev, xgd_device_event event);
/* Checks a device without requiring the renderer (getters and pure public state): like
 * xgdi_check_device but a lost device is accepted. */
xgd_result xgdi_check_device_alive(xgd_device *device);

/* draw.c's checks and submission, shared with the draws through several vertex buffers and
 * instancing (instancing.c); xgdi_draw_bindings is such a draw, xgdi_draw_needs_bindings says
 * whether the bound buffers need one. */
int64_t xgdi_vertices_for(xgd_primitive_type type, int primitive_count);
xgd_result xgdi_draw_check_common(xgd_device *dev, xgd_primitive_type type, int primitive_count);
xgd_result xgdi_draw_check_layout(xgd_device *dev, const xgdi_vertex_layout *layout);
xgd_result xgdi_draw_submit(xgd_device *dev, xgdi_draw *draw, const xgdi_vertex_layout *layout);
bool xgdi_draw_needs_bindings(const xgd_device *dev);
/* An indexed draw's index buffer: set, live, with storage, holding `count` indices from
   start_index, each plus base_vertex naming one of `available` vertices; *out is the buffer. */
xgd_result xgdi_draw_check_index_range(xgd_device *dev, int base_vertex, int start_index,
                                       int64_t count, int64_t available, xgd_index_buffer **out);
xgd_result xgdi_draw_bindings(xgd_device *dev, xgd_primitive_type type, bool indexed,
                              int start_vertex, int base_vertex, int start_index,
                              int primitive_count, int instance_count);
/* Moves device->user_primitives into device->stats (primitives; triangles for the triangle
   types), leaving it zero. */
static inline void xgdi_settle_user_primitives(xgd_device *device)
{
    uint64_t triangles = device->user_primitives[XGD_PRIMITIVE_TRIANGLE_LIST] +
                         device->user_primitives[XGD_PRIMITIVE_TRIANGLE_STRIP];
    device->stats.triangles += triangles;
    device->stats.primitives += triangles + device->user_primitives[XGD_PRIMITIVE_LINE_LIST] +
                                device->user_primitives[XGD_PRIMITIVE_LINE_STRIP];
    for (int i = 0; i < XGD_PRIMITIVE_COUNT; i++) device->user_primitives[i] = 0;
}
/* The current frame's counters: device->stats minus device->frame_base (device.c), with
   device->user_primitives settled first (xgdi_settle_user_primitives). */
xgd_frame_statistics xgdi_frame_statistics(const xgd_device *device);
/* The profile's limits combined with the renderer's caps. */
int xgdi_max_texture_size(const xgd_device *dev);
int xgdi_max_render_targets(const xgd_device *dev);
/* Textures made from image files (src/content): the shape is checked as the matching create
 * call checks it (profile, renderer caps, Reach rules) and `levels` may be any count from 1
 * to the full chain. create takes `contents` over (every face, then level, tightly packed as
 * the CPU shadow is; `size` bytes, which must be the texture's whole size) and frees it on
 * failure too. A cube's height is its width; depth is 1 except for XGD_TEXTURE_3D. */
xgd_result xgdi_texture_validate_contents(xgd_device *dev, xgd_texture_kind kind, int width,
                                          int height, int depth, int levels,
                                          xgd_surface_format format);
xgd_result xgdi_texture_create_contents(xgd_device *dev, xgd_texture_kind kind, int width,
                                        int height, int depth, int levels,
                                        xgd_surface_format format, uint8_t *contents,
                                        size_t size, xgd_texture **out);
/* Whether the profile allows a format (Reach forbids HiDef-only formats). */
bool xgdi_profile_allows_format(const xgd_device *dev, xgd_surface_format format);
/* Detaches a render target that is being destroyed while bound (spec 001 "Bound target
 * disposal has two paths"); target.c. No-op when it is not bound. */
void xgdi_detach_destroyed_render_target(xgd_device *dev, xgd_texture *target);
/* Registry walks (resource.c): device destroy turns every resource into a disposed shell
 * (device-owned ones are freed); loss releases native parts; restore recreates them and returns
 * the number of failures. */
void xgdi_registry_dispose_all(xgd_device *device);
void xgdi_registry_release_native(xgd_device *device);
int xgdi_registry_recreate_native(xgd_device *device);
/* Viewport and scissor back to the whole current target (logical size); frame.c. */
void xgdi_reset_viewport_scissor(xgd_device *dev);
/* Binds the public render-target set natively again after a restore; target.c. */
xgd_result xgdi_rebind_render_targets(xgd_device *dev);
/* Before a call that uses the native binding (clear, draw, present, a transaction): when it is
 * stale, binds the public set (or the back buffer) natively again. The failure is recorded
 * and the binding stays stale, so the next call tries again; target.c. */
xgd_result xgdi_sync_native_targets(xgd_device *dev);
/* PresentInterval as forwarded to the renderer: Immediate 0, Two 2, Default/One 1 (spec 002). */
int xgdi_swap_interval(const xgd_device *dev);
/* Size of a texture's level-0 face (cube: size x size). */
void xgdi_texture_size(const xgd_texture *t, int *width, int *height);

/* ---- core-B ---------------------------------------------------------------------------------- */

/* The four stock vertex declarations (buffer.c), device-owned; called by
 * xgdi_create_device_objects (state.c). */
xgd_result xgdi_create_stock_declarations(xgd_device *dev);

/* ---- added by conformance: debug fault injection and the packed-format probe (fault.c) -- */

/* Arms a fault: the nth next call of op (nth > 0), or every call (nth < 0), fails with code as if
 * the renderer had failed natively (the message names the injected fault); nth 0 disarms.
 * device NULL arms the next device created on this thread (its creation-time calls included).
 * In a library built with XGD_FAULT_INJECTION=ON (test builds; off by default),
 * XGD_DEBUG_FAIL="op:nth[,op:nth...]" in the environment arms every new device the same way
 * (op names: set_render_targets, texture_create, texture_upload, clear, draw, present,
 * read_back_buffer, corrupt_download, no_back_buffer_readback, reset_back_buffer, submit,
 * texture_download).
 * INVALID_ARGUMENT for an unknown op. */
xgd_result xgdi_debug_fail_next(xgd_device *device, xgdi_fault_op op, int nth, xgd_result code);
/* Arms a fault that lets the next `skip` calls of op through and fails every later one (e.g.
 * every resource recreation of a restore, after the calls of its packed-format self-test);
 * disarm with xgdi_debug_fail_next(..., 0, ...). INVALID_ARGUMENT for a negative skip. */
xgd_result xgdi_debug_fail_after(xgd_device *device, xgdi_fault_op op, int skip, xgd_result code);
/* The swap interval the renderer's present last received once the hook was armed on the
 * device (arm any op with nth 0 to start recording); -1 if none. */
int xgdi_debug_last_swap_interval(const xgd_device *device);
/* Arms the "any operation" mode: every fallible renderer call core makes through the device's
 * ops table (creations, uploads, downloads, finalisation, target changes, clears, draws,
 * readbacks, present, submit, fence waits, queries) counts once, and the nth from now fails
 * with code (OK means OUT_OF_MEMORY) whatever its kind; nth 0 only counts. DEVICE_LOST also
 * enters the lost state, as a renderer reporting a native loss does. Restarts the count. */
xgd_result xgdi_debug_fail_any(xgd_device *device, int nth, xgd_result code);
/* Fallible renderer calls counted since xgdi_debug_fail_any last armed the device. */
uint64_t xgdi_debug_op_calls(const xgd_device *device);
/* Device creation: applies faults armed for the next device and (XGD_FAULT_INJECTION builds)
 * by XGD_DEBUG_FAIL. */
void xgdi_debug_install_pending(xgd_device *dev);
/* Spec 000 device creation: a renderer that cannot store Bgra4444, Bgr565 or Bgra5551 texels
 * loses that format (caps cleared, a warning) instead of corrupting it. Uploads a pattern that
 * uses every bit and reads it back; run after the renderer starts (creation and restore). Only
 * a round trip that ran and read back other texels (or a renderer refusing the format with
 * NOT_SUPPORTED) takes a format away; a step that fails otherwise is returned with a message
 * and the caps are left as the renderer reported them. */
xgd_result xgdi_probe_packed_formats(xgd_device *dev);

/* ---- test hooks of src/graphics (defined there; the library never calls them) ------------ */

/* Draws (every overload) of the batch that took SpriteBatch's long way (draw_other: the
 * batch resolved by handle, the texture checked or looked up, or a sprite the fast paths do
 * not take) since its creation; UINT64_MAX for a handle that is not a live batch. A run of
 * unrotated sprites with a texture checked in the batch takes the fast path while the
 * resource epoch stays (sprite_batch.c), so tests can see that it does. */
uint64_t xgdi_sprite_batch_long_draws(xgd_sprite_batch *batch);
/* Sprites the batch's Ends drew straight from the upload memory Draw wrote them into (a direct
 * batch, sprite_batch.c) since its creation; UINT64_MAX for a handle that is not a live batch. */
uint64_t xgdi_sprite_batch_direct_sprites(xgd_sprite_batch *batch);

/* user_decl_handle when none is remembered: an even address, and handles are odd */
extern const uint64_t xgdi_no_user_decl;
#define XGDI_NO_USER_DECL ((const xgd_vertex_declaration *)(const void *)&xgdi_no_user_decl)
/* xgdi_resource.owner once disposed: not NULL, so that it fails a compare with a NULL device */
#define XGDI_NO_OWNER ((struct xgd_device *)(uintptr_t)&xgdi_no_user_decl)

static inline void xgdi_forget_user_draw(struct xgd_device *device)
{
    device->user_decl_handle = XGDI_NO_USER_DECL;
}

#endif /* XGD_INTERNAL_H */
