/*
 * vk-raw-bench - xgd's per-draw CPU cost on the Vulkan renderer as a ratio of a raw Vulkan loop
 * that records the same draws directly (issue 4, "bench").
 *
 * Scene (as /work/shared/notes/platform-measurements.md measured it): N textured 8x8 quads per
 * frame into a 640x480 RGBA8 off-screen target, one draw per quad, a texture change every draw
 * (16 textures), the last frame checked at one pixel per texture.
 *   raw   one command buffer per frame: dynamic rendering, the stock sprite shaders, the quad's
 *         four vertices written into a persistently mapped buffer (device-local where the
 *         CPU can map it, as xgd's ring), the constants and sampler
 *         pushed once, then one push-descriptor update of the texture (a one-entry update
 *         template) and one vkCmdDraw per quad; its command pool's host memory on the arena
 *         xgd's renderer gives its pools (src/renderers/vulkan/vk_cmd_arena.c, built in), so
 *         that neither loop pays the driver's per-command mallocs;
 *   xgd   the same draws through the public API on the "vulkan" renderer (bench_common.c,
 *         which also holds the scene, the timing and the report).
 * The ratio is of the draw loops' CPU time per draw, each from the pass's first recorded
 * command (xgd records the pass's opening at its first draw; the raw loop's timer starts
 * before its own opening commands) to its last draw; the frame's recording + submission and
 * the time until it finished are reported beside it (bench_common.c says how: rounds over
 * N = 1,000 / 10,000 / 100,000 by default, JSON, an SVG chart, allocations per draw).
 *
 * usage: vk-raw-bench [--draws N[,N...]] [--frames F] [--rounds R] [--json FILE] [--svg FILE]
 *                     [--malloc-trim on|off]
 */
#include "xgd.h"
#include "sprite_spirv.h"

#include <vulkan/vulkan.h>

#include "bench_common.h"
#include "vk_cmd_arena.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VK(expr)                                                                            \
    do {                                                                                    \
        VkResult vk_r_ = (expr);                                                            \
        if (vk_r_ != VK_SUCCESS) {                                                          \
            fprintf(stderr, "vk-raw-bench:%d: %s failed (%d)\n", __LINE__, #expr, (int)vk_r_); \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

/* ---- raw Vulkan ---------------------------------------------------------------------------- */

typedef struct raw {
    VkInstance inst;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties mp;
    PFN_vkCmdPushDescriptorSetKHR push;
    /* the per-draw calls through the device's own entry points, not the loader's trampolines */
    PFN_vkCmdDraw draw;
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_t;
} raw;

static uint32_t mem_type_or_none(const raw *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < g->mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (g->mp.memoryTypes[i].propertyFlags & want) == want) return i;
    return UINT32_MAX;
}

static uint32_t mem_type(const raw *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    uint32_t i = mem_type_or_none(g, bits, want);
    if (i != UINT32_MAX) return i;
    fprintf(stderr, "vk-raw-bench: no memory type\n");
    exit(1);
}

static VkDeviceMemory bind_memory(const raw *g, VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                .allocationSize = req.size,
                                .memoryTypeIndex = mem_type(g, req.memoryTypeBits, want) };
    VkDeviceMemory m;
    VK(vkAllocateMemory(g->dev, &ai, NULL, &m));
    return m;
}

static void raw_init(raw *g)
{
    VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3 };
    VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app };
    VK(vkCreateInstance(&ici, NULL, &g->inst));
    uint32_t n = 0;
    VK(vkEnumeratePhysicalDevices(g->inst, &n, NULL));
    VkPhysicalDevice pds[16];
    if (n > 16) n = 16;
    VK(vkEnumeratePhysicalDevices(g->inst, &n, pds));
    /* the same choice as xgd's renderer: XGD_VK_DEVICE index, else a discrete GPU first */
    const char *want = getenv("XGD_VK_DEVICE");
    int best = -1, rank = -1;
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(pds[i], &p);
        if (want && *want && (uint32_t)atoi(want) != i && !strstr(p.deviceName, want)) continue;
        int rk = p.deviceType == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU ? 4
                 : p.deviceType == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU ? 3 : 1;
        if (rk > rank) {
            rank = rk;
            best = (int)i;
        }
    }
    if (best < 0) {
        fprintf(stderr, "vk-raw-bench: no Vulkan device\n");
        exit(1);
    }
    g->pd = pds[best];
    vkGetPhysicalDeviceMemoryProperties(g->pd, &g->mp);
    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(g->pd, &qn, NULL);
    VkQueueFamilyProperties qf[32];
    if (qn > 32) qn = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(g->pd, &qn, qf);
    for (uint32_t i = 0; i < qn; i++)
        if (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
            g->family = i;
            break;
        }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                   .queueFamilyIndex = g->family, .queueCount = 1, .pQueuePriorities = &prio };
    VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                             .dynamicRendering = VK_TRUE };
    const char *ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f13,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &qi,
                               .enabledExtensionCount = 1, .ppEnabledExtensionNames = &ext };
    VK(vkCreateDevice(g->pd, &dci, NULL, &g->dev));
    vkGetDeviceQueue(g->dev, g->family, 0, &g->queue);
    g->push = (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(g->dev, "vkCmdPushDescriptorSetKHR");
    g->draw = (PFN_vkCmdDraw)vkGetDeviceProcAddr(g->dev, "vkCmdDraw");
    g->push_t = (PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(g->dev, "vkCmdPushDescriptorSetWithTemplateKHR");
}

static VkShaderModule module(const raw *g, const uint32_t *code, size_t size)
{
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = size, .pCode = code };
    VkShaderModule m;
    VK(vkCreateShaderModule(g->dev, &ci, NULL, &m));
    return m;
}

