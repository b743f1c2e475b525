/*
 * Effects loaded as .xfx or HLSL check every shader at creation but rewrite a shader into the
 * shader form only at the first apply of a pass that uses it: creating BasicEffect's effect
 * (32 techniques) rewrites nothing, an apply rewrites exactly its pass's shaders, later
 * applies and a device loss rewrite nothing more, a clone starts unrewritten, and a shader the
 * rewrite would refuse still refuses the effect at creation although no pass is applied.
 * The check at load and the rewrite agree on what a shader is.
 */
#include "fixture_util.h"
#include "harness.h"

#include "../shader/fx.h"
#include "../shader/hlsl_program.h"
#include "../shader/spirv_hlsl.h"
#include "../../shaders/generated/stock_xfx.h"

#include <stdlib.h>
#include <string.h>

/* Every stock effect's compiled bytes (src/graphics/ loads them; the library keeps no table). */
static const struct {
    const char *name;
    const unsigned char *bytes;
    size_t size;
} stock[] = {
    { "basic", xgd_stock_xfx_basic, sizeof xgd_stock_xfx_basic },
    { "sprite", xgd_stock_xfx_sprite, sizeof xgd_stock_xfx_sprite },
    { "mrt", xgd_stock_xfx_mrt, sizeof xgd_stock_xfx_mrt },
    { "volume", xgd_stock_xfx_volume, sizeof xgd_stock_xfx_volume },
    { "alphatest", xgd_stock_xfx_alphatest, sizeof xgd_stock_xfx_alphatest },
    { "dualtexture", xgd_stock_xfx_dualtexture, sizeof xgd_stock_xfx_dualtexture },
    { "envmap", xgd_stock_xfx_envmap, sizeof xgd_stock_xfx_envmap },
    { "skinned", xgd_stock_xfx_skinned, sizeof xgd_stock_xfx_skinned },
};

/* The body of a user effect handle (handles resolve to the object, effect.c's struct). */
static const xgdi_fx *body_of(xgd_effect *handle)
{
    return xgdi_effect_fx((const xgd_effect *)xgdi_handle_get(handle, XGDI_RES_EFFECT));
}

static bool apply_ok(xgdt_ctx *t, xgd_device *dev, xgd_effect *e, int technique)
{
    xgd_result r = xgd_effect_pass_apply(e, technique, 0);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        xgdt_not_supported(t, "this renderer runs no effects loaded from bytes (NOT_SUPPORTED)");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "apply of technique %d: %s %s", technique, xgd_result_name(r), xgd_device_last_error(dev));
    return r == XGD_OK;
}

XGD_FIXTURE(effect_shaders_rewritten_at_first_apply)
{
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    const unsigned char *bytes = stock[0].bytes;
    size_t size = stock[0].size;
    xgd_effect *e = NULL;
    REQUIRE_OK(xgd_effect_create(dev, bytes, size, &e));
    const xgdi_fx *fx = body_of(e);
    REQUIRE(fx != NULL);
    int techniques = 0;
    CHECK_OK(xgd_effect_get_technique_count(e, &techniques));
    CHECK_INT(techniques, 32); /* basic.fx: one technique per combination of five flags */
    CHECK_INT(xgdi_fx_shader_forms(fx), 0);

    /* BasicEffect_0: its vertex and pixel shader; applied again, nothing more */
    if (!apply_ok(t, dev, e, 0)) goto out;
    CHECK_INT(xgdi_fx_shader_forms(fx), 2);
    CHECK(apply_ok(t, dev, e, 0));
    CHECK_INT(xgdi_fx_shader_forms(fx), 2);
    /* BasicEffect_1 adds VERTEX_COLOR, which only the vertex shader sees (basic.fx names the
       same pixel shader): one more */
    CHECK(apply_ok(t, dev, e, 1));
    CHECK_INT(xgdi_fx_shader_forms(fx), 3);

    /* a clone is a new body: nothing rewritten until it is applied */
    xgd_effect *c = NULL;
    CHECK_OK(xgd_effect_clone(e, &c));
    if (c != NULL) {
        CHECK_INT(xgdi_fx_shader_forms(body_of(c)), 0);
        CHECK(apply_ok(t, dev, c, 1));
        CHECK_INT(xgdi_fx_shader_forms(body_of(c)), 2);
        xgd_effect_destroy(c);
    }

    /* a device loss takes the natives; the forms stay and make them again */
    CHECK_OK(xgd_device_simulate_context_loss(dev));
    CHECK_OK(xgd_device_restore_context(dev));
    CHECK(apply_ok(t, dev, e, 0));
    CHECK(apply_ok(t, dev, e, 1));
    CHECK_INT(xgdi_fx_shader_forms(fx), 3);

    /* the applied pass draws: BasicEffect_0 (no lighting, texture or vertex colour) fills
       with its DiffuseColor, BasicConstants[0]; WorldViewProj (rows 22..25) identity */
    xgd_effect_parameter p = { -1 };
    CHECK_OK(xgd_effect_find_parameter(e, "BasicConstants", &p));
    float k[26 * 4];
    memset(k, 0, sizeof k);
    /* channels whose 8-bit value is not a rounding tie (0.5 * 255 = 127.5 may give 127 or 128
       on a GPU, both within the 0.6 ULP Direct3D and Vulkan allow) */
    k[0] = 0.25f, k[1] = 0.6f, k[2] = 1.0f, k[3] = 1.0f;
    for (int i = 0; i < 4; i++) k[(22 + i) * 4 + i] = 1.0f;
    CHECK_OK(xgd_effect_parameter_set_floats(e, p, k, 26 * 4));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    CHECK_OK(xgd_set_rasterizer_state(dev, fx_cull_none(t, dev)));
    if (apply_ok(t, dev, e, 0)) {
        const xgd_vertex_position_color v[6] = {
            fx_vpc(0, 0, 0, 8, 8, fx_rgba(255, 255, 255, 255)), fx_vpc(8, 0, 0, 8, 8, fx_rgba(255, 255, 255, 255)),
            fx_vpc(8, 8, 0, 8, 8, fx_rgba(255, 255, 255, 255)), fx_vpc(0, 0, 0, 8, 8, fx_rgba(255, 255, 255, 255)),
            fx_vpc(8, 8, 0, 8, 8, fx_rgba(255, 255, 255, 255)), fx_vpc(0, 8, 0, 8, 8, fx_rgba(255, 255, 255, 255)),
        };
        CHECK_OK(xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                          xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR)));
        uint8_t *img = NULL;
        if (xgdt_read_back_buffer(t, dev, 8, 8, &img)) {
            xgd_color got = fx_get(img, 8, 4, 4);
            CHECK_MSG(got.r == fx_q8(0.25) && got.g == fx_q8(0.6) && got.b == 255,
                      "centre (%d,%d,%d), expected (%d,%d,255)", got.r, got.g, got.b, fx_q8(0.25), fx_q8(0.6));
            free(img);
        }
    }
    CHECK_INT(xgdi_fx_shader_forms(fx), 3);
