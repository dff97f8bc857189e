/* A thread that assumes what it reads: T2 reads x and assumes it saw the last of T1's N
 * stores, then reads y and assumes it saw none of T3's. A false assumption stops T2 for
 * good and the others run on; the execution is infeasible (assume_blocked) or, once
 * another thread changed what T2 read, redundant (stale_spins), covered by the one that
 * reads after that change (docs/reductions.md, "A false assumption stops its thread").
 * One execution is complete: T1 done, T2, then T3. Before, a false assumption ended the
 * execution at once, and before each of the others' next events in turn: 14 infeasible
 * executions for N=3 (--assume-ends); now 1 infeasible and 5 redundant. With N=1, `none`
 * reaches the same 39,768 complete executions either way.
 * -DBROKEN: main asserts that T2 never got past its assumptions.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0 assume_blocked=1 stale_spins=5
 * run: --algorithm source ; verdict=safe executions=1 assume_blocked=1 stale_spins=5
 * run: --algorithm classic ; verdict=safe executions=1
 * run: --assume-ends ; verdict=safe executions=1 assume_blocked=14 stale_spins=0
 * run: -DN=1 --algorithm none ; verdict=safe executions=39768
 * run: -DN=1 --algorithm none --assume-ends ; verdict=safe executions=39768
 * run: -DBROKEN ; verdict=error kind=assertion location=assume_waits.c:63
 * run: -DBROKEN --keep-going -DN=1 --algorithm none ; verdict=error failing=39768
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 3
#endif

extern void __VERIFIER_assume(int);

int x, y, seen;

void *t1(void *arg) {
    for (int i = 1; i <= N; i++)
        x = i;
    return arg;
}

void *t2(void *arg) {
    int a = x;
    __VERIFIER_assume(a == N);
    int b = y;
    __VERIFIER_assume(b == 0);
    seen = 1;
    return arg;
}

void *t3(void *arg) {
    for (int i = 1; i <= N; i++)
        y = i;
    return arg;
}

int main(void) {
    pthread_t a, b, c;
    pthread_create(&a, 0, t1, 0);
    pthread_create(&b, 0, t2, 0);
    pthread_create(&c, 0, t3, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    pthread_join(c, 0);
#ifdef BROKEN
    assert(!seen);
#endif
    return 0;
}
