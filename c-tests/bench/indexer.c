/* Indexer (Flanagan & Godefroid, POPL'05, Fig. 1): N threads insert 4 messages each into
 * a 128-slot hash table with compare-and-swap, probing linearly on collisions. Up to 11
 * threads no two threads touch a common slot: 1 trace. Each further thread adds 3
 * collisions with an earlier one, each with 2 outcomes: 8, 64, 512, 4096 traces for 12..15
 * threads.
 *
 * cdpor-test
 * run: -DN=4 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DN=11 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DN=12 --algorithm optimal ; verdict=safe executions=8 blocked=0
 * run: -DN=13 --algorithm optimal ; verdict=safe executions=64 blocked=0
 * run: -DN=14 --algorithm optimal ; verdict=safe executions=512 blocked=0
 * run: -DN=15 --algorithm optimal ; verdict=safe executions=4096 blocked=0
 * run: -DN=11 --algorithm source ; verdict=safe executions=1
 * run: -DN=13 --algorithm source ; verdict=safe executions=64
 * run: -DN=12 --algorithm classic ; verdict=safe
 */
#include <pthread.h>

#ifndef N
#define N 12
#endif
#define SIZE 128
#define MAX 4

int table[SIZE];

static int hash(int w) { return (w * 7) % SIZE; }

void *indexer(void *arg) {
    int tid = (int)(long)arg;
    for (int m = 1; m <= MAX; m++) {
        int w = m * 11 + tid;
        int h = hash(w);
        int expected = 0;
        while (!__atomic_compare_exchange_n(&table[h], &expected, w, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            expected = 0;
            h = (h + 1) % SIZE;
        }
    }
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, indexer, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
