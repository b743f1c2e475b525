/*
 * fx.c - XNA's Effect for effects loaded from bytes: fx_2_0 containers parsed by MojoShader
 * (libmojoshader-dev), their shaders turned into the shader form of renderer.h, parameters,
 * annotations, techniques and passes, and EffectPass.Apply.
 *
 * MojoShader's effect parser trusts its input (offsets, counts and object indices are followed
 * unchecked), so every container is first walked here exactly as MojoShader will walk it, with
 * every offset, count and index bounded by the bytes; only a container that passes goes to
 * MOJOSHADER_compileEffect. Its shader callbacks carry no user pointer, so the context of the
 * call in progress is a thread-local (fx_tls) set around every MojoShader call.
 *
 * Everything past load reads xgd's own table of the effect (fx_table.h), which both effect
 * kinds fill: fx_2_0 by translating MojoShader's effect once (only the validator, the shader
 * parse, the load and MojoShader's commit at apply need MojoShader), .xfx and HLSL effects
 * directly (fx_hlsl.inc), so builds without MojoShader still load .xfx effects.
 *
 * Parameter values live in value arrays (for fx_2_0 MojoShader's own, as its effect runtime
 * reads them at commit): one 4-wide slot (floats or ints) per row of a scalar, vector or
 * matrix, so element e of an R-row parameter starts at slot e * R; a row_major matrix keeps
 * row r in slot r, a column_major one keeps column c in slot c (the register layout of each
 * packing). Struct members follow each other, each taking 4 x rows x max(1, elements) values.
 */
#include "fx.h"
#include "d3d9_check.h"
#include "fx_table.h"
#include "spirv_form.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_MOJOSHADER
#define MOJOSHADER_EFFECT_SUPPORT
#include <mojoshader/mojoshader.h>
#include <mojoshader/mojoshader_effects.h>
#endif

#define FX_MAX_NODES (1 << 20)
#define FX_MAX_ELEMENTS 65536
#define FX_SAMPLER_CACHE 32

typedef struct fx_node {
    const char *name, *semantic;
    xgd_effect_parameter_class cls;
    xgd_effect_parameter_type type;
    int rows, columns, elements, members;
    bool col_major;
    bool annotation;
    int first_child;            /* elements or members, contiguous ids */
    int anno_first, anno_count; /* ids of annotation nodes */
    xgdi_fx_value *value;
    uint32_t offset;            /* into value's array (4-byte units) */
} fx_node;

typedef struct fx_shader fx_shader;

/* techniques and passes in xgd's own form, which both effect kinds (fx_2_0 through MojoShader,
   .xfx) fill at load, so the public technique and pass API reads no MojoShader structure;
   names point into the effect's own tables and live as long as it */
typedef struct fx_pass {
    const char *name;           /* NULL when unnamed */
    int anno_first, anno_count; /* annotation node ids */
    fx_shader *vs, *ps;         /* the pass's shaders; vs NULL: pixel-shader-only pass */
    const xgdi_fx_pass *src;    /* its render states */
} fx_pass;

typedef struct fx_technique {
    const char *name;           /* NULL when unnamed */
    fx_pass *passes;
    int pass_count;
    int anno_first, anno_count;
} fx_technique;

typedef struct fx_texref {
    xgd_texture *handle;        /* the public handle set, checked through ref */
    xgdi_ref ref;
} fx_texref;

struct xgdi_fx {
    uint8_t *bytes;             /* the container as given (for clones) */
    size_t size;
#ifdef XGD_HAVE_MOJOSHADER
    MOJOSHADER_effect *effect;
    void *arena;                /* fx_arena of everything MojoShader allocated for it */
#endif
    xgdi_fx_table table;        /* what the effect holds, in xgd's own form (fx_table.h) */
    fx_node *nodes;
    int node_count, node_cap;
    int *pub;                   /* node ids of the visible top-level parameters */
    int pub_count;
    fx_technique *techs;
    int tech_count;
    int current_technique;
    fx_shader **shaders;        /* every shader object, for natives */
    int shader_count;
    fx_texref *textures;        /* per effect object index */
    int object_count;
    /* register files MojoShader's commit writes (vertex, pixel) */
    float vs_f[XGDI_SHADER_MAX_REGISTERS * 4], ps_f[XGDI_SHADER_MAX_REGISTERS * 4];
    int vs_i[XGDI_SHADER_MAX_REGISTERS * 4], ps_i[XGDI_SHADER_MAX_REGISTERS * 4];
    unsigned char vs_b[XGDI_SHADER_MAX_REGISTERS], ps_b[XGDI_SHADER_MAX_REGISTERS];
    /* the packed blocks of the last apply */
    float vs_pack[(XGDI_SHADER_MAX_REGISTERS + 1) * 4], ps_pack[XGDI_SHADER_MAX_REGISTERS * 4];
    struct {
        xgd_sampler_desc desc;
        xgd_sampler_state *state;
    } samplers[FX_SAMPLER_CACHE];
    int sampler_count;
    /* state objects the passes' render states made (created once per distinct desc) */
    struct {
        xgd_blend_state_desc desc;
        xgd_blend_state *state;
    } blends[8];
    struct {
        xgd_depth_stencil_desc desc;
        xgd_depth_stencil_state *state;
    } depths[8];
    struct {
        xgd_rasterizer_desc desc;
        xgd_rasterizer_state *state;
    } rasters[8];
    int blend_count, depth_count, raster_count;
    struct fx_hlsl *hlsl;       /* HLSL / .xfx effects (fx_hlsl.inc); NULL for fx_2_0 */
    /* the parameters' values as loaded, in table order (derived effects, whose body is reused
       after the effect is destroyed: xgdi_fx_keep_defaults, xgdi_fx_reset) */
    uint32_t *defaults;
};

struct fx_shader {
    int refs;
#ifdef XGD_HAVE_MOJOSHADER
    void *arena;                /* fx_arena of its parse data */
#endif
    xgdi_shader_stage stage;
#ifdef XGD_HAVE_MOJOSHADER
    const MOJOSHADER_parseData *pd;
    MOJOSHADER_parseData fail_pd; /* what MojoShader sees for a shader refused here */
    MOJOSHADER_error fail_error;
#endif
    bool failed;
    char message[192];
    uint32_t *code;             /* the shader form; HLSL / .xfx: NULL until its first apply */
    size_t words;
    /* HLSL / .xfx: glslang's module (the effect's program owns it), checked at load and
       rewritten into code at the first apply of a pass that uses it (fx_hlsl.inc) */
    const uint32_t *source;
    size_t source_words;
    uint32_t block_bytes;
    const char *entry;
    int constant_count;
    uint16_t registers[XGDI_SHADER_MAX_REGISTERS + 1];
    xgdi_shader_input inputs[XGDI_SHADER_MAX_INPUTS];
    int input_count;
    xgdi_sampler_kind sampler_kinds[XGDI_SHADER_MAX_SAMPLERS];
    uint32_t color_outputs;
    xgdi_d3d9_info decls;       /* the bytecode's own declarations (usages MojoShader drops) */
    xgdi_native_shader *native;
};

static xgd_result fx_fail(xgd_device *dev, xgd_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static xgd_result fx_fail(xgd_device *dev, xgd_result code, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return xgdi_fail(dev, code, "%s", msg);
}

static void shader_release(fx_shader *s);

#ifdef XGD_HAVE_MOJOSHADER


/* ---- MojoShader's memory ------------------------------------------------------------------- */

/* Everything MojoShader allocates for an effect or a shader comes from an arena that tracks
 * its blocks: MojoShader leaks some allocations on its error paths (and a texture object's
 * name always), so whatever is still live when the effect or the shader's parse data has been
 * freed is freed here. The arena also bounds what one effect may make MojoShader allocate. */
#define FX_ARENA_LIMIT ((size_t)256 << 20)

typedef struct fx_link {
    struct fx_link *prev, *next;
} fx_link;

typedef struct fx_block {
    fx_link link;            /* first: a block is found from its link */
    size_t size;
    max_align_t align[];     /* the caller's bytes follow, aligned */
} fx_block;

typedef struct fx_arena {
    fx_link head;            /* circular list of the live blocks */
    size_t bytes;
} fx_arena;

static void arena_init(fx_arena *a)
{
    a->head.prev = a->head.next = &a->head;
    a->bytes = 0;
}

static void *MOJOSHADERCALL arena_malloc(int bytes, void *data)
{
    fx_arena *a = data;
    if (bytes < 0 || (size_t)bytes > FX_ARENA_LIMIT - a->bytes) return NULL;
    /* zeroed: anything MojoShader reads of a block it did not fill (a half-parsed effect it frees)
       is then the same every time, not earlier heap contents */
    fx_block *b = calloc(1, sizeof *b + (size_t)bytes);
    if (b == NULL) return NULL;
    b->size = (size_t)bytes;
    b->link.next = a->head.next;
    b->link.prev = &a->head;
    a->head.next->prev = &b->link;
    a->head.next = &b->link;
    a->bytes += b->size;
    return b->align;
}

static void MOJOSHADERCALL arena_free(void *ptr, void *data)
{
    fx_arena *a = data;
    if (ptr == NULL) return;
    fx_block *b = (fx_block *)(void *)((char *)ptr - offsetof(fx_block, align));
    b->link.prev->next = b->link.next;
    b->link.next->prev = b->link.prev;
    a->bytes -= b->size;
    free(b);
}

static void arena_release_all(fx_arena *a)
{
    while (a->head.next != &a->head) arena_free(((fx_block *)(void *)a->head.next)->align, a);
}

/* ---- the container walk ------------------------------------------------------------------- */

/* What the walk learns that later checks need: per parameter its kind and size, per sampler
 * state and pass state the object its value names. */
typedef struct fxv_param {
    uint32_t name_off;
    uint32_t type, cls;
    uint32_t value_count;       /* 4-byte values MojoShader allocates (scalar classes, structs) */
    uint32_t sampler_states;    /* sampler parameters */
    uint32_t *state_object;     /* per sampler state: object of its value, or UINT32_MAX */
} fxv_param;

typedef struct fxv {
    const uint8_t *base;
    uint32_t len;
    uint32_t numobjects;
    uint8_t *obj_type;
    uint8_t *obj_defined;       /* an object's data came (MojoShader would leak a second) */
    fxv_param *params;
    uint32_t numparams;
    uint32_t ***pass_state_object; /* [technique][pass][state]: the object a state names */
    uint32_t *tech_pass_count;
    uint32_t **pass_state_count;
    uint32_t numtechniques;
    xgd_result code;
    char msg[256];
} fxv;

static bool vfail(fxv *v, xgd_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static bool vfail(fxv *v, xgd_result code, const char *fmt, ...)
{
    if (v->code == XGD_OK) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(v->msg, sizeof v->msg, fmt, ap);
        va_end(ap);
        v->code = code;
    }
    return false;
}

static bool rd(fxv *v, uint32_t off, uint32_t *out)
{
    *out = 0;
    if (off > v->len || v->len - off < 4)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect is truncated: offset %u is past its end",
                     off);
    memcpy(out, v->base + off, 4);
    return true;
}

static bool check_string(fxv *v, uint32_t off, bool required, const char *what)
{
    uint32_t n;
    if (!rd(v, off, &n)) return false;
    if (n == 0) {
        if (required) return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has no name", what);
        return true;
    }
    if (v->len - off - 4 < n)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s name runs past the end", what);
    if (memchr(v->base + off + 4, 0, n) == NULL)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s name is not terminated", what);
    return true;
}

typedef struct fxv_value {
    uint32_t type, cls, elements;
    uint32_t value_count;
    uint32_t first_object;      /* object classes: the first object index; else UINT32_MAX */
    uint32_t sampler_states;
    uint32_t *state_object;     /* sampler values (malloc'd; the caller keeps or frees) */
} fxv_value;

static bool is_sampler_type(uint32_t t)
{
    return t >= MOJOSHADER_SYMTYPE_SAMPLER && t <= MOJOSHADER_SYMTYPE_SAMPLERCUBE;
}

static bool is_texture_type(uint32_t t)
{
    return t >= MOJOSHADER_SYMTYPE_TEXTURE && t <= MOJOSHADER_SYMTYPE_TEXTURECUBE;
}

static bool check_value_in(fxv *v, uint32_t typeoff, uint32_t valoff, int depth, bool name_required,
                           const char *what, fxv_value *out);

/* One value as MojoShader's readvalue reads it (type at typeoff, data at valoff); on failure
 * nothing stays allocated. */
static bool check_value(fxv *v, uint32_t typeoff, uint32_t valoff, int depth, bool name_required,
                        const char *what, fxv_value *out)
{
    if (check_value_in(v, typeoff, valoff, depth, name_required, what, out)) return true;
    free(out->state_object);
    out->state_object = NULL;
    return false;
}

static bool check_value_in(fxv *v, uint32_t typeoff, uint32_t valoff, int depth, bool name_required,
                           const char *what, fxv_value *out)
{
    memset(out, 0, sizeof *out);
    out->first_object = UINT32_MAX;
    uint32_t type, cls, name, sem, elements;
    if (!rd(v, typeoff, &type) || !rd(v, typeoff + 4, &cls) || !rd(v, typeoff + 8, &name) ||
        !rd(v, typeoff + 12, &sem) || !rd(v, typeoff + 16, &elements))
        return false;
    if (!check_string(v, name, name_required, what) || !check_string(v, sem, false, what))
        return false;
    if (elements > FX_MAX_ELEMENTS)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has %u elements", what, elements);
    out->type = type;
    out->cls = cls;
    out->elements = elements;
    uint32_t n = elements > 0 ? elements : 1;
    if (cls <= MOJOSHADER_SYMCLASS_MATRIX_COLUMNS) {
        if (type < MOJOSHADER_SYMTYPE_BOOL || type > MOJOSHADER_SYMTYPE_FLOAT)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has type %u in a numeric class",
                         what, type);
        uint32_t cols, rows;
        if (!rd(v, typeoff + 20, &cols) || !rd(v, typeoff + 24, &rows)) return false;
        if (rows < 1 || rows > 4 || cols < 1 || cols > 4)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s is %u x %u", what, rows, cols);
        uint64_t bytes = (uint64_t)rows * n * cols * 4;
        if (valoff > v->len || v->len - valoff < bytes)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s value runs past the end", what);
        out->value_count = 4 * rows * n;
        return true;
    }
    if (cls == MOJOSHADER_SYMCLASS_OBJECT) {
        if (type < MOJOSHADER_SYMTYPE_STRING || type > MOJOSHADER_SYMTYPE_VERTEXSHADER)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has object type %u", what, type);
        if (is_sampler_type(type)) {
            if (depth > 0)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s nests a sampler", what);
            uint32_t count;
            if (!rd(v, valoff, &count)) return false;
            if (count > (v->len - valoff - 4) / 16)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has too many states", what);
            out->sampler_states = count;
            out->state_object = malloc(sizeof(uint32_t) * (count ? count : 1));
            if (out->state_object == NULL)
                return vfail(v, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
            for (uint32_t i = 0; i < count; i++) {
                uint32_t st, unk, to, vo;
                uint32_t at = valoff + 4 + 16 * i;
                if (!rd(v, at, &st) || !rd(v, at + 4, &unk) || !rd(v, at + 8, &to) || !rd(v, at + 12, &vo))
                    return false;
                st &= ~0xA0u;
                if (st > MOJOSHADER_SAMP_DMAPOFFSET)
                    return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has sampler state %u",
                                 what, st);
                fxv_value sv;
                if (!check_value(v, to, vo, depth + 1, false, what, &sv)) return false;
                free(sv.state_object);
                out->state_object[i] = UINT32_MAX;
                if (st == MOJOSHADER_SAMP_TEXTURE) {
                    if (sv.cls != MOJOSHADER_SYMCLASS_OBJECT || !is_texture_type(sv.type))
                        return vfail(v, XGD_ERROR_INVALID_ARGUMENT,
                                     "the effect's %s names a texture that is not one", what);
                    v->obj_type[sv.first_object] = (uint8_t)type;
                    out->state_object[i] = sv.first_object;
                } else if (sv.cls > MOJOSHADER_SYMCLASS_MATRIX_COLUMNS) {
                    return vfail(v, XGD_ERROR_INVALID_ARGUMENT,
                                 "the effect's %s has a sampler state that is not a number", what);
                }
            }
            out->value_count = count;
            return true;
        }
        if (valoff > v->len || (v->len - valoff) / 4 < n)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s value runs past the end", what);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t idx;
            memcpy(&idx, v->base + valoff + 4 * i, 4);
            if (idx >= v->numobjects)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s names object %u of %u",
                             what, idx, v->numobjects);
            v->obj_type[idx] = (uint8_t)type;
            if (i == 0) out->first_object = idx;
        }
        out->value_count = n;
        return true;
    }
    if (cls == MOJOSHADER_SYMCLASS_STRUCT) {
        /* MojoShader frees any value of a sampler type as sampler states, whatever its class */
        if (is_sampler_type(type))
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s is a struct of sampler type %u", what,
                         type);
        uint32_t members;
        if (!rd(v, typeoff + 20, &members)) return false;
        if (members == 0 || members > 256)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s struct has %u members", what,
                         members);
        if (elements > 4096)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s struct array has %u elements",
                         what, elements);
        uint64_t size = 0, read = 0;
        for (uint32_t m = 0; m < members; m++) {
            uint32_t at = typeoff + 24 + 28 * m, mt, mc, mn, ms, me, mcol, mrow;
            if (!rd(v, at, &mt) || !rd(v, at + 4, &mc) || !rd(v, at + 8, &mn) || !rd(v, at + 12, &ms) ||
                !rd(v, at + 16, &me) || !rd(v, at + 20, &mcol) || !rd(v, at + 24, &mrow))
                return false;
            if (mc > MOJOSHADER_SYMCLASS_MATRIX_COLUMNS)
                return vfail(v, XGD_ERROR_NOT_SUPPORTED,
                             "the effect's %s struct has a member that is not a number (nested "
                             "structs are not supported)", what);
            if (mt < MOJOSHADER_SYMTYPE_BOOL || mt > MOJOSHADER_SYMTYPE_FLOAT || mrow < 1 || mrow > 4 ||
                mcol < 1 || mcol > 4 || me > FX_MAX_ELEMENTS)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s struct has a bad member",
                             what);
            if (!check_string(v, mn, true, what)) return false;
            size += 4ull * mrow * (me ? me : 1);
            read += (uint64_t)mrow * me * mcol * 4;
        }
        uint64_t data = typeoff + 24ull + 28ull * members;
        if (data > v->len || v->len - data < read * n)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s struct values run past the end",
                         what);
        if (size * n > (1u << 24))
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s struct is too large", what);
        out->value_count = (uint32_t)(size * n);
        return true;
    }
    return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has class %u", what, cls);
}

