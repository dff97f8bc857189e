/* N threads increment a counter inside a mutex; main asserts counter == N after joining.
 * Safe. The mutex is set up with pthread_mutex_init and torn down with
 * pthread_mutex_destroy (both in main, outside the concurrent part).
 *
 * Traces (optimal): the critical sections (lock, load, store, unlock) are totally ordered
 * by the mutex and every order is a different trace: N! (2, 6, 24). none with N=2: 2302
 * interleavings (enumerated over the event model). --max-executions 2 on N=3 stops after
 * 2 of the 6 executions: incomplete.
 *
 * cdpor-test
 * run: --algorithm optimal -DN=2 ; verdict=safe executions=2 blocked=0
 * run: --algorithm optimal -DN=3 ; verdict=safe executions=6 blocked=0
 * run: --algorithm optimal -DN=4 ; verdict=safe executions=24 blocked=0
 * run: --algorithm none -DN=2 ; verdict=safe executions=2302
 * run: --algorithm source -DN=3 ; verdict=safe
 * run: --algorithm classic -DN=3 ; verdict=safe
 * run: --algorithm optimal -DN=3 --max-executions 2 ; verdict=incomplete executions=2 exit=3
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t m;
int counter;

void *inc(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[N];
    pthread_mutex_init(&m, 0);
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(counter == N);
    pthread_mutex_destroy(&m);
    return 0;
}
