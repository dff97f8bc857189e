/* Two threads each wait for the other's flag before raising their own: main waits for
 * `a_ready` and the worker for `b_ready`. Whatever the order, both end up spinning on a
 * flag that only the other, itself spinning, would set: a livelock in every execution.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock location=livelock_mutual_wait.c:27 errors=livelock@livelock_mutual_wait.c:27 executions=1 blocked=0 contains="no thread will change b_ready = 0"
 * run: --keep-going --algorithm source ; verdict=error kind=livelock location=livelock_mutual_wait.c:27 errors=livelock@livelock_mutual_wait.c:27
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock location=livelock_mutual_wait.c:27 errors=livelock@livelock_mutual_wait.c:27
 * run: --keep-going --algorithm none ; verdict=error kind=livelock location=livelock_mutual_wait.c:27 errors=livelock@livelock_mutual_wait.c:27
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int a_ready, b_ready;

static void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&b_ready)) { /* waits for main first */
    }
    atomic_store(&a_ready, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&a_ready)) { /* waits for the worker first */
    }
    atomic_store(&b_ready, 1);
    pthread_join(t, 0);
    return 0;
}
