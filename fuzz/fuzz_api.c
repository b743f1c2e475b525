/*
 * fuzz_api.c - libFuzzer target: the input is a program of public API calls (include/xgd.h),
 * run the way an application might drive xgd, on up to two devices at once: every object kind,
 * arguments that are NULL, out of range, of the wrong kind, of another device, or shells left
 * by a destroyed device; simulated context loss and restore, device reset, renderer failures
 * injected through core's debug hook, and devices destroyed while their objects live.
 *
 * After every call that returns an xgd_result the library's contract is checked, and a
 * violation aborts (libFuzzer reports it with the input that caused it):
 *   - a failure is one of the named codes and left a non-empty message: through the device's
 *     log callback (code and message), or, for calls that have no live device to report to,
 *     in xgd_device_last_error(NULL) with the same code;
 *   - a failure changed no public state: everything readable through the public getters (device
 *     info, viewport, scissor, bound targets, statistics and frame statistics, every texture's
 *     info and level-0 texels, every buffer's contents, every BasicEffect's parameters, the
 *     back buffer) is compared before and after;
 *   - a failed creation leaves *out NULL, a successful one a non-NULL object;
 *   - a few rules of success: a bound target set reads back as bound, a viewport reads back as
 *     set, loss and restore show in xgd_device_info.lost.
 *
 * Sizes stay small (a valid object is at most a few hundred KiB), so each input runs in
 * milliseconds; out-of-range sizes are still generated, as they must be refused. Every buffer
 * handed to the library is allocated with the exact size the call is told, so AddressSanitizer
 * sees any read or write beyond what the caller promised.
 *
 * The renderer is the software one. XGD_FUZZ_RENDERER=vulkan (or d3d12) selects another in a
 * build that has it, for runs by hand: every input creates a device, which takes lavapipe far
 * longer than an input's budget (the committed corpus does not replay in 100 s), so CI does not.
 */
#include "fuzz_common.h"
#include "internal.h" /* xgdi_debug_fail_next: renderer failures on demand (src/core/fault.c) */

#include <xgd.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- contract failures ----------------------------------------------------------------------- */

static const char *g_call = "(none)";
static bool g_verbose; /* XGD_FUZZ_VERBOSE=1: every call and its result on stderr */

static void violation(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void violation(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "xgd contract violation in %s: ", g_call);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

/* ---- objects --------------------------------------------------------------------------------- */

enum { NDEV = 2, CAP = 8 };

enum kind { K_TEX, K_DECL, K_VB, K_IB, K_BLEND, K_DS, K_RS, K_SAMP, K_EFFECT, K_BATCH, K_QUERY,
            K_COUNT };

typedef struct entry {
    void *p;
    int dev;       /* index of the owning device; -1 once it was destroyed (a shell) */
    bool owned;    /* owned by the device (presets, stock declarations): never destroyed here,
                      and gone with the device */
    size_t bytes;  /* buffers: contents size */
} entry;

static xgd_device *g_dev[NDEV];
static entry g_pool[K_COUNT][CAP];
static xgd_renderer_kind g_renderer = XGD_RENDERER_SOFTWARE;

static void destroy_object(int kind, void *p)
{
    switch (kind) {
    case K_TEX: xgd_texture_destroy(p); break;
    case K_DECL: xgd_vertex_declaration_destroy(p); break;
    case K_VB: xgd_vertex_buffer_destroy(p); break;
    case K_IB: xgd_index_buffer_destroy(p); break;
    case K_BLEND: xgd_blend_state_destroy(p); break;
    case K_DS: xgd_depth_stencil_state_destroy(p); break;
    case K_RS: xgd_rasterizer_state_destroy(p); break;
    case K_SAMP: xgd_sampler_state_destroy(p); break;
    case K_EFFECT: xgd_effect_destroy(p); break;
    case K_BATCH: xgd_sprite_batch_destroy(p); break;
    case K_QUERY: xgd_occlusion_query_destroy(p); break;
    default: break;
    }
}

static int device_index(const xgd_device *d)
{
    for (int i = 0; i < NDEV; i++)
        if (d != NULL && g_dev[i] == d) return i;
    return -1;
}

/* Keeps a new object; a full pool gives up a slot chosen by the input (its object destroyed). */
static void add_object(fz_reader *r, int kind, void *p, xgd_device *dev, bool owned, size_t bytes)
{
    if (p == NULL) return;
    int slot = -1;
    for (int i = 0; i < CAP && slot < 0; i++)
        if (g_pool[kind][i].p == NULL) slot = i;
    if (slot < 0) {
        slot = fz_u8(r) % CAP;
        if (!g_pool[kind][slot].owned) destroy_object(kind, g_pool[kind][slot].p);
    }
    g_pool[kind][slot] = (entry){ p, device_index(dev), owned, bytes };
}

/* An object of the kind, or NULL (an empty slot, or the slot past the end). */
static entry *pick_entry(fz_reader *r, int kind)
{
    entry *e = &g_pool[kind][fz_u8(r) % (CAP + 1) % CAP];
    return e->p != NULL ? e : NULL;
}

static void *pick(fz_reader *r, int kind)
{
    uint8_t v = fz_u8(r);
    if (v % (CAP + 1) == CAP) return NULL;
    return g_pool[kind][v % (CAP + 1)].p;
}

/* Mostly the first live device; sometimes the second slot, or NULL. */
static xgd_device *pick_dev(fz_reader *r)
{
    uint8_t v = fz_u8(r) % 16;
    if (v == 15) return NULL;
    if (v == 14) return g_dev[1];
    return g_dev[0] != NULL ? g_dev[0] : g_dev[1];
}

/* The caller's destroy: the object is gone from the pools (its pointer is freed). */
static void forget(int kind, void *p)
{
    for (int i = 0; i < CAP; i++)
        if (g_pool[kind][i].p == p) g_pool[kind][i] = (entry){ 0 };
}

static void destroy_device(int i)
{
    if (g_dev[i] == NULL) return;
    xgd_device_destroy(g_dev[i]);
    g_dev[i] = NULL;
    for (int k = 0; k < K_COUNT; k++)
        for (int s = 0; s < CAP; s++) {
            entry *e = &g_pool[k][s];
            if (e->p == NULL || e->dev != i) continue;
            if (e->owned) *e = (entry){ 0 }; /* freed with its device */
            else e->dev = -1;                /* a shell until destroyed */
        }
}

/* ---- public state snapshots -------------------------------------------------------------------- */

enum { MAX_PARTS = 160 };

typedef struct snapshot {
    int n;
    const char *name[MAX_PARTS];
    int index[MAX_PARTS];
    uint64_t v[MAX_PARTS];
    uint8_t raw[MAX_PARTS][256]; /* the first bytes of each part, to name what changed */
    size_t raw_n[MAX_PARTS];
} snapshot;

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void part(snapshot *s, const char *name, int index, xgd_result r, const void *p, size_t n)
{
    if (s->n >= MAX_PARTS) violation("snapshot table too small");
    uint64_t h = hash_bytes(0xcbf29ce484222325ull, &r, sizeof r);
    if (p != NULL) h = hash_bytes(h, p, n);
    s->name[s->n] = name;
    s->index[s->n] = index;
    s->v[s->n] = h;
    s->raw_n[s->n] = p != NULL ? (n < 256 ? n : 256) : 0;
    if (p != NULL) memcpy(s->raw[s->n], p, s->raw_n[s->n]);
    s->n++;
}

static uint8_t g_scratch[1 << 16];

/* Counters: read where they cannot include the snapshot's own readbacks. */
static void snap_stats(snapshot *s)
{
    for (int i = 0; i < NDEV; i++) {
        if (g_dev[i] == NULL) continue;
        xgd_statistics st;
        memset(&st, 0, sizeof st);
        xgd_result r = xgd_device_get_statistics(g_dev[i], &st);
        part(s, "statistics", i, r, &st, sizeof st);
        xgd_frame_statistics fs;
        for (int cur = 0; cur < 2; cur++) {
            memset(&fs, 0, sizeof fs);
            r = xgd_device_get_frame_statistics(g_dev[i], cur != 0, &fs);
            part(s, cur ? "frame statistics (current)" : "frame statistics (last)", i, r, &fs,
                 sizeof fs);
        }
    }
}

static void snap_state(snapshot *s)
{
    for (int i = 0; i < NDEV; i++) {
        xgd_device *d = g_dev[i];
        if (d == NULL) continue;
        xgd_device_info info;
        memset(&info, 0, sizeof info);
        xgd_result r = xgd_device_get_info(d, &info);
        uint64_t names = 0;
        if (r == XGD_OK) {
            if (info.adapter_name) names = hash_bytes(1, info.adapter_name, strlen(info.adapter_name));
            if (info.renderer_name) names = hash_bytes(names, info.renderer_name, strlen(info.renderer_name));
        }
        info.adapter_name = info.renderer_name = NULL;
        part(s, "device info", i, r, &info, sizeof info);
        part(s, "device names", i, r, &names, sizeof names);
        xgd_viewport vp;
        memset(&vp, 0, sizeof vp);
        r = xgd_get_viewport(d, &vp);
        part(s, "viewport", i, r, &vp, sizeof vp);
        xgd_rect sc = { 0, 0, 0, 0 };
        r = xgd_get_scissor_rect(d, &sc);
        part(s, "scissor", i, r, &sc, sizeof sc);
        xgd_render_target_binding b[4];
        memset(b, 0, sizeof b);
        int count = -1;
        r = xgd_get_render_targets(d, b, 4, &count);
        part(s, "render targets", i, r, b, sizeof b);
        part(s, "render target count", i, r, &count, sizeof count);
        /* What is bound (GraphicsDevice's state properties), through the getters. */
        struct {
            xgd_blend_state *blend;
            xgd_depth_stencil_state *depth_stencil;
            xgd_rasterizer_state *rasterizer;
            xgd_sampler_state *samplers[16];
            xgd_texture *textures[16];
            xgd_vertex_buffer *vb;
            xgd_index_buffer *ib;
            int vertex_offset;
            xgd_color blend_factor;
        } bound;
        memset(&bound, 0, sizeof bound);
        r = xgd_get_blend_state(d, &bound.blend);
        if (r == XGD_OK) r = xgd_get_depth_stencil_state(d, &bound.depth_stencil);
        if (r == XGD_OK) r = xgd_get_rasterizer_state(d, &bound.rasterizer);
        for (int k = 0; k < 16 && r == XGD_OK; k++) {
            r = xgd_get_sampler_state(d, k, &bound.samplers[k]);
            if (r == XGD_OK) r = xgd_get_texture(d, k, &bound.textures[k]);
        }
        if (r == XGD_OK) r = xgd_get_vertex_buffer(d, &bound.vb, &bound.vertex_offset);
        if (r == XGD_OK) r = xgd_get_indices(d, &bound.ib);
        if (r == XGD_OK) r = xgd_get_blend_factor(d, &bound.blend_factor);
        part(s, "bound state", i, r, &bound, sizeof bound);
        int lw = r == XGD_OK ? info.logical_width : 0, lh = info.logical_height;
        if (lw > 0 && lh > 0 && (size_t)lw * (size_t)lh * 4 <= sizeof g_scratch) {
            size_t size = (size_t)lw * (size_t)lh * 4;
            memset(g_scratch, 0, size);
            r = xgd_get_back_buffer_data(d, NULL, g_scratch, size);
            part(s, "back buffer", i, r, g_scratch, size);
        }
    }
    for (int k = 0; k < CAP; k++) {
        entry *e = &g_pool[K_TEX][k];
        if (e->p == NULL) continue;
        xgd_texture_info ti;
        memset(&ti, 0, sizeof ti);
        xgd_result r = xgd_texture_get_info(e->p, &ti);
        part(s, "texture info", k, r, &ti, sizeof ti);
        if (r != XGD_OK) continue;
        size_t size = xgd_surface_format_size(ti.format, ti.width, ti.height);
        if (ti.kind == XGD_TEXTURE_3D) size *= (size_t)ti.depth;
        if (size == 0 || size > sizeof g_scratch) continue;
        memset(g_scratch, 0, size);
        r = ti.kind == XGD_TEXTURE_3D ? xgd_texture3d_get_data(e->p, 0, NULL, g_scratch, size)
                                      : xgd_texture_get_data(e->p, 0, 0, NULL, g_scratch, size);
        part(s, "texture texels", k, r, g_scratch, size);
    }
    for (int kind = K_VB; kind <= K_IB; kind++)
        for (int k = 0; k < CAP; k++) {
            entry *e = &g_pool[kind][k];
            if (e->p == NULL || e->bytes > sizeof g_scratch) continue;
            memset(g_scratch, 0, e->bytes);
            xgd_result r = kind == K_VB ? xgd_vertex_buffer_get_data(e->p, 0, g_scratch, e->bytes)
                                        : xgd_index_buffer_get_data(e->p, 0, g_scratch, e->bytes);
            part(s, kind == K_VB ? "vertex buffer contents" : "index buffer contents", k, r,
                 g_scratch, e->bytes);
        }
    for (int k = 0; k < CAP; k++) {
        entry *e = &g_pool[K_EFFECT][k];
        if (e->p == NULL) continue;
        xgd_basic_effect_params bp;
        memset(&bp, 0, sizeof bp);
        xgd_result r = xgd_basic_effect_get(e->p, &bp);
        part(s, "BasicEffect parameters", k, r, &bp, sizeof bp);
    }
}

/* ---- the checked call ------------------------------------------------------------------------ */

static struct {
    int errors;
    xgd_result code;
    bool empty;
    char message[160];
} g_log;

static void on_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user;
    if (level != XGD_LOG_ERROR) return;
    g_log.errors++;
    g_log.code = code;
    g_log.empty = message == NULL || message[0] == '\0';
    snprintf(g_log.message, sizeof g_log.message, "%s", message != NULL ? message : "");
}

