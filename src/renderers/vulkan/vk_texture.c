/*
 * vk_texture.c - textures, render targets and buffers of the Vulkan renderer: format
 * classification, creation, uploads and synchronous downloads through spans (vk_transfer.c),
 * MSAA resolve and mip generation at finalisation (spec 000/001).
 */
#include "vk_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- formats ---- */

static const VkComponentMapping identity_swizzle = {
    VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
    VK_COMPONENT_SWIZZLE_IDENTITY };

static bool vk_format_has(xvk_renderer *r, VkFormat f, VkFormatFeatureFlags want)
{
    VkFormatProperties p;
    vkGetPhysicalDeviceFormatProperties(r->phys, f, &p);
    return (p.optimalTilingFeatures & want) == want;
}

static bool vk_format_multisample(xvk_renderer *r, VkFormat f, VkImageUsageFlags usage, int samples)
{
    VkImageFormatProperties ip;
    if (vkGetPhysicalDeviceImageFormatProperties(r->phys, f, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                 usage, 0, &ip) != VK_SUCCESS)
        return false;
    return (ip.sampleCounts & (VkSampleCountFlags)samples) != 0;
}

/* Texture3D support (xgd_format_support.volume): a sampled, copyable VK_IMAGE_TYPE_3D image
   of the format as large as XNA HiDef allows (256 per dimension) with its full mip chain.
   Format features alone do not say it: block-compressed 3D images are optional. */
static bool vk_format_volume(xvk_renderer *r, VkFormat f)
{
    VkImageFormatProperties ip;
    if (vkGetPhysicalDeviceImageFormatProperties(r->phys, f, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL,
                                                 VK_IMAGE_USAGE_SAMPLED_BIT |
                                                     VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                 0, &ip) != VK_SUCCESS)
        return false;
    return ip.maxExtent.width >= 256 && ip.maxExtent.height >= 256 && ip.maxExtent.depth >= 256 &&
           ip.maxMipLevels >= 9;
}

