/*
 * d3d12_dxbc.c - SPIR-V (Vulkan 1.0 vertex/fragment) to DXBC shader model 5.0; see
 * d3d12_dxbc.h for the interface rules.
 *
 * Model: DXBC registers are untyped 32-bit x4, so every SPIR-V scalar or vector value (float,
 * int, uint, bool as 0 / ~0) lives in the components .x.. of a temp register, a matrix in one
 * temp per column. Loads from uniform blocks and stage inputs are not copied: the value is the
 * cb/v operand itself (neither can change during the invocation), and so are extracts of one
 * component. Private/Function variables are temps (arrays: indexable temps x#); output
 * variables are temps copied to the o# registers at every return, because SPIR-V may read
 * back an output and DXBC cannot. Structured control flow maps to if/else/endif,
 * loop/endloop, switch/case; a branch to a loop's continue target from inside the body
 * repeats the continue construct before `continue` (DXBC's continue jumps straight to the
 * loop head). Phi values are copied on each incoming edge.
 * Errors unwind with longjmp to one place that frees everything the translation allocated.
 */
#include "d3d12_dxbc.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- checksum */

static uint32_t rotl32(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

/* One MD5 block (RFC 1321); the sine table is computed, as the RFC defines it. */
static void md5_block(uint32_t st[4], const uint8_t *p, const uint32_t k[64])
{
    static const int shift[4][4] = { { 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 },
                                     { 6, 10, 15, 21 } };
    uint32_t m[16], a = st[0], b = st[1], c = st[2], d = st[3];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
               (uint32_t)p[4 * i + 3] << 24;
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) { f = (b & c) | (~b & d); g = i; }
        else if (i < 32) { f = (d & b) | (~d & c); g = (5 * i + 1) & 15; }
        else if (i < 48) { f = b ^ c ^ d; g = (3 * i + 5) & 15; }
        else { f = c ^ (b | ~d); g = (7 * i) & 15; }
        f = f + a + k[i] + m[g];
        a = d;
        d = c;
        c = b;
        b = b + rotl32(f, shift[i >> 4][i & 3]);
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

void xgdi_d3d12_dxbc_checksum(const void *dxbc, size_t size, uint32_t out[4])
{
    uint32_t k[64], st[4] = { 0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u };
    for (int i = 0; i < 64; i++) k[i] = (uint32_t)floor(fabs(sin(i + 1.0)) * 4294967296.0);
    if (size < 20) {
        memset(out, 0, 4 * sizeof *out);
        return;
    }
    const uint8_t *p = (const uint8_t *)dxbc + 20;
    size_t len = size - 20, full = len / 64 * 64, rem = len - full;
    for (size_t o = 0; o < full; o += 64) md5_block(st, p + o, k);
    uint32_t bits = (uint32_t)(len * 8);
    uint8_t blk[64];
    memset(blk, 0, sizeof blk);
    /* The final block carries the bit count in its first word, ahead of the remaining bytes,
       and (bits >> 2) | 1 in its last word; when the remaining bytes and the 0x80 marker leave
       no room for that, they get a block of their own first. */
    if (rem >= 56) {
        memcpy(blk, p + full, rem);
        blk[rem] = 0x80;
        md5_block(st, blk, k);
        memset(blk, 0, sizeof blk);
        put_le32(blk, bits);
    } else {
        put_le32(blk, bits);
        memcpy(blk + 4, p + full, rem);
        blk[4 + rem] = 0x80;
    }
    put_le32(blk + 60, (bits >> 2) | 1);
    md5_block(st, blk, k);
    memcpy(out, st, sizeof st);
}

/* ---------------------------------------------------------------- limits and codes */

#define MAX_IN_WORDS (1u << 20)
#define MAX_OUT_WORDS (1u << 22)
#define MAX_BOUND (1u << 20)
#define MAX_TEMPS 4096u
#define MAX_CB_REGS 4096u
#define NONE 0xffffffffu

/* SPIR-V opcodes */
enum {
    SOpNop = 0, SOpUndef = 1, SOpSourceContinued = 2, SOpSource = 3, SOpSourceExtension = 4,
    SOpName = 5, SOpMemberName = 6, SOpString = 7, SOpLine = 8, SOpExtension = 10,
    SOpExtInstImport = 11, SOpExtInst = 12, SOpMemoryModel = 14, SOpEntryPoint = 15,
    SOpExecutionMode = 16, SOpCapability = 17, SOpTypeVoid = 19, SOpTypeBool = 20,
    SOpTypeInt = 21, SOpTypeFloat = 22, SOpTypeVector = 23, SOpTypeMatrix = 24,
    SOpTypeImage = 25, SOpTypeSampler = 26, SOpTypeSampledImage = 27, SOpTypeArray = 28,
    SOpTypeRuntimeArray = 29, SOpTypeStruct = 30, SOpTypePointer = 32, SOpTypeFunction = 33,
    SOpConstantTrue = 41, SOpConstantFalse = 42, SOpConstant = 43, SOpConstantComposite = 44,
    SOpConstantNull = 46, SOpSpecConstantTrue = 48, SOpSpecConstantFalse = 49,
    SOpSpecConstant = 50, SOpSpecConstantComposite = 51, SOpFunction = 54,
    SOpFunctionParameter = 55, SOpFunctionEnd = 56, SOpFunctionCall = 57, SOpVariable = 59,
    SOpLoad = 61, SOpStore = 62, SOpAccessChain = 65, SOpInBoundsAccessChain = 66,
    SOpDecorate = 71, SOpMemberDecorate = 72, SOpVectorShuffle = 79,
    SOpCompositeConstruct = 80, SOpCompositeExtract = 81, SOpCompositeInsert = 82,
    SOpCopyObject = 83, SOpTranspose = 84, SOpSampledImage = 86,
    SOpImageSampleImplicitLod = 87, SOpImageSampleExplicitLod = 88,
    SOpImageSampleDrefImplicitLod = 89, SOpImageSampleDrefExplicitLod = 90, SOpImageFetch = 95,
    SOpImageWrite = 99, SOpImage = 100, SOpImageQuerySizeLod = 103, SOpImageQueryLevels = 106,
    SOpConvertFToU = 109, SOpConvertFToS = 110, SOpConvertSToF = 111, SOpConvertUToF = 112,
    SOpBitcast = 124, SOpSNegate = 126, SOpFNegate = 127, SOpIAdd = 128, SOpFAdd = 129,
    SOpISub = 130, SOpFSub = 131, SOpIMul = 132, SOpFMul = 133, SOpUDiv = 134, SOpSDiv = 135, SOpFDiv = 136,
    SOpUMod = 137, SOpFRem = 140, SOpFMod = 141, SOpVectorTimesScalar = 142,
    SOpMatrixTimesScalar = 143, SOpVectorTimesMatrix = 144, SOpMatrixTimesVector = 145,
    SOpMatrixTimesMatrix = 146, SOpDot = 148, SOpAny = 154, SOpAll = 155, SOpIsNan = 156,
    SOpIsInf = 157, SOpLogicalEqual = 164, SOpLogicalNotEqual = 165, SOpLogicalOr = 166,
    SOpLogicalAnd = 167, SOpLogicalNot = 168, SOpSelect = 169, SOpIEqual = 170,
    SOpINotEqual = 171, SOpUGreaterThan = 172, SOpSGreaterThan = 173,
    SOpUGreaterThanEqual = 174, SOpSGreaterThanEqual = 175, SOpULessThan = 176,
    SOpSLessThan = 177, SOpULessThanEqual = 178, SOpSLessThanEqual = 179,
    SOpFOrdEqual = 180, SOpFUnordEqual = 181, SOpFOrdNotEqual = 182, SOpFUnordNotEqual = 183,
    SOpFOrdLessThan = 184, SOpFUnordLessThan = 185, SOpFOrdGreaterThan = 186,
    SOpFUnordGreaterThan = 187, SOpFOrdLessThanEqual = 188, SOpFUnordLessThanEqual = 189,
    SOpFOrdGreaterThanEqual = 190, SOpFUnordGreaterThanEqual = 191,
    SOpShiftRightLogical = 194, SOpShiftRightArithmetic = 195, SOpShiftLeftLogical = 196,
    SOpBitwiseOr = 197, SOpBitwiseXor = 198, SOpBitwiseAnd = 199, SOpNot = 200,
    SOpDPdx = 207, SOpDPdy = 208, SOpFwidth = 209, SOpDPdxFine = 210, SOpDPdyFine = 211,
    SOpFwidthFine = 212, SOpDPdxCoarse = 213, SOpDPdyCoarse = 214, SOpFwidthCoarse = 215,
    SOpPhi = 245, SOpLoopMerge = 246, SOpSelectionMerge = 247, SOpLabel = 248,
    SOpBranch = 249, SOpBranchConditional = 250, SOpSwitch = 251, SOpKill = 252,
    SOpReturn = 253, SOpReturnValue = 254, SOpUnreachable = 255, SOpControlBarrier = 224,
    SOpMemoryBarrier = 225, SOpNoLine = 317, SOpModuleProcessed = 330,
};

/* SPIR-V enumerants */
enum { SStorageUniformConstant = 0, SStorageInput = 1, SStorageUniform = 2, SStorageOutput = 3,
       SStorageWorkgroup = 4, SStoragePrivate = 6, SStorageFunction = 7, SStoragePushConstant = 9 };
enum { SDecRowMajor = 4, SDecColMajor = 5, SDecArrayStride = 6, SDecMatrixStride = 7,
       SDecBlock = 2, SDecBufferBlock = 3, SDecBuiltIn = 11, SDecNoPerspective = 13,
       SDecFlat = 14, SDecCentroid = 16, SDecSample = 17, SDecLocation = 30,
       SDecBinding = 33, SDecDescriptorSet = 34, SDecOffset = 35 };
enum { SBuiltInPosition = 0, SBuiltInPointSize = 1, SBuiltInFragCoord = 15,
       SBuiltInFrontFacing = 17, SBuiltInFragDepth = 22, SBuiltInWorkgroupId = 26,
       SBuiltInLocalInvocationId = 27, SBuiltInGlobalInvocationId = 28,
       SBuiltInLocalInvocationIndex = 29, SBuiltInVertexIndex = 42, SBuiltInInstanceIndex = 43 };
/* execution models */
enum { SModelVertex = 0, SModelFragment = 4, SModelGLCompute = 5 };
enum { SDim1D = 0, SDim2D = 1, SDim3D = 2, SDimCube = 3 };

/* DXBC (SM4/5 tokenized program format) opcodes */
enum {
    DADD = 0, DAND = 1, DBREAK = 2, DBREAKC = 3, DCASE = 6, DCONTINUE = 7, DDEFAULT = 10,
    DDERIV_RTX = 11, DDERIV_RTY = 12, DDISCARD = 13, DDIV = 14, DDP2 = 15, DDP3 = 16,
    DDP4 = 17, DELSE = 18, DENDIF = 21, DENDLOOP = 22, DENDSWITCH = 23, DEQ = 24, DEXP = 25,
    DFRC = 26, DFTOI = 27, DFTOU = 28, DGE = 29, DIADD = 30, DIF = 31, DIEQ = 32, DIGE = 33,
    DILT = 34, DIMAD = 35, DLD = 45, DRESINFO = 61, DIMAX = 36, DIMIN = 37, DIMUL = 38, DINE = 39, DINEG = 40,
    DISHL = 41, DISHR = 42, DITOF = 43, DLOG = 47, DLOOP = 48, DLT = 49, DMAD = 50, DMIN = 51,
    DMAX = 52, DMOV = 54, DMOVC = 55, DMUL = 56, DNE = 57, DNOT = 59, DOR = 60, DRET = 62,
    DROUND_NE = 64, DROUND_NI = 65, DROUND_PI = 66, DROUND_Z = 67, DRSQ = 68, DSAMPLE = 69,
    DSAMPLE_C = 70, DSAMPLE_C_LZ = 71, DSAMPLE_L = 72, DSAMPLE_D = 73, DSAMPLE_B = 74,
    DSQRT = 75, DSWITCH = 76, DSINCOS = 77, DUDIV = 78, DULT = 79, DUGE = 80, DUMAX = 83,
    DUMIN = 84, DUSHR = 85, DUTOF = 86, DXOR = 87, DDCL_RESOURCE = 88, DDCL_CB = 89,
    DDCL_SAMPLER = 90, DDCL_INPUT = 95, DDCL_INPUT_SGV = 96, DDCL_INPUT_PS = 98,
    DDCL_INPUT_PS_SGV = 99, DDCL_INPUT_PS_SIV = 100, DDCL_OUTPUT = 101, DDCL_OUTPUT_SIV = 103,
    DDCL_TEMPS = 104, DDCL_INDEXABLE_TEMP = 105, DDCL_GLOBAL_FLAGS = 106,
    DDCL_THREAD_GROUP = 155, DDCL_UAV_TYPED = 156, DDCL_TGSM_STRUCTURED = 160,
    DSTORE_UAV_TYPED = 164, DLD_STRUCTURED = 167, DSTORE_STRUCTURED = 168, DSYNC = 190,
};
/* sync flags (opcode controls) */
#define SYNC_THREADS (1u << 11)
#define SYNC_TGSM (1u << 12)
#define SYNC_UAV_GROUP (1u << 13)
#define SYNC_UAV_GLOBAL (1u << 14)
#define TEST_NZ (1u << 18)
#define SATURATE (1u << 13)

/* operand types */
enum { OT_TEMP = 0, OT_INPUT = 1, OT_OUTPUT = 2, OT_X = 3, OT_IMM = 4, OT_SAMPLER = 6,
       OT_RESOURCE = 7, OT_CB = 8, OT_DEPTH = 12, OT_NULL = 13, OT_UAV = 30, OT_TGSM = 31,
       OT_THREAD_ID = 32, OT_THREAD_GROUP_ID = 33, OT_THREAD_ID_IN_GROUP = 34,
       OT_THREAD_ID_IN_GROUP_FLATTENED = 36 };
/* source modifiers */
/* MOD_INEG: the neg modifier of an integer instruction (iadd's operand): the same token as
   MOD_NEG, but an immediate operand is negated as an integer (two's complement), not by its
   sign bit */
enum { MOD_NONE = 0, MOD_NEG = 1, MOD_ABS = 2, MOD_INEG = 5 };
/* system value names (signature and dcl_*_siv/sgv) */
enum { SV_NONE = 0, SV_POSITION = 1, SV_VERTEX_ID = 6, SV_INSTANCE_ID = 8,
       SV_IS_FRONT_FACE = 9 };

/* ---------------------------------------------------------------- translation state */

/* where a value is */
enum { F_NONE = 0, F_TEMP, F_INPUT, F_CB, F_IMM, F_DESC };

typedef struct xval {
    uint8_t file, comp0, ncomp, ncols;
    uint32_t reg;      /* temp/input register (first column); cb register */
    uint32_t slot;     /* cb slot */
    uint32_t dyn;      /* cb: temp register + 1 holding a register offset in .x, 0 none */
    uint32_t imm[4];
    uint32_t tex, smp; /* F_DESC: t# and s# (NONE where absent) */
    uint32_t image_type;
} xval;

/* variable storage: ... V_UAV a storage image (u#), V_TGSM workgroup memory (g#), V_SYSIN a
   compute shader's thread or group id (vreg: its operand type, vcount: its components) */
enum { V_NONE = 0, V_TEMP, V_X, V_INPUT, V_OUTPUT, V_CB, V_IMAGE, V_SAMPLER, V_SAMPLED, V_UAV,
       V_TGSM, V_SYSIN };

typedef struct xptr {
    uint32_t var;     /* root variable */
    uint32_t type;    /* pointee type */
    uint32_t off;     /* cb: byte offset; temps: register (column) offset; x: element */
    uint32_t dyn;     /* temp register + 1 holding a dynamic offset (cb registers, x elements) */
    uint32_t comp;    /* component of a vector, NONE for the whole value */
    uint32_t mstride; /* cb: MatrixStride of the matrix this points into */
    uint8_t rowmajor; /* cb: RowMajor matrix */
    uint8_t column;   /* cb: points at a column of a row-major matrix (components strided) */
} xptr;

typedef struct xid {
    uint32_t def;     /* word offset of the defining instruction */
    uint16_t op;
    uint8_t has_val, has_ptr;
    uint32_t type;
    uint32_t location, builtin, set, binding, array_stride;
    uint8_t flat, noperspective, centroid, sample, block, buffer_block;
    uint8_t vkind;
    uint8_t repeat; /* an input of the builtin of an earlier input: reads its register */
    uint32_t vreg, oreg, vcount; /* variable: temp/x/input/cb register; output register */
    xval val;
    xptr ptr;
} xid;

typedef struct member_dec {
    uint32_t type, member, offset, mstride;
    uint8_t rowmajor, has_offset;
} member_dec;

typedef struct construct {
    uint32_t header, merge, cont;
    uint8_t loop, in_continue;
} construct;

typedef struct wbuf {
    uint32_t *w;
    size_t n, cap;
} wbuf;

typedef struct sig_elem {
    const char *name;
    uint32_t index, sv, ctype, reg, mask, rw;
} sig_elem;

typedef struct ctx {
    jmp_buf fail;
    xgd_result result;
    char *msg;
    size_t msg_size;

    const uint32_t *w;
    size_t nw;
    uint32_t bound;
    xid *ids;
    member_dec *mdec;
    size_t nmdec, capmdec;
    uint32_t glsl_ext;
    uint32_t entry, model; /* SModelVertex, SModelFragment, SModelGLCompute */
    uint32_t local_size[3]; /* a compute shader's LocalSize */
    uint32_t ntgsm, tgsm_bytes; /* workgroup variables (g#) and their bytes */
    size_t fn_begin, fn_end;

    const xgdi_d3d12_dxbc_binding *bindings;
    size_t nbindings;
    uint32_t int_in_u, int_in_s; /* vertex input locations fed integer formats (bit = location) */

    wbuf code, decl, *out;
    size_t open; /* 1 + the word at which the instruction being written begins, 0 none */
    uint32_t ntemps, nx;
    uint32_t *xsizes;  /* element count of each indexable temp */
    uint32_t *vars;    /* ids of module-scope and function variables */
    size_t nvars;
    uint8_t cmp_sampler[128];
    construct cs[64];
    int ncs;
    size_t steps;
    int depth, depth_out;
} ctx;

_Noreturn static void fail(ctx *c, xgd_result r, const char *fmt, ...)
{
    if (c->msg && c->msg_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, c->msg_size, fmt, ap);
        va_end(ap);
    }
    c->result = r;
    longjmp(c->fail, 1);
}

#define BAD(...) fail(c, XGD_ERROR_INVALID_ARGUMENT, __VA_ARGS__)
#define UNSUP(...) fail(c, XGD_ERROR_NOT_SUPPORTED, __VA_ARGS__)

static void *xalloc(ctx *c, size_t n, size_t size)
{
    if (n && size > SIZE_MAX / n) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: allocation too large");
    void *p = calloc(n ? n : 1, size);
    if (!p) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: out of memory");
    return p;
}

static void wput(ctx *c, uint32_t v)
{
    wbuf *b = c->out;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        if (cap > MAX_OUT_WORDS)
            UNSUP("dxbc: the translated shader exceeds %u words", MAX_OUT_WORDS);
        uint32_t *p = realloc(b->w, cap * sizeof *p);
        if (!p) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: out of memory");
        b->w = p;
        b->cap = cap;
    }
    b->w[b->n++] = v;
}

