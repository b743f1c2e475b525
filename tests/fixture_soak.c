/*
 * fixture_soak.c - thousands of frames of create/draw/destroy churn on one device.
 *
 * Each frame creates what a game may create and drop per frame (a texture with its texels, a
 * render target, alternately with depth and multisampled, vertex and index buffers, an
 * occlusion query, a sampler state, a BasicEffect and a SpriteBatch), draws with all of them,
 * presents, checks the query's count, and destroys them again. What a leak would move is
 * watched:
 *   - after every frame the device's live resources (statistics and its registry) are back at
 *     their value before the first frame;
 *   - at sample points after the warm-up, the renderer's live descriptors and its queue of
 *     objects waiting for a fence stay within what the warm-up needed, descriptor pool growth,
 *     the descriptor peak and the device's handle-slot table do not grow;
 *   - the process's memory at the sample points after the warm-up stays within the warm-up's
 *     highest sample plus twice the warm-up samples' spread (at least 64 pages / 256 KiB): its
 *     resident size (/proc/self/statm) and the C heap's bytes in use (glibc's mallinfo2), which
 *     sees a leak whose pages were never touched. On lavapipe device memory is process memory,
 *     so both also see leaked GPU objects; the pages of the Vulkan renderer's upload ring, which
 *     become resident as the ring first reaches them, are left out of the resident size.
 *     Skipped under AddressSanitizer, whose quarantine keeps freed memory allocated and
 *     resident by design.
 * The last frame's back buffer is compared with the expected sprites, so the churn is drawing.
 *
 * XGD_TEST_SOAK_FRAMES sets the frame count (default 2000; the warm-up is the first quarter,
 * at most 500 frames) for longer runs; XGD_TEST_SOAK_TRACE=1 prints every sample.
 */
#include "fixture_util.h"
#include "internal.h" /* the registry, slot table and retire queue behind the device */

#include <stdio.h>
#include <stdlib.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
#define SOAK_HAVE_MALLINFO2 1
#endif
#ifdef XGD_TEST_HAVE_VULKAN
#include "vk_internal.h" /* XVK_RING_SIZE */
#endif
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define SOAK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SOAK_ASAN 1
#endif
#endif
#ifndef SOAK_ASAN
#define SOAK_ASAN 0
#endif

enum { BW = 32, BH = 32, TEX = 8, RT = 16, SAMPLE_EVERY = 50 };
static const xgd_color CLEAR_BB = { 5, 6, 7, 255 };

/* Resident pages of this process, or -1 when /proc cannot say. */
static long resident_pages(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL) return -1;
    long size = 0, resident = -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident;
}

static int soak_frames(void)
{
    const char *env = getenv("XGD_TEST_SOAK_FRAMES");
    long n = env != NULL ? strtol(env, NULL, 10) : 0;
    return n >= 8 && n <= 100000000 ? (int)n : 2000;
}

/* Bytes the C heap has handed out and not had back (glibc), or -1. Exact where the resident
 * size counts pages first touched, so a leak shows whether or not its pages were resident. */
static long long heap_in_use(void)
{
#ifdef SOAK_HAVE_MALLINFO2
    struct mallinfo2 mi = mallinfo2();
    return (long long)(mi.uordblks + mi.hblkhd);
#else
    return -1;
#endif
}

typedef struct soak_gauges {
    long rss;                   /* resident pages (less the Vulkan upload ring's, see below) */
    long long heap;
    uint64_t descriptors_live, descriptors_peak, pool_growths;
    size_t retired;
    uint32_t slot_capacity;
} soak_gauges;

