/* Main waits for a worker to set a flag in a heap block, but the worker frees the block
 * instead (BUG). The free leaves the flag's bytes as they were, but it changes them all
 * the same: a spin that read the flag before it is stale, and the loop's read after it
 * is a use after free, never a livelock. STACK: the flag lives on the worker's stack, which ends with
 * the worker; correctly the worker sets the flag and main frees the block after the loop.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=16
 * run: -DBUG ; verdict=error kind=memory contains="use after free"
 * run: -DBUG --algorithm none ; verdict=error kind=memory
 * run: -DBUG --keep-going ; verdict=error kind=memory errors=memory@wait_on_ended_memory.c:47 executions=1 contains="use after free"
 * run: -DBUG --keep-going --algorithm none ; verdict=error kind=memory errors=memory@wait_on_ended_memory.c:47 contains="use after free"
 * run: -DSTACK --keep-going ; verdict=error kind=memory errors=memory@wait_on_ended_memory.c:47 executions=1 contains="use of a finished thread's stack"
 * run: -DSTACK --keep-going --algorithm source ; verdict=error kind=memory errors=memory@wait_on_ended_memory.c:47 contains="use of a finished thread's stack"
 */
#include <pthread.h>
#include <stdlib.h>

struct box {
    volatile int flag;
};
struct box *volatile shared;

static void *worker(void *arg) {
#if defined(STACK)
    struct box mine = {0};
    shared = &mine;
#elif defined(BUG)
    free(shared);
#else
    shared->flag = 1;
#endif
    return arg;
}

int main(void) {
    pthread_t t;
#ifndef STACK
    shared = calloc(1, sizeof *shared);
#endif
    pthread_create(&t, 0, worker, 0);
#ifdef STACK
    while (!shared) {
    }
#endif
    while (!shared->flag) {
    }
    pthread_join(t, 0);
#ifndef BUG
    free(shared);
#endif
    return 0;
}
