/* signal_wakes_one.c with the broadcast it needed: every waiter wakes, rechecks `done`
 * and leaves. Safe.
 *
 * cdpor-test
 * run: ; verdict=safe executions=10 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe executions=1722
 */
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int done;

void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!done)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, waiter, 0);
    pthread_create(&b, 0, waiter, 0);
    pthread_mutex_lock(&m);
    done = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
