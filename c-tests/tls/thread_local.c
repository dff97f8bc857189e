/* Each thread has its own copy of a `__thread` and a `_Thread_local` variable,
 * initialized from the initializer: the two workers' updates of their copies are no
 * conflicts, so the only races are on `total` (under a mutex): 2 executions. With
 * -DSHARED the counter is an ordinary global, and the workers' unsynchronized
 * increments of it lose updates.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: --algorithm none -DWORKERS=1 ; verdict=safe executions=14
 * run: -DWORKERS=1 ; verdict=safe executions=1
 * run: --algorithm source ; verdict=safe executions=2
 * run: -DSHARED ; verdict=error kind=assertion location=thread_local.c:39
 */
#include <assert.h>
#include <pthread.h>

#ifndef WORKERS
#define WORKERS 2
#endif

#ifdef SHARED
int counter = 5;
#else
__thread int counter = 5;
#endif
_Thread_local long history[3] = {1, 2, 3};
int total;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void *worker(void *arg) {
    int n = (int)(long)arg;
    counter += n;
    history[1] += counter;
    pthread_mutex_lock(&lock);
    total += history[1];
    pthread_mutex_unlock(&lock);
    if (history[0] != 1)
        return (void *)1;
    assert(counter == 5 + n);
    return NULL;
}

int main(void) {
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
#ifndef SHARED
    /* main's copies are untouched */
    assert(counter == 5 && history[1] == 2);
    assert(total == (2 + 6) + (WORKERS == 2 ? 2 + 7 : 0));
#endif
    return 0;
}
