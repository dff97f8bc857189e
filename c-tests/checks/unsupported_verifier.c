/* Uses the SV-COMP __VERIFIER_nondet_int API, not supported yet: exit 2 and the function's
 * name in the message.
 *
 * cdpor-test
 * run: ; exit=2 contains=__VERIFIER_nondet_int
 */
#include <pthread.h>

extern int __VERIFIER_nondet_int(void);

int x;

void *worker(void *arg) {
    (void)arg;
    x = __VERIFIER_nondet_int();
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, worker, 0);
    pthread_join(t, 0);
    return 0;
}
