/*
 * test_d3d9_check.c - the Direct3D 9 token check that runs before MojoShader. MojoShader's
 * front end refuses an instruction it finds malformed but goes on translating the rest of the
 * shader, and its SPIR-V back end asserts (aborts) when that leaves a register undeclared
 * (a sampler read by texld after a dropped dcl) or a block unopened (an endif after a dropped
 * ifc). So every shader of that kind must be refused by the check, by name. Each case here is
 * a valid shader and one change that MojoShader's front end refuses: the valid one passes the
 * check and translates to SPIR-V; the changed one is refused by the check and, where MojoShader
 * is linked, MojoShader's bytecode profile (whose emitters do nothing, so it cannot assert)
 * reports an error for it too, so the check refuses nothing MojoShader would take.
 */
#include "harness.h"

#include "../src/shader/d3d9_check.h" /* internal: the check runs inside the effect loader */

#include <stdio.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_MOJOSHADER
#include <mojoshader/mojoshader.h>
#endif

#define PS20 0xffff0200u
#define PS30 0xffff0300u
#define END 0x0000ffffu
#define DCL 0x0200001fu
#define DCL_USAGE_NONE 0x80000000u
#define DCL_2D 0x90000000u
#define REG_T0 0xb00f0000u    /* t0 (texture coordinate), .xyzw */
#define REG_S0 0xa00f0800u    /* s0 */
#define SRC_T0 0xb0e40000u
#define SRC_S0 0xa0e40800u
#define SRC_R0 0x80e40000u
#define SRC_C0 0xa0e40000u
#define DST_R0 0x800f0000u
#define DST_OC0 0x800f0800u
#define TEXLD 0x03000042u
#define MOV 0x02000001u
#define NOP 0x00000000u
#define DEF 0x05000051u
#define IFC_GT 0x02010029u
#define ENDIF 0x0000002bu
#define REG_VFACE 0x900f1001u /* vFace (misc 1), .xyzw */
#define SRC_VFACE_X 0x90001001u

static xgd_result check(const uint32_t *tokens, size_t count, char *err, size_t cap)
{
    return xgdi_d3d9_check(tokens, count * 4, NULL, err, cap);
}

/* valid: passes the check and MojoShader translates it to SPIR-V */
static void expect_valid(xgdt_ctx *t, const char *what, const uint32_t *tokens, size_t count)
{
    char err[192];
    xgd_result r = check(tokens, count, err, sizeof err);
    CHECK_MSG(r == XGD_OK, "%s: the check refused it: %s (%s)", what, xgd_result_name(r), err);
#ifdef XGD_TEST_HAVE_MOJOSHADER
    if (r == XGD_OK) {
        const MOJOSHADER_parseData *p = MOJOSHADER_parse("spirv", "main", (const unsigned char *)tokens,
                                                         (unsigned)(count * 4), NULL, 0, NULL, 0, NULL,
                                                         NULL, NULL);
        CHECK_MSG(p != NULL && p->error_count == 0, "%s: MojoShader refused it: %s", what,
                  p && p->error_count ? p->errors[0].error : "out of memory");
        if (p != NULL) MOJOSHADER_freeParseData(p);
    }
#endif
}

/* refused by the check with a message naming the cause; MojoShader's front end refuses it too */
static void expect_refused(xgdt_ctx *t, const char *what, const uint32_t *tokens, size_t count,
                           const char *cause)
{
    char err[192];
    xgd_result r = check(tokens, count, err, sizeof err);
    CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "%s: the check gave %s, not INVALID_ARGUMENT", what,
              xgd_result_name(r));
    CHECK_MSG(strstr(err, cause) != NULL, "%s: message \"%s\" does not name \"%s\"", what, err, cause);
#ifdef XGD_TEST_HAVE_MOJOSHADER
    const MOJOSHADER_parseData *p = MOJOSHADER_parse("bytecode", "main", (const unsigned char *)tokens,
                                                     (unsigned)(count * 4), NULL, 0, NULL, 0, NULL, NULL,
                                                     NULL);
    CHECK_MSG(p != NULL && p->error_count > 0, "%s: MojoShader's front end accepts it", what);
    if (p != NULL) MOJOSHADER_freeParseData(p);
