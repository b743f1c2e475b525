/*
 * sprite_batch.c - XNA 4.0 SpriteBatch on top of the public draw API.
 *
 * Draw turns each sprite at once into what its four vertices are made from (XNA's corner math:
 * for the common unrotated sprite its four edges, see sprite_quad) and queues that with the
 * texture and layer depth; End sorts (when the mode asks), then draws the queue in chunks of
 * MAX_SPRITES sprites: each chunk's vertices are written (sorted modes: in order) straight into
 * a reservation of the device's upload memory (xgd_reserve_user_quads) and drawn from there
 * with one xgd_draw_reserved_quad_runs call, a run per stretch of equal textures, through the
 * device's static quad indices, so the batch builds and checks no index and neither it nor
 * the renderer copies vertices. On the GPU renderers a chunk of unrotated sprites is written
 * as one 48-byte element a sprite instead and drawn instanced, its corners selected by the
 * vertex shader (xgd_sprite_batch_set_instancing, see draw_instances). With texture groups
 * (xgd_sprite_batch_set_texture_groups, see draw_groups) a chunk is drawn instead in groups of
 * up to 16 textures, a draw each. A Deferred batch whose runs prove long writes its entries at
 * Draw straight into upload memory held for it and End draws them from there (direct batches,
 * see the struct's direct fields; a sprite sheet's cells too, as sheet chunks).
 *
 * Steady state allocates nothing: the queue, the sort arrays and the texture table grow by
 * doubling and are kept between batches.
 *
 * Conventions taken from XNA (and kept by FNA, MonoGame and DirectXTK, which share its design):
 *   - corner i of the quad is (i & 1, i >> 1) in source space: 0 TL, 1 TR, 2 BL, 3 BR;
 *     position = destination + rotate((corner * sourceSize - origin) * scale), rotation
 *     clockwise on screen (y down): x' = x cos - y sin, y' = x sin + y cos.
 *   - SpriteEffects flip the texture coordinates, not the geometry: corner i takes the
 *     texture coordinate of corner i ^ effects (FlipHorizontally = 1, FlipVertically = 2), so
 *     the origin stays in unflipped source space and the winding never changes.
 *   - triangles (0,1,2) and (1,3,2) are clockwise on screen for a positive scale, so the
 *     default CullCounterClockwise keeps them; a negative scale or destination size mirrors
 *     the geometry and is culled, as in XNA.
 *   - layer depth is written as the vertex z and passes through the projection unchanged
 *     (z_clip = depth, inside the D3D clip range 0 <= z <= w). The x/y part of the projection
 *     is CreateOrthographicOffCenter(0, vp.w, vp.h, 0, ...), preceded by XNA's
 *     CreateTranslation(-0.5, -0.5, 0) under Direct3D 9 pixel centres (the device default),
 *     which cancels the rasterizer's half pixel (xgd_matrix_create_sprite_projection). The z
 *     part uses near 0, far -1 (z kept) rather than near 0, far 1 (z negated): with the
 *     latter every sprite with a layer depth above 0 would fall outside 0 <= z and be clipped.
 *     DirectXTK's viewport transform (by the author of XNA's SpriteBatch), FNA and MonoGame
 *     all keep z the same way.
 *   - spec 002 "Viewport and scissor": the projection comes from the effective viewport, so
 *     sprite coordinates are local to a sub-viewport rather than transformed twice.
 */
#include "xgd.h"
#include "../../shaders/generated/stock_xfx.h"

#include <math.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* the Draw fast path's pieces, in Draw itself */
#if defined(__GNUC__) || defined(__clang__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define ALWAYS_INLINE inline
#define UNLIKELY(x) (x)
#endif

/* sprites per draw: at most XGD_USER_QUADS_MAX; 2048 keeps a reservation at 192 KiB */
#define MAX_SPRITES 2048

typedef xgd_vertex_position_color_texture sprite_vertex;

/* Texture groups: a group draws the sprites of up to GROUP_SLOTS distinct textures at once
 * (draw_groups). Every group of a chunk but the last has at least GROUP_SLOTS sprites. */
#define GROUP_SLOTS 16
#define MAX_GROUPS (MAX_SPRITES / GROUP_SLOTS + 1)
/* AUTO groups a chunk when it has at least this many runs per group. What a group costs
   against a run (H200, xgd-bench --sprites-only 64, 16 textures a group and a run a sprite,
   session 16): Direct3D 12 (vkd3d) a run 478 ns, a group of 16 runs 3,060 ns (6 runs);
   Vulkan a run 79 ns, a group 1,970 ns (25 runs: 16 textures pushed and checked, 15 slot
   changes, a draw through the full path). */
#define GROUP_MIN_RUNS_D3D12 4
#define GROUP_MIN_RUNS_VULKAN 32

/* A vertex of spritebatch16.fx: SpriteBatch's vertex and its sprite's slot (TEXCOORD1). */
typedef struct group_vertex {
    sprite_vertex v;
    float slot;
} group_vertex;

typedef struct sprite_group {
    uint32_t start, count;            /* sprites of the chunk */
    uint32_t texture_count;
    uint32_t textures[GROUP_SLOTS];   /* distinct ordinals, by slot */
} sprite_group;

/* One queued sprite: what its four vertices are made from, so Draw writes 32 bytes rather than
 * 96 and End writes the vertices once, straight into the device's upload memory. Most sprites
 * are unrotated rectangles: their vertices are (x[i & 1], y[i >> 1], z), color and the
 * texture coordinate of corner i ^ effects, so the finished edges (x0, y0, x1, y1), z and
 * color give every vertex bit for bit as Draw would have written it. form says where the
 * texture coordinates come from: QUAD_WHOLE (the whole texture; form >> 2 is the effects
 * value), QUAD_UV (uvs[form >> 2]: (ua, va, ub, vb), a source rectangle's, already flipped);
 * QUAD_VERTICES: the sprite's four finished vertices are general[4 * (form >> 2)] (a
 * rotated sprite, or an empty quad), and only z, texture and form here count. */
enum { QUAD_WHOLE = 0, QUAD_UV = 1, QUAD_VERTICES = 2 };
typedef struct sprite_quad {
    float x0, y0, x1, y1;
    float z;                          /* the layer depth: vertex z and sort key */
    xgd_color color;
    uint32_t texture;                 /* index into distinct_* */
    uint32_t form;                    /* right after texture: quad_key reads both as one */
} sprite_quad;

/* queue_whole and queue_at store (z, color) and (texture, form) as pairs */
_Static_assert(offsetof(sprite_quad, color) == offsetof(sprite_quad, z) + 4 &&
                   offsetof(sprite_quad, form) == offsetof(sprite_quad, texture) + 4 &&
                   sizeof(xgd_color) == 4,
               "sprite_quad's pairs are adjacent");

/* Direct batches (see struct xgd_sprite_batch's direct fields): the first held chunk's quads
 * (at least, and at most), and the most runs the direct entries may have before the batch
 * goes on in its queue (End's chunks may draw those by texture groups). */
#define HOLD_MIN 2048u
#define HOLD_MAX 131072u
#define DIRECT_RUNS 1024u
/* A batch goes direct once a run of DIRECT_START whole-texture sprites shows its runs are long;
 * after DIRECT_MISSES shorter runs (or other sprites) it stops watching (End's chunks draw
 * such batches by runs or texture groups, and Draw's run switches cost nothing more). */
#define DIRECT_START 256u
#define DIRECT_MISSES 16u
/* A direct batch whose sprites change kind (whole texture <-> cells) goes on in a new chunk of
 * the other kind after at least KIND_SWITCH_MIN entries of the open chunk's kind; a shorter stretch
 * ends the direct entries (a batch that alternates kinds sprite by sprite would spend a hold,
 * and the ring space of a chunk, on each one). */
#define KIND_SWITCH_MIN 64u

/* entries of the per-batch texture memo (a power of two) */
#define TEXTURE_MEMO 32

/* Open-addressing table: a texture's handle -> its first-appearance ordinal in the batch
 * (Texture sort, run detection, the End-time liveness check). A handle is a weak reference
 * (its value names one object only: a texture freed during the batch never matches a later
 * one), so the table compares handle values and follows nothing. */
typedef struct texture_slot {
    xgd_texture *handle;
    uint32_t ordinal_plus1;           /* 0 = empty */
} texture_slot;

/* The handles End checks (xgd_resource_is_live) for the objects Begin was given. */
enum { REF_BLEND, REF_SAMPLER, REF_DEPTH_STENCIL, REF_RASTERIZER, REF_EFFECT, REF_COUNT };

struct xgd_sprite_batch {
    xgd_device *device;               /* followed only after the batch's handle resolved, which
                                         says the device lives */
    xgd_pixel_center pixel_center;    /* the device's, fixed at its creation */
    xgd_renderer_kind renderer;       /* the device's */
    bool reach;                       /* the device's profile is Reach: no instancing */
    xgd_effect *sprite_effect;        /* internal stock SpriteEffect */

    bool in_begin;
    xgd_sprite_sort_mode sort_mode;
    xgd_blend_state *blend;           /* the states and effect are public handles */
    xgd_sampler_state *sampler;
    xgd_depth_stencil_state *depth_stencil;
    xgd_rasterizer_state *rasterizer;
    xgd_effect *effect;               /* custom effect or NULL */
    xgd_matrix transform;
    int projection_width, projection_height; /* the viewport size the SpriteEffect was set for */
    xgd_matrix projected;             /* the SpriteEffect's matrix: transform * projection */
    const void *refs[REF_COUNT];      /* the five above as handles (NULL for no effect) */

    /* the queue: a sprite_quad per sprite; End makes its vertices from it */
    sprite_quad *quads;
    uint32_t count, capacity;
    uintptr_t write_at;               /* where Draw's fast paths write entry i (entry_at): the
                                         address of quads, or while direct (below) the one
                                         that puts entry i in the open chunk (an integer: no
                                         pointer outside the chunk is ever formed) */
    /* what a quad's form points into (see sprite_quad); each keeps one free entry between
       Draws (draw_general grows them before it queues), so queuing never fails */
    float (*uvs)[4];
    uint32_t uv_count, uv_capacity;
    uint32_t uv_limit;                /* the entries Draw may take: uv_capacity less those kept
                                         for held sheet chunks' elements (sheet_pending) */
    sprite_vertex *general;           /* 4 per entry */
    uint32_t general_count, general_capacity;
    sprite_vertex immediate[4];       /* Immediate mode's one sprite */

    /* the batch's distinct textures (handles) in first-appearance order, taken at Draw while
       live */
    xgd_texture **distinct_textures;
    uint32_t *distinct_buckets;       /* each one's table index, to empty the table in O(n) */
    uint32_t distinct, distinct_capacity;

    /* sorting: (key << 32 | submission index); the index makes the order total, so any
       correct sort of these values is stable by key */
    uint64_t *keys, *keys_scratch;
    uint32_t keys_capacity;
    xgd_quad_run *runs;               /* MAX_SPRITES runs: one End chunk's */

    texture_slot *table;
    uint32_t table_capacity;          /* power of two, or 0 */

    /* The texture of the last queued sprite, by its public handle: a run of sprites with the
       same texture is checked (type, kind, table lookup, size) once, at its first sprite. A
       handle that resolved is the same live object it was (handles carry a generation), so
       equality is enough; NULL = no run. It and the memo below hold only textures that were
       live at xgd_resource_epoch() == checked_epoch, so while the epoch reads the same they
       still are; when it moves, Draw empties both. */
    uint64_t checked_epoch;
    xgd_texture *run_handle;
    uint32_t run_room;                /* capacity while run_handle names a texture, else 0: Draw's
                                         one test that a run is open (so its texture is not NULL
                                         and the batch is in a queued Begin) and that the queue
                                         has room */
    uint32_t run_ordinal;
    int run_width, run_height;
    float run_corner[4];              /* (-0, -0, width, height): build_fast's corner offsets */

    /* The same for the last textures seen in this batch, direct-mapped by handle: a batch that
       alternates among a few textures checks and looks each up once, not once per change. */
    struct texture_memo {
        xgd_texture *handle;          /* NULL = empty */
        uint32_t ordinal;
        int width, height;
        float corner[4];              /* as run_corner */
    } memo[TEXTURE_MEMO];

    /* Texture groups (xgd_sprite_batch_set_texture_groups; see draw_groups). */
    xgd_sprite_texture_groups groups_mode;
    bool groups_unavailable;          /* the program or declaration could not be made: never
                                         again in this batch's life (the plain path draws) */
    xgd_effect *group_effect;         /* shaders/stock/spritebatch16.fx, made at first use */
    xgd_effect_parameter group_matrix;
    xgd_vertex_declaration *group_decl; /* group_vertex */
    uint8_t *group_slot;              /* MAX_SPRITES: each sprite's slot in its group */
    struct sprite_group *groups;      /* MAX_GROUPS: one chunk's */
    uint32_t *group_mark;             /* per distinct texture: group serial << 4 | slot */
    uint32_t group_mark_capacity;
    uint32_t group_serial;            /* the open group's; marks of other serials are stale */

    /* Instanced sprites (draw_sprites, GPU renderers): spriteinst.fx draws a chunk of
       unrotated sprites from a 48-byte element each (sprite_instance) instead of four
       vertices; spritewhole.fx a batch whose sprites all show their whole texture from their
       queue entries themselves (32 bytes). */
    xgd_sprite_instancing inst_mode;  /* xgd_sprite_batch_set_instancing */
    bool inst_unavailable;            /* spriteinst could not be made (once) */
    bool whole_unavailable;           /* spritewhole could not be made: spriteinst draws those */
    struct inst_program {
        xgd_effect *effect;
        xgd_effect_parameter matrix;
        xgd_vertex_declaration *decl;
    } inst[2];                        /* INST_ELEMENT, INST_WHOLE */

    /* Direct batches: a Deferred batch that spritewhole may draw (a GPU renderer, SpriteBatch's
       own effect, instancing not OFF, texture groups not ON) and whose runs prove long (a run
       of DIRECT_START unrotated sprites, of the whole texture or of cells) writes its entries
       from then on straight into held chunks of the device's upload memory
       (xgd_hold_user_quad_instances), which End draws as they lie: no queue write at Draw, no
       copy at End. A chunk holds the kind of sprite that opened it: whole-texture entries
       (spritewhole draws them as they are) or sheet elements (below). A sprite of the other
       kind opens a chunk of its kind after at least KIND_SWITCH_MIN entries of the open
       chunk's kind (kind_first; the chunk before ends where the next one starts: chunk_stop).
       A sprite of the other kind after a shorter stretch, a rotated one, an empty quad, more
       than DIRECT_RUNS runs, or a chunk the device cannot hold ends the direct entries: the
       rest go to the queue after them. So the queue holds [0, direct_first) and
       [direct_n, count), the chunks [direct_first, direct_n), and End draws the three in that
       order. When the device ends the holds (a submission before End), held_ended copies the
       entries End has not drawn into the queue at their places, and End draws them from
       there. The queue keeps room for every direct entry (`room` never passes capacity), so
       that copy always fits. */
    uint32_t room;                    /* entries Draw may write: the open chunk's end while
                                         direct in a whole-texture chunk, 0 in a sheet chunk,
                                         else capacity (run_room takes it) */
    bool direct_ok;                   /* this Begin may (still) write into held chunks: watching
                                         the runs until `direct` */
    bool direct;                      /* writing into held[held_count - 1] now */
    uint32_t run_first, direct_misses; /* watching: the run's first entry; runs that fell short */
    uint32_t direct_first;            /* the first direct entry (held_count > 0) */
    uint32_t direct_n;                /* the entry after the last direct one, once not direct */
    uint32_t held_count, held_drawn;  /* chunks held; those End drew */
    struct held_chunk {
        xgd_quad_reservation res;
        uint32_t first;               /* its first entry's index */
        bool sheet;                   /* sheet_element entries, else sprite_quad */
    } held[XGD_QUAD_HOLDS_MAX];
    /* Sheet chunks: a run of unrotated sprites with source rectangles (a sprite sheet's cells)
       goes direct as well, into chunks of 48-byte sheet_element entries (the queue entry and
       its texture coordinates, which spriteinst draws through sheet_decl). While the open chunk
       is one, room is 0 (the whole-texture paths write 32-byte entries: they go the long
       way, which ends the direct entries) and sheet_room is its end; the cell paths write at
       sheet_write_at. uvs keeps an entry for every entry of the held sheet chunks
       (sheet_pending), for held_ended. */
    bool sheet;                       /* the open chunk is a sheet chunk */
    uint32_t kind_first;              /* the first entry of the open chunk's kind: of the
                                         first chunk, or of the first after a change of kind */
    uint32_t sheet_room;              /* the open sheet chunk's end, else 0 */
    uintptr_t sheet_write_at;         /* entry i of the open sheet chunk: sheet_at */
    uint32_t sheet_pending;           /* entries of the held sheet chunks (uvs keeps them) */
    bool sheet_unavailable;           /* spriteinst or sheet_decl could not be made (once) */
    xgd_vertex_declaration *sheet_decl;
    struct direct_run {
        uint32_t start, ordinal;      /* from entry start on, texture ordinal */
    } direct_runs[DIRECT_RUNS];
    uint32_t direct_run_count;
    uint32_t last_count;              /* the last End's sprites: an eighth of it is the first
                                         chunk's size */

    uint64_t long_draws;              /* Draws through draw_other (xgdi_sprite_batch_long_draws) */
    uint64_t direct_drawn;            /* sprites End drew from held chunks
                                         (xgdi_sprite_batch_direct_sprites) */
};

/* Where Draw's fast paths write entry i: in the queue, or while direct in the open chunk. The
 * address is made as an integer and converted once, to a pointer inside that chunk or queue
 * (write_at itself may lie before the chunk). */
