/*
 * test_handles.c - a destroyed object's handle answers OBJECT_DISPOSED from every public
 * function that takes it, and nothing reads the freed object (XNA: any use of a disposed
 * GraphicsResource throws ObjectDisposedException).
 *
 * Public API only, so the same file runs against any build: under AddressSanitizer (make asan)
 * or valgrind, a function that followed a destroyed object's memory is reported there, and the
 * result codes are checked here. A table lists every public function taking each object type;
 * for each type one object is created, destroyed, and its stale handle passed to every entry
 * (with every other argument valid, so only the stale handle can cause the failure).
 * Then the same calls with values no object has had (a free slot with its next, its last and
 * generation 0), which are argument errors and are not followed either.
 * Also: a stale handle whose slot a new object of the same or another type has taken, destroy
 * of a stale handle (a no-op that leaves the new object alone), and handles churned on two
 * threads at once (each its own device, sharing the process-wide handle table; make tsan).
 */
#include "harness.h"
#include "internal.h" /* never_given: the handle layout */

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static xgd_device *handles_device(xgdt_ctx *t)
{
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.profile = XGD_GRAPHICS_PROFILE_HIDEF; /* occlusion queries and volume textures */
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.pp.headless = true;
    return xgdt_device(t, &dd);
}

/* ---- the sweep ------------------------------------------------------------------------------ */

typedef struct sweep_ctx {
    xgd_device *dev;
    /* destroyed objects: each field holds a stale handle during the sweep */
    xgd_texture *tex;
    xgd_vertex_buffer *vb;
    xgd_index_buffer *ib;
    xgd_vertex_declaration *decl;
    xgd_blend_state *blend;
    xgd_depth_stencil_state *depth;
    xgd_rasterizer_state *raster;
    xgd_sampler_state *sampler;
    xgd_effect *effect;
    xgd_occlusion_query *query;
    xgd_sprite_batch *batch;
    /* live helpers, so the stale handle is the only bad argument */
    xgd_effect *live_basic, *live_volume;
    xgd_sprite_batch *live_batch;
    xgd_texture *live_tex;
    xgd_vertex_declaration *live_decl;
    uint8_t data[16 * 16 * 4];
    uint16_t indices[6];
} sweep_ctx;

typedef xgd_result (*sweep_fn)(sweep_ctx *c);

typedef struct sweep_entry {
    const char *type;                 /* the type name the message must give */
    const char *call;
    sweep_fn fn;
} sweep_entry;

#define CALL(name, ...)                                                                          \
    static xgd_result name(sweep_ctx *c) { return __VA_ARGS__; }

static const xgd_box box1 = { 0, 0, 0, 1, 1, 1 };
static const xgd_matrix *identity(void)
{
    static xgd_matrix m;
    m = xgd_matrix_identity();
    return &m;
}

/* texture */
CALL(tex_get_info, xgd_texture_get_info(c->tex, &(xgd_texture_info){ 0 }))
CALL(tex_set_data, xgd_texture_set_data(c->tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, c->data,
                                        sizeof c->data))
CALL(tex_get_data, xgd_texture_get_data(c->tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, c->data,
                                        sizeof c->data))
CALL(tex3d_set_data, xgd_texture3d_set_data(c->tex, 0, &box1, c->data, 4))
CALL(tex3d_get_data, xgd_texture3d_get_data(c->tex, 0, &box1, c->data, 4))
CALL(tex_save_png, xgd_texture_save_png(c->tex, "build-test-handles-never-written.png"))
CALL(set_texture, xgd_set_texture(c->dev, 0, c->tex))
CALL(set_render_target, xgd_set_render_target(c->dev, c->tex))
CALL(set_render_target_cube, xgd_set_render_target_cube(c->dev, c->tex,
                                                        XGD_CUBE_MAP_FACE_POSITIVE_X))
CALL(set_render_targets, xgd_set_render_targets(
                             c->dev, &(xgd_render_target_binding){ c->tex, 0 }, 1))
CALL(basic_set_texture, xgd_basic_effect_set_texture(c->live_basic, c->tex))
CALL(volume_set_texture, xgd_volume_effect_set_texture(c->live_volume, c->tex))
static xgd_result batch_draw_stale_texture(sweep_ctx *c)
{
    xgd_result r = xgd_sprite_batch_begin(c->live_batch, NULL);
    if (r != XGD_OK) return r;
    r = xgd_sprite_batch_draw(c->live_batch, c->tex, &(xgd_sprite){ .scale = { 1, 1 } });
    xgd_sprite_batch_end(c->live_batch);
    return r;
}
/* vertex buffer */
CALL(vb_set_data, xgd_vertex_buffer_set_data(c->vb, 0, c->data, 16, XGD_SET_DATA_NONE))
CALL(vb_get_data, xgd_vertex_buffer_get_data(c->vb, 0, c->data, 16))
CALL(set_vertex_buffer, xgd_set_vertex_buffer(c->dev, c->vb, 0))
/* index buffer */
CALL(ib_set_data, xgd_index_buffer_set_data(c->ib, 0, c->indices, sizeof c->indices,
                                            XGD_SET_DATA_NONE))
