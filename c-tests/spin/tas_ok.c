/* A test-and-set spin lock (C11 atomic_flag): two threads each add 1 to a plain counter
 * under the lock. A failed test-and-set writes `set` over `set`, so the spinner waits for
 * the clear. The lock makes the increments exclusive: main always sees 2, safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_flag lock = ATOMIC_FLAG_INIT;
int counter;

static void *worker(void *arg) {
    (void)arg;
    while (atomic_flag_test_and_set(&lock)) {
    }
    counter = counter + 1;
    atomic_flag_clear(&lock);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    return 0;
}
