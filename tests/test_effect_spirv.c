/*
 * The shader form (renderer.h, "user shaders"): MojoShader's SPIR-V for D3D9 shaders,
 * normalised by src/shader/spirv_form.c, validates for Vulkan 1.0 (spirv-val, where
 * installed) and carries the form's decorations: varyings at xgdi_shader_location, every
 * resource in set 0 at its binding, and the vertex block one vec4 (pixel_offset) longer.
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_MOJOSHADER
#include "../src/shader/spirv_form.h"

#include <mojoshader/mojoshader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The decoration `what` (Location 30, DescriptorSet 34, Binding 33) of the variable named
 * name (OpName), or -1. */
static long decoration(const uint32_t *w, size_t n, const char *name, uint32_t what)
{
    uint32_t id = 0;
    for (size_t i = 5; i < n; i += w[i] >> 16) {
        if ((w[i] & 0xffff) == 5 && strcmp((const char *)(w + i + 2), name) == 0) id = w[i + 1];
        if ((w[i] >> 16) == 0) break;
    }
    for (size_t i = 5; id != 0 && i < n; i += w[i] >> 16) {
        if ((w[i] & 0xffff) == 71 && w[i + 1] == id && w[i + 2] == what) return (long)w[i + 3];
        if ((w[i] >> 16) == 0) break;
    }
    return -1;
}

/* Assembles, translates and normalises one shader; vars as fx.c names them. */
static uint32_t *form(xgdt_ctx *t, const char *src, xgdi_shader_stage stage, const xgdi_spirv_form_var *vars,
                      int nvars, size_t *count)
{
    const MOJOSHADER_parseData *a = MOJOSHADER_assemble("t", src, (unsigned)strlen(src), NULL, 0, NULL, 0, NULL, 0,
                                                        NULL, NULL, NULL, NULL, NULL);
    CHECK(a != NULL && a->error_count == 0);
    const MOJOSHADER_parseData *p = MOJOSHADER_parse("spirv", "main", (const unsigned char *)a->output,
                                                     (unsigned)a->output_len, NULL, 0, NULL, 0, NULL, NULL, NULL);
    CHECK(p != NULL && p->error_count == 0);
    xgdi_spirv_form_input in = { stage, (const uint32_t *)(const void *)p->output, (size_t)p->output_len,
                                 p->uniform_count, vars, nvars };
    uint32_t *w = NULL;
    char err[200] = "";
    CHECK_OK(xgdi_spirv_form(&in, &w, count, err, sizeof err));
    MOJOSHADER_freeParseData(p);
    MOJOSHADER_freeParseData(a);
    return w;
}

static void validate(xgdt_ctx *t, const uint32_t *w, size_t n, const char *name)
{
    if (system("spirv-val --version > /dev/null 2>&1") != 0) return; /* spirv-tools not installed */
    const char *dir = getenv("XGD_TEST_OUTPUT");
    char path[512], cmd[700];
    snprintf(path, sizeof path, "%s/%s.spv", dir != NULL ? dir : ".", name);
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    fwrite(w, 4, n, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "spirv-val --target-env vulkan1.0 '%s'", path);
    CHECK_MSG(system(cmd) == 0, "spirv-val refuses %s", path);
}

static void spirv_form_body(xgdt_ctx *t)
{
    const xgdi_spirv_form_var vs_vars[] = {
        { "v0", XGD_VERTEX_USAGE_POSITION, 0, false }, { "v1", XGD_VERTEX_USAGE_COLOR, 0, false },
        { "v2", XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0, false }, { "oPos", XGD_VERTEX_USAGE_POSITION, 0, true },
        { "oD0", XGD_VERTEX_USAGE_COLOR, 0, true }, { "oT0", XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0, true } };
    size_t n = 0;
    uint32_t *vs = form(t, "vs_2_0\ndcl_position v0\ndcl_color v1\ndcl_texcoord v2\nm4x4 oPos, v0, c0\n"
                           "mov oD0, v1\nmov oT0, v2\n",
                        XGDI_SHADER_VERTEX, vs_vars, 6, &n);
    REQUIRE(vs != NULL);
    CHECK_INT(decoration(vs, n, "vs_v0", 30), xgdi_shader_location(XGD_VERTEX_USAGE_POSITION, 0));
    CHECK_INT(decoration(vs, n, "vs_v2", 30), xgdi_shader_location(XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0));
    CHECK_INT(decoration(vs, n, "vs_oD0", 30), xgdi_shader_location(XGD_VERTEX_USAGE_COLOR, 0));
    CHECK_INT(decoration(vs, n, "vs_oT0", 30), xgdi_shader_location(XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0));
    CHECK_INT(decoration(vs, n, "vs_uniforms", 34), 0);
    CHECK_INT(decoration(vs, n, "vs_uniforms", 33), XGDI_SHADER_BINDING_VS_CONSTANTS);
    /* the block's array: the 4 registers of c0..c3 and pixel_offset */
    bool five = false;
    for (size_t i = 5; i < n && (vs[i] >> 16) != 0; i += vs[i] >> 16)
        if ((vs[i] & 0xffff) == 43 && (vs[i] >> 16) == 4 && vs[i + 3] == 5) five = true;
    CHECK_MSG(five, "no constant 5 (4 registers + pixel_offset) in the vertex shader");
    validate(t, vs, n, "effect_spirv_form.vs");

    const xgdi_spirv_form_var ps_vars[] = {
        { "v0", XGD_VERTEX_USAGE_COLOR, 0, false }, { "t0", XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0, false },
        { "oC0", XGD_VERTEX_USAGE_COLOR, 0, true } };
    uint32_t *ps = form(t, "ps_2_0\ndcl t0.xy\ndcl v0\ndcl_2d s3\ntexld r0, t0, s3\nmul r0, r0, v0\n"
                           "mul r0, r0, c2\nmov oC0, r0\n",
                        XGDI_SHADER_PIXEL, ps_vars, 3, &n);
    REQUIRE(ps != NULL);
    CHECK_INT(decoration(ps, n, "ps_v0", 30), xgdi_shader_location(XGD_VERTEX_USAGE_COLOR, 0));
    CHECK_INT(decoration(ps, n, "ps_t0", 30), xgdi_shader_location(XGD_VERTEX_USAGE_TEXTURE_COORDINATE, 0));
    CHECK_INT(decoration(ps, n, "ps_oC0", 30), 0); /* COLOR0 stays at render target 0 */
    CHECK_INT(decoration(ps, n, "ps_s3", 34), 0);
    CHECK_INT(decoration(ps, n, "ps_s3", 33), XGDI_SHADER_BINDING_SAMPLER0 + 3);
    CHECK_INT(decoration(ps, n, "ps_uniforms", 33), XGDI_SHADER_BINDING_PS_CONSTANTS);
    validate(t, ps, n, "effect_spirv_form.ps");

    /* a vertex shader without constants still gets the block for pixel_offset */
    uint32_t *vs0 = form(t, "vs_2_0\ndcl_position v0\nmov oPos, v0\n", XGDI_SHADER_VERTEX, vs_vars, 1, &n);
    REQUIRE(vs0 != NULL);
    validate(t, vs0, n, "effect_spirv_form.vs0");
    free(vs);
    free(ps);
    free(vs0);
}

#endif

XGD_TEST(effect_spirv_form)
{
#ifdef XGD_TEST_HAVE_MOJOSHADER
    spirv_form_body(t);
#else
    xgdt_not_supported(t, "built without MojoShader");
#endif
}