static ALWAYS_INLINE sprite_quad *entry_at(const xgd_sprite_batch *b, uint32_t i)
{
    return (sprite_quad *)(b->write_at + (uintptr_t)i * sizeof(sprite_quad));
}

/* A sheet chunk's entry: the sprite's queue entry (its texture and form as the queue would
 * have them, form's uvs index not yet given) and its texture coordinates (ua, va, ub, vb), as
 * queue_rect computes them; spriteinst reads edges, depth, color and coordinates. */
typedef struct sheet_element {
    sprite_quad q;
    float uv[4];
} sheet_element;
_Static_assert(sizeof(sheet_element) == 48, "a sheet element is three 16-byte stores");

static ALWAYS_INLINE sheet_element *sheet_at(const xgd_sprite_batch *b, uint32_t i)
{
    return (sheet_element *)(b->sheet_write_at + (uintptr_t)i * sizeof(sheet_element));
}

/* b->inst's programs; group_state.inst is one of them plus 1, or 0 */
enum { INST_ELEMENT = 0, INST_WHOLE = 1 };

/* xgd_resource_epoch's number, read by Draw without a call (xgd_resource_epoch_address). Until
 * the first batch's creation stores the real one, a number no epoch reaches (the memo's epoch is
 * then never equal: Draw goes the long way, and no Draw can queue before a batch exists). A
 * thread that got its batch's handle from the creating thread through synchronization sees the
 * real counter; one that reads the placeholder still (only possible without it) only takes the
 * long way. The placeholder is not const: it is only read, but a target that made atomic loads
 * out of compare-and-swap would write it. */
static _Atomic uint64_t no_epoch = UINT64_MAX;
static const _Atomic uint64_t *_Atomic epoch_counter = &no_epoch;

static void release_held(xgd_sprite_batch *b, xgd_device *dev);
static bool instancing_allowed(const xgd_sprite_batch *b);

/* ---- lifetime ------------------------------------------------------------------------------ */

/* The batch has no native part of its own; at device destroy it turns into a shell that
 * answers OBJECT_DISPOSED (its queue is dropped, its arrays freed by the owner's destroy). */
static void batch_device_destroyed(void *object)
{
    xgd_sprite_batch *b = object;
    b->in_begin = false;
    b->count = 0;
    b->effect = NULL;
    b->run_handle = NULL;
    b->run_room = 0;
    /* the device drops its held reservations without calls */
    b->held_count = b->held_drawn = 0;
    b->direct = b->direct_ok = false;
    b->sheet = false;
    b->sheet_room = 0;
    b->sheet_pending = 0;
    b->uv_limit = b->uv_capacity;
    b->direct_n = 0;
    b->write_at = (uintptr_t)b->quads;
    b->room = b->capacity;
}

static const xgd_resource_class batch_class = { "sprite batch", batch_device_destroyed };

xgd_result xgd_sprite_batch_create(xgd_device *device, xgd_sprite_batch **out)
{
    if (out != NULL) *out = NULL;
    xgd_device_info info;
    xgd_result r = xgd_device_get_info(device, &info);
    if (r != XGD_OK) return r;
    if (out == NULL) return xgd_device_report_error(device, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    xgd_sprite_batch *b = calloc(1, sizeof *b);
    if (b == NULL) return xgd_device_report_error(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    r = xgd_sprite_effect_create(device, &b->sprite_effect);
    if (r != XGD_OK) {
        free(b);
        return r;
    }
    atomic_store_explicit(&epoch_counter,
                          (const _Atomic uint64_t *)xgd_resource_epoch_address(),
                          memory_order_relaxed);
    b->device = device;
    b->pixel_center = info.pixel_center;
    b->renderer = info.renderer;
    b->reach = info.profile == XGD_GRAPHICS_PROFILE_REACH;
    b->transform = xgd_matrix_identity();
    void *handle = NULL;
    r = xgd_resource_register(device, &batch_class, b, &handle);
    if (r != XGD_OK) {
        xgd_effect_destroy(b->sprite_effect);
        free(b);
        return r;
    }
    *out = handle;
    return XGD_OK;
}

void xgd_sprite_batch_destroy(xgd_sprite_batch *batch)
{
    batch = xgd_resource_unregister(batch, &batch_class);
    if (batch == NULL) return;
    /* chunks held by a batch destroyed between Begin and End (none once its device is gone) */
    if (batch->held_count > batch->held_drawn) release_held(batch, batch->device);
    xgd_effect_destroy(batch->sprite_effect);
    xgd_effect_destroy(batch->group_effect);
    xgd_vertex_declaration_destroy(batch->group_decl);
    for (int k = 0; k < 2; k++) {
        xgd_effect_destroy(batch->inst[k].effect);
        xgd_vertex_declaration_destroy(batch->inst[k].decl);
    }
    xgd_vertex_declaration_destroy(batch->sheet_decl);
    free(batch->group_slot);
    free(batch->groups);
    free(batch->group_mark);
    free(batch->quads);
    free(batch->uvs);
    free(batch->general);
    free(batch->keys);
    free(batch->keys_scratch);
    free(batch->runs);
    free(batch->table);
    free(batch->distinct_textures);
    free(batch->distinct_buckets);
    free(batch);
}

/* The batch behind a handle, its device alive (a disposed shell answers OBJECT_DISPOSED);
 * the variable then holds the object, as if the user had passed its address. */
#define RESOLVE_BATCH(batch, dev)                                                                \
    do {                                                                                         \
        xgd_result resolve_r_ = xgd_resource_resolve(NULL, (batch), &batch_class, NULL,          \
                                                     (void **)&(batch), NULL);                   \
        if (resolve_r_ != XGD_OK) return resolve_r_;                                             \
        (dev) = (batch)->device;                                                                 \
    } while (0)

/* internal.h: declared there for the tests; sprite_batch.c sees only the public API */
uint64_t xgdi_sprite_batch_long_draws(xgd_sprite_batch *batch);
uint64_t xgdi_sprite_batch_long_draws(xgd_sprite_batch *batch)
{
    if (xgd_resource_resolve(NULL, batch, &batch_class, NULL, (void **)&batch, NULL) != XGD_OK)
        return UINT64_MAX;
    return batch->long_draws;
}

uint64_t xgdi_sprite_batch_direct_sprites(xgd_sprite_batch *batch);
uint64_t xgdi_sprite_batch_direct_sprites(xgd_sprite_batch *batch)
{
    if (xgd_resource_resolve(NULL, batch, &batch_class, NULL, (void **)&batch, NULL) != XGD_OK)
        return UINT64_MAX;
    return batch->direct_drawn;
}

xgd_result xgd_sprite_batch_get_device(xgd_sprite_batch *batch, xgd_device **out)
{
    if (out != NULL) *out = NULL;
    xgd_device *dev = NULL;
    RESOLVE_BATCH(batch, dev);
    if (out == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    *out = dev;
    return XGD_OK;
}

/* ---- the distinct-texture table ------------------------------------------------------------ */

static uint32_t hash_ref(const xgd_texture *handle, uint32_t mask)
{
    uint64_t x = (uint64_t)(uintptr_t)handle;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (uint32_t)x & mask;
}

/* The bucket holding the handle, or the empty one where it would go (table_capacity > 0). */
static uint32_t table_find(const xgd_sprite_batch *b, const xgd_texture *handle)
{
    uint32_t mask = b->table_capacity - 1;
    uint32_t h = hash_ref(handle, mask);
    while (b->table[h].ordinal_plus1 != 0 && b->table[h].handle != handle)
        h = (h + 1) & mask;
    return h;
}

/* Empties the table by clearing only the buckets this batch used: O(distinct). */
static void table_reset(xgd_sprite_batch *b)
{
    for (uint32_t i = 0; i < b->distinct; i++) b->table[b->distinct_buckets[i]].ordinal_plus1 = 0;
    b->distinct = 0;
    b->uv_count = b->general_count = 0;
    b->run_handle = NULL;
    b->run_room = 0;
    memset(b->memo, 0, sizeof b->memo);
}

/* ---- Begin --------------------------------------------------------------------------------- */

static bool finite_matrix(const xgd_matrix *m)
{
    for (int i = 0; i < 16; i++) {
        if (!isfinite(m->m[i])) return false;
    }
    return true;
}

static xgd_result set_states(xgd_sprite_batch *b, xgd_device *dev);

xgd_result xgd_sprite_batch_begin(xgd_sprite_batch *batch, const xgd_sprite_batch_begin_desc *desc)
{
    xgd_device *dev = NULL;
    RESOLVE_BATCH(batch, dev);
    xgd_result r = xgd_device_check_status(dev);
    if (r != XGD_OK) return r;
    if (batch->in_begin)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_OPERATION,
                         "End must be called before Begin can be called again");
    xgd_sprite_batch_begin_desc d;
    if (desc != NULL) d = *desc;
    else memset(&d, 0, sizeof d);
    if ((unsigned)d.sort_mode > XGD_SPRITE_SORT_FRONT_TO_BACK)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown sprite sort mode %d",
                         (int)d.sort_mode);
    /* The desc holds public handles, and the batch keeps them: they are what it passes to
       the public state setters, and each one is its own weak reference. */
    if (d.blend_state != NULL &&
        (r = xgd_resource_check(dev, d.blend_state, XGD_RESOURCE_BLEND_STATE, "blend state")) !=
            XGD_OK)
        return r;
    if (d.sampler_state != NULL &&
        (r = xgd_resource_check(dev, d.sampler_state, XGD_RESOURCE_SAMPLER_STATE,
                                "sampler state")) != XGD_OK)
        return r;
    if (d.depth_stencil_state != NULL &&
        (r = xgd_resource_check(dev, d.depth_stencil_state, XGD_RESOURCE_DEPTH_STENCIL_STATE,
                                "depth-stencil state")) != XGD_OK)
        return r;
    if (d.rasterizer_state != NULL &&
        (r = xgd_resource_check(dev, d.rasterizer_state, XGD_RESOURCE_RASTERIZER_STATE,
                                "rasterizer state")) != XGD_OK)
        return r;
    if (d.effect != NULL &&
        (r = xgd_resource_check(dev, d.effect, XGD_RESOURCE_EFFECT, "effect")) != XGD_OK)
        return r;
    if (d.transform != NULL && !finite_matrix(d.transform))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                         "the transform matrix has non-finite entries");

    /* XNA SpriteBatch.Begin defaults. */
    batch->sort_mode = d.sort_mode;
    batch->blend = d.blend_state != NULL
                       ? d.blend_state
                       : xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ALPHA_BLEND);
    batch->sampler = d.sampler_state != NULL
                         ? d.sampler_state
                         : xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
    batch->depth_stencil =
        d.depth_stencil_state != NULL
            ? d.depth_stencil_state
            : xgd_depth_stencil_state_preset(dev, XGD_DEPTH_STENCIL_PRESET_NONE);
    batch->rasterizer =
        d.rasterizer_state != NULL
            ? d.rasterizer_state
            : xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE);
    batch->effect = d.effect;
    batch->refs[REF_BLEND] = batch->blend;
    batch->refs[REF_SAMPLER] = batch->sampler;
    batch->refs[REF_DEPTH_STENCIL] = batch->depth_stencil;
    batch->refs[REF_RASTERIZER] = batch->rasterizer;
    batch->refs[REF_EFFECT] = d.effect;
    batch->transform = d.transform != NULL ? *d.transform : xgd_matrix_identity();
    batch->count = 0;
    table_reset(batch);
    release_held(batch, dev);
    batch->direct_ok = d.sort_mode == XGD_SPRITE_SORT_DEFERRED && instancing_allowed(batch) &&
                       batch->groups_mode != XGD_SPRITE_TEXTURE_GROUPS_ON &&
                       !batch->whole_unavailable;

    /* Immediate sets the device up now and draws at every Draw (XNA). */
    if (batch->sort_mode == XGD_SPRITE_SORT_IMMEDIATE) {
        r = set_states(batch, dev);
        if (r != XGD_OK) return r;
    }
    batch->in_begin = true;
    return XGD_OK;
}

/* ---- device setup and drawing -------------------------------------------------------------- */

/* The stock SpriteEffect with the transform followed by the pixel projection of the current
 * viewport (near 0, far -1: z passes through, see the file comment), applied. */
static xgd_result set_projection(xgd_sprite_batch *b, xgd_device *dev)
{
    xgd_viewport vp;
    xgd_result r = xgd_get_viewport(dev, &vp);
    if (r != XGD_OK) return r;
    xgd_matrix projection =
        xgd_matrix_create_sprite_projection(vp.width, vp.height, b->pixel_center);
    xgd_matrix m = xgd_matrix_multiply(&b->transform, &projection);
    if ((r = xgd_sprite_effect_set_matrix(b->sprite_effect, &m)) != XGD_OK) return r;
    if ((r = xgd_effect_apply(b->sprite_effect)) != XGD_OK) return r;
    b->projected = m;
    b->projection_width = vp.width;
    b->projection_height = vp.height;
    return XGD_OK;
}

/* The device states a SpriteBatch sets (XNA's Setup plus Textures[0]), saved before it sets
 * them so that a draw that fails can put them back: a failed call changes no public state. */
typedef struct saved_states {
    xgd_blend_state *blend;
    xgd_depth_stencil_state *depth_stencil;
    xgd_rasterizer_state *rasterizer;
    xgd_sampler_state *sampler0;
    xgd_texture *texture0;
} saved_states;

static void save_states(xgd_device *dev, saved_states *s)
{
    memset(s, 0, sizeof *s);
    (void)xgd_get_blend_state(dev, &s->blend);
    (void)xgd_get_depth_stencil_state(dev, &s->depth_stencil);
    (void)xgd_get_rasterizer_state(dev, &s->rasterizer);
    (void)xgd_get_sampler_state(dev, 0, &s->sampler0);
    (void)xgd_get_texture(dev, 0, &s->texture0);
}

/* Calls whose failure is not what the caller reports (a fallback takes over, or an earlier
 * failure is the result) run in a quiet span (xgd_device_quiet_begin): the device's last error,
 * last result and log callback see nothing of them. */

/* Binding is public state only, so this cannot fail for objects that were bound a moment ago;
 * should one fail anyway, it records nothing: the failure being reported stays the device's
 * message. */
static void restore_states(xgd_device *dev, const saved_states *s)
{
    xgd_device_quiet_begin(dev);
    (void)xgd_set_blend_state(dev, s->blend);
    (void)xgd_set_depth_stencil_state(dev, s->depth_stencil);
    (void)xgd_set_rasterizer_state(dev, s->rasterizer);
    (void)xgd_set_sampler_state(dev, 0, s->sampler0);
    (void)xgd_set_texture(dev, 0, s->texture0);
    (void)xgd_device_quiet_end(dev);
}

/* XNA SpriteBatch.Setup: the four states, then the stock SpriteEffect with the transform
 * followed by the pixel projection of the current viewport. */
static xgd_result set_states(xgd_sprite_batch *b, xgd_device *dev)
{
    xgd_result r;
    if ((r = xgd_set_blend_state(dev, b->blend)) != XGD_OK) return r;
    if ((r = xgd_set_depth_stencil_state(dev, b->depth_stencil)) != XGD_OK) return r;
    if ((r = xgd_set_rasterizer_state(dev, b->rasterizer)) != XGD_OK) return r;
    if ((r = xgd_set_sampler_state(dev, 0, b->sampler)) != XGD_OK) return r;
    return set_projection(b, dev);
}

/* Immediate mode's one sprite, queued at vertices[0]. */
static xgd_result draw_one(xgd_sprite_batch *b, xgd_device *dev, xgd_vertex_declaration *decl,
                           xgd_texture *texture)
{
    xgd_result r;
    /* XNA applies the custom effect per batch and then sets Textures[0], so the effect
       cannot leave another texture in slot 0. Immediate mode draws long after Begin, so the
       effect is checked through its weak reference before it is followed. */
    if (b->effect != NULL) {
        if (!xgd_resource_is_live(dev, b->effect))
            return xgd_device_report_error(dev, XGD_ERROR_OBJECT_DISPOSED,
                             "the effect given to Begin was destroyed");
        if ((r = xgd_effect_apply(b->effect)) != XGD_OK) return r;
    }
    if ((r = xgd_set_texture(dev, 0, texture)) != XGD_OK) return r;
    return xgd_draw_user_quads(dev, b->immediate, 0, 1, decl);
}

/* (u, v) of corners 0 and 3 of the whole texture for each SpriteEffects value: corner i takes
 * the texture coordinate of corner i ^ effects */
static const float uv_flip[4][4] = {
    { 0, 0, 1, 1 }, { 1, 0, 0, 1 }, { 0, 1, 1, 0 }, { 1, 1, 0, 0 },
};

/* A queued sprite's four vertices (see sprite_quad), the values Draw computed, only moved.
 * stream (SSE2, out 16-byte aligned): non-temporal stores, for upload memory that only the GPU
 * reads (xgd_quad_reservation.stream_stores; false on a CPU device such as lavapipe, whose
 * threads read the vertices through the same caches). On the H200's host they took D3D12's
 * End at a million sprites from 15-16 to 11-12 ns a sprite: the lines are not read before
 * they are written, and the frame's 96 MB of vertices do not push the queue out of the
 * caches. */
#if defined(__SSE2__)
typedef __m128 quad_uv;               /* (ua, va, ub, vb): corners 0 and 3, already flipped */
#define QUAD_UV_LOAD(p) _mm_loadu_ps(p)

/* Four floats to f: non-temporal (f 16-byte aligned) or a plain unaligned store. stream is
   known where expand_chunk is inlined, so the test is made once per chunk, not per store. */
static ALWAYS_INLINE void store4(float *f, __m128 v, bool stream)
{
    if (stream) _mm_stream_ps(f, v);
    else _mm_storeu_ps(f, v);
}

