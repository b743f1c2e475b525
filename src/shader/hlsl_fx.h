/*
 * hlsl_fx.h - HLSL effect source (technique/pass blocks around SM4/5- or SM3-style HLSL): the
 * front end that turns it into what glslang compiles and the list of what each pass runs.
 *
 * glslang compiles HLSL functions but knows nothing of effect files: it rejects `technique`
 * blocks. xgdi_hlsl_fx_scan finds every technique and its passes, reads which entry point
 * each pass compiles for each stage (DX9 `VertexShader = compile vs_3_0 VS();` and DX10/11
 * `SetVertexShader(CompileShader(vs_4_0, VS()));`) and every other assignment of a pass as a
 * render state (name and value text, interpreted by the effect layer), then blanks the blocks
 * in a copy of the source, keeping every newline, so that the compiler's line numbers are the
 * user's. xgdi_hlsl_compile then compiles one entry point of that copy to SPIR-V through
 * glslang (src/shader/glslang_shim.cpp), with the compiler's messages on failure.
 */
#ifndef XGD_HLSL_FX_H
#define XGD_HLSL_FX_H

#include <xgd.h>

#include <stddef.h>
#include <stdint.h>

#define XGDI_HLSL_NAME_MAX 64     /* identifiers: techniques, passes, entry points */
#define XGDI_HLSL_STATE_MAX 32    /* state assignments per pass */
#define XGDI_HLSL_VALUE_MAX 128   /* a state's value text */

typedef enum xgdi_hlsl_stage { XGDI_HLSL_VERTEX = 0, XGDI_HLSL_PIXEL = 1 } xgdi_hlsl_stage;

typedef struct xgdi_hlsl_state {
    char name[XGDI_HLSL_NAME_MAX];      /* e.g. "AlphaBlendEnable", "SetBlendState" */
    char value[XGDI_HLSL_VALUE_MAX];    /* the text after '=' (or inside the call), trimmed */
    int line;
} xgdi_hlsl_state;

typedef struct xgdi_hlsl_pass {
    char name[XGDI_HLSL_NAME_MAX];      /* "" when the pass is unnamed */
    int line;
    /* per stage: the entry point ("" = the stage is not set by this pass) and its profile */
    char entry[2][XGDI_HLSL_NAME_MAX];
    char profile[2][16];                /* "vs_4_0", "ps_3_0", ... as written */
    int entry_line[2];
    int state_count;
    xgdi_hlsl_state states[XGDI_HLSL_STATE_MAX];
} xgdi_hlsl_pass;

typedef struct xgdi_hlsl_technique {
    char name[XGDI_HLSL_NAME_MAX];
    int line;
    int pass_count;
    xgdi_hlsl_pass *passes;
} xgdi_hlsl_technique;

/* A sampler's declared state: `SamplerState S { Filter = ...; AddressU = ...; };` (D3D10) or
 * `sampler S = sampler_state { Texture = <T>; MinFilter = ...; };` (D3D9, XNA). Both spellings
 * of every state are accepted in both blocks; values are kept as Direct3D 9's (which fx_2_0
 * effects carry): filters 0 None, 1 Point, 2 Linear, 3 Anisotropic; addresses 1 Wrap,
 * 2 Mirror, 3 Clamp, 4 Border, 5 MirrorOnce. `set` says which fields the block gave: a pass
 * applies only those, on top of the slot's current state (as XNA applies an effect's). */
enum {
    XGDI_HLSL_SS_MIN = 1u << 0,
    XGDI_HLSL_SS_MAG = 1u << 1,
    XGDI_HLSL_SS_MIP = 1u << 2,
    XGDI_HLSL_SS_ADDRESS_U = 1u << 3,
    XGDI_HLSL_SS_ADDRESS_V = 1u << 4,
    XGDI_HLSL_SS_ADDRESS_W = 1u << 5,
    XGDI_HLSL_SS_MAX_ANISOTROPY = 1u << 6,
    XGDI_HLSL_SS_MAX_MIP_LEVEL = 1u << 7,
    XGDI_HLSL_SS_MIP_LOD_BIAS = 1u << 8,
    XGDI_HLSL_SS_ALL = (1u << 9) - 1u
};

typedef struct xgdi_hlsl_sampler {
    char name[XGDI_HLSL_NAME_MAX];      /* the sampler variable */
    char texture[XGDI_HLSL_NAME_MAX];   /* D3D9 `Texture = <T>`: T; "" when not given */
    int line;
    uint32_t set;                       /* XGDI_HLSL_SS_* */
    int min_filter, mag_filter, mip_filter;
    int address[3];                     /* u, v, w */
    int max_anisotropy;                 /* 1..16 */
    int max_mip_level;                  /* >= 0 */
    float mip_lod_bias;                 /* finite */
} xgdi_hlsl_sampler;

