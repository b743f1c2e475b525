/*
 * fx_table.h - xgd's own description of a loaded effect (private to fx.c and fx_hlsl.inc):
 * parameters and annotations with their types and value arrays, techniques, passes with their
 * render states, and the effect's objects (shaders, textures, strings).
 *
 * Both effect kinds fill it at load: .xfx and HLSL effects directly from their program
 * (fx_hlsl.inc), fx_2_0 effects by translating MojoShader's effect once after it compiled. So
 * everything that serves the Effect API and applies passes reads only this table, and builds
 * without MojoShader still load .xfx effects (the stock effects among them).
 *
 * Value arrays hold one 4-wide slot (floats or ints) per register an element fills: element e
 * of an R-register parameter starts at slot e * R; struct members follow each other, each all
 * of its elements. Enumerated state values are Direct3D 9's numbers, as the fx_2_0 format and
 * effect source text give them (blend 1 Zero .. 15 InvBlendFactor, compare 1 Never .. 8
 * Always, cull 1 None, 2 CW, 3 CCW, fill 1 Point, 2 Wireframe, 3 Solid, ...).
 */
#ifndef XGD_FX_TABLE_H
#define XGD_FX_TABLE_H

#include <stdbool.h>
#include <stdint.h>

/* a value's class; matrices keep how their registers hold them (a row or a column each) */
typedef enum xgdi_fx_class {
    XGDI_FX_SCALAR,
    XGDI_FX_VECTOR,
    XGDI_FX_MATRIX_ROWS,
    XGDI_FX_MATRIX_COLUMNS,
    XGDI_FX_OBJECT,
    XGDI_FX_STRUCT,
} xgdi_fx_class;

/* a value's type: the first ten are xgd_effect_parameter_type's (Void .. TextureCube) */
typedef enum xgdi_fx_base {
    XGDI_FX_VOID,
    XGDI_FX_BOOL,
    XGDI_FX_INT,
    XGDI_FX_FLOAT,
    XGDI_FX_STRING,
    XGDI_FX_TEXTURE,
    XGDI_FX_TEXTURE1D,
    XGDI_FX_TEXTURE2D,
    XGDI_FX_TEXTURE3D,
    XGDI_FX_TEXTURECUBE,
    XGDI_FX_OTHER,              /* samplers, shaders: not parameters in XNA's Effect.Parameters */
} xgdi_fx_base;

typedef struct xgdi_fx_member xgdi_fx_member;

typedef struct xgdi_fx_type {
    xgdi_fx_class parameter_class;
    xgdi_fx_base parameter_type;
    unsigned rows, columns;     /* a struct: registers of one element, and 4 */
    unsigned elements;          /* 0: not an array */
    unsigned member_count;
    const xgdi_fx_member *members;
} xgdi_fx_type;

struct xgdi_fx_member {
    const char *name;
    xgdi_fx_type info;
};

typedef struct xgdi_fx_value {
    const char *name, *semantic;
    xgdi_fx_type type;
    unsigned value_count;       /* 4-byte values */
    union {
        void *values;
        float *valuesF;
        int32_t *valuesI;       /* objects: the effect object's index */
    };
} xgdi_fx_value;

/* the render states a pass may set (those with XNA state objects) and its shaders */
typedef enum xgdi_fx_rs {
    XGDI_FX_RS_OTHER,           /* a Direct3D 9 state without an XNA state object: ignored */
    XGDI_FX_RS_VERTEXSHADER,
    XGDI_FX_RS_PIXELSHADER,
    XGDI_FX_RS_ALPHABLENDENABLE,
    XGDI_FX_RS_SEPARATEALPHABLENDENABLE,
    XGDI_FX_RS_SRCBLEND,
    XGDI_FX_RS_DESTBLEND,
    XGDI_FX_RS_BLENDOP,
    XGDI_FX_RS_SRCBLENDALPHA,
    XGDI_FX_RS_DESTBLENDALPHA,
    XGDI_FX_RS_BLENDOPALPHA,
    XGDI_FX_RS_COLORWRITEENABLE,
    XGDI_FX_RS_COLORWRITEENABLE1,
    XGDI_FX_RS_COLORWRITEENABLE2,
    XGDI_FX_RS_COLORWRITEENABLE3,
    XGDI_FX_RS_ZENABLE,
    XGDI_FX_RS_ZWRITEENABLE,
    XGDI_FX_RS_ZFUNC,
    XGDI_FX_RS_STENCILENABLE,
    XGDI_FX_RS_STENCILFUNC,
    XGDI_FX_RS_STENCILPASS,
    XGDI_FX_RS_STENCILFAIL,
    XGDI_FX_RS_STENCILZFAIL,
    XGDI_FX_RS_TWOSIDEDSTENCILMODE,
    XGDI_FX_RS_CCW_STENCILFUNC,
    XGDI_FX_RS_CCW_STENCILPASS,
    XGDI_FX_RS_CCW_STENCILFAIL,
    XGDI_FX_RS_CCW_STENCILZFAIL,
    XGDI_FX_RS_STENCILREF,
    XGDI_FX_RS_STENCILMASK,
    XGDI_FX_RS_STENCILWRITEMASK,
    XGDI_FX_RS_CULLMODE,
    XGDI_FX_RS_FILLMODE,
    XGDI_FX_RS_SCISSORTESTENABLE,
    XGDI_FX_RS_DEPTHBIAS,       /* a float whatever its value's type */
    XGDI_FX_RS_SLOPESCALEDEPTHBIAS,
} xgdi_fx_rs;

