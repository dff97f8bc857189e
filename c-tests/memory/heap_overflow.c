/* Each worker fills its half of a shared array; with -DBUG the second half's loop runs
 * one element too far, past the end of the block (the first element of its red zone),
 * which is an error in every interleaving. With -DSTRING a name is copied into a
 * buffer one byte too small for its terminating NUL: strcpy's write is checked as the
 * bytes it touches.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm source ; verdict=safe executions=1
 * run: -DBUG ; verdict=error kind=memory location=heap_overflow.c:29 contains="heap access out of bounds: thread T2 at c-tests/memory/heap_overflow.c:29 writes 4 bytes at offset 32 of a heap block of 32 bytes allocated by T0 at c-tests/memory/heap_overflow.c:34"
 * run: -DBUG --keep-going ; verdict=error executions=2 failing=2
 * run: -DSTRING ; verdict=error kind=memory location=heap_overflow.c:37 contains="thread T0 at c-tests/memory/heap_overflow.c:37 writes 6 bytes at offset 0 of a heap block of 5 bytes"
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define N 8
int *cells;

void *fill(void *arg) {
    long half = (long)arg;
    int from = half * N / 2, to = from + N / 2;
#ifdef BUG
    if (half == 1)
        to++;
#endif
    for (int i = from; i < to; i++)
        cells[i] = i;
    return NULL;
}

int main(void) {
    cells = malloc(N * sizeof(int));
#ifdef STRING
    char *name = malloc(5);
    strcpy(name, "hello");
#endif
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, fill, (void *)i);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    free(cells);
    return 0;
}
