/* pthread_t_read_early.c done right: main publishes the id under a mutex after
 * pthread_create returned, and the reader waits for it. Safe.
 *
 * (Runs with --no-spurious-wakeups count the signal semantics alone; by default a wait
 * may also end without a signal, which adds executions.)
 *
 * cdpor-test
 * run: ; verdict=safe executions=4 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none --no-spurious-wakeups ; verdict=safe executions=303
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
pthread_t second;
int published;

void *first_thread(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    while (!published)
        pthread_cond_wait(&c, &m);
    assert(second != 0);
    pthread_mutex_unlock(&m);
    return 0;
}

void *second_thread(void *arg) {
    (void)arg;
    return 0;
}

int main(void) {
    pthread_t t, s;
    pthread_create(&t, 0, first_thread, 0);
    pthread_create(&s, 0, second_thread, 0);
    pthread_mutex_lock(&m);
    second = s;
    published = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    pthread_join(t, 0);
    pthread_join(s, 0);
    return 0;
}
