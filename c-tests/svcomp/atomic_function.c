/* Every function named __VERIFIER_atomic_* runs as one indivisible step, with the
 * functions it calls: two threads that add through it never lose an update. -DSPLIT
 * renames it, and the read and the write can interleave.
 *
 * cdpor-test
 * run: --svcomp ; verdict=safe executions=2 blocked=0
 * run: --svcomp --algorithm none ; verdict=safe executions=103
 * run: --svcomp --algorithm source ; verdict=safe executions=2
 * run: --svcomp --algorithm classic ; verdict=safe executions=2
 * run: --svcomp -DSPLIT ; verdict=error kind=assertion
 * run: --svcomp -DSPLIT --keep-going ; verdict=error executions=4 failing=2 location=atomic_function.c:47
 */
extern void abort(void);
void reach_error(void) {}

#include <pthread.h>

int total;

static int twice(int v) { return v + v; }

#ifdef SPLIT
void add_twice(int v)
#else
void __VERIFIER_atomic_add_twice(int v)
#endif
{
    int t = total;
    total = t + twice(v);
}

void *worker(void *arg) {
#ifdef SPLIT
    add_twice(1);
#else
    __VERIFIER_atomic_add_twice(1);
#endif
    return arg;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, worker, 0);
    pthread_join(a, 0);
    pthread_join(b, 0);
    if (total != 4) { reach_error(); abort(); }
    return 0;
}
