/*
 * effect.h - the xgd_effect object (src/shader/effect.c: creation, derived effects' class and
 * state, destruction and the spare bodies of derived effects, apply). Everything inside an
 * effect body is src/shader/fx.c.
 */
#ifndef XGD_EFFECT_OBJECT_H
#define XGD_EFFECT_OBJECT_H

#include "fx.h"

struct xgd_effect {
    xgdi_resource res;
    xgdi_fx *fx;                      /* the effect body */
    const xgd_effect_class *cls;      /* derived effects (xgd_effect_create_derived); else NULL */
    void *state;                      /* cls->state_size bytes, owned; NULL when 0 */
    bool applying;                    /* inside its class's on_apply (no nested apply) */
};

#endif
