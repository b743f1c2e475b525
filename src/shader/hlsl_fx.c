/*
 * hlsl_fx.c - the technique/pass scanner of HLSL effect sources (hlsl_fx.h).
 *
 * A small tokenizer that knows what it must skip to find blocks at file scope: comments,
 * string literals and preprocessor lines. Only `technique`, `technique10` and `technique11`
 * at brace depth 0 start a block; inside one, only `pass` blocks and their statements are
 * accepted. Everything else is left to the compiler.
 */
#include "hlsl_fx.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum tok_kind { TOK_END, TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_PUNCT } tok_kind;

typedef struct tok {
    tok_kind kind;
    size_t begin, end; /* byte range in the source */
    int line;
    char punct;        /* TOK_PUNCT: the character */
} tok;

typedef struct scanner {
    const char *s;
    size_t n, pos;
    int line;
    bool line_start;   /* only blanks since the last newline: '#' starts a directive */
    const char *file;
    char *msg;
    size_t msg_size;
} scanner;

static xgd_result fail(scanner *sc, xgd_result code, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static xgd_result fail(scanner *sc, xgd_result code, int line, const char *fmt, ...)
{
    if (sc->msg != NULL && sc->msg_size > 0) {
        int k = snprintf(sc->msg, sc->msg_size, "%s:%d: ", sc->file, line);
        if (k >= 0 && (size_t)k < sc->msg_size) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(sc->msg + k, sc->msg_size - (size_t)k, fmt, ap);
            va_end(ap);
        }
    }
    return code;
}

/* Skips blanks, comments and preprocessor lines (with their backslash continuations). */
static void skip_space(scanner *sc)
{
    while (sc->pos < sc->n) {
        char c = sc->s[sc->pos];
        if (c == '\n') {
            sc->line++;
            sc->line_start = true;
            sc->pos++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            sc->pos++;
        } else if (c == '#' && sc->line_start) {
            while (sc->pos < sc->n && sc->s[sc->pos] != '\n') {
                if (sc->s[sc->pos] == '\\' && sc->pos + 1 < sc->n && sc->s[sc->pos + 1] == '\n') {
                    sc->line++;
                    sc->pos++;
                }
                sc->pos++;
            }
        } else if (c == '/' && sc->pos + 1 < sc->n && sc->s[sc->pos + 1] == '/') {
            while (sc->pos < sc->n && sc->s[sc->pos] != '\n') sc->pos++;
        } else if (c == '/' && sc->pos + 1 < sc->n && sc->s[sc->pos + 1] == '*') {
            sc->pos += 2;
            while (sc->pos < sc->n && !(sc->s[sc->pos] == '*' && sc->pos + 1 < sc->n &&
                                        sc->s[sc->pos + 1] == '/')) {
                if (sc->s[sc->pos] == '\n') sc->line++;
                sc->pos++;
            }
            sc->pos = sc->pos + 2 <= sc->n ? sc->pos + 2 : sc->n;
        } else {
            return;
        }
    }
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static tok next(scanner *sc)
{
    skip_space(sc);
    tok t = { TOK_END, sc->pos, sc->pos, sc->line, 0 };
    if (sc->pos >= sc->n) return t;
    sc->line_start = false;
    char c = sc->s[sc->pos];
    if (isalpha((unsigned char)c) || c == '_') {
        while (sc->pos < sc->n && ident_char(sc->s[sc->pos])) sc->pos++;
        t.kind = TOK_IDENT;
    } else if (isdigit((unsigned char)c) || (c == '.' && sc->pos + 1 < sc->n &&
                                             isdigit((unsigned char)sc->s[sc->pos + 1]))) {
        while (sc->pos < sc->n && (ident_char(sc->s[sc->pos]) || sc->s[sc->pos] == '.')) sc->pos++;
        t.kind = TOK_NUMBER;
    } else if (c == '"') {
        sc->pos++;
        while (sc->pos < sc->n && sc->s[sc->pos] != '"' && sc->s[sc->pos] != '\n') {
            if (sc->s[sc->pos] == '\\' && sc->pos + 1 < sc->n) sc->pos++;
            sc->pos++;
        }
        if (sc->pos < sc->n && sc->s[sc->pos] == '"') sc->pos++;
        t.kind = TOK_STRING;
    } else {
        sc->pos++;
        t.kind = TOK_PUNCT;
        t.punct = c;
    }
    t.end = sc->pos;
    return t;
}

static tok peek(scanner *sc)
{
    scanner copy = *sc;
    return next(&copy);
}

static bool tok_is(const scanner *sc, const tok *t, const char *word)
{
    size_t k = strlen(word);
    return t->kind == TOK_IDENT && t->end - t->begin == k && memcmp(sc->s + t->begin, word, k) == 0;
}

static bool tok_is_nocase(const scanner *sc, const tok *t, const char *word)
{
    size_t k = strlen(word);
    if (t->kind != TOK_IDENT || t->end - t->begin != k) return false;
    for (size_t i = 0; i < k; i++)
        if (tolower((unsigned char)sc->s[t->begin + i]) != tolower((unsigned char)word[i]))
            return false;
    return true;
}

static bool is_punct(const tok *t, char c) { return t->kind == TOK_PUNCT && t->punct == c; }

/* Copies a token's text into a fixed buffer; false when it does not fit. */
static bool tok_copy(const scanner *sc, const tok *t, char *dst, size_t size)
{
    size_t k = t->end - t->begin;
    if (k + 1 > size) return false;
    memcpy(dst, sc->s + t->begin, k);
    dst[k] = '\0';
    return true;
}

/* Skips an annotation block `< ... >` if one follows (annotations are for tools). */
static xgd_result skip_annotations(scanner *sc)
{
    tok t = peek(sc);
    if (!is_punct(&t, '<')) return XGD_OK;
    next(sc);
    for (;;) {
        t = next(sc);
        if (t.kind == TOK_END)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "unterminated annotation block");
        if (is_punct(&t, '>')) return XGD_OK;
    }
}

