/*
 * spirv_hlsl.h - glslang's SPIR-V of an HLSL entry point rewritten into the one shader form
 * renderers consume (renderer.h, "user shaders"), so that no renderer knows HLSL exists.
 *
 * glslang's module differs from the form in five ways, each rewritten here once per shader
 * (checked at effect load, rewritten at its first apply, never per draw):
 *   - the entry point is named after the HLSL function: renamed "main";
 *   - semantics ride on SPV_GOOGLE_hlsl_functionality1 UserSemantic decorations: read here
 *     (usage and index by xgdi_hlsl_semantic_usage), then removed with their extensions, and
 *     every stage input and output gets the location xgdi_shader_location(usage, index)
 *     (pixel outputs SV_Target/COLOR n: location n);
 *   - the constant buffer is a struct of members at HLSL offsets: it stays as it is (every
 *     renderer binds the block as a byte range) at the stage's binding; the vertex stage's
 *     struct gains one vec4 member, pixel_offset, in the register after the buffer's last
 *     byte, and position += pixel_offset * position.w runs before every return of main
 *     (a shader without a cbuffer gets a block holding only pixel_offset);
 *   - SM4 textures and samplers are separate objects: each Texture at register tN becomes the
 *     combined image-sampler of slot N (binding 2 + N, XNA's Textures[N] with
 *     SamplerStates[N]); OpSampledImage of it becomes a copy, the SamplerState variables go;
 *     DX9 sampler2D (combined already) at register sN is slot N; a vertex shader's textures
 *     (vertex texture fetch, registers 0..3) are vertex slot N at binding
 *     XGDI_SHADER_BINDING_VERTEX_SAMPLER0 + N (XNA's VertexTextures[N]);
 *   - descriptor sets are 0.
 * One constant buffer per stage: a stage reading two is NOT_SUPPORTED by name.
 */
#ifndef XGD_SPIRV_HLSL_H
#define XGD_SPIRV_HLSL_H

#include "renderer.h"

typedef struct xgdi_spirv_hlsl_out {
    uint32_t *words;            /* malloc'd: the module in the form */
    size_t word_count;
    int constant_count;         /* vec4s of the block (vertex: pixel_offset included) */
    int block_registers;        /* vec4s of the HLSL buffer (pixel_offset's index) */
    xgdi_shader_input inputs[XGDI_SHADER_MAX_INPUTS];
    int input_count;
    xgdi_sampler_kind sampler_kinds[XGDI_SHADER_MAX_SAMPLERS];
    char sampler_names[XGDI_SHADER_MAX_SAMPLERS][64]; /* the HLSL variable of each slot */
    /* SM4: the SamplerState variable each slot's texture is sampled with ("" none; a DX9
       sampler is its own, sampler_names); bit k of sampler_conflicts: slot k's texture is
       sampled with two different SamplerStates */
    char sampler_state_names[XGDI_SHADER_MAX_SAMPLERS][64];
    uint32_t sampler_conflicts;
    uint32_t color_outputs;
} xgdi_spirv_hlsl_out;

/* block_bytes: the size of the stage's one constant buffer (0 = none). Results: XGD_OK;
 * NOT_SUPPORTED (named: a semantic xgd has no location for, two constant buffers,
 * Texture.Load / GetDimensions, arrays of textures, a slot beyond 15);
 * INVALID_ARGUMENT (a malformed module, a vertex shader writing no SV_Position, two textures
 * in one slot); OUT_OF_MEMORY. err receives the message. */
xgd_result xgdi_spirv_from_hlsl(const uint32_t *words, size_t word_count, xgdi_shader_stage stage,
                                uint32_t block_bytes, xgdi_spirv_hlsl_out *out, char *err,
                                size_t err_cap);

/* The same reading and checks without writing the module: the same result and message as
 * xgdi_spirv_from_hlsl, and on success every field of out but words (NULL) and word_count (0).
 * A module it accepts, xgdi_spirv_from_hlsl rewrites unless memory runs out, so an effect
 * checks every shader at load and rewrites each at its first use. */
xgd_result xgdi_spirv_hlsl_check(const uint32_t *words, size_t word_count, xgdi_shader_stage stage,
                                 uint32_t block_bytes, xgdi_spirv_hlsl_out *out, char *err, size_t err_cap);

#endif