/* An unrotated sprite's (QUAD_WHOLE or QUAD_UV) vertices from its edges, z and color and the
 * texture coordinates of its corners 0 and 3. */
static ALWAYS_INLINE void expand_rect(sprite_vertex *out, const sprite_quad *q, quad_uv uv,
                                      bool stream)
{
    const __m128 r = _mm_loadu_ps(&q->x0);                                  /* x0 y0 x1 y1 */
    const __m128 zt = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&q->z));
    const __m128 zc = _mm_movelh_ps(zt, zt);                                /* z c z c */
    float *f = (float *)(void *)out;
    const __m128 v0 = _mm_movelh_ps(r, zc);                                 /* x0 y0 z c */
    const __m128 v1 = _mm_shuffle_ps(uv, r, _MM_SHUFFLE(1, 2, 1, 0));       /* ua va x1 y0 */
    const __m128 v2 = _mm_shuffle_ps(zc, uv, _MM_SHUFFLE(1, 2, 1, 0));      /* z c ub va */
    const __m128 v3 = _mm_shuffle_ps(r, zc, _MM_SHUFFLE(1, 0, 3, 0));       /* x0 y1 z c */
    const __m128 v4 = _mm_shuffle_ps(uv, r, _MM_SHUFFLE(3, 2, 3, 0));       /* ua vb x1 y1 */
    const __m128 v5 = _mm_shuffle_ps(zc, uv, _MM_SHUFFLE(3, 2, 1, 0));      /* z c ub vb */
    store4(f + 0, v0, stream);
    store4(f + 4, v1, stream);
    store4(f + 8, v2, stream);
    store4(f + 12, v3, stream);
    store4(f + 16, v4, stream);
    store4(f + 20, v5, stream);
}
#else
typedef const float *quad_uv;
#define QUAD_UV_LOAD(p) (p)

static ALWAYS_INLINE void expand_rect(sprite_vertex *out, const sprite_quad *q, quad_uv uv,
                                      bool stream)
{
    (void)stream;
    const float z = q->z;
    const xgd_color color = q->color;
    out[0] = (sprite_vertex){ { q->x0, q->y0, z }, color, { uv[0], uv[1] } };
    out[1] = (sprite_vertex){ { q->x1, q->y0, z }, color, { uv[2], uv[1] } };
    out[2] = (sprite_vertex){ { q->x0, q->y1, z }, color, { uv[0], uv[3] } };
    out[3] = (sprite_vertex){ { q->x1, q->y1, z }, color, { uv[2], uv[3] } };
}
#endif

/* texture and form of a queued sprite as one value: equal for two sprites of one texture
 * drawn whole with the same effects, whose vertices differ only in edges, z and color (and
 * never NO_KEY) */
static ALWAYS_INLINE uint64_t quad_key(const sprite_quad *q)
{
    uint64_t key;
    memcpy(&key, &q->texture, sizeof key); /* texture and form, adjacent (one load) */
    return key;
}

/* A key no queued sprite has (form kind 3 is unused): the open stretch's when there is none. */
#define NO_KEY UINT64_MAX

/* The vertices of n queued sprites (order[0..n) when order is not NULL, else from first on)
 * into dst, and their runs into b->runs; returns the number of runs. Inlined twice, so each
 * loop knows where its sprites come from. A sprite with the key (quad_key) of the one before
 * it, when that one drew its texture whole, takes the texture coordinates already at hand and
 * tests nothing else: the common case (one texture, one flip) costs one test a sprite. */
static ALWAYS_INLINE int expand_chunk(xgd_sprite_batch *b, sprite_vertex *dst,
                                      const uint64_t *order, uint32_t first, uint32_t n,
                                      bool stream)
{
    const sprite_quad *quads = order != NULL ? b->quads : b->quads + first;
    const float(*uvs)[4] = (const float(*)[4])b->uvs;
    /* the open run: its texture ordinal and first sprite */
    int run_count = 0;
    uint32_t run_texture = (order != NULL ? &quads[(uint32_t)order[0]] : quads)->texture;
    uint32_t run_start = 0;
    /* the open stretch of whole-texture sprites: their key and texture coordinates */
    uint64_t stretch_key = NO_KEY;
    quad_uv uv = QUAD_UV_LOAD(uv_flip[0]);
    for (uint32_t i = 0; i < n; i++) {
        const sprite_quad *q = order != NULL ? &quads[(uint32_t)order[i]] : &quads[i];
        sprite_vertex *out = &dst[(size_t)i * 4];
        const uint64_t key = quad_key(q);
        if (key != stretch_key) {
            if (q->texture != run_texture) {
                b->runs[run_count].texture = b->distinct_textures[run_texture];
                b->runs[run_count].quad_count = (int)(i - run_start);
                run_count++;
                run_texture = q->texture;
                run_start = i;
            }
            const uint32_t form = q->form;
            if ((form & 3u) == QUAD_WHOLE) {
                stretch_key = key;
                uv = QUAD_UV_LOAD(uv_flip[form >> 2]);
            } else {
                stretch_key = NO_KEY;
                if ((form & 3u) == QUAD_UV) {
                    expand_rect(out, q, QUAD_UV_LOAD(uvs[form >> 2]), stream);
                } else {
                    memcpy(out, &b->general[(size_t)(form >> 2) * 4], sizeof(sprite_vertex) * 4);
                }
                continue;
            }
        }
        expand_rect(out, q, uv, stream);
    }
    b->runs[run_count].texture = b->distinct_textures[run_texture];
    b->runs[run_count].quad_count = (int)(n - run_start);
    return run_count + 1;
}

/* ---- texture groups ------------------------------------------------------------------------ */

/* What End changes for texture groups, and what it puts back: slots 1..15's textures and
 * sampler states as they were (slot 0 and sampler 0 are SpriteBatch's, saved_states), and
 * which program is applied. */
typedef struct group_state {
    bool saved;                       /* slots 1..15 saved and their samplers set */
    bool program;                     /* spritebatch16 applied (else SpriteEffect) */
    xgd_texture *textures[GROUP_SLOTS];   /* saved */
    xgd_sampler_state *samplers[GROUP_SLOTS];
    xgd_texture *bound[GROUP_SLOTS];  /* what draw_groups bound since the program's apply */
    int inst;                         /* the instanced program applied plus 1 (INST_ELEMENT,
                                         INST_WHOLE); 0: SpriteEffect or spritebatch16 */
} group_state;

xgd_result xgd_sprite_batch_set_texture_groups(xgd_sprite_batch *batch,
                                               xgd_sprite_texture_groups mode)
{
    xgd_device *dev = NULL;
    RESOLVE_BATCH(batch, dev);
    if ((unsigned)mode > XGD_SPRITE_TEXTURE_GROUPS_ON)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                       "unknown texture groups mode %d", (int)mode);
    batch->groups_mode = mode;
    return XGD_OK;
}

xgd_result xgd_sprite_batch_set_instancing(xgd_sprite_batch *batch, xgd_sprite_instancing mode)
{
    xgd_device *dev = NULL;
    RESOLVE_BATCH(batch, dev);
    if ((unsigned)mode > XGD_SPRITE_INSTANCING_ON)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                                       "unknown instancing mode %d", (int)mode);
    if (mode == XGD_SPRITE_INSTANCING_ON && batch->renderer != XGD_RENDERER_VULKAN &&
        batch->renderer != XGD_RENDERER_D3D12)
        return xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED,
                                       "this renderer draws sprites from vertices (it has no "
                                       "instanced quads)");
    if (mode == XGD_SPRITE_INSTANCING_ON && batch->reach)
        return xgd_device_report_error(dev, XGD_ERROR_NOT_SUPPORTED,
                                       "a Reach device draws sprites from vertices (Reach has no "
                                       "instancing)");
    batch->inst_mode = mode;
    /* a failure to make the program in AUTO turned instancing off for the batch; a new mode
       tries again (and ON reports the failure) */
    batch->inst_unavailable = batch->whole_unavailable = false;
    return XGD_OK;
}

/* The classes of the batch's internal programs: derived effects without state, so that a
 * batch made after another was destroyed reuses the destroyed one's loaded code and native
 * shaders (xgd_effect_create_derived), and with them the renderer's pipelines, which a plain
 * xgd_effect_create would make anew for every batch (a program that creates a batch a frame
 * would grow the pipeline cache a frame: conformance.*.Soak_ChurnReturnsToSteadyState). */
static const xgd_effect_class group_program_class = { "SpriteBatch texture-group program", 0, NULL };
static const xgd_effect_class inst_program_class = { "SpriteBatch instanced program", 0, NULL };
static const xgd_effect_class whole_program_class = { "SpriteBatch whole-texture instanced program",
                                                      0, NULL };

/* One of the batch's internal programs (spritebatch16, spriteinst, spritewhole), made once: its vertex
 * declaration (when *decl is NULL) from elements, the effect of class cls from its .xfx and
 * the effect's MatrixTransform parameter. XGD_OK with *fx set, or the failure, which the
 * device's error names (*fx stays NULL). */
static xgd_result make_program(xgd_device *dev, const xgd_vertex_element *elements, int count,
                               int stride, xgd_vertex_declaration **decl,
                               const xgd_effect_class *cls, const unsigned char *xfx,
                               size_t size, xgd_effect **fx, xgd_effect_parameter *matrix)
{
    xgd_result r = XGD_OK;
    if (*decl == NULL && (r = xgd_vertex_declaration_create(dev, elements, count, stride, decl)) != XGD_OK)
        return r;
    xgd_effect *made = NULL;
    if ((r = xgd_effect_create_derived(dev, xfx, size, cls, &made)) != XGD_OK) return r;
    if (xgd_effect_find_parameter(made, "MatrixTransform", matrix) != XGD_OK) {
        xgd_effect_destroy(made);
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_OPERATION,
                                       "a SpriteBatch program has no MatrixTransform parameter");
    }
    *fx = made;
    return XGD_OK;
}

/* Whether End may group this batch's sprites at all: SpriteBatch's own effect, more than one
 * texture, the mode, and the program and declaration made (once; a failure turns groups off
 * for the batch and clears the device's error, since the plain path draws the same). */
static bool groups_possible(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->effect != NULL || b->distinct < 2 || b->groups_unavailable ||
        b->groups_mode == XGD_SPRITE_TEXTURE_GROUPS_OFF)
        return false;
    if (b->groups_mode == XGD_SPRITE_TEXTURE_GROUPS_AUTO && b->renderer == XGD_RENDERER_SOFTWARE)
        return false;
    if (b->group_effect == NULL) {
        static const xgd_vertex_element elements[] = {
            { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
            { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
            { 16, XGD_VERTEX_FORMAT_VECTOR2, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
            { 24, XGD_VERTEX_FORMAT_SINGLE, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 1 },
        };
        if (b->group_slot == NULL) b->group_slot = malloc(MAX_SPRITES);
        if (b->groups == NULL) b->groups = malloc(sizeof *b->groups * MAX_GROUPS);
        xgd_device_quiet_begin(dev);
        const bool made = b->group_slot != NULL && b->groups != NULL &&
                          make_program(dev, elements, 4, (int)sizeof(group_vertex),
                                       &b->group_decl, &group_program_class,
                                       xgd_stock_xfx_spritebatch16,
                                       sizeof xgd_stock_xfx_spritebatch16, &b->group_effect,
                                       &b->group_matrix) == XGD_OK;
        (void)xgd_device_quiet_end(dev);
        if (!made) {
            b->groups_unavailable = true;
            return false;
        }
    }
    if (b->group_mark_capacity < b->distinct) {
        uint32_t cap = b->distinct_capacity;
        uint32_t *m = realloc(b->group_mark, sizeof *m * cap);
        if (m == NULL) return false; /* the plain path draws these */
        memset(m + b->group_mark_capacity, 0, sizeof *m * (cap - b->group_mark_capacity));
        b->group_mark = m;
        b->group_mark_capacity = cap;
    }
    return true;
}

/* Splits n sprites (order[0..n) when order is not NULL, else from first on) into groups of at
 * most GROUP_SLOTS distinct textures, consecutive in drawing order: a group ends where a
 * texture not among its 16 would come. Fills b->groups and b->group_slot; returns the number
 * of groups and sets *runs to the chunk's runs of equal textures. */
static uint32_t plan_groups(xgd_sprite_batch *b, const uint64_t *order, uint32_t first,
                            uint32_t n, uint32_t *runs)
{
    const sprite_quad *quads = order != NULL ? b->quads : b->quads + first;
    uint32_t *mark = b->group_mark;
    uint32_t group_count = 0, run_count = 0;
    sprite_group *g = NULL;
    uint32_t previous = UINT32_MAX, slot = 0;
    for (uint32_t i = 0; i < n; i++) {
        const uint32_t t = (order != NULL ? &quads[(uint32_t)order[i]] : &quads[i])->texture;
        if (t != previous) {
            run_count++;
            previous = t;
            if (g == NULL || mark[t] >> 4 != b->group_serial) {
                if (g == NULL || g->texture_count == GROUP_SLOTS) {
                    if (g != NULL) g->count = i - g->start;
                    if (++b->group_serial >= (1u << 28)) { /* marks of old serials could match */
                        memset(mark, 0, sizeof *mark * b->group_mark_capacity);
                        b->group_serial = 1;
                    }
                    g = &b->groups[group_count++];
                    g->start = i;
                    g->texture_count = 0;
                }
                slot = g->texture_count++;
                g->textures[slot] = t;
                mark[t] = b->group_serial << 4 | slot;
            } else {
                slot = mark[t] & 15u;
            }
        }
        b->group_slot[i] = (uint8_t)slot;
    }
    if (g != NULL) g->count = n - g->start;
    *runs = run_count;
    return group_count;
}

/* An unrotated queued sprite's texture coordinates (ua, va, ub, vb: corners 0 and 3). */
static ALWAYS_INLINE const float *quad_uvs(const xgd_sprite_batch *b, const sprite_quad *q)
{
    return (q->form & 3u) == QUAD_UV ? b->uvs[q->form >> 2] : uv_flip[q->form >> 2];
}

/* A queued sprite's four vertices (see sprite_quad), as expand_chunk writes them. */
static void quad_vertices(const xgd_sprite_batch *b, const sprite_quad *q, sprite_vertex v[4])
{
    if ((q->form & 3u) == QUAD_VERTICES)
        memcpy(v, &b->general[(size_t)(q->form >> 2) * 4], sizeof(sprite_vertex) * 4);
    else
        expand_rect(v, q, QUAD_UV_LOAD(quad_uvs(b, q)), false);
}

#if defined(__SSE2__)
/* An unrotated sprite's four group_vertex (28 bytes, x y z color u v slot) from its edges, z,
 * color, texture coordinates (ua, va, ub, vb: corners 0 and 3) and slot, the same values
 * quad_vertices and the slot give. Each vertex is two unaligned 16-byte stores: (x y z color)
 * and (u v slot slot), whose last lane the next vertex's first store overwrites; the last
 * vertex stores its three. */
static ALWAYS_INLINE void expand_group_rect(group_vertex *out, const sprite_quad *q, __m128 uv,
                                            float slot)
{
    const __m128 r = _mm_loadu_ps(&q->x0);                                  /* x0 y0 x1 y1 */
    const __m128 zt = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&q->z));
    const __m128 zc = _mm_movelh_ps(zt, zt);                                /* z c z c */
    const __m128 sv = _mm_set1_ps(slot);
    float *f = (float *)(void *)out;
    _mm_storeu_ps(f + 0, _mm_movelh_ps(r, zc));                             /* x0 y0 z c */
    _mm_storeu_ps(f + 4, _mm_shuffle_ps(uv, sv, _MM_SHUFFLE(0, 0, 1, 0)));  /* ua va s s */
    _mm_storeu_ps(f + 7, _mm_shuffle_ps(r, zc, _MM_SHUFFLE(1, 0, 1, 2)));   /* x1 y0 z c */
    _mm_storeu_ps(f + 11, _mm_shuffle_ps(uv, sv, _MM_SHUFFLE(0, 0, 1, 2))); /* ub va s s */
    _mm_storeu_ps(f + 14, _mm_shuffle_ps(r, zc, _MM_SHUFFLE(1, 0, 3, 0)));  /* x0 y1 z c */
    _mm_storeu_ps(f + 18, _mm_shuffle_ps(uv, sv, _MM_SHUFFLE(0, 0, 3, 0))); /* ua vb s s */
    _mm_storeu_ps(f + 21, _mm_shuffle_ps(r, zc, _MM_SHUFFLE(1, 0, 3, 2)));  /* x1 y1 z c */
    _mm_storel_pi((__m64 *)(void *)(f + 25), _mm_shuffle_ps(uv, uv, _MM_SHUFFLE(3, 2, 3, 2)));
    _mm_store_ss(f + 27, sv);                                               /* ub vb s */
}
#endif

/* Switches the device to spritebatch16 for draw_groups: the first time in an End, saves slots
 * 1..15 (textures and sampler states) and gives them the batch's sampler state; then applies
 * the program with the SpriteEffect's matrix. The apply binds the textures of its (unset)
 * texture parameters, so nothing bound before counts as bound. */
static xgd_result group_program(xgd_sprite_batch *b, xgd_device *dev, group_state *gs)
{
    xgd_result r;
    if (!gs->saved) {
        for (int k = 1; k < GROUP_SLOTS; k++) {
            (void)xgd_get_texture(dev, k, &gs->textures[k]);
            (void)xgd_get_sampler_state(dev, k, &gs->samplers[k]);
        }
        gs->saved = true;
        for (int k = 1; k < GROUP_SLOTS; k++)
            if ((r = xgd_set_sampler_state(dev, k, b->sampler)) != XGD_OK) return r;
    }
    if ((r = xgd_effect_parameter_set_matrix(b->group_effect, b->group_matrix, &b->projected)) !=
        XGD_OK)
        return r;
    if ((r = xgd_effect_apply(b->group_effect)) != XGD_OK) return r;
    gs->program = true;
    gs->inst = 0;
    memset(gs->bound, 0, sizeof gs->bound);
    return XGD_OK;
}

