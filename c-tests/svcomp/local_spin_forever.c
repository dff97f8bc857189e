/* A thread that spins on its own copy of a shared variable (`int t = turn; while (t != 1)
 * {}`) reads nothing in its loop: once it goes round, it goes round for ever. That is an
 * await nothing can end, not a hang: under --svcomp the thread is stuck and the others
 * go on (the error after the loop is unreachable; SV-COMP's Dekker and Lamport tasks spin
 * so), and main waits for good to join it; without --svcomp, a livelock. With -DSET, main
 * sets `turn`, in some execution before the thread copies it, and the error is reached.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=1
 * run: --svcomp --algorithm none ; verdict=safe executions=2
 * run: ; verdict=error kind=livelock
 * run: --svcomp -DSET ; verdict=error kind=assertion location=local_spin_forever.c:26
 * run: --svcomp -DSET --algorithm none ; verdict=error kind=assertion location=local_spin_forever.c:26
 * run: --svcomp -DSET --keep-going ; verdict=error executions=2 failing=1
 */
extern void abort(void);
void reach_error(void) {}

#include <pthread.h>

int turn;

void *spinner(void *arg) {
    int t = turn;
    while (t != 1) {}
    reach_error();
    return arg;
}

int main(void) {
    pthread_t a;
    pthread_create(&a, 0, spinner, 0);
#ifdef SET
    turn = 1;
#endif
    pthread_join(a, 0);
    return 0;
}
