/* A semaphore with count 1 used as a mutex: two threads add 1 to a counter under it, and
 * main sees 2. With -DCOUNT=2 both threads can be inside at once and an update is lost.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DCOUNT=2 --keep-going --algorithm optimal ; verdict=error kind=assertion location=mutex.c:40 errors=assertion@mutex.c:40
 * run: -DCOUNT=2 --keep-going --algorithm source ; verdict=error kind=assertion location=mutex.c:40 errors=assertion@mutex.c:40
 * run: -DCOUNT=2 --keep-going --algorithm classic ; verdict=error kind=assertion location=mutex.c:40 errors=assertion@mutex.c:40
 * run: -DCOUNT=2 --keep-going --algorithm none ; verdict=error kind=assertion location=mutex.c:40 errors=assertion@mutex.c:40
 */
#include <assert.h>
#include <pthread.h>
#include <semaphore.h>

#ifndef COUNT
#define COUNT 1
#endif

sem_t s;
int counter;

static void *worker(void *arg) {
    (void)arg;
    sem_wait(&s);
    counter = counter + 1;
    sem_post(&s);
    return 0;
}

int main(void) {
    pthread_t a, b;
    sem_init(&s, 0, COUNT);
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(counter == 2);
    sem_destroy(&s);
    return 0;
}
