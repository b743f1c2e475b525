/*
 * sw_spirv.h - the software renderer's SPIR-V executor.
 *
 * The software renderer is the reference, so it runs the same shader code the GPU renderers
 * run: a SPIR-V module (Vulkan 1.0 environment, Logical addressing, the Shader capability) is
 * validated and decoded once into a compact instruction array with resolved ids, types and
 * constants; invocations then execute four lanes per instruction:
 *   - vertex stage: up to four vertices at once (lanes are independent);
 *   - fragment stage: one 2x2 quad; lane 0 = (x, y), 1 = (x + 1, y), 2 = (x, y + 1),
 *     3 = (x + 1, y + 1). Helper lanes (outside the primitive) execute like the others so
 *     derivatives and implicit-LOD sampling see four values; only the caller's live mask
 *     says which outputs count.
 * Derivatives: OpDPdx/OpDPdy/OpFwidth and implicit-LOD sampling use the coarse rule (one
 * difference per quad: dx = lane1 - lane0, dy = lane2 - lane0, as GPUs compute per-quad LOD);
 * the *Fine variants use the row/column of each lane.
 * Control flow: the lanes of a quad run together while they agree; where they diverge the
 * lanes waiting at the earliest block (in module order, where SPIR-V's structured order puts
 * a construct's blocks before its merge block) run first, so lanes reconverge at merge blocks
 * and loop exits. Values written by some lanes never touch the others' lanes.
 * OpKill ends a lane (its outputs are discarded); later derivatives in its quad read the value
 * the killed lane last held.
 *
 * Memory: the module is immutable after load and may be shared by threads; each thread
 * executes with its own state (xgdi_sw_spirv_state_create). Nothing allocates per invocation.
 * Use (per draw; a module and its state per stage, created once per effect pass and thread):
 *     xgdi_sw_spirv_load(words, count, NULL, &m, err, sizeof err);      (once)
 *     r = xgdi_sw_spirv_reflect(m); xgdi_sw_spirv_state_create(m, &s);    (once per thread)
 *     xgdi_sw_spirv_bind_uniform(s, i, bytes, size) for each r->uniform_blocks[i];
 *     xgdi_sw_spirv_bind_sampler(s, xgdi_sw_spirv_sample_textures, &textures);
 *                                                     (sw_spirv_sample.h, per resource index)
 *     per 4 vertices / per quad: write inputs through xgdi_sw_spirv_reg(s, io->reg, comp)[lane]
 *     (FragCoord and FrontFacing are inputs too), alive = xgdi_sw_spirv_execute(s, mask, NULL),
 *     read outputs the same way (Position: the io whose builtin is POSITION).
 * Untrusted input: every id, type and count is checked at load; the state size is bounded
 * (XGDI_SW_SPIRV_MAX_WORDS); dynamic array indices are clamped into their arrays; uniform
 * reads outside the bound block read 0; a loop that runs away stops at a step budget.
 */
#ifndef XGD_SW_SPIRV_H
#define XGD_SW_SPIRV_H

#include "xgd.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits of what a module may need (beyond them load says NOT_SUPPORTED with the figure). */
#define XGDI_SW_SPIRV_MAX_WORDS (1u << 22)     /* module words accepted */
#define XGDI_SW_SPIRV_MAX_STATE (1u << 20)     /* 32-bit register words of one state */
#define XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS 16
#define XGDI_SW_SPIRV_MAX_RESOURCES 32         /* images, samplers, combined image-samplers */
#define XGDI_SW_SPIRV_MAX_INTERFACE 32         /* inputs + outputs */

typedef struct xgdi_sw_spirv_module xgdi_sw_spirv_module;
typedef struct xgdi_sw_spirv_state xgdi_sw_spirv_state;

typedef enum xgdi_sw_spirv_stage {
    XGDI_SW_SPIRV_VERTEX = 0,
    XGDI_SW_SPIRV_FRAGMENT = 4 /* SPIR-V ExecutionModel values */
} xgdi_sw_spirv_stage;

typedef enum xgdi_sw_spirv_scalar {
    XGDI_SW_SPIRV_FLOAT,
    XGDI_SW_SPIRV_INT,
    XGDI_SW_SPIRV_UINT,
    XGDI_SW_SPIRV_BOOL /* stored as uint32 0 or 1 */
} xgdi_sw_spirv_scalar;

