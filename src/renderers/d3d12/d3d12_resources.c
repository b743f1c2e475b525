/*
 * d3d12_resources.c - textures, render targets and buffers: creation, views, per-subresource
 * state tracking with batched barriers, uploads through the frame's upload ring, synchronous
 * readback through a kept readback buffer at the end of the open frame, MSAA resolve and
 * finalisation.
 */
#include "d3d12_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

DXGI_FORMAT xgdi_d3d12_dxgi_format(xgd_surface_format f)
{
    switch (f) {
    case XGD_SURFACE_FORMAT_COLOR: return DXGI_FORMAT_R8G8B8A8_UNORM;
    case XGD_SURFACE_FORMAT_BGR565: return DXGI_FORMAT_B5G6R5_UNORM;
    case XGD_SURFACE_FORMAT_BGRA5551: return DXGI_FORMAT_B5G5R5A1_UNORM;
    case XGD_SURFACE_FORMAT_BGRA4444: return DXGI_FORMAT_B4G4R4A4_UNORM;
    case XGD_SURFACE_FORMAT_DXT1: return DXGI_FORMAT_BC1_UNORM;
    case XGD_SURFACE_FORMAT_DXT3: return DXGI_FORMAT_BC2_UNORM;
    case XGD_SURFACE_FORMAT_DXT5: return DXGI_FORMAT_BC3_UNORM;
    case XGD_SURFACE_FORMAT_NORMALIZED_BYTE2: return DXGI_FORMAT_R8G8_SNORM;
    case XGD_SURFACE_FORMAT_NORMALIZED_BYTE4: return DXGI_FORMAT_R8G8B8A8_SNORM;
    case XGD_SURFACE_FORMAT_RGBA1010102: return DXGI_FORMAT_R10G10B10A2_UNORM;
    case XGD_SURFACE_FORMAT_RG32: return DXGI_FORMAT_R16G16_UNORM;
    case XGD_SURFACE_FORMAT_RGBA64: return DXGI_FORMAT_R16G16B16A16_UNORM;
    case XGD_SURFACE_FORMAT_ALPHA8: return DXGI_FORMAT_A8_UNORM;
    case XGD_SURFACE_FORMAT_SINGLE: return DXGI_FORMAT_R32_FLOAT;
    case XGD_SURFACE_FORMAT_VECTOR2: return DXGI_FORMAT_R32G32_FLOAT;
    case XGD_SURFACE_FORMAT_VECTOR4: return DXGI_FORMAT_R32G32B32A32_FLOAT;
    case XGD_SURFACE_FORMAT_HALF_SINGLE: return DXGI_FORMAT_R16_FLOAT;
    case XGD_SURFACE_FORMAT_HALF_VECTOR2: return DXGI_FORMAT_R16G16_FLOAT;
    case XGD_SURFACE_FORMAT_HALF_VECTOR4:
    case XGD_SURFACE_FORMAT_HDR_BLENDABLE: return DXGI_FORMAT_R16G16B16A16_FLOAT;
    default: return DXGI_FORMAT_UNKNOWN;
    }
}

DXGI_FORMAT xgdi_d3d12_dxgi_depth_format(xgd_depth_format f)
{
    switch (f) {
    case XGD_DEPTH_FORMAT_DEPTH16: return DXGI_FORMAT_D16_UNORM;
    /* Depth24 has no stencil to show; D24S8 is the 24-bit format every device has. */
    case XGD_DEPTH_FORMAT_DEPTH24:
    case XGD_DEPTH_FORMAT_DEPTH24_STENCIL8: return DXGI_FORMAT_D24_UNORM_S8_UINT;
    default: return DXGI_FORMAT_UNKNOWN;
    }
}

/* ---- barriers ----------------------------------------------------------------------------- */

void xgdi_d3d12_transition(d3d12_renderer *r, ID3D12Resource *res, UINT sub,
                           D3D12_RESOURCE_STATES *state, D3D12_RESOURCE_STATES to)
{
    if (*state == to) return;
    if (r->barrier_count == r->barrier_capacity) {
        size_t nc = r->barrier_capacity ? r->barrier_capacity * 2 : 32;
        D3D12_RESOURCE_BARRIER *n = realloc(r->barriers, nc * sizeof *n);
        if (n == NULL) { /* flush what we have; the batch restarts empty */
            xgdi_d3d12_flush_barriers(r);
        } else {
            r->barriers = n;
            r->barrier_capacity = nc;
        }
    }
    if (r->barrier_count == r->barrier_capacity) return; /* out of memory twice: give up */
    D3D12_RESOURCE_BARRIER *b = &r->barriers[r->barrier_count++];
    memset(b, 0, sizeof *b);
    b->Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b->Transition.pResource = res;
    b->Transition.Subresource = sub;
    b->Transition.StateBefore = *state;
    b->Transition.StateAfter = to;
    *state = to;
}

static void flush_barriers_to(d3d12_renderer *r, ID3D12GraphicsCommandList *list)
{
    if (r->barrier_count == 0) return;
    ID3D12GraphicsCommandList_ResourceBarrier(list, (UINT)r->barrier_count, r->barriers);
    r->barrier_count = 0;
}

