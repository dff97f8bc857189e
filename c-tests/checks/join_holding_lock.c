/* main takes a lock and then joins a thread that needs the same lock. If the thread takes
 * the lock first it finishes and all is well; if main takes it first, main waits for the
 * thread and the thread waits for the lock: deadlock.
 *
 * Traces (optimal): the two lock acquisitions are ordered 2 ways -> 2 executions, 1
 * deadlock. none: 10 (enumerated).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=deadlock
 * run: --keep-going --algorithm optimal ; verdict=error kind=deadlock executions=2 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=deadlock executions=10 failing=1
 * run: --algorithm source ; verdict=error kind=deadlock
 * run: --algorithm classic ; verdict=error kind=deadlock
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *worker(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    x = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_mutex_lock(&m);
    pthread_join(t, 0); /* waits for a thread that may be waiting for m */
    pthread_mutex_unlock(&m);
    return 0;
}