out:
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
}

/* A pixel shader the rewrite refuses (Texture.Load), in a technique no one applies: the effect
 * is refused at creation, as when every shader was rewritten there. */
XGD_FIXTURE(effect_unapplied_bad_shader_refused_at_create)
{
#ifndef XGD_TEST_HAVE_GLSLANG
    xgdt_not_supported(t, "built without the HLSL compiler (XGD_HLSL=OFF)");
#else
    xgd_device *dev = fx_device(t, 8, 8, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    static const char src[] =
        "Texture2D T : register(t0);\n"
        "float4 VS(float4 p : POSITION0) : SV_Position { return p; }\n"
        "float4 Good() : SV_Target0 { return 1; }\n"
        "float4 Bad(float4 p : SV_Position) : SV_Target0 { return T.Load(int3(p.xy, 0)); }\n"
        "technique Used { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 Good(); } }\n"
        "technique Unused { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 Bad(); } }\n";
    xgd_effect *e = NULL;
    xgd_result r = xgd_effect_create_hlsl(dev, src, strlen(src), "lazy.fx", &e);
    const char *msg = xgd_device_last_error(dev);
    CHECK_MSG(r == XGD_ERROR_NOT_SUPPORTED, "got %s: %s", xgd_result_name(r), msg);
    CHECK(e == NULL);
    CHECK_MSG(strstr(msg, "Texture.Load") != NULL && strstr(msg, "Bad") != NULL, "message: %s", msg);
    xgd_effect_destroy(e);
    xgd_device_destroy(dev);
#endif
}

/* The check at load and the rewrite at first apply agree on every shader of the eight stock effects: both accept
 * it, and the check describes (inputs, slots, block, outputs) the shader the rewrite makes. */
XGD_TEST(effect_check_describes_rewrite)
{
    int shaders = 0;
    for (size_t n = 0; n < sizeof stock / sizeof stock[0]; n++) {
        const char *name = stock[n].name;
        const unsigned char *bytes = stock[n].bytes;
        size_t size = stock[n].size;
        xgdi_hlsl_program p;
        char msg[256];
        if (xgdi_hlsl_program_load(bytes, size, &p, msg, sizeof msg) != XGD_OK) {
            CHECK_MSG(false, "%s: %s", name, msg);
            continue;
        }
        for (int s = 0; s < p.shader_count; s++, shaders++) {
            const xgdi_hlsl_shader *sh = &p.shaders[s];
            uint32_t block = sh->reflection.buffer_count > 0 ? sh->reflection.buffers[sh->reflection.buffer_count - 1].size : 0;
            xgdi_shader_stage stage = sh->stage == XGDI_HLSL_VERTEX ? XGDI_SHADER_VERTEX : XGDI_SHADER_PIXEL;
            xgdi_spirv_hlsl_out checked, form;
            CHECK_OK(xgdi_spirv_hlsl_check(sh->words, sh->word_count, stage, block, &checked, msg, sizeof msg));
            CHECK(checked.words == NULL && checked.word_count == 0);
            if (xgdi_spirv_from_hlsl(sh->words, sh->word_count, stage, block, &form, msg, sizeof msg) != XGD_OK) {
                CHECK_MSG(false, "%s shader %s: %s", name, sh->entry, msg);
                continue;
            }
            CHECK(form.words != NULL && form.word_count > 0);
            xgdi_spirv_hlsl_out described;
            memcpy(&described, &form, sizeof form); /* bytes, padding included (both start zeroed) */
            described.words = NULL;
            described.word_count = 0;
            CHECK_MSG(memcmp(&described, &checked, sizeof checked) == 0, "%s shader %s: the check describes "
                      "another shader than the rewrite makes", name, sh->entry);
            free(form.words);
        }
        xgdi_hlsl_program_free(&p);
    }
    CHECK(shaders >= 36); /* basic.fx alone has 36 */
}
