/* Szymanski's algorithm whose exit wait reads flag[other] twice (`== 2 || == 3`): it can
 * read 3, then 2 after thread 1 moved on to the waiting room, and leave. Thread 0 resets
 * its flag to 0 while thread 1 waits in the waiting room for a 4 it has not seen: thread
 * 1 spins for good while main waits to join it (livelock).
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock location=szymanski_reread_bad.c:29 errors=livelock@szymanski_reread_bad.c:29 executions=695 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=livelock location=szymanski_reread_bad.c:29 errors=livelock@szymanski_reread_bad.c:29
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock location=szymanski_reread_bad.c:29 errors=livelock@szymanski_reread_bad.c:29
 * run: --keep-going --algorithm none ; verdict=error kind=livelock location=szymanski_reread_bad.c:29 errors=livelock@szymanski_reread_bad.c:29
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
    if (other > me) /* let the ones in the waiting room through the door */
        while (atomic_load(&flag[other]) == 2 || atomic_load(&flag[other]) == 3) {
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