/* Which stage a profile names: "vs_..." 0, "ps_..." 1, -1 otherwise. The 4_0_level_9_x
 * profiles are longer than a stored profile (15 characters) holds, so they are refused with
 * the other unknown ones. */
static int profile_stage(const char *p)
{
    static const char *const ok[] = { "2_0", "2_a", "2_b", "2_sw", "3_0", "3_sw", "4_0", "4_1",
                                      "5_0" };
    int stage = strncmp(p, "vs_", 3) == 0 ? 0 : strncmp(p, "ps_", 3) == 0 ? 1 : -1;
    if (stage < 0) return -1;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strcmp(p + 3, ok[i]) == 0) return stage;
    return -1;
}

/* Reads `PROFILE ENTRY ( )` (DX9: after `compile`) or `PROFILE , ENTRY ( )` (DX10: inside
 * CompileShader). A shader compiled with arguments (uniform parameters bound per pass) is not
 * supported. */
static xgd_result read_compile(scanner *sc, xgdi_hlsl_pass *p, int want_stage, bool comma)
{
    tok prof = next(sc);
    char profile[16];
    if (prof.kind != TOK_IDENT || !tok_copy(sc, &prof, profile, sizeof profile) ||
        profile_stage(profile) < 0)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, prof.line,
                    "expected a vertex or pixel shader profile (vs_2_0 .. vs_5_0, ps_2_0 .. ps_5_0)");
    int stage = profile_stage(profile);
    if (want_stage >= 0 && stage != want_stage)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, prof.line, "profile %s compiled for the %s shader",
                    profile, want_stage == 0 ? "vertex" : "pixel");
    if (comma) {
        tok c = next(sc);
        if (!is_punct(&c, ','))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, c.line, "expected ',' after %s", profile);
    }
    tok entry = next(sc);
    if (entry.kind != TOK_IDENT)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, entry.line, "expected an entry point after %s",
                    profile);
    if (!tok_copy(sc, &entry, p->entry[stage], sizeof p->entry[stage]))
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, entry.line, "entry point name too long");
    tok open = next(sc), close = next(sc);
    if (!is_punct(&open, '('))
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, open.line, "expected '(' after %s",
                    p->entry[stage]);
    if (!is_punct(&close, ')'))
        return fail(sc, XGD_ERROR_NOT_SUPPORTED, close.line,
                    "%s is compiled with arguments; pass-bound uniform arguments are not supported",
                    p->entry[stage]);
    memcpy(p->profile[stage], profile, sizeof profile);
    p->entry_line[stage] = entry.line;
    return XGD_OK;
}

/* Value text of a state: from `from` up to (not including) the ';' at parenthesis depth 0,
 * trimmed. The scanner ends after the ';'. */
static xgd_result read_value(scanner *sc, xgdi_hlsl_state *st, int line)
{
    tok first = peek(sc);
    size_t begin = first.begin, end = begin;
    int depth = 0;
    for (;;) {
        tok t = next(sc);
        if (t.kind == TOK_END || (depth == 0 && is_punct(&t, '}')))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, line, "state %s: missing ';'", st->name);
        if (is_punct(&t, '(')) depth++;
        if (is_punct(&t, ')')) depth--;
        if (depth == 0 && is_punct(&t, ';')) break;
        end = t.end;
    }
    size_t k = end > begin ? end - begin : 0;
    if (k + 1 > sizeof st->value)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, line, "state %s: value too long", st->name);
    memcpy(st->value, sc->s + begin, k);
    st->value[k] = '\0';
    return XGD_OK;
}

static xgd_result expect(scanner *sc, char c, const char *where)
{
    tok t = next(sc);
    if (!is_punct(&t, c)) return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "expected '%c' %s", c, where);
    return XGD_OK;
}

