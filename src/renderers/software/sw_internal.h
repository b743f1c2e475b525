/*
 * sw_internal.h - private structures of the software reference renderer.
 *
 * The software renderer is the reference the GPU renderers are compared against pixel by
 * pixel, so every rule it follows is the Direct3D 10+/Vulkan rule named in the team brief
 * (pixel centres at .5, top-left fill rule, 8 sub-pixel bits, D3D standard MSAA positions,
 * float blending on the decoded destination). Work executes synchronously inside each call.
 */
#ifndef XGD_SW_INTERNAL_H
#define XGD_SW_INTERNAL_H

#include "renderer.h"
#include "format.h"
#include "sw_spirv.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SW_MAX_TARGETS 4
#define SW_MAX_SAMPLES 8
/* floats a vertex carries to the pixel stage: shaders carry up to SW_USER_MAX_LINKS float4
   varyings */
#define SW_MAX_VARYINGS 64
#define SW_USER_MAX_LINKS (SW_MAX_VARYINGS / 4)
#define SW_MAX_TEXTURE_SIZE 8192

/* One face/level of a texture. `texels` always holds the texture's own format bytes (so
 * get_data returns exactly what set_data wrote). Sampling reads a decoded copy: Color texels
 * are RGBA8 already and are read in place; DXT levels are decoded to RGBA8; every other format
 * is decoded to RGBA float. The decoded copy is allocated with the texture (draws never
 * allocate) and refilled lazily after any write. */
typedef struct sw_image {
    int width, height;
    int depth;                 /* slices: a volume level's depth, 1 for every 2D image */
    size_t row_pitch;          /* bytes per texel row (per block row for DXT) */
    size_t slice_pitch;        /* bytes per slice (volumes; rows * row_pitch) */
    uint8_t *texels;
    uint8_t *rgba8;            /* Color: == texels; DXT: decoded cache; else NULL (caches
                                  hold every slice, texel (x, y, z) at (z * h + y) * w + x) */
    float *rgbaf;              /* other formats: decoded cache */
    bool cache_valid;
} sw_image;

struct xgdi_native_texture {
    xgdi_texture_desc desc;
    int faces;                 /* 1 or 6 (a volume: 1, its levels hold the slices) */
    const xgdi_format_info *fi;
    bool is_color;             /* XGD_SURFACE_FORMAT_COLOR: RGBA8 fast paths */
    bool is_dxt;
    sw_image *images;          /* faces * levels, face-major */
    /* Render targets: colour samples when multisampled (samples > 1), per face, pixel-major
       (all samples of a pixel adjacent). Single-sampled targets render into level 0. */
    int samples;
    uint8_t *ms;               /* faces * w * h * samples * element_size */
    bool ms_dirty[6];          /* samples written since the last resolve */
    bool mips_dirty[6];        /* level 0 written since the last mip generation */
    /* Depth/stencil, one plane set shared by all faces (XNA gives a target one depth buffer),
       per sample. Depth is stored as float already quantised to the format. */
    float *depth;
    uint8_t *stencil;          /* NULL unless DEPTH24_STENCIL8 */
};

struct xgdi_native_buffer {
    xgdi_buffer_kind kind;
    size_t size;
    uint8_t *data;
};

/* a vertex placed on the target (sw_raster.c's sw_to_screen) */
typedef struct sw_screen_vertex {
    int64_t X, Y;             /* snapped, 1/256 pixel */
    double sx, sy, z;
    float iw;
    const float *a;           /* varyings */
} sw_screen_vertex;

typedef struct sw_vertex {
    float clip[4];
    float v[SW_MAX_VARYINGS];
    /* set with the vertex stage's outputs (sw_user_vertices): sw_outcode's planes, and when
       none, whether sw_to_screen placed it and where (screen.a is v) */
    unsigned outcode;
    bool screen_ok;
    sw_screen_vertex screen;
} sw_vertex;

/* ---- sw_pool.c: worker threads ---- */
/* most threads a device's pool runs (the caller included) */
#define SW_MAX_THREADS 64
typedef struct sw_pool sw_pool;
/* The number of online CPUs (1..SW_MAX_THREADS). */
int sw_pool_default_threads(void);
/* A pool of threads - 1 workers, or NULL for threads <= 1: a NULL pool runs every job on the
   caller. The workers start with the first job of more than one item. */
sw_pool *sw_pool_create(int threads);
void sw_pool_destroy(sw_pool *p);
int sw_pool_threads(const sw_pool *p);
/* Calls fn(arg, item, worker) for every item in [0, items), spread over the pool's threads and
   the caller (worker 0), and returns when all have returned. */
