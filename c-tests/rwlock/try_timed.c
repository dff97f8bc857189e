/* Try and timed locks never block: a try-read lock fails (EBUSY) only while the writer
 * holds the lock, a try-write lock while anybody does, and a timed lock may time out
 * (ETIMEDOUT) whenever the lock is busy, since time is not modelled. The failures are
 * explored: asserting that the timed write lock always succeeds is a bug that is found.
 *
 * cdpor-test
 * run: ; verdict=safe executions=36
 * run: --algorithm source ; verdict=safe executions=36
 * run: -DTIMED_ALWAYS ; verdict=error kind=assertion location=try_timed.c:43
 * run: -DTIMED_ALWAYS --algorithm classic ; verdict=error kind=assertion location=try_timed.c:43
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_rwlock_t l;
int x;

void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&l);
    x = 1;
    pthread_rwlock_unlock(&l);
    return 0;
}

void *tries(void *arg) {
    (void)arg;
    int r = pthread_rwlock_tryrdlock(&l);
    assert(r == 0 || r == EBUSY);
    if (r == 0) {
        int seen = x;
        assert(seen == 0 || seen == 1);
        pthread_rwlock_unlock(&l);
    }
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += 1;
    r = pthread_rwlock_timedwrlock(&l, &t);
    assert(r == 0 || r == ETIMEDOUT);
#ifdef TIMED_ALWAYS
    assert(r == 0);
#endif
    if (r == 0) {
        x = 2;
        pthread_rwlock_unlock(&l);
    }
    return 0;
}

int main(void) {
    pthread_rwlock_init(&l, 0);
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, tries, 0);
    pthread_rwlock_rdlock(&l);
    int r = pthread_rwlock_trywrlock(&l);
    assert(r == EBUSY);
    pthread_rwlock_unlock(&l);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 1 || x == 2);
    pthread_rwlock_destroy(&l);
    return 0;
}