CALL(ib_get_data, xgd_index_buffer_get_data(c->ib, 0, c->indices, sizeof c->indices))
CALL(set_indices, xgd_set_indices(c->dev, c->ib))
/* vertex declaration */
CALL(vb_create_with_decl,
     xgd_vertex_buffer_create(c->dev,
                              &(xgd_vertex_buffer_desc){ .declaration = c->decl,
                                                         .vertex_count = 3 },
                              &(xgd_vertex_buffer *){ NULL }))
CALL(draw_user, xgd_draw_user_primitives(c->dev, XGD_PRIMITIVE_TRIANGLE_LIST, c->data, 0, 1,
                                         c->decl))
CALL(draw_user_indexed,
     xgd_draw_user_indexed_primitives(c->dev, XGD_PRIMITIVE_TRIANGLE_LIST, c->data, 0, 3,
                                      c->indices, 0, 1, XGD_INDEX_SIXTEEN_BITS, c->decl))
/* states */
CALL(blend_get_desc, xgd_blend_state_get_desc(c->blend, &(xgd_blend_state_desc){ 0 }))
CALL(set_blend, xgd_set_blend_state(c->dev, c->blend))
CALL(begin_blend, xgd_sprite_batch_begin(c->live_batch, &(xgd_sprite_batch_begin_desc){
                                                            .blend_state = c->blend }))
CALL(depth_get_desc, xgd_depth_stencil_state_get_desc(c->depth, &(xgd_depth_stencil_desc){ 0 }))
CALL(set_depth, xgd_set_depth_stencil_state(c->dev, c->depth))
CALL(begin_depth, xgd_sprite_batch_begin(c->live_batch, &(xgd_sprite_batch_begin_desc){
                                                            .depth_stencil_state = c->depth }))
CALL(raster_get_desc, xgd_rasterizer_state_get_desc(c->raster, &(xgd_rasterizer_desc){ 0 }))
CALL(set_raster, xgd_set_rasterizer_state(c->dev, c->raster))
CALL(begin_raster, xgd_sprite_batch_begin(c->live_batch, &(xgd_sprite_batch_begin_desc){
                                                             .rasterizer_state = c->raster }))
CALL(sampler_get_desc, xgd_sampler_state_get_desc(c->sampler, &(xgd_sampler_desc){ 0 }))
CALL(set_sampler, xgd_set_sampler_state(c->dev, 0, c->sampler))
CALL(begin_sampler, xgd_sprite_batch_begin(c->live_batch, &(xgd_sprite_batch_begin_desc){
                                                              .sampler_state = c->sampler }))
/* effect */
CALL(effect_apply, xgd_effect_apply(c->effect))
CALL(basic_get, xgd_basic_effect_get(c->effect, &(xgd_basic_effect_params){ 0 }))
static xgd_result basic_set(sweep_ctx *c)
{
    xgd_basic_effect_params p;
    xgd_result r = xgd_basic_effect_get(c->live_basic, &p);
    return r != XGD_OK ? r : xgd_basic_effect_set(c->effect, &p);
}
CALL(basic_set_world, xgd_basic_effect_set_world(c->effect, identity()))
CALL(basic_set_view, xgd_basic_effect_set_view(c->effect, identity()))
CALL(basic_set_projection, xgd_basic_effect_set_projection(c->effect, identity()))
CALL(basic_set_texture_on_stale, xgd_basic_effect_set_texture(c->effect, c->live_tex))
CALL(basic_default_lighting, xgd_basic_effect_enable_default_lighting(c->effect))
CALL(sprite_set_matrix, xgd_sprite_effect_set_matrix(c->effect, identity()))
CALL(mrt_set_colors, xgd_mrt_effect_set_colors(c->effect, (const xgd_vector4[4]){ { 0 } }))
CALL(mrt_set_matrix, xgd_mrt_effect_set_matrix(c->effect, identity()))
CALL(volume_set_matrix, xgd_volume_effect_set_matrix(c->effect, identity()))
CALL(volume_set_texture_on_stale, xgd_volume_effect_set_texture(c->effect, NULL))
CALL(volume_set_color, xgd_volume_effect_set_color(c->effect, (xgd_vector4){ 1, 1, 1, 1 }))

