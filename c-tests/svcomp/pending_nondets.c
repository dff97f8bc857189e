/* Two threads each start with a nondeterministic value of its own type and domain: main
 * creates both before either runs, so both values are pending at once. Each value must be
 * drawn from its own call's domain (c: [0,128) [128,200) [200] [201,256), x: [MIN,0)
 * [0,1000) [1000] [1001,MAX]), whichever thread draws first: 4 x 4 = 16 executions, one
 * of which fails. (When the domain was kept once for the whole program, the second
 * thread's call replaced the first's, and the bug was missed.)
 *
 * cdpor-test
 * run: --svcomp --probes 0 ; verdict=error kind=assertion location=pending_nondets.c:36
 * run: --svcomp --probes 0 --keep-going ; verdict=error executions=16 failing=1 blocked=0
 * run: --svcomp --probes 0 --keep-going --algorithm source ; verdict=error executions=16 failing=1
 * run: --svcomp --probes 0 --keep-going --algorithm classic ; verdict=error executions=16 failing=1
 * run: --svcomp --probes 0 --algorithm none ; verdict=error kind=assertion location=pending_nondets.c:36
 * run: --svcomp --probes 0 -DSAFE ; verdict=safe executions=16 blocked=0
 */
#include <pthread.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int a, b;

void *first(void *p) {
    unsigned char c = __VERIFIER_nondet_uchar();
    if (c == 200)
        a = 1;
    return p;
}

void *second(void *p) {
    int x = __VERIFIER_nondet_int();
    if (x == 1000)
        b = 1;
    return p;
}

static void check(void) { if (a && b) reach_error(); }

int main(void) {
    pthread_t x, y;
    pthread_create(&x, 0, first, 0);
    pthread_create(&y, 0, second, 0);
    pthread_join(x, 0);
    pthread_join(y, 0);
#ifndef SAFE
    check();
#endif
    return 0;
}
