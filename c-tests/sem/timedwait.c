/* sem_timedwait may time out whenever the count is 0 (time is not modelled): a consumer
 * waits for an item with a deadline and handles the timeout; scheduled after the post,
 * it takes the unit. Both outcomes are explored: 2 executions. -DBUG assumes the item
 * is always there, which fails when the wait timed out.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: --algorithm none ; verdict=safe executions=45
 * run: --algorithm source ; verdict=safe executions=2
 * run: -DBUG ; verdict=error kind=assertion location=timedwait.c:36
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>

sem_t items;
int item;

void *producer(void *arg) {
    (void)arg;
    item = 42;
    sem_post(&items);
    return NULL;
}

int main(void) {
    sem_init(&items, 0, 0);
    pthread_t p;
    pthread_create(&p, NULL, producer, NULL);
    struct timespec deadline = {time(NULL) + 1, 0};
    int r = sem_timedwait(&items, &deadline);
    assert(r == 0 || errno == ETIMEDOUT);
#ifdef BUG
    assert(r == 0);
#endif
    if (r == 0)
        assert(item == 42);
    pthread_join(p, NULL);
    return 0;
}
