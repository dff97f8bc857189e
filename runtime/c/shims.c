/* Entry points that instrumented code calls: memory-access hooks, and the replacements of
 * the pthread and libc functions that the instrumentation redirects (`f` becomes
 * `__cdpor_f`). Each one turns its call into a visible operation for the scheduler. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <time.h>

#include "kinds.h"
#include "rt.h"

uint32_t __cdpor_site;

/* ---- memory accesses ---- */

void __cdpor_load(void *p, uint64_t len, uint32_t site, uint32_t flags) {
    cdpor_access(CDPOR_K_READ, (uint64_t)(uintptr_t)p, len, 0, site, flags);
}

void __cdpor_store(void *p, uint64_t len, uint64_t value, uint32_t site, uint32_t flags) {
    cdpor_access(CDPOR_K_WRITE, (uint64_t)(uintptr_t)p, len, value, site, flags);
}

/* `op` is LLVM's AtomicRMWBinOp + 1 (0: unknown) and `operand` its operand, so that the
 * runtime knows when the operation leaves memory as it was (an exchange of the value
 * already there). */
void __cdpor_rmw(void *p, uint64_t len, uint64_t operand, uint32_t op, uint32_t site) {
    cdpor_access(CDPOR_K_RMW, (uint64_t)(uintptr_t)p, len, operand, site, 1 | op << 8);
}

/* The head of a loop (`flags`: bit 0, entered through its back edge; bit 1, its
 * iterations can have no effect beyond events), with the loop-carried values `vals[n]`,
 * which live in the frame of the function running the loop. */
uint64_t __cdpor_frame(uint64_t bytes, uint32_t site) {
    cdpor_frame(bytes, site);
    return bytes;
}

void __cdpor_loop(uint32_t loop, uint32_t flags, const uint64_t *vals, uint32_t n,
                  uint32_t site) {
    cdpor_loop(loop, flags, vals, n, site);
}

/* The runtime compares memory with `expected` when the cmpxchg is scheduled, so the event
 * is recorded as a read-modify-write or, when it fails, as a read; `same`: a success
 * would store what memory held (desired = expected), so it would change nothing. */
void __cdpor_cmpxchg(void *p, uint64_t len, uint64_t expected, uint32_t same, uint32_t site) {
    cdpor_access(CDPOR_K_CMPXCHG, (uint64_t)(uintptr_t)p, len, expected, site, 1 | same << 8);
}

void __cdpor_fence(uint32_t site) { cdpor_access(CDPOR_K_FENCE, 0, 1, 0, site, 1); }

/* The source address travels in `value`; the runtime moves it to the event's src. */
void __cdpor_memcpy(void *dst, const void *src, uint64_t len, uint32_t site) {
    cdpor_access(CDPOR_K_COPY, (uint64_t)(uintptr_t)dst, len, (uint64_t)(uintptr_t)src, site, 0);
}

void __cdpor_memset(void *dst, uint64_t len, uint32_t site) {
    cdpor_access(CDPOR_K_WRITE, (uint64_t)(uintptr_t)dst, len, 0, site, 0);
}

/* ---- threads ---- */

int __cdpor_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                           void *(*start)(void *), void *arg) {
    uint32_t site = __cdpor_site;
    int state = PTHREAD_CREATE_JOINABLE;
    if (attr)
        pthread_attr_getdetachstate(attr, &state);
    uint64_t id = cdpor_create(start, arg, site);
    if (state == PTHREAD_CREATE_DETACHED)
        cdpor_detach(id, site);
    /* The thread's id reaches the program through a store of its own, which the new
     * thread may run before (POSIX sets no order). */
    if (thread)
        cdpor_store((uint64_t)(uintptr_t)thread, sizeof *thread, id, site);
    return 0;
}

int __cdpor_pthread_join(pthread_t thread, void **retval) {
    return cdpor_join((uint64_t)thread, retval, __cdpor_site);
}