void xvk_classify_formats(xvk_renderer *r)
{
    /* Bit layouts from xgd.h against Vulkan's packed names (most significant field first):
       Bgr565 (r 11-15, g 5-10, b 0-4) = R5G6B5_UNORM_PACK16; Bgra5551 (a 15, r 10-14, g 5-9,
       b 0-4) = A1R5G5B5_UNORM_PACK16; Bgra4444 (a 12-15, r 8-11, g 4-7, b 0-3) =
       A4R4G4B4_UNORM_PACK16; Rgba1010102 (a 30-31, b 20-29, g 10-19, r 0-9) =
       A2B10G10R10_UNORM_PACK32. */
    static const VkFormat map[XGD_SURFACE_FORMAT_COUNT] = {
        [XGD_SURFACE_FORMAT_COLOR] = VK_FORMAT_R8G8B8A8_UNORM,
        [XGD_SURFACE_FORMAT_BGR565] = VK_FORMAT_R5G6B5_UNORM_PACK16,
        [XGD_SURFACE_FORMAT_BGRA5551] = VK_FORMAT_A1R5G5B5_UNORM_PACK16,
        [XGD_SURFACE_FORMAT_BGRA4444] = VK_FORMAT_A4R4G4B4_UNORM_PACK16,
        [XGD_SURFACE_FORMAT_DXT1] = VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
        [XGD_SURFACE_FORMAT_DXT3] = VK_FORMAT_BC2_UNORM_BLOCK,
        [XGD_SURFACE_FORMAT_DXT5] = VK_FORMAT_BC3_UNORM_BLOCK,
        [XGD_SURFACE_FORMAT_NORMALIZED_BYTE2] = VK_FORMAT_R8G8_SNORM,
        [XGD_SURFACE_FORMAT_NORMALIZED_BYTE4] = VK_FORMAT_R8G8B8A8_SNORM,
        [XGD_SURFACE_FORMAT_RGBA1010102] = VK_FORMAT_A2B10G10R10_UNORM_PACK32,
        [XGD_SURFACE_FORMAT_RG32] = VK_FORMAT_R16G16_UNORM,
        [XGD_SURFACE_FORMAT_RGBA64] = VK_FORMAT_R16G16B16A16_UNORM,
        [XGD_SURFACE_FORMAT_ALPHA8] = VK_FORMAT_R8_UNORM,
        [XGD_SURFACE_FORMAT_SINGLE] = VK_FORMAT_R32_SFLOAT,
        [XGD_SURFACE_FORMAT_VECTOR2] = VK_FORMAT_R32G32_SFLOAT,
        [XGD_SURFACE_FORMAT_VECTOR4] = VK_FORMAT_R32G32B32A32_SFLOAT,
        [XGD_SURFACE_FORMAT_HALF_SINGLE] = VK_FORMAT_R16_SFLOAT,
        [XGD_SURFACE_FORMAT_HALF_VECTOR2] = VK_FORMAT_R16G16_SFLOAT,
        [XGD_SURFACE_FORMAT_HALF_VECTOR4] = VK_FORMAT_R16G16B16A16_SFLOAT,
        [XGD_SURFACE_FORMAT_HDR_BLENDABLE] = VK_FORMAT_R16G16B16A16_SFLOAT,
    };
    const VkFormatFeatureFlags tex = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                     VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                     VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    for (int f = XGD_SURFACE_FORMAT_COLOR; f < XGD_SURFACE_FORMAT_COUNT; f++) {
        VkFormat vf = map[f];
        r->surface_swizzle[f] = identity_swizzle;
        xgd_format_support *s = &r->support[f];
        memset(s, 0, sizeof *s);
        if (!vk_format_has(r, vf, tex)) {
            r->surface_vk[f] = VK_FORMAT_UNDEFINED;
            continue;
        }
        r->surface_vk[f] = vf;
        s->texture = true;
        s->filterable = vk_format_has(r, vf, VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
        s->max_anisotropy = s->filterable ? r->max_anisotropy : 0;
        s->volume = vk_format_volume(r, vf);
        if (f == XGD_SURFACE_FORMAT_ALPHA8) {
            /* sampled as (0,0,0,a); a swizzled view cannot be an attachment, so no target */
            r->surface_swizzle[f] = (VkComponentMapping){ VK_COMPONENT_SWIZZLE_ZERO,
                                                          VK_COMPONENT_SWIZZLE_ZERO,
                                                          VK_COMPONENT_SWIZZLE_ZERO,
                                                          VK_COMPONENT_SWIZZLE_R };
            continue;
        }
        bool dxt = f == XGD_SURFACE_FORMAT_DXT1 || f == XGD_SURFACE_FORMAT_DXT3 ||
                   f == XGD_SURFACE_FORMAT_DXT5;
        if (dxt) continue;
        s->render_target = vk_format_has(r, vf, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT);
        s->blendable = s->render_target &&
                       vk_format_has(r, vf, VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BLEND_BIT);
        s->multisample = s->render_target &&
                         vk_format_multisample(r, vf, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                          VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 4);
    }
    /* XNA guarantees Bgr565, Bgra5551 and Bgra4444 textures in both profiles. Where the device
       lacks the native format, or its 5- and 6-bit fields, the texels are kept in a wider unorm
       format and converted at upload and readback (bit-exact round trips; samples v/m, within
       0.5/65535 for 5- and 6-bit fields). Native 5- and 6-bit fields are never used: GPUs
       expand them by bit replication ((v << 3) | (v >> 2)), one 8-bit step off v/31 for a
       quarter of the values (3/31 samples 24/255, not 25/255), measured on Mesa's llvmpipe and
       on NVIDIA (H200, driver 580); 4-bit fields replicate to v * 17, which is exact.
       A widened format is no render target: XNA lets render-target formats vary per device,
       and such a request falls back to Color. */
    static const VkFormat packed_vk[3] = { VK_FORMAT_R5G6B5_UNORM_PACK16,
                                           VK_FORMAT_A1R5G5B5_UNORM_PACK16,
                                           VK_FORMAT_A4R4G4B4_UNORM_PACK16 };
    static const xgd_surface_format packed[3] = { XGD_SURFACE_FORMAT_BGR565,
                                                  XGD_SURFACE_FORMAT_BGRA5551,
                                                  XGD_SURFACE_FORMAT_BGRA4444 };
    for (int i = 0; i < 3; i++) {
        xgd_surface_format f = packed[i], w = xgdi_packed_wide_format(f);
        r->widened[f] = false;
        bool exact = w != XGD_SURFACE_FORMAT_RGBA64; /* 4-bit fields only */
        if (r->surface_vk[f] == packed_vk[i] && r->support[f].filterable && exact) continue;
        if (r->surface_vk[w] == VK_FORMAT_UNDEFINED || !r->support[w].filterable) continue;
        r->widened[f] = true;
        r->surface_vk[f] = r->surface_vk[w];
        r->surface_swizzle[f] = identity_swizzle;
        memset(&r->support[f], 0, sizeof r->support[f]);
        r->support[f].texture = r->support[f].filterable = true;
        r->support[f].volume = r->support[w].volume;
        r->support[f].max_anisotropy = r->support[w].max_anisotropy;
    }
    /* depth: D24 has no Vulkan format of its own worth relying on; D24S8 is widely there, and
       D32_SFLOAT_S8_UINT stands in where it is not */
    const VkFormatFeatureFlags ds = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    r->depth_vk[XGD_DEPTH_FORMAT_NONE] = VK_FORMAT_UNDEFINED;
    r->depth_vk[XGD_DEPTH_FORMAT_DEPTH16] = vk_format_has(r, VK_FORMAT_D16_UNORM, ds)
                                                ? VK_FORMAT_D16_UNORM : VK_FORMAT_UNDEFINED;
    VkFormat d24 = vk_format_has(r, VK_FORMAT_D24_UNORM_S8_UINT, ds) ? VK_FORMAT_D24_UNORM_S8_UINT
                   : vk_format_has(r, VK_FORMAT_D32_SFLOAT_S8_UINT, ds) ? VK_FORMAT_D32_SFLOAT_S8_UINT
                                                                        : VK_FORMAT_UNDEFINED;
    r->depth_vk[XGD_DEPTH_FORMAT_DEPTH24] = d24;
    r->depth_vk[XGD_DEPTH_FORMAT_DEPTH24_STENCIL8] = d24;
    /* colour sample counts: the highest of 2/4/8 that colour and depth attachments share */
    VkSampleCountFlags both = r->props.limits.framebufferColorSampleCounts &
                              r->props.limits.framebufferDepthSampleCounts &
                              r->props.limits.framebufferStencilSampleCounts;
    r->max_samples = 1;
    for (int s = 2; s <= 8; s *= 2)
        if (both & (VkSampleCountFlags)s) r->max_samples = s;
}

/* The supported count nearest above the request (lavapipe: 1 and 4 only), else the highest. */
static int pick_samples(xvk_renderer *r, int want)
{
    if (want <= 1) return 1;
    VkSampleCountFlags both = r->props.limits.framebufferColorSampleCounts &
                              r->props.limits.framebufferDepthSampleCounts;
    for (int s = want; s <= 8; s *= 2)
        if (both & (VkSampleCountFlags)s) return s;
    return r->max_samples;
}

/* ---- images ---- */

/* A 2D image (depth 0), or a VK_IMAGE_TYPE_3D image of `depth` slices (depth >= 1). */
static xgd_result make_image_typed(xvk_renderer *r, VkFormat format, int w, int h, int depth,
                                   int levels, int layers, bool cube, int samples,
                                   VkImageUsageFlags usage, VkImage *image, xvk_alloc *mem,
                                   const char *name)
{
    VkImageCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                             .flags = cube ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT : 0,
                             .imageType = depth > 0 ? VK_IMAGE_TYPE_3D : VK_IMAGE_TYPE_2D,
                             .format = format,
                             .extent = { (uint32_t)w, (uint32_t)h, depth > 0 ? (uint32_t)depth : 1u },
                             .mipLevels = (uint32_t)levels, .arrayLayers = (uint32_t)layers,
                             .samples = (VkSampleCountFlagBits)samples,
                             .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
                             .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
    VkResult vr = vkCreateImage(r->dev, &ci, NULL, image);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(r->dev, *image, &req);
    xgd_result res = xvk_mem_alloc(r, &req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, mem);
    if (res != XGD_OK) {
        vkDestroyImage(r->dev, *image, NULL);
        *image = VK_NULL_HANDLE;
        return res;
    }
    vr = vkBindImageMemory(r->dev, *image, mem->memory, mem->offset);
    if (vr != VK_SUCCESS) return xvk_check(r, vr, "vkBindImageMemory");
    xvk_set_name(r, VK_OBJECT_TYPE_IMAGE, (uint64_t)(uintptr_t)*image, name);
    return XGD_OK;
}

static xgd_result make_image(xvk_renderer *r, VkFormat format, int w, int h, int levels, int layers,
                             bool cube, int samples, VkImageUsageFlags usage, VkImage *image,
                             xvk_alloc *mem, const char *name)
{
    return make_image_typed(r, format, w, h, 0, levels, layers, cube, samples, usage, image, mem,
                            name);
}

static xgd_result make_view(xvk_renderer *r, VkImage image, VkImageViewType type, VkFormat format,
                            VkComponentMapping swz, VkImageAspectFlags aspect, int base_level,
                            int levels, int base_layer, int layers, VkImageView *out)
{
    VkImageViewCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = image,
                                 .viewType = type, .format = format, .components = swz,
                                 .subresourceRange = { aspect, (uint32_t)base_level, (uint32_t)levels,
                                                       (uint32_t)base_layer, (uint32_t)layers } };
    return xvk_check(r, vkCreateImageView(r->dev, &vi, NULL, out), "vkCreateImageView");
}

