/* The start gate of gate_ok.c opened too early: main opens the gate on its stack before
 * it writes `data`, so a worker that passes the gate in between reads data = 0 and its
 * assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=gate_bad.c:22 errors=assertion@gate_bad.c:22 executions=40 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=gate_bad.c:22 errors=assertion@gate_bad.c:22
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=gate_bad.c:22 errors=assertion@gate_bad.c:22
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=gate_bad.c:22 errors=assertion@gate_bad.c:22
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
    atomic_store(&gate, 1); /* BUG: the gate opens before the data is written */
    data = 9;
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(atomic_load(&arrived) == 2);
    return 0;
}
