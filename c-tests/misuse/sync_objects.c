/* Misuses of synchronization objects that POSIX leaves undefined are errors of kind
 * misuse, reported at the operation, in the interleavings where they happen. Without a
 * -D the program is correct: a worker waits for a flag under a mutex and a condition,
 * main sets it and signals, and everything is destroyed once the worker is joined.
 *
 * -DUNLOCK_FREE   main unlocks the mutex once more (nobody holds it);
 * -DDESTROY_HELD  main destroys the mutex while holding it;
 * -DDESTROY_COND  main clears the flag again and destroys the condition before the
 *                 worker is joined: a misuse when the worker waits on it then (and a
 *                 deadlock when it waits for the flag afterwards);
 * -DNO_MUTEX      the worker waits without holding the mutex;
 * -DTWO_MUTEXES   a second worker waits on the same condition with another mutex: a
 *                 misuse when the other one is waiting at that moment (and a deadlock
 *                 when it waits after the broadcast);
 * -DRWLOCK        main unlocks a rwlock that a worker holds for writing.
 *
 * cdpor-test
 * run: ; verdict=safe executions=4
 * run: --algorithm none ; verdict=safe executions=16
 * run: -DUNLOCK_FREE ; verdict=error kind=misuse location=sync_objects.c:82 contains="misuse: thread T0 at c-tests/misuse/sync_objects.c:82 unlocks m, which it does not hold (held by no thread)"
 * run: -DDESTROY_HELD ; verdict=error kind=misuse location=sync_objects.c:86 contains="destroys m while it is held"
 * run: -DDESTROY_COND --keep-going ; verdict=error executions=34 failing=30 errors=misuse@sync_objects.c:92,deadlock@sync_objects.c:99
 * run: -DDESTROY_COND --keep-going --algorithm none ; verdict=error executions=256 failing=176 errors=misuse@sync_objects.c:92,deadlock@sync_objects.c:99
 * run: -DNO_MUTEX ; verdict=error kind=misuse location=sync_objects.c:43 contains="waits on c with the mutex m, which it does not hold"
 * run: -DNO_MUTEX --keep-going --algorithm none ; verdict=error executions=21 failing=15 errors=misuse@sync_objects.c:43
 * run: -DTWO_MUTEXES --keep-going ; verdict=error executions=51 failing=33 errors=misuse@sync_objects.c:43,misuse@sync_objects.c:55,deadlock@sync_objects.c:101
 * run: -DRWLOCK ; verdict=error kind=misuse location=sync_objects.c:97 contains="unlocks rw, which it does not hold"
 * run: --svcomp -DUNLOCK_FREE ; verdict=safe executions=4
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, other = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int flag;

void *waiter(void *arg) {
    (void)arg;
#ifndef NO_MUTEX
    pthread_mutex_lock(&m);
#endif
    while (!flag)
        pthread_cond_wait(&c, &m);
#ifndef NO_MUTEX
    pthread_mutex_unlock(&m);
#endif
    return NULL;
}

#ifdef TWO_MUTEXES
void *other_waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&other);
    while (!flag)
        pthread_cond_wait(&c, &other);
    pthread_mutex_unlock(&other);
    return NULL;
}
#endif

void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&rw);
    return NULL;
}

int main(void) {
    pthread_t t, u;
    pthread_create(&t, NULL, waiter, NULL);
#ifdef TWO_MUTEXES
    pthread_create(&u, NULL, other_waiter, NULL);
#endif
    pthread_mutex_lock(&m);
    flag = 1;
#ifdef TWO_MUTEXES
    pthread_cond_broadcast(&c);
#else
    pthread_cond_signal(&c);
#endif
    pthread_mutex_unlock(&m);
#ifdef UNLOCK_FREE
    pthread_mutex_unlock(&m);
#endif
#ifdef DESTROY_HELD
    pthread_mutex_lock(&m);
    pthread_mutex_destroy(&m);
#endif
#ifdef DESTROY_COND
    pthread_mutex_lock(&m);
    flag = 0;
    pthread_mutex_unlock(&m);
    pthread_cond_destroy(&c);
#endif
#ifdef RWLOCK
    pthread_create(&u, NULL, writer, NULL);
    pthread_join(u, NULL);
    pthread_rwlock_unlock(&rw);
#endif
    pthread_join(t, NULL);
#ifdef TWO_MUTEXES
    pthread_join(u, NULL);
#endif
    (void)u;
    (void)writer;
    return 0;
}
