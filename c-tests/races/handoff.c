/* A value handed from a producer to a consumer: through an atomic flag the consumer
 * polls (sequential consistency: the flag's store and load order the data), through a
 * condition variable (-DCONDVAR), through a plain flag (-DPLAIN_FLAG: the flag's
 * accesses race), or not at all (-DNO_SYNC: the data's accesses race; the assertion
 * holds all the same, so only --races finds it). main reads the data only after
 * joining: the join orders it.
 *
 * cdpor-test
 * run: --races ; verdict=safe executions=1
 * run: --races --algorithm none ; verdict=safe executions=320
 * run: --races -DCONDVAR ; verdict=safe executions=4
 * run: --races -DPLAIN_FLAG ; verdict=error kind=data-race location=handoff.c:53 contains="data race: T1 writes ready at c-tests/races/handoff.c:40 and T2 reads ready"
 * run: --races -DNO_SYNC ; verdict=error kind=data-race location=handoff.c:56 contains="T1 writes data at c-tests/races/handoff.c:33 and T2 reads data"
 * run: --races -DNO_SYNC --algorithm none ; verdict=error kind=data-race location=handoff.c:56
 * run: -DNO_SYNC ; verdict=safe executions=2
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
#ifdef PLAIN_FLAG
int ready;
#else
atomic_int ready;
#endif
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int done;

void *producer(void *arg) {
    (void)arg;
    data = 42;
#if defined(CONDVAR)
    pthread_mutex_lock(&m);
    done = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
#elif !defined(NO_SYNC)
    ready = 1;
#endif
    return NULL;
}

void *consumer(void *arg) {
    (void)arg;
#if defined(CONDVAR)
    pthread_mutex_lock(&m);
    while (!done)
        pthread_cond_wait(&c, &m);
    pthread_mutex_unlock(&m);
#elif !defined(NO_SYNC)
    while (!ready)
        ;
#endif
    int v = data;
    (void)v;
    return NULL;
}

int main(void) {
    pthread_t p, q;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&q, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(q, NULL);
    assert(data == 42);
    return 0;
}
