/* qsort reads the whole array and writes it back sorted: a reader of the array sees it
 * before or after (never half sorted: until the write-back, the sort only orders
 * indices, its comparator reading the elements in place). Asserting either is a bug;
 * with the reader after the join it is safe (-DAFTER).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=qsort_shared.c:33
 * run: --keep-going ; verdict=error kind=assertion executions=3 failing=2 blocked=0
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=547 failing=520
 * run: -DAFTER ; verdict=safe executions=1
 * run: -DAFTER --algorithm none ; verdict=safe executions=14
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int values[4] = {3, 1, 4, 2};

static int ascending(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

void *sort(void *arg) {
    (void)arg;
    qsort(values, 4, sizeof(int), ascending);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, sort, 0);
#ifndef AFTER
    assert(values[0] == 1);
#endif
    pthread_join(t, 0);
    assert(values[0] == 1 && values[3] == 4);
    int key = 4;
    assert(bsearch(&key, values, 4, sizeof(int), ascending) == &values[3]);
    return 0;
}