/* Draws the sprites planned into group_count groups (plan_groups), a draw each: the group's
 * textures in slots 0..texture_count-1 (slot 0 through the draw's run), each slot above that
 * keeping a texture an earlier group bound (or, in the first group, the group's slot-0
 * texture: every slot the program samples holds a texture that passed check_drawable), and
 * the group's vertices with their slots, written into a reservation of its size. */
static xgd_result draw_groups(xgd_sprite_batch *b, xgd_device *dev, const uint64_t *order,
                              uint32_t first, uint32_t group_count, group_state *gs)
{
    xgd_result r;
    if (!gs->program && (r = group_program(b, dev, gs)) != XGD_OK) return r;
    const sprite_quad *quads = order != NULL ? b->quads : b->quads + first;
    for (uint32_t k = 0; k < group_count; k++) {
        const sprite_group *g = &b->groups[k];
        xgd_texture *slot0 = b->distinct_textures[g->textures[0]];
        for (uint32_t s = 1; s < GROUP_SLOTS; s++) {
            xgd_texture *want = s < g->texture_count ? b->distinct_textures[g->textures[s]]
                                : gs->bound[s] != NULL ? gs->bound[s] : slot0;
            if (want != gs->bound[s]) {
                if ((r = xgd_set_texture(dev, (int)s, want)) != XGD_OK) return r;
                gs->bound[s] = want;
            }
        }
        xgd_quad_reservation space;
        if ((r = xgd_reserve_user_quads(dev, (int)g->count, b->group_decl, &space)) != XGD_OK)
            return r;
        group_vertex *out = space.vertices;
        for (uint32_t i = g->start; i < g->start + g->count; i++, out += 4) {
            const sprite_quad *q = order != NULL ? &quads[(uint32_t)order[i]] : &quads[i];
            const float slot = (float)b->group_slot[i];
#if defined(__SSE2__)
            if ((q->form & 3u) != QUAD_VERTICES) {
                expand_group_rect(out, q, _mm_loadu_ps(quad_uvs(b, q)), slot);
                continue;
            }
#endif
            sprite_vertex v[4];
            quad_vertices(b, q, v);
            for (int c = 0; c < 4; c++) {
                out[c].v = v[c];
                out[c].slot = slot;
            }
        }
        const xgd_quad_run run = { slot0, (int)g->count };
        if ((r = xgd_draw_reserved_quad_runs(dev, &space, &run, 1)) != XGD_OK) return r;
        gs->bound[0] = slot0;
    }
    return XGD_OK;
}

/* After the last chunk drawn by groups or instanced: what XNA's SpriteBatch leaves
 * (SpriteEffect applied, slot 0 the last sprite's texture; after a failure restore_states puts
 * slot 0 back) and, when groups saved them, slots 1..15 as they were. Putting back what was bound a moment ago cannot fail for live objects; should it, the
 * first failure is the result (a failure of the draw, r, stays the result and the message). */
static xgd_result end_groups(xgd_sprite_batch *b, xgd_device *dev, const group_state *gs,
                             xgd_texture *last, xgd_result r)
{
    if (r != XGD_OK) xgd_device_quiet_begin(dev);
    xgd_result e = XGD_OK;
    if (gs->program || gs->inst) {
        e = xgd_effect_apply(b->sprite_effect);
        if (e == XGD_OK && r == XGD_OK) e = xgd_set_texture(dev, 0, last);
    }
    for (int k = 1; k < GROUP_SLOTS && gs->saved; k++) {
        xgd_result t = xgd_set_texture(dev, k, gs->textures[k]);
        if (t == XGD_OK) t = xgd_set_sampler_state(dev, k, gs->samplers[k]);
        if (e == XGD_OK) e = t;
    }
    if (r != XGD_OK) {
        (void)xgd_device_quiet_end(dev);
        return r;
    }
    return e;
}

/* ---- instanced sprites -------------------------------------------------------------------- */

/* One sprite's element for spriteinst.fx (xgd_reserve_user_quad_instances): its edges, the
 * texture coordinates of corners 0 and 3, its layer depth and color, and 8 bytes the shader
 * does not read, so that an element is three whole 16-byte stores (non-temporal stores must
 * fill whole lines: elements that left those 8 bytes unwritten made End twice slower on the
 * H200). The shader selects each corner's values from these, so the vertices are the ones
 * expand_rect writes. */
typedef struct sprite_instance {
    float x0, y0, x1, y1;
    float ua, va, ub, vb;
    float z;
    xgd_color color;
    uint32_t unused[2];
} sprite_instance;

/* The instanced program End draws this batch's chunks with (unless it groups them), or -1 for
 * vertices. Instanced: SpriteBatch's own effect, a GPU renderer (the software renderer's quad
 * shapes want vertices) and a HiDef device (Reach has no instancing), no sprite queued as four
 * vertices (rotated, or an empty quad), the mode (xgd_sprite_batch_set_instancing), and
 * spriteinst's program and declaration made (once).
 * In AUTO a failure to make them turns instancing off for the batch and clears the device's
 * error, since the vertex path draws the same; in ON it stays the device's error and *r says
 * it (End's result). A batch none of whose sprites has a source rectangle (no uvs entry: every
 * entry QUAD_WHOLE) is drawn by spritewhole from its entries as they are, when that program
 * was made; a failure to make it turns it off for the batch in either mode and clears the
 * error, since spriteinst draws the same. */
/* spritewhole's program and declaration, made at first use; false (for the batch's life, the
 * device's error put back) when they cannot be made. */
static bool whole_program(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->inst[INST_WHOLE].effect != NULL) return true;
    if (b->whole_unavailable) return false;
    /* the entry: edges (x0, y0, x1, y1), z, color, texture (not read), form */
    static const xgd_vertex_element elements[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(sprite_quad, z), XGD_VERTEX_FORMAT_SINGLE, XGD_VERTEX_USAGE_POSITION, 1 },
        { offsetof(sprite_quad, color), XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
        { offsetof(sprite_quad, form), XGD_VERTEX_FORMAT_COLOR,
          XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    struct inst_program *w = &b->inst[INST_WHOLE];
    xgd_device_quiet_begin(dev);
    xgd_result made = make_program(dev, elements, 4, (int)sizeof(sprite_quad), &w->decl,
                                   &whole_program_class, xgd_stock_xfx_spritewhole,
                                   sizeof xgd_stock_xfx_spritewhole, &w->effect, &w->matrix);
    (void)xgd_device_quiet_end(dev);
    if (made == XGD_OK) return true;
    b->whole_unavailable = true;
    return false;
}

/* Whether the batch's instancing settings let End draw instanced at all (instances_possible's
 * first test, without the queue's contents). */
static bool instancing_allowed(const xgd_sprite_batch *b)
{
    return b->effect == NULL && b->inst_mode != XGD_SPRITE_INSTANCING_OFF &&
           !b->inst_unavailable && !b->reach &&
           (b->renderer == XGD_RENDERER_VULKAN || b->renderer == XGD_RENDERER_D3D12);
}

/* spriteinst's program and declaration (sprite_instance), made when not yet made. */
static xgd_result element_program(xgd_sprite_batch *b, xgd_device *dev)
{
    struct inst_program *e = &b->inst[INST_ELEMENT];
    if (e->effect != NULL) return XGD_OK;
    static const xgd_vertex_element elements[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_POSITION, 0 },
        { 16, XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
        { 32, XGD_VERTEX_FORMAT_SINGLE, XGD_VERTEX_USAGE_POSITION, 1 },
        { 36, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
    };
    return make_program(dev, elements, 4, (int)sizeof(sprite_instance), &e->decl,
                        &inst_program_class, xgd_stock_xfx_spriteinst,
                        sizeof xgd_stock_xfx_spriteinst, &e->effect, &e->matrix);
}

/* spriteinst's program with sheet_decl (sheet chunks' entries: sheet_element), made at first
 * use; false (for the batch's life, the device's error put back) when they cannot be made. */
static bool sheet_program(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->sheet_decl != NULL && b->inst[INST_ELEMENT].effect != NULL) return true;
    if (b->sheet_unavailable) return false;
    static const xgd_vertex_element elements[] = {
        { offsetof(sheet_element, q), XGD_VERTEX_FORMAT_VECTOR4, XGD_VERTEX_USAGE_POSITION, 0 },
        { offsetof(sheet_element, q.z), XGD_VERTEX_FORMAT_SINGLE, XGD_VERTEX_USAGE_POSITION, 1 },
        { offsetof(sheet_element, q.color), XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
        { offsetof(sheet_element, uv), XGD_VERTEX_FORMAT_VECTOR4,
          XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0 },
    };
    xgd_device_quiet_begin(dev);
    xgd_result made = element_program(b, dev);
    if (made == XGD_OK && b->sheet_decl == NULL)
        made = xgd_vertex_declaration_create(dev, elements, 4, (int)sizeof(sheet_element),
                                             &b->sheet_decl);
    (void)xgd_device_quiet_end(dev);
    if (made == XGD_OK) return true;
    b->sheet_unavailable = true;
    return false;
}

static int instances_possible(xgd_sprite_batch *b, xgd_device *dev, xgd_result *r)
{
    *r = XGD_OK;
    if (b->general_count != 0 || !instancing_allowed(b)) return -1;
    if (b->uv_count == 0 && whole_program(b, dev)) return INST_WHOLE;
    struct inst_program *e = &b->inst[INST_ELEMENT];
    if (e->effect == NULL) {
        xgd_device_quiet_begin(dev);
        xgd_result made = element_program(b, dev);
        const char *why = xgd_device_quiet_end(dev);
        if (made != XGD_OK) {
            if (b->inst_mode == XGD_SPRITE_INSTANCING_ON) {
                *r = xgd_device_report_error(dev, made, "%s", why);
                return -1;
            }
            b->inst_unavailable = true;
            return -1;
        }
    }
    return INST_ELEMENT;
}

/* Three 16-byte pieces of an element: non-temporal where stream (16-byte aligned), else plain
 * unaligned stores. */
static ALWAYS_INLINE void store_instance(sprite_instance *out, const sprite_quad *q,
                                        const float *uv, bool stream)
{
#if defined(__SSE2__)
    float *f = (float *)(void *)out;
    const __m128 zc = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&q->z));
    store4(f + 0, _mm_loadu_ps(&q->x0), stream);
    store4(f + 4, _mm_loadu_ps(uv), stream);
    store4(f + 8, zc, stream);
#else
    (void)stream;
    sprite_instance e = { q->x0, q->y0, q->x1, q->y1, uv[0], uv[1], uv[2], uv[3],
                          q->z, q->color, { 0, 0 } };
    memcpy(out, &e, sizeof e);
#endif
}

/* A whole-texture sprite's element for spritewhole.fx: its queue entry as it is, two 16-byte
 * pieces stored as store_instance stores them. */
static ALWAYS_INLINE void store_whole(sprite_quad *out, const sprite_quad *q, bool stream)
{
#if defined(__SSE2__)
    float *f = (float *)(void *)out;
    store4(f + 0, _mm_loadu_ps(&q->x0), stream);
    store4(f + 4, _mm_loadu_ps(&q->z), stream);
#else
    (void)stream;
    memcpy(out, q, sizeof *q);
#endif
}

/* The elements of n queued sprites (order[0..n) when order is not NULL, else from first on;
 * none QUAD_VERTICES; all QUAD_WHOLE when whole) into dst, program's (spritewhole: the entries
 * themselves; spriteinst: sprite_instance), and their runs into b->runs; returns the number of
 * runs. */
static ALWAYS_INLINE int expand_instances(xgd_sprite_batch *b, void *dst, const uint64_t *order,
                                          uint32_t first, uint32_t n, bool stream, bool whole)
{
    const sprite_quad *quads = order != NULL ? b->quads : b->quads + first;
    int run_count = 0;
    uint32_t run_texture = (order != NULL ? &quads[(uint32_t)order[0]] : quads)->texture;
    uint32_t run_start = 0;
    for (uint32_t i = 0; i < n; i++) {
        const sprite_quad *q = order != NULL ? &quads[(uint32_t)order[i]] : &quads[i];
        if (q->texture != run_texture) {
            b->runs[run_count].texture = b->distinct_textures[run_texture];
            b->runs[run_count].quad_count = (int)(i - run_start);
            run_count++;
            run_texture = q->texture;
            run_start = i;
        }
        if (whole) store_whole((sprite_quad *)dst + i, q, stream);
        else store_instance((sprite_instance *)dst + i, q, quad_uvs(b, q), stream);
    }
    b->runs[run_count].texture = b->distinct_textures[run_texture];
    b->runs[run_count].quad_count = (int)(n - run_start);
    return run_count + 1;
}

/* A chunk's elements (as expand_instances) for program, a constant where it is inlined. */
static ALWAYS_INLINE int expand_chunk_instances(xgd_sprite_batch *b, void *dst,
                                                const uint64_t *order, uint32_t first,
                                                uint32_t n, bool stream, bool whole)
{
    return order != NULL ? expand_instances(b, dst, order, 0, n, stream, whole)
                         : expand_instances(b, dst, NULL, first, n, stream, whole);
}

/* b->inst[program] applied with the SpriteEffect's matrix, unless it is what End applied last
 * (the apply binds its unset texture, and each run sets slot 0). */
static xgd_result apply_instanced(xgd_sprite_batch *b, int program, group_state *gs)
{
    if (gs->inst == program + 1) return XGD_OK;
    const struct inst_program *p = &b->inst[program];
    xgd_result r = xgd_effect_parameter_set_matrix(p->effect, p->matrix, &b->projected);
    if (r == XGD_OK) r = xgd_effect_apply(p->effect);
    if (r != XGD_OK) return r;
    gs->inst = program + 1;
    gs->program = false;
    return XGD_OK;
}

/* A chunk of n sprites drawn instanced by b->inst[program] (instances_possible): the program
 * applied with the SpriteEffect's matrix (the first time in an End; the apply binds its unset
 * texture, and each run sets slot 0), the elements written into a reservation, a draw a run. */
static xgd_result draw_instances(xgd_sprite_batch *b, xgd_device *dev, int program,
                                 const uint64_t *order, uint32_t first, uint32_t n,
                                 group_state *gs)
{
    xgd_result r = apply_instanced(b, program, gs);
    if (r != XGD_OK) return r;
    const struct inst_program *p = &b->inst[program];
    xgd_quad_reservation space;
    if ((r = xgd_reserve_user_quad_instances(dev, (int)n, p->decl, &space)) != XGD_OK) return r;
    void *dst = space.vertices;
    const bool whole = program == INST_WHOLE;
    int run_count;
#if defined(__SSE2__)
    if (space.stream_stores && ((uintptr_t)dst & 15u) == 0) {
        run_count = whole ? expand_chunk_instances(b, dst, order, first, n, true, true)
                          : expand_chunk_instances(b, dst, order, first, n, true, false);
        _mm_sfence();
    } else
#endif
    run_count = whole ? expand_chunk_instances(b, dst, order, first, n, false, true)
                      : expand_chunk_instances(b, dst, order, first, n, false, false);
    return xgd_draw_reserved_quad_runs(dev, &space, b->runs, run_count);
}

/* Whether a chunk of run_count runs in group_count groups is drawn by groups. */
static bool group_chunk(const xgd_sprite_batch *b, uint32_t run_count, uint32_t group_count)
{
    if (b->groups_mode == XGD_SPRITE_TEXTURE_GROUPS_ON) return run_count > 1;
    const uint32_t min_runs =
        b->renderer == XGD_RENDERER_VULKAN ? GROUP_MIN_RUNS_VULKAN : GROUP_MIN_RUNS_D3D12;
    return run_count >= min_runs * group_count;
}

/* The queue (in order's order when order is not NULL) in chunks of at most MAX_SPRITES
 * sprites, each drawn with one xgd_draw_reserved_quad_runs: a run per stretch of equal
 * textures, so a texture change costs the renderer's draw, not a public draw call and its
 * checks. Each chunk's vertices are made straight into the device's upload memory, in the
 * pass that finds its runs, with non-temporal stores where only the GPU reads that memory
 * (then one store fence before the draw). The custom effect is applied once per chunk, before its runs set
 * Textures[0], as XNA applies it before setting each run's texture (nothing between the runs
 * changes what it applies). A chunk that group_chunk picks is drawn by draw_groups instead
 * (SpriteBatch's own effect only); gs records what that changed, for end_groups. Unsorted, the
 * queue's part from entry start on (the entries before it were direct: draw_held). */
