/* A spin lock built on the GCC builtins: __atomic_test_and_set / __atomic_clear, or with
 * -DSYNC the older __sync_lock_test_and_set / __sync_lock_release. Three threads (main and
 * two others) each add 1 to a plain counter under the lock: main sees 3, safe. With two
 * threads spinning at once, a failed test-and-set (1 over 1) changes nothing, so it must
 * not wake the other spinner (else they wake each other without end while the holder
 * waits its turn). The runs carry a time limit so that such a regression cannot hang.
 *
 * cdpor-test
 * run: --time-limit 20 --algorithm optimal ; verdict=safe executions=144 blocked=0
 * run: --time-limit 20 --algorithm source ; verdict=safe
 * run: --time-limit 20 --algorithm classic ; verdict=safe
 * run: -DSYNC --time-limit 20 --algorithm optimal ; verdict=safe executions=144 blocked=0
 * run: -DSYNC --time-limit 20 --algorithm source ; verdict=safe
 * run: -DSYNC --time-limit 20 --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdbool.h>

#ifdef SYNC
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