/* UNDEFINED -> GENERAL for the whole image, and a defined start (zeros; software's calloc). */
static void init_image(xvk_renderer *r, VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                       bool clear, bool depth)
{
    VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .srcAccessMask = 0,
                               .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = image,
                               .subresourceRange = { aspect, 0, VK_REMAINING_MIP_LEVELS, 0,
                                                     VK_REMAINING_ARRAY_LAYERS } };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         0, 0, NULL, 0, NULL, 1, &b);
    if (clear) {
        VkImageSubresourceRange range = b.subresourceRange;
        if (depth) {
            VkClearDepthStencilValue z = { 0.0f, 0 };
            vkCmdClearDepthStencilImage(cmd, image, VK_IMAGE_LAYOUT_GENERAL, &z, 1, &range);
        } else {
            VkClearColorValue c;
            memset(&c, 0, sizeof c);
            vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_GENERAL, &c, 1, &range);
        }
        r->hazard = true;
    }
}

void xvk_texture_free_now(xvk_renderer *r, xgdi_native_texture *t)
{
    if (t == NULL) return;
    /* views before the images they borrow (framebuffer-like objects first, spec 001) */
    if (t->rt_views != NULL)
        for (int i = 0; i < t->faces; i++)
            if (t->rt_views[i]) vkDestroyImageView(r->dev, t->rt_views[i], NULL);
    if (t->ms_views != NULL)
        for (int i = 0; i < t->faces; i++)
            if (t->ms_views[i]) vkDestroyImageView(r->dev, t->ms_views[i], NULL);
    if (t->level_views != NULL)
        for (int i = 0; i < t->faces * t->desc.levels; i++)
            if (t->level_views[i]) vkDestroyImageView(r->dev, t->level_views[i], NULL);
    if (t->depth_view) vkDestroyImageView(r->dev, t->depth_view, NULL);
    if (t->view) vkDestroyImageView(r->dev, t->view, NULL);
    /* A debug name outlives its object in the validation layer unless it is cleared (the
       layer keys names by handle and drops one only when it is set to NULL), so named images
       are unnamed before they go: a device that churns images would otherwise grow the
       layer's table by a name per image. */
    if (r->set_name != NULL) {
        const VkImage named[3] = { t->image, t->ms_image, t->depth_image };
        for (int i = 0; i < 3; i++) {
            if (named[i] == VK_NULL_HANDLE) continue;
            VkDebugUtilsObjectNameInfoEXT ni = {
                .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                .objectType = VK_OBJECT_TYPE_IMAGE, .objectHandle = (uint64_t)(uintptr_t)named[i],
                .pObjectName = NULL };
            (void)r->set_name(r->dev, &ni);
        }
    }
    if (t->image) vkDestroyImage(r->dev, t->image, NULL);
    if (t->ms_image) vkDestroyImage(r->dev, t->ms_image, NULL);
    if (t->depth_image) vkDestroyImage(r->dev, t->depth_image, NULL);
    xvk_mem_free(r, &t->mem);
    xvk_mem_free(r, &t->ms_mem);
    xvk_mem_free(r, &t->depth_mem);
    free(t->rt_views);
    free(t->ms_views);
    free(t->level_views);
    free(t);
}

