/*
 * vk_device.c - the Vulkan renderer's shared instances, device, frames in flight, upload ring,
 * fences, caps, back buffer and ops table.
 */
#include "vk_internal.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const validation_layer = "VK_LAYER_KHRONOS_validation";

/* A submission that failed took the frame's recorded work with it (draws, uploads, query
   segments), so public state no longer matches the device: enter the lost state, from which
   xgd_device_restore_context rebuilds everything, rather than go on with missing work. */
static xgd_result xvk_submission_failed(xvk_renderer *r, VkResult vr, const char *what)
{
    if (vr == VK_SUCCESS) return XGD_OK;
    xgd_result res = xvk_check(r, vr, what);
    if (!r->lost) {
        r->lost = true;
        xvk_disarm_fast(r); /* xvk_user_draw_fast reads no other sign of it */
        char msg[160];
        snprintf(msg, sizeof msg, "vulkan: %s failed (VkResult %d): the frame's work is lost", what,
                 (int)vr);
        xgdi_device_lost(r->base.device, msg);
    }
    (void)res;
    return XGD_ERROR_DEVICE_LOST;
}

xgd_result xvk_check(xvk_renderer *r, VkResult vr, const char *what)
{
    if (vr == VK_SUCCESS) return XGD_OK;
    if (vr == VK_ERROR_DEVICE_LOST) {
        /* issue 4: native loss enters the device's lost state (same path as the simulated
           loss the conformance suite checks) */
        if (!r->lost) {
            r->lost = true;
            xvk_disarm_fast(r); /* xvk_user_draw_fast reads no other sign of it */
            char msg[160];
            snprintf(msg, sizeof msg, "vulkan: %s returned VK_ERROR_DEVICE_LOST", what);
            xgdi_device_lost(r->base.device, msg);
        }
        return XGD_ERROR_DEVICE_LOST;
    }
    if (vr == VK_ERROR_OUT_OF_HOST_MEMORY || vr == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: %s: out of memory (%d)",
                         what, (int)vr);
    return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION, "vulkan: %s failed (VkResult %d)",
                     what, (int)vr);
}

void xvk_set_name(xvk_renderer *r, VkObjectType type, uint64_t handle, const char *name)
{
    if (r->set_name == NULL || name == NULL || handle == 0) return;
    VkDebugUtilsObjectNameInfoEXT ni = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                         .objectType = type, .objectHandle = handle,
                                         .pObjectName = name };
    (void)r->set_name(r->dev, &ni);
}

/* Appends the name labels show for one bound target. */
static size_t append_target_name(char *out, size_t cap, size_t at, const xvk_renderer *r,
                                 const xgdi_target *tg)
{
    if (at >= cap) return at;
    const xgdi_native_texture *t = tg->texture;
    int n;
    if (t == r->back_buffer)
        n = snprintf(out + at, cap - at, "%sback buffer", at ? ", " : "");
    else if (t->label[0] != '\0')
        n = snprintf(out + at, cap - at, "%s%s", at ? ", " : "", t->label);
    else
        n = snprintf(out + at, cap - at, "%srender target %dx%d", at ? ", " : "", t->desc.width,
                     t->desc.height);
    if (n > 0 && t->faces > 1 && (size_t)n < cap - at) {
        at += (size_t)n;
        n = snprintf(out + at, cap - at, " face %d", tg->face);
    }
    return n > 0 ? at + (size_t)n : at;
}

void xvk_label_targets_now(xvk_renderer *r, VkCommandBuffer cmd)
{
    char text[256];
    size_t at = 0;
    text[0] = '\0';
    for (int i = 0; i < r->target_count; i++)
        at = append_target_name(text, sizeof text, at, r, &r->targets[i]);
    VkDebugUtilsLabelEXT l = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = text };
    r->cmd_begin_label(cmd, &l);
}

void xvk_label_insert_now(xvk_renderer *r, VkCommandBuffer cmd, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    VkDebugUtilsLabelEXT l = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = text };
    r->cmd_insert_label(cmd, &l);
}

/*
 * Validation messages. Each shared instance has one messenger, made with the instance and kept
 * for its life: vkCreate/DestroyDebugUtilsMessengerEXT must not run concurrently with any
 * command on the instance or its children, so a per-device messenger would race with every
 * other thread's device. The one callback sends each message to one device:
 *  1. the live validated device owning a device, queue or command buffer the message names
 *     (the registry below: devices join after vkCreateDevice and leave before any teardown,
 *     so a later device at a reused address is never taken for a destroyed one);
 *  2. else the device being created or destroyed on the calling thread (messages of its
 *     vkCreateDevice, vkDestroyDevice and instance calls name no live device);
 *  3. else, when the instance has exactly one live validated device, that one: the layer
 *     reports on the thread making the call, and a thread creating or destroying a device
 *     was caught by 2, so the call came from the only device (VUIDs naming only a buffer or
 *     an image);
 *  4. else no device: the message goes to stderr, once, so it is not lost.
 * The lock is taken only while the layer reports, never on the draw path.
 */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static xvk_renderer *registry; /* live validated devices of every instance */
static _Thread_local xvk_renderer *tls_current; /* created or destroyed on this thread */

void (*xvk_device_created_hook)(xvk_renderer *r);

static void registry_add(xvk_renderer *r)
{
    pthread_mutex_lock(&registry_lock);
    r->registry_next = registry;
    registry = r;
    r->registered = true;
    pthread_mutex_unlock(&registry_lock);
}

static void registry_remove(xvk_renderer *r)
{
    pthread_mutex_lock(&registry_lock);
    if (r->registered) {
        xvk_renderer **p = &registry;
        while (*p != NULL && *p != r) p = &(*p)->registry_next;
        if (*p == r) *p = r->registry_next;
        r->registered = false;
        r->registry_next = NULL;
    }
    pthread_mutex_unlock(&registry_lock);
}

/* Whether the object is r's device, queue or one of its command buffers. */
static bool owns_object(const xvk_renderer *r, const VkDebugUtilsObjectNameInfoEXT *o)
{
    uint64_t h = o->objectHandle;
    switch (o->objectType) {
    case VK_OBJECT_TYPE_DEVICE:
        return h == (uint64_t)(uintptr_t)r->dev;
    case VK_OBJECT_TYPE_QUEUE:
        return h == (uint64_t)(uintptr_t)r->queue;
    case VK_OBJECT_TYPE_COMMAND_BUFFER:
        for (int k = 0; k < XVK_FRAMES; k++)
            if (h == (uint64_t)(uintptr_t)r->frames[k].cmd) return true;
        return false;
    default:
        return false;
    }
}

static void report(xvk_renderer *r, const char *text)
{
    /* The harness counts these: a conformance run with validation fails on any of them. */
    xgdi_warn(r->base.device, "vulkan validation: %s", text);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                     void *user)
{
    (void)types;
    if (sev < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
    /* user: the instance's slot in the table below (still empty during vkCreateInstance) */
    VkInstance instance = user != NULL ? *(VkInstance *)user : VK_NULL_HANDLE;
    const char *text = data != NULL && data->pMessage != NULL ? data->pMessage : "(no message)";
    bool delivered = false;
    pthread_mutex_lock(&registry_lock);
    /* delivered under the lock, so the device cannot leave (and be freed) meanwhile */
    for (xvk_renderer *r = registry; r != NULL && !delivered; r = r->registry_next)
        for (uint32_t i = 0; data != NULL && data->pObjects != NULL && i < data->objectCount; i++) {
            if (owns_object(r, &data->pObjects[i])) {
                report(r, text);
                delivered = true;
                break;
            }
        }
    pthread_mutex_unlock(&registry_lock);
    if (delivered) return VK_FALSE;
    if (tls_current != NULL) {
        /* this thread's own device, alive for the whole call: no lock needed */
        report(tls_current, text);
        return VK_FALSE;
    }
    pthread_mutex_lock(&registry_lock);
    xvk_renderer *only = NULL;
    int count = 0;
    for (xvk_renderer *r = registry; r != NULL; r = r->registry_next)
        if (instance != VK_NULL_HANDLE && r->instance == instance) {
            only = r;
            count++;
        }
    if (count == 1) report(only, text);
    pthread_mutex_unlock(&registry_lock);
    if (count != 1) fprintf(stderr, "vulkan validation (no device): %s\n", text);
    return VK_FALSE;
}

/* ---- instance and device ---- */

static bool has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || n == 0) return false;
    VkLayerProperties *p = calloc(n, sizeof *p);
    if (p == NULL) return false;
    bool found = false;
    if (vkEnumerateInstanceLayerProperties(&n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].layerName, name) == 0;
    free(p);
    return found;
}

