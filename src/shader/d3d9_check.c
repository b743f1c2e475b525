/*
 * d3d9_check.c - a structural check of Direct3D 9 shader bytecode (vs/ps 2.0 to 3.0) before
 * MojoShader translates it. MojoShader's front end refuses much malformed input by name, but
 * its SPIR-V back end asserts (aborts the process) on some token streams it accepted, so every
 * shader first passes this stricter walk of the public token format: known instructions with
 * their operand counts, register types and numbers each operand position admits, balanced
 * flow control, and the write masks the matrix and scalar forms need. What it refuses is a
 * named error, never a crash; valid shaders of the instructions XNA's compiler emits pass.
 */
#include "d3d9_check.h"

#include <stdio.h>
#include <string.h>

enum {
    R_TEMP = 0, R_INPUT = 1, R_CONST = 2, R_ADDR_TEXTURE = 3, R_RASTOUT = 4, R_ATTROUT = 5,
    R_OUTPUT = 6, R_CONSTINT = 7, R_COLOROUT = 8, R_DEPTHOUT = 9, R_SAMPLER = 10, R_CONSTBOOL = 14,
    R_LOOP = 15, R_MISCTYPE = 17, R_PREDICATE = 19
};

/* Bits 14-15 of every register token are reserved (zero). MojoShader refuses an instruction
   that sets them but translates the rest of the shader: for a dcl, the register it declares
   would then be read undeclared, so every token with them is refused here. */
#define RESERVED_BITS 0x0000c000u

/* Operand kinds of the instruction table. */
enum { K_NONE = 0, K_DST, K_SRC, K_SAMPLER, K_SRC_BOOL, K_SRC_INT, K_SRC_AL, K_SRC_PRED };

typedef struct op_info {
    uint16_t opcode;
    const char *name;
    uint8_t kinds[5];
} op_info;

static const op_info ops[] = {
    { 0, "nop", { 0 } },
    { 1, "mov", { K_DST, K_SRC } },
    { 2, "add", { K_DST, K_SRC, K_SRC } },
    { 3, "sub", { K_DST, K_SRC, K_SRC } },
    { 4, "mad", { K_DST, K_SRC, K_SRC, K_SRC } },
    { 5, "mul", { K_DST, K_SRC, K_SRC } },
    { 6, "rcp", { K_DST, K_SRC } },
    { 7, "rsq", { K_DST, K_SRC } },
    { 8, "dp3", { K_DST, K_SRC, K_SRC } },
    { 9, "dp4", { K_DST, K_SRC, K_SRC } },
    { 10, "min", { K_DST, K_SRC, K_SRC } },
    { 11, "max", { K_DST, K_SRC, K_SRC } },
    { 12, "slt", { K_DST, K_SRC, K_SRC } },
    { 13, "sge", { K_DST, K_SRC, K_SRC } },
    { 14, "exp", { K_DST, K_SRC } },
    { 15, "log", { K_DST, K_SRC } },
    { 16, "lit", { K_DST, K_SRC } },
    { 17, "dst", { K_DST, K_SRC, K_SRC } },
    { 18, "lrp", { K_DST, K_SRC, K_SRC, K_SRC } },
    { 19, "frc", { K_DST, K_SRC } },
    { 20, "m4x4", { K_DST, K_SRC, K_SRC } },
    { 21, "m4x3", { K_DST, K_SRC, K_SRC } },
    { 22, "m3x4", { K_DST, K_SRC, K_SRC } },
    { 23, "m3x3", { K_DST, K_SRC, K_SRC } },
    { 27, "loop", { K_SRC_AL, K_SRC_INT } },
    { 29, "endloop", { 0 } },
    { 32, "pow", { K_DST, K_SRC, K_SRC } },
    { 33, "crs", { K_DST, K_SRC, K_SRC } },
    { 34, "sgn", { K_DST, K_SRC, K_SRC, K_SRC } },
    { 35, "abs", { K_DST, K_SRC } },
    { 36, "nrm", { K_DST, K_SRC } },
    { 38, "rep", { K_SRC_INT } },
    { 39, "endrep", { 0 } },
    { 40, "if", { K_SRC_BOOL } },
    { 41, "ifc", { K_SRC, K_SRC } },
    { 42, "else", { 0 } },
    { 43, "endif", { 0 } },
    { 44, "break", { 0 } },
    { 45, "breakc", { K_SRC, K_SRC } },
    { 46, "mova", { K_DST, K_SRC } },
    { 65, "texkill", { K_DST } },
    { 66, "texld", { K_DST, K_SRC, K_SAMPLER } },
    { 91, "dsx", { K_DST, K_SRC } },
    { 92, "dsy", { K_DST, K_SRC } },
    { 88, "cmp", { K_DST, K_SRC, K_SRC, K_SRC } },
    { 90, "dp2add", { K_DST, K_SRC, K_SRC, K_SRC } },
    { 93, "texldd", { K_DST, K_SRC, K_SAMPLER, K_SRC, K_SRC } },
    { 94, "setp", { K_DST, K_SRC, K_SRC } },
    { 95, "texldl", { K_DST, K_SRC, K_SAMPLER } },
    { 96, "breakp", { K_SRC_PRED } },
};

