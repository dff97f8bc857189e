/* A thread clears a 64 MiB heap block and a 1 MiB global buffer with memset while
 * another writes one byte of the buffer: the byte store races with the memset that
 * covers it, and only with that one (the heap block is the first thread's alone).
 * Large accesses must cost no more to analyse than small ones.
 *
 * Traces: the byte store before or after the buffer's memset: 2, one failing.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion contains="big[777] == 2"
 * run: --keep-going ; verdict=error kind=assertion executions=2 failing=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion executions=2 failing=1
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define HEAP (64u << 20)
char big[1 << 20];

void *clearer(void *arg) {
    (void)arg;
    char *mine = malloc(HEAP);
    memset(mine, 7, HEAP);
    memset(big, 1, sizeof big);
    assert(mine[HEAP - 1] == 7);
    return 0;
}

void *poker(void *arg) {
    (void)arg;
    big[777] = 2;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, clearer, 0);
    pthread_create(&b, 0, poker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(big[777] == 2);
    return 0;
}
