/* A test-and-set spin lock (C11 atomic_flag): two threads each add 1 to a plain counter
 * under the lock. A failed test-and-set writes `set` over `set`, so the spinner waits for
 * the clear. The lock makes the increments exclusive: main always sees 2, safe.
 *
 * -DBROKEN takes the "lock" with a plain atomic load and then a separate store instead of
 * one atomic test-and-set: both threads can see the lock free before either stores 1,
 * both enter, and one increment of the counter is lost: main's assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=tas.c:55 errors=assertion@tas.c:55 executions=20 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=tas.c:55 errors=assertion@tas.c:55
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=tas.c:55 errors=assertion@tas.c:55
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=tas.c:55 errors=assertion@tas.c:55
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifdef BROKEN
atomic_int locked;
#else
atomic_flag lock = ATOMIC_FLAG_INIT;
#endif
int counter;

static void *worker(void *arg) {
    (void)arg;
#ifdef BROKEN
    while (atomic_load(&locked)) {
    }
    atomic_store(&locked, 1); /* BUG: not atomic with the load above */
#else
    while (atomic_flag_test_and_set(&lock)) {
    }
#endif
    counter = counter + 1;
#ifdef BROKEN
    atomic_store(&locked, 0);
#else
    atomic_flag_clear(&lock);
#endif
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
