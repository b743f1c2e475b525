/*
 * vk_user.c - user shaders: the shader form of renderer.h runs as-is (it is Vulkan SPIR-V), so
 * a native shader is its VkShaderModule plus the reflection draws need. Every user pipeline
 * shares one push-descriptor set layout that mirrors the form's bindings: 0 the vertex block,
 * 1 the pixel block, 2 + s the combined image sampler of pixel sampler register s, 18 + s that
 * of vertex sampler register s (vertex texture slot s).
 */
#include "vk_internal.h"

#include <stdlib.h>
#include <string.h>

xgd_result xvk_user_init(xvk_renderer *r)
{
    VkDescriptorSetLayoutBinding b[2 + XVK_USER_SAMPLERS];
    b[0] = (VkDescriptorSetLayoutBinding){ XGDI_SHADER_BINDING_VS_CONSTANTS, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                           VK_SHADER_STAGE_VERTEX_BIT, NULL };
    b[1] = (VkDescriptorSetLayoutBinding){ XGDI_SHADER_BINDING_PS_CONSTANTS, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                                           VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
    /* pixel sampler registers, then the vertex texture slots (VERTEX_SAMPLER0 follows them) */
    for (uint32_t s = 0; s < XVK_USER_SAMPLERS; s++)
        b[2 + s] = (VkDescriptorSetLayoutBinding){ XGDI_SHADER_BINDING_SAMPLER0 + s,
                                                   VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                                   s < XGDI_SHADER_MAX_SAMPLERS ? VK_SHADER_STAGE_FRAGMENT_BIT
                                                                                : VK_SHADER_STAGE_VERTEX_BIT,
                                                   NULL };
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                           .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                           .bindingCount = 2 + XVK_USER_SAMPLERS, .pBindings = b };
    xgd_result res = xvk_check(r, vkCreateDescriptorSetLayout(r->dev, &li, NULL, &r->user_set_layout),
                               "vkCreateDescriptorSetLayout");
    if (res != XGD_OK) return res;
    VkPipelineLayoutCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1, .pSetLayouts = &r->user_set_layout };
    res = xvk_check(r, vkCreatePipelineLayout(r->dev, &pi, NULL, &r->user_pipeline_layout),
                    "vkCreatePipelineLayout");
    if (res != XGD_OK || r->push_template == NULL) return res;
    for (uint32_t s = 0; s < XVK_USER_SAMPLERS; s++) {
        VkDescriptorUpdateTemplateEntry e = { XGDI_SHADER_BINDING_SAMPLER0 + s, 0, 1,
                                              VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 0,
                                              sizeof(VkDescriptorImageInfo) };
        VkDescriptorUpdateTemplateCreateInfo ti = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
            .descriptorUpdateEntryCount = 1, .pDescriptorUpdateEntries = &e,
            .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
            .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
            .pipelineLayout = r->user_pipeline_layout, .set = 0 };
        res = xvk_check(r, vkCreateDescriptorUpdateTemplate(r->dev, &ti, NULL, &r->user_templates[s]),
                        "vkCreateDescriptorUpdateTemplate");
        if (res != XGD_OK) return res;
    }
    return XGD_OK;
}

void xvk_user_destroy(xvk_renderer *r)
{
    for (int s = 0; s < XVK_USER_SAMPLERS; s++) {
        if (r->user_templates[s]) vkDestroyDescriptorUpdateTemplate(r->dev, r->user_templates[s], NULL);
        r->user_templates[s] = VK_NULL_HANDLE;
    }
    if (r->user_pipeline_layout) vkDestroyPipelineLayout(r->dev, r->user_pipeline_layout, NULL);
    if (r->user_set_layout) vkDestroyDescriptorSetLayout(r->dev, r->user_set_layout, NULL);
    r->user_pipeline_layout = VK_NULL_HANDLE;
    r->user_set_layout = VK_NULL_HANDLE;
}

xgd_result xvk_shader_create(xgdi_renderer *base, const xgdi_shader_desc *desc, xgdi_native_shader **out)
{
    xvk_renderer *r = xvk_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgdi_native_shader *s = calloc(1, sizeof *s);
    if (s == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "vulkan: out of memory");
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = desc->word_count * 4, .pCode = desc->code };
    xgd_result res = xvk_check(r, vkCreateShaderModule(r->dev, &ci, NULL, &s->module), "vkCreateShaderModule");
    if (res != XGD_OK) {
        free(s);
        return res;
    }
    s->stage = desc->stage;
    s->serial = ++r->user_serial;
    s->constant_count = desc->constant_count;
    s->input_count = desc->input_count;
    memcpy(s->inputs, desc->inputs, sizeof *s->inputs * (size_t)desc->input_count);
    memcpy(s->sampler_kinds, desc->sampler_kinds, sizeof s->sampler_kinds);
    s->color_outputs = desc->color_outputs;
    *out = s;
    return XGD_OK;
}

/* Pipelines made from the module keep their own copy of the code, and a recorded command
   buffer never references the module, so it can go at once. The pipelines made from it leave
   the cache (keyed by serial numbers that are never reused, so no later draw can ask for them)
   and are destroyed after the work that may use them. */
void xvk_shader_destroy(xgdi_renderer *base, xgdi_native_shader *s)
{
    xvk_renderer *r = xvk_cast(base);
    if (s == NULL) return;
    xvk_pipelines_forget_shader(r, s->serial);
    if (r->building_vs == s) r->building_vs = NULL;
    if (r->building_ps == s) r->building_ps = NULL;
    if (s->module) vkDestroyShaderModule(r->dev, s->module, NULL);
    free(s);
}
