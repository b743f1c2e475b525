/*
 * xgd-conformance - runs the conformance inventory (every XGD_FIXTURE) on every compiled
 * renderer and prints a fixture x renderer matrix: pass, FAIL, XFAIL (a registered known gap,
 * with its reason) and n/s (not supported, with its reason). With --html DIR it also writes
 * DIR/index.html showing, per fixture and renderer, each read-back image beside the expected one.
 *
 * Each cell runs as its own process (`xgd-tests --renderer R FIXTURE`), so a crash or a hang
 * on one renderer costs one cell, not the report. The runner's exit codes and last lines are
 * its contract (tests/harness.h): 0 pass (or "XFAIL: reason"), 1 failure, 77 "NOT SUPPORTED:
 * reason"; "  wrote PATH" names each image it saved (XGD_TEST_SAVE_IMAGES=1 saves passing
 * comparisons too).
 *
 * With --from DIR it runs nothing: ctest runs every cell once with XGD_TEST_RESULTS=1, each
 * leaving DIR/<fixture>.<renderer>.result and its images, and the matrix, the report and the
 * agreement check are built from those. A cell without a result, or with one older than the
 * runner, is an error (exit 2): the suite has not run on this build.
 */
#define _POSIX_C_SOURCE 200809L

#include "xgd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#ifndef XGD_TESTS_RUNNER
#define XGD_TESTS_RUNNER ""
#endif

typedef enum cell_status {
    CELL_PENDING = 0,
    CELL_PASS,
    CELL_FAIL,
    CELL_XFAIL,
    CELL_NOT_SUPPORTED
} cell_status;

typedef struct image_pair {
    char *label;
    char *actual;   /* file name inside the image folder, or NULL */
    char *expected;
} image_pair;

typedef struct cell {
    const char *fixture;
    const char *renderer;
    cell_status status;
    char *reason;        /* XFAIL / not-supported reason, or the first failure line */
    char *log_path;
    image_pair *images;
    int image_count;
    pid_t pid;
    struct timespec started;
} cell;

typedef struct options {
    const char *runner;
    const char *html_dir;
    const char *from_dir;    /* --from: results the suite saved; no cell is run */
    const char *renderers[XGD_RENDERER_COUNT + 1];
    int renderer_count;
    char **fixtures;
    int fixture_count;
    int jobs;
    double timeout_s;
    int agree_tol;       /* --agreement: < 0 off */
    long agree_cap;      /* pixels allowed beyond agree_tol per image; < 0: 0.5% of the image */
} options;

/* ---- small helpers ------------------------------------------------------------------------ */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "xgd-conformance: out of memory\n");
        exit(2);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *p = xmalloc(n + 1);
    memcpy(p, s, n + 1);
    return p;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

static bool make_dir(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf) return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i < n; i++) {
        if (buf[i] != '/') continue;
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST) return false;
        buf[i] = '/';
    }
    return mkdir(buf, 0777) == 0 || errno == EEXIST;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return xstrdup("");
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (cap - len < 2) {
            cap *= 2;
            char *grown = realloc(buf, cap);
            if (grown == NULL) break;
            buf = grown;
        }
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* ---- running the runner ------------------------------------------------------------------- */

/* The environment of the child: ours, with the given NAME=value entries replacing any of the
 * same name. */
static char **child_environment(char *const *extra, int extra_count)
{
    int n = 0;
    while (environ[n] != NULL) n++;
    char **env = xmalloc(sizeof *env * (size_t)(n + extra_count + 1));
    int k = 0;
    for (int i = 0; i < n; i++) {
        bool replaced = false;
        for (int j = 0; j < extra_count; j++) {
            size_t len = (size_t)(strchr(extra[j], '=') - extra[j]) + 1;
            if (strncmp(environ[i], extra[j], len) == 0) replaced = true;
        }
        if (!replaced) env[k++] = environ[i];
    }
    for (int j = 0; j < extra_count; j++) env[k++] = extra[j];
    env[k] = NULL;
    return env;
}

/* Starts argv with stdout and stderr going to log_path; returns the pid or -1. */
static pid_t spawn_logged(char *const argv[], char *const envp[], const char *log_path)
{
    posix_spawn_file_actions_t fa;
    if (posix_spawn_file_actions_init(&fa) != 0) return -1;
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log_path, O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    int err = posix_spawn(&pid, argv[0], &fa, NULL, argv, envp);
    posix_spawn_file_actions_destroy(&fa);
    if (err != 0) {
        fprintf(stderr, "xgd-conformance: cannot run %s: %s\n", argv[0], strerror(err));
        return -1;
    }
    return pid;
}

/* The fixture names the runner registers, in its order. */
static bool list_fixtures(options *o, const char *work)
{
    char *log = xprintf("%s/list-fixtures.txt", work);
    char *argv[] = { (char *)o->runner, "--list-fixtures", NULL };
    pid_t pid = spawn_logged(argv, environ, log);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "xgd-conformance: '%s --list-fixtures' failed\n", o->runner);
        free(log);
        return false;
    }
    char *text = read_text(log);
    unlink(log);
    free(log);
    int cap = 64;
    o->fixtures = xmalloc(sizeof *o->fixtures * (size_t)cap);
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (line[0] == '\0') continue;
        if (o->fixture_count == cap) {
            cap *= 2;
            char **grown = realloc(o->fixtures, sizeof *grown * (size_t)cap);
            if (grown == NULL) break;
            o->fixtures = grown;
        }
        o->fixtures[o->fixture_count++] = xstrdup(line);
    }
    free(text);
    return true;
}

