/* N threads each compute a checksum of a buffer of their own (W rounds of arithmetic on
 * local memory: long stretches between visible events), then add it to a total under a
 * mutex and publish that they are done with a plain store that main reads after joining.
 * The critical sections run in any of N! orders and nothing else conflicts: N! traces.
 * A benchmark for workers that run ahead (--threads): each execution computes for a
 * while.
 *
 * cdpor-test
 * run: -DN=3 --algorithm optimal ; verdict=safe executions=6 blocked=0
 * run: -DN=4 --algorithm optimal ; verdict=safe executions=24 blocked=0
 * run: -DN=3 --algorithm source ; verdict=safe executions=6
 * run: -DN=3 -DW=20 --algorithm classic ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif
#ifndef W
#define W 2000
#endif

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long total, expected;
static int finished[N];

static unsigned long checksum(unsigned seed) {
    unsigned char buf[256];
    for (int i = 0; i < 256; i++)
        buf[i] = (unsigned char)(seed * 31 + i);
    unsigned long h = 1469598103u;
    for (int r = 0; r < W; r++)
        for (int i = 0; i < 256; i += 8) {
            h = (h ^ buf[i]) * 1099511628211ul;
            buf[i] = (unsigned char)(h >> 7);
        }
    return h;
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    unsigned long h = checksum((unsigned)id);
    pthread_mutex_lock(&lock);
    total += h;
    pthread_mutex_unlock(&lock);
    finished[id] = 1;
    return 0;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        expected += checksum((unsigned)i);
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, (void *)(long)i);
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    for (int i = 0; i < N; i++)
        assert(finished[i]);
    assert(total == expected);
    return 0;
}
