/* Peterson's mutual exclusion for two threads (main is thread 0): raise your flag, give
 * the turn away, wait while the other wants in and has the turn. Under sequential
 * consistency at most one thread is ever inside the critical section: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=14 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DROUNDS=2 --algorithm optimal ; verdict=safe executions=2068 blocked=0
 * run: -DROUNDS=2 --algorithm source ; verdict=safe
 * run: -DROUNDS=2 --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef ROUNDS
#define ROUNDS 1 /* times each thread enters */
#endif

atomic_int flag[2];
atomic_int turn;
int owner; /* who is in the critical section */

static void *worker(void *arg) {
    int me = (int)(intptr_t)arg;
    int other = 1 - me;
    for (int r = 0; r < ROUNDS; r++) {
        atomic_store(&flag[me], 1);
        atomic_store(&turn, other);
        while (atomic_load(&flag[other]) && atomic_load(&turn) == other) {
            /* spin */
        }
        owner = me;
        assert(owner == me);
        atomic_store(&flag[me], 0);
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)(intptr_t)1);
    worker((void *)(intptr_t)0);
    pthread_join(t, 0);
    return 0;
}
