/* A spin lock built on the GCC builtins: __atomic_test_and_set / __atomic_clear, or with
 * -DSYNC the older __sync_lock_test_and_set / __sync_lock_release. Three threads (main and
 * two others) each add 1 to a plain counter under the lock: main sees 3, safe. With two
 * threads spinning at once, a failed test-and-set (1 over 1) changes nothing, so it must
 * not make the other spinner's wait stale (else each would have to run again after the
 * other's). The runs carry a time limit so that such a regression cannot hang. A failed
 * test-and-set is a read, as a failed cmpxchg is (-DCAS): two spinners' failed attempts
 * commute, and both locks take the same 6 complete executions.
 *
 * cdpor-test
 * run: --time-limit 20 --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: --time-limit 20 --algorithm source ; verdict=safe
 * run: --time-limit 20 --algorithm classic ; verdict=safe
 * run: --time-limit 200 --algorithm none ; verdict=safe executions=8723
 * run: -DSYNC --time-limit 20 --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: -DSYNC --time-limit 20 --algorithm source ; verdict=safe
 * run: -DSYNC --time-limit 20 --algorithm classic ; verdict=safe
 * run: -DCAS --time-limit 20 --algorithm optimal ; verdict=safe executions=6 blocked=0
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#if defined(CAS)
int lock;
static int take(void) {
    int free = 0;
    return !__atomic_compare_exchange_n(&lock, &free, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}
#define TAKE() take()
#define GIVE() __atomic_store_n(&lock, 0, __ATOMIC_RELEASE)
#elif defined(SYNC)
int lock;
#define TAKE() __sync_lock_test_and_set(&lock, 1)
#define GIVE() __sync_lock_release(&lock)
#else
bool lock;
#define TAKE() __atomic_test_and_set(&lock, __ATOMIC_ACQUIRE)
#define GIVE() __atomic_clear(&lock, __ATOMIC_RELEASE)
#endif
int counter;

static void *worker(void *arg) {
    (void)arg;
    while (TAKE()) {
    }
    counter++;
    GIVE();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    worker(0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 3);
    return 0;
}
