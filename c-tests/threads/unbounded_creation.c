/* Main creates threads forever and joins none. Outside --svcomp there is no bound on
 * the threads a run creates, but at most 511 can be created and not joined at once: the
 * 512th create waits for good, the threads already created run on, and the execution
 * counts as cut (incomplete). A bug within the bound is still a bug: the workers count
 * themselves without synchronization, and the fourth to read the counter finds 3.
 * Without -DBUG each worker writes its own element: 1 execution, cut.
 *
 * cdpor-test
 * run: ; verdict=incomplete executions=0 bounded=1
 * run: -DBUG ; verdict=error kind=assertion location=unbounded_creation.c:27
 * run: --svcomp --max-threads 5 -DBUG ; verdict=error kind=assertion location=unbounded_creation.c:27
 * run: --svcomp --max-threads 3 -DBUG ; verdict=incomplete
 */
#include <assert.h>
#include <pthread.h>

#define SLOTS 1024

int count;
long mine[SLOTS];

static void *work(void *arg) {
#ifdef BUG
    (void)arg;
    int c = count;
    count = c + 1;
    assert(c < 3);
#else
    mine[(long)arg % SLOTS] = 1;
#endif
    return 0;
}

int main(void) {
    for (long i = 0;; i++) {
        pthread_t t;
        pthread_create(&t, 0, work, (void *)i);
    }
    return 0;
}
