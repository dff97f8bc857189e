/* A thread divides by its argument, zero, before any visible operation: it crashes in
 * its own step, which other threads may precede. main's assertion runs before the crash
 * in some interleavings, and fails there.
 *
 * cdpor-test
 * run: --keep-going ; verdict=error executions=2 blocked=0 errors=crash@crash_before_first_access.c:17,assertion@crash_before_first_access.c:24
 * run: --keep-going --algorithm source ; verdict=error errors=crash@crash_before_first_access.c:17,assertion@crash_before_first_access.c:24
 * run: --keep-going --algorithm classic ; verdict=error errors=crash@crash_before_first_access.c:17,assertion@crash_before_first_access.c:24
 * run: --keep-going --algorithm none ; verdict=error executions=5 errors=crash@crash_before_first_access.c:17,assertion@crash_before_first_access.c:24
 */
#include <assert.h>
#include <pthread.h>

int done;

void *divide(void *arg) {
    return (void *)(100 / (long)arg);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, divide, 0);
    done = 1;
    assert(done == 0);
    pthread_join(t, 0);
    return 0;
}