typedef struct walker {
    const uint32_t *t;
    size_t n, pos;
    bool pixel;
    int major, minor;
    char *err;
    size_t err_cap;
    xgd_result code;
    /* declared registers (dcl): inputs, ps_2_x texture coordinates, samplers, vs_3_0
       outputs, ps_3_0 misc (vPos, vFace); reading or writing an undeclared one is refused */
    uint32_t declared_input, declared_texture, declared_sampler, declared_output, declared_misc;
    uint32_t declared_sampler_2d;
    /* an instruction was seen: MojoShader refuses a later dcl but goes on translating, so the
       registers it declares would be read undeclared (its SPIR-V back end asserts on samplers) */
    bool instructions;
    xgdi_d3d9_info *info;
} walker;

static bool fail(walker *w, xgd_result code, const char *what, size_t at)
{
    if (w->code == XGD_OK) {
        snprintf(w->err, w->err_cap, "shader bytecode token %zu: %s", at, what);
        w->code = code;
    }
    return false;
}

static int reg_type(uint32_t tok)
{
    return (int)(((tok >> 28) & 7u) | ((tok >> 8) & 0x18u));
}

static int reg_num(uint32_t tok)
{
    return (int)(tok & 0x7ffu);
}

/* A source swizzle that selects one component for all four (.x, .y, .z or .w). */
static bool replicate(uint32_t tok)
{
    unsigned sw = (tok >> 16) & 0xffu;
    return sw == (sw & 3u) * 0x55u;
}

/* The largest register number + 1 a type admits here (0: the type is not allowed). */
static int reg_limit(const walker *w, int type, bool dst)
{
    bool ps = w->pixel, sm3 = w->major >= 3;
    switch (type) {
    case R_TEMP: return 32;
    case R_INPUT: return dst ? 0 : ps ? (sm3 ? 10 : 2) : 16;
    case R_CONST: return dst ? 0 : 256;
    case R_ADDR_TEXTURE: return ps ? (dst || sm3 ? 0 : 8) : 0; /* vs a0: mova and relative only */
    case R_RASTOUT: return dst && !ps && !sm3 ? 3 : 0;
    case R_ATTROUT: return dst && !ps && !sm3 ? 2 : 0;
    case R_OUTPUT: return dst && !ps ? (sm3 ? 12 : 8) : 0;
    case R_CONSTINT: return dst ? 0 : 16;
    case R_COLOROUT: return dst && ps ? 4 : 0;
    case R_DEPTHOUT: return dst && ps ? 1 : 0;
    case R_CONSTBOOL: return dst ? 0 : 16;
    case R_MISCTYPE: return !dst && ps && sm3 ? 2 : 0;
    case R_PREDICATE: return 1;
    default: return 0;
    }
}

