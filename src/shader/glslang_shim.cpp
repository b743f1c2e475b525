/*
 * glslang_shim.cpp - the one C++ file of xgd: HLSL to SPIR-V through glslang's C++ API.
 *
 * glslang 12 (Debian 12) has a C interface, but it can neither choose an HLSL entry point nor
 * ask for the hlsl_functionality1 decorations that keep semantics (POSITION0, TEXCOORD1) in the
 * SPIR-V; an effect needs both (several entry points per source; vertex inputs matched to a
 * declaration by semantic). This shim calls TShader::setEntryPoint and
 * setEnvTargetHlslFunctionality1 and exposes one C function. No exception leaves it.
 */
#include <glslang/Public/ResourceLimits.h>
#include <glslang/Public/ShaderLang.h>
#include <glslang/SPIRV/GlslangToSpv.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <vector>

extern "C" int xgdi_glslang_hlsl_to_spirv(const char *source, const char *file_name,
                                          const char *entry, const char *preamble, int pixel,
                                          unsigned **words, size_t *word_count, char **log);

static char *dup_string(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p != nullptr) std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

/* 0: compiled; 1: the source or entry point is wrong (*log says why); 2: out of memory. */
extern "C" int xgdi_glslang_hlsl_to_spirv(const char *source, const char *file_name,
                                          const char *entry, const char *preamble, int pixel,
                                          unsigned **words, size_t *word_count, char **log)
{
    *words = nullptr;
    *word_count = 0;
    *log = nullptr;
    try {
        static std::once_flag once;
        std::call_once(once, [] { glslang::InitializeProcess(); });
        const EShLanguage stage = pixel ? EShLangFragment : EShLangVertex;
        glslang::TShader shader(stage);
        const char *strings[1] = { source };
        const int lengths[1] = { static_cast<int>(std::strlen(source)) };
        const char *names[1] = { file_name };
        shader.setStringsWithLengthsAndNames(strings, lengths, names, 1);
        /* the macros of the create call (`#define` lines): glslang reads the preamble before
           the source without counting its lines, so messages keep the user's line numbers */
        if (preamble != nullptr && preamble[0] != '\0') shader.setPreamble(preamble);
        shader.setEntryPoint(entry);
        shader.setSourceEntryPoint(entry);
        shader.setEnvInput(glslang::EShSourceHlsl, stage, glslang::EShClientVulkan, 100);
        shader.setEnvClient(glslang::EShClientVulkan, glslang::EShTargetVulkan_1_0);
        shader.setEnvTarget(glslang::EShTargetSpv, glslang::EShTargetSpv_1_0);
        shader.setEnvTargetHlslFunctionality1();
        shader.setAutoMapLocations(true);
        shader.setAutoMapBindings(true);
        /* DX9 compatibility: XNA-era effects declare `sampler2D s;` and call tex2D(s, uv); this
           mode makes such a sampler one combined image-sampler (without it the sample reads a
           bare sampler, invalid SPIR-V). SM4 Texture2D/SamplerState code is unaffected. */
        /* HLSL offsets: constant buffers packed by HLSL's rules (a vector never straddles a
           16-byte register, but may start inside one), the layout an effect's parameters are
           written in, instead of GLSL's std140. */
        const EShMessages messages = static_cast<EShMessages>(
            EShMsgSpvRules | EShMsgVulkanRules | EShMsgReadHlsl | EShMsgHlslDX9Compatible |
            EShMsgHlslOffsets);
        std::string text;
        if (!shader.parse(GetDefaultResources(), 100, false, messages)) {
            text = shader.getInfoLog();
            *log = dup_string(text);
            return 1;
        }
        text = shader.getInfoLog();
        glslang::TProgram program;
        program.addShader(&shader);
        if (!program.link(messages) || !program.mapIO()) {
            text += program.getInfoLog();
            *log = dup_string(text);
            return 1;
        }
        std::vector<unsigned> spirv;
        spv::SpvBuildLogger logger;
        glslang::SpvOptions options;
        /* HLSL needs SPIRV-Tools' legalization passes (run only when the optimizer is on):
           without them a DX9 sampler2D passed to tex2D leaves an image sample whose operand
           is not a sampled image, which Vulkan validation rejects. */
        options.disableOptimizer = false;
        glslang::GlslangToSpv(*program.getIntermediate(stage), spirv, &logger, &options);
        text += logger.getAllMessages();
        if (spirv.empty()) {
            *log = dup_string(text.empty() ? std::string("no SPIR-V was produced") : text);
            return 1;
        }
        unsigned *out = static_cast<unsigned *>(std::malloc(spirv.size() * sizeof(unsigned)));
        if (out == nullptr) return 2;
        std::memcpy(out, spirv.data(), spirv.size() * sizeof(unsigned));
        *words = out;
        *word_count = spirv.size();
        if (!text.empty()) *log = dup_string(text);
        return 0;
    } catch (const std::bad_alloc &) {
        return 2;
    } catch (...) {
        *log = dup_string("the HLSL compiler failed unexpectedly");
        return 1;
    }
}
