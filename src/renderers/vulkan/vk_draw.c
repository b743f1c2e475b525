/*
 * vk_draw.c - the Vulkan renderer's drawing: the pipeline cache, samplers, render-target binding
 * with dynamic rendering, clears, draws, and the sample fill of multisampled targets.
 */
#include "vk_internal.h"
#include "xvk_spirv.h" /* generated at build time from shaders/ (compile-spirv.sh) */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the workgroup and binding needs of shaders/mips.comp */
enum { XVK_MIPS_THREADS = 256, XVK_MIPS_STORAGE_IMAGES = 6 };

/* ---- shader modules and layouts ---- */

static xgd_result make_module(xvk_renderer *r, const uint32_t *code, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = size, .pCode = code };
    return xvk_check(r, vkCreateShaderModule(r->dev, &ci, NULL, out), "vkCreateShaderModule");
}

xgd_result xvk_pipelines_init(xvk_renderer *r)
{
    /* the sample fill's one binding: the resolved image it reads (shaders/fill_samples.hlsl) */
    VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT,
                                       NULL };
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                           .bindingCount = 1, .pBindings = &b };
    xgd_result res = xvk_check(r, vkCreateDescriptorSetLayout(r->dev, &li, NULL, &r->set_layout),
                               "vkCreateDescriptorSetLayout");
    if (res != XGD_OK) return res;
    VkPipelineLayoutCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1, .pSetLayouts = &r->set_layout };
    res = xvk_check(r, vkCreatePipelineLayout(r->dev, &pi, NULL, &r->pipeline_layout),
                    "vkCreatePipelineLayout");
    if (res != XGD_OK) return res;
    VkPipelineCacheCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO };
    res = xvk_check(r, vkCreatePipelineCache(r->dev, &ci, NULL, &r->pipeline_cache), "vkCreatePipelineCache");
    if (res == XGD_OK) res = xvk_user_init(r);
    if (res != XGD_OK) return res;
    res = make_module(r, xvk_spv_fill_samples_vert, sizeof xvk_spv_fill_samples_vert, &r->fill_vs);
    if (res == XGD_OK)
        res = make_module(r, xvk_spv_fill_samples_frag, sizeof xvk_spv_fill_samples_frag, &r->fill_fs);
    if (res == XGD_OK) res = xvk_mips_init(r);
    if (res != XGD_OK) return res;

    /* (0,0,0,1) for attributes a layout lacks, read through a zero-stride binding */
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 16,
                              .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                              .sharingMode = VK_SHARING_MODE_EXCLUSIVE };
    res = xvk_check(r, vkCreateBuffer(r->dev, &bi, NULL, &r->defaults_buffer), "vkCreateBuffer");
    if (res != XGD_OK) return res;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(r->dev, r->defaults_buffer, &req);
    res = xvk_mem_alloc(r, &req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        &r->defaults_mem);
    if (res != XGD_OK) return res;
    res = xvk_check(r, vkBindBufferMemory(r->dev, r->defaults_buffer, r->defaults_mem.memory,
                                          r->defaults_mem.offset), "vkBindBufferMemory");
    if (res != XGD_OK) return res;
    const float defaults[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    memcpy(r->defaults_mem.mapped, defaults, sizeof defaults);

    /* an unbound texture slot samples (0,0,0,1) (team brief) */
    xgdi_texture_desc d = { .width = 1, .height = 1, .levels = 1, .format = XGD_SURFACE_FORMAT_COLOR,
                            .depth_format = XGD_DEPTH_FORMAT_NONE, .samples = 1,
                            .debug_name = "xgd unbound-slot texture" };
    res = xvk_texture_create(&r->base, &d, &r->dummy_texture);
    if (res != XGD_OK) return res;
    const uint8_t black[4] = { 0, 0, 0, 255 };
    xgd_rect rc = { 0, 0, 1, 1 };
    res = xvk_texture_upload(&r->base, r->dummy_texture, 0, 0, &rc, black, 4);
    if (res != XGD_OK) return res;
    /* and for a shader's Texture3D register: a 1x1x1 volume (a 3D view is needed there) */
    if (!r->support[XGD_SURFACE_FORMAT_COLOR].volume) return XGD_OK;
    d.volume = true;
    d.depth = 1;
    d.debug_name = "xgd unbound-slot volume";
    res = xvk_texture_create(&r->base, &d, &r->dummy_volume);
    if (res != XGD_OK) return res;
    xgd_box one = { 0, 0, 0, 1, 1, 1 };
    return xvk_texture_upload_volume(&r->base, r->dummy_volume, 0, &one, black, 4, 4);
}

xgd_result xvk_mips_init(xvk_renderer *r)
{
    const char *per_level = getenv("XGD_MIPS_PER_LEVEL");
    if (per_level != NULL && per_level[0] != '\0' && strcmp(per_level, "0") != 0) return XGD_OK;
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(r->phys, VK_FORMAT_R8G8B8A8_UNORM, &fp);
    const VkPhysicalDeviceLimits *lim = &r->props.limits;
    if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) ||
        lim->maxComputeWorkGroupInvocations < XVK_MIPS_THREADS ||
        lim->maxComputeWorkGroupSize[0] < XVK_MIPS_THREADS ||
        lim->maxPerStageDescriptorStorageImages < XVK_MIPS_STORAGE_IMAGES)
        return XGD_OK;
    VkDescriptorSetLayoutBinding b[1 + XVK_MIPS_STORAGE_IMAGES];
    for (uint32_t i = 0; i < 1 + XVK_MIPS_STORAGE_IMAGES; i++)
        b[i] = (VkDescriptorSetLayoutBinding){ i, i == 0 ? VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE
                                                         : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                               1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                           .bindingCount = 1 + XVK_MIPS_STORAGE_IMAGES, .pBindings = b };
    xgd_result res = xvk_check(r, vkCreateDescriptorSetLayout(r->dev, &li, NULL, &r->mips_set_layout),
                               "vkCreateDescriptorSetLayout");
    if (res != XGD_OK) return res;
    /* Size (ivec2) and Count */
    VkPushConstantRange pc = { VK_SHADER_STAGE_COMPUTE_BIT, 0, 3 * sizeof(int32_t) };
    VkPipelineLayoutCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1, .pSetLayouts = &r->mips_set_layout,
                                      .pushConstantRangeCount = 1, .pPushConstantRanges = &pc };
    res = xvk_check(r, vkCreatePipelineLayout(r->dev, &pi, NULL, &r->mips_layout), "vkCreatePipelineLayout");
    if (res != XGD_OK) return res;
    VkShaderModule module;
    res = make_module(r, xvk_spv_mips_comp, sizeof xvk_spv_mips_comp, &module);
    if (res != XGD_OK) return res;
    VkComputePipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                                       .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                                  .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                                  .module = module, .pName = "main" },
                                       .layout = r->mips_layout };
    res = xvk_check(r, vkCreateComputePipelines(r->dev, r->pipeline_cache, 1, &ci, NULL, &r->mips_pipeline),
                    "vkCreateComputePipelines");
    vkDestroyShaderModule(r->dev, module, NULL);
    if (res != XGD_OK) r->mips_pipeline = VK_NULL_HANDLE;
    return res;
}

void xvk_pipelines_destroy(xvk_renderer *r)
{
    if (r->mips_pipeline) vkDestroyPipeline(r->dev, r->mips_pipeline, NULL);
    if (r->mips_layout) vkDestroyPipelineLayout(r->dev, r->mips_layout, NULL);
    if (r->mips_set_layout) vkDestroyDescriptorSetLayout(r->dev, r->mips_set_layout, NULL);
    for (size_t i = 0; i < r->pipeline_capacity; i++)
        if (r->pipelines[i].pipeline) vkDestroyPipeline(r->dev, r->pipelines[i].pipeline, NULL);
    free(r->pipelines);
    r->pipelines = NULL;
    r->pipeline_capacity = r->pipeline_count = 0;
    for (size_t i = 0; i < r->sampler_count; i++) vkDestroySampler(r->dev, r->samplers[i].sampler, NULL);
    free(r->samplers);
    r->samplers = NULL;
    if (r->fill_vs) vkDestroyShaderModule(r->dev, r->fill_vs, NULL);
    if (r->fill_fs) vkDestroyShaderModule(r->dev, r->fill_fs, NULL);
    if (r->pipeline_cache) vkDestroyPipelineCache(r->dev, r->pipeline_cache, NULL);
    xvk_user_destroy(r);
    if (r->pipeline_layout) vkDestroyPipelineLayout(r->dev, r->pipeline_layout, NULL);
    if (r->set_layout) vkDestroyDescriptorSetLayout(r->dev, r->set_layout, NULL);
}

/* ---- render targets and rendering ---- */

void xvk_reset_bindings(xvk_renderer *r)
{
    r->bound_pipeline = VK_NULL_HANDLE;
    r->user_descriptors_valid = false;
    r->user_last_size[0] = r->user_last_size[1] = 0;
    r->viewport_valid = false;
    r->vb_valid = false;
    r->ib_valid = false;
    xvk_disarm_fast(r);
    r->runs_armed = false;
}

static bool any_clear_pending(const xvk_renderer *r)
{
    for (int i = 0; i < r->target_count; i++)
        if (r->clear_color_pending[i]) return true;
    return r->clear_depth_pending || r->clear_stencil_pending;
}

static VkImageView color_view(const xgdi_target *tg)
{
    xgdi_native_texture *t = tg->texture;
    return t->samples > 1 ? t->ms_views[tg->face] : t->rt_views[tg->face];
}

static bool begin_rendering(xvk_renderer *r, VkCommandBuffer cmd)
{
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0 == NULL) return false;
    VkRenderingAttachmentInfo ca[XVK_MAX_TARGETS];
    memset(ca, 0, sizeof ca);
    for (int i = 0; i < r->target_count; i++) {
        const xgdi_target *tg = &r->targets[i];
        ca[i].sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO;
        ca[i].imageView = color_view(tg);
        ca[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        /* issue 4: a target core just cleared (DiscardContents) is never loaded */
        ca[i].loadOp = r->clear_color_pending[i] ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        ca[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        ca[i].clearValue.color = r->clear_color[i];
        if (tg->texture->samples > 1) tg->texture->ms_dirty[tg->face] = true;
        r->clear_color_pending[i] = false;
    }
    VkRenderingAttachmentInfo da = { .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO };
    VkRenderingAttachmentInfo sa = { .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO };
    bool depth = t0->depth_view != VK_NULL_HANDLE;
    if (depth) {
        da.imageView = t0->depth_view;
        da.imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        da.loadOp = r->clear_depth_pending ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        da.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        da.clearValue.depthStencil.depth = r->clear_depth;
        sa = da;
        sa.loadOp = r->clear_stencil_pending ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        sa.clearValue.depthStencil.stencil = r->clear_stencil;
    }
    r->clear_depth_pending = r->clear_stencil_pending = false;
    VkRenderingInfo ri = { .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                           .renderArea = { { 0, 0 }, { (uint32_t)t0->desc.width, (uint32_t)t0->desc.height } },
                           .layerCount = 1, .colorAttachmentCount = (uint32_t)r->target_count,
                           .pColorAttachments = ca, .pDepthAttachment = depth ? &da : NULL,
                           .pStencilAttachment = depth && t0->has_stencil ? &sa : NULL };
    xvk_barrier(r, cmd);
    /* debug devices: one label per rendering segment, closed in xvk_end_rendering */
    xvk_label_begin_targets(r, cmd);
    vkCmdBeginRendering(cmd, &ri);
    r->rendering = true;
    r->counters.render_passes++;
    return true;
}

void xvk_end_rendering(xvk_renderer *r)
{
    xvk_disarm_fast(r);
    r->runs_armed = false;
    if (!r->rendering) {
        if (!any_clear_pending(r) || r->lost) return;
        /* a clear no draw consumed still has to happen: an empty pass carries it out */
        VkCommandBuffer cmd = xvk_cmd(r);
        if (cmd == VK_NULL_HANDLE || !begin_rendering(r, cmd)) return;
    }
    vkCmdEndRendering(r->frames[r->frame_index].cmd);
    xvk_label_end(r, r->frames[r->frame_index].cmd);
    r->rendering = false;
    r->hazard = true;
}

xgd_result xvk_set_render_targets(xgdi_renderer *base, const xgdi_target *targets, int count)
{
    xvk_renderer *r = xvk_cast(base);
    if (count > XVK_MAX_TARGETS)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT, "vulkan: %d render targets", count);
    xgdi_native_texture *t0 = targets[0].texture;
    for (int i = 0; i < count; i++) {
        xgdi_native_texture *t = targets[i].texture;
        if (t == NULL || !t->desc.render_target || targets[i].face < 0 || targets[i].face >= t->faces ||
            t->desc.width != t0->desc.width || t->desc.height != t0->desc.height ||
            t->samples != t0->samples)
            return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                             "vulkan: render target %d cannot be bound with the others", i);
    }
    xvk_end_rendering(r);
    memset(r->targets, 0, sizeof r->targets);
    for (int i = 0; i < count; i++) r->targets[i] = targets[i];
    r->target_count = count;
    r->targets_gen++;
    return XGD_OK;
}

