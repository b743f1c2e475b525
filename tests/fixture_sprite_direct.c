/*
 * fixture_sprite_direct.c - direct SpriteBatch batches: a Deferred batch whose runs are long
 * writes its sprites at Draw straight into held upload memory (xgd_hold_user_quad_instances)
 * and End draws them from there (sprite_batch.c, "Direct batches").
 *
 * The rule: that is invisible. End draws what a batch drawn from vertices draws (instancing
 * OFF, which never goes direct), byte for byte, whatever happens between Begin and End: a
 * readback (a submission, which ends the holds: the batch goes on in its queue), another batch
 * drawn in between, more batches holding at once than the device keeps holds for. The scene
 * blends (AlphaBlend over textures with half-transparent texels), so order matters, and mixes
 * what ends the direct sprites (a rotated sprite, a source rectangle) with runs of every length.
 * The sheet scenes do the same with a sprite sheet's cells (sprites with source rectangles,
 * which go direct into sheet chunks), ended by a cell spread over a destination from zero
 * width, then whole-texture sprites. The mixed scenes change between whole-texture sprites
 * and cells, which goes on direct in a chunk of the other kind after KIND_SWITCH_MIN (64)
 * sprites of a kind and ends the direct sprites after fewer (mixed_draw).
 * A hold the device refuses is no error: the device records and logs none.
 */
#include "harness.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum { DW = 48, DH = 40, DTEX = 3, DTW = 4, DTH = 4, DSPRITES = 4300, EXTRA = 17 };
/* the sheet scenes' textures (cells of odd sizes: texture coordinates that are not short
   binary fractions), the sprite whose cell is spread from zero width (it ends the direct
   cells), and the whole-texture sprites after it */
enum { STW = 12, STH = 10, NCELLS = 6, SHEET_END = 1400, WHOLE_FROM = 1600, WHOLE_TO = 1700 };
static const xgd_rect sheet_cells[NCELLS] = { { 0, 0, 3, 2 }, { 3, 0, 4, 5 }, { 7, 2, 5, 3 },
                                              { 1, 5, 6, 5 }, { 0, 0, 12, 10 }, { 5, 3, 1, 1 } };
/* sprites of a run that wait in the queue before it goes direct (sprite_batch.c DIRECT_START) */
enum { DIRECT_START_SPRITES = 256 };

static bool gpu(xgd_device *dev)
{
    xgd_device_info info;
    if (xgd_device_get_info(dev, &info) != XGD_OK) return false;
    return info.renderer == XGD_RENDERER_VULKAN || info.renderer == XGD_RENDERER_D3D12;
}

static xgd_texture *sized_texture(xgdt_ctx *t, xgd_device *dev, int k, int w, int h)
{
    uint8_t rgba[STW * STH * 4];
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            uint8_t *p = &rgba[(j * w + i) * 4];
            p[0] = (uint8_t)(60 * k + 20);
            p[1] = (uint8_t)(40 + 17 * i);
            p[2] = (uint8_t)(30 + 21 * j);
            p[3] = (uint8_t)(((i + j + k) & 1) ? 255 : 140);
        }
    return xgdt_image_texture(t, dev, w, h, rgba);
}

static xgd_texture *direct_texture(xgdt_ctx *t, xgd_device *dev, int k)
{
    return sized_texture(t, dev, k, DTW, DTH);
}

/* Sprite i's texture: one run of 700, runs of 300 over the three textures, a rotated sprite,
   a run of 599, a sprite with a source rectangle. */
static int texture_of(int i)
{
    if (i < 700) return 0;
    if (i < 3700) return (i - 700) / 300 % DTEX;
    return 1;
}

static xgd_sprite sprite_of(int i, const xgd_rect *src, const xgd_rect *dst)
{
    xgd_sprite s = XGD_SPRITE_INIT;
    s.position = (xgd_vector2){ 0.5f + (float)((i * 17) % 44), 0.25f + (float)((i * 31) % 37) };
    s.origin = (xgd_vector2){ (float)(i % 3) * 0.5f, (float)(i % 4) * 0.75f };
    s.scale = (xgd_vector2){ 1.0f + (float)(i % 3) * 0.5f, 1.0f + (float)(i % 5) * 0.25f };
    s.effects = (xgd_sprite_effects)(i & 3);
    s.color = (xgd_color){ (uint8_t)(255 - i % 60), (uint8_t)(200 + i % 56), 255, 255 };
    s.layer_depth = (float)(i % 7) / 7.0f;
    if (i % 9 == 4) s.destination = &dst[i % 2];
    if (i == 3700) s.rotation = 0.7f;
    if (i == DSPRITES - 1) s.source = src;
    return s;
}

enum { EVENT_NONE, EVENT_READBACK, EVENT_OTHER_BATCH, EVENT_MANY_BATCHES };
/* the scenes: whole textures, a sprite sheet's cells, both in stretches (mixed_draw), both in
   stretches at KIND_SWITCH_MIN's edge (mixed_draw) */
enum { SCENE_WHOLE, SCENE_SHEET, SCENE_MIXED, SCENE_EDGE };

/* One batch of `n` sprites of texture k from sprite `base` on (a run long enough to go
   direct); sheet: each a cell of it. */