/* One statement of a pass. */
static xgd_result read_statement(scanner *sc, xgdi_hlsl_pass *p, tok name)
{
    xgd_result r;
    tok t = next(sc);
    if (is_punct(&t, '=')) {
        int stage = tok_is_nocase(sc, &name, "VertexShader") ? 0
                    : tok_is_nocase(sc, &name, "PixelShader") ? 1 : -1;
        if (stage >= 0) {
            tok v = peek(sc);
            if (tok_is(sc, &v, "compile")) {
                next(sc);
                if ((r = read_compile(sc, p, stage, false)) != XGD_OK) return r;
                return expect(sc, ';', "after the compiled shader");
            }
            if (tok_is(sc, &v, "NULL") || (v.kind == TOK_NUMBER && v.end - v.begin == 1 &&
                                           sc->s[v.begin] == '0')) {
                next(sc);
                p->entry[stage][0] = '\0';
                return expect(sc, ';', "after NULL");
            }
            return fail(sc, XGD_ERROR_NOT_SUPPORTED, v.line,
                        "%s must be `compile <profile> <entry>()` or NULL (shader variables and "
                        "arrays are not supported)", stage == 0 ? "VertexShader" : "PixelShader");
        }
    } else if (is_punct(&t, '(')) {
        int stage = tok_is(sc, &name, "SetVertexShader") ? 0 : tok_is(sc, &name, "SetPixelShader") ? 1
                    : tok_is(sc, &name, "SetGeometryShader") || tok_is(sc, &name, "SetHullShader") ||
                              tok_is(sc, &name, "SetDomainShader") || tok_is(sc, &name, "SetComputeShader")
                        ? 2 : -1;
        if (stage >= 0) {
            tok v = next(sc);
            if (tok_is(sc, &v, "NULL") || (v.kind == TOK_NUMBER && v.end - v.begin == 1 &&
                                           sc->s[v.begin] == '0')) {
                if (stage < 2) p->entry[stage][0] = '\0';
            } else if (stage == 2) {
                char what[XGDI_HLSL_NAME_MAX];
                tok_copy(sc, &name, what, sizeof what);
                return fail(sc, XGD_ERROR_NOT_SUPPORTED, name.line,
                            "%s: only vertex and pixel shaders are supported", what);
            } else if (tok_is(sc, &v, "CompileShader")) {
                if ((r = expect(sc, '(', "after CompileShader")) != XGD_OK) return r;
                if ((r = read_compile(sc, p, stage, true)) != XGD_OK) return r;
                if ((r = expect(sc, ')', "closing CompileShader")) != XGD_OK) return r;
            } else {
                return fail(sc, XGD_ERROR_NOT_SUPPORTED, v.line,
                            "the shader must be CompileShader(<profile>, <entry>()) or NULL");
            }
            if ((r = expect(sc, ')', "closing the call")) != XGD_OK) return r;
            return expect(sc, ';', "after the call");
        }
    } else {
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line,
                    "expected '=' or '(' after a pass statement's name");
    }
    /* a render state: `Name = value;` or `SetXxxState(args);` */
    if (p->state_count >= XGDI_HLSL_STATE_MAX)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, name.line, "more than %d states in one pass",
                    XGDI_HLSL_STATE_MAX);
    xgdi_hlsl_state *st = &p->states[p->state_count];
    memset(st, 0, sizeof *st);
    if (!tok_copy(sc, &name, st->name, sizeof st->name))
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, name.line, "state name too long");
    st->line = name.line;
    if (is_punct(&t, '(')) {
        /* the arguments, without the closing parenthesis */
        tok first = peek(sc);
        size_t begin = first.begin, end = begin;
        int depth = 1;
        for (;;) {
            tok a = next(sc);
            if (a.kind == TOK_END)
                return fail(sc, XGD_ERROR_INVALID_ARGUMENT, name.line, "%s: missing ')'", st->name);
            if (is_punct(&a, '(')) depth++;
            if (is_punct(&a, ')') && --depth == 0) break;
            end = a.end;
        }
        size_t k = end > begin ? end - begin : 0;
        if (k + 1 > sizeof st->value)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, name.line, "%s: arguments too long", st->name);
        memcpy(st->value, sc->s + begin, k);
        st->value[k] = '\0';
        if ((r = expect(sc, ';', "after the call")) != XGD_OK) return r;
    } else if ((r = read_value(sc, st, name.line)) != XGD_OK) {
        return r;
    }
    p->state_count++;
    return XGD_OK;
}

static xgd_result read_pass(scanner *sc, xgdi_hlsl_pass *p, tok kw)
{
    memset(p, 0, sizeof *p);
    p->line = kw.line;
    tok t = peek(sc);
    if (t.kind == TOK_IDENT) {
        next(sc);
        if (!tok_copy(sc, &t, p->name, sizeof p->name))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "pass name too long");
    }
    xgd_result r = skip_annotations(sc);
    if (r != XGD_OK) return r;
    if ((r = expect(sc, '{', "opening the pass")) != XGD_OK) return r;
    for (;;) {
        t = next(sc);
        if (is_punct(&t, '}')) break;
        if (is_punct(&t, ';')) continue;
        if (t.kind != TOK_IDENT)
            return fail(sc, t.kind == TOK_END ? XGD_ERROR_INVALID_ARGUMENT : XGD_ERROR_INVALID_ARGUMENT,
                        t.line, t.kind == TOK_END ? "pass %s: missing '}'" : "pass %s: expected a statement",
                        p->name);
        if ((r = read_statement(sc, p, t)) != XGD_OK) return r;
    }
    if (p->entry[0][0] == '\0' && p->entry[1][0] == '\0')
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, p->line, "pass %s sets no vertex or pixel shader",
                    p->name[0] ? p->name : "(unnamed)");
    return XGD_OK;
}