xgd_result xvk_clear(xgdi_renderer *base, unsigned options, const float color[4], float depth,
                     int stencil)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0 == NULL) return XGD_OK;
    VkClearColorValue cv;
    memset(&cv, 0, sizeof cv);
    memcpy(cv.float32, color, sizeof cv.float32);
    bool want_depth = (options & XGD_CLEAR_DEPTH_BUFFER) && t0->depth_view != VK_NULL_HANDLE;
    bool want_stencil = (options & XGD_CLEAR_STENCIL) && t0->depth_view != VK_NULL_HANDLE && t0->has_stencil;
    if (r->cmd_insert_label != NULL) {
        /* marks where the application cleared, also when the clear becomes a load operation */
        VkCommandBuffer lc = xvk_cmd(r);
        if (lc != VK_NULL_HANDLE)
            xvk_label_insertf(r, lc, "clear%s%s%s (%.3g, %.3g, %.3g, %.3g)",
                              options & XGD_CLEAR_TARGET ? " target" : "",
                              want_depth ? " depth" : "", want_stencil ? " stencil" : "",
                              (double)color[0], (double)color[1], (double)color[2], (double)color[3]);
    }
    /* The frame's command buffer opens at the clear that usually starts a frame: recycling
       its slot (a pool reset, which frees the commands of the slot's previous frame, and the
       wait for that frame if it is still running) is paid here once, not by the first draw. */
    if (xvk_cmd(r) == VK_NULL_HANDLE)
        return r->lost ? XGD_ERROR_DEVICE_LOST : xgdi_failure(base->device);
    if (r->rendering) {
        VkClearAttachment ca[XVK_MAX_TARGETS + 1];
        uint32_t n = 0;
        if (options & XGD_CLEAR_TARGET)
            for (int i = 0; i < r->target_count; i++) {
                ca[n].aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
                ca[n].colorAttachment = (uint32_t)i;
                ca[n].clearValue.color = cv;
                n++;
            }
        if (want_depth || want_stencil) {
            ca[n].aspectMask = (want_depth ? VK_IMAGE_ASPECT_DEPTH_BIT : 0) |
                               (want_stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
            ca[n].colorAttachment = 0;
            ca[n].clearValue.depthStencil.depth = depth;
            ca[n].clearValue.depthStencil.stencil = (uint32_t)stencil & 0xffu;
            n++;
        }
        if (n == 0) return XGD_OK;
        VkClearRect rc = { { { 0, 0 }, { (uint32_t)t0->desc.width, (uint32_t)t0->desc.height } }, 0, 1 };
        vkCmdClearAttachments(r->frames[r->frame_index].cmd, n, ca, 1, &rc);
        return XGD_OK;
    }
    /* Not rendering: the clear becomes the next pass's load operation. */
    if (options & XGD_CLEAR_TARGET)
        for (int i = 0; i < r->target_count; i++) {
            r->clear_color_pending[i] = true;
            r->clear_color[i] = cv;
        }
    if (want_depth) {
        r->clear_depth_pending = true;
        r->clear_depth = depth;
    }
    if (want_stencil) {
        r->clear_stencil_pending = true;
        r->clear_stencil = (uint32_t)stencil & 0xffu;
    }
    return XGD_OK;
}

/* ---- samplers ---- */

static VkSamplerAddressMode address_of(xgd_texture_address_mode m)
{
    switch (m) {
    case XGD_ADDRESS_CLAMP: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case XGD_ADDRESS_MIRROR: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    default: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    }
}

static VkSampler get_sampler(xvk_renderer *r, const xgd_sampler_desc *s, bool filterable)
{
    xgd_sampler_desc key;
    memset(&key, 0, sizeof key);
    key.filter = filterable ? s->filter : XGD_FILTER_POINT;
    key.address_u = s->address_u;
    key.address_v = s->address_v;
    key.address_w = s->address_w;
    key.max_mip_level = s->max_mip_level;
    key.mip_map_level_of_detail_bias = s->mip_map_level_of_detail_bias;
    /* MaxAnisotropy matters to the Anisotropic filter only, clamped to what the device
       applies; 1 (no anisotropic filtering on this device) samples as Linear */
    if (key.filter == XGD_FILTER_ANISOTROPIC) {
        int n = s->max_anisotropy > 1 ? s->max_anisotropy : 1; /* 0 and 1: no anisotropy */
        key.max_anisotropy = n < r->max_anisotropy ? n : r->max_anisotropy;
    }
    for (size_t i = 0; i < r->sampler_count; i++)
        if (memcmp(&r->samplers[i].desc, &key, sizeof key) == 0) return r->samplers[i].sampler;
    bool min_l = true, mag_l = true, mip_l = true;
    switch (key.filter) {
    case XGD_FILTER_POINT: min_l = mag_l = mip_l = false; break;
    case XGD_FILTER_LINEAR_MIP_POINT: mip_l = false; break;
    case XGD_FILTER_POINT_MIP_LINEAR: min_l = mag_l = false; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR: mag_l = false; break;
    case XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT: mag_l = mip_l = false; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR: min_l = false; break;
    case XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT: min_l = mip_l = false; break;
    default: break; /* Linear; Anisotropic: linear min, mag and mip, plus anisotropy below */
    }
    float bias = key.mip_map_level_of_detail_bias;
    float maxb = r->props.limits.maxSamplerLodBias;
    if (bias > maxb) bias = maxb;
    if (bias < -maxb) bias = -maxb;
    VkSamplerCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                               .magFilter = mag_l ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
                               .minFilter = min_l ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
                               .mipmapMode = mip_l ? VK_SAMPLER_MIPMAP_MODE_LINEAR
                                                   : VK_SAMPLER_MIPMAP_MODE_NEAREST,
                               .addressModeU = address_of(key.address_u),
                               .addressModeV = address_of(key.address_v),
                               .addressModeW = address_of(key.address_w),
                               .mipLodBias = bias,
                               .minLod = (float)(key.max_mip_level > 0 ? key.max_mip_level : 0),
                               .maxLod = VK_LOD_CLAMP_NONE };
    if (key.filter == XGD_FILTER_ANISOTROPIC && key.max_anisotropy > 1) {
        ci.anisotropyEnable = VK_TRUE;
        ci.maxAnisotropy = (float)key.max_anisotropy;
    }
    VkSampler smp;
    if (xvk_check(r, vkCreateSampler(r->dev, &ci, NULL, &smp), "vkCreateSampler") != XGD_OK)
        return VK_NULL_HANDLE;
    if (r->sampler_count == r->sampler_capacity) {
        size_t cap = r->sampler_capacity ? r->sampler_capacity * 2 : 16;
        xvk_sampler_entry *ns = realloc(r->samplers, cap * sizeof *ns);
        if (ns == NULL) {
            vkDestroySampler(r->dev, smp, NULL);
            xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
            return VK_NULL_HANDLE;
        }
        r->samplers = ns;
        r->sampler_capacity = cap;
    }
    r->samplers[r->sampler_count].desc = key;
    r->samplers[r->sampler_count].sampler = smp;
    r->sampler_count++;
    return smp;
}

/* ---- pipelines ---- */

static VkBlendFactor blend_of(xgd_blend b)
{
    switch (b) {
    case XGD_BLEND_ZERO: return VK_BLEND_FACTOR_ZERO;
    case XGD_BLEND_SOURCE_COLOR: return VK_BLEND_FACTOR_SRC_COLOR;
    case XGD_BLEND_INVERSE_SOURCE_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR;
    case XGD_BLEND_SOURCE_ALPHA: return VK_BLEND_FACTOR_SRC_ALPHA;
    case XGD_BLEND_INVERSE_SOURCE_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    case XGD_BLEND_DESTINATION_COLOR: return VK_BLEND_FACTOR_DST_COLOR;
    case XGD_BLEND_INVERSE_DESTINATION_COLOR: return VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR;
    case XGD_BLEND_DESTINATION_ALPHA: return VK_BLEND_FACTOR_DST_ALPHA;
    case XGD_BLEND_INVERSE_DESTINATION_ALPHA: return VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA;
    case XGD_BLEND_BLEND_FACTOR: return VK_BLEND_FACTOR_CONSTANT_COLOR;
    case XGD_BLEND_INVERSE_BLEND_FACTOR: return VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR;
    case XGD_BLEND_SOURCE_ALPHA_SATURATION: return VK_BLEND_FACTOR_SRC_ALPHA_SATURATE;
    default: return VK_BLEND_FACTOR_ONE;
    }
}

static VkBlendOp blend_op_of(xgd_blend_function f)
{
    switch (f) {
    case XGD_BLEND_FUNCTION_SUBTRACT: return VK_BLEND_OP_SUBTRACT;
    case XGD_BLEND_FUNCTION_REVERSE_SUBTRACT: return VK_BLEND_OP_REVERSE_SUBTRACT;
    case XGD_BLEND_FUNCTION_MIN: return VK_BLEND_OP_MIN;
    case XGD_BLEND_FUNCTION_MAX: return VK_BLEND_OP_MAX;
    default: return VK_BLEND_OP_ADD;
    }
}

static VkCompareOp compare_of(xgd_compare_function f)
{
    switch (f) {
    case XGD_COMPARE_NEVER: return VK_COMPARE_OP_NEVER;
    case XGD_COMPARE_LESS: return VK_COMPARE_OP_LESS;
    case XGD_COMPARE_LESS_EQUAL: return VK_COMPARE_OP_LESS_OR_EQUAL;
    case XGD_COMPARE_EQUAL: return VK_COMPARE_OP_EQUAL;
    case XGD_COMPARE_GREATER_EQUAL: return VK_COMPARE_OP_GREATER_OR_EQUAL;
    case XGD_COMPARE_GREATER: return VK_COMPARE_OP_GREATER;
    case XGD_COMPARE_NOT_EQUAL: return VK_COMPARE_OP_NOT_EQUAL;
    default: return VK_COMPARE_OP_ALWAYS;
    }
}

static VkStencilOp stencil_of(xgd_stencil_operation o)
{
    switch (o) {
    case XGD_STENCIL_OP_ZERO: return VK_STENCIL_OP_ZERO;
    case XGD_STENCIL_OP_REPLACE: return VK_STENCIL_OP_REPLACE;
    case XGD_STENCIL_OP_INCREMENT: return VK_STENCIL_OP_INCREMENT_AND_WRAP;
    case XGD_STENCIL_OP_DECREMENT: return VK_STENCIL_OP_DECREMENT_AND_WRAP;
    case XGD_STENCIL_OP_INCREMENT_SATURATION: return VK_STENCIL_OP_INCREMENT_AND_CLAMP;
    case XGD_STENCIL_OP_DECREMENT_SATURATION: return VK_STENCIL_OP_DECREMENT_AND_CLAMP;
    case XGD_STENCIL_OP_INVERT: return VK_STENCIL_OP_INVERT;
    default: return VK_STENCIL_OP_KEEP;
    }
}

