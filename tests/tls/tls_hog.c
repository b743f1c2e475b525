/* tls_hog.c - a shared library of the late-dlopen test (dlopen_late.c) that takes a slice of
 * glibc's static TLS block when it is loaded: its thread-local array uses the initial-exec
 * model, so the library carries DF_STATIC_TLS and a dlopen of it fails once the block's
 * surplus is used up. The test loads copies of it until one fails, which proves the surplus
 * is gone, then loads libxgd.so. */
#define XGD_TLS_HOG_BYTES 64

__attribute__((tls_model("initial-exec"))) static _Thread_local unsigned char
    hog[XGD_TLS_HOG_BYTES];

/* Something that reads the array, so that neither compiler nor linker drops it. */
__attribute__((visibility("default"))) int xgd_tls_hog_touch(int v);
int xgd_tls_hog_touch(int v)
{
    hog[v & (XGD_TLS_HOG_BYTES - 1)]++;
    return hog[0];
}
