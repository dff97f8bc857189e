/* The worker announces that it is waiting by storing waiting = 1 on every turn of its
 * spin loop until `go` is set. Main waits for the announcement, clears it and reads it
 * back expecting 0. From its second turn on, the worker's loop only rewrites the 1 that
 * is already there and spins; main's clearing write changes a byte that loop wrote, so
 * the worker's loop, run after it, stores 1 again, possibly between main's store and
 * load: the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=spin_rewrite_bad.c:34 errors=assertion@spin_rewrite_bad.c:34 executions=5 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=spin_rewrite_bad.c:34 errors=assertion@spin_rewrite_bad.c:34
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=spin_rewrite_bad.c:34 errors=assertion@spin_rewrite_bad.c:34
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=spin_rewrite_bad.c:34 errors=assertion@spin_rewrite_bad.c:34
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int go, waiting;

static void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&go))
        atomic_store(&waiting, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&waiting)) {
    }
    atomic_store(&waiting, 0);
    int w = atomic_load(&waiting);
    assert(w == 0);
    atomic_store(&go, 1);
    pthread_join(t, 0);
    return 0;
}
