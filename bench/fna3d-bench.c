/*
 * fna3d-bench - xgd's per-draw CPU cost against FNA3D's OpenGL driver, the layer most XNA ports
 * draw through (issue 15: xgd's draws per second should be at least 2.5 times FNA3D's on the
 * same scene, that is a ratio xgd/FNA3D of at most 0.40 in the report).
 *
 * Scene: bench_common.c's (N textured 8x8 quads a frame, a texture change every draw, 16
 * textures, the last frame checked at one pixel per texture), into the back buffer.
 *   raw   FNA3D (OpenGL driver, SDL2 window), called the way FNA's GraphicsDevice does for
 *         each DrawUserPrimitives with Textures[0] changed (FNA's src/Graphics/GraphicsDevice.cs,
 *         ApplyState and PrepareUserVertexBuffer): FNA3D_ApplyRasterizerState,
 *         FNA3D_VerifySampler of slot 0, FNA3D_SetVertexBufferData of the quad into the user
 *         vertex buffer with Discard, FNA3D_ApplyVertexBufferBindings, FNA3D_DrawPrimitives.
 *         The effect (tests/fx_writer.c's fxw_standard, technique "Textured": position *
 *         WorldViewProj, tex2D * vertex colour, as SpriteEffect) is applied once a frame. This
 *         is FNA's cheapest route through FNA3D: the C# layer's own work per draw is not in it.
 *         --path dynamic: the other way FNA games draw many small things, a DynamicVertexBuffer
 *         written at increasing offsets (SetData with NoOverwrite, Discard at the frame's first)
 *         and GraphicsDevice.DrawPrimitives from it: FNA3D_SetVertexBufferData (4 vertices of 24
 *         bytes), FNA3D_ApplyRasterizerState, FNA3D_VerifySampler, FNA3D_ApplyVertexBufferBindings
 *         (bindings changed only at the frame's first draw), FNA3D_DrawPrimitives at the quad's
 *         first vertex. FNA3D's OpenGL driver maps such writes unsynchronized only with its hint
 *         FNA3D_OPENGL_ALLOW_MAP_UNSYNCHRONIZED=1 (else glBufferSubData).
 *   xgd   the same draws through xgd's public API on the Vulkan renderer (bench_common.c).
 * The report's "raw" columns are FNA3D's; ratio = xgd / FNA3D per draw of the draw loops.
 *
 * FNA3D is not a Debian package: the bench is built when XGD_FNA3D_DIR names an FNA3D source
 * tree built with SDL2 (README, "Against FNA3D"). Headless machines need an SDL video driver
 * that gives OpenGL without a display (SDL_VIDEODRIVER=offscreen, EGL).
 *
 * usage: fna3d-bench [--path user|dynamic] [--draws N[,N...]] [--frames F] [--rounds R]
 *                    [--json FILE] [--svg FILE]
 */
#include "xgd.h"

#include <SDL.h>
/* FNA3D's copy of MojoShader's header, as FNA3D is built: the layout of the effect it returns */
#define MOJOSHADER_NO_VERSION_INCLUDE
#define MOJOSHADER_EFFECT_SUPPORT
#include <mojoshader.h>
#include <FNA3D.h>

#include "bench_common.h"
#include "fx_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_dynamic; /* --path dynamic */

typedef struct fna_bench {
    SDL_Window *window;
    FNA3D_Device *dev;
    FNA3D_Texture *tex[TEX];
    FNA3D_Buffer *vbuf;
    FNA3D_Effect *effect;
    MOJOSHADER_effect *effect_data;
    MOJOSHADER_effectStateChanges changes;
    FNA3D_VertexElement elements[3];
    FNA3D_VertexBufferBinding binding;
    FNA3D_RasterizerState raster;
    FNA3D_SamplerState sampler;
    uint8_t *pixels;
} fna_bench;

static void fail(const char *what)
{
    fprintf(stderr, "fna3d-bench: %s%s%s\n", what, SDL_GetError()[0] ? ": " : "", SDL_GetError());
    exit(1);
}

