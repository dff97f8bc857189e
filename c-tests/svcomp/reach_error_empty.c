/* SV-COMP style: reach_error() has an empty body and abort() follows it; the call is the
 * error. Two threads increment a counter without a lock: a lost update. The same meaning
 * holds without --svcomp.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=reach_error_empty.c:32 contains="reach_error() called"
 * run: --svcomp --keep-going ; verdict=error executions=4 failing=2 blocked=0
 * run: --svcomp --keep-going --algorithm none ; verdict=error executions=594 failing=240
 * run: --svcomp --keep-going --algorithm source ; verdict=error executions=4 failing=2
 * run: --svcomp --keep-going --algorithm classic ; verdict=error executions=6
 * run: --keep-going ; verdict=error executions=4 failing=2
 */
extern void abort(void);
void reach_error() {}

#include <pthread.h>

int counter;

void *inc(void *arg) {
    int t = counter;
    counter = t + 1;
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, inc, 0);
    pthread_create(&b, 0, inc, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (counter != 2) { ERROR: { reach_error(); abort(); } }
    return 0;
}