static xgd_result draw_sprites(xgd_sprite_batch *b, xgd_device *dev, const uint64_t *order,
                               uint32_t start, uint32_t count, group_state *gs)
{
    xgd_vertex_declaration *decl =
        xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    if (count <= start) return XGD_OK;
    if (b->runs == NULL) {
        b->runs = malloc(sizeof *b->runs * MAX_SPRITES);
        if (b->runs == NULL)
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory drawing sprites");
    }
    const bool groups = count - start > 1 && groups_possible(b, dev);
    xgd_result made = XGD_OK;
    const int inst = instances_possible(b, dev, &made);
    if (made != XGD_OK) return made;
    uint32_t first = start;
    while (first < count) {
        uint32_t n = count - first < MAX_SPRITES ? count - first : MAX_SPRITES;
        xgd_result r;
        if (groups) {
            uint32_t run_count;
            const uint32_t group_count =
                plan_groups(b, order != NULL ? &order[first] : NULL, first, n, &run_count);
            if (group_chunk(b, run_count, group_count)) {
                r = draw_groups(b, dev, order != NULL ? &order[first] : NULL, first, group_count,
                                gs);
                if (r != XGD_OK) return r;
                first += n;
                continue;
            }
        }
        if (inst >= 0) {
            r = draw_instances(b, dev, inst, order != NULL ? &order[first] : NULL, first, n, gs);
            if (r != XGD_OK) return r;
            first += n;
            continue;
        }
        if (gs->program || gs->inst) {
            if ((r = xgd_effect_apply(b->sprite_effect)) != XGD_OK) return r;
            gs->program = false;
            gs->inst = 0;
        }
        if (b->effect != NULL) {
            if (!xgd_resource_is_live(dev, b->effect))
                return xgd_device_report_error(dev, XGD_ERROR_OBJECT_DISPOSED,
                                               "the effect given to Begin was destroyed");
            if ((r = xgd_effect_apply(b->effect)) != XGD_OK) return r;
        }
        xgd_quad_reservation space;
        if ((r = xgd_reserve_user_quads(dev, (int)n, decl, &space)) != XGD_OK) return r;
        int run_count;
#if defined(__SSE2__)
        if (space.stream_stores && ((uintptr_t)space.vertices & 15u) == 0) {
            run_count = order != NULL ? expand_chunk(b, space.vertices, &order[first], 0, n, true)
                                      : expand_chunk(b, space.vertices, NULL, first, n, true);
            _mm_sfence();
        } else
#endif
        run_count = order != NULL ? expand_chunk(b, space.vertices, &order[first], 0, n, false)
                                  : expand_chunk(b, space.vertices, NULL, first, n, false);
        r = xgd_draw_reserved_quad_runs(dev, &space, b->runs, run_count);
        if (r != XGD_OK) return r;
        first += n;
    }
    return XGD_OK;
}

/* ---- Draw ---------------------------------------------------------------------------------- */

static bool grow(void **p, size_t elem, uint32_t capacity)
{
    void *q = realloc(*p, elem * capacity);
    if (q == NULL) return false;
    *p = q;
    return true;
}

static xgd_result reserve(xgd_sprite_batch *b, xgd_device *dev, uint32_t need)
{
    if (need <= b->capacity) return XGD_OK;
    uint32_t cap = b->capacity != 0 ? b->capacity : 256;
    while (cap < need) {
        if (cap > UINT32_MAX / 8) return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "too many sprites");
        cap *= 2;
    }
    if (!grow((void **)&b->quads, sizeof(sprite_quad), cap))
        return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory queuing sprites");
    b->capacity = cap;
    if (!b->direct) {
        b->write_at = (uintptr_t)b->quads;
        b->room = cap;
    }
    return XGD_OK;
}

/* ---- direct batches (struct xgd_sprite_batch's direct fields) ------------------------------ */

static xgd_result reserve_uvs(xgd_sprite_batch *b, xgd_device *dev, uint32_t need);

/* Draw goes on in the queue, from the next entry: the direct entries stay where they are (the
 * held sheet chunks keep their uvs entries until End or held_ended). */
static void seal(xgd_sprite_batch *b)
{
    if (b->direct) b->direct_n = b->count;
    b->direct = false;
    b->direct_ok = false;
    b->sheet = false;
    b->sheet_room = 0;
    b->write_at = (uintptr_t)b->quads;
    b->room = b->capacity;
    if (b->run_room != 0 || b->run_handle != NULL) b->run_room = b->room;
}

/* The run Draw's next entries take (direct): a run from entry count on, unless the last one
 * has the same texture; one that no entry took yet is replaced. More than DIRECT_RUNS runs
 * seal the batch. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void note_run(xgd_sprite_batch *b, uint32_t ordinal)
{
    uint32_t n = b->direct_run_count;
    if (n > 0 && b->direct_runs[n - 1].start == b->count) {
        if (n > 1 && b->direct_runs[n - 2].ordinal == ordinal) b->direct_run_count = n - 1;
        else b->direct_runs[n - 1].ordinal = ordinal;
        return;
    }
    if (n > 0 && b->direct_runs[n - 1].ordinal == ordinal) return;
    if (n == DIRECT_RUNS) {
        seal(b);
        return;
    }
    b->direct_runs[n] = (struct direct_run){ b->count, ordinal };
    b->direct_run_count = n + 1;
}

/* Draw's limit for the run (run_room): the open chunk's end while direct; while watching, the
 * entry at which the run has DIRECT_START entries (Draw then takes draw_general, which goes
 * direct); else the queue's capacity. */
static inline uint32_t run_limit(const xgd_sprite_batch *b)
{
    if (b->direct_ok && !b->direct && b->run_first + DIRECT_START < b->room)
        return b->run_first + DIRECT_START;
    return b->room;
}

/* A run switch of a batch that may go direct (switch_run, draw_general), after the run's fields
 * changed: direct, the run is noted; watching, the run's count starts again, and a run that
 * fell short counts as a miss. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void direct_switch(xgd_sprite_batch *b, uint32_t ordinal)
{
    if (b->direct) {
        note_run(b, ordinal);
    } else if (b->count > b->run_first && b->count - b->run_first < DIRECT_START &&
               ++b->direct_misses >= DIRECT_MISSES) {
        b->direct_ok = false;
    } else {
        b->run_first = b->count;
    }
    if (b->run_room != 0) b->run_room = run_limit(b);
}

/* The texture ordinal of direct entry i. */
static uint32_t direct_ordinal(const xgd_sprite_batch *b, uint32_t i)
{
    uint32_t k = b->direct_run_count;
    while (k > 1 && b->direct_runs[k - 1].start > i) k--;
    return b->direct_runs[k - 1].ordinal;
}

/* The entry after held chunk k's last one, given `end`, the entry after the last direct one:
 * where its quads end, where the next chunk starts (a change of kind opens one before the last
 * is full), or end, whichever comes first. */
static uint32_t chunk_stop(const xgd_sprite_batch *b, uint32_t k, uint32_t end)
{
    const struct held_chunk *c = &b->held[k];
    uint32_t stop = c->first + (uint32_t)c->res.quad_count;
    if (k + 1 < b->held_count && b->held[k + 1].first < stop) stop = b->held[k + 1].first;
    return stop < end ? stop : end;
}

/* The device ends the held chunks (a submission before End drew them; xgd.h
 * xgd_hold_user_quad_instances): the entries of those End has not drawn go into the queue at
 * their places (the queue has room for them), and the batch goes on there. Called once per
 * chunk; the first call moves them all. Makes no xgd call. */
static void held_ended(void *user, uint64_t id)
{
    (void)id;
    xgd_sprite_batch *b = user;
    if (b->held_drawn == b->held_count) return;
    const uint32_t end = b->direct ? b->count : b->direct_n;
    const uint32_t from = b->held[b->held_drawn].first;
    for (uint32_t k = b->held_drawn; k < b->held_count; k++) {
        const struct held_chunk *c = &b->held[k];
        const uint32_t stop = chunk_stop(b, k, end);
        if (stop <= c->first) continue;
        if (!c->sheet) {
            memcpy(&b->quads[c->first], c->res.vertices, (size_t)(stop - c->first) * sizeof(sprite_quad));
            continue;
        }
        /* a sheet chunk's entries take the uvs entries kept for them */
        const sheet_element *e = c->res.vertices;
        for (uint32_t i = c->first; i < stop; i++, e++) {
            const uint32_t n = b->uv_count++;
            b->quads[i] = e->q;
            b->quads[i].form = n << 2 | QUAD_UV;
            memcpy(b->uvs[n], e->uv, sizeof e->uv);
        }
    }
    seal(b);
    b->direct_n = from < end ? from : end;
    b->held_count = b->held_drawn;
    b->sheet_pending = 0;
    b->uv_limit = b->uv_capacity;
}

/* A held chunk for Draw's entries from entry count on (Draw's next entry is a whole-texture
 * candidate): the first an eighth of the last End's batch (HOLD_MIN to HOLD_MAX quads: a
 * million sprites take eight chunks, and a small batch after a large one on the same object
 * takes an eighth of the ring space it would as large), each next one twice its predecessor
 * up to HOLD_MAX. The queue first makes room for its entries.
 * A sheet chunk (sheet: Draw's next entry is a cell, see the struct's sheet fields) has uvs keep
 * an entry for each of its entries too.
 * False: the batch goes on in its queue (sealed), and the device's error is as it was: the
 * chunk's failure is no error of the Draw, which queues the entry instead. */
static bool open_chunk(xgd_sprite_batch *b, xgd_device *dev, bool sheet)
{
    const uint32_t i = b->count;
    if (b->held_count == XGD_QUAD_HOLDS_MAX ||
        !(sheet ? sheet_program(b, dev) : whole_program(b, dev))) {
        seal(b);
        return false;
    }
    const uint32_t eighth = b->last_count / 8;
    uint32_t n = eighth < HOLD_MIN ? HOLD_MIN : eighth > HOLD_MAX ? HOLD_MAX : eighth;
    /* a chunk of the last one's kind: twice its size; the first of a kind, as the first */
    const bool same_kind = b->held_count > 0 && b->held[b->held_count - 1].sheet == sheet;
    if (same_kind) {
        const uint32_t prev = (uint32_t)b->held[b->held_count - 1].res.quad_count;
        n = prev >= HOLD_MAX / 2 ? HOLD_MAX : 2 * prev;
    }
    if (i > UINT32_MAX / 2 - n) {
        seal(b);
        return false;
    }
    xgd_quad_reservation res;
    xgd_device_quiet_begin(dev);
    xgd_result r = reserve(b, dev, i + n);
    /* uvs' room for Draw's next entry, and for this chunk's (kept once it is held) */
    if (r == XGD_OK && sheet) r = reserve_uvs(b, dev, b->uv_count + 1 + n);
    if (r == XGD_OK)
        r = xgd_hold_user_quad_instances(dev, (int)n,
                                         sheet ? b->sheet_decl : b->inst[INST_WHOLE].decl,
                                         held_ended, b, &res);
    /* a hold whose making submitted (a full upload ring) ended the batch's other chunks:
       held_ended sealed it */
    if (r == XGD_OK && !b->direct_ok) (void)xgd_release_quad_hold(dev, &res);
    (void)xgd_device_quiet_end(dev);
    if (r != XGD_OK || !b->direct_ok) {
        seal(b);
        return false;
    }
    if (b->held_count == 0) {
        b->direct_first = i;
        b->direct_run_count = 0;
    }
    b->held[b->held_count++] = (struct held_chunk){ res, i, sheet };
    if (!same_kind) b->kind_first = i;
    b->direct = true;
    b->sheet = sheet;
    if (sheet) {
        b->sheet_pending += n;
        b->uv_limit = b->uv_capacity - b->sheet_pending;
        b->sheet_write_at = (uintptr_t)res.vertices - (uintptr_t)i * sizeof(sheet_element);
        b->sheet_room = i + n;
        b->write_at = (uintptr_t)b->quads;
        b->room = 0;
    } else {
        b->sheet_room = 0;
        b->write_at = (uintptr_t)res.vertices - (uintptr_t)i * sizeof(sprite_quad);
        b->room = i + n;
    }
    return true;
}

/* Gives back the chunks End did not draw and ends the batch's direct state. */
static void release_held(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->held_count > b->held_drawn) {
        /* a chunk the device ended is no longer held: its refusal is no error */
        xgd_device_quiet_begin(dev);
        for (uint32_t k = b->held_drawn; k < b->held_count; k++)
            (void)xgd_release_quad_hold(dev, &b->held[k].res);
        (void)xgd_device_quiet_end(dev);
    }
    b->held_count = b->held_drawn = 0;
    b->direct = b->direct_ok = false;
    b->sheet = false;
    b->sheet_room = 0;
    b->sheet_pending = 0;
    b->uv_limit = b->uv_capacity;
    b->direct_first = b->direct_n = 0;
    b->run_first = b->direct_misses = 0;
    b->direct_run_count = 0;
    b->write_at = (uintptr_t)b->quads;
    b->room = b->capacity;
}

/* Room in uvs for `need` entries besides those kept for the held sheet chunks' elements
 * (uv_limit >= need); a failure leaves uvs as it was. */
static xgd_result reserve_uvs(xgd_sprite_batch *b, xgd_device *dev, uint32_t need)
{
    if (need > UINT32_MAX / 8 - b->sheet_pending)
        return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "too many sprites");
    const uint32_t total = need + b->sheet_pending;
    if (total > b->uv_capacity) {
        uint32_t cap = b->uv_capacity != 0 ? b->uv_capacity : 16;
        while (cap < total) cap *= 2;
        if (!grow((void **)&b->uvs, sizeof *b->uvs, cap))
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory queuing sprites");
        b->uv_capacity = cap;
    }
    b->uv_limit = b->uv_capacity - b->sheet_pending;
    return XGD_OK;
}

/* One free entry in uvs and in general (a form's index has 30 bits: capacities stay below). */
static xgd_result reserve_side(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->uv_count >= b->uv_limit) {
        xgd_result r = reserve_uvs(b, dev, b->uv_count + 1);
        if (r != XGD_OK) return r;
    }
    if (b->general_count == b->general_capacity) {
        if (b->general_capacity > UINT32_MAX / 8)
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "too many sprites");
        uint32_t cap = b->general_capacity != 0 ? b->general_capacity * 2 : 16;
        if (!grow((void **)&b->general, sizeof(sprite_vertex) * 4, cap))
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory queuing sprites");
        b->general_capacity = cap;
    }
    return XGD_OK;
}

/* The batch ordinal of a live texture (its handle), adding it on first sight. Grows before it
 * inserts, so a failure leaves the table as it was. */
static xgd_result add_texture(xgd_sprite_batch *b, xgd_device *dev, xgd_texture *t,
                              uint32_t *ordinal)
{
    if (b->table_capacity != 0) {
        uint32_t h = table_find(b, t);
        if (b->table[h].ordinal_plus1 != 0) {
            *ordinal = b->table[h].ordinal_plus1 - 1;
            return XGD_OK;
        }
    }
    if (b->distinct == b->distinct_capacity) {
        if (b->distinct_capacity > UINT32_MAX / 8)
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "too many textures");
        uint32_t cap = b->distinct_capacity != 0 ? b->distinct_capacity * 2 : 16;
        if (!grow((void **)&b->distinct_textures, sizeof(xgd_texture *), cap) ||
            !grow((void **)&b->distinct_buckets, sizeof(uint32_t), cap))
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory queuing sprites");
        b->distinct_capacity = cap;
    }
    /* Load factor at most 1/2; a bigger table is refilled from the distinct list. */
    if ((uint64_t)(b->distinct + 1) * 2 > b->table_capacity) {
        uint32_t cap = b->table_capacity != 0 ? b->table_capacity * 2 : 32;
        texture_slot *table = calloc(cap, sizeof *table);
        if (table == NULL) return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory queuing sprites");
        free(b->table);
        b->table = table;
        b->table_capacity = cap;
        for (uint32_t i = 0; i < b->distinct; i++) {
            uint32_t h = table_find(b, b->distinct_textures[i]);
            b->table[h].handle = b->distinct_textures[i];
            b->table[h].ordinal_plus1 = i + 1;
            b->distinct_buckets[i] = h;
        }
    }
    uint32_t h = table_find(b, t);
    uint32_t n = b->distinct++;
    b->table[h].handle = t;
    b->table[h].ordinal_plus1 = n + 1;
    b->distinct_textures[n] = t;
    b->distinct_buckets[n] = h;
    *ordinal = n;
    return XGD_OK;
}

/* x - x is +0 for a finite x and NaN for an infinity or a NaN, and a NaN survives the sum:
 * one subtraction and one addition per value instead of a classification each. */
static inline bool finite4(float a, float b, float c, float d)
{
    return (a - a) + (b - b) + (c - c) + (d - d) == 0.0f;
}

/* XNA's corner math (see the file comment), written straight into the queue. tw x th is the
 * texture's size. An unrotated sprite (the common case) skips sin/cos and the rotation: with
 * cos 1 and sin 0 the general formula gives the same values (up to the sign of a zero). */
