/*
 * d3d12_window.c - windowed presentation of the Direct3D 12 renderer on Linux, through vkd3d's
 * Vulkan interop: an Xlib VkSurfaceKHR on vkd3d's VkInstance (X11 windows, and SDL2 windows on
 * SDL's X11 driver), a swap chain on vkd3d's VkDevice, and per Present:
 *   1. in the frame's D3D12 list, the back buffer is copied into a bridge image: a VkImage this
 *      file owns, wrapped as a D3D12 resource (vkd3d_create_image_resource) of the back
 *      buffer's own format, so the copy is a plain same-format CopyTextureRegion;
 *   2. the frame is submitted as headless;
 *   3. an image is acquired, and on vkd3d's queue (vkd3d_acquire_vk_queue) a Vulkan command
 *      buffer blits the bridge into it (a blit converts the RGBA back buffer to the BGRA images
 *      an X11 surface may only offer; a copy would not) and the image is presented.
 * The queue is one VkQueue: the blit's submission follows the D3D12 frame's in queue order, and
 * its barriers order it against the frame (and the next frame's copy against the blit). The
 * swap chain follows the window's size and the present mode; OUT_OF_DATE/SUBOPTIMAL re-create
 * it; a lost window is DEVICE_LOST by name (every wait is bounded). Windows builds present
 * through DXGI instead (d3d12_dxgi.c); this file is empty there.
 */
#include "d3d12_internal.h"
#include "../../platform/window.h"

#if !defined(_WIN32) && defined(XGD_HAVE_X11)

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include <X11/Xlib.h>
#include <vulkan/vulkan_xlib.h>

#define D3D12W_MAX_IMAGES 8
#define D3D12W_TIMEOUT_NS 5000000000ull /* a bounded wait: a stuck WSI is an error, not a hang */

typedef struct d3d12w_vk {
    void *lib;
    VkInstance inst;
    VkPhysicalDevice phys;
    VkDevice dev;
    PFN_vkGetInstanceProcAddr gipa;
    PFN_vkGetDeviceProcAddr gdpa;
#define D3D12W_FN(name) PFN_##name name;
#define D3D12W_FUNCS(X)                                                                        \
    X(vkCreateXlibSurfaceKHR) X(vkDestroySurfaceKHR) X(vkGetPhysicalDeviceSurfaceSupportKHR)   \
    X(vkGetPhysicalDeviceSurfaceCapabilitiesKHR) X(vkGetPhysicalDeviceSurfaceFormatsKHR)       \
    X(vkGetPhysicalDeviceSurfacePresentModesKHR) X(vkGetPhysicalDeviceMemoryProperties)
#define D3D12W_DFUNCS(X)                                                                       \
    X(vkCreateSwapchainKHR) X(vkDestroySwapchainKHR) X(vkGetSwapchainImagesKHR)                \
    X(vkAcquireNextImageKHR) X(vkQueuePresentKHR) X(vkCreateSemaphore) X(vkDestroySemaphore)   \
    X(vkCreateFence) X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences)                     \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkAllocateCommandBuffers)                 \
    X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkResetCommandBuffer)                      \
    X(vkCmdPipelineBarrier) X(vkCmdBlitImage) X(vkQueueSubmit) X(vkCreateImage)                \
    X(vkDestroyImage) X(vkGetImageMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory)      \
    X(vkBindImageMemory) X(vkQueueWaitIdle)
    D3D12W_FUNCS(D3D12W_FN)
    D3D12W_DFUNCS(D3D12W_FN)
} d3d12w_vk;

