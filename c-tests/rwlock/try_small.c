/* A read-locking main that fails a try-write lock on its own lock, a writer, and a
 * thread that tries a read lock: every algorithm agrees with exhaustive exploration.
 * BUG: the try-read lock fails while the writer holds the lock.
 *
 * cdpor-test
 * run: ; verdict=safe executions=10
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=2912
 * run: -DBUG ; verdict=error kind=assertion location=try_small.c:29
 * run: -DBUG --algorithm none ; verdict=error kind=assertion location=try_small.c:29
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>

pthread_rwlock_t l;

void *writer(void *arg) {
    (void)arg;
    pthread_rwlock_wrlock(&l);
    pthread_rwlock_unlock(&l);
    return 0;
}

void *tries(void *arg) {
    (void)arg;
    int r = pthread_rwlock_tryrdlock(&l);
#ifdef BUG
    assert(r == 0);
#endif
    if (r == 0)
        pthread_rwlock_unlock(&l);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, writer, 0);
    pthread_create(&b, 0, tries, 0);
    pthread_rwlock_rdlock(&l);
    assert(pthread_rwlock_trywrlock(&l) == EBUSY);
    pthread_rwlock_unlock(&l);
    return 0;
}