static xgd_result read_technique(scanner *sc, xgdi_hlsl_technique *tq, tok kw)
{
    memset(tq, 0, sizeof *tq);
    tq->line = kw.line;
    tok t = peek(sc);
    if (t.kind == TOK_IDENT) {
        next(sc);
        if (!tok_copy(sc, &t, tq->name, sizeof tq->name))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "technique name too long");
    }
    xgd_result r = skip_annotations(sc);
    if (r != XGD_OK) return r;
    if ((r = expect(sc, '{', "opening the technique")) != XGD_OK) return r;
    int cap = 0;
    for (;;) {
        t = next(sc);
        if (is_punct(&t, '}')) break;
        if (!tok_is(sc, &t, "pass"))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line,
                        t.kind == TOK_END ? "technique %s: missing '}'"
                                          : "technique %s: expected `pass`",
                        tq->name[0] ? tq->name : "(unnamed)");
        if (tq->pass_count == cap) {
            int ncap = cap ? cap * 2 : 2;
            xgdi_hlsl_pass *np = realloc(tq->passes, (size_t)ncap * sizeof *np);
            if (np == NULL) return XGD_ERROR_OUT_OF_MEMORY;
            tq->passes = np;
            cap = ncap;
        }
        if ((r = read_pass(sc, &tq->passes[tq->pass_count], t)) != XGD_OK) return r;
        tq->pass_count++;
    }
    if (tq->pass_count == 0)
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, tq->line, "technique %s has no pass",
                    tq->name[0] ? tq->name : "(unnamed)");
    return XGD_OK;
}

/* ---- sampler state blocks ------------------------------------------------------------------ */

static bool word_is(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    return *a == *b;
}

static bool word_in(const char *v, const char *const *words, int n, int *index)
{
    for (int i = 0; i < n; i++)
        if (word_is(v, words[i])) {
            *index = i;
            return true;
        }
    return false;
}

/* An integer value in [lo, hi]; false otherwise. */
static bool int_value(const char *v, long lo, long hi, int *out)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || x < lo || x > hi) return false;
    *out = (int)x;
    return true;
}

/* One `Name = value` of a sampler block into *ss. */
static xgd_result sampler_assign(scanner *sc, xgdi_hlsl_sampler *ss, const xgdi_hlsl_state *st)
{
    static const char *const filters[] = { "None", "Point", "Linear", "Anisotropic" };
    static const char *const addresses[] = { "", "Wrap", "Mirror", "Clamp", "Border", "MirrorOnce", "Mirror_Once" };
    /* D3D10 filters: min, mag, mip in Direct3D 9's terms (P 1, L 2, A 3) */
    static const struct { const char *name; int mn, mg, mp; } d3d10[] = {
        { "MIN_MAG_MIP_POINT", 1, 1, 1 }, { "MIN_MAG_POINT_MIP_LINEAR", 1, 1, 2 },
        { "MIN_POINT_MAG_LINEAR_MIP_POINT", 1, 2, 1 }, { "MIN_POINT_MAG_MIP_LINEAR", 1, 2, 2 },
        { "MIN_LINEAR_MAG_MIP_POINT", 2, 1, 1 }, { "MIN_LINEAR_MAG_POINT_MIP_LINEAR", 2, 1, 2 },
        { "MIN_MAG_LINEAR_MIP_POINT", 2, 2, 1 }, { "MIN_MAG_MIP_LINEAR", 2, 2, 2 },
        { "ANISOTROPIC", 3, 3, 2 } };
    const char *n = st->name, *v = st->value;
    int k;
    if (word_is(n, "Texture")) {
        size_t len = strlen(v);
        char t[XGDI_HLSL_NAME_MAX];
        if (len >= 2 && ((v[0] == '<' && v[len - 1] == '>') || (v[0] == '(' && v[len - 1] == ')'))) v++, len -= 2;
        while (len > 0 && isspace((unsigned char)*v)) v++, len--;
        while (len > 0 && isspace((unsigned char)v[len - 1])) len--;
        bool ok = len > 0 && len < sizeof t && (isalpha((unsigned char)v[0]) || v[0] == '_');
        for (size_t i = 0; ok && i < len; i++) ok = ident_char(v[i]);
        if (!ok)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line,
                        "sampler %s: Texture must name a texture variable (`Texture = <Name>;`)", ss->name);
        memcpy(t, v, len);
        t[len] = '\0';
        memcpy(ss->texture, t, len + 1);
        return XGD_OK;
    }
    if (word_is(n, "MinFilter") || word_is(n, "MagFilter") || word_is(n, "MipFilter")) {
        if (!word_in(v, filters, 4, &k))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line,
                        "sampler %s: %s = %s: expected None, Point, Linear or Anisotropic", ss->name, n, v);
        if (tolower((unsigned char)n[1]) == 'i' && tolower((unsigned char)n[2]) == 'n') ss->min_filter = k, ss->set |= XGDI_HLSL_SS_MIN;
        else if (tolower((unsigned char)n[1]) == 'a') ss->mag_filter = k, ss->set |= XGDI_HLSL_SS_MAG;
        else ss->mip_filter = k, ss->set |= XGDI_HLSL_SS_MIP;
        return XGD_OK;
    }
    if (word_is(n, "Filter")) {
        for (size_t i = 0; i < sizeof d3d10 / sizeof d3d10[0]; i++)
            if (word_is(v, d3d10[i].name)) {
                ss->min_filter = d3d10[i].mn, ss->mag_filter = d3d10[i].mg, ss->mip_filter = d3d10[i].mp;
                ss->set |= XGDI_HLSL_SS_MIN | XGDI_HLSL_SS_MAG | XGDI_HLSL_SS_MIP;
                return XGD_OK;
            }
        if (strstr(v, "COMPARISON") != NULL || strstr(v, "comparison") != NULL)
            return fail(sc, XGD_ERROR_NOT_SUPPORTED, st->line,
                        "sampler %s: comparison filters are not supported (XNA has no comparison samplers)",
                        ss->name);
        return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line,
                    "sampler %s: Filter = %s: expected a D3D10 filter such as MIN_MAG_MIP_LINEAR or ANISOTROPIC",
                    ss->name, v);
    }
    if (word_is(n, "AddressU") || word_is(n, "AddressV") || word_is(n, "AddressW")) {
        if (!word_in(v, addresses, 7, &k) || k == 0)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line,
                        "sampler %s: %s = %s: expected Wrap, Mirror, Clamp, Border or MirrorOnce", ss->name, n, v);
        int axis = tolower((unsigned char)n[7]) - 'u';
        ss->address[axis] = k > 5 ? 5 : k;
        ss->set |= (uint32_t)XGDI_HLSL_SS_ADDRESS_U << axis;
        return XGD_OK;
    }
    if (word_is(n, "MaxAnisotropy")) {
        if (!int_value(v, 1, 16, &ss->max_anisotropy))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line, "sampler %s: MaxAnisotropy = %s: expected 1..16",
                        ss->name, v);
        ss->set |= XGDI_HLSL_SS_MAX_ANISOTROPY;
        return XGD_OK;
    }
    /* XNA's MaxMipLevel is the most detailed mip sampled: D3D10's MinLOD */
    if (word_is(n, "MaxMipLevel") || word_is(n, "MinLOD")) {
        if (!int_value(v, 0, 31, &ss->max_mip_level))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line, "sampler %s: %s = %s: expected a mip level 0..31",
                        ss->name, n, v);
        ss->set |= XGDI_HLSL_SS_MAX_MIP_LEVEL;
        return XGD_OK;
    }
    if (word_is(n, "MipMapLodBias") || word_is(n, "MipLODBias")) {
        char *end;
        float f = strtof(v, &end);
        if (end == v || (*end != '\0' && !((*end == 'f' || *end == 'F') && end[1] == '\0')) || !(f > -1e6f && f < 1e6f))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, st->line, "sampler %s: %s = %s: expected a number",
                        ss->name, n, v);
        ss->mip_lod_bias = f;
        ss->set |= XGDI_HLSL_SS_MIP_LOD_BIAS;
        return XGD_OK;
    }
    /* states XNA's sampler states have no field for, and that change nothing it samples */
    if (word_is(n, "BorderColor") || word_is(n, "MaxLOD")) return XGD_OK;
    return fail(sc, XGD_ERROR_NOT_SUPPORTED, st->line,
                "sampler %s: state %s is not supported (Texture, Filter, MinFilter, MagFilter, MipFilter, "
                "AddressU/V/W, MaxAnisotropy, MaxMipLevel/MinLOD, MipMapLodBias/MipLODBias)", ss->name, n);
}

