/*
 * test_d3d12_mips.c - which route the Direct3D 12 renderer's mip generation takes. A Color chain
 * of a 2D target runs shaders/mips.comp (translated to DXBC at the first chain): a dispatch per
 * six levels, so 1024x1024 (levels 1..10) and 2048x2048 (1..11) are two dispatches, 4x4 and 2x2
 * one, and no chain draws. With $XGD_MIPS_BY_DRAWS=1 (or where the compute pipeline cannot be
 * made) it is drawn: levels wider or taller than D3D12X_MIP_CHAIN_MAX (128) one a draw, then the
 * rest three levels at a time (PSMipChain3) while three remain, then two (PSMipChain2), then one
 * by a single-level draw: a 1024x1024 chain is levels 1 and 2 alone, then chain draws of 3-5,
 * 6-8 and 9-10; 2048x2048 levels 1 to 3 alone, then 4-6, 7-9 and 10-11. Cube faces, other
 * formats, and every chain under $XGD_MIPS_PER_LEVEL=1 are drawn level by level.
 * The texels of every route are checked against the box rule by fixture_mip_rule.c.
 */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

/* Chain draws (or, `dispatches`, compute dispatches) recorded by one regeneration of a size x
   size target of `format`. */
static uint64_t route_count(xgdt_ctx *t, xgd_device *dev, int size, xgd_surface_format format,
                            bool cube, bool dispatches)
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
    uint64_t before = dispatches ? dr->mip_dispatches : dr->stats.mip_chain_draws;
    if (cube) CHECK_OK(xgd_set_render_target_cube(dev, rt, XGD_CUBE_MAP_FACE_POSITIVE_X));
    else CHECK_OK(xgd_set_render_target(dev, rt));
    CHECK_OK(xgd_set_render_target(dev, NULL));
    uint64_t n = (dispatches ? dr->mip_dispatches : dr->stats.mip_chain_draws) - before;
    xgd_texture_destroy(rt);
    return n;
}

static uint64_t chain_draws(xgdt_ctx *t, xgd_device *dev, int size, xgd_surface_format format, bool cube)
{
    return route_count(t, dev, size, format, cube, false);
}

/* A Direct3D 12 device made with `variable` (NULL: none) set to 1. */
static xgd_device *d3d12_device(xgdt_ctx *t, const char *variable)
{
    if (variable) setenv(variable, "1", 1);
    xgd_device *dev = xgdt_device_on(t, XGD_RENDERER_D3D12, 16, 16);
    if (variable) unsetenv(variable);
    return dev;
}

/* A device whose chains may run without render targets (typed UAV stores of R8G8B8A8_UNORM:
   the chain's root signature made), else NULL with the test marked not supported. */
static xgd_device *d3d12_chain_device(xgdt_ctx *t, const char *variable)
{
    xgd_device *dev = d3d12_device(t, variable);
    if (dev != NULL && ((d3d12_renderer *)dev->renderer)->mips_root == NULL) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the device has no typed UAV stores of R8G8B8A8_UNORM");
        return NULL;
    }
    return dev;
}
#endif

XGD_TEST(D3D12Mips_ComputeForColor2D)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#elif !defined(XGD_TEST_HAVE_INTERNAL_SPIRV)
    xgdt_not_supported(t, "built without glslangValidator: no SPIR-V of shaders/mips.comp to translate");
#else
    xgd_device *dev = d3d12_chain_device(t, NULL);
    if (dev == NULL) return;
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
    CHECK_MSG(dr->mips_cs == NULL, "the mips compute pipeline was made before any chain needed it");
    static const struct { int size; uint64_t dispatches; } chains[] = {
        { 1024, 2 }, { 2048, 2 }, { 128, 2 }, { 64, 1 }, { 4, 1 }, { 2, 1 }
    };
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++) {
        uint64_t draws0 = dr->stats.mip_chain_draws;
        uint64_t n = route_count(t, dev, chains[i].size, XGD_SURFACE_FORMAT_COLOR, false, true);
        CHECK_MSG(n == chains[i].dispatches, "a %dx%d Color chain took %llu dispatches, expected %llu",
                  chains[i].size, chains[i].size, (unsigned long long)n,
                  (unsigned long long)chains[i].dispatches);
        CHECK_MSG(dr->stats.mip_chain_draws == draws0, "a %dx%d Color chain by compute drew chain draws",
                  chains[i].size, chains[i].size);
    }
    CHECK_MSG(dr->mips_cs != NULL, "a device with typed UAVs made no mips compute pipeline");
    uint64_t n = route_count(t, dev, 64, XGD_SURFACE_FORMAT_COLOR, true, true);
    CHECK_MSG(n == 0, "a Color cube face took %llu dispatches, expected a draw per level", (unsigned long long)n);
    n = route_count(t, dev, 64, XGD_SURFACE_FORMAT_HALF_VECTOR4, false, true);
    CHECK_MSG(n == 0, "a HalfVector4 chain took %llu dispatches, expected a draw per level", (unsigned long long)n);
    xgd_device_destroy(dev);
#endif
}

XGD_TEST(D3D12Mips_ChainDrawsForColor2DByDraws)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_chain_device(t, "XGD_MIPS_BY_DRAWS");
    if (dev == NULL) return;
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
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
    CHECK_MSG(dr->mips_cs == NULL, "XGD_MIPS_BY_DRAWS=1 made the mips compute pipeline");
    xgd_device_destroy(dev);
#endif
}

XGD_TEST(D3D12Mips_PerLevelOnRequest)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    xgd_device *dev = d3d12_device(t, "XGD_MIPS_PER_LEVEL");
    if (dev == NULL) return;
    d3d12_renderer *dr = (d3d12_renderer *)dev->renderer;
    CHECK_MSG(dr->mips_root == NULL, "XGD_MIPS_PER_LEVEL=1 left the chain's root signature");
    uint64_t n = chain_draws(t, dev, 1024, XGD_SURFACE_FORMAT_COLOR, false);
    CHECK_MSG(n == 0, "XGD_MIPS_PER_LEVEL=1: a Color chain took %llu chain draws, expected 0",
              (unsigned long long)n);
    CHECK_MSG(dr->mips_cs == NULL, "XGD_MIPS_PER_LEVEL=1 made the mips compute pipeline");
    xgd_device_destroy(dev);
#endif
}
