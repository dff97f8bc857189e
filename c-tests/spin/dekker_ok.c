/* Dekker's mutual exclusion for two threads (main is thread 0). A thread that wants in
 * while the other also wants in and the turn is not its own backs off: it lowers its flag,
 * waits for the turn, and raises the flag again (so the outer loop writes). The exit hands
 * the turn over. Under sequential consistency only one thread is inside at a time: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=23 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int wants[2];
atomic_int turn;
int owner;

static void *worker(void *arg) {
    int me = (int)(intptr_t)arg;
    int other = 1 - me;
    atomic_store(&wants[me], 1);
    while (atomic_load(&wants[other])) {
        if (atomic_load(&turn) != me) {
            atomic_store(&wants[me], 0); /* back off */
            while (atomic_load(&turn) != me) {
            }
            atomic_store(&wants[me], 1);
        }
    }
    owner = me;
    assert(owner == me);
    atomic_store(&turn, other);
    atomic_store(&wants[me], 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)(intptr_t)1);
    worker((void *)(intptr_t)0);
    pthread_join(t, 0);
    return 0;
}
