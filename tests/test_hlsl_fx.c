/*
 * test_hlsl_fx.c - the HLSL effect front end (src/shader/hlsl_fx.h): technique/pass scanning
 * in both effect syntaxes, its errors with file and line, blanking that keeps line numbers, and
 * compilation of entry points to SPIR-V through glslang (checked with SPIRV-Tools' validator
 * and by reading the module's entry point and semantics).
 */
#include "harness.h"

#include "../shader/hlsl_fx.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_GLSLANG
#include <spirv-tools/libspirv.h>
#endif

static const char fx_source[] =
    "// technique Fake { } in a comment does not count\n"                        /* 1 */
    "float4x4 World;\n"                                                            /* 2 */
    "float4 Tint = float4(1, 1, 1, 1);\n"                                          /* 3 */
    "sampler2D Tex;\n"                                                             /* 4 */
    "struct VSIn { float4 pos : POSITION0; float4 col : COLOR0; float2 uv : TEXCOORD0; };\n"
    "struct VSOut { float4 pos : POSITION0; float4 col : COLOR0; float2 uv : TEXCOORD0; };\n"
    "VSOut VS(VSIn i) { VSOut o; o.pos = mul(i.pos, World); o.col = i.col; o.uv = i.uv;\n"
    "                   return o; }\n"                                             /* 8 */
    "float4 PS(VSOut i) : COLOR0 { return tex2D(Tex, i.uv) * i.col * Tint; }\n"   /* 9 */
    "technique Textured <string Note = \"{ technique }\";>\n"                      /* 10 */
    "{\n"                                                                          /* 11 */
    "    pass P0\n"                                                                /* 12 */
    "    {\n"                                                                      /* 13 */
    "        AlphaBlendEnable = true;\n"                                           /* 14 */
    "        VertexShader = compile vs_3_0 VS();\n"                                /* 15 */
    "        PixelShader = compile ps_3_0 PS();\n"                                 /* 16 */
    "    }\n"                                                                      /* 17 */
    "    pass P1 { SrcBlend = SrcAlpha; PixelShader = compile ps_2_0 PS(); }\n"   /* 18 */
    "}\n"                                                                          /* 19 */
    "float4 PS2(VSOut i) : SV_Target { return i.col; }\n"                          /* 20 */
    "technique11 Modern\n"                                                         /* 21 */
    "{\n"                                                                          /* 22 */
    "    pass\n"                                                                   /* 23 */
    "    {\n"                                                                      /* 24 */
    "        SetVertexShader(CompileShader(vs_4_0, VS()));\n"                      /* 25 */
    "        SetGeometryShader(NULL);\n"                                           /* 26 */
    "        SetPixelShader( CompileShader( ps_4_0, PS2() ) );\n"                  /* 27 */
    "        SetBlendState(NoBlend, float4(0, 0, 0, 0), 0xFFFFFFFF);\n"            /* 28 */
    "    }\n"                                                                      /* 29 */
    "}\n";                                                                         /* 30 */

