/* The correct version of lost_wakeup.c: the signaller sets `ready` and signals under the
 * mutex, and the waiter re-checks in a loop. Safe.
 *
 * Traces: whoever locks first. The signaller first: the waiter finds ready = 1 and never
 * waits. The waiter first: it waits (releasing the mutex), the signaller locks, sets,
 * signals and unlocks, the waiter wakes and finds ready = 1. 2 traces.
 *
 * (Runs with --no-spurious-wakeups count the signal semantics alone; by default a wait
 * may also end without a signal, which adds executions.)
 *
 * cdpor-test
 * run: ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe executions=4
 * run: --no-spurious-wakeups ; verdict=safe executions=2 blocked=0
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!ready)
        pthread_cond_wait(&c, &m);
    assert(ready == 1);
    pthread_mutex_unlock(&m);
    return 0;
}

void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, signaller, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
