/* A lock made of an assumption in an atomic function (SV-COMP's idiom): acquire waits
 * until the word is 0. Three threads increment under it: 3! orders, never a lost update.
 * -DBROKEN releases before the increment.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=6 blocked=0
 * run: --svcomp --algorithm source ; verdict=safe executions=6
 * run: --svcomp --algorithm classic ; verdict=safe executions=6
 * run: --svcomp -DBROKEN ; verdict=error kind=assertion location=assume_lock.c:46
 * run: --svcomp -DBROKEN --keep-going --algorithm none --max-executions 3000 ; verdict=error
 */
extern void __VERIFIER_assume(int);
void reach_error(void) {}

#include <pthread.h>

int lock, count;

void __VERIFIER_atomic_acquire(void) {
    __VERIFIER_assume(lock == 0);
    lock = 1;
}

void __VERIFIER_atomic_release(void) { lock = 0; }

void *worker(void *arg) {
    __VERIFIER_atomic_acquire();
#ifdef BROKEN
    __VERIFIER_atomic_release();
#endif
    int c = count;
    count = c + 1;
#ifndef BROKEN
    __VERIFIER_atomic_release();
#endif
    return arg;
}

int main(void) {
    pthread_t t[3];
    for (int i = 0; i < 3; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (int i = 0; i < 3; i++)
        pthread_join(t[i], 0);
    if (count != 3)
        reach_error();
    return 0;
}
