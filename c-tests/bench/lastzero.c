/* Lastzero (Abdulla et al., POPL'14): thread 0 scans an array of N+1 zeros downwards for
 * the last zero; thread j (1..N) sets a[j] = a[j-1] + 1. Published trace counts (optimal):
 * 2, 5, 12, 28, 64, 704, 3328 for N = 1, 2, 3, 4, 5, 8, 10. Source explores the same
 * traces, plus some sleep-set-blocked executions.
 *
 * cdpor-test
 * run: -DN=1 --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DN=2 --algorithm optimal ; verdict=safe executions=5 blocked=0
 * run: -DN=3 --algorithm optimal ; verdict=safe executions=12 blocked=0
 * run: -DN=4 --algorithm optimal ; verdict=safe executions=28 blocked=0
 * run: -DN=5 --algorithm optimal ; verdict=safe executions=64 blocked=0
 * run: -DN=8 --algorithm optimal ; verdict=safe executions=704 blocked=0
 * run: -DN=10 --algorithm optimal ; verdict=safe executions=3328 blocked=0
 * run: -DN=3 --algorithm source ; verdict=safe executions=12
 * run: -DN=5 --algorithm source ; verdict=safe executions=64
 * run: -DN=3 --algorithm classic ; verdict=safe
 */
#include <pthread.h>

#ifndef N
#define N 3
#endif

int array[N + 1];

void *zero(void *arg) {
    (void)arg;
    int i;
    for (i = N; array[i] != 0; i--)
        ;
    return 0;
}

void *inc(void *arg) {
    long j = (long)arg;
    array[j] = array[j - 1] + 1;
    return 0;
}

int main(void) {
    pthread_t t[N + 1];
    pthread_create(&t[0], 0, zero, 0);
    for (long j = 1; j <= N; j++)
        pthread_create(&t[j], 0, inc, (void *)j);
    for (int j = 0; j <= N; j++)
        pthread_join(t[j], 0);
    return 0;
}
