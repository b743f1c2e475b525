/*
 * hlsl_program.c - compiled HLSL effects: compile from source, save and load the .xfx format
 * (hlsl_program.h).
 */
#include "hlsl_program.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Limits of a loaded file, far above any effect (XNA's stock effects: 1 technique of up to 32
 * shader variants, 1 pass each), so that what a hostile file can make the loader allocate
 * stays small: each pass record expands to about 7 KiB in memory. */
#define XFX_MAX_TECHNIQUES 1024
#define XFX_MAX_PASSES 1024     /* over all techniques */
#define XFX_MAX_SHADERS 1024
#define XFX_MAX_SAMPLERS 1024
#define XFX_MAX_ANNOTATIONS 16384

static const char xfx_magic[8] = { 'X', 'G', 'D', 'F', 'X', '\0', '\r', '\n' };

void xgdi_hlsl_program_free(xgdi_hlsl_program *p)
{
    if (p == NULL) return;
    for (int i = 0; i < p->shader_count; i++) {
        free(p->shaders[i].words);
        xgdi_reflection_free(&p->shaders[i].reflection);
    }
    free(p->shaders);
    free(p->first_pass);
    free(p->pass_shader);
    xgdi_hlsl_fx_free(&p->fx);
    memset(p, 0, sizeof *p);
}

static int total_passes(const xgdi_hlsl_fx *fx)
{
    int n = 0;
    for (int t = 0; t < fx->technique_count; t++) n += fx->techniques[t].pass_count;
    return n;
}

/* first_pass[] and pass_shader[] for the program's techniques, every slot -1. */
static xgd_result alloc_pass_table(xgdi_hlsl_program *p)
{
    int passes = total_passes(&p->fx);
    p->first_pass = calloc((size_t)p->fx.technique_count + 1, sizeof *p->first_pass);
    p->pass_shader = malloc(((size_t)passes + 1) * sizeof *p->pass_shader);
    if (p->first_pass == NULL || p->pass_shader == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    int k = 0;
    for (int t = 0; t < p->fx.technique_count; t++) {
        p->first_pass[t] = k;
        k += p->fx.techniques[t].pass_count;
    }
    p->first_pass[p->fx.technique_count] = k;
    for (int i = 0; i < passes; i++) p->pass_shader[i][0] = p->pass_shader[i][1] = -1;
    return XGD_OK;
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d != NULL) memcpy(d, s, n);
    return d;
}

xgd_result xgdi_hlsl_program_compile(const char *source, size_t size, const char *file_name,
                                     xgdi_hlsl_program *out, char **log)
{
    return xgdi_hlsl_program_compile_ex(source, size, file_name, NULL, out, log);
}