static bool has_instance_ext(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS || n == 0) return false;
    VkExtensionProperties *p = calloc(n, sizeof *p);
    if (p == NULL) return false;
    bool found = false;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

static bool has_device_ext(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL) != VK_SUCCESS || n == 0) return false;
    VkExtensionProperties *p = calloc(n, sizeof *p);
    if (p == NULL) return false;
    bool found = false;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

static bool env_true(const char *name)
{
    const char *v = getenv(name);
    return v != NULL && v[0] != '\0' && strcmp(v, "0") != 0;
}

/*
 * The process's instances: one per configuration (validation layer on or off, debug utils on
 * or off), created by the first device that needs it and shared by every later device, never
 * destroyed. Drivers may cap the instances a process can create (NVIDIA 580: the 30th
 * vkCreateInstance returns VK_ERROR_INCOMPATIBLE_DRIVER even when every earlier instance was
 * destroyed), so a program creating a device per test or tool run must not spend one per device.
 * The table is static, so the instances stay reachable for leak checkers. Instance-level calls
 * the renderer makes after creation (enumerating physical devices, loading functions) are not
 * externally synchronized in Vulkan, so devices on several threads share them freely; the lock
 * covers only the lazy creation. A validating instance gets its one messenger here, before any
 * other thread can see the instance (debug_callback).
 */
static pthread_mutex_t instance_lock = PTHREAD_MUTEX_INITIALIZER;
static VkInstance instances[2][2]; /* [validation layer][debug utils] */
static VkDebugUtilsMessengerEXT messengers[2][2];
static uint64_t instance_creations;

uint64_t xvk_instance_creations(void)
{
    pthread_mutex_lock(&instance_lock);
    uint64_t n = instance_creations;
    pthread_mutex_unlock(&instance_lock);
    return n;
}

/* The surface extensions every instance enables where the loader offers them (headless devices
 * never use them): VK_KHR_surface and the platform ones windowed devices present through, an
 * Xlib surface for X11 windows, and those SDL_Vulkan_CreateSurface asks for on SDL windows made
 * with SDL_WINDOW_VULKAN (xcb on SDL's X11 driver, Wayland on its Wayland driver). None without
 * VK_KHR_surface. */
uint32_t xvk_surface_extensions(const char **names)
{
    static const char *const platform[XVK_SURFACE_EXTS - 1] = {
        "VK_KHR_xlib_surface", "VK_KHR_xcb_surface", "VK_KHR_wayland_surface" };
    if (!has_instance_ext("VK_KHR_surface")) return 0;
    uint32_t n = 0;
    names[n++] = "VK_KHR_surface";
    for (int i = 0; i < XVK_SURFACE_EXTS - 1; i++)
        if (has_instance_ext(platform[i])) names[n++] = platform[i];
    return n == 1 ? 0 : n;
}

static VkResult shared_instance(bool layer, bool utils, VkInstance *out, bool *messenger)
{
    pthread_mutex_lock(&instance_lock);
    VkResult vr = VK_SUCCESS;
    if (instances[layer][utils] == VK_NULL_HANDLE) {
        VkDebugUtilsMessengerCreateInfoEXT mi = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
            .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
            /* Correctness only: the performance class advises against the GENERAL layout this
               renderer keeps every image in on purpose (one global barrier, no per-subresource
               layout tracking) and against vertex outputs a pixel shader ignores. */
            .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
            .pfnUserCallback = debug_callback, .pUserData = &instances[layer][utils] };
        bool validate = layer && utils;
        const char *exts[1 + XVK_SURFACE_EXTS];
        uint32_t next = 0;
        if (utils) exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
        uint32_t ns = xvk_surface_extensions(exts + next);
        next += ns;
        VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                                  .pApplicationName = "xgd", .pEngineName = "xgd",
                                  .apiVersion = VK_API_VERSION_1_3 };
        /* chained, it also reports vkCreateInstance (to the device being created) */
        VkInstanceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                    .pNext = validate ? &mi : NULL, .pApplicationInfo = &app,
                                    .enabledLayerCount = layer ? 1u : 0u,
                                    .ppEnabledLayerNames = layer ? &validation_layer : NULL,
                                    .enabledExtensionCount = next, .ppEnabledExtensionNames = exts };
        VkInstance inst = VK_NULL_HANDLE;
        vr = vkCreateInstance(&ci, NULL, &inst);
        instance_creations++;
        if (vr == VK_SUCCESS) instances[layer][utils] = inst;
        PFN_vkCreateDebugUtilsMessengerEXT create = NULL;
        if (vr == VK_SUCCESS && validate)
            create = (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
                inst, "vkCreateDebugUtilsMessengerEXT");
        if (create != NULL && create(inst, &mi, NULL, &messengers[layer][utils]) != VK_SUCCESS)
            messengers[layer][utils] = VK_NULL_HANDLE;
    }
    *out = instances[layer][utils];
    *messenger = messengers[layer][utils] != VK_NULL_HANDLE;
    pthread_mutex_unlock(&instance_lock);
    return vr;
}

static xgd_result create_instance(xvk_renderer *r)
{
    bool want_validation = r->debug || env_true("XGD_VK_VALIDATION");
    bool layer = want_validation && has_layer(validation_layer);
    bool utils = has_instance_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) && (want_validation || r->debug);
    /* Worded as a validation message on purpose: a run that asked for validation and silently
       got none would pass the suite's "zero validation messages" rule vacuously. */
    if (want_validation && !layer)
        xgdi_warn(r->base.device, "vulkan validation: %s is not installed, nothing is validated",
                  validation_layer);
    bool messenger = false;
    VkResult vr = shared_instance(layer, utils, &r->instance, &messenger);
    if (vr != VK_SUCCESS)
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE,
                         "vulkan: vkCreateInstance failed (VkResult %d)", (int)vr);
    if (layer && utils && !messenger)
        xgdi_warn(r->base.device, "vulkan validation: no debug messenger could be created, "
                  "nothing is reported");
    r->validation = layer;
    r->debug_utils = utils;
    r->reports = layer && utils && messenger;
    return XGD_OK;
}

static int device_rank(const VkPhysicalDeviceProperties *p)
{
    switch (p->deviceType) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
    }
}

