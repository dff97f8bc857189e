/* main grows a buffer with realloc while a worker, given the old block, writes into it.
 * realloc copies the old block and frees it: the worker's write may land before that
 * (and be kept), or after it, a use after free; and the assertion fails when the worker
 * has not written yet.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=realloc_copy.c:30
 * run: --keep-going ; verdict=error executions=4 failing=3 blocked=0 errors=assertion@realloc_copy.c:30,memory@realloc_copy.c:21
 * run: --keep-going --algorithm source ; verdict=error errors=assertion@realloc_copy.c:30,memory@realloc_copy.c:21
 * run: --keep-going --algorithm classic ; verdict=error errors=assertion@realloc_copy.c:30,memory@realloc_copy.c:21
 * run: --keep-going --algorithm none ; verdict=error executions=37 failing=15 errors=assertion@realloc_copy.c:30,memory@realloc_copy.c:21
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