static void barrier_all(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                           .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
                           .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                         &mb, 0, NULL, 0, NULL);
}

static VkImage image_general(const raw *g, VkCommandBuffer cmd, int w, int h, VkImageUsageFlags usage,
                             VkDeviceMemory *mem, VkImageView *view)
{
    VkImageCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
                             .format = VK_FORMAT_R8G8B8A8_UNORM, .extent = { (uint32_t)w, (uint32_t)h, 1 },
                             .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
                             .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage,
                             .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
    VkImage img;
    VK(vkCreateImage(g->dev, &ci, NULL, &img));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(g->dev, img, &req);
    *mem = bind_memory(g, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VK(vkBindImageMemory(g->dev, img, *mem, 0));
    VkImageViewCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = img,
                                 .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                 .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
    VK(vkCreateImageView(g->dev, &vi, NULL, view));
    VkImageMemoryBarrier b = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = img,
                               .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                         NULL, 0, NULL, 1, &b);
    return img;
}

#define HOST_MEMORY (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

/* A mapped buffer in memory of `want` flags. The vertices' buffer asks for device-local memory
   the CPU can map where there is some (resizable BAR, unified memory; else system memory), as
   xgd's ring does: on the H200 the raw loop writing its vertices there costs 0.049-0.055 us a
   draw against 0.056-0.060 into system memory (session 19, the fastest processes of each), so
   system memory made the raw half slower than it need be. */
static VkBuffer host_buffer(const raw *g, VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                            VkDeviceMemory *mem, void **ptr)
{
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage };
    VkBuffer b;
    VK(vkCreateBuffer(g->dev, &bi, NULL, &b));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->dev, b, &req);
    if (mem_type_or_none(g, req.memoryTypeBits, want) == UINT32_MAX) want = HOST_MEMORY;
    *mem = bind_memory(g, req, want);
    VK(vkBindBufferMemory(g->dev, b, *mem, 0));
    VK(vkMapMemory(g->dev, *mem, 0, VK_WHOLE_SIZE, 0, ptr));
    return b;
}

/* Everything the frames reuse: made once per process (drivers limit instance creations: see
   platform-measurements.md), sized for the largest --draws. */
typedef struct vk_bench {
    raw g;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDeviceMemory tmem, texmem[TEX], smem, vmem, cmem;
    VkImageView tview, texview[TEX];
    VkImage target, tex[TEX];
    VkBuffer staging, vbuf, cbuf;
    void *sptr, *vptr, *cptr;
    VkSampler sampler;
    VkDescriptorSetLayout dsl;
    VkPipelineLayout pl;
    VkShaderModule vs, fs;
    VkPipeline pipe;
    VkDescriptorUpdateTemplate templ;
    xvk_cmd_arena arena;
} vk_bench;

