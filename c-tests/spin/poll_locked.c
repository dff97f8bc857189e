/* main polls a flag under a mutex (`for (;;) { lock; if (done) break-with-unlock;
 * unlock; }`) while N workers each add their part under the same mutex and the last one
 * sets the flag. An iteration that only takes the mutex, reads and frees it again leaves
 * every mutex as it found it: it waits like a spin (ops::mutex::hold_change), and the
 * execution where another thread changes what it read is redundant. Before, each turn of
 * the poll was an execution, and the run ended cut by --unroll (`incomplete`).
 * -DBROKEN: the first worker sets the flag.
 * -DLOST: no worker sets the flag: main waits for good, a livelock.
 *
 * cdpor-test
 * run: ; verdict=safe executions=2 blocked=0 stale_spins=4
 * run: --algorithm source ; verdict=safe executions=2
 * run: --algorithm classic ; verdict=safe executions=2
 * run: --algorithm none ; verdict=safe executions=38104
 * run: -DN=3 ; verdict=safe executions=6
 * run: -DBROKEN ; verdict=error kind=assertion location=poll_locked.c:54
 * run: -DBROKEN --algorithm none --keep-going ; verdict=error
 * run: -DLOST ; verdict=error kind=livelock
 * run: -DLOST --algorithm none ; verdict=error kind=livelock
 */
#include <assert.h>
#include <pthread.h>

#ifndef N
#define N 2
#endif

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int done, sum, finished;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
#ifdef BROKEN
    if (finished == 0)
        done = 1;
#endif
    sum += 1;
    finished += 1;
#if !defined(BROKEN) && !defined(LOST)
    if (finished == N)
        done = 1;
#endif
    pthread_mutex_unlock(&m);
    return arg;
}

int main(void) {
    pthread_t t[N];
    for (int i = 0; i < N; i++)
        pthread_create(&t[i], 0, worker, 0);
    for (;;) {
        pthread_mutex_lock(&m);
        if (done) {
            assert(sum == N);
            pthread_mutex_unlock(&m);
            break;
        }
        pthread_mutex_unlock(&m);
    }
    for (int i = 0; i < N; i++)
        pthread_join(t[i], 0);
    return 0;
}
