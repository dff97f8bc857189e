/* A thread "resets" a mutex with memset while another holds it: the mutex is 40 bytes of
 * memory, so the memset conflicts with its lock operations, and in glibc (and here) the
 * zeroed mutex is free again: a third thread enters the critical section the holder is
 * still in, and the holder's unlock is then a misuse (it no longer holds the mutex).
 * -DRESET_FIRST resets it before any thread uses it: safe.
 *
 * cdpor-test
 * run: ; verdict=error kind=misuse location=memset_over_mutex.c:29 contains="unlocks m, which it does not hold (held by no thread)"
 * run: --keep-going --algorithm source ; verdict=error executions=58 failing=52 errors=assertion@memset_over_mutex.c:26,misuse@memset_over_mutex.c:29
 * run: --keep-going --algorithm classic ; verdict=error executions=88 failing=82 errors=assertion@memset_over_mutex.c:26,misuse@memset_over_mutex.c:29
 * run: --keep-going ; verdict=error executions=58 failing=52 blocked=0 errors=assertion@memset_over_mutex.c:26,misuse@memset_over_mutex.c:29
 * run: -DRESET_FIRST ; verdict=safe executions=2 blocked=0
 * run: -DRESET_FIRST --algorithm none ; verdict=safe executions=14421
 * run: -DRESET_FIRST --algorithm source ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <string.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int inside;

void *critical(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    assert(inside == 0);
    inside = 1;
    inside = 0;
    pthread_mutex_unlock(&m);
    return 0;
}

void *reset(void *arg) {
    (void)arg;
    memset(&m, 0, sizeof m);
    return 0;
}

int main(void) {
    pthread_t a, b, r;
#ifdef RESET_FIRST
    pthread_create(&r, 0, reset, 0);
    pthread_join(r, 0);
#endif
    pthread_create(&a, 0, critical, 0);
    pthread_create(&b, 0, critical, 0);
#ifndef RESET_FIRST
    pthread_create(&r, 0, reset, 0);
    pthread_join(r, 0);
#endif
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
