/*
 * d3d12_dxgi.c - windowed presentation of the Direct3D 12 renderer on Windows: a DXGI
 * flip-model swap chain (DXGI_SWAP_EFFECT_FLIP_DISCARD, two buffers, spec 002) on the HWND of a
 * Win32 window, or of an SDL2 window on SDL's Windows driver. Per Present:
 *   1. in the frame's list, the back buffer (xgd's own R8G8B8A8 texture, the window's drawable
 *      size: the presentation geometry is already in the draws' viewport transform, spec 002)
 *      is copied into the swap chain's current buffer, which goes PRESENT -> COPY_DEST ->
 *      PRESENT around the copy;
 *   2. the frame is submitted as headless;
 *   3. IDXGISwapChain::Present(interval, flags) on the same queue.
 * The swap chain follows the back buffer's size (ResizeBuffers after the GPU is idle and every
 * buffer reference is dropped); a window that is gone is DEVICE_LOST by name, and
 * DXGI_ERROR_DEVICE_REMOVED / RESET / HUNG put the device in the lost state
 * (xgdi_d3d12_check). xgd never calls SetFullscreenState and turns DXGI's Alt+Enter off, so the
 * swap chain is never in exclusive full screen.
 *
 * The tearing rule (xgdi_dxgi_present_flags) is plain C, compiled on every platform so that it
 * is unit-tested where the rest of this file cannot run.
 */
#include "d3d12_internal.h"
#include "../../platform/window.h"

#include <stdlib.h>
#include <string.h>

unsigned xgdi_dxgi_present_flags(bool tearing_supported, int swap_interval,
                                 bool exclusive_full_screen)
{
    /* spec 002: DXGI_PRESENT_ALLOW_TEARING only when tearing is supported, asked for (the
       present interval is Immediate: 0) and the swap chain is not in exclusive full screen */
    if (tearing_supported && swap_interval == 0 && !exclusive_full_screen)
        return XGDI_DXGI_PRESENT_ALLOW_TEARING;
    return 0;
}

#ifdef _WIN32

_Static_assert(XGDI_DXGI_PRESENT_ALLOW_TEARING == DXGI_PRESENT_ALLOW_TEARING,
               "the tearing flag's value is dxgi1_5.h's");

#define D3D12D_BUFFERS 2 /* spec 002: FLIP_DISCARD with two buffers */

struct d3d12_present {
    xgdi_window *window;
    HWND hwnd;
    IDXGIFactory2 *factory;
    IDXGISwapChain3 *chain;
    ID3D12Resource *buffers[D3D12D_BUFFERS];
    D3D12_RESOURCE_STATES states[D3D12D_BUFFERS];
    UINT width, height;
    UINT chain_flags;       /* the flags the swap chain was created with (ResizeBuffers repeats
                               them) */
    bool tearing;           /* DXGI_FEATURE_PRESENT_ALLOW_TEARING */
};

bool xgdi_d3d12_can_present(d3d12_renderer *r)
{
    (void)r; /* every Direct3D 12 device can present through DXGI to a window of its process */
    return true;
}

static xgd_result window_gone(d3d12_renderer *r, const char *what)
{
    return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                     "d3d12: %s: the window is gone; reset the device onto another window", what);
}

/* A DXGI failure: device removal enters the lost state; a window destroyed under the call is
   named as such; anything else is the call's own failure. */
static xgd_result dxgi_fail(d3d12_renderer *r, struct d3d12_present *p, HRESULT hr,
                            const char *what)
{
    if (hr == DXGI_ERROR_DEVICE_REMOVED || hr == DXGI_ERROR_DEVICE_RESET ||
        hr == DXGI_ERROR_DEVICE_HUNG)
        return xgdi_d3d12_check(r, hr, what);
    if (p != NULL && !IsWindow(p->hwnd)) return window_gone(r, what);
    if (hr == E_OUTOFMEMORY)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: %s: out of memory", what);
    return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION, "d3d12: %s failed (hr 0x%08lx)",
                     what, (unsigned long)hr);
}

static void release_buffers(struct d3d12_present *p)
{
    for (int i = 0; i < D3D12D_BUFFERS; i++) {
        if (p->buffers[i] != NULL) ID3D12Resource_Release(p->buffers[i]);
        p->buffers[i] = NULL;
    }
}

static xgd_result get_buffers(d3d12_renderer *r, struct d3d12_present *p)
{
    for (UINT i = 0; i < D3D12D_BUFFERS; i++) {
        HRESULT hr = IDXGISwapChain3_GetBuffer(p->chain, i, &IID_ID3D12Resource,
                                               (void **)&p->buffers[i]);
        if (FAILED(hr)) {
            p->buffers[i] = NULL;
            release_buffers(p);
            return dxgi_fail(r, p, hr, "IDXGISwapChain::GetBuffer");
        }
        p->states[i] = D3D12_RESOURCE_STATE_PRESENT; /* a new buffer is ready to present */
        d3d12_set_name(r, p->buffers[i], "xgd swap chain buffer %u", i);
    }
    return XGD_OK;
}

