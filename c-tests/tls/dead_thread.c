/* A worker publishes the address of its thread-local counter through a global and
 * returns; main reads it after the join, when the worker's thread-local variables are
 * gone with it (C11 7.26.1: their lifetime is the thread's): an error of kind memory at
 * the read. With -DRACE main reads before joining, so the read may come before the
 * worker's exit (fine) or after it (the error): the exit races with the read. With
 * -DFIXED the worker publishes a heap copy instead.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=dead_thread.c:41 contains="use of a finished thread's thread-local variable: thread T0 at c-tests/tls/dead_thread.c:41 reads 4 bytes of counter (T1's), after T1 exited"
 * run: -DRACE --keep-going ; verdict=error executions=3 failing=1 blocked=0 errors=memory@dead_thread.c:41
 * run: -DRACE --keep-going --algorithm source ; verdict=error executions=3 failing=1 errors=memory@dead_thread.c:41
 * run: -DRACE --keep-going --algorithm none ; verdict=error errors=memory@dead_thread.c:41
 * run: -DFIXED ; verdict=safe executions=1
 */
#include <pthread.h>
#include <stdlib.h>

__thread int counter = 41;
int *volatile published;

void *worker(void *arg) {
    (void)arg;
    counter++;
#ifdef FIXED
    int *copy = malloc(sizeof *copy);
    *copy = counter;
    published = copy;
#else
    published = &counter;
#endif
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
#ifndef RACE
    pthread_join(t, NULL);
#endif
    int *p = published;
    if (p && *p != 42)
        return 1;
#ifdef RACE
    pthread_join(t, NULL);
#endif
    return 0;
}