/* pthread_cleanup_push and _pop expand (glibc, in C) to __sigsetjmp on a buffer in the
 * caller's frame, __pthread_register_cancel and __pthread_unregister_cancel; the handler
 * runs where __sigsetjmp returns a second time, followed by __pthread_unwind_next.
 * pthread_exit unwinds the handlers pushed and not popped, innermost first, as glibc
 * does. A thread's pushed buffers form a list through their spare words. */
static __pthread_unwind_buf_t *cleanups[CDPOR_MAX_THREADS];
static void *exit_values[CDPOR_MAX_THREADS];
static uint32_t exit_sites[CDPOR_MAX_THREADS];

/* glibc's longjmp, on a cancellation buffer: shorter than a jmp_buf (no signal mask,
 * which __sigsetjmp(buf, 0) did not save, so longjmp does not read it). */
extern _Noreturn void cancel_longjmp(void *env, int val) __asm__("longjmp");

static uint32_t self_index(void) { return cdpor_current_tid() % CDPOR_MAX_THREADS; }

void __cdpor_pthread_register_cancel(__pthread_unwind_buf_t *buf) {
    uint32_t t = self_index();
    buf->__pad[0] = cleanups[t];
    cleanups[t] = buf;
}

void __cdpor_pthread_unregister_cancel(__pthread_unwind_buf_t *buf) {
    cleanups[self_index()] = buf->__pad[0];
}

/* Runs the next handler, or ends the thread once none is left. */
static _Noreturn void unwind(void) {
    uint32_t t = self_index();
    __pthread_unwind_buf_t *buf = cleanups[t];
    if (!buf)
        cdpor_thread_exit(exit_values[t], exit_sites[t]);
    cleanups[t] = buf->__pad[0];
    cancel_longjmp(buf->__cancel_jmp_buf, 1);
}

void __cdpor_pthread_unwind_next(__pthread_unwind_buf_t *buf) {
    (void)buf;
    unwind();
}

void __cdpor_pthread_exit(void *retval) {
    uint32_t t = self_index();
    exit_values[t] = retval;
    exit_sites[t] = __cdpor_site;
    unwind();
}

pthread_t __cdpor_pthread_self(void) { return (pthread_t)cdpor_self(); }

int __cdpor_pthread_equal(pthread_t a, pthread_t b) { return a == b; }

/* A detached thread is never joined (`ops::thread`); fibers need nothing freed. */
int __cdpor_pthread_detach(pthread_t t) { return cdpor_detach((uint64_t)t, __cdpor_site); }

/* Thread attributes only matter to the OS thread library; fibers ignore them. */
int __cdpor_pthread_attr_init(pthread_attr_t *attr) {
    cdpor_access(CDPOR_K_WRITE, (uint64_t)(uintptr_t)attr, sizeof *attr, 0, __cdpor_site, 0);
    memset(attr, 0, sizeof *attr);
    return 0;
}

int __cdpor_pthread_attr_destroy(pthread_attr_t *attr) {
    (void)attr;
    return 0;
}

/* ---- mutexes ---- */

int __cdpor_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
    int r = cdpor_sync(CDPOR_K_MUTEXINIT, m, __cdpor_site);
    int type;
    /* The kind goes where glibc and its static initializers keep it. */
    if (r == 0 && attr && pthread_mutexattr_gettype(attr, &type) == 0 &&
        (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK))
        m->__data.__kind = type;
    return r;
}

int __cdpor_pthread_mutex_destroy(pthread_mutex_t *m) {
    return cdpor_sync(CDPOR_K_MUTEXDESTROY, m, __cdpor_site);
}

int __cdpor_pthread_mutex_lock(pthread_mutex_t *m) {
    return cdpor_sync(CDPOR_K_LOCK, m, __cdpor_site);
}

int __cdpor_pthread_mutex_trylock(pthread_mutex_t *m) {
    return cdpor_sync(CDPOR_K_TRYLOCK, m, __cdpor_site);
}