/* SPIR-V BuiltIn values the executor gives meaning to (others are refused at load). */
#define XGDI_SW_SPIRV_BUILTIN_NONE (-1)
#define XGDI_SW_SPIRV_BUILTIN_POSITION 0
#define XGDI_SW_SPIRV_BUILTIN_POINT_SIZE 1
#define XGDI_SW_SPIRV_BUILTIN_VERTEX_INDEX 42
#define XGDI_SW_SPIRV_BUILTIN_INSTANCE_INDEX 43
#define XGDI_SW_SPIRV_BUILTIN_FRAG_COORD 15
#define XGDI_SW_SPIRV_BUILTIN_FRONT_FACING 17
#define XGDI_SW_SPIRV_BUILTIN_FRAG_DEPTH 22

/* One input or output of the entry point, flattened to 32-bit components. */
typedef struct xgdi_sw_spirv_io {
    const char *name;            /* OpName of the variable ("" if none); MojoShader's linkage
                                    names (vs_oD0, ps_t0) are matched by this */
    bool output;
    int location;                /* Location decoration, -1 for a built-in (0xDEADBEEF and
                                    other huge values are reported as they are) */
    int builtin;                 /* XGDI_SW_SPIRV_BUILTIN_*, or NONE */
    xgdi_sw_spirv_scalar scalar;
    int components;              /* 32-bit components in all (vec4: 4, mat4: 16, arrays...) */
    uint32_t reg;                /* state register of component 0 (see xgdi_sw_spirv_reg) */
} xgdi_sw_spirv_io;

typedef struct xgdi_sw_spirv_uniform_block {
    const char *name;
    int set, binding;
    uint32_t size;               /* bytes: end of the last member */
    int member_count;
    const uint32_t *member_offsets; /* byte offset of each member */
} xgdi_sw_spirv_uniform_block;

typedef enum xgdi_sw_spirv_resource_kind {
    XGDI_SW_SPIRV_IMAGE,          /* a sampled image (Texture2D ...) */
    XGDI_SW_SPIRV_SAMPLER,        /* a sampler state */
    XGDI_SW_SPIRV_SAMPLED_IMAGE   /* a combined image-sampler (sampler2D ...) */
} xgdi_sw_spirv_resource_kind;

typedef enum xgdi_sw_spirv_dim {
    XGDI_SW_SPIRV_DIM_2D = 1,     /* SPIR-V Dim values */
    XGDI_SW_SPIRV_DIM_3D = 2,
    XGDI_SW_SPIRV_DIM_CUBE = 3
} xgdi_sw_spirv_dim;

typedef struct xgdi_sw_spirv_resource {
    const char *name;
    xgdi_sw_spirv_resource_kind kind;
    int set, binding;
    xgdi_sw_spirv_dim dim;       /* images and combined image-samplers */
} xgdi_sw_spirv_resource;

typedef struct xgdi_sw_spirv_reflection {
    xgdi_sw_spirv_stage stage;
    const char *entry_point;
    bool depth_replacing;        /* fragment: writes FragDepth */
    bool origin_lower_left;      /* fragment: OriginLowerLeft (else upper left) */
    bool discards;               /* contains OpKill (early depth/stencil writes must wait) */
    int io_count;
    const xgdi_sw_spirv_io *io;
    int uniform_block_count;
    const xgdi_sw_spirv_uniform_block *uniform_blocks;
    int resource_count;
    const xgdi_sw_spirv_resource *resources;
    uint32_t state_words;        /* size of one execution state's register file */
} xgdi_sw_spirv_reflection;

/* ---- sampling: the renderer provides it ----
 * One call per sampling instruction per quad (or per four vertices). Lanes not in `mask`
 * are not read back. Coordinates are normalised (cube: a direction). kind:
 *   IMPLICIT: derivatives d[] hold, per lane, du/dx dv/dx du/dy dv/dy (2D) or, for 3D/cube,
 *             the six entries du/dx dv/dx du/dy dv/dy dw/dx dw/dy (sw_sample_3d_with's order);
 *             computed across the quad; lod_bias[] holds the Bias operand (0 without);
 *   GRAD:     as IMPLICIT, with the shader's explicit gradients;
 *   LOD:      lod[] holds the explicit level of detail (lod_bias is 0). */