VkFormat xvk_attribute_format(xgd_vertex_element_format f)
{
    switch (f) {
    case XGD_VERTEX_FORMAT_SINGLE: return VK_FORMAT_R32_SFLOAT;
    case XGD_VERTEX_FORMAT_VECTOR2: return VK_FORMAT_R32G32_SFLOAT;
    case XGD_VERTEX_FORMAT_VECTOR3: return VK_FORMAT_R32G32B32_SFLOAT;
    case XGD_VERTEX_FORMAT_VECTOR4: return VK_FORMAT_R32G32B32A32_SFLOAT;
    case XGD_VERTEX_FORMAT_COLOR: return VK_FORMAT_R8G8B8A8_UNORM;
    case XGD_VERTEX_FORMAT_BYTE4: return VK_FORMAT_R8G8B8A8_USCALED;
    case XGD_VERTEX_FORMAT_SHORT2: return VK_FORMAT_R16G16_SSCALED;
    case XGD_VERTEX_FORMAT_SHORT4: return VK_FORMAT_R16G16B16A16_SSCALED;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT2: return VK_FORMAT_R16G16_SNORM;
    case XGD_VERTEX_FORMAT_NORMALIZED_SHORT4: return VK_FORMAT_R16G16B16A16_SNORM;
    case XGD_VERTEX_FORMAT_HALF_VECTOR2: return VK_FORMAT_R16G16_SFLOAT;
    case XGD_VERTEX_FORMAT_HALF_VECTOR4: return VK_FORMAT_R16G16B16A16_SFLOAT;
    default: return VK_FORMAT_R32G32B32A32_SFLOAT;
    }
}

static uint64_t hash_bytes(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* The element of a layout with this usage and usage index (core checked it is there). */
static const xgd_vertex_element *find_user_element(const xgdi_vertex_layout *l, xgd_vertex_element_usage u,
                                                   int index)
{
    for (int i = 0; i < l->count; i++)
        if (l->elements[i].usage == u && l->elements[i].usage_index == index) return &l->elements[i];
    return NULL;
}

static VkPipeline create_pipeline(xvk_renderer *r, const xvk_pipeline_key *k, const xgdi_vertex_layout *lay)
{
    /* a user program's shaders, or the sample fill's (no vertex input) */
    bool user = k->program != XVK_PIPELINE_FILL_SAMPLES;
    if (user && (r->building_vs == NULL || r->building_ps == NULL)) {
        xgdi_fail(r->base.device, XGD_ERROR_INVALID_OPERATION, "vulkan: user pipeline without shaders");
        return VK_NULL_HANDLE;
    }
    VkShaderModule vs = user ? r->building_vs->module : r->fill_vs;
    VkShaderModule fs = user ? r->building_ps->module : r->fill_fs;
    VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = vs, .pName = "main" },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = fs, .pName = "main" },
    };
    int ni = user ? r->building_vs->input_count : 0;
    VkVertexInputAttributeDescription attrs[XGDI_SHADER_MAX_INPUTS];
    bool need_defaults = false;
    for (int i = 0; i < ni; i++) {
        const xgdi_shader_input *in = &r->building_vs->inputs[i];
        const xgd_vertex_element *e = find_user_element(lay, in->usage, in->usage_index);
        attrs[i].location = (uint32_t)in->location;
        if (e != NULL) {
            attrs[i].binding = 0;
            attrs[i].format = xvk_attribute_format(e->format);
            attrs[i].offset = (uint32_t)e->offset;
        } else {
            attrs[i].binding = 1;
            attrs[i].format = VK_FORMAT_R32G32B32A32_SFLOAT;
            attrs[i].offset = 0;
            need_defaults = true;
        }
    }
    VkVertexInputBindingDescription binds[2] = {
        { 0, (uint32_t)lay->stride,
          k->per_instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX },
        { 1, 0, VK_VERTEX_INPUT_RATE_VERTEX },
    };
    VkPipelineVertexInputStateCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                .vertexBindingDescriptionCount = !user ? 0u : need_defaults ? 2u : 1u,
                                                .pVertexBindingDescriptions = binds,
                                                .vertexAttributeDescriptionCount = (uint32_t)ni,
                                                .pVertexAttributeDescriptions = attrs };
    VkVertexInputBindingDescription sbinds[XGD_MAX_VERTEX_BUFFER_BINDINGS + 1];
    VkVertexInputBindingDivisorDescriptionEXT sdivs[XGD_MAX_VERTEX_BUFFER_BINDINGS];
    VkPipelineVertexInputDivisorStateCreateInfoEXT sdiv;
    if (user && r->building_draw != NULL && r->building_draw->stream_count > 0 &&
        xvk_stream_inputs(r, r->building_draw, r->building_vs, &vi, attrs, sbinds, sdivs, &sdiv) != XGD_OK)
        return VK_NULL_HANDLE;
    VkPipelineInputAssemblyStateCreateInfo ia = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                  .topology = (VkPrimitiveTopology)k->topology };
    VkPipelineViewportStateCreateInfo vp = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                             .viewportCount = 1, .scissorCount = 1 };
    bool lines = k->topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ||
                 k->topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP || k->fill;
    VkPipelineRasterizationLineStateCreateInfoEXT ls = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT,
        .lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT };
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .pNext = lines && r->has_line_rasterization ? &ls : NULL,
        .polygonMode = k->fill ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL,
        .cullMode = k->cull,
        /* with the negative-height viewport, XNA's clockwise-on-screen triangles have negative
           area in framebuffer coordinates: VK_FRONT_FACE_CLOCKWISE */
        .frontFace = VK_FRONT_FACE_CLOCKWISE,
        .depthBiasEnable = k->bias_units != 0 || k->bias_slope != 0.0f,
        .depthBiasConstantFactor = (float)k->bias_units,
        .depthBiasSlopeFactor = k->bias_slope,
        .lineWidth = 1.0f };
    VkSampleMask mask = k->sample_mask;
    VkPipelineMultisampleStateCreateInfo ms = { .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                .rasterizationSamples = (VkSampleCountFlagBits)k->samples,
                                                .pSampleMask = &mask };
    VkStencilOpState front = { stencil_of(k->sfront[1]), stencil_of(k->sfront[2]), stencil_of(k->sfront[3]),
                               compare_of(k->sfront[0]), k->sread, k->swrite, 0 };
    VkStencilOpState back = { stencil_of(k->sback[1]), stencil_of(k->sback[2]), stencil_of(k->sback[3]),
                              compare_of(k->sback[0]), k->sread, k->swrite, 0 };
    VkPipelineDepthStencilStateCreateInfo ds = { .sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO,
                                                 .depthTestEnable = k->depth_test != 0,
                                                 .depthWriteEnable = k->depth_write != 0,
                                                 .depthCompareOp = compare_of(k->depth_func),
                                                 .stencilTestEnable = k->stencil_on != 0,
                                                 .front = front, .back = back };
    VkPipelineColorBlendAttachmentState att[XVK_MAX_TARGETS];
    memset(att, 0, sizeof att);
    VkFormat fmts[XVK_MAX_TARGETS];
    for (uint32_t i = 0; i < k->color_count; i++) {
        const uint32_t *b = k->blend[i];
        att[i].blendEnable = b[0] != 0;
        att[i].srcColorBlendFactor = blend_of((xgd_blend)b[1]);
        att[i].dstColorBlendFactor = blend_of((xgd_blend)b[2]);
        att[i].colorBlendOp = blend_op_of((xgd_blend_function)b[3]);
        att[i].srcAlphaBlendFactor = blend_of((xgd_blend)b[4]);
        att[i].dstAlphaBlendFactor = blend_of((xgd_blend)b[5]);
        att[i].alphaBlendOp = blend_op_of((xgd_blend_function)b[6]);
        att[i].colorWriteMask = b[7];
        fmts[i] = (VkFormat)k->color_formats[i];
    }
    VkPipelineColorBlendStateCreateInfo cb = { .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                               .attachmentCount = k->color_count, .pAttachments = att };
    VkDynamicState dyn[4] = { VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                              VK_DYNAMIC_STATE_BLEND_CONSTANTS, VK_DYNAMIC_STATE_STENCIL_REFERENCE };
    VkPipelineDynamicStateCreateInfo dy = { .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
                                            .dynamicStateCount = 4, .pDynamicStates = dyn };
    VkFormat depth = (VkFormat)k->depth_format;
    bool stencil_fmt = depth == VK_FORMAT_D24_UNORM_S8_UINT || depth == VK_FORMAT_D32_SFLOAT_S8_UINT;
    VkPipelineRenderingCreateInfo rn = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = k->color_count,
                                         .pColorAttachmentFormats = fmts,
                                         .depthAttachmentFormat = depth,
                                         .stencilAttachmentFormat = stencil_fmt ? depth : VK_FORMAT_UNDEFINED };
    VkGraphicsPipelineCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &rn,
                                        .stageCount = 2, .pStages = stages, .pVertexInputState = &vi,
                                        .pInputAssemblyState = &ia, .pViewportState = &vp,
                                        .pRasterizationState = &rs, .pMultisampleState = &ms,
                                        .pDepthStencilState = &ds, .pColorBlendState = &cb,
                                        .pDynamicState = &dy,
                                        .layout = user ? r->user_pipeline_layout : r->pipeline_layout };
    VkPipeline p;
    if (xvk_check(r, vkCreateGraphicsPipelines(r->dev, r->pipeline_cache, 1, &ci, NULL, &p),
                  "vkCreateGraphicsPipelines") != XGD_OK)
        return VK_NULL_HANDLE;
    r->counters.pipelines_created++;
    return p;
}

static bool pipelines_grow(xvk_renderer *r)
{
    size_t cap = r->pipeline_capacity ? r->pipeline_capacity * 2 : 64;
    xvk_pipeline_entry *n = calloc(cap, sizeof *n);
    if (n == NULL) return false;
    for (size_t i = 0; i < r->pipeline_capacity; i++) {
        xvk_pipeline_entry *e = &r->pipelines[i];
        if (!e->pipeline) continue;
        size_t j = (size_t)e->hash & (cap - 1);
        while (n[j].pipeline) j = (j + 1) & (cap - 1);
        n[j] = *e;
    }
    free(r->pipelines);
    r->pipelines = n;
    r->pipeline_capacity = cap;
    return true;
}

static VkPipeline get_pipeline(xvk_renderer *r, const xvk_pipeline_key *k, const xgdi_vertex_layout *lay)
{
    uint64_t h = hash_bytes(k, sizeof *k);
    if (r->pipeline_capacity > 0) {
        size_t j = (size_t)h & (r->pipeline_capacity - 1);
        while (r->pipelines[j].pipeline) {
            if (r->pipelines[j].hash == h && memcmp(&r->pipelines[j].key, k, sizeof *k) == 0)
                return r->pipelines[j].pipeline;
            j = (j + 1) & (r->pipeline_capacity - 1);
        }
    }
    if ((r->pipeline_count + 1) * 2 > r->pipeline_capacity && !pipelines_grow(r)) {
        xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
        return VK_NULL_HANDLE;
    }
    VkPipeline p = create_pipeline(r, k, lay);
    if (p == VK_NULL_HANDLE) return VK_NULL_HANDLE;
    size_t j = (size_t)h & (r->pipeline_capacity - 1);
    while (r->pipelines[j].pipeline) j = (j + 1) & (r->pipeline_capacity - 1);
    r->pipelines[j].key = *k;
    r->pipelines[j].hash = h;
    r->pipelines[j].pipeline = p;
    r->pipeline_count++;
    return p;
}

/* Empties slot i of a pipeline table of `capacity` slots and moves later entries of its probe
   sequence back (linear probing's deletion: every entry stays reachable from its home slot). */
