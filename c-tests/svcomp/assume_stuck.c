/* An assumption in an atomic function is SV-COMP's blocking wait. The worker takes the
 * lock twice without releasing it: its second acquire can never succeed, so the worker is
 * stuck for good and main's join never returns. Outside --svcomp that is a deadlock,
 * reported at the assumption; under --svcomp a stuck thread is no error (the execution is
 * counted as stuck). -DRELEASE releases in between: safe.
 *
 * cdpor-test
 * run: ; verdict=error kind=deadlock location=assume_stuck.c:17 executions=1 messages="waits for the assumption"
 * run: --algorithm none ; verdict=error kind=deadlock executions=1
 * run: --svcomp ; verdict=safe executions=1
 * run: -DRELEASE ; verdict=safe executions=1
 */
extern void __VERIFIER_assume(int);
int lock;

void __VERIFIER_atomic_acquire(void) {
    __VERIFIER_assume(lock == 0);
    lock = 1;
}

void __VERIFIER_atomic_release(void) { lock = 0; }

#include <pthread.h>

void *worker(void *arg) {
    __VERIFIER_atomic_acquire();
#ifdef RELEASE
    __VERIFIER_atomic_release();
#endif
    __VERIFIER_atomic_acquire();
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
