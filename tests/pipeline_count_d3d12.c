/*
 * pipeline_count_d3d12.c - the Direct3D 12 renderer's PSO cache size, for
 * fixture_pipeline_churn.c (whose file holds the Vulkan renderer's internals: the two renderers'
 * internal headers define the same native structs and cannot meet in one file).
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#include "internal.h"

long xgdt_d3d12_cached_psos(xgd_device *dev);

long xgdt_d3d12_cached_psos(xgd_device *dev)
{
    if (dev->ops->kind != XGD_RENDERER_D3D12) return -1;
    return (long)d3d12_cast(dev->renderer)->pso_count;
}
#endif
