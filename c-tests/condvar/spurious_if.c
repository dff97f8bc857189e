/* The waiter checks `ready` with `if` instead of `while`: POSIX lets pthread_cond_wait
 * return without a signal (a spurious wake-up), and then the waiter goes on although
 * `ready` is still 0, so its assertion fails. With `while` (-DRECHECK) it waits again:
 * safe, and the wait after a spurious wake-up that changed nothing cannot wake
 * spuriously again, so the exploration stays finite. With --no-spurious-wakeups the
 * `if` version is safe too.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error kind=assertion location=spurious_if.c:33 executions=4 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=16
 * run: -DRECHECK ; verdict=safe executions=4 blocked=0
 * run: -DRECHECK --algorithm none ; verdict=safe executions=16
 * run: --no-spurious-wakeups ; verdict=safe executions=2 blocked=0
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
#ifdef RECHECK
    while (!ready)
#else
    if (!ready)
#endif
        pthread_cond_wait(&c, &m);
    assert(ready);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, waiter, 0);
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
