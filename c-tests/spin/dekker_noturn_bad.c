/* Dekker's algorithm whose exit forgets to hand the turn over, so turn stays 0. When
 * thread 1 meets thread 0 it backs off and waits for turn == 1, which never comes: once
 * main is done it waits to join thread 1, which spins on turn = 0 for good (livelock).
 * Mutual exclusion itself still holds.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock location=dekker_noturn_bad.c:28 errors=livelock@dekker_noturn_bad.c:28 executions=7 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=livelock location=dekker_noturn_bad.c:28 errors=livelock@dekker_noturn_bad.c:28
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock location=dekker_noturn_bad.c:28 errors=livelock@dekker_noturn_bad.c:28
 * run: --keep-going --algorithm none ; verdict=error kind=livelock location=dekker_noturn_bad.c:28 errors=livelock@dekker_noturn_bad.c:28
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
    /* BUG: the exit does not hand the turn over */
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
