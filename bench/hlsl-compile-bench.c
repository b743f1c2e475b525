/*
 * hlsl-compile-bench - what creating an HLSL effect costs: a typical effect (a lit, textured,
 * fogged mesh: one cbuffer of matrices and lights, a texture, two techniques) created from
 * source, each run a source the process has not seen (a numbered comment defeats the compile
 * cache: glslang compiles every entry point), then the same source again (the cache's copy
 * loaded: no compiler). Prints the medians in milliseconds; asserts nothing.
 *
 *     hlsl-compile-bench [--runs N]
 */
#define _POSIX_C_SOURCE 199309L
#include "bench_time.h"

#include <xgd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char effect_fx[] =
    "cbuffer Parameters : register(b0)\n"
    "{\n"
    "    float4x4 World;\n"
    "    float4x4 ViewProjection;\n"
    "    float3x3 WorldInverseTranspose;\n"
    "    float4 DiffuseColor;\n"
    "    float3 LightDirection[3];\n"
    "    float3 LightColor[3];\n"
    "    float3 EyePosition;\n"
    "    float FogStart, FogEnd;\n"
    "    float3 FogColor;\n"
    "};\n"
    "Texture2D Texture : register(t0);\n"
    "SamplerState TextureSampler : register(s0);\n"
    "struct VSIn { float4 pos : POSITION0; float3 normal : NORMAL0; float2 uv : TEXCOORD0; };\n"
    "struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; float3 normal : TEXCOORD1;\n"
    "               float3 world : TEXCOORD2; float fog : TEXCOORD3; };\n"
    "VSOut VS(VSIn i)\n"
    "{\n"
    "    VSOut o;\n"
    "    float4 w = mul(i.pos, World);\n"
    "    o.pos = mul(w, ViewProjection);\n"
    "    o.uv = i.uv;\n"
    "    o.normal = normalize(mul(i.normal, WorldInverseTranspose));\n"
    "    o.world = w.xyz;\n"
    "    o.fog = saturate((distance(w.xyz, EyePosition) - FogStart) / (FogEnd - FogStart));\n"
    "    return o;\n"
    "}\n"
    "float4 PS(VSOut i) : SV_Target0\n"
    "{\n"
    "    float3 n = normalize(i.normal);\n"
    "    float3 diffuse = 0;\n"
    "    [unroll] for (int k = 0; k < 3; k++) diffuse += LightColor[k] * saturate(dot(n, -LightDirection[k]));\n"
    "    float4 c = Texture.Sample(TextureSampler, i.uv) * DiffuseColor;\n"
    "    c.rgb *= diffuse;\n"
    "    c.rgb = lerp(c.rgb, FogColor * c.a, i.fog);\n"
    "    return c;\n"
    "}\n"
    "float4 PSUnlit(VSOut i) : SV_Target0 { return Texture.Sample(TextureSampler, i.uv) * DiffuseColor; }\n"
    "technique Lit { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n"
    "technique Unlit { pass { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PSUnlit(); } }\n";

int main(int argc, char **argv)
{
    int runs = 10;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--runs") == 0 && i + 1 < argc) runs = atoi(argv[++i]);
        else {
            fprintf(stderr, "usage: hlsl-compile-bench [--runs N]\n");
            return 2;
        }
    }
    if (runs < 1) runs = 1;
    xgd_device_desc dd = XGD_DEVICE_DESC_DEFAULT;
    dd.pp.back_buffer_width = 8;
    dd.pp.back_buffer_height = 8;
    dd.pp.headless = true;
    dd.renderer = XGD_RENDERER_SOFTWARE;
    xgd_device *dev = NULL;
    if (xgd_device_create(&dd, &dev) != XGD_OK) {
        fprintf(stderr, "device: %s\n", xgd_device_last_error(NULL));
        return 1;
    }
    double *compile = calloc((size_t)runs, sizeof *compile), *cached = calloc((size_t)runs, sizeof *cached);
    size_t cap = sizeof effect_fx + 64;
    char *src = malloc(cap);
    int rc = 0;
    for (int i = 0; i < runs && rc == 0; i++) {
        int n = snprintf(src, cap, "// run %d\n%s", i, effect_fx);
        xgd_effect *e = NULL;
        double t0 = bench_clock_s();
        xgd_result r = xgd_effect_create_hlsl(dev, src, (size_t)n, "bench.fx", &e);
        double t1 = bench_clock_s();
        xgd_effect_destroy(e);
        double t2 = bench_clock_s();
        if (r == XGD_OK) r = xgd_effect_create_hlsl(dev, src, (size_t)n, "bench.fx", &e);
        double t3 = bench_clock_s();
        xgd_effect_destroy(e);
        if (r != XGD_OK) {
            fprintf(stderr, "%s: %s\n", xgd_result_name(r), xgd_device_last_error(dev));
            rc = r == XGD_ERROR_NOT_SUPPORTED ? 77 : 1;
        }
        compile[i] = (t1 - t0) * 1e3;
        cached[i] = (t3 - t2) * 1e3;
    }
    if (rc == 0)
        printf("hlsl effect create (2 techniques, 3 entry points): compile %.2f ms, cached %.3f ms "
               "(medians of %d)\n", bench_median(compile, runs), bench_median(cached, runs), runs);
    free(src);
    free(compile);
    free(cached);
    xgd_device_destroy(dev);
    return rc;
}