/* An image the runner saved: "<dir>/<fixture>.<renderer>.<label>.<actual|expected>.png". */
static void note_image(cell *c, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    char *prefix = xprintf("%s.%s.", c->fixture, c->renderer);
    size_t pl = strlen(prefix), bl = strlen(base);
    bool actual = bl > 11 && strcmp(base + bl - 11, ".actual.png") == 0;
    bool expected = bl > 13 && strcmp(base + bl - 13, ".expected.png") == 0;
    if (strncmp(base, prefix, pl) != 0 || (!actual && !expected)) {
        free(prefix);
        return;
    }
    size_t ll = bl - pl - (actual ? 11 : 13);
    char *label = xmalloc(ll + 1);
    memcpy(label, base + pl, ll);
    label[ll] = '\0';
    free(prefix);
    image_pair *p = NULL;
    for (int i = 0; i < c->image_count; i++)
        if (strcmp(c->images[i].label, label) == 0) p = &c->images[i];
    if (p == NULL) {
        image_pair *grown = realloc(c->images, sizeof *grown * (size_t)(c->image_count + 1));
        if (grown == NULL) {
            free(label);
            return;
        }
        c->images = grown;
        p = &c->images[c->image_count++];
        memset(p, 0, sizeof *p);
        p->label = label;
    } else {
        free(label);
    }
    char **slot = actual ? &p->actual : &p->expected;
    free(*slot);
    *slot = xstrdup(base);
}

/* What a hung cell's threads are blocked in, from Linux's /proc (comm:wchan per thread, e.g.
 * "xgd-tests:futex_wait_queue vkd3d_fence:do_poll"), so a timeout in the report says where it
 * hung; "" elsewhere. Read before the cell is killed. */
static char *describe_threads(pid_t pid)
{
    char path[64], out[1024] = "";
    size_t used = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *dir = opendir(path);
    if (dir == NULL) return xstrdup("");
    for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir)) {
        if (e->d_name[0] == '.') continue;
        char comm[64] = "?", wchan[64] = "?", file[384];
        FILE *f;
        snprintf(file, sizeof file, "%s/%s/comm", path, e->d_name);
        if ((f = fopen(file, "r")) != NULL) {
            if (fgets(comm, sizeof comm, f) != NULL) comm[strcspn(comm, "\n")] = 0;
            fclose(f);
        }
        snprintf(file, sizeof file, "%s/%s/wchan", path, e->d_name);
        if ((f = fopen(file, "r")) != NULL) {
            if (fgets(wchan, sizeof wchan, f) == NULL) snprintf(wchan, sizeof wchan, "?");
            fclose(f);
        }
        int n = snprintf(out + used, sizeof out - used, "%s%s:%s", used ? " " : "", comm, wchan);
        if (n < 0 || (size_t)n >= sizeof out - used) break;
        used += (size_t)n;
    }
    closedir(dir);
    return xstrdup(out);
}

/* Reads a finished cell's log and exit status into its result. */
static void finish_cell(cell *c, int status, bool timed_out, double timeout_s,
                        const char *threads)
{
    char *text = read_text(c->log_path);
    char *first_failure = NULL, *xfail = NULL, *ns = NULL;
    bool unexpected_pass = false;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "XFAIL: ", 7) == 0) xfail = line + 7;
        else if (strncmp(line, "NOT SUPPORTED: ", 15) == 0) ns = line + 15;
        else if (strncmp(line, "UNEXPECTED PASS", 15) == 0) unexpected_pass = true;
        else if (strncmp(line, "  wrote ", 8) == 0) note_image(c, line + 8);
        else if (first_failure == NULL && strncmp(line, "RUN ", 4) != 0 &&
                 strncmp(line, "PASS ", 5) != 0 && strncmp(line, "FAIL ", 5) != 0 &&
                 strncmp(line, "  ", 2) != 0)
            first_failure = line;
    }
    if (timed_out) {
        c->status = CELL_FAIL;
        c->reason = threads != NULL && threads[0]
                        ? xprintf("timed out after %.0f s; threads: %s", timeout_s, threads)
                        : xprintf("timed out after %.0f s", timeout_s);
    } else if (WIFSIGNALED(status)) {
        c->status = CELL_FAIL;
        c->reason = xprintf("crashed (signal %d)", WTERMSIG(status));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        c->status = CELL_NOT_SUPPORTED;
        c->reason = xstrdup(ns != NULL ? ns : "(no reason given)");
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        c->status = xfail != NULL ? CELL_XFAIL : CELL_PASS;
        c->reason = xfail != NULL ? xstrdup(xfail) : NULL;
    } else {
        c->status = CELL_FAIL;
        if (unexpected_pass)
            c->reason = xstrdup("unexpected pass of a registered known gap");
        else
            c->reason = xstrdup(first_failure != NULL ? first_failure : "failed (see the log)");
    }
    free(text);
}

