/*
 * sw_spirv.c - decodes a SPIR-V module once into a register machine and executes it four lanes
 * at a time (sw_spirv.h states the model).
 *
 * Registers: every value id, constant and variable owns a fixed range of 32-bit words in one
 * register file; component c of lane l of a value at register r is word r + 4c + l. Composite
 * values are flattened (a matrix column-major, arrays and structs in member order), so
 * OpCompositeConstruct/Extract are word copies and a load or store through a pointer whose
 * address is known at load time is one copy. Pointers into the register file hold the word
 * address of component 0 (lane 0); pointers into a uniform block hold a byte offset.
 * Constants are filled once when a state is created. The module is recursion-free (SPIR-V
 * forbids recursion), so each function's ids can own fixed registers.
 */
#include "sw_spirv.h"
#include "sw_simd.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPV_MAGIC 0x07230203u
#define SW_MAX_IDS (1u << 17)
#define SW_MAX_CALL_DEPTH 32
/* work per execute, in instructions (wide ones count per 8 components): far beyond any
   XNA-era loop nest, small enough that a module that never ends stops in well under a second */
#define SW_STEP_BUDGET (1u << 22)
#define SW_NONE 0xffffffffu

/* SPIR-V opcodes (the specification's numbers) */
enum {
    OpNop = 0, OpUndef = 1, OpSourceContinued = 2, OpSource = 3, OpSourceExtension = 4,
    OpName = 5, OpMemberName = 6, OpString = 7, OpLine = 8, OpExtension = 10,
    OpExtInstImport = 11, OpExtInst = 12, OpMemoryModel = 14, OpEntryPoint = 15,
    OpExecutionMode = 16, OpCapability = 17, OpTypeVoid = 19, OpTypeBool = 20, OpTypeInt = 21,
    OpTypeFloat = 22, OpTypeVector = 23, OpTypeMatrix = 24, OpTypeImage = 25,
    OpTypeSampler = 26, OpTypeSampledImage = 27, OpTypeArray = 28, OpTypeRuntimeArray = 29,
    OpTypeStruct = 30, OpTypePointer = 32, OpTypeFunction = 33, OpConstantTrue = 41,
    OpConstantFalse = 42, OpConstant = 43, OpConstantComposite = 44, OpConstantNull = 46,
    OpSpecConstantTrue = 48, OpSpecConstantFalse = 49, OpSpecConstant = 50,
    OpSpecConstantComposite = 51, OpFunction = 54, OpFunctionParameter = 55,
    OpFunctionEnd = 56, OpFunctionCall = 57, OpVariable = 59, OpLoad = 61, OpStore = 62,
    OpCopyMemory = 63, OpAccessChain = 65, OpInBoundsAccessChain = 66, OpDecorate = 71,
    OpMemberDecorate = 72, OpVectorExtractDynamic = 77, OpVectorInsertDynamic = 78,
    OpVectorShuffle = 79, OpCompositeConstruct = 80, OpCompositeExtract = 81,
    OpCompositeInsert = 82, OpCopyObject = 83, OpTranspose = 84, OpSampledImage = 86,
    OpImageSampleImplicitLod = 87, OpImageSampleExplicitLod = 88,
    OpImageSampleProjImplicitLod = 91, OpImageSampleProjExplicitLod = 92,
    OpConvertFToU = 109, OpConvertFToS = 110, OpConvertSToF = 111, OpConvertUToF = 112,
    OpUConvert = 113, OpSConvert = 114, OpFConvert = 115, OpBitcast = 124, OpSNegate = 126,
    OpFNegate = 127, OpIAdd = 128, OpFAdd = 129, OpISub = 130, OpFSub = 131, OpIMul = 132,
    OpFMul = 133, OpUDiv = 134, OpSDiv = 135, OpFDiv = 136, OpUMod = 137, OpSRem = 138,
    OpSMod = 139, OpFRem = 140, OpFMod = 141, OpVectorTimesScalar = 142,
    OpMatrixTimesScalar = 143, OpVectorTimesMatrix = 144, OpMatrixTimesVector = 145,
    OpMatrixTimesMatrix = 146, OpOuterProduct = 147, OpDot = 148, OpAny = 154, OpAll = 155,
    OpIsNan = 156, OpIsInf = 157, OpLogicalEqual = 164, OpLogicalNotEqual = 165,
    OpLogicalOr = 166, OpLogicalAnd = 167, OpLogicalNot = 168, OpSelect = 169,
    OpIEqual = 170, OpINotEqual = 171, OpUGreaterThan = 172, OpSGreaterThan = 173,
    OpUGreaterThanEqual = 174, OpSGreaterThanEqual = 175, OpULessThan = 176,
    OpSLessThan = 177, OpULessThanEqual = 178, OpSLessThanEqual = 179, OpFOrdEqual = 180,
    OpFUnordEqual = 181, OpFOrdNotEqual = 182, OpFUnordNotEqual = 183,
    OpFOrdLessThan = 184, OpFUnordLessThan = 185, OpFOrdGreaterThan = 186,
    OpFUnordGreaterThan = 187, OpFOrdLessThanEqual = 188, OpFUnordLessThanEqual = 189,
    OpFOrdGreaterThanEqual = 190, OpFUnordGreaterThanEqual = 191,
    OpShiftRightLogical = 194, OpShiftRightArithmetic = 195, OpShiftLeftLogical = 196,
    OpBitwiseOr = 197, OpBitwiseXor = 198, OpBitwiseAnd = 199, OpNot = 200, OpDPdx = 207,
    OpDPdy = 208, OpFwidth = 209, OpDPdxFine = 210, OpDPdyFine = 211, OpFwidthFine = 212,
    OpDPdxCoarse = 213, OpDPdyCoarse = 214, OpFwidthCoarse = 215, OpPhi = 245,
    OpLoopMerge = 246, OpSelectionMerge = 247, OpLabel = 248, OpBranch = 249,
    OpBranchConditional = 250, OpSwitch = 251, OpKill = 252, OpReturn = 253,
    OpReturnValue = 254, OpUnreachable = 255, OpNoLine = 317, OpModuleProcessed = 330
};

/* storage classes */
enum { SC_UNIFORM_CONSTANT = 0, SC_INPUT = 1, SC_UNIFORM = 2, SC_OUTPUT = 3, SC_PRIVATE = 6,
       SC_FUNCTION = 7 };

/* type kinds */
enum { T_VOID = 1, T_BOOL, T_INT, T_FLOAT, T_VEC, T_MAT, T_ARR, T_STRUCT, T_PTR, T_FUNC,
       T_IMAGE, T_SAMPLER, T_SIMAGE };

/* id kinds */
enum { K_NONE = 0, K_TYPE, K_VALUE, K_CONST, K_PTR, K_LABEL, K_FUNC, K_EXT, K_OTHER };

/* internal instructions */
enum {
    I_MOV, I_FADD, I_FSUB, I_FMUL, I_FDIV, I_FMOD, I_FREM, I_FNEG, I_IADD, I_ISUB, I_IMUL,
    I_UDIV, I_SDIV, I_UMOD, I_SREM, I_SMOD, I_INEG, I_AND, I_OR, I_XOR, I_NOT, I_SHL, I_SHRL,
    I_SHRA, I_LNOT, I_IEQ, I_INE, I_UGT, I_SGT, I_UGE, I_SGE, I_ULT, I_SLT, I_ULE, I_SLE,
    I_FOEQ, I_FUEQ, I_FONE, I_FUNE, I_FOLT, I_FULT, I_FOGT, I_FUGT, I_FOLE, I_FULE, I_FOGE,
    I_FUGE, I_F2U, I_F2S, I_S2F, I_U2F, I_ISNAN, I_ISINF, I_SELECT, I_ANY, I_ALL, I_DOT,
    I_VTS, I_MTV, I_VTM, I_MTM, I_OUTER, I_EXTRACT_DYN, I_INSERT_DYN, I_LOADP, I_STOREP,
    I_ACCESS, I_ULOAD, I_DERIV, I_SAMPLE, I_EXT, I_CALL, I_PHI, I_SIMG,
    I_HOISTED   /* a uniform load moved to the state's per-binding prologue (m->hoist) */
};

/* block terminators */
enum { B_BRANCH, B_COND, B_SWITCH, B_RETURN, B_KILL, B_UNREACHABLE };

typedef union sw_word {
    float f;
    uint32_t u;
    int32_t i;
} sw_word;

typedef struct sins {
    uint16_t op;
    uint16_t n;     /* components of the result (or of the operands, by op) */
    uint32_t d, a, b, c;
    uint32_t x;     /* op-specific: aux index, variant, ... */
} sins;

typedef struct sblock {
    uint32_t first, count;  /* instructions */
    uint32_t term;
    uint32_t cond;          /* B_COND: condition register; B_SWITCH: selector register;
                               B_RETURN: value register or SW_NONE */
    uint32_t t0, t1;        /* target blocks (B_SWITCH: default, aux index of cases) */
    uint32_t ncases;
    uint32_t func;
    uint32_t cost;          /* budget units of one execution of the block */
} sblock;

typedef struct sfunc {
    uint32_t id;
    uint32_t first_block, nblocks;
    uint32_t ret_reg, ret_n;
    uint32_t nparams;
    uint32_t params;        /* aux index: param registers */
} sfunc;

typedef struct smember {
    uint32_t type;
    uint32_t comp;          /* flattened component offset */
    uint32_t offset;        /* Offset decoration (bytes) */
    uint32_t matstride;
    uint8_t rowmajor, has_offset;
    int32_t builtin;
} smember;

typedef struct stype {
    uint8_t kind;
    uint8_t scalar;         /* xgdi_sw_spirv_scalar of the leaf for scalars/vectors/matrices */
    uint8_t storage;
    uint8_t dim;
    uint32_t comps;
    uint32_t elem;          /* element / pointee / image type id */
    uint32_t len;
    uint32_t mem;           /* struct: first member index */
    uint32_t array_stride;
    uint32_t id;
} stype;

typedef struct sid {
    uint8_t kind;
    uint8_t storage;        /* pointers */
    uint8_t dyn;            /* pointer with a per-lane part in dreg */
    uint8_t rowmajor;       /* uniform pointers: matrix layout of the pointee */
    uint8_t flags;
    uint32_t type;          /* values, constants, pointers: type id; types: stype index */
    uint32_t reg;           /* values: register; pointers: static address / byte offset */
    uint32_t dreg;
    uint32_t aux;           /* label: block; function: index; uniform pointer: block index;
                               resource variable: resource index */
    uint32_t matstride, vstride;
    int32_t loc, builtin, set, binding;
    uint32_t array_stride;
    uint32_t name;          /* word index of the OpName string, 0 if none */
} sid;

#define F_BLOCK 1
#define F_FLAT 2
#define F_NOPERSP 4
#define F_CENTROID 8
#define F_BUFFERBLOCK 16

struct xgdi_sw_spirv_module {
    xgdi_sw_spirv_reflection refl;
    xgdi_sw_spirv_io io[XGDI_SW_SPIRV_MAX_INTERFACE];
    xgdi_sw_spirv_uniform_block blocks[XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS];
    xgdi_sw_spirv_resource res[XGDI_SW_SPIRV_MAX_RESOURCES];
    uint32_t *member_offsets;
    char *names;
    sins *ins;
    uint32_t nins;
    sblock *blocks_;
    uint32_t nblocks;
    sfunc *funcs;
    uint32_t nfuncs;
    uint32_t entry_func;
    uint32_t *aux;
    uint32_t naux;
    uint32_t init_first, init_count; /* instructions run at the start of every execute */
    uint32_t *image;                 /* initial register file */
    uint32_t words;
    uint32_t scratch_words;
    /* Register ranges (start, count in words) reloaded from `image` at the start of every
       execute, when a lane may read another lane's register that it did not write in this
       execute (derivatives or implicit-LOD sampling after a lane was killed or skipped a
       block): everything but the inputs, so each execute depends on its inputs only and not
       on the quads this state ran before (threads running different quads agree). */
    uint32_t nreset;
    uint32_t reset[2 * (XGDI_SW_SPIRV_MAX_INTERFACE + 1)];
    /* Uniform loads at static offsets (the same value in every lane for the whole draw): run
       once after the uniforms are bound rather than per execute; their instructions in the
       body become I_HOISTED. Only without `reset`, which would reload their registers. */
    sins *hoist;
    uint32_t nhoist;
};

struct xgdi_sw_spirv_state {
    const xgdi_sw_spirv_module *m;
    sw_word *R;
    sw_word *scratch;
    const uint8_t *ubo[XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS];
    size_t ubo_size[XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS];
    xgdi_sw_spirv_sample_fn sample;
    void *sample_user;
    unsigned killed;
    bool uniforms_loaded;   /* the hoisted uniform loads ran since the last binding */
    /* xgdi_sw_spirv_run_transform's leaves for the shape `transform` (NULL: none yet): a
       register's four lanes, or a constant's value in four lanes of transform_values */
    const xgdi_sw_spirv_transform *transform;
    const float *transform_leaf[XGDI_SW_SPIRV_TRANSFORM_LEAVES];
    float transform_values[XGDI_SW_SPIRV_TRANSFORM_LEAVES][4];
    uint32_t budget;
    int depth;
    bool exhausted;
};

/* ======================================================================================== */
/* loader                                                                                   */
/* ======================================================================================== */

typedef struct sload {
    const uint32_t *w;
    size_t count;
    uint32_t bound;
    sid *ids;
    stype *types;
    uint32_t ntypes, ctypes;
    smember *members;
    uint32_t nmembers, cmembers;
    xgdi_sw_spirv_module *m;
    uint32_t cins, cblocks, cfuncs, caux, cimage;
    uint32_t glsl_ext;      /* id of the GLSL.std.450 import, 0 if none */
    xgd_result r;
    char *err;
    size_t err_size;
    uint32_t cur_func;
    uint32_t cur_block;
    size_t names_len, names_cap;
} sload;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static xgd_result sw_fail(sload *L, xgd_result r, const char *fmt, ...)
{
    if (L->r != XGD_OK) return L->r;
    L->r = r;
    if (L->err != NULL && L->err_size > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(L->err, L->err_size, fmt, ap);
        va_end(ap);
    }
    return r;
}
#define BAD(...) sw_fail(L, XGD_ERROR_INVALID_ARGUMENT, "SPIR-V: " __VA_ARGS__)
#define UNSUP(...) sw_fail(L, XGD_ERROR_NOT_SUPPORTED, "SPIR-V: " __VA_ARGS__)
#define NOMEM() sw_fail(L, XGD_ERROR_OUT_OF_MEMORY, "SPIR-V: out of memory")

static bool sw_grow(void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap) return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need) {
        if (n > UINT32_MAX / 2) return false;
        n *= 2;
    }
    void *q = realloc(*p, (size_t)n * elem);
    if (q == NULL) return false;
    *p = q;
    *cap = n;
    return true;
}

/* a register range of n components (4n words); the initial image holds zeros */
static uint32_t sw_alloc_reg(sload *L, uint32_t n)
{
    xgdi_sw_spirv_module *m = L->m;
    if (L->r != XGD_OK) return 0;
    if (n == 0) return m->words; /* nothing to allocate (the image may not exist yet) */
    uint64_t words = (uint64_t)m->words + (uint64_t)n * 4u;
    if (words > XGDI_SW_SPIRV_MAX_STATE) {
        UNSUP("the module needs more than %u register words (limit of the software renderer)",
              XGDI_SW_SPIRV_MAX_STATE);
        return 0;
    }
    if (!sw_grow((void **)&m->image, &L->cimage, (uint32_t)words, sizeof(uint32_t))) {
        NOMEM();
        return 0;
    }
    uint32_t r = m->words;
    memset(m->image + r, 0, (size_t)n * 16u);
    m->words = (uint32_t)words;
    return r;
}

static uint32_t sw_aux_push(sload *L, uint32_t v)
{
    xgdi_sw_spirv_module *m = L->m;
    if (L->r != XGD_OK) return 0;
    if (m->naux >= XGDI_SW_SPIRV_MAX_STATE * 2u) {
        UNSUP("module too large for the software renderer");
        return 0;
    }
    if (!sw_grow((void **)&m->aux, &L->caux, m->naux + 1, sizeof(uint32_t))) {
        NOMEM();
        return 0;
    }
    m->aux[m->naux] = v;
    return m->naux++;
}

static sins *sw_emit(sload *L, uint16_t op, uint32_t n, uint32_t d, uint32_t a, uint32_t b,
                     uint32_t c, uint32_t x)
{
    static sins dummy;
    xgdi_sw_spirv_module *m = L->m;
    if (L->r != XGD_OK) return &dummy;
    if (m->nins >= (1u << 24)) {
        UNSUP("too many instructions");
        return &dummy;
    }
    if (!sw_grow((void **)&m->ins, &L->cins, m->nins + 1, sizeof(sins))) {
        NOMEM();
        return &dummy;
    }
    if (n > m->scratch_words / 4) m->scratch_words = n * 4;
    sins *i = &m->ins[m->nins++];
    i->op = op;
    i->n = (uint16_t)(n > 0xffff ? 0xffff : n);
    if (n > 0xffff) UNSUP("a value of more than 65535 components");
    i->d = d;
    i->a = a;
    i->b = b;
    i->c = c;
    i->x = x;
    if (L->cur_block != SW_NONE) m->blocks_[L->cur_block].count++;
    return i;
}

/* ---- id and type access with checks ---- */

static sid *sw_id(sload *L, uint32_t id)
{
    static sid none;
    if (id == 0 || id >= L->bound) {
        BAD("id %u out of range (bound %u)", id, L->bound);
        return &none;
    }
    return &L->ids[id];
}

static stype *sw_type(sload *L, uint32_t id)
{
    static stype none;
    sid *s = sw_id(L, id);
    if (s->kind != K_TYPE) {
        BAD("id %u is not a type", id);
        return &none;
    }
    return &L->types[s->type];
}

/* a value operand (value or constant): its register */
static uint32_t sw_val(sload *L, uint32_t id, uint32_t *type)
{
    sid *s = sw_id(L, id);
    if (s->kind != K_VALUE && s->kind != K_CONST) {
        BAD("id %u is not a value", id);
        if (type) *type = 0;
        return 0;
    }
    if (type) *type = s->type;
    return s->reg;
}

static uint32_t sw_comps(sload *L, uint32_t type_id)
{
    return sw_type(L, type_id)->comps;
}

static const char *sw_str(sload *L, size_t at, size_t end)
{
    /* a literal string: NUL-terminated inside the instruction */
    const char *s = (const char *)(L->w + at);
    size_t max = (end - at) * 4;
    if (at >= end || memchr(s, 0, max) == NULL) {
        BAD("unterminated string literal");
        return NULL;
    }
    return s;
}

static size_t sw_strwords(const char *s) { return strlen(s) / 4 + 1; }

/* ---- types ---- */

