/*
 * fx_writer.c - see fx_writer.h. The container: a header (0xFEFF0901, the size of the data
 * area), the data area (types, values and strings, addressed by offsets from its start), then
 * the tables MojoShader walks: counts, parameters (type, value, flags, annotations),
 * techniques (name, annotations, passes: name, annotations, states), and the objects (small:
 * strings; large: shader bytecode, each tied to the pass state that names it).
 */
#include "fx_writer.h"

#ifdef XGD_TEST_HAVE_MOJOSHADER
#include <mojoshader/mojoshader.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put_bytes(buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (p == NULL) abort(); /* test code: out of memory ends the test run */
        b->p = p;
        b->cap = cap;
    }
    if (d != NULL) memcpy(b->p + b->n, d, n);
    else memset(b->p + b->n, 0, n);
    b->n += n;
}

static void put32(buf *b, uint32_t v) { put_bytes(b, &v, 4); }

typedef struct anno { uint32_t type_off, val_off; } anno;
typedef struct annos { anno *a; int n; } annos;
typedef struct pstate { uint32_t type, type_off, val_off; } pstate;
typedef struct pass { uint32_t name_off; annos an; pstate *st; int nst; } pass;
typedef struct tech { uint32_t name_off; annos an; pass *passes; int np; } tech;
typedef struct param { uint32_t type_off, val_off; annos an; uint32_t object; } param;
typedef struct small { uint32_t index; char *s; } small;
typedef struct large { uint32_t tech, pass, state; uint8_t *code; uint32_t len; } large;

struct fxw {
    buf data;
    param *params;
    int np;
    tech *techs;
    int nt;
    small *smalls;
    int ns;
    large *larges;
    int nl;
    uint32_t objects;        /* next object index (0 is never used) */
};

#define GROW(arr, count) (arr = realloc(arr, sizeof *(arr) * (size_t)((count) + 1)), &(arr)[(count)++])

fxw *fxw_create(void)
{
    fxw *w = calloc(1, sizeof *w);
    w->objects = 1;
    put32(&w->data, 0); /* offset 0: the empty string */
    return w;
}

void fxw_destroy(fxw *w)
{
    if (w == NULL) return;
    free(w->data.p);
    for (int i = 0; i < w->np; i++) free(w->params[i].an.a);
    for (int t = 0; t < w->nt; t++) {
        for (int p = 0; p < w->techs[t].np; p++) {
            free(w->techs[t].passes[p].an.a);
            free(w->techs[t].passes[p].st);
        }
        free(w->techs[t].passes);
        free(w->techs[t].an.a);
    }
    free(w->techs);
    free(w->params);
    for (int i = 0; i < w->ns; i++) free(w->smalls[i].s);
    free(w->smalls);
    for (int i = 0; i < w->nl; i++) free(w->larges[i].code);
    free(w->larges);
    free(w);
}

static uint32_t put_string(fxw *w, const char *s)
{
    if (s == NULL || s[0] == '\0') return 0;
    uint32_t off = (uint32_t)w->data.n, len = (uint32_t)strlen(s) + 1;
    put32(&w->data, len);
    put_bytes(&w->data, s, len);
    while (w->data.n % 4) put_bytes(&w->data, NULL, 1);
    return off;
}

static uint32_t put_numeric_type(fxw *w, const char *name, const char *sem, int cls, int type,
                                 int rows, int cols, int elements)
{
    uint32_t n = put_string(w, name), s = put_string(w, sem);
    uint32_t off = (uint32_t)w->data.n;
    uint32_t t[7] = { (uint32_t)type, (uint32_t)cls, n, s, (uint32_t)elements, (uint32_t)cols, (uint32_t)rows };
    put_bytes(&w->data, t, sizeof t);
    return off;
}

static uint32_t put_object_type(fxw *w, const char *name, int type, int elements)
{
    uint32_t n = put_string(w, name);
    uint32_t off = (uint32_t)w->data.n;
    uint32_t t[5] = { (uint32_t)type, FXW_OBJECT, n, 0, (uint32_t)elements };
    put_bytes(&w->data, t, sizeof t);
    return off;
}

