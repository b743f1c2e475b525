/*
 * window.h - window-system glue shared by renderers (SDL2, X11; Win32 in the Windows build).
 *
 * Core opens an xgdi_window for a windowed device's xgd_window_handle, asks it for the
 * drawable size (the back buffer's size, spec 002: the swap chain follows the window) and
 * whether the window still exists; a renderer that presents from the CPU (software) hands it
 * RGBA8 rows. No window-system header leaks out of src/platform: the handles stay void * and
 * unsigned long here.
 *
 * Every call that can fail records a named result on the device (xgdi_fail) and returns it;
 * a window destroyed under the device answers XGD_ERROR_DEVICE_LOST, never a crash or the
 * window system's fatal error handler.
 */
#ifndef XGD_PLATFORM_WINDOW_H
#define XGD_PLATFORM_WINDOW_H

#include "xgd.h"

#include <stddef.h>
#include <stdint.h>

typedef struct xgdi_window xgdi_window;

/* Validates the handle and opens it: INVALID_ARGUMENT (NULL handles, not a window),
 * NOT_SUPPORTED (kind not compiled in), DEVICE_LOST (the window is gone). */
xgd_result xgdi_window_open(xgd_device *report, const xgd_window_handle *h, xgdi_window **out);
void xgdi_window_close(xgdi_window *w);
const xgd_window_handle *xgdi_window_handle_of(const xgdi_window *w);
/* The drawable size in pixels. DEVICE_LOST once the window is gone (and stays so). */
xgd_result xgdi_window_drawable_size(xgd_device *report, xgdi_window *w, int *width, int *height);
/* The window's size in the window system's units (what mouse events report). */
xgd_result xgdi_window_size(xgd_device *report, xgdi_window *w, int *width, int *height);
/* Drawable pixels per window unit on each axis (1 where they agree, as on X11; high-DPI SDL
 * windows differ). Never fails: 1, 1 when the window cannot say (e.g. it is gone). */
void xgdi_window_pixel_ratio(xgdi_window *w, double *x, double *y);
/* Makes the window borderless desktop full screen (on) or windowed again (off). SDL2 windows:
 * SDL_SetWindowFullscreen, which changes no display mode; the new size shows in
 * xgdi_window_drawable_size at once and in the window system once the window manager applied
 * it. X11 windows: off is a no-op, on NOT_SUPPORTED (full screen is a request to the window
 * manager that the window's owner makes). On failure the window is as it was. */
xgd_result xgdi_window_set_full_screen(xgd_device *report, xgdi_window *w, bool on);
/* Whether the window is full screen now (false when it cannot say). */
bool xgdi_window_full_screen(xgdi_window *w);
/* Whether the window was found gone by an earlier call. */
bool xgdi_window_lost(const xgdi_window *w);
/* Shows width x height RGBA8 pixels (rows `pitch` bytes apart) at the window's top-left
 * corner, clipped to the window; alpha is ignored. DEVICE_LOST when the window is gone. */
xgd_result xgdi_window_put_rgba(xgd_device *report, xgdi_window *w, const uint8_t *rgba,
                                int width, int height, size_t pitch);

/* For renderers that present through a window-system API of their own (a Vulkan swap chain on
 * an Xlib surface): the X11 display and window of an X11 window, or of an SDL2 window on SDL's
 * X11 video driver. false (and nothing set) for any other window, or one that is gone. */
bool xgdi_window_x11_handles(xgdi_window *w, void **display, unsigned long *window);
/* The same for a DXGI swap chain (Windows builds): the HWND of a Win32 window, or of an SDL2
 * window on SDL's Windows video driver. false for any other window, or one that is gone. */
bool xgdi_window_win32_handle(xgdi_window *w, void **hwnd);
/* Whether the window is an SDL2 window created with SDL_WINDOW_VULKAN: a Vulkan renderer then
 * asks SDL for its surface (xgdi_window_sdl_vulkan_surface), on any SDL video driver. */
bool xgdi_window_sdl_vulkan(xgdi_window *w);
/* SDL_Vulkan_CreateSurface for such a window on `instance` (a VkInstance), whose enabled
 * instance extensions are `enabled`; the VkSurfaceKHR is written to `surface`. NOT_SUPPORTED by
 * name when SDL needs an extension the instance lacks (SDL_Vulkan_GetInstanceExtensions) or
 * SDL's driver makes no surface; DEVICE_LOST when the window is gone. */
xgd_result xgdi_window_sdl_vulkan_surface(xgd_device *report, xgdi_window *w, void *instance,
                                          const char *const *enabled, uint32_t enabled_count,
                                          void *surface);
/* Brackets calls into a library that sends X requests for the window (a Vulkan WSI): X
 * protocol errors between them, a destroyed window's BadWindow included, are recorded instead
 * of reaching Xlib's process-wide handler (whose default exits). end returns the first
 * BadWindow or BadDrawable (the window is gone; other errors are swallowed and give 0; always 0
 * for windows that are not X11). */
void xgdi_window_trap_begin(xgdi_window *w);
int xgdi_window_trap_end(xgdi_window *w);

#endif /* XGD_PLATFORM_WINDOW_H */