static void *raw_open(int max_draws)
{
    vk_bench *b = calloc(1, sizeof *b);
    if (!b) exit(1);
    raw_init(&b->g);
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = b->g.family };
    /* the pool's host memory kept from frame to frame, as xgd's renderer keeps its pools'
       (src/renderers/vulkan/vk_cmd_arena.h: lavapipe mallocs each recorded command) */
    xvk_cmd_arena_init(&b->arena);
    VK(vkCreateCommandPool(b->g.dev, &pci, &b->arena.callbacks, &b->pool));
    VkCommandBufferAllocateInfo cai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = b->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1 };
    VK(vkAllocateCommandBuffers(b->g.dev, &cai, &b->cmd));
    VkCommandBuffer cmd = b->cmd;
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VK(vkCreateFence(b->g.dev, &fci, NULL, &b->fence));
    VkCommandBufferBeginInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &b->cmd };

    /* setup: target, textures, staging, vertex and constant buffers */
    VK(vkBeginCommandBuffer(cmd, &cbi));
    b->target = image_general(&b->g, cmd, W, H,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              &b->tmem, &b->tview);
    b->staging = host_buffer(&b->g, (VkDeviceSize)W * H * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                             VK_BUFFER_USAGE_TRANSFER_DST_BIT, HOST_MEMORY, &b->smem, &b->sptr);
    barrier_all(cmd);
    for (int t = 0; t < TEX; t++) {
        b->tex[t] = image_general(&b->g, cmd, TS, TS, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                  &b->texmem[t], &b->texview[t]);
        uint8_t c[4];
        bench_texture_color(t, c);
        for (int i = 0; i < TS * TS; i++) memcpy((uint8_t *)b->sptr + (size_t)(t * TS * TS + i) * 4, c, 4);
        barrier_all(cmd);
        VkBufferImageCopy bc = { .bufferOffset = (VkDeviceSize)t * TS * TS * 4,
                                 .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                                 .imageExtent = { TS, TS, 1 } };
        vkCmdCopyBufferToImage(cmd, b->staging, b->tex[t], VK_IMAGE_LAYOUT_GENERAL, 1, &bc);
    }
    barrier_all(cmd);
    VK(vkEndCommandBuffer(cmd));
    VK(vkQueueSubmit(b->g.queue, 1, &si, b->fence));
    VK(vkWaitForFences(b->g.dev, 1, &b->fence, VK_TRUE, UINT64_MAX));
    VK(vkResetFences(b->g.dev, 1, &b->fence));
    b->vbuf = host_buffer(&b->g, (VkDeviceSize)max_draws * 4 * sizeof(vtx), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          HOST_MEMORY | VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &b->vmem, &b->vptr);
    b->cbuf = host_buffer(&b->g, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, HOST_MEMORY, &b->cmem, &b->cptr);
    /* clip = float4(pos, 1) * M: pixel space to clip space, y up (the viewport flips it) */
    const float m[16] = { 2.0f / W, 0, 0, 0, 0, -2.0f / H, 0, 0, 0, 0, 1, 0, -1, 1, 0, 1 };
    memcpy(b->cptr, m, sizeof m);
    VkSamplerCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
                                .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, .maxLod = 0 };
    VK(vkCreateSampler(b->g.dev, &sci, NULL, &b->sampler));
    /* pipeline: the stock sprite shaders, push descriptors */
    VkDescriptorSetLayoutBinding lb[3] = {
        { 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL } };
    VkDescriptorSetLayoutCreateInfo dli = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                            .bindingCount = 3, .pBindings = lb };
    VK(vkCreateDescriptorSetLayout(b->g.dev, &dli, NULL, &b->dsl));
    VkPipelineLayoutCreateInfo pli = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = 1, .pSetLayouts = &b->dsl };
    VK(vkCreatePipelineLayout(b->g.dev, &pli, NULL, &b->pl));
    /* the texture's binding alone, from one VkDescriptorImageInfo */
    VkDescriptorUpdateTemplateEntry te = { 1, 0, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 0, sizeof(VkDescriptorImageInfo) };
    VkDescriptorUpdateTemplateCreateInfo tci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 1, .pDescriptorUpdateEntries = &te,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .pipelineLayout = b->pl, .set = 0 };
    VK(vkCreateDescriptorUpdateTemplate(b->g.dev, &tci, NULL, &b->templ));
    b->vs = module(&b->g, xvk_spv_sprite_vert, sizeof xvk_spv_sprite_vert);
    b->fs = module(&b->g, xvk_spv_sprite_frag, sizeof xvk_spv_sprite_frag);
    VkPipelineShaderStageCreateInfo st[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = b->vs, .pName = "main" },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = b->fs, .pName = "main" } };
    VkVertexInputBindingDescription vb = { 0, sizeof(vtx), VK_VERTEX_INPUT_RATE_VERTEX };
    VkVertexInputAttributeDescription va[3] = { { 0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0 },
                                                { 1, 0, VK_FORMAT_R8G8B8A8_UNORM, 12 },
                                                { 2, 0, VK_FORMAT_R32G32_SFLOAT, 16 } };
    VkPipelineVertexInputStateCreateInfo vis = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
                                                 .vertexBindingDescriptionCount = 1, .pVertexBindingDescriptions = &vb,
                                                 .vertexAttributeDescriptionCount = 3, .pVertexAttributeDescriptions = va };
    VkPipelineInputAssemblyStateCreateInfo ias = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                   .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP };
    VkViewport vp = { 0, H, W, -(float)H, 0, 1 };
    VkRect2D sc = { { 0, 0 }, { W, H } };
    VkPipelineViewportStateCreateInfo vps = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                              .viewportCount = 1, .pViewports = &vp, .scissorCount = 1, .pScissors = &sc };
    VkPipelineRasterizationStateCreateInfo rs = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                  .cullMode = VK_CULL_MODE_NONE, .lineWidth = 1 };
    VkPipelineMultisampleStateCreateInfo ms = { .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT };
    VkPipelineColorBlendAttachmentState att = { .colorWriteMask = 15 };
    VkPipelineColorBlendStateCreateInfo cbs = { .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                .attachmentCount = 1, .pAttachments = &att };
    VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                          .colorAttachmentCount = 1, .pColorAttachmentFormats = &fmt };
    VkGraphicsPipelineCreateInfo gpi = { .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &rci,
                                         .stageCount = 2, .pStages = st, .pVertexInputState = &vis,
                                         .pInputAssemblyState = &ias, .pViewportState = &vps,
                                         .pRasterizationState = &rs, .pMultisampleState = &ms,
                                         .pColorBlendState = &cbs, .layout = b->pl };
    VK(vkCreateGraphicsPipelines(b->g.dev, VK_NULL_HANDLE, 1, &gpi, NULL, &b->pipe));

    return b;
}

