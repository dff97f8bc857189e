/* The worker counts ticks (an atomic increment every iteration, so the loop is never an
 * await) until main sets `stop`; main then asserts that at least one tick happened. If
 * main sets stop before the worker's first look at it, there are no ticks and the
 * assertion fails. The loop is bounded by --unroll, which cuts the executions in which
 * the worker outruns main; the bug is found anyway.
 *
 * cdpor-test
 * run: --unroll 3 --keep-going --algorithm optimal ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36 executions=4 blocked=0
 * run: --unroll 3 --keep-going --algorithm source ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 * run: --unroll 3 --keep-going --algorithm classic ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 * run: --unroll 3 --keep-going --algorithm none ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36 executions=101 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=impure_loop_bad.c:36 errors=assertion@impure_loop_bad.c:36
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int stop;
atomic_int ticks;

static void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&stop))
        atomic_fetch_add(&ticks, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    atomic_store(&stop, 1);
    pthread_join(t, 0);
    assert(atomic_load(&ticks) > 0);
    return 0;
}