static bool device_usable(VkPhysicalDevice pd, uint32_t *family)
{
    VkPhysicalDeviceProperties p;
    vkGetPhysicalDeviceProperties(pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_3) return false;
    if (!has_device_ext(pd, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) return false;
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    if (n == 0 || n > 64) return false;
    VkQueueFamilyProperties q[64];
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
    for (uint32_t i = 0; i < n; i++)
        if (q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
            *family = i;
            return true;
        }
    return false;
}

static xgd_result pick_device(xvk_renderer *r)
{
    uint32_t n = 0;
    if (vkEnumeratePhysicalDevices(r->instance, &n, NULL) != VK_SUCCESS || n == 0)
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE, "vulkan: no physical device");
    VkPhysicalDevice *pds = calloc(n, sizeof *pds);
    if (pds == NULL) return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    vkEnumeratePhysicalDevices(r->instance, &n, pds);
    const char *want = getenv("XGD_VK_DEVICE");
    int best = -1, best_rank = -1;
    uint32_t best_family = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t fam;
        if (!device_usable(pds[i], &fam)) continue;
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (want != NULL && want[0] != '\0') {
            bool digits = true;
            for (const char *c = want; *c; c++) digits &= isdigit((unsigned char)*c) != 0;
            bool match = digits ? (uint32_t)atoi(want) == i : strstr(p.deviceName, want) != NULL;
            if (!match) continue;
        }
        int rank = device_rank(&p);
        if (rank > best_rank) {
            best = (int)i;
            best_rank = rank;
            best_family = fam;
        }
    }
    if (best < 0) {
        free(pds);
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE,
                         "vulkan: no device with Vulkan 1.3, push descriptors and graphics%s%s",
                         want ? " matching XGD_VK_DEVICE=" : "", want ? want : "");
    }
    r->phys = pds[best];
    r->queue_family = best_family;
    free(pds);
    vkGetPhysicalDeviceProperties(r->phys, &r->props);
    r->base.cpu_device = r->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    r->wait_spin_ns = xgdi_wait_spin_budget_ns();
    snprintf(r->adapter_name, sizeof r->adapter_name, "%s", r->props.deviceName);
    vkGetPhysicalDeviceMemoryProperties(r->phys, &r->memory.props);
    return XGD_OK;
}

static xgd_result create_device(xvk_renderer *r)
{
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(r->phys, &have);
    VkPhysicalDeviceLineRasterizationFeaturesEXT line_have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT };
    VkPhysicalDeviceVulkan13Features f13_have = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES };
    VkPhysicalDeviceVulkan12Features f12_have = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                                  .pNext = &f13_have };
    bool line_ext = has_device_ext(r->phys, VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME);
    if (line_ext) f13_have.pNext = &line_have;
    /* instance frequencies above 1 (xgd_set_vertex_buffers) need attribute divisors */
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT div_have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT };
    bool div_ext = has_device_ext(r->phys, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    if (div_ext) {
        div_have.pNext = f13_have.pNext;
        f13_have.pNext = &div_have;
    }
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                     .pNext = &f12_have };
    vkGetPhysicalDeviceFeatures2(r->phys, &f2);
    if (!f13_have.dynamicRendering || !f12_have.timelineSemaphore)
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE,
                         "vulkan: %s lacks dynamicRendering or timelineSemaphore", r->adapter_name);
    r->has_line_rasterization = line_ext && line_have.bresenhamLines;
    r->has_divisor = div_ext && div_have.vertexAttributeInstanceRateDivisor;

    VkPhysicalDeviceFeatures en;
    memset(&en, 0, sizeof en);
    en.fillModeNonSolid = have.fillModeNonSolid;
    en.independentBlend = have.independentBlend;
    en.robustBufferAccess = have.robustBufferAccess; /* out-of-range vertices read as missing */
    en.textureCompressionBC = have.textureCompressionBC;
    /* Anisotropic sampler states use the device's filter where it has one, up to its limit
       and XNA's 16; without the feature they sample as Linear and xgd_format_support says 1 */
    en.samplerAnisotropy = have.samplerAnisotropy;
    r->max_anisotropy = 1;
    if (have.samplerAnisotropy) {
        float m = r->props.limits.maxSamplerAnisotropy;
        r->max_anisotropy = m >= 16.0f ? 16 : (m >= 1.0f ? (int)m : 1);
    }
    /* exact occlusion counts (vk_query.c); without it query creation says NOT_SUPPORTED */
    en.occlusionQueryPrecise = have.occlusionQueryPrecise;
    r->occlusion_precise = have.occlusionQueryPrecise == VK_TRUE;
    VkPhysicalDeviceLineRasterizationFeaturesEXT line_en = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT,
        .bresenhamLines = VK_TRUE };
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .pNext = r->has_line_rasterization ? &line_en : NULL,
                                             .dynamicRendering = VK_TRUE };
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                             .pNext = &f13, .timelineSemaphore = VK_TRUE };
    VkPhysicalDeviceVertexAttributeDivisorFeaturesEXT div_en = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_EXT,
        .pNext = f13.pNext, .vertexAttributeInstanceRateDivisor = VK_TRUE };
    if (r->has_divisor) f13.pNext = &div_en;
    const char *exts[4];
    uint32_t next = 0;
    exts[next++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    if (r->has_divisor) exts[next++] = VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME;
    if (r->has_line_rasterization) exts[next++] = VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME;
    const char *surface_exts[XVK_SURFACE_EXTS];
    r->has_surface = xvk_surface_extensions(surface_exts) > 0;
    r->has_swapchain = r->has_surface && has_device_ext(r->phys, VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    if (r->has_swapchain) exts[next++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = r->queue_family, .queueCount = 1,
                                   .pQueuePriorities = &prio };
    VkDeviceCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f12,
                              .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi,
                              .enabledExtensionCount = next, .ppEnabledExtensionNames = exts,
                              .pEnabledFeatures = &en };
    VkResult vr = vkCreateDevice(r->phys, &ci, NULL, &r->dev);
    if (vr != VK_SUCCESS)
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE,
                         "vulkan: vkCreateDevice failed on %s (VkResult %d)", r->adapter_name, (int)vr);
    if (xvk_device_created_hook != NULL) xvk_device_created_hook(r);
    vkGetDeviceQueue(r->dev, r->queue_family, 0, &r->queue);
    r->push_descriptor = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(r->dev, "vkCmdPushDescriptorSetKHR");
    r->push_template = (PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(
        r->dev, "vkCmdPushDescriptorSetWithTemplateKHR");
    r->cmd_draw = (PFN_vkCmdDraw)vkGetDeviceProcAddr(r->dev, "vkCmdDraw");
    r->cmd_draw_indexed = (PFN_vkCmdDrawIndexed)vkGetDeviceProcAddr(r->dev, "vkCmdDrawIndexed");
    if (r->cmd_draw == NULL) r->cmd_draw = vkCmdDraw;
    if (r->cmd_draw_indexed == NULL) r->cmd_draw_indexed = vkCmdDrawIndexed;
    if (r->push_descriptor == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_NO_SUITABLE_DEVICE,
                         "vulkan: vkCmdPushDescriptorSetKHR missing");
    if ((r->validation && r->debug_utils) || r->debug)
        r->set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(r->instance,
                                                                              "vkSetDebugUtilsObjectNameEXT");
    /* Loaded once, and only where they are wanted and exist: the three stay NULL together, so a
       label is either fully balanced or never emitted. */
    if (r->debug && r->debug_utils) {
        PFN_vkCmdBeginDebugUtilsLabelEXT b = (PFN_vkCmdBeginDebugUtilsLabelEXT)
            vkGetInstanceProcAddr(r->instance, "vkCmdBeginDebugUtilsLabelEXT");
        PFN_vkCmdEndDebugUtilsLabelEXT e = (PFN_vkCmdEndDebugUtilsLabelEXT)
            vkGetInstanceProcAddr(r->instance, "vkCmdEndDebugUtilsLabelEXT");
        PFN_vkCmdInsertDebugUtilsLabelEXT i = (PFN_vkCmdInsertDebugUtilsLabelEXT)
            vkGetInstanceProcAddr(r->instance, "vkCmdInsertDebugUtilsLabelEXT");
        if (b != NULL && e != NULL && i != NULL) {
            r->cmd_begin_label = b;
            r->cmd_end_label = e;
            r->cmd_insert_label = i;
        }
    }
    VkSemaphoreTypeCreateInfo ti = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                     .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE, .initialValue = 0 };
    VkSemaphoreCreateInfo si = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &ti };
    vr = vkCreateSemaphore(r->dev, &si, NULL, &r->timeline);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateSemaphore");
    for (int i = 0; i < XVK_FRAMES; i++) {
        VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                       .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                       .queueFamilyIndex = r->queue_family };
        xvk_cmd_arena_init(&r->frames[i].arena);
        vr = vkCreateCommandPool(r->dev, &pi, &r->frames[i].arena.callbacks, &r->frames[i].pool);
        if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateCommandPool");
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = r->frames[i].pool,
                                           .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        vr = vkAllocateCommandBuffers(r->dev, &ai, &r->frames[i].cmd);
        if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkAllocateCommandBuffers");
    }
    return XGD_OK;
}