/* An instruction's tokens are contiguous: one begun before another ends would be read as the
   other's operands, so a helper instruction (an address an operand needs) is emitted before the
   consuming instruction begins. Breaking that is the translator's defect, refused here rather
   than written. */
static size_t ins_begin(ctx *c, uint32_t op, uint32_t controls)
{
    if (c->open)
        fail(c, XGD_ERROR_INVALID_OPERATION, "dxbc: instruction %u begun inside instruction %u",
             op, c->out->w[c->open - 1] & 0x7ffu);
    wput(c, op | controls);
    c->open = c->out->n;
    return c->out->n - 1;
}

static void ins_end(ctx *c, size_t at)
{
    size_t len = c->out->n - at;
    if (len > 127) BAD("dxbc: instruction too long");
    c->out->w[at] |= (uint32_t)len << 24;
    c->open = 0;
}

/* ---------------------------------------------------------------- SPIR-V helpers */

static const uint32_t *ins(ctx *c, uint32_t id)
{
    if (id == 0 || id >= c->bound || !c->ids[id].def) BAD("spirv: id %u is not defined", id);
    return c->w + c->ids[id].def;
}

/* id, used by the instruction defining `user`, must be defined before it (SPIR-V's rule for
   types and constants; it also keeps malformed self-references from recursing) */
static void before(ctx *c, uint32_t id, uint32_t user)
{
    if (id == 0 || id >= c->bound || !c->ids[id].def || c->ids[id].def >= c->ids[user].def)
        BAD("spirv: id %u used by %u before its definition", id, user);
}

static uint16_t opof(ctx *c, uint32_t id)
{
    if (id == 0 || id >= c->bound) BAD("spirv: id %u out of range", id);
    return c->ids[id].op;
}

static uint32_t wc_of(const uint32_t *p) { return p[0] >> 16; }

/* number of components of a scalar or vector type, 0 for anything else */
static uint32_t ncomp_of(ctx *c, uint32_t type)
{
    const uint32_t *t = ins(c, type);
    switch (t[0] & 0xffff) {
    case SOpTypeBool: return 1;
    case SOpTypeInt:
    case SOpTypeFloat:
        if (t[2] != 32) UNSUP("spirv: %u-bit numbers", t[2]);
        return 1;
    case SOpTypeVector: {
        if (wc_of(t) < 4) BAD("spirv: OpTypeVector");
        before(c, t[2], type);
        uint32_t n = ncomp_of(c, t[2]);
        if (n != 1 || t[3] < 2 || t[3] > 4) BAD("spirv: bad vector type %u", type);
        return t[3];
    }
    default: return 0;
    }
}

/* scalar kind: 0 float, 1 int, 2 uint, 3 bool */
static int scalar_kind(ctx *c, uint32_t type)
{
    const uint32_t *t = ins(c, type);
    uint32_t op = t[0] & 0xffff;
    if (op == SOpTypeVector) { before(c, t[2], type); return scalar_kind(c, t[2]); }
    if (op == SOpTypeMatrix) return 0;
    if (op == SOpTypeFloat) return 0;
    if (op == SOpTypeInt) return t[3] ? 1 : 2;
    if (op == SOpTypeBool) return 3;
    BAD("spirv: type %u is not numeric", type);
    return 0;
}

static int is_matrix(ctx *c, uint32_t type) { return opof(c, type) == SOpTypeMatrix; }

/* shape of a value type: components per column and columns */
static void shape_of(ctx *c, uint32_t type, uint32_t *ncomp, uint32_t *ncols)
{
    if (is_matrix(c, type)) {
        const uint32_t *t = ins(c, type);
        if (wc_of(t) < 4) BAD("spirv: OpTypeMatrix");
        before(c, t[2], type);
        *ncomp = ncomp_of(c, t[2]);
        *ncols = t[3];
        if (*ncomp < 2 || *ncols < 2 || *ncols > 4) BAD("spirv: bad matrix type %u", type);
        return;
    }
    *ncomp = ncomp_of(c, type);
    *ncols = 1;
    if (!*ncomp) UNSUP("spirv: values of type %u (%s) are not supported", type,
                       opof(c, type) == SOpTypeStruct ? "struct" :
                       opof(c, type) == SOpTypeArray ? "array" : "composite");
}

static uint32_t const_u32(ctx *c, uint32_t id)
{
    const uint32_t *p = ins(c, id);
    uint32_t op = p[0] & 0xffff;
    if ((op != SOpConstant && op != SOpSpecConstant) || wc_of(p) < 4)
        UNSUP("spirv: index %u is not a constant", id);
    return p[3];
}

static int is_const_op(uint32_t op)
{
    return op == SOpConstant || op == SOpConstantTrue || op == SOpConstantFalse ||
           op == SOpConstantComposite || op == SOpConstantNull || op == SOpSpecConstant ||
           op == SOpSpecConstantTrue || op == SOpSpecConstantFalse ||
           op == SOpSpecConstantComposite || op == SOpUndef;
}

static member_dec *member(ctx *c, uint32_t type, uint32_t m, int create)
{
    for (size_t i = 0; i < c->nmdec; i++)
        if (c->mdec[i].type == type && c->mdec[i].member == m) return &c->mdec[i];
    if (!create) return NULL;
    if (c->nmdec == c->capmdec) {
        size_t cap = c->capmdec ? c->capmdec * 2 : 32;
        member_dec *p = realloc(c->mdec, cap * sizeof *p);
        if (!p) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: out of memory");
        c->mdec = p;
        c->capmdec = cap;
    }
    member_dec *d = &c->mdec[c->nmdec++];
    memset(d, 0, sizeof *d);
    d->type = type;
    d->member = m;
    return d;
}

/* ---------------------------------------------------------------- values */

static uint32_t new_temps(ctx *c, uint32_t n)
{
    uint32_t r = c->ntemps;
    c->ntemps += n;
    if (c->ntemps > MAX_TEMPS) UNSUP("dxbc: the shader needs more than %u temporaries", MAX_TEMPS);
    return r;
}

/* the constant value of id as an immediate (scalars and vectors) */
static int const_val(ctx *c, uint32_t id, xval *v)
{
    const uint32_t *p = ins(c, id);
    uint32_t op = p[0] & 0xffff;
    if (!is_const_op(op)) return 0;
    memset(v, 0, sizeof *v);
    v->file = F_IMM;
    v->ncols = 1;
    v->ncomp = (uint8_t)ncomp_of(c, p[1]);
    if (!v->ncomp) UNSUP("spirv: constant %u of a composite type", id);
    switch (op) {
    case SOpConstant:
    case SOpSpecConstant:
        if (wc_of(p) < 4) BAD("spirv: constant %u", id);
        v->imm[0] = p[3];
        break;
    case SOpConstantTrue:
    case SOpSpecConstantTrue: v->imm[0] = ~0u; break;
    case SOpConstantComposite:
    case SOpSpecConstantComposite: {
        uint32_t n = wc_of(p) - 3;
        if (n != v->ncomp) BAD("spirv: constant %u has %u constituents", id, n);
        for (uint32_t i = 0; i < n; i++) {
            xval e;
            before(c, p[3 + i], id);
            if (!const_val(c, p[3 + i], &e) || e.ncomp != 1) BAD("spirv: constant %u", id);
            v->imm[i] = e.imm[0];
        }
        break;
    }
    default: break; /* false, null, undef: zero */
    }
    return 1;
}

static xval get_val(ctx *c, uint32_t id)
{
    xval v;
    memset(&v, 0, sizeof v);
    if (id == 0 || id >= c->bound) BAD("spirv: id %u out of range", id);
    if (c->ids[id].has_val) return c->ids[id].val;
    if (c->ids[id].def && const_val(c, id, &v)) return v;
    BAD("spirv: id %u used before it is defined", id);
    return v;
}

/* a temp value for the result id (reused when the same code is emitted twice) */
static xval *def_temp(ctx *c, uint32_t id, uint32_t type)
{
    uint32_t ncomp, ncols;
    shape_of(c, type, &ncomp, &ncols);
    xid *x = &c->ids[id];
    if (!(x->has_val && x->val.file == F_TEMP && x->val.comp0 == 0 && x->val.ncomp == ncomp &&
          x->val.ncols == ncols && x->val.dyn == 1)) {
        memset(&x->val, 0, sizeof x->val);
        x->val.file = F_TEMP;
        x->val.ncomp = (uint8_t)ncomp;
        x->val.ncols = (uint8_t)ncols;
        x->val.reg = new_temps(c, ncols);
        x->val.dyn = 1; /* marks a temp owned by this id */
        x->has_val = 1;
    }
    return &x->val;
}

static void set_alias(ctx *c, uint32_t id, xval v)
{
    if (v.file == F_TEMP) v.dyn = 0;
    c->ids[id].val = v;
    c->ids[id].has_val = 1;
}

/* ---------------------------------------------------------------- operands */

static uint32_t swz_of(const xval *v, const uint8_t l[4])
{
    uint32_t s = 0;
    for (int i = 0; i < 4; i++) {
        uint32_t comp = v->comp0 + (l[i] < v->ncomp ? l[i] : v->ncomp - 1u);
        if (comp > 3) comp = 3;
        s |= comp << (2 * i);
    }
    return s;
}

static void op_dst(ctx *c, int type, uint32_t reg, uint32_t mask)
{
    if (type == OT_NULL) { wput(c, (uint32_t)OT_NULL << 12); return; }
    if (type == OT_DEPTH) { wput(c, 1u | (uint32_t)OT_DEPTH << 12); return; }
    wput(c, 2u | (mask << 4) | (uint32_t)type << 12 | 1u << 20);
    wput(c, reg);
}

static void op_dst_x(ctx *c, uint32_t x, uint32_t elem, uint32_t dyn, uint32_t mask)
{
    wput(c, 2u | (mask << 4) | (uint32_t)OT_X << 12 | 2u << 20 | (dyn ? 3u : 0u) << 25);
    wput(c, x);
    wput(c, elem);
    if (dyn) { wput(c, 2u | 2u << 2 | (uint32_t)OT_TEMP << 12 | 1u << 20); wput(c, dyn - 1); }
}

static void modtok(ctx *c, int mod)
{
    wput(c, 1u | (uint32_t)(mod & 3) << 6);
}

/* source: value v, column col, logical components l[0..3] */
static void op_src(ctx *c, const xval *v, uint32_t col, const uint8_t l[4], int mod)
{
    uint32_t ext = mod ? 1u << 31 : 0;
    switch (v->file) {
    case F_IMM: {
        wput(c, 2u | (uint32_t)OT_IMM << 12);
        for (int i = 0; i < 4; i++) {
            uint32_t x = v->imm[(l[i] < v->ncomp ? l[i] : v->ncomp - 1u) + v->comp0 > 3
                                    ? 3 : (l[i] < v->ncomp ? l[i] : v->ncomp - 1u) + v->comp0];
            if (mod == MOD_INEG) x = 0u - x;
            else if (mod & MOD_ABS) x &= 0x7fffffffu;
            if (mod == MOD_NEG || mod == (MOD_NEG | MOD_ABS)) x ^= 0x80000000u;
            wput(c, x);
        }
        return;
    }
    case F_TEMP:
    case F_INPUT:
        wput(c, 2u | 1u << 2 | swz_of(v, l) << 4 |
                    (uint32_t)(v->file == F_TEMP ? OT_TEMP : OT_INPUT) << 12 | 1u << 20 | ext);
        if (mod) modtok(c, mod);
        wput(c, v->reg + col);
        return;
    case F_CB:
        wput(c, 2u | 1u << 2 | swz_of(v, l) << 4 | (uint32_t)OT_CB << 12 | 2u << 20 |
                    (v->dyn ? 3u : 0u) << 25 | ext);
        if (mod) modtok(c, mod);
        wput(c, v->slot);
        wput(c, v->reg + col);
        if (v->dyn) { wput(c, 2u | 2u << 2 | (uint32_t)OT_TEMP << 12 | 1u << 20); wput(c, v->dyn - 1); }
        return;
    default: BAD("spirv: value used as an operand is not a number");
    }
}

static const uint8_t X4[4] = { 0, 0, 0, 0 };

static void lsel(uint8_t l[4], uint32_t comp)
{
    for (int i = 0; i < 4; i++) l[i] = (uint8_t)comp;
}

/* scalar source (one component, select-1 form) for if/breakc/switch/discard */
static void op_src1(ctx *c, const xval *v, uint32_t comp)
{
    if (v->file == F_IMM) {
        wput(c, 1u | (uint32_t)OT_IMM << 12);
        wput(c, v->imm[v->comp0 + comp]);
        return;
    }
    uint32_t phys = v->comp0 + comp;
    if (v->file == F_TEMP || v->file == F_INPUT) {
        wput(c, 2u | 2u << 2 | phys << 4 | (uint32_t)(v->file == F_TEMP ? OT_TEMP : OT_INPUT) << 12 | 1u << 20);
        wput(c, v->reg);
        return;
    }
    if (v->file == F_CB) {
        wput(c, 2u | 2u << 2 | phys << 4 | (uint32_t)OT_CB << 12 | 2u << 20 | (v->dyn ? 3u : 0u) << 25);
        wput(c, v->slot);
        wput(c, v->reg);
        if (v->dyn) { wput(c, 2u | 2u << 2 | (uint32_t)OT_TEMP << 12 | 1u << 20); wput(c, v->dyn - 1); }
        return;
    }
    BAD("spirv: condition is not a number");
}

static uint32_t mask_n(uint32_t n) { return (1u << n) - 1u; }

/* dst.mask = op(a, b, c) over n components (sources broadcast when scalar: bsc) */
typedef struct srcspec {
    const xval *v;
    uint32_t col;
    uint8_t l[4];
    int mod;
} srcspec;

static srcspec S(const xval *v, uint32_t col, int mod)
{
    srcspec s = { v, col, { 0, 1, 2, 3 }, mod };
    if (v->ncomp == 1) memset(s.l, 0, 4);
    return s;
}

static srcspec SC(const xval *v, uint32_t col, uint32_t comp, int mod)
{
    srcspec s = { v, col, { 0, 0, 0, 0 }, mod };
    lsel(s.l, comp);
    return s;
}

static void emit(ctx *c, uint32_t op, uint32_t ctl, int dtype, uint32_t dreg, uint32_t dmask,
                 int nsrc, const srcspec *src)
{
    size_t at = ins_begin(c, op, ctl);
    op_dst(c, dtype, dreg, dmask);
    /* A mov's lanes outside the write mask repeat the first written lane's component: vkd3d
       1.2 turns a mov whose source swizzle is the identity into a copy of the whole register,
       ignoring a partial write mask (mov r4.y, r2.xyzw would overwrite r4.xzw). Only mov:
       dot products read every lane whatever their write mask. */
    uint32_t first = 0;
    while (first < 4 && !(dmask & (1u << first))) first++;
    for (int i = 0; i < nsrc; i++) {
        uint8_t l[4] = { src[i].l[0], src[i].l[1], src[i].l[2], src[i].l[3] };
        if (op == DMOV && first < 4 && (dmask & 0xf) != 0xf && dtype != OT_NULL && dtype != OT_DEPTH)
            for (int k = 0; k < 4; k++)
                if (!(dmask & (1u << k))) l[k] = l[first];
        op_src(c, src[i].v, src[i].col, l, src[i].mod);
    }
    ins_end(c, at);
}

static void emit1(ctx *c, uint32_t op, uint32_t dreg, uint32_t dmask, srcspec a)
{
    emit(c, op, 0, OT_TEMP, dreg, dmask, 1, &a);
}
static void emit2(ctx *c, uint32_t op, uint32_t dreg, uint32_t dmask, srcspec a, srcspec b)
{
    srcspec s[2] = { a, b };
    emit(c, op, 0, OT_TEMP, dreg, dmask, 2, s);
}
static void emit3(ctx *c, uint32_t op, uint32_t dreg, uint32_t dmask, srcspec a, srcspec b,
                  srcspec d)
{
    srcspec s[3] = { a, b, d };
    emit(c, op, 0, OT_TEMP, dreg, dmask, 3, s);
}

static xval temp_val(uint32_t reg, uint32_t ncomp)
{
    xval v;
    memset(&v, 0, sizeof v);
    v.file = F_TEMP;
    v.reg = reg;
    v.ncomp = (uint8_t)ncomp;
    v.ncols = 1;
    return v;
}