static bool other_batch(xgd_sprite_batch *b, xgd_texture *tex, int base, int n, bool end, bool sheet)
{
    if (xgd_sprite_batch_begin(b, NULL) != XGD_OK) return false;
    for (int i = 0; i < n; i++) {
        const xgd_vector2 p = { (float)((base + i * 7) % DW), (float)((base + i * 3) % DH) };
        const xgd_color c = { 255, 255, 255, 255 };
        xgd_result r = sheet ? xgd_sprite_batch_draw_at_source(b, tex, p, &sheet_cells[i % NCELLS], c)
                             : xgd_sprite_batch_draw_at(b, tex, p, c);
        if (r != XGD_OK) return false;
    }
    return !end || xgd_sprite_batch_end(b) == XGD_OK;
}

/* Sheet sprite i: a cell through draw_at_source or a sprite with a source rectangle (origin,
   scale, flips, depth, some over a destination rectangle), except sprite SHEET_END, a cell of
   zero width spread over a destination (queued as its four vertices: it ends the direct
   cells), and the whole-texture sprites from WHOLE_FROM to WHOLE_TO. The sprites after
   SHEET_END keep to the bottom rows (y >= TAIL_Y), so that the direct cells before them stay
   in view above. */
enum { TAIL_Y = 31 };
static xgd_result sheet_draw(xgd_sprite_batch *sb, xgd_texture *tex, int i, const xgd_rect *dst)
{
    static const xgd_rect zero = { 4, 4, 0, 3 };
    const xgd_color c = { 200, 255, (uint8_t)(i % 256), 255 };
    const bool tail = i > SHEET_END;
    const float y = tail ? (float)(TAIL_Y + i % 7) : (float)(i * 3 % DH);
    if (i >= WHOLE_FROM && i < WHOLE_TO)
        return xgd_sprite_batch_draw_at(sb, tex, (xgd_vector2){ (float)(i % DW), y }, c);
    if (i % 5 == 1 && i != SHEET_END)
        return xgd_sprite_batch_draw_at_source(sb, tex, (xgd_vector2){ (float)(i % DW), y },
                                               &sheet_cells[i % NCELLS], c);
    xgd_sprite s = sprite_of(i, NULL, dst);
    s.source = i == SHEET_END ? &zero : &sheet_cells[(i * 7) % NCELLS];
    if (i == SHEET_END) s.destination = &dst[0];
    if (tail) {
        s.destination = NULL;
        s.position.y = y;
        s.origin = (xgd_vector2){ 0, 0 };
    }
    s.rotation = 0.0f;
    return xgd_sprite_batch_draw(sb, tex, &s);
}

/* The mixed scene: stretches of whole-texture sprites and of cells, each kind through both of
 * its calls (draw_at / draw_at_source, and xgd_sprite_batch_draw with flips, origins, scales,
 * depths and destinations). Sprites [0, MIXED_CELLS_1) are whole (texture 0: direct from
 * sprite 256), then cells of texture 0 to MIXED_WHOLE_1, whole sprites of texture 1 to
 * MIXED_CELLS_2, cells of textures 2 and 0 (runs of 50) to MIXED_WHOLE_2, and whole sprites
 * of texture 1 to MIXED_SEAL: each of these stretches is at least KIND_SWITCH_MIN (64) long,
 * so each change of kind goes on direct in a chunk of the new kind, except the last:
 * MIXED_SEAL, a cell after 40 whole sprites, ends the direct entries. After it, kinds and
 * textures change sprite by sprite in the queue, in the bottom rows (y >= TAIL_Y), as the
 * sheet scene's tail: the sprites before them stay in view above. */
enum { MIXED_CELLS_1 = 600, MIXED_WHOLE_1 = 1000, MIXED_CELLS_2 = 1100, MIXED_WHOLE_2 = 1500,
       MIXED_SEAL = 1540, MIXED_EVENT = 1200 };
/* The edge scene: a change of kind needs KIND_SWITCH_MIN (64) entries of the open chunk's kind
 * in chunks (the first chunk opens at sprite 256). Whole sprites to EDGE_CELLS (64 in the
 * chunk: the change goes on direct), 64 cells to EDGE_WHOLE (likewise), then 63 whole sprites
 * to EDGE_SEAL, whose cell ends the direct entries. */
