/*
 * vk_swapchain.c - windowed presentation: a VkSurfaceKHR for the device's window (an Xlib
 * surface, for X11 windows and SDL2 windows on SDL's X11 driver; SDL_Vulkan_CreateSurface for
 * SDL2 windows made with SDL_WINDOW_VULKAN, on any SDL video driver), a swap chain of the window's
 * size, and per Present: acquire an image, copy the back buffer into it in the frame's command
 * buffer, submit the frame (waiting for the acquire, signalling the present), present.
 *
 * The back buffer stays the renderer's own image, so drawing, readback and frames in flight
 * work exactly as headless; only the copy and the present are added. The swap chain is
 * re-created when the window, its size or the present mode changes, and after
 * VK_ERROR_OUT_OF_DATE_KHR or VK_SUBOPTIMAL_KHR. Present interval: One -> FIFO; Immediate ->
 * IMMEDIATE, else MAILBOX, else FIFO; Two -> FIFO as well (Vulkan has no half-rate mode; xgd
 * does not pace it further: README "Windows").
 */
#include "vk_internal.h"
#include "../../platform/window.h"

#include <stdlib.h>
#include <string.h>

#ifdef XGD_HAVE_X11
#include <X11/Xlib.h>
#include <vulkan/vulkan_xlib.h>
#endif

#define XVK_MAX_SWAP_IMAGES 8
/* a bounded wait for an image: a compositor that never releases one is an error, not a hang */
#define XVK_ACQUIRE_TIMEOUT_NS 5000000000ull

typedef struct xvk_swapchain {
    struct xgdi_window *window;  /* the window the surface belongs to */
    VkSurfaceKHR surface;
    VkSwapchainKHR chain;
    VkFormat format;
    VkExtent2D extent;
    VkPresentModeKHR mode;
    uint32_t image_count;
    VkImage images[XVK_MAX_SWAP_IMAGES];
    VkSemaphore acquired[XVK_FRAMES];             /* per frame slot */
    VkSemaphore rendered[XVK_MAX_SWAP_IMAGES];    /* per image */
    bool stale;                                   /* re-create before the next acquire */
} xvk_swapchain;

bool xvk_can_present(const xvk_renderer *r)
{
#if defined(XGD_HAVE_X11) || defined(XGD_HAVE_SDL2)
    return r->has_swapchain && r->has_surface;
#else
    (void)r;
    return false;
#endif
}

static void destroy_chain(xvk_renderer *r, xvk_swapchain *sc)
{
    for (int i = 0; i < XVK_FRAMES; i++)
        if (sc->acquired[i] != VK_NULL_HANDLE) vkDestroySemaphore(r->dev, sc->acquired[i], NULL);
    for (uint32_t i = 0; i < XVK_MAX_SWAP_IMAGES; i++)
        if (sc->rendered[i] != VK_NULL_HANDLE) vkDestroySemaphore(r->dev, sc->rendered[i], NULL);
    memset(sc->acquired, 0, sizeof sc->acquired);
    memset(sc->rendered, 0, sizeof sc->rendered);
    if (sc->chain != VK_NULL_HANDLE) {
        PFN_vkDestroySwapchainKHR destroy =
            (PFN_vkDestroySwapchainKHR)vkGetDeviceProcAddr(r->dev, "vkDestroySwapchainKHR");
        if (destroy != NULL) destroy(r->dev, sc->chain, NULL);
    }
    sc->chain = VK_NULL_HANDLE;
    sc->image_count = 0;
}

/* Everything of the swap chain and its surface, after the device is idle (or the frames that
 * used them completed). The window system is fenced: the window may be gone already. */
static void destroy_all(xvk_renderer *r)
{
    xvk_swapchain *sc = r->swapchain;
    if (sc == NULL) return;
    xgdi_window_trap_begin(sc->window);
    destroy_chain(r, sc);
    if (sc->surface != VK_NULL_HANDLE) {
        PFN_vkDestroySurfaceKHR destroy =
            (PFN_vkDestroySurfaceKHR)vkGetInstanceProcAddr(r->instance, "vkDestroySurfaceKHR");
        if (destroy != NULL) destroy(r->instance, sc->surface, NULL);
    }
    xgdi_window_trap_end(sc->window);
    free(sc);
    r->swapchain = NULL;
}

void xvk_swapchain_destroy(xvk_renderer *r)
{
    destroy_all(r);
}

static xgd_result idle(xvk_renderer *r)
{
    return xgdi_vulkan_renderer_ops.wait_fence(&r->base, r->base.submitted_fence);
}

void xvk_swapchain_follow_window(xvk_renderer *r)
{
    if (r->swapchain == NULL || r->swapchain->window == r->base.window) return;
    /* the frames that showed into its images must be done with them; a device that cannot
       wait is lost, and its teardown waits for idle anyway */
    (void)idle(r);
    destroy_all(r);
}

