/*
 * xgd.h - an XNA 4.0-style graphics device for C11.
 *
 * OVERVIEW
 *
 * xgd gives a C program the graphics programming model of XNA 4.0: a GraphicsDevice with a
 * back buffer, Texture2D / TextureCube / Texture3D, RenderTarget2D / RenderTargetCube, vertex
 * and index buffers, immutable state objects, the stock SpriteEffect and BasicEffect (plus the
 * EXT MrtEffect and VolumeEffect), SpriteBatch, Clear,
 * Viewport, ScissorRectangle, Present and back-buffer readback, with the same rules on every
 * renderer (software reference rasterizer today; Vulkan and Direct3D 12 next).
 *
 * A frame, step by step:
 *
 *     xgd_device *dev;
 *     xgd_device_desc dd = { .pp = { .back_buffer_width = 640, .back_buffer_height = 360,
 *                                    .headless = true },
 *                            .context_recovery = true };
 *     if (xgd_device_create(&dd, &dev) != XGD_OK) { puts(xgd_device_last_error(NULL)); ... }
 *     xgd_sprite_batch *sb; xgd_sprite_batch_create(dev, &sb);
 *     for (;;) {
 *         xgd_clear_color(dev, (xgd_color){ 100, 149, 237, 255 });      // CornflowerBlue
 *         xgd_sprite_batch_begin(sb, NULL);                               // Deferred, AlphaBlend
 *         xgd_sprite_batch_draw_at(sb, tex, (xgd_vector2){ 10, 10 }, XGD_COLOR_WHITE);
 *         xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 40, 10 },   // rotated
 *                                                      .color = XGD_COLOR_WHITE,
 *                                                      .rotation = 0.5f,
 *                                                      .scale = { 1, 1 } });
 *         xgd_sprite_batch_end(sb);
 *         xgd_present(dev);
 *     }
 *
 * LIFETIME
 *
 * Every object belongs to the device that created it. Objects are opaque pointers created by
 * xgd_<object>_create and released by xgd_<object>_destroy, which accepts NULL and objects that
 * were already disposed. Destroying the device disposes every live resource's native part (GPU
 * memory) and then the renderer; the handles stay valid as empty shells that answer
 * XGD_ERROR_OBJECT_DISPOSED until their owner destroys them, which is then harmless.
 *
 * An object pointer is a handle, not an address: a slot and a generation that the library
 * checks on every call. After an object's destroy, every copy of its handle answers
 * XGD_ERROR_OBJECT_DISPOSED from every function (and destroy of it does nothing), even once a
 * new object has taken its place; nothing is read through it. Compare handles with == as
 * before; never dereference one. The device pointer (xgd_device *) is an ordinary address:
 * it must not be used after xgd_device_destroy.
 *
 * THREADING
 *
 * A device and its objects are used from one thread at a time. Different devices may be used
 * from different threads concurrently.
 *
 * ERRORS
 *
 * Every call that can fail returns an xgd_result: XGD_OK (0) or a negative code named after the
 * exception an XNA program would have seen. The message is kept on the device
 * (xgd_device_last_error) and passed to the optional log callback. A failed call changes no
 * public state. The library never aborts or exits its host. Failures that have no device
 * (xgd_device_create) keep their message for xgd_device_last_error(NULL), per thread.
 * Injected failures (tests of error paths) exist only in a library built with the CMake option
 * XGD_FAULT_INJECTION=ON, which is off by default: there the XGD_DEBUG_FAIL environment
 * variable ("op:nth,...", README) makes renderer operations of every new device fail; any other
 * build ignores it.
 *
 * CONVENTIONS
 *
 * Creation takes a `const xgd_*_desc *`. Every field means what it says: booleans are positive
 * and 0 / false are taken literally (a blend factor of 0 is black, a stencil mask of 0 masks
 * every bit). desc NULL means XNA's defaults; so do the XGD_*_DESC_DEFAULT initialisers (and
 * XGD_SPRITE_INIT), to start from and change a few fields; each field's comment gives its
 * default and range. "Not given" is a NULL pointer (a sprite's source and destination).
 * Enumerations keep XNA's names and order; those that appear in descs start with a _DEFAULT
 * member worth 0 that names the default. Sizes that are never 0 (back buffer and virtual
 * canvas) use 0 for their default. Matrices are XNA's: row-major, row vectors
 * (v' = v * M), right-handed.
 */
#ifndef XGD_H
#define XGD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(XGD_STATIC)
#define XGD_API
#elif defined(_WIN32)
#ifdef XGD_BUILDING
#define XGD_API __declspec(dllexport)
#else
#define XGD_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define XGD_API __attribute__((visibility("default")))
#else
#define XGD_API
#endif

/* Before 1.0 a minor version may change the layout of public structs: rebuild against the
   header of the library you run (0.2: xgd_quad_reservation.stream_stores). */
#define XGD_VERSION_MAJOR 0
#define XGD_VERSION_MINOR 2
#define XGD_VERSION_PATCH 0

/* ------------------------------------------------------------------------------------------ */
/* Results                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef enum xgd_result {
    XGD_OK = 0,
    XGD_ERROR_INVALID_ARGUMENT = -1,      /* ArgumentException, ArgumentNullException; also
                                             out-of-range arguments unless a function says
                                             XGD_ERROR_ARGUMENT_OUT_OF_RANGE */
    XGD_ERROR_INVALID_OPERATION = -2,     /* InvalidOperationException: wrong state for the call */
    XGD_ERROR_NOT_SUPPORTED = -3,         /* NotSupportedException: renderer or profile cannot */
    XGD_ERROR_OBJECT_DISPOSED = -4,       /* ObjectDisposedException */
    XGD_ERROR_OUT_OF_MEMORY = -5,         /* OutOfMemoryException (host or GPU memory) */
    XGD_ERROR_DEVICE_LOST = -6,           /* DeviceLostException: recover, then retry */
    XGD_ERROR_NO_SUITABLE_DEVICE = -7,    /* NoSuitableGraphicsDeviceException */
    XGD_ERROR_IO = -8,                    /* IOException / FileNotFoundException (PNG files) */
    XGD_ERROR_ARGUMENT_OUT_OF_RANGE = -9  /* ArgumentOutOfRangeException, where XNA throws that
                                             one specifically (buffer SetData of 0 elements) */
} xgd_result;

/* The enumerator's name without the XGD_ prefix, e.g. "ERROR_INVALID_ARGUMENT". Never NULL. */
XGD_API const char *xgd_result_name(xgd_result r);

/* ------------------------------------------------------------------------------------------ */
/* Math and value types                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_vector2 { float x, y; } xgd_vector2;
typedef struct xgd_vector3 { float x, y, z; } xgd_vector3;
typedef struct xgd_vector4 { float x, y, z, w; } xgd_vector4;

/* XNA Color: 8-bit RGBA, stored r, g, b, a in memory (SurfaceFormat.Color). */
typedef struct xgd_color { uint8_t r, g, b, a; } xgd_color;
#define XGD_COLOR_WHITE ((xgd_color){ 255, 255, 255, 255 })
#define XGD_COLOR_BLACK ((xgd_color){ 0, 0, 0, 255 })
#define XGD_COLOR_TRANSPARENT ((xgd_color){ 0, 0, 0, 0 })

/* XNA Rectangle. */
typedef struct xgd_rect { int x, y, width, height; } xgd_rect;

/* XNA Matrix: row-major, row vectors. m[0..3] is the first row (M11..M14). */
typedef union xgd_matrix {
    struct {
        float m11, m12, m13, m14;
        float m21, m22, m23, m24;
        float m31, m32, m33, m34;
        float m41, m42, m43, m44;
    };
    float m[16];
} xgd_matrix;

XGD_API xgd_matrix xgd_matrix_identity(void);
/* a * b: transform by a, then by b (XNA Matrix.Multiply). */
XGD_API xgd_matrix xgd_matrix_multiply(const xgd_matrix *a, const xgd_matrix *b);
XGD_API xgd_matrix xgd_matrix_create_translation(float x, float y, float z);
XGD_API xgd_matrix xgd_matrix_create_scale(float x, float y, float z);
XGD_API xgd_matrix xgd_matrix_create_rotation_x(float radians);
XGD_API xgd_matrix xgd_matrix_create_rotation_y(float radians);
XGD_API xgd_matrix xgd_matrix_create_rotation_z(float radians);
XGD_API xgd_matrix xgd_matrix_create_look_at(xgd_vector3 eye, xgd_vector3 target, xgd_vector3 up);
/* Right-handed perspective, depth 0..1 (XNA CreatePerspectiveFieldOfView). */
XGD_API xgd_matrix xgd_matrix_create_perspective_field_of_view(float fov_y, float aspect,
                                                               float near_plane, float far_plane);
XGD_API xgd_matrix xgd_matrix_create_orthographic_off_center(float left, float right, float bottom,
                                                             float top, float near_plane,
                                                             float far_plane);
/* Returns false (and the identity in *out) when m is singular. */
XGD_API bool xgd_matrix_invert(const xgd_matrix *m, xgd_matrix *out);
XGD_API xgd_matrix xgd_matrix_transpose(const xgd_matrix *m);
/* v * m with w = 1, then divided by w (XNA Vector3.Transform with a projective matrix: no divide;
 * this helper returns the homogeneous result). */
XGD_API xgd_vector4 xgd_vector4_transform(xgd_vector4 v, const xgd_matrix *m);

/* ------------------------------------------------------------------------------------------ */
/* Enumerations (XNA names and order)                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef enum xgd_surface_format {
    XGD_SURFACE_FORMAT_DEFAULT = 0, /* Color */
    XGD_SURFACE_FORMAT_COLOR,            /* R8G8B8A8 unorm, r first in memory */
    XGD_SURFACE_FORMAT_BGR565,           /* 16-bit: b in bits 0-4, g 5-10, r 11-15 */
    XGD_SURFACE_FORMAT_BGRA5551,         /* 16-bit: b 0-4, g 5-9, r 10-14, a 15 */
    XGD_SURFACE_FORMAT_BGRA4444,         /* 16-bit: b 0-3, g 4-7, r 8-11, a 12-15 */
    XGD_SURFACE_FORMAT_DXT1,             /* BC1, 8 bytes per 4x4 block */
    XGD_SURFACE_FORMAT_DXT3,             /* BC2, 16 bytes per 4x4 block */
    XGD_SURFACE_FORMAT_DXT5,             /* BC3, 16 bytes per 4x4 block */
    XGD_SURFACE_FORMAT_NORMALIZED_BYTE2, /* R8G8 snorm */
    XGD_SURFACE_FORMAT_NORMALIZED_BYTE4, /* R8G8B8A8 snorm */
    XGD_SURFACE_FORMAT_RGBA1010102,      /* 32-bit: r 0-9, g 10-19, b 20-29, a 30-31 unorm */
    XGD_SURFACE_FORMAT_RG32,             /* R16G16 unorm */
    XGD_SURFACE_FORMAT_RGBA64,           /* R16G16B16A16 unorm */
    XGD_SURFACE_FORMAT_ALPHA8,           /* A8 unorm (r = g = b = 0 when sampled) */
    XGD_SURFACE_FORMAT_SINGLE,           /* R32 float */
    XGD_SURFACE_FORMAT_VECTOR2,          /* R32G32 float */
    XGD_SURFACE_FORMAT_VECTOR4,          /* R32G32B32A32 float */
    XGD_SURFACE_FORMAT_HALF_SINGLE,      /* R16 float */
    XGD_SURFACE_FORMAT_HALF_VECTOR2,     /* R16G16 float */
    XGD_SURFACE_FORMAT_HALF_VECTOR4,     /* R16G16B16A16 float */
    XGD_SURFACE_FORMAT_HDR_BLENDABLE,    /* R16G16B16A16 float, blendable */
    XGD_SURFACE_FORMAT_COUNT
} xgd_surface_format;

typedef enum xgd_depth_format {
    XGD_DEPTH_FORMAT_DEFAULT = 0, /* meaning depends on the desc; see its field */
    XGD_DEPTH_FORMAT_NONE,
    XGD_DEPTH_FORMAT_DEPTH16,
    XGD_DEPTH_FORMAT_DEPTH24,
    XGD_DEPTH_FORMAT_DEPTH24_STENCIL8,
    XGD_DEPTH_FORMAT_COUNT
} xgd_depth_format;

typedef enum xgd_graphics_profile {
    XGD_GRAPHICS_PROFILE_DEFAULT = 0, /* HiDef */
    XGD_GRAPHICS_PROFILE_REACH,       /* 2048 textures, 1 render target, no float formats */
    XGD_GRAPHICS_PROFILE_HIDEF        /* 4096 textures, 4 render targets */
} xgd_graphics_profile;

/* CNA's presentation modes: how the logical canvas (virtual size) maps into the back buffer. */
typedef enum xgd_presentation_mode {
    XGD_PRESENTATION_MODE_DEFAULT = 0,            /* NativeBackBuffer */
    XGD_PRESENTATION_MODE_NATIVE_BACK_BUFFER,     /* logical size = physical size */
    XGD_PRESENTATION_MODE_FIXED_HEIGHT_DYNAMIC_WIDTH, /* virtual height, width from aspect */
    XGD_PRESENTATION_MODE_STRETCH,                /* virtual size stretched to fill */
    XGD_PRESENTATION_MODE_LETTERBOX,              /* uniform scale by smaller ratio, centred */
    XGD_PRESENTATION_MODE_OVERSCAN                /* uniform scale by larger ratio, cropped */
} xgd_presentation_mode;

typedef enum xgd_present_interval {
    XGD_PRESENT_INTERVAL_DEFAULT = 0, /* swap interval 1 */
    XGD_PRESENT_INTERVAL_ONE,         /* 1 */
    XGD_PRESENT_INTERVAL_TWO,         /* 2 */
    XGD_PRESENT_INTERVAL_IMMEDIATE    /* 0 */
} xgd_present_interval;

typedef enum xgd_renderer_kind {
    XGD_RENDERER_AUTO = 0, /* XGD_RENDERER environment variable, else the best compiled renderer */
    XGD_RENDERER_SOFTWARE,
    XGD_RENDERER_VULKAN,
    XGD_RENDERER_D3D12,
    XGD_RENDERER_COUNT
} xgd_renderer_kind;

typedef enum xgd_render_target_usage {
    XGD_RENDER_TARGET_USAGE_DEFAULT = 0,  /* DiscardContents */
    XGD_RENDER_TARGET_USAGE_DISCARD_CONTENTS,
    XGD_RENDER_TARGET_USAGE_PRESERVE_CONTENTS,
    XGD_RENDER_TARGET_USAGE_PLATFORM_CONTENTS
} xgd_render_target_usage;

typedef enum xgd_cube_map_face {
    XGD_CUBE_MAP_FACE_POSITIVE_X = 0,
    XGD_CUBE_MAP_FACE_NEGATIVE_X,
    XGD_CUBE_MAP_FACE_POSITIVE_Y,
    XGD_CUBE_MAP_FACE_NEGATIVE_Y,
    XGD_CUBE_MAP_FACE_POSITIVE_Z,
    XGD_CUBE_MAP_FACE_NEGATIVE_Z
} xgd_cube_map_face;

typedef enum xgd_clear_options {
    XGD_CLEAR_TARGET = 1,
    XGD_CLEAR_DEPTH_BUFFER = 2,
    XGD_CLEAR_STENCIL = 4
} xgd_clear_options;

typedef enum xgd_blend {
    XGD_BLEND_DEFAULT = 0, /* see the field */
    XGD_BLEND_ONE,
    XGD_BLEND_ZERO,
    XGD_BLEND_SOURCE_COLOR,
    XGD_BLEND_INVERSE_SOURCE_COLOR,
    XGD_BLEND_SOURCE_ALPHA,
    XGD_BLEND_INVERSE_SOURCE_ALPHA,
    XGD_BLEND_DESTINATION_COLOR,
    XGD_BLEND_INVERSE_DESTINATION_COLOR,
    XGD_BLEND_DESTINATION_ALPHA,
    XGD_BLEND_INVERSE_DESTINATION_ALPHA,
    XGD_BLEND_BLEND_FACTOR,
    XGD_BLEND_INVERSE_BLEND_FACTOR,
    XGD_BLEND_SOURCE_ALPHA_SATURATION,
    XGD_BLEND_COUNT
} xgd_blend;

typedef enum xgd_blend_function {
    XGD_BLEND_FUNCTION_DEFAULT = 0, /* Add */
    XGD_BLEND_FUNCTION_ADD,
    XGD_BLEND_FUNCTION_SUBTRACT,         /* src - dst */
    XGD_BLEND_FUNCTION_REVERSE_SUBTRACT, /* dst - src */
    XGD_BLEND_FUNCTION_MIN,
    XGD_BLEND_FUNCTION_MAX,
    XGD_BLEND_FUNCTION_COUNT
} xgd_blend_function;

/* Colour write channels: a bit mask, as XNA's ColorWriteChannels (0 = None). */
typedef enum xgd_color_write_channels {
    XGD_COLOR_WRITE_NONE = 0,
    XGD_COLOR_WRITE_RED = 1,
    XGD_COLOR_WRITE_GREEN = 2,
    XGD_COLOR_WRITE_BLUE = 4,
    XGD_COLOR_WRITE_ALPHA = 8,
    XGD_COLOR_WRITE_ALL = 15
} xgd_color_write_channels;

typedef enum xgd_compare_function {
    XGD_COMPARE_DEFAULT = 0, /* see the field */
    XGD_COMPARE_ALWAYS,
    XGD_COMPARE_NEVER,
    XGD_COMPARE_LESS,
    XGD_COMPARE_LESS_EQUAL,
    XGD_COMPARE_EQUAL,
    XGD_COMPARE_GREATER_EQUAL,
    XGD_COMPARE_GREATER,
    XGD_COMPARE_NOT_EQUAL,
    XGD_COMPARE_COUNT
} xgd_compare_function;

typedef enum xgd_stencil_operation {
    XGD_STENCIL_OP_DEFAULT = 0, /* Keep */
    XGD_STENCIL_OP_KEEP,
    XGD_STENCIL_OP_ZERO,
    XGD_STENCIL_OP_REPLACE,
    XGD_STENCIL_OP_INCREMENT,            /* wraps */
    XGD_STENCIL_OP_DECREMENT,            /* wraps */
    XGD_STENCIL_OP_INCREMENT_SATURATION,
    XGD_STENCIL_OP_DECREMENT_SATURATION,
    XGD_STENCIL_OP_INVERT,
    XGD_STENCIL_OP_COUNT
} xgd_stencil_operation;

typedef enum xgd_cull_mode {
    XGD_CULL_DEFAULT = 0, /* CullCounterClockwiseFace */
    XGD_CULL_NONE,
    XGD_CULL_CLOCKWISE_FACE,
    XGD_CULL_COUNTER_CLOCKWISE_FACE,
    XGD_CULL_COUNT
} xgd_cull_mode;

typedef enum xgd_fill_mode {
    XGD_FILL_DEFAULT = 0, /* Solid */
    XGD_FILL_SOLID,
    XGD_FILL_WIREFRAME,
    XGD_FILL_COUNT
} xgd_fill_mode;

typedef enum xgd_texture_filter {
    XGD_FILTER_DEFAULT = 0, /* Linear */
    XGD_FILTER_LINEAR,
    XGD_FILTER_POINT,
    XGD_FILTER_ANISOTROPIC, /* linear taps along the pixel footprint's major axis, up to
                               MaxAnisotropy, at the level of detail of the footprint's length
                               divided by the taps (GPU: the hardware's filter; software: the
                               EXT_texture_filter_anisotropic reference, 2D textures only, cube
                               and volume textures as Linear) */
    XGD_FILTER_LINEAR_MIP_POINT,
    XGD_FILTER_POINT_MIP_LINEAR,
    XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_LINEAR,
    XGD_FILTER_MIN_LINEAR_MAG_POINT_MIP_POINT,
    XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_LINEAR,
    XGD_FILTER_MIN_POINT_MAG_LINEAR_MIP_POINT,
    XGD_FILTER_COUNT
} xgd_texture_filter;

typedef enum xgd_texture_address_mode {
    XGD_ADDRESS_DEFAULT = 0, /* Wrap */
    XGD_ADDRESS_WRAP,
    XGD_ADDRESS_CLAMP,
    XGD_ADDRESS_MIRROR,
    XGD_ADDRESS_COUNT
} xgd_texture_address_mode;

typedef enum xgd_primitive_type {
    XGD_PRIMITIVE_TRIANGLE_LIST = 0,
    XGD_PRIMITIVE_TRIANGLE_STRIP,
    XGD_PRIMITIVE_LINE_LIST,
    XGD_PRIMITIVE_LINE_STRIP,
    XGD_PRIMITIVE_COUNT
} xgd_primitive_type;

typedef enum xgd_vertex_element_format {
    XGD_VERTEX_FORMAT_SINGLE = 0,
    XGD_VERTEX_FORMAT_VECTOR2,
    XGD_VERTEX_FORMAT_VECTOR3,
    XGD_VERTEX_FORMAT_VECTOR4,
    XGD_VERTEX_FORMAT_COLOR,             /* 4 x uint8, normalised to 0..1 */
    XGD_VERTEX_FORMAT_BYTE4,             /* 4 x uint8, not normalised */
    XGD_VERTEX_FORMAT_SHORT2,
    XGD_VERTEX_FORMAT_SHORT4,
    XGD_VERTEX_FORMAT_NORMALIZED_SHORT2,
    XGD_VERTEX_FORMAT_NORMALIZED_SHORT4,
    XGD_VERTEX_FORMAT_HALF_VECTOR2,
    XGD_VERTEX_FORMAT_HALF_VECTOR4,
    XGD_VERTEX_FORMAT_COUNT
} xgd_vertex_element_format;

typedef enum xgd_vertex_element_usage {
    XGD_VERTEX_USAGE_POSITION = 0,
    XGD_VERTEX_USAGE_COLOR,
    XGD_VERTEX_USAGE_TEXTURE_COORDINATE,
    XGD_VERTEX_USAGE_NORMAL,
    XGD_VERTEX_USAGE_BINORMAL,
    XGD_VERTEX_USAGE_TANGENT,
    XGD_VERTEX_USAGE_BLEND_INDICES,
    XGD_VERTEX_USAGE_BLEND_WEIGHT,
    XGD_VERTEX_USAGE_DEPTH,
    XGD_VERTEX_USAGE_FOG,
    XGD_VERTEX_USAGE_POINT_SIZE,
    XGD_VERTEX_USAGE_SAMPLE,
    XGD_VERTEX_USAGE_TESSELLATE_FACTOR,
    XGD_VERTEX_USAGE_COUNT
} xgd_vertex_element_usage;

