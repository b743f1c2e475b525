/*
 * test_effect_class.c - derived effects (xgd_effect_create_derived, xgd.h): a class's state
 * belongs to effects of that class only, is zeroed at creation and copied by clone; on_apply
 * runs before every pass apply and its failure leaves the device's applied program as it was;
 * a destroyed derived effect's body comes back for its class exactly as freshly loaded; the
 * stock effects built on it are effects (the Effect API answers on them) and report a texture
 * destroyed behind their back with one message of their own.
 */
#include "harness.h"

#include "../shaders/generated/stock_xfx.h"

#include <stdlib.h>
#include <string.h>

/* The SpriteEffect's compiled effect: MatrixTransform, Texture, one technique of one pass. */
#define PROBE_BYTES xgd_stock_xfx_sprite, sizeof xgd_stock_xfx_sprite

typedef struct probe_state {
    int value;
    xgd_result answer;                /* what on_apply returns */
} probe_state;

static int g_applies;

static xgd_result probe_apply(xgd_effect *effect, void *state)
{
    probe_state *s = state;
    g_applies++;
    if (s->answer == XGD_OK) return XGD_OK;
    xgd_device *dev = NULL;
    xgd_effect_get_device(effect, &dev);
    return xgd_device_report_error(dev, s->answer, "the probe refuses to apply");
}

static const xgd_effect_class probe_class = { "ProbeEffect", sizeof(probe_state), probe_apply };
static const xgd_effect_class other_class = { "OtherEffect", sizeof(int), NULL };

static xgd_device *class_device(xgdt_ctx *t)
{
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    return xgdt_device(t, &dd);
}

XGD_TEST(EffectClass_StateBelongsToItsClass)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = (xgd_effect *)(uintptr_t)1;
    CHECK_RESULT(xgd_effect_create_derived(dev, PROBE_BYTES, NULL, &e), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(e == NULL);
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    probe_state *s = NULL;
    CHECK_OK(xgd_effect_get_state(e, &probe_class, (void **)&s));
    REQUIRE(s != NULL);
    CHECK_INT(s->value, 0);
    CHECK_INT(s->answer, XGD_OK);
    /* another class's effect, a plain effect and a stock effect are not probes */
    void *other = (void *)(uintptr_t)1;
    CHECK_RESULT(xgd_effect_get_state(e, &other_class, &other), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(other == NULL);
    CHECK(strcmp(xgd_device_last_error(dev), "the effect is not an OtherEffect") == 0);
    xgd_effect *plain = NULL, *basic = NULL;
    REQUIRE_OK(xgd_effect_create(dev, PROBE_BYTES, &plain));
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    CHECK_RESULT(xgd_effect_get_state(plain, &probe_class, &other), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgd_effect_get_state(basic, &probe_class, &other), XGD_ERROR_INVALID_ARGUMENT);
    xgd_basic_effect_params p;
    CHECK_RESULT(xgd_basic_effect_get(e, &p), XGD_ERROR_INVALID_ARGUMENT);
    CHECK(strcmp(xgd_device_last_error(dev), "the effect is not a BasicEffect") == 0);
    CHECK_RESULT(xgd_effect_get_state(e, &probe_class, NULL), XGD_ERROR_INVALID_ARGUMENT);
    /* a stock effect is an effect: its 32 techniques are BasicEffect's permutations
       (shaders/stock/basic.fx), and its parameters are there by name */
    int count = 0;
    CHECK_OK(xgd_effect_get_technique_count(basic, &count));
    CHECK_INT(count, 32);
    xgd_effect_parameter k;
    CHECK_OK(xgd_effect_find_parameter(basic, "BasicConstants", &k));
    xgd_effect_destroy(e);
    CHECK_RESULT(xgd_effect_get_state(e, &probe_class, &other), XGD_ERROR_OBJECT_DISPOSED);
    xgd_effect_destroy(plain);
    xgd_effect_destroy(basic);
    xgd_device_destroy(dev);
}

XGD_TEST(EffectClass_CloneCopiesState)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL, *c = NULL;
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    probe_state *s = NULL, *cs = NULL;
    REQUIRE_OK(xgd_effect_get_state(e, &probe_class, (void **)&s));
    s->value = 1234;
    REQUIRE_OK(xgd_effect_clone(e, &c));
    REQUIRE_OK(xgd_effect_get_state(c, &probe_class, (void **)&cs));
    CHECK(cs != s);
    CHECK_INT(cs->value, 1234);
    cs->value = 5;
    CHECK_INT(s->value, 1234);
    xgd_effect_destroy(c);

    /* a BasicEffect's clone has its properties */
    xgd_effect *basic = NULL, *bc = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    xgd_basic_effect_params p, q;
    CHECK_OK(xgd_basic_effect_get(basic, &p));
    p.alpha = 0.5f;
    p.fog_enabled = true;
    p.fog_end = 7;
    p.world.m41 = 3;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    REQUIRE_OK(xgd_effect_clone(basic, &bc));
    xgd_effect_destroy(basic);
    CHECK_OK(xgd_basic_effect_get(bc, &q));
    CHECK(memcmp(&p, &q, sizeof p) == 0);
    xgd_effect_destroy(bc);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

XGD_TEST(EffectClass_OnApplyFailureChangesNothing)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    probe_state *s = NULL;
    REQUIRE_OK(xgd_effect_get_state(e, &probe_class, (void **)&s));
    s->answer = XGD_ERROR_INVALID_OPERATION;
    g_applies = 0;
    CHECK_RESULT(xgd_effect_apply(e), XGD_ERROR_INVALID_OPERATION);
    CHECK(strcmp(xgd_device_last_error(dev), "the probe refuses to apply") == 0);
    CHECK_INT(g_applies, 1);
    /* on_apply runs for an explicit pass too, and not for a pass that does not exist */
    CHECK_RESULT(xgd_effect_pass_apply(e, 0, 0), XGD_ERROR_INVALID_OPERATION);
    CHECK_INT(g_applies, 2);
    CHECK_RESULT(xgd_effect_pass_apply(e, 3, 0), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_INT(g_applies, 2);
    /* the pass was never applied: a draw finds no effect */
    xgd_vertex_position_color_texture v[3];
    memset(v, 0, sizeof v);
    CHECK_RESULT(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 1,
                                          xgd_vertex_declaration_stock(
                                              dev, XGD_VERTEX_POSITION_COLOR_TEXTURE)),
                 XGD_ERROR_INVALID_OPERATION);
    s->answer = XGD_OK;
    CHECK_OK(xgd_effect_apply(e));
    CHECK_INT(g_applies, 3);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

XGD_TEST(EffectClass_DisposedTextureHasTheEffectsMessage)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *basic = NULL;
    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    xgd_basic_effect_params p;
    CHECK_OK(xgd_basic_effect_get(basic, &p));
    p.texture_enabled = true;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_basic_effect_set_texture(basic, tex));
    CHECK_OK(xgd_effect_apply(basic));
    xgd_texture_destroy(tex);
    /* a new texture may take the destroyed one's slot: the effect's handle still is stale */
    xgd_texture *other = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &other));
    int logged = xgdt_log_count();
    CHECK_RESULT(xgd_effect_apply(basic), XGD_ERROR_OBJECT_DISPOSED);
    CHECK(strcmp(xgd_device_last_error(dev), "the BasicEffect's texture is disposed") == 0);
    CHECK_INT(xgdt_log_count(), logged + 1); /* that message only */
    /* without the texture variant the texture is not used, so not followed */
    p.texture_enabled = false;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_effect_apply(basic));
    xgd_texture_destroy(other);
    xgd_effect_destroy(basic);
    xgd_device_destroy(dev);
}