static bool check_annotations(fxv *v, uint32_t *pos, uint32_t count, const char *what)
{
    if (count > (v->len - *pos) / 8)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's %s has too many annotations", what);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t to, vo;
        if (!rd(v, *pos, &to) || !rd(v, *pos + 4, &vo)) return false;
        *pos += 8;
        fxv_value val;
        if (!check_value(v, to, vo, 1, false, "annotation", &val)) return false;
        free(val.state_object);
        if (val.cls == MOJOSHADER_SYMCLASS_OBJECT && val.type != MOJOSHADER_SYMTYPE_STRING)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "an annotation of the effect's %s is an object",
                         what);
    }
    return true;
}

static void fxv_free(fxv *v)
{
    free(v->obj_type);
    free(v->obj_defined);
    for (uint32_t i = 0; i < v->numparams && v->params; i++) free(v->params[i].state_object);
    free(v->params);
    for (uint32_t t = 0; t < v->numtechniques && v->pass_state_object; t++) {
        for (uint32_t p = 0; p < v->tech_pass_count[t]; p++)
            free(v->pass_state_object[t][p]);
        free(v->pass_state_object[t]);
        free(v->pass_state_count[t]);
    }
    free(v->pass_state_object);
    free(v->pass_state_count);
    free(v->tech_pass_count);
}

/* Walks the container (base: after the 8-byte header) as MOJOSHADER_compileEffect will. */
static bool walk(fxv *v, uint32_t start)
{
    uint32_t pos = start, numparams, numtech, unk, numobjects;
    if (!rd(v, pos, &numparams) || !rd(v, pos + 4, &numtech) || !rd(v, pos + 8, &unk) ||
        !rd(v, pos + 12, &numobjects))
        return false;
    pos += 16;
    uint32_t rest = v->len - pos;
    if (numparams > rest / 16 || numtech > rest / 12 || numobjects > v->len)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect's counts (%u parameters, %u techniques, "
                     "%u objects) exceed its size", numparams, numtech, numobjects);
    if (numtech == 0) return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect has no technique");
    v->numobjects = numobjects;
    v->obj_type = calloc(numobjects ? numobjects : 1, 1);
    v->obj_defined = calloc(numobjects ? numobjects : 1, 1);
    v->params = calloc(numparams ? numparams : 1, sizeof *v->params);
    v->tech_pass_count = calloc(numtech, sizeof *v->tech_pass_count);
    v->pass_state_object = calloc(numtech, sizeof *v->pass_state_object);
    v->pass_state_count = calloc(numtech, sizeof *v->pass_state_count);
    if (!v->obj_type || !v->obj_defined || !v->params || !v->tech_pass_count || !v->pass_state_object || !v->pass_state_count)
        return vfail(v, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    v->numparams = numparams;
    v->numtechniques = numtech;
    for (uint32_t i = 0; i < numparams; i++) {
        uint32_t to, vo, flags, annos;
        if (!rd(v, pos, &to) || !rd(v, pos + 4, &vo) || !rd(v, pos + 8, &flags) || !rd(v, pos + 12, &annos))
            return false;
        pos += 16;
        if (!check_annotations(v, &pos, annos, "parameter")) return false;
        fxv_value val;
        if (!check_value(v, to, vo, 0, true, "parameter", &val)) return false;
        v->params[i].type = val.type;
        v->params[i].cls = val.cls;
        v->params[i].value_count = val.value_count;
        v->params[i].sampler_states = val.sampler_states;
        v->params[i].state_object = val.state_object;
        memcpy(&v->params[i].name_off, v->base + to + 8, 4);
    }
    for (uint32_t t = 0; t < numtech; t++) {
        uint32_t name, annos, passes;
        if (!rd(v, pos, &name) || !rd(v, pos + 4, &annos) || !rd(v, pos + 8, &passes)) return false;
        pos += 12;
        if (!check_string(v, name, false, "technique")) return false;
        if (!check_annotations(v, &pos, annos, "technique")) return false;
        if (passes == 0 || passes > (v->len - pos) / 12)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "technique %u has %u passes", t, passes);
        v->tech_pass_count[t] = passes;
        v->pass_state_object[t] = calloc(passes, sizeof(uint32_t *));
        v->pass_state_count[t] = calloc(passes, sizeof(uint32_t));
        if (!v->pass_state_object[t] || !v->pass_state_count[t])
            return vfail(v, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t p = 0; p < passes; p++) {
            uint32_t pname, pannos, states;
            if (!rd(v, pos, &pname) || !rd(v, pos + 4, &pannos) || !rd(v, pos + 8, &states)) return false;
            pos += 12;
            if (!check_string(v, pname, false, "pass")) return false;
            if (!check_annotations(v, &pos, pannos, "pass")) return false;
            if (states > (v->len - pos) / 16)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "pass %u of technique %u has %u states", p, t,
                             states);
            uint32_t *objs = calloc(states ? states : 1, sizeof *objs);
            if (objs == NULL) return vfail(v, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
            v->pass_state_object[t][p] = objs;
            v->pass_state_count[t][p] = states;
            for (uint32_t s = 0; s < states; s++) {
                uint32_t type, u2, to, vo;
                if (!rd(v, pos, &type) || !rd(v, pos + 4, &u2) || !rd(v, pos + 8, &to) || !rd(v, pos + 12, &vo))
                    return false;
                pos += 16;
                if (type > MOJOSHADER_RS_BLENDOPALPHA && type != MOJOSHADER_RS_VERTEXSHADER &&
                    type != MOJOSHADER_RS_PIXELSHADER)
                    return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "pass %u of technique %u has render state %u",
                                 p, t, type);
                fxv_value val;
                if (!check_value(v, to, vo, 1, false, "pass state", &val)) return false;
                free(val.state_object);
                objs[s] = UINT32_MAX;
                if (type == MOJOSHADER_RS_VERTEXSHADER || type == MOJOSHADER_RS_PIXELSHADER) {
                    uint32_t want = type == MOJOSHADER_RS_VERTEXSHADER ? MOJOSHADER_SYMTYPE_VERTEXSHADER
                                                                       : MOJOSHADER_SYMTYPE_PIXELSHADER;
                    if (val.cls != MOJOSHADER_SYMCLASS_OBJECT || val.type != want)
                        return vfail(v, XGD_ERROR_INVALID_ARGUMENT,
                                     "pass %u of technique %u sets a shader to something else", p, t);
                    objs[s] = val.first_object;
                } else if (val.cls > MOJOSHADER_SYMCLASS_MATRIX_COLUMNS) {
                    return vfail(v, XGD_ERROR_INVALID_ARGUMENT,
                                 "pass %u of technique %u has a render state that is not a number", p, t);
                }
            }
        }
    }
    uint32_t nsmall, nlarge;
    if (!rd(v, pos, &nsmall) || !rd(v, pos + 4, &nlarge)) return false;
    pos += 8;
    if (nsmall > (v->len - pos) / 8)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect has %u small objects", nsmall);
    for (uint32_t i = 0; i < nsmall; i++) {
        uint32_t idx, length;
        if (!rd(v, pos, &idx) || !rd(v, pos + 4, &length)) return false;
        pos += 8;
        if (idx >= numobjects)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "small object %u names object %u of %u", i, idx,
                         numobjects);
        if (length > v->len - pos)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "small object %u runs past the end", i);
        if (v->obj_defined[idx]++)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "object %u is defined twice", idx);
        uint32_t t = v->obj_type[idx];
        if (t == MOJOSHADER_SYMTYPE_STRING || is_texture_type(t) || is_sampler_type(t)) {
            if (length > 0 && memchr(v->base + pos, 0, length) == NULL)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "string object %u is not terminated", idx);
        } else if (t != MOJOSHADER_SYMTYPE_PIXELSHADER && t != MOJOSHADER_SYMTYPE_VERTEXSHADER) {
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "small object %u (object %u) has no known type", i,
                         idx);
        }
        uint32_t block = (length + 3u) & ~3u;
        if (block > v->len - pos) return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "small object %u is cut", i);
        pos += block;
    }
    if (nlarge > (v->len - pos) / 24)
        return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "the effect has %u large objects", nlarge);
    for (uint32_t i = 0; i < nlarge; i++) {
        uint32_t tech, index, u3, state, type, length;
        if (!rd(v, pos, &tech) || !rd(v, pos + 4, &index) || !rd(v, pos + 8, &u3) ||
            !rd(v, pos + 12, &state) || !rd(v, pos + 16, &type) || !rd(v, pos + 20, &length))
            return false;
        pos += 24;
        uint32_t obj = UINT32_MAX;
        if (tech == UINT32_MAX) {
            if (index >= numparams || !is_sampler_type(v->params[index].type) ||
                state >= v->params[index].sampler_states)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u names a missing sampler state", i);
            obj = v->params[index].state_object[state];
        } else {
            if (tech >= numtech || index >= v->tech_pass_count[tech] ||
                state >= v->pass_state_count[tech][index])
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u names a missing pass state", i);
            obj = v->pass_state_object[tech][index][state];
        }
        if (obj == UINT32_MAX)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u belongs to a state without an object",
                         i);
        if (length > v->len - pos)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u runs past the end", i);
        if (v->obj_defined[obj]++)
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "object %u is defined twice", obj);
        uint32_t t = v->obj_type[obj];
        if (t == MOJOSHADER_SYMTYPE_PIXELSHADER || t == MOJOSHADER_SYMTYPE_VERTEXSHADER) {
            if (type == 2)
                return vfail(v, XGD_ERROR_NOT_SUPPORTED,
                             "the effect selects shaders from an array with a preshader (large "
                             "object %u); shader arrays are not supported", i);
        } else if (is_texture_type(t) || is_sampler_type(t)) {
            if (length > 0 && memchr(v->base + pos, 0, length) == NULL)
                return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "name object %u is not terminated", obj);
        } else if (t != MOJOSHADER_SYMTYPE_VOID) {
            return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u has no known type", i);
        }
        uint32_t block = (length + 3u) & ~3u;
        if (block > v->len - pos) return vfail(v, XGD_ERROR_INVALID_ARGUMENT, "large object %u is cut", i);
        pos += block;
    }
    return true;
}

/* ---- MojoShader's shader callbacks --------------------------------------------------------- */

typedef struct fx_tls {
    fxv *walk;                  /* load: the parameters shaders may name */
    xgdi_fx *fx;                /* load and apply */
    fx_shader **made;           /* load: every shader made */
    int made_count, made_cap;
    xgd_result code;            /* load: the first failure of a shader */
    char msg[256];
    fx_shader *bound_vs, *bound_ps;
} fx_tls;

static _Thread_local fx_tls *tls;

static const char *walk_name(const fxv *v, uint32_t off)
{
    uint32_t n;
    if (off > v->len || v->len - off < 4) return "";
    memcpy(&n, v->base + off, 4);
    return n == 0 ? "" : (const char *)(v->base + off + 4);
}

static int find_walk_param(const fxv *v, const char *name)
{
    for (uint32_t i = 0; i < v->numparams; i++)
        if (strcmp(walk_name(v, v->params[i].name_off), name) == 0) return (int)i;
    return -1;
}

static void shader_refuse(fx_shader *s, xgd_result code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void shader_refuse(fx_shader *s, xgd_result code, const char *fmt, ...)
{
    if (s->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
    s->failed = true;
    memset(&s->fail_pd, 0, sizeof s->fail_pd);
    s->fail_error.error = s->message;
    s->fail_error.filename = NULL;
    s->fail_error.error_position = MOJOSHADER_POSITION_NONE;
    s->fail_pd.error_count = 1;
    s->fail_pd.errors = &s->fail_error;
    if (tls != NULL && tls->code == XGD_OK) {
        tls->code = code;
        snprintf(tls->msg, sizeof tls->msg, "%s", s->message);
    }
}

/* Symbols (CTAB and preshader) must name parameters whose values cover the registers they
 * fill, inside the register files: MojoShader copies them unchecked at commit. */
static void check_symbols(fx_shader *s, const MOJOSHADER_symbol *syms, int count, uint32_t file_vec4s)
{
    if (count <= 0) return;
    const fxv *v = tls != NULL ? tls->walk : NULL;
    if (v == NULL) {
        shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "a shader outside an effect names parameters");
        return;
    }
    for (int i = 0; i < count && !s->failed; i++) {
        const MOJOSHADER_symbol *sym = &syms[i];
        int p = sym->name != NULL ? find_walk_param(v, sym->name) : -1;
        if (p < 0) {
            shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "a shader uses \"%s\", which is no parameter of the effect",
                          sym->name != NULL ? sym->name : "");
            return;
        }
        const fxv_param *par = &v->params[p];
        bool sampler = sym->register_set == MOJOSHADER_SYMREGSET_SAMPLER;
        if (sampler != is_sampler_type(par->type) ||
            (!sampler && par->cls == MOJOSHADER_SYMCLASS_OBJECT)) {
            shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "shader symbol \"%s\" and its parameter differ in kind",
                          sym->name);
            return;
        }
        if (sampler) continue;
        uint64_t end = (uint64_t)sym->register_index + sym->register_count;
        if (end > file_vec4s || (uint64_t)par->value_count < 4ull * sym->register_count)
            shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT,
                          "shader symbol \"%s\" fills registers %u..%u beyond its parameter or the "
                          "register file", sym->name, sym->register_index, (unsigned)end);
    }
}

static void check_preshader(fx_shader *s, const MOJOSHADER_preshader *pre)
{
    check_symbols(s, pre->symbols, (int)pre->symbol_count, pre->register_count);
    for (unsigned i = 0; i < pre->instruction_count && !s->failed; i++) {
        const MOJOSHADER_preshaderInstruction *in = &pre->instructions[i];
        switch (in->opcode) {
        case MOJOSHADER_PRESHADEROP_NOP:
        case MOJOSHADER_PRESHADEROP_NOISE:
        case MOJOSHADER_PRESHADEROP_MOVC:
        case MOJOSHADER_PRESHADEROP_DOT_SCALAR:
        case MOJOSHADER_PRESHADEROP_NOISE_SCALAR:
            shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "a preshader uses opcode %d, which is not supported",
                          (int)in->opcode);
            return;
        default: break;
        }
        if (in->element_count > 4 || in->operand_count < 1 || in->operand_count > 4) {
            shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "a preshader instruction is malformed");
            return;
        }
        for (unsigned o = 0; o < in->operand_count; o++) {
            const MOJOSHADER_preshaderOperand *op = &in->operands[o];
            uint64_t end = (uint64_t)op->index + in->element_count;
            uint64_t limit = op->type == MOJOSHADER_PRESHADEROPERAND_LITERAL ? pre->literal_count
                             : op->type == MOJOSHADER_PRESHADEROPERAND_INPUT ? 4ull * pre->register_count
                             : op->type == MOJOSHADER_PRESHADEROPERAND_OUTPUT ? 4ull * XGDI_SHADER_MAX_REGISTERS
                             : op->type == MOJOSHADER_PRESHADEROPERAND_TEMP ? pre->temp_count
                                                                             : 0;
            bool last = o + 1 == in->operand_count;
            if (end > limit || op->array_register_count > 0 ||
                (last && op->type != MOJOSHADER_PRESHADEROPERAND_OUTPUT &&
                 op->type != MOJOSHADER_PRESHADEROPERAND_TEMP)) {
                shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "a preshader operand is out of range");
                return;
            }
        }
    }
}