typedef enum xgd_index_element_size {
    XGD_INDEX_DEFAULT = 0, /* SixteenBits */
    XGD_INDEX_SIXTEEN_BITS,
    XGD_INDEX_THIRTY_TWO_BITS
} xgd_index_element_size;

typedef enum xgd_set_data_options {
    XGD_SET_DATA_NONE = 0,
    XGD_SET_DATA_DISCARD,      /* contents outside the written range become undefined */
    XGD_SET_DATA_NO_OVERWRITE  /* caller promises not to overwrite data a pending draw uses */
} xgd_set_data_options;

typedef enum xgd_sprite_sort_mode {
    XGD_SPRITE_SORT_DEFERRED = 0,
    XGD_SPRITE_SORT_IMMEDIATE,
    XGD_SPRITE_SORT_TEXTURE,
    XGD_SPRITE_SORT_BACK_TO_FRONT,
    XGD_SPRITE_SORT_FRONT_TO_BACK
} xgd_sprite_sort_mode;

typedef enum xgd_sprite_effects {
    XGD_SPRITE_EFFECTS_NONE = 0,
    XGD_SPRITE_FLIP_HORIZONTALLY = 1,
    XGD_SPRITE_FLIP_VERTICALLY = 2
} xgd_sprite_effects;

typedef enum xgd_log_level {
    XGD_LOG_ERROR = 0,
    XGD_LOG_WARNING,
    XGD_LOG_INFO
} xgd_log_level;

/* ------------------------------------------------------------------------------------------ */
/* Opaque objects                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_device xgd_device;
typedef struct xgd_texture xgd_texture;     /* Texture2D, TextureCube, RenderTarget2D/Cube,
                                               Texture3D */
typedef struct xgd_vertex_declaration xgd_vertex_declaration;
typedef struct xgd_vertex_buffer xgd_vertex_buffer;
typedef struct xgd_index_buffer xgd_index_buffer;
typedef struct xgd_blend_state xgd_blend_state;
typedef struct xgd_depth_stencil_state xgd_depth_stencil_state;
typedef struct xgd_rasterizer_state xgd_rasterizer_state;
typedef struct xgd_sampler_state xgd_sampler_state;
typedef struct xgd_effect xgd_effect;       /* effects loaded from bytes, and the stock
                                               effects derived from them */
typedef struct xgd_sprite_batch xgd_sprite_batch;

/* ------------------------------------------------------------------------------------------ */
/* Device                                                                                      */
/* ------------------------------------------------------------------------------------------ */

typedef void (*xgd_log_fn)(void *user, xgd_log_level level, xgd_result code, const char *message);

typedef enum xgd_device_event {
    XGD_EVENT_DEVICE_LOST = 0,      /* the renderer's native device is gone */
    XGD_EVENT_DEVICE_RESETTING,     /* about to recreate the renderer and resources */
    XGD_EVENT_DEVICE_RESET,         /* recreation finished (see xgd_device_info) */
    XGD_EVENT_RESOURCE_CREATED,
    XGD_EVENT_RESOURCE_DESTROYED
} xgd_device_event;

typedef void (*xgd_event_fn)(void *user, xgd_device *device, xgd_device_event event);

/* The window a device presents to (XNA's PresentationParameters.DeviceWindowHandle). xgd
 * never owns the event loop and never creates, resizes or destroys the window: the application
 * does, and pumps its events. The window must outlive the device, or be replaced through
 * xgd_device_reset before it is destroyed; a window destroyed under the device makes the next
 * xgd_present return XGD_ERROR_DEVICE_LOST ("the window is gone") and the device keeps
 * drawing into its back buffer until it is reset onto another window (or made headless). */
typedef enum xgd_window_kind {
    XGD_WINDOW_NONE = 0,  /* no window (headless devices) */
    XGD_WINDOW_SDL2,      /* sdl2_window: an SDL_Window * of SDL 2 (video subsystem initialised);
                             needs a library built with SDL2 (XGD_SDL2), else NOT_SUPPORTED */
    XGD_WINDOW_X11,       /* x11_display (Display *) and x11_window (Window); needs XGD_X11 */
    XGD_WINDOW_WIN32      /* hwnd (HWND), Windows builds only (elsewhere NOT_SUPPORTED): d3d12
                             presents through a DXGI flip-model swap chain, software through
                             GDI; vulkan refuses it with NOT_SUPPORTED */
} xgd_window_kind;

typedef struct xgd_window_handle {
    xgd_window_kind kind;
    void *sdl2_window;         /* SDL_Window * */
    void *x11_display;         /* Display * */
    unsigned long x11_window;  /* Window (an XID) */
    void *hwnd;                /* HWND */
} xgd_window_handle;

/* XNA PresentationParameters. A size is never 0, so the sizes' 0 stands for their default. */
typedef struct xgd_presentation_parameters {
    int back_buffer_width;                 /* default 800; 1..profile maximum. Windowed: the
                                              back buffer is the window's drawable size in
                                              pixels, whatever is asked (as a DXGI swap chain
                                              is); draw at another size through virtual_width,
                                              virtual_height and a presentation mode */
    int back_buffer_height;                /* default 480; 1..profile maximum (as above) */
    xgd_surface_format back_buffer_format; /* default Color; the back buffer is stored as Color */
    xgd_depth_format depth_stencil_format; /* default Depth24 (DEFAULT); NONE for no depth */
    int multisample_count;                 /* default 0 (off); rounded down to a power of two,
                                              clamped by the renderer */
    xgd_presentation_mode presentation_mode; /* default NativeBackBuffer */
    int virtual_width;                     /* logical canvas for the modes; 0 = back buffer */
    int virtual_height;
    xgd_present_interval present_interval; /* default One */
    bool headless; /* render into an implicit off-screen back buffer without a window (window
                      must then be kind NONE); false: present to `window` */
    xgd_window_handle window; /* windowed devices: the window presented to */
    bool is_full_screen; /* XNA's IsFullScreen, default false. SDL2 windows: borderless desktop
                            full screen (SDL_WINDOW_FULLSCREEN_DESKTOP, no display-mode change),
                            applied by create and Reset; the back buffer follows the window's
                            new size as on a resize (see xgd_device_reset). X11 windows:
                            NOT_SUPPORTED (full screen is asked of the window manager by the
                            window's owner). Headless devices: INVALID_ARGUMENT */
} xgd_presentation_parameters;

/* Where a pixel's centre lies relative to the geometry a draw rasterizes (the viewport
 * transform's integer grid). Internal passes (clears, blits, mip generation, resolves,
 * presentation) are never affected; the scissor rectangle stays on whole pixels either way. */
typedef enum xgd_pixel_center {
    /* Direct3D 9's rule, which XNA 4.0 runs on (the default): pixel (i, j) samples the
       geometry at integer coordinates (i, j) of the viewport, so every primitive lands half a
       pixel right of and below where Direct3D 10+ puts it, and attributes are interpolated at
       (i, j). The half pixel is one of the logical canvas (it scales with the presentation
       geometry). SpriteBatch and the stock SpriteEffect put XNA's -0.5 translation in their
       projection, so sprites stay texel-exact; a 2D BasicEffect needs
       CreateTranslation(-0.5, -0.5, 0) * CreateOrthographicOffCenter(0, w, h, 0, ...) for the
       same, as in XNA. */
    XGD_PIXEL_CENTER_XNA = 0,
    /* Direct3D 10+, Vulkan and OpenGL's rule: pixel (i, j) samples at (i + 0.5, j + 0.5);
       SpriteBatch and SpriteEffect use no half-pixel translation. */
    XGD_PIXEL_CENTER_D3D10
} xgd_pixel_center;

typedef struct xgd_device_desc {
    xgd_presentation_parameters pp;
    xgd_graphics_profile profile;  /* default HiDef */
    xgd_renderer_kind renderer;    /* default AUTO: $XGD_RENDERER ("software", "vulkan",
                                      "d3d12") if set, else the first compiled GPU renderer that
                                      starts, else software */
    bool debug;                    /* validation layers and debug names where the renderer has
                                      them (also XGD_VK_VALIDATION=1, XGD_D3D12_DEBUG=1). On
                                      Windows the D3D12 debug layer is process-wide: a debug
                                      device created while a non-debug D3D12 device lives
                                      makes the runtime remove the older one, so create
                                      debug devices first or only. */
    bool context_recovery;         /* default true: textures keep CPU shadows and get their
                                      content back after a loss; false (SetContextRecoveryEnabled
                                      (false)) saves the memory, textures lose content on loss */
    xgd_log_fn log;                /* optional: every error and warning */
    void *log_user;
    xgd_event_fn on_event;         /* optional: device and resource events */
    void *event_user;
    xgd_pixel_center pixel_center; /* default XNA (Direct3D 9 centres); see xgd_pixel_center */
} xgd_device_desc;

/* The desc that NULL stands for: XNA's defaults (pp sizes 0 = 800x480, HiDef, AUTO renderer,
 * context recovery on). It names no window, so set .pp.headless = true or .pp.window. */
#define XGD_DEVICE_DESC_DEFAULT { .context_recovery = true }

/* Renders zero-area scissor rectangles as ... (recorded per renderer, spec 002). */
typedef enum xgd_zero_scissor_behavior {
    XGD_ZERO_SCISSOR_CLIPS_ALL = 0,
    XGD_ZERO_SCISSOR_EXPANDS_TO_TARGET
} xgd_zero_scissor_behavior;

typedef struct xgd_device_info {
    xgd_renderer_kind renderer;
    const char *renderer_name;           /* "software", "vulkan", "d3d12"; static string */
    const char *adapter_name;            /* the renderer's device name; valid until destroy */
    xgd_graphics_profile profile;
    xgd_presentation_parameters pp;      /* as applied (defaults filled, counts clamped) */
    int swap_interval;                   /* 0, 1 or 2: PresentInterval as forwarded */
    int logical_width, logical_height;   /* the canvas the presentation mode maps */
    xgd_rect presentation_rect;          /* where the canvas lands in the back buffer */
    int max_texture_size;                /* per profile and renderer */
    int max_render_targets;              /* per profile and renderer */
    int max_multisample_count;
    xgd_zero_scissor_behavior zero_scissor;
    bool lost;                           /* waiting for xgd_device_restore_context */
    bool render_target_bound;            /* Present refuses while true */
    bool context_recovery_enabled;
    int last_recovery_failures;          /* resources that failed to recreate at the last reset */
    bool window_lost;                    /* windowed: the window is gone; Present fails with
                                            DEVICE_LOST until xgd_device_reset */
    xgd_pixel_center pixel_center;       /* as chosen at creation */
} xgd_device_info;

typedef struct xgd_statistics {
    uint64_t draw_calls;           /* renderer draw submissions */
    uint64_t primitives;
    uint64_t clears;
    uint64_t target_changes;       /* successful SetRenderTargets transitions */
    uint64_t resolves;             /* MSAA resolves performed at finalisation */
    uint64_t mip_generations;      /* mip chains regenerated at finalisation */
    uint64_t textures_created;
    uint64_t buffers_created;
    uint64_t sprite_batches;       /* SpriteBatch flushes that drew */
    uint64_t frames;               /* presents */
    uint64_t live_resources;
    /* Descriptor counters, reported by the renderer (0 on renderers without descriptors, such
       as software). live: descriptors (or pushed descriptor sets) that queued or executing work
       may still read; peak: the largest live seen; pool_growths: times a descriptor pool or
       heap had to grow because live demand exceeded it; recycles: descriptors returned for
       reuse once the fence of the frame that used them passed (issue 4). */
    uint64_t descriptors_live;
    uint64_t descriptors_peak;
    uint64_t descriptor_pool_growths;
    uint64_t descriptor_recycles;
    uint64_t triangles;            /* triangles drawn (TriangleList/TriangleStrip primitives) */
    /* Times a call blocked until the GPU finished queued work, reported by the renderer: a
       readback, a query result, a frame slot or upload memory still in use (0 on renderers
       without a GPU queue, such as software). Draws and SpriteBatch keep no wait on their
       own path: upload memory that a frame's data outgrew is enlarged at the next Present, so
       a steady stream of frames of the same size stops waiting after the first few. A counter:
       it restarts at xgd_device_reset_statistics. */
    uint64_t gpu_waits;
} xgd_statistics;

/* One frame's counters (spec 003 "RHI Statistics": draw calls, triangles, buffer and texture
 * creations, reset at the start of each frame). A frame runs from one successful Present to
 * the next; the device starts a new one by itself at each Present, so the last frame's numbers
 * stay readable while the next is recorded. Compute dispatches, which the spec also counts,
 * are not listed: xgd's only compute work is mip generation (Vulkan, Color chains), counted in
 * mip_generations. */
typedef struct xgd_frame_statistics {
    uint64_t frame;                /* index of the frame: 0 for the first (counts Presents) */
    uint64_t draw_calls;
    uint64_t primitives;
    uint64_t triangles;
    uint64_t clears;
    uint64_t target_changes;
    uint64_t resolves;
    uint64_t mip_generations;
    uint64_t buffers_created;
    uint64_t textures_created;
    uint64_t sprite_batches;
} xgd_frame_statistics;

/* What a renderer can do with a format. */
typedef struct xgd_format_support {
    bool texture;        /* can be created, uploaded and sampled */
    bool filterable;     /* linear filtering works (else point only) */
    bool render_target;  /* can be rendered to */
    bool blendable;      /* render target blending works */
    bool multisample;    /* render target with multisample count > 1 */
    bool volume;         /* a Texture3D can be created, uploaded and sampled (always false
                            under Reach, which has no volume textures) */
    int max_anisotropy;  /* Anisotropic sampler states on 2D textures of this format: the
                            largest MaxAnisotropy the device applies (a larger one is clamped
                            to it); 1 = the device has no anisotropic filtering and samples
                            them as Linear; 0 when the format is not filterable */
} xgd_format_support;

/*
 * Creates a device and its renderer.
 * desc: NULL means all defaults (XGD_DEVICE_DESC_DEFAULT), which ask for a window without naming
 * one (INVALID_ARGUMENT): set pp.headless, or pp.window.
 * Results: INVALID_ARGUMENT (out NULL, sizes out of range, unknown enums, a windowed device
 * without a window, a headless one with a window, a window handle that is NULL or not a
 * window), NOT_SUPPORTED (the chosen renderer is not compiled in, the window kind is not
 * compiled in, the renderer cannot present to that window), DEVICE_LOST (the window is
 * gone), NO_SUITABLE_DEVICE (the
 * renderer could not start), OUT_OF_MEMORY. A renderer whose packed-format self-test (a round
 * trip of Bgra4444, Bgr565 and Bgra5551 texels) could not run fails creation with the failing
 * step's code; only a test that ran and read back other texels makes a format unavailable.
 * On failure *out is NULL and the message is in xgd_device_last_error(NULL).
 */
XGD_API xgd_result xgd_device_create(const xgd_device_desc *desc, xgd_device **out);
/* Disposes every live resource's native part, then the renderer, then the device. Objects
 * still held by the caller become disposed shells. NULL is accepted. */
XGD_API void xgd_device_destroy(xgd_device *device);
/* The message of the last failed call on this device (or, for NULL, of the last failed
 * xgd_device_create on this thread); "" when none. Valid until the next call. */
XGD_API const char *xgd_device_last_error(const xgd_device *device);
/* The code of the last failure on this device (XGD_OK if none). */
XGD_API xgd_result xgd_device_last_result(const xgd_device *device);
/* Records a failure on the device as every xgd call does (xgd_device_last_error,
 * xgd_device_last_result and the log callback see it) and returns code. For libraries layered
 * on xgd (xgd's own SpriteBatch, fonts and stock effects use it), so their errors reach the
 * user the same way. device NULL records it for xgd_device_last_error(NULL) on this thread.
 * code must be negative (an xgd_result error); XGD_OK is returned unrecorded. The message is
 * formatted as printf and cut at 511 bytes. */
XGD_API xgd_result xgd_device_report_error(xgd_device *device, xgd_result code, const char *fmt,
                                           ...)
#if defined(__MINGW32__)
    __attribute__((format(gnu_printf, 3, 4))) /* C99 formats (%zu, %lld) on Windows too */
#elif defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* For libraries layered on xgd that try a call and fall back to another way when it fails
 * (xgd's SpriteBatch tries held upload memory and draws from its own queue when the device
 * has none to spare): between xgd_device_quiet_begin and xgd_device_quiet_end, a failing call
 * on the device returns its code as always and changes no state, but nothing records it:
 * xgd_device_last_error, xgd_device_last_result and the log callback see nothing (warnings
 * are still logged). Spans nest; the outermost begin clears the span's message.
 * xgd_device_quiet_end ends the innermost span and returns the message of the last failure
 * made in the span ("" when none; valid until the device's next failure), so a caller that
 * decides a failure is its own can report it (xgd_device_report_error). Losses are still
 * entered (DEVICE_LOST from every later call). An end without a begin does nothing; NULL is
 * accepted by both (end returns ""). */
XGD_API void xgd_device_quiet_begin(xgd_device *device);
XGD_API const char *xgd_device_quiet_end(xgd_device *device);
XGD_API xgd_result xgd_device_get_info(xgd_device *device, xgd_device_info *out);
/* Cumulative counters since creation or the last xgd_device_reset_statistics, plus gauges
 * (live resources, descriptors). Results: OK, INVALID_ARGUMENT (out NULL), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_device_get_statistics(xgd_device *device, xgd_statistics *out);
/* Per-frame counters. current true: the frame being recorded (since the last Present);
 * false: the last completed frame (the one the last successful Present ended; all zero with
 * frame 0 before the first Present). Results as xgd_device_get_statistics. */
XGD_API xgd_result xgd_device_get_frame_statistics(xgd_device *device, bool current,
                                                   xgd_frame_statistics *out);
/* Sets every cumulative counter and the current frame's counters to zero (the spec's
 * ResetStatistics); gauges (live resources, descriptor live/peak) and the last completed
 * frame's numbers are not counters and stay. Results: OK, OBJECT_DISPOSED. */
XGD_API xgd_result xgd_device_reset_statistics(xgd_device *device);
/* What the device does with a format under its profile (XNA's QueryRenderTargetFormat for the
 * render_target field): a render target asking for a format with render_target false gets
 * Color, reported by xgd_texture_get_info. NormalizedByte2/4 and Alpha8 are never render
 * targets; Bgr565, Bgra5551 and Bgra4444 are always textures (kept wide where the device lacks
 * them; README "Formats"). Results: OK, INVALID_ARGUMENT, OBJECT_DISPOSED. */
XGD_API xgd_result xgd_device_query_format(xgd_device *device, xgd_surface_format format,
                                          xgd_format_support *out);
/* Names of the renderers compiled into this library, NULL-terminated. */
XGD_API const char *const *xgd_renderers_compiled(void);
/* The kind for a name ("software", "vulkan", "d3d12"); XGD_RENDERER_COUNT if unknown. */
XGD_API xgd_renderer_kind xgd_renderer_from_name(const char *name);

/*
 * XNA GraphicsDevice.Reset(PresentationParameters): unbinds render targets, applies new
 * back-buffer parameters (NULL keeps the current ones) and resets viewport and scissor.
 * Windowed: the back buffer takes the window's current drawable size, so an application
 * calls this when its window was resized (as XNA's GraphicsDeviceManager does); a pp naming
 * another window moves the device onto it (also after the old one was lost), and a headless
 * pp leaves the window. Present also notices a new window size by itself, after showing the
 * frame, and resizes the back buffer for the next one.
 * Full screen (pp.is_full_screen, SDL2 windows): Reset asks SDL for borderless desktop full
 * screen, or windowed again, before sizing the back buffer from the size SDL then reports. A
 * window manager applies the change asynchronously: the application pumps its SDL events
 * (as for any resize), and Present follows the window if its size still changes. A toggle
 * SDL refuses fails the Reset by name with the window as it was.
 * Events, as XNA raises them: once the parameters are validated, DEVICE_RESETTING (before
 * anything changes), then DEVICE_RESET after a successful reset; once each per call.
 * Results: INVALID_ARGUMENT, NOT_SUPPORTED, DEVICE_LOST, OUT_OF_MEMORY; on failure nothing
 * changed. Events of a failed reset: a call refused by validation (or on a lost device)
 * raises none; a reset the renderer failed raises DEVICE_RESETTING only (no DEVICE_RESET),
 * with every public state as it was before the call.
 */
XGD_API xgd_result xgd_device_reset(xgd_device *device, const xgd_presentation_parameters *pp);

/*
 * Debug: simulates a context loss (DebugSimulateContextLoss). Raises DEVICE_LOST, disposes the
 * renderer and every native resource. Until xgd_device_restore_context, calls that need the
 * renderer return XGD_ERROR_DEVICE_LOST.
 */
XGD_API xgd_result xgd_device_simulate_context_loss(xgd_device *device);
/*
 * Recreates the renderer and every registered resource (DebugRestoreContext), raising
 * DEVICE_RESETTING then DEVICE_RESET. Textures get their contents back from their CPU shadow;
 * render targets report content lost; the applied shaders went with the context (as Direct3D
 * 9's Reset clears the shaders set), so the next draw needs an effect applied again
 * (INVALID_OPERATION before). xgd_device_info.last_recovery_failures counts the
 * resources that failed to recreate. When the new renderer cannot start, or its packed-format
 * self-test (see xgd_device_create) cannot run, the restore fails with that code, the device
 * stays lost and the restore may be called again.
 */
XGD_API xgd_result xgd_device_restore_context(xgd_device *device);

/* ------------------------------------------------------------------------------------------ */
/* Textures and render targets                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef enum xgd_texture_kind {
    XGD_TEXTURE_2D = 0,
    XGD_TEXTURE_CUBE,
    XGD_RENDER_TARGET_2D,
    XGD_RENDER_TARGET_CUBE,
    XGD_TEXTURE_3D               /* Texture3D (HiDef only; xgd_texture3d_create) */
} xgd_texture_kind;

typedef struct xgd_texture2d_desc {
    int width, height;           /* required: 1..profile maximum (Reach 2048, HiDef 4096) */
    bool mipmap;                 /* default false: one level; true: the full chain */
    xgd_surface_format format;   /* default Color */
} xgd_texture2d_desc;

