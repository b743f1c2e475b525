/*
 * fixture_pipeline_churn.c - a renderer's pipeline cache holds what live shaders can use.
 *
 * The rule (the engineering rules: memory bounded by what a valid result may need): the GPU
 * renderers cache a pipeline (Vulkan) or PSO (Direct3D 12) per shader pair and state; a
 * destroyed shader's entries can never be asked for again (its serial is never reused), so they
 * leave the cache when the shader goes, and are freed once the work that used them is done. A
 * program that makes and destroys two sprite batches every frame (each batch's internal
 * programs are derived effects: one destroyed body a class is kept for the next batch, the
 * other's shaders are destroyed) then reaches a steady cache. Before this rule the cache grew
 * by the second batch's pipelines every frame, for as long as the device lived.
 *
 * Checked: the cache holds no more entries after 40 more frames than after the first 8 (nor
 * the renderer's retire queue, so what left the cache is freed too); what leaves it while the
 * open frame may use it waits for that frame (PipelineCache_EvictedPipelinesWaitForTheOpenFrame); and
 * every frame draws both batches' sprites (the pipelines made after others left work), with
 * blend states that vary by frame so that several pipelines a shader pair come and go.
 */
#include "harness.h"
#include "internal.h"

#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_internal.h"
#endif
#ifdef XGD_TEST_HAVE_D3D12
long xgdt_d3d12_cached_psos(xgd_device *dev); /* pipeline_count_d3d12.c */
#endif

#include <stdlib.h>
#include <string.h>

enum { CW = 16, CH = 8, CHURN_WARM = 8, CHURN_FRAMES = 48 };

/* entries in the renderer's pipeline cache; -1 where it has none */
static long cached_pipelines(xgd_device *dev)
{
#ifdef XGD_TEST_HAVE_VULKAN
    if (dev->ops->kind == XGD_RENDERER_VULKAN) return (long)xvk_cast(dev->renderer)->pipeline_count;
#endif
#ifdef XGD_TEST_HAVE_D3D12
    if (dev->ops->kind == XGD_RENDERER_D3D12) return xgdt_d3d12_cached_psos(dev);
#endif
    (void)dev;
    return -1;
}

/* One frame: two batches made, each drawing the white texture as a 2x2 sprite (the first at
   (1, 1), the second at (9, 1)), both destroyed; then the pixels read. */
static bool churn_frame(xgdt_ctx *t, xgd_device *dev, xgd_texture *white, int frame)
{
    xgd_sprite_batch *sb[2] = { NULL, NULL };
    /* blend states that vary by frame and batch: several pipelines a shader pair, so entries
       leave the cache from within probe clusters (an entry left unreachable there would be
       made again: the cache would grow) */
    static const xgd_blend_preset blends[3] = { XGD_BLEND_PRESET_ALPHA_BLEND,
                                                XGD_BLEND_PRESET_OPAQUE,
                                                XGD_BLEND_PRESET_ADDITIVE };
    bool ok = xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }) == XGD_OK;
    for (int k = 0; k < 2 && ok; k++) {
        xgd_sprite_batch_begin_desc d;
        memset(&d, 0, sizeof d);
        d.blend_state = xgd_blend_state_preset(dev, blends[(frame + k) % 3]);
        ok = xgd_sprite_batch_create(dev, &sb[k]) == XGD_OK &&
             xgd_sprite_batch_begin(sb[k], &d) == XGD_OK &&
             xgd_sprite_batch_draw_at(sb[k], white, (xgd_vector2){ 1.0f + 8.0f * (float)k, 1 },
                                      (xgd_color){ 255, 255, 255, 255 }) == XGD_OK &&
             xgd_sprite_batch_end(sb[k]) == XGD_OK;
    }
    if (!ok) xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: %s", frame, xgd_device_last_error(dev));
    /* destroyed in an order that alternates, so the body kept is now the older one, now the
       newer one, and entries leave from the middle of the cache's probe sequences too */
    xgd_sprite_batch_destroy(sb[frame & 1]);
    xgd_sprite_batch_destroy(sb[1 - (frame & 1)]);
    uint8_t *px = NULL;
    if (!ok || !xgdt_read_back_buffer(t, dev, CW, CH, &px)) return false;
    int lit = 0, want = 0;
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++) {
            const bool inside = y >= 1 && y < 3 && ((x >= 1 && x < 3) || (x >= 9 && x < 11));
            const uint8_t *p = &px[(y * CW + x) * 4];
            want += inside;
            lit += (p[0] == 255 && p[1] == 255 && p[2] == 255) == inside;
        }
    free(px);
    if (lit != CW * CH) {
        xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: %d of %d pixels wrong (%d sprite pixels)",
                     frame, CW * CH - lit, CW * CH, want);
        return false;
    }
    return xgd_present(dev) == XGD_OK;
}

