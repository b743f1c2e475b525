/*
 * stock_effects_fx.c - the sources of XNA's AlphaTestEffect, DualTextureEffect,
 * EnvironmentMapEffect and SkinnedEffect as effects: D3D9 assembly (vs_2_0 / ps_2_0, XNA's
 * profiles for these effects) and each effect's parameters, techniques and passes. Run by
 * shaders/compile-stock-fx.sh, it assembles the shaders with MojoShader's assembler, packs each
 * effect as fx_2_0 with the project's writer (tests/fx_writer.c) and prints the C header
 * shaders/generated/stock_fx.h that src/graphics/stock_effects.c loads through
 * xgd_effect_create.
 *
 * Conventions of every effect here:
 * - Matrices are column_major in registers (one column per register), so `m4x4 oPos, v0, c0`
 *   computes pos * WorldViewProj for XNA's row-vector matrices.
 * - Vertex colours leave the vertex shader through oD0/oD1 clamped to 0..1 by the shader itself,
 *   as Direct3D 9 clamps colour outputs of vs_2_0 (the SPIR-V form does not clamp).
 * - Fog: factor = saturate(dot(float4(pos, 1), FogVector)) per vertex (FogVector is zero with
 *   fog off), carried in oD1.w; the pixel colour is rgb = lerp(rgb, FogColor * a, factor).
 * - Uniform values replace XNA's fog-on/off and alpha-function shader permutations (the pixels
 *   are the same; a zero FogVector gives factor 0); techniques remain where the vertex inputs
 *   differ (vertex colour, weights per vertex), since those decide what a vertex declaration
 *   must hold.
 * - Every effect has an int array parameter XgdProperties: the public parameter block of the
 *   effect (src/graphics/stock_effects.c), kept in the effect so Clone copies it.
 */
#include "fx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROPERTY_INTS 256 /* room for the largest parameter block of stock_effects.c */

static char err[512];

static void fail(const char *what)
{
    fprintf(stderr, "stock_effects_fx: %s: %s\n", what, err);
    exit(1);
}

static fxw_symbol fsym(const char *name, int reg, int count, int cls, int rows, int cols,
                       int elements)
{
    return (fxw_symbol){ name, 2, reg, count, cls, FXW_FLOAT, rows, cols, elements };
}

static fxw_symbol ssym(const char *name, int reg, int type)
{
    return (fxw_symbol){ name, 3, reg, 1, FXW_OBJECT, type, 1, 1, 0 };
}

#define VEC4(name, reg) fsym(name, reg, 1, FXW_VECTOR, 1, 4, 0)
#define VEC3(name, reg) fsym(name, reg, 1, FXW_VECTOR, 1, 3, 0)
#define SCALAR(name, reg) fsym(name, reg, 1, FXW_SCALAR, 1, 1, 0)
#define MAT44(name, reg) fsym(name, reg, 4, FXW_MATRIX_COLUMNS, 4, 4, 0)
#define MAT33(name, reg) fsym(name, reg, 3, FXW_MATRIX_COLUMNS, 3, 3, 0)

static void vec(fxw *w, const char *name, int columns)
{
    fxw_param(w, name, NULL, columns == 1 ? FXW_SCALAR : FXW_VECTOR, FXW_FLOAT, 1, columns, 0,
              NULL);
}

static void mat(fxw *w, const char *name, int rows, int columns, int elements)
{
    fxw_param(w, name, NULL, FXW_MATRIX_COLUMNS, FXW_FLOAT, rows, columns, elements, NULL);
}

static void pass(fxw *w, const char *technique, const char *vs, const fxw_symbol *vsym, int nv,
                 const char *ps, const fxw_symbol *psym, int np)
{
    int t = fxw_technique(w, technique);
    int p = fxw_pass(w, t, "Pass1");
    if (!fxw_shader(w, t, p, true, vs, vsym, nv, err, sizeof err)) fail(technique);
    if (!fxw_shader(w, t, p, false, ps, psym, np, err, sizeof err)) fail(technique);
}

static void properties(fxw *w)
{
    fxw_param(w, "XgdProperties", NULL, FXW_SCALAR, FXW_INT, 1, 1, PROPERTY_INTS, NULL);
}

