/* A joiner thread joins the worker through a global id that main stores with its second
 * pthread_create (BUG: the joiner may read it before the store, and join id 0, which
 * names no thread); correctly main creates the worker first. TWICE: main joins the
 * worker as well, so whichever of the two joins comes second joins a thread that was
 * joined already. Both are misuses that POSIX leaves undefined; under --svcomp the join
 * returns ESRCH.
 *
 * cdpor-test
 * run: ; verdict=safe executions=1
 * run: --algorithm none ; verdict=safe executions=18
 * run: -DBUG ; verdict=error kind=misuse location=join_no_thread.c:26 contains="joins a thread id that names no thread"
 * run: -DBUG --algorithm none --keep-going ; verdict=error kind=misuse location=join_no_thread.c:26
 * run: -DBUG --keep-going ; verdict=error kind=misuse executions=3
 * run: -DBUG --svcomp ; verdict=safe
 * run: -DTWICE --keep-going ; verdict=error kind=misuse executions=2 contains="which was joined already"
 * run: -DTWICE --keep-going --algorithm source ; verdict=error kind=misuse executions=2
 * run: -DTWICE --keep-going --algorithm none ; verdict=error kind=misuse executions=105
 */
#include <pthread.h>

pthread_t worker_id;

static void *worker(void *arg) { return arg; }

static void *joiner(void *arg) {
    pthread_join(worker_id, 0);
    return arg;
}

int main(void) {
    pthread_t j;
#ifdef BUG
    pthread_create(&j, 0, joiner, 0);
    pthread_create(&worker_id, 0, worker, 0);
#else
    pthread_create(&worker_id, 0, worker, 0);
    pthread_create(&j, 0, joiner, 0);
#endif
#ifdef TWICE
    pthread_join(worker_id, 0);
#endif
    pthread_join(j, 0);
    return 0;
}
