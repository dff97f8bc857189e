/* A single-producer single-consumer ring buffer of 2 slots carrying 3 items. The producer
 * waits while the ring is full, writes the slot, then publishes it by advancing tail; the
 * consumer (main) waits while it is empty, reads the slot, then frees it by advancing
 * head. Each item is read after it is written and before its slot is reused: the
 * consumer sees 1, 2, 3 in order, safe.
 *
 * -DBROKEN advances tail before writing the slot: the consumer can read the slot before
 * the item is in it (0, or an old item once the ring wraps), and the assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=9 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: -DCAP=1 -DITEMS=2 --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DCAP=1 -DITEMS=2 --algorithm source ; verdict=safe
 * run: -DCAP=1 -DITEMS=2 --algorithm classic ; verdict=safe
 * run: -DCAP=1 -DITEMS=2 --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65 executions=35 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65
 * run: -DBROKEN -DCAP=1 -DITEMS=2 --keep-going --algorithm optimal ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65 executions=5 blocked=0
 * run: -DBROKEN -DCAP=1 -DITEMS=2 --keep-going --algorithm source ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65
 * run: -DBROKEN -DCAP=1 -DITEMS=2 --keep-going --algorithm classic ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65
 * run: -DBROKEN -DCAP=1 -DITEMS=2 --keep-going --algorithm none ; verdict=error kind=assertion location=spsc_ring.c:65 errors=assertion@spsc_ring.c:65
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
#ifdef BROKEN
        atomic_store_explicit(&tail, t + 1, memory_order_release); /* BUG: publish first */
#endif
        slot[t % CAP] = v;
#ifndef BROKEN
        atomic_store_explicit(&tail, t + 1, memory_order_release);
#endif
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