static void emit(const char *name, fxw *w)
{
    size_t n = 0;
    uint8_t *b = fxw_finish(w, false, &n);
    if (b == NULL) {
        strcpy(err, "out of memory");
        fail(name);
    }
    printf("static const unsigned char xgd_stock_fx_%s[%zu] = {", name, n);
    for (size_t i = 0; i < n; i++) printf("%s%u,", i % 20 == 0 ? "\n    " : " ", b[i]);
    printf("\n};\n\n");
    free(b);
    fxw_destroy(w);
}

/* ---- AlphaTestEffect -------------------------------------------------------------------------
 * colour = tex2D(Texture, uv) * DiffuseColor (* vertex colour); the pixel is discarded when
 * clip((a < x) ? z : w) (AlphaTestEqNe = 0) or clip((abs(a - x) < y) ? z : w)
 * (AlphaTestEqNe = 1) discards it, AlphaTest = (x, y, z, w) as XNA's AlphaTestEffect sets it;
 * then fog. */
static const char alpha_test_vs[] =
    "vs_2_0\n"
    "def c6, 0, 1, 0, 0\n"
    "dcl_position v0\ndcl_texcoord v1\n"
    "m4x4 oPos, v0, c0\n"
    "mov r1, c5\n"
    "max r1, r1, c6.x\nmin oD0, r1, c6.y\n"
    "dp4 r0.x, v0, c4\nmax r0.x, r0.x, c6.x\nmin oD1, r0.x, c6.y\n"
    "mov oT0.xy, v1\n";
static const char alpha_test_vc_vs[] =
    "vs_2_0\n"
    "def c6, 0, 1, 0, 0\n"
    "dcl_position v0\ndcl_texcoord v1\ndcl_color v2\n"
    "m4x4 oPos, v0, c0\n"
    "mul r1, v2, c5\n"
    "max r1, r1, c6.x\nmin oD0, r1, c6.y\n"
    "dp4 r0.x, v0, c4\nmax r0.x, r0.x, c6.x\nmin oD1, r0.x, c6.y\n"
    "mov oT0.xy, v1\n";
static const char alpha_test_ps[] =
    "ps_2_0\n"
    "dcl t0.xy\ndcl v0\ndcl v1\ndcl_2d s0\n"
    "texld r0, t0, s0\n"
    "mul r0, r0, v0\n"
    "add r1.x, r0.w, -c1.x\n"          /* d = a - x */
    "abs r1.y, r1.x\n"
    "add r1.y, r1.y, -c1.y\n"          /* abs(a - x) - y */
    "lrp r1.z, c2.x, r1.y, r1.x\n"     /* the tested value of the function's kind */
    "cmp r2, r1.z, c1.w, c1.z\n"       /* (value < 0) ? z : w */
    "texkill r2\n"
    "mul r3.xyz, c0, r0.w\n"
    "lrp r0.xyz, v1.w, r3, r0\n"
    "mov oC0, r0\n";

static void alpha_test(void)
{
    fxw *w = fxw_create();
    int tex = fxw_texture_param(w, "Texture", FXW_TEXTURE2D);
    fxw_sampler_param(w, "TextureSampler", FXW_SAMPLER2D, tex, NULL, 0);
    vec(w, "DiffuseColor", 4);
    vec(w, "AlphaTest", 4);
    vec(w, "AlphaTestEqNe", 1);
    vec(w, "FogColor", 3);
    vec(w, "FogVector", 4);
    mat(w, "WorldViewProj", 4, 4, 0);
    properties(w);
    const fxw_symbol vs[] = { MAT44("WorldViewProj", 0), VEC4("FogVector", 4),
                              VEC4("DiffuseColor", 5) };
    const fxw_symbol ps[] = { VEC3("FogColor", 0), VEC4("AlphaTest", 1),
                              SCALAR("AlphaTestEqNe", 2), ssym("TextureSampler", 0, FXW_SAMPLER2D) };
    pass(w, "AlphaTestEffect", alpha_test_vs, vs, 3, alpha_test_ps, ps, 4);
    pass(w, "AlphaTestEffect_VertexColor", alpha_test_vc_vs, vs, 3, alpha_test_ps, ps, 4);
    emit("alpha_test", w);
}

