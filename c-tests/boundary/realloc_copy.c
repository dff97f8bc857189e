/* main grows a buffer with realloc while a worker, given the old block, writes into it.
 * realloc copies the old block: a read of its bytes, so the worker's write may land
 * before the copy (and be kept) or after it (and be lost to the new block).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=realloc_copy.c:29
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=50 failing=28
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int *block;

void *worker(void *arg) {
    (void)arg;
    block[1] = 7;
    return 0;
}

int main(void) {
    block = calloc(2, sizeof(int));
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int *bigger = realloc(block, 4 * sizeof(int));
    assert(bigger[1] == 7);
    pthread_join(t, 0);
    return 0;
}
