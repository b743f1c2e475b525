/*
 * spirv_form.c - turns a SPIR-V module from a shader front end (MojoShader's spirv profile)
 * into the one shader form renderers consume (renderer.h, "user shaders"): the trailing data
 * after the instruction stream cut, varying and input locations set by xgdi_shader_location,
 * every resource in descriptor set 0 at the form's bindings, and the pixel-centre offset added
 * to the vertex position before every return of main.
 *
 * It edits the module as a word stream: instructions are copied one by one, decorations are
 * rewritten in place, and the few new declarations are inserted where the module layout
 * requires them (decorations before the first type, global declarations before the first
 * function). Malformed input fails by name; nothing here trusts a word count.
 */
#include "spirv_form.h"

#include <stdlib.h>
#include <string.h>

enum {
    OP_NAME = 5, OP_ENTRY_POINT = 15, OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23,
    OP_TYPE_ARRAY = 28, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_CONSTANT = 43,
    OP_FUNCTION = 54, OP_FUNCTION_END = 56, OP_VARIABLE = 59, OP_LOAD = 61, OP_STORE = 62,
    OP_ACCESS_CHAIN = 65, OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_COMPOSITE_EXTRACT = 81,
    OP_FADD = 129, OP_VECTOR_TIMES_SCALAR = 142, OP_RETURN = 253,
    DEC_BLOCK = 2, DEC_ARRAY_STRIDE = 6, DEC_BUILTIN = 11, DEC_LOCATION = 30, DEC_BINDING = 33,
    DEC_DESCRIPTOR_SET = 34, DEC_OFFSET = 35, BUILTIN_POSITION = 0, BUILTIN_FRONT_FACING = 17,
    OP_TYPE_IMAGE = 25, OP_TYPE_SAMPLED_IMAGE = 27, OP_VECTOR_SHUFFLE = 79,
    OP_IMAGE_SAMPLE_PROJ_IMPLICIT_LOD = 91, OP_IMAGE_SAMPLE_PROJ_EXPLICIT_LOD = 92, OP_SELECT = 169,
    SC_UNIFORM = 2, SC_OUTPUT = 3
};

typedef struct words {
    uint32_t *w;
    size_t n, cap;
    bool oom;
} words;

static void put(words *o, uint32_t v)
{
    if (o->oom) return;
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 1024;
        uint32_t *p = realloc(o->w, cap * sizeof *p);
        if (p == NULL) {
            o->oom = true;
            return;
        }
        o->w = p;
        o->cap = cap;
    }
    o->w[o->n++] = v;
}

static void put_inst(words *o, uint32_t op, const uint32_t *operands, uint32_t count)
{
    put(o, ((count + 1) << 16) | op);
    for (uint32_t i = 0; i < count; i++) put(o, operands[i]);
}

/* The literal string of an OpName starting at word `at` (count words long), or "" when it is
 * not terminated inside the instruction. */
static const char *name_of(const uint32_t *w, size_t at, uint32_t count, char *buf, size_t cap)
{
    size_t bytes = (size_t)(count - 2) * 4;
    const char *s = (const char *)(w + at + 2);
    size_t len = 0;
    while (len < bytes && s[len] != '\0') len++;
    if (len == bytes || len >= cap) {
        buf[0] = '\0';
    } else {
        memcpy(buf, s, len);
        buf[len] = '\0';
    }
    return buf;
}

static bool is_preamble(uint32_t op)
{
    /* capability .. execution mode, debug, annotations */
    return op == 17 || op == 10 || op == 11 || op == 14 || op == OP_ENTRY_POINT || op == 16 ||
           (op >= 3 && op <= 8) || (op >= OP_DECORATE && op <= 75) || op == 0 || op == 1;
}

