/* The writer moves `stage` from 0 to 1, writes `data`, then moves `stage` to 2; the
 * spinner (main) waits for stage == 2, which comes after the write of data: safe, even
 * when the spinner wakes up on the intermediate value 1 and has to wait again.
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

atomic_int stage;
atomic_int data;

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&stage, 1);
    atomic_store(&data, 1);
    atomic_store(&stage, 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int s;
    while ((s = atomic_load(&stage)) != 2) {
    }
    assert(atomic_load(&data) == 1);
    pthread_join(t, 0);
    return 0;
}
