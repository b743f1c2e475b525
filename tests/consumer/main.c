/* An installed-xgd consumer: one headless frame cleared to CornflowerBlue, read back. */
#include <xgd.h>

#include <stdio.h>

int main(void)
{
    xgd_device_desc dd = { .renderer = XGD_RENDERER_SOFTWARE,
                           .pp = { .back_buffer_width = 8, .back_buffer_height = 8,
                                   .headless = true },
                           .context_recovery = true };
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        fprintf(stderr, "xgd_device_create: %s\n", xgd_device_last_error(NULL));
        return 1;
    }
    unsigned char px[8 * 8 * 4];
    xgd_result r = xgd_clear_color(dev, (xgd_color){ 100, 149, 237, 255 });
    if (r == XGD_OK) r = xgd_present(dev);
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
    if (r != XGD_OK) {
        fprintf(stderr, "%s: %s\n", xgd_result_name(r), xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return 1;
    }
    xgd_device_destroy(dev);
    if (px[0] != 100 || px[1] != 149 || px[2] != 237 || px[3] != 255) {
        fprintf(stderr, "pixel (0,0) is %u %u %u %u, expected 100 149 237 255\n", px[0], px[1],
                px[2], px[3]);
        return 1;
    }
    printf("xgd consumer ok (xgd %d.%d.%d)\n", XGD_VERSION_MAJOR, XGD_VERSION_MINOR,
           XGD_VERSION_PATCH);
    return 0;
}