/* effects loaded from bytes: every call resolves the effect first */
static const xgd_effect_parameter p0 = { 0 };
CALL(fx_clone, xgd_effect_clone(c->effect, &(xgd_effect *){ NULL }))
CALL(fx_technique_count, xgd_effect_get_technique_count(c->effect, &(int){ 0 }))
CALL(fx_find_technique, xgd_effect_find_technique(c->effect, "T", &(int){ 0 }))
CALL(fx_technique_info, xgd_effect_get_technique_info(c->effect, 0, &(xgd_effect_technique_info){ 0 }))
CALL(fx_find_pass, xgd_effect_find_pass(c->effect, 0, "P", &(int){ 0 }))
CALL(fx_pass_info, xgd_effect_get_pass_info(c->effect, 0, 0, &(xgd_effect_pass_info){ 0 }))
CALL(fx_get_current, xgd_effect_get_current_technique(c->effect, &(int){ 0 }))
CALL(fx_set_current, xgd_effect_set_current_technique(c->effect, 0))
CALL(fx_pass_apply, xgd_effect_pass_apply(c->effect, 0, 0))
CALL(fx_param_count, xgd_effect_get_parameter_count(c->effect, &(int){ 0 }))
CALL(fx_get_param, xgd_effect_get_parameter(c->effect, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_find_param, xgd_effect_find_parameter(c->effect, "P", &(xgd_effect_parameter){ 0 }))
CALL(fx_find_semantic, xgd_effect_find_parameter_by_semantic(c->effect, "S", &(xgd_effect_parameter){ 0 }))
CALL(fx_param_info, xgd_effect_parameter_get_info(c->effect, p0, &(xgd_effect_parameter_info){ 0 }))
CALL(fx_element, xgd_effect_parameter_get_element(c->effect, p0, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_member, xgd_effect_parameter_get_member(c->effect, p0, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_find_member, xgd_effect_parameter_find_member(c->effect, p0, "M", &(xgd_effect_parameter){ 0 }))
CALL(fx_annotation, xgd_effect_parameter_get_annotation(c->effect, p0, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_tech_annotation, xgd_effect_technique_get_annotation(c->effect, 0, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_pass_annotation, xgd_effect_pass_get_annotation(c->effect, 0, 0, 0, &(xgd_effect_parameter){ 0 }))
CALL(fx_set_bool, xgd_effect_parameter_set_bool(c->effect, p0, true))
CALL(fx_set_int, xgd_effect_parameter_set_int(c->effect, p0, 1))
CALL(fx_set_float, xgd_effect_parameter_set_float(c->effect, p0, 1))
CALL(fx_set_vector2, xgd_effect_parameter_set_vector2(c->effect, p0, (xgd_vector2){ 0, 0 }))
CALL(fx_set_vector3, xgd_effect_parameter_set_vector3(c->effect, p0, (xgd_vector3){ 0, 0, 0 }))
CALL(fx_set_vector4, xgd_effect_parameter_set_vector4(c->effect, p0, (xgd_vector4){ 0, 0, 0, 0 }))
CALL(fx_set_matrix, xgd_effect_parameter_set_matrix(c->effect, p0, identity()))
CALL(fx_set_bools, xgd_effect_parameter_set_bools(c->effect, p0, (const bool[1]){ true }, 1))
CALL(fx_set_ints, xgd_effect_parameter_set_ints(c->effect, p0, (const int32_t[1]){ 1 }, 1))
CALL(fx_set_floats, xgd_effect_parameter_set_floats(c->effect, p0, (const float[1]){ 1 }, 1))
CALL(fx_set_matrices, xgd_effect_parameter_set_matrices(c->effect, p0, identity(), 1))
CALL(fx_set_texture, xgd_effect_parameter_set_texture(c->effect, p0, c->live_tex))
CALL(fx_get_bool, xgd_effect_parameter_get_bool(c->effect, p0, &(bool){ false }))
CALL(fx_get_int, xgd_effect_parameter_get_int(c->effect, p0, &(int32_t){ 0 }))
CALL(fx_get_float, xgd_effect_parameter_get_float(c->effect, p0, &(float){ 0 }))
CALL(fx_get_vector2, xgd_effect_parameter_get_vector2(c->effect, p0, &(xgd_vector2){ 0, 0 }))
CALL(fx_get_vector3, xgd_effect_parameter_get_vector3(c->effect, p0, &(xgd_vector3){ 0, 0, 0 }))
CALL(fx_get_vector4, xgd_effect_parameter_get_vector4(c->effect, p0, &(xgd_vector4){ 0, 0, 0, 0 }))
CALL(fx_get_matrix, xgd_effect_parameter_get_matrix(c->effect, p0, &(xgd_matrix){ { 0 } }))
CALL(fx_get_bools, xgd_effect_parameter_get_bools(c->effect, p0, (bool[1]){ false }, 1))
CALL(fx_get_ints, xgd_effect_parameter_get_ints(c->effect, p0, (int32_t[1]){ 0 }, 1))
CALL(fx_get_floats, xgd_effect_parameter_get_floats(c->effect, p0, (float[1]){ 0 }, 1))
CALL(fx_get_matrices, xgd_effect_parameter_get_matrices(c->effect, p0, (xgd_matrix[1]){ { { 0 } } }, 1))
CALL(fx_get_texture, xgd_effect_parameter_get_texture(c->effect, p0, &(xgd_texture *){ NULL }))
CALL(fx_get_string, xgd_effect_parameter_get_string(c->effect, p0, &(const char *){ NULL }))
CALL(begin_effect, xgd_sprite_batch_begin(c->live_batch, &(xgd_sprite_batch_begin_desc){
                                                             .effect = c->effect }))
/* occlusion query */
CALL(query_begin, xgd_occlusion_query_begin(c->query))
CALL(query_end, xgd_occlusion_query_end(c->query))
static xgd_result query_is_complete(sweep_ctx *c)
{
    bool done = false;
    return xgd_occlusion_query_is_complete(c->query, &done);
}
static xgd_result query_pixels(sweep_ctx *c)
{
    uint64_t n = 0;
    return xgd_occlusion_query_get_pixel_count(c->query, true, &n);
}
/* sprite batch */
CALL(batch_begin, xgd_sprite_batch_begin(c->batch, NULL))
CALL(batch_draw, xgd_sprite_batch_draw(c->batch, c->live_tex,
                                       &(xgd_sprite){ .scale = { 1, 1 } }))
CALL(batch_end, xgd_sprite_batch_end(c->batch))

#define ENTRY(type, fn) { type, #fn, fn }
static const sweep_entry sweep_table[] = {
    ENTRY("texture", tex_get_info),        ENTRY("texture", tex_set_data),
    ENTRY("texture", tex_get_data),        ENTRY("texture", tex3d_set_data),
    ENTRY("texture", tex3d_get_data),      ENTRY("texture", tex_save_png),
    ENTRY("texture", set_texture),         ENTRY("texture", set_render_target),
    ENTRY("texture", set_render_target_cube), ENTRY("texture", set_render_targets),
    ENTRY("texture", basic_set_texture),   ENTRY("texture", volume_set_texture),
    ENTRY("texture", batch_draw_stale_texture),
    ENTRY("vertex buffer", vb_set_data),   ENTRY("vertex buffer", vb_get_data),
    ENTRY("vertex buffer", set_vertex_buffer),
    ENTRY("index buffer", ib_set_data),    ENTRY("index buffer", ib_get_data),
    ENTRY("index buffer", set_indices),
    ENTRY("vertex declaration", vb_create_with_decl),
    ENTRY("vertex declaration", draw_user), ENTRY("vertex declaration", draw_user_indexed),
    ENTRY("blend state", blend_get_desc),  ENTRY("blend state", set_blend),
    ENTRY("blend state", begin_blend),
    ENTRY("depth-stencil state", depth_get_desc), ENTRY("depth-stencil state", set_depth),
    ENTRY("depth-stencil state", begin_depth),
    ENTRY("rasterizer state", raster_get_desc), ENTRY("rasterizer state", set_raster),
    ENTRY("rasterizer state", begin_raster),
    ENTRY("sampler state", sampler_get_desc), ENTRY("sampler state", set_sampler),
    ENTRY("sampler state", begin_sampler),
    ENTRY("effect", effect_apply),         ENTRY("effect", basic_get),
    ENTRY("effect", basic_set),            ENTRY("effect", basic_set_world),
    ENTRY("effect", basic_set_view),       ENTRY("effect", basic_set_projection),
    ENTRY("effect", basic_set_texture_on_stale), ENTRY("effect", basic_default_lighting),
    ENTRY("effect", sprite_set_matrix),    ENTRY("effect", mrt_set_colors),
    ENTRY("effect", mrt_set_matrix),       ENTRY("effect", volume_set_matrix),
    ENTRY("effect", volume_set_texture_on_stale), ENTRY("effect", volume_set_color),
    ENTRY("effect", begin_effect),
    ENTRY("effect", fx_clone), ENTRY("effect", fx_technique_count), ENTRY("effect", fx_find_technique),
    ENTRY("effect", fx_technique_info), ENTRY("effect", fx_find_pass), ENTRY("effect", fx_pass_info),
    ENTRY("effect", fx_get_current), ENTRY("effect", fx_set_current), ENTRY("effect", fx_pass_apply),
    ENTRY("effect", fx_param_count), ENTRY("effect", fx_get_param), ENTRY("effect", fx_find_param),
    ENTRY("effect", fx_find_semantic), ENTRY("effect", fx_param_info), ENTRY("effect", fx_element),
    ENTRY("effect", fx_member), ENTRY("effect", fx_find_member), ENTRY("effect", fx_annotation),
    ENTRY("effect", fx_tech_annotation), ENTRY("effect", fx_pass_annotation), ENTRY("effect", fx_set_bool),
    ENTRY("effect", fx_set_int), ENTRY("effect", fx_set_float), ENTRY("effect", fx_set_vector2),
    ENTRY("effect", fx_set_vector3), ENTRY("effect", fx_set_vector4), ENTRY("effect", fx_set_matrix),
    ENTRY("effect", fx_set_bools), ENTRY("effect", fx_set_ints), ENTRY("effect", fx_set_floats),
    ENTRY("effect", fx_set_matrices), ENTRY("effect", fx_set_texture), ENTRY("effect", fx_get_bool),
    ENTRY("effect", fx_get_int), ENTRY("effect", fx_get_float), ENTRY("effect", fx_get_vector2),
    ENTRY("effect", fx_get_vector3), ENTRY("effect", fx_get_vector4), ENTRY("effect", fx_get_matrix),
    ENTRY("effect", fx_get_bools), ENTRY("effect", fx_get_ints), ENTRY("effect", fx_get_floats),
    ENTRY("effect", fx_get_matrices), ENTRY("effect", fx_get_texture), ENTRY("effect", fx_get_string),
    ENTRY("occlusion query", query_begin), ENTRY("occlusion query", query_end),
    ENTRY("occlusion query", query_is_complete), ENTRY("occlusion query", query_pixels),
    ENTRY("sprite batch", batch_begin),    ENTRY("sprite batch", batch_draw),
    ENTRY("sprite batch", batch_end),
};

/* A destroyed object's slot (its handle's index bits) with generation gen: the handle layout is
 * internal (internal.h XGDI_HANDLE_*), used here only to make values no object has had. */
static void *never_given(void *handle, uint32_t gen)
{
    uintptr_t index_bits = (uintptr_t)handle & (((uintptr_t)XGDI_HANDLE_INDEX_MASK << 1) | 1u);
    return (void *)(((uintptr_t)gen << (1 + XGDI_HANDLE_INDEX_BITS)) | index_bits);
}

static uint32_t generation_of(const void *handle)
{
    return (uint32_t)((uintptr_t)handle >> (1 + XGDI_HANDLE_INDEX_BITS));
}

/* Gives both places a failure may be recorded (the device, and the thread's last error for
 * calls without a device) a message that is not about disposal. */
static void reset_messages(xgd_device *dev)
{
    (void)xgd_set_texture(dev, -1, NULL);
    (void)xgd_texture_get_info(NULL, NULL);
}

static bool message_names(xgd_device *dev, const char *type)
{
    const char *m[2] = { xgd_device_last_error(dev), xgd_device_last_error(NULL) };
    for (int i = 0; i < 2; i++) {
        if (m[i] != NULL && strstr(m[i], "disposed") != NULL && strstr(m[i], type) != NULL)
            return true;
    }
    return false;
}

XGD_TEST(handles_destroyed_object_every_call_disposed)
{
    sweep_ctx c;
    memset(&c, 0, sizeof c);
    c.dev = handles_device(t);
    REQUIRE(c.dev);
    xgd_device *dev = c.dev;
    xgd_render_target_desc rtd = { .width = 4, .height = 4 };
    REQUIRE_OK(xgd_render_target2d_create(dev, &rtd, &c.tex));
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4 },
                                    &c.live_tex));
    c.live_decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    REQUIRE(c.live_decl != NULL);
    REQUIRE_OK(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = c.live_decl,
                                                                        .vertex_count = 3 },
                                        &c.vb));
    REQUIRE_OK(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6 }, &c.ib));
    xgd_vertex_element pos = { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 };
    REQUIRE_OK(xgd_vertex_declaration_create(dev, &pos, 1, 0, &c.decl));
    REQUIRE_OK(xgd_blend_state_create(dev, NULL, &c.blend));
    REQUIRE_OK(xgd_depth_stencil_state_create(dev, NULL, &c.depth));
    REQUIRE_OK(xgd_rasterizer_state_create(dev, NULL, &c.raster));
    REQUIRE_OK(xgd_sampler_state_create(dev, NULL, &c.sampler));
    REQUIRE_OK(xgd_basic_effect_create(dev, &c.effect));
    REQUIRE_OK(xgd_occlusion_query_create(dev, &c.query));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &c.batch));
    REQUIRE_OK(xgd_basic_effect_create(dev, &c.live_basic));
    REQUIRE_OK(xgd_volume_effect_create(dev, &c.live_volume));
    REQUIRE_OK(xgd_sprite_batch_create(dev, &c.live_batch));

    /* Bound and applied first, so the device held each one when it went. */
    REQUIRE_OK(xgd_set_blend_state(dev, c.blend));
    REQUIRE_OK(xgd_set_depth_stencil_state(dev, c.depth));
    REQUIRE_OK(xgd_set_rasterizer_state(dev, c.raster));
    REQUIRE_OK(xgd_set_sampler_state(dev, 0, c.sampler));
    REQUIRE_OK(xgd_set_vertex_buffer(dev, c.vb, 0));
    REQUIRE_OK(xgd_set_indices(dev, c.ib));
    REQUIRE_OK(xgd_effect_apply(c.effect));

    xgd_texture_destroy(c.tex);
    xgd_vertex_buffer_destroy(c.vb);
    xgd_index_buffer_destroy(c.ib);
    xgd_vertex_declaration_destroy(c.decl);
    xgd_blend_state_destroy(c.blend);
    xgd_depth_stencil_state_destroy(c.depth);
    xgd_rasterizer_state_destroy(c.raster);
    xgd_sampler_state_destroy(c.sampler);
    xgd_effect_destroy(c.effect);
    xgd_occlusion_query_destroy(c.query);
    xgd_sprite_batch_destroy(c.batch);

    for (size_t i = 0; i < sizeof sweep_table / sizeof sweep_table[0]; i++) {
        const sweep_entry *e = &sweep_table[i];
        reset_messages(dev);
        xgd_result r = e->fn(&c);
        CHECK_MSG(r == XGD_ERROR_OBJECT_DISPOSED, "%s with a destroyed %s returned %s (%s)",
                  e->call, e->type, xgd_result_name(r), xgd_device_last_error(dev));
        if (r == XGD_ERROR_OBJECT_DISPOSED)
            CHECK_MSG(message_names(dev, e->type),
                      "%s: the message does not name the disposed %s: '%s' / '%s'", e->call,
                      e->type, xgd_device_last_error(dev), xgd_device_last_error(NULL));
    }
    CHECK_INT(xgd_vertex_declaration_stride(c.decl), 0);

    /* The same calls with values no object has had: each destroyed object's slot with the
       generation its next object would get, with the last generation a slot can reach, then
       with generation 0 (never given). The slots are free (nothing took them during the
       sweep), so before session 31 the first, which matched the slot's stored generation,
       followed its empty object pointer and crashed; now every one is an argument error, and
       nothing is followed. */
    sweep_ctx stale = c;
    for (int pass = 0; pass < 3; pass++) {
        c = stale;
        void **fields[] = { (void **)&c.tex, (void **)&c.vb, (void **)&c.ib, (void **)&c.decl,
                            (void **)&c.blend, (void **)&c.depth, (void **)&c.raster,
                            (void **)&c.sampler, (void **)&c.effect, (void **)&c.query,
                            (void **)&c.batch };
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++)
            *fields[f] = never_given(*fields[f], pass == 0   ? generation_of(*fields[f]) + 1
                                                 : pass == 1 ? XGDI_HANDLE_GEN_MAX
                                                             : 0);
        for (size_t i = 0; i < sizeof sweep_table / sizeof sweep_table[0]; i++) {
            const sweep_entry *e = &sweep_table[i];
            reset_messages(dev);
            xgd_result r = e->fn(&c);
            CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT,
                      "%s with a %s value no object had (generation %s) returned %s (%s)", e->call,
                      e->type, pass == 0 ? "next" : pass == 1 ? "last" : "0", xgd_result_name(r),
                      xgd_device_last_error(dev));
        }
    }
    c = stale;

    /* A second destroy of every stale handle is a no-op. */
    xgd_texture_destroy(c.tex);
    xgd_vertex_buffer_destroy(c.vb);
    xgd_index_buffer_destroy(c.ib);
    xgd_vertex_declaration_destroy(c.decl);
    xgd_blend_state_destroy(c.blend);
    xgd_depth_stencil_state_destroy(c.depth);
    xgd_rasterizer_state_destroy(c.raster);
    xgd_sampler_state_destroy(c.sampler);
    xgd_effect_destroy(c.effect);
    xgd_occlusion_query_destroy(c.query);
    xgd_sprite_batch_destroy(c.batch);

    /* The live helpers were left alone and still work. */
    CHECK_OK(xgd_texture_get_info(c.live_tex, &(xgd_texture_info){ 0 }));
    CHECK_OK(xgd_sprite_batch_begin(c.live_batch, NULL));
    CHECK_OK(xgd_sprite_batch_draw(c.live_batch, c.live_tex, &(xgd_sprite){ .scale = { 1, 1 } }));
    CHECK_OK(xgd_sprite_batch_end(c.live_batch));
    CHECK_OK(xgd_effect_apply(c.live_basic));

    xgd_sprite_batch_destroy(c.live_batch);
    xgd_effect_destroy(c.live_volume);
    xgd_effect_destroy(c.live_basic);
    xgd_texture_destroy(c.live_tex);
    xgd_device_destroy(dev);
}

