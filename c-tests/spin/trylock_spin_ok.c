/* Two threads take a pthread mutex by spinning on pthread_mutex_trylock: a failed
 * trylock changes nothing, so the spinner waits for the unlock. Each thread adds 1 to a
 * counter under the mutex: main sees 2, safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=2 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

static void *worker(void *arg) {
    (void)arg;
    while (pthread_mutex_trylock(&m) != 0) {
    }
    counter = counter + 1;
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    worker(0);
    pthread_join(t, 0);
    assert(counter == 2);
    return 0;
}
