/* Uses a condition variable, which cdpor does not support yet: it must refuse the program
 * (exit 2) and name the function instead of exploring it wrongly.
 *
 * cdpor-test
 * run: ; exit=2 contains=pthread_cond_broadcast
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, signaller, 0);
    pthread_join(t, 0);
    return 0;
}
