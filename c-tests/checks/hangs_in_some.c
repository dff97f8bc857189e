/* Main loops forever in some interleavings only (when it sees neither thread's write),
 * and fails its assertion in others. An execution that runs past --exec-timeout is cut
 * where it stopped and exploration goes on, so the assertion is found (it was exit 2 at
 * the first hang). With -DALWAYS main loops in every execution, after the threads'
 * writes: the run ends on the hang (exit 2) and says how many executions hung.
 *
 * cdpor-test
 * run: --exec-timeout 1 ; verdict=error kind=assertion location=hangs_in_some.c:41
 * run: --exec-timeout 1 --keep-going ; verdict=error executions=4 bounded=1 errors=assertion@hangs_in_some.c:41
 * run: --exec-timeout 1 --keep-going --algorithm none ; verdict=error errors=assertion@hangs_in_some.c:41
 * run: --exec-timeout 1 -DALWAYS ; verdict=unknown exit=2 executions=2 contains="so did the other execution explored"
 */
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;

void *set(void *arg) {
    atomic_store((atomic_int *)arg, 1);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, set, &x);
    pthread_create(&b, 0, set, &y);
    int vx = atomic_load(&x);
    int always = 0;
#ifdef ALWAYS
    pthread_join(a, 0);
    pthread_join(b, 0);
    always = 1;
#endif
    int vy = atomic_load(&y);
    unsigned k = 7;
    if (always || (vx == 0 && vy == 0)) {
        for (unsigned i = 1;; i++)
            k = k / (i | 1) + 9;
    }
    assert(!(vx == 0 && vy == 1));
    pthread_join(a, 0);
    pthread_join(b, 0);
    return (int)k;
}