/* ---- fences and frames ---- */

uint64_t xvk_completed(xvk_renderer *r)
{
    uint64_t v = 0;
    if (r->dev == VK_NULL_HANDLE || r->timeline == VK_NULL_HANDLE) return r->base.submitted_fence;
    VkResult vr = vkGetSemaphoreCounterValue(r->dev, r->timeline, &v);
    if (vr != VK_SUCCESS) {
        (void)xvk_check(r, vr, "vkGetSemaphoreCounterValue");
        return r->base.submitted_fence; /* lost: nothing will run any more */
    }
    return v;
}

typedef struct xvk_spin_ctx {
    xvk_renderer *r;
    uint64_t value;
} xvk_spin_ctx;

static bool xvk_spin_done(void *ctx)
{
    xvk_spin_ctx *c = ctx;
    return xvk_completed(c->r) >= c->value;
}

/* Waits until the timeline reaches `value`. `spin`: data the caller needs now (a readback, a
   query result): the timeline is polled for up to the device's budget (0 unless
   $XGD_WAIT_SPIN_US asks: renderer.h, spin.c) before the blocking wait; frame slots do not
   poll, or a GPU-bound frame loop would spend the budget every frame. */
static xgd_result wait_value(xvk_renderer *r, uint64_t value, bool spin)
{
    if (value == 0 || r->lost) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_OK;
    /* A value no submission will signal would block forever: report it instead of hanging
       the host (an internal ordering error, never expected). */
    if (value > r->base.submitted_fence)
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION,
                         "vulkan: internal error: wait for fence value %llu, only %llu submitted",
                         (unsigned long long)value, (unsigned long long)r->base.submitted_fence);
    if (xvk_completed(r) >= value) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_OK;
    r->counters.gpu_waits++;
    xvk_spin_ctx c = { r, value };
    if (spin && r->wait_spin_ns > 0 && xgdi_spin_until(xvk_spin_done, &c, r->wait_spin_ns)) {
        r->counters.wait_polls++;
        return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_OK;
    }
    VkSemaphoreWaitInfo wi = { .sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, .semaphoreCount = 1,
                               .pSemaphores = &r->timeline, .pValues = &value };
    return xvk_check(r, vkWaitSemaphores(r->dev, &wi, UINT64_MAX), "vkWaitSemaphores");
}

static xgd_result xvk_wait_value(xvk_renderer *r, uint64_t value)
{
    return wait_value(r, value, false);
}

static void ring_collect(xvk_renderer *r, uint64_t completed)
{
    xvk_ring *g = &r->ring;
    size_t k = 0;
    while (k < g->mark_count && g->marks[k].fence <= completed) {
        g->tail = g->marks[k].head;
        k++;
    }
    if (k > 0) {
        memmove(g->marks, g->marks + k, (g->mark_count - k) * sizeof *g->marks);
        g->mark_count -= k;
    }
}

/* The descriptors live (pushed by frame slots not yet recycled) are the slots' counts, which
   only recycling lowers: their peak is reached just before a recycle or now. Draws count into
   their slot alone (xvk_note_descriptors); the totals are settled here. */
static void settle_descriptors(xvk_renderer *r)
{
    xvk_fast_settle(r);
    uint64_t live = 0;
    for (int i = 0; i < XVK_FRAMES; i++) live += r->frames[i].descriptors;
    r->counters.descriptors_live = live;
    if (live > r->counters.descriptors_peak) r->counters.descriptors_peak = live;
}

static void recycle_descriptors(xvk_renderer *r, xvk_frame *f)
{
    settle_descriptors(r);
    r->counters.descriptor_recycles += f->descriptors;
    r->counters.descriptors_live -= f->descriptors;
    f->descriptors = 0;
}

VkCommandBuffer xvk_cmd(xvk_renderer *r)
{
    xvk_frame *f = &r->frames[r->frame_index];
    if (r->recording) return f->cmd;
    if (r->lost) return VK_NULL_HANDLE;
    /* The only CPU wait of the frame loop: reusing a slot whose work has not finished. */
    if (f->fence > xvk_completed(r)) {
        r->counters.slot_waits++;
        if (xvk_wait_value(r, f->fence) != XGD_OK) return VK_NULL_HANDLE;
    }
    VkResult vr = vkResetCommandPool(r->dev, f->pool, 0);
    if (vr != VK_SUCCESS) {
        (void)xvk_check(r, vr, "vkResetCommandPool");
        return VK_NULL_HANDLE;
    }
    xvk_cmd_arena_reset(&f->arena);
    xvk_cmd_arena_begin(&f->arena);
    recycle_descriptors(r, f);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    vr = vkBeginCommandBuffer(f->cmd, &bi);
    if (vr != VK_SUCCESS) {
        (void)xvk_check(r, vr, "vkBeginCommandBuffer");
        return VK_NULL_HANDLE;
    }
    r->recording = true;
    xvk_reset_bindings(r);
    /* whatever the previous submission wrote is ordered before this buffer's work */
    r->hazard = true;
    /* an occlusion query active across the submission continues in a fresh slot */
    xvk_query_resume(r, f->cmd);
    return f->cmd;
}

void xvk_barrier(xvk_renderer *r, VkCommandBuffer cmd)
{
    if (!r->hazard) return;
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    r->hazard = false;
    r->counters.barriers++;
}