typedef enum xgdi_sw_spirv_sample_kind {
    XGDI_SW_SPIRV_SAMPLE_IMPLICIT,
    XGDI_SW_SPIRV_SAMPLE_GRAD,
    XGDI_SW_SPIRV_SAMPLE_LOD
} xgdi_sw_spirv_sample_kind;

typedef struct xgdi_sw_spirv_sample_request {
    int image;                   /* resource index of the image (or combined image-sampler) */
    int sampler;                 /* resource index of the sampler (== image when combined) */
    xgdi_sw_spirv_dim dim;
    xgdi_sw_spirv_sample_kind kind;
    unsigned mask;               /* lanes wanted (bit i = lane i) */
    float coord[4][3];           /* per lane */
    float deriv[4][6];           /* per lane (IMPLICIT, GRAD) */
    float lod[4];                /* per lane (LOD) */
    float lod_bias[4];           /* per lane (IMPLICIT with a Bias operand) */
} xgdi_sw_spirv_sample_request;

typedef void (*xgdi_sw_spirv_sample_fn)(void *user, const xgdi_sw_spirv_sample_request *req,
                                        float out[4][4]);

/* ---- load ----
 * words/count: the module (count in 32-bit words). entry: the entry point's name, or NULL
 * for the first. Results: XGD_OK; XGD_ERROR_INVALID_ARGUMENT for a malformed module (bad
 * header, truncated instruction, id out of range, wrong operand kinds); XGD_ERROR_NOT_SUPPORTED
 * for a valid module outside the executor's subset (the opcode, capability, storage class or
 * limit is named); XGD_ERROR_OUT_OF_MEMORY. The message goes to err (may be NULL). */
xgd_result xgdi_sw_spirv_load(const uint32_t *words, size_t count, const char *entry,
                              xgdi_sw_spirv_module **out, char *err, size_t err_size);
void xgdi_sw_spirv_free(xgdi_sw_spirv_module *m);
const xgdi_sw_spirv_reflection *xgdi_sw_spirv_reflect(const xgdi_sw_spirv_module *m);

/* ---- execution state (one per thread) ---- */
xgd_result xgdi_sw_spirv_state_create(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_state **out);
void xgdi_sw_spirv_state_free(xgdi_sw_spirv_state *s);
/* Binds uniform block `index` (reflection order): `size` bytes at `data` (reads beyond size
   give 0). Loads at static offsets are read once, at the first execute after a binding, the
   others during execute: bind again after changing the bytes. */
void xgdi_sw_spirv_bind_uniform(xgdi_sw_spirv_state *s, int index, const void *data,
                                size_t size);
void xgdi_sw_spirv_bind_sampler(xgdi_sw_spirv_state *s, xgdi_sw_spirv_sample_fn fn, void *user);
/* Component `comp` of interface register `reg` (xgdi_sw_spirv_io.reg): four lanes of float
   (or int / uint / bool as uint32, same storage). Inputs are written before execute; outputs
   read after. */
float *xgdi_sw_spirv_reg(xgdi_sw_spirv_state *s, uint32_t reg, int comp);
/* The whole register file (it never moves): lane l of component comp of register reg is at
   [reg + 4 * comp + l], for callers that address many registers per invocation. */
float *xgdi_sw_spirv_regs(xgdi_sw_spirv_state *s);

/* Runs the lanes in `mask` (vertex stage: independent invocations; fragment stage: one quad,
   all four lanes should run so derivatives are defined; pass the helper lanes too).
   Returns the mask of lanes that finished without OpKill. A step budget guards against
   modules that never terminate: when it runs out, execution stops, the lanes that had not
   finished are reported killed (lanes waiting at a merge block for a lane that never
   arrives included) and *exhausted (may be NULL) is set. */
unsigned xgdi_sw_spirv_execute(xgdi_sw_spirv_state *s, unsigned mask, bool *exhausted);