static uint32_t put_values(fxw *w, const void *values, size_t count)
{
    uint32_t off = (uint32_t)w->data.n;
    put_bytes(&w->data, values, count * 4);
    return off;
}

int fxw_param(fxw *w, const char *name, const char *semantic, int cls, int type, int rows,
              int columns, int elements, const void *values)
{
    param *p = GROW(w->params, w->np);
    memset(p, 0, sizeof *p);
    p->type_off = put_numeric_type(w, name, semantic, cls, type, rows, columns, elements);
    p->val_off = put_values(w, values, (size_t)rows * (size_t)columns * (size_t)(elements ? elements : 1));
    return w->np - 1;
}

int fxw_struct_param(fxw *w, const char *name, const char *semantic, int elements,
                     const fxw_member *members, int member_count)
{
    uint32_t n = put_string(w, name), s = put_string(w, semantic);
    uint32_t *names = malloc(sizeof(uint32_t) * (size_t)member_count);
    for (int m = 0; m < member_count; m++) names[m] = put_string(w, members[m].name);
    param *p = GROW(w->params, w->np);
    memset(p, 0, sizeof *p);
    p->type_off = (uint32_t)w->data.n;
    uint32_t head[6] = { FXW_VOID, FXW_STRUCT, n, s, (uint32_t)elements, (uint32_t)member_count };
    put_bytes(&w->data, head, sizeof head);
    size_t defaults = 0;
    for (int m = 0; m < member_count; m++) {
        const fxw_member *mb = &members[m];
        uint32_t t[7] = { (uint32_t)mb->type, (uint32_t)mb->cls, names[m], 0, (uint32_t)mb->elements,
                          (uint32_t)mb->columns, (uint32_t)mb->rows };
        put_bytes(&w->data, t, sizeof t);
        defaults += (size_t)mb->rows * (size_t)mb->elements * (size_t)mb->columns * 4;
    }
    /* the defaults of array members follow the member list (what MojoShader reads) */
    put_bytes(&w->data, NULL, defaults * (size_t)(elements ? elements : 1));
    p->val_off = 0;
    free(names);
    return w->np - 1;
}

int fxw_texture_param(fxw *w, const char *name, int type)
{
    param *p = GROW(w->params, w->np);
    memset(p, 0, sizeof *p);
    p->type_off = put_object_type(w, name, type, 0);
    p->object = w->objects++;
    p->val_off = put_values(w, &p->object, 1);
    return w->np - 1;
}

int fxw_sampler_param(fxw *w, const char *name, int type, int texture_param,
                      const fxw_state *states, int state_count)
{
    int n = state_count + (texture_param >= 0 ? 1 : 0);
    uint32_t *rec = malloc(sizeof(uint32_t) * 4 * (size_t)(n ? n : 1));
    int k = 0;
    if (texture_param >= 0) {
        uint32_t tt = put_object_type(w, NULL, FXW_TEXTURE, 0);
        uint32_t tv = put_values(w, &w->params[texture_param].object, 1);
        uint32_t r[4] = { 4 /* Texture */, 0, tt, tv };
        memcpy(rec + 4 * k++, r, sizeof r);
    }
    for (int i = 0; i < state_count; i++) {
        uint32_t tt = put_numeric_type(w, NULL, NULL, FXW_SCALAR, FXW_INT, 1, 1, 0);
        uint32_t tv = put_values(w, &states[i].value, 1);
        uint32_t r[4] = { states[i].type, 0, tt, tv };
        memcpy(rec + 4 * k++, r, sizeof r);
    }
    param *p = GROW(w->params, w->np);
    memset(p, 0, sizeof *p);
    p->type_off = put_object_type(w, name, type, 0);
    p->val_off = (uint32_t)w->data.n;
    put32(&w->data, (uint32_t)n);
    put_bytes(&w->data, rec, sizeof(uint32_t) * 4 * (size_t)n);
    free(rec);
    return w->np - 1;
}

static annos *owner_annos(fxw *w, fxw_owner o)
{
    if (o.kind == 0) return &w->params[o.a].an;
    if (o.kind == 1) return &w->techs[o.a].an;
    return &w->techs[o.a].passes[o.b].an;
}

