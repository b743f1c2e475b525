/*
 * sw_pool.c - the software renderer's worker threads.
 *
 * A pool runs one job at a time: a function called once per item index in [0, items), the
 * items taken in any order by the workers and the calling thread together; sw_pool_run returns
 * when every item has finished, so everything the items wrote is visible to the caller (the
 * pool's mutex orders it), and the caller's writes before the call are visible to the items.
 * Workers sleep on a condition variable between jobs. They start with the first job of more
 * than one item, so a device that never splits a draw runs no threads. The pool never
 * allocates after creation.
 */
#ifndef _WIN32
#define _POSIX_C_SOURCE 200809L
#endif
#include "sw_internal.h"

#include <stdlib.h>

#ifdef _WIN32
#include <windows.h>
typedef HANDLE sw_thread;
typedef CRITICAL_SECTION sw_mutex;
typedef CONDITION_VARIABLE sw_cond;
static void sw_mutex_init(sw_mutex *m) { InitializeCriticalSection(m); }
static void sw_mutex_destroy(sw_mutex *m) { DeleteCriticalSection(m); }
static void sw_mutex_lock(sw_mutex *m) { EnterCriticalSection(m); }
static void sw_mutex_unlock(sw_mutex *m) { LeaveCriticalSection(m); }
static bool sw_cond_init(sw_cond *c) { InitializeConditionVariable(c); return true; }
static void sw_cond_destroy(sw_cond *c) { (void)c; }
static void sw_cond_wait(sw_cond *c, sw_mutex *m) { SleepConditionVariableCS(c, m, INFINITE); }
static void sw_cond_broadcast(sw_cond *c) { WakeAllConditionVariable(c); }
#else
#include <pthread.h>
#include <unistd.h>
typedef pthread_t sw_thread;
typedef pthread_mutex_t sw_mutex;
typedef pthread_cond_t sw_cond;
static void sw_mutex_init(sw_mutex *m) { pthread_mutex_init(m, NULL); }
static void sw_mutex_destroy(sw_mutex *m) { pthread_mutex_destroy(m); }
static void sw_mutex_lock(sw_mutex *m) { pthread_mutex_lock(m); }
static void sw_mutex_unlock(sw_mutex *m) { pthread_mutex_unlock(m); }
static bool sw_cond_init(sw_cond *c) { return pthread_cond_init(c, NULL) == 0; }
static void sw_cond_destroy(sw_cond *c) { pthread_cond_destroy(c); }
static void sw_cond_wait(sw_cond *c, sw_mutex *m) { pthread_cond_wait(c, m); }
static void sw_cond_broadcast(sw_cond *c) { pthread_cond_broadcast(c); }
#endif

struct sw_pool {
    int workers;               /* threads besides the caller, running */
    int wanted;                /* workers to start on the first job (then 0) */
    sw_thread *threads;
    sw_mutex lock;
    sw_cond wake, done;
    /* the job, guarded by lock */
    uint64_t generation;       /* bumped per job: a worker runs each generation once */
    void (*fn)(void *arg, int item, int worker);
    void *arg;
    int items, next_item;      /* next_item: the next index not yet taken */
    int busy;                  /* workers still inside the current job */
    bool quit;
};

/* Takes the next item of job `generation` under the lock; -1 when that job has none left (or
   is over: a worker that woke late must not take items of the next job with this one's
   function and argument). */
static int sw_pool_take(sw_pool *p, uint64_t generation)
{
    int item = -1;
    sw_mutex_lock(&p->lock);
    if (p->generation == generation && p->next_item < p->items) item = p->next_item++;
    sw_mutex_unlock(&p->lock);
    return item;
}

typedef struct sw_worker_arg {
    sw_pool *pool;
    int index;                 /* 1..workers; the caller is 0 */
} sw_worker_arg;

static void sw_worker_loop(sw_pool *p, int index)
{
    uint64_t seen = 0;
    sw_mutex_lock(&p->lock);
    for (;;) {
        while (!p->quit && p->generation == seen) sw_cond_wait(&p->wake, &p->lock);
        if (p->quit) break;
        seen = p->generation;
        void (*fn)(void *, int, int) = p->fn;
        void *arg = p->arg;
        p->busy++;
        sw_mutex_unlock(&p->lock);
        for (int item; (item = sw_pool_take(p, seen)) >= 0;) fn(arg, item, index);
        sw_mutex_lock(&p->lock);
        if (--p->busy == 0) sw_cond_broadcast(&p->done);
    }
    sw_mutex_unlock(&p->lock);
}

