/* Shared data on the heap: main mallocs a counter and passes the pointer to two threads,
 * which increment it without a lock. Same structure as a lost update on a global:
 * 4 traces, 2 failing (see lost_update2.c). malloc/initialisation happen before the first
 * pthread_create and free after the joins, so they add no interleavings: none explores
 * 594 interleavings, 240 failing, as for the global version.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=heap_lost_update.c:38
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=4 blocked=0 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=594 failing=240
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct counter {
    int n;
};

void *inc(void *arg) {
    struct counter *c = arg;
    c->n = c->n + 1;
    return 0;
}

int main(void) {
    struct counter *c = malloc(sizeof *c);
    if (!c)
        return 1;
    c->n = 0;
    pthread_t a, b;
    pthread_create(&a, 0, inc, c);
    pthread_create(&b, 0, inc, c);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(c->n == 2); /* the error is reported on this line */
    free(c);
    return 0;
}