/* A sampler block from its '{' to its '}' (the scanner stands after '{'), into a new entry. */
static xgd_result read_sampler_block(scanner *sc, xgdi_hlsl_fx *fx, int *cap, const char *name, int line)
{
    for (int i = 0; i < fx->sampler_count; i++)
        if (strcmp(fx->samplers[i].name, name) == 0)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, line, "sampler %s declared twice", name);
    if (fx->sampler_count == *cap) {
        int ncap = *cap ? *cap * 2 : 4;
        xgdi_hlsl_sampler *ns = realloc(fx->samplers, (size_t)ncap * sizeof *ns);
        if (ns == NULL) return XGD_ERROR_OUT_OF_MEMORY;
        fx->samplers = ns;
        *cap = ncap;
    }
    xgdi_hlsl_sampler *ss = &fx->samplers[fx->sampler_count];
    memset(ss, 0, sizeof *ss);
    snprintf(ss->name, sizeof ss->name, "%s", name);
    ss->line = line;
    for (;;) {
        tok t = next(sc);
        if (is_punct(&t, '}')) break;
        if (is_punct(&t, ';')) continue;
        if (t.kind != TOK_IDENT)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line,
                        t.kind == TOK_END ? "sampler %s: missing '}'" : "sampler %s: expected `State = value;`", name);
        xgdi_hlsl_state st;
        memset(&st, 0, sizeof st);
        if (!tok_copy(sc, &t, st.name, sizeof st.name))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "sampler %s: state name too long", name);
        st.line = t.line;
        tok eq = next(sc);
        if (!is_punct(&eq, '='))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, eq.line, "sampler %s: expected '=' after %s", name, st.name);
        xgd_result r = read_value(sc, &st, t.line);
        if (r == XGD_OK) r = sampler_assign(sc, ss, &st);
        if (r != XGD_OK) return r;
    }
    fx->sampler_count++;
    return XGD_OK;
}

/* ---- annotations of global variables ---------------------------------------------------------- */