XGD_TEST(hlsl_fx_scan_both_syntaxes)
{
    xgdi_hlsl_fx fx;
    char msg[256];
    REQUIRE_OK(xgdi_hlsl_fx_scan(fx_source, strlen(fx_source), "scan.fx", &fx, msg, sizeof msg));
    REQUIRE(fx.technique_count == 2);

    const xgdi_hlsl_technique *a = &fx.techniques[0];
    CHECK(strcmp(a->name, "Textured") == 0);
    CHECK_INT(a->line, 10);
    REQUIRE(a->pass_count == 2);
    CHECK(strcmp(a->passes[0].name, "P0") == 0);
    CHECK_INT(a->passes[0].line, 12);
    CHECK(strcmp(a->passes[0].entry[XGDI_HLSL_VERTEX], "VS") == 0);
    CHECK(strcmp(a->passes[0].profile[XGDI_HLSL_VERTEX], "vs_3_0") == 0);
    CHECK_INT(a->passes[0].entry_line[XGDI_HLSL_VERTEX], 15);
    CHECK(strcmp(a->passes[0].entry[XGDI_HLSL_PIXEL], "PS") == 0);
    CHECK(strcmp(a->passes[0].profile[XGDI_HLSL_PIXEL], "ps_3_0") == 0);
    REQUIRE(a->passes[0].state_count == 1);
    CHECK(strcmp(a->passes[0].states[0].name, "AlphaBlendEnable") == 0);
    CHECK(strcmp(a->passes[0].states[0].value, "true") == 0);
    CHECK_INT(a->passes[0].states[0].line, 14);
    /* a pass that sets only the pixel shader keeps the vertex stage unset */
    CHECK(a->passes[1].entry[XGDI_HLSL_VERTEX][0] == '\0');
    CHECK(strcmp(a->passes[1].entry[XGDI_HLSL_PIXEL], "PS") == 0);
    CHECK(strcmp(a->passes[1].profile[XGDI_HLSL_PIXEL], "ps_2_0") == 0);
    REQUIRE(a->passes[1].state_count == 1);
    CHECK(strcmp(a->passes[1].states[0].value, "SrcAlpha") == 0);

    const xgdi_hlsl_technique *b = &fx.techniques[1];
    CHECK(strcmp(b->name, "Modern") == 0);
    REQUIRE(b->pass_count == 1);
    CHECK(b->passes[0].name[0] == '\0');
    CHECK(strcmp(b->passes[0].entry[XGDI_HLSL_VERTEX], "VS") == 0);
    CHECK(strcmp(b->passes[0].profile[XGDI_HLSL_VERTEX], "vs_4_0") == 0);
    CHECK(strcmp(b->passes[0].entry[XGDI_HLSL_PIXEL], "PS2") == 0);
    CHECK_INT(b->passes[0].entry_line[XGDI_HLSL_PIXEL], 27);
    REQUIRE(b->passes[0].state_count == 1); /* SetGeometryShader(NULL) is no state */
    CHECK(strcmp(b->passes[0].states[0].name, "SetBlendState") == 0);
    CHECK(strcmp(b->passes[0].states[0].value, "NoBlend, float4(0, 0, 0, 0), 0xFFFFFFFF") == 0);

    /* the blanked copy: same bytes outside the blocks, blanks inside, every newline kept */
    REQUIRE(fx.source_size == strlen(fx_source));
    int lines_in = 0, lines_out = 0;
    for (size_t i = 0; i < fx.source_size; i++) {
        lines_in += fx_source[i] == '\n';
        lines_out += fx.source[i] == '\n';
        CHECK_MSG(fx.source[i] == fx_source[i] || fx.source[i] == ' ',
                  "byte %zu changed to something other than a blank", i);
    }
    CHECK_INT(lines_out, lines_in);
    CHECK(strstr(fx.source, "technique Textured") == NULL);
    CHECK(strstr(fx.source, "technique11") == NULL);
    CHECK(strstr(fx.source, "compile") == NULL);
    CHECK(strstr(fx.source, "float4 PS2(VSOut i)") != NULL);
    CHECK(strstr(fx.source, "// technique Fake { } in a comment does not count") != NULL);
    xgdi_hlsl_fx_free(&fx);
}

/* Each malformed or unsupported block: the named result, "file:line:" of the fault, and a
 * zeroed result. */