static xgd_result xvk_submit(xgdi_renderer *base)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_renderer_submitting(base);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    xvk_end_rendering(r);
    /* no query may stay active in a submitted command buffer: the active one's segment ends
       here (vk_query.c) */
    xvk_query_suspend(r, cmd);
    VkResult vr = vkEndCommandBuffer(cmd);
    r->recording = false;
    if (vr != VK_SUCCESS) return xvk_submission_failed(r, vr, "vkEndCommandBuffer");
    uint64_t value = base->submitted_fence + 1;
    /* a windowed present adds a swap-chain image's acquire semaphore to wait on (before the
       copy into it) and a binary semaphore for vkQueuePresentKHR to wait on; their values are
       ignored, being binary */
    uint64_t values[2] = { value, 0 }, wait_value = 0;
    VkSemaphore signals[2] = { r->timeline, r->submit_signal };
    VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSemaphore wait_semaphore = r->submit_wait;
    bool wait = wait_semaphore != VK_NULL_HANDLE;
    uint32_t nsig = r->submit_signal != VK_NULL_HANDLE ? 2u : 1u;
    VkTimelineSemaphoreSubmitInfo ts = { .sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                         .waitSemaphoreValueCount = wait ? 1u : 0u,
                                         .pWaitSemaphoreValues = wait ? &wait_value : NULL,
                                         .signalSemaphoreValueCount = nsig,
                                         .pSignalSemaphoreValues = values };
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &ts,
                        .waitSemaphoreCount = wait ? 1u : 0u,
                        .pWaitSemaphores = wait ? &wait_semaphore : NULL,
                        .pWaitDstStageMask = wait ? &wait_stage : NULL,
                        .commandBufferCount = 1, .pCommandBuffers = &cmd,
                        .signalSemaphoreCount = nsig, .pSignalSemaphores = signals };
    r->submit_wait = r->submit_signal = VK_NULL_HANDLE;
    vr = vkQueueSubmit(r->queue, 1, &si, VK_NULL_HANDLE);
    if (vr != VK_SUCCESS) return xvk_submission_failed(r, vr, "vkQueueSubmit");
    base->submitted_fence = value;
    /* ring offsets cached for the closed frame (constants) must not serve the next one */
    xvk_reset_bindings(r);
    r->frames[r->frame_index].fence = value;
    r->frame_index = (r->frame_index + 1) % XVK_FRAMES;
    xvk_ring *g = &r->ring;
    if (g->mark_count == 0 || g->marks[g->mark_count - 1].head != g->head) {
        if (g->mark_count == g->mark_capacity) {
            size_t cap = g->mark_capacity ? g->mark_capacity * 2 : 16;
            xvk_ring_mark *nm = realloc(g->marks, cap * sizeof *nm);
            if (nm != NULL) {
                g->marks = nm;
                g->mark_capacity = cap;
            }
        }
        if (g->mark_count < g->mark_capacity) {
            g->marks[g->mark_count].fence = value;
            g->marks[g->mark_count].head = g->head;
            g->mark_count++;
        } else {
            /* cannot remember where this submission ends: wait so the ring is free again */
            if (xvk_wait_value(r, value) == XGD_OK) g->tail = g->head;
        }
    } else if (g->mark_count > 0) {
        g->marks[g->mark_count - 1].fence = value;
    }
    uint64_t done = xvk_completed(r);
    ring_collect(r, done);
    xgdi_retire_collect(&base->retired, base, done);
    return XGD_OK;
}

xgd_result xvk_submit_and_wait(xvk_renderer *r)
{
    xgd_result res = xvk_submit(&r->base);
    if (res != XGD_OK) return res;
    res = wait_value(r, r->base.submitted_fence, true);
    if (res != XGD_OK) return res;
    uint64_t done = xvk_completed(r);
    ring_collect(r, done);
    xgdi_retire_collect(&r->base.retired, &r->base, done);
    return XGD_OK;
}

static uint64_t xvk_completed_fence(xgdi_renderer *base)
{
    return xvk_completed(xvk_cast(base));
}

static void xvk_get_statistics(xgdi_renderer *base, xgd_statistics *inout)
{
    xvk_renderer *r = xvk_cast(base);
    /* A closed slot whose fence has passed no longer feeds the GPU: its pushed descriptors are
       free even though the pool reset that reclaims the memory waits for the slot's reuse. */
    uint64_t done = r->lost ? UINT64_MAX : xvk_completed(r);
    for (int i = 0; i < XVK_FRAMES; i++) {
        xvk_frame *f = &r->frames[i];
        bool open = r->recording && i == r->frame_index;
        if (!open && f->fence <= done) recycle_descriptors(r, f);
    }
    settle_descriptors(r);
    inout->descriptors_live = r->counters.descriptors_live;
    inout->descriptors_peak = r->counters.descriptors_peak;
    inout->gpu_waits = r->counters.gpu_waits;
    inout->descriptor_pool_growths = 0;
    inout->descriptor_recycles = r->counters.descriptor_recycles;
}

static xgd_result xvk_wait_fence(xgdi_renderer *base, uint64_t value)
{
    xvk_renderer *r = xvk_cast(base);
    if (value > base->submitted_fence) {
        xgd_result res = xvk_submit(base);
        if (res != XGD_OK) return res;
    }
    return wait_value(r, value, true);
}

void xvk_retire(xvk_renderer *r, xgdi_retire_fn fn, void *object)
{
    if (xgdi_retire_push(&r->base.retired, r->base.submitted_fence + 1, fn, object) != XGD_OK) {
        /* renderer.h: cannot queue it, so wait for the work that may use it, then free */
        if (r->recording) (void)xvk_submit_and_wait(r);
        else (void)xvk_wait_value(r, r->base.submitted_fence);
        fn(&r->base, object);
    }
}

/* ---- the upload ring ---- */

#define RING_HOST (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
#define RING_LOCAL (RING_HOST | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)

/* The ring's memory: memory the CPU writes and the GPU reads in place. Device-local memory the
   CPU can map where its heap holds four of the largest ring (resizable BAR, unified memory):
   the GPU reads vertices and constants from its own memory, and on the H200 SpriteBatch End
   writes a sprite's vertices there 0 to 20% faster than into system memory, once each page has
   been written before (session 15: 6.0-7.2 against 6.1-7.5 ns a sprite at 100,000 sprites,
   7.7-8.5 against 8.8-9.8 at 1,000,000; a page's first write costs both about twice as much,
   see ring_prefault). Else host-visible system memory (and where the device-local memory is
   refused, ring_create). */
static VkMemoryPropertyFlags ring_flags(const xvk_renderer *r)
{
    const VkPhysicalDeviceMemoryProperties *p = &r->memory.props;
    for (uint32_t i = 0; i < p->memoryTypeCount; i++) {
        if ((p->memoryTypes[i].propertyFlags & RING_LOCAL) != RING_LOCAL) continue;
        return p->memoryHeaps[p->memoryTypes[i].heapIndex].size / 4 >= XVK_RING_MAX ? RING_LOCAL
                                                                                     : RING_HOST;
    }
    return RING_HOST;
}

/* Makes a ring's buffer and mapped memory of `size` bytes in memory of `flags` into *g (its
   counters untouched); on failure frees what it made and leaves *g as it was. */
