/* A nondeterministic value drawn inside an atomic section, where some values end the
 * section with abort() (an assumption that failed): the other values are still explored,
 * so two threads that each claim a free slot of four both succeed in some execution
 * (12 pairs of distinct slots, in 2 orders).
 * (The section's end of the program carries its choice of value.)
 *
 * cdpor-test
 * run: --svcomp ; verdict=error kind=assertion location=nondet_in_atomic_abort.c:53
 * run: --svcomp --algorithm source ; verdict=error kind=assertion location=nondet_in_atomic_abort.c:53
 * run: --svcomp --algorithm classic ; verdict=error kind=assertion location=nondet_in_atomic_abort.c:53
 * run: --svcomp --keep-going ; verdict=error executions=24 failing=24 blocked=0
 * run: --svcomp -DONE_SLOT ; verdict=safe
 * run: --svcomp -DONE_SLOT --algorithm none ; verdict=safe
 */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void) {}

#include <pthread.h>

#ifdef ONE_SLOT
#define SLOTS 1
#else
#define SLOTS 4
#endif

int taken[SLOTS];
int claimed;

static void claim(void) {
    __VERIFIER_atomic_begin();
    int i = __VERIFIER_nondet_int();
    if (!(0 <= i && i < SLOTS)) abort();
    if (taken[i]) abort();
    taken[i] = 1;
    claimed++;
    __VERIFIER_atomic_end();
}

void *worker(void *arg) {
    claim();
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (claimed == 2) reach_error();
    return 0;
}