/* Types whose `<` opens a template argument, not annotations. */
static bool template_type(const char *w)
{
    return strncmp(w, "Texture", 7) == 0 || strncmp(w, "RWTexture", 9) == 0 || strstr(w, "Buffer") != NULL ||
           strcmp(w, "vector") == 0 || strcmp(w, "matrix") == 0;
}

/* `< type name = value; ... >` (the scanner stands after '<') for variable `owner`. */
static xgd_result read_annotations(scanner *sc, xgdi_hlsl_fx *fx, int *cap, const char *owner, int line)
{
    int mine = 0;
    for (;;) {
        tok t = next(sc);
        if (is_punct(&t, '>')) return XGD_OK;
        if (is_punct(&t, ';')) continue;
        if (t.kind != TOK_IDENT)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.kind == TOK_END ? line : t.line,
                        t.kind == TOK_END ? "annotations of %s: missing '>'"
                                          : "annotations of %s: expected `type name = value;`", owner);
        static const char *const types[] = { "bool", "int", "float", "string", "half", "uint", "dword" };
        int ty;
        char tname[XGDI_HLSL_NAME_MAX] = "";
        tok_copy(sc, &t, tname, sizeof tname);
        if (!word_in(tname, types, 7, &ty) || strcmp(tname, types[ty]) != 0)
            return fail(sc, XGD_ERROR_NOT_SUPPORTED, t.line,
                        "annotation of %s: type %s is not supported (bool, int, float and string annotations)",
                        owner, tname);
        tok nm = next(sc);
        if (nm.kind != TOK_IDENT)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, nm.line, "annotation of %s: expected a name", owner);
        if (mine == XGDI_HLSL_ANNO_MAX)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, nm.line, "%s has more than %d annotations", owner,
                        XGDI_HLSL_ANNO_MAX);
        if (fx->annotation_count == *cap) {
            int ncap = *cap ? *cap * 2 : 4;
            xgdi_hlsl_annotation *na = realloc(fx->annotations, (size_t)ncap * sizeof *na);
            if (na == NULL) return XGD_ERROR_OUT_OF_MEMORY;
            fx->annotations = na;
            *cap = ncap;
        }
        xgdi_hlsl_annotation *a = &fx->annotations[fx->annotation_count];
        memset(a, 0, sizeof *a);
        snprintf(a->owner, sizeof a->owner, "%s", owner);
        a->line = nm.line;
        if (!tok_copy(sc, &nm, a->name, sizeof a->name))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, nm.line, "annotation name too long");
        xgd_result r = expect(sc, '=', "after an annotation's name");
        if (r != XGD_OK) return r;
        tok v = next(sc);
        bool neg = false;
        if (is_punct(&v, '-') && ty != 3) neg = true, v = next(sc);
        char text[XGDI_HLSL_ANNO_STRING_MAX + 2];
        if (!tok_copy(sc, &v, text, sizeof text))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, v.line, "annotation %s: value too long", a->name);
        bool ok = false;
        if (ty == 3) {
            a->type = XGDI_HLSL_ANNO_STRING;
            size_t len = strlen(text);
            if (v.kind == TOK_STRING && len >= 2 && text[len - 1] == '"') {
                memcpy(a->s, text + 1, len - 2);
                a->s[len - 2] = '\0';
                ok = true;
            }
        } else if (ty == 0) {
            a->type = XGDI_HLSL_ANNO_BOOL;
            ok = !neg && (strcmp(text, "true") == 0 || strcmp(text, "false") == 0 || strcmp(text, "1") == 0 ||
                          strcmp(text, "0") == 0);
            a->i = strcmp(text, "true") == 0 || strcmp(text, "1") == 0;
        } else if (ty == 2 || ty == 4) {
            a->type = XGDI_HLSL_ANNO_FLOAT;
            char *end;
            float f = v.kind == TOK_NUMBER ? strtof(text, &end) : 0;
            ok = v.kind == TOK_NUMBER && (*end == '\0' || ((*end == 'f' || *end == 'h') && end[1] == '\0')) &&
                 f > -3e38f && f < 3e38f;
            a->f = neg ? -f : f;
        } else {
            a->type = XGDI_HLSL_ANNO_INT;
            char *end;
            long x = v.kind == TOK_NUMBER ? strtol(text, &end, 0) : 0;
            ok = v.kind == TOK_NUMBER && (*end == '\0' || ((*end == 'u' || *end == 'U') && end[1] == '\0')) &&
                 x >= -2147483647L && x <= 2147483647L;
            a->i = (int32_t)(neg ? -x : x);
        }
        if (!ok)
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, v.line, "annotation %s of %s: the value is not a %s",
                        a->name, owner, types[ty]);
        if ((r = expect(sc, ';', "after an annotation")) != XGD_OK) return r;
        fx->annotation_count++;
        mine++;
    }
}

static void blank(xgdi_hlsl_fx *fx, size_t begin, size_t end)
{
    for (size_t i = begin; i < end && i < fx->source_size; i++)
        if (fx->source[i] != '\n') fx->source[i] = ' ';
}

/* The variable a file-scope declaration names, from the tokens before its '=' or '<':
 * `type NAME`, `type NAME : SEMANTIC` or `type NAME : register(x)`. false when they are not
 * of that shape. */