xgd_result xgdi_hlsl_program_compile_ex(const char *source, size_t size, const char *file_name,
                                        const char *preamble, xgdi_hlsl_program *out, char **log)
{
    if (log != NULL) *log = NULL;
    if (out == NULL || log == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (source == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    const char *file = file_name != NULL ? file_name : "(effect)";
    xgdi_hlsl_program p;
    memset(&p, 0, sizeof p);
    char msg[512];
    xgd_result r = xgdi_hlsl_fx_scan(source, size, file, &p.fx, msg, sizeof msg);
    if (r != XGD_OK) {
        *log = dup_text(msg);
        return r;
    }
    if (p.fx.technique_count == 0) {
        snprintf(msg, sizeof msg, "%s: no technique: an HLSL effect names its passes in "
                 "technique blocks", file);
        *log = dup_text(msg);
        xgdi_hlsl_program_free(&p);
        return XGD_ERROR_INVALID_ARGUMENT;
    }
    int passes = total_passes(&p.fx);
    r = alloc_pass_table(&p);
    /* at most one shader per (pass, stage); each (entry, stage) is compiled once */
    if (r == XGD_OK && (p.shaders = calloc((size_t)passes * 2, sizeof *p.shaders)) == NULL)
        r = XGD_ERROR_OUT_OF_MEMORY;
    for (int t = 0; r == XGD_OK && t < p.fx.technique_count; t++) {
        const xgdi_hlsl_technique *tq = &p.fx.techniques[t];
        for (int q = 0; r == XGD_OK && q < tq->pass_count; q++) {
            const xgdi_hlsl_pass *pass = &tq->passes[q];
            for (int stage = 0; r == XGD_OK && stage < 2; stage++) {
                if (pass->entry[stage][0] == '\0') continue;
                int found = -1;
                for (int s = 0; s < p.shader_count && found < 0; s++)
                    if ((int)p.shaders[s].stage == stage &&
                        strcmp(p.shaders[s].entry, pass->entry[stage]) == 0)
                        found = s;
                if (found < 0) {
                    xgdi_hlsl_shader *sh = &p.shaders[p.shader_count];
                    memcpy(sh->entry, pass->entry[stage], sizeof sh->entry);
                    memcpy(sh->profile, pass->profile[stage], sizeof sh->profile);
                    sh->stage = (xgdi_hlsl_stage)stage;
                    char *clog = NULL;
                    r = xgdi_hlsl_compile_ex(p.fx.source, file, sh->entry, preamble, sh->stage, &sh->words,
                                          &sh->word_count, &clog);
                    if (r != XGD_OK) {
                        if (clog != NULL) {
                            /* the pass's place and entry point first: glslang's message for a
                               missing entry point names neither */
                            size_t n = strlen(clog) + strlen(file) + strlen(sh->entry) + 96;
                            *log = malloc(n);
                            if (*log != NULL)
                                snprintf(*log, n, "%s:%d: %s shader %s: %s", file,
                                         pass->entry_line[stage], stage == 0 ? "vertex" : "pixel",
                                         sh->entry, clog);
                            else
                                *log = clog, clog = NULL;
                            free(clog);
                        } else {
                            snprintf(msg, sizeof msg, "%s:%d: %s could not be compiled", file,
                                     pass->entry_line[stage], sh->entry);
                            *log = dup_text(msg);
                        }
                        break;
                    }
                    free(clog); /* warnings of a successful compile are not kept */
                    p.shader_count++;
                    r = xgdi_hlsl_reflect(sh->words, sh->word_count, &sh->reflection, msg,
                                          sizeof msg);
                    if (r != XGD_OK) {
                        char full[640];
                        snprintf(full, sizeof full, "%s:%d: %s: %s", file, pass->entry_line[stage],
                                 sh->entry, msg);
                        *log = dup_text(full);
                        break;
                    }
                    found = p.shader_count - 1;
                }
                p.pass_shader[p.first_pass[t] + q][stage] = found;
            }
        }
    }
    if (r != XGD_OK) {
        xgdi_hlsl_program_free(&p);
        return r;
    }
    *out = p;
    return XGD_OK;
}

/* ---- writing ---------------------------------------------------------------------------------- */

typedef struct wbuf {
    uint8_t *p;
    size_t n, cap;
    bool failed;
} wbuf;

static void put(wbuf *b, const void *data, size_t n)
{
    if (b->failed) return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n) cap *= 2;
        uint8_t *np = realloc(b->p, cap);
        if (np == NULL) {
            b->failed = true;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, data, n);
    b->n += n;
}

static void put_u32(wbuf *b, uint32_t v)
{
    uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    put(b, le, 4);
}

static void put_i32(wbuf *b, int32_t v) { put_u32(b, (uint32_t)v); }
static void put_u8(wbuf *b, uint8_t v) { put(b, &v, 1); }

static void put_f32(wbuf *b, float f)
{
    uint32_t v;
    memcpy(&v, &f, 4);
    put_u32(b, v);
}

static void put_str(wbuf *b, const char *s)
{
    size_t n = strlen(s);
    put_u32(b, (uint32_t)n);
    put(b, s, n);
}

static void put_io(wbuf *b, const xgdi_reflect_io *io)
{
    put_str(b, io->semantic);
    put_u8(b, io->system_value ? 1 : 0);
    put_u32(b, (uint32_t)io->usage);
    put_i32(b, io->usage_index);
    put_i32(b, io->location);
    put_i32(b, io->components);
}

xgd_result xgdi_hlsl_program_save(const xgdi_hlsl_program *p, void **bytes, size_t *size)
{
    if (bytes != NULL) *bytes = NULL;
    if (size != NULL) *size = 0;
    if (p == NULL || bytes == NULL || size == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    wbuf b = { NULL, 0, 0, false };
    put(&b, xfx_magic, sizeof xfx_magic);
    put_u32(&b, XGDI_XFX_VERSION);
    put_u32(&b, 0);
    put_u32(&b, (uint32_t)p->fx.technique_count);
    for (int t = 0; t < p->fx.technique_count; t++) {
        const xgdi_hlsl_technique *tq = &p->fx.techniques[t];
        put_str(&b, tq->name);
        put_i32(&b, tq->line);
        put_u32(&b, (uint32_t)tq->pass_count);
        for (int q = 0; q < tq->pass_count; q++) {
            const xgdi_hlsl_pass *pass = &tq->passes[q];
            put_str(&b, pass->name);
            put_i32(&b, pass->line);
            put_i32(&b, p->pass_shader[p->first_pass[t] + q][0]);
            put_i32(&b, p->pass_shader[p->first_pass[t] + q][1]);
            put_u32(&b, (uint32_t)pass->state_count);
            for (int s = 0; s < pass->state_count; s++) {
                put_str(&b, pass->states[s].name);
                put_str(&b, pass->states[s].value);
                put_i32(&b, pass->states[s].line);
            }
        }
    }
    put_u32(&b, (uint32_t)p->shader_count);
    for (int i = 0; i < p->shader_count; i++) {
        const xgdi_hlsl_shader *sh = &p->shaders[i];
        put_str(&b, sh->entry);
        put_u32(&b, (uint32_t)sh->stage);
        put_str(&b, sh->profile);
        put_u32(&b, (uint32_t)sh->word_count);
        for (size_t w = 0; w < sh->word_count; w++) put_u32(&b, sh->words[w]);
        const xgdi_reflection *rf = &sh->reflection;
        put_u32(&b, (uint32_t)rf->input_count);
        for (int k = 0; k < rf->input_count; k++) put_io(&b, &rf->inputs[k]);
        put_u32(&b, (uint32_t)rf->output_count);
        for (int k = 0; k < rf->output_count; k++) put_io(&b, &rf->outputs[k]);
        put_u32(&b, (uint32_t)rf->buffer_count);
        for (int k = 0; k < rf->buffer_count; k++) {
            const xgdi_reflect_buffer *buf = &rf->buffers[k];
            put_str(&b, buf->name);
            put_u32(&b, buf->set);
            put_u32(&b, buf->binding);
            put_u32(&b, buf->size);
            put_i32(&b, buf->first_member);
            put_i32(&b, buf->member_count);
        }
        put_u32(&b, (uint32_t)rf->member_count);
        for (int k = 0; k < rf->member_count; k++) {
            const xgdi_reflect_member *m = &rf->members[k];
            put_str(&b, m->name);
            put_i32(&b, m->parent);
            put_i32(&b, m->buffer);
            put_u32(&b, (uint32_t)m->cls);
            put_u32(&b, (uint32_t)m->type);
            put_i32(&b, m->rows);
            put_i32(&b, m->columns);
            put_i32(&b, m->elements);
            put_u32(&b, m->offset);
            put_u32(&b, m->size);
            put_u32(&b, m->array_stride);
            put_u32(&b, m->matrix_stride);
            put_u8(&b, m->row_major ? 1 : 0);
        }
        put_u32(&b, (uint32_t)rf->resource_count);
        for (int k = 0; k < rf->resource_count; k++) {
            const xgdi_reflect_resource *res = &rf->resources[k];
            put_str(&b, res->name);
            put_u32(&b, (uint32_t)res->kind);
            put_u32(&b, (uint32_t)res->dim);
            put_u32(&b, res->set);
            put_u32(&b, res->binding);
        }
    }
    put_u32(&b, (uint32_t)p->fx.sampler_count);
    for (int i = 0; i < p->fx.sampler_count; i++) {
        const xgdi_hlsl_sampler *ss = &p->fx.samplers[i];
        put_str(&b, ss->name);
        put_str(&b, ss->texture);
        put_i32(&b, ss->line);
        put_u32(&b, ss->set);
        put_i32(&b, ss->min_filter);
        put_i32(&b, ss->mag_filter);
        put_i32(&b, ss->mip_filter);
        for (int k = 0; k < 3; k++) put_i32(&b, ss->address[k]);
        put_i32(&b, ss->max_anisotropy);
        put_i32(&b, ss->max_mip_level);
        put_f32(&b, ss->mip_lod_bias);
    }
    put_u32(&b, (uint32_t)p->fx.annotation_count);
    for (int i = 0; i < p->fx.annotation_count; i++) {
        const xgdi_hlsl_annotation *a = &p->fx.annotations[i];
        put_str(&b, a->owner);
        put_str(&b, a->name);
        put_u32(&b, (uint32_t)a->type);
        put_i32(&b, a->i);
        put_f32(&b, a->f);
        put_str(&b, a->s);
        put_i32(&b, a->line);
    }
    if (b.failed) {
        free(b.p);
        return XGD_ERROR_OUT_OF_MEMORY;
    }
    *bytes = b.p;
    *size = b.n;
    return XGD_OK;
}

/* ---- reading ---------------------------------------------------------------------------------- */

typedef struct rbuf {
    const uint8_t *p;
    size_t n, pos;
    char *msg;
    size_t msg_size;
    xgd_result error; /* the first failure; reads after it return zeros */
} rbuf;

static void bad(rbuf *b, const char *fmt, ...)
#if defined(__MINGW32__) /* C99 formats (%zu): mingw checks plain printf as MS printf */
    __attribute__((format(gnu_printf, 2, 3)))
#elif defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void bad(rbuf *b, const char *fmt, ...)
{
    if (b->error != XGD_OK) return;
    b->error = XGD_ERROR_INVALID_ARGUMENT;
    if (b->msg != NULL && b->msg_size > 0) {
        int k = snprintf(b->msg, b->msg_size, "compiled effect, byte %zu: ", b->pos);
        if (k >= 0 && (size_t)k < b->msg_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(b->msg + k, b->msg_size - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
}

static uint32_t get_u32(rbuf *b)
{
    if (b->error != XGD_OK) return 0;
    if (b->n - b->pos < 4) {
        bad(b, "truncated");
        return 0;
    }
    const uint8_t *q = b->p + b->pos;
    b->pos += 4;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static int32_t get_i32(rbuf *b) { return (int32_t)get_u32(b); }

static float get_f32(rbuf *b)
{
    uint32_t v = get_u32(b);
    float f;
    memcpy(&f, &v, 4);
    return f;
}

static uint8_t get_u8(rbuf *b)
{
    if (b->error != XGD_OK) return 0;
    if (b->pos >= b->n) {
        bad(b, "truncated");
        return 0;
    }
    return b->p[b->pos++];
}

/* A count of items each at least `min_bytes` long, at most `limit`. */
static uint32_t get_count(rbuf *b, size_t min_bytes, uint32_t limit, const char *what)
{
    uint32_t c = get_u32(b);
    if (b->error != XGD_OK) return 0;
    if (c > limit || (size_t)c > (b->n - b->pos) / min_bytes) {
        bad(b, "%u %s do not fit (limit %u)", c, what, limit);
        return 0;
    }
    return c;
}

static void get_str(rbuf *b, char *dst, size_t cap, const char *what)
{
    dst[0] = '\0';
    uint32_t len = get_u32(b);
    if (b->error != XGD_OK) return;
    if (len >= cap || len > b->n - b->pos) {
        bad(b, "%s of %u bytes is too long", what, len);
        return;
    }
    memcpy(dst, b->p + b->pos, len);
    dst[len] = '\0';
    if (memchr(dst, '\0', len) != NULL) bad(b, "%s holds a NUL byte", what);
    b->pos += len;
}

static void get_io(rbuf *b, xgdi_reflect_io *io)
{
    get_str(b, io->semantic, sizeof io->semantic, "a semantic");
    uint8_t sv = get_u8(b);
    uint32_t usage = get_u32(b);
    io->usage_index = get_i32(b);
    io->location = get_i32(b);
    io->components = get_i32(b);
    if (b->error != XGD_OK) return;
    if (sv > 1 || usage >= (uint32_t)XGD_VERTEX_USAGE_COUNT || io->usage_index < 0 ||
        io->usage_index > 99 || io->location < -1 || io->location > 255 || io->components < 1 ||
        io->components > 4)
        bad(b, "stage input or output %s is out of range", io->semantic);
    io->system_value = sv == 1;
    io->usage = (xgd_vertex_element_usage)usage;
}

static void get_reflection(rbuf *b, xgdi_reflection *rf)
{
    rf->input_count = (int)get_count(b, 21, 64, "inputs");
    if (rf->input_count > 0 && (rf->inputs = calloc((size_t)rf->input_count, sizeof *rf->inputs)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < rf->input_count && b->error == XGD_OK; i++) get_io(b, &rf->inputs[i]);
    rf->output_count = (int)get_count(b, 21, 64, "outputs");
    if (rf->output_count > 0 &&
        (rf->outputs = calloc((size_t)rf->output_count, sizeof *rf->outputs)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < rf->output_count && b->error == XGD_OK; i++) get_io(b, &rf->outputs[i]);

    rf->buffer_count = (int)get_count(b, 24, 64, "constant buffers");
    if (rf->buffer_count > 0 &&
        (rf->buffers = calloc((size_t)rf->buffer_count, sizeof *rf->buffers)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < rf->buffer_count && b->error == XGD_OK; i++) {
        xgdi_reflect_buffer *buf = &rf->buffers[i];
        get_str(b, buf->name, sizeof buf->name, "a constant buffer's name");
        buf->set = get_u32(b);
        buf->binding = get_u32(b);
        buf->size = get_u32(b);
        buf->first_member = get_i32(b);
        buf->member_count = get_i32(b);
    }
    rf->member_count = (int)get_count(b, 49, 65536, "constant-buffer members");
    if (rf->member_count > 0 &&
        (rf->members = calloc((size_t)rf->member_count, sizeof *rf->members)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < rf->member_count && b->error == XGD_OK; i++) {
        xgdi_reflect_member *m = &rf->members[i];
        get_str(b, m->name, sizeof m->name, "a member's name");
        m->parent = get_i32(b);
        m->buffer = get_i32(b);
        uint32_t cls = get_u32(b), type = get_u32(b);
        m->rows = get_i32(b);
        m->columns = get_i32(b);
        m->elements = get_i32(b);
        m->offset = get_u32(b);
        m->size = get_u32(b);
        m->array_stride = get_u32(b);
        m->matrix_stride = get_u32(b);
        uint8_t rm = get_u8(b);
        if (b->error != XGD_OK) break;
        /* parents come first; members lie inside their buffer */
        if (m->parent < -1 || m->parent >= i || m->buffer < 0 || m->buffer >= rf->buffer_count ||
            cls > (uint32_t)XGDI_REFLECT_STRUCT || type > (uint32_t)XGDI_REFLECT_STRUCT_TYPE ||
            m->rows < 0 || m->rows > 4 || m->columns < 0 || m->columns > 4 || m->elements < 0 ||
            m->elements > 65536 || rm > 1 ||
            (uint64_t)m->offset + m->size > rf->buffers[m->buffer].size ||
            (m->parent >= 0 && rf->members[m->parent].cls != XGDI_REFLECT_STRUCT))
            bad(b, "member %s is out of range", m->name);
        m->cls = (xgdi_reflect_class)cls;
        m->type = (xgdi_reflect_type)type;
        m->row_major = rm == 1;
    }
    for (int i = 0; i < rf->buffer_count && b->error == XGD_OK; i++) {
        const xgdi_reflect_buffer *buf = &rf->buffers[i];
        if (buf->first_member < 0 || buf->member_count < 0 ||
            buf->first_member > rf->member_count ||
            buf->member_count > rf->member_count - buf->first_member || buf->size > (1u << 20))
            bad(b, "constant buffer %s's members are out of range", buf->name);
    }

    rf->resource_count = (int)get_count(b, 20, 256, "resources");
    if (rf->resource_count > 0 &&
        (rf->resources = calloc((size_t)rf->resource_count, sizeof *rf->resources)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < rf->resource_count && b->error == XGD_OK; i++) {
        xgdi_reflect_resource *res = &rf->resources[i];
        get_str(b, res->name, sizeof res->name, "a resource's name");
        uint32_t kind = get_u32(b), dim = get_u32(b);
        res->set = get_u32(b);
        res->binding = get_u32(b);
        if (b->error != XGD_OK) break;
        if (kind > (uint32_t)XGDI_REFLECT_COMBINED || dim > (uint32_t)XGDI_REFLECT_DIM_CUBE ||
            (kind == XGDI_REFLECT_SAMPLER) != (dim == XGDI_REFLECT_DIM_NONE))
            bad(b, "resource %s is out of range", res->name);
        res->kind = (xgdi_reflect_resource_kind)kind;
        res->dim = (xgdi_reflect_dim)dim;
    }
}

/* Version 2's sampler states and annotations (hlsl_fx.h), each checked as the scanner would
 * have made it. */
static void load_v2(rbuf *b, xgdi_hlsl_program *p)
{
    int n = b->error == XGD_OK ? (int)get_count(b, 52, XFX_MAX_SAMPLERS, "samplers") : 0;
    if (b->error == XGD_OK && n > 0 && (p->fx.samplers = calloc((size_t)n, sizeof *p->fx.samplers)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < n && b->error == XGD_OK; i++) {
        xgdi_hlsl_sampler *ss = &p->fx.samplers[i];
        p->fx.sampler_count = i + 1;
        get_str(b, ss->name, sizeof ss->name, "a sampler's name");
        get_str(b, ss->texture, sizeof ss->texture, "a sampler's texture");
        ss->line = get_i32(b);
        ss->set = get_u32(b);
        ss->min_filter = get_i32(b);
        ss->mag_filter = get_i32(b);
        ss->mip_filter = get_i32(b);
        for (int k = 0; k < 3; k++) ss->address[k] = get_i32(b);
        ss->max_anisotropy = get_i32(b);
        ss->max_mip_level = get_i32(b);
        ss->mip_lod_bias = get_f32(b);
        bool ok = (ss->set & ~(uint32_t)XGDI_HLSL_SS_ALL) == 0 && ss->name[0] != '\0';
        ok = ok && ss->min_filter >= 0 && ss->min_filter <= 3 && ss->mag_filter >= 0 && ss->mag_filter <= 3 &&
             ss->mip_filter >= 0 && ss->mip_filter <= 3;
        for (int k = 0; k < 3; k++) ok = ok && ss->address[k] >= 0 && ss->address[k] <= 5;
        ok = ok && ss->max_anisotropy >= 0 && ss->max_anisotropy <= 16 && ss->max_mip_level >= 0 &&
             ss->max_mip_level <= 31 && ss->mip_lod_bias > -1e6f && ss->mip_lod_bias < 1e6f;
        if (b->error == XGD_OK && !ok) bad(b, "sampler %s is malformed", ss->name);
    }
    n = b->error == XGD_OK ? (int)get_count(b, 28, XFX_MAX_ANNOTATIONS, "annotations") : 0;
    if (b->error == XGD_OK && n > 0 &&
        (p->fx.annotations = calloc((size_t)n, sizeof *p->fx.annotations)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < n && b->error == XGD_OK; i++) {
        xgdi_hlsl_annotation *a = &p->fx.annotations[i];
        p->fx.annotation_count = i + 1;
        get_str(b, a->owner, sizeof a->owner, "an annotation's variable");
        get_str(b, a->name, sizeof a->name, "an annotation's name");
        uint32_t type = get_u32(b);
        a->i = get_i32(b);
        a->f = get_f32(b);
        get_str(b, a->s, sizeof a->s, "an annotation's string");
        a->line = get_i32(b);
        a->type = (xgdi_hlsl_anno_type)(type <= XGDI_HLSL_ANNO_STRING ? type : 0);
        if (b->error == XGD_OK && (type > XGDI_HLSL_ANNO_STRING || a->owner[0] == '\0' || a->name[0] == '\0' ||
                                   !(a->f > -3.4e38f && a->f < 3.4e38f) ||
                                   (type == XGDI_HLSL_ANNO_BOOL && a->i != 0 && a->i != 1)))
            bad(b, "annotation %s is malformed", a->name);
    }
}

static void load(rbuf *b, xgdi_hlsl_program *p)
{
    if (b->n < sizeof xfx_magic || memcmp(b->p, xfx_magic, sizeof xfx_magic) != 0) {
        bad(b, "not a compiled xgd effect (no XGDFX signature)");
        return;
    }
    b->pos = sizeof xfx_magic;
    uint32_t version = get_u32(b), flags = get_u32(b);
    if (b->error != XGD_OK) return;
    /* version 1 files (no sampler states, no annotations) still load */
    if (version != XGDI_XFX_VERSION && version != 1) {
        b->error = XGD_ERROR_NOT_SUPPORTED;
        if (b->msg != NULL && b->msg_size > 0)
            snprintf(b->msg, b->msg_size, "compiled effect of version %u; this xgd reads versions 1 to %u "
                     "(compile it again with this xgd's xgd-fxc)", version, XGDI_XFX_VERSION);
        return;
    }
    if (flags != 0) {
        bad(b, "unknown flags 0x%x", flags);
        return;
    }
    int techniques = (int)get_count(b, 12, XFX_MAX_TECHNIQUES, "techniques");
    if (b->error != XGD_OK) return;
    if (techniques == 0) {
        bad(b, "no technique");
        return;
    }
    p->fx.techniques = calloc((size_t)techniques, sizeof *p->fx.techniques);
    if (p->fx.techniques == NULL) {
        b->error = XGD_ERROR_OUT_OF_MEMORY;
        return;
    }
    p->fx.technique_count = techniques;
    int passes_seen = 0;
    /* pass shader indices are read before the shaders: kept here, checked below */
    size_t idx_cap = 0, idx_n = 0;
    int (*idx)[2] = NULL;
    for (int t = 0; t < techniques && b->error == XGD_OK; t++) {
        xgdi_hlsl_technique *tq = &p->fx.techniques[t];
        get_str(b, tq->name, sizeof tq->name, "a technique's name");
        tq->line = get_i32(b);
        uint32_t np = get_count(b, 20, XFX_MAX_PASSES, "passes");
        if (b->error != XGD_OK) break;
        if (np == 0 || passes_seen + (int)np > XFX_MAX_PASSES) {
            bad(b, "technique %s has %u passes", tq->name, np);
            break;
        }
        passes_seen += (int)np;
        tq->passes = calloc(np, sizeof *tq->passes);
        if (tq->passes == NULL) {
            b->error = XGD_ERROR_OUT_OF_MEMORY;
            break;
        }
        tq->pass_count = (int)np;
        if (idx_n + np > idx_cap) {
            size_t cap = idx_cap ? idx_cap * 2 : 16;
            while (cap < idx_n + np) cap *= 2;
            int(*ni)[2] = realloc(idx, cap * sizeof *ni);
            if (ni == NULL) {
                b->error = XGD_ERROR_OUT_OF_MEMORY;
                break;
            }
            idx = ni;
            idx_cap = cap;
        }
        for (uint32_t q = 0; q < np && b->error == XGD_OK; q++) {
            xgdi_hlsl_pass *pass = &tq->passes[q];
            get_str(b, pass->name, sizeof pass->name, "a pass's name");
            pass->line = get_i32(b);
            idx[idx_n][0] = get_i32(b);
            idx[idx_n][1] = get_i32(b);
            idx_n++;
            uint32_t ns = get_count(b, 12, XGDI_HLSL_STATE_MAX, "states");
            pass->state_count = (int)ns;
            for (uint32_t s = 0; s < ns && b->error == XGD_OK; s++) {
                get_str(b, pass->states[s].name, sizeof pass->states[s].name, "a state's name");
                get_str(b, pass->states[s].value, sizeof pass->states[s].value, "a state's value");
                pass->states[s].line = get_i32(b);
            }
        }
    }
    int shaders = b->error == XGD_OK ? (int)get_count(b, 40, XFX_MAX_SHADERS, "shaders") : 0;
    if (b->error == XGD_OK && shaders > 0 &&
        (p->shaders = calloc((size_t)shaders, sizeof *p->shaders)) == NULL)
        b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < shaders && b->error == XGD_OK; i++) {
        xgdi_hlsl_shader *sh = &p->shaders[i];
        p->shader_count = i + 1;
        get_str(b, sh->entry, sizeof sh->entry, "an entry point");
        uint32_t stage = get_u32(b);
        get_str(b, sh->profile, sizeof sh->profile, "a profile");
        uint32_t words = get_count(b, 4, 1u << 24, "SPIR-V words");
        if (b->error != XGD_OK) break;
        if (stage > 1 || sh->entry[0] == '\0' || words < 5) {
            bad(b, "shader %s is malformed", sh->entry);
            break;
        }
        sh->stage = (xgdi_hlsl_stage)stage;
        sh->words = malloc((size_t)words * 4);
        if (sh->words == NULL) {
            b->error = XGD_ERROR_OUT_OF_MEMORY;
            break;
        }
        /* get_count checked that the words fit: one loop, not a checked read per word (a
           load reads every shader's module) */
        const uint8_t *q = b->p + b->pos;
        for (uint32_t w = 0; w < words; w++, q += 4)
            sh->words[w] = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
        b->pos += (size_t)words * 4;
        sh->word_count = words;
        if (b->error == XGD_OK && sh->words[0] != 0x07230203u) bad(b, "shader %s is not SPIR-V", sh->entry);
        if (b->error == XGD_OK) get_reflection(b, &sh->reflection);
    }
    if (version >= 2) load_v2(b, p);
    if (b->error == XGD_OK && b->pos != b->n) bad(b, "%zu bytes follow the last record", b->n - b->pos);
    if (b->error == XGD_OK && alloc_pass_table(p) != XGD_OK) b->error = XGD_ERROR_OUT_OF_MEMORY;
    for (size_t k = 0; k < idx_n && b->error == XGD_OK; k++) {
        for (int stage = 0; stage < 2; stage++) {
            int s = idx[k][stage];
            if (s < -1 || s >= p->shader_count || (s >= 0 && (int)p->shaders[s].stage != stage))
                bad(b, "a pass names shader %d for the %s stage", s, stage ? "pixel" : "vertex");
            p->pass_shader[k][stage] = s;
        }
        if (idx[k][0] < 0 && idx[k][1] < 0) bad(b, "a pass without shaders");
    }
    free(idx);
}

xgd_result xgdi_hlsl_program_load(const void *bytes, size_t size, xgdi_hlsl_program *out,
                                  char *msg, size_t msg_size)
{
    if (msg != NULL && msg_size > 0) msg[0] = '\0';
    if (out == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (bytes == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    rbuf b = { bytes, size, 0, msg, msg_size, XGD_OK };
    xgdi_hlsl_program p;
    memset(&p, 0, sizeof p);
    load(&b, &p);
    if (b.error != XGD_OK) {
        if (b.error == XGD_ERROR_OUT_OF_MEMORY && msg != NULL && msg_size > 0)
            snprintf(msg, msg_size, "compiled effect: out of memory");
        xgdi_hlsl_program_free(&p);
        return b.error;
    }
    *out = p;
    return XGD_OK;
}