static void run_cells(const options *o, cell *cells, int count, char **envp)
{
    int next = 0, running = 0, done = 0;
    while (done < count) {
        while (running < o->jobs && next < count) {
            cell *c = &cells[next++];
            char *argv[] = { (char *)o->runner, "--renderer", (char *)c->renderer,
                             (char *)c->fixture, NULL };
            clock_gettime(CLOCK_MONOTONIC, &c->started);
            c->pid = spawn_logged(argv, envp, c->log_path);
            if (c->pid < 0) {
                c->status = CELL_FAIL;
                c->reason = xstrdup("could not start the runner");
                done++;
                continue;
            }
            running++;
        }
        if (running == 0) continue;
        int status = 0;
        pid_t pid = waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (int i = 0; i < next; i++) {
                if (cells[i].pid != pid) continue;
                finish_cell(&cells[i], status, false, o->timeout_s, NULL);
                cells[i].pid = 0;
            }
            running--;
            done++;
            continue;
        }
        if (pid < 0 && errno != EINTR && errno != ECHILD) break;
        /* A hung cell is killed so that one renderer's deadlock cannot stall the report. */
        for (int i = 0; i < next; i++) {
            if (cells[i].pid <= 0 || seconds_since(&cells[i].started) < o->timeout_s) continue;
            char *threads = describe_threads(cells[i].pid);
            kill(cells[i].pid, SIGKILL);
            waitpid(cells[i].pid, &status, 0);
            finish_cell(&cells[i], status, true, o->timeout_s, threads);
            free(threads);
            cells[i].pid = 0;
            running--;
            done++;
        }
        struct timespec nap = { 0, 5 * 1000 * 1000 };
        nanosleep(&nap, NULL);
    }
}

/* ---- results the suite saved (--from) ------------------------------------------------------ */

typedef enum saved_state { SAVED_OK, SAVED_MISSING, SAVED_STALE, SAVED_BAD } saved_state;

/* Reads DIR/<fixture>.<renderer>.result (format: tests/harness.c, write_result) into the cell.
 * A result older than the runner belongs to an earlier build and is refused. */
static saved_state load_result(cell *c, const char *dir, const struct stat *runner)
{
    char *path = xprintf("%s/%s.%s.result", dir, c->fixture, c->renderer);
    struct stat st;
    if (stat(path, &st) != 0) {
        free(path);
        return SAVED_MISSING;
    }
    if (st.st_mtim.tv_sec < runner->st_mtim.tv_sec ||
        (st.st_mtim.tv_sec == runner->st_mtim.tv_sec &&
         st.st_mtim.tv_nsec < runner->st_mtim.tv_nsec)) {
        free(path);
        return SAVED_STALE;
    }
    char *text = read_text(path);
    free(path);
    const char *status = NULL, *reason = NULL;
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        if (strncmp(line, "status ", 7) == 0) status = line + 7;
        else if (strncmp(line, "reason ", 7) == 0) reason = line + 7;
        else if (strncmp(line, "image ", 6) == 0) note_image(c, line + 6);
    }
    saved_state state = SAVED_OK;
    if (status == NULL) {
        state = SAVED_BAD;
    } else if (strcmp(status, "pass") == 0) {
        c->status = CELL_PASS;
    } else if (strcmp(status, "XFAIL") == 0) {
        c->status = CELL_XFAIL;
    } else if (strcmp(status, "n/s") == 0) {
        c->status = CELL_NOT_SUPPORTED;
    } else if (strcmp(status, "running") == 0) {
        c->status = CELL_FAIL;
        reason = "did not finish (crashed, or killed at the ctest timeout; see its ctest log)";
    } else {
        c->status = CELL_FAIL;
        if (reason == NULL) reason = "failed (see its ctest log)";
    }
    if (state == SAVED_OK && (reason != NULL || c->status == CELL_XFAIL ||
                              c->status == CELL_NOT_SUPPORTED))
        c->reason = xstrdup(reason != NULL ? reason : "(no reason given)");
    free(text);
    return state;
}

/* Every cell's saved result, or an error naming what is missing. */
static bool load_results(const options *o, cell *cells, int count)
{
    struct stat runner;
    if (stat(o->runner, &runner) != 0) {
        fprintf(stderr, "xgd-conformance: cannot stat the runner %s: %s\n", o->runner,
                strerror(errno));
        return false;
    }
    int missing = 0, stale = 0, bad = 0;
    for (int i = 0; i < count; i++) {
        saved_state s = load_result(&cells[i], o->from_dir, &runner);
        if (s == SAVED_OK) continue;
        missing += s == SAVED_MISSING;
        stale += s == SAVED_STALE;
        bad += s == SAVED_BAD;
        if (missing + stale + bad <= 10)
            fprintf(stderr, "xgd-conformance: %s [%s]: %s: %s/%s.%s.result\n",
                    cells[i].fixture, cells[i].renderer,
                    s == SAVED_MISSING ? "no saved result"
                    : s == SAVED_STALE ? "result older than the runner (an earlier build)"
                                       : "unreadable result",
                    o->from_dir, cells[i].fixture, cells[i].renderer);
    }
    if (missing + stale + bad == 0) return true;
    fprintf(stderr,
            "xgd-conformance: %d of %d cells have no usable saved result in %s (%d missing, "
            "%d stale, %d unreadable); run the conformance cells of this build first, e.g.\n"
            "  ctest --test-dir BUILD -R '^conformance\\.'   (they save with XGD_TEST_RESULTS=1)\n"
            "or run the matrix here without --from\n",
            missing + stale + bad, count, o->from_dir, missing, stale, bad);
    return false;
}

