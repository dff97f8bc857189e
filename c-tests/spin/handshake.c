/* A two-way handshake: the worker raises `a_ready` and then waits for `b_ready`; main
 * waits for `a_ready` and then raises `b_ready`. Each wait is for a flag the other thread
 * sets unconditionally: safe, and the worker's read of `data` always sees main's write
 * made before b_ready.
 *
 * -DBROKEN: the worker too waits for the other's flag before raising its own (main waits
 * for `a_ready` and the worker for `b_ready`). Whatever the order, both end up spinning
 * on a flag that only the other, itself spinning, would set: a livelock in every
 * execution.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=livelock location=handshake.c:45 errors=livelock@handshake.c:45 executions=1 blocked=0 contains="no thread will change b_ready = 0"
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=livelock location=handshake.c:45 errors=livelock@handshake.c:45
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=livelock location=handshake.c:45 errors=livelock@handshake.c:45
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=livelock location=handshake.c:45 errors=livelock@handshake.c:45
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int a_ready, b_ready;
int data;

static void *worker(void *arg) {
    (void)arg;
#ifndef BROKEN
    atomic_store(&a_ready, 1);
#endif
    while (!atomic_load(&b_ready)) {
    }
#ifdef BROKEN
    atomic_store(&a_ready, 1); /* BUG: raised only after waiting for main */
#endif
    assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&a_ready)) {
    }
    data = 42;
    atomic_store(&b_ready, 1);
    pthread_join(t, 0);
    return 0;
}