struct d3d12_present {
    d3d12w_vk vk;
    xgdi_window *window;
    VkSurfaceKHR surface;
    VkSwapchainKHR chain;
    VkExtent2D extent;
    VkPresentModeKHR mode;
    uint32_t image_count;
    VkImage images[D3D12W_MAX_IMAGES];
    VkSemaphore rendered[D3D12W_MAX_IMAGES];   /* per image */
    VkSemaphore acquired[D3D12X_FRAMES];       /* per frame slot */
    VkFence done[D3D12X_FRAMES];               /* the slot's blit completed */
    bool pending[D3D12X_FRAMES];               /* done[] will be signalled */
    VkCommandPool pool;
    VkCommandBuffer cmd[D3D12X_FRAMES];
    uint32_t queue_family;
    int next;                                  /* the slot of the next present */
    bool stale;
    /* the bridge: the back buffer's copy the blit reads */
    VkImage bridge_image;
    VkDeviceMemory bridge_memory;
    ID3D12Resource *bridge;
    D3D12_RESOURCE_STATES bridge_state;
    int bridge_w, bridge_h;
    DXGI_FORMAT bridge_format;
};

static bool load_vk(d3d12_renderer *r, d3d12w_vk *vk)
{
    memset(vk, 0, sizeof *vk);
    vk->phys = vkd3d_get_vk_physical_device(r->dev);
    vk->dev = vkd3d_get_vk_device(r->dev);
    vk->inst = vkd3d_instance_get_vk_instance(vkd3d_instance_from_device(r->dev));
    if (vk->phys == VK_NULL_HANDLE || vk->dev == VK_NULL_HANDLE || vk->inst == VK_NULL_HANDLE)
        return false;
    vk->lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (vk->lib == NULL) return false;
    void *sym = dlsym(vk->lib, "vkGetInstanceProcAddr");
    /* ISO C has no object-to-function pointer conversion; POSIX guarantees the bits agree */
    if (sym != NULL) memcpy(&vk->gipa, &sym, sizeof vk->gipa);
    if (vk->gipa == NULL) return false;
    vk->gdpa = (PFN_vkGetDeviceProcAddr)vk->gipa(vk->inst, "vkGetDeviceProcAddr");
    if (vk->gdpa == NULL) return false;
    bool ok = true;
#define D3D12W_LOAD(name) ok = ok && (vk->name = (PFN_##name)vk->gipa(vk->inst, #name)) != NULL;
#define D3D12W_DLOAD(name) ok = ok && (vk->name = (PFN_##name)vk->gdpa(vk->dev, #name)) != NULL;
    D3D12W_FUNCS(D3D12W_LOAD)
    D3D12W_DFUNCS(D3D12W_DLOAD)
    return ok;
}

static void unload_vk(d3d12w_vk *vk)
{
    if (vk->lib != NULL) dlclose(vk->lib);
    vk->lib = NULL;
}

bool xgdi_d3d12_can_present(d3d12_renderer *r)
{
    /* the surface extension is optional on the shared instance (its driver may lack it): a
       device whose instance has no vkCreateXlibSurfaceKHR, or whose device lacks the swap
       chain, cannot present */
    d3d12w_vk vk;
    bool ok = load_vk(r, &vk);
    if (ok) {
        PFN_vkEnumerateInstanceExtensionProperties en =
            (PFN_vkEnumerateInstanceExtensionProperties)vk.gipa(NULL,
                                                                "vkEnumerateInstanceExtensionProperties");
        VkExtensionProperties props[64];
        uint32_t n = 64;
        bool xlib = false;
        if (en != NULL && en(NULL, &n, props) >= 0)
            for (uint32_t i = 0; i < n; i++)
                if (strcmp(props[i].extensionName, VK_KHR_XLIB_SURFACE_EXTENSION_NAME) == 0) xlib = true;
        ok = xlib;
    }
    unload_vk(&vk);
    return ok;
}

static xgd_result vkfail(d3d12_renderer *r, VkResult vr, const char *what)
{
    if (vr == VK_ERROR_DEVICE_LOST) {
        r->lost = true;
        return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST, "d3d12: %s: VK_ERROR_DEVICE_LOST", what);
    }
    if (vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: %s: out of memory (%d)", what, (int)vr);
    return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION, "d3d12: %s failed (VkResult %d)", what, (int)vr);
}

