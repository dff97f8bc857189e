/* Two threads add to a pair of shared counters in turn, without a lock: one adds j to i,
 * the other i to j, N times each (the shape of SV-COMP's fib_bench). Every interleaving
 * of the 4N read-then-write steps is a trace of its own, and the largest value a counter
 * can reach is the Fibonacci number that alternating steps give: the assertion holds.
 *
 * cdpor-test
 * run: -DN=2 ; verdict=safe executions=19 blocked=0
 * run: -DN=2 --algorithm source ; verdict=safe executions=19
 * run: -DN=1 --algorithm none ; verdict=safe executions=3043
 * run: -DN=3 ; verdict=safe executions=141 blocked=0
 * run: -DN=4 ; verdict=safe executions=1107 blocked=0
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

int i = 1, j = 1;

static void *add_j(void *arg) {
    (void)arg;
    for (int k = 0; k < N; k++)
        i = i + j;
    return 0;
}

static void *add_i(void *arg) {
    (void)arg;
    for (int k = 0; k < N; k++)
        j = j + i;
    return 0;
}

/* fib(2N + 2): the largest value alternating steps reach. */
static int bound(void) {
    int a = 1, b = 1;
    for (int k = 2; k < 2 * N + 2; k++) {
        int c = a + b;
        a = b;
        b = c;
    }
    return b;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, add_j, 0);
    pthread_create(&b, 0, add_i, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(i <= bound() && j <= bound());
    return 0;
}
