/* Peterson's algorithm without the flag: the threads give each other the turn but never
 * raise flag[me], so the wait condition is always false and both can be in the
 * critical section at once: the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=peterson_noflag_bad.c:34 errors=assertion@peterson_noflag_bad.c:34 executions=12 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=peterson_noflag_bad.c:34 errors=assertion@peterson_noflag_bad.c:34
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=peterson_noflag_bad.c:34 errors=assertion@peterson_noflag_bad.c:34
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=peterson_noflag_bad.c:34 errors=assertion@peterson_noflag_bad.c:34
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
        /* BUG: the flag is never raised */
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
