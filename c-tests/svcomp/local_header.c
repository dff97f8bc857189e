/* A local header (#include "include/ring.h") and C99 `inline` functions without an
 * external definition, as SV-COMP programs have: both build. Two writers store into the
 * ring without a lock; the checker in main sees one slot overwritten.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=local_header.c:31
 * run: --svcomp -DSEPARATE ; verdict=safe
 */
#include "include/ring.h"
#include <pthread.h>

void reach_error(void) {}

int ring[RING_SIZE];
int head;

inline int slot(int h) { return h % RING_SIZE; }

void *put(void *arg) {
#ifdef SEPARATE
    ring[slot((int)(long)arg)] = 1;
#else
    int h = head;
    ring[slot(h)] += 1;
    head = h + 1;
#endif
    return arg;
}

static void check(void) {
    if (ring[0] + ring[1] != 2) reach_error();
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, put, (void *)0L);
    pthread_create(&b, 0, put, (void *)1L);
    pthread_join(a, 0);
    pthread_join(b, 0);
    check();
    return 0;
}