static xgd_vertex_element_usage usage_of(MOJOSHADER_usage u)
{
    switch (u) {
    case MOJOSHADER_USAGE_POSITION: return XGD_VERTEX_USAGE_POSITION;
    case MOJOSHADER_USAGE_BLENDWEIGHT: return XGD_VERTEX_USAGE_BLEND_WEIGHT;
    case MOJOSHADER_USAGE_BLENDINDICES: return XGD_VERTEX_USAGE_BLEND_INDICES;
    case MOJOSHADER_USAGE_NORMAL: return XGD_VERTEX_USAGE_NORMAL;
    case MOJOSHADER_USAGE_POINTSIZE: return XGD_VERTEX_USAGE_POINT_SIZE;
    case MOJOSHADER_USAGE_TEXCOORD: return XGD_VERTEX_USAGE_TEXTURE_COORDINATE;
    case MOJOSHADER_USAGE_TANGENT: return XGD_VERTEX_USAGE_TANGENT;
    case MOJOSHADER_USAGE_BINORMAL: return XGD_VERTEX_USAGE_BINORMAL;
    case MOJOSHADER_USAGE_TESSFACTOR: return XGD_VERTEX_USAGE_TESSELLATE_FACTOR;
    case MOJOSHADER_USAGE_COLOR: return XGD_VERTEX_USAGE_COLOR;
    case MOJOSHADER_USAGE_FOG: return XGD_VERTEX_USAGE_FOG;
    case MOJOSHADER_USAGE_DEPTH: return XGD_VERTEX_USAGE_DEPTH;
    case MOJOSHADER_USAGE_SAMPLE: return XGD_VERTEX_USAGE_SAMPLE;
    default: return XGD_VERTEX_USAGE_COUNT;
    }
}

/* Everything the form and the runtime need, checked; on a refusal the shader carries the
 * error MojoShader reports back. */
static void prepare_shader(fx_shader *s)
{
    const MOJOSHADER_parseData *pd = s->pd;
    if (pd->shader_type != MOJOSHADER_TYPE_VERTEX && pd->shader_type != MOJOSHADER_TYPE_PIXEL) {
        shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "the effect holds a shader that is neither vertex nor pixel");
        return;
    }
    s->stage = pd->shader_type == MOJOSHADER_TYPE_VERTEX ? XGDI_SHADER_VERTEX : XGDI_SHADER_PIXEL;
    if (pd->major_ver > 3) {
        shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "shader model %d.%d is beyond 3.0", pd->major_ver,
                      pd->minor_ver);
        return;
    }
    check_symbols(s, pd->symbols, pd->symbol_count, XGDI_SHADER_MAX_REGISTERS);
    if (!s->failed && pd->preshader != NULL) check_preshader(s, pd->preshader);
    if (s->failed) return;
    int n = 0;
    for (int i = 0; i < pd->uniform_count; i++) {
        const MOJOSHADER_uniform *u = &pd->uniforms[i];
        if (u->type != MOJOSHADER_UNIFORM_FLOAT) {
            shader_refuse(s, XGD_ERROR_NOT_SUPPORTED,
                          "a shader uses %s register %s; integer and boolean registers are not supported",
                          u->type == MOJOSHADER_UNIFORM_INT ? "integer" : "boolean", u->name ? u->name : "");
            return;
        }
        int count = u->array_count > 0 ? u->array_count : 1;
        if (u->index < 0 || u->index + count > XGDI_SHADER_MAX_REGISTERS || n + count > XGDI_SHADER_MAX_REGISTERS) {
            shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "a shader uses float registers beyond c255");
            return;
        }
        for (int k = 0; k < count; k++) s->registers[n++] = (uint16_t)(u->index + k);
    }
    int regs = n;
    if (s->stage == XGDI_SHADER_VERTEX) s->registers[n++] = 0xffff; /* pixel_offset */
    s->constant_count = n;
    xgdi_spirv_form_var vars[64];
    int nv = 0;
    for (int pass = 0; pass < 2; pass++) {
        int count = pass == 0 ? pd->attribute_count : pd->output_count;
        const MOJOSHADER_attribute *list = pass == 0 ? pd->attributes : pd->outputs;
        for (int i = 0; i < count && nv < 64; i++) {
            if (list[i].name == NULL || strlen(list[i].name) >= sizeof vars[0].name) continue;
            snprintf(vars[nv].name, sizeof vars[nv].name, "%s", list[i].name);
            vars[nv].usage = usage_of(list[i].usage);
            vars[nv].usage_index = list[i].index;
            /* vs inputs, vs_3_0 outputs and ps_3_0 inputs carry their usage in their dcl;
               this MojoShader reports none for ps_3_0 inputs, so the dcl decides */
            char kind = list[i].name[0];
            int num = atoi(list[i].name + 1);
            int rt = kind == 'v' ? 1 : kind == 'o' && list[i].name[1] >= '0' && list[i].name[1] <= '9' ? 6 : -1;
            bool by_dcl = rt == 1 ? (s->stage == XGDI_SHADER_VERTEX || pd->major_ver >= 3)
                                  : rt == 6 && s->stage == XGDI_SHADER_VERTEX;
            for (int d = 0; by_dcl && d < s->decls.decl_count; d++) {
                if (s->decls.decls[d].regtype == rt && s->decls.decls[d].regnum == num) {
                    vars[nv].usage = usage_of((MOJOSHADER_usage)s->decls.decls[d].usage);
                    vars[nv].usage_index = s->decls.decls[d].usage_index;
                }
            }
            vars[nv].output = pass == 1;
            if (pass == 0 && s->stage == XGDI_SHADER_VERTEX) {
                int loc = xgdi_shader_location(vars[nv].usage, vars[nv].usage_index);
                if (loc < 0 || s->input_count >= XGDI_SHADER_MAX_INPUTS) {
                    shader_refuse(s, XGD_ERROR_NOT_SUPPORTED,
                                  "vertex input %s (usage %d index %d) has no location in the shader form",
                                  list[i].name, (int)list[i].usage, list[i].index);
                    return;
                }
                s->inputs[s->input_count++] = (xgdi_shader_input){ vars[nv].usage, vars[nv].usage_index, loc };
            }
            if (pass == 1 && s->stage == XGDI_SHADER_PIXEL && list[i].usage == MOJOSHADER_USAGE_COLOR &&
                list[i].index >= 0 && list[i].index < 4)
                s->color_outputs |= 1u << list[i].index;
            nv++;
        }
    }
    for (int i = 0; i < pd->sampler_count; i++) {
        const MOJOSHADER_sampler *sm = &pd->samplers[i];
        if (s->stage == XGDI_SHADER_VERTEX) {
            shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "vertex shader samplers (vertex texture fetch) are not supported");
            return;
        }
        if (sm->index < 0 || sm->index >= XGDI_SHADER_MAX_SAMPLERS) {
            shader_refuse(s, XGD_ERROR_NOT_SUPPORTED, "sampler register s%d is beyond s15", sm->index);
            return;
        }
        s->sampler_kinds[sm->index] = sm->type == MOJOSHADER_SAMPLER_CUBE     ? XGDI_SAMPLER_CUBE
                                      : sm->type == MOJOSHADER_SAMPLER_VOLUME ? XGDI_SAMPLER_3D
                                                                              : XGDI_SAMPLER_2D;
    }
    xgdi_spirv_form_input in = { s->stage, (const uint32_t *)(const void *)pd->output, (size_t)pd->output_len,
                                 regs, vars, nv };
    char err[192];
    xgd_result r = xgdi_spirv_form(&in, &s->code, &s->words, err, sizeof err);
    if (r != XGD_OK) shader_refuse(s, r, "%s", err);
}