xgd_result xvk_texture_create(xgdi_renderer *base, const xgdi_texture_desc *desc,
                              xgdi_native_texture **out)
{
    xvk_renderer *r = xvk_cast(base);
    *out = NULL;
    if ((unsigned)desc->format >= XGD_SURFACE_FORMAT_COUNT ||
        r->surface_vk[desc->format] == VK_FORMAT_UNDEFINED)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "vulkan: format %d is not supported",
                         (int)desc->format);
    if (desc->render_target && !r->support[desc->format].render_target)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: format %d cannot be rendered to", (int)desc->format);
    if (desc->volume && (!r->support[desc->format].volume || desc->cube || desc->render_target))
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED,
                         "vulkan: format %d cannot be a volume texture", (int)desc->format);
    xvk_end_rendering(r); /* image barriers below cannot sit inside a rendering scope */
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    xgdi_native_texture *t = calloc(1, sizeof *t);
    if (t == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    t->desc = *desc;
    t->desc.debug_name = NULL;
    t->filterable = r->support[desc->format].filterable;
    t->faces = desc->cube ? 6 : 1;
    t->layers = t->faces;
    t->format = r->surface_vk[desc->format];
    t->store = r->widened[desc->format] ? xgdi_packed_wide_format(desc->format) : desc->format;
    const xgdi_format_info *fi = xgdi_format_info_of(desc->format);
    t->is_dxt = fi != NULL && fi->block_size == 4;
    t->samples = desc->render_target ? pick_samples(r, desc->samples) : 1;
    const char *name = desc->debug_name ? desc->debug_name : "xgd texture";
    /* labels outlive desc->debug_name (not ours to keep): debug devices keep a copy */
    if (r->cmd_begin_label != NULL && desc->debug_name != NULL)
        (void)snprintf(t->label, sizeof t->label, "%s", desc->debug_name);
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                              VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (desc->render_target) usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    bool compute_mips = xvk_texture_compute_mips(r, desc);
    if (compute_mips) usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    int depth = desc->volume ? (desc->depth > 1 ? desc->depth : 1) : 0;
    xgd_result res = make_image_typed(r, t->format, desc->width, desc->height, depth, desc->levels,
                                      t->layers, desc->cube, 1, usage, &t->image, &t->mem, name);
    VkImageViewType vt = desc->volume ? VK_IMAGE_VIEW_TYPE_3D
                         : desc->cube ? VK_IMAGE_VIEW_TYPE_CUBE
                                      : VK_IMAGE_VIEW_TYPE_2D;
    if (res == XGD_OK)
        res = make_view(r, t->image, vt, t->format, r->surface_swizzle[desc->format],
                        VK_IMAGE_ASPECT_COLOR_BIT, 0, desc->levels, 0, t->layers, &t->view);
    if (res == XGD_OK) init_image(r, cmd, t->image, VK_IMAGE_ASPECT_COLOR_BIT, !t->is_dxt, false);
    if (res == XGD_OK && compute_mips) {
        int n = t->faces * desc->levels;
        t->level_views = calloc((size_t)n, sizeof *t->level_views);
        if (t->level_views == NULL)
            res = xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        for (int i = 0; res == XGD_OK && i < n; i++)
            res = make_view(r, t->image, VK_IMAGE_VIEW_TYPE_2D, t->format, identity_swizzle,
                            VK_IMAGE_ASPECT_COLOR_BIT, i % desc->levels, 1, i / desc->levels, 1,
                            &t->level_views[i]);
    }
    if (res == XGD_OK && desc->render_target) {
        t->rt_views = calloc((size_t)t->faces, sizeof *t->rt_views);
        if (t->rt_views == NULL) res = xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        for (int f = 0; res == XGD_OK && f < t->faces; f++)
            res = make_view(r, t->image, VK_IMAGE_VIEW_TYPE_2D, t->format, identity_swizzle,
                            VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, f, 1, &t->rt_views[f]);
        if (res == XGD_OK && t->samples > 1) {
            res = make_image(r, t->format, desc->width, desc->height, 1, t->layers, false, t->samples,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                 VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                             &t->ms_image, &t->ms_mem, name);
            if (res == XGD_OK) {
                t->ms_views = calloc((size_t)t->faces, sizeof *t->ms_views);
                if (t->ms_views == NULL)
                    res = xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
            }
            for (int f = 0; res == XGD_OK && f < t->faces; f++)
                res = make_view(r, t->ms_image, VK_IMAGE_VIEW_TYPE_2D, t->format, identity_swizzle,
                                VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, f, 1, &t->ms_views[f]);
            if (res == XGD_OK) init_image(r, cmd, t->ms_image, VK_IMAGE_ASPECT_COLOR_BIT, true, false);
        }
        if (res == XGD_OK && desc->depth_format != XGD_DEPTH_FORMAT_NONE &&
            desc->depth_format != XGD_DEPTH_FORMAT_DEFAULT) {
            t->depth_vk = r->depth_vk[desc->depth_format];
            if (t->depth_vk == VK_FORMAT_UNDEFINED)
                res = xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "vulkan: depth format %d",
                                (int)desc->depth_format);
            t->has_stencil = t->depth_vk != VK_FORMAT_D16_UNORM;
            VkImageAspectFlags aspect = VK_IMAGE_ASPECT_DEPTH_BIT |
                                        (t->has_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
            if (res == XGD_OK)
                res = make_image(r, t->depth_vk, desc->width, desc->height, 1, 1, false, t->samples,
                                 VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                 &t->depth_image, &t->depth_mem, name);
            if (res == XGD_OK)
                res = make_view(r, t->depth_image, VK_IMAGE_VIEW_TYPE_2D, t->depth_vk, identity_swizzle,
                                aspect, 0, 1, 0, 1, &t->depth_view);
            if (res == XGD_OK) init_image(r, cmd, t->depth_image, aspect, true, true);
        }
    }
    if (res != XGD_OK) {
        /* nothing recorded references the new objects except the layout barrier/clear, which
           the frame will still execute: retire instead of freeing now */
        xvk_texture_destroy(base, t);
        return res;
    }
    r->hazard = true;
    *out = t;
    return XGD_OK;
}