void xvk_pipeline_table_remove(xvk_pipeline_entry *t, size_t capacity, size_t i)
{
    const size_t mask = capacity - 1;
    t[i].pipeline = VK_NULL_HANDLE;
    for (size_t j = (i + 1) & mask; t[j].pipeline; j = (j + 1) & mask) {
        const size_t home = (size_t)t[j].hash & mask;
        /* the entry at j stays where it is if its home lies cyclically in (i, j] */
        const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (stays) continue;
        t[i] = t[j];
        t[j].pipeline = VK_NULL_HANDLE;
        i = j;
    }
}

size_t xvk_pipeline_table_reachable(const xvk_pipeline_entry *t, size_t capacity)
{
    const size_t mask = capacity - 1;
    size_t count = 0;
    for (size_t i = 0; i < capacity; i++) {
        if (!t[i].pipeline) continue;
        /* every slot from the entry's home to the entry is full */
        for (size_t j = (size_t)t[i].hash & mask; j != i; j = (j + 1) & mask)
            if (!t[j].pipeline) return SIZE_MAX;
        count++;
    }
    return count;
}

static void retired_pipeline_free(xgdi_renderer *base, void *object)
{
    xvk_renderer *r = xvk_cast(base);
    VkPipeline *box = object;
    vkDestroyPipeline(r->dev, *box, NULL);
    free(box);
}

void xvk_pipelines_forget_shader(xvk_renderer *r, uint64_t serial)
{
    for (size_t i = 0; i < r->pipeline_capacity;) {
        xvk_pipeline_entry *e = &r->pipelines[i];
        if (!e->pipeline || e->key.program == XVK_PIPELINE_FILL_SAMPLES ||
            (e->key.user_vs != serial && e->key.user_ps != serial)) {
            i++;
            continue;
        }
        /* a pipeline the retire queue cannot take (out of memory) stays cached: destroyed
           with the renderer, and never wrong */
        VkPipeline *box = malloc(sizeof *box);
        if (box == NULL) {
            i++;
            continue;
        }
        *box = e->pipeline;
        if (xgdi_retire_push(&r->base.retired, r->base.submitted_fence + 1,
                             retired_pipeline_free, box) != XGD_OK) {
            free(box);
            i++;
            continue;
        }
        if (r->last_pipeline == *box) r->last_pipeline = VK_NULL_HANDLE;
        if (r->bound_pipeline == *box) r->bound_pipeline = VK_NULL_HANDLE;
        /* slot i may hold a moved entry now: looked at again */
        xvk_pipeline_table_remove(r->pipelines, r->pipeline_capacity, i);
        r->pipeline_count--;
    }
}

static uint32_t write_mask_of(unsigned m)
{
    return m & 15; /* xgd's RGBA bits are Vulkan's R, G, B, A bits */
}

static void build_key(xvk_renderer *r, const xgdi_draw *d, xvk_pipeline_key *k)
{
    const xgdi_draw_state *st = d->state;
    memset(k, 0, sizeof *k);
    k->program = (uint32_t)st->program;
    k->user_vs = st->vs->serial;
    k->user_ps = st->ps->serial;
    k->layout_hash = d->stream_count > 0 ? d->stream_layout->hash : st->layout->hash;
    k->per_instance = d->per_instance;
    switch (d->type) {
    case XGD_PRIMITIVE_TRIANGLE_STRIP: k->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP; break;
    case XGD_PRIMITIVE_LINE_LIST: k->topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST; break;
    case XGD_PRIMITIVE_LINE_STRIP: k->topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; break;
    default: k->topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST; break;
    }
    xgdi_native_texture *t0 = r->targets[0].texture;
    k->color_count = (uint32_t)r->target_count;
    k->samples = (uint32_t)t0->samples;
    k->sample_mask = 0xffffffffu;
    const xgd_blend_state_desc *bs = st->blend;
    /* D3D rule (as the software renderer): MultiSampleMask applies to multisampled targets
       only; a single-sample target draws with an all-ones mask (the key stays all-ones too,
       so one pipeline serves every mask there). */
    if (bs != NULL && k->samples > 1)
        k->sample_mask = (uint32_t)bs->multisample_mask;
    for (int i = 0; i < r->target_count; i++) {
        xgdi_native_texture *t = r->targets[i].texture;
        k->color_formats[i] = (uint32_t)t->format;
        uint32_t *b = k->blend[i];
        const xgd_target_blend_desc *tb = bs != NULL ? (bs->independent_blend ? &bs->target[i] : &bs->target[0])
                                                     : NULL;
        uint32_t cs = XGD_BLEND_ONE, cd = XGD_BLEND_ZERO, cf = XGD_BLEND_FUNCTION_ADD;
        uint32_t as = XGD_BLEND_ONE, ad = XGD_BLEND_ZERO, af = XGD_BLEND_FUNCTION_ADD;
        if (tb != NULL) {
            if (tb->color_source_blend) cs = tb->color_source_blend;
            if (tb->color_destination_blend) cd = tb->color_destination_blend;
            if (tb->color_blend_function) cf = tb->color_blend_function;
            if (tb->alpha_source_blend) as = tb->alpha_source_blend;
            if (tb->alpha_destination_blend) ad = tb->alpha_destination_blend;
            if (tb->alpha_blend_function) af = tb->alpha_blend_function;
        }
        bool enabled = !(cs == XGD_BLEND_ONE && cd == XGD_BLEND_ZERO && as == XGD_BLEND_ONE &&
                         ad == XGD_BLEND_ZERO && cf == XGD_BLEND_FUNCTION_ADD && af == XGD_BLEND_FUNCTION_ADD);
        if (!r->support[t->desc.format].blendable) enabled = false;
        b[0] = enabled;
        if (enabled) {
            b[1] = cs;
            b[2] = cd;
            b[3] = cf;
            b[4] = as;
            b[5] = ad;
            b[6] = af;
        }
        /* a target the pixel shader has no output for keeps its contents */
        bool written = (st->ps->color_outputs >> i & 1u) != 0;
        b[7] = written ? write_mask_of(bs != NULL ? bs->target[i].color_write_channels : 15) : 0;
    }
    const xgd_depth_stencil_desc *ds = st->depth_stencil;
    bool has_depth = t0->depth_view != VK_NULL_HANDLE;
    k->depth_format = has_depth ? (uint32_t)t0->depth_vk : VK_FORMAT_UNDEFINED;
    if (ds != NULL && has_depth) {
        k->depth_test = ds->depth_buffer_enable;
        k->depth_write = k->depth_test && ds->depth_buffer_write_enable;
        k->depth_func = ds->depth_function ? ds->depth_function : XGD_COMPARE_LESS_EQUAL;
    }
    /* stencil exists only on a Depth24Stencil8 target (D24 shares the Vulkan format) */
    if (ds != NULL && has_depth && t0->desc.depth_format == XGD_DEPTH_FORMAT_DEPTH24_STENCIL8 &&
        ds->stencil_enable) {
        k->stencil_on = 1;
        unsigned rm = (unsigned)ds->stencil_mask, wm = (unsigned)ds->stencil_write_mask;
        k->sread = rm & 0xffu;
        k->swrite = wm & 0xffu;
        k->sfront[0] = ds->stencil_function ? ds->stencil_function : XGD_COMPARE_ALWAYS;
        k->sfront[1] = ds->stencil_fail ? ds->stencil_fail : XGD_STENCIL_OP_KEEP;
        k->sfront[2] = ds->stencil_pass ? ds->stencil_pass : XGD_STENCIL_OP_KEEP;
        k->sfront[3] = ds->stencil_depth_fail ? ds->stencil_depth_fail : XGD_STENCIL_OP_KEEP;
        if (ds->two_sided_stencil) {
            k->sback[0] = ds->ccw_stencil_function ? ds->ccw_stencil_function : XGD_COMPARE_ALWAYS;
            k->sback[1] = ds->ccw_stencil_fail ? ds->ccw_stencil_fail : XGD_STENCIL_OP_KEEP;
            k->sback[2] = ds->ccw_stencil_pass ? ds->ccw_stencil_pass : XGD_STENCIL_OP_KEEP;
            k->sback[3] = ds->ccw_stencil_depth_fail ? ds->ccw_stencil_depth_fail : XGD_STENCIL_OP_KEEP;
        } else {
            memcpy(k->sback, k->sfront, sizeof k->sback);
        }
    }
    const xgd_rasterizer_desc *rs = st->rasterizer;
    xgd_cull_mode cull = rs != NULL && rs->cull_mode ? rs->cull_mode : XGD_CULL_COUNTER_CLOCKWISE_FACE;
    k->cull = cull == XGD_CULL_NONE ? VK_CULL_MODE_NONE
              : cull == XGD_CULL_CLOCKWISE_FACE ? VK_CULL_MODE_FRONT_BIT
                                                : VK_CULL_MODE_BACK_BIT;
    k->fill = rs != NULL && rs->fill_mode == XGD_FILL_WIREFRAME;
    if (rs != NULL && !rs->multisample_antialias && k->samples > 1 && !r->warned_aa_disable) {
        /* XNA's MultiSampleAntiAlias=false puts every sample at the pixel centre (the software
           renderer does); without VK_EXT_sample_locations this renderer keeps the standard
           pattern, so multisampled edges stay antialiased: say so once per device */
        r->warned_aa_disable = true;
        xgdi_warn(r->base.device, "vulkan: multisample_antialias false is not honoured on '%s' "
                  "(needs VK_EXT_sample_locations, not used); edges stay multisampled",
                  r->adapter_name);
    }
    if (rs != NULL && has_depth) {
        /* spec 002: XNA's float bias in units of the bound depth format */
        k->bias_units = xgdi_depth_bias_units(rs->depth_bias, t0->desc.depth_format,
                                              t0->depth_vk == VK_FORMAT_D32_SFLOAT_S8_UINT);
        k->bias_slope = rs->slope_scale_depth_bias;
        /* the driver's measured steps per unit (vk_device.c measure_depth_bias): the picture
           shows spec 002's count; C division truncates toward zero, as the rule does */
        int factor = r->bias_factor[t0->desc.depth_format];
        if (factor > 1) k->bias_units /= factor;
    }
}

/* ---- draws ---- */

static size_t element_size(xgd_vertex_element_format f)
{
    static const unsigned char sizes[XGD_VERTEX_FORMAT_COUNT] = { 4, 8, 12, 16, 4, 4, 4, 8, 4, 8, 4, 8 };
    return (unsigned)f < XGD_VERTEX_FORMAT_COUNT ? sizes[f] : 16;
}

static int vertices_for(xgd_primitive_type t, int prims)
{
    switch (t) {
    case XGD_PRIMITIVE_TRIANGLE_STRIP: return prims + 2;
    case XGD_PRIMITIVE_LINE_LIST: return prims * 2;
    case XGD_PRIMITIVE_LINE_STRIP: return prims + 1;
    default: return prims * 3;
    }
}

/* Steps 3-4 of a draw whose vertices, indices and constants are in place. */
static xgd_result record_draw(xvk_renderer *r, const xgdi_draw *d, xgdi_native_texture *t0, int count,
                              VkBuffer vbuf, VkDeviceSize voff, int32_t first, VkBuffer ibuf,
                              VkDeviceSize ioff, VkIndexType itype);

/* Copies the draw's user vertices into ring space or a big buffer. */
/* xvk_span_alloc with its ring case inline: a draw's small uploads take ring space and reach
   the big-buffer path only when they exceed a quarter of the ring, as there. */
/* xvk_ring_alloc's common case: the aligned span fits before the ring's end and the ring has
   room (align is a power of two, as there). Never submits or waits; false: nothing taken. */
static inline bool ring_take(xvk_ring *g, uint64_t size, uint64_t align, VkDeviceSize *offset,
                             uint8_t **ptr)
{
    uint64_t pos = g->head % g->size, start = (pos + align - 1) & ~(align - 1);
    if (start + size > g->size || g->head + (start - pos) + size - g->tail > g->size) return false;
    g->head += start - pos + size;
    g->fast_limit = 0;
    *offset = start;
    *ptr = g->mapped + start;
    return true;
}