/* A message no call of this program produces: a device-less failure must replace it. */
static char g_sentinel[512];
static snapshot g_before, g_after;

static void set_sentinel(void)
{
    xgd_device *none = NULL;
    xgd_device_desc bad = XGD_DEVICE_DESC_DEFAULT;
    bad.profile = (xgd_graphics_profile)0x7eadbeef;
    xgd_device_create(&bad, &none);
    if (g_sentinel[0] == '\0') snprintf(g_sentinel, sizeof g_sentinel, "%s", xgd_device_last_error(NULL));
}


/* The snapshots' own readbacks must neither consume nor trip a fault armed for the call under
 * test: the counts of core's fault hook are set aside (disarmed) while they run. */
static int g_fault_saved[NDEV][XGDI_FAULT_OP_COUNT];

static void faults_save(void)
{
    for (int i = 0; i < NDEV; i++)
        if (g_dev[i] != NULL) {
            memcpy(g_fault_saved[i], g_dev[i]->debug_fault_count, sizeof g_fault_saved[i]);
            memset(g_dev[i]->debug_fault_count, 0, sizeof g_dev[i]->debug_fault_count);
        }
}

static void faults_restore(void)
{
    for (int i = 0; i < NDEV; i++)
        if (g_dev[i] != NULL) memcpy(g_dev[i]->debug_fault_count, g_fault_saved[i], sizeof g_fault_saved[i]);
}

static void before_call(const char *what)
{
    g_call = what;
    if (g_verbose) fprintf(stderr, "call %s\n", what);
    g_before.n = 0;
    faults_save();
    snap_state(&g_before);
    snap_stats(&g_before);
    faults_restore();
    memset(&g_log, 0, sizeof g_log);
    set_sentinel();
}

static void compare(const snapshot *a, const snapshot *b)
{
    if (a->n != b->n) violation("the set of public state changed (%d parts, then %d)", a->n, b->n);
    for (int i = 0; i < a->n; i++)
        if (a->v[i] != b->v[i] || a->name[i] != b->name[i]) {
            for (size_t k = 0; k < a->raw_n[i] && k < b->raw_n[i]; k++)
                if (a->raw[i][k] != b->raw[i][k])
                    fprintf(stderr, "  byte %zu: %02x -> %02x\n", k, a->raw[i][k], b->raw[i][k]);
            violation("a failed call changed public state: %s [%d]", a->name[i], a->index[i]);
        }
}

static xgd_result after_call(xgd_result r)
{
    if (g_verbose)
        fprintf(stderr, "  -> %s%s%s\n", xgd_result_name(r), r != XGD_OK ? ": " : "",
                r == XGD_OK ? "" : g_log.errors > 0 ? g_log.message : xgd_device_last_error(NULL));
    if (r == XGD_OK) return r;
    if (r < XGD_ERROR_ARGUMENT_OUT_OF_RANGE || r > XGD_ERROR_INVALID_ARGUMENT)
        violation("failure code %d is not a named xgd_result", (int)r);
    if (strcmp(xgd_result_name(r), "UNKNOWN_RESULT") == 0)
        violation("xgd_result_name has no name for %d", (int)r);
    if (g_log.errors > 0) {
        if (g_log.code != r)
            violation("returned %s but the last logged error was %s", xgd_result_name(r),
                      xgd_result_name(g_log.code));
        if (g_log.empty) violation("%s was logged with an empty message", xgd_result_name(r));
    } else {
        const char *m = xgd_device_last_error(NULL);
        if (strcmp(m, g_sentinel) == 0 || m[0] == '\0')
            violation("%s left no message (no log on a device, none for device NULL)",
                      xgd_result_name(r));
        if (xgd_device_last_result(NULL) != r)
            violation("returned %s, xgd_device_last_result(NULL) says %s", xgd_result_name(r),
                      xgd_result_name(xgd_device_last_result(NULL)));
    }
    /* SpriteBatch.End is several draws: a renderer failure at the k-th (an injected fault) comes
     * after the runs before it were drawn, which no renderer can take back. Only that case is
     * excused; a refusal that validation could have made must change nothing. */
    if (strncmp(g_call, "xgd_sprite_batch_end", 20) == 0 && g_log.errors > 0 &&
        strstr(g_log.message, "(injected debug fault)") != NULL)
        return r;
    g_after.n = 0;
    faults_save();
    snap_stats(&g_after);
    snap_state(&g_after);
    faults_restore();
    /* The snapshots were taken in opposite orders; compare part by part by name. */
    snapshot a = g_before, b;
    b.n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < g_after.n; i++) {
            bool stat = strstr(g_after.name[i], "statistics") != NULL;
            if (stat != (pass == 1)) continue;
            b.name[b.n] = g_after.name[i];
            b.index[b.n] = g_after.index[i];
            b.raw_n[b.n] = g_after.raw_n[i];
            memcpy(b.raw[b.n], g_after.raw[i], b.raw_n[b.n]);
            b.v[b.n++] = g_after.v[i];
        }
    compare(&a, &b);
    return r;
}

#define CALL(expr) (before_call(#expr), after_call(expr))