/* ---- reuse ---------------------------------------------------------------------------------- */

/* A new object may take the destroyed one's place (the same slot, or the same address): the
 * old handle must still answer OBJECT_DISPOSED, and destroying it again must not destroy the
 * new object. */
XGD_TEST(handles_stale_after_reuse_by_same_and_other_type)
{
    xgd_device *dev = handles_device(t);
    REQUIRE(dev);
    xgd_texture_info info;
    const xgd_texture2d_desc td = { .width = 4, .height = 4 };
    enum { N = 64 };
    xgd_texture *old[N];
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(xgd_texture2d_create(dev, &td, &old[i]));
        xgd_texture_destroy(old[i]);
    }
    /* same type: N new textures, created as the old ones were */
    xgd_texture *fresh[N];
    for (int i = 0; i < N; i++) REQUIRE_OK(xgd_texture2d_create(dev, &td, &fresh[i]));
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) CHECK(old[i] != fresh[j]);
        CHECK_RESULT(xgd_texture_get_info(old[i], &info), XGD_ERROR_OBJECT_DISPOSED);
        CHECK_RESULT(xgd_set_texture(dev, 0, old[i]), XGD_ERROR_OBJECT_DISPOSED);
        xgd_texture_destroy(old[i]);
    }
    for (int i = 0; i < N; i++) {
        CHECK_OK(xgd_texture_get_info(fresh[i], &info));
        CHECK_INT(info.width, 4);
        CHECK_OK(xgd_set_texture(dev, 0, fresh[i]));
    }
    CHECK_OK(xgd_set_texture(dev, 0, NULL));
    for (int i = 0; i < N; i++) xgd_texture_destroy(fresh[i]);

    /* another type in the freed places: blend states (the smallest objects) and effects */
    xgd_blend_state *blends[N];
    xgd_effect *effects[N];
    for (int i = 0; i < N; i++) {
        REQUIRE_OK(xgd_blend_state_create(dev, NULL, &blends[i]));
        REQUIRE_OK(xgd_basic_effect_create(dev, &effects[i]));
    }
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            CHECK((void *)fresh[i] != (void *)blends[j] && (void *)fresh[i] != (void *)effects[j]);
            CHECK((void *)old[i] != (void *)blends[j] && (void *)old[i] != (void *)effects[j]);
        }
        CHECK_RESULT(xgd_texture_get_info(fresh[i], &info), XGD_ERROR_OBJECT_DISPOSED);
        /* the stale texture handle passed where a blend state goes: still disposed, not the
           blend state now living where the texture was */
        CHECK_RESULT(xgd_set_blend_state(dev, (xgd_blend_state *)(void *)fresh[i]),
                     XGD_ERROR_OBJECT_DISPOSED);
        CHECK_RESULT(xgd_effect_apply((xgd_effect *)(void *)fresh[i]), XGD_ERROR_OBJECT_DISPOSED);
        xgd_texture_destroy(fresh[i]);
        xgd_blend_state_destroy((xgd_blend_state *)(void *)fresh[i]);
        xgd_effect_destroy((xgd_effect *)(void *)old[i]);
    }
    for (int i = 0; i < N; i++) {
        CHECK_OK(xgd_blend_state_get_desc(blends[i], &(xgd_blend_state_desc){ 0 }));
        CHECK_OK(xgd_effect_apply(effects[i]));
    }
    /* a live object of the wrong type is an argument error, not a disposal */
    CHECK_RESULT(xgd_set_blend_state(dev, (xgd_blend_state *)(void *)effects[0]),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_OK(xgd_blend_state_get_desc(blends[0], &(xgd_blend_state_desc){ 0 }));
    for (int i = 0; i < N; i++) {
        xgd_blend_state_destroy(blends[i]);
        xgd_effect_destroy(effects[i]);
    }
    xgd_device_destroy(dev);
}

