/*
 * spirv_hlsl.c - glslang's SPIR-V of an HLSL entry point rewritten into the shader form
 * (spirv_hlsl.h says what changes and why). Like spirv_form.c it edits the module as a word
 * stream: one pass reads what the rewrite needs, a second copies instructions with edits.
 * Nothing here trusts a count or an id of the input.
 */
#include "spirv_hlsl.h"
#include "hlsl_reflect.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    OP_NAME = 5, OP_MEMBER_NAME = 6, OP_EXTENSION = 10, OP_ENTRY_POINT = 15,
    OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_VECTOR = 23, OP_TYPE_MATRIX = 24,
    OP_TYPE_IMAGE = 25, OP_TYPE_SAMPLER = 26, OP_TYPE_SAMPLED_IMAGE = 27, OP_TYPE_ARRAY = 28,
    OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32, OP_CONSTANT = 43, OP_FUNCTION = 54,
    OP_FUNCTION_END = 56, OP_VARIABLE = 59, OP_LOAD = 61, OP_STORE = 62, OP_ACCESS_CHAIN = 65,
    OP_DECORATE = 71, OP_MEMBER_DECORATE = 72, OP_COMPOSITE_EXTRACT = 81, OP_COPY_OBJECT = 83,
    OP_SAMPLED_IMAGE = 86, OP_FADD = 129, OP_VECTOR_TIMES_SCALAR = 142, OP_RETURN = 253,
    OP_DECORATE_ID = 332, OP_DECORATE_STRING = 5632, OP_MEMBER_DECORATE_STRING = 5633,
    DEC_BLOCK = 2, DEC_BUILTIN = 11, DEC_LOCATION = 30, DEC_BINDING = 33,
    DEC_DESCRIPTOR_SET = 34, DEC_OFFSET = 35, DEC_USER_SEMANTIC = 5635,
    BUILTIN_POSITION = 0, SC_UNIFORM_CONSTANT = 0, SC_INPUT = 1, SC_UNIFORM = 2, SC_OUTPUT = 3,
    DIM_2D = 1, DIM_3D = 2, DIM_CUBE = 3
};

/* what an id is (pass 1) */
enum { T_NONE = 0, T_IMAGE, T_SAMPLER, T_SIMAGE, T_STRUCT, T_MATRIX, T_ARRAY, T_OTHER };
/* what a variable becomes (pass 2) */
enum { V_NONE = 0, V_BLOCK, V_IMAGE, V_COMBINED, V_SAMPLER, V_IO };

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

static bool is_preamble(uint32_t op)
{
    return op == 17 || op == 10 || op == 11 || op == 14 || op == OP_ENTRY_POINT || op == 16 ||
           (op >= 2 && op <= 8) || (op >= OP_DECORATE && op <= 75) || op == OP_DECORATE_ID ||
           op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING || op == 0 || op == 1 ||
           op == 330;
}

/* A literal string at w[at..at+avail) (terminated inside), or NULL. */
static const char *literal(const uint32_t *w, size_t at, size_t avail)
{
    const char *s = (const char *)(w + at);
    size_t bytes = avail * 4;
    for (size_t i = 0; i < bytes; i++)
        if (s[i] == '\0') return s;
    return NULL;
}

typedef struct idinfo {
    uint8_t t;            /* T_* */
    uint8_t v;            /* V_* */
    uint8_t sc;           /* pointers and variables: storage class */
    uint8_t builtin_pos;  /* BuiltIn Position decoration */
    bool builtin;         /* any BuiltIn */
    bool block;           /* Block decoration (structs) */
    uint32_t a;           /* pointers: pointee; variables: pointer type; images: dim;
                             sampled images: image; vectors: component count */
    uint32_t binding;     /* Binding decoration (0xffffffff: none) */
    int sem;              /* index into the semantic table, -1 none */
    int slot;             /* V_IMAGE / V_COMBINED: texture slot; V_IO: new location */
    uint32_t from;        /* OpLoad results: the variable loaded; V_IMAGE: the SamplerState
                             variable first sampled with it (0 none) */
} idinfo;

