/*
 * dxgi_window.c - a Windows program (built by .ci/windows-cross.sh) that presents to real Win32
 * windows and reads what the screen shows back with GDI (GetPixel on the screen's DC), never
 * through xgd's own readback:
 *   - Direct3D 12 through the DXGI flip-model swap chain: a letterboxed logical canvas on
 *     three consecutive frames (geometry drawn on every frame), a resize followed by Reset,
 *     every present interval (Immediate takes the tearing rule's path), a destroyed window
 *     (Present: DEVICE_LOST by name, window_lost) and Reset onto a new window;
 *   - the software renderer on a Win32 window (GDI);
 *   - bad handles: a NULL or destroyed HWND is INVALID_ARGUMENT, full screen NOT_SUPPORTED.
 * The expected pixels follow spec 002's letterbox rule, computed here. Exit 0 and
 * "xgd dxgi window ok" when everything holds, 77 when no Direct3D 12 device exists, else 1.
 * Under Wine (Xvfb, Vulkan through lavapipe) the same program runs on Linux.
 */
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#include <xgd.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                                     \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            failures++;                                                                      \
            fprintf(stderr, "dxgi_window.c:%d: %s: ", __LINE__, #cond);                      \
            fprintf(stderr, __VA_ARGS__);                                                    \
            fprintf(stderr, "\n");                                                           \
        }                                                                                    \
    } while (0)

static LRESULT CALLBACK proc(HWND hwnd, UINT msg, WPARAM wp, LPARAM lp)
{
    if (msg == WM_ERASEBKGND) return 1; /* the frames paint it */
    return DefWindowProcW(hwnd, msg, wp, lp);
}

static void pump(void)
{
    MSG m;
    while (PeekMessageW(&m, NULL, 0, 0, PM_REMOVE)) {
        TranslateMessage(&m);
        DispatchMessageW(&m);
    }
}

/* A borderless window whose client area is the screen's (0,0) .. (w,h), on top. */
static HWND make_window(int w, int h)
{
    HWND hwnd = CreateWindowExW(WS_EX_TOPMOST, L"xgd-dxgi-test", L"xgd dxgi", WS_POPUP | WS_VISIBLE,
                                0, 0, w, h, NULL, NULL, GetModuleHandleW(NULL), NULL);
    if (hwnd != NULL) {
        UpdateWindow(hwnd);
        pump();
    }
    return hwnd;
}

static const xgd_color RED = { 230, 30, 20, 255 }, GREEN = { 20, 220, 40, 255 },
                       BLUE = { 30, 40, 230, 255 }, GREY = { 60, 60, 70, 255 },
                       TEAL = { 10, 70, 80, 255 }, PLUM = { 90, 20, 60, 255 };

/* Letterbox (spec 002): the V x V logical canvas scaled by the smaller of W/V, H/V, centred;
 * a logical rectangle [a, b) on both axes lands at these physical edges. */
typedef struct box { double x0, y0, x1, y1; } box;
static box letterbox(int W, int H, int V, double a, double b)
{
    double s = fmin((double)W / V, (double)H / V);
    double rw = floor(V * s + 0.5), rh = floor(V * s + 0.5);
    double rx = floor((W - rw) / 2), ry = floor((H - rh) / 2);
    box r = { rx + a * rw / V, ry + a * rh / V, rx + b * rw / V, ry + b * rh / V };
    return r;
}

static xgd_vertex_position_color vpc(double px, double py, int w, int h, xgd_color c)
{
    xgd_vertex_position_color v;
    v.position.x = (float)(px * 2.0 / w - 1.0);
    v.position.y = (float)(1.0 - py * 2.0 / h);
    v.position.z = 0.0f;
    v.color = c;
    return v;
}

/* Clears, draws the logical rectangle [a, b)^2 in `fill` through the viewport and presents. */
static xgd_result frame(xgd_device *dev, xgd_effect *fx, xgd_color clear, xgd_color fill, double a,
                        double b)
{
    xgd_result r = xgd_clear_color(dev, clear);
    xgd_viewport vp;
    if (r == XGD_OK) r = xgd_get_viewport(dev, &vp);
    if (r == XGD_OK) r = xgd_effect_apply(fx);
    if (r == XGD_OK) {
        xgd_vertex_position_color v[6] = {
            vpc(a, a, vp.width, vp.height, fill), vpc(b, a, vp.width, vp.height, fill),
            vpc(b, b, vp.width, vp.height, fill), vpc(a, a, vp.width, vp.height, fill),
            vpc(b, b, vp.width, vp.height, fill), vpc(a, b, vp.width, vp.height, fill)
        };
        r = xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, v, 0, 2,
                                     xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR));
    }
    if (r == XGD_OK) r = xgd_present(dev);
    return r;
}