static stype *sw_new_type(sload *L, uint32_t id, uint8_t kind)
{
    static stype none;
    sid *s = sw_id(L, id);
    if (L->r != XGD_OK) return &none;
    if (s->kind != K_NONE) {
        BAD("id %u defined twice", id);
        return &none;
    }
    if (!sw_grow((void **)&L->types, &L->ctypes, L->ntypes + 1, sizeof(stype))) {
        NOMEM();
        return &none;
    }
    s->kind = K_TYPE;
    s->type = L->ntypes;
    stype *t = &L->types[L->ntypes++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->id = id;
    t->array_stride = s->array_stride;
    return t;
}

static bool sw_is_numeric(const stype *t)
{
    return t->kind == T_BOOL || t->kind == T_INT || t->kind == T_FLOAT;
}

/* Byte offsets of each flattened component of `type` in a uniform block, at `base`. */
static void sw_ulayout(sload *L, uint32_t type_id, uint32_t base, bool rowmajor,
                       uint32_t matstride, uint32_t vstride, uint32_t **out, uint32_t depth)
{
    if (L->r != XGD_OK) return;
    if (depth > 64) {
        UNSUP("uniform type nested more than 64 deep");
        return;
    }
    stype *t = sw_type(L, type_id);
    switch (t->kind) {
    case T_BOOL: case T_INT: case T_FLOAT:
        *(*out)++ = base;
        return;
    case T_VEC:
        for (uint32_t i = 0; i < t->len; i++) *(*out)++ = base + i * vstride;
        return;
    case T_MAT: {
        uint32_t rows = sw_type(L, t->elem)->len;
        if (matstride == 0) {
            BAD("matrix in a uniform block without MatrixStride");
            return;
        }
        for (uint32_t c = 0; c < t->len; c++)
            for (uint32_t r = 0; r < rows; r++)
                *(*out)++ = base + (rowmajor ? c * 4 + r * matstride : c * matstride + r * 4);
        return;
    }
    case T_ARR:
        if (t->array_stride == 0) {
            BAD("array in a uniform block without ArrayStride");
            return;
        }
        for (uint32_t i = 0; i < t->len && L->r == XGD_OK; i++)
            sw_ulayout(L, t->elem, base + i * t->array_stride, rowmajor, matstride, 4, out,
                       depth + 1);
        return;
    case T_STRUCT:
        for (uint32_t i = 0; i < t->len && L->r == XGD_OK; i++) {
            smember *mb = &L->members[t->mem + i];
            if (!mb->has_offset) {
                BAD("struct member %u in a uniform block without Offset", i);
                return;
            }
            sw_ulayout(L, mb->type, base + mb->offset, mb->rowmajor, mb->matstride, 4, out,
                       depth + 1);
        }
        return;
    default:
        UNSUP("type of kind %d in a uniform block", t->kind);
        return;
    }
}

static uint32_t sw_usize(sload *L, uint32_t type_id, bool rowmajor, uint32_t matstride,
                         uint32_t depth)
{
    /* bytes from the start of a value to the end of its last component */
    stype *t = sw_type(L, type_id);
    if (L->r != XGD_OK || depth > 64) return 0;
    switch (t->kind) {
    case T_BOOL: case T_INT: case T_FLOAT: return 4;
    case T_VEC: return 4 * t->len;
    case T_MAT: {
        uint32_t rows = sw_type(L, t->elem)->len;
        return rowmajor ? (rows - 1) * matstride + 4 * t->len : (t->len - 1) * matstride + 4 * rows;
    }
    case T_ARR:
        return (t->len - 1) * t->array_stride +
               sw_usize(L, t->elem, rowmajor, matstride, depth + 1);
    case T_STRUCT: {
        uint32_t end = 0;
        for (uint32_t i = 0; i < t->len; i++) {
            smember *mb = &L->members[t->mem + i];
            uint64_t e = (uint64_t)mb->offset + sw_usize(L, mb->type, mb->rowmajor, mb->matstride,
                                                         depth + 1);
            if (e > (1u << 20)) {
                UNSUP("uniform block larger than 1 MiB");
                return 0;
            }
            if (e > end) end = (uint32_t)e;
        }
        return end;
    }
    default: return 0;
    }
}

/* ---- decoding of the global section ---- */

static void sw_decorate(sload *L, sid *s, const uint32_t *o, size_t n)
{
    /* o[0] = decoration, o[1..] = operands */
    switch (o[0]) {
    case 2: s->flags |= F_BLOCK; break;
    case 3: s->flags |= F_BUFFERBLOCK; break;
    case 6: if (n > 1) s->array_stride = o[1]; break;
    case 11: if (n > 1) s->builtin = (int32_t)o[1]; break;
    case 13: s->flags |= F_NOPERSP; break;
    case 14: s->flags |= F_FLAT; break;
    case 16: s->flags |= F_CENTROID; break;
    case 30: if (n > 1) s->loc = (int32_t)(o[1] > INT32_MAX ? INT32_MAX : o[1]); break;
    case 33: if (n > 1) s->binding = (int32_t)(o[1] > INT32_MAX ? INT32_MAX : o[1]); break;
    case 34: if (n > 1) s->set = (int32_t)(o[1] > INT32_MAX ? INT32_MAX : o[1]); break;
    case 15: /* Sample */ case 17: /* Invariant */ case 18: /* Restrict */
        if (o[0] == 15) UNSUP("decoration Sample (per-sample interpolation)");
        break;
    default: break; /* precision, names of linkage etc. change nothing here */
    }
}

static const char *sw_keep_name(sload *L, uint32_t at)
{
    /* copies an OpName string into the module's name pool (offset stored as pointer later) */
    if (at == 0) return NULL;
    const char *s = (const char *)(L->w + at);
    size_t n = strlen(s) + 1;
    if (L->names_len + n > L->names_cap) {
        size_t cap = L->names_cap ? L->names_cap * 2 : 256;
        while (cap < L->names_len + n) cap *= 2;
        char *p = realloc(L->m->names, cap);
        if (p == NULL) {
            NOMEM();
            return NULL;
        }
        L->m->names = p;
        L->names_cap = cap;
    }
    memcpy(L->m->names + L->names_len, s, n);
    size_t off = L->names_len;
    L->names_len += n;
    return (const char *)(uintptr_t)(off + 1); /* fixed up when the pool stops moving */
}

static void sw_fix_name(xgdi_sw_spirv_module *m, const char **p)
{
    uintptr_t off = (uintptr_t)*p;
    if (off == 0) {
        *p = "";
        return;
    }
    *p = m->names + (off - 1);
}

/* constant components into the initial image */
static void sw_const_fill(sload *L, uint32_t reg, uint32_t comp, uint32_t v)
{
    for (int l = 0; l < 4; l++) L->m->image[reg + comp * 4 + l] = v;
}

static void sw_new_value(sload *L, uint32_t id, uint32_t type, uint8_t kind)
{
    sid *s = sw_id(L, id);
    if (L->r != XGD_OK) return;
    if (s->kind != K_NONE) {
        BAD("id %u defined twice", id);
        return;
    }
    stype *t = sw_type(L, type);
    if (L->r != XGD_OK) return;
    if (t->kind == T_VOID || t->kind == T_FUNC) {
        BAD("value id %u of void or function type", id);
        return;
    }
    s->kind = kind;
    s->type = type;
    s->reg = sw_alloc_reg(L, t->comps);
}

static void sw_add_resource(sload *L, uint32_t var_id, const stype *t)
{
    xgdi_sw_spirv_module *m = L->m;
    sid *v = &L->ids[var_id];
    if (m->refl.resource_count >= XGDI_SW_SPIRV_MAX_RESOURCES) {
        UNSUP("more than %d images and samplers", XGDI_SW_SPIRV_MAX_RESOURCES);
        return;
    }
    int idx = m->refl.resource_count++;
    xgdi_sw_spirv_resource *r = &m->res[idx];
    r->name = sw_keep_name(L, v->name);
    r->set = v->set < 0 ? 0 : v->set;
    r->binding = v->binding < 0 ? 0 : v->binding;
    const stype *img = t;
    if (t->kind == T_SAMPLER) {
        r->kind = XGDI_SW_SPIRV_SAMPLER;
        r->dim = 0;
    } else {
        if (t->kind == T_SIMAGE) {
            img = sw_type(L, t->elem);
            r->kind = XGDI_SW_SPIRV_SAMPLED_IMAGE;
        } else {
            r->kind = XGDI_SW_SPIRV_IMAGE;
        }
        r->dim = (xgdi_sw_spirv_dim)img->dim;
    }
    v->aux = (uint32_t)idx;
    /* the variable's register holds the resource value: image | sampler << 8 */
    uint32_t val = (uint32_t)idx | ((uint32_t)idx << 8);
    sw_const_fill(L, v->reg, 0, val);
}

static void sw_add_io(sload *L, uint32_t var_id, bool output, const stype *pt)
{
    xgdi_sw_spirv_module *m = L->m;
    sid *v = &L->ids[var_id];
    stype *t = sw_type(L, pt->elem);
    if (L->r != XGD_OK) return;
    /* a struct of built-ins (gl_PerVertex): one entry per member */
    if (t->kind == T_STRUCT && L->members[t->mem].builtin >= 0) {
        for (uint32_t i = 0; i < t->len && L->r == XGD_OK; i++) {
            smember *mb = &L->members[t->mem + i];
            if (m->refl.io_count >= XGDI_SW_SPIRV_MAX_INTERFACE) {
                UNSUP("more than %d inputs and outputs", XGDI_SW_SPIRV_MAX_INTERFACE);
                return;
            }
            xgdi_sw_spirv_io *io = &m->io[m->refl.io_count++];
            io->name = sw_keep_name(L, v->name);
            io->output = output;
            io->location = -1;
            io->builtin = mb->builtin;
            io->scalar = (xgdi_sw_spirv_scalar)sw_type(L, mb->type)->scalar;
            io->components = (int)sw_type(L, mb->type)->comps;
            io->reg = v->reg + mb->comp * 4;
        }
        return;
    }
    if (m->refl.io_count >= XGDI_SW_SPIRV_MAX_INTERFACE) {
        UNSUP("more than %d inputs and outputs", XGDI_SW_SPIRV_MAX_INTERFACE);
        return;
    }
    xgdi_sw_spirv_io *io = &m->io[m->refl.io_count++];
    io->name = sw_keep_name(L, v->name);
    io->output = output;
    io->builtin = v->builtin;
    io->location = v->builtin >= 0 ? -1 : v->loc;
    io->scalar = (xgdi_sw_spirv_scalar)t->scalar;
    io->components = (int)t->comps;
    io->reg = v->reg;
    if (v->builtin < 0 && v->loc < 0) BAD("interface variable %u has no Location", var_id);
}

static bool sw_builtin_ok(int32_t b)
{
    return b == XGDI_SW_SPIRV_BUILTIN_POSITION || b == XGDI_SW_SPIRV_BUILTIN_POINT_SIZE ||
           b == XGDI_SW_SPIRV_BUILTIN_VERTEX_INDEX || b == XGDI_SW_SPIRV_BUILTIN_INSTANCE_INDEX ||
           b == XGDI_SW_SPIRV_BUILTIN_FRAG_COORD || b == XGDI_SW_SPIRV_BUILTIN_FRONT_FACING ||
           b == XGDI_SW_SPIRV_BUILTIN_FRAG_DEPTH;
}

typedef struct sinit { uint32_t d, s, n; } sinit;

static void sw_global_var(sload *L, const uint32_t *o, size_t n, sinit **inits, uint32_t *ninit,
                          uint32_t *cinit)
{
    /* o: result type, result, storage class [, initializer] */
    uint32_t ptype = o[0], id = o[1], sc = o[2];
    stype *pt = sw_type(L, ptype);
    if (L->r != XGD_OK) return;
    if (pt->kind != T_PTR || pt->storage != sc) {
        BAD("variable %u: type is not a pointer of its storage class", id);
        return;
    }
    sid *s = sw_id(L, id);
    if (s->kind != K_NONE) {
        BAD("id %u defined twice", id);
        return;
    }
    stype *t = sw_type(L, pt->elem);
    if (L->r != XGD_OK) return;
    s->kind = K_PTR;
    s->type = ptype;
    s->storage = (uint8_t)sc;
    switch (sc) {
    case SC_INPUT: case SC_OUTPUT: case SC_PRIVATE:
        s->reg = sw_alloc_reg(L, t->comps);
        if (n > 3) {
            uint32_t it;
            uint32_t src = sw_val(L, o[3], &it);
            if (L->r == XGD_OK && it != pt->elem) BAD("initializer type of variable %u", id);
            if (!sw_grow((void **)inits, cinit, *ninit + 1, sizeof(sinit))) {
                NOMEM();
                return;
            }
            (*inits)[(*ninit)++] = (sinit){ s->reg, src, t->comps };
        }
        if (sc != SC_PRIVATE && L->r == XGD_OK) {
            if (s->builtin >= 0 && !sw_builtin_ok(s->builtin))
                UNSUP("BuiltIn %d", s->builtin);
        }
        break;
    case SC_UNIFORM: {
        xgdi_sw_spirv_module *m = L->m;
        if (t->kind != T_STRUCT || !(L->ids[t->id].flags & F_BLOCK)) {
            if (L->ids[t->id].flags & F_BUFFERBLOCK)
                UNSUP("storage buffers (BufferBlock)");
            else
                BAD("Uniform variable %u is not a Block struct", id);
            return;
        }
        if (m->refl.uniform_block_count >= XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS) {
            UNSUP("more than %d uniform blocks", XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS);
            return;
        }
        int bi = m->refl.uniform_block_count++;
        xgdi_sw_spirv_uniform_block *b = &m->blocks[bi];
        b->name = sw_keep_name(L, s->name ? s->name : L->ids[t->id].name);
        b->set = s->set < 0 ? 0 : s->set;
        b->binding = s->binding < 0 ? 0 : s->binding;
        b->size = 0; /* once member decorations are known */
        b->member_count = (int)t->len;
        b->member_offsets = (const uint32_t *)(uintptr_t)t->mem; /* fixed up at the end */
        s->aux = (uint32_t)bi;
        s->reg = 0;
        s->vstride = 4;
        break;
    }
    case SC_UNIFORM_CONSTANT:
        if (t->kind != T_IMAGE && t->kind != T_SAMPLER && t->kind != T_SIMAGE) {
            UNSUP("UniformConstant variable %u of this type (arrays of textures or samplers)",
                  id);
            return;
        }
        s->reg = sw_alloc_reg(L, 1);
        sw_add_resource(L, id, t);
        break;
    default:
        UNSUP("storage class %u", sc);
        break;
    }
}

/* ======================================================================================== */
/* function bodies                                                                          */
/* ======================================================================================== */

/* operations the executor runs: everything else inside a function is refused by number */
static bool sw_op_info(uint32_t op, uint8_t *has_type, uint8_t *has_result)
{
    *has_type = 1;
    *has_result = 1;
    switch (op) {
    case OpNop: case OpLine: case OpNoLine: case OpStore: case OpCopyMemory:
    case OpLoopMerge: case OpSelectionMerge: case OpBranch: case OpBranchConditional:
    case OpSwitch: case OpKill: case OpReturn: case OpReturnValue: case OpUnreachable:
    case OpFunctionEnd:
        *has_type = *has_result = 0;
        return true;
    case OpLabel:
        *has_type = 0;
        return true;
    case OpUndef: case OpExtInst: case OpFunction: case OpFunctionParameter:
    case OpFunctionCall: case OpVariable: case OpLoad: case OpAccessChain:
    case OpInBoundsAccessChain: case OpVectorExtractDynamic: case OpVectorInsertDynamic:
    case OpVectorShuffle: case OpCompositeConstruct: case OpCompositeExtract:
    case OpCompositeInsert: case OpCopyObject: case OpTranspose: case OpSampledImage:
    case OpImageSampleImplicitLod: case OpImageSampleExplicitLod:
    case OpImageSampleProjImplicitLod: case OpImageSampleProjExplicitLod:
    case OpPhi:
        return true;
    default:
        if (op >= OpConvertFToU && op <= OpFConvert) return true;
        if (op == OpBitcast) return true;
        if (op >= OpSNegate && op <= OpDot) return true;
        if (op >= OpAny && op <= OpIsInf) return true;
        if (op >= OpLogicalEqual && op <= OpFUnordGreaterThanEqual) return true;
        if (op >= OpShiftRightLogical && op <= OpNot) return true;
        if (op >= OpDPdx && op <= OpFwidthCoarse) return true;
        return false;
    }
}

static const char *sw_op_name(uint32_t op)
{
    switch (op) {
    case 52: return "OpSpecConstantOp";
    case 60: return "OpImageTexelPointer";
    case 89: return "OpImageSampleDrefImplicitLod";
    case 90: return "OpImageSampleDrefExplicitLod";
    case 93: return "OpImageSampleProjDrefImplicitLod";
    case 94: return "OpImageSampleProjDrefExplicitLod";
    case 95: return "OpImageFetch";
    case 96: return "OpImageGather";
    case 97: return "OpImageDrefGather";
    case 98: return "OpImageRead";
    case 99: return "OpImageWrite";
    case 100: return "OpImage";
    case 103: return "OpImageQuerySizeLod";
    case 104: return "OpImageQuerySize";
    case 105: return "OpImageQueryLod";
    case 106: return "OpImageQueryLevels";
    case 116: return "OpQuantizeToF16";
    case 201: return "OpBitFieldInsert";
    case 202: return "OpBitFieldSExtract";
    case 203: return "OpBitFieldUExtract";
    case 204: return "OpBitReverse";
    case 205: return "OpBitCount";
    case 224: return "OpControlBarrier";
    case 225: return "OpMemoryBarrier";
    case 229: return "OpAtomicLoad";
    case 339: return "OpSelectionMerge";
    default: return "";
    }
}

/* Static layout of an access chain: returns false when something was refused. */
static void sw_access_chain(sload *L, const uint32_t *o, size_t n)
{
    /* o: result type, result, base, indices... */
    uint32_t rtype = o[0], id = o[1];
    sid *base = sw_id(L, o[2]);
    if (L->r != XGD_OK) return;
    if (base->kind != K_PTR) {
        BAD("access chain %u: base is not a pointer", id);
        return;
    }
    stype *rt = sw_type(L, rtype);
    if (L->r != XGD_OK) return;
    if (rt->kind != T_PTR || rt->storage != base->storage) {
        BAD("access chain %u: result type", id);
        return;
    }
    sid *s = &L->ids[id];
    if (s->kind != K_OTHER) {
        BAD("access chain %u: id defined twice", id);
        return;
    }
    uint32_t cur = sw_type(L, base->type)->elem;
    bool uni = base->storage == SC_UNIFORM;
    if (base->storage == SC_UNIFORM_CONSTANT) {
        UNSUP("access chains into textures or samplers (arrays of resources)");
        return;
    }
    uint32_t off = base->reg;
    bool rowmajor = base->rowmajor;
    uint32_t matstride = base->matstride, vstride = base->vstride ? base->vstride : 4;
    /* dynamic terms: (index register, stride, element count) */
    uint32_t terms[3 * 64];
    uint32_t nterms = 0;
    if (n > 64 + 3) {
        UNSUP("access chain with more than 64 indices");
        return;
    }
    for (size_t k = 3; k < n && L->r == XGD_OK; k++) {
        stype *t = sw_type(L, cur);
        sid *ix = sw_id(L, o[k]);
        if (L->r != XGD_OK) return;
        if (ix->kind != K_CONST && ix->kind != K_VALUE) {
            BAD("access chain %u: index is not a value", id);
            return;
        }
        stype *it = sw_type(L, ix->type);
        if (it->kind != T_INT) {
            BAD("access chain %u: index is not an integer", id);
            return;
        }
        bool is_const = ix->kind == K_CONST;
        uint32_t cv = is_const ? L->m->image[ix->reg] : 0;
        uint32_t stride, next, len;
        switch (t->kind) {
        case T_STRUCT:
            if (!is_const || cv >= t->len) {
                BAD("access chain %u: struct index", id);
                return;
            }
            {
                smember *mb = &L->members[t->mem + cv];
                if (uni) {
                    off += mb->offset;
                    rowmajor = mb->rowmajor;
                    matstride = mb->matstride;
                    vstride = 4;
                } else {
                    off += mb->comp * 4;
                }
                cur = mb->type;
            }
            continue;
        case T_ARR:
            next = t->elem;
            len = t->len;
            stride = uni ? t->array_stride : sw_type(L, next)->comps * 4;
            if (uni && stride == 0) {
                BAD("array in a uniform block without ArrayStride");
                return;
            }
            if (uni) vstride = 4;
            break;
        case T_MAT:
            next = t->elem;
            len = t->len;
            if (uni) {
                stride = rowmajor ? 4 : matstride;
                vstride = rowmajor ? matstride : 4;
            } else {
                stride = sw_type(L, next)->comps * 4;
            }
            break;
        case T_VEC:
            next = t->elem;
            len = t->len;
            stride = uni ? vstride : 4;
            break;
        default:
            BAD("access chain %u indexes a scalar", id);
            return;
        }
        if (is_const) {
            if ((int32_t)cv < 0 || cv >= len) {
                BAD("access chain %u: constant index %u out of range", id, cv);
                return;
            }
            off += cv * stride;
        } else {
            terms[nterms * 3] = ix->reg;
            terms[nterms * 3 + 1] = stride;
            terms[nterms * 3 + 2] = len;
            nterms++;
        }
        cur = next;
    }
    if (L->r != XGD_OK) return;
    if (cur != rt->elem) {
        BAD("access chain %u: result type does not match the indexed type", id);
        return;
    }
    s->kind = K_PTR;
    s->type = rtype;
    s->storage = base->storage;
    s->reg = off;
    s->aux = base->aux;
    s->rowmajor = rowmajor;
    s->matstride = matstride;
    s->vstride = vstride;
    if (nterms == 0 && !base->dyn) return;
    /* per lane: dreg = (base dynamic part) + static part + sum(clamp(index) * stride). A
       register-file pointer's dreg is then its whole address (reg 0); a uniform pointer keeps
       its static byte offset in reg, added by the load. */
    s->dyn = 1;
    s->dreg = sw_alloc_reg(L, 1);
    uint32_t a = sw_aux_push(L, base->dyn ? base->dreg : SW_NONE);
    sw_aux_push(L, uni ? 0 : off);
    if (!uni) s->reg = 0;
    sw_aux_push(L, nterms);
    for (uint32_t k = 0; k < nterms * 3; k++) sw_aux_push(L, terms[k]);
    sw_emit(L, I_ACCESS, 1, s->dreg, 0, 0, 0, a);
}

/* emits a copy between two pointers' storage or a load/store */
static void sw_load(sload *L, uint32_t dst, uint32_t n, sid *p, uint32_t type)
{
    if (p->storage == SC_UNIFORM) {
        uint32_t a = L->m->naux;
        /* the component offsets relative to the pointer */
        if (L->r != XGD_OK) return;
        if (!sw_grow((void **)&L->m->aux, &L->caux, L->m->naux + n, sizeof(uint32_t))) {
            NOMEM();
            return;
        }
        uint32_t *w = L->m->aux + a;
        uint32_t *end = w;
        sw_ulayout(L, type, 0, p->rowmajor, p->matstride, p->vstride ? p->vstride : 4, &end, 0);
        if (L->r != XGD_OK) return;
        if ((uint32_t)(end - w) != n) {
            BAD("uniform layout mismatch");
            return;
        }
        L->m->naux += n;
        sins *i = sw_emit(L, I_ULOAD, n, dst, p->reg, p->dyn ? p->dreg : SW_NONE, p->aux, a);
        (void)i;
        return;
    }
    if (p->dyn)
        sw_emit(L, I_LOADP, n, dst, p->dreg, 0, 0, 0);
    else
        sw_emit(L, I_MOV, n, dst, p->reg, 0, 0, 0);
}

static void sw_store(sload *L, sid *p, uint32_t src, uint32_t n)
{
    if (p->storage == SC_UNIFORM || p->storage == SC_UNIFORM_CONSTANT || p->storage == SC_INPUT) {
        BAD("store into read-only storage class %u", p->storage);
        return;
    }
    if (p->dyn)
        sw_emit(L, I_STOREP, n, 0, src, p->dreg, 0, 0);
    else
        sw_emit(L, I_MOV, n, p->reg, src, 0, 0, 0);
}

/* GLSL.std.450 instructions the executor implements */
static bool sw_ext_ok(uint32_t e)
{
    return (e >= 1 && e <= 33) || (e >= 37 && e <= 50) || e == 53 || (e >= 66 && e <= 72) ||
           (e >= 79 && e <= 81);
}

static void sw_function_op(sload *L, uint32_t op, const uint32_t *o, size_t n)
{
    xgdi_sw_spirv_module *m = L->m;
    uint32_t rt = 0, id = 0, dst = 0, nc = 0;
    uint8_t ht, hr;
    sw_op_info(op, &ht, &hr);
    size_t need = 0;
    switch (op) {
    case OpStore: case OpCopyMemory: need = 2; break;
    case OpLoad: case OpAccessChain: case OpInBoundsAccessChain: case OpCopyObject:
    case OpBitcast: case OpUConvert: case OpSConvert: case OpFConvert: case OpCompositeExtract:
    case OpTranspose: case OpFunctionCall: case OpVariable:
        need = 3; break;
    case OpCompositeInsert: case OpVectorShuffle: case OpVectorExtractDynamic:
    case OpSampledImage: case OpImageSampleImplicitLod: case OpImageSampleExplicitLod:
    case OpImageSampleProjImplicitLod: case OpImageSampleProjExplicitLod: case OpExtInst:
    case OpPhi:
        need = 4; break;
    case OpVectorInsertDynamic: need = 5; break;
    default:
        if (op >= OpDPdx && op <= OpFwidthCoarse) need = 3;
        else need = (size_t)(ht + hr);
        break;
    }
    if (n < need) {
        BAD("opcode %u: %u operands, %u needed", op, (unsigned)n, (unsigned)need);
        return;
    }
    if (ht) {
        rt = o[0];
        id = o[1];
        stype *t = sw_type(L, rt);
        if (L->r != XGD_OK) return;
        nc = t->comps;
        sid *s = &L->ids[id];
        dst = s->reg;
    }
#define OPV(k, tp) sw_val(L, o[k], tp)
    switch (op) {
    case OpNop: case OpLine: case OpNoLine: case OpLoopMerge: case OpSelectionMerge:
    case OpUndef:
        return;
    case OpVariable: {
        /* function-scope variable: storage owned by the function, initializer run on entry */
        stype *pt = sw_type(L, rt);
        if (L->r != XGD_OK) return;
        if (pt->kind != T_PTR || o[2] != SC_FUNCTION || pt->storage != SC_FUNCTION) {
            BAD("variable %u inside a function is not of storage class Function", id);
            return;
        }
        if (n > 3) {
            uint32_t it;
            uint32_t src = OPV(3, &it);
            if (L->r == XGD_OK && it != pt->elem) BAD("initializer type of variable %u", id);
            if (L->r == XGD_OK) sw_emit(L, I_MOV, sw_comps(L, pt->elem), L->ids[id].reg, src, 0, 0, 0);
        }
        return;
    }
    case OpLoad: {
        sid *p = sw_id(L, o[2]);
        if (L->r != XGD_OK) return;
        if (p->kind != K_PTR || sw_type(L, p->type)->elem != rt) {
            BAD("load %u: operand is not a pointer to the result type", id);
            return;
        }
        sw_load(L, dst, nc, p, rt);
        return;
    }
    case OpStore: {
        sid *p = sw_id(L, o[0]);
        uint32_t vt;
        uint32_t src = OPV(1, &vt);
        if (L->r != XGD_OK) return;
        if (p->kind != K_PTR || sw_type(L, p->type)->elem != vt) {
            BAD("store: operand is not a pointer to the value's type");
            return;
        }
        sw_store(L, p, src, sw_comps(L, vt));
        return;
    }
    case OpCopyMemory: {
        sid *d = sw_id(L, o[0]), *s = sw_id(L, o[1]);
        if (L->r != XGD_OK) return;
        if (d->kind != K_PTR || s->kind != K_PTR ||
            sw_type(L, d->type)->elem != sw_type(L, s->type)->elem) {
            BAD("OpCopyMemory between different types");
            return;
        }
        uint32_t t = sw_type(L, d->type)->elem;
        uint32_t c = sw_comps(L, t);
        uint32_t tmp = sw_alloc_reg(L, c);
        sw_load(L, tmp, c, s, t);
        sw_store(L, d, tmp, c);
        return;
    }
    case OpAccessChain: case OpInBoundsAccessChain:
        sw_access_chain(L, o, n);
        return;
    case OpCopyObject: case OpBitcast: case OpUConvert: case OpSConvert: case OpFConvert: {
        uint32_t vt;
        uint32_t a = OPV(2, &vt);
        if (L->r == XGD_OK && sw_comps(L, vt) != nc) BAD("%u: operand size", id);
        sw_emit(L, I_MOV, nc, dst, a, 0, 0, 0);
        return;
    }
    case OpCompositeConstruct: {
        uint32_t at = 0;
        for (size_t k = 2; k < n && L->r == XGD_OK; k++) {
            uint32_t vt;
            uint32_t a = OPV(k, &vt);
            uint32_t c = L->r == XGD_OK ? sw_comps(L, vt) : 0;
            if (at + c > nc) {
                BAD("composite construct %u: too many components", id);
                return;
            }
            sw_emit(L, I_MOV, c, dst + at * 4, a, 0, 0, 0);
            at += c;
        }
        if (L->r == XGD_OK && at != nc) BAD("composite construct %u: too few components", id);
        return;
    }
    case OpCompositeExtract: case OpCompositeInsert: {
        bool ins = op == OpCompositeInsert;
        uint32_t ot, vt = 0, obj, part = 0;
        if (ins) {
            part = OPV(2, &vt);
            obj = OPV(3, &ot);
        } else {
            obj = OPV(2, &ot);
        }
        size_t k = ins ? 4 : 3;
        uint32_t cur = ot, off = 0;
        if (n - k > 64) {
            BAD("composite index list too long");
            return;
        }
        for (; k < n && L->r == XGD_OK; k++) {
            stype *t = sw_type(L, cur);
            uint32_t ix = o[k];
            if (t->kind == T_STRUCT) {
                if (ix >= t->len) {
                    BAD("composite index %u out of range", ix);
                    return;
                }
                off += L->members[t->mem + ix].comp;
                cur = L->members[t->mem + ix].type;
            } else if (t->kind == T_ARR || t->kind == T_VEC || t->kind == T_MAT) {
                if (ix >= t->len) {
                    BAD("composite index %u out of range", ix);
                    return;
                }
                off += ix * sw_comps(L, t->elem);
                cur = t->elem;
            } else {
                BAD("composite index into a scalar");
                return;
            }
        }
        if (L->r != XGD_OK) return;
        if (ins) {
            if (cur != vt || ot != rt) {
                BAD("composite insert %u: types", id);
                return;
            }
            sw_emit(L, I_MOV, nc, dst, obj, 0, 0, 0);
            sw_emit(L, I_MOV, sw_comps(L, vt), dst + off * 4, part, 0, 0, 0);
        } else {
            if (cur != rt) {
                BAD("composite extract %u: result type", id);
                return;
            }
            sw_emit(L, I_MOV, nc, dst, obj + off * 4, 0, 0, 0);
        }
        return;
    }
    case OpVectorShuffle: {
        uint32_t t1, t2;
        uint32_t a = OPV(2, &t1), b = OPV(3, &t2);
        if (L->r != XGD_OK) return;
        uint32_t n1 = sw_comps(L, t1), n2 = sw_comps(L, t2);
        if (n - 4 != nc) {
            BAD("vector shuffle %u: component count", id);
            return;
        }
        for (uint32_t k = 0; k < nc; k++) {
            uint32_t c = o[4 + k];
            if (c == 0xffffffffu) continue; /* undefined component: left as is */
            if (c < n1)
                sw_emit(L, I_MOV, 1, dst + k * 4, a + c * 4, 0, 0, 0);
            else if (c < n1 + n2)
                sw_emit(L, I_MOV, 1, dst + k * 4, b + (c - n1) * 4, 0, 0, 0);
            else
                BAD("vector shuffle %u: component %u out of range", id, c);
        }
        return;
    }
    case OpTranspose: {
        uint32_t mt;
        uint32_t a = OPV(2, &mt);
        if (L->r != XGD_OK) return;
        stype *t = sw_type(L, mt);
        if (t->kind != T_MAT) {
            BAD("transpose of a non-matrix");
            return;
        }
        uint32_t cols = t->len, rows = sw_type(L, t->elem)->len;
        if (nc != cols * rows) {
            BAD("transpose %u: result type", id);
            return;
        }
        for (uint32_t c = 0; c < cols; c++)
            for (uint32_t r = 0; r < rows; r++)
                sw_emit(L, I_MOV, 1, dst + (r * cols + c) * 4, a + (c * rows + r) * 4, 0, 0, 0);
        return;
    }
    case OpVectorExtractDynamic: case OpVectorInsertDynamic: {
        uint32_t vt, it;
        uint32_t v = OPV(2, &vt);
        if (op == OpVectorExtractDynamic) {
            uint32_t ix = OPV(3, &it);
            if (L->r == XGD_OK && nc != 1) BAD("vector extract %u: result type", id);
            sw_emit(L, I_EXTRACT_DYN, 1, dst, v, ix, 0, L->r == XGD_OK ? sw_comps(L, vt) : 1);
        } else {
            uint32_t ct;
            uint32_t comp = OPV(3, &ct);
            uint32_t ix = OPV(4, &it);
            if (L->r == XGD_OK && (vt != rt || sw_comps(L, ct) != 1)) {
                BAD("vector insert %u: types", id);
                return;
            }
            sw_emit(L, I_INSERT_DYN, nc, dst, v, comp, ix, 0);
        }
        return;
    }
    case OpSampledImage: {
        uint32_t t1, t2;
        uint32_t a = OPV(2, &t1), b = OPV(3, &t2);
        if (L->r != XGD_OK) return;
        if (sw_type(L, t1)->kind != T_IMAGE || sw_type(L, t2)->kind != T_SAMPLER) {
            BAD("OpSampledImage operands");
            return;
        }
        /* image | sampler << 8 from the two resource values */
        sw_emit(L, I_SIMG, 1, dst, a, b, 0, 0);
        return;
    }
    case OpImageSampleImplicitLod: case OpImageSampleExplicitLod:
    case OpImageSampleProjImplicitLod: case OpImageSampleProjExplicitLod: {
        uint32_t st, ct;
        uint32_t si = OPV(2, &st);
        uint32_t co = OPV(3, &ct);
        if (L->r != XGD_OK) return;
        stype *sty = sw_type(L, st);
        if (sty->kind != T_SIMAGE) {
            BAD("sampling %u: operand is not a sampled image", id);
            return;
        }
        stype *img = sw_type(L, sty->elem);
        if (img->scalar != XGDI_SW_SPIRV_FLOAT || nc != 4) {
            UNSUP("sampling integer images");
            return;
        }
        need = img->dim == XGDI_SW_SPIRV_DIM_2D ? 2 : 3;
        bool proj = op == OpImageSampleProjImplicitLod || op == OpImageSampleProjExplicitLod;
        uint32_t cc = sw_comps(L, ct);
        if (cc < need + (proj ? 1u : 0u) || sw_type(L, ct)->scalar != XGDI_SW_SPIRV_FLOAT) {
            BAD("sampling %u: coordinate has too few components", id);
            return;
        }
        uint32_t mask = n > 4 ? o[4] : 0;
        uint32_t kind = XGDI_SW_SPIRV_SAMPLE_IMPLICIT, lodreg = SW_NONE, g1 = SW_NONE,
                 g2 = SW_NONE;
        size_t k = n > 4 ? 5 : 4;
        bool explicit_ = op == OpImageSampleExplicitLod || op == OpImageSampleProjExplicitLod;
        if (mask & ~0x7u) {
            UNSUP("image operands 0x%x (offsets, MinLod)", mask);
            return;
        }
        if (mask & 1) { /* Bias */
            if (explicit_ || k >= n) {
                BAD("Bias operand");
                return;
            }
            lodreg = OPV(k, NULL);
            k++;
        }
        if (mask & 2) { /* Lod */
            if (!explicit_ || k >= n) {
                BAD("Lod operand");
                return;
            }
            kind = XGDI_SW_SPIRV_SAMPLE_LOD;
            lodreg = OPV(k, NULL);
            k++;
        }
        if (mask & 4) { /* Grad */
            if (!explicit_ || k + 1 >= n) {
                BAD("Grad operands");
                return;
            }
            kind = XGDI_SW_SPIRV_SAMPLE_GRAD;
            uint32_t gt, gt2;
            g1 = OPV(k, &gt);
            g2 = OPV(k + 1, &gt2);
            if (L->r == XGD_OK && (sw_comps(L, gt) < need || sw_comps(L, gt2) < need)) {
                BAD("Grad operand size");
                return;
            }
            k += 2;
        }
        if (explicit_ && !(mask & 6)) {
            BAD("explicit-LOD sampling without Lod or Grad");
            return;
        }
        if (k != n) {
            BAD("sampling %u: operand count", id);
            return;
        }
        uint32_t a = sw_aux_push(L, si);
        sw_aux_push(L, co);
        sw_aux_push(L, kind);
        sw_aux_push(L, lodreg);
        sw_aux_push(L, g1);
        sw_aux_push(L, g2);
        sw_aux_push(L, img->dim);
        sw_aux_push(L, proj ? need : 0); /* component that divides, 0 without projection */
        sw_emit(L, I_SAMPLE, 4, dst, 0, 0, 0, a);
        return;
    }
    case OpExtInst: {
        if (o[2] != L->glsl_ext || L->glsl_ext == 0) {
            UNSUP("extended instruction set other than GLSL.std.450");
            return;
        }
        uint32_t e = n > 3 ? o[3] : 0;
        if (!sw_ext_ok(e)) {
            UNSUP("GLSL.std.450 instruction %u", e);
            return;
        }
        uint32_t args[3] = { 0, 0, 0 }, an = 0, t0 = 0, ac[3] = { 0, 0, 0 }, at[3] = { 0, 0, 0 };
        for (size_t k = 4; k < n && L->r == XGD_OK; k++) {
            if (an >= 3) {
                BAD("GLSL.std.450 %u: too many operands", e);
                return;
            }
            uint32_t tt;
            args[an] = OPV(k, &tt);
            if (L->r != XGD_OK) return;
            ac[an] = sw_comps(L, tt);
            at[an] = tt;
            if (an == 0) t0 = tt;
            an++;
        }
        if (L->r != XGD_OK) return;
        /* operand count of each instruction */
        uint32_t arity = 1;
        if (e == 25 || e == 26 || (e >= 37 && e <= 42) || e == 48 || e == 53 || e == 67 ||
            e == 68 || e == 71 || e == 79 || e == 80)
            arity = 2;
        else if ((e >= 43 && e <= 47) || e == 49 || e == 50 || e == 70 || e == 72 || e == 81)
            arity = 3;
        if (an != arity) {
            BAD("GLSL.std.450 %u: %u operands, %u expected", e, an, arity);
            return;
        }
        /* component count of the first operand (length, dot-like ops reduce it) */
        uint32_t n0 = sw_comps(L, t0);
        if (e == 33) { /* Determinant: n = rows */
            stype *t = sw_type(L, t0);
            if (t->kind != T_MAT || t->len != sw_type(L, t->elem)->len || t->len > 4) {
                BAD("Determinant of a non-square matrix");
                return;
            }
            n0 = t->len;
        }
        if (e == 68 && n0 != 3) {
            BAD("Cross of non-3-component vectors");
            return;
        }
        /* operand sizes: reductions and geometric ops work on n0, the rest per component */
        bool sizes_ok;
        if (e == 33 || e == 66 || e == 67)
            sizes_ok = nc == 1 && (e == 33 || (ac[0] == n0 && (arity < 2 || ac[1] == n0)));
        else if (e >= 68 && e <= 72)
            sizes_ok = nc == n0 && (arity < 2 || ac[1] == n0) && (e != 70 || ac[2] == n0) &&
                       (e != 72 || ac[2] == 1);
        else
            sizes_ok = ac[0] == nc && (arity < 2 || ac[1] == nc) && (arity < 3 || ac[2] == nc);
        if (!sizes_ok) {
            BAD("GLSL.std.450 %u: operand sizes", e);
            return;
        }
        /* glslang gives HLSL's ldexp a float exponent (HLSL's own semantics, x * 2^exp):
           executed as such rather than refused */
        if (e == 53 && sw_type(L, at[1])->scalar == XGDI_SW_SPIRV_FLOAT) e = 253;
        sins *i = sw_emit(L, I_EXT, nc, dst, args[0], args[1], args[2], e);
        i->x = e | (n0 << 16);
        return;
    }
    case OpDPdx: case OpDPdy: case OpFwidth: case OpDPdxFine: case OpDPdyFine:
    case OpFwidthFine: case OpDPdxCoarse: case OpDPdyCoarse: case OpFwidthCoarse: {
        uint32_t at2;
        uint32_t a = OPV(2, &at2);
        if (L->r == XGD_OK && sw_comps(L, at2) != nc) BAD("derivative %u: operand size", id);
        sw_emit(L, I_DERIV, nc, dst, a, 0, 0, op);
        return;
    }
    case OpFunctionCall: {
        sid *f = sw_id(L, o[2]);
        if (L->r != XGD_OK) return;
        if (f->kind != K_FUNC) {
            BAD("call %u: callee is not a function", id);
            return;
        }
        sfunc *fn = &m->funcs[f->aux];
        if (n - 3 != fn->nparams) {
            BAD("call %u: argument count", id);
            return;
        }
        /* arguments: (source register, components, pointer flag) per parameter */
        uint32_t a = sw_aux_push(L, (uint32_t)(n - 3));
        for (size_t k = 3; k < n && L->r == XGD_OK; k++) {
            sid *arg = sw_id(L, o[k]);
            uint32_t pn = m->aux[fn->params + 2 * (k - 3) + 1];
            if (L->r != XGD_OK) return;
            if (arg->kind == K_PTR) {
                if (!(pn & 0x80000000u) || (pn & 0x7fffffffu) != sw_type(L, arg->type)->elem) {
                    BAD("call %u: pointer argument of another type", id);
                    return;
                }
                if (arg->storage == SC_UNIFORM || arg->storage == SC_UNIFORM_CONSTANT) {
                    UNSUP("pointers to uniform blocks or resources as function arguments");
                    return;
                }
                sw_aux_push(L, arg->dyn ? arg->dreg : arg->reg);
                sw_aux_push(L, arg->dyn ? 2 : 1); /* 1: static address, 2: per-lane register */
            } else if (arg->kind == K_VALUE || arg->kind == K_CONST) {
                if ((pn & 0x80000000u) || pn != sw_comps(L, arg->type)) {
                    BAD("call %u: argument type", id);
                    return;
                }
                sw_aux_push(L, arg->reg);
                sw_aux_push(L, 0);
            } else {
                BAD("call %u: argument is not a value", id);
                return;
            }
        }
        if (fn->ret_n != nc) {
            BAD("call %u: result type", id);
            return;
        }
        sw_emit(L, I_CALL, nc, dst, 0, 0, 0, a)->a = f->aux;
        return;
    }
    case OpPhi: {
        if ((n - 2) % 2 != 0 || n < 4) {
            BAD("phi %u: operand count", id);
            return;
        }
        /* values are copied to a shadow first: all phis of a block read before any writes */
        uint32_t shadow = sw_alloc_reg(L, nc);
        uint32_t a = sw_aux_push(L, (uint32_t)(n - 2) / 2);
        for (size_t k = 2; k + 1 < n && L->r == XGD_OK; k += 2) {
            uint32_t vt;
            uint32_t v = OPV(k, &vt);
            sid *lb = sw_id(L, o[k + 1]);
            if (L->r != XGD_OK) return;
            if (lb->kind != K_LABEL || vt != rt) {
                BAD("phi %u: operand", id);
                return;
            }
            sw_aux_push(L, lb->aux);
            sw_aux_push(L, v);
        }
        sw_emit(L, I_PHI, nc, dst, shadow, 0, 0, a);
        return;
    }
    default:
        break;
    }
    /* arithmetic: result type decides the component count; operands must match */
    uint32_t t1 = 0, t2 = 0, a = 0, b = 0, c = 0;
    int nops = 1;
    if (op == OpSelect) nops = 3;
    else if (!(op == OpSNegate || op == OpFNegate || op == OpNot || op == OpLogicalNot ||
               op == OpAny || op == OpAll || op == OpIsNan || op == OpIsInf ||
               (op >= OpConvertFToU && op <= OpConvertUToF)))
        nops = 2;
    if ((size_t)(2 + nops) != n) {
        BAD("instruction %u (opcode %u): operand count", id, op);
        return;
    }
    a = OPV(2, &t1);
    if (nops >= 2) b = OPV(3, &t2);
    if (nops == 3) c = OPV(4, NULL);
    if (L->r != XGD_OK) return;
    uint32_t n1 = sw_comps(L, t1), n2 = nops >= 2 ? sw_comps(L, t2) : 0;
    uint16_t iop;
    switch (op) {
    case OpConvertFToU: iop = I_F2U; break;
    case OpConvertFToS: iop = I_F2S; break;
    case OpConvertSToF: iop = I_S2F; break;
    case OpConvertUToF: iop = I_U2F; break;
    case OpSNegate: iop = I_INEG; break;
    case OpFNegate: iop = I_FNEG; break;
    case OpIAdd: iop = I_IADD; break;
    case OpFAdd: iop = I_FADD; break;
    case OpISub: iop = I_ISUB; break;
    case OpFSub: iop = I_FSUB; break;
    case OpIMul: iop = I_IMUL; break;
    case OpFMul: iop = I_FMUL; break;
    case OpUDiv: iop = I_UDIV; break;
    case OpSDiv: iop = I_SDIV; break;
    case OpFDiv: iop = I_FDIV; break;
    case OpUMod: iop = I_UMOD; break;
    case OpSRem: iop = I_SREM; break;
    case OpSMod: iop = I_SMOD; break;
    case OpFRem: iop = I_FREM; break;
    case OpFMod: iop = I_FMOD; break;
    case OpVectorTimesScalar: case OpMatrixTimesScalar:
        if (n2 != 1 || n1 != nc) {
            BAD("%u: scalar product operand sizes", id);
            return;
        }
        sw_emit(L, I_VTS, nc, dst, a, b, 0, 0);
        return;
    case OpDot:
        if (n1 != n2 || nc != 1) {
            BAD("%u: dot operand sizes", id);
            return;
        }
        sw_emit(L, I_DOT, n1, dst, a, b, 0, 0);
        return;
    case OpMatrixTimesVector: case OpVectorTimesMatrix: case OpMatrixTimesMatrix:
    case OpOuterProduct: {
        stype *ta = sw_type(L, t1), *tb = sw_type(L, t2);
        uint32_t cols, rows, k2;
        if (op == OpMatrixTimesVector) {
            if (ta->kind != T_MAT) { BAD("%u: operand kinds", id); return; }
            cols = ta->len; rows = sw_type(L, ta->elem)->len;
            if (n2 != cols || nc != rows) { BAD("%u: operand sizes", id); return; }
            sw_emit(L, I_MTV, rows, dst, a, b, 0, cols);
        } else if (op == OpVectorTimesMatrix) {
            if (tb->kind != T_MAT) { BAD("%u: operand kinds", id); return; }
            cols = tb->len; rows = sw_type(L, tb->elem)->len;
            if (n1 != rows || nc != cols) { BAD("%u: operand sizes", id); return; }
            sw_emit(L, I_VTM, cols, dst, a, b, 0, rows);
        } else if (op == OpMatrixTimesMatrix) {
            if (ta->kind != T_MAT || tb->kind != T_MAT) { BAD("%u: operand kinds", id); return; }
            rows = sw_type(L, ta->elem)->len; k2 = ta->len; cols = tb->len;
            if (sw_type(L, tb->elem)->len != k2 || nc != cols * rows) {
                BAD("%u: operand sizes", id);
                return;
            }
            sw_emit(L, I_MTM, nc, dst, a, b, rows, k2);
        } else {
            if (nc != n1 * n2) { BAD("%u: operand sizes", id); return; }
            sw_emit(L, I_OUTER, nc, dst, a, b, n1, n2);
        }
        return;
    }
    case OpAny: case OpAll:
        if (nc != 1) { BAD("%u: result of any/all", id); return; }
        sw_emit(L, op == OpAny ? I_ANY : I_ALL, n1, dst, a, 0, 0, 0);
        return;
    case OpIsNan: iop = I_ISNAN; break;
    case OpIsInf: iop = I_ISINF; break;
    case OpLogicalEqual: iop = I_IEQ; break;
    case OpLogicalNotEqual: iop = I_INE; break;
    case OpLogicalOr: iop = I_OR; break;
    case OpLogicalAnd: iop = I_AND; break;
    case OpLogicalNot: iop = I_LNOT; break;
    case OpSelect: {
        uint32_t ct = c ? 0 : 0;
        (void)ct;
        /* the condition is a bool of the result's size or a scalar */
        if (n1 != 1 && n1 != nc) { BAD("%u: select condition size", id); return; }
        uint32_t t3;
        sw_val(L, o[4], &t3);
        if (n2 != nc || sw_comps(L, t3) != nc) { BAD("%u: select operand sizes", id); return; }
        sw_emit(L, I_SELECT, nc, dst, a, b, c, n1 == 1 && nc != 1);
        return;
    }
    case OpIEqual: iop = I_IEQ; break;
    case OpINotEqual: iop = I_INE; break;
    case OpUGreaterThan: iop = I_UGT; break;
    case OpSGreaterThan: iop = I_SGT; break;
    case OpUGreaterThanEqual: iop = I_UGE; break;
    case OpSGreaterThanEqual: iop = I_SGE; break;
    case OpULessThan: iop = I_ULT; break;
    case OpSLessThan: iop = I_SLT; break;
    case OpULessThanEqual: iop = I_ULE; break;
    case OpSLessThanEqual: iop = I_SLE; break;
    case OpFOrdEqual: iop = I_FOEQ; break;
    case OpFUnordEqual: iop = I_FUEQ; break;
    case OpFOrdNotEqual: iop = I_FONE; break;
    case OpFUnordNotEqual: iop = I_FUNE; break;
    case OpFOrdLessThan: iop = I_FOLT; break;
    case OpFUnordLessThan: iop = I_FULT; break;
    case OpFOrdGreaterThan: iop = I_FOGT; break;
    case OpFUnordGreaterThan: iop = I_FUGT; break;
    case OpFOrdLessThanEqual: iop = I_FOLE; break;
    case OpFUnordLessThanEqual: iop = I_FULE; break;
    case OpFOrdGreaterThanEqual: iop = I_FOGE; break;
    case OpFUnordGreaterThanEqual: iop = I_FUGE; break;
    case OpShiftRightLogical: iop = I_SHRL; break;
    case OpShiftRightArithmetic: iop = I_SHRA; break;
    case OpShiftLeftLogical: iop = I_SHL; break;
    case OpBitwiseOr: iop = I_OR; break;
    case OpBitwiseXor: iop = I_XOR; break;
    case OpBitwiseAnd: iop = I_AND; break;
    case OpNot: iop = I_NOT; break;
    default:
        UNSUP("opcode %u", op);
        return;
    }
    if (n1 != nc || (nops >= 2 && n2 != nc)) {
        BAD("instruction %u (opcode %u): operand sizes", id, op);
        return;
    }
    sw_emit(L, iop, nc, dst, a, b, 0, 0);
#undef OPV
}

/* Terminators end a block: recorded in the block instead of the instruction stream. */
static void sw_terminator(sload *L, uint32_t op, const uint32_t *o, size_t n)
{
    xgdi_sw_spirv_module *m = L->m;
    if (L->cur_block == SW_NONE) {
        BAD("terminator outside a block");
        return;
    }
    sblock *b = &m->blocks_[L->cur_block];
    b->cond = SW_NONE;
    switch (op) {
    case OpBranch: {
        sid *t = sw_id(L, o[0]);
        if (L->r == XGD_OK && t->kind != K_LABEL) BAD("branch target is not a label");
        b->term = B_BRANCH;
        b->t0 = t->aux;
        break;
    }
    case OpBranchConditional: {
        if (n < 3) {
            BAD("OpBranchConditional operands");
            return;
        }
        uint32_t ct;
        b->cond = sw_val(L, o[0], &ct);
        sid *t = sw_id(L, o[1]), *f = sw_id(L, o[2]);
        if (L->r != XGD_OK) return;
        if (t->kind != K_LABEL || f->kind != K_LABEL || sw_type(L, ct)->kind != T_BOOL)
            BAD("OpBranchConditional operands");
        b->term = B_COND;
        b->t0 = t->aux;
        b->t1 = f->aux;
        break;
    }
    case OpSwitch: {
        if (n < 2 || (n - 2) % 2 != 0) {
            BAD("OpSwitch operands");
            return;
        }
        uint32_t st;
        b->cond = sw_val(L, o[0], &st);
        sid *d = sw_id(L, o[1]);
        if (L->r != XGD_OK) return;
        if (d->kind != K_LABEL || sw_type(L, st)->kind != T_INT) {
            BAD("OpSwitch operands");
            return;
        }
        b->term = B_SWITCH;
        b->t0 = d->aux;
        b->ncases = (uint32_t)(n - 2) / 2;
        b->t1 = m->naux;
        for (size_t k = 2; k + 1 < n && L->r == XGD_OK; k += 2) {
            sid *t = sw_id(L, o[k + 1]);
            if (L->r == XGD_OK && t->kind != K_LABEL) BAD("OpSwitch target is not a label");
            sw_aux_push(L, o[k]);
            sw_aux_push(L, t->aux);
        }
        break;
    }
    case OpReturn:
        b->term = B_RETURN;
        break;
    case OpReturnValue: {
        uint32_t vt;
        b->term = B_RETURN;
        b->cond = sw_val(L, o[0], &vt);
        sfunc *f = &m->funcs[L->cur_func];
        if (L->r == XGD_OK && sw_comps(L, vt) != f->ret_n) BAD("OpReturnValue type");
        break;
    }
    case OpKill:
        b->term = B_KILL;
        m->refl.discards = true;
        break;
    default:
        b->term = B_UNREACHABLE;
        break;
    }
    L->cur_block = SW_NONE;
}

/* ======================================================================================== */
/* load                                                                                     */
/* ======================================================================================== */

static void sw_module_free(xgdi_sw_spirv_module *m)
{
    if (m == NULL) return;
    free(m->member_offsets);
    free(m->names);
    free(m->ins);
    free(m->blocks_);
    free(m->funcs);
    free(m->aux);
    free(m->image);
    free(m->hoist);
    free(m);
}

void xgdi_sw_spirv_free(xgdi_sw_spirv_module *m) { sw_module_free(m); }

const xgdi_sw_spirv_reflection *xgdi_sw_spirv_reflect(const xgdi_sw_spirv_module *m)
{
    return &m->refl;
}

static void sw_parse(sload *L, const char *entry)
{
    xgdi_sw_spirv_module *m = L->m;
    const uint32_t *w = L->w;
    size_t count = L->count;
    uint32_t entry_id = 0, model = 0;
    size_t entry_at = 0, entry_end = 0;
    sinit *inits = NULL;
    uint32_t ninit = 0, cinit = 0;
    bool in_functions = false;

    /* pass 1: global section and the pre-pass over functions (ids, labels, functions) */
    for (size_t at = 5; at < count && L->r == XGD_OK;) {
        uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
        if (wc == 0 || wc > count - at) {
            BAD("instruction at word %u has word count %u beyond the module", (unsigned)at, wc);
            break;
        }
        const uint32_t *o = w + at + 1;
        size_t n = wc - 1;
        size_t end = at + wc;
        uint8_t ht, hr;
        if (in_functions || op == OpFunction) {
            in_functions = true;
            if (!sw_op_info(op, &ht, &hr)) {
                const char *nm = sw_op_name(op);
                UNSUP("opcode %u%s%s inside a function", op, nm[0] ? " " : "", nm);
                break;
            }
            if ((size_t)(ht + hr) > n) {
                BAD("opcode %u: missing result", op);
                break;
            }
            if (op == OpFunction) {
                if (n < 4) { BAD("OpFunction operands"); break; }
                sid *s = sw_id(L, o[1]);
                stype *rt = sw_type(L, o[0]);
                if (L->r != XGD_OK) break;
                if (s->kind != K_NONE) { BAD("id %u defined twice", o[1]); break; }
                if (!sw_grow((void **)&m->funcs, &L->cfuncs, m->nfuncs + 1, sizeof(sfunc))) {
                    NOMEM();
                    break;
                }
                s->kind = K_FUNC;
                s->aux = m->nfuncs;
                sfunc *f = &m->funcs[m->nfuncs++];
                memset(f, 0, sizeof *f);
                f->id = o[1];
                f->ret_n = rt->kind == T_VOID ? 0 : rt->comps;
                f->ret_reg = f->ret_n ? sw_alloc_reg(L, f->ret_n) : 0;
                f->first_block = m->nblocks;
                f->params = m->naux;
                L->cur_func = s->aux;
            } else if (op == OpFunctionParameter) {
                if (L->cur_func == SW_NONE) { BAD("parameter outside a function"); break; }
                sfunc *f = &m->funcs[L->cur_func];
                if (f->nblocks != 0) { BAD("parameter after the first block"); break; }
                sid *s = sw_id(L, o[1]);
                stype *pt = sw_type(L, o[0]);
                if (L->r != XGD_OK) break;
                if (s->kind != K_NONE) { BAD("id %u defined twice", o[1]); break; }
                /* parameters recorded as (register, components or SW_NONE for pointers) pairs,
                   split into two lists below */
                if (pt->kind == T_PTR) {
                    s->kind = K_PTR;
                    s->type = o[0];
                    s->storage = pt->storage;
                    s->dyn = 1;
                    s->dreg = sw_alloc_reg(L, 1);
                    s->vstride = 4;
                    sw_aux_push(L, s->dreg);
                    sw_aux_push(L, 0x80000000u | pt->elem);
                } else {
                    sw_new_value(L, o[1], o[0], K_VALUE);
                    sw_aux_push(L, s->reg);
                    sw_aux_push(L, pt->comps);
                }
                f->nparams++;
            } else if (op == OpLabel) {
                if (L->cur_func == SW_NONE) { BAD("label outside a function"); break; }
                sid *s = sw_id(L, o[0]);
                if (L->r != XGD_OK) break;
                if (s->kind != K_NONE) { BAD("id %u defined twice", o[0]); break; }
                if (!sw_grow((void **)&m->blocks_, &L->cblocks, m->nblocks + 1, sizeof(sblock))) {
                    NOMEM();
                    break;
                }
                s->kind = K_LABEL;
                s->aux = m->nblocks;
                memset(&m->blocks_[m->nblocks], 0, sizeof(sblock));
                m->blocks_[m->nblocks].func = L->cur_func;
                m->blocks_[m->nblocks].term = B_UNREACHABLE;
                m->nblocks++;
                m->funcs[L->cur_func].nblocks++;
            } else if (op == OpFunctionEnd) {
                if (L->cur_func == SW_NONE) { BAD("OpFunctionEnd outside a function"); break; }
                if (m->funcs[L->cur_func].nblocks == 0) {
                    UNSUP("function declarations without a body (linkage)");
                    break;
                }
                L->cur_func = SW_NONE;
            } else if (hr && op != OpAccessChain && op != OpInBoundsAccessChain) {
                if (L->cur_func == SW_NONE) { BAD("instruction outside a function"); break; }
                uint32_t rt = o[0], id = o[1];
                if (op == OpVariable) {
                    stype *pt = sw_type(L, rt);
                    sid *s = sw_id(L, id);
                    if (L->r != XGD_OK) break;
                    if (pt->kind != T_PTR) { BAD("variable of non-pointer type"); break; }
                    if (s->kind != K_NONE) { BAD("id %u defined twice", id); break; }
                    s->kind = K_PTR;
                    s->type = rt;
                    s->storage = (uint8_t)pt->storage;
                    s->vstride = 4;
                    s->reg = sw_alloc_reg(L, sw_comps(L, pt->elem));
                } else if (op != OpFunctionCall || sw_type(L, rt)->kind != T_VOID) {
                    stype *t = sw_type(L, rt);
                    if (L->r != XGD_OK) break;
                    if (t->kind == T_PTR) {
                        UNSUP("opcode %u producing a pointer (variable pointers)", op);
                        break;
                    }
                    sw_new_value(L, id, rt, K_VALUE);
                } else {
                    sid *s = sw_id(L, id);
                    if (L->r == XGD_OK && s->kind != K_NONE) { BAD("id %u defined twice", id); break; }
                    s->kind = K_OTHER;
                }
            } else if (hr) {
                sid *s = sw_id(L, o[1]);
                if (L->r == XGD_OK && s->kind != K_NONE) { BAD("id %u defined twice", o[1]); break; }
                s->kind = K_OTHER; /* an access chain: typed when its body is decoded */
            }
            at = end;
            continue;
        }
        switch (op) {
        case OpCapability:
            if (n < 1) { BAD("OpCapability operands"); break; }
            /* Matrix, Shader, DerivativeControl */
            if (o[0] != 0 && o[0] != 1 && o[0] != 51) UNSUP("capability %u", o[0]);
            break;
        case OpExtension: {
            const char *s = sw_str(L, at + 1, end);
            if (s) UNSUP("extension %s", s);
            break;
        }
        case OpExtInstImport: {
            if (n < 2) { BAD("OpExtInstImport operands"); break; }
            const char *s = sw_str(L, at + 2, end);
            if (!s) break;
            if (strcmp(s, "GLSL.std.450") != 0) { UNSUP("extended instruction set %s", s); break; }
            sid *d = sw_id(L, o[0]);
            if (L->r == XGD_OK && d->kind != K_NONE) { BAD("id %u defined twice", o[0]); break; }
            d->kind = K_EXT;
            L->glsl_ext = o[0];
            break;
        }
        case OpMemoryModel:
            if (n < 2) { BAD("OpMemoryModel operands"); break; }
            if (o[0] != 0) UNSUP("addressing model %u (only Logical)", o[0]);
            else if (o[1] != 1 && o[1] != 0) UNSUP("memory model %u", o[1]);
            break;
        case OpEntryPoint: {
            if (n < 3) { BAD("OpEntryPoint operands"); break; }
            const char *s = sw_str(L, at + 3, end);
            if (!s) break;
            if (entry_id == 0 && (entry == NULL || strcmp(entry, s) == 0)) {
                entry_id = o[1];
                model = o[0];
                entry_at = at + 3;
                entry_end = end;
            }
            break;
        }
        case OpExecutionMode:
            if (n < 2) { BAD("OpExecutionMode operands"); break; }
            if (o[0] != entry_id) break;
            switch (o[1]) {
            case 7: break;
            case 8: m->refl.origin_lower_left = true; break;
            case 9: case 14: case 15: case 16: break;
            case 12: m->refl.depth_replacing = true; break;
            default: UNSUP("execution mode %u", o[1]); break;
            }
            break;
        case OpName:
            if (n < 2) { BAD("OpName operands"); break; }
            if (sw_str(L, at + 2, end) == NULL) break;
            sw_id(L, o[0])->name = (uint32_t)(at + 2);
            break;
        case OpString: case OpSource: case OpSourceExtension: case OpSourceContinued:
        case OpMemberName: case OpModuleProcessed: case OpLine: case OpNoLine: case OpNop:
            break;
        case OpDecorate:
            if (n < 2) { BAD("OpDecorate operands"); break; }
            sw_decorate(L, sw_id(L, o[0]), o + 1, n - 1);
            break;
        case OpMemberDecorate:
            if (n < 3) BAD("OpMemberDecorate operands");
            break; /* applied once the struct exists (pass 2) */
        case OpTypeVoid: sw_new_type(L, o[0], T_VOID); break;
        case OpTypeBool: {
            stype *t = sw_new_type(L, o[0], T_BOOL);
            t->comps = 1;
            t->scalar = XGDI_SW_SPIRV_BOOL;
            break;
        }
        case OpTypeInt: case OpTypeFloat: {
            if (n < (op == OpTypeInt ? 3u : 2u)) { BAD("type operands"); break; }
            if (o[1] != 32) { UNSUP("%u-bit %s", o[1], op == OpTypeInt ? "integers" : "floats"); break; }
            stype *t = sw_new_type(L, o[0], op == OpTypeInt ? T_INT : T_FLOAT);
            t->comps = 1;
            t->scalar = op == OpTypeFloat ? XGDI_SW_SPIRV_FLOAT
                                          : (o[2] ? XGDI_SW_SPIRV_INT : XGDI_SW_SPIRV_UINT);
            break;
        }
        case OpTypeVector: case OpTypeMatrix: {
            if (n < 3) { BAD("type operands"); break; }
            stype *e = sw_type(L, o[1]);
            if (L->r != XGD_OK) break;
            if ((op == OpTypeVector && !sw_is_numeric(e)) ||
                (op == OpTypeMatrix && (e->kind != T_VEC || e->scalar != XGDI_SW_SPIRV_FLOAT)) ||
                o[2] < 2 || o[2] > 4) {
                BAD("%s of invalid element or size", op == OpTypeVector ? "vector" : "matrix");
                break;
            }
            uint8_t sc = e->scalar;
            uint32_t ec = e->comps;
            stype *t = sw_new_type(L, o[0], op == OpTypeVector ? T_VEC : T_MAT);
            t->elem = o[1];
            t->len = o[2];
            t->comps = o[2] * ec;
            t->scalar = sc;
            break;
        }
        case OpTypeImage: {
            if (n < 8) { BAD("OpTypeImage operands"); break; }
            stype *e = sw_type(L, o[1]);
            if (L->r != XGD_OK) break;
            if (o[2] != 1 && o[2] != 2 && o[2] != 3) { UNSUP("image dimension %u", o[2]); break; }
            if (o[3] == 1) { UNSUP("depth images (shadow samplers)"); break; }
            if (o[4] != 0) { UNSUP("arrayed images"); break; }
            if (o[5] != 0) { UNSUP("multisampled images"); break; }
            if (o[6] == 2) { UNSUP("storage images"); break; }
            uint8_t sc = e->scalar;
            stype *t = sw_new_type(L, o[0], T_IMAGE);
            t->comps = 1;
            t->dim = (uint8_t)o[2];
            t->scalar = sc;
            break;
        }
        case OpTypeSampler: {
            if (n < 1) { BAD("type operands"); break; }
            stype *t = sw_new_type(L, o[0], T_SAMPLER);
            t->comps = 1;
            break;
        }
        case OpTypeSampledImage: {
            if (n < 2) { BAD("type operands"); break; }
            stype *e = sw_type(L, o[1]);
            if (L->r != XGD_OK) break;
            if (e->kind != T_IMAGE) { BAD("sampled image of a non-image"); break; }
            stype *t = sw_new_type(L, o[0], T_SIMAGE);
            t->comps = 1;
            t->elem = o[1];
            break;
        }
        case OpTypeArray: {
            if (n < 3) { BAD("type operands"); break; }
            stype *e = sw_type(L, o[1]);
            sid *len = sw_id(L, o[2]);
            if (L->r != XGD_OK) break;
            if (len->kind != K_CONST || sw_type(L, len->type)->kind != T_INT) {
                BAD("array length is not an integer constant");
                break;
            }
            uint32_t nlen = m->image[len->reg];
            if (nlen == 0 || nlen > (1u << 20)) { BAD("array length %u", nlen); break; }
            uint64_t comps = (uint64_t)nlen * e->comps;
            if (e->kind == T_VOID || e->kind == T_FUNC || e->kind == T_IMAGE ||
                e->kind == T_SAMPLER || e->kind == T_SIMAGE || e->kind == T_PTR) {
                UNSUP("arrays of this element type");
                break;
            }
            if (comps > XGDI_SW_SPIRV_MAX_STATE / 4) {
                UNSUP("array of more than %u components", XGDI_SW_SPIRV_MAX_STATE / 4);
                break;
            }
            uint32_t ec = e->comps;
            uint8_t sc = e->scalar;
            stype *t = sw_new_type(L, o[0], T_ARR);
            t->elem = o[1];
            t->len = nlen;
            t->comps = nlen * ec;
            t->scalar = sc;
            break;
        }
        case OpTypeRuntimeArray:
            UNSUP("runtime arrays");
            break;
        case OpTypeStruct: {
            if (n < 1) { BAD("type operands"); break; }
            uint32_t first = L->nmembers;
            uint64_t comps = 0;
            if (!sw_grow((void **)&L->members, &L->cmembers, L->nmembers + (uint32_t)n, sizeof(smember))) {
                NOMEM();
                break;
            }
            for (size_t k = 1; k < n && L->r == XGD_OK; k++) {
                stype *e = sw_type(L, o[k]);
                if (L->r != XGD_OK) break;
                if (e->kind == T_VOID || e->kind == T_FUNC || e->kind == T_PTR ||
                    e->kind == T_IMAGE || e->kind == T_SAMPLER || e->kind == T_SIMAGE) {
                    UNSUP("struct members of this type");
                    break;
                }
                smember *mb = &L->members[L->nmembers++];
                memset(mb, 0, sizeof *mb);
                mb->type = o[k];
                mb->comp = (uint32_t)comps;
                mb->builtin = -1;
                comps += e->comps;
                if (comps > XGDI_SW_SPIRV_MAX_STATE / 4) { UNSUP("struct too large"); break; }
            }
            if (L->r != XGD_OK) break;
            if (n == 1) { UNSUP("empty structs"); break; }
            stype *t = sw_new_type(L, o[0], T_STRUCT);
            t->mem = first;
            t->len = (uint32_t)(n - 1);
            t->comps = (uint32_t)comps;
            t->scalar = XGDI_SW_SPIRV_FLOAT;
            break;
        }
        case OpTypePointer: {
            if (n < 3) { BAD("type operands"); break; }
            sw_type(L, o[2]);
            if (L->r != XGD_OK) break;
            stype *t = sw_new_type(L, o[0], T_PTR);
            t->storage = (uint8_t)(o[1] > 255 ? 255 : o[1]);
            t->elem = o[2];
            t->comps = 1;
            break;
        }
        case OpTypeFunction: {
            if (n < 2) { BAD("type operands"); break; }
            for (size_t k = 1; k < n && L->r == XGD_OK; k++) sw_type(L, o[k]);
            if (L->r == XGD_OK) sw_new_type(L, o[0], T_FUNC);
            break;
        }
        case OpConstantTrue: case OpConstantFalse: case OpSpecConstantTrue:
        case OpSpecConstantFalse: case OpConstant: case OpSpecConstant:
        case OpConstantComposite: case OpSpecConstantComposite: case OpConstantNull:
        case OpUndef: {
            if (n < 2) { BAD("constant operands"); break; }
            stype *t = sw_type(L, o[0]);
            if (L->r != XGD_OK) break;
            if (t->kind == T_PTR || t->kind == T_IMAGE || t->kind == T_SAMPLER || t->kind == T_SIMAGE) {
                UNSUP("constants of pointer or resource type");
                break;
            }
            sw_new_value(L, o[1], o[0], K_CONST);
            if (L->r != XGD_OK) break;
            uint32_t reg = L->ids[o[1]].reg;
            if (op == OpConstantTrue || op == OpSpecConstantTrue || op == OpConstantFalse ||
                op == OpSpecConstantFalse) {
                if (t->kind != T_BOOL) { BAD("boolean constant of non-bool type"); break; }
                sw_const_fill(L, reg, 0, op == OpConstantTrue || op == OpSpecConstantTrue);
            } else if (op == OpConstant || op == OpSpecConstant) {
                if (t->kind != T_INT && t->kind != T_FLOAT) { BAD("scalar constant type"); break; }
                if (n != 3) { BAD("constant %u: literal size", o[1]); break; }
                sw_const_fill(L, reg, 0, o[2]);
            } else if (op == OpConstantComposite || op == OpSpecConstantComposite) {
                uint32_t at2 = 0;
                for (size_t k = 2; k < n && L->r == XGD_OK; k++) {
                    sid *c = sw_id(L, o[k]);
                    if (L->r != XGD_OK) break;
                    if (c->kind != K_CONST) { BAD("composite constant of a non-constant"); break; }
                    uint32_t cc = sw_comps(L, c->type);
                    if (at2 + cc > t->comps) { BAD("composite constant size"); break; }
                    memcpy(m->image + reg + at2 * 4, m->image + c->reg, (size_t)cc * 16u);
                    at2 += cc;
                }
                if (L->r == XGD_OK && at2 != t->comps) BAD("composite constant size");
            }
            break;
        }
        case 52:
            UNSUP("OpSpecConstantOp");
            break;
        case OpVariable:
            if (n < 3) { BAD("OpVariable operands"); break; }
            sw_global_var(L, o, n, &inits, &ninit, &cinit);
            break;
        case OpFunctionEnd: case OpFunctionParameter: case OpLabel:
            BAD("opcode %u outside a function", op);
            break;
        default: {
            const char *nm = sw_op_name(op);
            UNSUP("opcode %u%s%s", op, nm[0] ? " " : "", nm);
            break;
        }
        }
        at = end;
    }
    if (L->r != XGD_OK) goto done;
    if (L->cur_func != SW_NONE) {
        BAD("function without OpFunctionEnd");
        goto done;
    }
    if (entry_id == 0) {
        if (entry) BAD("no entry point named %s", entry);
        else BAD("no entry point");
        goto done;
    }
    if (model != XGDI_SW_SPIRV_VERTEX && model != XGDI_SW_SPIRV_FRAGMENT) {
        UNSUP("execution model %u (only Vertex and Fragment)", model);
        goto done;
    }
    m->refl.stage = (xgdi_sw_spirv_stage)model;
    m->refl.entry_point = sw_keep_name(L, (uint32_t)(entry_at));
    {
        sid *e = sw_id(L, entry_id);
        if (L->r != XGD_OK) goto done;
        if (e->kind != K_FUNC) {
            BAD("entry point %u is not a function", entry_id);
            goto done;
        }
        m->entry_func = e->aux;
    }
    /* member decorations (structs exist now) */
    for (size_t at = 5; at < count && L->r == XGD_OK;) {
        uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
        const uint32_t *o = w + at + 1;
        if (op == OpFunction) break;
        if (op == OpMemberDecorate) {
            stype *t = sw_type(L, o[0]);
            if (L->r != XGD_OK) break;
            if (t->kind != T_STRUCT || o[1] >= t->len) {
                BAD("member decoration of a non-member");
                break;
            }
            smember *mb = &L->members[t->mem + o[1]];
            uint32_t v = wc > 4 ? o[3] : 0;
            switch (o[2]) {
            case 4: mb->rowmajor = 1; break;
            case 5: mb->rowmajor = 0; break;
            case 7: mb->matstride = v; break;
            case 11:
                mb->builtin = (int32_t)(v > INT32_MAX ? INT32_MAX : v);
                if (!sw_builtin_ok(mb->builtin)) {
                    /* unused members of gl_PerVertex (ClipDistance ...) are tolerated only
                       where nothing uses them; the capability check refuses their use */
                    if (mb->builtin != 3 && mb->builtin != 4) UNSUP("BuiltIn %d", mb->builtin);
                }
                break;
            case 35: mb->offset = v; mb->has_offset = 1; break;
            default: break;
            }
        }
        at += wc;
    }
    if (L->r != XGD_OK) goto done;
    /* uniform sizes need the member decorations: recompute */
    for (int i = 0; i < m->refl.uniform_block_count; i++) {
        xgdi_sw_spirv_uniform_block *b = &m->blocks[i];
        (void)b;
    }
    /* pass 2: function bodies */
    {
        /* global initializers first: a pseudo block run at every execute */
        m->init_first = m->nins;
        L->cur_block = SW_NONE;
        for (uint32_t i = 0; i < ninit; i++) sw_emit(L, I_MOV, inits[i].n, inits[i].d, inits[i].s, 0, 0, 0);
        m->init_count = m->nins - m->init_first;
    }
    {
        uint32_t fi = 0, bi = 0;
        in_functions = false;
        for (size_t at = 5; at < count && L->r == XGD_OK;) {
            uint32_t wc = w[at] >> 16, op = w[at] & 0xffff;
            const uint32_t *o = w + at + 1;
            size_t n = wc - 1;
            at += wc;
            if (op == OpFunction) {
                in_functions = true;
                L->cur_func = fi++;
                continue;
            }
            if (!in_functions) continue;
            switch (op) {
            case OpFunctionParameter: case OpLine: case OpNoLine: case OpNop:
                continue; /* debug lines may sit between OpFunction and its first label */
            case OpFunctionEnd:
                if (L->cur_block != SW_NONE) BAD("block without a terminator");
                L->cur_func = SW_NONE;
                continue;
            case OpLabel:
                if (L->cur_block != SW_NONE) {
                    BAD("block without a terminator");
                    break;
                }
                L->cur_block = bi++;
                m->blocks_[L->cur_block].first = m->nins;
                m->blocks_[L->cur_block].count = 0;
                continue;
            case OpBranch: case OpBranchConditional: case OpSwitch: case OpReturn:
            case OpReturnValue: case OpKill: case OpUnreachable:
                if (n < (op == OpBranch || op == OpReturnValue ? 1u : 0u)) {
                    BAD("terminator operands");
                    break;
                }
                sw_terminator(L, op, o, n);
                continue;
            default:
                if (L->cur_block == SW_NONE) {
                    BAD("instruction outside a block");
                    break;
                }
                sw_function_op(L, op, o, n);
                continue;
            }
        }
    }
    if (L->r != XGD_OK) goto done;
    if (m->funcs[m->entry_func].nparams != 0) BAD("entry point function has parameters");
    /* interface: the entry point's variables */
    for (size_t k = entry_at + sw_strwords((const char *)(w + entry_at)); k < entry_end && L->r == XGD_OK; k++) {
        sid *v = sw_id(L, w[k]);
        if (L->r != XGD_OK) break;
        if (v->kind != K_PTR) {
            BAD("entry point interface %u is not a variable", w[k]);
            break;
        }
        if (v->storage != SC_INPUT && v->storage != SC_OUTPUT) continue; /* SPIR-V 1.4 lists all */
        sw_add_io(L, w[k], v->storage == SC_OUTPUT, sw_type(L, v->type));
    }
done:
    free(inits);
}

/* The pre-pass assigns registers while parsing functions; call arguments need the callee's
   parameter lists split first, so they are read through this pair layout at emit time. */

/* Fills m->reset (see the module): needed by fragment modules that read across lanes and
   whose lanes can stop running part of the program (a kill, a branch). */
/* Fills m->hoist (see the module); false when out of memory. */
static bool sw_plan_hoist(xgdi_sw_spirv_module *m)
{
    m->nhoist = 0;
    if (m->nreset > 0) return true;
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->nins; i++)
        if (m->ins[i].op == I_ULOAD && m->ins[i].b == SW_NONE) n++;
    if (n == 0) return true;
    m->hoist = malloc(n * sizeof *m->hoist);
    if (m->hoist == NULL) return false;
    for (uint32_t i = 0; i < m->nins; i++)
        if (m->ins[i].op == I_ULOAD && m->ins[i].b == SW_NONE) {
            m->hoist[m->nhoist++] = m->ins[i];
            m->ins[i].op = I_HOISTED;

        }
    return true;
}