typedef struct xgd_texture_cube_desc {
    int size;                    /* required: 1..profile maximum */
    bool mipmap;
    xgd_surface_format format;   /* default Color */
} xgd_texture_cube_desc;

/* XNA Texture3D (a volume texture). HiDef only: XNA's Reach profile has no volume textures. */
typedef struct xgd_texture3d_desc {
    int width, height, depth;    /* required: 1..256 each (XNA HiDef's volume texture limit;
                                    above 256 is NOT_SUPPORTED, below 1 INVALID_ARGUMENT) */
    bool mipmap;                 /* default false: one level; true: the full chain down to
                                    1x1x1, each dimension halving on its own (clamped at 1) */
    xgd_surface_format format;   /* default Color; must be one the renderer reports with
                                    xgd_format_support.volume */
} xgd_texture3d_desc;

/* A region of one level of a Texture3D: XNA SetData(level, left, top, right, bottom, front,
 * back, ...). right, bottom and back are exclusive. */
typedef struct xgd_box {
    int left, top, front, right, bottom, back;
} xgd_box;

typedef struct xgd_render_target_desc {
    int width, height;           /* required; for cube targets width is the size, height is
                                    ignored */
    bool mipmap;                 /* mips regenerate when the target is unbound */
    xgd_surface_format preferred_format; /* default Color; falls back to Color when the profile
                                            or renderer refuses it (XNA "preferred") */
    xgd_depth_format preferred_depth_format; /* default None (DEFAULT = None here) */
    int preferred_multisample_count;  /* default 0; rounded down to a power of two, clamped */
    xgd_render_target_usage usage;    /* default DiscardContents */
} xgd_render_target_desc;

typedef struct xgd_texture_info {
    xgd_texture_kind kind;
    int width, height;           /* level 0 (cube: size x size) */
    int level_count;
    xgd_surface_format format;   /* applied format */
    xgd_depth_format depth_format;   /* applied (render targets; None otherwise) */
    int multisample_count;       /* applied (render targets; 0 otherwise) */
    xgd_render_target_usage usage;
    bool content_lost;           /* render target lost its pixels (recovery); cleared on bind */
    bool has_cpu_shadow;         /* a CPU copy exists for context recovery */
    int depth;                   /* level 0 depth of a Texture3D; 1 for every other texture */
} xgd_texture_info;

/*
 * Texture and render-target creation. Results: INVALID_ARGUMENT (NULL desc or out, a size
 * below 1, unknown enums, a DXT width or height not a multiple of 4 under HiDef),
 * NOT_SUPPORTED (beyond the profile or renderer: see below), OUT_OF_MEMORY, DEVICE_LOST.
 * XNA's profile rules, NOT_SUPPORTED as XNA's NotSupportedException:
 *   - both: sizes up to the profile's texture limit (Reach 2048, HiDef 4096; cube maps Reach
 *     512, HiDef 4096); Reach's formats only under Reach.
 *   - Reach: a size that is not a power of two rules out mipmaps and DXT compression, and a
 *     DXT size must be a multiple of 4 (so DXT sizes are 4, 8, 16 ...); cube maps (TextureCube
 *     and RenderTargetCube) are powers of two, and NormalizedByte2/NormalizedByte4 are no cube
 *     formats (a RenderTargetCube preferring one gets Color). A non-power-of-two texture is
 *     sampled only with Clamp addressing (checked at draw time, see xgd_draw_primitives).
 */
XGD_API xgd_result xgd_texture2d_create(xgd_device *device, const xgd_texture2d_desc *desc,
                                        xgd_texture **out);
XGD_API xgd_result xgd_texture_cube_create(xgd_device *device, const xgd_texture_cube_desc *desc,
                                           xgd_texture **out);
XGD_API xgd_result xgd_render_target2d_create(xgd_device *device,
                                              const xgd_render_target_desc *desc,
                                              xgd_texture **out);
XGD_API xgd_result xgd_render_target_cube_create(xgd_device *device,
                                                 const xgd_render_target_desc *desc,
                                                 xgd_texture **out);
/* Decodes a PNG (through libspng) into a Color Texture2D without mips. The header is checked
 * first: a width or height above the device's texture size limit (xgd_device_info
 * .max_texture_size) is NOT_SUPPORTED before any image-sized memory is allocated; the image
 * is then decoded into the one buffer that becomes the texture's CPU shadow.
 * Texels, as XNA's Texture2D.FromStream stores them: a fully transparent pixel (alpha 0) is
 * stored as (0,0,0,0) whatever colour the file gives it; every other pixel is stored as the
 * file has it (8-bit RGBA, not premultiplied by its alpha, no gamma correction; grey, palette,
 * 16-bit and tRNS images are expanded to RGBA8 first). Results:
 * INVALID_OPERATION (the data is not a PNG: another image format or no image, as XNA's
 * FromStream refuses an unsupported format), INVALID_ARGUMENT (a damaged or truncated PNG: the
 * message says which; empty data or a NULL argument), NOT_SUPPORTED
 * (too large; ancillary chunks beyond the loader's limits of 16 MiB), IO (file), OUT_OF_MEMORY,
 * DEVICE_LOST, OBJECT_DISPOSED. The file variant streams the file (it is never read whole). */
XGD_API xgd_result xgd_texture2d_from_png_file(xgd_device *device, const char *path,
                                               xgd_texture **out);
XGD_API xgd_result xgd_texture2d_from_png_memory(xgd_device *device, const void *data,
                                                 size_t size, xgd_texture **out);
/*
 * Disposes a texture. A render target that is still bound is detached first (spec 001, bound
 * target disposal): the public bindings are cleared and Present refuses until
 * xgd_set_render_targets is called again. NULL and disposed textures are accepted.
 */
XGD_API void xgd_texture_destroy(xgd_texture *texture);
XGD_API xgd_result xgd_texture_get_info(const xgd_texture *texture, xgd_texture_info *out);
/* Bytes that one level's rectangle occupies in the texture's format (blocks for DXT).
 * 0 when there is no such size: an unknown format, a width or height below 1, or a byte count
 * too large for size_t (it never wraps around to a small number). */
XGD_API size_t xgd_surface_format_size(xgd_surface_format format, int width, int height);
/* Bytes per texel (per 4x4 block for DXT formats). 0 for an unknown format. */
XGD_API int xgd_surface_format_element_size(xgd_surface_format format);

/*
 * Writes texels. level: mip level; face: cube face (0 for 2D); rect: NULL for the whole level,
 * otherwise inside the level and, for DXT formats, aligned to 4 (or reaching the level edge).
 * data: tightly packed rows in the texture's format; size must equal xgd_surface_format_size
 * of the rectangle. Results: INVALID_ARGUMENT, OBJECT_DISPOSED, INVALID_OPERATION (a render
 * target that is bound; a partial write after the CPU shadow was dropped; a Texture3D, which
 * takes xgd_texture3d_set_data; a texture with no storage because its recreation failed at the
 * last xgd_device_restore_context), DEVICE_LOST.
 */
XGD_API xgd_result xgd_texture_set_data(xgd_texture *texture, int level, xgd_cube_map_face face,
                                        const xgd_rect *rect, const void *data, size_t size);
/* Reads texels, same layout as set_data. A multisampled render target returns its resolved
 * image. Results as set_data; NOT_SUPPORTED when the renderer cannot read the format back. */
XGD_API xgd_result xgd_texture_get_data(xgd_texture *texture, int level, xgd_cube_map_face face,
                                        const xgd_rect *rect, void *data, size_t size);

/*
 * XNA Texture3D: creates a volume texture. Defaults as Texture2D (format Color, one level
 * unless mipmap). A Texture3D is never a render target; it is sampled through the EXT
 * VolumeEffect (xgd_volume_effect_create). CPU shadow and context recovery as Texture2D: a
 * restored Texture3D has its texels back. xgd_texture_set_data / get_data refuse it
 * (INVALID_OPERATION); use xgd_texture3d_set_data / get_data.
 * Results: INVALID_ARGUMENT (NULL desc or out, a dimension below 1, unknown format, a DXT
 * width or height not a multiple of 4), NOT_SUPPORTED (Reach profile; a dimension above 256,
 * HiDef's volume limit, as XNA's NotSupportedException for a size beyond the profile; a format
 * the renderer cannot use for volume textures, see xgd_format_support.volume), OUT_OF_MEMORY,
 * DEVICE_LOST.
 */
XGD_API xgd_result xgd_texture3d_create(xgd_device *device, const xgd_texture3d_desc *desc,
                                        xgd_texture **out);
/*
 * XNA Texture3D.SetData(level, left, top, right, bottom, front, back, data, ...): writes the
 * box of one level (box NULL: the whole level). The box must lie inside the level and, for DXT
 * formats, have left/top aligned to 4 and right/bottom aligned to 4 or at the level edge.
 * data: tightly packed rows (block rows for DXT), then slices front to back; size must equal
 * xgd_surface_format_size(width, height) * (back - front) exactly.
 * Results: INVALID_ARGUMENT (NULL texture/data, level, box, size), INVALID_OPERATION (not a
 * Texture3D; a partial write of level 0 after the CPU shadow was dropped; no storage because
 * its recreation failed at the last xgd_device_restore_context), OBJECT_DISPOSED, DEVICE_LOST.
 */
XGD_API xgd_result xgd_texture3d_set_data(xgd_texture *texture, int level, const xgd_box *box,
                                          const void *data, size_t size);
/* Reads the box of one level, same layout and results as xgd_texture3d_set_data. */
XGD_API xgd_result xgd_texture3d_get_data(xgd_texture *texture, int level, const xgd_box *box,
                                          void *data, size_t size);
/* Saves level 0 (face 0) as an RGBA PNG. Non-Color formats are converted. A Texture3D is
 * refused (INVALID_OPERATION). */
XGD_API xgd_result xgd_texture_save_png(xgd_texture *texture, const char *path);

/* Writes an 8-bit RGBA image (rows of width*4 bytes) as PNG. Returns IO or INVALID_ARGUMENT. */
XGD_API xgd_result xgd_image_save_png(const char *path, int width, int height,
                                      const void *rgba);
/* Decodes a PNG file into 8-bit RGBA; *rgba is malloc'd and freed with xgd_free. Limits and
 * results as xgd_texture2d_from_png_file, with 16384 per side (the largest texture any xgd
 * renderer creates) in place of the device's limit. This is a plain file decoder, not a
 * texture loader: every pixel, fully transparent ones included, comes back as the file stores
 * it (not premultiplied), so xgd_image_save_png followed by this call gives the same bytes. */
XGD_API xgd_result xgd_image_load_png(const char *path, int *width, int *height, uint8_t **rgba);

/*
 * XNA Texture2D.FromStream for every image format xgd reads, told apart by the content (its
 * signature), never by a file name: PNG (libspng), JPEG (baseline and progressive), BMP, GIF
 * (the first frame) and TGA (stb_image), and DDS holding a Texture2D (see below).
 * Decoded images become a Color Texture2D of one level with XNA's FromStream texels: a fully
 * transparent pixel (alpha 0) is stored as (0,0,0,0), every other pixel as the file has it
 * (not premultiplied, no gamma correction). A DDS Texture2D keeps its format and mip levels
 * as stored (as xgd_texture_from_dds_*); a DDS cube map or volume is INVALID_OPERATION here.
 * Bounds: the header is read first and a side above the device's texture size limit is
 * NOT_SUPPORTED before any image-sized memory is allocated; a decoder never allocates more
 * than a valid image of the declared size needs, so a lying header or corrupt compressed
 * data ends in an error. Results: INVALID_OPERATION (no image format xgd reads), INVALID_
 * ARGUMENT (a damaged or truncated file: the message says which; empty data; NULL
 * arguments), NOT_SUPPORTED (too large; a format or profile rule the device cannot meet; a
 * build without stb_image for JPEG/BMP/GIF/TGA), IO, OUT_OF_MEMORY, DEVICE_LOST,
 * OBJECT_DISPOSED. The file variant reads the file as it decodes (never whole).
 */
XGD_API xgd_result xgd_texture2d_from_file(xgd_device *device, const char *path,
                                           xgd_texture **out);
XGD_API xgd_result xgd_texture2d_from_memory(xgd_device *device, const void *data, size_t size,
                                             xgd_texture **out);
/*
 * Loads a DDS (DirectDraw Surface) file as the texture it holds: a Texture2D, a TextureCube
 * (all six faces; faces in XNA's order +X, -X, +Y, -Y, +Z, -Z) or a Texture3D, with the mip
 * levels it stores (any count from 1 to the full chain). Texels are kept as stored (no
 * FromStream alpha rule): DXT1/DXT3/DXT5 (FourCC or DX10 BC1-BC3) and the uncompressed
 * formats xgd has, from legacy channel masks (A8R8G8B8, X8R8G8B8, A8B8G8R8, R8G8B8 become
 * Color; R5G6B5, A1R5G5B5, X1R5G5B5, A4R4G4B4, X4R4G4B4, A2B10G10R10, G16R16, A8, V8U8,
 * Q8W8V8U8), D3DFORMAT FourCC numbers (A16B16G16R16, R16F, G16R16F, A16B16G16R16F, R32F,
 * G32R32F, A32B32G32R32F) or a DX10 header's DXGI format. Any other pixel format, a texture
 * array, a 1D texture or a cube map without all six faces is NOT_SUPPORTED with the format
 * or shape named. The texture rules of the matching create call apply (profile sizes and
 * formats, Reach cube rules, Texture3D needs HiDef and 1..256 per side). Every declared size
 * is checked against the device limit and the bytes the file holds before anything
 * image-sized is allocated. Results as xgd_texture2d_from_file.
 */
XGD_API xgd_result xgd_texture_from_dds_file(xgd_device *device, const char *path,
                                             xgd_texture **out);
XGD_API xgd_result xgd_texture_from_dds_memory(xgd_device *device, const void *data,
                                               size_t size, xgd_texture **out);
/* XNA SaveAsJpeg: saves level 0 (face 0) as a baseline JPEG of quality 90 (stb_image_write);
 * non-Color formats are converted as xgd_texture_save_png does, alpha is dropped. A
 * Texture3D is refused (INVALID_OPERATION); a build without stb_image is NOT_SUPPORTED. */
XGD_API xgd_result xgd_texture_save_jpeg(xgd_texture *texture, const char *path);
/* Writes an 8-bit RGBA image (rows of width*4 bytes; alpha dropped) as a JPEG of the given
 * quality (1..100). Returns IO, INVALID_ARGUMENT or NOT_SUPPORTED (no stb_image). */
XGD_API xgd_result xgd_image_save_jpeg(const char *path, int width, int height, const void *rgba,
                                       int quality);
XGD_API void xgd_free(void *p);

/* ------------------------------------------------------------------------------------------ */
/* Render-target binding, clears, viewport, scissor, present                                   */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_render_target_binding {
    xgd_texture *target;         /* RenderTarget2D or RenderTargetCube */
    xgd_cube_map_face face;      /* cube targets only */
} xgd_render_target_binding;

/*
 * XNA SetRenderTargets: binds 1..4 targets (count 0: the back buffer, bindings may then be
 * NULL; NULL bindings with count > 0 is INVALID_ARGUMENT), as a transaction (spec 001): an
 * identical set is a no-op; otherwise the outgoing targets are finalised (MSAA resolve, mip
 * generation), the renderer binds the new set, and only then does public state change:
 * viewport and scissor reset to the first target, and a DiscardContents first target is
 * cleared to opaque black (and its depth/stencil planes). A failed call changes nothing public:
 * when the renderer fails the clear, the previous set stays bound (bindings, viewport, scissor,
 * statistics as before), even when binding it natively again fails too: the next call that
 * uses the binding (clear, draw, present, set_render_targets) then binds it first and returns
 * that failure if it recurs.
 * Results: INVALID_ARGUMENT (more than 4, NULL bindings with count > 0, NULL target, bad face,
 * a target in two slots, mismatched sizes/sample counts/pixel sizes), OBJECT_DISPOSED,
 * INVALID_OPERATION (not a render target, another device's target, beyond the profile's
 * maximum), NOT_SUPPORTED, DEVICE_LOST.
 */
XGD_API xgd_result xgd_set_render_targets(xgd_device *device,
                                          const xgd_render_target_binding *bindings, int count);
/* One 2D target, or NULL for the back buffer. */
XGD_API xgd_result xgd_set_render_target(xgd_device *device, xgd_texture *target);
XGD_API xgd_result xgd_set_render_target_cube(xgd_device *device, xgd_texture *target,
                                              xgd_cube_map_face face);
/* Copies up to max bindings into out and the count into *count (0: the back buffer). */
XGD_API xgd_result xgd_get_render_targets(xgd_device *device, xgd_render_target_binding *out,
                                          int max, int *count);

/*
 * XNA Clear(ClearOptions, Vector4, float, int): clears the whole bound target set. Asking for
 * depth or stencil when the bound attachment has none is INVALID_OPERATION (XNA 4.0).
 * depth 0..1; stencil is masked to 8 bits.
 */
XGD_API xgd_result xgd_clear(xgd_device *device, unsigned options, xgd_vector4 color, float depth,
                             int stencil);
/* XNA Clear(Color): colour plus whichever depth (1.0) and stencil (0) planes exist. */
XGD_API xgd_result xgd_clear_color(xgd_device *device, xgd_color color);

/* XNA Viewport. Coordinates are in the logical canvas of the current target. */
typedef struct xgd_viewport {
    int x, y, width, height;
    float min_depth, max_depth; /* 0..1; set_viewport takes them as given */
} xgd_viewport;

/* Results: INVALID_ARGUMENT (non-positive size, x + width or y + height beyond INT_MAX,
 * depth outside 0..1). */
XGD_API xgd_result xgd_set_viewport(xgd_device *device, const xgd_viewport *viewport);
XGD_API xgd_result xgd_get_viewport(xgd_device *device, xgd_viewport *out);
/* XNA ScissorRectangle; clipped to the target, used when RasterizerState.ScissorTestEnable.
 * Results: INVALID_ARGUMENT (negative size, x + width or y + height beyond INT_MAX). */
XGD_API xgd_result xgd_set_scissor_rect(xgd_device *device, xgd_rect rect);
XGD_API xgd_result xgd_get_scissor_rect(xgd_device *device, xgd_rect *out);

/*
 * Finishes the frame: submits work and, on a windowed device, shows it: the back buffer, whose
 * size is the window's, lands on the window pixel for pixel (the presentation mode's scaling
 * is the viewport transform of the draws, spec 002; letterbox bars are what the frame's clear
 * left there). Then, windowed, when the window's drawable size changed the back buffer is
 * recreated at the new size and viewport and scissor reset to the new logical canvas, as a
 * Reset would. Headless devices resolve back-buffer MSAA and keep the image for
 * xgd_get_back_buffer_data (so do windowed ones).
 * Pacing by pp.present_interval: renderer-specific (README "Windows").
 * Results: INVALID_OPERATION while a render target is bound (unbind with
 * xgd_set_render_target(dev, NULL) first), DEVICE_LOST (also: the window is gone; the frame
 * was submitted, xgd_device_info.window_lost is true, and xgd_device_reset onto another
 * window recovers).
 */
XGD_API xgd_result xgd_present(xgd_device *device);

/*
 * Maps a window pixel (e.g. the mouse position of an SDL or X11 event, in the window system's
 * coordinates) to the logical canvas through the presentation geometry: *out is the logical
 * point under the pixel's centre, so (int)floor(out->x), (int)floor(out->y) is the logical
 * pixel drawn there (through a letterbox's offset and scale, a stretch or an overscan crop).
 * *inside (may be NULL) tells whether that point lies on the canvas (false on letterbox bars).
 * Window units are converted to back-buffer pixels by the ratio of the window's drawable size
 * to its size (1 on X11; high-DPI SDL windows differ). Headless devices map back-buffer pixels.
 * Results: INVALID_ARGUMENT (out NULL), OBJECT_DISPOSED.
 */
XGD_API xgd_result xgd_window_to_logical(xgd_device *device, int window_x, int window_y,
                                         xgd_vector2 *out, bool *inside);

/*
 * XNA GetBackBufferData<Color>: reads the back buffer as Color (RGBA8). rect is in logical
 * coordinates (NULL: the whole logical canvas); each logical pixel samples the physical back
 * buffer at its centre; samples outside the back buffer read as zero. size must be
 * rect.width * rect.height * 4. Results: INVALID_ARGUMENT, NOT_SUPPORTED (no back buffer),
 * DEVICE_LOST.
 */
XGD_API xgd_result xgd_get_back_buffer_data(xgd_device *device, const xgd_rect *rect, void *data,
                                            size_t size);

/* ------------------------------------------------------------------------------------------ */
/* State objects                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_target_blend_desc {
    xgd_blend_function color_blend_function;  /* default Add */
    xgd_blend color_source_blend;             /* default One */
    xgd_blend color_destination_blend;        /* default Zero */
    xgd_blend_function alpha_blend_function;  /* default Add */
    xgd_blend alpha_source_blend;             /* default One */
    xgd_blend alpha_destination_blend;        /* default Zero */
    unsigned color_write_channels;            /* default All; 0 (NONE) writes nothing */
} xgd_target_blend_desc;

typedef struct xgd_blend_state_desc {
    /* target[0] is XNA's ColorSourceBlend... and ColorWriteChannels; targets 1..3 are
       ColorWriteChannels1..3 plus per-target blending where independent_blend is set. */
    xgd_target_blend_desc target[4];
    bool independent_blend;       /* default false: targets 1..3 use target[0]'s blend with their
                                     own write channels (XNA's model) */
    xgd_color blend_factor;       /* default White; zero is black */
    int multisample_mask;         /* default -1 (all samples); 0 writes no sample of a
                                     multisampled target (single-sampled targets ignore it) */
} xgd_blend_state_desc;

/* XNA's defaults (BlendState.Opaque's values), the desc that NULL stands for. */
#define XGD_TARGET_BLEND_DESC_DEFAULT                                                       \
    { .color_blend_function = XGD_BLEND_FUNCTION_ADD, .color_source_blend = XGD_BLEND_ONE,      \
      .color_destination_blend = XGD_BLEND_ZERO, .alpha_blend_function = XGD_BLEND_FUNCTION_ADD, \
      .alpha_source_blend = XGD_BLEND_ONE, .alpha_destination_blend = XGD_BLEND_ZERO,           \
      .color_write_channels = XGD_COLOR_WRITE_ALL }
