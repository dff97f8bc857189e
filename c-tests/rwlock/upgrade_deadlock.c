/* A thread that holds a read lock and asks for the write lock waits for itself: a
 * deadlock, reported with who holds the lock. Two threads that each take a read lock
 * and then want the write lock deadlock each other in some interleavings only (BOTH).
 *
 * cdpor-test
 * run: ; verdict=error kind=deadlock contains="waits to write-lock lock, read-locked by T0"
 * run: -DBOTH ; verdict=error kind=deadlock
 * run: -DBOTH --algorithm none ; verdict=error kind=deadlock
 * run: -DBOTH -DRELEASE ; verdict=safe executions=4
 * run: -DBOTH -DRELEASE --algorithm none ; verdict=safe
 */
#include <pthread.h>

pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
int v;

void *upgrade(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&lock);
    int seen = v;
#ifdef RELEASE
    pthread_rwlock_unlock(&lock);
#endif
    pthread_rwlock_wrlock(&lock);
    v = seen + 1;
    pthread_rwlock_unlock(&lock);
#ifndef RELEASE
    pthread_rwlock_unlock(&lock);
#endif
    return 0;
}

int main(void) {
#ifdef BOTH
    pthread_t t;
    pthread_create(&t, 0, upgrade, 0);
    upgrade(0);
    pthread_join(t, 0);
#else
    upgrade(0);
#endif
    return 0;
}
