/* Uses a barrier, which cdpor does not support yet: exit 2 and the function's name in
 * the message.
 *
 * cdpor-test
 * run: ; exit=2 contains="unsupported function `pthread_barrier_"
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

pthread_barrier_t b;

void *party(void *arg) {
    (void)arg;
    pthread_barrier_wait(&b);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_barrier_init(&b, 0, 2);
    pthread_create(&t, 0, party, 0);
    pthread_barrier_wait(&b);
    pthread_join(t, 0);
    return 0;
}