/* A creation: checks the out-parameter rule as well, unless the call was given out NULL. */
#define CREATE(expr, outp)                                                                     \
    do {                                                                                       \
        *(outp) = (void *)&g_sentinel;                                                         \
        xgd_result cr_ = CALL(expr);                                                           \
        if (*(outp) == (void *)&g_sentinel) {                                                  \
            if (cr_ == XGD_OK) violation("a creation given out NULL succeeded");               \
            *(outp) = NULL;                                                                    \
            break;                                                                             \
        }                                                                                      \
        if (cr_ != XGD_OK && *(outp) != NULL) violation("a failed creation left *out set");  \
        if (cr_ == XGD_OK && *(outp) == NULL) violation("a successful creation gave NULL");  \
        if (cr_ != XGD_OK) *(outp) = NULL;                                                     \
    } while (0)

/* ---- argument generators ----------------------------------------------------------------------- */

/* A side: mostly small, sometimes out of range; valid sizes above 64 only come one at a time
 * (see small_area), so an object stays small. */
static int dim(fz_reader *r)
{
    uint8_t m = fz_u8(r);
    if (m < 200) return 1 + m % 16;
    return fz_edge_int(r);
}

static void small_area(int *w, int *h)
{
    if (*w > 64 && *h > 64 && *w <= 4096 && *h <= 4096) *h = 1 + *h % 8;
}

static xgd_surface_format surface_format(fz_reader *r)
{
    uint8_t m = fz_u8(r);
    if (m < 230) return (xgd_surface_format)(m % XGD_SURFACE_FORMAT_COUNT);
    return (xgd_surface_format)fz_int(r);
}

static int enum_value(fz_reader *r, int count)
{
    uint8_t m = fz_u8(r);
    if (m < 240) return m % count;
    return fz_edge_int(r);
}

static xgd_matrix matrix(fz_reader *r)
{
    xgd_matrix m = xgd_matrix_identity();
    uint8_t mode = fz_u8(r) % 4;
    if (mode == 1) {
        for (int i = 0; i < 16; i++) m.m[i] = fz_float(r);
    } else if (mode == 2) {
        m = xgd_matrix_create_orthographic_off_center(0, 16, 16, 0, 0, 1);
    } else if (mode == 3) {
        m.m[fz_u8(r) % 16] = fz_float(r);
    }
    return m;
}

static xgd_vector4 vec4(fz_reader *r)
{
    return (xgd_vector4){ fz_float(r), fz_float(r), fz_float(r), fz_float(r) };
}

static xgd_rect rect(fz_reader *r)
{
    xgd_rect x;
    x.x = fz_int(r);
    x.y = fz_int(r);
    x.width = fz_int(r);
    x.height = fz_int(r);
    return x;
}

static xgd_presentation_parameters presentation(fz_reader *r)
{
    xgd_presentation_parameters pp;
    memset(&pp, 0, sizeof pp);
    pp.back_buffer_width = dim(r);
    pp.back_buffer_height = dim(r);
    if (pp.back_buffer_width > 64 || pp.back_buffer_height > 64) small_area(&pp.back_buffer_width, &pp.back_buffer_height);
    if (pp.back_buffer_width > 64 && pp.back_buffer_height > 8 && pp.back_buffer_height <= 4096)
        pp.back_buffer_height = 8;
    pp.back_buffer_format = fz_u8(r) % 8 == 0 ? surface_format(r) : XGD_SURFACE_FORMAT_DEFAULT;
    pp.depth_stencil_format = (xgd_depth_format)enum_value(r, XGD_DEPTH_FORMAT_COUNT + 1);
    pp.multisample_count = fz_u8(r) % 4 == 0 ? fz_edge_int(r) : 0;
    pp.presentation_mode = (xgd_presentation_mode)enum_value(r, 7);
    if (fz_u8(r) % 4 == 0) {
        pp.virtual_width = dim(r);
        pp.virtual_height = dim(r);
        small_area(&pp.virtual_width, &pp.virtual_height);
    }
    pp.present_interval = (xgd_present_interval)enum_value(r, 5);
    pp.headless = fz_u8(r) % 32 != 0;
    return pp;
}

/* Exact-size heap copies of argument data, so reads beyond what the call was told are seen. */
static void *arg_data(fz_reader *r, size_t size)
{
    void *p = malloc(size != 0 ? size : 1);
    if (p == NULL) abort();
    fz_bytes(r, p, size);
    return p;
}

/* A size the call should get, or sometimes a wrong one. */
static size_t data_size(fz_reader *r, size_t right)
{
    uint8_t m = fz_u8(r);
    if (m < 200) return right;
    if (m < 220) return right + 1;
    if (m < 240) return right > 0 ? right - 1 : 0;
    return (size_t)fz_u16(r);
}

enum { MAX_ARG = 1 << 20 };

/* ---- the operations -------------------------------------------------------------------------- */

static void op_device_create(fz_reader *r)
{
    int slot = fz_u8(r) % NDEV;
    destroy_device(slot);
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp = presentation(r);
    dd.profile = (xgd_graphics_profile)enum_value(r, 3);
    dd.renderer = fz_u8(r) % 16 == 0 ? (xgd_renderer_kind)fz_edge_int(r) : g_renderer;
    if (dd.renderer != g_renderer && dd.renderer != XGD_RENDERER_COUNT + 1 && dd.renderer > 0 &&
        dd.renderer < XGD_RENDERER_COUNT)
        dd.renderer = g_renderer; /* never starts a slow renderer by accident */
    if (dd.renderer == XGD_RENDERER_AUTO) dd.renderer = g_renderer;
    dd.context_recovery = fz_u8(r) % 4 != 0;
    dd.log = on_log;
    uint8_t mode = fz_u8(r) % 16;
    if (g_verbose)
        fprintf(stderr, "device %d: %dx%d format %d depth %d ms %d mode %d virtual %dx%d interval %d "
                "headless %d profile %d renderer %d no-recovery %d\n", slot,
                dd.pp.back_buffer_width, dd.pp.back_buffer_height, (int)dd.pp.back_buffer_format,
                (int)dd.pp.depth_stencil_format, dd.pp.multisample_count,
                (int)dd.pp.presentation_mode, dd.pp.virtual_width, dd.pp.virtual_height,
                (int)dd.pp.present_interval, dd.pp.headless, (int)dd.profile, (int)dd.renderer,
                !dd.context_recovery);
    xgd_device *dev = NULL;
    if (mode == 0) {
        xgd_result res = CALL(xgd_device_create(NULL, &dev));
        if (res == XGD_OK) violation("a NULL desc (a window) was accepted");
    } else if (mode == 1) {
        CALL(xgd_device_create(&dd, NULL));
    } else {
        CREATE(xgd_device_create(&dd, &dev), &dev);
    }
    g_dev[slot] = dev;
}

static void op_device_query(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    bool null_out = fz_u8(r) % 8 == 0;
    switch (fz_u8(r) % 7) {
    case 0: {
        xgd_device_info info;
        CALL(xgd_device_get_info(d, null_out ? NULL : &info));
        break;
    }
    case 1: {
        xgd_statistics st;
        CALL(xgd_device_get_statistics(d, null_out ? NULL : &st));
        break;
    }
    case 2: {
        xgd_frame_statistics fs;
        CALL(xgd_device_get_frame_statistics(d, fz_bool(r), null_out ? NULL : &fs));
        break;
    }
    case 3: CALL(xgd_device_reset_statistics(d)); break;
    case 4: {
        xgd_format_support fs;
        CALL(xgd_device_query_format(d, surface_format(r), null_out ? NULL : &fs));
        break;
    }
    case 5: {
        xgd_native_caps caps;
        CALL(xgd_device_get_native_caps(d, null_out ? NULL : &caps));
        break;
    }
    default: {
        (void)xgd_device_last_error(d);
        (void)xgd_device_last_result(d);
        (void)xgd_result_name((xgd_result)fz_edge_int(r));
        (void)xgd_renderer_from_name(fz_bool(r) ? "software" : "nonsense");
        (void)xgd_surface_format_size(surface_format(r), fz_edge_int(r), fz_edge_int(r));
        (void)xgd_surface_format_element_size(surface_format(r));
        break;
    }
    }
}

static void op_device_lifecycle(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    switch (fz_u8(r) % 4) {
    case 0: {
        xgd_presentation_parameters pp = presentation(r);
        xgd_result res = CALL(xgd_device_reset(d, fz_u8(r) % 4 == 0 ? NULL : &pp));
        if (res == XGD_OK) {
            int count = -1;
            xgd_render_target_binding b[4];
            if (xgd_get_render_targets(d, b, 4, &count) != XGD_OK || count != 0)
                violation("a reset left render targets bound");
        }
        break;
    }
    case 1: {
        xgd_result res = CALL(xgd_device_simulate_context_loss(d));
        xgd_device_info info;
        if (res == XGD_OK && (xgd_device_get_info(d, &info) != XGD_OK || !info.lost))
            violation("simulated loss did not show in xgd_device_info.lost");
        break;
    }
    case 2: {
        xgd_result res = CALL(xgd_device_restore_context(d));
        xgd_device_info info;
        if (res == XGD_OK && (xgd_device_get_info(d, &info) != XGD_OK || info.lost))
            violation("a restored device still reports lost");
        break;
    }
    default: destroy_device(fz_u8(r) % NDEV); break;
    }
}

