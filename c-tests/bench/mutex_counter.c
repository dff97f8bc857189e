/* N threads each increment a counter under one mutex: the critical sections can run in
 * any of N! orders and nothing else conflicts, so there are N! traces. The final count is
 * always N.
 *
 * cdpor-test
 * run: -DN=2 --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DN=3 --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: -DN=4 --algorithm optimal ; verdict=safe executions=24 blocked=0
 * run: -DN=5 --algorithm optimal ; verdict=safe executions=120 blocked=0
 * run: -DN=4 --algorithm source ; verdict=safe executions=24
 * run: -DN=4 --algorithm classic ; verdict=safe
 * run: -DN=2 --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int count;

void *inc(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    count = count + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    assert(count == N);
    return 0;
}