void fxw_annotation(fxw *w, fxw_owner owner, const char *name, int cls, int type, int rows,
                    int columns, int elements, const void *values)
{
    annos *an = owner_annos(w, owner);
    anno *a = GROW(an->a, an->n);
    a->type_off = put_numeric_type(w, name, NULL, cls, type, rows, columns, elements);
    a->val_off = put_values(w, values, (size_t)rows * (size_t)columns * (size_t)(elements ? elements : 1));
}

void fxw_annotation_string(fxw *w, fxw_owner owner, const char *name, const char *value)
{
    annos *an = owner_annos(w, owner);
    anno *a = GROW(an->a, an->n);
    uint32_t obj = w->objects++;
    a->type_off = put_object_type(w, name, FXW_STRING, 0);
    a->val_off = put_values(w, &obj, 1);
    small *s = GROW(w->smalls, w->ns);
    s->index = obj;
    size_t len = strlen(value) + 1;
    s->s = malloc(len);
    memcpy(s->s, value, len);
}

int fxw_technique(fxw *w, const char *name)
{
    tech *t = GROW(w->techs, w->nt);
    memset(t, 0, sizeof *t);
    t->name_off = put_string(w, name);
    return w->nt - 1;
}

int fxw_pass(fxw *w, int technique, const char *name)
{
    tech *t = &w->techs[technique];
    pass *p = GROW(t->passes, t->np);
    memset(p, 0, sizeof *p);
    p->name_off = put_string(w, name);
    return t->np - 1;
}

void fxw_render_state(fxw *w, int technique, int pass_index, uint32_t type, uint32_t value)
{
    pass *p = &w->techs[technique].passes[pass_index];
    pstate *s = GROW(p->st, p->nst);
    s->type = type;
    s->type_off = put_numeric_type(w, NULL, NULL, FXW_SCALAR, FXW_INT, 1, 1, 0);
    s->val_off = put_values(w, &value, 1);
}

#ifdef XGD_TEST_HAVE_MOJOSHADER
static const char *const usage_names[] = { "position", "blendweight", "blendindices", "normal", "psize",
                                           "texcoord", "tangent", "binormal", "tessfactor", "positiont",
                                           "color", "fog", "depth", "sample" };

/* MojoShader's assembler writes usage 0 into a ps_3_0 input's dcl (dcl_texcoord3 v0 comes out
 * as dcl_position v0); fxc writes the usage. The source's dcl lines say which: patch them. */
static void fix_ps3_dcl(const char *source, uint32_t *code, size_t words)
{
    if (words < 1 || code[0] != 0xffff0300u) return;
    const char *line = source;
    while (line != NULL && *line) {
        if (strncmp(line, "dcl_", 4) == 0) {
            for (unsigned u = 0; u < sizeof usage_names / sizeof usage_names[0]; u++) {
                size_t n = strlen(usage_names[u]);
                if (strncmp(line + 4, usage_names[u], n) != 0) continue;
                const char *q = line + 4 + n;
                unsigned index = 0;
                while (*q >= '0' && *q <= '9') index = index * 10 + (unsigned)(*q++ - '0');
                if (*q != ' ' || q[1] != 'v') break;
                unsigned reg = (unsigned)atoi(q + 2);
                /* find "dcl" (opcode 31) of input register reg: tokens usage, register */
                for (size_t i = 1; i + 2 < words; i++) {
                    if ((code[i] & 0xffffu) == 31 && ((code[i + 2] >> 28) & 7u) == 1 && (code[i + 2] & 0x7ffu) == reg)
                        code[i + 1] = 0x80000000u | u | (index << 16);
                }
                break;
            }
        }
        line = strchr(line, '\n');
        if (line != NULL) line++;
    }
}