static void build_vertices(sprite_vertex *out, int tw, int th, const xgd_sprite *s)
{
    /* The common case, without branches on its values: the whole texture (u and v span
     * exactly 0..1, flipped by effects), placed by position, origin and scale, unrotated.
     * The arithmetic is the general case's below with gw x gh = tw x th, so both give the
     * same bits. */
    if (s->source == NULL && s->destination == NULL && s->rotation == 0.0f) {
        const float sx = s->scale.x, sy = s->scale.y, ox = s->origin.x, oy = s->origin.y;
        float x0 = s->position.x + -ox * sx, x1 = s->position.x + ((float)tw - ox) * sx;
        float y0 = s->position.y + -oy * sy, y1 = s->position.y + ((float)th - oy) * sy;
        if (!finite4(x0, x1, y0, y1)) x0 = x1 = y0 = y1 = 0.0f;
        const unsigned flip = (unsigned)s->effects;
        const float ua = (float)(flip & 1u), ub = 1.0f - ua;
        const float va = (float)(flip >> 1 & 1u), vb = 1.0f - va;
        const float z = s->layer_depth;
        const xgd_color color = s->color;
        out[0] = (sprite_vertex){ { x0, y0, z }, color, { ua, va } };
        out[1] = (sprite_vertex){ { x1, y0, z }, color, { ub, va } };
        out[2] = (sprite_vertex){ { x0, y1, z }, color, { ua, vb } };
        out[3] = (sprite_vertex){ { x1, y1, z }, color, { ub, vb } };
        return;
    }
    float sw = (float)tw, sh = (float)th;
    /* Without a source rectangle the whole texture: u and v span exactly 0..1. */
    float u0 = 0.0f, v0 = 0.0f, u1 = 1.0f, v1 = 1.0f;
    if (s->source != NULL) {
        float sx = (float)s->source->x, sy = (float)s->source->y;
        sw = (float)s->source->width;
        sh = (float)s->source->height;
        u0 = sx / (float)tw;
        v0 = sy / (float)th;
        u1 = (sx + sw) / (float)tw;
        v1 = (sy + sh) / (float)th;
    }
    /* Geometry uses gw x gh as the source size. A destination rectangle over a zero-size
     * source: XNA spreads the destination over a zero-wide texture span (every pixel shows the
     * source's corner) and multiplies the origin by 2e32 in place of dividing by zero. */
    float px, py, scale_x, scale_y, gw = sw, gh = sh, ox = s->origin.x, oy = s->origin.y;
    if (s->destination != NULL) {
        px = (float)s->destination->x;
        py = (float)s->destination->y;
        if (sw == 0.0f) { gw = 1.0f; ox *= 2e32f; }
        if (sh == 0.0f) { gh = 1.0f; oy *= 2e32f; }
        scale_x = (float)s->destination->width / gw;
        scale_y = (float)s->destination->height / gh;
    } else {
        px = s->position.x;
        py = s->position.y;
        scale_x = s->scale.x;
        scale_y = s->scale.y;
    }
    /* corner i's offset from the position before rotation: (lx[i & 1], ly[i >> 1]) */
    const float lx0 = -ox * scale_x, lx1 = (gw - ox) * scale_x;
    const float ly0 = -oy * scale_y, ly1 = (gh - oy) * scale_y;
    /* SpriteEffects: corner i takes the texture coordinate of corner i ^ effects. */
    const unsigned flip = (unsigned)s->effects;
    const float ua = (flip & 1u) ? u1 : u0, ub = (flip & 1u) ? u0 : u1;
    const float va = (flip & 2u) ? v1 : v0, vb = (flip & 2u) ? v0 : v1;
    const float z = s->layer_depth;
    /* A corner beyond float range (the 2e32 origin above) lies outside every viewport: the
     * sprite becomes an empty quad rather than handing infinities to the renderer. */
    float x[4], y[4];
    if (s->rotation == 0.0f) {
        x[0] = x[2] = px + lx0;
        x[1] = x[3] = px + lx1;
        y[0] = y[1] = py + ly0;
        y[2] = y[3] = py + ly1;
        if (!finite4(x[0], x[1], y[0], y[2]))
            x[0] = x[1] = x[2] = x[3] = y[0] = y[1] = y[2] = y[3] = 0.0f;
    } else {
        const float c = cosf(s->rotation), sn = sinf(s->rotation);
        const float lx[2] = { lx0, lx1 }, ly[2] = { ly0, ly1 };
        for (unsigned i = 0; i < 4; i++) {
            x[i] = px + lx[i & 1u] * c - ly[i >> 1] * sn;
            y[i] = py + lx[i & 1u] * sn + ly[i >> 1] * c;
        }
        if (!finite4(x[0], x[1], x[2], x[3]) || !finite4(y[0], y[1], y[2], y[3]))
            x[0] = x[1] = x[2] = x[3] = y[0] = y[1] = y[2] = y[3] = 0.0f;
    }
    const xgd_color color = s->color;
    out[0] = (sprite_vertex){ { x[0], y[0], z }, color, { ua, va } };
    out[1] = (sprite_vertex){ { x[1], y[1], z }, color, { ub, va } };
    out[2] = (sprite_vertex){ { x[2], y[2], z }, color, { ua, vb } };
    out[3] = (sprite_vertex){ { x[3], y[3], z }, color, { ub, vb } };
}

static ALWAYS_INLINE bool queue_unrotated(xgd_sprite_batch *b, sprite_quad *q,
                                          const float corner[4], uint32_t ordinal,
                                          const xgd_sprite *s);
static bool queue_sheet(xgd_sprite_batch *b, uint32_t i, const xgd_sprite *s);

/* Draw with every check in XNA's order, for every case: Immediate mode, a texture other than
 * the last sprite's, a full queue, and every call that fails. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_general(xgd_sprite_batch *batch, xgd_device *dev, xgd_texture *texture,
                               const xgd_sprite *sprite)
{
    /* A live object of the batch's device (the typed check names what else it is). The
       texture of the previous sprite passed the checks below, and nothing they test changes
       while its handle names the same live object. */
    xgd_result r;
    if (texture != NULL && !xgd_resource_is_live(dev, texture) &&
        (r = xgd_resource_check(dev, texture, XGD_RESOURCE_TEXTURE, "texture")) != XGD_OK)
        return r;
    const bool same_run = texture == batch->run_handle;
    int tw = batch->run_width, th = batch->run_height;
    if (!batch->in_begin)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_OPERATION,
                         "Begin must be called successfully before a Draw can be called");
    if (texture == NULL)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "texture is NULL");
    /* The texture of the previous sprite, and every texture in the memo, passed these checks
       in this batch, and nothing they test changes while its handle names the same live
       object (checked above). */
    struct texture_memo *memo =
        same_run ? NULL : &batch->memo[((uintptr_t)texture >> 1) & (TEXTURE_MEMO - 1)];
    if (!same_run && memo->handle != texture) {
        xgd_texture_info info;
        r = xgd_texture_get_info(texture, &info);
        if (r != XGD_OK) {
            /* another kind of object: named again on the batch's device */
            xgd_result named = xgd_resource_check(dev, texture, XGD_RESOURCE_TEXTURE, "texture");
            return named != XGD_OK ? named : r;
        }
        if (info.kind != XGD_TEXTURE_2D && info.kind != XGD_RENDER_TARGET_2D)
            return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT,
                             "SpriteBatch draws 2D textures only");
        tw = info.width;
        th = info.height;
    } else if (!same_run) {
        tw = memo->width;
        th = memo->height;
    }
    if (sprite == NULL) return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "sprite is NULL");
    if (!finite4(sprite->position.x, sprite->position.y, sprite->origin.x, sprite->origin.y) ||
        !finite4(sprite->scale.x, sprite->scale.y, sprite->rotation, sprite->layer_depth))
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "sprite has non-finite values");
    if (((unsigned)sprite->effects & ~3u) != 0)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_ARGUMENT, "unknown sprite effects 0x%x",
                         (unsigned)sprite->effects);

    if (batch->sort_mode == XGD_SPRITE_SORT_IMMEDIATE) {
        r = xgd_device_check_status(dev);
        if (r != XGD_OK) return r;
        /* Sprite coordinates are pixels of the viewport of each draw: a viewport resized
           after Begin gets its own projection (XNA kept Begin's, which scales the sprites and
           misplaces its -0.5 against the rasterizer's half pixel). Only then is the stock
           SpriteEffect applied again, so other state set after Begin stays in force. */
        xgd_viewport vp;
        r = xgd_get_viewport(dev, &vp);
        if (r != XGD_OK) return r;
        if (batch->effect == NULL && (vp.width != batch->projection_width ||
                                      vp.height != batch->projection_height)) {
            r = set_projection(batch, dev);
            if (r != XGD_OK) return r;
        }
        build_vertices(batch->immediate, tw, th, sprite);
        saved_states saved;
        save_states(dev, &saved);
        r = draw_one(batch, dev, xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR_TEXTURE),
                     texture);
        if (r != XGD_OK) {
            restore_states(dev, &saved);
            return r;
        }
        xgd_device_count_sprite_batch(dev);
        return r;
    }

    uint32_t i = batch->count;
    if (i >= batch->capacity) {
        if (i == UINT32_MAX) return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "too many sprites");
        r = reserve(batch, dev, i + 1);
        if (r != XGD_OK) return r;
    }
    /* before the texture is added, so a failure leaves the batch as it was */
    if ((r = reserve_side(batch, dev)) != XGD_OK) return r;
    if (!same_run) {
        if (memo->handle != texture) {
            uint32_t ordinal = 0;
            r = add_texture(batch, dev, texture, &ordinal);
            if (r != XGD_OK) return r;
            memo->handle = texture;
            memo->ordinal = ordinal;
            memo->width = tw;
            memo->height = th;
            memo->corner[0] = memo->corner[1] = -0.0f;
            memo->corner[2] = (float)tw;
            memo->corner[3] = (float)th;
        }
        batch->run_handle = texture;
        batch->run_ordinal = memo->ordinal;
        batch->run_width = memo->width;
        batch->run_height = memo->height;
        memcpy(batch->run_corner, memo->corner, sizeof batch->run_corner);
    }
    /* A batch that may go direct: direct, an entry of the open chunk's kind (an unrotated
       sprite of the whole texture, or in a sheet chunk one with a source rectangle) goes into
       that chunk, or a new one of its kind; one of the other kind into a new chunk of its
       kind after KIND_SWITCH_MIN entries of this kind, and anything else ends the direct
       entries;
       watching, an entry of either kind that makes the run DIRECT_START long opens the first
       chunk, of its kind, and anything else starts the count again (a miss). */
    if (batch->direct_ok) {
        if (!same_run) direct_switch(batch, batch->run_ordinal);
        const bool flat = sprite->rotation == 0.0f;
        const bool whole = flat && sprite->source == NULL, cell = flat && sprite->source != NULL;
        if (batch->direct) {
            if (!whole && !cell) {
                seal(batch);
            } else if (batch->sheet != cell) {
                /* the other kind: a chunk of its kind, after a long enough stretch of this one */
                if (i - batch->kind_first < KIND_SWITCH_MIN) seal(batch);
                else if (open_chunk(batch, dev, cell)) note_run(batch, batch->run_ordinal);
            } else if (i >= (batch->sheet ? batch->sheet_room : batch->room) &&
                       open_chunk(batch, dev, batch->sheet)) {
                note_run(batch, batch->run_ordinal);
            }
        } else if (batch->direct_ok) {
            if (!whole && !cell) {
                if (++batch->direct_misses >= DIRECT_MISSES) batch->direct_ok = false;
                else batch->run_first = i + 1;
            } else if (i - batch->run_first >= DIRECT_START && open_chunk(batch, dev, cell)) {
                note_run(batch, batch->run_ordinal);
            }
        }
    }
    batch->run_room = run_limit(batch);
    if (batch->sheet) {
        /* a cell, with room in the open sheet chunk (above) */
        if (queue_sheet(batch, i, sprite)) {
            batch->count = i + 1;
            return XGD_OK;
        }
        seal(batch); /* what queue_rect refuses is queued as vertices, below */
    }
    sprite_quad *q = entry_at(batch, i);
    if (sprite->rotation != 0.0f ||
        !queue_unrotated(batch, q, batch->run_corner, batch->run_ordinal, sprite)) {
        /* rotated, a zero-size source over a destination, or a corner beyond float range:
           the four vertices as they are (in the queue) */
        if (batch->direct) {
            seal(batch);
            q = &batch->quads[i];
        }
        uint32_t n = batch->general_count++;
        build_vertices(&batch->general[(size_t)n * 4], batch->run_width, batch->run_height,
                       sprite);
        q->z = sprite->layer_depth;
        q->texture = batch->run_ordinal;
        q->form = n << 2 | QUAD_VERTICES;
    }
    batch->count = i + 1;
    return XGD_OK;
}

/* The unrotated sprite as its corners (sprite_quad), computed as build_vertices computes them
 * for a finite corner: returns true having written q's edges, z, color and form (and for a
 * source rectangle an entry of uvs), or false having counted nothing when uvs is full, a
 * corner or the layer depth is not finite, effects has unknown bits, or a zero-size source is
 * spread over a destination (build_vertices' 2e32 case); then draw_general checks the sprite,
 * names the error or queues its vertices. Finite corners prove position, origin
 * and scale finite where they are used: a non-finite one makes each corner that uses it
 * infinite or NaN (an infinity times a scale of 0 is NaN); a destination rectangle replaces
 * position and scale, so those are checked as such. corner is (-0, -0, width, height) of the
 * texture. The arithmetic is build_vertices' lane by lane (-0 - origin is -origin exactly,
 * then a multiply and an add, no fused multiply-add; texture coordinates are divided as
 * there), so both give the same bits. */
#if defined(__SSE2__)
/* (x, y, x, y) */
static inline __m128 load_pair(const xgd_vector2 *v)
{
    __m128d xy = _mm_castsi128_pd(_mm_loadl_epi64((const __m128i *)(const void *)v));
    return _mm_castpd_ps(_mm_unpacklo_pd(xy, xy));
}

/* (x, y, width, height) as floats */
static inline __m128 load_rect(const xgd_rect *rect)
{
    return _mm_cvtepi32_ps(_mm_loadu_si128((const __m128i *)(const void *)rect));
}

/* The edges (x0, y0, x1, y1) and texture coordinates (ua, va, ub, vb; zero without a source)
 * of an unrotated sprite with a source rectangle, a destination rectangle or both, or false
 * for what queue_rect refuses (see above). queue_rect_body (which draw_rect_fast inlines for a
 * source rectangle alone, where the compiler drops the destination's part) and
 * queue_sheet_rect store them. */
static ALWAYS_INLINE bool rect_edges(const float corner[4], const xgd_sprite *s, __m128 *edges,
                                     __m128 *uvs)
{
    const unsigned flip = (unsigned)s->effects;
    const __m128 tex = _mm_loadu_ps(corner);
    const __m128 tsize = _mm_movehl_ps(tex, tex);                         /* tw th tw th */
    __m128 gsize = tsize, uv = _mm_setzero_ps();
    if (s->source != NULL) {
        const __m128 src = load_rect(s->source);                          /* sx sy sw sh */
        gsize = _mm_movehl_ps(src, src);                                  /* sw sh sw sh */
        /* (sx, sy, sx + sw, sy + sh) / (tw, th, tw, th); x + 0 is x for the +0 or nonzero
           x an int converts to */
        const __m128 hi = _mm_movelh_ps(_mm_setzero_ps(), gsize);         /* 0 0 sw sh */
        uv = _mm_div_ps(_mm_add_ps(_mm_movelh_ps(src, src), hi), tsize);  /* u0 v0 u1 v1 */
        switch (flip & 3u) {                                              /* ua va ub vb */
        case 1: uv = _mm_shuffle_ps(uv, uv, _MM_SHUFFLE(3, 0, 1, 2)); break;
        case 2: uv = _mm_shuffle_ps(uv, uv, _MM_SHUFFLE(1, 2, 3, 0)); break;
        case 3: uv = _mm_shuffle_ps(uv, uv, _MM_SHUFFLE(1, 0, 3, 2)); break;
        default: break;
        }
    }
    __m128 p, sc, extra = _mm_setzero_ps();
    if (s->destination != NULL) {
        if (_mm_movemask_ps(_mm_cmpeq_ps(gsize, _mm_setzero_ps())) != 0) return false;
        const __m128 dst = load_rect(s->destination);                     /* dx dy dw dh */
        p = _mm_movelh_ps(dst, dst);
        sc = _mm_div_ps(_mm_movehl_ps(dst, dst), gsize);
        const __m128 pos = load_pair(&s->position), scale = load_pair(&s->scale);
        extra = _mm_add_ps(_mm_sub_ps(pos, pos), _mm_sub_ps(scale, scale));
    } else {
        p = load_pair(&s->position);
        sc = load_pair(&s->scale);
    }
    const __m128 o = load_pair(&s->origin);
    const __m128 z = _mm_load1_ps(&s->layer_depth);
    const __m128 c = _mm_movelh_ps(_mm_set1_ps(-0.0f), gsize);            /* -0 -0 gw gh */
    const __m128 r = _mm_add_ps(p, _mm_mul_ps(_mm_sub_ps(c, o), sc));     /* x0 y0 x1 y1 */
    const __m128 chk = _mm_add_ps(_mm_add_ps(_mm_sub_ps(r, r), _mm_sub_ps(z, z)), extra);
    if ((_mm_movemask_ps(_mm_cmpneq_ps(chk, _mm_setzero_ps())) | (int)(flip > 3u)) != 0)
        return false;
    *edges = r;
    *uvs = uv;
    return true;
}

static ALWAYS_INLINE bool queue_rect_body(xgd_sprite_batch *b, sprite_quad *q,
                                          const float corner[4], uint32_t ordinal,
                                          const xgd_sprite *s)
{
    if (s->source != NULL && b->uv_count >= b->uv_limit) return false;
    __m128 r, uv;
    if (!rect_edges(corner, s, &r, &uv)) return false;
    _mm_storeu_ps(&q->x0, r);
    q->z = s->layer_depth;
    q->color = s->color;
    q->texture = ordinal;
    if (s->source != NULL) {
        uint32_t n = b->uv_count++;
        _mm_storeu_ps(b->uvs[n], uv);
        q->form = n << 2 | QUAD_UV;
    } else {
        q->form = (unsigned)s->effects << 2 | QUAD_WHOLE;
    }
    return true;
}

/* A sprite with a source rectangle (unrotated) as sheet element e: queue_rect's entry and
 * texture coordinates, by the same operations, as three 16-byte stores. */
static ALWAYS_INLINE bool queue_sheet_rect(sheet_element *e, const float corner[4],
                                           uint32_t ordinal, const xgd_sprite *s)
{
    __m128 r, uv;
    if (!rect_edges(corner, s, &r, &uv)) return false;
    uint32_t zb, c;
    memcpy(&zb, &s->layer_depth, sizeof zb);
    memcpy(&c, &s->color, sizeof c);
    float *f = (float *)(void *)e;
    _mm_storeu_ps(f, r);
    _mm_storeu_si128((__m128i *)(void *)(f + 4), _mm_set_epi32(QUAD_UV, (int)ordinal, (int)c, (int)zb));
    _mm_storeu_ps(f + 8, uv);
    return true;
}

#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static bool queue_rect(xgd_sprite_batch *b, sprite_quad *q, const float corner[4],
                       uint32_t ordinal, const xgd_sprite *s)
{
    return queue_rect_body(b, q, corner, ordinal, s);
}

