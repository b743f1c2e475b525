/*
 * hlsl_reflect.c - reflection of glslang's SPIR-V for HLSL entry points (hlsl_reflect.h),
 * through SPIRV-Cross' C API. The semantic table is XNA's VertexElementUsage.
 */
#include "hlsl_reflect.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    xgd_vertex_element_usage usage;
} semantic_table[] = {
    { "POSITION", XGD_VERTEX_USAGE_POSITION },
    { "POSITIONT", XGD_VERTEX_USAGE_POSITION },
    { "COLOR", XGD_VERTEX_USAGE_COLOR },
    { "TEXCOORD", XGD_VERTEX_USAGE_TEXTURE_COORDINATE },
    { "NORMAL", XGD_VERTEX_USAGE_NORMAL },
    { "BINORMAL", XGD_VERTEX_USAGE_BINORMAL },
    { "TANGENT", XGD_VERTEX_USAGE_TANGENT },
    { "BLENDINDICES", XGD_VERTEX_USAGE_BLEND_INDICES },
    { "BLENDWEIGHT", XGD_VERTEX_USAGE_BLEND_WEIGHT },
    { "DEPTH", XGD_VERTEX_USAGE_DEPTH },
    { "FOG", XGD_VERTEX_USAGE_FOG },
    { "PSIZE", XGD_VERTEX_USAGE_POINT_SIZE },
    { "TESSFACTOR", XGD_VERTEX_USAGE_TESSELLATE_FACTOR },
};

bool xgdi_hlsl_semantic_usage(const char *semantic, xgd_vertex_element_usage *usage, int *index)
{
    if (semantic == NULL) return false;
    size_t n = strlen(semantic), k = n;
    while (k > 0 && isdigit((unsigned char)semantic[k - 1])) k--;
    if (k == 0 || n - k > 2) return false;
    int idx = 0;
    for (size_t i = k; i < n; i++) idx = idx * 10 + (semantic[i] - '0');
    for (size_t t = 0; t < sizeof semantic_table / sizeof semantic_table[0]; t++) {
        const char *name = semantic_table[t].name;
        if (strlen(name) != k) continue;
        size_t i = 0;
        while (i < k && toupper((unsigned char)semantic[i]) == name[i]) i++;
        if (i == k) {
            if (usage != NULL) *usage = semantic_table[t].usage;
            if (index != NULL) *index = idx;
            return true;
        }
    }
    return false;
}

void xgdi_reflection_free(xgdi_reflection *r)
{
    if (r == NULL) return;
    free(r->inputs);
    free(r->outputs);
    free(r->buffers);
    free(r->members);
    free(r->resources);
    memset(r, 0, sizeof *r);
}

#ifndef XGD_HAVE_GLSLANG

xgd_result xgdi_hlsl_reflect(const uint32_t *words, size_t word_count, xgdi_reflection *out,
                             char *msg, size_t msg_size)
{
    (void)words;
    (void)word_count;
    if (out != NULL) memset(out, 0, sizeof *out);
    if (msg != NULL && msg_size > 0)
        snprintf(msg, msg_size, "this xgd was built without HLSL support (XGD_HLSL=OFF)");
    return XGD_ERROR_NOT_SUPPORTED;
}

#else

#include <spirv_cross_c.h>

typedef struct reflector {
    spvc_compiler compiler;
    xgdi_reflection *out;
    int member_cap, resource_cap;
    char *msg;
    size_t msg_size;
} reflector;

