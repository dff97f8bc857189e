/* N workers meet at a barrier; a worker told it is the serial thread records its number
 * in `serial`. Worker 0 ignores the result, and can be the serial thread all the same
 * (then nothing is recorded). The arrivals commute and the first thread to pass is told:
 * one execution per serial thread, N (N! with --ordered-barriers). -DIGNORE: no call
 * uses the result, so no thread needs to be told: one execution. -DBUG: main asserts
 * that the last worker was not the serial one.
 *
 * cdpor-test
 * run: ; verdict=safe executions=3 blocked=0
 * run: -DN=4 ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe executions=3
 * run: --ordered-barriers ; verdict=safe executions=6 blocked=0
 * run: -DIGNORE -DN=5 ; verdict=safe executions=1 blocked=0
 * run: -DBUG --keep-going ; verdict=error kind=assertion location=serial.c:49 executions=3 failing=1
 * run: -DN=2 --algorithm none ; verdict=safe executions=420
 * run: -DN=2 -DBUG --keep-going --algorithm none ; verdict=error kind=assertion location=serial.c:49
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

static pthread_barrier_t b;
static int serial = -1;

static void *worker(void *arg) {
    long i = (long)arg;
#ifdef IGNORE
    pthread_barrier_wait(&b);
#else
    if (i == 0)
        pthread_barrier_wait(&b);
    else if (pthread_barrier_wait(&b) == PTHREAD_BARRIER_SERIAL_THREAD)
        serial = (int)i;
#endif
    return NULL;
}

int main(void) {
    pthread_t t[N];
    pthread_barrier_init(&b, NULL, N);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
#ifdef BUG
    assert(serial != N - 1);
#endif
    assert(serial >= -1 && serial < N && serial != 0);
    pthread_barrier_destroy(&b);
    return 0;
}