XGD_TEST(EffectClass_ReusedBodyStartsAsLoaded)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    /* what a fresh load holds */
    xgd_effect *plain = NULL;
    REQUIRE_OK(xgd_effect_create(dev, PROBE_BYTES, &plain));
    xgd_effect_parameter mp, tp;
    REQUIRE_OK(xgd_effect_find_parameter(plain, "MatrixTransform", &mp));
    REQUIRE_OK(xgd_effect_find_parameter(plain, "Texture", &tp));
    xgd_matrix loaded;
    CHECK_OK(xgd_effect_parameter_get_matrix(plain, mp, &loaded));
    xgd_effect_destroy(plain);

    xgd_texture *tex = NULL;
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    probe_state *s = NULL;
    REQUIRE_OK(xgd_effect_get_state(e, &probe_class, (void **)&s));
    s->value = 7;
    xgd_matrix m = xgd_matrix_create_scale(3, 4, 5);
    m.m41 = 9;
    CHECK_OK(xgd_effect_parameter_set_matrix(e, mp, &m));
    CHECK_OK(xgd_effect_parameter_set_texture(e, tp, tex));
    CHECK_OK(xgd_effect_apply(e));
    xgd_effect_destroy(e);

    /* the next probe (which may take the destroyed one's body) starts as loaded */
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    REQUIRE_OK(xgd_effect_get_state(e, &probe_class, (void **)&s));
    CHECK_INT(s->value, 0);
    xgd_matrix now;
    CHECK_OK(xgd_effect_parameter_get_matrix(e, mp, &now));
    CHECK(memcmp(&now, &loaded, sizeof now) == 0);
    xgd_texture *got = tex;
    CHECK_OK(xgd_effect_parameter_get_texture(e, tp, &got));
    CHECK(got == NULL);
    int technique = -1;
    CHECK_OK(xgd_effect_get_current_technique(e, &technique));
    CHECK_INT(technique, 0);

    /* a clone's body, destroyed last, is the one kept: it too comes back as loaded */
    xgd_effect *c = NULL;
    CHECK_OK(xgd_effect_parameter_set_matrix(e, mp, &m));
    REQUIRE_OK(xgd_effect_clone(e, &c));
    xgd_effect_destroy(e);
    xgd_effect_destroy(c);
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &probe_class, &e));
    CHECK_OK(xgd_effect_parameter_get_matrix(e, mp, &now));
    CHECK(memcmp(&now, &loaded, sizeof now) == 0);
    xgd_effect_destroy(e);

    /* and a stock effect's properties are XNA's defaults again */
    xgd_effect *basic = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    xgd_basic_effect_params p, d;
    CHECK_OK(xgd_basic_effect_get(basic, &d));
    p = d;
    p.alpha = 0.25f;
    CHECK_OK(xgd_basic_effect_set(basic, &p));
    CHECK_OK(xgd_effect_set_current_technique(basic, 5));
    xgd_effect_destroy(basic);
    REQUIRE_OK(xgd_basic_effect_create(dev, &basic));
    CHECK_OK(xgd_basic_effect_get(basic, &p));
    CHECK(memcmp(&p, &d, sizeof p) == 0);
    CHECK_OK(xgd_effect_get_current_technique(basic, &technique));
    CHECK_INT(technique, 0);
    xgd_effect_destroy(basic);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* on_apply runs with the effect alive and applies nothing itself: an apply of its own effect
   from inside it is refused (it would recurse without end), and an effect it destroys is not
   applied afterwards (its memory is gone): both named. */