#endif
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

XGD_TEST(D3d9Check_SamplerDeclarationMojoShaderDrops)
{
    /* ps_2_0: dcl t0; dcl_2d s0; texld r0, t0, s0; mov oC0, r0 */
    uint32_t ok[] = { PS20, DCL, DCL_USAGE_NONE, REG_T0, DCL, DCL_2D, REG_S0,
                      TEXLD, DST_R0, SRC_T0, SRC_S0, MOV, DST_OC0, SRC_R0, END };
    expect_valid(t, "texld of a declared sampler", ok, N(ok));
    /* reserved bit 15 in dcl_2d's register token (the fuzz input's change) */
    uint32_t bad[N(ok)];
    memcpy(bad, ok, sizeof ok);
    bad[6] |= 0x8000u;
    expect_refused(t, "dcl_2d s0 with reserved bit 15", bad, N(bad), "reserved bits");
    /* reserved bit 14 in a source and a destination token of texld */
    memcpy(bad, ok, sizeof ok);
    bad[9] |= 0x4000u;
    expect_refused(t, "texld source with reserved bit 14", bad, N(bad), "reserved bits");
    memcpy(bad, ok, sizeof ok);
    bad[8] |= 0x4000u;
    expect_refused(t, "texld destination with reserved bit 14", bad, N(bad), "reserved bits");
}

XGD_TEST(D3d9Check_DeclarationAfterInstruction)
{
    /* def first is allowed: ps_2_0: def c0; dcl t0; dcl_2d s0; texld r0, t0, s0; mul oC0... */
    uint32_t ok[] = { PS20, DEF, 0xa00f0000u, 0x3f800000u, 0, 0, 0x3f800000u,
                      DCL, DCL_USAGE_NONE, REG_T0, DCL, DCL_2D, REG_S0,
                      TEXLD, DST_R0, SRC_T0, SRC_S0, MOV, DST_OC0, SRC_R0, END };
    expect_valid(t, "def before the declarations", ok, N(ok));
    /* the sampler declared after an instruction (mov r0, c0) */
    uint32_t late[] = { PS20, DEF, 0xa00f0000u, 0x3f800000u, 0, 0, 0x3f800000u,
                        DCL, DCL_USAGE_NONE, REG_T0, MOV, DST_R0, SRC_C0, DCL, DCL_2D, REG_S0,
                        TEXLD, DST_R0, SRC_T0, SRC_S0, MOV, DST_OC0, SRC_R0, END };
    expect_refused(t, "dcl_2d s0 after mov", late, N(late), "declaration follows an instruction");
    /* after a nop */
    uint32_t after_nop[] = { PS20, NOP, DCL, DCL_USAGE_NONE, REG_T0, DCL, DCL_2D, REG_S0,
                             TEXLD, DST_R0, SRC_T0, SRC_S0, MOV, DST_OC0, SRC_R0, END };
    expect_refused(t, "dcl after nop", after_nop, N(after_nop), "declaration follows an instruction");
}

XGD_TEST(D3d9Check_IfcComparesOneComponent)
{
    /* ps_3_0: def c0; ifc_gt c0.x, c0.y; mov oC0, c0; endif */
    uint32_t ok[] = { PS30, DEF, 0xa00f0000u, 0x3f800000u, 0, 0, 0x3f800000u,
                      IFC_GT, 0xa0000000u, 0xa0550000u, MOV, DST_OC0, SRC_C0, ENDIF, END };
    expect_valid(t, "ifc of .x and .y", ok, N(ok));
    uint32_t bad[N(ok)];
    memcpy(bad, ok, sizeof ok);
    bad[8] = 0xa0e40000u; /* c0.xyzw */
    expect_refused(t, "ifc of c0.xyzw", bad, N(bad), "ifc / breakc compare one component");
    memcpy(bad, ok, sizeof ok);
    bad[9] = 0xa0540000u; /* c0.xyyy */
    expect_refused(t, "ifc of c0.xyyy", bad, N(bad), "ifc / breakc compare one component");
}

