/*
 * renderers.c - the table of compiled renderers: the only place with #if per renderer
 * (STYLE.md "Layout shows the architecture").
 */
#include "internal.h"

#include <ctype.h>
#include <stddef.h>

/* Best first: GPU renderers before the software reference (xgd.h, xgd_device_desc.renderer). */
static const xgdi_renderer_ops *const compiled_ops[] = {
#ifdef XGD_HAVE_VULKAN
    &xgdi_vulkan_renderer_ops,
#endif
#ifdef XGD_HAVE_D3D12
    &xgdi_d3d12_renderer_ops,
#endif
    &xgdi_software_renderer_ops,
    NULL
};

static const char *const compiled_names[] = {
#ifdef XGD_HAVE_VULKAN
    "vulkan",
#endif
#ifdef XGD_HAVE_D3D12
    "d3d12",
#endif
    "software",
    NULL
};

const char *const *xgd_renderers_compiled(void)
{
    return compiled_names;
}

const xgdi_renderer_ops *const *xgdi_renderer_list(void)
{
    return compiled_ops;
}

const xgdi_renderer_ops *xgdi_renderer_find(xgd_renderer_kind kind)
{
    for (size_t i = 0; compiled_ops[i] != NULL; i++) {
        if (compiled_ops[i]->kind == kind) return compiled_ops[i];
    }
    return NULL;
}

const char *xgdi_renderer_kind_name(xgd_renderer_kind kind)
{
    switch (kind) {
    case XGD_RENDERER_AUTO: return "auto";
    case XGD_RENDERER_SOFTWARE: return "software";
    case XGD_RENDERER_VULKAN: return "vulkan";
    case XGD_RENDERER_D3D12: return "d3d12";
    default: return "unknown";
    }
}

/* Case-insensitive so that XGD_RENDERER=Software works as a user expects. */
static bool name_equals(const char *a, const char *b)
{
    for (; *a != '\0' && *b != '\0'; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    }
    return *a == *b;
}

xgd_renderer_kind xgd_renderer_from_name(const char *name)
{
    if (name == NULL) return XGD_RENDERER_COUNT;
    for (int k = XGD_RENDERER_SOFTWARE; k < XGD_RENDERER_COUNT; k++) {
        if (name_equals(name, xgdi_renderer_kind_name((xgd_renderer_kind)k)))
            return (xgd_renderer_kind)k;
    }
    return XGD_RENDERER_COUNT;
}
