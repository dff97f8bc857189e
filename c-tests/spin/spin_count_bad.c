/* The consumer (main) spins until `ready` is set, counting its turns in a local variable
 * for statistics; the producer sets `ready` before it writes `data` (the bug). Once the
 * consumer sees ready = 1 it can read data = 0: the assertion fails in most
 * interleavings. The loop changes its counter on every turn, so it is no await (and,
 * writing no memory, no --unroll loop either): the executions in which the consumer spins
 * without end are cut by --max-steps, but the failing ones are short.
 *
 * cdpor-test
 * run: --max-steps 30 --keep-going --algorithm optimal ; verdict=error kind=assertion location=spin_count_bad.c:35 errors=assertion@spin_count_bad.c:35 blocked=0
 * run: --max-steps 30 --keep-going --algorithm source ; verdict=error kind=assertion location=spin_count_bad.c:35 errors=assertion@spin_count_bad.c:35
 * run: --max-steps 30 --keep-going --algorithm classic ; verdict=error kind=assertion location=spin_count_bad.c:35 errors=assertion@spin_count_bad.c:35
 * run: --max-steps 30 --keep-going --algorithm none ; verdict=error kind=assertion location=spin_count_bad.c:35 errors=assertion@spin_count_bad.c:35
 * run: --algorithm optimal ; verdict=error kind=assertion location=spin_count_bad.c:35
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int ready;
int data;

static void *producer(void *arg) {
    (void)arg;
    atomic_store(&ready, 1); /* BUG: published before the data is written */
    data = 42;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    unsigned turns = 0;
    while (!atomic_load(&ready))
        turns++;
    assert(data == 42);
    pthread_join(t, 0);
    return turns > 1000000;
}