static void *MOJOSHADERCALL cb_compile(const char *mainfn, const unsigned char *tokenbuf,
                                       const unsigned int bufsize, const MOJOSHADER_swizzle *swiz,
                                       const unsigned int swizcount, const MOJOSHADER_samplerMap *smap,
                                       const unsigned int smapcount)
{
    fx_shader *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    s->refs = 1;
    s->arena = malloc(sizeof(fx_arena));
    if (s->arena != NULL) arena_init(s->arena);
    if (tls->made_count == tls->made_cap) {
        int cap = tls->made_cap ? tls->made_cap * 2 : 8;
        fx_shader **m = realloc(tls->made, sizeof *m * (size_t)cap);
        if (m == NULL) {
            shader_refuse(s, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
            return s;
        }
        tls->made = m;
        tls->made_cap = cap;
    }
    tls->made[tls->made_count++] = s;
    s->refs++; /* the list's reference */
    /* MojoShader's SPIR-V back end asserts on some bytecode its front end accepts: only
       bytecode that passes the structural check reaches it (copied, for alignment) */
    char err[192];
    uint32_t *aligned = malloc(bufsize ? bufsize : 4);
    if (aligned == NULL) {
        shader_refuse(s, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        return s;
    }
    memcpy(aligned, tokenbuf, bufsize);
    xgd_result checked = xgdi_d3d9_check(aligned, bufsize, &s->decls, err, sizeof err);
    free(aligned);
    if (checked != XGD_OK) {
        shader_refuse(s, checked, "%s", err);
        return s;
    }
    /* the form's entry point is "main", whatever name MojoShader's effect code suggests */
    (void)mainfn;
    if (s->arena == NULL) {
        shader_refuse(s, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
        return s;
    }
    s->pd = MOJOSHADER_parse("spirv", "main", tokenbuf, bufsize, swiz, swizcount, smap, smapcount,
                             arena_malloc, arena_free, s->arena);
    if (s->pd == NULL) {
        shader_refuse(s, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    } else if (s->pd->error_count > 0) {
        shader_refuse(s, XGD_ERROR_INVALID_ARGUMENT, "invalid shader bytecode: %s",
                      s->pd->errors[0].error ? s->pd->errors[0].error : "");
    } else {
        prepare_shader(s);
    }
    return s;
}

static void MOJOSHADERCALL cb_add_ref(void *shader)
{
    if (shader != NULL) ((fx_shader *)shader)->refs++;
}

static void MOJOSHADERCALL cb_delete(void *shader)
{
    shader_release(shader);
}

static MOJOSHADER_parseData *MOJOSHADERCALL cb_parse_data(void *shader)
{
    static MOJOSHADER_error oom = { "out of memory", NULL, MOJOSHADER_POSITION_NONE };
    static MOJOSHADER_parseData oom_pd = { .error_count = 1, .errors = &oom };
    fx_shader *s = shader;
    if (s == NULL) return &oom_pd;
    return s->failed ? &s->fail_pd : (MOJOSHADER_parseData *)s->pd;
}

static void MOJOSHADERCALL cb_bind(void *vs, void *ps)
{
    if (tls == NULL) return;
    tls->bound_vs = vs;
    tls->bound_ps = ps;
}

static void MOJOSHADERCALL cb_get_bound(void **vs, void **ps)
{
    *vs = tls != NULL ? tls->bound_vs : NULL;
    *ps = tls != NULL ? tls->bound_ps : NULL;
}

static void MOJOSHADERCALL cb_map(float **vsf, int **vsi, unsigned char **vsb, float **psf, int **psi,
                                  unsigned char **psb)
{
    xgdi_fx *fx = tls->fx;
    *vsf = fx->vs_f;
    *vsi = fx->vs_i;
    *vsb = fx->vs_b;
    *psf = fx->ps_f;
    *psi = fx->ps_i;
    *psb = fx->ps_b;
}

static void MOJOSHADERCALL cb_unmap(void) {}

static const char *MOJOSHADERCALL cb_error(void)
{
    return "";
}

#endif /* XGD_HAVE_MOJOSHADER: the fx_2_0 validator and shader parse */

static void shader_release(fx_shader *s)
{
    if (s == NULL || --s->refs > 0) return;
#ifdef XGD_HAVE_MOJOSHADER
    if (s->pd != NULL) MOJOSHADER_freeParseData(s->pd);
    if (s->arena != NULL) {
        arena_release_all(s->arena); /* what MojoShader's parse leaked */
        free(s->arena);
    }
#endif
    free(s->code);
    free(s);
}

/* ---- the parameter table ------------------------------------------------------------------- */

static int add_node(xgdi_fx *fx)
{
    if (fx->node_count == fx->node_cap) {
        if (fx->node_cap >= FX_MAX_NODES) return -1;
        int cap = fx->node_cap ? fx->node_cap * 2 : 64;
        fx_node *n = realloc(fx->nodes, sizeof *n * (size_t)cap);
        if (n == NULL) return -1;
        fx->nodes = n;
        fx->node_cap = cap;
    }
    memset(&fx->nodes[fx->node_count], 0, sizeof fx->nodes[0]);
    return fx->node_count++;
}

static xgd_effect_parameter_class class_of(xgdi_fx_class c)
{
    switch (c) {
    case XGDI_FX_SCALAR: return XGD_EFFECT_PARAMETER_CLASS_SCALAR;
    case XGDI_FX_VECTOR: return XGD_EFFECT_PARAMETER_CLASS_VECTOR;
    case XGDI_FX_MATRIX_ROWS:
    case XGDI_FX_MATRIX_COLUMNS: return XGD_EFFECT_PARAMETER_CLASS_MATRIX;
    case XGDI_FX_STRUCT: return XGD_EFFECT_PARAMETER_CLASS_STRUCT;
    default: return XGD_EFFECT_PARAMETER_CLASS_OBJECT;
    }
}

/* Registers (float4 each) one numeric element fills: a column_major matrix keeps one column
   per register, everything else one row per register (values are copied to registers as they
   lie, four per register). */
static uint32_t element_registers(const xgdi_fx_type *t)
{
    return t->parameter_class == XGDI_FX_MATRIX_COLUMNS ? t->columns : t->rows;
}

/* Values one element of this type takes in its value array. */
static uint32_t element_values(const xgdi_fx_type *t)
{
    if (t->parameter_class == XGDI_FX_OBJECT) return 1;
    if (t->parameter_class == XGDI_FX_STRUCT) {
        uint32_t size = 0;
        for (unsigned m = 0; m < t->member_count; m++) {
            const xgdi_fx_type *mi = &t->members[m].info;
            size += 4 * element_registers(mi) * (mi->elements ? mi->elements : 1);
        }
        return size;
    }
    return 4 * element_registers(t);
}

/* Builds the node of a value of type t at offset (and its elements and members); returns its
 * id or -1 (out of memory or too many). */
static int build_node(xgdi_fx *fx, xgdi_fx_value *value, const xgdi_fx_type *t, const char *name,
                      const char *semantic, uint32_t offset, bool with_elements, bool annotation)
{
    int id = add_node(fx);
    if (id < 0) return -1;
    fx_node *n = &fx->nodes[id];
    n->name = name != NULL ? name : "";
    n->semantic = semantic != NULL ? semantic : "";
    n->cls = class_of(t->parameter_class);
    n->type = (xgd_effect_parameter_type)t->parameter_type;
    n->col_major = t->parameter_class == XGDI_FX_MATRIX_COLUMNS;
    n->rows = n->cls == XGD_EFFECT_PARAMETER_CLASS_STRUCT ? 0 : n->cls == XGD_EFFECT_PARAMETER_CLASS_OBJECT ? 1 : (int)t->rows;
    n->columns = n->cls == XGD_EFFECT_PARAMETER_CLASS_STRUCT ? 0 : n->cls == XGD_EFFECT_PARAMETER_CLASS_OBJECT ? 1 : (int)t->columns;
    n->elements = with_elements ? (int)t->elements : 0;
    n->value = value;
    n->offset = offset;
    n->annotation = annotation;
    if (n->elements > 0) {
        /* elements get ids in a row (reserved first), then their own members */
        int first = fx->node_count;
        for (int e = 0; e < (int)t->elements; e++)
            if (add_node(fx) < 0) return -1;
        uint32_t stride = element_values(t);
        for (int e = 0; e < (int)t->elements; e++) {
            int c = build_node(fx, value, t, name, semantic, offset + (uint32_t)e * stride, false, annotation);
            if (c < 0) return -1;
            fx->nodes[first + e] = fx->nodes[c];
        }
        fx->nodes[id].first_child = first;
        return id;
    }
    if (t->parameter_class == XGDI_FX_STRUCT) {
        /* members first get ids in a row, then their own elements */
        int first = fx->node_count;
        for (unsigned m = 0; m < t->member_count; m++) {
            if (add_node(fx) < 0) return -1;
        }
        uint32_t off = offset;
        for (unsigned m = 0; m < t->member_count; m++) {
            const xgdi_fx_member *mem = &t->members[m];
            int c = build_node(fx, value, &mem->info, mem->name, NULL, off, true, annotation);
            if (c < 0) return -1;
            /* move the built node into its reserved place */
            fx->nodes[first + (int)m] = fx->nodes[c];
            off += 4 * element_registers(&mem->info) * (mem->info.elements ? mem->info.elements : 1);
        }
        fx->nodes[id].members = (int)t->member_count;
        fx->nodes[id].first_child = first;
    }
    return id;
}

static bool build_annotations(xgdi_fx *fx, xgdi_fx_value *annos, unsigned count, int *first)
{
    /* reserve contiguous ids, then fill them */
    *first = fx->node_count;
    for (unsigned i = 0; i < count; i++)
        if (add_node(fx) < 0) return false;
    for (unsigned i = 0; i < count; i++) {
        int c = build_node(fx, &annos[i], &annos[i].type, annos[i].name, annos[i].semantic, 0, true, true);
        if (c < 0) return false;
        fx->nodes[*first + (int)i] = fx->nodes[c];
    }
    return true;
}

static void fx_free_techs(xgdi_fx *fx)
{
    if (fx->techs != NULL)
        for (int t = 0; t < fx->tech_count; t++) free(fx->techs[t].passes);
    free(fx->techs);
    fx->techs = NULL;
    fx->tech_count = 0;
}

/* An allocation (zeroed) the table owns; NULL when out of memory. */
static void *table_keep(xgdi_fx_table *t, size_t bytes)
{
    if (t->keep_count == t->keep_cap) {
        int cap = t->keep_cap ? t->keep_cap * 2 : 8;
        void **k = realloc(t->keep, sizeof *k * (size_t)cap);
        if (k == NULL) return NULL;
        t->keep = k;
        t->keep_cap = cap;
    }
    void *p = calloc(1, bytes > 0 ? bytes : 1);
    if (p != NULL) t->keep[t->keep_count++] = p;
    return p;
}

static void table_free(xgdi_fx_table *t)
{
    for (int i = 0; i < t->keep_count; i++) free(t->keep[i]);
    free(t->keep);
    memset(t, 0, sizeof *t);
}

/* The node tree of the parameters and annotations, and the techniques with each pass's
 * shaders, from fx->table. */
static bool build_table(xgdi_fx *fx)
{
    const xgdi_fx_table *e = &fx->table;
    fx->pub = calloc((size_t)(e->param_count > 0 ? e->param_count : 1), sizeof *fx->pub);
    fx->techs = calloc((size_t)(e->technique_count > 0 ? e->technique_count : 1), sizeof *fx->techs);
    if (fx->pub == NULL || fx->techs == NULL) return false;
    fx->tech_count = e->technique_count;
    for (int i = 0; i < e->param_count; i++) {
        xgdi_fx_param *p = &e->params[i];
        /* samplers and shaders are not parameters in XNA's Effect.Parameters */
        if (p->value.type.parameter_type > XGDI_FX_TEXTURECUBE) continue;
        int id = build_node(fx, &p->value, &p->value.type, p->value.name, p->value.semantic, 0, true, false);
        if (id < 0) return false;
        int first;
        if (!build_annotations(fx, p->annotations, p->annotation_count, &first)) return false;
        fx->nodes[id].anno_first = first;
        fx->nodes[id].anno_count = (int)p->annotation_count;
        fx->pub[fx->pub_count++] = id;
    }
    for (int t = 0; t < e->technique_count; t++) {
        const xgdi_fx_technique *tech = &e->techniques[t];
        fx_technique *xt = &fx->techs[t];
        xt->name = tech->name;
        xt->anno_count = (int)tech->annotation_count;
        if (!build_annotations(fx, tech->annotations, tech->annotation_count, &xt->anno_first)) return false;
        xt->passes = calloc(tech->pass_count > 0 ? tech->pass_count : 1, sizeof *xt->passes);
        if (xt->passes == NULL) return false;
        xt->pass_count = (int)tech->pass_count;
        for (unsigned p = 0; p < tech->pass_count; p++) {
            const xgdi_fx_pass *src = &tech->passes[p];
            xt->passes[p].name = src->name;
            xt->passes[p].src = src;
            xt->passes[p].anno_count = (int)src->annotation_count;
            /* load checked that these name compiled shaders of their stage */
            for (unsigned si = 0; si < src->state_count; si++) {
                const xgdi_fx_state *st = &src->states[si];
                if (st->type != XGDI_FX_RS_VERTEXSHADER && st->type != XGDI_FX_RS_PIXELSHADER) continue;
                int obj = st->value.value_count > 0 ? st->value.valuesI[0] : -1;
                if (obj < 0 || obj >= e->object_count || e->objects[obj].kind != XGDI_FX_OBJ_SHADER) continue;
                if (st->type == XGDI_FX_RS_VERTEXSHADER) xt->passes[p].vs = e->objects[obj].shader;
                else xt->passes[p].ps = e->objects[obj].shader;
            }
            if (!build_annotations(fx, src->annotations, src->annotation_count, &xt->passes[p].anno_first))
                return false;
        }
    }
    return true;
}

/* ---- load, clone, free ----------------------------------------------------------------------- */

static void fx_hlsl_free_body(xgdi_fx *fx);
static bool fx_is_xfx(const void *bytes, size_t size);
static xgd_result fx_hlsl_load(xgd_device *device, const void *bytes, size_t size, xgdi_fx **out);
static xgd_result fx_hlsl_apply(xgd_device *dev, xgdi_fx *fx, int technique, int pass);
static xgd_result hx_rewrite(xgd_device *dev, fx_shader *s);

static void free_body(xgdi_fx *fx)
{
    if (fx == NULL) return;
    if (fx->hlsl != NULL) {
        fx_hlsl_free_body(fx);
        return;
    }
    fx_free_techs(fx);
#ifdef XGD_HAVE_MOJOSHADER
    if (fx->effect != NULL) {
        fx_tls t = { 0 };
        t.fx = fx;
        fx_tls *saved = tls;
        tls = &t;
        MOJOSHADER_deleteEffect(fx->effect);
        fx->effect = NULL;
        tls = saved;
    }
    if (fx->arena != NULL) {
        arena_release_all(fx->arena); /* what MojoShader leaked (texture object names, ...) */
        free(fx->arena);
    }
#endif
    table_free(&fx->table);
    /* the effect is gone, so no reference but the list's can remain (a shader MojoShader
       replaced without deleting is freed here too) */
    for (int i = 0; i < fx->shader_count; i++) {
        fx->shaders[i]->refs = 1;
        shader_release(fx->shaders[i]);
    }
    free(fx->shaders);
    free(fx->nodes);
    free(fx->pub);
    free(fx->textures);
    free(fx->bytes);
    free(fx);
}

#ifdef XGD_HAVE_MOJOSHADER

/* ---- fx_2_0: MojoShader's effect in xgd's table ---------------------------------------------- */

static bool fx2_type(xgdi_fx_table *t, const MOJOSHADER_symbolTypeInfo *in, xgdi_fx_type *out, int depth)
{
    memset(out, 0, sizeof *out);
    switch (in->parameter_class) {
    case MOJOSHADER_SYMCLASS_SCALAR: out->parameter_class = XGDI_FX_SCALAR; break;
    case MOJOSHADER_SYMCLASS_VECTOR: out->parameter_class = XGDI_FX_VECTOR; break;
    case MOJOSHADER_SYMCLASS_MATRIX_ROWS: out->parameter_class = XGDI_FX_MATRIX_ROWS; break;
    case MOJOSHADER_SYMCLASS_MATRIX_COLUMNS: out->parameter_class = XGDI_FX_MATRIX_COLUMNS; break;
    case MOJOSHADER_SYMCLASS_STRUCT: out->parameter_class = XGDI_FX_STRUCT; break;
    default: out->parameter_class = XGDI_FX_OBJECT; break;
    }
    /* the first ten types are the same list in both */
    out->parameter_type = in->parameter_type <= MOJOSHADER_SYMTYPE_TEXTURECUBE ? (xgdi_fx_base)in->parameter_type
                                                                              : XGDI_FX_OTHER;
    out->rows = in->rows;
    out->columns = in->columns;
    out->elements = in->elements;
    if (in->member_count == 0 || in->members == NULL) return true;
    if (depth > 64) return false; /* the walk bounds nesting by the bytes; this bounds the recursion */
    xgdi_fx_member *m = table_keep(t, sizeof *m * in->member_count);
    if (m == NULL) return false;
    for (unsigned i = 0; i < in->member_count; i++) {
        m[i].name = in->members[i].name;
        if (!fx2_type(t, &in->members[i].info, &m[i].info, depth + 1)) return false;
    }
    out->member_count = in->member_count;
    out->members = m;
    return true;
}

/* The value's description, its array MojoShader's own (its commit reads and writes it). */
static bool fx2_value(xgdi_fx_table *t, MOJOSHADER_effectValue *in, xgdi_fx_value *out)
{
    out->name = in->name;
    out->semantic = in->semantic;
    out->value_count = in->value_count;
    out->values = in->values;
    return fx2_type(t, &in->type, &out->type, 0);
}

static bool fx2_annotations(xgdi_fx_table *t, MOJOSHADER_effectAnnotation *in, unsigned count,
                            xgdi_fx_value **out)
{
    *out = table_keep(t, sizeof **out * count);
    if (*out == NULL) return false;
    for (unsigned i = 0; i < count; i++)
        if (!fx2_value(t, &in[i], &(*out)[i])) return false;
    return true;
}

static xgdi_fx_rs fx2_state(MOJOSHADER_renderStateType s)
{
    switch (s) {
    case MOJOSHADER_RS_VERTEXSHADER: return XGDI_FX_RS_VERTEXSHADER;
    case MOJOSHADER_RS_PIXELSHADER: return XGDI_FX_RS_PIXELSHADER;
    case MOJOSHADER_RS_ALPHABLENDENABLE: return XGDI_FX_RS_ALPHABLENDENABLE;
    case MOJOSHADER_RS_SEPARATEALPHABLENDENABLE: return XGDI_FX_RS_SEPARATEALPHABLENDENABLE;
    case MOJOSHADER_RS_SRCBLEND: return XGDI_FX_RS_SRCBLEND;
    case MOJOSHADER_RS_DESTBLEND: return XGDI_FX_RS_DESTBLEND;
    case MOJOSHADER_RS_BLENDOP: return XGDI_FX_RS_BLENDOP;
    case MOJOSHADER_RS_SRCBLENDALPHA: return XGDI_FX_RS_SRCBLENDALPHA;
    case MOJOSHADER_RS_DESTBLENDALPHA: return XGDI_FX_RS_DESTBLENDALPHA;
    case MOJOSHADER_RS_BLENDOPALPHA: return XGDI_FX_RS_BLENDOPALPHA;
    case MOJOSHADER_RS_COLORWRITEENABLE: return XGDI_FX_RS_COLORWRITEENABLE;
    case MOJOSHADER_RS_COLORWRITEENABLE1: return XGDI_FX_RS_COLORWRITEENABLE1;
    case MOJOSHADER_RS_COLORWRITEENABLE2: return XGDI_FX_RS_COLORWRITEENABLE2;
    case MOJOSHADER_RS_COLORWRITEENABLE3: return XGDI_FX_RS_COLORWRITEENABLE3;
    case MOJOSHADER_RS_ZENABLE: return XGDI_FX_RS_ZENABLE;
    case MOJOSHADER_RS_ZWRITEENABLE: return XGDI_FX_RS_ZWRITEENABLE;
    case MOJOSHADER_RS_ZFUNC: return XGDI_FX_RS_ZFUNC;
    case MOJOSHADER_RS_STENCILENABLE: return XGDI_FX_RS_STENCILENABLE;
    case MOJOSHADER_RS_STENCILFUNC: return XGDI_FX_RS_STENCILFUNC;
    case MOJOSHADER_RS_STENCILPASS: return XGDI_FX_RS_STENCILPASS;
    case MOJOSHADER_RS_STENCILFAIL: return XGDI_FX_RS_STENCILFAIL;
    case MOJOSHADER_RS_STENCILZFAIL: return XGDI_FX_RS_STENCILZFAIL;
    case MOJOSHADER_RS_TWOSIDEDSTENCILMODE: return XGDI_FX_RS_TWOSIDEDSTENCILMODE;
    case MOJOSHADER_RS_CCW_STENCILFUNC: return XGDI_FX_RS_CCW_STENCILFUNC;
    case MOJOSHADER_RS_CCW_STENCILPASS: return XGDI_FX_RS_CCW_STENCILPASS;
    case MOJOSHADER_RS_CCW_STENCILFAIL: return XGDI_FX_RS_CCW_STENCILFAIL;
    case MOJOSHADER_RS_CCW_STENCILZFAIL: return XGDI_FX_RS_CCW_STENCILZFAIL;
    case MOJOSHADER_RS_STENCILREF: return XGDI_FX_RS_STENCILREF;
    case MOJOSHADER_RS_STENCILMASK: return XGDI_FX_RS_STENCILMASK;
    case MOJOSHADER_RS_STENCILWRITEMASK: return XGDI_FX_RS_STENCILWRITEMASK;
    case MOJOSHADER_RS_CULLMODE: return XGDI_FX_RS_CULLMODE;
    case MOJOSHADER_RS_FILLMODE: return XGDI_FX_RS_FILLMODE;
    case MOJOSHADER_RS_SCISSORTESTENABLE: return XGDI_FX_RS_SCISSORTESTENABLE;
    case MOJOSHADER_RS_DEPTHBIAS: return XGDI_FX_RS_DEPTHBIAS;
    case MOJOSHADER_RS_SLOPESCALEDEPTHBIAS: return XGDI_FX_RS_SLOPESCALEDEPTHBIAS;
    default: return XGDI_FX_RS_OTHER;
    }
}

/* Translates MojoShader's compiled effect into fx->table, once at load. */
static bool fx2_translate(xgdi_fx *fx)
{
    MOJOSHADER_effect *e = fx->effect;
    xgdi_fx_table *t = &fx->table;
    t->params = table_keep(t, sizeof *t->params * (size_t)(e->param_count > 0 ? e->param_count : 0));
    t->techniques = table_keep(t, sizeof *t->techniques * (size_t)(e->technique_count > 0 ? e->technique_count : 0));
    t->objects = table_keep(t, sizeof *t->objects * (size_t)(e->object_count > 0 ? e->object_count : 0));
    if (t->params == NULL || t->techniques == NULL || t->objects == NULL) return false;
    t->param_count = e->param_count;
    t->technique_count = e->technique_count;
    t->object_count = e->object_count;
    for (int i = 0; i < e->param_count; i++) {
        MOJOSHADER_effectParam *p = &e->params[i];
        if (!fx2_value(t, &p->value, &t->params[i].value) ||
            !fx2_annotations(t, p->annotations, p->annotation_count, &t->params[i].annotations))
            return false;
        t->params[i].annotation_count = p->annotation_count;
    }
    for (int i = 0; i < e->technique_count; i++) {
        const MOJOSHADER_effectTechnique *tech = &e->techniques[i];
        xgdi_fx_technique *xt = &t->techniques[i];
        xt->name = tech->name;
        xt->pass_count = tech->pass_count;
        xt->annotation_count = tech->annotation_count;
        xt->passes = table_keep(t, sizeof *xt->passes * tech->pass_count);
        if (xt->passes == NULL || !fx2_annotations(t, tech->annotations, tech->annotation_count, &xt->annotations))
            return false;
        for (unsigned p = 0; p < tech->pass_count; p++) {
            const MOJOSHADER_effectPass *mp = &tech->passes[p];
            xgdi_fx_pass *xp = &xt->passes[p];
            xp->name = mp->name;
            xp->state_count = mp->state_count;
            xp->annotation_count = mp->annotation_count;
            xp->states = table_keep(t, sizeof *xp->states * mp->state_count);
            if (xp->states == NULL || !fx2_annotations(t, mp->annotations, mp->annotation_count, &xp->annotations))
                return false;
            for (unsigned k = 0; k < mp->state_count; k++) {
                xp->states[k].type = fx2_state(mp->states[k].type);
                if (!fx2_value(t, &mp->states[k].value, &xp->states[k].value)) return false;
            }
        }
    }
    for (int i = 0; i < e->object_count; i++) {
        const MOJOSHADER_effectObject *o = &e->objects[i];
        if (o->type == MOJOSHADER_SYMTYPE_PIXELSHADER || o->type == MOJOSHADER_SYMTYPE_VERTEXSHADER) {
            t->objects[i].kind = o->shader.is_preshader ? XGDI_FX_OBJ_NONE : XGDI_FX_OBJ_SHADER;
            t->objects[i].shader = o->shader.is_preshader ? NULL : o->shader.shader;
        } else if (o->type == MOJOSHADER_SYMTYPE_STRING) {
            t->objects[i].kind = XGDI_FX_OBJ_STRING;
            t->objects[i].string = o->string.string;
        }
    }
    return true;
}

static xgd_result fx2_load(xgd_device *device, const void *bytes, size_t size, xgdi_fx **out)
{
    const uint8_t *b = bytes;
    if (size > 0x7fffffff)
        return fx_fail(device, XGD_ERROR_INVALID_ARGUMENT, "the effect is larger than 2 GiB");
    /* XNA's compiler wraps the container: 0xBCF00BCF and the offset of the container */
    if (size >= 8) {
        uint32_t magic, skip;
        memcpy(&magic, b, 4);
        if (magic == 0xBCF00BCFu) {
            memcpy(&skip, b + 4, 4);
            if (skip < 8 || skip > size)
                return fx_fail(device, XGD_ERROR_INVALID_ARGUMENT, "the XNA effect header is truncated");
            b += skip;
            size -= skip;
        }
    }
    uint32_t magic = 0, start = 0;
    if (size < 8)
        return fx_fail(device, XGD_ERROR_INVALID_ARGUMENT, "the effect is truncated (%zu bytes)", size);
    memcpy(&magic, b, 4);
    memcpy(&start, b + 4, 4);
    if (magic != 0xFEFF0901u)
        return fx_fail(device, XGD_ERROR_INVALID_ARGUMENT,
                       "the bytes are not an fx_2_0 effect (magic 0x%08x, expected 0xFEFF0901)", magic);
    fxv v = { 0 };
    v.base = b + 8;
    v.len = (uint32_t)(size - 8);
    if (start > v.len) {
        return fx_fail(device, XGD_ERROR_INVALID_ARGUMENT, "the effect is truncated before its tables");
    }
    if (!walk(&v, start)) {
        xgd_result code = v.code;
        char msg[256];
        snprintf(msg, sizeof msg, "%s", v.msg);
        fxv_free(&v);
        return fx_fail(device, code, "%s", msg);
    }
    xgdi_fx *fx = calloc(1, sizeof *fx);
    if (fx == NULL || (fx->bytes = malloc(size)) == NULL) {
        free(fx);
        fxv_free(&v);
        return fx_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(fx->bytes, b, size);
    fx->size = size;
    fx_tls t = { 0 };
    t.walk = &v;
    t.fx = fx;
    fx->arena = malloc(sizeof(fx_arena));
    if (fx->arena == NULL) {
        free(fx->bytes);
        free(fx);
        fxv_free(&v);
        return fx_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    arena_init(fx->arena);
    MOJOSHADER_effectShaderContext ctx = { 0 };
    ctx.m = arena_malloc;
    ctx.f = arena_free;
    ctx.malloc_data = fx->arena;
    ctx.compileShader = cb_compile;
    ctx.shaderAddRef = cb_add_ref;
    ctx.deleteShader = cb_delete;
    ctx.getParseData = cb_parse_data;
    ctx.bindShaders = cb_bind;
    ctx.getBoundShaders = cb_get_bound;
    ctx.mapUniformBufferMemory = cb_map;
    ctx.unmapUniformBufferMemory = cb_unmap;
    ctx.getError = cb_error;
    fx_tls *saved = tls;
    tls = &t;
    MOJOSHADER_effect *e = MOJOSHADER_compileEffect(fx->bytes, (unsigned)size, NULL, 0, NULL, 0, &ctx);
    tls = saved;
    fx->shaders = t.made;
    fx->shader_count = t.made_count;
    xgd_result code = XGD_OK;
    char msg[256] = "";
    /* MojoShader's own error results are static objects (no allocator in their context) */
    if (e == NULL || e->ctx.m == NULL) {
        code = XGD_ERROR_INVALID_ARGUMENT;
        snprintf(msg, sizeof msg, "MojoShader refused the effect: %s",
                 e != NULL && e->error_count > 0 && e->errors[0].error ? e->errors[0].error : "unknown error");
        e = NULL;
    }
    fx->effect = e;
    if (code == XGD_OK && t.code != XGD_OK) {
        code = t.code;
        snprintf(msg, sizeof msg, "%s", t.msg);
    } else if (code == XGD_OK && e->error_count > 0) {
        code = XGD_ERROR_INVALID_ARGUMENT;
        snprintf(msg, sizeof msg, "the effect's shaders do not parse: %s",
                 e->errors[0].error ? e->errors[0].error : "");
    }
    /* every pass's shader states must name compiled shaders of the right stage */
    for (int ti = 0; code == XGD_OK && ti < e->technique_count; ti++) {
        for (unsigned p = 0; code == XGD_OK && p < e->techniques[ti].pass_count; p++) {
            const MOJOSHADER_effectPass *pass = &e->techniques[ti].passes[p];
            for (unsigned s = 0; s < pass->state_count; s++) {
                const MOJOSHADER_effectState *st = &pass->states[s];
                if (st->type != MOJOSHADER_RS_VERTEXSHADER && st->type != MOJOSHADER_RS_PIXELSHADER) continue;
                int idx = st->value.valuesI[0];
                const MOJOSHADER_effectObject *o = &e->objects[idx];
                fx_shader *sh = o->shader.shader;
                bool vs = st->type == MOJOSHADER_RS_VERTEXSHADER;
                if (o->shader.is_preshader || sh == NULL || sh->failed ||
                    sh->stage != (vs ? XGDI_SHADER_VERTEX : XGDI_SHADER_PIXEL)) {
                    code = XGD_ERROR_INVALID_ARGUMENT;
                    snprintf(msg, sizeof msg, "pass %u of technique %d names a %s shader it does not hold", p,
                             ti, vs ? "vertex" : "pixel");
                    break;
                }
            }
        }
    }
    fxv_free(&v);
    if (code == XGD_OK) {
        fx->object_count = e->object_count;
        fx->textures = calloc((size_t)(e->object_count > 0 ? e->object_count : 1), sizeof *fx->textures);
        if (fx->textures == NULL || !fx2_translate(fx) || !build_table(fx)) {
            code = XGD_ERROR_OUT_OF_MEMORY;
            snprintf(msg, sizeof msg, "out of memory (or more than %d parameters)", FX_MAX_NODES);
        }
    }
    if (code != XGD_OK) {
        free_body(fx);
        return fx_fail(device, code, "%s", msg);
    }
    *out = fx;
    return XGD_OK;
}

#endif /* XGD_HAVE_MOJOSHADER: fx_2_0 load */

xgd_result xgdi_fx_load(xgd_device *device, const void *bytes, size_t size, xgdi_fx **out)
{
    *out = NULL;
    if (fx_is_xfx(bytes, size)) return fx_hlsl_load(device, bytes, size, out);
#ifdef XGD_HAVE_MOJOSHADER
    return fx2_load(device, bytes, size, out);
#else
    return fx_fail(device, XGD_ERROR_NOT_SUPPORTED,
                   "this build has no MojoShader: fx_2_0 effects need it (compiled xgd effects, .xfx, load)");
#endif
}

xgd_result xgdi_fx_clone(xgd_device *device, const xgdi_fx *fx, xgdi_fx **out)
{
    xgd_result r = xgdi_fx_load(device, fx->bytes, fx->size, out);
    if (r != XGD_OK) return r;
    xgdi_fx *c = *out;
    /* a derived effect's clone may be reused after its destroy too: its loaded values first */
    if (fx->defaults != NULL && !xgdi_fx_keep_defaults(c)) {
        xgdi_fx_free(device, c);
        *out = NULL;
        return fx_fail(device, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    for (int i = 0; i < fx->table.param_count && i < c->table.param_count; i++) {
        const xgdi_fx_value *a = &fx->table.params[i].value;
        xgdi_fx_value *b = &c->table.params[i].value;
        if (a->type.parameter_class != XGDI_FX_OBJECT && a->value_count == b->value_count)
            memcpy(b->values, a->values, (size_t)a->value_count * 4);
    }
    memcpy(c->textures, fx->textures, sizeof *c->textures * (size_t)fx->object_count);
    c->current_technique = fx->current_technique;
    return XGD_OK;
}

static size_t default_words(const xgdi_fx *fx)
{
    size_t n = 0;
    for (int i = 0; i < fx->table.param_count; i++) {
        const xgdi_fx_value *v = &fx->table.params[i].value;
        if (v->type.parameter_class != XGDI_FX_OBJECT) n += v->value_count;
    }
    return n;
}

bool xgdi_fx_keep_defaults(xgdi_fx *fx)
{
    size_t n = default_words(fx), k = 0;
    fx->defaults = malloc((n > 0 ? n : 1) * sizeof *fx->defaults);
    if (fx->defaults == NULL) return false;
    for (int i = 0; i < fx->table.param_count; i++) {
        const xgdi_fx_value *v = &fx->table.params[i].value;
        if (v->type.parameter_class == XGDI_FX_OBJECT || v->value_count == 0) continue;
        memcpy(fx->defaults + k, v->values, (size_t)v->value_count * 4);
        k += v->value_count;
    }
    return true;
}

/* Every value a public call can change goes back to what load gave: parameter values,
   textures (unset), the current technique. The rest of a body is what the code is (shaders,
   the state objects its passes made), the same for every load of the same bytes. */
void xgdi_fx_reset(xgdi_fx *fx)
{
    size_t k = 0;
    for (int i = 0; i < fx->table.param_count && fx->defaults != NULL; i++) {
        xgdi_fx_value *v = &fx->table.params[i].value;
        if (v->type.parameter_class == XGDI_FX_OBJECT || v->value_count == 0) continue;
        memcpy(v->values, fx->defaults + k, (size_t)v->value_count * 4);
        k += v->value_count;
    }
    memset(fx->textures, 0, sizeof *fx->textures * (size_t)fx->object_count);
    fx->current_technique = 0;
}

bool xgdi_fx_same_bytes(const xgdi_fx *fx, const void *bytes, size_t size)
{
    return fx->size == size && memcmp(fx->bytes, bytes, size) == 0;
}

void xgdi_fx_release_natives(xgd_device *device, xgdi_fx *fx)
{
    for (int i = 0; i < fx->shader_count; i++) {
        fx_shader *s = fx->shaders[i];
        if (s == NULL) continue;
        if (s->native == NULL) continue;
        if (device != NULL) {
            xgdi_forget_user_shader(device, s->native);
            if (device->renderer != NULL && device->ops->shader_destroy != NULL)
                device->ops->shader_destroy(device->renderer, s->native);
        }
        s->native = NULL;
    }
}

int xgdi_fx_shader_forms(const xgdi_fx *fx)
{
    int n = 0;
    for (int i = 0; i < fx->shader_count; i++) n += fx->shaders[i] != NULL && fx->shaders[i]->code != NULL;
    return n;
}

/* The state objects the passes made are the effect's own: they go with it (not with its
 * natives, which go inside the device's registry walks, where destroying other registered
 * objects would disturb the walk). After the device is gone they are disposed shells, and
 * their destroy frees the shells. */
void xgdi_fx_free(xgd_device *device, xgdi_fx *fx)
{
    if (fx == NULL) return;
    xgdi_fx_release_natives(device, fx);
    free(fx->defaults);
    fx->defaults = NULL;
    for (int i = 0; i < fx->sampler_count; i++) xgd_sampler_state_destroy(fx->samplers[i].state);
    for (int i = 0; i < fx->blend_count; i++) xgd_blend_state_destroy(fx->blends[i].state);
    for (int i = 0; i < fx->depth_count; i++) xgd_depth_stencil_state_destroy(fx->depths[i].state);
    for (int i = 0; i < fx->raster_count; i++) xgd_rasterizer_state_destroy(fx->rasters[i].state);
    free_body(fx);
}

/* ---- public access --------------------------------------------------------------------------- */

/* An xgd_effect starts with its xgdi_resource (effect.c), which is all this file reads of it. */
#define FX_RES(effect) ((const xgdi_resource *)(const void *)(effect))
/* Resolves the effect handle and its body; every public function below starts here. */
#define FX_ENTER(effect, fxvar, devvar)                                                          \
    XGDI_RESOLVE(NULL, effect, XGDI_RES_EFFECT, "effect");                                       \
    if ((effect) == NULL) return xgdi_fail(NULL, XGD_ERROR_INVALID_ARGUMENT, "effect is NULL"); \
    do {                                                                                         \
        xgd_result fx_r_ = xgdi_check_resource(NULL, FX_RES(effect), XGDI_RES_EFFECT, "effect");  \
        if (fx_r_ != XGD_OK) return fx_r_;                                                       \
    } while (0);                                                                                 \
    xgd_device *devvar = xgdi_resource_device(FX_RES(effect));                                   \
    xgdi_fx *fxvar = xgdi_effect_fx(effect);                                                     \
    if (fxvar == NULL) return xgdi_fail(devvar, XGD_ERROR_OBJECT_DISPOSED, "the effect has no body");

static xgd_result check_out(xgd_device *dev, const void *out)
{
    return out == NULL ? xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL") : XGD_OK;
}

static xgd_result check_technique(xgd_device *dev, const xgdi_fx *fx, int t)
{
    if (t < 0 || t >= fx->tech_count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "technique %d does not exist (the effect has %d)", t,
                         fx->tech_count);
    return XGD_OK;
}

static xgd_result check_pass(xgd_device *dev, const xgdi_fx *fx, int t, int p)
{
    xgd_result r = check_technique(dev, fx, t);
    if (r != XGD_OK) return r;
    if (p < 0 || p >= fx->techs[t].pass_count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "pass %d does not exist (technique %d has %d)", p, t,
                         fx->techs[t].pass_count);
    return XGD_OK;
}

static const fx_node *node_of(xgd_device *dev, const xgdi_fx *fx, xgd_effect_parameter p, xgd_result *r)
{
    if (p.id < 0 || p.id >= fx->node_count) {
        *r = xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter %d does not exist in this effect", (int)p.id);
        return NULL;
    }
    *r = XGD_OK;
    return &fx->nodes[p.id];
}

xgd_result xgd_effect_clone(xgd_effect *effect, xgd_effect **out)
{
    if (out != NULL) *out = NULL;
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = xgdi_check_device_alive(dev);
    if (r != XGD_OK) return r;
    xgdi_fx *c;
    r = xgdi_fx_clone(dev, fx, &c);
    if (r != XGD_OK) return r;
    return xgdi_effect_wrap_clone(dev, effect, c, out);
}

xgd_result xgd_effect_get_technique_count(xgd_effect *effect, int *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    *out = fx->tech_count;
    return XGD_OK;
}

xgd_result xgd_effect_find_technique(xgd_effect *effect, const char *name, int *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    if (name == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "name is NULL");
    for (int t = 0; t < fx->tech_count; t++) {
        const char *n = fx->techs[t].name;
        if (n != NULL && strcmp(n, name) == 0) {
            *out = t;
            return XGD_OK;
        }
    }
    return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the effect has no technique \"%s\"", name);
}

xgd_result xgd_effect_get_technique_info(xgd_effect *effect, int technique, xgd_effect_technique_info *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = check_technique(dev, fx, technique);
    if (r != XGD_OK) return r;
    const fx_technique *t = &fx->techs[technique];
    out->name = t->name != NULL ? t->name : "";
    out->pass_count = t->pass_count;
    out->annotation_count = t->anno_count;
    return XGD_OK;
}

xgd_result xgd_effect_find_pass(xgd_effect *effect, int technique, const char *name, int *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = check_technique(dev, fx, technique);
    if (r != XGD_OK) return r;
    if (name == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "name is NULL");
    const fx_technique *t = &fx->techs[technique];
    for (int p = 0; p < t->pass_count; p++) {
        if (t->passes[p].name != NULL && strcmp(t->passes[p].name, name) == 0) {
            *out = p;
            return XGD_OK;
        }
    }
    return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "technique %d has no pass \"%s\"", technique, name);
}

xgd_result xgd_effect_get_pass_info(xgd_effect *effect, int technique, int pass, xgd_effect_pass_info *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = check_pass(dev, fx, technique, pass);
    if (r != XGD_OK) return r;
    const fx_pass *p = &fx->techs[technique].passes[pass];
    out->name = p->name != NULL ? p->name : "";
    out->annotation_count = p->anno_count;
    return XGD_OK;
}

xgd_result xgd_effect_get_current_technique(xgd_effect *effect, int *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    *out = fx->current_technique;
    return XGD_OK;
}

xgd_result xgd_effect_set_current_technique(xgd_effect *effect, int technique)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_technique(dev, fx, technique);
    if (r != XGD_OK) return r;
    fx->current_technique = technique;
    return XGD_OK;
}

xgd_result xgd_effect_get_parameter_count(xgd_effect *effect, int *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    *out = fx->pub_count;
    return XGD_OK;
}

xgd_result xgd_effect_get_parameter(xgd_effect *effect, int index, xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    if (index < 0 || index >= fx->pub_count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter index %d is out of range (%d parameters)",
                         index, fx->pub_count);
    out->id = fx->pub[index];
    return XGD_OK;
}

static xgd_result find_param(xgd_effect *effect, const char *key, bool semantic, xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    if (key == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "name is NULL");
    for (int i = 0; i < fx->pub_count; i++) {
        const fx_node *n = &fx->nodes[fx->pub[i]];
        if (strcmp(semantic ? n->semantic : n->name, key) == 0 && (!semantic || key[0] != '\0')) {
            out->id = fx->pub[i];
            return XGD_OK;
        }
    }
    return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the effect has no parameter %s \"%s\"",
                     semantic ? "with semantic" : "named", key);
}

xgd_result xgd_effect_find_parameter(xgd_effect *effect, const char *name, xgd_effect_parameter *out)
{
    return find_param(effect, name, false, out);
}

xgd_result xgd_effect_find_parameter_by_semantic(xgd_effect *effect, const char *semantic,
                                                 xgd_effect_parameter *out)
{
    return find_param(effect, semantic, true, out);
}

xgd_result xgd_effect_parameter_get_info(xgd_effect *effect, xgd_effect_parameter p,
                                         xgd_effect_parameter_info *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    const fx_node *n = node_of(dev, fx, p, &r);
    if (n == NULL) return r;
    out->name = n->name;
    out->semantic = n->semantic;
    out->parameter_class = n->cls;
    out->parameter_type = n->type;
    out->rows = n->rows;
    out->columns = n->columns;
    out->element_count = n->elements;
    out->member_count = n->members;
    out->annotation_count = n->anno_count;
    out->annotation = n->annotation;
    return XGD_OK;
}

static xgd_result child(xgd_effect *effect, xgd_effect_parameter p, int index, int which,
                        xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    const fx_node *n = node_of(dev, fx, p, &r);
    if (n == NULL) return r;
    int count = which == 0 ? n->elements : which == 1 ? n->members : n->anno_count;
    int first = which == 2 ? n->anno_first : n->first_child;
    if (which == 1 && n->elements > 0) count = 0;
    if (index < 0 || index >= count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" has no %s %d (it has %d)", n->name,
                         which == 0 ? "element" : which == 1 ? "member" : "annotation", index, count);
    out->id = first + index;
    return XGD_OK;
}

xgd_result xgd_effect_parameter_get_element(xgd_effect *effect, xgd_effect_parameter p, int index,
                                            xgd_effect_parameter *out)
{
    return child(effect, p, index, 0, out);
}

xgd_result xgd_effect_parameter_get_member(xgd_effect *effect, xgd_effect_parameter p, int index,
                                           xgd_effect_parameter *out)
{
    return child(effect, p, index, 1, out);
}

xgd_result xgd_effect_parameter_get_annotation(xgd_effect *effect, xgd_effect_parameter p, int index,
                                               xgd_effect_parameter *out)
{
    return child(effect, p, index, 2, out);
}

xgd_result xgd_effect_parameter_find_member(xgd_effect *effect, xgd_effect_parameter p, const char *name,
                                            xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    if (name == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "name is NULL");
    const fx_node *n = node_of(dev, fx, p, &r);
    if (n == NULL) return r;
    for (int m = 0; m < n->members && n->elements == 0; m++) {
        if (strcmp(fx->nodes[n->first_child + m].name, name) == 0) {
            out->id = n->first_child + m;
            return XGD_OK;
        }
    }
    return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" has no member \"%s\"", n->name, name);
}

xgd_result xgd_effect_technique_get_annotation(xgd_effect *effect, int technique, int index,
                                               xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = check_technique(dev, fx, technique);
    if (r != XGD_OK) return r;
    int count = fx->techs[technique].anno_count;
    if (index < 0 || index >= count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "technique %d has no annotation %d (it has %d)",
                         technique, index, count);
    out->id = fx->techs[technique].anno_first + index;
    return XGD_OK;
}

xgd_result xgd_effect_pass_get_annotation(xgd_effect *effect, int technique, int pass, int index,
                                          xgd_effect_parameter *out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r == XGD_OK) r = check_pass(dev, fx, technique, pass);
    if (r != XGD_OK) return r;
    int count = fx->techs[technique].passes[pass].anno_count;
    if (index < 0 || index >= count)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "pass %d of technique %d has no annotation %d", pass,
                         technique, index);
    out->id = fx->techs[technique].passes[pass].anno_first + index;
    return XGD_OK;
}

/* ---- typed values -------------------------------------------------------------------------- */

static const char *type_name(xgd_effect_parameter_type t)
{
    static const char *const names[] = { "Void", "Bool", "Int32", "Single", "String", "Texture",
                                         "Texture1D", "Texture2D", "Texture3D", "TextureCube" };
    return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "?";
}

static const char *class_name(xgd_effect_parameter_class c)
{
    static const char *const names[] = { "Scalar", "Vector", "Matrix", "Object", "Struct" };
    return (unsigned)c < 5 ? names[c] : "?";
}

/* shape: 0 scalar, 1..4 vector of that many columns (class Vector), 5 matrix, 6 any numeric
 * (the array forms, which take every value). */
static const fx_node *typed(xgd_device *dev, const xgdi_fx *fx, xgd_effect_parameter p, xgd_effect_parameter_type type,
                            int shape, bool write, const char *what, xgd_result *r)
{
    const fx_node *n = node_of(dev, fx, p, r);
    if (n == NULL) return NULL;
    if (write && n->annotation) {
        *r = xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION, "annotation \"%s\" is read-only", n->name);
        return NULL;
    }
    bool ok = n->type == type;
    if (shape == 0) ok = ok && n->cls == XGD_EFFECT_PARAMETER_CLASS_SCALAR && n->elements == 0;
    else if (shape <= 4) ok = ok && n->cls == XGD_EFFECT_PARAMETER_CLASS_VECTOR && n->columns == shape && n->rows == 1 && n->elements == 0;
    else if (shape == 5) ok = ok && n->cls == XGD_EFFECT_PARAMETER_CLASS_MATRIX && n->elements == 0;
    else ok = ok && n->cls <= XGD_EFFECT_PARAMETER_CLASS_MATRIX;
    if (!ok) {
        *r = xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT,
                       "parameter \"%s\" is %s %s %dx%d%s; %s needs another type", n->name, class_name(n->cls),
                       type_name(n->type), n->rows, n->columns, n->elements > 0 ? " (an array)" : "", what);
        return NULL;
    }
    return n;
}

