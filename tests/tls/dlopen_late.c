/* dlopen_late.c - libxgd.so must load with dlopen() after other libraries have used up the
 * surplus of glibc's static TLS block, and SpriteBatch Draw must then work, on the thread that
 * loaded it and on a thread started afterwards. A library built with the initial-exec TLS
 * model (DF_STATIC_TLS) fails that dlopen with "cannot allocate memory in static TLS block";
 * xgd reads its thread-local variables through TLS descriptors or __tls_get_addr, which fall
 * back to dynamically allocated TLS (CMakeLists.txt, sprite_batch.c's draw_memo).
 *
 *   xgd-dlopen-late LIBXGD TLS_HOG
 *
 * TLS_HOG is tls_hog.c's library (64 bytes of initial-exec TLS). Copies of it, each under its
 * own name so the loader maps each anew, are dlopen()ed until one fails for lack of static TLS:
 * then the surplus is provably gone, whatever its size on this glibc. Exit 0: libxgd.so loaded
 * and drew; 1: it did not; 77 (ctest: skipped): the surplus could not be used up this way, so
 * the test proves nothing here and says so. */
#define _POSIX_C_SOURCE 200809L
#include <xgd.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_HOGS 1024 /* 64 KiB of static TLS: far above glibc's default surplus */
#define SPRITES 1000  /* Draws per frame: all but the first take Draw's memo path */

/* The public functions the test calls, looked up with dlsym. */
static struct {
    xgd_result (*device_create)(const xgd_device_desc *, xgd_device **);
    void (*device_destroy)(xgd_device *);
    const char *(*device_last_error)(const xgd_device *);
    const char *(*result_name)(xgd_result);
    xgd_result (*clear_color)(xgd_device *, xgd_color);
    xgd_result (*texture2d_create)(xgd_device *, const xgd_texture2d_desc *, xgd_texture **);
    xgd_result (*texture_set_data)(xgd_texture *, int, xgd_cube_map_face, const xgd_rect *,
                                   const void *, size_t);
    void (*texture_destroy)(xgd_texture *);
    xgd_result (*sprite_batch_create)(xgd_device *, xgd_sprite_batch **);
    void (*sprite_batch_destroy)(xgd_sprite_batch *);
    xgd_result (*sprite_batch_begin)(xgd_sprite_batch *, const xgd_sprite_batch_begin_desc *);
    xgd_result (*sprite_batch_draw)(xgd_sprite_batch *, xgd_texture *, const xgd_sprite *);
    xgd_result (*sprite_batch_end)(xgd_sprite_batch *);
    xgd_result (*present)(xgd_device *);
    xgd_result (*get_back_buffer_data)(xgd_device *, const xgd_rect *, void *, size_t);
} api;

/* dlsym's object pointer into a function pointer: ISO C has no such conversion, so the bytes
   are copied (POSIX guarantees they are the function's address). */
#define LOOKUP(lib, field, name)                                                                 \
    do {                                                                                         \
        void *sym_ = dlsym((lib), (name));                                                       \
        if (sym_ == NULL) {                                                                      \
            fprintf(stderr, "dlsym(%s): %s\n", (name), dlerror());                               \
            return 0;                                                                            \
        }                                                                                        \
        memcpy(&api.field, &sym_, sizeof api.field);                                             \
    } while (0)

static int lookup_api(void *lib)
{
    LOOKUP(lib, device_create, "xgd_device_create");
    LOOKUP(lib, device_destroy, "xgd_device_destroy");
    LOOKUP(lib, device_last_error, "xgd_device_last_error");
    LOOKUP(lib, result_name, "xgd_result_name");
    LOOKUP(lib, clear_color, "xgd_clear_color");
    LOOKUP(lib, texture2d_create, "xgd_texture2d_create");
    LOOKUP(lib, texture_set_data, "xgd_texture_set_data");
    LOOKUP(lib, texture_destroy, "xgd_texture_destroy");
    LOOKUP(lib, sprite_batch_create, "xgd_sprite_batch_create");
    LOOKUP(lib, sprite_batch_destroy, "xgd_sprite_batch_destroy");
    LOOKUP(lib, sprite_batch_begin, "xgd_sprite_batch_begin");
    LOOKUP(lib, sprite_batch_draw, "xgd_sprite_batch_draw");
    LOOKUP(lib, sprite_batch_end, "xgd_sprite_batch_end");
    LOOKUP(lib, present, "xgd_present");
    LOOKUP(lib, get_back_buffer_data, "xgd_get_back_buffer_data");
    return 1;
}

/* One headless software frame: cleared to CornflowerBlue, a red 2x2 texture drawn SPRITES
   times at the top-left through one SpriteBatch, read back and checked. 1 on success. */