bool fxw_shader(fxw *w, int technique, int pass_index, bool vertex, const char *source,
                const fxw_symbol *symbols, int symbol_count, char *err, size_t err_cap)
{
    MOJOSHADER_symbol syms[32];
    memset(syms, 0, sizeof syms);
    for (int i = 0; i < symbol_count && i < 32; i++) {
        syms[i].name = symbols[i].name;
        syms[i].register_set = (MOJOSHADER_symbolRegisterSet)symbols[i].register_set;
        syms[i].register_index = (unsigned)symbols[i].register_index;
        syms[i].register_count = (unsigned)symbols[i].register_count;
        syms[i].info.parameter_class = (MOJOSHADER_symbolClass)symbols[i].cls;
        syms[i].info.parameter_type = (MOJOSHADER_symbolType)symbols[i].type;
        syms[i].info.rows = (unsigned)symbols[i].rows;
        syms[i].info.columns = (unsigned)symbols[i].columns;
        syms[i].info.elements = (unsigned)symbols[i].elements;
    }
    const MOJOSHADER_parseData *a =
        MOJOSHADER_assemble("fx_writer", source, (unsigned)strlen(source), NULL, 0, syms,
                            (unsigned)(symbol_count < 32 ? symbol_count : 32), NULL, 0, NULL, NULL,
                            NULL, NULL, NULL);
    if (a == NULL || a->error_count > 0) {
        snprintf(err, err_cap, "assembler: %s", a && a->errors[0].error ? a->errors[0].error : "failed");
        if (a) MOJOSHADER_freeParseData(a);
        return false;
    }
    uint32_t *code = malloc(a->output_len);
    memcpy(code, a->output, (size_t)a->output_len);
    fix_ps3_dcl(source, code, (size_t)a->output_len / 4);
    uint32_t obj = w->objects++;
    pass *p = &w->techs[technique].passes[pass_index];
    pstate *s = GROW(p->st, p->nst);
    s->type = vertex ? 146 : 147;
    s->type_off = put_object_type(w, NULL, vertex ? FXW_VERTEXSHADER : FXW_PIXELSHADER, 0);
    s->val_off = put_values(w, &obj, 1);
    large *l = GROW(w->larges, w->nl);
    l->tech = (uint32_t)technique;
    l->pass = (uint32_t)pass_index;
    l->state = (uint32_t)(p->nst - 1);
    l->len = (uint32_t)a->output_len;
    l->code = (uint8_t *)code;
    MOJOSHADER_freeParseData(a);
    return true;
}
#else
/* Without MojoShader nothing assembles; the tests that write effects check first that fx_2_0
 * loads, which it never does in such a build (the library needs MojoShader for it too). */
bool fxw_shader(fxw *w, int technique, int pass_index, bool vertex, const char *source,
                const fxw_symbol *symbols, int symbol_count, char *err, size_t err_cap)
{
    (void)w;
    (void)technique;
    (void)pass_index;
    (void)vertex;
    (void)source;
    (void)symbols;
    (void)symbol_count;
    snprintf(err, err_cap, "the fx writer assembles with MojoShader, not found at configure time");
    return false;
}
#endif

static void put_annos(buf *b, const annos *an)
{
    for (int i = 0; i < an->n; i++) {
        put32(b, an->a[i].type_off);
        put32(b, an->a[i].val_off);
    }
}

