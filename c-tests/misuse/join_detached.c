/* A detached thread cannot be joined (POSIX leaves it undefined; glibc returns EINVAL)
 * nor detached again: either is a misuse, whether the thread was detached by
 * pthread_detach, by the attribute it was created with (-DATTR), or by itself
 * (-DSELF: main's join waits for the thread to finish, after its detach).
 * Detaching and never joining is fine (-DNOJOIN).
 *
 * cdpor-test
 * run: ; verdict=error kind=misuse location=join_detached.c:43 contains="joins T1, which is detached"
 * run: --algorithm none --keep-going ; verdict=error errors=misuse@join_detached.c:43
 * run: -DATTR ; verdict=error kind=misuse location=join_detached.c:43
 * run: -DTWICE ; verdict=error kind=misuse location=join_detached.c:40 contains="detaches T1, which is detached"
 * run: -DSELF --keep-going ; verdict=error executions=1 failing=1 blocked=0 errors=misuse@join_detached.c:43
 * run: -DSELF --keep-going --algorithm none ; verdict=error errors=misuse@join_detached.c:43
 * run: -DNOJOIN ; verdict=safe executions=1
 * run: -DNOJOIN -DATTR --algorithm none ; verdict=safe
 */
#include <pthread.h>

void *work(void *arg) {
    (void)arg;
#ifdef SELF
    pthread_detach(pthread_self());
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
#ifdef ATTR
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
#endif
    pthread_create(&t, &attr, work, 0);
    pthread_attr_destroy(&attr);
#if !defined(ATTR) && !defined(SELF)
    pthread_detach(t);
#endif
#ifdef TWICE
    pthread_detach(t);
#endif
#ifndef NOJOIN
    pthread_join(t, 0);
#endif
    return 0;
}
