/* A worker locks a mutex that main destroys once it thinks the work is done (BUG: it
 * does not join first): in the interleavings where the destroy comes first, the worker
 * uses a destroyed mutex, a misuse; where it comes last, the program is fine. Correctly
 * main joins before destroying, and may initialize the mutex again and use it (as a
 * recursive mutex this time, whose kind the earlier life must not leave behind).
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=misuse location=mutex_destroyed.c:20 contains="a mutex destroyed and not initialized again"
 * run: -DBUG --algorithm none ; verdict=error kind=misuse location=mutex_destroyed.c:20
 * run: -DBUG --svcomp ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
#ifndef BUG
    pthread_join(t, 0);
#endif
    pthread_mutex_destroy(&m);
#ifndef BUG
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &a);
    pthread_mutex_lock(&m);
    assert(pthread_mutex_lock(&m) == 0);
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_destroy(&m);
    pthread_mutex_init(&m, 0);
    pthread_mutex_lock(&m);
    assert(pthread_mutex_trylock(&m) != 0);
    pthread_mutex_unlock(&m);
#endif
    return 0;
}