void sw_pool_run(sw_pool *p, int items, void (*fn)(void *arg, int item, int worker), void *arg);

/* A triangle recorded for banded rasterization (sw_raster.c). */
typedef struct sw_rec_tri sw_rec_tri;

typedef struct sw_renderer {
    xgdi_renderer base;
    bool debug;
    xgd_graphics_profile profile;
    xgdi_native_texture *back_buffer;
    xgdi_target targets[SW_MAX_TARGETS];
    int target_count;          /* >= 1: the back buffer is bound as a one-target set */
    /* per-draw scratch, grown on demand and kept (no allocation per draw in steady state) */
    sw_vertex *verts;
    size_t verts_capacity;
    const uint8_t **vsrc;      /* user programs: the source of each vertex of verts, shaded in
                                  groups of four lanes (on the pool when many); verts_capacity */
    uint32_t *vmap;            /* indexed draws: index position -> shaded vertex in verts */
    size_t vmap_capacity;
    /* the active occlusion query's counter (samples that passed depth and stencil), NULL when
       no query is active: the rasterizer adds to it, at the cost of one test per pixel */
    uint64_t *occlusion;
    /* Worker threads (NULL: every draw runs on the calling thread). A draw of filled
       triangles is clipped and snapped on the calling thread into `tris`, then rasterized in
       horizontal bands of the target, one band per item of the pool: each band visits the
       draw's triangles in order and owns its rows' pixels, depth and stencil, so every pixel
       sees the same operations in the same order as on one thread (user programs: bands start
       on even rows, so each 2x2 quad is shaded whole by one thread, with that thread's
       executor state). The draw returns after every band finished. */
    sw_pool *pool;
    /* pixels of bounding boxes below which a draw runs on the calling thread (waking the
       workers would cost more than they save); $XGD_SW_BAND_MIN_PIXELS, for tests that want
       every draw banded */
    long band_min_pixels;
    bool executor_only;        /* $XGD_SW_EXECUTOR_ONLY: no shader runs as a recognised shape */
    bool quad_runs_off;        /* $XGD_SW_QUAD_RUNS=off: quad runs drawn a draw per run (tests) */
    bool rows_scalar;          /* $XGD_SW_ROWS_SCALAR: sw_mod_rows one pixel at a time (tests) */
    sw_rec_tri *tris;
    size_t tris_count, tris_capacity;
    int32_t (*tri_rows)[2];    /* per recorded triangle: first and last row it may touch (a
                                  compact array each band scans) */
    size_t tri_rows_capacity;
    uint32_t *tri_run;         /* per recorded triangle of a draw of quad runs: its run */
    size_t tri_run_capacity;
    float *clip_vary;          /* varyings of vertices made by clipping, for `tris` */
    size_t clip_vary_count, clip_vary_capacity;
    /* reserve_vertices' memory: draws read it as user vertices (only the latest reservation
       is drawable, so one buffer, grown and kept, serves every one) */
    uint8_t *reserved;
    size_t reserved_capacity;
} sw_renderer;

/* An occlusion query: results are immediate, since every draw executes before it returns. */
struct xgdi_native_query {
    uint64_t samples;
};

static inline sw_renderer *sw_cast(xgdi_renderer *r) { return (sw_renderer *)r; }

/* A user shader (renderer.h's shader form) loaded into the SPIR-V executor, with one
   execution state per thread of the device's pool (states[w] belongs to pool worker w; state ==
   states[0], the calling thread's) and the interface registers draws need, found once at
   creation. */
#define SW_NO_REG UINT32_MAX
struct xgdi_native_shader {
    xgdi_shader_stage stage;
    struct xgdi_sw_spirv_module *module;
    struct xgdi_sw_spirv_state *state;
    struct xgdi_sw_spirv_state **states;
    int nstates;
    int block;                 /* uniform block index of the stage's constants, -1 = none */
    /* by location (xgdi_shader_location): vertex inputs / vertex outputs; pixel inputs */
    uint32_t in_reg[XGDI_SHADER_LOCATION_COUNT];
    uint8_t in_comps[XGDI_SHADER_LOCATION_COUNT];
    uint32_t out_reg[XGDI_SHADER_LOCATION_COUNT];
    uint8_t out_comps[XGDI_SHADER_LOCATION_COUNT];
    uint32_t position_reg;     /* vertex: BuiltIn Position */
    uint32_t frag_coord_reg, front_facing_reg, frag_depth_reg; /* pixel built-ins */
    uint32_t color_reg[SW_MAX_TARGETS]; /* pixel: COLORi (out_reg by location i) */
    uint8_t color_comps[SW_MAX_TARGETS];
    int sampler_resource[XGDI_SHADER_MAX_SAMPLERS]; /* resource index of register s, -1 */
    bool discards;
    /* pixel: the shader is "texture sample times an input" (SpriteBatch's, and every such
       effect's): sw_raster.c computes it without the executor, with the same operations */
    bool modulate;
    xgdi_sw_spirv_modulate mod;
    /* the shader is "Position = products of inputs, uniforms and constants, the rest passed
       on" (vertex: SpriteBatch's, and every such effect's) or "every colour an input, a
       product or a clamp of those" (pixel, not modulate: BasicEffect's vertex colour),
       xgdi_sw_spirv_match_transform: sw_raster.c runs it with xgdi_sw_spirv_run_transform;
       NULL = the executor */
    struct xgdi_sw_spirv_transform *transform;
};

