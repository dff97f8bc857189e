/* The writer moves `stage` from 0 to 1, writes `data`, then moves `stage` to 2; the
 * spinner (main) waits only for stage != 0. If it reads the intermediate value 1 before
 * data is written, it reads data = 0 and its assertion fails: the bug needs the spinner
 * to wake on the first of the two writes, not only on the last.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=intermediate_bad.c:33 errors=assertion@intermediate_bad.c:33 executions=9 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=intermediate_bad.c:33 errors=assertion@intermediate_bad.c:33
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=intermediate_bad.c:33 errors=assertion@intermediate_bad.c:33
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=intermediate_bad.c:33 errors=assertion@intermediate_bad.c:33
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int stage;
atomic_int data;

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&stage, 1);
    atomic_store(&data, 1);
    atomic_store(&stage, 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int s;
    while ((s = atomic_load(&stage)) == 0) { /* BUG: should wait for stage == 2 */
    }
    assert(s == 2 || atomic_load(&data) == 1);
    pthread_join(t, 0);
    return 0;
}
