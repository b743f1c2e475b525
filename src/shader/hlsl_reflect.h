/*
 * hlsl_reflect.h - what an HLSL entry point compiled by glslang (hlsl_fx.h) reads and writes,
 * read from its SPIR-V through SPIRV-Cross' C API (libspirv-cross-c-shared): the stage inputs
 * and outputs with their HLSL semantics mapped to XNA vertex usages, the constant buffers with
 * every member's type, offset and packing, and the textures and samplers with their bindings.
 *
 * This is the neutral description an effect builds its parameters, vertex-input checks and
 * bindings from; it knows nothing of devices.
 */
#ifndef XGD_HLSL_REFLECT_H
#define XGD_HLSL_REFLECT_H

#include <xgd.h>

#include <stddef.h>
#include <stdint.h>

#define XGDI_REFLECT_NAME_MAX 64

/* A stage input or output. */
typedef struct xgdi_reflect_io {
    char semantic[32];            /* upper case as glslang keeps it: "POSITION0", "SV_TARGET" */
    bool system_value;            /* SV_POSITION, SV_TARGETn, SV_DEPTH, ... (and VPOS/VFACE) */
    xgd_vertex_element_usage usage; /* for non-system values: POSITION -> Position, ... */
    int usage_index;              /* the semantic's number (0 when none) */
    int location;                 /* -1 for built-ins */
    int components;               /* 1..4 (matrices count columns x rows: refused) */
} xgdi_reflect_io;

typedef enum xgdi_reflect_class {
    XGDI_REFLECT_SCALAR = 0,
    XGDI_REFLECT_VECTOR,
    XGDI_REFLECT_MATRIX,
    XGDI_REFLECT_STRUCT
} xgdi_reflect_class;

/* A `bool` in a constant buffer arrives as UINT: glslang stores buffer bools as 32-bit uints
 * and leaves no trace of the declared type (BOOL is seen only where SPIR-V keeps it). */
typedef enum xgdi_reflect_type {
    XGDI_REFLECT_FLOAT = 0,
    XGDI_REFLECT_INT,
    XGDI_REFLECT_UINT,
    XGDI_REFLECT_BOOL,
    XGDI_REFLECT_STRUCT_TYPE
} xgdi_reflect_type;

/* A constant-buffer member (members of structs follow their parent, `parent` naming it). */
typedef struct xgdi_reflect_member {
    char name[XGDI_REFLECT_NAME_MAX];
    int parent;                   /* index in members[] of the enclosing struct; -1 at the top */
    int buffer;                   /* index in buffers[] */
    xgdi_reflect_class cls;
    xgdi_reflect_type type;
    int rows, columns;            /* HLSL's: a float4x3 is 4 rows x 3 columns; vectors 1 x n */
    int elements;                 /* array length; 0 when not an array */
    uint32_t offset;              /* bytes from the start of the buffer (nested: absolute) */
    uint32_t size;                /* bytes the compiler reserves for it (a matrix: whole
                                     registers) */
    uint32_t array_stride;        /* bytes between elements (arrays) */
    uint32_t matrix_stride;       /* bytes between the registers of a matrix */
    bool row_major;               /* HLSL row_major: each register holds one HLSL row */
} xgdi_reflect_member;

typedef struct xgdi_reflect_buffer {
    char name[XGDI_REFLECT_NAME_MAX];  /* the cbuffer's name ("$Global" for loose uniforms) */
    uint32_t set, binding;
    uint32_t size;                /* declared size in bytes */
    int first_member, member_count; /* the top-level members (nested ones follow) */
} xgdi_reflect_buffer;

typedef enum xgdi_reflect_resource_kind {
    XGDI_REFLECT_TEXTURE = 0,     /* Texture2D / TextureCube / Texture3D (separate image) */
    XGDI_REFLECT_SAMPLER,         /* SamplerState (separate sampler) */
    XGDI_REFLECT_COMBINED         /* DX9 sampler2D / samplerCUBE / sampler3D */
} xgdi_reflect_resource_kind;

typedef enum xgdi_reflect_dim {
    XGDI_REFLECT_DIM_NONE = 0,    /* samplers */
    XGDI_REFLECT_DIM_2D,
    XGDI_REFLECT_DIM_3D,
    XGDI_REFLECT_DIM_CUBE
} xgdi_reflect_dim;

typedef struct xgdi_reflect_resource {
    char name[XGDI_REFLECT_NAME_MAX];
    xgdi_reflect_resource_kind kind;
    xgdi_reflect_dim dim;
    uint32_t set, binding;
} xgdi_reflect_resource;

typedef struct xgdi_reflection {
    int input_count, output_count, buffer_count, member_count, resource_count;
    xgdi_reflect_io *inputs, *outputs;
    xgdi_reflect_buffer *buffers;
    xgdi_reflect_member *members;
    xgdi_reflect_resource *resources;
} xgdi_reflection;

/* Reflects a module. Results: XGD_OK; INVALID_ARGUMENT (not a module SPIRV-Cross can parse);
 * NOT_SUPPORTED with the item named in msg (a semantic with no XNA usage on a non-system
 * input or output, a member type xgd has no parameter class for: doubles, 64-bit or 16-bit
 * types, arrays of arrays; storage buffers, storage images, push constants); NOT_SUPPORTED
 * also in a build without SPIRV-Cross (XGD_HLSL=OFF); OUT_OF_MEMORY. *out is zeroed on failure. */
xgd_result xgdi_hlsl_reflect(const uint32_t *words, size_t word_count, xgdi_reflection *out,
                             char *msg, size_t msg_size);
void xgdi_reflection_free(xgdi_reflection *r);

/* HLSL semantic -> XNA usage: "TEXCOORD3" -> (TextureCoordinate, 3). Case-insensitive; the
 * trailing number is the index (none = 0). false when XNA has no such usage. */
bool xgdi_hlsl_semantic_usage(const char *semantic, xgd_vertex_element_usage *usage, int *index);

#endif /* XGD_HLSL_REFLECT_H */