enum { EDGE_CELLS = 256 + 64, EDGE_WHOLE = EDGE_CELLS + 64, EDGE_SEAL = EDGE_WHOLE + 63 };
static xgd_result mixed_draw(xgd_sprite_batch *sb, xgd_texture *const *tex, int i, const xgd_rect *dst,
                             bool edge)
{
    const xgd_rect src = { 1, 1, 2, 3 };
    bool cell;
    int k;
    if (edge && i < EDGE_SEAL) cell = i >= EDGE_CELLS && i < EDGE_WHOLE, k = 0;
    else if (edge) cell = i == EDGE_SEAL || i % 3 != 1, k = i / 7 % DTEX;
    else if (i < MIXED_CELLS_1) cell = false, k = 0;
    else if (i < MIXED_WHOLE_1) cell = true, k = 0;
    else if (i < MIXED_CELLS_2) cell = false, k = 1;
    else if (i < MIXED_WHOLE_2) cell = true, k = (i - MIXED_CELLS_2) / 50 % 2 == 0 ? 2 : 0;
    else if (i < MIXED_SEAL) cell = false, k = 1;
    else cell = i == MIXED_SEAL || i % 3 != 1, k = i / 7 % DTEX;
    const bool tail = i > (edge ? EDGE_SEAL : MIXED_SEAL);
    const xgd_color c = { 200, 255, (uint8_t)(i % 256), 255 };
    const xgd_vector2 at = { (float)(i % DW), tail ? (float)(TAIL_Y + i % 7) : (float)(i * 3 % DH) };
    if (i % 5 == 1)
        return cell ? xgd_sprite_batch_draw_at_source(sb, tex[k], at, &sheet_cells[i % NCELLS], c)
                    : xgd_sprite_batch_draw_at(sb, tex[k], at, c);
    xgd_sprite s = sprite_of(i, &src, dst);
    s.source = cell ? &sheet_cells[(i * 7) % NCELLS] : NULL;
    if (tail) {
        /* a positive rotation (sprite 3700's) turns the sprite below its position too */
        s.destination = NULL;
        s.position.y = at.y;
        s.origin = (xgd_vector2){ 0, 0 };
    } else {
        s.rotation = 0.0f;
    }
    return xgd_sprite_batch_draw(sb, tex[k], &s);
}

/* The scene with `event` at sprite 2000 (the mixed scene: MIXED_EVENT), into *pixels; the
 * batches' direct sprites added to *direct (the main batch) and *extra_direct (the others). */
static bool direct_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb,
                         xgd_sprite_batch *const *extra, xgd_texture *const *tex, int event,
                         int scene, uint8_t **pixels, uint64_t *direct, uint64_t *extra_direct)
{
    const bool sheet = scene != SCENE_WHOLE;
    const int event_at = scene == SCENE_MIXED ? MIXED_EVENT : 2000;
    const xgd_rect src = { 1, 1, 2, 3 };
    const xgd_rect dst[2] = { { 3, 5, 7, 4 }, { 30, 20, 5, 9 } };
    uint64_t d0 = xgdi_sprite_batch_direct_sprites(sb), e0 = 0;
    for (int k = 0; k < EXTRA; k++) e0 += xgdi_sprite_batch_direct_sprites(extra[k]);
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, NULL) != XGD_OK) return false;
    for (int i = 0; i < DSPRITES; i++) {
        if (i == event_at && event == EVENT_READBACK) {
            uint8_t *mid = NULL;
            if (!xgdt_read_back_buffer(t, dev, DW, DH, &mid)) return false;
            free(mid);
        } else if (i == event_at && event == EVENT_OTHER_BATCH) {
            if (!other_batch(extra[0], tex[2], 5, 400, true, sheet)) return false;
        } else if (i == event_at && event == EVENT_MANY_BATCHES) {
            /* more batches holding at once than the device keeps holds for */
            for (int k = 0; k < EXTRA; k++)
                if (!other_batch(extra[k], tex[k % DTEX], k * 11, 300, false, sheet)) return false;
            for (int k = EXTRA - 1; k >= 0; k--)
                if (xgd_sprite_batch_end(extra[k]) != XGD_OK) return false;
        }
        xgd_result r;
        if (scene == SCENE_MIXED || scene == SCENE_EDGE) {
            r = mixed_draw(sb, tex, i, dst, scene == SCENE_EDGE);
        } else if (sheet) {
            r = sheet_draw(sb, tex[texture_of(i)], i, dst);
        } else if (i % 5 == 1) {
            r = xgd_sprite_batch_draw_at(sb, tex[texture_of(i)],
                                         (xgd_vector2){ (float)(i % DW), (float)(i * 3 % DH) },
                                         (xgd_color){ 200, 255, (uint8_t)(i % 256), 255 });
        } else {
            xgd_sprite s = sprite_of(i, &src, dst);
            r = xgd_sprite_batch_draw(sb, tex[texture_of(i)], &s);
        }
        if (r != XGD_OK) return false;
    }
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    *direct += xgdi_sprite_batch_direct_sprites(sb) - d0;
    uint64_t e1 = 0;
    for (int k = 0; k < EXTRA; k++) e1 += xgdi_sprite_batch_direct_sprites(extra[k]);
    *extra_direct += e1 - e0;
    return xgdt_read_back_buffer(t, dev, DW, DH, pixels);
}

static xgd_result set_instancing(xgd_sprite_batch *sb, xgd_sprite_batch *const *extra,
                                 xgd_sprite_instancing mode)
{
    xgd_result r = xgd_sprite_batch_set_instancing(sb, mode);
    for (int k = 0; k < EXTRA && r == XGD_OK; k++) r = xgd_sprite_batch_set_instancing(extra[k], mode);
    return r;
}

/* A DW x DH device without depth, or NULL (recorded) when it fails or, on the software
 * renderer, which has no held upload memory and draws sprites from vertices (NOT_SUPPORTED). */
static int direct_log_errors; /* errors logged by the device of direct_device */

static void direct_log(void *user, xgd_log_level level, xgd_result code, const char *message)
{
    (void)user;
    (void)code;
    (void)message;
    if (level == XGD_LOG_ERROR) direct_log_errors++;
}

