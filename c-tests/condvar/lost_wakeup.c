/* Lost wake-up: the waiter checks `ready` and waits under the mutex, but the signaller sets
 * `ready` and signals without taking it. If the signal comes between the waiter's check
 * and its wait, nobody wakes the waiter: main's join never returns (deadlock).
 *
 * Traces: the signaller's write of `ready` is before or after the waiter's read. Before:
 * the waiter does not wait (1 trace). After: the waiter waits, and the signal comes before
 * its wait (lost: deadlock) or after it (woken): 2 traces. 3 in all, 1 failing.
 *
 * (Runs with --no-spurious-wakeups count the signal semantics alone; by default a wait
 * may also end without a signal, which adds executions.)
 *
 * cdpor-test
 * run: ; verdict=error kind=deadlock contains="no signal woke it"
 * run: --keep-going ; verdict=error kind=deadlock executions=5 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=deadlock executions=5 failing=1
 * run: --keep-going --no-spurious-wakeups ; verdict=error kind=deadlock executions=3 failing=1 blocked=0
 * run: --algorithm classic ; verdict=error kind=deadlock
 * run: --algorithm none ; verdict=error kind=deadlock
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int ready;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (!ready)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

void *signaller(void *arg) {
    (void)arg;
    ready = 1;
    pthread_cond_signal(&c);
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
