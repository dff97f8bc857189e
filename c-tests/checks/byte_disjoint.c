/* Three threads touch disjoint bytes of one int: byte 0 (store), byte 1 (store), bytes 2-3
 * (2-byte load). No two accesses overlap, so all events are independent: 1 trace for every
 * DPOR algorithm. Safe: x ends as 0x0201 on little-endian and the load sees 0.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe executions=1 blocked=0
 * run: --algorithm classic ; verdict=safe executions=1 blocked=0
 */
#include <assert.h>
#include <pthread.h>

int x;
unsigned short high;

void *set0(void *arg) {
    (void)arg;
    ((unsigned char *)&x)[0] = 1;
    return 0;
}

void *set1(void *arg) {
    (void)arg;
    ((unsigned char *)&x)[1] = 2;
    return 0;
}

void *read23(void *arg) {
    (void)arg;
    high = ((unsigned short *)&x)[1];
    return 0;
}

int main(void) {
    pthread_t t[3];
    pthread_create(&t[0], 0, set0, 0);
    pthread_create(&t[1], 0, set1, 0);
    pthread_create(&t[2], 0, read23, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    assert(x == 0x0201);
    assert(high == 0);
    return 0;
}