XGD_TEST(D3d9Check_VFaceDeclaration)
{
    /* ps_3_0: dcl vFace; mov oC0, vFace.x */
    uint32_t ok[] = { PS30, DCL, DCL_USAGE_NONE, REG_VFACE, MOV, DST_OC0, SRC_VFACE_X, END };
    expect_valid(t, "dcl vFace", ok, N(ok));
    uint32_t bad[N(ok)];
    memcpy(bad, ok, sizeof ok);
    bad[2] = 0x80000005u; /* a usage (texcoord) on vFace */
    expect_refused(t, "dcl vFace with a usage", bad, N(bad), "vPos / vFace declaration is malformed");
    memcpy(bad, ok, sizeof ok);
    bad[3] = 0x90011001u; /* vFace.x */
    expect_refused(t, "dcl vFace.x", bad, N(bad), "vPos / vFace declaration is malformed");
}

#define VS30 0xfffe0300u
#define VS20 0xfffe0200u
#define DCL_POSITION 0x80000000u
#define DCL_COLOR 0x8000000au
#define REG_V0 0x900f0000u
#define REG_O0 0xe00f0000u
#define SRC_V0 0x90e40000u

/* refused as NOT_SUPPORTED naming the cause; MojoShader's front end (the bytecode profile)
   accepts it, so the check is all that keeps it from the SPIR-V back end, which asserts */
static void expect_unsupported(xgdt_ctx *t, const char *what, const uint32_t *tokens, size_t count,
                               const char *cause)
{
    char err[192];
    xgd_result r = check(tokens, count, err, sizeof err);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED, "%s: the check gave %s, not NOT_SUPPORTED", what,
              xgd_result_name(r));
    CHECK_MSG(r == XGD_OK || strstr(err, cause) != NULL, "%s: message \"%s\" does not name \"%s\"",
              what, err, cause);
#ifdef XGD_TEST_HAVE_MOJOSHADER
    const MOJOSHADER_parseData *p = MOJOSHADER_parse("bytecode", "main", (const unsigned char *)tokens,
                                                     (unsigned)(count * 4), NULL, 0, NULL, 0, NULL, NULL,
                                                     NULL);
    CHECK_MSG(p != NULL && p->error_count == 0, "%s: MojoShader's front end refuses it: %s", what,
              p && p->error_count ? p->errors[0].error : "out of memory");
    if (p != NULL) MOJOSHADER_freeParseData(p);
#endif
}

/* The fx fuzz find of session 10 (fuzz/regressions/fx/declarations-without-instructions): a
   shader that declares registers and does nothing else made MojoShader's SPIR-V back end
   abort (push_output's assertion) */
