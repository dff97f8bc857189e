/* The writer stores 0 into `flag` three times (values it already holds) and then 1;
 * main spins until it sees 1. The writes of 0 change nothing, so they do not make a spin
 * of main stale; only the final 1 does (still, as writes, they do not commute with
 * main's reads: main's first read of flag comes before each write or after the last,
 * and all but the last are redundant). It leaves only after the final 1, and then
 * reads data = 5: safe, in 1 complete execution.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag;
int data;

static void *writer(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++)
        atomic_store(&flag, 0);
    data = 5;
    atomic_store(&flag, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    while (!atomic_load(&flag)) {
    }
    assert(data == 5);
    pthread_join(t, 0);
    return 0;
}
