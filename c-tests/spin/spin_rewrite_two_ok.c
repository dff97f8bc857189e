/* Two workers each announce that they are waiting by storing waiting = 1 on every turn
 * of their spin loop, until main sets `go`. After its first turn a worker only rewrites
 * the 1 already there: its loop changes nothing and waits. The other worker's rewrite of
 * the same 1 changes nothing either, so it leaves the other's spin as it was (were it a
 * change, each loop would have to run again after the other's, without end). Safe; the
 * runs carry a time limit so that this cannot hang.
 *
 * cdpor-test
 * run: --time-limit 20 --algorithm optimal ; verdict=safe executions=3 blocked=0
 * run: --time-limit 20 --algorithm source ; verdict=safe
 * run: --time-limit 20 --algorithm classic ; verdict=safe
 * run: --time-limit 20 --algorithm none ; verdict=safe executions=240
 */
#include <pthread.h>
#include <stdatomic.h>

atomic_int go, waiting;

static void *worker(void *arg) {
    (void)arg;
    while (!atomic_load(&go))
        atomic_store(&waiting, 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    atomic_store(&go, 1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
