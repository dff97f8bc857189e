/* qsort's comparator is given pointers to elements of the array (C11 7.22.5), here
 * checked by the comparator itself; and a write by another thread while the sort runs
 * may be lost, as glibc's sort writes back what it read (-DWRITER: main's assertion
 * that the written value survives fails in some interleavings). Writing another array
 * instead is safe (-DWRITER -DOTHER).
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=1
 * run: -DWRITER ; verdict=error kind=assertion location=qsort_in_place.c:51
 * run: -DWRITER --keep-going ; verdict=error executions=6 failing=4 blocked=0
 * run: -DWRITER --keep-going --algorithm source ; verdict=error failing=4
 * run: -DWRITER --keep-going --algorithm classic ; verdict=error failing=4
 * run: -DWRITER --keep-going --algorithm none ; verdict=error executions=105 failing=77
 * run: -DWRITER -DOTHER ; verdict=safe executions=1
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

int values[4] = {3, 1, 2, 0};
int other[4];

static int ascending(const void *a, const void *b) {
    const int *x = a, *y = b;
    assert(x >= values && x < values + 4 && y >= values && y < values + 4);
    return *x - *y;
}

void *writer(void *arg) {
    (void)arg;
#ifdef OTHER
    other[2] = 100;
#else
    values[2] = 100;
#endif
    return 0;
}

int main(void) {
    pthread_t t;
#ifdef WRITER
    pthread_create(&t, 0, writer, 0);
#endif
    qsort(values, 4, sizeof(int), ascending);
#ifdef WRITER
    pthread_join(t, 0);
    int found = 0;
    for (int i = 0; i < 4; i++)
        found |= values[i] == 100 || other[i] == 100;
    assert(found);
#else
    assert(values[0] == 0 && values[3] == 3);
#endif
    return 0;
}