/* The value index of scalar (element e, row r, column c) of a numeric node. */
static uint32_t value_index(const fx_node *n, int e, int r, int c)
{
    uint32_t base = n->offset + (uint32_t)e * 4u * (uint32_t)(n->col_major ? n->columns : n->rows);
    return n->col_major ? base + (uint32_t)c * 4u + (uint32_t)r : base + (uint32_t)r * 4u + (uint32_t)c;
}

static bool index_ok(const fx_node *n, int e, int r, int c)
{
    return value_index(n, e, r, c) < n->value->value_count;
}

static int scalar_count(const fx_node *n)
{
    return (n->elements > 0 ? n->elements : 1) * n->rows * n->columns;
}

/* Reads or writes every scalar of n in element, row, column order: f (floats) or i (ints;
 * bools as 0/1). */
static xgd_result move_values(xgd_device *dev, const fx_node *n, float *f, int32_t *i, int count, bool write)
{
    int want = scalar_count(n);
    if (count != want)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" holds %d values, not %d", n->name, want,
                         count);
    int E = n->elements > 0 ? n->elements : 1, k = 0;
    if (want == 0) return XGD_OK;
    /* value_index grows with e, r and c, so the last scalar's index bounds every other one:
       one check before anything is written (a set either writes every value or none) */
    if (!index_ok(n, E - 1, n->rows - 1, n->columns - 1))
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "parameter \"%s\" has a layout xgd cannot address", n->name);
    if (f != NULL && write) {
        /* the per-draw case (set_matrix, set_vector4, ...): the same order, the index walked
           without recomputing it per scalar */
        uint32_t rs = n->col_major ? 1u : 4u, cs = n->col_major ? 4u : 1u;
        uint32_t es = 4u * (uint32_t)(n->col_major ? n->columns : n->rows);
        float *dst = n->value->valuesF;
        for (int e = 0; e < E; e++) {
            uint32_t eb = n->offset + (uint32_t)e * es;
            for (int r = 0; r < n->rows; r++)
                for (int c = 0; c < n->columns; c++) dst[eb + (uint32_t)r * rs + (uint32_t)c * cs] = f[k++];
        }
        return XGD_OK;
    }
    for (int e = 0; e < E; e++)
        for (int r = 0; r < n->rows; r++)
            for (int c = 0; c < n->columns; c++, k++) {
                uint32_t at = value_index(n, e, r, c);
                if (f != NULL) {
                    if (write) n->value->valuesF[at] = f[k];
                    else f[k] = n->value->valuesF[at];
                } else {
                    if (write) n->value->valuesI[at] = i[k];
                    else i[k] = n->value->valuesI[at];
                }
            }
    return XGD_OK;
}