/* A device of the fixture's renderer and a 2x2 white texture; false (reported: not supported
   on a renderer without a pipeline cache or without a device, or a failure) when the fixture
   cannot go on. */
static bool churn_setup(xgdt_ctx *t, xgd_device **dev, xgd_texture **tex)
{
    *dev = xgdt_device_on(t, t->renderer, CW, CH);
    if (*dev == NULL) return false; /* reported by xgdt_device_on */
    if (cached_pipelines(*dev) < 0) {
        xgd_device_destroy(*dev);
        xgdt_not_supported(t, "the software renderer caches no pipelines");
        return false;
    }
    uint8_t white[2 * 2 * 4];
    memset(white, 255, sizeof white);
    *tex = xgdt_image_texture(t, *dev, 2, 2, white);
    if (*tex == NULL) {
        xgd_device_destroy(*dev);
        return false; /* xgdt_image_texture reported it */
    }
    return true;
}

XGD_FIXTURE(PipelineCache_ShaderChurnReachesSteadyState)
{
    xgd_device *dev = NULL;
    xgd_texture *tex = NULL;
    if (!churn_setup(t, &dev, &tex)) return;
    long warm = -1;
    size_t warm_retired = 0;
    for (int i = 0; i < CHURN_FRAMES; i++) {
        if (!churn_frame(t, dev, tex, i)) break;
#ifdef XGD_TEST_HAVE_VULKAN
        /* the table the entries left stays a table: each entry found from its hash's slot */
        const xvk_renderer *vr =
            dev->ops->kind == XGD_RENDERER_VULKAN ? xvk_cast(dev->renderer) : NULL;
        if (vr != NULL && xvk_pipeline_table_reachable(vr->pipelines, vr->pipeline_capacity) !=
                              vr->pipeline_count) {
            xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: a cached pipeline is unreachable", i);
            break;
        }
#endif
        if (i + 1 == CHURN_WARM) {
            warm = cached_pipelines(dev);
            warm_retired = dev->renderer->retired.count;
        }
    }
    const long late = cached_pipelines(dev);
    CHECK_MSG(warm >= 0 && late <= warm,
              "%ld cached pipelines after %d frames, %ld after %d: the cache grows with "
              "destroyed shaders", warm, CHURN_WARM, late, CHURN_FRAMES);
    /* and what left the cache is freed: the retire queue does not grow either (each frame's
       readback waited for the GPU, so what the frames retired is due) */
    CHECK_MSG(dev->renderer->retired.count <= warm_retired,
              "%zu objects waiting in the retire queue after %d frames, %zu after %d",
              warm_retired, CHURN_WARM, dev->renderer->retired.count, CHURN_FRAMES);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* What leaves the cache while the open frame may still use it waits for that frame: the
 * entries a destroyed shader's pipelines are retired with name a fence after every submitted
 * one, so collecting everything the GPU has completed (all of it: the frame is recorded after a
 * readback waited) frees none of them, and the frame then draws with them. (A pipeline freed one
 * submission early is freed while the open frame's commands name it: Vulkan's validation layer
 * reports that, vkd3d does not, so this reads the queue.) */
XGD_FIXTURE(PipelineCache_EvictedPipelinesWaitForTheOpenFrame)
{
    xgd_device *dev = NULL;
    xgd_texture *tex = NULL;
    if (!churn_setup(t, &dev, &tex)) return;
    /* a frame as in the churn test (its batches' programs made once), then a wait for all of it */
    REQUIRE(churn_frame(t, dev, tex, 0));
    uint8_t *px = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, CW, CH, &px));
    free(px);
    px = NULL;
    xgdi_renderer *r = dev->renderer;
    const uint64_t waited = r->submitted_fence;
    /* the open frame: two batches drawn, then destroyed before anything is submitted */
    xgd_sprite_batch *sb[2] = { NULL, NULL };
    REQUIRE_OK(xgd_clear_color(dev, (xgd_color){ 0, 0, 0, 255 }));
    for (int k = 0; k < 2; k++) {
        xgd_sprite_batch_begin_desc d;
        memset(&d, 0, sizeof d);
        d.blend_state = xgd_blend_state_preset(dev, XGD_BLEND_PRESET_OPAQUE);
        REQUIRE_OK(xgd_sprite_batch_create(dev, &sb[k]));
        REQUIRE_OK(xgd_sprite_batch_begin(sb[k], &d));
        REQUIRE_OK(xgd_sprite_batch_draw_at(sb[k], tex, (xgd_vector2){ 1.0f + 8.0f * (float)k, 1 },
                                            (xgd_color){ 255, 255, 255, 255 }));
        REQUIRE_OK(xgd_sprite_batch_end(sb[k]));
    }
    const size_t before = r->retired.count;
    const uint64_t submitted = r->submitted_fence;
    xgd_sprite_batch_destroy(sb[0]);
    xgd_sprite_batch_destroy(sb[1]);
    const size_t after = r->retired.count;
    CHECK_MSG(after > before, "destroying the batches retired nothing (%zu entries)", after);
    for (size_t i = before; i < after; i++)
        CHECK_MSG(r->retired.items[i].fence > submitted,
                  "entry %zu retired for fence %llu, which the submitted work (up to %llu) "
                  "reaches before the open frame's", i,
                  (unsigned long long)r->retired.items[i].fence, (unsigned long long)submitted);
    /* nothing was submitted since the wait (the open frame holds the two batches' draws), so
       everything submitted has completed: collecting it must keep the new entries */
    CHECK_MSG(submitted == waited, "work was submitted after the wait (fence %llu, then %llu)",
              (unsigned long long)waited, (unsigned long long)submitted);
    if (submitted == waited) {
        size_t pending = 0;
        for (size_t i = 0; i < r->retired.count; i++) pending += r->retired.items[i].fence > submitted;
        (void)xgdi_retire_collect(&r->retired, r, submitted);
        CHECK_MSG(r->retired.count == pending,
                  "%zu entries left after collecting the completed fences, want the %zu the "
                  "open frame holds", r->retired.count, pending);
    }
    /* and the frame draws with them: both sprites white, the rest black */
    REQUIRE(xgdt_read_back_buffer(t, dev, CW, CH, &px));
    int wrong = 0;
    for (int y = 0; y < CH; y++)
        for (int x = 0; x < CW; x++) {
            const bool inside = y >= 1 && y < 3 && ((x >= 1 && x < 3) || (x >= 9 && x < 11));
            const uint8_t *p = &px[(y * CW + x) * 4];
            wrong += (p[0] == 255 && p[1] == 255 && p[2] == 255) != inside;
        }
    CHECK_MSG(wrong == 0, "%d of %d pixels wrong", wrong, CW * CH);
    free(px);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