xgd_result xgdi_spirv_form(const xgdi_spirv_form_input *in, uint32_t **out_words,
                           size_t *out_count, char *err, size_t err_cap)
{
#define FAIL(code, ...)                                                                          \
    do {                                                                                         \
        snprintf(err, err_cap, __VA_ARGS__);                                                     \
        free(o.w);                                                                               \
        return (code);                                                                           \
    } while (0)
    words o = { 0 };
    *out_words = NULL;
    *out_count = 0;
    size_t total = in->byte_count / 4;
    const uint32_t *w = in->words;
    if (in->byte_count % 4 != 0 || total < 5 || w[0] != 0x07230203u)
        FAIL(XGD_ERROR_INVALID_ARGUMENT, "the SPIR-V module has no valid header");
    /* the instruction stream ends where a zero word count (the front end's own trailing data)
       or the end of the bytes is */
    size_t end = 5;
    while (end < total) {
        uint32_t count = w[end] >> 16;
        if (count == 0) break;
        if (count > total - end) FAIL(XGD_ERROR_INVALID_ARGUMENT, "a SPIR-V instruction overruns the module");
        end += count;
    }
    uint32_t bound = w[3];
    if (bound == 0 || bound > 0x3fffff) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the SPIR-V id bound %u is invalid", bound);

    /* pass 1: names, the entry function, types the fix-up needs, the position and blocks */
    uint32_t main_fn = 0, pos_var = 0, t_float = 0, t_vec4 = 0, t_int = 0, t_ptr_u_vec4 = 0;
    uint32_t block_var = 0;
    uint32_t *kind_of = calloc(bound, sizeof *kind_of); /* 1 + index into in->vars, or marks */
    uint32_t *type_of_var = calloc(bound, sizeof *type_of_var);
    uint32_t *ptr_pointee = calloc(bound, sizeof *ptr_pointee);
    uint32_t *struct_member0 = calloc(bound, sizeof *struct_member0);
    /* D3D9 rules MojoShader's SPIR-V misses (fixed in pass 2): marks per id */
    enum { M_2D = 1, M_FRONT_FACING = 2, M_LOADED_VEC4 = 4 };
    uint8_t *mark = calloc(bound, 1);
    uint32_t front_facing = 0;
    if (kind_of == NULL || type_of_var == NULL || ptr_pointee == NULL || struct_member0 == NULL ||
        mark == NULL) {
        free(mark);
        free(kind_of);
        free(type_of_var);
        free(ptr_pointee);
        free(struct_member0);
        FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    enum { K_BLOCK = 0x10000, K_SAMPLER = 0x20000, K_VAR = 0x40000 };
    const char *prefix = in->stage == XGDI_SHADER_VERTEX ? "vs_" : "ps_";
    xgd_result rc = XGD_OK;
    char name[64];
    for (size_t i = 5; i < end; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        const uint32_t *a = w + i + 1;
        /* 2D sampler variables: image type Dim 2D -> sampled image -> pointer -> variable */
        if (op == OP_TYPE_IMAGE && count >= 4 && a[0] < bound && a[2] == 1) mark[a[0]] |= M_2D;
        if (op == OP_TYPE_SAMPLED_IMAGE && count >= 3 && a[0] < bound && a[1] < bound)
            mark[a[0]] |= mark[a[1]] & M_2D;
        if (op == OP_TYPE_POINTER && count >= 4 && a[0] < bound && a[2] < bound)
            mark[a[0]] |= mark[a[2]] & M_2D;
        if (op == OP_VARIABLE && count >= 4 && a[0] < bound && a[1] < bound)
            mark[a[1]] |= mark[a[0]] & M_2D;
        if (op == OP_DECORATE && count >= 4 && a[0] < bound && a[1] == DEC_BUILTIN &&
            a[2] == BUILTIN_FRONT_FACING && in->stage == XGDI_SHADER_PIXEL)
            front_facing = a[0];
        if (op == OP_ENTRY_POINT && count >= 3) main_fn = a[1];
        else if (op == OP_TYPE_FLOAT && count == 3 && a[1] == 32) t_float = a[0];
        else if (op == OP_TYPE_INT && count == 4 && a[1] == 32 && a[2] == 1) t_int = a[0];
        else if (op == OP_TYPE_VECTOR && count == 4 && a[2] == 4 && a[1] == t_float && t_float) t_vec4 = a[0];
        else if (op == OP_TYPE_POINTER && count == 4 && a[0] < bound) {
            ptr_pointee[a[0]] = a[2];
            if (a[1] == SC_UNIFORM && a[2] == t_vec4 && t_vec4) t_ptr_u_vec4 = a[0];
        } else if (op == OP_TYPE_STRUCT && count >= 3 && a[0] < bound) struct_member0[a[0]] = a[1];
        else if (op == OP_VARIABLE && count >= 4 && a[1] < bound) type_of_var[a[1]] = a[0];
        else if (op == OP_DECORATE && count >= 4 && a[0] < bound && a[1] == DEC_BUILTIN &&
                 a[2] == BUILTIN_POSITION && in->stage == XGDI_SHADER_VERTEX)
            pos_var = a[0];
        else if (op == OP_NAME && count >= 3 && a[0] < bound) {
            name_of(w, i, count, name, sizeof name);
            if (strncmp(name, prefix, 3) != 0) continue;
            const char *n = name + 3;
            if (strcmp(n, "uniforms") == 0) {
                kind_of[a[0]] = K_BLOCK;
                block_var = a[0];
            } else if (n[0] == 's' && n[1] >= '0' && n[1] <= '9') {
                int reg = atoi(n + 1);
                if (in->stage == XGDI_SHADER_VERTEX) {
                    rc = XGD_ERROR_NOT_SUPPORTED;
                    snprintf(err, err_cap, "vertex shader samplers (vertex texture fetch) are not supported");
                } else if (reg >= XGDI_SHADER_MAX_SAMPLERS) {
                    rc = XGD_ERROR_NOT_SUPPORTED;
                    snprintf(err, err_cap, "sampler register s%d is beyond s15", reg);
                } else {
                    kind_of[a[0]] = K_SAMPLER | (uint32_t)reg;
                }
            } else {
                for (int v = 0; v < in->var_count; v++)
                    if (strcmp(n, in->vars[v].name) == 0) kind_of[a[0]] = K_VAR | (uint32_t)v;
            }
        }
        if (rc != XGD_OK) break;
    }
    uint32_t next_id = bound;
    uint32_t block_array = 0, new_len = 0, block_ptr_u = t_ptr_u_vec4;
    bool make_block = false;
    if (rc == XGD_OK && in->stage == XGDI_SHADER_VERTEX) {
        if (pos_var == 0) {
            rc = XGD_ERROR_INVALID_ARGUMENT;
            snprintf(err, err_cap, "the vertex shader writes no position");
        } else if (t_float == 0 || t_vec4 == 0) {
            rc = XGD_ERROR_INVALID_ARGUMENT;
            snprintf(err, err_cap, "the vertex shader lacks the float or float4 types");
        } else if (block_var != 0) {
            uint32_t st = ptr_pointee[type_of_var[block_var]];
            block_array = st < bound ? struct_member0[st] : 0;
            if (block_array == 0) {
                rc = XGD_ERROR_INVALID_ARGUMENT;
                snprintf(err, err_cap, "the vertex uniform block has an unexpected type");
            }
        } else {
            make_block = true;
        }
    }
    free(type_of_var);
    free(ptr_pointee);
    free(struct_member0);
    if (rc != XGD_OK) {
        free(mark);
        free(kind_of);
        free(o.w);
        return rc; /* err holds the message */
    }
    /* ids of the additions */
    uint32_t id_len = 0, id_idx = 0, id_zero = 0, id_arr = 0, id_struct = 0, id_ptr_struct = 0;
    bool make_int = false;
    if (in->stage == XGDI_SHADER_VERTEX) {
        if (t_int == 0) {
            make_int = true;
            t_int = next_id++;
        }
        id_len = next_id++;
        id_idx = next_id++;
        id_zero = next_id++;
        if (block_ptr_u == 0) block_ptr_u = next_id++;
        if (make_block) {
            id_arr = next_id++;
            id_struct = next_id++;
            id_ptr_struct = next_id++;
            block_var = next_id++;
        }
    }
    /* vFace: Direct3D 9 gives +1 / -1 (front / back); MojoShader selects 1 or 0 */
    uint32_t id_minus_one = front_facing != 0 && t_float != 0 ? next_id++ : 0;
    bool pixel_globals_added = false;
    uint32_t pixel_offset_index = (uint32_t)in->register_count; /* r[N-1] */
    new_len = (uint32_t)in->register_count + 1;

    /* pass 2: copy with edits */
    for (int i = 0; i < 5; i++) put(&o, w[i]);
    bool decorations_added = false, globals_added = false, in_main = false;
    for (size_t i = 5; i < end && rc == XGD_OK; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        const uint32_t *a = w + i + 1;
        if (!decorations_added && !is_preamble(op)) {
            decorations_added = true;
            if (make_block) {
                put_inst(&o, OP_DECORATE, (uint32_t[]){ id_arr, DEC_ARRAY_STRIDE, 16 }, 3);
                put_inst(&o, OP_DECORATE, (uint32_t[]){ id_struct, DEC_BLOCK }, 2);
                put_inst(&o, OP_MEMBER_DECORATE, (uint32_t[]){ id_struct, 0, DEC_OFFSET, 0 }, 4);
                put_inst(&o, OP_DECORATE, (uint32_t[]){ block_var, DEC_DESCRIPTOR_SET, 0 }, 3);
                put_inst(&o, OP_DECORATE,
                         (uint32_t[]){ block_var, DEC_BINDING, XGDI_SHADER_BINDING_VS_CONSTANTS }, 3);
            }
        }
        if (!globals_added && op == OP_FUNCTION && in->stage == XGDI_SHADER_VERTEX) {
            globals_added = true;
            if (make_int) put_inst(&o, OP_TYPE_INT, (uint32_t[]){ t_int, 32, 1 }, 3);
            put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_int, id_idx, pixel_offset_index }, 3);
            put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_int, id_zero, 0 }, 3);
            if (block_ptr_u != t_ptr_u_vec4)
                put_inst(&o, OP_TYPE_POINTER, (uint32_t[]){ block_ptr_u, SC_UNIFORM, t_vec4 }, 3);
            if (make_block) {
                put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_int, id_len, new_len }, 3);
                put_inst(&o, OP_TYPE_ARRAY, (uint32_t[]){ id_arr, t_vec4, id_len }, 3);
                put_inst(&o, OP_TYPE_STRUCT, (uint32_t[]){ id_struct, id_arr }, 2);
                put_inst(&o, OP_TYPE_POINTER, (uint32_t[]){ id_ptr_struct, SC_UNIFORM, id_struct }, 3);
                put_inst(&o, OP_VARIABLE, (uint32_t[]){ id_ptr_struct, block_var, SC_UNIFORM }, 3);
            }
        }
        if (!pixel_globals_added && op == OP_FUNCTION && id_minus_one != 0) {
            pixel_globals_added = true;
            put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_float, id_minus_one, 0xbf800000u }, 3);
        }
        if (op == OP_LOAD && count >= 4 && a[1] < bound && a[2] < bound) {
            if (mark[a[2]] & M_2D) mark[a[1]] |= M_2D;
            if (a[2] == front_facing && front_facing != 0) mark[a[1]] |= M_FRONT_FACING;
            if (a[0] == t_vec4 && t_vec4 != 0) mark[a[1]] |= M_LOADED_VEC4;
        }
        if (op == OP_SELECT && count == 6 && id_minus_one != 0 && a[0] == t_float && a[2] < bound &&
            (mark[a[2]] & M_FRONT_FACING)) {
            put_inst(&o, OP_SELECT, (uint32_t[]){ a[0], a[1], a[2], a[3], id_minus_one }, 5);
            continue;
        }
        /* texldp divides by w (Direct3D 9); SPIR-V's projective 2D sample divides by the third
           component, so the coordinate becomes (x, y, w, w) */
        if ((op == OP_IMAGE_SAMPLE_PROJ_IMPLICIT_LOD || op == OP_IMAGE_SAMPLE_PROJ_EXPLICIT_LOD) &&
            count >= 5 && a[2] < bound && (mark[a[2]] & M_2D) && a[3] < bound &&
            (mark[a[3]] & M_LOADED_VEC4)) {
            uint32_t xyww = next_id++;
            put_inst(&o, OP_VECTOR_SHUFFLE, (uint32_t[]){ t_vec4, xyww, a[3], a[3], 0, 1, 3, 3 }, 8);
            put(&o, w[i]);
            put(&o, a[0]);
            put(&o, a[1]);
            put(&o, a[2]);
            put(&o, xyww);
            for (uint32_t k = 5; k < count; k++) put(&o, w[i + k]);
            continue;
        }
        if (op == OP_FUNCTION && count >= 3) in_main = a[1] == main_fn;
        if (op == OP_FUNCTION_END) in_main = false;
        if (op == OP_DECORATE && count >= 3 && a[0] < bound && kind_of[a[0]] != 0) {
            uint32_t k = kind_of[a[0]];
            if (a[1] == DEC_LOCATION && count == 4 && (k & K_VAR) &&
                !(in->stage == XGDI_SHADER_PIXEL && in->vars[k & 0xffff].output)) {
                const xgdi_spirv_form_var *v = &in->vars[k & 0xffff];
                int loc = xgdi_shader_location(v->usage, v->usage_index);
                if (loc < 0) {
                    rc = XGD_ERROR_NOT_SUPPORTED;
                    snprintf(err, err_cap, "%s %s (usage %d index %d) has no location in the shader form",
                             in->stage == XGDI_SHADER_VERTEX ? "vertex shader" : "pixel shader",
                             v->name, (int)v->usage, v->usage_index);
                    break;
                }
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_LOCATION, (uint32_t)loc }, 3);
                continue;
            }
            if (a[1] == DEC_DESCRIPTOR_SET && count == 4 && (k & (K_BLOCK | K_SAMPLER))) {
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_DESCRIPTOR_SET, 0 }, 3);
                continue;
            }
            if (a[1] == DEC_BINDING && count == 4 && (k & (K_BLOCK | K_SAMPLER))) {
                uint32_t b = (k & K_BLOCK) ? (in->stage == XGDI_SHADER_VERTEX
                                                   ? XGDI_SHADER_BINDING_VS_CONSTANTS
                                                   : XGDI_SHADER_BINDING_PS_CONSTANTS)
                                           : XGDI_SHADER_BINDING_SAMPLER0 + (k & 0xffff);
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_BINDING, b }, 3);
                continue;
            }
        }
        if (op == OP_TYPE_ARRAY && count == 4 && block_array != 0 && a[0] == block_array) {
            /* the vertex block grows by pixel_offset */
            put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_int, id_len, new_len }, 3);
            put_inst(&o, OP_TYPE_ARRAY, (uint32_t[]){ a[0], a[1], id_len }, 3);
            continue;
        }
        if (op == OP_RETURN && in_main && in->stage == XGDI_SHADER_VERTEX) {
            /* position += pixel_offset * position.w */
            uint32_t ac = next_id++, f = next_id++, p = next_id++, pw = next_id++, s = next_id++,
                     n = next_id++;
            put_inst(&o, OP_ACCESS_CHAIN, (uint32_t[]){ block_ptr_u, ac, block_var, id_zero, id_idx }, 5);
            put_inst(&o, OP_LOAD, (uint32_t[]){ t_vec4, f, ac }, 3);
            put_inst(&o, OP_LOAD, (uint32_t[]){ t_vec4, p, pos_var }, 3);
            put_inst(&o, OP_COMPOSITE_EXTRACT, (uint32_t[]){ t_float, pw, p, 3 }, 4);
            put_inst(&o, OP_VECTOR_TIMES_SCALAR, (uint32_t[]){ t_vec4, s, f, pw }, 4);
            put_inst(&o, OP_FADD, (uint32_t[]){ t_vec4, n, p, s }, 4);
            put_inst(&o, OP_STORE, (uint32_t[]){ pos_var, n }, 2);
        }
        for (uint32_t k = 0; k < count; k++) put(&o, w[i + k]);
    }
    free(kind_of);
    free(mark);
    if (rc != XGD_OK) {
        free(o.w);
        return rc;
    }
    if (o.oom) FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    if (in->stage == XGDI_SHADER_VERTEX && !globals_added)
        FAIL(XGD_ERROR_INVALID_ARGUMENT, "the vertex shader has no function");
    o.w[3] = next_id;
    *out_words = o.w;
    *out_count = o.n;
    return XGD_OK;
#undef FAIL
}