XGD_TEST(D3d9Check_DeclarationsWithoutInstructions)
{
    const char *cause = "declares registers but has no instructions";
    uint32_t vs_in[] = { VS30, DCL, DCL_POSITION, REG_V0, END };
    expect_unsupported(t, "vs_3_0 dcl_position v0 alone", vs_in, N(vs_in), cause);
    uint32_t vs_nop[] = { VS30, DCL, DCL_POSITION, REG_V0, NOP, NOP, END };
    expect_unsupported(t, "vs_3_0 dcl_position v0 and nops", vs_nop, N(vs_nop), cause);
    uint32_t vs_out[] = { VS30, DCL, DCL_POSITION, REG_O0, END };
    expect_unsupported(t, "vs_3_0 dcl_position o0 alone", vs_out, N(vs_out), cause);
    uint32_t vs2_in[] = { VS20, DCL, DCL_POSITION, REG_V0, END };
    expect_unsupported(t, "vs_2_0 dcl_position v0 alone", vs2_in, N(vs2_in), cause);
    uint32_t ps3_in[] = { PS30, DCL, DCL_COLOR, REG_V0, END };
    expect_unsupported(t, "ps_3_0 dcl_color v0 alone", ps3_in, N(ps3_in), cause);
    uint32_t ps2_t[] = { PS20, DCL, DCL_USAGE_NONE, REG_T0, NOP, END };
    expect_unsupported(t, "ps_2_0 dcl t0 and nop", ps2_t, N(ps2_t), cause);

    /* what stays accepted: a declaration followed by work (an instruction, or a def), and a
       shader with neither */
    uint32_t vs_mov[] = { VS30, DCL, DCL_POSITION, REG_V0, DCL, DCL_POSITION, REG_O0,
                          MOV, REG_O0, SRC_V0, END };
    expect_valid(t, "vs_3_0 dcl v0, dcl o0, mov o0, v0", vs_mov, N(vs_mov));
    uint32_t vs_def[] = { VS30, DCL, DCL_POSITION, REG_V0, DEF, 0xa00f0000u, 0, 0, 0, 0, END };
    expect_valid(t, "vs_3_0 dcl v0 and def c0", vs_def, N(vs_def));
    uint32_t empty[] = { VS30, END };
    expect_valid(t, "vs_3_0 with nothing", empty, N(empty));
}

/* The second fx fuzz find of session 10 (fuzz/regressions/fx/integer-constant-read-by-mov):
   mov oC0, i0 made MojoShader's SPIR-V back end abort (push_output's assertion). Direct3D 9
   reads integer constants only in loop and rep, boolean ones only in if. */
XGD_TEST(D3d9Check_IntegerAndBooleanConstantsOnlyInFlowControl)
{
    const char *cause = "integer or boolean constant is read outside loop, rep and if";
    char err[192];
    const uint32_t SRC_I0 = 0xf0e40000u, SRC_B0 = 0xe0e40800u;
    uint32_t mov_i[] = { PS20, MOV, DST_OC0, SRC_I0, END };
    uint32_t mov_b[] = { PS20, MOV, DST_OC0, SRC_B0, END };
    uint32_t add_i[] = { PS20, 0x03000002u, DST_R0, SRC_C0, SRC_I0, MOV, DST_OC0, SRC_R0, END };
    uint32_t vs_i[] = { VS20, MOV, 0xc00f0000u, SRC_I0, END };
    const struct { const char *what; const uint32_t *tokens; size_t count; } bad[] = {
        { "ps_2_0 mov oC0, i0", mov_i, N(mov_i) },
        { "ps_2_0 mov oC0, b0", mov_b, N(mov_b) },
        { "ps_2_0 add r0, c0, i0", add_i, N(add_i) },
        { "vs_2_0 mov oPos, i0", vs_i, N(vs_i) },
    };
    for (size_t i = 0; i < N(bad); i++) {
        xgd_result r = check(bad[i].tokens, bad[i].count, err, sizeof err);
        CHECK_MSG(r == XGD_ERROR_INVALID_ARGUMENT, "%s: %s, not INVALID_ARGUMENT", bad[i].what, xgd_result_name(r));
        CHECK_MSG(r == XGD_OK || strstr(err, cause) != NULL, "%s: message \"%s\"", bad[i].what, err);
    }
    /* where they belong: if b0 (ps_3_0; defb b0 first), rep i0 (vs_3_0; defi i0 first) */
    uint32_t if_b[] = { PS30, 0x0200002fu, 0xe00f0800u, 1, 0x01000028u, SRC_B0, MOV, DST_OC0, SRC_C0,
                        ENDIF, END };
    expect_valid(t, "ps_3_0 defb b0; if b0; mov oC0, c0; endif", if_b, N(if_b));
    uint32_t rep_i[] = { VS30, 0x05000030u, 0xf00f0000u, 2, 0, 0, 0, DCL, DCL_POSITION, REG_O0,
                         0x01000026u, SRC_I0, MOV, REG_O0, SRC_C0, 0x00000027u, END };
    expect_valid(t, "vs_3_0 defi i0; rep i0; mov o0, c0; endrep", rep_i, N(rep_i));
}