static void retired_texture(xgdi_renderer *base, void *object)
{
    xvk_texture_free_now(xvk_cast(base), object);
}

void xvk_texture_destroy(xgdi_renderer *base, xgdi_native_texture *t)
{
    if (t == NULL) return;
    xvk_renderer *r = xvk_cast(base);
    for (int i = 0; i < r->target_count; i++) {
        if (r->targets[i].texture == t) {
            xvk_end_rendering(r);
            memset(r->targets, 0, sizeof r->targets);
            r->targets[0].texture = r->back_buffer;
            r->target_count = 1;
            r->targets_gen++;
            break;
        }
    }
    xvk_retire(r, retired_texture, t);
}

/* ---- upload / download: one box path for 2D, cube and volume textures ---- */

/* The copy of a box of one subresource: a 2D or cube face is array layer `face` with z 0..1,
   a volume's box has its own z offset and depth (layer 0). Extents are texels (DXT edges as
   the level clips them). */
static VkBufferImageCopy box_copy(const xgd_box *b, int face, int level, VkDeviceSize offset)
{
    VkBufferImageCopy c = { .bufferOffset = offset,
                            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)level, (uint32_t)face, 1 },
                            .imageOffset = { b->left, b->top, b->front },
                            .imageExtent = { (uint32_t)(b->right - b->left), (uint32_t)(b->bottom - b->top),
                                             (uint32_t)(b->back - b->front) } };
    return c;
}

static void box_label(xvk_renderer *r, VkCommandBuffer cmd, const char *verb,
                      const xgdi_native_texture *t, int face, int level, const xgd_box *b)
{
    if (t->desc.volume)
        xvk_label_insertf(r, cmd, "%s %s level %d box (%d,%d,%d)-(%d,%d,%d)", verb,
                          t->label[0] ? t->label : "volume texture", level, b->left, b->top,
                          b->front, b->right, b->bottom, b->back);
    else
        xvk_label_insertf(r, cmd, "%s %s face %d level %d (%d,%d %dx%d)", verb,
                          t == r->back_buffer ? "back buffer" : t->label[0] ? t->label : "texture",
                          face, level, b->left, b->top, b->right - b->left, b->bottom - b->top);
}

/* Records the copy of a box into face/level through staging: rows row_pitch apart (block rows
   for DXT), slices slice_pitch apart. A multisampled target's samples follow its level 0. */
