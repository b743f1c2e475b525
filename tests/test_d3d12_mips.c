/*
 * test_d3d12_mips.c - which route the Direct3D 12 renderer's mip generation takes. A Color chain
 * of a 2D target draws its levels wider or taller than D3D12X_MIP_CHAIN_MAX (128) one a draw,
 * then the rest three levels at a time (PSMipChain3) while three remain, then two (PSMipChain2),
 * then one by a single-level draw: a 1024x1024 chain (levels 1..10) is levels 1 and 2 alone,
 * then chain draws of 3-5, 6-8 and 9-10; 2048x2048 (levels 1..11) levels 1 to 3 alone, then
 * 4-6, 7-9 and 10-11. Cube faces, other formats, and every chain under $XGD_MIPS_PER_LEVEL=1
 * are drawn level by level.
 * The texels of every route are checked against the box rule by fixture_mip_rule.c.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

/* Chain draws recorded by one regeneration of a size x size target of `format`. */
static uint64_t chain_draws(xgdt_ctx *t, xgd_device *dev, int size, xgd_surface_format format, bool cube)
{
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
    xgd_texture *rt = NULL;
    xgd_render_target_desc d;
    memset(&d, 0, sizeof d);
    d.width = d.height = size;
    d.mipmap = true;
    d.preferred_format = format;
    if (cube) CHECK_OK(xgd_render_target_cube_create(dev, &d, &rt));
    else CHECK_OK(xgd_render_target2d_create(dev, &d, &rt));
    if (rt == NULL) return UINT64_MAX;
    uint64_t before = dr->stats.mip_chain_draws;
    if (cube) CHECK_OK(xgd_set_render_target_cube(dev, rt, XGD_CUBE_MAP_FACE_POSITIVE_X));
    else CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint64_t n = dr->stats.mip_chain_draws - before;
    xgd_texture_destroy(rt);
    return n;
}

static xgd_device *d3d12_device(xgdt_ctx *t, bool per_level)
{
    if (per_level) setenv("XGD_MIPS_PER_LEVEL", "1", 1);
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_D3D12, 16, 16);
    if (per_level) unsetenv("XGD_MIPS_PER_LEVEL");
    return dev;
}
#endif

XGD_TEST(D3D12Mips_ChainDrawsForColor2D)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_device(t, false);
    if (dev == NULL) return;
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
    if (dr->mips_root == NULL) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the device has no typed UAV stores of R8G8B8A8_UNORM");
        return;
    }
    uint64_t n = chain_draws(t, dev, 1024, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 3, "a 1024x1024 Color chain took %llu chain draws, expected 3", (unsigned long long)n);
    n = chain_draws(t, dev, 2048, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 3, "a 2048x2048 Color chain took %llu chain draws, expected 3", (unsigned long long)n);
    /* level 1 is 128x128: every level in chain draws, 1-3, 4-6, 7-8 */
    n = chain_draws(t, dev, 256, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 3, "a 256x256 Color chain took %llu chain draws, expected 3", (unsigned long long)n);
    n = chain_draws(t, dev, 4, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 1, "a 4x4 Color chain (levels 1..2) took %llu chain draws, expected 1",
              (unsigned long long)n);
    n = chain_draws(t, dev, 2, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 0, "a 2x2 Color chain (level 1) took %llu chain draws, expected 0", (unsigned long long)n);
    n = chain_draws(t, dev, 64, XGD_SURFACE_FORMAT_COLOR, true);
    CHECK_MSG(n == 0, "a Color cube face took %llu chain draws, expected a draw per level",
              (unsigned long long)n);
    n = chain_draws(t, dev, 64, XGD_SURFACE_FORMAT_HALF_VECTOR4, false);
    CHECK_MSG(n == 0, "a HalfVector4 chain took %llu chain draws, expected a draw per level",
              (unsigned long long)n);
    xgd_device_destroy(dev);
#endif
}

XGD_TEST(D3D12Mips_PerLevelOnRequest)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_device(t, true);
    if (dev == NULL) return;
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
    CHECK_MSG(dr->mips_root == NULL, "XGD_MIPS_PER_LEVEL=1 left the chain's root signature");
    uint64_t n = chain_draws(t, dev, 1024, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 0, "XGD_MIPS_PER_LEVEL=1: a Color chain took %llu chain draws, expected 0",
              (unsigned long long)n);
    xgd_device_destroy(dev);
#endif
}