static void sw_plan_reset(xgdi_sw_spirv_module *m)
{
    m->nreset = 0;
    if (m->refl.stage != XGDI_SW_SPIRV_FRAGMENT) return;
    bool cross = false, diverge = false;
    for (uint32_t i = 0; i < m->nins; i++)
        if (m->ins[i].op == I_DERIV || m->ins[i].op == I_SAMPLE) cross = true;
    for (uint32_t b = 0; b < m->nblocks; b++)
        if (m->blocks_[b].term != B_BRANCH && m->blocks_[b].term != B_RETURN) diverge = true;
    if (!cross || !diverge) return;
    /* the complement of the input ranges in [0, words), inputs sorted by register */
    uint32_t lo[XGDI_SW_SPIRV_MAX_INTERFACE], hi[XGDI_SW_SPIRV_MAX_INTERFACE];
    int n = 0;
    for (int i = 0; i < m->refl.io_count; i++) {
        const xgdi_sw_spirv_io *io = &m->io[i];
        if (io->output) continue;
        uint32_t a = io->reg, e = io->reg + (uint32_t)io->components * 4u;
        int k = n++;
        while (k > 0 && lo[k - 1] > a) {
            lo[k] = lo[k - 1];
            hi[k] = hi[k - 1];
            k--;
        }
        lo[k] = a;
        hi[k] = e;
    }
    uint32_t at = 0;
    for (int i = 0; i <= n; i++) {
        uint32_t end = i < n ? lo[i] : m->words;
        if (end > m->words) end = m->words;
        if (end > at) {
            m->reset[2 * m->nreset] = at;
            m->reset[2 * m->nreset + 1] = end - at;
            m->nreset++;
        }
        if (i < n && hi[i] > at) at = hi[i];
    }
}