static soak_gauges gauges(xgd_device *dev)
{
    soak_gauges g;
    memset(&g, 0, sizeof g);
    xgd_statistics st;
    if (xgd_device_get_statistics(dev, &st) == XGD_OK) {
        g.descriptors_live = st.descriptors_live;
        g.descriptors_peak = st.descriptors_peak;
        g.pool_growths = st.descriptor_pool_growths;
    }
    g.retired = dev->renderer != NULL ? dev->renderer->retired.count : 0;
    g.slot_capacity = xgdi_handle_debug_slots_used();
    g.rss = resident_pages();
    g.heap = heap_in_use();
#ifdef XGD_TEST_HAVE_VULKAN
    /* On lavapipe device memory is process memory, and the Vulkan renderer's upload ring becomes
       resident page by page as the ring first reaches it (its 32 MiB take this churn about
       23,000 frames): those pages are not counted. The heap gauge needs no such care. */
    long page = sysconf(_SC_PAGESIZE);
    if (dev->renderer != NULL && dev->ops->kind == XGD_RENDERER_VULKAN && page > 0 && g.rss >= 0) {
        const xvk_ring *ring = &xvk_cast(dev->renderer)->ring;
        uint64_t reached = ring->head < ring->size ? ring->head : ring->size;
        g.rss -= (long)((reached + (uint64_t)page - 1) / (uint64_t)page);
    }
#endif
    return g;
}

static void pattern(uint8_t *p, int texels, unsigned seed)
{
    uint32_t x = 2166136261u ^ seed;
    for (int i = 0; i < texels; i++) {
        x = (x ^ (uint32_t)i) * 16777619u;
        p[i * 4 + 0] = (uint8_t)(x >> 8);
        p[i * 4 + 1] = (uint8_t)(x >> 16);
        p[i * 4 + 2] = (uint8_t)(x >> 24);
        p[i * 4 + 3] = 255; /* opaque: AlphaBlend then writes the texel itself */
    }
}

static xgd_color frame_color(int i)
{
    return (xgd_color){ (uint8_t)(i * 37), (uint8_t)(255 - i * 11), (uint8_t)(i * 5 + 64), 255 };
}