static xval imm_val(uint32_t a, uint32_t b, uint32_t d, uint32_t e, uint32_t n)
{
    xval v;
    memset(&v, 0, sizeof v);
    v.file = F_IMM;
    v.imm[0] = a;
    v.imm[1] = b;
    v.imm[2] = d;
    v.imm[3] = e;
    v.ncomp = (uint8_t)n;
    v.ncols = 1;
    return v;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static xval immf(float f) { uint32_t u = fbits(f); return imm_val(u, u, u, u, 1); }

/* copy value v (all columns) into temps at reg */
static void copy_to(ctx *c, uint32_t reg, const xval *v)
{
    for (uint32_t col = 0; col < v->ncols; col++)
        emit1(c, DMOV, reg + col, mask_n(v->ncomp), S(v, col, 0));
}

/* ---------------------------------------------------------------- module scan */

static const char *cap_name(uint32_t cap)
{
    static const char *const names[] = {
        "Matrix", "Shader", "Geometry", "Tessellation", "Addresses", "Linkage", "Kernel",
        "Vector16", "Float16Buffer", "Float16", "Float64", "Int64", "Int64Atomics", "ImageBasic",
        "ImageReadWrite", "ImageMipmap", "", "Pipes", "Groups", "DeviceEnqueue", "LiteralSampler",
        "AtomicStorage", "Int16", "TessellationPointSize", "GeometryPointSize",
        "ImageGatherExtended", "", "StorageImageMultisample", "UniformBufferArrayDynamicIndexing",
        "SampledImageArrayDynamicIndexing", "StorageBufferArrayDynamicIndexing",
        "StorageImageArrayDynamicIndexing", "ClipDistance", "CullDistance", "ImageCubeArray",
        "SampleRateShading", "ImageRect", "SampledRect", "GenericPointer", "Int8",
        "InputAttachment", "SparseResidency", "MinLod", "Sampled1D", "Image1D",
        "SampledCubeArray", "SampledBuffer", "ImageBuffer", "ImageMSArray",
        "StorageImageExtendedFormats", "ImageQuery", "DerivativeControl",
        "InterpolationFunction", "TransformFeedback", "GeometryStreams",
        "StorageImageReadWithoutFormat", "StorageImageWriteWithoutFormat", "MultiViewport",
    };
    return cap < sizeof names / sizeof *names && names[cap][0] ? names[cap] : "(unnamed)";
}

/* names of the opcodes a shader may plausibly use that the translator leaves out */
static const char *op_name(uint32_t op)
{
    switch (op) {
    case 57: return "OpFunctionCall";
    case 60: return "OpImageTexelPointer";
    case 63: return "OpCopyMemory";
    case 64: return "OpCopyMemorySized";
    case 77: return "OpVectorExtractDynamic";
    case 78: return "OpVectorInsertDynamic";
    case 91: return "OpImageSampleProjImplicitLod";
    case 92: return "OpImageSampleProjExplicitLod";
    case 93: return "OpImageSampleProjDrefImplicitLod";
    case 94: return "OpImageSampleProjDrefExplicitLod";
    case 95: return "OpImageFetch";
    case 96: return "OpImageGather";
    case 97: return "OpImageDrefGather";
    case 98: return "OpImageRead";
    case 99: return "OpImageWrite";
    case 103: return "OpImageQuerySizeLod";
    case 104: return "OpImageQuerySize";
    case 105: return "OpImageQueryLod";
    case 106: return "OpImageQueryLevels";
    case 107: return "OpImageQuerySamples";
    case 113: return "OpUConvert";
    case 114: return "OpSConvert";
    case 115: return "OpFConvert";
    case 116: return "OpQuantizeToF16";
    case 135: return "OpSDiv";
    case 138: return "OpSRem";
    case 139: return "OpSMod";
    case 147: return "OpOuterProduct";
    case 149: return "OpIAddCarry";
    case 150: return "OpISubBorrow";
    case 151: return "OpUMulExtended";
    case 152: return "OpSMulExtended";
    case 158: return "OpIsFinite";
    case 159: return "OpIsNormal";
    case 160: return "OpSignBitSet";
    case 201: return "OpBitFieldInsert";
    case 202: return "OpBitFieldSExtract";
    case 203: return "OpBitFieldUExtract";
    case 204: return "OpBitReverse";
    case 205: return "OpBitCount";
    case 218: return "OpEmitVertex";
    case 224: return "OpControlBarrier";
    case 225: return "OpMemoryBarrier";
    default: return (op >= 227 && op <= 242) ? "an atomic operation" : "";
    }
}

static void scan(ctx *c)
{
    const uint32_t *w = c->w;
    if (c->nw < 5 || w[0] != 0x07230203u) BAD("spirv: not a SPIR-V module (magic)");
    if (w[1] > 0x00010600u || w[1] < 0x00010000u) UNSUP("spirv: version %u.%u", (w[1] >> 16) & 0xff, (w[1] >> 8) & 0xff);
    c->bound = w[3];
    if (c->bound == 0 || c->bound > MAX_BOUND || c->bound > 4 * c->nw + 64)
        BAD("spirv: id bound %u is out of range", c->bound);
    c->ids = xalloc(c, c->bound, sizeof *c->ids);
    c->vars = xalloc(c, c->bound, sizeof *c->vars);
    for (uint32_t i = 0; i < c->bound; i++) {
        c->ids[i].location = c->ids[i].builtin = c->ids[i].set = c->ids[i].binding = NONE;
        c->ids[i].array_stride = 0;
    }
    int in_fn = 0;
    size_t entries = 0;
    for (size_t i = 5; i < c->nw;) {
        uint32_t op = w[i] & 0xffff, wc = w[i] >> 16;
        if (wc == 0 || i + wc > c->nw) BAD("spirv: instruction at word %zu is truncated", i);
        const uint32_t *p = w + i;
        uint32_t rid = 0, rtype = 0;
        switch (op) {
        case SOpCapability:
            if (wc < 2) BAD("spirv: OpCapability");
            /* Shader, Matrix, and capabilities that only enable declarations handled below */
            /* Matrix, Shader, Sampled1D, SampledCubeArray, ImageQuery, DerivativeControl (fine and coarse
               derivatives become Direct3D's, whose granularity the driver picks) */
            if (p[1] != 0 && p[1] != 1 && p[1] != 43 && p[1] != 45 && p[1] != 50 && p[1] != 51)
                UNSUP("spirv: capability %u (%s)", p[1], cap_name(p[1]));
            break;
        case SOpExtInstImport: {
            if (wc < 3) BAD("spirv: OpExtInstImport");
            const char *name = (const char *)(p + 2);
            size_t maxlen = (wc - 2) * 4;
            if (!memchr(name, 0, maxlen)) BAD("spirv: unterminated string");
            if (strcmp(name, "GLSL.std.450") != 0) UNSUP("spirv: extended instruction set %s", name);
            rid = p[1];
            c->glsl_ext = p[1];
            break;
        }
        case SOpExtension: {
            /* the name may be unterminated: print at most what its words hold */
            const char *name = wc > 1 ? (const char *)(p + 1) : "";
            size_t room = wc > 1 ? (size_t)(wc - 1) * 4 : 0;
            const char *end = room ? memchr(name, 0, room) : NULL;
            size_t len = end ? (size_t)(end - name) : room;
            UNSUP("spirv: extension %.*s", (int)(len < 64 ? len : 64), name);
            break;
        }
        case SOpMemoryModel:
            if (wc < 3) BAD("spirv: OpMemoryModel");
            if (p[1] != 0) UNSUP("spirv: addressing model %u (only Logical)", p[1]);
            break;
        case SOpEntryPoint:
            if (wc < 4) BAD("spirv: OpEntryPoint");
            if (++entries > 1) UNSUP("spirv: more than one entry point");
            if (p[1] != SModelVertex && p[1] != SModelFragment && p[1] != SModelGLCompute)
                UNSUP("spirv: execution model %u (only Vertex, Fragment and GLCompute)", p[1]);
            c->model = p[1];
            c->entry = p[2];
            break;
        case SOpExecutionMode:
            if (wc < 3) BAD("spirv: OpExecutionMode");
            /* OriginUpperLeft (7) is Direct3D's; DepthReplacing (12), EarlyFragmentTests (9),
               DepthGreater/Less/Unchanged (14-16) need nothing; LocalSize (17) is a compute
               shader's thread group */
            if (p[2] == 17) {
                if (wc < 6) BAD("spirv: OpExecutionMode LocalSize");
                /* Direct3D's limits: x, y <= 1024, z <= 64, at most 1024 threads */
                if (p[3] == 0 || p[4] == 0 || p[5] == 0 || p[3] > 1024 || p[4] > 1024 ||
                    p[5] > 64 || (uint64_t)p[3] * p[4] * p[5] > 1024)
                    UNSUP("spirv: LocalSize %u x %u x %u (Direct3D: at most 1024 threads, z <= 64)",
                          p[3], p[4], p[5]);
                memcpy(c->local_size, p + 3, sizeof c->local_size);
            } else if (p[2] != 7 && p[2] != 12 && p[2] != 9 && !(p[2] >= 14 && p[2] <= 16))
                UNSUP("spirv: execution mode %u", p[2]);
            break;
        case SOpDecorate:
            if (wc < 3) BAD("spirv: OpDecorate");
            if (p[1] >= c->bound) BAD("spirv: decorated id %u is out of the bound %u", p[1], c->bound);
            {
                xid *x = &c->ids[p[1]];
                uint32_t arg = wc > 3 ? p[3] : 0;
                switch (p[2]) {
                case SDecLocation: x->location = arg; break;
                case SDecBuiltIn: x->builtin = arg; break;
                case SDecDescriptorSet: x->set = arg; break;
                case SDecBinding: x->binding = arg; break;
                case SDecArrayStride: x->array_stride = arg; break;
                case SDecBlock: x->block = 1; break;
                case SDecBufferBlock: x->buffer_block = 1; break;
                case SDecFlat: x->flat = 1; break;
                case SDecNoPerspective: x->noperspective = 1; break;
                case SDecCentroid: x->centroid = 1; break;
                case SDecSample: x->sample = 1; break;
                default: break;
                }
            }
            break;
        case SOpMemberDecorate:
            if (wc < 4) BAD("spirv: OpMemberDecorate");
            if (p[1] >= c->bound) BAD("spirv: decorated id %u is out of the bound %u", p[1], c->bound);
            if (p[3] == SDecOffset || p[3] == SDecMatrixStride || p[3] == SDecRowMajor ||
                p[3] == SDecColMajor) {
                member_dec *d = member(c, p[1], p[2], 1);
                if (p[3] == SDecOffset && wc > 4) { d->offset = p[4]; d->has_offset = 1; }
                if (p[3] == SDecMatrixStride && wc > 4) d->mstride = p[4];
                if (p[3] == SDecRowMajor) d->rowmajor = 1;
            }
            break;
        case SOpTypeVoid: case SOpTypeBool: case SOpTypeInt: case SOpTypeFloat:
        case SOpTypeVector: case SOpTypeMatrix: case SOpTypeImage: case SOpTypeSampler:
        case SOpTypeSampledImage: case SOpTypeArray: case SOpTypeRuntimeArray:
        case SOpTypeStruct: case SOpTypePointer: case SOpTypeFunction: case SOpLabel:
        case SOpDecorate + 2 /* OpDecorationGroup */:
            if (wc < 2) BAD("spirv: instruction %u", op);
            rid = p[1];
            break;
        case SOpFunction:
            if (wc < 5) BAD("spirv: OpFunction");
            rid = p[2];
            rtype = p[1];
            if (in_fn) BAD("spirv: nested OpFunction");
            in_fn = 1;
            if (p[2] == c->entry) c->fn_begin = i;
            break;
        case SOpFunctionEnd:
            if (!in_fn) BAD("spirv: OpFunctionEnd outside a function");
            in_fn = 0;
            if (c->fn_begin && !c->fn_end) c->fn_end = i;
            break;
        case SOpFunctionCall:
            UNSUP("spirv: OpFunctionCall (inline every function into the entry point, e.g. "
                  "spirv-opt --inline-entry-points-exhaustive)");
            break;
        case SOpFunctionParameter:
            UNSUP("spirv: OpFunctionParameter (functions other than the entry point)");
            break;
        case SOpName: case SOpMemberName: case SOpString: case SOpLine: case SOpNoLine:
        case SOpSource: case SOpSourceContinued: case SOpSourceExtension: case SOpNop:
        case SOpModuleProcessed: case SOpStore: case SOpSelectionMerge: case SOpLoopMerge:
        case SOpBranch: case SOpBranchConditional: case SOpSwitch: case SOpKill:
        case SOpReturn: case SOpReturnValue: case SOpUnreachable: case SOpImageWrite:
        case SOpControlBarrier: case SOpMemoryBarrier:
            break;
        default:
            /* every other instruction we accept has a result type and id */
            if (wc < 3) BAD("spirv: instruction %u is too short", op);
            rtype = p[1];
            rid = p[2];
            break;
        }
        if (rid) {
            if (rid >= c->bound) BAD("spirv: id %u is out of the bound %u", rid, c->bound);
            if (c->ids[rid].def) BAD("spirv: id %u is defined twice", rid);
            c->ids[rid].def = (uint32_t)i;
            c->ids[rid].op = (uint16_t)op;
            c->ids[rid].type = rtype;
            if (op == SOpVariable) c->vars[c->nvars++] = rid;
        }
        i += wc;
    }
    if (in_fn) BAD("spirv: function without OpFunctionEnd");
    if (!entries) BAD("spirv: no entry point");
    if (!c->fn_begin || !c->fn_end) BAD("spirv: the entry point has no function body");
    if (c->model == SModelGLCompute && !c->local_size[0])
        BAD("spirv: a compute shader without LocalSize");
    /* types referenced by id must be types */
    for (uint32_t id = 1; id < c->bound; id++) {
        xid *x = &c->ids[id];
        if (!x->def || !x->type) continue;
        if (x->type >= c->bound || !c->ids[x->type].def) BAD("spirv: id %u has an undefined type", id);
    }
}

/* ---------------------------------------------------------------- layouts */

static uint32_t type_size(ctx *c, uint32_t type, uint32_t depth);

static uint32_t member_count(ctx *c, uint32_t st) { return wc_of(ins(c, st)) - 2; }

static uint32_t type_size(ctx *c, uint32_t type, uint32_t depth)
{
    if (depth > 16) UNSUP("spirv: types nested too deeply");
    const uint32_t *t = ins(c, type);
    switch (t[0] & 0xffff) {
    case SOpTypeBool: case SOpTypeInt: case SOpTypeFloat: return 4;
    case SOpTypeVector: return 4 * t[3];
    case SOpTypeMatrix: return 64; /* bounded by 4 columns/rows of 16 bytes */
    case SOpTypeArray: {
        uint32_t n = const_u32(c, t[3]);
        uint32_t stride = c->ids[type].array_stride;
        if (!stride) BAD("spirv: uniform array type %u has no ArrayStride", type);
        if (n > 65536 || stride > 65536) UNSUP("spirv: uniform array too large");
        return n * stride;
    }
    case SOpTypeStruct: {
        uint32_t size = 0, n = member_count(c, type);
        for (uint32_t m = 0; m < n; m++) {
            member_dec *d = member(c, type, m, 0);
            if (!d || !d->has_offset) BAD("spirv: member %u of block type %u has no Offset", m, type);
            before(c, t[2 + m], type);
            uint32_t ms = type_size(c, t[2 + m], depth + 1);
            uint32_t mt = t[2 + m];
            if (is_matrix(c, mt)) {
                uint32_t nc, ncol;
                shape_of(c, mt, &nc, &ncol);
                ms = (d->rowmajor ? nc : ncol) * (d->mstride ? d->mstride : 16);
            }
            if (d->offset > (1u << 20) || d->offset + ms > size) size = d->offset + ms;
            if (size > (1u << 20)) UNSUP("spirv: uniform block too large");
        }
        return size;
    }
    default: UNSUP("spirv: type %u in a uniform block", type);
    }
    return 0;
}

/* ---------------------------------------------------------------- variables and interface */

/* how many scalars or vectors an array type holds, arrays of arrays flattened (1 for a scalar
   or vector; more than `max` is NOT_SUPPORTED); *elem gets the innermost element type */
static uint32_t array_elems(ctx *c, uint32_t type, uint32_t max, uint32_t *elem)
{
    uint32_t n = 1;
    while (opof(c, type) == SOpTypeArray) {
        const uint32_t *at = ins(c, type);
        if (wc_of(at) < 4) BAD("spirv: OpTypeArray");
        before(c, at[2], type); /* no self-reference: the loop ends */
        uint32_t len = const_u32(c, at[3]);
        if (len == 0) BAD("spirv: array type %u of no elements", type);
        if (len > max / n) UNSUP("spirv: array type %u of more than %u elements", type, max);
        n *= len;
        type = at[2];
    }
    if (elem) *elem = type;
    return n;
}

static const xgdi_d3d12_dxbc_binding *find_binding(ctx *c, uint32_t var, xgdi_d3d12_dxbc_kind kind)
{
    xid *x = &c->ids[var];
    for (size_t i = 0; i < c->nbindings; i++)
        if (c->bindings[i].set == x->set && c->bindings[i].binding == x->binding &&
            (c->bindings[i].kind == XGDI_D3D12_DXBC_ANY || c->bindings[i].kind == kind))
            return &c->bindings[i];
    return NULL;
}

static uint32_t pointee(ctx *c, uint32_t ptr_type, uint32_t *storage)
{
    const uint32_t *t = ins(c, ptr_type);
    if ((t[0] & 0xffff) != SOpTypePointer || wc_of(t) < 4) BAD("spirv: type %u is not a pointer", ptr_type);
    if (storage) *storage = t[2];
    before(c, t[3], ptr_type);
    return t[3];
}

typedef struct iface {
    sig_elem in[40], out[40];
    uint32_t nin, nout;
} iface;

static void sig_add(ctx *c, sig_elem *e, uint32_t *n, sig_elem v)
{
    if (*n >= 40) UNSUP("dxbc: more than 40 stage interface variables");
    e[(*n)++] = v;
}

static uint32_t ctype_of(ctx *c, uint32_t type)
{
    int k = scalar_kind(c, type);
    return k == 0 ? 3 : k == 1 ? 2 : 1;
}

static void assign_interface(ctx *c, iface *io)
{
    uint32_t max_in_loc = 0, have_in_loc = 0;
    for (size_t i = 0; i < c->nvars; i++) {
        xid *x = &c->ids[c->vars[i]];
        uint32_t storage, t = pointee(c, x->type, &storage);
        if (storage == SStorageInput && x->location != NONE) {
            if (x->location > 30) UNSUP("spirv: input location %u (at most 30)", x->location);
            if (x->location + 1 > max_in_loc) max_in_loc = x->location + 1;
            have_in_loc = 1;
        }
        (void)t;
    }
    uint32_t next_in = c->model == 0 ? max_in_loc : max_in_loc + 1;
    (void)have_in_loc;
    for (size_t i = 0; i < c->nvars; i++) {
        uint32_t id = c->vars[i];
        xid *x = &c->ids[id];
        uint32_t storage, t = pointee(c, x->type, &storage);
        const uint32_t *vi = ins(c, id);
        if (storage == SStorageFunction || storage == SStoragePrivate) {
            if (opof(c, t) == SOpTypeArray) {
                const uint32_t *at = ins(c, t);
                uint32_t n = const_u32(c, at[3]);
                if (!ncomp_of(c, at[2])) UNSUP("spirv: arrays of composites in variables");
                if (n == 0 || n > 4096) UNSUP("spirv: array variable of %u elements", n);
                x->vkind = V_X;
                x->vreg = c->nx++;
                x->vcount = n;
                uint32_t *p = realloc(c->xsizes, c->nx * sizeof *p);
                if (!p) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: out of memory");
                c->xsizes = p;
                c->xsizes[x->vreg] = n;
            } else {
                uint32_t nc, ncol;
                shape_of(c, t, &nc, &ncol);
                x->vkind = V_TEMP;
                x->vreg = new_temps(c, ncol);
            }
            (void)vi;
            continue;
        }
        if (c->model == SModelGLCompute && (storage == SStorageInput || storage == SStorageOutput)) {
            /* a compute shader's inputs are its ids (no signature); it has no outputs */
            if (storage == SStorageOutput) BAD("spirv: an output variable in a compute shader");
            x->vkind = V_SYSIN;
            x->vcount = 3;
            switch (x->builtin) {
            case SBuiltInGlobalInvocationId: x->vreg = OT_THREAD_ID; break;
            case SBuiltInWorkgroupId: x->vreg = OT_THREAD_GROUP_ID; break;
            case SBuiltInLocalInvocationId: x->vreg = OT_THREAD_ID_IN_GROUP; break;
            case SBuiltInLocalInvocationIndex: x->vreg = OT_THREAD_ID_IN_GROUP_FLATTENED; x->vcount = 1; break;
            default: UNSUP("spirv: compute shader input %u (BuiltIn %u)", id, x->builtin);
            }
            if (ncomp_of(c, t) != x->vcount || scalar_kind(c, t) == 0)
                BAD("spirv: compute shader input %u of the wrong type", id);
            continue;
        }
        if (storage == SStorageWorkgroup) {
            /* g#: a structured array of 32-bit scalars or vectors (one element for a variable
               that is not an array; an array of arrays flattened, its last index fastest) */
            if (c->model != SModelGLCompute) BAD("spirv: workgroup variable %u outside a compute shader", id);
            uint32_t elem, n = array_elems(c, t, 32768 / 4, &elem);
            uint32_t nc = ncomp_of(c, elem);
            if (!nc) UNSUP("spirv: workgroup variable %u (only scalars, vectors and arrays of them)", id);
            if (n == 0 || (uint64_t)n * nc * 4 > 32768 - c->tgsm_bytes)
                UNSUP("spirv: workgroup memory past Direct3D's 32 KB");
            x->vkind = V_TGSM;
            x->vreg = c->ntgsm++;
            x->vcount = n;
            c->tgsm_bytes += n * nc * 4;
            continue;
        }
        if (storage == SStorageInput || storage == SStorageOutput) {
            uint32_t nc, ncol;
            if (opof(c, t) == SOpTypeArray) UNSUP("spirv: arrays in the stage interface");
            shape_of(c, t, &nc, &ncol);
            if (ncol != 1) UNSUP("spirv: matrices in the stage interface");
            sig_elem e = { "TEXCOORD", x->location, SV_NONE, ctype_of(c, t), 0, mask_n(nc), 0 };
            if (storage == SStorageInput) {
                x->vkind = V_INPUT;
                if (x->builtin != NONE) {
                    /* two variables of one builtin: the first's register, signature element
                       and declaration serve both (a register is declared once) */
                    const xid *first = NULL;
                    for (size_t j = 0; j < i && !first; j++) {
                        const xid *y = &c->ids[c->vars[j]];
                        if (y->vkind == V_INPUT && !y->repeat && y->builtin == x->builtin) first = y;
                    }
                    if (first) {
                        x->vreg = first->vreg;
                        x->repeat = 1;
                        continue;
                    }
                    switch (x->builtin) {
                    case SBuiltInFragCoord: e.name = "SV_Position"; e.sv = SV_POSITION; e.reg = 0; e.index = 0; break;
                    case SBuiltInFrontFacing: e.name = "SV_IsFrontFace"; e.sv = SV_IS_FRONT_FACE; e.index = 0; e.ctype = 1; e.reg = next_in++; break;
                    case SBuiltInVertexIndex: e.name = "SV_VertexID"; e.sv = SV_VERTEX_ID; e.index = 0; e.ctype = 1; e.reg = next_in++; break;
                    case SBuiltInInstanceIndex: e.name = "SV_InstanceID"; e.sv = SV_INSTANCE_ID; e.index = 0; e.ctype = 1; e.reg = next_in++; break;
                    default: UNSUP("spirv: input BuiltIn %u", x->builtin);
                    }
                    if ((x->builtin == SBuiltInFragCoord || x->builtin == SBuiltInFrontFacing) != (c->model == 4))
                        BAD("spirv: input BuiltIn %u in the wrong stage", x->builtin);
                } else {
                    if (x->location == NONE) BAD("spirv: input %u has no Location", id);
                    e.reg = c->model == 0 ? x->location : x->location + 1;
                    if (c->model == 0 && ((c->int_in_u | c->int_in_s) >> x->location & 1u))
                        e.ctype = (c->int_in_u >> x->location & 1u) ? 1 : 2;
                }
                e.rw = e.mask;
                x->vreg = e.reg;
                sig_add(c, io->in, &io->nin, e);
            } else {
                x->vkind = V_OUTPUT;
                x->vreg = new_temps(c, 1); /* shadow */
                if (x->builtin != NONE) {
                    switch (x->builtin) {
                    case SBuiltInPosition: e.name = "SV_Position"; e.sv = SV_POSITION; e.index = 0; e.reg = 0; break;
                    case SBuiltInFragDepth: e.name = "SV_Depth"; e.sv = SV_NONE; e.index = 0; e.reg = NONE; c->depth_out = 1; break;
                    case SBuiltInPointSize: x->oreg = NONE; continue; /* Direct3D has no point size */
                    default: UNSUP("spirv: output BuiltIn %u", x->builtin);
                    }
                    if ((x->builtin == SBuiltInPosition) != (c->model == 0))
                        BAD("spirv: output BuiltIn %u in the wrong stage", x->builtin);
                } else {
                    if (x->location == NONE) BAD("spirv: output %u has no Location", id);
                    if (x->location > 30) UNSUP("spirv: output location %u (at most 30)", x->location);
                    if (c->model == 4) {
                        if (x->location > 7) UNSUP("spirv: render target %u (at most 7)", x->location);
                        e.name = "SV_Target";
                        e.reg = x->location;
                    } else {
                        e.reg = x->location + 1;
                    }
                }
                e.rw = (~e.mask) & 0xf;
                x->oreg = e.reg;
                sig_add(c, io->out, &io->nout, e);
            }
            continue;
        }
        if (storage == SStorageUniform || storage == SStoragePushConstant) {
            if (x->buffer_block || c->ids[t].buffer_block) UNSUP("spirv: storage buffers");
            if (opof(c, t) != SOpTypeStruct || !c->ids[t].block)
                UNSUP("spirv: uniform variable %u that is not a Block", id);
            const xgdi_d3d12_dxbc_binding *b = find_binding(c, id, XGDI_D3D12_DXBC_CBUFFER);
            /* push constants have no set or binding: only a map entry places them */
            if (storage == SStoragePushConstant && !b)
                UNSUP("spirv: push constants without a binding map entry (set and binding %u)", NONE);
            x->vkind = V_CB;
            x->vreg = b ? b->reg : x->binding;
            if (x->vreg > 13) UNSUP("dxbc: cbuffer register b%u (at most b13)", x->vreg);
            uint32_t size = type_size(c, t, 0);
            x->vcount = (size + 15) / 16;
            if (x->vcount > MAX_CB_REGS) UNSUP("dxbc: uniform block of %u registers", x->vcount);
            if (!x->vcount) x->vcount = 1;
            continue;
        }
        if (storage == SStorageUniformConstant) {
            uint32_t top = opof(c, t);
            if (top == SOpTypeImage && wc_of(ins(c, t)) >= 9 && ins(c, t)[7] == 2) {
                /* a storage image: u# (compute shaders only) */
                if (c->model != SModelGLCompute) UNSUP("spirv: storage images outside compute shaders");
                const xgdi_d3d12_dxbc_binding *b = find_binding(c, id, XGDI_D3D12_DXBC_UAV);
                if (x->binding == NONE && !b) BAD("spirv: resource %u has no Binding", id);
                x->vkind = V_UAV;
                x->vreg = b ? b->reg : x->binding;
                x->oreg = NONE;
                if (x->vreg >= 64) UNSUP("dxbc: storage image register u%u out of range", x->vreg);
                continue;
            }
            const xgdi_d3d12_dxbc_binding *b =
                find_binding(c, id, top == SOpTypeSampler ? XGDI_D3D12_DXBC_SAMPLER : XGDI_D3D12_DXBC_TEXTURE);
            x->vreg = b ? b->reg : x->binding;
            x->oreg = b ? b->sampler_reg : x->binding;
            if (top == SOpTypeSampledImage) x->vkind = V_SAMPLED;
            else if (top == SOpTypeImage) x->vkind = V_IMAGE;
            else if (top == SOpTypeSampler) x->vkind = V_SAMPLER;
            else UNSUP("spirv: uniform constant of type %u (arrays of resources)", t);
            if (x->binding == NONE && !b) BAD("spirv: resource %u has no Binding", id);
            if (x->vkind == V_SAMPLER) { x->oreg = x->vreg; x->vreg = NONE; }
            if (x->vkind == V_IMAGE) x->oreg = NONE;
            if ((x->vreg != NONE && x->vreg >= 128) || (x->oreg != NONE && x->oreg >= 16))
                UNSUP("dxbc: resource register t%u / s%u out of range", x->vreg, x->oreg);
            continue;
        }
        UNSUP("spirv: storage class %u", storage);
    }
}

/* ---------------------------------------------------------------- pointers, loads, stores */

static xptr get_ptr(ctx *c, uint32_t id)
{
    if (id == 0 || id >= c->bound) BAD("spirv: pointer id %u out of range", id);
    xid *x = &c->ids[id];
    if (x->has_ptr) return x->ptr;
    if (x->def && x->op == SOpVariable) {
        xptr p;
        memset(&p, 0, sizeof p);
        p.var = id;
        p.type = pointee(c, x->type, NULL);
        p.comp = NONE;
        return p;
    }
    BAD("spirv: id %u is not a pointer", id);
    return x->ptr;
}

/* dynamic offset: t.x = idx * scale + (previous dynamic offset or 0) */
static uint32_t dyn_add(ctx *c, uint32_t prev, uint32_t idx_id, uint32_t scale)
{
    xval idx = get_val(c, idx_id);
    if (idx.ncomp != 1) BAD("spirv: index %u is not a scalar", idx_id);
    uint32_t t = new_temps(c, 1);
    xval pv = prev ? temp_val(prev - 1, 1) : imm_val(0, 0, 0, 0, 1);
    xval sv = imm_val(scale, scale, scale, scale, 1);
    emit3(c, DIMAD, t, 1, S(&idx, 0, 0), S(&sv, 0, 0), S(&pv, 0, 0));
    return t + 1;
}

static void access_chain(ctx *c, const uint32_t *p)
{
    uint32_t id = p[2];
    xptr ptr = get_ptr(c, p[3]);
    xid *root = &c->ids[ptr.var];
    for (uint32_t i = 4; i < wc_of(p); i++) {
        uint32_t idx = p[i];
        const uint32_t *t = ins(c, ptr.type);
        uint32_t top = t[0] & 0xffff;
        int is_const = is_const_op(opof(c, idx));
        if (ptr.comp != NONE) BAD("spirv: access chain indexes a scalar");
        if (root->vkind == V_CB) {
            if (top == SOpTypeStruct) {
                uint32_t m = const_u32(c, idx);
                if (m >= member_count(c, ptr.type)) BAD("spirv: member %u out of range", m);
                member_dec *d = member(c, ptr.type, m, 0);
                if (!d || !d->has_offset) BAD("spirv: block member %u has no Offset", m);
                ptr.off += d->offset;
                ptr.mstride = d->mstride ? d->mstride : 16;
                ptr.rowmajor = d->rowmajor;
                ptr.type = t[2 + m];
            } else if (top == SOpTypeArray) {
                uint32_t stride = c->ids[ptr.type].array_stride;
                if (!stride) BAD("spirv: array type %u has no ArrayStride", ptr.type);
                if (is_const) ptr.off += const_u32(c, idx) * stride;
                else {
                    if (stride % 16) UNSUP("spirv: dynamic index into a uniform array of stride %u (not a multiple of 16)", stride);
                    ptr.dyn = dyn_add(c, ptr.dyn, idx, stride / 16);
                }
                ptr.type = t[2];
            } else if (top == SOpTypeMatrix) {
                uint32_t col = const_u32(c, idx);
                if (ptr.rowmajor) { ptr.off += col * 4; ptr.column = 1; }
                else ptr.off += col * ptr.mstride;
                ptr.type = t[2];
            } else if (top == SOpTypeVector) {
                uint32_t k = const_u32(c, idx);
                if (k >= t[3]) BAD("spirv: component %u out of range", k);
                ptr.off += k * (ptr.column ? ptr.mstride : 4);
                ptr.column = 0;
                ptr.type = t[2];
            } else BAD("spirv: access chain into a scalar");
            continue;
        }
        if (top == SOpTypeArray && (root->vkind == V_X || root->vkind == V_TGSM)) {
            /* an index into an array of arrays steps over the flattened elements of a row */
            uint32_t scale = array_elems(c, t[2], 32768 / 4, NULL);
            if (is_const) {
                uint32_t k = const_u32(c, idx);
                if (k >= const_u32(c, t[3])) BAD("spirv: array index %u out of range", k);
                ptr.off += k * scale;
            } else ptr.dyn = dyn_add(c, ptr.dyn, idx, scale);
            ptr.type = t[2];
        } else if (top == SOpTypeMatrix && root->vkind == V_TEMP) {
            if (!is_const) UNSUP("spirv: dynamic matrix column index");
            uint32_t col = const_u32(c, idx);
            if (col >= t[3]) BAD("spirv: column %u out of range", col);
            ptr.off += col;
            ptr.type = t[2];
        } else if (top == SOpTypeVector) {
            if (!is_const) UNSUP("spirv: dynamic vector component index");
            uint32_t k = const_u32(c, idx);
            if (k >= t[3]) BAD("spirv: component %u out of range", k);
            ptr.comp = k;
            ptr.type = t[2];
        } else {
            UNSUP("spirv: access chain through type %u in storage of variable %u", ptr.type, ptr.var);
        }
    }
    if (root->vkind == V_TGSM && ptr.dyn && ptr.off) {
        /* a constant part of a workgroup element's index beside the dynamic one: added here,
           between instructions, so that tgsm_address writes operands alone (ld_structured /
           store_structured take one index): a dynamic row and a constant column of an array
           of arrays (Tile[i][3]), or a constant row and a dynamic column (Tile[7][i]) */
        uint32_t t = new_temps(c, 1);
        xval dv = temp_val(ptr.dyn - 1, 1), ov = imm_val(ptr.off, ptr.off, ptr.off, ptr.off, 1);
        emit2(c, DIADD, t, 1, S(&dv, 0, 0), S(&ov, 0, 0));
        ptr.dyn = t + 1;
        ptr.off = 0;
    }
    c->ids[id].ptr = ptr;
    c->ids[id].has_ptr = 1;
}

/* the element index and byte offset operands of ld_structured / store_structured at ptr (a
   workgroup variable's element, or a component of it); operands only, inside the caller's
   instruction (access_chain folded any constant part into the dynamic index) */
static void tgsm_address(ctx *c, const xptr *ptr)
{
    const xid *root = &c->ids[ptr->var];
    if (!ptr->dyn) {
        if (ptr->off >= root->vcount) BAD("spirv: workgroup array index out of range");
        wput(c, 1u | (uint32_t)OT_IMM << 12);
        wput(c, ptr->off);
    } else {
        if (ptr->off) BAD("spirv: workgroup element index not folded");
        wput(c, 2u | 2u << 2 | (uint32_t)OT_TEMP << 12 | 1u << 20);
        wput(c, ptr->dyn - 1);
    }
    wput(c, 1u | (uint32_t)OT_IMM << 12);
    wput(c, ptr->comp != NONE ? ptr->comp * 4 : 0);
}

static void load(ctx *c, uint32_t rtype, uint32_t id, uint32_t ptr_id)
{
    xptr ptr = get_ptr(c, ptr_id);
    xid *root = &c->ids[ptr.var];
    switch (root->vkind) {
    case V_CB: {
        uint32_t nc, ncol;
        shape_of(c, rtype, &nc, &ncol);
        if (ncol == 1 && !ptr.column && (ptr.off % 16) / 4 + nc <= 4 && ptr.off % 4 == 0) {
            xval v;
            memset(&v, 0, sizeof v);
            v.file = F_CB;
            v.slot = root->vreg;
            v.reg = ptr.off / 16;
            v.comp0 = (uint8_t)((ptr.off % 16) / 4);
            v.ncomp = (uint8_t)nc;
            v.ncols = 1;
            v.dyn = ptr.dyn;
            if (v.reg + 1 > root->vcount) BAD("spirv: uniform load past the block");
            set_alias(c, id, v);
            return;
        }
        /* gather a matrix or strided column element by element */
        xval *d = def_temp(c, id, rtype);
        uint32_t dreg = d->reg;
        for (uint32_t col = 0; col < ncol; col++)
            for (uint32_t r = 0; r < nc; r++) {
                uint32_t off;
                if (ncol > 1) off = ptr.off + (ptr.rowmajor ? r * ptr.mstride + col * 4 : col * ptr.mstride + r * 4);
                else off = ptr.off + r * (ptr.column ? ptr.mstride : 4);
                if (off % 4) BAD("spirv: misaligned uniform");
                xval s;
                memset(&s, 0, sizeof s);
                s.file = F_CB;
                s.slot = root->vreg;
                s.reg = off / 16;
                s.comp0 = (uint8_t)((off % 16) / 4);
                s.ncomp = 1;
                s.ncols = 1;
                s.dyn = ptr.dyn;
                if (s.reg + 1 > root->vcount) BAD("spirv: uniform load past the block");
                emit1(c, DMOV, dreg + col, 1u << r, SC(&s, 0, 0, 0));
            }
        return;
    }
    case V_INPUT: {
        xval v;
        memset(&v, 0, sizeof v);
        v.file = F_INPUT;
        v.reg = root->vreg;
        v.ncols = 1;
        if (ptr.comp != NONE) { v.comp0 = (uint8_t)ptr.comp; v.ncomp = 1; }
        else v.ncomp = (uint8_t)ncomp_of(c, rtype);
        /* an input fed an integer format holds integers: converted to the float the shader
           reads (Direct3D 9 reads Byte4 and Short2/4 elements as float values) */
        uint32_t loc = root->location;
        if (c->model == 0 && loc < 32 && ((c->int_in_u | c->int_in_s) >> loc & 1u)) {
            xval *d = def_temp(c, id, rtype);
            emit1(c, (c->int_in_u >> loc & 1u) ? DUTOF : DITOF, d->reg, mask_n(v.ncomp), S(&v, 0, 0));
            return;
        }
        set_alias(c, id, v);
        return;
    }
    case V_TEMP:
    case V_OUTPUT: {
        xval *d = def_temp(c, id, rtype);
        uint32_t nc, ncol;
        shape_of(c, rtype, &nc, &ncol);
        xval s = temp_val(root->vreg + ptr.off, 4);
        if (ptr.comp != NONE) emit1(c, DMOV, d->reg, 1, SC(&s, 0, ptr.comp, 0));
        else {
            s.ncomp = (uint8_t)nc;
            for (uint32_t col = 0; col < ncol; col++) emit1(c, DMOV, d->reg + col, mask_n(nc), S(&s, col, 0));
        }
        return;
    }
    case V_X: {
        xval *d = def_temp(c, id, rtype);
        uint32_t nc = ncomp_of(c, rtype);
        if (!nc) UNSUP("spirv: load of a whole array");
        if (ptr.off >= root->vcount && !ptr.dyn) BAD("spirv: array index out of range");
        size_t at = ins_begin(c, DMOV, 0);
        op_dst(c, OT_TEMP, d->reg, mask_n(nc));
        uint32_t sw = 0;
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t k = ptr.comp != NONE ? ptr.comp : (i < nc ? i : nc - 1);
            sw |= k << (2 * i);
        }
        wput(c, 2u | 1u << 2 | sw << 4 | (uint32_t)OT_X << 12 | 2u << 20 | (ptr.dyn ? 3u : 0u) << 25);
        wput(c, root->vreg);
        wput(c, ptr.off);
        if (ptr.dyn) { wput(c, 2u | 2u << 2 | (uint32_t)OT_TEMP << 12 | 1u << 20); wput(c, ptr.dyn - 1); }
        ins_end(c, at);
        return;
    }
    case V_SYSIN: {
        /* mov r.mask, vThread*: a thread id is read once into a temp */
        xval *d = def_temp(c, id, rtype);
        uint32_t nc = ncomp_of(c, rtype);
        if (!nc || (ptr.comp == NONE && nc != root->vcount)) BAD("spirv: load of compute input %u", ptr.var);
        size_t at = ins_begin(c, DMOV, 0);
        op_dst(c, OT_TEMP, d->reg, mask_n(nc));
        if (root->vcount == 1) {
            /* vThreadIDInGroupFlattened.x: a four-component operand selecting x, as fxc
               writes every read of it (its declaration has no components) */
            wput(c, 2u | 2u << 2 | root->vreg << 12);
        } else {
            uint32_t sw = 0;
            for (uint32_t i = 0; i < 4; i++) {
                uint32_t k = ptr.comp != NONE ? ptr.comp : (i < nc ? i : nc - 1);
                sw |= k << (2 * i);
            }
            wput(c, 2u | 1u << 2 | sw << 4 | root->vreg << 12);
        }
        ins_end(c, at);
        return;
    }
    case V_TGSM: {
        /* ld_structured r.mask, index, byte offset, g#.xyzw */
        xval *d = def_temp(c, id, rtype);
        uint32_t nc = ncomp_of(c, rtype);
        if (!nc) UNSUP("spirv: load of a whole workgroup array");
        size_t at = ins_begin(c, DLD_STRUCTURED, 0);
        op_dst(c, OT_TEMP, d->reg, mask_n(nc));
        tgsm_address(c, &ptr);
        wput(c, 2u | 1u << 2 | 0xe4u << 4 | (uint32_t)OT_TGSM << 12 | 1u << 20);
        wput(c, root->vreg);
        ins_end(c, at);
        return;
    }
    case V_UAV:
    case V_IMAGE:
    case V_SAMPLER:
    case V_SAMPLED: {
        xval v;
        memset(&v, 0, sizeof v);
        v.file = F_DESC;
        v.tex = root->vkind == V_SAMPLER ? NONE : root->vreg;
        v.smp = root->vkind == V_IMAGE || root->vkind == V_UAV ? NONE : root->oreg;
        uint32_t t = pointee(c, root->type, NULL);
        v.image_type = opof(c, t) == SOpTypeSampledImage ? ins(c, t)[2] : t;
        set_alias(c, id, v);
        return;
    }
    default: BAD("spirv: load from variable %u", ptr.var);
    }
}

