/* pthread_cond_timedwait may time out whenever it could wake (time is not modelled):
 * the timeout is explored beside the signal, and the wait returns ETIMEDOUT. A waiter
 * in a `while (!ready)` loop ends either way; asserting that it never timed out (BUG) is
 * a bug that is found. A wait that timed out and finds nothing changed (`timed_out` was
 * already set) waits again for a signal only (timing out again would repeat the same
 * state): with nobody to signal (NOSIGNAL), the program never ends, reported as a
 * deadlock. QUIET: the other thread sets `ready` without signalling; a real wait would
 * time out again and see it, so an execution where no thread can run but that wait is
 * cut, never a deadlock. A loop that counted its timeouts would make progress each
 * time, and could time out without end before the signal: its exploration is cut by
 * --unroll.
 *
 * cdpor-test
 * run: ; verdict=safe executions=8
 * run: --algorithm none ; verdict=safe executions=94
 * run: --no-spurious-wakeups ; verdict=safe executions=3
 * run: -DBUG ; verdict=error kind=assertion location=timedwait.c:58
 * run: -DBUG --algorithm none ; verdict=error kind=assertion location=timedwait.c:58
 * run: -DNOSIGNAL ; verdict=error kind=deadlock location=timedwait.c:54
 * run: -DNOSIGNAL --algorithm none ; verdict=error kind=deadlock
 * run: -DQUIET ; verdict=incomplete executions=5 contains="a timed wait could time out again"
 * run: -DQUIET --algorithm none ; verdict=incomplete
 * run: -DQUIET --no-spurious-wakeups --algorithm source ; verdict=incomplete
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <time.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int ready;

void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    ready = 1;
#ifndef QUIET
    pthread_cond_signal(&cv);
#endif
    pthread_mutex_unlock(&m);
    return 0;
}

int main(void) {
    pthread_t t;
#ifndef NOSIGNAL
    pthread_create(&t, 0, signaller, 0);
#endif
    struct timespec ts = {0, 0};
    int timed_out = 0;
    pthread_mutex_lock(&m);
    while (!ready) {
        int r = pthread_cond_timedwait(&cv, &m, &ts);
        assert(r == 0 || r == ETIMEDOUT);
        if (r == ETIMEDOUT) timed_out = 1;
#ifdef BUG
        assert(!timed_out);
#endif
    }
    pthread_mutex_unlock(&m);
#ifndef NOSIGNAL
    pthread_join(t, 0);
#endif
    return 0;
}