uint8_t *fxw_finish(fxw *w, bool xna_header, size_t *size)
{
    buf out = { 0 };
    if (xna_header) {
        put32(&out, 0xBCF00BCFu);
        put32(&out, 12); /* the container starts after these 12 bytes */
        put32(&out, 0);
    }
    put32(&out, 0xFEFF0901u);
    put32(&out, (uint32_t)w->data.n);
    put_bytes(&out, w->data.p, w->data.n);
    put32(&out, (uint32_t)w->np);
    put32(&out, (uint32_t)w->nt);
    put32(&out, 0);
    put32(&out, w->objects);
    for (int i = 0; i < w->np; i++) {
        put32(&out, w->params[i].type_off);
        put32(&out, w->params[i].val_off);
        put32(&out, 0);
        put32(&out, (uint32_t)w->params[i].an.n);
        put_annos(&out, &w->params[i].an);
    }
    for (int t = 0; t < w->nt; t++) {
        const tech *te = &w->techs[t];
        put32(&out, te->name_off);
        put32(&out, (uint32_t)te->an.n);
        put32(&out, (uint32_t)te->np);
        put_annos(&out, &te->an);
        for (int p = 0; p < te->np; p++) {
            const pass *pa = &te->passes[p];
            put32(&out, pa->name_off);
            put32(&out, (uint32_t)pa->an.n);
            put32(&out, (uint32_t)pa->nst);
            put_annos(&out, &pa->an);
            for (int s = 0; s < pa->nst; s++) {
                put32(&out, pa->st[s].type);
                put32(&out, 0);
                put32(&out, pa->st[s].type_off);
                put32(&out, pa->st[s].val_off);
            }
        }
    }
    put32(&out, (uint32_t)w->ns);
    put32(&out, (uint32_t)w->nl);
    for (int i = 0; i < w->ns; i++) {
        uint32_t len = (uint32_t)strlen(w->smalls[i].s) + 1;
        put32(&out, w->smalls[i].index);
        put32(&out, len);
        put_bytes(&out, w->smalls[i].s, len);
        while (out.n % 4) put_bytes(&out, NULL, 1);
    }
    for (int i = 0; i < w->nl; i++) {
        const large *l = &w->larges[i];
        uint32_t h[6] = { l->tech, l->pass, 0, l->state, 0, l->len };
        put_bytes(&out, h, sizeof h);
        put_bytes(&out, l->code, l->len);
        while (out.n % 4) put_bytes(&out, NULL, 1);
    }
    *size = out.n;
    return out.p;
}