/* a whole array of an indexable temp from a constant (an initializer table) */
static int store_array(ctx *c, const xptr *ptr, uint32_t val_id)
{
    const uint32_t *p = ins(c, val_id);
    uint32_t op = p[0] & 0xffff;
    if (opof(c, p[1]) != SOpTypeArray) return 0;
    xid *root = &c->ids[ptr->var];
    if (root->vkind != V_X || ptr->dyn || ptr->comp != NONE) UNSUP("spirv: store of a whole array");
    uint32_t n = op == SOpConstantComposite || op == SOpCompositeConstruct ? wc_of(p) - 3 : 0;
    if (op != SOpConstantComposite && op != SOpCompositeConstruct && op != SOpConstantNull)
        UNSUP("spirv: store of an array value made by opcode %u", op);
    uint32_t count = op == SOpConstantNull ? root->vcount - ptr->off : n;
    if (ptr->off + count > root->vcount) BAD("spirv: array store out of range");
    for (uint32_t i = 0; i < count; i++) {
        xval v = op == SOpConstantNull ? imm_val(0, 0, 0, 0, 4) : get_val(c, p[3 + i]);
        if (v.ncols != 1) UNSUP("spirv: arrays of matrices");
        size_t at = ins_begin(c, DMOV, 0);
        op_dst_x(c, root->vreg, ptr->off + i, 0, mask_n(v.ncomp));
        srcspec s = S(&v, 0, 0);
        op_src(c, s.v, 0, s.l, 0);
        ins_end(c, at);
    }
    return 1;
}