xgd_result xgdi_sw_spirv_load(const uint32_t *words, size_t count, const char *entry,
                              xgdi_sw_spirv_module **out, char *err, size_t err_size)
{
    sload Ls, *L = &Ls;
    memset(L, 0, sizeof *L);
    L->err = err;
    L->err_size = err_size;
    L->cur_func = SW_NONE;
    L->cur_block = SW_NONE;
    if (err && err_size) err[0] = 0;
    if (out == NULL) return sw_fail(L, XGD_ERROR_INVALID_ARGUMENT, "SPIR-V: no output");
    *out = NULL;
    if (words == NULL || count < 5) return BAD("module shorter than its 5-word header");
    if (words[0] != SPV_MAGIC) return BAD("bad magic number 0x%08x", words[0]);
    if (count > XGDI_SW_SPIRV_MAX_WORDS)
        return UNSUP("module of more than %u words", XGDI_SW_SPIRV_MAX_WORDS);
    uint32_t ver = words[1];
    if ((ver & 0xff0000ffu) != 0 || ver > 0x00010600u || ver < 0x00010000u)
        return UNSUP("SPIR-V version 0x%08x", ver);
    if (words[3] == 0) return BAD("id bound 0");
    if (words[3] > SW_MAX_IDS) return UNSUP("id bound %u (limit %u)", words[3], SW_MAX_IDS);
    if (words[4] != 0) return BAD("reserved schema word is %u", words[4]);
    L->w = words;
    L->count = count;
    L->bound = words[3];
    L->ids = calloc(L->bound, sizeof(sid));
    L->m = calloc(1, sizeof(xgdi_sw_spirv_module));
    if (L->ids == NULL || L->m == NULL) {
        free(L->ids);
        free(L->m);
        return NOMEM();
    }
    for (uint32_t i = 0; i < L->bound; i++) {
        L->ids[i].loc = -1;
        L->ids[i].builtin = -1;
        L->ids[i].set = -1;
        L->ids[i].binding = -1;
    }
    /* the parameter pairs of a function are split after the bodies, but calls emitted while
       parsing bodies read param_n: split lists are built by a first walk over functions */
    sw_parse(L, entry);
    xgdi_sw_spirv_module *m = L->m;
    if (L->r == XGD_OK) {
        /* block sizes and member offsets, now that member decorations are known */
        uint32_t total = 0;
        for (int i = 0; i < m->refl.uniform_block_count; i++) {
            total += (uint32_t)m->blocks[i].member_count;
        }
        m->member_offsets = calloc(total ? total : 1, sizeof(uint32_t));
        if (m->member_offsets == NULL) NOMEM();
        uint32_t at = 0;
        for (int i = 0; i < m->refl.uniform_block_count && L->r == XGD_OK; i++) {
            xgdi_sw_spirv_uniform_block *b = &m->blocks[i];
            uint32_t mem = (uint32_t)(uintptr_t)b->member_offsets;
            uint32_t end = 0;
            for (int k = 0; k < b->member_count; k++) {
                smember *mb = &L->members[mem + (uint32_t)k];
                m->member_offsets[at + (uint32_t)k] = mb->offset;
                uint64_t e = (uint64_t)mb->offset +
                             sw_usize(L, mb->type, mb->rowmajor, mb->matstride, 0);
                if (e > end) end = e > (1u << 20) ? (1u << 20) : (uint32_t)e;
            }
            b->size = end;
            b->member_offsets = m->member_offsets + at;
            at += (uint32_t)b->member_count;
        }
    }
    free(L->ids);
    free(L->types);
    free(L->members);
    if (L->r != XGD_OK) {
        sw_module_free(m);
        return L->r;
    }
    /* names: the pool stopped moving */
    for (int i = 0; i < m->refl.io_count; i++) sw_fix_name(m, &m->io[i].name);
    for (int i = 0; i < m->refl.uniform_block_count; i++) sw_fix_name(m, &m->blocks[i].name);
    for (int i = 0; i < m->refl.resource_count; i++) sw_fix_name(m, &m->res[i].name);
    sw_fix_name(m, &m->refl.entry_point);
    m->refl.io = m->io;
    m->refl.uniform_blocks = m->blocks;
    m->refl.resources = m->res;
    m->refl.state_words = m->words;
    if (m->scratch_words < 16) m->scratch_words = 16;
    sw_plan_reset(m);
    if (!sw_plan_hoist(m)) {
        sw_module_free(m);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t b = 0; b < m->nblocks; b++) {
        uint64_t c = 1;
        for (uint32_t i = 0; i < m->blocks_[b].count; i++) c += 1 + m->ins[m->blocks_[b].first + i].n / 8u;
        m->blocks_[b].cost = c > SW_STEP_BUDGET ? SW_STEP_BUDGET : (uint32_t)c;
    }
    *out = m;
    return XGD_OK;
}

