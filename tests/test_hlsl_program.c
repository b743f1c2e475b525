/*
 * test_hlsl_program.c - compiled HLSL effects (src/shader/hlsl_program.h): every entry point a
 * pass names compiled once; the .xfx file written by save and read by load gives back the same
 * program; hostile files (every truncation, flipped bytes, lying counts, another version) are
 * refused by name without large allocations.
 */
#include "harness.h"

#include "../shader/hlsl_program.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_GLSLANG
static const char prog_source[] =
    "cbuffer Params { float4x4 World; float4 Tint; };\n"
    "sampler2D Tex;\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(float4 p : POSITION0, float2 uv : TEXCOORD0) {\n"
    "    VSOut o; o.pos = mul(p, World); o.uv = uv; return o; }\n"
    "float4 PS(VSOut i) : SV_Target { return tex2D(Tex, i.uv) * Tint; }\n"
    "float4 Flat(VSOut i) : SV_Target { return Tint; }\n"
    "technique Textured { pass A { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); }\n"
    "                     pass B { ZEnable = false; PixelShader = compile ps_3_0 Flat(); } }\n"
    "technique11 Plain { pass { SetVertexShader(CompileShader(vs_4_0, VS()));\n"
    "                          SetPixelShader(CompileShader(ps_4_0, Flat())); } }\n";

static bool same_reflection(const xgdi_reflection *a, const xgdi_reflection *b)
{
    return a->input_count == b->input_count && a->output_count == b->output_count &&
           a->buffer_count == b->buffer_count && a->member_count == b->member_count &&
           a->resource_count == b->resource_count &&
           (a->input_count == 0 || memcmp(a->inputs, b->inputs, (size_t)a->input_count * sizeof *a->inputs) == 0) &&
           (a->output_count == 0 || memcmp(a->outputs, b->outputs, (size_t)a->output_count * sizeof *a->outputs) == 0) &&
           (a->buffer_count == 0 || memcmp(a->buffers, b->buffers, (size_t)a->buffer_count * sizeof *a->buffers) == 0) &&
           (a->member_count == 0 || memcmp(a->members, b->members, (size_t)a->member_count * sizeof *a->members) == 0) &&
           (a->resource_count == 0 || memcmp(a->resources, b->resources, (size_t)a->resource_count * sizeof *a->resources) == 0);
}

/* The program's structure must equal the other's in everything but the source copy. */
static void check_same_program(xgdt_ctx *t, const xgdi_hlsl_program *a, const xgdi_hlsl_program *b)
{
    CHECK_INT(b->fx.technique_count, a->fx.technique_count);
    CHECK_INT(b->shader_count, a->shader_count);
    if (b->fx.technique_count != a->fx.technique_count || b->shader_count != a->shader_count) return;
    for (int ti = 0; ti < a->fx.technique_count; ti++) {
        const xgdi_hlsl_technique *x = &a->fx.techniques[ti], *y = &b->fx.techniques[ti];
        CHECK(strcmp(x->name, y->name) == 0 && x->line == y->line && x->pass_count == y->pass_count);
        for (int q = 0; q < x->pass_count && q < y->pass_count; q++) {
            CHECK(strcmp(x->passes[q].name, y->passes[q].name) == 0);
            CHECK_INT(y->passes[q].state_count, x->passes[q].state_count);
            for (int s = 0; s < x->passes[q].state_count && s < y->passes[q].state_count; s++)
                CHECK(strcmp(x->passes[q].states[s].name, y->passes[q].states[s].name) == 0 &&
                      strcmp(x->passes[q].states[s].value, y->passes[q].states[s].value) == 0);
            for (int st = 0; st < 2; st++)
                CHECK_INT(b->pass_shader[b->first_pass[ti] + q][st], a->pass_shader[a->first_pass[ti] + q][st]);
        }
    }
    for (int i = 0; i < a->shader_count; i++) {
        const xgdi_hlsl_shader *x = &a->shaders[i], *y = &b->shaders[i];
        CHECK(strcmp(x->entry, y->entry) == 0 && x->stage == y->stage && strcmp(x->profile, y->profile) == 0);
        CHECK(x->word_count == y->word_count &&
              memcmp(x->words, y->words, x->word_count * sizeof *x->words) == 0);
        CHECK_MSG(same_reflection(&x->reflection, &y->reflection), "shader %d: reflection differs", i);
    }
}
#endif