/* ---- sw_user.c ---- */
xgd_result sw_op_shader_create(xgdi_renderer *r, const xgdi_shader_desc *desc,
                               xgdi_native_shader **out);
void sw_op_shader_destroy(xgdi_renderer *r, xgdi_native_shader *s);

/* ---- sw_texture.c ---- */
xgd_result sw_texture_alloc(sw_renderer *r, const xgdi_texture_desc *desc,
                            xgdi_native_texture **out);
void sw_texture_free(xgdi_native_texture *t);
static inline sw_image *sw_texture_image(xgdi_native_texture *t, int face, int level)
{
    return &t->images[face * t->desc.levels + level];
}
/* Refreshes the decoded copy of one image when a write invalidated it. */
void sw_image_ensure_decoded(const xgdi_native_texture *t, sw_image *img);
/* Resolves a face's samples into level 0 (if dirty) and regenerates its mips (if dirty). */
void sw_texture_resolve(xgdi_native_texture *t, int face);
/* Regenerates every level of a face from level 0, large levels spread over pool (NULL: the
   calling thread). */
void sw_texture_generate_mips(sw_pool *pool, xgdi_native_texture *t, int face);
/* One level of the mip rule: the next level of an sw x sh image into dst (max(sw / 2, 1) x
   max(sh / 2, 1)). fast takes the integer path where the format has one (sw_mip_has_fast_path);
   false always takes the float path, the reference the tests compare it with. */
void sw_mip_level(sw_pool *pool, xgd_surface_format f, const uint8_t *src, int sw, int sh,
                  size_t src_pitch, uint8_t *dst, size_t dst_pitch, bool fast);
bool sw_mip_has_fast_path(xgd_surface_format f);
/* The float rule's mean of four decoded texels q[0..3], q[4..7], q[8..11], q[12..15], added in
   that order, then times 0.25. */
void sw_mip_mean_float(const float q[16], float out[4]);
/* The integer form of decode (b / 255), sw_mip_mean_float and encode (v * 255 + 0.5,
   truncated) for four 8-bit unorm values whose sum is `sum`: the float rule rounds every exact
   half up, and its float error never moves a result across a rounding boundary (test_sw_mips.c
   checks every ordered four of bytes). */
static inline uint8_t sw_mip_mean_unorm8(unsigned sum)
{
    return (uint8_t)((sum + 2u) >> 2);
}
/* Marks a face of a render target written by a draw or clear. */
void sw_texture_mark_written(xgdi_native_texture *t, int face);
/* Depth quantisation of a depth format (D16 to 16 bits, D24 to 24 bits). */
float sw_quantize_depth(xgd_depth_format f, double z);

/* ---- sw_sample.c ---- */
/* A sampler's filter decoded once per draw (the per-pixel path does no table lookups). */
typedef struct sw_sampler {
    const xgd_sampler_desc *desc;
    bool min_linear, mag_linear, mip_linear;
    int anisotropy;   /* most taps of the footprint filter: MaxAnisotropy (1..16) for the
                         Anisotropic filter, 1 (isotropic) for every other */
} sw_sampler;
void sw_sampler_init(sw_sampler *out, const xgd_sampler_desc *s);
/* An 8-bit unorm value v decoded to float: v / 255 (texel fetches of Color textures, the
   destination of blending into Color targets). Constant: devices on different threads read it
   concurrently, so nothing may fill it lazily. */
extern const float xgdi_sw_unorm8[256];
/* Texel addressing and coordinate helpers of the sampling rules, shared with the rasterizer's
   direct path for RGBA8 images (sw_raster.c), which must compute exactly sw_sample_image's
   values. */
