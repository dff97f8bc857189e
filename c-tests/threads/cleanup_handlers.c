/* pthread_cleanup_push handlers run when the thread calls pthread_exit, innermost
 * first, even from a function it called inside their scope; pthread_cleanup_pop(1) runs
 * one, pop(0) only removes it. The worker locks, pushes an unlocking handler and an
 * order-recording one, and exits from a helper: main can then lock, sees both handlers
 * ran in order and the exit value. With -DNOPUSH the worker exits holding the lock:
 * main's lock deadlocks. With -DPOP0 the worker pops its handlers without running them,
 * unlocks, and returns: no handler runs; with -DPOP1 it pops them running them (the
 * first unlocks) and returns.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 * run: -DNOPUSH ; verdict=error kind=deadlock
 * run: -DNOPUSH --algorithm none ; verdict=error kind=deadlock
 * run: -DPOP0 ; verdict=safe executions=1
 * run: -DPOP1 ; verdict=safe executions=1
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int order[2], ran;

static void unlock(void *arg) {
    order[ran++] = 1;
    pthread_mutex_unlock(arg);
}

static void record(void *arg) { order[ran++] = (int)(long)arg; }

static void leave(void) { pthread_exit((void *)42); }

static void *worker(void *arg) {
    pthread_mutex_lock(&m);
#ifdef NOPUSH
    leave();
#else
    pthread_cleanup_push(unlock, &m);
    pthread_cleanup_push(record, (void *)2);
#if !defined POP0 && !defined POP1
    if (!arg)
        leave();
#endif
#ifdef POP1
    pthread_cleanup_pop(1);
    pthread_cleanup_pop(1);
    return 0;
#else
    pthread_cleanup_pop(0);
    pthread_cleanup_pop(0);
#endif
#endif
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    void *value;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, &value);
    pthread_mutex_lock(&m);
#ifdef POP0
    assert(ran == 0 && value == 0);
#else
    assert(ran == 2 && order[0] == 2 && order[1] == 1);
#ifndef POP1
    assert(value == (void *)42);
#endif
#endif
    pthread_mutex_unlock(&m);
    return 0;
}
