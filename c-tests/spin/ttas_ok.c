/* A test-and-test-and-set lock on an atomic_bool: spin reading until the lock looks free,
 * then try atomic_exchange; a failed exchange (true for true) goes back to reading. Two
 * threads (main and one other) each add 1 under the lock: main finally sees 2, safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

atomic_bool locked;
int counter;

static void acquire(void) {
    for (;;) {
        while (atomic_load_explicit(&locked, memory_order_relaxed)) {
        }
        if (!atomic_exchange_explicit(&locked, true, memory_order_acquire))
            return;
    }
}

static void release(void) {
    atomic_store_explicit(&locked, false, memory_order_release);
}

static void *worker(void *arg) {
    (void)arg;
    acquire();
    counter++;
    release();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    worker(0);
    pthread_join(t, 0);
    assert(counter == 2);
    return 0;
}