static void op_fault(fz_reader *r)
{
    /* Renderer failures on demand (core's debug hook). The download-corrupting and caps faults
     * are left out: they change what a readback returns, by design. */
    static const xgdi_fault_op ops[] = {
        XGDI_FAULT_SET_RENDER_TARGETS, XGDI_FAULT_TEXTURE_CREATE, XGDI_FAULT_TEXTURE_UPLOAD,
        XGDI_FAULT_CLEAR, XGDI_FAULT_DRAW, XGDI_FAULT_PRESENT, XGDI_FAULT_READ_BACK_BUFFER,
        XGDI_FAULT_RESET_BACK_BUFFER, XGDI_FAULT_SUBMIT
    };
    xgd_device *d = g_dev[fz_u8(r) % NDEV];
    if (d == NULL) return;
    xgdi_fault_op op = ops[fz_u8(r) % (sizeof ops / sizeof ops[0])];
    uint8_t m = fz_u8(r);
    int nth = m % 16 == 15 ? -1 : m % 5;
    xgdi_debug_fail_next(d, op, nth, XGD_ERROR_OUT_OF_MEMORY);
}

static void op_texture_create(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    xgd_texture *t = NULL;
    bool null_desc = fz_u8(r) % 16 == 0;
    switch (fz_u8(r) % 6) {
    case 0: {
        xgd_texture2d_desc td = { dim(r), dim(r), fz_u8(r) % 3 == 0, surface_format(r) };
        small_area(&td.width, &td.height);
        CREATE(xgd_texture2d_create(d, null_desc ? NULL : &td, &t), &t);
        break;
    }
    case 1: {
        xgd_texture_cube_desc cd = { dim(r), fz_u8(r) % 3 == 0, surface_format(r) };
        if (cd.size > 64 && cd.size <= 4096) cd.size = 64;
        CREATE(xgd_texture_cube_create(d, null_desc ? NULL : &cd, &t), &t);
        break;
    }
    case 2: {
        xgd_texture3d_desc vd = { dim(r), dim(r), dim(r), fz_u8(r) % 3 == 0, surface_format(r) };
        int *s[3] = { &vd.width, &vd.height, &vd.depth };
        int big = 0;
        for (int i = 0; i < 3; i++)
            if (*s[i] > 16 && *s[i] <= 256 && big++ > 0) *s[i] = 4;
        CREATE(xgd_texture3d_create(d, null_desc ? NULL : &vd, &t), &t);
        break;
    }
    case 3:
    case 4: {
        xgd_render_target_desc rd;
        memset(&rd, 0, sizeof rd);
        rd.width = dim(r);
        rd.height = dim(r);
        small_area(&rd.width, &rd.height);
        rd.mipmap = fz_u8(r) % 3 == 0;
        rd.preferred_format = surface_format(r);
        rd.preferred_depth_format = (xgd_depth_format)enum_value(r, XGD_DEPTH_FORMAT_COUNT + 1);
        rd.preferred_multisample_count = fz_u8(r) % 4 == 0 ? fz_edge_int(r) : 0;
        rd.usage = (xgd_render_target_usage)enum_value(r, 5);
        bool cube = fz_u8(r) % 3 == 0;
        if (cube && rd.width > 32 && rd.width <= 4096) rd.width = 32;
        if (rd.preferred_multisample_count > 1 && (int64_t)rd.width * (cube ? rd.width : rd.height) > 4096)
            rd.width = rd.height = 16;
        if (cube) CREATE(xgd_render_target_cube_create(d, null_desc ? NULL : &rd, &t), &t);
        else CREATE(xgd_render_target2d_create(d, null_desc ? NULL : &rd, &t), &t);
        break;
    }
    default: {
        /* A PNG: one of two valid images, or input bytes. */
        static const uint8_t png_2x2[] = {
            0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
            0x44, 0x52, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00,
            0x00, 0x72, 0xb6, 0x0d, 0x24, 0x00, 0x00, 0x00, 0x16, 0x49, 0x44, 0x41, 0x54, 0x78,
            0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x08, 0x19, 0x18, 0xfe, 0x33, 0x00, 0x00,
            0x1e, 0xfa, 0x04, 0xfc, 0x8f, 0x7c, 0x89, 0x2b, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
            0x4e, 0x44, 0xae, 0x42, 0x60, 0x82 };
        size_t n = fz_u8(r) % 64;
        uint8_t mode = fz_u8(r) % 4;
        uint8_t *buf = arg_data(r, mode == 0 ? n : sizeof png_2x2);
        if (mode != 0) memcpy(buf, png_2x2, sizeof png_2x2);
        if (mode == 1 && n < sizeof png_2x2) buf[n] ^= (uint8_t)(1 + fz_u8(r));
        CREATE(xgd_texture2d_from_png_memory(d, mode == 3 ? NULL : buf,
                                              mode == 0 ? n : sizeof png_2x2, &t), &t);
        free(buf);
        break;
    }
    }
    add_object(r, K_TEX, t, d, false, 0);
}

static bool texture_info(xgd_texture *t, xgd_texture_info *ti)
{
    memset(ti, 0, sizeof *ti);
    return t != NULL && xgd_texture_get_info(t, ti) == XGD_OK;
}

static void op_texture_data(fz_reader *r)
{
    xgd_texture *t = pick(r, K_TEX);
    xgd_texture_info ti;
    bool known = texture_info(t, &ti);
    int level = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 3;
    int lw = 1, lh = 1, ld = 1;
    if (known) {
        int l = level >= 0 && level < 31 ? level : 0;
        lw = ti.width >> l > 0 ? ti.width >> l : 1;
        lh = ti.height >> l > 0 ? ti.height >> l : 1;
        ld = ti.depth >> l > 0 ? ti.depth >> l : 1;
    }
    bool get = fz_bool(r);
    if (fz_u8(r) % 4 == 0 || (known && ti.kind == XGD_TEXTURE_3D && fz_u8(r) % 4 != 0)) {
        xgd_box box = { 0, 0, 0, lw, lh, ld };
        bool whole = fz_u8(r) % 2 == 0;
        if (!whole && fz_bool(r)) {
            box.left = fz_int(r); box.top = fz_int(r); box.front = fz_int(r);
            box.right = fz_int(r); box.bottom = fz_int(r); box.back = fz_int(r);
        } else if (!whole) {
            box.left = fz_u8(r) % lw; box.right = box.left + 1 + fz_u8(r) % (lw - box.left);
            box.front = fz_u8(r) % ld; box.back = box.front + 1 + fz_u8(r) % (ld - box.front);
        }
        size_t right = 0;
        if (known && box.right > box.left && box.bottom > box.top && box.back > box.front &&
            (long long)box.right - box.left <= 4096 && (long long)box.bottom - box.top <= 4096 &&
            (long long)box.back - box.front <= 256)
            right = xgd_surface_format_size(ti.format, box.right - box.left, box.bottom - box.top) *
                    (size_t)(box.back - box.front);
        size_t size = data_size(r, right);
        if (size > MAX_ARG) return;
        void *buf = arg_data(r, size);
        bool null_data = fz_u8(r) % 16 == 0;
        if (get) CALL(xgd_texture3d_get_data(t, level, whole ? NULL : &box, null_data ? NULL : buf, size));
        else CALL(xgd_texture3d_set_data(t, level, whole ? NULL : &box, null_data ? NULL : buf, size));
        free(buf);
        return;
    }
    int face = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 6;
    bool whole = fz_u8(r) % 2 == 0;
    xgd_rect rc = { 0, 0, lw, lh };
    if (!whole) {
        if (fz_bool(r)) rc = rect(r);
        else {
            rc.x = fz_u8(r) % lw; rc.width = 1 + fz_u8(r) % (lw - rc.x);
            rc.y = fz_u8(r) % lh; rc.height = 1 + fz_u8(r) % (lh - rc.y);
        }
    }
    size_t right = 0;
    if (known && rc.width > 0 && rc.height > 0 && rc.width <= 4096 && rc.height <= 4096)
        right = xgd_surface_format_size(ti.format, rc.width, rc.height);
    size_t size = data_size(r, right);
    if (size > MAX_ARG) return;
    void *buf = arg_data(r, size);
    bool null_data = fz_u8(r) % 16 == 0;
    if (get) CALL(xgd_texture_get_data(t, level, (xgd_cube_map_face)face, whole ? NULL : &rc, null_data ? NULL : buf, size));
    else CALL(xgd_texture_set_data(t, level, (xgd_cube_map_face)face, whole ? NULL : &rc, null_data ? NULL : buf, size));
    free(buf);
}

static void op_texture_misc(fz_reader *r)
{
    entry *e = pick_entry(r, K_TEX);
    xgd_texture *t = e != NULL ? e->p : NULL;
    switch (fz_u8(r) % 3) {
    case 0: {
        xgd_texture_info ti;
        CALL(xgd_texture_get_info(t, fz_u8(r) % 8 == 0 ? NULL : &ti));
        break;
    }
    default:
        xgd_texture_destroy(t);
        if (t != NULL) forget(K_TEX, t);
        break;
    }
}

