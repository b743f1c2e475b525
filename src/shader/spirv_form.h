/*
 * spirv_form.h - normalisation into the shader form of renderer.h ("user shaders").
 */
#ifndef XGD_SPIRV_FORM_H
#define XGD_SPIRV_FORM_H

#include "renderer.h"

#include <stdio.h>

/* A stage input or output the front end named: its variable is called "<vs_|ps_><name>". */
typedef struct xgdi_spirv_form_var {
    char name[16];
    xgd_vertex_element_usage usage;
    int usage_index;
    bool output;                 /* pixel outputs keep their Location (COLORi at i) */
} xgdi_spirv_form_var;

typedef struct xgdi_spirv_form_input {
    xgdi_shader_stage stage;
    const uint32_t *words;       /* the front end's output (may carry trailing data) */
    size_t byte_count;
    int register_count;          /* vec4s of the front end's uniform block (0: none) */
    const xgdi_spirv_form_var *vars;
    int var_count;
} xgdi_spirv_form_input;

/* The module in the form (malloc'd words) or a named failure with a message in err. */
xgd_result xgdi_spirv_form(const xgdi_spirv_form_input *in, uint32_t **out_words,
                           size_t *out_count, char *err, size_t err_cap);

#endif
