/* Main polls a flag and counts its polls in a local variable. The count moves on every
 * turn, so the loop is no await: it is bounded by --unroll (it gives the processor away
 * at each turn, but nothing else stops it from polling any number of times before the
 * worker runs), and the verdict is incomplete, quickly, instead of running into
 * --max-steps thousands of times. With -DBUG main reads the result before the flag
 * says it is there.
 *
 * cdpor-test
 * run: --unroll 5 --algorithm optimal ; verdict=incomplete executions=6
 * run: --unroll 5 --algorithm source ; verdict=incomplete
 * run: --unroll 5 --algorithm classic ; verdict=incomplete
 * run: --unroll 5 --algorithm none ; verdict=incomplete
 * run: -DBUG --unroll 5 --keep-going --algorithm optimal ; verdict=error kind=assertion location=poll_counter.c:38 errors=assertion@poll_counter.c:38
 * run: -DBUG --unroll 5 --keep-going --algorithm none ; verdict=error kind=assertion location=poll_counter.c:38 errors=assertion@poll_counter.c:38
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int done;
int result;

static void *worker(void *arg) {
    (void)arg;
    result = 7;
    atomic_store(&done, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    unsigned polls = 0;
#ifdef BUG
    int early = result;
    while (!atomic_load(&done))
        polls++;
    assert(early == 7);
#else
    while (!atomic_load(&done))
        polls++;
    assert(result == 7);
#endif
    (void)polls;
    pthread_join(t, 0);
    return 0;
}
