/*
 * depth_bias_probe.c - measures how far one integer depth-bias unit moves depth on a GPU
 * renderer (spec 002 "Depth bias: floats on Direct3D 9, integers on DXGI").
 *
 * Spec 002 turns XNA's float bias into a count of the bound format's steps. Vulkan lets r, the
 * minimum resolvable difference of a fixed-point format, be anything up to 2 x 2^-n, so a
 * driver may move depth by two steps per unit (llvmpipe does for 24-bit depth, NVIDIA for
 * D24 through vkd3d and Vulkan). Matching the picture to the rule therefore needs the factor
 * of the driver in hand, and only a draw tells it: driver names are no guide.
 */
#include "renderer.h"
#include "../shader/hlsl_program.h"
#include "../shader/spirv_hlsl.h"
#include "../shader/stock_xfx.h"

#include <stdlib.h>
#include <string.h>

/* The probe's shaders, in the one shader form: the compiled EXT MrtEffect's (colour = vertex
   colour * Colors[0] into target 0), made through the renderer's own shader_create, since the
   probe runs while the renderer is being created, before any effect exists. The constants
   hold an identity matrix and white colours (rows 0..3, 4..7); the vertex block's
   pixel_offset stays zero, as the probe draws on the renderer's exact pixel grid. */
typedef struct probe_program {
    xgdi_native_shader *shader[2];
    float constants[2][9 * 4];
    int count[2];
} probe_program;

static bool probe_program_make(xgdi_renderer *r, probe_program *pp)
{
    memset(pp, 0, sizeof *pp);
    if (r->ops->shader_create == NULL || r->ops->shader_destroy == NULL) return false;
    size_t size;
    const unsigned char *bytes = xgdi_stock_xfx("mrt", &size);
    xgdi_hlsl_program prog;
    char msg[160];
    if (bytes == NULL || xgdi_hlsl_program_load(bytes, size, &prog, msg, sizeof msg) != XGD_OK) return false;
    bool ok = prog.shader_count == 2;
    for (int i = 0; ok && i < 2; i++) {
        const xgdi_hlsl_shader *sh = &prog.shaders[i];
        xgdi_shader_stage stage = sh->stage == XGDI_HLSL_VERTEX ? XGDI_SHADER_VERTEX : XGDI_SHADER_PIXEL;
        uint32_t block = sh->reflection.buffer_count > 0 ? sh->reflection.buffers[0].size : 0;
        xgdi_spirv_hlsl_out form;
        if (xgdi_spirv_from_hlsl(sh->words, sh->word_count, stage, block, &form, msg, sizeof msg) != XGD_OK)
            ok = false;
        else if (form.constant_count > 9 || pp->shader[stage] != NULL) {
            free(form.words);
            ok = false;
        } else {
            uint16_t regs[9];
            for (int k = 0; k < form.constant_count; k++) regs[k] = (uint16_t)k;
            if (stage == XGDI_SHADER_VERTEX && form.constant_count > 0) regs[form.constant_count - 1] = 0xffff;
            xgdi_shader_desc d;
            memset(&d, 0, sizeof d);
            d.stage = stage;
            d.code = form.words;
            d.word_count = form.word_count;
            d.constant_count = form.constant_count;
            d.registers = regs;
            d.input_count = form.input_count;
            d.inputs = form.inputs;
            memcpy(d.sampler_kinds, form.sampler_kinds, sizeof d.sampler_kinds);
            d.color_outputs = form.color_outputs;
            d.debug_name = stage == XGDI_SHADER_VERTEX ? "xgd depth-bias probe vs" : "xgd depth-bias probe ps";
            ok = r->ops->shader_create(r, &d, &pp->shader[stage]) == XGD_OK;
            free(form.words);
            pp->count[stage] = form.constant_count;
            float *k = pp->constants[stage];
            for (int row = 0; row < 8 && row < form.block_registers; row++)
                for (int c = 0; c < 4; c++) k[row * 4 + c] = row >= 4 || row == c ? 1.0f : 0.0f;
        }
    }
    xgdi_hlsl_program_free(&prog);
    ok = ok && pp->shader[0] != NULL && pp->shader[1] != NULL;
    return ok;
}

