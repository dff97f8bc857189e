/* File system (Flanagan & Godefroid, POPL'05, Fig. 7): each thread takes the lock of
 * inode tid % 32 and, if the inode has no block, searches for a free block from
 * (2 * inode) % 26 under per-block locks. Up to 13 threads the threads use disjoint
 * inodes and blocks: 1 trace. Thread 13 starts its search at block 0 like thread 0, and
 * so on: 2, 8, 32 traces for 14, 16, 18 threads.
 *
 * cdpor-test
 * run: -DN=13 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DN=14 --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DN=16 --algorithm optimal ; verdict=safe executions=8 blocked=0
 * run: -DN=18 --algorithm optimal ; verdict=safe executions=32 blocked=0
 * run: -DN=13 --algorithm source ; verdict=safe executions=1
 * run: -DN=16 --algorithm source ; verdict=safe executions=8
 * run: -DN=14 --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 14
#endif
#define NUMBLOCKS 26
#define NUMINODE 32

pthread_mutex_t locki[NUMINODE];
int inode[NUMINODE];
pthread_mutex_t lockb[NUMBLOCKS];
int busy[NUMBLOCKS];

void *thread(void *arg) {
    int tid = (int)(long)arg;
    int i = tid % NUMINODE;
    pthread_mutex_lock(&locki[i]);
    if (inode[i] == 0) {
        int b = (i * 2) % NUMBLOCKS;
        while (1) {
            pthread_mutex_lock(&lockb[b]);
            if (!busy[b]) {
                busy[b] = 1;
                inode[i] = b + 1;
                pthread_mutex_unlock(&lockb[b]);
                break;
            }
            pthread_mutex_unlock(&lockb[b]);
            b = (b + 1) % NUMBLOCKS;
        }
    }
    pthread_mutex_unlock(&locki[i]);
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < NUMINODE; i++)
        pthread_mutex_init(&locki[i], 0);
    for (int i = 0; i < NUMBLOCKS; i++)
        pthread_mutex_init(&lockb[i], 0);
    for (long i = 0; i < N; i++)
        pthread_create(&t[i], 0, thread, (void *)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