static inline bool draw_span_alloc(xvk_renderer *r, uint64_t size, uint64_t align, xvk_span *s)
{
    xvk_ring *g = &r->ring;
    if (size > g->size / 4) return xvk_span_alloc(r, size, align, false, s);
    s->buffer = g->buffer;
    s->big = NULL;
    uint8_t *taken;
    if (ring_take(g, size, align, &s->offset, &taken)) {
        s->ptr = taken;
        return true;
    }
    void *p;
    if (!xvk_ring_alloc(r, size, align, &s->offset, &p)) return false;
    s->ptr = p;
    return true;
}

static bool place_vertices(xvk_renderer *r, const xgdi_draw *d, xvk_span *s, VkBuffer *vbuf,
                           VkDeviceSize *voff, int32_t *first)
{
    const xgdi_vertex_layout *lay = d->state->layout;
    size_t stride = (size_t)lay->stride;
    /* the bytes a vertex's elements reach, once per layout (layouts are immutable; a new one
       at a freed one's address comes with XGDI_DIRTY_LAYOUT) */
    if (lay != r->memo_layout || (d->state->dirty & XGDI_DIRTY_LAYOUT)) {
        size_t vneed = 0;
        for (int i = 0; i < lay->count && i < 16; i++) {
            size_t end = (size_t)lay->elements[i].offset + element_size(lay->elements[i].format);
            if (end > vneed) vneed = end;
        }
        r->memo_layout = lay;
        r->memo_layout_reach = vneed;
    }
    size_t vneed = r->memo_layout_reach;
    size_t bytes = (size_t)d->user_vertex_count * stride;
    if (vneed > stride) bytes += vneed - stride;
    /* placed at a multiple of the stride, so the ring stays bound at offset 0 and the draw
       names its first vertex: one vertex-buffer bind per frame, not per draw */
    if (!draw_span_alloc(r, bytes + stride, 16, s)) return false;
    VkDeviceSize off = s->offset;
    VkDeviceSize pad = stride > 0 ? (stride - off % stride) % stride : 0;
    memcpy(s->ptr + pad, d->user_vertices, bytes);
    off += pad;
    *vbuf = s->buffer;
    *first = 0;
    if (s->buffer == r->ring.buffer && stride > 0) {
        *first = (int32_t)(off / stride);
        off = 0;
    }
    *voff = off;
    return true;
}

/* Each user stage's block in ring space, uploaded only when it changed since the last draw of
   this frame (a submission forgets the last ones: xvk_reset_bindings). */
static bool place_user_constants(xvk_renderer *r, const xgdi_draw_state *st, VkDeviceSize off[2])
{
    const float *data[2] = { st->vs_constants, st->ps_constants };
    size_t size[2] = { st->vs_constants_size, st->ps_constants_size };
    VkDeviceSize align = r->props.limits.minUniformBufferOffsetAlignment;
    for (int i = 0; i < 2; i++) {
        off[i] = 0;
        if (size[i] == 0 || data[i] == NULL) continue;
        /* unchanged since the last user draw (no XGDI_DIRTY_CONSTANTS seen since, and no
           program change, across which a stock draw may have taken the bit) needs no
           compare */
        if (r->user_last_size[i] == size[i] &&
            (!(r->constants_dirty & (XGDI_DIRTY_CONSTANTS | XGDI_DIRTY_PROGRAM)) ||
             memcmp(r->user_last[i], data[i], size[i]) == 0)) {
            off[i] = r->user_last_offset[i];
            continue;
        }
        void *p;
        if (!xvk_ring_alloc(r, size[i], align < 16 ? 16 : align, &off[i], &p)) return false;
        memcpy(p, data[i], size[i]);
        memcpy(r->user_last[i], data[i], size[i]);
        r->user_last_size[i] = size[i];
        r->user_last_offset[i] = off[i];
    }
    /* a stock draw after this one comes with EffectPass.Apply, which marks its constants
       dirty again */
    r->constants_dirty = 0;
    return true;
}

/* fast_draw's push of several changed registers (or one without a template): their writes,
   packed. Returns how many. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static uint32_t push_writes(xvk_renderer *r, VkCommandBuffer cmd, uint32_t changed)
{
    VkWriteDescriptorSet packed[XVK_USER_SAMPLERS];
    uint32_t n = 0;
    for (uint32_t m = changed; m != 0; m &= m - 1) {
        uint32_t i = (uint32_t)xgdi_lowest_bit(m);
        r->user_bound_views[i] = r->fast_images[i].imageView;
        packed[n++] = r->fast_writes[i];
    }
    r->push_descriptor(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->user_pipeline_layout, 0, n, packed);
    return n;
}

/* fast_draw's answer for sampled registers that make it decline (no register mask is all ones) */
#define XVK_FAST_DECLINE UINT32_MAX

/* fast_draw's sampled registers when they are not fast_one's: one whose texture is unbound (a
   stand-in, or an error for cube and 3D registers) or changed filterability (another sampler)
   goes the general way (XVK_FAST_DECLINE); the sampler of every other one is the one bound
   (record_draw put it in fast_images), as no sampler state changed. Returns the registers
   whose image changed, their views in fast_images (scratch until pushed). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static uint32_t fast_textures(xvk_renderer *r, const xgdi_draw_state *st)
{
    uint32_t changed = 0;
    for (uint32_t used = r->user_memo_used; used != 0; used &= used - 1) {
        uint32_t i = (uint32_t)xgdi_lowest_bit(used);
        const xgdi_native_texture *t = i < XGDI_SHADER_MAX_SAMPLERS
                                           ? st->textures[i]
                                           : st->vertex_textures[i - XGDI_SHADER_MAX_SAMPLERS];
        if (t == NULL || t->filterable != r->user_memo_filterable[i]) return XVK_FAST_DECLINE;
        if (t->view == r->user_bound_views[i]) continue;
        r->fast_images[i].imageView = t->view;
        changed |= 1u << i;
    }
    return changed;
}

/* fast_draw's push of changed registers other than fast_one's register 0: one register with
   a template through it, else their writes (push_writes); then the counters */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void fast_push(xvk_renderer *r, VkCommandBuffer cmd, uint32_t changed)
{
    uint32_t n = 1, lo = (uint32_t)xgdi_lowest_bit(changed);
    if ((changed & (changed - 1)) == 0 && r->user_templates[lo] != VK_NULL_HANDLE) {
        r->user_bound_views[lo] = r->fast_images[lo].imageView;
        r->push_template(cmd, r->user_templates[lo], r->user_pipeline_layout, 0, &r->fast_images[lo]);
    } else {
        n = push_writes(r, cmd, changed);
    }
    r->counters.descriptor_pushes++;
    r->fast_frame->descriptors += n; /* xvk_note_descriptors */
}

/* fast_draw's placement of vertices (`bytes`, without fast_extra) that cannot follow the last
   ones (something else took ring space since, or they would reach ring.fast_limit), as
   place_vertices puts them: at a whole vertex of the ring. On success the ring's head is at
   the vertices' start (plus fast_extra, taken now) and the fast_* fields describe it, so that
   fast_finish takes them as following vertices; false: nothing changed. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static bool fast_place(xvk_renderer *r, uint64_t bytes)
{
    xvk_ring *g = &r->ring;
    uint64_t stride = r->fast_stride, extra = r->fast_extra;
    uint64_t pos = g->head % g->size;
    uint64_t first = (pos + stride - 1) / stride;
    uint64_t start = first * stride;
    uint64_t free_bytes = g->size - (g->head - g->tail);
    if (start >= g->size || start - pos >= free_bytes) return false;
    uint64_t avail = g->size - start < free_bytes - (start - pos) ? g->size - start : free_bytes - (start - pos);
    /* at most a quarter of the ring plus one, so that bytes < avail also keeps place_vertices'
       limit for ring space, bytes <= size / 4 */
    if (avail > g->size / 4 + 1) avail = g->size / 4 + 1;
    if (bytes + extra >= avail) return false;
    g->head += start - pos + extra;
    /* the head's value maps to ring memory by this difference until the next placement */
    r->fast_map = (uintptr_t)(g->mapped + start) - (uintptr_t)g->head;
    /* with bytes past the last stride, no vertices follow these: the limit is 1 past them,
       and any draw's vertices take at least 1 */
    g->fast_limit = g->head + (extra == 0 ? avail : bytes + 1);
    r->fast_next_first = (uint32_t)first;
    return true;
}

/* The inline case of xvk_user_draw_fast for `primitive_count` primitives of the armed type
   (`type`): their vertices and bytes, when the bytes are few enough for its copy
   (xgdi_small_vertices); else the count it had stays (a loop that mixes quads and larger
   batches keeps the quads inline). */
static void fast_one_remember(xvk_renderer *r, xgd_primitive_type type, int primitive_count)
{
    if (primitive_count <= 0) return;
    int count = xgdi_user_vertex_count(type, primitive_count);
    uint64_t bytes = (uint64_t)count * r->fast_stride;
    if (!xgdi_small_vertices(bytes)) return;
    r->fast_one_prims = primitive_count;
    r->fast_one_count = (uint32_t)count;
    r->fast_one_bytes = bytes;
}

/* fast_draw's targets that are multisampled: their resolved images are stale after a draw */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void fast_mark_ms(xvk_renderer *r)
{
    for (int i = 0; i < r->target_count; i++)
        if (r->targets[i].texture->samples > 1) r->targets[i].texture->ms_dirty[r->targets[i].face] = true;
}

/* fast_draw's recording, once it cannot decline: the vertices (`bytes`) into the ring space
   at the head that fast_map / fast_next_first describe (right after the last ones, or
   fast_place's), a push of the changed registers (`one`: fast_one, whose register 0 samples
   `t0`; else `changed`, with their views in fast_images), the multisampled targets marked
   (`ms`: fast_ms), the draw. The vertices go first, and what comes after them is read back
   from the renderer: register 0's view (put into fast_images, which is scratch, before the
   copy, which may call memcpy), the draw's count, first vertex and command buffer (after the
   push). Then only r lives across the calls: one saved register instead of four, which cost
   more than the reads. `inline_one`: xvk_user_draw_fast's inline case, whose count is
   fast_one_count (read there again instead of fast_count) and bytes within
   xgdi_small_vertices. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((always_inline))
#endif
static inline void fast_finish(xvk_renderer *r, const void *vertices, int count, uint64_t bytes,
                               bool one, const xgdi_native_texture *t0, uint32_t changed, bool ms,
                               bool inline_one)
{
    xvk_ring *g = &r->ring;
    if (one) r->fast_images[0].imageView = t0->view;
    uint64_t head = g->head;
    uint32_t first = r->fast_next_first;
    g->head = head + bytes;
    r->fast_next_first = first + (uint32_t)count;
    uint8_t *dst = (uint8_t *)(uintptr_t)(head + r->fast_map);
    if (inline_one) {
        xgdi_copy_small_vertices(dst, vertices, bytes);
    } else {
        r->fast_count = (uint32_t)count;
        xgdi_copy_vertices(dst, vertices, bytes);
    }

    VkCommandBuffer cmd = r->fast_cmd;
    if (one) {
        VkImageView view = r->fast_images[0].imageView;
        if (view == r->user_bound_views[0]) {
            r->counters.descriptor_skips++;
        } else {
            r->user_bound_views[0] = view;
            r->push_template(cmd, r->user_templates[0], r->user_pipeline_layout, 0, r->fast_images);
            r->fast_pushes++; /* xvk_fast_settle */
        }
    } else if (changed == 0) {
        r->counters.descriptor_skips++;
    } else {
        fast_push(r, cmd, changed);
    }
    if (ms) fast_mark_ms(r);
    uint32_t n = inline_one ? r->fast_one_count : r->fast_count;
    r->cmd_draw(r->fast_cmd, n, 1, r->fast_next_first - n, 0);
}

