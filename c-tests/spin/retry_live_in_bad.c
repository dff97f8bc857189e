/* A retry loop whose new value is computed from its first load (`first + 10`) rather
 * than from the value the failed try read: a failed try changes what the next one
 * writes, so it is not redundant. The worker stores 1; the retry loop's try fails when
 * that store comes between its load and its try, and then writes 10 over the 1, which
 * is the only way to end with 10 after the store: main's assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=retry_live_in_bad.c:36 executions=3 blocked=0
 * run: --algorithm source ; verdict=error kind=assertion location=retry_live_in_bad.c:36
 * run: --algorithm classic ; verdict=error kind=assertion location=retry_live_in_bad.c:36
 * run: --algorithm none ; verdict=error kind=assertion location=retry_live_in_bad.c:36
 * run: --algorithm none --all-retries ; verdict=error kind=assertion location=retry_live_in_bad.c:36
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int c;
atomic_int stored;

static void *storer(void *arg) {
    (void)arg;
    atomic_store(&c, 1);
    atomic_store(&stored, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, storer, 0);
    int first = atomic_load(&c);
    int old = first;
    while (!atomic_compare_exchange_strong(&c, &old, first + 10))
        ;
    pthread_join(t, 0);
    assert(!(atomic_load(&c) == 10 && first == 0 && old == 1));
    return 0;
}
