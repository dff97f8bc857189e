/* A one-slot buffer with two condition variables, used correctly (re-checking in loops):
 * a producer puts N items, a consumer takes N and checks they arrive in order. Safe;
 * every algorithm must agree.
 *
 * cdpor-test
 * run: -DN=2 ; verdict=safe blocked=0
 * run: -DN=2 --algorithm source ; verdict=safe
 * run: -DN=2 --algorithm classic ; verdict=safe
 * run: -DN=3 ; verdict=safe blocked=0
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 2
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
int full, slot;

void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= N; i++) {
        pthread_mutex_lock(&m);
        while (full)
            pthread_cond_wait(&not_full, &m);
        slot = i;
        full = 1;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

void *consumer(void *arg) {
    (void)arg;
    for (int i = 1; i <= N; i++) {
        pthread_mutex_lock(&m);
        while (!full)
            pthread_cond_wait(&not_empty, &m);
        assert(slot == i);
        full = 0;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
    }
    return 0;
}

int main(void) {
    pthread_t p, c;
    pthread_create(&p, 0, producer, 0);
    pthread_create(&c, 0, consumer, 0);
    pthread_join(p, 0);
    pthread_join(c, 0);
    return 0;
}