static xgd_result fail(reflector *rf, xgd_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static xgd_result fail(reflector *rf, xgd_result code, const char *fmt, ...)
{
    if (rf->msg != NULL && rf->msg_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(rf->msg, rf->msg_size, fmt, ap);
        va_end(ap);
    }
    return code;
}

static void copy_name(char *dst, const char *src)
{
    snprintf(dst, XGDI_REFLECT_NAME_MAX, "%s", src != NULL ? src : "");
}

static void spvc_error(void *userdata, const char *error)
{
    reflector *rf = userdata;
    if (rf->msg != NULL && rf->msg_size > 0) snprintf(rf->msg, rf->msg_size, "SPIR-V: %s", error);
}

static bool is_system_value(const char *semantic)
{
    return (toupper((unsigned char)semantic[0]) == 'S' && toupper((unsigned char)semantic[1]) == 'V' &&
            semantic[2] == '_') ||
           strcmp(semantic, "VPOS") == 0 || strcmp(semantic, "VFACE") == 0;
}

static xgd_result reflect_io(reflector *rf, spvc_resources res, spvc_resource_type type,
                             bool output, int *count, xgdi_reflect_io **list)
{
    const spvc_reflected_resource *items = NULL;
    size_t n = 0;
    if (spvc_resources_get_resource_list_for_type(res, type, &items, &n) != SPVC_SUCCESS)
        return fail(rf, XGD_ERROR_INVALID_ARGUMENT, "SPIR-V: the module's interface is unreadable");
    if (n == 0) return XGD_OK;
    *list = calloc(n, sizeof **list);
    if (*list == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    for (size_t i = 0; i < n; i++) {
        xgdi_reflect_io *io = &(*list)[i];
        const char *sem = spvc_compiler_get_decoration_string(rf->compiler, items[i].id,
                                                              SpvDecorationUserSemantic);
        if (sem == NULL || sem[0] == '\0')
            return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s %s has no HLSL semantic",
                        output ? "output" : "input", items[i].name);
        snprintf(io->semantic, sizeof io->semantic, "%s", sem);
        io->location = spvc_compiler_has_decoration(rf->compiler, items[i].id, SpvDecorationLocation)
                           ? (int)spvc_compiler_get_decoration(rf->compiler, items[i].id,
                                                               SpvDecorationLocation)
                           : -1;
        spvc_type t = spvc_compiler_get_type_handle(rf->compiler, items[i].type_id);
        if (spvc_type_get_columns(t) > 1 || spvc_type_get_num_array_dimensions(t) > 0)
            return fail(rf, XGD_ERROR_NOT_SUPPORTED,
                        "%s %s (%s) is a matrix or an array; declare one vector per semantic",
                        output ? "output" : "input", items[i].name, sem);
        io->components = (int)spvc_type_get_vector_size(t);
        io->system_value = is_system_value(sem);
        if (!io->system_value &&
            !xgdi_hlsl_semantic_usage(sem, &io->usage, &io->usage_index))
            return fail(rf, XGD_ERROR_NOT_SUPPORTED,
                        "%s %s: semantic %s has no XNA vertex usage (POSITION, COLOR, TEXCOORD, "
                        "NORMAL, BINORMAL, TANGENT, BLENDINDICES, BLENDWEIGHT, DEPTH, FOG, PSIZE, "
                        "TESSFACTOR, or SV_*)",
                        output ? "output" : "input", items[i].name, sem);
    }
    *count = (int)n;
    return XGD_OK;
}

static xgd_result push_member(reflector *rf, xgdi_reflect_member **m)
{
    xgdi_reflection *o = rf->out;
    if (o->member_count == rf->member_cap) {
        int cap = rf->member_cap ? rf->member_cap * 2 : 16;
        xgdi_reflect_member *nm = realloc(o->members, (size_t)cap * sizeof *nm);
        if (nm == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        o->members = nm;
        rf->member_cap = cap;
    }
    *m = &o->members[o->member_count++];
    memset(*m, 0, sizeof **m);
    return XGD_OK;
}

/* The members of struct type `st` (nested structs recursively, up to a depth no HLSL shader
 * reaches but a hostile module might). */
static xgd_result reflect_struct(reflector *rf, spvc_type_id st_id, int buffer, int parent,
                                 uint32_t base, int depth, const char *owner)
{
    if (depth > 16) return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s: structs nested too deeply", owner);
    spvc_type st = spvc_compiler_get_type_handle(rf->compiler, st_id);
    unsigned n = spvc_type_get_num_member_types(st);
    for (unsigned i = 0; i < n; i++) {
        xgdi_reflect_member *m;
        xgd_result r = push_member(rf, &m);
        if (r != XGD_OK) return r;
        int self = rf->out->member_count - 1;
        copy_name(m->name, spvc_compiler_get_member_name(rf->compiler, st_id, i));
        m->parent = parent;
        m->buffer = buffer;
        unsigned offset = 0, stride = 0;
        size_t size = 0;
        spvc_compiler_type_struct_member_offset(rf->compiler, st, i, &offset);
        spvc_compiler_get_declared_struct_member_size(rf->compiler, st, i, &size);
        m->offset = base + offset;
        m->size = (uint32_t)size;
        spvc_type_id mt_id = spvc_type_get_member_type(st, i);
        spvc_type mt = spvc_compiler_get_type_handle(rf->compiler, mt_id);
        unsigned dims = spvc_type_get_num_array_dimensions(mt);
        if (dims > 1)
            return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s.%s: arrays of arrays have no XNA parameter",
                        owner, m->name);
        if (dims == 1) {
            if (!spvc_type_array_dimension_is_literal(mt, 0))
                return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s.%s: an array sized by a specialization "
                            "constant", owner, m->name);
            m->elements = (int)spvc_type_get_array_dimension(mt, 0);
            if (spvc_compiler_type_struct_member_array_stride(rf->compiler, st, i, &stride) ==
                SPVC_SUCCESS)
                m->array_stride = stride;
        }
        spvc_basetype bt = spvc_type_get_basetype(mt);
        unsigned vec = spvc_type_get_vector_size(mt), cols = spvc_type_get_columns(mt);
        switch (bt) {
        case SPVC_BASETYPE_FP32: m->type = XGDI_REFLECT_FLOAT; break;
        case SPVC_BASETYPE_INT32: m->type = XGDI_REFLECT_INT; break;
        case SPVC_BASETYPE_UINT32: m->type = XGDI_REFLECT_UINT; break;
        case SPVC_BASETYPE_BOOLEAN: m->type = XGDI_REFLECT_BOOL; break;
        case SPVC_BASETYPE_STRUCT: m->type = XGDI_REFLECT_STRUCT_TYPE; break;
        default:
            return fail(rf, XGD_ERROR_NOT_SUPPORTED,
                        "%s.%s: only 32-bit float, int, uint and bool members have XNA parameter "
                        "types", owner, m->name);
        }
        if (bt == SPVC_BASETYPE_STRUCT) {
            /* an array of structs reflects its members once, at element 0's offsets (element
               k adds k array strides) */
            m->cls = XGDI_REFLECT_STRUCT;
            r = reflect_struct(rf, spvc_type_get_base_type_id(mt), buffer, self, base + offset,
                               depth + 1, owner);
            if (r != XGD_OK) return r;
            continue;
        }
        if (cols > 1) {
            /* glslang turns HLSL matrices around: an HLSL R x C matrix is a SPIR-V matrix of R
               "columns" that are C-vectors, and HLSL's column_major (the default) carries the
               SPIR-V RowMajor decoration, HLSL's row_major none. Both are undone here, so the
               shape and packing are HLSL's (tests/test_hlsl_fx.c: row_major float4x3). */
            unsigned mstride = 0;
            spvc_compiler_type_struct_member_matrix_stride(rf->compiler, st, i, &mstride);
            m->matrix_stride = mstride;
            m->row_major = !spvc_compiler_has_member_decoration(rf->compiler, st_id, i,
                                                                 SpvDecorationRowMajor);
            m->cls = XGDI_REFLECT_MATRIX;
            m->rows = (int)cols;
            m->columns = (int)vec;
        } else {
            m->cls = vec > 1 ? XGDI_REFLECT_VECTOR : XGDI_REFLECT_SCALAR;
            m->rows = 1;
            m->columns = (int)vec;
        }
    }
    return XGD_OK;
}

