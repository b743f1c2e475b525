// Calls that fan out 16 ways over 7 levels: a symbolic run that re-ran every call would take
// hours; the shape matchers stop at their cost limit.
#version 450
layout(location=0) in vec4 pos;
layout(location=1) in vec4 col;
layout(location=0) out vec4 ocol;
out gl_PerVertex { vec4 gl_Position; };
vec4 f8(vec4 a) { return a; }
vec4 f7(vec4 a)
{
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    a = f8(a);
    return a;
}
vec4 f6(vec4 a)
{
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    a = f7(a);
    return a;
}
vec4 f5(vec4 a)
{
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    a = f6(a);
    return a;
}
vec4 f4(vec4 a)
{
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    a = f5(a);
    return a;
}
vec4 f3(vec4 a)
{
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    a = f4(a);
    return a;
}
vec4 f2(vec4 a)
{
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    a = f3(a);
    return a;
}
vec4 f1(vec4 a)
{
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    a = f2(a);
    return a;
}
void main()
{
    ocol = f1(col);
    gl_Position = pos;
}
