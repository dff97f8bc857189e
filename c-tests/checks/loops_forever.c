/* A thread spins forever on a local counter and never reaches another visible event, so
 * one execution never finishes: with --exec-timeout 1 cdpor gives up on that execution and
 * reports that the program loops forever (verdict unknown, exit 2).
 *
 * cdpor-test
 * run: --exec-timeout 1 ; verdict=unknown exit=2 contains="thread T1 ran without a visible operation"
 */
#include <pthread.h>

int done;

void *spin(void *arg) {
    (void)arg;
    unsigned long n = 0;
    for (;;)
        n++;
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
    pthread_join(t, 0);
    done = 1;
    return 0;
}