/* A deadline glibc refuses with EINVAL: a common bug adds nanoseconds to a deadline
 * without carrying into the seconds. Time is not modelled, but the check is on the
 * value, which the program gave. (The read is no event: a deadline is the caller's.) */
static int bad_deadline(const struct timespec *t) {
    return t->tv_nsec < 0 || t->tv_nsec >= 1000000000L;
}

/* A timed lock is a trylock that returns ETIMEDOUT (runtime/sched/src/ops/mutex.rs).
 * glibc checks the deadline only when the lock is busy: a plain trylock then. */
static int timedlock(pthread_mutex_t *m, const struct timespec *t, uint32_t site) {
    if (bad_deadline(t)) {
        int r = cdpor_sync(CDPOR_K_TRYLOCK, m, site);
        return r == EBUSY ? EINVAL : r;
    }
    return cdpor_sync_value(CDPOR_K_TRYLOCK, m, 1, site);
}

int __cdpor_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *t) {
    return timedlock(m, t, __cdpor_site);
}

int __cdpor_pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t c, const struct timespec *t) {
    (void)c;
    return timedlock(m, t, __cdpor_site);
}

int __cdpor_pthread_mutex_unlock(pthread_mutex_t *m) {
    return cdpor_sync(CDPOR_K_UNLOCK, m, __cdpor_site);
}

/* ---- read-write locks: the state is the rwlock's first two words
 * (runtime/sched/src/ops/rwlock.rs). A timed lock is a trylock that returns ETIMEDOUT:
 * with time not modelled, it may time out whenever the lock is busy. ---- */

int __cdpor_pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr) {
    (void)attr;
    return cdpor_sync(CDPOR_K_RWINIT, l, __cdpor_site);
}

/* Only the default kind, which prefers readers, is modelled. */
int __cdpor_pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *a, int kind) {
    if (kind != PTHREAD_RWLOCK_PREFER_READER_NP)
        cdpor_refuse("a read-write lock that prefers writers (only the default kind, which "
                     "prefers readers, is modelled)",
                     __cdpor_site);
    return pthread_rwlockattr_setkind_np(a, kind);
}

int __cdpor_pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *a, int *kind) {
    return pthread_rwlockattr_getkind_np(a, kind);
}

int __cdpor_pthread_rwlock_destroy(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_RWDESTROY, l, __cdpor_site);
}

int __cdpor_pthread_rwlock_rdlock(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_RDLOCK, l, __cdpor_site);
}

int __cdpor_pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_TRYRDLOCK, l, __cdpor_site);
}

int __cdpor_pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *t) {
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_sync_value(CDPOR_K_TRYRDLOCK, l, 1, __cdpor_site);
}

int __cdpor_pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t c, const struct timespec *t) {
    (void)c;
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_sync_value(CDPOR_K_TRYRDLOCK, l, 1, __cdpor_site);
}

int __cdpor_pthread_rwlock_wrlock(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_WRLOCK, l, __cdpor_site);
}

int __cdpor_pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_TRYWRLOCK, l, __cdpor_site);
}

int __cdpor_pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *t) {
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_sync_value(CDPOR_K_TRYWRLOCK, l, 1, __cdpor_site);
}

int __cdpor_pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t c, const struct timespec *t) {
    (void)c;
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_sync_value(CDPOR_K_TRYWRLOCK, l, 1, __cdpor_site);
}

int __cdpor_pthread_rwlock_unlock(pthread_rwlock_t *l) {
    return cdpor_sync(CDPOR_K_RWUNLOCK, l, __cdpor_site);
}

/* ---- condition variables ----
 * The runtime keeps no state in a pthread_cond_t: waiters are threads whose next
 * operation is a wake on its address. */

int __cdpor_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr) {
    (void)attr;
    return cdpor_sync(CDPOR_K_CONDINIT, c, __cdpor_site);
}

int __cdpor_pthread_cond_destroy(pthread_cond_t *c) {
    return cdpor_sync(CDPOR_K_CONDDESTROY, c, __cdpor_site);
}

int __cdpor_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return cdpor_cond_wait(c, m, __cdpor_site);
}

