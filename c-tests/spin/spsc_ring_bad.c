/* A 2-slot single-producer single-consumer ring buffer whose producer advances tail
 * before it writes the slot: the consumer (main) can read the slot before the item is
 * in it (0, or an old item once the ring wraps), and the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48 executions=308 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48
 * run: -DCAP=1 -DITEMS=2 --keep-going --algorithm optimal ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48 executions=28 blocked=0
 * run: -DCAP=1 -DITEMS=2 --keep-going --algorithm source ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48
 * run: -DCAP=1 -DITEMS=2 --keep-going --algorithm classic ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48
 * run: -DCAP=1 -DITEMS=2 --keep-going --algorithm none ; verdict=error kind=assertion location=spsc_ring_bad.c:48 errors=assertion@spsc_ring_bad.c:48
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef CAP
#define CAP 2
#endif
#ifndef ITEMS
#define ITEMS 3
#endif

int slot[CAP];
atomic_uint head, tail; /* head: next to read; tail: next to write */

static void *producer(void *arg) {
    (void)arg;
    for (int v = 1; v <= ITEMS; v++) {
        unsigned t = atomic_load_explicit(&tail, memory_order_relaxed);
        while (t - atomic_load_explicit(&head, memory_order_acquire) == CAP) { /* full */
        }
        atomic_store_explicit(&tail, t + 1, memory_order_release); /* BUG: publish first */
        slot[t % CAP] = v;
    }
    return 0;
}

int main(void) {
    pthread_t p;
    pthread_create(&p, 0, producer, 0);
    for (int want = 1; want <= ITEMS; want++) {
        unsigned h = atomic_load_explicit(&head, memory_order_relaxed);
        while (atomic_load_explicit(&tail, memory_order_acquire) == h) { /* empty */
        }
        int v = slot[h % CAP];
        assert(v == want);
        atomic_store_explicit(&head, h + 1, memory_order_release);
    }
    pthread_join(p, 0);
    return 0;
}
