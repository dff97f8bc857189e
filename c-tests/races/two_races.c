/* Two data races in every execution: main reads `a` while T1 writes it, and T1 and T2
 * both write `b`. Which one an execution meets first depends on the order of events
 * that commute, so with --keep-going every race of every execution is reported, and
 * each algorithm reports both, as `none` does. Four traces: main's read before or after
 * T1's write, times T1's and T2's writes of `b` in either order.
 *
 * cdpor-test
 * run: --races --keep-going ; verdict=error executions=4 failing=4 blocked=0 errors=data-race@two_races.c:19,data-race@two_races.c:25
 * run: --races --keep-going --algorithm source ; verdict=error executions=4 failing=4 errors=data-race@two_races.c:19,data-race@two_races.c:25
 * run: --races --keep-going --algorithm classic ; verdict=error executions=4 failing=4 errors=data-race@two_races.c:19,data-race@two_races.c:25
 * run: --races --keep-going --algorithm none ; verdict=error errors=data-race@two_races.c:19,data-race@two_races.c:25
 * run: ; verdict=safe executions=4
 */
#include <pthread.h>

int a, b;

void *t1(void *arg) {
    a = 1;
    b = 1;
    return arg;
}

void *t2(void *arg) {
    b = 2;
    return arg;
}

int main(void) {
    pthread_t x, y;
    pthread_create(&x, NULL, t1, NULL);
    pthread_create(&y, NULL, t2, NULL);
    int r = a;
    pthread_join(x, NULL);
    pthread_join(y, NULL);
    return r > 1;
}
