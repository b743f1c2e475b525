/*
 * fixture_mip_rule.c - mip chains of Color render targets against the box rule, byte for byte.
 *
 * Rule (every renderer: shaders/blit.hlsl, shaders/mips.comp, sw_texture.c): level n + 1 is
 * max(1, w >> 1) x max(1, h >> 1); its texel (x, y) is, per channel, the rounded mean of level
 * n's texels (2x + i, 2y + j), i, j in {0, 1}, each clamped to level n's last column and row:
 * (a + b + c + d + 2) >> 2 on bytes, level n being bytes before level n + 1 reads it. The
 * expected levels are computed here from level 0 by that rule alone.
 *
 * Shapes: not a power of two and not square (1000x300: tiles of a compute path that end mid
 * level, odd sizes down the chain), tiny and odd (5x3), 1 wide (1x7: the clamp at every level),
 * wide enough for several dispatches of up to six levels each (2500x3), and the faces of a
 * cube (each face its own chain). Bytes come from a hash, so a quarter of the means are ties
 * ((a + b + c + d) % 4 == 2), which a renderer rounding the other way gets wrong.
 *
 * Routes: by default a renderer takes its route for Color, which must give the rule's bytes
 * exactly (MipChain_RuleExact: software; Vulkan's and Direct3D 12's compute, shaders/mips.comp,
 * 2D targets; Direct3D 12's draw per level in whole numbers, cube faces). Direct3D 12 has a second
 * exact route for 2D Color chains, draws of up to three levels (PSMipChain2/3, shaders/blit.hlsl),
 * taken with $XGD_MIPS_BY_DRAWS=1 at device creation or where the compute pipeline cannot be made
 * (MipChain_RuleExactByDraws; not supported on the others, which have one exact route). With
 * $XGD_MIPS_PER_LEVEL=1 the GPU renderers take the route of their other formats (a blit or draw
 * per level, averaging in float), held to the same box and clamp per level but allowed a rounding
 * step (MipChain_RulePerLevel).
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "fixture_util.h"

#include <stdio.h>

static uint8_t pattern_byte(uint32_t seed, int x, int y, int c)
{
    uint32_t h = seed * 0x9e3779b1u ^ (uint32_t)x * 0x85ebca6bu ^ (uint32_t)y * 0xc2b2ae35u ^
                 (uint32_t)c * 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return (uint8_t)(h >> 8);
}

/* Level n + 1 of a w x h RGBA8 level by the rule; *nw, *nh get its size. */
static uint8_t *rule_level(const uint8_t *src, int w, int h, int *nw, int *nh)
{
    int dw = w > 1 ? w / 2 : 1, dh = h > 1 ? h / 2 : 1;
    uint8_t *dst = malloc((size_t)dw * (size_t)dh * 4);
    if (dst == NULL) return NULL;
    for (int y = 0; y < dh; y++)
        for (int x = 0; x < dw; x++) {
            int x0 = 2 * x < w - 1 ? 2 * x : w - 1, x1 = 2 * x + 1 < w - 1 ? 2 * x + 1 : w - 1;
            int y0 = 2 * y < h - 1 ? 2 * y : h - 1, y1 = 2 * y + 1 < h - 1 ? 2 * y + 1 : h - 1;
            for (int c = 0; c < 4; c++) {
                unsigned sum = (unsigned)src[((size_t)y0 * (size_t)w + (size_t)x0) * 4 + (size_t)c] +
                               src[((size_t)y0 * (size_t)w + (size_t)x1) * 4 + (size_t)c] +
                               src[((size_t)y1 * (size_t)w + (size_t)x0) * 4 + (size_t)c] +
                               src[((size_t)y1 * (size_t)w + (size_t)x1) * 4 + (size_t)c];
                dst[((size_t)y * (size_t)dw + (size_t)x) * 4 + (size_t)c] = (uint8_t)((sum + 2) >> 2);
            }
        }
    *nw = dw;
    *nh = dh;
    return dst;
}

/* Writes the pattern into level 0 of `face`, then binds and unbinds the target, which
   regenerates that face's chain. */
static void generate(xgdt_ctx *t, xgd_device *dev, xgd_texture *rt, bool cube, int face, int w,
                     int h, uint32_t seed)
{
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *level = malloc(bytes);
    REQUIRE(level);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++)
                level[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c] = pattern_byte(seed, x, y, c);
    CHECK_OK(xgd_texture_set_data(rt, 0, (xgd_cube_map_face)face, NULL, level, bytes));
    free(level);
    if (cube) CHECK_OK(xgd_set_render_target_cube(dev, rt, (xgd_cube_map_face)face));
    else CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_set_render_target(dev, NULL));
}

