/* An error-checking mutex, used correctly: a trylock by the owner fails with EBUSY, and
 * the mutex stays with its owner. Its misuses are errors of kind misuse (they only
 * return EDEADLK or EPERM, and a program that goes on has a bug): with -DRELOCK the
 * owner locks it again; with -DSTRANGER a thread that does not hold it unlocks it, in
 * every interleaving (before main locks it, while main holds it before or after its trylock, or after).
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=6
 * run: -DRELOCK --keep-going ; verdict=error blocked=0 kind=misuse location=errorcheck.c:39 contains="misuse: thread T0 at c-tests/mutex/errorcheck.c:39 locks the error-checking mutex m, which it already holds"
 * run: -DSTRANGER --keep-going ; verdict=error kind=misuse executions=4 failing=4 blocked=0 errors=misuse@errorcheck.c:25
 * run: -DSTRANGER --keep-going --algorithm none ; verdict=error executions=6 failing=6 errors=misuse@errorcheck.c:25
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_mutex_t m;
int x;

void *stranger(void *arg) {
    (void)arg;
    int r = 0;
#ifdef STRANGER
    r = pthread_mutex_unlock(&m);
#endif
    return (void *)(long)r;
}

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &a);
    pthread_t t;
    pthread_create(&t, 0, stranger, 0);
    assert(pthread_mutex_lock(&m) == 0);
#ifdef RELOCK
    assert(pthread_mutex_lock(&m) == EDEADLK);
#endif
    assert(pthread_mutex_trylock(&m) == EBUSY);
    x = 1;
    assert(pthread_mutex_unlock(&m) == 0);
    pthread_join(t, 0);
    return 0;
}