static xgd_result ring_create_in(xvk_renderer *r, xvk_ring *g, uint64_t size,
                                 VkMemoryPropertyFlags flags)
{
    VkBuffer buffer = VK_NULL_HANDLE;
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT |
                                       VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult vr = vkCreateBuffer(r->dev, &bi, NULL, &buffer);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateBuffer (ring)");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(r->dev, buffer, &req);
    xvk_alloc mem;
    xgd_result res = xvk_mem_alloc(r, &req, flags, &mem);
    if (res != XGD_OK) {
        vkDestroyBuffer(r->dev, buffer, NULL);
        return res;
    }
    vr = vkBindBufferMemory(r->dev, buffer, mem.memory, mem.offset);
    if (vr != VK_SUCCESS) {
        vkDestroyBuffer(r->dev, buffer, NULL);
        xvk_mem_free(r, &mem);
        return xvk_check(r, vr, "vkBindBufferMemory (ring)");
    }
    g->buffer = buffer;
    g->mem = mem;
    g->mapped = mem.mapped;
    g->size = size;
    g->populated = 0;
    const VkMemoryType *type = &r->memory.props.memoryTypes[mem.type];
    g->cached = (type->propertyFlags & VK_MEMORY_PROPERTY_HOST_CACHED_BIT) != 0;
    g->device_local = (type->propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
    g->heap_size = r->memory.props.memoryHeaps[type->heapIndex].size;
    xvk_set_name(r, VK_OBJECT_TYPE_BUFFER, (uint64_t)(uintptr_t)buffer, "xgd upload ring");
    return XGD_OK;
}

/* ring_create_in in the memory ring_flags picks, or system memory where device-local memory
   is refused (its heap is full of textures, say): the ring is still needed. */
static xgd_result ring_create(xvk_renderer *r, xvk_ring *g, uint64_t size)
{
    VkMemoryPropertyFlags flags = ring_flags(r);
    if (flags == RING_HOST) return ring_create_in(r, g, size, RING_HOST);
    xgdi_quiet_begin(r->base.device);
    xgd_result res = ring_create_in(r, g, size, flags);
    (void)xgdi_quiet_end(r->base.device);
    if (res == XGD_OK || r->lost) return res;
    return ring_create_in(r, g, size, RING_HOST);
}

bool xvk_ring_alloc(xvk_renderer *r, uint64_t size, uint64_t align, VkDeviceSize *offset,
                    void **ptr)
{
    xvk_ring *g = &r->ring;
    if (size > g->size / 2) {
        xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                  "vulkan: %llu bytes exceed the upload ring", (unsigned long long)size);
        return false;
    }
    if (align == 0) align = 1;
    for (int attempt = 0; attempt < 4; attempt++) {
        uint64_t pos = g->head % g->size;
        uint64_t start = (pos + align - 1) & ~(align - 1);
        uint64_t skip = start - pos;
        if (start + size > g->size) {
            skip = g->size - pos; /* wrap: the tail end is wasted until the next lap */
            start = 0;
        }
        uint64_t need = skip + size;
        if (g->head + need - g->tail <= g->size) {
            g->head += need;
            g->fast_limit = 0;
            *offset = start;
            *ptr = g->mapped + start;
            if (skip > 0 && start == 0) r->counters.ring_wraps++;
            return true;
        }
        /* full: free what finished, else wait for the oldest submission, else submit the open
           frame (it alone filled the ring) and wait for it; a wait makes the next Present
           replace the ring by a larger one (ring_grow) */
        ring_collect(r, xvk_completed(r));
        if (g->head + need - g->tail <= g->size) continue;
        r->counters.ring_waits++;
        g->pressed = true;
        if (g->mark_count > 0) {
            if (xvk_wait_value(r, g->marks[0].fence) != XGD_OK) return false;
            ring_collect(r, xvk_completed(r));
            continue;
        }
        if (r->base.holding) {
            xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY,
                      "vulkan: the open frame fills the upload ring (a held reservation does "
                      "not submit it to make room)");
            return false;
        }
        if (xvk_submit_and_wait(r) != XGD_OK) return false;
    }
    xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: upload ring exhausted");
    return false;
}

/* A ring the GPU may still read, freed once the submissions that used it completed. */
typedef struct retired_ring {
    VkBuffer buffer;
    xvk_alloc mem;
} retired_ring;

static void free_retired_ring(xgdi_renderer *base, void *object)
{
    xvk_renderer *r = xvk_cast(base);
    retired_ring *old = object;
    vkDestroyBuffer(r->dev, old->buffer, NULL);
    xvk_mem_free(r, &old->mem);
    free(old);
}

/* The largest ring, at most XVK_RING_MAX: a quarter of its memory heap in system memory, a
   32nd in a discrete GPU's own memory, which textures and targets need (an 8 GiB card's ring
   stops at 256 MiB there; while it grows, the old ring lives on until its frames complete). An
   integrated or CPU device's device-local memory is system memory: a quarter there too
   (lavapipe's 2 GiB heap: 512 MiB, which a million sprites a frame need). */
uint64_t xvk_ring_limit(const xvk_renderer *r)
{
    bool gpu_own = r->ring.device_local && r->props.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    uint64_t share = r->ring.heap_size / (gpu_own ? 32 : 4);
    return share < XVK_RING_MAX ? share : XVK_RING_MAX;
}

/*
 * Called by Present after its submission: when an allocation since the last Present had to wait
 * for the GPU (the frames in flight needed more than the ring holds, e.g. a million sprites a
 * frame), or the frame just presented took more than a third of the ring, the ring is replaced
 * by one twice its size, up to ring_limit, so that later frames of the same size take their
 * space without waiting. A third: while a frame records, the GPU may still hold the two before
 * it (the frame slots), so three frames' data must fit; a frame that only just fits would wait
 * whenever the GPU runs late (on the H200, one wait in 7 of 12 runs of a million sprites after
 * the growths that waits had caused). The old ring is freed once the submissions
 * that used it (all submitted now) have completed. Between Presents no draw is half recorded
 * and no reservation lives (a submission ended it), so nothing points into the old ring. A
 * failure keeps the old ring: waiting stays correct, only slower.
 */
/*
 * The stretch of the ring that ring_prefault readies at a Present, as offsets [*from, *to):
 * up to twice the frame's use ahead of the head (at least XVK_RING_PREFAULT_MIN), from where
 * the last one stopped (g->populated) to the ring's end, once per ring. In the ring's first
 * lap the draws themselves wrote everything up to the head, so it starts there at the latest.
 * It is written into (xgdi_touch_pages), so only memory no submission may read qualifies: the
 * whole stretch must lie in the free run that starts at the head; if part of it is still in
 * flight (a frame that passed the readied part and wrapped), nothing is readied this time.
 * False when there is nothing to do.
 */
bool xvk_ring_ready_span(const xvk_ring *g, uint64_t frame_use, uint64_t *from, uint64_t *to)
{
    if (g->size == 0 || g->populated >= g->size) return false;
    const uint64_t pos = g->head % g->size;
    uint64_t start = g->populated;
    if (g->head < g->size && pos > start) start = pos;
    uint64_t ahead = frame_use * 2 > XVK_RING_PREFAULT_MIN ? frame_use * 2 : XVK_RING_PREFAULT_MIN;
    uint64_t want = ahead < g->size - pos ? pos + ahead : g->size;
    if (want <= start) return false;
    const uint64_t free_bytes = g->size - (g->head - g->tail);
    const uint64_t distance = (start + g->size - pos) % g->size; /* from the head to start */
    if (distance + (want - start) > free_bytes) return false;
    *from = start;
    *to = want;
    return true;
}

/*
 * Called by Present after ring_grow with the frame's use of the ring: readies the ring's pages
 * that the next frames will write (xvk_ring_ready_span), so that draws neither take a page
 * fault for each fresh 4 KiB of vertices while the ring runs through its memory the first time
 * (lavapipe: 24 a thousand-quad frame, 14 us each on this project's VM, 3.4x the raw loop's
 * time a draw) nor pay for a page's first write where no fault shows (the H200 machine: its
 * SpriteBatch End took 17-20 ns a sprite in fresh ring memory, 7-9 after, in its BAR and in
 * system memory alike). The pages are backed in one system call where the system allows
 * (MADV_POPULATE_WRITE; refused on BAR memory), then each is written once.
 */
static void ring_prefault(xvk_ring *g, uint64_t frame_use)
{
    uint64_t from, to;
    if (g->mapped == NULL || !xvk_ring_ready_span(g, frame_use, &from, &to)) return;
    (void)xgdi_prefault_pages(g->mapped + from, (size_t)(to - from));
    xgdi_touch_pages(g->mapped + from, (size_t)(to - from));
    g->populated = to;
}

/*
 * Called by Present after ring_grow: moves the head back to the ring's start when enough of the
 * start is free for two more frames like this one (at least XVK_RING_REWIND_MIN each) beside the
 * bytes the GPU may still read: by the third, Present has waited for the frames before the move
 * (XVK_FRAMES in flight). The rest of the lap counts as used until those submissions retire, so
 * no later allocation waits for it. While frames are small, the ring's working set then stays a
 * few frames of the same memory, warm in the CPU's caches and TLB as one reused vertex buffer
 * is, instead of a fresh stretch of the ring each frame (lavapipe, 1,000 quads a frame: the draw
 * loop took 3.4 times the raw loop's time at 1.3 times its instructions; 1.2 times after).
 */