static xgd_device *direct_device(xgdt_ctx *t)
{
    direct_log_errors = 0;
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.log = direct_log;
    dd.pp.back_buffer_width = DW;
    dd.pp.back_buffer_height = DH;
    dd.pp.depth_stencil_format = XGD_DEPTH_FORMAT_NONE;
    xgd_device *dev = xgdt_device(t, &dd);
    if (dev != NULL && !gpu(dev)) {
        xgd_device_destroy(dev);
        xgdt_not_supported(t, "the software renderer draws sprites from vertices (no held "
                              "upload memory, no instanced quads)");
        return NULL;
    }
    return dev;
}

static void direct_match(xgdt_ctx *t, int event, int scene)
{
    const bool sheet = scene != SCENE_WHOLE;
    xgd_device *dev = direct_device(t);
    if (dev == NULL) return;
    xgd_texture *tex[DTEX];
    for (int k = 0; k < DTEX; k++) {
        tex[k] = sheet ? sized_texture(t, dev, k, STW, STH) : direct_texture(t, dev, k);
        REQUIRE(tex[k] != NULL);
    }
    /* a batch for each path, so that no queue holds the other path's entries */
    xgd_sprite_batch *sb[2], *extra[2][EXTRA];
    for (int m = 0; m < 2; m++) {
        REQUIRE_OK(xgd_sprite_batch_create(dev, &sb[m]));
        for (int k = 0; k < EXTRA; k++) REQUIRE_OK(xgd_sprite_batch_create(dev, &extra[m][k]));
    }
    uint8_t *off = NULL, *on = NULL, *again = NULL;
    uint64_t direct_off = 0, extra_off = 0, direct_on = 0, extra_on = 0;
    REQUIRE_OK(set_instancing(sb[0], extra[0], XGD_SPRITE_INSTANCING_OFF));
    REQUIRE(direct_scene(t, dev, sb[0], extra[0], tex, event, scene, &off, &direct_off, &extra_off));
    REQUIRE(direct_scene(t, dev, sb[1], extra[1], tex, event, scene, &on, &direct_on, &extra_on));
    /* the second time, each batch's first chunk is sized from its last batch */
    REQUIRE(direct_scene(t, dev, sb[1], extra[1], tex, event, scene, &again, &direct_on, &extra_on));
    CHECK(xgdt_compare_rgba(t, "direct batch vs vertices", on, off, DW, DH, 0));
    CHECK(xgdt_compare_rgba(t, "direct batch (second frame) vs vertices", again, off, DW, DH, 0));
    int drawn = 0;
    for (int i = 0; i < DW * DH; i++) drawn += off[i * 4] != 10;
    CHECK_MSG(drawn > DW * DH / 2, "only %d of %d pixels drawn", drawn, DW * DH);
    if (sheet) {
        /* the direct sprites show above the tail's rows */
        int above = 0;
        for (int i = 0; i < DW * TAIL_Y; i++) above += off[i * 4] != 10;
        CHECK_MSG(above > DW * TAIL_Y * 3 / 4, "only %d of %d pixels above the tail drawn", above,
                  DW * TAIL_Y);
    }
    CHECK_MSG(direct_off == 0 && extra_off == 0, "instancing OFF drew %llu sprites direct",
              (unsigned long long)(direct_off + extra_off));
    if (event == EVENT_READBACK) {
        /* the readback ended the holds: the batch went on in its queue */
        CHECK_MSG(direct_on == 0, "%llu sprites drawn direct across a readback",
                  (unsigned long long)direct_on);
    } else if (scene == SCENE_MIXED) {
        /* sprites 256..MIXED_SEAL - 1 exactly, across four changes of kind (the first 256
           wait in the queue; the cell at MIXED_SEAL ends the direct entries), twice */
        CHECK_MSG(direct_on == 2 * (MIXED_SEAL - 256),
                  "%llu sprites drawn direct in two frames, want %d",
                  (unsigned long long)direct_on, 2 * (MIXED_SEAL - 256));
    } else if (scene == SCENE_EDGE) {
        /* sprites 256..EDGE_SEAL - 1 exactly: two changes of kind after 64 entries, then a
           cell after 63 whole sprites, twice */
        CHECK_MSG(direct_on == 2 * (EDGE_SEAL - 256),
                  "%llu sprites drawn direct in two frames, want %d",
                  (unsigned long long)direct_on, 2 * (EDGE_SEAL - 256));
    } else if (sheet) {
        /* cells 256..SHEET_END - 1 exactly (the first 256 wait in the queue; sprite SHEET_END
           ends the direct entries for the batch), twice */
        CHECK_MSG(direct_on == 2 * (SHEET_END - 256),
                  "%llu sprites drawn direct in two frames, want %d",
                  (unsigned long long)direct_on, 2 * (SHEET_END - 256));
    } else {
        /* sprites 256..1999 at least (the first run's first 256 wait in the queue), twice */
        CHECK_MSG(direct_on >= 2 * (2000 - 256),
                  "%llu sprites drawn direct in two frames, want at least %d",
                  (unsigned long long)direct_on, 2 * (2000 - 256));
    }
    if (event == EVENT_OTHER_BATCH)
        CHECK_MSG(extra_on == 2 * (400 - 256), "the other batch drew %llu sprites direct, want %d",
                  (unsigned long long)extra_on, 2 * (400 - 256));
    if (event == EVENT_MANY_BATCHES)
        CHECK_MSG(extra_on > 0 && extra_on < 2ull * EXTRA * (300 - 256),
                  "the %d other batches drew %llu sprites direct: want some, not all (the "
                  "device holds %d reservations at most)",
                  EXTRA, (unsigned long long)extra_on, XGD_QUAD_HOLDS_MAX);
    CHECK_INT(dev->quad_hold_count, 0);
    /* a hold the device refused (a full table of holds, a readback's ended chunks) is no
       error: the batches drew from their queues, and the device recorded and logged nothing */
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK_MSG(xgd_device_last_error(dev)[0] == '\0', "the device's last error: %s",
              xgd_device_last_error(dev));
    CHECK_INT(direct_log_errors, 0);
    free(off);
    free(on);
    free(again);
    for (int m = 0; m < 2; m++) {
        xgd_sprite_batch_destroy(sb[m]);
        for (int k = 0; k < EXTRA; k++) xgd_sprite_batch_destroy(extra[m][k]);
    }
    for (int k = 0; k < DTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_DirectMatchesVertices) { direct_match(t, EVENT_NONE, SCENE_WHOLE); }
XGD_FIXTURE(SpriteBatch_DirectAcrossReadback) { direct_match(t, EVENT_READBACK, SCENE_WHOLE); }
XGD_FIXTURE(SpriteBatch_DirectAcrossAnotherBatch) { direct_match(t, EVENT_OTHER_BATCH, SCENE_WHOLE); }
XGD_FIXTURE(SpriteBatch_DirectMoreBatchesThanHolds) { direct_match(t, EVENT_MANY_BATCHES, SCENE_WHOLE); }
XGD_FIXTURE(SpriteBatch_DirectSheetMatchesVertices) { direct_match(t, EVENT_NONE, SCENE_SHEET); }
XGD_FIXTURE(SpriteBatch_DirectSheetAcrossReadback) { direct_match(t, EVENT_READBACK, SCENE_SHEET); }
XGD_FIXTURE(SpriteBatch_DirectSheetAcrossAnotherBatch) { direct_match(t, EVENT_OTHER_BATCH, SCENE_SHEET); }
XGD_FIXTURE(SpriteBatch_DirectSheetMoreBatchesThanHolds) { direct_match(t, EVENT_MANY_BATCHES, SCENE_SHEET); }
/* both kinds in one batch: each change of kind after a long stretch goes on direct */
XGD_FIXTURE(SpriteBatch_DirectMixedKindsMatchesVertices) { direct_match(t, EVENT_NONE, SCENE_MIXED); }
/* a readback while chunks of both kinds are held, the last of each partly filled: held_ended
   moves each one's entries (up to where the next starts) into the queue */
XGD_FIXTURE(SpriteBatch_DirectMixedKindsAcrossReadback) { direct_match(t, EVENT_READBACK, SCENE_MIXED); }
/* a change of kind after exactly 64 entries of a kind goes on direct; after 63 it ends them */
XGD_FIXTURE(SpriteBatch_DirectMixedKindsAtTheEdge) { direct_match(t, EVENT_NONE, SCENE_EDGE); }

/* A batch destroyed between Begin and End gives its held chunks back: the device holds none,
 * a submission afterwards calls into nothing freed, and nothing of the batch is drawn. */
XGD_FIXTURE(SpriteBatch_DirectDestroyedBeforeEnd)
{
    xgd_device *dev = direct_device(t);
    if (dev == NULL) return;
    xgd_texture *tex = direct_texture(t, dev, 0);
    REQUIRE(tex != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    CHECK_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    REQUIRE(other_batch(sb, tex, 0, 3000, false, false));
    CHECK_MSG(dev->quad_hold_count > 0, "3000 sprites of one texture held no upload memory");
    xgd_sprite_batch_destroy(sb);
    CHECK_INT(dev->quad_hold_count, 0);
    uint8_t *px = NULL;
    REQUIRE(xgdt_read_back_buffer(t, dev, DW, DH, &px));
    int other = 0;
    for (int i = 0; i < DW * DH; i++)
        other += px[i * 4] != 10 || px[i * 4 + 1] != 20 || px[i * 4 + 2] != 30;
    CHECK_MSG(other == 0, "%d pixels drawn by a batch destroyed before End", other);
    free(px);
    /* a batch still in Begin when its device goes: the device drops the holds */
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    REQUIRE(other_batch(sb, tex, 0, 3000, false, false));
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
    CHECK_RESULT(xgd_sprite_batch_end(sb), XGD_ERROR_OBJECT_DISPOSED);
    xgd_sprite_batch_destroy(sb);
}

/* Upload memory that cannot take End's own upload beside the held chunks. A batch's head
 * (FILL_HEAD_RUNS runs of FILL_HEAD_RUN sprites, too short to go direct) waits in the queue,
 * and the long run after it is held; then, before End, draws that upload without drawing
 * anything (degenerate triangles) fill the rest of the upload memory, so that End's own
 * upload of the head finds too little. A probe on one device counts the fillers after which
 * the device ended the holds (Vulkan submits a frame that fills its ring; Direct3D 12 adds
 * upload memory and never does); a second device, alike, takes one filler fewer, so the
 * holds end inside End, before End drew them: End draws those sprites from its queue
 * (held_ended copied them there) in their place. Either way the picture is the one drawn from
 * vertices, and the device records no error. */
enum { FILL_HEAD_RUNS = 10, FILL_HEAD_RUN = 200, FILL_RUN = 3000, FILLER_TRIANGLES = 228,
       FILLERS_MAX = 6000 };

/* The scene with `fillers` filler draws before End; fillers < 0: as many as it takes for the
   device to end the holds (at most FILLERS_MAX), counted into *ended_after. */
static bool fill_scene(xgdt_ctx *t, xgd_device *dev, xgd_sprite_batch *sb, xgd_texture *const *tex,
                       xgd_effect *fx, int fillers, int *ended_after, int *held_at_end,
                       uint8_t **pixels)
{
    static xgd_vertex_position_color filler[FILLER_TRIANGLES * 3];
    for (int v = 0; v < FILLER_TRIANGLES * 3; v++)
        filler[v] = (xgd_vertex_position_color){ { 0.25f, 0.25f, 0.0f }, { 255, 0, 0, 255 } };
    if (xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }) != XGD_OK) return false;
    if (xgd_sprite_batch_begin(sb, NULL) != XGD_OK) return false;
    const int head = FILL_HEAD_RUNS * FILL_HEAD_RUN;
    for (int i = 0; i < head + FILL_RUN; i++) {
        xgd_texture *x = i >= head ? tex[2] : tex[(i / FILL_HEAD_RUN) & 1];
        const xgd_vector2 p = { (float)((i * 7) % (DW + 2)) - 2.0f, (float)((i * 5) % (DH + 2)) - 2.0f };
        const xgd_color c = { (uint8_t)(255 - i % 50), 255, (uint8_t)(200 + i % 50), 255 };
        if (xgd_sprite_batch_draw_at(sb, x, p, c) != XGD_OK) return false;
    }
    if (xgd_effect_apply(fx) != XGD_OK) return false;
    xgd_vertex_declaration *decl = xgd_vertex_declaration_stock(dev, XGD_VERTEX_POSITION_COLOR);
    const int n = fillers < 0 ? FILLERS_MAX : fillers;
    for (int k = 0; k < n; k++) {
        if (fillers < 0 && dev->quad_hold_count == 0) {
            *ended_after = k;
            break;
        }
        if (xgd_draw_user_primitives(dev, XGD_PRIMITIVE_TRIANGLE_LIST, filler, 0,
                                     FILLER_TRIANGLES, decl) != XGD_OK)
            return false;
    }
    if (fillers < 0 && dev->quad_hold_count != 0) *ended_after = FILLERS_MAX;
    *held_at_end = dev->quad_hold_count;
    if (xgd_sprite_batch_end(sb) != XGD_OK) return false;
    return xgdt_read_back_buffer(t, dev, DW, DH, pixels);
}

