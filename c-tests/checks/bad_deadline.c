/* A deadline whose nanoseconds are not below 10^9 (added without a carry into the
 * seconds) is refused by glibc with EINVAL: by sem_timedwait, pthread_cond_timedwait
 * and the timed rwlocks before anything else, by pthread_mutex_timedlock when the mutex
 * is busy (and cnd_timedwait, mtx_timedlock: thrd_error). The program asserts glibc's
 * answers: safe. With -DRETRY a consumer that retries a timed wait until it succeeds
 * with such a deadline waits for ever: the bug is found (a livelock, as the wait returns
 * EINVAL at once each time and nothing it reads changes).
 *
 * cdpor-test
 * run: ; verdict=safe executions=4
 * run: --algorithm none ; verdict=safe
 * run: -DRETRY ; verdict=error kind=livelock
 * run: -DRETRY --algorithm none ; verdict=error kind=livelock
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <threads.h>
#include <time.h>

sem_t items;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

void *holder(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
    sem_post(&items);
    return 0;
}

int main(void) {
    struct timespec late;
    clock_gettime(CLOCK_REALTIME, &late);
    late.tv_nsec += 1500000000L;
    sem_init(&items, 0, 0);
    pthread_t t;
    pthread_create(&t, 0, holder, 0);
#ifdef RETRY
    while (sem_timedwait(&items, &late) != 0) {
    }
#else
    assert(sem_timedwait(&items, &late) == -1 && errno == EINVAL);
    pthread_mutex_lock(&m);
    assert(pthread_cond_timedwait(&c, &m, &late) == EINVAL);
    pthread_mutex_unlock(&m);
    mtx_t cm;
    cnd_t cc;
    mtx_init(&cm, mtx_timed);
    cnd_init(&cc);
    mtx_lock(&cm);
    assert(cnd_timedwait(&cc, &cm, &late) == thrd_error);
    mtx_unlock(&cm);
    assert(pthread_rwlock_timedrdlock(&rw, &late) == EINVAL);
    assert(pthread_rwlock_timedwrlock(&rw, &late) == EINVAL);
    int r = pthread_mutex_timedlock(&m, &late);
    /* Free: taken whatever the deadline; busy (holder has it): EINVAL. */
    assert(r == 0 || r == EINVAL);
    if (r == 0)
        pthread_mutex_unlock(&m);
#endif
    pthread_join(t, 0);
    return 0;
}