/* The report shows the saved images from its own img/ folder: a hard link where possible,
 * else a copy. */
static bool copy_file(const char *from, const char *to)
{
    unlink(to);
    if (link(from, to) == 0) return true;
    FILE *in = fopen(from, "rb");
    if (in == NULL) return false;
    FILE *out = fopen(to, "wb");
    if (out == NULL) {
        fclose(in);
        return false;
    }
    char buf[65536];
    size_t n;
    bool ok = true;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) ok &= fwrite(buf, 1, n, out) == n;
    ok &= !ferror(in);
    fclose(in);
    ok &= fclose(out) == 0;
    return ok;
}

static void import_images(const char *from, const char *img, const cell *cells, int count)
{
    for (int i = 0; i < count; i++) {
        for (int k = 0; k < cells[i].image_count; k++) {
            const char *names[2] = { cells[i].images[k].actual, cells[i].images[k].expected };
            for (int j = 0; j < 2; j++) {
                if (names[j] == NULL) continue;
                char *a = xprintf("%s/%s", from, names[j]), *b = xprintf("%s/%s", img, names[j]);
                if (!copy_file(a, b))
                    fprintf(stderr, "xgd-conformance: cannot copy %s to %s\n", a, b);
                free(a);
                free(b);
            }
        }
    }
}

/* ---- reports -------------------------------------------------------------------------------- */

static const char *status_word(cell_status s)
{
    switch (s) {
    case CELL_PASS: return "pass";
    case CELL_FAIL: return "FAIL";
    case CELL_XFAIL: return "XFAIL";
    case CELL_NOT_SUPPORTED: return "n/s";
    default: return "?";
    }
}

static void print_matrix(const options *o, const cell *cells)
{
    int width = 7;
    for (int f = 0; f < o->fixture_count; f++) {
        int n = (int)strlen(o->fixtures[f]);
        if (n > width) width = n;
    }
    printf("%-*s", width, "fixture");
    for (int r = 0; r < o->renderer_count; r++) printf("  %-9s", o->renderers[r]);
    printf("\n");
    for (int f = 0; f < o->fixture_count; f++) {
        printf("%-*s", width, o->fixtures[f]);
        for (int r = 0; r < o->renderer_count; r++)
            printf("  %-9s", status_word(cells[f * o->renderer_count + r].status));
        printf("\n");
    }
    bool any_note = false;
    for (int i = 0; i < o->fixture_count * o->renderer_count; i++) {
        const cell *c = &cells[i];
        if (c->status == CELL_PASS) continue;
        if (!any_note) printf("\nnotes:\n");
        any_note = true;
        printf("  %s [%s] %s: %s\n", c->fixture, c->renderer, status_word(c->status),
               c->reason != NULL ? c->reason : "");
    }
    printf("\n");
    for (int r = 0; r < o->renderer_count; r++) {
        int count[5] = { 0 };
        for (int f = 0; f < o->fixture_count; f++) count[cells[f * o->renderer_count + r].status]++;
        printf("%s: %d pass, %d FAIL, %d XFAIL, %d not supported (of %d)\n", o->renderers[r],
               count[CELL_PASS], count[CELL_FAIL], count[CELL_XFAIL], count[CELL_NOT_SUPPORTED],
               o->fixture_count);
    }
}