void xgdi_d3d12_flush_barriers(d3d12_renderer *r)
{
    /* d3d12_list only when there is something to record: it records a pending clear */
    if (r->barrier_count > 0) flush_barriers_to(r, d3d12_list(r));
}

static UINT subresource(const xgdi_native_texture *t, int face, int level)
{
    return (UINT)(level + face * t->desc.levels);
}

void xgdi_d3d12_texture_transition(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                                   D3D12_RESOURCE_STATES to)
{
    UINT s = subresource(t, face, level);
    xgdi_d3d12_transition(r, t->res, s, &t->states[s], to);
}

void xgdi_d3d12_texture_transition_all(d3d12_renderer *r, xgdi_native_texture *t,
                                       D3D12_RESOURCE_STATES to)
{
    for (int f = 0; f < t->faces; f++)
        for (int l = 0; l < t->desc.levels; l++) xgdi_d3d12_texture_transition(r, t, f, l, to);
}

/* ---- textures ----------------------------------------------------------------------------- */

static xgd_result make_resource(d3d12_renderer *r, int w, int h, int array, int levels,
                                DXGI_FORMAT fmt, int samples, D3D12_RESOURCE_FLAGS flags,
                                const D3D12_CLEAR_VALUE *clear, ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D, .Width = (UINT64)w, .Height = (UINT)h,
        .DepthOrArraySize = (UINT16)array, .MipLevels = (UINT16)levels, .Format = fmt,
        .SampleDesc = { (UINT)samples, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN,
        .Flags = flags
    };
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_COMMON, clear,
                                                      &IID_ID3D12Resource, (void **)out);
    return xgdi_d3d12_check(r, hr, "CreateCommittedResource(texture)");
}

/* A Texture3D: one TEXTURE3D resource, `levels` subresources. */
static xgd_result make_volume_resource(d3d12_renderer *r, int w, int h, int depth, int levels,
                                       DXGI_FORMAT fmt, ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D, .Width = (UINT64)w, .Height = (UINT)h,
        .DepthOrArraySize = (UINT16)depth, .MipLevels = (UINT16)levels, .Format = fmt,
        .SampleDesc = { 1, 0 }, .Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN,
        .Flags = D3D12_RESOURCE_FLAG_NONE
    };
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_COMMON, NULL,
                                                      &IID_ID3D12Resource, (void **)out);
    return xgdi_d3d12_check(r, hr, "CreateCommittedResource(volume texture)");
}

static void free_view(d3d12_renderer *r, uint32_t *idx)
{
    xgdi_d3d12_gpu_heap_release(r, &r->view_heap, *idx);
}

static void texture_free_now(d3d12_renderer *r, xgdi_native_texture *t)
{
    int subs = t->faces * t->desc.levels;
    if (t->has_srv) free_view(r, &t->srv);
    if (t->level_srv != NULL) {
        for (int i = 0; i < subs; i++)
            if (t->level_srv[i] != UINT32_MAX) free_view(r, &t->level_srv[i]);
        free(t->level_srv);
    }
    if (t->level_uav != NULL) {
        for (int i = 0; i < t->desc.levels; i++)
            if (t->level_uav[i] != UINT32_MAX) free_view(r, &t->level_uav[i]);
        free(t->level_uav);
    }
    if (t->rtv != NULL) {
        for (int i = 0; i < subs; i++)
            if (t->rtv[i] != UINT32_MAX) xgdi_d3d12_cpu_chain_release(r, &r->rtv_heap, t->rtv[i]);
        free(t->rtv);
    }
    for (int f = 0; f < 6; f++)
        if (t->ms_rtv[f] != UINT32_MAX) xgdi_d3d12_cpu_chain_release(r, &r->rtv_heap, t->ms_rtv[f]);
    if (t->has_dsv) xgdi_d3d12_cpu_chain_release(r, &r->dsv_heap, t->dsv);
    if (t->res != NULL) ID3D12Resource_Release(t->res);
    if (t->ms != NULL) ID3D12Resource_Release(t->ms);
    if (t->depth != NULL) ID3D12Resource_Release(t->depth);
    free(t->states);
    free(t);
}

void xgdi_d3d12_texture_release(d3d12_renderer *r, xgdi_native_texture *t)
{
    texture_free_now(r, t);
}

static xgd_result new_srv(d3d12_renderer *r, ID3D12Resource *res,
                          const D3D12_SHADER_RESOURCE_VIEW_DESC *d, uint32_t *out)
{
    xgd_result e = xgdi_d3d12_gpu_heap_alloc(r, &r->view_heap, out);
    if (e != XGD_OK) return e;
    ID3D12Device_CreateShaderResourceView(r->dev, res, d,
                                          xgdi_d3d12_gpu_heap_staging(&r->view_heap, *out));
    xgdi_d3d12_gpu_heap_publish(r, &r->view_heap, *out);
    return XGD_OK;
}