#define XGD_BLEND_STATE_DESC_DEFAULT                                                        \
    { .target = { XGD_TARGET_BLEND_DESC_DEFAULT, XGD_TARGET_BLEND_DESC_DEFAULT,                 \
                  XGD_TARGET_BLEND_DESC_DEFAULT, XGD_TARGET_BLEND_DESC_DEFAULT },               \
      .blend_factor = { 255, 255, 255, 255 }, .multisample_mask = -1 }

typedef enum xgd_blend_preset {
    XGD_BLEND_PRESET_OPAQUE = 0,
    XGD_BLEND_PRESET_ALPHA_BLEND,        /* premultiplied: One, InverseSourceAlpha */
    XGD_BLEND_PRESET_ADDITIVE,           /* SourceAlpha, One */
    XGD_BLEND_PRESET_NON_PREMULTIPLIED   /* SourceAlpha, InverseSourceAlpha */
} xgd_blend_preset;

typedef struct xgd_depth_stencil_desc {
    bool depth_buffer_enable;                /* default true: depth test on */
    bool depth_buffer_write_enable;          /* default true */
    xgd_compare_function depth_function;     /* default LessEqual */
    bool stencil_enable;                     /* default false */
    xgd_compare_function stencil_function;   /* default Always */
    xgd_stencil_operation stencil_pass;      /* default Keep */
    xgd_stencil_operation stencil_fail;      /* default Keep */
    xgd_stencil_operation stencil_depth_fail;/* default Keep */
    bool two_sided_stencil;                  /* default false */
    xgd_compare_function ccw_stencil_function;                        /* default Always */
    xgd_stencil_operation ccw_stencil_pass, ccw_stencil_fail, ccw_stencil_depth_fail; /* Keep */
    int stencil_mask;                        /* default 0xFF (all bits of the 8-bit plane, as
                                                XNA's Int32.MaxValue; -1 is also all); 0 = none */
    int stencil_write_mask;                  /* default 0xFF; 0 writes no bit */
    int reference_stencil;                   /* default 0 */
} xgd_depth_stencil_desc;

/* XNA's defaults (DepthStencilState.Default's values), the desc that NULL stands for. */
#define XGD_DEPTH_STENCIL_DESC_DEFAULT                                                      \
    { .depth_buffer_enable = true, .depth_buffer_write_enable = true,                           \
      .depth_function = XGD_COMPARE_LESS_EQUAL, .stencil_function = XGD_COMPARE_ALWAYS,         \
      .stencil_pass = XGD_STENCIL_OP_KEEP, .stencil_fail = XGD_STENCIL_OP_KEEP,                 \
      .stencil_depth_fail = XGD_STENCIL_OP_KEEP, .ccw_stencil_function = XGD_COMPARE_ALWAYS,    \
      .ccw_stencil_pass = XGD_STENCIL_OP_KEEP, .ccw_stencil_fail = XGD_STENCIL_OP_KEEP,         \
      .ccw_stencil_depth_fail = XGD_STENCIL_OP_KEEP, .stencil_mask = 0xFF,                      \
      .stencil_write_mask = 0xFF }

typedef enum xgd_depth_stencil_preset {
    XGD_DEPTH_STENCIL_PRESET_DEFAULT = 0,  /* test and write, LessEqual */
    XGD_DEPTH_STENCIL_PRESET_DEPTH_READ,   /* test, no write */
    XGD_DEPTH_STENCIL_PRESET_NONE          /* no test, no write */
} xgd_depth_stencil_preset;

typedef struct xgd_rasterizer_desc {
    xgd_cull_mode cull_mode;        /* default CullCounterClockwiseFace */
    xgd_fill_mode fill_mode;        /* default Solid */
    bool scissor_test_enable;       /* default false */
    bool multisample_antialias;     /* default true (XNA MultiSampleAntiAlias) */
    float depth_bias;               /* default 0; in units of depth (0..1), XNA's float */
    float slope_scale_depth_bias;   /* default 0 */
} xgd_rasterizer_desc;

/* XNA's defaults (RasterizerState.CullCounterClockwise's values), the desc NULL stands for. */
#define XGD_RASTERIZER_DESC_DEFAULT                                                         \
    { .cull_mode = XGD_CULL_COUNTER_CLOCKWISE_FACE, .fill_mode = XGD_FILL_SOLID,                \
      .multisample_antialias = true }

typedef enum xgd_rasterizer_preset {
    XGD_RASTERIZER_PRESET_CULL_NONE = 0,
    XGD_RASTERIZER_PRESET_CULL_CLOCKWISE,
    XGD_RASTERIZER_PRESET_CULL_COUNTER_CLOCKWISE
} xgd_rasterizer_preset;

typedef struct xgd_sampler_desc {
    xgd_texture_filter filter;             /* default Linear */
    xgd_texture_address_mode address_u;    /* default Wrap */
    xgd_texture_address_mode address_v;    /* default Wrap */
    xgd_texture_address_mode address_w;    /* default Wrap */
    int max_anisotropy;                    /* default 4; 0..16 (0 and 1: no anisotropy; above
                                              16 is applied as 16, then clamped to
                                              xgd_format_support.max_anisotropy). Used by the
                                              Anisotropic filter only */
    int max_mip_level;                     /* default 0: the most detailed level sampled */
    float mip_map_level_of_detail_bias;    /* default 0 */
} xgd_sampler_desc;

/* XNA's defaults (SamplerState.LinearWrap's values), the desc that NULL stands for. */
#define XGD_SAMPLER_DESC_DEFAULT                                                            \
    { .filter = XGD_FILTER_LINEAR, .address_u = XGD_ADDRESS_WRAP, .address_v = XGD_ADDRESS_WRAP, \
      .address_w = XGD_ADDRESS_WRAP, .max_anisotropy = 4 }

typedef enum xgd_sampler_preset {
    XGD_SAMPLER_PRESET_POINT_WRAP = 0,
    XGD_SAMPLER_PRESET_POINT_CLAMP,
    XGD_SAMPLER_PRESET_LINEAR_WRAP,
    XGD_SAMPLER_PRESET_LINEAR_CLAMP,
    XGD_SAMPLER_PRESET_ANISOTROPIC_WRAP,
    XGD_SAMPLER_PRESET_ANISOTROPIC_CLAMP
} xgd_sampler_preset;

/* State objects are immutable once created (XNA states become immutable when bound). desc NULL
 * means XNA's defaults (the XGD_*_DESC_DEFAULT initialisers above); start from those to change
 * a few fields: a zeroed desc means zero and false in every field. Results: INVALID_ARGUMENT
 * (unknown enum values, a negative max_anisotropy or max_mip_level). */
XGD_API xgd_result xgd_blend_state_create(xgd_device *device, const xgd_blend_state_desc *desc,
                                          xgd_blend_state **out);
XGD_API xgd_result xgd_depth_stencil_state_create(xgd_device *device,
                                                  const xgd_depth_stencil_desc *desc,
                                                  xgd_depth_stencil_state **out);
XGD_API xgd_result xgd_rasterizer_state_create(xgd_device *device,
                                               const xgd_rasterizer_desc *desc,
                                               xgd_rasterizer_state **out);
XGD_API xgd_result xgd_sampler_state_create(xgd_device *device, const xgd_sampler_desc *desc,
                                            xgd_sampler_state **out);
/* The device's preset objects (XNA's BlendState.Opaque etc.). Owned by the device: destroying
 * one is a no-op. NULL for a NULL/destroyed device or unknown preset. */
XGD_API xgd_blend_state *xgd_blend_state_preset(xgd_device *device, xgd_blend_preset preset);
XGD_API xgd_depth_stencil_state *xgd_depth_stencil_state_preset(xgd_device *device,
                                                                xgd_depth_stencil_preset preset);
XGD_API xgd_rasterizer_state *xgd_rasterizer_state_preset(xgd_device *device,
                                                          xgd_rasterizer_preset preset);
XGD_API xgd_sampler_state *xgd_sampler_state_preset(xgd_device *device,
                                                    xgd_sampler_preset preset);
XGD_API void xgd_blend_state_destroy(xgd_blend_state *state);
XGD_API void xgd_depth_stencil_state_destroy(xgd_depth_stencil_state *state);
XGD_API void xgd_rasterizer_state_destroy(xgd_rasterizer_state *state);
XGD_API void xgd_sampler_state_destroy(xgd_sampler_state *state);
/* The applied desc (defaults filled). */
XGD_API xgd_result xgd_blend_state_get_desc(const xgd_blend_state *s, xgd_blend_state_desc *out);
XGD_API xgd_result xgd_depth_stencil_state_get_desc(const xgd_depth_stencil_state *s,
                                                    xgd_depth_stencil_desc *out);
XGD_API xgd_result xgd_rasterizer_state_get_desc(const xgd_rasterizer_state *s,
                                                 xgd_rasterizer_desc *out);
XGD_API xgd_result xgd_sampler_state_get_desc(const xgd_sampler_state *s, xgd_sampler_desc *out);

/* Bind states for later draws (XNA GraphicsDevice.BlendState = ...). NULL restores the XNA
 * default (Opaque, Default, CullCounterClockwise, LinearWrap). Results: OBJECT_DISPOSED,
 * INVALID_OPERATION (another device's state), INVALID_ARGUMENT (slot out of 0..15). */
XGD_API xgd_result xgd_set_blend_state(xgd_device *device, xgd_blend_state *state);
XGD_API xgd_result xgd_set_depth_stencil_state(xgd_device *device, xgd_depth_stencil_state *state);
XGD_API xgd_result xgd_set_rasterizer_state(xgd_device *device, xgd_rasterizer_state *state);
XGD_API xgd_result xgd_set_sampler_state(xgd_device *device, int slot, xgd_sampler_state *state);
/* XNA GraphicsDevice.Textures[slot]; NULL unbinds. A bound render target cannot be sampled
 * (INVALID_OPERATION at draw time). */
XGD_API xgd_result xgd_set_texture(xgd_device *device, int slot, xgd_texture *texture);

/* ------------------------------------------------------------------------------------------ */
/* Vertex declarations and buffers                                                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_vertex_element {
    int offset;                          /* bytes from the vertex start */
    xgd_vertex_element_format format;
    xgd_vertex_element_usage usage;
    int usage_index;
} xgd_vertex_element;

/* Stock vertex types of XNA, laid out as XNA lays them out. */
typedef struct xgd_vertex_position_color {
    xgd_vector3 position;
    xgd_color color;
} xgd_vertex_position_color;
typedef struct xgd_vertex_position_texture {
    xgd_vector3 position;
    xgd_vector2 texture_coordinate;
} xgd_vertex_position_texture;
typedef struct xgd_vertex_position_color_texture {
    xgd_vector3 position;
    xgd_color color;
    xgd_vector2 texture_coordinate;
} xgd_vertex_position_color_texture;
typedef struct xgd_vertex_position_normal_texture {
    xgd_vector3 position;
    xgd_vector3 normal;
    xgd_vector2 texture_coordinate;
} xgd_vertex_position_normal_texture;

typedef enum xgd_stock_vertex {
    XGD_VERTEX_POSITION_COLOR = 0,
    XGD_VERTEX_POSITION_TEXTURE,
    XGD_VERTEX_POSITION_COLOR_TEXTURE,
    XGD_VERTEX_POSITION_NORMAL_TEXTURE
} xgd_stock_vertex;

/* stride 0 = computed from the elements. Results: INVALID_ARGUMENT (no elements, overlapping
 * or out-of-stride elements, unknown formats). */
XGD_API xgd_result xgd_vertex_declaration_create(xgd_device *device,
                                                 const xgd_vertex_element *elements, int count,
                                                 int stride, xgd_vertex_declaration **out);
/* The device's declaration for a stock vertex type (owned by the device). */
XGD_API xgd_vertex_declaration *xgd_vertex_declaration_stock(xgd_device *device,
                                                             xgd_stock_vertex kind);
XGD_API void xgd_vertex_declaration_destroy(xgd_vertex_declaration *decl);
XGD_API int xgd_vertex_declaration_stride(const xgd_vertex_declaration *decl);

typedef struct xgd_vertex_buffer_desc {
    xgd_vertex_declaration *declaration; /* required */
    int vertex_count;                    /* required, > 0 */
    bool dynamic;                        /* DynamicVertexBuffer: Discard/NoOverwrite are cheap */
    bool write_only;                     /* BufferUsage.WriteOnly: get_data is refused */
} xgd_vertex_buffer_desc;

typedef struct xgd_index_buffer_desc {
    xgd_index_element_size element_size; /* default SixteenBits */
    int index_count;                     /* required, > 0 */
    bool dynamic;
    bool write_only;
} xgd_index_buffer_desc;

XGD_API xgd_result xgd_vertex_buffer_create(xgd_device *device,
                                            const xgd_vertex_buffer_desc *desc,
                                            xgd_vertex_buffer **out);
XGD_API void xgd_vertex_buffer_destroy(xgd_vertex_buffer *buffer);
/* Writes bytes at offset. options: NONE (safe while draws use the buffer), DISCARD (dynamic
 * buffers: fresh storage), NO_OVERWRITE (dynamic: caller promises to touch unused ranges).
 * Results: INVALID_ARGUMENT (NULL data, range, options on a static buffer),
 * ARGUMENT_OUT_OF_RANGE (size 0: XNA's SetData with an elementCount of 0), OBJECT_DISPOSED.
 * xgd_index_buffer_set_data has the same results (size 0 included). */
XGD_API xgd_result xgd_vertex_buffer_set_data(xgd_vertex_buffer *buffer, size_t offset,
                                              const void *data, size_t size,
                                              xgd_set_data_options options);
/* INVALID_OPERATION for a write-only buffer. */
XGD_API xgd_result xgd_vertex_buffer_get_data(xgd_vertex_buffer *buffer, size_t offset,
                                              void *data, size_t size);
XGD_API xgd_result xgd_index_buffer_create(xgd_device *device, const xgd_index_buffer_desc *desc,
                                           xgd_index_buffer **out);
XGD_API void xgd_index_buffer_destroy(xgd_index_buffer *buffer);
XGD_API xgd_result xgd_index_buffer_set_data(xgd_index_buffer *buffer, size_t offset,
                                             const void *data, size_t size,
                                             xgd_set_data_options options);
XGD_API xgd_result xgd_index_buffer_get_data(xgd_index_buffer *buffer, size_t offset, void *data,
                                             size_t size);

/* XNA SetVertexBuffer(vb, vertexOffset) and Indices = ib. NULL unbinds. vertex_offset counts
 * vertices and must name one of the buffer's: ARGUMENT_OUT_OF_RANGE otherwise (negative or
 * >= its vertex count), as xgd_set_vertex_buffers gives for a binding's offset. */
XGD_API xgd_result xgd_set_vertex_buffer(xgd_device *device, xgd_vertex_buffer *buffer,
                                         int vertex_offset);
XGD_API xgd_result xgd_set_indices(xgd_device *device, xgd_index_buffer *buffer);

/*
 * XNA SetVertexBuffers(params VertexBufferBinding[]): several vertex buffers at once, each with
 * its vertex offset (in vertices, as xgd_set_vertex_buffer) and InstanceFrequency: 0 = the
 * buffer holds per-vertex data; n > 0 = per-instance data, one element per n instances of
 * xgd_draw_instanced_primitives. The vertex shader's inputs are looked up across the
 * declarations of every binding, so a binding adds inputs (e.g. a per-instance matrix in
 * TextureCoordinate1..4 and a colour in Color1) to the geometry's.
 *     xgd_vertex_buffer_binding b[2] = { { quad_vb, 0, 0 }, { instance_vb, 0, 1 } };
 *     xgd_set_vertex_buffers(dev, b, 2);
 *     xgd_draw_instanced_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2, 1000);
 * count 0 (bindings may then be NULL) unbinds every vertex buffer; binding one buffer with
 * xgd_set_vertex_buffer replaces all bindings by that one. Rules (checked here, nothing
 * changes on failure): count 0..XGD_MAX_VERTEX_BUFFER_BINDINGS (INVALID_ARGUMENT beyond),
 * buffer not NULL (INVALID_ARGUMENT: ArgumentNullException), vertex_offset naming a vertex of
 * the buffer and instance_frequency >= 0 (ARGUMENT_OUT_OF_RANGE), per-instance data under the
 * Reach profile (NOT_SUPPORTED: Reach has no instancing). Rules of the combination, checked at
 * the draw (INVALID_OPERATION): no usage and usage index may appear in two bindings, at most 16
 * elements in all, at least one per-vertex binding. Stock effects (BasicEffect, SpriteBatch's)
 * read the first per-vertex binding only; user effects read every binding. A destroyed buffer leaves
 * its binding empty: a draw then fails with INVALID_OPERATION naming the binding.
 * Non-instanced draws read a per-instance binding's first element (instance 0).
 */
#define XGD_MAX_VERTEX_BUFFER_BINDINGS 16
typedef struct xgd_vertex_buffer_binding {
    xgd_vertex_buffer *buffer;
    int vertex_offset;                   /* in vertices */
    int instance_frequency;              /* 0: per vertex; n > 0: advances every n instances */
} xgd_vertex_buffer_binding;
XGD_API xgd_result xgd_set_vertex_buffers(xgd_device *device,
                                          const xgd_vertex_buffer_binding *bindings, int count);
/* XNA GetVertexBuffers(): copies up to capacity bindings into out (may be NULL when capacity
 * is 0) and the number bound into *count. Results: INVALID_ARGUMENT (count NULL, capacity < 0,
 * out NULL with capacity > 0), OBJECT_DISPOSED (the device). */
XGD_API xgd_result xgd_get_vertex_buffers(xgd_device *device, xgd_vertex_buffer_binding *out,
                                          int capacity, int *count);

/*
 * What is bound, as XNA's GraphicsDevice properties read, for the save / change / restore
 * pattern (xgd_get_blend_state(dev, &saved); ...; xgd_set_blend_state(dev, saved)). State
 * slots always hold an object: after binding NULL (and on a new device) they return XNA's
 * default preset objects, the same pointers xgd_*_preset returns (BlendState.Opaque,
 * DepthStencilState.Default, RasterizerState.CullCounterClockwise, SamplerState.LinearWrap).
 * Texture, vertex-buffer and index-buffer slots return NULL when nothing is bound (a vertex
 * offset of 0 then). A destroyed object is never returned: destroying a bound object unbinds
 * it (states go back to the preset). Viewport, scissor and render targets have their own
 * getters (xgd_get_viewport, xgd_get_scissor_rect, xgd_get_render_targets).
 * Results: INVALID_ARGUMENT (out NULL, slot outside 0..15), OBJECT_DISPOSED (the device);
 * a lost device answers. On failure *out is NULL (when out is not NULL).
 */
XGD_API xgd_result xgd_get_blend_state(xgd_device *device, xgd_blend_state **out);
XGD_API xgd_result xgd_get_depth_stencil_state(xgd_device *device, xgd_depth_stencil_state **out);
XGD_API xgd_result xgd_get_rasterizer_state(xgd_device *device, xgd_rasterizer_state **out);
XGD_API xgd_result xgd_get_sampler_state(xgd_device *device, int slot, xgd_sampler_state **out);
XGD_API xgd_result xgd_get_texture(xgd_device *device, int slot, xgd_texture **out);
/* XNA GraphicsDevice.BlendFactor: the bound blend state's factor (defaults applied: White
 * unless the state gave another). */
XGD_API xgd_result xgd_get_blend_factor(xgd_device *device, xgd_color *out);
/* XNA GetVertexBuffers()[0]: the buffer and the vertex offset it was bound with. */
XGD_API xgd_result xgd_get_vertex_buffer(xgd_device *device, xgd_vertex_buffer **out,
                                         int *vertex_offset);
/* XNA GraphicsDevice.Indices. */
XGD_API xgd_result xgd_get_indices(xgd_device *device, xgd_index_buffer **out);

/* XNA 4.0 HiDef's vertex texture slots, GraphicsDevice.VertexTextures[slot] and
 * VertexSamplerStates[slot], slot 0..XGD_MAX_VERTEX_TEXTURE_SLOTS - 1: what a vertex shader
 * samples (an HLSL effect's vertex-shader texture at register tN / sN is vertex slot N, which
 * the effect sets at apply), apart from the pixel stage's Textures[] / SamplerStates[]. Vertex
 * texture fetch is point-sampled with the slot's addressing (an effect's apply sets the slot's
 * sampler state to its Point-filter form). Textures: only the formats XNA fetches in a vertex
 * shader (Single, Vector2, Vector4, HalfSingle, HalfVector2, HalfVector4, HdrBlendable);
 * NULL unbinds. Sampler states: NULL restores the default, LinearWrap (as XNA's device
 * starts). Results: OBJECT_DISPOSED, INVALID_OPERATION (another device's object; at draw time
 * a render target bound for output), INVALID_ARGUMENT (slot out of range), NOT_SUPPORTED (a
 * texture on the Reach profile, which has no vertex textures; another format, named). Nothing
 * changes on failure. Getters: the bound object or NULL. */
#define XGD_MAX_VERTEX_TEXTURE_SLOTS 4
XGD_API xgd_result xgd_set_vertex_texture(xgd_device *device, int slot, xgd_texture *texture);
XGD_API xgd_result xgd_get_vertex_texture(xgd_device *device, int slot, xgd_texture **out);
XGD_API xgd_result xgd_set_vertex_sampler_state(xgd_device *device, int slot,
                                                xgd_sampler_state *state);
XGD_API xgd_result xgd_get_vertex_sampler_state(xgd_device *device, int slot,
                                                xgd_sampler_state **out);

/* ------------------------------------------------------------------------------------------ */
/* Drawing                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/*
 * Draw calls use the bound states, textures, render targets and the last applied effect
 * (xgd_effect_apply). Results: INVALID_OPERATION (no effect applied, no vertex/index buffer
 * bound, a bound render target also bound as a texture), INVALID_ARGUMENT (counts, ranges),
 * NOT_SUPPORTED (more primitives than the profile allows per draw: HiDef 1,048,575, Reach
 * 65,535; under Reach, a texture bound in any slot whose width or height is not a power of
 * two while that slot's sampler addresses U or V with anything but Clamp, as XNA), DEVICE_LOST.
 * A refused draw draws nothing.
 */
XGD_API xgd_result xgd_draw_primitives(xgd_device *device, xgd_primitive_type type,
                                       int start_vertex, int primitive_count);