static xgd_result window_gone(d3d12_renderer *r, const char *what)
{
    return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                     "d3d12: %s: the window is gone; reset the device onto another window", what);
}

/* Waits for every frame and blit that may use the swap chain or the bridge. */
static xgd_result idle(d3d12_renderer *r, struct d3d12_present *p)
{
    xgd_result res = xgdi_d3d12_wait(r, r->base.submitted_fence);
    for (int i = 0; i < D3D12X_FRAMES; i++) {
        if (!p->pending[i]) continue;
        VkResult vr = p->vk.vkWaitForFences(p->vk.dev, 1, &p->done[i], VK_TRUE, D3D12W_TIMEOUT_NS);
        p->pending[i] = false;
        if (vr != VK_SUCCESS && res == XGD_OK) res = vkfail(r, vr, "vkWaitForFences(present)");
    }
    return res;
}

static void destroy_chain(struct d3d12_present *p)
{
    d3d12w_vk *vk = &p->vk;
    for (uint32_t i = 0; i < D3D12W_MAX_IMAGES; i++)
        if (p->rendered[i] != VK_NULL_HANDLE) vk->vkDestroySemaphore(vk->dev, p->rendered[i], NULL);
    for (int i = 0; i < D3D12X_FRAMES; i++)
        if (p->acquired[i] != VK_NULL_HANDLE) vk->vkDestroySemaphore(vk->dev, p->acquired[i], NULL);
    memset(p->rendered, 0, sizeof p->rendered);
    memset(p->acquired, 0, sizeof p->acquired);
    if (p->chain != VK_NULL_HANDLE) vk->vkDestroySwapchainKHR(vk->dev, p->chain, NULL);
    p->chain = VK_NULL_HANDLE;
    p->image_count = 0;
}

static void destroy_bridge(struct d3d12_present *p)
{
    d3d12w_vk *vk = &p->vk;
    if (p->bridge != NULL) ID3D12Resource_Release(p->bridge); /* the VkImage stays ours */
    if (p->bridge_image != VK_NULL_HANDLE) vk->vkDestroyImage(vk->dev, p->bridge_image, NULL);
    if (p->bridge_memory != VK_NULL_HANDLE) vk->vkFreeMemory(vk->dev, p->bridge_memory, NULL);
    p->bridge = NULL;
    p->bridge_image = VK_NULL_HANDLE;
    p->bridge_memory = VK_NULL_HANDLE;
    p->bridge_w = p->bridge_h = 0;
}

/* After idle: everything, the window system fenced (the window may be gone already). */
static void destroy_all(d3d12_renderer *r)
{
    struct d3d12_present *p = r->present;
    if (p == NULL) return;
    d3d12w_vk *vk = &p->vk;
    xgdi_window_trap_begin(p->window);
    destroy_chain(p);
    if (p->surface != VK_NULL_HANDLE) vk->vkDestroySurfaceKHR(vk->inst, p->surface, NULL);
    xgdi_window_trap_end(p->window);
    destroy_bridge(p);
    for (int i = 0; i < D3D12X_FRAMES; i++)
        if (p->done[i] != VK_NULL_HANDLE) vk->vkDestroyFence(vk->dev, p->done[i], NULL);
    if (p->pool != VK_NULL_HANDLE) vk->vkDestroyCommandPool(vk->dev, p->pool, NULL);
    unload_vk(vk);
    free(p);
    r->present = NULL;
}

void xgdi_d3d12_present_destroy(d3d12_renderer *r)
{
    if (r->present == NULL) return;
    (void)idle(r, r->present); /* a lost device returns at once; the teardown goes on */
    destroy_all(r);
}

void xgdi_d3d12_present_follow_window(d3d12_renderer *r)
{
    if (r->present == NULL || r->present->window == r->base.window) return;
    xgdi_d3d12_present_destroy(r);
}