static MOJOSHADER_effectParam *param(MOJOSHADER_effect *e, const char *name)
{
    for (int i = 0; i < e->param_count; i++)
        if (strcmp(e->params[i].value.name, name) == 0) return &e->params[i];
    return NULL;
}

static void *fna_open(int max_draws)
{
    fna_bench *b = calloc(1, sizeof *b);
    if (b == NULL) exit(1);
    if (SDL_Init(SDL_INIT_VIDEO) != 0) fail("SDL_Init");
    uint32_t flags = FNA3D_PrepareWindowAttributes();
    b->window = SDL_CreateWindow("fna3d-bench", SDL_WINDOWPOS_UNDEFINED, SDL_WINDOWPOS_UNDEFINED, W, H,
                                 flags | SDL_WINDOW_HIDDEN);
    if (b->window == NULL) fail("SDL_CreateWindow");
    FNA3D_PresentationParameters pp = { .backBufferWidth = W, .backBufferHeight = H,
                                        .backBufferFormat = FNA3D_SURFACEFORMAT_COLOR,
                                        .deviceWindowHandle = b->window,
                                        .depthStencilFormat = FNA3D_DEPTHFORMAT_NONE,
                                        .presentationInterval = FNA3D_PRESENTINTERVAL_IMMEDIATE,
                                        .renderTargetUsage = FNA3D_RENDERTARGETUSAGE_PRESERVECONTENTS };
    b->dev = FNA3D_CreateDevice(&pp, 0);
    if (b->dev == NULL) fail("FNA3D_CreateDevice");

    for (int t = 0; t < TEX; t++) {
        uint8_t c[4], px[TS * TS * 4];
        bench_texture_color(t, c);
        for (int i = 0; i < TS * TS; i++) memcpy(px + i * 4, c, 4);
        b->tex[t] = FNA3D_CreateTexture2D(b->dev, FNA3D_SURFACEFORMAT_COLOR, TS, TS, 1, 0);
        if (b->tex[t] == NULL) fail("FNA3D_CreateTexture2D");
        FNA3D_SetTextureData2D(b->dev, b->tex[t], 0, 0, TS, TS, 0, px, (int32_t)sizeof px);
    }
    /* FNA's user vertex buffer: dynamic, write-only, sized for the draw; --path dynamic: the
       game's DynamicVertexBuffer, sized for the frame */
    b->vbuf = FNA3D_GenVertexBuffer(b->dev, 1, FNA3D_BUFFERUSAGE_WRITEONLY,
                                    (g_dynamic ? max_draws : 1) * 4 * (int32_t)sizeof(vtx));
    if (b->vbuf == NULL) fail("FNA3D_GenVertexBuffer");
    b->elements[0] = (FNA3D_VertexElement){ 0, FNA3D_VERTEXELEMENTFORMAT_VECTOR3, FNA3D_VERTEXELEMENTUSAGE_POSITION, 0 };
    b->elements[1] = (FNA3D_VertexElement){ 12, FNA3D_VERTEXELEMENTFORMAT_COLOR, FNA3D_VERTEXELEMENTUSAGE_COLOR, 0 };
    b->elements[2] = (FNA3D_VertexElement){ 16, FNA3D_VERTEXELEMENTFORMAT_VECTOR2,
                                            FNA3D_VERTEXELEMENTUSAGE_TEXTURECOORDINATE, 0 };
    b->binding = (FNA3D_VertexBufferBinding){ .vertexBuffer = b->vbuf,
                                              .vertexDeclaration = { (int32_t)sizeof(vtx), 3, b->elements } };

    char err[256];
    size_t n = 0;
    uint8_t *fx = fxw_standard(&n, err, sizeof err);
    if (fx == NULL) {
        fprintf(stderr, "fna3d-bench: fx_writer: %s\n", err);
        exit(1);
    }
    FNA3D_CreateEffect(b->dev, fx, (uint32_t)n, &b->effect, &b->effect_data);
    free(fx);
    if (b->effect == NULL || b->effect_data == NULL) fail("FNA3D_CreateEffect");
    MOJOSHADER_effectTechnique *textured = NULL;
    for (int i = 0; i < b->effect_data->technique_count; i++)
        if (strcmp(b->effect_data->techniques[i].name, "Textured") == 0) textured = &b->effect_data->techniques[i];
    MOJOSHADER_effectParam *wvp = param(b->effect_data, "WorldViewProj");
    if (textured == NULL || wvp == NULL || wvp->value.value_count < 16) fail("the effect lacks Textured or WorldViewProj");
    FNA3D_SetEffectTechnique(b->dev, b->effect, textured);
    /* clip = float4(pos, 1) * M, pixel space to clip space, y down (Direct3D 9's convention,
       which FNA3D keeps on OpenGL); the parameter is column_major: one column per register */
    const float m[16] = { 2.0f / W, 0, 0, -1, 0, -2.0f / H, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1 };
    memcpy(wvp->value.valuesF, m, sizeof m);

    b->raster = (FNA3D_RasterizerState){ .fillMode = FNA3D_FILLMODE_SOLID, .cullMode = FNA3D_CULLMODE_NONE };
    b->sampler = (FNA3D_SamplerState){ .filter = FNA3D_TEXTUREFILTER_POINT,
                                       .addressU = FNA3D_TEXTUREADDRESSMODE_CLAMP,
                                       .addressV = FNA3D_TEXTUREADDRESSMODE_CLAMP,
                                       .addressW = FNA3D_TEXTUREADDRESSMODE_CLAMP,
                                       .maxAnisotropy = 4 };
    FNA3D_BlendState opaque = { FNA3D_BLEND_ONE, FNA3D_BLEND_ZERO, FNA3D_BLENDFUNCTION_ADD,
                                FNA3D_BLEND_ONE, FNA3D_BLEND_ZERO, FNA3D_BLENDFUNCTION_ADD,
                                FNA3D_COLORWRITECHANNELS_ALL, FNA3D_COLORWRITECHANNELS_ALL,
                                FNA3D_COLORWRITECHANNELS_ALL, FNA3D_COLORWRITECHANNELS_ALL,
                                { 255, 255, 255, 255 }, -1 };
    FNA3D_SetBlendState(b->dev, &opaque);
    FNA3D_DepthStencilState none = { .depthBufferFunction = FNA3D_COMPAREFUNCTION_LESSEQUAL,
                                     .stencilMask = -1, .stencilWriteMask = -1,
                                     .stencilFunction = FNA3D_COMPAREFUNCTION_ALWAYS,
                                     .ccwStencilFunction = FNA3D_COMPAREFUNCTION_ALWAYS };
    FNA3D_SetDepthStencilState(b->dev, &none);
    FNA3D_Viewport vp = { 0, 0, W, H, 0, 1 };
    FNA3D_SetViewport(b->dev, &vp);
    b->pixels = malloc((size_t)W * H * 4);
    if (b->pixels == NULL) exit(1);
    return b;
}

