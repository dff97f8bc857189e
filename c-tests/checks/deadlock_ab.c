/* Lock-order inversion: T1 locks a then b, T2 locks b then a.
 *
 * Traces (optimal): T1's whole section before T2's, T2's before T1's (the orders on a and
 * on b must agree), or each holds its first lock and waits for the other's: deadlock
 * -> 3 executions, 1 failing. none: 3527 interleavings, 10 of them deadlock (enumerated:
 * main's stores of the pthread_t ids can interleave with the threads' lock events).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=deadlock
 * run: --keep-going --algorithm optimal ; verdict=error kind=deadlock executions=3 blocked=0 failing=1
 * run: --keep-going --algorithm none ; verdict=error kind=deadlock executions=3527 failing=10
 * run: --algorithm source ; verdict=error kind=deadlock
 * run: --algorithm classic ; verdict=error kind=deadlock
 */
#include <pthread.h>

pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

void *t1(void *arg) {
    (void)arg;
    pthread_mutex_lock(&a);
    pthread_mutex_lock(&b);
    pthread_mutex_unlock(&b);
    pthread_mutex_unlock(&a);
    return 0;
}

void *t2(void *arg) {
    (void)arg;
    pthread_mutex_lock(&b);
    pthread_mutex_lock(&a);
    pthread_mutex_unlock(&a);
    pthread_mutex_unlock(&b);
    return 0;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, t1, 0);
    pthread_create(&y, 0, t2, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
    return 0;
}