static void store(ctx *c, uint32_t ptr_id, uint32_t val_id)
{
    xptr ptr = get_ptr(c, ptr_id);
    xid *root = &c->ids[ptr.var];
    if (store_array(c, &ptr, val_id)) return;
    xval v = get_val(c, val_id);
    if (root->vkind == V_TEMP || root->vkind == V_OUTPUT) {
        if (root->vkind == V_OUTPUT && root->oreg == NONE) return; /* PointSize */
        if (ptr.comp != NONE) emit1(c, DMOV, root->vreg + ptr.off, 1u << ptr.comp, SC(&v, 0, 0, 0));
        else copy_to(c, root->vreg + ptr.off, &v);
        return;
    }
    if (root->vkind == V_X) {
        if (v.ncols != 1) UNSUP("spirv: store of a matrix into an array");
        if (ptr.off >= root->vcount && !ptr.dyn) BAD("spirv: array index out of range");
        size_t at = ins_begin(c, DMOV, 0);
        uint32_t mask = ptr.comp != NONE ? 1u << ptr.comp : mask_n(v.ncomp);
        op_dst_x(c, root->vreg, ptr.off, ptr.dyn, mask);
        srcspec s = S(&v, 0, 0);
        if (ptr.comp != NONE) lsel(s.l, 0);
        op_src(c, s.v, 0, s.l, 0);
        ins_end(c, at);
        return;
    }
    if (root->vkind == V_TGSM) {
        /* store_structured g#.mask, index, byte offset, value */
        if (v.ncols != 1) UNSUP("spirv: store of a matrix into workgroup memory");
        uint32_t n = ptr.comp != NONE ? 1 : v.ncomp;
        size_t at = ins_begin(c, DSTORE_STRUCTURED, 0);
        wput(c, 2u | mask_n(n) << 4 | (uint32_t)OT_TGSM << 12 | 1u << 20);
        wput(c, root->vreg);
        tgsm_address(c, &ptr);
        srcspec sp = S(&v, 0, 0);
        op_src(c, sp.v, 0, sp.l, 0);
        ins_end(c, at);
        return;
    }
    UNSUP("spirv: store into variable %u of storage kind %u", ptr.var, root->vkind);
}

/* ---------------------------------------------------------------- arithmetic */

static void alu(ctx *c, uint32_t dop, const uint32_t *p, int nsrc, const int *mods, int swap)
{
    xval *d = def_temp(c, p[2], p[1]);
    xval a[3];
    srcspec s[3];
    for (int i = 0; i < nsrc; i++) a[i] = get_val(c, p[3 + i]);
    for (int i = 0; i < nsrc; i++) {
        int k = swap && nsrc == 2 ? 1 - i : i;
        s[i] = S(&a[k], 0, mods ? mods[i] : 0);
    }
    emit(c, dop, 0, OT_TEMP, d->reg, mask_n(d->ncomp), nsrc, s);
}

static void glsl(ctx *c, const uint32_t *p)
{
    uint32_t inst = p[4], rtype = p[1], id = p[2];
    uint32_t nargs = wc_of(p) - 5;
    xval a[3];
    for (uint32_t i = 0; i < nargs && i < 3; i++) a[i] = get_val(c, p[5 + i]);
    xval one = immf(1.0f), zero = immf(0.0f);
#define NEED(n) do { if (nargs != (n)) BAD("spirv: GLSL.std.450 %u takes %u operands", inst, (n)); } while (0)
    if (inst == 66 || inst == 67) { /* Length, Distance: scalar result */
        NEED(inst == 66 ? 1u : 2u);
        xval *d = def_temp(c, id, rtype);
        xval v = a[0];
        if (inst == 67) {
            uint32_t t = new_temps(c, 1);
            emit2(c, DADD, t, mask_n(a[0].ncomp), S(&a[0], 0, 0), S(&a[1], 0, MOD_NEG));
            v = temp_val(t, a[0].ncomp);
        }
        if (v.ncomp == 1) { emit1(c, DMOV, d->reg, 1, S(&v, 0, MOD_ABS)); return; }
        emit2(c, v.ncomp == 2 ? DDP2 : v.ncomp == 3 ? DDP3 : DDP4, d->reg, 1, S(&v, 0, 0), S(&v, 0, 0));
        emit1(c, DSQRT, d->reg, 1, SC(d, 0, 0, 0));
        return;
    }
    xval *d = def_temp(c, id, rtype);
    uint32_t m = mask_n(d->ncomp), n = d->ncomp;
    uint32_t dp = n == 2 ? DDP2 : n == 3 ? DDP3 : DDP4;
    switch (inst) {
    case 1: case 2: NEED(1); emit1(c, DROUND_NE, d->reg, m, S(&a[0], 0, 0)); return;
    case 3: NEED(1); emit1(c, DROUND_Z, d->reg, m, S(&a[0], 0, 0)); return;
    case 4: NEED(1); emit1(c, DMOV, d->reg, m, S(&a[0], 0, MOD_ABS)); return;
    case 5: { NEED(1); /* SAbs: max(x, -x) */
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, n);
        emit1(c, DINEG, t, m, S(&a[0], 0, 0));
        emit2(c, DIMAX, d->reg, m, S(&a[0], 0, 0), S(&tv, 0, 0));
        return;
    }
    case 6: { NEED(1); /* FSign: (0 < x) - (x < 0) as floats */
        uint32_t t = new_temps(c, 2);
        xval t0 = temp_val(t, n), t1 = temp_val(t + 1, n);
        emit2(c, DLT, t, m, S(&zero, 0, 0), S(&a[0], 0, 0));
        emit2(c, DLT, t + 1, m, S(&a[0], 0, 0), S(&zero, 0, 0));
        emit2(c, DAND, t, m, S(&t0, 0, 0), S(&one, 0, 0));
        emit2(c, DAND, t + 1, m, S(&t1, 0, 0), S(&one, 0, 0));
        emit2(c, DADD, d->reg, m, S(&t0, 0, 0), S(&t1, 0, MOD_NEG));
        return;
    }
    case 8: NEED(1); emit1(c, DROUND_NI, d->reg, m, S(&a[0], 0, 0)); return;
    case 9: NEED(1); emit1(c, DROUND_PI, d->reg, m, S(&a[0], 0, 0)); return;
    case 10: NEED(1); emit1(c, DFRC, d->reg, m, S(&a[0], 0, 0)); return;
    case 11: { NEED(1); xval k = immf(0.017453292519943295f); emit2(c, DMUL, d->reg, m, S(&a[0], 0, 0), S(&k, 0, 0)); return; }
    case 12: { NEED(1); xval k = immf(57.29577951308232f); emit2(c, DMUL, d->reg, m, S(&a[0], 0, 0), S(&k, 0, 0)); return; }
    case 13: case 14: { NEED(1);
        size_t at = ins_begin(c, DSINCOS, 0);
        if (inst == 13) { op_dst(c, OT_TEMP, d->reg, m); op_dst(c, OT_NULL, 0, 0); }
        else { op_dst(c, OT_NULL, 0, 0); op_dst(c, OT_TEMP, d->reg, m); }
        op_src(c, &a[0], 0, S(&a[0], 0, 0).l, 0);
        ins_end(c, at);
        return;
    }
    case 15: { NEED(1);
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, n);
        size_t at = ins_begin(c, DSINCOS, 0);
        op_dst(c, OT_TEMP, d->reg, m);
        op_dst(c, OT_TEMP, t, m);
        op_src(c, &a[0], 0, S(&a[0], 0, 0).l, 0);
        ins_end(c, at);
        emit2(c, DDIV, d->reg, m, S(d, 0, 0), S(&tv, 0, 0));
        return;
    }
    case 26: { NEED(2); /* pow(x, y) = exp2(y * log2(x)), as Direct3D's compilers do */
        emit1(c, DLOG, d->reg, m, S(&a[0], 0, 0));
        emit2(c, DMUL, d->reg, m, S(d, 0, 0), S(&a[1], 0, 0));
        emit1(c, DEXP, d->reg, m, S(d, 0, 0));
        return;
    }
    case 27: { NEED(1); xval k = immf(1.4426950408889634f);
        emit2(c, DMUL, d->reg, m, S(&a[0], 0, 0), S(&k, 0, 0));
        emit1(c, DEXP, d->reg, m, S(d, 0, 0));
        return;
    }
    case 28: { NEED(1); xval k = immf(0.6931471805599453f);
        emit1(c, DLOG, d->reg, m, S(&a[0], 0, 0));
        emit2(c, DMUL, d->reg, m, S(d, 0, 0), S(&k, 0, 0));
        return;
    }
    case 29: NEED(1); emit1(c, DEXP, d->reg, m, S(&a[0], 0, 0)); return;
    case 30: NEED(1); emit1(c, DLOG, d->reg, m, S(&a[0], 0, 0)); return;
    case 31: NEED(1); emit1(c, DSQRT, d->reg, m, S(&a[0], 0, 0)); return;
    case 32: NEED(1); emit1(c, DRSQ, d->reg, m, S(&a[0], 0, 0)); return;
    case 37: case 79: NEED(2); emit2(c, DMIN, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 38: NEED(2); emit2(c, DUMIN, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 39: NEED(2); emit2(c, DIMIN, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 40: case 80: NEED(2); emit2(c, DMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 41: NEED(2); emit2(c, DUMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 42: NEED(2); emit2(c, DIMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0)); return;
    case 43: case 81: { NEED(3);
        /* clamp(x, 0, 1) is saturate */
        int sat = a[1].file == F_IMM && a[2].file == F_IMM;
        for (uint32_t i = 0; sat && i < a[1].ncomp; i++)
            sat = a[1].imm[i] == 0 && a[2].imm[i] == fbits(1.0f);
        if (sat) {
            srcspec s = S(&a[0], 0, 0);
            emit(c, DMOV, SATURATE, OT_TEMP, d->reg, m, 1, &s);
            return;
        }
        emit2(c, DMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0));
        emit2(c, DMIN, d->reg, m, S(d, 0, 0), S(&a[2], 0, 0));
        return;
    }
    case 44: NEED(3);
        emit2(c, DUMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0));
        emit2(c, DUMIN, d->reg, m, S(d, 0, 0), S(&a[2], 0, 0));
        return;
    case 45: NEED(3);
        emit2(c, DIMAX, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0));
        emit2(c, DIMIN, d->reg, m, S(d, 0, 0), S(&a[2], 0, 0));
        return;
    case 46: { NEED(3); /* mix(x, y, a) = x + (y - x) * a */
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, n);
        emit2(c, DADD, t, m, S(&a[1], 0, 0), S(&a[0], 0, MOD_NEG));
        emit3(c, DMAD, d->reg, m, S(&tv, 0, 0), S(&a[2], 0, 0), S(&a[0], 0, 0));
        return;
    }
    case 48: /* step(edge, x) = x >= edge ? 1 : 0 */
        NEED(2);
        emit2(c, DGE, d->reg, m, S(&a[1], 0, 0), S(&a[0], 0, 0));
        emit2(c, DAND, d->reg, m, S(d, 0, 0), S(&one, 0, 0));
        return;
    case 49: { NEED(3); /* t = saturate((x - e0) / (e1 - e0)); t * t * (3 - 2t) */
        uint32_t t = new_temps(c, 2);
        xval t0 = temp_val(t, n), t1 = temp_val(t + 1, n);
        xval m2 = immf(-2.0f), three = immf(3.0f);
        emit2(c, DADD, t, m, S(&a[2], 0, 0), S(&a[0], 0, MOD_NEG));
        emit2(c, DADD, t + 1, m, S(&a[1], 0, 0), S(&a[0], 0, MOD_NEG));
        srcspec s[2] = { S(&t0, 0, 0), S(&t1, 0, 0) };
        emit(c, DDIV, SATURATE, OT_TEMP, t, m, 2, s);
        emit3(c, DMAD, t + 1, m, S(&t0, 0, 0), S(&m2, 0, 0), S(&three, 0, 0));
        emit2(c, DMUL, t, m, S(&t0, 0, 0), S(&t0, 0, 0));
        emit2(c, DMUL, d->reg, m, S(&t0, 0, 0), S(&t1, 0, 0));
        return;
    }
    case 50: NEED(3); emit3(c, DMAD, d->reg, m, S(&a[0], 0, 0), S(&a[1], 0, 0), S(&a[2], 0, 0)); return;
    case 68: { NEED(2); /* cross(a, b) = a.yzx * b.zxy - a.zxy * b.yzx */
        if (n != 3) BAD("spirv: Cross of %u components", n);
        srcspec ayzx = S(&a[0], 0, 0), bzxy = S(&a[1], 0, 0), azxy = S(&a[0], 0, 0), byzx = S(&a[1], 0, 0);
        const uint8_t yzx[4] = { 1, 2, 0, 0 }, zxy[4] = { 2, 0, 1, 1 };
        memcpy(ayzx.l, yzx, 4); memcpy(bzxy.l, zxy, 4); memcpy(azxy.l, zxy, 4); memcpy(byzx.l, yzx, 4);
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, 3);
        emit2(c, DMUL, t, 7, azxy, byzx);
        srcspec neg = S(&tv, 0, MOD_NEG);
        emit3(c, DMAD, d->reg, 7, ayzx, bzxy, neg);
        return;
    }
    case 69: { NEED(1);
        if (n == 1) { /* normalize of a scalar is its sign */
            uint32_t t = new_temps(c, 1);
            xval tv = temp_val(t, 1);
            emit1(c, DMOV, t, 1, S(&a[0], 0, MOD_ABS));
            emit2(c, DDIV, d->reg, 1, S(&a[0], 0, 0), S(&tv, 0, 0));
            return;
        }
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, 1);
        emit2(c, dp, t, 1, S(&a[0], 0, 0), S(&a[0], 0, 0));
        emit1(c, DRSQ, t, 1, S(&tv, 0, 0));
        emit2(c, DMUL, d->reg, m, S(&a[0], 0, 0), SC(&tv, 0, 0, 0));
        return;
    }
    case 71: { NEED(2); /* reflect(I, N) = I - 2 * dot(N, I) * N */
        uint32_t t = new_temps(c, 1);
        xval tv = temp_val(t, 1);
        xval m2 = immf(-2.0f);
        if (n == 1) emit2(c, DMUL, t, 1, S(&a[0], 0, 0), S(&a[1], 0, 0));
        else emit2(c, dp, t, 1, S(&a[1], 0, 0), S(&a[0], 0, 0));
        emit2(c, DMUL, t, 1, S(&tv, 0, 0), S(&m2, 0, 0));
        emit3(c, DMAD, d->reg, m, SC(&tv, 0, 0, 0), S(&a[1], 0, 0), S(&a[0], 0, 0));
        return;
    }
    default: break;
    }
#undef NEED
    static const char *const names[] = {
        [16] = "Asin", [17] = "Acos", [18] = "Atan", [19] = "Sinh", [20] = "Cosh", [21] = "Tanh",
        [22] = "Asinh", [23] = "Acosh", [24] = "Atanh", [25] = "Atan2", [33] = "Determinant",
        [34] = "MatrixInverse", [35] = "Modf", [36] = "ModfStruct", [47] = "IMix",
        [51] = "Frexp", [52] = "FrexpStruct", [53] = "Ldexp", [70] = "FaceForward",
        [72] = "Refract", [76] = "InterpolateAtCentroid", [77] = "InterpolateAtSample",
        [78] = "InterpolateAtOffset",
    };
    const char *name = inst < sizeof names / sizeof *names && names[inst] ? names[inst] : "";
    UNSUP("spirv: GLSL.std.450 instruction %u %s", inst, name);
}

static uint32_t coord_count(ctx *c, uint32_t image_type)
{
    const uint32_t *t = ins(c, image_type);
    if ((t[0] & 0xffff) != SOpTypeImage || wc_of(t) < 9) BAD("spirv: type %u is not an image", image_type);
    uint32_t n = t[3] == SDim1D ? 1 : t[3] == SDim2D ? 2 : t[3] == SDim3D || t[3] == SDimCube ? 3 : 0;
    if (!n) UNSUP("spirv: image dimension %u", t[3]);
    if (t[6]) UNSUP("spirv: multisampled images");
    return n + (t[5] ? 1 : 0);
}