static xgd_result create(d3d12_renderer *r)
{
    struct d3d12_present *p = calloc(1, sizeof *p);
    if (p == NULL) return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    r->present = p;
    p->window = r->base.window;
    if (!load_vk(r, &p->vk)) {
        destroy_all(r);
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: vkd3d's Vulkan device has no Xlib surface or swap-chain functions");
    }
    d3d12w_vk *vk = &p->vk;
    p->queue_family = vkd3d_get_vk_queue_family_index(r->queue);
    void *dpy = NULL;
    unsigned long win = 0;
    if (!xgdi_window_x11_handles(p->window, &dpy, &win)) {
        destroy_all(r);
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the window is not an X11 window (an SDL2 window must use SDL's "
                         "X11 video driver)");
    }
    VkXlibSurfaceCreateInfoKHR si = { .sType = VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR,
                                      .dpy = (Display *)dpy, .window = (Window)win };
    xgdi_window_trap_begin(p->window);
    VkResult vr = vk->vkCreateXlibSurfaceKHR(vk->inst, &si, NULL, &p->surface);
    VkBool32 ok = VK_FALSE;
    if (vr == VK_SUCCESS)
        vr = vk->vkGetPhysicalDeviceSurfaceSupportKHR(vk->phys, p->queue_family, p->surface, &ok);
    int err = xgdi_window_trap_end(p->window);
    xgd_result res = XGD_OK;
    if (err != 0) res = window_gone(r, "vkCreateXlibSurfaceKHR");
    else if (vr != VK_SUCCESS) res = vkfail(r, vr, "vkCreateXlibSurfaceKHR");
    else if (!ok)
        res = xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                        "d3d12: vkd3d's queue cannot present to this window");
    if (res == XGD_OK) {
        VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                       .queueFamilyIndex = p->queue_family };
        vr = vk->vkCreateCommandPool(vk->dev, &pi, NULL, &p->pool);
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = p->pool,
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = D3D12X_FRAMES };
        if (vr == VK_SUCCESS) vr = vk->vkAllocateCommandBuffers(vk->dev, &ai, p->cmd);
        VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
        for (int i = 0; i < D3D12X_FRAMES && vr == VK_SUCCESS; i++)
            vr = vk->vkCreateFence(vk->dev, &fi, NULL, &p->done[i]);
        if (vr != VK_SUCCESS) res = vkfail(r, vr, "present command buffers");
    }
    if (res != XGD_OK) {
        destroy_all(r);
        return res;
    }
    p->stale = true;
    return XGD_OK;
}

static VkPresentModeKHR pick_mode(struct d3d12_present *p, int swap_interval)
{
    if (swap_interval != 0) return VK_PRESENT_MODE_FIFO_KHR; /* always available */
    VkPresentModeKHR modes[16];
    uint32_t n = 16;
    VkResult vr = p->vk.vkGetPhysicalDeviceSurfacePresentModesKHR(p->vk.phys, p->surface, &n, modes);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return VK_PRESENT_MODE_FIFO_KHR;
    bool mailbox = false;
    for (uint32_t i = 0; i < n; i++) {
        if (modes[i] == VK_PRESENT_MODE_IMMEDIATE_KHR) return VK_PRESENT_MODE_IMMEDIATE_KHR;
        if (modes[i] == VK_PRESENT_MODE_MAILBOX_KHR) mailbox = true;
    }
    return mailbox ? VK_PRESENT_MODE_MAILBOX_KHR : VK_PRESENT_MODE_FIFO_KHR;
}