static void raw_run(void *ctx, int draws, int frames, bench_path *p)
{
    vk_bench *b = ctx;
    raw *g = &b->g;
    VkCommandBuffer cmd = b->cmd;
    VkCommandBufferBeginInfo cbi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                     .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd };
    VkRect2D sc = { { 0, 0 }, { W, H } };
    PFN_vkCmdPushDescriptorSetKHR push = g->push;
    PFN_vkCmdDraw draw = g->draw;
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_t = g->push_t;
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now_s();
        VK(vkResetCommandBuffer(cmd, 0));
        xvk_cmd_arena_reset(&b->arena);
        xvk_cmd_arena_begin(&b->arena);
        VK(vkBeginCommandBuffer(cmd, &cbi));
        /* Timed from here, as xgd's loop is: xgd records the pass's opening (barrier, begin
           rendering, pipeline, vertex buffer, constants and sampler) at its first draw, the
           clear being the pass's load operation, so both loops time the same native calls. */
        bench_loop_begin();
        barrier_all(cmd);
        VkRenderingAttachmentInfo ca = { .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = b->tview,
                                         .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                         .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                         .storeOp = VK_ATTACHMENT_STORE_OP_STORE };
        VkRenderingInfo ri = { .sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = sc, .layerCount = 1,
                               .colorAttachmentCount = 1, .pColorAttachments = &ca };
        vkCmdBeginRendering(cmd, &ri);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->pipe);
        VkDeviceSize zero = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &b->vbuf, &zero);
        vtx *verts = b->vptr;
        /* The constants and the sampler never change: pushed once. Push descriptors update
           incrementally (a pushed binding keeps its descriptor until pushed again), so each
           draw pushes only the texture's binding, through a one-entry template (on lavapipe
           one allocation and ~130 instructions a draw fewer than a VkWriteDescriptorSet). */
        VkDescriptorBufferInfo dbi = { b->cbuf, 0, 64 };
        VkDescriptorImageInfo dii = { VK_NULL_HANDLE, b->texview[0], VK_IMAGE_LAYOUT_GENERAL };
        VkDescriptorImageInfo dsi = { b->sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED };
        VkWriteDescriptorSet w[2] = {
            { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 0, .descriptorCount = 1,
              .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &dbi },
            { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstBinding = 2, .descriptorCount = 1,
              .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER, .pImageInfo = &dsi } };
        push(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, b->pl, 0, 2, w);
        for (int i = 0; i < draws; i++) {
            bench_quad_vertices(i, &verts[i * 4]);
            dii.imageView = b->texview[i % TEX];
            push_t(cmd, b->templ, b->pl, 0, &dii);
            draw(cmd, 4, 1, (uint32_t)(i * 4), 0);
        }
        bench_loop_end(p, f);
        vkCmdEndRendering(cmd);
        barrier_all(cmd);
        VkBufferImageCopy rb = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
                                 .imageExtent = { W, H, 1 } };
        if (f == frames - 1) vkCmdCopyImageToBuffer(cmd, b->target, VK_IMAGE_LAYOUT_GENERAL, b->staging, 1, &rb);
        VK(vkEndCommandBuffer(cmd));
        VK(vkQueueSubmit(g->queue, 1, &si, b->fence));
        double t1 = bench_now_s();
        VK(vkWaitForFences(g->dev, 1, &b->fence, VK_TRUE, UINT64_MAX));
        VK(vkResetFences(g->dev, 1, &b->fence));
        double t2 = bench_now_s();
        bench_path_frame(p, f, t0, t1, t2);
    }
    bench_path_finish(p, b->sptr, draws, frames, "raw");
}

