/*
 * test_bad_input.c - every public entry point of xgd.h called with NULL pointers, out-of-range
 * values, disposed objects (shells of a destroyed device) and objects of another device. Each
 * row names the entry point, the case and the expected result; after each call the test checks
 * the code and that nothing public changed (statistics of every device, including
 * live_resources; viewport, scissor and bindings of the main device) and that no object leaked
 * out of a failed create. Run under ASan/UBSan in CI: no row may crash or leak.
 */
#define _POSIX_C_SOURCE 200809L

#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct bad_ctx {
    xgd_device *dev;    /* the device under test: effect applied, vertex buffer bound */
    xgd_device *other;  /* owner of the foreign objects */
    xgd_device *fresh;  /* nothing applied or bound */
    xgd_device *reach;  /* Reach profile: no occlusion queries */

    xgd_device_desc dd;
    xgd_presentation_parameters pp_zero, pp_depth, pp_huge;
    xgd_texture2d_desc td, td_zero, td_neg, td_fmt;
    xgd_texture_cube_desc cd, cd_zero, cd_fmt;
    xgd_texture3d_desc t3d, t3d_zero, t3d_big, t3d_fmt;
    xgd_vector4 color_nan;
    xgd_render_target_desc rd, rd_zero, rd_depth, rd_usage, rd_msaa, rd_fmt;
    xgd_blend_state_desc bsd_blend, bsd_func;
    xgd_depth_stencil_desc dsd_cmp;
    xgd_rasterizer_desc rsd_cull;
    xgd_sampler_desc ssd_filter, ssd_addr;
    xgd_vertex_element el_ok[2], el_overlap[2], el_fmt[1];
    xgd_vertex_buffer_desc vbd, vbd_null_decl, vbd_zero, vbd_shell_decl, vbd_foreign_decl;
    xgd_index_buffer_desc ibd, ibd_zero, ibd_size;
    xgd_basic_effect_params params_nan;
    xgd_sprite_batch_begin_desc sbd_shell_state, sbd_sort;
    xgd_sprite sprite;
    xgd_matrix identity, zero_matrix, inverted;

    xgd_texture *tex, *rt, *rt_small, *cube, *cube_rt;
    xgd_texture *vol;               /* a 4x4x2 Texture3D */
    xgd_effect *volume_fx;          /* EXT VolumeEffect */
    xgd_vertex_declaration *decl;
    xgd_vertex_buffer *vb, *vb_wo;
    xgd_index_buffer *ib;
    xgd_blend_state *bs;
    xgd_depth_stencil_state *dss;
    xgd_rasterizer_state *rs;
    xgd_sampler_state *ss;
    xgd_effect *basic, *sprite_fx;
    xgd_sprite_batch *sb;
    /* occlusion queries: ended with a result / never begun / begun and ended by row hooks */
    xgd_occlusion_query *query, *query_new, *query_busy;

    /* objects of `other` */
    xgd_texture *f_tex, *f_rt;
    xgd_vertex_declaration *f_decl;
    xgd_vertex_buffer *f_vb;
    xgd_index_buffer *f_ib;
    xgd_blend_state *f_bs;
    xgd_depth_stencil_state *f_dss;
    xgd_rasterizer_state *f_rs;
    xgd_sampler_state *f_ss;

    /* shells: their device was destroyed */
    xgd_texture *s_tex, *s_rt;
    xgd_vertex_declaration *s_decl;
    xgd_vertex_buffer *s_vb;
    xgd_index_buffer *s_ib;
    xgd_blend_state *s_bs;
    xgd_depth_stencil_state *s_dss;
    xgd_rasterizer_state *s_rs;
    xgd_sampler_state *s_ss;
    xgd_effect *s_fx;
    xgd_sprite_batch *s_sb;
    xgd_occlusion_query *s_query;

    /* where failed creates write (must stay NULL) */
    xgd_device *o_dev;
    xgd_texture *o_tex;
    xgd_vertex_declaration *o_decl;
    xgd_vertex_buffer *o_vb;
    xgd_index_buffer *o_ib;
    xgd_blend_state *o_bs;
    xgd_depth_stencil_state *o_dss;
    xgd_rasterizer_state *o_rs;
    xgd_sampler_state *o_ss;
    xgd_effect *o_fx;
    xgd_sprite_batch *o_sb;
    xgd_occlusion_query *o_query;

    xgd_device_info info;
    xgd_statistics stats;
    xgd_frame_statistics fstats;
    xgd_format_support support;
    xgd_texture_info tinfo;
    xgd_blend_state_desc bsd_out;
    xgd_depth_stencil_desc dsd_out;
    xgd_rasterizer_desc rsd_out;
    xgd_sampler_desc ssd_out;
    xgd_basic_effect_params params_out;
    xgd_viewport vp_out;
    xgd_rect rect_out;
    xgd_render_target_binding bind[5], bind_out[4];
    int count_out, w_out, h_out;
    uint8_t *rgba_out;
    bool done_out;
    void *obj_out;      /* xgd_resource_register / _resolve */
    xgd_device *dev_out;
    uint64_t pixels_out;
    uint8_t buf[4096];
    xgd_vertex_position_color tri[3];
    uint16_t idx[3];
    char missing_path[256], bad_dir_path[256];
} bad_ctx;

/* ---- setup / teardown around rows that need a state --------------------------------------- */

typedef void (*hook_fn)(bad_ctx *c);
/* A layered library's kind of object, for the rows of the layered-library calls. */
static const xgd_resource_class k_row_class = { "row object", NULL };
static void bind_rt(bad_ctx *c) { xgd_set_render_target(c->dev, c->rt); }
static void unbind_rt(bad_ctx *c) { xgd_set_render_target(c->dev, NULL); }
static void begin_batch(bad_ctx *c) { xgd_sprite_batch_begin(c->sb, NULL); }
static void end_batch(bad_ctx *c) { xgd_sprite_batch_end(c->sb); }
static void begin_busy(bad_ctx *c) { xgd_occlusion_query_begin(c->query_busy); }
static void end_busy(bad_ctx *c) { xgd_occlusion_query_end(c->query_busy); }
static void set_bindings(bad_ctx *c, xgd_texture *a, xgd_texture *b)
{
    memset(c->bind, 0, sizeof c->bind);
    c->bind[0].target = a;
    c->bind[1].target = b;
}
static void bind_null(bad_ctx *c) { set_bindings(c, NULL, NULL); }
static void bind_shell(bad_ctx *c) { set_bindings(c, c->s_rt, NULL); }
static void bind_foreign(bad_ctx *c) { set_bindings(c, c->f_rt, NULL); }
static void bind_plain(bad_ctx *c) { set_bindings(c, c->tex, NULL); }
static void bind_twice(bad_ctx *c) { set_bindings(c, c->rt, c->rt); }
static void bind_sizes(bad_ctx *c) { set_bindings(c, c->rt, c->rt_small); }
static void bind_face(bad_ctx *c)
{
    set_bindings(c, c->cube_rt, NULL);
    c->bind[0].face = (xgd_cube_map_face)6;
}
static void bind_five(bad_ctx *c)
{
    for (int i = 0; i < 5; i++) {
        c->bind[i].target = c->rt;
        c->bind[i].face = 0;
    }
}

/* ---- the table ------------------------------------------------------------------------------ */

#define A XGD_ERROR_INVALID_ARGUMENT
#define OP XGD_ERROR_INVALID_OPERATION
#define NS XGD_ERROR_NOT_SUPPORTED
#define DI XGD_ERROR_OBJECT_DISPOSED
#define IO XGD_ERROR_IO
/* a PNG file that cannot be read or written: IO, or NOT_SUPPORTED where PNG is compiled out */
#ifdef XGD_TEST_HAVE_PNG
#define PNG_IO IO
#else
#define PNG_IO NS
#endif
#define OR XGD_ERROR_ARGUMENT_OUT_OF_RANGE
#define NOHOOK NULL
#define TRUE_ 1