/* An annotation of a global variable: `float x <string UIName = "X"; int Steps = 4;> = 1;`.
 * Scalars and strings, as the effect reports them (xgd_effect_parameter_get_annotation). */
typedef enum xgdi_hlsl_anno_type {
    XGDI_HLSL_ANNO_BOOL = 0,
    XGDI_HLSL_ANNO_INT,
    XGDI_HLSL_ANNO_FLOAT,
    XGDI_HLSL_ANNO_STRING
} xgdi_hlsl_anno_type;

#define XGDI_HLSL_ANNO_MAX 16            /* annotations per variable */
#define XGDI_HLSL_ANNO_STRING_MAX 256    /* a string annotation's bytes */

typedef struct xgdi_hlsl_annotation {
    char owner[XGDI_HLSL_NAME_MAX];     /* the annotated variable */
    char name[XGDI_HLSL_NAME_MAX];
    xgdi_hlsl_anno_type type;
    int32_t i;                          /* BOOL (0/1), INT */
    float f;                            /* FLOAT */
    char s[XGDI_HLSL_ANNO_STRING_MAX];  /* STRING */
    int line;
} xgdi_hlsl_annotation;

typedef struct xgdi_hlsl_fx {
    int technique_count;
    xgdi_hlsl_technique *techniques;
    int sampler_count;
    xgdi_hlsl_sampler *samplers;
    int annotation_count;
    xgdi_hlsl_annotation *annotations;
    char *source;        /* the source with technique blocks blanked, NUL-terminated */
    size_t source_size;  /* bytes before the NUL */
} xgdi_hlsl_fx;

/* Scans an effect source. Results: XGD_OK; XGD_ERROR_INVALID_ARGUMENT with "file:line: what"
 * in msg for a malformed technique or pass block (unbalanced braces, a pass without a shader,
 * an unknown profile, a duplicate name, too many states); XGD_ERROR_NOT_SUPPORTED (also with
 * the place) for valid effect syntax xgd does not run: a shader compiled with arguments, shader
 * variables or arrays, geometry/hull/domain/compute shaders; OUT_OF_MEMORY. On
 * failure *out is zeroed. A source without techniques is valid (techniques then come from the
 * caller). Memory: the source copy plus the blocks found, each bounded by the source size. */
xgd_result xgdi_hlsl_fx_scan(const char *source, size_t size, const char *file_name,
                             xgdi_hlsl_fx *out, char *msg, size_t msg_size);
void xgdi_hlsl_fx_free(xgdi_hlsl_fx *fx);

/* Whether this build can compile HLSL at run time (glslang linked in). */
bool xgdi_hlsl_compiler_available(void);

/* Compiles entry point `entry` of `source` (NUL-terminated) for `stage` to SPIR-V 1.0 for
 * Vulkan 1.0, with HLSL semantics kept as UserSemantic decorations (SPV_GOOGLE_hlsl_
 * functionality1) so that vertex inputs can be matched to a declaration. *words is malloc'd
 * (free with free()). Results: XGD_OK; XGD_ERROR_INVALID_ARGUMENT with the compiler's
 * messages ("ERROR: file:line: ...") in *log for an error in the source or a missing entry
 * point; NOT_SUPPORTED when the build has no compiler; OUT_OF_MEMORY. *log is malloc'd or NULL
 * (free with free()); warnings come back in it on success too. */
xgd_result xgdi_hlsl_compile(const char *source, const char *file_name, const char *entry,
                             xgdi_hlsl_stage stage, uint32_t **words, size_t *word_count,
                             char **log);

/* As xgdi_hlsl_compile, with `preamble` (NULL or text, e.g. "#define A 1\n") read before the
 * source without shifting its line numbers: the macros of a create call. */
xgd_result xgdi_hlsl_compile_ex(const char *source, const char *file_name, const char *entry,
                                const char *preamble, xgdi_hlsl_stage stage, uint32_t **words,
                                size_t *word_count, char **log);

/* The preamble of a macro list: one "#define NAME VALUE" line per macro (a NULL value is 1).
 * INVALID_ARGUMENT with msg naming the macro for a name that is not an identifier (at most 63
 * characters) or a value holding a line break or longer than 1024 bytes, or more than 256
 * macros; OUT_OF_MEMORY. *out is malloc'd ("" for none). */
xgd_result xgdi_hlsl_preamble(const xgd_hlsl_define *defines, int count, char **out, char *msg,
                              size_t msg_size);

#endif /* XGD_HLSL_FX_H */