/* One pass of the scene on a new device: the direct batch's pixels and direct sprites, and
   the pixels of the same scene drawn from vertices after it (on the same device). */
static bool fill_pass(xgdt_ctx *t, xgd_device *dev, int fillers, int *ended_after, uint8_t **on,
                      uint8_t **off, uint64_t *direct, int *held_at_end, xgd_renderer_kind *renderer)
{
    xgd_device_info info;
    bool ok = xgd_device_get_info(dev, &info) == XGD_OK;
    *renderer = info.renderer;
    xgd_texture *tex[DTEX] = { NULL };
    for (int k = 0; k < DTEX && ok; k++) ok = (tex[k] = direct_texture(t, dev, k)) != NULL;
    xgd_effect *fx = NULL;
    xgd_sprite_batch *sb_on = NULL, *sb_off = NULL;
    ok = ok && xgd_basic_effect_create(dev, &fx) == XGD_OK &&
         xgd_sprite_batch_create(dev, &sb_on) == XGD_OK &&
         xgd_sprite_batch_create(dev, &sb_off) == XGD_OK &&
         xgd_sprite_batch_set_instancing(sb_off, XGD_SPRITE_INSTANCING_OFF) == XGD_OK;
    /* the direct batch first, on a new device (Vulkan grows its ring at a Present after a
       frame filled it; none is made here) */
    ok = ok && fill_scene(t, dev, sb_on, tex, fx, fillers, ended_after, held_at_end, on);
    *direct = ok ? xgdi_sprite_batch_direct_sprites(sb_on) : 0;
    int unused = 0, none = 0;
    ok = ok && fill_scene(t, dev, sb_off, tex, fx, fillers < 0 ? *ended_after : fillers, &unused,
                          &none, off);
    CHECK_INT(dev->quad_hold_count, 0);
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK_INT(direct_log_errors, 0);
    xgd_sprite_batch_destroy(sb_on);
    xgd_sprite_batch_destroy(sb_off);
    xgd_effect_destroy(fx);
    for (int k = 0; k < DTEX; k++) xgd_texture_destroy(tex[k]);
    xgd_device_destroy(dev);
    return ok;
}