static bool all_finite(const float *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) return false;
    return true;
}

static xgd_result set_floats(xgd_effect *effect, xgd_effect_parameter p, const float *v, int count, int shape,
                             const char *what)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r;
    const fx_node *n = typed(dev, fx, p, XGD_EFFECT_PARAMETER_TYPE_SINGLE, shape, true, what, &r);
    if (n == NULL) return r;
    if (v == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "values is NULL");
    return move_values(dev, n, (float *)v, NULL, count, true);
}

static xgd_result get_floats(xgd_effect *effect, xgd_effect_parameter p, float *v, int count, int shape,
                             const char *what)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r;
    const fx_node *n = typed(dev, fx, p, XGD_EFFECT_PARAMETER_TYPE_SINGLE, shape, false, what, &r);
    if (n == NULL) return r;
    if (v == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "out is NULL");
    return move_values(dev, n, v, NULL, count, false);
}

static xgd_result move_ints(xgd_effect *effect, xgd_effect_parameter p, int32_t *v, int count, int shape,
                            xgd_effect_parameter_type type, bool write, const char *what)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r;
    const fx_node *n = typed(dev, fx, p, type, shape, write, what, &r);
    if (n == NULL) return r;
    if (v == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "values is NULL");
    return move_values(dev, n, NULL, v, count, write);
}

xgd_result xgd_effect_parameter_set_bool(xgd_effect *effect, xgd_effect_parameter p, bool v)
{
    int32_t i = v ? 1 : 0;
    return move_ints(effect, p, &i, 1, 0, XGD_EFFECT_PARAMETER_TYPE_BOOL, true, "set_bool");
}

xgd_result xgd_effect_parameter_set_int(xgd_effect *effect, xgd_effect_parameter p, int32_t v)
{
    return move_ints(effect, p, &v, 1, 0, XGD_EFFECT_PARAMETER_TYPE_INT32, true, "set_int");
}

xgd_result xgd_effect_parameter_set_float(xgd_effect *effect, xgd_effect_parameter p, float v)
{
    return set_floats(effect, p, &v, 1, 0, "set_float");
}

xgd_result xgd_effect_parameter_set_vector2(xgd_effect *effect, xgd_effect_parameter p, xgd_vector2 v)
{
    float f[2] = { v.x, v.y };
    return set_floats(effect, p, f, 2, 2, "set_vector2");
}

xgd_result xgd_effect_parameter_set_vector3(xgd_effect *effect, xgd_effect_parameter p, xgd_vector3 v)
{
    float f[3] = { v.x, v.y, v.z };
    return set_floats(effect, p, f, 3, 3, "set_vector3");
}

xgd_result xgd_effect_parameter_set_vector4(xgd_effect *effect, xgd_effect_parameter p, xgd_vector4 v)
{
    float f[4] = { v.x, v.y, v.z, v.w };
    return set_floats(effect, p, f, 4, 4, "set_vector4");
}

/* The top-left rows x columns of each matrix, row by row. */
static xgd_result matrices(xgd_effect *effect, xgd_effect_parameter p, xgd_matrix *m, int count, bool single,
                           bool write)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r;
    const char *what = write ? (single ? "set_matrix" : "set_matrices") : (single ? "get_matrix" : "get_matrices");
    const fx_node *n = node_of(dev, fx, p, &r);
    if (n == NULL) return r;
    if (write && n->annotation)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION, "annotation \"%s\" is read-only", n->name);
    if (n->cls != XGD_EFFECT_PARAMETER_CLASS_MATRIX || n->type != XGD_EFFECT_PARAMETER_TYPE_SINGLE ||
        (single && n->elements > 0))
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" is %s %s%s; %s needs a %s", n->name,
                         class_name(n->cls), type_name(n->type), n->elements > 0 ? " (an array)" : "", what,
                         single ? "Single matrix" : "Single matrix array");
    if (m == NULL) return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "matrix is NULL");
    int E = n->elements > 0 ? n->elements : 1;
    if (count != E)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" holds %d matrices, not %d", n->name, E,
                         count);
    if (write)
        for (int e = 0; e < E; e++)
            if (!all_finite(m[e].m, 16))
                return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "the matrix has non-finite entries");
    float vals[16 * 64];
    float *buf = vals;
    int need = E * n->rows * n->columns;
    if (need > 16 * 64) {
        buf = malloc(sizeof(float) * (size_t)need);
        if (buf == NULL) return xgdi_fail(dev, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    }
    if (write)
        for (int e = 0, k = 0; e < E; e++)
            for (int rr = 0; rr < n->rows; rr++)
                for (int c = 0; c < n->columns; c++) buf[k++] = m[e].m[rr * 4 + c];
    r = move_values(dev, n, buf, NULL, need, write);
    if (r == XGD_OK && !write)
        for (int e = 0, k = 0; e < E; e++) {
            m[e] = xgd_matrix_identity();
            for (int rr = 0; rr < n->rows; rr++)
                for (int c = 0; c < n->columns; c++) m[e].m[rr * 4 + c] = buf[k++];
        }
    if (buf != vals) free(buf);
    return r;
}

xgd_result xgd_effect_parameter_set_matrix(xgd_effect *effect, xgd_effect_parameter p, const xgd_matrix *m)
{
    return matrices(effect, p, (xgd_matrix *)m, 1, true, true);
}

xgd_result xgd_effect_parameter_set_matrices(xgd_effect *effect, xgd_effect_parameter p, const xgd_matrix *m,
                                             int count)
{
    return matrices(effect, p, (xgd_matrix *)m, count, false, true);
}

xgd_result xgd_effect_parameter_get_matrix(xgd_effect *effect, xgd_effect_parameter p, xgd_matrix *out)
{
    return matrices(effect, p, out, 1, true, false);
}

xgd_result xgd_effect_parameter_get_matrices(xgd_effect *effect, xgd_effect_parameter p, xgd_matrix *out,
                                             int count)
{
    return matrices(effect, p, out, count, false, false);
}