#define STEP(expr)                                                                            \
    do {                                                                                      \
        xgd_result r_ = (expr);                                                               \
        if (r_ != XGD_OK) {                                                                   \
            xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: %s returned %s (%s)", i, #expr,    \
                         xgd_result_name(r_), xgd_device_last_error(dev));                    \
            ok = false;                                                                       \
            goto out;                                                                         \
        }                                                                                     \
    } while (0)

/* One frame of churn; the texels of its texture go to tex_data. False on a failure. */
static bool churn_frame(xgdt_ctx *t, xgd_device *dev, int i, int msaa, uint8_t *tex_data)
{
    bool ok = true;
    xgd_texture *tex = NULL, *rt = NULL;
    xgd_vertex_buffer *vb = NULL;
    xgd_index_buffer *ib = NULL;
    xgd_occlusion_query *q = NULL;
    xgd_sampler_state *ss = NULL;
    xgd_effect *fx = NULL;
    xgd_sprite_batch *sb = NULL;
    const xgd_color c = frame_color(i);
    const bool odd = (i & 1) != 0;

    pattern(tex_data, TEX * TEX, (unsigned)i);
    STEP(xgd_texture2d_create(dev, &(xgd_texture2d_desc){ .width = TEX, .height = TEX }, &tex));
    STEP(xgd_texture_set_data(tex, 0, 0, NULL, tex_data, TEX * TEX * 4));
    STEP(xgd_render_target2d_create(dev, &(xgd_render_target_desc){ .width = RT, .height = RT,
             .preferred_depth_format = odd ? XGD_DEPTH_FORMAT_NONE : XGD_DEPTH_FORMAT_DEPTH24,
             .preferred_multisample_count = odd ? msaa : 0 }, &rt));
    xgd_vertex_position_color v[4] = {
        fx_vpc(4, 4, 0.5f, RT, RT, c), fx_vpc(12, 4, 0.5f, RT, RT, c),
        fx_vpc(12, 12, 0.5f, RT, RT, c), fx_vpc(4, 12, 0.5f, RT, RT, c) };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    STEP(xgd_vertex_buffer_create(dev, &(xgd_vertex_buffer_desc){
             .declaration = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR),
             .vertex_count = 4 }, &vb));
    STEP(xgd_vertex_buffer_set_data(vb, 0, v, sizeof v, XGD_SET_DATA_NONE));
    STEP(xgd_index_buffer_create(dev, &(xgd_index_buffer_desc){ .index_count = 6 }, &ib));
    STEP(xgd_index_buffer_set_data(ib, 0, idx, sizeof idx, XGD_SET_DATA_NONE));
    STEP(xgd_occlusion_query_create(dev, &q));
    STEP(xgd_sampler_state_create(dev, &(xgd_sampler_desc){ .filter = XGD_FILTER_POINT }, &ss));
    STEP(xgd_basic_effect_create(dev, &fx));
    STEP(xgd_sprite_batch_create(dev, &sb));

    /* the target: a rectangle of the frame's colour, counted by the query */
    STEP(xgd_set_render_target(dev, rt));
    STEP(xgd_clear_color(dev, CLEAR_BB));
    xgd_basic_effect_params p;
    STEP(xgd_basic_effect_get(fx, &p));
    p.vertex_color_enabled = true;
    STEP(xgd_basic_effect_set(fx, &p));
    STEP(xgd_effect_apply(fx));
    STEP(xgd_set_rasterizer_state(dev, xgd_rasterizer_state_preset(dev, XGD_RASTERIZER_PRESET_CULL_NONE)));
    STEP(xgd_set_vertex_buffer(dev, vb, 0));
    STEP(xgd_set_indices(dev, ib));
    STEP(xgd_occlusion_query_begin(q));
    STEP(xgd_draw_indexed_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, 0, 0, 4, 0, 2));
    STEP(xgd_occlusion_query_end(q));
    STEP(xgd_set_render_target(dev, NULL));

    /* the back buffer: the texture and the target as sprites, side by side */
    STEP(xgd_clear_color(dev, CLEAR_BB));
    STEP(xgd_sprite_batch_begin(sb, &(xgd_sprite_batch_begin_desc){ .sampler_state = ss }));
    STEP(xgd_sprite_batch_draw(sb, tex, &(xgd_sprite){ .position = { 0, 0 }, .color = XGD_COLOR_WHITE,
                                                       .scale = { 1, 1 } }));
    STEP(xgd_sprite_batch_draw(sb, rt, &(xgd_sprite){ .position = { 16, 0 }, .color = XGD_COLOR_WHITE,
                                                      .scale = { 1, 1 } }));
    STEP(xgd_sprite_batch_end(sb));
    STEP(xgd_set_vertex_buffer(dev, NULL, 0));
    STEP(xgd_set_indices(dev, NULL));
    STEP(xgd_set_texture(dev, 0, NULL));
    STEP(xgd_set_sampler_state(dev, 0, NULL));
    STEP(xgd_present(dev));

    uint64_t n = 0;
    STEP(xgd_occlusion_query_get_pixel_count(q, true, &n));
    const uint64_t want = 8 * 8 * (uint64_t)(odd && msaa > 1 ? msaa : 1);
    if (n != want) {
        xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: occlusion count %llu, expected %llu", i,
                     (unsigned long long)n, (unsigned long long)want);
        ok = false;
    }
out:
    xgd_sprite_batch_destroy(sb);
    xgd_effect_destroy(fx);
    xgd_sampler_state_destroy(ss);
    xgd_occlusion_query_destroy(q);
    xgd_index_buffer_destroy(ib);
    xgd_vertex_buffer_destroy(vb);
    xgd_texture_destroy(rt);
    xgd_texture_destroy(tex);
    return ok;
}

