/*
 * handle.c - the process-wide handle table behind every public object pointer.
 *
 * A public object pointer (xgd_texture *, xgd_blend_state *, ...) is not the object's address
 * but a cookie: bit 0 set (no object address is odd, and NULL is 0), then the slot index, then
 * the slot's generation (internal.h XGDI_HANDLE_*). A slot keeps its live handle's whole value,
 * or 0 while it holds no object, and a lookup compares the value it is given with that: one
 * compare, and a slot that is free, never given out or retired matches no value at all.
 * Destroy clears the value and moves the slot's generation on, so every copy of the old value
 * stops resolving and a call through it answers OBJECT_DISPOSED without reading the freed
 * struct; a new object in the same slot gets a new value.
 *
 * The table is process-wide, not per device, because an object outlives its device (a
 * disposed shell until its owner destroys it) and two devices on two threads share it.
 * Reads are lock-free: slots live in pages that are allocated on demand and never freed while
 * the process lives (the table is bounded by the peak number of live objects), a page pointer
 * is published with release and read with acquire, and a slot's live value is an atomic word
 * stored with release after the object pointer it guards.
 * Allocation and release take a small lock (a spin lock on an atomic flag: the critical
 * sections are a few stores, and it needs no thread library on any platform).
 *
 * A slot whose generation would wrap is retired instead of reused, so a stale value can never
 * match a later object: with 32 generation bits that costs one slot per 4 billion objects
 * created in it.
 */
#include "internal.h"

#include <stdlib.h>

_Atomic(xgdi_handle_slot *) xgdi_handle_pages[XGDI_HANDLE_PAGE_COUNT];

static atomic_flag table_lock = ATOMIC_FLAG_INIT;
/* xgd_resource_epoch: moves on at every handle's end and every device destroy. 64 bits: a
   destroy per nanosecond takes 584 years to wrap it. */
_Atomic uint64_t xgdi_lifetime_epoch = 1;
/* Guarded by table_lock. */
static uint32_t slots_used;           /* slots ever handed out: indices [0, slots_used) */
static uint32_t free_head;            /* free-list head index + 1; 0 when empty */
static uint32_t slots_retired;

static void lock(void)
{
    while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire)) {
    }
}

static void unlock(void)
{
    atomic_flag_clear_explicit(&table_lock, memory_order_release);
}

static xgdi_handle_slot *slot_at(uint32_t index)
{
    xgdi_handle_slot *page = atomic_load_explicit(&xgdi_handle_pages[index >> XGDI_HANDLE_PAGE_BITS],
                                                  memory_order_acquire);
    return page != NULL ? &page[index & XGDI_HANDLE_PAGE_MASK] : NULL;
}

static void *encode(uint32_t index, uint32_t gen)
{
    return (void *)(((uintptr_t)gen << (1 + XGDI_HANDLE_INDEX_BITS)) | ((uintptr_t)index << 1) | 1u);
}

/* Under the lock: the object first, then the value that makes it reachable (release). */
static void publish(xgdi_handle_slot *s, uint32_t index, xgdi_resource *res)
{
    s->res = res;
    res->handle = encode(index, atomic_load_explicit(&s->gen, memory_order_relaxed));
    atomic_store_explicit(&s->live, (uintptr_t)res->handle, memory_order_release);
}

xgd_result xgdi_handle_alloc(xgd_device *device, xgdi_resource *res)
{
    xgdi_handle_slot *spare = NULL;
    for (;;) {
        lock();
        uint32_t index;
        if (free_head != 0) {
            index = free_head - 1;
            xgdi_handle_slot *s = slot_at(index);
            free_head = s->next_free;
            s->next_free = 0;
            publish(s, index, res);
            unlock();
            free(spare);
            return XGD_OK;
        }
        if (slots_used >= XGDI_HANDLE_MAX_SLOTS) {
            unlock();
            free(spare);
            return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY,
                             "too many live objects (the handle table holds %lu)",
                             (unsigned long)XGDI_HANDLE_MAX_SLOTS);
        }
        index = slots_used;
        uint32_t page = index >> XGDI_HANDLE_PAGE_BITS;
        if (atomic_load_explicit(&xgdi_handle_pages[page], memory_order_relaxed) == NULL) {
            if (spare == NULL) {
                /* calloc outside the lock; another thread may publish the page meanwhile, then
                   the spare goes back */
                unlock();
                spare = calloc(XGDI_HANDLE_PAGE_SIZE, sizeof *spare);
                if (spare == NULL)
                    return xgdi_fail(device, XGD_ERROR_OUT_OF_MEMORY,
                                     "out of memory growing the handle table");
                continue;
            }
            for (uint32_t i = 0; i < XGDI_HANDLE_PAGE_SIZE; i++)
                atomic_init(&spare[i].gen, 1u);
            atomic_store_explicit(&xgdi_handle_pages[page], spare, memory_order_release);
            spare = NULL;
        }
        slots_used++;
        xgdi_handle_slot *s = slot_at(index);
        s->next_free = 0;
        publish(s, index, res);
        unlock();
        free(spare);
        return XGD_OK;
    }
}