typedef struct xgdi_fx_state {
    xgdi_fx_rs type;
    xgdi_fx_value value;        /* shaders: the object index (an int) */
} xgdi_fx_state;

typedef struct xgdi_fx_pass {
    const char *name;
    xgdi_fx_state *states;
    unsigned state_count;
    xgdi_fx_value *annotations;
    unsigned annotation_count;
} xgdi_fx_pass;

typedef struct xgdi_fx_technique {
    const char *name;
    xgdi_fx_pass *passes;
    unsigned pass_count;
    xgdi_fx_value *annotations;
    unsigned annotation_count;
} xgdi_fx_technique;

typedef struct xgdi_fx_param {
    xgdi_fx_value value;
    xgdi_fx_value *annotations;
    unsigned annotation_count;
} xgdi_fx_param;

typedef enum xgdi_fx_object_kind {
    XGDI_FX_OBJ_NONE,           /* a texture object (its texture is set through the parameter) */
    XGDI_FX_OBJ_SHADER,
    XGDI_FX_OBJ_STRING,
} xgdi_fx_object_kind;

struct fx_shader;

typedef struct xgdi_fx_object {
    xgdi_fx_object_kind kind;
    struct fx_shader *shader;   /* XGDI_FX_OBJ_SHADER */
    const char *string;         /* XGDI_FX_OBJ_STRING */
} xgdi_fx_object;

/* The table; its arrays are its own (freed with it), value arrays belong to whoever filled
 * them (fx_hlsl.inc's own, MojoShader's for fx_2_0, whose commit reads and writes them). */
typedef struct xgdi_fx_table {
    xgdi_fx_param *params;
    int param_count;
    xgdi_fx_technique *techniques;
    int technique_count;
    xgdi_fx_object *objects;
    int object_count;
    void **keep;                /* further allocations the table owns (struct members, ...) */
    int keep_count, keep_cap;
} xgdi_fx_table;

/* Direct3D 9's numbers of the enumerated state values the table holds */
enum {
    XGDI_D3D_BLEND_ZERO = 1, XGDI_D3D_BLEND_ONE, XGDI_D3D_BLEND_SRCCOLOR, XGDI_D3D_BLEND_INVSRCCOLOR,
    XGDI_D3D_BLEND_SRCALPHA, XGDI_D3D_BLEND_INVSRCALPHA, XGDI_D3D_BLEND_DESTALPHA, XGDI_D3D_BLEND_INVDESTALPHA,
    XGDI_D3D_BLEND_DESTCOLOR, XGDI_D3D_BLEND_INVDESTCOLOR, XGDI_D3D_BLEND_SRCALPHASAT,
    XGDI_D3D_BLEND_BOTHSRCALPHA, XGDI_D3D_BLEND_BOTHINVSRCALPHA, XGDI_D3D_BLEND_BLENDFACTOR,
    XGDI_D3D_BLEND_INVBLENDFACTOR
};
enum { XGDI_D3D_BLENDOP_ADD = 1, XGDI_D3D_BLENDOP_SUBTRACT, XGDI_D3D_BLENDOP_REVSUBTRACT, XGDI_D3D_BLENDOP_MIN,
       XGDI_D3D_BLENDOP_MAX };
enum { XGDI_D3D_CMP_NEVER = 1, XGDI_D3D_CMP_LESS, XGDI_D3D_CMP_EQUAL, XGDI_D3D_CMP_LESSEQUAL, XGDI_D3D_CMP_GREATER,
       XGDI_D3D_CMP_NOTEQUAL, XGDI_D3D_CMP_GREATEREQUAL, XGDI_D3D_CMP_ALWAYS };
enum { XGDI_D3D_STENCILOP_KEEP = 1, XGDI_D3D_STENCILOP_ZERO, XGDI_D3D_STENCILOP_REPLACE, XGDI_D3D_STENCILOP_INCRSAT,
       XGDI_D3D_STENCILOP_DECRSAT, XGDI_D3D_STENCILOP_INVERT, XGDI_D3D_STENCILOP_INCR, XGDI_D3D_STENCILOP_DECR };
enum { XGDI_D3D_CULL_NONE = 1, XGDI_D3D_CULL_CW, XGDI_D3D_CULL_CCW };
enum { XGDI_D3D_FILL_POINT = 1, XGDI_D3D_FILL_WIREFRAME, XGDI_D3D_FILL_SOLID };
enum { XGDI_D3D_TADDRESS_WRAP = 1, XGDI_D3D_TADDRESS_MIRROR, XGDI_D3D_TADDRESS_CLAMP, XGDI_D3D_TADDRESS_BORDER,
       XGDI_D3D_TADDRESS_MIRRORONCE };
enum { XGDI_D3D_FILTER_NONE, XGDI_D3D_FILTER_POINT, XGDI_D3D_FILTER_LINEAR, XGDI_D3D_FILTER_ANISOTROPIC };

#endif