static void sample(ctx *c, const uint32_t *p, uint32_t op)
{
    uint32_t wc = wc_of(p);
    /* projective forms: the coordinate (and reference) divided by its last component */
    int proj = op >= 91 && op <= 94;
    if (proj) op -= 4;
    int dref = op == SOpImageSampleDrefImplicitLod || op == SOpImageSampleDrefExplicitLod;
    int explicit_lod = op == SOpImageSampleExplicitLod || op == SOpImageSampleDrefExplicitLod;
    if (c->model != 4 && !explicit_lod) BAD("spirv: implicit-LOD sampling outside a fragment shader");
    uint32_t need = dref ? 6 : 5;
    if (wc < need) BAD("spirv: short image instruction");
    xval img = get_val(c, p[3]);
    if (img.file != F_DESC || img.tex == NONE || img.smp == NONE) BAD("spirv: sampling needs a sampled image");
    xval coord = get_val(c, p[4]);
    uint32_t ncoord = coord_count(c, img.image_type);
    /* OpImageSample* need an image of Sampled 0 or 1: a storage image's u# is no t# */
    if (ins(c, img.image_type)[7] == 2) BAD("spirv: sampling a storage image");
    xval ref;
    if (dref) ref = get_val(c, p[5]);
    if (proj) {
        if (coord.ncomp < ncoord + 1 || ncoord > 3) BAD("spirv: projective coordinate");
        uint32_t t = new_temps(c, 2);
        uint32_t q = coord.ncomp - 1u; /* q is the coordinate's last component */
        emit2(c, DDIV, t, mask_n(ncoord), S(&coord, 0, 0), SC(&coord, 0, q, 0));
        if (dref) {
            emit2(c, DDIV, t + 1, 1, SC(&ref, 0, 0, 0), SC(&coord, 0, q, 0));
            ref = temp_val(t + 1, 1);
        }
        coord = temp_val(t, ncoord);
    }
    uint32_t mask = wc > need ? p[need] : 0, k = need + 1;
    xval bias, lod, gx, gy;
    int have_bias = 0, have_lod = 0, have_grad = 0;
    uint32_t ext = 0;
    if (mask & ~0x0fu) UNSUP("spirv: image operands 0x%x", mask);
    if (mask & 1) { if (k >= wc) BAD("spirv: image operands"); bias = get_val(c, p[k++]); have_bias = 1; }
    if (mask & 2) { if (k >= wc) BAD("spirv: image operands"); lod = get_val(c, p[k++]); have_lod = 1; }
    if (mask & 4) { if (k + 1 >= wc) BAD("spirv: image operands"); gx = get_val(c, p[k++]); gy = get_val(c, p[k++]); have_grad = 1; }
    if (mask & 8) {
        if (k >= wc) BAD("spirv: image operands");
        xval o = get_val(c, p[k++]);
        if (o.file != F_IMM) BAD("spirv: ConstOffset is not a constant");
        uint32_t u = o.imm[0] & 0xf, v = o.ncomp > 1 ? o.imm[1] & 0xf : 0, w = o.ncomp > 2 ? o.imm[2] & 0xf : 0;
        ext = 1u | u << 9 | v << 13 | w << 17;
    }
    uint32_t dop;
    if (dref) {
        if (explicit_lod) {
            if (!have_lod || lod.file != F_IMM || lod.imm[0] != 0)
                UNSUP("spirv: depth-compare sampling with a level other than 0");
            dop = DSAMPLE_C_LZ;
        } else dop = DSAMPLE_C;
        if (img.smp < 128) c->cmp_sampler[img.smp] = 1;
    } else if (have_grad) dop = DSAMPLE_D;
    else if (have_lod) dop = DSAMPLE_L;
    else if (have_bias) dop = DSAMPLE_B;
    else dop = DSAMPLE;
    if (explicit_lod && !have_lod && !have_grad) BAD("spirv: explicit-LOD sampling without a level");
    xval *d = def_temp(c, p[2], p[1]);
    size_t at = ins_begin(c, dop, ext ? 1u << 31 : 0);
    if (ext) wput(c, ext);
    op_dst(c, OT_TEMP, d->reg, mask_n(d->ncomp));
    op_src(c, &coord, 0, S(&coord, 0, 0).l, 0);
    wput(c, 2u | 1u << 2 | (dref ? 0x00u : 0xe4u) << 4 | (uint32_t)OT_RESOURCE << 12 | 1u << 20);
    wput(c, img.tex);
    wput(c, (uint32_t)OT_SAMPLER << 12 | 1u << 20);
    wput(c, img.smp);
    if (dref) op_src(c, &ref, 0, X4, 0);
    else if (have_grad) { op_src(c, &gx, 0, S(&gx, 0, 0).l, 0); op_src(c, &gy, 0, S(&gy, 0, 0).l, 0); }
    else if (have_lod) op_src(c, &lod, 0, X4, 0);
    else if (have_bias) op_src(c, &bias, 0, X4, 0);
    ins_end(c, at);
}

/* OpImageFetch: ld takes the integer texel address in .xyz and the level in .w */
static void fetch(ctx *c, const uint32_t *p)
{
    uint32_t wc = wc_of(p);
    if (wc < 5) BAD("spirv: OpImageFetch");
    xval img = get_val(c, p[3]), coord = get_val(c, p[4]);
    if (img.file != F_DESC || img.tex == NONE) BAD("spirv: OpImageFetch needs an image");
    uint32_t n = coord_count(c, img.image_type);
    if (ins(c, img.image_type)[7] == 2) UNSUP("spirv: OpImageFetch of a storage image");
    if (coord.ncomp < n || n > 3) BAD("spirv: OpImageFetch coordinate");
    xval lod = imm_val(0, 0, 0, 0, 1);
    uint32_t mask = wc > 5 ? p[5] : 0;
    if (mask & ~2u) UNSUP("spirv: OpImageFetch operands 0x%x", mask);
    if (mask & 2) { if (wc < 7) BAD("spirv: OpImageFetch operands"); lod = get_val(c, p[6]); }
    uint32_t a = new_temps(c, 1);
    emit1(c, DMOV, a, mask_n(n), S(&coord, 0, 0));
    emit1(c, DMOV, a, 8, SC(&lod, 0, 0, 0));
    xval av = temp_val(a, 4);
    xval *d = def_temp(c, p[2], p[1]);
    size_t at = ins_begin(c, DLD, 0);
    op_dst(c, OT_TEMP, d->reg, mask_n(d->ncomp));
    op_src(c, &av, 0, S(&av, 0, 0).l, 0);
    wput(c, 2u | 1u << 2 | 0xe4u << 4 | (uint32_t)OT_RESOURCE << 12 | 1u << 20);
    wput(c, img.tex);
    ins_end(c, at);
}

/* OpImageQuerySizeLod / OpImageQueryLevels: resinfo_uint gives width, height, depth or
   array size, and the level count in .w */
static void query(ctx *c, const uint32_t *p, uint32_t op)
{
    uint32_t wc = wc_of(p);
    if (wc < (op == SOpImageQuerySizeLod ? 5u : 4u)) BAD("spirv: image query");
    xval img = get_val(c, p[3]);
    if (img.file != F_DESC || img.tex == NONE) BAD("spirv: image query needs an image");
    coord_count(c, img.image_type);
    /* OpImageQuerySizeLod and OpImageQueryLevels need an image of Sampled 1: resinfo here
       reads a t#, and a storage image is a u# */
    if (ins(c, img.image_type)[7] == 2) BAD("spirv: level query of a storage image");
    xval lod = op == SOpImageQuerySizeLod ? get_val(c, p[4]) : imm_val(0, 0, 0, 0, 1);
    xval *d = def_temp(c, p[2], p[1]);
    size_t at = ins_begin(c, DRESINFO, 2u << 11); /* uint results */
    op_dst(c, OT_TEMP, d->reg, mask_n(d->ncomp));
    op_src(c, &lod, 0, X4, 0);
    uint32_t sw = op == SOpImageQuerySizeLod ? 0xe4u : 0xffu; /* xyzw, or wwww for levels */
    wput(c, 2u | 1u << 2 | sw << 4 | (uint32_t)OT_RESOURCE << 12 | 1u << 20);
    wput(c, img.tex);
    ins_end(c, at);
}

static void compare(ctx *c, const uint32_t *p, uint32_t dop, int swap, int mod)
{
    int mods[2] = { mod, mod };
    alu(c, dop, p, 2, mods, swap);
}

static void simple(ctx *c, uint32_t op, uint32_t ctl);

static void body_ins(ctx *c, const uint32_t *p)
{
    uint32_t op = p[0] & 0xffff, wc = wc_of(p);
    switch (op) {
    case SOpNop: case SOpLine: case SOpNoLine: case SOpName: return;
    case SOpVariable: {
        uint32_t id = p[2];
        if (wc > 4) {
            xid *x = &c->ids[id];
            xptr whole = get_ptr(c, id);
            if (store_array(c, &whole, p[4])) return;
            xval init = get_val(c, p[4]);
            if (x->vkind == V_TEMP) copy_to(c, x->vreg, &init);
            else UNSUP("spirv: initializer of variable %u", id);
        }
        return;
    }
    case SOpLoad: if (wc < 4) BAD("spirv: OpLoad"); load(c, p[1], p[2], p[3]); return;
    case SOpStore: if (wc < 3) BAD("spirv: OpStore"); store(c, p[1], p[2]); return;
    case SOpAccessChain: case SOpInBoundsAccessChain:
        if (wc < 4) BAD("spirv: OpAccessChain");
        access_chain(c, p);
        return;
    case SOpCopyObject: case SOpBitcast: {
        if (wc < 4) BAD("spirv: instruction %u", op);
        xid *src = &c->ids[p[3] < c->bound ? p[3] : 0];
        if (src->has_ptr) { c->ids[p[2]].ptr = src->ptr; c->ids[p[2]].has_ptr = 1; return; }
        xval v = get_val(c, p[3]);
        set_alias(c, p[2], v);
        return;
    }
    case SOpUndef: return;
    case SOpSampledImage: {
        if (wc < 5) BAD("spirv: OpSampledImage");
        xval img = get_val(c, p[3]), smp = get_val(c, p[4]);
        if (img.file != F_DESC || smp.file != F_DESC || img.tex == NONE || smp.smp == NONE)
            BAD("spirv: OpSampledImage operands");
        img.smp = smp.smp;
        set_alias(c, p[2], img);
        return;
    }
    case SOpImage: {
        if (wc < 4) BAD("spirv: OpImage");
        xval img = get_val(c, p[3]);
        if (img.file != F_DESC) BAD("spirv: OpImage operand");
        img.smp = NONE;
        set_alias(c, p[2], img);
        return;
    }
    case SOpImageSampleImplicitLod: case SOpImageSampleExplicitLod:
    case SOpImageSampleDrefImplicitLod: case SOpImageSampleDrefExplicitLod:
    case 91: case 92: case 93: case 94: /* the projective forms */
        sample(c, p, op);
        return;
    case SOpImageFetch: fetch(c, p); return;
    case SOpImageWrite: {
        /* store_uav_typed u#.xyzw, coordinate, texel */
        if (wc < 4) BAD("spirv: OpImageWrite");
        if (wc > 4 && p[4] != 0) UNSUP("spirv: OpImageWrite operands 0x%x", p[4]);
        xval img = get_val(c, p[1]), coord = get_val(c, p[2]), texel = get_val(c, p[3]);
        if (img.file != F_DESC || img.tex == NONE || img.smp != NONE)
            BAD("spirv: OpImageWrite needs a storage image");
        coord_count(c, img.image_type); /* an image type of 9 words or more */
        if (ins(c, img.image_type)[7] != 2) BAD("spirv: OpImageWrite needs a storage image");
        if (coord.ncomp < coord_count(c, img.image_type) || coord.ncols != 1 || texel.ncols != 1)
            BAD("spirv: OpImageWrite operands");
        size_t at = ins_begin(c, DSTORE_UAV_TYPED, 0);
        wput(c, 2u | 0xfu << 4 | (uint32_t)OT_UAV << 12 | 1u << 20);
        wput(c, img.tex);
        srcspec a = S(&coord, 0, 0), b = S(&texel, 0, 0);
        op_src(c, a.v, 0, a.l, 0);
        op_src(c, b.v, 0, b.l, 0);
        ins_end(c, at);
        return;
    }
    case SOpControlBarrier: case SOpMemoryBarrier: {
        /* sync: the threads of the group wait (OpControlBarrier) and the memory the semantics
           name (WorkgroupMemory: g#; UniformMemory or ImageMemory: UAVs, of the group or
           global by the memory scope) is made visible */
        if (c->model != SModelGLCompute) UNSUP("spirv: barriers outside a compute shader");
        int control = op == SOpControlBarrier;
        if (wc < (control ? 4u : 3u)) BAD("spirv: barrier");
        uint32_t scope = const_u32(c, p[control ? 2 : 1]), sem = const_u32(c, p[control ? 3 : 2]);
        uint32_t flags = control ? SYNC_THREADS : 0;
        if (sem & 0x100u) flags |= SYNC_TGSM;
        if (sem & (0x40u | 0x800u)) flags |= scope <= 1 ? SYNC_UAV_GLOBAL : SYNC_UAV_GROUP;
        /* Direct3D has no sync of threads alone: order workgroup memory too */
        if (flags == SYNC_THREADS) flags |= SYNC_TGSM;
        if (flags) simple(c, DSYNC, flags);
        return;
    }
    case SOpImageQuerySizeLod: case SOpImageQueryLevels: query(c, p, op); return;
    case SOpExtInst:
        if (wc < 5 || p[3] != c->glsl_ext) BAD("spirv: OpExtInst");
        glsl(c, p);
        return;
    case SOpConvertFToU: if (wc < 4) break; alu(c, DFTOU, p, 1, NULL, 0); return;
    case SOpConvertFToS: if (wc < 4) break; alu(c, DFTOI, p, 1, NULL, 0); return;
    case SOpConvertSToF: if (wc < 4) break; alu(c, DITOF, p, 1, NULL, 0); return;
    case SOpConvertUToF: if (wc < 4) break; alu(c, DUTOF, p, 1, NULL, 0); return;
    case SOpSNegate: if (wc < 4) break; alu(c, DINEG, p, 1, NULL, 0); return;
    case SOpFNegate: { if (wc < 4) break; int md = MOD_NEG; alu(c, DMOV, p, 1, &md, 0); return; }
    case SOpNot: case SOpLogicalNot: if (wc < 4) break; alu(c, DNOT, p, 1, NULL, 0); return;
    case SOpIAdd: if (wc < 5) break; alu(c, DIADD, p, 2, NULL, 0); return;
    case SOpISub: { if (wc < 5) break; int md[2] = { 0, MOD_INEG }; alu(c, DIADD, p, 2, md, 0); return; }
    case SOpFAdd: if (wc < 5) break; alu(c, DADD, p, 2, NULL, 0); return;
    case SOpFSub: { if (wc < 5) break; int md[2] = { 0, MOD_NEG }; alu(c, DADD, p, 2, md, 0); return; }
    case SOpFMul: if (wc < 5) break; alu(c, DMUL, p, 2, NULL, 0); return;
    case SOpFDiv: if (wc < 5) break; alu(c, DDIV, p, 2, NULL, 0); return;
    case SOpIMul: case SOpUDiv: case SOpUMod: {
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        size_t at = ins_begin(c, op == SOpIMul ? DIMUL : DUDIV, 0);
        if (op == SOpUDiv) { op_dst(c, OT_TEMP, d->reg, mask_n(d->ncomp)); op_dst(c, OT_NULL, 0, 0); }
        else { op_dst(c, OT_NULL, 0, 0); op_dst(c, OT_TEMP, d->reg, mask_n(d->ncomp)); }
        op_src(c, &a, 0, S(&a, 0, 0).l, 0);
        op_src(c, &b, 0, S(&b, 0, 0).l, 0);
        ins_end(c, at);
        return;
    }
    case SOpSDiv: case 138 /* OpSRem */: {
        /* udiv on magnitudes; the quotient is negative when the signs differ, the remainder
           takes the dividend's sign (truncating division, as SPIR-V and HLSL define it) */
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        uint32_t m = mask_n(d->ncomp), t = new_temps(c, 4);
        xval t0 = temp_val(t, d->ncomp), t1 = temp_val(t + 1, d->ncomp), t2 = temp_val(t + 2, d->ncomp),
             t3 = temp_val(t + 3, d->ncomp), zero = imm_val(0, 0, 0, 0, 1);
        emit1(c, DINEG, t, m, S(&a, 0, 0));
        emit2(c, DIMAX, t, m, S(&a, 0, 0), S(&t0, 0, 0));
        emit1(c, DINEG, t + 1, m, S(&b, 0, 0));
        emit2(c, DIMAX, t + 1, m, S(&b, 0, 0), S(&t1, 0, 0));
        size_t at = ins_begin(c, DUDIV, 0);
        if (op == SOpSDiv) { op_dst(c, OT_TEMP, t + 3, m); op_dst(c, OT_NULL, 0, 0); }
        else { op_dst(c, OT_NULL, 0, 0); op_dst(c, OT_TEMP, t + 3, m); }
        op_src(c, &t0, 0, S(&t0, 0, 0).l, 0);
        op_src(c, &t1, 0, S(&t1, 0, 0).l, 0);
        ins_end(c, at);
        if (op == SOpSDiv) emit2(c, DXOR, t + 2, m, S(&a, 0, 0), S(&b, 0, 0));
        else emit1(c, DMOV, t + 2, m, S(&a, 0, 0));
        emit2(c, DILT, t + 2, m, S(&t2, 0, 0), S(&zero, 0, 0));
        emit1(c, DINEG, t, m, S(&t3, 0, 0));
        emit3(c, DMOVC, d->reg, m, S(&t2, 0, 0), S(&t0, 0, 0), S(&t3, 0, 0));
        return;
    }
    case SOpFMod: case SOpFRem: { /* x - y * floor(x / y) (FMod), trunc (FRem) */
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        uint32_t m = mask_n(d->ncomp), t = new_temps(c, 1);
        xval tv = temp_val(t, d->ncomp);
        emit2(c, DDIV, t, m, S(&a, 0, 0), S(&b, 0, 0));
        emit1(c, op == SOpFMod ? DROUND_NI : DROUND_Z, t, m, S(&tv, 0, 0));
        emit3(c, DMAD, d->reg, m, S(&tv, 0, 0), S(&b, 0, MOD_NEG), S(&a, 0, 0));
        return;
    }
    case SOpVectorTimesScalar: case SOpMatrixTimesScalar: {
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        for (uint32_t col = 0; col < d->ncols; col++)
            emit2(c, DMUL, d->reg + col, mask_n(d->ncomp), S(&a, col, 0), SC(&b, 0, 0, 0));
        return;
    }
    case SOpMatrixTimesVector: case SOpMatrixTimesMatrix: {
        /* M * v = sum over columns c of M[c] * v[c] */
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval mtx = get_val(c, p[3]), v = get_val(c, p[4]);
        uint32_t m = mask_n(d->ncomp);
        uint32_t outcols = op == SOpMatrixTimesMatrix ? d->ncols : 1;
        uint32_t dst = d->reg;
        int alias = v.file == F_TEMP && (v.reg >= dst && v.reg < dst + d->ncols);
        if (alias) dst = new_temps(c, outcols);
        for (uint32_t oc = 0; oc < outcols; oc++) {
            emit2(c, DMUL, dst + oc, m, S(&mtx, 0, 0), SC(&v, oc, 0, 0));
            for (uint32_t col = 1; col < mtx.ncols; col++) {
                xval acc = temp_val(dst + oc, d->ncomp);
                emit3(c, DMAD, dst + oc, m, S(&mtx, col, 0), SC(&v, oc, col, 0), S(&acc, 0, 0));
            }
        }
        if (alias)
            for (uint32_t oc = 0; oc < outcols; oc++) {
                xval s = temp_val(dst + oc, d->ncomp);
                emit1(c, DMOV, d->reg + oc, m, S(&s, 0, 0));
            }
        return;
    }
    case SOpVectorTimesMatrix: { /* v * M: component c = dot(v, M[c]) */
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval v = get_val(c, p[3]), mtx = get_val(c, p[4]);
        uint32_t dp = v.ncomp == 2 ? DDP2 : v.ncomp == 3 ? DDP3 : DDP4;
        for (uint32_t col = 0; col < mtx.ncols; col++)
            emit2(c, dp, d->reg, 1u << col, S(&v, 0, 0), S(&mtx, col, 0));
        return;
    }
    case SOpTranspose: {
        if (wc < 4) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval mtx = get_val(c, p[3]);
        for (uint32_t col = 0; col < d->ncols; col++)
            for (uint32_t r = 0; r < d->ncomp; r++)
                emit1(c, DMOV, d->reg + col, 1u << r, SC(&mtx, r, col, 0));
        return;
    }
    case SOpDot: {
        if (wc < 5) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        uint32_t dop = a.ncomp == 1 ? DMUL : a.ncomp == 2 ? DDP2 : a.ncomp == 3 ? DDP3 : DDP4;
        emit2(c, dop, d->reg, 1, S(&a, 0, 0), S(&b, 0, 0));
        return;
    }
    case SOpAny: case SOpAll: {
        if (wc < 4) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]);
        if (a.ncomp == 1) { emit1(c, DMOV, d->reg, 1, S(&a, 0, 0)); return; }
        emit2(c, op == SOpAny ? DOR : DAND, d->reg, 1, SC(&a, 0, 0, 0), SC(&a, 0, 1, 0));
        for (uint32_t i = 2; i < a.ncomp; i++)
            emit2(c, op == SOpAny ? DOR : DAND, d->reg, 1, SC(d, 0, 0, 0), SC(&a, 0, i, 0));
        return;
    }
    case SOpIsNan: { if (wc < 4) break; xval *d = def_temp(c, p[2], p[1]); xval a = get_val(c, p[3]);
        emit2(c, DNE, d->reg, mask_n(d->ncomp), S(&a, 0, 0), S(&a, 0, 0)); return; }
    case SOpIsInf: { if (wc < 4) break; xval *d = def_temp(c, p[2], p[1]); xval a = get_val(c, p[3]);
        xval inf = imm_val(0x7f800000u, 0x7f800000u, 0x7f800000u, 0x7f800000u, 1);
        emit2(c, DEQ, d->reg, mask_n(d->ncomp), S(&a, 0, MOD_ABS), S(&inf, 0, 0)); return; }
    case SOpLogicalEqual: case SOpIEqual: if (wc < 5) break; alu(c, DIEQ, p, 2, NULL, 0); return;
    case SOpLogicalNotEqual: case SOpINotEqual: if (wc < 5) break; alu(c, DINE, p, 2, NULL, 0); return;
    case SOpLogicalOr: case SOpBitwiseOr: if (wc < 5) break; alu(c, DOR, p, 2, NULL, 0); return;
    case SOpLogicalAnd: case SOpBitwiseAnd: if (wc < 5) break; alu(c, DAND, p, 2, NULL, 0); return;
    case SOpBitwiseXor: if (wc < 5) break; alu(c, DXOR, p, 2, NULL, 0); return;
    case SOpShiftLeftLogical: if (wc < 5) break; alu(c, DISHL, p, 2, NULL, 0); return;
    case SOpShiftRightLogical: if (wc < 5) break; alu(c, DUSHR, p, 2, NULL, 0); return;
    case SOpShiftRightArithmetic: if (wc < 5) break; alu(c, DISHR, p, 2, NULL, 0); return;
    case SOpUGreaterThan: if (wc < 5) break; compare(c, p, DULT, 1, 0); return;
    case SOpSGreaterThan: if (wc < 5) break; compare(c, p, DILT, 1, 0); return;
    case SOpUGreaterThanEqual: if (wc < 5) break; compare(c, p, DUGE, 0, 0); return;
    case SOpSGreaterThanEqual: if (wc < 5) break; compare(c, p, DIGE, 0, 0); return;
    case SOpULessThan: if (wc < 5) break; compare(c, p, DULT, 0, 0); return;
    case SOpSLessThan: if (wc < 5) break; compare(c, p, DILT, 0, 0); return;
    case SOpULessThanEqual: if (wc < 5) break; compare(c, p, DUGE, 1, 0); return;
    case SOpSLessThanEqual: if (wc < 5) break; compare(c, p, DIGE, 1, 0); return;
    case SOpFOrdEqual: case SOpFUnordEqual: if (wc < 5) break; compare(c, p, DEQ, 0, 0); return;
    case SOpFOrdNotEqual: case SOpFUnordNotEqual: if (wc < 5) break; compare(c, p, DNE, 0, 0); return;
    case SOpFOrdLessThan: case SOpFUnordLessThan: if (wc < 5) break; compare(c, p, DLT, 0, 0); return;
    case SOpFOrdGreaterThan: case SOpFUnordGreaterThan: if (wc < 5) break; compare(c, p, DLT, 1, 0); return;
    case SOpFOrdLessThanEqual: case SOpFUnordLessThanEqual: if (wc < 5) break; compare(c, p, DGE, 1, 0); return;
    case SOpFOrdGreaterThanEqual: case SOpFUnordGreaterThanEqual: if (wc < 5) break; compare(c, p, DGE, 0, 0); return;
    case SOpSelect: {
        if (wc < 6) break;
        xval *d = def_temp(c, p[2], p[1]);
        xval cond = get_val(c, p[3]), a = get_val(c, p[4]), b = get_val(c, p[5]);
        for (uint32_t col = 0; col < d->ncols; col++)
            emit3(c, DMOVC, d->reg + col, mask_n(d->ncomp), S(&cond, 0, 0), S(&a, col, 0), S(&b, col, 0));
        return;
    }
    case SOpDPdx: case SOpDPdxFine: case SOpDPdxCoarse:
    case SOpDPdy: case SOpDPdyFine: case SOpDPdyCoarse: {
        if (wc < 4) break;
        if (c->model != 4) BAD("spirv: derivatives outside a fragment shader");
        int x = op == SOpDPdx || op == SOpDPdxFine || op == SOpDPdxCoarse;
        alu(c, x ? DDERIV_RTX : DDERIV_RTY, p, 1, NULL, 0);
        return;
    }
    case SOpFwidth: case SOpFwidthFine: case SOpFwidthCoarse: {
        if (wc < 4) break;
        if (c->model != 4) BAD("spirv: derivatives outside a fragment shader");
        xval *d = def_temp(c, p[2], p[1]);
        xval a = get_val(c, p[3]);
        uint32_t m = mask_n(d->ncomp), t = new_temps(c, 1);
        xval tv = temp_val(t, d->ncomp);
        emit1(c, DDERIV_RTX, t, m, S(&a, 0, 0));
        emit1(c, DDERIV_RTY, d->reg, m, S(&a, 0, 0));
        emit2(c, DADD, d->reg, m, S(&tv, 0, MOD_ABS), S(d, 0, MOD_ABS));
        return;
    }
    case SOpVectorShuffle: {
        if (wc < 5) break;
        xval a = get_val(c, p[3]), b = get_val(c, p[4]);
        uint32_t n = wc - 5;
        uint32_t rn = ncomp_of(c, p[1]);
        if (n != rn || n > 4) BAD("spirv: OpVectorShuffle component count");
        /* one component of one source: an alias */
        if (n == 1 && p[5] != NONE) {
            xval v = p[5] < a.ncomp ? a : b;
            uint32_t k = p[5] < a.ncomp ? p[5] : p[5] - a.ncomp;
            if (k >= v.ncomp) BAD("spirv: shuffle component out of range");
            if (v.file != F_IMM) { v.comp0 = (uint8_t)(v.comp0 + k); v.ncomp = 1; }
            else { v.imm[0] = v.imm[v.comp0 + k]; v.comp0 = 0; v.ncomp = 1; }
            set_alias(c, p[2], v);
            return;
        }
        xval *d = def_temp(c, p[2], p[1]);
        for (int from = 0; from < 2; from++) {
            xval *v = from ? &b : &a;
            uint32_t mask = 0;
            srcspec s = S(v, 0, 0);
            for (uint32_t i = 0; i < n; i++) {
                uint32_t k = p[5 + i];
                if (k == NONE) continue;
                if ((k < a.ncomp) != !from) continue;
                if (from) k -= a.ncomp;
                if (k >= v->ncomp) BAD("spirv: shuffle component out of range");
                mask |= 1u << i;
                s.l[i] = (uint8_t)k;
            }
            if (mask) emit1(c, DMOV, d->reg, mask, s);
        }
        return;
    }
    case SOpCompositeConstruct: {
        if (wc < 4) break;
        xval *d = def_temp(c, p[2], p[1]);
        uint32_t reg = d->reg, ncomp = d->ncomp, ncols = d->ncols;
        if (ncols > 1) {
            if (wc - 3 != ncols) BAD("spirv: matrix construct");
            for (uint32_t col = 0; col < ncols; col++) {
                xval v = get_val(c, p[3 + col]);
                if (v.ncomp != ncomp) BAD("spirv: matrix construct column");
                emit1(c, DMOV, reg + col, mask_n(ncomp), S(&v, 0, 0));
            }
            return;
        }
        uint32_t at = 0;
        for (uint32_t i = 3; i < wc; i++) {
            xval v = get_val(c, p[i]);
            if (v.ncols != 1 || at + v.ncomp > ncomp) BAD("spirv: composite construct overflows");
            srcspec s = S(&v, 0, 0);
            for (uint32_t k = 0; k < 4; k++) s.l[k] = (uint8_t)(k >= at && k - at < v.ncomp ? k - at : 0);
            emit1(c, DMOV, reg, mask_n(v.ncomp) << at, s);
            at += v.ncomp;
        }
        if (at != ncomp) BAD("spirv: composite construct has %u of %u components", at, ncomp);
        return;
    }
    case SOpCompositeExtract: {
        if (wc < 5) break;
        xval v = get_val(c, p[3]);
        uint32_t i = 4;
        if (v.ncols > 1) {
            uint32_t col = p[i++];
            if (col >= v.ncols || v.file != F_TEMP) BAD("spirv: column out of range");
            v.reg += col;
            v.ncols = 1;
        }
        if (i < wc) {
            uint32_t k = p[i++];
            if (k >= v.ncomp) BAD("spirv: component out of range");
            if (v.file == F_IMM) { v.imm[0] = v.imm[v.comp0 + k]; v.comp0 = 0; }
            else v.comp0 = (uint8_t)(v.comp0 + k);
            v.ncomp = 1;
        }
        if (i != wc) BAD("spirv: OpCompositeExtract indexes too deep");
        set_alias(c, p[2], v);
        return;
    }
    case SOpCompositeInsert: {
        if (wc < 6) break;
        xval obj = get_val(c, p[3]), comp = get_val(c, p[4]);
        xval *d = def_temp(c, p[2], p[1]);
        copy_to(c, d->reg, &comp);
        uint32_t col = 0, k;
        if (d->ncols > 1) { col = p[5]; if (wc < 7) BAD("spirv: OpCompositeInsert"); k = p[6]; }
        else k = p[5];
        if (col >= d->ncols || k >= d->ncomp) BAD("spirv: OpCompositeInsert index");
        emit1(c, DMOV, d->reg + col, 1u << k, SC(&obj, 0, 0, 0));
        return;
    }
    default: break;
    }
    UNSUP("spirv: opcode %u %s", op, op_name(op));
}