XGD_API xgd_result xgd_draw_indexed_primitives(xgd_device *device, xgd_primitive_type type,
                                               int base_vertex, int min_vertex_index,
                                               int num_vertices, int start_index,
                                               int primitive_count);
/*
 * XNA DrawInstancedPrimitives (HiDef): instance_count instances of the indexed primitives of
 * xgd_draw_indexed_primitives, reading the bindings of xgd_set_vertex_buffers: per-vertex
 * bindings by index (base_vertex added), a per-instance binding with frequency n by
 * instance / n. Results as xgd_draw_indexed_primitives (every per-vertex binding must hold
 * every index), plus NOT_SUPPORTED (the Reach profile), INVALID_ARGUMENT (instance_count <= 0;
 * a per-instance binding holding fewer than ceil(instance_count / n) elements after its
 * offset), INVALID_OPERATION (the binding rules of xgd_set_vertex_buffers). Instances are
 * drawn in order, so blending and depth see instance 0's primitives first.
 */
XGD_API xgd_result xgd_draw_instanced_primitives(xgd_device *device, xgd_primitive_type type,
                                                 int base_vertex, int min_vertex_index,
                                                 int num_vertices, int start_index,
                                                 int primitive_count, int instance_count);
/* vertices: vertex_offset + the vertices the primitives need, laid out as decl says. */
XGD_API xgd_result xgd_draw_user_primitives(xgd_device *device, xgd_primitive_type type,
                                            const void *vertices, int vertex_offset,
                                            int primitive_count,
                                            xgd_vertex_declaration *decl);
XGD_API xgd_result xgd_draw_user_indexed_primitives(xgd_device *device, xgd_primitive_type type,
                                                    const void *vertices, int vertex_offset,
                                                    int num_vertices, const void *indices,
                                                    int index_offset, int primitive_count,
                                                    xgd_index_element_size index_size,
                                                    xgd_vertex_declaration *decl);
/* Draws quad_count quads of user vertices as a triangle list through an index pattern the
 * device owns (the indices SpriteBatch-style code would otherwise pass, and have checked, on
 * every draw). Quad q is vertices vertex_offset + 4q .. + 4q + 3 with corner i at
 * (i & 1, i >> 1) (0 top left, 1 top right, 2 bottom left, 3 bottom right): triangles
 * (0,1,2) and (1,3,2), clockwise on screen for a quad laid out that way. vertices holds
 * vertex_offset + 4 * quad_count vertices laid out as decl says. Errors, changing nothing:
 * ARGUMENT_OUT_OF_RANGE (quad_count outside 1..XGD_USER_QUADS_MAX, the most quads 16-bit
 * indices address), INVALID_ARGUMENT (NULL vertices or decl, a negative vertex_offset),
 * OBJECT_DISPOSED (a destroyed decl), the device and program errors of every draw, and
 * OUT_OF_MEMORY the first time (the pattern, 6 * XGD_USER_QUADS_MAX 16-bit indices, is
 * allocated once per device). */
#define XGD_USER_QUADS_MAX 16384
XGD_API xgd_result xgd_draw_user_quads(xgd_device *device, const void *vertices,
                                       int vertex_offset, int quad_count,
                                       xgd_vertex_declaration *decl);
/* One run of xgd_draw_user_quad_runs: quad_count quads drawn with texture in texture slot 0. */
typedef struct xgd_quad_run {
    xgd_texture *texture;      /* bound to slot 0 for the run; never NULL */
    int quad_count;            /* 1..XGD_USER_QUADS_MAX */
} xgd_quad_run;
/* Draws runs[0..run_count) in order, each as xgd_set_texture(device, 0, run.texture) followed
 * by xgd_draw_user_quads of the run's quads: run i starts at quad vertex_offset / 4 plus the
 * quads of the runs before it, so vertices holds vertex_offset + 4 * (the runs' quads)
 * vertices, laid out as decl says. One call for what SpriteBatch draws when the texture
 * changes between sprites: the declaration, the program and the vertices are checked once,
 * every run's texture before anything is drawn. Slot 0 holds the last run's texture
 * afterwards, as after the equivalent calls. Errors, changing nothing (slot 0 included):
 * INVALID_ARGUMENT (NULL vertices, runs, decl or run texture, a negative vertex_offset, more
 * vertices than an int counts), ARGUMENT_OUT_OF_RANGE (run_count < 1, a quad_count outside
 * 1..XGD_USER_QUADS_MAX), OBJECT_DISPOSED (a destroyed decl or run texture),
 * INVALID_OPERATION (a run texture of another device, or bound as a render target),
 * NOT_SUPPORTED (a Reach texture whose size is not a power of two without Clamp addressing in
 * sampler slot 0), the errors of xgd_draw_user_quads. A renderer failure (DEVICE_LOST,
 * OUT_OF_MEMORY) at run k leaves runs before k drawn and slot 0 as it was before the call. */
XGD_API xgd_result xgd_draw_user_quad_runs(xgd_device *device, const void *vertices,
                                           int vertex_offset, const xgd_quad_run *runs,
                                           int run_count, xgd_vertex_declaration *decl);
/* Space for quads written in place, XNA's DynamicVertexBuffer.SetData(NoOverwrite) with a
 * static index buffer: the vertices go straight into the device's upload memory, with no copy.
 * vertices (never NULL) holds room for quad_count * 4 vertices laid out as the declaration
 * says, to be written before the draw, and only written: on the GPU renderers it may be
 * write-combined memory or the GPU's own (Vulkan with a large BAR), which the CPU reads very
 * slowly, so build each vertex elsewhere rather than from the one before it. id names the
 * reservation on its device. stream_stores is true where a GPU reads the vertices at
 * submission rather than the CPU at the draw (Vulkan and Direct3D 12 on a GPU; their vertices
 * start on a 16-byte boundary where their mapping allows, on a CPU device too): non-temporal
 * stores (x86: _mm_stream_ps, then one _mm_sfence before the draw) are then usually faster,
 * keeping a frame's vertices out of the CPU's caches and saving the read of each line before
 * its write. False on the software renderer, which reads the vertices on the CPU at the draw,
 * and on a CPU device (lavapipe, WARP, vkd3d on lavapipe), whose threads read them through the
 * same caches soon after: plain stores leave them in the cache for it. Non-temporal stores
 * and a fence are correct on every renderer; the flag only says where they pay. */
typedef struct xgd_quad_reservation {
    void *vertices;
    int quad_count;
    uint64_t id;
    bool stream_stores;
} xgd_quad_reservation;
/* Reserves quad_count quads of decl's vertices in the device's upload memory (GPU renderers:
 * the open frame's upload ring; software: memory of its own) and fills *out. The reservation is
 * drawn by xgd_draw_reserved_quad_runs and stays drawable until the first of: its draw, the next
 * reservation, any draw on the device (xgd_draw_user_quad_runs included), a submission of the
 * device's work (xgd_present and Reset everywhere; on GPU renderers also readbacks such as
 * xgd_get_back_buffer_data or a get_data call, a query result that waits, and a set_data call
 * that finds the upload memory full) and xgd_device_reset_statistics. State setters, xgd_set_texture, xgd_clear* and xgd_effect_apply
 * leave it drawable. Write the vertices before any of those: afterwards the pointer is not
 * valid (the memory may hold other work's data, or, after a Present that enlarged the upload
 * memory, be freed). Allocates nothing per quad; like a draw's own upload it may wait for the
 * GPU when the upload memory is full. Errors, changing nothing (an earlier reservation stays
 * drawable): INVALID_ARGUMENT (NULL out or decl), ARGUMENT_OUT_OF_RANGE (quad_count outside
 * 1..XGD_USER_QUADS_MAX), OBJECT_DISPOSED (a destroyed decl), OUT_OF_MEMORY (the upload memory
 * cannot hold them: GPU renderers hold at least 4 MiB in one reservation), the device errors
 * (DEVICE_LOST). */
XGD_API xgd_result xgd_reserve_user_quads(xgd_device *device, int quad_count,
                                          xgd_vertex_declaration *decl,
                                          xgd_quad_reservation *out);
/* As xgd_reserve_user_quads, but an element of decl a quad rather than four vertices:
 * out->vertices holds quad_count elements, which the vertex shader reads at instance rate,
 * and each quad's four corners are the vertex indices 0..3 (HLSL SV_VertexID, GLSL
 * gl_VertexIndex): corner i at (i & 1, i >> 1), drawn as triangles (0, 1, 2) and (1, 3, 2),
 * clockwise on screen for a quad laid out left to right, top to bottom. What a corner is made
 * of is the shader's (SpriteBatch's: shaders/stock/spriteinst.fx). Drawn, with the same rules,
 * by xgd_draw_reserved_quad_runs (a run's quads are consecutive elements). Errors as
 * xgd_reserve_user_quads, plus NOT_SUPPORTED where the renderer draws no instanced quads (the
 * software renderer: reserve vertices there) and on a Reach device (XNA's Reach profile has no
 * instancing). */
XGD_API xgd_result xgd_reserve_user_quad_instances(xgd_device *device, int quad_count,
                                                   xgd_vertex_declaration *decl,
                                                   xgd_quad_reservation *out);
/* A held reservation's end, called by the device when it ends the reservation for another
 * reason than its draw or release (xgd_hold_user_quad_instances): `id` is the reservation's. Its
 * vertices can still be read during the call (slowly: GPU renderers give write-combined memory),
 * and not afterwards. Called from inside whichever call of the device ends it (a present, a
 * readback, a set_data that fills the upload memory, Reset, a context loss): it must not call
 * xgd on that device. */
typedef void (*xgd_quad_hold_fn)(void *user, uint64_t id);
/* The most held reservations a device keeps at once, and the most quads one holds (each run
 * that draws them still at most XGD_USER_QUADS_MAX). */
#define XGD_QUAD_HOLDS_MAX 16
#define XGD_QUAD_HOLD_QUADS_MAX 262144
/* As xgd_reserve_user_quad_instances, but held: a library that fills quads over many calls (a
 * sprite batch writing each Draw's element into the reservation, drawn at End) keeps it
 * drawable across other draws and other reservations, held or not. A held reservation is drawn
 * by xgd_draw_reserved_quad_runs, with the same rules otherwise, and stays drawable until the
 * first of: its draw, xgd_release_quad_hold, and the device ending it, which calls
 * on_end(user, id) first: before a submission of the device's work (xgd_present, readbacks,
 * a get_data call, a query result that waits, a set_data call that finds the upload memory
 * full, and on Vulkan a draw's own upload that finds it full), before Reset, at a loss of the
 * device or its context. A device destroyed with held reservations drops them without calls.
 * xgd_device_reset_statistics leaves them. Making one never submits the device's work (which
 * would end the others): where the upload memory has no room without that, it fails with
 * OUT_OF_MEMORY (on Vulkan, when the open frame fills the upload ring; it may still wait for
 * earlier frames). quad_count is 1..XGD_QUAD_HOLD_QUADS_MAX; on Vulkan one reservation also
 * takes at most a quarter of the upload ring (32 MiB at first, larger after a frame filled
 * it: about 253,000 quads of 32 bytes at first), and a larger one fails with OUT_OF_MEMORY. Errors, changing nothing: those of
 * xgd_reserve_user_quad_instances (NOT_SUPPORTED on the software renderer and Reach devices),
 * INVALID_ARGUMENT (NULL on_end), INVALID_OPERATION (XGD_QUAD_HOLDS_MAX held already). */
XGD_API xgd_result xgd_hold_user_quad_instances(xgd_device *device, int quad_count,
                                                xgd_vertex_declaration *decl,
                                                xgd_quad_hold_fn on_end, void *user,
                                                xgd_quad_reservation *out);
/* Gives a held reservation back undrawn (its on_end is not called). Errors, changing nothing:
 * INVALID_ARGUMENT (NULL reservation), INVALID_OPERATION (not held: drawn, released, ended, or
 * not a held reservation of this device, by its id, vertices and quad_count), the device
 * errors. */
XGD_API xgd_result xgd_release_quad_hold(xgd_device *device,
                                         const xgd_quad_reservation *reservation);
/* Draws runs of the reserved quads as xgd_draw_user_quad_runs draws its vertices: run 0 from
 * reserved quad 0, each run after the quads of the runs before it, with its texture in slot 0
 * (which holds the last run's texture afterwards). The runs may leave quads at the end undrawn.
 * The reservation is then spent. Errors, changing nothing (a reservation that was drawable
 * stays so): INVALID_OPERATION (a reservation that is spent, replaced, or was made before a
 * draw or submission of the device: reserve again; and the errors of
 * xgd_draw_user_quad_runs), INVALID_ARGUMENT (NULL reservation, its vertices or quad_count
 * changed, a NULL or wrong run texture), ARGUMENT_OUT_OF_RANGE (the runs' quads together more
 * than reserved, and the run errors of xgd_draw_user_quad_runs), OBJECT_DISPOSED (the
 * reservation's declaration or a run texture destroyed), NOT_SUPPORTED as
 * xgd_draw_user_quad_runs. A renderer failure at run k leaves runs before k drawn, slot 0 as it
 * was, and the reservation spent. */
XGD_API xgd_result xgd_draw_reserved_quad_runs(xgd_device *device,
                                               const xgd_quad_reservation *reservation,
                                               const xgd_quad_run *runs, int run_count);

/* ------------------------------------------------------------------------------------------ */
/* Occlusion queries                                                                           */
/* ------------------------------------------------------------------------------------------ */

/*
 * XNA OcclusionQuery: counts what the draws between begin and end let through.
 *
 *     xgd_occlusion_query *q;
 *     xgd_occlusion_query_create(dev, &q);
 *     xgd_occlusion_query_begin(q);
 *     ... draw a bounding box with colour and depth writes off ...
 *     xgd_occlusion_query_end(q);
 *     ... later (a frame later avoids the wait) ...
 *     bool done;
 *     uint64_t n;
 *     if (xgd_occlusion_query_is_complete(q, &done) == XGD_OK && done)
 *         xgd_occlusion_query_get_pixel_count(q, false, &n);   // n == 0: hidden
 *
 * What is counted: the samples that passed the depth and stencil tests (inside the viewport
 * and, when enabled, the scissor rectangle) in the draws between begin and end. Without
 * multisampling a sample is a pixel (XNA's PixelCount); on a multisampled target every covered
 * sample counts, so a fully covered pixel of a 4x target counts 4 (what Direct3D 11/12 and
 * Vulkan count). Colour write masks and blending do not matter; clears are not counted. The
 * count is exact on every renderer (Vulkan: precise occlusion queries).
 *
 * Rules:
 *   - At most one occlusion query is active (between begin and end) per device.
 *   - Begin on an ended query starts it again; its previous result is discarded.
 *   - The query stays active across SetRenderTargets, Present, back-buffer and texture
 *     readbacks and every other call; the count covers all draws in between.
 *   - The result of a query that was never ended, or is active, cannot be asked for.
 *   - HiDef only: the Reach profile has no occlusion queries (XNA 4.0 profile table).
 *   - Device loss: results pending at the loss are gone. While lost the calls below return
 *     XGD_ERROR_DEVICE_LOST; after xgd_device_restore_context every query is as if never
 *     begun (an active one is no longer active).
 */
typedef struct xgd_occlusion_query xgd_occlusion_query;

/* Results: INVALID_ARGUMENT (device or out NULL), NOT_SUPPORTED (Reach profile, or a renderer
 * or native device that cannot count precisely; the message names what is missing),
 * OBJECT_DISPOSED, DEVICE_LOST, OUT_OF_MEMORY. On failure *out is NULL. */
XGD_API xgd_result xgd_occlusion_query_create(xgd_device *device, xgd_occlusion_query **out);
/* Destroys the query; an active one is ended first (the device has no active query then).
 * NULL and disposed queries are accepted. */
XGD_API void xgd_occlusion_query_destroy(xgd_occlusion_query *query);
/* XNA OcclusionQuery.Begin: starts counting from zero. Results: INVALID_ARGUMENT (NULL),
 * OBJECT_DISPOSED, INVALID_OPERATION (this or another query of the device is active),
 * DEVICE_LOST. */
XGD_API xgd_result xgd_occlusion_query_begin(xgd_occlusion_query *query);
/* XNA OcclusionQuery.End. Results: INVALID_ARGUMENT, OBJECT_DISPOSED, INVALID_OPERATION (the
 * query is not active), DEVICE_LOST. */
XGD_API xgd_result xgd_occlusion_query_end(xgd_occlusion_query *query);
/* XNA OcclusionQuery.IsComplete: *out true once the count is available. Like Direct3D 9's
 * D3DGETDATA_FLUSH, a query whose end is still in unsubmitted work gets that work submitted
 * (without waiting), so polling always makes progress. Results: INVALID_ARGUMENT (NULL query
 * or out), OBJECT_DISPOSED, INVALID_OPERATION (never ended since creation or restore, or
 * active), DEVICE_LOST. */
XGD_API xgd_result xgd_occlusion_query_is_complete(xgd_occlusion_query *query, bool *out);
/* XNA OcclusionQuery.PixelCount: the samples counted (see above). wait false: the count if it
 * is available, else INVALID_OPERATION ("not complete"); wait true: submits what is needed
 * and blocks until it is. Results: as is_complete; on failure *out is unchanged. */
XGD_API xgd_result xgd_occlusion_query_get_pixel_count(xgd_occlusion_query *query, bool wait,
                                                       uint64_t *out);

/* ------------------------------------------------------------------------------------------ */
/* Stock effects                                                                               */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_directional_light {
    bool enabled;
    xgd_vector3 direction;        /* normalised by the effect */
    xgd_vector3 diffuse_color;
    xgd_vector3 specular_color;
} xgd_directional_light;

/* Every BasicEffect parameter. xgd_basic_effect_get returns XNA's defaults for a new effect:
 * identity matrices, DiffuseColor 1, Alpha 1, EmissiveColor 0, SpecularColor 1, SpecularPower
 * 16, lights off (light 0 enabled with direction (0,-1,0), diffuse 1, specular 0 when lighting
 * is turned on without EnableDefaultLighting), FogStart 0, FogEnd 1, FogColor 0. */
typedef struct xgd_basic_effect_params {
    xgd_matrix world, view, projection;
    xgd_vector3 diffuse_color;
    float alpha;
    xgd_vector3 emissive_color;
    xgd_vector3 specular_color;
    float specular_power;
    xgd_vector3 ambient_light_color;
    xgd_directional_light lights[3];
    bool lighting_enabled;
    bool prefer_per_pixel_lighting;
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
    bool texture_enabled;
    bool vertex_color_enabled;
} xgd_basic_effect_params;

XGD_API xgd_result xgd_basic_effect_create(xgd_device *device, xgd_effect **out);
/* SpriteEffect: positions are transformed by MatrixTransform (default: identity, then the
 * viewport's pixel projection at apply time, as SpriteBatch uses it, including XNA's -0.5
 * translation under XGD_PIXEL_CENTER_XNA). */
XGD_API xgd_result xgd_sprite_effect_create(xgd_device *device, xgd_effect **out);
XGD_API void xgd_effect_destroy(xgd_effect *effect);
/* XNA EffectPass.Apply: makes the effect's shaders, constants and texture current for the
 * following draws. Changing parameters later needs another apply. Runs a derived effect's
 * on_apply (the stock effects' properties become parameters and pick the technique there),
 * then applies pass 0 of the current technique (xgd_effect_pass_apply). The stock effects are
 * derived effects (xgd_effect_create_derived): the Effect API (parameters, techniques, clone)
 * works on them too, though each apply rewrites the parameters and technique their properties
 * give. */
XGD_API xgd_result xgd_effect_apply(xgd_effect *effect);

XGD_API xgd_result xgd_basic_effect_get(const xgd_effect *effect, xgd_basic_effect_params *out);
/* Results: INVALID_ARGUMENT (not a BasicEffect, non-finite values), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_basic_effect_set(xgd_effect *effect, const xgd_basic_effect_params *p);
XGD_API xgd_result xgd_basic_effect_set_world(xgd_effect *effect, const xgd_matrix *m);
XGD_API xgd_result xgd_basic_effect_set_view(xgd_effect *effect, const xgd_matrix *m);
XGD_API xgd_result xgd_basic_effect_set_projection(xgd_effect *effect, const xgd_matrix *m);
/* The effect's texture (sampled through sampler slot 0). NULL unbinds. */
XGD_API xgd_result xgd_basic_effect_set_texture(xgd_effect *effect, xgd_texture *texture);
/* XNA EnableDefaultLighting: the three-light key/fill/back rig, ambient 0.05333, lighting on. */
XGD_API xgd_result xgd_basic_effect_enable_default_lighting(xgd_effect *effect);
/* SpriteEffect: NULL restores the viewport-derived projection. */
XGD_API xgd_result xgd_sprite_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m);

/*
 * MrtEffect (EXT: not part of XNA). XNA's stock effects write render target 0 only; CNA's MRT
 * fixtures use ShaderEffect programs to write distinct outputs to targets 0..3, and xgd has no
 * custom shaders, so this stock extension effect does that job:
 *   clip position = float4(Position0, 1) * Matrix            (default identity)
 *   render target i = vertex Color0 * Colors[i], i = 0..3    (default Colors: all (1,1,1,1))
 * No texture. Every bound target of the set receives its own output, blended with its own
 * blend state entry and colour-write mask; outputs for unbound slots are dropped; depth and
 * stencil are those of target 0. The vertex declaration must hold Position0 and Color0
 * (INVALID_OPERATION at draw time otherwise). Apply with xgd_effect_apply like the others.
 */
XGD_API xgd_result xgd_mrt_effect_create(xgd_device *device, xgd_effect **out);
/* Colours for targets 0..3 (rgba, finite). Results: INVALID_ARGUMENT (NULL, not an MrtEffect,
 * non-finite values), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_mrt_effect_set_colors(xgd_effect *effect, const xgd_vector4 colors[4]);
/* NULL restores the identity. Results as set_colors. */
XGD_API xgd_result xgd_mrt_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m);