/* xvk_user_draw_fast's and xvk_draw's short path: while armed with this type (core has checked
   that nothing but texture slots changed, and the type and layout say the rest) the vertices
   into ring space, a push of the sampled registers whose image changed, the draw. Everything
   else the general path would record is what the last draw left bound. Everything is checked
   before anything changes, so false (take the general path) leaves everything as it was
   (fast_images is scratch). */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static bool fast_draw(xvk_renderer *r, const xgdi_draw_state *st, xgd_primitive_type type,
                      const void *vertices, int count)
{
    if ((int)type != r->fast_type || st->layout != r->memo_layout) return false;
    uint32_t changed = 0;
    const xgdi_native_texture *t0 = st->textures[0];
    bool one = r->fast_one;
    if (one) {
        if (t0 == NULL || t0->filterable != r->user_memo_filterable[0]) return false;
    } else {
        changed = fast_textures(r, st);
        if (changed == XVK_FAST_DECLINE) return false;
    }
    uint64_t bytes = (uint64_t)count * r->fast_stride;
    if (r->ring.head + bytes >= r->ring.fast_limit && !fast_place(r, bytes))
        return false;
    fast_finish(r, vertices, count, bytes, one, t0, changed, r->fast_ms, false);
    return true;
}

/* xvk_user_draw_fast's other cases: fast_draw (then its primitive count becomes the inline
   case's for the draws after it, when its vertices are few enough: fast_one_remember), or
   core's general path when that declines */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static xgd_result user_draw_other(xgdi_renderer *base, xgd_primitive_type type, const void *vertices,
                                  int primitive_count)
{
    xvk_renderer *r = xvk_cast(base);
    if (fast_draw(r, base->draw_state, type, vertices, xgdi_user_vertex_count(type, primitive_count))) {
        if ((int)type == r->fast_one_type) fast_one_remember(r, type, primitive_count);
        return XGD_OK;
    }
    return xgdi_user_draw_declined(base->device, type, vertices, primitive_count);
}

/* renderer.h's user_draw_fast: fast_draw's common case inline (the vertices follow the last
   ones, and the program samples register 0 alone through its template); everything else in
   user_draw_other, which takes the same arguments (so that the tail call moves none), and
   they need not live across the calls here. fast_draw's layout test is not made: core calls
   this only when the draw state's layout is the last accepted draw's (renderer.h), and while
   armed that draw's layout is memo_layout (every draw that reaches place_vertices disarms
   first and arms only with lay == memo_layout; fast_draw and this path keep the layout). */
xgd_result xvk_user_draw_fast(xgdi_renderer *base, xgd_primitive_type type, const void *vertices,
                              int primitive_count)
{
    xvk_renderer *r = xvk_cast(base);
    const xgdi_native_texture *t = base->draw_state->textures[0];
    if (XGDI_UNLIKELY((int)type != r->fast_one_type || primitive_count != r->fast_one_prims ||
                      t == NULL || t->filterable != r->user_memo_filterable[0] ||
                      r->ring.head + r->fast_one_bytes >= r->ring.fast_limit))
        return user_draw_other(base, type, vertices, primitive_count);
    fast_finish(r, vertices, (int)r->fast_one_count, r->fast_one_bytes, true, t, 0, false, true);
    return XGD_OK;
}

xgd_result xvk_draw(xgdi_renderer *base, const xgdi_draw *d)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    r->runs_armed = false;
    const xgdi_draw_state *st = d->state;
    if (st == NULL) return XGD_OK;
    /* nothing but texture slots changed (a bit none of the memos below reads) */
    if ((st->dirty & ~(uint32_t)XGDI_DIRTY_TEXTURES) == 0 &&
        d->vertex_buffer == NULL && d->user_vertices != NULL && d->index_size == 0 &&
        d->stream_count == 0 && d->instance_count <= 1 && d->first_vertex <= 0 &&
        d->user_vertex_count == d->vertex_count && d->vertex_count > 0 &&
        fast_draw(r, st, d->type, d->user_vertices, d->vertex_count))
        return XGD_OK;
    xvk_disarm_fast(r);
    /* core clears st->dirty after every accepted draw, early returns included: keep our own */
    r->pending_dirty |= st->dirty;
    r->dynamic_dirty |= st->dirty;
    r->constants_dirty |= st->dirty;
    if (st->dirty & (XGDI_DIRTY_SAMPLERS | XGDI_DIRTY_VERTEX_TEXTURES))
        memset(r->user_memo_desc, 0, sizeof r->user_memo_desc);
    if (st->dirty & XGDI_DIRTY_PROGRAM) r->user_memo_vs = r->user_memo_ps = NULL;
    if (st->layout == NULL || d->vertex_count <= 0 || d->primitive_count <= 0) return XGD_OK;
    /* core draws through user programs only (the stock effects are effects too) */
    if (st->program != XGDI_PROGRAM_USER)
        return xgdi_fail(base->device, XGD_ERROR_NOT_SUPPORTED, "vulkan: draws need a user program");
    if (st->vs == NULL || st->ps == NULL || st->vs_constants == NULL) return XGD_OK;
    xgdi_native_texture *t0 = r->targets[0].texture;
    if (t0 == NULL) return XGD_OK;
    int count = vertices_for(d->type, d->primitive_count);
    if (count > d->vertex_count) count = d->vertex_count;
    if (count <= 0) return XGD_OK;

    VkBuffer vbuf = VK_NULL_HANDLE, ibuf = VK_NULL_HANDLE;
    VkDeviceSize voff = 0, ioff = 0, uoff[2] = { 0, 0 };
    int32_t first = 0;
    bool user_vertices = d->vertex_buffer == NULL, user_indices = false;
    if (!user_vertices) {
        if (d->vertex_offset >= d->vertex_buffer->size) return XGD_OK;
        vbuf = d->vertex_buffer->buffer;
        voff = d->vertex_offset;
    } else if (d->user_vertices == NULL || d->user_vertex_count <= 0) {
        return XGD_OK;
    }
    VkIndexType itype = d->index_size == 4 ? VK_INDEX_TYPE_UINT32 : VK_INDEX_TYPE_UINT16;
    if (d->index_size != 0) {
        if (d->index_buffer != NULL) {
            if (d->index_offset >= d->index_buffer->size) return XGD_OK;
            size_t avail = (d->index_buffer->size - d->index_offset) / (size_t)d->index_size;
            if ((size_t)count > avail) count = (int)avail;
            ibuf = d->index_buffer->buffer;
            ioff = d->index_offset;
        } else if (d->user_indices == NULL) {
            return XGD_OK;
        } else {
            user_indices = true;
        }
    }

    /* 1-2. user vertices and indices (ring space, or big buffers for big draws), then the
       constants (ring space); the spans stay until the draw is recorded (released below).
       Any of these allocations may submit the open frame: a full ring that the open frame
       alone filled is submitted and waited for (xvk_ring_alloc), and a frame holding too much
       of big buffers is submitted (xvk_span_alloc). That frees the frame's ring space when it
       completes, including ring space this draw copied into before the submission but has not
       recorded yet: the draw goes into the next frame, which could write over it. So what was
       copied into ring space before the last submission is copied again. That cannot submit
       once more: the ring then holds, since the submission, at most this draw's vertices,
       indices and constants (each at most a quarter of the ring) and one wrap's waste. Big
       buffers stay valid until released, whatever was submitted. */
    xgd_result res = XGD_OK;
    xvk_span vspan = { 0 }, ispan = { 0 };
    bool v_placed = !user_vertices, i_placed = !user_indices;
    uint64_t v_at = 0, i_at = 0;
    for (int pass = 0;; pass++) {
        if (pass == 3) {
            res = xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                            "vulkan: upload ring exhausted by one draw");
            goto out;
        }
        if (!v_placed) {
            if (d->reserved) {
                /* already in ring space (xvk_reserve_vertices), which stays bound at 0 */
                vbuf = r->ring.buffer;
                voff = 0;
                first = (int32_t)d->reserved_at;
            } else if (!place_vertices(r, d, &vspan, &vbuf, &voff, &first)) {
                goto fail;
            }
            v_placed = true;
            v_at = base->submitted_fence;
        }
        if (!i_placed) {
            size_t bytes = (size_t)count * (size_t)d->index_size;
            if (!draw_span_alloc(r, bytes, 4, &ispan)) goto fail;
            memcpy(ispan.ptr, d->user_indices, bytes);
            ibuf = ispan.buffer;
            ioff = ispan.offset;
            i_placed = true;
            i_at = base->submitted_fence;
        }
        if (!place_user_constants(r, st, uoff)) goto fail;
        uint64_t now = base->submitted_fence;
        bool again = false;
        if (user_vertices && d->reserved && v_at != now) {
            /* reserved vertices cannot be copied again: their space went with the submission */
            res = xgdi_fail(base->device, XGD_ERROR_INVALID_OPERATION,
                            "vulkan: the upload ring filled up between the reservation and its "
                            "draw, which submitted the reserved vertices; reserve again");
            goto out;
        }
        if (user_vertices && vspan.big == NULL && v_at != now) {
            xvk_span_release(r, &vspan);
            v_placed = false;
            again = true;
        }
        if (user_indices && ispan.big == NULL && i_at != now) {
            xvk_span_release(r, &ispan);
            i_placed = false;
            again = true;
        }
        if (!again) break;
    }
    r->user_bound_offsets_pending[0] = uoff[0];
    r->user_bound_offsets_pending[1] = uoff[1];
    res = record_draw(r, d, t0, count, vbuf, voff, first, ibuf, ioff, itype);
    goto out;
fail:
    res = xgdi_failure(base->device);
out:
    /* ring space needs no release (reclaimed when its submission completes) */
    if (ispan.big != NULL) xvk_span_release(r, &ispan);
    if (vspan.big != NULL) xvk_span_release(r, &vspan);
    return res;
}

/* The image view and sampler of every register the user shaders sample (r->user_memo_used;
   the other entries are left as they were): the pixel shader's registers, then the vertex
   shader's (vertex texture slots). Which registers are sampled is found once per pair of shaders, and each register's
   sampler is looked up only when its sampler description or the texture's filterability
   changed (a sampler state's description is immutable while it is bound; a new or destroyed
   one marks the samplers dirty, which forgets the memo in xvk_draw). */
static xgd_result user_bindings(xvk_renderer *r, const xgdi_draw_state *st, VkImageView *uviews,
                                VkSampler *usamplers)
{
    if (st->vs != r->user_memo_vs || st->ps != r->user_memo_ps) {
        uint32_t used = 0;
        for (int i = 0; i < XVK_USER_SAMPLERS; i++) {
            bool vertex = i >= XGDI_SHADER_MAX_SAMPLERS;
            int reg = vertex ? i - XGDI_SHADER_MAX_SAMPLERS : i;
            xgdi_sampler_kind kind = vertex ? st->vs->sampler_kinds[reg] : st->ps->sampler_kinds[reg];
            if (kind != XGDI_SAMPLER_NONE) used |= 1u << i;
        }
        r->user_memo_vs = st->vs;
        r->user_memo_ps = st->ps;
        r->user_memo_used = used;
    }
    for (uint32_t used = r->user_memo_used; used != 0; used &= used - 1) {
        int i = xgdi_lowest_bit(used);
        bool vertex = i >= XGDI_SHADER_MAX_SAMPLERS;
        int reg = vertex ? i - XGDI_SHADER_MAX_SAMPLERS : i;
        xgdi_sampler_kind kind = vertex ? st->vs->sampler_kinds[reg] : st->ps->sampler_kinds[reg];
        xgdi_native_texture *bound = vertex ? st->vertex_textures[reg] : st->textures[reg];
        const xgd_sampler_desc *bound_sampler = vertex ? st->vertex_samplers[reg] : st->samplers[reg];
        /* core guarantees a bound texture's kind matches the register's */
        xgdi_native_texture *ut = bound != NULL ? bound
                                  : kind == XGDI_SAMPLER_3D ? r->dummy_volume
                                                            : r->dummy_texture;
        if (ut == NULL || (kind == XGDI_SAMPLER_CUBE && bound == NULL))
            return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                             "vulkan: sampler s%d of the %s shader needs a %s texture bound", reg,
                             vertex ? "vertex" : "pixel", kind == XGDI_SAMPLER_CUBE ? "cube" : "3D");
        static const xgd_sampler_desc user_default = { XGD_FILTER_LINEAR, XGD_ADDRESS_WRAP, XGD_ADDRESS_WRAP,
                                                       XGD_ADDRESS_WRAP, 4, 0, 0.0f };
        const xgd_sampler_desc *sd = bound_sampler != NULL ? bound_sampler : &user_default;
        bool filterable = r->support[ut->desc.format].filterable;
        if (sd != r->user_memo_desc[i] || filterable != r->user_memo_filterable[i]) {
            VkSampler smp = get_sampler(r, sd, filterable);
            if (smp == VK_NULL_HANDLE) return xgdi_failure(r->base.device);
            r->user_memo_desc[i] = sd;
            r->user_memo_filterable[i] = filterable;
            r->user_memo_sampler[i] = smp;
        }
        usamplers[i] = r->user_memo_sampler[i];
        uviews[i] = ut->view;
    }
    return XGD_OK;
}

