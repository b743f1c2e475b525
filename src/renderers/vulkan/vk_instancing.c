/*
 * vk_instancing.c - draws through several vertex buffers (xgd_set_vertex_buffers) and
 * instancing: the vertex input state of such a pipeline and the streams' binding.
 *
 * Stream i of the draw is vertex binding i (input rate VERTEX for per-vertex data, INSTANCE
 * for per-instance data, with the frequency as the attribute divisor when it is above 1);
 * binding stream_count is the zero-stride defaults buffer, for inputs no stream holds.
 */
#include "vk_internal.h"

#include <string.h>

xgd_result xvk_stream_inputs(xvk_renderer *r, const xgdi_draw *d, const xgdi_native_shader *vs,
                             VkPipelineVertexInputStateCreateInfo *vi,
                             VkVertexInputAttributeDescription *attrs,
                             VkVertexInputBindingDescription *binds,
                             VkVertexInputBindingDivisorDescriptionEXT *divs,
                             VkPipelineVertexInputDivisorStateCreateInfoEXT *div)
{
    uint32_t n = (uint32_t)d->stream_count, ndiv = 0;
    for (uint32_t s = 0; s < n; s++) {
        int f = d->streams[s].instance_frequency;
        binds[s] = (VkVertexInputBindingDescription){
            s, (uint32_t)d->streams[s].stride,
            f > 0 ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX };
        if (f > 1) {
            if (!r->has_divisor)
                return xgdi_fail(r->base.device, XGD_ERROR_NOT_SUPPORTED,
                                 "vulkan: instance frequency %d needs "
                                 "VK_EXT_vertex_attribute_divisor, which %s lacks",
                                 f, r->adapter_name);
            divs[ndiv++] = (VkVertexInputBindingDivisorDescriptionEXT){ s, (uint32_t)f };
        }
    }
    bool need_defaults = false;
    const xgdi_vertex_layout *cl = d->stream_layout;
    for (int i = 0; i < vs->input_count; i++) {
        const xgdi_shader_input *in = &vs->inputs[i];
        attrs[i].location = (uint32_t)in->location;
        int j = 0;
        while (j < cl->count && !(cl->elements[j].usage == in->usage &&
                                  cl->elements[j].usage_index == in->usage_index))
            j++;
        if (j < cl->count) {
            attrs[i].binding = d->element_stream[j];
            attrs[i].format = xvk_attribute_format(cl->elements[j].format);
            attrs[i].offset = (uint32_t)cl->elements[j].offset;
        } else {
            attrs[i].binding = n;
            attrs[i].format = VK_FORMAT_R32G32B32A32_SFLOAT;
            attrs[i].offset = 0;
            need_defaults = true;
        }
    }
    binds[n] = (VkVertexInputBindingDescription){ n, 0, VK_VERTEX_INPUT_RATE_VERTEX };
    *div = (VkPipelineVertexInputDivisorStateCreateInfoEXT){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT,
        .vertexBindingDivisorCount = ndiv, .pVertexBindingDivisors = divs };
    vi->pNext = ndiv > 0 ? div : NULL;
    vi->vertexBindingDescriptionCount = n + (need_defaults ? 1u : 0u);
    vi->pVertexBindingDescriptions = binds;
    vi->vertexAttributeDescriptionCount = (uint32_t)vs->input_count;
    vi->pVertexAttributeDescriptions = attrs;
    return XGD_OK;
}

void xvk_bind_streams(xvk_renderer *r, VkCommandBuffer cmd, const xgdi_draw *d)
{
    VkBuffer bufs[XGD_MAX_VERTEX_BUFFER_BINDINGS + 1];
    VkDeviceSize offs[XGD_MAX_VERTEX_BUFFER_BINDINGS + 1];
    uint32_t n = (uint32_t)d->stream_count;
    for (uint32_t s = 0; s < n; s++) {
        bufs[s] = d->streams[s].buffer->buffer;
        offs[s] = d->streams[s].offset;
    }
    bufs[n] = r->defaults_buffer;
    offs[n] = 0;
    vkCmdBindVertexBuffers(cmd, 0, n + 1, bufs, offs);
    r->vb_valid = false; /* the next single-stream draw binds its own again */
}
