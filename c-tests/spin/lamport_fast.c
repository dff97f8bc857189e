/* Lamport's fast mutual exclusion for two threads (ids 1 and 2; main is thread 1):
 * x = i; if y is taken, back off and wait for y == 0; y = i; if x changed, lower b[i],
 * wait for every b[j] to fall, and unless y is still i wait for y == 0 and start again.
 * Under sequential consistency at most one thread is in the critical section: safe.
 *
 * -DBROKEN leaves out the slow path: after y = i the thread does not check that x is
 * still i. Both threads can pass `y == 0`, write x and y in turn and enter together: the
 * assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=16 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=lamport_fast.c:66 errors=assertion@lamport_fast.c:66 executions=36 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=lamport_fast.c:66 errors=assertion@lamport_fast.c:66
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=lamport_fast.c:66 errors=assertion@lamport_fast.c:66
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=lamport_fast.c:66 errors=assertion@lamport_fast.c:66
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int x, y;
atomic_int b[3];
int owner;

static void lock(int i) {
    for (;;) {
        atomic_store(&b[i], 1);
        atomic_store(&x, i);
        if (atomic_load(&y) != 0) {
            atomic_store(&b[i], 0);
            while (atomic_load(&y) != 0) {
            }
            continue;
        }
        atomic_store(&y, i);
#ifdef BROKEN
        /* BUG: no check that x is still i (the slow path is missing) */
#else
        if (atomic_load(&x) != i) {
            atomic_store(&b[i], 0);
            while (atomic_load(&b[3 - i])) { /* b[i] is down: wait for the other's */
            }
            if (atomic_load(&y) != i) {
                while (atomic_load(&y) != 0) {
                }
                continue;
            }
        }
#endif
        return;
    }
}

static void unlock(int i) {
    atomic_store(&y, 0);
    atomic_store(&b[i], 0);
}

static void *worker(void *arg) {
    int me = (int)(intptr_t)arg;
    lock(me);
    owner = me;
    assert(owner == me);
    unlock(me);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)(intptr_t)2);
    worker((void *)(intptr_t)1);
    pthread_join(t, 0);
    return 0;
}
