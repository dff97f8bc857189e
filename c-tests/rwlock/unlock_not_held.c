/* A reader takes the read lock and releases it; main, which never takes it, unlocks it
 * too (BUG). Each thread counts the read locks it holds, so main's unlock is a misuse
 * whether the rwlock is free then or the reader holds it (it would otherwise pass for the
 * reader's own release, and the reader's unlock would be the one to find it free).
 * Without BUG main takes a read lock of its own first: two readers, who commute.
 *
 * cdpor-test
 * run: -DBUG --keep-going ; verdict=error executions=3 blocked=0 errors=misuse@unlock_not_held.c:35
 * run: -DBUG --keep-going --algorithm source ; verdict=error executions=3 errors=misuse@unlock_not_held.c:35
 * run: -DBUG --keep-going --algorithm classic ; verdict=error errors=misuse@unlock_not_held.c:35
 * run: -DBUG --keep-going --algorithm none ; verdict=error errors=misuse@unlock_not_held.c:35
 * run: -DBUG ; verdict=error kind=misuse contains="unlocks rw, which it does not hold"
 * run: ; verdict=safe executions=1 blocked=0
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int data = 1;

void *reader(void *arg) {
    pthread_rwlock_rdlock(&rw);
    assert(data == 1);
    pthread_rwlock_unlock(&rw);
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
#ifndef BUG
    pthread_rwlock_rdlock(&rw);
#endif
    pthread_rwlock_unlock(&rw);
    pthread_join(t, NULL);
    return 0;
}