/* No source or destination rectangle: the whole texture, placed by position and scale. The
 * entry is two 16-byte stores: the edges, and (z, color, texture, form) put together in a
 * register (texture and form as one 64-bit value, ordinal | effects << 34: form is
 * effects << 2 | QUAD_WHOLE). */
static ALWAYS_INLINE bool queue_whole(sprite_quad *q, const float corner[4], uint64_t ordinal,
                                      const xgd_sprite *s)
{
    const unsigned flip = (unsigned)s->effects;
    if (UNLIKELY(flip > 3u)) return false;
    /* (x, y, x, y) of position, origin and scale: a 64-bit load and a move of its low half
       up */
    const __m128 p0 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&s->position));
    const __m128 o0 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&s->origin));
    const __m128 s0 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&s->scale));
    const __m128 p = _mm_movelh_ps(p0, p0), o = _mm_movelh_ps(o0, o0), sc = _mm_movelh_ps(s0, s0);
    const __m128 z = _mm_load_ss(&s->layer_depth);                        /* z 0 0 0 */
    uint32_t color;
    memcpy(&color, &s->color, sizeof color);
    const __m128 c = _mm_castsi128_ps(_mm_cvtsi32_si128((int)color));     /* color 0 0 0 */
    /* (x0, y0, x1, y1) */
    const __m128 r = _mm_add_ps(p, _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(corner), o), sc));
    /* x - x is +0 for a finite x and NaN otherwise (finite4) */
    const __m128 chk = _mm_add_ps(_mm_sub_ps(r, r), _mm_sub_ps(z, z));
    if (_mm_movemask_ps(_mm_cmpneq_ps(chk, _mm_setzero_ps())) != 0) return false;
    const uint64_t key64 = ordinal | (uint64_t)flip << 34;
    const __m128i key = _mm_loadl_epi64((const __m128i *)(const void *)&key64);
    _mm_storeu_ps(&q->x0, r);
    _mm_storeu_ps(&q->z, _mm_movelh_ps(_mm_unpacklo_ps(z, c), _mm_castsi128_ps(key)));
    return true;
}
#else
static bool queue_rect(xgd_sprite_batch *b, sprite_quad *q, const float corner[4],
                       uint32_t ordinal, const xgd_sprite *s)
{
    if (s->source != NULL && b->uv_count >= b->uv_limit) return false;
    const unsigned flip = (unsigned)s->effects;
    const float tw = corner[2], th = corner[3];
    float gw = tw, gh = th, u0 = 0.0f, v0 = 0.0f, u1 = 1.0f, v1 = 1.0f;
    if (s->source != NULL) {
        const float sx = (float)s->source->x, sy = (float)s->source->y;
        gw = (float)s->source->width;
        gh = (float)s->source->height;
        u0 = sx / tw;
        v0 = sy / th;
        u1 = (sx + gw) / tw;
        v1 = (sy + gh) / th;
    }
    float px, py, sx, sy;
    if (s->destination != NULL) {
        if (gw == 0.0f || gh == 0.0f) return false;
        if (!finite4(s->position.x, s->position.y, s->scale.x, s->scale.y)) return false;
        px = (float)s->destination->x;
        py = (float)s->destination->y;
        sx = (float)s->destination->width / gw;
        sy = (float)s->destination->height / gh;
    } else {
        px = s->position.x;
        py = s->position.y;
        sx = s->scale.x;
        sy = s->scale.y;
    }
    const float ox = s->origin.x, oy = s->origin.y;
    const float x0 = px + (-0.0f - ox) * sx, y0 = py + (-0.0f - oy) * sy;
    const float x1 = px + (gw - ox) * sx, y1 = py + (gh - oy) * sy;
    const float z = s->layer_depth;
    if (!finite4(x0, x1, y0, y1) || z - z != 0.0f || flip > 3u) return false;
    q->x0 = x0;
    q->y0 = y0;
    q->x1 = x1;
    q->y1 = y1;
    q->z = z;
    q->color = s->color;
    q->texture = ordinal;
    if (s->source != NULL) {
        uint32_t n = b->uv_count++;
        b->uvs[n][0] = (flip & 1u) ? u1 : u0;
        b->uvs[n][1] = (flip & 2u) ? v1 : v0;
        b->uvs[n][2] = (flip & 1u) ? u0 : u1;
        b->uvs[n][3] = (flip & 2u) ? v0 : v1;
        q->form = n << 2 | QUAD_UV;
    } else {
        q->form = flip << 2 | QUAD_WHOLE;
    }
    return true;
}

static ALWAYS_INLINE bool queue_whole(sprite_quad *q, const float corner[4], uint32_t ordinal,
                                      const xgd_sprite *s)
{
    const float sx = s->scale.x, sy = s->scale.y, ox = s->origin.x, oy = s->origin.y;
    const float x0 = s->position.x + (corner[0] - ox) * sx;
    const float y0 = s->position.y + (corner[1] - oy) * sy;
    const float x1 = s->position.x + (corner[2] - ox) * sx;
    const float y1 = s->position.y + (corner[3] - oy) * sy;
    const unsigned flip = (unsigned)s->effects;
    const float z = s->layer_depth;
    if (!finite4(x0, x1, y0, y1) || z - z != 0.0f || flip > 3u) return false;
    q->x0 = x0;
    q->y0 = y0;
    q->x1 = x1;
    q->y1 = y1;
    q->z = z;
    q->color = s->color;
    q->texture = ordinal;
    q->form = flip << 2 | QUAD_WHOLE;
    return true;
}
#endif

static ALWAYS_INLINE bool queue_unrotated(xgd_sprite_batch *b, sprite_quad *q,
                                          const float corner[4], uint32_t ordinal,
                                          const xgd_sprite *s)
{
    if (s->source != NULL || s->destination != NULL) return queue_rect(b, q, corner, ordinal, s);
    return queue_whole(q, corner, ordinal, s);
}

/* An unrotated sprite with a source rectangle as entry i of the open sheet chunk (i below
 * sheet_room): the entry and texture coordinates queue_rect computes, the uvs entry it took
 * given back. False as queue_rect (nothing written or counted). */
static bool queue_sheet(xgd_sprite_batch *b, uint32_t i, const xgd_sprite *s)
{
#if defined(__SSE2__)
    return queue_sheet_rect(sheet_at(b, i), b->run_corner, b->run_ordinal, s);
#else
    sprite_quad q;
    if (!queue_rect(b, &q, b->run_corner, b->run_ordinal, s)) return false;
    const uint32_t n = --b->uv_count;
    sheet_element *e = sheet_at(b, i);
    q.form = QUAD_UV;
    e->q = q;
    memcpy(e->uv, b->uvs[n], sizeof e->uv);
    return true;
#endif
}

/* Makes the memo's texture the run's (a texture this batch checked, see texture_memo). A batch
 * that may go direct notes the switch too (direct_switch): the fast paths leave such switches
 * to draw_other, so that theirs make no call. */
static ALWAYS_INLINE void switch_run(xgd_sprite_batch *b, xgd_texture *texture,
                                     const struct texture_memo *memo)
{
    b->run_handle = texture;
    b->run_room = b->room;
    b->run_ordinal = memo->ordinal;
    b->run_width = memo->width;
    b->run_height = memo->height;
    memcpy(b->run_corner, memo->corner, sizeof b->run_corner);
}

/* This thread's last batch handle that Draw resolved, with xgd_resource_epoch() read before:
 * while the epoch reads the same, the handle still resolves to that batch on a live device.
 *
 * The TLS model is the default one, not initial-exec: initial-exec marks the library
 * DF_STATIC_TLS, and a program that dlopen()s it after other libraries have used up the static
 * TLS block's surplus gets "cannot allocate memory in static TLS block" (tests/tls). Where the
 * compiler has TLS descriptors the library is built with them (CMakeLists.txt: gcc's
 * -mtls-dialect=gnu2 on x86): loaded at startup, the memo's address is then one indirect call
 * that returns the static offset, 4 instructions more per Draw than initial-exec (gcc 12,
 * callgrind); loaded late, the loader falls back to dynamic TLS instead of failing. Without
 * them (clang 14) it is a __tls_get_addr call, 18 more. A
 * memo without TLS would cost more still: one shared by all threads would have to be published
 * atomically and would thrash between threads drawing with different batches, and resolving
 * the handle on every Draw is what the memo saves. */
static _Thread_local struct draw_memo {
    const void *handle;
    xgd_sprite_batch *batch;
    uint64_t epoch;                   /* 0: none (the epoch is never 0) */
} draw_memo;

/* Draw for everything but the run's common sprite: resolving the batch, another texture, a
 * rectangle. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_other(xgd_sprite_batch *batch, xgd_texture *texture,
                             const xgd_sprite *sprite)
{
    const uint64_t epoch = xgd_resource_epoch();
    xgd_device *dev = NULL;
    struct draw_memo *last = &draw_memo;
    if ((const void *)batch == last->handle && epoch == last->epoch) {
        batch = last->batch;
        dev = batch->device;
    } else {
        const void *handle = batch;
        RESOLVE_BATCH(batch, dev);
        last->handle = handle;
        last->batch = batch;
        last->epoch = epoch;
    }
    batch->long_draws++;
    if (epoch != batch->checked_epoch) {
        /* a handle has died since the run and the memo were checked: they may name it */
        batch->checked_epoch = epoch;
        batch->run_handle = NULL;
        batch->run_room = 0;
        memset(batch->memo, 0, sizeof batch->memo);
    }
    /* The common call: a queued mode, the previous sprite's texture (it passed every texture
       check in this batch, and nothing they test changes while its handle names the same live
       object, which it does while the epoch reads the same) or one in the memo, room in the
       queue (and, for a source rectangle, in uvs), and an unrotated sprite. Everything else,
       and every call that fails, goes to draw_general, which checks in XNA's order and names
       the error. A texture in the memo passed the same checks in this batch: a batch that
       alternates among a few textures takes this path too, switching the run. */
    uint32_t i = batch->count;
    struct texture_memo *memo = NULL;
    if (texture != batch->run_handle) {
        memo = &batch->memo[((uintptr_t)texture >> 1) & (TEXTURE_MEMO - 1)];
        if (memo->handle != texture) return draw_general(batch, dev, texture, sprite);
    }
    /* a whole-texture chunk takes only the whole texture's entries, a sheet chunk only
       those with a source rectangle: anything else goes to draw_general, which ends them;
       switching the run first (its texture is checked) lets a direct batch note it before
       the entry is written (which may end the direct entries too) */
    if (texture != NULL && sprite != NULL && batch->in_begin && sprite->rotation == 0.0f &&
        !(batch->direct && !batch->sheet && sprite->source != NULL)) {
        if (memo != NULL) {
            switch_run(batch, texture, memo);
            if (batch->direct_ok) direct_switch(batch, memo->ordinal);
        }
        if (batch->sheet) {
            if (sprite->source != NULL && i < batch->sheet_room && queue_sheet(batch, i, sprite)) {
                batch->count = i + 1;
                return XGD_OK;
            }
        } else if (i < batch->run_room &&
                   queue_unrotated(batch, entry_at(batch, i), batch->run_corner,
                                   batch->run_ordinal, sprite)) {
            batch->count = i + 1;
            return XGD_OK;
        }
    }
    return draw_general(batch, dev, texture, sprite);
}

/* A sprite with no source or destination rectangle and a rotation of +0: one test of the
 * pointers' and the rotation's bits. A rotation of -0 (no rotation too) goes to draw_other,
 * which compares it as 0.0f == -0.0f does and queues it as this path would; NaN goes on to
 * draw_general, which names it. */
static ALWAYS_INLINE bool plain_sprite(const xgd_sprite *s)
{
    uint32_t rotation;
    memcpy(&rotation, &s->rotation, sizeof rotation);
    return ((uint64_t)(uintptr_t)s->source | (uint64_t)(uintptr_t)s->destination | rotation) == 0;
}

/* Not plain_sprite, but a rotation of +0: a source or destination rectangle, unrotated. */
static ALWAYS_INLINE bool unrotated_rect(const xgd_sprite *s)
{
    uint32_t rotation;
    memcpy(&rotation, &s->rotation, sizeof rotation);
    return rotation == 0;
}

/* xgd_sprite_batch_draw's fast path for an unrotated sprite with a source or destination
 * rectangle (a sprite sheet's cell) in the run's texture with room in the queue: queue_rect,
 * as draw_other would call it (not while direct for a source rectangle: the open chunk holds
 * whole-texture entries then, and a sheet chunk keeps room at 0, so this path is not taken
 * while one is open). Out of line, so that the whole-texture path keeps no frame. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_rect_fast(xgd_sprite_batch *batch, xgd_sprite_batch *b,
                                 xgd_texture *texture, const xgd_sprite *sprite)
{
    const uint32_t i = b->count;
    if (b->direct && sprite->source != NULL) return draw_other(batch, texture, sprite);
#if defined(__SSE2__)
    /* a source rectangle alone, the common case, with queue_rect's body inlined */
    const bool queued =
        sprite->destination == NULL
            ? queue_rect_body(b, entry_at(b, i), b->run_corner, b->run_ordinal, sprite)
            : queue_rect(b, entry_at(b, i), b->run_corner, b->run_ordinal, sprite);
#else
    const bool queued = queue_rect(b, entry_at(b, i), b->run_corner, b->run_ordinal, sprite);
#endif
    if (queued) {
        b->count = i + 1;
        return XGD_OK;
    }
    return draw_other(batch, texture, sprite);
}

/* xgd_sprite_batch_draw's fast path for a cell while the open chunk is a sheet chunk with
 * room: queue_sheet, as draw_other would call it. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_sheet_fast(xgd_sprite_batch *batch, xgd_sprite_batch *b,
                                  xgd_texture *texture, const xgd_sprite *sprite)
{
    const uint32_t i = b->count;
#if defined(__SSE2__)
    /* a source rectangle alone, the common case, with queue_sheet_rect inlined */
    const bool queued =
        sprite->destination == NULL
            ? queue_sheet_rect(sheet_at(b, i), b->run_corner, b->run_ordinal, sprite)
            : queue_sheet(b, i, sprite);
#else
    const bool queued = queue_sheet(b, i, sprite);
#endif
    if (queued) {
        b->count = i + 1;
        return XGD_OK;
    }
    return draw_other(batch, texture, sprite);
}

xgd_result xgd_sprite_batch_draw(xgd_sprite_batch *batch, xgd_texture *texture,
                                 const xgd_sprite *sprite)
{
    /* The run's common sprite, the shortest way: this thread's last batch, no handle ended
       since draw_other resolved it (draw_other then also brought the batch's checked_epoch to
       this epoch, and only a later epoch could move it on, so the run's texture is still that
       live, checked texture), the run's texture or one in the memo (checked in this batch
       too, and live while the epoch reads the same; the memo holds textures only in a queued
       Begin, with a run open), then (run_room > i says a run is open, so texture is not NULL
       and the batch is in a queued Begin, and that the queue has room) the whole texture
       unrotated. Anything else: draw_other. Switching the run before the sprite is known to
       queue only moves what the run caches to another checked texture. */
    const uint64_t epoch = atomic_load_explicit(
        atomic_load_explicit(&epoch_counter, memory_order_relaxed), memory_order_acquire);
    const struct draw_memo *last = &draw_memo;
    if ((const void *)batch == last->handle && epoch == last->epoch) {
        xgd_sprite_batch *b = last->batch;
        const uint32_t i = b->count;
        if (UNLIKELY(texture != b->run_handle)) {
            const struct texture_memo *memo =
                &b->memo[((uintptr_t)texture >> 1) & (TEXTURE_MEMO - 1)];
            if (texture == NULL || memo->handle != texture || b->direct_ok)
                return draw_other(batch, texture, sprite);
            switch_run(b, texture, memo);
        }
        if (i < b->run_room && sprite != NULL) {
            if (plain_sprite(sprite)) {
                if (queue_whole(entry_at(b, i), b->run_corner, b->run_ordinal, sprite)) {
                    b->count = i + 1;
                    return XGD_OK;
                }
            } else if (unrotated_rect(sprite)) {
                return draw_rect_fast(batch, b, texture, sprite);
            }
        } else if (i < b->sheet_room && texture != NULL && sprite != NULL &&
                   sprite->source != NULL && unrotated_rect(sprite)) {
            /* texture is tested: see xgd_sprite_batch_draw_at_source */
            return draw_sheet_fast(batch, b, texture, sprite);
        }
    }
    return draw_other(batch, texture, sprite);
}

/* XNA's Draw(Texture2D, Vector2, Color): the sprite xgd_sprite_batch_draw gets as
 * (xgd_sprite){ .position, .color, .scale = { 1, 1 } }, with that function's fast path reduced
 * to what such a sprite needs. Its edges are position + (corner - origin) * scale with origin
 * +0 and scale 1, which is position + corner exactly (c - +0 is c, c * 1 is c), and its depth
 * is +0, so the entry is the one queue_whole writes for the same sprite. Anything else (another
 * batch or epoch, a texture not checked in this batch, no open run, a position that is not
 * finite) goes to draw_other with that sprite, which names the same errors. */
static ALWAYS_INLINE bool queue_at(sprite_quad *q, const float corner[4], uint32_t ordinal,
                                   xgd_vector2 position, xgd_color color)
{
#if defined(__SSE2__)
    __m128 p = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&position));
    p = _mm_movelh_ps(p, p);
    const __m128 r = _mm_add_ps(p, _mm_loadu_ps(corner));
    if (_mm_movemask_ps(_mm_cmpneq_ps(_mm_sub_ps(r, r), _mm_setzero_ps())) != 0) return false;
    _mm_storeu_ps(&q->x0, r);
    /* z +0 and the color, then the texture and form (QUAD_WHOLE, no flips), as two 64-bit
       stores (x86 is little-endian: the low half is the first field) */
    uint32_t c;
    memcpy(&c, &color, sizeof c);
    const uint64_t zc = (uint64_t)c << 32, key = ordinal;
    memcpy((char *)q + offsetof(sprite_quad, z), &zc, sizeof zc);
    memcpy((char *)q + offsetof(sprite_quad, texture), &key, sizeof key);