/* Pushes the user draw's stage blocks and combined image samplers. Push descriptors update
   incrementally (the Vulkan spec: a pushed binding keeps its descriptor until pushed again or
   the set is disturbed, and every user pipeline shares one layout), so once the set is valid
   in this command buffer only the bindings that changed are written. */
static void push_user_descriptors(xvk_renderer *r, VkCommandBuffer cmd, const xgdi_draw_state *st,
                                  const VkImageView *uviews, const VkSampler *usamplers)
{
    const VkDeviceSize *off = r->user_bound_offsets_pending;
    bool all = !r->user_descriptors_valid;
    VkWriteDescriptorSet w[2 + XVK_USER_SAMPLERS];
    VkDescriptorBufferInfo bi[2];
    VkDescriptorImageInfo ii[XVK_USER_SAMPLERS];
    uint32_t n = 0;
    size_t sizes[2] = { st->vs_constants_size, st->ps_constants_size };
    for (uint32_t b = 0; b < 2; b++) {
        if (sizes[b] == 0 || (!all && off[b] == r->user_bound_offsets[b])) continue;
        bi[b] = (VkDescriptorBufferInfo){ r->ring.buffer, off[b], sizes[b] };
        w[n++] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                         .dstBinding = b, .descriptorCount = 1,
                                         .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                                         .pBufferInfo = &bi[b] };
        r->user_bound_offsets[b] = off[b];
    }
    for (uint32_t used = r->user_memo_used; used != 0; used &= used - 1) {
        uint32_t i = (uint32_t)xgdi_lowest_bit(used);
        if (!all && uviews[i] == r->user_bound_views[i] && usamplers[i] == r->user_bound_samplers[i]) continue;
        ii[i] = (VkDescriptorImageInfo){ usamplers[i], uviews[i], VK_IMAGE_LAYOUT_GENERAL };
        w[n++] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                         .dstBinding = XGDI_SHADER_BINDING_SAMPLER0 + i,
                                         .descriptorCount = 1,
                                         .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                         .pImageInfo = &ii[i] };
        r->user_bound_views[i] = uviews[i];
        r->user_bound_samplers[i] = usamplers[i];
    }
    if (n == 0) {
        r->counters.descriptor_skips++;
        return;
    }
    r->push_descriptor(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->user_pipeline_layout, 0, n, w);
    if (all) {
        /* registers this program does not sample hold nothing pushed in this command buffer */
        for (uint32_t i = 0; i < XVK_USER_SAMPLERS; i++)
            if (!(r->user_memo_used >> i & 1u)) r->user_bound_views[i] = VK_NULL_HANDLE;
    }
    r->user_descriptors_valid = true;
    r->counters.descriptor_pushes++;
    xvk_note_descriptors(r, n);
}

static xgd_result record_draw(xvk_renderer *r, const xgdi_draw *d, xgdi_native_texture *t0, int count,
                              VkBuffer vbuf, VkDeviceSize voff, int32_t first, VkBuffer ibuf,
                              VkDeviceSize ioff, VkIndexType itype)
{
    xgdi_renderer *base = &r->base;
    const xgdi_draw_state *st = d->state;
    const xgdi_vertex_layout *lay = st->layout;

    /* 3. pipeline */
    /* the pipeline of the last draw serves again while nothing it depends on changed; the
       vertex layout is in the key by its hash (a draw through several streams: the combined
       layout's, which covers every stream's elements, stride and frequency), so the memo
       compares that hash instead of the layout's dirty bit, which core sets for every draw
       through several streams */
    const uint32_t key_bits = XGDI_DIRTY_BLEND | XGDI_DIRTY_DEPTH_STENCIL | XGDI_DIRTY_RASTERIZER |
                              XGDI_DIRTY_PROGRAM | XGDI_DIRTY_LAYOUT;
    uint64_t layout_hash = d->stream_count > 0 ? d->stream_layout->hash : lay->hash;
    VkPipeline pipe = r->last_pipeline;
    if (pipe == VK_NULL_HANDLE || (r->pending_dirty & key_bits & ~(uint32_t)XGDI_DIRTY_LAYOUT) ||
        d->type != r->last_type || r->last_targets_gen != r->targets_gen ||
        layout_hash != r->last_layout_hash || d->stream_count != r->last_stream_count ||
        d->per_instance != r->last_per_instance) {
        xvk_pipeline_key key;
        build_key(r, d, &key);
        r->building_vs = st->vs;
        r->building_ps = st->ps;
        r->building_draw = d;
        pipe = get_pipeline(r, &key, lay);
        r->building_draw = NULL;
        if (pipe == VK_NULL_HANDLE) return xgdi_failure(base->device);
        r->counters.pipeline_lookups++;
        r->last_pipeline = pipe;
        r->last_type = d->type;
        r->last_layout_hash = layout_hash;
        r->last_stream_count = d->stream_count;
        r->last_per_instance = d->per_instance;
        r->last_targets_gen = r->targets_gen;
        r->pending_dirty &= ~key_bits;
    }

    /* the texture and sampler of every register the shaders sample */
    VkImageView uviews[XVK_USER_SAMPLERS];
    VkSampler usamplers[XVK_USER_SAMPLERS];
    xgd_result ures = user_bindings(r, st, uviews, usamplers);
    if (ures != XGD_OK) return ures;

    /* 4. record */
    VkCommandBuffer cmd = r->recording ? r->frames[r->frame_index].cmd : xvk_cmd(r);
    if (cmd == VK_NULL_HANDLE) return r->lost ? XGD_ERROR_DEVICE_LOST : XGD_ERROR_INVALID_OPERATION;
    if (!r->rendering && !begin_rendering(r, cmd)) return XGD_OK;
    if (pipe != r->bound_pipeline) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        r->bound_pipeline = pipe;
        r->counters.pipeline_binds++;
    }
    push_user_descriptors(r, cmd, st, uviews, usamplers);
    /* the dynamic state follows the viewport, scissor, rasterizer, blend and depth-stencil
       states and the targets: derived and compared again only when one of them changed */
    const uint32_t dynamic_bits = XGDI_DIRTY_VIEWPORT | XGDI_DIRTY_SCISSOR | XGDI_DIRTY_RASTERIZER |
                                  XGDI_DIRTY_BLEND | XGDI_DIRTY_DEPTH_STENCIL;
    if (!r->viewport_valid || (r->dynamic_dirty & dynamic_bits) || r->dynamic_targets_gen != r->targets_gen) {
        /* viewport: D3D clip conventions in the shader form, so y is flipped with a negative height
           (Vulkan 1.1): y = vp.y + (1 - ndc.y) * vp.h / 2 as in the software renderer */
        const xgd_viewport *v = &st->viewport;
        VkViewport vv = { (float)v->x, (float)(v->y + v->height), (float)v->width, -(float)v->height,
                          v->min_depth, v->max_depth };
        VkRect2D sc = { { 0, 0 }, { (uint32_t)t0->desc.width, (uint32_t)t0->desc.height } };
        if (st->rasterizer != NULL && st->rasterizer->scissor_test_enable) {
            int x0 = st->scissor.x, y0 = st->scissor.y;
            int x1 = x0 + st->scissor.width, y1 = y0 + st->scissor.height;
            if (x0 < 0) x0 = 0;
            if (y0 < 0) y0 = 0;
            if (x1 > t0->desc.width) x1 = t0->desc.width;
            if (y1 > t0->desc.height) y1 = t0->desc.height;
            if (x1 < x0) x1 = x0;
            if (y1 < y0) y1 = y0;
            sc.offset.x = x0;
            sc.offset.y = y0;
            sc.extent.width = (uint32_t)(x1 - x0); /* zero extent: nothing drawn (CLIPS_ALL) */
            sc.extent.height = (uint32_t)(y1 - y0);
        }
        float bf[4] = { 1.0f, 1.0f, 1.0f, 1.0f };
        if (st->blend != NULL) {
            xgd_color f = st->blend->blend_factor;
            bf[0] = f.r / 255.0f;
            bf[1] = f.g / 255.0f;
            bf[2] = f.b / 255.0f;
            bf[3] = f.a / 255.0f;
        }
        uint32_t sref = st->depth_stencil != NULL ? (uint32_t)st->depth_stencil->reference_stencil & 0xffu : 0;
        if (!r->viewport_valid || memcmp(&vv, &r->bound_viewport, sizeof vv) != 0) {
            vkCmdSetViewport(cmd, 0, 1, &vv);
            r->bound_viewport = vv;
        }
        if (!r->viewport_valid || memcmp(&sc, &r->bound_scissor, sizeof sc) != 0) {
            vkCmdSetScissor(cmd, 0, 1, &sc);
            r->bound_scissor = sc;
        }
        if (!r->viewport_valid || memcmp(bf, r->bound_blend, sizeof bf) != 0) {
            vkCmdSetBlendConstants(cmd, bf);
            memcpy(r->bound_blend, bf, sizeof bf);
        }
        if (!r->viewport_valid || sref != r->bound_stencil_ref) {
            vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, sref);
            r->bound_stencil_ref = sref;
        }
        r->viewport_valid = true;
        r->dynamic_dirty = 0;
        r->dynamic_targets_gen = r->targets_gen;
    }
    if (d->stream_count > 0) {
        xvk_bind_streams(r, cmd, d);
    } else if (!r->vb_valid || vbuf != r->bound_vb || voff != r->bound_vb_offset) {
        VkBuffer vbs[2] = { vbuf, r->defaults_buffer };
        VkDeviceSize vos[2] = { voff, 0 };
        vkCmdBindVertexBuffers(cmd, 0, 2, vbs, vos);
        r->bound_vb = vbuf;
        r->bound_vb_offset = voff;
        r->vb_valid = true;
    }
    uint32_t instances = d->instance_count > 1 ? (uint32_t)d->instance_count : 1u;
    if (d->index_size != 0) {
        /* a buffer destroyed while bound is retired until this command buffer completes, so
           an equal handle within one command buffer is the same buffer */
        if (!r->ib_valid || ibuf != r->bound_ib || ioff != r->bound_ib_offset || itype != r->bound_ib_type) {
            vkCmdBindIndexBuffer(cmd, ibuf, ioff, itype);
            r->bound_ib = ibuf;
            r->bound_ib_offset = ioff;
            r->bound_ib_type = itype;
            r->ib_valid = true;
            r->counters.index_binds++;
        }
        if (d->per_instance)
            /* an element a quad at instance rate, the corner from the index (0..3) */
            r->cmd_draw_indexed(cmd, (uint32_t)count, instances, 0, 0,
                                (uint32_t)first + (uint32_t)d->first_instance);
        else
            r->cmd_draw_indexed(cmd, (uint32_t)count, instances, 0, d->base_vertex + first, 0);
    } else {
        r->cmd_draw(cmd, (uint32_t)count, instances, (uint32_t)first + (uint32_t)(d->first_vertex > 0 ? d->first_vertex : 0), 0);
    }
    bool ms = false;
    for (int i = 0; i < r->target_count; i++)
        if (r->targets[i].texture->samples > 1) {
            r->targets[i].texture->ms_dirty[r->targets[i].face] = true;
            ms = true;
        }
    /* what fast_draw relies on: user vertices in ring space bound at offset 0 (first names
       the draw's first vertex), no streams, no indices, one instance, a layout with a stride,
       and the draw's layout in place_vertices' memo */
    bool armed = d->vertex_buffer == NULL && d->stream_count == 0 && d->index_size == 0 &&
                 d->instance_count <= 1 && vbuf == r->ring.buffer && voff == 0 &&
                 lay == r->memo_layout && lay->stride > 0 && r->rendering && !r->lost;
    /* the pipeline draws d->type (last_type) */
    r->fast_type = armed ? (int)d->type : XVK_FAST_DISARMED;
    r->fast_one = r->user_memo_used == 1u && r->user_templates[0] != VK_NULL_HANDLE;
    r->fast_one_type = r->fast_one && !ms ? r->fast_type : XVK_FAST_DISARMED;
    r->fast_ms = ms;
    r->ring.fast_limit = 0;
    r->fast_cmd = cmd;
    xvk_fast_settle(r); /* into the frame that recorded them */
    r->fast_frame = &r->frames[r->frame_index];
    r->runs_armed = d->reserved && d->index_size == 2 && d->stream_count == 0 &&
                    (d->instance_count <= 1 || d->per_instance) && vbuf == r->ring.buffer &&
                    r->rendering && !r->lost;
    r->fast_stride = (size_t)lay->stride;
    r->fast_extra = r->memo_layout_reach > r->fast_stride ? r->memo_layout_reach - r->fast_stride : 0;
    r->fast_one_prims = 0;
    if (r->fast_one_type != XVK_FAST_DISARMED) fast_one_remember(r, d->type, d->primitive_count);
    if (r->fast_writes[0].sType != VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET)
        for (int k = 0; k < XVK_USER_SAMPLERS; k++) {
            r->fast_writes[k] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                                        .descriptorCount = 1,
                                                        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                                        .pImageInfo = &r->fast_images[k] };
            r->fast_images[k].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        }
    /* write k pushes register k with the sampler it has now (no sampler changes while armed) */
    for (uint32_t used = r->user_memo_used; used != 0; used &= used - 1) {
        int k = xgdi_lowest_bit(used);
        r->fast_writes[k].dstBinding = XGDI_SHADER_BINDING_SAMPLER0 + (uint32_t)k;
        r->fast_images[k].sampler = r->user_bound_samplers[k];
    }
    return XGD_OK;
}