/* The check (rewrite false: pass 1 and every failure, no module written) and the rewrite
 * (both passes). Every failure but OUT_OF_MEMORY is found before pass 2, so a module the check
 * accepted rewrites unless memory runs out. */
static xgd_result convert(const uint32_t *w, size_t total, xgdi_shader_stage stage, uint32_t block_bytes,
                          bool rewrite, xgdi_spirv_hlsl_out *out, char *err, size_t err_cap)
{
    memset(out, 0, sizeof *out);
    words o = { 0 };
    idinfo *id = NULL;
    char (*sems)[32] = NULL;
    /* per image type: the sampled-image type (existing or new) and a pointer to it */
    uint32_t *si_of = NULL, *ptr_si_of = NULL;
    int sem_count = 0, sem_cap = 0;
    xgd_result rc = XGD_OK;
    const bool vs = stage == XGDI_SHADER_VERTEX;
#define FAIL(code, ...)                                                                          \
    do {                                                                                         \
        snprintf(err, err_cap, __VA_ARGS__);                                                     \
        rc = (code);                                                                             \
        goto done;                                                                               \
    } while (0)
    if (total < 5 || w[0] != 0x07230203u)
        FAIL(XGD_ERROR_INVALID_ARGUMENT, "the SPIR-V module has no valid header");
    uint32_t bound = w[3];
    if (bound == 0 || bound > 0x3fffff)
        FAIL(XGD_ERROR_INVALID_ARGUMENT, "the SPIR-V id bound %u is invalid", bound);
    for (size_t i = 5; i < total;) {
        uint32_t count = w[i] >> 16;
        if (count == 0 || count > total - i)
            FAIL(XGD_ERROR_INVALID_ARGUMENT, "a SPIR-V instruction overruns the module");
        i += count;
    }
    /* one pass over the table (not calloc's zeroing and a second pass): glslang's id bounds
       run to thousands, and every effect load checks every shader */
    id = malloc(bound * sizeof *id);
    if (id == NULL) FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    const idinfo none = { .binding = 0xffffffffu, .sem = -1 };
    for (uint32_t i = 0; i < bound; i++) id[i] = none;

    /* pass 1 */
    uint32_t main_fn = 0, t_float = 0, t_vec4 = 0, t_int = 0, t_ptr_u_vec4 = 0;
    bool entry_named = false, has_function = false;
    uint32_t block_var = 0, block_struct = 0, pos_var = 0;
    int blocks = 0;
    char block_names[2][64] = { "", "" };
    for (size_t i = 5; i < total; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        const uint32_t *a = w + i + 1;
        uint32_t n = count - 1;
        if (op == OP_ENTRY_POINT && n >= 3) {
            if (main_fn != 0) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the module has more than one entry point");
            main_fn = a[1];
            entry_named = literal(w, i + 3, n - 2) != NULL;
        } else if (op == OP_FUNCTION) {
            has_function = true;
        } else if (op == OP_TYPE_FLOAT && n == 2 && a[0] < bound) {
            if (a[1] == 32) t_float = a[0];
            id[a[0]].t = T_OTHER;
        } else if (op == OP_TYPE_INT && n == 3 && a[0] < bound) {
            if (a[1] == 32 && a[2] == 1) t_int = a[0];
            id[a[0]].t = T_OTHER;
        } else if (op == OP_TYPE_VECTOR && n == 3 && a[0] < bound) {
            if (a[1] == t_float && t_float != 0 && a[2] == 4) t_vec4 = a[0];
            id[a[0]].t = T_OTHER;
            id[a[0]].a = a[2];
        } else if (op == OP_TYPE_MATRIX && n == 3 && a[0] < bound) {
            id[a[0]].t = T_MATRIX;
        } else if (op == OP_TYPE_ARRAY && n == 3 && a[0] < bound) {
            id[a[0]].t = T_ARRAY;
        } else if (op == OP_TYPE_IMAGE && n >= 8 && a[0] < bound) {
            id[a[0]].t = T_IMAGE;
            id[a[0]].a = a[2];
        } else if (op == OP_TYPE_SAMPLER && n == 1 && a[0] < bound) {
            id[a[0]].t = T_SAMPLER;
        } else if (op == OP_TYPE_SAMPLED_IMAGE && n == 2 && a[0] < bound && a[1] < bound) {
            id[a[0]].t = T_SIMAGE;
            id[a[0]].a = a[1];
        } else if (op == OP_TYPE_STRUCT && n >= 1 && a[0] < bound) {
            id[a[0]].t = T_STRUCT;
        } else if (op == OP_TYPE_POINTER && n == 3 && a[0] < bound && a[2] < bound) {
            id[a[0]].sc = (uint8_t)a[1];
            id[a[0]].a = a[2];
            if (a[1] == SC_UNIFORM && a[2] == t_vec4 && t_vec4 != 0) t_ptr_u_vec4 = a[0];
        } else if (op == OP_VARIABLE && n >= 3 && a[1] < bound && a[0] < bound) {
            id[a[1]].sc = (uint8_t)a[2];
            id[a[1]].a = a[0];
            uint32_t pointee = id[a[0]].a;
            if (pointee >= bound) FAIL(XGD_ERROR_INVALID_ARGUMENT, "a variable's type is not a pointer");
            const idinfo *pt = &id[pointee];
            if (a[2] == SC_UNIFORM && pt->t == T_STRUCT && pt->block) {
                if (blocks < 2) snprintf(block_names[blocks], sizeof block_names[0], "%u", a[1]);
                blocks++;
                block_var = a[1];
                block_struct = pointee;
                id[a[1]].v = V_BLOCK;
            } else if (a[2] == SC_UNIFORM_CONSTANT) {
                if (pt->t == T_IMAGE) id[a[1]].v = V_IMAGE;
                else if (pt->t == T_SIMAGE) id[a[1]].v = V_COMBINED;
                else if (pt->t == T_SAMPLER) id[a[1]].v = V_SAMPLER;
                else FAIL(XGD_ERROR_NOT_SUPPORTED, "arrays of textures or samplers are not supported");
            } else if (a[2] == SC_INPUT || a[2] == SC_OUTPUT) {
                id[a[1]].v = V_IO;
            } else if (a[2] == SC_UNIFORM || a[2] == 12 /* StorageBuffer */ || a[2] == 9 /* PushConstant */) {
                FAIL(XGD_ERROR_NOT_SUPPORTED, "storage buffers and push constants are not supported in effects");
            }
        } else if (op == OP_DECORATE && n >= 2 && a[0] < bound) {
            idinfo *t = &id[a[0]];
            if (a[1] == DEC_BLOCK) t->block = true;
            else if (a[1] == DEC_BINDING && n == 3) t->binding = a[2];
            else if (a[1] == DEC_BUILTIN && n == 3) {
                t->builtin = true;
                if (a[2] == BUILTIN_POSITION) t->builtin_pos = 1;
            }
        } else if (op == OP_DECORATE_STRING && n >= 3 && a[0] < bound && a[1] == DEC_USER_SEMANTIC) {
            const char *s = literal(w, i + 3, n - 2);
            if (s == NULL || strlen(s) >= 32) continue;
            if (sem_count == sem_cap) {
                int cap = sem_cap ? sem_cap * 2 : 16;
                char (*p)[32] = realloc(sems, sizeof *sems * (size_t)cap);
                if (p == NULL) FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
                sems = p;
                sem_cap = cap;
            }
            strcpy(sems[sem_count], s);
            id[a[0]].sem = sem_count++;
        } else if (op == OP_NAME && n >= 2 && a[0] < bound && blocks > 0) {
            /* names of the blocks, for messages (debug names come before the variables in a
               well-formed module: the loop after this pass finds those) */
            const char *s = literal(w, i + 2, n - 1);
            char num[16];
            snprintf(num, sizeof num, "%u", a[0]);
            for (int b = 0; b < 2 && s != NULL; b++)
                if (strcmp(block_names[b], num) == 0) snprintf(block_names[b], sizeof block_names[0], "%s", s);
        } else if ((op >= 89 && op <= 90) || (op >= 93 && op <= 107)) {
            static const char *const what[] = { "SampleCmp", "SampleCmp", "", "", "SampleCmp (projective)",
                                                "SampleCmp (projective)", "Texture.Load", "Texture.Gather",
                                                "Texture.GatherCmp", "a texture read", "a texture write",
                                                "an image query", "a texture format query",
                                                "a texture order query", "GetDimensions", "GetDimensions",
                                                "CalculateLevelOfDetail", "GetDimensions (levels)",
                                                "GetDimensions (samples)" };
            FAIL(XGD_ERROR_NOT_SUPPORTED, "%s is not supported in effects (only Sample, SampleLevel, "
                 "SampleGrad, SampleBias and tex2D-style sampling)", what[op - 89]);
        }
    }
    /* OpName comes before the variables it names: resolve block names again */
    for (size_t i = 5; i < total && blocks > 1; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        if (op != OP_NAME || count < 3 || w[i + 1] >= bound || id[w[i + 1]].v != V_BLOCK) continue;
        const char *s = literal(w, i + 2, count - 2);
        if (s == NULL) continue;
        if (strcmp(block_names[0], "") == 0 || block_names[0][0] <= '9') snprintf(block_names[0], 64, "%s", s);
        else snprintf(block_names[1], 64, "%s", s);
    }
    if (main_fn == 0) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the module has no entry point");
    if (blocks > 1)
        FAIL(XGD_ERROR_NOT_SUPPORTED,
             "the %s shader reads two constant buffers (%s, %s): xgd runs one per stage (put the "
             "parameters in one cbuffer, or declare them at global scope)",
             vs ? "vertex" : "pixel", block_names[0], block_names[1]);
    if (block_bytes > 16u * XGDI_SHADER_MAX_REGISTERS)
        FAIL(XGD_ERROR_NOT_SUPPORTED, "the constant buffer holds %u bytes, more than %d registers",
             block_bytes, XGDI_SHADER_MAX_REGISTERS);
    int nreg = (int)((block_bytes + 15) / 16);
    if (block_var == 0) nreg = 0;
    out->block_registers = nreg;
    out->constant_count = vs ? nreg + 1 : nreg;

    /* stage interface and resources */
    uint32_t tex_taken = 0;
    for (uint32_t v = 0; v < bound; v++) {
        idinfo *t = &id[v];
        if (t->v == V_IMAGE || t->v == V_COMBINED) {
            uint32_t slot = t->binding;
            if (slot >= XGDI_SHADER_MAX_SAMPLERS)
                FAIL(XGD_ERROR_NOT_SUPPORTED, "a texture at register %u: xgd's slots end at 15", slot);
            if (vs && slot >= XGDI_SHADER_MAX_VERTEX_SAMPLERS)
                FAIL(XGD_ERROR_NOT_SUPPORTED, "a vertex texture at register %u: XNA's vertex texture slots "
                     "are 0..%d", slot, XGDI_SHADER_MAX_VERTEX_SAMPLERS - 1);
            if (tex_taken & (1u << slot))
                FAIL(XGD_ERROR_INVALID_ARGUMENT,
                     "two textures share register %u (each texture needs its own t/s register)", slot);
            tex_taken |= 1u << slot;
            uint32_t img = id[id[t->a].a].t == T_SIMAGE ? id[id[t->a].a].a : id[t->a].a;
            uint32_t dim = img < bound ? id[img].a : 0;
            t->slot = (int)slot;
            out->sampler_kinds[slot] = dim == DIM_2D ? XGDI_SAMPLER_2D
                                       : dim == DIM_3D ? XGDI_SAMPLER_3D
                                       : dim == DIM_CUBE ? XGDI_SAMPLER_CUBE : XGDI_SAMPLER_NONE;
            if (out->sampler_kinds[slot] == XGDI_SAMPLER_NONE)
                FAIL(XGD_ERROR_NOT_SUPPORTED, "a texture at register %u is not 2D, 3D or cube", slot);
        } else if (t->v == V_IO) {
            bool output = t->sc == SC_OUTPUT;
            uint32_t pointee = id[t->a].a;
            if (t->builtin) {
                if (vs && output && t->builtin_pos) {
                    if (pointee != t_vec4 || t_vec4 == 0)
                        FAIL(XGD_ERROR_INVALID_ARGUMENT, "the vertex shader's SV_Position is not a float4");
                    pos_var = v;
                }
                continue;
            }
            const char *sem = t->sem >= 0 ? sems[t->sem] : NULL;
            const char *where = vs ? (output ? "vertex shader output" : "vertex shader input")
                                   : (output ? "pixel shader output" : "pixel shader input");
            if (sem == NULL) FAIL(XGD_ERROR_NOT_SUPPORTED, "a %s has no semantic", where);
            if (pointee < bound && (id[pointee].t == T_MATRIX || id[pointee].t == T_ARRAY || id[pointee].t == T_STRUCT))
                FAIL(XGD_ERROR_NOT_SUPPORTED, "%s %s is a matrix or array: declare one vector per semantic", where,
                     sem);
            int loc;
            if (!vs && output) {
                /* SV_TargetN and COLORn are render target N */
                const char *digits = NULL;
                if (strncmp(sem, "SV_TARGET", 9) == 0) digits = sem + 9;
                else if (strncmp(sem, "COLOR", 5) == 0) digits = sem + 5;
                if (digits == NULL || strlen(digits) > 1 || (digits[0] != '\0' && (digits[0] < '0' || digits[0] > '3')))
                    FAIL(XGD_ERROR_NOT_SUPPORTED, "pixel shader output semantic %s: xgd writes SV_Target0..3 "
                         "(COLOR0..3) and SV_Depth", sem);
                loc = digits[0] ? digits[0] - '0' : 0;
                out->color_outputs |= 1u << loc;
            } else {
                xgd_vertex_element_usage usage;
                int index;
                if (!xgdi_hlsl_semantic_usage(sem, &usage, &index) || (loc = xgdi_shader_location(usage, index)) < 0)
                    FAIL(XGD_ERROR_NOT_SUPPORTED,
                         "%s semantic %s is unknown: xgd passes XNA's vertex usages (POSITION, COLOR, "
                         "TEXCOORD, NORMAL, ...)", where, sem);
                if (vs && !output) {
                    if (out->input_count == XGDI_SHADER_MAX_INPUTS)
                        FAIL(XGD_ERROR_NOT_SUPPORTED, "the vertex shader has more than %d inputs",
                             XGDI_SHADER_MAX_INPUTS);
                    xgdi_shader_input *in = &out->inputs[out->input_count++];
                    in->usage = usage;
                    in->usage_index = index;
                    in->location = loc;
                }
            }
            t->slot = loc;
        }
    }
    if (vs && pos_var == 0) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the vertex shader writes no SV_Position (POSITION)");

    /* which SamplerState each texture is sampled with (its declared state applies to the slot):
       OpSampledImage of a loaded image and a loaded sampler */
    for (size_t i = 5; i < total; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        const uint32_t *a = &w[i + 1];
        if (op == OP_LOAD && count >= 4 && a[1] < bound && a[2] < bound) id[a[1]].from = a[2];
        if (op != OP_SAMPLED_IMAGE || count != 5 || a[2] >= bound || a[3] >= bound) continue;
        uint32_t img = id[a[2]].from, smp = id[a[3]].from;
        if (img == 0 || smp == 0 || id[img].v != V_IMAGE || id[smp].v != V_SAMPLER) continue;
        if (id[img].from == 0) id[img].from = smp;
        else if (id[img].from != smp) out->sampler_conflicts |= 1u << id[img].slot;
    }
    /* names of the texture slots (parameters are named after them) and of their samplers */
    uint32_t slot_image[XGDI_SHADER_MAX_SAMPLERS] = { 0 };
    for (uint32_t v = 0; v < bound; v++)
        if (id[v].v == V_IMAGE && id[v].from != 0) slot_image[id[v].slot] = v;
    for (size_t i = 5; i < total; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        if (op != OP_NAME || count < 3 || w[i + 1] >= bound) continue;
        const idinfo *t = &id[w[i + 1]];
        const char *s = literal(w, i + 2, count - 2);
        if (s != NULL && t->v == V_SAMPLER)
            for (int k = 0; k < XGDI_SHADER_MAX_SAMPLERS; k++)
                if (slot_image[k] != 0 && id[slot_image[k]].from == w[i + 1])
                    snprintf(out->sampler_state_names[k], sizeof out->sampler_state_names[0], "%s", s);
        if (t->v != V_IMAGE && t->v != V_COMBINED) continue;
        if (s != NULL) snprintf(out->sampler_names[t->slot], sizeof out->sampler_names[0], "%s", s);
    }

    /* what pass 2 refuses, found here so the check finds it too */
    if (!entry_named) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the entry point's name is not terminated");
    if (vs && !has_function) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the vertex shader has no function");
    if (!rewrite) goto done;

    /* ids of the additions */
    uint32_t next = bound;
    bool make_float = false, make_vec4 = false, make_int = false, make_ptr = false, make_block = false;
    uint32_t id_member = 0, id_arr_struct = 0, id_ptr_struct = 0;
    uint32_t member_index = 0;
    if (vs) {
        if (t_float == 0) make_float = true, t_float = next++;
        if (t_vec4 == 0) make_vec4 = true, t_vec4 = next++;
        if (t_int == 0) make_int = true, t_int = next++;
        if (t_ptr_u_vec4 == 0) make_ptr = true, t_ptr_u_vec4 = next++;
        id_member = next++;
        if (block_var == 0) {
            make_block = true;
            id_arr_struct = next++;
            id_ptr_struct = next++;
            block_var = next++;
            block_struct = id_arr_struct;
        }
    }
    si_of = calloc(bound, sizeof *si_of);
    ptr_si_of = calloc(bound, sizeof *ptr_si_of);
    if (si_of == NULL || ptr_si_of == NULL) FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t v = 0; v < bound; v++)
        if (id[v].t == T_SIMAGE && id[v].a < bound && si_of[id[v].a] == 0) si_of[id[v].a] = v;
    for (uint32_t v = 0; v < bound; v++) {
        if (id[v].v != V_IMAGE) continue;
        uint32_t img = id[id[v].a].a;
        if (si_of[img] == 0) si_of[img] = next++;
        if (ptr_si_of[img] == 0) ptr_si_of[img] = next++;
    }

    /* pass 2 */
    for (int i = 0; i < 5; i++) put(&o, w[i]);
    bool head_added = false, globals_added = false, in_main = false;
    for (size_t i = 5; i < total; i += w[i] >> 16) {
        uint32_t op = w[i] & 0xffff, count = w[i] >> 16;
        const uint32_t *a = w + i + 1;
        uint32_t n = count - 1;
        if (!head_added && !is_preamble(op)) {
            head_added = true;
            if (vs) {
                if (make_block) {
                    put_inst(&o, OP_DECORATE, (uint32_t[]){ block_struct, DEC_BLOCK }, 2);
                    put_inst(&o, OP_DECORATE, (uint32_t[]){ block_var, DEC_DESCRIPTOR_SET, 0 }, 3);
                    put_inst(&o, OP_DECORATE,
                             (uint32_t[]){ block_var, DEC_BINDING, XGDI_SHADER_BINDING_VS_CONSTANTS }, 3);
                }
                member_index = 0;
                if (!make_block) {
                    /* a hostile module's last instruction may claim fewer or more words than
                       are left, or none: read no word past the end and never stall */
                    for (size_t k = 5; k < total && (w[k] >> 16) > 0; k += w[k] >> 16)
                        if ((w[k] & 0xffff) == OP_TYPE_STRUCT && (w[k] >> 16) >= 2 && k + 1 < total &&
                            w[k + 1] == block_struct)
                            member_index = (w[k] >> 16) - 2;
                }
                put_inst(&o, OP_MEMBER_DECORATE,
                         (uint32_t[]){ block_struct, member_index, DEC_OFFSET, 16u * (uint32_t)nreg }, 4);
                /* float, float4 and int first, so the block struct can take a float4 member */
                put_inst(&o, OP_TYPE_FLOAT, (uint32_t[]){ t_float, 32 }, 2);
                put_inst(&o, OP_TYPE_VECTOR, (uint32_t[]){ t_vec4, t_float, 4 }, 3);
                put_inst(&o, OP_TYPE_INT, (uint32_t[]){ t_int, 32, 1 }, 3);
            }
        }
        if (op == OP_EXTENSION && n >= 1) {
            const char *s = literal(w, i + 1, n);
            if (s != NULL && strncmp(s, "SPV_GOOGLE_", 11) == 0) continue;
        }
        if (op == OP_DECORATE_STRING || op == OP_MEMBER_DECORATE_STRING || op == OP_DECORATE_ID) continue;
        if (vs && n >= 1 && ((op == OP_TYPE_FLOAT && a[0] == t_float) || (op == OP_TYPE_VECTOR && a[0] == t_vec4) ||
                   (op == OP_TYPE_INT && a[0] == t_int)))
            continue; /* hoisted */
        if (op == OP_ENTRY_POINT && n >= 3) {
            /* model, function, "main", interface */
            size_t name_words = 0;
            const char *s = literal(w, i + 3, n - 2);
            if (s == NULL) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the entry point's name is not terminated");
            name_words = strlen(s) / 4 + 1;
            uint32_t iface = (uint32_t)(n - 2 - name_words);
            put(&o, ((5 + iface) << 16) | OP_ENTRY_POINT);
            put(&o, a[0]);
            put(&o, a[1]);
            uint32_t mw[2];
            memcpy(mw, "main\0\0\0", 8);
            put(&o, mw[0]);
            put(&o, mw[1]);
            for (uint32_t k = 0; k < iface; k++) put(&o, a[2 + name_words + k]);
            continue;
        }
        if ((op == OP_NAME || op == OP_DECORATE || op == OP_MEMBER_NAME) && n >= 1 && a[0] < bound &&
            id[a[0]].v == V_SAMPLER)
            continue;
        if (op == OP_DECORATE && n == 3 && a[0] < bound) {
            const idinfo *t = &id[a[0]];
            if (t->v == V_IO && a[1] == DEC_LOCATION) {
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_LOCATION, (uint32_t)t->slot }, 3);
                continue;
            }
            if ((t->v == V_BLOCK || t->v == V_IMAGE || t->v == V_COMBINED) && a[1] == DEC_DESCRIPTOR_SET) {
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_DESCRIPTOR_SET, 0 }, 3);
                continue;
            }
            if ((t->v == V_BLOCK || t->v == V_IMAGE || t->v == V_COMBINED) && a[1] == DEC_BINDING) {
                uint32_t b = t->v == V_BLOCK ? (vs ? XGDI_SHADER_BINDING_VS_CONSTANTS : XGDI_SHADER_BINDING_PS_CONSTANTS)
                                             : (vs ? XGDI_SHADER_BINDING_VERTEX_SAMPLER0 : XGDI_SHADER_BINDING_SAMPLER0) +
                                                   (uint32_t)t->slot;
                put_inst(&o, OP_DECORATE, (uint32_t[]){ a[0], DEC_BINDING, b }, 3);
                continue;
            }
        }
        if (op == OP_TYPE_SAMPLED_IMAGE && n == 2 && a[1] < bound && ptr_si_of[a[1]] != 0) continue; /* hoisted */
        if (op == OP_TYPE_STRUCT && n >= 1 && vs && !make_block && a[0] == block_struct) {
            put(&o, ((count + 1) << 16) | OP_TYPE_STRUCT);
            for (uint32_t k = 0; k < n; k++) put(&o, a[k]);
            put(&o, t_vec4);
            continue;
        }
        if (op == OP_VARIABLE && n >= 3 && a[1] < bound) {
            const idinfo *t = &id[a[1]];
            if (t->v == V_SAMPLER) continue;
            if (t->v == V_IMAGE) {
                put_inst(&o, OP_VARIABLE, (uint32_t[]){ ptr_si_of[id[t->a].a], a[1], SC_UNIFORM_CONSTANT }, 3);
                continue;
            }
        }
        if (op == OP_LOAD && n >= 3 && a[2] < bound) {
            const idinfo *t = &id[a[2]];
            if (t->v == V_SAMPLER) continue;
            if (t->v == V_IMAGE) {
                put_inst(&o, OP_LOAD, (uint32_t[]){ si_of[id[t->a].a], a[1], a[2] }, 3);
                continue;
            }
        }
        if (op == OP_SAMPLED_IMAGE && n == 4) {
            /* the image operand is now the combined image-sampler itself */
            put_inst(&o, OP_COPY_OBJECT, (uint32_t[]){ a[0], a[1], a[2] }, 3);
            continue;
        }
        if (!globals_added && op == OP_FUNCTION && vs) {
            globals_added = true;
            put_inst(&o, OP_CONSTANT, (uint32_t[]){ t_int, id_member, member_index }, 3);
            if (make_ptr) put_inst(&o, OP_TYPE_POINTER, (uint32_t[]){ t_ptr_u_vec4, SC_UNIFORM, t_vec4 }, 3);
            if (make_block) {
                put_inst(&o, OP_TYPE_STRUCT, (uint32_t[]){ id_arr_struct, t_vec4 }, 2);
                put_inst(&o, OP_TYPE_POINTER, (uint32_t[]){ id_ptr_struct, SC_UNIFORM, id_arr_struct }, 3);
                put_inst(&o, OP_VARIABLE, (uint32_t[]){ id_ptr_struct, block_var, SC_UNIFORM }, 3);
            }
        }
        if (op == OP_FUNCTION && n >= 2) in_main = a[1] == main_fn;
        if (op == OP_FUNCTION_END) in_main = false;
        if (op == OP_RETURN && in_main && vs) {
            /* position += pixel_offset * position.w */
            uint32_t ac = next++, f = next++, p = next++, pw = next++, s = next++, sum = next++;
            put_inst(&o, OP_ACCESS_CHAIN, (uint32_t[]){ t_ptr_u_vec4, ac, block_var, id_member }, 4);
            put_inst(&o, OP_LOAD, (uint32_t[]){ t_vec4, f, ac }, 3);
            put_inst(&o, OP_LOAD, (uint32_t[]){ t_vec4, p, pos_var }, 3);
            put_inst(&o, OP_COMPOSITE_EXTRACT, (uint32_t[]){ t_float, pw, p, 3 }, 4);
            put_inst(&o, OP_VECTOR_TIMES_SCALAR, (uint32_t[]){ t_vec4, s, f, pw }, 4);
            put_inst(&o, OP_FADD, (uint32_t[]){ t_vec4, sum, p, s }, 4);
            put_inst(&o, OP_STORE, (uint32_t[]){ pos_var, sum }, 2);
        }
        for (uint32_t k = 0; k < count; k++) put(&o, w[i + k]);
        if (op == OP_TYPE_IMAGE && n >= 8 && a[0] < bound && ptr_si_of[a[0]] != 0) {
            /* the combined type and a pointer to it, right after the image type */
            put_inst(&o, OP_TYPE_SAMPLED_IMAGE, (uint32_t[]){ si_of[a[0]], a[0] }, 2);
            put_inst(&o, OP_TYPE_POINTER, (uint32_t[]){ ptr_si_of[a[0]], SC_UNIFORM_CONSTANT, si_of[a[0]] }, 3);
        }
    }
    (void)make_float;
    (void)make_vec4;
    (void)make_int;
    if (o.oom) FAIL(XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    if (vs && !globals_added) FAIL(XGD_ERROR_INVALID_ARGUMENT, "the vertex shader has no function");
    o.w[3] = next;
    out->words = o.w;
    out->word_count = o.n;
    o.w = NULL;
done:
    /* every exit, a failure in the second pass included (an entry point's unterminated name) */
    free(si_of);
    free(ptr_si_of);
    free(o.w);
    free(id);
    free(sems);
    if (rc != XGD_OK) {
        free(out->words);
        memset(out, 0, sizeof *out);
    }
    return rc;
#undef FAIL
}

xgd_result xgdi_spirv_from_hlsl(const uint32_t *module, size_t word_count, xgdi_shader_stage stage,
                                uint32_t block_bytes, xgdi_spirv_hlsl_out *out, char *err, size_t err_cap)
{
    return convert(module, word_count, stage, block_bytes, true, out, err, err_cap);
}

xgd_result xgdi_spirv_hlsl_check(const uint32_t *module, size_t word_count, xgdi_shader_stage stage,
                                 uint32_t block_bytes, xgdi_spirv_hlsl_out *out, char *err, size_t err_cap)
{
    return convert(module, word_count, stage, block_bytes, false, out, err, err_cap);
}
