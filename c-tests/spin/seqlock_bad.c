/* A seqlock whose reader (main) reads the pair without looking at the sequence: it can
 * read a after the writer updated it and b before, a torn pair, and the assertion fails.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=seqlock_bad.c:38 errors=assertion@seqlock_bad.c:38 executions=11 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=seqlock_bad.c:38 errors=assertion@seqlock_bad.c:38
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=seqlock_bad.c:38 errors=assertion@seqlock_bad.c:38
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=seqlock_bad.c:38 errors=assertion@seqlock_bad.c:38
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
    /* BUG: no sequence check and no retry */
    int x = atomic_load_explicit(&a, memory_order_relaxed);
    int y = atomic_load_explicit(&b, memory_order_relaxed);
    assert(x == y);
    pthread_join(t, 0);
    return 0;
}