static int draw_frame(const char *who)
{
    xgd_device_desc dd = { .renderer = XGD_RENDERER_SOFTWARE,
                           .pp = { .back_buffer_width = 8, .back_buffer_height = 8,
                                   .headless = true } };
    xgd_device *dev = NULL;
    if (api.device_create(&dd, &dev) != XGD_OK) {
        fprintf(stderr, "%s: xgd_device_create: %s\n", who, api.device_last_error(NULL));
        return 0;
    }
    static const unsigned char red[2 * 2 * 4] = { 255, 0, 0, 255, 255, 0, 0, 255,
                                                  255, 0, 0, 255, 255, 0, 0, 255 };
    unsigned char px[8 * 8 * 4];
    xgd_texture *tex = NULL;
    xgd_sprite_batch *sb = NULL;
    xgd_sprite s = XGD_SPRITE_INIT;
    xgd_result r = api.clear_color(dev, (xgd_color){ 100, 149, 237, 255 });
    if (r == XGD_OK)
        r = api.texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex);
    if (r == XGD_OK)
        r = api.texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, red, sizeof red);
    if (r == XGD_OK) r = api.sprite_batch_create(dev, &sb);
    if (r == XGD_OK) r = api.sprite_batch_begin(sb, NULL);
    for (int i = 0; i < SPRITES && r == XGD_OK; i++) r = api.sprite_batch_draw(sb, tex, &s);
    if (r == XGD_OK) r = api.sprite_batch_end(sb);
    if (r == XGD_OK) r = api.present(dev);
    if (r == XGD_OK) r = api.get_back_buffer_data(dev, NULL, px, sizeof px);
    if (r != XGD_OK)
        fprintf(stderr, "%s: %s: %s\n", who, api.result_name(r), api.device_last_error(dev));
    api.sprite_batch_destroy(sb);
    api.texture_destroy(tex);
    api.device_destroy(dev);
    if (r != XGD_OK) return 0;
    /* (1,1) is the sprite's last texel, (2,2) the cleared colour beside it */
    const unsigned char *in = px + (1 * 8 + 1) * 4, *out = px + (2 * 8 + 2) * 4;
    if (in[0] != 255 || in[1] != 0 || in[2] != 0 || in[3] != 255 || out[0] != 100 ||
        out[1] != 149 || out[2] != 237 || out[3] != 255) {
        fprintf(stderr, "%s: pixels (1,1) %u %u %u %u and (2,2) %u %u %u %u, expected "
                        "255 0 0 255 and 100 149 237 255\n",
                who, in[0], in[1], in[2], in[3], out[0], out[1], out[2], out[3]);
        return 0;
    }
    return 1;
}

static void *thread_main(void *arg)
{
    *(int *)arg = draw_frame("second thread");
    return NULL;
}

static int copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb");
    if (in == NULL) return 0;
    FILE *out = fopen(to, "wb");
    int ok = out != NULL;
    char buf[1 << 14];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0) ok = fwrite(buf, 1, n, out) == n;
    if (ferror(in)) ok = 0;
    fclose(in);
    if (out != NULL && fclose(out) != 0) ok = 0;
    return ok;
}

/* dlopen()s copies of the hog until one fails for lack of static TLS: 1 when that happened,
   0 when MAX_HOGS loaded (77 for the caller), -1 on another failure. The handles stay open:
   their TLS must stay taken. */
static int use_up_static_tls(const char *hog)
{
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/xgd-dlopen-late-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        return -1;
    }
    int result = 0;
    for (int i = 0; i < MAX_HOGS && result == 0; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/hog-%d.so", dir, i);
        if (!copy_file(hog, path)) {
            fprintf(stderr, "copying %s to %s failed\n", hog, path);
            result = -1;
            break;
        }
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        unlink(path); /* the mapping stays */
        if (h != NULL) continue;
        const char *err = dlerror();
        if (err != NULL && strstr(err, "static TLS") != NULL) {
            printf("static TLS surplus used up after %d copies of the hog (%s)\n", i, err);
            fflush(stdout);
            result = 1;
        } else {
            fprintf(stderr, "dlopen(%s): %s\n", path, err != NULL ? err : "(no message)");
            result = -1;
        }
    }
    rmdir(dir);
    return result;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s LIBXGD TLS_HOG\n", argv[0]);
        return 1;
    }
    int used_up = use_up_static_tls(argv[2]);
    if (used_up < 0) return 1;
    if (used_up == 0) {
        printf("NOT SUPPORTED: %d copies of the hog loaded without using up the static TLS "
               "block, so a late dlopen cannot be tested here\n", MAX_HOGS);
        return 77;
    }
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        fprintf(stderr, "late dlopen(%s) failed: %s\n", argv[1], dlerror());
        return 1;
    }
    if (!lookup_api(lib)) return 1;
    if (!draw_frame("loading thread")) return 1;
    pthread_t t;
    int ok = 0;
    if (pthread_create(&t, NULL, thread_main, &ok) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    pthread_join(t, NULL);
    if (!ok) return 1;
    printf("libxgd.so loaded late and drew %d sprites on two threads\n", SPRITES);
    return 0;
}