XGD_FIXTURE(SpriteBatch_DirectRingFillsAtEnd)
{
    uint8_t *on = NULL, *off = NULL;
    uint64_t direct = 0;
    int ended_after = 0, held_at_end = 0;
    xgd_renderer_kind renderer;
    xgd_device *dev = direct_device(t);
    if (dev == NULL) return;
    REQUIRE(fill_pass(t, dev, -1, &ended_after, &on, &off, &direct, &held_at_end, &renderer));
    CHECK(xgdt_compare_rgba(t, "direct batch whose holds the fillers ended vs vertices", on, off,
                            DW, DH, 0));
    if (ended_after < FILLERS_MAX)
        CHECK_MSG(direct == 0, "%llu sprites drawn where they were held, after the holds ended",
                  (unsigned long long)direct);
    free(on);
    free(off);
    on = off = NULL;
    if (renderer == XGD_RENDERER_VULKAN)
        CHECK_MSG(ended_after > 0 && ended_after < FILLERS_MAX,
                  "%d fillers of %d bytes did not fill Vulkan's 32 MiB upload ring", ended_after,
                  (int)(sizeof(xgd_vertex_position_color) * 3 * FILLER_TRIANGLES));
    dev = direct_device(t);
    REQUIRE(dev != NULL);
    REQUIRE(fill_pass(t, dev, ended_after - 1, &ended_after, &on, &off, &direct, &held_at_end, &renderer));
    CHECK(xgdt_compare_rgba(t, "direct batch whose ring filled at End vs vertices", on, off, DW,
                            DH, 0));
    int drawn = 0;
    for (int i = 0; i < DW * DH; i++) drawn += off[i * 4] != 10;
    CHECK_MSG(drawn > DW * DH / 2, "only %d of %d pixels drawn", drawn, DW * DH);
    CHECK_MSG(held_at_end > 0, "the batch held nothing when End was called");
    if (renderer == XGD_RENDERER_VULKAN)
        CHECK_MSG(direct == 0, "%llu sprites drawn where they were held: End's upload should "
                  "have filled the ring and ended the holds first", (unsigned long long)direct);
    else
        CHECK_MSG(direct == FILL_RUN - DIRECT_START_SPRITES, "%llu sprites drawn direct, want %d",
                  (unsigned long long)direct, FILL_RUN - DIRECT_START_SPRITES);
    free(on);
    free(off);
}