uint8_t *fxw_standard(size_t *size, char *err, size_t err_cap)
{
    fxw *w = fxw_create();
    float ident[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1 };
    int wvp = fxw_param(w, "WorldViewProj", "WORLDVIEWPROJECTION", FXW_MATRIX_COLUMNS, FXW_FLOAT, 4, 4, 0, ident);
    float tint[4] = { 1, 1, 1, 1 };
    fxw_param(w, "Tint", "COLOR", FXW_VECTOR, FXW_FLOAT, 1, 4, 0, tint);
    int tex = fxw_texture_param(w, "Tex", FXW_TEXTURE2D);
    fxw_state ss[5] = { { FXW_SAMP_MINFILTER, 1 }, { FXW_SAMP_MAGFILTER, 1 }, { FXW_SAMP_MIPFILTER, 1 },
                        { FXW_SAMP_ADDRESSU, 3 }, { FXW_SAMP_ADDRESSV, 3 } };
    fxw_sampler_param(w, "TexSampler", FXW_SAMPLER2D, tex, ss, 5);
    uint32_t one = 1, seven = 7;
    float half = 0.5f, two[2] = { 1, 2 }, three[3] = { 1, 2, 3 };
    fxw_param(w, "Flag", NULL, FXW_SCALAR, FXW_BOOL, 1, 1, 0, &one);
    fxw_param(w, "Count", NULL, FXW_SCALAR, FXW_INT, 1, 1, 0, &seven);
    fxw_param(w, "Scale", NULL, FXW_SCALAR, FXW_FLOAT, 1, 1, 0, &half);
    fxw_param(w, "Offset2", NULL, FXW_VECTOR, FXW_FLOAT, 1, 2, 0, two);
    fxw_param(w, "Dir3", NULL, FXW_VECTOR, FXW_FLOAT, 1, 3, 0, three);
    fxw_param(w, "RowMat", NULL, FXW_MATRIX_ROWS, FXW_FLOAT, 3, 3, 0, NULL);
    fxw_param(w, "Weights", NULL, FXW_SCALAR, FXW_FLOAT, 1, 1, 5, NULL);
    fxw_param(w, "Ints", NULL, FXW_VECTOR, FXW_INT, 1, 2, 3, NULL);
    fxw_param(w, "Flags", NULL, FXW_SCALAR, FXW_BOOL, 1, 1, 4, NULL);
    fxw_param(w, "Bones", NULL, FXW_MATRIX_COLUMNS, FXW_FLOAT, 4, 4, 3, NULL);
    fxw_member light[3] = { { "Dir", FXW_VECTOR, FXW_FLOAT, 1, 3, 0 },
                            { "Power", FXW_SCALAR, FXW_FLOAT, 1, 1, 0 },
                            { "Colors", FXW_VECTOR, FXW_FLOAT, 1, 4, 2 } };
    fxw_struct_param(w, "Light", NULL, 0, light, 3);
    fxw_struct_param(w, "Lights", NULL, 2, light, 3);
    fxw_annotation_string(w, (fxw_owner){ 0, wvp, 0 }, "UIName", "World view projection");
    float minus2 = -2;
    fxw_annotation(w, (fxw_owner){ 0, wvp, 0 }, "UIMin", FXW_SCALAR, FXW_FLOAT, 1, 1, 0, &minus2);

    static const char vs[] = "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\n"
                             "m4x4 oPos, v0, c0\nmov oD0, v1\nmov oT0, v2\n";
    static const char ps_solid[] = "ps_2_0\nmov oC0, c0\n";
    static const char ps_tex[] = "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s0\ntexld r0, t0, s0\nmul r0, r0, v0\nmov oC0, r0\n";
    fxw_symbol vsym = { "WorldViewProj", 2, 0, 4, FXW_MATRIX_COLUMNS, FXW_FLOAT, 4, 4, 0 };
    fxw_symbol tsym = { "Tint", 2, 0, 1, FXW_VECTOR, FXW_FLOAT, 1, 4, 0 };
    fxw_symbol ssym = { "TexSampler", 3, 0, 1, FXW_OBJECT, FXW_SAMPLER2D, 1, 1, 0 };
    int solid = fxw_technique(w, "Solid");
    int p0 = fxw_pass(w, solid, "P0");
    int textured = fxw_technique(w, "Textured");
    int p1 = fxw_pass(w, textured, "P0");
    uint32_t version = 3;
    fxw_annotation(w, (fxw_owner){ 1, solid, 0 }, "Version", FXW_SCALAR, FXW_INT, 1, 1, 0, &version);
    fxw_annotation(w, (fxw_owner){ 2, solid, p0 }, "Debug", FXW_SCALAR, FXW_BOOL, 1, 1, 0, &one);
    bool ok = fxw_shader(w, solid, p0, true, vs, &vsym, 1, err, err_cap) &&
              fxw_shader(w, solid, p0, false, ps_solid, &tsym, 1, err, err_cap) &&
              fxw_shader(w, textured, p1, true, vs, &vsym, 1, err, err_cap) &&
              fxw_shader(w, textured, p1, false, ps_tex, &ssym, 1, err, err_cap);
    uint8_t *bytes = ok ? fxw_finish(w, false, size) : NULL;
    fxw_destroy(w);
    return bytes;
}

uint8_t *fxw_instancing(size_t *size, char *err, size_t err_cap)
{
    fxw *w = fxw_create();
    if (w == NULL) return NULL;
    int ti = fxw_technique(w, "Instanced");
    int pi = fxw_pass(w, ti, "P0");
    fxw_render_state(w, ti, pi, FXW_RS_CULLMODE, 1); /* None */
    static const char vs[] = "vs_3_0\n"
                             "dcl_position v0\n"
                             "dcl_texcoord1 v1\n"
                             "dcl_texcoord2 v2\n"
                             "dcl_texcoord3 v3\n"
                             "dcl_texcoord4 v4\n"
                             "dcl_color1 v5\n"
                             "dcl_position o0\n"
                             "dcl_color o1\n"
                             "mul r0, v0.x, v1\n"
                             "mad r0, v0.y, v2, r0\n"
                             "mad r0, v0.z, v3, r0\n"
                             "mad o0, v0.w, v4, r0\n"
                             "mov o1, v5\n";
    static const char ps[] = "ps_3_0\ndcl_color v0\nmov oC0, v0\n";
    bool ok = fxw_shader(w, ti, pi, true, vs, NULL, 0, err, err_cap) &&
              fxw_shader(w, ti, pi, false, ps, NULL, 0, err, err_cap);
    uint8_t *b = ok ? fxw_finish(w, false, size) : NULL;
    fxw_destroy(w);
    return b;
}

