/*
 * d3d12_debug.c - the runtime's debug layer and info queue (issue 5, device creation: "debug
 * layer and info-queue filtering in debug mode where the runtime has them"; spec 003
 * "Debugging aids").
 *
 * The debug layer is enabled before the device exists; the info queue is the device's
 * ID3D12InfoQueue. Its messages are drained after every submission and sent to the log
 * callback as "d3d12 debug layer: <severity> <id>: <text>", which the test harness treats
 * like Vulkan validation messages (a test fails on any). Breaking into the debugger is turned
 * off for every severity: a break without a debugger attached would end the host process, and
 * xgd never ends its host. vkd3d (Linux) has a stub debug interface and no info queue; both
 * are reported once as warnings, never as failures.
 *
 * The runtime's EnableDebugLayer is process-wide and must precede device creation: a debug
 * device created while a non-debug D3D12 device is alive makes the runtime remove the older
 * device (Microsoft's documentation of ID3D12Debug::EnableDebugLayer). xgd.h says so at
 * xgd_device_desc.debug; create debug devices first or only.
 */
#include "d3d12_internal.h"

#include <stdlib.h>

void xgdi_d3d12_debug_enable_layer(d3d12_renderer *r)
{
    ID3D12Debug *dbg = NULL;
    if (SUCCEEDED(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg)) && dbg != NULL) {
        ID3D12Debug_EnableDebugLayer(dbg);
        ID3D12Debug_Release(dbg);
        r->caps.debug_layer = true;
    } else {
        xgdi_warn(r->base.device, "d3d12: no debug layer available (vkd3d: use VKD3D_DEBUG "
                                  "and the Vulkan validation layer)");
    }
}

#ifdef _WIN32

void xgdi_d3d12_debug_attach_info_queue(d3d12_renderer *r)
{
    ID3D12InfoQueue *q = NULL;
    if (FAILED(ID3D12Device_QueryInterface(r->dev, &IID_ID3D12InfoQueue, (void **)&q)) ||
        q == NULL) {
        xgdi_warn(r->base.device, "d3d12: the runtime has no info queue (debug layer missing)");
        return;
    }
    ID3D12InfoQueue_SetBreakOnSeverity(q, D3D12_MESSAGE_SEVERITY_CORRUPTION, FALSE);
    ID3D12InfoQueue_SetBreakOnSeverity(q, D3D12_MESSAGE_SEVERITY_ERROR, FALSE);
    ID3D12InfoQueue_SetBreakOnSeverity(q, D3D12_MESSAGE_SEVERITY_WARNING, FALSE);
    /* Filtered out: informational severities, and messages xgd causes by design --
       clears with colours other than the optimised clear value given at creation (XNA clears
       to any colour; the mismatch costs a fast clear, it is not an error) and Map/Unmap of
       persistently mapped upload memory without a range. */
    D3D12_MESSAGE_SEVERITY deny_severity[] = { D3D12_MESSAGE_SEVERITY_INFO,
                                               D3D12_MESSAGE_SEVERITY_MESSAGE };
    D3D12_MESSAGE_ID deny_id[] = {
        D3D12_MESSAGE_ID_CLEARRENDERTARGETVIEW_MISMATCHINGCLEARVALUE,
        D3D12_MESSAGE_ID_CLEARDEPTHSTENCILVIEW_MISMATCHINGCLEARVALUE,
        D3D12_MESSAGE_ID_MAP_INVALID_NULLRANGE,
        D3D12_MESSAGE_ID_UNMAP_INVALID_NULLRANGE,
    };
    D3D12_INFO_QUEUE_FILTER filter = { 0 };
    filter.DenyList.NumSeverities = (UINT)(sizeof deny_severity / sizeof deny_severity[0]);
    filter.DenyList.pSeverityList = deny_severity;
    filter.DenyList.NumIDs = (UINT)(sizeof deny_id / sizeof deny_id[0]);
    filter.DenyList.pIDList = deny_id;
    if (FAILED(ID3D12InfoQueue_PushStorageFilter(q, &filter)))
        xgdi_warn(r->base.device, "d3d12: info queue filter refused; every message is logged");
    r->info_queue = q;
}

void xgdi_d3d12_debug_drain(d3d12_renderer *r)
{
    ID3D12InfoQueue *q = r->info_queue;
    if (q == NULL) return;
    static const char *const severity[] = { "corruption", "error", "warning", "info", "message" };
    UINT64 n = ID3D12InfoQueue_GetNumStoredMessagesAllowedByRetrievalFilter(q);
    for (UINT64 i = 0; i < n; i++) {
        SIZE_T size = 0;
        if (FAILED(ID3D12InfoQueue_GetMessage(q, i, NULL, &size)) || size == 0) continue;
        D3D12_MESSAGE *m = malloc(size); /* debug devices only: off the per-draw path */
        if (m == NULL) break;
        if (SUCCEEDED(ID3D12InfoQueue_GetMessage(q, i, m, &size))) {
            unsigned s = (unsigned)m->Severity;
            xgdi_warn(r->base.device, "d3d12 debug layer: %s %d: %.*s",
                      s < 5 ? severity[s] : "?", (int)m->ID, (int)m->DescriptionByteLength,
                      m->pDescription);
        }
        free(m);
    }
    ID3D12InfoQueue_ClearStoredMessages(q);
}

void xgdi_d3d12_debug_release(d3d12_renderer *r)
{
    if (r->info_queue != NULL) {
        xgdi_d3d12_debug_drain(r);
        ID3D12InfoQueue_Release(r->info_queue);
        r->info_queue = NULL;
    }
}

#else /* vkd3d */

void xgdi_d3d12_debug_attach_info_queue(d3d12_renderer *r)
{
    /* vkd3d 1.2 implements no ID3D12InfoQueue (its headers do not declare one). */
    xgdi_warn(r->base.device, "d3d12: vkd3d has no info queue; its own messages go to "
                              "VKD3D_DEBUG and the Vulkan validation layer");
}

void xgdi_d3d12_debug_drain(d3d12_renderer *r) { (void)r; }
void xgdi_d3d12_debug_release(d3d12_renderer *r) { (void)r; }

#endif