/* Time is not modelled: the wait may time out whenever it could wake (ops/cond.rs). */
int __cdpor_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                   const struct timespec *t) {
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_cond_timedwait(c, m, __cdpor_site);
}

int __cdpor_pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t k,
                                   const struct timespec *t) {
    (void)k;
    if (bad_deadline(t))
        return EINVAL;
    return cdpor_cond_timedwait(c, m, __cdpor_site);
}

int __cdpor_pthread_cond_signal(pthread_cond_t *c) {
    return cdpor_sync(CDPOR_K_CONDSIGNAL, c, __cdpor_site);
}

int __cdpor_pthread_cond_broadcast(pthread_cond_t *c) {
    return cdpor_sync(CDPOR_K_CONDBROADCAST, c, __cdpor_site);
}

/* ---- ending the program ----
 *
 * atexit and at_quick_exit handlers run in the thread that ends the program (exit,
 * quick_exit, or main's return), last registered first, as the program's own code, while
 * the other threads run on (as they do until the process is gone). Each list is an
 * object all threads share: registering a handler and taking the next one to run both
 * write it, so their order is explored. A second exit while handlers run (undefined in
 * C) ends the program at once. */

#define EXIT_HANDLERS 64

struct exit_handlers {
    uint64_t object;
    unsigned n;
    void (*run[EXIT_HANDLERS])(void);
};

static struct exit_handlers at_exit, at_quick_exit;
static int ending;

/* Defined by the instrumentation when the program calls atexit or at_quick_exit. */
extern const char __cdpor_exit_handlers_used __attribute__((weak));

static int add_handler(struct exit_handlers *h, void (*f)(void)) {
    cdpor_state_event(&h->object, CDPOR_MODE_READ_WRITE, __cdpor_site);
    if (h->n == EXIT_HANDLERS)
        return -1;
    h->run[h->n++] = f;
    return 0;
}

static _Noreturn void end_program(struct exit_handlers *h, int code, uint32_t site) {
    if (h && &__cdpor_exit_handlers_used && !ending) {
        ending = 1;
        for (;;) {
            cdpor_state_event(&h->object, CDPOR_MODE_READ_WRITE, site);
            if (!h->n)
                break;
            h->run[--h->n]();
        }
    }
    cdpor_process_exit(code, site);
}

int __cdpor_atexit(void (*f)(void)) { return add_handler(&at_exit, f); }
int __cdpor_at_quick_exit(void (*f)(void)) { return add_handler(&at_quick_exit, f); }

void cdpor_exit(int code, uint32_t site) { end_program(&at_exit, code, site); }
void __cdpor_exit(int code) { cdpor_exit(code, __cdpor_site); }
void __cdpor_quick_exit(int code) { end_program(&at_quick_exit, code, __cdpor_site); }
void __cdpor_exit_now(int code) { end_program(NULL, code, __cdpor_site); }

int cdpor_exit_handlers(void) { return !ending && at_exit.n > 0; }

void cdpor_shims_reset(uint32_t threads) {
    for (uint32_t t = 0; t < threads && t < CDPOR_MAX_THREADS; t++) {
        cleanups[t] = NULL;
        exit_values[t] = NULL;
        exit_sites[t] = 0;
    }
    memset(&at_exit, 0, sizeof at_exit);
    memset(&at_quick_exit, 0, sizeof at_quick_exit);
    ending = 0;
    __cdpor_site = 0;
}

void __cdpor_abort(void) { cdpor_abort(__cdpor_site); }

/* The SV-COMP verifier API (src/instrument/verifier.rs calls these with the site). */
void __cdpor_reach_error(uint32_t site) { cdpor_reach_error(site); }
void __cdpor_assume(int cond, uint32_t site) { cdpor_assume(cond, site); }
uint64_t __cdpor_nondet(uint32_t bits, uint32_t is_signed, uint32_t site, uint32_t flags,
                        const int64_t *cuts, uint32_t n_cuts) {
    return cdpor_nondet(bits, is_signed, site, flags, cuts, n_cuts);
}
void __cdpor_nondet_used(uint32_t site, uint32_t any) { cdpor_nondet_used(site, any); }
void __cdpor_atomic_begin(uint32_t site) { cdpor_atomic_begin(site); }
void __cdpor_atomic_end(uint32_t site) { cdpor_atomic_end(site); }

