/* A thread-local variable: all user threads run as fibers in one OS thread, so cdpor cannot
 * give each its own copy yet and must refuse the program (exit 2), naming the variable.
 *
 * cdpor-test
 * run: ; exit=2 contains=per_thread_counter
 */
#include <assert.h>
#include <pthread.h>

_Thread_local int per_thread_counter;

void *worker(void *arg) {
    (void)arg;
    per_thread_counter = per_thread_counter + 1;
    assert(per_thread_counter == 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
