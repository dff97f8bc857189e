/* Recursive mutexes, from glibc's static initializer or from pthread_mutexattr_settype
 * (ATTR): the owner may relock; the mutex is free again only after as many unlocks.
 * Two threads each take it twice around an increment: the other thread's lock waits
 * until both unlocks, so the increments never interleave: 2 executions. BUG: one unlock
 * too few, and the other thread waits for good (a deadlock).
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: -DATTR ; verdict=safe executions=2
 * run: --algorithm none ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: -DBUG ; verdict=error kind=deadlock contains="held by T"
 * run: -DBUG --algorithm none ; verdict=error kind=deadlock
 */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

#ifdef ATTR
pthread_mutex_t m;
#else
pthread_mutex_t m = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
#endif
int x;

void *twice(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m);
    int v = x;
    x = v + 1;
    pthread_mutex_unlock(&m);
#ifndef BUG
    pthread_mutex_unlock(&m);
#endif
    return 0;
}

int main(void) {
#ifdef ATTR
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &a);
    pthread_mutexattr_destroy(&a);
#endif
    pthread_t t1, t2;
    pthread_create(&t1, 0, twice, 0);
    pthread_create(&t2, 0, twice, 0);
    pthread_join(t1, 0);
    pthread_join(t2, 0);
    assert(x == 2);
    return 0;
}