static void fna_run(void *ctx, int draws, int frames, bench_path *p)
{
    fna_bench *b = ctx;
    FNA3D_Device *dev = b->dev;
    FNA3D_Vec4 black = { 0, 0, 0, 1 };
    uint8_t one[4];
    for (int f = -1; f < frames; f++) {
        double t0 = bench_now_s();
        FNA3D_Clear(dev, FNA3D_CLEAROPTIONS_TARGET, &black, 1, 0);
        FNA3D_ApplyEffect(dev, b->effect, 0, &b->changes);
        bench_loop_begin();
        for (int i = 0; g_dynamic && i < draws; i++) {
            vtx q[4];
            bench_quad_vertices(i, q);
            /* DynamicVertexBuffer.SetData(offset, ..., NoOverwrite), then
               GraphicsDevice.DrawPrimitives: ApplyState, PrepareVertexBindingArray, the draw */
            FNA3D_SetVertexBufferData(dev, b->vbuf, i * (int32_t)sizeof q, q, 4, (int32_t)sizeof(vtx),
                                      (int32_t)sizeof(vtx),
                                      i == 0 ? FNA3D_SETDATAOPTIONS_DISCARD : FNA3D_SETDATAOPTIONS_NOOVERWRITE);
            FNA3D_ApplyRasterizerState(dev, &b->raster);
            FNA3D_VerifySampler(dev, 0, b->tex[i % TEX], &b->sampler);
            FNA3D_ApplyVertexBufferBindings(dev, &b->binding, 1, i == 0, 0);
            FNA3D_DrawPrimitives(dev, FNA3D_PRIMITIVETYPE_TRIANGLESTRIP, i * 4, 2);
        }
        for (int i = 0; !g_dynamic && i < draws; i++) {
            vtx q[4];
            bench_quad_vertices(i, q);
            /* GraphicsDevice.DrawUserPrimitives: ApplyState (the rasterizer state always, the
               changed sampler), PrepareUserVertexBuffer, the draw */
            FNA3D_ApplyRasterizerState(dev, &b->raster);
            FNA3D_VerifySampler(dev, 0, b->tex[i % TEX], &b->sampler);
            FNA3D_SetVertexBufferData(dev, b->vbuf, 0, q, (int32_t)sizeof q, 1, 1, FNA3D_SETDATAOPTIONS_DISCARD);
            FNA3D_ApplyVertexBufferBindings(dev, &b->binding, 1, 1, 0);
            FNA3D_DrawPrimitives(dev, FNA3D_PRIMITIVETYPE_TRIANGLESTRIP, 0, 2);
        }
        bench_loop_end(p, f);
        if (f == frames - 1) FNA3D_ReadBackbuffer(dev, 0, 0, W, H, b->pixels, W * H * 4);
        FNA3D_SwapBuffers(dev, NULL, NULL, b->window);
        double t1 = bench_now_s();
        /* a one-pixel readback waits for the frame */
        FNA3D_ReadBackbuffer(dev, 0, 0, 1, 1, one, (int32_t)sizeof one);
        double t2 = bench_now_s();
        bench_path_frame(p, f, t0, t1, t2);
    }
    bench_path_finish(p, b->pixels, draws, frames, "FNA3D");
}