/* The Vulkan pipeline table's deletion on a table made to collide: 8 slots, entries whose homes
 * crowd a few slots and wrap past the end. Each removal, in every order over a full cluster,
 * keeps every other entry reachable from its home (a lookup would otherwise make it again). */
XGD_TEST(VkPipelineTable_RemovalKeepsEntriesReachable)
{
#ifndef XGD_TEST_HAVE_VULKAN
    xgdt_not_supported(t, "built without the Vulkan renderer");
#else
    enum { CAP = 8, N = 6 };
    /* homes: 6, 6, 7, 0, 6, 1 -> placed 6, 7, 0, 1, 2, 3 (inserted in this order) */
    const uint64_t homes[N] = { 6, 6 + 8, 7, 0, 6 + 16, 1 };
    for (int first = 0; first < N; first++) {
        for (int second = 0; second < N; second++) {
            if (second == first) continue;
            xvk_pipeline_entry tab[CAP];
            memset(tab, 0, sizeof tab);
            for (int k = 0; k < N; k++) {
                size_t j = (size_t)homes[k] & (CAP - 1);
                while (tab[j].pipeline) j = (j + 1) & (CAP - 1);
                tab[j].hash = homes[k];
                tab[j].pipeline = (VkPipeline)(uintptr_t)(k + 1);
            }
            REQUIRE(xvk_pipeline_table_reachable(tab, CAP) == N);
            const int gone[2] = { first, second };
            for (int g = 0; g < 2; g++) {
                size_t at = CAP;
                for (size_t j = 0; j < CAP; j++)
                    if (tab[j].pipeline == (VkPipeline)(uintptr_t)(gone[g] + 1)) at = j;
                REQUIRE(at < CAP);
                xvk_pipeline_table_remove(tab, CAP, at);
                CHECK_MSG(xvk_pipeline_table_reachable(tab, CAP) == (size_t)(N - 1 - g),
                          "entries %d then %d removed: after %d, an entry is unreachable or "
                          "lost", first, second, g + 1);
            }
            /* the survivors are the other entries, each once */
            int seen = 0;
            for (size_t j = 0; j < CAP; j++) {
                if (!tab[j].pipeline) continue;
                const int k = (int)(uintptr_t)tab[j].pipeline - 1;
                CHECK(k != first && k != second && (seen & (1 << k)) == 0);
                seen |= 1 << k;
            }
        }
    }
#endif
}
