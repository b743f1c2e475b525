/*
 * test_handles_table.c - white-box tests of the process-wide handle table (src/core/handle.c):
 * a slot whose generation would wrap is retired, never reused, so no later object can take a
 * stale handle's value; values that are no handle at all are refused without being followed;
 * the table's memory is bounded by the peak number of live objects.
 */
#include "harness.h"
#include "internal.h"

#include <string.h>

static xgd_device *table_device(xgdt_ctx *t)
{
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.pp.headless = true;
    return xgdt_device(t, &dd);
}

static uint32_t slot_of(const void *handle)
{
    return (uint32_t)(((uintptr_t)handle >> 1) & XGDI_HANDLE_INDEX_MASK);
}

XGD_TEST(handles_generation_wrap_retires_slot)
{
    xgd_device *dev = table_device(t);
    REQUIRE(dev);
    xgd_blend_state_desc got;

    /* One below the last generation: the slot is still reused once, at the last one. */
    xgd_blend_state *a = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &a));
    uint32_t slot = slot_of(a);
    a = xgdi_handle_debug_set_generation(XGDI_OBJECT(a), XGDI_HANDLE_GEN_MAX - 1);
    REQUIRE(a != NULL);
    CHECK_OK(xgd_blend_state_get_desc(a, &got));
    uint32_t retired0 = xgdi_handle_debug_retired();
    xgd_blend_state_destroy(a);
    CHECK_INT(xgdi_handle_debug_retired(), retired0);
    xgd_blend_state *b = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &b)); /* the free list is last in, first out */
    CHECK_INT(slot_of(b), slot);
    CHECK(b != a);
    CHECK_RESULT(xgd_blend_state_get_desc(a, &got), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_blend_state_get_desc(b, &got));

    /* At the last generation, destroy retires the slot: no later object gets it, and every
       value it ever had stays stale. */
    xgd_blend_state_destroy(b);
    CHECK_INT(xgdi_handle_debug_retired(), retired0 + 1);
    enum { N = 32 };
    xgd_blend_state *later[N];
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(xgd_blend_state_create(dev, NULL, &later[i]));
        CHECK_MSG(slot_of(later[i]) != slot, "object %d took the retired slot %u", i,
                  (unsigned)slot);
    }
    CHECK_RESULT(xgd_blend_state_get_desc(a, &got), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_blend_state_get_desc(b, &got), XGD_ERROR_OBJECT_DISPOSED);
    xgd_blend_state_destroy(b); /* a no-op, as for any stale handle */
    for (int i = 0; i < N; i++) {
        CHECK_OK(xgd_blend_state_get_desc(later[i], &got));
        xgd_blend_state_destroy(later[i]);
    }
    xgd_device_destroy(dev);
}

/* A value that is no handle (an object's address, a small integer, a handle with bits beyond
 * the generation, an index no slot was ever given for) is an argument error, not a disposal,
 * and is never followed. */
