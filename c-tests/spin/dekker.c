/* Dekker's mutual exclusion for two threads (main is thread 0). A thread that wants in
 * while the other also wants in and the turn is not its own backs off: it lowers its flag,
 * waits for the turn, and raises the flag again (so the outer loop writes). The exit hands
 * the turn over. Under sequential consistency only one thread is inside at a time: safe.
 *
 * -DBROKEN raises the flag after the entry test instead of before it: both threads can
 * find the other's flag down, skip the back-off loop and enter together, and the second
 * one's write of `owner` breaks the first one's assertion.
 *
 * -DNOTURN forgets to hand the turn over on exit, so turn stays 0. When thread 1 meets
 * thread 0 it backs off and waits for turn == 1, which never comes: once main is done it
 * waits to join thread 1, which spins on turn = 0 for good (livelock). Mutual exclusion
 * itself still holds.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=dekker.c:56 errors=assertion@dekker.c:56 executions=9 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=dekker.c:56 errors=assertion@dekker.c:56
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=dekker.c:56 errors=assertion@dekker.c:56
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=dekker.c:56 errors=assertion@dekker.c:56
 * run: -DNOTURN --keep-going --algorithm optimal ; verdict=error kind=livelock location=dekker.c:47 errors=livelock@dekker.c:47 executions=4 blocked=0
 * run: -DNOTURN --keep-going --algorithm source ; verdict=error kind=livelock location=dekker.c:47 errors=livelock@dekker.c:47
 * run: -DNOTURN --keep-going --algorithm classic ; verdict=error kind=livelock location=dekker.c:47 errors=livelock@dekker.c:47
 * run: -DNOTURN --keep-going --algorithm none ; verdict=error kind=livelock location=dekker.c:47 errors=livelock@dekker.c:47
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
#ifndef BROKEN
    atomic_store(&wants[me], 1);
#endif
    while (atomic_load(&wants[other])) {
        if (atomic_load(&turn) != me) {
            atomic_store(&wants[me], 0); /* back off */
            while (atomic_load(&turn) != me) {
            }
            atomic_store(&wants[me], 1);
        }
    }
#ifdef BROKEN
    atomic_store(&wants[me], 1); /* BUG: too late, after the test */
#endif
    owner = me;
    assert(owner == me);
#ifdef NOTURN
    /* BUG: the exit does not hand the turn over */
#else
    atomic_store(&turn, other);
#endif
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
