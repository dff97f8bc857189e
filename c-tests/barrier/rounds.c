/* A barrier reused over R rounds by N=2 threads: each round a thread writes its value,
 * waits, reads its neighbour's, and waits again before the next round's write. The
 * result of the waits is not used and the arrivals commute: one execution (each wait
 * has 2 orders of arrival with --ordered-barriers, so 2^(2R)). -DONE_WAIT drops the
 * second wait: a thread's next write can overtake its neighbour's read.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1
 * run: --ordered-barriers ; verdict=safe executions=64 blocked=0
 * run: -DR=1 --algorithm none ; verdict=safe executions=41100
 * run: -DR=1 ; verdict=safe executions=1
 * run: -DONE_WAIT ; verdict=error kind=assertion location=rounds.c:31
 */
#include <assert.h>
#include <pthread.h>

#define N 2
#ifndef R
#define R 3
#endif

pthread_barrier_t b;
int v[N];

void *worker(void *arg) {
    long i = (long)arg;
    for (int r = 1; r <= R; r++) {
        v[i] = r;
        pthread_barrier_wait(&b);
        assert(v[(i + 1) % N] == r);
#ifndef ONE_WAIT
        pthread_barrier_wait(&b);
#endif
    }
    return NULL;
}

int main(void) {
    pthread_barrier_init(&b, NULL, N);
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    return 0;
}
