/* Lamport's fast mutual exclusion without the slow path: after y = i the thread does not
 * check that x is still i. Both threads can pass `y == 0`, write x and y in turn and
 * enter together: the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=lamport_fast_bad.c:45 errors=assertion@lamport_fast_bad.c:45 executions=40 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=lamport_fast_bad.c:45 errors=assertion@lamport_fast_bad.c:45
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=lamport_fast_bad.c:45 errors=assertion@lamport_fast_bad.c:45
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=lamport_fast_bad.c:45 errors=assertion@lamport_fast_bad.c:45
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
        /* BUG: no check that x is still i (the slow path is missing) */
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