static void fna_close(void *ctx)
{
    fna_bench *b = ctx;
    FNA3D_AddDisposeEffect(b->dev, b->effect);
    FNA3D_AddDisposeVertexBuffer(b->dev, b->vbuf);
    for (int t = 0; t < TEX; t++) FNA3D_AddDisposeTexture(b->dev, b->tex[t]);
    FNA3D_DestroyDevice(b->dev);
    SDL_DestroyWindow(b->window);
    SDL_Quit();
    free(b->pixels);
    free(b);
}

int main(int argc, char **argv)
{
    static bench_desc desc = { "fna3d-bench", XGD_RENDERER_VULKAN,
                               "FNA3D OpenGL (FNA's DrawUserPrimitives calls)", "xgd vulkan renderer",
                               fna_open, fna_run, fna_close, "FNA3D" };
    /* --path is this bench's own: taken out before bench_main reads the rest */
    int n = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--path") == 0 && i + 1 < argc &&
            (strcmp(argv[i + 1], "user") == 0 || strcmp(argv[i + 1], "dynamic") == 0)) {
            g_dynamic = strcmp(argv[++i], "dynamic") == 0;
            continue;
        }
        argv[n++] = argv[i];
    }
    argc = n;
    if (g_dynamic)
        desc.raw_label = "FNA3D OpenGL (a DynamicVertexBuffer with NoOverwrite and DrawPrimitives)";
    printf("fna3d-bench: the report's raw columns are FNA3D's; issue 15's target is xgd's draws per "
           "second at least 2.5x FNA3D's, a ratio xgd/raw of at most 0.40\n");
    fflush(stdout);
    return bench_main(argc, argv, &desc);
}