static bool close_to(COLORREF c, xgd_color e)
{
    return abs((int)GetRValue(c) - e.r) <= 2 && abs((int)GetGValue(c) - e.g) <= 2 &&
           abs((int)GetBValue(c) - e.b) <= 2;
}

/* What the screen shows, sampled two pixels inside and outside each edge of the rectangle the
 * rule gives, and in both bars: the rectangle's colour inside, the clear colour elsewhere.
 * Presentation is asynchronous, so the screen is polled for up to five seconds. */
static bool screen_shows(const char *label, int W, int H, int V, double a, double b, xgd_color clear,
                         xgd_color fill)
{
    box r = letterbox(W, H, V, a, b);
    box canvas = letterbox(W, H, V, 0, V);
    double cx = (r.x0 + r.x1) / 2, cy = (r.y0 + r.y1) / 2;
    struct { int x, y; xgd_color c; } s[] = {
        { (int)r.x0 + 2, (int)cy, fill }, { (int)r.x0 - 3, (int)cy, clear },
        { (int)r.x1 - 3, (int)cy, fill }, { (int)r.x1 + 2, (int)cy, clear },
        { (int)cx, (int)r.y0 + 2, fill }, { (int)cx, (int)r.y0 - 3, clear },
        { (int)cx, (int)r.y1 - 3, fill }, { (int)cx, (int)r.y1 + 2, clear },
        { 1, H / 2, clear }, { W - 2, H / 2, clear },
        { (int)canvas.x0 + 2, (int)canvas.y0 + 2, clear },
    };
    int n = (int)(sizeof s / sizeof s[0]), bad = 0;
    COLORREF got[16];
    for (int attempt = 0; attempt < 50; attempt++) {
        pump();
        HDC dc = GetDC(NULL);
        bad = 0;
        for (int i = 0; i < n; i++) {
            got[i] = GetPixel(dc, s[i].x, s[i].y);
            if (!close_to(got[i], s[i].c)) bad++;
        }
        ReleaseDC(NULL, dc);
        if (bad == 0) return true;
        Sleep(100);
    }
    for (int i = 0; i < n; i++)
        if (!close_to(got[i], s[i].c))
            fprintf(stderr, "%s: screen (%d,%d) is %d,%d,%d, expected %d,%d,%d\n", label, s[i].x,
                    s[i].y, GetRValue(got[i]), GetGValue(got[i]), GetBValue(got[i]), s[i].c.r,
                    s[i].c.g, s[i].c.b);
    return false;
}

static xgd_effect *vertex_color_effect(xgd_device *dev)
{
    xgd_effect *fx = NULL;
    if (xgd_basic_effect_create(dev, &fx) != XGD_OK) return NULL;
    xgd_basic_effect_params p;
    xgd_basic_effect_get(fx, &p);
    p.vertex_color_enabled = true;
    if (xgd_basic_effect_set(fx, &p) != XGD_OK) {
        xgd_effect_destroy(fx);
        return NULL;
    }
    return fx;
}

static xgd_device_desc window_desc(xgd_renderer_kind renderer, HWND hwnd, int V)
{
    xgd_device_desc d = XGD_DEVICE_DESC_DEFAULT;
    d.renderer = renderer;
    d.pixel_center = XGD_PIXEL_CENTER_D3D10;
    d.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    d.pp.presentation_mode = XGD_PRESENTATION_MODE_LETTERBOX;
    d.pp.virtual_width = V;
    d.pp.virtual_height = V;
    d.pp.window.kind = XGD_WINDOW_WIN32;
    d.pp.window.hwnd = hwnd;
    return d;
}