xgd_result xgd_effect_parameter_set_bools(xgd_effect *effect, xgd_effect_parameter p, const bool *v, int count)
{
    if (v == NULL || count <= 0 || count > (1 << 20))
        return move_ints(effect, p, NULL, count, 6, XGD_EFFECT_PARAMETER_TYPE_BOOL, true, "set_bools");
    int32_t small[64], *buf = count <= 64 ? small : malloc(sizeof(int32_t) * (size_t)count);
    if (buf == NULL) return xgdi_fail(NULL, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    for (int i = 0; i < count; i++) buf[i] = v[i] ? 1 : 0;
    xgd_result r = move_ints(effect, p, buf, count, 6, XGD_EFFECT_PARAMETER_TYPE_BOOL, true, "set_bools");
    if (buf != small) free(buf);
    return r;
}

xgd_result xgd_effect_parameter_set_ints(xgd_effect *effect, xgd_effect_parameter p, const int32_t *v, int count)
{
    return move_ints(effect, p, (int32_t *)v, count, 6, XGD_EFFECT_PARAMETER_TYPE_INT32, true, "set_ints");
}

xgd_result xgd_effect_parameter_set_floats(xgd_effect *effect, xgd_effect_parameter p, const float *v, int count)
{
    return set_floats(effect, p, v, count, 6, "set_floats");
}

xgd_result xgd_effect_parameter_get_bool(xgd_effect *effect, xgd_effect_parameter p, bool *out)
{
    int32_t i = 0;
    if (out == NULL) return move_ints(effect, p, NULL, 1, 0, XGD_EFFECT_PARAMETER_TYPE_BOOL, false, "get_bool");
    xgd_result r = move_ints(effect, p, &i, 1, 0, XGD_EFFECT_PARAMETER_TYPE_BOOL, false, "get_bool");
    if (r == XGD_OK) *out = i != 0;
    return r;
}

xgd_result xgd_effect_parameter_get_int(xgd_effect *effect, xgd_effect_parameter p, int32_t *out)
{
    return move_ints(effect, p, out, 1, 0, XGD_EFFECT_PARAMETER_TYPE_INT32, false, "get_int");
}

xgd_result xgd_effect_parameter_get_float(xgd_effect *effect, xgd_effect_parameter p, float *out)
{
    return get_floats(effect, p, out, 1, 0, "get_float");
}

xgd_result xgd_effect_parameter_get_vector2(xgd_effect *effect, xgd_effect_parameter p, xgd_vector2 *out)
{
    float f[2];
    xgd_result r = get_floats(effect, p, out != NULL ? f : NULL, 2, 2, "get_vector2");
    if (r == XGD_OK) *out = (xgd_vector2){ f[0], f[1] };
    return r;
}

xgd_result xgd_effect_parameter_get_vector3(xgd_effect *effect, xgd_effect_parameter p, xgd_vector3 *out)
{
    float f[3];
    xgd_result r = get_floats(effect, p, out != NULL ? f : NULL, 3, 3, "get_vector3");
    if (r == XGD_OK) *out = (xgd_vector3){ f[0], f[1], f[2] };
    return r;
}

xgd_result xgd_effect_parameter_get_vector4(xgd_effect *effect, xgd_effect_parameter p, xgd_vector4 *out)
{
    float f[4];
    xgd_result r = get_floats(effect, p, out != NULL ? f : NULL, 4, 4, "get_vector4");
    if (r == XGD_OK) *out = (xgd_vector4){ f[0], f[1], f[2], f[3] };
    return r;
}

xgd_result xgd_effect_parameter_get_bools(xgd_effect *effect, xgd_effect_parameter p, bool *out, int count)
{
    if (out == NULL || count <= 0 || count > (1 << 20))
        return move_ints(effect, p, NULL, count, 6, XGD_EFFECT_PARAMETER_TYPE_BOOL, false, "get_bools");
    int32_t small[64], *buf = count <= 64 ? small : malloc(sizeof(int32_t) * (size_t)count);
    if (buf == NULL) return xgdi_fail(NULL, XGD_ERROR_OUT_OF_MEMORY, "out of memory");
    xgd_result r = move_ints(effect, p, buf, count, 6, XGD_EFFECT_PARAMETER_TYPE_BOOL, false, "get_bools");
    if (r == XGD_OK)
        for (int i = 0; i < count; i++) out[i] = buf[i] != 0;
    if (buf != small) free(buf);
    return r;
}

xgd_result xgd_effect_parameter_get_ints(xgd_effect *effect, xgd_effect_parameter p, int32_t *out, int count)
{
    return move_ints(effect, p, out, count, 6, XGD_EFFECT_PARAMETER_TYPE_INT32, false, "get_ints");
}

xgd_result xgd_effect_parameter_get_floats(xgd_effect *effect, xgd_effect_parameter p, float *out, int count)
{
    return get_floats(effect, p, out, count, 6, "get_floats");
}

static bool texture_fits(xgd_effect_parameter_type t, xgd_texture_kind k)
{
    switch (t) {
    case XGD_EFFECT_PARAMETER_TYPE_TEXTURE: return true;
    case XGD_EFFECT_PARAMETER_TYPE_TEXTURE2D: return k == XGD_TEXTURE_2D || k == XGD_RENDER_TARGET_2D;
    case XGD_EFFECT_PARAMETER_TYPE_TEXTURE_CUBE: return k == XGD_TEXTURE_CUBE || k == XGD_RENDER_TARGET_CUBE;
    case XGD_EFFECT_PARAMETER_TYPE_TEXTURE3D: return k == XGD_TEXTURE_3D;
    default: return false;
    }
}

static const fx_node *texture_node(xgd_device *dev, const xgdi_fx *fx, xgd_effect_parameter p, bool write,
                                   xgd_result *r)
{
    const fx_node *n = node_of(dev, fx, p, r);
    if (n == NULL) return NULL;
    if (n->type < XGD_EFFECT_PARAMETER_TYPE_TEXTURE || n->type > XGD_EFFECT_PARAMETER_TYPE_TEXTURE_CUBE ||
        n->elements > 0 || n->annotation) {
        *r = xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" is %s %s%s; %s needs a texture parameter",
                       n->name, class_name(n->cls), type_name(n->type), n->elements > 0 ? " (an array)" : "",
                       write ? "set_texture" : "get_texture");
        return NULL;
    }
    int obj = n->value->valuesI[n->offset];
    if (obj < 0 || obj >= fx->object_count) {
        *r = xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" has no texture object", n->name);
        return NULL;
    }
    return n;
}

xgd_result xgd_effect_parameter_set_texture(xgd_effect *effect, xgd_effect_parameter p, xgd_texture *texture)
{
    FX_ENTER(effect, fx, dev);
    xgd_texture *handle = texture;
    XGDI_RESOLVE(dev, texture, XGDI_RES_TEXTURE, "texture");
    xgd_result r;
    const fx_node *n = texture_node(dev, fx, p, true, &r);
    if (n == NULL) return r;
    if (texture != NULL) {
        r = xgdi_check_resource(dev, &texture->res, XGDI_RES_TEXTURE, "texture");
        if (r != XGD_OK) return r;
        if (!texture_fits(n->type, texture->kind))
            return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" is a %s; the texture is of another kind",
                             n->name, type_name(n->type));
    }
    fx_texref *t = &fx->textures[n->value->valuesI[n->offset]];
    t->handle = handle;
    t->ref = texture != NULL ? xgdi_ref_make(&texture->res) : (xgdi_ref){ 0, 0 };
    return XGD_OK;
}

xgd_result xgd_effect_parameter_get_texture(xgd_effect *effect, xgd_effect_parameter p, xgd_texture **out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    const fx_node *n = texture_node(dev, fx, p, false, &r);
    if (n == NULL) return r;
    const fx_texref *t = &fx->textures[n->value->valuesI[n->offset]];
    *out = t->handle != NULL && xgdi_ref_get(dev, t->ref) != NULL ? t->handle : NULL;
    return XGD_OK;
}

xgd_result xgd_effect_parameter_get_string(xgd_effect *effect, xgd_effect_parameter p, const char **out)
{
    FX_ENTER(effect, fx, dev);
    xgd_result r = check_out(dev, out);
    if (r != XGD_OK) return r;
    const fx_node *n = node_of(dev, fx, p, &r);
    if (n == NULL) return r;
    if (n->type != XGD_EFFECT_PARAMETER_TYPE_STRING || n->elements > 0)
        return xgdi_fail(dev, XGD_ERROR_INVALID_ARGUMENT, "parameter \"%s\" is %s %s; get_string needs a String",
                         n->name, class_name(n->cls), type_name(n->type));
    int obj = n->value->valuesI[n->offset];
    const char *s = obj >= 0 && obj < fx->table.object_count && fx->table.objects[obj].kind == XGDI_FX_OBJ_STRING
                        ? fx->table.objects[obj].string
                        : NULL;
    *out = s != NULL ? s : "";
    return XGD_OK;
}

/* ---- apply ------------------------------------------------------------------------------------ */

static xgd_texture_address_mode address_of(int a, xgd_texture_address_mode keep)
{
    switch (a) {
    case XGDI_D3D_TADDRESS_WRAP: return XGD_ADDRESS_WRAP;
    case XGDI_D3D_TADDRESS_MIRROR: return XGD_ADDRESS_MIRROR;
    case XGDI_D3D_TADDRESS_CLAMP:
    case XGDI_D3D_TADDRESS_BORDER:
    case XGDI_D3D_TADDRESS_MIRRORONCE: return XGD_ADDRESS_CLAMP;
    default: return keep;
    }
}

/* XNA's filter from Direct3D 9's minification, magnification and mip filters. */
static xgd_texture_filter filter_of(int mn, int mg, int mp)
{
    bool aniso = mn == XGDI_D3D_FILTER_ANISOTROPIC || mg == XGDI_D3D_FILTER_ANISOTROPIC;
    if (aniso) return XGD_FILTER_ANISOTROPIC;
    bool min_l = mn == XGDI_D3D_FILTER_LINEAR, mag_l = mg == XGDI_D3D_FILTER_LINEAR,
         mip_l = mp == XGDI_D3D_FILTER_LINEAR;
    if (min_l && mag_l) return mip_l ? XGD_FILTER_LINEAR : XGD_FILTER_LINEAR_MIP_POINT;
    if (!min_l && !mag_l) return mip_l ? XGD_FILTER_POINT_MIP_LINEAR : XGD_FILTER_POINT;
    if (min_l) return mip_l ? XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR : XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT;
    return mip_l ? XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR : XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT;
}

/* The filter's three parts as Direct3D 9 filters (the inverse of filter_of). */
static void filter_parts(xgd_texture_filter f, int *mn, int *mg, int *mp)
{
    const int L = XGDI_D3D_FILTER_LINEAR, P = XGDI_D3D_FILTER_POINT;
    switch (f) {
    case XGD_FILTER_POINT: *mn = P, *mg = P, *mp = P; break;
    case XGD_FILTER_ANISOTROPIC: *mn = XGDI_D3D_FILTER_ANISOTROPIC, *mg = XGDI_D3D_FILTER_ANISOTROPIC, *mp = L; break;
    case XGD_FILTER_LINEAR_MIP_POINT: *mn = L, *mg = L, *mp = P; break;
    case XGD_FILTER_POINT_MIP_LINEAR: *mn = P, *mg = P, *mp = L; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR: *mn = L, *mg = P, *mp = L; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT: *mn = L, *mg = P, *mp = P; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR: *mn = P, *mg = L, *mp = L; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT: *mn = P, *mg = L, *mp = P; break;
    default: *mn = L, *mg = L, *mp = L; break;
    }
}

static bool sampler_equal(const xgd_sampler_desc *a, const xgd_sampler_desc *b)
{
    return a->filter == b->filter && a->address_u == b->address_u && a->address_v == b->address_v &&
           a->address_w == b->address_w && a->max_anisotropy == b->max_anisotropy &&
           a->max_mip_level == b->max_mip_level &&
           a->mip_map_level_of_detail_bias == b->mip_map_level_of_detail_bias;
}

#ifdef XGD_HAVE_MOJOSHADER
/* The pass's sampler states (on top of the device's current state of that register, as XNA
 * does) and the texture its sampler names. */
static xgd_result apply_samplers(xgd_device *dev, xgdi_fx *fx, const MOJOSHADER_effectStateChanges *ch)
{
    for (unsigned i = 0; i < ch->sampler_state_change_count; i++) {
        const MOJOSHADER_samplerStateRegister *reg = &ch->sampler_state_changes[i];
        int slot = (int)reg->sampler_register;
        if (slot < 0 || slot >= XGDI_MAX_TEXTURE_SLOTS) continue;
        xgd_sampler_desc d = dev->sampler_states[slot]->desc;
        int mn, mg, mp;
        filter_parts(d.filter, &mn, &mg, &mp);
        bool filter_set = false;
        for (unsigned s = 0; s < reg->sampler_state_count; s++) {
            const MOJOSHADER_effectSamplerState *st = &reg->sampler_states[s];
            if (st->value.value_count < 1 && st->type != MOJOSHADER_SAMP_TEXTURE) continue;
            int iv = st->value.type.parameter_type == MOJOSHADER_SYMTYPE_FLOAT ? (int)st->value.valuesF[0]
                                                                              : st->value.valuesI[0];
            switch (st->type) {
            case MOJOSHADER_SAMP_TEXTURE: {
                int obj = st->value.value_count > 0 ? st->value.valuesI[0] : -1;
                if (obj < 0 || obj >= fx->object_count) break;
                const fx_texref *t = &fx->textures[obj];
                xgd_texture *tex = NULL;
                if (t->handle != NULL) {
                    xgdi_resource *res = xgdi_ref_get(dev, t->ref);
                    if (res == NULL)
                        return xgdi_fail(dev, XGD_ERROR_OBJECT_DISPOSED,
                                         "the texture set on the effect for sampler s%d was destroyed", slot);
                    tex = (xgd_texture *)res;
                }
                if (dev->textures[slot] != tex) {
                    dev->textures[slot] = tex;
                    dev->draw_state.dirty |= XGDI_DIRTY_TEXTURES;
                    dev->draw_state.slots_changed |= 1u << slot;
                }
                break;
            }
            case MOJOSHADER_SAMP_ADDRESSU: d.address_u = address_of(iv, d.address_u); break;
            case MOJOSHADER_SAMP_ADDRESSV: d.address_v = address_of(iv, d.address_v); break;
            case MOJOSHADER_SAMP_ADDRESSW: d.address_w = address_of(iv, d.address_w); break;
            case MOJOSHADER_SAMP_MAGFILTER: mg = iv, filter_set = true; break;
            case MOJOSHADER_SAMP_MINFILTER: mn = iv, filter_set = true; break;
            case MOJOSHADER_SAMP_MIPFILTER: mp = iv, filter_set = true; break;
            case MOJOSHADER_SAMP_MAXANISOTROPY: d.max_anisotropy = iv < 0 ? 0 : iv > 16 ? 16 : iv; break;
            case MOJOSHADER_SAMP_MAXMIPLEVEL: d.max_mip_level = iv < 0 ? 0 : iv; break;
            case MOJOSHADER_SAMP_MIPMAPLODBIAS:
                d.mip_map_level_of_detail_bias = st->value.type.parameter_type == MOJOSHADER_SYMTYPE_FLOAT
                                                     ? st->value.valuesF[0] : (float)iv;
                break;
            default: break;
            }
        }
        if (filter_set) d.filter = filter_of(mn, mg, mp);
        if (sampler_equal(&d, &dev->sampler_states[slot]->desc)) continue;
        xgd_sampler_state *state = NULL;
        for (int c = 0; c < fx->sampler_count && state == NULL; c++)
            if (sampler_equal(&fx->samplers[c].desc, &d)) state = fx->samplers[c].state;
        if (state == NULL) {
            if (fx->sampler_count == FX_SAMPLER_CACHE) {
                xgdi_warn(dev, "effect: more than %d distinct sampler states; s%d keeps the device's",
                          FX_SAMPLER_CACHE, slot);
                continue;
            }
            xgd_result r = xgd_sampler_state_create(dev, &d, &state);
            if (r != XGD_OK) return r;
            fx->samplers[fx->sampler_count].desc = d;
            fx->samplers[fx->sampler_count].state = state;
            fx->sampler_count++;
        }
        xgd_result r = xgd_set_sampler_state(dev, slot, state);
        if (r != XGD_OK) return r;
    }
    return XGD_OK;
}
#endif

static xgd_blend blend_of(int b, xgd_blend keep)
{
    switch (b) {
    case XGDI_D3D_BLEND_ZERO: return XGD_BLEND_ZERO;
    case XGDI_D3D_BLEND_ONE: return XGD_BLEND_ONE;
    case XGDI_D3D_BLEND_SRCCOLOR: return XGD_BLEND_SOURCE_COLOR;
    case XGDI_D3D_BLEND_INVSRCCOLOR: return XGD_BLEND_INVERSE_SOURCE_COLOR;
    case XGDI_D3D_BLEND_SRCALPHA: return XGD_BLEND_SOURCE_ALPHA;
    case XGDI_D3D_BLEND_INVSRCALPHA: return XGD_BLEND_INVERSE_SOURCE_ALPHA;
    case XGDI_D3D_BLEND_DESTALPHA: return XGD_BLEND_DESTINATION_ALPHA;
    case XGDI_D3D_BLEND_INVDESTALPHA: return XGD_BLEND_INVERSE_DESTINATION_ALPHA;
    case XGDI_D3D_BLEND_DESTCOLOR: return XGD_BLEND_DESTINATION_COLOR;
    case XGDI_D3D_BLEND_INVDESTCOLOR: return XGD_BLEND_INVERSE_DESTINATION_COLOR;
    case XGDI_D3D_BLEND_SRCALPHASAT: return XGD_BLEND_SOURCE_ALPHA_SATURATION;
    case XGDI_D3D_BLEND_BLENDFACTOR: return XGD_BLEND_BLEND_FACTOR;
    case XGDI_D3D_BLEND_INVBLENDFACTOR: return XGD_BLEND_INVERSE_BLEND_FACTOR;
    default: return keep;
    }
}

static xgd_blend_function blend_op_of(int o, xgd_blend_function keep)
{
    switch (o) {
    case XGDI_D3D_BLENDOP_ADD: return XGD_BLEND_FUNCTION_ADD;
    case XGDI_D3D_BLENDOP_SUBTRACT: return XGD_BLEND_FUNCTION_SUBTRACT;
    case XGDI_D3D_BLENDOP_REVSUBTRACT: return XGD_BLEND_FUNCTION_REVERSE_SUBTRACT;
    case XGDI_D3D_BLENDOP_MIN: return XGD_BLEND_FUNCTION_MIN;
    case XGDI_D3D_BLENDOP_MAX: return XGD_BLEND_FUNCTION_MAX;
    default: return keep;
    }
}

static xgd_compare_function compare_of(int c, xgd_compare_function keep)
{
    switch (c) {
    case XGDI_D3D_CMP_NEVER: return XGD_COMPARE_NEVER;
    case XGDI_D3D_CMP_LESS: return XGD_COMPARE_LESS;
    case XGDI_D3D_CMP_EQUAL: return XGD_COMPARE_EQUAL;
    case XGDI_D3D_CMP_LESSEQUAL: return XGD_COMPARE_LESS_EQUAL;
    case XGDI_D3D_CMP_GREATER: return XGD_COMPARE_GREATER;
    case XGDI_D3D_CMP_NOTEQUAL: return XGD_COMPARE_NOT_EQUAL;
    case XGDI_D3D_CMP_GREATEREQUAL: return XGD_COMPARE_GREATER_EQUAL;
    case XGDI_D3D_CMP_ALWAYS: return XGD_COMPARE_ALWAYS;
    default: return keep;
    }
}