xgd_result xgdi_d3d12_texture_alloc(d3d12_renderer *r, const xgdi_texture_desc *desc,
                                    xgdi_native_texture **out)
{
    *out = NULL;
    const xgdi_format_info *fi = xgdi_format_info_of(desc->format);
    xgd_surface_format store = fi != NULL && r->widened[desc->format]
                                   ? xgdi_packed_wide_format(desc->format) : desc->format;
    DXGI_FORMAT fmt = xgdi_d3d12_dxgi_format(store);
    int depth = desc->volume && desc->depth > 1 ? desc->depth : 1;
    if (fi == NULL || fmt == DXGI_FORMAT_UNKNOWN || desc->width < 1 || desc->height < 1 ||
        desc->levels < 1 || desc->width > D3D12X_MAX_TEXTURE_SIZE ||
        desc->height > D3D12X_MAX_TEXTURE_SIZE ||
        (desc->volume && (desc->cube || desc->render_target ||
                          desc->width > D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION ||
                          desc->height > D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION ||
                          depth > D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION)))
        return xgdi_fail(r->base.device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: bad texture description (%dx%d, %d levels, format %d)",
                         desc->width, desc->height, desc->levels, (int)desc->format);
    xgdi_native_texture *t = calloc(1, sizeof *t);
    if (t == NULL)
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    for (int f = 0; f < 6; f++) t->ms_rtv[f] = UINT32_MAX;
    t->desc = *desc;
    t->desc.debug_name = NULL;
    t->faces = desc->cube ? 6 : 1;
    t->fi = fi;
    t->store = store;
    t->dxgi = fmt;
    t->samples = desc->render_target && desc->samples > 1 ? desc->samples : 1;
    int subs = t->faces * desc->levels;
    xgd_result res = XGD_OK;
    t->states = calloc((size_t)subs, sizeof *t->states);
    if (t->states == NULL) {
        free(t);
        return xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    }
    for (int i = 0; i < subs; i++) t->states[i] = D3D12_RESOURCE_STATE_COMMON;
    t->ms_state = t->depth_state = D3D12_RESOURCE_STATE_COMMON;

    /* Color chains of 2D targets drawn three levels at a time (PSMipChain) write by UAVs */
    bool chain = r->mips_root != NULL && desc->render_target && desc->levels > 1 && !desc->cube &&
                 !desc->volume && fmt == DXGI_FORMAT_R8G8B8A8_UNORM;
    if (desc->volume)
        res = make_volume_resource(r, desc->width, desc->height, depth, desc->levels, fmt,
                                   &t->res);
    else
        res = make_resource(r, desc->width, desc->height, t->faces, desc->levels, fmt, 1,
                            (desc->render_target ? D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET
                                                 : D3D12_RESOURCE_FLAG_NONE) |
                                (chain ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS
                                       : D3D12_RESOURCE_FLAG_NONE),
                            NULL, &t->res);
    if (res != XGD_OK) goto fail;
    if (chain) {
        t->level_uav = malloc((size_t)desc->levels * sizeof *t->level_uav);
        if (t->level_uav == NULL) {
            res = xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
            goto fail;
        }
        for (int l = 0; l < desc->levels; l++) t->level_uav[l] = UINT32_MAX;
        for (int l = 0; l < desc->levels; l++) {
            if ((res = xgdi_d3d12_gpu_heap_alloc(r, &r->view_heap, &t->level_uav[l])) != XGD_OK)
                goto fail;
            D3D12_UNORDERED_ACCESS_VIEW_DESC ud;
            memset(&ud, 0, sizeof ud);
            ud.Format = fmt;
            ud.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
            ud.Texture2D.MipSlice = (UINT)l;
            ID3D12Device_CreateUnorderedAccessView(r->dev, t->res, NULL, &ud,
                                                   xgdi_d3d12_gpu_heap_staging(&r->view_heap,
                                                                               t->level_uav[l]));
            xgdi_d3d12_gpu_heap_publish(r, &r->view_heap, t->level_uav[l]);
        }
    }

    D3D12_SHADER_RESOURCE_VIEW_DESC sd;
    memset(&sd, 0, sizeof sd);
    sd.Format = fmt;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    if (desc->volume) {
        sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
        sd.Texture3D.MipLevels = (UINT)desc->levels;
    } else if (desc->cube) {
        sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
        sd.TextureCube.MipLevels = (UINT)desc->levels;
    } else {
        sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
        sd.Texture2D.MipLevels = (UINT)desc->levels;
    }
    if ((res = new_srv(r, t->res, &sd, &t->srv)) != XGD_OK) goto fail;
    t->has_srv = true;

    if (desc->render_target) {
        t->rtv = malloc((size_t)subs * sizeof *t->rtv);
        t->level_srv = malloc((size_t)subs * sizeof *t->level_srv);
        if (t->rtv == NULL || t->level_srv == NULL) {
            res = xgdi_fail(r->base.device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
            goto fail;
        }
        for (int i = 0; i < subs; i++) t->rtv[i] = t->level_srv[i] = UINT32_MAX;
        for (int f = 0; f < t->faces; f++) {
            for (int l = 0; l < desc->levels; l++) {
                int i = f * desc->levels + l;
                if ((res = xgdi_d3d12_cpu_chain_alloc(r, &r->rtv_heap, &t->rtv[i])) != XGD_OK)
                    goto fail;
                D3D12_RENDER_TARGET_VIEW_DESC rd;
                memset(&rd, 0, sizeof rd);
                rd.Format = fmt;
                rd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
                rd.Texture2DArray.MipSlice = (UINT)l;
                rd.Texture2DArray.FirstArraySlice = (UINT)f;
                rd.Texture2DArray.ArraySize = 1;
                ID3D12Device_CreateRenderTargetView(r->dev, t->res, &rd,
                                                    xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->rtv[i]));
                /* one level of one face, for the blit shader (mips, sample fill) */
                D3D12_SHADER_RESOURCE_VIEW_DESC ls;
                memset(&ls, 0, sizeof ls);
                ls.Format = fmt;
                ls.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
                ls.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
                ls.Texture2DArray.MostDetailedMip = (UINT)l;
                ls.Texture2DArray.MipLevels = 1;
                ls.Texture2DArray.FirstArraySlice = (UINT)f;
                ls.Texture2DArray.ArraySize = 1;
                if ((res = new_srv(r, t->res, &ls, &t->level_srv[i])) != XGD_OK) goto fail;
            }
        }
        if (t->samples > 1) {
            /* RenderTargetCube's MSAA colour: a six-slice 2D MS array (issue 5) */
            res = make_resource(r, desc->width, desc->height, t->faces, 1, fmt, t->samples,
                                D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, NULL, &t->ms);
            if (res != XGD_OK) goto fail;
            for (int f = 0; f < t->faces; f++) {
                if ((res = xgdi_d3d12_cpu_chain_alloc(r, &r->rtv_heap, &t->ms_rtv[f])) != XGD_OK)
                    goto fail;
                D3D12_RENDER_TARGET_VIEW_DESC rd;
                memset(&rd, 0, sizeof rd);
                rd.Format = fmt;
                rd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY;
                rd.Texture2DMSArray.FirstArraySlice = (UINT)f;
                rd.Texture2DMSArray.ArraySize = 1;
                ID3D12Device_CreateRenderTargetView(
                    r->dev, t->ms, &rd, xgdi_d3d12_cpu_chain_handle(&r->rtv_heap, t->ms_rtv[f]));
            }
        }
        if (desc->depth_format != XGD_DEPTH_FORMAT_NONE &&
            desc->depth_format != XGD_DEPTH_FORMAT_DEFAULT) {
            t->depth_dxgi = xgdi_d3d12_dxgi_depth_format(desc->depth_format);
            D3D12_CLEAR_VALUE cv;
            memset(&cv, 0, sizeof cv);
            cv.Format = t->depth_dxgi;
            cv.DepthStencil.Depth = 1.0f;
            res = make_resource(r, desc->width, desc->height, 1, 1, t->depth_dxgi, t->samples,
                                D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL |
                                    D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE,
                                &cv, &t->depth);
            if (res != XGD_OK) goto fail;
            if ((res = xgdi_d3d12_cpu_chain_alloc(r, &r->dsv_heap, &t->dsv)) != XGD_OK) goto fail;
            t->has_dsv = true;
            D3D12_DEPTH_STENCIL_VIEW_DESC dd;
            memset(&dd, 0, sizeof dd);
            dd.Format = t->depth_dxgi;
            dd.ViewDimension = t->samples > 1 ? D3D12_DSV_DIMENSION_TEXTURE2DMS
                                              : D3D12_DSV_DIMENSION_TEXTURE2D;
            ID3D12Device_CreateDepthStencilView(r->dev, t->depth, &dd,
                                                xgdi_d3d12_cpu_chain_handle(&r->dsv_heap, t->dsv));
        }
    }
    if (r->debug) {
        /* labels outlive desc->debug_name (not ours to keep): debug devices keep a copy */
        if (desc->debug_name != NULL)
            (void)snprintf(t->label, sizeof t->label, "%s", desc->debug_name);
        const char *name = t->label[0] ? t->label
                         : desc->render_target ? "xgd render target" : "xgd texture";
        d3d12_set_name(r, t->res, "%s", name);
        d3d12_set_name(r, t->ms, "%s (multisampled)", name);
        d3d12_set_name(r, t->depth, "%s (depth)", name);
    }
    r->stats.textures_created++;
    *out = t;
    return XGD_OK;
fail:
    texture_free_now(r, t);
    return res;
}

