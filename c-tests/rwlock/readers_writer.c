/* N readers and one writer under a read-write lock. Readers commute with readers, so
 * the only orders that matter are whether each reader's section comes before or after
 * the writer's: 2^N executions. Each reader
 * sees the two halves of the writer's update together. BROKEN: the writer updates
 * under a read lock, so a reader can see half of it.
 *
 * cdpor-test
 * run: -DN=2 ; verdict=safe executions=4
 * run: -DN=3 ; verdict=safe executions=8
 * run: -DN=3 --algorithm source ; verdict=safe executions=8
 * run: -DN=2 --algorithm classic ; verdict=safe
 * run: -DN=1 --algorithm none ; verdict=safe executions=1092
 * run: -DN=2 -DBROKEN ; verdict=error kind=assertion location=readers_writer.c:27
 * run: -DN=1 -DBROKEN --algorithm none ; verdict=error kind=assertion location=readers_writer.c:27
 */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int a, b;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&lock);
    int x = a, y = b;
    pthread_rwlock_unlock(&lock);
    assert(x == y);
    return 0;
}

void *writer(void *arg) {
    (void)arg;
#ifdef BROKEN
    pthread_rwlock_rdlock(&lock);
#else
    pthread_rwlock_wrlock(&lock);
#endif
    a = 1;
    b = 1;
    pthread_rwlock_unlock(&lock);
    return 0;
}

int main(void) {
    pthread_t r[N], w;
    pthread_create(&w, 0, writer, 0);
    for (int i = 0; i < N; i++) pthread_create(&r[i], 0, reader, 0);
    for (int i = 0; i < N; i++) pthread_join(r[i], 0);
    pthread_join(w, 0);
    return 0;
}