static xgd_result upload_box(xvk_renderer *r, xgdi_native_texture *t, int face, int level,
                             const xgd_box *box, const uint8_t *src, size_t row_pitch,
                             size_t slice_pitch)
{
    const xgdi_format_info *fi = xgdi_format_info_of(t->store); /* as the image holds them */
    int bs = fi->block_size, w = box->right - box->left;
    size_t es = (size_t)fi->element_size;
    size_t row_bytes = xgdi_format_row_size(t->store, w);
    int rows = (box->bottom - box->top + bs - 1) / bs, slices = box->back - box->front;
    size_t slice_bytes = row_bytes * (size_t)rows;
    bool widen = t->store != t->desc.format;
    xvk_end_rendering(r);
    /* staging first: a full ring may submit the open frame, so the command buffer is fetched
       only afterwards */
    xvk_span s;
    if (!xvk_span_alloc(r, (uint64_t)slice_bytes * (uint64_t)slices, es < 4 ? 4 : es, false, &s))
        return xgdi_failure(r->base.device);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) {
        xvk_span_release(r, &s);
        return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    }
    for (int z = 0; z < slices; z++)
        for (int y = 0; y < rows; y++) {
            uint8_t *to = s.ptr + (size_t)z * slice_bytes + (size_t)y * row_bytes;
            const uint8_t *from = src + (size_t)z * slice_pitch + (size_t)y * row_pitch;
            if (widen) xgdi_packed_widen_row(t->desc.format, from, w, to);
            else memcpy(to, from, row_bytes);
        }
    xvk_barrier(r, cmd);
    box_label(r, cmd, "upload", t, face, level, box);
    VkBufferImageCopy c = box_copy(box, face, level, s.offset);
    vkCmdCopyBufferToImage(cmd, s.buffer, t->image, VK_IMAGE_LAYOUT_GENERAL, 1, &c);
    /* recorded into the open frame: released at its fence */
    xvk_span_release(r, &s);
    r->hazard = true;
    if (t->samples > 1 && level == 0) xvk_refill_samples(r, t, face);
    return XGD_OK;
}

/* Synchronous read of a box of face/level (a multisampled target's resolved image). */
static xgd_result download_box(xvk_renderer *r, xgdi_native_texture *t, int face, int level,
                               const xgd_box *box, uint8_t *dst, size_t row_pitch,
                               size_t slice_pitch)
{
    const xgdi_format_info *fi = xgdi_format_info_of(t->store); /* as the image holds them */
    int bs = fi->block_size, w = box->right - box->left;
    size_t es = (size_t)fi->element_size;
    size_t row_bytes = xgdi_format_row_size(t->store, w);
    int rows = (box->bottom - box->top + bs - 1) / bs, slices = box->back - box->front;
    size_t slice_bytes = row_bytes * (size_t)rows;
    bool narrow = t->store != t->desc.format;
    xvk_end_rendering(r);
    xvk_span s;
    if (!xvk_span_alloc(r, (uint64_t)slice_bytes * (uint64_t)slices, es < 4 ? 4 : es, true, &s))
        return xgdi_failure(r->base.device);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) {
        xvk_span_release(r, &s);
        return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    }
    if (level == 0 && t->samples > 1 && t->ms_dirty[face]) xvk_texture_resolve(r, cmd, t, face);
    xvk_barrier(r, cmd);
    box_label(r, cmd, "read back", t, face, level, box);
    VkBufferImageCopy c = box_copy(box, face, level, s.offset);
    vkCmdCopyImageToBuffer(cmd, t->image, VK_IMAGE_LAYOUT_GENERAL, s.buffer, 1, &c);
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_HOST_READ_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                         0, NULL, 0, NULL);
    /* The wait below also frees whatever was retired up to this submission; the span is not
       among them (released only after the copy out of it), so its memory is still there. */
    xgd_result res = xvk_submit_and_wait(r);
    if (res == XGD_OK)
        for (int z = 0; z < slices; z++)
            for (int y = 0; y < rows; y++) {
                uint8_t *to = dst + (size_t)z * slice_pitch + (size_t)y * row_pitch;
                const uint8_t *from = s.ptr + (size_t)z * slice_bytes + (size_t)y * row_bytes;
                if (narrow) xgdi_packed_narrow_row(t->desc.format, from, w, to);
                else memcpy(to, from, row_bytes);
            }
    xvk_span_release(r, &s);
    return res;
}

xgd_result xvk_texture_upload(xgdi_renderer *base, xgdi_native_texture *t, int face, int level,
                              const xgd_rect *rect, const void *data, size_t row_pitch)
{
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: upload to face %d level %d outside the texture", face, level);
    /* one slice: its pitch is never used */
    return upload_box(xvk_cast(base), t, face, level, &box, data, row_pitch, 0);
}

void xvk_texture_resolve(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_texture *t, int face)
{
    if (t->samples <= 1) return;
    xvk_barrier(r, cmd);
    xvk_label_insertf(r, cmd, "resolve %s face %d", t->label[0] ? t->label : "render target", face);
    VkImageResolve rs = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, (uint32_t)face, 1 },
                          .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, (uint32_t)face, 1 },
                          .extent = { (uint32_t)t->desc.width, (uint32_t)t->desc.height, 1 } };
    vkCmdResolveImage(cmd, t->ms_image, VK_IMAGE_LAYOUT_GENERAL, t->image, VK_IMAGE_LAYOUT_GENERAL, 1, &rs);
    r->hazard = true;
    t->ms_dirty[face] = false;
}

xgd_result xvk_texture_download(xgdi_renderer *base, xgdi_native_texture *t, int face, int level,
                                const xgd_rect *rect, void *data, size_t row_pitch)
{
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: download from face %d level %d outside the texture", face, level);
    return download_box(xvk_cast(base), t, face, level, &box, data, row_pitch, 0);
}

/* Volumes (Texture3D): a box of one level of layer 0, through the same path. */
xgd_result xvk_texture_upload_volume(xgdi_renderer *base, xgdi_native_texture *t, int level,
                                     const xgd_box *box, const void *data, size_t row_pitch,
                                     size_t slice_pitch)
{
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: volume upload to level %d outside the texture", level);
    return upload_box(xvk_cast(base), t, 0, level, box, data, row_pitch, slice_pitch);
}

