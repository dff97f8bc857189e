/* A seqlock: the writer makes the sequence odd, updates the pair (a, b) to (v, v), and
 * makes it even again, WRITES times; the reader (main) retries while the sequence is odd
 * or changed under it. A read that passes the check saw one whole version of the pair,
 * so a == b: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=280 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DWRITES=1 --algorithm optimal ; verdict=safe executions=16 blocked=0
 * run: -DWRITES=1 --algorithm source ; verdict=safe
 * run: -DWRITES=1 --algorithm classic ; verdict=safe
 * run: -DWRITES=1 --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

#ifndef WRITES
#define WRITES 2
#endif

atomic_uint seq;
atomic_int a, b;

static void *writer(void *arg) {
    (void)arg;
    for (int v = 1; v <= WRITES; v++) {
        atomic_fetch_add(&seq, 1); /* odd: update in progress */
        atomic_store_explicit(&a, v, memory_order_relaxed);
        atomic_store_explicit(&b, v, memory_order_relaxed);
        atomic_fetch_add(&seq, 1); /* even: stable */
    }
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    unsigned s1, s2;
    int x, y;
    do {
        do
            s1 = atomic_load(&seq);
        while (s1 & 1);
        x = atomic_load_explicit(&a, memory_order_relaxed);
        y = atomic_load_explicit(&b, memory_order_relaxed);
        s2 = atomic_load(&seq);
    } while (s1 != s2);
    assert(x == y);
    pthread_join(t, 0);
    return 0;
}