/*
 * VolumeEffect (EXT: not part of XNA). XNA samples a Texture3D only from custom effects
 * (tex3D in HLSL), and xgd has no custom shaders, so this stock extension effect does it:
 *   clip position = float4(Position0, 1) * Matrix             (default identity)
 *   colour        = tex3D(sampler slot 0, TextureCoordinate0.xyz) * Color (default (1,1,1,1))
 * TextureCoordinate0 is read as float3 (u, v, w); a two-component element gives w = 0. The
 * sampler state of slot 0 applies on all three axes (address_w included; Linear filters
 * trilinearly across slices, and between mip levels as its mip filter says). The effect's
 * texture is bound to slot 0 at apply; no texture samples (0,0,0,1). The vertex declaration
 * must hold Position0 and TextureCoordinate0, and the texture in slot 0 at draw time must be
 * a Texture3D (INVALID_OPERATION otherwise; equally BasicEffect and SpriteEffect draws refuse
 * a Texture3D in slot 0, and xgd_sprite_batch_draw refuses it as an argument). Apply with
 * xgd_effect_apply like the others.
 */
XGD_API xgd_result xgd_volume_effect_create(xgd_device *device, xgd_effect **out);
/* NULL restores the identity. Results: INVALID_ARGUMENT (not a VolumeEffect, non-finite
 * entries), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_volume_effect_set_matrix(xgd_effect *effect, const xgd_matrix *m);
/* The Texture3D sampled (slot 0); NULL unbinds. Results: INVALID_ARGUMENT (not a VolumeEffect,
 * a texture that is not a Texture3D), OBJECT_DISPOSED, INVALID_OPERATION (another device's
 * texture). */
XGD_API xgd_result xgd_volume_effect_set_texture(xgd_effect *effect, xgd_texture *texture);
/* Multiplier of the sampled colour (rgba, finite). Results as set_matrix. */
XGD_API xgd_result xgd_volume_effect_set_color(xgd_effect *effect, xgd_vector4 color);

/*
 * AlphaTestEffect, DualTextureEffect, EnvironmentMapEffect and SkinnedEffect (XNA 4.0): effects
 * loaded from bytes (xgd_effect_create) whose compiled HLSL is built into xgd (shaders/stock/),
 * so every build has them, and the Effect API (parameters, techniques,
 * clone) works on them too. Their XNA properties are set as a whole with the effect's _set
 * function, which also derives the shader constants (WorldViewProj, FogVector, lighting, ...)
 * and picks the technique XNA would (vertex colour; weights per vertex), as XNA does in
 * OnApply; apply with xgd_effect_apply. They are derived effects (xgd_effect_create_derived):
 * the properties are the effect's state, so a clone keeps them. Defaults (_get on a new effect) are XNA's:
 * identity matrices, DiffuseColor 1, Alpha 1, FogStart 0, FogEnd 1, FogColor 0, fog and vertex
 * colour off; AlphaFunction Greater, ReferenceAlpha 0; EnvironmentMapAmount 1,
 * EnvironmentMapSpecular 0, FresnelFactor 1; SpecularColor 1, SpecularPower 16,
 * WeightsPerVertex 4, every bone the identity; lights as BasicEffect's (light 0 enabled,
 * direction (0,-1,0), diffuse 1, specular 0).
 * Vertex inputs: AlphaTestEffect Position0, TextureCoordinate0 (+ Color0 with vertex colour);
 * DualTextureEffect Position0, TextureCoordinate0, TextureCoordinate1 (+ Color0);
 * EnvironmentMapEffect Position0, Normal0, TextureCoordinate0; SkinnedEffect Position0,
 * Normal0, TextureCoordinate0, BlendIndices0 (Byte4), BlendWeight0 (Vector4).
 * Results of create: as xgd_effect_create (NOT_SUPPORTED where xgd is built without
 * MojoShader). Results of _set: INVALID_ARGUMENT (NULL, not an effect of that kind, non-finite
 * values, a function outside XGD_COMPARE_ALWAYS..NOT_EQUAL, ReferenceAlpha outside 0..255,
 * WeightsPerVertex not 1, 2 or 4), OBJECT_DISPOSED; nothing changes on failure.
 */
typedef struct xgd_alpha_test_effect_params {
    xgd_matrix world, view, projection;
    xgd_vector3 diffuse_color;
    float alpha;
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
    bool vertex_color_enabled;
    xgd_compare_function alpha_function;  /* pixels pass when alpha <function> reference */
    int reference_alpha;                  /* 0..255 */
} xgd_alpha_test_effect_params;

typedef struct xgd_dual_texture_effect_params {
    xgd_matrix world, view, projection;
    xgd_vector3 diffuse_color;
    float alpha;
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
    bool vertex_color_enabled;
} xgd_dual_texture_effect_params;

/* Lighting is always on (XNA's EnvironmentMapEffect cannot turn it off); lights are diffuse
 * only. */
typedef struct xgd_environment_map_effect_params {
    xgd_matrix world, view, projection;
    xgd_vector3 diffuse_color;
    float alpha;
    xgd_vector3 emissive_color;
    xgd_vector3 ambient_light_color;
    xgd_directional_light lights[3];
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
    float environment_map_amount;         /* 0..1 blend towards the environment map */
    xgd_vector3 environment_map_specular; /* added as specular * environment map alpha */
    float fresnel_factor;                 /* 0: no Fresnel term */
} xgd_environment_map_effect_params;

/* Lighting is always on (XNA's SkinnedEffect cannot turn it off). */
typedef struct xgd_skinned_effect_params {
    xgd_matrix world, view, projection;
    xgd_vector3 diffuse_color;
    float alpha;
    xgd_vector3 emissive_color;
    xgd_vector3 specular_color;
    float specular_power;
    xgd_vector3 ambient_light_color;
    xgd_directional_light lights[3];
    bool prefer_per_pixel_lighting;       /* light per pixel instead of per vertex */
    bool fog_enabled;
    xgd_vector3 fog_color;
    float fog_start, fog_end;
    int weights_per_vertex;               /* 1, 2 or 4 */
} xgd_skinned_effect_params;

#define XGD_SKINNED_EFFECT_MAX_BONES 72

XGD_API xgd_result xgd_alpha_test_effect_create(xgd_device *device, xgd_effect **out);
XGD_API xgd_result xgd_alpha_test_effect_get(xgd_effect *effect, xgd_alpha_test_effect_params *out);
XGD_API xgd_result xgd_alpha_test_effect_set(xgd_effect *effect,
                                             const xgd_alpha_test_effect_params *p);
XGD_API xgd_result xgd_dual_texture_effect_create(xgd_device *device, xgd_effect **out);
XGD_API xgd_result xgd_dual_texture_effect_get(xgd_effect *effect,
                                               xgd_dual_texture_effect_params *out);
XGD_API xgd_result xgd_dual_texture_effect_set(xgd_effect *effect,
                                               const xgd_dual_texture_effect_params *p);
XGD_API xgd_result xgd_environment_map_effect_create(xgd_device *device, xgd_effect **out);
XGD_API xgd_result xgd_environment_map_effect_get(xgd_effect *effect,
                                                  xgd_environment_map_effect_params *out);
XGD_API xgd_result xgd_environment_map_effect_set(xgd_effect *effect,
                                                  const xgd_environment_map_effect_params *p);
XGD_API xgd_result xgd_skinned_effect_create(xgd_device *device, xgd_effect **out);
XGD_API xgd_result xgd_skinned_effect_get(xgd_effect *effect, xgd_skinned_effect_params *out);
XGD_API xgd_result xgd_skinned_effect_set(xgd_effect *effect, const xgd_skinned_effect_params *p);
/* XNA SkinnedEffect.SetBoneTransforms: bones 0..count-1 (count 1..72, finite); the others keep
 * their values. Results: INVALID_ARGUMENT (NULL, count outside 1..72, non-finite, not a
 * SkinnedEffect), OBJECT_DISPOSED. get copies `count` (1..72) bones. */
XGD_API xgd_result xgd_skinned_effect_set_bone_transforms(xgd_effect *effect,
                                                          const xgd_matrix *bones, int count);
XGD_API xgd_result xgd_skinned_effect_get_bone_transforms(xgd_effect *effect, xgd_matrix *out,
                                                          int count);
/* The textures (XNA Texture, DualTextureEffect.Texture2, EnvironmentMapEffect.EnvironmentMap),
 * set through the effect parameters "Texture", "Texture2" (a 2D texture) and "EnvironmentMap"
 * (a cube texture) with xgd_effect_parameter_set_texture; sampled with the device's sampler
 * states of slots 0 and 1, as XNA's stock effects are. */

/* ------------------------------------------------------------------------------------------ */
/* Effects loaded from bytes (XNA 4.0 Effect)                                                  */
/* ------------------------------------------------------------------------------------------ */

/*
 * An effect created from the bytes of a compiled XNA effect (fx_2_0: what XNA's content
 * pipeline and fxc /T fx_2_0 produce, with or without XNA's 0xBCF00BCF wrapper). It is an
 * xgd_effect like the stock ones (destroy with xgd_effect_destroy; SpriteBatch takes it) and
 * mirrors XNA's Effect: techniques holding passes, parameters with annotations, and
 * CurrentTechnique. Parameters, techniques and passes are addressed by index or by name; a
 * parameter is an xgd_effect_parameter value (valid for the effect and its clones), and so are
 * struct members, array elements and annotations (annotations are read-only).
 *
 * Values are typed as in XNA (EffectParameterClass / EffectParameterType, RowCount,
 * ColumnCount, Elements): a getter or setter whose type or size does not match the parameter
 * returns INVALID_ARGUMENT naming both, and changes nothing. Matrices are xgd_matrix values
 * (XNA's row-vector convention) whatever the shader's packing (row_major or column_major);
 * a matrix parameter of R rows and C columns takes the top-left R x C of the xgd_matrix, and
 * float arrays list matrices row by row. Writes reach the GPU at the next pass apply, and only
 * when something changed.
 *
 * Which renderer runs effects is in the README ("Effects"); a renderer that cannot answers
 * NOT_SUPPORTED by name from xgd_effect_pass_apply (loading and parameters work everywhere).
 */
typedef enum xgd_effect_parameter_class {
    XGD_EFFECT_PARAMETER_CLASS_SCALAR = 0,
    XGD_EFFECT_PARAMETER_CLASS_VECTOR,
    XGD_EFFECT_PARAMETER_CLASS_MATRIX,
    XGD_EFFECT_PARAMETER_CLASS_OBJECT,
    XGD_EFFECT_PARAMETER_CLASS_STRUCT
} xgd_effect_parameter_class;

typedef enum xgd_effect_parameter_type {
    XGD_EFFECT_PARAMETER_TYPE_VOID = 0,
    XGD_EFFECT_PARAMETER_TYPE_BOOL,
    XGD_EFFECT_PARAMETER_TYPE_INT32,
    XGD_EFFECT_PARAMETER_TYPE_SINGLE,
    XGD_EFFECT_PARAMETER_TYPE_STRING,
    XGD_EFFECT_PARAMETER_TYPE_TEXTURE,
    XGD_EFFECT_PARAMETER_TYPE_TEXTURE1D,
    XGD_EFFECT_PARAMETER_TYPE_TEXTURE2D,
    XGD_EFFECT_PARAMETER_TYPE_TEXTURE3D,
    XGD_EFFECT_PARAMETER_TYPE_TEXTURE_CUBE
} xgd_effect_parameter_type;

/* A parameter, struct member, array element or annotation of an effect (an index into the
 * effect's parameter table; the same value names the same parameter in every clone). */
typedef struct xgd_effect_parameter {
    int32_t id;
} xgd_effect_parameter;

typedef struct xgd_effect_parameter_info {
    const char *name;             /* "" when the effect gives none; owned by the effect */
    const char *semantic;         /* "" when none */
    xgd_effect_parameter_class parameter_class;
    xgd_effect_parameter_type parameter_type;
    int rows, columns;            /* XNA RowCount / ColumnCount (1 x 1 for scalars and objects;
                                     structs: 0 x 0) */
    int element_count;            /* XNA Elements.Count: 0 when not an array */
    int member_count;             /* XNA StructureMembers.Count */
    int annotation_count;
    bool annotation;              /* an annotation: readable, never writable */
} xgd_effect_parameter_info;

typedef struct xgd_effect_technique_info {
    const char *name;             /* owned by the effect */
    int pass_count;
    int annotation_count;
} xgd_effect_technique_info;

typedef struct xgd_effect_pass_info {
    const char *name;
    int annotation_count;
} xgd_effect_pass_info;

/* Loads an fx_2_0 effect from `size` bytes (copied; the caller keeps them). The current
 * technique is technique 0. Results: INVALID_ARGUMENT (NULL arguments; bytes that are not a
 * well-formed effect or hold invalid shader bytecode, the message says what and where),
 * NOT_SUPPORTED (a valid effect using a feature xgd does not run, named: vertex textures,
 * integer or boolean shader registers, shader arrays selected by preshaders, shader model
 * above 3.0; or a build without MojoShader), OUT_OF_MEMORY. Nothing is created on failure. */
XGD_API xgd_result xgd_effect_create(xgd_device *device, const void *bytes, size_t size,
                                     xgd_effect **out);
/* The same function also loads a compiled xgd effect (.xfx, what `xgd-fxc` writes from HLSL
 * source; told apart by its "XGDFX" signature), which needs no compiler: results as
 * xgd_effect_create_hlsl's, except NOT_SUPPORTED for a build without the compiler; files of
 * format versions 1 and 2 load, a file of a later version is NOT_SUPPORTED. */
/* An effect from HLSL effect source (`size` bytes, copied; no NUL needed): SM4/5-style or
 * DX9-style HLSL with technique and pass blocks (`VertexShader = compile vs_3_0 VS();` or
 * `SetVertexShader(CompileShader(vs_4_0, VS()));`), compiled at run time through glslang, once
 * per process: the compiled effect is cached by a hash of file_name and the source, so a second
 * create of the same source compiles nothing. `file_name` (may be NULL) names the source in
 * messages. Parameters are the constant-buffer members and globals (class, type, rows,
 * columns, elements as the compiler laid them out; a cbuffer bool is an Int32) and the textures
 * (Texture2D/3D/Cube, named after their variable; a DX9 sampler2D after the sampler); a
 * texture at register tN (or sampler sN) is device texture slot N at apply and samples with
 * sampler state N, as XNA's Textures[N] / SamplerStates[N]. Sampler state blocks, D3D10's
 * `SamplerState S { Filter = MIN_MAG_MIP_POINT; AddressU = Clamp; };` and XNA's
 * `sampler S = sampler_state { Texture = <T>; MinFilter = Point; AddressU = Mirror; };`
 * (with `texture T;`, T is then the parameter), are applied as XNA applies an effect's: a
 * pass sets each sampled slot's sampler state to the slot's current state with the states the
 * block names changed (Filter, Min/Mag/MipFilter, AddressU/V/W, MaxAnisotropy, MaxMipLevel
 * or MinLOD, MipMapLodBias; BorderColor and MaxLOD are ignored, others NOT_SUPPORTED with
 * file:line). A pass apply that fails sets nothing. Annotations of globals
 * (`float x <string UIName = "X";> = 1;`: bool, int, float and string) are the parameter's
 * annotations; a struct parameter's members are reached with xgd_effect_parameter_get_member
 * and find_member. Pass render states: Direct3D 9
 * assignments with an XNA state object (AlphaBlendEnable, Src/DestBlend, BlendOp, ZEnable,
 * ZWriteEnable, ZFunc, CullMode, FillMode, ScissorTestEnable, ColorWriteEnable). Vertex
 * textures (Texture2D.SampleLevel / tex2Dlod in the vertex shader, registers 0..3) are XNA's
 * VertexTextures[N] / VertexSamplerStates[N] (xgd_set_vertex_texture) and are point-sampled,
 * as XNA's vertex texture fetch: apply sets the vertex slot's sampler state to its
 * Point-filter form; a texture whose format
 * XNA cannot fetch in a vertex shader (only Single, Vector2, Vector4, HalfSingle, HalfVector2,
 * HalfVector4, HdrBlendable) makes apply NOT_SUPPORTED, naming it. Results:
 * INVALID_ARGUMENT with the compiler's messages ("file:line: ...": syntax errors, a missing
 * entry point, a technique naming a missing function, malformed technique blocks),
 * NOT_SUPPORTED named (a build without the compiler, XGD_HLSL=OFF; unknown semantics; two
 * cbuffers in one stage; other pass states),
 * OUT_OF_MEMORY. Nothing is created on failure. */
XGD_API xgd_result xgd_effect_create_hlsl(xgd_device *device, const char *source, size_t size,
                                          const char *file_name, xgd_effect **out);
/* A preprocessor macro of an HLSL compile (D3D's D3D_SHADER_MACRO, XNA's EffectProcessor
 * Defines): `#define name value`; a NULL value defines the name as 1. */
typedef struct xgd_hlsl_define {
    const char *name;           /* an identifier, at most 63 characters */
    const char *value;          /* NULL = "1"; no line breaks, at most 1024 bytes */
} xgd_hlsl_define;

/* What xgd_effect_create_hlsl_ex compiles. Zero fields: no macros. */
typedef struct xgd_hlsl_desc {
    const char *source;         /* required; `size` bytes, copied (no NUL needed) */
    size_t size;
    const char *file_name;      /* NULL = "(effect)": names the source in messages */
    const xgd_hlsl_define *defines; /* define_count macros, defined before the source's first
                                       line (its line numbers are kept) */
    int define_count;           /* 0..256 */
} xgd_hlsl_desc;

/* xgd_effect_create_hlsl with macros: the source is compiled as if each macro were #defined
 * before it (the macros take part in the compile cache's key: the same source with other
 * macros compiles again). Technique blocks and sampler state blocks are read before
 * preprocessing: select whole effects with macros inside functions, not around techniques.
 * Results: as xgd_effect_create_hlsl; INVALID_ARGUMENT naming the macro for a name that is
 * not an identifier or a value with a line break, or for more than 256 macros. */
XGD_API xgd_result xgd_effect_create_hlsl_ex(xgd_device *device, const xgd_hlsl_desc *desc,
                                             xgd_effect **out);
/* XNA Effect.Clone: a new effect with the same code, the current parameter values (textures
 * included) and the same current technique; a derived effect's clone has its class and a
 * byte-for-byte copy of its state (xgd_effect_create_derived). Results: as xgd_effect_create. */
XGD_API xgd_result xgd_effect_clone(xgd_effect *effect, xgd_effect **out);

/*
 * Derived effects: C's form of an XNA class that derives from Effect and overrides OnApply
 * (BasicEffect, SpriteEffect, the other stock effects are built this way on the public API).
 * A class names the derived kind, the size of the state every effect of the class owns, and
 * the hook the effect runs when it is applied. The state is the class's own memory (XNA's
 * fields): zeroed at creation, copied byte for byte by xgd_effect_clone (so it may hold
 * handles and xgd_effect_parameter values, which stay valid in a clone, but no pointer to
 * memory it owns), freed with the effect. A derived effect is an effect: the whole Effect API
 * works on it.
 *
 * on_apply(effect, state) runs inside xgd_effect_apply and xgd_effect_pass_apply, before the
 * pass is applied, as XNA's OnApply: it typically turns the state into parameter values and
 * picks the current technique (xgd_effect_apply then applies pass 0 of the technique it left
 * current). It may call every Effect function on `effect` except the applies: an apply of
 * the effect from inside its own on_apply answers INVALID_OPERATION (it would never end), and
 * an effect destroyed by its on_apply is not applied (the apply answers OBJECT_DISPOSED). A
 * result other than XGD_OK fails the apply with that result before the pass is applied, so the
 * device's applied shaders, constants and states are unchanged; report the message with
 * xgd_device_report_error. Keep it free of allocation and name lookups: it runs per apply.
 * When on_apply changes the current technique and xgd_effect_pass_apply was asked for a pass
 * of the technique that was current, that pass of the new current technique is applied (XNA's
 * EffectPass.Apply: `foreach (pass in CurrentTechnique.Passes) pass.Apply()` draws with the
 * permutation the properties pick).
 *
 * The class's address is its identity (keep it in static storage). A destroyed derived effect
 * keeps its body (its loaded code and native shaders) for the next xgd_effect_create_derived
 * of the same class and the same bytes, which then costs no loading and reuses the renderer's
 * pipelines; that effect starts as a fresh one does (parameter values as loaded, textures
 * unset, technique 0, state zeroed), so the reuse is invisible.
 */
typedef xgd_result (*xgd_effect_apply_fn)(xgd_effect *effect, void *state);

typedef struct xgd_effect_class {
    const char *name;             /* names the kind in messages ("the effect is not a
                                     BasicEffect", "... an AlphaTestEffect"); NULL: "derived
                                     effect" */
    size_t state_size;            /* bytes of state per effect; 0: none (state NULL) */
    xgd_effect_apply_fn on_apply; /* NULL: none */
} xgd_effect_class;

/* xgd_effect_create of `size` bytes (a compiled effect, as xgd_effect_create takes) as an
 * effect of class cls. Results: as xgd_effect_create; INVALID_ARGUMENT for cls NULL;
 * OUT_OF_MEMORY for the state. Nothing is created on failure. */
XGD_API xgd_result xgd_effect_create_derived(xgd_device *device, const void *bytes, size_t size,
                                             const xgd_effect_class *cls, xgd_effect **out);
/* The state of a derived effect of class cls (NULL when the class has none). Results: OK,
 * INVALID_ARGUMENT (effect or out NULL; an effect of another class or none: "the effect is
 * not a <name>", "an" before a vowel), OBJECT_DISPOSED. On failure *out is NULL. Lock-free and allocation-free. */
XGD_API xgd_result xgd_effect_get_state(xgd_effect *effect, const xgd_effect_class *cls,
                                        void **out);

/* Techniques and passes. Unknown names and indices out of range are INVALID_ARGUMENT (the
 * message names them); results otherwise as for every object call (OBJECT_DISPOSED, ...).
 * Names returned stay valid while the effect lives. */
XGD_API xgd_result xgd_effect_get_technique_count(xgd_effect *effect, int *out);
XGD_API xgd_result xgd_effect_find_technique(xgd_effect *effect, const char *name, int *out);
/* The device the effect belongs to (XNA's Effect.GraphicsDevice). Results: OK,
 * INVALID_ARGUMENT (effect or out NULL), OBJECT_DISPOSED (*out NULL). */
XGD_API xgd_result xgd_effect_get_device(xgd_effect *effect, xgd_device **out);
XGD_API xgd_result xgd_effect_get_technique_info(xgd_effect *effect, int technique,
                                                 xgd_effect_technique_info *out);
XGD_API xgd_result xgd_effect_find_pass(xgd_effect *effect, int technique, const char *name,
                                        int *out);
