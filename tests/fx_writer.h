/*
 * fx_writer.h - a small writer of fx_2_0 effect containers (the D3DX9 effect binary XNA ships),
 * for tests and the fuzz corpus only: shaders are D3D assembly assembled by MojoShader, packed
 * with parameters, annotations, techniques, passes and states. Values are given in the
 * container's own order: each row of a numeric value holds `columns` 32-bit values, a
 * column_major matrix (class XGD_FXW_MATRIX_COLUMNS) holds one of its columns per "row".
 */
#ifndef XGD_FX_WRITER_H
#define XGD_FX_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* classes and types as the container numbers them */
enum {
    FXW_SCALAR = 0, FXW_VECTOR, FXW_MATRIX_ROWS, FXW_MATRIX_COLUMNS, FXW_OBJECT, FXW_STRUCT
};
enum {
    FXW_VOID = 0, FXW_BOOL, FXW_INT, FXW_FLOAT, FXW_STRING, FXW_TEXTURE, FXW_TEXTURE1D,
    FXW_TEXTURE2D, FXW_TEXTURE3D, FXW_TEXTURECUBE, FXW_SAMPLER, FXW_SAMPLER1D, FXW_SAMPLER2D,
    FXW_SAMPLER3D, FXW_SAMPLERCUBE, FXW_PIXELSHADER, FXW_VERTEXSHADER
};
/* render states (the container's numbering) and sampler states used by the tests */
enum {
    FXW_RS_ZENABLE = 0, FXW_RS_ZWRITEENABLE = 3, FXW_RS_SRCBLEND = 6, FXW_RS_DESTBLEND = 7,
    FXW_RS_CULLMODE = 8, FXW_RS_ALPHABLENDENABLE = 13
};
enum {
    FXW_SAMP_ADDRESSU = 5, FXW_SAMP_ADDRESSV = 6, FXW_SAMP_MAGFILTER = 9, FXW_SAMP_MINFILTER = 10,
    FXW_SAMP_MIPFILTER = 11
};

typedef struct fxw fxw;

typedef struct fxw_member {
    const char *name;
    int cls, type, rows, columns, elements;
} fxw_member;

typedef struct fxw_state {
    uint32_t type, value;
} fxw_state;

/* A shader symbol (the CTAB entry that binds a parameter to registers). */
typedef struct fxw_symbol {
    const char *name;        /* the parameter's name */
    int register_set;        /* 0 bool, 1 int4, 2 float4, 3 sampler */
    int register_index, register_count;
    int cls, type, rows, columns, elements;
} fxw_symbol;

typedef struct fxw_owner {
    int kind;                /* 0 parameter, 1 technique, 2 pass */
    int a, b;                /* parameter / technique index, pass index */
} fxw_owner;

fxw *fxw_create(void);
void fxw_destroy(fxw *w);
/* Numeric parameter; values: rows x columns x max(1, elements) 32-bit values (NULL: zeros).
   Returns the parameter index. */
int fxw_param(fxw *w, const char *name, const char *semantic, int cls, int type, int rows,
              int columns, int elements, const void *values);
/* Struct parameter; defaults are zero. */
int fxw_struct_param(fxw *w, const char *name, const char *semantic, int elements,
                     const fxw_member *members, int member_count);
/* Texture parameter (type FXW_TEXTURE..FXW_TEXTURECUBE). */
int fxw_texture_param(fxw *w, const char *name, int type);
/* Sampler parameter naming a texture parameter (or none: -1), with sampler states. */
int fxw_sampler_param(fxw *w, const char *name, int type, int texture_param,
                      const fxw_state *states, int state_count);
void fxw_annotation(fxw *w, fxw_owner owner, const char *name, int cls, int type, int rows,
                    int columns, int elements, const void *values);
void fxw_annotation_string(fxw *w, fxw_owner owner, const char *name, const char *value);
int fxw_technique(fxw *w, const char *name);
int fxw_pass(fxw *w, int technique, const char *name);
void fxw_render_state(fxw *w, int technique, int pass, uint32_t type, uint32_t value);
/* Assembles `source` (D3D assembly) with its symbols and sets it as the pass's vertex or pixel
   shader. False (with MojoShader's message in err) when it does not assemble. */
bool fxw_shader(fxw *w, int technique, int pass, bool vertex, const char *source,
                const fxw_symbol *symbols, int symbol_count, char *err, size_t err_cap);
/* The container (malloc'd; *size bytes); NULL when out of memory. xna_header: wrap it the way
   XNA's compiler does (0xBCF00BCF). */
uint8_t *fxw_finish(fxw *w, bool xna_header, size_t *size);

/* The effect most tests use, built by fxw_standard (fx_writer.c):
 *   parameters  WorldViewProj (float4x4, column_major, semantic WORLDVIEWPROJECTION; c0..c3 of
 *               the vertex shader), Tint (float4, semantic COLOR; c0 of the solid pixel
 *               shader), Tex (texture2D), TexSampler (sampler2D of Tex: point filters, clamp),
 *               and, unused by the shaders, every other value kind: Flag (bool), Count (int),
 *               Scale (float), Offset2 (float2), Dir3 (float3), RowMat (float3x3 row_major),
 *               Weights (float[5]), Ints (int2[3]), Flags (bool[4]), Bones (float4x4[3],
 *               column_major), Light (struct { float3 Dir; float Power; float4 Colors[2]; })
 *               and Lights (that struct [2]).
 *   techniques  "Solid": pass "P0": position = pos * WorldViewProj, colour = Tint.
 *               "Textured": pass "P0": position = pos * WorldViewProj,
 *               colour = tex2D(TexSampler, uv) * vertex colour.
 *   annotations WorldViewProj: string UIName = "World view projection", float UIMin = -2;
 *               technique Solid: int Version = 3; pass Solid/P0: bool Debug = true.
 * Returns NULL (err filled) if MojoShader's assembler refuses a shader. */
uint8_t *fxw_standard(size_t *size, char *err, size_t err_cap);

/* The instancing effect (fixture_instancing.c, bench/instancing-bench.c): technique
 * "Instanced", pass "P0" (CullMode None), vs_3_0 reading POSITION0 per vertex and, per
 * instance, a row-vector matrix in TEXCOORD1..4 and a colour in COLOR1:
 *     position = float4(POSITION0.xyz, 1) * float4x4(TEXCOORD1, TEXCOORD2, TEXCOORD3, TEXCOORD4)
 *     colour   = COLOR1 (ps_3_0 outputs it). */
uint8_t *fxw_instancing(size_t *size, char *err, size_t err_cap);

#endif