XGD_TEST(hlsl_program_compile_save_load)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    xgdi_hlsl_program p;
    char *log = NULL;
    xgd_result r = xgdi_hlsl_program_compile(prog_source, strlen(prog_source), "prog.fx", &p, &log);
    CHECK_MSG(r == XGD_OK, "%s", log ? log : "");
    free(log);
    REQUIRE(r == XGD_OK);
    /* VS (vertex), PS and Flat (pixel): three shaders for four stage slots that name them */
    CHECK_INT(p.shader_count, 3);
    REQUIRE(p.fx.technique_count == 2);
    int a_vs = p.pass_shader[p.first_pass[0]][0], a_ps = p.pass_shader[p.first_pass[0]][1];
    int b_vs = p.pass_shader[p.first_pass[0] + 1][0], b_ps = p.pass_shader[p.first_pass[0] + 1][1];
    int c_vs = p.pass_shader[p.first_pass[1]][0], c_ps = p.pass_shader[p.first_pass[1]][1];
    CHECK(a_vs >= 0 && strcmp(p.shaders[a_vs].entry, "VS") == 0 && p.shaders[a_vs].stage == XGDI_HLSL_VERTEX);
    CHECK(a_ps >= 0 && strcmp(p.shaders[a_ps].entry, "PS") == 0);
    CHECK_INT(b_vs, -1); /* pass B sets only the pixel shader */
    CHECK(b_ps >= 0 && strcmp(p.shaders[b_ps].entry, "Flat") == 0);
    CHECK_INT(c_vs, a_vs); /* the same entry point is compiled once */
    CHECK_INT(c_ps, b_ps);

    void *bytes = NULL;
    size_t size = 0;
    REQUIRE_OK(xgdi_hlsl_program_save(&p, &bytes, &size));
    xgdi_hlsl_program q;
    char msg[256];
    r = xgdi_hlsl_program_load(bytes, size, &q, msg, sizeof msg);
    CHECK_MSG(r == XGD_OK, "load: %s", msg);
    if (r == XGD_OK) {
        check_same_program(t, &p, &q);
        CHECK(q.fx.source == NULL);
        xgdi_hlsl_program_free(&q);
    }
    free(bytes);
    xgdi_hlsl_program_free(&p);
#endif
}

XGD_TEST(hlsl_program_compile_errors)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    static const struct {
        const char *src;
        xgd_result code;
        const char *want;
    } cases[] = {
        { "float4 PS() : SV_Target { return 1; }\n", XGD_ERROR_INVALID_ARGUMENT, "no technique" },
        { "float4 PS() : SV_Target { return 1; }\n"
          "technique T { pass { PixelShader = compile ps_3_0 Missing(); } }\n",
          XGD_ERROR_INVALID_ARGUMENT, "ntry point" },
        { "float4 PS() : SV_Target { return oops; }\n"
          "technique T { pass { PixelShader = compile ps_3_0 PS(); } }\n",
          XGD_ERROR_INVALID_ARGUMENT, "bad.fx:1" },
        { "float4 VS(float4 p : POSITION0, float4 b : BANANA0) : SV_Position { return p + b; }\n"
          "technique T { pass { VertexShader = compile vs_3_0 VS(); } }\n",
          XGD_ERROR_NOT_SUPPORTED, "BANANA0" },
        { "technique T { pass { VertexShader = compile vs_3_0 VS(1); } }\n", XGD_ERROR_NOT_SUPPORTED,
          "arguments" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgdi_hlsl_program p;
        char *log = NULL;
        xgd_result r = xgdi_hlsl_program_compile(cases[i].src, strlen(cases[i].src), "bad.fx", &p, &log);
        CHECK_MSG(r == cases[i].code, "case %zu: %s (%s)", i, xgd_result_name(r), log ? log : "");
        CHECK_MSG(log != NULL && strstr(log, cases[i].want) != NULL, "case %zu: log %s lacks %s", i,
                  log ? log : "(none)", cases[i].want);
        CHECK(p.shader_count == 0 && p.shaders == NULL && p.fx.technique_count == 0);
        free(log);
    }
#endif
}

/* A small valid file written by hand through the public layout (no compiler needed): one
 * technique, one pass, one pixel shader of a minimal module, empty reflection. */
static size_t put32(uint8_t *p, size_t at, uint32_t v)
{
    p[at] = (uint8_t)v;
    p[at + 1] = (uint8_t)(v >> 8);
    p[at + 2] = (uint8_t)(v >> 16);
    p[at + 3] = (uint8_t)(v >> 24);
    return at + 4;
}

