/* The idiomatic poll `while (sem_trywait(&s) == -1 && errno == EAGAIN) ;` is an await:
 * an iteration that failed and read the same errno makes no progress, so the poller
 * waits for the post (errno is the thread's own, set by its own calls, and compared
 * between iterations). A loop that stops once a call has set errno (-DFIRST_FAIL) is no
 * await before that: it ends after one failed try, with nobody to post.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2
 * run: --algorithm none ; verdict=safe
 * run: -DBUG ; verdict=error kind=assertion location=trywait_errno_loop.c:41
 * run: -DFIRST_FAIL ; verdict=safe executions=1
 * run: -DFIRST_FAIL --algorithm none ; verdict=safe executions=1
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

sem_t items;
int item;

void *producer(void *arg) {
    item = 5;
    sem_post(&items);
    return arg;
}

int main(void) {
    sem_init(&items, 0, 0);
#ifdef FIRST_FAIL
    errno = 0;
    for (;;) {
        if (errno == EAGAIN) break;
        sem_trywait(&items);
    }
#else
    pthread_t t;
    pthread_create(&t, 0, producer, 0);
    while (sem_trywait(&items) == -1 && errno == EAGAIN) {}
#ifdef BUG
    assert(item == 0);
#endif
    assert(item == 5);
    pthread_join(t, 0);
#endif
    return 0;
}