static void raw_close(void *ctx)
{
    vk_bench *b = ctx;
    VK(vkDeviceWaitIdle(b->g.dev));
    vkDestroyPipeline(b->g.dev, b->pipe, NULL);
    vkDestroyShaderModule(b->g.dev, b->vs, NULL);
    vkDestroyShaderModule(b->g.dev, b->fs, NULL);
    vkDestroyDescriptorUpdateTemplate(b->g.dev, b->templ, NULL);
    vkDestroyPipelineLayout(b->g.dev, b->pl, NULL);
    vkDestroyDescriptorSetLayout(b->g.dev, b->dsl, NULL);
    vkDestroySampler(b->g.dev, b->sampler, NULL);
    VkBuffer bufs[3] = { b->staging, b->vbuf, b->cbuf };
    VkDeviceMemory bmem[3] = { b->smem, b->vmem, b->cmem };
    for (int i = 0; i < 3; i++) {
        vkDestroyBuffer(b->g.dev, bufs[i], NULL);
        vkFreeMemory(b->g.dev, bmem[i], NULL);
    }
    for (int t = 0; t < TEX; t++) {
        vkDestroyImageView(b->g.dev, b->texview[t], NULL);
        vkDestroyImage(b->g.dev, b->tex[t], NULL);
        vkFreeMemory(b->g.dev, b->texmem[t], NULL);
    }
    vkDestroyImageView(b->g.dev, b->tview, NULL);
    vkDestroyImage(b->g.dev, b->target, NULL);
    vkFreeMemory(b->g.dev, b->tmem, NULL);
    vkDestroyFence(b->g.dev, b->fence, NULL);
    vkDestroyCommandPool(b->g.dev, b->pool, &b->arena.callbacks);
    xvk_cmd_arena_release(&b->arena);
    vkDestroyDevice(b->g.dev, NULL);
    vkDestroyInstance(b->g.inst, NULL);
    free(b);
}

int main(int argc, char **argv)
{
    static const bench_desc desc = { "vk-raw-bench", XGD_RENDERER_VULKAN, "raw Vulkan (push descriptors)",
                                     "xgd vulkan renderer", raw_open, raw_run, raw_close, "raw Vulkan" };
    return bench_main(argc, argv, &desc);
}
