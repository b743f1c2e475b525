#version 450
#extension GL_EXT_samplerless_texture_functions : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform texture2D Source;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D Dest;
layout(push_constant) uniform Params { ivec2 Size; int Count; } pc;
shared uint Tile[64];
void main()
{
    uint gi = gl_LocalInvocationIndex;
    ivec2 p = ivec2(gl_WorkGroupID.xy) * 8 + ivec2(int(gi % 8u), int(gi / 8u));
    Tile[gi] = uint(texelFetch(Source, min(p, pc.Size - 1), 0).x * 255.0);
    barrier();
    uint v = Tile[gi ^ 1u] + Tile[gi];
    if (pc.Count > 0 && all(lessThan(p, pc.Size))) imageStore(Dest, p, vec4(float(v) / 510.0));
}