/* One operand token (and its relative-address token); kind from the table. */
static bool operand(walker *w, size_t end, int kind, int opcode, int loop_depth)
{
    if (w->pos >= end) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "an instruction is missing an operand", w->pos);
    size_t at = w->pos;
    uint32_t tok = w->t[w->pos++];
    if ((tok & 0x80000000u) == 0) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "an operand token lacks bit 31", at);
    if (tok & RESERVED_BITS) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "an operand token sets reserved bits 14-15", at);
    int type = reg_type(tok), num = reg_num(tok);
    bool dst = kind == K_DST;
    if (tok & (1u << 13)) { /* relative addressing: the address token follows */
        if (dst || type != R_CONST || (w->pixel && w->major < 3) || w->pos >= end)
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "relative addressing where it is not allowed", at);
        uint32_t rel = w->t[w->pos++];
        int rt = reg_type(rel);
        if ((rel & 0x80000000u) == 0 || (rel & RESERVED_BITS) || reg_num(rel) != 0 ||
            !((rt == R_ADDR_TEXTURE && !w->pixel) || (rt == R_LOOP && loop_depth > 0)))
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a relative address is not a0 or aL", at);
    }
    switch (kind) {
    case K_SAMPLER:
        /* vertex texture fetch is refused before MojoShader sees it: its SPIR-V back end
           asserts on a sampler read in a vertex shader */
        if (!w->pixel)
            return fail(w, XGD_ERROR_NOT_SUPPORTED, "a vertex shader samples a texture (vertex textures)", at);
        if (type != R_SAMPLER || num >= 16) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a texture instruction's sampler is not s0..s15", at);
        if ((w->declared_sampler & (1u << num)) == 0)
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a sampler is used without its declaration", at);
        return true;
    case K_SRC_BOOL:
        if (!((type == R_CONSTBOOL && num < 16) || (type == R_PREDICATE && num == 0)))
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "if needs a boolean constant or the predicate", at);
        return true;
    case K_SRC_INT:
        if (type != R_CONSTINT || num >= 16) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a loop count is not an integer constant", at);
        return true;
    case K_SRC_AL:
        if (type != R_LOOP || num != 0) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "loop needs aL", at);
        return true;
    case K_SRC_PRED:
        if (type != R_PREDICATE || num != 0 || !replicate(tok))
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "breakp needs one component of the predicate", at);
        return true;
    default: break;
    }
    /* Direct3D 9 reads i# only in loop and rep and b# only in if (the cases above); MojoShader's
       front end takes them as any source and its SPIR-V back end then asserts (mov r0, i0) */
    if (!dst && (type == R_CONSTINT || type == R_CONSTBOOL))
        return fail(w, XGD_ERROR_INVALID_ARGUMENT,
                    "an integer or boolean constant is read outside loop, rep and if", at);
    if (type == R_LOOP && !dst) {
        if (num != 0 || loop_depth == 0)
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "aL is read outside loop..endloop", at);
        return true;
    }
    uint32_t bit = num < 32 ? 1u << num : 0;
    uint32_t declared = type == R_INPUT ? w->declared_input
                        : type == R_ADDR_TEXTURE && w->pixel ? w->declared_texture
                        : type == R_OUTPUT && w->major >= 3 ? w->declared_output
                        : type == R_MISCTYPE ? w->declared_misc
                                             : 0xffffffffu;
    /* registers without declarations (constants, temporaries, ...) may be numbered past 31
       (vs_2_0 reads c0..c255); their range is the limit below */
    if (declared != 0xffffffffu && (declared & bit) == 0)
        return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a register is used without its declaration", at);
    int limit = reg_limit(w, type, dst);
    if (dst && type == R_ADDR_TEXTURE && !w->pixel && opcode == 46) limit = 1;
    if (dst && type == R_PREDICATE && opcode != 94) limit = 0;
    if (type == R_SAMPLER || num >= limit)
        return fail(w, XGD_ERROR_INVALID_ARGUMENT, dst ? "a destination register is not one this shader can write"
                                                      : "a source register is not one this shader can read", at);
    if (dst) {
        unsigned mask = (tok >> 16) & 0xfu, mods = (tok >> 20) & 0xfu, shift = (tok >> 24) & 0xfu;
        if (mask == 0) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a destination writes no component", at);
        if ((mods & ~1u) != 0 || shift != 0) /* saturate only: no partial precision, centroid, shift */
            return fail(w, XGD_ERROR_NOT_SUPPORTED, "a destination modifier other than _sat", at);
        bool scalar = type == R_DEPTHOUT || (type == R_RASTOUT && num > 0) || type == R_ADDR_TEXTURE;
        if (scalar && mask != 1 && !(type == R_ADDR_TEXTURE && mask == 1))
            return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a scalar destination writes more than .x", at);
        if ((opcode == 20 || opcode == 22) && mask != 0xf)
            return fail(w, XGD_ERROR_NOT_SUPPORTED, "m4x4 / m3x4 must write .xyzw", at);
        if ((opcode == 21 || opcode == 23) && mask != 0x7)
            return fail(w, XGD_ERROR_NOT_SUPPORTED, "m4x3 / m3x3 must write .xyz", at);
    } else {
        unsigned mod = (tok >> 24) & 0xfu;
        if (mod > 13) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "an unknown source modifier", at);
        /* ifc and breakc compare one component of each source, directly addressed: MojoShader
           refuses other forms but translates the rest, and an ifc it dropped leaves its
           else / endif without a block (its SPIR-V back end asserts) */
        if ((opcode == 41 || opcode == 45) && (!replicate(tok) || (tok & (1u << 13))))
            return fail(w, XGD_ERROR_INVALID_ARGUMENT,
                        "ifc / breakc compare one component (replicate swizzle, no relative address)", at);
    }
    return true;
}

