/* A compare-exchange spin lock whose unlock is missing in one path: the worker thread
 * (arg != 0) returns without releasing the lock. If it takes the lock before main, main
 * spins on a lock that nobody will ever clear: a livelock. If main goes first, both
 * finish.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=livelock
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock
 * run: --keep-going --algorithm none ; verdict=error kind=livelock
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

static void *worker(void *arg) {
    int expected = 0;
    while (!atomic_compare_exchange_strong(&lock, &expected, 1))
        expected = 0;
    counter = counter + 1;
    if (arg != 0)
        return 0; /* BUG: the worker returns holding the lock */
    atomic_store(&lock, 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)1);
    worker(0);
    pthread_join(t, 0);
    return 0;
}
