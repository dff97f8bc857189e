/* Two threads each do `x = x + 1` (a load and a store) without synchronization; main
 * asserts x == 2 after joining both. The update is lost when both threads load 0.
 *
 * Traces (optimal): the two stores are ordered (2 ways); the first writer's load must come
 * before its own store, the second writer's load may come before or after the first store
 * (2 ways) -> 4 traces; the 2 where the second load precedes the first store fail.
 * none: every interleaving of main (create a, store a, create b, store b, join a, join b,
 * read x, end: pthread_create's stores of the ids are events) with T1/T2 (load, store,
 * finish): 594, of which 240 fail (enumerated over this event model).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=lost_update2.c:35
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=4 blocked=0 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=594 failing=240
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

int x;

void *inc(void *arg) {
    (void)arg;
    x = x + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 2); /* the error is reported on this line */
    return 0;
}