static xgd_result make_chain(d3d12_renderer *r, struct d3d12_present *p, int swap_interval)
{
    d3d12w_vk *vk = &p->vk;
    VkSurfaceCapabilitiesKHR caps;
    VkResult vr = vk->vkGetPhysicalDeviceSurfaceCapabilitiesKHR(vk->phys, p->surface, &caps);
    if (vr == VK_ERROR_SURFACE_LOST_KHR) return window_gone(r, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (vr != VK_SUCCESS) return vkfail(r, vr, "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT))
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the window's swap-chain images cannot be blitted into");
    VkSurfaceFormatKHR formats[32];
    uint32_t nf = 32;
    vr = vk->vkGetPhysicalDeviceSurfaceFormatsKHR(vk->phys, p->surface, &nf, formats);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return vkfail(r, vr, "vkGetPhysicalDeviceSurfaceFormatsKHR");
    /* UNORM: the back buffer's bytes are shown as they are, as on the other renderers */
    VkSurfaceFormatKHR pick = { VK_FORMAT_UNDEFINED, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR };
    for (uint32_t i = 0; i < nf && pick.format == VK_FORMAT_UNDEFINED; i++)
        if (formats[i].format == VK_FORMAT_B8G8R8A8_UNORM || formats[i].format == VK_FORMAT_R8G8B8A8_UNORM)
            pick = formats[i];
    if (pick.format == VK_FORMAT_UNDEFINED)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the window offers no 8-bit UNORM RGBA or BGRA format");
    VkExtent2D ext = caps.currentExtent;
    if (ext.width == 0xFFFFFFFFu) {
        ext.width = (uint32_t)r->back_buffer->desc.width;
        ext.height = (uint32_t)r->back_buffer->desc.height;
    }
    destroy_chain(p); /* idle: nothing uses the old images */
    if (ext.width == 0 || ext.height == 0) {
        /* a minimised window: nothing can be shown; the frame is still submitted */
        p->stale = true;
        return XGD_OK;
    }
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount != 0 && count > caps.maxImageCount) count = caps.maxImageCount;
    if (count > D3D12W_MAX_IMAGES) count = D3D12W_MAX_IMAGES;
    p->mode = pick_mode(p, swap_interval);
    VkSwapchainCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR, .surface = p->surface,
        .minImageCount = count < caps.minImageCount ? caps.minImageCount : count,
        .imageFormat = pick.format, .imageColorSpace = pick.colorSpace, .imageExtent = ext,
        .imageArrayLayers = 1, .imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE, .preTransform = caps.currentTransform,
        .compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, .presentMode = p->mode,
        .clipped = VK_TRUE };
    if (!(caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR))
        ci.compositeAlpha = VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR;
    vr = vk->vkCreateSwapchainKHR(vk->dev, &ci, NULL, &p->chain);
    if (vr == VK_ERROR_SURFACE_LOST_KHR) return window_gone(r, "vkCreateSwapchainKHR");
    if (vr != VK_SUCCESS) return vkfail(r, vr, "vkCreateSwapchainKHR");
    p->extent = ext;
    uint32_t n = D3D12W_MAX_IMAGES;
    vr = vk->vkGetSwapchainImagesKHR(vk->dev, p->chain, &n, p->images);
    if (vr != VK_SUCCESS && vr != VK_INCOMPLETE) return vkfail(r, vr, "vkGetSwapchainImagesKHR");
    p->image_count = n;
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO };
    for (int i = 0; i < D3D12X_FRAMES; i++)
        if ((vr = vk->vkCreateSemaphore(vk->dev, &si, NULL, &p->acquired[i])) != VK_SUCCESS)
            return vkfail(r, vr, "vkCreateSemaphore");
    for (uint32_t i = 0; i < n; i++)
        if ((vr = vk->vkCreateSemaphore(vk->dev, &si, NULL, &p->rendered[i])) != VK_SUCCESS)
            return vkfail(r, vr, "vkCreateSemaphore");
    p->stale = false;
    return XGD_OK;
}

