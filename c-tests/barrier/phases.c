/* N workers compute in two phases separated by a barrier: in phase 1 each writes its own
 * slot, in phase 2 each reads its neighbour's. The barrier orders every phase-1 write
 * before every phase-2 read, and the arrivals commute: the only interleavings that
 * differ are which worker gets PTHREAD_BARRIER_SERIAL_THREAD (exactly one does, and it
 * alone records the phase): N executions (N! with --ordered-barriers; classic DPOR,
 * under which reads do not commute, orders the arrivals too). With -DNO_BARRIER a
 * worker can read its neighbour's slot before it is written. With -DSHORT the barrier
 * waits for one thread more than arrive: every worker waits forever (a deadlock).
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: -DN=3 ; verdict=safe executions=3 blocked=0
 * run: -DN=3 --algorithm source ; verdict=safe executions=3
 * run: -DN=3 --ordered-barriers ; verdict=safe executions=6 blocked=0
 * run: -DN=3 --algorithm classic ; verdict=safe executions=36 blocked=1
 * run: --algorithm none ; verdict=safe executions=21798
 * run: -DNO_BARRIER ; verdict=error kind=assertion location=phases.c:41
 * run: -DSHORT ; verdict=error kind=deadlock contains="waits at barrier b for the other threads of its round"
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 2
#endif

pthread_barrier_t b;
int slot[N];
int serials;

void *worker(void *arg) {
    long i = (long)arg;
    slot[i] = (int)i + 1;
#ifndef NO_BARRIER
    int r = pthread_barrier_wait(&b);
    assert(r == 0 || r == PTHREAD_BARRIER_SERIAL_THREAD);
    if (r == PTHREAD_BARRIER_SERIAL_THREAD)
        serials++;
#endif
    int next = slot[(i + 1) % N];
    assert(next == (int)((i + 1) % N) + 1);
    return NULL;
}

int main(void) {
#ifdef SHORT
    pthread_barrier_init(&b, NULL, N + 1);
#else
    pthread_barrier_init(&b, NULL, N);
#endif
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], NULL);
    assert(serials == 1);
    pthread_barrier_destroy(&b);
    return 0;
}
