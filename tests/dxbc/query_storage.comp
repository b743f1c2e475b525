#version 450
// test_dxbc_writer.c's DXBC_StorageImageQueryRefused: queries Tex's size and level count; the
// test makes Tex's image type a storage image (Sampled 2) in the SPIR-V words and expects the
// translator to refuse the queries.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D Tex;
layout(set = 0, binding = 1) uniform sampler Smp;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D Out;

void main()
{
    ivec2 size = textureSize(sampler2D(Tex, Smp), 0);
    int levels = textureQueryLevels(sampler2D(Tex, Smp));
    imageStore(Out, ivec2(gl_LocalInvocationID.xy), vec4(vec2(size), float(levels), 1.0));
}