static xgd_result push_resource(reflector *rf, const spvc_reflected_resource *item,
                                xgdi_reflect_resource_kind kind)
{
    xgdi_reflection *o = rf->out;
    if (o->resource_count == rf->resource_cap) {
        int cap = rf->resource_cap ? rf->resource_cap * 2 : 8;
        xgdi_reflect_resource *nr = realloc(o->resources, (size_t)cap * sizeof *nr);
        if (nr == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        o->resources = nr;
        rf->resource_cap = cap;
    }
    xgdi_reflect_resource *res = &o->resources[o->resource_count++];
    memset(res, 0, sizeof *res);
    copy_name(res->name, item->name);
    res->kind = kind;
    res->set = spvc_compiler_get_decoration(rf->compiler, item->id, SpvDecorationDescriptorSet);
    res->binding = spvc_compiler_get_decoration(rf->compiler, item->id, SpvDecorationBinding);
    if (kind != XGDI_REFLECT_SAMPLER) {
        spvc_type t = spvc_compiler_get_type_handle(rf->compiler, item->base_type_id);
        if (spvc_type_get_image_arrayed(t) || spvc_type_get_image_multisampled(t))
            return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s: texture arrays and multisampled "
                        "textures have no XNA type", item->name);
        switch (spvc_type_get_image_dimension(t)) {
        case SpvDim2D: res->dim = XGDI_REFLECT_DIM_2D; break;
        case SpvDim3D: res->dim = XGDI_REFLECT_DIM_3D; break;
        case SpvDimCube: res->dim = XGDI_REFLECT_DIM_CUBE; break;
        default:
            return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s: only 2D, 3D and cube textures have XNA "
                        "types", item->name);
        }
    }
    return XGD_OK;
}

