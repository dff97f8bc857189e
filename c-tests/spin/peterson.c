/* Peterson's mutual exclusion for two threads (main is thread 0): raise your flag, give
 * the turn away, wait while the other wants in and has the turn. Under sequential
 * consistency at most one thread is ever inside the critical section: safe.
 *
 * -DBROKEN takes the turn instead of giving it away: a thread that finds the other's flag
 * down enters; the other then sets turn to itself, finds turn != other and enters too,
 * and the second one's write of `owner` breaks the first one's assertion.
 *
 * -DNOFLAG gives the turn away but never raises flag[me], so the wait condition is always
 * false and both can be in the critical section at once: the assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=4 stale_spins=6 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=358
 * run: -DROUNDS=2 --algorithm optimal ; verdict=safe executions=48 blocked=0
 * run: -DROUNDS=2 --algorithm source ; verdict=safe
 * run: -DROUNDS=2 --algorithm classic ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60 executions=22 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
 * run: -DNOFLAG --keep-going --algorithm optimal ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60 executions=12 blocked=0
 * run: -DNOFLAG --keep-going --algorithm source ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
 * run: -DNOFLAG --keep-going --algorithm classic ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
 * run: -DNOFLAG --keep-going --algorithm none ; verdict=error kind=assertion location=peterson.c:60 errors=assertion@peterson.c:60
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
#ifdef NOFLAG
        /* BUG: the flag is never raised */
#else
        atomic_store(&flag[me], 1);
#endif
#ifdef BROKEN
        atomic_store(&turn, me); /* BUG: should give the turn away */
#else
        atomic_store(&turn, other);
#endif
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