/* ---------------------------------------------------------------- control flow */

static size_t block_of(ctx *c, uint32_t label)
{
    if (label == 0 || label >= c->bound || c->ids[label].op != SOpLabel) BAD("spirv: %u is not a label", label);
    size_t at = c->ids[label].def;
    if (at <= c->fn_begin || at >= c->fn_end) BAD("spirv: label %u is outside the entry point", label);
    return at;
}

static void simple(ctx *c, uint32_t op, uint32_t ctl)
{
    size_t at = ins_begin(c, op, ctl);
    ins_end(c, at);
}

static void cond(ctx *c, uint32_t op, uint32_t test_nz, uint32_t cond_id)
{
    xval v = get_val(c, cond_id);
    size_t at = ins_begin(c, op, test_nz ? TEST_NZ : 0);
    op_src1(c, &v, 0);
    ins_end(c, at);
}

/* copies the values of the phis of `to` coming from `from` */
static void phi_copies(ctx *c, uint32_t from, uint32_t to)
{
    size_t at = block_of(c, to) + wc_of(c->w + block_of(c, to));
    uint32_t nphi = 0;
    for (size_t i = at; i < c->fn_end && (c->w[i] & 0xffff) == SOpPhi; i += wc_of(c->w + i)) nphi++;
    if (!nphi) return;
    /* with several phis, read every incoming value before writing any (one may be another) */
    uint32_t stage = nphi > 1 ? new_temps(c, 4 * nphi) : 0;
    for (int pass = 0; pass < (nphi > 1 ? 2 : 1); pass++) {
        uint32_t k = 0;
        for (size_t i = at; i < c->fn_end && (c->w[i] & 0xffff) == SOpPhi; i += wc_of(c->w + i), k++) {
            const uint32_t *p = c->w + i;
            uint32_t wc = wc_of(p);
            xval *d = def_temp(c, p[2], p[1]);
            if (d->ncols > 4) BAD("spirv: phi shape");
            for (uint32_t j = 3; j + 1 < wc; j += 2) {
                if (p[j + 1] != from) continue;
                if (pass == 0 && nphi > 1) {
                    xval v = get_val(c, p[j]);
                    copy_to(c, stage + 4 * k, &v);
                } else if (nphi > 1) {
                    for (uint32_t col = 0; col < d->ncols; col++) {
                        xval s = temp_val(stage + 4 * k + col, d->ncomp);
                        emit1(c, DMOV, d->reg + col, mask_n(d->ncomp), S(&s, 0, 0));
                    }
                } else {
                    xval v = get_val(c, p[j]);
                    copy_to(c, d->reg, &v);
                }
                break;
            }
        }
    }
}

static void emit_range(ctx *c, uint32_t label, uint32_t end);

static void output_copies(ctx *c)
{
    for (size_t i = 0; i < c->nvars; i++) {
        xid *x = &c->ids[c->vars[i]];
        if (x->vkind != V_OUTPUT || x->oreg == NONE) continue;
        uint32_t t = pointee(c, x->type, NULL);
        xval s = temp_val(x->vreg, ncomp_of(c, t));
        if (x->builtin == SBuiltInFragDepth) {
            srcspec sp = SC(&s, 0, 0, 0);
            size_t at = ins_begin(c, DMOV, 0);
            op_dst(c, OT_DEPTH, 0, 0);
            op_src(c, sp.v, 0, sp.l, 0);
            ins_end(c, at);
        } else {
            srcspec sp = S(&s, 0, 0);
            emit(c, DMOV, 0, OT_OUTPUT, x->oreg, mask_n(s.ncomp), 1, &sp);
        }
    }
}

/* The branch from block `from` to `to` inside a range ending at `end`: copies phis, then
   returns 1 where the range ends there, 2 where it left by break/continue, 0 where the range
   goes on with `to`. A construct on the stack is a loop (loop), a switch (merge, not loop) or
   a selection (neither: its merge is only ever reached as a range end). */
static int jump(ctx *c, uint32_t from, uint32_t to, uint32_t end)
{
    phi_copies(c, from, to);
    if (to == end) return 1;
    for (int i = c->ncs - 1; i >= 0; i--) {
        construct *k = &c->cs[i];
        if (k->merge && to == k->merge) {
            /* DXBC's break leaves the innermost loop or switch only */
            for (int j = c->ncs - 1; j > i; j--)
                if (c->cs[j].loop || c->cs[j].merge)
                    UNSUP("spirv: a break out of more than one loop or switch");
            simple(c, DBREAK, 0);
            return 2;
        }
        if (k->loop && to == k->cont) {
            for (int j = c->ncs - 1; j > i; j--)
                if (c->cs[j].loop) UNSUP("spirv: continue of an outer loop");
            /* DXBC's continue jumps to the loop head: run the continue construct first */
            if (k->cont != k->header) emit_range(c, k->cont, k->header);
            simple(c, DCONTINUE, 0);
            return 2;
        }
        if (k->loop && to == k->header) BAD("spirv: back edge to %u outside its continue construct", to);
    }
    return 0;
}

/* the terminator of block `label`; returns the label the range goes on with, or 0 */
static uint32_t terminator(ctx *c, uint32_t label, const uint32_t *term, uint32_t merge,
                           uint32_t end)
{
    uint32_t top = term[0] & 0xffff, twc = wc_of(term);
    if (top == SOpReturn) { output_copies(c); simple(c, DRET, 0); return 0; }
    if (top == SOpReturnValue) BAD("spirv: OpReturnValue in the entry point");
    if (top == SOpUnreachable) return 0;
    if (top == SOpKill) {
        if (c->model != 4) BAD("spirv: OpKill outside a fragment shader");
        xval t = imm_val(~0u, ~0u, ~0u, ~0u, 1);
        size_t k = ins_begin(c, DDISCARD, TEST_NZ);
        op_src1(c, &t, 0);
        ins_end(c, k);
        simple(c, DRET, 0);
        return 0;
    }
    if (c->ncs >= 63) UNSUP("spirv: control flow nested too deeply");
    if (top == SOpBranch) {
        if (twc < 2) BAD("spirv: OpBranch");
        return jump(c, label, term[1], end) ? 0 : term[1];
    }
    if (top == SOpBranchConditional) {
        if (twc < 4) BAD("spirv: OpBranchConditional");
        uint32_t t = term[2], f = term[3];
        if (merge) {
            construct *k = &c->cs[c->ncs++];
            memset(k, 0, sizeof *k); /* a selection: its merge is no break target */
            k->header = label;
            cond(c, DIF, 1, term[1]);
            if (!jump(c, label, t, merge)) emit_range(c, t, merge);
            simple(c, DELSE, 0);
            if (!jump(c, label, f, merge)) emit_range(c, f, merge);
            simple(c, DENDIF, 0);
            c->ncs--;
            return merge;
        }
        /* without a merge one target leaves (break, continue, or the range's end) and the
           other may go on: each path continues to the range's end inside its branch */
        cond(c, DIF, 1, term[1]);
        if (!jump(c, label, t, end)) emit_range(c, t, end);
        simple(c, DELSE, 0);
        if (!jump(c, label, f, end)) emit_range(c, f, end);
        simple(c, DENDIF, 0);
        return 0;
    }
    if (top == SOpSwitch) {
        if (twc < 3 || !merge) BAD("spirv: OpSwitch without a merge");
        if ((twc - 3) % 2) UNSUP("spirv: OpSwitch on a non-32-bit selector");
        xval sel = get_val(c, term[1]);
        size_t k0 = ins_begin(c, DSWITCH, 0);
        op_src1(c, &sel, 0);
        ins_end(c, k0);
        construct *k = &c->cs[c->ncs++];
        memset(k, 0, sizeof *k);
        k->header = label;
        k->merge = merge;
        uint32_t def = term[2];
        int def_done = 0;
        for (uint32_t j = 3; j + 1 < twc; j += 2) {
            uint32_t target = term[j + 1];
            int seen = 0;
            for (uint32_t q = 3; q < j; q += 2) if (term[q + 1] == target) seen = 1;
            if (seen) continue;
            for (uint32_t q = j; q + 1 < twc; q += 2) {
                if (term[q + 1] != target) continue;
                xval lit = imm_val(term[q], term[q], term[q], term[q], 1);
                size_t kk = ins_begin(c, DCASE, 0);
                op_src1(c, &lit, 0);
                ins_end(c, kk);
            }
            if (target == def) { simple(c, DDEFAULT, 0); def_done = 1; }
            /* falling through into another case's blocks repeats them here */
            int r = jump(c, label, target, merge);
            if (r == 0) emit_range(c, target, merge);
            if (r != 2) simple(c, DBREAK, 0);
        }
        if (!def_done) {
            simple(c, DDEFAULT, 0);
            int r = jump(c, label, def, merge);
            if (r == 0) emit_range(c, def, merge);
            if (r != 2) simple(c, DBREAK, 0);
        }
        simple(c, DENDSWITCH, 0);
        c->ncs--;
        return merge;
    }
    BAD("spirv: terminator %u", top);
    return 0;
}

