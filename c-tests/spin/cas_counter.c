/* A lock-free counter: three threads (main and two others) each add 1 with a
 * compare-exchange retry loop. A failed compare-exchange reloads the current value and
 * retries, so no increment is lost: main sees 3, safe. A failed first try is redundant
 * (the execution in which the load comes after the store that made it fail covers it),
 * so optimal runs one execution per order of the three increments: 3! = 6 (48 when every
 * failed try ran on).
 *
 * -DBROKEN loads the counter and stores the value plus 1 as two separate atomic
 * operations: two threads can load the same value and one increment is lost, so main's
 * assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: --algorithm none --all-retries ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=cas_counter.c:49 errors=assertion@cas_counter.c:49 executions=36 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=cas_counter.c:49 errors=assertion@cas_counter.c:49
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=cas_counter.c:49 errors=assertion@cas_counter.c:49
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=cas_counter.c:49 errors=assertion@cas_counter.c:49
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int counter;

static void *worker(void *arg) {
    (void)arg;
    int old = atomic_load(&counter);
#ifdef BROKEN
    atomic_store(&counter, old + 1); /* BUG: load and store are two steps */
#else
    while (!atomic_compare_exchange_weak(&counter, &old, old + 1)) {
        /* old now holds the current value: retry */
    }
#endif
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    worker(0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&counter) == 3);
    return 0;
}
