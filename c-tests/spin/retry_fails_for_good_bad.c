/* A try that fails for good: main resets its expected value to 0 before each try, and
 * the worker sets the word to 1 and never back. Once the worker has run, every try
 * fails the same way: a livelock, which must still be reported (the loop's value comes
 * back as it was, an await, not a retry loop whose failed tries are redundant).
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=livelock executions=2 blocked=0
 * run: --algorithm source ; verdict=error kind=livelock
 * run: --algorithm classic ; verdict=error kind=livelock
 * run: --algorithm none ; verdict=error kind=livelock
 * run: --algorithm none --all-retries ; verdict=error kind=livelock
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int word;

static void *worker(void *arg) {
    (void)arg;
    atomic_store(&word, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    int expected = 0;
    while (!atomic_compare_exchange_strong(&word, &expected, 2))
        expected = 0;
    pthread_join(t, 0);
    return 0;
}