static void emit_range(ctx *c, uint32_t label, uint32_t end)
{
    if (++c->depth > 200) UNSUP("spirv: control flow nested too deeply");
    while (label && label != end) {
        if (++c->steps > 4 * c->nw + 64) BAD("spirv: control flow is not structured");
        size_t at = block_of(c, label);
        size_t first = at + wc_of(c->w + at), i;
        uint32_t merge = 0, cont = 0;
        int loop = 0;
        const uint32_t *term = NULL;
        for (i = first; i < c->fn_end; i += wc_of(c->w + i)) {
            const uint32_t *p = c->w + i;
            uint32_t op = p[0] & 0xffff;
            if (op == SOpSelectionMerge) { if (wc_of(p) < 3) BAD("spirv: OpSelectionMerge"); merge = p[1]; }
            else if (op == SOpLoopMerge) { if (wc_of(p) < 4) BAD("spirv: OpLoopMerge"); merge = p[1]; cont = p[2]; loop = 1; }
            else if (op == SOpBranch || op == SOpBranchConditional || op == SOpSwitch ||
                     op == SOpReturn || op == SOpReturnValue || op == SOpKill || op == SOpUnreachable) { term = p; break; }
            else if (op == SOpLabel || op == SOpFunctionEnd) break;
        }
        if (!term) BAD("spirv: block %u has no terminator", label);
        if (loop) {
            if (c->ncs >= 63) UNSUP("spirv: control flow nested too deeply");
            block_of(c, merge);
            block_of(c, cont);
            construct *k = &c->cs[c->ncs++];
            memset(k, 0, sizeof *k);
            k->header = label;
            k->merge = merge;
            k->cont = cont;
            k->loop = 1;
            simple(c, DLOOP, 0);
        }
        for (i = first; c->w + i != term; i += wc_of(c->w + i)) {
            const uint32_t *p = c->w + i;
            uint32_t op = p[0] & 0xffff;
            if (op == SOpPhi) { if (wc_of(p) < 3) BAD("spirv: OpPhi"); def_temp(c, p[2], p[1]); }
            else if (op != SOpSelectionMerge && op != SOpLoopMerge) body_ins(c, p);
        }
        if (loop) {
            uint32_t next = terminator(c, label, term, 0, cont);
            if (next) emit_range(c, next, cont);
            if (cont != label) emit_range(c, cont, label);
            simple(c, DENDLOOP, 0);
            c->ncs--;
            label = merge;
            continue;
        }
        label = terminator(c, label, term, merge, end);
    }
    c->depth--;
}

/* ---------------------------------------------------------------- declarations and container */

static void dcl_operand(ctx *c, int type, uint32_t reg, uint32_t mask)
{
    wput(c, 2u | (mask << 4) | (uint32_t)type << 12 | 1u << 20);
    wput(c, reg);
}

static uint32_t ps_interp(ctx *c, const xid *x, uint32_t type)
{
    if (x->flat || scalar_kind(c, type) != 0) return 1;
    if (x->noperspective) return x->sample ? 7 : x->centroid ? 5 : 4;
    return x->sample ? 6 : x->centroid ? 3 : 2;
}

/* the return type token of a storage image's typed UAV (each component: 1 unorm, 2 snorm,
   3 sint, 4 uint, 5 float) from its SPIR-V image format */
static uint32_t uav_return_type(ctx *c, const uint32_t *it)
{
    uint32_t f = it[8], rt;
    if (f == 0) { int k = scalar_kind(c, it[2]); rt = k == 0 ? 5 : k == 1 ? 3 : 4; }
    else if (f <= 3 || (f >= 6 && f <= 9)) rt = 5;   /* Rgba32f .. R16f */
    else if (f == 4 || (f >= 10 && f <= 15)) rt = 1; /* Rgba8, Rgba16 .. R8 */
    else if (f == 5 || (f >= 16 && f <= 20)) rt = 2; /* the Snorm formats */
    else if (f >= 21 && f <= 29) rt = 3;              /* Rgba32i .. R8i */
    else if (f >= 30 && f <= 39) rt = 4;              /* Rgba32ui .. R8ui */
    else UNSUP("spirv: storage image format %u", f);
    return rt | rt << 4 | rt << 8 | rt << 12;
}

static void declarations(ctx *c)
{
    uint8_t cb_done[14] = { 0 }, t_done[128] = { 0 }, s_done[16] = { 0 }, u_done[64] = { 0 };
    uint64_t sysin_done = 0; /* by operand type (vThreadID...): variables may repeat a builtin */
    size_t at = ins_begin(c, DDCL_GLOBAL_FLAGS, 1u << 11); /* refactoring allowed */
    ins_end(c, at);
    for (size_t i = 0; i < c->nvars; i++) {
        xid *x = &c->ids[c->vars[i]];
        if (x->vkind == V_CB && !cb_done[x->vreg]) {
            cb_done[x->vreg] = 1;
            at = ins_begin(c, DDCL_CB, 1u << 11); /* dynamically indexed */
            wput(c, 2u | 1u << 2 | 0xe4u << 4 | (uint32_t)OT_CB << 12 | 2u << 20);
            wput(c, x->vreg);
            wput(c, x->vcount);
            ins_end(c, at);
        }
        if ((x->vkind == V_SAMPLER || x->vkind == V_SAMPLED) && !s_done[x->oreg]) {
            s_done[x->oreg] = 1;
            at = ins_begin(c, DDCL_SAMPLER, (c->cmp_sampler[x->oreg] ? 1u : 0u) << 11);
            wput(c, (uint32_t)OT_SAMPLER << 12 | 1u << 20);
            wput(c, x->oreg);
            ins_end(c, at);
        }
        if ((x->vkind == V_IMAGE || x->vkind == V_SAMPLED) && !t_done[x->vreg]) {
            t_done[x->vreg] = 1;
            uint32_t t = pointee(c, x->type, NULL);
            if (opof(c, t) == SOpTypeSampledImage) t = ins(c, t)[2];
            const uint32_t *it = ins(c, t);
            coord_count(c, t);
            if (it[7] == 2) UNSUP("spirv: storage images");
            uint32_t dim = it[3], arrayed = it[5], rdim;
            if (dim == SDim1D) rdim = arrayed ? 7 : 2;
            else if (dim == SDim2D) rdim = arrayed ? 8 : 3;
            else if (dim == SDim3D) { if (arrayed) UNSUP("spirv: arrayed 3D images"); rdim = 5; }
            else rdim = arrayed ? 10 : 6;
            int k = scalar_kind(c, it[2]);
            uint32_t rt = k == 0 ? 5 : k == 1 ? 3 : 4;
            at = ins_begin(c, DDCL_RESOURCE, rdim << 11);
            wput(c, (uint32_t)OT_RESOURCE << 12 | 1u << 20);
            wput(c, x->vreg);
            wput(c, rt | rt << 4 | rt << 8 | rt << 12);
            ins_end(c, at);
        }
        if (x->vkind == V_UAV && !u_done[x->vreg]) {
            u_done[x->vreg] = 1;
            uint32_t t = pointee(c, x->type, NULL);
            coord_count(c, t); /* an image type of 9 words or more */
            const uint32_t *it = ins(c, t);
            uint32_t dim = it[3], arrayed = it[5], rdim;
            if (dim == SDim1D) rdim = arrayed ? 7 : 2;
            else if (dim == SDim2D) rdim = arrayed ? 8 : 3;
            else if (dim == SDim3D && !arrayed) rdim = 5;
            else UNSUP("spirv: storage image of dimension %u%s", dim, arrayed ? " (arrayed)" : "");
            at = ins_begin(c, DDCL_UAV_TYPED, rdim << 11);
            wput(c, (uint32_t)OT_UAV << 12 | 1u << 20);
            wput(c, x->vreg);
            wput(c, uav_return_type(c, it));
            ins_end(c, at);
        }
        if (x->vkind == V_TGSM) {
            uint32_t elem;
            array_elems(c, pointee(c, x->type, NULL), 32768 / 4, &elem);
            at = ins_begin(c, DDCL_TGSM_STRUCTURED, 0);
            wput(c, (uint32_t)OT_TGSM << 12 | 1u << 20);
            wput(c, x->vreg);
            wput(c, 4 * ncomp_of(c, elem)); /* the element's bytes */
            wput(c, x->vcount);
            ins_end(c, at);
        }
        if (x->vkind == V_SYSIN && !(sysin_done >> x->vreg & 1u)) {
            sysin_done |= (uint64_t)1 << x->vreg;
            at = ins_begin(c, DDCL_INPUT, 0);
            /* vThreadIDInGroupFlattened: no components (fxc's dcl_input token 0x00024000);
               the others: their .xyz */
            if (x->vcount == 1) wput(c, x->vreg << 12);
            else wput(c, 2u | 7u << 4 | x->vreg << 12);
            ins_end(c, at);
        }
    }
    for (size_t i = 0; i < c->nvars; i++) {
        xid *x = &c->ids[c->vars[i]];
        if (x->vkind != V_INPUT || x->repeat) continue;
        uint32_t t = pointee(c, x->type, NULL), m = mask_n(ncomp_of(c, t));
        if (c->model == 0) {
            if (x->builtin == SBuiltInVertexIndex || x->builtin == SBuiltInInstanceIndex) {
                at = ins_begin(c, DDCL_INPUT_SGV, 0);
                dcl_operand(c, OT_INPUT, x->vreg, 1);
                wput(c, x->builtin == SBuiltInVertexIndex ? SV_VERTEX_ID : SV_INSTANCE_ID);
            } else {
                at = ins_begin(c, DDCL_INPUT, 0);
                dcl_operand(c, OT_INPUT, x->vreg, m);
            }
        } else if (x->builtin == SBuiltInFragCoord) {
            at = ins_begin(c, DDCL_INPUT_PS_SIV, 4u << 11); /* linear noperspective */
            dcl_operand(c, OT_INPUT, x->vreg, 0xf);
            wput(c, SV_POSITION);
        } else if (x->builtin == SBuiltInFrontFacing) {
            at = ins_begin(c, DDCL_INPUT_PS_SGV, 1u << 11); /* constant */
            dcl_operand(c, OT_INPUT, x->vreg, 1);
            wput(c, SV_IS_FRONT_FACE);
        } else {
            at = ins_begin(c, DDCL_INPUT_PS, ps_interp(c, x, t) << 11);
            dcl_operand(c, OT_INPUT, x->vreg, m);
        }
        ins_end(c, at);
    }
    for (size_t i = 0; i < c->nvars; i++) {
        xid *x = &c->ids[c->vars[i]];
        if (x->vkind != V_OUTPUT || x->oreg == NONE) continue;
        uint32_t t = pointee(c, x->type, NULL), m = mask_n(ncomp_of(c, t));
        if (x->builtin == SBuiltInFragDepth) {
            at = ins_begin(c, DDCL_OUTPUT, 0);
            wput(c, 1u | (uint32_t)OT_DEPTH << 12);
        } else if (x->builtin == SBuiltInPosition) {
            at = ins_begin(c, DDCL_OUTPUT_SIV, 0);
            dcl_operand(c, OT_OUTPUT, x->oreg, 0xf);
            wput(c, SV_POSITION);
        } else {
            at = ins_begin(c, DDCL_OUTPUT, 0);
            dcl_operand(c, OT_OUTPUT, x->oreg, m);
        }
        ins_end(c, at);
    }
    if (c->model == SModelGLCompute) {
        at = ins_begin(c, DDCL_THREAD_GROUP, 0);
        for (int i = 0; i < 3; i++) wput(c, c->local_size[i]);
        ins_end(c, at);
    }
    if (c->ntemps) {
        at = ins_begin(c, DDCL_TEMPS, 0);
        wput(c, c->ntemps);
        ins_end(c, at);
    }
    for (uint32_t i = 0; i < c->nx; i++) {
        at = ins_begin(c, DDCL_INDEXABLE_TEMP, 0);
        wput(c, i);
        wput(c, c->xsizes[i]);
        wput(c, 4);
        ins_end(c, at);
    }
}

static int sig_cmp(const void *a, const void *b)
{
    const sig_elem *x = a, *y = b;
    return x->reg < y->reg ? -1 : x->reg > y->reg;
}

/* ISGN/OSGN chunk body: count, 8, then 24-byte elements, then the names */
static size_t sig_chunk(uint8_t *out, sig_elem *e, uint32_t n)
{
    qsort(e, n, sizeof *e, sig_cmp);
    size_t names = 8 + 24 * (size_t)n, at = names;
    if (out) { put_le32(out, n); put_le32(out + 4, 8); }
    for (uint32_t i = 0; i < n; i++) {
        /* names are stored once each */
        size_t name_at = at;
        int found = 0;
        for (uint32_t j = 0; j < i; j++)
            if (!strcmp(e[j].name, e[i].name)) { found = 1; break; }
        if (found) {
            size_t q = names;
            for (uint32_t j = 0; j < i; j++) {
                int dup = 0;
                for (uint32_t k = 0; k < j; k++) if (!strcmp(e[k].name, e[j].name)) dup = 1;
                if (dup) continue;
                if (!strcmp(e[j].name, e[i].name)) { name_at = q; break; }
                q += strlen(e[j].name) + 1;
            }
        } else {
            if (out) memcpy(out + at, e[i].name, strlen(e[i].name) + 1);
            at += strlen(e[i].name) + 1;
        }
        if (out) {
            uint8_t *p = out + 8 + 24 * (size_t)i;
            put_le32(p, (uint32_t)name_at);
            put_le32(p + 4, e[i].index);
            put_le32(p + 8, e[i].sv);
            put_le32(p + 12, e[i].ctype);
            put_le32(p + 16, e[i].reg);
            p[20] = (uint8_t)e[i].mask;
            p[21] = (uint8_t)e[i].rw;
            p[22] = p[23] = 0;
        }
    }
    size_t size = (at + 3) & ~(size_t)3;
    if (out) memset(out + at, 0xab, size - at);
    return size;
}

static void translate(ctx *c, void **out_dxbc, size_t *out_size)
{
    iface io;
    memset(&io, 0, sizeof io);
    scan(c);
    assign_interface(c, &io);

    /* code */
    c->out = &c->code;
    for (size_t i = 0; i < c->nvars; i++) {
        uint32_t id = c->vars[i];
        const uint32_t *p = ins(c, id);
        uint32_t storage;
        pointee(c, c->ids[id].type, &storage);
        if (storage == SStoragePrivate && wc_of(p) > 4) body_ins(c, p);
    }
    size_t first = c->fn_begin + wc_of(c->w + c->fn_begin);
    if (first >= c->fn_end || (c->w[first] & 0xffff) != SOpLabel || wc_of(c->w + first) < 2)
        BAD("spirv: the entry point does not start with a label");
    emit_range(c, c->w[first + 1], 0);

    /* declarations, then the SHEX chunk: version, length, declarations, code */
    c->out = &c->decl;
    /* program type: 0 pixel, 1 vertex, 5 compute; shader model 5.0 */
    wput(c, (c->model == SModelVertex ? 1u : c->model == SModelGLCompute ? 5u : 0u) << 16 | 5u << 4 | 0u);
    wput(c, 0);
    declarations(c);
    for (size_t i = 0; i < c->code.n; i++) wput(c, c->code.w[i]);
    c->decl.w[1] = (uint32_t)c->decl.n;

    size_t isgn = sig_chunk(NULL, io.in, io.nin), osgn = sig_chunk(NULL, io.out, io.nout);
    size_t shex = c->decl.n * 4;
    size_t total = 32 + 3 * 4 + 3 * 8 + isgn + osgn + shex;
    uint8_t *b = calloc(1, total);
    if (!b) fail(c, XGD_ERROR_OUT_OF_MEMORY, "dxbc: out of memory");
    memcpy(b, "DXBC", 4);
    put_le32(b + 20, 1);
    put_le32(b + 24, (uint32_t)total);
    put_le32(b + 28, 3);
    size_t at = 44;
    const char *fourcc[3] = { "ISGN", "OSGN", "SHEX" };
    size_t sizes[3] = { isgn, osgn, shex };
    for (int k = 0; k < 3; k++) {
        put_le32(b + 32 + 4 * k, (uint32_t)at);
        memcpy(b + at, fourcc[k], 4);
        put_le32(b + at + 4, (uint32_t)sizes[k]);
        uint8_t *d = b + at + 8;
        if (k == 0) sig_chunk(d, io.in, io.nin);
        else if (k == 1) sig_chunk(d, io.out, io.nout);
        else for (size_t i = 0; i < c->decl.n; i++) put_le32(d + 4 * i, c->decl.w[i]);
        at += 8 + sizes[k];
    }
    uint32_t sum[4];
    xgdi_d3d12_dxbc_checksum(b, total, sum);
    for (int k = 0; k < 4; k++) put_le32(b + 4 + 4 * k, sum[k]);
    *out_dxbc = b;
    *out_size = total;
}

xgd_result xgdi_d3d12_dxbc_from_spirv(const uint32_t *words, size_t word_count,
                                      const xgdi_d3d12_dxbc_binding *bindings,
                                      size_t binding_count, void **out_dxbc, size_t *out_size,
                                      char *msg, size_t msg_size)
{
    return xgdi_d3d12_dxbc_from_spirv_int_inputs(words, word_count, bindings, binding_count, 0, 0,
                                                 out_dxbc, out_size, msg, msg_size);
}

xgd_result xgdi_d3d12_dxbc_from_spirv_int_inputs(const uint32_t *words, size_t word_count,
                                                 const xgdi_d3d12_dxbc_binding *bindings,
                                                 size_t binding_count, uint32_t uint_locations,
                                                 uint32_t sint_locations, void **out_dxbc,
                                                 size_t *out_size, char *msg, size_t msg_size)
{
    if (msg && msg_size) msg[0] = 0;
    if (!out_dxbc || !out_size) return XGD_ERROR_INVALID_ARGUMENT;
    *out_dxbc = NULL;
    *out_size = 0;
    if (!words || word_count == 0 || (binding_count && !bindings)) {
        if (msg && msg_size) snprintf(msg, msg_size, "dxbc: no SPIR-V words or no binding array");
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    if (word_count > MAX_IN_WORDS) {
        if (msg && msg_size) snprintf(msg, msg_size, "dxbc: SPIR-V module of %zu words (at most %u)", word_count, MAX_IN_WORDS);
        return XGD_ERROR_NOT_SUPPORTED;
    }
    ctx *c = calloc(1, sizeof *c);
    if (!c) return XGD_ERROR_OUT_OF_MEMORY;
    c->w = words;
    c->nw = word_count;
    c->msg = msg;
    c->msg_size = msg_size;
    c->bindings = bindings;
    c->nbindings = binding_count;
    c->int_in_u = uint_locations;
    c->int_in_s = sint_locations & ~uint_locations;
    c->result = XGD_OK;
    if (!setjmp(c->fail)) translate(c, out_dxbc, out_size);
    xgd_result r = c->result;
    free(c->ids);
    free(c->vars);
    free(c->mdec);
    free(c->xsizes);
    free(c->code.w);
    free(c->decl.w);
    free(c);
    return r;
}

void xgdi_d3d12_dxbc_free(void *dxbc) { free(dxbc); }
