/* A thread that holds a rwlock's write lock and locks it again, to read or to write,
 * gets EDEADLK from glibc (no wait for itself); a trylock there gets EBUSY, a timed lock
 * EDEADLK. A reader meanwhile waits for the one unlock. The program checks every return
 * value: safe, and the reader either runs before the writer or after its unlock (2).
 * With -DIGNORE the writer takes EDEADLK for a second hold and unlocks twice: the second
 * unlock releases nothing it holds, a misuse.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2 blocked=0
 * run: --algorithm none ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: -DIGNORE ; verdict=error kind=misuse
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int table = 1;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    int seen = table;
    pthread_rwlock_unlock(&rw);
    assert(seen == 1 || seen == 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    assert(pthread_rwlock_wrlock(&rw) == 0);
#ifdef IGNORE
    pthread_rwlock_rdlock(&rw);
    table = 2;
    pthread_rwlock_unlock(&rw);
    pthread_rwlock_unlock(&rw);
#else
    assert(pthread_rwlock_rdlock(&rw) == EDEADLK);
    assert(pthread_rwlock_wrlock(&rw) == EDEADLK);
    assert(pthread_rwlock_tryrdlock(&rw) == EBUSY);
    assert(pthread_rwlock_trywrlock(&rw) == EBUSY);
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 1;
    assert(pthread_rwlock_timedwrlock(&rw, &deadline) == EDEADLK);
    table = 2;
    assert(pthread_rwlock_unlock(&rw) == 0);
#endif
    pthread_join(t, 0);
    return 0;
}