xgd_result xvk_texture_download_volume(xgdi_renderer *base, xgdi_native_texture *t, int level,
                                       const xgd_box *box, void *data, size_t row_pitch,
                                       size_t slice_pitch)
{
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: volume download from level %d outside the texture", level);
    return download_box(xvk_cast(base), t, 0, level, box, data, row_pitch, slice_pitch);
}

/* Box-filtered mips by a blit chain: level n+1 (floor(w/2) x floor(h/2)) from level n with
   linear filtering. The source region is the even-sized 2w' x 2h' corner (w' when a side is
   already 1), so every step scales by exactly 2 (or 1) and each destination texel is the 2x2
   average of texels (2x + i, 2y + j): the box rule of the software renderer and blit.hlsl,
   which leave an odd last column or row out. A blit over the whole odd level would weigh it
   in (RenderTarget_MipGenerationOddSize). */
static int even_source(int size, int level)
{
    int src = xgdi_mip_dim(size, level - 1), dst = xgdi_mip_dim(size, level);
    return src == 1 ? 1 : 2 * dst;
}

bool xvk_texture_compute_mips(const xvk_renderer *r, const xgdi_texture_desc *d)
{
    /* only render targets regenerate their chains (at finalisation) */
    return r->mips_pipeline != VK_NULL_HANDLE && d->render_target &&
           d->format == XGD_SURFACE_FORMAT_COLOR &&
           r->surface_vk[XGD_SURFACE_FORMAT_COLOR] == VK_FORMAT_R8G8B8A8_UNORM && d->levels > 1 &&
           !d->volume;
}

/* Levels shaders/mips.comp writes per dispatch: a workgroup's 32x32 tile of the first reduces
   to 1x1 in the sixth. */
enum { MIPS_PER_DISPATCH = 6, MIPS_TILE = 32 };

/*
 * The chain by compute (shaders/mips.comp, which states the rule): levels 1..6 from level 0 in
 * one dispatch, 7..12 from level 6 in the next, and so on, a dispatch's workgroups independent
 * of each other; so a 1024x1024 chain is two dispatches and one barrier instead of ten
 * dependent blits. The image stays in GENERAL, as everywhere in this renderer.
 */
static void generate_mips_compute(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_texture *t, int face)
{
    const int levels = t->desc.levels;
    VkImageView *views = t->level_views + (size_t)face * (size_t)levels;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->mips_pipeline);
    for (int base = 0; base < levels - 1; base += MIPS_PER_DISPATCH) {
        int count = levels - 1 - base < MIPS_PER_DISPATCH ? levels - 1 - base : MIPS_PER_DISPATCH;
        if (base > 0) {
            /* the dispatch before wrote level `base`, which this one reads */
            VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                   .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                   .dstAccessMask = VK_ACCESS_SHADER_READ_BIT };
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
            r->counters.barriers++;
        }
        VkDescriptorImageInfo ii[1 + MIPS_PER_DISPATCH];
        VkWriteDescriptorSet w[1 + MIPS_PER_DISPATCH];
        for (int i = 0; i <= MIPS_PER_DISPATCH; i++) {
            /* bindings past count repeat the last level; the shader writes none of them */
            int level = base + (i < count ? i : count);
            ii[i] = (VkDescriptorImageInfo){ VK_NULL_HANDLE, views[level], VK_IMAGE_LAYOUT_GENERAL };
            w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                           .descriptorType = i == 0 ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                                                                    : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                           .pImageInfo = &ii[i] };
        }
        r->push_descriptor(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->mips_layout, 0, 1 + MIPS_PER_DISPATCH, w);
        xvk_note_descriptors(r, 1);
        int32_t params[3] = { xgdi_mip_dim(t->desc.width, base), xgdi_mip_dim(t->desc.height, base), count };
        vkCmdPushConstants(cmd, r->mips_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof params, params);
        int w1 = xgdi_mip_dim(t->desc.width, base + 1), h1 = xgdi_mip_dim(t->desc.height, base + 1);
        vkCmdDispatch(cmd, (uint32_t)((w1 + MIPS_TILE - 1) / MIPS_TILE),
                      (uint32_t)((h1 + MIPS_TILE - 1) / MIPS_TILE), 1);
        r->counters.mip_dispatches++;
    }
}