XGD_TEST(hlsl_fx_scan_errors)
{
    static const struct {
        const char *src;
        xgd_result code;
        const char *where; /* expected "file:line:" prefix */
        const char *what;  /* a word the message must contain */
    } cases[] = {
        { "technique T {\n pass P { VertexShader = compile vs_3_0 VS();\n", XGD_ERROR_INVALID_ARGUMENT,
          "bad.fx:", "missing" },
        { "technique T { pass P { AlphaBlendEnable = true; } }\n", XGD_ERROR_INVALID_ARGUMENT,
          "bad.fx:1:", "no vertex or pixel shader" },
        { "\n\ntechnique T { pass { VertexShader = compile vs_9_9 VS(); } }", XGD_ERROR_INVALID_ARGUMENT,
          "bad.fx:3:", "profile" },
        { "technique T { pass { PixelShader = compile vs_3_0 VS(); } }", XGD_ERROR_INVALID_ARGUMENT,
          "bad.fx:1:", "vs_3_0" },
        { "technique T {\n pass {\n  VertexShader = compile vs_2_0 VS(true); } }", XGD_ERROR_NOT_SUPPORTED,
          "bad.fx:3:", "arguments" },
        { "technique T { pass { SetGeometryShader(CompileShader(gs_4_0, GS())); "
          "SetVertexShader(CompileShader(vs_4_0, VS())); } }", XGD_ERROR_NOT_SUPPORTED,
          "bad.fx:1:", "SetGeometryShader" },
        { "technique T { pass { VertexShader = Shaders[1]; } }", XGD_ERROR_NOT_SUPPORTED, "bad.fx:1:",
          "VertexShader" },
        { "technique T { pass { VertexShader = compile vs_3_0 VS(); } }\n"
          "technique T { pass { VertexShader = compile vs_3_0 VS(); } }", XGD_ERROR_INVALID_ARGUMENT,
          "bad.fx:2:", "twice" },
        { "technique T { }", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:1:", "no pass" },
        { "technique T { pixel { } }", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:1:", "pass" },
        { "float4 f() { return 0; }\n}\n", XGD_ERROR_INVALID_ARGUMENT, "bad.fx:", "unbalanced" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        xgdi_hlsl_fx fx;
        char msg[256];
        memset(&fx, 0x5a, sizeof fx);
        xgd_result r = xgdi_hlsl_fx_scan(cases[i].src, strlen(cases[i].src), "bad.fx", &fx, msg,
                                         sizeof msg);
        CHECK_MSG(r == cases[i].code, "case %zu: %s, expected %s (%s)", i, xgd_result_name(r),
                  xgd_result_name(cases[i].code), msg);
        CHECK_MSG(strncmp(msg, cases[i].where, strlen(cases[i].where)) == 0,
                  "case %zu: message \"%s\" does not start with %s", i, msg, cases[i].where);
        CHECK_MSG(strstr(msg, cases[i].what) != NULL, "case %zu: message \"%s\" lacks \"%s\"", i,
                  msg, cases[i].what);
        CHECK_MSG(fx.technique_count == 0 && fx.techniques == NULL && fx.source == NULL,
                  "case %zu: a failed scan left results", i);
    }
    /* a NUL inside the declared size is refused, not silently truncated */
    xgdi_hlsl_fx fx;
    char msg[128];
    CHECK_RESULT(xgdi_hlsl_fx_scan("float4 a;\0technique", 19, "nul.fx", &fx, msg, sizeof msg),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_RESULT(xgdi_hlsl_fx_scan(NULL, 0, "x", &fx, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    /* a source without techniques is valid: the caller supplies them */
    REQUIRE_OK(xgdi_hlsl_fx_scan("float4 main() : SV_Target { return 1; }", 39, "x", &fx, msg,
                                 sizeof msg));
    CHECK_INT(fx.technique_count, 0);
    xgdi_hlsl_fx_free(&fx);
}

#ifdef XGD_TEST_HAVE_GLSLANG

/* The entry point's name and whether a UserSemantic string decoration holds `semantic`. */
static bool spirv_has(const uint32_t *w, size_t n, const char *entry, const char *semantic,
                      bool *entry_found)
{
    bool found = false;
    *entry_found = false;
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || i + count > n) return false;
        if (op == 15 /* OpEntryPoint */ && count > 3 && strcmp((const char *)&w[i + 3], entry) == 0)
            *entry_found = true;
        if ((op == 5632 /* OpDecorateString */ && count > 3 && w[i + 2] == 5635 /* UserSemantic */ &&
             strcmp((const char *)&w[i + 3], semantic) == 0) ||
            (op == 5633 /* OpMemberDecorateString */ && count > 4 && w[i + 3] == 5635 &&
             strcmp((const char *)&w[i + 4], semantic) == 0))
            found = true;
        i += count;
    }
    return found;
}

static bool spirv_valid(xgdt_ctx *t, const uint32_t *w, size_t n)
{
    spv_context ctx = spvContextCreate(SPV_ENV_VULKAN_1_0);
    spv_diagnostic diag = NULL;
    spv_const_binary_t bin = { w, n };
    spv_result_t r = spvValidate(ctx, &bin, &diag);
    if (r != SPV_SUCCESS)
        xgdt_fail_at(t, __FILE__, __LINE__, "spirv-val: %s", diag ? diag->error : "(no message)");
    spvDiagnosticDestroy(diag);
    spvContextDestroy(ctx);
    return r == SPV_SUCCESS;
}

#endif

XGD_TEST(hlsl_compile_entry_points)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    uint32_t *none;
    size_t none_count;
    char *why;
    CHECK_RESULT(xgdi_hlsl_compile("float4 main() : SV_Target { return 1; }", "x.fx", "main",
                                   XGDI_HLSL_PIXEL, &none, &none_count, &why),
                 XGD_ERROR_NOT_SUPPORTED);
    free(why);
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    CHECK(xgdi_hlsl_compiler_available());
    xgdi_hlsl_fx fx;
    char msg[256];
    REQUIRE_OK(xgdi_hlsl_fx_scan(fx_source, strlen(fx_source), "scan.fx", &fx, msg, sizeof msg));
    static const struct {
        const char *entry;
        xgdi_hlsl_stage stage;
        const char *semantic;
    } eps[] = { { "VS", XGDI_HLSL_VERTEX, "POSITION0" },
                { "VS", XGDI_HLSL_VERTEX, "TEXCOORD0" },
                { "PS", XGDI_HLSL_PIXEL, "COLOR0" },
                { "PS2", XGDI_HLSL_PIXEL, "SV_TARGET" } };
    for (size_t i = 0; i < sizeof eps / sizeof eps[0]; i++) {
        uint32_t *words = NULL;
        size_t count = 0;
        char *log = NULL;
        xgd_result r = xgdi_hlsl_compile(fx.source, "scan.fx", eps[i].entry, eps[i].stage, &words,
                                         &count, &log);
        CHECK_MSG(r == XGD_OK, "%s: %s: %s", eps[i].entry, xgd_result_name(r), log ? log : "");
        if (r == XGD_OK) {
            CHECK_MSG(count > 5 && words[0] == 0x07230203u, "%s: not a SPIR-V module", eps[i].entry);
            spirv_valid(t, words, count);
            bool entry_found;
            CHECK_MSG(spirv_has(words, count, eps[i].entry, eps[i].semantic, &entry_found),
                      "%s: no UserSemantic %s", eps[i].entry, eps[i].semantic);
            CHECK_MSG(entry_found, "%s: the module's entry point has another name", eps[i].entry);
        }
        free(words);
        free(log);
    }
    xgdi_hlsl_fx_free(&fx);
#endif
}

/* Compiler errors come back named, with the user's file and line (blanking kept the lines). */
XGD_TEST(hlsl_compile_errors)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    static const char src[] =
        "technique T\n"
        "{\n"
        "    pass { PixelShader = compile ps_4_0 Broken(); }\n"
        "}\n"
        "float4 Fine() : SV_Target { return 1; }\n"
        "float4 Broken() : SV_Target { return undeclared_name; }\n"; /* line 6 */
    /* (an error anywhere fails every entry point: HLSL compiles the whole source) */
    xgdi_hlsl_fx fx;
    char msg[256];
    REQUIRE_OK(xgdi_hlsl_fx_scan(src, strlen(src), "errors.fx", &fx, msg, sizeof msg));
    uint32_t *words = NULL;
    size_t count = 0;
    char *log = NULL;
    CHECK_RESULT(xgdi_hlsl_compile(fx.source, "errors.fx", "Broken", XGDI_HLSL_PIXEL, &words,
                                   &count, &log),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK(words == NULL && count == 0);
    CHECK_MSG(log != NULL && strstr(log, "errors.fx:6") != NULL && strstr(log, "undeclared_name"),
              "log: %s", log ? log : "(none)");
    free(log);
    log = NULL;
    /* an entry point the source does not define (in a source that compiles otherwise) */
    CHECK_RESULT(xgdi_hlsl_compile("float4 Fine() : SV_Target { return 1; }\n", "errors.fx",
                                   "Missing", XGDI_HLSL_PIXEL, &words,
                                   &count, &log),
                 XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(log != NULL && strstr(log, "ntry point") != NULL, "log: %s", log ? log : "(none)");
    free(log);
    log = NULL;
    CHECK_RESULT(xgdi_hlsl_compile(fx.source, "errors.fx", "", XGDI_HLSL_PIXEL, &words, &count, &log),
                 XGD_ERROR_INVALID_ARGUMENT);
    free(log);
    xgdi_hlsl_fx_free(&fx);
#endif
}

/* Reflection of a compiled entry point: semantics to XNA usages, constant-buffer members at the
 * offsets HLSL's packing rules give (a 16-byte register never holds a straddling vector;
 * matrices, arrays and structs start a register; arrays step a register per element;
 * row_major matrices take one register per row, column_major one per column), and resources. */
#include "../shader/hlsl_reflect.h"

#ifdef XGD_TEST_HAVE_GLSLANG
static const xgdi_reflect_member *find_member(const xgdi_reflection *r, const char *name)
{
    for (int i = 0; i < r->member_count; i++)
        if (strcmp(r->members[i].name, name) == 0) return &r->members[i];
    return NULL;
}
#endif

XGD_TEST(hlsl_reflect_entry_point)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdi_reflection none;
    char why[128];
    CHECK_RESULT(xgdi_hlsl_reflect(NULL, 0, &none, why, sizeof why), XGD_ERROR_NOT_SUPPORTED);
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    static const char src[] =
        "struct S { float2 a; float b; };\n"
        "cbuffer Params {\n"
        "    float4x4 World;\n"            /* column_major (HLSL's default): 4 registers */
        "    row_major float4x3 M;\n"      /* 4 rows of 3: 3 registers + 12 bytes */
        "    float3 V;\n"
        "    float Sc;\n"
        "    int I;\n"
        "    bool B;\n"
        "    float4 Arr[3];\n"
        "    S St;\n"
        "};\n"
        "Texture2D Tex; SamplerState Samp; sampler2D Old; TextureCube Env; SamplerState EnvSamp;\n"
        "struct VSIn { float4 pos : POSITION0; float4 col : COLOR0; float2 uv : TEXCOORD1; };\n"
        "struct VSOut { float4 pos : SV_Position; float4 col : COLOR0; float2 uv : TEXCOORD1; };\n"
        "VSOut VS(VSIn i) {\n"
        "    VSOut o;\n"
        "    o.pos = mul(i.pos, World) + float4(mul(i.pos, M), 0) + float4(V * Sc, I) + Arr[2];\n"
        "    o.col = i.col * (B ? 1 : St.b) + St.a.xyxy;\n"
        "    o.uv = i.uv;\n"
        "    return o;\n"
        "}\n"
        "float4 PS(VSOut i) : SV_Target0 {\n"
        "    return Tex.Sample(Samp, i.uv) * tex2D(Old, i.uv) * Env.Sample(EnvSamp, i.col.xyz);\n"
        "}\n";
    uint32_t *words = NULL;
    size_t count = 0;
    char *log = NULL;
    xgd_result r = xgdi_hlsl_compile(src, "reflect.fx", "VS", XGDI_HLSL_VERTEX, &words, &count, &log);
    CHECK_MSG(r == XGD_OK, "VS: %s", log ? log : "");
    free(log);
    log = NULL;
    REQUIRE(r == XGD_OK);
    xgdi_reflection rf;
    char msg[256];
    r = xgdi_hlsl_reflect(words, count, &rf, msg, sizeof msg);
    free(words);
    CHECK_MSG(r == XGD_OK, "reflect VS: %s", msg);
    REQUIRE(r == XGD_OK);

    REQUIRE(rf.input_count == 3);
    bool seen[3] = { false, false, false };
    for (int i = 0; i < rf.input_count; i++) {
        const xgdi_reflect_io *io = &rf.inputs[i];
        CHECK(!io->system_value && io->location >= 0);
        if (strcmp(io->semantic, "POSITION0") == 0) {
            seen[0] = true;
            CHECK(io->usage == XGD_VERTEX_USAGE_POSITION && io->usage_index == 0);
            CHECK_INT(io->components, 4);
        } else if (strcmp(io->semantic, "COLOR0") == 0) {
            seen[1] = true;
            CHECK(io->usage == XGD_VERTEX_USAGE_COLOR && io->usage_index == 0);
        } else if (strcmp(io->semantic, "TEXCOORD1") == 0) {
            seen[2] = true;
            CHECK(io->usage == XGD_VERTEX_USAGE_TEXTURE_COORDINATE && io->usage_index == 1);
            CHECK_INT(io->components, 2);
        }
    }
    CHECK(seen[0] && seen[1] && seen[2]);
    CHECK_INT(rf.output_count, 2); /* SV_Position is a built-in */

    REQUIRE(rf.buffer_count == 1);
    CHECK(strcmp(rf.buffers[0].name, "Params") == 0);
    CHECK_INT(rf.buffers[0].member_count, 8);
    static const struct {
        const char *name;
        xgdi_reflect_class cls;
        xgdi_reflect_type type;
        int rows, columns, elements;
        uint32_t offset;
    } want[] = {
        { "World", XGDI_REFLECT_MATRIX, XGDI_REFLECT_FLOAT, 4, 4, 0, 0 },
        { "M", XGDI_REFLECT_MATRIX, XGDI_REFLECT_FLOAT, 4, 3, 0, 64 },
        { "V", XGDI_REFLECT_VECTOR, XGDI_REFLECT_FLOAT, 1, 3, 0, 128 },  /* 124 would straddle */
        { "Sc", XGDI_REFLECT_SCALAR, XGDI_REFLECT_FLOAT, 1, 1, 0, 140 },
        { "I", XGDI_REFLECT_SCALAR, XGDI_REFLECT_INT, 1, 1, 0, 144 },
        /* a buffer bool is a 32-bit uint in SPIR-V (hlsl_reflect.h) */
        { "B", XGDI_REFLECT_SCALAR, XGDI_REFLECT_UINT, 1, 1, 0, 148 },
        { "Arr", XGDI_REFLECT_VECTOR, XGDI_REFLECT_FLOAT, 1, 4, 3, 160 },
        { "St", XGDI_REFLECT_STRUCT, XGDI_REFLECT_STRUCT_TYPE, 0, 0, 0, 208 },
        { "a", XGDI_REFLECT_VECTOR, XGDI_REFLECT_FLOAT, 1, 2, 0, 208 },
        { "b", XGDI_REFLECT_SCALAR, XGDI_REFLECT_FLOAT, 1, 1, 0, 216 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const xgdi_reflect_member *m = find_member(&rf, want[i].name);
        CHECK_MSG(m != NULL, "no member %s", want[i].name);
        if (m == NULL) continue;
        CHECK_MSG(m->cls == want[i].cls && m->type == want[i].type, "%s: class %d type %d",
                  want[i].name, (int)m->cls, (int)m->type);
        if (want[i].cls != XGDI_REFLECT_STRUCT)
            CHECK_MSG(m->rows == want[i].rows && m->columns == want[i].columns,
                      "%s: %d x %d, expected %d x %d", want[i].name, m->rows, m->columns,
                      want[i].rows, want[i].columns);
        CHECK_MSG(m->elements == want[i].elements, "%s: %d elements", want[i].name, m->elements);
        CHECK_MSG(m->offset == want[i].offset, "%s: offset %u, expected %u", want[i].name,
                  m->offset, want[i].offset);
    }
    const xgdi_reflect_member *world = find_member(&rf, "World"), *mm = find_member(&rf, "M"),
                              *arr = find_member(&rf, "Arr"), *a = find_member(&rf, "a");
    if (world && mm) {
        CHECK_MSG(!world->row_major && mm->row_major, "row_major: World %d, M %d", world->row_major,
                  mm->row_major);
        CHECK_INT(world->matrix_stride, 16);
        CHECK_INT(mm->matrix_stride, 16);
    }
    if (arr) CHECK_INT(arr->array_stride, 16);
    if (a && a->parent >= 0) CHECK(strcmp(rf.members[a->parent].name, "St") == 0);
    xgdi_reflection_free(&rf);

    /* the pixel shader's resources: separate textures and samplers, and the DX9 combined one */
    r = xgdi_hlsl_compile(src, "reflect.fx", "PS", XGDI_HLSL_PIXEL, &words, &count, &log);
    CHECK_MSG(r == XGD_OK, "PS: %s", log ? log : "");
    free(log);
    REQUIRE(r == XGD_OK);
    r = xgdi_hlsl_reflect(words, count, &rf, msg, sizeof msg);
    free(words);
    REQUIRE(r == XGD_OK);
    int textures = 0, samplers = 0, combined = 0;
    for (int i = 0; i < rf.resource_count; i++) {
        const xgdi_reflect_resource *res = &rf.resources[i];
        if (strcmp(res->name, "Tex") == 0) {
            textures++;
            CHECK(res->kind == XGDI_REFLECT_TEXTURE && res->dim == XGDI_REFLECT_DIM_2D);
        } else if (strcmp(res->name, "Env") == 0) {
            textures++;
            CHECK(res->kind == XGDI_REFLECT_TEXTURE && res->dim == XGDI_REFLECT_DIM_CUBE);
        } else if (strcmp(res->name, "Samp") == 0 || strcmp(res->name, "EnvSamp") == 0) {
            samplers++;
            CHECK(res->kind == XGDI_REFLECT_SAMPLER);
        } else if (strcmp(res->name, "Old") == 0) {
            combined++;
            CHECK(res->kind == XGDI_REFLECT_COMBINED && res->dim == XGDI_REFLECT_DIM_2D);
        }
    }
    CHECK_INT(textures, 2);
    CHECK_INT(samplers, 2);
    CHECK_INT(combined, 1);
    REQUIRE(rf.output_count == 1);
    CHECK(rf.outputs[0].system_value && strcmp(rf.outputs[0].semantic, "SV_TARGET0") == 0);
    xgdi_reflection_free(&rf);
#endif
}

/* Semantics XNA has no usage for are refused by name; garbage is not a module. */
XGD_TEST(hlsl_reflect_refusals)
{
    xgd_vertex_element_usage u;
    int idx;
    CHECK(xgdi_hlsl_semantic_usage("texcoord12", &u, &idx) && u == XGD_VERTEX_USAGE_TEXTURE_COORDINATE &&
          idx == 12);
    CHECK(xgdi_hlsl_semantic_usage("BLENDWEIGHT", &u, &idx) && u == XGD_VERTEX_USAGE_BLEND_WEIGHT &&
          idx == 0);
    CHECK(!xgdi_hlsl_semantic_usage("BANANA0", &u, &idx));
    CHECK(!xgdi_hlsl_semantic_usage("123", &u, &idx));
    CHECK(!xgdi_hlsl_semantic_usage("", &u, &idx));
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "this build has no HLSL compiler (XGD_HLSL=OFF)");
#else
    static const char src[] = "float4 VS(float4 p : POSITION0, float4 x : BANANA0) : SV_Position "
                              "{ return p + x; }\n";
    uint32_t *words = NULL;
    size_t count = 0;
    char *log = NULL;
    xgd_result r = xgdi_hlsl_compile(src, "banana.fx", "VS", XGDI_HLSL_VERTEX, &words, &count, &log);
    free(log);
    REQUIRE(r == XGD_OK);
    xgdi_reflection rf;
    char msg[256];
    CHECK_RESULT(xgdi_hlsl_reflect(words, count, &rf, msg, sizeof msg), XGD_ERROR_NOT_SUPPORTED);
    CHECK_MSG(strstr(msg, "BANANA0") != NULL, "message: %s", msg);
    CHECK(rf.inputs == NULL && rf.input_count == 0);
    free(words);
    const uint32_t junk[8] = { 0x07230203u, 0x00010000u, 0, 100, 0, 0xdeadbeefu, 1, 2 };
    CHECK_RESULT(xgdi_hlsl_reflect(junk, 8, &rf, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
    CHECK_MSG(msg[0] != '\0', "no message for an unreadable module");
    CHECK_RESULT(xgdi_hlsl_reflect(junk, 3, &rf, msg, sizeof msg), XGD_ERROR_INVALID_ARGUMENT);
#endif
}