void xgdi_handle_free(xgdi_resource *res)
{
    if (res == NULL || res->handle == NULL) return;
    uintptr_t h = (uintptr_t)res->handle;
    uint32_t index = (uint32_t)((h >> 1) & XGDI_HANDLE_INDEX_MASK);
    res->handle = NULL;
    lock();
    xgdi_handle_slot *s = slot_at(index);
    if (s != NULL && s->res == res) {
        uint32_t gen = atomic_load_explicit(&s->gen, memory_order_relaxed);
        atomic_store_explicit(&s->live, 0u, memory_order_release);
        s->res = NULL;
        xgdi_handle_epoch_advance();
        if (gen >= XGDI_HANDLE_GEN_MAX) {
            /* Retired: the slot never returns to the free list, so no later object can take
               the old value (its live value stays 0; generation 0 marks it for messages). */
            atomic_store_explicit(&s->gen, 0u, memory_order_release);
            slots_retired++;
        } else {
            atomic_store_explicit(&s->gen, gen + 1, memory_order_release);
            s->next_free = free_head;
            free_head = index + 1;
        }
    }
    unlock();
}

void xgdi_handle_epoch_advance(void)
{
    atomic_fetch_add_explicit(&xgdi_lifetime_epoch, 1, memory_order_release);
}

uint64_t xgd_resource_epoch(void)
{
    return atomic_load_explicit(&xgdi_lifetime_epoch, memory_order_acquire);
}

const void *xgd_resource_epoch_address(void)
{
    return (const void *)&xgdi_lifetime_epoch;
}

static const char *const type_names[XGDI_RES_TYPE_COUNT] = {
    "texture", "vertex declaration", "vertex buffer", "index buffer", "blend state",
    "depth-stencil state", "rasterizer state", "sampler state", "effect", "occlusion query",
    "object"
};

const char *xgdi_resource_type_name(xgdi_resource_type type)
{
    return (unsigned)type < XGDI_RES_TYPE_COUNT ? type_names[type] : "object";
}

void *xgdi_handle_resolve_failed(xgd_device *device, const void *handle, xgdi_resource_type type,
                                 const char *what, xgd_result *result)
{
    uintptr_t h = (uintptr_t)handle;
    uint32_t index = (uint32_t)((h >> 1) & XGDI_HANDLE_INDEX_MASK);
    if (what == NULL) what = xgdi_resource_type_name(type);
    if ((h & 1u) == 0 || ((uint64_t)h >> (1 + XGDI_HANDLE_INDEX_BITS + XGDI_HANDLE_GEN_BITS)) != 0 ||
        slot_at(index) == NULL) {
        *result = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is not an xgd %s handle",
                            what, xgdi_resource_type_name(type));
        return NULL;
    }
    xgdi_resource *live = xgdi_handle_get(handle, XGDI_RES_TYPE_COUNT);
    if (live != NULL) {
        *result = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT, "%s is a %s, not a %s", what,
                            xgdi_resource_name(live), xgdi_resource_type_name(type));
        return NULL;
    }
    /* A generation from 1 to below the slot's (to the last, once the slot is retired) was an
       object's; 0, the slot's own while it holds no object, or a later one was never given
       out. */
    uint32_t slot_gen = atomic_load_explicit(&slot_at(index)->gen, memory_order_relaxed);
    uint64_t gen = (uint64_t)h >> (1 + XGDI_HANDLE_INDEX_BITS);
    if (gen == 0 || (slot_gen != 0 && gen >= slot_gen)) {
        *result = xgdi_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                            "%s is not an xgd %s handle (no object has had it)", what,
                            xgdi_resource_type_name(type));
        return NULL;
    }
    *result = xgdi_fail(device, XGD_ERROR_OBJECT_DISPOSED,
                        "%s (%s) is disposed: the handle outlived its object", what,
                        xgdi_resource_type_name(type));
    return NULL;
}

xgd_result xgdi_check_handle(xgd_device *device, const void *handle, xgdi_resource_type type,
                             const char *what)
{
    xgd_result r = XGD_OK;
    const xgdi_resource *res = xgdi_resolve(device, handle, type, what, &r);
    if (r != XGD_OK) return r;
    return xgdi_check_resource(device, res, type, what);
}

/* ---- test hooks ---------------------------------------------------------------------------- */

void *xgdi_handle_debug_set_generation(xgdi_resource *res, uint32_t gen)
{
    if (res == NULL || res->handle == NULL || gen == 0 || gen > XGDI_HANDLE_GEN_MAX) return NULL;
    uint32_t index = (uint32_t)(((uintptr_t)res->handle >> 1) & XGDI_HANDLE_INDEX_MASK);
    lock();
    xgdi_handle_slot *s = slot_at(index);
    atomic_store_explicit(&s->gen, gen, memory_order_relaxed);
    publish(s, index, res);
    /* the old value stops naming the object: memos of it (xgd_set_texture's) must go */
    xgdi_handle_epoch_advance();
    unlock();
    return res->handle;
}

uint32_t xgdi_handle_debug_retired(void)
{
    lock();
    uint32_t n = slots_retired;
    unlock();
    return n;
}

uint32_t xgdi_handle_debug_slots_used(void)
{
    lock();
    uint32_t n = slots_used;
    unlock();
    return n;
}