xgd_result xgdi_d3d12_op_texture_create(xgdi_renderer *base, const xgdi_texture_desc *desc,
                                        xgdi_native_texture **out)
{
    return xgdi_d3d12_texture_alloc(d3d12_cast(base), desc, out);
}

static void retired_texture_free(xgdi_renderer *base, void *object)
{
    texture_free_now(d3d12_cast(base), object);
}

void xgdi_d3d12_op_texture_destroy(xgdi_renderer *base, xgdi_native_texture *t)
{
    if (t == NULL) return;
    d3d12_renderer *r = d3d12_cast(base);
    for (int i = 0; i < r->target_count; i++) {
        if (r->targets[i].texture == t) {
            /* the pending clear is this set's (core unbinds a destroyed target first, which
               flushes it already); an unbound texture's destruction keeps it pending, so the
               next clear can still merge */
            xgdi_d3d12_flush_clear(r);
            memset(r->targets, 0, sizeof r->targets);
            r->targets[0].texture = r->back_buffer;
            r->target_count = 1;
            r->targets_dirty = true;
            break;
        }
    }
    /* Submitted or recorded work may still use it: free after the open frame's fence. */
    if (xgdi_retire_push(&base->retired, base->submitted_fence + 1, retired_texture_free, t) !=
        XGD_OK) {
        if (base->ops->submit(base) == XGD_OK) xgdi_d3d12_wait(r, base->submitted_fence);
        texture_free_now(r, t);
    }
}