XGD_API xgd_result xgd_effect_get_pass_info(xgd_effect *effect, int technique, int pass,
                                            xgd_effect_pass_info *out);
/* XNA Effect.CurrentTechnique. */
XGD_API xgd_result xgd_effect_get_current_technique(xgd_effect *effect, int *out);
XGD_API xgd_result xgd_effect_set_current_technique(xgd_effect *effect, int technique);
/* XNA EffectPass.Apply for pass `pass` of technique `technique`: binds the pass's vertex and
 * pixel shaders with the current parameter values (preshaders run), the pass's render states
 * (blend, depth, cull, fill, scissor) and the sampler states and textures its samplers name,
 * as XNA does. Later parameter changes need another apply. xgd_effect_apply applies pass 0 of
 * the current technique. A pass with a pixel shader only keeps the vertex shader (and its
 * constants) of the last apply, as Direct3D 9 does: inside SpriteBatch that is SpriteBatch's
 * SpriteEffect, so XNA's pixel-shader-only sprite effects work. Results: INVALID_ARGUMENT
 * (indices), INVALID_OPERATION (a pass without a pixel shader; a pixel-shader-only pass while
 * no vertex shader is applied), NOT_SUPPORTED (the renderer cannot run effects; named), OBJECT_DISPOSED
 * (a texture parameter's texture was destroyed), DEVICE_LOST, OUT_OF_MEMORY. */
XGD_API xgd_result xgd_effect_pass_apply(xgd_effect *effect, int technique, int pass);

/* Parameters (XNA Effect.Parameters, EffectParameter.Elements / StructureMembers /
 * Annotations, EffectTechnique.Annotations, EffectPass.Annotations). */