void __cdpor_assert_fail(const char *expr, const char *file, unsigned line, const char *func) {
    (void)func;
    cdpor_assert_fail(expr, file, line, __cdpor_site);
}

/* ---- time ----
 * Time is not modelled: a sleep cannot change which interleavings exist, so it returns at
 * once instead of slowing every execution down. */

unsigned __cdpor_sleep(unsigned seconds) {
    (void)seconds;
    return 0;
}

int __cdpor_usleep(unsigned usec) {
    (void)usec;
    return 0;
}

int __cdpor_nanosleep(const struct timespec *req, struct timespec *rem) {
    (void)req;
    if (rem)
        rem->tv_sec = rem->tv_nsec = 0;
    return 0;
}

int __cdpor_sched_yield(void) { return 0; }

/* ---- spin locks: mutex operations on the 4-byte object ---- */

int __cdpor_pthread_spin_init(pthread_spinlock_t *l, int pshared) {
    (void)pshared;
    return cdpor_spin(CDPOR_K_MUTEXINIT, (void *)l, __cdpor_site);
}

int __cdpor_pthread_spin_destroy(pthread_spinlock_t *l) {
    return cdpor_spin(CDPOR_K_MUTEXDESTROY, (void *)l, __cdpor_site);
}

int __cdpor_pthread_spin_lock(pthread_spinlock_t *l) {
    return cdpor_spin(CDPOR_K_LOCK, (void *)l, __cdpor_site);
}

int __cdpor_pthread_spin_trylock(pthread_spinlock_t *l) {
    return cdpor_spin(CDPOR_K_TRYLOCK, (void *)l, __cdpor_site);
}

int __cdpor_pthread_spin_unlock(pthread_spinlock_t *l) {
    return cdpor_spin(CDPOR_K_UNLOCK, (void *)l, __cdpor_site);
}

/* ---- pthread_once ----
 * Two events around the initializer (runtime/sched/src/ops/once.rs): the first says
 * whether this caller runs it, and waits while another caller does. */

static void once(void *control, void (*init)(void)) {
    uint32_t site = __cdpor_site;
    if (cdpor_sync(CDPOR_K_ONCEBEGIN, control, site) == 1) {
        init();
        cdpor_sync(CDPOR_K_ONCEEND, control, site);
    }
}

int __cdpor_pthread_once(pthread_once_t *control, void (*init)(void)) {
    if (!control || !init)
        return EINVAL;
    once(control, init);
    return 0;
}

/* C11's once_flag is glibc's pthread_once_t. */
void __cdpor_call_once(pthread_once_t *flag, void (*func)(void)) {
    if (flag && func)
        once(flag, func);
}

/* ---- barriers (runtime/sched/src/ops/barrier.rs) ---- */

int __cdpor_pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *attr,
                                 unsigned count) {
    (void)attr;
    if (count == 0)
        return EINVAL;
    return cdpor_sync_value(CDPOR_K_BARRIERINIT, b, count, __cdpor_site);
}

int __cdpor_pthread_barrier_destroy(pthread_barrier_t *b) {
    return cdpor_sync(CDPOR_K_BARRIERDESTROY, b, __cdpor_site);
}

int __cdpor_pthread_barrier_wait(pthread_barrier_t *b) {
    return cdpor_barrier_wait(b, __cdpor_site, 1);
}

/* The calls of a program none of whose calls uses the result (the instrumentation
 * tells): no thread needs to be the serial one. */
int __cdpor_pthread_barrier_wait_unused(pthread_barrier_t *b) {
    return cdpor_barrier_wait(b, __cdpor_site, 0);
}

