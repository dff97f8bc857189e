/* Two consumers wait for an item with `if` instead of `while`; the producer adds one item
 * and broadcasts. Both consumers wake, and the second to retake the mutex takes from an
 * empty buffer: the assertion fails.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=if_not_while.c:22
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t c = PTHREAD_COND_INITIALIZER;
int items;

void *consumer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    if (items == 0)
        pthread_cond_wait(&c, &m);
    assert(items > 0);
    items--;
    pthread_mutex_unlock(&m);
    return 0;
}

void *producer(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    items++;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t c1, c2, p;
    pthread_create(&c1, 0, consumer, 0);
    pthread_create(&c2, 0, consumer, 0);
    pthread_create(&p, 0, producer, 0);
    pthread_join(p, 0);
    return 0;
}