static void ring_rewind(xvk_renderer *r, uint64_t frame_use)
{
    xvk_ring *g = &r->ring;
    uint64_t pos = g->head % g->size;
    if (pos == 0) return;
    uint64_t room = 2 * (frame_use > XVK_RING_REWIND_MIN ? frame_use : XVK_RING_REWIND_MIN);
    if (pos < room) return; /* too early whatever the GPU holds: no query */
    ring_collect(r, xvk_completed(r));
    if (pos - room < g->head - g->tail) return;
    g->head += g->size - pos;
    g->fast_limit = 0;
    g->frame_head = g->head;
    r->counters.ring_wraps++;
}

static void ring_grow(xvk_renderer *r)
{
    xvk_ring *g = &r->ring;
    const bool crowded = g->head - g->frame_head > g->size / 3;
    g->frame_head = g->head;
    if (!g->pressed && !crowded) return;
    g->pressed = false;
    if (g->size * 2 > xvk_ring_limit(r)) return;
    retired_ring *old = malloc(sizeof *old);
    if (old == NULL) return;
    old->buffer = g->buffer;
    old->mem = g->mem;
    /* a refused growth is no error of the Present that tried it: the old ring stays, and the
       user's log sees a warning (a loss is still entered, and reported) */
    xgdi_quiet_begin(r->base.device);
    xgd_result gr = ring_create(r, g, g->size * 2);
    const char *why = xgdi_quiet_end(r->base.device);
    if (gr != XGD_OK) {
        free(old);
        if (r->lost)
            (void)xgdi_fail(r->base.device, XGD_ERROR_DEVICE_LOST, "%s", why);
        else
            xgdi_warn(r->base.device, "vulkan: the upload ring stays at %llu MiB: %s",
                      (unsigned long long)(g->size >> 20), why);
        return;
    }
    if (xgdi_retire_push(&r->base.retired, r->base.submitted_fence, free_retired_ring, old) != XGD_OK) {
        /* renderer.h: cannot queue it, so wait for the work that may use it, then free */
        (void)xvk_wait_value(r, r->base.submitted_fence);
        free_retired_ring(&r->base, old);
    }
    g->head = g->tail = g->frame_head = g->fast_limit = 0;
    g->mark_count = 0;
    g->grown++;
    /* the ring's buffer is bound for vertices and named by pushed descriptors */
    xvk_reset_bindings(r);
}

/* ---- back buffer ---- */

static xgd_result make_back_buffer(xvk_renderer *r, const xgd_presentation_parameters *pp,
                                   xgdi_native_texture **out)
{
    xgdi_texture_desc d = xgdi_back_buffer_desc(pp, r->max_samples);
    return xvk_texture_create(&r->base, &d, out);
}

static void bind_back_buffer(xvk_renderer *r)
{
    memset(r->targets, 0, sizeof r->targets);
    r->targets[0].texture = r->back_buffer;
    r->target_count = 1;
    r->targets_gen++;
}

/*
 * Spec 002 counts depth bias in steps of the bound format, but Vulkan lets a fixed-point
 * format's r be up to 2 x 2^-n, so a driver may move two steps per unit (llvmpipe and NVIDIA
 * do for D24). One small draw per fixed-point format tells the factor; build_key divides by
 * it. A float-backed format (D24 emulated on D32) keeps factor 1: its bias follows the
 * float rule of spec 002 instead.
 */
static void measure_depth_bias(xvk_renderer *r)
{
    static const xgd_depth_format fmts[3] = { XGD_DEPTH_FORMAT_DEPTH16, XGD_DEPTH_FORMAT_DEPTH24,
                                              XGD_DEPTH_FORMAT_DEPTH24_STENCIL8 };
    for (int i = 0; i < 3; i++) {
        xgd_depth_format f = fmts[i];
        VkFormat vf = r->depth_vk[f];
        if (vf != VK_FORMAT_D16_UNORM && vf != VK_FORMAT_D24_UNORM_S8_UINT &&
            vf != VK_FORMAT_X8_D24_UNORM_PACK32)
            continue;
        r->bias_factor[f] = 1; /* spec 002's count unscaled while probing */
        int factor = xgdi_depth_bias_probe(&r->base, f);
        if (factor == 0) {
            xgdi_warn(r->base.device,
                      "vulkan: depth-bias probe for depth format %d was inconclusive; assuming "
                      "one step per unit", (int)f);
            factor = 1;
        } else if (r->debug) {
            xgdi_warn(r->base.device, "vulkan: info: depth format %d: one bias unit = %d step%s",
                      (int)f, factor, factor == 1 ? "" : "s");
        }
        r->bias_factor[f] = factor;
    }
}

static void xvk_destroy(xgdi_renderer *base);

