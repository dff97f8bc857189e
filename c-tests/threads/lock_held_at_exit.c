/* Jobs run one at a time, each under one mutex; job 3 returns on an error path without
 * unlocking. Locks are held by thread number, so a thread that exits holding one keeps
 * its number: job 4 gets a new one and waits for the mutex job 3 still holds, and main
 * waits for job 4 (deadlock). With a recursive mutex (-DRECURSIVE) the same: job 4 is
 * not job 3, whatever numbers they have. Without the error path (-DFIXED) every job
 * takes the number of the one before it. 1 execution either way.
 *
 * cdpor-test
 * run: ; verdict=error kind=deadlock contains="held by T3" executions=1
 * run: -DRECURSIVE ; verdict=error kind=deadlock contains="held by T3"
 * run: -DRECURSIVE --algorithm source ; verdict=error kind=deadlock contains="held by T3"
 * run: -DFIXED ; verdict=safe executions=1
 */
#include <pthread.h>

#define JOBS 6

pthread_mutex_t m;
int done[JOBS];

static void *job(void *arg) {
    long i = (long)arg;
    pthread_mutex_lock(&m);
#ifndef FIXED
    if (i == 2)
        return 0;
#endif
    done[i] = 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
#ifdef RECURSIVE
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
#endif
    pthread_mutex_init(&m, &a);
    for (long i = 0; i < JOBS; i++) {
        pthread_t t;
        pthread_create(&t, 0, job, (void *)i);
        pthread_join(t, 0);
    }
    return 0;
}