static void html_escape(FILE *f, const char *s)
{
    for (; s != NULL && *s != '\0'; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* PNG width and height from the IHDR chunk (bytes 16..23, big-endian). */
static bool png_size(const char *path, int *w, int *h)
{
    unsigned char b[24];
    FILE *f = fopen(path, "rb");
    if (f == NULL) return false;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    if (n != sizeof b || memcmp(b + 1, "PNG", 3) != 0) return false;
    *w = (int)((unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19]);
    *h = (int)((unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23]);
    return *w > 0 && *h > 0;
}

static void html_image(FILE *f, const char *dir, const char *name, const char *caption)
{
    fputs("<figure>", f);
    if (name == NULL) {
        fputs("<div class=missing>none</div>", f);
    } else {
        char *path = xprintf("%s/img/%s", dir, name);
        int w = 0, h = 0;
        /* Small test images are scaled up by a whole factor so single pixels stay visible. */
        int scale = 1;
        if (png_size(path, &w, &h)) {
            int big = w > h ? w : h;
            scale = big < 160 ? 160 / big : 1;
            if (scale < 1) scale = 1;
        }
        fputs("<a href=\"img/", f);
        html_escape(f, name);
        fprintf(f, "\"><img src=\"img/");
        html_escape(f, name);
        if (w > 0) fprintf(f, "\" width=%d height=%d", w * scale, h * scale);
        else fputs("\"", f);
        fputs("></a>", f);
        free(path);
    }
    fprintf(f, "<figcaption>%s</figcaption></figure>", caption);
}

static bool write_html(const options *o, const cell *cells)
{
    char *path = xprintf("%s/index.html", o->html_dir);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "xgd-conformance: cannot write %s: %s\n", path, strerror(errno));
        free(path);
        return false;
    }
    fputs("<!doctype html>\n<html><head><meta charset=utf-8><title>xgd conformance</title>\n"
          "<style>body{font:13px sans-serif;margin:1em}table{border-collapse:collapse}"
          "td,th{border:1px solid #bbb;padding:4px;vertical-align:top;text-align:left}"
          "img{image-rendering:pixelated;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%)"
          " 0 0/16px 16px;border:1px solid #888}figure{display:inline-block;margin:2px 6px}"
          "figcaption{font-size:11px;color:#555}.pass{background:#dfd}.FAIL{background:#fcc}"
          ".XFAIL{background:#ffd}.ns{background:#eee}.label{font-family:monospace}"
          ".missing{width:64px;height:64px;border:1px dashed #aaa}.pair{margin:3px 0}"
          "</style></head><body>\n<h1>xgd conformance</h1>\n<p>", f);
    for (int r = 0; r < o->renderer_count; r++) {
        int count[5] = { 0 };
        for (int i = 0; i < o->fixture_count; i++) count[cells[i * o->renderer_count + r].status]++;
        fprintf(f, "<b>%s</b>: %d pass, %d FAIL, %d XFAIL, %d not supported of %d.<br>\n",
                o->renderers[r], count[CELL_PASS], count[CELL_FAIL], count[CELL_XFAIL],
                count[CELL_NOT_SUPPORTED], o->fixture_count);
    }
    fputs("Each cell shows every image comparison of the fixture: the read-back image (actual) "
          "beside the image derived from the rule (expected).</p>\n<table><tr><th>fixture</th>", f);
    for (int r = 0; r < o->renderer_count; r++) fprintf(f, "<th>%s</th>", o->renderers[r]);
    fputs("</tr>\n", f);
    for (int fx = 0; fx < o->fixture_count; fx++) {
        fputs("<tr><th class=label id=\"", f);
        html_escape(f, o->fixtures[fx]);
        fputs("\">", f);
        html_escape(f, o->fixtures[fx]);
        fputs("</th>", f);
        for (int r = 0; r < o->renderer_count; r++) {
            const cell *c = &cells[fx * o->renderer_count + r];
            const char *cls = c->status == CELL_NOT_SUPPORTED ? "ns" : status_word(c->status);
            fprintf(f, "<td class=%s><b>%s</b>", cls,
                    c->status == CELL_NOT_SUPPORTED ? "not supported" : status_word(c->status));
            if (c->reason != NULL) {
                fputs(": ", f);
                html_escape(f, c->reason);
            }
            if (c->log_path != NULL)
                fprintf(f, " <a href=\"logs/%s.%s.txt\">log</a>", c->fixture, c->renderer);
            if (c->image_count == 0 && c->status != CELL_NOT_SUPPORTED)
                fputs("<br><i>no image comparison</i>", f);
            for (int i = 0; i < c->image_count; i++) {
                const image_pair *p = &c->images[i];
                fputs("<div class=pair><span class=label>", f);
                html_escape(f, p->label);
                fputs("</span><br>", f);
                html_image(f, o->html_dir, p->actual, "actual");
                html_image(f, o->html_dir, p->expected, "expected");
                fputs("</div>", f);
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table></body></html>\n", f);
    bool ok = fclose(f) == 0;
    if (ok) printf("wrote %s\n", path);
    free(path);
    return ok;
}

/* ---- cross-renderer agreement (--agreement) ------------------------------------------------- */

/*
 * The rule: for every fixture and image label that both the software renderer (the reference)
 * and another renderer saved while passing, the two actual images must have the same size and
 *   - at most CAP pixels may have a channel that differs by more than TOL (rasterization and
 *     rounding differences concentrate on edges: a pixel centre exactly on an edge, a filter
 *     weight that rounds the other way), CAP defaulting to 0.5% of the image, rounded up;
 *   - no pixel may differ by more than 4*TOL in any channel (a real disagreement, not rounding).
 * Cells that failed, are known gaps (XFAIL) or are not supported are listed as skipped: their
 * own matrix entry already reports them. A fixture whose difference is inherent to the
 * renderer gets an entry in agreement_overrides with the reason, printed whenever it is used.
 */
typedef struct agreement_override {
    const char *fixture;
    const char *renderer;   /* NULL: every renderer */
    const char *label;      /* NULL: every image of the fixture */
    int tol, hard;          /* replace TOL and 4*TOL */
    const char *reason;
} agreement_override;

static const agreement_override agreement_overrides[] = {
    /* XGD_MIPS_PER_LEVEL's route averages each level in float and lets the format round, so a
       tie may round either way: the fixture checks each level within 1 of the box rule applied
       to the level that renderer stored before it, and over a chain the levels drift from the
       software renderer's exact chain by up to one a level (the longest chain, 2500x3, has 11
       levels after level 0). MipChain_RuleExact holds every renderer to the exact chain. */
    { "MipChain_RulePerLevel", NULL, NULL, 11, 11,
      "per-level float route: each level within 1 of the rule from its own previous level" },
    { NULL, NULL, NULL, 0, 0, NULL }
};

typedef struct agreement_row {
    int compared, agreed, skipped, excused;
    int max_diff;
    long beyond;            /* pixels beyond TOL, summed */
    const char *worst_fixture;
    char *worst_label;
} agreement_row;

static const agreement_override *find_override(const char *fixture, const char *renderer,
                                               const char *label)
{
    for (size_t i = 0; agreement_overrides[i].fixture != NULL; i++) {
        const agreement_override *a = &agreement_overrides[i];
        if (strcmp(a->fixture, fixture) == 0 && (a->renderer == NULL || strcmp(a->renderer, renderer) == 0) &&
            (a->label == NULL || strcmp(a->label, label) == 0))
            return a;
    }
    return NULL;
}

static const image_pair *find_label(const cell *c, const char *label)
{
    for (int i = 0; i < c->image_count; i++)
        if (strcmp(c->images[i].label, label) == 0 && c->images[i].actual != NULL) return &c->images[i];
    return NULL;
}

/* Compares every shared image; prints the disagreements and the table. True when all agree. */
static bool check_agreement(const options *o, const cell *cells, const char *img)
{
    int sw = -1;
    for (int r = 0; r < o->renderer_count; r++)
        if (strcmp(o->renderers[r], "software") == 0) sw = r;
    if (sw < 0) {
        fprintf(stderr, "xgd-conformance: --agreement needs the software renderer (the reference)\n");
        return false;
    }
    agreement_row rows[XGD_RENDERER_COUNT + 1];
    memset(rows, 0, sizeof rows);
    bool ok = true;
    long cap_given = o->agree_cap;
    printf("\nagreement with software: TOL %d/255 per channel, at most %s pixels beyond TOL, "
           "none beyond 4*TOL\n", o->agree_tol, cap_given >= 0 ? "CAP" : "0.5% of the");
    if (cap_given >= 0) printf("  (CAP = %ld pixels per image)\n", cap_given);
    for (int f = 0; f < o->fixture_count; f++) {
        const cell *ref = &cells[f * o->renderer_count + sw];
        for (int r = 0; r < o->renderer_count; r++) {
            if (r == sw) continue;
            const cell *c = &cells[f * o->renderer_count + r];
            agreement_row *row = &rows[r];
            for (int k = 0; k < c->image_count; k++) {
                const image_pair *p = &c->images[k];
                const image_pair *q = find_label(ref, p->label);
                if (p->actual == NULL || q == NULL) continue;
                if (c->status != CELL_PASS || ref->status != CELL_PASS) {
                    row->skipped++;
                    continue;
                }
                const agreement_override *ov = find_override(c->fixture, c->renderer, p->label);
                int tol = ov ? ov->tol : o->agree_tol, hard = ov ? ov->hard : 4 * o->agree_tol;
                char *pa = xprintf("%s/%s", img, p->actual), *pb = xprintf("%s/%s", img, q->actual);
                int wa = 0, ha = 0, wb = 0, hb = 0;
                uint8_t *a = NULL, *b = NULL;
                bool loaded = xgd_image_load_png(pa, &wa, &ha, &a) == XGD_OK &&
                              xgd_image_load_png(pb, &wb, &hb, &b) == XGD_OK;
                row->compared++;
                int maxd = 0;
                long beyond = 0, pixels = (long)wa * ha;
                bool agree = loaded && wa == wb && ha == hb;
                if (agree) {
                    for (long i = 0; i < pixels; i++) {
                        int d = 0;
                        for (int ch = 0; ch < 4; ch++) {
                            int e = abs((int)a[i * 4 + ch] - (int)b[i * 4 + ch]);
                            if (e > d) d = e;
                        }
                        if (d > maxd) maxd = d;
                        beyond += d > tol;
                    }
                    long cap = cap_given >= 0 ? cap_given : (pixels * 5 + 999) / 1000;
                    agree = beyond <= cap && maxd <= hard;
                }
                /* the table's worst image: largest difference, first one found on a tie;
                   images excused by the override table are reported on their own line */
                if (ov == NULL && (maxd > row->max_diff || row->worst_label == NULL)) {
                    row->max_diff = maxd;
                    row->worst_fixture = c->fixture;
                    free(row->worst_label);
                    row->worst_label = xstrdup(p->label);
                }
                if (ov == NULL) row->beyond += beyond;
                else row->excused++;
                if (ov != NULL)
                    printf("  %s/%s [%s]: tolerance %d (hard %d) by table: %s\n", c->fixture,
                           p->label, c->renderer, tol, hard, ov->reason);
                if (agree) {
                    row->agreed++;
                } else {
                    ok = false;
                    if (!loaded)
                        printf("  DISAGREE %s/%s [%s]: cannot read %s or %s\n", c->fixture, p->label,
                               c->renderer, pa, pb);
                    else if (wa != wb || ha != hb)
                        printf("  DISAGREE %s/%s [%s]: %dx%d vs software %dx%d\n", c->fixture,
                               p->label, c->renderer, wa, ha, wb, hb);
                    else
                        printf("  DISAGREE %s/%s [%s]: max diff %d, %ld of %ld pixels beyond %d\n",
                               c->fixture, p->label, c->renderer, maxd, beyond, pixels, tol);
                }
                xgd_free(a);
                xgd_free(b);
                free(pa);
                free(pb);
            }
        }
    }
    printf("\n%-10s %9s %7s %8s %8s %9s %14s  %s\n", "renderer", "compared", "agreed", "skipped",
           "by table", "max diff", "pixels > TOL", "worst image");
    for (int r = 0; r < o->renderer_count; r++) {
        if (r == sw) continue;
        agreement_row *row = &rows[r];
        printf("%-10s %9d %7d %8d %8d %9d %14ld  %s%s%s\n", o->renderers[r], row->compared,
               row->agreed, row->skipped, row->excused, row->max_diff, row->beyond,
               row->worst_fixture ? row->worst_fixture : "-", row->worst_label ? "/" : "",
               row->worst_label ? row->worst_label : "");
        free(row->worst_label);
    }
    printf("agreement: %s\n", ok ? "all images agree" : "DISAGREEMENT (see above)");
    return ok;
}

/* ---- main ------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xgd-conformance [--runner PATH] [--renderer NAME]... [--html DIR] [-j N]\n"
            "                       [--timeout SECONDS] [--from DIR] [--agreement TOL[:CAP]]\n"
            "                       [FIXTURE...]\n"
            "  --runner PATH      the xgd-tests runner (default: the one built with this tool,\n"
            "                     or $XGD_TESTS_RUNNER)\n"
            "  --renderer NAME    only this renderer (repeatable; default: every compiled one)\n"
            "  --html DIR         write DIR/index.html with actual and expected images\n"
            "  -j N               cells run in parallel (default: online CPUs)\n"
            "  --timeout SECONDS  per cell (default 300)\n"
            "  --from DIR         run nothing: read the result and images each cell saved in\n"
            "                     DIR when run with XGD_TEST_RESULTS=1 (as ctest runs them);\n"
            "                     a missing result, or one older than the runner, is an error\n"
            "  --agreement TOL[:CAP]\n"
            "                     also compare every image a passing renderer saved with the\n"
            "                     software renderer's (the reference): per image, at most CAP\n"
            "                     pixels (default 0.5%% of the image) may differ by more than\n"
            "                     TOL/255 in a channel and none by more than 4*TOL; per-fixture\n"
            "                     exceptions are a table in the tool, printed with their reason\n"
            "  FIXTURE...         only these fixtures (default: the whole inventory)\n"
            "exit: 0 when no cell failed, 1 otherwise, 2 on usage or setup errors (with --from:\n"
            "      also when a cell has no usable saved result)\n");
}

static bool renderer_compiled(const char *name)
{
    const char *const *list = xgd_renderers_compiled();
    for (size_t i = 0; list != NULL && list[i] != NULL; i++)
        if (strcmp(list[i], name) == 0) return true;
    return false;
}

int main(int argc, char **argv)
{
    options o;
    memset(&o, 0, sizeof o);
    o.runner = getenv("XGD_TESTS_RUNNER");
    if (o.runner == NULL || o.runner[0] == '\0') o.runner = XGD_TESTS_RUNNER;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cpus > 0 ? (int)cpus : 1;
    o.timeout_s = 300.0;
    o.agree_tol = -1;
    o.agree_cap = -1;
    char **only = xmalloc(sizeof *only * (size_t)argc);
    int only_count = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--runner") == 0 && has_value) {
            o.runner = argv[++i];
        } else if (strcmp(a, "--html") == 0 && has_value) {
            o.html_dir = argv[++i];
        } else if (strcmp(a, "--from") == 0 && has_value) {
            o.from_dir = argv[++i];
        } else if (strcmp(a, "--renderer") == 0 && has_value) {
            const char *r = argv[++i];
            if (!renderer_compiled(r)) {
                fprintf(stderr, "xgd-conformance: renderer '%s' is not compiled into this build\n", r);
                return 2;
            }
            if (o.renderer_count < XGD_RENDERER_COUNT) o.renderers[o.renderer_count++] = r;
        } else if (strcmp(a, "--agreement") == 0 && has_value) {
            char *end = NULL;
            const char *v = argv[++i];
            long tol = strtol(v, &end, 10);
            long cap = -1;
            if (end != v && *end == ':') {
                const char *cv = end + 1;
                cap = strtol(cv, &end, 10);
                if (end == cv || cap < 0) end = (char *)"x";
            }
            if (end == v || *end != '\0' || tol < 0 || tol > 255) {
                fprintf(stderr, "xgd-conformance: bad --agreement value '%s' (TOL[:CAP])\n", v);
                return 2;
            }
            o.agree_tol = (int)tol;
            o.agree_cap = cap;
        } else if (strcmp(a, "-j") == 0 && has_value) {
            o.jobs = atoi(argv[++i]);
        } else if (strcmp(a, "--timeout") == 0 && has_value) {
            o.timeout_s = atof(argv[++i]);
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-') {
            fprintf(stderr, "xgd-conformance: bad option %s\n", a);
            usage(stderr);
            return 2;
        } else {
            only[only_count++] = argv[i];
        }
    }
    if (o.jobs < 1) o.jobs = 1;
    if (o.timeout_s <= 0) o.timeout_s = 300.0;
    if (o.runner == NULL || o.runner[0] == '\0' || access(o.runner, X_OK) != 0) {
        fprintf(stderr, "xgd-conformance: no runner at '%s' (use --runner PATH)\n",
                o.runner != NULL ? o.runner : "");
        return 2;
    }
    if (o.renderer_count == 0) {
        const char *const *list = xgd_renderers_compiled();
        for (size_t i = 0; list[i] != NULL && o.renderer_count < XGD_RENDERER_COUNT; i++)
            o.renderers[o.renderer_count++] = list[i];
    }

    /* Work folder: logs and images live in the report when there is one, else in /tmp. */
    char tmpl[] = "/tmp/xgd-conformance.XXXXXX";
    char *work = NULL;
    bool temporary = o.html_dir == NULL;
    if (temporary) {
        if (mkdtemp(tmpl) == NULL) {
            fprintf(stderr, "xgd-conformance: mkdtemp: %s\n", strerror(errno));
            return 2;
        }
        work = xstrdup(tmpl);
    } else {
        work = xstrdup(o.html_dir);
    }
    char *logs = xprintf("%s/logs", work), *img = xprintf("%s/img", work);
    if (!make_dir(work) || !make_dir(logs) || !make_dir(img)) {
        fprintf(stderr, "xgd-conformance: cannot create %s: %s\n", logs, strerror(errno));
        return 2;
    }
    if (!list_fixtures(&o, work)) return 2;
    if (only_count > 0) {
        for (int i = 0; i < only_count; i++) {
            bool known = false;
            for (int f = 0; f < o.fixture_count; f++) known |= strcmp(o.fixtures[f], only[i]) == 0;
            if (!known) {
                fprintf(stderr, "xgd-conformance: no fixture named '%s'\n", only[i]);
                return 2;
            }
        }
        for (int f = 0; f < o.fixture_count; f++) free(o.fixtures[f]);
        o.fixture_count = only_count;
        for (int i = 0; i < only_count; i++) o.fixtures[i] = xstrdup(only[i]);
    }

    int count = o.fixture_count * o.renderer_count;
    cell *cells = calloc((size_t)(count ? count : 1), sizeof *cells);
    if (cells == NULL) return 2;
    for (int f = 0; f < o.fixture_count; f++) {
        for (int r = 0; r < o.renderer_count; r++) {
            cell *c = &cells[f * o.renderer_count + r];
            c->fixture = o.fixtures[f];
            c->renderer = o.renderers[r];
            if (o.from_dir == NULL)
                c->log_path = xprintf("%s/%s.%s.txt", logs, c->fixture, c->renderer);
        }
    }
    char *extra[3];
    int extra_count = 0;
    extra[extra_count++] = xprintf("XGD_TEST_OUTPUT=%s", img);
    if (!temporary || o.agree_tol >= 0) extra[extra_count++] = xstrdup("XGD_TEST_SAVE_IMAGES=1");
    /* the cells' images and logs are this tool's; no result files among them */
    extra[extra_count++] = xstrdup("XGD_TEST_RESULTS=0");
    char **envp = child_environment(extra, extra_count);

    /* where the images compared by --agreement are */
    const char *images = img;
    bool no_results = false;
    if (o.from_dir != NULL) {
        printf("xgd-conformance: %d fixtures x %d renderer%s, results saved in %s\n\n",
               o.fixture_count, o.renderer_count, o.renderer_count == 1 ? "" : "s", o.from_dir);
        fflush(stdout);
        no_results = !load_results(&o, cells, count);
        if (!no_results && !temporary) import_images(o.from_dir, img, cells, count);
        images = o.from_dir;
    } else {
        printf("xgd-conformance: %d fixtures x %d renderer%s, runner %s\n\n", o.fixture_count,
               o.renderer_count, o.renderer_count == 1 ? "" : "s", o.runner);
        fflush(stdout);
        run_cells(&o, cells, count, envp);
    }
    bool failed = false;
    if (!no_results) {
        print_matrix(&o, cells);
        for (int i = 0; i < count; i++) failed |= cells[i].status == CELL_FAIL;
        if (!temporary && !write_html(&o, cells)) failed = true;
        if (o.agree_tol >= 0 && !check_agreement(&o, cells, images)) failed = true;
    }

    /* A temporary work folder goes; a report keeps its logs and images. */
    for (int i = 0; i < count; i++) {
        cell *c = &cells[i];
        if (temporary && c->log_path != NULL) unlink(c->log_path);
        for (int k = 0; k < c->image_count; k++) {
            /* saved results (--from) belong to the suite and stay */
            if (temporary && o.from_dir == NULL) {
                char *p;
                if (c->images[k].actual) {
                    p = xprintf("%s/%s", img, c->images[k].actual);
                    unlink(p);
                    free(p);
                }
                if (c->images[k].expected) {
                    p = xprintf("%s/%s", img, c->images[k].expected);
                    unlink(p);
                    free(p);
                }
            }
            free(c->images[k].label);
            free(c->images[k].actual);
            free(c->images[k].expected);
        }
        free(c->images);
        free(c->reason);
        free(c->log_path);
    }
    if (temporary) {
        rmdir(img);
        rmdir(logs);
        rmdir(work);
    }
    for (int i = 0; i < extra_count; i++) free(extra[i]);
    for (int f = 0; f < o.fixture_count; f++) free(o.fixtures[f]);
    free(o.fixtures);
    free(envp);
    free(cells);
    free(logs);
    free(img);
    free(work);
    free(only);
    return no_results ? 2 : failed ? 1 : 0;
}
