/*
 * fx.h - effects loaded from bytes (compiled xgd effects, .xfx; fx_2_0 through MojoShader where
 * the build has it), the body of an xgd_effect (src/shader/effect.c owns the object;
 * src/shader/fx.c everything inside).
 */
#ifndef XGD_FX_H
#define XGD_FX_H

#include "internal.h"

typedef struct xgdi_fx xgdi_fx;

/* Parses and validates `size` bytes; on success *out is a new effect body for device (no
 * native shaders yet: they are made at the first apply). Failures are recorded on device. */
xgd_result xgdi_fx_load(xgd_device *device, const void *bytes, size_t size, xgdi_fx **out);
/* A copy of the same code with fx's current parameter values, textures and technique. */
xgd_result xgdi_fx_clone(xgd_device *device, const xgdi_fx *fx, xgdi_fx **out);
/* Frees natives (through device's renderer when device is not NULL) and the body. */
void xgdi_fx_free(xgd_device *device, xgdi_fx *fx);
/* Device loss / teardown: native shaders go (made again at the next apply). */
void xgdi_fx_release_natives(xgd_device *device, xgdi_fx *fx);
/* Shaders of the body that are in the shader form (tests: an HLSL / .xfx shader is rewritten
 * at the first apply of a pass that uses it, an fx_2_0 one at load). */
int xgdi_fx_shader_forms(const xgdi_fx *fx);
/* EffectPass.Apply (fx.c); technique -1: the current one. */
xgd_result xgdi_fx_apply(xgd_device *device, xgdi_fx *fx, int technique, int pass);

/* Derived effects' body reuse (src/shader/effect.c): keeps a copy of the loaded parameter
 * values (false: out of memory); puts back the loaded values, unset textures and technique 0;
 * whether the body was loaded from these bytes. */
bool xgdi_fx_keep_defaults(xgdi_fx *fx);
void xgdi_fx_reset(xgdi_fx *fx);
bool xgdi_fx_same_bytes(const xgdi_fx *fx, const void *bytes, size_t size);

/* src/shader/effect.c: the body of an effect (effect already resolved), the wrapping of a
 * loaded body into a new registered xgd_effect (the body is freed on failure), the same for a
 * clone of `source` (its class and a copy of its state), and a derived effect's on_apply
 * (OK for an effect of no class). */
xgdi_fx *xgdi_effect_fx(const xgd_effect *effect);
xgd_result xgdi_effect_wrap_fx(xgd_device *device, xgdi_fx *fx, xgd_effect **out);
xgd_result xgdi_effect_wrap_clone(xgd_device *device, const xgd_effect *source, xgdi_fx *fx,
                                  xgd_effect **out);
xgd_result xgdi_effect_on_apply(xgd_effect *effect);
/* src/shader/effect.c: the device of an effect handle, NULL when it does not resolve. */
xgd_device *xgdi_effect_device(const xgd_effect *effect);

#endif