static void generate_mips(xvk_renderer *r, VkCommandBuffer cmd, xgdi_native_texture *t, int face)
{
    bool linear = r->support[t->desc.format].filterable;
    xvk_label_insertf(r, cmd, "generate %d mip levels of %s face %d", t->desc.levels - 1,
                      t->label[0] ? t->label : "texture", face);
    if (t->level_views != NULL) {
        /* everything before the chain: the level rendered or uploaded, earlier reads */
        r->hazard = true;
        xvk_barrier(r, cmd);
        generate_mips_compute(r, cmd, t, face);
        r->hazard = true;
        return;
    }
    for (int l = 1; l < t->desc.levels; l++) {
        if (l == 1) {
            /* everything before the chain: the level rendered or uploaded, earlier reads */
            r->hazard = true;
            xvk_barrier(r, cmd);
        } else {
            /* only the blit before touched the chain since: its write of level l - 1 before
               this blit reads it. On the H200 this took a chain in a row from 0.239-0.245 to
               0.203-0.205 ms (xgd-bench), against a full barrier per level. */
            VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                   .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                   .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT };
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                 0, 1, &mb, 0, NULL, 0, NULL);
            r->counters.barriers++;
        }
        VkImageBlit b = { .srcSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)(l - 1), (uint32_t)face, 1 },
                          .srcOffsets = { { 0, 0, 0 },
                                          { even_source(t->desc.width, l), even_source(t->desc.height, l), 1 } },
                          .dstSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)l, (uint32_t)face, 1 },
                          .dstOffsets = { { 0, 0, 0 },
                                          { xgdi_mip_dim(t->desc.width, l), xgdi_mip_dim(t->desc.height, l), 1 } } };
        vkCmdBlitImage(cmd, t->image, VK_IMAGE_LAYOUT_GENERAL, t->image, VK_IMAGE_LAYOUT_GENERAL, 1, &b,
                       linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
    }
    r->hazard = true;
}

xgd_result xvk_texture_finalize(xgdi_renderer *base, xgdi_native_texture *t, int face)
{
    xvk_renderer *r = xvk_cast(base);
    if (face < 0 || face >= t->faces)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT, "vulkan: finalize of face %d", face);
    xvk_end_rendering(r);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    /* always, like the software renderer: results never depend on dirty tracking */
    if (t->samples > 1) {
        t->ms_dirty[face] = true;
        xvk_texture_resolve(r, cmd, t, face);
    }
    if (t->desc.levels > 1 && !t->is_dxt) generate_mips(r, cmd, t, face);
    return XGD_OK;
}

/* ---- buffers ---- */

xgd_result xvk_buffer_create(xgdi_renderer *base, xgdi_buffer_kind kind, size_t size, bool dynamic,
                             xgdi_native_buffer **out)
{
    (void)dynamic;
    xvk_renderer *r = xvk_cast(base);
    *out = NULL;
    xgdi_native_buffer *b = calloc(1, sizeof *b);
    uint8_t *shadow = calloc(1, size > 0 ? size : 1);
    if (b == NULL || shadow == NULL) {
        free(b);
        free(shadow);
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    }
    b->kind = kind;
    b->size = size;
    b->shadow = shadow;
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                              .size = size > 0 ? size : 4,
                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                       (kind == XGDI_BUFFER_INDEX ? VK_BUFFER_USAGE_INDEX_BUFFER_BIT
                                                                  : VK_BUFFER_USAGE_VERTEX_BUFFER_BIT),
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    VkResult vr = vkCreateBuffer(r->dev, &bi, NULL, &b->buffer);
    xgd_result res = xvk_check(r, vr, "vkCreateBuffer");
    if (res == XGD_OK) {
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(r->dev, b->buffer, &req);
        res = xvk_mem_alloc(r, &req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b->mem);
        if (res == XGD_OK)
            res = xvk_check(r, vkBindBufferMemory(r->dev, b->buffer, b->mem.memory, b->mem.offset),
                            "vkBindBufferMemory");
    }
    if (res != XGD_OK) {
        if (b->buffer) vkDestroyBuffer(r->dev, b->buffer, NULL);
        xvk_mem_free(r, &b->mem);
        free(b->shadow);
        free(b);
        return res;
    }
    *out = b;
    return XGD_OK;
}

static void retired_buffer(xgdi_renderer *base, void *object)
{
    xvk_renderer *r = xvk_cast(base);
    xgdi_native_buffer *b = object;
    vkDestroyBuffer(r->dev, b->buffer, NULL);
    xvk_mem_free(r, &b->mem);
    free(b->shadow);
    free(b);
}

void xvk_buffer_destroy(xgdi_renderer *base, xgdi_native_buffer *b)
{
    if (b == NULL) return;
    xvk_retire(xvk_cast(base), retired_buffer, b);
}

xgd_result xvk_buffer_upload(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset,
                             const void *data, size_t size, xgd_set_data_options options)
{
    /* Every option is recorded as a copy in command order, so NONE never disturbs draws
       already recorded and DISCARD / NO_OVERWRITE are correct too (just not cheaper). */
    (void)options;
    xvk_renderer *r = xvk_cast(base);
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: buffer upload [%zu, +%zu) outside %zu bytes", offset, size, b->size);
    if (size == 0) return XGD_OK;
    xvk_end_rendering(r);
    xvk_span s;
    if (!xvk_span_alloc(r, size, 4, false, &s)) return xgdi_failure(base->device);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) {
        xvk_span_release(r, &s);
        return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    }
    memcpy(s.ptr, data, size);
    memcpy(b->shadow + offset, data, size);
    xvk_barrier(r, cmd);
    VkBufferCopy c = { .srcOffset = s.offset, .dstOffset = offset, .size = size };
    vkCmdCopyBuffer(cmd, s.buffer, b->buffer, 1, &c);
    xvk_span_release(r, &s); /* recorded: released at the open frame's fence */
    r->hazard = true;
    return XGD_OK;
}

xgd_result xvk_buffer_download(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset, void *data,
                               size_t size)
{
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "vulkan: buffer download [%zu, +%zu) outside %zu bytes", offset, size, b->size);
    if (size > 0) memcpy(data, b->shadow + offset, size);
    return XGD_OK;
}
