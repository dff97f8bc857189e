/* Uses a read-write lock (only pthread_rwlock_rdlock is called), which cdpor does not
 * support yet: exit 2 and the function's name in the message.
 *
 * cdpor-test
 * run: ; exit=2 contains=pthread_rwlock_rdlock
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int x;

void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    return (void *)(long)x;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, reader, 0);
    pthread_join(t, 0);
    return 0;
}