static xgd_stencil_operation stencil_op_of(int o, xgd_stencil_operation keep)
{
    switch (o) {
    case XGDI_D3D_STENCILOP_KEEP: return XGD_STENCIL_OP_KEEP;
    case XGDI_D3D_STENCILOP_ZERO: return XGD_STENCIL_OP_ZERO;
    case XGDI_D3D_STENCILOP_REPLACE: return XGD_STENCIL_OP_REPLACE;
    case XGDI_D3D_STENCILOP_INCRSAT: return XGD_STENCIL_OP_INCREMENT_SATURATION;
    case XGDI_D3D_STENCILOP_DECRSAT: return XGD_STENCIL_OP_DECREMENT_SATURATION;
    case XGDI_D3D_STENCILOP_INVERT: return XGD_STENCIL_OP_INVERT;
    case XGDI_D3D_STENCILOP_INCR: return XGD_STENCIL_OP_INCREMENT;
    case XGDI_D3D_STENCILOP_DECR: return XGD_STENCIL_OP_DECREMENT;
    default: return keep;
    }
}

/* The pass's render states, as XNA applies an effect pass: on top of the device's current
 * blend, depth-stencil and rasterizer states, each replaced only when the pass changes it
 * (blend: AlphaBlendEnable, Src/DestBlend, BlendOp and their alpha forms, ColorWriteEnable
 * and ColorWriteEnable1..3 for targets 1..3; depth-stencil: ZEnable, ZWriteEnable, ZFunc,
 * StencilEnable, StencilFunc/Pass/Fail/ZFail, their CCW forms with TwoSidedStencilMode,
 * StencilRef, StencilMask, StencilWriteMask; rasterizer: CullMode, FillMode,
 * ScissorTestEnable, DepthBias and SlopeScaleDepthBias, whose values are floats (Direct3D 9
 * keeps their bits in the state's DWORD, so they are read as a float whatever the value's
 * type). Other Direct3D 9 states have no XNA state object and are ignored. */
static xgd_result apply_render_states(xgd_device *dev, xgdi_fx *fx, const xgdi_fx_pass *pass)
{
    xgd_blend_state_desc b = dev->blend_state->desc;
    xgd_depth_stencil_desc d = dev->depth_stencil_state->desc;
    xgd_rasterizer_desc r = dev->rasterizer_state->desc;
    bool tb = false, td = false, tr = false;
    int enable = -1, separate = 0;
    int src = -1, dst = -1, op = -1, asrc = -1, adst = -1, aop = -1;
    for (unsigned i = 0; i < pass->state_count; i++) {
        const xgdi_fx_state *st = &pass->states[i];
        if (st->value.value_count < 1 || st->type == XGDI_FX_RS_VERTEXSHADER ||
            st->type == XGDI_FX_RS_PIXELSHADER)
            continue;
        if (st->type == XGDI_FX_RS_DEPTHBIAS || st->type == XGDI_FX_RS_SLOPESCALEDEPTHBIAS) {
            float f = st->value.valuesF[0];
            if (!isfinite(f)) continue;
            if (st->type == XGDI_FX_RS_DEPTHBIAS) r.depth_bias = f;
            else r.slope_scale_depth_bias = f;
            tr = true;
            continue;
        }
        int v;
        if (st->value.type.parameter_type == XGDI_FX_FLOAT) {
            /* a float state value outside int's range names no Direct3D 9 enum: ignored, as
               an unknown value of a known state is */
            float f = st->value.valuesF[0];
            if (!(f >= -2147483648.0f && f < 2147483648.0f)) continue;
            v = (int)f;
        } else {
            v = st->value.valuesI[0];
        }
        switch (st->type) {
        case XGDI_FX_RS_ALPHABLENDENABLE: enable = v != 0, tb = true; break;
        case XGDI_FX_RS_SEPARATEALPHABLENDENABLE: separate = v != 0, tb = true; break;
        case XGDI_FX_RS_SRCBLEND: src = v, tb = true; break;
        case XGDI_FX_RS_DESTBLEND: dst = v, tb = true; break;
        case XGDI_FX_RS_BLENDOP: op = v, tb = true; break;
        case XGDI_FX_RS_SRCBLENDALPHA: asrc = v, tb = true; break;
        case XGDI_FX_RS_DESTBLENDALPHA: adst = v, tb = true; break;
        case XGDI_FX_RS_BLENDOPALPHA: aop = v, tb = true; break;
        case XGDI_FX_RS_COLORWRITEENABLE: b.target[0].color_write_channels = (unsigned)v & 15u, tb = true; break;
        case XGDI_FX_RS_ZENABLE: d.depth_buffer_enable = v != 0, td = true; break;
        case XGDI_FX_RS_ZWRITEENABLE: d.depth_buffer_write_enable = v != 0, td = true; break;
        case XGDI_FX_RS_ZFUNC: d.depth_function = compare_of(v, d.depth_function), td = true; break;
        case XGDI_FX_RS_COLORWRITEENABLE1: b.target[1].color_write_channels = (unsigned)v & 15u, tb = true; break;
        case XGDI_FX_RS_COLORWRITEENABLE2: b.target[2].color_write_channels = (unsigned)v & 15u, tb = true; break;
        case XGDI_FX_RS_COLORWRITEENABLE3: b.target[3].color_write_channels = (unsigned)v & 15u, tb = true; break;
        case XGDI_FX_RS_STENCILENABLE: d.stencil_enable = v != 0, td = true; break;
        case XGDI_FX_RS_STENCILFUNC: d.stencil_function = compare_of(v, d.stencil_function), td = true; break;
        case XGDI_FX_RS_STENCILPASS: d.stencil_pass = stencil_op_of(v, d.stencil_pass), td = true; break;
        case XGDI_FX_RS_STENCILFAIL: d.stencil_fail = stencil_op_of(v, d.stencil_fail), td = true; break;
        case XGDI_FX_RS_STENCILZFAIL: d.stencil_depth_fail = stencil_op_of(v, d.stencil_depth_fail), td = true; break;
        case XGDI_FX_RS_TWOSIDEDSTENCILMODE: d.two_sided_stencil = v != 0, td = true; break;
        case XGDI_FX_RS_CCW_STENCILFUNC: d.ccw_stencil_function = compare_of(v, d.ccw_stencil_function), td = true; break;
        case XGDI_FX_RS_CCW_STENCILPASS: d.ccw_stencil_pass = stencil_op_of(v, d.ccw_stencil_pass), td = true; break;
        case XGDI_FX_RS_CCW_STENCILFAIL: d.ccw_stencil_fail = stencil_op_of(v, d.ccw_stencil_fail), td = true; break;
        case XGDI_FX_RS_CCW_STENCILZFAIL: d.ccw_stencil_depth_fail = stencil_op_of(v, d.ccw_stencil_depth_fail), td = true; break;
        case XGDI_FX_RS_STENCILREF: d.reference_stencil = v & 0xff, td = true; break;
        case XGDI_FX_RS_STENCILMASK: d.stencil_mask = v & 0xff, td = true; break;
        case XGDI_FX_RS_STENCILWRITEMASK: d.stencil_write_mask = v & 0xff, td = true; break;
        case XGDI_FX_RS_CULLMODE:
            r.cull_mode = v == XGDI_D3D_CULL_NONE ? XGD_CULL_NONE
                          : v == XGDI_D3D_CULL_CW ? XGD_CULL_CLOCKWISE_FACE
                          : v == XGDI_D3D_CULL_CCW ? XGD_CULL_COUNTER_CLOCKWISE_FACE : r.cull_mode;
            tr = true;
            break;
        case XGDI_FX_RS_FILLMODE:
            r.fill_mode = v == XGDI_D3D_FILL_WIREFRAME ? XGD_FILL_WIREFRAME : XGD_FILL_SOLID;
            tr = true;
            break;
        case XGDI_FX_RS_SCISSORTESTENABLE: r.scissor_test_enable = v != 0, tr = true; break;
        default: break;
        }
    }
    if (tb) {
        xgd_target_blend_desc *t0 = &b.target[0];
        if (enable == 0) {
            /* blending off: the source replaces the target */
            t0->color_source_blend = t0->alpha_source_blend = XGD_BLEND_ONE;
            t0->color_destination_blend = t0->alpha_destination_blend = XGD_BLEND_ZERO;
            t0->color_blend_function = t0->alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
        } else {
            t0->color_source_blend = blend_of(src, t0->color_source_blend);
            t0->color_destination_blend = blend_of(dst, t0->color_destination_blend);
            t0->color_blend_function = blend_op_of(op, t0->color_blend_function);
            /* without SeparateAlphaBlendEnable, alpha blends as colour (Direct3D 9) */
            t0->alpha_source_blend = blend_of(separate ? asrc : src, t0->alpha_source_blend);
            t0->alpha_destination_blend = blend_of(separate ? adst : dst, t0->alpha_destination_blend);
            t0->alpha_blend_function = blend_op_of(separate ? aop : op, t0->alpha_blend_function);
        }
    }
#define FX_STATE(flag, cur, desc_, cache, count, type_, create, set)                                   \
    if (flag && memcmp(&desc_, &dev->cur->desc, sizeof desc_) != 0) {                                \
        type_ *obj = NULL;                                                                           \
        for (int i = 0; i < fx->count && obj == NULL; i++)                                          \
            if (memcmp(&fx->cache[i].desc, &desc_, sizeof desc_) == 0) obj = fx->cache[i].state;     \
        if (obj == NULL && fx->count < 8) {                                                          \
            xgd_result rc = create(dev, &desc_, &obj);                                               \
            if (rc != XGD_OK) return rc;                                                             \
            fx->cache[fx->count].desc = desc_;                                                       \
            fx->cache[fx->count++].state = obj;                                                      \
        }                                                                                            \
        if (obj != NULL) {                                                                           \
            xgd_result rc = set(dev, obj);                                                           \
            if (rc != XGD_OK) return rc;                                                             \
        }                                                                                            \
    }
    FX_STATE(tb, blend_state, b, blends, blend_count, xgd_blend_state, xgd_blend_state_create, xgd_set_blend_state)
    FX_STATE(td, depth_stencil_state, d, depths, depth_count, xgd_depth_stencil_state, xgd_depth_stencil_state_create,
             xgd_set_depth_stencil_state)
    FX_STATE(tr, rasterizer_state, r, rasters, raster_count, xgd_rasterizer_state, xgd_rasterizer_state_create,
             xgd_set_rasterizer_state)
#undef FX_STATE
    return XGD_OK;
}

static xgd_result ensure_native(xgd_device *dev, fx_shader *s)
{
    if (s->native != NULL) return XGD_OK;
    if (dev->ops->shader_create == NULL || dev->ops->shader_destroy == NULL)
        return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED,
                         "the %s renderer cannot run effects loaded from bytes yet", dev->ops->name);
    if (s->code == NULL && s->source != NULL) {
        xgd_result r = hx_rewrite(dev, s);
        if (r != XGD_OK) return r;
    }
    xgdi_shader_desc d;
    memset(&d, 0, sizeof d);
    d.stage = s->stage;
    d.code = s->code;
    d.word_count = s->words;
    d.constant_count = s->constant_count;
    d.registers = s->registers;
    d.input_count = s->input_count;
    d.inputs = s->inputs;
    memcpy(d.sampler_kinds, s->sampler_kinds, sizeof d.sampler_kinds);
    d.color_outputs = s->color_outputs;
    d.debug_name = s->stage == XGDI_SHADER_VERTEX ? "xgd effect vertex shader" : "xgd effect pixel shader";
    return dev->ops->shader_create(dev->renderer, &d, &s->native);
}

/* Whether a vertex shader is applied, which a pass with a pixel shader only keeps (Direct3D 9's
 * rule; XNA's custom sprite effects inside SpriteBatch keep SpriteBatch's). */
static bool fx_vs_applied(const xgd_device *dev)
{
    return dev->program_set && dev->program == XGDI_PROGRAM_USER && dev->user_vs != NULL;
}

#ifdef XGD_HAVE_MOJOSHADER
static int pack(const fx_shader *s, const float *file, float *out)
{
    int n = s->constant_count - (s->stage == XGDI_SHADER_VERTEX ? 1 : 0);
    for (int i = 0; i < n; i++) memcpy(out + i * 4, file + s->registers[i] * 4, 16);
    return s->constant_count;
}

/* An fx_2_0 pass: MojoShader's commit runs the preshaders and fills the register files. */
static xgd_result fx2_apply(xgd_device *dev, xgdi_fx *fx, int technique, int pass)
{
    MOJOSHADER_effect *e = fx->effect;
    /* the pass's shaders (load checked they are compiled shaders of their stage) */
    const fx_pass *xp = &fx->techs[technique].passes[pass];
    fx_shader *vs = xp->vs, *ps = xp->ps;
    /* a pixel-shader-only pass keeps the applied vertex shader (xgdi_apply_user_pixel_shader) */
    if (ps == NULL)
        return xgdi_fail(dev, XGD_ERROR_INVALID_OPERATION, "pass %d of technique %d has no pixel shader", pass,
                         technique);
    if (vs == NULL && !fx_vs_applied(dev))
        return xgdi_apply_user_pixel_shader(dev, NULL, NULL, NULL, 0, technique, pass);
    xgd_result r = vs != NULL ? ensure_native(dev, vs) : XGD_OK;
    if (r == XGD_OK) r = ensure_native(dev, ps);
    if (r != XGD_OK) return r;

    /* MojoShader's commit: parameters into the register files, preshaders run */
    MOJOSHADER_effectStateChanges changes;
    memset(&changes, 0, sizeof changes);
    fx_tls t = { 0 };
    t.fx = fx;
    fx_tls *saved = tls;
    tls = &t;
    unsigned passes = 0;
    MOJOSHADER_effectSetTechnique(e, &e->techniques[technique]);
    MOJOSHADER_effectBegin(e, &passes, 0, &changes);
    MOJOSHADER_effectBeginPass(e, (unsigned)pass);
    MOJOSHADER_effectEndPass(e);
    MOJOSHADER_effectEnd(e);
    tls = saved;

    r = apply_samplers(dev, fx, &changes);
    if (r == XGD_OK) r = apply_render_states(dev, fx, xp->src);
    if (r != XGD_OK) return r;
    int np = pack(ps, fx->ps_f, fx->ps_pack);
    if (vs == NULL)
        return xgdi_apply_user_pixel_shader(dev, ps->native, ps->sampler_kinds, fx->ps_pack, np, technique, pass);
    int nv = pack(vs, fx->vs_f, fx->vs_pack);
    return xgdi_apply_user_program(dev, vs->native, ps->native, vs->inputs, vs->input_count, ps->sampler_kinds,
                                   fx->vs_pack, nv, fx->ps_pack, np);
}
#endif

xgd_result xgdi_fx_apply(xgd_device *dev, xgdi_fx *fx, int technique, int pass)
{
    xgd_result r = xgdi_check_device(dev);
    if (r != XGD_OK) return r;
    if (technique == -1) technique = fx->current_technique;
    r = check_pass(dev, fx, technique, pass);
    if (r != XGD_OK) return r;
    if (fx->hlsl != NULL) return fx_hlsl_apply(dev, fx, technique, pass);
#ifdef XGD_HAVE_MOJOSHADER
    return fx2_apply(dev, fx, technique, pass);
#else
    return xgdi_fail(dev, XGD_ERROR_NOT_SUPPORTED, "this build has no MojoShader: fx_2_0 effects need it");
#endif
}

xgd_result xgd_effect_pass_apply(xgd_effect *effect, int technique, int pass)
{
    FX_ENTER(effect, fx, dev);
    /* a derived effect's on_apply runs for every pass, as XNA's OnApply does; the indices are
       checked first so a refused pass runs none of it */
    xgd_result r = xgdi_check_device(dev);
    if (r == XGD_OK) r = check_pass(dev, fx, technique, pass);
    int current = fx->current_technique;
    if (r == XGD_OK) r = xgdi_effect_on_apply((xgd_effect *)(void *)effect);
    if (r != XGD_OK) return r;
    /* on_apply picked another technique (BasicEffect picks its permutation by its
       properties): a pass of the technique that was current is applied from the new current
       one, as XNA's EffectPass.Apply does */
    if (technique >= 0 && technique == current && fx->current_technique != current) {
        technique = fx->current_technique;
        r = check_pass(dev, fx, technique, pass);
        if (r != XGD_OK) return r;
    }
    return xgdi_fx_apply(dev, fx, technique < 0 ? -2 : technique, pass);
}


/* HLSL source and .xfx effects share this file's tables and application (see the file). */
#include "fx_hlsl.inc"