#ifdef _WIN32
static DWORD WINAPI sw_worker_main(LPVOID a)
{
    sw_worker_arg *w = a;
    sw_worker_loop(w->pool, w->index);
    return 0;
}
#else
static void *sw_worker_main(void *a)
{
    sw_worker_arg *w = a;
    sw_worker_loop(w->pool, w->index);
    return NULL;
}
#endif

int sw_pool_default_threads(void)
{
    long n = 1;
#ifdef _WIN32
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    n = (long)si.dwNumberOfProcessors;
#elif defined(_SC_NPROCESSORS_ONLN)
    n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
    if (n < 1) n = 1;
    if (n > SW_MAX_THREADS) n = SW_MAX_THREADS;
    return (int)n;
}

/* The workers' arguments live after the pool in the same allocation. */
sw_pool *sw_pool_create(int threads)
{
    if (threads <= 1) return NULL;
    if (threads > SW_MAX_THREADS) threads = SW_MAX_THREADS;
    int workers = threads - 1;
    sw_pool *p = calloc(1, sizeof *p + (size_t)workers * sizeof(sw_worker_arg));
    sw_thread *th = calloc((size_t)workers, sizeof *th);
    if (p == NULL || th == NULL) {
        free(p);
        free(th);
        return NULL;
    }
    p->threads = th;
    sw_mutex_init(&p->lock);
    if (!sw_cond_init(&p->wake)) {
        sw_mutex_destroy(&p->lock);
        free(th);
        free(p);
        return NULL;
    }
    if (!sw_cond_init(&p->done)) {
        sw_cond_destroy(&p->wake);
        sw_mutex_destroy(&p->lock);
        free(th);
        free(p);
        return NULL;
    }
    p->wanted = workers;
    return p;
}

/* Starts the workers; fewer than wanted when some cannot start (the caller and those started
   share the items; none: every job runs on the caller). */
static void sw_pool_start(sw_pool *p)
{
    sw_thread *th = p->threads;
    sw_worker_arg *args = (sw_worker_arg *)(p + 1);
    for (int i = 0; i < p->wanted; i++) {
        args[i].pool = p;
        args[i].index = i + 1;
#ifdef _WIN32
        th[i] = CreateThread(NULL, 0, sw_worker_main, &args[i], 0, NULL);
        bool ok = th[i] != NULL;
#else
        bool ok = pthread_create(&th[i], NULL, sw_worker_main, &args[i]) == 0;
#endif
        if (!ok) break;
        p->workers++;
    }
    p->wanted = 0;
}

void sw_pool_destroy(sw_pool *p)
{
    if (p == NULL) return;
    sw_mutex_lock(&p->lock);
    p->quit = true;
    sw_cond_broadcast(&p->wake);
    sw_mutex_unlock(&p->lock);
    for (int i = 0; i < p->workers; i++) {
#ifdef _WIN32
        WaitForSingleObject(p->threads[i], INFINITE);
        CloseHandle(p->threads[i]);
#else
        pthread_join(p->threads[i], NULL);
#endif
    }
    sw_cond_destroy(&p->done);
    sw_cond_destroy(&p->wake);
    sw_mutex_destroy(&p->lock);
    free(p->threads);
    free(p);
}

int sw_pool_threads(const sw_pool *p)
{
    return p != NULL ? p->workers + p->wanted + 1 : 1;
}

void sw_pool_run(sw_pool *p, int items, void (*fn)(void *arg, int item, int worker), void *arg)
{
    if (p != NULL && items > 1 && p->wanted > 0) sw_pool_start(p);
    if (p == NULL || items <= 1 || p->workers == 0) {
        for (int i = 0; i < items; i++) fn(arg, i, 0);
        return;
    }
    sw_mutex_lock(&p->lock);
    p->fn = fn;
    p->arg = arg;
    p->items = items;
    p->next_item = 0;
    uint64_t generation = ++p->generation;
    sw_cond_broadcast(&p->wake);
    sw_mutex_unlock(&p->lock);
    for (int item; (item = sw_pool_take(p, generation)) >= 0;) fn(arg, item, 0);
    /* every item is taken; wait for the workers still running theirs. A worker that wakes
       only now finds no item left and leaves at once. */
    sw_mutex_lock(&p->lock);
    while (p->busy > 0) sw_cond_wait(&p->done, &p->lock);
    sw_mutex_unlock(&p->lock);
}
