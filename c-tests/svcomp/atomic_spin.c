/* A ticket lock whose wait is a spin inside an atomic section (`__VERIFIER_atomic_begin();
 * while (l != s) ; __VERIFIER_atomic_end();`): no other thread runs within the section,
 * so an iteration that changed nothing would go round for ever. The section cannot
 * complete then: like a false assumption in an atomic function, it waits until a write
 * could change what it read. Mutual exclusion holds; without the wait (-DNO_WAIT) the
 * critical sections overlap.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=2 blocked=0
 * run: --svcomp --algorithm none ; verdict=safe
 * run: --svcomp -DNO_WAIT ; verdict=error kind=assertion location=atomic_spin.c:36
 */
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void) {}

#include <pthread.h>

volatile unsigned served, next;
int owner;

void __VERIFIER_atomic_take(unsigned *ticket) {
    *ticket = next;
    next = next + 1;
}

void *worker(void *arg) {
    unsigned ticket;
    __VERIFIER_atomic_take(&ticket);
#ifndef NO_WAIT
    __VERIFIER_atomic_begin();
    while (ticket != served) {}
    __VERIFIER_atomic_end();
#endif
    owner = (int)(long)arg;
    if (owner != (int)(long)arg) reach_error();
    __VERIFIER_atomic_begin();
    served++;
    __VERIFIER_atomic_end();
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, (void *)1);
    pthread_create(&b, 0, worker, (void *)2);
    pthread_join(a, 0);
    pthread_join(b, 0);
    return 0;
}