static void op_targets(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    switch (fz_u8(r) % 4) {
    case 0:
    case 1: {
        int count = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 5;
        xgd_render_target_binding b[8];
        memset(b, 0, sizeof b);
        for (int i = 0; i < 8; i++) {
            b[i].target = pick(r, K_TEX);
            b[i].face = (xgd_cube_map_face)(fz_u8(r) % 16 == 0 ? fz_edge_int(r) : fz_u8(r) % 6);
        }
        bool null_b = fz_u8(r) % 8 == 0;
        if (count > 8) count = fz_u8(r) % 2 ? 8 : count; /* beyond 4: refused before reading */
        xgd_result res = CALL(xgd_set_render_targets(d, null_b ? NULL : b, count));
        if (res == XGD_OK) {
            xgd_render_target_binding got[4];
            int n = -1;
            if (xgd_get_render_targets(d, got, 4, &n) != XGD_OK || n != count)
                violation("bound %d targets, %d read back", count, n);
            for (int i = 0; i < n; i++) {
                if (got[i].target != b[i].target) violation("target %d reads back differently", i);
                xgd_texture_info ti;
                if (texture_info(got[i].target, &ti) && ti.kind == XGD_RENDER_TARGET_CUBE &&
                    got[i].face != b[i].face)
                    violation("the face of target %d reads back differently", i);
            }
            xgd_device_info info;
            if (xgd_device_get_info(d, &info) != XGD_OK || info.render_target_bound != (count > 0))
                violation("render_target_bound disagrees with the bound set");
        }
        break;
    }
    case 2:
        if (fz_bool(r)) CALL(xgd_set_render_target(d, pick(r, K_TEX)));
        else CALL(xgd_set_render_target_cube(d, pick(r, K_TEX), (xgd_cube_map_face)enum_value(r, 6)));
        break;
    default: {
        xgd_render_target_binding b[4];
        int count;
        int max = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 5;
        if (max > 4) max = 4;
        CALL(xgd_get_render_targets(d, fz_u8(r) % 8 == 0 ? NULL : b, max, fz_u8(r) % 8 == 0 ? NULL : &count));
        break;
    }
    }
}

static void op_frame(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    switch (fz_u8(r) % 7) {
    case 0: {
        unsigned options = fz_u8(r) % 8 == 0 ? (unsigned)fz_u32(r) : fz_u8(r) % 8u;
        CALL(xgd_clear(d, options, vec4(r), fz_float(r), fz_int(r)));
        break;
    }
    case 1: {
        xgd_color c = { fz_u8(r), fz_u8(r), fz_u8(r), fz_u8(r) };
        CALL(xgd_clear_color(d, c));
        break;
    }
    case 2: {
        xgd_viewport vp = { fz_int(r), fz_int(r), fz_int(r), fz_int(r), fz_float(r), fz_float(r) };
        if (fz_bool(r)) { vp.min_depth = 0; vp.max_depth = 1; }
        xgd_result res = CALL(xgd_set_viewport(d, fz_u8(r) % 16 == 0 ? NULL : &vp));
        xgd_viewport got;
        if (res == XGD_OK && (xgd_get_viewport(d, &got) != XGD_OK || got.x != vp.x ||
                              got.y != vp.y || got.width != vp.width || got.height != vp.height))
            violation("a viewport set does not read back");
        break;
    }
    case 3: CALL(xgd_set_scissor_rect(d, rect(r))); break;
    case 4: {
        xgd_viewport vp;
        xgd_rect sc;
        CALL(xgd_get_viewport(d, fz_u8(r) % 8 == 0 ? NULL : &vp));
        CALL(xgd_get_scissor_rect(d, fz_u8(r) % 8 == 0 ? NULL : &sc));
        break;
    }
    case 5: CALL(xgd_present(d)); break;
    default: {
        xgd_rect rc = rect(r);
        bool whole = fz_bool(r);
        xgd_device_info info;
        size_t right = 0;
        if (whole && d != NULL && xgd_device_get_info(d, &info) == XGD_OK)
            right = (size_t)info.logical_width * (size_t)info.logical_height * 4;
        else if (!whole && rc.width > 0 && rc.height > 0 && rc.width <= 4096 && rc.height <= 4096)
            right = (size_t)rc.width * (size_t)rc.height * 4;
        size_t size = data_size(r, right);
        if (size > MAX_ARG) return;
        void *buf = arg_data(r, size);
        CALL(xgd_get_back_buffer_data(d, whole ? NULL : &rc, fz_u8(r) % 16 == 0 ? NULL : buf, size));
        free(buf);
        break;
    }
    }
}

static void op_state_create(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    bool null_desc = fz_u8(r) % 4 == 0;
    switch (fz_u8(r) % 5) {
    case 0: {
        xgd_blend_state_desc bd = XGD_BLEND_STATE_DESC_DEFAULT;
        for (int i = 0; i < 4; i++) {
            bd.target[i].color_blend_function = (xgd_blend_function)enum_value(r, XGD_BLEND_FUNCTION_COUNT + 1);
            bd.target[i].color_source_blend = (xgd_blend)enum_value(r, XGD_BLEND_COUNT + 1);
            bd.target[i].color_destination_blend = (xgd_blend)enum_value(r, XGD_BLEND_COUNT + 1);
            bd.target[i].alpha_blend_function = (xgd_blend_function)enum_value(r, XGD_BLEND_FUNCTION_COUNT + 1);
            bd.target[i].alpha_source_blend = (xgd_blend)enum_value(r, XGD_BLEND_COUNT + 1);
            bd.target[i].alpha_destination_blend = (xgd_blend)enum_value(r, XGD_BLEND_COUNT + 1);
            bd.target[i].color_write_channels = fz_u8(r) % 8 == 0 ? (unsigned)fz_edge_int(r) : fz_u8(r) % 17u;
        }
        bd.independent_blend = fz_bool(r);
        bd.blend_factor = (xgd_color){ fz_u8(r), fz_u8(r), fz_u8(r), fz_u8(r) };
        (void)fz_bool(r); /* keeps the byte layout of stored inputs */
        bd.multisample_mask = fz_int(r);
        xgd_blend_state *s = NULL;
        CREATE(xgd_blend_state_create(d, null_desc ? NULL : &bd, &s), &s);
        add_object(r, K_BLEND, s, d, false, 0);
        break;
    }
    case 1: {
        xgd_depth_stencil_desc dd = XGD_DEPTH_STENCIL_DESC_DEFAULT;
        dd.depth_buffer_enable = !fz_bool(r);
        dd.depth_buffer_write_enable = !fz_bool(r);
        dd.depth_function = (xgd_compare_function)enum_value(r, XGD_COMPARE_COUNT + 1);
        dd.stencil_enable = fz_bool(r);
        dd.stencil_function = (xgd_compare_function)enum_value(r, XGD_COMPARE_COUNT + 1);
        dd.stencil_pass = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.stencil_fail = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.stencil_depth_fail = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.two_sided_stencil = fz_bool(r);
        dd.ccw_stencil_function = (xgd_compare_function)enum_value(r, XGD_COMPARE_COUNT + 1);
        dd.ccw_stencil_pass = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.ccw_stencil_fail = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.ccw_stencil_depth_fail = (xgd_stencil_operation)enum_value(r, XGD_STENCIL_OP_COUNT + 1);
        dd.stencil_mask = fz_int(r);
        dd.stencil_write_mask = fz_int(r);
        (void)fz_bool(r); /* keeps the byte layout of stored inputs */
        dd.reference_stencil = fz_int(r);
        xgd_depth_stencil_state *s = NULL;
        CREATE(xgd_depth_stencil_state_create(d, null_desc ? NULL : &dd, &s), &s);
        add_object(r, K_DS, s, d, false, 0);
        break;
    }
    case 2: {
        xgd_rasterizer_desc rd = { (xgd_cull_mode)enum_value(r, XGD_CULL_COUNT + 1),
                                   (xgd_fill_mode)enum_value(r, XGD_FILL_COUNT + 1), fz_bool(r),
                                   fz_bool(r), fz_float(r), fz_float(r) };
        if (fz_bool(r)) rd.depth_bias = rd.slope_scale_depth_bias = 0;
        xgd_rasterizer_state *s = NULL;
        CREATE(xgd_rasterizer_state_create(d, null_desc ? NULL : &rd, &s), &s);
        add_object(r, K_RS, s, d, false, 0);
        break;
    }
    case 3: {
        xgd_sampler_desc sd = { (xgd_texture_filter)enum_value(r, XGD_FILTER_COUNT + 1),
                                (xgd_texture_address_mode)enum_value(r, XGD_ADDRESS_COUNT + 1),
                                (xgd_texture_address_mode)enum_value(r, XGD_ADDRESS_COUNT + 1),
                                (xgd_texture_address_mode)enum_value(r, XGD_ADDRESS_COUNT + 1),
                                fz_int(r), fz_int(r), fz_float(r) };
        if (fz_bool(r)) sd.mip_map_level_of_detail_bias = 0;
        xgd_sampler_state *s = NULL;
        CREATE(xgd_sampler_state_create(d, null_desc ? NULL : &sd, &s), &s);
        add_object(r, K_SAMP, s, d, false, 0);
        break;
    }
    default: {
        int preset = enum_value(r, 7);
        switch (fz_u8(r) % 4) {
        case 0: add_object(r, K_BLEND, xgd_blend_state_preset(d, (xgd_blend_preset)preset), d, true, 0); break;
        case 1: add_object(r, K_DS, xgd_depth_stencil_state_preset(d, (xgd_depth_stencil_preset)preset), d, true, 0); break;
        case 2: add_object(r, K_RS, xgd_rasterizer_state_preset(d, (xgd_rasterizer_preset)preset), d, true, 0); break;
        default: add_object(r, K_SAMP, xgd_sampler_state_preset(d, (xgd_sampler_preset)preset), d, true, 0); break;
        }
        break;
    }
    }
}