XGD_FIXTURE(Soak_ChurnReturnsToSteadyState)
{
    /* D3D10 centres: tests churn, not the centre rule; expectations assume .5 */
    xgd_device *dev = fx_device_centers(t, BW, BH, XGD_DEPTH_FORMAT_DEPTH24, 0, XGD_PIXEL_CENTER_D3D10);
    REQUIRE(dev);
    const int frames = soak_frames();
    const int warm = frames / 4 < 500 ? frames / 4 : 500;
    const bool trace = getenv("XGD_TEST_SOAK_TRACE") != NULL;
    const int msaa = fx_max_msaa(dev) >= 4 ? 4 : fx_max_msaa(dev);
    xgd_statistics st0;
    REQUIRE_OK(xgd_device_get_statistics(dev, &st0));
    /* the registry without the device's own quad index buffer, made once at the first
       quad draw (xgd_draw_user_quads) and kept until the device goes */
#define SOAK_REGISTRY(d) ((d)->resource_count - ((d)->quad_index_buffer != NULL ? 1u : 0u))
    const size_t registry0 = SOAK_REGISTRY(dev);
    uint8_t tex_data[TEX * TEX * 4];

    /* warm: the samples of the warm-up's second half (lowest and highest); late: the highest
       after the warm-up */
    soak_gauges lo, hi, late;
    int n_warm = 0, n_late = 0;
    memset(&lo, 0, sizeof lo);
    memset(&hi, 0, sizeof hi);
    memset(&late, 0, sizeof late);
    int done = 0;
    for (int i = 0; i < frames; i++) {
        if (!churn_frame(t, dev, i, msaa, tex_data)) break;
        done++;
        xgd_statistics st;
        if (xgd_device_get_statistics(dev, &st) != XGD_OK || st.live_resources != st0.live_resources ||
            SOAK_REGISTRY(dev) != registry0) {
            xgdt_fail_at(t, __FILE__, __LINE__, "frame %d: %llu live resources (registry %zu), "
                         "%llu (%zu) before the first frame", i,
                         (unsigned long long)st.live_resources, SOAK_REGISTRY(dev),
                         (unsigned long long)st0.live_resources, registry0);
            break;
        }
        if ((i + 1) % SAMPLE_EVERY != 0 && i + 1 != frames) continue;
        soak_gauges g = gauges(dev);
        if (trace)
            printf("soak frame %d: rss %ld pages, heap %lld bytes, descriptors live %llu peak %llu "
                   "growths %llu, retire queue %zu, slots %u\n", i + 1, g.rss, g.heap,
                   (unsigned long long)g.descriptors_live, (unsigned long long)g.descriptors_peak,
                   (unsigned long long)g.pool_growths, g.retired, g.slot_capacity);
        soak_gauges *m;
        if (i + 1 >= warm / 2 && i + 1 <= warm) {
            if (n_warm++ == 0) lo = hi = g;
            if (g.rss < lo.rss) lo.rss = g.rss;
            if (g.heap < lo.heap) lo.heap = g.heap;
            m = &hi;
        } else if (i + 1 > warm && n_warm > 0) {
            if (n_late++ == 0) late = g;
            m = &late;
        } else {
            continue;
        }
        if (g.rss > m->rss) m->rss = g.rss;
        if (g.heap > m->heap) m->heap = g.heap;
        if (g.descriptors_live > m->descriptors_live) m->descriptors_live = g.descriptors_live;
        if (g.retired > m->retired) m->retired = g.retired;
        m->descriptors_peak = g.descriptors_peak;
        m->pool_growths = g.pool_growths;
        m->slot_capacity = g.slot_capacity;
    }
    CHECK_INT(done, frames);

    /* the last frame drew: texture at (0,0), target at (16,0), the rest cleared */
    if (done == frames) {
        uint8_t *e = fx_image(BW, BH, CLEAR_BB);
        REQUIRE(e);
        for (int y = 0; y < TEX; y++)
            for (int x = 0; x < TEX; x++) {
                const uint8_t *s = tex_data + ((size_t)y * TEX + (size_t)x) * 4;
                fx_put(e, BW, x, y, (xgd_color){ s[0], s[1], s[2], s[3] });
            }
        fx_fill(e, BW, BH, 16 + 4, 4, 16 + 12, 12, frame_color(frames - 1));
        fx_expect_back_buffer(t, dev, "last_frame", e, BW, BH, 0);
        free(e);
    }

    if (n_warm > 0 && n_late > 0) {
        /* memory bounds: twice the warm-up samples' spread, at least 64 pages / 256 KiB */
        const long rss_bound = 2 * (hi.rss - lo.rss) > 64 ? 2 * (hi.rss - lo.rss) : 64;
        const long long heap_bound = 2 * (hi.heap - lo.heap) > 262144 ? 2 * (hi.heap - lo.heap) : 262144;
        printf("soak: %d frames, warm-up samples at frames %d-%d then every %d: rss %ld-%ld pages "
               "then <= %ld (bound %ld); heap %lld-%lld bytes then <= %lld "
               "(bound %lld); descriptors live <= %llu then <= %llu, peak %llu then %llu, pool "
               "growths %llu then %llu; retire queue <= %zu then <= %zu; slots %u then %u\n",
               frames, warm / 2, warm, SAMPLE_EVERY, lo.rss, hi.rss, late.rss, rss_bound,
               lo.heap, hi.heap, late.heap, heap_bound,
               (unsigned long long)hi.descriptors_live, (unsigned long long)late.descriptors_live,
               (unsigned long long)hi.descriptors_peak, (unsigned long long)late.descriptors_peak,
               (unsigned long long)hi.pool_growths, (unsigned long long)late.pool_growths,
               hi.retired, late.retired, hi.slot_capacity, late.slot_capacity);
        /* Live descriptors and retire-queue entries include those of frames the GPU has not
         * finished, and how many frames are pending at a sample is a matter of timing. The
         * warm-up maximum holds at least one frame's worth; with two frames in flight plus the
         * open one, at most three frames' worth can be pending. A leak of one per frame passes
         * that bound within a few hundred frames. */
        CHECK_MSG(late.descriptors_live <= 3 * hi.descriptors_live,
                  "live descriptors grew after the warm-up: %llu, at most %llu during it (bound "
                  "three times that: frames in flight)",
                  (unsigned long long)late.descriptors_live, (unsigned long long)hi.descriptors_live);
        CHECK_MSG(late.descriptors_peak <= 3 * hi.descriptors_peak,
                  "the descriptor peak grew after the warm-up: %llu from %llu (bound three times "
                  "that: frames in flight)",
                  (unsigned long long)late.descriptors_peak, (unsigned long long)hi.descriptors_peak);
        CHECK_MSG(late.pool_growths == hi.pool_growths,
                  "descriptor pools grew after the warm-up: %llu growths from %llu",
                  (unsigned long long)late.pool_growths, (unsigned long long)hi.pool_growths);
        CHECK_MSG(late.retired <= 3 * hi.retired,
                  "the retire queue grew after the warm-up: %zu entries, at most %zu during it "
                  "(bound three times that: frames in flight)",
                  late.retired, hi.retired);
        CHECK_MSG(late.slot_capacity == hi.slot_capacity,
                  "the handle-slot table grew after the warm-up: %u from %u", late.slot_capacity,
                  hi.slot_capacity);
        if (SOAK_ASAN) {
            printf("soak: memory not checked: AddressSanitizer's quarantine keeps freed memory "
                   "allocated and resident\n");
        } else {
            if (hi.rss < 0)
                printf("soak: resident memory not checked: /proc/self/statm is not readable\n");
            else
                CHECK_MSG(late.rss <= hi.rss + rss_bound,
                          "resident memory grew after the warm-up: %ld pages, at most %ld + %ld",
                          late.rss, hi.rss, rss_bound);
            if (hi.heap < 0)
                printf("soak: heap not checked: no mallinfo2\n");
            else
                CHECK_MSG(late.heap <= hi.heap + heap_bound,
                          "heap in use grew after the warm-up: %lld bytes, at most %lld + %lld",
                          late.heap, hi.heap, heap_bound);
        }
    } else if (done == frames) {
        printf("soak: %d frames are too few for warm-up and later samples; gauges not compared\n",
               frames);
    }
    xgd_device_destroy(dev);
}
