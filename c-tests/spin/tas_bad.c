/* A "spin lock" taken with a plain atomic load and then a separate store instead of one
 * atomic exchange: both threads can see the lock free before either stores 1, both enter,
 * and one increment of the counter is lost: main's assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=tas_bad.c:34 errors=assertion@tas_bad.c:34 executions=24 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=tas_bad.c:34 errors=assertion@tas_bad.c:34
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=tas_bad.c:34 errors=assertion@tas_bad.c:34
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=tas_bad.c:34 errors=assertion@tas_bad.c:34
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int locked;
int counter;

static void *worker(void *arg) {
    (void)arg;
    while (atomic_load(&locked)) {
    }
    atomic_store(&locked, 1); /* BUG: not atomic with the load above */
    counter = counter + 1;
    atomic_store(&locked, 0);
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
