/* A one-byte store into byte 1 of an int races with a 4-byte load of the whole int: the
 * accesses overlap, so they are dependent. If the store comes first the load sees 256.
 *
 * Traces (optimal): store before or after the load -> 2 executions, 1 failing.
 * none: 215 interleavings, 160 failing (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=byte_store_race.c:38
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=2 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=215 failing=160
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

int x;
int seen;

void *poke(void *arg) {
    (void)arg;
    ((unsigned char *)&x)[1] = 1;
    return 0;
}

void *peek(void *arg) {
    (void)arg;
    seen = x;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, poke, 0);
    pthread_create(&b, 0, peek, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(seen == 0); /* the error is reported on this line */
    return 0;
}