/* ---- quads written in place and drawn in runs ---- */

xgd_result xvk_reserve_vertices(xgdi_renderer *base, size_t bytes, size_t stride, void **cpu,
                                uint64_t *at)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    /* Taken with the vertices and handed back at once: room for the draw's two constant
       blocks, so that placing them cannot fill the ring and submit the reserved vertices
       before their draw is recorded. One stride more pads the start to a multiple of the
       stride (the ring stays bound at offset 0 and the draw names its first vertex), one
       more covers elements that reach past the stride, and up to 15 more move the start to
       a 16-byte boundary (upload_streams: 16 / gcd(stride, 16) - 1 at most). */
    uint64_t align = r->props.limits.minUniformBufferOffsetAlignment;
    uint64_t slack = 2 * ((uint64_t)(XGDI_SHADER_MAX_REGISTERS + 1) * 16 + (align > 16 ? align : 16));
    /* a held reservation is drawn after other work: room for more of it, so that the draws
       between it and its own seldom fill the ring and submit (which ends it) */
    if (base->holding) slack += XVK_HOLD_HEADROOM;
    uint64_t size = (uint64_t)bytes + 17 * (uint64_t)stride;
    if (stride == 0 || size + slack > r->ring.size / 4)
        return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY,
                         "vulkan: %zu reserved bytes exceed a quarter of the %llu-byte upload ring",
                         bytes, (unsigned long long)r->ring.size);
    VkDeviceSize off;
    void *p;
    if (!xvk_ring_alloc(r, size + slack, 16, &off, &p)) return xgdi_failure(base->device);
    r->ring.head -= slack; /* the last allocation: nothing was taken after it */
    r->ring.fast_limit = 0;
    uint64_t first = (off + stride - 1) / stride;
    uint8_t *start = (uint8_t *)p + (first * stride - off);
    for (int k = 0; k < 15 && ((uintptr_t)start & 15u) != 0; k++) { /* page-aligned mapping */
        first++;
        start += stride;
    }
    *cpu = start;
    *at = first;
    return XGD_OK;
}

xgd_result xvk_draw_quad_runs(xgdi_renderer *base, const xgdi_draw *d, const xgdi_quad_run *runs,
                              int count, int *drawn)
{
    xvk_renderer *r = xvk_cast(base);
    *drawn = 0;
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    const xgdi_draw_state *st = d->state;
    /* pixel sampler register 0 is what changes between runs (bit 0 of the sampled set) */
    const bool sampled = (r->user_memo_used & 1u) != 0;
    int k = 0;
    while (k < count) {
        xgdi_native_texture *t = runs[k].texture;
        /* the short way: the last draw was this one's (armed), so only register 0's image
           differs; a texture of another filterability needs another sampler, and goes the
           general way with the run's slot 0 */
        if (!r->runs_armed || (sampled && t->filterable != r->user_memo_filterable[0])) {
            xgdi_draw_state s = *st;
            s.textures[0] = t;
            s.dirty = XGDI_DIRTY_TEXTURES;
            xgdi_draw one = *d;
            one.state = &s;
            if (d->per_instance) {
                one.primitive_count = 2;
                one.vertex_count = 6;
                one.instance_count = runs[k].quad_count;
                one.first_instance = runs[k].base_vertex / 4;
            } else {
                one.primitive_count = runs[k].quad_count * 2;
                one.vertex_count = runs[k].quad_count * 6;
                one.base_vertex = runs[k].base_vertex;
            }
            xgd_result res = xvk_draw(base, &one);
            if (res != XGD_OK) return res;
            if (!r->runs_armed) return xgdi_fail(base->device, XGD_ERROR_INVALID_OPERATION,
                                                 "vulkan: a quad run could not be recorded");
            *drawn = ++k;
            continue;
        }
        /* Runs on the short way, with what they read held here: nothing below calls back
           into the renderer, so the fields are written once after the last of them. */
        VkCommandBuffer cmd = r->frames[r->frame_index].cmd;
        const VkPipelineLayout layout = r->user_pipeline_layout;
        const VkDescriptorUpdateTemplate tmpl = r->user_templates[0];
        const bool filterable = r->user_memo_filterable[0], ms = r->fast_ms;
        const int32_t at = (int32_t)d->reserved_at;
        VkImageView bound = r->user_bound_views[0];
        uint64_t pushes = 0;
        if (sampled) {
            r->fast_writes[0].dstBinding = XGDI_SHADER_BINDING_SAMPLER0;
            r->fast_images[0].sampler = r->user_bound_samplers[0];
        }
        for (; k < count; k++) {
            const xgdi_quad_run *run = &runs[k];
            t = run->texture;
            if (sampled) {
                if (t->filterable != filterable) break;
                if (t->view != bound) {
                    r->fast_images[0].imageView = bound = t->view;
                    if (tmpl != VK_NULL_HANDLE)
                        r->push_template(cmd, tmpl, layout, 0, r->fast_images);
                    else
                        r->push_descriptor(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, r->fast_writes);
                    pushes++;
                }
            }
            if (d->per_instance)
                r->cmd_draw_indexed(cmd, 6, (uint32_t)run->quad_count, 0, 0,
                                    (uint32_t)(at + run->base_vertex / 4));
            else
                r->cmd_draw_indexed(cmd, (uint32_t)run->quad_count * 6, 1, 0,
                                    run->base_vertex + at, 0);
            if (ms)
                for (int i = 0; i < r->target_count; i++)
                    if (r->targets[i].texture->samples > 1) r->targets[i].texture->ms_dirty[r->targets[i].face] = true;
        }
        r->user_bound_views[0] = bound;
        r->counters.descriptor_pushes += pushes;
        xvk_note_descriptors(r, pushes);
        *drawn = k;
    }
    return XGD_OK;
}

/* ---- uploads into multisampled targets ---- */

/*
 * An upload writes the sampleable (resolved) image; the software reference also copies it into
 * every sample, so later draws with PreserveContents blend over it and the next resolve keeps
 * it. Vulkan copies (vkCmdCopyImage) and blits only between images of equal sample counts, and
 * vkCmdResolveImage goes from many samples to one, so the fill is a draw: a full-screen
 * triangle whose pixel shader loads the resolved texel at its own pixel
 * (shaders/fill_samples.hlsl), which writes it unchanged into every sample.
 */
void xvk_refill_samples(xvk_renderer *r, xgdi_native_texture *t, int face)
{
    if (t->samples <= 1 || t->ms_views == NULL) return;
    xvk_end_rendering(r);
    static const xgdi_vertex_layout no_inputs = { .hash = 0x7876b5f11a5a3f01ull /* private */ };
    xvk_pipeline_key k;
    memset(&k, 0, sizeof k);
    k.program = XVK_PIPELINE_FILL_SAMPLES;
    k.layout_hash = no_inputs.hash;
    k.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    k.color_count = 1;
    k.color_formats[0] = (uint32_t)t->format;
    k.depth_format = VK_FORMAT_UNDEFINED;
    k.samples = (uint32_t)t->samples;
    k.sample_mask = 0xffffffffu;
    k.blend[0][7] = 15;
    k.cull = VK_CULL_MODE_NONE;
    VkPipeline pipe = get_pipeline(r, &k, &no_inputs);
    VkCommandBuffer cmd = xvk_cmd(r);
    if (pipe == VK_NULL_HANDLE || cmd == VK_NULL_HANDLE) return;
    xgdi_target saved[XVK_MAX_TARGETS];
    memcpy(saved, r->targets, sizeof saved);
    int saved_count = r->target_count;
    memset(r->targets, 0, sizeof r->targets);
    r->targets[0].texture = t;
    r->targets[0].face = face;
    r->target_count = 1;
    /* the depth attachment is not part of this pass */
    VkRenderingAttachmentInfo ca = { .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                     .imageView = t->ms_views[face], .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE };
    VkRect2D full = { { 0, 0 }, { (uint32_t)t->desc.width, (uint32_t)t->desc.height } };
    VkRenderingInfo ri = { .sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = full, .layerCount = 1,
                           .colorAttachmentCount = 1, .pColorAttachments = &ca };
    xvk_barrier(r, cmd);
    /* an internal draw: an active occlusion query must not count it (vk_query.c) */
    xvk_query_suspend(r, cmd);
    xvk_label_insertf(r, cmd, "refill samples from the resolved face %d", face);
    xvk_label_begin_targets(r, cmd);
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, t->rt_views[face], VK_IMAGE_LAYOUT_GENERAL };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0,
                               .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                               .pImageInfo = &ii };
    r->push_descriptor(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipeline_layout, 0, 1, &w);
    xvk_note_descriptors(r, 1);
    VkViewport vv = { 0, 0, (float)t->desc.width, (float)t->desc.height, 0, 1 };
    vkCmdSetViewport(cmd, 0, 1, &vv);
    vkCmdSetScissor(cmd, 0, 1, &full);
    const float ones[4] = { 1, 1, 1, 1 };
    vkCmdSetBlendConstants(cmd, ones);
    vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, 0);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRendering(cmd);
    xvk_label_end(r, cmd);
    xvk_query_resume(r, cmd);
    r->hazard = true;
    memcpy(r->targets, saved, sizeof saved);
    r->target_count = saved_count;
    r->targets_gen++;
    xvk_reset_bindings(r);
    t->ms_dirty[face] = false;
}
