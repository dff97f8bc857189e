/* A retry loop with an event between its load and its first try: main loads the
 * counter, then raises a flag, then tries to add 1. The worker, once it sees the flag,
 * sets the counter to 5. Main's try then fails and its retry writes 6, which needs the
 * failed try: the load cannot move past the flag the worker waits for. So that try is
 * no redundant one, and main's assertion that 6 is never reached fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=retry_event_between_bad.c:35 executions=3 blocked=0
 * run: --algorithm source ; verdict=error kind=assertion location=retry_event_between_bad.c:35
 * run: --algorithm classic ; verdict=error kind=assertion location=retry_event_between_bad.c:35
 * run: --algorithm none ; verdict=error kind=assertion location=retry_event_between_bad.c:35
 * run: --algorithm none --all-retries ; verdict=error kind=assertion location=retry_event_between_bad.c:35
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int c, flag;

static void *worker(void *arg) {
    (void)arg;
    if (atomic_load(&flag))
        atomic_store(&c, 5);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int old = atomic_load(&c);
    atomic_store(&flag, 1);
    while (!atomic_compare_exchange_strong(&c, &old, old + 1))
        ;
    pthread_join(t, 0);
    assert(atomic_load(&c) != 6);
    return 0;
}