/* Objects of a destroyed device are disposed shells until their owner destroys them; then
 * their handles are stale like any other. */
XGD_TEST(handles_shell_then_destroyed)
{
    xgd_device *dev = handles_device(t);
    REQUIRE(dev);
    xgd_texture *tex = NULL;
    xgd_blend_state *preset = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_ADDITIVE);
    REQUIRE(preset != NULL);
    REQUIRE_OK(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex));
    xgd_blend_state_destroy(preset); /* device-owned: a no-op */
    CHECK_OK(xgd_blend_state_get_desc(preset, &(xgd_blend_state_desc){ 0 }));
    xgd_device_destroy(dev);
    CHECK_RESULT(xgd_texture_get_info(tex, &(xgd_texture_info){ 0 }), XGD_ERROR_OBJECT_DISPOSED);
    /* the device freed its presets: their handles are stale now */
    CHECK_RESULT(xgd_blend_state_get_desc(preset, &(xgd_blend_state_desc){ 0 }),
                 XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_destroy(tex);
    CHECK_RESULT(xgd_texture_get_info(tex, &(xgd_texture_info){ 0 }), XGD_ERROR_OBJECT_DISPOSED);
    xgd_texture_destroy(tex);
}

/* ---- two threads ---------------------------------------------------------------------------- */

