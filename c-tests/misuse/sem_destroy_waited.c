/* A consumer waits on a semaphore that the producer may destroy before posting (BUG):
 * destroying a semaphore a thread is blocked on is undefined, a misuse found in the
 * interleavings where the consumer waits first. Correctly, the producer posts, joins
 * the consumer, then destroys.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=misuse location=sem_destroy_waited.c:27 contains="destroys the semaphore"
 * run: -DBUG --algorithm none ; verdict=error kind=misuse location=sem_destroy_waited.c:27
 */
#include <pthread.h>
#include <semaphore.h>

sem_t items;

static void *consumer(void *arg) {
    sem_wait(&items);
    return arg;
}

int main(void) {
    pthread_t c;
    sem_init(&items, 0, 0);
    pthread_create(&c, 0, consumer, 0);
#ifdef BUG
    sem_destroy(&items);
    return 0;
#else
    sem_post(&items);
    pthread_join(c, 0);
    sem_destroy(&items);
    return 0;
#endif
}
