/* A compare-and-swap that succeeds storing what memory held changes nothing: T1 moves x
 * from 0 to 17, and then keeps trying 17 -> 17 until T2 stores 42, when its try with
 * 42 succeeds and it leaves. Each 17 -> 17 try is an iteration that changed nothing, so
 * T1 waits for x to change there (docs/semantics.md, awaits), where before every such
 * try was a change and the loop was cut by --unroll. With -DBROKEN, T2 exchanges instead
 * and asserts it did not find T1's 17; with -DALONE, no T2: T1 spins for good.
 *
 * optimal: 3 complete executions (T1's load reads 42; its first try fails on 42; its
 * first try succeeds and a later one fails on 42) and 2 redundant ones (a try woken by
 * the change read what the load before it had missed).
 *
 * cdpor-test
 * run: ; verdict=safe executions=3 blocked=0 stale_spins=2
 * run: --algorithm source ; verdict=safe executions=3 stale_spins=2
 * run: --algorithm classic ; verdict=safe executions=3
 * run: --algorithm none ; verdict=safe executions=990
 * run: -DBROKEN ; verdict=error kind=assertion location=cas_same_value.c:45
 * run: -DBROKEN --algorithm none --keep-going ; verdict=error kind=assertion
 * run: -DALONE ; verdict=error kind=livelock executions=1
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *spinner(void *arg) {
    (void)arg;
    int r = atomic_load(&x);
    for (;;) {
        if (r == 42) {
            if (atomic_compare_exchange_strong(&x, &r, 42))
                break;
        } else {
            atomic_compare_exchange_strong(&x, &r, 17);
        }
    }
    return NULL;
}

static void *setter(void *arg) {
    (void)arg;
#ifdef BROKEN
    int old = atomic_exchange(&x, 42);
    assert(old != 17);
#else
    atomic_store(&x, 42);
#endif
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, spinner, NULL);
#ifndef ALONE
    pthread_create(&b, NULL, setter, NULL);
    pthread_join(b, NULL);
#endif
    pthread_join(a, NULL);
    assert(atomic_load(&x) == 42);
    return 0;
}