static void probe_program_free(xgdi_renderer *r, probe_program *pp)
{
    for (int i = 0; i < 2; i++)
        if (pp->shader[i] != NULL) r->ops->shader_destroy(r, pp->shader[i]);
}

/* The quad sits this many steps behind the cleared depth; LessEqual passes where the bias
   pulls it at least that far forward. */
#define PROBE_OFFSET 12
#define PROBE_COLUMNS 4

/* Biases in spec units per column. Factor 1: 0, -8 fail, -18, -40 pass; factor 2: -8 becomes
   -16 and passes. Every column is at least 4 steps from the edge, beyond rounding of the quad's
   float depth (the float ulp at 0.5 is one 24-bit step) or of r = 2^-n versus 1/(2^n - 1). */
static const int probe_bias[PROBE_COLUMNS] = { 0, -8, -18, -40 };

int xgdi_depth_bias_factor_decide(const bool passed[4])
{
    /* the controls: no bias must fail, a bias far past the edge must pass */
    if (passed[0] || !passed[2] || !passed[3]) return 0;
    return passed[1] ? 2 : 1;
}

int xgdi_depth_bias_probe(xgdi_renderer *r, xgd_depth_format format)
{
    double steps;
    if (format == XGD_DEPTH_FORMAT_DEPTH16) steps = 65535.0;
    else if (format == XGD_DEPTH_FORMAT_DEPTH24 || format == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8)
        steps = 16777215.0;
    else return 0;
    const xgdi_renderer_ops *ops = r->ops;

    xgdi_texture_desc td;
    memset(&td, 0, sizeof td);
    td.render_target = true;
    td.width = PROBE_COLUMNS;
    td.height = 1;
    td.levels = 1;
    td.format = XGD_SURFACE_FORMAT_COLOR;
    td.depth_format = format;
    td.samples = 1;
    td.debug_name = "xgd depth-bias probe";
    xgdi_native_texture *tex = NULL;
    if (ops->texture_create(r, &td, &tex) != XGD_OK) return 0;

    xgd_blend_state_desc blend;
    memset(&blend, 0, sizeof blend);
    for (int i = 0; i < 4; i++) {
        xgd_target_blend_desc *b = &blend.target[i];
        b->color_blend_function = b->alpha_blend_function = XGD_BLEND_FUNCTION_ADD;
        b->color_source_blend = b->alpha_source_blend = XGD_BLEND_ONE;
        b->color_destination_blend = b->alpha_destination_blend = XGD_BLEND_ZERO;
        b->color_write_channels = XGD_COLOR_WRITE_ALL;
    }
    blend.blend_factor = XGD_COLOR_WHITE;
    blend.multisample_mask = -1;
    xgd_depth_stencil_desc ds;
    memset(&ds, 0, sizeof ds);
    ds.depth_buffer_enable = true;
    ds.depth_function = XGD_COMPARE_LESS_EQUAL;
    ds.stencil_function = ds.ccw_stencil_function = XGD_COMPARE_ALWAYS;
    ds.stencil_pass = ds.stencil_fail = ds.stencil_depth_fail = XGD_STENCIL_OP_KEEP;
    ds.ccw_stencil_pass = ds.ccw_stencil_fail = ds.ccw_stencil_depth_fail = XGD_STENCIL_OP_KEEP;
    ds.stencil_mask = ds.stencil_write_mask = 0xFF;
    xgd_rasterizer_desc rs;
    memset(&rs, 0, sizeof rs);
    rs.cull_mode = XGD_CULL_NONE;
    rs.fill_mode = XGD_FILL_SOLID;
    rs.multisample_antialias = true;
    /* white vertices through the probe program: the pixel is white where depth passes */
    probe_program prog;
    if (!probe_program_make(r, &prog)) {
        probe_program_free(r, &prog);
        ops->texture_destroy(r, tex);
        return 0;
    }
    xgdi_vertex_layout layout;
    memset(&layout, 0, sizeof layout);
    layout.stride = 16;
    layout.count = 2;
    layout.elements[0].offset = 0;
    layout.elements[0].format = XGD_VERTEX_FORMAT_VECTOR3;
    layout.elements[0].usage = XGD_VERTEX_USAGE_POSITION;
    layout.elements[1].offset = 12;
    layout.elements[1].format = XGD_VERTEX_FORMAT_COLOR;
    layout.elements[1].usage = XGD_VERTEX_USAGE_COLOR;
    layout.hash = 0x7864672d62696173ull; /* "xgd-bias": distinct from core's layout hashes */

    xgdi_draw_state st;
    memset(&st, 0, sizeof st);
    st.blend = &blend;
    st.depth_stencil = &ds;
    st.rasterizer = &rs;
    st.viewport.width = PROBE_COLUMNS;
    st.viewport.height = 1;
    st.viewport.min_depth = 0.0f;
    st.viewport.max_depth = 1.0f;
    st.scissor.width = PROBE_COLUMNS;
    st.scissor.height = 1;
    st.program = XGDI_PROGRAM_USER;
    st.vs = prog.shader[XGDI_SHADER_VERTEX];
    st.ps = prog.shader[XGDI_SHADER_PIXEL];
    st.vs_constants = prog.constants[XGDI_SHADER_VERTEX];
    st.ps_constants = prog.constants[XGDI_SHADER_PIXEL];
    st.vs_constants_size = (size_t)prog.count[XGDI_SHADER_VERTEX] * 16;
    st.ps_constants_size = (size_t)prog.count[XGDI_SHADER_PIXEL] * 16;
    st.layout = &layout;

    int factor = 0;
    xgdi_target target = { tex, 0 };
    xgd_result res = ops->set_render_targets(r, &target, 1);
    if (res == XGD_OK) {
        static const float black[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        res = ops->clear(r, XGD_CLEAR_TARGET | XGD_CLEAR_DEPTH_BUFFER, black, 0.5f, 0);
        const float z = (float)(0.5 + PROBE_OFFSET / steps);
        for (int c = 0; c < PROBE_COLUMNS && res == XGD_OK; c++) {
            /* the pixel centre of column c, covered by a quad one pixel wide */
            float x0 = -1.0f + 2.0f * (float)c / PROBE_COLUMNS;
            float x1 = -1.0f + 2.0f * (float)(c + 1) / PROBE_COLUMNS;
            const float p[18] = { x0, 1, z, x1, 1, z, x1, -1, z, x0, 1, z, x1, -1, z, x0, -1, z };
            uint8_t v[6 * 16];
            for (int i = 0; i < 6; i++) {
                memcpy(v + i * 16, p + i * 3, 12);
                memset(v + i * 16 + 12, 0xff, 4);
            }
            /* a quarter step past the integer, so the conversion's truncation lands on it */
            rs.depth_bias = (float)((probe_bias[c] - 0.25) / steps);
            st.dirty = XGDI_DIRTY_ALL;
            xgdi_draw d;
            memset(&d, 0, sizeof d);
            d.type = XGD_PRIMITIVE_TRIANGLE_LIST;
            d.primitive_count = 2;
            d.vertex_count = 6;
            d.user_vertices = v;
            d.user_vertex_count = 6;
            d.state = &st;
            res = ops->draw(r, &d);
        }
        /* finalise before leaving the binding, as core does; then the back buffer again */
        xgd_result fin = ops->texture_finalize(r, tex, 0);
        if (res == XGD_OK) res = fin;
        xgd_result back = ops->set_render_targets(r, NULL, 0);
        if (res == XGD_OK) res = back;
        uint8_t px[PROBE_COLUMNS * 4];
        xgd_rect all = { 0, 0, PROBE_COLUMNS, 1 };
        if (res == XGD_OK) res = ops->texture_download(r, tex, 0, 0, &all, px, sizeof px);
        if (res == XGD_OK) {
            bool passed[PROBE_COLUMNS];
            for (int c = 0; c < PROBE_COLUMNS; c++) passed[c] = px[c * 4] >= 128;
            factor = xgdi_depth_bias_factor_decide(passed);
        }
    }
    probe_program_free(r, &prog);
    ops->texture_destroy(r, tex);
    return factor;
}