/* ---- DualTextureEffect -----------------------------------------------------------------------
 * colour = tex2D(Texture, uv) * 2 * tex2D(Texture2, uv2) * DiffuseColor (* vertex colour) in
 * rgb, the product of the alphas in a (XNA: color.rgb *= 2; color *= overlay * diffuse); then
 * fog. */
static const char dual_vs[] =
    "vs_2_0\n"
    "def c6, 0, 1, 0, 0\n"
    "dcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\n"
    "m4x4 oPos, v0, c0\n"
    "mov r1, c5\n"
    "max r1, r1, c6.x\nmin oD0, r1, c6.y\n"
    "dp4 r0.x, v0, c4\nmax r0.x, r0.x, c6.x\nmin oD1, r0.x, c6.y\n"
    "mov oT0.xy, v1\nmov oT1.xy, v2\n";
static const char dual_vc_vs[] =
    "vs_2_0\n"
    "def c6, 0, 1, 0, 0\n"
    "dcl_position v0\ndcl_texcoord0 v1\ndcl_texcoord1 v2\ndcl_color v3\n"
    "m4x4 oPos, v0, c0\n"
    "mul r1, v3, c5\n"
    "max r1, r1, c6.x\nmin oD0, r1, c6.y\n"
    "dp4 r0.x, v0, c4\nmax r0.x, r0.x, c6.x\nmin oD1, r0.x, c6.y\n"
    "mov oT0.xy, v1\nmov oT1.xy, v2\n";
static const char dual_ps[] =
    "ps_2_0\n"
    "dcl t0.xy\ndcl t1.xy\ndcl v0\ndcl v1\ndcl_2d s0\ndcl_2d s1\n"
    "texld r0, t0, s0\n"
    "texld r1, t1, s1\n"
    "add r0.xyz, r0, r0\n"
    "mul r0, r0, r1\n"
    "mul r0, r0, v0\n"
    "mul r3.xyz, c0, r0.w\n"
    "lrp r0.xyz, v1.w, r3, r0\n"
    "mov oC0, r0\n";

static void dual_texture(void)
{
    fxw *w = fxw_create();
    int tex = fxw_texture_param(w, "Texture", FXW_TEXTURE2D);
    int tex2 = fxw_texture_param(w, "Texture2", FXW_TEXTURE2D);
    fxw_sampler_param(w, "TextureSampler", FXW_SAMPLER2D, tex, NULL, 0);
    fxw_sampler_param(w, "Texture2Sampler", FXW_SAMPLER2D, tex2, NULL, 0);
    vec(w, "DiffuseColor", 4);
    vec(w, "FogColor", 3);
    vec(w, "FogVector", 4);
    mat(w, "WorldViewProj", 4, 4, 0);
    properties(w);
    const fxw_symbol vs[] = { MAT44("WorldViewProj", 0), VEC4("FogVector", 4),
                              VEC4("DiffuseColor", 5) };
    const fxw_symbol ps[] = { VEC3("FogColor", 0), ssym("TextureSampler", 0, FXW_SAMPLER2D),
                              ssym("Texture2Sampler", 1, FXW_SAMPLER2D) };
    pass(w, "DualTextureEffect", dual_vs, vs, 3, dual_ps, ps, 3);
    pass(w, "DualTextureEffect_VertexColor", dual_vc_vs, vs, 3, dual_ps, ps, 3);
    emit("dual_texture", w);
}

/* ---- EnvironmentMapEffect --------------------------------------------------------------------
 * XNA's vertex lighting (diffuse only): E = normalize(EyePosition - worldPos), N =
 * normalize(normal * WorldInverseTranspose), diffuse = sum(max(dot(N, -L_i), 0) *
 * LightDiffuse_i) * DiffuseColor.rgb + EmissiveColor, a = DiffuseColor.a; amount =
 * pow(max(1 - abs(dot(E, N)), 0), FresnelFactor) * EnvironmentMapAmount (FresnelFactor 0 gives
 * EnvironmentMapAmount, as XNA's non-Fresnel shaders do); EnvCoord = reflect(-E, N). Pixel:
 * colour = tex2D(Texture, uv) * diffuse; env = texCUBE(EnvironmentMap, EnvCoord) * colour.a;
 * rgb = lerp(rgb, env.rgb, amount) + EnvironmentMapSpecular * env.a; then fog. */
