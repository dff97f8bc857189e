/* A thread locks a default (non-recursive) mutex it already holds: it blocks forever, and
 * main blocks joining it. Every execution deadlocks.
 *
 * Traces (optimal): only main's read of the pthread_t local can move relative to the
 * thread's first lock, and it is independent -> 1 execution, failing. none: 2 (main's read
 * of t before or after the first lock).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=deadlock
 * run: --keep-going --algorithm optimal ; verdict=error kind=deadlock executions=1 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=deadlock executions=2 failing=2
 * run: --algorithm classic ; verdict=error kind=deadlock
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int x;

void *twice(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_lock(&m); /* already held by this thread */
    x = 1;
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, twice, 0);
    pthread_join(t, 0);
    return 0;
}
