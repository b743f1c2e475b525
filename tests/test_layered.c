/*
 * test_layered.c - the public calls for libraries layered on xgd (xgd.h, "Libraries layered
 * on xgd"): registered objects behind handles, typed checks of xgd's handles, weak references,
 * the device status and sampling checks, the sprite statistics counter and the sprite
 * projection. Each call: its good case, bad input, a destroyed object, the device destroyed
 * first, another device's object. Expected values come from the documented rules.
 */
#include "harness.h"

#include <stdatomic.h>
#include <string.h>

static xgd_device *make_device(xgdt_ctx *t, xgd_graphics_profile profile)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = XGD_RENDERER_SOFTWARE;
    d.pp.headless = true;
    d.pp.back_buffer_width = 16;
    d.pp.back_buffer_height = 16;
    d.profile = profile;
    xgd_device *dev = NULL;
    CHECK_OK(xgd_device_create(&d, &dev));
    return dev;
}

static xgd_texture *make_texture(xgdt_ctx *t, xgd_device *dev, int w, int h)
{
    xgd_texture2d_desc td = { .width = w, .height = h };
    xgd_texture *tex = NULL;
    CHECK_OK(xgd_texture2d_create(dev, &td, &tex));
    return tex;
}

static bool message_has(const xgd_device *dev, const char *part)
{
    return strstr(xgd_device_last_error(dev), part) != NULL;
}

/* A layered library's object: counts its device-destroyed calls. */
typedef struct widget {
    int device_destroyed_calls;
    void *seen;
} widget;

static void widget_device_destroyed(void *object)
{
    widget *w = object;
    w->device_destroyed_calls++;
    w->seen = object;
}

static const xgd_resource_class widget_class = { "widget", widget_device_destroyed };
static const xgd_resource_class gadget_class = { "gadget", NULL };