static const char envmap_vs[] =
    "vs_2_0\n"
    "def c23, 0, 1, 0.000000001, 0\n"
    "dcl_position v0\ndcl_normal v1\ndcl_texcoord v2\n"
    "m4x4 oPos, v0, c0\n"
    "m4x4 r0, v0, c14\n"                       /* world position */
    "add r1.xyz, c13, -r0\n"
    "dp3 r1.w, r1, r1\nrsq r1.w, r1.w\nmul r1.xyz, r1, r1.w\n" /* E */
    "m3x3 r2.xyz, v1, c18\n"
    "dp3 r2.w, r2, r2\nrsq r2.w, r2.w\nmul r2.xyz, r2, r2.w\n" /* N */
    "dp3 r3.x, r2, -c7\ndp3 r3.y, r2, -c8\ndp3 r3.z, r2, -c9\n"
    "max r3.xyz, r3, c23.x\n"                  /* step(0, dotL) * dotL */
    "mul r4.xyz, r3.x, c10\nmad r4.xyz, r3.y, c11, r4\nmad r4.xyz, r3.z, c12, r4\n"
    "mad r4.xyz, r4, c5, c6\nmov r4.w, c5.w\n"
    "max r4, r4, c23.x\nmin oD0, r4, c23.y\n"
    "dp3 r5.x, r1, r2\nabs r5.x, r5.x\nadd r5.x, c23.y, -r5.x\n"
    "max r5.x, r5.x, c23.z\n"                  /* pow(0, 0) = 1 */
    "pow r5.x, r5.x, c21.x\nmul r5.xyz, r5.x, c22.x\n"
    "dp4 r5.w, v0, c4\n"
    "max r5, r5, c23.x\nmin oD1, r5, c23.y\n"
    "dp3 r6.x, r2, r1\nadd r6.x, r6.x, r6.x\nmad oT1.xyz, r2, r6.x, -r1\n"
    "mov oT0.xy, v2\n";
static const char envmap_ps[] =
    "ps_2_0\n"
    "dcl t0.xy\ndcl t1.xyz\ndcl v0\ndcl v1\ndcl_2d s0\ndcl_cube s1\n"
    "texld r0, t0, s0\n"
    "texld r1, t1, s1\n"
    "mul r0, r0, v0\n"
    "mul r1, r1, r0.w\n"
    "lrp r2.xyz, v1, r1, r0\n"
    "mad r2.xyz, c0, r1.w, r2\n"
    "mov r2.w, r0.w\n"
    "mul r3.xyz, c1, r2.w\n"
    "lrp r2.xyz, v1.w, r3, r2\n"
    "mov oC0, r2\n";

