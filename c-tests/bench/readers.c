/* Readers (Abdulla et al., POPL'14): one writer and N readers of one variable. Each reader
 * either reads before or after the write: 2^N traces, which source and optimal explore
 * exactly.
 *
 * cdpor-test
 * run: -DN=2 --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: -DN=3 --algorithm optimal ; verdict=safe executions=8 blocked=0
 * run: -DN=8 --algorithm optimal ; verdict=safe executions=256 blocked=0
 * run: -DN=8 --algorithm source ; verdict=safe executions=256 blocked=0
 * run: -DN=3 --algorithm classic ; verdict=safe
 * run: -DN=2 --algorithm none ; verdict=safe
 */
#include <pthread.h>

#ifndef N
#define N 3
#endif

int x;

void *writer(void *arg) {
    (void)arg;
    x = 1;
    return 0;
}

void *reader(void *arg) {
    (void)arg;
    volatile int r = x;
    (void)r;
    return 0;
}

int main(void) {
    pthread_t w, r[N];
    pthread_create(&w, 0, writer, 0);
    for (int i = 0; i < N; i++)
        pthread_create(&r[i], 0, reader, 0);
    pthread_join(w, 0);
    for (int i = 0; i < N; i++)
        pthread_join(r[i], 0);
    return 0;
}
