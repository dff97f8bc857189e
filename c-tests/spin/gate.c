/* A start gate on main's stack: main passes its address to two workers, writes `data`
 * and opens the gate; each worker spins until the gate is open, checks data and counts
 * itself in. One write must let both spinners pass: main sees 2 arrivals, safe.
 *
 * -DBROKEN opens the gate too early, before main writes `data`: a worker that passes the
 * gate in between reads data = 0 and its assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=gate.c:29 errors=assertion@gate.c:29 executions=14 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=gate.c:29 errors=assertion@gate.c:29
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=gate.c:29 errors=assertion@gate.c:29
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=gate.c:29 errors=assertion@gate.c:29
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int arrived;

static void *worker(void *arg) {
    atomic_int *gate = arg;
    while (!atomic_load(gate)) {
    }
    assert(data == 9);
    atomic_fetch_add(&arrived, 1);
    return 0;
}

int main(void) {
    atomic_int gate = 0;
    pthread_t a, b;
    pthread_create(&a, 0, worker, &gate);
    pthread_create(&b, 0, worker, &gate);
#ifdef BROKEN
    atomic_store(&gate, 1); /* BUG: the gate opens before the data is written */
#endif
    data = 9;
#ifndef BROKEN
    atomic_store(&gate, 1);
#endif
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&arrived) == 2);
    return 0;
}