static inline int sw_address(int i, int n, xgd_texture_address_mode m)
{
    switch (m) {
    case XGD_ADDRESS_CLAMP:
        return i < 0 ? 0 : (i >= n ? n - 1 : i);
    case XGD_ADDRESS_MIRROR: {
        int p = 2 * n;
        int k = i % p;
        if (k < 0) k += p;
        return k >= n ? p - 1 - k : k;
    }
    default: {
        int k = i % n;
        return k < 0 ? k + n : k;
    }
    }
}

static inline float sw_safe_coord(float x)
{
    /* keeps the int conversion defined for huge, infinite or NaN coordinates */
    if (!(x > -1.0e8f)) return -1.0e8f;
    if (x > 1.0e8f) return 1.0e8f;
    return x;
}

/* floor for |x| <= 1e8 (coordinates are clamped first); avoids a libm call per texel */
static inline int sw_ifloor(float x)
{
    int i = (int)x;
    return (float)i > x ? i - 1 : i;
}

void sw_sample_2d_with(const xgdi_native_texture *t, const sw_sampler *s, float u, float v,
                       const float *deriv, float out[4]);
/* One image sampled at (u, v) with one filter (linear or point) and the address modes: what
   sw_sample_2d_with does on a one-level texture once the filter is chosen (callers that
   sample a one-level texture many times choose it once: sw_sample_2d_with without derivatives
   takes the magnification filter when the sampler's level bias is <= 0, else minification). */
void sw_sample_image(const sw_image *img, bool linear, float u, float v,
                     xgd_texture_address_mode au, xgd_texture_address_mode av, float out[4]);
/* Samples a 2D texture (cube textures: face 0). deriv: du/dx, dv/dx, du/dy, dv/dy in
   normalised coordinates, or NULL (level of detail 0). */
/* Samples a volume texture at (u, v, w): the 2D rules on all three axes
   (address_w on w; linear = trilinear across slices; the level of detail from the 3D
   gradients). deriv: du/dx, dv/dx, du/dy, dv/dy, dw/dx, dw/dy (2D's four, then w's), or NULL. */
void sw_sample_3d_with(const xgdi_native_texture *t, const sw_sampler *s, const float uvw[3],
                       const float *deriv, float out[4]);
void sw_sample_3d(const xgdi_native_texture *t, const xgd_sampler_desc *s, const float uvw[3],
                  const float *deriv, float out[4]);
void sw_sample_2d(const xgdi_native_texture *t, const xgd_sampler_desc *s, float u, float v,
                  const float *deriv, float out[4]);
/* Samples a cube texture along direction (x, y, z) with Direct3D's major-axis face rules. */
void sw_sample_cube(const xgdi_native_texture *t, const xgd_sampler_desc *s, const float dir[3],
                    float lod, float out[4]);
/* Cube face and (u, v) for a direction (exposed for tests). */
int sw_cube_face(const float dir[3], float *u, float *v);
/* Makes every image a draw may sample decoded (called once per draw per bound texture). */
void sw_texture_prepare_sampling(xgdi_native_texture *t);

/* ---- ops implemented in sw_texture.c ---- */
xgd_result sw_op_texture_create(xgdi_renderer *r, const xgdi_texture_desc *desc,
                                xgdi_native_texture **out);
void sw_op_texture_destroy(xgdi_renderer *r, xgdi_native_texture *t);
xgd_result sw_op_texture_upload(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                const xgd_rect *rect, const void *data, size_t row_pitch);
xgd_result sw_op_texture_download(xgdi_renderer *r, xgdi_native_texture *t, int face, int level,
                                  const xgd_rect *rect, void *data, size_t row_pitch);
xgd_result sw_op_texture_finalize(xgdi_renderer *r, xgdi_native_texture *t, int face);
xgd_result sw_op_texture_upload_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                       const xgd_box *box, const void *data, size_t row_pitch,
                                       size_t slice_pitch);
xgd_result sw_op_texture_download_volume(xgdi_renderer *r, xgdi_native_texture *t, int level,
                                         const xgd_box *box, void *data, size_t row_pitch,
                                         size_t slice_pitch);

/* ---- sw_raster.c ---- */
xgd_result sw_draw(sw_renderer *r, const xgdi_draw *draw);
/* renderer_ops.draw_quad_runs: the runs as one draw whose slot-0 texture changes at each run's
   first triangle (sw_raster.c) */
xgd_result sw_draw_quad_runs(sw_renderer *r, const xgdi_draw *draw, const xgdi_quad_run *runs,
                             int count, int *drawn);
xgd_result sw_clear(sw_renderer *r, unsigned options, const float color[4], float depth,
                    int stencil);

/* standard sample positions in 1/16 pixel from the pixel centre */
const int8_t (*sw_sample_positions(int samples))[2];

#endif /* XGD_SW_INTERNAL_H */
