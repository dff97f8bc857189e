/* Two threads each increment a shared counter once without synchronization; main asserts
 * after joining both. An interleaving where both read 0 loses an update. The reads and
 * writes of x order in 4 traces (the two reads commute), 2 of which lose an update.
 * `none` counts interleavings of all 14 events (594, 240 failing, as counted by an
 * independent enumeration of this program's events for c-tests/checks/lost_update2.c).
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=lost_update.c:31
 * run: --keep-going ; verdict=error kind=assertion executions=4 failing=2 blocked=0
 * run: --keep-going --algorithm source ; verdict=error kind=assertion executions=4 failing=2
 * run: --keep-going --algorithm classic ; verdict=error kind=assertion
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=594 failing=240
 */
#include <assert.h>
#include <pthread.h>

int x;

void *inc(void *arg) {
    (void)arg;
    x = x + 1;
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(x == 2);
    return 0;
}
