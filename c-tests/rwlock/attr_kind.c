/* Attributes: a rwlock made with the reader-preferring kind (glibc's default) and a
 * barrier made process-private, both by their attribute objects; two readers, each at
 * the barrier then under the read lock. Readers commute, and so do arrivals at a
 * barrier whose result no call uses: one execution. With -DWRITERS the rwlock prefers writers, which cdpor does
 * not model: refused by name. With -DSHARED the barrier is process-shared, which is the
 * same with one process.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm none ; verdict=safe
 * run: -DSHARED ; verdict=safe executions=1
 * run: -DWRITERS ; verdict=unknown exit=2 contains="a read-write lock that prefers writers"
 */
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw;
pthread_barrier_t bar;
int data = 7;

void *reader(void *arg) {
    pthread_barrier_wait(&bar);
    pthread_rwlock_rdlock(&rw);
    assert(data == 7);
    pthread_rwlock_unlock(&rw);
    return arg;
}

int main(void) {
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
#ifdef WRITERS
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
#else
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_READER_NP);
#endif
    int kind = -1;
    pthread_rwlockattr_getkind_np(&ra, &kind);
    assert(kind == PTHREAD_RWLOCK_PREFER_READER_NP);
    pthread_rwlock_init(&rw, &ra);
    pthread_barrierattr_t ba;
    pthread_barrierattr_init(&ba);
#ifdef SHARED
    pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
#else
    pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_PRIVATE);
#endif
    int shared = -1;
    pthread_barrierattr_getpshared(&ba, &shared);
    assert(shared == PTHREAD_PROCESS_PRIVATE || shared == PTHREAD_PROCESS_SHARED);
    pthread_barrier_init(&bar, &ba, 2);
    pthread_t a, b;
    pthread_create(&a, NULL, reader, NULL);
    pthread_create(&b, NULL, reader, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
