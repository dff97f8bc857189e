/* A worker spins until `go` is set, but main sets `started` instead (a typo) and then
 * joins the worker. No thread will ever write `go`: the worker spins forever while main
 * waits to join it, a livelock.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock location=livelock_never_set.c:19 errors=livelock@livelock_never_set.c:19 executions=1 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=livelock location=livelock_never_set.c:19 errors=livelock@livelock_never_set.c:19
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock location=livelock_never_set.c:19 errors=livelock@livelock_never_set.c:19
 * run: --keep-going --algorithm none ; verdict=error kind=livelock location=livelock_never_set.c:19 errors=livelock@livelock_never_set.c:19
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int go, started;
int result;

static void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&go)) {
    }
    result = 1;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    atomic_store(&started, 1); /* BUG: meant go */
    pthread_join(t, 0);
    return result == 1 ? 0 : 1;
}
