/* The writer moves `stage` from 0 to 1, writes `data`, then moves `stage` to 2; the
 * spinner (main) waits for stage == 2, which comes after the write of data: safe, even
 * when the spinner reads the intermediate value 1 and has to wait again.
 *
 * -DBROKEN waits only for stage != 0. If the spinner reads the intermediate value 1
 * before data is written, it reads data = 0 and its assertion fails: the bug needs the
 * spinner to read between the two writes, not only after the last.
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=safe executions=1 blocked=0
 * run: --algorithm source ; verdict=safe
 * run: --algorithm classic ; verdict=safe
 * run: --algorithm none ; verdict=safe
 * run: -DBROKEN --keep-going --algorithm optimal ; verdict=error kind=assertion location=intermediate.c:41 errors=assertion@intermediate.c:41 executions=4 blocked=0
 * run: -DBROKEN --keep-going --algorithm source ; verdict=error kind=assertion location=intermediate.c:41 errors=assertion@intermediate.c:41
 * run: -DBROKEN --keep-going --algorithm classic ; verdict=error kind=assertion location=intermediate.c:41 errors=assertion@intermediate.c:41
 * run: -DBROKEN --keep-going --algorithm none ; verdict=error kind=assertion location=intermediate.c:41 errors=assertion@intermediate.c:41
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
#ifdef BROKEN
    while ((s = atomic_load(&stage)) == 0) { /* BUG: should wait for stage == 2 */
    }
    assert(s == 2 || atomic_load(&data) == 1);
#else
    while ((s = atomic_load(&stage)) != 2) {
    }
    assert(atomic_load(&data) == 1);
#endif
    pthread_join(t, 0);
    return 0;
}
