/* A lock-free counter: three threads (main and two others) each add 1 with a
 * compare-exchange retry loop. A failed compare-exchange reloads the current value and
 * retries, so no increment is lost: main sees 3, safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=48 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int counter;

static void *worker(void *arg) {
    (void)arg;
    int old = atomic_load(&counter);
    while (!atomic_compare_exchange_weak(&counter, &old, old + 1)) {
        /* old now holds the current value: retry */
    }
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
