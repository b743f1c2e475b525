/*
 * d3d12_dxbc.h - a translator from SPIR-V (a Vulkan 1.0 vertex or fragment shader, the shader
 * form every effect source reaches, or a compute shader: the renderers' own shaders/mips.comp) to
 * DXBC shader model 5.0, the bytecode Direct3D 12 takes on Windows and the only form vkd3d 1.2
 * accepts on Linux. Pure C: no Direct3D header, so it is also usable (and tested) away from a
 * device.
 *
 * What the container holds: ISGN, OSGN and SHEX chunks (no RDEF: Direct3D 12 takes bindings
 * from the root signature and needs no reflection), with the container checksum Windows'
 * runtime checks (xgdi_d3d12_dxbc_checksum).
 *
 * Stage interface (the location -> semantic rule; both stages apply it, so a vertex shader's
 * outputs and a pixel shader's inputs link by semantic and register alike):
 *   vertex inputs      Location L            -> TEXCOORD L, register v L
 *                      BuiltIn VertexIndex   -> SV_VertexID, BuiltIn InstanceIndex ->
 *                      SV_InstanceID (registers after the highest location)
 *   vertex outputs     BuiltIn Position      -> SV_Position, register o0 (passed unchanged:
 *                      D3D's clip space, y up, 0 <= z <= w)
 *                      Location L            -> TEXCOORD L, register o(L + 1)
 *   pixel inputs       BuiltIn FragCoord     -> SV_Position, register v0
 *                      Location L            -> TEXCOORD L, register v(L + 1)
 *                      BuiltIn FrontFacing   -> SV_IsFrontFace (register after the highest)
 *   pixel outputs      Location L            -> SV_Target L, register o L
 *                      BuiltIn FragDepth     -> SV_Depth
 * So a Direct3D 12 input layout for a translated vertex shader names its elements TEXCOORD
 * with SemanticIndex = the SPIR-V location of the attribute.
 *
 * Resource bindings: each resource variable is found in the binding map by its SPIR-V
 * (DescriptorSet, Binding) and kind (the first matching entry); a variable with no entry uses
 * register = binding (so glslang's HLSL registers and MojoShader's sampler numbers pass through). A uniform block
 * becomes cbuffer b<reg>, a combined image-sampler texture t<reg> with sampler s<sampler_reg>,
 * a separate image t<reg>, a separate sampler s<reg>. A push-constant block, which has no set or
 * binding, becomes cbuffer b<reg> only by an entry of kind CBUFFER with set and binding
 * 0xffffffff (none: NOT_SUPPORTED).
 *
 * Compute shaders (GLCompute, LocalSize of at most 1024 threads): LocalSize -> dcl_thread_group;
 * BuiltIn GlobalInvocationId, WorkgroupId, LocalInvocationId, LocalInvocationIndex -> vThreadID,
 * vThreadGroupID, vThreadIDInGroup, vThreadIDInGroupFlattened; Workgroup variables (32-bit
 * scalars or vectors, arrays of them, arrays of such arrays flattened with the last index
 * fastest; 32 KB in all) -> structured thread-group memory g# (ld_structured, store_structured); storage images (1D, 2D, 3D, 1D/2D arrays; written, never read) -> typed UAVs
 * u<reg> (an entry of kind UAV, else u = binding; stores only: store_uav_typed); OpControlBarrier
 * / OpMemoryBarrier -> sync with the flags their semantics name. Function calls are not taken:
 * the module must be one function (write helpers as macros, or inline them).
 */
#ifndef XGD_D3D12_DXBC_H
#define XGD_D3D12_DXBC_H

#include <stddef.h>
#include <stdint.h>

#include "xgd.h"

/* what a binding map entry applies to (glslang gives an HLSL cbuffer b0, texture t0 and
   sampler s0 the same set and binding, so an entry can name the kind it means) */
typedef enum xgdi_d3d12_dxbc_kind {
    XGDI_D3D12_DXBC_ANY = 0,      /* every resource variable with this set and binding */
    XGDI_D3D12_DXBC_CBUFFER,      /* uniform blocks */
    XGDI_D3D12_DXBC_TEXTURE,      /* images and combined image-samplers */
    XGDI_D3D12_DXBC_SAMPLER,      /* separate samplers */
    XGDI_D3D12_DXBC_UAV           /* storage images (u#) */
} xgdi_d3d12_dxbc_kind;

typedef struct xgdi_d3d12_dxbc_binding {
    xgdi_d3d12_dxbc_kind kind;
    uint32_t set, binding;  /* the SPIR-V DescriptorSet and Binding decorations */
    uint32_t reg;           /* b# of a uniform block, t# of an image or combined image-sampler,
                               s# of a separate sampler */
    uint32_t sampler_reg;   /* s# of a combined image-sampler */
} xgdi_d3d12_dxbc_binding;

/* Translates the SPIR-V module words[0..word_count) (one Vertex or Fragment entry point, logical
   addressing, Shader capability) to a DXBC container. On success *out_dxbc (free with
   xgdi_d3d12_dxbc_free) and *out_size hold it. Results: XGD_ERROR_NOT_SUPPORTED for a valid
   module using something this translator does not implement (the message names the opcode,
   capability, storage class or extended instruction), XGD_ERROR_INVALID_ARGUMENT for a
   malformed module, XGD_ERROR_OUT_OF_MEMORY. msg (msg_size bytes, may be NULL) receives the
   reason. Memory is bounded by the input: at most 1M words in, 4M words out. */
xgd_result xgdi_d3d12_dxbc_from_spirv(const uint32_t *words, size_t word_count,
                                      const xgdi_d3d12_dxbc_binding *bindings,
                                      size_t binding_count, void **out_dxbc, size_t *out_size,
                                      char *msg, size_t msg_size);
/* The same for a vertex shader whose inputs at the locations set in uint_locations /
   sint_locations (bit n = Location n) are fed unsigned / signed integer vertex formats
   (R8G8B8A8_UINT for Byte4, R16G16(B16A16)_SINT for Short2/4): those inputs are declared with
   that component type and converted to float where the shader reads them, as Direct3D 9
   reads such elements. */
xgd_result xgdi_d3d12_dxbc_from_spirv_int_inputs(const uint32_t *words, size_t word_count,
                                                 const xgdi_d3d12_dxbc_binding *bindings,
                                                 size_t binding_count, uint32_t uint_locations,
                                                 uint32_t sint_locations, void **out_dxbc,
                                                 size_t *out_size, char *msg, size_t msg_size);
void xgdi_d3d12_dxbc_free(void *dxbc);

/* The checksum of a DXBC container (size >= 20 bytes): MD5 over bytes 20..size (everything
   after the magic and the stored checksum) with the container's own final block: the
   message's bit count is put before the last partial block's bytes and (bits >> 2) | 1 in the
   block's last word, instead of MD5's length suffix. Written to out[0..3] as stored at bytes
   4..19. */
void xgdi_d3d12_dxbc_checksum(const void *dxbc, size_t size, uint32_t out[4]);

#endif
