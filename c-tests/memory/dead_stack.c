/* A worker publishes the address of its local through a global and returns; main reads
 * it after the join, when the worker's stack is gone (POSIX leaves the access
 * undefined): an error of kind memory at the read. With -DRACE main reads without
 * joining first, so the read may come before the worker's exit (fine) or after (the
 * error): the exit ends the stack, so it races with the read; main's return waits for the
 * worker to end, as the end of the process does for any thread that can run. With -DFIXED
 * the worker publishes a heap copy instead.
 *
 * cdpor-test
 * run: ; verdict=error kind=memory location=dead_stack.c:41 contains="use of a finished thread's stack: thread T0 at c-tests/memory/dead_stack.c:41 reads 4 bytes of T1's stack"
 * run: -DRACE --keep-going ; verdict=error executions=3 failing=1
 * run: -DRACE --algorithm none --keep-going ; verdict=error executions=13 failing=7 errors=memory@dead_stack.c:41
 * run: -DFIXED ; verdict=safe executions=1
 */
#include <pthread.h>
#include <stdlib.h>

int *volatile published;

void *worker(void *arg) {
    (void)arg;
#ifdef FIXED
    int *copy = malloc(sizeof *copy);
    *copy = 42;
    published = copy;
#else
    int value = 42;
    published = &value;
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
    if (p) {
        int v = *p;
        if (v != 42)
            return 1;
    }
#ifdef RACE
    pthread_join(t, NULL);
#endif
    return 0;
}
