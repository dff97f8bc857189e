/* Szymanski's algorithm in which thread 1 does not wait for lower ids before its critical
 * section. It can enter while thread 0 is inside (assertion); and since it no longer
 * stays at flag 4 until thread 0 has seen it, thread 0 can wait in the waiting room for
 * a 4 that is already gone, after thread 1 has left: main spins for good (livelock).
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error errors=assertion@szymanski_bad.c:34,livelock@szymanski_bad.c:28 executions=1008 blocked=0
 * run: --keep-going --algorithm source ; verdict=error errors=assertion@szymanski_bad.c:34,livelock@szymanski_bad.c:28
 * run: --keep-going --algorithm classic ; verdict=error errors=assertion@szymanski_bad.c:34,livelock@szymanski_bad.c:28
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
    /* BUG: no wait for lower ids to leave the critical section */
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
