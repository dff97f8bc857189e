/* A worker adds 1 to a shared counter for ever (`for (;;) atomic_fetch_add(&n, 1);`, a
 * loop no edge leaves) and main reads the counter once and returns. Main can read any
 * value: the exploration is cut by --unroll (incomplete). Its iterations count toward
 * --unroll also before main reads the counter, although until then no other thread has
 * seen them: the loop cannot be left, so running it longer alone only makes more of the
 * same (counted as if alone, main's read would be explored after every count up to
 * --max-steps: 20,000 executions and a minute, for the same cut).
 *
 * cdpor-test
 * run: ; verdict=incomplete exit=3 executions=0 contains="endless_counter.c:23 ran that many iterations"
 * run: --algorithm source ; verdict=incomplete exit=3 executions=0
 * run: --algorithm classic ; verdict=incomplete exit=3 executions=0
 * run: --algorithm none ; verdict=incomplete exit=3 executions=0
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int n;

static void *count(void *arg) {
    for (;;)
        atomic_fetch_add(&n, 1);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, count, 0);
    int v = atomic_load(&n);
    assert(v >= 0);
    return 0;
}
