/*
 * sw_user.c - user shaders on the software renderer: the shader form of renderer.h (SPIR-V)
 * runs in the SPIR-V executor (sw_spirv.c). Creation loads and validates the module once and
 * finds the interface registers by the form's rules (constants at binding 0 or 1, samplers at
 * binding 2 + s, varyings and vertex inputs by location); sw_raster.c runs it per draw.
 */
#include "sw_internal.h"
#include "sw_spirv.h"

#include <stdlib.h>
#include <string.h>

xgd_result sw_op_shader_create(xgdi_renderer *base, const xgdi_shader_desc *desc,
                               xgdi_native_shader **out)
{
    char err[256] = "";
    xgdi_sw_spirv_module *m = NULL;
    xgd_result res = xgdi_sw_spirv_load(desc->code, desc->word_count, "main", &m, err, sizeof err);
    if (res != XGD_OK) {
        const char *name = desc->debug_name != NULL ? desc->debug_name : "shader";
        if (res == XGD_ERROR_OUT_OF_MEMORY)
            return xgdi_fail(base->device, res, "software: out of memory loading %s", name);
        /* a module of the form that the executor cannot run is a limit of this renderer */
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED,
                         "software: %s cannot run in the SPIR-V executor: %s", name, err);
    }
    const xgdi_sw_spirv_reflection *rf = xgdi_sw_spirv_reflect(m);
    xgdi_sw_spirv_stage want = desc->stage == XGDI_SHADER_VERTEX ? XGDI_SW_SPIRV_VERTEX
                                                                   : XGDI_SW_SPIRV_FRAGMENT;
    if (rf->stage != want) {
        xgdi_sw_spirv_free(m);
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: shader stage does not match its entry point");
    }
    xgdi_native_shader *s = calloc(1, sizeof *s);
    if (s == NULL) {
        xgdi_sw_spirv_free(m);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "software: out of memory");
    }
    /* one state per thread that may run the shader (banded draws run it on every worker) */
    int n = sw_pool_threads(sw_cast(base)->pool);
    s->states = calloc((size_t)n, sizeof *s->states);
    res = s->states != NULL ? XGD_OK : XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < n && res == XGD_OK; i++) {
        res = xgdi_sw_spirv_state_create(m, &s->states[i]);
        if (res == XGD_OK) s->nstates = i + 1;
    }
    if (res != XGD_OK) {
        for (int i = 0; i < s->nstates; i++) xgdi_sw_spirv_state_free(s->states[i]);
        free(s->states);
        free(s);
        xgdi_sw_spirv_free(m);
        return xgdi_fail(base->device, res, "software: out of memory for a shader state");
    }
    s->state = s->states[0];
    s->module = m;
    s->stage = desc->stage;
    s->discards = rf->discards;
    s->block = -1;
    int binding = desc->stage == XGDI_SHADER_VERTEX ? XGDI_SHADER_BINDING_VS_CONSTANTS
                                                    : XGDI_SHADER_BINDING_PS_CONSTANTS;
    for (int i = 0; i < rf->uniform_block_count; i++)
        if (rf->uniform_blocks[i].set == 0 && rf->uniform_blocks[i].binding == binding) s->block = i;
    for (int i = 0; i < XGDI_SHADER_LOCATION_COUNT; i++) s->in_reg[i] = s->out_reg[i] = SW_NO_REG;
    s->position_reg = s->frag_coord_reg = s->front_facing_reg = s->frag_depth_reg = SW_NO_REG;
    for (int i = 0; i < SW_MAX_TARGETS; i++) s->color_reg[i] = SW_NO_REG;
    for (int i = 0; i < XGDI_SHADER_MAX_SAMPLERS; i++) s->sampler_resource[i] = -1;
    for (int i = 0; i < rf->io_count; i++) {
        const xgdi_sw_spirv_io *io = &rf->io[i];
        int comps = io->components < 4 ? io->components : 4;
        if (io->builtin != XGDI_SW_SPIRV_BUILTIN_NONE) {
            if (io->builtin == XGDI_SW_SPIRV_BUILTIN_POSITION && io->output) s->position_reg = io->reg;
            else if (io->builtin == XGDI_SW_SPIRV_BUILTIN_FRAG_COORD) s->frag_coord_reg = io->reg;
            else if (io->builtin == XGDI_SW_SPIRV_BUILTIN_FRONT_FACING) s->front_facing_reg = io->reg;
            else if (io->builtin == XGDI_SW_SPIRV_BUILTIN_FRAG_DEPTH) s->frag_depth_reg = io->reg;
            continue;
        }
        if (io->location < 0 || io->location >= XGDI_SHADER_LOCATION_COUNT) continue;
        if (io->output) {
            s->out_reg[io->location] = io->reg;
            s->out_comps[io->location] = (uint8_t)comps;
        } else {
            s->in_reg[io->location] = io->reg;
            s->in_comps[io->location] = (uint8_t)comps;
        }
    }
    if (desc->stage == XGDI_SHADER_PIXEL) {
        for (int i = 0; i < SW_MAX_TARGETS; i++) {
            s->color_reg[i] = s->out_reg[i];
            s->color_comps[i] = s->out_comps[i];
        }
    }
    {   /* pixel registers s at binding SAMPLER0 + s, vertex registers (vertex texture slots)
           at VERTEX_SAMPLER0 + s */
        bool vertex = desc->stage == XGDI_SHADER_VERTEX;
        int first = vertex ? XGDI_SHADER_BINDING_VERTEX_SAMPLER0 : XGDI_SHADER_BINDING_SAMPLER0;
        int count = vertex ? XGDI_SHADER_MAX_VERTEX_SAMPLERS : XGDI_SHADER_MAX_SAMPLERS;
        for (int i = 0; i < rf->resource_count; i++) {
            const xgdi_sw_spirv_resource *q = &rf->resources[i];
            int reg = q->binding - first;
            if (q->set == 0 && q->kind == XGDI_SW_SPIRV_SAMPLED_IMAGE && reg >= 0 && reg < count)
                s->sampler_resource[reg] = i;
        }
    }
    if (desc->stage == XGDI_SHADER_PIXEL && !sw_cast(base)->executor_only)
        s->modulate = xgdi_sw_spirv_match_modulate(m, &s->mod);
    if (!sw_cast(base)->executor_only && !s->modulate) {
        /* a shader of another shape, or no memory for the match: the executor runs it */
        s->transform = malloc(sizeof *s->transform);
        if (s->transform != NULL && !xgdi_sw_spirv_match_transform(m, s->transform)) {
            free(s->transform);
            s->transform = NULL;
        }
    }
    if (desc->stage == XGDI_SHADER_VERTEX && s->position_reg == SW_NO_REG) {
        sw_op_shader_destroy(base, s);
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "software: vertex shader writes no Position");
    }
    *out = s;
    return XGD_OK;
}

void sw_op_shader_destroy(xgdi_renderer *base, xgdi_native_shader *s)
{
    (void)base;
    if (s == NULL) return;
    for (int i = 0; i < s->nstates; i++) xgdi_sw_spirv_state_free(s->states[i]);
    free(s->states);
    free(s->transform);
    xgdi_sw_spirv_free(s->module);
    free(s);
}