static xgd_result xvk_create(const xgdi_renderer_create_info *info, xgdi_renderer **out)
{
    *out = NULL;
    xvk_renderer *r = calloc(1, sizeof *r);
    if (r == NULL) return xgdi_fail(info->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    r->base.ops = &xgdi_vulkan_renderer_ops;
    r->base.device = info->device;
    xvk_disarm_fast(r); /* 0 is a primitive type */
    xvk_query_init(r);
    r->debug = info->debug;
    r->profile = info->profile;
    /* until it returns, messages naming no live device on this thread are this device's */
    xvk_renderer *outer = tls_current;
    tls_current = r;
    xgd_result res = create_instance(r);
    if (res == XGD_OK) res = pick_device(r);
    if (res == XGD_OK) res = create_device(r);
    /* its device, queue and command buffers are set: messages naming them find it */
    if (res == XGD_OK && r->reports) registry_add(r);
    if (res == XGD_OK) res = ring_create(r, &r->ring, XVK_RING_SIZE);
    if (res == XGD_OK) {
        xvk_classify_formats(r);
        res = xvk_pipelines_init(r);
    }
    if (res == XGD_OK) res = make_back_buffer(r, info->pp, &r->back_buffer);
    if (res != XGD_OK) {
        xvk_destroy(&r->base);
        tls_current = outer;
        return res;
    }
    bind_back_buffer(r);
    measure_depth_bias(r);
    tls_current = outer;
    *out = &r->base;
    return XGD_OK;
}

static void xvk_destroy(xgdi_renderer *base)
{
    if (base == NULL) return;
    xvk_renderer *r = xvk_cast(base);
    if (env_true("XGD_VK_STATS")) {
        /* xgd_statistics has no renderer-specific fields, so these go to stderr on request */
        xvk_fast_settle(r);
        const xvk_counters *c = &r->counters;
        fprintf(stderr,
                "xgd vulkan: descriptor pushes %llu (skipped %llu), pipelines %llu (binds %llu), "
                "render passes %llu, barriers %llu, ring wraps %llu, ring waits %llu, ring grown %llu (%llu MiB), slot waits %llu, "
                "transfer buffers %llu (reused %llu), "
                "memory blocks %llu, live allocations %llu, dedicated %llu\n",
                (unsigned long long)c->descriptor_pushes, (unsigned long long)c->descriptor_skips,
                (unsigned long long)c->pipelines_created, (unsigned long long)c->pipeline_binds,
                (unsigned long long)c->render_passes, (unsigned long long)c->barriers,
                (unsigned long long)c->ring_wraps, (unsigned long long)c->ring_waits, (unsigned long long)r->ring.grown, (unsigned long long)(r->ring.size >> 20),
                (unsigned long long)c->slot_waits, (unsigned long long)c->big_created,
                (unsigned long long)c->big_reused, (unsigned long long)r->memory.blocks_created,
                (unsigned long long)r->memory.live_allocations,
                (unsigned long long)r->memory.dedicated_allocations);
    }
    /* Out of the registry before anything is torn down: a later device may reuse these
       handles' addresses, and the teardown's messages (leaks at vkDestroyDevice) are this
       thread's device in destruction. */
    registry_remove(r);
    xvk_renderer *outer = tls_current;
    tls_current = r;
    if (r->dev != VK_NULL_HANDLE) {
        if (r->recording && !r->lost) (void)xvk_submit(base);
        (void)vkDeviceWaitIdle(r->dev);
        xvk_swapchain_destroy(r);
        xgdi_retire_flush_all(&base->retired, base);
        if (r->back_buffer != NULL) xvk_texture_free_now(r, r->back_buffer);
        if (r->dummy_texture != NULL) xvk_texture_free_now(r, r->dummy_texture);
        if (r->dummy_volume != NULL) xvk_texture_free_now(r, r->dummy_volume);
        xgdi_retire_flush_all(&base->retired, base);
        xvk_pipelines_destroy(r);
        xvk_query_pools_destroy(r);
        if (r->defaults_buffer) vkDestroyBuffer(r->dev, r->defaults_buffer, NULL);
        xvk_mem_free(r, &r->defaults_mem);
        xvk_spans_destroy(r);
        if (r->ring.buffer) vkDestroyBuffer(r->dev, r->ring.buffer, NULL);
        xvk_mem_free(r, &r->ring.mem);
        for (int i = 0; i < XVK_FRAMES; i++) {
            if (r->frames[i].pool)
                vkDestroyCommandPool(r->dev, r->frames[i].pool, &r->frames[i].arena.callbacks);
            xvk_cmd_arena_release(&r->frames[i].arena);
        }
        if (r->timeline) vkDestroySemaphore(r->dev, r->timeline, NULL);
        xvk_mem_destroy_all(r);
        vkDestroyDevice(r->dev, NULL);
    }
    xgdi_retire_free(&base->retired);
    free(r->ring.marks);
    /* the instance and its messenger are the process's (shared_instance): never destroyed */
    tls_current = outer;
    free(r);
}

static void xvk_get_caps(xgdi_renderer *base, xgdi_caps *out)
{
    xvk_renderer *r = xvk_cast(base);
    memset(out, 0, sizeof *out);
    out->adapter_name = r->adapter_name;
    out->max_texture_size = (int)r->props.limits.maxImageDimension2D;
    if (out->max_texture_size > 16384) out->max_texture_size = 16384;
    int mrt = (int)r->props.limits.maxColorAttachments;
    out->max_render_targets = mrt < XVK_MAX_TARGETS ? mrt : XVK_MAX_TARGETS;
    out->max_multisample_count = r->max_samples;
    memcpy(out->formats, r->support, sizeof out->formats);
    out->depth_formats[XGD_DEPTH_FORMAT_NONE] = true;
    for (int d = XGD_DEPTH_FORMAT_DEPTH16; d < XGD_DEPTH_FORMAT_COUNT; d++)
        out->depth_formats[d] = r->depth_vk[d] != VK_FORMAT_UNDEFINED;
    /* A scissor of zero extent is valid Vulkan and covers no pixel (measured on lavapipe). */
    out->zero_scissor = XGD_ZERO_SCISSOR_CLIPS_ALL;
    out->back_buffer_readback = true;
    out->present_to_window = xvk_can_present(r);
}

static xgd_result xvk_reset_back_buffer(xgdi_renderer *base, const xgd_presentation_parameters *pp)
{
    xvk_renderer *r = xvk_cast(base);
    xvk_end_rendering(r);
    xgdi_native_texture *nb = NULL;
    xgd_result res = make_back_buffer(r, pp, &nb);
    if (res != XGD_OK) return res;
    xvk_texture_destroy(base, r->back_buffer);
    r->back_buffer = nb;
    bind_back_buffer(r);
    /* a Reset onto another window (or none): the old window's swap chain goes while that
       window is still open, as core closes it after this call */
    xvk_swapchain_follow_window(r);
    return XGD_OK;
}

static xgd_result xvk_read_back_buffer(xgdi_renderer *base, const xgd_rect *rect, void *rgba)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->back_buffer == NULL)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "vulkan: no back buffer");
    return xvk_texture_download(base, r->back_buffer, 0, 0, rect, rgba, (size_t)rect->width * 4);
}

static xgd_result xvk_present(xgdi_renderer *base, int swap_interval)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xvk_end_rendering(r);
    if (r->back_buffer != NULL && r->back_buffer->samples > 1 && r->back_buffer->ms_dirty[0]) {
        VkCommandBuffer cmd = xvk_cmd(r);
        if (cmd == VK_NULL_HANDLE) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
        xvk_texture_resolve(r, cmd, r->back_buffer, 0);
    }
    xgd_result res = base->window != NULL ? xvk_present_window(r, swap_interval, xvk_submit)
                                          : xvk_submit(base); /* headless: nothing to show */
    if (res != XGD_OK || r->recording) return res;
    const uint64_t frame_use = r->ring.head - r->ring.frame_head;
    ring_grow(r);
    ring_rewind(r, frame_use);
    ring_prefault(&r->ring, frame_use); /* the ring kept, or a new one from its start */
    /* The next frame's slot held the frame before this one: when the GPU still runs it, wait
       here, as Direct3D 9 and XNA block in Present when the GPU is behind, rather than in the
       next frame's first draw (xvk_cmd), so that draws never wait for a frame slot. */
    return xvk_wait_value(r, r->frames[r->frame_index].fence);
}

static xgd_result xvk_op_set_render_targets(xgdi_renderer *base, const xgdi_target *targets,
                                            int count)
{
    xvk_renderer *r = xvk_cast(base);
    if (count <= 0 || targets == NULL) {
        xvk_end_rendering(r);
        bind_back_buffer(r);
        return XGD_OK;
    }
    return xvk_set_render_targets(base, targets, count);
}

const xgdi_renderer_ops xgdi_vulkan_renderer_ops = {
    .name = "vulkan",
    .kind = XGD_RENDERER_VULKAN,
    .upload_streams = true,
    .instanced_quads = true,
    .create = xvk_create,
    .destroy = xvk_destroy,
    .get_caps = xvk_get_caps,
    .reset_back_buffer = xvk_reset_back_buffer,
    .texture_create = xvk_texture_create,
    .texture_destroy = xvk_texture_destroy,
    .texture_upload = xvk_texture_upload,
    .texture_download = xvk_texture_download,
    .texture_upload_volume = xvk_texture_upload_volume,
    .texture_download_volume = xvk_texture_download_volume,
    .texture_finalize = xvk_texture_finalize,
    .buffer_create = xvk_buffer_create,
    .buffer_destroy = xvk_buffer_destroy,
    .buffer_upload = xvk_buffer_upload,
    .buffer_download = xvk_buffer_download,
    .set_render_targets = xvk_op_set_render_targets,
    .clear = xvk_clear,
    .draw = xvk_draw,
    .user_draw_fast = xvk_user_draw_fast,
    .read_back_buffer = xvk_read_back_buffer,
    .present = xvk_present,
    .submit = xvk_submit,
    .completed_fence = xvk_completed_fence,
    .wait_fence = xvk_wait_fence,
    .get_statistics = xvk_get_statistics,
    .query_create = xvk_query_create,
    .query_destroy = xvk_query_destroy,
    .query_begin = xvk_query_begin,
    .query_end = xvk_query_end,
    .query_result = xvk_query_result,
    .shader_create = xvk_shader_create,
    .shader_destroy = xvk_shader_destroy,
    .reserve_vertices = xvk_reserve_vertices,
    .draw_quad_runs = xvk_draw_quad_runs,
};