static xgd_result surface_supported(xvk_renderer *r, xvk_swapchain *sc)
{
    VkBool32 ok = VK_FALSE;
    VkResult vr = vkGetPhysicalDeviceSurfaceSupportKHR(r->phys, r->queue_family, sc->surface, &ok);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkGetPhysicalDeviceSurfaceSupportKHR");
    if (!ok)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: %s's queue cannot present to this window", r->adapter_name);
    return XGD_OK;
}

static xgd_result make_surface(xvk_renderer *r, xvk_swapchain *sc)
{
    /* An SDL window made for Vulkan gets its surface from SDL, whatever SDL's video driver
       (Wayland included); the instance enables the platform extensions SDL asks for. */
    if (xgdi_window_sdl_vulkan(sc->window)) {
        const char *exts[XVK_SURFACE_EXTS];
        uint32_t n = xvk_surface_extensions(exts);
        xgd_result res = xgdi_window_sdl_vulkan_surface(r->base.device, sc->window, r->instance,
                                                        exts, n, &sc->surface);
        return res == XGD_OK ? surface_supported(r, sc) : res;
    }
#ifdef XGD_HAVE_X11
    void *dpy = NULL;
    unsigned long win = 0;
    if (!xgdi_window_x11_handles(sc->window, &dpy, &win))
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: the window is not an X11 window (an SDL2 window on another SDL "
                         "video driver, such as Wayland, must be created with SDL_WINDOW_VULKAN)");
    PFN_vkCreateXlibSurfaceKHR create =
        (PFN_vkCreateXlibSurfaceKHR)vkGetInstanceProcAddr(r->instance, "vkCreateXlibSurfaceKHR");
    if (create == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: vkCreateXlibSurfaceKHR is missing");
    VkXlibSurfaceCreateInfoKHR ci = { .sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
                                      .dpy = (Display *)dpy, .window = (Window)win };
    VkResult vr = create(r->instance, &ci, NULL, &sc->surface);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateXlibSurfaceKHR");
    return surface_supported(r, sc);
#else
    (void)sc;
    return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                     "vulkan: no window system compiled in for surfaces");
#endif
}

static VkPresentModeKHR pick_mode(xvk_renderer *r, VkSurfaceKHR surface, int swap_interval)
{
    if (swap_interval != 0) return VK_PRESENT_MODE_FIFO_KHR; /* always available */
    VkPresentModeKHR modes[16];
    uint32_t n = 16;
    VkResult vr = vkGetPhysicalDeviceSurfacePresentModesKHR(r->phys, surface, &n, modes);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return VK_PRESENT_MODE_FIFO_KHR;
    bool mailbox = false;
    for (uint32_t i = 0; i < n; i++) {
        if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR) return VK_PRESENT_MODE_IMMEDIATE_KHR;
        if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR) mailbox = true;
    }
    return mailbox ? VK_PRESENT_MODE_MAILBOX_KHR : VK_PRESENT_MODE_FIFO_KHR;
}