static xgd_result g_inner;

static xgd_result reentrant_apply(xgd_effect *effect, void *state)
{
    (void)state;
    g_inner = xgd_effect_apply(effect);
    return XGD_OK;
}

static xgd_result destroying_apply(xgd_effect *effect, void *state)
{
    (void)state;
    xgd_effect_destroy(effect);
    return XGD_OK;
}

static const xgd_effect_class reentrant_class = { "ReentrantEffect", 0, reentrant_apply };
static const xgd_effect_class destroying_class = { "DestroyingEffect", 0, destroying_apply };

XGD_TEST(EffectClass_OnApplyCannotReenterOrOutliveItsEffect)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &reentrant_class, &e));
    g_inner = XGD_OK;
    CHECK_OK(xgd_effect_apply(e));
    CHECK_RESULT(g_inner, XGD_ERROR_INVALID_OPERATION);
    g_inner = XGD_OK;
    CHECK_OK(xgd_effect_pass_apply(e, 0, 0));
    CHECK_RESULT(g_inner, XGD_ERROR_INVALID_OPERATION);
    /* the refusal is per apply: the next one runs on_apply again */
    g_inner = XGD_OK;
    CHECK_OK(xgd_effect_apply(e));
    CHECK_RESULT(g_inner, XGD_ERROR_INVALID_OPERATION);
    xgd_effect_destroy(e);

    for (int explicit_pass = 0; explicit_pass < 2; explicit_pass++) {
        xgd_effect *d = NULL;
        REQUIRE_OK(xgd_effect_create_derived(dev, PROBE_BYTES, &destroying_class, &d));
        CHECK_RESULT(explicit_pass ? xgd_effect_pass_apply(d, 0, 0) : xgd_effect_apply(d),
                     XGD_ERROR_OBJECT_DISPOSED);
        CHECK(strstr(xgd_device_last_error(dev), "destroyed by its own on_apply") != NULL);
        CHECK_RESULT(xgd_effect_apply(d), XGD_ERROR_OBJECT_DISPOSED);
    }
    xgd_device_destroy(dev);
}

/* XNA's EffectPass.Apply: when OnApply picks another technique (BasicEffect picks its shader
   permutation from its properties), the pass is applied from the technique now current. Here
   the vertex colour property turns red vertices red; the technique current before the apply
   (0) ignores vertex colour and would draw white. */
XGD_TEST(EffectClass_PassApplyFollowsTheTechniqueOnApplyPicks)
{
    xgd_device *dev = class_device(t);
    REQUIRE(dev != NULL);
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_basic_effect_create(dev, &e));
    xgd_basic_effect_params p;
    REQUIRE_OK(xgd_basic_effect_get(e, &p));
    p.vertex_color_enabled = true;
    REQUIRE_OK(xgd_basic_effect_set(e, &p));
    int before = -1;
    CHECK_OK(xgd_effect_get_current_technique(e, &before));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 255, 255 }));
    CHECK_OK(xgd_effect_pass_apply(e, before, 0));
    int after = -1;
    CHECK_OK(xgd_effect_get_current_technique(e, &after));
    CHECK(after != before);
    const xgd_color red = { 255, 0, 0, 255 };
    const xgd_vertex_position_color v[6] = {
        { { -1, 1, 0 }, red }, { { 1, 1, 0 }, red }, { { 1, -1, 0 }, red },
        { { -1, 1, 0 }, red }, { { 1, -1, 0 }, red }, { { -1, -1, 0 }, red },
    };
    /* both triangles clockwise on screen: drawn under the default CullCounterClockwise */
    CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                      xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
    uint8_t *img = NULL;
    if (xgdt_read_back_buffer(t, dev, 8, 8, &img)) {
        const uint8_t *px = &img[(4 * 8 + 4) * 4];
        CHECK_MSG(px[0] == 255 && px[1] == 0 && px[2] == 0, "centre (%d,%d,%d), expected red",
                  px[0], px[1], px[2]);
        free(img);
    }
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}
