/* Dining philosophers with 3 forks and no ordering: thread i locks m[i] then m[(i+1)%3].
 *
 * Traces (optimal): on each mutex the two critical sections (thread i's outer one, thread
 * i-1's inner one) are ordered; of the 2^3 orientations the 2 cyclic ones are infeasible and
 * the 6 others are the 6 serial orders -> 6 complete traces; plus the one where every
 * thread holds its first fork and waits (the three first locks are on different mutexes,
 * so they commute) -> 7 executions, 1 deadlock. (Also checked by a sleep-set enumeration.)
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=deadlock contains="waits to lock m[1]"
 * run: --keep-going --algorithm optimal ; verdict=error kind=deadlock executions=7 blocked=0 failing=1
 * run: --algorithm source ; verdict=error kind=deadlock
 * run: --keep-going --algorithm source ; verdict=error kind=deadlock failing=1
 * run: --algorithm classic ; verdict=error kind=deadlock
 */
#include <pthread.h>
#include <stdint.h>

pthread_mutex_t m[3] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};

void *philosopher(void *arg) {
    int i = (int)(intptr_t)arg;
    pthread_mutex_lock(&m[i]);
    pthread_mutex_lock(&m[(i + 1) % 3]);
    pthread_mutex_unlock(&m[(i + 1) % 3]);
    pthread_mutex_unlock(&m[i]);
    return 0;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, philosopher, (void *)(intptr_t)i);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    return 0;
}
