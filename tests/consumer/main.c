/* An installed-xgd consumer: one headless frame cleared to CornflowerBlue, a red 2x2 sprite
 * drawn at the top-left through SpriteBatch (so the stock sprite effect loads and runs in every
 * build, with or without MojoShader), read back. */
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
    static const unsigned char red[2 * 2 * 4] = { 255, 0, 0, 255, 255, 0, 0, 255,
                                                  255, 0, 0, 255, 255, 0, 0, 255 };
    xgd_texture *tex = NULL;
    xgd_sprite_batch *sb = NULL;
    xgd_sprite s = XGD_SPRITE_INIT;
    xgd_result r = xgd_clear_color(dev, (xgd_color){ 100, 149, 237, 255 });
    if (r == XGD_OK) r = xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = 2, .height = 2 }, &tex);
    if (r == XGD_OK) r = xgd_texture_set_data(tex, 0, XGD_CUBE_MAP_FACE_POSITIVE_X, NULL, red, sizeof red);
    if (r == XGD_OK) r = xgd_sprite_batch_create(dev, &sb);
    if (r == XGD_OK) r = xgd_sprite_batch_begin(sb, NULL);
    if (r == XGD_OK) r = xgd_sprite_batch_draw(sb, tex, &s);
    if (r == XGD_OK) r = xgd_sprite_batch_end(sb);
    if (r == XGD_OK) r = xgd_present(dev);
    if (r == XGD_OK) r = xgd_get_back_buffer_data(dev, NULL, px, sizeof px);
    if (r != XGD_OK) {
        fprintf(stderr, "%s: %s\n", xgd_result_name(r), xgd_device_last_error(dev));
        xgd_device_destroy(dev);
        return 1;
    }
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
    /* (1,1) is the sprite's last texel, (2,2) the cleared colour beside it */
    const unsigned char *in = px + (1 * 8 + 1) * 4, *out = px + (2 * 8 + 2) * 4;
    if (in[0] != 255 || in[1] != 0 || in[2] != 0 || in[3] != 255) {
        fprintf(stderr, "pixel (1,1) is %u %u %u %u, expected the sprite's 255 0 0 255\n", in[0], in[1],
                in[2], in[3]);
        return 1;
    }
    if (out[0] != 100 || out[1] != 149 || out[2] != 237 || out[3] != 255) {
        fprintf(stderr, "pixel (2,2) is %u %u %u %u, expected 100 149 237 255\n", out[0], out[1], out[2],
                out[3]);
        return 1;
    }
    printf("xgd consumer ok (xgd %d.%d.%d)\n", XGD_VERSION_MAJOR, XGD_VERSION_MINOR,
           XGD_VERSION_PATCH);
    return 0;
}
