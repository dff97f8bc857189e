/* A seqlock: the writer makes the sequence odd, updates the pair (a, b) to (v, v), and
 * makes it even again, WRITES times; the reader (main) retries while the sequence is odd
 * or changed under it. A read that passes the check saw one whole version of the pair,
 * so a == b: safe.
 *
 * -DBROKEN: the reader reads the pair without looking at the sequence. It can read a
 * after the writer updated it and b before, a torn pair, and the assertion fails.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=3 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DWRITES=1 --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: -DWRITES=1 --algorithm source ; verdict=safe
 * run: -DWRITES=1 --algorithm classic ; verdict=safe
 * run: -DWRITES=1 --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=seqlock.c:64 errors=assertion@seqlock.c:64 executions=11 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=seqlock.c:64 errors=assertion@seqlock.c:64
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=seqlock.c:64 errors=assertion@seqlock.c:64
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=seqlock.c:64 errors=assertion@seqlock.c:64
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
    int x, y;
#ifdef BROKEN
    /* BUG: no sequence check and no retry */
    x = atomic_load_explicit(&a, memory_order_relaxed);
    y = atomic_load_explicit(&b, memory_order_relaxed);
#else
    unsigned s1, s2;
    do {
        do
            s1 = atomic_load(&seq);
        while (s1 & 1);
        x = atomic_load_explicit(&a, memory_order_relaxed);
        y = atomic_load_explicit(&b, memory_order_relaxed);
        s2 = atomic_load(&seq);
    } while (s1 != s2);
#endif
    assert(x == y);
    pthread_join(t, 0);
    return 0;
}
