/* T threads each do K unsynchronized increments of one variable (a read, then a write).
 * Traces (reads of the same value commute): 34 for 2x2, 328 for 2x3, 36 for 3x1, 7134
 * for 3x2. The program only counts: no assertion.
 *
 * cdpor-test
 * run: -DT=2 -DK=1 --algorithm optimal ; verdict=safe executions=4 blocked=0
 * run: -DT=2 -DK=2 --algorithm optimal ; verdict=safe executions=34 blocked=0
 * run: -DT=2 -DK=3 --algorithm optimal ; verdict=safe executions=328 blocked=0
 * run: -DT=3 -DK=1 --algorithm optimal ; verdict=safe executions=36 blocked=0
 * run: -DT=3 -DK=2 --algorithm optimal ; verdict=safe executions=7134 blocked=0
 * run: -DT=2 -DK=2 --algorithm source ; verdict=safe executions=34
 * run: -DT=3 -DK=1 --algorithm source ; verdict=safe executions=36
 * run: -DT=2 -DK=2 --algorithm classic ; verdict=safe
 */
#include <pthread.h>

#ifndef T
#define T 2
#endif
#ifndef K
#define K 2
#endif

int x;

void *inc(void *arg) {
    (void)arg;
    for (int k = 0; k < K; k++)
        x = x + 1;
    return 0;
}

int main(void) {
    pthread_t t[T];
    for (int i = 0; i < T; i++)
        pthread_create(&t[i], 0, inc, 0);
    for (int i = 0; i < T; i++)
        pthread_join(t[i], 0);
    return 0;
}