/* Compares every level of `face` with the rule: exact, each level from the rule's own level
   before it (the whole chain from level 0); or, `stepwise`, each level from the level the
   renderer stored before it, within 1 (a per-level route that averages in float and lets the
   format round: a tie may round either way and a blit's filter weights may be inexact, but
   each level must still be the box of its source, clamped the same way). */
static void expect_chain(xgdt_ctx *t, xgd_texture *rt, int face, int w, int h, uint32_t seed,
                         const char *name, bool stepwise)
{
    xgd_texture_info info;
    CHECK_OK(xgd_texture_get_info(rt, &info));
    uint8_t *level = malloc((size_t)w * (size_t)h * 4);
    REQUIRE(level);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            for (int c = 0; c < 4; c++)
                level[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)c] = pattern_byte(seed, x, y, c);
    int lw = w, lh = h;
    for (int l = 1; l < info.level_count; l++) {
        int nw, nh;
        uint8_t *next = rule_level(level, lw, lh, &nw, &nh);
        free(level);
        level = next;
        REQUIRE(level);
        lw = nw;
        lh = nh;
        char label[64];
        snprintf(label, sizeof label, "%s_level%d", name, l);
        uint8_t *actual = NULL;
        bool read = xgdt_read_texture(t, rt, (xgd_cube_map_face)face, l, lw, lh, &actual);
        if (read) xgdt_compare_rgba(t, label, actual, level, lw, lh, stepwise ? 1 : 0);
        if (read && stepwise) {
            free(level);
            level = actual;
        } else {
            free(actual);
        }
    }
    CHECK_MSG(lw == 1 && lh == 1, "%s: the chain ends at %dx%d, not 1x1", name, lw, lh);
    free(level);
}

/* Every shape's chain against the rule, on a device made with `variable` (NULL: none) set to 1;
   per_level: each level within a step of the box of the level stored before it. */
static void check_rule(xgdt_ctx *t, const char *variable, bool per_level)
{
    if (variable) REQUIRE(setenv(variable, "1", 1) == 0);
    xgd_device *dev = fx_device(t, 16, 16, XGD_DEPTH_FORMAT_NONE, 0);
    if (variable) unsetenv(variable);
    REQUIRE(dev);
    static const struct { int w, h; } shapes[] = { { 1000, 300 }, { 5, 3 }, { 1, 7 }, { 2500, 3 } };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        xgd_texture *rt = fx_target(t, dev, shapes[i].w, shapes[i].h, XGD_DEPTH_FORMAT_NONE, 0,
                                    XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS, true);
        REQUIRE(rt);
        char name[32];
        snprintf(name, sizeof name, "%dx%d", shapes[i].w, shapes[i].h);
        generate(t, dev, rt, false, 0, shapes[i].w, shapes[i].h, (uint32_t)i + 1);
        expect_chain(t, rt, 0, shapes[i].w, shapes[i].h, (uint32_t)i + 1, name, per_level);
        xgd_texture_destroy(rt);
    }
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = d.height = 24;
    d.mipmap = true;
    d.usage = XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS;
    xgd_texture *cube = NULL;
    CHECK_OK(xgd_render_target_cube_create(dev, &d, &cube));
    REQUIRE(cube);
    /* every face generated before any is read: each keeps its own chain */
    for (int f = 0; f < 6; f++) generate(t, dev, cube, true, f, 24, 24, 100u + (uint32_t)f);
    for (int f = 0; f < 6; f++) {
        char name[32];
        snprintf(name, sizeof name, "cube_face%d", f);
        expect_chain(t, cube, f, 24, 24, 100u + (uint32_t)f, name, per_level);
    }
    xgd_texture_destroy(cube);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(MipChain_RuleExact)
{
    check_rule(t, NULL, false);
}

XGD_FIXTURE(MipChain_RuleExactByDraws)
{
    if (t->renderer != XGD_RENDERER_D3D12) {
        xgdt_not_supported(t, "only Direct3D 12 has a second exact route for Color ($XGD_MIPS_BY_DRAWS)");
        return;
    }
    check_rule(t, "XGD_MIPS_BY_DRAWS", false);
}

XGD_FIXTURE(MipChain_RulePerLevel)
{
    check_rule(t, "XGD_MIPS_PER_LEVEL", true);
}