/* X(entry point, case, expression, expected value, setup, teardown) */
#define BAD_INPUT_ROWS(X)                                                                        \
    /* device */                                                                                 \
    X(device_create, null_out, (xgd_device_create(&c->dd, NULL)), A, NOHOOK, NOHOOK)             \
    X(device_create, null_desc_asks_window, (xgd_device_create(NULL, &c->o_dev)), A, NOHOOK,     \
      NOHOOK)                                                                                    \
    X(device_get_info, null_device, (xgd_device_get_info(NULL, &c->info)), A, NOHOOK, NOHOOK)    \
    X(device_get_info, null_out, (xgd_device_get_info(c->dev, NULL)), A, NOHOOK, NOHOOK)         \
    X(device_get_statistics, null_device, (xgd_device_get_statistics(NULL, &c->stats)), A,       \
      NOHOOK, NOHOOK)                                                                            \
    X(device_get_statistics, null_out, (xgd_device_get_statistics(c->dev, NULL)), A, NOHOOK,     \
      NOHOOK)                                                                                    \
    X(device_get_frame_statistics, null_device,                                                  \
      (xgd_device_get_frame_statistics(NULL, true, &c->fstats)), A, NOHOOK, NOHOOK)              \
    X(device_get_frame_statistics, null_out, (xgd_device_get_frame_statistics(c->dev, false,     \
      NULL)), A, NOHOOK, NOHOOK)                                                                 \
    X(device_reset_statistics, null_device, (xgd_device_reset_statistics(NULL)), A, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(device_query_format, null_device,                                                          \
      (xgd_device_query_format(NULL, XGD_SURFACE_FORMAT_COLOR, &c->support)), A, NOHOOK, NOHOOK) \
    X(device_query_format, unknown_format,                                                       \
      (xgd_device_query_format(c->dev, XGD_SURFACE_FORMAT_COUNT, &c->support)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(device_query_format, negative_format,                                                      \
      (xgd_device_query_format(c->dev, (xgd_surface_format)-1, &c->support)), A, NOHOOK, NOHOOK) \
    X(device_query_format, null_out,                                                             \
      (xgd_device_query_format(c->dev, XGD_SURFACE_FORMAT_COLOR, NULL)), A, NOHOOK, NOHOOK)      \
    X(device_reset, null_device, (xgd_device_reset(NULL, NULL)), A, NOHOOK, NOHOOK)              \
    X(device_reset, negative_size, (xgd_device_reset(c->dev, &c->pp_zero)), A, NOHOOK, NOHOOK)       \
    X(device_reset, unknown_depth, (xgd_device_reset(c->dev, &c->pp_depth)), A, NOHOOK, NOHOOK)  \
    X(device_reset, over_profile, (xgd_device_reset(c->dev, &c->pp_huge)), A, NOHOOK, NOHOOK)    \
    X(device_simulate_context_loss, null_device, (xgd_device_simulate_context_loss(NULL)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(device_restore_context, null_device, (xgd_device_restore_context(NULL)), A, NOHOOK,        \
      NOHOOK)                                                                                    \
    X(renderer_from_name, null, (xgd_renderer_from_name(NULL)), XGD_RENDERER_COUNT, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(renderer_from_name, unknown, (xgd_renderer_from_name("metal")), XGD_RENDERER_COUNT,        \
      NOHOOK, NOHOOK)                                                                            \
    X(result_name, unknown_code, (xgd_result_name((xgd_result)-99) != NULL), TRUE_, NOHOOK,      \
      NOHOOK)                                                                                    \
    /* textures */                                                                               \
    X(texture2d_create, null_device, (xgd_texture2d_create(NULL, &c->td, &c->o_tex)), A, NOHOOK, \
      NOHOOK)                                                                                    \
    X(texture2d_create, null_desc, (xgd_texture2d_create(c->dev, NULL, &c->o_tex)), A, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(texture2d_create, null_out, (xgd_texture2d_create(c->dev, &c->td, NULL)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(texture2d_create, zero_width, (xgd_texture2d_create(c->dev, &c->td_zero, &c->o_tex)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture2d_create, negative_height, (xgd_texture2d_create(c->dev, &c->td_neg, &c->o_tex)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture2d_create, unknown_format, (xgd_texture2d_create(c->dev, &c->td_fmt, &c->o_tex)),   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture_cube_create, null_device, (xgd_texture_cube_create(NULL, &c->cd, &c->o_tex)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_cube_create, null_desc, (xgd_texture_cube_create(c->dev, NULL, &c->o_tex)), A,     \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_cube_create, null_out, (xgd_texture_cube_create(c->dev, &c->cd, NULL)), A, NOHOOK, \
      NOHOOK)                                                                                    \
    X(texture_cube_create, zero_size, (xgd_texture_cube_create(c->dev, &c->cd_zero, &c->o_tex)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture_cube_create, unknown_format,                                                       \
      (xgd_texture_cube_create(c->dev, &c->cd_fmt, &c->o_tex)), A, NOHOOK, NOHOOK)               \
    X(render_target2d_create, null_device, (xgd_render_target2d_create(NULL, &c->rd, &c->o_tex)),\
      A, NOHOOK, NOHOOK)                                                                         \
    X(render_target2d_create, null_desc, (xgd_render_target2d_create(c->dev, NULL, &c->o_tex)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(render_target2d_create, null_out, (xgd_render_target2d_create(c->dev, &c->rd, NULL)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(render_target2d_create, zero_width,                                                        \
      (xgd_render_target2d_create(c->dev, &c->rd_zero, &c->o_tex)), A, NOHOOK, NOHOOK)           \
    X(render_target2d_create, unknown_depth,                                                     \
      (xgd_render_target2d_create(c->dev, &c->rd_depth, &c->o_tex)), A, NOHOOK, NOHOOK)          \
    X(render_target2d_create, unknown_usage,                                                     \
      (xgd_render_target2d_create(c->dev, &c->rd_usage, &c->o_tex)), A, NOHOOK, NOHOOK)          \
    X(render_target2d_create, negative_msaa,                                                     \
      (xgd_render_target2d_create(c->dev, &c->rd_msaa, &c->o_tex)), A, NOHOOK, NOHOOK)           \
    X(render_target2d_create, unknown_format,                                                    \
      (xgd_render_target2d_create(c->dev, &c->rd_fmt, &c->o_tex)), A, NOHOOK, NOHOOK)            \
    X(render_target_cube_create, null_desc,                                                      \
      (xgd_render_target_cube_create(c->dev, NULL, &c->o_tex)), A, NOHOOK, NOHOOK)               \
    X(render_target_cube_create, zero_size,                                                      \
      (xgd_render_target_cube_create(c->dev, &c->rd_zero, &c->o_tex)), A, NOHOOK, NOHOOK)        \
    X(texture2d_from_png_file, null_device,                                                      \
      (xgd_texture2d_from_png_file(NULL, c->missing_path, &c->o_tex)), A, NOHOOK, NOHOOK)        \
    X(texture2d_from_png_file, null_path, (xgd_texture2d_from_png_file(c->dev, NULL, &c->o_tex)),\
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture2d_from_png_file, missing_file,                                                     \
      (xgd_texture2d_from_png_file(c->dev, c->missing_path, &c->o_tex)), PNG_IO, NOHOOK, NOHOOK) \
    X(texture2d_from_png_file, null_out,                                                         \
      (xgd_texture2d_from_png_file(c->dev, c->missing_path, NULL)), A, NOHOOK, NOHOOK)           \
    X(texture2d_from_png_memory, null_data,                                                      \
      (xgd_texture2d_from_png_memory(c->dev, NULL, 100, &c->o_tex)), A, NOHOOK, NOHOOK)          \
    X(texture2d_from_png_memory, zero_size,                                                      \
      (xgd_texture2d_from_png_memory(c->dev, c->buf, 0, &c->o_tex)), A, NOHOOK, NOHOOK)          \
    X(texture2d_from_png_memory, null_out,                                                       \
      (xgd_texture2d_from_png_memory(c->dev, c->buf, 100, NULL)), A, NOHOOK, NOHOOK)             \
    X(texture2d_from_file, null_device,                                                          \
      (xgd_texture2d_from_file(NULL, c->missing_path, &c->o_tex)), A, NOHOOK, NOHOOK)            \
    X(texture2d_from_file, null_path,                                                            \
      (xgd_texture2d_from_file(c->dev, NULL, &c->o_tex)), A, NOHOOK, NOHOOK)                     \
    X(texture2d_from_file, missing_file,                                                         \
      (xgd_texture2d_from_file(c->dev, c->missing_path, &c->o_tex)), IO, NOHOOK, NOHOOK)         \
    X(texture2d_from_file, null_out,                                                             \
      (xgd_texture2d_from_file(c->dev, c->missing_path, NULL)), A, NOHOOK, NOHOOK)               \
    X(texture_from_dds_file, null_device,                                                        \
      (xgd_texture_from_dds_file(NULL, c->missing_path, &c->o_tex)), A, NOHOOK, NOHOOK)          \
    X(texture_from_dds_file, null_path,                                                          \
      (xgd_texture_from_dds_file(c->dev, NULL, &c->o_tex)), A, NOHOOK, NOHOOK)                   \
    X(texture_from_dds_file, missing_file,                                                       \
      (xgd_texture_from_dds_file(c->dev, c->missing_path, &c->o_tex)), IO, NOHOOK, NOHOOK)       \
    X(texture_from_dds_file, null_out,                                                           \
      (xgd_texture_from_dds_file(c->dev, c->missing_path, NULL)), A, NOHOOK, NOHOOK)             \
    X(texture2d_from_memory, null_data,                                                          \
      (xgd_texture2d_from_memory(c->dev, NULL, 100, &c->o_tex)), A, NOHOOK, NOHOOK)              \
    X(texture2d_from_memory, zero_size,                                                          \
      (xgd_texture2d_from_memory(c->dev, c->buf, 0, &c->o_tex)), A, NOHOOK, NOHOOK)              \
    X(texture2d_from_memory, null_out,                                                           \
      (xgd_texture2d_from_memory(c->dev, c->buf, 100, NULL)), A, NOHOOK, NOHOOK)                 \
    X(texture_from_dds_memory, null_data,                                                        \
      (xgd_texture_from_dds_memory(c->dev, NULL, 100, &c->o_tex)), A, NOHOOK, NOHOOK)            \
    X(texture_from_dds_memory, zero_size,                                                        \
      (xgd_texture_from_dds_memory(c->dev, c->buf, 0, &c->o_tex)), A, NOHOOK, NOHOOK)            \
    X(texture_from_dds_memory, null_out,                                                         \
      (xgd_texture_from_dds_memory(c->dev, c->buf, 100, NULL)), A, NOHOOK, NOHOOK)               \
    X(texture_save_jpeg, null_texture,                                                           \
      (xgd_texture_save_jpeg(NULL, c->bad_dir_path)), A, NOHOOK, NOHOOK)                         \
    X(texture_save_jpeg, null_path,                                                              \
      (xgd_texture_save_jpeg(c->tex, NULL)), A, NOHOOK, NOHOOK)                                  \
    X(texture_save_jpeg, disposed,                                                               \
      (xgd_texture_save_jpeg(c->s_tex, c->bad_dir_path)), DI, NOHOOK, NOHOOK)                    \
    X(texture_save_jpeg, texture3d,                                                              \
      (xgd_texture_save_jpeg(c->vol, c->bad_dir_path)), OP, NOHOOK, NOHOOK)                      \
    X(image_save_jpeg, null_path,                                                                \
      (xgd_image_save_jpeg(NULL, 2, 2, c->buf, 90)), A, NOHOOK, NOHOOK)                          \
    X(image_save_jpeg, null_rgba,                                                                \
      (xgd_image_save_jpeg(c->bad_dir_path, 2, 2, NULL, 90)), A, NOHOOK, NOHOOK)                 \
    X(image_save_jpeg, zero_width,                                                               \
      (xgd_image_save_jpeg(c->bad_dir_path, 0, 2, c->buf, 90)), A, NOHOOK, NOHOOK)               \
    X(image_save_jpeg, quality_0,                                                                \
      (xgd_image_save_jpeg(c->bad_dir_path, 2, 2, c->buf, 0)), A, NOHOOK, NOHOOK)                \
    X(image_save_jpeg, quality_101,                                                              \
      (xgd_image_save_jpeg(c->bad_dir_path, 2, 2, c->buf, 101)), A, NOHOOK, NOHOOK)              \
    X(texture_get_info, null_texture, (xgd_texture_get_info(NULL, &c->tinfo)), A, NOHOOK, NOHOOK)\
    X(texture_get_info, null_out, (xgd_texture_get_info(c->tex, NULL)), A, NOHOOK, NOHOOK)       \
    X(texture_get_info, disposed, (xgd_texture_get_info(c->s_tex, &c->tinfo)), DI, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(texture_set_data, null_texture, (xgd_texture_set_data(NULL, 0, 0, NULL, c->buf, 64)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, null_data, (xgd_texture_set_data(c->tex, 0, 0, NULL, NULL, 64)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, wrong_size, (xgd_texture_set_data(c->tex, 0, 0, NULL, c->buf, 60)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, negative_level, (xgd_texture_set_data(c->tex, -1, 0, NULL, c->buf, 64)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture_set_data, level_past_chain,                                                        \
      (xgd_texture_set_data(c->tex, 3, 0, NULL, c->buf, 4)), A, NOHOOK, NOHOOK)                  \
    X(texture_set_data, face_on_2d, (xgd_texture_set_data(c->tex, 0, 2, NULL, c->buf, 64)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, cube_face_6, (xgd_texture_set_data(c->cube, 0, 6, NULL, c->buf, 64)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, rect_outside,                                                            \
      (xgd_texture_set_data(c->tex, 0, 0, &(xgd_rect){ 3, 3, 2, 2 }, c->buf, 16)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(texture_set_data, disposed, (xgd_texture_set_data(c->s_tex, 0, 0, NULL, c->buf, 64)), DI,  \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_set_data, bound_target, (xgd_texture_set_data(c->rt, 0, 0, NULL, c->buf, 64)), OP, \
      bind_rt, unbind_rt)                                                                        \
    X(texture_get_data, null_texture, (xgd_texture_get_data(NULL, 0, 0, NULL, c->buf, 64)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_get_data, null_data, (xgd_texture_get_data(c->tex, 0, 0, NULL, NULL, 64)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_get_data, wrong_size, (xgd_texture_get_data(c->tex, 0, 0, NULL, c->buf, 65)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_get_data, level_past_chain,                                                        \
      (xgd_texture_get_data(c->tex, 5, 0, NULL, c->buf, 4)), A, NOHOOK, NOHOOK)                  \
    X(texture_get_data, disposed, (xgd_texture_get_data(c->s_tex, 0, 0, NULL, c->buf, 64)), DI,  \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_get_data, bound_target, (xgd_texture_get_data(c->rt, 0, 0, NULL, c->buf, 64)), OP, \
      bind_rt, unbind_rt)                                                                        \
    X(texture_save_png, null_texture, (xgd_texture_save_png(NULL, c->bad_dir_path)), A, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(texture_save_png, null_path, (xgd_texture_save_png(c->tex, NULL)), A, NOHOOK, NOHOOK)      \
    X(texture_save_png, disposed, (xgd_texture_save_png(c->s_tex, c->bad_dir_path)), DI, NOHOOK, \
      NOHOOK)                                                                                    \
    X(texture_save_png, unwritable_path, (xgd_texture_save_png(c->tex, c->bad_dir_path)), PNG_IO,\
      NOHOOK, NOHOOK)                                                                            \
    X(texture_save_png, texture3d, (xgd_texture_save_png(c->vol, c->bad_dir_path)), OP, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(texture_set_data, texture3d, (xgd_texture_set_data(c->vol, 0, 0, NULL, c->buf, 64)), OP,   \
      NOHOOK, NOHOOK)                                                                            \
    X(texture_get_data, texture3d, (xgd_texture_get_data(c->vol, 0, 0, NULL, c->buf, 64)), OP,   \
      NOHOOK, NOHOOK)                                                                            \
    /* Texture3D */                                                                              \
    X(texture3d_create, null_device, (xgd_texture3d_create(NULL, &c->t3d, &c->o_tex)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_create, null_desc, (xgd_texture3d_create(c->dev, NULL, &c->o_tex)), A, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(texture3d_create, null_out, (xgd_texture3d_create(c->dev, &c->t3d, NULL)), A, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(texture3d_create, zero_depth, (xgd_texture3d_create(c->dev, &c->t3d_zero, &c->o_tex)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_create, over_hidef_volume_limit,                                                 \
      (xgd_texture3d_create(c->dev, &c->t3d_big, &c->o_tex)), NS, NOHOOK, NOHOOK)                \
    X(texture3d_create, unknown_format, (xgd_texture3d_create(c->dev, &c->t3d_fmt, &c->o_tex)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(texture3d_set_data, null_texture, (xgd_texture3d_set_data(NULL, 0, NULL, c->buf, 128)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_set_data, null_data, (xgd_texture3d_set_data(c->vol, 0, NULL, NULL, 128)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_set_data, wrong_size, (xgd_texture3d_set_data(c->vol, 0, NULL, c->buf, 64)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_set_data, negative_level, (xgd_texture3d_set_data(c->vol, -1, NULL, c->buf,      \
      128)), A, NOHOOK, NOHOOK)                                                                  \
    X(texture3d_set_data, box_outside, (xgd_texture3d_set_data(c->vol, 0,                        \
      &(xgd_box){ 0, 0, 1, 2, 2, 3 }, c->buf, 32)), A, NOHOOK, NOHOOK)                           \
    X(texture3d_set_data, empty_box, (xgd_texture3d_set_data(c->vol, 0,                          \
      &(xgd_box){ 1, 1, 1, 1, 2, 2 }, c->buf, 0)), A, NOHOOK, NOHOOK)                            \
    X(texture3d_set_data, texture2d, (xgd_texture3d_set_data(c->tex, 0, NULL, c->buf, 64)), OP,  \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_set_data, cube, (xgd_texture3d_set_data(c->cube, 0, NULL, c->buf, 64)), OP,      \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_set_data, disposed, (xgd_texture3d_set_data(c->s_tex, 0, NULL, c->buf, 64)), DI, \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_get_data, null_texture, (xgd_texture3d_get_data(NULL, 0, NULL, c->buf, 128)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_get_data, null_data, (xgd_texture3d_get_data(c->vol, 0, NULL, NULL, 128)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_get_data, wrong_size, (xgd_texture3d_get_data(c->vol, 0, NULL, c->buf, 129)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(texture3d_get_data, level_past_chain, (xgd_texture3d_get_data(c->vol, 1, NULL, c->buf,     \
      4)), A, NOHOOK, NOHOOK)                                                                    \
    X(texture3d_get_data, box_outside, (xgd_texture3d_get_data(c->vol, 0,                        \
      &(xgd_box){ 3, 0, 0, 5, 1, 1 }, c->buf, 8)), A, NOHOOK, NOHOOK)                            \
    X(texture3d_get_data, render_target, (xgd_texture3d_get_data(c->rt, 0, NULL, c->buf, 64)),   \
      OP, NOHOOK, NOHOOK)                                                                        \
    X(texture3d_get_data, disposed, (xgd_texture3d_get_data(c->s_tex, 0, NULL, c->buf, 64)), DI, \
      NOHOOK, NOHOOK)                                                                            \
    X(surface_format_size, unknown_format, (xgd_surface_format_size(XGD_SURFACE_FORMAT_COUNT,   \
      4, 4)), 0, NOHOOK, NOHOOK)                                                                 \
    X(surface_format_element_size, unknown_format,                                               \
      (xgd_surface_format_element_size((xgd_surface_format)-5)), 0, NOHOOK, NOHOOK)              \
    X(image_save_png, null_path, (xgd_image_save_png(NULL, 2, 2, c->buf)), A, NOHOOK, NOHOOK)    \
    X(image_save_png, null_rgba, (xgd_image_save_png(c->bad_dir_path, 2, 2, NULL)), A, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(image_save_png, zero_width, (xgd_image_save_png(c->bad_dir_path, 0, 2, c->buf)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(image_save_png, unwritable_path, (xgd_image_save_png(c->bad_dir_path, 2, 2, c->buf)),      \
      PNG_IO, NOHOOK, NOHOOK)                                                                    \
    X(image_load_png, null_path, (xgd_image_load_png(NULL, &c->w_out, &c->h_out, &c->rgba_out)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(image_load_png, missing_file,                                                              \
      (xgd_image_load_png(c->missing_path, &c->w_out, &c->h_out, &c->rgba_out)), PNG_IO, NOHOOK, \
      NOHOOK)                                                                                    \
    X(image_load_png, null_outputs, (xgd_image_load_png(c->missing_path, NULL, NULL, NULL)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    /* render-target binding, clears, viewport, scissor, present */                              \
    X(set_render_targets, null_device, (xgd_set_render_targets(NULL, NULL, 0)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(set_render_targets, five_bindings, (xgd_set_render_targets(c->dev, c->bind, 5)), A,        \
      bind_five, NOHOOK)                                                                         \
    X(set_render_targets, negative_count, (xgd_set_render_targets(c->dev, c->bind, -1)), A,      \
      bind_five, NOHOOK)                                                                         \
    X(set_render_targets, null_bindings_with_count, (xgd_set_render_targets(c->dev, NULL, 2)),   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(set_render_targets, null_target, (xgd_set_render_targets(c->dev, c->bind, 1)), A,          \
      bind_null, NOHOOK)                                                                         \
    X(set_render_targets, disposed_target, (xgd_set_render_targets(c->dev, c->bind, 1)), DI,     \
      bind_shell, NOHOOK)                                                                        \
    X(set_render_targets, foreign_target, (xgd_set_render_targets(c->dev, c->bind, 1)), OP,      \
      bind_foreign, NOHOOK)                                                                      \
    X(set_render_targets, plain_texture, (xgd_set_render_targets(c->dev, c->bind, 1)), OP,       \
      bind_plain, NOHOOK)                                                                        \
    X(set_render_targets, same_target_twice, (xgd_set_render_targets(c->dev, c->bind, 2)), A,    \
      bind_twice, NOHOOK)                                                                        \
    X(set_render_targets, mismatched_sizes, (xgd_set_render_targets(c->dev, c->bind, 2)), A,     \
      bind_sizes, NOHOOK)                                                                        \
    X(set_render_targets, cube_face_6, (xgd_set_render_targets(c->dev, c->bind, 1)), A,          \
      bind_face, NOHOOK)                                                                         \
    X(set_render_target, null_device, (xgd_set_render_target(NULL, c->rt)), A, NOHOOK, NOHOOK)   \
    X(set_render_target, plain_texture, (xgd_set_render_target(c->dev, c->tex)), OP, NOHOOK,     \
      NOHOOK)                                                                                    \
    X(set_render_target, disposed_target, (xgd_set_render_target(c->dev, c->s_rt)), DI, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(set_render_target, foreign_target, (xgd_set_render_target(c->dev, c->f_rt)), OP, NOHOOK,   \
      NOHOOK)                                                                                    \
    /* XNA SetRenderTarget(null, face) is the back buffer: here an empty-to-empty no-op */      \
    X(set_render_target_cube, null_target_is_back_buffer,                                        \
      (xgd_set_render_target_cube(c->dev, NULL, 0)), XGD_OK,                                     \
      NOHOOK, NOHOOK)                                                                            \
    X(set_render_target_cube, face_6, (xgd_set_render_target_cube(c->dev, c->cube_rt, 6)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(set_render_target_cube, negative_face,                                                     \
      (xgd_set_render_target_cube(c->dev, c->cube_rt, (xgd_cube_map_face)-1)), A, NOHOOK, NOHOOK)\
    X(get_render_targets, null_device, (xgd_get_render_targets(NULL, c->bind_out, 4,             \
      &c->count_out)), A, NOHOOK, NOHOOK)                                                        \
    X(get_render_targets, null_count, (xgd_get_render_targets(c->dev, c->bind_out, 4, NULL)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(get_render_targets, negative_max, (xgd_get_render_targets(c->dev, c->bind_out, -1,         \
      &c->count_out)), A, NOHOOK, NOHOOK)                                                        \
    X(clear, null_device, (xgd_clear(NULL, XGD_CLEAR_TARGET, (xgd_vector4){ 0, 0, 0, 1 }, 1, 0)),\
      A, NOHOOK, NOHOOK)                                                                         \
    X(clear, depth_on_target_without_depth, (xgd_clear(c->dev, XGD_CLEAR_DEPTH_BUFFER,           \
      (xgd_vector4){ 0, 0, 0, 1 }, 1, 0)), OP, bind_rt, unbind_rt)                               \
    X(clear, stencil_on_depth24_back_buffer, (xgd_clear(c->dev, XGD_CLEAR_STENCIL,               \
      (xgd_vector4){ 0, 0, 0, 1 }, 1, 0)), OP, NOHOOK, NOHOOK)                                   \
    X(clear_color, null_device, (xgd_clear_color(NULL, XGD_COLOR_BLACK)), A, NOHOOK, NOHOOK)     \
    X(set_viewport, null_device, (xgd_set_viewport(NULL, &(xgd_viewport){ 0, 0, 4, 4, 0, 1 })),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(set_viewport, null_viewport, (xgd_set_viewport(c->dev, NULL)), A, NOHOOK, NOHOOK)          \
    X(set_viewport, zero_width, (xgd_set_viewport(c->dev, &(xgd_viewport){ 0, 0, 0, 4, 0, 1 })), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(set_viewport, negative_height,                                                             \
      (xgd_set_viewport(c->dev, &(xgd_viewport){ 0, 0, 4, -4, 0, 1 })), A, NOHOOK, NOHOOK)       \
    X(set_viewport, min_depth_below_0,                                                           \
      (xgd_set_viewport(c->dev, &(xgd_viewport){ 0, 0, 4, 4, -0.1f, 1 })), A, NOHOOK, NOHOOK)    \
    X(set_viewport, max_depth_above_1,                                                           \
      (xgd_set_viewport(c->dev, &(xgd_viewport){ 0, 0, 4, 4, 0, 1.5f })), A, NOHOOK, NOHOOK)     \
    X(set_viewport, nan_depth,                                                                   \
      (xgd_set_viewport(c->dev, &(xgd_viewport){ 0, 0, 4, 4, NAN, 1 })), A, NOHOOK, NOHOOK)      \
    X(get_viewport, null_device, (xgd_get_viewport(NULL, &c->vp_out)), A, NOHOOK, NOHOOK)        \
    X(get_viewport, null_out, (xgd_get_viewport(c->dev, NULL)), A, NOHOOK, NOHOOK)               \
    X(set_scissor_rect, null_device, (xgd_set_scissor_rect(NULL, (xgd_rect){ 0, 0, 1, 1 })), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(get_scissor_rect, null_device, (xgd_get_scissor_rect(NULL, &c->rect_out)), A, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(get_scissor_rect, null_out, (xgd_get_scissor_rect(c->dev, NULL)), A, NOHOOK, NOHOOK)       \
    X(present, null_device, (xgd_present(NULL)), A, NOHOOK, NOHOOK)                              \
    X(present, target_bound, (xgd_present(c->dev)), OP, bind_rt, unbind_rt)                      \
    X(get_back_buffer_data, null_device, (xgd_get_back_buffer_data(NULL, NULL, c->buf, 4096)),   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(get_back_buffer_data, null_data, (xgd_get_back_buffer_data(c->dev, NULL, NULL, 256)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(get_back_buffer_data, wrong_size, (xgd_get_back_buffer_data(c->dev, NULL, c->buf, 100)),   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(get_back_buffer_data, rect_outside,                                                        \
      (xgd_get_back_buffer_data(c->dev, &(xgd_rect){ 62, 62, 4, 4 }, c->buf, 64)), A, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(get_back_buffer_data, empty_rect,                                                          \
      (xgd_get_back_buffer_data(c->dev, &(xgd_rect){ 0, 0, 0, 4 }, c->buf, 0)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    /* state objects */                                                                          \
    X(blend_state_create, null_device, (xgd_blend_state_create(NULL, NULL, &c->o_bs)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(blend_state_create, null_out, (xgd_blend_state_create(c->dev, NULL, NULL)), A, NOHOOK,     \
      NOHOOK)                                                                                    \
    X(blend_state_create, unknown_blend, (xgd_blend_state_create(c->dev, &c->bsd_blend,          \
      &c->o_bs)), A, NOHOOK, NOHOOK)                                                             \
    X(blend_state_create, unknown_function, (xgd_blend_state_create(c->dev, &c->bsd_func,        \
      &c->o_bs)), A, NOHOOK, NOHOOK)                                                             \
    X(depth_stencil_state_create, null_out, (xgd_depth_stencil_state_create(c->dev, NULL,        \
      NULL)), A, NOHOOK, NOHOOK)                                                                 \
    X(depth_stencil_state_create, unknown_compare, (xgd_depth_stencil_state_create(c->dev,       \
      &c->dsd_cmp, &c->o_dss)), A, NOHOOK, NOHOOK)                                               \
    X(rasterizer_state_create, null_device, (xgd_rasterizer_state_create(NULL, NULL,             \
      &c->o_rs)), A, NOHOOK, NOHOOK)                                                             \
    X(rasterizer_state_create, unknown_cull, (xgd_rasterizer_state_create(c->dev, &c->rsd_cull,  \
      &c->o_rs)), A, NOHOOK, NOHOOK)                                                             \
    X(sampler_state_create, unknown_filter, (xgd_sampler_state_create(c->dev, &c->ssd_filter,    \
      &c->o_ss)), A, NOHOOK, NOHOOK)                                                             \
    X(sampler_state_create, unknown_address, (xgd_sampler_state_create(c->dev, &c->ssd_addr,     \
      &c->o_ss)), A, NOHOOK, NOHOOK)                                                             \
    X(blend_state_preset, null_device, (xgd_blend_state_preset(NULL, 0) == NULL), TRUE_, NOHOOK, \
      NOHOOK)                                                                                    \
    X(blend_state_preset, unknown_preset,                                                        \
      (xgd_blend_state_preset(c->dev, (xgd_blend_preset)99) == NULL), TRUE_, NOHOOK, NOHOOK)     \
    X(depth_stencil_state_preset, unknown_preset,                                                \
      (xgd_depth_stencil_state_preset(c->dev, (xgd_depth_stencil_preset)-1) == NULL), TRUE_,     \
      NOHOOK, NOHOOK)                                                                            \
    X(rasterizer_state_preset, unknown_preset,                                                   \
      (xgd_rasterizer_state_preset(c->dev, (xgd_rasterizer_preset)3) == NULL), TRUE_, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(sampler_state_preset, null_device, (xgd_sampler_state_preset(NULL, 0) == NULL), TRUE_,     \
      NOHOOK, NOHOOK)                                                                            \
    X(sampler_state_preset, unknown_preset,                                                      \
      (xgd_sampler_state_preset(c->dev, (xgd_sampler_preset)6) == NULL), TRUE_, NOHOOK, NOHOOK)  \
    X(blend_state_get_desc, null_state, (xgd_blend_state_get_desc(NULL, &c->bsd_out)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(blend_state_get_desc, null_out, (xgd_blend_state_get_desc(c->bs, NULL)), A, NOHOOK, NOHOOK)\
    X(blend_state_get_desc, disposed, (xgd_blend_state_get_desc(c->s_bs, &c->bsd_out)), DI,      \
      NOHOOK, NOHOOK)                                                                            \
    X(depth_stencil_state_get_desc, disposed,                                                    \
      (xgd_depth_stencil_state_get_desc(c->s_dss, &c->dsd_out)), DI, NOHOOK, NOHOOK)             \
    X(depth_stencil_state_get_desc, null_out, (xgd_depth_stencil_state_get_desc(c->dss, NULL)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(rasterizer_state_get_desc, disposed, (xgd_rasterizer_state_get_desc(c->s_rs, &c->rsd_out)),\
      DI, NOHOOK, NOHOOK)                                                                        \
    X(rasterizer_state_get_desc, null_state, (xgd_rasterizer_state_get_desc(NULL, &c->rsd_out)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(sampler_state_get_desc, disposed, (xgd_sampler_state_get_desc(c->s_ss, &c->ssd_out)), DI,  \
      NOHOOK, NOHOOK)                                                                            \
    X(sampler_state_get_desc, null_out, (xgd_sampler_state_get_desc(c->ss, NULL)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(set_blend_state, null_device, (xgd_set_blend_state(NULL, c->bs)), A, NOHOOK, NOHOOK)       \
    X(set_blend_state, disposed, (xgd_set_blend_state(c->dev, c->s_bs)), DI, NOHOOK, NOHOOK)     \
    X(set_blend_state, foreign, (xgd_set_blend_state(c->dev, c->f_bs)), OP, NOHOOK, NOHOOK)      \
    X(set_depth_stencil_state, disposed, (xgd_set_depth_stencil_state(c->dev, c->s_dss)), DI,    \
      NOHOOK, NOHOOK)                                                                            \
    X(set_depth_stencil_state, foreign, (xgd_set_depth_stencil_state(c->dev, c->f_dss)), OP,     \
      NOHOOK, NOHOOK)                                                                            \
    X(set_rasterizer_state, disposed, (xgd_set_rasterizer_state(c->dev, c->s_rs)), DI, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(set_rasterizer_state, foreign, (xgd_set_rasterizer_state(c->dev, c->f_rs)), OP, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(set_sampler_state, slot_16, (xgd_set_sampler_state(c->dev, 16, c->ss)), A, NOHOOK, NOHOOK) \
    X(set_sampler_state, slot_negative, (xgd_set_sampler_state(c->dev, -1, c->ss)), A, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(set_sampler_state, disposed, (xgd_set_sampler_state(c->dev, 0, c->s_ss)), DI, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(set_sampler_state, foreign, (xgd_set_sampler_state(c->dev, 0, c->f_ss)), OP, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(set_texture, null_device, (xgd_set_texture(NULL, 0, c->tex)), A, NOHOOK, NOHOOK)           \
    X(set_texture, slot_16, (xgd_set_texture(c->dev, 16, c->tex)), A, NOHOOK, NOHOOK)            \
    X(set_texture, disposed, (xgd_set_texture(c->dev, 0, c->s_tex)), DI, NOHOOK, NOHOOK)         \
    X(set_texture, foreign, (xgd_set_texture(c->dev, 0, c->f_tex)), OP, NOHOOK, NOHOOK)          \
    /* vertex declarations and buffers */                                                        \
    X(vertex_declaration_create, null_device, (xgd_vertex_declaration_create(NULL, c->el_ok, 2,  \
      0, &c->o_decl)), A, NOHOOK, NOHOOK)                                                        \
    X(vertex_declaration_create, null_elements, (xgd_vertex_declaration_create(c->dev, NULL, 2,  \
      0, &c->o_decl)), A, NOHOOK, NOHOOK)                                                        \
    X(vertex_declaration_create, zero_count, (xgd_vertex_declaration_create(c->dev, c->el_ok, 0, \
      0, &c->o_decl)), A, NOHOOK, NOHOOK)                                                        \
    X(vertex_declaration_create, overlapping, (xgd_vertex_declaration_create(c->dev,             \
      c->el_overlap, 2, 0, &c->o_decl)), A, NOHOOK, NOHOOK)                                      \
    X(vertex_declaration_create, unknown_format, (xgd_vertex_declaration_create(c->dev,          \
      c->el_fmt, 1, 0, &c->o_decl)), A, NOHOOK, NOHOOK)                                          \
    X(vertex_declaration_create, stride_too_small, (xgd_vertex_declaration_create(c->dev,        \
      c->el_ok, 2, 8, &c->o_decl)), A, NOHOOK, NOHOOK)                                           \
    X(vertex_declaration_create, null_out, (xgd_vertex_declaration_create(c->dev, c->el_ok, 2,   \
      0, NULL)), A, NOHOOK, NOHOOK)                                                              \
    X(vertex_declaration_stock, null_device, (xgd_vertex_declaration_stock(NULL, 0) == NULL),    \
      TRUE_, NOHOOK, NOHOOK)                                                                     \
    X(vertex_declaration_stock, unknown_kind,                                                    \
      (xgd_vertex_declaration_stock(c->dev, (xgd_stock_vertex)9) == NULL), TRUE_, NOHOOK, NOHOOK)\
    X(vertex_buffer_create, null_device, (xgd_vertex_buffer_create(NULL, &c->vbd, &c->o_vb)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_create, null_desc, (xgd_vertex_buffer_create(c->dev, NULL, &c->o_vb)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_create, null_out, (xgd_vertex_buffer_create(c->dev, &c->vbd, NULL)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_create, null_declaration, (xgd_vertex_buffer_create(c->dev,                  \
      &c->vbd_null_decl, &c->o_vb)), A, NOHOOK, NOHOOK)                                          \
    X(vertex_buffer_create, zero_count, (xgd_vertex_buffer_create(c->dev, &c->vbd_zero,          \
      &c->o_vb)), A, NOHOOK, NOHOOK)                                                             \
    X(vertex_buffer_create, disposed_declaration, (xgd_vertex_buffer_create(c->dev,              \
      &c->vbd_shell_decl, &c->o_vb)), DI, NOHOOK, NOHOOK)                                        \
    X(vertex_buffer_create, foreign_declaration, (xgd_vertex_buffer_create(c->dev,               \
      &c->vbd_foreign_decl, &c->o_vb)), OP, NOHOOK, NOHOOK)                                      \
    X(vertex_buffer_set_data, null_buffer, (xgd_vertex_buffer_set_data(NULL, 0, c->buf, 16, 0)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(vertex_buffer_set_data, null_data, (xgd_vertex_buffer_set_data(c->vb, 0, NULL, 16, 0)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_set_data, past_end, (xgd_vertex_buffer_set_data(c->vb, 40, c->buf, 16, 0)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(vertex_buffer_set_data, discard_on_static,                                                 \
      (xgd_vertex_buffer_set_data(c->vb, 0, c->buf, 16, XGD_SET_DATA_DISCARD)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(vertex_buffer_set_data, unknown_option,                                                    \
      (xgd_vertex_buffer_set_data(c->vb, 0, c->buf, 16, (xgd_set_data_options)7)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(vertex_buffer_set_data, disposed, (xgd_vertex_buffer_set_data(c->s_vb, 0, c->buf, 16, 0)), \
      DI, NOHOOK, NOHOOK)                                                                        \
    X(vertex_buffer_get_data, null_buffer, (xgd_vertex_buffer_get_data(NULL, 0, c->buf, 16)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_get_data, write_only, (xgd_vertex_buffer_get_data(c->vb_wo, 0, c->buf, 16)), \
      OP, NOHOOK, NOHOOK)                                                                        \
    X(vertex_buffer_get_data, past_end, (xgd_vertex_buffer_get_data(c->vb, 0, c->buf, 49)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(vertex_buffer_get_data, disposed, (xgd_vertex_buffer_get_data(c->s_vb, 0, c->buf, 16)),    \
      DI, NOHOOK, NOHOOK)                                                                        \
    X(index_buffer_create, null_desc, (xgd_index_buffer_create(c->dev, NULL, &c->o_ib)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_create, null_out, (xgd_index_buffer_create(c->dev, &c->ibd, NULL)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_create, zero_count, (xgd_index_buffer_create(c->dev, &c->ibd_zero,            \
      &c->o_ib)), A, NOHOOK, NOHOOK)                                                             \
    X(index_buffer_create, unknown_element_size, (xgd_index_buffer_create(c->dev, &c->ibd_size,  \
      &c->o_ib)), A, NOHOOK, NOHOOK)                                                             \
    X(index_buffer_set_data, null_buffer, (xgd_index_buffer_set_data(NULL, 0, c->buf, 2, 0)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_set_data, misaligned, (xgd_index_buffer_set_data(c->ib, 1, c->buf, 2, 0)), A, \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_set_data, past_end, (xgd_index_buffer_set_data(c->ib, 4, c->buf, 4, 0)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_set_data, disposed, (xgd_index_buffer_set_data(c->s_ib, 0, c->buf, 2, 0)),    \
      DI, NOHOOK, NOHOOK)                                                                        \
    X(index_buffer_get_data, past_end, (xgd_index_buffer_get_data(c->ib, 0, c->buf, 8)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(index_buffer_get_data, disposed, (xgd_index_buffer_get_data(c->s_ib, 0, c->buf, 2)), DI,   \
      NOHOOK, NOHOOK)                                                                            \
    X(set_vertex_buffer, null_device, (xgd_set_vertex_buffer(NULL, c->vb, 0)), A, NOHOOK,        \
      NOHOOK)                                                                                    \
    X(set_vertex_buffer, disposed, (xgd_set_vertex_buffer(c->dev, c->s_vb, 0)), DI, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(set_vertex_buffer, foreign, (xgd_set_vertex_buffer(c->dev, c->f_vb, 0)), OP, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(set_vertex_buffer, negative_offset, (xgd_set_vertex_buffer(c->dev, c->vb, -1)), OR, NOHOOK, \
      NOHOOK)                                                                                    \
    X(set_indices, null_device, (xgd_set_indices(NULL, c->ib)), A, NOHOOK, NOHOOK)               \
    X(set_indices, disposed, (xgd_set_indices(c->dev, c->s_ib)), DI, NOHOOK, NOHOOK)             \
    X(set_indices, foreign, (xgd_set_indices(c->dev, c->f_ib)), OP, NOHOOK, NOHOOK)              \
    /* drawing */                                                                                \
    X(draw_primitives, null_device, (xgd_draw_primitives(NULL, 0, 0, 1)), A, NOHOOK, NOHOOK)     \
    X(draw_primitives, no_effect_no_buffer, (xgd_draw_primitives(c->fresh, 0, 0, 1)), OP,        \
      NOHOOK, NOHOOK)                                                                            \
    X(draw_primitives, unknown_type, (xgd_draw_primitives(c->dev, XGD_PRIMITIVE_COUNT, 0, 1)),   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(draw_primitives, zero_count, (xgd_draw_primitives(c->dev, 0, 0, 0)), A, NOHOOK, NOHOOK)    \
    X(draw_primitives, past_buffer_end, (xgd_draw_primitives(c->dev, 0, 0, 2)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(draw_primitives, negative_start, (xgd_draw_primitives(c->dev, 0, -3, 1)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(draw_indexed_primitives, null_device, (xgd_draw_indexed_primitives(NULL, 0, 0, 0, 3, 0,    \
      1)), A, NOHOOK, NOHOOK)                                                                    \
    X(draw_indexed_primitives, no_index_buffer, (xgd_draw_indexed_primitives(c->dev, 0, 0, 0, 3, \
      0, 1)), OP, NOHOOK, NOHOOK)                                                                \
    X(draw_user_primitives, null_device, (xgd_draw_user_primitives(NULL, 0, c->tri, 0, 1,        \
      c->decl)), A, NOHOOK, NOHOOK)                                                              \
    X(draw_user_primitives, null_vertices, (xgd_draw_user_primitives(c->dev, 0, NULL, 0, 1,      \
      c->decl)), A, NOHOOK, NOHOOK)                                                              \
    X(draw_user_primitives, null_declaration, (xgd_draw_user_primitives(c->dev, 0, c->tri, 0, 1, \
      NULL)), A, NOHOOK, NOHOOK)                                                                 \
    X(draw_user_primitives, zero_count, (xgd_draw_user_primitives(c->dev, 0, c->tri, 0, 0,       \
      c->decl)), A, NOHOOK, NOHOOK)                                                              \
    X(draw_user_primitives, unknown_type, (xgd_draw_user_primitives(c->dev, XGD_PRIMITIVE_COUNT, \
      c->tri, 0, 1, c->decl)), A, NOHOOK, NOHOOK)                                                \
    X(draw_user_primitives, disposed_declaration, (xgd_draw_user_primitives(c->dev, 0, c->tri,   \
      0, 1, c->s_decl)), DI, NOHOOK, NOHOOK)                                                     \
    X(draw_user_primitives, foreign_declaration, (xgd_draw_user_primitives(c->dev, 0, c->tri, 0, \
      1, c->f_decl)), OP, NOHOOK, NOHOOK)                                                        \
    X(draw_user_primitives, no_effect, (xgd_draw_user_primitives(c->fresh, 0, c->tri, 0, 1,      \
      xgd_vertex_declaration_stock(c->fresh, XGD_VERTEX_POSITION_COLOR))), OP, NOHOOK, NOHOOK)   \
    X(draw_user_indexed_primitives, null_indices, (xgd_draw_user_indexed_primitives(c->dev, 0,   \
      c->tri, 0, 3, NULL, 0, 1, XGD_INDEX_SIXTEEN_BITS, c->decl)), A, NOHOOK, NOHOOK)            \
    X(draw_user_indexed_primitives, null_vertices, (xgd_draw_user_indexed_primitives(c->dev, 0,  \
      NULL, 0, 3, c->idx, 0, 1, XGD_INDEX_SIXTEEN_BITS, c->decl)), A, NOHOOK, NOHOOK)            \
    X(draw_user_indexed_primitives, unknown_index_size, (xgd_draw_user_indexed_primitives(c->dev,\
      0, c->tri, 0, 3, c->idx, 0, 1, (xgd_index_element_size)9, c->decl)), A, NOHOOK, NOHOOK)    \
    X(draw_user_indexed_primitives, zero_count, (xgd_draw_user_indexed_primitives(c->dev, 0,     \
      c->tri, 0, 3, c->idx, 0, 0, XGD_INDEX_SIXTEEN_BITS, c->decl)), A, NOHOOK, NOHOOK)          \
    /* stock effects */                                                                          \
    X(basic_effect_create, null_device, (xgd_basic_effect_create(NULL, &c->o_fx)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(basic_effect_create, null_out, (xgd_basic_effect_create(c->dev, NULL)), A, NOHOOK, NOHOOK) \
    X(sprite_effect_create, null_device, (xgd_sprite_effect_create(NULL, &c->o_fx)), A, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(sprite_effect_create, null_out, (xgd_sprite_effect_create(c->dev, NULL)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(effect_apply, null_effect, (xgd_effect_apply(NULL)), A, NOHOOK, NOHOOK)                    \
    X(effect_apply, disposed, (xgd_effect_apply(c->s_fx)), DI, NOHOOK, NOHOOK)                   \
    X(basic_effect_get, null_effect, (xgd_basic_effect_get(NULL, &c->params_out)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(basic_effect_get, null_out, (xgd_basic_effect_get(c->basic, NULL)), A, NOHOOK, NOHOOK)     \
    X(basic_effect_get, sprite_effect, (xgd_basic_effect_get(c->sprite_fx, &c->params_out)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(basic_effect_get, disposed, (xgd_basic_effect_get(c->s_fx, &c->params_out)), DI, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(basic_effect_set, null_params, (xgd_basic_effect_set(c->basic, NULL)), A, NOHOOK, NOHOOK)  \
    X(basic_effect_set, nan_alpha, (xgd_basic_effect_set(c->basic, &c->params_nan)), A, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(basic_effect_set, sprite_effect, (xgd_basic_effect_set(c->sprite_fx, &c->params_out)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(basic_effect_set_world, null_matrix, (xgd_basic_effect_set_world(c->basic, NULL)), A,      \
      NOHOOK, NOHOOK)                                                                            \
    X(basic_effect_set_world, sprite_effect, (xgd_basic_effect_set_world(c->sprite_fx,           \
      &c->identity)), A, NOHOOK, NOHOOK)                                                         \
    X(basic_effect_set_view, null_matrix, (xgd_basic_effect_set_view(c->basic, NULL)), A,        \
      NOHOOK, NOHOOK)                                                                            \
    X(basic_effect_set_projection, null_matrix, (xgd_basic_effect_set_projection(c->basic,       \
      NULL)), A, NOHOOK, NOHOOK)                                                                 \
    X(basic_effect_set_texture, disposed_texture, (xgd_basic_effect_set_texture(c->basic,        \
      c->s_tex)), DI, NOHOOK, NOHOOK)                                                            \
    X(basic_effect_set_texture, foreign_texture, (xgd_basic_effect_set_texture(c->basic,         \
      c->f_tex)), OP, NOHOOK, NOHOOK)                                                            \
    X(basic_effect_set_texture, sprite_effect, (xgd_basic_effect_set_texture(c->sprite_fx,       \
      c->tex)), A, NOHOOK, NOHOOK)                                                               \
    X(basic_effect_enable_default_lighting, null_effect,                                         \
      (xgd_basic_effect_enable_default_lighting(NULL)), A, NOHOOK, NOHOOK)                       \
    X(basic_effect_enable_default_lighting, sprite_effect,                                       \
      (xgd_basic_effect_enable_default_lighting(c->sprite_fx)), A, NOHOOK, NOHOOK)               \
    X(sprite_effect_set_matrix, null_effect, (xgd_sprite_effect_set_matrix(NULL, &c->identity)), \
      A, NOHOOK, NOHOOK)                                                                         \
    X(sprite_effect_set_matrix, basic_effect, (xgd_sprite_effect_set_matrix(c->basic,            \
      &c->identity)), A, NOHOOK, NOHOOK)                                                         \
    /* VolumeEffect (EXT) */                                                                     \
    X(volume_effect_create, null_device, (xgd_volume_effect_create(NULL, &c->o_fx)), A, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(volume_effect_create, null_out, (xgd_volume_effect_create(c->dev, NULL)), A, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(volume_effect_set_matrix, null_effect, (xgd_volume_effect_set_matrix(NULL,                 \
      &c->identity)), A, NOHOOK, NOHOOK)                                                         \
    X(volume_effect_set_matrix, basic_effect, (xgd_volume_effect_set_matrix(c->basic,            \
      &c->identity)), A, NOHOOK, NOHOOK)                                                         \
    X(volume_effect_set_matrix, disposed, (xgd_volume_effect_set_matrix(c->s_fx, NULL)), DI,     \
      NOHOOK, NOHOOK)                                                                            \
    X(volume_effect_set_texture, null_effect, (xgd_volume_effect_set_texture(NULL, c->vol)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(volume_effect_set_texture, texture2d, (xgd_volume_effect_set_texture(c->volume_fx,         \
      c->tex)), A, NOHOOK, NOHOOK)                                                               \
    X(volume_effect_set_texture, render_target, (xgd_volume_effect_set_texture(c->volume_fx,     \
      c->rt)), A, NOHOOK, NOHOOK)                                                                \
    X(volume_effect_set_texture, disposed_texture, (xgd_volume_effect_set_texture(c->volume_fx,  \
      c->s_tex)), DI, NOHOOK, NOHOOK)                                                            \
    X(volume_effect_set_texture, foreign_texture, (xgd_volume_effect_set_texture(c->volume_fx,   \
      c->f_tex)), OP, NOHOOK, NOHOOK)                                                            \
    X(volume_effect_set_texture, sprite_effect, (xgd_volume_effect_set_texture(c->sprite_fx,     \
      c->vol)), A, NOHOOK, NOHOOK)                                                               \
    X(volume_effect_set_color, null_effect, (xgd_volume_effect_set_color(NULL,                   \
      (xgd_vector4){ 1, 1, 1, 1 })), A, NOHOOK, NOHOOK)                                          \
    X(volume_effect_set_color, non_finite, (xgd_volume_effect_set_color(c->volume_fx,            \
      c->color_nan)), A, NOHOOK, NOHOOK)                                                         \
    X(basic_effect_set_texture, texture3d, (xgd_basic_effect_set_texture(c->basic, c->vol)), A,  \
      NOHOOK, NOHOOK)                                                                            \
    X(set_render_target, texture3d, (xgd_set_render_target(c->dev, c->vol)), OP, NOHOOK, NOHOOK) \
    /* SpriteBatch */                                                                            \
    X(sprite_batch_create, null_device, (xgd_sprite_batch_create(NULL, &c->o_sb)), A, NOHOOK,    \
      NOHOOK)                                                                                    \
    X(sprite_batch_create, null_out, (xgd_sprite_batch_create(c->dev, NULL)), A, NOHOOK, NOHOOK) \
    X(sprite_batch_begin, null_batch, (xgd_sprite_batch_begin(NULL, NULL)), A, NOHOOK, NOHOOK)   \
    X(sprite_batch_begin, twice, (xgd_sprite_batch_begin(c->sb, NULL)), OP, begin_batch,         \
      end_batch)                                                                                 \
    X(sprite_batch_begin, disposed, (xgd_sprite_batch_begin(c->s_sb, NULL)), DI, NOHOOK, NOHOOK) \
    X(sprite_batch_begin, disposed_state, (xgd_sprite_batch_begin(c->sb, &c->sbd_shell_state)),  \
      DI, NOHOOK, NOHOOK)                                                                        \
    X(sprite_batch_begin, unknown_sort_mode, (xgd_sprite_batch_begin(c->sb, &c->sbd_sort)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(sprite_batch_draw, without_begin, (xgd_sprite_batch_draw(c->sb, c->tex, &c->sprite)), OP,  \
      NOHOOK, NOHOOK)                                                                            \
    X(sprite_batch_draw, null_texture, (xgd_sprite_batch_draw(c->sb, NULL, &c->sprite)), A,      \
      begin_batch, end_batch)                                                                    \
    X(sprite_batch_draw, null_sprite, (xgd_sprite_batch_draw(c->sb, c->tex, NULL)), A,           \
      begin_batch, end_batch)                                                                    \
    X(sprite_batch_draw, disposed_texture, (xgd_sprite_batch_draw(c->sb, c->s_tex, &c->sprite)), \
      DI, begin_batch, end_batch)                                                                \
    X(sprite_batch_draw, null_batch, (xgd_sprite_batch_draw(NULL, c->tex, &c->sprite)), A,       \
      NOHOOK, NOHOOK)                                                                            \
    X(sprite_batch_end, without_begin, (xgd_sprite_batch_end(c->sb)), OP, NOHOOK, NOHOOK)        \
    X(sprite_batch_end, null_batch, (xgd_sprite_batch_end(NULL)), A, NOHOOK, NOHOOK)             \
    X(sprite_batch_end, disposed, (xgd_sprite_batch_end(c->s_sb)), DI, NOHOOK, NOHOOK)           \
    X(sprite_batch_get_device, null_batch, (xgd_sprite_batch_get_device(NULL, &c->dev_out)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(sprite_batch_get_device, null_out, (xgd_sprite_batch_get_device(c->sb, NULL)), A, NOHOOK,  \
      NOHOOK)                                                                                    \
    X(sprite_batch_get_device, disposed, (xgd_sprite_batch_get_device(c->s_sb, &c->dev_out)), DI,  \
      NOHOOK, NOHOOK)                                                                            \
    X(sprite_batch_get_device, not_a_batch, (xgd_sprite_batch_get_device(                        \
                                                (xgd_sprite_batch *)c->tex, &c->dev_out)),         \
      A, NOHOOK, NOHOOK)                                                                         \
    /* libraries layered on xgd */                                                               \
    X(resource_register, null_device, (xgd_resource_register(NULL, &k_row_class, c,              \
                                                             &c->obj_out)),                      \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_register, null_class, (xgd_resource_register(c->dev, NULL, c, &c->obj_out)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(resource_register, null_object, (xgd_resource_register(c->dev, &k_row_class, NULL,         \
                                                             &c->obj_out)),                      \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_register, null_out, (xgd_resource_register(c->dev, &k_row_class, c, NULL)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(resource_resolve, null_handle, (xgd_resource_resolve(c->dev, NULL, &k_row_class, NULL,     \
                                                           &c->obj_out, NULL)),                  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_resolve, another_class, (xgd_resource_resolve(c->dev, c->sb, &k_row_class, NULL,  \
                                                             &c->obj_out, NULL)),                \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_resolve, null_out, (xgd_resource_resolve(c->dev, c->sb, &k_row_class, NULL, NULL, \
                                                        NULL)),                                  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_check, null_device, (xgd_resource_check(NULL, c->tex, XGD_RESOURCE_TEXTURE,       \
                                                       NULL)),                                   \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_check, null_resource, (xgd_resource_check(c->dev, NULL, XGD_RESOURCE_TEXTURE,     \
                                                         NULL)),                                 \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_check, unknown_kind, (xgd_resource_check(c->dev, c->tex, (xgd_resource_kind)77,   \
                                                        NULL)),                                  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_check, wrong_kind, (xgd_resource_check(c->dev, c->bs, XGD_RESOURCE_TEXTURE,       \
                                                      NULL)),                                    \
      A, NOHOOK, NOHOOK)                                                                         \
    X(resource_check, disposed, (xgd_resource_check(c->dev, c->s_tex, XGD_RESOURCE_TEXTURE,      \
                                                    NULL)),                                      \
      DI, NOHOOK, NOHOOK)                                                                        \
    X(resource_check, foreign, (xgd_resource_check(c->dev, c->f_tex, XGD_RESOURCE_TEXTURE,       \
                                                   NULL)),                                       \
      OP, NOHOOK, NOHOOK)                                                                        \
    X(device_check_status, null_device, (xgd_device_check_status(NULL)), A, NOHOOK, NOHOOK)      \
    X(device_check_sampling, null_device, (xgd_device_check_sampling(NULL, c->tex, NULL)), A,    \
      NOHOOK, NOHOOK)                                                                            \
    X(device_check_sampling, null_texture, (xgd_device_check_sampling(c->dev, NULL, NULL)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(device_check_sampling, disposed, (xgd_device_check_sampling(c->dev, c->s_tex, NULL)), DI,  \
      NOHOOK, NOHOOK)                                                                            \
    X(device_check_sampling, foreign, (xgd_device_check_sampling(c->dev, c->f_tex, NULL)), OP,   \
      NOHOOK, NOHOOK)                                                                            \
    X(device_check_sampling, wrong_sampler, (xgd_device_check_sampling(                          \
                                                c->dev, c->tex, (xgd_sampler_state *)c->bs)),    \
      A, NOHOOK, NOHOOK)                                                                         \
    X(device_check_sampling, bound_target, (xgd_device_check_sampling(c->dev, c->rt, NULL)), OP, \
      bind_rt, unbind_rt)                                                                        \
    /* occlusion queries */                                                                      \
    X(occlusion_query_create, null_device, (xgd_occlusion_query_create(NULL, &c->o_query)), A,   \
      NOHOOK, NOHOOK)                                                                            \
    X(occlusion_query_create, null_out, (xgd_occlusion_query_create(c->dev, NULL)), A, NOHOOK,   \
      NOHOOK)                                                                                    \
    X(occlusion_query_create, reach_profile, (xgd_occlusion_query_create(c->reach,               \
      &c->o_query)), NS, NOHOOK, NOHOOK)                                                         \
    X(occlusion_query_begin, null_query, (xgd_occlusion_query_begin(NULL)), A, NOHOOK, NOHOOK)   \
    X(occlusion_query_begin, disposed, (xgd_occlusion_query_begin(c->s_query)), DI, NOHOOK,      \
      NOHOOK)                                                                                    \
    X(occlusion_query_begin, already_active, (xgd_occlusion_query_begin(c->query_busy)), OP,     \
      begin_busy, end_busy)                                                                      \
    X(occlusion_query_begin, another_active, (xgd_occlusion_query_begin(c->query)), OP,          \
      begin_busy, end_busy)                                                                      \
    X(occlusion_query_end, null_query, (xgd_occlusion_query_end(NULL)), A, NOHOOK, NOHOOK)       \
    X(occlusion_query_end, disposed, (xgd_occlusion_query_end(c->s_query)), DI, NOHOOK, NOHOOK)  \
    X(occlusion_query_end, never_begun, (xgd_occlusion_query_end(c->query_new)), OP, NOHOOK,     \
      NOHOOK)                                                                                    \
    X(occlusion_query_end, already_ended, (xgd_occlusion_query_end(c->query)), OP, NOHOOK,       \
      NOHOOK)                                                                                    \
    X(occlusion_query_end, another_active, (xgd_occlusion_query_end(c->query)), OP, begin_busy,  \
      end_busy)                                                                                  \
    X(occlusion_query_is_complete, null_query, (xgd_occlusion_query_is_complete(NULL,            \
      &c->done_out)), A, NOHOOK, NOHOOK)                                                         \
    X(occlusion_query_is_complete, null_out, (xgd_occlusion_query_is_complete(c->query, NULL)),  \
      A, NOHOOK, NOHOOK)                                                                         \
    X(occlusion_query_is_complete, disposed, (xgd_occlusion_query_is_complete(c->s_query,        \
      &c->done_out)), DI, NOHOOK, NOHOOK)                                                        \
    X(occlusion_query_is_complete, never_ended, (xgd_occlusion_query_is_complete(c->query_new,   \
      &c->done_out)), OP, NOHOOK, NOHOOK)                                                        \
    X(occlusion_query_is_complete, active, (xgd_occlusion_query_is_complete(c->query_busy,       \
      &c->done_out)), OP, begin_busy, end_busy)                                                  \
    X(occlusion_query_get_pixel_count, null_query, (xgd_occlusion_query_get_pixel_count(NULL,    \
      true, &c->pixels_out)), A, NOHOOK, NOHOOK)                                                 \
    X(occlusion_query_get_pixel_count, null_out, (xgd_occlusion_query_get_pixel_count(c->query,  \
      true, NULL)), A, NOHOOK, NOHOOK)                                                           \
    X(occlusion_query_get_pixel_count, disposed, (xgd_occlusion_query_get_pixel_count(           \
      c->s_query, true, &c->pixels_out)), DI, NOHOOK, NOHOOK)                                    \
    X(occlusion_query_get_pixel_count, never_ended, (xgd_occlusion_query_get_pixel_count(        \
      c->query_new, true, &c->pixels_out)), OP, NOHOOK, NOHOOK)                                  \
    X(occlusion_query_get_pixel_count, active, (xgd_occlusion_query_get_pixel_count(             \
      c->query_busy, false, &c->pixels_out)), OP, begin_busy, end_busy)                          \
    /* math */                                                                                   \
    X(matrix_invert, singular, (!xgd_matrix_invert(&c->zero_matrix, &c->inverted) &&             \
      memcmp(&c->inverted, &c->identity, sizeof c->identity) == 0), TRUE_, NOHOOK, NOHOOK)

#define DEFINE_ROW_FN(entry, kase, expr, expected, setup, teardown)                              \
    static long long row_##entry##__##kase(bad_ctx *c)                                           \
    {                                                                                            \
        (void)c;                                                                                 \
        return (long long)expr;                                                                  \
    }
BAD_INPUT_ROWS(DEFINE_ROW_FN)

typedef struct bad_row {
    const char *entry, *kase;
    long long (*call)(bad_ctx *c);
    long long expected;
    hook_fn setup, teardown;
} bad_row;

#define ROW_ENTRY(entry, kase, expr, expected, setup, teardown)                                  \
    { #entry, #kase, row_##entry##__##kase, (long long)(expected), setup, teardown },
static const bad_row k_rows[] = { BAD_INPUT_ROWS(ROW_ENTRY) };

/* ---- context -------------------------------------------------------------------------------- */

static bool make_objects(xgdt_ctx *t, xgd_device *dev, xgd_texture **tex, xgd_texture **rt,
                         xgd_vertex_declaration **decl, xgd_vertex_buffer **vb,
                         xgd_index_buffer **ib, xgd_blend_state **bs,
                         xgd_depth_stencil_state **dss, xgd_rasterizer_state **rs,
                         xgd_sampler_state **ss)
{
    const xgd_vertex_element el[] = {
        { 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION, 0 },
        { 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 },
    };
    bool ok = true;
#define MAKE(expr)                                                                               \
    do {                                                                                         \
        xgd_result r_ = (expr);                                                                  \
        if (r_ != XGD_OK) {                                                                      \
            xgdt_fail_at(t, __FILE__, __LINE__, "%s: %s (%s)", #expr, xgd_result_name(r_),        \
                         xgd_device_last_error(dev));                                            \
            ok = false;                                                                          \
        }                                                                                        \
    } while (0)
    MAKE(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 4, .height = 4,
                              .mipmap = true }, tex));
    MAKE(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = 4, .height = 4 },
                                    rt));
    MAKE(xgd_vertex_declaration_create(dev, el, 2, 0, decl));
    if (*decl)
        MAKE(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){ .declaration = *decl,
                                      .vertex_count = 3 }, vb));
    MAKE(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 3 }, ib));
    MAKE(xgd_blend_state_create(dev, NULL, bs));
    MAKE(xgd_depth_stencil_state_create(dev, NULL, dss));
    MAKE(xgd_rasterizer_state_create(dev, NULL, rs));
    MAKE(xgd_sampler_state_create(dev, NULL, ss));
    return ok;
}

static bool ctx_init(xgdt_ctx *t, bad_ctx *c)
{
    memset(c, 0, sizeof *c);
    c->dev = xgdt_device(t, NULL); /* 64x64, Depth24 */
    c->other = xgdt_device(t, NULL);
    c->fresh = xgdt_device(t, NULL);
    xgd_device *gone = xgdt_device(t, NULL);
    if (!c->dev || !c->other || !c->fresh || !gone) {
        xgd_device_destroy(gone);
        return false;
    }
    bool ok = make_objects(t, c->dev, &c->tex, &c->rt, &c->decl, &c->vb, &c->ib, &c->bs, &c->dss,
                           &c->rs, &c->ss);
    ok &= make_objects(t, c->other, &c->f_tex, &c->f_rt, &c->f_decl, &c->f_vb, &c->f_ib, &c->f_bs,
                       &c->f_dss, &c->f_rs, &c->f_ss);
    ok &= make_objects(t, gone, &c->s_tex, &c->s_rt, &c->s_decl, &c->s_vb, &c->s_ib, &c->s_bs,
                       &c->s_dss, &c->s_rs, &c->s_ss);
    ok &= xgd_basic_effect_create(gone, &c->s_fx) == XGD_OK;
    /* a missing SpriteBatch skips its rows (reported once) instead of hiding every other row */
    xgd_sprite_batch_create(gone, &c->s_sb);
    ok &= xgd_occlusion_query_create(gone, &c->s_query) == XGD_OK;
    xgd_device_destroy(gone); /* the s_ objects are shells from here on */
    c->reach = xgdt_device(t, &(xgd_device_desc){ .profile = XGD_GRAPHICS_PROFILE_REACH,
                                                          .context_recovery = true });
    ok &= c->reach != NULL;
    /* query: ended with a result (0: nothing drawn) that failed calls must leave alone */
    ok &= xgd_occlusion_query_create(c->dev, &c->query) == XGD_OK &&
          xgd_occlusion_query_begin(c->query) == XGD_OK &&
          xgd_occlusion_query_end(c->query) == XGD_OK;
    ok &= xgd_occlusion_query_create(c->dev, &c->query_new) == XGD_OK;
    ok &= xgd_occlusion_query_create(c->dev, &c->query_busy) == XGD_OK;

    ok &= xgd_render_target2d_create(c->dev, &(xgd_render_target_desc){ .width = 2, .height = 4 },
                                     &c->rt_small) == XGD_OK;
    ok &= xgd_texture_cube_create(c->dev, &(xgd_texture_cube_desc){ .size = 4 }, &c->cube) ==
          XGD_OK;
    ok &= xgd_render_target_cube_create(c->dev, &(xgd_render_target_desc){ .width = 4 },
                                        &c->cube_rt) == XGD_OK;
    ok &= xgd_texture3d_create(c->dev, &(xgd_texture3d_desc){ .width = 4, .height = 4,
                                                              .depth = 2 }, &c->vol) == XGD_OK;
    ok &= xgd_volume_effect_create(c->dev, &c->volume_fx) == XGD_OK;
    ok &= xgd_vertex_buffer_create(c->dev, &(xgd_vertex_buffer_desc){ .declaration = c->decl,
                                   .vertex_count = 3, .write_only = true }, &c->vb_wo) == XGD_OK;
    ok &= xgd_basic_effect_create(c->dev, &c->basic) == XGD_OK;
    ok &= xgd_sprite_effect_create(c->dev, &c->sprite_fx) == XGD_OK;
    xgd_sprite_batch_create(c->dev, &c->sb);
    if (!ok) return false;

    /* the main device: an effect applied and a 3-vertex buffer bound, so that draw rows reach
       their argument checks */
    c->tri[0] = (xgd_vertex_position_color){ { -1, -1, 0 }, { 255, 255, 255, 255 } };
    c->tri[1] = (xgd_vertex_position_color){ { 0, 1, 0 }, { 255, 255, 255, 255 } };
    c->tri[2] = (xgd_vertex_position_color){ { 1, -1, 0 }, { 255, 255, 255, 255 } };
    c->idx[0] = 0;
    c->idx[1] = 1;
    c->idx[2] = 2;
    ok &= xgd_vertex_buffer_set_data(c->vb, 0, c->tri, sizeof c->tri, XGD_SET_DATA_NONE) == XGD_OK;
    ok &= xgd_effect_apply(c->basic) == XGD_OK;
    ok &= xgd_set_vertex_buffer(c->dev, c->vb, 0) == XGD_OK;

    c->dd.renderer = XGD_RENDERER_SOFTWARE;
    c->dd.pp.headless = true;
    xgd_device_info info;
    ok &= xgd_device_get_info(c->dev, &info) == XGD_OK;
    c->pp_zero = info.pp;
    c->pp_zero.back_buffer_width = -1; /* 0 would mean the default */
    c->pp_depth = info.pp;
    c->pp_depth.depth_stencil_format = XGD_DEPTH_FORMAT_COUNT;
    c->pp_huge = info.pp;
    c->pp_huge.back_buffer_width = 5000;

    c->td = (xgd_texture2d_desc){ .width = 4, .height = 4 };
    c->td_zero = (xgd_texture2d_desc){ .width = 0, .height = 4 };
    c->td_neg = (xgd_texture2d_desc){ .width = 4, .height = -4 };
    c->td_fmt = (xgd_texture2d_desc){ .width = 4, .height = 4,
                                      .format = XGD_SURFACE_FORMAT_COUNT };
    c->cd = (xgd_texture_cube_desc){ .size = 4 };
    c->cd_zero = (xgd_texture_cube_desc){ .size = 0 };
    c->cd_fmt = (xgd_texture_cube_desc){ .size = 4, .format = (xgd_surface_format)77 };
    c->t3d = (xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 2 };
    c->t3d_zero = (xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 0 };
    c->t3d_big = (xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 257 };
    c->t3d_fmt = (xgd_texture3d_desc){ .width = 4, .height = 4, .depth = 2,
                                       .format = XGD_SURFACE_FORMAT_COUNT };
    c->color_nan = (xgd_vector4){ 1, NAN, 1, 1 };
    c->rd = (xgd_render_target_desc){ .width = 4, .height = 4 };
    c->rd_zero = (xgd_render_target_desc){ .width = 0, .height = 4 };
    c->rd_depth = c->rd;
    c->rd_depth.preferred_depth_format = (xgd_depth_format)42;
    c->rd_usage = c->rd;
    c->rd_usage.usage = (xgd_render_target_usage)42;
    c->rd_msaa = c->rd;
    c->rd_msaa.preferred_multisample_count = -4;
    c->rd_fmt = c->rd;
    c->rd_fmt.preferred_format = XGD_SURFACE_FORMAT_COUNT;
    c->bsd_blend.target[0].color_source_blend = XGD_BLEND_COUNT;
    c->bsd_func.target[0].alpha_blend_function = XGD_BLEND_FUNCTION_COUNT;
    c->dsd_cmp.depth_function = XGD_COMPARE_COUNT;
    c->rsd_cull.cull_mode = XGD_CULL_COUNT;
    c->ssd_filter.filter = XGD_FILTER_COUNT;
    c->ssd_addr.address_u = XGD_ADDRESS_COUNT;
    c->el_ok[0] = (xgd_vertex_element){ 0, XGD_VERTEX_FORMAT_VECTOR3, XGD_VERTEX_USAGE_POSITION,
                                        0 };
    c->el_ok[1] = (xgd_vertex_element){ 12, XGD_VERTEX_FORMAT_COLOR, XGD_VERTEX_USAGE_COLOR, 0 };
    c->el_overlap[0] = c->el_ok[0];
    c->el_overlap[1] = c->el_ok[1];
    c->el_overlap[1].offset = 4;
    c->el_fmt[0] = c->el_ok[0];
    c->el_fmt[0].format = XGD_VERTEX_FORMAT_COUNT;
    c->vbd = (xgd_vertex_buffer_desc){ .declaration = c->decl, .vertex_count = 3 };
    c->vbd_null_decl = (xgd_vertex_buffer_desc){ .declaration = NULL, .vertex_count = 3 };
    c->vbd_zero = (xgd_vertex_buffer_desc){ .declaration = c->decl, .vertex_count = 0 };
    c->vbd_shell_decl = (xgd_vertex_buffer_desc){ .declaration = c->s_decl, .vertex_count = 3 };
    c->vbd_foreign_decl = (xgd_vertex_buffer_desc){ .declaration = c->f_decl, .vertex_count = 3 };
    c->ibd = (xgd_index_buffer_desc){ .index_count = 3 };
    c->ibd_zero = (xgd_index_buffer_desc){ .index_count = 0 };
    c->ibd_size = (xgd_index_buffer_desc){ .index_count = 3,
                                           .element_size = (xgd_index_element_size)3 };
    ok &= xgd_basic_effect_get(c->basic, &c->params_nan) == XGD_OK;
    c->params_out = c->params_nan;
    c->params_nan.alpha = NAN;
    c->sbd_shell_state = (xgd_sprite_batch_begin_desc){ .blend_state = c->s_bs };
    c->sbd_sort = (xgd_sprite_batch_begin_desc){ .sort_mode = (xgd_sprite_sort_mode)17 };
    c->sprite = (xgd_sprite){ .position = { 1, 1 }, .color = XGD_COLOR_WHITE, .scale = { 1, 1 } };
    c->identity = xgd_matrix_identity();
    memset(&c->zero_matrix, 0, sizeof c->zero_matrix);
    for (size_t i = 0; i < sizeof c->buf; i++) c->buf[i] = (uint8_t)i;

    const char *dir = getenv("TMPDIR");
    if (!dir || !dir[0]) dir = "/tmp";
    snprintf(c->missing_path, sizeof c->missing_path, "%s/xgd-unit-no-such-file-%p.png", dir,
             (void *)c);
    snprintf(c->bad_dir_path, sizeof c->bad_dir_path, "%s/xgd-unit-no-such-dir-%p/x.png", dir,
             (void *)c);
    return ok;
}

static void ctx_free(bad_ctx *c)
{
    xgd_texture *texs[] = { c->tex, c->rt, c->rt_small, c->cube, c->cube_rt, c->f_tex, c->f_rt,
                            c->s_tex, c->s_rt, c->vol };
    for (size_t i = 0; i < sizeof texs / sizeof texs[0]; i++) xgd_texture_destroy(texs[i]);
    xgd_vertex_buffer_destroy(c->vb);
    xgd_vertex_buffer_destroy(c->vb_wo);
    xgd_vertex_buffer_destroy(c->f_vb);
    xgd_vertex_buffer_destroy(c->s_vb);
    xgd_index_buffer_destroy(c->ib);
    xgd_index_buffer_destroy(c->f_ib);
    xgd_index_buffer_destroy(c->s_ib);
    xgd_vertex_declaration_destroy(c->decl);
    xgd_vertex_declaration_destroy(c->f_decl);
    xgd_vertex_declaration_destroy(c->s_decl);
    xgd_blend_state_destroy(c->bs);
    xgd_blend_state_destroy(c->f_bs);
    xgd_blend_state_destroy(c->s_bs);
    xgd_depth_stencil_state_destroy(c->dss);
    xgd_depth_stencil_state_destroy(c->f_dss);
    xgd_depth_stencil_state_destroy(c->s_dss);
    xgd_rasterizer_state_destroy(c->rs);
    xgd_rasterizer_state_destroy(c->f_rs);
    xgd_rasterizer_state_destroy(c->s_rs);
    xgd_sampler_state_destroy(c->ss);
    xgd_sampler_state_destroy(c->f_ss);
    xgd_sampler_state_destroy(c->s_ss);
    xgd_effect_destroy(c->basic);
    xgd_effect_destroy(c->sprite_fx);
    xgd_effect_destroy(c->volume_fx);
    xgd_effect_destroy(c->s_fx);
    xgd_sprite_batch_destroy(c->sb);
    xgd_sprite_batch_destroy(c->s_sb);
    xgd_occlusion_query_destroy(c->query);
    xgd_occlusion_query_destroy(c->query_new);
    xgd_occlusion_query_destroy(c->query_busy);
    xgd_occlusion_query_destroy(c->s_query);
    xgd_device_destroy(c->dev);
    xgd_device_destroy(c->other);
    xgd_device_destroy(c->fresh);
    xgd_device_destroy(c->reach);
}

/* ---- the public state a failed call must leave alone ---------------------------------------- */

typedef struct bad_snap {
    xgd_statistics st[3];
    xgd_viewport vp;
    xgd_rect scissor;
    int count;
    xgd_texture *targets[4];
    int faces[4];
    bool bound;
    xgd_result query_r, query_new_r;   /* occlusion queries: result read / never ended */
    uint64_t query_count;
} bad_snap;

static void take(bad_ctx *c, bad_snap *s)
{
    memset(s, 0, sizeof *s);
    xgd_device *devs[3] = { c->dev, c->other, c->fresh };
    for (int i = 0; i < 3; i++) xgd_device_get_statistics(devs[i], &s->st[i]);
    xgd_get_viewport(c->dev, &s->vp);
    xgd_get_scissor_rect(c->dev, &s->scissor);
    xgd_render_target_binding b[4];
    memset(b, 0, sizeof b);
    xgd_get_render_targets(c->dev, b, 4, &s->count);
    for (int i = 0; i < 4; i++) {
        s->targets[i] = b[i].target;
        s->faces[i] = (int)b[i].face;
    }
    xgd_device_info info;
    memset(&info, 0, sizeof info);
    xgd_device_get_info(c->dev, &info);
    s->bound = info.render_target_bound;
    s->query_r = xgd_occlusion_query_get_pixel_count(c->query, false, &s->query_count);
    bool done = false;
    s->query_new_r = xgd_occlusion_query_is_complete(c->query_new, &done);
}

static const char *diff(const bad_snap *a, const bad_snap *b)
{
    for (int i = 0; i < 3; i++) {
        const xgd_statistics *x = &a->st[i], *y = &b->st[i];
        if (x->live_resources != y->live_resources) return "live_resources";
        if (x->draw_calls != y->draw_calls || x->primitives != y->primitives) return "draw stats";
        if (x->clears != y->clears) return "clears";
        if (x->target_changes != y->target_changes) return "target_changes";
        if (x->frames != y->frames) return "frames";
        if (x->textures_created != y->textures_created) return "textures_created";
        if (x->buffers_created != y->buffers_created) return "buffers_created";
        if (x->sprite_batches != y->sprite_batches) return "sprite_batches";
    }
    if (a->vp.x != b->vp.x || a->vp.y != b->vp.y || a->vp.width != b->vp.width ||
        a->vp.height != b->vp.height || a->vp.min_depth != b->vp.min_depth ||
        a->vp.max_depth != b->vp.max_depth)
        return "viewport";
    if (a->scissor.x != b->scissor.x || a->scissor.y != b->scissor.y ||
        a->scissor.width != b->scissor.width || a->scissor.height != b->scissor.height)
        return "scissor";
    if (a->count != b->count) return "render target count";
    for (int i = 0; i < 4; i++)
        if (a->targets[i] != b->targets[i] || a->faces[i] != b->faces[i]) return "render targets";
    if (a->bound != b->bound) return "render_target_bound";
    if (a->query_r != b->query_r || a->query_count != b->query_count)
        return "the ended occlusion query's result";
    if (a->query_new_r != b->query_new_r) return "the never-begun occlusion query's state";
    return NULL;
}

static void release_outputs(xgdt_ctx *t, const bad_row *row, bad_ctx *c)
{
    bool leaked = c->o_dev || c->o_tex || c->o_decl || c->o_vb || c->o_ib || c->o_bs ||
                  c->o_dss || c->o_rs || c->o_ss || c->o_fx || c->o_sb || c->o_query;
    if (leaked)
        xgdt_fail_at(t, __FILE__, __LINE__, "%s/%s: a failed create returned an object",
                     row->entry, row->kase);
    xgd_texture_destroy(c->o_tex);
    xgd_vertex_buffer_destroy(c->o_vb);
    xgd_index_buffer_destroy(c->o_ib);
    xgd_vertex_declaration_destroy(c->o_decl);
    xgd_blend_state_destroy(c->o_bs);
    xgd_depth_stencil_state_destroy(c->o_dss);
    xgd_rasterizer_state_destroy(c->o_rs);
    xgd_sampler_state_destroy(c->o_ss);
    xgd_effect_destroy(c->o_fx);
    xgd_sprite_batch_destroy(c->o_sb);
    xgd_occlusion_query_destroy(c->o_query);
    c->o_query = NULL;
    xgd_device_destroy(c->o_dev);
    c->o_dev = NULL;
    c->o_tex = NULL;
    c->o_vb = NULL;
    c->o_ib = NULL;
    c->o_decl = NULL;
    c->o_bs = NULL;
    c->o_dss = NULL;
    c->o_rs = NULL;
    c->o_ss = NULL;
    c->o_fx = NULL;
    c->o_sb = NULL;
    xgd_free(c->rgba_out);
    c->rgba_out = NULL;
}

XGD_TEST(bad_input_every_entry_point)
{
    static bad_ctx ctx;
    bad_ctx *c = &ctx;
    bool ok = ctx_init(t, c);
    if (!ok) {
        ctx_free(c);
        REQUIRE(ok);
    }
    /* a custom viewport and scissor, so that a stray reset shows */
    CHECK_OK(xgd_set_viewport(c->dev, &(xgd_viewport){ 1, 2, 30, 40, 0.25f, 0.75f }));
    CHECK_OK(xgd_set_scissor_rect(c->dev, (xgd_rect){ 3, 4, 5, 6 }));

    const size_t n = sizeof k_rows / sizeof k_rows[0];
    int bad = 0;
    bool batches = c->sb != NULL && c->s_sb != NULL;
    CHECK_MSG(batches, "xgd_sprite_batch_create failed: the sprite_batch rows were skipped");
    for (size_t i = 0; i < n; i++) {
        const bad_row *row = &k_rows[i];
        if (!batches && strncmp(row->entry, "sprite_batch", 12) == 0) continue;
        if (row->setup) row->setup(c);
        bad_snap before, after;
        take(c, &before);
        long long got = row->call(c);
        take(c, &after);
        int failures = t->failures;
        if (got != row->expected) {
            if (row->expected <= 0 && row->expected >= -8 && got <= 0 && got >= -8)
                xgdt_fail_at(t, __FILE__, __LINE__, "%s/%s: %s, expected %s (%s)", row->entry,
                             row->kase, xgd_result_name((xgd_result)got),
                             xgd_result_name((xgd_result)row->expected),
                             xgd_device_last_error(c->dev));
            else
                xgdt_fail_at(t, __FILE__, __LINE__, "%s/%s: %lld, expected %lld", row->entry,
                             row->kase, got, row->expected);
        }
        const char *what = diff(&before, &after);
        if (what)
            xgdt_fail_at(t, __FILE__, __LINE__, "%s/%s: changed %s", row->entry, row->kase, what);
        release_outputs(t, row, c);
        if (row->teardown) row->teardown(c);
        if (t->failures != failures) bad++;
    }
    printf("bad_input: %zu rows, %d with failures\n", n, bad);
    ctx_free(c);
}

/* Rows for the entry points that return nothing: they must accept every odd input silently. */
XGD_TEST(bad_input_void_entry_points)
{
    xgd_device *dev = xgdt_device(t, NULL);
    REQUIRE(dev);
    xgd_statistics s0, s1;
    CHECK_OK(xgd_device_get_statistics(dev, &s0));
    xgd_texture_destroy(NULL);
    xgd_vertex_declaration_destroy(NULL);
    xgd_vertex_buffer_destroy(NULL);
    xgd_index_buffer_destroy(NULL);
    xgd_blend_state_destroy(NULL);
    xgd_depth_stencil_state_destroy(NULL);
    xgd_rasterizer_state_destroy(NULL);
    xgd_sampler_state_destroy(NULL);
    xgd_effect_destroy(NULL);
    xgd_sprite_batch_destroy(NULL);
    xgd_occlusion_query_destroy(NULL);
    xgd_device_destroy(NULL);
    xgd_free(NULL);
    /* device-owned objects: destroy is a no-op */
    xgd_vertex_declaration_destroy(xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_TEXTURE));
    xgd_blend_state_destroy(xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE));
    xgd_depth_stencil_state_destroy(xgd_depth_stencil_state_preset(dev,
                                                                   XGD_DEPTH_STENCIL_PRESET_NONE));
    xgd_rasterizer_state_destroy(xgd_rasterizer_state_preset(dev,
                                                             XGD_RASTERIZER_PRESET_CULL_NONE));
    xgd_sampler_state_destroy(xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_LINEAR_CLAMP));
    CHECK_OK(xgd_device_get_statistics(dev, &s1));
    CHECK_INT(s1.live_resources, s0.live_resources);
    CHECK(xgd_device_last_error(NULL) != NULL);
    CHECK(xgd_device_last_error(dev) != NULL);
    xgd_device_destroy(dev);
}