/* ======================================================================================== */
/* execution                                                                                */
/* ======================================================================================== */

xgd_result xgdi_sw_spirv_state_create(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_state **out)
{
    xgdi_sw_spirv_state *s = calloc(1, sizeof *s);
    if (s == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    s->R = malloc(((size_t)m->words + 4) * sizeof(sw_word));
    s->scratch = malloc(((size_t)m->scratch_words + 4) * sizeof(sw_word));
    if (s->R == NULL || s->scratch == NULL) {
        free(s->R);
        free(s->scratch);
        free(s);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    if (m->words > 0) memcpy(s->R, m->image, (size_t)m->words * sizeof(uint32_t));
    s->m = m;
    *out = s;
    return XGD_OK;
}

void xgdi_sw_spirv_state_free(xgdi_sw_spirv_state *s)
{
    if (s == NULL) return;
    free(s->R);
    free(s->scratch);
    free(s);
}

void xgdi_sw_spirv_bind_uniform(xgdi_sw_spirv_state *s, int index, const void *data, size_t size)
{
    if (index < 0 || index >= XGDI_SW_SPIRV_MAX_UNIFORM_BLOCKS) return;
    s->ubo[index] = data;
    s->ubo_size[index] = data ? size : 0;
    s->uniforms_loaded = false;
}

void xgdi_sw_spirv_bind_sampler(xgdi_sw_spirv_state *s, xgdi_sw_spirv_sample_fn fn, void *user)
{
    s->sample = fn;
    s->sample_user = user;
}

float *xgdi_sw_spirv_reg(xgdi_sw_spirv_state *s, uint32_t reg, int comp)
{
    return &s->R[reg + (uint32_t)comp * 4].f;
}

float *xgdi_sw_spirv_regs(xgdi_sw_spirv_state *s)
{
    return &s->R[0].f;
}

static inline uint32_t sw_uread(const xgdi_sw_spirv_state *s, uint32_t blk, uint32_t off)
{
    /* reads beyond the bound block give 0 (robust buffer access) */
    uint32_t v = 0;
    if (s->ubo[blk] != NULL && s->ubo_size[blk] >= 4 && off <= s->ubo_size[blk] - 4)
        memcpy(&v, s->ubo[blk] + off, 4);
    return v;
}

static inline float sw_fsign(float x) { return x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f); }

static int32_t sw_f2s(float f)
{
    if (!(f == f)) return 0;
    if (f >= 2147483647.0f) return INT32_MAX;
    if (f <= -2147483648.0f) return INT32_MIN;
    return (int32_t)f;
}

static uint32_t sw_f2u(float f)
{
    if (!(f > 0.0f)) return 0;
    if (f >= 4294967295.0f) return UINT32_MAX;
    return (uint32_t)f;
}

static float sw_det(const sw_word *M, int l, uint32_t n)
{
#define E(c, r) M[((c) * n + (r)) * 4 + l].f
    if (n == 2) return E(0, 0) * E(1, 1) - E(1, 0) * E(0, 1);
    if (n == 3)
        return E(0, 0) * (E(1, 1) * E(2, 2) - E(2, 1) * E(1, 2)) -
               E(1, 0) * (E(0, 1) * E(2, 2) - E(2, 1) * E(0, 2)) +
               E(2, 0) * (E(0, 1) * E(1, 2) - E(1, 1) * E(0, 2));
    /* 4x4: cofactor expansion along column 0 */
    float d = 0.0f;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t r[3], q = 0;
        for (uint32_t i = 0; i < 4; i++)
            if (i != k) r[q++] = i;
        float minor = E(1, r[0]) * (E(2, r[1]) * E(3, r[2]) - E(3, r[1]) * E(2, r[2])) -
                      E(2, r[0]) * (E(1, r[1]) * E(3, r[2]) - E(3, r[1]) * E(1, r[2])) +
                      E(3, r[0]) * (E(1, r[1]) * E(2, r[2]) - E(2, r[1]) * E(1, r[2]));
        d += (k & 1 ? -1.0f : 1.0f) * E(0, k) * minor;
    }
    return d;
#undef E
}

