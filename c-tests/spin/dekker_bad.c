/* Dekker's algorithm with the flag raised after the entry test instead of before it: both
 * threads can find the other's flag down, skip the back-off loop and enter together, and
 * the second one's write of `owner` breaks the first one's assertion.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=dekker_bad.c:33 errors=assertion@dekker_bad.c:33 executions=22 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=dekker_bad.c:33 errors=assertion@dekker_bad.c:33
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=dekker_bad.c:33 errors=assertion@dekker_bad.c:33
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=dekker_bad.c:33 errors=assertion@dekker_bad.c:33
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

atomic_int wants[2];
atomic_int turn;
int owner;

static void *worker(void *arg) {
    int me = (int)(intptr_t)arg;
    int other = 1 - me;
    while (atomic_load(&wants[other])) {
        if (atomic_load(&turn) != me) {
            atomic_store(&wants[me], 0); /* back off */
            while (atomic_load(&turn) != me) {
            }
            atomic_store(&wants[me], 1);
        }
    }
    atomic_store(&wants[me], 1); /* BUG: too late, after the test */
    owner = me;
    assert(owner == me);
    atomic_store(&turn, other);
    atomic_store(&wants[me], 0);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, (void *)(intptr_t)1);
    worker((void *)(intptr_t)0);
    pthread_join(t, 0);
    return 0;
}