static void destroy_all(d3d12_renderer *r)
{
    struct d3d12_present *p = r->present;
    if (p == NULL) return;
    release_buffers(p);
    if (p->chain != NULL) IDXGISwapChain3_Release(p->chain);
    if (p->factory != NULL) IDXGIFactory2_Release(p->factory);
    free(p);
    r->present = NULL;
}

void xgdi_d3d12_present_destroy(d3d12_renderer *r)
{
    if (r->present == NULL) return;
    /* the swap chain's buffers may be in flight: a lost device returns at once */
    (void)xgdi_d3d12_wait(r, r->base.submitted_fence);
    destroy_all(r);
}

void xgdi_d3d12_present_follow_window(d3d12_renderer *r)
{
    if (r->present == NULL || r->present->window == r->base.window) return;
    xgdi_d3d12_present_destroy(r);
}

static xgd_result create(d3d12_renderer *r)
{
    xgdi_native_texture *bb = r->back_buffer;
    void *hwnd = NULL;
    if (!xgdi_window_win32_handle(r->base.window, &hwnd)) {
        if (xgdi_window_lost(r->base.window)) return window_gone(r, "CreateSwapChainForHwnd");
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the window has no HWND (a Win32 window, or an SDL2 window on "
                         "SDL's Windows video driver, is presented through DXGI)");
    }
    struct d3d12_present *p = calloc(1, sizeof *p);
    if (p == NULL) return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    r->present = p;
    p->window = r->base.window;
    p->hwnd = (HWND)hwnd;
    HRESULT hr = CreateDXGIFactory2(r->debug ? DXGI_CREATE_FACTORY_DEBUG : 0, &IID_IDXGIFactory2,
                                    (void **)&p->factory);
    if (FAILED(hr) && r->debug) /* the DXGI debug layer is optional (Graphics Tools) */
        hr = CreateDXGIFactory2(0, &IID_IDXGIFactory2, (void **)&p->factory);
    if (FAILED(hr)) {
        p->factory = NULL;
        destroy_all(r);
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: CreateDXGIFactory2 failed (hr 0x%08lx)", (unsigned long)hr);
    }
    /* Tearing (variable-refresh displays) is asked for at creation when DXGI has it; an older
       DXGI (no IDXGIFactory5) has none. */
    IDXGIFactory5 *f5 = NULL;
    if (SUCCEEDED(IDXGIFactory2_QueryInterface(p->factory, &IID_IDXGIFactory5, (void **)&f5)) &&
        f5 != NULL) {
        BOOL allow = FALSE;
        if (SUCCEEDED(IDXGIFactory5_CheckFeatureSupport(f5, DXGI_FEATURE_PRESENT_ALLOW_TEARING,
                                                        &allow, sizeof allow)))
            p->tearing = allow != FALSE;
        IDXGIFactory5_Release(f5);
    }
    p->chain_flags = p->tearing ? (UINT)DXGI_SWAP_CHAIN_FLAG_ALLOW_TEARING : 0;
    DXGI_SWAP_CHAIN_DESC1 sd;
    memset(&sd, 0, sizeof sd);
    sd.Width = (UINT)bb->desc.width;
    sd.Height = (UINT)bb->desc.height;
    sd.Format = bb->dxgi; /* R8G8B8A8_UNORM: a flip-model format, so the copy is same-format */
    sd.SampleDesc.Count = 1;
    sd.BufferUsage = DXGI_USAGE_RENDER_TARGET_OUTPUT;
    sd.BufferCount = D3D12D_BUFFERS;
    /* NONE: a buffer whose size lags the window's (until the next Present follows it) lands
       at the top-left corner pixel for pixel, as on the other paths, instead of stretched */
    sd.Scaling = DXGI_SCALING_NONE;
    sd.SwapEffect = DXGI_SWAP_EFFECT_FLIP_DISCARD;
    sd.AlphaMode = DXGI_ALPHA_MODE_IGNORE;
    sd.Flags = p->chain_flags;
    IDXGISwapChain1 *chain1 = NULL;
    hr = IDXGIFactory2_CreateSwapChainForHwnd(p->factory, (IUnknown *)r->queue, p->hwnd, &sd, NULL,
                                              NULL, &chain1);
    if (FAILED(hr) || chain1 == NULL) {
        xgd_result res = dxgi_fail(r, p, hr, "IDXGIFactory2::CreateSwapChainForHwnd");
        destroy_all(r);
        return res;
    }
    hr = IDXGISwapChain1_QueryInterface(chain1, &IID_IDXGISwapChain3, (void **)&p->chain);
    IDXGISwapChain1_Release(chain1);
    if (FAILED(hr) || p->chain == NULL) {
        p->chain = NULL;
        destroy_all(r);
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the swap chain has no IDXGISwapChain3 (hr 0x%08lx)",
                         (unsigned long)hr);
    }
    /* xgd does not own the window: DXGI's Alt+Enter (exclusive full screen) and its watching
       of the message queue stay off; full screen is the application's (or SDL's) */
    IDXGIFactory2_MakeWindowAssociation(p->factory, p->hwnd,
                                        DXGI_MWA_NO_ALT_ENTER | DXGI_MWA_NO_WINDOW_CHANGES);
    p->width = sd.Width;
    p->height = sd.Height;
    xgd_result res = get_buffers(r, p);
    if (res != XGD_OK) destroy_all(r);
    return res;
}

