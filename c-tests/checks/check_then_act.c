/* Check-then-act on a flag: each thread enters the "once" section if it sees flag == 0,
 * then sets the flag and records that it entered (entered[i], a per-thread slot). Both can
 * enter when both read the flag before either sets it.
 *
 * Traces (optimal): a thread that reads flag after the other's store does nothing more
 * (2 traces, one per order, correct); if both read 0 first, the two flag stores are ordered
 * 2 ways (2 traces, both with entered[0] + entered[1] == 2, failing). entered[0] and
 * entered[1] are disjoint, so they add nothing -> 4 traces, 2 failing.
 * none: 1591 interleavings, 1106 failing (enumerated over the event model).
 *
 * cdpor-test
 * run: --algorithm optimal ; verdict=error kind=assertion location=check_then_act.c:40
 * run: --keep-going --algorithm optimal ; verdict=error kind=assertion executions=4 blocked=0 failing=2
 * run: --keep-going --algorithm none ; verdict=error kind=assertion executions=1591 failing=1106
 * run: --algorithm source ; verdict=error kind=assertion
 * run: --algorithm classic ; verdict=error kind=assertion
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>

int flag;
int entered[2];

void *once(void *arg) {
    int i = (int)(intptr_t)arg;
    if (flag == 0) {
        flag = 1;
        entered[i] = 1;
    }
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, once, (void *)0);
    pthread_create(&b, 0, once, (void *)1);
    pthread_join(a, 0);
    pthread_join(b, 0);
    assert(entered[0] + entered[1] == 1); /* the error is reported on this line */
    return 0;
}
