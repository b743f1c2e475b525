/*
 * fx.h - effects loaded from bytes (compiled xgd effects, .xfx; fx_2_0 through MojoShader where
 * the build has it), the part of an xgd_effect of kind "user" (src/shader/effect.c owns the
 * object; src/shader/fx.c everything inside).
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

/* The stock effects (src/shader/stock_effect.c) drive their body directly: the id of top-level
 * parameter `name` (-1 when there is none), a float parameter's values in element, row,
 * column order (count must be its size) and a texture parameter's texture (kind checked by
 * the caller). Failures are recorded on device. */
int xgdi_fx_parameter_id(const xgdi_fx *fx, const char *name);
xgd_result xgdi_fx_set_floats(xgd_device *device, xgdi_fx *fx, int id, const float *v, int count);
xgd_result xgdi_fx_set_texture(xgd_device *device, xgdi_fx *fx, int id, xgd_texture *texture);

/* src/shader/effect.c: the body of a user effect (NULL for a stock effect; effect already
 * resolved), and the wrapping of a loaded body into a new registered xgd_effect (the body is
 * freed on failure). */
xgdi_fx *xgdi_effect_fx(const xgd_effect *effect);
xgd_result xgdi_effect_wrap_fx(xgd_device *device, xgdi_fx *fx, xgd_effect **out);
/* src/shader/effect.c: the device of an effect handle, NULL when it does not resolve (for
 * messages of the stock effects in src/graphics/stock_effects.c). */
xgd_device *xgdi_effect_device(const xgd_effect *effect);

#endif