static bool check_dcl(walker *w, size_t end)
{
    if (end - w->pos != 2) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "dcl needs two tokens", w->pos);
    uint32_t usage = w->t[w->pos], reg = w->t[w->pos + 1];
    size_t at = w->pos;
    w->pos += 2;
    int type = reg_type(reg), num = reg_num(reg);
    if ((reg & 0x80000000u) == 0) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a dcl register token lacks bit 31", at);
    /* declarations come before every instruction (the bytecode's rule; MojoShader drops a
       later one and then reads its register undeclared) */
    if (w->instructions) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a declaration follows an instruction", at);
    if (reg & RESERVED_BITS) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a dcl register token sets reserved bits 14-15", at);
    /* the usage token: bit 31, then only usage and index (or a sampler's texture type) */
    uint32_t allowed = type == R_SAMPLER ? 0xf8000000u : 0x800f001fu;
    if ((usage & 0x80000000u) == 0 || (usage & ~allowed) != 0 || (reg & (1u << 13)) ||
        ((reg >> 20) & 0xfu) > 1 || ((reg >> 24) & 0xfu) != 0)
        return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a dcl token is malformed", at);
    if (type == R_SAMPLER) {
        unsigned kind = (usage >> 27) & 0xfu; /* 2 = 2D, 3 = cube, 4 = volume */
        if (!w->pixel) return fail(w, XGD_ERROR_NOT_SUPPORTED, "vertex shader samplers (vertex texture fetch) are not supported", at);
        if (num >= 16 || kind < 2 || kind > 4) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a sampler declaration is malformed", at);
        if (w->declared_sampler & (1u << num)) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a sampler is declared twice", at);
        w->declared_sampler |= 1u << num;
        if (kind == 2) w->declared_sampler_2d |= 1u << num;
        return true;
    }
    unsigned u = usage & 0x1fu, index = (usage >> 16) & 0xfu;
    /* ps_2_x inputs (v#, t#) carry no usage: colour and texture coordinate are implied */
    if (w->pixel && w->major < 3 && usage != 0x80000000u)
        return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a ps_2_x input declaration has a usage", at);
    if (u > 13 || index > 15) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a declaration has an unknown usage", at);
    /* vPos and vFace carry no usage; vFace is declared whole, without a modifier */
    if (type == R_MISCTYPE && (usage != 0x80000000u || (num == 1 && (reg & 0x00ff0000u) != 0x000f0000u)))
        return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a vPos / vFace declaration is malformed", at);
    bool ok = (type == R_INPUT && num < (w->pixel ? (w->major >= 3 ? 10 : 2) : 16)) ||
              (w->pixel && w->major < 3 && type == R_ADDR_TEXTURE && num < 8) ||
              (!w->pixel && w->major >= 3 && type == R_OUTPUT && num < 12) ||
              (w->pixel && w->major >= 3 && type == R_MISCTYPE && num < 2);
    if (!ok) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a declaration names a register it cannot declare", at);
    uint32_t *set = type == R_INPUT ? &w->declared_input : type == R_ADDR_TEXTURE ? &w->declared_texture
                  : type == R_OUTPUT ? &w->declared_output : &w->declared_misc;
    if (*set & (1u << num)) return fail(w, XGD_ERROR_INVALID_ARGUMENT, "a register is declared twice", at);
    *set |= 1u << num;
    if (w->info != NULL && w->info->decl_count < 64)
        w->info->decls[w->info->decl_count++] = (xgdi_d3d9_decl){ (uint8_t)type, (uint8_t)num, (uint8_t)u,
                                                                  (uint8_t)index };
    return true;
}