XGD_TEST(layered_register_resolve_unregister)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_statistics before;
    CHECK_OK(xgd_device_get_statistics(dev, &before));
    widget w = { 0, NULL };
    void *h = NULL;
    CHECK_OK(xgd_resource_register(dev, &widget_class, &w, &h));
    CHECK(h != NULL);
    CHECK(h != (void *)&w); /* a handle, not the address */
    xgd_statistics after;
    CHECK_OK(xgd_device_get_statistics(dev, &after));
    CHECK_INT(after.live_resources, before.live_resources + 1);

    void *obj = NULL;
    xgd_device *owner = NULL;
    CHECK_OK(xgd_resource_resolve(NULL, h, &widget_class, NULL, &obj, &owner));
    CHECK(obj == &w);
    CHECK(owner == dev);
    obj = NULL;
    CHECK_OK(xgd_resource_resolve(dev, h, &widget_class, "w", &obj, NULL));
    CHECK(obj == &w);
    CHECK(xgd_resource_is_live(dev, h));

    /* another class: named with both class names, on the object's device */
    obj = &w;
    CHECK_RESULT(xgd_resource_resolve(NULL, h, &gadget_class, "g", &obj, &owner),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(obj == NULL && owner == NULL);
    CHECK(message_has(dev, "g is a widget, not a gadget"));
    /* xgd's own object as a layered one, and a layered one as xgd's */
    xgd_texture *tex = make_texture(t, dev, 4, 4);
    CHECK_RESULT(xgd_resource_resolve(NULL, tex, &widget_class, NULL, &obj, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(dev, "widget is a texture, not a widget"));
    CHECK_RESULT(xgd_texture_get_info(h, &(xgd_texture_info){ 0 }), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(NULL, "is a widget, not a texture"));
    /* bad input */
    CHECK_RESULT(xgd_resource_resolve(dev, NULL, &widget_class, NULL, &obj, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(dev, "widget is NULL"));
    CHECK_RESULT(xgd_resource_resolve(dev, (void *)(uintptr_t)0x1000, &widget_class, NULL, &obj,
                                      NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_resolve(dev, h, NULL, NULL, &obj, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_resolve(dev, h, &widget_class, NULL, NULL, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);

    /* unregister: another class or no handle changes nothing */
    CHECK(xgd_resource_unregister(h, &gadget_class) == NULL);
    CHECK(xgd_resource_unregister(NULL, &widget_class) == NULL);
    CHECK(xgd_resource_unregister(tex, &widget_class) == NULL);
    CHECK(xgd_resource_unregister(h, NULL) == NULL);
    CHECK_OK(xgd_resource_resolve(NULL, h, &widget_class, NULL, &obj, NULL));
    CHECK(xgd_resource_unregister(h, &widget_class) == &w);
    CHECK_INT(w.device_destroyed_calls, 0);
    CHECK_OK(xgd_device_get_statistics(dev, &after));
    CHECK_INT(after.live_resources, before.live_resources + 1); /* the texture */
    /* destroyed: every copy of the handle answers OBJECT_DISPOSED, even with a new object in
       its slot */
    widget w2 = { 0, NULL };
    void *h2 = NULL;
    CHECK_OK(xgd_resource_register(dev, &widget_class, &w2, &h2));
    CHECK(h2 != h);
    obj = &w;
    CHECK_RESULT(xgd_resource_resolve(NULL, h, &widget_class, NULL, &obj, NULL),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK(obj == NULL);
    CHECK(!xgd_resource_is_live(dev, h));
    CHECK(xgd_resource_unregister(h, &widget_class) == NULL); /* a second destroy: no-op */
    CHECK(xgd_resource_unregister(h2, &widget_class) == &w2);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_TEST(layered_register_bad_input)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_statistics s0;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    widget w = { 0, NULL };
    void *h = (void *)&w;
    CHECK_RESULT(xgd_resource_register(NULL, &widget_class, &w, &h), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(h == NULL);
    h = (void *)&w;
    CHECK_RESULT(xgd_resource_register(dev, NULL, &w, &h), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(h == NULL);
    CHECK_RESULT(xgd_resource_register(dev, &widget_class, NULL, &h), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_register(dev, &widget_class, &w, NULL), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_INVALID_ARGUMENT);
    xgd_statistics s;
    CHECK_OK(xgd_device_get_statistics(dev, &s));
    CHECK_INT(s.live_resources, s0.live_resources); /* nothing registered */
    xgd_device_destroy(dev);
}

/* Device destroyed first: the object's callback runs once, the handle then answers
 * OBJECT_DISPOSED, and the owner's destroy still gets its object back to free. */
XGD_TEST(layered_device_destroyed_first)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    widget w = { 0, NULL }, g = { 0, NULL };
    void *h = NULL, *hg = NULL;
    CHECK_OK(xgd_resource_register(dev, &widget_class, &w, &h));
    CHECK_OK(xgd_resource_register(dev, &gadget_class, &g, &hg)); /* no callback */
    xgd_texture *tex = make_texture(t, dev, 4, 4);
    xgd_device_destroy(dev);
    CHECK_INT(w.device_destroyed_calls, 1);
    CHECK(w.seen == &w);
    void *obj = &w;
    xgd_device *owner = (xgd_device *)&w;
    CHECK_RESULT(xgd_resource_resolve(NULL, h, &widget_class, NULL, &obj, &owner),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK(obj == NULL && owner == NULL);
    CHECK(message_has(NULL, "disposed"));
    CHECK_RESULT(xgd_resource_resolve(NULL, hg, &gadget_class, NULL, &obj, NULL),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK(!xgd_resource_is_live(dev, tex)); /* dev is gone: compared, never followed */
    CHECK(!xgd_resource_is_live(NULL, tex));
    CHECK(xgd_resource_unregister(h, &widget_class) == &w);
    CHECK(xgd_resource_unregister(h, &widget_class) == NULL);
    CHECK(xgd_resource_unregister(hg, &gadget_class) == &g);
    CHECK_INT(w.device_destroyed_calls, 1);
    xgd_texture_destroy(tex);
}

XGD_TEST(layered_another_devices_object)
{
    xgd_device *a = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    xgd_device *b = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (a == NULL || b == NULL) return;
    widget w = { 0, NULL };
    void *h = NULL;
    CHECK_OK(xgd_resource_register(a, &widget_class, &w, &h));
    void *obj = &w;
    CHECK_RESULT(xgd_resource_resolve(b, h, &widget_class, "w", &obj, NULL),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(obj == NULL);
    CHECK_INT(xgd_device_last_result(b), XGD_ERROR_INVALID_OPERATION);
    CHECK(message_has(b, "w belongs to another device"));
    CHECK(!xgd_resource_is_live(b, h));
    CHECK(xgd_resource_is_live(a, h));
    xgd_texture *tex = make_texture(t, a, 4, 4);
    CHECK(!xgd_resource_is_live(b, tex));
    CHECK_RESULT(xgd_resource_check(b, tex, XGD_RESOURCE_TEXTURE, "tex"),
                 XGD_ERROR_INVALID_OPERATION);
    CHECK(message_has(b, "tex belongs to another device"));
    CHECK_RESULT(xgd_device_check_sampling(b, tex, NULL), XGD_ERROR_INVALID_OPERATION);
    xgd_sampler_state *sa = xgd_sampler_state_preset(a, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
    xgd_texture *tb = make_texture(t, b, 4, 4);
    CHECK_RESULT(xgd_device_check_sampling(b, tb, sa), XGD_ERROR_INVALID_OPERATION);
    /* the device destroyed first, the other still answers for its own */
    xgd_device_destroy(a);
    CHECK_RESULT(xgd_resource_resolve(b, h, &widget_class, NULL, &obj, NULL),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK_RESULT(xgd_resource_check(b, tex, XGD_RESOURCE_TEXTURE, NULL),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK(xgd_resource_unregister(h, &widget_class) == &w);
    xgd_texture_destroy(tex);
    xgd_texture_destroy(tb);
    xgd_device_destroy(b);
}

XGD_TEST(layered_resource_check_kinds)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_texture *tex = make_texture(t, dev, 4, 4);
    xgd_blend_state *blend = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
    CHECK_OK(xgd_resource_check(dev, tex, XGD_RESOURCE_TEXTURE, "tex"));
    CHECK_OK(xgd_resource_check(dev, blend, XGD_RESOURCE_BLEND_STATE, NULL));
    CHECK_RESULT(xgd_resource_check(dev, blend, XGD_RESOURCE_TEXTURE, "tex"),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(dev, "tex is a blend state, not a texture"));
    CHECK_RESULT(xgd_resource_check(dev, NULL, XGD_RESOURCE_TEXTURE, "tex"),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(dev, "tex is NULL"));
    CHECK_RESULT(xgd_resource_check(dev, tex, (xgd_resource_kind)99, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_check(dev, tex, (xgd_resource_kind)-1, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_check(NULL, tex, XGD_RESOURCE_TEXTURE, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_resource_check(dev, (void *)(uintptr_t)0x2000, XGD_RESOURCE_TEXTURE, NULL),
                 XGD_ERROR_INVALID_ARGUMENT);
    widget w = { 0, NULL };
    void *h = NULL;
    CHECK_OK(xgd_resource_register(dev, &widget_class, &w, &h));
    CHECK_RESULT(xgd_resource_check(dev, h, XGD_RESOURCE_EFFECT, "fx"),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(dev, "fx is a widget, not a effect") ||
          message_has(dev, "fx is a widget, not an effect"));
    xgd_texture *stale = tex;
    xgd_texture_destroy(tex);
    CHECK_RESULT(xgd_resource_check(dev, stale, XGD_RESOURCE_TEXTURE, "tex"),
                 XGD_ERROR_OBJECT_DISPOSED);
    CHECK(!xgd_resource_is_live(dev, stale));
    /* a new texture may take the slot: the old value still names nothing */
    xgd_texture *fresh = make_texture(t, dev, 4, 4);
    CHECK(xgd_resource_is_live(dev, fresh));
    CHECK(!xgd_resource_is_live(dev, stale));
    CHECK(!xgd_resource_is_live(dev, NULL));
    CHECK(!xgd_resource_is_live(dev, (void *)(uintptr_t)0x2000));
    CHECK(!xgd_resource_is_live(NULL, fresh));
    CHECK(xgd_resource_unregister(h, &widget_class) == &w);
    xgd_texture_destroy(fresh);
    xgd_device_destroy(dev);
}

XGD_TEST(layered_device_check_status)
{
    CHECK_RESULT(xgd_device_check_status(NULL), XGD_ERROR_INVALID_ARGUMENT);
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    CHECK_OK(xgd_device_check_status(dev));
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_RESULT(xgd_device_check_status(dev), XGD_ERROR_DEVICE_LOST);
    CHECK_INT(xgd_device_last_result(dev), XGD_ERROR_DEVICE_LOST);
    CHECK_OK(xgd_device_restore_context(dev));
    CHECK_OK(xgd_device_check_status(dev));
    xgd_device_destroy(dev);
}

XGD_TEST(layered_device_check_sampling)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_REACH);
    if (dev == NULL) return;
    xgd_texture *pow2 = make_texture(t, dev, 8, 8);
    xgd_texture *odd = make_texture(t, dev, 6, 8);
    xgd_sampler_state *wrap = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_WRAP);
    xgd_sampler_state *clamp = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP);
    CHECK_OK(xgd_device_check_sampling(dev, pow2, wrap));
    CHECK_OK(xgd_device_check_sampling(dev, odd, clamp));
    /* Reach: a size that is not a power of two needs Clamp addressing */
    CHECK_RESULT(xgd_device_check_sampling(dev, odd, wrap), XGD_ERROR_NOT_SUPPORTED);
    CHECK(message_has(dev, "6x8"));
    /* NULL sampler: the one a draw would find in slot 0 */
    CHECK_OK(xgd_set_sampler_state(dev, 0, wrap));
    CHECK_RESULT(xgd_device_check_sampling(dev, odd, NULL), XGD_ERROR_NOT_SUPPORTED);
    CHECK_OK(xgd_set_sampler_state(dev, 0, clamp));
    CHECK_OK(xgd_device_check_sampling(dev, odd, NULL));
    /* a render target bound for output cannot be sampled */
    xgd_render_target_desc rd = { .width = 8, .height = 8 };
    xgd_texture *rt = NULL;
    CHECK_OK(xgd_render_target2d_create(dev, &rd, &rt));
    CHECK_OK(xgd_device_check_sampling(dev, rt, clamp));
    xgd_render_target_binding bind = { rt, XGD_CUBE_MAP_FACE_POSITIVE_X };
    CHECK_OK(xgd_set_render_targets(dev, &bind, 1));
    CHECK_RESULT(xgd_device_check_sampling(dev, rt, clamp), XGD_ERROR_INVALID_OPERATION);
    CHECK_OK(xgd_set_render_targets(dev, NULL, 0));
    CHECK_OK(xgd_device_check_sampling(dev, rt, clamp));
    /* bad input */
    CHECK_RESULT(xgd_device_check_sampling(NULL, pow2, clamp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_device_check_sampling(dev, NULL, clamp), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_device_check_sampling(dev, pow2, (xgd_sampler_state *)pow2),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_device_check_sampling(dev, (xgd_texture *)clamp, clamp),
                 XGD_ERROR_INVALID_ARGUMENT);
    xgd_texture *stale = pow2;
    xgd_texture_destroy(pow2);
    CHECK_RESULT(xgd_device_check_sampling(dev, stale, clamp), XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_destroy(odd);
    xgd_texture_destroy(rt);
    xgd_device_destroy(dev);
}

XGD_TEST(layered_count_sprite_batch)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    xgd_device_count_sprite_batch(dev);
    xgd_device_count_sprite_batch(dev);
    xgd_device_count_sprite_batch(NULL); /* ignored */
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.sprite_batches, s0.sprite_batches + 2);
    CHECK_INT(s1.draw_calls, s0.draw_calls);
    xgd_device_destroy(dev);
}

/* v * M (XNA's row vectors), w divided out. */
static void project(const xgd_matrix *m, float x, float y, float z, float out[3])
{
    float v[4];
    for (int c = 0; c < 4; c++)
        v[c] = x * m->m[c] + y * m->m[4 + c] + z * m->m[8 + c] + m->m[12 + c];
    for (int c = 0; c < 3; c++) out[c] = v[c] / v[3];
}

XGD_TEST(layered_sprite_projection)
{
    /* D3D10 centres: CreateOrthographicOffCenter(0, w, h, 0, 0, -1): pixel edges map to the
       clip edges, y down, z kept. */
    xgd_matrix m = xgd_matrix_create_sprite_projection(100, 50, XGD_PIXEL_CENTER_D3D10);
    float p[3];
    project(&m, 0.0f, 0.0f, 0.25f, p);
    CHECK_NEAR(p[0], -1.0, 1e-6);
    CHECK_NEAR(p[1], 1.0, 1e-6);
    CHECK_NEAR(p[2], 0.25, 1e-6);
    project(&m, 100.0f, 50.0f, 1.0f, p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], -1.0, 1e-6);
    CHECK_NEAR(p[2], 1.0, 1e-6);
    /* XNA centres: the -0.5 translation first, so (0.5, 0.5) lands where (0, 0) did */
    m = xgd_matrix_create_sprite_projection(100, 50, XGD_PIXEL_CENTER_XNA);
    project(&m, 0.5f, 0.5f, 0.5f, p);
    CHECK_NEAR(p[0], -1.0, 1e-6);
    CHECK_NEAR(p[1], 1.0, 1e-6);
    CHECK_NEAR(p[2], 0.5, 1e-6);
    project(&m, 50.5f, 25.5f, 0.0f, p);
    CHECK_NEAR(p[0], 0.0, 1e-6);
    CHECK_NEAR(p[1], 0.0, 1e-6);
    /* a size below 1 counts as 1: finite values, never a division by zero */
    m = xgd_matrix_create_sprite_projection(0, -3, XGD_PIXEL_CENTER_D3D10);
    project(&m, 1.0f, 1.0f, 0.0f, p);
    CHECK_NEAR(p[0], 1.0, 1e-6);
    CHECK_NEAR(p[1], -1.0, 1e-6);
}

/* The device's choice (xgd_device_info.pixel_center) is what SpriteBatch uses: a sprite drawn
 * at integer pixel positions covers exactly its pixels under both conventions. */
XGD_TEST(layered_sprite_batch_get_device)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_sprite_batch *sb = NULL;
    CHECK_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_device *owner = NULL;
    CHECK_OK(xgd_sprite_batch_get_device(sb, &owner));
    CHECK(owner == dev);
    CHECK_RESULT(xgd_sprite_batch_get_device(sb, NULL), XGD_ERROR_INVALID_ARGUMENT);
    owner = dev;
    CHECK_RESULT(xgd_sprite_batch_get_device(NULL, &owner), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(owner == NULL);
    xgd_texture *tex = make_texture(t, dev, 4, 4);
    CHECK_RESULT(xgd_sprite_batch_get_device((xgd_sprite_batch *)tex, &owner),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(message_has(NULL, "is a texture, not a sprite batch") ||
          message_has(dev, "is a texture, not a sprite batch"));
    xgd_sprite_batch *stale = sb;
    xgd_sprite_batch_destroy(sb);
    CHECK_RESULT(xgd_sprite_batch_get_device(stale, &owner), XGD_ERROR_OBJECT_DISPOSED);
    CHECK_OK(xgd_sprite_batch_create(dev, &sb));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
    CHECK_RESULT(xgd_sprite_batch_get_device(sb, &owner), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch_destroy(sb);
}

/* xgd_resource_epoch moves on when a handle ends (a destroy of xgd's object or of a layered
 * one, a device destroy) and at nothing else: not at a create, a draw, or a destroy that does
 * nothing (NULL, a stale handle). */
XGD_TEST(layered_resource_epoch)
{
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    const uint64_t e0 = xgd_resource_epoch();
    CHECK(e0 != 0);
    xgd_texture *a = make_texture(t, dev, 4, 4), *b = make_texture(t, dev, 4, 4);
    widget w = { 0, NULL };
    void *h = NULL;
    CHECK_OK(xgd_resource_register(dev, &widget_class, &w, &h));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 1, 2, 3, 255 }));
    CHECK(xgd_resource_epoch() == e0);
    xgd_texture_destroy(NULL);
    CHECK(xgd_resource_unregister(NULL, &widget_class) == NULL);
    CHECK(xgd_resource_epoch() == e0);

    xgd_texture_destroy(a);
    const uint64_t e1 = xgd_resource_epoch();
    CHECK(e1 != e0);
    CHECK(!xgd_resource_is_live(dev, a));
    xgd_texture_destroy(a); /* stale: nothing ends */
    xgd_texture *c = make_texture(t, dev, 4, 4); /* may take a's slot */
    CHECK(xgd_resource_epoch() == e1);
    CHECK(!xgd_resource_is_live(dev, a));

    CHECK(xgd_resource_unregister(h, &widget_class) == &w);
    const uint64_t e2 = xgd_resource_epoch();
    CHECK(e2 != e1);
    CHECK(xgd_resource_unregister(h, &widget_class) == NULL);
    CHECK(xgd_resource_epoch() == e2);

    /* b and c stay live through it all, then end with their device */
    CHECK(xgd_resource_is_live(dev, b) && xgd_resource_is_live(dev, c));
    xgd_device_destroy(dev);
    const uint64_t e3 = xgd_resource_epoch();
    CHECK(e3 != e2);
    xgd_texture_destroy(b); /* a shell's handle ends too */
    CHECK(xgd_resource_epoch() != e3);
    xgd_texture_destroy(c);
}

/* xgd_resource_epoch_address: one address, whose number reads as xgd_resource_epoch() before
 * and after the epoch moves on. */
XGD_TEST(layered_resource_epoch_address)
{
    const void *p = xgd_resource_epoch_address();
    CHECK(p != NULL);
    CHECK(xgd_resource_epoch_address() == p);
    const _Atomic uint64_t *counter = (const _Atomic uint64_t *)p;
    const uint64_t e0 = atomic_load_explicit(counter, memory_order_acquire);
    CHECK(e0 == xgd_resource_epoch());
    xgd_device *dev = make_device(t, XGD_GRAPHICS_PROFILE_HIDEF);
    if (dev == NULL) return;
    xgd_texture *a = make_texture(t, dev, 4, 4);
    CHECK(atomic_load_explicit(counter, memory_order_acquire) == xgd_resource_epoch());
    xgd_texture_destroy(a);
    const uint64_t e1 = atomic_load_explicit(counter, memory_order_acquire);
    CHECK(e1 != e0);
    CHECK(e1 == xgd_resource_epoch());
    xgd_device_destroy(dev);
    CHECK(atomic_load_explicit(counter, memory_order_acquire) != e1);
    CHECK(atomic_load_explicit(counter, memory_order_acquire) == xgd_resource_epoch());
}