/* A batch larger than the device holds for: a million sprites of one texture, drawn on a new
 * device (Vulkan's 32 MiB upload ring takes about 915,000 of them in the chunks the batch
 * holds; the next hold is refused, quietly, and the rest of the batch goes to its queue; Direct3D
 * 12 adds upload memory and holds them all). One sprite in 50,000 lands in its own 4x4 block of
 * the target, tinted its own colour, the rest off the target: the picture is the clear colour
 * with those blocks, each the tint times the texture's one colour (white), whichever way each
 * was drawn. End draws them all without error, and the device records and logs none; twice,
 * with a Present between. */
enum { BIG_SPRITES = 1000000, BIG_EVERY = 50000 };

static xgd_color big_tint(int j)
{
    return (xgd_color){ (uint8_t)(j & 1 ? 255 : 0), (uint8_t)(j & 2 ? 255 : 0),
                        (uint8_t)(j & 4 ? 255 : 0), 255 };
}

/* sheet: each sprite the DTW x DTH white cell of a texture twice as large, whose other texels
   are black (draw_at_source: sheet chunks, 48 bytes a sprite where whole-texture entries take
   32, so the first frame's ring holds fewer of them) */
static void beyond_the_ring(xgdt_ctx *t, bool sheet)
{
    xgd_device *dev = direct_device(t);
    if (dev == NULL) return;
    xgd_device_info info;
    REQUIRE_OK(xgd_device_get_info(dev, &info));
    uint8_t white[4 * DTW * DTH * 4];
    const int tw = sheet ? 2 * DTW : DTW, th = sheet ? 2 * DTH : DTH;
    const xgd_rect cell = { DTW / 2, DTH / 2, DTW, DTH };
    for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++) {
            const bool in = !sheet || (x >= cell.x && x < cell.x + DTW && y >= cell.y && y < cell.y + DTH);
            memset(&white[(y * tw + x) * 4], in ? 255 : 0, 3);
            white[(y * tw + x) * 4 + 3] = 255;
        }
    xgd_texture *tex = xgdt_image_texture(t, dev, tw, th, white);
    REQUIRE(tex != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const xgd_color clear = { 10, 20, 30, 255 };
    const int blocks_x = DW / DTW;
    uint8_t *want = malloc((size_t)DW * DH * 4);
    REQUIRE(want != NULL);
    for (int y = 0; y < DH; y++)
        for (int x = 0; x < DW; x++) {
            const int j = y / DTH * blocks_x + x / DTW;
            const xgd_color c = j < BIG_SPRITES / BIG_EVERY ? big_tint(j) : clear;
            uint8_t *w = &want[(y * DW + x) * 4];
            w[0] = c.r;
            w[1] = c.g;
            w[2] = c.b;
            w[3] = 255;
        }
    /* twice: the second frame's batch starts from chunks sized by the first's, after a
       Present (where Vulkan may grow its ring) */
    uint64_t direct_before = 0; /* xgdi_sprite_batch_direct_sprites counts the batch's life */
    for (int frame = 0; frame < 2; frame++) {
        REQUIRE_OK(xgd_clear_color(dev, clear));
        REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
        bool drawn = true;
        for (int i = 0; i < BIG_SPRITES && drawn; i++) {
            const int j = i / BIG_EVERY;
            const bool shown = i % BIG_EVERY == BIG_EVERY - 1;
            const xgd_vector2 p =
                shown ? (xgd_vector2){ (float)(j % blocks_x * DTW), (float)(j / blocks_x * DTH) }
                      : (xgd_vector2){ -8.0f - (float)(i % 5), 2.0f + (float)(i % 7) };
            const xgd_color c = shown ? big_tint(j) : clear;
            drawn = (sheet ? xgd_sprite_batch_draw_at_source(sb, tex, p, &cell, c)
                           : xgd_sprite_batch_draw_at(sb, tex, p, c)) == XGD_OK;
        }
        CHECK(drawn);
        CHECK_OK(xgd_sprite_batch_end(sb));
        const uint64_t direct = xgdi_sprite_batch_direct_sprites(sb) - direct_before;
        direct_before += direct;
        /* the second time all but the first run's head: Vulkan grew its ring at the Present
           after the frame that filled it */
        if (frame == 1)
            CHECK_INT(direct, BIG_SPRITES - DIRECT_START_SPRITES);
        else if (info.renderer == XGD_RENDERER_VULKAN)
            CHECK_MSG(direct > 0 && direct < (uint64_t)(BIG_SPRITES - DIRECT_START_SPRITES),
                      "%llu sprites drawn direct: the ring should hold some and refuse the rest",
                      (unsigned long long)direct);
        else
            CHECK_INT(direct, BIG_SPRITES - DIRECT_START_SPRITES);
        uint8_t *px = NULL;
        REQUIRE(xgdt_read_back_buffer(t, dev, DW, DH, &px));
        CHECK(xgdt_compare_rgba(t, frame == 0 ? "a million sprites, one in 50,000 on the target"
                                              : "the same, second frame",
                                px, want, DW, DH, 0));
        free(px);
        CHECK_OK(xgd_present(dev));
    }
    free(want);
    CHECK_INT(dev->quad_hold_count, 0);
    CHECK_INT(xgd_device_last_result(dev), XGD_OK);
    CHECK_INT(direct_log_errors, 0);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}

