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

void xgdi_hlsl_fx_free(xgdi_hlsl_fx *fx)
{
    if (fx == NULL) return;
    for (int i = 0; i < fx->technique_count; i++) free(fx->techniques[i].passes);
    free(fx->techniques);
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
    xgdi_hlsl_fx fx = { 0, NULL, NULL, 0 };
    fx.source = malloc(size + 1);
    if (fx.source == NULL) return XGD_ERROR_OUT_OF_MEMORY;
    memcpy(fx.source, source, size);
    fx.source[size] = '\0';
    fx.source_size = size;
    if (memchr(source, '\0', size) != NULL) {
        free(fx.source);
        return fail(&sc, XGD_ERROR_INVALID_ARGUMENT, 1, "the source contains a NUL byte");
    }
    int depth = 0, cap = 0;
    xgd_result r = XGD_OK;
    for (;;) {
        tok t = next(&sc);
        if (t.kind == TOK_END) break;
        if (is_punct(&t, '{')) depth++;
        else if (is_punct(&t, '}')) depth--;
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
        /* blank the block in the copy, newlines kept */
        for (size_t i = t.begin; i < sc.pos; i++)
            if (fx.source[i] != '\n') fx.source[i] = ' ';
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
