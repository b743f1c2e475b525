#version 450
// test_dxbc_writer.c's DXBC_StorageImageSampleRefused: samples Tex at an explicit level; the
// test makes Tex's image type a storage image (Sampled 2) in the SPIR-V words and expects the
// translator to refuse the sampling. Also the base of DXBC_RepeatedBuiltinDeclaredOnce, which
// decorates the LocalInvocationId variable as GlobalInvocationId.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D Tex;
layout(set = 0, binding = 1) uniform sampler Smp;
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D Out;
shared uint Tile[64];

void main()
{
    uint i = gl_LocalInvocationID.x;
    Tile[i] = gl_GlobalInvocationID.x;
    barrier();
    vec4 c = textureLod(sampler2D(Tex, Smp), vec2(float(Tile[63u - i]) / 64.0, 0.5), 0.0);
    imageStore(Out, ivec2(int(i), 0), c);
}
