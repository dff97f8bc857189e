/* A thread computes forever on a local and never reaches another visible event, so one
 * execution never finishes: with --exec-timeout 1 cdpor gives up on that execution and
 * reports that the program loops forever (verdict unknown, exit 2). Its loop divides,
 * which could trap: cdpor cannot tell that it never ends. With -DCOUNT it only counts
 * (`for (;;) n++;`): a loop that can neither be left nor fault, whose thread waits for
 * good, so main's join of it is a livelock, found at once.
 *
 * cdpor-test
 * run: --exec-timeout 1 ; verdict=unknown exit=2 contains="thread T1 ran without a visible operation"
 * run: -DCOUNT ; verdict=error kind=livelock location=loops_forever.c:21 executions=1
 */
#include <pthread.h>

int done;

void *spin(void *arg) {
    (void)arg;
    unsigned long n = 1;
#ifdef COUNT
    for (;;)
        n++;
#else
    for (;;)
        n = n / (n | 1) + n;
#endif
    return 0;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, 0, spin, 0);
    pthread_join(t, 0);
    done = 1;
    return 0;
}
