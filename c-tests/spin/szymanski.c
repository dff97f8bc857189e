/* Szymanski's mutual exclusion for two threads (main is thread 0), with flag values
 * 0 idle, 1 wants in, 2 waits in the waiting room, 3 at the door, 4 behind the door.
 * Under sequential consistency at most one thread is in the critical section: safe.
 *
 * -DBROKEN: thread 1 does not wait for lower ids before its critical section. It can
 * enter while thread 0 is inside (assertion); and since it no longer stays at flag 4
 * until thread 0 has seen it, thread 0 can wait in the waiting room for a 4 that is
 * already gone, after thread 1 has left: main spins for good (livelock).
 *
 * -DREREAD: the exit wait reads flag[other] twice (`== 2 || == 3`): it can read 3, then
 * 2 after thread 1 moved on to the waiting room, and leave. Thread 0 resets its flag to 0
 * while thread 1 waits in the waiting room for a 4 it has not seen: thread 1 spins for
 * good while main waits to join it (livelock).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=29 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error errors=assertion@szymanski.c:57,livelock@szymanski.c:45 executions=164 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error errors=assertion@szymanski.c:57,livelock@szymanski.c:45
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error errors=assertion@szymanski.c:57,livelock@szymanski.c:45
 * run: -DREREAD --keep-going --algorithm optimal ; verdict=error kind=livelock location=szymanski.c:45 errors=livelock@szymanski.c:45 executions=45 blocked=0
 * run: -DREREAD --keep-going --algorithm source ; verdict=error kind=livelock location=szymanski.c:45 errors=livelock@szymanski.c:45
 * run: -DREREAD --keep-going --algorithm classic ; verdict=error kind=livelock location=szymanski.c:45 errors=livelock@szymanski.c:45
 * run: -DREREAD --keep-going --algorithm none ; verdict=error kind=livelock location=szymanski.c:45 errors=livelock@szymanski.c:45
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
#ifdef BROKEN
    /* BUG: no wait for lower ids to leave the critical section */
#else
    if (other < me) /* lower ids go first */
        while (atomic_load(&flag[other]) >= 2) {
        }
#endif
    owner = me;
    assert(owner == me);
#ifdef REREAD
    if (other > me) /* let the ones in the waiting room through the door */
        /* BUG: two reads, which may see two different values */
        while (atomic_load(&flag[other]) == 2 || atomic_load(&flag[other]) == 3) {
        }
#else
    if (other > me) { /* let the ones in the waiting room through the door */
        int f;
        do
            f = atomic_load(&flag[other]);
        while (f == 2 || f == 3);
    }
#endif
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