/* Direct3D 12 through DXGI. Returns 77 when no Direct3D 12 device exists. */
static int test_d3d12(void)
{
    enum { W = 160, H = 120, V = 80 };
    HWND hwnd = make_window(W, H);
    CHECK(hwnd != NULL, "CreateWindowExW failed (%lu)", (unsigned long)GetLastError());
    if (hwnd == NULL) return 1;
    xgd_device_desc d = window_desc(XGD_RENDERER_D3D12, hwnd, V);
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    if (r != XGD_OK) {
        fprintf(stderr, "xgd_device_create(d3d12, Win32 window): %s: %s\n", xgd_result_name(r),
                xgd_device_last_error(NULL));
        DestroyWindow(hwnd);
        if (r == XGD_ERROR_NOT_SUPPORTED && strstr(xgd_device_last_error(NULL), "feature level"))
            return 77; /* no Direct3D 12 device at all */
        failures++;
        return 1;
    }
    xgd_device_info info;
    CHECK(xgd_device_get_info(dev, &info) == XGD_OK && info.pp.back_buffer_width == W &&
              info.pp.back_buffer_height == H,
          "back buffer %dx%d, expected the client area %dx%d", info.pp.back_buffer_width,
          info.pp.back_buffer_height, W, H);
    xgd_effect *fx = vertex_color_effect(dev);
    CHECK(fx != NULL, "BasicEffect: %s", xgd_device_last_error(dev));
    if (fx == NULL) {
        xgd_device_destroy(dev);
        return 1;
    }

    /* consecutive frames, each with geometry (flip-model rebinding) */
    const xgd_color clears[3] = { GREY, TEAL, PLUM }, fills[3] = { RED, GREEN, BLUE };
    for (int i = 0; i < 3; i++) {
        double a = 20 + 4 * i, b = 60 - 2 * i;
        r = frame(dev, fx, clears[i], fills[i], a, b);
        CHECK(r == XGD_OK, "frame %d: %s: %s", i, xgd_result_name(r), xgd_device_last_error(dev));
        char label[32];
        snprintf(label, sizeof label, "d3d12 frame %d", i);
        CHECK(screen_shows(label, W, H, V, a, b, clears[i], fills[i]), "%s differs", label);
    }

    /* a resize, followed by Reset: the swap chain takes the new client size */
    enum { W2 = 200, H2 = 100 };
    SetWindowPos(hwnd, NULL, 0, 0, W2, H2, SWP_NOZORDER | SWP_NOMOVE);
    pump();
    r = xgd_device_reset(dev, NULL);
    CHECK(r == XGD_OK, "Reset after the resize: %s: %s", xgd_result_name(r),
          xgd_device_last_error(dev));
    CHECK(xgd_device_get_info(dev, &info) == XGD_OK && info.pp.back_buffer_width == W2 &&
              info.pp.back_buffer_height == H2,
          "back buffer %dx%d after the resize, expected %dx%d", info.pp.back_buffer_width,
          info.pp.back_buffer_height, W2, H2);
    r = frame(dev, fx, GREY, RED, 20, 60);
    CHECK(r == XGD_OK, "frame after the resize: %s: %s", xgd_result_name(r),
          xgd_device_last_error(dev));
    CHECK(screen_shows("d3d12 resized", W2, H2, V, 20, 60, GREY, RED), "the resized frame differs");

    /* every present interval presents (Immediate: the tearing rule's interval 0) */
    const xgd_present_interval intervals[3] = { XGD_PRESENT_INTERVAL_IMMEDIATE,
                                                XGD_PRESENT_INTERVAL_TWO,
                                                XGD_PRESENT_INTERVAL_ONE };
    for (int i = 0; i < 3; i++) {
        xgd_presentation_parameters pp = info.pp;
        pp.present_interval = intervals[i];
        r = xgd_device_reset(dev, &pp);
        if (r == XGD_OK) r = frame(dev, fx, TEAL, fills[i], 10, 70);
        CHECK(r == XGD_OK, "present interval %d: %s: %s", (int)intervals[i], xgd_result_name(r),
              xgd_device_last_error(dev));
        CHECK(screen_shows("d3d12 interval", W2, H2, V, 10, 70, TEAL, fills[i]),
              "the frame with present interval %d differs", (int)intervals[i]);
    }

    /* full screen is the window owner's */
    xgd_presentation_parameters fs = info.pp;
    fs.is_full_screen = true;
    r = xgd_device_reset(dev, &fs);
    CHECK(r == XGD_ERROR_NOT_SUPPORTED, "Reset with is_full_screen on a Win32 window: %s",
          xgd_result_name(r));

    /* the window destroyed under the device: a named error, then Reset onto a new window */
    DestroyWindow(hwnd);
    pump();
    r = frame(dev, fx, GREY, RED, 20, 60);
    CHECK(r == XGD_ERROR_DEVICE_LOST, "Present to a destroyed window: %s", xgd_result_name(r));
    CHECK(strstr(xgd_device_last_error(dev), "gone") != NULL, "message: %s",
          xgd_device_last_error(dev));
    CHECK(xgd_device_get_info(dev, &info) == XGD_OK && info.window_lost, "window_lost not set");
    r = frame(dev, fx, GREY, RED, 20, 60);
    CHECK(r == XGD_ERROR_DEVICE_LOST, "a second Present to the destroyed window: %s",
          xgd_result_name(r));
    HWND again = make_window(W, H);
    xgd_presentation_parameters pp = info.pp;
    pp.window.hwnd = again;
    r = xgd_device_reset(dev, &pp);
    CHECK(r == XGD_OK, "Reset onto a new window: %s: %s", xgd_result_name(r),
          xgd_device_last_error(dev));
    r = frame(dev, fx, PLUM, GREEN, 16, 64);
    CHECK(r == XGD_OK, "frame on the new window: %s: %s", xgd_result_name(r),
          xgd_device_last_error(dev));
    CHECK(screen_shows("d3d12 new window", W, H, V, 16, 64, PLUM, GREEN),
          "the new window's frame differs");
    CHECK(xgd_device_get_info(dev, &info) == XGD_OK && !info.window_lost,
          "window_lost still set after the Reset");
    xgd_effect_destroy(fx);
    xgd_device_destroy(dev);
    DestroyWindow(again);
    pump();
    return 0;
}