XGD_API xgd_result xgd_effect_get_parameter_count(xgd_effect *effect, int *out);
XGD_API xgd_result xgd_effect_get_parameter(xgd_effect *effect, int index,
                                            xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_find_parameter(xgd_effect *effect, const char *name,
                                             xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_find_parameter_by_semantic(xgd_effect *effect, const char *semantic,
                                                         xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_parameter_get_info(xgd_effect *effect, xgd_effect_parameter p,
                                                 xgd_effect_parameter_info *out);
XGD_API xgd_result xgd_effect_parameter_get_element(xgd_effect *effect, xgd_effect_parameter p,
                                                    int index, xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_parameter_get_member(xgd_effect *effect, xgd_effect_parameter p,
                                                   int index, xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_parameter_find_member(xgd_effect *effect, xgd_effect_parameter p,
                                                    const char *name, xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_parameter_get_annotation(xgd_effect *effect, xgd_effect_parameter p,
                                                       int index, xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_technique_get_annotation(xgd_effect *effect, int technique,
                                                       int index, xgd_effect_parameter *out);
XGD_API xgd_result xgd_effect_pass_get_annotation(xgd_effect *effect, int technique, int pass,
                                                  int index, xgd_effect_parameter *out);

/* Typed values. Scalars need class Scalar and the type (Bool, Int32, Single); vectors class
 * Vector of that many columns; a matrix class Matrix; none of these an array. The array forms
 * take exactly every value of the parameter (elements x rows x columns scalars; matrices:
 * elements matrices, each its top-left rows x columns): `count` must equal that number.
 * set_texture needs a texture parameter whose type admits the texture (Texture: any; Texture2D:
 * a 2D texture or render target; TextureCube: a cube; Texture3D: a Texture3D); NULL unbinds. */
XGD_API xgd_result xgd_effect_parameter_set_bool(xgd_effect *effect, xgd_effect_parameter p, bool v);
XGD_API xgd_result xgd_effect_parameter_set_int(xgd_effect *effect, xgd_effect_parameter p, int32_t v);
XGD_API xgd_result xgd_effect_parameter_set_float(xgd_effect *effect, xgd_effect_parameter p, float v);
XGD_API xgd_result xgd_effect_parameter_set_vector2(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector2 v);
XGD_API xgd_result xgd_effect_parameter_set_vector3(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector3 v);
XGD_API xgd_result xgd_effect_parameter_set_vector4(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector4 v);
XGD_API xgd_result xgd_effect_parameter_set_matrix(xgd_effect *effect, xgd_effect_parameter p,
                                                   const xgd_matrix *m);
XGD_API xgd_result xgd_effect_parameter_set_bools(xgd_effect *effect, xgd_effect_parameter p,
                                                  const bool *v, int count);
XGD_API xgd_result xgd_effect_parameter_set_ints(xgd_effect *effect, xgd_effect_parameter p,
                                                 const int32_t *v, int count);
XGD_API xgd_result xgd_effect_parameter_set_floats(xgd_effect *effect, xgd_effect_parameter p,
                                                   const float *v, int count);
XGD_API xgd_result xgd_effect_parameter_set_matrices(xgd_effect *effect, xgd_effect_parameter p,
                                                     const xgd_matrix *m, int count);
XGD_API xgd_result xgd_effect_parameter_set_texture(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_texture *texture);
XGD_API xgd_result xgd_effect_parameter_get_bool(xgd_effect *effect, xgd_effect_parameter p, bool *out);
XGD_API xgd_result xgd_effect_parameter_get_int(xgd_effect *effect, xgd_effect_parameter p,
                                                int32_t *out);
XGD_API xgd_result xgd_effect_parameter_get_float(xgd_effect *effect, xgd_effect_parameter p,
                                                  float *out);
XGD_API xgd_result xgd_effect_parameter_get_vector2(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector2 *out);
XGD_API xgd_result xgd_effect_parameter_get_vector3(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector3 *out);
XGD_API xgd_result xgd_effect_parameter_get_vector4(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_vector4 *out);
/* A parameter smaller than 4 x 4 fills the rest of *out from the identity. */
XGD_API xgd_result xgd_effect_parameter_get_matrix(xgd_effect *effect, xgd_effect_parameter p,
                                                   xgd_matrix *out);
XGD_API xgd_result xgd_effect_parameter_get_bools(xgd_effect *effect, xgd_effect_parameter p,
                                                  bool *out, int count);
XGD_API xgd_result xgd_effect_parameter_get_ints(xgd_effect *effect, xgd_effect_parameter p,
                                                 int32_t *out, int count);
XGD_API xgd_result xgd_effect_parameter_get_floats(xgd_effect *effect, xgd_effect_parameter p,
                                                   float *out, int count);
XGD_API xgd_result xgd_effect_parameter_get_matrices(xgd_effect *effect, xgd_effect_parameter p,
                                                     xgd_matrix *out, int count);
/* The texture last set (NULL if none, or if it was destroyed since). */
XGD_API xgd_result xgd_effect_parameter_get_texture(xgd_effect *effect, xgd_effect_parameter p,
                                                    xgd_texture **out);
/* A String parameter or annotation; the string stays valid while the effect lives. */
XGD_API xgd_result xgd_effect_parameter_get_string(xgd_effect *effect, xgd_effect_parameter p,
                                                   const char **out);

/* ------------------------------------------------------------------------------------------ */
/* SpriteBatch                                                                                 */
/* ------------------------------------------------------------------------------------------ */

typedef struct xgd_sprite_batch_begin_desc {
    xgd_sprite_sort_mode sort_mode;        /* default Deferred */
    xgd_blend_state *blend_state;          /* default AlphaBlend */
    xgd_sampler_state *sampler_state;      /* default LinearClamp */
    xgd_depth_stencil_state *depth_stencil_state; /* default None */
    xgd_rasterizer_state *rasterizer_state;       /* default CullCounterClockwise */
    xgd_effect *effect;                    /* default none: the stock SpriteEffect. A custom
                                              effect is applied before the sprite shader's
                                              projection is set, as in XNA; a pass with a
                                              pixel shader only (fx_2_0 or HLSL) keeps the
                                              last applied vertex shader, SpriteBatch's
                                              SpriteEffect's, and its matrix */
    const xgd_matrix *transform;           /* default identity; copied at begin */
} xgd_sprite_batch_begin_desc;

/* One SpriteBatch.Draw call. Every field means what it says (0 is zero, NULL is "not given");
 * XGD_SPRITE_INIT holds the values of XNA's short overloads (white tint, scale 1), so
 * `xgd_sprite s = XGD_SPRITE_INIT; s.position = ...;` is Draw(texture, position, Color.White). */
typedef struct xgd_sprite {
    xgd_vector2 position;       /* where origin lands, in pixels (used when destination is NULL) */
    const xgd_rect *destination; /* NULL: placed by position and scale. Otherwise XNA's
                                   destinationRectangle, replacing position and scale; a zero
                                   width or height draws nothing. Read during the draw call. */
    const xgd_rect *source;     /* texels; NULL: the whole texture (XNA's null). A zero-size
                                   rectangle is a real one: with position and scale the sprite
                                   is zero-sized and draws nothing; a destination rectangle is
                                   filled with the texture at the source's corner (XNA) */
    xgd_color color;            /* tint (premultiplied under AlphaBlend); INIT White; zero =
                                   transparent */
    float rotation;             /* radians, clockwise on screen, about origin */
    xgd_vector2 origin;         /* in source texels */
    xgd_vector2 scale;          /* INIT (1, 1); a zero component draws nothing (XNA) */
    xgd_sprite_effects effects; /* flips */
    float layer_depth;          /* 0 front .. 1 back; sorts BackToFront/FrontToBack */
} xgd_sprite;

/* XNA's defaults for a sprite: white, scale 1, whole texture, placed by position. */
#define XGD_SPRITE_INIT                                                                     \
    { .color = { 255, 255, 255, 255 }, .scale = { 1.0f, 1.0f } }

XGD_API xgd_result xgd_sprite_batch_create(xgd_device *device, xgd_sprite_batch **out);
XGD_API void xgd_sprite_batch_destroy(xgd_sprite_batch *batch);
/* Results: INVALID_OPERATION (begin twice without end), OBJECT_DISPOSED (a disposed state or
 * effect), INVALID_ARGUMENT. desc NULL: all defaults. */
XGD_API xgd_result xgd_sprite_batch_begin(xgd_sprite_batch *batch,
                                          const xgd_sprite_batch_begin_desc *desc);
/* Queues (or, for Immediate, draws) one sprite. Results: INVALID_OPERATION (no begin),
 * INVALID_ARGUMENT (texture NULL or sprite NULL), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_batch_draw(xgd_sprite_batch *batch, xgd_texture *texture,
                                         const xgd_sprite *sprite);
/* XNA's shorter Draw overloads, each the same as xgd_sprite_batch_draw with the sprite it
 * stands for (XGD_SPRITE_INIT's defaults: no rotation, origin (0, 0), scale 1, no flips, layer
 * depth 0), with the same results (INVALID_ARGUMENT for a NULL texture).
 * xgd_sprite_batch_draw_at is Draw(Texture2D, Vector2, Color): the whole texture with its
 * top-left corner at position. It is the cheapest call a sprite can take: no struct to fill
 * or read, and a fast path of its own (about two thirds of xgd_sprite_batch_draw's
 * instructions for the same sprite, the caller's included; README, performance).
 * xgd_sprite_batch_draw_rect is
 * Draw(Texture2D, Rectangle, Color): the whole texture filling destination, and
 * xgd_sprite_batch_draw_rect_source Draw(Texture2D, Rectangle, Rectangle?, Color): the source
 * rectangle's texels (NULL: the whole texture) filling it. xgd_sprite_batch_draw_at_source is
 * Draw(Texture2D, Vector2, Rectangle?, Color): the source rectangle's texels (NULL: the whole
 * texture) with their top-left corner at position; with a source rectangle (a sprite sheet's
 * cell) it too has a fast path of its own (README, performance). The source rectangle is read
 * during the call. */
XGD_API xgd_result xgd_sprite_batch_draw_at(xgd_sprite_batch *batch, xgd_texture *texture,
                                            xgd_vector2 position, xgd_color color);
XGD_API xgd_result xgd_sprite_batch_draw_rect(xgd_sprite_batch *batch, xgd_texture *texture,
                                              xgd_rect destination, xgd_color color);
XGD_API xgd_result xgd_sprite_batch_draw_rect_source(xgd_sprite_batch *batch,
                                                     xgd_texture *texture, xgd_rect destination,
                                                     const xgd_rect *source, xgd_color color);
XGD_API xgd_result xgd_sprite_batch_draw_at_source(xgd_sprite_batch *batch,
                                                   xgd_texture *texture, xgd_vector2 position,
                                                   const xgd_rect *source, xgd_color color);
/* Sorts and draws the queued sprites with as few draw calls as the sort mode allows (one per
 * run of equal textures, or per group of up to 16 textures: xgd_sprite_batch_set_texture_groups
 * below). Results: INVALID_OPERATION (no begin), NOT_SUPPORTED (Reach: a
 * queued texture whose size is not a power of two with a sampler that is not Clamp; nothing is
 * drawn), DEVICE_LOST. */
XGD_API xgd_result xgd_sprite_batch_end(xgd_sprite_batch *batch);

/* Texture groups (EXT: not part of XNA). With SpriteBatch's own SpriteEffect (no custom
 * effect in Begin), End may draw the sprites of up to 16 distinct textures in one draw call:
 * the group's textures go to slots 0..15 with the batch's sampler state in all 16, each vertex
 * carries its sprite's slot, and an internal program samples that slot (the stock SpriteEffect's
 * math, one sample a pixel, so every pixel is what one draw per texture gives). The sprites
 * keep their order (a group is consecutive sprites of the sorted queue: it ends where a 17th
 * distinct texture appears). On a GPU renderer a texture change costs a native draw and a
 * descriptor change; a group costs one draw for all its texture changes.
 * After End the device state is what XNA's SpriteBatch leaves: SpriteEffect applied, slot 0
 * holding the last sprite's texture, sampler state 0 the batch's; slots 1..15 (textures and
 * sampler states) hold what they held before End. xgd_statistics.draw_calls counts the draws
 * made. Modes: AUTO (default): groups where the renderer's draw costs native work (Vulkan,
 * Direct3D 12) and a chunk of up to 2048 sprites has enough runs of equal textures per group
 * to pay for a group's 16 texture bindings: 4 on Direct3D 12, 32 on Vulkan (whose texture
 * changes cost less); OFF:
 * never (one draw per run of equal textures); ON: wherever a chunk has more than one texture,
 * on every renderer (tests use it to compare). Results: INVALID_ARGUMENT (unknown mode),
 * OBJECT_DISPOSED. The mode is read at End. */
typedef enum xgd_sprite_texture_groups {
    XGD_SPRITE_TEXTURE_GROUPS_AUTO = 0,
    XGD_SPRITE_TEXTURE_GROUPS_OFF,
    XGD_SPRITE_TEXTURE_GROUPS_ON
} xgd_sprite_texture_groups;
XGD_API xgd_result xgd_sprite_batch_set_texture_groups(xgd_sprite_batch *batch,
                                                       xgd_sprite_texture_groups mode);

/* Instanced sprites (EXT: not part of XNA). On the GPU renderers (Vulkan, Direct3D 12), with
 * SpriteBatch's own SpriteEffect, End draws a chunk of unrotated sprites from one 48-byte
 * element a sprite (its edges, the texture coordinates of two corners, its layer depth and
 * color) through xgd_reserve_user_quad_instances and an internal program that selects each
 * corner's values (shaders/stock/spriteinst.fx) instead of writing four 24-byte vertices: half
 * the upload bytes and fewer instructions in End, and the same pixels, since the corners are
 * selected, not computed. A batch none of whose sprites has a source rectangle (each shows its
 * whole texture, flipped or not) is drawn from 32 bytes a sprite instead: the queue entry Draw
 * made (edges, layer depth, color, flips), copied as it is (shaders/stock/spritewhole.fx). A
 * batch with a rotated sprite, a custom effect or a sprite queued as
 * four vertices (an empty quad: a zero-size source over a destination, or a corner beyond float
 * range), and chunks drawn by texture groups, are drawn with vertices. The device state after End is the same either
 * way. Modes: AUTO (default): wherever that applies; OFF: never; ON: as AUTO, except that a
 * failure to make the internal program or declaration (spriteinst's) is End's error instead of
 * a reason to draw with vertices (tests use it to compare); in either mode a failure to make
 * the whole-texture program draws those batches with spriteinst. A Reach device draws sprites from vertices
 * (Reach has no instancing). Results: INVALID_ARGUMENT (unknown mode), NOT_SUPPORTED (ON on a
 * renderer without instanced quads: the software renderer, which draws sprites from vertices;
 * ON on a Reach device), OBJECT_DISPOSED. The mode is read at End, and at Begin for direct
 * batches:
 *
 * Direct batches. A Deferred batch that End may draw from 32-byte entries (SpriteBatch's own
 * effect, instancing not OFF, texture groups not ON, a GPU renderer, HiDef) and whose runs prove
 * long (256 sprites of one texture in a row, each showing its whole texture) writes its
 * sprites from then on at Draw straight into the device's upload memory, held for it
 * (xgd_hold_user_quad_instances), and End draws them from there: End's cost for them is a
 * draw per run, not a copy per sprite. The first sprite End could not draw so (a source
 * rectangle, a rotation, a sprite queued as four vertices), more than 1,024 runs, or upload
 * memory the device cannot hold without submitting its work send the rest of the batch to its
 * queue, as before. Nothing of this shows in what is drawn: the same pixels, the same device
 * state after End, the same results from Draw and End, nothing in the device's last error or
 * log (a refused hold is tried in a quiet span, xgd_device_quiet_begin). A submission of the
 * device's work between Begin and End (a readback, a
 * get_data call, a query result that waits) moves the held sprites into the queue first,
 * which reads them back from write-combined memory on a discrete GPU: slow, so better kept
 * out of a batch. */
typedef enum xgd_sprite_instancing {
    XGD_SPRITE_INSTANCING_AUTO = 0,
    XGD_SPRITE_INSTANCING_OFF,
    XGD_SPRITE_INSTANCING_ON
} xgd_sprite_instancing;
XGD_API xgd_result xgd_sprite_batch_set_instancing(xgd_sprite_batch *batch,
                                                   xgd_sprite_instancing mode);

/* ------------------------------------------------------------------------------------------ */
/* SpriteFont and DrawString                                                                   */
/* ------------------------------------------------------------------------------------------ */

/*
 * XNA 4.0's SpriteFont: a glyph texture and, per character, the glyph's source rectangle in
 * it (Glyphs), the glyph's offset and cell in the text (Cropping) and its horizontal metrics
 * (Kerning: x = left bearing, y = width, z = right bearing), plus LineSpacing, Spacing and an
 * optional DefaultCharacter. Text is UTF-8; every code point is looked up in the character
 * list. Layout (MeasureString and DrawString), as XNA does it:
 *   - '\r' is skipped; '\n' starts a new line LineSpacing pixels lower, at x 0.
 *   - a glyph advances the pen by left bearing + width + right bearing, and Spacing is added
 *     between two glyphs of a line; the first glyph of a line uses max(left bearing, 0).
 *     The glyph's source rectangle is drawn at pen + left bearing + Cropping.X, line top +
 *     Cropping.Y.
 *   - a character the font lacks is drawn (and measured) as DefaultCharacter; without one the
 *     call fails with INVALID_ARGUMENT naming the character, and draws nothing.
 *   - MeasureString: width = the widest line (its last glyph counts max(right bearing, 0));
 *     height = LineSpacing per line break plus, for the last line, max(LineSpacing, the
 *     tallest Cropping.Height on it). "" measures (0, 0).
 * The font has no native part of its own: after its device is destroyed it answers
 * OBJECT_DISPOSED.
 */
typedef struct xgd_sprite_font xgd_sprite_font;

typedef struct xgd_sprite_font_desc {
    xgd_texture *texture;        /* required: the glyph texture, a Texture2D of the device
                                    (XNA SpriteFont.Texture) */
    bool take_texture;           /* true: the font owns the texture and destroys it with
                                    itself (only once creation succeeded; a failed create
                                    leaves it the caller's) */
    int glyph_count;             /* 0..1114112 entries in each of the four arrays below */
    const xgd_rect *glyphs;      /* XNA Glyphs: source rectangles, inside the texture */
    const xgd_rect *cropping;    /* XNA Cropping: x, y offset of the glyph in its cell; height
                                    counts in MeasureString; width and height >= 0 */
    const uint32_t *characters;  /* XNA CharacterMap: Unicode code points, no duplicates, any
                                    order (kept as given for xgd_sprite_font_get_characters) */
    const xgd_vector3 *kerning;  /* XNA Kerning: x left bearing, y width, z right bearing;
                                    finite */
    int line_spacing;            /* XNA LineSpacing, pixels */
    float spacing;               /* XNA Spacing, pixels between glyphs (finite) */
    bool has_default_character;  /* XNA DefaultCharacter is not null ... */
    uint32_t default_character;  /* ... and is this code point, one of `characters` */
} xgd_sprite_font_desc;

/* Copies the desc's arrays. Results: INVALID_ARGUMENT (NULL desc, out or arrays, a texture
 * that is not a Texture2D, glyph rectangles outside the texture, negative sizes, duplicate
 * characters or code points above U+10FFFF, non-finite metrics, a default character not in
 * the font), OBJECT_DISPOSED / INVALID_OPERATION (a disposed or another device's texture),
 * OUT_OF_MEMORY, DEVICE_LOST. */
XGD_API xgd_result xgd_sprite_font_create(xgd_device *device, const xgd_sprite_font_desc *desc,
                                          xgd_sprite_font **out);
/* Accepts NULL and disposed fonts; destroys the texture when the font owns it. */
XGD_API void xgd_sprite_font_destroy(xgd_sprite_font *font);

typedef struct xgd_sprite_font_info {
    xgd_texture *texture;        /* XNA Texture (owned by the font when take_texture was set) */
    int glyph_count;             /* number of characters */
    int line_spacing;            /* XNA LineSpacing */
    float spacing;               /* XNA Spacing */
    bool has_default_character;  /* XNA DefaultCharacter.HasValue */
    uint32_t default_character;  /* its value (0 without one) */
} xgd_sprite_font_info;

/* One character's data, index 0..glyph_count-1 in the order the font was created with. */
typedef struct xgd_sprite_font_glyph {
    uint32_t character;
    xgd_rect glyph;              /* source rectangle in the texture */
    xgd_rect cropping;
    xgd_vector3 kerning;         /* left bearing, width, right bearing */
} xgd_sprite_font_glyph;

/* Results: INVALID_ARGUMENT (NULL), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_get_info(xgd_sprite_font *font, xgd_sprite_font_info *out);
/* INVALID_ARGUMENT (NULL out), ARGUMENT_OUT_OF_RANGE (index), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_get_glyph(xgd_sprite_font *font, int index,
                                             xgd_sprite_font_glyph *out);
/* XNA Characters: writes min(capacity, glyph_count) code points to out (NULL with capacity
 * 0 to ask) and the total to *count. Results: INVALID_ARGUMENT (count NULL, out NULL with a
 * capacity), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_get_characters(xgd_sprite_font *font, uint32_t *out,
                                                  int capacity, int *count);
/* XNA LineSpacing setter (any value). Results: OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_set_line_spacing(xgd_sprite_font *font, int line_spacing);
/* XNA Spacing setter. Results: INVALID_ARGUMENT (non-finite), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_set_spacing(xgd_sprite_font *font, float spacing);
/* XNA DefaultCharacter setter: has false is null. Results: INVALID_ARGUMENT (a character
 * the font lacks; the old value stays), OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_set_default_character(xgd_sprite_font *font, bool has,
                                                         uint32_t character);
/* XNA MeasureString of a NUL-terminated UTF-8 string (see the layout rules above).
 * Results: INVALID_ARGUMENT (NULL text or out, invalid UTF-8 with its byte offset, a
 * character the font lacks without a default character; *out is then (0, 0)),
 * OBJECT_DISPOSED. */
XGD_API xgd_result xgd_sprite_font_measure_string(xgd_sprite_font *font, const char *text,
                                                  xgd_vector2 *out);
/* The same for `length` bytes of UTF-8 (XNA's StringBuilder overload; may hold NUL). */
XGD_API xgd_result xgd_sprite_font_measure_string_n(xgd_sprite_font *font, const char *text,
                                                    size_t length, xgd_vector2 *out);

/* The parameters of XNA's DrawString overloads. XGD_DRAW_STRING_INIT is the short overload's
 * (white, scale 1, no rotation); the float-scale overload is scale = { s, s }. */
typedef struct xgd_draw_string_params {
    xgd_vector2 position;       /* where origin lands, pixels */
    xgd_color color;            /* tint (premultiplied under AlphaBlend); INIT White */
    float rotation;             /* radians, clockwise on screen, about origin */
    xgd_vector2 origin;         /* in unscaled text pixels, in the (flipped) text block */
    xgd_vector2 scale;          /* INIT (1, 1) */
    xgd_sprite_effects effects; /* flips mirror the whole text block (MeasureString's box) and
                                   each glyph with it */
    float layer_depth;          /* 0 front .. 1 back; every glyph sorts with this depth */
} xgd_draw_string_params;

#define XGD_DRAW_STRING_INIT                                                                \
    { .color = { 255, 255, 255, 255 }, .scale = { 1.0f, 1.0f } }

/* XNA SpriteBatch.DrawString: one sprite per glyph through xgd_sprite_batch_draw, from the
 * font's texture, placed by the layout rules above: glyph top-left p (scaled text pixels,
 * after flipping) lands at position + rotate(p - origin * scale), drawn with the rotation,
 * scale, effects and layer depth given. params NULL: position (0, 0), white. The text is
 * decoded and every character resolved before any glyph is queued, so a failure queues
 * nothing. Results: those of xgd_sprite_batch_draw, INVALID_ARGUMENT (NULL font or text,
 * invalid UTF-8, a character the font lacks without a default character, non-finite
 * params, unknown effects), OBJECT_DISPOSED (font or its texture), INVALID_OPERATION (no
 * Begin, another device's font). */
XGD_API xgd_result xgd_sprite_batch_draw_string(xgd_sprite_batch *batch, xgd_sprite_font *font,
                                                const char *text,
                                                const xgd_draw_string_params *params);
/* The same for `length` bytes of UTF-8 (XNA's StringBuilder overloads). */
XGD_API xgd_result xgd_sprite_batch_draw_string_n(xgd_sprite_batch *batch,
                                                  xgd_sprite_font *font, const char *text,
                                                  size_t length,
                                                  const xgd_draw_string_params *params);

/* A range of code points, both ends included (XNA's CharacterRegion). */
typedef struct xgd_char_range {
    uint32_t first, last;
} xgd_char_range;

typedef struct xgd_truetype_font_desc {
    float size;                  /* required: XNA's .spritefont Size, in points at 96 DPI (the
                                    em is size * 4 / 3 pixels); 0 < size <= 1000 */
    const xgd_char_range *ranges; /* default (NULL or range_count 0): U+0020..U+007E, XNA's
                                    default CharacterRegion */
    int range_count;             /* 0..4096 ranges, first <= last <= U+10FFFF */
    float spacing;               /* XNA Spacing; default 0 */
    bool has_default_character;  /* XNA DefaultCharacter (must be one of the font's) */
    uint32_t default_character;
    int font_index;              /* font in a collection (.ttc); default 0 */
    bool allow_cff_outlines;     /* default false: OpenType fonts with CFF outlines (no glyf
                                    table) are NOT_SUPPORTED, because stb_truetype reads CFF
                                    data without bounds; true reads them (trusted files only) */
} xgd_truetype_font_desc;

/*
 * Builds a SpriteFont at run time from TrueType / OpenType (glyf or CFF outlines) data through
 * stb_truetype, as XNA's content pipeline builds one from a font description: each code point
 * of the ranges that the font maps to a glyph is rasterized (8-bit coverage) into a Color
 * texture of premultiplied white (r = g = b = a = coverage), glyphs packed in rows with one
 * transparent texel between them. Per glyph, with the font's metrics scaled to pixels and
 * rounded: left bearing = the bitmap's x offset from the pen, width = the bitmap width, right
 * bearing = advance - left bearing - width (so the three sum to the advance); Cropping = (0,
 * the bitmap's top below the line top (baseline - ascent), width, LineSpacing); LineSpacing =
 * ascent - descent + line gap. Code points the font lacks are left out of the font (the
 * default character, when asked, must not be). Pair kerning is not applied: XNA's SpriteFont
 * has none.
 * stb_truetype trusts the font's internal offsets; before it reads anything xgd checks that
 * the table directory, the tables it reads, each cmap lookup and each requested glyph's
 * outline lie inside the data (composites bounded in depth and extent), and bounds glyph
 * bitmaps and the texture (4096 x 4096). CFF outlines are not checked, so they are refused
 * unless allow_cff_outlines says the file is trusted (README, "Text").
 * Results: INVALID_ARGUMENT (NULL device, data, path, desc or out, bad desc values, data that
 * is no font, a default character the font lacks), ARGUMENT_OUT_OF_RANGE (the glyphs need a
 * texture larger than 4096 x 4096), IO (the file cannot be read), NOT_SUPPORTED (built
 * without stb_truetype; CFF outlines without allow_cff_outlines), OUT_OF_MEMORY, DEVICE_LOST,
 * and those of xgd_texture2d_create.
 */
XGD_API xgd_result xgd_sprite_font_from_truetype_memory(xgd_device *device, const void *data,
                                                        size_t size,
                                                        const xgd_truetype_font_desc *desc,
                                                        xgd_sprite_font **out);
XGD_API xgd_result xgd_sprite_font_from_truetype_file(xgd_device *device, const char *path,
                                                      const xgd_truetype_font_desc *desc,
                                                      xgd_sprite_font **out);

/* ------------------------------------------------------------------------------------------ */
/* Libraries layered on xgd                                                                    */
/* ------------------------------------------------------------------------------------------ */

/*
 * What a library built on the public API needs to behave like xgd's own objects; xgd's
 * SpriteBatch and SpriteFont use only these and the calls above. Its objects get handles as
 * xgd's do (a stale, destroyed or another device's handle answers with a named error, never a
 * crash), turn into disposed shells when their device is destroyed first, and report failures
 * on the device (xgd_device_report_error). It can hold xgd objects weakly (a handle is a weak
 * reference: xgd_resource_is_live says whether it still names the same live object) and check
 * up front what a later draw would refuse, so a deferred flush can fail before drawing
 * anything.
 */

/* The kinds of xgd's own objects, for xgd_resource_check. */
typedef enum xgd_resource_kind {
    XGD_RESOURCE_TEXTURE = 0,          /* every texture and render target */
    XGD_RESOURCE_VERTEX_DECLARATION,
    XGD_RESOURCE_VERTEX_BUFFER,        /* static and dynamic */
    XGD_RESOURCE_INDEX_BUFFER,         /* static and dynamic */
    XGD_RESOURCE_BLEND_STATE,
    XGD_RESOURCE_DEPTH_STENCIL_STATE,
    XGD_RESOURCE_RASTERIZER_STATE,
    XGD_RESOURCE_SAMPLER_STATE,
    XGD_RESOURCE_EFFECT,
    XGD_RESOURCE_OCCLUSION_QUERY
} xgd_resource_kind;

/* A kind of object of a layered library. Its address is the kind's identity, so keep it in
 * static storage for as long as objects of the kind exist. */
typedef struct xgd_resource_class {
    const char *name;            /* names the objects in messages ("sprite batch"); NULL:
                                    "object" */
    /* Optional. The device is being destroyed while the object is registered: called once,
       after which every resolve of the object answers OBJECT_DISPOSED. Drop what the object
       holds of the device (a queue, cached state); do not call xgd on the device (its other
       objects are being disposed too) and do not free the object: its owner still destroys
       it, and its destroy still calls xgd_resource_unregister. */
    void (*device_destroyed)(void *object);
} xgd_resource_class;

/*
 * Registers a layered library's object with the device: *out_handle is the value to give the
 * user (any pointer type: it is a handle, never the object's address). The object counts in
 * the device's live resources and raises RESOURCE_CREATED / RESOURCE_DESTROYED as xgd's own
 * objects do. Results: OK, INVALID_ARGUMENT (NULL device, cls, object or out_handle),
 * OBJECT_DISPOSED (the device is being destroyed), OUT_OF_MEMORY (the handle table is full;
 * nothing registered). On failure *out_handle is NULL.
 */
XGD_API xgd_result xgd_resource_register(xgd_device *device, const xgd_resource_class *cls,
                                         void *object, void **out_handle);
/* For the object's destroy: makes the handle stale (every copy then answers OBJECT_DISPOSED)
 * and unregisters the object, then returns it for its owner to free. NULL, a stale handle,
 * another class's object and a value that is no handle return NULL and change nothing, so a
 * destroy is a no-op for them, as xgd's own destroys are. A disposed shell is returned too. */
XGD_API void *xgd_resource_unregister(const void *handle, const xgd_resource_class *cls);
/*
 * Handle -> the registered object, for every call of the layered library that takes one:
 * *out_object the object, *out_device (may be NULL) its device. device NULL accepts the
 * object's own device; otherwise the object must belong to device. `what` names the argument
 * in messages (NULL: the class's name). Failures are recorded on device, else on the object's
 * device when it has one, else for xgd_device_last_error(NULL); *out_object (and *out_device)
 * are then NULL. Results: OK; INVALID_ARGUMENT (handle NULL, a value that is no xgd handle, an
 * object of another kind or class: "batch is a texture, not a sprite batch"; cls or out_object
 * NULL); OBJECT_DISPOSED (destroyed, or its device destroyed); INVALID_OPERATION (another
 * device's object). Lock-free and allocation-free: a few loads and compares.
 */
XGD_API xgd_result xgd_resource_resolve(xgd_device *device, const void *handle,
                                        const xgd_resource_class *cls, const char *what,
                                        void **out_object, xgd_device **out_device);
/* The same checks for a handle of one of xgd's own kinds (a texture, state, effect, ...):
 * OK when it is a live object of `kind` on device. Results: INVALID_ARGUMENT (device or
 * resource NULL, an unknown kind, no handle, another kind), OBJECT_DISPOSED, INVALID_OPERATION
 * (another device's object), recorded on device. */
XGD_API xgd_result xgd_resource_check(xgd_device *device, const void *resource,
                                      xgd_resource_kind kind, const char *what);
/* Whether a handle (of any kind, xgd's or a layered library's) still names a live object of
 * device: false for NULL, a destroyed object (even when its slot holds a newer one), a disposed
 * shell, another device's object and a value that is no handle. Records nothing; lock-free and
 * allocation-free. A library that keeps handles between calls (a queue until a flush) checks
 * them with this; a handle stays the same object as long as this answers true, so what was
 * checked about it (kind, size, device) still holds. */
XGD_API bool xgd_resource_is_live(const xgd_device *device, const void *resource);
/* A process-wide number that moves on whenever a handle may stop naming a live object: every
 * destroy (xgd's objects and a layered library's) and every device destroy (which disposes its
 * objects), and at nothing else. While it reads the same, each handle that xgd_resource_is_live
 * answered true for, or that xgd_resource_resolve resolved, since it last moved still would,
 * to the same object and device: a library that checks the same handles on every call (a
 * sprite batch's Draw) can check them once per value. Never 0. A destroy on another thread
 * reaches this thread's reading as the destroy itself does (through the caller's
 * synchronization). Lock-free; records nothing. */
XGD_API uint64_t xgd_resource_epoch(void);
/* Where xgd_resource_epoch reads its number: the address of a C11 `_Atomic uint64_t` that lasts
 * as long as the library stays loaded (the same address on every call until then), for a
 * layered library that checks the epoch on every call of its own without a function call (a
 * sprite batch's Draw):
 *     atomic_load_explicit((const _Atomic uint64_t *)address, memory_order_acquire)
 * reads what xgd_resource_epoch() returns (C++: std::atomic<uint64_t> has that layout on the
 * compilers xgd supports, though the standard does not promise it). Only ever read it so;
 * never NULL. */
XGD_API const void *xgd_resource_epoch_address(void);

/* Whether the device can draw now. Results: OK; INVALID_ARGUMENT (NULL); OBJECT_DISPOSED (it
 * is being destroyed); DEVICE_LOST (until xgd_device_restore_context), recorded as xgd's own
 * calls record them. */
XGD_API xgd_result xgd_device_check_status(xgd_device *device);
/*
 * What a draw would refuse about sampling `texture` through `sampler` (NULL: the sampler
 * state a draw would find in slot 0), checked without drawing, so a library that queues draws
 * can refuse a whole flush before its first draw: INVALID_OPERATION (the texture is bound as
 * a render target; it has no storage because its recovery failed), NOT_SUPPORTED (Reach: a 2D
 * texture whose size is not a power of two needs Clamp addressing), and the failures of
 * xgd_resource_check for both objects. Recorded on device.
 */
XGD_API xgd_result xgd_device_check_sampling(xgd_device *device, xgd_texture *texture,
                                             xgd_sampler_state *sampler);
/* Counts one sprite batch flush that drew in the statistics (xgd_statistics.sprite_batches
 * and the current frame's): what xgd's SpriteBatch counts, for a library drawing sprites
 * its own way. A NULL or destroyed device is ignored. */
XGD_API void xgd_device_count_sprite_batch(xgd_device *device);
/*
 * The projection SpriteBatch and SpriteEffect use for a viewport of width x height pixels:
 * XNA's CreateOrthographicOffCenter(0, width, height, 0, 0, -1) (y down; near 0, far -1, so a
 * vertex's z, the layer depth, passes through unchanged and depths in 0..1 stay inside the
 * clip range 0 <= z <= w), preceded under XGD_PIXEL_CENTER_XNA by CreateTranslation(-0.5,
 * -0.5, 0), which cancels the rasterizer's half pixel so that texels land exactly on pixels;
 * no translation under XGD_PIXEL_CENTER_D3D10. The device's choice is
 * xgd_device_info.pixel_center. A width or height below 1 counts as 1.
 */
XGD_API xgd_matrix xgd_matrix_create_sprite_projection(int width, int height,
                                                       xgd_pixel_center pixel_center);
/* XNA SpriteBatch.GraphicsDevice. Results: OK, INVALID_ARGUMENT (batch or out NULL, not a
 * sprite batch), OBJECT_DISPOSED (*out NULL). */
XGD_API xgd_result xgd_sprite_batch_get_device(xgd_sprite_batch *batch, xgd_device **out);


/* ------------------------------------------------------------------------------------------ */
/* Content: XNA's compiled .xnb files                                                          */
/* ------------------------------------------------------------------------------------------ */

/*
 * An .xnb file is what XNA's content pipeline writes and ContentManager.Load reads: a header
 * (platform, format version 5 = XNA 4.0, flags: HiDef profile, LZX compression), the type
 * readers the content needs (by .NET name), the primary asset and the shared resources, each an
 * object written by its reader. xgd reads XNA 4.0 files of the platforms that store
 * little-endian data ('w' Windows, 'm' Windows Phone; and MonoGame's desktop and mobile
 * targets), uncompressed or LZX-compressed (decoded by libmspack), with these readers:
 *   Texture2DReader, TextureCubeReader, Texture3DReader (every XNA SurfaceFormat, all mip levels,
 *   faces and slices the file holds), SpriteFontReader (with the ListReader, RectangleReader,
 *   CharReader and Vector3Reader it uses), EffectReader (the compiled effect is handed to the
 *   effect loader). xgd_content_type_reader_name lists them.
 */
typedef enum xgd_content_kind {
    XGD_CONTENT_NONE = 0,        /* a null object (type reader index 0) */
    XGD_CONTENT_TEXTURE2D,       /* .texture */
    XGD_CONTENT_TEXTURE_CUBE,    /* .texture */
    XGD_CONTENT_TEXTURE3D,       /* .texture */
    XGD_CONTENT_SPRITE_FONT,     /* .sprite_font (owns its glyph texture) */
    XGD_CONTENT_EFFECT           /* .effect */
} xgd_content_kind;

typedef struct xgd_content_object {
    xgd_content_kind kind;
    const char *type_reader;     /* the reader's .NET name without assembly qualifiers
                                    ("Microsoft.Xna.Framework.Content.Texture2DReader"); static
                                    storage; NULL for a null object */
    xgd_texture *texture;        /* the one object of the kind; the others are NULL */
    struct xgd_sprite_font *sprite_font;
    xgd_effect *effect;
} xgd_content_object;

typedef struct xgd_content {
    char platform;               /* the header's target platform byte ('w', 'm', ...) */
    int version;                 /* 5 (XNA Game Studio 4.0) */
    bool hidef;                  /* built for the HiDef profile */
    bool compressed;             /* LZX-compressed */
    uint32_t file_size;          /* as the header gives it (= the data's size) */
    uint32_t decompressed_size;  /* of the payload after the header (= its size uncompressed) */
    int type_reader_count;
    xgd_content_object asset;    /* the primary asset */
    int shared_count;            /* shared resources, in file order (XNA's shared resource
                                    index i + 1 refers to shared[i]) */
    xgd_content_object *shared;  /* malloc'd; freed by xgd_content_release */
} xgd_content;

/*
 * Loads an .xnb: validates the whole file first (every count and size against what the data
 * holds, before anything is allocated for it or created), then creates its objects on the
 * device: textures through xgd_texture2d_create / xgd_texture_cube_create /
 * xgd_texture3d_create and their set_data (the file's SurfaceFormat, level count, faces and
 * slices), sprite fonts and effects through their public create functions. The caller owns
 * everything in *out; xgd_content_release destroys what is still there (set a field to NULL
 * to keep that object). Memory: the file (read whole; at most 1 GiB), its decompressed
 * payload (its declared size, grown only as LZX output arrives) and what the objects need.
 * Results (on failure *out is zeroed and nothing is created):
 *   INVALID_OPERATION  not an .xnb (no "XNB" signature), as ContentManager's "bad XNB magic";
 *   INVALID_ARGUMENT   a damaged file: the message names what (a size or count beyond the
 *                      data, truncated or corrupt LZX data, a type reader index beyond the
 *                      file's list, another object (or null) where a reader expects one,
 *                      lists of a sprite font of different lengths, trailing bytes);
 *                      NULL arguments;
 *   NOT_SUPPORTED      an unknown type reader (the message names it: ContentLoadException's
 *                      "could not find ContentTypeReader"), another format version, an
 *                      Xbox 360 (big-endian) or other unknown platform, LZ4 compression, a
 *                      SurfaceFormat xgd lacks (named), HiDef content on a Reach device, sizes
 *                      beyond the device or profile, an asset kind whose xgd API this build
 *                      lacks;
 *   IO (file), OUT_OF_MEMORY, DEVICE_LOST, OBJECT_DISPOSED.
 */
XGD_API xgd_result xgd_content_load_file(xgd_device *device, const char *path, xgd_content *out);
XGD_API xgd_result xgd_content_load_memory(xgd_device *device, const void *data, size_t size,
                                           xgd_content *out);
/* Destroys every object still in *content (asset and shared resources), frees the shared
 * array and zeroes *content. NULL and a zeroed content are accepted. */
XGD_API void xgd_content_release(xgd_content *content);
/* The type readers xgd reads, by .NET name as in xgd_content_object.type_reader: index 0 ..
 * n-1 gives the names, then NULL. */
XGD_API const char *xgd_content_type_reader_name(int index);

/*
 * Native capabilities: what the renderer's native API reports about the device (issue 5,
 * "Capability detection readable through the device"). Filled by renderers that have such
 * caps (d3d12: from ID3D12Device::CheckFeatureSupport); on the others (software, vulkan) every
 * field is zero and the result is XGD_ERROR_NOT_SUPPORTED.
 */
typedef struct xgd_native_caps {
    int feature_level;           /* D3D_FEATURE_LEVEL value: 0xb000 = 11_0 ... 0xc100 = 12_1 */
    int shader_model;            /* D3D_SHADER_MODEL value: 0x50 = 5.0, 0x51 = 5.1, 0x60 = 6.0 */
    int resource_binding_tier;   /* 1..3 */
    int root_signature_version;  /* 10 = 1.0, 11 = 1.1 */
    bool mesh_shaders;           /* a mesh shader tier above "not supported" */
    bool ray_tracing;            /* a ray tracing tier above "not supported" */
    bool conservative_raster;    /* a conservative rasterization tier above "not supported" */
    bool debug_layer;            /* the runtime's debug layer is enabled (debug devices only) */
} xgd_native_caps;

/* Results: XGD_OK, NOT_SUPPORTED (the renderer has no native caps; *out zeroed),
 * INVALID_ARGUMENT (out NULL), DEVICE_LOST (until xgd_device_restore_context). */
XGD_API xgd_result xgd_device_get_native_caps(xgd_device *device, xgd_native_caps *out);

#ifdef __cplusplus
}
#endif

#endif /* XGD_H */