/* ---- upload / download: one box path for 2D, cube and volume textures --------------------- */

/* A placed footprint of a box: whole blocks wide and high, one slice every pitch * rows (a 2D
   or cube face is the box z 0..1 of its subresource). */
static void box_footprint(const xgdi_native_texture *t, const xgd_box *b, size_t pitch,
                          D3D12_SUBRESOURCE_FOOTPRINT *fp)
{
    int bs = t->fi->block_size;
    int w = b->right - b->left, rows = (b->bottom - b->top + bs - 1) / bs;
    fp->Format = t->dxgi;
    fp->Width = (UINT)(((w + bs - 1) / bs) * bs);
    fp->Height = (UINT)(rows * bs);
    fp->Depth = (UINT)(b->back - b->front);
    fp->RowPitch = (UINT)pitch;
}

static void box_marker(d3d12_renderer *r, ID3D12GraphicsCommandList *list, const char *verb,
                       const xgdi_native_texture *t, int face, int level, const xgd_box *b)
{
    if (t->desc.volume)
        d3d12_marker(r, list, "%s %s level %d box (%d,%d,%d)-(%d,%d,%d)", verb,
                     t->label[0] ? t->label : "volume texture", level, b->left, b->top, b->front,
                     b->right, b->bottom, b->back);
    else
        d3d12_marker(r, list, "%s %s face %d level %d (%d,%d %dx%d)", verb,
                     t == r->back_buffer ? "back buffer" : t->label[0] ? t->label : "texture",
                     face, level, b->left, b->top, b->right - b->left, b->bottom - b->top);
}

/* Records the copy of a box into face/level through the frame's upload ring: rows row_pitch
   apart (block rows for DXT), slices slice_pitch apart. */
static xgd_result upload_box(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                             const xgd_box *box, const uint8_t *src, size_t row_pitch,
                             size_t slice_pitch)
{
    int bs = t->fi->block_size;
    int w = box->right - box->left, h = box->bottom - box->top, slices = box->back - box->front;
    size_t row_bytes = xgdi_format_row_size(t->store, w); /* as the resource holds them */
    int rows = (h + bs - 1) / bs;
    size_t pitch = (row_bytes + D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1) &
                   ~(size_t)(D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1);
    size_t slice = pitch * (size_t)rows;
    bool widen = t->store != t->desc.format;
    d3d12_alloc a;
    xgd_result res = xgdi_d3d12_linear_alloc(r, &r->frames[r->slot].ring, slice * (size_t)slices,
                                             D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT, &a);
    if (res != XGD_OK) return res;
    for (int z = 0; z < slices; z++)
        for (int y = 0; y < rows; y++) {
            uint8_t *to = a.cpu + (size_t)z * slice + (size_t)y * pitch;
            const uint8_t *from_row = src + (size_t)z * slice_pitch + (size_t)y * row_pitch;
            if (widen) xgdi_packed_widen_row(t->desc.format, from_row, w, to);
            else memcpy(to, from_row, row_bytes);
        }
    D3D12_TEXTURE_COPY_LOCATION dst, from;
    memset(&dst, 0, sizeof dst);
    memset(&from, 0, sizeof from);
    dst.pResource = t->res;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    dst.SubresourceIndex = subresource(t, face, level);
    from.pResource = a.res;
    from.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    from.PlacedFootprint.Offset = a.offset;
    box_footprint(t, box, pitch, &from.PlacedFootprint.Footprint);
    /* block formats: the footprint is whole blocks; the source box is the region's real size
       (a level smaller than a block is copied as its real size), front/back the slices */
    D3D12_BOX bx = { 0, 0, 0, (UINT)w, (UINT)h, (UINT)slices };
    xgdi_d3d12_texture_transition(r, t, face, level, D3D12_RESOURCE_STATE_COPY_DEST);
    xgdi_d3d12_flush_barriers(r);
    box_marker(r, d3d12_list(r), "upload", t, face, level, box);
    ID3D12GraphicsCommandList_CopyTextureRegion(d3d12_list(r), &dst, (UINT)box->left,
                                                (UINT)box->top, (UINT)box->front, &from, &bx);
    return XGD_OK;
}

/* ---- readback memory ---------------------------------------------------------------------- */

/*
 * Readbacks copy into one readback-heap buffer the renderer keeps between them, mapped for as
 * long as it lives: creating, mapping and freeing a buffer per readback cost more than the copy
 * itself (vkd3d maps a heap's memory afresh on every first Map, and the CPU then faults in
 * every page of it). Every readback waits for its copy before returning, so the kept buffer is
 * idle whenever the next one starts. It grows in powers of two up to D3D12X_READBACK_KEEP; a
 * larger readback gets a buffer of its own, freed after it, so what stays allocated is bounded.
 */
#define D3D12X_READBACK_MIN (1u << 20)
#define D3D12X_READBACK_KEEP (64u << 20)

typedef struct d3d12_readback {
    ID3D12Resource *res;
    bool kept; /* the renderer's buffer (else this readback's own) */
} d3d12_readback;