static void sw_ext(xgdi_sw_spirv_state *st, const sins *in, sw_word *D)
{
    const sw_word *R = st->R;
    const sw_word *A = R + in->a, *B = R + in->b, *C = R + in->c;
    uint32_t e = in->x & 0xffff, n0 = in->x >> 16;
    uint32_t w = (uint32_t)in->n * 4;
    switch (e) {
#define U1(fn) for (uint32_t i = 0; i < w; i++) D[i].f = fn(A[i].f); return;
#define B1(expr) for (uint32_t i = 0; i < w; i++) { float x = A[i].f, y = B[i].f; D[i].f = (expr); } return;
    case 1: U1(roundf)
    case 2: U1(nearbyintf) /* round half to even in the default rounding mode */
    case 3: U1(truncf)
    case 4: U1(fabsf)
    case 5: for (uint32_t i = 0; i < w; i++) D[i].u = A[i].i < 0 ? 0u - A[i].u : A[i].u; return;
    case 6: U1(sw_fsign)
    case 7: for (uint32_t i = 0; i < w; i++) D[i].i = A[i].i > 0 ? 1 : (A[i].i < 0 ? -1 : 0); return;
    case 8: U1(floorf)
    case 9: U1(ceilf)
    case 10: for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f - floorf(A[i].f); return;
    case 11: for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f * 0.017453292519943295f; return;
    case 12: for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f * 57.29577951308232f; return;
    case 13: U1(sinf)
    case 14: U1(cosf)
    case 15: U1(tanf)
    case 16: U1(asinf)
    case 17: U1(acosf)
    case 18: U1(atanf)
    case 19: U1(sinhf)
    case 20: U1(coshf)
    case 21: U1(tanhf)
    case 22: U1(asinhf)
    case 23: U1(acoshf)
    case 24: U1(atanhf)
    case 25: B1(atan2f(x, y))
    case 26: B1(powf(x, y))
    case 27: U1(expf)
    case 28: U1(logf)
    case 29: U1(exp2f)
    case 30: U1(log2f)
    case 31: U1(sqrtf)
    case 32: for (uint32_t i = 0; i < w; i++) D[i].f = 1.0f / sqrtf(A[i].f); return;
    case 33: for (int l = 0; l < 4; l++) D[l].f = sw_det(A, l, n0); return;
    case 37: B1(fminf(x, y))
    case 38: for (uint32_t i = 0; i < w; i++) D[i].u = A[i].u < B[i].u ? A[i].u : B[i].u; return;
    case 39: for (uint32_t i = 0; i < w; i++) D[i].i = A[i].i < B[i].i ? A[i].i : B[i].i; return;
    case 40: B1(fmaxf(x, y))
    case 41: for (uint32_t i = 0; i < w; i++) D[i].u = A[i].u > B[i].u ? A[i].u : B[i].u; return;
    case 42: for (uint32_t i = 0; i < w; i++) D[i].i = A[i].i > B[i].i ? A[i].i : B[i].i; return;
    case 43: case 81:
        for (uint32_t i = 0; i < w; i++) D[i].f = fminf(fmaxf(A[i].f, B[i].f), C[i].f);
        return;
    case 44:
        for (uint32_t i = 0; i < w; i++) {
            uint32_t v = A[i].u > B[i].u ? A[i].u : B[i].u;
            D[i].u = v < C[i].u ? v : C[i].u;
        }
        return;
    case 45:
        for (uint32_t i = 0; i < w; i++) {
            int32_t v = A[i].i > B[i].i ? A[i].i : B[i].i;
            D[i].i = v < C[i].i ? v : C[i].i;
        }
        return;
    case 46: for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f * (1.0f - C[i].f) + B[i].f * C[i].f; return;
    case 47:
        for (uint32_t i = 0; i < w; i++) D[i] = C[i].u ? B[i] : A[i];
        return;
    case 48: B1(y < x ? 0.0f : 1.0f)
    case 49:
        for (uint32_t i = 0; i < w; i++) {
            float t = (C[i].f - A[i].f) / (B[i].f - A[i].f);
            t = fminf(fmaxf(t, 0.0f), 1.0f);
            D[i].f = t * t * (3.0f - 2.0f * t);
        }
        return;
    case 50: for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f * B[i].f + C[i].f; return;
    case 53:
        for (uint32_t i = 0; i < w; i++) {
            int32_t x = B[i].i;
            D[i].f = ldexpf(A[i].f, x > 300 ? 300 : (x < -300 ? -300 : x));
        }
        return;
    case 253: B1(x * exp2f(y))
    case 66: case 67:
        for (int l = 0; l < 4; l++) {
            float s = 0.0f;
            for (uint32_t c = 0; c < n0; c++) {
                float v = e == 66 ? A[c * 4 + l].f : A[c * 4 + l].f - B[c * 4 + l].f;
                s += v * v;
            }
            D[l].f = sqrtf(s);
        }
        return;
    case 68:
        for (int l = 0; l < 4; l++) {
            float a0 = A[l].f, a1 = A[4 + l].f, a2 = A[8 + l].f;
            float b0 = B[l].f, b1 = B[4 + l].f, b2 = B[8 + l].f;
            D[l].f = a1 * b2 - b1 * a2;
            D[4 + l].f = a2 * b0 - b2 * a0;
            D[8 + l].f = a0 * b1 - b0 * a1;
        }
        return;
    case 69:
        for (int l = 0; l < 4; l++) {
            float s = 0.0f;
            for (uint32_t c = 0; c < n0; c++) s += A[c * 4 + l].f * A[c * 4 + l].f;
            float k = 1.0f / sqrtf(s);
            for (uint32_t c = 0; c < n0; c++) D[c * 4 + l].f = A[c * 4 + l].f * k;
        }
        return;
    case 70: /* FaceForward(N, I, Nref): dot(Nref, I) < 0 ? N : -N */
        for (int l = 0; l < 4; l++) {
            float s = 0.0f;
            for (uint32_t c = 0; c < n0; c++) s += C[c * 4 + l].f * B[c * 4 + l].f;
            for (uint32_t c = 0; c < n0; c++) D[c * 4 + l].f = s < 0.0f ? A[c * 4 + l].f : -A[c * 4 + l].f;
        }
        return;
    case 71: /* Reflect(I, N) = I - 2 dot(N, I) N */
        for (int l = 0; l < 4; l++) {
            float s = 0.0f;
            for (uint32_t c = 0; c < n0; c++) s += B[c * 4 + l].f * A[c * 4 + l].f;
            for (uint32_t c = 0; c < n0; c++) D[c * 4 + l].f = A[c * 4 + l].f - 2.0f * s * B[c * 4 + l].f;
        }
        return;
    case 72: /* Refract(I, N, eta) */
        for (int l = 0; l < 4; l++) {
            float d = 0.0f, eta = C[l].f;
            for (uint32_t c = 0; c < n0; c++) d += B[c * 4 + l].f * A[c * 4 + l].f;
            float k = 1.0f - eta * eta * (1.0f - d * d);
            for (uint32_t c = 0; c < n0; c++)
                D[c * 4 + l].f = k < 0.0f ? 0.0f : eta * A[c * 4 + l].f - (eta * d + sqrtf(k)) * B[c * 4 + l].f;
        }
        return;
    case 79: B1(x != x ? y : (y != y ? x : fminf(x, y)))
    case 80: B1(x != x ? y : (y != y ? x : fmaxf(x, y)))
    default:
        memset(D, 0, w * sizeof *D);
        return;
#undef U1
#undef B1
    }
}

static void sw_sample(xgdi_sw_spirv_state *st, const sins *in, sw_word *D, unsigned mask)
{
    const xgdi_sw_spirv_module *m = st->m;
    const uint32_t *x = m->aux + in->x;
    const sw_word *R = st->R;
    const sw_word *si = R + x[0], *co = R + x[1];
    uint32_t kind = x[2], lodreg = x[3], g1 = x[4], g2 = x[5], dim = x[6], proj = x[7];
    xgdi_sw_spirv_sample_request q;
    /* the resource comes from the first lane asked: resources are dynamically uniform */
    int first = 0;
    while (first < 3 && !(mask & (1u << first))) first++;
    uint32_t res = si[first].u;
    q.image = (int)(res & 0xff);
    q.sampler = (int)((res >> 8) & 0xff);
    float out[4][4] = { { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 }, { 0, 0, 0, 1 } };
    /* only values loaded from resource variables name resources; anything else (an OpUndef,
       a bitcast) reads as an unbound slot */
    bool valid = q.image < m->refl.resource_count && q.sampler < m->refl.resource_count;
    q.dim = (xgdi_sw_spirv_dim)dim;
    q.kind = (xgdi_sw_spirv_sample_kind)kind;
    q.mask = mask;
    int nc = dim == XGDI_SW_SPIRV_DIM_2D ? 2 : 3;
    float (*c)[3] = q.coord;
    for (int l = 0; l < 4; l++) {
        /* without a projection the coordinates are used as they are (x / 1 == x) */
        float div = proj ? co[proj * 4 + (uint32_t)l].f : 1.0f;
        for (int k = 0; k < 3; k++) {
            float v = k < nc ? co[(uint32_t)k * 4 + (uint32_t)l].f : 0.0f;
            c[l][k] = proj && k < nc ? v / div : v;
        }
        q.lod[l] = 0.0f;
        q.lod_bias[l] = 0.0f;
    }
    bool implicit_quad = kind == XGDI_SW_SPIRV_SAMPLE_IMPLICIT && m->refl.stage == XGDI_SW_SPIRV_FRAGMENT;
    if (!implicit_quad) memset(q.deriv, 0, sizeof q.deriv);
    if (kind == XGDI_SW_SPIRV_SAMPLE_IMPLICIT) {
        if (implicit_quad) {
            /* coarse: one difference per quad, the same for every lane */
            float d[6];
            d[0] = c[1][0] - c[0][0];
            d[1] = c[1][1] - c[0][1];
            d[2] = c[2][0] - c[0][0];
            d[3] = c[2][1] - c[0][1];
            d[4] = c[1][2] - c[0][2];
            d[5] = c[2][2] - c[0][2];
            for (int l = 0; l < 4; l++) memcpy(q.deriv[l], d, sizeof d);
        }
        if (lodreg != SW_NONE)
            for (int l = 0; l < 4; l++) q.lod_bias[l] = R[lodreg + (uint32_t)l].f;
    } else if (kind == XGDI_SW_SPIRV_SAMPLE_LOD) {
        for (int l = 0; l < 4; l++) q.lod[l] = R[lodreg + (uint32_t)l].f;
    } else {
        const sw_word *gx = R + g1, *gy = R + g2;
        for (int l = 0; l < 4; l++) {
            q.deriv[l][0] = gx[l].f;
            q.deriv[l][1] = gx[4 + l].f;
            q.deriv[l][2] = gy[l].f;
            q.deriv[l][3] = gy[4 + l].f;
            if (nc == 3) {
                q.deriv[l][4] = gx[8 + l].f;
                q.deriv[l][5] = gy[8 + l].f;
            }
        }
    }
    if (st->sample && valid) st->sample(st->sample_user, &q, out);
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < 4; k++) D[k * 4 + l].f = out[l][k];
}

static void sw_run_function(xgdi_sw_spirv_state *st, uint32_t fi, unsigned mask);

static void sw_call(xgdi_sw_spirv_state *st, const sins *in, unsigned mask)
{
    const xgdi_sw_spirv_module *m = st->m;
    const sfunc *f = &m->funcs[in->a];
    const uint32_t *x = m->aux + in->x;
    uint32_t nargs = x[0];
    sw_word *R = st->R;
    if (st->depth >= SW_MAX_CALL_DEPTH) {
        /* recursion is invalid SPIR-V; such lanes end as if killed */
        st->killed |= mask;
        st->exhausted = true;
        return;
    }
    for (uint32_t k = 0; k < nargs; k++) {
        uint32_t src = x[1 + 2 * k], how = x[2 + 2 * k];
        uint32_t preg = m->aux[f->params + 2 * k], pn = m->aux[f->params + 2 * k + 1];
        for (int l = 0; l < 4; l++) {
            if (!(mask & (1u << l))) continue;
            if (how == 1) R[preg + (uint32_t)l].u = src;
            else if (how == 2) R[preg + (uint32_t)l].u = R[src + (uint32_t)l].u;
            else
                for (uint32_t c = 0; c < pn; c++) R[preg + c * 4 + (uint32_t)l] = R[src + c * 4 + (uint32_t)l];
        }
    }
    st->depth++;
    sw_run_function(st, in->a, mask);
    st->depth--;
    if (in->n)
        for (int l = 0; l < 4; l++)
            if (mask & (1u << l))
                for (uint32_t c = 0; c < in->n; c++) R[in->d + c * 4 + (uint32_t)l] = R[f->ret_reg + c * 4 + (uint32_t)l];
}

static inline uint32_t sw_clampi(int32_t v, uint32_t len)
{
    return v < 0 ? 0u : ((uint32_t)v >= len ? len - 1 : (uint32_t)v);
}

/* runs instructions [first, first + count) for the lanes in mask; returns the lanes left
   (a call may kill lanes) */
