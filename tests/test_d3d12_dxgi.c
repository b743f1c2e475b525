/*
 * test_d3d12_dxgi.c - spec 002's tearing rule for the DXGI swap chain (d3d12_dxgi.c), the one
 * part of Windows presentation that is plain C and so is checked on every platform:
 * DXGI_PRESENT_ALLOW_TEARING (0x200, dxgi1_5.h) goes to IDXGISwapChain::Present only when
 * tearing is supported, the present interval is Immediate (swap interval 0) and the swap chain
 * is not in exclusive full screen. The swap chain itself runs under Wine in
 * .ci/windows-cross.sh (tests/windows/dxgi_window.c).
 */
#include "harness.h"

#ifdef XGD_TEST_HAVE_D3D12
#include "d3d12_internal.h"
#endif

XGD_TEST(D3D12_DxgiTearingRule)
{
#ifndef XGD_TEST_HAVE_D3D12
    xgdt_not_supported(t, "built without the Direct3D 12 renderer");
#else
    const unsigned tear = 0x200u; /* DXGI_PRESENT_ALLOW_TEARING */
    /* supported, Immediate, windowed (or borderless full screen): the only case that tears */
    CHECK_INT(xgdi_dxgi_present_flags(true, 0, false), tear);
    /* any of the three conditions missing: no flag (DXGI rejects it with an interval) */
    for (int interval = 1; interval <= 4; interval++)
        CHECK_INT(xgdi_dxgi_present_flags(true, interval, false), 0);
    CHECK_INT(xgdi_dxgi_present_flags(false, 0, false), 0);
    CHECK_INT(xgdi_dxgi_present_flags(true, 0, true), 0);
    CHECK_INT(xgdi_dxgi_present_flags(false, 1, true), 0);
#endif
}