static void environment_map(void)
{
    fxw *w = fxw_create();
    int tex = fxw_texture_param(w, "Texture", FXW_TEXTURE2D);
    int env = fxw_texture_param(w, "EnvironmentMap", FXW_TEXTURECUBE);
    fxw_sampler_param(w, "TextureSampler", FXW_SAMPLER2D, tex, NULL, 0);
    fxw_sampler_param(w, "EnvironmentMapSampler", FXW_SAMPLERCUBE, env, NULL, 0);
    vec(w, "EnvironmentMapSpecular", 3);
    vec(w, "FresnelFactor", 1);
    vec(w, "EnvironmentMapAmount", 1);
    vec(w, "DiffuseColor", 4);
    vec(w, "EmissiveColor", 3);
    vec(w, "DirLight0Direction", 3);
    vec(w, "DirLight0DiffuseColor", 3);
    vec(w, "DirLight1Direction", 3);
    vec(w, "DirLight1DiffuseColor", 3);
    vec(w, "DirLight2Direction", 3);
    vec(w, "DirLight2DiffuseColor", 3);
    vec(w, "EyePosition", 3);
    vec(w, "FogColor", 3);
    vec(w, "FogVector", 4);
    mat(w, "World", 4, 4, 0);
    mat(w, "WorldInverseTranspose", 3, 3, 0);
    mat(w, "WorldViewProj", 4, 4, 0);
    properties(w);
    const fxw_symbol vs[] = {
        MAT44("WorldViewProj", 0),       VEC4("FogVector", 4),
        VEC4("DiffuseColor", 5),         VEC3("EmissiveColor", 6),
        VEC3("DirLight0Direction", 7),   VEC3("DirLight1Direction", 8),
        VEC3("DirLight2Direction", 9),   VEC3("DirLight0DiffuseColor", 10),
        VEC3("DirLight1DiffuseColor", 11), VEC3("DirLight2DiffuseColor", 12),
        VEC3("EyePosition", 13),         MAT44("World", 14),
        MAT33("WorldInverseTranspose", 18), SCALAR("FresnelFactor", 21),
        SCALAR("EnvironmentMapAmount", 22)
    };
    const fxw_symbol ps[] = { VEC3("EnvironmentMapSpecular", 0), VEC3("FogColor", 1),
                              ssym("TextureSampler", 0, FXW_SAMPLER2D),
                              ssym("EnvironmentMapSampler", 1, FXW_SAMPLERCUBE) };
    pass(w, "EnvironmentMapEffect", envmap_vs, vs, 15, envmap_ps, ps, 4);
    emit("environment_map", w);
}

/* ---- SkinnedEffect ---------------------------------------------------------------------------
 * skin = sum over the first WeightsPerVertex (1, 2 or 4: one technique each, and one each with
 * PreferPerPixelLighting) of
 * Bones[BlendIndices[i]] * BlendWeight[i] (float4x3: three registers per bone, at most 72
 * bones); position.xyz = position * skin, normal = normal * (float3x3)skin. Then XNA's vertex
 * lighting (three lights, BasicEffect's ComputeLights): E = normalize(EyePosition - worldPos),
 * N = normalize(normal * WorldInverseTranspose), per light dotL = dot(N, -L), zeroL = dotL >= 0,
 * H = normalize(E - L), diffuse += zeroL * dotL * LightDiffuse, specular +=
 * pow(max(dot(N, H), 0) * zeroL, SpecularPower) * LightSpecular; diffuse = diffuse *
 * DiffuseColor.rgb + EmissiveColor, specular *= SpecularColor. Pixel: colour =
 * tex2D(Texture, uv) * diffuse, rgb += specular * a, then fog. */
#define SKIN_HEAD                                                                              \
    "vs_2_0\n"                                                                                 \
    "def c25, 0, 1, 3, 0\n"                                                                    \
    "dcl_position v0\ndcl_normal v1\ndcl_texcoord v2\ndcl_blendindices v3\n"                   \
    "dcl_blendweight v4\n"                                                                     \
    "mul r0, v3, c25.z\n"                                                                      \
    "mova a0.x, r0.x\n"                                                                        \
    "mul r1, v4.x, c26[a0.x]\nmul r2, v4.x, c27[a0.x]\nmul r3, v4.x, c28[a0.x]\n"
#define SKIN_WEIGHT(c)                                                                         \
    "mova a0.x, r0." c "\n"                                                                    \
    "mad r1, v4." c ", c26[a0.x], r1\nmad r2, v4." c ", c27[a0.x], r2\n"                       \
    "mad r3, v4." c ", c28[a0.x], r3\n"