/* ---- shapes the renderer may run without the executor ----
 * A fragment shader whose only output, COLOR0 (float4), is
 *     Sample(resource, input.xy) * input2     (implicit level of detail, 2D, no bias)
 * computed in straight-line code (SpriteBatch's pixel shader, and every "texture times
 * vertex colour" effect). The caller may then compute the same values itself: the sample
 * request as the executor builds it (coarse quad derivatives of the coordinates, lod_bias
 * 0, the resource's image and sampler indices; an invalid resource reads 0, 0, 0, 1), times
 * the input component by component, in the shader's operand order. */
typedef struct xgdi_sw_spirv_modulate {
    uint32_t resource;           /* image | sampler << 8 (resource indices) */
    bool valid;                  /* both indices name resources of the module */
    uint32_t uv_reg;             /* register word of the coordinates' u (v at +4) */
    uint32_t color_reg;          /* register word of the factor's component 0 (c at +4c) */
    bool sample_first;           /* the product is sample * factor (else factor * sample) */
} xgdi_sw_spirv_modulate;
bool xgdi_sw_spirv_match_modulate(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_modulate *out);

/* A vertex shader whose outputs are, in straight-line code,
 *     Position[r] = sum over k of a[r][k] * b[r][k]     (from +0, in order: the executor's
 *                                                       matrix-vector and dot products)
 *                   [ + f[r] * Position[3] before that addition, either operand order ]
 *     every other output component = x, or clamp(x, lo, hi) (fminf(fmaxf(x, lo), hi): FClamp,
 *                                    saturate), x a leaf or a product of two
 * where each a, b, f, lo, hi and leaf is a varying input component, a uniform component (a
 * load at a static offset, hoisted) or a constant (SpriteBatch's SpriteEffect: float4(pos.xyz,
 * 1) times MatrixTransform, plus the shader form's pixel offset times w; colour and
 * coordinates passed on; BasicEffect's unlit vertex-colour variant: saturate(DiffuseColor *
 * colour)). xgdi_sw_spirv_run_transform then writes the outputs the executor would, bit for
 * bit (a NaN is a NaN; C fixes no payload), without running the module. Leaves are state
 * registers (inputs, hoisted uniforms) or constants. A matched run costs at most a small part
 * of the executor's step budget, so the executor would never stop early on it. A pixel shader of that form without Position (every output a leaf, a product of
 * two or those clamped: BasicEffect's unlit vertex colour passes its input on) is matched
 * and run the same way, all four lanes alive. */
#define XGDI_SW_SPIRV_TRANSFORM_LEAVES 96
#define XGDI_SW_SPIRV_TRANSFORM_OUTPUTS 64
typedef struct xgdi_sw_spirv_leaf {
    bool constant;               /* value = bits; else the register word `reg` (four lanes) */
    uint32_t reg, bits;
} xgdi_sw_spirv_leaf;
typedef struct xgdi_sw_spirv_transform {
    bool has_position;           /* a vertex shader's; a pixel shader has only the outputs
                                    (its colours: "COLOR0 = input", a saturated tint) */
    uint32_t position_reg;
    uint8_t terms[4];            /* products of Position[r]; 0: Position[r] is leaf a[r][0] */
    uint16_t a[4][4], b[4][4];   /* leaf indices: term k of component r is a * b */
    uint8_t fix[4];              /* 0: no pixel offset term; else 1 | 2 (product first in the
                                    addition) | 4 (w first in the product) */
    uint16_t f[4];               /* the offset term's leaf */
    uint32_t output_count;
    struct xgdi_sw_spirv_transform_output {
        uint32_t reg;            /* the register word written */
        uint8_t form;            /* 1: a * b (else a); 2: then clamped to lo..hi */
        uint16_t a, b, lo, hi;   /* leaf indices */
    } outputs[XGDI_SW_SPIRV_TRANSFORM_OUTPUTS];
    uint32_t leaf_count;
    xgdi_sw_spirv_leaf leaves[XGDI_SW_SPIRV_TRANSFORM_LEAVES];
} xgdi_sw_spirv_transform;
bool xgdi_sw_spirv_match_transform(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_transform *out);
/* The outputs of the four lanes from the inputs in the state's registers, as execute would
   write them (every lane: lanes beyond the caller's hold whatever their inputs make). t is
   this state's module's match. */
void xgdi_sw_spirv_run_transform(xgdi_sw_spirv_state *s, const xgdi_sw_spirv_transform *t);

#endif /* XGD_SW_SPIRV_H */
