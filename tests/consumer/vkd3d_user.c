/*
 * A program that uses vkd3d itself next to a statically linked xgd. It defines the Direct3D 12
 * interface IDs the way vkd3d's own demos do (INITGUID before the headers, in one file), so it
 * links only when libxgd.a exports nothing but xgd_* names; then it creates its own Direct3D
 * 12 device through vkd3d-utils (where a Vulkan device exists) and draws one xgd frame.
 */
#define INITGUID
#define COBJMACROS
#include <vkd3d_utils.h>
#include <xgd.h>

#include <stdio.h>

int main(void)
{
    ID3D12Device *own = NULL;
    HRESULT hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&own);
    if (SUCCEEDED(hr)) ID3D12Device_Release(own);

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
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
    xgd_device_destroy(dev);
    if (r != XGD_OK || px[0] != 100 || px[1] != 149 || px[2] != 237 || px[3] != 255) {
        fprintf(stderr, "xgd clear/readback failed (%s)\n", xgd_result_name(r));
        return 1;
    }
    printf("xgd vkd3d consumer ok (its own Direct3D 12 device: %s)\n",
           SUCCEEDED(hr) ? "created" : "none here");
    return 0;
}