#define SKIN_TAIL                                                                              \
    "dp4 r4.x, v0, r1\ndp4 r4.y, v0, r2\ndp4 r4.z, v0, r3\nmov r4.w, v0.w\n"                   \
    "dp3 r5.x, v1, r1\ndp3 r5.y, v1, r2\ndp3 r5.z, v1, r3\n"                                  \
    "m4x4 oPos, r4, c0\n"                                                                      \
    "m4x4 r6, r4, c18\n"                                                                       \
    "add r7.xyz, c17, -r6\n"                                                                   \
    "dp3 r7.w, r7, r7\nrsq r7.w, r7.w\nmul r7.xyz, r7, r7.w\n" /* E */                         \
    "m3x3 r8.xyz, r5, c22\n"                                                                   \
    "dp3 r8.w, r8, r8\nrsq r8.w, r8.w\nmul r8.xyz, r8, r8.w\n" /* N */                         \
    "dp3 r9.x, r8, -c8\ndp3 r9.y, r8, -c9\ndp3 r9.z, r8, -c10\n" /* dotL */                   \
    "sge r10.xyz, r9, c25.x\n"                                    /* zeroL */                  \
    "mul r9.xyz, r9, r10\n"                                                                    \
    "add r11.xyz, r7, -c8\ndp3 r11.w, r11, r11\nrsq r11.w, r11.w\nmul r11.xyz, r11, r11.w\n"  \
    "dp3 r6.x, r8, r11\n"                                                                      \
    "add r11.xyz, r7, -c9\ndp3 r11.w, r11, r11\nrsq r11.w, r11.w\nmul r11.xyz, r11, r11.w\n"  \
    "dp3 r6.y, r8, r11\n"                                                                      \
    "add r11.xyz, r7, -c10\ndp3 r11.w, r11, r11\nrsq r11.w, r11.w\nmul r11.xyz, r11, r11.w\n" \
    "dp3 r6.z, r8, r11\n"                                       /* dotH */                     \
    "max r6.xyz, r6, c25.x\nmul r6.xyz, r6, r10\n"                                             \
    "pow r6.x, r6.x, c242.x\npow r6.y, r6.y, c242.x\npow r6.z, r6.z, c242.x\n"                      \
    "mul r10.xyz, r9.x, c11\nmad r10.xyz, r9.y, c12, r10\nmad r10.xyz, r9.z, c13, r10\n"      \
    "mad r10.xyz, r10, c5, c6\nmov r10.w, c5.w\n"                                              \
    "max r10, r10, c25.x\nmin oD0, r10, c25.y\n"                                               \
    "mul r11.xyz, r6.x, c14\nmad r11.xyz, r6.y, c15, r11\nmad r11.xyz, r6.z, c16, r11\n"      \
    "mul r11.xyz, r11, c7\n"                                                                   \
    "dp4 r11.w, r4, c4\n"                                                                      \
    "max r11, r11, c25.x\nmin oD1, r11, c25.y\n"                                               \
    "mov oT0.xy, v2\n"
/* PreferPerPixelLighting: the vertex shader passes the world position (fog factor in w), the
 * world normal and (1, 1, 1, DiffuseColor.a); the pixel shader lights as above per pixel:
 * colour = tex2D(Texture, uv) * that, rgb *= diffuse, rgb += specular * a (XNA does not clamp
 * per-pixel light), then fog. */
#define SKIN_PIXEL_TAIL                                                                        \
    "dp4 r4.x, v0, r1\ndp4 r4.y, v0, r2\ndp4 r4.z, v0, r3\nmov r4.w, v0.w\n"                   \
    "dp3 r5.x, v1, r1\ndp3 r5.y, v1, r2\ndp3 r5.z, v1, r3\n"                                  \
    "m4x4 oPos, r4, c0\n"                                                                      \
    "m4x4 r6, r4, c18\n"                                                                       \
    "dp4 r6.w, r4, c4\nmax r6.w, r6.w, c25.x\nmin r6.w, r6.w, c25.y\n"                         \
    "mov oT1, r6\n"                                                                            \
    "m3x3 r8.xyz, r5, c22\n"                                                                   \
    "dp3 r8.w, r8, r8\nrsq r8.w, r8.w\nmul oT2.xyz, r8, r8.w\n"                                \
    "mov r10, c25.y\nmov r10.w, c5.w\nmax r10, r10, c25.x\nmin oD0, r10, c25.y\n"              \
    "mov oT0.xy, v2\n"
