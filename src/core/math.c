/*
 * math.c - XNA's Matrix helpers: row-major storage, row vectors (v' = v * M), right-handed,
 * clip-space depth 0..1.
 *
 * Arithmetic is done in float with XNA's formulas so results match what an XNA program
 * computes (down to the order of operations where it matters). These are value functions
 * without result codes: where XNA throws ArgumentOutOfRangeException (perspective with a
 * field of view outside (0, pi), near <= 0, far <= 0 or near >= far) the result is a matrix
 * whose entries are all NaN, so the mistake shows up as nothing drawn instead of a plausible
 * but wrong image.
 */
#include "xgd.h"

#include <math.h>
#include <string.h>

static xgd_matrix zero_matrix(void)
{
    xgd_matrix m;
    memset(&m, 0, sizeof m);
    return m;
}

static xgd_matrix nan_matrix(void)
{
    xgd_matrix m;
    for (int i = 0; i < 16; i++) m.m[i] = NAN;
    return m;
}

xgd_matrix xgd_matrix_identity(void)
{
    xgd_matrix m = zero_matrix();
    m.m11 = m.m22 = m.m33 = m.m44 = 1.0f;
    return m;
}

xgd_matrix xgd_matrix_multiply(const xgd_matrix *a, const xgd_matrix *b)
{
    if (a == NULL || b == NULL) return nan_matrix();
    xgd_matrix r;
    for (int i = 0; i < 4; i++) {
        for (int j = 0; j < 4; j++) {
            r.m[i * 4 + j] = a->m[i * 4 + 0] * b->m[0 * 4 + j] + a->m[i * 4 + 1] * b->m[1 * 4 + j] +
                             a->m[i * 4 + 2] * b->m[2 * 4 + j] + a->m[i * 4 + 3] * b->m[3 * 4 + j];
        }
    }
    return r;
}

xgd_matrix xgd_matrix_create_translation(float x, float y, float z)
{
    xgd_matrix m = xgd_matrix_identity();
    m.m41 = x;
    m.m42 = y;
    m.m43 = z;
    return m;
}

xgd_matrix xgd_matrix_create_scale(float x, float y, float z)
{
    xgd_matrix m = zero_matrix();
    m.m11 = x;
    m.m22 = y;
    m.m33 = z;
    m.m44 = 1.0f;
    return m;
}

/* XNA's rotations are counter-clockwise looking down the axis towards the origin, written for
 * row vectors (the transpose of the column-vector textbook matrices). */
xgd_matrix xgd_matrix_create_rotation_x(float radians)
{
    float c = cosf(radians), s = sinf(radians);
    xgd_matrix m = xgd_matrix_identity();
    m.m22 = c;
    m.m23 = s;
    m.m32 = -s;
    m.m33 = c;
    return m;
}

xgd_matrix xgd_matrix_create_rotation_y(float radians)
{
    float c = cosf(radians), s = sinf(radians);
    xgd_matrix m = xgd_matrix_identity();
    m.m11 = c;
    m.m13 = -s;
    m.m31 = s;
    m.m33 = c;
    return m;
}

xgd_matrix xgd_matrix_create_rotation_z(float radians)
{
    float c = cosf(radians), s = sinf(radians);
    xgd_matrix m = xgd_matrix_identity();
    m.m11 = c;
    m.m12 = s;
    m.m21 = -s;
    m.m22 = c;
    return m;
}

static xgd_vector3 v3_sub(xgd_vector3 a, xgd_vector3 b)
{
    return (xgd_vector3){ a.x - b.x, a.y - b.y, a.z - b.z };
}

static xgd_vector3 v3_cross(xgd_vector3 a, xgd_vector3 b)
{
    return (xgd_vector3){ a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x };
}

