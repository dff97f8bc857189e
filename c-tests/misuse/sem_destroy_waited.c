/* A consumer waits on a semaphore that the producer may destroy before posting (BUG):
 * destroying a semaphore a thread is blocked on is undefined, and so is waiting on a
 * destroyed one. Whether the consumer has entered sem_wait when the semaphore goes is
 * no event, so cdpor reports the wait on the destroyed semaphore (a wait on a destroyed
 * semaphore can run, to be caught). With -DREINIT the producer destroys the semaphore
 * and initializes it again with a unit and then sets `late`: a consumer that waited
 * before the destruction is the misuse, one that waits after the new init takes the unit
 * and may see `late` set (the assertion), or not. Correctly, the producer posts, joins
 * the consumer, then destroys.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=misuse location=sem_destroy_waited.c:30 contains="uses items, a semaphore destroyed and not initialized again"
 * run: -DBUG --algorithm none ; verdict=error kind=misuse location=sem_destroy_waited.c:30
 * run: -DREINIT --keep-going ; verdict=error executions=3 failing=2 blocked=0 errors=misuse@sem_destroy_waited.c:30,assertion@sem_destroy_waited.c:31
 * run: -DREINIT --keep-going --algorithm source ; verdict=error executions=3 failing=2 errors=misuse@sem_destroy_waited.c:30,assertion@sem_destroy_waited.c:31
 * run: -DREINIT --keep-going --algorithm classic ; verdict=error errors=misuse@sem_destroy_waited.c:30,assertion@sem_destroy_waited.c:31
 * run: -DREINIT --keep-going --algorithm none ; verdict=error errors=misuse@sem_destroy_waited.c:30,assertion@sem_destroy_waited.c:31
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

sem_t items;
int started, late;

static void *consumer(void *arg) {
    started = 1;
    sem_wait(&items);
    assert(!late);
    return arg;
}

int main(void) {
    pthread_t c;
    sem_init(&items, 0, 0);
    pthread_create(&c, 0, consumer, 0);
#if defined BUG
    sem_destroy(&items);
    return 0;
#elif defined REINIT
    sem_destroy(&items);
    sem_init(&items, 0, 1);
    late = 1;
    pthread_join(c, 0);
    return 0;
#else
    sem_post(&items);
    pthread_join(c, 0);
    sem_destroy(&items);
    return 0;
#endif
}
