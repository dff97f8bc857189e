/* The writer sets x to 1 and then to 2; the spinner (main) waits for x != 0 and asserts
 * that it saw 2. It can read x while it is 1: the assertion fails, and only if the
 * spinner's read can come between the two writes, not just after the last.
 *
 * cdpor-test
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion location=intermediate_value_bad.c:30 errors=assertion@intermediate_value_bad.c:30 executions=3 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion location=intermediate_value_bad.c:30 errors=assertion@intermediate_value_bad.c:30
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion location=intermediate_value_bad.c:30 errors=assertion@intermediate_value_bad.c:30
 * run: --keep-going --algorithm none ; verdict=error kind=assertion location=intermediate_value_bad.c:30 errors=assertion@intermediate_value_bad.c:30
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

static void *writer(void *arg) {
    (void)arg;
    atomic_store(&x, 1);
    atomic_store(&x, 2);
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, writer, 0);
    int v;
    while ((v = atomic_load(&x)) == 0) {
    }
    assert(v == 2);
    pthread_join(t, 0);
    return 0;
}