static unsigned sw_run_ins(xgdi_sw_spirv_state *st, uint32_t first, uint32_t count, unsigned mask)
{
    const xgdi_sw_spirv_module *m = st->m;
    if (count == 0) return mask; /* an empty block (the module may have no instructions) */
    sw_word *R = st->R;
    const sins *in = m->ins + first, *end = in + count;
    for (; in < end; in++) {
        bool full = mask == 0xf;
        sw_word *D = full ? R + in->d : st->scratch;
        const sw_word *A = R + in->a, *B = R + in->b;
        uint32_t w = (uint32_t)in->n * 4;
        switch (in->op) {
        case I_MOV:
            /* most moves are one vector or less: fixed-size copies the compiler inlines */
            switch (w) {
            case 4: memcpy(D, A, 4 * sizeof *D); break;
            case 8: memcpy(D, A, 8 * sizeof *D); break;
            case 12: memcpy(D, A, 12 * sizeof *D); break;
            case 16: memcpy(D, A, 16 * sizeof *D); break;
            default: memcpy(D, A, w * sizeof *D); break;
            }
            break;
#define FOP(OP, expr) case OP: for (uint32_t i = 0; i < w; i++) { float x = A[i].f, y = B[i].f; (void)y; D[i].f = (expr); } break;
#define UOP(OP, expr) case OP: for (uint32_t i = 0; i < w; i++) { uint32_t x = A[i].u, y = B[i].u; (void)y; D[i].u = (expr); } break;
#define SOP(OP, expr) case OP: for (uint32_t i = 0; i < w; i++) { int32_t x = A[i].i, y = B[i].i; (void)y; D[i].u = (expr); } break;
        FOP(I_FADD, x + y)
        FOP(I_FSUB, x - y)
        FOP(I_FMUL, x * y)
        FOP(I_FDIV, x / y)
        FOP(I_FMOD, x - y * floorf(x / y))
        FOP(I_FREM, fmodf(x, y))
        FOP(I_FNEG, -x)
        UOP(I_IADD, x + y)
        UOP(I_ISUB, x - y)
        UOP(I_IMUL, x * y)
        UOP(I_UDIV, y ? x / y : 0u)
        SOP(I_SDIV, (uint32_t)(y == 0 || (x == INT32_MIN && y == -1) ? 0 : x / y))
        UOP(I_UMOD, y ? x % y : 0u)
        SOP(I_SREM, (uint32_t)(y == 0 || y == -1 ? 0 : x % y))
        SOP(I_SMOD, (uint32_t)(y == 0 || y == -1 ? 0 : ((x % y) != 0 && ((x % y) < 0) != (y < 0) ? x % y + y : x % y)))
        UOP(I_INEG, 0u - x)
        UOP(I_AND, x & y)
        UOP(I_OR, x | y)
        UOP(I_XOR, x ^ y)
        UOP(I_NOT, ~x)
        UOP(I_SHL, x << (y & 31))
        UOP(I_SHRL, x >> (y & 31))
        SOP(I_SHRA, (uint32_t)(x < 0 ? ~(~(uint32_t)x >> (y & 31)) : (uint32_t)x >> (y & 31)))
        UOP(I_LNOT, x ? 0u : 1u)
        UOP(I_IEQ, x == y)
        UOP(I_INE, x != y)
        UOP(I_UGT, x > y)
        SOP(I_SGT, x > y)
        UOP(I_UGE, x >= y)
        SOP(I_SGE, x >= y)
        UOP(I_ULT, x < y)
        SOP(I_SLT, x < y)
        UOP(I_ULE, x <= y)
        SOP(I_SLE, x <= y)
#define FCMP(OP, expr) case OP: for (uint32_t i = 0; i < w; i++) { float x = A[i].f, y = B[i].f; D[i].u = (expr) ? 1u : 0u; } break;
        FCMP(I_FOEQ, x == y)
        FCMP(I_FUEQ, !(x != y) || x != x || y != y)
        FCMP(I_FONE, x < y || x > y)
        FCMP(I_FUNE, x != y)
        FCMP(I_FOLT, x < y)
        FCMP(I_FULT, !(x >= y))
        FCMP(I_FOGT, x > y)
        FCMP(I_FUGT, !(x <= y))
        FCMP(I_FOLE, x <= y)
        FCMP(I_FULE, !(x > y))
        FCMP(I_FOGE, x >= y)
        FCMP(I_FUGE, !(x < y))
        case I_F2U: for (uint32_t i = 0; i < w; i++) D[i].u = sw_f2u(A[i].f); break;
        case I_F2S: for (uint32_t i = 0; i < w; i++) D[i].i = sw_f2s(A[i].f); break;
        case I_S2F: for (uint32_t i = 0; i < w; i++) D[i].f = (float)A[i].i; break;
        case I_U2F: for (uint32_t i = 0; i < w; i++) D[i].f = (float)A[i].u; break;
        case I_SIMG:
            for (int l = 0; l < 4; l++) D[l].u = (A[l].u & 0xffu) | (B[l].u & 0xffu) << 8;
            break;
        case I_ISNAN: for (uint32_t i = 0; i < w; i++) D[i].u = isnan(A[i].f) ? 1u : 0u; break;
        case I_ISINF: for (uint32_t i = 0; i < w; i++) D[i].u = isinf(A[i].f) ? 1u : 0u; break;
        case I_SELECT: {
            /* a = condition, b = true value, c = false value */
            const sw_word *C = R + in->c;
            for (uint32_t i = 0; i < w; i++) D[i] = A[in->x ? (i & 3) : i].u ? B[i] : C[i];
            break;
        }
        case I_ANY: case I_ALL:
            for (int l = 0; l < 4; l++) {
                uint32_t any = 0, all = 1;
                for (uint32_t c = 0; c < in->n; c++) {
                    uint32_t v = A[c * 4 + (uint32_t)l].u != 0;
                    any |= v;
                    all &= v;
                }
                D[l].u = in->op == I_ANY ? any : all;
            }
            break;
        /* Products and sums below keep the lanes innermost (four independent sums the compiler
           does side by side); each lane adds its terms in the same order as one sum would. */
        case I_DOT: {
            float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
            for (uint32_t c = 0; c < in->n; c++)
                for (int l = 0; l < 4; l++) s[l] += A[c * 4 + (uint32_t)l].f * B[c * 4 + (uint32_t)l].f;
            for (int l = 0; l < 4; l++) D[l].f = s[l];
            break;
        }
        case I_VTS:
            for (uint32_t i = 0; i < w; i++) D[i].f = A[i].f * B[i & 3].f;
            break;
        case I_MTV: { /* rows = n, cols = x; M column-major: M[c][r] at (c * rows + r) */
            uint32_t rows = in->n, cols = in->x;
            for (uint32_t r = 0; r < rows; r++) {
                float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
                for (uint32_t c = 0; c < cols; c++)
                    for (int l = 0; l < 4; l++)
                        s[l] += A[(c * rows + r) * 4 + (uint32_t)l].f * B[c * 4 + (uint32_t)l].f;
                for (int l = 0; l < 4; l++) D[r * 4 + (uint32_t)l].f = s[l];
            }
            break;
        }
        case I_VTM: { /* cols = n, rows = x: result[c] = dot(v, column c) */
            uint32_t cols = in->n, rows = in->x;
            for (uint32_t c = 0; c < cols; c++) {
                float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
                for (uint32_t r = 0; r < rows; r++)
                    for (int l = 0; l < 4; l++)
                        s[l] += A[r * 4 + (uint32_t)l].f * B[(c * rows + r) * 4 + (uint32_t)l].f;
                for (int l = 0; l < 4; l++) D[c * 4 + (uint32_t)l].f = s[l];
            }
            break;
        }
        case I_MTM: { /* A: k columns of `rows`; B: n/rows columns of k */
            uint32_t rows = in->c, k2 = in->x, cols = in->n / rows;
            for (uint32_t c = 0; c < cols; c++)
                for (uint32_t r = 0; r < rows; r++) {
                    float s[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
                    for (uint32_t k = 0; k < k2; k++)
                        for (int l = 0; l < 4; l++)
                            s[l] += A[(k * rows + r) * 4 + (uint32_t)l].f * B[(c * k2 + k) * 4 + (uint32_t)l].f;
                    for (int l = 0; l < 4; l++) D[(c * rows + r) * 4 + (uint32_t)l].f = s[l];
                }
            break;
        }
        case I_OUTER: { /* a: rows (c), b: cols (x) */
            uint32_t rows = in->c, cols = in->x;
            for (uint32_t c = 0; c < cols; c++)
                for (uint32_t r = 0; r < rows; r++)
                    for (int l = 0; l < 4; l++)
                        D[(c * rows + r) * 4 + (uint32_t)l].f = A[r * 4 + (uint32_t)l].f * B[c * 4 + (uint32_t)l].f;
            break;
        }
        case I_EXTRACT_DYN:
            for (int l = 0; l < 4; l++) D[l] = A[sw_clampi(B[l].i, in->x) * 4 + (uint32_t)l];
            break;
        case I_INSERT_DYN:
            memcpy(D, A, w * sizeof *D);
            for (int l = 0; l < 4; l++) {
                uint32_t ix = R[in->c + (uint32_t)l].u;
                if (ix < in->n) D[ix * 4 + (uint32_t)l] = B[l];
            }
            break;
        case I_LOADP:
            for (int l = 0; l < 4; l++) {
                uint32_t p = A[l].u;
                for (uint32_t c = 0; c < in->n; c++) D[c * 4 + (uint32_t)l] = R[p + c * 4 + (uint32_t)l];
            }
            break;
        case I_STOREP:
            /* a = value, b = per-lane address */
            for (int l = 0; l < 4; l++) {
                if (!(mask & (1u << l))) continue;
                uint32_t p = B[l].u;
                for (uint32_t c = 0; c < in->n; c++) R[p + c * 4 + (uint32_t)l] = A[c * 4 + (uint32_t)l];
            }
            continue;
        case I_ACCESS: {
            const uint32_t *x = m->aux + in->x;
            uint32_t nt = x[2];
            for (int l = 0; l < 4; l++) {
                uint32_t v = (x[0] != SW_NONE ? R[x[0] + (uint32_t)l].u : 0u) + x[1];
                for (uint32_t k = 0; k < nt; k++)
                    v += sw_clampi(R[x[3 + 3 * k] + (uint32_t)l].i, x[5 + 3 * k]) * x[4 + 3 * k];
                D[l].u = v;
            }
            break;
        }
        case I_ULOAD: {
            /* a = static byte offset, b = per-lane offset register or none, c = block */
            const uint32_t *offs = m->aux + in->x;
            if (in->b == SW_NONE) {
                for (uint32_t c = 0; c < in->n; c++) {
                    uint32_t v = sw_uread(st, in->c, in->a + offs[c]);
                    D[c * 4].u = D[c * 4 + 1].u = D[c * 4 + 2].u = D[c * 4 + 3].u = v;
                }
            } else {
                for (int l = 0; l < 4; l++) {
                    uint32_t base = in->a + B[l].u;
                    for (uint32_t c = 0; c < in->n; c++)
                        D[c * 4 + (uint32_t)l].u = sw_uread(st, in->c, base + offs[c]);
                }
            }
            break;
        }
        case I_DERIV: {
            bool fine = in->x == OpDPdxFine || in->x == OpDPdyFine || in->x == OpFwidthFine;
            bool dx = in->x == OpDPdx || in->x == OpDPdxFine || in->x == OpDPdxCoarse;
            bool dy = in->x == OpDPdy || in->x == OpDPdyFine || in->x == OpDPdyCoarse;
            if (m->refl.stage != XGDI_SW_SPIRV_FRAGMENT) {
                memset(D, 0, w * sizeof *D);
                break;
            }
            for (uint32_t c = 0; c < in->n; c++) {
                const sw_word *v = A + c * 4;
                float x0, x1, y0, y1;
                if (fine) {
                    x0 = v[1].f - v[0].f;
                    x1 = v[3].f - v[2].f;
                    y0 = v[2].f - v[0].f;
                    y1 = v[3].f - v[1].f;
                } else {
                    x0 = x1 = v[1].f - v[0].f;
                    y0 = y1 = v[2].f - v[0].f;
                }
                float ddx[4] = { x0, x0, x1, x1 }, ddy[4] = { y0, y1, y0, y1 };
                for (int l = 0; l < 4; l++)
                    D[c * 4 + (uint32_t)l].f = dx ? ddx[l] : (dy ? ddy[l] : fabsf(ddx[l]) + fabsf(ddy[l]));
            }
            break;
        }
        case I_SAMPLE:
            sw_sample(st, in, D, mask);
            break;
        case I_EXT:
            sw_ext(st, in, D);
            break;
        case I_CALL:
            sw_call(st, in, mask);
            mask &= ~st->killed;
            if (mask == 0) return 0;
            continue;
        case I_PHI:
            /* handled at block entry */
            continue;
        case I_HOISTED:
            continue;
        default:
            break;
        }
        if (!full) {
            /* the result's components (n counts the operands' for these three) */
            uint32_t rn = in->op == I_DOT || in->op == I_ANY || in->op == I_ALL ? 1 : in->n;
            sw_word *T = R + in->d;
            for (uint32_t c = 0; c < rn; c++)
                for (int l = 0; l < 4; l++)
                    if (mask & (1u << l)) T[c * 4 + (uint32_t)l] = D[c * 4 + (uint32_t)l];
        }
    }
    return mask;
}

static void sw_run_function(xgdi_sw_spirv_state *st, uint32_t fi, unsigned mask)
{
    const xgdi_sw_spirv_module *m = st->m;
    const sfunc *f = &m->funcs[fi];
    uint32_t pc[4], prev[4];
    unsigned live = mask;
    for (int l = 0; l < 4; l++) {
        pc[l] = f->first_block;
        prev[l] = SW_NONE;
    }
    sw_word *R = st->R;
    while (live) {
        if (st->budget == 0) {
            st->exhausted = true;
            st->killed |= live;
            return;
        }
        /* the lanes waiting at the earliest block run next */
        uint32_t b = UINT32_MAX;
        for (int l = 0; l < 4; l++)
            if ((live & (1u << l)) && pc[l] < b) b = pc[l];
        unsigned run = 0;
        for (int l = 0; l < 4; l++)
            if ((live & (1u << l)) && pc[l] == b) run |= 1u << l;
        const sblock *blk = &m->blocks_[b];
        st->budget = st->budget > blk->cost ? st->budget - blk->cost : 0;
        /* phis: choose the incoming value of each lane's predecessor, all before any write */
        uint32_t i0 = blk->first, iend = blk->first + blk->count;
        uint32_t nphi = 0;
        while (i0 + nphi < iend && m->ins[i0 + nphi].op == I_PHI) nphi++;
        for (uint32_t k = 0; k < nphi; k++) {
            const sins *p = &m->ins[i0 + k];
            const uint32_t *x = m->aux + p->x;
            for (int l = 0; l < 4; l++) {
                if (!(run & (1u << l))) continue;
                for (uint32_t j = 0; j < x[0]; j++)
                    if (x[1 + 2 * j] == prev[l]) {
                        uint32_t src = x[2 + 2 * j];
                        for (uint32_t c = 0; c < p->n; c++) R[p->a + c * 4 + (uint32_t)l] = R[src + c * 4 + (uint32_t)l];
                        break;
                    }
            }
        }
        for (uint32_t k = 0; k < nphi; k++) {
            const sins *p = &m->ins[i0 + k];
            for (int l = 0; l < 4; l++)
                if (run & (1u << l))
                    for (uint32_t c = 0; c < p->n; c++) R[p->d + c * 4 + (uint32_t)l] = R[p->a + c * 4 + (uint32_t)l];
        }
        unsigned left = sw_run_ins(st, i0 + nphi, blk->count - nphi, run);
        live &= ~(run & ~left);
        run = left;
        for (int l = 0; l < 4; l++) {
            if (!(run & (1u << l))) continue;
            prev[l] = b;
            switch (blk->term) {
            case B_BRANCH: pc[l] = blk->t0; break;
            case B_COND: pc[l] = R[blk->cond + (uint32_t)l].u ? blk->t0 : blk->t1; break;
            case B_SWITCH: {
                uint32_t v = R[blk->cond + (uint32_t)l].u, t = blk->t0;
                const uint32_t *cs = m->aux + blk->t1;
                for (uint32_t k = 0; k < blk->ncases; k++)
                    if (cs[2 * k] == v) {
                        t = cs[2 * k + 1];
                        break;
                    }
                pc[l] = t;
                break;
            }
            case B_RETURN:
                if (blk->cond != SW_NONE)
                    for (uint32_t c = 0; c < f->ret_n; c++) R[f->ret_reg + c * 4 + (uint32_t)l] = R[blk->cond + c * 4 + (uint32_t)l];
                live &= ~(1u << l);
                break;
            case B_KILL:
                st->killed |= 1u << l;
                live &= ~(1u << l);
                break;
            default: /* OpUnreachable reached: the lane ends, its outputs undefined */
                st->killed |= 1u << l;
                live &= ~(1u << l);
                break;
            }
            /* a branch out of this function's blocks is invalid: guarded at load? no: the
               target index is a label of any function, so keep lanes inside */
            if ((live & (1u << l)) && (pc[l] < f->first_block || pc[l] >= f->first_block + f->nblocks)) {
                st->killed |= 1u << l;
                live &= ~(1u << l);
            }
        }
    }
}

/* the hoisted uniform loads (m->hoist), after a binding */
static void sw_load_hoisted(xgdi_sw_spirv_state *s)
{
    const xgdi_sw_spirv_module *m = s->m;
    for (uint32_t k = 0; k < m->nhoist; k++) {
        const sins *in = &m->hoist[k];
        const uint32_t *offs = m->aux + in->x;
        sw_word *D = s->R + in->d;
        for (uint32_t c = 0; c < in->n; c++) {
            uint32_t v = sw_uread(s, in->c, in->a + offs[c]);
            D[c * 4].u = D[c * 4 + 1].u = D[c * 4 + 2].u = D[c * 4 + 3].u = v;
        }
    }
    s->uniforms_loaded = true;
}

unsigned xgdi_sw_spirv_execute(xgdi_sw_spirv_state *s, unsigned mask, bool *exhausted)
{
    const xgdi_sw_spirv_module *m = s->m;
    mask &= 0xf;
    s->killed = 0;
    s->budget = SW_STEP_BUDGET;
    s->depth = 0;
    s->exhausted = false;
    for (uint32_t i = 0; i < m->nreset; i++)
        memcpy(s->R + m->reset[2 * i], m->image + m->reset[2 * i],
               (size_t)m->reset[2 * i + 1] * sizeof(uint32_t));
    if (!s->uniforms_loaded) sw_load_hoisted(s);
    if (m->init_count) sw_run_ins(s, m->init_first, m->init_count, 0xf);
    sw_run_function(s, m->entry_func, mask);
    if (exhausted) *exhausted = s->exhausted;
    return mask & ~s->killed;
}

/* ======================================================================================== */
/* shape recognition                                                                        */
/* ======================================================================================== */

/* A symbolic run of the entry point over straight-line code: each register component holds
   what it was computed from (an input component, a constant word, a component of the one
   sample, or a sample component times an input component; for the transform shapes also a
   hoisted uniform and products, sums and clamps of those, as nodes). Anything else ends the
   match. */
/* SY_MOD: sample * input; SY_MODR: input * sample (the operand order, for NaN payloads).
   Transform shapes: SY_UNIFORM, a hoisted uniform load's register word a; SY_NODE, node a of
   the run's arithmetic (a product, sum or clamp of symbols, sw_node). */
enum { SY_UNSET = 0, SY_INPUT, SY_CONST, SY_SAMPLE, SY_MOD, SY_MODR, SY_UNIFORM, SY_NODE };

typedef struct sw_sym {
    uint8_t kind;
    uint32_t a, b;
} sw_sym;

/* x * y or x + y, in that operand order; clamp(x, y, z): fminf(fmaxf(x, y), z) */
enum { SN_MUL, SN_ADD, SN_CLAMP };
typedef struct sw_node {
    uint8_t op;
    sw_sym x, y, z;
} sw_node;

#define SW_SHAPE_MAX_NODES 4096
/* The most budget units (sblock.cost, charged as the executor charges them) a matched run may
   cost: far below SW_STEP_BUDGET, so the executor never runs out of steps on a module a
   matcher accepted (its outputs would then stay unwritten and its lanes count as killed), and
   the symbolic run, which re-runs each call, stays short however calls fan out. */
#define SW_SHAPE_MAX_COST (1u << 16)

typedef struct sw_shape {
    const xgdi_sw_spirv_module *m;
    bool arith;               /* arithmetic makes nodes (else only the modulate product) */
    uint32_t cost;            /* budget units of the blocks run so far (SW_SHAPE_MAX_COST) */
    sw_node *nodes;
    uint32_t nnodes, cnodes;
    sw_sym *sym;              /* per register word (component addresses r + 4c are used) */
    uint8_t *written;         /* per register word: written by the run */
    uint32_t *const_reads;    /* words read as their initial value (checked against later writes) */
    uint32_t nconst_reads, cconst_reads;
    bool sampled;
    uint32_t resource, uv;
    bool ok;
} sw_shape;

/* 1: a component of a varying input; -1: another interface word (a built-in input such as
   FragCoord, which changes per invocation, or an output not yet written); 0: neither */
static int sw_shape_input(const xgdi_sw_spirv_module *m, uint32_t addr)
{
    for (int i = 0; i < m->refl.io_count; i++) {
        const xgdi_sw_spirv_io *io = &m->io[i];
        if (addr < io->reg || addr >= io->reg + 4u * (uint32_t)io->components) continue;
        bool varying = !io->output && io->builtin == XGDI_SW_SPIRV_BUILTIN_NONE;
        return varying && (addr - io->reg) % 4u == 0 ? 1 : -1;
    }
    return 0;
}

static sw_sym sw_shape_get(sw_shape *sh, uint32_t addr)
{
    sw_sym none = { SY_UNSET, 0, 0 };
    if (!sh->ok || addr >= sh->m->words) {
        sh->ok = false;
        return none;
    }
    if (sh->sym[addr].kind != SY_UNSET) return sh->sym[addr];
    int io = sw_shape_input(sh->m, addr);
    if (io > 0) return (sw_sym){ SY_INPUT, addr, 0 };
    if (io < 0) {
        sh->ok = false;
        return none;
    }
    /* a word this run has not written holds its initial value, unless the run writes it
       later (then it would hold the previous invocation's: checked at the end) */
    if (sh->nconst_reads == sh->cconst_reads) {
        uint32_t n = sh->cconst_reads ? 2 * sh->cconst_reads : 64;
        uint32_t *p = realloc(sh->const_reads, n * sizeof *p);
        if (p == NULL) {
            sh->ok = false;
            return none;
        }
        sh->const_reads = p;
        sh->cconst_reads = n;
    }
    sh->const_reads[sh->nconst_reads++] = addr;
    return (sw_sym){ SY_CONST, sh->m->image[addr], 0 };
}

static void sw_shape_set(sw_shape *sh, uint32_t addr, sw_sym v)
{
    if (!sh->ok || addr >= sh->m->words || v.kind == SY_UNSET) {
        sh->ok = false;
        return;
    }
    sh->sym[addr] = v;
    sh->written[addr] = 1;
}

/* copies n components from src to dst (through a buffer: ranges may overlap) */
static void sw_shape_copy(sw_shape *sh, uint32_t dst, uint32_t src, uint32_t n)
{
    sw_sym t[16];
    if (n > 16) {
        sh->ok = false;
        return;
    }
    for (uint32_t c = 0; c < n; c++) t[c] = sw_shape_get(sh, src + 4 * c);
    for (uint32_t c = 0; c < n; c++) sw_shape_set(sh, dst + 4 * c, t[c]);
}

static void sw_shape_function(sw_shape *sh, uint32_t fi, int depth);

/* a node op(x, y, z) (transform shapes; z unused but by SN_CLAMP) */
static sw_sym sw_shape_node3(sw_shape *sh, uint8_t op, sw_sym x, sw_sym y, sw_sym z)
{
    sw_sym none = { SY_UNSET, 0, 0 };
    if (!sh->ok || x.kind == SY_UNSET || y.kind == SY_UNSET || z.kind == SY_UNSET ||
        x.kind == SY_SAMPLE || y.kind == SY_SAMPLE || z.kind == SY_SAMPLE ||
        sh->nnodes >= SW_SHAPE_MAX_NODES) {
        sh->ok = false;
        return none;
    }
    if (sh->nnodes == sh->cnodes) {
        uint32_t n = sh->cnodes ? 2 * sh->cnodes : 64;
        sw_node *p = realloc(sh->nodes, n * sizeof *p);
        if (p == NULL) {
            sh->ok = false;
            return none;
        }
        sh->nodes = p;
        sh->cnodes = n;
    }
    sh->nodes[sh->nnodes] = (sw_node){ op, x, y, z };
    return (sw_sym){ SY_NODE, sh->nnodes++, 0 };
}

static sw_sym sw_shape_node(sw_shape *sh, uint8_t op, sw_sym x, sw_sym y)
{
    return sw_shape_node3(sh, op, x, y, (sw_sym){ SY_CONST, 0, 0 });
}

/* A sum of products as the executor forms it (I_DOT, I_MTV, I_VTM): +0, then each term
   a_k * b_k added in order; a_k at word a + 4 * ai[k], b_k at b + 4 * bi[k]. */
static sw_sym sw_shape_sum(sw_shape *sh, uint32_t a, const uint32_t *ai, uint32_t b,
                           const uint32_t *bi, uint32_t n)
{
    sw_sym s = { SY_CONST, 0u, 0 }; /* the bits of +0.0f */
    for (uint32_t k = 0; k < n && sh->ok; k++)
        s = sw_shape_node(sh, SN_ADD, s,
                          sw_shape_node(sh, SN_MUL, sw_shape_get(sh, a + 4 * ai[k]),
                                        sw_shape_get(sh, b + 4 * bi[k])));
    return s;
}

/* The transform shapes' arithmetic: products, sums, clamps, the executor's sums of products,
   and the hoisted uniform loads (their registers are set before the run). false: not one of
   these. */
static bool sw_shape_arith(sw_shape *sh, const sins *in)
{
    sw_sym t[16];
    uint32_t ai[16], bi[16];
    uint32_t n = in->n;
    switch (in->op) {
    case I_HOISTED:
        return true;
    case I_FMUL:
    case I_FADD:
        if (n > 16) return false;
        for (uint32_t c = 0; c < n; c++)
            t[c] = sw_shape_node(sh, in->op == I_FMUL ? SN_MUL : SN_ADD,
                                 sw_shape_get(sh, in->a + 4 * c), sw_shape_get(sh, in->b + 4 * c));
        break;
    case I_EXT: /* FClamp, NClamp (GLSL.std.450 43, 81: the executor's fminf(fmaxf())) */
        if ((in->x & 0xffffu) != 43 && (in->x & 0xffffu) != 81) return false;
        if (n > 16) return false;
        for (uint32_t c = 0; c < n; c++)
            t[c] = sw_shape_node3(sh, SN_CLAMP, sw_shape_get(sh, in->a + 4 * c),
                                  sw_shape_get(sh, in->b + 4 * c), sw_shape_get(sh, in->c + 4 * c));
        break;
    case I_VTS: /* D[i] = A[i] * B[0] */
        if (n > 16) return false;
        for (uint32_t c = 0; c < n; c++)
            t[c] = sw_shape_node(sh, SN_MUL, sw_shape_get(sh, in->a + 4 * c),
                                 sw_shape_get(sh, in->b));
        break;
    case I_DOT:
        if (n > 16) return false;
        for (uint32_t c = 0; c < n; c++) ai[c] = bi[c] = c;
        t[0] = sw_shape_sum(sh, in->a, ai, in->b, bi, n);
        n = 1;
        break;
    case I_MTV: { /* rows = n, cols = x: D[r] = sum over c of A[c * rows + r] * B[c] */
        uint32_t rows = n, cols = in->x;
        if (rows > 16 || cols > 16) return false;
        for (uint32_t r = 0; r < rows; r++) {
            for (uint32_t c = 0; c < cols; c++) {
                ai[c] = c * rows + r;
                bi[c] = c;
            }
            t[r] = sw_shape_sum(sh, in->a, ai, in->b, bi, cols);
        }
        break;
    }
    case I_VTM: { /* cols = n, rows = x: D[c] = sum over r of A[r] * B[c * rows + r] */
        uint32_t cols = n, rows = in->x;
        if (rows > 16 || cols > 16) return false;
        for (uint32_t c = 0; c < cols; c++) {
            for (uint32_t r = 0; r < rows; r++) {
                ai[r] = r;
                bi[r] = c * rows + r;
            }
            t[c] = sw_shape_sum(sh, in->a, ai, in->b, bi, rows);
        }
        break;
    }
    default:
        return false;
    }
    for (uint32_t c = 0; c < n; c++) sw_shape_set(sh, in->d + 4 * c, t[c]);
    return true;
}

static void sw_shape_ins(sw_shape *sh, const sins *in, int depth)
{
    const xgdi_sw_spirv_module *m = sh->m;
    if (sh->arith && sw_shape_arith(sh, in)) return;
    switch (in->op) {
    case I_MOV:
        sw_shape_copy(sh, in->d, in->a, in->n);
        return;
    case I_FMUL: {
        sw_sym t[16];
        if (in->n > 16) break;
        for (uint32_t c = 0; c < in->n && sh->ok; c++) {
            sw_sym x = sw_shape_get(sh, in->a + 4 * c), y = sw_shape_get(sh, in->b + 4 * c);
            if (x.kind == SY_SAMPLE && y.kind == SY_INPUT) {
                t[c] = (sw_sym){ SY_MOD, x.a, y.a };
            } else if (x.kind == SY_INPUT && y.kind == SY_SAMPLE) {
                t[c] = (sw_sym){ SY_MODR, y.a, x.a };
            } else {
                sh->ok = false;
                return;
            }
        }
        for (uint32_t c = 0; c < in->n; c++) sw_shape_set(sh, in->d + 4 * c, t[c]);
        return;
    }
    case I_SIMG: {
        sw_sym a = sw_shape_get(sh, in->a), b = sw_shape_get(sh, in->b);
        if (a.kind != SY_CONST || b.kind != SY_CONST) break;
        sw_shape_set(sh, in->d, (sw_sym){ SY_CONST, (a.a & 0xffu) | (b.a & 0xffu) << 8, 0 });
        return;
    }
    case I_ACCESS: {
        const uint32_t *x = m->aux + in->x;
        uint32_t v = x[1];
        if (x[0] != SW_NONE) {
            sw_sym b = sw_shape_get(sh, x[0]);
            if (b.kind != SY_CONST) break;
            v += b.a;
        }
        for (uint32_t k = 0; k < x[2]; k++) {
            sw_sym ix = sw_shape_get(sh, x[3 + 3 * k]);
            if (ix.kind != SY_CONST) {
                sh->ok = false;
                return;
            }
            v += sw_clampi((int32_t)ix.a, x[5 + 3 * k]) * x[4 + 3 * k];
        }
        sw_shape_set(sh, in->d, (sw_sym){ SY_CONST, v, 0 });
        return;
    }
    case I_LOADP: {
        sw_sym p = sw_shape_get(sh, in->a);
        if (p.kind != SY_CONST) break;
        sw_shape_copy(sh, in->d, p.a, in->n);
        return;
    }
    case I_STOREP: {
        sw_sym p = sw_shape_get(sh, in->b);
        if (p.kind != SY_CONST) break;
        sw_shape_copy(sh, p.a, in->a, in->n);
        return;
    }
    case I_SAMPLE: {
        const uint32_t *x = m->aux + in->x;
        if (sh->sampled || m->refl.stage != XGDI_SW_SPIRV_FRAGMENT ||
            x[2] != XGDI_SW_SPIRV_SAMPLE_IMPLICIT || x[3] != SW_NONE ||
            x[6] != XGDI_SW_SPIRV_DIM_2D || x[7] != 0)
            break;
        sw_sym r = sw_shape_get(sh, x[0]);
        sw_sym u = sw_shape_get(sh, x[1]), v = sw_shape_get(sh, x[1] + 4);
        if (r.kind != SY_CONST || u.kind != SY_INPUT || v.kind != SY_INPUT || v.a != u.a + 4) break;
        sh->sampled = true;
        sh->resource = r.a;
        sh->uv = u.a;
        for (uint32_t c = 0; c < 4; c++) sw_shape_set(sh, in->d + 4 * c, (sw_sym){ SY_SAMPLE, c, 0 });
        return;
    }
    case I_CALL: {
        const sfunc *f = &m->funcs[in->a];
        const uint32_t *x = m->aux + in->x;
        for (uint32_t k = 0; k < x[0] && sh->ok; k++) {
            uint32_t src = x[1 + 2 * k], how = x[2 + 2 * k];
            uint32_t preg = m->aux[f->params + 2 * k], pn = m->aux[f->params + 2 * k + 1];
            if (how == 1) sw_shape_set(sh, preg, (sw_sym){ SY_CONST, src, 0 });
            else if (how == 2) sw_shape_copy(sh, preg, src, 1);
            else sw_shape_copy(sh, preg, src, pn);
        }
        sw_shape_function(sh, in->a, depth + 1);
        if (in->n) sw_shape_copy(sh, in->d, f->ret_reg, in->n);
        return;
    }
    default:
        break;
    }
    sh->ok = false;
}

static void sw_shape_function(sw_shape *sh, uint32_t fi, int depth)
{
    const xgdi_sw_spirv_module *m = sh->m;
    if (depth > 8 || fi >= m->nfuncs) {
        sh->ok = false;
        return;
    }
    const sfunc *f = &m->funcs[fi];
    const sblock *b = &m->blocks_[f->first_block];
    if (f->nblocks != 1 || b->term != B_RETURN || b->cost >= SW_SHAPE_MAX_COST - sh->cost) {
        sh->ok = false;
        return;
    }
    sh->cost += b->cost;
    for (uint32_t i = b->first; i < b->first + b->count && sh->ok; i++) sw_shape_ins(sh, &m->ins[i], depth);
    if (sh->ok && b->cond != SW_NONE) sw_shape_copy(sh, f->ret_reg, b->cond, f->ret_n);
}

/* The symbolic run of sh->m (sh->arith set as the shape needs): its init instructions, then
   its entry point; with arithmetic, the hoisted uniform loads first give their registers. true
   when the run took every instruction and read no word as its initial value that it writes
   later (each invocation then starts from the same values). sw_shape_free afterwards. */
static bool sw_shape_run(sw_shape *sh)
{
    const xgdi_sw_spirv_module *m = sh->m;
    sh->ok = true;
    sh->sym = calloc(m->words, sizeof *sh->sym);
    sh->written = calloc(m->words, 1);
    if (sh->sym == NULL || sh->written == NULL) {
        sh->ok = false;
        return false;
    }
    for (uint32_t k = 0; k < m->nhoist && sh->arith && sh->ok; k++) {
        const sins *in = &m->hoist[k];
        for (uint32_t c = 0; c < in->n; c++)
            sw_shape_set(sh, in->d + 4 * c, (sw_sym){ SY_UNIFORM, in->d + 4 * c, 0 });
    }
    for (uint32_t i = m->init_first; i < m->init_first + m->init_count && sh->ok; i++)
        sw_shape_ins(sh, &m->ins[i], 0);
    if (sh->ok) sw_shape_function(sh, m->entry_func, 0);
    for (uint32_t k = 0; k < sh->nconst_reads && sh->ok; k++)
        if (sh->written[sh->const_reads[k]]) sh->ok = false;
    return sh->ok;
}

static void sw_shape_free(sw_shape *sh)
{
    free(sh->sym);
    free(sh->written);
    free(sh->const_reads);
    free(sh->nodes);
}

bool xgdi_sw_spirv_match_modulate(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_modulate *out)
{
    if (m->refl.stage != XGDI_SW_SPIRV_FRAGMENT || m->nhoist != 0 || m->words > (1u << 16))
        return false;
    /* exactly one output, COLOR0 as a float4; no built-in outputs */
    const xgdi_sw_spirv_io *color = NULL;
    for (int i = 0; i < m->refl.io_count; i++) {
        const xgdi_sw_spirv_io *io = &m->io[i];
        if (!io->output) continue;
        if (color != NULL || io->builtin != XGDI_SW_SPIRV_BUILTIN_NONE || io->location != 0 ||
            io->components != 4 || io->scalar != XGDI_SW_SPIRV_FLOAT)
            return false;
        color = io;
    }
    if (color == NULL) return false;
    sw_shape sh = { .m = m };
    bool ok = sw_shape_run(&sh) && sh.sampled;
    uint32_t col = 0;
    uint8_t kind = ok ? sh.sym[color->reg].kind : SY_UNSET;
    for (uint32_t c = 0; c < 4 && ok; c++) {
        sw_sym v = sh.sym[color->reg + 4 * c];
        if (v.kind != kind || (kind != SY_MOD && kind != SY_MODR) || v.a != c ||
            (c > 0 && v.b != col + 4 * c))
            ok = false;
        if (c == 0) col = v.b;
    }
    if (ok) {
        out->sample_first = kind == SY_MOD;
        out->resource = sh.resource;
        out->uv_reg = sh.uv;
        out->color_reg = col;
        out->valid = (sh.resource & 0xffu) < (uint32_t)m->refl.resource_count &&
                     (sh.resource >> 8 & 0xffu) < (uint32_t)m->refl.resource_count;
    }
    sw_shape_free(&sh);
    return ok;
}

/* ---- the transform shape (vertex and pixel) ---- */

/* The leaf index of a symbol (an input or hoisted uniform register, or a constant), added to
   out's leaves once; -1 when the symbol is not a leaf or the leaves are full. */
static int sw_transform_leaf(xgdi_sw_spirv_transform *out, sw_sym v)
{
    xgdi_sw_spirv_leaf leaf;
    if (v.kind == SY_INPUT || v.kind == SY_UNIFORM) leaf = (xgdi_sw_spirv_leaf){ false, v.a, 0 };
    else if (v.kind == SY_CONST) leaf = (xgdi_sw_spirv_leaf){ true, 0, v.a };
    else return -1;
    for (uint32_t i = 0; i < out->leaf_count; i++)
        if (out->leaves[i].constant == leaf.constant && out->leaves[i].reg == leaf.reg &&
            out->leaves[i].bits == leaf.bits)
            return (int)i;
    if (out->leaf_count == XGDI_SW_SPIRV_TRANSFORM_LEAVES) return -1;
    out->leaves[out->leaf_count] = leaf;
    return (int)out->leaf_count++;
}

static bool sw_sym_same(sw_sym x, sw_sym y)
{
    return x.kind == y.kind && x.a == y.a && x.b == y.b;
}

/* Component r's products from v: a leaf (no products), or +0 plus up to four products of
   leaves added in order (sw_shape_sum). */
static bool sw_transform_sum(const sw_shape *sh, xgdi_sw_spirv_transform *out, int r, sw_sym v)
{
    if (v.kind != SY_NODE) {
        int l = sw_transform_leaf(out, v);
        if (l < 0) return false;
        out->terms[r] = 0;
        out->a[r][0] = (uint16_t)l;
        return true;
    }
    sw_sym term[5];
    int n = 0;
    while (v.kind == SY_NODE) {
        const sw_node *s = &sh->nodes[v.a];
        if (s->op != SN_ADD || s->y.kind != SY_NODE || n == 4) return false;
        term[n++] = s->y;
        v = s->x;
    }
    if (v.kind != SY_CONST || v.a != 0u) return false; /* the sum starts at +0 */
    for (int k = 0; k < n; k++) {
        const sw_node *p = &sh->nodes[term[n - 1 - k].a];
        if (p->op != SN_MUL) return false;
        int la = sw_transform_leaf(out, p->x), lb = sw_transform_leaf(out, p->y);
        if (la < 0 || lb < 0) return false;
        out->a[r][k] = (uint16_t)la;
        out->b[r][k] = (uint16_t)lb;
    }
    out->terms[r] = (uint8_t)n;
    return true;
}

/* Component r from v as base + f * w (either order of each operation, w the symbol of the
   fourth component's base): the base in out, the rest in fix[r] and f[r]. */
static bool sw_transform_fixed(const sw_shape *sh, xgdi_sw_spirv_transform *out, int r, sw_sym v,
                               sw_sym w)
{
    if (v.kind != SY_NODE || sh->nodes[v.a].op != SN_ADD) return false;
    const sw_node *add = &sh->nodes[v.a];
    for (int product_first = 0; product_first < 2; product_first++) {
        sw_sym base = product_first ? add->y : add->x, prod = product_first ? add->x : add->y;
        if (prod.kind != SY_NODE || sh->nodes[prod.a].op != SN_MUL) continue;
        const sw_node *mul = &sh->nodes[prod.a];
        for (int w_first = 0; w_first < 2; w_first++) {
            if (!sw_sym_same(w_first ? mul->x : mul->y, w)) continue;
            int lf = sw_transform_leaf(out, w_first ? mul->y : mul->x);
            if (lf < 0 || !sw_transform_sum(sh, out, r, base)) continue;
            out->fix[r] = (uint8_t)(1 | (product_first ? 2 : 0) | (w_first ? 4 : 0));
            out->f[r] = (uint16_t)lf;
            return true;
        }
    }
    return false;
}

/* An output component from v: a leaf or a product of two, perhaps clamped by two leaves. */
static bool sw_transform_output(const sw_shape *sh, xgdi_sw_spirv_transform *out,
                                struct xgdi_sw_spirv_transform_output *o, sw_sym v)
{
    o->form = 0;
    if (v.kind == SY_NODE && sh->nodes[v.a].op == SN_CLAMP) {
        const sw_node *c = &sh->nodes[v.a];
        int lo = sw_transform_leaf(out, c->y), hi = sw_transform_leaf(out, c->z);
        if (lo < 0 || hi < 0) return false;
        o->form = 2;
        o->lo = (uint16_t)lo;
        o->hi = (uint16_t)hi;
        v = c->x;
    }
    if (v.kind == SY_NODE) {
        const sw_node *p = &sh->nodes[v.a];
        if (p->op != SN_MUL) return false;
        int a = sw_transform_leaf(out, p->x), b = sw_transform_leaf(out, p->y);
        if (a < 0 || b < 0) return false;
        o->form |= 1;
        o->a = (uint16_t)a;
        o->b = (uint16_t)b;
        return true;
    }
    int a = sw_transform_leaf(out, v);
    if (a < 0) return false;
    o->a = (uint16_t)a;
    return true;
}

bool xgdi_sw_spirv_match_transform(const xgdi_sw_spirv_module *m, xgdi_sw_spirv_transform *out)
{
    const bool vertex = m->refl.stage == XGDI_SW_SPIRV_VERTEX;
    if ((!vertex && m->refl.stage != XGDI_SW_SPIRV_FRAGMENT) || m->words > (1u << 16))
        return false;
    /* outputs: Position (a float4, vertex shaders) and varyings or colours of at most four
       components */
    const xgdi_sw_spirv_io *position = NULL;
    uint32_t output_words = 0;
    for (int i = 0; i < m->refl.io_count; i++) {
        const xgdi_sw_spirv_io *io = &m->io[i];
        if (!io->output) continue;
        if (vertex && io->builtin == XGDI_SW_SPIRV_BUILTIN_POSITION) {
            if (position != NULL || io->components != 4 || io->scalar != XGDI_SW_SPIRV_FLOAT)
                return false;
            position = io;
        } else if (io->builtin != XGDI_SW_SPIRV_BUILTIN_NONE || io->components > 4) {
            return false;
        } else {
            output_words += (uint32_t)io->components;
        }
    }
    if ((vertex && position == NULL) || output_words > XGDI_SW_SPIRV_TRANSFORM_OUTPUTS)
        return false;
    memset(out, 0, sizeof *out);
    out->has_position = vertex;
    sw_shape sh = { .m = m, .arith = true };
    bool ok = sw_shape_run(&sh);
    if (ok && vertex) {
        /* the fourth component first: its base is what the others' offset terms multiply */
        const uint32_t p = position->reg;
        out->position_reg = p;
        sw_sym w = sh.sym[p + 12];
        if (w.kind == SY_NODE && sh.nodes[w.a].op == SN_ADD) {
            /* base + f * base, either way round */
            const sw_node *add = &sh.nodes[w.a];
            for (int side = 0; side < 2; side++) {
                sw_sym base = side ? add->y : add->x;
                xgdi_sw_spirv_transform trial = *out;
                if (sw_transform_fixed(&sh, &trial, 3, w, base)) {
                    *out = trial;
                    w = base;
                    break;
                }
            }
        }
        if (out->fix[3] == 0 && !sw_transform_sum(&sh, out, 3, w)) ok = false;
        for (int r = 0; r < 3 && ok; r++) {
            sw_sym v = sh.sym[p + 4u * (uint32_t)r];
            ok = sw_transform_sum(&sh, out, r, v) || sw_transform_fixed(&sh, out, r, v, w);
        }
    }
    for (int i = 0; i < m->refl.io_count && ok; i++) {
        const xgdi_sw_spirv_io *io = &m->io[i];
        if (!io->output || io == position) continue;
        for (int c = 0; c < io->components && ok; c++) {
            struct xgdi_sw_spirv_transform_output *o = &out->outputs[out->output_count++];
            o->reg = io->reg + 4u * (uint32_t)c;
            ok = sw_transform_output(&sh, out, o, sh.sym[o->reg]);
        }
    }
    sw_shape_free(&sh);
    return ok;
}

void xgdi_sw_spirv_run_transform(xgdi_sw_spirv_state *s, const xgdi_sw_spirv_transform *t)
{
    if (!s->uniforms_loaded) sw_load_hoisted(s);
    if (s->transform != t) {
        for (uint32_t i = 0; i < t->leaf_count; i++) {
            const xgdi_sw_spirv_leaf *l = &t->leaves[i];
            if (l->constant) {
                float v;
                memcpy(&v, &l->bits, sizeof v);
                for (int k = 0; k < 4; k++) s->transform_values[i][k] = v;
                s->transform_leaf[i] = s->transform_values[i];
            } else {
                s->transform_leaf[i] = &s->R[l->reg].f;
            }
        }
        s->transform = t;
    }
    const float *const *leaf = s->transform_leaf;
    sw_v4 base[4];
    for (int r = 0; r < 4 && t->has_position; r++) {
        if (t->terms[r] == 0) {
            base[r] = sw_v4_load(leaf[t->a[r][0]]);
            continue;
        }
        sw_v4 sum = sw_v4_splat(0.0f);
        for (int k = 0; k < t->terms[r]; k++)
            sum = sw_v4_add(sum, sw_v4_mul(sw_v4_load(leaf[t->a[r][k]]),
                                           sw_v4_load(leaf[t->b[r][k]])));
        base[r] = sum;
    }
    for (int r = 0; r < 4 && t->has_position; r++) {
        sw_v4 v = base[r];
        if (t->fix[r]) {
            const sw_v4 f = sw_v4_load(leaf[t->f[r]]);
            const sw_v4 p = (t->fix[r] & 4) ? sw_v4_mul(base[3], f) : sw_v4_mul(f, base[3]);
            v = (t->fix[r] & 2) ? sw_v4_add(p, v) : sw_v4_add(v, p);
        }
        sw_v4_store(&s->R[t->position_reg + 4u * (uint32_t)r].f, v);
    }
    for (uint32_t i = 0; i < t->output_count; i++) {
        const struct xgdi_sw_spirv_transform_output *o = &t->outputs[i];
        float *d = &s->R[o->reg].f;
        switch (o->form) {
        case 0: sw_v4_store(d, sw_v4_load(leaf[o->a])); break;
        case 1: sw_v4_store(d, sw_v4_mul(sw_v4_load(leaf[o->a]), sw_v4_load(leaf[o->b]))); break;
        default: {
            float x[4];
            if (o->form & 1) sw_v4_store(x, sw_v4_mul(sw_v4_load(leaf[o->a]), sw_v4_load(leaf[o->b])));
            else memcpy(x, leaf[o->a], sizeof x);
            const float *lo = leaf[o->lo], *hi = leaf[o->hi];
            for (int l = 0; l < 4; l++) d[l] = fminf(fmaxf(x[l], lo[l]), hi[l]);
            break;
        }
        }
    }
}