/* ---- the constant table (CTAB comment) ----------------------------------------------------- */

/* A NUL-terminated string at offset off of the table's `bytes` bytes. */
static bool ctab_string(const uint8_t *start, uint32_t bytes, uint32_t off)
{
    return off < bytes && memchr(start + off, 0, bytes - off) != NULL;
}

static uint16_t rd16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* A type description (D3DXSHADER_TYPEINFO) and its struct members, as MojoShader reads them:
 * class, type, rows, columns, elements, member count (16-bit each) and the members' offset,
 * of which MojoShader reads the low 16 bits. */
static bool ctab_type(const uint8_t *start, uint32_t bytes, uint32_t pos, int depth)
{
    if (depth > 4 || pos >= bytes || bytes - pos < 16) return false;
    const uint8_t *t = start + pos;
    if (rd16(t) > 5 || rd16(t + 2) > 19) return false;
    uint32_t members = rd16(t + 10), table = rd16(t + 12);
    if ((uint64_t)pos + 16 + (uint64_t)members * 8 >= bytes) return false;
    if (members > 0 && ((uint64_t)table + (uint64_t)members * 8 > bytes)) return false;
    for (uint32_t i = 0; i < members; i++) {
        const uint8_t *m = start + table + 8 * i;
        if (!ctab_string(start, bytes, rd32(m)) || !ctab_type(start, bytes, rd32(m + 4), depth + 1)) return false;
    }
    return true;
}

/* MojoShader parses the constant table without bounds on some offsets and leaks what it
 * allocated when it finds the table corrupt, so only a table that passes this check (every
 * field MojoShader reads, inside the table) reaches it. */
static bool ctab_ok(const uint8_t *start, uint32_t bytes, uint32_t version)
{
    if (bytes < 32) return false;
    uint32_t size = rd32(start), creator = rd32(start + 4), ver = rd32(start + 8), constants = rd32(start + 12);
    uint32_t info = rd32(start + 16), target = rd32(start + 24);
    if (size != 28 || ver != version || creator >= bytes || info >= bytes || target >= bytes) return false;
    if (constants > (bytes - info) / 20 || !ctab_string(start, bytes, target)) return false;
    for (uint32_t i = 0; i < constants; i++) {
        const uint8_t *c = start + info + 20 * i;
        if (!ctab_string(start, bytes, rd32(c)) || rd32(c + 16) >= bytes || rd16(c + 4) > 3) return false;
        if (!ctab_type(start, bytes, rd32(c + 12), 0)) return false;
    }
    return true;
}

