/* Main runs `a` and joins it, then runs `b`, which takes `a`'s thread number; `c` runs
 * throughout and reads `y` (written by `a`) and then `x` (written by `b`). Everything
 * `a` did happens before everything `b` does, and the engine sees the two as successive
 * events of one number, never as one thread's events reordered. `c` sees x = 1 and y =
 * 0 when it reads y before `a` writes it and x after `b` writes it: the assertion fails.
 * Traces: each of c's reads is before or after the write it reads from: 4.
 *
 * cdpor-test
 * run: ; verdict=error kind=assertion location=number_reused.c:22 contains=T1
 * run: --keep-going ; verdict=error executions=4 failing=1
 * run: --keep-going --algorithm source ; verdict=error executions=4 failing=1
 * run: --keep-going --algorithm classic ; verdict=error executions=4 failing=1
 * run: --keep-going --algorithm none ; verdict=error failing=250
 */
#include <assert.h>
#include <pthread.h>

int x, y;

static void *a(void *p) { y = 1; return p; }
static void *b(void *p) { x = 1; return p; }
static void *c(void *p) { int r1 = y; int r2 = x; assert(!(r2 == 1 && r1 == 0)); return p; }

int main(void) {
    pthread_t t1, t2, t3;
    pthread_create(&t3, 0, c, 0);
    pthread_create(&t1, 0, a, 0);
    pthread_join(t1, 0);
    pthread_create(&t2, 0, b, 0);
    pthread_join(t2, 0);
    pthread_join(t3, 0);
    return 0;
}