static bool declared_name(const scanner *sc, const tok *hist, int n, char *name, size_t size)
{
    int i = n - 1;
    if (i >= 0 && is_punct(&hist[i], ')')) {
        while (i >= 0 && !is_punct(&hist[i], '(')) i--;
        i--; /* register */
        if (i < 0 || hist[i].kind != TOK_IDENT) return false;
        i--;
        if (i < 0 || !is_punct(&hist[i], ':')) return false;
        i--;
    } else if (i >= 1 && hist[i].kind == TOK_IDENT && is_punct(&hist[i - 1], ':')) {
        i -= 2;
    }
    if (i < 1 || hist[i].kind != TOK_IDENT || hist[i - 1].kind != TOK_IDENT) return false;
    return tok_copy(sc, &hist[i], name, size);
}

/* What the scanner does with a token at file scope (brace depth 0), besides techniques:
 * reads sampler state blocks and blanks them (glslang rejects them), blanks Direct3D 9
 * `texture` declarations (a type glslang lacks; samplers name them), and reads the
 * annotations of global variables (glslang accepts and drops them). */
static xgd_result file_scope(scanner *sc, xgdi_hlsl_fx *fx, tok t, const tok *hist, int nhist, int *parens,
                             bool *assigned, int *sampler_cap, int *anno_cap)
{
    if (is_punct(&t, '(')) ++*parens;
    else if (is_punct(&t, ')') && *parens > 0) --*parens;
    else if (is_punct(&t, ';') || is_punct(&t, '{')) *assigned = false, *parens = 0;
    if (*parens != 0) return XGD_OK;
    char name[XGDI_HLSL_NAME_MAX];
    if (is_punct(&t, '=')) {
        *assigned = true;
        tok ss = peek(sc);
        if (!tok_is(sc, &ss, "sampler_state")) return XGD_OK;
        if (!declared_name(sc, hist, nhist, name, sizeof name))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, ss.line,
                        "sampler_state must initialise a sampler variable (`sampler S = sampler_state { ... };`)");
        next(sc);
        xgd_result r = expect(sc, '{', "opening sampler_state");
        if (r == XGD_OK) r = read_sampler_block(sc, fx, sampler_cap, name, ss.line);
        if (r != XGD_OK) return r;
        blank(fx, t.begin, sc->pos);
        tok semi = peek(sc);
        if (!is_punct(&semi, ';'))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, semi.line, "expected ';' after the sampler_state of %s",
                        name);
        return XGD_OK;
    }
    if (tok_is(sc, &t, "SamplerState")) {
        scanner look = *sc;
        tok nm = next(&look);
        if (nm.kind != TOK_IDENT || !tok_copy(sc, &nm, name, sizeof name)) return XGD_OK;
        tok b = next(&look);
        if (is_punct(&b, ':')) {
            tok reg = next(&look), open = next(&look);
            if (!tok_is(sc, &reg, "register") || !is_punct(&open, '(')) return XGD_OK;
            do b = next(&look);
            while (b.kind != TOK_END && !is_punct(&b, ')') && !is_punct(&b, ';') && !is_punct(&b, '{'));
            if (!is_punct(&b, ')')) return XGD_OK;
            b = next(&look);
        }
        if (!is_punct(&b, '{')) return XGD_OK;
        *sc = look;
        xgd_result r = read_sampler_block(sc, fx, sampler_cap, name, nm.line);
        if (r != XGD_OK) return r;
        blank(fx, b.begin, sc->pos);
        tok semi = peek(sc);
        if (!is_punct(&semi, ';'))
            return fail(sc, XGD_ERROR_INVALID_ARGUMENT, semi.line, "expected ';' after the state block of %s", name);
        return XGD_OK;
    }
    bool first = nhist == 0 || is_punct(&hist[nhist - 1], ';');
    if (first && (tok_is_nocase(sc, &t, "texture") || tok_is(sc, &t, "texture1D") || tok_is(sc, &t, "texture2D") ||
                  tok_is(sc, &t, "texture3D") || tok_is(sc, &t, "textureCUBE"))) {
        /* to its ';' (annotations may hold some) */
        for (;;) {
            tok u = next(sc);
            if (u.kind == TOK_END || is_punct(&u, '{') || is_punct(&u, '}'))
                return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "texture declaration without ';'");
            if (is_punct(&u, '<')) {
                do u = next(sc);
                while (u.kind != TOK_END && !is_punct(&u, '>'));
                if (u.kind == TOK_END)
                    return fail(sc, XGD_ERROR_INVALID_ARGUMENT, t.line, "unterminated annotation block");
            }
            if (is_punct(&u, ';')) break;
        }
        blank(fx, t.begin, sc->pos);
        return XGD_OK;
    }
    if (is_punct(&t, '<') && !*assigned && nhist >= 2 && hist[nhist - 1].kind == TOK_IDENT) {
        char prev[XGDI_HLSL_NAME_MAX] = "";
        tok_copy(sc, &hist[nhist - 1], prev, sizeof prev);
        if (hist[nhist - 2].kind == TOK_IDENT && !template_type(prev)) {
            snprintf(name, sizeof name, "%s", prev);
        } else if (nhist >= 3 && is_punct(&hist[nhist - 2], ':') && hist[nhist - 3].kind == TOK_IDENT) {
            if (!tok_copy(sc, &hist[nhist - 3], name, sizeof name)) return XGD_OK;
        } else {
            return XGD_OK;
        }
        return read_annotations(sc, fx, anno_cap, name, t.line);
    }
    return XGD_OK;
}