static const char skin_pixel_ps[] =
    "ps_2_0\n"
    "def c15, 0, 1, 0, 0\n"
    "dcl t0.xy\ndcl t1\ndcl t2.xyz\ndcl v0\ndcl_2d s0\n"
    "texld r0, t0, s0\n"
    "mul r0, r0, v0\n"
    "add r1.xyz, c14, -t1\ndp3 r1.w, r1, r1\nrsq r1.w, r1.w\nmul r1.xyz, r1, r1.w\n" /* E */
    "dp3 r2.w, t2, t2\nrsq r2.w, r2.w\nmul r2.xyz, t2, r2.w\n"                         /* N */
    "dp3 r3.x, r2, -c5\ndp3 r3.y, r2, -c6\ndp3 r3.z, r2, -c7\n"                       /* dotL */
    "cmp r4.xyz, r3, c15.y, c15.x\n"                                                 /* zeroL */
    "mul r3.xyz, r3, r4\n"
    "add r5.xyz, r1, -c5\ndp3 r5.w, r5, r5\nrsq r5.w, r5.w\nmul r5.xyz, r5, r5.w\ndp3 r6.x, r2, r5\n"
    "add r5.xyz, r1, -c6\ndp3 r5.w, r5, r5\nrsq r5.w, r5.w\nmul r5.xyz, r5, r5.w\ndp3 r6.y, r2, r5\n"
    "add r5.xyz, r1, -c7\ndp3 r5.w, r5, r5\nrsq r5.w, r5.w\nmul r5.xyz, r5, r5.w\ndp3 r6.z, r2, r5\n"
    "max r6.xyz, r6, c15.x\nmul r6.xyz, r6, r4\n"
    "pow r6.x, r6.x, c4.x\npow r6.y, r6.y, c4.x\npow r6.z, r6.z, c4.x\n"
    "mul r7.xyz, r3.x, c8\nmad r7.xyz, r3.y, c9, r7\nmad r7.xyz, r3.z, c10, r7\n"
    "mad r7.xyz, r7, c1, c2\n"
    "mul r8.xyz, r6.x, c11\nmad r8.xyz, r6.y, c12, r8\nmad r8.xyz, r6.z, c13, r8\n"
    "mul r8.xyz, r8, c3\n"
    "mul r0.xyz, r0, r7\n"
    "mad r0.xyz, r8, r0.w, r0\n"
    "mul r9.xyz, c0, r0.w\n"
    "lrp r0.xyz, t1.w, r9, r0\n"
    "mov oC0, r0\n";
static const char skin1_vs[] = SKIN_HEAD SKIN_TAIL;
static const char skin1_pixel_vs[] = SKIN_HEAD SKIN_PIXEL_TAIL;
static const char skin2_pixel_vs[] = SKIN_HEAD SKIN_WEIGHT("y") SKIN_PIXEL_TAIL;
static const char skin4_pixel_vs[] = SKIN_HEAD SKIN_WEIGHT("y") SKIN_WEIGHT("z") SKIN_WEIGHT("w") SKIN_PIXEL_TAIL;
static const char skin2_vs[] = SKIN_HEAD SKIN_WEIGHT("y") SKIN_TAIL;
static const char skin4_vs[] = SKIN_HEAD SKIN_WEIGHT("y") SKIN_WEIGHT("z") SKIN_WEIGHT("w") SKIN_TAIL;
static const char skin_ps[] =
    "ps_2_0\n"
    "dcl t0.xy\ndcl v0\ndcl v1\ndcl_2d s0\n"
    "texld r0, t0, s0\n"
    "mul r0, r0, v0\n"
    "mad r0.xyz, v1, r0.w, r0\n"
    "mul r3.xyz, c0, r0.w\n"
    "lrp r0.xyz, v1.w, r3, r0\n"
    "mov oC0, r0\n";

