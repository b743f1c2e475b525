/*
 * hlsl_program.h - an HLSL effect compiled: its techniques and passes (hlsl_fx.h), every entry
 * point a pass uses compiled once to SPIR-V with its reflection (hlsl_reflect.h). Two ways to
 * get one: compile the source at run time (glslang; XGD_HLSL builds), or load the file
 * `xgd-fxc` wrote ahead of time, which needs no compiler. Both give the same structure, so the
 * effect built from it cannot tell them apart.
 *
 * The file ("xgd compiled effect", .xfx), little-endian, version 2:
 *   "XGDFX\0\r\n"  u32 version (2)  u32 flags (0)
 *   u32 techniques { str name, i32 line, u32 passes { str name, i32 line,
 *       i32 shader[2] (vertex, pixel: an index below, or -1), u32 states { str name,
 *       str value, i32 line } } }
 *   u32 shaders { str entry, u32 stage, str profile, u32 words, u32 word[words],
 *       reflection: u32 inputs { io }, u32 outputs { io }, u32 buffers { str name, u32 set,
 *       u32 binding, u32 size, i32 first_member, i32 member_count }, u32 members { str name,
 *       i32 parent, i32 buffer, u32 class, u32 type, i32 rows, i32 columns, i32 elements,
 *       u32 offset, u32 size, u32 array_stride, u32 matrix_stride, u8 row_major },
 *       u32 resources { str name, u32 kind, u32 dim, u32 set, u32 binding } }
 *   io = str semantic, u8 system_value, u32 usage, i32 usage_index, i32 location,
 *        i32 components;   str = u32 length, then that many bytes (no NUL)
 * Version 2 adds, after the shaders (version 1 files end there and still load):
 *   u32 samplers { str name, str texture, i32 line, u32 set, i32 min_filter, i32 mag_filter,
 *       i32 mip_filter, i32 address[3], i32 max_anisotropy, i32 max_mip_level,
 *       f32 mip_lod_bias }     (xgdi_hlsl_sampler: the declared sampler states)
 *   u32 annotations { str owner, str name, u32 type, i32 int, f32 float, str string, i32 line }
 * Nothing follows. The loader checks every count against the bytes left, every string against
 * its field, every enum and index, and that each shader is a SPIR-V module.
 */
#ifndef XGD_HLSL_PROGRAM_H
#define XGD_HLSL_PROGRAM_H

#include "hlsl_fx.h"
#include "hlsl_reflect.h"

#define XGDI_XFX_VERSION 2u

typedef struct xgdi_hlsl_shader {
    char entry[XGDI_HLSL_NAME_MAX];
    xgdi_hlsl_stage stage;
    char profile[16];
    uint32_t *words;
    size_t word_count;
    xgdi_reflection reflection;
} xgdi_hlsl_shader;

typedef struct xgdi_hlsl_program {
    xgdi_hlsl_fx fx;            /* fx.source is NULL for a loaded program */
    int shader_count;
    xgdi_hlsl_shader *shaders;
    /* per technique t, pass p: pass_shader[first_pass[t] + p][stage] = index into shaders or -1 */
    int *first_pass;
    int (*pass_shader)[2];
} xgdi_hlsl_program;

/* Scans, then compiles every (entry point, stage) the passes name once and reflects it.
 * Results: as xgdi_hlsl_fx_scan, xgdi_hlsl_compile and xgdi_hlsl_reflect; *log (malloc'd or
 * NULL) holds the scanner's or compiler's message. A source without techniques is refused
 * (INVALID_ARGUMENT): an HLSL effect names its passes. */
xgd_result xgdi_hlsl_program_compile(const char *source, size_t size, const char *file_name,
                                     xgdi_hlsl_program *out, char **log);
/* As xgdi_hlsl_program_compile, with a preamble of macros for the compiler (xgdi_hlsl_preamble;
 * NULL = none). */
xgd_result xgdi_hlsl_program_compile_ex(const char *source, size_t size, const char *file_name,
                                        const char *preamble, xgdi_hlsl_program *out, char **log);
/* Serialises a program (the .xfx format above); *bytes is malloc'd. */
xgd_result xgdi_hlsl_program_save(const xgdi_hlsl_program *p, void **bytes, size_t *size);
/* Loads an .xfx image. INVALID_ARGUMENT with msg saying what and at which byte for anything
 * malformed; NOT_SUPPORTED for another version; OUT_OF_MEMORY. Memory: bounded by a constant
 * times `size`. */
xgd_result xgdi_hlsl_program_load(const void *bytes, size_t size, xgdi_hlsl_program *out,
                                  char *msg, size_t msg_size);
void xgdi_hlsl_program_free(xgdi_hlsl_program *p);

#endif /* XGD_HLSL_PROGRAM_H */
