/* A worker frees the shared block when it is done with it, while main may still read
 * it: the free and the read race (a free writes the whole block), so both orders are
 * explored, 2 executions, and the use after free is an event of the reading thread, at
 * the read, when the free came first. With -DFIXED main reads before it lets the worker
 * go (a semaphore orders them): 1 execution.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=use_after_free.c:38 contains="use after free: thread T0 at c-tests/memory/use_after_free.c:38 reads 4 bytes at offset 4 of a heap block of 16 bytes allocated by T0 at c-tests/memory/use_after_free.c:33 and freed by T1 at c-tests/memory/use_after_free.c:28"
 * run: --keep-going ; verdict=error executions=2 failing=1
 * run: --algorithm none --keep-going ; verdict=error executions=20 failing=16 errors=memory@use_after_free.c:38
 * run: --algorithm source --keep-going ; verdict=error executions=2 failing=1
 * run: --algorithm classic --keep-going ; verdict=error executions=4 failing=2
 * run: -DFIXED ; verdict=safe executions=1
 * run: -DFIXED --algorithm none ; verdict=safe executions=1
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>

int *data;
sem_t done;

void *worker(void *arg) {
    (void)arg;
#ifdef FIXED
    sem_wait(&done);
#endif
    free(data);
    return NULL;
}

int main(void) {
    data = malloc(4 * sizeof(int));
    data[1] = 7;
    sem_init(&done, 0, 0);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    int v = data[1];
#ifdef FIXED
    sem_post(&done);
#endif
    pthread_join(t, NULL);
    return v == 7 ? 0 : 1;
}