int __cdpor_pthread_barrierattr_init(pthread_barrierattr_t *a) {
    memset(a, 0, sizeof *a);
    return 0;
}

int __cdpor_pthread_barrierattr_destroy(pthread_barrierattr_t *a) {
    (void)a;
    return 0;
}

/* One process: a process-shared barrier is the same object as a private one. */
int __cdpor_pthread_barrierattr_setpshared(pthread_barrierattr_t *a, int pshared) {
    if (pshared != PTHREAD_PROCESS_PRIVATE && pshared != PTHREAD_PROCESS_SHARED)
        return EINVAL;
    memset(a, 0, sizeof *a);
    *(int *)a = pshared;
    return 0;
}

int __cdpor_pthread_barrierattr_getpshared(const pthread_barrierattr_t *a, int *pshared) {
    *pshared = *(const int *)a;
    return 0;
}

/* ---- semaphores ----
 * The count is the first word of the sem_t (runtime/sched/src/ops/semaphore.rs). A process
 * has one address space here, so a shared semaphore (pshared) is the same object. */

#ifndef SEM_VALUE_MAX
#define SEM_VALUE_MAX INT_MAX
#endif

static int sem_result(int r) {
    if (r == 0)
        return 0;
    errno = r;
    return -1;
}

int __cdpor_sem_init(sem_t *s, int pshared, unsigned value) {
    (void)pshared;
    if (value > SEM_VALUE_MAX) {
        errno = EINVAL;
        return -1;
    }
    return sem_result(cdpor_sync_value(CDPOR_K_SEMINIT, s, value, __cdpor_site));
}

int __cdpor_sem_destroy(sem_t *s) {
    return sem_result(cdpor_sync(CDPOR_K_SEMDESTROY, s, __cdpor_site));
}

int __cdpor_sem_wait(sem_t *s) {
    return sem_result(cdpor_sync(CDPOR_K_SEMWAIT, s, __cdpor_site));
}

int __cdpor_sem_trywait(sem_t *s) {
    return sem_result(cdpor_sync(CDPOR_K_SEMTRYWAIT, s, __cdpor_site));
}

/* Time is not modelled: a timed wait is a trywait that returns ETIMEDOUT, which may time
 * out whenever the count is 0 (scheduled after a post, it takes the unit). */
int __cdpor_sem_timedwait(sem_t *s, const struct timespec *t) {
    if (bad_deadline(t)) {
        errno = EINVAL;
        return -1;
    }
    return sem_result(cdpor_sync_value(CDPOR_K_SEMTRYWAIT, s, 1, __cdpor_site));
}

int __cdpor_sem_clockwait(sem_t *s, clockid_t c, const struct timespec *t) {
    (void)c;
    if (bad_deadline(t)) {
        errno = EINVAL;
        return -1;
    }
    return sem_result(cdpor_sync_value(CDPOR_K_SEMTRYWAIT, s, 1, __cdpor_site));
}

int __cdpor_sem_post(sem_t *s) {
    return sem_result(cdpor_sync(CDPOR_K_SEMPOST, s, __cdpor_site));
}

int __cdpor_sem_getvalue(sem_t *s, int *value) {
    uint32_t site = __cdpor_site;
    int count = cdpor_sync(CDPOR_K_SEMGETVALUE, s, site);
    if (!value) {
        errno = EINVAL;
        return -1;
    }
    cdpor_store((uint64_t)(uintptr_t)value, sizeof *value, (uint64_t)(unsigned)count, site);
    return 0;
}

/* ---- in-place reset ---- */

/* Before a call of a function whose effects an in-place reset cannot put back
 * (src/instrument/irreversible.rs). */
void __cdpor_irreversible(const char *what, uint32_t site) { cdpor_irreversible(what, site); }

/* Defined by the instrumentation when the program takes the address of such a function. */
extern const char __cdpor_fork_only[] __attribute__((weak));

const char *cdpor_fork_only(void) { return __cdpor_fork_only; }