/* The swap chain for the current window and back-buffer size. */
static xgd_result ensure(d3d12_renderer *r)
{
    xgdi_d3d12_present_follow_window(r);
    if (r->present == NULL) return create(r);
    struct d3d12_present *p = r->present;
    xgdi_native_texture *bb = r->back_buffer;
    UINT w = (UINT)bb->desc.width, h = (UINT)bb->desc.height;
    if (p->width == w && p->height == h && p->buffers[0] != NULL) return XGD_OK;
    /* ResizeBuffers needs every reference to the buffers gone and no queued work using them */
    xgd_result res = xgdi_d3d12_wait(r, r->base.submitted_fence);
    if (res != XGD_OK) return res;
    release_buffers(p);
    HRESULT hr = IDXGISwapChain3_ResizeBuffers(p->chain, D3D12D_BUFFERS, w, h, bb->dxgi,
                                               p->chain_flags);
    if (FAILED(hr)) return dxgi_fail(r, p, hr, "IDXGISwapChain::ResizeBuffers");
    p->width = w;
    p->height = h;
    return get_buffers(r, p);
}

xgd_result xgdi_d3d12_present_window(d3d12_renderer *r, int swap_interval,
                                     xgd_result (*submit)(d3d12_renderer *r))
{
    /* The window is asked first: a destroyed window gives a named error before DXGI is. */
    int ww = 0, wh = 0;
    xgd_result res = xgdi_window_drawable_size(r->base.device, r->base.window, &ww, &wh);
    if (res == XGD_OK) res = ensure(r);
    struct d3d12_present *p = r->present;
    if (res != XGD_OK || p == NULL || p->buffers[0] == NULL) {
        /* nothing can be shown: the frame is still submitted, as headless */
        xgd_result sub = submit(r);
        return res != XGD_OK ? res : sub;
    }

    /* 1: the back buffer into the current buffer, in the frame's own list */
    UINT index = IDXGISwapChain3_GetCurrentBackBufferIndex(p->chain) % D3D12D_BUFFERS;
    xgdi_native_texture *bb = r->back_buffer;
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    xgdi_d3d12_texture_transition(r, bb, 0, 0, D3D12_RESOURCE_STATE_COPY_SOURCE);
    xgdi_d3d12_transition(r, p->buffers[index], 0, &p->states[index],
                          D3D12_RESOURCE_STATE_COPY_DEST);
    xgdi_d3d12_flush_barriers(r);
    D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = p->buffers[index],
                                        .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
                                        .SubresourceIndex = 0 };
    D3D12_TEXTURE_COPY_LOCATION src = { .pResource = bb->res,
                                        .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
                                        .SubresourceIndex = 0 };
    ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
    xgdi_d3d12_transition(r, p->buffers[index], 0, &p->states[index],
                          D3D12_RESOURCE_STATE_PRESENT);
    xgdi_d3d12_flush_barriers(r);

    /* 2: the frame */
    if ((res = submit(r)) != XGD_OK) return res;

    /* 3: present on the queue the frame went to */
    UINT interval = swap_interval < 0 ? 0u : swap_interval > 4 ? 4u : (UINT)swap_interval;
    UINT flags = xgdi_dxgi_present_flags(p->tearing, (int)interval, false);
    HRESULT hr = IDXGISwapChain3_Present(p->chain, interval, flags);
    /* DXGI_STATUS_OCCLUDED (a minimised or covered window) is a success code: nothing shown */
    if (FAILED(hr)) return dxgi_fail(r, p, hr, "IDXGISwapChain::Present");
    return XGD_OK;
}

#endif /* _WIN32 (elsewhere d3d12_window.c presents through vkd3d) */
