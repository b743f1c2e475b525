/*
 * fixture_xnb.c - .xnb round trips on every renderer: files written by the tests' own writer
 * (tests/xnb_writer.c; XNA 4.0's container, uncompressed and LZX-compressed by the writer's
 * verbatim-block encoder) load into textures whose every level, face and slice reads back as
 * the texels written, and a loaded texture draws those texels.
 */
#include "fixture_util.h"
#include "xnb_test_util.h"

/* Loads the file, checks the asset is a texture of the expected kind, format, size and level
 * count, and compares every level (and face) with what was written. Returns false when the
 * renderer cannot create the format (NOT_SUPPORTED), after checking that refusal names it. */
static bool check_round_trip(xgdt_ctx *t, xgd_device *dev, const xt_tex *tex, uint8_t flags)
{
    xw_buf file;
    xt_tex_file(&file, tex, flags);
    xgd_content c;
    xgd_result r = xgd_content_load_memory(dev, file.p, file.n, &c);
    xw_free(&file);
    if (r == XGD_ERROR_NOT_SUPPORTED) {
        CHECK_MSG(c.asset.texture == NULL, "a refused file left a texture");
        return false;
    }
    CHECK_MSG(r == XGD_OK, "format %u kind %d flags 0x%02x: %s (%s)", (unsigned)tex->xfmt,
              tex->kind, flags, xgd_result_name(r), xgdt_last_message());
    if (r != XGD_OK) return true;
    static const xgd_content_kind kinds[] = { XGD_CONTENT_TEXTURE2D, XGD_CONTENT_TEXTURE_CUBE,
                                              XGD_CONTENT_TEXTURE3D };
    CHECK_INT(c.asset.kind, kinds[tex->kind]);
    CHECK_INT(c.compressed, (flags & XW_LZX) != 0);
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(c.asset.texture, &info));
    CHECK_INT(info.format, (int)tex->xfmt + 1);
    CHECK_INT(info.width, tex->w);
    CHECK_INT(info.height, tex->h);
    CHECK_INT(info.depth, tex->d);
    int chain = 1, largest = tex->w > tex->h ? tex->w : tex->h;
    for (int m = largest > tex->d ? largest : tex->d; m > 1; m >>= 1) chain++;
    CHECK_INT(info.level_count, tex->levels > 1 ? chain : 1);
    for (int f = 0; f < tex->faces; f++) {
        for (int l = 0; l < tex->levels; l++) {
            int i = f * tex->levels + l;
            uint8_t *back = malloc(tex->sizes[i]);
            if (back == NULL) abort();
            if (tex->kind == XT_3D)
                r = xgd_texture3d_get_data(c.asset.texture, l, NULL, back, tex->sizes[i]);
            else
                r = xgd_texture_get_data(c.asset.texture, l, (xgd_cube_map_face)f, NULL, back,
                                         tex->sizes[i]);
            if (r == XGD_ERROR_NOT_SUPPORTED) {
                free(back); /* the renderer cannot read this format back: nothing to compare */
                continue;
            }
            CHECK_MSG(r == XGD_OK && memcmp(back, tex->data[i], tex->sizes[i]) == 0,
                      "format %u kind %d face %d level %d flags 0x%02x: texels differ (%s)",
                      (unsigned)tex->xfmt, tex->kind, f, l, flags, xgd_result_name(r));
            free(back);
        }
    }
    xgd_content_release(&c);
    return true;
}

/* Every XNA 4.0 SurfaceFormat as a mipmapped Texture2D, uncompressed and LZX-compressed. */
XGD_FIXTURE(Xnb_Texture2DEveryFormat)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    int loaded = 0;
    for (uint32_t f = 0; f < 20; f++) {
        xt_tex tex;
        xt_tex_make(&tex, XT_2D, f, 8, 8, 1, 4, 100 + f);
        bool a = check_round_trip(t, dev, &tex, XW_HIDEF);
        bool b = check_round_trip(t, dev, &tex, XW_HIDEF | XW_LZX);
        CHECK_MSG(a == b, "format %u: compressed and uncompressed files load differently", (unsigned)f);
        if (!a) printf("format %u: NOT_SUPPORTED on this renderer (%s)\n", (unsigned)f, xgdt_last_message());
        loaded += a;
        xt_tex_free(&tex);
    }
    CHECK_MSG(loaded >= 1, "no format loaded");
    xgd_device_destroy(dev);
}

