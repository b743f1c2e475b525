#version 450
// test_dxbc_writer.c's DXBC_WorkgroupIndexBeforeAccess: a shared array of arrays (8 rows of 9,
// flattened to 72 elements, the last index fastest) written and read at a dynamic row and a
// constant column (Tile[y][8], Tile[y][3]) and at a constant row and a dynamic column
// (Tile[7][x]): each such element index (9y + 8, 9y + 3, 63 + x) is added up by an instruction
// of its own before the ld_structured / store_structured that takes it.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform writeonly uimage2D Out;
shared uint Tile[8][9];

void main()
{
    uvec2 p = gl_LocalInvocationID.xy;
    Tile[p.y][p.x] = p.x + 16u * p.y;
    Tile[p.y][8] = p.y;
    barrier();
    uint v = Tile[p.y][3] + Tile[7][p.x];
    imageStore(Out, ivec2(p), uvec4(v));
}
