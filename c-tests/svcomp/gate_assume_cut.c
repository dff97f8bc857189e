/* Visitors, created without end, each count themselves in under an assume-lock and
 * then assume that the gate is open, which the second visitor opens; past the gate is
 * the error. With --max-threads 2 the first execution runs the first visitor alone to
 * its false assumption while main waits at the bound: that execution is cut, and the
 * second visitor's events race with the false assumption that ended it, so every
 * algorithm goes on to the order where both count in first. With -DNEED=3 the gate
 * needs a third visitor, past the bound: incomplete.
 *
 * cdpor-test
 * run: --svcomp --max-threads 2 --probes 0 ; verdict=error kind=assertion location=gate_assume_cut.c:48
 * run: --svcomp --max-threads 2 --probes 0 --algorithm source ; verdict=error kind=assertion location=gate_assume_cut.c:48
 * run: --svcomp --max-threads 2 --probes 0 --algorithm classic ; verdict=error kind=assertion location=gate_assume_cut.c:48
 * run: --svcomp --max-threads 2 --probes 0 --algorithm none ; verdict=error kind=assertion location=gate_assume_cut.c:48
 * run: --svcomp --max-threads 2 -DNEED=3 ; verdict=incomplete contains="--max-threads"
 * run: --svcomp --max-threads 2 -DNEED=3 --algorithm none ; verdict=incomplete contains="--max-threads"
 */
#include <pthread.h>
#include <stdlib.h>

#ifndef NEED
#define NEED 2
#endif

void reach_error(void);
void __VERIFIER_assume(int);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

int held, arrived, open_gate;

void __VERIFIER_atomic_take(void) {
    __VERIFIER_assume(held == 0);
    held = 1;
}

void __VERIFIER_atomic_give(void) { held = 0; }

static void *visitor(void *arg) {
    __VERIFIER_atomic_take();
    arrived++;
    if (arrived == NEED)
        open_gate = 1;
    __VERIFIER_atomic_give();
    __VERIFIER_atomic_begin();
    if (!open_gate)
        abort();
    __VERIFIER_atomic_end();
    reach_error();
    return arg;
}

int main(void) {
    pthread_t t;
    for (;;)
        pthread_create(&t, 0, visitor, 0);
}
