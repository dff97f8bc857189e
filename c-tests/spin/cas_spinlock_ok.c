/* A spin lock taken with compare-exchange: a failed attempt stores the lock's current
 * value into `expected`, which the loop resets to 0, so a failed turn leaves everything
 * as it was and the thread waits for the unlock. Two threads (main and one other) each
 * add 1 to a plain counter under the lock: main sees 2, safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

static void *worker(void *arg) {
    (void)arg;
    int expected = 0;
    while (!atomic_compare_exchange_strong(&lock, &expected, 1))
        expected = 0;
    counter = counter + 1;
    atomic_store(&lock, 0);
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