static xgd_result reflect_all(reflector *rf, const uint32_t *words, size_t word_count,
                              spvc_context ctx)
{
    spvc_parsed_ir ir = NULL;
    if (spvc_context_parse_spirv(ctx, words, word_count, &ir) != SPVC_SUCCESS)
        return XGD_ERROR_INVALID_ARGUMENT; /* the callback wrote the message */
    if (spvc_context_create_compiler(ctx, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                     &rf->compiler) != SPVC_SUCCESS)
        return XGD_ERROR_INVALID_ARGUMENT;
    spvc_resources res = NULL;
    if (spvc_compiler_create_shader_resources(rf->compiler, &res) != SPVC_SUCCESS)
        return XGD_ERROR_INVALID_ARGUMENT;
    static const spvc_resource_type refused[] = {
        SPVC_RESOURCE_TYPE_STORAGE_BUFFER, SPVC_RESOURCE_TYPE_STORAGE_IMAGE,
        SPVC_RESOURCE_TYPE_PUSH_CONSTANT, SPVC_RESOURCE_TYPE_SUBPASS_INPUT,
        SPVC_RESOURCE_TYPE_ATOMIC_COUNTER };
    static const char *const refused_names[] = { "storage buffer (RWBuffer, StructuredBuffer)",
                                                 "storage image (RWTexture)", "push constant",
                                                 "subpass input", "atomic counter" };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        const spvc_reflected_resource *items = NULL;
        size_t n = 0;
        spvc_resources_get_resource_list_for_type(res, refused[k], &items, &n);
        if (n > 0)
            return fail(rf, XGD_ERROR_NOT_SUPPORTED, "%s: a %s has no place in an XNA effect",
                        items[0].name, refused_names[k]);
    }
    xgdi_reflection *o = rf->out;
    xgd_result r = reflect_io(rf, res, SPVC_RESOURCE_TYPE_STAGE_INPUT, false, &o->input_count,
                              &o->inputs);
    if (r == XGD_OK)
        r = reflect_io(rf, res, SPVC_RESOURCE_TYPE_STAGE_OUTPUT, true, &o->output_count,
                       &o->outputs);
    if (r != XGD_OK) return r;

    const spvc_reflected_resource *ubos = NULL;
    size_t nubo = 0;
    spvc_resources_get_resource_list_for_type(res, SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, &ubos, &nubo);
    if (nubo > 0) {
        o->buffers = calloc(nubo, sizeof *o->buffers);
        if (o->buffers == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    }
    for (size_t i = 0; i < nubo; i++) {
        xgdi_reflect_buffer *b = &o->buffers[i];
        const char *type_name = spvc_compiler_get_name(rf->compiler, ubos[i].base_type_id);
        copy_name(b->name, type_name != NULL && type_name[0] ? type_name : ubos[i].name);
        b->set = spvc_compiler_get_decoration(rf->compiler, ubos[i].id, SpvDecorationDescriptorSet);
        b->binding = spvc_compiler_get_decoration(rf->compiler, ubos[i].id, SpvDecorationBinding);
        size_t size = 0;
        spvc_compiler_get_declared_struct_size(
            rf->compiler, spvc_compiler_get_type_handle(rf->compiler, ubos[i].base_type_id), &size);
        b->size = (uint32_t)size;
        b->first_member = o->member_count;
        o->buffer_count = (int)i + 1;
        r = reflect_struct(rf, ubos[i].base_type_id, (int)i, -1, 0, 0, b->name);
        if (r != XGD_OK) return r;
        int top = 0;
        for (int m = b->first_member; m < o->member_count; m++) top += o->members[m].parent == -1;
        b->member_count = top;
    }

    static const struct {
        spvc_resource_type type;
        xgdi_reflect_resource_kind kind;
    } kinds[] = { { SPVC_RESOURCE_TYPE_SEPARATE_IMAGE, XGDI_REFLECT_TEXTURE },
                  { SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS, XGDI_REFLECT_SAMPLER },
                  { SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, XGDI_REFLECT_COMBINED } };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        const spvc_reflected_resource *items = NULL;
        size_t n = 0;
        spvc_resources_get_resource_list_for_type(res, kinds[k].type, &items, &n);
        for (size_t i = 0; i < n; i++)
            if ((r = push_resource(rf, &items[i], kinds[k].kind)) != XGD_OK) return r;
    }
    return XGD_OK;
}

xgd_result xgdi_hlsl_reflect(const uint32_t *words, size_t word_count, xgdi_reflection *out,
                             char *msg, size_t msg_size)
{
    if (msg != NULL && msg_size > 0) msg[0] = '\0';
    if (out == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    reflector rf = { NULL, out, 0, 0, msg, msg_size };
    if (words == NULL || word_count < 5 || words[0] != 0x07230203u)
        return fail(&rf, XGD_ERROR_INVALID_ARGUMENT, "not a SPIR-V module");
    spvc_context ctx = NULL;
    if (spvc_context_create(&ctx) != SPVC_SUCCESS) return XGD_ERROR_OUT_OF_MEMORY;
    spvc_context_set_error_callback(ctx, spvc_error, &rf);
    xgd_result r = reflect_all(&rf, words, word_count, ctx);
    spvc_context_destroy(ctx); /* frees the compiler and everything it handed out */
    if (r != XGD_OK) {
        if (r == XGD_ERROR_INVALID_ARGUMENT && msg != NULL && msg_size > 0 && msg[0] == '\0')
            snprintf(msg, msg_size, "SPIR-V: the module cannot be reflected");
        xgdi_reflection_free(out);
    }
    return r;
}

#endif