enum { THREAD_ROUNDS = 400, THREAD_KEEP = 8 };

typedef struct churn {
    xgd_device *dev;
    int failures;
    char first_failure[256];
    xgd_texture *stale[THREAD_KEEP];
} churn;

static void churn_fail(churn *c, const char *what, xgd_result r)
{
    if (c->failures++ == 0)
        snprintf(c->first_failure, sizeof c->first_failure, "%s returned %s", what,
                 xgd_result_name(r));
}

/* Creates, uses and destroys objects of this thread's device; every stale handle must answer
 * OBJECT_DISPOSED while the other thread takes and frees slots of the same table. */
static void *churn_main(void *arg)
{
    churn *c = arg;
    xgd_texture_info info;
    for (int round = 0; round < THREAD_ROUNDS; round++) {
        xgd_texture *tex = NULL;
        xgd_blend_state *blend = NULL;
        xgd_vertex_buffer *vb = NULL;
        xgd_result r = xgd_texture2d_create(c->dev, &(xgd_texture2d_desc){ .width = 2,
                                                                           .height = 2 },
                                            &tex);
        if (r != XGD_OK) { churn_fail(c, "texture create", r); break; }
        r = xgd_blend_state_create(c->dev, NULL, &blend);
        if (r != XGD_OK) { churn_fail(c, "blend create", r); break; }
        r = xgd_vertex_buffer_create(
            c->dev,
            &(xgd_vertex_buffer_desc){
                .declaration = xgd_vertex_declaration_stock(c->dev, XGD_VERTEX_POSITION_COLOR),
                .vertex_count = 3 },
            &vb);
        if (r != XGD_OK) { churn_fail(c, "vertex buffer create", r); break; }
        if ((r = xgd_set_texture(c->dev, 0, tex)) != XGD_OK) churn_fail(c, "set_texture", r);
        if ((r = xgd_set_blend_state(c->dev, blend)) != XGD_OK) churn_fail(c, "set_blend", r);
        if ((r = xgd_set_vertex_buffer(c->dev, vb, 0)) != XGD_OK) churn_fail(c, "set_vb", r);
        xgd_texture_destroy(tex);
        xgd_blend_state_destroy(blend);
        xgd_vertex_buffer_destroy(vb);
        if ((r = xgd_texture_get_info(tex, &info)) != XGD_ERROR_OBJECT_DISPOSED)
            churn_fail(c, "get_info of a destroyed texture", r);
        if ((r = xgd_set_blend_state(c->dev, blend)) != XGD_ERROR_OBJECT_DISPOSED)
            churn_fail(c, "set_blend_state of a destroyed state", r);
        if ((r = xgd_vertex_buffer_get_data(vb, 0, &info, 4)) != XGD_ERROR_OBJECT_DISPOSED)
            churn_fail(c, "get_data of a destroyed buffer", r);
        for (int k = 0; k < THREAD_KEEP; k++) {
            if (c->stale[k] != NULL &&
                (r = xgd_texture_get_info(c->stale[k], &info)) != XGD_ERROR_OBJECT_DISPOSED)
                churn_fail(c, "get_info of an older destroyed texture", r);
        }
        c->stale[round % THREAD_KEEP] = tex;
    }
    return NULL;
}