static xgd_result readback_create(d3d12_renderer *r, size_t size, const char *name,
                                  ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_READBACK };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = size, .Height = 1,
        .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
        .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR
    };
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_COPY_DEST, NULL,
                                                      &IID_ID3D12Resource, (void **)out);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "CreateCommittedResource(readback)");
    r->stats.readback_buffers_created++;
    d3d12_set_name(r, *out, "%s", name);
    return XGD_OK;
}

/* A readback buffer of at least size bytes, idle. */
static xgd_result readback_acquire(d3d12_renderer *r, size_t size, const char *name,
                                   d3d12_readback *out)
{
    out->res = NULL;
    out->kept = false;
    if (size > D3D12X_READBACK_KEEP) return readback_create(r, size, name, &out->res);
    if (r->readback == NULL || r->readback_size < size) {
        size_t want = D3D12X_READBACK_MIN;
        while (want < size) want *= 2;
        ID3D12Resource *res = NULL;
        xgd_result result = readback_create(r, want, "xgd readback", &res);
        if (result != XGD_OK) return result;
        /* mapped from now on, reading nothing yet (an empty read range): each readback maps
           it again around its own read, which only counts while this mapping lasts */
        void *p = NULL;
        D3D12_RANGE none = { 0, 0 };
        HRESULT hr = ID3D12Resource_Map(res, 0, &none, &p);
        if (FAILED(hr)) {
            ID3D12Resource_Release(res);
            return xgdi_d3d12_check(r, hr, "Map(readback)");
        }
        xgdi_d3d12_readback_free(r);
        r->readback = res;
        r->readback_size = want;
    }
    out->res = r->readback;
    out->kept = true;
    return XGD_OK;
}

/* Ends a readback's use of its buffer. After a failure its copy may still be pending on the
   GPU, so the buffer is released only once the queue passed it (the next readback makes a
   new one). */
static void readback_release(d3d12_renderer *r, d3d12_readback *rb, bool failed)
{
    if (rb->res == NULL) return;
    if (rb->kept && !failed) return;
    if (rb->kept) {
        D3D12_RANGE none = { 0, 0 };
        ID3D12Resource_Unmap(rb->res, 0, &none);
        r->readback = NULL;
        r->readback_size = 0;
    }
    if (failed) xgdi_d3d12_retire_unknown(r, (IUnknown *)rb->res);
    else ID3D12Resource_Release(rb->res);
    rb->res = NULL;
}

void xgdi_d3d12_readback_free(d3d12_renderer *r)
{
    if (r->readback == NULL) return;
    D3D12_RANGE none = { 0, 0 };
    ID3D12Resource_Unmap(r->readback, 0, &none);
    ID3D12Resource_Release(r->readback);
    r->readback = NULL;
    r->readback_size = 0;
}

/* The CPU's view of the first size bytes the GPU copied into rb (released by readback_unmap). */
static xgd_result readback_map(d3d12_renderer *r, d3d12_readback *rb, size_t size,
                               const uint8_t **out)
{
    void *p = NULL;
    D3D12_RANGE all = { 0, size };
    HRESULT hr = ID3D12Resource_Map(rb->res, 0, &all, &p);
    if (FAILED(hr)) return xgdi_d3d12_check(r, hr, "Map(readback)");
    *out = p;
    return XGD_OK;
}

static void readback_unmap(d3d12_readback *rb)
{
    D3D12_RANGE none = { 0, 0 };
    ID3D12Resource_Unmap(rb->res, 0, &none);
}

/* Synchronous read of a box of face/level: the copy into the readback buffer ends the open
   frame, which is submitted and waited for; the source returns to its tracked state. */
static xgd_result download_box(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                               const xgd_box *box, uint8_t *out, size_t row_pitch,
                               size_t slice_pitch)
{
    int bs = t->fi->block_size;
    int w = box->right - box->left, h = box->bottom - box->top, slices = box->back - box->front;
    size_t row_bytes = xgdi_format_row_size(t->store, w); /* as the resource holds them */
    int rows = (h + bs - 1) / bs;
    size_t pitch = (row_bytes + D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1) &
                   ~(size_t)(D3D12_TEXTURE_DATA_PITCH_ALIGNMENT - 1);
    size_t slice = pitch * (size_t)rows, size = slice * (size_t)slices;
    bool narrow = t->store != t->desc.format;
    d3d12_readback rb;
    xgd_result res = readback_acquire(r, size, t->desc.volume ? "xgd volume readback" : "xgd readback",
                                      &rb);
    if (res != XGD_OK) return res;
    /* the copy ends the open frame, which is submitted with it: what the frame drew is read */
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    box_marker(r, list, "read back", t, face, level, box);
    UINT sub = subresource(t, face, level);
    D3D12_RESOURCE_STATES before = t->states[sub];
    xgdi_d3d12_texture_transition(r, t, face, level, D3D12_RESOURCE_STATE_COPY_SOURCE);
    flush_barriers_to(r, list);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    memset(&dst, 0, sizeof dst);
    memset(&src, 0, sizeof src);
    src.pResource = t->res;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = sub;
    dst.pResource = rb.res;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    box_footprint(t, box, pitch, &dst.PlacedFootprint.Footprint);
    D3D12_BOX bx = { (UINT)box->left, (UINT)box->top, (UINT)box->front, (UINT)box->right,
                     (UINT)box->bottom, (UINT)box->back };
    ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, &bx);
    /* readback returns the source to its tracked state */
    if (before != D3D12_RESOURCE_STATE_COMMON)
        xgdi_d3d12_texture_transition(r, t, face, level, before);
    res = xgdi_d3d12_submit_and_wait(r);
    const uint8_t *p = NULL;
    if (res == XGD_OK) res = readback_map(r, &rb, size, &p);
    if (res == XGD_OK) {
        for (int z = 0; z < slices; z++)
            for (int y = 0; y < rows; y++) {
                uint8_t *to = out + (size_t)z * slice_pitch + (size_t)y * row_pitch;
                const uint8_t *from_row = p + (size_t)z * slice + (size_t)y * pitch;
                if (narrow) xgdi_packed_narrow_row(t->desc.format, from_row, w, to);
                else memcpy(to, from_row, row_bytes);
            }
        readback_unmap(&rb);
    }
    readback_release(r, &rb, res != XGD_OK);
    return res;
}

