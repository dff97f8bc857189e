/* The lock-free counter done wrong: each of three threads loads the counter and stores
 * the value plus 1 as two separate atomic operations. Two threads can load the same value
 * and one increment is lost: main's assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=cas_counter_bad.c:31 errors=assertion@cas_counter_bad.c:31 executions=36 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=cas_counter_bad.c:31 errors=assertion@cas_counter_bad.c:31
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=cas_counter_bad.c:31 errors=assertion@cas_counter_bad.c:31
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=cas_counter_bad.c:31 errors=assertion@cas_counter_bad.c:31
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int counter;

static void *worker(void *arg) {
    (void)arg;
    int old = atomic_load(&counter);
    atomic_store(&counter, old + 1); /* BUG: load and store are two steps */
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
