/* Peterson's algorithm with the wrong turn: each thread sets turn to itself instead of
 * to the other. A thread that finds the other's flag down enters; the other then sets
 * turn to itself, finds turn != other and enters too: the second one's write of `owner`
 * breaks the first one's assertion.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=peterson_bad.c:35 errors=assertion@peterson_bad.c:35 executions=26 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=peterson_bad.c:35 errors=assertion@peterson_bad.c:35
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=peterson_bad.c:35 errors=assertion@peterson_bad.c:35
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=peterson_bad.c:35 errors=assertion@peterson_bad.c:35
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
        atomic_store(&turn, me); /* BUG: should give the turn away */
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