static xgd_result make_chain(xvk_renderer *r, xvk_swapchain *sc, int swap_interval)
{
    VkSurfaceCapabilitiesKHR caps;
    VkResult vr = vkGetPhysicalDeviceSurfaceCapabilitiesKHR(r->phys, sc->surface, &caps);
    if (vr == VK_ERROR_SURFACE_LOST_KHR) {
        return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                         "vulkan: the window is gone (VK_ERROR_SURFACE_LOST_KHR); reset the "
                         "device onto another window");
    }
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: the window's swap-chain images cannot be copied into");
    VkSurfaceFormatKHR formats[32];
    uint32_t nf = 32;
    vr = vkGetPhysicalDeviceSurfaceFormatsKHR(r->phys, sc->surface, &nf, formats);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return xvk_check(r, vr, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    /* UNORM: the back buffer's bytes are shown as they are, as on the other renderers */
    VkSurfaceFormatKHR pick = { VK_FORMAT_UNDEFINED, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR };
    for (uint32_t i = 0; i < nf && pick.format == VK_FORMAT_UNDEFINED; i++)
        if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM || formats[i].format == VK_FORMAT_R8G8B8A8_UNORM)
            pick = formats[i];
    if (pick.format == VK_FORMAT_UNDEFINED)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: the window offers no 8-bit UNORM RGBA or BGRA format");
    VkExtent2D ext = caps.currentExtent;
    if (ext.width == 0xFFFFFFFFu) {
        ext.width = (uint32_t)r->back_buffer->desc.width;
        ext.height = (uint32_t)r->back_buffer->desc.height;
    }
    if (ext.width == 0 || ext.height == 0) {
        /* a minimised window: nothing can be shown; the frame is still submitted */
        sc->stale = true;
        return XGD_OK;
    }
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount != 0 && count > caps.maxImageCount) count = caps.maxImageCount;
    if (count > XVK_MAX_SWAP_IMAGES) count = XVK_MAX_SWAP_IMAGES;
    sc->mode = pick_mode(r, sc->surface, swap_interval);
    VkSwapchainKHR old = sc->chain;
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR, .surface = sc->surface,
        .minImageCount = count < caps.minImageCount ? caps.minImageCount : count,
        .imageFormat = pick.format, .imageColorSpace = pick.colorSpace, .imageExtent = ext,
        .imageArrayLayers = 1, .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE, .preTransform = caps.currentTransform,
        .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, .presentMode = sc->mode,
        .clipped = VK_TRUE, .oldSwapchain = old };
    if (!(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR))
        ci.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    PFN_vkCreateSwapchainKHR create =
        (PFN_vkCreateSwapchainKHR)vkGetDeviceProcAddr(r->dev, "vkCreateSwapchainKHR");
    PFN_vkGetSwapchainImagesKHR images =
        (PFN_vkGetSwapchainImagesKHR)vkGetDeviceProcAddr(r->dev, "vkGetSwapchainImagesKHR");
    if (create == NULL || images == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED, "vulkan: VK_KHR_swapchain functions missing");
    VkSwapchainKHR chain = VK_NULL_HANDLE;
    vr = create(r->dev, &ci, NULL, &chain);
    /* the old chain is retired either way (the device is idle: nothing uses its images) */
    sc->chain = old;
    destroy_chain(r, sc);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateSwapchainKHR");
    sc->chain = chain;
    sc->format = pick.format;
    sc->extent = ext;
    uint32_t n = XVK_MAX_SWAP_IMAGES;
    vr = images(r->dev, chain, &n, sc->images);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return xvk_check(r, vr, "vkGetSwapchainImagesKHR");
    sc->image_count = n;
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    for (int i = 0; i < XVK_FRAMES; i++) {
        vr = vkCreateSemaphore(r->dev, &si, NULL, &sc->acquired[i]);
        if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateSemaphore");
    }
    for (uint32_t i = 0; i < n; i++) {
        vr = vkCreateSemaphore(r->dev, &si, NULL, &sc->rendered[i]);
        if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateSemaphore");
    }
    sc->stale = false;
    return XGD_OK;
}

/* A swap chain for the current window, size and mode (re-created when any changed). */
static xgd_result ensure(xvk_renderer *r, int swap_interval)
{
    xgd_result res;
    xvk_swapchain_follow_window(r);
    if (r->swapchain == NULL) {
        xvk_swapchain *sc = calloc(1, sizeof *sc);
        if (sc == NULL) return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        sc->window = r->base.window;
        r->swapchain = sc;
        xgdi_window_trap_begin(sc->window);
        res = make_surface(r, sc);
        int err = xgdi_window_trap_end(sc->window);
        if (res == XGD_OK && err != 0)
            res = xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                            "vulkan: X error %d creating the window's surface", err);
        if (res != XGD_OK) {
            destroy_all(r);
            return res;
        }
        sc->stale = true;
    }
    xvk_swapchain *sc = r->swapchain;
    int w = r->back_buffer->desc.width, h = r->back_buffer->desc.height;
    bool want_mode = sc->chain == VK_NULL_HANDLE ||
                     sc->mode != pick_mode(r, sc->surface, swap_interval);
    if (sc->stale || want_mode || sc->extent.width != (uint32_t)w || sc->extent.height != (uint32_t)h) {
        res = idle(r);
        if (res != XGD_OK) return res;
        xgdi_window_trap_begin(sc->window);
        res = make_chain(r, sc, swap_interval);
        int err = xgdi_window_trap_end(sc->window);
        if (res == XGD_OK && err != 0)
            res = xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                            "vulkan: X error %d creating the swap chain", err);
        if (res != XGD_OK) return res;
    }
    return XGD_OK;
}

static xgd_result window_gone(xvk_renderer *r, const char *what)
{
    return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                     "vulkan: %s: the window is gone (VK_ERROR_SURFACE_LOST_KHR); reset the "
                     "device onto another window", what);
}