static void op_state_use(fz_reader *r)
{
    int kind = K_BLEND + fz_u8(r) % 4;
    entry *e = pick_entry(r, kind);
    void *s = e != NULL ? e->p : NULL;
    xgd_device *d = pick_dev(r);
    switch (fz_u8(r) % 4) {
    case 0:
        if (e != NULL && e->owned && e->dev < 0) break; /* freed with its device */
        destroy_object(kind, s);
        if (s != NULL && !e->owned) forget(kind, s);
        break;
    case 1: {
        bool null_out = fz_u8(r) % 8 == 0;
        union { xgd_blend_state_desc b; xgd_depth_stencil_desc d; xgd_rasterizer_desc r; xgd_sampler_desc s; } u;
        if (kind == K_BLEND) CALL(xgd_blend_state_get_desc(s, null_out ? NULL : &u.b));
        if (kind == K_DS) CALL(xgd_depth_stencil_state_get_desc(s, null_out ? NULL : &u.d));
        if (kind == K_RS) CALL(xgd_rasterizer_state_get_desc(s, null_out ? NULL : &u.r));
        if (kind == K_SAMP) CALL(xgd_sampler_state_get_desc(s, null_out ? NULL : &u.s));
        break;
    }
    default:
        if (kind == K_BLEND) CALL(xgd_set_blend_state(d, s));
        if (kind == K_DS) CALL(xgd_set_depth_stencil_state(d, s));
        if (kind == K_RS) CALL(xgd_set_rasterizer_state(d, s));
        if (kind == K_SAMP) {
            int slot = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 4;
            CALL(xgd_set_sampler_state(d, slot, s));
        }
        break;
    }
}

static void op_set_texture(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    int slot = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 4;
    CALL(xgd_set_texture(d, slot, pick(r, K_TEX)));
}

static void op_declaration(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    switch (fz_u8(r) % 4) {
    case 0: {
        xgd_vertex_element el[8];
        int count = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : 1 + fz_u8(r) % 4;
        int offset = 0;
        for (int i = 0; i < 8; i++) {
            el[i].format = (xgd_vertex_element_format)enum_value(r, XGD_VERTEX_FORMAT_COUNT + 1);
            el[i].usage = (xgd_vertex_element_usage)enum_value(r, XGD_VERTEX_USAGE_COUNT + 1);
            el[i].usage_index = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : 0;
            el[i].offset = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : offset;
            offset += 4 + 4 * (fz_u8(r) % 4);
        }
        int stride = fz_u8(r) % 4 == 0 ? fz_int(r) : 0;
        if (count > 8) count = fz_u8(r) % 2 ? 8 : count;
        xgd_vertex_declaration *decl = NULL;
        CREATE(xgd_vertex_declaration_create(d, fz_u8(r) % 16 == 0 ? NULL : el, count, stride, &decl), &decl);
        add_object(r, K_DECL, decl, d, false, 0);
        break;
    }
    case 1:
        add_object(r, K_DECL, xgd_vertex_declaration_stock(d, (xgd_stock_vertex)enum_value(r, 5)), d,
                   true, 0);
        break;
    case 2: (void)xgd_vertex_declaration_stride(pick(r, K_DECL)); break;
    default: {
        entry *e = pick_entry(r, K_DECL);
        if (e == NULL || (e->owned && e->dev < 0)) break;
        void *p = e->p;
        xgd_vertex_declaration_destroy(p);
        if (!e->owned) forget(K_DECL, p);
        break;
    }
    }
}

static void op_buffer(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    bool vertex = fz_bool(r);
    int kind = vertex ? K_VB : K_IB;
    switch (fz_u8(r) % 6) {
    case 0: {
        int count = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : 1 + fz_u8(r) % 64;
        bool dynamic = fz_bool(r), write_only = fz_u8(r) % 4 == 0;
        bool null_desc = fz_u8(r) % 16 == 0;
        if (vertex) {
            xgd_vertex_declaration *decl = pick(r, K_DECL);
            int stride = xgd_vertex_declaration_stride(decl);
            if (count > 4096) count = 4096; /* valid but large: only memory and time */
            xgd_vertex_buffer_desc vd = { decl, count, dynamic, write_only };
            xgd_vertex_buffer *vb = NULL;
            CREATE(xgd_vertex_buffer_create(d, null_desc ? NULL : &vd, &vb), &vb);
            add_object(r, K_VB, vb, d, false, write_only || stride <= 0 ? (size_t)-1 : (size_t)count * (size_t)stride);
        } else {
            xgd_index_buffer_desc id = { (xgd_index_element_size)enum_value(r, 4), count, dynamic, write_only };
            if (count > 4096) id.index_count = 4096;
            xgd_index_buffer *ib = NULL;
            CREATE(xgd_index_buffer_create(d, null_desc ? NULL : &id, &ib), &ib);
            size_t isize = id.element_size == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
            add_object(r, K_IB, ib, d, false, write_only ? (size_t)-1 : (size_t)id.index_count * isize);
        }
        break;
    }
    case 1: {
        entry *e = pick_entry(r, kind);
        if (e == NULL) break;
        void *p = e->p;
        destroy_object(kind, p);
        forget(kind, p);
        break;
    }
    case 2:
    case 3: {
        entry *e = pick_entry(r, kind);
        void *p = e != NULL ? e->p : NULL;
        size_t total = e != NULL && e->bytes != (size_t)-1 ? e->bytes : 64;
        size_t offset = fz_u8(r) % 8 == 0 ? (size_t)(unsigned)fz_edge_int(r) : fz_u8(r) % (total + 1);
        size_t size = fz_u8(r) % 8 == 0 ? (size_t)fz_u16(r) : (total > offset ? 1 + fz_u8(r) % (total - offset) : 0);
        if (fz_u8(r) % 32 == 0) size = SIZE_MAX - offset / 2; /* overflowing ranges */
        /* A size beyond MAX_ARG is beyond every buffer here: it must be refused before a
           byte is read, so a 16-byte array backs it. */
        bool huge = size > MAX_ARG;
        void *buf = arg_data(r, huge ? 16 : size);
        bool null_data = fz_u8(r) % 16 == 0;
        xgd_set_data_options opt = (xgd_set_data_options)enum_value(r, 4);
        if (fz_u8(r) % 2 == 0) {
            if (vertex) CALL(xgd_vertex_buffer_set_data(p, offset, null_data ? NULL : buf, size, opt));
            else CALL(xgd_index_buffer_set_data(p, offset, null_data ? NULL : buf, size, opt));
        } else {
            if (vertex) CALL(xgd_vertex_buffer_get_data(p, offset, null_data ? NULL : buf, size));
            else CALL(xgd_index_buffer_get_data(p, offset, null_data ? NULL : buf, size));
        }
        free(buf);
        break;
    }
    case 4:
        if (vertex) CALL(xgd_set_vertex_buffer(d, pick(r, K_VB), fz_int(r)));
        else CALL(xgd_set_indices(d, pick(r, K_IB)));
        break;
    default:
        CALL(xgd_set_vertex_buffer(d, pick(r, K_VB), fz_int(r)));
        CALL(xgd_set_indices(d, pick(r, K_IB)));
        break;
    }
}

static int primitive_count(fz_reader *r)
{
    uint8_t m = fz_u8(r);
    if (m < 220) return 1 + m % 12;
    if (m < 240) return fz_edge_int(r);
    return 1 + fz_u8(r);
}

static int64_t vertices_needed(xgd_primitive_type type, int64_t n)
{
    switch (type) {
    case XGD_PRIMITIVE_TRIANGLE_LIST: return n * 3;
    case XGD_PRIMITIVE_TRIANGLE_STRIP: return n + 2;
    case XGD_PRIMITIVE_LINE_LIST: return n * 2;
    case XGD_PRIMITIVE_LINE_STRIP: return n + 1;
    default: return 0;
    }
}

/* Vertex bytes: mostly positions in a small range around the target, sometimes raw floats. */
static void *vertex_data(fz_reader *r, size_t size)
{
    uint8_t *p = arg_data(r, size);
    if (fz_u8(r) % 4 != 0) {
        for (size_t i = 0; i + 4 <= size; i += 4) {
            float f = (float)(fz_u8(r) % 40) - 12.0f;
            if (i % 16 == 8) f = (float)(fz_u8(r) % 3) * 0.5f;
            memcpy(p + i, &f, 4);
        }
    }
    return p;
}

