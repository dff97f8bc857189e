/* A worker counts to 5 while main reads the count once and returns without joining. With
 * --unroll 3 the worker is stopped at its fourth turn; main's return waits for it (the
 * end of the process waits while another thread can run) and ends the execution once it
 * is stopped, which is a cut (the worker could have counted on before main read): every
 * execution is cut, so the verdict is incomplete, never safe: `c < 5` fails only when all
 * five turns come first. (The worker's turns count toward --unroll because main wrote
 * `count` before it: turns that read only what their own thread wrote would not; see
 * spin/private_loop.c.) Unbounded, the failure is found. With -DSPAWN a spawner creates
 * threads without end while main returns: --max-threads stops it, and the executions
 * where main returns then are cut by that bound.
 *
 * cdpor-test
 * run: --unroll 3 ; verdict=incomplete executions=0 bounded=5 contains="--unroll"
 * run: --unroll 3 --algorithm source ; verdict=incomplete
 * run: --unroll 3 --algorithm classic ; verdict=incomplete
 * run: --unroll 3 --algorithm none ; verdict=incomplete executions=0 bounded=45
 * run: ; verdict=error kind=assertion location=unroll_cut_main_exits.c:46
 * run: --algorithm none ; verdict=error kind=assertion location=unroll_cut_main_exits.c:46
 * run: -DSPAWN --max-threads 3 ; verdict=incomplete contains="--max-threads"
 * run: -DSPAWN --max-threads 3 --algorithm none ; verdict=incomplete contains="--max-threads"
 */
#include <assert.h>
#include <pthread.h>

int count;

static void *nothing(void *arg) { return arg; }

static void *worker(void *arg) {
#ifdef SPAWN
    for (;;) {
        pthread_t t;
        pthread_create(&t, 0, nothing, 0);
    }
#endif
    for (int k = 0; k < 5; k++)
        count++;
    return arg;
}

int main(void) {
    pthread_t t;
    count = 0; /* main's write: the worker's counting reads it, so its turns count */
    pthread_create(&t, 0, worker, 0);
    int c = count;
    assert(c < 5);
    return 0;
}
