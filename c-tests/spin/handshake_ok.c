/* A two-way handshake, the correct order of livelock_mutual_wait.c: the worker raises
 * `a_ready` and then waits for `b_ready`; main waits for `a_ready` and then raises
 * `b_ready`. Each wait is for a flag the other thread sets unconditionally: safe, and
 * the worker's read of `data` always sees main's write made before b_ready.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int a_ready, b_ready;
int data;

static void *worker(void *arg) {
    (void)arg;
    atomic_store(&a_ready, 1);
    while (!atomic_load(&b_ready)) {
    }
    assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&a_ready)) {
    }
    data = 42;
    atomic_store(&b_ready, 1);
    pthread_join(t, 0);
    return 0;
}
