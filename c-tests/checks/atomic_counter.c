/* N threads increment a counter with __atomic_fetch_add (one read-modify-write event each);
 * main asserts counter == N after joining. Safe.
 *
 * Traces (optimal): all RMWs on the same counter are dependent, so every order is its own
 * trace: N! (2 for N=2, 6 for N=3). none with N=2: 103 interleavings (main: 2 creates,
 * 2 x (read t[i], join), read counter, end; threads: rmw, finish).
 *
 * cdpor-test
 * run: --algorithm optimal -DN=2 ; verdict=safe executions=2 blocked=0
 * run: --algorithm optimal -DN=3 ; verdict=safe executions=6 blocked=0
 * run: --algorithm none -DN=2 ; verdict=safe executions=103
 * run: --algorithm source -DN=3 ; verdict=safe
 * run: --algorithm classic -DN=3 ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

int counter;

void *inc(void *arg) {
    (void)arg;
    __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(counter == N);
    return 0;
}
