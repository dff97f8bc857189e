/* A crash is not the property SV-COMP checks on unreach-call: a task whose interleavings
 * can dereference NULL and can also call reach_error() is FALSE(unreach-call), whichever
 * exploration meets first. Under --svcomp the search goes on after a crash and answers
 * with reach_error(); the crash is still listed. Without --svcomp the first error ends it.
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=crash_then_reach.c:37
 * run: --svcomp --probes 0 ; verdict=error kind=assertion location=crash_then_reach.c:37
 * run: --svcomp --probes 0 --algorithm none ; verdict=error kind=assertion location=crash_then_reach.c:37
 * run: --svcomp --probes 0 -DNO_REACH ; verdict=error kind=crash
 * run: --probes 0 --keep-going ; verdict=error failing=4 executions=5
 * run: --probes 0 --keep-going --algorithm none ; verdict=error failing=34 executions=41
 */
#include <pthread.h>

extern void abort(void);
void reach_error(void) {}

int cell = 7;
int *volatile slot = &cell;
volatile int ready;

void *retire(void *arg) {
    (void)arg;
    ready = 1;
    slot = 0;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, retire, 0);
    int seen = ready;
    int v = *slot;
#ifndef NO_REACH
    if (seen && v == 7) {
        reach_error();
        abort();
    }
#endif
    pthread_join(t, 0);
    return 0;
}