static void test_software(void)
{
    enum { W = 120, H = 90, V = 60 };
    HWND hwnd = make_window(W, H);
    xgd_device_desc d = window_desc(XGD_RENDERER_SOFTWARE, hwnd, V);
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    CHECK(r == XGD_OK, "xgd_device_create(software, Win32 window): %s: %s", xgd_result_name(r),
          xgd_device_last_error(NULL));
    xgd_effect *fx = dev != NULL ? vertex_color_effect(dev) : NULL;
    if (fx != NULL) {
        for (int i = 0; i < 2; i++) {
            r = frame(dev, fx, i ? TEAL : GREY, i ? BLUE : RED, 10 + i * 5, 40);
            CHECK(r == XGD_OK, "software frame %d: %s", i, xgd_result_name(r));
            CHECK(screen_shows("software", W, H, V, 10 + i * 5, 40, i ? TEAL : GREY,
                               i ? BLUE : RED),
                  "software frame %d differs", i);
        }
        xgd_effect_destroy(fx);
    }
    xgd_device_destroy(dev);
    DestroyWindow(hwnd);
    pump();
}

static void test_bad_handles(void)
{
    xgd_device_desc d = window_desc(XGD_RENDERER_SOFTWARE, NULL, 0);
    d.pp.presentation_mode = XGD_PRESENTATION_MODE_DEFAULT;
    xgd_device *dev = NULL;
    xgd_result r = xgd_device_create(&d, &dev);
    CHECK(r == XGD_ERROR_INVALID_ARGUMENT && dev == NULL, "NULL hwnd: %s", xgd_result_name(r));
    HWND gone = make_window(32, 32);
    DestroyWindow(gone);
    pump();
    d.pp.window.hwnd = gone;
    r = xgd_device_create(&d, &dev);
    CHECK(r == XGD_ERROR_INVALID_ARGUMENT && dev == NULL, "destroyed hwnd: %s (%s)",
          xgd_result_name(r), xgd_device_last_error(NULL));
}

int main(void)
{
    WNDCLASSW wc;
    memset(&wc, 0, sizeof wc);
    wc.lpfnWndProc = proc;
    wc.hInstance = GetModuleHandleW(NULL);
    wc.lpszClassName = L"xgd-dxgi-test";
    wc.hCursor = LoadCursor(NULL, IDC_ARROW);
    if (!RegisterClassW(&wc)) {
        fprintf(stderr, "RegisterClassW failed (%lu)\n", (unsigned long)GetLastError());
        return 1;
    }
    test_bad_handles();
    test_software();
    int rc = test_d3d12();
    if (failures != 0) {
        fprintf(stderr, "dxgi_window: %d check(s) failed\n", failures);
        return 1;
    }
    if (rc == 77) {
        printf("xgd dxgi window: NOT SUPPORTED (no Direct3D 12 device; software checked)\n");
        return 77;
    }
    printf("xgd dxgi window ok\n");
    return 0;
}