static size_t minimal_xfx(uint8_t *p)
{
    size_t n = 0;
    memcpy(p, "XGDFX\0\r\n", 8);
    n = 8;
    n = put32(p, n, 1);            /* version */
    n = put32(p, n, 0);            /* flags */
    n = put32(p, n, 1);            /* techniques */
    n = put32(p, n, 1);            /* name length */
    p[n++] = 'T';
    n = put32(p, n, 3);            /* line */
    n = put32(p, n, 1);            /* passes */
    n = put32(p, n, 0);            /* unnamed */
    n = put32(p, n, 4);            /* line */
    n = put32(p, n, 0xffffffffu);  /* no vertex shader */
    n = put32(p, n, 0);            /* pixel shader 0 */
    n = put32(p, n, 0);            /* states */
    n = put32(p, n, 1);            /* shaders */
    n = put32(p, n, 2);
    p[n++] = 'P';
    p[n++] = 'S';
    n = put32(p, n, 1);            /* pixel */
    n = put32(p, n, 6);
    memcpy(p + n, "ps_4_0", 6);
    n += 6;
    n = put32(p, n, 5);            /* words: a header only */
    n = put32(p, n, 0x07230203u);
    n = put32(p, n, 0x00010000u);
    n = put32(p, n, 0);
    n = put32(p, n, 1);
    n = put32(p, n, 0);
    for (int k = 0; k < 5; k++) n = put32(p, n, 0); /* inputs, outputs, buffers, members, resources */
    return n;
}

XGD_TEST(hlsl_program_load_hostile)
{
    uint8_t file[256];
    size_t n = minimal_xfx(file);
    xgdi_hlsl_program p;
    char msg[256];
    REQUIRE_OK(xgdi_hlsl_program_load(file, n, &p, msg, sizeof msg));
    CHECK_INT(p.fx.technique_count, 1);
    CHECK_INT(p.shader_count, 1);
    CHECK_INT(p.pass_shader[0][0], -1);
    CHECK_INT(p.pass_shader[0][1], 0);
    xgdi_hlsl_program_free(&p);

    /* every proper prefix is refused by name, with nothing left behind */
    for (size_t k = 0; k < n; k++) {
        xgd_result r = xgdi_hlsl_program_load(file, k, &p, msg, sizeof msg);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "prefix of %zu bytes: %s", k, xgd_result_name(r));
        CHECK_MSG(p.shaders == NULL && p.fx.techniques == NULL, "prefix of %zu bytes left results", k);
    }
    /* a trailing byte is refused too */
    file[n] = 0;
    CHECK_RESULT(xgdi_hlsl_program_load(file, n + 1, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);

    uint8_t bad[256];
    /* a version after this xgd's: NOT_SUPPORTED, saying which (version 1, above, still loads) */
    memcpy(bad, file, n);
    put32(bad, 8, XGDI_XFX_VERSION + 1);
    CHECK_RESULT(xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(msg, "version 3") != NULL, "%s", msg);
    /* a technique count far beyond the bytes: refused before any allocation of that size */
    memcpy(bad, file, n);
    put32(bad, 16, 0x7fffffffu);
    CHECK_RESULT(xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    /* a pass naming a shader that does not exist, or a vertex shader for the pixel slot */
    memcpy(bad, file, n);
    put32(bad, 45, 7);
    CHECK_RESULT(xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    memcpy(bad, file, n);
    put32(bad, 41, 0); /* the pixel shader in the vertex slot */
    CHECK_RESULT(xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    /* a shader that is not SPIR-V */
    memcpy(bad, file, n);
    bad[n - 5 * 4 - 5 * 4] ^= 0xff;
    CHECK_RESULT(xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    /* every single flipped byte: a named result, never a crash (sanitizer builds check memory) */
    for (size_t k = 0; k < n; k++) {
        memcpy(bad, file, n);
        bad[k] ^= 0x5a;
        xgd_result r = xgdi_hlsl_program_load(bad, n, &p, msg, sizeof msg);
        CHECK_MSG(r == XGD_OK || r == XGD_ERROR_INVALID_ARGUMENT || r == XGD_ERROR_NOT_SUPPORTED,
                  "flip at %zu: %s", k, xgd_result_name(r));
        if (r == XGD_OK) xgdi_hlsl_program_free(&p);
    }
    CHECK_RESULT(xgdi_hlsl_program_load(NULL, 0, &p, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
}
