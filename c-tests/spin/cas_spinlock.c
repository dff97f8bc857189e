/* A spin lock taken with compare-exchange: a failed attempt stores the lock's current
 * value into `expected`, which the loop resets to 0, so a failed turn leaves everything
 * as it was and the thread waits for the unlock. Two threads (main, arg 0, and one other,
 * arg 1) each add 1 to a plain counter under the lock: main sees 2, safe.
 *
 * -DBROKEN: the unlock is missing in one path, the worker thread (arg != 0) returns
 * without releasing the lock. If it takes the lock before main, main spins on a lock
 * that nobody will ever clear: a livelock. If main goes first, both finish.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=livelock blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=livelock
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=livelock
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=livelock
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

static void *worker(void *arg) {
    int expected = 0;
    while (!atomic_compare_exchange_strong(&lock, &expected, 1))
        expected = 0;
    counter = counter + 1;
#ifdef BROKEN
    if (arg != 0)
        return 0; /* BUG: the worker returns holding the lock */
#else
    (void)arg;
#endif
    atomic_store(&lock, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)1);
    worker(0);
    pthread_join(t, 0);
    assert(counter == 2);
    return 0;
}
