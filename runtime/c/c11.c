/* C11 <threads.h> on the pthread operations the runtime models: glibc's mtx_t, cnd_t,
 * once_flag and tss_t are its pthread objects under other names, so each function is
 * its pthread counterpart with C11's return codes. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <threads.h>
#include <time.h>

#include "rt.h"

int __cdpor_pthread_mutex_lock(pthread_mutex_t *m);
int __cdpor_pthread_mutex_trylock(pthread_mutex_t *m);
int __cdpor_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t);
int __cdpor_pthread_mutex_unlock(pthread_mutex_t *m);
int __cdpor_pthread_mutex_destroy(pthread_mutex_t *m);
int __cdpor_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr);
int __cdpor_pthread_cond_destroy(pthread_cond_t *c);
int __cdpor_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m);
int __cdpor_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                   const struct timespec *t);
int __cdpor_pthread_cond_signal(pthread_cond_t *c);
int __cdpor_pthread_cond_broadcast(pthread_cond_t *c);
int __cdpor_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr);

static int code(int err) {
    switch (err) {
    case 0:
        return thrd_success;
    case EBUSY:
        return thrd_busy;
    case ETIMEDOUT:
        return thrd_timedout;
    case ENOMEM:
        return thrd_nomem;
    default:
        return thrd_error;
    }
}

/* ---- threads ----
 * A C11 start routine returns an int where a pthread one returns a pointer: as glibc
 * does, the thread runs it through the pthread signature (on x86-64 the int is the low
 * half of the returned register) and the join keeps the low 32 bits. */

int __cdpor_thrd_create(thrd_t *thr, thrd_start_t func, void *arg) {
    uint32_t site = __cdpor_site;
    uint64_t id = cdpor_create((void *(*)(void *))(uintptr_t)func, arg, site);
    if (thr)
        cdpor_store((uint64_t)(uintptr_t)thr, sizeof *thr, id, site);
    return thrd_success;
}

int __cdpor_thrd_join(thrd_t thr, int *res) {
    uint32_t site = __cdpor_site;
    int r = cdpor_join((uint64_t)thr, NULL, site);
    /* The result reaches the program through a store of its own, like pthread_join's. */
    if (r == 0 && res)
        cdpor_store((uint64_t)(uintptr_t)res, sizeof *res, (uint32_t)cdpor_joined_value(), site);
    return code(r);
}

_Noreturn void __cdpor_thrd_exit(int res) {
    cdpor_thread_exit((void *)(uintptr_t)(uint32_t)res, __cdpor_site);
}

thrd_t __cdpor_thrd_current(void) { return (thrd_t)cdpor_self(); }

int __cdpor_thrd_equal(thrd_t a, thrd_t b) { return a == b; }

int __cdpor_thrd_detach(thrd_t thr) {
    return cdpor_detach((uint64_t)thr, __cdpor_site) ? thrd_error : thrd_success;
}

void __cdpor_thrd_yield(void) {}

/* Time is not modelled: a sleep returns at once, having slept its whole duration. */
int __cdpor_thrd_sleep(const struct timespec *duration, struct timespec *remaining) {
    (void)duration;
    if (remaining)
        remaining->tv_sec = remaining->tv_nsec = 0;
    return 0;
}

/* ---- mutexes ---- */

int __cdpor_mtx_init(mtx_t *m, int type) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
    int r = __cdpor_pthread_mutex_init((pthread_mutex_t *)m, &attr);
    pthread_mutexattr_destroy(&attr);
    return code(r);
}

int __cdpor_mtx_lock(mtx_t *m) { return code(__cdpor_pthread_mutex_lock((pthread_mutex_t *)m)); }

int __cdpor_mtx_trylock(mtx_t *m) {
    return code(__cdpor_pthread_mutex_trylock((pthread_mutex_t *)m));
}

int __cdpor_mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict t) {
    return code(__cdpor_pthread_mutex_timedlock((pthread_mutex_t *)m, t));
}

int __cdpor_mtx_unlock(mtx_t *m) {
    return code(__cdpor_pthread_mutex_unlock((pthread_mutex_t *)m));
}

void __cdpor_mtx_destroy(mtx_t *m) { __cdpor_pthread_mutex_destroy((pthread_mutex_t *)m); }

/* ---- condition variables ---- */

int __cdpor_cnd_init(cnd_t *c) { return code(__cdpor_pthread_cond_init((pthread_cond_t *)c, 0)); }

int __cdpor_cnd_signal(cnd_t *c) { return code(__cdpor_pthread_cond_signal((pthread_cond_t *)c)); }

int __cdpor_cnd_broadcast(cnd_t *c) {
    return code(__cdpor_pthread_cond_broadcast((pthread_cond_t *)c));
}

int __cdpor_cnd_wait(cnd_t *c, mtx_t *m) {
    return code(__cdpor_pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}

int __cdpor_cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m,
                          const struct timespec *restrict t) {
    return code(
        __cdpor_pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, t));
}

void __cdpor_cnd_destroy(cnd_t *c) { __cdpor_pthread_cond_destroy((pthread_cond_t *)c); }