void xgdi_hlsl_fx_free(xgdi_hlsl_fx *fx)
{
    if (fx == NULL) return;
    for (int i = 0; i < fx->technique_count; i++) free(fx->techniques[i].passes);
    free(fx->techniques);
    free(fx->samplers);
    free(fx->annotations);
    free(fx->source);
    memset(fx, 0, sizeof *fx);
}

xgd_result xgdi_hlsl_fx_scan(const char *source, size_t size, const char *file_name,
                             xgdi_hlsl_fx *out, char *msg, size_t msg_size)
{
    if (msg != NULL && msg_size > 0) msg[0] = '\0';
    if (out == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    if (source == NULL) return XGD_ERROR_INVALID_ARGUMENT;
    scanner sc = { source, size, 0, 1, true, file_name ? file_name : "(effect)", msg, msg_size };
    xgdi_hlsl_fx fx;
    memset(&fx, 0, sizeof fx);
    fx.source = malloc(size + 1);
    if (fx.source == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    memcpy(fx.source, source, size);
    fx.source[size] = '\0';
    fx.source_size = size;
    if (memchr(source, '\0', size) != NULL) {
        free(fx.source);
        return fail(&sc, XGD_ERROR_INVALID_ARGUMENT, 1, "the source contains a NUL byte");
    }
    int depth = 0, cap = 0, sampler_cap = 0, anno_cap = 0;
    int parens = 0;               /* at brace depth 0 */
    bool assigned = false;        /* an '=' in the current file-scope statement */
    tok hist[8];                  /* the last tokens at brace depth 0, newest last */
    int nhist = 0;
    xgd_result r = XGD_OK;
    for (;;) {
        tok t = next(&sc);
        if (t.kind == TOK_END) break;
        if (is_punct(&t, '{')) depth++;
        else if (is_punct(&t, '}')) depth--;
        if (depth == 0 && !is_punct(&t, '}')) {
            r = file_scope(&sc, &fx, t, hist, nhist, &parens, &assigned, &sampler_cap, &anno_cap);
            if (r != XGD_OK) break;
            if (nhist == 8) memmove(hist, hist + 1, 7 * sizeof *hist), nhist--;
            hist[nhist++] = t;
        } else if (depth != 0 || is_punct(&t, '}')) {
            nhist = 0, parens = 0, assigned = false;
        }
        if (depth != 0 || !(tok_is(&sc, &t, "technique") || tok_is(&sc, &t, "technique10") ||
                            tok_is(&sc, &t, "technique11")))
            continue;
        if (fx.technique_count == cap) {
            int ncap = cap ? cap * 2 : 4;
            xgdi_hlsl_technique *nt = realloc(fx.techniques, (size_t)ncap * sizeof *nt);
            if (nt == NULL) {
                r = XGD_ERROR_OUT_OF_MEMORY;
                break;
            }
            fx.techniques = nt;
            cap = ncap;
        }
        r = read_technique(&sc, &fx.techniques[fx.technique_count], t);
        fx.technique_count++; /* counted even when it failed: its passes are freed below */
        if (r != XGD_OK) break;
        /* blank the block in the copy, newlines kept; a declaration may follow */
        for (size_t i = t.begin; i < sc.pos; i++)
            if (fx.source[i] != '\n') fx.source[i] = ' ';
        nhist = 0, parens = 0, assigned = false;
    }
    if (r == XGD_OK && depth != 0)
        r = fail(&sc, XGD_ERROR_INVALID_ARGUMENT, sc.line, "unbalanced braces at the end of the source");
    if (r == XGD_OK) {
        /* names must be unique where given, as the effect looks techniques and passes up by name */
        for (int i = 0; i < fx.technique_count && r == XGD_OK; i++) {
            const xgdi_hlsl_technique *a = &fx.techniques[i];
            for (int j = 0; j < i && r == XGD_OK; j++)
                if (a->name[0] && strcmp(a->name, fx.techniques[j].name) == 0)
                    r = fail(&sc, XGD_ERROR_INVALID_ARGUMENT, a->line, "technique %s defined twice",
                             a->name);
            for (int p = 0; p < a->pass_count && r == XGD_OK; p++)
                for (int q = 0; q < p && r == XGD_OK; q++)
                    if (a->passes[p].name[0] && strcmp(a->passes[p].name, a->passes[q].name) == 0)
                        r = fail(&sc, XGD_ERROR_INVALID_ARGUMENT, a->passes[p].line,
                                 "pass %s defined twice in technique %s", a->passes[p].name,
                                 a->name);
        }
    }
    if (r != XGD_OK) {
        if (r == XGD_ERROR_OUT_OF_MEMORY && msg != NULL && msg_size > 0)
            snprintf(msg, msg_size, "%s: out of memory while scanning", sc.file);
        xgdi_hlsl_fx_free(&fx);
        return r;
    }
    *out = fx;
    return XGD_OK;
}
