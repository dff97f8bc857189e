/* An error-checking mutex returns errors instead of deadlocking or corrupting: a relock
 * by the owner fails with EDEADLK, a trylock by the owner with EBUSY, an unlock by
 * another thread with EPERM, and the mutex stays with its owner. The thread that
 * unlocks without holding runs before, while and after main holds the mutex.
 * BUG: asserting that the foreign unlock succeeds.
 *
 * cdpor-test
 * run: ; verdict=safe executions=5
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=assertion location=errorcheck.c:24
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int x;

void *stranger(void *arg) {
    (void)arg;
    int r = pthread_mutex_unlock(&m);
    assert(r == EPERM);
#ifdef BUG
    assert(r == 0);
#endif
    return 0;
}

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &a);
    pthread_t t;
    pthread_create(&t, 0, stranger, 0);
    assert(pthread_mutex_lock(&m) == 0);
    assert(pthread_mutex_lock(&m) == EDEADLK);
    assert(pthread_mutex_trylock(&m) == EBUSY);
    x = 1;
    assert(pthread_mutex_unlock(&m) == 0);
    pthread_join(t, 0);
    return 0;
}