XGD_TEST(handles_reject_values_that_are_not_handles)
{
    xgd_device *dev = table_device(t);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    xgd_texture_info info;
    void *address = XGDI_OBJECT(tex); /* the real struct: an address is not a handle */
    REQUIRE(address != NULL);
    CHECK_RESULT(xgd_texture_get_info((xgd_texture *)address, &info), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(xgd_device_last_error(NULL), "not an xgd texture handle") != NULL);
    CHECK_RESULT(xgd_texture_get_info((xgd_texture *)(uintptr_t)2, &info),
                 XGD_ERROR_INVALID_ARGUMENT);
    uintptr_t never = ((uintptr_t)1 << (1 + XGDI_HANDLE_INDEX_BITS)) |
                      ((uintptr_t)XGDI_HANDLE_INDEX_MASK << 1) | 1u;
    CHECK_RESULT(xgd_set_texture(dev, 0, (xgd_texture *)never), XGD_ERROR_INVALID_ARGUMENT);
#if UINTPTR_MAX > 0xFFFFFFFFu
    uintptr_t high = (uintptr_t)(void *)tex | ((uintptr_t)1 << 62);
    CHECK_RESULT(xgd_texture_get_info((xgd_texture *)high, &info), XGD_ERROR_INVALID_ARGUMENT);
#endif
    /* a destroy of any of them is a no-op and leaves the texture alone */
    xgd_texture_destroy((xgd_texture *)address);
    xgd_texture_destroy((xgd_texture *)never);
    CHECK_OK(xgd_texture_get_info(tex, &info));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

static void *handle_value(uint32_t slot, uint32_t gen)
{
    return (void *)(((uintptr_t)gen << (1 + XGDI_HANDLE_INDEX_BITS)) | ((uintptr_t)slot << 1) | 1u);
}

static uint32_t gen_of(const void *handle)
{
    return (uint32_t)((uintptr_t)handle >> (1 + XGDI_HANDLE_INDEX_BITS));
}

/* A slot that holds no object (freed, never given out, retired) answers every value naming it
 * with an error, whatever generation the value carries: nothing is followed. The values a free
 * slot's next object or a never-used slot would get are no handle yet (INVALID_ARGUMENT); an
 * earlier generation is a disposed object (OBJECT_DISPOSED). */
XGD_TEST(handles_empty_slots_answer_every_value)
{
    xgd_device *dev = table_device(t);
    REQUIRE(dev);
    xgd_texture_info info;
    xgd_blend_state_desc got;

    /* a freed slot: its old value is disposed, its next one and later ones are no handle */
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    uint32_t slot = slot_of(tex), gen = gen_of(tex);
    REQUIRE(gen < XGDI_HANDLE_GEN_MAX - 2);
    xgd_texture_destroy(tex);
    CHECK_RESULT(xgd_texture_get_info(tex, &info), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_set_texture(dev, 0, tex), XGD_ERROR_OBJECT_DISPOSED);
    for (uint32_t g = gen + 1; g <= gen + 2; g++) {
        xgd_texture *next = handle_value(slot, g);
        CHECK_RESULT(xgd_texture_get_info(next, &info), XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_set_texture(dev, 0, next), XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_blend_state_get_desc((xgd_blend_state *)next, &got),
                     XGD_ERROR_INVALID_ARGUMENT);
        xgd_texture_destroy(next); /* a no-op */
    }

    /* a slot never given out, in a page that exists: the first generation it would get and
       generation 0 */
    uint32_t unused = xgdi_handle_debug_slots_used();
    if ((unused & XGDI_HANDLE_PAGE_MASK) != 0) { /* else its page may not exist yet */
        for (uint32_t g = 0; g <= 1; g++) {
            xgd_texture *never = handle_value(unused, g);
            CHECK_RESULT(xgd_texture_get_info(never, &info), XGD_ERROR_INVALID_ARGUMENT);
            CHECK_RESULT(xgd_set_texture(dev, 0, never), XGD_ERROR_INVALID_ARGUMENT);
            CHECK_RESULT(xgd_set_texture(dev, 1, never), XGD_ERROR_INVALID_ARGUMENT);
        }
    }

    /* a retired slot: every value an object had is disposed; generation 0 was never given */
    xgd_blend_state *a = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &a));
    uint32_t rslot = slot_of(a);
    a = xgdi_handle_debug_set_generation(XGDI_OBJECT(a), XGDI_HANDLE_GEN_MAX);
    REQUIRE(a != NULL);
    xgd_blend_state_destroy(a);
    CHECK_RESULT(xgd_blend_state_get_desc(a, &got), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_blend_state_get_desc(handle_value(rslot, 1), &got),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_set_texture(dev, 0, handle_value(rslot, 1)), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_blend_state_get_desc(handle_value(rslot, 0), &got),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_texture(dev, 0, handle_value(rslot, 0)), XGD_ERROR_INVALID_ARGUMENT);

    /* the texture slots are as before every refusal: none bound */
    xgd_texture *bound = (xgd_texture *)&info;
    CHECK_OK(xgd_get_texture(dev, 0, &bound));
    CHECK(bound == NULL);
    xgd_device_destroy(dev);
}

static char get_failed; /* bound_texture's answer when the get fails: no texture's value */

static xgd_texture *bound_texture(xgd_device *dev, int slot)
{
    xgd_texture *t = NULL;
    if (xgd_get_texture(dev, slot, &t) != XGD_OK) return (xgd_texture *)&get_failed;
    return t;
}

/* xgd_set_texture remembers the handles it resolved (internal.h texture_memo) while no handle
 * anywhere is freed: a handle it remembers answers as the table would, after its own destroy,
 * another object's destroy, a change of slot, a slot out of range, and next to another handle
 * that takes the same memo entry. */
