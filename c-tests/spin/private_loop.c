/* Two threads each count to N in their own slot of a shared array (a store and a load of
 * the slot each time), then store their number in v, which main reads after joining.
 * No other thread touches a slot, and each load reads what its thread stored: those
 * iterations depend on their thread alone, so --unroll does not cut them (at N = 400
 * they were cut at 100 before; GenMC's par_length is such a program). With -DPOLL, the
 * second thread also leaves when it reads that `stop` is set (no thread sets it): a
 * loop that reads what it did not write could be waiting for another thread, so its
 * iterations count, and it is cut. With -DACC each adds 1 to its slot instead, reading
 * first (the first read sees the slot's initial 0, which no one wrote: the thread writes
 * it next). With -DBROKEN main asserts v is 1.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe executions=2
 * run: --algorithm classic ; verdict=safe executions=2
 * run: -DN=1 --algorithm none ; verdict=safe executions=3043
 * run: -DBROKEN ; verdict=error kind=assertion location=private_loop.c:61
 * run: -DBROKEN -DN=1 --algorithm none --keep-going ; verdict=error kind=assertion
 * run: -DACC ; verdict=safe executions=2 blocked=0
 * run: -DPOLL ; verdict=incomplete exit=3 contains="private_loop.c:37 ran that many iterations"
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#ifndef N
#define N 400
#endif

atomic_int slot[2];
atomic_int v;
atomic_int stop;

static void *count(void *arg) {
    int me = (int)(intptr_t)arg;
    for (int i = 0; i < N; i++) {
#ifdef ACC
        atomic_store(&slot[me], atomic_load(&slot[me]) + 1);
#else
        atomic_store(&slot[me], i);
        if (atomic_load(&slot[me]) != i)
            assert(0);
#endif
#ifdef POLL
        if (me == 1 && atomic_load(&stop))
            break;
#endif
    }
    atomic_store(&v, me);
    return 0;
}

int main(void) {
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], 0, count, (void *)(intptr_t)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], 0);
#ifdef BROKEN
    assert(atomic_load(&v) == 1);
#endif
    return 0;
}