static void skinned(void)
{
    fxw *w = fxw_create();
    int tex = fxw_texture_param(w, "Texture", FXW_TEXTURE2D);
    fxw_sampler_param(w, "TextureSampler", FXW_SAMPLER2D, tex, NULL, 0);
    vec(w, "DiffuseColor", 4);
    vec(w, "EmissiveColor", 3);
    vec(w, "SpecularColor", 3);
    vec(w, "SpecularPower", 1);
    vec(w, "DirLight0Direction", 3);
    vec(w, "DirLight0DiffuseColor", 3);
    vec(w, "DirLight0SpecularColor", 3);
    vec(w, "DirLight1Direction", 3);
    vec(w, "DirLight1DiffuseColor", 3);
    vec(w, "DirLight1SpecularColor", 3);
    vec(w, "DirLight2Direction", 3);
    vec(w, "DirLight2DiffuseColor", 3);
    vec(w, "DirLight2SpecularColor", 3);
    vec(w, "EyePosition", 3);
    vec(w, "FogColor", 3);
    vec(w, "FogVector", 4);
    mat(w, "World", 4, 4, 0);
    mat(w, "WorldInverseTranspose", 3, 3, 0);
    mat(w, "WorldViewProj", 4, 4, 0);
    mat(w, "Bones", 4, 3, 72);
    properties(w);
    const fxw_symbol vs[] = {
        MAT44("WorldViewProj", 0),          VEC4("FogVector", 4),
        VEC4("DiffuseColor", 5),            VEC3("EmissiveColor", 6),
        VEC3("SpecularColor", 7),           VEC3("DirLight0Direction", 8),
        VEC3("DirLight1Direction", 9),      VEC3("DirLight2Direction", 10),
        VEC3("DirLight0DiffuseColor", 11),  VEC3("DirLight1DiffuseColor", 12),
        VEC3("DirLight2DiffuseColor", 13),  VEC3("DirLight0SpecularColor", 14),
        VEC3("DirLight1SpecularColor", 15), VEC3("DirLight2SpecularColor", 16),
        VEC3("EyePosition", 17),            MAT44("World", 18),
        MAT33("WorldInverseTranspose", 22), fsym("Bones", 26, 216, FXW_MATRIX_COLUMNS, 4, 3, 72),
        SCALAR("SpecularPower", 242)
    };
    const fxw_symbol ps[] = { VEC3("FogColor", 0), ssym("TextureSampler", 0, FXW_SAMPLER2D) };
    pass(w, "SkinnedEffect_1Bones", skin1_vs, vs, 19, skin_ps, ps, 2);
    pass(w, "SkinnedEffect_2Bones", skin2_vs, vs, 19, skin_ps, ps, 2);
    pass(w, "SkinnedEffect_4Bones", skin4_vs, vs, 19, skin_ps, ps, 2);
    const fxw_symbol pps[] = {
        VEC3("FogColor", 0),                VEC4("DiffuseColor", 1),
        VEC3("EmissiveColor", 2),           VEC3("SpecularColor", 3),
        SCALAR("SpecularPower", 4),         VEC3("DirLight0Direction", 5),
        VEC3("DirLight1Direction", 6),      VEC3("DirLight2Direction", 7),
        VEC3("DirLight0DiffuseColor", 8),   VEC3("DirLight1DiffuseColor", 9),
        VEC3("DirLight2DiffuseColor", 10),  VEC3("DirLight0SpecularColor", 11),
        VEC3("DirLight1SpecularColor", 12), VEC3("DirLight2SpecularColor", 13),
        VEC3("EyePosition", 14),            ssym("TextureSampler", 0, FXW_SAMPLER2D)
    };
    pass(w, "SkinnedEffect_1Bones_PixelLighting", skin1_pixel_vs, vs, 19, skin_pixel_ps, pps, 16);
    pass(w, "SkinnedEffect_2Bones_PixelLighting", skin2_pixel_vs, vs, 19, skin_pixel_ps, pps, 16);
    pass(w, "SkinnedEffect_4Bones_PixelLighting", skin4_pixel_vs, vs, 19, skin_pixel_ps, pps, 16);
    emit("skinned", w);
}

int main(void)
{
    printf("/* Generated by shaders/compile-stock-fx.sh from shaders/stock_effects_fx.c (D3D9\n"
           " * assembly through MojoShader's assembler, packed as fx_2_0 by tests/fx_writer.c).\n"
           " * Do not edit. */\n\n");
    alpha_test();
    dual_texture();
    environment_map();
    skinned();
    return 0;
}