/* TextureCube (every face and level) and Texture3D (every slice and level), both containers. */
XGD_FIXTURE(Xnb_CubeAndVolume)
{
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    static const uint32_t formats[] = { 0 /* Color */, 1 /* Bgr565 */, 4 /* Dxt1 */, 15 /* Vector4 */ };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        for (int lzx = 0; lzx < 2; lzx++) {
            xt_tex cube, vol;
            xt_tex_make(&cube, XT_CUBE, formats[i], 8, 8, 1, 4, 7 + (uint32_t)i);
            xt_tex_make(&vol, XT_3D, formats[i], 8, 4, 4, 4, 70 + (uint32_t)i);
            uint8_t flags = (uint8_t)(XW_HIDEF | (lzx ? XW_LZX : 0));
            if (!check_round_trip(t, dev, &cube, flags))
                printf("cube format %u: NOT_SUPPORTED (%s)\n", (unsigned)formats[i], xgdt_last_message());
            if (!check_round_trip(t, dev, &vol, flags))
                printf("volume format %u: NOT_SUPPORTED (%s)\n", (unsigned)formats[i], xgdt_last_message());
            xt_tex_free(&cube);
            xt_tex_free(&vol);
        }
    }
    xgd_device_destroy(dev);
}

/* A Color texture from an LZX-compressed .xnb, drawn by SpriteBatch texel for texel (point
 * sampling, no blending): the back buffer holds the written texels. Larger than one LZX frame,
 * so the decoder crosses frames (the window carries over). */
XGD_FIXTURE(Xnb_DrawLoadedTexture)
{
    enum { W = 128, H = 96 };
    xgd_device *dev = fx_device(t, W, H, XGD_DEPTH_FORMAT_NONE, 0);
    REQUIRE(dev != NULL);
    xt_tex tex;
    xt_tex_make(&tex, XT_2D, 0, W, H, 1, 1, 5);
    /* opaque texels, with runs the encoder turns into matches */
    for (int i = 0; i < W * H; i++) {
        if ((i / 7) % 3 == 0) memcpy(tex.data[0] + i * 4, tex.data[0] + (i % 7) * 4, 4);
        tex.data[0][i * 4 + 3] = 255;
    }
    xw_buf file;
    xt_tex_file(&file, &tex, XW_LZX);
    CHECK(file.n < (size_t)W * H * 4); /* the matches compressed it */
    xgd_content c;
    xgd_result r = xgd_content_load_memory(dev, file.p, file.n, &c);
    xw_free(&file);
    CHECK_OK(r);
    if (r == XGD_OK) {
        xgd_sprite_batch *sb = NULL;
        CHECK_OK(xgd_sprite_batch_create(dev, &sb));
        CHECK_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
        xgd_sprite_batch_begin_desc bd = { 0 };
        bd.sampler_state = xgd_sampler_state_preset(dev, XGD_SAMPLER_PRESET_POINT_CLAMP);
        bd.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
        CHECK_OK(xgd_sprite_batch_begin(sb, &bd));
        xgd_sprite s = XGD_SPRITE_INIT;
        CHECK_OK(xgd_sprite_batch_draw(sb, c.asset.texture, &s));
        CHECK_OK(xgd_sprite_batch_end(sb));
        fx_expect_back_buffer(t, dev, "xnb", tex.data[0], W, H, 0);
        xgd_sprite_batch_destroy(sb);
        xgd_content_release(&c);
    }
    xt_tex_free(&tex);
    xgd_device_destroy(dev);
}