/* The bridge: a VkImage of the back buffer's size and format, wrapped for vkd3d. */
static xgd_result make_bridge(d3d12_renderer *r, struct d3d12_present *p)
{
    d3d12w_vk *vk = &p->vk;
    xgdi_native_texture *bb = r->back_buffer;
    destroy_bridge(p);
    VkFormat format = vkd3d_get_vk_format(bb->dxgi);
    if (format == VK_FORMAT_UNDEFINED)
        return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                         "d3d12: the back buffer's format has no Vulkan equivalent to present");
    VkImageCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
        .format = format, .extent = { (uint32_t)bb->desc.width, (uint32_t)bb->desc.height, 1 },
        .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
    VkResult vr = vk->vkCreateImage(vk->dev, &ci, NULL, &p->bridge_image);
    if (vr != VK_SUCCESS) return vkfail(r, vr, "vkCreateImage(bridge)");
    VkMemoryRequirements req;
    vk->vkGetImageMemoryRequirements(vk->dev, p->bridge_image, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vk->vkGetPhysicalDeviceMemoryProperties(vk->phys, &mp);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) &&
            (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
            type = i;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if (req.memoryTypeBits & (1u << i)) type = i;
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size, .memoryTypeIndex = type };
    vr = type == UINT32_MAX ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                            : vk->vkAllocateMemory(vk->dev, &ai, NULL, &p->bridge_memory);
    if (vr == VK_SUCCESS) vr = vk->vkBindImageMemory(vk->dev, p->bridge_image, p->bridge_memory, 0);
    if (vr != VK_SUCCESS) {
        destroy_bridge(p);
        return vkfail(r, vr, "bridge image memory");
    }
    struct vkd3d_image_resource_create_info ri = {
        .type = VKD3D_STRUCTURE_TYPE_IMAGE_RESOURCE_CREATE_INFO, .vk_image = p->bridge_image,
        .desc = { .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = (UINT64)bb->desc.width,
                  .Height = (UINT)bb->desc.height, .DepthOrArraySize = 1, .MipLevels = 1,
                  .Format = bb->dxgi, .SampleDesc = { 1, 0 },
                  .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN, .Flags = D3D12_RESOURCE_FLAG_NONE },
        /* vkd3d moves it out of UNDEFINED at its first use in a list */
        .flags = VKD3D_RESOURCE_INITIAL_STATE_TRANSITION, .present_state = D3D12_RESOURCE_STATE_COMMON };
    HRESULT hr = vkd3d_create_image_resource(r->dev, &ri, &p->bridge);
    if (FAILED(hr) || p->bridge == NULL) {
        p->bridge = NULL;
        destroy_bridge(p);
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                         "d3d12: vkd3d_create_image_resource(bridge) failed (0x%08lx)", (unsigned long)hr);
    }
    p->bridge_state = D3D12_RESOURCE_STATE_COMMON;
    p->bridge_w = bb->desc.width;
    p->bridge_h = bb->desc.height;
    p->bridge_format = bb->dxgi;
    return XGD_OK;
}

/* A swap chain for the current window, size and mode, and a bridge for the back buffer. */
static xgd_result ensure(d3d12_renderer *r, int swap_interval)
{
    xgd_result res;
    xgdi_d3d12_present_follow_window(r);
    if (r->present == NULL && (res = create(r)) != XGD_OK) return res;
    struct d3d12_present *p = r->present;
    xgdi_native_texture *bb = r->back_buffer;
    bool chain = p->stale || p->chain == VK_NULL_HANDLE || p->mode != pick_mode(p, swap_interval) ||
                 p->extent.width != (uint32_t)bb->desc.width || p->extent.height != (uint32_t)bb->desc.height;
    bool bridge = p->bridge == NULL || p->bridge_w != bb->desc.width ||
                  p->bridge_h != bb->desc.height || p->bridge_format != bb->dxgi;
    if (!chain && !bridge) return XGD_OK;
    if ((res = idle(r, p)) != XGD_OK) return res;
    if (bridge && (res = make_bridge(r, p)) != XGD_OK) return res;
    if (chain) {
        xgdi_window_trap_begin(p->window);
        res = make_chain(r, p, swap_interval);
        int err = xgdi_window_trap_end(p->window);
        if (res == XGD_OK && err != 0) res = window_gone(r, "vkCreateSwapchainKHR");
    }
    return res;
}

