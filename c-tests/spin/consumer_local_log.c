/* A consumer spins while a one-slot-per-item queue is empty and logs what it takes in
 * a local array, which the instrumentation does not see being written: the iterations
 * that log have an effect beyond their events, the ones that find the queue empty have
 * none, and those wait for the producer (an await) instead of counting toward
 * --unroll. So the exploration is complete even with a small --unroll. With -DBUG the
 * producer publishes an item before writing it, and the consumer can log a zero.
 *
 * cdpor-test
 * run: --unroll 4 ; verdict=safe executions=2
 * run: --unroll 4 --algorithm source ; verdict=safe
 * run: --unroll 4 --algorithm classic ; verdict=safe
 * run: --unroll 4 --algorithm none ; verdict=safe
 * run: -DBUG --unroll 4 ; verdict=error kind=assertion location=consumer_local_log.c:44
 * run: -DBUG --unroll 4 --algorithm none ; verdict=error kind=assertion location=consumer_local_log.c:44
 */
#include <assert.h>
#include <pthread.h>

#define ITEMS 2

volatile int published;
int slot[ITEMS];

static void *producer(void *arg) {
    for (int i = 0; i < ITEMS; i++) {
#ifdef BUG
        published = i + 1;
        slot[i] = i + 1;
#else
        slot[i] = i + 1;
        published = i + 1;
#endif
    }
    return arg;
}

static void *consumer(void *arg) {
    int log[ITEMS];
    int n = 0;
    while (n < ITEMS) {
        if (published == n)
            continue;
        log[n] = slot[n];
        assert(log[n] == n + 1);
        n++;
    }
    return arg;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&c, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
