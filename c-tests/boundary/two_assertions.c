/* Each thread sets its flag and then asserts it has not seen the other's: in some
 * interleavings one fails, in others the other one does. With --keep-going both are
 * reported, each with its own message and place.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error errors=assertion@two_assertions.c:19,assertion@two_assertions.c:28 messages="worker saw main,main saw worker"
 * run: --keep-going --algorithm none ; verdict=error errors=assertion@two_assertions.c:19,assertion@two_assertions.c:28 messages="worker saw main,main saw worker"
 */
#include <assert.h>
#include <pthread.h>

int main_flag, worker_flag;

static void *worker(void *arg) {
    (void)arg;
    worker_flag = 1;
    int seen = main_flag;
    /* The message names this thread: a report must not mix it with main's. */
    assert(seen == 0 && "worker saw main");
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    main_flag = 1;
    int seen = worker_flag;
    assert(seen == 0 && "main saw worker");
    pthread_join(t, NULL);
    return 0;
}