XGD_FIXTURE(SpriteBatch_DirectBeyondTheRing) { beyond_the_ring(t, false); }
XGD_FIXTURE(SpriteBatch_DirectSheetBeyondTheRing) { beyond_the_ring(t, true); }

/* A texture destroyed while a sheet chunk is open moves the resource epoch, which closes the
 * batch's run (its texture may be the one destroyed) but not the chunk: a Draw with a NULL
 * texture then is still refused (XNA: ArgumentNullException), by either call, and queues
 * nothing, and the direct cells are the ones drawn before. */
XGD_FIXTURE(SpriteBatch_DirectSheetNullTexture)
{
    xgd_device *dev = direct_device(t);
    if (dev == NULL) return;
    xgd_texture *tex = sized_texture(t, dev, 0, STW, STH);
    REQUIRE(tex != NULL);
    xgd_sprite_batch *sb = NULL;
    REQUIRE_OK(xgd_sprite_batch_create(dev, &sb));
    const uint64_t d0 = xgdi_sprite_batch_direct_sprites(sb);
    REQUIRE_OK(xgd_clear_color(dev, (xgd_color){ 10, 20, 30, 255 }));
    REQUIRE_OK(xgd_sprite_batch_begin(sb, NULL));
    const xgd_color white = { 255, 255, 255, 255 };
    for (int i = 0; i < 600; i++)
        REQUIRE_OK(xgd_sprite_batch_draw_at_source(sb, tex, (xgd_vector2){ (float)(i % DW), (float)(i % DH) },
                                                   &sheet_cells[i % NCELLS], white));
    xgd_texture *gone = direct_texture(t, dev, 1);
    REQUIRE(gone != NULL);
    xgd_texture_destroy(gone);
    const xgd_sprite cell = { .position = { 3, 4 }, .source = &sheet_cells[1], .color = white,
                              .scale = { 1, 1 } };
    for (int k = 0; k < 3; k++) {
        CHECK_RESULT(xgd_sprite_batch_draw_at_source(sb, NULL, (xgd_vector2){ 1, 2 }, &sheet_cells[0], white),
                     XGD_ERROR_INVALID_ARGUMENT);
        CHECK_RESULT(xgd_sprite_batch_draw(sb, NULL, &cell), XGD_ERROR_INVALID_ARGUMENT);
    }
    /* the run goes on after the refusals */
    CHECK_OK(xgd_sprite_batch_draw(sb, tex, &cell));
    CHECK_OK(xgd_sprite_batch_draw_at_source(sb, tex, (xgd_vector2){ 5, 6 }, &sheet_cells[2], white));
    CHECK_OK(xgd_sprite_batch_end(sb));
    /* the first 256 wait in the queue, the 602 after them were written direct */
    CHECK_INT(xgdi_sprite_batch_direct_sprites(sb) - d0, 602 - 256);
    xgd_sprite_batch_destroy(sb);
    xgd_texture_destroy(tex);
    xgd_device_destroy(dev);
}