#else
    const float x0 = position.x + corner[0], y0 = position.y + corner[1];
    const float x1 = position.x + corner[2], y1 = position.y + corner[3];
    if (!finite4(x0, x1, y0, y1)) return false;
    q->x0 = x0;
    q->y0 = y0;
    q->x1 = x1;
    q->y1 = y1;
    q->z = 0.0f;
    q->color = color;
    q->texture = ordinal;
    q->form = QUAD_WHOLE;
#endif
    return true;
}

/* Kept out of line, so that the fast path has no stack frame for the sprite it makes. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_at_other(xgd_sprite_batch *batch, xgd_texture *texture,
                                xgd_vector2 position, xgd_color color)
{
    return draw_other(batch, texture,
                      &(xgd_sprite){ .position = position, .color = color, .scale = { 1, 1 } });
}

xgd_result xgd_sprite_batch_draw_at(xgd_sprite_batch *batch, xgd_texture *texture,
                                    xgd_vector2 position, xgd_color color)
{
    const uint64_t epoch = atomic_load_explicit(
        atomic_load_explicit(&epoch_counter, memory_order_relaxed), memory_order_acquire);
    const struct draw_memo *last = &draw_memo;
    if ((const void *)batch == last->handle && epoch == last->epoch) {
        xgd_sprite_batch *b = last->batch;
        const uint32_t i = b->count;
        if (UNLIKELY(texture != b->run_handle)) {
            const struct texture_memo *memo =
                &b->memo[((uintptr_t)texture >> 1) & (TEXTURE_MEMO - 1)];
            if (texture == NULL || memo->handle != texture || b->direct_ok) goto other;
            switch_run(b, texture, memo);
        }
        if (i < b->run_room &&
            queue_at(entry_at(b, i), b->run_corner, b->run_ordinal, position, color)) {
            b->count = i + 1;
            return XGD_OK;
        }
    }
other:
    return draw_at_other(batch, texture, position, color);
}

/* XNA's Draw(Texture2D, Rectangle, Color), Draw(Texture2D, Rectangle, Rectangle?, Color) and
 * Draw(Texture2D, Vector2, Rectangle?, Color): the sprites they stand for, through
 * xgd_sprite_batch_draw's own path. */
xgd_result xgd_sprite_batch_draw_rect(xgd_sprite_batch *batch, xgd_texture *texture,
                                      xgd_rect destination, xgd_color color)
{
    return xgd_sprite_batch_draw(batch, texture, &(xgd_sprite){
        .destination = &destination, .color = color, .scale = { 1, 1 } });
}

xgd_result xgd_sprite_batch_draw_rect_source(xgd_sprite_batch *batch, xgd_texture *texture,
                                             xgd_rect destination, const xgd_rect *source,
                                             xgd_color color)
{
    return xgd_sprite_batch_draw(batch, texture, &(xgd_sprite){
        .destination = &destination, .source = source, .color = color, .scale = { 1, 1 } });
}

#if defined(__SSE2__)
/* XNA's Draw(Texture2D, Vector2, Rectangle?, Color) with a source rectangle (a sprite sheet's
 * cell): the entry and uvs entry queue_rect writes for the sprite xgd_sprite_batch_draw gets
 * (origin +0, scale 1, no flips, depth +0), by the same operations on the same values, so the
 * same bits: its edges are position + (-0, -0, sw, sh) (queue_rect's (c - o) * sc is c
 * exactly for o +0 and sc 1) and its texture coordinates (sx, sy, sx + sw, sy + sh) divided by
 * the texture's size (at_source_edges computes both; false for an edge that is not finite).
 * The caller has checked that uvs has room. */
static ALWAYS_INLINE bool at_source_edges(const float corner[4], xgd_vector2 position,
                                          const xgd_rect *source, __m128 *edges, __m128 *uvs)
{
    const __m128 tex = _mm_loadu_ps(corner);
    const __m128 tsize = _mm_movehl_ps(tex, tex);                             /* tw th tw th */
    const __m128 src = load_rect(source);                                     /* sx sy sw sh */
    const __m128 gsize = _mm_movehl_ps(src, src);                             /* sw sh sw sh */
    const __m128 hi = _mm_movelh_ps(_mm_setzero_ps(), gsize);                 /* 0 0 sw sh */
    const __m128 uv = _mm_div_ps(_mm_add_ps(_mm_movelh_ps(src, src), hi), tsize);
    __m128 p = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&position));
    p = _mm_movelh_ps(p, p);
    const __m128 r = _mm_add_ps(p, _mm_movelh_ps(_mm_set1_ps(-0.0f), gsize)); /* x0 y0 x1 y1 */
    if (_mm_movemask_ps(_mm_cmpneq_ps(_mm_sub_ps(r, r), _mm_setzero_ps())) != 0) return false;
    *edges = r;
    *uvs = uv;
    return true;
}

static ALWAYS_INLINE bool queue_at_source(xgd_sprite_batch *b, sprite_quad *q,
                                          const float corner[4], uint32_t ordinal,
                                          xgd_vector2 position, const xgd_rect *source,
                                          xgd_color color)
{
    __m128 r, uv;
    if (!at_source_edges(corner, position, source, &r, &uv)) return false;
    _mm_storeu_ps(&q->x0, r);
    const uint32_t n = b->uv_count++;
    _mm_storeu_ps(b->uvs[n], uv);
    q->z = 0.0f;
    q->color = color;
    q->texture = ordinal;
    q->form = n << 2 | QUAD_UV;
    return true;
}

/* The same sprite as entry e of the open sheet chunk: queue_at_source's entry and texture
 * coordinates, by the same operations, as three 16-byte stores (the entry's z +0, color,
 * texture and form QUAD_UV as one). */
static ALWAYS_INLINE bool queue_sheet_at(sheet_element *e, const float corner[4],
                                         uint32_t ordinal, xgd_vector2 position,
                                         const xgd_rect *source, xgd_color color)
{
    __m128 r, uv;
    if (!at_source_edges(corner, position, source, &r, &uv)) return false;
    uint32_t c;
    memcpy(&c, &color, sizeof c);
    const __m128i zc = _mm_set_epi32(QUAD_UV, (int)ordinal, (int)c, 0);      /* z color tex form */
    float *f = (float *)(void *)e;
    _mm_storeu_ps(f, r);
    _mm_storeu_si128((__m128i *)(void *)(f + 4), zc);
    _mm_storeu_ps(f + 8, uv);
    return true;
}
#endif

/* Kept out of line, so that the fast path has no stack frame for the sprite it makes. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result draw_at_source_other(xgd_sprite_batch *batch, xgd_texture *texture,
                                       xgd_vector2 position, const xgd_rect *source,
                                       xgd_color color)
{
    return xgd_sprite_batch_draw(batch, texture, &(xgd_sprite){
        .position = position, .source = source, .color = color, .scale = { 1, 1 } });
}

/* The sprite xgd_sprite_batch_draw gets as (xgd_sprite){ .position, .source, .color, .scale =
 * { 1, 1 } }, with draw_at's fast path for a source rectangle (a sprite sheet's cell: the
 * common call of games that draw animation frames and tiles): the entry queue_rect writes,
 * when the batch is not writing direct and uvs has room, or while the open chunk is a sheet
 * chunk with room, its element (queue_sheet_at). Anything else goes the long way with that
 * sprite, which names the same errors. */
xgd_result xgd_sprite_batch_draw_at_source(xgd_sprite_batch *batch, xgd_texture *texture,
                                           xgd_vector2 position, const xgd_rect *source,
                                           xgd_color color)
{
#if defined(__SSE2__)
    const uint64_t epoch = atomic_load_explicit(
        atomic_load_explicit(&epoch_counter, memory_order_relaxed), memory_order_acquire);
    const struct draw_memo *last = &draw_memo;
    if ((const void *)batch == last->handle && epoch == last->epoch && source != NULL) {
        xgd_sprite_batch *b = last->batch;
        const uint32_t i = b->count;
        if (UNLIKELY(texture != b->run_handle)) {
            const struct texture_memo *memo =
                &b->memo[((uintptr_t)texture >> 1) & (TEXTURE_MEMO - 1)];
            if (texture == NULL || memo->handle != texture || b->direct_ok) goto other;
            switch_run(b, texture, memo);
        }
        /* sheet_room, unlike run_room, stays when an epoch change closes the run (the chunk
           stays open): texture is tested here (a NULL texture equals the closed run's NULL) */
        if (i < b->sheet_room && texture != NULL) {
            if (queue_sheet_at(sheet_at(b, i), b->run_corner, b->run_ordinal, position, source,
                               color)) {
                b->count = i + 1;
                return XGD_OK;
            }
            goto other;
        }
        if (i < b->run_room && b->uv_count < b->uv_limit && !b->direct &&
            queue_at_source(b, entry_at(b, i), b->run_corner, b->run_ordinal, position, source,
                            color)) {
            b->count = i + 1;
            return XGD_OK;
        }
    }
other:
#endif
    return draw_at_source_other(batch, texture, position, source, color);
}

/* ---- End ----------------------------------------------------------------------------------- */

/* A caller may destroy a texture, state or effect between Draw/Begin and End; those structs
 * are freed then. Each was referenced weakly while it was live, so this check is
 * O(distinct textures + 5) and reads nothing freed. XNA would throw ObjectDisposedException
 * when the disposed object reached the device. */
static xgd_result check_alive(const xgd_sprite_batch *b, xgd_device *dev)
{
    for (int i = 0; i < REF_COUNT; i++) {
        if (i == REF_EFFECT && b->effect == NULL) continue;
        if (!xgd_resource_is_live(dev, b->refs[i]))
            return xgd_device_report_error(dev, XGD_ERROR_OBJECT_DISPOSED,
                             "a state or effect given to Begin was destroyed before End");
    }
    for (uint32_t i = 0; i < b->distinct; i++) {
        if (!xgd_resource_is_live(dev, b->distinct_textures[i]))
            return xgd_device_report_error(dev, XGD_ERROR_OBJECT_DISPOSED,
                             "a texture queued in the sprite batch was destroyed before End");
    }
    return XGD_OK;
}

/* What a draw of each run would refuse, checked for every queued texture before the first run
 * is drawn: End draws the whole queue or, when one run cannot be drawn, nothing (a failed call
 * changes no public state; XNA would have drawn the runs before the refused one). */
static xgd_result check_drawable(const xgd_sprite_batch *b, xgd_device *dev)
{
    for (uint32_t i = 0; i < b->distinct; i++) {
        xgd_result r = xgd_device_check_sampling(dev, b->distinct_textures[i], b->sampler);
        if (r != XGD_OK) return r;
    }
    return XGD_OK;
}

/* Order-preserving map of a float to 32 bits: ascending floats give ascending keys. */
static uint32_t float_key(float f)
{
    f += 0.0f; /* -0 -> +0, so equal depths compare equal */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Bottom-up merge sort of (key << 32 | index) values; the result is in *data. */
static void merge_sort(uint64_t **data, uint64_t **scratch, uint32_t n)
{
    uint64_t *src = *data, *dst = *scratch;
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = mid + width < n ? mid + width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) dst[k++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid) dst[k++] = src[i++];
            while (j < hi) dst[k++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
        if (width > UINT32_MAX / 2) break;
    }
    *data = src;
    *scratch = dst;
}

static xgd_result sort_queue(xgd_sprite_batch *b, xgd_device *dev)
{
    if (b->count > b->keys_capacity) {
        uint32_t cap = b->capacity;
        if (!grow((void **)&b->keys, sizeof(uint64_t), cap) ||
            !grow((void **)&b->keys_scratch, sizeof(uint64_t), cap))
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory sorting sprites");
        b->keys_capacity = cap;
    }
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t key;
        switch (b->sort_mode) {
        case XGD_SPRITE_SORT_TEXTURE: key = b->quads[i].texture; break;
        case XGD_SPRITE_SORT_BACK_TO_FRONT: key = ~float_key(b->quads[i].z); break;
        default: key = float_key(b->quads[i].z); break;
        }
        b->keys[i] = (uint64_t)key << 32 | i;
    }
    merge_sort(&b->keys, &b->keys_scratch, b->count);
    return XGD_OK;
}

/* The held chunks of a direct batch, in order, each with one xgd_draw_reserved_quad_runs
 * through spritewhole (sheet chunks: spriteinst, through sheet_decl, which the chunk was held
 * with) from the entries as Draw wrote them: a run per stretch of equal
 * textures (direct_runs). When the device ends the chunks meanwhile (the draw's own upload
 * filled the ring and submitted: Vulkan refuses the draw then), held_ended has copied the
 * entries End had not drawn into the queue, and direct_n says where the queue's part now
 * begins: the failure is no error of End, which draws them from there. */
static xgd_result draw_held(xgd_sprite_batch *b, xgd_device *dev, group_state *gs)
{
    if (b->runs == NULL) {
        b->runs = malloc(sizeof *b->runs * MAX_SPRITES);
        if (b->runs == NULL)
            return xgd_device_report_error(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory drawing sprites");
    }
    uint32_t run = 0;
    while (b->held_drawn < b->held_count) {
        const struct held_chunk *c = &b->held[b->held_drawn];
        const uint32_t end = b->direct_n, first = c->first;
        const uint32_t stop = chunk_stop(b, b->held_drawn, end);
        if (stop <= first) break; /* chunks past the entries: release_held gives them back */
        while (run + 1 < b->direct_run_count && b->direct_runs[run + 1].start <= first) run++;
        int n = 0;
        for (uint32_t k = run; k < b->direct_run_count; k++) {
            uint32_t rs = b->direct_runs[k].start;
            uint32_t re = k + 1 < b->direct_run_count ? b->direct_runs[k + 1].start : end;
            if (rs >= stop) break;
            if (rs < first) rs = first;
            if (re > stop) re = stop;
            xgd_texture *tex = b->distinct_textures[b->direct_runs[k].ordinal];
            for (; re - rs > XGD_USER_QUADS_MAX; rs += XGD_USER_QUADS_MAX) /* a run's most */
                b->runs[n++] = (xgd_quad_run){ tex, XGD_USER_QUADS_MAX };
            if (re > rs) b->runs[n++] = (xgd_quad_run){ tex, (int)(re - rs) };
        }
        xgd_result r = apply_instanced(b, c->sheet ? INST_ELEMENT : INST_WHOLE, gs);
        if (r != XGD_OK) return r;
#if defined(__SSE2__)
        _mm_sfence(); /* Draw's stores into write-combined memory, before the GPU reads them */
#endif
        xgd_device_quiet_begin(dev);
        r = xgd_draw_reserved_quad_runs(dev, &c->res, b->runs, n);
        const char *why = xgd_device_quiet_end(dev);
        if (r != XGD_OK) {
            if (b->held_count != b->held_drawn) return xgd_device_report_error(dev, r, "%s", why);
            return XGD_OK; /* ended: drawn from the queue */
        }
        b->held_drawn++;
        b->direct_drawn += stop - first;
    }
    return XGD_OK;
}

xgd_result xgd_sprite_batch_end(xgd_sprite_batch *batch)
{
    xgd_device *dev = NULL;
    RESOLVE_BATCH(batch, dev);
    xgd_result r;
    if (!batch->in_begin)
        return xgd_device_report_error(dev, XGD_ERROR_INVALID_OPERATION,
                         "Begin must be called before End can be called");
    /* The batch ends even when drawing fails (device lost, a destroyed texture): the queue
       cannot be drawn later, and the caller can Begin again. */
    batch->in_begin = false;
    uint32_t count = batch->count;
    seal(batch); /* the direct entries, if any, are [0, direct_n) */
    batch->count = 0;
    if (batch->sort_mode == XGD_SPRITE_SORT_IMMEDIATE) return XGD_OK;

    batch->count = count; /* the helpers below read the queue */
    r = check_alive(batch, dev);
    if (r == XGD_OK) r = xgd_device_check_status(dev);
    if (r == XGD_OK) r = check_drawable(batch, dev);
    bool sorted = batch->sort_mode != XGD_SPRITE_SORT_DEFERRED && count > 1;
    if (r == XGD_OK && sorted) r = sort_queue(batch, dev);
    saved_states saved;
    save_states(dev, &saved);
    if (r == XGD_OK) {
        group_state gs;
        memset(&gs, 0, sizeof gs);
        /* a direct batch: the queue's head, the held chunks, the queue's tail (draw_held may
           move where the tail starts back) */
        const bool direct = batch->held_count > 0;
        const uint32_t head = direct ? batch->direct_first : count;
        r = set_states(batch, dev);
        if (r == XGD_OK)
            r = draw_sprites(batch, dev, sorted ? batch->keys : NULL, 0, head, &gs);
        if (r == XGD_OK && direct) r = draw_held(batch, dev, &gs);
        if (r == XGD_OK && direct)
            r = draw_sprites(batch, dev, NULL, batch->direct_n, count, &gs);
        if (r == XGD_OK && count > 0) xgd_device_count_sprite_batch(dev);
        if (gs.saved || gs.inst) {
            const uint32_t last = sorted ? (uint32_t)batch->keys[count - 1] : count - 1;
            const uint32_t ordinal = direct && last >= batch->direct_first && last < batch->direct_n
                                         ? direct_ordinal(batch, last)
                                         : batch->quads[last].texture;
            r = end_groups(batch, dev, &gs, batch->distinct_textures[ordinal], r);
        }
        if (r != XGD_OK) restore_states(dev, &saved);
    }
    release_held(batch, dev);
    batch->last_count = count;
    batch->count = 0;
    table_reset(batch);
    return r;
}