static void op_draw(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    xgd_primitive_type type = (xgd_primitive_type)enum_value(r, XGD_PRIMITIVE_COUNT + 1);
    int count = primitive_count(r);
    switch (fz_u8(r) % 4) {
    case 0: CALL(xgd_draw_primitives(d, type, fz_int(r), count)); break;
    case 1: {
        int base = fz_int(r), min = fz_int(r), num = fz_int(r), start = fz_int(r);
        CALL(xgd_draw_indexed_primitives(d, type, base, min, num, start, count));
        break;
    }
    case 2: {
        xgd_vertex_declaration *decl = pick(r, K_DECL);
        int stride = xgd_vertex_declaration_stride(decl);
        if (stride <= 0) stride = 16;
        int offset = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 4;
        int64_t need = vertices_needed(type, count);
        int64_t bytes = (need + (offset > 0 ? offset : 0)) * stride;
        if (need <= 0 || bytes > MAX_ARG) {
            if (count > 0 && need > 0) return; /* a count the caller's array could not back */
            bytes = 16;
        }
        void *v = vertex_data(r, (size_t)bytes);
        CALL(xgd_draw_user_primitives(d, type, fz_u8(r) % 16 == 0 ? NULL : v, offset, count, decl));
        free(v);
        break;
    }
    default: {
        xgd_vertex_declaration *decl = pick(r, K_DECL);
        int stride = xgd_vertex_declaration_stride(decl);
        if (stride <= 0) stride = 16;
        int voff = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 4;
        int ioff = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : fz_u8(r) % 4;
        int num = fz_u8(r) % 8 == 0 ? fz_edge_int(r) : 1 + fz_u8(r) % 16;
        xgd_index_element_size isz = (xgd_index_element_size)enum_value(r, 4);
        int is = isz == XGD_INDEX_THIRTY_TWO_BITS ? 4 : 2;
        int64_t need = vertices_needed(type, count);
        int64_t vbytes = ((int64_t)(voff > 0 ? voff : 0) + (num > 0 ? num : 0)) * stride;
        int64_t ibytes = (need + (ioff > 0 ? ioff : 0)) * is;
        if (need <= 0 || vbytes > MAX_ARG || ibytes > MAX_ARG) {
            if (count > 0 && need > 0) return;
            ibytes = 16;
        }
        if (vbytes <= 0 || vbytes > MAX_ARG) vbytes = 16;
        void *v = vertex_data(r, (size_t)vbytes);
        uint8_t *ix = arg_data(r, (size_t)ibytes);
        if (fz_u8(r) % 4 != 0 && num > 0) {
            /* mostly in range, so draws happen; the rest stays as the input made it */
            for (int64_t i = 0; i + is <= ibytes; i += is) {
                uint32_t v32 = fz_u8(r) % (uint32_t)num;
                if (is == 2) { uint16_t v16 = (uint16_t)v32; memcpy(ix + i, &v16, 2); }
                else memcpy(ix + i, &v32, 4);
            }
        }
        CALL(xgd_draw_user_indexed_primitives(d, type, v, voff, num, fz_u8(r) % 16 == 0 ? NULL : ix,
                                              ioff, count, isz, decl));
        free(ix);
        free(v);
        break;
    }
    }
}

static void op_effect(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    entry *e = pick_entry(r, K_EFFECT);
    xgd_effect *fx = e != NULL ? e->p : NULL;
    bool null_arg = fz_u8(r) % 16 == 0;
    xgd_matrix m = matrix(r);
    switch (fz_u8(r) % 14) {
    case 0: {
        xgd_effect *n = NULL;
        switch (fz_u8(r) % 4) {
        case 0: CREATE(xgd_basic_effect_create(d, null_arg ? NULL : &n), &n); break;
        case 1: CREATE(xgd_sprite_effect_create(d, null_arg ? NULL : &n), &n); break;
        case 2: CREATE(xgd_mrt_effect_create(d, null_arg ? NULL : &n), &n); break;
        default: CREATE(xgd_volume_effect_create(d, null_arg ? NULL : &n), &n); break;
        }
        add_object(r, K_EFFECT, n, d, false, 0);
        break;
    }
    case 1:
        xgd_effect_destroy(fx);
        if (fx != NULL) forget(K_EFFECT, fx);
        break;
    case 2:
    case 3: CALL(xgd_effect_apply(fx)); break;
    case 4: {
        xgd_basic_effect_params p;
        if (xgd_basic_effect_get(fx, &p) != XGD_OK) memset(&p, 0, sizeof p);
        switch (fz_u8(r) % 6) {
        case 0: p.world = m; break;
        case 1: p.alpha = fz_float(r); break;
        case 2: p.lighting_enabled = fz_bool(r); p.lights[fz_u8(r) % 3].enabled = fz_bool(r); break;
        case 3: p.fog_enabled = fz_bool(r); p.fog_start = fz_float(r); p.fog_end = fz_float(r); break;
        case 4: p.texture_enabled = fz_bool(r); p.vertex_color_enabled = fz_bool(r); break;
        default: p.specular_power = fz_float(r); p.prefer_per_pixel_lighting = fz_bool(r); break;
        }
        CALL(xgd_basic_effect_set(fx, null_arg ? NULL : &p));
        break;
    }
    case 5: CALL(xgd_basic_effect_set_world(fx, null_arg ? NULL : &m)); break;
    case 6: CALL(xgd_basic_effect_set_view(fx, null_arg ? NULL : &m)); break;
    case 7: CALL(xgd_basic_effect_set_projection(fx, null_arg ? NULL : &m)); break;
    case 8: CALL(xgd_basic_effect_set_texture(fx, pick(r, K_TEX))); break;
    case 9:
        CALL(xgd_basic_effect_enable_default_lighting(fx));
        break;
    case 10: CALL(xgd_sprite_effect_set_matrix(fx, null_arg ? NULL : &m)); break;
    case 11: {
        xgd_vector4 c[4] = { vec4(r), vec4(r), vec4(r), vec4(r) };
        if (fz_bool(r)) CALL(xgd_mrt_effect_set_colors(fx, null_arg ? NULL : c));
        else CALL(xgd_mrt_effect_set_matrix(fx, null_arg ? NULL : &m));
        break;
    }
    case 12: {
        xgd_basic_effect_params p;
        CALL(xgd_basic_effect_get(fx, null_arg ? NULL : &p));
        break;
    }
    default:
        switch (fz_u8(r) % 3) {
        case 0: CALL(xgd_volume_effect_set_matrix(fx, null_arg ? NULL : &m)); break;
        case 1: CALL(xgd_volume_effect_set_texture(fx, pick(r, K_TEX))); break;
        default: CALL(xgd_volume_effect_set_color(fx, vec4(r))); break;
        }
        break;
    }
}

static void op_sprite(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    entry *e = pick_entry(r, K_BATCH);
    xgd_sprite_batch *sb = e != NULL ? e->p : NULL;
    switch (fz_u8(r) % 8) {
    case 0: {
        xgd_sprite_batch *n = NULL;
        CREATE(xgd_sprite_batch_create(d, fz_u8(r) % 16 == 0 ? NULL : &n), &n);
        add_object(r, K_BATCH, n, d, false, 0);
        break;
    }
    case 1:
        xgd_sprite_batch_destroy(sb);
        if (sb != NULL) forget(K_BATCH, sb);
        break;
    case 2: {
        xgd_matrix m = matrix(r);
        xgd_sprite_batch_begin_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.sort_mode = (xgd_sprite_sort_mode)enum_value(r, 6);
        if (fz_bool(r)) {
            bd.blend_state = pick(r, K_BLEND);
            bd.sampler_state = pick(r, K_SAMP);
            bd.depth_stencil_state = pick(r, K_DS);
            bd.rasterizer_state = pick(r, K_RS);
            bd.effect = pick(r, K_EFFECT);
            bd.transform = fz_bool(r) ? &m : NULL;
        }
        CALL(xgd_sprite_batch_begin(sb, fz_u8(r) % 4 == 0 ? NULL : &bd));
        break;
    }
    case 3:
    case 4:
    case 5: {
        int n = 1 + fz_u8(r) % 4;
        for (int i = 0; i < n; i++) {
            xgd_sprite s = XGD_SPRITE_INIT;
            xgd_rect dst, src;
            s.position = (xgd_vector2){ fz_float(r), fz_float(r) };
            if (fz_bool(r)) { dst = rect(r); s.destination = &dst; }
            if (fz_bool(r)) { src = rect(r); s.source = &src; }
            s.color = (xgd_color){ fz_u8(r), fz_u8(r), fz_u8(r), fz_u8(r) };
            if (fz_bool(r)) {
                s.rotation = fz_float(r);
                s.origin = (xgd_vector2){ fz_float(r), fz_float(r) };
                s.scale = (xgd_vector2){ fz_float(r), fz_float(r) };
            }
            s.effects = (xgd_sprite_effects)(fz_u8(r) % 4);
            s.layer_depth = fz_float(r);
            CALL(xgd_sprite_batch_draw(sb, pick(r, K_TEX), fz_u8(r) % 16 == 0 ? NULL : &s));
        }
        break;
    }
    default: CALL(xgd_sprite_batch_end(sb)); break;
    }
}

static void op_query(fz_reader *r)
{
    xgd_device *d = pick_dev(r);
    entry *e = pick_entry(r, K_QUERY);
    xgd_occlusion_query *q = e != NULL ? e->p : NULL;
    bool null_out = fz_u8(r) % 16 == 0;
    switch (fz_u8(r) % 6) {
    case 0: {
        xgd_occlusion_query *n = NULL;
        CREATE(xgd_occlusion_query_create(d, null_out ? NULL : &n), &n);
        add_object(r, K_QUERY, n, d, false, 0);
        break;
    }
    case 1:
        xgd_occlusion_query_destroy(q);
        if (q != NULL) forget(K_QUERY, q);
        break;
    case 2: CALL(xgd_occlusion_query_begin(q)); break;
    case 3: CALL(xgd_occlusion_query_end(q)); break;
    case 4: {
        bool done;
        CALL(xgd_occlusion_query_is_complete(q, null_out ? NULL : &done));
        break;
    }
    default: {
        uint64_t n = 0xdeadbeef;
        xgd_result res = CALL(xgd_occlusion_query_get_pixel_count(q, fz_bool(r), null_out ? NULL : &n));
        if (res != XGD_OK && !null_out && n != 0xdeadbeef) violation("a failed get_pixel_count wrote *out");
        break;
    }
    }
}

/* ---- scenes: short, valid sequences that reach the deep paths (drawing, sampling, batching)
 * without the mutator having to find every step; their arguments still come from the input. */

static void *first_of(int kind, xgd_device *d, int skip)
{
    int di = device_index(d);
    for (int i = 0; i < CAP; i++) {
        entry *e = &g_pool[kind][(i + skip) % CAP];
        if (e->p != NULL && e->dev == di && di >= 0) return e->p;
    }
    return NULL;
}