xgd_result xgdi_d3d12_op_texture_upload(xgdi_renderer *base, xgdi_native_texture *t, int face,
                                        int level, const xgd_rect *rect, const void *data,
                                        size_t row_pitch)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: upload to face %d level %d outside the texture", face, level);
    /* one slice: its pitch is never used */
    xgd_result res = upload_box(r, t, face, level, &box, data, row_pitch, 0);
    if (res != XGD_OK) return res;
    /* A multisampled target's samples follow its level 0 (as the software renderer), so a
       later draw with PreserveContents blends over what was uploaded. */
    if (t->samples > 1 && level == 0) return xgdi_d3d12_fill_samples(r, t, face);
    return XGD_OK;
}

xgd_result xgdi_d3d12_read_subresource(d3d12_renderer *r, xgdi_native_texture *t, int face, int level,
                                       const xgd_rect *rect, void *data, size_t row_pitch)
{
    xgd_box box = xgdi_box_of_rect(rect);
    return download_box(r, t, face, level, &box, data, row_pitch, 0);
}

xgd_result xgdi_d3d12_op_texture_download(xgdi_renderer *base, xgdi_native_texture *t, int face,
                                          int level, const xgd_rect *rect, void *data,
                                          size_t row_pitch)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    xgd_box box = xgdi_box_of_rect(rect);
    if (!xgdi_texture_region_ok(&t->desc, face, level, &box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: download from face %d level %d outside the texture", face,
                         level);
    if (level == 0 && t->samples > 1 && t->ms_dirty[face]) {
        xgd_result res = xgdi_d3d12_texture_resolve(r, t, face);
        if (res != XGD_OK) return res;
    }
    return download_box(r, t, face, level, &box, data, row_pitch, 0);
}

/* Volumes (Texture3D): a box of one level (face 0), through the same path. */
xgd_result xgdi_d3d12_op_texture_upload_volume(xgdi_renderer *base, xgdi_native_texture *t, int level,
                                               const xgd_box *box, const void *data,
                                               size_t row_pitch, size_t slice_pitch)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: volume upload to level %d outside the texture", level);
    return upload_box(r, t, 0, level, box, data, row_pitch, slice_pitch);
}

xgd_result xgdi_d3d12_op_texture_download_volume(xgdi_renderer *base, xgdi_native_texture *t,
                                                 int level, const xgd_box *box, void *data,
                                                 size_t row_pitch, size_t slice_pitch)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (!t->desc.volume || !xgdi_texture_region_ok(&t->desc, 0, level, box))
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: volume download from level %d outside the texture", level);
    return download_box(r, t, 0, level, box, data, row_pitch, slice_pitch);
}

