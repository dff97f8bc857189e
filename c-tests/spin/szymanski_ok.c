/* Szymanski's mutual exclusion for two threads (main is thread 0), with flag values
 * 0 idle, 1 wants in, 2 waits in the waiting room, 3 at the door, 4 behind the door.
 * Under sequential consistency at most one thread is in the critical section: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=666 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int flag[2];
int owner;

static void *worker(void *arg) {
    int me = (int)(intptr_t)arg;
    int other = 1 - me;
    atomic_store(&flag[me], 1);
    while (atomic_load(&flag[other]) >= 3) { /* wait for the door to open */
    }
    atomic_store(&flag[me], 3);
    if (atomic_load(&flag[other]) == 1) { /* someone else is coming: wait for them */
        atomic_store(&flag[me], 2);
        while (atomic_load(&flag[other]) != 4) {
        }
    }
    atomic_store(&flag[me], 4);
    if (other < me) /* lower ids go first */
        while (atomic_load(&flag[other]) >= 2) {
        }
    owner = me;
    assert(owner == me);
    if (other > me) { /* let the ones in the waiting room through the door */
        int f;
        do
            f = atomic_load(&flag[other]);
        while (f == 2 || f == 3);
    }
    atomic_store(&flag[me], 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)(intptr_t)1);
    worker((void *)(intptr_t)0);
    pthread_join(t, 0);
    return 0;
}