static xgd_device *scene_device(fz_reader *r)
{
    xgd_device *d = g_dev[fz_u8(r) % 4 == 3 ? 1 : 0];
    return d != NULL ? d : g_dev[0] != NULL ? g_dev[0] : g_dev[1];
}

static void scene_draw(fz_reader *r, xgd_device *d)
{
    xgd_effect *fx = first_of(K_EFFECT, d, fz_u8(r));
    if (fx == NULL) {
        CREATE(xgd_basic_effect_create(d, &fx), &fx);
        add_object(r, K_EFFECT, fx, d, false, 0);
        if (fx != NULL && fz_bool(r)) {
            xgd_basic_effect_params p;
            if (xgd_basic_effect_get(fx, &p) == XGD_OK) {
                p.vertex_color_enabled = fz_bool(r);
                p.texture_enabled = fz_bool(r);
                CALL(xgd_basic_effect_set(fx, &p));
            }
        }
    }
    if (fx != NULL) CALL(xgd_effect_apply(fx));
    xgd_vertex_position_color_texture v[6];
    for (int i = 0; i < 6; i++) {
        v[i].position = (xgd_vector3){ (float)(fz_u8(r) % 5) * 0.5f - 1.0f,
                                       (float)(fz_u8(r) % 5) * 0.5f - 1.0f,
                                       (float)(fz_u8(r) % 3) * 0.5f };
        v[i].color = (xgd_color){ fz_u8(r), fz_u8(r), 255, 255 };
        v[i].texture_coordinate = (xgd_vector2){ (float)(i & 1), (float)(i >> 1 & 1) };
    }
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(d, XGD_VERTEX_POSITION_COLOR_TEXTURE);
    if (fz_u8(r) % 4 == 0) {
        /* through buffers */
        xgd_vertex_buffer *vb = first_of(K_VB, d, 0);
        if (vb == NULL) {
            xgd_vertex_buffer_desc vd = { decl, 6, fz_bool(r), false };
            CREATE(xgd_vertex_buffer_create(d, &vd, &vb), &vb);
            add_object(r, K_VB, vb, d, false, sizeof v);
        }
        if (vb != NULL) {
            CALL(xgd_vertex_buffer_set_data(vb, 0, v, sizeof v, XGD_SET_DATA_NONE));
            CALL(xgd_set_vertex_buffer(d, vb, 0));
            CALL(xgd_draw_primitives(d, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 1 + fz_u8(r) % 2));
        }
        return;
    }
    CALL(xgd_draw_user_primitives(d, (xgd_primitive_type)(fz_u8(r) % 4), v, 0, 1 + fz_u8(r) % 2,
                                  decl));
}

static void op_scene(fz_reader *r)
{
    xgd_device *d = scene_device(r);
    if (d == NULL) return;
    switch (fz_u8(r) % 4) {
    case 0: {
        /* into a render target, then sampled */
        xgd_texture *t = NULL;
        for (int i = 0, skip = fz_u8(r); i < CAP && t == NULL; i++) {
            xgd_texture_info ti;
            xgd_texture *c = first_of(K_TEX, d, skip + i);
            if (texture_info(c, &ti) && ti.kind == XGD_RENDER_TARGET_2D) t = c;
        }
        if (t == NULL) {
            xgd_render_target_desc rd;
            memset(&rd, 0, sizeof rd);
            rd.width = 1 + fz_u8(r) % 16;
            rd.height = 1 + fz_u8(r) % 16;
            rd.preferred_depth_format = (xgd_depth_format)(fz_u8(r) % XGD_DEPTH_FORMAT_COUNT);
            rd.preferred_multisample_count = fz_u8(r) % 4 == 0 ? 4 : 0;
            rd.mipmap = fz_bool(r);
            rd.usage = (xgd_render_target_usage)(fz_u8(r) % 4);
            CREATE(xgd_render_target2d_create(d, &rd, &t), &t);
            add_object(r, K_TEX, t, d, false, 0);
        }
        if (t == NULL) return;
        CALL(xgd_set_render_target(d, t));
        CALL(xgd_clear_color(d, (xgd_color){ fz_u8(r), 0, 0, 255 }));
        scene_draw(r, d);
        CALL(xgd_set_render_target(d, NULL));
        CALL(xgd_set_texture(d, 0, t));
        scene_draw(r, d);
        break;
    }
    case 1: {
        /* a sprite batch frame */
        xgd_sprite_batch *sb = first_of(K_BATCH, d, 0);
        if (sb == NULL) {
            CREATE(xgd_sprite_batch_create(d, &sb), &sb);
            add_object(r, K_BATCH, sb, d, false, 0);
        }
        xgd_texture *t = first_of(K_TEX, d, fz_u8(r));
        if (t == NULL) {
            xgd_texture2d_desc td = { 1 + fz_u8(r) % 8, 1 + fz_u8(r) % 8, fz_bool(r), XGD_SURFACE_FORMAT_COLOR };
            CREATE(xgd_texture2d_create(d, &td, &t), &t);
            add_object(r, K_TEX, t, d, false, 0);
        }
        xgd_sprite_batch_begin_desc bd;
        memset(&bd, 0, sizeof bd);
        bd.sort_mode = (xgd_sprite_sort_mode)(fz_u8(r) % 5);
        CALL(xgd_sprite_batch_begin(sb, &bd));
        for (int i = 0, n = 1 + fz_u8(r) % 4; i < n; i++) {
            xgd_sprite s = XGD_SPRITE_INIT;
            s.position = (xgd_vector2){ (float)(fz_u8(r) % 16), (float)(fz_u8(r) % 16) };
            s.rotation = (float)(fz_u8(r) % 8) * 0.5f;
            s.layer_depth = (float)(fz_u8(r) % 3) * 0.5f;
            CALL(xgd_sprite_batch_draw(sb, fz_u8(r) % 4 == 0 ? first_of(K_TEX, d, fz_u8(r)) : t, &s));
        }
        CALL(xgd_sprite_batch_end(sb));
        break;
    }
    case 2: {
        /* an occlusion query around a draw */
        xgd_occlusion_query *q = first_of(K_QUERY, d, 0);
        if (q == NULL) {
            CREATE(xgd_occlusion_query_create(d, &q), &q);
            add_object(r, K_QUERY, q, d, false, 0);
        }
        CALL(xgd_occlusion_query_begin(q));
        scene_draw(r, d);
        CALL(xgd_occlusion_query_end(q));
        uint64_t n;
        CALL(xgd_occlusion_query_get_pixel_count(q, fz_bool(r), &n));
        break;
    }
    default:
        scene_draw(r, d);
        if (fz_bool(r)) CALL(xgd_present(d));
        break;
    }
}

typedef void (*op_fn)(fz_reader *);

static const op_fn g_ops[] = {
    op_device_create, op_device_query, op_device_lifecycle, op_fault, op_texture_create,
    op_texture_create, op_texture_data, op_texture_data, op_texture_misc, op_targets, op_targets,
    op_frame, op_frame, op_frame, op_state_create, op_state_use, op_state_use, op_set_texture,
    op_declaration, op_buffer, op_buffer, op_draw, op_draw, op_effect, op_effect, op_sprite,
    op_sprite, op_query, op_scene, op_scene
};

/* ---- the target ------------------------------------------------------------------------------ */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *verbose = getenv("XGD_FUZZ_VERBOSE");
    g_verbose = verbose != NULL && verbose[0] == '1';
    const char *name = getenv("XGD_FUZZ_RENDERER");
    if (name != NULL && name[0] != '\0') {
        xgd_renderer_kind k = xgd_renderer_from_name(name);
        if (k == XGD_RENDERER_COUNT) {
            fprintf(stderr, "XGD_FUZZ_RENDERER=%s: unknown renderer\n", name);
            exit(2);
        }
        g_renderer = k;
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader rd = { data, size };
    fz_reader *r = &rd;
    /* Every program starts with a device, as almost every real one does; the input decides
     * its parameters (the first op may still replace it with a refused one). */
    op_device_create(r);
    for (int steps = 0; rd.n > 0 && steps < 400; steps++) {
        uint8_t op = fz_u8(r);
        g_ops[op % (sizeof g_ops / sizeof g_ops[0])](r);
    }
    /* The end: devices first (objects still alive become shells), or objects first. */
    g_call = "teardown";
    bool devices_first = (size % 2) == 0;
    if (devices_first)
        for (int i = 0; i < NDEV; i++) destroy_device(i);
    /* Shells answer OBJECT_DISPOSED and may be destroyed in any order. */
    for (int k = 0; k < K_COUNT; k++)
        for (int s = 0; s < CAP; s++) {
            entry *e = &g_pool[k][s];
            if (e->p != NULL && e->dev < 0 && k == K_TEX) {
                xgd_texture_info ti;
                xgd_result res = CALL(xgd_texture_get_info(e->p, &ti));
                if (res != XGD_ERROR_OBJECT_DISPOSED)
                    violation("a shell of a destroyed device answered %s", xgd_result_name(res));
            }
        }
    for (int k = K_COUNT - 1; k >= 0; k--)
        for (int s = 0; s < CAP; s++) {
            entry *e = &g_pool[k][s];
            if (e->p != NULL && !e->owned) destroy_object(k, e->p);
            *e = (entry){ 0 };
        }
    for (int i = 0; i < NDEV; i++) destroy_device(i);
    return 0;
}
