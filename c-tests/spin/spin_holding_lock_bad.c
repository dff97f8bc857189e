/* The worker takes a mutex and then spins until `ready` is set; main sets `ready` under
 * the same mutex. If the worker locks first, main blocks on the mutex while the worker
 * spins on a flag only main would set: no thread can go on and one of them spins, a
 * livelock. If main locks first, both finish.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock location=spin_holding_lock_bad.c:21 errors=livelock@spin_holding_lock_bad.c:21 executions=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=livelock location=spin_holding_lock_bad.c:21 errors=livelock@spin_holding_lock_bad.c:21
 * run: --keep-going --algorithm classic ; verdict=error kind=livelock location=spin_holding_lock_bad.c:21 errors=livelock@spin_holding_lock_bad.c:21
 * run: --keep-going --algorithm none ; verdict=error kind=livelock location=spin_holding_lock_bad.c:21 errors=livelock@spin_holding_lock_bad.c:21
 */
#include <pthread.h>
#include <stdatomic.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
atomic_int ready;

static void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!atomic_load(&ready)) { /* BUG: waits while holding m */
    }
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    atomic_store(&ready, 1);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    return 0;
}