XGD_TEST(handles_two_threads)
{
    churn c[2];
    memset(c, 0, sizeof c);
    /* Created without the harness's log callback, whose counters are not for two threads. */
    xgd_device_desc dd;
    memset(&dd, 0, sizeof dd);
    dd.renderer = XGD_RENDERER_SOFTWARE;
    dd.pp.back_buffer_width = 16;
    dd.pp.back_buffer_height = 16;
    dd.pp.headless = true;
    for (int i = 0; i < 2; i++) REQUIRE_OK(xgd_device_create(&dd, &c[i].dev));
    pthread_t th[2];
    int started = 0;
    for (int i = 0; i < 2; i++) {
        int e = pthread_create(&th[i], NULL, churn_main, &c[i]);
        CHECK_MSG(e == 0, "pthread_create returned %d", e);
        if (e == 0) started++;
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++)
        CHECK_MSG(c[i].failures == 0, "thread %d: %d failures, first: %s", i, c[i].failures,
                  c[i].first_failure);
    /* each thread's stale handles, checked from this thread and through the other's device */
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < THREAD_KEEP; k++) {
            CHECK_RESULT(xgd_texture_get_info(c[i].stale[k], &(xgd_texture_info){ 0 }),
                         XGD_ERROR_OBJECT_DISPOSED);
            CHECK_RESULT(xgd_set_texture(c[1 - i].dev, 0, c[i].stale[k]),
                         XGD_ERROR_OBJECT_DISPOSED);
        }
    }
    for (int i = 0; i < 2; i++) xgd_device_destroy(c[i].dev);
}