xgd_result xgdi_d3d12_present_window(d3d12_renderer *r, int swap_interval,
                                     xgd_result (*submit)(d3d12_renderer *r))
{
    /* The window is asked first (fenced against X errors): a destroyed window gives a named
       error before the WSI is asked to wait on it. */
    int ww = 0, wh = 0;
    xgd_result res = xgdi_window_drawable_size(r->base.device, r->base.window, &ww, &wh);
    if (res == XGD_OK) res = ensure(r, swap_interval);
    struct d3d12_present *p = r->present;
    if (res != XGD_OK || p == NULL || p->chain == VK_NULL_HANDLE) {
        /* nothing can be shown: the frame is still submitted, as headless */
        xgd_result sub = submit(r);
        return res != XGD_OK ? res : sub;
    }
    d3d12w_vk *vk = &p->vk;

    /* 1: the back buffer into the bridge, in the frame's own list */
    xgdi_native_texture *bb = r->back_buffer;
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    xgdi_d3d12_texture_transition(r, bb, 0, 0, D3D12_RESOURCE_STATE_COPY_SOURCE);
    xgdi_d3d12_transition(r, p->bridge, 0, &p->bridge_state, D3D12_RESOURCE_STATE_COPY_DEST);
    xgdi_d3d12_flush_barriers(r);
    D3D12_TEXTURE_COPY_LOCATION dst = { .pResource = p->bridge,
                                        .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
                                        .SubresourceIndex = 0 };
    D3D12_TEXTURE_COPY_LOCATION src = { .pResource = bb->res,
                                        .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
                                        .SubresourceIndex = 0 };
    ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
    /* COMMON is the GENERAL layout the blit reads from */
    xgdi_d3d12_transition(r, p->bridge, 0, &p->bridge_state, D3D12_RESOURCE_STATE_COMMON);

    /* 2: the frame */
    if ((res = submit(r)) != XGD_OK) return res;

    /* 3: acquire, blit, present */
    int slot = p->next;
    if (p->pending[slot]) {
        VkResult vr = vk->vkWaitForFences(vk->dev, 1, &p->done[slot], VK_TRUE, D3D12W_TIMEOUT_NS);
        if (vr != VK_SUCCESS) return vkfail(r, vr, "vkWaitForFences(present)");
        p->pending[slot] = false;
    }
    uint32_t index = 0;
    xgdi_window_trap_begin(p->window);
    VkResult vr = vk->vkAcquireNextImageKHR(vk->dev, p->chain, D3D12W_TIMEOUT_NS, p->acquired[slot],
                                            VK_NULL_HANDLE, &index);
    int err = xgdi_window_trap_end(p->window);
    if (vr != VK_SUCCESS && vr != VK_SUBOPTIMAL_KHR) {
        p->stale = true;
        if (vr == VK_ERROR_SURFACE_LOST_KHR || err != 0) return window_gone(r, "vkAcquireNextImageKHR");
        if (vr == VK_ERROR_OUT_OF_DATE_KHR) return XGD_OK; /* the window changed: shown next time */
        if (vr == VK_TIMEOUT || vr == VK_NOT_READY)
            return xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST,
                             "d3d12: vkAcquireNextImageKHR: no image within %llu ms",
                             (unsigned long long)(D3D12W_TIMEOUT_NS / 1000000));
        return vkfail(r, vr, "vkAcquireNextImageKHR");
    }
    if (vr == VK_SUBOPTIMAL_KHR || err != 0) p->stale = true;

    VkCommandBuffer cmd = p->cmd[slot];
    vk->vkResetCommandBuffer(cmd, 0);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    vk->vkBeginCommandBuffer(cmd, &bi);
    /* the frame's writes to the bridge (earlier on this queue) before the blit reads it */
    VkImageMemoryBarrier pre[2] = {
        { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT, .oldLayout = VK_IMAGE_LAYOUT_GENERAL,
          .newLayout = VK_IMAGE_LAYOUT_GENERAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
          .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = p->bridge_image,
          .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } },
        { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .srcAccessMask = 0,
          .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT, .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
          .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
          .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = p->images[index],
          .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } } };
    vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             0, 0, NULL, 0, NULL, 2, pre);
    int32_t cw = (int32_t)p->extent.width, ch = (int32_t)p->extent.height;
    if (cw > p->bridge_w) cw = p->bridge_w;
    if (ch > p->bridge_h) ch = p->bridge_h;
    VkImageBlit blit = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .srcOffsets = { { 0, 0, 0 }, { cw, ch, 1 } },
                         .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                         .dstOffsets = { { 0, 0, 0 }, { cw, ch, 1 } } };
    vk->vkCmdBlitImage(cmd, p->bridge_image, VK_IMAGE_LAYOUT_GENERAL, p->images[index],
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    /* the image to the presentation engine; the bridge's read before the next frame's copy */
    VkImageMemoryBarrier post[2] = { pre[1], pre[0] };
    post[0].srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    post[0].dstAccessMask = 0;
    post[0].oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    post[0].newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    post[1].srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    post[1].dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vk->vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                             0, 0, NULL, 0, NULL, 2, post);
    vr = vk->vkEndCommandBuffer(cmd);
    if (vr != VK_SUCCESS) {
        p->stale = true; /* the acquire's semaphore stays signalled: new ones next time */
        return vkfail(r, vr, "vkEndCommandBuffer(present)");
    }
    VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .waitSemaphoreCount = 1,
                        .pWaitSemaphores = &p->acquired[slot], .pWaitDstStageMask = &wait_stage,
                        .commandBufferCount = 1, .pCommandBuffers = &cmd,
                        .signalSemaphoreCount = 1, .pSignalSemaphores = &p->rendered[index] };
    VkPresentInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR, .waitSemaphoreCount = 1,
                            .pWaitSemaphores = &p->rendered[index], .swapchainCount = 1,
                            .pSwapchains = &p->chain, .pImageIndices = &index };
    vk->vkResetFences(vk->dev, 1, &p->done[slot]);
    VkQueue queue = vkd3d_acquire_vk_queue(r->queue);
    vr = vk->vkQueueSubmit(queue, 1, &si, p->done[slot]);
    VkResult pr = VK_SUCCESS;
    err = 0;
    if (vr == VK_SUCCESS) {
        p->pending[slot] = true;
        p->next = (slot + 1) % D3D12X_FRAMES;
        xgdi_window_trap_begin(p->window);
        pr = vk->vkQueuePresentKHR(queue, &pi);
        err = xgdi_window_trap_end(p->window);
    }
    vkd3d_release_vk_queue(r->queue);
    if (vr != VK_SUCCESS) {
        p->stale = true;
        return vkfail(r, vr, "vkQueueSubmit(present)");
    }
    if (pr == VK_ERROR_SURFACE_LOST_KHR || err != 0) {
        p->stale = true;
        return window_gone(r, "vkQueuePresentKHR");
    }
    if (pr == VK_ERROR_OUT_OF_DATE_KHR || pr == VK_SUBOPTIMAL_KHR) {
        p->stale = true;
        return XGD_OK;
    }
    if (pr != VK_SUCCESS) return vkfail(r, pr, "vkQueuePresentKHR");
    return XGD_OK;
}

#elif !defined(_WIN32) /* no X11: no windowed presentation (Windows: d3d12_dxgi.c) */

bool xgdi_d3d12_can_present(d3d12_renderer *r)
{
    (void)r;
    return false;
}

xgd_result xgdi_d3d12_present_window(d3d12_renderer *r, int swap_interval,
                                     xgd_result (*submit)(d3d12_renderer *r))
{
    (void)swap_interval;
    xgd_result res = submit(r);
    if (res != XGD_OK) return res;
    return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                     "d3d12: no window system to present to in this build");
}

void xgdi_d3d12_present_destroy(d3d12_renderer *r)
{
    (void)r;
}

void xgdi_d3d12_present_follow_window(d3d12_renderer *r)
{
    (void)r;
}

#endif