XGD_TEST(handles_set_texture_memo_answers_as_the_table)
{
    xgd_device *dev = table_device(t), *other = table_device(t);
    REQUIRE(dev);
    REQUIRE(other);
    const xgd_texture2d_desc d = { .width = 2, .height = 2 };
    xgd_texture *a = NULL, *b = NULL, *c = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &d, &a));
    REQUIRE_OK(xgd_texture2d_create(dev, &d, &b));
    REQUIRE_OK(xgd_texture2d_create(other, &d, &c));

    /* remembered (white-box: the memo entry holds it), then the same handle again in another
       slot and back */
    CHECK_OK(xgd_set_texture(dev, 0, a));
    CHECK(dev->texture_memo_handle[xgdi_texture_memo_entry(a)] == (uintptr_t)a);
    CHECK(dev->texture_memo[xgdi_texture_memo_entry(a)] == XGDI_OBJECT(a));
    CHECK_OK(xgd_set_texture(dev, 0, a));
    CHECK_OK(xgd_set_texture(dev, 3, a));
    CHECK(bound_texture(dev, 0) == a);
    CHECK(bound_texture(dev, 3) == a);
    /* a slot out of range with a remembered handle */
    CHECK_RESULT(xgd_set_texture(dev, XGDI_MAX_TEXTURE_SLOTS, a), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_texture(dev, -1, a), XGD_ERROR_INVALID_ARGUMENT);
    /* a handle this device remembers is another device's on that device: refused there */
    CHECK_OK(xgd_set_texture(other, 0, c));
    CHECK_RESULT(xgd_set_texture(other, 1, a), XGD_ERROR_INVALID_OPERATION);
    CHECK_RESULT(xgd_set_texture(dev, 1, c), XGD_ERROR_INVALID_OPERATION);
    CHECK(bound_texture(dev, 1) == NULL);
    CHECK(bound_texture(other, 1) == NULL);
    /* a NULL device with a value that a zeroed entry would hold */
    CHECK_RESULT(xgd_set_texture(NULL, 0, a), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_set_texture(NULL, 0, NULL), XGD_ERROR_INVALID_ARGUMENT);

    /* another object's destroy: a still answers, and after its own destroy it is disposed */
    xgd_blend_state *s = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &s));
    xgd_blend_state_destroy(s);
    CHECK_OK(xgd_set_texture(dev, 1, a));
    CHECK_OK(xgd_set_texture(dev, 1, b));
    CHECK_OK(xgd_set_texture(dev, 1, a));
    xgd_texture_destroy(a);
    CHECK_RESULT(xgd_set_texture(dev, 1, a), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_set_texture(dev, 2, b));

    /* two handles on one memo entry (slot indices 32 apart), set in turn */
    enum { N = XGDI_TEXTURE_MEMO_USED + 1 };
    xgd_texture *m[N];
    for (int i = 0; i < N; i++) REQUIRE_OK(xgd_texture2d_create(dev, &d, &m[i]));
    xgd_texture *x = NULL, *y = NULL;
    for (int i = 0; i < N && x == NULL; i++)
        for (int j = i + 1; j < N; j++)
            if (xgdi_texture_memo_entry(m[i]) == xgdi_texture_memo_entry(m[j])) {
                x = m[i];
                y = m[j];
                break;
            }
    REQUIRE(x != NULL); /* N handles on XGDI_TEXTURE_MEMO_USED entries */
    for (int round = 0; round < 3; round++) {
        CHECK_OK(xgd_set_texture(dev, 0, x));
        CHECK(bound_texture(dev, 0) == x);
        CHECK_OK(xgd_set_texture(dev, 0, y));
        CHECK(bound_texture(dev, 0) == y);
    }
    /* one of them destroyed: the other answers, the destroyed one is disposed */
    xgd_texture_destroy(x);
    CHECK_RESULT(xgd_set_texture(dev, 0, x), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(bound_texture(dev, 0) == y);
    CHECK_OK(xgd_set_texture(dev, 0, y));
    /* a value of another type on the entry of a remembered texture is no texture */
    xgd_blend_state *z = NULL;
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &z));
    CHECK_RESULT(xgd_set_texture(dev, 0, (xgd_texture *)z), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(bound_texture(dev, 0) == y);
    xgd_blend_state_destroy(z);
    for (int i = 0; i < N; i++) xgd_texture_destroy(m[i]); /* x's again is a no-op */
    xgd_texture_destroy(b);
    xgd_texture_destroy(c);
    xgd_device_destroy(other);
    xgd_device_destroy(dev);
}

/* Memory is bounded by the peak number of live objects: churn through many more objects than
 * are ever alive at once, and the table does not grow past that peak. */
XGD_TEST(handles_table_bounded_by_live_peak)
{
    xgd_device *dev = table_device(t);
    REQUIRE(dev);
    enum { LIVE = 50, ROUNDS = 400 };
    xgd_blend_state *s[LIVE];
    for (int i = 0; i < LIVE; i++) REQUIRE_OK(xgd_blend_state_create(dev, NULL, &s[i]));
    uint32_t used = xgdi_handle_debug_slots_used();
    for (int round = 0; round < ROUNDS; round++) {
        int k = round % LIVE;
        xgd_blend_state_destroy(s[k]);
        REQUIRE_OK(xgd_blend_state_create(dev, NULL, &s[k]));
    }
    CHECK_INT(xgdi_handle_debug_slots_used(), used);
    for (int i = 0; i < LIVE; i++) xgd_blend_state_destroy(s[i]);
    xgd_device_destroy(dev);
}