static float v3_dot(xgd_vector3 a, xgd_vector3 b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

/* XNA Vector3.Normalize: divides by the length without a zero check (zero gives NaN). */
static xgd_vector3 v3_normalize(xgd_vector3 v)
{
    float inv = 1.0f / sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    return (xgd_vector3){ v.x * inv, v.y * inv, v.z * inv };
}

xgd_matrix xgd_matrix_create_look_at(xgd_vector3 eye, xgd_vector3 target, xgd_vector3 up)
{
    xgd_vector3 z = v3_normalize(v3_sub(eye, target));
    xgd_vector3 x = v3_normalize(v3_cross(up, z));
    xgd_vector3 y = v3_cross(z, x);
    xgd_matrix m;
    m.m11 = x.x; m.m12 = y.x; m.m13 = z.x; m.m14 = 0.0f;
    m.m21 = x.y; m.m22 = y.y; m.m23 = z.y; m.m24 = 0.0f;
    m.m31 = x.z; m.m32 = y.z; m.m33 = z.z; m.m34 = 0.0f;
    m.m41 = -v3_dot(x, eye);
    m.m42 = -v3_dot(y, eye);
    m.m43 = -v3_dot(z, eye);
    m.m44 = 1.0f;
    return m;
}

xgd_matrix xgd_matrix_create_perspective_field_of_view(float fov_y, float aspect,
                                                       float near_plane, float far_plane)
{
    /* XNA throws ArgumentOutOfRangeException for these; see the file comment. */
    if (!(fov_y > 0.0f && fov_y < 3.14159265358979f) || !(near_plane > 0.0f) ||
        !(far_plane > 0.0f) || !(near_plane < far_plane))
        return nan_matrix();
    float y_scale = 1.0f / tanf(fov_y * 0.5f);
    float x_scale = y_scale / aspect;
    xgd_matrix m = zero_matrix();
    m.m11 = x_scale;
    m.m22 = y_scale;
    m.m33 = far_plane / (near_plane - far_plane);
    m.m34 = -1.0f;
    m.m43 = near_plane * far_plane / (near_plane - far_plane);
    return m;
}

xgd_matrix xgd_matrix_create_orthographic_off_center(float left, float right, float bottom,
                                                     float top, float near_plane, float far_plane)
{
    xgd_matrix m = zero_matrix();
    m.m11 = 2.0f / (right - left);
    m.m22 = 2.0f / (top - bottom);
    m.m33 = 1.0f / (near_plane - far_plane);
    m.m41 = (left + right) / (left - right);
    m.m42 = (top + bottom) / (bottom - top);
    m.m43 = near_plane / (near_plane - far_plane);
    m.m44 = 1.0f;
    return m;
}

/* Cofactor expansion in double: the determinant test is then meaningful for the float inputs
 * and the result rounds once. */
bool xgd_matrix_invert(const xgd_matrix *m, xgd_matrix *out)
{
    if (m == NULL) {
        if (out != NULL) *out = xgd_matrix_identity();
        return false;
    }
    double a[16], inv[16];
    for (int i = 0; i < 16; i++) a[i] = m->m[i];

    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15] +
             a[9] * a[7] * a[14] + a[13] * a[6] * a[11] - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15] -
             a[8] * a[7] * a[14] - a[12] * a[6] * a[11] + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15] +
             a[8] * a[7] * a[13] + a[12] * a[5] * a[11] - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14] -
              a[8] * a[6] * a[13] - a[12] * a[5] * a[10] + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15] -
             a[9] * a[3] * a[14] - a[13] * a[2] * a[11] + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15] +
             a[8] * a[3] * a[14] + a[12] * a[2] * a[11] - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15] -
             a[8] * a[3] * a[13] - a[12] * a[1] * a[11] + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14] +
              a[8] * a[2] * a[13] + a[12] * a[1] * a[10] - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15] +
             a[5] * a[3] * a[14] + a[13] * a[2] * a[7] - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15] -
             a[4] * a[3] * a[14] - a[12] * a[2] * a[7] + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15] +
              a[4] * a[3] * a[13] + a[12] * a[1] * a[7] - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14] -
              a[4] * a[2] * a[13] - a[12] * a[1] * a[6] + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11] -
             a[5] * a[3] * a[10] - a[9] * a[2] * a[7] + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11] +
             a[4] * a[3] * a[10] + a[8] * a[2] * a[7] - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11] -
              a[4] * a[3] * a[9] - a[8] * a[1] * a[7] + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10] +
              a[4] * a[2] * a[9] + a[8] * a[1] * a[6] - a[8] * a[2] * a[5];

    double det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if (det == 0.0 || !isfinite(det)) {
        if (out != NULL) *out = xgd_matrix_identity();
        return false;
    }
    double inv_det = 1.0 / det;
    xgd_matrix r;
    for (int i = 0; i < 16; i++) r.m[i] = (float)(inv[i] * inv_det);
    if (out != NULL) *out = r;
    return true;
}

xgd_matrix xgd_matrix_transpose(const xgd_matrix *m)
{
    if (m == NULL) return nan_matrix();
    xgd_matrix r;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) r.m[i * 4 + j] = m->m[j * 4 + i];
    return r;
}

/* The homogeneous product v * m with v.w as given (no divide), XNA Vector4.Transform. */
xgd_vector4 xgd_vector4_transform(xgd_vector4 v, const xgd_matrix *m)
{
    if (m == NULL) return (xgd_vector4){ NAN, NAN, NAN, NAN };
    xgd_vector4 r;
    r.x = v.x * m->m11 + v.y * m->m21 + v.z * m->m31 + v.w * m->m41;
    r.y = v.x * m->m12 + v.y * m->m22 + v.z * m->m32 + v.w * m->m42;
    r.z = v.x * m->m13 + v.y * m->m23 + v.z * m->m33 + v.w * m->m43;
    r.w = v.x * m->m14 + v.y * m->m24 + v.z * m->m34 + v.w * m->m44;
    return r;
}
