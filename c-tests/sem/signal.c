/* A semaphore that starts at 0 hands a value from a producer to a consumer: the consumer
 * waits for the post, which comes after the write, so it reads 42. With -DEARLY the
 * producer posts before it writes, and the consumer can read 0. With -DTWICE the consumer
 * waits for a second post that never comes: a deadlock. With -DPOLL the consumer spins
 * on sem_trywait instead of waiting: a failed try changes nothing, so it awaits the post.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DEARLY --keep-going --algorithm optimal ; verdict=error kind=assertion location=signal.c:40 errors=assertion@signal.c:40
 * run: -DEARLY --keep-going --algorithm source ; verdict=error kind=assertion location=signal.c:40 errors=assertion@signal.c:40
 * run: -DEARLY --keep-going --algorithm classic ; verdict=error kind=assertion location=signal.c:40 errors=assertion@signal.c:40
 * run: -DEARLY --keep-going --algorithm none ; verdict=error kind=assertion location=signal.c:40 errors=assertion@signal.c:40
 * run: -DPOLL --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: -DPOLL --algorithm none ; verdict=safe
 * run: -DPOLL -DEARLY --keep-going --algorithm optimal ; verdict=error kind=assertion location=signal.c:40 errors=assertion@signal.c:40
 * run: -DTWICE --algorithm optimal ; verdict=error kind=deadlock
 * run: -DTWICE --algorithm none ; verdict=error kind=deadlock
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t ready;
int data;

static void *consumer(void *arg) {
    (void)arg;
#ifdef POLL
    while (sem_trywait(&ready) != 0) {
    }
#else
    sem_wait(&ready);
#endif
#ifdef TWICE
    sem_wait(&ready);
#endif
    assert(data == 42);
    return 0;
}

int main(void) {
    pthread_t t;
    sem_init(&ready, 0, 0);
    pthread_create(&t, 0, consumer, 0);
#ifdef EARLY
    sem_post(&ready);
    data = 42;
#else
    data = 42;
    sem_post(&ready);
#endif
    pthread_join(t, 0);
    return 0;
}