xgd_result xgdi_d3d12_texture_resolve(d3d12_renderer *r, xgdi_native_texture *t, int face)
{
    if (t->samples <= 1) return XGD_OK;
    xgdi_d3d12_transition(r, t->ms, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, &t->ms_state,
                          D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    xgdi_d3d12_texture_transition(r, t, face, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    xgdi_d3d12_flush_barriers(r);
    d3d12_marker(r, d3d12_list(r), "resolve %s face %d",
                 t == r->back_buffer ? "back buffer" : t->label[0] ? t->label : "render target",
                 face);
    /* the MS array slice of the face resolves into the face's level 0 (2D or cube) */
    ID3D12GraphicsCommandList_ResolveSubresource(d3d12_list(r), t->res, subresource(t, face, 0),
                                                 t->ms, (UINT)face, t->dxgi);
    t->ms_dirty[face] = false;
    return XGD_OK;
}

xgd_result xgdi_d3d12_op_texture_finalize(xgdi_renderer *base, xgdi_native_texture *t, int face)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (face < 0 || face >= t->faces)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: finalize of face %d out of range", face);
    /* always resolve and regenerate, as the software renderer */
    xgd_result res = XGD_OK;
    if (t->samples > 1) {
        t->ms_dirty[face] = true;
        res = xgdi_d3d12_texture_resolve(r, t, face);
    }
    if (res == XGD_OK && t->desc.levels > 1) res = xgdi_d3d12_generate_mips(r, t, face);
    return res;
}

/* ---- buffers ------------------------------------------------------------------------------ */

xgd_result xgdi_d3d12_op_buffer_create(xgdi_renderer *base, xgdi_buffer_kind kind, size_t size,
                                       bool dynamic, xgdi_native_buffer **out)
{
    d3d12_renderer *r = d3d12_cast(base);
    *out = NULL;
    xgdi_native_buffer *b = calloc(1, sizeof *b);
    if (b == NULL) return xgdi_fail(base->device, XGD_ERROR_OUT_OF_MEMORY, "d3d12: out of memory");
    b->kind = kind;
    b->size = size;
    b->dynamic = dynamic;
    D3D12_HEAP_PROPERTIES hp = { .Type = D3D12_HEAP_TYPE_DEFAULT };
    D3D12_RESOURCE_DESC rd = {
        .Dimension = D3D12_RESOURCE_DIMENSION_BUFFER, .Width = size > 0 ? size : 4, .Height = 1,
        .DepthOrArraySize = 1, .MipLevels = 1, .SampleDesc = { 1, 0 },
        .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR
    };
    HRESULT hr = ID3D12Device_CreateCommittedResource(r->dev, &hp, D3D12_HEAP_FLAG_NONE, &rd,
                                                      D3D12_RESOURCE_STATE_COMMON, NULL,
                                                      &IID_ID3D12Resource, (void **)&b->res);
    if (FAILED(hr)) {
        free(b);
        return xgdi_d3d12_check(r, hr, "CreateCommittedResource(buffer)");
    }
    d3d12_set_name(r, b->res, "xgd %s buffer (%lu bytes)",
                   kind == XGDI_BUFFER_INDEX ? "index" : "vertex", (unsigned long)size);
    b->state = D3D12_RESOURCE_STATE_COMMON;
    r->stats.buffers_created++;
    *out = b;
    return XGD_OK;
}

static void retired_buffer_free(xgdi_renderer *base, void *object)
{
    (void)base;
    xgdi_native_buffer *b = object;
    ID3D12Resource_Release(b->res);
    free(b);
}

void xgdi_d3d12_op_buffer_destroy(xgdi_renderer *base, xgdi_native_buffer *b)
{
    if (b == NULL) return;
    if (xgdi_retire_push(&base->retired, base->submitted_fence + 1, retired_buffer_free, b) !=
        XGD_OK) {
        if (base->ops->submit(base) == XGD_OK)
            xgdi_d3d12_wait(d3d12_cast(base), base->submitted_fence);
        retired_buffer_free(base, b);
    }
}

xgd_result xgdi_d3d12_op_buffer_upload(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset,
                                       const void *data, size_t size, xgd_set_data_options options)
{
    (void)options; /* every option goes through the ring: recorded draws keep their data */
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: buffer upload [%u, +%u) outside %u bytes", (unsigned)offset,
                         (unsigned)size, (unsigned)b->size);
    if (size == 0) return XGD_OK;
    d3d12_alloc a;
    xgd_result res = xgdi_d3d12_linear_alloc(r, &r->frames[r->slot].ring, size, 16, &a);
    if (res != XGD_OK) return res;
    memcpy(a.cpu, data, size);
    xgdi_d3d12_transition(r, b->res, 0, &b->state, D3D12_RESOURCE_STATE_COPY_DEST);
    xgdi_d3d12_flush_barriers(r);
    ID3D12GraphicsCommandList_CopyBufferRegion(d3d12_list(r), b->res, offset, a.res, a.offset,
                                               size);
    return XGD_OK;
}

xgd_result xgdi_d3d12_op_buffer_download(xgdi_renderer *base, xgdi_native_buffer *b, size_t offset,
                                         void *data, size_t size)
{
    d3d12_renderer *r = d3d12_cast(base);
    if (r->lost) return XGD_ERROR_DEVICE_LOST;
    if (offset > b->size || size > b->size - offset)
        return xgdi_fail(base->device, XGD_ERROR_INVALID_ARGUMENT,
                         "d3d12: buffer download [%u, +%u) outside %u bytes", (unsigned)offset,
                         (unsigned)size, (unsigned)b->size);
    if (size == 0) return XGD_OK;
    d3d12_readback rb;
    xgd_result res = readback_acquire(r, size, "xgd buffer readback", &rb);
    if (res != XGD_OK) return res;
    ID3D12GraphicsCommandList *list = d3d12_list(r);
    D3D12_RESOURCE_STATES before = b->state;
    xgdi_d3d12_transition(r, b->res, 0, &b->state, D3D12_RESOURCE_STATE_COPY_SOURCE);
    flush_barriers_to(r, list);
    d3d12_marker(r, list, "read back buffer bytes %lu..%lu", (unsigned long)offset,
                 (unsigned long)(offset + size));
    ID3D12GraphicsCommandList_CopyBufferRegion(list, rb.res, 0, b->res, offset, size);
    if (before != D3D12_RESOURCE_STATE_COMMON)
        xgdi_d3d12_transition(r, b->res, 0, &b->state, before);
    res = xgdi_d3d12_submit_and_wait(r);
    const uint8_t *p = NULL;
    if (res == XGD_OK) res = readback_map(r, &rb, size, &p);
    if (res == XGD_OK) {
        memcpy(data, p, size);
        readback_unmap(&rb);
    }
    readback_release(r, &rb, res != XGD_OK);
    return res;
}
