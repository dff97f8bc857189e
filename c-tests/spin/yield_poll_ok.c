/* A polite polling loop: main waits for the worker's flag calling sched_yield() (or, with
 * -DUSLEEP, usleep()) on each turn. Neither call touches program memory, so the loop is
 * still an await, not an --unroll loop; main reads the data after the flag: safe.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0 bounded=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DUSLEEP --algorithm optimal ; verdict=safe executions=1 blocked=0 bounded=0
 * run: -DUSLEEP --algorithm source ; verdict=safe
 * run: -DUSLEEP --algorithm classic ; verdict=safe
 * run: -DUSLEEP --algorithm none ; verdict=safe
 */
#define _DEFAULT_SOURCE
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <unistd.h>

atomic_int flag;
int data;

static void *worker(void *arg) {
    (void)arg;
    data = 3;
    atomic_store(&flag, 1);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    while (!atomic_load(&flag)) {
#ifdef USLEEP
        usleep(100);
#else
        sched_yield();
#endif
    }
    assert(data == 3);
    pthread_join(t, 0);
    return 0;
}