xgd_result xgdi_d3d9_check(const void *bytes, size_t size, xgdi_d3d9_info *info, char *err,
                           size_t err_cap)
{
    walker w = { 0 };
    w.info = info;
    if (info != NULL) info->decl_count = 0;
    w.t = bytes;
    w.n = size / 4;
    w.err = err;
    w.err_cap = err_cap;
    err[0] = '\0';
    if (size % 4 != 0 || w.n < 2) {
        fail(&w, XGD_ERROR_INVALID_ARGUMENT, "the shader is truncated", 0);
        return w.code;
    }
    uint32_t version = w.t[0];
    w.pixel = (version >> 16) == 0xffffu;
    w.major = (int)((version >> 8) & 0xffu);
    w.minor = (int)(version & 0xffu);
    if (!w.pixel && (version >> 16) != 0xfffeu) {
        fail(&w, XGD_ERROR_INVALID_ARGUMENT, "no vertex or pixel shader version token", 0);
        return w.code;
    }
    if (w.major < 2 || w.major > 3 || (w.major == 3 && w.minor != 0) || (w.major == 2 && w.minor > 1)) {
        char msg[96];
        snprintf(msg, sizeof msg, "shader model %s_%d_%d is not supported (2.0 to 3.0 are)", w.pixel ? "ps" : "vs",
                 w.major, w.minor);
        fail(&w, XGD_ERROR_NOT_SUPPORTED, msg, 0);
        return w.code;
    }
    w.pos = 1;
    char stack[32];
    int depth = 0, loops = 0, else_seen = 0, ctab_seen = 0;
    bool ended = false, declared = false, works = false;
    while (w.pos < w.n && !ended) {
        size_t at = w.pos;
        uint32_t tok = w.t[w.pos++];
        uint32_t opcode = tok & 0xffffu;
        if (opcode == 0xfffeu) { /* comment: its length in DWORDs follows in bits 16..30 */
            size_t len = (tok >> 16) & 0x7fffu;
            if (len > w.n - w.pos) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "a comment runs past the end", at), w.code;
            if (len >= 1 && w.t[w.pos] == 0x42415443u) { /* "CTAB" */
                if (ctab_seen++ || !ctab_ok((const uint8_t *)(w.t + w.pos + 1), (uint32_t)(len - 1) * 4, version))
                    return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "the shader's constant table is corrupt", at), w.code;
            }
            w.pos += len;
            continue;
        }
        if (tok == 0x0000ffffu) {
            ended = true;
            break;
        }
        if (tok & 0x80000000u) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "an instruction token has bit 31 set", at), w.code;
        if (tok & (1u << 30)) return fail(&w, XGD_ERROR_NOT_SUPPORTED, "co-issued instructions (ps_1_x) are not supported", at), w.code;
        if (tok & (1u << 28)) return fail(&w, XGD_ERROR_NOT_SUPPORTED, "predicated instructions are not supported", at), w.code;
        size_t len = (tok >> 24) & 0xfu;
        if (len > w.n - w.pos) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "an instruction runs past the end", at), w.code;
        size_t end = w.pos + len;
        if (opcode == 31) { /* dcl */
            if (!check_dcl(&w, end)) return w.code;
            declared = true;
            continue;
        }
        if (opcode == 81 || opcode == 48 || opcode == 47) { /* def, defi, defb */
            size_t want = opcode == 47 ? 2 : 5;
            uint32_t reg = len >= 1 ? w.t[w.pos] : 0;
            int type = reg_type(reg);
            int need = opcode == 81 ? R_CONST : opcode == 48 ? R_CONSTINT : R_CONSTBOOL;
            if (len != want || (reg & 0x80000000u) == 0 || type != need ||
                reg_num(reg) >= (opcode == 81 ? 256 : 16) || (reg & (1u << 13)))
                return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "a constant definition is malformed", at), w.code;
            w.pos = end;
            works = true;
            continue;
        }
        const op_info *op = NULL;
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (ops[i].opcode == opcode) op = &ops[i];
        if (op == NULL) {
            char msg[80];
            snprintf(msg, sizeof msg, "instruction %u is not supported", (unsigned)opcode);
            return fail(&w, XGD_ERROR_NOT_SUPPORTED, msg, at), w.code;
        }
        bool tex = opcode == 65 || opcode == 66 || opcode == 93 || opcode == 95 || opcode == 91 || opcode == 92;
        if (tex && !w.pixel && opcode != 95) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "a pixel instruction in a vertex shader", at), w.code;
        if (opcode == 95 && !w.pixel) return fail(&w, XGD_ERROR_NOT_SUPPORTED, "vertex texture fetch is not supported", at), w.code;
        if (opcode == 46 && w.pixel) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "mova in a pixel shader", at), w.code;
        /* texldp on a 2D texture runs (the shader form makes SPIR-V divide by w, as Direct3D 9
           does); texldp on cube and volume textures and texldb are not supported */
        if (opcode == 66 && ((tok >> 16) & 0xffu) != 0 &&
            (((tok >> 16) & 0xffu) != 1 || end <= w.pos ||
             !(w.declared_sampler_2d >> (reg_num(w.t[end - 1]) & 31) & 1u)))
            return fail(&w, XGD_ERROR_NOT_SUPPORTED,
                        "texldb, and texldp on a cube or volume texture, are not supported", at), w.code;
        w.instructions = true;
        if (opcode != 0) works = true; /* nop does nothing */
        for (int k = 0; k < 5 && op->kinds[k] != K_NONE; k++)
            if (!operand(&w, end, op->kinds[k], (int)opcode, loops)) return w.code;
        if (w.pos != end) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "an instruction has extra operands", at), w.code;
        /* flow control nests as the blocks it opens */
        char open = opcode == 40 || opcode == 41 ? 'i' : opcode == 27 ? 'l' : opcode == 38 ? 'r' : 0;
        if (open) {
            if (depth == (int)sizeof stack) return fail(&w, XGD_ERROR_NOT_SUPPORTED, "flow control nests too deep", at), w.code;
            stack[depth++] = open;
            else_seen &= ~(1 << depth);
            if (open == 'l') loops++;
        } else if (opcode == 42) {
            if (depth == 0 || stack[depth - 1] != 'i' || (else_seen & (1 << depth)))
                return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "else without if", at), w.code;
            else_seen |= 1 << depth;
        } else if (opcode == 43 || opcode == 29 || opcode == 39) {
            char want = opcode == 43 ? 'i' : opcode == 29 ? 'l' : 'r';
            if (depth == 0 || stack[depth - 1] != want)
                return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "a block ends that did not begin", at), w.code;
            else_seen &= ~(1 << depth);
            depth--;
            if (want == 'l') loops--;
        } else if (opcode == 44 || opcode == 45 || opcode == 96) {
            bool in_loop = false;
            for (int i = 0; i < depth; i++) in_loop = in_loop || stack[i] != 'i';
            if (!in_loop) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "break outside a loop", at), w.code;
        }
    }
    if (!ended) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "the shader has no end token", w.pos), w.code;
    if (depth != 0) return fail(&w, XGD_ERROR_INVALID_ARGUMENT, "a flow-control block is not closed", w.pos), w.code;
    /* MojoShader's SPIR-V back end asserts on a shader that declares registers and then does
       nothing (no instruction but nop, no def): its front end accepts it. Measured
       over vs/ps 2.0 and 3.0, input, output and texture-coordinate declarations; no real
       shader has that shape, so every such shader is refused */
    if (declared && !works)
        return fail(&w, XGD_ERROR_NOT_SUPPORTED, "a shader that declares registers but has no instructions", 1),
               w.code;
    return XGD_OK;
}