xgd_result xvk_present_window(xvk_renderer *r, int swap_interval,
                              xgd_result (*submit)(xgdi_renderer *base))
{
    /* The window is asked first (its drawable size, fenced against X errors): a destroyed
     * window must give a named error before the WSI is asked to wait on it. */
    int ww = 0, wh = 0;
    xgd_result res = xgdi_window_drawable_size(r->base.device, r->base.window, &ww, &wh);
    if (res == XGD_OK) res = ensure(r, swap_interval);
    if (res != XGD_OK || r->swapchain->chain == VK_NULL_HANDLE) {
        /* nothing can be shown: the frame is still submitted, as headless */
        xgd_result sub = submit(&r->base);
        return res != XGD_OK ? res : sub;
    }
    xvk_swapchain *sc = r->swapchain;
    PFN_vkAcquireNextImageKHR acquire =
        (PFN_vkAcquireNextImageKHR)vkGetDeviceProcAddr(r->dev, "vkAcquireNextImageKHR");
    PFN_vkQueuePresentKHR present =
        (PFN_vkQueuePresentKHR)vkGetDeviceProcAddr(r->dev, "vkQueuePresentKHR");
    VkSemaphore acquired = sc->acquired[r->frame_index];
    uint32_t index = 0;
    xgdi_window_trap_begin(sc->window);
    VkResult vr = acquire(r->dev, sc->chain, XVK_ACQUIRE_TIMEOUT_NS, acquired, VK_NULL_HANDLE, &index);
    int err = xgdi_window_trap_end(sc->window);
    if (vr == VK_ERROR_OUT_OF_DATE_KHR || err != 0 || vr == VK_ERROR_SURFACE_LOST_KHR ||
        vr == VK_TIMEOUT || vr == VK_NOT_READY || (vr != VK_SUCCESS && vr != VK_SUBOPTIMAL_KHR)) {
        /* no image: submit the frame without showing it; re-create at the next present */
        sc->stale = true;
        xgd_result sub = submit(&r->base);
        if (vr == VK_ERROR_SURFACE_LOST_KHR || err != 0) return window_gone(r, "vkAcquireNextImageKHR");
        if (vr == VK_ERROR_OUT_OF_DATE_KHR) return sub; /* the window changed: shown next time */
        return vr == VK_TIMEOUT || vr == VK_NOT_READY
                   ? xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                               "vulkan: vkAcquireNextImageKHR: no image within %llu ms",
                               (unsigned long long)(XVK_ACQUIRE_TIMEOUT_NS / 1000000))
                   : xvk_check(r, vr, "vkAcquireNextImageKHR");
    }
    if (vr == VK_SUBOPTIMAL_KHR) sc->stale = true;

    /* Copy the back buffer (kept in GENERAL) into the image: a blit, which converts RGBA to a
     * BGRA swap chain; the region is the part both share (they differ only for the one frame
     * after a resize the device has not followed yet). */
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) {
        sc->stale = true; /* the acquire's semaphore stays signalled: new ones next time */
        return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    }
    xvk_end_rendering(r);
    r->hazard = true;
    xvk_barrier(r, cmd);
    VkImageMemoryBarrier to_dst = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = 0,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = sc->images[index],
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0,
                         0, NULL, 0, NULL, 1, &to_dst);
    int32_t cw = (int32_t)sc->extent.width, ch = (int32_t)sc->extent.height;
    if (cw > r->back_buffer->desc.width) cw = r->back_buffer->desc.width;
    if (ch > r->back_buffer->desc.height) ch = r->back_buffer->desc.height;
    VkImageBlit blit = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .srcOffsets = { { 0, 0, 0 }, { cw, ch, 1 } },
                         .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .dstOffsets = { { 0, 0, 0 }, { cw, ch, 1 } } };
    vkCmdBlitImage(cmd, r->back_buffer->image, VK_IMAGE_LAYOUT_GENERAL, sc->images[index],
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    VkImageMemoryBarrier to_present = to_dst;
    to_present.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_present.dstAccessMask = 0;
    to_present.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_present.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                         0, 0, NULL, 0, NULL, 1, &to_present);
    r->hazard = true;

    r->submit_wait = acquired;
    r->submit_signal = sc->rendered[index];
    res = submit(&r->base);
    if (res != XGD_OK) {
        sc->stale = true;
        return res;
    }
    VkPresentInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
                            .waitSemaphoreCount = 1, .pWaitSemaphores = &sc->rendered[index],
                            .swapchainCount = 1, .pSwapchains = &sc->chain, .pImageIndices = &index };
    xgdi_window_trap_begin(sc->window);
    vr = present(r->queue, &pi);
    err = xgdi_window_trap_end(sc->window);
    if (vr == VK_ERROR_SURFACE_LOST_KHR || err != 0) {
        sc->stale = true;
        return window_gone(r, "vkQueuePresentKHR");
    }
    if (vr == VK_ERROR_OUT_OF_DATE_KHR || vr == VK_SUBOPTIMAL_KHR) {
        sc->stale = true;
        return XGD_OK;
    }
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkQueuePresentKHR");
    return XGD_OK;
}
