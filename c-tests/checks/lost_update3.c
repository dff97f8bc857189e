/* Three threads each do `x = x + 1` without synchronization; main asserts x == 3.
 *
 * Traces (optimal): 3! orders of the three stores; the load of the k-th writer can sit in
 * any of the k gaps before its own store (1*2*3 = 6 ways) -> 36 traces. Only the 6 where
 * every load sees the previous store are correct -> 30 fail. (none is far above 10,000.)
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=lost_update3.c:32
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=36 blocked=0 failing=30
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

#define N 3

int x;

void *inc(void *arg) {
    (void)arg;
    x = x + 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(x == N); /* the error is reported on this line */
    return 0;
}
